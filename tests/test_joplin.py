"""A Joplin export ("Markdown + Front Matter") as a vault: its times read, its `updated` kept true."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from helpers import write_vault

from vaultmem import Vault

SYSMON = ("---\ntitle: Sysmon\nupdated: 2026-02-27 17:09:37Z\ncreated: 2026-02-27 07:32:33Z\nlatitude: 21.02776440\n"
          "longitude: 105.83415980\naltitude: 0.0000\ntags:\n  - security\n---\n\n# Overview\n\n"
          "- **Sysmon** gathers detailed logs.\n\n&nbsp;")


def joplin_export(root: Path) -> Path:
    return write_vault(root, {".vaultmem.toml": 'embedder = "hashing"\n', "Security/Sysmon.md": SYSMON,
                              "_resources/36ec042e991747db95e095834a3653c0.png": "\x89PNG\r\n"})


def test_revise_says_again_when_a_joplin_note_was_last_changed_in_joplins_form(vault_dir: Path) -> None:
    """Was: `updated: 2026-02-27 17:09:37Z` stayed as it was after vaultmem changed the note:
    imported back into Joplin (its importer reads `updated`), the note was last changed in February."""
    root = joplin_export(vault_dir)
    moment = datetime(2026, 12, 1, 9, 30, 15, 123456, tzinfo=UTC)
    Vault(root).revise("Security/Sysmon.md", append="Event ID 11: FileCreate.", now=moment)
    text = (root / "Security/Sysmon.md").read_text(encoding="utf-8")
    assert text == SYSMON.replace("updated: 2026-02-27 17:09:37Z", "updated: 2026-12-01 09:30:15Z") + "\n\nEvent ID 11: FileCreate.\n"
    with Vault(root) as vault:
        note = vault.get("Security/Sysmon.md")
        assert (note.meta["updated"], note.meta["created"]) == ("2026-12-01T09:30:15+00:00", "2026-02-27T07:32:33+00:00")


def test_an_updated_in_another_form_is_left_alone_and_created_dates_a_joplin_note(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n',
                                   "a.md": "---\nupdated: 2024-01-05T10:00:00Z\n---\nSome text\n"})
    Vault(root).revise("a", add_tags=["x"], now=datetime(2026, 12, 1, tzinfo=UTC))
    assert (root / "a.md").read_text(encoding="utf-8").startswith("---\nupdated: 2024-01-05T10:00:00Z\n")
    joplin_export(vault_dir)
    with Vault(vault_dir) as vault:
        since = [note.path for note in vault.list_notes(since="2026-02-27", until="2026-02-27")]
        assert since == ["Security/Sysmon.md"]  # `created: 2026-02-27 07:32:33Z` dates it; _resources/ holds no note
