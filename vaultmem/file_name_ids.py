"""Ids a file name begins with: a Zettelkasten's timestamp id, a Johnny.Decimal id (pure; adr/0019).

``202103131641 - The US South was an independent nation.md`` (Obsidian's unique note creator,
Zettlr, The Archive) and ``11.01 Grant proposal.md`` (Johnny.Decimal) are named for good by the
number their file name begins with. Resolution's step 7 finds the live note so
(storage ``file_names_starting``), and the archive is searched the same way once no live note
answers (resolution.refuse_if_archived): ``get 11.01`` after ``forget 11.01`` said "no note
matches", as if the note had never been. One definition here, for both.
"""

from __future__ import annotations

import re

TIMESTAMP_ID = "timestamp id"  # a Resolution's via
JOHNNY_DECIMAL_ID = "Johnny.Decimal id"  # a Resolution's via
_TIMESTAMP_ID = re.compile(r"\d{12}|\d{14}")  # YYYYMMDDHHmm(ss)
_JOHNNY_DECIMAL_ID = re.compile(r"\d{2}\.\d{2}")  # AC.ID: area-category 11, item 01


def file_name_id(reference: str) -> tuple[str, str] | None:
    """``reference`` (spaces around it dropped) and which kind of id it is, when it is a timestamp
    id or a Johnny.Decimal id; ``None`` for any other name (``3.14``, ``10.01.2026``, ``1.2``)."""
    wanted = reference.strip()
    if _TIMESTAMP_ID.fullmatch(wanted) is not None:
        return wanted, TIMESTAMP_ID
    if _JOHNNY_DECIMAL_ID.fullmatch(wanted) is not None:
        return wanted, JOHNNY_DECIMAL_ID
    return None


def begins_with_number(file_name: str, number: str) -> bool:
    """``file_name`` begins with ``number`` and the number ends there: no digit follows, nor a
    dot and a digit (``11.01.2`` is another number than ``11.01``; ``11.01.md`` is not)."""
    rest = file_name[len(number):]
    return file_name.startswith(number) and not rest[:1].isdigit() and not (rest[:1] == "." and rest[1:2].isdigit())
