"""Periodic notes (a week's, a month's, a quarter's, a year's) are dated as the period they cover:
a span from its first day to its last, kept by a range it overlaps (adr/0026 "Periodic notes")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli, run_json, write_file, write_vault

from vaultmem import Vault
from vaultmem.storage import Eligibility, EpochBound, NoteRow, Store

CONFIG = 'embedder = "hashing"\n'
NOW = "2026-03-04T12:00:00+00:00"
PERIODIC = ".obsidian/plugins/periodic-notes/data.json"
DAY_US = 86_400_000_000


@pytest.fixture
def planning(tmp_path: Path) -> Path:
    """A vault with periodic notes named in the ISO shapes, and no Periodic Notes settings."""
    return write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "planning/weekly/2026-W09.md": "# Week 9\n\nHarbor launch: book the ferry.\n",  # 23 Feb … 1 Mar
        "planning/monthly/2026-02.md": "# February\n\nHarbor permits filed.\n",
        "planning/quarterly/2026-Q1.md": "# Q1\n\nHarbor goals for the quarter.\n",
        "planning/2026.md": "# 2026\n\nHarbor year.\n",  # a bare year: no plugin says it is one
        "Daily/2026-03-01.md": "Harbor walk on Sunday.\n",
        "Daily/2026-03-02.md": "Harbor meeting on Monday.\n",
        "Notes/ideas.md": "Harbor ideas, undated.\n",
    })


def listed(root: Path, **filters: str) -> dict[str, str | None]:
    """``list`` through the API (a fresh Vault: one command): path → date, in the listing's order."""
    with Vault(root) as vault:
        return {note.path: note.date for note in vault.list_notes(k=50, now=NOW, **filters)}  # type: ignore[arg-type]


def periodic_settings(root: Path, **kinds: dict[str, object]) -> None:
    """What Periodic Notes 0.x writes: one entry per kind of note (``weekly``, ``monthly`` …)."""
    write_file(root, PERIODIC, json.dumps({"daily": {"enabled": False, "format": "", "folder": ""}, **kinds}))


def test_a_week_month_and_quarter_note_are_kept_by_a_range_their_days_overlap(planning: Path) -> None:
    assert listed(planning, since="2026-W09", until="2026-W09") == {
        "planning/quarterly/2026-Q1.md": "2026-Q1",
        "planning/weekly/2026-W09.md": "2026-W09",
        "Daily/2026-03-01.md": "2026-03-01",
        "planning/monthly/2026-02.md": "2026-02",
    }
    # W09 reaches into March (its Sunday is 1 March); February does not.
    assert list(listed(planning, since="2026-03-01")) == [
        "planning/quarterly/2026-Q1.md", "Daily/2026-03-02.md", "planning/weekly/2026-W09.md", "Daily/2026-03-01.md"]
    assert list(listed(planning, since="2026-03-02")) == ["planning/quarterly/2026-Q1.md", "Daily/2026-03-02.md"]
    assert list(listed(planning, until="2026-02-22")) == ["planning/quarterly/2026-Q1.md", "planning/monthly/2026-02.md"]


def test_search_since_until_keeps_the_weeks_own_note(planning: Path) -> None:
    hits = run_json(planning, "search", "harbor", "--since", "2026-W09", "--until", "2026-W09", "--as-of", NOW)
    assert isinstance(hits, list)
    assert {hit["path"]: hit["date"] for hit in hits} == {
        "planning/weekly/2026-W09.md": "2026-W09", "planning/monthly/2026-02.md": "2026-02",
        "planning/quarterly/2026-Q1.md": "2026-Q1", "Daily/2026-03-01.md": "2026-03-01"}


def test_this_week_and_last_week_keep_that_weeks_note(planning: Path) -> None:
    # NOW is Wednesday 4 March (W10): last week is W09, this week holds no week note.
    result = run_cli(planning, "list", "--since", "last week", "--until", "last week", "--as-of", NOW)
    assert result.exit_code == 0, result.output
    assert "planning/weekly/2026-W09.md" in result.stdout
    assert "2026-W09" in result.stdout
    this_week = run_cli(planning, "list", "--since", "this week", "--as-of", "2026-02-25T12:00:00+00:00")
    assert "planning/weekly/2026-W09.md" in this_week.stdout, this_week.output


def test_a_hits_date_names_the_period_and_reads_back_as_its_days(planning: Path) -> None:
    with Vault(planning) as vault:
        (hit,) = [hit for hit in vault.search("book the ferry", k=10, now=NOW) if hit.path.endswith("2026-W09.md")]
        assert hit.date == "2026-W09"
        again = vault.search("book the ferry", k=10, now=NOW, since=hit.date, until=hit.date)
    assert "planning/weekly/2026-W09.md" in [found.path for found in again]


def test_list_orders_a_periodic_note_by_its_last_day_above_that_days_notes(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "Monthly/2026-11.md": "November review.\n",
        "Weekly/2026-W48.md": "Week 48 review.\n",  # 23 … 29 November
        "Daily/2026-11-30.md": "Monday.\n",
        "Daily/2026-11-29.md": "Sunday.\n",
        "Daily/2026-11-28.md": "Saturday.\n",
        "Daily/2026-12-01.md": "Tuesday.\n",
    })
    assert list(listed(root)) == ["Daily/2026-12-01.md", "Monthly/2026-11.md", "Daily/2026-11-30.md", "Weekly/2026-W48.md",
                                  "Daily/2026-11-29.md", "Daily/2026-11-28.md"]


def test_a_bare_year_is_a_year_note_only_where_periodic_notes_names_yearly_notes(planning: Path) -> None:
    assert listed(planning)["planning/2026.md"] is None
    write_file(planning, "1984.md", "A novel by Orwell.\n")
    periodic_settings(planning, yearly={"enabled": True, "format": "YYYY", "folder": "planning"})
    dates = listed(planning)
    assert dates["planning/2026.md"] == "2026"
    assert dates["1984.md"] is None  # outside the yearly notes' folder: a book, not a year
    assert "planning/2026.md" in listed(planning, since="2026-W09", until="2026-W09")


def test_a_custom_weekly_format_in_its_folder_dates_the_notes_it_names(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "Weekly/2026 week 9.md": "Week nine.\n",
        "Monthly/March 2026.md": "March.\n",
        "Notes/March 2026.md": "A note about March, not a monthly note.\n",
        "Quarters/2026 Q1.md": "Quarter.\n",
    })
    periodic_settings(root, weekly={"enabled": True, "format": "YYYY [week] w", "folder": "Weekly"},
                      monthly={"enabled": True, "format": "MMMM YYYY", "folder": "Monthly/"},
                      quarterly={"enabled": False, "format": "YYYY [Q]Q", "folder": "Quarters"})
    assert listed(root) == {"Monthly/March 2026.md": "2026-03", "Weekly/2026 week 9.md": "2026-W09",
                            "Notes/March 2026.md": None, "Quarters/2026 Q1.md": None}  # quarterly notes not enabled


def test_periodic_notes_1x_reads_the_week_of_its_active_calendar_set(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Weekly/2026-W09.md": "Week nine.\n",
                                            "Plans/W09 of 2026.md": "Week nine, the other set.\n"})
    write_file(root, PERIODIC, json.dumps({"activeCalendarSet": "work", "calendarSets": [
        {"id": "home", "week": {"enabled": True, "format": "gggg-[W]ww", "folder": "Weekly"}},
        {"id": "work", "week": {"enabled": True, "format": "[W]ww [of] gggg", "folder": "Plans"}}]}))
    # The active set's format names the Plans note; Weekly/2026-W09 is still a week by its ISO shape.
    assert listed(root) == {"Weekly/2026-W09.md": "2026-W09", "Plans/W09 of 2026.md": "2026-W09"}


def test_a_changed_weekly_format_dates_the_notes_again_at_the_next_command(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Weekly/Week 09 2026.md": "Week nine.\n"})
    assert listed(root) == {"Weekly/Week 09 2026.md": None}
    periodic_settings(root, weekly={"enabled": True, "format": "[Week] ww YYYY", "folder": "Weekly"})
    assert listed(root) == {"Weekly/Week 09 2026.md": "2026-W09"}


def test_explain_says_the_period_and_why_the_range_keeps_or_leaves_it(planning: Path) -> None:
    with Vault(planning) as vault:
        kept = vault.explain("planning/weekly/2026-W09.md", "ferry", since="2026-03-01", now=NOW)
        left = vault.explain("planning/weekly/2026-W09.md", "ferry", since="2026-03-02", now=NOW)
    assert kept.in_answer
    assert ("kept by since the day 2026-03-01: its date is the week 2026-W09 (23 Feb … 1 Mar 2026), and a periodic note "
            "is kept when any day of its period is in the range") in kept.reasons, kept.reasons
    assert not left.in_answer
    assert ("filtered out by since the day 2026-03-02: its date is the week 2026-W09 (23 Feb … 1 Mar 2026) (from its "
            "file name), and no day of it is in the range") in left.reasons, left.reasons


def test_explain_names_the_weekly_format_that_dated_the_note(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Weekly/2026 week 9.md": "Ferry booked.\n"})
    periodic_settings(root, weekly={"enabled": True, "format": "YYYY [week] w", "folder": "Weekly"})
    with Vault(root) as vault:
        left = vault.explain("Weekly/2026 week 9.md", "ferry", until="2026-02-22", now=NOW)
    assert any("its date is the week 2026-W09 (23 Feb … 1 Mar 2026) (from its name in the weekly-note format "
               f"YYYY [week] w in Weekly/ ({PERIODIC} weekly))" in reason for reason in left.reasons), left.reasons


def test_check_names_a_periodic_name_that_is_no_period(planning: Path) -> None:
    write_file(planning, "planning/weekly/2026-W54.md", "A week that does not exist.\n")
    write_file(planning, "planning/2026-Q5.md", "A fifth quarter.\n")
    write_file(planning, "seasons/2024-25.md", "The 2024-25 season.\n")  # a school year: no month, no mistake
    result = run_cli(planning, "check")
    assert result.exit_code == 1
    assert ("planning/weekly/2026-W54.md: file name: '2026-W54' is shaped as a week note's name, but 2026 has 53 ISO "
            "weeks (2026-W01 to 2026-W53)") in result.output
    assert "planning/2026-Q5.md: file name: '2026-Q5' is shaped as a quarter note's name, but quarters are 1 to 4" in result.output
    assert "2024-25" not in result.output


def test_check_names_a_periodic_notes_date_property_outside_its_period(planning: Path) -> None:
    # The property wins (adr/0026): a weekly note stamped with a day of another week is left out of
    # its own week's range. A daily note so contradicted was named; a periodic one was not.
    write_file(planning, "planning/weekly/2026-W10.md", "---\ndate: 2026-02-25\n---\nWeek 10 plan.\n")
    write_file(planning, "planning/weekly/2026-W11.md", "---\ndate: 2026-03-09\n---\nWeek 11 plan.\n")  # its Monday: kept
    result = run_cli(planning, "check")
    assert result.exit_code == 1
    assert ("planning/weekly/2026-W10.md: date: date is 2026-02-25, the day 2026-02-25, outside the week 2026-W10 "
            "(2 Mar … 8 Mar 2026) the note's name is") in result.output, result.output
    assert "2026-W11" not in result.output
    assert "planning/weekly/2026-W10.md" not in listed(planning, since="2026-W10", until="2026-W10")


def test_the_undated_count_leaves_periodic_notes_out(planning: Path) -> None:
    with Vault(planning) as vault:
        listing = vault.list_notes(now=NOW, since="2026-03-01")
    # Undated: Notes/ideas.md and planning/2026.md (a bare year, no plugin) — not the week, month or quarter notes.
    assert listing.warnings[0].startswith("2 notes without a date left out by since/until"), listing.warnings


def test_settings_of_a_shape_the_plugin_never_writes_are_problems_and_the_other_kinds_are_read(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Monthly/March 2026.md": "March.\n"})
    periodic_settings(root, weekly=[1], monthly={"enabled": True, "format": "MMMM YYYY", "folder": "Monthly"},
                      quarterly={"enabled": "yes"}, yearly={"enabled": True, "format": "[Year]", "folder": ""})
    assert listed(root) == {"Monthly/March 2026.md": "2026-03"}
    result = run_cli(root, "check")
    assert result.exit_code == 1
    assert f"{PERIODIC}: weekly: is a list, not an object; its weekly notes are dated by the other rules" in result.output
    assert f"{PERIODIC}: quarterly.enabled: is text ('yes'), not true or false" in result.output
    assert f"{PERIODIC}: yearly.format: '[Year]': it names no year, so no year" in result.output


def test_the_range_sql_keeps_a_span_it_overlaps_and_the_date_index_still_narrows(tmp_path: Path) -> None:
    """Eligibility.where (SQL) and in_range (Python) agree on spans at every edge, and the index on
    the date column is still what the range is read through."""
    first, last = 20_000 * DAY_US, 20_006 * DAY_US  # a week's first and last days' labels
    since, until = EpochBound(20_006 * DAY_US, 20_006 * DAY_US - 3_600_000_000), EpochBound(20_010 * DAY_US - 1, 20_010 * DAY_US)
    store = Store(tmp_path / ".vaultmem")
    rows: dict[int, tuple[int, int | None]] = {}
    spans = [(first + shift * DAY_US, last + shift * DAY_US) for shift in range(-3, 8)] + [(day * DAY_US, None) for day in range(20_000, 20_012)]
    try:
        with store.transaction():
            for number, (start, end) in enumerate(spans):
                row = NoteRow(id=f"n{number}", path=f"n{number}.md", title="n", layer=None, tags=[], created=None, created_us=None,
                              expires_at=None, expires_us=None, expiry_invalid=False, permanent=False, content_hash="h",
                              embed_hash="e", mtime_ns=0, size=0, body_chars=0, problems=[], dated_us=start, dated_day=True,
                              dated_end_us=end)
                rows[store.notes.insert(row)] = (start, end)
        for bounds in ({"since_us": since}, {"until_us": until}, {"since_us": since, "until_us": until}):
            eligibility = Eligibility(now_us=0, include_expired=True, **bounds)  # type: ignore[arg-type]
            in_sql = set(store.notes.all_eligible_labels(eligibility))
            in_python = {label for label, (start, end) in rows.items() if eligibility.in_range(start, True, end)}
            assert in_sql == in_python, bounds
            assert 0 < len(in_sql) < len(rows)
            where, params = eligibility.where()
            plan = " ".join(str(step[-1]) for step in store.db.execute(f"EXPLAIN QUERY PLAN SELECT label FROM notes WHERE {where}", params))
            assert "notes_dated" in plan, plan
        both = Eligibility(now_us=0, include_expired=True, since_us=since)
        assert both.in_range(first, True, last)
        assert not both.in_range(first - DAY_US, True, last - DAY_US)
    finally:
        store.close()


def test_an_empty_range_names_the_nearest_period_before_it_by_where_it_ends(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG,
                                            "2025.md": "x\n", "Daily/2025-11-20.md": "Day.\n"})
    periodic_settings(root, yearly={"enabled": True, "format": "YYYY", "folder": ""})
    with Vault(root) as vault:
        empty = vault.list_notes(now=NOW, since="2026-01-05", until="2026-01-09")
    assert empty.warnings[0] == "no note is dated 2026-01-05 … 2026-01-09; 2 dated notes fall outside it, the nearest on 2025 (before it)"


def test_a_week_or_quarter_that_opens_a_name_before_a_title_dates_the_note(tmp_path: Path) -> None:
    # A trial: "30. Tasks/2026-W09 本周任务.md" (the week's tasks) was undated, while
    # "2026-11-28 Standup.md" is its day's: `list --since 2026-W09` left the week's own note out.
    root = write_vault(tmp_path / "vault", {
        ".vaultmem.toml": CONFIG,
        "Tasks/2026-W09 本周任务.md": "# 2026-W09\n\n- [ ] Harbor ferry booking 📅 2026-02-27\n",
        "Reviews/2026-Q1 OKR review.md": "# Q1\n\nHarbor goals met.\n",
        "Plans/2026-03 Budget.md": "Harbor budget.\n",  # a month before a title: not read (a plan made in March?)
        "Drafts/2026-W09notes.md": "Harbor draft.\n",  # no space: not a week before a title
    })
    dates = listed(root, since="2026-W09", until="2026-W09")
    assert dates == {"Tasks/2026-W09 本周任务.md": "2026-W09", "Reviews/2026-Q1 OKR review.md": "2026-Q1"}
    assert listed(root)["Plans/2026-03 Budget.md"] is None
    assert listed(root)["Drafts/2026-W09notes.md"] is None
