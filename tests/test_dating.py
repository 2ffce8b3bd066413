"""Search by date: a note's date (its date property, a date in its file name, its created) and
`--since` / `--until` (dating.py), through the API, the CLI, explain and the MCP server."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from helpers import run_cli
from mcp_client import note, run, serve
from vaultmem import Vault
from vaultmem.dating import note_date, since_bound, until_bound
from vaultmem.errors import UsageError

NOW = "2026-12-01T12:00:00+00:00"
NOW_TIME = datetime(2026, 12, 1, 12, tzinfo=UTC)


def test_a_notes_date_is_its_date_property_then_its_file_name_then_its_created() -> None:
    both = note_date({"date": "2026-11-20", "created": "2026-11-30T09:00:00Z"}, "Daily/2026-11-25.md")
    assert both is not None and (both.moment, both.source) == (datetime(2026, 11, 20, tzinfo=UTC), "date")
    named = note_date({"created": "2026-11-30"}, "Daily/2026-11-25 Standup.md")
    assert named is not None and (named.moment.day, named.source) == (25, "file name")
    created = note_date({"created": "2026-11-30T09:00:00+01:00"}, "memories/tea.md")
    assert created is not None and created.moment == datetime(2026, 11, 30, 8, tzinfo=UTC)


def test_a_value_that_is_not_a_date_is_passed_over_not_taken_for_one() -> None:
    # A template's placeholder, a month that does not exist, a number in a name that only looks like a date.
    templated = note_date({"date": "{{date}}", "created": "2023-09-12"}, "Notes/Plan 2026-13-45.md")
    assert templated is not None and (templated.source, templated.moment.year) == ("created", 2023)
    assert note_date({"date": ["2026-11-20", "2026-11-21"]}, "notes/2026112.md") is None  # two days: neither; 7 digits: no day
    assert note_date({}, "notes/a note.md") is None


def test_bounds_are_dates_times_or_durations_back_from_now_and_a_date_alone_ends_with_its_day() -> None:
    # Whole days reach back to the start of that day: at noon, 1d keeps yesterday's daily note (dated midnight).
    assert since_bound("7d", NOW_TIME) == datetime(2026, 11, 24, tzinfo=UTC)
    assert since_bound("1d", NOW_TIME) == datetime(2026, 11, 30, tzinfo=UTC)
    assert since_bound("36h", NOW_TIME) == datetime(2026, 11, 30, tzinfo=UTC)  # hours are exact: noon minus 36 h
    assert since_bound("24h", NOW_TIME) == datetime(2026, 11, 30, 12, tzinfo=UTC)  # a day said in hours too
    assert since_bound("30m", NOW_TIME) == datetime(2026, 12, 1, 11, 30, tzinfo=UTC)
    assert since_bound("2026-11-23", NOW_TIME) == datetime(2026, 11, 23, tzinfo=UTC)
    end_of_29th = datetime(2026, 11, 29, 23, 59, 59, 999999, tzinfo=UTC)
    assert until_bound("2026-11-29", NOW_TIME) == end_of_29th
    assert until_bound("20261129", NOW_TIME) == until_bound("2026-W48-7", NOW_TIME) == end_of_29th  # every spelling of a day
    assert until_bound("2026-11-29T10:00:00+02:00", NOW_TIME) == datetime(2026, 11, 29, 8, tzinfo=UTC)
    assert until_bound("9999-12-31", NOW_TIME) == datetime.max.replace(tzinfo=UTC)  # was an OverflowError
    with pytest.raises(UsageError, match="'soon' is neither a date nor a duration: give an ISO date"):
        since_bound("soon", NOW_TIME)
    with pytest.raises(UsageError, match="longer than 365000d"):
        since_bound("1000000d", NOW_TIME)
    with pytest.raises(UsageError, match="reaches back before year 1"):
        since_bound("3650d", datetime(5, 1, 1, tzinfo=UTC))


def test_a_bound_that_names_a_year_month_week_or_day_covers_all_of_it() -> None:
    # Before: 2026-W48 as --until ended on its Monday, and 2026-11, 2026, today were refused.
    assert (since_bound("2026-11", NOW_TIME), until_bound("2026-11", NOW_TIME)) == (
        datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 11, 30, 23, 59, 59, 999999, tzinfo=UTC))
    assert (since_bound("2026-W48", NOW_TIME), until_bound("2026-w48", NOW_TIME)) == (
        datetime(2026, 11, 23, tzinfo=UTC), datetime(2026, 11, 29, 23, 59, 59, 999999, tzinfo=UTC))
    assert until_bound("2026W48", NOW_TIME) == until_bound("2026w48", NOW_TIME) == until_bound("2026-W48", NOW_TIME)  # compact too
    assert (since_bound("2026", NOW_TIME), until_bound("2026", NOW_TIME)) == (
        datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC))
    assert until_bound("2026-12", NOW_TIME) == datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)  # across the year's end
    assert since_bound("2026-W01", NOW_TIME) == datetime(2025, 12, 29, tzinfo=UTC)  # ISO weeks start on Monday
    assert (since_bound("today", NOW_TIME), until_bound("Yesterday", NOW_TIME)) == (
        datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 11, 30, 23, 59, 59, 999999, tzinfo=UTC))
    assert until_bound("9999", NOW_TIME) == until_bound("9999-W52", NOW_TIME) == datetime.max.replace(tzinfo=UTC)
    assert until_bound("2026-W48-3", NOW_TIME) == datetime(2026, 11, 25, 23, 59, 59, 999999, tzinfo=UTC)  # a day of a week: that day
    for value in ("2026-13", "2026-W54", "0000", "２０２６"):  # only ASCII digits name a year
        with pytest.raises(UsageError, match=f"'{value}' is neither a date nor a duration: .*a period \\(2026, 2026-11, 2026-W48"):
            since_bound(value, NOW_TIME)


@contextmanager
def local_zone(name: str) -> Iterator[None]:
    """This process's local time zone set to ``name`` (and back, with the zone re-read) for a while."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="needs time.tzset to change the local time zone")
@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "America/Los_Angeles", "UTC"])
def test_today_and_yesterday_are_utc_days_whatever_the_machines_zone(zone: str) -> None:
    # A note's day (2026-12-01 in a daily note's name) is kept as that day's UTC midnight and a
    # created stamp as an instant: only UTC days hold both the same way (adr/0026).
    with local_zone(zone):
        assert (since_bound("today", NOW_TIME), until_bound("yesterday", NOW_TIME)) == (
            datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 11, 30, 23, 59, 59, 999999, tzinfo=UTC))


def test_a_date_property_that_links_a_daily_note_is_that_day() -> None:
    import yaml

    for written in ('"[[2026-11-20]]"', '"[[2026-11-20|Friday]]"', "[[2026-11-20]]",  # the last: YAML's list in a list
                    '"[[Daily/2026-11-20]]"', '"[[Journal/2026/2026-11-20#Evening|that night]]"',
                    '\n  - "[[2026-11-20]]"', "[2026-11-20]",  # a list property of one link or one date
                    '"' + " " * 400 + '[[2026-11-20]]"'):  # padded past the length a link is read to: stripped first
        found = note_date(yaml.safe_load(f"date: {written}"), "meetings/retro.md")
        assert found is not None and found.moment == datetime(2026, 11, 20, tzinfo=UTC), written


def test_a_number_property_is_a_date_only_as_unix_time_not_as_a_zettelkasten_id() -> None:
    assert note_date({"created": 202611301030}, "notes/a.md") is None  # was 1976-06-03, without a word
    dendron = note_date({"created": 1700000000000}, "notes/a.md")
    assert dendron is not None and dendron.moment.date().isoformat() == "2023-11-14"


def test_a_date_property_that_names_no_single_day_is_no_date() -> None:
    import yaml

    for written in ('"[[2026-11-20]] [[2026-11-21]]"', '["2026-11-20", "2026-11-21"]', '"[[Retro 2026-11-20]]"', "[]"):
        assert note_date(yaml.safe_load(f"date: {written}"), "meetings/retro.md") is None, written


@pytest.mark.parametrize("path", [
    "journals/2026_11_20.md",  # Logseq
    "Daily/2026/11/20.md", "Daily/2026/11/2026-11-20.md",  # a folder per year and month
    "20261120.md", "2026.11.20.md", "202611200930 Fleeting idea.md", "20261120093000.md",  # compact; Zettelkasten ids
    "November 20, 2026.md", "20th Nov 2026 retro.md", "Fri 20 November 2026.md",  # a month in words
])
def test_a_day_in_the_names_daily_note_tools_write_is_the_notes_date(path: str) -> None:
    found = note_date({}, path)
    assert found is not None and (found.moment, found.source) == (datetime(2026, 11, 20, tzinfo=UTC), "file name"), path


@pytest.mark.parametrize("path", ["20-11-2026.md", "11-20-2026.md",  # which is the day? nobody can say
                                  "notes/20261345.md", "1234567890123.md", "v2026.11.3.md", "Dec 2026.md", "mayday 12 2026.md",
                                  "Order 4431 Dec 2025.md", "Room 115 May 2026.md",  # a day is not the tail of a number
                                  "Zettel 202611301260.md", "Zettel 202611302400.md"])  # no minute 60, no hour 24
def test_a_number_that_is_no_certain_day_gives_no_date(path: str) -> None:
    assert note_date({}, path) is None, path


@pytest.fixture
def diary(vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> Path:
    write_note("Daily/2026-11-25.md", "Long run along the river; the left knee was sore after ten km.\n")
    write_note("Daily/2026-11-28.md", "Physio said the knee needs rest for a week.\n")
    write_note("journal/retro.md", "---\ndate: 2026-11-02\n---\nThe knee first hurt on the hill repeats.\n")
    write_note("memories/knee.md", note("Knee", "Ice the knee after every run.", layer="L4", created="2026-11-30T08:00:00Z"))
    write_note("notes/undated.md", "Knee exercises: squats against the wall.\n")
    return vault_dir


def test_since_and_until_keep_the_notes_dated_in_the_range_and_leave_out_undated_ones(diary: Path) -> None:
    with Vault(diary) as vault:
        everything = {hit.path for hit in vault.search("knee", k=10, now=NOW)}
        last_week = {hit.path for hit in vault.search("knee", k=10, now=NOW, since="7d")}
        november = {hit.path for hit in vault.search("knee", k=10, now=NOW, since="2026-11-01", until="2026-11-28")}
        one_day = [hit.path for hit in vault.search("knee", k=10, now=NOW, since="2026-11-28", until="2026-11-28")]
        week_48 = {hit.path for hit in vault.search("knee", k=10, now=NOW, since="2026-W48", until="2026-W48")}
    assert everything == {"Daily/2026-11-25.md", "Daily/2026-11-28.md", "journal/retro.md", "memories/knee.md", "notes/undated.md"}
    assert last_week == {"Daily/2026-11-25.md", "Daily/2026-11-28.md", "memories/knee.md"}
    assert november == {"Daily/2026-11-25.md", "Daily/2026-11-28.md", "journal/retro.md"}  # the 28th counts whole
    assert one_day == ["Daily/2026-11-28.md"]
    assert week_48 == {"Daily/2026-11-25.md", "Daily/2026-11-28.md"}  # Monday 23 to Sunday 29, the 28th included


def test_a_search_by_date_says_how_many_notes_it_left_out_for_having_no_date(diary: Path, write_note: Callable[..., Path]) -> None:
    write_note("notes/undated-too.md", "Knee brace ordered.\n")
    write_note("notes/old-expired.md", note("Knee", "Old knee advice.", layer="L1", expires_at="2026-01-01"))  # not eligible anyway
    with Vault(diary) as vault:
        dated = vault.search("knee", k=10, now=NOW, since="30d")
        plain = vault.search("knee", k=10, now=NOW)
        empty = vault.search("  ", k=10, now=NOW, since="30d")  # no search: nothing was left out of it
    assert [warning for warning in dated.warnings if "have no date" in warning] == [
        "2 of the vault's notes that pass the other filters have no date, so --since/--until (since/until) left them out, "
        "whatever they hold: a date "
        "property, a day in the file name (2026-11-30, 2026_11_30, 20261130) or a created stamp gives a note its date; "
        "explain NOTE QUERY says what one has"]
    assert not any("have no date" in warning for warning in plain.warnings)
    assert not empty.warnings
    assert all("have no date" not in warning for hit in dated for warning in hit.warnings)  # about the answer, not a hit


def test_each_hit_says_its_notes_date_and_an_undated_one_says_none(diary: Path) -> None:
    with Vault(diary) as vault:
        dates = {hit.path: hit.date for hit in vault.search("knee", k=10, now=NOW)}
    assert dates == {"Daily/2026-11-25.md": "2026-11-25T00:00:00+00:00", "Daily/2026-11-28.md": "2026-11-28T00:00:00+00:00",
                     "journal/retro.md": "2026-11-02T00:00:00+00:00", "memories/knee.md": "2026-11-30T08:00:00+00:00",
                     "notes/undated.md": None}
    shown = run_cli(diary, "search", "physio rest", "-k", "1", "--as-of", NOW)
    assert "[-, no expiry, dated 2026-11-28]  Daily/2026-11-28.md" in shown.stdout, shown.stdout


def test_a_range_that_ends_before_it_starts_is_refused_naming_both(diary: Path) -> None:
    with Vault(diary) as vault, pytest.raises(UsageError, match="since '2026-12-01' is after until '2026-11-01'"):
        vault.search("knee", now=NOW, since="2026-12-01", until="2026-11-01")
    result = run_cli(diary, "search", "knee", "--since", "next week")
    assert result.exit_code == 2 and "--since 'next week' is neither a date nor a duration" in result.stderr


def test_the_cli_searches_by_date_and_explain_says_which_date_kept_a_note_out(diary: Path) -> None:
    found = run_cli(diary, "search", "knee", "--since", "2026-11-26", "--until", "2026-11-29", "--as-of", NOW)
    assert found.exit_code == 0, found.stderr
    assert "Daily/2026-11-28.md" in found.stdout and "Daily/2026-11-25.md" not in found.stdout
    with Vault(diary) as vault:
        dated = vault.explain("Daily/2026-11-25.md", "knee", since="2026-11-26", now=NOW)
        undated = vault.explain("notes/undated.md", "knee", since="2026-11-26", now=NOW)
    assert not dated.in_answer and dated.ranked_without_filters
    assert any("its date is 2026-11-25T00:00:00+00:00 (from its file name)" in reason for reason in dated.reasons), dated.reasons
    assert any("it has no date" in reason for reason in undated.reasons), undated.reasons


def test_explain_names_a_date_property_that_is_not_a_date(diary: Path, write_note: Callable[..., Path]) -> None:
    write_note("notes/someday.md", "---\ndate: next spring\n---\nKnee surgery, maybe.\n")
    with Vault(diary) as vault:
        why = vault.explain("notes/someday.md", "knee surgery", since="2026-01-01", now=NOW)
    assert any("it has no date (date: \"next spring\" is not a date)" in reason for reason in why.reasons), why.reasons


def test_an_index_made_before_dates_learns_them_without_a_rebuild(diary: Path) -> None:
    # What an index written before the date step looks like: no column, no record of the step.
    # A file whose mtime is 0 (unpacked with SOURCE_DATE_EPOCH=0) is read again too.
    os.utime(diary / "Daily/2026-11-25.md", ns=(0, 0))
    with Vault(diary) as vault:
        vault.index()
    database = sqlite3.connect(diary / ".vaultmem" / "index.db")
    with database:
        database.execute("DROP INDEX notes_dated")
        database.execute("ALTER TABLE notes DROP COLUMN dated_us")
        database.execute("DELETE FROM _migrations WHERE name = '009_note_dates'")
    database.close()
    with Vault(diary) as vault:
        found = {hit.path for hit in vault.search("knee", k=10, now=NOW, since="7d")}
    assert found == {"Daily/2026-11-25.md", "Daily/2026-11-28.md", "memories/knee.md"}


@pytest.mark.slow
def test_recall_over_mcp_takes_since_and_until(diary: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serve(diary, tmp_path / "server.log") as served:
            hits = (await served.call("recall", query="knee", since="2026-11-26", until="2026-11-29"))["hits"]
            assert [(hit["path"], hit["date"]) for hit in hits] == [("Daily/2026-11-28.md", "2026-11-28T00:00:00+00:00")]
            refused = await served.error("recall", query="knee", since="whenever")
            assert "since 'whenever' is neither a date nor a duration" in refused
            why = await served.call("explain", note="Daily/2026-11-25", query="knee", since="2026-11-26")
            assert why["in_answer"] is False and any("from its file name" in reason for reason in why["reasons"])

    run(scenario)
