"""A version number asked for with or without the v people write before it (search._VERSION):
the full text holds ``v0.12.0`` as ``v0 12 0`` (the tokenizer keeps the v on its first number),
so a question's ``0.12.0`` was in no note (a trial of a public vault of OpenTelemetry SIG
meeting notes, s42)."""

from __future__ import annotations

from pathlib import Path

from vaultmem import Vault

NOW = "2026-12-03T12:00:00+00:00"


def _vault(root: Path) -> Path:
    notes = {
        "2025-07-08 Android SIG.md": "## Agenda\n- Release v0.12.0 today\n- These need merge: contrib disk buffering, build warnings\n",
        "2025-10-21 Android SIG.md": "## Key Topics\n- Versioning and testing procedures for the release, semantic versioning.\n",
        "2025-09-30 Android SIG.md": "## Key Topics\n- Versioning strategy for the agent: alpha suffixes on released modules.\n",
        "2026-01-20 Kotlin.md": "## Key Topics\n- We support Kotlin 2.1.0 from now on; the old version is dropped.\n",
        "2025-11-04 Support.md": "Which version do we support? Support questions about the version of the SDK go here.\n",
    }
    for name, text in notes.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_version_asked_without_its_v_finds_the_note_writing_it_with_one(tmp_path: Path) -> None:
    """Was: "when was version 0.12.0 released" ranked the meeting saying "Release v0.12.0 today"
    ninth in the trial vault, below every note about versioning: 0.12.0 was a word no note held."""
    with Vault(_vault(tmp_path)) as vault:
        vault.index()
        hits = vault.search("when was version 0.12.0 released", k=3, now=NOW)
    assert hits[0].path == "2025-07-08 Android SIG.md"
    assert hits[0].match in ("keyword", "both")


def test_a_version_asked_with_a_v_finds_the_note_writing_it_without(tmp_path: Path) -> None:
    """Was: the note asking "which version do we support" in as many words came first."""
    with Vault(_vault(tmp_path)) as vault:
        vault.index()
        hits = vault.search("which version do we support, v2.1.0?", k=3, now=NOW)
    assert hits[0].path == "2026-01-20 Kotlin.md"
    assert hits[0].match in ("keyword", "both")


def test_a_day_written_with_dots_is_asked_for_as_a_day_not_as_a_version() -> None:
    """Was: ``05.09.2025`` and ``2024.01.05`` were asked for as ``v05 09 2025`` too (the version
    rule), and the day's own terms changed (tests/test_day_spellings.py caught it); a version of
    three short numbers, or one typed with its v, still gains the other spelling."""
    from vaultmem.search import query_words

    assert [word.terms for word in query_words("05.09.2025")] == [('"05 09 2025"',)]
    assert not any("v2024" in term for word in query_words("2024.01.05") for term in word.terms)
    assert [word.terms for word in query_words("0.12.0")] == [('("0 12 0" OR "v0 12 0")',)]
    assert [word.terms for word in query_words("v2024.1.5")][0][0].count(" OR ") == 1
