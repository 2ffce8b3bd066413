"""Problems said once for many notes: the same problem in several notes of one folder.

A vault of a thousand notes holds a templates folder nobody named in Obsidian's settings,
and each template's ``{{date}}`` is a problem of its own. Said note by note, ``check``
printed 117 of them, two lines of some 400 characters each, the same advice 117 times
(a trial on a vault of 1,405 notes: 263 lines, of which 234 were the templates); the
problems that were not the templates' were lost among them.

The same problem is the same field, the same message once the line it names is left out
(YAML fails on another line in each template), and the same fix once the note it names is
(exclude ``/ag/Templates/Album Template.md``): the group shows its first note's fix, so
problems whose advice differs otherwise are never folded together. A group is one folder's: the
fix names the folder (exclude ``/ag/Templates/``), and another folder's notes may need
another one. This is how a shell shows problems, and MCP ``check`` answers them (:func:`grouped_answer`:
the groups beside the problems, which come said-one-by-one first); ``check --json`` lists each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from .notes import Problem

GROUPED_AT = 3  # fewer than this in one folder are said one by one
GROUP_NOTES_SHOWN = 20  # a group's answer names this many of its notes (count says how many; the problems list all)
_AT_LINE = re.compile(r" at (line|byte) (\d+)")  # where in its note: each note's own, so left out of the key


@dataclass(frozen=True)
class ProblemGroup:
    """The same problem in several notes of one folder; ``problems`` in the order found."""

    folder: str  # vault-relative, "" for the vault's top
    field: str
    message: str  # the first problem's message without the line it names
    problems: tuple[Problem, ...]

    def named(self) -> list[str]:
        """Each note by its file name, with the line its message named (``Book Template.md:13``) or the
        byte (``photo.md@0``)."""
        return [PurePosixPath(problem.path).name + _line_suffix(problem.message) for problem in self.problems]

    def as_dict(self, said: Callable[[str], str] = str) -> dict[str, Any]:
        first = self.problems[0]
        return {"folder": self.folder, "field": self.field, "message": self.message, "count": len(self.problems),
                "notes": self.named()[:GROUP_NOTES_SHOWN], "fix": said(first.fix), "fix_for": first.path}


@dataclass(frozen=True)
class GroupedProblems:
    """Every problem, those said one by one first (in the order found), then each group's; and the groups."""

    problems: tuple[Problem, ...]
    groups: tuple[ProblemGroup, ...]
    one_by_one: int  # how many of ``problems``, from the first, belong to no group


def grouped_answer(problems: Sequence[Problem], said: Callable[[str], str] = str) -> GroupedProblems:
    """``problems`` reordered for a reader who pays for every line (an agent's context): the
    problems said one by one first, then each group's problems, group by group; a trial's
    117 template problems came before the three that were the vault's own."""
    shown = grouped_problems(problems, said)
    alone = [item for item in shown if isinstance(item, Problem)]
    groups = [item for item in shown if isinstance(item, ProblemGroup)]
    return GroupedProblems((*alone, *(problem for group in groups for problem in group.problems)), tuple(groups), len(alone))


def grouped_problems(problems: Sequence[Problem], said: Callable[[str], str] = str,
                     at_least: int = GROUPED_AT) -> list[Problem | ProblemGroup]:
    """``problems`` in their order, those that share a folder, a field, a message (as
    ``said`` spells it, less the line) and a fix (less the note's path) folded into one group
    where the first of them was, when there are ``at_least`` of them."""
    keyed: dict[tuple[str, str, str, str], list[Problem]] = {}
    for problem in problems:
        keyed.setdefault(_key(problem, said), []).append(problem)
    shown: list[Problem | ProblemGroup] = []
    for problem in problems:
        members = keyed[_key(problem, said)]
        if len(members) < at_least:
            shown.append(problem)
        elif members[0] is problem:
            folder, field, message, _ = _key(problem, said)
            shown.append(ProblemGroup(folder, field, message, tuple(members)))
    return shown


def _key(problem: Problem, said: Callable[[str], str]) -> tuple[str, str, str, str]:
    folder = PurePosixPath(problem.path).parent.as_posix()
    return ("" if folder == "." else folder, problem.field, _AT_LINE.sub("", said(problem.message)),
            said(problem.fix).replace(problem.path, "\0"))


def _line_suffix(message: str) -> str:
    where = _AT_LINE.search(message)
    if where is None:
        return ""
    return f"{':' if where.group(1) == 'line' else '@'}{where.group(2)}"
