"""Questions about tasks, not notes: what is due next week, done on the 16th, open for a client,
overdue (adr/0026 "Task dates", its "Tasks").

Each task line of an indexed note (task_dates.task_lines) is a row of the ``tasks`` table
(storage.tasks), written with its note. :func:`find_tasks` reads them with bounds read as
search's ``since``/``until`` are (dating.since_bound, until_bound: ``this week`` in the vault's
week, ``next week``, ``2025-12``), held against the task's own days. Tasks of expired notes are
hidden unless asked for, as every read path hides expired notes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from .dating import since_bound, until_bound
from .errors import Argument, UsageError
from .fields import case_fold
from .lifecycle import to_epoch_us
from .storage import Eligibility, Store, TaskFilter, TaskRow
from .task_dates import STATUSES, TaskRules

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
                   recurrence=row.recurrence, tags=row.tags, title=row.title, id=row.note_id, lane=row.lane)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class TaskList(list[TaskHit]):
    """Tasks by due day (those without one last), then path and line; how many more passed the
    filters, and the warnings about the answer as a whole."""

    def __init__(self, tasks: Iterable[TaskHit] = (), warnings: Iterable[str] = (), more: int = 0) -> None:
        super().__init__(tasks)
        self.warnings = list(warnings)
        self.more = more

    def as_dict(self) -> dict[str, Any]:
        return {"tasks": [task.as_dict() for task in self], "more": self.more, "warnings": self.warnings}


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


def task_filter(question: TaskQuestion, now: datetime, week_start: int = 0, include_expired: bool = False,
                rules: TaskRules | None = None) -> TaskFilter:
    """The filter ``question`` asks for at ``now`` (``week_start``: the vault's first day of the
    week; ``include_expired``: the tasks of expired notes too; ``rules``: the Tasks plugin's, from
    task_settings.load_task_rules). Without a ``status``: the done tasks when a done bound is
    given, else the open ones."""
    _require_count(question.k)
    done_asked = question.done_since is not None or question.done_until is not None
    status = question.status if question.status is not None else ("done" if done_asked else "open")
    if status not in TASK_STATUSES:
        raise UsageError(Argument("status", repr(status)), f" is not a task status: give one of {', '.join(TASK_STATUSES)}")
    if done_asked and status not in ("done", "all"):
        # An open task has no done day: the answer would be empty for a reason nobody asked for.
        raise UsageError(Argument("done_since"), "/", Argument("done_until"), f" ask for done tasks, not {status} ones: "
                         "ask for the done tasks (or all of them), or leave the done bounds out")
    # The tags as search reads them (with or without #; an empty one refused).
    tags = Eligibility.asked(to_epoch_us(now), tags=question.tags).tags
    due = _range("due", question.due_since, question.due_until, now, week_start)
    done = _range("done", question.done_since, question.done_until, now, week_start)
    return TaskFilter(
        alive=Eligibility(now_us=to_epoch_us(now), include_expired=include_expired),
        statuses=() if status == "all" else ("open",) if status == "overdue" else (status,),
        due_before=since_bound("today", now, week_start).day.date().isoformat() if status == "overdue" else None,
        due_since=due[0], due_until=due[1], done_since=done[0], done_until=done[1], tags=tags,
        words=tuple(case_fold(word) for word in (question.query or "").split()), rules=rules or TaskRules(),
    )


def find_tasks(store: Store, asked: TaskFilter, k: int) -> TaskList:
    """The tasks that pass ``asked``, at most ``k``; ``more``: how many more passed. An empty
    answer says how many tasks of expired notes it left out, if any."""
    rows, total = store.tasks.find(asked, k)
    found = TaskList((TaskHit.of(row) for row in rows), more=total - len(rows))
    if not rows and not asked.alive.include_expired:
        hidden = store.tasks.find(replace(asked, alive=replace(asked.alive, include_expired=True)), 1)[1]
        if hidden:
            found.warnings.append(f"{hidden} {'task' if hidden == 1 else 'tasks'} of expired notes left out: "
                                  "ask with include_expired to see them")
    return found


def _range(kind: str, since: str | None, until: str | None, now: datetime, week_start: int) -> tuple[str | None, str | None]:
    """The first and last ISO day of a task's ``kind`` of day a pair of bounds keeps."""
    first = _day(since, now, week_start, since=True)
    last = _day(until, now, week_start, since=False)
    if first is not None and last is not None and first > last:
        raise UsageError(Argument(f"{kind}_since", repr(since)), " is after ", Argument(f"{kind}_until", repr(until)),
                         f": no task's {kind} day can be in that range; swap them")
    return first, last


def _day(value: str | None, now: datetime, week_start: int, *, since: bool) -> str | None:
    """A bound as the ISO day a task's day is compared with: the first day it names (since) or
    the last (until), as search reads it for a note dated by a day."""
    if value is None:
        return None
    bound = since_bound(value, now, week_start) if since else until_bound(value, now, week_start)
    return bound.day.date().isoformat()


def _require_count(k: object) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise UsageError(Argument("k", flag="-k"), f" is how many tasks to give: a whole number from 1 up, not {k!r}")
