"""``vaultmem check``: lint every note, and with ``--fix`` do only what is safe and explicit.

Works on the files alone (no index needed) — and, in a git repository, on git: an archived
note whose file changed since the commit that archived it (archive_edits.py). ``--fix`` does two things and nothing else:
stamps ``expires_at = created + layer TTL`` on L1–L3 notes that lack one (created from
the frontmatter, else the file's modification time), appended after the existing keys;
and removes ``expires_at`` from L4 / ``permanent: true`` notes. Each fix is a surgical,
atomic edit that fails if the file changed since it was read. A plain ``check`` computes
the same fixes without writing, so a fix ``--fix`` would refuse (a frontmatter that does
not load, a date no calendar holds) is reported as a ``fix`` problem either way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from stat import S_ISREG

from .archived_twins import archive_problems, live_from_notes
from .config import CONFIG_FILE, VaultConfig
from .dating import date_problems, note_date, property_day, read_problems
from .durable import temp_name_holds_whole, written_for
from .errors import (
    CHECK_FIX,
    CHECK_FIX_AGAIN,
    CONSOLIDATE,
    ConfigError,
    FixRefused,
    FrontmatterError,
    GitError,
    NoteReadError,
    Operation,
    Spelled,
    UnresolvedConflict,
    VaultmemError,
    WriteConflict,
)
from .exclusions import CONFIG_SOURCE, bracket_glob_problems, is_dendron_vault
from .field_edits import edit_fields, writes_properties
from .git_dates import GitDates, imported_undated
from .gitops import is_repository
from .lifecycle import EXPIRING_LAYERS, LayerPolicy, format_duration, is_absent, parse_timestamp, resolve_now
from .merge_markers import UNMERGED_WHY, require_merged, require_resolved, unmerged_fix, unmerged_notes
from .merging import both_changed
from .name_clashes import name_clash_problems, windows_name_problems
from .noteio import FileChange, refuse_read_only, replace_if_unchanged
from .notes import Note, Problem, content_hash, created_moment, expiry_text, read_note
from .paths import FileStat, NotNotes, VaultPaths
from .property_types import load_property_types
from .results import NotCommitted, not_committed_dicts
from .sync_copies import SyncCopy, copy_among
from .writer import ttl_start
from .written_keys import ALLOW_KEY, allowed, keys_in_properties, keys_in_text


@dataclass(frozen=True)
class Fix:
    path: str
    field: str
    action: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "field": self.field, "action": self.action}


@dataclass
class CheckReport:
    files: int = 0
    not_notes: NotNotes = field(default_factory=NotNotes)  # not checked: excluded (templates…), Note.MD
    problems: list[Problem] = field(default_factory=list)
    fixed: list[Fix] = field(default_factory=list)
    changes: list[FileChange] = field(default_factory=list)  # what --fix wrote (for the auto-commit)
    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)
    # Said, not problems (the exit code is not changed): notes the import rule of [dates] from_git left undated.
    notices: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def commit_message(self) -> str:
        lines = "\n".join(f"- {applied.path}: {applied.action}" for applied in self.fixed)
        return f"vaultmem check --fix: {len(self.fixed)} fix(es)\n\n{lines}"

    def as_dict(self) -> dict[str, object]:
        return {
            "files": self.files,
            **self.not_notes.as_dict(),
            "ok": self.ok,
            "problems": [problem.as_dict() for problem in self.problems],
            "fixed": [fix.as_dict() for fix in self.fixed],
            "commit": self.commit,
            "not_committed": not_committed_dicts(self.not_committed),
            "yours_left_uncommitted": self.yours_left_uncommitted,
            "notices": [notice.as_dict() for notice in self.notices],
        }


def config_report(error: ConfigError) -> CheckReport:
    """What ``check`` reports when ``.vaultmem.toml`` does not load: its problems, and no
    note checked — which files are notes (exclude, archive_dir) comes from that file."""
    return CheckReport(problems=[Problem(CONFIG_FILE, each.key or "file", each.problem,
                                         f"{each.fix}; then run check again to check the notes") for each in error.every])


def auto_commit_problem(root: Path, config: VaultConfig) -> Problem | None:
    """``auto_commit`` on in a vault git does not hold: every write would be refused."""
    if not config.auto_commit or is_repository(root):
        return None
    return Problem(CONFIG_FILE, "auto_commit", "is on, but the vault is not a git repository: every write is refused",
                   "run `git init` in the vault, or set auto_commit = false")


def changed_config_problem() -> Problem:
    """The settings file changed since this process read it (a server runs on what it read)."""
    return Problem(CONFIG_FILE, "file", "changed since this process started: it still works under the settings it "
                   "read then", "restart the process that serves or watches this vault (vaultmem mcp, vaultmem watch) "
                   "to use the new settings")


def check_vault(paths: VaultPaths, policy: LayerPolicy, fix: bool = False, now: object = None) -> CheckReport:
    report = CheckReport()
    paths.refresh()
    scan = paths.scan_vault()  # excluded files are not notes: never checked, never fixed (but counted)
    files, issues = scan.files, scan.issues
    report.files, report.not_notes = len(files), NotNotes.of(scan)
    report.problems.extend(paths.exclusions.problems)
    rules = [*(folder.rule for folder in scan.excluded_folders), *(file.rule for file in scan.excluded_one_by_one)]
    used = {rule.pattern for rule in rules if rule.source == CONFIG_SOURCE}
    report.problems.extend(bracket_glob_problems(paths.exclusions.globs, used, (stat.path for stat in files)))
    report.problems.extend(paths.daily.problems)  # a daily-note format not used: its notes dated by the other rules
    report.problems.extend(load_property_types(paths.root).problems)  # a types.json not read: times written meanwhile
    git = paths.refresh_git_dates(keep=False)[0]
    report.problems.extend(git.problems)  # [dates] from_git: no repository, a shallow clone
    report.problems.extend(paths.inline_queries.problems)  # Dataview's settings unread: its inline queries searched
    report.problems.extend(Problem(issue.path, "file", issue.reason, issue.fix) for issue in issues)
    report.problems.extend(temp_file_problems(paths, scan.temp_files, now))
    unmerged, git_problem = ask_unmerged(paths.root)  # asked once, before any fix: --fix leaves these alone
    notes: list[Note] = []
    for stat in files:
        note = _read(paths, stat.path, report)
        if note is None:
            continue
        refused = False
        if fix:
            applied, refused = _try_fix(paths, note, policy, now, report, unmerged)
            if applied is not None:
                report.fixed.append(applied)
                note = _read(paths, stat.path, report) or note
        else:
            refused = _try_plan(paths, note, policy, now, report, unmerged)  # what --fix would refuse, said now
        notes.append(note)
        # A fix --fix refused must not be advised: the note's problems then say what to do by hand.
        report.problems.extend(problem.done_by_hand() if refused else problem for problem in read_problems(note, paths.daily))
        report.problems.extend(date_problems(note.meta, note.path, paths.daily, paths.dates))  # as the index keeps them (indexer.note_row)
        report.notices.extend(written_key_notices(note))
    report.notices.extend(_imported_undated(notes, git, paths))
    report.notices.extend(_hard_linked(paths, [stat.path for stat in files]))
    report.problems.extend(duplicate_id_problems(notes, dendron=is_dendron_vault(paths.root)))
    report.problems.extend(sync_copy_problems(notes))
    report.problems.extend(name_clash_problems(stat.path for stat in files))  # every file: one unread is still lost
    report.problems.extend(windows_name_problems(stat.path for stat in files))
    # A change git merged into an archived note, a note archived where the archive folder was
    # before, a forgotten note back in the vault beside its copy (under any name: the whole archive).
    report.problems.extend(archive_problems(paths, None, live_from_notes({note.path: note.id for note in notes if "id" in note.meta})))
    report.problems.extend([git_problem] if git_problem is not None else unmarked_conflict_problems(notes, unmerged))
    return report


def written_key_notices(note: Note) -> list[Problem]:
    """A notice per API key or private key the note holds (written_keys.py): said, not a problem
    (the exit code is not changed) — the note is the person's, and nothing in it is wrong for
    vaultmem; but the vault goes to git, to sync and to agents. None for a note saying
    ``allow_secrets: true``."""
    if allowed(note.meta):
        return []
    found = [*keys_in_properties(note.meta), *keys_in_text(note.body, note.body_line)]
    return [Problem(note.path, "secret",
                    f"{note.path}, {key.where()}: {'an' if key.kind[0] in 'AEIOU' else 'a'} {key.kind} is written out "
                    f"({key.masked}), and the vault goes wherever it is synced, committed or read by an agent",
                    "move it to a password manager and write where it is kept instead (\"the key is in 1Password\"); "
                    "if the vault was committed or synced, rotate the key (git's history keeps the line); a note that "
                    f"holds one on purpose says `{ALLOW_KEY}: true` in its frontmatter") for key in found]


def _imported_undated(notes: Sequence[Note], git: GitDates, paths: VaultPaths) -> list[Problem]:
    """One line for the notes git leaves undated because an importing commit brought them in and
    nothing else dates (explain said it one note at a time; check said nothing)."""
    count = sum(1 for note in notes if note.path in git.imported
                and note_date(note.meta, note.path, paths.daily, paths.dates, note.body) is None)
    return [imported_undated(count)] if count else []


HARD_LINKS_NAMED = 3  # of the notes with other names, the first few named


def _hard_linked(paths: VaultPaths, relatives: Sequence[str]) -> list[Problem]:
    """One line for the notes whose file has other names (hard links: a ``cp -al`` or ``rsync
    --link-dest`` backup, a note linked into a second vault): every write of vaultmem's over one
    is refused (noteio.HardLinkedNote), and the person learnt it only from the first refusal.
    Said, not a problem: the links are the person's, and a move or delete of such a note works."""
    linked = []
    for relative in relatives:
        try:
            info = os.stat(paths.os_path(relative), follow_symlinks=False)
        except FileNotFoundError:
            continue  # gone since the scan: nothing to write over
        if S_ISREG(info.st_mode) and info.st_nlink > 1:
            linked.append(relative)
    if not linked:
        return []
    count = len(linked)
    named = ", ".join(linked[:HARD_LINKS_NAMED]) + (f" and {count - HARD_LINKS_NAMED} more" if count > HARD_LINKS_NAMED else "")
    return [Problem(linked[0], "hard links",
                    f"{count} {'note has' if count == 1 else 'notes have'} other names (hard links to one file: {named}), "
                    "as a `cp -al` backup or a note linked into a second vault makes; vaultmem does not revise, merge "
                    "or fix such a note (replacing its file would leave the other names the old text), it only moves "
                    "or deletes it",
                    "to let vaultmem write one, give it a file of its own (cp NOTE copy.md && mv copy.md NOTE; a backup "
                    "made with cp -a or rsync without --link-dest keeps its own copies); or leave them and edit them by hand")]


TEMP_FILE_AGE = timedelta(minutes=1)  # a write in progress holds its temp file for well under this


def temp_file_problems(paths: VaultPaths, temp_files: Sequence[FileStat], now: object = None) -> list[Problem]:
    """vaultmem's temp files (``.n.md.1a2b3c4d.tmp``) older than a minute: a write killed midway
    (``kill -9``, a power cut) left them, hidden, and nothing else ever names them. Each holds a
    copy vaultmem was writing, replacing or deleting; the note's own name holds a whole version
    (writes are atomic renames), so deleting the temp file loses nothing the person has."""
    moment = resolve_now(now)
    problems = []
    for temp in temp_files:
        written = datetime.fromtimestamp(temp.mtime_ns / 1e9, UTC)
        if moment - written < TEMP_FILE_AGE:
            continue  # a write may still be under way
        folder, _, name = temp.path.rpartition("/")
        like = written_for(name) or ""
        note = f"{folder}/{like}" if folder else like
        beside = (f"; {note} beside it is intact" if temp_name_holds_whole(like) and paths.absolute(note).is_file()
                  else "")
        problems.append(Problem(temp.path, "file", f"a temp file vaultmem left when a write was cut off (the process "
                                f"killed or crashed) on {written:%Y-%m-%d %H:%M} UTC, not a note",
                                f"delete it (vaultmem writes by atomic rename: no note is half-written){beside}"))
    return problems


def ask_unmerged(root: Path, relatives: Sequence[str] = (".",)) -> tuple[set[str], Problem | None]:
    """The notes (of ``relatives``, ``"."``: all) git's index holds unmerged; a git that fails
    to answer is one problem saying so."""
    try:
        return unmerged_notes(root, relatives), None
    except GitError as error:
        where = relatives[0] if len(relatives) == 1 else "."
        return set(), Problem(where, "conflict", f"could not ask git which notes are in a merge conflict: {error}",
                              "fix what git says, then ask again")


def unmarked_conflict_problems(notes: list[Note], unmerged: set[str]) -> list[Problem]:
    """A note git's index holds unmerged whose file shows no conflict markers. Git merges a
    UTF-16 note as binary: it writes no markers and leaves your side in the file, the other
    only in its index; nothing said so, and search read one side as the note (a trial). The
    same for a note one side deleted and the other changed."""
    return [unmarked_conflict(note.path) for note in notes if note.path in unmerged
            and not any(problem.field == "conflict" for problem in note.problems)]


def unmarked_conflict(relative: str) -> Problem:
    """The conflict problem of a note git holds unmerged without markers in its file (check, get)."""
    return Problem(relative, "conflict", f"{UNMERGED_WHY}, and search reads this one as the note", unmerged_fix(relative))


def _try_fix(paths: VaultPaths, note: Note, policy: LayerPolicy, now: object, report: CheckReport,
             unmerged: set[str]) -> tuple[Fix | None, bool]:
    """The fix made, if any, and whether it was refused."""
    try:
        return fix_note(paths, note, policy, now, report.changes, unmerged), False
    except (VaultmemError, OSError) as error:
        # One note that cannot be fixed safely (changed meanwhile, a date out of range, a
        # file that cannot be written) must not stop the others: it stays a reported
        # problem and its file is untouched.
        report.problems.append(_unfixable(note, error))
        return None, True


def _try_plan(paths: VaultPaths, note: Note, policy: LayerPolicy, now: object, report: CheckReport,
              unmerged: set[str]) -> bool:
    """Whether ``--fix`` would refuse this note's fix (the reason is reported)."""
    try:
        plan_fix(paths, note, policy, now, unmerged)
    except (VaultmemError, OSError) as error:
        report.problems.append(_unfixable(note, error))
        return True
    return False


def _unfixable(note: Note, error: Exception) -> Problem:
    """The problem ``check`` reports for a fix ``--fix`` cannot make (the same with or without it)."""
    if isinstance(error, FixRefused):
        return Problem(note.path, "fix", error.problem, error.fix)
    # The problem names its note already: "win.md: fix: win.md: file is saved as UTF-16" said it twice.
    return Problem(note.path, "fix", str(error).removeprefix(f"{note.path}: "), "edit this note by hand")


def _read(paths: VaultPaths, relative: str, report: CheckReport) -> Note | None:
    try:
        return read_note(paths.root, relative)
    except NoteReadError as error:
        report.problems.append(Problem(relative, "file", str(error), "fix the file's permissions"))
        return None


def duplicate_id_problems(notes: list[Note], dendron: bool = False) -> list[Problem]:
    """Notes whose ``id`` another note holds too. A sync tool's copy holds its original's id, as
    it holds its text: the copy is reported by :func:`sync_copy_problems` (compare, then delete
    the copy), and "give each note its own id" would have made the stale version a memory of its
    own, beside the original, with both problems said twice (a trial). In a ``dendron`` vault the
    fix does not offer removing the id line: Dendron needs an ``id`` in every note (a trial)."""
    copies = set(reported_copies(notes))
    fix = ("give each note its own id (Dendron needs one in every note: do not remove it)" if dendron
           else "give each note its own id (or remove the id line to use the path)")
    by_id: dict[str, list[str]] = {}
    for note in notes:
        if "id" in note.meta and note.path not in copies:
            by_id.setdefault(note.id, []).append(note.path)
    problems = []
    for note_id, note_paths in sorted(by_id.items()):
        if len(note_paths) > 1:
            for path in note_paths:
                others = ", ".join(other for other in note_paths if other != path)
                problems.append(Problem(path, "id", f"id {note_id!r} is also used by {others}", fix))
    return problems


def sync_copy_problems(notes: list[Note]) -> list[Problem]:
    """A copy a sync tool left beside a note both devices changed (sync_copies.py): search
    answers with both and ``get`` by their shared title cannot choose, so the person decides
    which text stays. Only a copy whose original is a note of the vault: ``Chapter 2.md``
    beside no ``Chapter.md`` is a chapter."""
    by_path = {note.path: note for note in notes}
    return [Problem(path, "copy", f"{copy.describe()} when both changed", _copy_fix(by_path[path], by_path[copy.original]))
            for path, copy in reported_copies(notes).items()]


def reported_copies(notes: list[Note]) -> dict[str, SyncCopy]:
    """The paths of ``notes`` named as a sync tool's copy of another of them, whose texts agree
    with the name (sync_copies.py), in the notes' order."""
    by_path = {note.path: note for note in notes}
    return {note.path: copy for note in notes
            if (copy := copy_among(note.path, by_path)) is not None and copy.of_text(note.body, by_path[copy.original].body)}


def _copy_fix(copy: Note, original: Note) -> str:
    name = original.path.rsplit("/", 1)[-1]
    if copy.content_hash == original.content_hash:
        return f"it holds the same bytes as {name}: delete it"
    if both_changed(original, copy):
        # consolidate keeps such a pair apart: merged, the copy's old lines would sit beside the new ones.
        return (f"compare it with {name}, keep the right text in {name} (the note links and vaultmem's writes go to), "
                "then delete this copy")
    # consolidate pools memories only; two notes of the person's own need --any-note.
    command = CONSOLIDATE if copy.layer and original.layer else CONSOLIDATE_ANY_NOTE
    return Spelled("compare them, keep what you want in one, delete the other — ", command, " can merge them")


CONSOLIDATE_ANY_NOTE = Operation("`vaultmem consolidate --any-note`", "Vault.consolidate(any_note=True)",
                                 "the consolidate tool with any_note=true")


@dataclass(frozen=True)
class PlannedFix:
    """A fix decided and computed, not yet written: the new bytes of the file as it was read."""

    fix: Fix
    data: bytes


def plan_fix(paths: VaultPaths, note: Note, policy: LayerPolicy, now: object = None,
             unmerged: set[str] | None = None) -> PlannedFix | None:
    """The one safe fix this note needs, if any, computed without writing.

    Raises a :class:`VaultmemError` (or ``OSError``) saying why ``--fix`` cannot make it:
    ``check`` reports that reason with or without ``--fix``, so a plain check never
    promises a fix that ``--fix`` then skips. ``unmerged``: the notes git's index holds
    unmerged, when the caller asked git for the whole vault (else git is asked for this one).
    """
    field_names = {problem.field for problem in note.problems}
    if "expires_at" not in field_names:
        return None
    if note.permanent and not is_absent(note.expires_at):
        fix, values, remove = (Fix(note.path, "expires_at", f"removed expires_at {expiry_text(note.expires_at)} from a permanent note"),
                               {}, ["expires_at"])
    elif note.layer in EXPIRING_LAYERS and is_absent(note.expires_at) and (ttl := policy.ttl(note.layer)) is not None:
        base, source = _created(paths, note)
        # A day where the vault's types.json declares expires_at a date: the first midnight at or after the deadline.
        written = load_property_types(paths.root).deadline(_deadline(base, ttl, source, note.layer))
        expires = parse_timestamp(written)
        state = "already expired" if expires <= resolve_now(now) else "alive"
        fix, values, remove = (Fix(note.path, "expires_at", f"stamped expires_at {written.isoformat()} ({source} + {note.layer} TTL; {state})"),
                               {"expires_at": written}, [])
    else:
        return None
    if note.metadata_unloaded:
        # Its lifecycle lines were read one by one: enough to report, not to edit the block.
        raise FixRefused(Spelled("its frontmatter does not load, so ", CHECK_FIX, " leaves it alone"),
                         Spelled("fix the YAML (see its frontmatter problem), then ", CHECK_FIX_AGAIN))
    planned = PlannedFix(fix, _edited(paths, note, values, remove, unmerged))
    refuse_read_only(paths.absolute(note.path), note.path, replacing=True)  # as the write would: a plain check advised the fix
    return planned


def fix_note(paths: VaultPaths, note: Note, policy: LayerPolicy, now: object = None,
             changes: list[FileChange] | None = None, unmerged: set[str] | None = None) -> Fix | None:
    """Apply the one safe fix this note needs, if any (:func:`plan_fix`); returns what was
    done (and appends the file change to ``changes``)."""
    planned = plan_fix(paths, note, policy, now, unmerged)
    if planned is None:
        return None
    # Fails with WriteConflict, the person's bytes untouched, unless the edit lands on
    # exactly the bytes this check read.
    change = replace_if_unchanged(paths.resolve_inside(note.path), planned.data, note.content_hash, note.path, paths.root)
    if changes is not None:
        changes.append(change)
    return planned.fix


def _created(paths: VaultPaths, note: Note) -> tuple[datetime, str]:
    """What the layer's TTL counts from: created (else the file's time), or the start of the
    note's date when that is later (writer.ttl_start, as remember counts it: adr/0003). Both read
    as the index reads them: in a vault whose Persian Calendar plugin is on, ``created: 1403-05-12``
    is 2024-08-02 — read as the year 1403 AD, the fix stamped an expiry six centuries past."""
    solar_hijri = paths.daily.solar_hijri
    created = created_moment(note.meta.get("created"), solar_hijri)
    if created is not None:
        base, source = created, "created"
    else:
        mtime = paths.absolute(note.path).stat().st_mtime
        base, source = datetime.fromtimestamp(mtime, tz=UTC).replace(microsecond=0), "file modification time"
    start = ttl_start(base, property_day(note.meta, paths.dates.date, solar_hijri))
    return (base, source) if start == base else (start, "its date")


def _deadline(base: datetime, ttl: timedelta, source: str, layer: str) -> datetime:
    try:
        return base + ttl
    except OverflowError:
        # The date itself is valid ISO: the fix is another date, not another spelling.
        correct = "correct created (or set expires_at by hand)" if source == "created" else "set expires_at by hand"
        raise FixRefused(Spelled(f"{source} {base.isoformat()} plus the {layer} TTL ({format_duration(ttl)}) lies past "
                                 "year 9999, so ", CHECK_FIX, " cannot stamp expires_at"), correct) from None


def _edited(paths: VaultPaths, note: Note, set_values: Mapping[str, object], remove: list[str],
            unmerged: set[str] | None) -> bytes:
    raw = paths.resolve_inside(note.path).read_bytes()
    if content_hash(raw) != note.content_hash:
        raise WriteConflict(note.path)
    try:
        # The person's merge in progress: a stamp would land in a file git waits on them to
        # resolve (and auto_commit would commit it in the middle of their merge).
        require_resolved(note.path, raw)
        require_merged(paths.root, [note.path], unmerged)
    except UnresolvedConflict:
        raise FixRefused(Spelled("it holds an unresolved git merge conflict, so ", CHECK_FIX, " leaves it alone"),
                         Spelled("resolve the conflict (see its conflict problem), then ", CHECK_FIX_AGAIN)) from None
    try:
        # A Logseq page's expiry goes on its `expires-at::` line: a YAML block stamped above its
        # property lines would be a second block, shown by Logseq as text.
        return edit_fields(raw, set_values, remove, in_properties=writes_properties(paths.root, note))
    except FrontmatterError as error:
        raise FrontmatterError(f"{note.path}: {error}") from None
