"""The property types a vault declares in Obsidian (``.obsidian/types.json``), for the dates
vaultmem writes.

Obsidian keeps one type per property name for the whole vault (``{"types": {"created":
"date", "expires_at": "datetime"}}``) and shows a value of another shape as a type mismatch.
``remember`` stamps ``created`` and ``expires_at`` as times; in a vault that declares one a
``date`` it writes the day instead (a trial: every memory's Created showed a warning in the
property panel). A ``created`` written as a day is the day its time was on this machine's calendar; an
``expires_at`` written as a day is the first midnight (UTC) at or after the deadline, so a
memory never expires before the time its TTL or its caller gave. Undeclared, ``datetime`` or any
other type: a time, as before. A file Obsidian cannot have written (no JSON, not an object) is a
problem ``check`` reports, and times are written meanwhile. See adr/0003 "Dates as the vault
declares them".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from .dating import local_date
from .exclusions import read_settings
from .lifecycle import parse_timestamp
from .notes import Problem

TYPES_FILE = ".obsidian/types.json"
DATE_TYPE = "date"
_UNUSED = "the dates vaultmem writes are written as times meanwhile"


@dataclass(frozen=True)
class PropertyTypes:
    """Property name (case-folded, as Obsidian matches names) → its declared type."""

    types: Mapping[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()

    def is_date(self, key: str) -> bool:
        """Does the vault declare ``key`` a date (a day, no time)?"""
        return self.types.get(key.casefold()) == DATE_TYPE

    def created(self, moment: datetime) -> date | datetime:
        """``created`` as the vault declares it: the day ``moment`` is on this machine's calendar
        (as ``since``/``until`` and a ``date`` of "today" read it), or ``moment``. Was the UTC day:
        a memory written on a Thursday evening in Los Angeles said Friday, and ``list --since today
        --until today`` left it out (s39 review)."""
        return local_date(parse_timestamp(moment)) if self.is_date("created") else moment

    def deadline(self, moment: datetime) -> date | datetime:
        """``expires_at`` as the vault declares it: the day whose midnight (UTC) is the first at
        or after ``moment`` — never earlier than the deadline — or ``moment``."""
        if not self.is_date("expires_at"):
            return moment
        utc = parse_timestamp(moment)
        day = utc.date()
        return day if utc == datetime.combine(day, time(), UTC) else day + timedelta(days=1)


def load_property_types(root: Path) -> PropertyTypes:
    """The vault's declared property types; none when the file is absent."""
    problems: list[Problem] = []
    settings = read_settings(root, TYPES_FILE, problems, _UNUSED)
    if problems:
        return PropertyTypes(problems=tuple(problems))
    if settings is None:
        return PropertyTypes()
    declared = settings.get("types") if isinstance(settings, dict) else None
    if not isinstance(declared, dict):
        return PropertyTypes(problems=(Problem(TYPES_FILE, "types", f"is not an object of property names and types; {_UNUSED}",
                                               "set a property's type again in Obsidian (its icon in the property panel)"),))
    return PropertyTypes({str(name).casefold(): kind for name, kind in declared.items() if isinstance(kind, str)})


NO_DECLARED_TYPES = PropertyTypes()  # a vault without types.json: times, as vaultmem always wrote them
