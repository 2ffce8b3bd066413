"""What the MCP tests share: the tool names, time limits, running a client scenario, and
a stdio session with a real server process.

Used by test_mcp.py (stdio), test_mcp_http.py (streamable HTTP) and test_hostile.py. Sync
tests drive the async client with ``anyio.run`` (no pytest async plugin needed).
"""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult

from helpers import REPO, capped_command, vaultmem_command

TOOLS = {"remember", "revise", "recall", "list_notes", "list_tasks", "explain", "get", "forget", "mark_used", "consolidate", "expire", "check"}
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


@dataclass(frozen=True)
class Progress:
    """One progress notification a call received."""

    progress: float
    total: float | None
    message: str | None


class Served:
    """A live client session plus what the transport saw besides responses."""

    def __init__(self, session: ClientSession, transport_messages: list[object]) -> None:
        self.session = session
        self.transport_messages = transport_messages

    async def result(self, tool: str, progress: list[Progress] | None = None, **arguments: Any) -> CallToolResult:
        """The call's result; with ``progress``, the call asks for progress notifications and
        collects them there (the SDK then sends a progressToken)."""
        async def heard(value: float, total: float | None, message: str | None) -> None:
            assert progress is not None
            progress.append(Progress(value, total, message))

        with anyio.fail_after(CALL_SECONDS):
            return await self.session.call_tool(tool, arguments, progress_callback=None if progress is None else heard)

    async def call(self, tool: str, progress: list[Progress] | None = None, **arguments: Any) -> dict[str, Any]:
        """A tool call that must succeed; its structured result."""
        result = await self.result(tool, progress, **arguments)
        assert not result.is_error, f"{tool}({arguments}) failed: {text_of(result)}"
        assert isinstance(result.structured_content, dict), result
        return result.structured_content

    async def error(self, tool: str, **arguments: Any) -> str:
        """A tool call that must fail as a tool error; its message."""
        result = await self.result(tool, **arguments)
        assert result.is_error, f"{tool}({arguments}) should have failed: {result}"
        return text_of(result)


def server_parameters(vault: Path, capped: bool = False) -> StdioServerParameters:
    """``vaultmem --vault VAULT mcp`` (``capped``: under helpers.MEMORY_CAP)."""
    python_path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    command = vaultmem_command(vault, "mcp")
    if capped:
        command = capped_command(command)
    return StdioServerParameters(command=command[0], args=command[1:], env={**os.environ, "PYTHONPATH": python_path})


@asynccontextmanager
async def serve(vault: Path, log: Path, capped: bool = False) -> AsyncIterator[Served]:
    """`vaultmem mcp` on ``vault``, its stderr written to ``log`` (outside the vault)."""
    transport_messages: list[object] = []

    async def keep(message: object) -> None:
        transport_messages.append(message)

    with log.open("w", encoding="utf-8") as errlog:
        async with stdio_client(server_parameters(vault, capped), errlog=errlog) as (read, write):
            async with ClientSession(read, write, message_handler=keep) as session:
                with anyio.fail_after(STARTUP_SECONDS):
                    await session.initialize()
                yield Served(session, transport_messages)
