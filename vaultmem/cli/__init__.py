"""The ``vaultmem`` command line: parse options, call one library method, render.

No SQL, no lifecycle rules, no file writes here. One module per group of commands, each
registering its commands on the one ``main`` group (shell.py, with what they share:
errors, JSON, the opened vault): recall.py (index, search, explain, get, stats),
writes.py (remember, revise, forget), jobs.py (expire, consolidate, check), usage.py
(used, stale, usage, history), serve.py (mcp, watch), tasks.py (tasks). ``vaultmem.cli:main`` is the
console script.
"""

from __future__ import annotations

from . import jobs, recall, serve, tasks, usage, writes  # noqa: F401 - importing registers their commands
from .shell import main

__all__ = ["main"]
