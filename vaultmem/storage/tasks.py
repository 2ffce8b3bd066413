"""The ``tasks`` table: one row per task line of each indexed note (task_dates.task_lines),
written with its note and dropped with it, and the read-time filters over them (adr/0026 "Task dates", its "Tasks").

A row keeps its box's character, not a status: what a character means (task_dates.task_status)
is applied when reading, in SQL written from the same constants. Days are kept as ISO days
(``2025-12-05``, always four digits of year): as text they sort and compare as the days do.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..task_dates import TaskLine, TaskRules
from .connection import CASEFOLD, Connection, chunks, placeholders
from .notes import Eligibility, carried_tag_sql

DEFAULT_RULES = TaskRules()  # without the Tasks plugin's settings
DAY_KINDS = ("due", "scheduled", "starts", "created", "done", "cancelled")
_COLUMNS = ("note_label", "line", "box", "text", *DAY_KINDS, "recurrence", "tags", "note_tags", "lane")


def status_sql(rules: TaskRules, alias: str = "tasks") -> tuple[str, list[str]]:
    """task_dates.TaskRules.status in SQL: ``open``, ``done`` or ``cancelled`` from a row's box
    (a box that makes no task is left out by :meth:`TaskFilter.where`)."""
    return (f"(CASE WHEN {alias}.box IN ({placeholders(len(rules.done))}) THEN 'done' "
            f"WHEN {alias}.box IN ({placeholders(len(rules.cancelled))}) THEN 'cancelled' ELSE 'open' END)",
            [*rules.done, *rules.cancelled])


@dataclass(frozen=True)
class TaskRow:
    """One task as the index holds it, with its note's path, title and id."""

    path: str
    title: str
    note_id: str
    line: int
    box: str
    status: str
    text: str
    days: dict[str, str]  # kind → ISO day, only the kinds the task names
    recurrence: str | None
    tags: list[str]
    lane: str | None  # a Kanban card's lane


@dataclass(frozen=True)
class TaskFilter:
    """Which tasks to read. ``statuses``: of task_dates.STATUSES (empty: any); ``due_before``:
    only tasks due before that ISO day (overdue); the since/until pairs: ISO days, inclusive;
    ``tags``: each must be carried by the task's line or its note's properties (the rule of
    notes.carries_tag; not a ``#tag`` of the note's other lines, which would tag every task);
    ``words``: case-folded words each found in the task's text, its note's title or its lane;
    ``alive``: the expiry filter of the notes that hold them; ``rules``: which boxes are tasks and
    what each means (the Tasks plugin's settings: task_settings.py)."""

    alive: Eligibility
    statuses: tuple[str, ...] = ()
    due_before: str | None = None
    due_since: str | None = None
    due_until: str | None = None
    done_since: str | None = None
    done_until: str | None = None
    tags: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    rules: TaskRules = DEFAULT_RULES
    # ``tags`` held against every tag of the note instead (its other lines' ``#tags`` too): asked
    # only to say why a filter by tag found nothing (tasks.find_tasks), never to answer.
    tags_anywhere_in_note: bool = False

    def where(self) -> tuple[str, list[Any]]:
        alive, params = self.alive.where("notes")
        clauses = [alive]
        if self.rules.not_tasks:
            clauses.append(f"tasks.box NOT IN ({placeholders(len(self.rules.not_tasks))})")
            params += list(self.rules.not_tasks)
        if self.rules.global_filter:  # the plugin's rule: the words hold it, as written (any case differs)
            clauses.append("instr(tasks.text, ?) > 0")
            params.append(self.rules.global_filter)
        if self.statuses:
            status, status_params = status_sql(self.rules)
            clauses.append(f"{status} IN ({placeholders(len(self.statuses))})")
            params += [*status_params, *self.statuses]
        for column, operator, day in (("due", "<", self.due_before), ("due", ">=", self.due_since),
                                      ("due", "<=", self.due_until), ("done", ">=", self.done_since),
                                      ("done", "<=", self.done_until)):
            if day is not None:
                clauses.append(f"tasks.{column} {operator} ?")
                params.append(day)
        for tag in self.tags:  # the line's tags or its note's: one rule, notes.carries_tag's
            if self.tags_anywhere_in_note:
                anywhere, anywhere_params = carried_tag_sql("notes.tags", tag)
                clauses.append(anywhere)
                params += anywhere_params
                continue
            on_line, line_params = carried_tag_sql("tasks.tags", tag)
            on_note, note_params = carried_tag_sql("tasks.note_tags", tag)
            clauses.append(f"({on_line} OR {on_note})")
            params += [*line_params, *note_params]
        for word in self.words:
            clauses.append(f"instr({CASEFOLD}(tasks.text || ' ' || notes.title || ' ' || coalesce(tasks.lane, '')), ?) > 0")
            params.append(word)
        return " AND ".join(clauses), params


class TaskStore:
    """Tasks by their note's label."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    # -- writing (the indexer, inside its transactions)

    def insert(self, note_label: int, tasks: Sequence[TaskLine], note_tags: Sequence[str] = ()) -> None:
        """Add a note's tasks (a new note: it has none yet); ``note_tags``: the tags of its properties."""
        if not tasks:
            return
        carried = json.dumps(list(note_tags), ensure_ascii=False)
        self.db.executemany(
            f"INSERT INTO tasks ({', '.join(_COLUMNS)}) VALUES ({placeholders(len(_COLUMNS))})",
            [(*_params(int(note_label), task), carried, task.lane) for task in tasks])

    def replace(self, note_label: int, tasks: Sequence[TaskLine], note_tags: Sequence[str] = ()) -> None:
        """A changed note's tasks, instead of those it had."""
        self.db.execute("DELETE FROM tasks WHERE note_label = ?", (int(note_label),))
        self.insert(note_label, tasks, note_tags)

    def delete_for_notes(self, note_labels: Iterable[int]) -> None:
        self.db.executemany("DELETE FROM tasks WHERE note_label = ?", [(int(label),) for label in note_labels])

    # -- reading

    def find(self, asked: TaskFilter, limit: int, offset: int = 0) -> tuple[list[TaskRow], int]:
        """``limit`` tasks that pass ``asked`` from the ``offset``-th, by due day (tasks without
        one last), then path and line; and how many pass in all."""
        where, params = asked.where()
        status, status_params = status_sql(asked.rules)
        joined = f"FROM tasks JOIN notes ON notes.label = tasks.note_label WHERE {where}"
        rows = self.db.execute(
            f"SELECT notes.path, notes.title, notes.id, tasks.line, tasks.box, {status}, tasks.text, "
            f"{', '.join('tasks.' + kind for kind in DAY_KINDS)}, tasks.recurrence, tasks.tags, tasks.lane {joined} "
            "ORDER BY tasks.due IS NULL, tasks.due, notes.path, tasks.line LIMIT ? OFFSET ?",
            [*status_params, *params, int(limit), int(offset)])
        return [_row(row) for row in rows], self.count(asked)

    def count(self, asked: TaskFilter) -> int:
        """How many tasks pass ``asked``."""
        where, params = asked.where()
        return int(self.db.execute(f"SELECT count(*) FROM tasks JOIN notes ON notes.label = tasks.note_label "
                                   f"WHERE {where}", params).fetchone()[0])

    def of_notes(self, note_labels: Sequence[int]) -> dict[int, list[tuple[Any, ...]]]:
        """Each note's rows as stored, by line: what a rebuild must give again."""
        found: dict[int, list[tuple[Any, ...]]] = {}
        for chunk in chunks(int(label) for label in note_labels):
            query = (f"SELECT {', '.join(_COLUMNS)} FROM tasks WHERE note_label IN ({placeholders(len(chunk))}) "
                     "ORDER BY note_label, line")
            for row in self.db.execute(query, chunk):
                found.setdefault(int(row[0]), []).append(tuple(row[1:]))
        return found


def _params(note_label: int, task: TaskLine) -> tuple[Any, ...]:
    days = [None if kind not in task.days else task.days[kind].isoformat() for kind in DAY_KINDS]
    return (note_label, task.line, task.box, task.text, *days, task.recurrence,
            json.dumps(list(task.tags), ensure_ascii=False))


def _row(row: Sequence[Any]) -> TaskRow:
    days = {kind: day for kind, day in zip(DAY_KINDS, row[7:13], strict=True) if day is not None}
    return TaskRow(path=row[0], title=row[1], note_id=row[2], line=int(row[3]), box=row[4], status=row[5], text=row[6],
                   days=days, recurrence=row[13], tags=json.loads(row[14]), lane=row[15])
