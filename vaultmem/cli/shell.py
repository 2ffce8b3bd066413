"""What every command shares: the ``vaultmem`` group, the opened vault, errors, JSON, and
the renderings several commands print (a commit, a resolution, problems).

Library errors (``VaultmemError``) and file-system errors (``OSError``) become a one-line
message on stderr and exit code 1; usage errors exit 2 (click). A command that failed
after it changed files says which (``NoteWritten``; with ``--json`` also as
``error.written``). Library warnings go to stderr. With ``--json`` stdout carries exactly
one JSON document.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING, Any, Protocol

import click

from ..errors import (
    AmbiguousNote,
    ConfigError,
    InvalidDuration,
    InvalidTimestamp,
    NoteNotFound,
    NoteWritten,
    PathOutsideVault,
    Spelled,
    UnknownLayer,
    UsageError,
    VaultmemError,
    respelled,
    said_by,
    with_notes,
)
from ..option_names import Surface
from ..problem_groups import ProblemGroup, grouped_problems

if TYPE_CHECKING:
    from ..index_progress import IndexWait
    from ..notes import Problem
    from ..paths import NotNotes
    from ..resolution import Resolution
    from ..results import NotCommitted
    from ..vault import Vault

JSON_HELP = "Print one JSON document on stdout instead of text."
PROGRESS_MIN_NOTES = 500  # fewer notes to read: done before a progress bar would help
SAID_MIN_NOTES = 200  # fewer notes to read (under ~1.5 s): done before a line saying so would help


class Context:
    def __init__(self, vault_path: str | None) -> None:
        self.vault_path = vault_path  # --vault, else $VAULTMEM_VAULT; None: the vault the current folder is in
        self._vault: Vault | None = None

    @property
    def vault(self) -> Vault:
        """The vault, opened on first use (a bad --vault fails the command that needs it)."""
        if self._vault is None:
            from ..vault import Vault

            self._vault = Vault(_vault_given(self.vault_path) if self.vault_path is not None else _vault_around_here(),
                                on_index_wait=shown_index_wait)
        return self._vault

    def close(self) -> None:
        """Close the vault, if a command opened it: its connections, and (as root) what it made
        in ``.vaultmem/`` given to the vault's owner (adr/0006)."""
        if self._vault is not None:
            self._vault.close()

    def note(self, reference: str) -> str:
        """A NOTE argument as the library takes it: vault-relative. Typed in a shell, a path that
        is absolute or starts with ``./`` or ``../`` names a file from the current folder, as ``cat``
        or ``ls`` read it (``get ./Lena.md`` in the vault's ``Personen/``): it becomes that
        file's vault-relative path, and one outside the vault is refused saying where it leads.
        Any other reference (``Personen/Lena.md``, ``Lena``, an id) goes as typed; so does one
        outside the vault that a note answers to (ids are opaque tokens: an id ``/etc/passwd``
        names its note). The MCP server and the API take vault-relative references only.
        An empty one is a usage error (exit 2), as an empty ``note`` is over MCP: it was "no note
        matches ''" (exit 1, a note not found) followed by every way of naming one."""
        if not reference:
            raise UsageError("NOTE is empty (an unset variable?): name a note by its id, path, file name, alias or "
                             "title — `vaultmem search WORDS` or `vaultmem list` shows them")
        if not is_shell_path(reference):
            return reference
        vault = self.vault
        try:
            return vault.paths.from_shell(reference, Path.cwd())
        except (PathOutsideVault, UsageError):  # outside the vault, or a folder: unless a note answers to it
            if answers_to(vault, reference):
                return reference
            raise

    def notes(self, references: Iterable[str]) -> list[str]:
        return [self.note(reference) for reference in references]


def shown_index_wait(wait: IndexWait) -> Callable[[int], None]:
    """A command that must index before it answers says so on stderr before the wait (why, how
    many notes, about how long), then shows ``index``'s progress bar on a terminal; piped, the one
    line. Was: a first ``search`` on 3,000 notes sat 22 s with no output, taken for a hang."""
    if wait.todo < SAID_MIN_NOTES:
        return lambda done: None
    click.echo(str(wait), err=True)
    return terminal_progress(wait.todo, wait.total)


def terminal_progress(todo: int, total: int) -> Callable[[int], None]:
    """A progress bar on a terminal for long runs; nothing when piped or short."""
    if todo < PROGRESS_MIN_NOTES or not sys.stderr.isatty():
        return lambda done: None
    # The count shows: a run of huge notes moves the percentage little but the count still
    # climbs, so a long stretch is not taken for a hang.
    bar = click.progressbar(length=todo, label=f"indexing {todo} of {total} notes", file=sys.stderr, show_pos=True,
                            show_eta=False)  # by count, an ETA is wrong by minutes when a few notes are huge
    bar.__enter__()

    def advance(done: int) -> None:
        bar.update(done)
        if bar.pos >= todo:
            bar.__exit__(None, None, None)
            click.echo(_finishing(todo), err=True)

    return advance


def _finishing(todo: int) -> str:
    """Said once every note is read: what is left (merging the full text, saving the vector
    graph) took 2 minutes of 8 on 16,500 notes, under a full bar and no word."""
    return f"all {todo:,} notes read; finishing the index (its full text and its vector search graph)…"


def index_progress(todo: int, total: int) -> Callable[[int], None]:
    """``index``'s own progress: on a terminal the bar; piped (a log file, cron, ``| tee``) a line as
    it starts and one at each tenth read. Was: piped, a first index of 16,500 notes printed
    nothing for 8 minutes, then its summary — a log that could not tell a hang from work."""
    if todo < SAID_MIN_NOTES or sys.stderr.isatty():
        return terminal_progress(todo, total)
    click.echo(f"indexing {todo:,} of {total:,} notes…", err=True)
    return _tenths_said(todo)


def _tenths_said(todo: int) -> Callable[[int], None]:
    """A line each time the notes read pass another tenth of ``todo`` (by count: a chunk of
    huge notes passes none, a chunk of 512 small ones may pass several — said once)."""
    done = 0
    said = 0  # tenths said so far

    def advance(read: int) -> None:
        nonlocal done, said
        done += read
        tenths = min(10, done * 10 // todo)
        if done >= todo:
            click.echo(_finishing(todo), err=True)
        elif tenths > said:
            said = tenths
            click.echo(f"indexed {done:,} of {todo:,} notes", err=True)

    return advance


def is_shell_path(reference: str) -> bool:
    """Does a NOTE argument read as a file-system path: absolute, or from the current folder?"""
    starts = ("./", "../") if os.sep == "/" else ("./", "../", f".{os.sep}", f"..{os.sep}")
    return reference in (".", "..") or reference.startswith(starts) or os.path.isabs(reference)


def answers_to(vault: Vault, reference: str) -> bool:
    """Does a note answer to ``reference`` (its id, an id it carries, an alias, a title)? Several
    do: yes, and the command says they are several."""
    from ..resolution import RELATIVE_LINK

    try:
        located = vault.locate(reference)
    except (NoteNotFound, PathOutsideVault):
        return False
    except AmbiguousNote:
        return True  # several do: the command names them
    # A `../` path typed in a shell is read from the current folder, never as a link's target
    # from a note nobody named: `get ../Projekte` in Projekte/ read Projekte.md beside the folder.
    return located.resolved_from is None or located.resolved_from.via != RELATIVE_LINK


def _vault_given(vault_path: str) -> str:
    """``--vault PATH`` as given; an empty one is refused. Was: ``--vault ""`` (a script's
    ``--vault "$VAULT"`` with the variable unset) fell back to the vault around the current
    folder, so the command read or wrote another vault than the one the script named. An
    empty ``$VAULTMEM_VAULT`` still counts as unset: an environment variable set to nothing
    is how a shell unsets one for a command."""
    if not vault_path:
        raise UsageError(
            f"--vault {vault_path!r} names no folder (an unset variable in `--vault \"$VAULT\"`?): pass the "
            "vault's folder, or leave --vault out to use $VAULTMEM_VAULT or the vault the current folder is in"
        )
    return vault_path


def _vault_around_here() -> str:
    from ..config import find_vault

    try:
        here = Path.cwd()
    except FileNotFoundError:
        raise VaultmemError("the current folder no longer exists: cd into the vault or pass --vault PATH") from None
    found = find_vault(here)
    if found is None:
        # No --vault given and none around here: the option is missing, a usage error (exit 2).
        raise UsageError(_no_vault_here(here))
    return str(found)


def _no_vault_here(here: Path) -> str:
    """Why no vault was found around ``here``, and its fix. Was, in a subfolder of a plain folder
    indexed with ``--vault .``: "no vault in … or any folder above it" and "`vaultmem --vault .
    index` makes this folder a vault", whose following indexed the subfolder as a second vault
    inside the first, answering from its notes alone (adr/0025)."""
    from ..config import CONFIG_FILE, FOAM_DIR, LOGSEQ_SETTINGS, OBSIDIAN_DIR, STATE_DIR, index_above

    marks = (f"a vault holds {OBSIDIAN_DIR}/, {CONFIG_FILE} or, a Logseq graph, {LOGSEQ_SETTINGS} or, a Foam "
             f"workspace, {FOAM_DIR}/; the folder you are in also counts when it holds {STATE_DIR}/")
    indexed = index_above(here)
    if indexed is not None:
        return (f"no vault in {here} or any folder above it ({marks}): {indexed} holds an index ({STATE_DIR}/) but "
                f"no {OBSIDIAN_DIR}/ or {CONFIG_FILE}, so it is not the vault of the folders below it; pass "
                f"--vault {shlex.quote(str(indexed))} or set VAULTMEM_VAULT, or add an empty {CONFIG_FILE} to "
                f"{shlex.quote(str(indexed))} to have it found from its subfolders")
    return (f"no vault in {here} or any folder above it ({marks}); pass --vault PATH or set VAULTMEM_VAULT — "
            "`vaultmem --vault . index` makes this folder a vault")


def shorten(text: str, width: int = 100) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis when longer."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def emit_json(document: Any) -> None:
    # The library's messages name operations and arguments as Python does (Vault.check(), since);
    # here they are the shell's (`vaultmem check`, --since), in JSON as in text.
    click.echo(json.dumps(respelled(document, Surface.CLI), ensure_ascii=False, indent=2, default=str))


@contextmanager
def library_errors(as_json: bool = False) -> Iterator[None]:
    """Turn library errors into a clear message and exit code (1, or 2 for usage)."""
    try:
        yield
    except (UsageError, UnknownLayer, InvalidTimestamp, InvalidDuration, ConfigError, PathOutsideVault) as error:
        # A bad option value (--layer L9, --as-of soon, --ttl 3x, --vault that is no folder,
        # a NOTE or --folder that leaves the vault) is a usage error, as click's own option
        # checks are: exit 2, not 1 ("could not do its job"); so is a bad value in
        # .vaultmem.toml (the message names the file, the key and the fix).
        # The library names arguments as the API takes them; here they are the CLI's flags.
        _fail(error, as_json, 2, error.spelled(Surface.CLI))
    except VaultmemError as error:
        _fail(error, as_json, 1, error.spelled(Surface.CLI))
    except OSError as error:
        # The file system refused (a name too long, a permission, a full disk): the command
        # could not do its job. A one-line message, like a library error, not a traceback.
        _fail(error, as_json, 1, describe_os_error(error))


def _fail(error: Exception, as_json: bool, code: int, message: str | None = None) -> None:
    message = with_notes(message or str(error), error)
    if as_json:
        detail: dict[str, Any] = {"type": error.kind if isinstance(error, VaultmemError) else type(error).__name__,
                                  "message": message}
        if isinstance(error, NoteWritten):
            detail["written"] = error.paths  # on disk although the command failed: do not write them again
        emit_json({"error": detail})
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def describe_os_error(error: OSError) -> str:
    """``[Errno 28] No space left on device: '/v/x.md'`` as a sentence that says what to do."""
    where = f" {error.filename}" if error.filename else ""
    if error.filename and error.filename2:  # a move: the folder it was going to may be the one refused
        where += f" (moving it to {error.filename2})"
    what = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"cannot write{where}: {what}. The disk (or your quota) is full: free some space and run the command again"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (f"cannot write{where}: {what}. The vault (or that folder) is read-only for this user: run vaultmem "
                "as a user who can write it, or use only the read commands (search, get, stats, check)")
    return f"{what}:{where}" if where else str(error)


def json_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(function)


_LONG_OPTION = re.compile(r"--[A-Za-z][\w-]*(?:=.*)?", re.DOTALL)


class _Command(click.Command):
    """A command that, refusing an unknown option that reads as text rather than as a mistyped
    option (``remember "- [ ] buy milk"``, ``search -tokio``, ``search --no-verify``), says how to
    pass it: after ``--``. Was: ``No such option '- '.``, with no word of the ``--`` the README
    gives for it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed = list(args)  # the parser consumes args as it goes
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            hint = _after_dashes(self, ctx, error.option_name, error.possibilities, typed)
            if hint is None:
                raise
            # click's nearest name for a text is --help at best ("Did you mean '--help'?" after --grep)
            near_ones = [name for name in error.possibilities or () if name != "--help"]
            raise click.NoSuchOption(error.option_name, f"{error.message} {hint}", near_ones, ctx) from None


class _Group(click.Group):
    command_class = _Command
    group_class = type  # a subgroup (usage) is one too, so its commands say it as well


def _after_dashes(command: click.Command, ctx: click.Context, option_name: str,
                  possibilities: Sequence[str] | None, args: list[str]) -> str | None:
    """How to pass the argument ``option_name`` came from as text; None when the command takes
    no text, or the argument is shaped as a long option close to one of the command's own
    (``--limt``: a mistyped option, which click's "Did you mean" already answers). A long option
    close to none is text: a flag a programmer asks about (``search --no-verify``) was refused
    with ``No such option '--no-verify'.`` alone (or "Did you mean '--help'?" for ``--grep``)."""
    names = [param.human_readable_name for param in command.params if isinstance(param, click.Argument)]
    typed = next((arg for arg in args if arg.startswith(option_name)), option_name)
    near_ones = [name for name in possibilities or () if name != "--help"]
    if not names or (_LONG_OPTION.fullmatch(typed) and near_ones):
        return None
    return (f"A {' or '.join(names)} that starts with '-' goes after --, which ends the options: "
            f"{ctx.command_path} -- {shlex.quote(typed)}")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--vault",
    "vault_path",
    type=click.Path(),  # a file or no folder at all is Vault's usage error: its fix, and JSON with --json
    default=lambda: os.environ.get("VAULTMEM_VAULT") or None,
    show_default="$VAULTMEM_VAULT, else the vault the current folder is in: the nearest folder, here or above, "
                 "with .obsidian/, .vaultmem.toml, logseq/config.edn or .foam/, or this folder if it holds .vaultmem/",
    help="The vault folder.",
)
@click.version_option(package_name="vaultmem")
@click.pass_context
def main(ctx: click.Context, vault_path: str | None) -> None:
    """vaultmem: an agent's memory as an Obsidian-style Markdown vault.

    The Markdown files are the truth; <vault>/.vaultmem/ holds a derived index
    (SQLite + FTS5 + hnswlib) that `index` can always rebuild.

    \b
    Start:  vaultmem --vault ~/Notes index     (once: reads every note)
            vaultmem --vault ~/Notes search "dentist" -k 3
            vaultmem --vault ~/Notes mcp       (serve it to an agent)
    Layers: how long a memory stays true. L1 working (1 day), L2 episodic
            (7 days, the default), L3 semantic (90 days), L4 procedural
            (never expires); [ttl] in <vault>/.vaultmem.toml changes them.
    """
    _log_to_stderr()
    ctx.obj = Context(vault_path)
    ctx.call_on_close(ctx.obj.close)


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a record comes (click's test runner swaps it)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(_AsTyped("%(levelname)s: %(message)s"))


class _AsTyped(logging.Formatter):
    """Says the operations and arguments a library message names as the command line does
    (`vaultmem index --rebuild`, not ``Vault.index(rebuild=True)``). The MCP server's log is
    this one too, in the same words: a person reads it, at a shell (adr/0011). The record is
    left as logged: another handler, and said_once's comparison with an answer's warnings, see
    the library's own words."""

    def format(self, record: logging.LogRecord) -> str:
        typed = logging.makeLogRecord(record.__dict__)
        typed.msg = said_by(record.msg, Surface.CLI)
        if isinstance(record.args, tuple):
            typed.args = tuple(said_by(argument, Surface.CLI) for argument in record.args)
        return super().format(typed)

    def formatException(self, ei: Any) -> str:
        """The traceback, each vaultmem error in it (and those it came from) said as here."""
        text = super().formatException(ei)
        error: BaseException | None = ei[1]
        seen: set[int] = set()
        while error is not None and id(error) not in seen:  # a chain can loop back on itself
            seen.add(id(error))
            if isinstance(error, VaultmemError):
                text = text.replace(str(error), error.spelled(Surface.CLI))
            error = error.__cause__ or error.__context__
        return text

    @property
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        pass  # always the current sys.stderr


def log_with_times() -> None:
    """A long-running command's log (``mcp``): each line starts with its local time, as
    ``watch``'s own lines do, so a person reading the log afterwards knows when each thing
    happened. The stderr handler set up for every command is the one changed (a
    ``logging.basicConfig`` would do nothing: logging is configured already)."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, _StderrHandler):
            handler.setFormatter(_AsTyped("%(asctime)s %(levelname)s: %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))


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


class _HeldWarnings(logging.Filter):
    """Holds the library's warnings back while a command whose answer carries them runs."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        self.records.append(record)
        return False


AS_OF_HELP = ("Evaluate expiry at this instant instead of now: an ISO time, now, tomorrow or yesterday (24 hours "
              "ahead or back), or +7d / -12h from now.")


def as_typed(message: str) -> str:
    """A library message naming the arguments as this shell takes them (``--since``, not ``since``)."""
    return message.spelled(Surface.CLI) if isinstance(message, Spelled) else message


@contextmanager
def said_once(carried: list[str]) -> Iterator[None]:
    """Run a command whose answer carries its own warnings (``search``: ``!`` lines, or with
    ``--json`` stderr): a library warning the answer carries (an index healed, read-only
    here, a snapshot set aside) is not also logged. Fill ``carried`` with the answer's
    warnings; the others are logged as usual when the block ends."""
    library = logging.getLogger("vaultmem")  # where the index's faults are said (derived, healing, vectors)
    held = _HeldWarnings()
    library.addFilter(held)
    try:
        yield
    finally:
        library.removeFilter(held)
        for record in held.records:
            if record.getMessage() not in carried:
                library.handle(record)


# ------------------------------------------------------------------ renderings several commands share


class Committed(Protocol):
    """What every write's result says about its auto-commit."""

    @property
    def commit(self) -> str | None: ...

    @property
    def not_committed(self) -> list[NotCommitted]: ...

    @property
    def yours_left_uncommitted(self) -> list[str]: ...


def render_commit(result: Committed) -> None:
    """The auto-commit, and each file left out of it (or committed without the person's edit)."""
    if result.commit:
        click.echo(f"committed {result.commit[:10]}")
    for entry in result.not_committed:
        click.echo(f"  git: {entry.path}: {entry.reason}")
    for path in result.yours_left_uncommitted:
        click.echo(f"  git: {path}: committed with vaultmem's change only; your own edit in it stays uncommitted")


def render_resolution(resolved_from: Resolution | None, path: str, err: bool = False) -> None:
    """Say that NOTE named the note through merged_from, supersedes, an alias or a title, and
    which other notes answer to it too (a read took the first step's note)."""
    if resolved_from is not None:
        notice = resolved_from.notice()
        click.echo(f"({resolved_from} → {path}{'; ' + notice if notice else ''})", err=err)


def render_problems(problems: list[Problem]) -> None:
    """A problem each, except that the same problem in several notes of one folder is said
    once, its notes named on a line (problem_groups.py: a templates folder's 117 problems
    were 234 lines of the same advice, burying the others)."""
    for shown in grouped_problems(problems, said=as_typed):
        if isinstance(shown, ProblemGroup):
            first = shown.problems[0]
            click.echo(f"! {shown.folder or '.'}/: {len(shown.problems)} notes: {shown.field}: {shown.message}\n"
                       f"    notes: {', '.join(shown.named())}\n"
                       f"    fix (as for {PurePosixPath(first.path).name}): {as_typed(first.fix)}")
        else:
            click.echo(f"! {shown.path}: {shown.field}: {as_typed(shown.message)}\n    fix: {as_typed(shown.fix)}")


def render_excluded(not_notes: NotNotes) -> None:
    """A line each: what the vault's exclusions left out, and the files named like notes
    that are not (``Note.MD``) — a few of them named, never a warning per file."""
    # A folder holding no note file left nothing out: a graph's logseq/ with only config.edn was
    # "not notes (excluded): 0 file(s): logseq/ (…)" after every index (s40).
    parts = [f"{folder.path}/ ({folder.rule})" if folder.files == not_notes.excluded_files  # the count said once
             else f"{folder.path}/ ({folder.files} file(s); {folder.rule})"
             for folder in not_notes.excluded_folders if folder.files]
    for group in not_notes.excluded_by_rule:
        more = f" and {group.files - len(group.named)} more" if group.files > len(group.named) else ""
        parts.append(f"{', '.join(group.named)}{more} ({group.rule})")
    if parts:
        click.echo(f"not notes (excluded): {not_notes.excluded_files} file(s): {', '.join(parts)}")
    if not_notes.skipped_files:
        click.echo(f"not notes (skipped): {not_notes.skipped_files} file(s):")
        for skipped in not_notes.skipped_named:
            click.echo(f"  {skipped.path}: {skipped.reason}")
        if not_notes.skipped_files > len(not_notes.skipped_named):
            click.echo(f"  and {not_notes.skipped_files - len(not_notes.skipped_named)} more")


_FRACTION = re.compile(r"(T\d{2}:\d{2}:\d{2})\.\d+")


def to_the_second(instant: str) -> str:
    """An ISO instant as text shows it, without the fraction of a second usage history keeps
    (``2026-12-02T11:55:37.455181+00:00`` is ``2026-12-02T11:55:37+00:00``); ``--json`` keeps it."""
    return _FRACTION.sub(r"\1", instant, count=1)
