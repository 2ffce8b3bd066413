"""The tasks of a note and the days each names (pure): the Tasks plugin's emoji and Dataview's
inline fields.

``- [ ] Call Dana 📅 2024-03-15 ⏳ 2024-03-10`` is due on the 15th and scheduled on the 10th;
``- [x] Send the invoice ✅ 2024-03-16`` was done on the 16th; Dataview writes the same as
``[due:: 2024-03-15]`` or ``(completion:: 2024-03-16)``. These are the task's days, not its
note's: a note is dated by what it is about (its ``date``, its name, its ``created``), and a
daily note that plans a task for Friday is still Wednesday's note (adr/0026 "Task dates").
``explain`` names them when a range leaves the note out, so a person asking "what is due on
the 5th" learns why the note holding that task is not in the answer; :func:`task_lines` reads
each task whole (its box, words, days, recurrence and tags) for the ``tasks`` table and
``Vault.tasks`` (adr/0026 "Task dates", its "Tasks").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from .markdown import code_ranges, hidden_ranges
from .notes import inline_tags

# A task: a list item with a one-character box, in a quote or callout too. Its text after the box.
_TASK = re.compile(r"^[ \t]*(?:>[ \t]?)*[-*+][ \t]+\[[^\]\n]\][ \t]+([^\n]*)$", re.MULTILINE)
# The same, with the box's character: what task_lines reads.
_TASK_BOX = re.compile(r"^[ \t]*(?:>[ \t]?)*[-*+][ \t]+\[([^\]\n])\][ \t]+([^\n]*?)\r?$", re.MULTILINE)
# A one-character box anywhere: most notes hold none, and then nothing else is looked for. Searched
# from its "[", not from the list marker: 10,000 generated notes (15 MB) took 9 ms, against 117 ms
# for a pattern starting at every "-", "*" and "+" (the index's cost for notes without tasks).
_ANY_BOX = re.compile(r"\[[^\]\n]\]")
# The Tasks plugin's date fields (its emoji, with or without the variation selector), then a day.
_EMOJI_DAY = re.compile(r"(📅|🗓|⏳|⌛|🛫|➕|✅|❌)\ufe0f?[ \t]*([0-9]{4}-[0-9]{2}-[0-9]{2})")
_EMOJI_KIND = {"📅": "due", "🗓": "due", "⏳": "scheduled", "⌛": "scheduled", "🛫": "starts", "➕": "created",
               "✅": "done", "❌": "cancelled"}
# Dataview's inline fields in brackets or parentheses, as its task view writes them.
_FIELD_DAY = re.compile(r"[\[(](due|scheduled|start|created|completion|cancelled)::[ \t]*([0-9]{4}-[0-9]{2}-[0-9]{2})[ \t]*[\])]")
_FIELD_KIND = {"due": "due", "scheduled": "scheduled", "start": "starts", "created": "created", "completion": "done",
               "cancelled": "cancelled"}
# What a task's description is shown without: its date fields (emoji or Dataview's).
_FIELDS = re.compile(f"{_EMOJI_DAY.pattern}|{_FIELD_DAY.pattern}")
# The Tasks plugin's other field signs: a recurrence's words end at the next of them (or a tag).
_SIGNS = "📅🗓⏳⌛🛫➕✅❌🔁🔺⏫🔼🔽⏬🆔⛔🏁"
# A recurrence: the Tasks plugin's 🔁 and its words, or Dataview's [repeat:: …] field.
_RECURRENCE = re.compile(rf"🔁\ufe0f?[ \t]*([^{_SIGNS}#]*)|[\[(]repeat::[ \t]*([^\])]*)[\])]")
# A box's character and what the task is then (any other is open, as the Tasks plugin reads an
# unknown status: a to-do; `/` is its "in progress", `>` and `<` the Minimal theme's forwarded
# and scheduled): the one definition, also written in SQL by storage.tasks.
DONE_BOXES = ("x", "X")
CANCELLED_BOXES = ("-",)
STATUSES = ("open", "done", "cancelled")


@dataclass(frozen=True)
class TaskDay:
    """One day a task names: the file's line it is on, the task's words, what the day is to it
    (``due``, ``scheduled``, ``starts``, ``created``, ``done``, ``cancelled``) and the day."""

    line: int
    task: str
    kind: str
    day: date


def task_days(body: str, body_line: int = 1) -> list[TaskDay]:
    """Every day the tasks of ``body`` name, in order; ``body_line``: the file's line the body
    starts on (so each is the file's line). A day that is none (``2025-02-30``) is not one; a
    task inside code is an example, not a task."""
    code = code_ranges(body)
    found: list[TaskDay] = []
    for task in _TASK.finditer(body):
        if any(start <= task.start() < end for start, end in code):
            continue
        line = body_line + body.count("\n", 0, task.start())
        words = " ".join(_FIELDS.sub(" ", task[1]).split())
        named = [(_EMOJI_KIND[mark.rstrip("\ufe0f")], text) for mark, text in _EMOJI_DAY.findall(task[1])]
        named += [(_FIELD_KIND[key], text) for key, text in _FIELD_DAY.findall(task[1])]
        for kind, text in named:
            try:
                found.append(TaskDay(line, words, kind, date.fromisoformat(text)))
            except ValueError:  # 2025-90-10: no day
                continue
    return found


@dataclass(frozen=True)
class TaskLine:
    """One task as the file holds it: its line, its box's character, its words without its date
    fields and recurrence, each kind of day it names (``due``, ``scheduled``, ``starts``,
    ``created``, ``done``, ``cancelled``: the first of each kind), its recurrence's words and the
    ``#tags`` on the line."""

    line: int
    box: str
    text: str
    days: dict[str, date]
    recurrence: str | None
    tags: tuple[str, ...]

    @property
    def status(self) -> str:
        return task_status(self.box)


def task_status(box: str) -> str:
    """``open``, ``done`` or ``cancelled``: what a task with ``box`` in its box is."""
    if box in DONE_BOXES:
        return "done"
    return "cancelled" if box in CANCELLED_BOXES else "open"


def task_lines(body: str, body_line: int = 1) -> list[TaskLine]:
    """Every task of ``body``, in order (``body_line``: the file's line the body starts on). A
    task in code (a ```` ```tasks ```` query block too) or in what reading view hides (a ``%%``
    comment) is none; a day that is none (``2025-02-30``) is left out of its days."""
    if _ANY_BOX.search(body) is None:  # most notes: one scan in C, nothing else
        return []
    code = code_ranges(body)
    left_out = sorted([*code, *hidden_ranges(body, code)])
    found: list[TaskLine] = []
    for task in _TASK_BOX.finditer(body):
        if any(start <= task.start() < end for start, end in left_out):
            continue
        found.append(_task_line(task[1], task[2], body_line + body.count("\n", 0, task.start())))
    return found


def _task_line(box: str, rest: str, line: int) -> TaskLine:
    recurrence = _RECURRENCE.search(rest)
    said = None if recurrence is None else " ".join((recurrence[1] or recurrence[2] or "").split()) or None
    words = _RECURRENCE.sub(" ", _FIELDS.sub(" ", rest))
    return TaskLine(line, box, " ".join(words.split()), _days(rest), said, tuple(inline_tags(words)))


def _days(rest: str) -> dict[str, date]:
    named = [(_EMOJI_KIND[mark.rstrip("\ufe0f")], text) for mark, text in _EMOJI_DAY.findall(rest)]
    named += [(_FIELD_KIND[key], text) for key, text in _FIELD_DAY.findall(rest)]
    days: dict[str, date] = {}
    for kind, text in named:
        try:
            days.setdefault(kind, date.fromisoformat(text))
        except ValueError:  # 2025-90-10: no day
            continue
    return days
