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
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import accumulate

from .logseq import BLOCK_REFERENCE
from .markdown import code_ranges, hidden_ranges
from .notes import inline_tags
from .plain_due import Anchor, plain_due

# A task: a list item with a one-character box, in a quote or callout too: the box's character
# and the text after the box. Roam Research's task marker in place of the box, `{{[[TODO]]}}` or
# `{{[[DONE]]}}` (`{{TODO}}` too), as its Markdown export writes a task: its box is ` ` or `x`.
# A stray brace more on either side (`{{{[[DONE]]}}}}`, a trial's Roam export: a block edited
# by hand around its marker) still says which task it is, and the words after it are the task.
_TASK_BOX = re.compile(r"^[ \t]*(?:>[ \t]?)*[-*+][ \t]+(?:\[(?P<box>[^\]\n])\]|\{\{\{?(?P<roam>\[\[(?:TODO|DONE)\]\]|TODO|DONE)\}\}\}?\}?)"
                       r"[ \t]+(?P<rest>[^\n]*?)\r?$", re.MULTILINE)
_ROAM_BOXES = {"TODO": " ", "DONE": "x"}
# A Logseq task: a block whose text opens with a marker (`- LATER Reread Galois theory`, a
# priority `[#A]` after it perhaps), in a graph only — elsewhere "- TODO list for the trip" is
# words. Its marker read as the box it means: to do (TODO, LATER, WAITING), in progress (NOW,
# DOING: the Tasks plugin's `/`), done (`x`) or cancelled (`-`).
_LOGSEQ_TASK = re.compile(r"^[ \t]*-[ \t]+(?P<marker>TODO|LATER|NOW|DOING|IN-PROGRESS|STARTED|WAITING|WAIT|DONE|CANCELED|CANCELLED)"
                          r"[ \t]+(?P<rest>[^\n]*?)\r?$", re.MULTILINE)
LOGSEQ_BOXES = {"TODO": " ", "LATER": " ", "WAITING": " ", "WAIT": " ", "NOW": "/", "DOING": "/", "IN-PROGRESS": "/",
                "STARTED": "/", "DONE": "x", "CANCELED": "-", "CANCELLED": "-"}
# Logseq's days of a task, on the lines of its block under it: `SCHEDULED: <2022-12-15 Thu>`, `DEADLINE: <…>`.
_LOGSEQ_DAY = re.compile(r"^[ \t]*(SCHEDULED|DEADLINE):[ \t]*<([0-9]{4}-[0-9]{2}-[0-9]{2})", re.MULTILINE)
_LOGSEQ_DAY_KIND = {"SCHEDULED": "scheduled", "DEADLINE": "due"}
# A one-character box (or Roam's marker) anywhere: most notes hold none, and then nothing else is
# looked for. Searched from its "[", not from the list marker: 10,000 generated notes (15 MB) took
# 9 ms, against 117 ms for a pattern starting at every "-", "*" and "+" (the index's cost for notes
# without tasks).
_ANY_BOX = re.compile(r"\[[^\]\n]\]|\{\{(?:\[\[)?(?:TODO|DONE)")
# The Tasks plugin's date fields (its emoji, with or without the variation selector), then a day.
_EMOJI_DAY = re.compile(r"(📅|🗓|⏳|⌛|🛫|➕|✅|❌)\ufe0f?[ \t]*([0-9]{4}-[0-9]{2}-[0-9]{2})")
_EMOJI_KIND = {"📅": "due", "🗓": "due", "⏳": "scheduled", "⌛": "scheduled", "🛫": "starts", "➕": "created",
               "✅": "done", "❌": "cancelled"}
# Dataview's inline fields in brackets or parentheses, as its task view writes them.
_FIELD_DAY = re.compile(r"[\[(](due|scheduled|start|created|completion|cancelled)::[ \t]*([0-9]{4}-[0-9]{2}-[0-9]{2})[ \t]*[\])]")
_FIELD_KIND = {"due": "due", "scheduled": "scheduled", "start": "starts", "created": "created", "completion": "done",
               "cancelled": "cancelled"}
# A Kanban card's date (its date trigger `@`, the plugin's default), in braces or linked to the
# daily note (`@[[2025-03-04]]`, its "link dates to daily notes"): read in a board only. Its time
# (`@@{10:00}`) stays in the card's words: a task's days are days.
_CARD_DAY = re.compile(r"(?<!@)@(?:\{([0-9]{4}-[0-9]{2}-[0-9]{2})\}|\[\[([0-9]{4}-[0-9]{2}-[0-9]{2})\]\])")
# A board's lane: the Kanban plugin writes each as a `## ` heading, its cards the list below it.
_LANE = re.compile(r"^##[ \t]+([^\n]*?)[ \t]*$", re.MULTILINE)
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


def task_days(body: str, body_line: int = 1, rules: TaskRules | None = None, board: bool = False) -> list[TaskDay]:
    """Every day the tasks of ``body`` name, in order; ``body_line``: the file's line the body
    starts on (so each is the file's line). A day that is none (``2025-02-30``) is not one; a
    task inside code is an example, and one in a ``%%`` comment a draft reading view hides: not
    tasks, as :func:`task_lines` reads them (``rules``, ``board``: its too)."""
    rules = rules if rules is not None else TaskRules()
    found: list[TaskDay] = []
    lines = _LineCounter(body, body_line)
    for task in _tasks(body):
        if not rules.holds(_box(task), task["rest"]):
            continue
        line = lines.line_of(task.start())
        words = " ".join(_FIELDS.sub(" ", _without_card_days(task["rest"], board)).split())
        for kind, text in _named_days(task["rest"], board):
            try:
                found.append(TaskDay(line, words, kind, date.fromisoformat(text)))
            except ValueError:  # 2025-90-10: no day
                continue
    return found


def _tasks(body: str) -> list[re.Match[str]]:
    """The task lines of ``body`` outside code and ``%%`` comments (the box, then the rest). A box
    with nothing after it (``- [ ] ``: a template's placeholder, or the line Obsidian starts after
    a task on Enter) is no task: it says nothing to do, and a note of a template listed five blank
    rows (a trial, the Obsidian Hub)."""
    if _ANY_BOX.search(body) is None:  # most notes: one scan in C, nothing else
        return []
    code = code_ranges(body)
    left_out = _Ranges([*code, *hidden_ranges(body, code)])
    return [task for task in _TASK_BOX.finditer(body) if task["rest"].strip() and not left_out.holds(task.start())]


class _Ranges:
    """(start, end) ranges of a body, asked whether they hold a place: a look-up in the sorted
    starts, not a pass over every range for each task."""

    def __init__(self, ranges: Sequence[tuple[int, int]]) -> None:
        self._ranges = sorted(ranges)
        self._starts = [start for start, _ in self._ranges]
        self._reach = list(accumulate((end for _, end in self._ranges), max))  # the furthest end so far

    def holds(self, place: int) -> bool:
        last = bisect_right(self._starts, place) - 1  # the last range starting at or before it
        return last >= 0 and self._reach[last] > place


class _LineCounter:
    """The file's line of each place of ``body``, asked in increasing order: counted on from the
    last place asked, not from the body's start (a 1 MB page of 16,000 tasks: 20 s of counting)."""

    def __init__(self, body: str, body_line: int) -> None:
        self._body = body
        self._place = 0
        self._line = body_line

    def line_of(self, place: int) -> int:
        self._line += self._body.count("\n", self._place, place)
        self._place = place
        return self._line


def _box(task: re.Match[str]) -> str:
    """A task's box character: its own, or the one Roam's ``{{[[TODO]]}}``/``{{[[DONE]]}}`` means."""
    return task["box"] or _ROAM_BOXES[task["roam"].strip("[]")]


def _named_days(rest: str, board: bool) -> list[tuple[str, str]]:
    """Each (kind, ISO text) a task's words name, in the order of the kinds' fields."""
    named = [(_EMOJI_KIND[mark.rstrip("\ufe0f")], text) for mark, text in _EMOJI_DAY.findall(rest)]
    named += [(_FIELD_KIND[key], text) for key, text in _FIELD_DAY.findall(rest)]
    if board:
        named += [("due", braced or linked) for braced, linked in _CARD_DAY.findall(rest)]
    return named


def _without_card_days(rest: str, board: bool) -> str:
    return _CARD_DAY.sub(" ", rest) if board else rest


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
    lane: str | None = None  # a Kanban card's lane: the board's `## ` heading above it

    @property
    def status(self) -> str:
        return task_status(self.box)


def task_status(box: str) -> str:
    """``open``, ``done`` or ``cancelled``: what a task with ``box`` in its box is (by default:
    :meth:`TaskRules.status` under the Tasks plugin's own statuses)."""
    return TaskRules().status(box) or "open"


@dataclass(frozen=True)
class TaskRules:
    """Which list items with a box are tasks and what each box means, as the Tasks plugin's
    settings say (task_settings.load_task_rules reads them): its global filter — when set, only an
    item whose words hold it is a task — and its statuses, each box's character declared a to-do,
    in progress, done, cancelled or no task (``NON_TASK``). The defaults, without the plugin:
    ``x``/``X`` done, ``-`` cancelled, any other box open."""

    global_filter: str = ""
    done: tuple[str, ...] = DONE_BOXES
    cancelled: tuple[str, ...] = CANCELLED_BOXES
    not_tasks: tuple[str, ...] = ()

    def status(self, box: str) -> str | None:
        """``open``, ``done`` or ``cancelled``; ``None``: the box makes no task."""
        if box in self.not_tasks:
            return None
        if box in self.done:
            return "done"
        return "cancelled" if box in self.cancelled else "open"

    def holds(self, box: str, words: str) -> bool:
        """Whether a list item with ``box`` and ``words`` is a task under these rules."""
        return box not in self.not_tasks and self.global_filter in words


def _no_anchor() -> date | None:
    return None


def task_lines(body: str, body_line: int = 1, board: bool = False, logseq: bool = False,
               anchor: Anchor = _no_anchor) -> list[TaskLine]:
    """Every task of ``body``, in order (``body_line``: the file's line the body starts on). A
    task in code (a ```` ```tasks ```` query block too) or in what reading view hides (a ``%%``
    comment) is none; a day that is none (``2025-02-30``) is left out of its days. In a Kanban
    board (``board``: :func:`is_kanban_board`) a card's ``@{2025-03-04}`` (or ``@[[2025-03-04]]``)
    is its due day, and the ``## `` heading above it its lane. In a Logseq graph (``logseq``) a
    block opening with a task marker is a task too (:func:`logseq_task_lines`). Every box is read:
    which are tasks under the Tasks plugin's settings (:class:`TaskRules`) is decided when they
    are asked for. A due day written in words (``pay rent due 2026-12-05``, ``call mum by Friday``:
    plain_due.py) is the task's due day when no field names one; ``anchor()``, the note's own day,
    is what a weekday or a day without its year is read against."""
    if logseq:
        return sorted([*_box_task_lines(body, body_line, board, anchor), *logseq_task_lines(body, body_line, anchor)],
                      key=lambda task: task.line)
    return _box_task_lines(body, body_line, board, anchor)


def logseq_task_lines(body: str, body_line: int = 1, anchor: Anchor = _no_anchor) -> list[TaskLine]:
    """The tasks of a Logseq page: each block opening with a marker (``- LATER Reread …``,
    ``- DONE …``), its marker read as a box (:data:`LOGSEQ_BOXES`), and the ``SCHEDULED:`` and
    ``DEADLINE:`` days on its block's lines under it as its scheduled and due days. Was: a graph's
    ``tasks`` said "no tasks" over a journal of ``LATER`` items (s40, a public Logseq graph).
    Markers in code are none, as boxes are. A due day in words (plain_due.py) is read against
    ``anchor()`` as a box's is, and a ``DEADLINE:`` wins over it as a 📅 does. Was (review, s42):
    ``- TODO call mum by Friday`` in the journal ``2024_01_05.md`` was listed undated, with the
    warning that its note has no date, and ``due 2024-01-07`` over ``DEADLINE: <2024-01-10>``
    was due on the 7th."""
    if _LOGSEQ_TASK.search(body) is None:
        return []
    code = _Ranges(code_ranges(body))
    found: list[TaskLine] = []
    lines = _LineCounter(body, body_line)
    for task in _LOGSEQ_TASK.finditer(body):
        if not task["rest"].strip() or code.holds(task.start()):
            continue
        line = lines.line_of(task.start())
        # A `((uuid))` reference is shown by Logseq as the block it names, never as the uuid.
        found.append(_task_line(LOGSEQ_BOXES[task["marker"]], BLOCK_REFERENCE.sub(" ", task["rest"]), line, False, None,
                                anchor, _logseq_days(body, task.end())))
    return found


def _logseq_days(body: str, block_start: int) -> dict[str, date]:
    """The ``SCHEDULED:`` / ``DEADLINE:`` days on the lines after ``block_start`` that are still
    its block's (up to the next bullet, a blank line or the end)."""
    days: dict[str, date] = {}
    for line in _lines_after(body, block_start):
        if not line.strip() or line.lstrip().startswith("- ") or line.strip() == "-":
            break
        matched = _LOGSEQ_DAY.match(line)
        if matched is not None:
            try:
                days.setdefault(_LOGSEQ_DAY_KIND[matched[1]], date.fromisoformat(matched[2]))
            except ValueError:  # <2022-02-30 …>: no day
                continue
    return days


def _lines_after(body: str, place: int) -> Iterator[str]:
    """The lines of ``body`` after the one ``place`` is on, one at a time: a task's block is a few
    lines, and the rest of the page cut into lines for each task made a page of 16,000 Logseq
    tasks (1 MB) take a minute to index."""
    start = body.find("\n", place)
    while start >= 0:
        end = body.find("\n", start + 1)
        yield body[start + 1 : end if end >= 0 else len(body)]
        start = end


def _box_task_lines(body: str, body_line: int, board: bool, anchor: Anchor) -> list[TaskLine]:
    tasks = _tasks(body)
    if not tasks:
        return []
    lanes = [(lane.start(), lane[1].strip()) for lane in _LANE.finditer(body)] if board else []
    found: list[TaskLine] = []
    lines = _LineCounter(body, body_line)
    for task in tasks:
        lane = next((name for start, name in reversed(lanes) if start < task.start()), None)
        found.append(_task_line(_box(task), task["rest"], lines.line_of(task.start()), board, lane, anchor))
    return found


def is_kanban_board(meta: Mapping[str, object]) -> bool:
    """A note the Kanban plugin shows as a board: its ``kanban-plugin`` property (``board``, ``basic``)."""
    return meta.get("kanban-plugin") not in (None, "")


def _task_line(box: str, rest: str, line: int, board: bool, lane: str | None,
               anchor: Anchor = _no_anchor, block_days: Mapping[str, date] | None = None) -> TaskLine:
    """One task; ``block_days``: the days its Logseq block's lines name (``DEADLINE:``), which the
    task's own fields (📅) win over and which win over a due day in words."""
    recurrence = _RECURRENCE.search(rest)
    said = None if recurrence is None else " ".join((recurrence[1] or recurrence[2] or "").split()) or None
    words = _RECURRENCE.sub(" ", _FIELDS.sub(" ", _without_card_days(rest, board)))
    days = {**(block_days or {}), **_days(rest, board)}
    if "due" not in days and (written := plain_due(" ".join(words.split()), anchor)) is not None:
        days["due"] = written
    return TaskLine(line, box, " ".join(words.split()), days, said, tuple(inline_tags(words)), lane)


def _days(rest: str, board: bool) -> dict[str, date]:
    days: dict[str, date] = {}
    for kind, text in _named_days(rest, board):
        try:
            days.setdefault(kind, date.fromisoformat(text))
        except ValueError:  # 2025-90-10: no day
            continue
    return days
