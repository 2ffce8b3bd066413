"""What a NOTE argument names, tried in a fixed order (adr/0019).

1. the note's id, its vault-relative path, or the path without ``.md``;
2. a bare file name, unique in the vault (how ``[[name]]`` links name notes);
3. an id listed in a note's ``merged_from`` (consolidate merged that note into it) or
   ``supersedes`` (``remember --supersedes`` retired it): the id an agent saved keeps
   working after the note it named was archived;
4. an entry of a note's ``aliases``, unique in the vault;
5. a note's exact title, unique in the vault (agents often hold a title).

The first step that matches decides: a later step is never asked to break a tie of an
earlier one. Steps 3–5 say how they resolved (:class:`Resolution`), so a caller can tell
the agent that ``01J…`` now lives in ``people/Dana Reyes.md``. When several notes match
a step, those alive now win (a note that superseded another is alive, the one it
superseded is expired); more than one left is :class:`AmbiguousNote`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import AmbiguousNote
from .lifecycle import is_expired_us
from .storage import NoteRow, NoteStore

SUCCESSOR_FIELDS = ("merged_from", "supersedes")
ALIAS_FIELDS = ("aliases",)


@dataclass(frozen=True)
class Resolution:
    """How a reference that is not the note's own id, path or file name found the note."""

    reference: str  # what the caller gave
    via: str  # "merged_from", "supersedes", "aliases" or "title"

    def as_dict(self) -> dict[str, Any]:
        return {"reference": self.reference, "via": self.via}

    def __str__(self) -> str:
        field = "its title" if self.via == "title" else f"its {self.via}"
        return f"{self.reference!r} resolved through {field}"


@dataclass(frozen=True)
class Located:
    row: NoteRow
    resolved_from: Resolution | None = None


def pick_direct(reference: str, matches: Sequence[NoteRow]) -> NoteRow:
    """One of the notes that steps 1–2 found: an exact path wins over an id that looks like one."""
    if len(matches) == 1:
        return matches[0]
    exact_path = [row for row in matches if row.path in (reference, reference + ".md")]
    if len(exact_path) == 1:
        return exact_path[0]
    raise AmbiguousNote(reference, [row.path for row in matches])


def locate_by_names(notes: NoteStore, reference: str, now_us: int) -> Located | None:
    """Steps 3–5, once the reference named no note by id, path or file name."""
    for fields in (SUCCESSOR_FIELDS, ALIAS_FIELDS):
        listed = notes.by_name_entry(reference, fields)
        if listed:
            row = _one(reference, [row for row, _ in listed], now_us)
            via = next(field for listing, field in listed if listing.label == row.label)
            return Located(row, Resolution(reference, via))
    titled = notes.by_title(reference)
    if titled:
        return Located(_one(reference, titled, now_us), Resolution(reference, "title"))
    return None


def _one(reference: str, rows: Sequence[NoteRow], now_us: int) -> NoteRow:
    distinct = list({row.label: row for row in rows}.values())
    alive = [row for row in distinct if not is_expired_us(row.expires_us, now_us)]
    chosen = alive if alive else distinct
    if len(chosen) > 1:
        raise AmbiguousNote(reference, [row.path for row in chosen])
    return chosen[0]
