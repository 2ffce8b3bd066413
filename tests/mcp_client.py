"""What the MCP tests share: the tool names, time limits, and running a client scenario.

Used by test_mcp.py (stdio) and test_mcp_http.py (streamable HTTP). Sync tests drive the
async client with ``anyio.run`` (no pytest async plugin needed).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp.types import CallToolResult

TOOLS = {"remember", "revise", "recall", "explain", "get", "forget", "mark_used", "consolidate", "expire", "check"}
STARTUP_SECONDS = 90  # spawn + imports + the first reconcile, on a slow CI machine
CALL_SECONDS = 60


def run(scenario: Callable[..., Awaitable[None]], *args: Any) -> None:
    """``anyio.run`` the scenario; a failure inside the client's task groups surfaces as itself."""
    try:
        anyio.run(functools.partial(scenario, *args))
    except BaseExceptionGroup as group:
        raise innermost(group) from None


def innermost(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def note(title: str, body: str, **meta: str) -> str:
    lines = [f"title: {title}"] + [f"{key}: {value}" for key, value in meta.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + body + "\n"
