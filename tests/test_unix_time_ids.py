"""A vault whose Unique note creator (`.obsidian/zk-prefixer.json`, once Zettelkasten prefixer)
names new notes by their Unix time (format `X`): each note is dated by the time its name opens
with (dating._unix_id_moment; a trial of a student's Zettelkasten, s42)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultmem import Vault
from vaultmem.errors import ArchivedNote

NOW = "2026-12-03T12:00:00+00:00"


def _zettels(root: Path, settings: dict[str, str] | None) -> Path:
    if settings is not None:
        (root / ".obsidian").mkdir()
        (root / ".obsidian" / "zk-prefixer.json").write_text(json.dumps(settings), encoding="utf-8")
    (root / "02-Atomic").mkdir()
    (root / "02-Atomic" / "1732193684 - Algoritmos de busqueda por fuerza bruta.md").write_text(
        "# Algoritmos de busqueda por fuerza bruta\nPor amplitud o por profundidad.\n", encoding="utf-8")
    (root / "02-Atomic" / "1750719125-tramite-de-permisos-para-campamentos.md").write_text(
        "# Tramite de permisos para campamentos\nRecursos para los permisos.\n", encoding="utf-8")
    (root / "Pedido 4815162342.md").write_text("El pedido de la tienda.\n", encoding="utf-8")
    return root


def test_a_zettel_named_by_its_unix_time_is_dated_by_it(tmp_path: Path) -> None:
    """Was: every zettel of the trial vault was undated, and `list --since 2024-11` answered
    with none of the notes written that month."""
    with Vault(_zettels(tmp_path, {"folder": "02-atomic", "format": "X"})) as vault:
        vault.index()
        dated = {note.path: note.date for note in vault.list_notes(k=10, now=NOW)}
        november = [note.path for note in vault.list_notes(k=10, now=NOW, since="2024-11", until="2024-11")]
    assert dated == {
        "02-Atomic/1750719125-tramite-de-permisos-para-campamentos.md": "2025-06-23",
        "02-Atomic/1732193684 - Algoritmos de busqueda por fuerza bruta.md": "2024-11-21",
        "Pedido 4815162342.md": None,  # ten digits that do not open the name are no note's time
    }
    assert november == ["02-Atomic/1732193684 - Algoritmos de busqueda por fuerza bruta.md"]


def test_without_the_unix_time_format_ten_digits_date_no_note(tmp_path: Path) -> None:
    """Ten digits opening a name may be anything (an order, a phone number): they date a note only
    in a vault whose Unique note creator says it names notes so."""
    with Vault(_zettels(tmp_path, {"format": "YYYYMMDDHHmm"})) as vault:
        vault.index()
        assert all(note.date is None for note in vault.list_notes(k=10, now=NOW))


def test_a_zettel_is_found_by_its_unix_time_id(tmp_path: Path) -> None:
    """Was: `get 1732193684` found nothing, only a did-you-mean naming the note, though a
    Zettelkasten's 12- or 14-digit timestamp id names the note whose file name begins with it."""
    with Vault(_zettels(tmp_path, {"folder": "02-atomic", "format": "X"})) as vault:
        vault.index()
        assert vault.get("1732193684").path == "02-Atomic/1732193684 - Algoritmos de busqueda por fuerza bruta.md"
        assert vault.get("1750719125").path == "02-Atomic/1750719125-tramite-de-permisos-para-campamentos.md"


def test_a_zettel_in_a_folder_named_by_a_day_is_dated_by_its_own_unix_time(tmp_path: Path) -> None:
    """A folder's day dates only a note whose own name spells none (dating._folder_days); a zettel
    named by its Unix time spells one. Was (review, s42): `2024-09-02 Clase/1732193684 - Apuntes.md`
    was dated 2024-09-02, its folder's day, not 2024-11-21, when it was made."""
    (tmp_path / ".obsidian").mkdir()
    (tmp_path / ".obsidian" / "zk-prefixer.json").write_text(json.dumps({"format": "X"}), encoding="utf-8")
    (tmp_path / "2024-09-02 Clase").mkdir()
    (tmp_path / "2024-09-02 Clase" / "1732193684 - Apuntes.md").write_text("Apuntes de la clase.\n", encoding="utf-8")
    (tmp_path / "2024-09-02 Clase" / "Resumen.md").write_text("Resumen de la clase.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        dated = {note.path: note.date for note in vault.list_notes(k=10, now=NOW)}
    assert dated == {"2024-09-02 Clase/1732193684 - Apuntes.md": "2024-11-21", "2024-09-02 Clase/Resumen.md": "2024-09-02"}


def test_a_forgotten_zettel_named_by_its_unix_time_id_is_said_to_be_in_the_archive(tmp_path: Path) -> None:
    """As `get 202103131641` of a forgotten zettel says where the archive put it. Was (review, s42):
    after `forget 1732193684`, `get 1732193684` said "no note matches", as if it was never written."""
    with Vault(_zettels(tmp_path, {"folder": "02-atomic", "format": "X"})) as vault:
        vault.index()
        vault.forget("1732193684")
        with pytest.raises(ArchivedNote) as archived:
            vault.get("1732193684")
    assert archived.value.archived == "_archive/02-Atomic/1732193684 - Algoritmos de busqueda por fuerza bruta.md"


def test_ten_digits_no_unique_note_creator_could_have_written_date_no_note(tmp_path: Path) -> None:
    """Was (review42b, s43): in a vault whose Unique note creator names notes by their Unix time, a
    contact page named by a phone number (`5551234567 - Dentist.md`) was dated 2145-11-29, an
    order's receipt (`1000000001 receipt.md`) 2001-09-09, and `1900000000 Idea.md`, whose
    `created:` says 2021-03-01, 2030-03-17. The plugin writes the time a note is made: not before
    Obsidian (2020), not one a phone number spells (each is 2,000,000,000 or more), and not a
    time the note's own `created` contradicts."""
    with Vault(_zettels(tmp_path, {"format": "X"})) as vault:
        (tmp_path / "Contacts").mkdir()
        (tmp_path / "Contacts" / "5551234567 - Dentist.md").write_text("Call to book.\n", encoding="utf-8")
        (tmp_path / "Contacts" / "6175550123.md").write_text("The office line.\n", encoding="utf-8")
        (tmp_path / "1000000001 receipt.md").write_text("The receipt.\n", encoding="utf-8")
        (tmp_path / "1900000000 Idea.md").write_text("---\ncreated: 2021-03-01\n---\nAn idea.\n", encoding="utf-8")
        (tmp_path / "1732193684 Agreed.md").write_text("---\ncreated: 2024-11-21T12:54:44Z\n---\nIt agrees.\n",
                                                       encoding="utf-8")
        vault.index()
        dated = {note.path: note.date for note in vault.list_notes(k=20, now=NOW)}
    assert dated["Contacts/5551234567 - Dentist.md"] is None
    assert dated["Contacts/6175550123.md"] is None
    assert dated["1000000001 receipt.md"] is None
    assert dated["1900000000 Idea.md"] == "2021-03-01"  # its created, not a time nine years on
    assert dated["1732193684 Agreed.md"] == "2024-11-21"
    assert dated["02-Atomic/1732193684 - Algoritmos de busqueda por fuerza bruta.md"] == "2024-11-21"
