"""``vaultmem mcp``: a vault as an agent's memory over the Model Context Protocol.

A thin shell over :class:`~vaultmem.vault.Vault`: each tool's arguments are validated
strictly (mcp_arguments.py), the tool makes one library call and returns the library's
result as a JSON-ready dict. No SQL, no lifecycle rules, no file writes here. The
transport is stdio (``serve``) or streamable HTTP (mcp_http.py); both serve the server
built by ``build_server``.

What the shell does own (see adr/0011-mcp-server.md and adr/0015-mcp-over-http.md):

- **Startup.** The watcher is started (its start-up reconcile brings the index in line
  with the files) while the protocol handshake is answered, so a slow first index never
  times out the client's ``initialize``. A call that comes while it runs (adr/0021 "While
  the index is being built"): a read (recall, list_notes, explain) waits for a small one,
  and a second at most for a large one (a first index), then answers from the notes indexed
  so far with a warning saying how far the index is;
  a write, and get, wait for the whole index and say so as progress notifications every
  few seconds; check reads the files and waits for nothing. If startup fails, every call
  reports why.
- **Vault threads.** Calls run on a few long-lived threads, each with its own SQLite
  connection and vector reader (a ``Vault`` keeps one per thread): reads run side by
  side, writes are serialised by SQLite, and a slow call does not hold up the others.
- **Policy for agents.** ``forget(hard=true)`` needs ``[mcp] allow_hard_delete = true``; a
  ``remember`` or ``revise`` that spells out a secret needs ``[mcp] allow_secrets = true``.
- **Retries.** A write sent with a ``request_id`` is made once; its retry gets the first
  answer (the library's ``Vault.once``); a ``remember``, or a ``revise`` with ``append``, repeated
  without one within two minutes is answered, not written twice (adr/0031-retried-writes.md).
- **Answers that fit a client.** ``get``'s body and ``check``'s, ``expire``'s and
  ``consolidate``'s lists come in parts by ``offset`` (mcp_pages.py).
- **Errors.** In SDK v2 only a ``ToolError`` reaches the client with its message, so
  every ``VaultmemError`` becomes one, carrying the error's kind and the library's message
  (``WriteConflict: …``; the message names the value and the fix). Anything else is a bug: the client sees the SDK's generic
  "Error executing tool …" and the traceback goes to stderr.

Over stdio, stdout carries only the protocol: the SDK's stdio transport points fd 1 at
stderr while it serves, so a stray print from any library lands in the log instead.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Future
from contextlib import ExitStack, asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from string import Template
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.context import ServerMiddleware
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import BeforeValidator, Field, WithJsonSchema

from . import __version__
from .config import CONFIG_FILE, DEFAULT_THRESHOLD, McpSettings
from .errors import NoteNotFound, VaultmemError, respelled, with_notes
from .gitops import LockWaiting, lock_waits_told_to
from .index_progress import IndexBuilding, whole_seconds
from .lifecycle import LAYER_NAMES, LAYERS, LayerPolicy, format_duration
from .markdown import plugin_footer_start
from .mcp_arguments import StrictTool, one_or_list
from .mcp_pages import CHECK_PAGE_BYTES, PAGE_BYTES, add_notice, page, refuse_offset_with_apply
from .option_names import Surface
from .problem_groups import GROUPED_AT, grouped_answer
from .results import LeftUnsaid, NoteView, successor_reference, successor_words
from .retried_writes import MAX_KEY_CHARS
from .vault import Vault
from .verbatim_secrets import VerbatimSecret, verbatim_secret, verbatim_secret_property

if TYPE_CHECKING:
    from .watcher import Watcher

log = logging.getLogger("vaultmem.mcp")

Result = TypeVar("Result")

MAX_HITS = 100  # a recall is read by a model: a larger answer only floods its context
# The most of a note's body one get returns; the rest comes by offset. A whole 600 KB note in
# one answer failed over HTTP: the SDK's client refuses an event over 1 MiB, and the answer
# carries the body twice (structured and as text), escaped. 100,000 characters of any script
# stay under that, and are already a quarter of a large model's context.
GET_BODY_CHARS = 100_000
# Threads that run tool calls. Each keeps its own SQLite connection and its own copy of
# the vector snapshot (about 1.2 KB per note), so more threads cost memory; on a machine
# with a few cores more would only queue on the GIL and on SQLite's single writer.
VAULT_THREADS = 4
STOP_GRACE_SECONDS = 3.0  # a call still running after this is abandoned at shutdown
# A read that comes while the start-up reconcile runs waits for the whole of one of at most
# READ_WAITS_FOR_NOTES notes (a restart that found a few notes changed; its cost is mostly the
# embedder's loading, which the read's own query would wait for anyway), so its answer is whole.
# Of a larger one (a first index of thousands of notes) it waits READ_WAITS_SECONDS at most,
# then answers from the notes indexed so far, saying so.
READ_WAITS_FOR_NOTES = 100
READ_WAITS_SECONDS = 1.0
# A write kept waiting for the whole index tells the client this often (progress notifications):
# a client may restart its request timeout on them, and the user sees it is not hung.
TELL_WAITING_SECONDS = 2.0
WAIT_POLL_SECONDS = 0.1

LAYER_CONTENT = {
    "L1": "scratch and this session's working context",
    "L2": "what happened in a conversation, plans for the coming days",
    "L3": "facts that stay true for months: who people are, addresses, project learnings",
    "L4": "what stays true for good: allergies and health facts, birthdays, where things are kept, stable "
          "procedures and preferences",
}


# ------------------------------------------------------------------ the threads behind the tools


class VaultThreads:
    """A fixed set of daemon threads running submitted functions in FIFO order.

    Not ``ThreadPoolExecutor``: its threads are joined at interpreter exit, so one call
    stuck on a lock would keep a stopped server alive. These are long-lived (a thread's
    SQLite connection and vector reader are opened once) and a server that is told to
    stop can leave after a grace period whatever they are doing; every write vaultmem
    makes is atomic (temp file + rename, SQLite transactions), so abandoning one is safe.
    """

    def __init__(self, count: int) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"vaultmem-mcp-{number}", daemon=True)
                         for number in range(count)]
        for thread in self._threads:
            thread.start()

    def submit(self, function: Callable[[], Result]) -> Future[Result]:
        future: Future[Result] = Future()
        self._queue.put((function, future))
        return future

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            function, future = item
            if not future.set_running_or_notify_cancel():
                continue  # its caller left (cancelled) before it started
            try:
                future.set_result(function())
            except BaseException as error:  # noqa: BLE001 - handed to the caller through the future, as an executor does
                future.set_exception(error)

    def stop(self, timeout: float) -> bool:
        """Finish what is queued, then end; True when every thread ended within ``timeout``."""
        for _ in self._threads:
            self._queue.put(None)
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)


class WaitsTold:
    """Tells an MCP client that its write waits for another's turn on the commit lock.

    The wait is said by gitops (who holds the lock, when this write is refused) on the vault
    thread; here it becomes a progress notification of the call (progress: seconds waited, of
    the 300 after which the write is refused), at once and then every few seconds. Progress,
    not a log message: MCP's logging is deprecated (SEP-2577), and a client may restart its
    request timeout on progress (the TypeScript SDK's resetTimeoutOnProgress), so a write
    waiting its turn is not abandoned at the client's 60 s while the server still makes it.
    Only a client that asked for progress (a progressToken) hears it; the server's log says
    it either way.
    """

    def __init__(self, context: Context[Any, Any], loop: asyncio.AbstractEventLoop) -> None:
        self._context = context
        self._loop = loop
        self._sent: list[Future[None]] = []

    def __call__(self, waiting: LockWaiting) -> None:
        """On the vault thread: hand the notification to the event loop, without waiting for it."""
        self._sent.append(asyncio.run_coroutine_threadsafe(
            self._context.report_progress(waiting.waited, waiting.at_most, waiting.message), self._loop))

    async def delivered(self) -> None:
        for sent in self._sent:
            try:
                await asyncio.wrap_future(sent)
            except Exception:  # a client gone mid-call: its answer fails anyway, and the write stands
                log.warning("vaultmem: could not tell the client that a write was waiting", exc_info=True)


class Needs(Enum):
    """What a tool call needs of the start-up reconcile before it runs."""

    FILES = "files"  # reads the files alone (check): runs at once
    INDEX_SO_FAR = "index so far"  # a read: answers from the notes indexed so far, and says so
    WHOLE_INDEX = "whole index"  # a write, or get: waits for every note, telling the client


class VaultService:
    """The served Vault: started once, then called from the vault threads.

    A call that comes while the start-up reconcile runs waits for it or answers from the
    index so far, saying so, as its :class:`Needs` says. SQLite connections belong to the thread that
    opened them; the vault threads live as long as the server, and at the end the
    connections are closed after those threads have finished.
    """

    def __init__(self, vault: Vault, threads: int = VAULT_THREADS) -> None:
        self.vault = vault
        self._threads = VaultThreads(threads)
        self._ready = threading.Event()
        self._startup_error: Exception | None = None
        self._watcher: Watcher | None = None
        self._resources = ExitStack()

    async def call(self, operation: Callable[[Vault], Result], progress: Context[Any, Any] | None = None,
                   needs: Needs = Needs.WHOLE_INDEX) -> Result:
        """Run one library call on a vault thread; the event loop stays free meanwhile.

        ``operation`` returns the answer as JSON-ready data: the library's messages in it name
        operations as Python does (``Vault.check()``), and are said here as an agent can act
        on them (the check tool). ``progress``: the call's context, told when its write waits
        for another's turn (:class:`WaitsTold`) or for the whole index. ``needs``: what of the
        start-up reconcile the call waits for."""
        if needs is Needs.WHOLE_INDEX:
            await self._index_built(progress)
        elif needs is Needs.INDEX_SO_FAR:
            await self._index_built(None, at_most=READ_WAITS_SECONDS, unless_at_most=READ_WAITS_FOR_NOTES)
        told = None if progress is None else WaitsTold(progress, asyncio.get_running_loop())
        future = self._threads.submit(functools.partial(self._run, operation, told))
        try:
            # Awaited, not waited on in a worker: a client that cancels, or a server that
            # stops, does not have to wait for the call to end.
            return await asyncio.wrap_future(future)
        finally:
            if told is not None:
                await told.delivered()  # before the answer: a notification after it names a finished request

    async def _index_built(self, context: Context[Any, Any] | None, at_most: float | None = None,
                           unless_at_most: int = 0) -> None:
        """Wait until the start-up reconcile is done (or failed: the call then says why), for
        ``at_most`` seconds when given — unless it reads ``unless_at_most`` notes or fewer (or
        is still listing the files): that is waited for whole. ``context`` hears how far it is
        every few seconds.

        Progress is the seconds waited (it must grow with each notification, and the notes read
        may not between two), of the seconds waited plus those left at the pace so far; the
        message says how many notes are in. A write waits rather than runs beside the
        reconcile: it resolves its note, its supersedes, its similar notes and same_name from
        the index, and a partial one would answer "no note matches" for a note not read yet,
        or "nothing similar" — answers that look complete and are not."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        told_at: float | None = None
        while (building := self._building()) is not None:
            waited = loop.time() - began
            small = building.todo is None or building.todo <= unless_at_most
            if at_most is not None and waited >= at_most and not small:
                return
            if context is not None and (told_at is None or loop.time() - told_at >= TELL_WAITING_SECONDS):
                told_at = loop.time()
                left = building.seconds_left()
                await context.report_progress(waited, None if left is None else waited + whole_seconds(left),
                                              building.waiting("this call"))
            await asyncio.sleep(WAIT_POLL_SECONDS)

    def _building(self) -> IndexBuilding | None:
        """How far the start-up reconcile is, while it runs (also before the watcher is made)."""
        if not self._ready.is_set():
            return IndexBuilding(str(self.vault.root), None, 0, None, 0.0)
        return None if self._watcher is None else self._watcher.building()

    def _run(self, operation: Callable[[Vault], Result], told: WaitsTold | None = None) -> Result:
        self._ready.wait()
        self._raise_if_startup_failed()
        try:
            if self._watcher is not None:
                self._watcher.raise_if_failed()  # a dead watcher means a stale index: say so
            with nullcontext() if told is None else lock_waits_told_to(told):
                return respelled(operation(self.vault), Surface.MCP)
        except VaultmemError as error:
            # The error's kind first (WriteConflict: read the note again and retry; NoteNotFound;
            # UsageError: fix the arguments), so an agent can tell what to do without parsing prose.
            raise ToolError(f"{error.kind}: {with_notes(error.spelled(Surface.MCP), error)}") from error
        except OSError as error:
            # A disk full, a permission denied: say which, rather than the SDK's bare
            # "Error executing tool" (only ToolError keeps its message in SDK v2).
            log.exception("vaultmem: file system error")
            raise ToolError(f"file system error in {self.vault.root}: {with_notes(str(error), error)}") from error

    def _startup_failure(self) -> BaseException | None:
        """Why serving could not start: the watcher could not be made, or its start-up reconcile failed."""
        watcher = self._watcher
        if self._startup_error is None and watcher is not None and watcher.ready.is_set() and watcher.initial_report is None:
            return watcher.error  # None: stopped before it was done (the server is stopping)
        return self._startup_error

    def _raise_if_startup_failed(self) -> None:
        error = self._startup_failure()
        if isinstance(error, VaultmemError):
            raise ToolError(f"vaultmem is not serving {self.vault.root}: {error.spelled(Surface.MCP)}")
        if error is not None:
            raise ToolError(f"vaultmem is not serving {self.vault.root}: startup failed "
                            f"({type(error).__name__}); the traceback is in the server's log (stderr)")

    # -- start and stop

    def start(self) -> None:
        """Start the watcher; its start-up reconcile brings the index in line with the files.

        The watcher observes *before* it reconciles, so no edit slips between the two
        (a separate ``vault.index()`` first would only reconcile twice).

        Returns once the watcher observes; its reconcile goes on on its own thread, and a
        thread of its own logs when it is done (a vault thread kept for it would be one
        fewer for the calls answered meanwhile).

        Never raises: a failure is logged with its traceback and recorded, and from then
        on every tool call reports it. Raising here would tear the server down and the
        agent could not even tell the user why its memory is unavailable; serving anyway
        would answer from a stale index as if all were well.
        """
        try:
            watcher = self.vault.watch(quiet=True, start=False)
            self._resources.callback(watcher.stop)  # registered first: a failed start still stops its threads
            watcher.start(wait=False)
            self._watcher = watcher
            threading.Thread(target=self._log_started, args=(watcher,), name="vaultmem-mcp-started", daemon=True).start()
        except Exception as error:
            self._startup_error = error
            log.exception("vaultmem: could not start serving %s", self.vault.root)
        finally:
            self._ready.set()

    def _log_started(self, watcher: Watcher) -> None:
        """Once the start-up reconcile is done, say so; a failure the watcher logs itself (and every call reports)."""
        watcher.ready.wait()
        if watcher.initial_report is None:  # failed, or stopped before it was done
            if (error := self._startup_failure()) is not None:
                log.error("vaultmem: could not start serving %s: %s", self.vault.root, error)  # its traceback: the watcher's
            return
        report = watcher.initial_report
        counts = "" if report is None else (
            f" ({len(report.added)} added, {len(report.updated)} updated, {len(report.moved)} moved, "
            f"{len(report.removed)} removed, {report.unchanged} unchanged)")
        log.info("vaultmem: index of %s reconciled%s; watching for changes, serving", self.vault.root, counts)

    def stop(self) -> None:
        """Let running calls finish (for a few seconds), stop the watcher, close the connections."""
        if not self._threads.stop(STOP_GRACE_SECONDS):
            # Closing a connection under a running query would fail that query for no
            # gain: the process is about to end, and SQLite rolls back what it left open.
            log.warning("vaultmem: a call was still running after %.0f s; leaving it to end with the process",
                        STOP_GRACE_SECONDS)
            return
        try:
            self._resources.close()
        finally:
            self.vault.close()

    @asynccontextmanager
    async def lifespan(self, _server: MCPServer[None]) -> AsyncIterator[None]:
        """Start up while the handshake is served; stop when the transport ends."""
        self._threads.submit(self.start)
        try:
            yield None
        finally:
            # Shielded: the watcher and connections must be closed even when the server
            # is being cancelled.
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self.stop)


# ------------------------------------------------------------------ argument types

NOTE_NAMES = ("The note's id, its vault-relative path (with or without .md), or its file name (in any "
                "case) when that is unique in the vault (as in [[wikilinks]]); an id that was merged into or superseded by another "
                "note, a unique alias or permalink (frontmatter `permalink`, as basic-memory and Obsidian "
                "Publish write it: project/decisions/x, an end of it (decisions/x, x), or memory://…), a paper's citekey "
                "(frontmatter `citekey`: Koszegi2006b or @Koszegi2006b), a unique title (in any "
                "case) or a day as 2026-11-20 (the daily note named for it, whatever the vault's daily-note format) "
                "also work (the result's resolved_from says so). "
                "When one note has the name as its file name and another as its title, an alias or its permalink, get "
                "and explain take the first (file name, then alias or permalink, then title) and say the rest "
                "(get: resolved_from.others and "
                "notice; explain: its first reason); forget, revise, remember's supersedes and mark_used refuse "
                "(AmbiguousNote, naming each note and how it answers): pass the path or id.")
# Every form a note is named by, said once (get's note): the tool list is read into the agent's
# context every session, and this text in six arguments was 6 KB of it (a three-week agent trial).
NoteNamed = Annotated[str, Field(min_length=1, description=NOTE_NAMES)]
NoteRef = Annotated[str, Field(min_length=1, description=(
    "The note's id or vault-relative path, as recall, get or remember gave it; its file name, a unique title or "
    "alias, or a day (2026-11-20: that day's daily note) work too (every form: get's note argument). A name several "
    "notes answer to is refused by a write (AmbiguousNote): pass the path or id."))]
# One note or a list of them: an agent superseding one note sends its id bare (mcp_arguments.one_or_list).
NoteRefs = Annotated[list[Annotated[str, Field(min_length=1)]], BeforeValidator(one_or_list),
                     WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]})]
LayerName = Annotated[str, Field(description="L1/working, L2/episodic, L3/semantic or L4/procedural (case-insensitive).")]
# A property's value as JSON carries it: text (a date as its ISO text), a number, true/false, or a list of those.
PropertyValue = str | int | float | bool | list[str | int | float | bool]
Tag = Annotated[str, Field(min_length=1, description="One word, without '#'; nested tags use '/', e.g. project/harbor.")]
Timestamp = Annotated[str, Field(description="ISO-8601, e.g. 2026-12-24 or 2026-12-24T18:00:00+01:00 (naive = UTC).")]
Duration = Annotated[str, Field(description="A duration: 30m, 12h, 3d, 2w or combined, 1d12h.")]
# The forms a bound takes, said once (recall's since): each bound's own description says what it
# bounds; this text under all ten was 5 KB of the tool list.
DATE_FORMS = (
    "an ISO date or time (2026-11-23, 2026-11-23T09:00:00+01:00; naive = UTC), a period — 2026, 2026-11, 2026-W48, "
    "today, yesterday, tomorrow, this week, last week, next week, this month, last month, next month, this year, "
    "last year, next year (2026-W48 is an "
    "ISO week, Monday to Sunday; this week and last week start on the vault's first day of the week, the Calendar "
    "plugin's, Monday unless it names another): since = its start, until = its end — or a duration back from now (7d, 2w; -7d too; +7d: ahead of now).")
DateBound = Annotated[str, Field(max_length=64)]
ListOffset = Annotated[int, Field(ge=0, description=(
    "Where to start in the answer's long list (a next_offset the previous answer gave); a list too long for one "
    "answer comes in parts."))]
RequestId = Annotated[str | None, Field(min_length=1, max_length=MAX_KEY_CHARS, description=(
    "An id you make for this write (a UUID), sent again unchanged when you retry it after a timeout or a lost "
    "connection: a call with an id already answered is not made again, it returns the first answer with "
    "replayed={request_id, first_at}. The same id with other arguments is refused. Kept 7 days, across server restarts."))]


# ------------------------------------------------------------------ how a tool is declared

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

_TOOL_SPEC = "__vaultmem_tool__"


@dataclass(frozen=True)
class ToolSpec:
    """What an agent reads about a tool: its annotations and its description.

    The description may name ``$layers`` (the layers with this vault's TTLs) and
    ``$hard_delete`` (whether this vault lets agents delete for good) and ``$secrets`` (whether
    it lets them write a password or key out); all depend on
    ``.vaultmem.toml``, so they are filled in when the server is built and never wrong.
    """

    annotations: ToolAnnotations
    description: str


def vault_tool(annotations: ToolAnnotations, description: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a method of :class:`VaultTools` as an MCP tool, with what the agent reads about it."""

    def declare(method: Callable[..., Any]) -> Callable[..., Any]:
        setattr(method, _TOOL_SPEC, ToolSpec(annotations, description))
        return method

    return declare


# ------------------------------------------------------------------ tools


class VaultTools:
    """The MCP tools: each parses nothing itself, calls one Vault method and returns a dict."""

    def __init__(self, service: VaultService, settings: McpSettings) -> None:
        self.service = service
        self.settings = settings

    def refuse_secret(self, tool: str, fields: dict[str, str | None]) -> None:
        """Policy for agents: a write that spells out a password, PIN, card number or key is
        refused before anything is written, unless the person allowed it (verbatim_secrets.py).
        Said in the description alone, it was not enough: an agent asked to "remember my wifi
        password" stored it, and the commit kept it after forget."""
        if self.settings.allow_secrets:
            return
        for field, value in fields.items():
            if value is not None and (secret := verbatim_secret(value)) is not None:
                raise ToolError(secret_refusal(self.service.vault, tool, field, secret))

    def refuse_new_secret(self, vault: Vault, tool: str, note: str, text: str | None) -> None:
        """As ``refuse_secret``, for a note's new text: a secret the note already holds (the person's own
        "Router admin PIN: 4921") is carried, not spelled out — an agent sends the whole body back to
        change one fact in it. Run on the vault's thread, where the note is read."""
        if self.settings.allow_secrets or text is None:
            return
        if (secret := verbatim_secret(text, already=vault.get(note).body)) is not None:
            raise ToolError(secret_refusal(vault, tool, "text", secret))

    def refuse_secret_property(self, tool: str, properties: dict[str, PropertyValue]) -> None:
        """As ``refuse_secret``, for properties: ``wifi_password: X`` and each item of a list value
        (checked as the text "wifi_password: X", the key hid the word, and a list's items were not read)."""
        if self.settings.allow_secrets:
            return
        for key, value in properties.items():
            if (secret := verbatim_secret_property(key, value)) is not None:
                raise ToolError(secret_refusal(self.service.vault, tool, f"set_properties.{key}", secret))

    async def written(self, tool: str, request_id: str | None, arguments: dict[str, Any],
                      operation: Callable[[Vault], dict[str, Any]], context: Context[Any, Any] | None) -> dict[str, Any]:
        """A write's answer, made once per request id (adr/0031): a retry gets the first answer.

        A ``remember`` sent without one is matched to an identical call answered in the last
        two minutes whose note is still there: a client that timed out and sent it again got two
        notes. Two identical notes minutes apart add nothing; and never silently: the answer says
        ``replayed`` and how to write a second copy on purpose. So is a ``revise`` that appends
        (:func:`repeated_harmfully`).
        """
        if request_id is None and not repeated_harmfully(tool, arguments):
            return await self.service.call(operation, progress=context)
        still_valid = (lambda first: still_there(self.service.vault, first)) if request_id is None else None
        answer = await self.service.call(lambda vault: vault.once(
            request_id, tool, arguments, lambda: operation(vault), still_valid=still_valid), progress=context)
        if "replayed" in answer:
            add_notice(answer, replay_notice(answer["replayed"], tool))
        return answer

    @vault_tool(ADDITIVE, (
        "Save a new memory as a Markdown note in the vault; it is searchable as soon as this returns. "
        "Use it for anything worth recalling in a later conversation: a fact about the user, a decision, "
        "a preference, what happened. Pick the layer by how long it stays true — without one a memory is L2 and "
        "leaves recall when that layer expires, so a lasting fact about the user (an allergy, a birthday) needs L3 "
        "or L4; a permanent note or layer L4 never expires and takes no ttl/expires_at. Never store a secret "
        "(a password, PIN, card number, API key) verbatim, even when asked ($secrets): notes are plain-text files the "
        "person syncs and may keep in git, where forget cannot reach; remember where it is kept instead (\"the wifi "
        "password is in 1Password\").\n$layers\n"
        "When this fact replaces one you stored, pass the old note in supersedes: it is "
        "retired at once (expired now, superseded_by this note); an L4 or permanent note never expires: revise its text "
        "instead. To change a note in place, use revise.\n"
        "The file name comes from the title (-2, -3 … when taken). Returns id, path, title, layer, expires_at "
        "(null = never), tags, version, supersedes ({id, path}), unsaid (what they said that this text does not), similar, same_name, "
        "expires_before (a day the text names past its expiry: pass it as date to keep it). similar: live memories of "
        "any layer saying nearly the same ({id, path, title, similarity, layer}; cosine >= [consolidate] "
        "similar_threshold, 0.83) — if one holds this fact, forget one of the two or run consolidate (threshold <= "
        "the similarity; one layer only: of two layers, forget the one whose layer does not fit); then the person's own notes (yours: true, "
        "layer null, heading, lines [first, last], says: the sentence; cosine >= 0.70): not yours to supersede "
        "(refused) — forget your note or keep both, and revise theirs only if out of date. named_beside: the retired "
        "note whose file name this one would have had (it keeps it until expire archives it, so this one is numbered, "
        "name-2.md, and the user's [[name]] links open the old fact). same_name: live notes "
        "going by this title or file name ({id, path}); a [[link]] or a write by that name may find them: name "
        "notes by id or path. Errors name the bad argument (unknown layer, past time, ttl with "
        "permanent, a superseded note that cannot expire); nothing is written."
    ))
    async def remember(
        self,
        context: Context[Any, Any],  # told when the write waits for another's turn
        text: Annotated[str, Field(min_length=1, description="The memory, in Markdown. Written as the note's body, byte for byte.")],
        title: Annotated[str | None, Field(description="Title in the words a later question would use ('Where Sam lives', not 'Sam's address'); default: the text's first line.")] = None,
        layer: Annotated[str | None, Field(description=(
            "L1/working, L2/episodic (the default), L3/semantic or L4/procedural. Left out with supersedes: the "
            "layer of the notes it replaces, so a corrected fact keeps its kind and lifetime."))] = None,
        tags: Annotated[list[Tag] | None, Field(description="Tags, e.g. [\"travel\", \"project/harbor\"]. Left out with supersedes: the tags of the notes it replaces.")] = None,
        date: Annotated[str | None, Field(description="The day (or time) the memory is about (2026-01-28 for \"met Dana on 2026-01-28\"; or one day in words as since reads them: yesterday, last friday, friday = the next one; date_read says the day read): its date property, which dates it in recall and list_notes (default: when written). A later day: the layer's lifetime counts from it (\"concert on 2026-12-18\" as L2 expires 7 days after). A time is written as given: in its zone (2026-12-09T10:00-08:00), or without one as the person's wall-clock time.")] = None,
        ttl: Annotated[Duration | None, Field(description="Expire after this long instead of the layer default: 30m, 12h, 3d, 2w.")] = None,
        expires_at: Annotated[Timestamp | None, Field(description="Expire at this future instant instead of the layer default (ISO-8601; naive = UTC).")] = None,
        permanent: Annotated[bool, Field(description="Never expires (no expires_at is written). Not with ttl/expires_at.")] = False,
        folder: Annotated[str | None, Field(description="Vault-relative folder for the note (default: the vault's memories folder).")] = None,
        supersedes: Annotated[NoteRefs | None, Field(description=(
            "Notes this memory replaces, by id or path (one, or a list; every form: get's note): each expires now and "
            "records superseded_by."))] = None,
        request_id: RequestId = None,
    ) -> dict[str, Any]:
        self.refuse_secret("remember", {"text": text, "title": title})
        arguments = {"text": text, "title": title, "layer": layer, "tags": tags, "ttl": ttl, "expires_at": expires_at,
                     "permanent": permanent, "folder": folder, "supersedes": supersedes, "date": date}
        remembered = await self.written("remember", request_id, arguments, lambda vault: vault.remember(
            text, title=title, layer=layer, tags=tags or (), ttl=ttl, expires_at=expires_at,
            permanent=permanent, folder=folder, supersedes=supersedes or (), date=date).as_dict(), context)
        for left in remembered.get("unsaid") or ():
            add_notice(remembered, LeftUnsaid(**left).words())
        return remembered

    @vault_tool(DESTRUCTIVE, (
        "Change a memory in place when what it says changed (a time moved, a fact was corrected, an "
        "episode turned out to be a lasting fact): text replaces its body, append adds a paragraph at "
        "its end; title, layer, ttl/expires_at/permanent, add_tags and remove_tags change only those; "
        "set_properties ({\"company\": \"Acme\", \"last_contact\": \"2026-02-01\"}) sets other properties (a fact that "
        "changed: a person's company, a project's status) and unset_properties removes some — values read as YAML "
        "reads them (a date stays a date, [a, b] is a list), vaultmem's own keys (id, superseded_by …) refused; one "
        "written only in its text (speaker:: Ana) is changed there. The "
        "note keeps its id, path, usage and every other field — its file name too, made from its first title: when "
        "the fact that name says is what changed (a new boss, a new city), remember the new fact with supersedes "
        "instead, so the person's file list does not show the old one. A title remember made from the old text "
        "(none was given) is made anew from a new text, and previous_title says what it was; a title "
        "someone chose stays. A new layer without ttl/expires_at gets "
        "that layer's expiry from now, or from the note's date when that is later (L4 never expires); a new date "
        "(an appointment that moved: date) moves an expires_at vaultmem computed, never one that was given (the "
        "layers and their lifetimes: remember).\n"
        "Pass if_version (the version get, recall or remember gave you) so that a note the user edited "
        "since you read it is not overwritten: that is refused as WriteConflict, nothing is written — call "
        "get and decide again. Returns {id, path, version, title, layer, expires_at, expired, changed: [fields], previous_title, "
        "superseded_by, superseded_by_path, superseded_by_title, in_text, date_read, expires_before}; "
        "changed=[] means it already read as asked; expired=true (with a notice) means its expires_at has passed, so "
        "it stays hidden from recall until you give it a later one. Contradictions and an empty revision are errors "
        "and change nothing."
    ))
    async def revise(
        self,
        context: Context[Any, Any],  # told when the write waits for another's turn
        note: NoteRef,
        text: Annotated[str | None, Field(min_length=1, description="The note's new body, in Markdown (replaces the old one).")] = None,
        append: Annotated[str | None, Field(min_length=1, description="A paragraph to add at the end of the body.")] = None,
        title: Annotated[str | None, Field(min_length=1, description="A new title.")] = None,
        layer: Annotated[LayerName | None, Field(description="A new layer; without ttl/expires_at its expiry applies from now.")] = None,
        ttl: Annotated[Duration | None, Field(description="Expire this long from now: 30m, 12h, 3d, 2w.")] = None,
        expires_at: Annotated[Timestamp | None, Field(description="Expire at this future instant (ISO-8601; naive = UTC).")] = None,
        permanent: Annotated[bool | None, Field(description="true: never expires (expires_at removed); false: the layer's expiry applies again.")] = None,
        add_tags: Annotated[list[Tag] | None, Field(description="Tags to add.")] = None,
        remove_tags: Annotated[list[Tag] | None, Field(description="Tags to remove.")] = None,
        if_version: Annotated[str | None, Field(min_length=1, description="Only if the note is still at this version (from get, recall or remember).")] = None,
        set_properties: Annotated[dict[str, PropertyValue] | None, Field(description="Properties to set, {key: value}; the other keys and their order stay.")] = None,
        unset_properties: Annotated[list[str] | None, Field(description="Properties to remove, by key.")] = None,
        date: Annotated[str | None, Field(description="The day (or time) the memory is about now, as remember's date (words too): a moved appointment's new day.")] = None,
        request_id: RequestId = None,
    ) -> dict[str, Any]:
        self.refuse_secret("revise", {"append": append, "title": title})
        self.refuse_secret_property("revise", set_properties or {})
        arguments = {"note": note, "text": text, "append": append, "title": title, "layer": layer, "ttl": ttl,
                     "expires_at": expires_at, "permanent": permanent, "add_tags": add_tags, "remove_tags": remove_tags,
                     "if_version": if_version, "set_properties": set_properties, "unset_properties": unset_properties,
                     "date": date}
        def revise(vault: Vault) -> dict[str, Any]:
            self.refuse_new_secret(vault, "revise", note, text)
            return vault.revise(
                note, text=text, append=append, title=title, layer=layer, ttl=ttl, expires_at=expires_at,
                permanent=permanent, add_tags=add_tags or (), remove_tags=remove_tags or (), if_version=if_version,
                set_properties=set_properties, unset_properties=unset_properties or (), date=date).as_dict()

        revised = await self.written("revise", request_id, arguments, revise, context)
        if revised["expired"]:
            # Said in words: an agent that appended a current fact would otherwise expect to recall it.
            add_notice(revised, expired_revision_words(revised))  # after a replay's, which it replaced
        return revised

    @vault_tool(READ_ONLY, (
        "Search memory by meaning and keywords. Call it before answering "
        "anything that may depend on what you know about the user or their work. Expired memories "
        "(expires_at in the past) are hidden, so every hit is current; include_expired=true shows "
        "them too, flagged expired=true — only for questions about the past (the old address, "
        "the last manager), and only while they are still in the vault: expire(apply=true), forget and consolidate move "
        "notes to the archive, where recall never finds them (get reads one by its path there, and get of the old "
        "id names that path); the layers and their lifetimes: remember.\n"
        "Returns {hits: [{id, path, title, snippet, layer, expires_at, score, match, passage, tags, warnings, "
        "expired, version, date}], warnings, confident}, best first; date is the note's date (its date property, a "
        "YYYY-MM-DD in its file name, or when it was created; a weekly, monthly or quarterly note's period, 2026-W09, "
        "2026-03, 2026-Q1, kept by any range holding one of its days; null if none): the answer to \"when\" is often it. Hits are in "
        "order of relevance, not of date: for \"the first time\" or \"the last time\" something happened, raise k and "
        "take the earliest or latest date among the hits whose snippets say it (or narrow with since/until). score is the estimated chance (0-1) that the hit is what "
        "you asked for, comparable across queries: below 0.2 it rarely is, above 0.6 it usually is — when the vault "
        "holds an answer; words of your query that no memory holds lower every hit's score, but a note sharing a rare "
        "word with a question it does not answer can still score high, so read the snippet before relying on a hit; "
        "several notes that say the same thing share the evidence and each read low (five daily notes naming "
        "the dentist read about 0.1 each), so read the list, not only the first score. "
        "match says "
        "how it was found: both (by meaning and by keywords, the strongest evidence), meaning or keyword. A query "
        "that is a note's name (file name, title or alias) ranks that note first, with a score of at least 0.9 "
        "(shared when several notes bear the name). The snippet is the hit's best passage (or the "
        "properties holding the query); passage gives its headings and lines. A hit's "
        "warnings say when its metadata is broken (e.g. an unreadable expiry) and, for an expired hit, when it expired "
        "and which note superseded it (\"superseded by <id> (<path>)\": that note holds the current fact; when this answer "
        "does not hold it, the warning says which filter left it out: get it by its id); the top-level warnings say when "
        "the answer may be incomplete (the index is being built: how far, and when to ask again), "
        "when nothing matches well (confident=false, and explain says why; the hits are the nearest, weak), "
        "when the words name a period (pass since/until) "
        "and, for an empty answer, a tag asked for that no note carries (with the nearest tags); "
        "call get(id) for the full text, explain "
        "when a note you expected is missing, and mark_used with the ids you relied on."
    ))
    async def recall(
        self,
        query: Annotated[str, Field(min_length=1, description="What you are looking for, in words (matched by meaning and by keywords).")],
        k: Annotated[int, Field(ge=1, le=MAX_HITS, description="How many hits at most.")] = 10,
        layers: Annotated[list[LayerName] | None, Field(description="Only these layers, e.g. [\"L3\", \"procedural\"].")] = None,
        tags: Annotated[list[Tag] | None, Field(description="Only notes carrying all of these tags (a tag passes with the tags nested under it: project keeps project/harbor).")] = None,
        include_expired: Annotated[bool, Field(description="Also return expired notes (flagged expired=true) that are still in the vault: retired and superseded facts, not archived ones (get reads those by their path in the archive). Only for history questions.")] = False,
        since: Annotated[DateBound | None, Field(description=(
            "Only notes dated at or after this: by their date property, a day in the file name (in the vault's "
            "daily-note format), their created stamp, or else a line such as Date: 2026-11-30 under the title. "
            "For \"what happened last week\" pass since and until \"last week\" (the "
            "calendar week) or since=\"7d\" (the last seven days); notes without a date are left out, and a range "
            "that holds fewer notes than k says in warnings how many dated notes fall outside it. Days are the calendar "
            "days of the machine vaultmem runs on (its time zone). "
            "Every hit is then in the range: a low score says only that its words differ from the query's. "
            "The forms every since and until of these tools take: " + DATE_FORMS))] = None,
        until: Annotated[DateBound | None, Field(description=(
            "Only notes dated at or before this: an ISO date or time, or a period (2026-11, 2026-W48, yesterday, last "
            "week); a date or period alone runs through its end."))] = None,
    ) -> dict[str, Any]:
        def found(vault: Vault) -> dict[str, Any]:
            hits = vault.search(query, k=k, layers=layers, tags=tags, include_expired=include_expired, since=since, until=until)
            return {"hits": [hit.as_dict() for hit in hits], "warnings": hits.warnings, "confident": hits.confident}

        return await self.service.call(found, needs=Needs.INDEX_SO_FAR)

    @vault_tool(READ_ONLY, (
        "List memories by date, newest first, without a query: for \"what happened last week\", \"what do I "
        "have in L3\", or a look over recent notes before recall. Takes recall's filters; notes with no date come "
        "after the dated ones (and are left out when since or until is given). Expired memories are hidden unless "
        "include_expired=true.\n"
        "Returns {notes: [{id, path, title, layer, expires_at, date, tags, snippet, warnings, expired, version}], more, "
        "next_offset, warnings}: snippet is the opening of the note's text, past the lines of the vault's templates; more counts the notes "
        "past these that pass the filters, and next_offset (null at the end) is the offset to pass, with the same arguments, "
        "for the next ones; "
        "warnings say when the list may be incomplete (the index is being built: how far it is, and when to ask again), "
        "and for an empty list whether each tag asked for exists at all (with the nearest tags for one that does not). "
        "Call get(id) for a note's full text."
    ))
    async def list_notes(
        self,
        k: Annotated[int, Field(ge=1, le=MAX_HITS, description="How many notes at most.")] = 20,
        layers: Annotated[list[LayerName] | None, Field(description="Only these layers, e.g. [\"L3\", \"procedural\"].")] = None,
        tags: Annotated[list[Tag] | None, Field(description="Only notes carrying all of these tags (a tag passes with the tags nested under it).")] = None,
        include_expired: Annotated[bool, Field(description="Also list expired notes (flagged expired=true) that are still in the vault (not archived).")] = False,
        since: Annotated[DateBound | None, Field(description=(
            "Only notes dated at or after this (as in recall): an ISO date or time, a period (2026-11, 2026-W48, "
            "today, yesterday, this week, last week, this month, last month) or a duration back from now (7d)."))] = None,
        until: Annotated[DateBound | None, Field(description=(
            "Only notes dated at or before this; a date or period alone runs through its end."))] = None,
        offset: ListOffset = 0,
    ) -> dict[str, Any]:
        answer: dict[str, Any] = await self.service.call(lambda vault: vault.list_notes(
            k=k, layers=layers, tags=tags, include_expired=include_expired, since=since, until=until, offset=offset).as_dict(),
            needs=Needs.INDEX_SO_FAR)
        # Was: more counted 1,360 notes past the 100 an answer holds, and no argument reached them.
        answer["next_offset"] = offset + len(answer["notes"]) if answer["more"] else None
        return answer

    @vault_tool(READ_ONLY, (
        "List the vault's tasks (Markdown task lines, - [ ] / - [x], with the Tasks plugin's 📅 due, ⏳ scheduled, "
        "🛫 start, ➕ created, ✅ done, ❌ cancelled days or Dataview's [due:: …] fields; a Kanban card's @{day} is its "
        "due day): for \"what is due next "
        "week\", \"what did I finish on the 16th\", \"what is still open for Acme\", \"what is overdue\". Answers "
        "tasks, not notes: each is a line of a note, ordered by due day (tasks without one last), then path and line. "
        "Open tasks unless status says otherwise (done when done_since or done_until is given). Tasks of expired "
        "notes are hidden unless include_expired=true. The Tasks plugin's global filter and statuses, when the vault "
        "sets them, decide which lines are tasks and what each box means.\n"
        "Returns {tasks: [{path, line, status, box, text, dates: {due, scheduled, starts, created, done, cancelled}, "
        "recurrence, tags, title, id, lane}], more, next_offset, read, warnings}: dates holds only the days the task names; lane is a "
        "Kanban card's lane (null elsewhere); text is its words "
        "without them; title and id are its note's (call get(id) for the note); more counts the tasks past these, and "
        "next_offset (null at the end) is the offset to pass, with the same arguments, for the next ones. "
        "read says how the query's words were taken (\"due this week → due 2026-11-30..2026-12-06; not text: what's\"; "
        "null when all were text); an empty answer's warnings name the query's words that matched no task."
    ))
    async def list_tasks(
        self,
        status: Annotated[Literal["open", "done", "cancelled", "overdue", "all"] | None, Field(description=(
            "open (any box but x, X and -: in progress [/] too; or as the Tasks plugin's statuses declare), done "
            "([x]), cancelled ([-]), overdue (open and due "
            "before today) or all. Default: open, or done when done_since or done_until is given."))] = None,
        due_since: Annotated[DateBound | None, Field(description=(
            "Only tasks due on or after this: an ISO day, a period (this week, next week, next month, 2026-W48; "
            "this week in the vault's week) or a duration from now (7d: back; +7d: ahead)."))] = None,
        due_until: Annotated[DateBound | None, Field(description="Only tasks due on or before this (a period: through its last day).")] = None,
        done_since: Annotated[DateBound | None, Field(description="Only tasks done on or after this (their ✅ day).")] = None,
        done_until: Annotated[DateBound | None, Field(description="Only tasks done on or before this.")] = None,
        tags: Annotated[list[Tag] | None, Field(description="Only tasks whose own line, or whose note's tags property, carries all of these tags (a #tag on another line of the note does not count).")] = None,
        query: Annotated[str | None, Field(max_length=500, description=(
            "The question in words, as asked (\"what's due this week\", \"what did I finish yesterday\", \"open tasks "
            "for acme\", \"overdue\", \"done on the 16th\"): periods with due/done/finished/before/since (today, "
            "tomorrow, this/next/last week, month or year, an ISO day or month, December 4, the 16th, Friday), status "
            "words (open, done, finished, completed, cancelled, overdue) and words of asking (what, is, my, tasks, to do) "
            "are read as such; each remaining word must be in the task's text, its note's title or its Kanban lane (any "
            "case, part of a word too): a client's or project's name, a lane such as Doing. Words in double quotes are "
            "always text. The arguments above win: words saying otherwise are refused."))] = None,
        k: Annotated[int, Field(ge=1, le=MAX_HITS, description="How many tasks at most.")] = 50,
        include_expired: Annotated[bool, Field(description="Also the tasks of expired notes.")] = False,
        offset: ListOffset = 0,
    ) -> dict[str, Any]:
        answer: dict[str, Any] = await self.service.call(lambda vault: vault.tasks(
            status=status, due_since=due_since, due_until=due_until, done_since=done_since, done_until=done_until,
            tags=tags, query=query, k=k, include_expired=include_expired, offset=offset).as_dict())
        answer["next_offset"] = offset + len(answer["tasks"]) if answer["more"] else None  # as list_notes
        return answer

    @vault_tool(READ_ONLY, (
        "Explain why one note is, or is not, among the hits recall returns for a query with the same k, "
        "layers, tags, include_expired, since and until. Use it when the user expected a memory that recall did not "
        "return. Returns {path, in_answer, rank: {vectors, text, fused}, score: {vectors, text, fused}, match, "
        "passage, reasons, warnings}: warnings say when the index is still being built (the ranks are among the notes read so far); ranks are 1-based (null: not among that side's candidates); reasons are plain "
        "sentences — expired (when), superseded, filtered out by layer, tag or date, not a note vaultmem reads, not "
        "indexed yet, or ranked below k — with the rank it would have without the filters it fails."
    ))
    async def explain(
        self,
        note: NoteRef,
        query: Annotated[str, Field(min_length=1, description="The query recall was asked.")],
        k: Annotated[int, Field(ge=1, le=MAX_HITS, description="How many hits recall returns.")] = 10,
        layers: Annotated[list[LayerName] | None, Field(description="The layers recall was limited to, if any.")] = None,
        tags: Annotated[list[Tag] | None, Field(description="The tags recall was limited to, if any.")] = None,
        include_expired: Annotated[bool, Field(description="Whether recall included expired notes.")] = False,
        since: Annotated[DateBound | None, Field(description="The since recall was limited to, if any.")] = None,
        until: Annotated[DateBound | None, Field(description="The until recall was limited to, if any.")] = None,
    ) -> dict[str, Any]:
        return await self.service.call(lambda vault: vault.explain(
            note, query, k=k, layers=layers, tags=tags, include_expired=include_expired, since=since,
            until=until, surface=Surface.MCP).as_dict(), needs=Needs.INDEX_SO_FAR)

    @vault_tool(READ_ONLY, (
        "Read one note in full as it is on disk now: body, frontmatter (meta: every property, in file order), "
        "layer, tags, aliases (the other names the note goes by), expires_at, "
        "whether it has expired (expired=true plus a notice), superseded_by (the note that replaced it), "
        "problems, how often it was used, its version (pass it to revise as if_version), and resolved_from "
        "when note named it by a merged or superseded id, an alias, its permalink, its citekey or a title, or when other notes "
        "answer to the "
        "same name (resolved_from.others and its notice: a write by that name is refused, unless the note found "
        "was superseded and the others are its successors: then resolved_from.writes_to names where writes go). "
        "An id a note superseded or merged opens that note; when the note the id named was archived, "
        "resolved_from.archived and the notice give its path in the archive folder. get of such a path "
        "(_archive/memories/x.md, as that or an error naming an archived note gives it) shows the archived file "
        "read-only, with archived=true and a notice: the way to an old fact (\"what was my old address\") once "
        "expire, forget or consolidate archived it; every write refuses it, and recall never finds it. "
        "Use it after recall when the snippet is not enough, or to read a note the user names. "
        "note as an Obsidian link to a section (\"Note#Heading\", \"Note#Heading#Subheading\", \"Note#^block-id\") "
        "reads that section alone: body holds the heading and what is under it up to the next heading of its level "
        "or higher (or the block), as the file writes it, and section gives its heading path and lines in the file; "
        "an unknown heading is an error listing the note's headings. A write names whole notes: revise, append "
        "and forget refuse such a link. "
        f"A body longer than {GET_BODY_CHARS:,} characters comes in parts, cut at a line end: body_chars is its "
        "whole length and next_offset, when not null, is the offset to pass to get for the next part (a notice "
        "says so; a long body's first part ends where a plugin's data block that ends it starts, an Excalidraw "
        "drawing's scene); check that version stays the same from part to part."
    ))
    async def get(
        self,
        context: Context[Any, Any],  # told while it waits for the index being built
        note: NoteNamed,
        offset: Annotated[int, Field(ge=0, description="Where in the body to start, in characters (a next_offset get gave).")] = 0,
    ) -> dict[str, Any]:
        # Waits for the whole index: a note is named by id, alias or title as often as by path,
        # and the notes not read yet may answer to the name too (resolved_from.others).
        view = await self.service.call(lambda vault: shown_with_notice(vault.get(note)), progress=context)
        body_part(view, offset)
        if view.get("section") is not None:
            add_notice(view, view["section"]["notice"])  # a part of the note: never to be revised back as its body
        resolved = view["resolved_from"]
        if resolved is not None and ("archived" in resolved or "copies" in resolved):
            # the old id opened its successor: where the old text is; or a sync copy holds the id too
            add_notice(view, resolved["notice"])
        if view["expired"] and not view["archived"]:  # an archived file's notice says more
            # Say it in words too: a model skimming the body would otherwise treat it as current.
            successor = view["superseded_by"]
            replaced = f"; superseded by {successor['id']} ({successor['path'] or 'no longer in the vault'})" if successor else ""
            keep = "" if successor else "; if the user wants it kept, revise it with a later ttl or expires_at (or permanent)"
            add_notice(view, f"EXPIRED at {view['expires_at']}: no longer current and hidden from recall{replaced}; "
                             f"expire(apply=true) archives it{keep}")
        return view

    @vault_tool(DESTRUCTIVE, (
        "Remove a memory that is wrong, obsolete or that the user asks you to forget. The note moves to "
        "the archive folder (recoverable, no longer recalled); git history keeps its text. A note with no layer is the user's own "
        "page (a daily note, a project page, a person): archive it only when the user asks you to; to take one "
        "fact out of it, revise its text instead. $hard_delete Returns id, path, archived_to, in_git_history (commits) "
        "and a notice of where its text remains: tell a user who wanted it gone."
    ))
    async def forget(
        self,
        context: Context[Any, Any],  # told when the write waits for another's turn
        note: NoteRef,
        hard: Annotated[bool, Field(description="Delete the file for good instead of archiving it (only where the vault allows it).")] = False,
        request_id: RequestId = None,
    ) -> dict[str, Any]:
        if hard and not self.settings.allow_hard_delete:
            raise ToolError(hard_delete_refusal(self.service.vault))
        return await self.written("forget", request_id, {"note": note, "hard": hard},
                                  lambda vault: vault.forget(note, hard=hard).as_dict(), context)

    @vault_tool(ADDITIVE, (
        "Record that recalled notes were actually used in your answer or action. Call it once per "
        "answer with the ids (or paths) of the notes that shaped it, not with every hit. Usage history "
        "shows which memories matter and which are stale; nothing is deleted because of it. "
        "Returns each note's use_count and last_used_at."
    ))
    async def mark_used(
        self,
        context: Context[Any, Any],  # told while it waits for the index being built
        notes: Annotated[list[NoteRef], Field(min_length=1, description="Ids or paths of the recalled notes you actually used.")],
        request_id: RequestId = None,
    ) -> dict[str, Any]:
        return await self.written("mark_used", request_id, {"notes": notes},
                                  lambda vault: {"used": [used.as_dict() for used in vault.mark_used(notes)]}, context)

    @vault_tool(DESTRUCTIVE, (
        "Find near-duplicate memories (same layer, cosine similarity >= threshold) that should be one "
        "note. Only notes that carry a layer are considered unless any_note=true (the result's scope says "
        "which). Your own notes (no layer) that record different days (a date property or a day in their names) are never "
        "merged; different_days counts the pairs kept apart. Notes that each hold a number the other does not "
        "(locker 14 / locker 27: a fact that changed; your own notes by their names too: ESC2 / ESC7, 1a / 1b) are never merged "
        "either; different_numbers counts them. Notes whose texts share no word (Chinese or Japanese texts: under a "
        "fifth of their pairs of characters) are never merged; no_common_words counts them. Notes made from one of the vault's templates are measured without its lines; template_alike "
        "counts the pairs that were alike only by them. Your own notes are merged only when their texts share at least "
        "half their words (few_common_words counts the pairs kept apart) and their names a word (different_names), "
        "also without a template's words (held by five or more compared notes, all of three or four). "
        "Notes about two works or two people (different citekey, doi, name or email properties: two papers' or two people's notes) are never merged; "
        "different_works counts them. A sync tool's copy of a note (Note (conflicted copy ...).md, Note.sync-conflict-....md) "
        "and its original, each holding lines the other lacks, are never merged: both devices changed the note, and the user "
        "compares them (check names the copy); sync_conflicts counts them. "
        "Dry run by default: returns {clusters: [{canonical, members, similarity, layer, notes}], "
        "applied: false, scope, ...}, why_kept; each note lists the lines it would add to the kept note (appended), "
        "those the kept note already says (said_already), links_rewritten the other files whose links apply would rewrite, and "
        "kept_changes the kept note's frontmatter changes (expires_at before/after and why, tags, aliases and "
        "merged_from added; a title remember made from the text is not made an alias). Show it to "
        "the user before merging. apply=true merges each cluster into its kept note (tags unioned, latest "
        "expiry kept, the lines only the others held appended under a heading naming each, links to the "
        "merged notes rewritten; their ids keep resolving to it), moves the others to the archive folder "
        "(recoverable) and reports merged (each with its kept_changes), skipped and links_rewritten. A merge cut off "
        "before its notes were archived (a killed process) is finished when the kept note still holds them as the merge "
        "wrote them: unfinished lists those in a dry run, finished what apply archived. Many clusters "
        "come in parts (clusters_total, next_offset, a notice: call again with the same arguments and "
        "offset=next_offset; links_rewritten is listed in the first part only); after apply=true a long merged list is cut and the notice says how many more."
    ))
    async def consolidate(
        self,
        context: Context[Any, Any],  # told when the write waits for another's turn
        threshold: Annotated[float | None, Field(gt=0, le=1, description=f"Cosine similarity that makes two notes near-duplicates (default: the vault's [consolidate] threshold, {DEFAULT_THRESHOLD} unless configured).")] = None,
        apply: Annotated[bool, Field(description="Merge the clusters (default: only list them).")] = False,
        window: Annotated[int | None, Field(ge=1, description="Look for duplicates of the N most recently created or modified notes (default: the vault's [consolidate] window, 2000 unless configured).")] = None,
        all: Annotated[bool, Field(description="Look for duplicates of every note (a whole-vault sweep) instead of the recent window.")] = False,  # noqa: A002 - the library's and CLI's name
        include_expired: Annotated[bool, Field(description="Also merge expired notes (normally left out).")] = False,
        any_note: Annotated[bool, Field(description="Also consider the user's own notes, those without a layer (normally only memories are). Ask the user first.")] = False,
        offset: ListOffset = 0,
    ) -> dict[str, Any]:
        refuse_offset_with_apply(offset, apply, "merged")
        answer = await self.service.call(lambda vault: vault.consolidate(
            threshold=threshold, window=window, all=all, apply=apply, include_expired=include_expired,
            any_note=any_note).as_dict(), progress=context)
        return page(answer, "merged" if apply else "clusters", offset, "consolidate", applied=apply)

    @vault_tool(DESTRUCTIVE, (
        "List memories whose expires_at has passed. They are already hidden from recall; this tidies the "
        "vault. Dry run by default; apply=true moves them to the archive folder (recoverable by the person, "
        "not by you): recall no longer finds an archived note, include_expired=true included, so the "
        "old versions of facts that remember(supersedes=...) retired (expired at once) stop answering "
        "questions about the past (\"what was my old address\") through recall; get still reads one by its path "
        "in the archive, which get of its old id names (resolved_from.archived). A note "
        "edited since it was indexed is skipped and reported. Returns {expired: [...], applied, skipped}. A long "
        "dry-run list comes in parts (expired_total, next_offset, a notice: call again with offset=next_offset); "
        "after apply=true a long list is cut and the notice says how many more were archived."
    ))
    async def expire(
        self,
        context: Context[Any, Any],  # told when the write waits for another's turn
        apply: Annotated[bool, Field(description="Move the expired notes to the archive folder (default: only list them).")] = False,
        offset: ListOffset = 0,
    ) -> dict[str, Any]:
        refuse_offset_with_apply(offset, apply, "expired")
        answer = await self.service.call(lambda vault: vault.expire(apply=apply).as_dict(), progress=context)
        return page(answer, "expired", offset, "expire", applied=apply)

    @vault_tool(READ_ONLY, (
        "Lint every note in the vault: frontmatter that does not load, unknown layers, unparseable or "
        "missing expiries, permanent notes that carry a deadline, duplicate ids. Read-only. Returns "
        "{files, ok, problems: [{path, field, message, fix}], groups}; tell the user about problems and the fix. "
        "One problem in 3+ notes of a folder is said once in groups; problems lists the others first. "
        "Many problems come in parts: problems_total says how many, next_offset (null at the end) is the offset to "
        "pass for the next part, and a notice says so."
    ))
    async def check(self, offset: ListOffset = 0) -> dict[str, Any]:
        answer = await self.service.call(checked, needs=Needs.FILES)
        one_by_one = answer.pop("one_by_one")
        # The first part ends where the groups' problems begin; when every problem is in a group, it
        # holds a few dozen of theirs. A trial's 117 template problems were 86 KB in one part.
        first_only_grouped = bool(answer["groups"]) and one_by_one == 0 and offset == 0
        paged = page(answer, "problems", offset, "check", budget=CHECK_PAGE_BYTES if first_only_grouped else PAGE_BYTES,
                     stop=one_by_one or None)
        if paged["groups"] and paged["next_offset"] is not None:
            in_groups = paged["problems_total"] - one_by_one
            add_notice(paged, f"GROUPED: {in_groups} of the {paged['problems_total']} problems are {len(paged['groups'])} "
                              f"problem(s) each found in {GROUPED_AT} or more notes of one folder, said once in groups; "
                              f"problems lists the {one_by_one} in no group first, then the groups' (from offset {one_by_one})")
        return paged


def checked(vault: Vault) -> dict[str, Any]:
    """``check``'s answer for an agent: the problems in no group first, and the groups (problem_groups.py)."""
    report = vault.check()
    grouped = grouped_answer(report.problems, said=lambda text: respelled(text, Surface.MCP))
    return {**report.as_dict(), "problems": [problem.as_dict() for problem in grouped.problems],
            "groups": [group.as_dict(lambda text: respelled(text, Surface.MCP)) for group in grouped.groups],
            "one_by_one": grouped.one_by_one}


def body_part(view: dict[str, Any], offset: int) -> None:
    """Cut ``view``'s body to the part from ``offset`` (at most GET_BODY_CHARS, ending at a line
    end when one lies in its second half), with ``body_chars`` and ``next_offset`` beside it."""
    body: str = view["body"]
    if offset > len(body):
        raise ToolError(f"UsageError: offset {offset} is past the end of {view['path']}'s body ({len(body)} characters); "
                        "pass a next_offset get gave, or 0 for the start")
    end = min(len(body), offset + GET_BODY_CHARS)
    data_at = plugin_footer_start(body) if end < len(body) else None
    if data_at is not None and offset < data_at < end:
        # A body in parts that ends with a plugin's data (an Excalidraw drawing's scene): its first
        # part ends where the data starts. A trial's first part of a drawing was 100,000 characters,
        # 98,000 of them the drawing's compressed JSON, in the agent's context to read 20 labels.
        end = data_at
    elif end < len(body):
        line_end = body.rfind("\n", offset + GET_BODY_CHARS // 2, end)
        end = end if line_end < 0 else line_end + 1
    view["body"], view["body_chars"] = body[offset:end], len(body)
    view["next_offset"] = end if end < len(body) else None
    if end == data_at:
        add_notice(view, f"PLUGIN DATA: characters {end}-{len(body)} are a plugin's data block (an Excalidraw "
                         f"drawing's scene), not words to read; call get with offset={end} only if you need it")
    elif end < len(body):
        add_notice(view, f"BODY CUT: characters {offset}-{end} of {len(body)} shown; call get with offset={end} for the rest")


def expired_revision_words(revised: dict[str, Any]) -> str:
    """revise's notice for a note whose expires_at has passed (results.Revised.expired_words)."""
    if revised.get("succession_problem") is not None:  # a loop or fork of superseded_by made by hand
        return (f"EXPIRED at {revised['expires_at']}: this note was superseded by {successor_words(revised)}; what you just "
                f"wrote is hidden from recall with it, and {revised['succession_problem']}")
    if revised.get("superseded_by") is not None:  # absent from an answer kept for a retry before it was reported
        return (f"EXPIRED at {revised['expires_at']}: this note was superseded by {successor_words(revised)}, which holds "
                f"the current fact; what you just wrote is hidden from recall with it: revise {successor_reference(revised)} instead")
    return (f"EXPIRED at {revised['expires_at']}: this note is hidden from recall, with what you just wrote; to keep it "
            "current, revise it with ttl, expires_at or permanent=true")


def repeated_harmfully(tool: str, arguments: dict[str, Any]) -> bool:
    """Would the same call without a request id, made twice, leave twice what it writes once?
    A remember: two notes. A revise that appends: the paragraph twice — an agent's memory export
    in a real vault ended with the same "## Leads Log" section 512 times (s41), and an MCP revise
    with append sent again after a client timeout did the same. Any other revise made twice
    leaves what it leaves once (a title, a property), so it is made again (adr/0031)."""
    return tool == "remember" or (tool == "revise" and arguments.get("append") is not None)


def replay_notice(replayed: dict[str, Any], tool: str = "remember") -> str:
    if replayed["request_id"] is not None:
        return (f"REPLAYED: the answer to the first call with request_id {replayed['request_id']!r} "
                f"(at {replayed['first_at']}); nothing was written again")
    if tool == "revise":
        return (f"NOT WRITTEN AGAIN: the same revise (every argument alike) was answered at {replayed['first_at']} and "
                "its note is as that call left it, so this is its answer and the paragraph is appended once; to append "
                "it a second time on purpose, send it with a request_id")
    return (f"NOT WRITTEN AGAIN: the same remember (every argument alike) was answered at {replayed['first_at']} and "
            "its note is still there, so this is its answer and the memory is stored once; to store a second copy on "
            "purpose, send it with a request_id")


def still_there(vault: Vault, first: dict[str, Any]) -> bool:
    """Does the note a remember wrote (or a revise appended to) still stand at its path, unexpired and as it was written?
    (Not if it was forgotten meanwhile, nor revised: a note that no longer says what the repeat
    says does not store it, and answering "stored once" would drop the write.)"""
    try:
        view = vault.get(first["id"])
    except NoteNotFound:
        return False
    # Expired now but not when first answered: the memory lapsed, and a repeat stores it again. A
    # revise's answer that was expired already (an append does not renew a note) stands as it was:
    # matched only to an unexpired note, a retried append to an expired one was written twice (review, s41).
    return view.path == first["path"] and view.version == first["version"] and (not view.expired or bool(first.get("expired")))


def shown_with_notice(view: NoteView) -> dict[str, Any]:
    """``get``'s answer: the view, and for a file in the archive its notice in words."""
    shown = view.as_dict()
    if view.archived:
        shown["notice"] = view.archived_notice()
    return shown


def secret_refusal(vault: Vault, tool: str, field: str, secret: VerbatimSecret) -> str:
    return (f"UsageError: {tool}'s {field} spells out {secret.describe()}, so nothing was written: a note is a "
            "plain-text file the person syncs and may keep in git, where forget cannot take it back. Write where the "
            "secret is kept instead (\"the wifi password is in 1Password\"), without the secret. If the person wants "
            f"their agent to store secrets anyway, they set allow_secrets = true under [mcp] in {vault.root / CONFIG_FILE}.")


def hard_delete_refusal(vault: Vault) -> str:
    return (f"UsageError: forget(hard=true) is not allowed for agents in this vault, so nothing was deleted. To allow it, "
            f"set allow_hard_delete = true under [mcp] in {vault.root / CONFIG_FILE}; without hard, forget "
            "moves the note to the archive folder (recoverable).")


# ------------------------------------------------------------------ descriptions an LLM can act on


def layers_help(policy: LayerPolicy) -> str:
    """The layers with this vault's TTLs (they are configurable per vault)."""
    lines = [f"- {code} {LAYER_NAMES[code]} ({expiry_words(policy.ttl(code))}): {LAYER_CONTENT[code]}" for code in LAYERS]
    return "Layers (a layer's default expiry applies when you give no ttl/expires_at):\n" + "\n".join(lines)


def expiry_words(ttl: timedelta | None) -> str:
    return "never expires" if ttl is None else f"expires after {format_duration(ttl)}"


def secrets_words(settings: McpSettings) -> str:
    return "this vault allows it" if settings.allow_secrets else "refused: the person has not allowed it"


def hard_delete_words(settings: McpSettings) -> str:
    if settings.allow_hard_delete:
        return "hard=true deletes the file for good instead (this vault allows it)."
    return ("hard=true (delete for good) is refused in this vault: the person has not allowed it "
            "([mcp] allow_hard_delete in .vaultmem.toml).")


def instructions(policy: LayerPolicy) -> str:
    return (
        "vaultmem is your long-term memory: a folder of Markdown notes (an Obsidian vault) that the "
        "user also reads and edits by hand. Before answering about the user, their people, projects, "
        "preferences or past conversations, call recall (for \"what happened last week\", list_notes with "
        "since and until lists the notes of those days by date; for tasks, what is due, done or open, list_tasks). When you learn something worth keeping, call "
        "remember, in the layer that says how long it stays true; when a stored fact changes, revise that "
        "note (or remember the new fact with supersedes=[the old note]). After a recalled note actually "
        "shaped your answer, call mark_used with its id. Memories have deadlines: once a note's "
        "expires_at has passed it is hidden from recall, so what recall returns is current. A call that "
        "cannot do what it was asked returns an error result (isError: true) whose text says what was wrong "
        "and how to fix it; an error of the vault's names its kind first (NoteNotFound: …, AmbiguousNote: …, "
        "WriteConflict: …, UsageError: …). A failed call changed nothing, unless its error is NoteWritten, "
        "which names the files it did write.\n"
        + layers_help(policy)
    )


def declared_tools(tools: VaultTools) -> list[Tool]:
    """Every method of ``tools`` declared with ``vault_tool``, in the order they are written."""
    config = tools.service.vault.config
    words = {"layers": layers_help(config.policy), "hard_delete": hard_delete_words(config.mcp),
             "secrets": secrets_words(config.mcp)}
    declared: list[Tool] = []
    for name, member in vars(type(tools)).items():
        spec = getattr(member, _TOOL_SPEC, None)
        if isinstance(spec, ToolSpec):
            description = Template(spec.description).substitute(words)
            declared.append(StrictTool.strict(getattr(tools, name), name=name, description=description, annotations=spec.annotations))
    return declared


# ------------------------------------------------------------------ server


def build_server(vault: Vault, *, token_verifier: TokenVerifier | None = None, auth: AuthSettings | None = None,
                 middleware: Sequence[ServerMiddleware[Any]] = ()) -> MCPServer[None]:
    """An MCPServer exposing ``vault`` through the tools above (not started).

    ``token_verifier`` and ``auth`` guard the HTTP transport (mcp_http.py), and its
    ``middleware`` says the server's paths from the vault (mcp_remote.py); stdio needs none of them.
    """
    service = VaultService(vault)
    return MCPServer(
        "vaultmem",
        instructions=instructions(vault.config.policy),
        version=__version__,
        lifespan=service.lifespan,
        tools=declared_tools(VaultTools(service, vault.config.mcp)),
        token_verifier=token_verifier,
        auth=auth,
        middleware=list(middleware),
    )


def serve(vault: Vault) -> None:
    """Serve ``vault`` over stdio until the client closes the connection."""
    build_server(vault).run("stdio")
