"""The days a task line names (pure): the Tasks plugin's emoji and Dataview's inline fields.

``- [ ] Call Dana 📅 2024-03-15 ⏳ 2024-03-10`` is due on the 15th and scheduled on the 10th;
``- [x] Send the invoice ✅ 2024-03-16`` was done on the 16th; Dataview writes the same as
``[due:: 2024-03-15]`` or ``(completion:: 2024-03-16)``. These are the task's days, not its
note's: a note is dated by what it is about (its ``date``, its name, its ``created``), and a
daily note that plans a task for Friday is still Wednesday's note (adr/0026 "Task dates").
``explain`` names them when a range leaves the note out, so a person asking "what is due on
the 5th" learns why the note holding that task is not in the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from .markdown import code_ranges

# A task: a list item with a one-character box, in a quote or callout too. Its text after the box.
_TASK = re.compile(r"^[ \t]*(?:>[ \t]?)*[-*+][ \t]+\[[^\]\n]\][ \t]+([^\n]*)$", re.MULTILINE)
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
