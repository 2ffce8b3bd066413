"""An empty list item (``aliases:`` then ``- `` alone: YAML's null) holds no text: a merge into
its note goes ahead (merging.string_list)."""

from __future__ import annotations

from pathlib import Path

from vaultmem import Vault

NOW = "2026-11-30T12:00:00+00:00"
FACT = "Dentist appointment with Dr. Sousa is on Friday at 3pm at the clinic on Rua Augusta, second floor."


def test_a_merge_into_a_note_whose_aliases_hold_an_empty_item_goes_ahead(tmp_path: Path) -> None:
    """Was (s38, a trial of the Obsidian Hub, whose templates write `aliases:` then `- `): every
    cluster whose kept note held such a list was skipped, "aliases is [None], not a list of
    text; write it as a YAML list of strings" — a list Obsidian reads as it is."""
    (tmp_path / "memories").mkdir()
    (tmp_path / "memories" / "dentist.md").write_text(
        f"---\nlayer: L3\naliases:\n- \nexpires_at: 2027-01-30\n---\n{FACT} Bring the x-rays.\n", encoding="utf-8")
    (tmp_path / "memories" / "dentist again.md").write_text(
        f"---\nlayer: L3\nexpires_at: 2027-01-20\n---\n{FACT}\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        report = vault.consolidate(apply=True, now=NOW)
        assert report.skipped == [], report.skipped
        assert [cluster.canonical.path for cluster in report.clusters] == ["memories/dentist.md"]
        kept = vault.get("memories/dentist.md")
        assert kept.meta["aliases"] == ["dentist again"]
        assert not (tmp_path / "memories" / "dentist again.md").exists()


def test_a_list_that_is_no_list_of_text_skips_the_merge_naming_the_note_once(tmp_path: Path) -> None:
    """A mapping in the aliases is refused, as before; the reason named the kept note twice
    ("memories/dentist.md: memories/dentist.md: aliases is …")."""
    (tmp_path / "memories").mkdir()
    (tmp_path / "memories" / "dentist.md").write_text(
        f"---\nlayer: L3\naliases:\n- name: Sousa\nexpires_at: 2027-01-30\n---\n{FACT} Bring the x-rays.\n", encoding="utf-8")
    (tmp_path / "memories" / "dentist again.md").write_text(
        f"---\nlayer: L3\nexpires_at: 2027-01-20\n---\n{FACT}\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        report = vault.consolidate(apply=True, now=NOW)
    assert [skipped.canonical for skipped in report.skipped] == ["memories/dentist.md"]
    assert report.skipped[0].reason.startswith("memories/dentist.md: aliases is [{'name': 'Sousa'}], not a list of text")
    assert (tmp_path / "memories" / "dentist again.md").exists()
