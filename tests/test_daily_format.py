"""The vault's daily-note format dates its daily notes (vaultmem/daily_format.py, adr/0026).

Obsidian's ``.obsidian/daily-notes.json`` (and Periodic Notes' ``data.json``) say how daily
notes are named; under ``DD-MM-YYYY`` in ``Journal``, ``Journal/28-11-2026.md`` is 28 November,
a name the fixed shapes refuse. Real settings files and notes in tmp_path, the real index.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from helpers import run_cli, run_json, wait_until, write_file

from vaultmem import Vault
from vaultmem.daily_format import load_daily_format, parse_moment_format
from vaultmem.dating import note_date
from vaultmem.lifecycle import from_epoch_us

CONFIG = 'embedder = "hashing"\n'
NOW = "2026-12-01T12:00:00+00:00"
CORE = ".obsidian/daily-notes.json"
PERIODIC = ".obsidian/plugins/periodic-notes/data.json"


def daily_notes(root: Path, date_format: str | None = None, folder: str | None = None) -> None:
    """What Obsidian writes in Settings → Daily notes (an absent key: left at its default)."""
    settings = {"template": "Templates/Daily", **({"format": date_format} if date_format is not None else {}),
                **({"folder": folder} if folder is not None else {})}
    write_file(root, CORE, json.dumps(settings))


def periodic_notes(root: Path, date_format: str, folder: str, enabled: bool = True) -> None:
    write_file(root, PERIODIC, json.dumps({"daily": {"enabled": enabled, "format": date_format, "folder": folder, "template": ""},
                                           "weekly": {"enabled": False, "format": "", "folder": ""}}))


def day_of(root: Path, path: str, meta: dict[str, object] | None = None) -> tuple[date, str] | None:
    """The note's date under the vault's daily-note format as read from its settings now."""
    found = note_date(meta or {}, path, load_daily_format(root))
    return None if found is None else (found.moment.date(), found.source)


# ---------------------------------------------------------------- which names are which day


@pytest.mark.parametrize(("date_format", "folder", "path"), [
    ("DD-MM-YYYY", "Journal", "Journal/28-11-2026.md"),  # no fixed shape can say day or month first
    ("YYYY/MM/YYYY-MM-DD", "Journal", "Journal/2026/11/2026-11-28.md"),  # a folder per year and month
    ("dddd, MMMM Do YYYY", "Daily", "Daily/Saturday, November 28th 2026.md"),
    ("DD.MM.YYYY", "", "28.11.2026.md"),  # the vault's root
    ("[Daily] YYYY-MM-DD", "Daily/", "Daily/Daily 2026-11-28.md"),  # a literal; the folder as typed, with a slash
    ("ddd D MMM YY", "Log", "Log/Sat 28 Nov 26.md"),  # short names, a two-digit year
])
def test_a_name_written_in_the_vaults_daily_format_is_that_day(vault_dir: Path, date_format: str, folder: str, path: str) -> None:
    daily_notes(vault_dir, date_format, folder)
    assert day_of(vault_dir, path) == (date(2026, 11, 28), "daily-note format")


def test_the_format_dates_only_names_it_matches_whole_inside_the_daily_folder(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    assert day_of(vault_dir, "Notes/28-11-2026.md") is None  # the same name outside the folder: no day anyone can be sure of
    assert day_of(vault_dir, "Journal/old/28-11-2026.md") is None  # a subfolder the format does not write
    assert day_of(vault_dir, "Journal/28-11-2026 copy.md") is None  # not the whole name
    # A name the format does not match is read by the fixed shapes as before.
    assert day_of(vault_dir, "Journal/2026-11-20.md") == (date(2026, 11, 20), "file name")


def test_a_day_the_calendar_lacks_is_no_date_by_the_format(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    assert day_of(vault_dir, "Journal/31-02-2026.md") is None
    daily_notes(vault_dir, "YYYY/MM/DD-MM-YYYY", "Journal")
    assert day_of(vault_dir, "Journal/2025/11/28-11-2026.md") is None  # two years: which one?
    assert day_of(vault_dir, "Journal/2026/11/28-11-2026.md") == (date(2026, 11, 28), "daily-note format")


def test_a_date_property_still_wins_over_the_daily_format(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    assert day_of(vault_dir, "Journal/28-11-2026.md", {"date": "2026-11-20"}) == (date(2026, 11, 20), "date")
    assert day_of(vault_dir, "Journal/28-11-2026.md", {"created": "2026-11-30"}) == (date(2026, 11, 28), "daily-note format")


def test_an_empty_format_is_obsidians_default_and_no_settings_file_means_no_format(vault_dir: Path) -> None:
    assert load_daily_format(vault_dir).fingerprint == ""  # nothing recorded: the fixed shapes alone
    assert day_of(vault_dir, "28-11-2026.md") is None
    daily_notes(vault_dir, "", None)
    assert day_of(vault_dir, "2026-11-28.md") == (date(2026, 11, 28), "daily-note format")


def test_periodic_notes_daily_format_wins_over_the_core_plugins_when_its_daily_notes_are_enabled(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    periodic_notes(vault_dir, "MM-DD-YYYY", "Periodic/Daily")
    assert day_of(vault_dir, "Periodic/Daily/11-28-2026.md") == (date(2026, 11, 28), "daily-note format")
    assert day_of(vault_dir, "Journal/03-04-2026.md") is None  # the core plugin's format is not the one in use
    periodic_notes(vault_dir, "MM-DD-YYYY", "Periodic/Daily", enabled=False)
    assert day_of(vault_dir, "Journal/03-04-2026.md") == (date(2026, 4, 3), "daily-note format")
    assert day_of(vault_dir, "Periodic/Daily/11-28-2026.md") is None


@pytest.mark.parametrize(("date_format", "named"), [
    ("gggg-[W]ww", "its tokens gggg, ww (a week-based year, a week) do not name one day"),
    ("YYYY-MM-DD HH:mm", "its tokens HH, mm (a time of day) do not name one day"),
    ("YYYY-[Q]Q", "its tokens Q (a quarter) do not name one day"),
    ("X", "its tokens X (Unix time) do not name one day"),
    ("YYYY-MM", "it names no day, so not one day"),
])
def test_a_format_that_names_no_single_day_dates_nothing_and_says_which_tokens(date_format: str, named: str) -> None:
    moment = parse_moment_format(date_format)
    assert not moment.supported and moment.unread == named
    assert moment.day("2026-W48") is None and moment.day("2026-11") is None


# ---------------------------------------------------------------- through the index, search, explain and check


@pytest.fixture
def journal(vault_dir: Path) -> Path:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    write_file(vault_dir, "Journal/28-11-2026.md", "Long run along the river; the knee held up.\n")
    write_file(vault_dir, "Journal/03-04-2026.md", "Knee physio, first session.\n")
    write_file(vault_dir, "Notes/28-11-2026.md", "Knee brace notes, copied from somewhere.\n")  # not a daily note
    write_file(vault_dir, "Notes/2026-11-25 knee.md", "Knee swelling after the hills.\n")
    return vault_dir


def dated(root: Path, since: str, until: str) -> dict[str, str | None]:
    """A search by date in a fresh Vault (each one a command): the hits and their dates."""
    with Vault(root) as vault:
        return {hit.path: hit.date for hit in vault.search("knee", k=10, now=NOW, since=since, until=until)}


def test_search_since_until_finds_a_daily_note_named_by_the_vaults_format(journal: Path) -> None:
    assert dated(journal, "2026-11-26", "2026-11-29") == {"Journal/28-11-2026.md": "2026-11-28T00:00:00+00:00"}
    assert dated(journal, "2026-04-03", "2026-04-03") == {"Journal/03-04-2026.md": "2026-04-03T00:00:00+00:00"}
    with Vault(journal) as vault:
        why = vault.explain("Journal/28-11-2026.md", "knee", since="2026-11-29", now=NOW)
        undated = vault.explain("Notes/28-11-2026.md", "knee", since="2026-11-01", now=NOW)
    assert any("its date is 2026-11-28T00:00:00+00:00 (from its name in the daily-note format DD-MM-YYYY in Journal/ "
               "(.obsidian/daily-notes.json))" in reason for reason in why.reasons), why.reasons
    assert any("it has no date" in reason for reason in undated.reasons), undated.reasons
    result = run_cli(journal, "search", "knee", "--since", "2026-11-26", "--until", "2026-11-29", "--as-of", NOW)
    assert result.exit_code == 0 and "Journal/28-11-2026.md" in result.stdout and "Notes/28-11-2026.md" not in result.stdout
    assert "or as the daily-note format DD-MM-YYYY in Journal/ (.obsidian/daily-notes.json) writes it" in result.stderr + result.stdout


def test_a_changed_daily_format_dates_the_notes_again_at_the_next_command(journal: Path) -> None:
    (journal / CORE).unlink()  # indexed without a format, as an older vaultmem did
    assert run_cli(journal, "index").exit_code == 0
    assert dated(journal, "2026-11-28", "2026-11-28") == {}  # 28-11-2026: no day anyone can be sure of
    daily_notes(journal, "DD-MM-YYYY", "Journal")  # set in Obsidian: Settings → Daily notes → Date format
    assert dated(journal, "2026-11-28", "2026-11-28") == {"Journal/28-11-2026.md": "2026-11-28T00:00:00+00:00"}
    daily_notes(journal, "MM-DD-YYYY", "Journal")  # and changed: 03-04-2026 is now 4 March
    assert dated(journal, "2026-03-04", "2026-03-04") == {"Journal/03-04-2026.md": "2026-03-04T00:00:00+00:00"}
    assert dated(journal, "2026-04-03", "2026-04-03") == {}
    daily_notes(journal, "DD-MM-YYYY", "Diary")  # another folder: the old one's notes lose the format's date
    assert dated(journal, "2026-01-01", "2026-12-31") == {"Notes/2026-11-25 knee.md": "2026-11-25T00:00:00+00:00"}


def test_a_changed_daily_format_reads_again_only_the_notes_of_its_folders(journal: Path) -> None:
    with Vault(journal) as vault:
        vault.index()
    daily_notes(journal, "MM-DD-YYYY", "Journal")
    with Vault(journal) as vault:
        report = vault.index()
    assert sorted(report.updated) == ["Journal/03-04-2026.md", "Journal/28-11-2026.md"] and report.embedded == 0
    assert report.unchanged == 2  # the notes outside Journal/ were not read again


@pytest.mark.parametrize(("file", "text", "field"), [
    (CORE, '{"folder": "Journal", "format": "DD-MM-YYYY",', "file"),  # cut off mid-save
    (CORE, '{"folder": "Journal", "format": 20}', "format"),
    (CORE, '{"folder": ["Journal"], "format": "DD-MM-YYYY"}', "folder"),
    (CORE, '["DD-MM-YYYY"]', "file"),
    (PERIODIC, "{not json", "file"),
    (PERIODIC, '{"daily": {"enabled": true, "format": null, "folder": 7}}', "daily.folder"),
])
def test_daily_settings_vaultmem_cannot_read_are_reported_by_check_and_search_still_works(
        journal: Path, file: str, text: str, field: str) -> None:
    write_file(journal, file, text)
    report = run_json(journal, "check")
    assert isinstance(report, dict)
    problems = [problem for problem in report["problems"] if problem["path"] == file]
    assert [problem["field"] for problem in problems] == [field], report["problems"]
    assert "daily notes are dated by the other rules meanwhile" in problems[0]["message"]
    assert problems[0]["fix"]
    assert run_cli(journal, "check").exit_code == 1
    with Vault(journal) as vault:  # the fixed shapes still date what they can, and the search says what is not used
        hits = vault.search("knee", k=10, now=NOW, since="2026-11-01", until="2026-11-30")
    assert [hit.path for hit in hits] == ["Notes/2026-11-25 knee.md"]
    assert any(f"explain NOTE QUERY says what one has; {file}: {field}:" in warning for warning in hits.warnings), hits.warnings


def test_an_unsupported_format_is_reported_by_check_and_dates_nothing(journal: Path) -> None:
    daily_notes(journal, "gggg-[W]ww", "Journal")
    write_file(journal, "Journal/2026-W48.md", "Knee: a quiet week.\n")
    result = run_cli(journal, "check")
    assert result.exit_code == 1
    assert (".obsidian/daily-notes.json: format: 'gggg-[W]ww': its tokens gggg, ww (a week-based year, a week) "
            "do not name one day") in result.stdout, result.stdout
    with Vault(journal) as vault:
        hits = vault.search("knee", k=10, now=NOW, since="2026-01-01", until="2026-12-31")
        why = vault.explain("Journal/2026-W48.md", "knee", since="2026-01-01", now=NOW)
    assert [hit.path for hit in hits] == ["Notes/2026-11-25 knee.md"]
    assert any("add one of them to search it by date; .obsidian/daily-notes.json: format: 'gggg-[W]ww'" in reason
               for reason in why.reasons), why.reasons



def test_a_running_watcher_dates_the_notes_again_when_the_daily_format_changes(journal: Path) -> None:
    def day(vault: Vault, path: str) -> str | None:
        row = next(row for row in vault.store.notes.all() if row.path == path)
        return None if row.dated_us is None else from_epoch_us(row.dated_us).date().isoformat()

    with Vault(journal) as vault, vault.watch(quiet=True):
        assert day(vault, "Journal/03-04-2026.md") == "2026-04-03"
        daily_notes(journal, "MM-DD-YYYY", "Journal")  # no command run: the watcher hears the settings file
        wait_until(lambda: day(vault, "Journal/03-04-2026.md") == "2026-03-04", what="the note to be dated by the new format")
