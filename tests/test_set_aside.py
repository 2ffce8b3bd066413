"""set_aside: the notes of the person's own archive folder (a PARA vault's ``4 Archive``) answer
as what was so, below a current note that answers about as well, and say where they are."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import NOW, run_cli

from vaultmem import Vault
from vaultmem.set_aside import set_aside_folder

HOME = ("---\ntags:\n  - area/home\n---\nLandlord: Sofia Marques, sofia.marques@example.pt, +351 913 222 333. Rent "
        "1,350 EUR, due on the 1st.\n\nBoiler (Vaillant ecoTEC) service once a year in October by GasLisboa; last "
        "service 2026-10-14.\n\nWi-Fi router is in the hall cupboard.\n")
OLD_LEASE = ("---\ntags:\n  - area/home\n---\nOld landlord: João Pereira, +351 960 111 222. Flat on Rua das Flores 8, "
             "lease ended 2025-08-31. Deposit returned.\n")
PLAN = ("---\ntags:\n  - area/health\n---\nGoal: Lisbon Half Marathon on 14 March 2027, under 1:45.\n\n## Weekly plan\n"
        "- Tuesday: intervals 6 x 800 m\n- Thursday: tempo 8 km at 5:00/km\n- Sunday: long run, building from 14 km "
        "to 20 km by February\n")
OLD_PLAN = "---\ntags:\n  - area/health\n---\nBerlin Marathon 2024 plan: long runs on Saturday up to 32 km, 5 runs a week.\n"
FILLER = {
    "3 Resources/Sourdough.md": "Country loaf, 75% hydration: 500 g flour, 375 g water, 100 g levain, 10 g salt.\n",
    "3 Resources/Brand.md": "## Colors\nPrimary: #1F6FEB (blue). Accent: #F78166 (coral).\n",
    "2 Areas/Finances.md": "Emergency fund target: 15,000 EUR (six months of expenses); currently at 11,200 EUR.\n",
    "2 Areas/Dentist.md": "Dentist: Dr. Tomasz Kowalski, Sorriso Dental. Cleaning every 6 months.\n",
}


@pytest.fixture
def para(vault_dir: Path, write_note: Callable[..., Path]) -> Path:
    """A PARA vault: current notes in Areas and Projects, what was so in 4 Archive."""
    write_note("2 Areas/Home/Home.md", HOME)
    write_note("4 Archive/Old Apartment Lease.md", OLD_LEASE)
    write_note("1 Projects/Marathon Training Plan.md", PLAN)
    write_note("4 Archive/Marathon 2024 Plan.md", OLD_PLAN)
    for path, text in FILLER.items():
        write_note(path, text)
    return vault_dir


def ranked(vault_dir: Path, query: str) -> list[str]:
    with Vault(vault_dir) as vault:
        vault.index()
        return [hit.path for hit in vault.search(query, k=5, now=NOW)]


@pytest.mark.parametrize(("query", "current", "was"), [
    ("landlord phone number", "2 Areas/Home/Home.md", "4 Archive/Old Apartment Lease.md"),
    ("half marathon long run plan", "1 Projects/Marathon Training Plan.md", "4 Archive/Marathon 2024 Plan.md"),
])
def test_a_current_note_answers_before_the_archived_one_that_answers_about_as_well(
        para: Path, query: str, current: str, was: str) -> None:
    """Was (a PARA trial): the old lease first for "landlord phone number", the 2024 plan first
    for this year's long runs; both short notes that say the words once more."""
    assert ranked(para, query)[:2] == [current, was]


def test_what_only_the_archive_answers_still_comes_first(para: Path) -> None:
    assert ranked(para, "Berlin marathon 2024")[0] == "4 Archive/Marathon 2024 Plan.md"
    assert ranked(para, "who was my landlord on Rua das Flores")[0] == "4 Archive/Old Apartment Lease.md"


def test_an_archived_hit_says_it_is_set_aside_and_scores_no_higher_than_the_note_above(para: Path) -> None:
    with Vault(para) as vault:
        vault.index()
        hits = vault.search("landlord phone number", k=3, now=NOW)
    assert hits[1].score <= hits[0].score
    assert any("set aside: in 4 Archive/, a folder of past notes" in str(warning) for warning in hits[1].warnings)
    assert not any("set aside" in str(warning) for warning in hits[0].warnings)


def test_explain_ranks_an_archived_note_where_search_does(para: Path) -> None:
    result = run_cli(para, "explain", "4 Archive/Old Apartment Lease.md", "landlord phone number")
    assert result.exit_code == 0, result.output
    assert "fused 2" in result.stdout
    assert "set aside" in result.stdout


@pytest.mark.parametrize(("path", "folder"), [
    ("4 Archive/x.md", "4 Archive"),
    ("04 - Archives/x.md", "04 - Archives"),
    ("4. Archive/2025/x.md", "4. Archive"),
    ("🗄️ Archive/x.md", "🗄️ Archive"),
    ("Archive/x.md", "Archive"),
    ("_archived/x.md", "_archived"),
    ("Archive 2020/x.md", None),  # a year's folder, not the set-aside pile
    ("Projects/Archive/x.md", None),  # a project's own folder: PARA's archive is at the top
    ("Archive.md", None),
    ("Archives of the Planet/x.md", None),
    ("Archived Projects/x.md", None),  # a name of its own that says archived: not PARA's pile
    ("archive.org notes/x.md", None),
    ("Archivists/x.md", None),
])
def test_the_persons_archive_folder_is_a_top_folder_named_archive_after_a_number_or_sign(path: str, folder: str | None) -> None:
    assert set_aside_folder(path) == folder


@pytest.mark.parametrize(("path", "folder"), [
    ("4 Archiv/x.md", "4 Archiv"),  # German, Czech
    ("04 - Archivio/x.md", "04 - Archivio"),  # Italian
    ("4. Archivo/x.md", "4. Archivo"),  # Spanish
    ("4 Arquivo/x.md", "4 Arquivo"),  # Portuguese
    ("4 Archief/x.md", "4 Archief"),  # Dutch
    ("4 Arkiv/x.md", "4 Arkiv"),  # Swedish, Norwegian, Danish
    ("4 Archiwum/x.md", "4 Archiwum"),  # Polish
    ("4 Архив/x.md", "4 Архив"),  # Russian
    ("4 アーカイブ/x.md", "4 アーカイブ"),  # Japanese
    ("4 \u30a2\u30fc\u30ab\u30a4\u30d5\u3099/x.md", "4 \u30a2\u30fc\u30ab\u30a4\u30d5\u3099"),  # as a Mac may spell it: ブ decomposed
    ("4 归档/x.md", "4 归档"),  # Chinese
    ("Archive 📦/x.md", "Archive 📦"),  # an emoji after the word
    ("Archivos/x.md", None),  # Spanish "files": often the attachments folder
    ("Arquivos/x.md", None),  # Portuguese "files"
])
def test_the_archive_folder_is_found_in_the_languages_para_vaults_are_kept_in(path: str, folder: str | None) -> None:
    """Was: only the English word, so a German vault's "4 Archiv/" answered as current."""
    assert set_aside_folder(path) == folder


def test_an_archived_note_asked_for_by_name_is_not_said_to_be_lowered(para: Path) -> None:
    """Was: "ranked as a tenth as likely" on the hit that its name put first, not lowered."""
    with Vault(para) as vault:
        vault.index()
        [first, *_rest] = vault.search("Old Apartment Lease", k=3, now=NOW)
    assert first.path == "4 Archive/Old Apartment Lease.md"
    [warning] = [str(warning) for warning in first.warnings if "set aside" in str(warning)]
    assert warning.endswith("a tenth as likely to be the current answer, unless the query names it")
