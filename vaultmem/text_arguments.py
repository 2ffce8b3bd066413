"""A text argument is text: a lone UTF-16 surrogate is refused where it enters the library.

Python strings can hold what no UTF-8 file, SQLite value or tokenizer can: a lone surrogate
(``"\\ud800"``), which JSON carries as an escape (an agent's MCP argument cut between an
emoji's two halves) and Python makes of a command-line byte that is not UTF-8 (``\\xff`` is
``"\\udcff"``, surrogateescape). Met deep inside, it was a traceback (``UnicodeEncodeError``
binding a NOTE, a ``--tag`` or a used note to SQLite; ``TypeError`` from the tokenizer for a
QUERY) — and ``remember`` with such a title wrote the note, then failed (``NoteWritten``),
leaving a file whose frontmatter does not load. :func:`takes_text` checks every string a
:class:`~vaultmem.vault.Vault` method is given, before it reads or writes anything, and
refuses the call with a :class:`~vaultmem.errors.UsageError` naming the argument, where the
bad character is and the fix; nothing is written. See adr/0018 ("Values").

Paths are not checked: a vault folder whose name is not UTF-8 is a real folder (os.fsdecode).
"""

from __future__ import annotations

import functools
import inspect
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import ParamSpec, TypeVar

from .errors import Argument, UsageError
from .paths import RENAME_TO_UTF8

P = ParamSpec("P")
R = TypeVar("R")

_SURROGATE = re.compile("[\ud800-\udfff]")
# Arguments the command line takes as positional values, spelled as its usage line shows them;
# the others are options spelled --name-with-dashes (Argument's default) unless listed here.
_CLI_SPELLING = {"query": "QUERY", "note": "NOTE", "notes": "NOTES", "reference": "NOTE",
                 "tags": "--tag", "layers": "--layer", "add_tags": "--tag", "remove_tags": "--untag",
                 "now": "--as-of", "set_properties": "--set", "unset_properties": "--unset"}
# Arguments that name a note: one may be a file of the vault whose name is not UTF-8, which the
# shell hands over as surrogateescape ('caf\udce9.md') — refused too, but told to be renamed.
_NAMES_NOTES = frozenset({"note", "notes", "reference", "supersedes"})
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as os.fsdecode keeps it
_DEPTH = 4  # a list of lists inside a mapping is as deep as an argument goes (revise's set_properties)
_SKIPPED = frozenset({"self", "vault", "path", "progress", "operation", "still_valid", "on_change"})


def require_text(value: str, name: str, flag: str | None = None) -> None:
    """Refuse ``value`` (the argument ``name``; ``flag`` on the command line) if it holds a lone surrogate."""
    found = _SURROGATE.search(value)
    if found is None:
        return
    raise UsageError(Argument(name, flag=flag or _CLI_SPELLING.get(name)),
                     f" holds {found.group()!r} at character {found.start() + 1}, which is not text: half of a "
                     "UTF-16 surrogate pair (an emoji cut in two), or a byte that is not UTF-8 as a shell passes it; "
                     "no note holds it and none can be written with it. Send the text as UTF-8, each character whole; "
                     "nothing was read or written")


def require_file_name(root: Path, value: str, name: str, flag: str | None = None) -> None:
    """Refuse ``value`` (a NOTE argument) as naming a file of the vault at ``root`` whose name is
    not UTF-8, if it names one: vaultmem leaves such a file out (paths.VaultPaths.scan), and the
    fix is to rename it, not to send other text. Only a path inside the vault is looked for."""
    if _ESCAPED_BYTE.search(value) is None:
        return
    relative = PurePosixPath(value)
    if relative.is_absolute() or ".." in relative.parts:
        return  # nothing an agent sends may probe outside the vault
    for candidate in (value, value + ".md"):
        try:
            name_bytes = os.fsencode(candidate)
        except UnicodeEncodeError:  # a lone half of a pair, not an escaped byte: no file has it
            return
        if os.path.lexists(os.path.join(os.fsencode(root), name_bytes)):
            shown = name_bytes.decode("utf-8", "replace")
            raise UsageError(Argument(name, flag=flag or _CLI_SPELLING.get(name)),
                             f" names {shown}, a file whose name is not UTF-8 (\ufffd stands for the bytes it cannot "
                             f"read), so vaultmem leaves it out (not indexed, read or changed); "
                             f"{RENAME_TO_UTF8}; nothing was read or written")


def _references(value: object) -> list[str]:
    """The NOTE references an argument holds: one, or a list or tuple of them (a generator is left alone)."""
    if isinstance(value, str):
        return [value]
    return [item for item in value if isinstance(item, str)] if isinstance(value, list | tuple) else []


def _require_within(value: object, name: str, flag: str | None, depth: int = 0) -> None:
    if isinstance(value, str):
        require_text(value, name, flag)
    elif depth >= _DEPTH:
        return
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _require_within(key, name, flag, depth + 1)
            _require_within(item, name, flag, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _require_within(item, name, flag, depth + 1)


def takes_text(**cli_flags: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a Vault method: every string argument (also inside a list, tuple, set or mapping)
    is text, or the call is refused before it runs. ``cli_flags``: how the command line spells an
    argument of this method where it differs from the others' (remember's positional TEXT, revise's
    --text). A generator argument is left alone: reading it here would use it up."""

    def decorate(method: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(method)

        @functools.wraps(method)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            arguments = signature.bind_partial(*args, **kwargs).arguments
            root = getattr(arguments.get("self"), "root", None)
            for name, value in arguments.items():
                if name in _SKIPPED:
                    continue
                if name in _NAMES_NOTES and isinstance(root, Path):
                    for reference in _references(value):
                        require_file_name(root, reference, name, cli_flags.get(name))
                _require_within(value, name, cli_flags.get(name))
            return method(*args, **kwargs)

        return checked

    return decorate
