"""Search by date: a note's date (its date property, a date in its file name, its created) and
`--since` / `--until` (dating.py), through the API, the CLI, explain and the MCP server."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath

import pytest
import yaml

from helpers import run_cli
from mcp_client import note, run, serve
from vaultmem import Vault
from vaultmem.dating import Bound, calendar_day, file_stem, note_date, since_bound, until_bound
from vaultmem.errors import UsageError
from vaultmem.month_names import only_calendar_words

NOW = "2026-12-01T12:00:00+00:00"
NOW_TIME = datetime(2026, 12, 1, 12, tzinfo=UTC)


def test_a_notes_date_is_its_date_property_then_its_file_name_then_its_created() -> None:
    both = note_date({"date": "2026-11-20", "created": "2026-11-30T09:00:00Z"}, "Daily/2026-11-25.md")
    assert both is not None and (both.moment, both.source) == (datetime(2026, 11, 20, tzinfo=UTC), "date")
    named = note_date({"created": "2026-11-30"}, "Daily/2026-11-25 Standup.md")
    assert named is not None and (named.moment.day, named.source) == (25, "file name")
    created = note_date({"created": "2026-11-30T09:00:00+01:00"}, "memories/tea.md")
    assert created is not None and created.moment == datetime(2026, 11, 30, 8, tzinfo=UTC)


def test_a_memory_is_dated_when_it_was_remembered_not_by_a_day_its_title_mentions(
        vault_dir: Path, wordllama: object) -> None:
    # Trial (s31, a personal CRM): remember "Ben Cohen's birthday is 1988-03-14" was dated
    # 1988-03-14 by its file name, the title's slug, and `list --since 7d` left it out.
    with Vault(vault_dir) as vault:
        birthday = vault.remember("Ben Cohen's birthday is 1988-03-14", layer="L4", now="2026-12-01T09:00:00Z")
        again = vault.remember("Ben Cohen's birthday is 1988-03-14, confirmed", title="Ben Cohen's birthday is 1988-03-14",
                               layer="L4", now="2026-12-01T10:00:00Z")
        this_week = {row.path for row in vault.list_notes(since="7d", now="2026-12-01T12:00:00Z")}
        shown = vault.get(birthday.path).date
    assert birthday.path == "memories/ben-cohens-birthday-is-1988-03-14.md"
    assert again.path == "memories/ben-cohens-birthday-is-1988-03-14-2.md"
    assert {birthday.path, again.path} <= this_week
    assert shown is not None and shown.startswith("2026-12-01")
    meta = {"title": "Standup 2026-11-25", "layer": "L2", "created": "2026-11-30T09:00:00Z"}
    remembered_name = note_date(meta, "memories/standup-2026-11-25.md")
    assert remembered_name is not None and remembered_name.moment.day == 30 and remembered_name.written
    # A person's own note, or a memory named otherwise, is still dated by the day in its name.
    for own_meta, path in (({**meta, "layer": None}, "memories/standup-2026-11-25.md"),
                           (meta, "Daily/2026-11-25.md"), ({**meta, "created": None}, "memories/standup-2026-11-25.md")):
        named = note_date(own_meta, path)
        assert named is not None and (named.moment.day, named.source) == (25, "file name"), path


def test_a_memory_whose_yaml_a_person_broke_keeps_its_title_and_day_in_a_listing_by_date(
        vault_dir: Path, write_note: Callable[..., Path]) -> None:
    # Trial (s38, an agent's week on kepano): a person added `note: she said: call me after 6` to a
    # memory; only its id, layer and expiry were read line by line, so `list_notes(since="this week")`
    # counted it among the notes without a date, and it was named by its file, not its title.
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    write_note("memories/ana-friend-architect-is-helping-with-the-flat.md",
               "---\nid: 01M8XB47DCT740S0565CDCV382\ntitle: Ana (friend, architect) is helping with the flat search\n"
               "layer: L3\nnote: she said: call me after 6\ntags:\n  - people\ncreated: 2026-11-30T06:58:01+00:00\n"
               "expires_at: 2027-03-03T06:58:01+00:00\n---\nAna knows people in Alfama.\n")
    write_note("Journal/undated thoughts.md", "No date anywhere.\n")
    with Vault(vault_dir) as vault:
        listed = vault.list_notes(since="7d", now=NOW)
        got = vault.get("01M8XB47DCT740S0565CDCV382")
        problems = [problem.field for problem in vault.check().problems]
    [row] = listed
    assert (row.path, row.title) == ("memories/ana-friend-architect-is-helping-with-the-flat.md",
                                     "Ana (friend, architect) is helping with the flat search")
    assert got.date is not None and got.date.startswith("2026-11-30")
    assert problems == ["frontmatter"]  # the broken YAML is still named; nothing else is said of the note


def test_a_value_that_is_not_a_date_is_passed_over_not_taken_for_one() -> None:
    # A template's placeholder, a month that does not exist, a number in a name that only looks like a date.
    templated = note_date({"date": "{{date}}", "created": "2023-09-12"}, "Notes/Plan 2026-13-45.md")
    assert templated is not None and (templated.source, templated.moment.year) == ("created", 2023)
    assert note_date({"date": ["2026-11-20", "2026-11-21"]}, "notes/2026112.md") is None  # two days: neither; 7 digits: no day
    assert note_date({}, "notes/a note.md") is None


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0, microsecond: int = 0) -> Bound:
    """A bound that is one instant for both kinds of date (as every bound is on a UTC machine)."""
    return Bound.exact(datetime(year, month, day, hour, minute, second, microsecond, tzinfo=UTC))


def test_bounds_are_dates_times_or_durations_back_from_now_and_a_date_alone_ends_with_its_day() -> None:
    # Whole days reach back to the start of that day: at noon, 1d keeps yesterday's daily note (dated midnight).
    with local_zone("UTC"):
        assert since_bound("7d", NOW_TIME) == at(2026, 11, 24)
        assert since_bound("1d", NOW_TIME) == at(2026, 11, 30)
        assert since_bound("36h", NOW_TIME) == at(2026, 11, 30)  # hours are exact: noon minus 36 h
        # A bound that is one instant is exact for instants; a day's note passes when its day holds it.
        assert since_bound("24h", NOW_TIME) == Bound(at(2026, 11, 30).day, at(2026, 11, 30, 12).instant)  # a day said in hours too
        assert since_bound("30m", NOW_TIME) == Bound(at(2026, 12, 1).day, at(2026, 12, 1, 11, 30).instant)
        assert since_bound("2026-11-23", NOW_TIME) == at(2026, 11, 23)
        end_of_29th = at(2026, 11, 29, 23, 59, 59, 999999)
        assert until_bound("2026-11-29", NOW_TIME) == end_of_29th
        assert until_bound("20261129", NOW_TIME) == until_bound("2026-W48-7", NOW_TIME) == end_of_29th  # every spelling of a day
        assert until_bound("2026-11-29T10:00:00+02:00", NOW_TIME) == Bound(end_of_29th.day, at(2026, 11, 29, 8).instant)
        assert until_bound("9999-12-31", NOW_TIME) == Bound.exact(datetime.max.replace(tzinfo=UTC))  # was an OverflowError
    with pytest.raises(UsageError, match="'soon' is neither a date nor a duration: give an ISO date"):
        since_bound("soon", NOW_TIME)
    with pytest.raises(UsageError, match="longer than 365000d"):
        since_bound("1000000d", NOW_TIME)
    with pytest.raises(UsageError, match="reaches back before year 1"):
        since_bound("3650d", datetime(5, 1, 1, tzinfo=UTC))


def test_a_duration_with_its_sign_as_as_of_takes_one_is_a_bound_too(vault_dir: Path) -> None:
    """Was (s31, a first hour with the CLI): `--since -7d`, typed as `--as-of` asks for a
    duration, was refused as "neither a date nor a duration"; over MCP too."""
    with local_zone("UTC"):
        assert since_bound("-7d", NOW_TIME) == since_bound("7d", NOW_TIME) == at(2026, 11, 24)
        assert since_bound("- 36h", NOW_TIME) == since_bound("36h", NOW_TIME)
        assert until_bound("-1w3d", NOW_TIME) == until_bound("1w3d", NOW_TIME)
        assert since_bound("+7d", NOW_TIME) == at(2026, 12, 8)  # ahead: from the start of that day
        assert until_bound("+12h", NOW_TIME) == Bound(at(2026, 12, 2, 23, 59, 59, 999999).day, at(2026, 12, 2).instant)
    with pytest.raises(UsageError, match="'-7x' is neither a date nor a duration"):
        since_bound("-7x", NOW_TIME)
    (vault_dir / "Daily").mkdir()
    for day in ("2026-11-20", "2026-11-28", "2026-12-05"):
        (vault_dir / "Daily" / f"{day}.md").write_text(f"Standup notes of {day}\n", encoding="utf-8")
    listed = run_cli(vault_dir, "list", "--since", "-7d", "--until", "+7d", "--as-of", NOW, "--json")
    assert listed.exit_code == 0, listed.output
    assert [row["path"] for row in json.loads(listed.stdout)["notes"]] == ["Daily/2026-12-05.md", "Daily/2026-11-28.md"]


def test_a_bound_that_names_a_year_month_week_or_day_covers_all_of_it() -> None:
    # Before: 2026-W48 as --until ended on its Monday, and 2026-11, 2026, today were refused.
    with local_zone("UTC"):
        assert (since_bound("2026-11", NOW_TIME), until_bound("2026-11", NOW_TIME)) == (
            at(2026, 11, 1), at(2026, 11, 30, 23, 59, 59, 999999))
        assert (since_bound("2026-W48", NOW_TIME), until_bound("2026-w48", NOW_TIME)) == (
            at(2026, 11, 23), at(2026, 11, 29, 23, 59, 59, 999999))
        assert until_bound("2026W48", NOW_TIME) == until_bound("2026w48", NOW_TIME) == until_bound("2026-W48", NOW_TIME)  # compact too
        assert (since_bound("2026", NOW_TIME), until_bound("2026", NOW_TIME)) == (at(2026, 1, 1), at(2026, 12, 31, 23, 59, 59, 999999))
        assert until_bound("2026-12", NOW_TIME) == at(2026, 12, 31, 23, 59, 59, 999999)  # across the year's end
        assert since_bound("2026-W01", NOW_TIME) == at(2025, 12, 29)  # ISO weeks start on Monday
        assert (since_bound("today", NOW_TIME), until_bound("Yesterday", NOW_TIME)) == (
            at(2026, 12, 1), at(2026, 11, 30, 23, 59, 59, 999999))
        end_of_time = Bound.exact(datetime.max.replace(tzinfo=UTC))
        assert until_bound("9999", NOW_TIME) == until_bound("9999-W52", NOW_TIME) == end_of_time
        assert until_bound("2026-W48-3", NOW_TIME) == at(2026, 11, 25, 23, 59, 59, 999999)  # a day of a week: that day
    with pytest.raises(UsageError, match="'２０２６' is neither a date nor a duration: .*a period \\(2026, 2026-11, 2026-W48"):
        since_bound("２０２６", NOW_TIME)  # only ASCII digits name a year


@pytest.mark.parametrize(("value", "why"), [
    ("2025-W53", "2025 has 52 ISO weeks (2025-W01 to 2025-W52)"),  # was: "neither a date nor a duration"
    ("2026-W54", "2026 has 53 ISO weeks (2026-W01 to 2026-W53)"),
    ("2026W00", "2026 has 53 ISO weeks"),
    ("2026-13", "months are 01 to 12 (2026-01 to 2026-12)"),
    ("0000", "years start at 0001"),
])
def test_a_period_that_does_not_exist_is_refused_saying_which_part_is_wrong(value: str, why: str) -> None:
    with pytest.raises(UsageError, match=f"'{value}' names no period: {re.escape(why)}"):
        until_bound(value, NOW_TIME)


@pytest.mark.parametrize(("value", "why"), [
    ("2025-02-30", "February 2025 has 28 days (2025-02-01 to 2025-02-28)"),  # was: "neither a date nor a duration"
    ("2024-02-30", "February 2024 has 29 days"),
    ("2026-04-31", "April 2026 has 30 days"),
    ("2026-13-01", "months are 01 to 12"),
])
def test_a_day_that_does_not_exist_is_refused_saying_why(value: str, why: str) -> None:
    with pytest.raises(UsageError, match=f"'{value}' names no day: {re.escape(why)}"):
        since_bound(value, NOW_TIME)


def test_a_bound_written_as_chinese_japanese_and_korean_write_a_date_is_that_day_month_or_year() -> None:
    # A trial on a Japanese vault: --since 2025年4月20日 was "neither a date nor a duration",
    # though a note named or dated 2025年4月20日 is dated so (as an agent passes on what was said).
    with local_zone("UTC"):
        assert since_bound("2025年4月20日", NOW_TIME) == since_bound("2025-04-20", NOW_TIME)
        assert since_bound("２０２５年４月２０日", NOW_TIME) == since_bound("2025-04-20", NOW_TIME)  # as a Japanese keyboard types it
        assert until_bound("2025年4月", NOW_TIME) == until_bound("2025-04", NOW_TIME)  # the whole month
        assert until_bound("2025년 4월 20일", NOW_TIME) == until_bound("2025-04-20", NOW_TIME)
        assert since_bound("2025年", NOW_TIME) == since_bound("2025", NOW_TIME)
    with pytest.raises(UsageError, match="'2025年2月30日' names no day: February 2025 has 28 days"):
        since_bound("2025年2月30日", NOW_TIME)
    with pytest.raises(UsageError, match=f"is a day without its year: give the year too, such as '{NOW_TIME.year}年4月20日' "
                       f"or {NOW_TIME.year}-04-20"):
        since_bound("4月20日", NOW_TIME)  # no year: which one is not guessed (was "neither a date nor a duration")
    with pytest.raises(UsageError, match=f"such as '{NOW_TIME.year}년 4월 15일'"):
        until_bound("4월 15일", NOW_TIME)  # a trial on a Korean vault


@pytest.mark.parametrize("value", ["2025.04.20", "2025.4.20", "2025. 4. 20.", "2025/04/20", "2025/4/20"])
def test_a_bound_written_year_first_with_dots_or_slashes_is_that_day(value: str) -> None:
    # A trial on a Korean vault: --since 2026.04.15, as Korean writes a day (and names daily notes:
    # 2026.04.15.md is dated), was "neither a date nor a duration". Year first, no order is guessed.
    with local_zone("UTC"):
        assert since_bound(value, NOW_TIME) == since_bound("2025-04-20", NOW_TIME)
        assert until_bound(value, NOW_TIME) == until_bound("2025-04-20", NOW_TIME)
    with pytest.raises(UsageError, match="names no day: February 2025 has 28 days"):
        since_bound("2025.02.30", NOW_TIME)
    with pytest.raises(UsageError, match="is neither a date nor a duration"):
        since_bound("2025.04/20", NOW_TIME)  # two separators: no shape


def test_a_bound_with_its_month_in_words_or_its_day_first_by_its_number_is_that_day_or_month() -> None:
    # A trial on a German vault whose daily notes are 14.09.2026.md: --since 14.09.2026 and
    # --since "14. September 2026" were "neither a date nor a duration", though notes named so are dated so.
    with local_zone("UTC"):
        assert since_bound("14.09.2026", NOW_TIME) == since_bound("2026-09-14", NOW_TIME)
        assert since_bound("14. September 2026", NOW_TIME) == since_bound("2026-09-14", NOW_TIME)
        assert since_bound("14 septembre 2026", NOW_TIME) == since_bound("2026-09-14", NOW_TIME)
        assert until_bound("September 14, 2026", NOW_TIME) == until_bound("2026-09-14", NOW_TIME)
        assert until_bound("März 2026", NOW_TIME) == until_bound("2026-03", NOW_TIME)  # the whole month
        assert since_bound("Sept. 2026", NOW_TIME) == since_bound("2026-09", NOW_TIME)


def test_a_bound_of_a_month_said_in_spanish_or_the_first_said_in_french_is_that_month_or_day() -> None:
    # A trial on a Spanish vault: --since "marzo de 2024" was "neither a date nor a duration",
    # though "15 de marzo de 2024" and "marzo 2024" were read; French "1er avril 2024" too.
    with local_zone("UTC"):
        assert since_bound("marzo de 2024", NOW_TIME) == since_bound("2024-03", NOW_TIME)
        assert until_bound("Marzo del 2024", NOW_TIME) == until_bound("2024-03", NOW_TIME)
        assert since_bound("1er avril 2024", NOW_TIME) == since_bound("2024-04-01", NOW_TIME)
    with pytest.raises(UsageError, match="is neither a date nor a duration"):
        since_bound("11er avril 2024", NOW_TIME)  # "er" is the first's alone


@pytest.mark.parametrize("value", ["lundi 4 mai 2026", "Lundi, 4 Mai 2026", "lun. 4 mai 2026", "Monday, May 4th 2026",
                                   "Montag, 4. Mai 2026", "4 Mayıs 2026 Pazartesi", "segunda-feira, 4 de maio de 2026"])
def test_a_bound_named_as_a_daily_note_with_its_weekday_is_that_day(value: str) -> None:
    # A trial on a French vault: --since "lundi 4 mai 2026" (a daily note's name under dddd D MMMM
    # YYYY) was "neither a date nor a duration", though the refusal said to give a day "as a daily
    # note's name writes it"; so were the English, German, Turkish and Portuguese names of that day.
    with local_zone("UTC"):
        assert since_bound(value, NOW_TIME) == since_bound("2026-05-04", NOW_TIME)
        assert until_bound(value, NOW_TIME) == until_bound("2026-05-04", NOW_TIME)


def test_a_bound_whose_weekday_is_not_its_days_is_refused_naming_both() -> None:
    with pytest.raises(UsageError, match=r"'mardi 4 mai 2026' names 'mardi', but 2026-05-04 is a Monday: give the day "
                                         r"alone \('4 mai 2026' or 2026-05-04\)"):
        since_bound("mardi 4 mai 2026", NOW_TIME)
    with pytest.raises(UsageError, match="is neither a date nor a duration"):
        since_bound("lundi 4 mai 2026 budget", NOW_TIME)  # a word that is no weekday: no day in words alone


def test_a_bound_written_day_first_with_slashes_is_that_day_when_only_one_order_is_a_day() -> None:
    # A trial on a French vault, whose notes write days so ("déposée le 19/01/2026"): --since
    # 14/09/2026 was "neither a date nor a duration" while 14.09.2026 was read.
    with local_zone("UTC"):
        assert since_bound("14/09/2026", NOW_TIME) == since_bound("2026-09-14", NOW_TIME)
        assert until_bound("19/1/2026", NOW_TIME) == until_bound("2026-01-19", NOW_TIME)
    with pytest.raises(UsageError, match=r"'05/09/2026' is a day and a month in an order no shape tells: give 2026-09-05 or 2026-05-09"):
        since_bound("05/09/2026", NOW_TIME)
    with pytest.raises(UsageError, match="names no day in either order"):
        since_bound("31/02/2026", NOW_TIME)


@pytest.mark.parametrize(("value", "accented"), [("fevrier 2026", "février 2026"), ("13 aout 2026", "13 août 2026"),
                                               ("Marz 2024", "März 2024"), ("15 Subat 2024", "15 Şubat 2024")])
def test_a_bound_whose_month_is_typed_without_its_accents_is_refused_giving_it_with_them(value: str, accented: str) -> None:
    # A trial on a French vault: --since "aout 2026" (a keyboard without accents) got the refusal of
    # any unreadable bound, with no word on the month; names are read as written (adr/0026).
    with pytest.raises(UsageError, match=f"'{value}' is no date: month names are read as written, accents too: give '{accented}'"):
        since_bound(value, NOW_TIME)
    with local_zone("UTC"):
        assert since_bound(accented, NOW_TIME) is not None  # the bound suggested is one


@pytest.mark.parametrize(("value", "why"), [
    ("05.09.2026", "is a day and a month in an order no shape tells: give 2026-09-05 or 2026-05-09"),
    ("31.02.2026", "names no day in either order"),
    ("31. Februar 2026", "names no day: February 2026 has 28 days"),
])
def test_a_bound_in_numbers_whose_order_is_open_or_that_is_no_day_is_refused_saying_so(value: str, why: str) -> None:
    with pytest.raises(UsageError, match=f"'{re.escape(value)}' {re.escape(why)}"):
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


needs_tzset = pytest.mark.skipif(not hasattr(time, "tzset"), reason="needs time.tzset to change the local time zone")


@needs_tzset
@pytest.mark.parametrize(("zone", "today", "today_starts"), [
    # At 12:00Z on 1 December: 02:00 on the 2nd at Kiritimati (+14), 04:00 on the 1st in Los Angeles (-8).
    ("Pacific/Kiritimati", datetime(2026, 12, 2, tzinfo=UTC), datetime(2026, 12, 1, 10, tzinfo=UTC)),
    ("America/Los_Angeles", datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 1, 8, tzinfo=UTC)),
    ("UTC", datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)),
])
def test_today_and_yesterday_are_this_machines_calendar_days(zone: str, today: datetime, today_starts: datetime) -> None:
    # Before: UTC days everywhere, so at 8 pm in Los Angeles `today` was already tomorrow. A day's
    # label (a daily note's name) is compared with the day's label (today: its midnight UTC), an
    # instant (a created stamp) with the local midnights (adr/0026).
    with local_zone(zone):
        since, until = since_bound("today", NOW_TIME), until_bound("yesterday", NOW_TIME)
    just_before = timedelta(microseconds=1)
    assert since == Bound(day=today, instant=today_starts)
    assert until == Bound(day=today - just_before, instant=today_starts - just_before)  # yesterday ends where today starts


@needs_tzset
def test_days_a_bound_names_are_local_days_and_a_bound_with_a_time_is_one_instant() -> None:
    at_night = datetime(2026, 12, 1, 4, tzinfo=UTC)  # 20:00 on 30 November in Los Angeles
    with local_zone("America/Los_Angeles"):
        assert since_bound("2026-11-30", at_night) == Bound(datetime(2026, 11, 30, tzinfo=UTC), datetime(2026, 11, 30, 8, tzinfo=UTC))
        assert until_bound("2026-11-30", at_night) == Bound(datetime(2026, 11, 30, 23, 59, 59, 999999, tzinfo=UTC),
                                                            datetime(2026, 12, 1, 7, 59, 59, 999999, tzinfo=UTC))
        assert since_bound("7d", at_night) == Bound(datetime(2026, 11, 23, tzinfo=UTC), datetime(2026, 11, 23, 8, tzinfo=UTC))
        assert since_bound("2026-11", at_night) == Bound(datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 11, 1, 7, tzinfo=UTC))  # summer time
        # A bound that is one instant: exact for instants; for days, the local day holding it, whole
        # (16:00Z on the 29th is 08:00 on the 29th there; 04:00Z on 1 December is 20:00 on the 30th).
        assert since_bound("36h", at_night) == Bound(datetime(2026, 11, 29, tzinfo=UTC), datetime(2026, 11, 29, 16, tzinfo=UTC))
        assert until_bound("2026-11-30T20:00:00-08:00", at_night) == Bound(datetime(2026, 11, 30, 23, 59, 59, 999999, tzinfo=UTC),
                                                                          datetime(2026, 12, 1, 4, tzinfo=UTC))
    morning = datetime(2026, 11, 30, 23, tzinfo=UTC)  # 08:00 on 1 December in Tokyo
    with local_zone("Asia/Tokyo"):
        assert since_bound("today", morning) == Bound(datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 11, 30, 15, tzinfo=UTC))
        assert since_bound("2026-W49", morning) == Bound(datetime(2026, 11, 30, tzinfo=UTC), datetime(2026, 11, 29, 15, tzinfo=UTC))
        assert until_bound("2026-W49", morning) == Bound(datetime(2026, 12, 6, 23, 59, 59, 999999, tzinfo=UTC),
                                                         datetime(2026, 12, 6, 14, 59, 59, 999999, tzinfo=UTC))
        assert since_bound("1d", morning) == Bound(datetime(2026, 11, 30, tzinfo=UTC), datetime(2026, 11, 29, 15, tzinfo=UTC))
        assert until_bound("9999", morning) == Bound.exact(datetime.max.replace(tzinfo=UTC))
        assert since_bound("0001-01-01", morning).instant == datetime.min.replace(tzinfo=UTC)  # its local midnight is before year 1


@needs_tzset
@pytest.mark.parametrize(("zone", "now"), [
    ("UTC", datetime(2026, 12, 1, 12, tzinfo=UTC)),  # a Tuesday
    ("Asia/Tokyo", datetime(2026, 11, 29, 23, tzinfo=UTC)),  # 08:00 on Monday 30 November there; still Sunday in UTC
    ("America/Los_Angeles", datetime(2026, 12, 1, 4, tzinfo=UTC)),  # 20:00 on Monday 30 November there
])
def test_this_and_last_week_month_and_year_are_periods_of_this_machines_calendar(zone: str, now: datetime) -> None:
    # Before: refused ("neither a date nor a duration"). Each is the ISO week, calendar month or
    # year holding today on this machine's calendar, or the one before it, as its number says.
    with local_zone(zone):
        today = now.astimezone().date()
        week = f"{today.isocalendar().year}-W{today.isocalendar().week:02d}"
        named = {words: (since_bound(words, now), until_bound(words, now)) for words in (
            "this week", "last week", "this month", "last month", "this year", "last year", "tomorrow")}
        assert named["this week"] == (since_bound(week, now), until_bound(week, now))
        assert named["last week"] == (since_bound("2026-W48", now), until_bound("2026-W48", now)) != named["this week"]
        assert named["this month"][0] == since_bound(f"{today:%Y-%m}", now)
        month_before = "2026-10" if today.month == 11 else "2026-11"
        assert named["last month"] == (since_bound(month_before, now), until_bound(month_before, now))
        assert named["this year"] == (since_bound("2026", now), until_bound("2026", now))
        assert named["last year"] == (since_bound("2025", now), until_bound("2025", now))
        tomorrow = (today + timedelta(days=1)).isoformat()
        assert named["tomorrow"] == (since_bound(tomorrow, now), until_bound(tomorrow, now))
        for other in ("Last-Week", "last_week", "LAST  WEEK", " last - week "):  # any case; "-", "_" or spaces between
            assert since_bound(other, now) == named["last week"][0], other


@needs_tzset
def test_last_month_in_january_is_last_years_december() -> None:
    with local_zone("UTC"):
        january = datetime(2027, 1, 15, 12, tzinfo=UTC)
        assert (since_bound("last month", january), until_bound("last-month", january)) == (
            at(2026, 12, 1), at(2026, 12, 31, 23, 59, 59, 999999))
        assert since_bound("last week", datetime(2027, 1, 1, 12, tzinfo=UTC)) == at(2026, 12, 21)  # a Friday: the week before its own


@needs_tzset
def test_this_and_last_week_start_on_the_weeks_first_day_given() -> None:
    with local_zone("UTC"):
        sunday = datetime(2025, 12, 14, 12, tzinfo=UTC)
        assert (since_bound("this week", sunday, 6), until_bound("this week", sunday, 6)) == (
            at(2025, 12, 14), at(2025, 12, 20, 23, 59, 59, 999999))
        assert (since_bound("last week", sunday, 6), until_bound("last-week", sunday, 6)) == (
            at(2025, 12, 7), at(2025, 12, 13, 23, 59, 59, 999999))
        assert since_bound("this week", sunday) == at(2025, 12, 8)  # no first day given: Monday, the ISO week
        assert since_bound("2025-W50", sunday, 6) == at(2025, 12, 8)  # a week's ISO name stays ISO


@needs_tzset
def test_a_period_said_in_chinese_japanese_or_korean_is_the_period_said_in_english() -> None:
    # Before: each was refused as "neither a date nor a duration" (a trial on a Chinese vault:
    # `--since 上周`, and an agent's `since` passing on what the person said), while
    # `--since 2025年3月` was read.
    said = {
        "today": ("今天", "今日", "오늘"), "yesterday": ("昨天", "昨日", "어제"), "tomorrow": ("明天", "明日", "내일"),
        "this week": ("本周", "这周", "這週", "今週", "이번 주"), "last week": ("上周", "上週", "上个星期", "先週", "지난주", "지난 주"),
        "next week": ("下周", "下個星期", "来週", "다음 주"), "this month": ("本月", "这个月", "今月", "이번 달"),
        "last month": ("上个月", "上個月", "先月", "지난달"), "next month": ("下个月", "来月", "다음 달"),
        "this year": ("今年", "올해"), "last year": ("去年", "昨年", "작년"), "next year": ("明年", "来年", "내년"),
    }
    with local_zone("UTC"):
        for english, words in said.items():
            for word in words:
                assert (since_bound(word, NOW_TIME), until_bound(word, NOW_TIME)) == (
                    since_bound(english, NOW_TIME), until_bound(english, NOW_TIME)), word
        assert since_bound("上周", NOW_TIME) == at(2026, 11, 23)  # NOW_TIME is Tuesday 1 December 2026
        assert since_bound("上周", NOW_TIME, 6) == since_bound("last week", NOW_TIME, 6) == at(2026, 11, 22)
    with pytest.raises(UsageError, match="since '最近' is neither a date nor a duration"):
        since_bound("最近", NOW_TIME)  # "lately" names no period


def test_list_since_last_week_in_chinese_lists_last_weeks_notes(tmp_path: Path) -> None:
    (tmp_path / "日记").mkdir()
    last_week = (datetime.now().astimezone().date() - timedelta(days=7)).isoformat()
    (tmp_path / "日记" / f"{last_week}.md").write_text("和小王讨论了预算问题。\n", encoding="utf-8")
    (tmp_path / "日记" / "2020-01-06.md").write_text("很久以前的一天。\n", encoding="utf-8")
    result = run_cli(tmp_path, "list", "--since", "上周", "--until", "上周")
    assert result.exit_code == 0, result.output
    assert f"日记/{last_week}.md" in result.stdout
    assert "2020-01-06" not in result.stdout


@needs_tzset
def test_a_weekday_after_last_next_or_this_or_alone_is_that_day() -> None:
    # s35: `--since tuesday`, `--since "last friday"`, `--due-until "next tuesday"` were refused as
    # "neither a date nor a duration". NOW_TIME is Tuesday 1 December 2026.
    with local_zone("UTC"):
        assert since_bound("last friday", NOW_TIME) == at(2026, 11, 27)
        assert until_bound("Last-Friday", NOW_TIME) == at(2026, 11, 27, 23, 59, 59, 999999)
        assert since_bound("last tuesday", NOW_TIME) == at(2026, 11, 24)  # before today: a week back
        assert since_bound("next tuesday", NOW_TIME) == at(2026, 12, 8)  # after today: a week on
        assert since_bound("next wednesday", NOW_TIME) == at(2026, 12, 2)
        assert since_bound("this monday", NOW_TIME) == at(2026, 11, 30)  # the one of this week
        assert since_bound("this sunday", NOW_TIME) == at(2026, 12, 6)
        assert since_bound("this sunday", NOW_TIME, 6) == at(2026, 11, 29)  # a week that starts on Sunday
        # Alone: the last one (today included) for a since bound or a done day; the next one for an
        # until bound or a due day.
        assert since_bound("friday", NOW_TIME) == at(2026, 11, 27)
        assert since_bound("Tuesday", NOW_TIME) == at(2026, 12, 1)
        assert until_bound("friday", NOW_TIME) == at(2026, 12, 4, 23, 59, 59, 999999)
        assert since_bound("friday", NOW_TIME, name="due_since") == at(2026, 12, 4)
        assert until_bound("friday", NOW_TIME, name="done_until") == at(2026, 11, 27, 23, 59, 59, 999999)
        assert since_bound("vendredi", NOW_TIME) == at(2026, 11, 27)  # a weekday in another language, alone
    for value in ("last fri", "next fortnight friday", "last friday week"):
        with pytest.raises(UsageError, match=re.escape(f"since '{value}' is neither a date nor a duration")):
            since_bound(value, NOW_TIME)


def _daily_vault(root: Path) -> Path:
    for day in ("2026-11-27", "2026-11-28", "2026-12-04", "2026-12-05", "2026-12-11"):
        (root / "Daily").mkdir(parents=True, exist_ok=True)
        (root / "Daily" / f"{day}.md").write_text(f"standup notes of {day}\n", encoding="utf-8")
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    return root


@needs_tzset
def test_a_search_or_list_by_weekday_says_which_day_each_weekday_was_read_as(tmp_path: Path) -> None:
    # s36: which Friday a person means is a choice (`--until friday` the coming one, `next friday`
    # the nearest after today, `this friday` on a weekend the one just past). Was: the answer showed
    # notes and, unless it came back short, never the days it had searched.
    root = _daily_vault(tmp_path / "vault")
    wednesday, saturday, friday = "2026-12-02T12:00:00+00:00", "2026-12-05T12:00:00+00:00", "2026-12-04T12:00:00+00:00"
    with local_zone("UTC"), Vault(root) as vault:
        listing = vault.list_notes(since="monday", until="friday", now=wednesday)
        assert listing.warnings[:2] == [
            "since 'monday' is Monday 2026-11-30: a weekday alone is the last one, today included, as a since bound",
            "until 'friday' is Friday 2026-12-04: the first Friday on or after 2026-11-30, the pair's since day"]
        assert [note.path for note in listing] == ["Daily/2026-12-04.md"]
        alone = vault.search("standup", until="friday", now=wednesday)
        assert alone.warnings[0] == ("until 'friday' is Friday 2026-12-04: a weekday alone is the next one, today "
                                     "included, as an until bound")
        this = vault.list_notes(since="this friday", until="this friday", now=saturday)
        assert [note.path for note in this] == ["Daily/2026-12-04.md"]  # on a Saturday: yesterday, the week's Friday
        assert this.warnings[0] == "since 'this friday' is Friday 2026-12-04: the Friday of this week (Monday to Sunday)"
        following = vault.list_notes(since="next friday", until="next friday", now=friday)
        assert following.warnings[0] == ("since 'next friday' is Friday 2026-12-11: the nearest Friday after today "
                                         "(2026-12-04)")
        assert [note.path for note in following] == ["Daily/2026-12-11.md"]
        french = vault.list_notes(since="vendredi dernier", now=wednesday)
        assert french.warnings[0] == ("since 'vendredi dernier' is Friday 2026-11-27: the nearest Friday before today "
                                      "(2026-12-02)")
        assert not any("is Friday" in warning for warning in vault.list_notes(since="2026-11-27", until="last week",
                                                                              now=wednesday).warnings)
    result = run_cli(root, "search", "standup", "--until", "friday", "--as-of", wednesday)
    assert result.exit_code == 0, result.output
    assert "--until 'friday' is Friday 2026-12-04: a weekday alone is the next one, today included" in result.output


@needs_tzset
def test_a_weekday_as_chinese_japanese_or_korean_say_it_is_a_bound_as_their_weeks_are(tmp_path: Path) -> None:
    # s35 review: `--since 上周` (last week) and `--since vendredi` were taken, `--since 上周五` (last
    # week's Friday), `周一`, `金曜日`, `지난주 금요일` refused as "neither a date nor a duration".
    # NOW_TIME is Tuesday 1 December 2026.
    with local_zone("UTC"):
        assert since_bound("上周五", NOW_TIME) == at(2026, 11, 27)  # the Friday of last week
        assert since_bound("上個星期一", NOW_TIME) == at(2026, 11, 23)  # the Monday of last week, not yesterday
        assert since_bound("下周二", NOW_TIME) == at(2026, 12, 8)
        assert since_bound("本周日", NOW_TIME) == at(2026, 12, 6)
        assert since_bound("这周日", NOW_TIME, 6) == at(2026, 11, 29)  # a week that starts on Sunday
        assert since_bound("先週の金曜日", NOW_TIME) == at(2026, 11, 27)
        assert since_bound("来週月曜日", NOW_TIME) == at(2026, 12, 7)
        assert since_bound("지난주 금요일", NOW_TIME) == at(2026, 11, 27)
        assert since_bound("다음주 월요일", NOW_TIME) == at(2026, 12, 7)
        # Alone, as a weekday alone in any language: the last one for since, the next one for until.
        assert since_bound("周五", NOW_TIME) == at(2026, 11, 27)
        assert since_bound("星期二", NOW_TIME) == at(2026, 12, 1)
        assert until_bound("金曜日", NOW_TIME) == at(2026, 12, 4, 23, 59, 59, 999999)
        assert until_bound("금요일", NOW_TIME, name="done_until") == at(2026, 11, 27, 23, 59, 59, 999999)
    for value in ("周八", "上周五五", "金曜日曜日"):
        with pytest.raises(UsageError, match="is neither a date nor a duration"):
            since_bound(value, NOW_TIME)


@needs_tzset
def test_since_a_weekday_until_a_weekday_alone_is_the_span_between_them_not_a_run_into_next_week(tmp_path: Path) -> None:
    # s35 review: on Friday 4 December, `--since monday --until wednesday` kept Thursday's and
    # Friday's notes: the until bound, placed alone as "the next Wednesday", was 9 December.
    files = {f"Daily/2026-{month:02d}-{day:02d}.md": f"standup notes of day {day}\n"
             for month, day in ((11, 30), (12, 1), (12, 2), (12, 3), (12, 4))}
    root = tmp_path / "vault"
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    friday = "2026-12-04T12:00:00+00:00"
    with local_zone("UTC"):
        for since in ("monday", "last monday", "this monday", "Montag"):
            listed = run_cli(root, "list", "--since", since, "--until", "wednesday", "--as-of", friday, "--json")
            assert listed.exit_code == 0, listed.output
            assert sorted(note["path"] for note in json.loads(listed.stdout)["notes"]) == [
                "Daily/2026-11-30.md", "Daily/2026-12-01.md", "Daily/2026-12-02.md"], (since, listed.stdout)
        # Alone, or after a since bound that names no weekday, it is still the next one.
        assert until_bound("wednesday", datetime(2026, 12, 4, 12, tzinfo=UTC)) == at(2026, 12, 9, 23, 59, 59, 999999)
        listed = run_cli(root, "list", "--since", "2026-12-03", "--until", "wednesday", "--as-of", friday, "--json")
        assert len(json.loads(listed.stdout)["notes"]) == 2, listed.stdout


def test_a_bound_in_words_it_does_not_know_is_refused_listing_every_period_it_takes() -> None:
    for value in ("next fortnight", "lastweek", "this decade"):
        with pytest.raises(UsageError, match=re.escape(
                f"since '{value}' is neither a date nor a duration: give an ISO date or time such as 2026-11-23 or "
                "2026-11-23T09:00:00+00:00, a period (2026, 2026-11, 2026-W48, today, yesterday, tomorrow, this week, "
                "last week, next week, this month, last month, next month, this year, last year, next year, last friday, "
                "next tuesday, this monday (the nearest one before today, the nearest after it, the one of this week: "
                "on a Saturday, this friday is yesterday), friday (a weekday alone: the last one, today included, for a "
                "since bound or a done day; the next one for an until bound or a due day); or as "
                "Chinese, Japanese or Korean say them: 上周, 先週, 지난주; as French, Spanish, German, Portuguese, "
                "Italian, Turkish, Russian, Ukrainian or Polish do: hier, la semaine dernière, vendredi dernier, ayer, el mes pasado, "
                "gestern, letzte Woche, letzten Freitag, ontem, ieri, dün, geçen cuma, вчера, в прошлую пятницу, минулої "
                "п'ятниці, wczoraj, w zeszłym tygodniu), a day or "
                "month in words with its year, as a "
                "daily note's name writes it (14 September 2026, September 2026, 15 марта 2024, март 2024), "
                "or a duration back from now such as 7d or 2w")):
            since_bound(value, NOW_TIME)
    with pytest.raises(UsageError, match="since 'yesterday' lies outside the years 1 to 9999 on 0001-01-01: give a date"):
        since_bound("yesterday", datetime(1, 1, 1, 12, tzinfo=UTC))  # was an OverflowError


def test_a_notes_date_is_a_day_or_an_instant() -> None:
    import yaml

    from vaultmem.daily_format import DailyFormat, parse_moment_format

    def kind(meta: str, path: str = "notes/a.md", daily: DailyFormat | None = None) -> bool | None:
        found = note_date(yaml.safe_load(meta) or {}, path, daily)
        return None if found is None else found.day

    days = [("date: 2026-11-30", "notes/a.md"), ('date: "2026-11-30"', "notes/a.md"), ('date: "[[2026-11-30]]"', "notes/a.md"),
            ("date: [2026-11-30]", "notes/a.md"), ("created: 2026-11-30", "notes/a.md"), ('created: "20261130"', "notes/a.md"),
            ("", "Daily/2026-11-30.md"), ("", "202611302130 Late idea.md"),  # a Zettelkasten id's time is part of a name
            ("created: 2026-11-30T21:30:00-08:00", "Daily/2026-11-30.md"),  # the name comes before created
            ("date: 2026-11-30 21:30", "notes/a.md"), ('date: "2026-11-30T21:30"', "notes/a.md")]  # a wall clock's time: its day
    instants = ['date: "2026-11-30T21:30:00-08:00"', "created: 2026-11-30T00:00:00Z",
                "created: 1764563400", "created: 1764563400000"]  # Unix time, seconds and milliseconds
    assert [kind(meta, path) for meta, path in days] == [True] * len(days)
    assert [kind(meta) for meta in instants] == [False] * len(instants)
    assert kind("") is None
    timed = DailyFormat(folder="Journal", moment=parse_moment_format("DD-MM-YYYY HH:mm"))  # its time is matched, not read
    assert kind("", "Journal/30-11-2026 21:30.md", timed) is True


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
    "20. November 2026.md", "Freitag, 20. Nov. 2026.md", "vendredi 20 novembre 2026.md",  # in German, French
    "viernes 20 de noviembre de 2026.md", "Reunión 20 nov 2026.md",  # and Spanish (moment's names)
    "20 de noviembre del 2026.md", "20-nov-2026.md", "Retro 20-Nov-2026.md",  # "del"; moment's DD-MMM-YYYY
])
def test_a_day_in_the_names_daily_note_tools_write_is_the_notes_date(path: str) -> None:
    found = note_date({}, path)
    assert found is not None and (found.moment, found.source) == (datetime(2026, 11, 20, tzinfo=UTC), "file name"), path


@pytest.mark.parametrize("path", ["1er novembre 2026.md", "Journal/dimanche 1er novembre 2026.md"])
def test_the_first_of_a_month_as_french_writes_it_in_a_name_is_the_notes_date(path: str) -> None:
    found = note_date({}, path)  # was undated
    assert found is not None and (found.moment, found.source) == (datetime(2026, 11, 1, tzinfo=UTC), "file name"), path


@pytest.mark.parametrize("path", ["20-11-2026.md", "11-20-2026.md",  # which is the day? nobody can say
                                  "notes/20261345.md", "1234567890123.md", "v2026.11.3.md", "Dec 2026.md", "mayday 12 2026.md",
                                  "Order 4431 Dec 2025.md", "Room 115 May 2026.md",  # a day is not the tail of a number
                                  "Order-4431-Dec-2025.md", "v2-nov-2026.md",  # nor joined by hyphens
                                  "Zettel 202611301260.md", "Zettel 202611302400.md"])  # no minute 60, no hour 24
def test_a_number_that_is_no_certain_day_gives_no_date(path: str) -> None:
    assert note_date({}, path) is None, path


def test_a_month_named_in_german_on_macos_decomposed_is_still_that_month() -> None:
    found = note_date({}, "Journal/15. Ma\u0308rz 2024.md")  # a + U+0308, as macOS names files
    assert found is not None and found.moment.date().isoformat() == "2024-03-15"


@pytest.mark.parametrize(("path", "day"), [("4 Julı 2024.md", "2024-07-04"), ("4 MAİ 2024.md", "2024-05-04"),
                                         ("4 Aprıl 2024.md", "2024-04-04")])
def test_a_month_the_pattern_matches_in_a_case_casefold_does_not_fold_is_that_month(path: str, day: str) -> None:
    # Was: KeyError out of every command that read the file (index, search, list: a traceback).
    # Python's case-insensitive patterns pair a dotless ı and an İ with i; casefold does not.
    found = note_date({}, path)
    assert found is not None
    assert found.moment.date().isoformat() == day


def test_a_vault_with_a_file_named_with_a_dotless_i_month_lists_and_searches(vault_dir: Path, write_note: Callable[..., Path]) -> None:
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("4 Julı 2024.md", "Harbor crane booked.\n")
    listed = run_cli(vault_dir, "list")
    assert listed.exit_code == 0, listed.output
    assert listed.stdout.startswith("2024-07-04  4 Julı 2024  ")


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
    assert [warning for warning in dated.warnings if "without a date" in warning] == [
        "2 notes without a date left out by since/until: a `date:` property, a day in the file name "
        "or a `created:` stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others)"]
    assert not any("without a date" in warning for warning in plain.warnings)
    assert all("without a date" not in warning for hit in dated for warning in hit.warnings)  # about the answer, not a hit


def test_the_cli_names_the_bounds_of_a_search_by_date_as_its_flags_and_the_api_as_its_arguments(diary: Path) -> None:
    # Before: one text for every surface, "left out by --since/--until (since/until)".
    with Vault(diary) as vault:
        said = [warning for warning in vault.search("knee", k=1, now=NOW, since="30d").warnings if "without a date" in warning]
    assert said == ["1 note without a date left out by since/until: a `date:` property, a day in the file name "
                    "or a `created:` stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others)"]
    shown = run_cli(diary, "search", "knee", "-k", "1", "--since", "30d", "--as-of", NOW)
    assert "! 1 note without a date left out by --since/--until: a `date:` property" in shown.stdout, shown.stdout
    in_json = run_cli(diary, "search", "knee", "-k", "1", "--since", "30d", "--as-of", NOW, "--json")
    assert "warning: 1 note without a date left out by --since/--until: a `date:` property" in in_json.stderr, in_json.stderr
    assert "(since/until)" not in shown.stdout + in_json.stderr


@needs_tzset
def test_a_search_whose_range_holds_no_note_says_how_many_dated_notes_lie_outside_and_the_nearest(diary: Path) -> None:
    # Before: only the undated notes were counted, then "no matching notes": an empty range could
    # not be told from a range that missed the notes by a day. Dated: 2 Nov, 25 and 28 Nov (days),
    # 30 Nov 08:00Z (an instant); the expired and undated notes are not dated notes outside.
    with local_zone("UTC"), Vault(diary) as vault:
        empty = vault.search("knee", k=10, now=NOW, since="2026-11-26", until="2026-11-27")
        after_all = vault.search("knee", k=10, now=NOW, since="tomorrow")
        few = vault.search("knee", k=10, now=NOW, since="2026-11-25", until="2026-11-28")
        enough = vault.search("knee", k=2, now=NOW, since="2026-11-25", until="2026-11-28")
        shown = run_cli(diary, "search", "knee", "--since", "2026-11-26", "--until", "2026-11-27", "--as-of", NOW)
    assert [hit.path for hit in empty] == []
    assert empty.warnings[0] == ("no note is dated 2026-11-26 … 2026-11-27; 4 dated notes fall outside it, the nearest on "
                                 "2026-11-25 (before it) and 2026-11-28 (after it)")
    assert after_all.warnings[0] == ("no note is dated 2026-12-02 or later; 4 dated notes fall outside it, the nearest on "
                                     "2026-11-30 (before it)")
    assert len(few) == 2 and few.warnings[0] == (
        "only 2 notes are dated 2026-11-25 … 2026-11-28; 2 other dated notes fall outside it, the nearest on "
        "2026-11-02 (before it) and 2026-11-30 (after it)")
    assert len(enough) == 2 and not any("outside it" in warning for warning in enough.warnings)  # as many as asked: nothing to say
    assert shown.stdout.splitlines()[:3] == [
        "! no note is dated 2026-11-26 … 2026-11-27; 4 dated notes fall outside it, the nearest on 2026-11-25 (before it) "
        "and 2026-11-28 (after it)",
        "! 1 note without a date left out by --since/--until: a `date:` property, a day in the file name or a `created:` stamp "
        "dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others)",
        "no matching notes"]


@needs_tzset
def test_the_range_a_search_names_is_in_this_machines_days_and_a_bound_with_a_time_keeps_it(diary: Path) -> None:
    # In Los Angeles the memory stamped 30 Nov 08:00Z is on the 30th at midnight, its first instant;
    # a bound with a time (36h back from 20:00 on the 30th there: 08:00 on the 29th) is said with it.
    with local_zone("America/Los_Angeles"), Vault(diary) as vault:
        timed = vault.search("knee", k=10, now=NIGHT_IN_LOS_ANGELES, since="36h", until="2026-11-29T23:00:00-08:00")
        week = vault.search("knee", k=10, now=NIGHT_IN_LOS_ANGELES, since="this week")
    assert timed.warnings[0] == ("no note is dated 2026-11-29 08:00 … 2026-11-29 23:00; 4 dated notes fall outside it, "
                                 "the nearest on 2026-11-28 (before it) and 2026-11-30 (after it)")
    assert [hit.path for hit in week] == ["memories/knee.md"]  # Monday 30 November there: this week's first instant
    assert week.warnings[0] == ("only 1 note is dated 2026-11-30 or later; 3 other dated notes fall outside it, the nearest "
                                "on 2026-11-28 (before it)")


def test_each_hit_says_its_notes_date_and_an_undated_one_says_none(diary: Path) -> None:
    with Vault(diary) as vault:
        dates = {hit.path: hit.date for hit in vault.search("knee", k=10, now=NOW)}
    # A day as the day it names (not an instant at midnight UTC, which another zone reads as another day).
    assert dates == {"Daily/2026-11-25.md": "2026-11-25", "Daily/2026-11-28.md": "2026-11-28",
                     "journal/retro.md": "2026-11-02", "memories/knee.md": "2026-11-30T08:00:00Z",  # as its created writes it
                     "notes/undated.md": None}
    shown = run_cli(diary, "search", "physio rest", "-k", "1", "--as-of", NOW)
    assert "[no expiry, dated 2026-11-28]  Daily/2026-11-28.md" in shown.stdout, shown.stdout


def test_get_gives_the_date_a_hit_gives(diary: Path) -> None:
    # get had no date: an agent answering "when …" after a get could not see the date search uses.
    with Vault(diary) as vault:
        dates = {path: vault.get(path).date for path in ("Daily/2026-11-25.md", "journal/retro.md", "memories/knee.md", "notes/undated.md")}
    assert dates == {"Daily/2026-11-25.md": "2026-11-25", "journal/retro.md": "2026-11-02",
                     "memories/knee.md": "2026-11-30T08:00:00Z", "notes/undated.md": None}
    shown = run_cli(diary, "get", "Daily/2026-11-25.md")
    assert "layer: -  tags: -  dated: 2026-11-25" in shown.stdout, shown.stdout
    assert json.loads(run_cli(diary, "get", "notes/undated", "--json").stdout)["date"] is None


def test_a_range_that_ends_before_it_starts_is_refused_naming_both(diary: Path) -> None:
    with Vault(diary) as vault, pytest.raises(UsageError, match="since '2026-12-01' is after until '2026-11-01'"):
        vault.search("knee", now=NOW, since="2026-12-01", until="2026-11-01")
    result = run_cli(diary, "search", "knee", "--since", "next decade")
    assert result.exit_code == 2 and "--since 'next decade' is neither a date nor a duration" in result.stderr


def test_the_cli_searches_by_date_and_explain_says_which_date_kept_a_note_out(diary: Path) -> None:
    found = run_cli(diary, "search", "knee", "--since", "2026-11-26", "--until", "2026-11-29", "--as-of", NOW)
    assert found.exit_code == 0, found.stderr
    assert "Daily/2026-11-28.md" in found.stdout and "Daily/2026-11-25.md" not in found.stdout
    with Vault(diary) as vault:
        dated = vault.explain("Daily/2026-11-25.md", "knee", since="2026-11-26", now=NOW)
        undated = vault.explain("notes/undated.md", "knee", since="2026-11-26", now=NOW)
    assert not dated.in_answer and dated.ranked_without_filters
    assert any("its date is the day 2026-11-25 (from its file name)" in reason for reason in dated.reasons), dated.reasons
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
            answer = await served.call("recall", query="knee", since="2026-11-26", until="2026-11-29")
            assert [(hit["path"], hit["date"]) for hit in answer["hits"]] == [("Daily/2026-11-28.md", "2026-11-28")]
            # The bounds named as MCP takes them (was "--since/--until (since/until)"), and the dated notes outside.
            assert answer["warnings"] == [
                "only 1 note is dated 2026-11-26 … 2026-11-29; 3 other dated notes fall outside it, the nearest on "
                "2026-11-25 (before it) and 2026-11-30 (after it)",
                "1 note without a date left out by since/until: a `date:` property, a day in the file name or a `created:` "
                "stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others)"]
            in_words = await served.call("recall", query="knee", since="Last-Year", until="last year")
            last = datetime.now().astimezone().year - 1  # the server's clock and zone are this process's
            if last == 2026:  # the year of the diary's notes: they are the answer
                assert in_words["hits"] and all(hit["date"].startswith("2026") for hit in in_words["hits"]), in_words
            else:
                assert in_words["warnings"][0].startswith(f"no note is dated {last}-01-01 … {last}-12-31; 4 dated")
            refused = await served.error("recall", query="knee", since="whenever")
            assert "since 'whenever' is neither a date nor a duration" in refused
            why = await served.call("explain", note="Daily/2026-11-25", query="knee", since="2026-11-26")
            assert why["in_answer"] is False and any("from its file name" in reason for reason in why["reasons"])

    run(scenario)


# -- local days: a day's label and an instant each compared with the bound for its kind (adr/0026)

NIGHT_IN_LOS_ANGELES = "2026-12-01T04:00:00+00:00"  # 20:00 on 30 November there
MORNING_IN_TOKYO = "2026-11-30T23:00:00+00:00"  # 08:00 on 1 December there


@pytest.fixture
def days(vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> Path:
    for day in ("2026-11-22", "2026-11-23", "2026-11-29", "2026-11-30", "2026-12-01"):
        write_note(f"Daily/{day}.md", f"Walked to the harbour on {day}; the knee held up.\n")
    return vault_dir


def remembered(vault: Vault, title: str, created: str) -> str:
    """A memory written through ``remember`` at ``created`` (its created stamp): its path."""
    return vault.remember(f"{title}: the knee, again.", title=title, layer="L3", now=created).path


def dated_hits(vault: Vault, now: str, since: str | None = None, until: str | None = None) -> set[str]:
    return {hit.path for hit in vault.search("knee", k=30, now=now, since=since, until=until)}


@needs_tzset
def test_at_eight_in_the_evening_in_los_angeles_today_is_still_that_day(days: Path) -> None:
    # Before: UTC days, and at 04:00Z `today` was 1 December: today's daily note was left out,
    # and `--since 2026-11-30 --until 2026-11-30` left out the memory written a minute ago.
    now = NIGHT_IN_LOS_ANGELES
    with local_zone("America/Los_Angeles"), Vault(days) as vault:
        fresh = remembered(vault, "Evening walk", "2026-12-01T03:59:00+00:00")  # a minute ago
        late = remembered(vault, "Late on the 29th", "2026-11-30T07:00:00+00:00")  # 23:00 on the 29th there
        week_start = remembered(vault, "Start of the week", "2026-11-23T09:00:00+00:00")  # 01:00 on the 23rd there
        before_week = remembered(vault, "Before the week", "2026-11-23T07:30:00+00:00")  # 23:30 on the 22nd there
        since_today = dated_hits(vault, now, since="today")
        today = dated_hits(vault, now, since="today", until="today")
        yesterday = dated_hits(vault, now, since="yesterday", until="yesterday")
        that_day = dated_hits(vault, now, since="2026-11-30", until="2026-11-30")
        week = dated_hits(vault, now, since="7d")
        until_a_time = dated_hits(vault, now, since="2026-11-30", until="2026-11-30T19:59:00-08:00")
        exact = dated_hits(vault, now, since="2026-11-30T00:00:00Z", until="2026-12-01T03:59:00Z")
        a_moment_later = dated_hits(vault, now, since="2026-11-30T00:00:00.000001Z", until="2026-12-01T03:58:59.999999Z")
    assert {"Daily/2026-11-30.md", fresh} <= since_today and "Daily/2026-11-29.md" not in since_today
    assert today == that_day == {"Daily/2026-11-30.md", fresh}
    assert yesterday == {"Daily/2026-11-29.md", late}
    assert week == {"Daily/2026-11-23.md", "Daily/2026-11-29.md", "Daily/2026-11-30.md", "Daily/2026-12-01.md",
                    fresh, late, week_start}  # from the 23rd's start there: not the 22nd, nor before_week
    assert before_week not in week
    # A bound with a time is exact for instants; a day's note passes when its local day holds the
    # bound (was: compared by its midnight UTC, so 19:59 on the 30th there kept 1 December's note).
    assert until_a_time == {"Daily/2026-11-30.md", fresh}
    assert exact == {"Daily/2026-11-29.md", "Daily/2026-11-30.md", late, fresh}  # 00:00Z is 16:00 on the 29th there
    assert a_moment_later == {"Daily/2026-11-29.md", "Daily/2026-11-30.md", late}


@needs_tzset
@pytest.mark.parametrize("zone", ["Asia/Tokyo", "America/Los_Angeles", "UTC"])
def test_a_time_written_without_a_zone_counts_on_the_day_it_names_in_every_zone(vault_dir: Path, write_note: Callable[..., Path], zone: str) -> None:
    # Obsidian's Date & time property writes 2026-11-30T21:30: a wall clock's time. Read as a UTC
    # instant it fell on 1 December in Tokyo and, at 00:30, on the 29th in Los Angeles.
    write_note("notes/late.md", "---\ndate: 2026-11-30T21:30\n---\nLate call about the knee.\n")
    write_note("notes/early.md", "---\ndate: 2026-11-30T00:30\n---\nEarly run, knee fine.\n")
    with local_zone(zone), Vault(vault_dir) as vault:
        found = {hit.path: hit.date for hit in vault.search("knee", k=10, now=NOW, since="2026-11-30", until="2026-11-30")}
        # Shown as the note writes it (adr/0003 "Times in the person's zone"): its day alone lost the hour
        assert found == {"notes/late.md": "2026-11-30T21:30", "notes/early.md": "2026-11-30T00:30"}
        assert vault.search("knee", k=10, now=NOW, since="2026-12-01") == []


@needs_tzset
def test_a_day_whose_midnight_a_clock_change_skips_starts_after_the_gap() -> None:
    # Santiago skips 6 September 2026's midnight (00:00 -04 → 01:00 -03): the day starts at 04:00Z,
    # not at 03:00Z, which is still 23:00 on the 5th there.
    with local_zone("America/Santiago"):
        assert since_bound("2026-09-06", NOW_TIME).instant == datetime(2026, 9, 6, 4, tzinfo=UTC)
        assert until_bound("2026-09-05", NOW_TIME).instant == datetime(2026, 9, 6, 3, 59, 59, 999999, tzinfo=UTC)
    with local_zone("America/New_York"):  # a midnight it does not skip: as before
        assert since_bound("2026-11-01", NOW_TIME).instant == datetime(2026, 11, 1, 4, tzinfo=UTC)


@needs_tzset
def test_a_hits_date_is_shown_on_this_machines_calendar_day() -> None:
    # Was the first ten characters of a UTC time: a memory written at 20:00 in Los Angeles read "dated" the next day.
    with local_zone("America/Los_Angeles"):
        assert calendar_day("2026-12-01T04:00:00+00:00") == "2026-11-30"
        assert calendar_day("2026-12-01") == "2026-12-01"  # a day is the day it names, in every zone
    with local_zone("Asia/Tokyo"):
        assert calendar_day("2026-11-30T23:00:00+00:00") == "2026-12-01"


@needs_tzset
def test_at_eight_in_the_morning_in_tokyo_today_is_already_the_new_day(days: Path) -> None:
    # Before: at 23:00Z `today` was still 30 November there, so today's daily note was left out and
    # yesterday's kept; `--since 2026-11-30 --until 2026-11-30` held a memory written that morning.
    now = MORNING_IN_TOKYO
    with local_zone("Asia/Tokyo"), Vault(days) as vault:
        fresh = remembered(vault, "Morning stretch", "2026-11-30T22:59:00+00:00")  # a minute ago
        evening = remembered(vault, "Evening of the 30th", "2026-11-30T12:00:00+00:00")  # 21:00 on the 30th there
        week_start = remembered(vault, "Start of the week", "2026-11-23T16:00:00+00:00")  # 01:00 on the 24th there
        since_today = dated_hits(vault, now, since="today")
        today = dated_hits(vault, now, since="today", until="today")
        yesterday = dated_hits(vault, now, since="yesterday", until="yesterday")
        that_day = dated_hits(vault, now, since="2026-11-30", until="2026-11-30")
        week = dated_hits(vault, now, since="7d")
    assert {"Daily/2026-12-01.md", fresh} <= since_today and "Daily/2026-11-30.md" not in since_today
    assert today == {"Daily/2026-12-01.md", fresh}
    assert yesterday == that_day == {"Daily/2026-11-30.md", evening}
    assert week == {"Daily/2026-11-29.md", "Daily/2026-11-30.md", "Daily/2026-12-01.md", fresh, evening, week_start}  # from the 24th


@needs_tzset
def test_explain_shows_the_bound_that_applied_to_the_notes_kind_of_date(days: Path) -> None:
    with local_zone("America/Los_Angeles"), Vault(days) as vault:
        late = remembered(vault, "Late on the 29th", "2026-11-30T07:00:00+00:00")
        daily = vault.explain("Daily/2026-11-29.md", "knee", since="today", now=NIGHT_IN_LOS_ANGELES)
        memory = vault.explain(late, "knee", since="today", now=NIGHT_IN_LOS_ANGELES)
        before = vault.explain("Daily/2026-12-01.md", "knee", until="yesterday", now=NIGHT_IN_LOS_ANGELES)
    # A day's bound was shown as its label's UTC midnight (2026-11-30T00:00:00+00:00), a time nobody asked for.
    assert ("filtered out by since the day 2026-11-30: its date is the day 2026-11-29 (from its file name)"
            in daily.reasons), daily.reasons
    assert ("filtered out by since 2026-11-30T08:00:00+00:00: its date is 2026-11-30T07:00:00+00:00 (from its created)"
            in memory.reasons), memory.reasons
    assert ("filtered out by until the day 2026-11-29: its date is the day 2026-12-01 (from its file name)"
            in before.reasons), before.reasons  # through the 29th: the last day, not the next day's midnight


@needs_tzset
def test_an_index_made_before_date_kinds_learns_them_at_the_next_command_without_embedding(days: Path) -> None:
    with local_zone("America/Los_Angeles"), Vault(days) as vault:
        fresh = remembered(vault, "Evening walk", "2026-12-01T03:59:00+00:00")
    # What an index written before the kind step looks like: no column, no record of the step,
    # rows made by the reader before it.
    database = sqlite3.connect(days / ".vaultmem" / "index.db")
    with database:
        database.execute("ALTER TABLE notes DROP COLUMN dated_day")
        database.execute("DELETE FROM _migrations WHERE name = '010_note_date_kinds'")
        database.execute("UPDATE meta SET value = replace(value, 'reader-8/', 'reader-7/') WHERE key = 'reader'")
        embedded = database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0]
    database.close()
    with local_zone("America/Los_Angeles"), Vault(days) as vault:
        today = dated_hits(vault, NIGHT_IN_LOS_ANGELES, since="today", until="today")
    database = sqlite3.connect(days / ".vaultmem" / "index.db")
    kinds = dict(database.execute("SELECT path, dated_day FROM notes"))
    assert database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0] == embedded  # nothing embedded again
    database.close()
    assert today == {"Daily/2026-11-30.md", fresh}
    assert kinds == {**{f"Daily/{day}.md": 1 for day in ("2026-11-22", "2026-11-23", "2026-11-29", "2026-11-30", "2026-12-01")},
                     fresh: 0}


def test_the_date_filter_in_sql_and_in_python_agree_on_every_kind_and_boundary(tmp_path: Path) -> None:
    from vaultmem.lifecycle import to_epoch_us
    from vaultmem.storage import Eligibility, EpochBound, NoteRow, Store

    since = EpochBound(day_us=to_epoch_us(datetime(2026, 11, 30, tzinfo=UTC)), instant_us=to_epoch_us(datetime(2026, 11, 30, 8, tzinfo=UTC)))
    until = EpochBound(day_us=since.day_us + 86_400_000_000 - 1, instant_us=since.instant_us + 86_400_000_000 - 1)
    moments = sorted({edge + step for edge in (*since, *until) for step in (-1, 0, 1)}
                     | {since.day_us - 86_400_000_000, until.day_us + 1 + 86_400_000_000})  # midnights outside the labels
    store = Store(tmp_path / ".vaultmem")
    rows: dict[int, tuple[int | None, bool | None]] = {}
    with store.transaction():
        for number, (dated_us, dated_day) in enumerate([(None, None), *((moment, kind) for moment in moments
                                                                       for kind in (True, False, None))]):
            row = NoteRow(id=f"n{number}", path=f"n{number}.md", title="n", layer=None, tags=[], created=None, created_us=None,
                          expires_at=None, expires_us=None, expiry_invalid=False, permanent=False, content_hash="h",
                          embed_hash="e", mtime_ns=0, size=0, body_chars=0, problems=[], dated_us=dated_us, dated_day=dated_day)
            rows[store.notes.insert(row)] = (dated_us, dated_day)
    try:
        for bounds in ({"since_us": since}, {"until_us": until}, {"since_us": since, "until_us": until}):
            eligibility = Eligibility(now_us=0, include_expired=True, **bounds)  # type: ignore[arg-type]
            in_sql = set(store.notes.all_eligible_labels(eligibility))
            in_python = {label for label, (dated_us, dated_day) in rows.items() if eligibility.in_range(dated_us, dated_day)}
            assert in_sql == in_python, bounds
            assert 0 < len(in_sql) < len(rows)
            where, params = eligibility.where()
            plan = " ".join(str(step[-1]) for step in store.db.execute(f"EXPLAIN QUERY PLAN SELECT label FROM notes WHERE {where}", params))
            assert "notes_dated" in plan, plan  # the index on the date still narrows the rows read
        # A row of an index made before kinds were kept (NULL): a UTC midnight is a day's label.
        both = Eligibility(now_us=0, include_expired=True, since_us=since, until_us=until)
        assert both.in_range(since.day_us, None) and not both.in_range(since.day_us + 1, None)
    finally:
        store.close()


@pytest.mark.parametrize(("value", "day"), [
    ("May 4, 2023", "2023-05-04"), ("Thursday, May 4th 2023", "2023-05-04"),  # Templater's dddd, MMMM Do YYYY
    ("2023-05-04 Thursday", "2023-05-04"), ("'20230504'", "2023-05-04"),
    ("04/05/2023", None), ("last friday", None),  # day or month first? and no day at all
    ("Donnerstag, 4. Mai 2023", "2023-05-04"), ("jeudi 4 mai 2023", "2023-05-04"), ("4 de mayo de 2023", "2023-05-04"),
    ("4 de mayo del 2023", "2023-05-04"), ("04-may-2023", "2023-05-04"), ("4-May-2023", "2023-05-04"),  # del; DD-MMM-YYYY
])
def test_a_date_property_written_in_words_dates_the_note(value: str, day: str | None) -> None:
    # Were check problems ("which is not a date") and left every such note out of a search by date.
    from vaultmem.dating import date_problems

    meta = yaml.safe_load(f"date: {value}")
    found = note_date(meta, "Notes/x.md")
    assert (found.moment.date().isoformat() if found else None) == day
    assert (date_problems(meta, "Notes/x.md") == []) == (day is not None)


def test_a_date_or_bound_at_the_calendars_end_is_shown_in_a_zone_east_of_utc(vault_dir: Path,
                                                                               write_note: Callable[..., Path]) -> None:
    # East of UTC, 23:30Z on 31 December 9999 is a day Python cannot write: search crashed with
    # OverflowError naming a far note's day (calendar_day) or a range's bound (shown_range).
    from vaultmem.embedders import HashingEmbedder

    write_note("far.md", "---\ndate: 9999-12-31T23:30:00Z\n---\nThe time capsule opens.\n")
    write_note("near.md", "---\ndate: 2026-11-20\n---\nThe time capsule was buried.\n")
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')  # the CLI below uses the same embedder
    with local_zone("Europe/Berlin"), Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        december = vault.search("time capsule", k=5, now=NOW, since="2026-12-01", until="2026-12-31")
        late = vault.search("time capsule", k=5, now=NOW, since="9999-12-31T23:00:00Z")
        shown = run_cli(vault_dir, "search", "time capsule", "--as-of", NOW)
    assert december.warnings[0] == ("no note is dated 2026-12-01 … 2026-12-31; 2 dated notes fall outside it, "
                                    "the nearest on 2026-11-20 (before it) and 9999-12-31 (after it)")
    assert [hit.path for hit in late] == ["far.md"]
    assert late.warnings[0] == ("only 1 note is dated 9999-12-31 23:00 or later; 1 other dated note falls outside it, "
                                "the nearest on 2026-11-20 (before it)")
    assert shown.exit_code == 0 and "dated 9999-12-31]  far.md" in shown.stdout, shown.output
    with local_zone("Pacific/Kiritimati"), Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        latest = vault.search("time capsule", k=5, now=NOW, since="9999-12-31")  # its local midnight: past the calendar
    assert latest.warnings[0].startswith("no note is dated 9999-12-31 or later; 2 dated notes fall outside it"), latest.warnings


@pytest.mark.parametrize("path", [
    "2026年11月20日.md", "日记/2026年11月20日 星期五.md", "周会 2026年11月20日.md",  # Chinese (moment's zh-cn LL)
    "2026年 11月 20日.md", "2026년 11월 20일.md",  # spaced, as Korean writes it
    "２０２６年１１月２０日.md", "2026年11月20号.md", "2026年11月20號.md",  # full-width digits; 号 for the day
])
def test_a_day_written_with_year_month_and_day_characters_is_the_notes_date(path: str) -> None:
    # A Chinese vault's daily notes are often named 2026年11月20日 (a trial): they were undated.
    found = note_date({}, path)
    assert found is not None and (found.moment, found.source) == (datetime(2026, 11, 20, tzinfo=UTC), "file name"), path


@pytest.mark.parametrize("path", ["2026年11月20日10点组会.md", "2026年11月20日10:00 周会.md", "2026년 11월 20일14시.md"])
def test_a_day_written_with_year_month_and_day_characters_dates_the_note_when_a_time_follows_it(path: str) -> None:
    # The day's character ends the day: the time a meeting's note names after it, with no space, was
    # read as a longer number and left the note undated.
    found = note_date({}, path)
    assert found is not None and found.moment == datetime(2026, 11, 20, tzinfo=UTC), path


@pytest.mark.parametrize("path", ["2026年11月.md", "2026年11月45日.md", "12026年11月20日.md", "2026年11月201日.md"])
def test_year_and_month_characters_without_a_real_day_give_no_date(path: str) -> None:
    assert note_date({}, path) is None, path


def test_a_date_property_written_with_year_month_and_day_characters_dates_the_note() -> None:
    import yaml

    found = note_date(yaml.safe_load("date: 2026年11月20日"), "notes/乙.md")
    assert found is not None and (found.moment, found.day) == (datetime(2026, 11, 20, tzinfo=UTC), True)


@pytest.mark.parametrize(("path", "meta", "day"), [
    ("Дневник/15 марта 2024.md", {}, "2024-03-15"),  # moment's D MMMM YYYY: the month in the genitive
    ("Встречи/Планёрка 2 мая 2024 г.md", {}, "2024-05-02"),  # LL: "D MMMM YYYY г."
    ("Дневник/пятница, 15 марта 2024.md", {}, "2024-03-15"),
    ("Дневник/15 МАРТА 2024.md", {}, "2024-03-15"),
    ("Дневник/1 февр. 2024.md", {}, "2024-02-01"),  # MMM, the dot moment writes after a cut name
    ("Дневник/1 фев 2024.md", {}, "2024-02-01"),  # ... and as older moment wrote it
    ("Встречи/Планёрка.md", {"date": "29 июля 2025"}, "2025-07-29"),
    ("Встречи/Планёрка.md", {"date": "29 Июля 2025 года"}, "2025-07-29"),  # as a Russian letter heads its date
])
def test_a_month_named_in_russian_dates_the_note(path: str, meta: dict[str, str], day: str) -> None:
    # A trial on a real Russian vault: "29 Июля 2025 года" and names such as "15 марта 2024" were
    # no date; month_names knew English, German, French and Spanish only.
    found = note_date(meta, path)
    assert found is not None and found.moment.date().isoformat() == day, (path, meta, found)


def test_a_refused_bound_names_the_days_and_months_in_words_it_could_be() -> None:
    # A trial on a Russian vault: "в марте 2024" (in March 2024, as a Russian says it) was refused
    # with ISO dates and English periods only, though "март 2024" and "15 марта 2024" are read.
    with pytest.raises(UsageError) as refused:
        since_bound("в марте 2024", NOW_TIME)
    said = str(refused.value)
    assert "a day or month in words with its year" in said and "15 марта 2024, март 2024" in said, said
    examples = re.search(r"writes it \(([^)]*)\)", said)
    assert examples is not None
    for example in examples[1].split(", "):  # every example it gives is read
        assert since_bound(example, NOW_TIME).instant < NOW_TIME, example


@pytest.mark.parametrize(("path", "meta", "day"), [
    ("Щоденник/1 травня 2024.md", {}, "2024-05-01"),  # moment's uk D MMMM YYYY: the month in the genitive
    ("Щоденник/середа, 1 травня 2024.md", {}, "2024-05-01"),
    ("Щоденник/20 ЛИСТОПАДА 2024.md", {}, "2024-11-20"),  # November, though Russian листопад is "leaf fall"
    ("Зустрічі/Планування.md", {"date": "3 квіт 2024"}, "2024-04-03"),  # MMM
])
def test_a_month_named_in_ukrainian_dates_the_note(path: str, meta: dict[str, str], day: str) -> None:
    # A trial on a Russian vault with Ukrainian entries: "1 травня 2024.md" (as an Obsidian set to
    # Ukrainian names a daily note) was undated; month_names knew Russian but not Ukrainian.
    found = note_date(meta, path)
    assert found is not None and found.moment.date().isoformat() == day, (path, meta, found)


@pytest.mark.parametrize(("path", "meta", "day"), [
    ("Dziennik/15 marca 2024.md", {}, "2024-03-15"),  # moment's pl D MMMM YYYY (its LL): the month in the genitive
    ("Dziennik/piątek, 15 marca 2024.md", {}, "2024-03-15"),  # its LLLL's day
    ("Dziennik/1 PAŹDZIERNIKA 2026.md", {}, "2026-10-01"),
    ("Dziennik/20 listopada 2024.md", {}, "2024-11-20"),  # November, as Ukrainian листопад
    ("Spotkania/Retro.md", {"date": "29 października 2026"}, "2026-10-29"),
    ("Spotkania/Retro.md", {"date": "3 wrz 2024"}, "2024-09-03"),  # MMM
])
def test_a_month_named_in_polish_dates_the_note(path: str, meta: dict[str, str], day: str) -> None:
    # A trial on a real Polish vault (s41): month_names knew no Polish, so "15 marca 2024.md", as an
    # Obsidian set to Polish names a daily note, was undated and left out of every search by date.
    found = note_date(meta, path)
    assert found is not None and found.moment.date().isoformat() == day, (path, meta, found)


@pytest.mark.parametrize("path", ["Notizen/Sie 3 2024.md", "Notes/15 lip 2024.md", "Notes/sty 3 2024.md"])
def test_polish_short_names_that_are_english_or_german_words_date_no_note_outside_the_daily_format(path: str) -> None:
    # sie (German's "they"), lip and sty (English words) are Polish's August, July and January only
    # where the daily-note format puts a month (month_names.ENGLISH_WORD_NAMES); so is sob, Saturday.
    assert note_date({}, path) is None
    assert only_calendar_words("piątek, 15 marca") and not only_calendar_words("sob") and not only_calendar_words("lip")


def test_a_bound_named_in_polish_is_that_month_or_day() -> None:
    # Was refused as "neither a date nor a duration" (s41: `search warsztat --since "wrzesień 2026"`).
    assert (since_bound("wrzesień 2026", NOW_TIME), until_bound("wrzesień 2026", NOW_TIME)) == (
        since_bound("2026-09", NOW_TIME), until_bound("2026-09", NOW_TIME))
    assert since_bound("1 października 2026", NOW_TIME) == since_bound("2026-10-01", NOW_TIME)


@pytest.mark.parametrize(("path", "meta", "day"), [
    ("Günlük/15 Mart 2024 Cuma.md", {}, "2024-03-15"),  # outside any daily-note format: a day in words
    ("Toplantılar/Kickoff 4 Şubat 2026.md", {}, "2026-02-04"),
    ("Günlük/30 KASIM 2026.md", {}, "2026-11-30"),  # upper case: KASIM casefolds to "kasim", not "kasım"
    ("Günlük/1 Ağustos 2026.md", {}, "2026-08-01"),
    ("Toplantılar/Retro.md", {"date": "29 Ekim 2026"}, "2026-10-29"),
    ("Toplantılar/Retro.md", {"date": "9 Ara 2026"}, "2026-12-09"),  # MMM
])
def test_a_month_named_in_turkish_dates_the_note(path: str, meta: dict[str, str], day: str) -> None:
    # A trial on a real Turkish "ikinci beyin" vault: its journal's names ("15 Mart 2024 Cuma")
    # and a date written "29 Ekim 2026" were no date; month_names knew no Turkish.
    found = note_date(meta, path)
    assert found is not None and found.moment.date().isoformat() == day, (path, meta, found)


@pytest.mark.parametrize(("path", "meta", "day"), [
    ("Diário/sexta-feira, 15 de março de 2024.md", {}, "2024-03-15"),  # moment's pt-br dddd, D [de] MMMM [de] YYYY
    ("Diário/15 de setembro de 2024.md", {}, "2024-09-15"),  # LL
    ("Diário/1º de maio de 2024.md", {}, "2024-05-01"),  # the first with its ordinal (Do)
    ("Diário/3 Dezembro 2024.md", {}, "2024-12-03"),
    ("Diário/10 fev 2024.md", {}, "2024-02-10"),  # MMM
    ("Reuniões/Retro.md", {"date": "29 de outubro de 2026"}, "2026-10-29"),
    ("Diario/venerdì 15 settembre 2024.md", {}, "2024-09-15"),  # moment's it dddd D MMMM YYYY
    ("Diario/Giovedì 4 luglio 2024.md", {}, "2024-07-04"),
    ("Diario/1º gennaio 2025.md", {}, "2025-01-01"),
    ("Diario/15 ott 2024.md", {}, "2024-10-15"),  # MMM
    ("Riunioni/Retro.md", {"date": "3 dicembre 2026"}, "2026-12-03"),
])
def test_a_month_named_in_portuguese_or_italian_dates_the_note(path: str, meta: dict[str, str], day: str) -> None:
    # "sexta-feira, 15 de março de 2024.md", as an Obsidian set to Portuguese names a daily note,
    # and Italian "venerdì 15 settembre 2024.md" were undated: month_names knew neither language.
    found = note_date(meta, path)
    assert found is not None and found.moment.date().isoformat() == day, (path, meta, found)


@pytest.mark.parametrize("path", ["Set 3 2024.md", "Workout 3 set 2024.md", "Mag 7 2024.md", "Gen 9 2024 launch.md",
                                  "Season 2 out 2025.md", "Out 5 2024.md"])
def test_a_portuguese_or_italian_short_month_that_is_an_english_word_dates_no_note(path: str) -> None:
    # set (September in both), out (October in Portuguese), gen and mag (January and May in
    # Italian) are English words: an English note named with one must not be dated by it.
    assert note_date({}, path) is None, path


def test_a_bound_of_a_month_or_day_said_in_portuguese_or_italian_is_that_month_or_day() -> None:
    # --since "março de 2024" was "neither a date nor a duration", though Portugal and Brazil say a month so.
    with local_zone("UTC"):
        assert since_bound("março de 2024", NOW_TIME) == since_bound("2024-03", NOW_TIME)
        assert until_bound("Setembro de 2024", NOW_TIME) == until_bound("2024-09", NOW_TIME)
        assert since_bound("15 de março de 2024", NOW_TIME) == since_bound("2024-03-15", NOW_TIME)
        assert since_bound("settembre 2024", NOW_TIME) == since_bound("2024-09", NOW_TIME)
        assert until_bound("15 giugno 2024", NOW_TIME) == until_bound("2024-06-15", NOW_TIME)
    with pytest.raises(UsageError, match="is neither a date nor a duration"):
        since_bound("set 2024", NOW_TIME)  # an English word: only the full name says the month


def test_a_name_that_is_a_portuguese_or_italian_day_is_only_calendar_words_and_an_english_word_is_not() -> None:
    from vaultmem.month_names import only_calendar_words

    assert only_calendar_words("sexta-feira, 15 de março de 2024")  # was False: "sexta", "feira", "março", "de"
    assert only_calendar_words("venerdì 15 settembre 2024")
    assert only_calendar_words("1º de maio de 2024")
    # A meeting note named with the day and an English word the short names spell: not the day's own note.
    assert not only_calendar_words("2024-03-15 out")
    assert not only_calendar_words("2024-03-15 Sex")
    assert not only_calendar_words("2024-09-15 set")


@pytest.mark.parametrize("path", ["a/b.md", "b.md", ".hidden", "a/.hidden.md", "a/b.", "a/b..md", "x/y/z.tar.gz", "",
                                  "a/", "a/.", "..", "a//b.md", "Weekly/2026-W09.md", "dir.x/file", "2026-03.md"])
def test_file_stem_is_pathlibs_stem(path: str) -> None:
    # The hot path's string form (dating.file_stem) must read a name as PurePosixPath does.
    assert file_stem(path) == PurePosixPath(path).stem


@pytest.mark.parametrize("given", ["2026-02-30", "next tuesdayish"])
def test_a_memory_date_refused_says_a_time_without_zone_is_the_persons_clock_not_utc(tmp_path: Path, given: str) -> None:
    # remember and revise write a time without a zone as the person's wall clock; the refusal
    # said "2026-12-01T10:00:00 (UTC)", the one reading it would not get.
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    with Vault(tmp_path) as vault, pytest.raises(ValueError) as refused:
        vault.remember("Dentist appointment", date=given)
    message = str(refused.value)
    assert message.startswith("date: invalid timestamp") and "(UTC)" not in message
    assert "2026-12-01T10:00 (the person's own clock)" in message
    assert list(tmp_path.rglob("*.md")) == []


def test_a_broken_yaml_keeps_the_day_of_a_date_property_the_vault_names(tmp_path: Path) -> None:
    """Was (s39 review): a frontmatter that does not load kept only its `created` and `date` lines
    (notes.SALVAGED_KEYS), so in a vault whose `[dates]` names `fecha` a note with a broken tags
    line was left out of `list --since/--until` among the undated, while one saying `date:` was listed."""
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n[dates]\ndate = ["fecha"]\n', encoding="utf-8")
    (tmp_path / "rota.md").write_text("---\nfecha: 2026-01-05\ntags: [viaje\n---\nnota rota\n", encoding="utf-8")
    (tmp_path / "sana.md").write_text("---\nfecha: 2026-01-06\n---\nnota sana\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        listed = vault.list_notes(since="2026-01-01", until="2026-01-31", now="2026-02-01T00:00:00+00:00")
        assert sorted((note.path, note.date) for note in listed) == [("rota.md", "2026-01-05"), ("sana.md", "2026-01-06")]
        problem = next(problem for problem in vault.check().problems if problem.path == "rota.md")
        assert "only its fecha line(s) are read" in str(problem)
