"""The ``vaultmem`` command line: parse options, call one library method, render.

No SQL, no lifecycle rules, no file writes here. Library errors (``VaultmemError``) and
file-system errors (``OSError``) become a one-line message on stderr and exit code 1;
usage errors exit 2 (click). A command that failed after it changed files says which
(``NoteWritten``; with ``--json`` also as ``error.written``). Library warnings go to stderr.
With ``--json`` stdout carries exactly one JSON document.
"""

from __future__ import annotations

import errno
import json
import logging
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from .config import DEFAULT_STALE_DAYS, DEFAULT_THRESHOLD, MAX_STALE_DAYS
from .errors import InvalidDuration, InvalidTimestamp, NoteWritten, UnknownLayer, UsageError, VaultmemError

if TYPE_CHECKING:
    from .consolidate import ConsolidationReport
    from .explain import ExplainedPassage
    from .indexer import IndexReport
    from .notes import Problem
    from .resolution import Resolution
    from .search import HitPassage
    from .vault import Vault
    from .watcher import Change, Watcher

JSON_HELP = "Print one JSON document on stdout instead of text."
PROGRESS_MIN_NOTES = 500  # fewer notes to read: done before a progress bar would help
LEFT_OUT_SHOWN = 10  # consolidate's text output lists this many left-out notes (--json: all)
MAX_HITS = 100_000  # beyond it SQLite cannot take the number (and no answer needs more)
APPENDED_SHOWN = 5  # and this many of the lines a merged note adds to the canonical


class Context:
    def __init__(self, vault_path: str) -> None:
        self.vault_path = vault_path
        self._vault: Vault | None = None

    @property
    def vault(self) -> Vault:
        """The vault, opened on first use (a bad --vault fails the command that needs it)."""
        if self._vault is None:
            from .vault import Vault

            self._vault = Vault(self.vault_path)
        return self._vault


def emit_json(document: Any) -> None:
    click.echo(json.dumps(document, ensure_ascii=False, indent=2, default=str))


@contextmanager
def library_errors(as_json: bool = False) -> Iterator[None]:
    """Turn library errors into a clear message and exit code (1, or 2 for usage)."""
    try:
        yield
    except (UsageError, UnknownLayer, InvalidTimestamp, InvalidDuration) as error:
        # A bad option value (--layer L9, --as-of soon, --ttl 3x) is a usage error, as
        # click's own option checks are: exit 2, not 1 ("could not do its job").
        _fail(error, as_json, 2)
    except VaultmemError as error:
        _fail(error, as_json, 1)
    except OSError as error:
        # The file system refused (a name too long, a permission, a full disk): the command
        # could not do its job. A one-line message, like a library error, not a traceback.
        _fail(error, as_json, 1, describe_os_error(error))


def _fail(error: Exception, as_json: bool, code: int, message: str | None = None) -> None:
    message = message or str(error)
    if as_json:
        detail: dict[str, Any] = {"type": type(error).__name__, "message": message}
        if isinstance(error, NoteWritten):
            detail["written"] = error.paths  # on disk although the command failed: do not write them again
        emit_json({"error": detail})
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def describe_os_error(error: OSError) -> str:
    """``[Errno 28] No space left on device: '/v/x.md'`` as a sentence that says what to do."""
    where = f" {error.filename}" if error.filename else ""
    what = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"cannot write{where}: {what}. The disk (or your quota) is full: free some space and run the command again"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (f"cannot write{where}: {what}. The vault (or that folder) is read-only for this user: run vaultmem "
                "as a user who can write it, or use only the read commands (search, get, stats, check)")
    return f"{what}:{where}" if where else str(error)


def _refuse_nan(ctx: click.Context, param: click.Parameter, value: float) -> float:
    # FloatRange lets NaN through (every comparison with NaN is false).
    if math.isnan(value):
        raise click.BadParameter("must be a number of days, not nan", ctx, param)
    return value


def json_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--vault",
    "vault_path",
    type=click.Path(file_okay=False),
    default=lambda: os.environ.get("VAULTMEM_VAULT") or os.getcwd(),
    show_default="$VAULTMEM_VAULT, else the current directory",
    help="The vault folder.",
)
@click.version_option(package_name="vaultmem")
@click.pass_context
def main(ctx: click.Context, vault_path: str) -> None:
    """vaultmem: an agent's memory as an Obsidian-style Markdown vault.

    The Markdown files are the truth; <vault>/.vaultmem/ holds a derived index
    (SQLite + FTS5 + hnswlib) that `index` can always rebuild.
    """
    _log_to_stderr()
    ctx.obj = Context(vault_path)


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a record comes (click's test runner swaps it)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))

    @property
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        pass  # always the current sys.stderr


def _log_to_stderr() -> None:
    """Library warnings (an index that was damaged and rebuilt, one that is read-only here)
    go to stderr as ``WARNING: …``; stdout stays the command's output.

    Only when nothing configured logging yet (an embedding library's own ``basicConfig``
    would otherwise do it later, with its format); INFO as that would have set it.
    """
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(_StderrHandler())
        root.setLevel(logging.INFO)


# ------------------------------------------------------------------ index / search


@main.command()
@click.option("--rebuild", is_flag=True, help="Drop the derived index and build it again (usage history is kept).")
@json_option
@click.pass_obj
def index(obj: Context, rebuild: bool, as_json: bool) -> None:
    """Bring the derived index in line with the vault's files."""
    with library_errors(as_json):
        report = obj.vault.index(rebuild=rebuild, progress=None if as_json else terminal_progress)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(f"indexed {obj.vault.root}: {report.summary()}" + (" (rebuilt)" if report.rebuilt else ""))
    render_excluded(report)
    # Files that could not be read (or whose metadata did not load) are listed one by one;
    # metadata mistakes are `check`'s job, so they are counted here, not repeated.
    unreadable = [problem for problem in report.problems if problem.field in UNREADABLE_FIELDS]
    render_problems(unreadable)
    rest = len(report.problems) - len(unreadable)
    if rest:
        click.echo(f"{rest} problem(s) in note metadata: run `vaultmem check` to list them with their fixes")


UNREADABLE_FIELDS = frozenset({"file", "encoding", "frontmatter"})


def render_excluded(report: IndexReport) -> None:
    """One line: what the vault's exclusions left out (never a warning per file)."""
    parts = [f"{path}/ ({rule})" for path, rule in report.excluded_folders]
    if report.excluded_files:
        parts.append(f"{report.excluded_files} file(s) matching exclude rules")
    if parts:
        click.echo(f"not notes (excluded): {', '.join(parts)}")


def terminal_progress(todo: int, total: int) -> Callable[[int], None]:
    """A progress bar on a terminal for long runs; nothing when piped or short."""
    if todo < PROGRESS_MIN_NOTES or not sys.stderr.isatty():
        return lambda done: None
    bar = click.progressbar(length=todo, label=f"indexing {todo} of {total} notes", file=sys.stderr)
    bar.__enter__()

    def advance(done: int) -> None:
        bar.update(done)
        if bar.pos >= todo:
            bar.__exit__(None, None, None)

    return advance


def search_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options of a search: how many hits, and its filters (``search`` and ``explain`` share them)."""
    options = (
        click.option("-k", "k", type=click.IntRange(min=1, max=MAX_HITS), default=10, show_default=True, help="How many hits."),
        click.option("--layer", "layers", multiple=True, help="Only these layers (L1–L4 or working/episodic/semantic/procedural)."),
        click.option("--tag", "tags", multiple=True, help="Only notes with this tag (repeat for all of several)."),
        click.option("--include-expired", is_flag=True, help="Also show notes whose expires_at has passed."),
        click.option("--as-of", "as_of", metavar="TIME", help="Evaluate expiry at this instant instead of now."),
        json_option,
    )
    for option in reversed(options):
        function = option(function)
    return function


@main.command()
@click.argument("query")
@search_options
@click.pass_obj
def search(obj: Context, query: str, k: int, layers: tuple[str, ...], tags: tuple[str, ...], include_expired: bool, as_of: str | None, as_json: bool) -> None:
    """Recall notes matching QUERY (hybrid: vectors + BM25); expired notes hidden."""
    with library_errors(as_json):
        hits = obj.vault.search(query, k=k, layers=layers, tags=tags, include_expired=include_expired, now=as_of)
    if as_json:
        emit_json([hit.as_dict() for hit in hits])
        for warning in hits.warnings:
            click.echo(f"warning: {warning}", err=True)  # stdout stays one JSON list
        return
    for warning in hits.warnings:
        click.echo(f"! {warning}")
    if not hits:
        click.echo("no matching notes")
    for number, hit in enumerate(hits, start=1):
        expiry = f"expires {hit.expires_at}" if hit.expires_at else "no expiry"
        click.echo(f"{number:>2}. {hit.title}  [{hit.layer or '-'}, {expiry}]  {hit.path}")
        click.echo(f"    score {hit.score:.2f} ({hit.match}){where_words(hit.passage)}")
        click.echo(f"    {hit.snippet}")
        for warning in hit.warnings:
            click.echo(f"    ! {warning}")


def where_words(passage: HitPassage | ExplainedPassage | None) -> str:
    """`` · lines 12–30 · Install > Linux``: where a hit's passage is in its file."""
    if passage is None:
        return ""
    first, last = passage.lines
    lines = f"line {first}" if first == last else f"lines {first}–{last}"
    return f" · {lines}" + (f" · {' > '.join(passage.headings)}" if passage.headings else "")


@main.command()
@click.argument("note")
@click.argument("query")
@search_options
@click.pass_obj
def explain(obj: Context, note: str, query: str, k: int, layers: tuple[str, ...], tags: tuple[str, ...],
            include_expired: bool, as_of: str | None, as_json: bool) -> None:
    """Why NOTE is, or is not, among the hits of `search QUERY` with the same options."""
    with library_errors(as_json):
        result = obj.vault.explain(note, query, k=k, layers=layers, tags=tags, include_expired=include_expired, now=as_of)
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(f"{result.path}" + (f" — {result.title}" if result.title else ""))
    click.echo(f"query {result.query!r}, k {result.k}: {'in the answer' if result.in_answer else 'not in the answer'}")
    ranks = ", ".join(f"{side} {rank if rank is not None else '-'}" for side, rank in
                      (("vectors", result.rank["vectors"]), ("full text", result.rank["text"]), ("fused", result.rank["fused"])))
    fused = result.score["fused"]
    click.echo(f"rank: {ranks}" + (f"; score {fused:.2f} ({result.match})" if fused is not None else ""))
    if result.passage is not None:
        click.echo(f"best passage:{where_words(result.passage).removeprefix(' ·')}")
        click.echo(f"    {result.passage.snippet}")
    for reason in result.reasons:
        click.echo(f"- {reason}")


# ------------------------------------------------------------------ check / stats


@main.command()
@click.option("--fix", is_flag=True, help="Stamp missing expiries (created + layer TTL) and remove expiries from permanent notes.")
@json_option
@click.pass_obj
def check(obj: Context, fix: bool, as_json: bool) -> None:
    """Lint every note; exit 1 when problems remain."""
    with library_errors(as_json):
        report = obj.vault.check(fix=fix)
    if as_json:
        emit_json(report.as_dict())
    else:
        for applied in report.fixed:
            click.echo(f"fixed {applied.path}: {applied.action}")
        render_problems(report.problems)
        click.echo(f"{report.files} notes checked, {len(report.problems)} problem(s)" + (f", {len(report.fixed)} fixed" if fix else ""))
        render_commit(report)
    sys.exit(0 if report.ok else 1)


@main.command()
@json_option
@click.pass_obj
def stats(obj: Context, as_json: bool) -> None:
    """Notes by layer, expired now, problems, index size, embedder."""
    with library_errors(as_json):
        result = obj.vault.stats()
    if as_json:
        emit_json(result.as_dict())
        return
    layers = ", ".join(f"{layer}: {count}" for layer, count in result.by_layer.items()) or "none"
    click.echo(f"notes: {result.notes} ({layers})")
    click.echo(f"expired now: {result.expired}; with problems: {result.with_problems}")
    click.echo(f"index: {result.index_bytes / 1_048_576:.1f} MiB; embedder: {result.embedder} ({result.dimension} dims)")
    click.echo(f"passages: {result.passages}; their vectors: {result.passage_vectors_in_snapshot} in the snapshot, "
               f"{result.passage_vectors_in_delta} in the delta")
    click.echo(f"note vectors: {result.vectors_in_snapshot} in the HNSW snapshot, {result.vectors_in_delta} in the delta")


def render_problems(problems: list[Problem]) -> None:
    for problem in problems:
        click.echo(f"! {problem.path}: {problem.field}: {problem.message}\n    fix: {problem.fix}")


# ------------------------------------------------------------------ write path


@main.command()
@click.argument("text")
@click.option("--title", help="Title (default: the text's first words).")
@click.option("--layer", default="L2", show_default=True, help="L1 working (1d), L2 episodic (7d), L3 semantic (90d), L4 procedural (never).")
@click.option("--ttl", help="Time to live instead of the layer default: 30m, 12h, 3d, 2w.")
@click.option("--expires-at", "expires_at", metavar="TIME", help="Explicit expiry (ISO-8601; naive = UTC).")
@click.option("--permanent", is_flag=True, help="Never expires (no expires_at is written).")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--folder", help="Vault folder for the note (default: remember_dir from .vaultmem.toml, 'memories').")
@click.option("--supersedes", "supersedes", multiple=True, metavar="NOTE",
              help="A note this one replaces (repeatable): it expires now and records superseded_by.")
@json_option
@click.pass_obj
def remember(obj: Context, text: str, title: str | None, layer: str, ttl: str | None, expires_at: str | None,
             permanent: bool, tags: tuple[str, ...], folder: str | None, supersedes: tuple[str, ...], as_json: bool) -> None:
    """Write TEXT as a new note, with the layer's expiry policy applied."""
    with library_errors(as_json):
        result = obj.vault.remember(text, title=title, layer=layer, tags=tags, expires_at=expires_at, ttl=ttl,
                                    permanent=permanent, folder=folder, supersedes=supersedes)
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(f"remembered {result.path} (id {result.id}, {result.layer}, expires {result.expires_at or 'never'}, "
               f"version {result.version})")
    for old in result.supersedes:
        click.echo(f"  superseded {old.path} (id {old.id}): expired now, hidden from search")
    for other in result.similar:
        click.echo(f"  similar ({other.similarity:.2f}): {other.path} — {other.title}; "
                   "if it already says this, `forget` one or run `consolidate`")
    render_commit(result)


def render_commit(result: Any) -> None:
    """The auto-commit, and each file left out of it (or committed without the person's edit)."""
    if result.commit:
        click.echo(f"committed {result.commit[:10]}")
    for entry in result.not_committed:
        click.echo(f"  git: {entry['path']}: {entry['reason']}")


@main.command()
@click.argument("note")
@json_option
@click.pass_obj
def get(obj: Context, note: str, as_json: bool) -> None:
    """Show a note: metadata, body, whether it expired, problems, usage."""
    with library_errors(as_json):
        view = obj.vault.get(note)
    if as_json:
        emit_json(view.as_dict())
        return
    render_resolution(view.resolved_from, view.path)
    click.echo(f"{view.title}\n  path: {view.path}\n  id: {view.id}  version: {view.version}\n"
               f"  layer: {view.layer or '-'}  tags: {', '.join(view.tags) or '-'}")
    if view.expired:
        click.echo(f"  EXPIRED at {view.expires_at}: hidden from search (vaultmem expire --apply archives it)")
    else:
        click.echo(f"  expires: {view.expires_at or ('never (permanent)' if view.permanent else 'never')}")
    if view.superseded_by is not None:
        successor = view.superseded_by
        click.echo(f"  superseded by {successor.id}" + (f" ({successor.path})" if successor.path else " (no longer in the vault)"))
    click.echo(f"  used: {view.use_count} time(s), last {view.last_used_at or 'never'}")
    for problem in view.problems:
        click.echo(f"  ! {problem['field']}: {problem['message']}")
    click.echo("")
    click.echo(view.body)


def render_resolution(resolved_from: Resolution | None, path: str, err: bool = False) -> None:
    """Say that NOTE named the note through merged_from, supersedes, an alias or a title."""
    if resolved_from is not None:
        click.echo(f"({resolved_from} → {path})", err=err)


@main.command()
@click.argument("note")
@click.option("--text", help="Replace the note's text (the body; the frontmatter stays as it is).")
@click.option("--append", help="Add a paragraph at the end of the note's text.")
@click.option("--title", help="A new title.")
@click.option("--layer", help="A new layer; without --ttl/--expires-at its policy applies from now (L4: no expiry).")
@click.option("--ttl", help="Expire this long from now: 30m, 12h, 3d, 2w.")
@click.option("--expires-at", "expires_at", metavar="TIME", help="Expire at this instant (ISO-8601; naive = UTC).")
@click.option("--permanent", is_flag=True, default=None, help="Never expires (expires_at is removed).")
@click.option("--tag", "add_tags", multiple=True, help="Add a tag (repeatable).")
@click.option("--untag", "remove_tags", multiple=True, help="Remove a tag (repeatable).")
@click.option("--if-version", "if_version", metavar="V", help="Only if the note is still at this version (from get/remember/revise/search).")
@json_option
@click.pass_obj
def revise(obj: Context, note: str, text: str | None, append: str | None, title: str | None, layer: str | None,
           ttl: str | None, expires_at: str | None, permanent: bool | None, add_tags: tuple[str, ...],
           remove_tags: tuple[str, ...], if_version: str | None, as_json: bool) -> None:
    """Change NOTE in place: its text, title, layer, expiry or tags.

    The note keeps its id, path, usage history and every other frontmatter key.
    With --if-version, a note edited since that version is refused (WriteConflict).
    """
    with library_errors(as_json):
        result = obj.vault.revise(note, text=text, append=append, title=title, layer=layer, ttl=ttl, expires_at=expires_at,
                                  permanent=permanent, add_tags=add_tags, remove_tags=remove_tags, if_version=if_version)
    if as_json:
        emit_json(result.as_dict())
        return
    render_resolution(result.resolved_from, result.path)
    if not result.changed:
        click.echo(f"{result.path} already reads as asked: nothing changed (version {result.version})")
        return
    click.echo(f"revised {result.path} ({', '.join(result.changed)}): {result.layer or '-'}, "
               f"expires {result.expires_at or 'never'}, version {result.version}")
    render_commit(result)


@main.command()
@click.argument("note")
@click.option("--hard", is_flag=True, help="Delete the file instead of moving it to the archive folder.")
@json_option
@click.pass_obj
def forget(obj: Context, note: str, hard: bool, as_json: bool) -> None:
    """Archive NOTE (recoverable), or delete it with --hard."""
    with library_errors(as_json):
        result = obj.vault.forget(note, hard=hard)
    if as_json:
        emit_json(result.as_dict())
        return
    render_resolution(result.resolved_from, result.path)
    click.echo(f"deleted {result.path}" if hard else f"archived {result.path} → {result.archived_to}")
    render_commit(result)


@main.command()
@click.option("--apply", is_flag=True, help="Archive the expired notes (default: only list them).")
@click.option("--hard", is_flag=True, help="With --apply: delete instead of archiving.")
@click.option("--as-of", "as_of", metavar="TIME", help="Evaluate expiry at this instant instead of now.")
@json_option
@click.pass_obj
def expire(obj: Context, apply: bool, hard: bool, as_of: str | None, as_json: bool) -> None:
    """List notes whose expires_at has passed; --apply archives them."""
    if hard and not apply:
        raise click.UsageError("--hard only makes sense with --apply")
    with library_errors(as_json):
        report = obj.vault.expire(apply=apply, hard=hard, now=as_of)
    if as_json:
        emit_json(report.as_dict())
        return
    verb = ("deleted" if hard else "archived") if apply else "would archive"
    skipped = {skip.path for skip in report.skipped}
    for entry in report.expired:
        if entry.path not in skipped:
            click.echo(f"{verb} {entry.path} (expired {entry.expires_at})")
    for skip in report.skipped:
        click.echo(f"skipped {skip.path}: {skip.reason}")
    if not report.expired:
        click.echo("no expired notes")
    elif not apply:
        click.echo(f"{len(report.expired)} expired note(s); run with --apply to archive them")
    render_commit(report)


@main.command()
@click.argument("notes", nargs=-1, required=True)
@json_option
@click.pass_obj
def used(obj: Context, notes: tuple[str, ...], as_json: bool) -> None:
    """Record that NOTES were used (they appeared in a result the agent acted on)."""
    with library_errors(as_json):
        used_notes = obj.vault.mark_used(notes)
    if as_json:
        emit_json([used_note.as_dict() for used_note in used_notes])
        return
    for used_note in used_notes:
        render_resolution(used_note.resolved_from, used_note.path)
        click.echo(f"{used_note.path}: used {used_note.use_count} time(s), last {used_note.last_used_at}")


@main.command()
@click.option("--days", type=click.FloatRange(min=0, max=MAX_STALE_DAYS), callback=_refuse_nan, default=DEFAULT_STALE_DAYS, show_default=True, help="Idle for more than this many days.")
@click.option("--layer", "layers", multiple=True, help="Only these layers.")
@click.option("--include-expired", is_flag=True, help="Also list notes whose expires_at has passed (normally `expire`'s business).")
@json_option
@click.pass_obj
def stale(obj: Context, days: float, layers: tuple[str, ...], include_expired: bool, as_json: bool) -> None:
    """List notes nobody used (or, never used, created) in the last N days; oldest first."""
    with library_errors(as_json):
        notes = obj.vault.stale(days=days, layers=layers, include_expired=include_expired)
    if as_json:
        emit_json([note.as_dict() for note in notes])
        # stdout stays the documented list; what was left out goes beside it.
        for reason, count in notes.left_out.items():
            click.echo(f"left out {count} note(s): {reason}", err=True)
        return
    for note in notes:
        click.echo(f"{note.path}: idle {note.idle_days:g} days (since {note.basis} {note.since}), used {note.use_count}×")
    if not notes:
        click.echo(f"no note idle for more than {days:g} days")
    for reason, count in notes.left_out.items():
        click.echo(f"left out {count} note(s): {reason}")


@main.group()
def usage() -> None:
    """Back up or restore usage history (the one state not derived from the vault)."""


@usage.command("export")
@click.argument("file", type=click.File("w"), default="-")
@click.pass_obj
def usage_export(obj: Context, file: IO[str]) -> None:
    """Write usage history as JSON to FILE (default stdout)."""
    with library_errors():
        document = obj.vault.usage_export()
    file.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


@usage.command("import")
@click.argument("file", type=click.File("rb"))
@click.pass_obj
def usage_import(obj: Context, file: IO[bytes]) -> None:
    """Merge usage history from a JSON export in FILE ('-' for stdin)."""
    from .usage import read_export

    with library_errors():
        count = obj.vault.usage_import(read_export(file.read(), file.name))
    click.echo(f"imported usage of {count} note(s)")


@main.command()
@click.argument("note")
@json_option
@click.pass_obj
def history(obj: Context, note: str, as_json: bool) -> None:
    """Commits that touched NOTE (newest first, following renames)."""
    with library_errors(as_json):
        commits = obj.vault.history(note)
    render_resolution(commits.resolved_from, commits.path, err=as_json)  # stdout stays one JSON list
    if as_json:
        emit_json([commit.as_dict() for commit in commits])
        return
    for commit in commits:
        click.echo(f"{commit.hash[:10]}  {commit.date}  {commit.author}\n    {commit.message}")


# ------------------------------------------------------------------ consolidate


@main.command()
@click.option("--threshold", type=click.FloatRange(0, 1, min_open=True), metavar="X",
              help=f"Cosine similarity that makes two notes near-duplicates (default: [consolidate] threshold, else {DEFAULT_THRESHOLD}).")
@click.option("--window", type=click.IntRange(min=1), metavar="N",
              help="Look for duplicates of the N most recently created or modified notes (default 2000).")
@click.option("--all", "all_notes", is_flag=True, help="Sweep every note of the vault (through the vector index).")
@click.option("--include-expired", is_flag=True, help="Also merge notes whose expires_at has passed.")
@click.option("--any-note", is_flag=True, help="Also consider notes without a layer (your own notes), not only memories.")
@click.option("--apply", is_flag=True, help="Merge the clusters (default: only list them).")
@json_option
@click.pass_obj
def consolidate(obj: Context, threshold: float | None, window: int | None, all_notes: bool, include_expired: bool,
                any_note: bool, apply: bool, as_json: bool) -> None:
    """Find near-duplicate memories of one layer; --apply merges each cluster into its longest note.

    Only notes that carry a layer (memories) are considered unless --any-note.
    Merging unions tags, records the merged notes (aliases, merged_from), appends the
    lines only they held to the kept note (under a heading naming each), keeps the
    latest expiry, rewrites [[links]] to them and moves them to the archive folder.
    """
    if window is not None and all_notes:
        raise click.UsageError("--window and --all contradict each other: --all already sweeps every note; give one of them")
    with library_errors(as_json):
        report = obj.vault.consolidate(threshold=threshold, window=window, all=all_notes,
                                       include_expired=include_expired, apply=apply, any_note=any_note)
    if as_json:
        emit_json(report.as_dict())
        return
    render_clusters(report)
    render_consolidation_outcome(report)


def render_clusters(report: ConsolidationReport) -> None:
    scope = report.plan.scope
    kind = "notes" if scope.any_note else "memories"
    where = f"all {kind}" if scope.window is None else f"the {scope.window} most recent {kind}"
    expired = "expired notes included" if scope.include_expired else "expired notes left out"
    click.echo(f"near-duplicates at cosine >= {scope.threshold:g} among {where} "
               f"({report.plan.compared} compared, {expired})")
    if scope.any_note:
        click.echo("scope: every note, with or without a layer (--any-note)")
    else:
        click.echo(f"scope: memories (notes with a layer); {report.plan.not_memories} note(s) without a layer "
                   "not considered (--any-note includes them)")
    for number, cluster in enumerate(report.clusters, start=1):
        click.echo(f"\n{number}. layer {cluster.layer or '-'}: {len(cluster.members)} notes, "
                   f"similarity {cluster.similarity:.3f} (weakest pair {cluster.weakest_pair:.3f})")
        for position, member in enumerate(cluster.members):
            role = "keep" if position == 0 else f"merge {member.similarity:.3f}"
            click.echo(f"   {role:<11}  {member.path}  \"{member.title}\"  {member.chars} chars")
            render_appended(member.appended)


def render_appended(lines: tuple[str, ...]) -> None:
    """The lines a merged note adds to the canonical (only the first few; --json: all)."""
    shown = [line for unit in lines for line in unit.split("\n") if line.strip()]
    for line in shown[:APPENDED_SHOWN]:
        click.echo(f"                + {line}")
    if len(shown) > APPENDED_SHOWN:
        click.echo(f"                + … and {len(shown) - APPENDED_SHOWN} more line(s) (--json lists them all)")


def render_consolidation_outcome(report: ConsolidationReport) -> None:
    left_out = report.plan.left_out
    if left_out:
        click.echo(f"\nleft out {len(left_out)} note(s):")
        for item in left_out[:LEFT_OUT_SHOWN]:
            click.echo(f"   {item.path}: {item.reason}")
        if len(left_out) > LEFT_OUT_SHOWN:
            click.echo(f"   … and {len(left_out) - LEFT_OUT_SHOWN} more (--json lists them all)")
    for entry in report.merged:
        for item in entry["merged"]:
            click.echo(f"merged {item['path']} into {entry['canonical']} (archived to {item['archived_to']})")
    for path in report.links_rewritten:
        click.echo(f"rewrote links in {path}")
    for skip in report.skipped:
        click.echo(f"skipped the cluster of {skip['canonical']}: {skip['reason']}")
    for warning in report.warnings:
        click.echo(f"! {warning}")
    render_commit(report)
    merged = sum(len(cluster.merged) for cluster in report.clusters)
    if not report.clusters:
        click.echo("\nno near-duplicates found")
    elif not report.applied:
        click.echo(f"\n{len(report.clusters)} cluster(s), {merged} note(s) would be merged into the first note of each. "
                   "Dry run: nothing changed; run again with --apply to merge.")


# ------------------------------------------------------------------ mcp


@main.command()
@click.option("--http", "http_bind", metavar="HOST:PORT",
              help="Serve MCP's streamable HTTP transport at http://HOST:PORT/mcp instead of stdio "
                   "(port 0 = any free port). Requires a bearer token.")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --http: a file holding the bearer token, readable only by you "
                   "(instead of $VAULTMEM_MCP_TOKEN).")
@click.pass_obj
def mcp(obj: Context, http_bind: str | None, token_file: Path | None) -> None:
    """Serve the vault to an agent over MCP (stdio, or streamable HTTP with --http).

    Tools: remember, recall, get, forget, mark_used, consolidate, expire, check.
    The index is reconciled before the first call and kept live while serving.
    Over stdio, stdout carries only the protocol. Over HTTP every request needs
    `Authorization: Bearer <token>` (the token comes from $VAULTMEM_MCP_TOKEN or
    --token-file) and browsers from other origins are refused; put a TLS reverse
    proxy in front before anything outside this machine connects. Logs go to stderr;
    Ctrl-C or SIGTERM stops the HTTP server (exit 0).
    """
    if token_file is not None and http_bind is None:
        raise click.UsageError("--token-file only applies with --http HOST:PORT")
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    with library_errors():
        if http_bind is not None:
            serve_over_http(obj, http_bind, token_file)
            return
        vault = obj.vault  # a bad --vault fails here, before any protocol traffic
        from .mcp_server import serve  # the MCP SDK is heavy; only this command needs it

        try:
            serve(vault)
        except KeyboardInterrupt:
            sys.exit(130)  # stopped by hand in a terminal: the conventional code, no traceback


def serve_over_http(obj: Context, http_bind: str, token_file: Path | None) -> None:
    from .mcp_http import parse_bind, read_token, serve_http

    bind = parse_bind(http_bind)
    token = read_token(os.environ, token_file)  # no token, no server: refused before the vault is opened
    serve_http(obj.vault, bind, token)


# ------------------------------------------------------------------ watch


@main.command()
@click.option("--quiet", is_flag=True, help="Print no line per change (warnings and errors still go to stderr).")
@click.option("--polling", is_flag=True, help="Poll the folder instead of using OS events (network shares, some containers).")
@click.pass_obj
def watch(obj: Context, quiet: bool, polling: bool) -> None:
    """Keep the index live while the vault is edited, until Ctrl-C or SIGTERM.

    Reconciles first, so edits made while nothing was watching are picked up, then
    prints one line per applied change on stdout ("12:03:04 updated notes/a.md").
    Warnings and errors go to stderr. Exits 0 when stopped by Ctrl-C or SIGTERM.
    """
    logging.getLogger().setLevel(logging.WARNING)  # stdout has the changes; stderr only what goes wrong
    with library_errors():
        watcher = obj.vault.watch(polling=polling, quiet=True, on_change=None if quiet else render_change, start=False)
        watcher.run_until_signalled(on_ready=None if quiet else render_watch_start)
    if not quiet:
        click.echo(f"{time.strftime('%H:%M:%S')} stopped watching")


def render_watch_start(watcher: Watcher) -> None:
    report = watcher.initial_report
    summary = report.summary() if report is not None else "start-up reconcile interrupted"
    click.echo(f"{time.strftime('%H:%M:%S')} watching {watcher.paths.root} ({watcher.backend}): {summary}; Ctrl-C to stop")


def render_change(change: Change) -> None:
    click.echo(f"{time.strftime('%H:%M:%S')} {change}")
