"""Questions about tasks, not notes: what is due next week, done on the 16th, open for a client,
overdue (adr/0026 "Task dates", its "Tasks").

Each task line of an indexed note (task_dates.task_lines) is a row of the ``tasks`` table
(storage.tasks), written with its note. :func:`find_tasks` reads them with bounds read as
search's ``since``/``until`` are (dating.since_bound, until_bound: ``this week`` in the vault's
week, ``next week``, ``2025-12``), held against the task's own days. Tasks of expired notes are
hidden unless asked for, as every read path hides expired notes.

``query`` is read first (task_query.py): the periods, status words and words of asking a
question holds (``what's due this week``, ``what did I finish yesterday``, ``overdue``) are
taken as what they say, and only the rest is matched in the tasks' words; what was read is
said in the answer's ``read``. An argument is applied as given; words that say otherwise about
the same thing are refused. An empty answer to words says which of them matched no task.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from .dating import Bound, since_bound, until_bound, weekday_bound
from .errors import Argument, UsageError
from .lifecycle import to_epoch_us
from .plain_due import undated_due_words
from .shown_titles import shown_title
from .storage import Eligibility, Store, TaskFilter, TaskRow, carries_tag
from .task_dates import STATUSES, TaskRules
from .task_query import ReadQuery, read_task_query

# What ``status`` may ask for: a status, every task, or the open tasks due before today.
TASK_STATUSES = (*STATUSES, "all", "overdue")
DEFAULT_TASKS = 50


@dataclass(frozen=True)
class TaskHit:
    """One task: its note (path, title, id), its line in the file, its status (``open``,
    ``done``, ``cancelled``) and box's character, its words, the days it names by kind, its
    recurrence and the tags on its line."""

    path: str
    line: int
    status: str
    box: str
    text: str
    dates: dict[str, str]
    recurrence: str | None
    tags: list[str]
    title: str
    id: str
    lane: str | None = None  # a Kanban card's lane (the board's heading above it)

    @classmethod
    def of(cls, row: TaskRow) -> TaskHit:
        return cls(path=row.path, line=row.line, status=row.status, box=row.box, text=row.text, dates=row.days,
                   recurrence=row.recurrence, tags=row.tags, title=shown_title(row.title, row.path), id=row.note_id, lane=row.lane)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class TaskList(list[TaskHit]):
    """Tasks by due day (those without one last), then path and line; how many more passed the
    filters, the warnings about the answer as a whole, and what the query's words were read as
    (``read``: None when all of them were matched as text, or none was given)."""

    def __init__(self, tasks: Iterable[TaskHit] = (), warnings: Iterable[str] = (), more: int = 0,
                 read: str | None = None) -> None:
        super().__init__(tasks)
        self.warnings = list(warnings)
        self.more = more
        self.read = read

    def as_dict(self) -> dict[str, Any]:
        return {"tasks": [task.as_dict() for task in self], "more": self.more, "read": self.read,
                "warnings": self.warnings}


@dataclass(frozen=True)
class TaskQuestion:
    """The arguments of :meth:`Vault.tasks`, as given."""

    status: str | None = None
    due_since: str | None = None
    due_until: str | None = None
    done_since: str | None = None
    done_until: str | None = None
    tags: tuple[str, ...] = ()
    query: str | None = None
    k: int = DEFAULT_TASKS


@dataclass(frozen=True)
class AskedTasks:
    """The filter a question asks for, and what its query's words were read as (None: nothing but text)."""

    filter: TaskFilter
    read: str | None = None
    # The query with its status and period words as text (task_query.ReadQuery.as_text): asked
    # when the query as read matches nothing — "complete onboarding" is a task to do, not done ones.
    as_text: str | None = None


def task_filter(question: TaskQuestion, now: datetime, week_start: int = 0, include_expired: bool = False,
                rules: TaskRules | None = None) -> AskedTasks:
    """The filter ``question`` asks for at ``now`` (``week_start``: the vault's first day of the
    week; ``include_expired``: the tasks of expired notes too; ``rules``: the Tasks plugin's, from
    task_settings.load_task_rules). Its query is read first (task_query.py). Without a status,
    given or said: the done tasks when done days are asked for, else the open ones."""
    _require_count(question.k)
    if question.status is not None and question.status not in TASK_STATUSES:
        raise UsageError(Argument("status", repr(question.status)),
                         f" is not a task status: give one of {', '.join(TASK_STATUSES)}")
    read = read_task_query(question.query, now, week_start, question.status)
    due = _joined("due", _range("due", question.due_since, question.due_until, now, week_start), read)
    done = _joined("done", _range("done", question.done_since, question.done_until, now, week_start), read)
    status = _status(question, read, done_asked=done != (None, None))
    # The tags as search reads them (with or without #; an empty one refused).
    tags = Eligibility.asked(to_epoch_us(now), tags=question.tags).tags
    asked = TaskFilter(
        alive=Eligibility(now_us=to_epoch_us(now), include_expired=include_expired),
        statuses=() if status == "all" else ("open",) if status == "overdue" else (status,),
        due_before=since_bound("today", now, week_start).day.date().isoformat() if status == "overdue" else None,
        due_since=due[0], due_until=due[1], done_since=done[0], done_until=done[1], tags=tags,
        words=tuple(read.words), rules=rules or TaskRules(),
    )
    return AskedTasks(asked, read.reading(), read.as_text())


def _status(question: TaskQuestion, read: ReadQuery, *, done_asked: bool) -> str:
    """The status asked: given, else said in the query, else done when done days are asked for, else open."""
    if question.status is not None and read.status is not None and read.status != question.status:
        given = Argument("status", repr(question.status), flag=f"--{question.status}", switch=True)  # the CLI's --open
        raise UsageError(given, f" contradicts the query's {read.status_said!r} "
                         f"({read.status} tasks): give the status one way (or put the word in double quotes to match it as text)")
    status = question.status or read.status or ("done" if done_asked else "open")
    if done_asked and status not in ("done", "all"):
        # An open task has no done day: the answer would be empty for a reason nobody asked for.
        raise UsageError(Argument("done_since"), "/", Argument("done_until"), f" ask for done tasks, not {status} ones: "
                         "ask for the done tasks (or all of them), or leave the done bounds out")
    return status


def _joined(kind: str, given: tuple[str | None, str | None], read: ReadQuery) -> tuple[str | None, str | None]:
    """The ``kind`` days asked: each end as an argument gives it, else as the query's words say
    it; an end both give differently is refused, naming both."""
    said = getattr(read, kind)
    for end, name, ours, theirs in zip(("since", "until"), (f"{kind}_since", f"{kind}_until"), given, said, strict=True):
        if ours is not None and theirs is not None and ours != theirs:
            raise UsageError(Argument(name), f" ({ours}) contradicts the query's {' '.join(getattr(read, f'{kind}_said'))!r} "
                             f"({kind} {end} {theirs}): give the {kind} days one way (or put the words in double quotes "
                             "to match them as text)")
    return (given[0] or said[0], given[1] or said[1])


def find_tasks(store: Store, asked: AskedTasks, k: int, offset: int = 0) -> TaskList:
    """The tasks that pass ``asked``, at most ``k`` from the ``offset``-th; ``more``: how many
    more passed after them. An empty answer says why it may be empty: the tasks of expired notes
    it left out, if any; the words of the query that no task asked for holds."""
    rows, total = store.tasks.find(asked.filter, k, offset)
    found = TaskList((TaskHit.of(row) for row in rows), more=max(total - offset - len(rows), 0), read=asked.read)
    found.warnings += _undated_due_words(found)
    if rows:
        return found
    if offset and total:
        # An empty part past the end read as "no tasks match": say where the end is.
        raise UsageError(Argument("offset", flag="--offset"), f" {offset} is past the end of the list ({total} task(s) "
                         "pass the filters); pass a smaller offset, or 0 for the start")
    if not asked.filter.alive.include_expired:
        hidden = store.tasks.count(replace(asked.filter, alive=replace(asked.filter.alive, include_expired=True)))
        if hidden:  # they hold every word asked for: that is the whole reason
            found.warnings.append(f"{hidden} {'task' if hidden == 1 else 'tasks'} of expired notes left out: "
                                  "ask with include_expired to see them")
            return found
    in_dated_notes = _in_notes_of_those_days(store, asked.filter)
    other_days = [] if in_dated_notes else _untagged_on_other_days(store, asked.filter)
    # "no task matches the query as it was read" says less than the other days' reason, of the same answer.
    unmatched = _unmatched(store, asked) if not other_days or asked.filter.words else []
    found.warnings += [*_tags_elsewhere(store, asked.filter), *unmatched, *in_dated_notes, *other_days]
    return found


def _undated_due_words(tasks: Sequence[TaskHit]) -> list[str]:
    """The listed tasks without a due day whose words say one only their note's date could place
    (``call mum by Friday`` in a note with no date, or in a month's note: plain_due.py): named, with
    the fix, so that an undated task is not read as one with no deadline."""
    said = [(task, words) for task in tasks if "due" not in task.dates and (words := undated_due_words(task.text))]
    if not said:
        return []
    task, words = said[0]
    others = f" and {len(said) - 1} more" if len(said) > 1 else ""
    return [f"{task.path}:{task.line} says {words!r}{others}, which is no day without the day it was written: a weekday "
            "or a day without its year is read against its note's date (a `date:` property, a day in the file name or "
            "a `created:` stamp), and its note names no day of its own (it has no date, or is a week's, month's or "
            "year's note) — give the note one, or write the day with its year (📅 2026-12-04 or due 2026-12-04)"]


def _untagged_on_other_days(store: Store, wanted: TaskFilter) -> list[str]:
    """Why days asked with no tag and no word found no task: the tasks of the status asked are of
    other days (or have no such day at all), else of another status. Was (s35): ``tasks
    --overdue``, ``--due-since today`` answered a bare "no tasks" of a vault whose tasks were all
    due later, as if it held none, while the by-tag answers said why (:func:`_carried_on_other_days`)."""
    days = _days_asked(wanted)
    if days is None or wanted.tags or wanted.words:
        return []
    if wanted.statuses and wanted.due_before is None and (other := store.tasks.count(replace(wanted, statuses=()))):
        # (Overdue is open by definition: a done task due before today is not one left out.)
        one = other == 1
        return [f"{other} {'task' if one else 'tasks'} of another status than {' or '.join(wanted.statuses)} "
                f"{'is' if one else 'are'} {days}: ask for status all (--all) to see {'it' if one else 'them'}"]
    said = _carried_on_other_days(store, wanted, "", days)
    if not said:
        return []
    counted = wanted if store.tasks.count(_without_days(wanted)) else replace(wanted, statuses=())  # the tasks said
    if not store.tasks.count(_with_any_day(counted)):
        kinds = [kind for kind, bounds in (("due", (wanted.due_before, wanted.due_since, wanted.due_until)),
                                           ("done", (wanted.done_since, wanted.done_until))) if any(bounds)]
        symbols = {"due": "📅 day or [due:: …]", "done": "✅ day or [completion:: …]"}
        lone = store.tasks.count(_without_days(counted)) == 1
        said[0] += ("; it has no " if lone else "; none of them has a ") + " or ".join(f"{kind} day (its own {symbols[kind]})" for kind in kinds)
    return said


def _with_any_day(wanted: TaskFilter) -> TaskFilter:
    """``wanted`` with each kind of day it asks for widened to any day: the tasks that have one."""
    asks_due = any((wanted.due_before, wanted.due_since, wanted.due_until))
    asks_done = any((wanted.done_since, wanted.done_until))
    return replace(_without_days(wanted), due_since=_ANY_DAY if asks_due else None, done_since=_ANY_DAY if asks_done else None)


_ANY_DAY = "0001-01-01"  # before every ISO day a task can name: a bound every dated task passes


def _in_notes_of_those_days(store: Store, wanted: TaskFilter) -> list[str]:
    """Why a range of due (or done) days found nothing in a vault of daily notes: the tasks of
    the notes dated in that range, which have no such day of their own. Was: ``tasks "last
    week"`` in a journal of daily notes said only "no task matches", while last week's notes held
    ten open tasks; a task's day is its 📅 / ✅ (or ``[due:: …]``), never its note's date."""
    for kind, since, until in (("due", wanted.due_since, wanted.due_until), ("done", wanted.done_since, wanted.done_until)):
        if since is None and until is None:
            continue
        alive = wanted.alive
        noted = replace(wanted, due_since=None, due_until=None, due_before=None, done_since=None, done_until=None,
                        alive=Eligibility.asked(alive.now_us, include_expired=alive.include_expired, since=since, until=until))
        held = store.tasks.count(noted)
        if held:
            days = f"on {since}" if since == until else f"{since or '…'}..{until or '…'}"
            symbol = "📅 day or [due:: …]" if kind == "due" else "✅ day or [completion:: …]"
            status = f"{wanted.statuses[0]} " if len(wanted.statuses) == 1 else ""
            return [f"{held} {status}{'task is' if held == 1 else 'tasks are'} in notes dated {days}, but none is {kind} then: "
                    f"a task's {kind} day is its own {symbol}, not its note's date"]
    return []


def _tags_elsewhere(store: Store, wanted: TaskFilter) -> list[str]:
    """Why a filter by tag found nothing: the tasks it would keep if a ``#tag`` on another line
    of their note counted (a daily note's ``#meeting`` line does not tag its tasks), or the tags
    asked for that no note carries at all. Was: ``tasks --tag finance`` said only "no tasks",
    while ``get`` listed #finance among the tags of the very notes that held the tasks."""
    if not wanted.tags:
        return []
    elsewhere = store.tasks.count(replace(wanted, tags_anywhere_in_note=True))
    if elsewhere:
        tags = " and ".join("#" + tag for tag in wanted.tags)
        where = "only on other lines" if len(wanted.tags) == 1 else "one at least only on other lines"
        return [f"{elsewhere} {'task is' if elsewhere == 1 else 'tasks are'} in notes that carry {tags}, {where}: a task takes the tags on its own line and in its note's `tags` property; put {tags} on the "
                "task's line (or in the note's `tags`) to keep it"]
    from .tag_hints import unknown_tag_warning

    known = store.notes.tag_names()
    unknown = [unknown_tag_warning(tag, known) for tag in wanted.tags if not carries_tag(known, tag)]
    return unknown or _tags_carried_otherwise(store, wanted)


def _tags_carried_otherwise(store: Store, wanted: TaskFilter) -> list[str]:
    """Why tags every one of which some note carries found no task: the tasks carrying them are of
    another status, or no task carries them all. Was (review, s34): "no tasks" of a vault whose one
    #bills task was done, and of two tags carried by two tasks, one each."""
    tags = " and ".join("#" + tag for tag in wanted.tags)
    if wanted.statuses and (other := store.tasks.count(replace(wanted, statuses=()))):
        one = other == 1
        return [f"{other} {'task carries' if one else 'tasks carry'} {tags}, of another status than "
                f"{' or '.join(wanted.statuses)}: ask for status all (--all) to see {'it' if one else 'them'}"]
    days = _days_asked(wanted)
    if days is not None:
        # Was (s34 trials): `tasks --overdue --tag bills` said only "no tasks" of a vault whose
        # #bills tasks were all due next month, as if none carried the tag.
        said = _carried_on_other_days(store, wanted, tags, days)
        if said:
            return said
    if len(wanted.tags) < 2:
        return []
    anyhow = replace(wanted, statuses=(), due_before=None, due_since=None, due_until=None, done_since=None,
                     done_until=None, words=())
    if store.tasks.count(anyhow):
        return []  # some task carries them all: the days or the words left it out (said beside)
    counts = [store.tasks.count(replace(anyhow, tags=(tag,))) for tag in wanted.tags]
    each = ", ".join(f"{count} {'task carries' if count == 1 else 'tasks carry'} #{tag}" if number == 0 else f"{count} #{tag}"
                     for number, (tag, count) in enumerate(zip(wanted.tags, counts, strict=True)))
    return [f"no task carries {'both' if len(wanted.tags) == 2 else 'all of'} {tags}: {each}"]


def _carried_on_other_days(store: Store, wanted: TaskFilter, tags: str, days: str) -> list[str]:
    """Why tasks carrying ``tags`` were not found on the ``days`` asked: they are of other days
    (of the status asked, else of any status)."""
    if other_days := store.tasks.count(_without_days(wanted)):
        one = other_days == 1
        status = f"{wanted.statuses[0]} " if len(wanted.statuses) == 1 else ""
        return [f"{other_days} {status}{_carrying(one, tags)}, but {'it is not' if one else 'none is'} "
                f"{days}: ask without the days (or with wider ones) to see {'it' if one else 'them'}"]
    if wanted.statuses and (anyhow := store.tasks.count(replace(_without_days(wanted), statuses=()))):
        one = anyhow == 1
        return [f"{anyhow} {_carrying(one, tags)}, of another status than "
                f"{' or '.join(wanted.statuses)}, and {'it is not' if one else 'none is'} {days}: ask for status all "
                f"(--all) without the days to see {'it' if one else 'them'}"]
    return []


def _carrying(one: bool, tags: str) -> str:
    """"task carries #bills", "tasks carry #bills"; with no tags asked, "task", "tasks"."""
    if not tags:
        return "task" if one else "tasks"
    return f"{'task carries' if one else 'tasks carry'} {tags}"


def _without_days(wanted: TaskFilter) -> TaskFilter:
    return replace(wanted, due_before=None, due_since=None, due_until=None, done_since=None, done_until=None)


def _days_asked(wanted: TaskFilter) -> str | None:
    """The days ``wanted`` keeps, in words (None: any day): "overdue (due before 2026-12-02)",
    "due 2026-01-01..2026-02-01", "done on 2026-11-30"."""
    said = [f"overdue (due before {wanted.due_before})"] if wanted.due_before is not None else []
    for kind, since, until in (("due", wanted.due_since, wanted.due_until), ("done", wanted.done_since, wanted.done_until)):
        if since is not None or until is not None:
            said.append(f"{kind} on {since}" if since == until else f"{kind} by {until}" if since is None else
                        f"{kind} from {since}" if until is None else f"{kind} {since}..{until}")
    return " and ".join(said) or None


def _unmatched(store: Store, asked: AskedTasks) -> list[str]:
    """Why words answered nothing: which of them no task asked for holds (and whether tasks of
    other statuses or days do), or that each is in some task but none holds them all; without
    words, what the query was read as."""
    wanted = asked.filter
    if not wanted.words:
        return ["no task matches the query as it was read (see read)"] if asked.read else []
    missing = [word for word in wanted.words if not store.tasks.count(replace(wanted, words=(word,)))]
    if not missing:
        return [f"each of the query's words {', '.join(map(repr, wanted.words))} is in some task asked for, "
                "but no task holds them all"]
    anywhere = replace(wanted, statuses=(), due_before=None, due_since=None, due_until=None, done_since=None,
                       done_until=None, tags=())
    said = []
    for word in missing:
        elsewhere = store.tasks.count(replace(anywhere, words=(word,)))
        beyond = (f" ({elsewhere} {'task' if elsewhere == 1 else 'tasks'} of other statuses, days or tags hold it)"
                  if elsewhere else "")
        said.append(f"{word!r} matched no task asked for: no task's words, note title or lane holds it{beyond}")
    return said


def _range(kind: str, since: str | None, until: str | None, now: datetime, week_start: int) -> tuple[str | None, str | None]:
    """The first and last ISO day of a task's ``kind`` of day a pair of bounds keeps."""
    first = _day(since, now, week_start, name=f"{kind}_since")
    # --done-since monday --done-until friday: that span, as the question "done between monday and friday" reads it
    after = since_bound(since, now, week_start, name=f"{kind}_since") if since is not None and weekday_bound(since) else None
    last = _day(until, now, week_start, name=f"{kind}_until", after=after)
    if first is not None and last is not None and first > last:
        raise UsageError(Argument(f"{kind}_since", repr(since)), " is after ", Argument(f"{kind}_until", repr(until)),
                         f": no task's {kind} day can be in that range; swap them")
    return first, last


def _day(value: str | None, now: datetime, week_start: int, *, name: str, after: Bound | None = None) -> str | None:
    """A bound as the ISO day a task's day is compared with: the first day it names (``name``
    ``due_since``, ``done_since``) or the last (``due_until``, ``done_until``), as search reads it
    for a note dated by a day. A refusal names that argument: it named search's --since/--until,
    an option `tasks` does not have."""
    if value is None:
        return None
    since = name.endswith("_since")
    bound = (since_bound(value, now, week_start, name=name) if since
             else until_bound(value, now, week_start, name=name, since=after))
    return bound.day.date().isoformat()


def _require_count(k: object) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise UsageError(Argument("k", flag="-k"), f" is how many tasks to give: a whole number from 1 up, not {k!r}")
