"""What ``Vault`` methods return: plain dataclasses, each with ``as_dict()`` for JSON.

The CLI and the MCP server read these by attribute; ``as_dict()`` is the JSON contract
(docs/cli.md, ``--json``) and keeps its keys stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from .dating import DEFAULT_DATE_PROPERTIES, DateProperties, note_problems
from .fields import alias_key, aliases_of
from .lifecycle import is_absent, is_expired_us, resolve_now
from .notes import naming_key
from .shown_titles import shown_title

if TYPE_CHECKING:
    from .daily_format import DailyFormat
    from .gitops import Commit
    from .gone import Gone
    from .notes import Note, Problem
    from .resolution import Resolution
    from .sections import Section
    from .storage import NoteRow, Store, UsageRow
    from .unit_of_work import VaultWrite


def resolution_dict(resolved_from: Resolution | None) -> dict[str, Any] | None:
    return None if resolved_from is None else resolved_from.as_dict()


@dataclass(frozen=True)
class PathReason:
    """A file (vault-relative path) and why something was, or was not, done to it."""

    path: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


class NotCommitted(PathReason):
    """A file whose vaultmem change is not in git (left out of its auto-commit), and why."""


class Skipped(PathReason):
    """A note a job (``expire``) did not touch, and why."""


def not_committed_dicts(items: list[NotCommitted]) -> list[dict[str, str]]:
    return [item.as_dict() for item in items]


@dataclass(frozen=True)
class Stats:
    notes: int
    by_layer: dict[str, int]
    expired: int
    with_problems: int
    index_bytes: int
    embedder: str | None
    dimension: int | None
    vectors_in_snapshot: int  # whole-note vectors (consolidation, the similar-note check)
    vectors_in_delta: int
    passages: int  # what search ranks, each with a vector
    passage_vectors_in_snapshot: int
    passage_vectors_in_delta: int

    @classmethod
    def of(cls, store: Store, now_us: int) -> Stats:
        snapshot = store.vectors.snapshot()
        passage_snapshot = store.passage_vectors.snapshot()
        return cls(
            notes=store.notes.count(),
            by_layer=store.notes.layer_counts(),
            expired=store.notes.count_expired(now_us),
            with_problems=store.notes.count_with_problems(),
            index_bytes=sum(path.stat().st_size for path in store.state_dir.iterdir() if path.is_file()),
            embedder=store.meta.get("embedder"),
            dimension=store.vectors.dimension(),
            vectors_in_snapshot=store.vectors.count_up_to(snapshot.seq) if snapshot.file else 0,
            vectors_in_delta=store.vectors.count_after(snapshot.seq if snapshot.file else 0),
            passages=store.passages.count(),
            passage_vectors_in_snapshot=store.passage_vectors.count_up_to(passage_snapshot.seq) if passage_snapshot.file else 0,
            passage_vectors_in_delta=store.passage_vectors.count_after(passage_snapshot.seq if passage_snapshot.file else 0),
        )

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class SimilarNote:
    """A live memory, of any layer, that says nearly what a new memory says; or a note of yours
    (no layer, ``yours``) one of whose sentences does — ``says``, on ``lines`` (the file's,
    first and last) under ``heading`` (own_similar.py)."""

    id: str
    path: str
    title: str
    similarity: float
    layer: str | None = None
    yours: bool = False
    heading: str | None = None
    lines: tuple[int, int] | None = None
    says: str | None = None

    def as_dict(self) -> dict[str, Any]:
        found = {"id": self.id, "path": self.path, "title": self.title, "similarity": self.similarity, "layer": self.layer}
        if self.yours:  # a memory's entry keeps the keys it always had
            found.update(yours=True, heading=self.heading, lines=list(self.lines) if self.lines else None, says=self.says)
        return found


@dataclass(frozen=True)
class NoteRef:
    """Another note, named by id and (while it is in the vault) path."""

    id: str
    path: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "path": self.path}


@dataclass(frozen=True)
class LeftUnsaid:
    """A note ``remember`` superseded, and its statements the new note does not say (supersede.unsaid):
    retired with it, hidden from recall now."""

    id: str
    path: str
    statements: list[str]
    more: int = 0  # statements not listed

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "statements": list(self.statements)}

    def words(self) -> str:
        """The answer's sentence for it: what is gone from recall, and what to do if it still holds."""
        listed = "; ".join(f'"{statement}"' for statement in self.statements)
        more = f" and {self.more} more" if self.more else ""
        return (f"{self.path}, superseded, said what this note does not: {listed}{more} — retired with it, so recall "
                "no longer finds it; if any of it still holds, remember it again (or revise this note to say it)")


@dataclass(frozen=True)
class Remembered:
    id: str
    path: str
    title: str
    layer: str
    expires_at: str | None
    tags: list[str]
    version: str
    commit: str | None = None
    similar: list[SimilarNote] = field(default_factory=list)  # notes that may say the same
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)  # committed with vaultmem's change only: your own edit in them stays uncommitted
    supersedes: list[NoteRef] = field(default_factory=list)  # notes this one retired (now expired)
    same_name: list[NoteRef] = field(default_factory=list)  # live notes going by its title or file name: links are ambiguous
    # The retired note (supersedes) whose file name this one would have had: it keeps the name until
    # `expire` archives it (and keeps it there), so this one is numbered (dentist-phone-2.md) and [[dentist-phone]]
    # opens the old fact (adr/0019).
    named_beside: str | None = None
    # The day a `date` given in words was read as ("'next tuesday' is Tuesday 2026-12-08 (today is …)"):
    # which day the agent's word named is said back, so a wrong guess is seen. None: no words given.
    date_read: str | None = None
    # Per superseded note, what it said that this note does not (supersede.unsaid): retiring a note of
    # two facts with a note of one hid both, and the answer said only "superseded" (an agent trial).
    unsaid: list[LeftUnsaid] = field(default_factory=list)
    # The latest day the text names that is not over when the memory expires (remembering.expires_before):
    # "dentist on 11 December" kept as L2 on the 4th left recall on the morning of the 11th. None: no such day,
    # or the caller gave the memory's date.
    expires_before: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "similar": [other.as_dict() for other in self.similar],
                "unsaid": [old.as_dict() for old in self.unsaid],
                "not_committed": not_committed_dicts(self.not_committed),
                "supersedes": [old.as_dict() for old in self.supersedes],
                "same_name": [other.as_dict() for other in self.same_name]}


@dataclass(frozen=True)
class TextProperty:
    """A property set or removed by ``revise`` that is written in the note's text (``speaker::
    Caroline``: inline_fields.py), where it is: changed there, or left there beside the value
    written in the frontmatter — search and Dataview read both (adr/0019)."""

    key: str
    line: int  # its line in the file, from 1
    written: str  # the field as the file reads now: "speaker:: Ana"
    changed: bool  # True: revise wrote the new value on this line; False: the text still says this

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "notice": self.words()}

    def words(self) -> str:
        """What the answer says of it, the fix included when it was left."""
        if self.changed:
            return f"{self.key} is written in the text: changed on its line {self.line}, which reads '{self.written}'"
        return (f"the text still says '{self.written}' at line {self.line}: search and Dataview read it as a value of "
                f"the note's {self.key} too. If it no longer holds, change or remove that line in the note's text "
                "(revise's text, or in your editor)")


@dataclass(frozen=True)
class Revised:
    """A note after ``revise``: same id and path, a new version when anything changed."""

    id: str
    path: str
    version: str
    title: str
    layer: str | None
    expires_at: str | None
    tags: list[str]
    changed: list[str]  # the fields that changed: body, title, layer, expires_at, permanent, tags
    expiry_invalid: bool = False  # expires_at is set but does not parse: the note never expires until fixed
    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)  # committed with vaultmem's change only: your own edit in them stays uncommitted
    resolved_from: Resolution | None = None
    previous_title: str | None = None  # the title before, when it changed (given, or made anew from a new text)
    # Its expires_at had passed when it was revised: what was written is hidden from search until a
    # later expiry is given. Without it a caller that appended a current fact to a note a person had
    # let expire took it for recalled.
    expired: bool = False
    # The note that replaced it (remember's supersedes), when it was retired: an agent revising an id
    # it kept from earlier wrote into the old fact, and was told to make that current again — two
    # live answers (a three-day agent trial). The successor is where the write belongs.
    superseded_by: str | None = None
    # Its path and title, while it is in the vault (None when not): an id alone left a person, and
    # an agent without a get, unable to find the note the write belongs in (s34 trials).
    superseded_by_path: str | None = None
    superseded_by_title: str | None = None
    # The notes that replaced its successor in turn (a fact superseded twice), in order: the last holds
    # the current fact. Naming the first successor sent the write to a note retired itself (s35).
    then_superseded_by: list[Successor] = field(default_factory=list)
    # Why the chain could not be followed to the current fact (a loop or fork made by hand), and the fix.
    succession_problem: str | None = None
    # Properties set or removed that the note's text writes (`speaker:: Caroline`), each where it is:
    # changed on its line, or left beside the frontmatter's value. Unsaid, `--set speaker=Ana` left the
    # text's Caroline and search read both (adr/0019, "A property written in the text").
    in_text: list[TextProperty] = field(default_factory=list)
    # The note's problems as written, as get shows them. Unsaid, an append to a note whose YAML does
    # not load answered with the file's name as its title and no tags — not what the file says —
    # and nothing to tell why (an agent trial, s38).
    problems: list[dict[str, str]] = field(default_factory=list)
    date_read: str | None = None  # the day a `date` given in words was read as, as remember's answer says it
    expires_before: str | None = None  # as Remembered's: a day the new text names that the note does not live to see

    @classmethod
    def of(cls, after: Note, changed: list[str], write: VaultWrite, resolved_from: Resolution | None,
           title_before: str | None = None, now: datetime | None = None, succession: Succession | None = None,
           in_text: Sequence[TextProperty] = (), date_read: str | None = None) -> Revised:
        """The note as revise left it (``after``: parsed from the bytes it wrote, or found), at ``now``;
        ``succession``: where its ``superseded_by`` leads (reading.succession)."""
        from .notes import expiry_text, text_values, timestamp_or_none

        deadline = None if after.permanent else timestamp_or_none(after.expires_at)
        successor_id = text_values(after.meta, "superseded_by")
        chain = () if succession is None else succession.chain
        first = chain[0] if chain and successor_id else None
        return cls(id=after.id, path=after.path, version=after.version, title=after.title, layer=after.layer,
                   expires_at=None if after.permanent else expiry_text(after.expires_at), tags=after.tags,
                   expired=deadline is not None and deadline <= resolve_now(now),
                   changed=changed, expiry_invalid=after.expiry_invalid, commit=write.commit, not_committed=write.not_committed,
                   yours_left_uncommitted=write.yours_left_uncommitted, resolved_from=resolved_from,
                   previous_title=title_before if title_before is not None and title_before != after.title else None,
                   superseded_by=successor_id[0] if successor_id else None,
                   superseded_by_path=first.path if first is not None else None,
                   superseded_by_title=first.title if first is not None else None,
                   then_superseded_by=list(chain[1:]), succession_problem=None if succession is None else succession.problem,
                   in_text=list(in_text), problems=[problem.as_dict() for problem in after.problems], date_read=date_read)

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "not_committed": not_committed_dicts(self.not_committed),
                "resolved_from": resolution_dict(self.resolved_from),
                "then_superseded_by": [step.as_dict() for step in self.then_superseded_by],
                "in_text": [written.as_dict() for written in self.in_text]}


@dataclass(frozen=True)
class Successor:
    """A note on a ``superseded_by`` chain: its id, and its path and title while it is in the vault."""

    id: str
    path: str | None
    title: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "path": self.path, "title": self.title}


@dataclass(frozen=True)
class Succession:
    """Where a note's ``superseded_by`` leads (reading.succession): the notes in order, the last
    holding the current fact unless ``problem`` says why the walk stopped (a loop, a fork)."""

    chain: tuple[Successor, ...] = ()
    problem: str | None = None


def successor_words(revised: dict[str, Any]) -> str:
    """``revise``'s answer's successor (``Revised.as_dict``, or one kept for a retry before these
    keys were reported) in words: its id, then its path and title, or that it left the vault; then
    the notes that replaced it in turn (``then_superseded_by``), the last holding the current fact."""
    successor, path = revised["superseded_by"], revised.get("superseded_by_path")
    if path is None:
        first = f"{successor} (no longer in the vault)" if "superseded_by_path" in revised else successor
    else:
        first = f"{successor} ({path}, \"{revised.get('superseded_by_title')}\")"
    later = [f"{step['id']} ({step['path']}, \"{step['title']}\")" if step["path"] is not None
             else f"{step['id']} (no longer in the vault)" for step in revised.get("then_superseded_by") or ()]
    return ", then by ".join([first, *later])


def successor_reference(revised: dict[str, Any]) -> str:
    """How to name the note that holds the current fact to revise it (the end of the
    ``superseded_by`` chain): its path while it is in the vault, else its id."""
    later = revised.get("then_superseded_by") or ()
    if later:
        return str(later[-1]["path"] if later[-1]["path"] is not None else later[-1]["id"])
    path = revised.get("superseded_by_path")
    return path if path is not None else str(revised["superseded_by"])


# The frontmatter keys a NoteView has a field of its own for (the aliases' key is the one
# fields.alias_key picks: a second ``alias`` key Obsidian ignores is another property).
SHOWN_ON_THEIR_OWN = frozenset({"id", "title", "layer", "tags", "expires_at", "permanent", "superseded_by"})


@dataclass(frozen=True)
class NoteView:
    id: str
    path: str
    title: str
    layer: str | None
    tags: list[str]
    created: str | None
    expires_at: str | None
    expired: bool
    permanent: bool
    meta: dict[str, Any]
    body: str
    problems: list[dict[str, str]]
    use_count: int
    last_used_at: str | None
    version: str
    superseded_by: NoteRef | None = None  # the note that retired this one (remember --supersedes)
    resolved_from: Resolution | None = None
    date: str | None = None  # the note's date, as a hit gives it (search by date uses it)
    aliases: list[str] = field(default_factory=list)  # as Obsidian reads them (fields.aliases_of): a NOTE may name it by one
    # a file in the archive folder, named by its path there (reading.view_archived): shown, never a note
    archived: bool = False
    # get "Note#Heading" (reading.view_section): the part of the note body holds, and its lines in the file
    section: Section | None = None
    body_line: int = 1  # the file's line the body starts on (not in as_dict: a section gives its lines)
    # archived: the live note that holds this file's id, back in the vault after a forget (archived_twins.py)
    live_at: str | None = None

    @classmethod
    def of(cls, row: NoteRow, current: Note, usage: UsageRow | None, now_us: int, *,
           superseded_by: NoteRef | None = None, resolved_from: Resolution | None = None,
           daily: DailyFormat | None = None, dates: DateProperties = DEFAULT_DATE_PROPERTIES,
           more_problems: Sequence[Problem] = (), archived: bool = False) -> NoteView:
        """The index's row of a note, its file as read now (``current``) and its usage.

        Its problems are read from ``current`` (the row holds the same, stored as plain text):
        a fix that names an operation is then said as the caller's surface offers it; then
        ``more_problems``, which the file alone does not show (a merge git's index holds unfinished,
        an archived copy of the note: reading.view_note)."""
        return cls(
            id=row.id, path=row.path, title=shown_title(row.title, row.path), layer=row.layer, tags=row.tags, created=row.created,
            expires_at=None if is_absent(current.expires_at) or row.permanent else row.expires_at,  # a permanent note's is ignored
            expired=is_expired_us(row.expires_us, now_us), permanent=row.permanent, meta=json_safe(current.meta),
            body=current.body, problems=[problem.as_dict() for problem in [*note_problems(current, daily, dates), *more_problems]], use_count=usage.use_count if usage else 0,
            last_used_at=usage.last_used_at if usage else None, version=current.version,
            superseded_by=superseded_by, resolved_from=resolved_from, date=row.date, aliases=aliases_of(current.meta),
            archived=archived, body_line=current.body_line,
        )

    def archived_notice(self) -> str:
        """What a read of an archived file says ("" for a note): a model skimming the body would
        otherwise take the retired fact for a current one."""
        if not self.archived:
            return ""
        said = (f"ARCHIVED: {self.path} is in the archive folder (forget, expire and consolidate move notes there), "
                "shown read-only: not a current memory (superseded_by names what replaced it, if anything did), never "
                "recalled, and every write refuses it; ")
        if self.live_at is not None:
            # Moved out as the words below say, it would be a second live copy of one note.
            return said + (f"the same note (its id) is back in the vault at {self.live_at}, the one search and get "
                           "answer with (check says how to keep it forgotten or drop this copy)")
        return said + "to make it a note again, the person moves it out of the archive folder"

    def other_properties(self) -> list[tuple[str, Any]]:
        """The frontmatter a person wrote besides what the view names on its own (id, title,
        layer, tags, aliases, expiry, superseded_by), in file order: ``get`` shows them under
        those (a trial: a person's ``type``, ``url`` and aliases were in the JSON only)."""
        # The title field shows the property that names the note; a `title` that does not (a
        # person's job: `title: Partner` beside `name: Matt Ober`) is shown as the property it is.
        name_key = naming_key(self.meta, self.path)
        named = {*(SHOWN_ON_THEIR_OWN - {"title"}), alias_key(self.meta), *([name_key] if name_key else [])}
        return [(key, value) for key, value in self.meta.items() if key not in named]

    def as_dict(self) -> dict[str, Any]:
        shown = {key: value for key, value in self.__dict__.items() if key not in ("section", "body_line", "live_at")}
        if self.live_at is not None:  # only then, as a section: every other view keeps its shape
            shown.update(live_at=self.live_at)
        if self.section is not None:  # only then: a whole note's view keeps the shape it always had
            shown.update(section={**self.section.as_dict(), "notice": self.section_notice()})
        return {**shown, "superseded_by": None if self.superseded_by is None else self.superseded_by.as_dict(),
                "resolved_from": resolution_dict(self.resolved_from)}

    def section_notice(self) -> str:
        """What a read of one section says ("" for a whole note): body is part of the note, and a
        revise of the body given it back would replace the whole note with that part."""
        if self.section is None:
            return ""
        return (f"SECTION: body is {self.section.describe(self.path)}, as the file holds it; version is the whole "
                f"note's; a write names the whole note ({self.path}), and a body given to revise replaces all of it")


@dataclass(frozen=True)
class Forgotten:
    id: str
    path: str
    archived_to: str | None  # None when deleted with hard=True
    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)  # committed with vaultmem's change only: your own edit in them stays uncommitted
    resolved_from: Resolution | None = None
    # Sync tools' copies of the note, left as they are: each holds the note's text as another
    # device had it (its id too), and answers in its place once the note is gone (adr/0035).
    copies_left: list[str] = field(default_factory=list)
    # The commits that hold the note's text (its own, and the one that archived it): forget takes
    # a note out of recall and out of its folder, not out of git. Without this, an agent told
    # "forget it entirely" answered "done" while every version stayed one `git log -p` away.
    in_git_history: list[str] = field(default_factory=list)
    # Why those commits could not be read (git not installed, a git that failed): said, never an empty list's "none".
    git_history_unknown: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "not_committed": not_committed_dicts(self.not_committed),
                "resolved_from": resolution_dict(self.resolved_from), "notice": self.left_notice()}

    def left_notice(self) -> str:
        """Where the forgotten text still is, and who can take it out from there."""
        kept = ("deleted from the vault" if self.archived_to is None
                else f"its text stays in {self.archived_to} (the archive folder: recoverable by the person)")
        words = f"Forgotten: no longer recalled; {kept}"
        if self.git_history_unknown is not None:
            return (f"{words}; whether git history holds it is not known: {self.git_history_unknown}. Commits that "
                    "hold it keep it until the person rewrites history (git filter-repo).")
        if not self.in_git_history:
            return words + "."
        count = len(self.in_git_history)
        paths = " ".join(f"--path {path}" for path in [self.path, *([self.archived_to] if self.archived_to else [])])
        return (f"{words}, and git history holds it ({count} commit{'s' if count > 1 else ''}: "
                f"{', '.join(self.in_git_history[:3])}{' …' if count > 3 else ''}), which vaultmem never rewrites. "
                f"To have it gone everywhere, the person {self._left_to_do()} themselves "
                f"(git filter-repo --invert-paths {paths}); clones and backups keep their own copies.")

    def _left_to_do(self) -> str:
        """What the person does to have it gone: a hard delete left no file (was "deletes the file",
        trial s37: the person had just deleted it); an archived note's file is the archive's copy."""
        if self.archived_to is None:
            return "rewrites history"
        return f"deletes {self.archived_to} and rewrites history"


@dataclass
class ExpiredNote:
    id: str
    path: str
    title: str
    layer: str | None
    expires_at: str | None
    removed: bool = False  # archived (or deleted) by this run
    archived_to: str | None = None  # None when deleted with hard=True

    def as_dict(self) -> dict[str, Any]:
        listed: dict[str, Any] = {"id": self.id, "path": self.path, "title": self.title, "layer": self.layer,
                                  "expires_at": self.expires_at}
        if self.removed:
            listed["archived_to"] = self.archived_to
        return listed


@dataclass
class ExpireReport:
    expired: list[ExpiredNote]
    applied: bool
    hard: bool
    skipped: list[Skipped] = field(default_factory=list)
    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)  # committed with vaultmem's change only: your own edit in them stays uncommitted

    def as_dict(self) -> dict[str, Any]:
        return {"expired": [note.as_dict() for note in self.expired], "applied": self.applied, "hard": self.hard,
                "skipped": [skip.as_dict() for skip in self.skipped], "commit": self.commit,
                "not_committed": not_committed_dicts(self.not_committed),
                "yours_left_uncommitted": self.yours_left_uncommitted}


@dataclass(frozen=True)
class UsedNote:
    """A note's usage after ``mark_used`` recorded one more use."""

    id: str
    path: str
    use_count: int
    last_used_at: str
    resolved_from: Resolution | None = None

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "resolved_from": resolution_dict(self.resolved_from)}


class History(list["Commit"]):
    """The commits that touched a note (at ``path``), newest first, how its NOTE argument
    resolved, and, for a note no longer in the vault, where it went (``gone``; its history
    starts with the commit that took it out). A list, as ``history --json`` prints it: the
    resolution and ``gone`` go to stderr."""

    def __init__(self, commits: list[Commit], path: str, resolved_from: Resolution | None = None,
                 gone: Gone | None = None) -> None:
        super().__init__(commits)
        self.path = path
        self.resolved_from = resolved_from
        self.gone = gone


def json_safe(value: Any) -> Any:
    """Frontmatter as JSON can hold it: dates and datetimes as ISO text, keys as text."""
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value
