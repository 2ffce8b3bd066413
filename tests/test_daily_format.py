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
COMMUNITY = ".obsidian/community-plugins.json"


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
    ("YY-MM-DD", "", "26-11-28.md"),  # a two-digit year alone: 20YY
    ("YYYY-MM-DD HH:mm", "Log", "Log/2026-11-28 09:30.md"),  # a time of day: matched, not read
    ("YYYY-MM-DD-DDDD", "Log", "Log/2026-11-28-332.md"),  # the day of the year: matched, not read
    ("[W]W YYYY-MM-DD", "Log", "Log/W48 2026-11-28.md"),  # an ISO week: matched, not read
    ("LL", "Log", "Log/November 28, 2026.md"),  # moment's locale formats, in English: MMMM D, YYYY
    ("LLLL", "Log", "Log/Saturday, November 28, 2026 9:30 PM.md"),
    ("L", "Log", "Log/11/28/2026.md"),  # MM/DD/YYYY: its slashes are folders, as Obsidian writes them
    ("/YYYY//MM-DD/", "/Log//", "Log/2026/11-28.md"),  # slashes at the ends and doubled: dropped, as Obsidian does
    ("DD-MM-YYYY", "Tageb\u00fccher", "Tagebu\u0308cher/28-11-2026.md"),  # the folder typed composed, named decomposed (macOS)
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


def calendar_sets(root: Path, *sets: tuple[str, str, str, bool], active: str | None = None) -> None:
    """What Periodic Notes 1.x writes: calendar sets, each with its own daily notes (its ``day``)."""
    written: dict[str, object] = {"calendarSets": [
        {"id": name, "ctime": "2026-11-01T09:00:00+01:00", "day": {"enabled": enabled, "format": date_format, "folder": folder},
         "week": {"enabled": False, "format": "", "folder": ""}} for name, date_format, folder, enabled in sets]}
    if active is not None:
        written["activeCalendarSet"] = active
    write_file(root, PERIODIC, json.dumps(written))


def test_periodic_notes_1x_reads_the_day_of_its_active_calendar_set_else_of_its_first(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    work, default = ("Work", "DD.MM.YYYY", "Work", True), ("Default", "MM-DD-YYYY", "Periodic", True)
    calendar_sets(vault_dir, work, default, active="Default")
    assert day_of(vault_dir, "Periodic/11-28-2026.md") == (date(2026, 11, 28), "daily-note format")
    assert day_of(vault_dir, "Work/28.11.2026.md") is None and day_of(vault_dir, "Journal/28-11-2026.md") is None
    calendar_sets(vault_dir, work, default)  # no active set named: the first
    assert day_of(vault_dir, "Work/28.11.2026.md") == (date(2026, 11, 28), "daily-note format")
    calendar_sets(vault_dir, ("", "DD.MM.YYYY", "Work", True), ({}, "MM-DD-YYYY", "Periodic", True))  # sets without ids
    assert day_of(vault_dir, "Work/28.11.2026.md") == (date(2026, 11, 28), "daily-note format")  # still the first
    calendar_sets(vault_dir, work, default, active="Gone")  # a set that is not there: the plugin itself stops
    gone = load_daily_format(vault_dir)
    assert [(problem.field, problem.message.split(";")[0]) for problem in gone.problems] == [
        ("activeCalendarSet", "names 'Gone', which no calendar set has as its id")]
    assert day_of(vault_dir, "Work/28.11.2026.md") is None and day_of(vault_dir, "Journal/28-11-2026.md") is None
    calendar_sets(vault_dir, ("Default", "MM-DD-YYYY", "Periodic", False), active="Default")  # its daily notes off
    assert day_of(vault_dir, "Journal/28-11-2026.md") == (date(2026, 11, 28), "daily-note format")  # the core plugin's
    # 0.x's daily, left in the file after 1.x moved it into a set, is not read over the sets; with no set it is.
    written = {"daily": {"enabled": True, "format": "DD.MM.YYYY", "folder": "Old"}}
    write_file(vault_dir, PERIODIC, json.dumps({**written, "calendarSets": [{"id": "Default", "day": {"enabled": True, "format": "MM-DD-YYYY"}}]}))
    assert day_of(vault_dir, "11-28-2026.md") == (date(2026, 11, 28), "daily-note format")  # no folder: the vault's root
    assert day_of(vault_dir, "Old/28.11.2026.md") is None
    write_file(vault_dir, PERIODIC, json.dumps({**written, "calendarSets": []}))
    assert day_of(vault_dir, "Old/28.11.2026.md") == (date(2026, 11, 28), "daily-note format")


@pytest.mark.parametrize("plugins", [
    ["calendar", "periodic-notes"],  # turned on
    None,  # no list of community plugins: as before lists were read
])
def test_periodic_notes_settings_are_read_when_the_plugin_is_on_or_there_is_no_list(vault_dir: Path, plugins: object) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    periodic_notes(vault_dir, "MM-DD-YYYY", "Periodic/Daily")
    if plugins is not None:
        write_file(vault_dir, COMMUNITY, json.dumps(plugins))
    assert day_of(vault_dir, "Periodic/Daily/11-28-2026.md") == (date(2026, 11, 28), "daily-note format")
    assert load_daily_format(vault_dir).problems == ()


@pytest.mark.parametrize(("plugins", "said"), [
    ('["dataview",', "not valid JSON"),  # cut short
    ('{"periodic-notes": true}', "is an object, not a list of plugin ids"),
])
def test_a_plugin_list_that_cannot_be_read_beside_periodic_notes_settings_dates_by_no_format_and_says_so(
        vault_dir: Path, plugins: str, said: str) -> None:
    # Was: read as "Periodic Notes is on", so 03-04-2026 became 4 March by a format that may be stale.
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    periodic_notes(vault_dir, "MM-DD-YYYY", "Journal")
    write_file(vault_dir, COMMUNITY, plugins)
    found = load_daily_format(vault_dir)
    assert [(problem.path, problem.field) for problem in found.problems] == [(COMMUNITY, "file")]
    assert said in found.problems[0].message and "no daily-note format is used" in found.problems[0].message
    assert day_of(vault_dir, "Journal/03-04-2026.md") is None
    Path(vault_dir, PERIODIC).unlink()  # no Periodic Notes settings: the list does not matter to dates
    assert load_daily_format(vault_dir).problems == ()
    assert day_of(vault_dir, "Journal/03-04-2026.md") == (date(2026, 4, 3), "daily-note format")


def test_periodic_notes_settings_left_behind_by_a_plugin_turned_off_are_not_read(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    periodic_notes(vault_dir, "MM-DD-YYYY", "Periodic/Daily")
    write_file(vault_dir, COMMUNITY, json.dumps(["calendar", "dataview"]))  # Periodic Notes turned off, its data.json kept
    assert day_of(vault_dir, "Journal/28-11-2026.md") == (date(2026, 11, 28), "daily-note format")
    assert day_of(vault_dir, "Periodic/Daily/11-28-2026.md") is None
    write_file(vault_dir, PERIODIC, "{not json")  # nor are they checked
    assert load_daily_format(vault_dir).problems == ()
    assert day_of(vault_dir, "Journal/28-11-2026.md") == (date(2026, 11, 28), "daily-note format")


def test_the_core_plugins_format_is_read_even_when_daily_notes_are_turned_off(vault_dir: Path) -> None:
    daily_notes(vault_dir, "DD-MM-YYYY", "Journal")
    write_file(vault_dir, ".obsidian/core-plugins.json", json.dumps({"daily-notes": False, "file-explorer": True}))
    # The notes it named are still named so.
    assert day_of(vault_dir, "Journal/28-11-2026.md") == (date(2026, 11, 28), "daily-note format")


def test_a_month_is_read_by_the_names_moment_writes() -> None:
    moment = parse_moment_format("DD MMM YYYY")
    assert moment.day("28 Sep 2026") == date(2026, 9, 28)  # moment's MMM for September
    assert moment.day("28 sep 2026") == date(2026, 9, 28)  # a name in another case is still that name
    assert moment.day("28 Sept 2026") is None  # not what moment writes


@pytest.mark.parametrize(("date_format", "folder", "path", "day"), [
    ("YYYY-MM-DD-dddd", "Journal", "Journal/2023-10-12-Donnerstag.md", date(2023, 10, 12)),  # a real German journal's
    ("dddd, D. MMMM YYYY", "Tagebuch", "Tagebuch/Freitag, 15. März 2024.md", date(2024, 3, 15)),
    ("dddd, D. MMMM YYYY", "Tagebuch", "Tagebuch/Freitag, 15. Ma\u0308rz 2024.md", date(2024, 3, 15)),  # named decomposed (macOS)
    ("DD MMM YYYY ddd", "Log", "Log/12 Okt. 2023 Do..md", date(2023, 10, 12)),  # moment's German short names keep their dot
    ("dddd D MMMM YYYY", "Journal", "Journal/lundi 4 mars 2024.md", date(2024, 3, 4)),
    ("ddd D MMM YYYY", "Journal", "Journal/jeu. 1 févr. 2024.md", date(2024, 2, 1)),
    ("dddd D [de] MMMM [de] YYYY", "Diario", "Diario/jueves 12 de octubre de 2023.md", date(2023, 10, 12)),
    ("DD-MMM-YYYY", "Diario", "Diario/12-oct-2023.md", date(2023, 10, 12)),  # Spanish short months in -MMM- lose the dot
])
def test_month_and_weekday_names_obsidian_writes_in_german_french_or_spanish_date_the_note(
        vault_dir: Path, date_format: str, folder: str, path: str, day: date) -> None:
    # Were read in English only: an Obsidian set to German matched none of its own daily notes.
    daily_notes(vault_dir, date_format, folder)
    assert day_of(vault_dir, path) == (day, "daily-note format")


@pytest.mark.parametrize(("name", "day"), [("04. Julı 2024", date(2024, 7, 4)), ("04. JUNİ 2024", date(2024, 6, 4))])
def test_a_month_name_the_format_matches_with_a_dotless_or_dotted_i_is_that_month(name: str, day: date) -> None:
    # Was: ValueError ("matched a month name vaultmem does not know") out of every command
    # that dated the vault's notes: the format's pattern pairs ı and İ with i, casefold does not.
    assert parse_moment_format("DD. MMMM YYYY").day(name) == day


def test_no_month_name_read_means_two_different_months_in_the_languages_read() -> None:
    from vaultmem.month_names import month_spellings

    for part in (0, 1):
        months: dict[str, set[int]] = {}
        for name, number in month_spellings(part):
            months.setdefault(name.casefold().rstrip("."), set()).add(number)
        assert {name: numbers for name, numbers in months.items() if len(numbers) > 1} == {}
    assert parse_moment_format("DD MMM YYYY").day("28 Sept 2026") is None  # what no language here writes (sept. is French)


@pytest.mark.parametrize(("date_format", "written", "named"), [
    ("gggg-[W]ww", "2026-W48", "it names no year, no month and no day, so not one day "
     "(gggg, ww: a week-based year, a week, which vaultmem does not read as a day)"),
    ("YYYY-[Q]Q", "2026-Q4", "it names no month and no day, so not one day (Q: a quarter, which vaultmem does not read as a day)"),
    ("X", "1795824000", "it names no year, no month and no day, so not one day (X: Unix time, which vaultmem does not read as a day)"),
    ("YYYY-MM", "2026-11", "it names no day, so not one day"),
    ("YYYY-DDDD", "2026-332", "it names no month and no day, so not one day "
     "(DDDD: the day of the year, which vaultmem does not read as a day)"),
])
def test_a_format_that_names_no_single_day_dates_nothing_and_says_which_tokens(
        vault_dir: Path, date_format: str, written: str, named: str) -> None:
    daily_notes(vault_dir, date_format, "Journal")
    daily = load_daily_format(vault_dir)
    assert not daily.in_use and daily.fingerprint == ""  # the index records no format
    assert [(problem.field, problem.message) for problem in daily.problems] == [
        ("format", f"{date_format!r}: {named}; its daily-note format is not used: daily notes are dated by the other rules meanwhile")]
    # A note named as the format writes it gets no date from it (YYYY-MM is no day; 2026-332 is no 332nd of a month);
    # 2026-W48, 2026-Q4 and 2026-11 are periods by their ISO names (test_periodic_notes), not days.
    found = day_of(vault_dir, f"Journal/{written}.md")
    assert found is None or found[1] == "file name", found


@pytest.mark.parametrize(("date_format", "why"), [
    ("MD" * 20 + "YYYY", "M and D write numbers of varying width with nothing but digits between them"),  # 52 s a name, unbounded
    ("dddd" * 50_000, "it is 200,000 characters long, and vaultmem reads formats of at most 100"),  # 8 s to compile
    ("MDYYYY", "M and D write numbers of varying width"),  # 1112026: 1 November or 11 January?
    ("YYYYMD", "M and D write numbers of varying width"),
    ("M[1]D YYYY", "M and D write numbers of varying width"),  # digits between them do not part them
    ("LLLL " * 4 + "LL", "once moment's L… formats are written out"),  # short as written, long once expanded
])
def test_a_format_that_cannot_be_read_back_one_way_or_is_too_long_is_refused_and_dates_nothing(
        vault_dir: Path, date_format: str, why: str) -> None:
    daily_notes(vault_dir, date_format, "")
    daily = load_daily_format(vault_dir)
    assert not daily.in_use and daily.fingerprint == ""
    [problem] = daily.problems
    assert problem.field == "format" and why in problem.message and len(problem.message) < 600  # the format itself cut short
    assert day_of(vault_dir, "1" * 40 + "2026.md") is None and day_of(vault_dir, "1112026.md") is None


def test_formats_whose_numbers_are_apart_or_of_one_width_are_read() -> None:
    assert parse_moment_format("YYYYMMDD").day("20261128") == date(2026, 11, 28)  # all of one width: one way to read
    assert parse_moment_format("D.M.YYYY").day("1.11.2026") == date(2026, 11, 1)
    assert parse_moment_format("YYYYMMDD Hmm").day("20261128 930") == date(2026, 11, 28)  # one of varying width in a run
    assert parse_moment_format("Do MMMM YYYY").day("1st September 2026") == date(2026, 9, 1)


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
    assert dated(journal, "2026-11-26", "2026-11-29") == {"Journal/28-11-2026.md": "2026-11-28"}
    assert dated(journal, "2026-04-03", "2026-04-03") == {"Journal/03-04-2026.md": "2026-04-03"}
    with Vault(journal) as vault:
        why = vault.explain("Journal/28-11-2026.md", "knee", since="2026-11-29", now=NOW)
        undated = vault.explain("Notes/28-11-2026.md", "knee", since="2026-11-01", now=NOW)
    assert any("its date is the day 2026-11-28 (from its name in the daily-note format DD-MM-YYYY in Journal/ "
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
    assert dated(journal, "2026-11-28", "2026-11-28") == {"Journal/28-11-2026.md": "2026-11-28"}
    daily_notes(journal, "MM-DD-YYYY", "Journal")  # and changed: 03-04-2026 is now 4 March
    assert dated(journal, "2026-03-04", "2026-03-04") == {"Journal/03-04-2026.md": "2026-03-04"}
    assert dated(journal, "2026-04-03", "2026-04-03") == {}
    daily_notes(journal, "DD-MM-YYYY", "Diary")  # another folder: the old one's notes lose the format's date
    assert dated(journal, "2026-01-01", "2026-12-31") == {"Notes/2026-11-25 knee.md": "2026-11-25"}


def test_a_changed_daily_format_reads_again_only_the_notes_of_its_folders(journal: Path) -> None:
    with Vault(journal) as vault:
        vault.index()
    daily_notes(journal, "MM-DD-YYYY", "Journal")
    with Vault(journal) as vault:
        report = vault.index()
    assert sorted(report.updated) == ["Journal/03-04-2026.md", "Journal/28-11-2026.md"] and report.embedded == 0
    assert report.unchanged == 2  # the notes outside Journal/ were not read again


def test_a_changed_format_for_the_vaults_root_reads_every_note_again(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    daily_notes(vault_dir, "DD-MM-YYYY", None)  # no folder: daily notes in the vault's root
    write_file(vault_dir, "03-04-2026.md", "Knee physio, first session.\n")
    write_file(vault_dir, "Notes/Knee.md", "Knee brace notes.\n")
    with Vault(vault_dir) as vault:
        vault.index()
    daily_notes(vault_dir, "MM-DD-YYYY", "")
    with Vault(vault_dir) as vault:
        report = vault.index()
    # Any note below the root may be a daily note of the format: all are read again, none re-embedded.
    assert sorted(report.updated) == ["03-04-2026.md", "Notes/Knee.md"] and report.embedded == 0 and report.unchanged == 0
    assert dated(vault_dir, "2026-03-04", "2026-03-04") == {"03-04-2026.md": "2026-03-04"}


def test_a_changed_format_reads_again_the_notes_of_a_folder_named_decomposed_on_disk(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    daily_notes(vault_dir, "DD-MM-YYYY", "Tageb\u00fccher")  # typed composed in Obsidian
    write_file(vault_dir, "Tagebu\u0308cher/03-04-2026.md", "Knee physio, first session.\n")  # as macOS names it
    with Vault(vault_dir) as vault:
        vault.index()
    daily_notes(vault_dir, "MM-DD-YYYY", "Tageb\u00fccher")
    with Vault(vault_dir) as vault:
        report = vault.index()
    assert report.updated == ["Tagebu\u0308cher/03-04-2026.md"]
    assert dated(vault_dir, "2026-03-04", "2026-03-04") == {"Tagebu\u0308cher/03-04-2026.md": "2026-03-04"}


def test_notes_dated_by_a_format_lose_that_date_when_its_settings_break_and_search_says_why(journal: Path) -> None:
    assert dated(journal, "2026-11-26", "2026-11-29") == {"Journal/28-11-2026.md": "2026-11-28"}  # indexed
    write_file(journal, CORE, '{"folder": "Journal", "format": "DD-MM-YYYY",')  # cut off mid-save
    with Vault(journal) as vault:
        hits = vault.search("knee", k=10, now=NOW, since="2026-11-26", until="2026-11-29")
        why = vault.explain("Journal/28-11-2026.md", "knee", since="2026-11-26", now=NOW)
        row = next(row for row in vault.store.notes.all() if row.path == "Journal/28-11-2026.md")
    assert [hit.path for hit in hits] == [] and row.dated_us is None  # no stale date left in the index
    assert any(f"{CORE}: file: not valid JSON" in warning for warning in hits.warnings), hits.warnings
    assert any("it has no date" in reason and f"{CORE}: file: not valid JSON" in reason for reason in why.reasons), why.reasons


@pytest.mark.parametrize(("file", "text", "field"), [
    (CORE, '{"folder": "Journal", "format": "DD-MM-YYYY",', "file"),  # cut off mid-save
    (CORE, '{"folder": "Journal", "format": 20}', "format"),
    (CORE, '{"folder": ["Journal"], "format": "DD-MM-YYYY"}', "folder"),
    (CORE, '["DD-MM-YYYY"]', "file"),
    (PERIODIC, "{not json", "file"),
    (PERIODIC, '{"daily": {"enabled": true, "format": null, "folder": 7}}', "daily.folder"),
    # Valid JSON of a shape Periodic Notes never writes: the core plugin's format is not used either.
    (PERIODIC, "[]", "file"),
    (PERIODIC, '{"daily": [1]}', "daily"),
    (PERIODIC, '{"daily": {"enabled": "true", "format": "MM-DD-YYYY", "folder": "Journal"}}', "daily.enabled"),
    (PERIODIC, '{"calendarSets": {"id": "Default"}}', "calendarSets"),
    (PERIODIC, '{"calendarSets": [{"id": "Default", "day": {"enabled": true}}], "activeCalendarSet": 1}', "activeCalendarSet"),
    (PERIODIC, '{"calendarSets": ["Default"]}', "calendarSets[0]"),
    (PERIODIC, '{"calendarSets": [{"id": "Work"}, {"id": "Default", "day": "YYYY"}], "activeCalendarSet": "Default"}',
     "calendarSets[1].day"),
    (PERIODIC, '{"calendarSets": [{"id": "Default", "day": {"enabled": true, "format": ["DD-MM-YYYY"]}}]}',
     "calendarSets[0].day.format"),
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
    assert any(f"or a `created:` stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others); {file}: {field}:" in warning for warning in hits.warnings), hits.warnings


def test_a_daily_notes_date_property_of_another_day_than_its_name_is_reported_by_check_and_in_its_hits(vault_dir: Path) -> None:
    # A real German journal: 2023-10-12-Donnerstag.md holds `date: 2024-02-04T16:13`, the day
    # Templater filled in its creation date. The property wins, so a search for 12 October left
    # that day's own note out without a word.
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    daily_notes(vault_dir, "YYYY-MM-DD-dddd", "journal")
    write_file(vault_dir, "journal/2023-10-12-Donnerstag.md", "---\ndate: 2024-02-04T16:13\n---\nOKD bootstrap debugged.\n")
    write_file(vault_dir, "journal/2023-10-13-Freitag.md", "---\ndate: 2023-10-13\n---\nOKD cluster up.\n")  # agrees
    write_file(vault_dir, "journal/2023-10-14-Samstag.md", "---\ndate: 2023-10-15T08:00:00+02:00\n---\nOKD upgrade.\n")  # an instant
    report = run_json(vault_dir, "check")
    assert isinstance(report, dict)
    assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [("journal/2023-10-12-Donnerstag.md", "date")]
    [problem] = report["problems"]
    assert problem["message"] == ("date is '2024-02-04T16:13', the day 2024-02-04, but the note's name is 2023-10-12 in the "
                                  "daily-note format YYYY-MM-DD-dddd in journal/ (.obsidian/daily-notes.json): "
                                  "--since/--until (since/until) date it by the property")
    assert "set date: 2023-10-12 or remove it" in problem["fix"]
    with Vault(vault_dir) as vault:
        [hit] = vault.search("OKD bootstrap", k=1, now=NOW)
        shown = vault.get("journal/2023-10-12-Donnerstag", now=NOW)
    assert hit.date == "2024-02-04T16:13"  # still the property's (as it writes it): the rule is unchanged, and now it is said
    assert any("the note's name is 2023-10-12" in warning for warning in hit.warnings), hit.warnings
    # `get` reads its problems from the file, in the vault's daily-note format too.
    assert [problem["field"] for problem in shown.problems] == ["date"]


def test_an_unsupported_format_is_reported_by_check_and_dates_nothing(journal: Path) -> None:
    daily_notes(journal, "gggg-[W]ww", "Journal")
    write_file(journal, "Journal/2026-W48.md", "Knee: a quiet week.\n")
    result = run_cli(journal, "check")
    assert result.exit_code == 1
    assert (".obsidian/daily-notes.json: format: 'gggg-[W]ww': it names no year, no month and no day, so not one day "
            "(gggg, ww: a week-based year, a week, which vaultmem does not read as a day)") in result.stdout, result.stdout
    write_file(journal, "Journal/quiet.md", "Knee: nothing to say.\n")
    with Vault(journal) as vault:
        hits = vault.search("knee", k=10, now=NOW, since="2026-01-01", until="2026-12-31")
        why = vault.explain("Journal/quiet.md", "knee", since="2026-01-01", now=NOW)
    # The week's note is dated by its ISO name, as a week (adr/0026 "Periodic notes"), not by the refused format.
    assert {hit.path: hit.date for hit in hits} == {"Notes/2026-11-25 knee.md": "2026-11-25", "Journal/2026-W48.md": "2026-W48"}
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


def test_explain_gives_the_date_property_for_a_day_and_month_name_outside_the_daily_format(vault_dir: Path) -> None:
    # A trial's journal: 17 daily notes of 2021-23 kept in Journal/Archive/ as 16-02-2021.md,
    # while the format (YYYY-MM-DD in Journal/Daily/) names today's. Each was explained only as
    # having "no YYYY-MM-DD in its file name"; its owner saw a day in every name.
    daily_notes(vault_dir, "YYYY-MM-DD", "Journal/Daily")
    write_file(vault_dir, "Journal/Daily/2025-01-08.md", "Camera bug discussions.\n")
    write_file(vault_dir, "Journal/Archive/16-02-2021.md", "Today I started reading Atomic Habits.\n")
    write_file(vault_dir, "Journal/Archive/12-05-2023.md", "Ant colony optimization, read Atomic Habits again.\n")
    write_file(vault_dir, "Journal/Archive/07-07-2023.md", "Goa plan; Atomic Habits on the train.\n")
    with Vault(vault_dir) as vault:
        said = {name: " ".join(vault.explain(f"Journal/Archive/{name}.md", "Atomic Habits", since="2021", now=NOW).reasons)
                for name in ("16-02-2021", "12-05-2023", "07-07-2023")}
    assert "its name's 16-02-2021 can only be 2021-02-16" in said["16-02-2021"], said
    assert "`date: 2021-02-16` dates it" in said["16-02-2021"], said
    assert "its name's 07-07-2023 can only be 2023-07-07" in said["07-07-2023"], said  # either order: one day
    assert "its name's 12-05-2023 is 2023-05-12 or 2023-12-05 (day or month first?)" in said["12-05-2023"], said
    assert "`date:` property says which" in said["12-05-2023"], said


@pytest.mark.parametrize(("date_format", "folder", "path", "day"), [
    ("D MMMM YYYY", "Дневник", "Дневник/15 марта 2024.md", date(2024, 3, 15)),  # MMMM after a day: the genitive
    ("dddd, D MMMM YYYY", "Дневник", "Дневник/пятница, 15 марта 2024.md", date(2024, 3, 15)),
    ("MMMM YYYY/D", "Дневник", "Дневник/март 2024/15.md", date(2024, 3, 15)),  # MMMM alone: the nominative
    ("DD MMM YYYY, ddd", "Дневник", "Дневник/15 мар. 2024, пт.md", date(2024, 3, 15)),
    ("DD MMM YYYY", "Дневник", "Дневник/02 мая 2024.md", date(2024, 5, 2)),  # May is not cut: "мая", no dot
])
def test_month_and_weekday_names_obsidian_writes_in_russian_date_the_note(
        vault_dir: Path, date_format: str, folder: str, path: str, day: date) -> None:
    # Were read in English, German, French and Spanish only: an Obsidian set to Russian matched
    # none of its own daily notes.
    daily_notes(vault_dir, date_format, folder)
    assert day_of(vault_dir, path) == (day, "daily-note format")


@pytest.mark.parametrize(("date_format", "folder", "path", "day"), [
    ("D MMMM YYYY", "Щоденник", "Щоденник/1 травня 2024.md", date(2024, 5, 1)),  # after a day: the genitive
    ("dddd, D MMMM YYYY", "Щоденник", "Щоденник/п’ятниця, 15 березня 2024.md", date(2024, 3, 15)),
    ("MMMM YYYY/D", "Щоденник", "Щоденник/березень 2024/15.md", date(2024, 3, 15)),  # alone: the nominative
    ("DD MMM YYYY, dd", "Щоденник", "Щоденник/15 бер 2024, пт.md", date(2024, 3, 15)),
])
def test_month_and_weekday_names_obsidian_writes_in_ukrainian_date_the_note(
        vault_dir: Path, date_format: str, folder: str, path: str, day: date) -> None:
    # A trial on a Russian vault with Ukrainian entries: an Obsidian set to Ukrainian names its
    # daily notes "1 травня 2024"; read in English, German, French, Spanish, Russian and Turkish
    # only, the format matched none of them.
    daily_notes(vault_dir, date_format, folder)
    assert day_of(vault_dir, path) == (day, "daily-note format")


@pytest.mark.parametrize(("date_format", "folder", "path", "day"), [
    ("D MMMM YYYY", "Dziennik", "Dziennik/15 marca 2024.md", date(2024, 3, 15)),  # after a day: the genitive
    ("dddd, D MMMM YYYY", "Dziennik", "Dziennik/środa, 1 maja 2024.md", date(2024, 5, 1)),
    ("MMMM YYYY/D", "Dziennik", "Dziennik/październik 2024/15.md", date(2024, 10, 15)),  # alone: the nominative
    ("DD MMM YYYY, ddd", "Dziennik", "Dziennik/15 lip 2024, pon.md", date(2024, 7, 15)),  # lip: read in the format
    ("DD.MM.YYYY dd", "Dziennik", "Dziennik/31.08.2026 Pn.md", date(2026, 8, 31)),
])
def test_month_and_weekday_names_obsidian_writes_in_polish_date_the_note(
        vault_dir: Path, date_format: str, folder: str, path: str, day: date) -> None:
    # A trial on a real Polish vault (s41): an Obsidian set to Polish names its daily notes
    # "15 marca 2024"; read in nine other languages only, the format matched none of them.
    daily_notes(vault_dir, date_format, folder)
    assert day_of(vault_dir, path) == (day, "daily-note format")


@pytest.mark.parametrize(("date_format", "folder", "path", "day"), [
    ("DD MMMM YYYY dddd", "Günlük", "Günlük/15 Mart 2024 Cuma.md", date(2024, 3, 15)),
    ("DD MMMM YYYY dddd", "Günlük", "Günlük/04 Şubat 2026 Çarşamba.md", date(2026, 2, 4)),  # Ş, ç, ş
    ("D MMMM YYYY", "Günlük", "Günlük/30 Kasım 2026.md", date(2026, 11, 30)),  # moment's tr LL; dotless ı
    ("YYYY-MM-DD dddd", "Günlük", "Günlük/2026-12-01 Salı.md", date(2026, 12, 1)),
    ("DD MMM YYYY ddd", "Günlük", "Günlük/29 Eki 2026 Per.md", date(2026, 10, 29)),
    ("DD.MM.YYYY dd", "Günlük", "Günlük/31.08.2026 Pt.md", date(2026, 8, 31)),
])
def test_month_and_weekday_names_obsidian_writes_in_turkish_date_the_note(
        vault_dir: Path, date_format: str, folder: str, path: str, day: date) -> None:
    # A trial on a Turkish "ikinci beyin" vault: an Obsidian set to Turkish names its daily
    # notes "15 Mart 2024 Cuma"; read in English, German, French, Spanish and Russian only,
    # the format matched none of them and every search by date left the journal out.
    daily_notes(vault_dir, date_format, folder)
    assert day_of(vault_dir, path) == (day, "daily-note format")


CALENDAR = ".obsidian/plugins/calendar/data.json"
SUNDAY_NOON = "2025-12-14T12:00:00+00:00"


@pytest.fixture
def sunday_first(tmp_path: Path) -> Path:
    """A vault whose Calendar plugin starts weeks on Sunday, with the daily notes around Sunday 14 December 2025."""
    root = tmp_path / "vault"
    write_file(root, ".vaultmem.toml", CONFIG)
    write_file(root, COMMUNITY, json.dumps(["calendar", "obsidian-tasks-plugin"]))
    write_file(root, CALENDAR, json.dumps({"shouldConfirmBeforeCreate": True, "weekStart": "sunday", "wordsPerDot": 250,
                                           "showWeeklyNote": False, "localeOverride": "system-default"}))
    for day in ("2025-12-06", "2025-12-07", "2025-12-13", "2025-12-14", "2025-12-15"):
        write_file(root, f"Daily/{day}.md", f"- [ ] standup notes of {day}\n")
    return root


def listed_days(root: Path, since: str, until: str) -> list[str]:
    result = run_json(root, "list", "--since", since, "--until", until, "--as-of", SUNDAY_NOON)
    assert isinstance(result, dict), result
    return sorted(note["path"].removeprefix("Daily/").removesuffix(".md") for note in result["notes"])


def test_this_week_and_last_week_start_on_the_calendar_plugins_first_day_of_the_week(sunday_first: Path) -> None:
    # Asked on Sunday 14 December in a vault whose weeks start on Sunday, "this week" was the
    # ISO week that ends that day (8 … 14 December): the six days before, which its owner calls
    # last week (a trial on a task vault).
    assert listed_days(sunday_first, "this week", "this week") == ["2025-12-14", "2025-12-15"]
    assert listed_days(sunday_first, "last week", "last week") == ["2025-12-07", "2025-12-13"]
    assert listed_days(sunday_first, "2025-W50", "2025-W50") == ["2025-12-13", "2025-12-14"]  # a week's ISO name stays ISO


def test_a_calendar_plugin_turned_off_or_starting_weeks_by_locale_leaves_iso_weeks(sunday_first: Path) -> None:
    write_file(sunday_first, COMMUNITY, json.dumps(["obsidian-tasks-plugin"]))
    assert listed_days(sunday_first, "this week", "this week") == ["2025-12-13", "2025-12-14"]
    write_file(sunday_first, COMMUNITY, json.dumps(["calendar"]))
    write_file(sunday_first, CALENDAR, json.dumps({"weekStart": "locale"}))
    assert listed_days(sunday_first, "this week", "this week") == ["2025-12-13", "2025-12-14"]


def test_a_week_start_that_is_no_day_is_reported_by_check_and_leaves_iso_weeks(sunday_first: Path) -> None:
    write_file(sunday_first, CALENDAR, json.dumps({"weekStart": "Sunnday"}))
    assert load_daily_format(sunday_first).week_start == 0
    result = run_cli(sunday_first, "check")
    assert f"{CALENDAR}: weekStart: 'Sunnday' is no day of the week" in result.output
    assert "Settings → Calendar" in result.output
    assert listed_days(sunday_first, "this week", "this week") == ["2025-12-13", "2025-12-14"]


def test_a_portuguese_or_italian_daily_note_format_reads_its_names_short_ones_that_are_english_words_too() -> None:
    # Where the vault's format says a month stands, "set" is September (in free text it is an
    # English word, and dates nothing: month_names.ENGLISH_WORD_NAMES).
    assert parse_moment_format("dddd, D [de] MMMM [de] YYYY").day("sexta-feira, 15 de março de 2024") == date(2024, 3, 15)
    assert parse_moment_format("dddd D MMMM YYYY").day("venerdì 15 marzo 2024") == date(2024, 3, 15)
    assert parse_moment_format("ddd, DD MMM YYYY").day("Sex, 15 set 2024") == date(2024, 9, 15)
    assert parse_moment_format("DD MMM YYYY").day("04 out 2024") == date(2024, 10, 4)
    assert parse_moment_format("dd DD MMM YYYY").day("6ª 15 mag 2024") == date(2024, 5, 15)


@pytest.mark.parametrize(("date_format", "name", "day"), [
    ("dddd Do MMMM YYYY", "vendredi 1er mai 2026", date(2026, 5, 1)),  # moment's fr.js: the first is 1er ...
    ("dddd Do MMMM YYYY", "lundi 4 mai 2026", date(2026, 5, 4)),  # ... any other day its number alone
    ("dddd, Do MMMM YYYY", "Montag, 4. Mai 2026", date(2026, 5, 4)),  # de.js: 4.
    ("Do [de] MMMM [de] YYYY", "4º de mayo de 2026", date(2026, 5, 4)),  # es.js, pt.js, it.js: 4º
    ("Do MMMM YYYY", "4-го травня 2026", date(2026, 5, 4)),  # uk.js and ru.js: 4-го
    ("MMMM Do, YYYY", "May 4th, 2026", date(2026, 5, 4)),
])
def test_an_ordinal_day_is_read_as_moment_writes_it_in_the_languages_read(date_format: str, name: str, day: date) -> None:
    # A trial on a French vault: under "dddd Do MMMM YYYY", Journal/lundi 4 mai 2026.md was no daily
    # note and `get 2026-05-04` said no note for that day was in the vault (Do was read in English only).
    assert parse_moment_format(date_format).day(name) == day
    assert parse_moment_format("dddd Do MMMM YYYY").day("lundi 4er mai 2026") is None  # "er" is the first's alone


def test_get_by_its_day_opens_a_french_daily_note_named_with_an_ordinal_day(vault_dir: Path) -> None:
    daily_notes(vault_dir, "dddd Do MMMM YYYY", "Journal")
    write_file(vault_dir, "Journal/lundi 4 mai 2026.md", "Réunion avec Delphine à 10h.\n")
    write_file(vault_dir, "Journal/vendredi 1er mai 2026.md", "Férié.\n")
    vault = Vault(vault_dir)
    vault.index()
    assert vault.get("2026-05-04").path == "Journal/lundi 4 mai 2026.md"
    assert vault.get("2026-05-01").path == "Journal/vendredi 1er mai 2026.md"


# ---------------------------------------------------------------- Solar Hijri (Jalali) days

PERSIAN_CALENDAR = ".obsidian/plugins/persian-calendar/data.json"


def test_with_the_persian_calendar_plugin_on_a_solar_hijri_name_is_its_gregorian_day(vault_dir: Path) -> None:
    # A trial on a Persian vault: the plugin names a day's note 1403-05-12.md (Solar Hijri), and
    # vaultmem dated it in 1403 AD: the journal came last in `list`, and `--since 2024` left it out.
    write_file(vault_dir, COMMUNITY, json.dumps(["persian-calendar", "dataview"]))
    write_file(vault_dir, PERSIAN_CALENDAR, json.dumps({"dailyNotesFolderPath": "روزنوشت", "dateFormat": "persian"}))
    assert day_of(vault_dir, "روزنوشت/1403-05-12.md") == (date(2024, 8, 2), "file name")
    assert day_of(vault_dir, "روزنوشت/1403-02-31.md") == (date(2024, 5, 20), "file name")  # 31 days: no Gregorian February
    assert day_of(vault_dir, "روزنوشت/1402-12-30.md") is None  # not a leap year: no such day
    assert day_of(vault_dir, "2024-08-02 meeting.md") == (date(2024, 8, 2), "file name")  # Gregorian names as before
    daily_notes(vault_dir, "YYYY-MM-DD", "روزنوشت")  # the core plugin's format over the same folder
    assert day_of(vault_dir, "روزنوشت/1403-05-13.md") == (date(2024, 8, 3), "daily-note format")
    write_file(vault_dir, COMMUNITY, json.dumps(["dataview"]))  # turned off: names are Gregorian again
    assert day_of(vault_dir, "روزنوشت/1403-05-13.md") == (date(1403, 5, 13), "daily-note format")


def test_the_persian_calendar_turned_on_dates_the_indexed_journal_anew(vault_dir: Path) -> None:
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "روزنوشت/1403-05-12.md", "امروز ۴۵ دقیقه دویدم.\n")
    with Vault(vault_dir) as vault:
        assert [hit.path for hit in vault.search("دویدم", k=5, now=NOW, since="2024-01-01")] == []  # 1403 AD
    write_file(vault_dir, COMMUNITY, json.dumps(["persian-calendar"]))  # an unchanged note, dated anew
    with Vault(vault_dir) as vault:
        found = {hit.path: hit.date for hit in vault.search("دویدم", k=5, now=NOW, since="2024-08-02", until="2024-08-02")}
    assert found == {"روزنوشت/1403-05-12.md": "2024-08-02"}


def test_get_by_its_gregorian_day_opens_the_solar_hijri_daily_note_the_plugin_named(vault_dir: Path) -> None:
    """Was (a trial on a Persian vault): `1403-05-12.md` was dated 2024-08-02 (list and --since found it),
    but `get 2024-08-02` said "no daily note for 2024-08-02": it compared the name as a Gregorian day."""
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, COMMUNITY, json.dumps(["persian-calendar"]))
    write_file(vault_dir, "روزنوشت/1403-05-12.md", "امروز ۴۵ دقیقه دویدم.\n")
    write_file(vault_dir, "روزنوشت/1403-05-13.md", "باران.\n")
    with Vault(vault_dir) as vault:
        view = vault.get("2024-08-02")
        assert (view.path, view.as_dict()["resolved_from"]["via"]) == ("روزنوشت/1403-05-12.md", "day")
        assert [note.path for note in vault.list_notes(since="2024-08-02", until="2024-08-02")] == ["روزنوشت/1403-05-12.md"]


def test_with_the_persian_calendar_plugin_on_a_date_property_with_a_solar_hijri_year_is_that_calendars_day(
        vault_dir: Path) -> None:
    """Was: `date: 1403-05-11` (ASCII digits, as the plugin's vault writes its days) dated a note in
    1403 AD beside its journal of 2024; a day that calendar lacks is said by check."""
    write_file(vault_dir, COMMUNITY, json.dumps(["persian-calendar"]))
    assert day_of(vault_dir, "book.md", {"date": date(1403, 5, 11)}) == (date(2024, 8, 1), "date")  # YAML's date
    assert day_of(vault_dir, "book.md", {"date": "1403-02-31"}) == (date(2024, 5, 20), "date")  # YAML keeps it text
    assert day_of(vault_dir, "book.md", {"date": "۱۴۰۳/۰۵/۱۲"}) == (date(2024, 8, 2), "date")
    assert day_of(vault_dir, "book.md", {"date": date(2024, 8, 1)}) == (date(2024, 8, 1), "date")  # Gregorian as before
    write_file(vault_dir, "bad.md", "---\ndate: 1402-12-30\n---\nNo such day: 1402 is no leap year.\n")
    result = run_cli(vault_dir, "check")
    said = [line for line in result.stdout.splitlines() if line.startswith("! bad.md")]
    assert said and "read as a Solar Hijri day, and this is no day of that calendar" in said[0], result.stdout
    write_file(vault_dir, COMMUNITY, json.dumps(["dataview"]))  # turned off: the day of 1403 AD it spells
    assert day_of(vault_dir, "book.md", {"date": date(1403, 5, 11)}) == (date(1403, 5, 11), "date")


def test_a_day_in_persian_digits_with_a_solar_hijri_year_is_no_gregorian_day_and_check_names_the_day_it_is(vault_dir: Path) -> None:
    write_file(vault_dir, "books.md", "---\ndate: ۱۴۰۳/۰۵/۱۲\n---\nبوف کور\n")
    write_file(vault_dir, "run.md", "---\ndate: ۱۴۰۳-۰۵-۱۲\n---\nدویدم\n")  # was read as 1403-05-12 AD
    write_file(vault_dir, "rain.md", "---\ndate: ۲۰۲۴-۰۸-۰۲\n---\nباران\n")  # a Gregorian year in Persian digits: that day
    assert day_of(vault_dir, "run.md", {"date": "۱۴۰۳-۰۵-۱۲"}) is None
    assert day_of(vault_dir, "۱۴۰۳-۰۵-۱۲.md") is None  # a name alike
    assert day_of(vault_dir, "rain.md", {"date": "۲۰۲۴-۰۸-۰۲"}) == (date(2024, 8, 2), "date")
    result = run_cli(vault_dir, "check")
    for name in ("books.md", "run.md"):
        said = [line for line in result.stdout.splitlines() if line.startswith(f"! {name}")]
        assert said and "Solar Hijri" in said[0], result.stdout
    assert result.stdout.count("fix: write it as 2024-08-02") == 2, result.stdout


def test_remember_refuses_a_solar_hijri_date_and_names_the_gregorian_day(vault_dir: Path) -> None:
    # `remember --date ۱۴۰۳/۰۵/۱۲` wrote `date: 1403-05-12`: a memory of six centuries ago.
    result = run_cli(vault_dir, "remember", "کتاب بوف کور را به سارا دادم", "--date", "۱۴۰۳/۰۵/۱۲")
    assert result.exit_code == 2, result.output
    assert "Solar Hijri" in result.stderr and "give the Gregorian day, 2024-08-02" in result.stderr, result.stderr
    assert not (vault_dir / "memories").exists()  # nothing written
    result = run_cli(vault_dir, "remember", "کتاب بوف کور را به سارا دادم", "--date", "2024-08-02")
    assert result.exit_code == 0, result.output



def test_a_bound_in_persian_digits_is_read_and_a_solar_hijri_one_names_the_gregorian_day(vault_dir: Path) -> None:
    # A Persian keyboard types ۲۰۲۴-۰۸-۰۳: refused as "neither a date nor a duration".
    write_file(vault_dir, ".vaultmem.toml", CONFIG)
    write_file(vault_dir, "2024-08-03 run.md", "دویدم\n")
    result = run_cli(vault_dir, "list", "--since", "۲۰۲۴-۰۸-۰۳", "--until", "۲۰۲۴-۰۸-۰۳")
    assert result.exit_code == 0 and "2024-08-03 run.md" in result.stdout, result.output
    result = run_cli(vault_dir, "list", "--since", "۱۴۰۳/۰۵/۱۳")
    assert result.exit_code == 2 and "Solar Hijri" in result.stderr and "give the Gregorian day, 2024-08-03" in result.stderr, result.output
