"""``vaultmem mcp``: a vault as an agent's memory over the Model Context Protocol (stdio).

A thin shell over :class:`~vaultmem.vault.Vault`: each tool validates its typed
arguments (the SDK does it from the signature), makes one library call and returns the
library's result as a JSON-ready dict. No SQL, no lifecycle rules, no file writes here.

Three things the shell does own (see adr/0011-mcp-server.md):

- **Startup.** The watcher is started (its start-up reconcile brings the index in line
  with the files) while the protocol handshake is answered; every tool call queues
  behind it, so the first call never sees a stale index and a slow first index never
  times out the client's ``initialize``. If startup fails, every call reports why.
- **One vault thread.** The SDK runs sync tools on a pool of worker threads, but SQLite
  connections belong to the thread that opened them; every Vault call is queued to one
  dedicated thread, which also makes the calls one at a time.
- **Errors.** In SDK v2 only a ``ToolError`` reaches the client with its message, so
  every ``VaultmemError`` becomes one, carrying the library's message (which names the
  value and the fix). Anything else is a bug: the client sees the SDK's generic
  "Error executing tool …" and the traceback goes to stderr.

Stdout carries only the protocol: the SDK's stdio transport points fd 1 at stderr while
it serves, so a stray print or progress bar from any library lands in the log instead.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, asynccontextmanager
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from . import __version__
from .config import DEFAULT_THRESHOLD
from .errors import VaultmemError
from .lifecycle import LAYER_NAMES, LAYERS, LayerPolicy, format_duration

if TYPE_CHECKING:
    from .vault import Vault
    from .watcher import Watcher

log = logging.getLogger("vaultmem.mcp")

Result = TypeVar("Result")

MAX_HITS = 100  # a recall is read by a model: a larger answer only floods its context

LAYER_CONTENT = {
    "L1": "scratch and this session's working context",
    "L2": "what happened in a conversation",
    "L3": "facts and project learnings",
    "L4": "stable procedures and preferences",
}


# ------------------------------------------------------------------ the vault behind the tools


class VaultService:
    """The served Vault, used from one dedicated thread: started first, then one call at a time.

    SQLite connections belong to the thread that opened them — even closing one from
    another thread fails — and the SDK runs sync tools on whichever pool thread is free.
    So every Vault call (start-up, tools, shutdown) is queued to a single "vault thread":
    calls are serialised, the first one runs after the start-up reconcile by construction
    (the queue is FIFO), and at the end the connections are closed where they were opened.
    """

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vaultmem-mcp")
        self._startup_error: Exception | None = None
        self._watcher: Watcher | None = None
        self._resources = ExitStack()

    def call(self, operation: Callable[[Vault], Result]) -> Result:
        """Run one library call on the vault thread (blocks the calling pool thread)."""
        return self._thread.submit(self._run, operation).result()

    def _run(self, operation: Callable[[Vault], Result]) -> Result:
        self._raise_if_startup_failed()
        try:
            if self._watcher is not None:
                self._watcher.raise_if_failed()  # a dead watcher means a stale index: say so
            return operation(self.vault)
        except VaultmemError as error:
            raise ToolError(str(error)) from error
        except OSError as error:
            # A disk full, a permission denied: say which, rather than the SDK's bare
            # "Error executing tool" (only ToolError keeps its message in SDK v2).
            log.exception("vaultmem: file system error")
            raise ToolError(f"file system error in {self.vault.root}: {error}") from error

    def _raise_if_startup_failed(self) -> None:
        error = self._startup_error
        if isinstance(error, VaultmemError):
            raise ToolError(f"vaultmem is not serving {self.vault.root}: {error}")
        if error is not None:
            raise ToolError(f"vaultmem is not serving {self.vault.root}: startup failed "
                            f"({type(error).__name__}); the traceback is in the server's log (stderr)")

    # -- start and stop (on the vault thread)

    def start(self) -> None:
        """Start the watcher; its start-up reconcile brings the index in line with the files.

        The watcher observes *before* it reconciles, so no edit slips between the two
        (a separate ``vault.index()`` first would only reconcile twice).

        Never raises: a failure is logged with its traceback and recorded, and from then
        on every tool call reports it. Raising here would tear the server down and the
        agent could not even tell the user why its memory is unavailable; serving anyway
        would answer from a stale index as if all were well.
        """
        try:
            watcher = self.vault.watch(quiet=True, start=False)
            self._resources.callback(watcher.stop)  # registered first: a failed start still stops its threads
            watcher.start()
            self._watcher = watcher
            self._log_started(watcher)
        except Exception as error:
            self._startup_error = error
            log.exception("vaultmem: could not start serving %s", self.vault.root)

    def _log_started(self, watcher: Watcher) -> None:
        report = watcher.initial_report
        counts = "" if report is None else (
            f" ({len(report.added)} added, {len(report.updated)} updated, {len(report.moved)} moved, "
            f"{len(report.removed)} removed, {report.unchanged} unchanged)")
        log.info("vaultmem: index of %s reconciled%s; watching for changes, serving", self.vault.root, counts)

    def stop(self) -> None:
        """Stop the watcher and close the vault thread's SQLite connection."""
        try:
            self._resources.close()
        finally:
            self.vault.close()

    @asynccontextmanager
    async def lifespan(self, _server: MCPServer[None]) -> AsyncIterator[None]:
        """Queue the start-up while the handshake is served; stop when the client leaves."""
        self._thread.submit(self.start)
        try:
            yield None
        finally:
            # Shielded: the watcher and connections must be closed even when the server
            # is being cancelled; the stop runs after any call still queued.
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self._stop_on_vault_thread)

    def _stop_on_vault_thread(self) -> None:
        try:
            self._thread.submit(self.stop).result()
        finally:
            self._thread.shutdown()


# ------------------------------------------------------------------ argument types

NoteRef = Annotated[str, Field(
    min_length=1,
    description="The note's id, its vault-relative path (with or without .md), "
                "or its file name when that is unique in the vault (as in [[wikilinks]]).",
)]
LayerName = Annotated[str, Field(description="L1/working, L2/episodic, L3/semantic or L4/procedural (case-insensitive).")]
Tag = Annotated[str, Field(description="One word, without '#'; nested tags use '/', e.g. project/harbor.")]
Timestamp = Annotated[str, Field(description="ISO-8601, e.g. 2026-12-24 or 2026-12-24T18:00:00+01:00 (naive = UTC).")]
Duration = Annotated[str, Field(description="A duration: 30m, 12h, 3d, 2w or combined, 1d12h.")]


# ------------------------------------------------------------------ tools


class VaultTools:
    """The MCP tools: each parses nothing itself, calls one Vault method and returns a dict."""

    def __init__(self, service: VaultService) -> None:
        self.service = service

    def remember(
        self,
        text: Annotated[str, Field(min_length=1, description="The memory, in Markdown. Written as the note's body, byte for byte.")],
        title: Annotated[str | None, Field(description="Title (default: the text's first words).")] = None,
        layer: Annotated[str, Field(description="L1/working, L2/episodic (default), L3/semantic or L4/procedural.")] = "L2",
        tags: Annotated[list[Tag] | None, Field(description="Tags, e.g. [\"travel\", \"project/harbor\"].")] = None,
        ttl: Annotated[Duration | None, Field(description="Expire after this long instead of the layer default: 30m, 12h, 3d, 2w.")] = None,
        expires_at: Annotated[Timestamp | None, Field(description="Expire at this instant instead of the layer default (ISO-8601; naive = UTC).")] = None,
        permanent: Annotated[bool, Field(description="Never expires (no expires_at is written). Not with ttl/expires_at.")] = False,
        folder: Annotated[str | None, Field(description="Vault-relative folder for the note (default: the vault's memories folder).")] = None,
    ) -> dict[str, Any]:
        result = self.service.call(lambda vault: vault.remember(
            text, title=title, layer=layer, tags=tags or (), ttl=ttl, expires_at=expires_at,
            permanent=permanent, folder=folder))
        return result.as_dict()

    def recall(
        self,
        query: Annotated[str, Field(min_length=1, description="What you are looking for, in words (matched by meaning and by keywords).")],
        k: Annotated[int, Field(ge=1, le=MAX_HITS, description="How many hits at most.")] = 10,
        layers: Annotated[list[LayerName] | None, Field(description="Only these layers, e.g. [\"L3\", \"procedural\"].")] = None,
        tags: Annotated[list[Tag] | None, Field(description="Only notes carrying all of these tags.")] = None,
        include_expired: Annotated[bool, Field(description="Also return expired notes (flagged expired=true). Only for history questions.")] = False,
    ) -> dict[str, Any]:
        hits = self.service.call(lambda vault: vault.search(
            query, k=k, layers=layers, tags=tags, include_expired=include_expired))
        return {"hits": [hit.as_dict() for hit in hits], "warnings": hits.warnings}

    def get(self, note: NoteRef) -> dict[str, Any]:
        view = self.service.call(lambda vault: vault.get(note)).as_dict()
        if view["expired"]:
            # Say it in words too: a model skimming the body would otherwise treat it as current.
            view["notice"] = (f"EXPIRED at {view['expires_at']}: no longer current and hidden from recall; "
                              "expire(apply=true) archives it")
        return view

    def forget(
        self,
        note: NoteRef,
        hard: Annotated[bool, Field(description="Delete the file instead of moving it to the archive folder.")] = False,
    ) -> dict[str, Any]:
        return self.service.call(lambda vault: vault.forget(note, hard=hard)).as_dict()

    def mark_used(
        self,
        notes: Annotated[list[NoteRef], Field(min_length=1, description="Ids or paths of the recalled notes you actually used.")],
    ) -> dict[str, Any]:
        return {"used": [used.as_dict() for used in self.service.call(lambda vault: vault.mark_used(notes))]}

    def consolidate(
        self,
        threshold: Annotated[float | None, Field(gt=0, le=1, description=f"Cosine similarity that makes two notes near-duplicates (default: the vault's [consolidate] threshold, {DEFAULT_THRESHOLD} unless configured).")] = None,
        apply: Annotated[bool, Field(description="Merge the clusters (default: only list them).")] = False,
        window: Annotated[int | None, Field(ge=1, description="Look for duplicates of the N most recently created or modified notes (default: the vault's [consolidate] window, 2000 unless configured).")] = None,
        all: Annotated[bool, Field(description="Look for duplicates of every note (a whole-vault sweep) instead of the recent window.")] = False,  # noqa: A002 - the library's and CLI's name
        include_expired: Annotated[bool, Field(description="Also merge expired notes (normally left out).")] = False,
    ) -> dict[str, Any]:
        return self.service.call(lambda vault: vault.consolidate(
            threshold=threshold, window=window, all=all, apply=apply, include_expired=include_expired)).as_dict()

    def expire(
        self,
        apply: Annotated[bool, Field(description="Move the expired notes to the archive folder (default: only list them).")] = False,
    ) -> dict[str, Any]:
        return self.service.call(lambda vault: vault.expire(apply=apply)).as_dict()

    def check(self) -> dict[str, Any]:
        return self.service.call(lambda vault: vault.check()).as_dict()


# ------------------------------------------------------------------ descriptions an LLM can act on


def layers_help(policy: LayerPolicy) -> str:
    """The layers with this vault's TTLs (they are configurable per vault)."""
    lines = [f"- {code} {LAYER_NAMES[code]} ({expiry_words(policy.ttl(code))}): {LAYER_CONTENT[code]}" for code in LAYERS]
    return "Layers (a layer's default expiry applies when you give no ttl/expires_at):\n" + "\n".join(lines)


def expiry_words(ttl: timedelta | None) -> str:
    return "never expires" if ttl is None else f"expires after {format_duration(ttl)}"


def instructions(policy: LayerPolicy) -> str:
    return (
        "vaultmem is your long-term memory: a folder of Markdown notes (an Obsidian vault) that the "
        "user also reads and edits by hand. Before answering about the user, their people, projects, "
        "preferences or past conversations, call recall. When you learn something worth keeping, call "
        "remember, in the layer that says how long it stays true. After a recalled note actually "
        "shaped your answer, call mark_used with its id. Memories have deadlines: once a note's "
        "expires_at has passed it is hidden from recall, so what recall returns is current.\n"
        + layers_help(policy)
    )


def descriptions(policy: LayerPolicy) -> dict[str, str]:
    layers = layers_help(policy)
    return {
        "remember": (
            "Save a new memory as a Markdown note in the vault; it is searchable as soon as this returns. "
            "Use it for anything worth recalling in a later conversation: a fact about the user, a decision, "
            "a preference, what happened. Pick the layer by how long it stays true; a permanent note or "
            "layer L4 never expires and takes no ttl/expires_at.\n" + layers + "\n"
            "Returns id, path, title, layer, expires_at (null = never), tags, and similar: existing live notes "
            "of the same layer that say nearly the same ({id, path, title, similarity}); if one already holds "
            "this fact, forget the note you just wrote (or the outdated one) or run consolidate. Errors name "
            "the bad argument (unknown layer, unparseable time, ttl together with permanent) and nothing is written."
        ),
        "recall": (
            "Search memory by meaning and keywords (hybrid vectors + BM25). Call it before answering "
            "anything that may depend on what you know about the user or their work. Expired memories "
            "(expires_at in the past) are hidden, so every hit is current; include_expired=true shows "
            "them too, flagged expired=true — only for questions about the past.\n" + layers + "\n"
            "Returns {hits: [{id, path, title, snippet, layer, expires_at, score, tags, warnings, expired}], "
            "warnings}, best first. A hit's warnings say when its metadata is broken (e.g. an unreadable "
            "expiry); the top-level warnings say when the answer may be incomplete (the index is being rebuilt); "
            "call get(id) for the full text, and mark_used with the ids you relied on."
        ),
        "get": (
            "Read one note in full as it is on disk now: body, frontmatter, layer, tags, expires_at, "
            "whether it has expired (expired=true plus a notice), problems, and how often it was used. "
            "Use it after recall when the snippet is not enough, or to read a note the user names."
        ),
        "forget": (
            "Remove a memory that is wrong, obsolete or that the user asks you to forget. By default the "
            "note moves to the vault's archive folder (recoverable, no longer recalled); hard=true deletes "
            "the file. Returns the note's id, path and where it was archived."
        ),
        "mark_used": (
            "Record that recalled notes were actually used in your answer or action. Call it once per "
            "answer with the ids (or paths) of the notes that shaped it, not with every hit. Usage history "
            "shows which memories matter and which are stale; nothing is deleted because of it. "
            "Returns each note's use_count and last_used_at."
        ),
        "consolidate": (
            "Find near-duplicate memories (same layer, cosine similarity >= threshold) that should be one "
            "note. Dry run by default: returns {clusters: [{canonical, members, similarity, layer, notes}], "
            "applied: false, ...}; show it to the user before merging. apply=true merges each cluster into "
            "its longest note (tags unioned, latest expiry kept, links to the merged notes rewritten), moves the others "
            "to the archive folder (recoverable) and reports merged, skipped and links_rewritten."
        ),
        "expire": (
            "List memories whose expires_at has passed. They are already hidden from recall; this tidies the "
            "vault. Dry run by default; apply=true moves them to the archive folder (recoverable). A note "
            "edited since it was indexed is skipped and reported. Returns {expired: [...], applied, skipped}."
        ),
        "check": (
            "Lint every note in the vault: frontmatter that does not load, unknown layers, unparseable or "
            "missing expiries, permanent notes that carry a deadline, duplicate ids. Read-only. Returns "
            "{files, ok, problems: [{path, field, message, fix}]}; tell the user about problems and the fix."
        ),
    }


READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

TOOL_ANNOTATIONS = {
    "remember": ADDITIVE,
    "recall": READ_ONLY,
    "get": READ_ONLY,
    "forget": DESTRUCTIVE,
    "mark_used": ADDITIVE,
    "consolidate": DESTRUCTIVE,
    "expire": DESTRUCTIVE,
    "check": READ_ONLY,
}


# ------------------------------------------------------------------ server


def build_server(vault: Vault) -> MCPServer[None]:
    """An MCPServer exposing ``vault`` through the tools above (not started)."""
    service = VaultService(vault)
    server: MCPServer[None] = MCPServer(
        "vaultmem",
        instructions=instructions(vault.config.policy),
        version=__version__,
        lifespan=service.lifespan,
    )
    tools = VaultTools(service)
    for name, description in descriptions(vault.config.policy).items():
        server.add_tool(getattr(tools, name), name=name, description=description, annotations=TOOL_ANNOTATIONS[name])
    return server


def serve(vault: Vault) -> None:
    """Serve ``vault`` over stdio until the client closes the connection."""
    build_server(vault).run("stdio")
