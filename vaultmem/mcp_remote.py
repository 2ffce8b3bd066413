"""What an agent on another machine reads: the vault's paths said from the vault, not from the disk.

Over stdio the agent runs beside the person, and a message naming ``/home/ana/Notes`` is one
the person can act on. Over HTTP (mcp_http.py) the agent is remote: an absolute path of the
server is nothing it can use, and it shows the person's directory layout to whoever holds the
token. So every message the HTTP server sends passes through :class:`RemotePaths` at the
transport boundary (:class:`PathsFromTheVault`, the server's one middleware), whatever raised
or composed it (the library, the MCP shell, the SDK): the vault root becomes "the vault", a
path in it becomes vault-relative, a folder above it ``..`` (``../.git/index.lock``). See
adr/0015-mcp-over-http.md, "Paths from the vault".

What is rewritten: a failed call's text, a JSON-RPC error's message, a progress message, and
in an answer the strings under the keys that carry vaultmem's own words (``warnings``,
``notice``, a problem's ``message`` and ``fix`` …) — never a note's body, title, snippet or
frontmatter (``meta``, where a property may be called ``message`` too):
those are the person's text, read byte for byte (an agent that wrote a body back would
otherwise change the file).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, cast

import pydantic_core
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError

THE_VAULT = "the vault"
# An answer's keys whose strings are vaultmem's words (a note's own text is never under them).
MESSAGE_KEYS = frozenset({"message", "messages", "notice", "notices", "warning", "warnings", "reason", "why",
                          "fix", "error", "errors", "hint"})
# An answer's keys that hold the person's frontmatter: a property named `message` or `why` is
# their text, not vaultmem's words.
PERSONS_KEYS = frozenset({"meta", "properties", "frontmatter"})
_PATH_CHAR = r"\-\w.~/\\"  # what may stand before a path's first character without it being a path's
_ENDS_NAME = r"(?![\w~-]|\.\w)"  # the folder's name ends here: /notes is not /notes2, nor /notes.bak


def spellings(folder: Path) -> Iterator[str]:
    """The ways a message writes ``folder``: as str() and repr() write it, and with forward slashes."""
    text = str(folder)
    yield from dict.fromkeys([text, folder.as_posix(), text.replace("\\", "\\\\")])


class RemotePaths:
    """Messages with the server's absolute paths said from the vault (pure: strings in, strings out)."""

    def __init__(self, root: Path) -> None:
        self._depth: dict[str, int] = {}  # a spelling of the root or a folder above it → levels up
        # The root as the server names it (Vault.root: absolute, its '..' kept): `--vault ../Notes`
        # run in ~/work names it ~/work/../Notes, which was said "../work/../Notes", not "the vault".
        given = Path(root).absolute()
        for form in spellings(given) if given != given.parent else ():
            self._depth[form] = 0
        for base in dict.fromkeys([Path(os.path.abspath(root)), Path(os.path.realpath(root))]):
            for depth, folder in enumerate([base, *base.parents]):
                if folder == folder.parent:
                    break  # the file system's root: a path from there is not "above the vault", only elsewhere
                for form in spellings(folder):
                    self._depth.setdefault(form, depth)
        if not self._depth:
            raise ValueError(f"{root} is the file system's root: no vault can be served from there")
        roots = "|".join(re.escape(form) for form, depth in self._by_length() if depth == 0)
        every = "|".join(re.escape(form) for form, _depth in self._by_length())
        # "outside the vault '/home/ana/Notes'" → "outside the vault"; "in /home/ana/Notes:" → "in the vault:".
        self._named_root = re.compile(rf"(?:\b[Tt]he vault(?: folder)? )?(?<![{_PATH_CHAR}:])(?P<q>['\"]?)"
                                      rf"(?:{roots}){_ENDS_NAME}(?P=q)(?![/\\])")
        self._path = re.compile(rf"(?<![{_PATH_CHAR}:])(?P<base>{every}){_ENDS_NAME}(?P<sep>[/\\]+(?=[^\s'\"]))?")

    def _by_length(self) -> list[tuple[str, int]]:
        return sorted(self._depth.items(), key=lambda item: len(item[0]), reverse=True)  # /a/b before /a

    def text(self, message: str) -> str:
        """``message`` with the vault root as "the vault" and paths in or above it relative to it."""
        return self._path.sub(self._relative, self._named_root.sub(THE_VAULT, message))

    def _relative(self, found: re.Match[str]) -> str:
        depth = self._depth[found.group("base")]
        if found.group("sep") is None:
            return THE_VAULT if depth == 0 else "/".join([".."] * depth)
        return "../" * depth  # the path inside the vault (or beside it) follows, from here

    def answer(self, document: Any) -> Any:
        """A JSON-ready answer with the strings under :data:`MESSAGE_KEYS` said from the vault."""
        if isinstance(document, dict):
            return {key: value if key in PERSONS_KEYS else self.every_string(value) if key in MESSAGE_KEYS
                    else self.answer(value) for key, value in document.items()}
        if isinstance(document, list):
            return [self.answer(item) for item in document]
        return document

    def every_string(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.every_string(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.every_string(item) for item in value]
        return value

    def tool_result(self, result: dict[str, Any]) -> dict[str, Any]:
        """A ``tools/call`` result as the wire carries it: a failure's text whole, an answer's messages."""
        shown = dict(result)
        if "structuredContent" in shown:
            shown["structuredContent"] = self.answer(shown["structuredContent"])
        shown["content"] = [self._content(block, failed=bool(result.get("isError"))) for block in result.get("content", [])]
        return shown

    def _content(self, block: Any, failed: bool) -> Any:
        if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(block.get("text"), str):
            return block
        if failed:
            return {**block, "text": self.text(block["text"])}
        try:
            answer = json.loads(block["text"])
        except ValueError:
            return block  # not an answer's JSON: text vaultmem does not send; left as it is
        shown = self.answer(answer)
        if shown == answer:
            return block  # the text as the SDK wrote it
        return {**block, "text": pydantic_core.to_json(shown, fallback=str, indent=2).decode()}  # as the SDK writes it


class _ProgressFromTheVault:
    """A request's session whose progress messages go through :class:`RemotePaths` (the rest as it is)."""

    def __init__(self, session: ServerSession, paths: RemotePaths) -> None:
        self._session = session
        self._paths = paths

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        await self._session.report_progress(progress, total, None if message is None else self._paths.text(message))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


# The arguments that name a note or a folder of the vault (mcp_server's tools).
PATH_ARGUMENTS = ("note", "notes", "folder", "supersedes")
ABSOLUTE_OVER_HTTP = ("PathOutsideVault: path {path!r} is absolute: over HTTP a note is named from the vault root "
                      "('memories/x.md'), by its name or its id, and a folder from the vault root too; this server "
                      "does not say where the vault is on its disk")


def absolute_argument(params: Any) -> str | None:
    """The first note or folder argument of a ``tools/call`` that is an absolute path, as sent.

    The library answers an absolute path into the vault with its path from the root ("is absolute:
    give … 'Daily/x.md'") and one outside with "outside the vault", and the rewrite above turned a
    path beside the vault into ``../x``: a remote agent that tried ``/home/ana/x`` learnt which
    folders hold the vault (a week-long agent trial). Refused here, alike wherever it points."""
    arguments = params.get("arguments") if isinstance(params, Mapping) else None
    if not isinstance(arguments, Mapping):
        return None
    for name in PATH_ARGUMENTS:
        values = arguments.get(name)
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str) and (PurePosixPath(value).is_absolute() or PureWindowsPath(value).is_absolute()):
                return value
    return None


class PathsFromTheVault:
    """The SDK's server middleware: every tool call's answer, failure and progress said from the vault."""

    def __init__(self, paths: RemotePaths) -> None:
        self.paths = paths

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method != "tools/call":
            return await self._said(call_next, ctx)
        absolute = absolute_argument(ctx.params)
        if absolute is not None:
            name = ctx.params.get("name") if isinstance(ctx.params, Mapping) else None
            text = f"Error executing tool {name}: {ABSOLUTE_OVER_HTTP.format(path=absolute)}"
            return {"content": [{"type": "text", "text": text}], "isError": True}
        # A cast: the proxy is the session with one method said otherwise; the handler only calls it.
        session = cast(ServerSession, _ProgressFromTheVault(ctx.session, self.paths))
        result = await self._said(call_next, dataclasses.replace(ctx, session=session))
        return self.paths.tool_result(result) if isinstance(result, dict) else result

    async def _said(self, call_next: CallNext, ctx: ServerRequestContext[Any, Any]) -> HandlerResult:
        try:
            return await call_next(ctx)
        except MCPError as error:
            raise MCPError(error.code, self.paths.text(error.message), error.data) from error
