"""One exception root for vaultmem, with a few precise subclasses.

Every message names the value, note path or field that is wrong and ends with how to
fix it, so a CLI user or an MCP client can act on it without reading a traceback.
"""

from __future__ import annotations

import errno
import posixpath
import reprlib
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from .option_names import Surface

Document = TypeVar("Document")


class _Shown(reprlib.Repr):
    """``repr`` with dates as YAML and ISO write them (``[2026-11-30]``, not ``[datetime.date(2026, 11, 30)]``)."""

    def repr_date(self, value: date, level: int) -> str:
        return value.isoformat()

    def repr_datetime(self, value: datetime, level: int) -> str:
        return value.isoformat()


_SHORT = _Shown()
_SHORT.maxstring = _SHORT.maxother = 120
_SHORT.maxlevel = 3
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = _SHORT.maxfrozenset = 6


def short_repr(value: object) -> str:
    """``repr(value)`` cut to a readable length, without walking a huge value whole; dates
    and times as ISO text.

    Values come from notes, which are untrusted input: a 1 MB ``expires_at`` or a list
    repeated by YAML aliases must not become a 1 MB error message, log line or row.
    """
    return _SHORT.repr(value)


class VaultmemError(Exception):
    """Root of every error vaultmem raises on purpose."""

    # The message in parts, when it names arguments or operations (:class:`Spelled`).
    parts: tuple[Part, ...] = ()
    # The kind an MCP error leads with and `--json`'s "type" says (what to do about it); the
    # class's name unless a subclass is another kind's case (PathNotFromVaultRoot: UsageError).
    kind: str = "VaultmemError"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" not in cls.__dict__:
            cls.kind = cls.__name__

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        if len(args) == 1 and isinstance(args[0], Spelled):
            # Given as a Spelled message: each surface says its operations its own way (over
            # MCP "ask the person to run `vaultmem index --rebuild`", not a command it cannot run).
            self.parts = args[0].parts

    def spelled(self, surface: Surface) -> str:
        """The message as ``surface`` names arguments and operations; ``str(self)`` names
        them as the Python API does."""
        return _joined(self.parts, surface) if self.parts else str(self)


class InvalidTimestamp(VaultmemError, ValueError):
    """A value that should be a point in time is not one."""

    PREFIX = "invalid timestamp "
    ISO = "use ISO-8601 such as 2026-12-01, 2026-12-01T10:00:00 (UTC) or 2026-12-01T10:00:00+02:00"

    def __init__(self, value: object, reason: str = "", argument: Argument | None = None, fix: str = ISO) -> None:
        self.value = value
        self.reason = reason
        self.argument = argument  # the argument it came as, named before the message (shells spell it)
        self.fix = fix  # what the argument accepts (a time in a note's frontmatter: ISO-8601)
        super().__init__(self.spelled(Surface.API))

    def spelled(self, surface: Surface) -> str:
        named = f"{self.argument.spelled(surface is Surface.CLI)}: " if self.argument is not None else ""
        detail = f" ({self.reason})" if self.reason else ""
        return f"{named}{self.PREFIX}{short_repr(self.value)}{detail}: {self.fix}"


class FixRefused(VaultmemError):
    """A fix ``check --fix`` will not make: why, and what to do by hand instead."""

    def __init__(self, problem: str, fix: str) -> None:
        self.problem = problem  # either may be Spelled: check shows them as its caller's surface says them
        self.fix = fix
        super().__init__(Spelled(*_parts_of(problem), ": ", *_parts_of(fix)))


class InvalidDuration(VaultmemError, ValueError):
    """A TTL such as ``3d`` that does not parse (or that no date can hold)."""

    SPELLING = "use a number and a unit, e.g. 30m, 12h, 3d, 2w (or combined: 1d12h)"

    def __init__(self, value: object, reason: str = "", fix: str = SPELLING, argument: Argument | None = None) -> None:
        self.value = value
        self.reason = reason
        self.problem = f"invalid duration {short_repr(value)}" + (f" ({reason})" if reason else "")
        self.fix = fix
        # The argument it came as (ttl), named first: "InvalidDuration: invalid duration 'forever'"
        # left an agent that sent ttl, expires_at and date at once to guess which was wrong.
        self.argument = argument
        super().__init__(self.spelled(Surface.API))

    def spelled(self, surface: Surface) -> str:
        named = f"{self.argument.spelled(surface is Surface.CLI)}: " if self.argument is not None else ""
        return f"{named}{self.problem}: {self.fix}"


class UnknownLayer(VaultmemError, ValueError):
    """A layer name that is neither L1–L4 nor one of their aliases."""

    def __init__(self, layer: object, valid: Sequence[str]) -> None:
        self.layer = layer
        super().__init__(f"unknown layer {short_repr(layer)}: use one of {', '.join(valid)}")


class ConfigError(VaultmemError, ValueError):
    """A setting in the vault's config file that cannot be used: a usage error (the CLI
    exits 2), and the one problem ``check`` reports when the file does not load."""

    def __init__(self, source: object, key: str, problem: str, fix: str, others: Sequence[ConfigError] = ()) -> None:
        self.source = str(source)  # the file
        self.key = key  # the setting, e.g. "[ttl] L1" ("" for the whole file)
        self.problem = problem
        self.fix = fix
        self.others = tuple(others)  # more bad settings of the same file: all are said at once
        also = "".join(f"; and {other.key + ': ' if other.key else ''}{other.problem}; {other.fix}" for other in self.others)
        super().__init__(f"{source}: {key + ': ' if key else ''}{problem}; {fix}{also}")

    @property
    def every(self) -> tuple[ConfigError, ...]:
        """This problem and the others, one each."""
        return (ConfigError(self.source, self.key, self.problem, self.fix), *self.others)


@dataclass(frozen=True)
class Argument:
    """An argument a :class:`UsageError` names, spelled by the shell that shows the message:
    as the Python API and MCP name it (``expires_at``) or as the CLI does (``--expires-at``)."""

    name: str
    value: str | None = None  # shown after the name: "layer L4" / "--layer L4"
    flag: str | None = None  # the CLI's option when it is not --name-with-dashes (add_tags: --tag)
    switch: bool = False  # the CLI's flag says the value itself: "permanent false" / "--no-permanent"

    def spelled(self, as_flag: bool) -> str:
        name = (self.flag or "--" + self.name.replace("_", "-")) if as_flag else self.name
        return name if self.value is None or (as_flag and self.switch) else f"{name} {self.value}"


@dataclass(frozen=True)
class Operation:
    """A vault operation a message tells the caller to run, as the surface that shows the
    message offers it: a command at the shell, a method in Python, a tool over MCP — or, where
    MCP has no such tool (``check --fix``, ``index``), what an agent can do instead. An agent
    told to run ``vaultmem check`` may have no shell to run it in."""

    cli: str  # `vaultmem check --fix`
    api: str  # Vault.check(fix=True)
    mcp: str  # the check tool

    def spelled(self, surface: Surface) -> str:
        return {Surface.CLI: self.cli, Surface.API: self.api, Surface.MCP: self.mcp}[surface]


CHECK = Operation("`vaultmem check`", "Vault.check()", "the check tool")
CONSOLIDATE = Operation("`vaultmem consolidate`", "Vault.consolidate()", "the consolidate tool")
EXPIRE = Operation("`vaultmem expire`", "Vault.expire()", "the expire tool")
GET = Operation("`vaultmem get`", "Vault.get()", "the get tool")
# The MCP server has no index tool: its watcher reconciles the index with the files as it starts.
INDEX = Operation("run `vaultmem index`", "run Vault.index()", "ask the person to run `vaultmem index` (or to restart "
                  "the MCP server: it reconciles the index with the files as it starts)")
# Nor one that rebuilds it: a restart reconciles, it does not rebuild (adr/0011).
REBUILD = Operation("run `vaultmem index --rebuild`", "run Vault.index(rebuild=True)",
                    "ask the person to run `vaultmem index --rebuild` (no MCP tool rebuilds the index)")
# A server reads .vaultmem.toml once, as it starts: `vaultmem index` run beside one that read another
# embedder re-embeds for the file's, and the server's next reconcile would re-embed back. Its restart
# reads the file again and re-embeds as it starts.
RE_EMBED = Operation("run `vaultmem index` to re-embed", "run Vault.index() to re-embed with this Vault's (a Vault "
                     "keeps the embedder it read from .vaultmem.toml when it was made: make a new one to use the file's)",
                     "ask the person to restart the MCP server: it reads .vaultmem.toml again and re-embeds the vault "
                     "with the embedder named there as it starts")
# vaultmem is installed from a clone (README): `pip install -U vaultmem` asked the package index for a
# package of that name, which is not this one — at best an error, at worst someone else's code.
UPGRADE = Operation("upgrade vaultmem (`git pull && pip install -e .` in the clone it is installed from)",
                    "upgrade vaultmem (`git pull && pip install -e .` in the clone it is installed from) and make a "
                    "new Vault", "ask the person to upgrade vaultmem and restart the MCP server")
# For an index this process cannot write: the person runs it as a user who can.
INDEX_AS_WRITER = Operation("Run `vaultmem index`", "Run Vault.index()", "Ask the person to run `vaultmem index`")
# check --fix is no MCP tool (adr/0011): over MCP the person runs it.
CHECK_FIX = Operation("check --fix", "Vault.check(fix=True)", "`vaultmem check --fix`")
CHECK_FIX_AGAIN = Operation("run check --fix again", "run Vault.check(fix=True) again",
                            "ask the person to run `vaultmem check --fix` (no MCP tool makes check's fixes)")

Part = str | Argument | Operation


class UsageError(VaultmemError, ValueError):
    """Arguments that contradict each other or make no sense together.

    The message is given in parts, text and :class:`Argument`: ``str(error)`` names the
    arguments as the API and MCP take them; the CLI shows :meth:`spelled` with its flags.
    """

    def __init__(self, *parts: Part) -> None:
        self.parts = parts
        super().__init__(self.spelled(Surface.API))


class Spelled(str):
    """A message that names arguments or operations, as a ``str``: its value names them as the
    Python API does (``since/until``, ``Vault.check()``); a shell shows :meth:`spelled` for its
    surface (``--since/--until`` and `vaultmem check` on the command line, the check tool over
    MCP; :func:`respelled` does a whole answer). Given in parts, as :class:`UsageError` is;
    text made from it is the API's spelling."""

    parts: tuple[Part, ...]

    def __new__(cls, *parts: Part) -> Spelled:
        said = super().__new__(cls, _joined(parts, Surface.API))
        said.parts = parts
        return said

    def spelled(self, surface: Surface) -> str:
        return _joined(self.parts, surface)


def _parts_of(message: str) -> tuple[Part, ...]:
    return message.parts if isinstance(message, Spelled) else (message,)


def _joined(parts: Sequence[Part], surface: Surface) -> str:
    return "".join(part if isinstance(part, str) else
                   part.spelled(surface is Surface.CLI) if isinstance(part, Argument) else part.spelled(surface)
                   for part in parts)


def message_parts(error: BaseException) -> tuple[Part, ...]:
    """An error's message in parts, to be said inside another (a skipped note's reason) as
    each surface says it: a ReadOnlyNote's fix is ``chmod`` at the shell, asking the person
    over MCP — ``str(error)`` would give the agent the shell's."""
    return error.parts if isinstance(error, VaultmemError) and error.parts else (str(error),)


def with_notes(message: str, error: BaseException) -> str:
    """``message`` followed by what was added to ``error`` on its way up (``add_note``: a
    supersede that was undone names the new note it removed), as every surface says it."""
    notes = [note for note in getattr(error, "__notes__", ()) if isinstance(note, str)]
    return "; ".join([message, *notes])


def said_by(value: object, surface: Surface) -> object:
    """``value`` as ``surface`` says it when it is a message that names arguments or operations
    (a :class:`Spelled`, a :class:`VaultmemError`): a log line's message or argument; else ``value``."""
    if isinstance(value, Spelled | VaultmemError):
        return value.spelled(surface)
    return value


def respelled(document: Document, surface: Surface) -> Document:
    """``document`` (a JSON-ready answer: dicts, lists, strings) with every :class:`Spelled`
    in it, key or value, as ``surface`` says it; the rest as it is."""
    return _respelled(document, surface)  # type: ignore[no-any-return]


def _respelled(value: Any, surface: Surface) -> Any:
    if isinstance(value, Spelled):
        return value.spelled(surface)
    if isinstance(value, dict):
        return {_respelled(key, surface): _respelled(item, surface) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_respelled(item, surface) for item in value]
    return value


def listed(*arguments: Argument) -> list[str | Argument]:
    """``a, b, c`` as message parts (for :class:`UsageError`)."""
    parts: list[str | Argument] = []
    for argument in arguments:
        parts += [", ", argument] if parts else [argument]
    return parts


class PathOutsideVault(VaultmemError, ValueError):
    """A path that would resolve outside the vault (``..``, absolute, symlink out)."""

    def __init__(self, path: object, vault: object, leads_to: object = None, inside: str | None = None,
                 link_target: str | None = None, folder: bool = False) -> None:
        self.path = path
        self.inside = inside
        if folder and inside is None:
            # remember's folder: told of a link's target and "the note's path", an agent was sent
            # to fix a note it was not naming (a three-day agent trial).
            within = _climbs_back_in(path, folder=True)
            if within is not None:
                # `memories/../people` climbs back in: not outside, refused for its '..' (review, s34)
                super().__init__(f"folder {str(path)!r} holds '..': give the folder from the vault root without it, "
                                 f"such as {within!r}")
                return
            super().__init__(f"folder {str(path)!r} is outside the vault {str(vault)!r}: give a folder from the vault "
                             "root without '..' (memories/people), or none for the vault's memories folder")
            return
        if inside is not None:  # an absolute path into the vault: refused as a name, but not outside
            super().__init__(f"path {str(path)!r} is absolute: give its path from the vault root instead, {inside!r}")
            return
        if leads_to is not None:  # a path typed in a shell, read from the current folder (the CLI)
            where = " is" if str(leads_to) == str(path) else f" is {str(leads_to)!r},"
            super().__init__(
                f"path {str(path)!r}{where} outside the vault {str(vault)!r}: name a note "
                "in the vault, by its path from the vault root or from the current folder"
            )
            return
        if str(path).replace("\\", "/").startswith("../"):
            # A Markdown link's target copied from a note in a subfolder: relative to that note,
            # which is not given. "Resolves outside the vault" was said of a note in it (a trial).
            super().__init__(
                f"path {str(path)!r} starts with '../': read from the vault root, it is outside the vault {str(vault)!r}; "
                "if it is a link's target, it is read from the folder of the note that holds the link, which "
                "vaultmem is not told. Send the note's path from the vault root instead: that note's folder "
                "joined with the target, without '..' (or the note's name or id)"
                + (f"; one note's path ends so, {link_target!r}: a write goes by that path, not by a reading "
                   "of the link" if link_target is not None else "")
            )
            return
        within = _climbs_back_in(path, folder=False)
        if within is not None:
            # `21.01/..` is the vault's top folder, `11.01/../x` is `x`: neither leaves the vault, and
            # "resolves outside the vault" sent the agent looking for a vault it was not in (s37 leftover).
            names = ("the vault's top folder, which is no note" if within == "."
                     else f"{within!r} once the '..' is taken away")
            super().__init__(f"path {str(path)!r} holds '..': a NOTE is named without it, and this names {names}. "
                             "Give the note's path from the vault root (or its name or id)")
            return
        super().__init__(
            f"path {str(path)!r} resolves outside the vault {str(vault)!r}: "
            "use a path relative to the vault root, without '..' or symlinks out"
        )


def _climbs_back_in(path: object, folder: bool) -> str | None:
    """The path ``path`` names once its '..' are taken away, when it holds one and still names a
    place in the vault (`21.01/..` is the vault's top folder, "."; a folder must name one below
    it); None otherwise: no '..', or one that leaves the vault."""
    written = str(path).replace("\\", "/")
    if not written.strip() or "\x00" in written or ".." not in written.split("/"):
        return None
    within = posixpath.normpath(written)
    if within.split("/")[0] == ".." or within.startswith("/") or (folder and within == "."):
        return None
    return within


class PathNotFromVaultRoot(PathOutsideVault, UsageError):
    """A path that leads into the vault but is not written from its root: absolute, or with a
    '..' that climbs back in (`21.01/..`, `Work/../Ideas.md`). Refused as written, as a path out
    is — every caller that catches PathOutsideVault (to ask the names instead, to leave a note
    out) still does — but its kind is UsageError: the fix is the argument, not a vault or a
    link. Was (stop 38's leftover): the clear message came as `PathOutsideVault:` over MCP, a
    kind that sends an agent looking for a vault it is already in."""

    kind = "UsageError"


def path_refused(path: object, vault: object, inside: str | None = None, folder: bool = False) -> PathOutsideVault:
    """The error for a path refused as given: :class:`PathNotFromVaultRoot` when it leads into
    the vault, :class:`PathOutsideVault` when it leads out."""
    if inside is not None or _climbs_back_in(path, folder) is not None:
        return PathNotFromVaultRoot(path, vault, inside=inside, folder=folder)
    return PathOutsideVault(path, vault, inside=inside, folder=folder)


class NoteNotFound(VaultmemError, LookupError):
    """A NOTE argument that matches no note."""

    def __init__(self, note: str, suggestions: Sequence[str] = (), unaccented: Sequence[tuple[str, str]] = (),
                 why: str = "") -> None:
        self.note = note
        self.suggestions = list(suggestions)  # paths or titles holding it
        self.why = why  # what the reference is and why nothing answers to it (a day without its daily note)
        # (path, name) of notes whose name it is once accents are dropped (Kadikoy for Kadıköy) or
        # full-width forms read as ASCII (見字如晤:中秋書 for 見字如晤：中秋書).
        self.unaccented = list(unaccented)
        similar = f"did you mean: {', '.join(suggestions)}" if suggestions else ""
        if unaccented:
            meant = " or ".join(f"{path!r} ({name})" for path, name in unaccented)
            similar = f" (or: {', '.join(suggestions)})" if suggestions else ""
            hint = (f"; did you mean {meant}?{similar} A name is matched as the note spells it, accents, full-width marks and curly quotes too "
                    "(in any case), as Obsidian's links match it: give it so, or give the path")
        else:
            hint = f"; {similar}" if similar else ""
        # No "run index if it is new": every read finds a note written by hand a moment ago.
        super().__init__(
            f"no note matches {note!r}{': ' + why if why else ''}{hint}. Name a note by its id, its vault-relative path (with or "
            "without .md), its file name, a unique alias, its permalink (as basic-memory and Obsidian Publish "
            "write it), its citekey (with or without @), a unique title (in any case), a day (2026-11-20, today, "
            "yesterday, tomorrow: for the note named for it, as the daily-note format names it), a timestamp id (202103131641) or a Johnny.Decimal "
            "id (11.01), for the note whose file name begins with it, or the # heading a note opens with; files in the archive "
            "folder, a hidden folder or node_modules/, and files that are not .md (or an Obsidian .canvas), are not notes"
        )


class ArchivedNote(NoteNotFound):
    """A NOTE argument that names a note forget, expire or consolidate moved to the archive —
    by its old id, path, file name or title, or (``by_path``) by its path in the archive, which
    ``get`` opens read-only (reading.view_archived) and every write refuses."""

    def __init__(self, note: str, archived: str, archive_dir: str, also: Sequence[str] = (), *,
                 by_path: bool = False, live: str | None = None) -> None:
        self.note = note
        self.archived = archived
        self.also = list(also)  # other archived notes of that file name (a bare name two notes had)
        self.by_path = by_path
        self.live = live  # the live note holding the archived file's id: a merge brought it back (archived_twins.py)
        if by_path:
            VaultmemError.__init__(self, Spelled(
                f"{note!r} is an archived file (forget, expire and consolidate move notes to {archive_dir}/), not a "
                "note: nothing searches or changes it (", GET, " reads it, read-only); move it out of "
                f"{archive_dir}/ to make it a note again"))
            return
        others = "" if not also else (f" (another archived note of that name is {also[0]})" if len(also) == 1
                                      else f" (other archived notes of that name: {', '.join(also)})")
        if live is not None:
            VaultmemError.__init__(self, Spelled(
                f"{note!r} was archived to {archived}{others}, and the same note (its id) is back in the vault at {live}, "
                f"the one search and get answer with (", CHECK, " says how to keep it forgotten or drop the archived "
                f"copy); name it {live}"))
            return
        VaultmemError.__init__(self, Spelled(
            f"{note!r} was archived: it is {archived} now{others} (forget, expire and consolidate move notes there). "
            "Archived files are not notes: nothing searches or changes them (", archived_read(archived),
            f" reads it, read-only); move it out of {archive_dir}/ to make it a note again"))


class SupersededReference(ArchivedNote):
    """``forget`` of a reference that names a superseded note no longer in the vault (archived,
    or removed by hand): resolved as a read resolves it, it names the note that replaced it —
    the current fact, which forget would have archived in its place."""

    def __init__(self, note: str, successor: str, archived: str | None, archive_dir: str) -> None:
        self.successor = successor
        where = f"it was archived and is {archived} now" if archived is not None else "it is no longer in the vault"
        gone = f"; to have its old text gone too, delete {archived} (git keeps its history)" if archived is not None else ""
        VaultmemError.__init__(self, (
            f"{note!r} names a note that {successor} superseded: {where}, and no search returns it. "
            f"Nothing was forgotten — {successor} holds the newer fact, and forget acts only on the note a "
            f"reference is the id, path or name of. To forget the newer fact, name {successor}{gone}"))
        self.note = note
        self.archived = archived or ""
        self.archive_dir = archive_dir
        self.also = []
        self.by_path = False
        self.live = None


def archived_read(archived: str) -> Operation:
    """``get`` of an archived file by its path, as each surface offers it."""
    return Operation(f"`vaultmem get {shlex.quote(archived)}`", f"Vault.get({archived!r})",
                     f"get with note={archived!r}")


class RemovedNote(NoteNotFound):
    """A NOTE argument that names no live note, but a note git saw leave the vault (gone.py):
    deleted or moved away by a person, or by vaultmem, committed or not."""

    def __init__(self, note: str, gone: object, archive_dir: str | None = None, archived: str | None = None) -> None:
        self.note = note
        self.gone = gone  # a gone.Gone: where the note went, and in which commit
        self.archived = archived  # its file in the archive, when it is there now (get reads it by that path)
        if archive_dir is not None and archived is not None:  # moving it back is the way, as for ArchivedNote
            VaultmemError.__init__(self, Spelled(
                f"no note matches {note!r} now: {gone}. Archived files are not notes: nothing searches or changes "
                "them (", archived_read(archived), " reads it, read-only); move it out of "
                f"{archive_dir}/ to make it a note again (", _history_of(note), " lists its commits)"))
            return
        VaultmemError.__init__(self, Spelled(
            f"no note matches {note!r} now: {gone}; its last text is kept in git (", _history_of(note),
            " lists its commits), so it can be restored if it is wanted back"))


def _history_of(note: str) -> Operation:
    command = f"`vaultmem history {shlex.quote(note)}`"  # a name with spaces, as a shell takes it
    return Operation(command, f"Vault.history({note!r})", f"the person's {command}")


class NotInRecentHistory(NoteNotFound):
    """A NOTE argument that names no note, and no removed note in the commits ``history`` reads."""

    def __init__(self, note: str, commits: int) -> None:
        self.note = note
        VaultmemError.__init__(
            self,
            f"no note matches {note!r}, and no file removed from the vault in its newest {commits} commits was that "
            "note. A note removed before them is found by its old path: name it as it was in the vault "
            "(`vaultmem history folder/name.md`)",
        )


class ExcludedNote(NoteNotFound):
    """A NOTE argument that names a file the vault excludes: it is not a note to vaultmem."""

    def __init__(self, note: str, path: str, rule: object) -> None:
        self.note = note
        VaultmemError.__init__(
            self,
            f"{path} is excluded by {rule}: vaultmem does not read, index or change excluded files. "
            + (getattr(rule, "fix", None) or "Remove that rule if it should be a note"),
        )


class LinkedOutNote(NoteNotFound):
    """A NOTE argument that names a symlink out of the vault (or a path through a folder linked
    out of it): never read, as ``check`` says of it (paths.VaultPaths.link_out gives ``why``)."""

    def __init__(self, note: str, why: str) -> None:
        self.note = note
        self.why = why
        VaultmemError.__init__(self, why)


class SectionNotFound(VaultmemError, LookupError):
    """A ``Note#Heading`` (or ``Note#^block``) whose note is there and has no such heading (block)."""

    SHOWN = 12  # of the note's headings, named in the message (a long note has hundreds)

    def __init__(self, path: str, anchor: str, present: Sequence[str], *, missing: str = "",
                 block: bool = False) -> None:
        self.path = path
        self.anchor = anchor
        self.present = list(present)  # the note's headings (or ^block ids), in order
        kind = "block ids" if block else "headings"
        wanted = f"block {anchor.strip()}" if block else f"heading {(missing or anchor).strip()!r}" + (
            f" (in {anchor.strip()!r})" if missing and missing.strip() != anchor.strip() else "")
        listed = ", ".join(self.present[:self.SHOWN]) + (f", … ({len(self.present)} in all)"
                                                          if len(self.present) > self.SHOWN else "")
        if self.present:
            advice = (f"its {kind}: {listed}. Give one of them after the note's name and '#', or the note's "
                      f"name alone for the whole note")
        else:
            advice = f"it has no {kind}: give the note's name alone for the whole note"
        super().__init__(f"{path} has no {wanted} (compared as written, then in any case); {advice}")


class AmbiguousNote(VaultmemError, LookupError):
    """A NOTE argument that matches more than one note."""

    def __init__(self, note: str, candidates: Sequence[str], also_named: Sequence[str] = (),
                 sync_copies: Mapping[str, str] | None = None, answers: Mapping[str, str] | None = None) -> None:
        self.note = note
        self.candidates = list(candidates)
        self.also_named = list(also_named)  # notes going by it as an alias, permalink or title, which a file name outranks
        # candidate → what its name says it is ("looks like a copy Syncthing made of Note.md"):
        # without it, a person saw four notes of one title and no reason why.
        self.sync_copies = dict(sync_copies or {})
        # candidate → how it answers ("its title; id 01J…"): a write refused because notes answer
        # to the name by different names (resolution.sole) says which name each has, and its id.
        self.answers = dict(answers or {})
        also = (f" ({', '.join(also_named)} {'goes' if len(also_named) == 1 else 'go'} by it as an alias, permalink or title, "
                "which a file name outranks)") if also_named else ""
        copies: tuple[Part, ...] = (f" ({'; '.join(f'{path} {what}' for path, what in self.sync_copies.items())}: "
                                    # consolidate refuses a copy and its original that both changed (adr/0035):
                                    # check's fix for each copy says whether it can merge them.
                                    "keep what you want in one, delete the other; ", CHECK, " says how)"
                                    ) if self.sync_copies else ()
        listed = ", ".join(f"{path} ({self.answers[path]})" if path in self.answers else path for path in candidates)
        fix = ("; nothing was changed (a write never picks among them): give the one you mean by its vault-relative "
               "path or its id") if self.answers else ". Give the full vault-relative path instead"
        self.parts = (f"{note!r} matches {len(candidates)} notes: {listed}{also}", *copies, fix)
        super().__init__(self.spelled(Surface.API))


class NoteReadError(VaultmemError, OSError):
    """A note file that could not be read at all."""


class FrontmatterError(VaultmemError, ValueError):
    """A note's frontmatter cannot be loaded or edited safely."""


class UnresolvedConflict(FrontmatterError):
    """A note holds git's merge-conflict markers: the person resolves it before vaultmem edits it."""

    def __init__(self, path: str, opening: int, closing: int) -> None:
        self.path = path
        super().__init__(
            f"{path} holds an unresolved git merge conflict (<<<<<<< at line {opening}, >>>>>>> at line {closing}); "
            "nothing was written. Resolve it first: keep the lines you want, delete the marker lines, "
            f"then `git add {path}`"
        )


class UnmergedNote(UnresolvedConflict):
    """Git's index holds the note unmerged though its file shows no conflict markers (a UTF-16
    note git merged as binary, one side deleted it, ``git checkout --ours``, a rerere replay):
    still the person's merge to finish before vaultmem edits, moves or merges it (adr/0006)."""

    def __init__(self, path: str, fix: str) -> None:
        self.path = path
        FrontmatterError.__init__(
            self, f"{path} is in an unfinished git merge: git's index holds it unmerged, though the file shows no "
            f"conflict markers; nothing was written. Finish the merge of it first: {fix}")


class NotUtf8Note(FrontmatterError):
    """A note saved in UTF-16: vaultmem reads it, but writes only UTF-8 (as Obsidian reads)."""

    def __init__(self, path: str, encoding: str) -> None:
        self.path = path
        self.encoding = encoding
        super().__init__(
            f"{path} is saved as {encoding}, not UTF-8; nothing was written: vaultmem writes notes only as UTF-8, "
            "and Obsidian reads only UTF-8. Re-save it as UTF-8 (in the editor that saved it: Save As, encoding "
            "UTF-8), then try again"
        )


class ReadOnlyCanvas(FrontmatterError):
    """An Obsidian canvas (``*.canvas``): vaultmem searches the text of its cards, but no note's
    write (``revise``, ``forget``, ``remember --supersedes``) rewrites its JSON (adr/0033)."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"{path} is an Obsidian canvas: vaultmem searches the text of its cards, but never revises, archives, "
            "deletes or supersedes a canvas (its JSON is Obsidian's to write); nothing was written. Edit the canvas "
            "in Obsidian, or write to a note instead"
        )


class WriteConflict(VaultmemError):
    """The file changed on disk since vaultmem read it; the human's edit wins."""

    def __init__(self, path: str, kept: str | None = None, *, expected_version: str | None = None,
                 version: str | None = None, gone: bool = False) -> None:
        self.path = path
        self.kept = kept  # where a second version of the person's was put, when there were two
        self.expected_version = expected_version  # revise --if-version: what the caller read
        self.version = version  # and what the file is at now
        self.gone = gone  # no file at path any more: renamed, moved or deleted meanwhile
        copy = f" (a second version of yours, saved while vaultmem worked, is kept at {kept})" if kept else ""
        if gone:
            # "Changed on disk … the edit on disk is kept" was said of a note a person had just
            # renamed (a trial: Obsidian's rename while an agent revised it): there was no edit.
            super().__init__(
                f"{path} is no longer there: it was renamed, moved or deleted while vaultmem was writing it; "
                "nothing was written. Run the command again: by its id, a renamed or moved note is found where it is now"
            )
            return
        if expected_version is not None:
            super().__init__(
                f"{path} is at version {version}, not {expected_version}: it changed since you read it "
                "(a person or another agent edited it); nothing was written. Read it again (get) and "
                "re-apply your change to the current text"
            )
            return
        super().__init__(
            f"{path} changed on disk since vaultmem read it; nothing was written so the "
            f"edit on disk is kept{copy}. Re-run the command to act on the current file"
        )


class ReadOnlyNote(VaultmemError, PermissionError):
    """The note's owner may not write it (its mode has no ``u+w``): the person protected it,
    and vaultmem neither replaces nor deletes it — a rename over it would succeed anyway (it
    needs only the folder's permission; root needs none). A ``PermissionError`` too, so every
    write that handles a refused file (a link rewrite, a supersede's undo) handles this one."""

    def __init__(self, path: str, mode: int) -> None:
        self.path = path
        by_hand = (f"Make it writable (chmod u+w '{path}'; on Windows clear its Read-only attribute) and run the "
                   "command again")
        # Over MCP the agent has no shell to chmod with, and the protection is the person's to lift.
        writable = Operation(by_hand, by_hand, "Ask the person to make it writable (only they should lift their "
                             "protection), then call the tool again")
        VaultmemError.__init__(self, Spelled(
            f"{path} is read-only (mode {mode:04o}): vaultmem does not change or delete a note you protected; "
            "nothing was written. ", writable, ", or leave it as it is"))


class HardLinkedNote(ReadOnlyNote):
    """The note's file has other names (hard links: the same note linked into a second vault, a
    folder of the person's): vaultmem writes a note by an atomic rename, which gives this name a
    new file and leaves the others the old one — one note split into two that drift apart. So it
    is refused as a protected note is (a ``ReadOnlyNote`` and ``PermissionError`` too: every write
    that handles a refused file handles this one); moving or deleting it splits nothing."""

    def __init__(self, path: str, names: int) -> None:
        self.path = path
        self.names = names
        by_hand = (f"Edit it by hand (an editor that saves in place keeps every name), or give this name a file of "
                   f"its own (cp '{path}' copy.md && mv copy.md '{path}') and run the command again")
        alone = Operation(by_hand, by_hand, "Ask the person to edit it, or to give this name a file of its own, then "
                          "call the tool again")
        VaultmemError.__init__(self, Spelled(
            f"{path} has {names} names (hard links to one file): vaultmem writes a note by replacing its file, which "
            "would leave the other names the old text — two copies drifting apart; nothing was written. ", alone))


class DerivedIndexError(VaultmemError):
    """The derived index is unusable (other embedder, newer schema, corrupt file)."""


class NotIndexedYet(NoteNotFound):
    """A NOTE no note answers to in the index so far, while the index is being built: the note
    may be one not read yet, so "no note matches" alone would be wrong (index_progress.py)."""

    def __init__(self, note: str, building: object) -> None:
        super().__init__(note, why=f"no note read so far answers to it, but {building}")


class IndexBusy(DerivedIndexError):
    """Another process held the index's write lock too long to bring the index up to date
    before answering; the answer says so (see adr/0021)."""


class GitError(VaultmemError):
    """A git operation failed or the vault is not a git repository."""


class WriteLockBusy(GitError):
    """Another write held the write lock (``.vaultmem/git.lock``; every write takes it) longer than a
    write waits for it; this one was refused before it read or wrote anything (adr/0017)."""

    def __init__(self, path: object, waited: float, holder: str) -> None:
        self.path = path
        self.waited = waited
        self.holder = holder  # "pid 123 (`vaultmem consolidate --apply`)", or "another process"
        super().__init__(
            f"another vaultmem write ({holder}) held {path} for {waited:g} s, so this write was refused; nothing "
            "was written. Run it again once that write has finished; if none should be running, see which process "
            f"holds the file (`lsof {path}` or `fuser {path}`) and end it"
        )


class UnsafeLockFile(VaultmemError):
    """A lock file's name in ``.vaultmem/`` (``git.lock``, ``watch.lock``, ``rebuild.lock``,
    ``create.lock``) holds a symlink or something else that is no plain file: refused before
    anything is opened through it or written (lock_files.py)."""

    def __init__(self, path: object, what: str) -> None:
        self.path = path
        super().__init__(
            f"{path} is {what}, not the plain lock file vaultmem keeps there: opened, it would have created or "
            "written a file elsewhere. Nothing was written: delete it "
            f"(`rm {shlex.quote(str(path))}`) and run the command again; vaultmem makes the lock anew"
        )


class LockFileUnwritable(VaultmemError, OSError):
    """The write lock was had, but its holder line could not be written into ``.vaultmem/git.lock``
    (a full disk, a quota, an I/O error): refused before anything was read or written, as the
    write itself would have failed on that disk (adr/0017)."""

    def __init__(self, path: object, error: OSError) -> None:
        self.path = path
        self.reason = error.strerror or str(error)
        full = error.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC))  # EDQUOT: not on Windows
        fix = ("free some space on that disk (or raise the quota) and run the command again" if full else
               f"check that {path} can be written by this user (`ls -l {shlex.quote(str(path))}`) and run the command again")
        super().__init__(f"cannot write {path}, the lock vaultmem's writes take turns on ({self.reason}); nothing "
                         f"was written. To fix: {fix}")


class IndexDamaged(DerivedIndexError):
    """``index.db`` (or a file beside it) cannot be read as what vaultmem wrote: corrupt,
    truncated, not a database. Everything in it but usage history is derived, so the
    caller sets it aside and rebuilds it (see adr/0022) — unless it cannot write there."""

    def __init__(self, path: object, detail: str, identity: tuple[int, int] | None = None) -> None:
        self.path = path
        self.detail = detail
        self.identity = identity  # (st_dev, st_ino) of the damaged file: who heals it first, heals it once
        super().__init__(Spelled(
            f"the index {path} is damaged ({detail}); everything in it but usage history is derived, and vaultmem "
            "sets it aside and rebuilds it from the vault itself wherever it can write; if this comes back, ", REBUILD))


class IndexNotWritable(DerivedIndexError):
    """The index cannot be written here (read-only file system, permissions, a full disk):
    read commands answer from it as it is, write commands are refused before they act."""

    NOT_YOURS = ("Run this as a user who can write the vault and its .vaultmem/ folder "
                 "(or mount it read-write)")
    DISK_FULL = "Free some space on that disk and run the command again"

    def __init__(self, path: object, reason: str, fix: str = NOT_YOURS) -> None:
        self.path = path
        self.reason = reason
        self.fix = fix
        super().__init__(f"cannot write the index {path}: {reason}; the index was not changed. {fix}")


class IndexUnavailable(DerivedIndexError):
    """There is no index this process can read, and it cannot make one."""


class IndexWriteFailed(DerivedIndexError):
    """Writing the index failed part-way (disk full, I/O error): SQLite rolled the
    transaction back, so the index is as it was before the failed write."""


class NoteWritten(VaultmemError):
    """A write command failed *after* it changed files in the vault.

    The files are there (``paths``): an agent that retries must not write them again.
    """

    def __init__(self, paths: Sequence[str], operation: str, cause: BaseException) -> None:
        self.paths = list(paths)
        self.operation = operation
        self.cause = cause
        if operation == "remember" and len(self.paths) == 1:
            done = f"the note was written to {self.paths[0]} and exists now"
            advice = "Do not remember it again: use that note"
        else:
            done = f"{operation} changed {', '.join(self.paths)}: those changes are on disk now"
            advice = f"Do not repeat the {operation} blindly: look at those files first"
        # The cause in its parts: its own advice is said as the caller's surface offers it too.
        said = cause.parts if isinstance(cause, VaultmemError) and cause.parts else (str(cause),)
        self.parts = (f"{done}, but then it failed: ", *said, f". {advice}; once the cause is fixed, ",
                      INDEX, " to bring the index up to date")
        super().__init__(self.spelled(Surface.API))
