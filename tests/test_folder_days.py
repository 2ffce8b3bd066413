"""A note whose name spells no day is dated by the day its folder's name starts with
(dating._folder_days): each meeting a folder named by its day, holding `meeting-notes.md` and
`summary.md` (a trial of a public vault of OpenTelemetry SIG meeting notes, s42)."""

from __future__ import annotations

from pathlib import Path

from vaultmem import Vault

NOW = "2026-12-03T12:00:00+00:00"


def _write(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text, encoding="utf-8")


def _meetings(root: Path) -> Path:
    _write(root, "Android-SIG/2025-09-16/summary.md",
           "## Key Topics\n- Roadmap for OpenTelemetry Android 1.0 and screen naming conventions.\n")
    _write(root, "Android-SIG/2025-09-16/meeting-notes.md", "## Meeting Notes\n- Relabel the issues for 1.0.\n")
    _write(root, "Android-SIG/2025-10-21/summary.md", "## Key Topics\n- Release candidate 1 and its milestone.\n")
    _write(root, "Meetings/2025-09-18 Planning/notes.md", "Planning the autumn offsite in Lisbon.\n")
    _write(root, "Meetings/2025-09-18 Planning/2025-09-19 Follow-up.md", "The follow-up call on the offsite.\n")
    _write(root, "backup-2025-09-17/notes.md", "A copy of old notes, made that day.\n")
    _write(root, "Android-SIG/2025-09-16/attachments/readme.md", "Slides shown at the meeting.\n")
    return root


def test_a_note_in_a_folder_named_by_its_day_is_listed_as_that_days(tmp_path: Path) -> None:
    """Was: every note of the meeting vault was undated, and `list --since 2025-09 --until 2025-09`
    answered "no notes" (32 notes without a date left out), though the docs said a day in a
    note's folders dates it."""
    with Vault(_meetings(tmp_path)) as vault:
        vault.index()
        listing = vault.list_notes(k=20, now=NOW, since="2025-09", until="2025-09")
    assert sorted((note.path, note.date) for note in listing) == [
        ("Android-SIG/2025-09-16/meeting-notes.md", "2025-09-16"),
        ("Android-SIG/2025-09-16/summary.md", "2025-09-16"),
        ("Meetings/2025-09-18 Planning/2025-09-19 Follow-up.md", "2025-09-19"),  # its own name's day wins
        ("Meetings/2025-09-18 Planning/notes.md", "2025-09-18"),
    ]


def test_a_day_inside_a_folders_name_or_above_the_nearest_folder_dates_no_note(tmp_path: Path) -> None:
    """A `backup-2025-09-17/` copy holds notes of other days; the attachments below a meeting's
    folder are not dated by it either: only the nearest folder, and only a day it starts with."""
    with Vault(_meetings(tmp_path)) as vault:
        vault.index()
        undated = {note.path for note in vault.list_notes(k=20, now=NOW) if note.date is None}
    assert undated == {"backup-2025-09-17/notes.md", "Android-SIG/2025-09-16/attachments/readme.md"}

