"""A `created` written in words (`created: 3 March 2026`), a linked day or a year is read by every
reader of `created` as the note's date reads it (notes.created_moment → spelled_days.value_date,
adr/0026 "One reader of created"): the index's `created_us` that `stale` falls back to,
consolidation's oldest-created rule, `revise`'s TTL counted from `created`, and `check`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vaultmem import Vault, parse_timestamp

NOW = "2026-11-30T12:00:00+00:00"
HASHING = 'embedder = "hashing"\n'


def _recent_mtime(path: Path) -> None:
    """The file was saved the day before NOW: only its `created` can make it stale."""
    moment = parse_timestamp("2026-11-29T12:00:00Z").timestamp()
    os.utime(path, (moment, moment))


@pytest.fixture
def hashing_vault(vault_dir: Path, write_note) -> Path:
    write_note(".vaultmem.toml", HASHING)
    return vault_dir


@pytest.mark.parametrize(("created", "day"), [("3 March 2026", "2026-03-03"), ("March 3rd 2026", "2026-03-03"),
                                              ('"[[2026-03-03]]"', "2026-03-03"), ("2026", "2026-01-01")])
def test_stale_counts_from_a_created_in_words_not_from_the_files_time(hashing_vault: Path, write_note, created: str,
                                                                      day: str) -> None:
    # Was: created_us read only a timestamp, so `stale` fell back to the file's time (saved
    # yesterday) and a memory unused since March was not listed, while `list` dated it in March.
    _recent_mtime(write_note("fact.md", f"---\nlayer: L3\ncreated: {created}\nexpires_at: 2027-09-01\n---\nthe boat is blue\n"))
    with Vault(hashing_vault) as vault:
        vault.index()
        stale = {note.path: note for note in vault.stale(days=90, now=NOW)}
        assert stale["fact.md"].basis == "created"
        assert vault.store.notes.by_path("fact.md").created_us == parse_timestamp(day).timestamp() * 1_000_000
        assert [problem.field for problem in vault.check().problems if problem.path == "fact.md"] == []


def test_a_created_in_words_that_is_recent_keeps_the_note_off_the_stale_list(hashing_vault: Path, write_note) -> None:
    path = write_note("fact.md", "---\nlayer: L3\ncreated: November 28, 2026\nexpires_at: 2027-09-01\n---\nthe boat is blue\n")
    moment = parse_timestamp("2026-01-01T00:00:00Z").timestamp()  # an old file (a copy, a checkout): its created decides
    os.utime(path, (moment, moment))
    with Vault(hashing_vault) as vault:
        vault.index()
        assert "fact.md" not in [note.path for note in vault.stale(days=7, now=NOW)]


def test_consolidation_keeps_the_note_created_first_when_its_created_is_in_words(hashing_vault: Path, write_note) -> None:
    # Was: a `created` in words counted as none, which sorts last, so the newer copy was kept and
    # the note the person wrote first (its id, its name) was archived into it.
    fact = "The Harbor standup is at 9:30 in the Tejo room.\n"
    write_note("a-newer.md", f"---\ntitle: Standup (copy)\nlayer: L3\ncreated: 2026-06-01T09:00:00Z\nexpires_at: 2027-06-01\n---\n{fact}")
    write_note("z-older.md", f"---\ntitle: Standup\nlayer: L3\ncreated: 3 March 2026\nexpires_at: 2027-06-01\n---\n{fact}")
    with Vault(hashing_vault) as vault:
        vault.index()
        report = vault.consolidate(all=True, now=NOW)
    [cluster] = report.clusters
    assert cluster.canonical.path == "z-older.md"
    assert "created first" in cluster.why_kept


def test_revise_moves_an_expiry_counted_from_a_created_in_words_when_the_day_moves(hashing_vault: Path, write_note) -> None:
    # `check --fix` stamps expires_at = created + the layer's TTL from a created in words (L2: 7
    # days). Was: revise read only a timestamp there, took that deadline for one someone gave,
    # and a concert's memory moved to the 18th still expired on 5 December.
    write_note("concert.md", "---\nlayer: L2\ncreated: November 28, 2026\n---\nSchool concert\n")
    with Vault(hashing_vault) as vault:
        vault.check(fix=True, now=NOW)
        assert vault.get("concert").expires_at == "2026-12-05T00:00:00+00:00"
        moved = vault.revise("concert", set_properties={"date": "2026-12-18"}, now=NOW)
    assert moved.expires_at == "2026-12-25T00:00:00+00:00"
    assert moved.changed == ["expires_at", "date"]


PERSIAN_PLUGIN_ON = {".obsidian/community-plugins.json": '["persian-calendar"]',
                     ".obsidian/plugins/persian-calendar/data.json": '{"dateFormat": "persian"}'}


def test_check_fix_counts_the_ttl_from_a_solar_hijri_created_as_the_index_reads_it(hashing_vault: Path, write_note) -> None:
    # With the Persian Calendar plugin on, `created: 1403-05-12` is 2024-08-02 to the note's date,
    # `get`, `stale` (the index's created_us) and `list`. Was: `check --fix` read it as the year
    # 1403 AD and stamped `expires_at: 1403-08-10` ("already expired"): the memory vanished from
    # every search the moment the person ran the fix `check` itself suggested.
    for relative, text in PERSIAN_PLUGIN_ON.items():
        write_note(relative, text)
    write_note("tiles.md", "---\nlayer: L3\ncreated: 1403-05-12\n---\nWe chose the blue tiles for the kitchen.\n")
    with Vault(hashing_vault) as vault:
        vault.index()
        assert vault.store.notes.by_path("tiles.md").created_us == parse_timestamp("2024-08-02").timestamp() * 1_000_000
        [fixed] = vault.check(fix=True, now="2024-08-10T00:00:00Z").fixed
        assert fixed.action == "stamped expires_at 2024-10-31T00:00:00+00:00 (created + L3 TTL; alive)"
        assert [hit.path for hit in vault.search("blue tiles", now="2024-08-10T00:00:00Z")] == ["tiles.md"]


def test_consolidation_reads_a_solar_hijri_created_as_the_vault_dates_it(hashing_vault: Path, write_note) -> None:
    # Was: `created: 1403-05-12` read as the year 1403 AD, so it counted as 600 years older than a
    # copy remember wrote in 2024, and won the "created first" tie-break against the older note.
    for relative, text in PERSIAN_PLUGIN_ON.items():
        write_note(relative, text)
    fact = "The Harbor standup is at 9:30 in the Tejo room.\n"
    write_note("a-older.md", f"---\ntitle: Standup\nlayer: L3\ncreated: 2024-06-01T09:00:00Z\nexpires_at: 2027-06-01\n---\n{fact}")
    write_note("z-newer.md", f"---\ntitle: Standup (copy)\nlayer: L3\ncreated: 1403-05-12\nexpires_at: 2027-06-01\n---\n{fact}")
    with Vault(hashing_vault) as vault:
        vault.index()
        report = vault.consolidate(all=True, now=NOW)
    [cluster] = report.clusters
    assert cluster.canonical.path == "a-older.md"
    assert "created first" in cluster.why_kept


def test_revise_moves_an_expiry_counted_from_a_solar_hijri_created_when_the_day_moves(hashing_vault: Path,
                                                                                     write_note) -> None:
    # Each reader of `created` reads the vault's calendar: check --fix stamps created + 7 days
    # (L2) from 2024-08-02, and revise, moving the note's day, recognises that deadline as its own.
    for relative, text in PERSIAN_PLUGIN_ON.items():
        write_note(relative, text)
    write_note("concert.md", "---\nlayer: L2\ncreated: 1403-05-12\n---\nSchool concert\n")
    with Vault(hashing_vault) as vault:
        vault.check(fix=True, now="2024-08-03T00:00:00Z")
        assert vault.get("concert").expires_at == "2024-08-09T00:00:00+00:00"
        moved = vault.revise("concert", set_properties={"date": "2024-08-20"}, now="2024-08-03T00:00:00Z")
    assert moved.expires_at == "2024-08-27T00:00:00+00:00"


@pytest.mark.parametrize("created", ["2026-03-03T25:00", "2026-03-03 10:00 PST", "2026-03-03T10:00:00+25:00"])
def test_a_created_whose_time_does_not_read_is_told_and_dates_the_note_by_its_day(hashing_vault: Path, write_note,
                                                                                 created: str) -> None:
    # Was: the one reader found the day in the text and the broken time was dropped without a word:
    # no check problem, no warning on a hit, a note "created" at midnight nobody wrote.
    write_note("fact.md", f"---\nlayer: L3\ncreated: '{created}'\nexpires_at: 2027-09-01\n---\nthe boat is blue\n")
    with Vault(hashing_vault) as vault:
        vault.index()
        [problem] = [problem for problem in vault.check().problems if problem.path == "fact.md"]
        [hit] = vault.search("boat", now=NOW)
        assert vault.store.notes.by_path("fact.md").created_us == parse_timestamp("2026-03-03").timestamp() * 1_000_000
    assert problem.field == "created"
    assert "its time does not read, so the note counts as created on the day 2026-03-03" in problem.message
    assert problem.fix.startswith("write the time as ISO-8601, such as 2026-03-03T09:00")
    assert any(warning.startswith("created: invalid timestamp") for warning in hit.warnings)


def test_a_created_that_is_no_solar_hijri_day_is_told_when_the_vault_reads_that_calendar(hashing_vault: Path,
                                                                                        write_note) -> None:
    # 1402 is no leap year of that calendar: 1402-12-30 is no day of it. Was: every reader of
    # created read no date (stale fell back to the file's time) and check said nothing, since
    # 1402-12-30 is a Gregorian day; `date: 1402-12-30` was told already.
    for relative, text in PERSIAN_PLUGIN_ON.items():
        write_note(relative, text)
    write_note("tiles.md", "---\nlayer: L3\ncreated: 1402-12-30\nexpires_at: 2027-01-01\n---\nthe blue tiles\n")
    write_note("ok.md", "---\nlayer: L3\ncreated: 1403-05-12\nexpires_at: 2027-01-01\n---\nthe red tiles\n")
    with Vault(hashing_vault) as vault:
        vault.index()
        problems = [(problem.path, problem.field) for problem in vault.check().problems]
        assert vault.store.notes.by_path("tiles.md").created_us is None
    assert problems == [("tiles.md", "created")]


@pytest.mark.parametrize(("created", "stamped"), [
    ("1403-05-12T10:00:00+03:30", "2024-10-31T06:30:00+00:00"),  # YAML reads it as a timestamp
    ("'1403-05-12 10:00'", "2024-10-31T10:00:00+00:00"),  # quoted: a text
])
def test_check_fix_reads_a_solar_hijri_created_with_a_time_in_that_calendar(hashing_vault: Path, write_note, created: str,
                                                                           stamped: str) -> None:
    # Review s38: stop 37 read a Solar Hijri `created` day in the vault's calendar everywhere, but
    # one with a time was still the year 1403 AD to every reader: `check --fix` stamped
    # `expires_at: 1403-08-10T06:30` ("already expired") and the memory left every search.
    for relative, text in PERSIAN_PLUGIN_ON.items():
        write_note(relative, text)
    write_note("tiles.md", f"---\nlayer: L3\ncreated: {created}\n---\nWe chose the blue tiles for the kitchen.\n")
    with Vault(hashing_vault) as vault:
        vault.index()
        [fixed] = vault.check(fix=True, now="2024-08-10T00:00:00Z").fixed
        assert fixed.action == f"stamped expires_at {stamped} (created + L3 TTL; alive)"
        assert vault.store.notes.by_path("tiles.md").created_us == parse_timestamp(stamped).timestamp() * 1_000_000 - 90 * 86_400_000_000
        assert [hit.path for hit in vault.search("blue tiles", now="2024-08-10T00:00:00Z")] == ["tiles.md"]


def test_a_solar_hijri_created_that_is_no_gregorian_day_is_no_check_problem_when_the_vault_reads_that_calendar(
        hashing_vault: Path, write_note) -> None:
    # Review s38: `created: 1403-02-31` is 2024-05-20 with the Persian Calendar plugin on (its first
    # six months have 31 days), as `list`, `get` and `check --fix` read it; `check` called it
    # "no day or time" (read as February 31st) and told the person to write an ISO date.
    # A day with a time no calendar of the vault has is still told.
    for relative, text in PERSIAN_PLUGIN_ON.items():
        write_note(relative, text)
    write_note("tiles.md", "---\nlayer: L3\ncreated: 1403-02-31\nexpires_at: 2027-01-01\n---\nthe blue tiles\n")
    write_note("lamp.md", "---\nlayer: L3\ncreated: 1403-07-31T10:00\nexpires_at: 2027-01-01\n---\nthe red lamp\n")
    with Vault(hashing_vault) as vault:
        vault.index()
        problems = [(problem.path, problem.field) for problem in vault.check().problems]
        shown = vault.get("tiles").problems
        assert vault.store.notes.by_path("tiles.md").created_us == parse_timestamp("2024-05-20").timestamp() * 1_000_000
    assert problems == [("lamp.md", "created")]
    assert shown == []

@pytest.mark.parametrize(("name", "text"), [
    ("202403141205 Spaced repetition.md", "---\ntags: [idea]\n---\nSpaced repetition beats cramming.\n"),
    ("Spaced repetition.md", "---\nid: 202403141205\n---\nSpaced repetition beats cramming.\n"),
    ("Spaced repetition 2.md", "---\nid: '20240314120500'\n---\nSpaced repetition beats cramming.\n"),
])
def test_stale_counts_a_zettel_never_used_from_its_timestamp_id_not_from_the_files_time(
        hashing_vault: Path, write_note, name: str, text: str) -> None:
    # A trial on a Zettelkasten cloned yesterday: no `created`, every file's time was the clone's,
    # so `stale` listed no zettel of 2024 — while `list` dated the id-named one in March 2024.
    _recent_mtime(write_note(name, text))
    with Vault(hashing_vault) as vault:
        vault.index()
        stale = {note.path: note for note in vault.stale(days=90, now=NOW)}
        assert stale[name].basis == "created" and stale[name].since.startswith("2024-03-14")
        assert vault.store.notes.by_path(name).date == "2024-03-14"  # the note's date, read by the same rule


def test_a_daily_notes_name_is_the_day_it_is_about_not_when_it_was_made_so_stale_keeps_the_files_time(
        hashing_vault: Path, write_note) -> None:
    _recent_mtime(write_note("2024-03-14.md", "Met Ana about the boat.\n"))
    _recent_mtime(write_note("20240314120 odd.md", "---\nid: 202413141205\n---\nnot a zettel id: month 13\n"))
    with Vault(hashing_vault) as vault:
        vault.index()
        assert vault.stale(days=90, now=NOW) == []
        assert vault.store.notes.by_path("20240314120 odd.md").date is None


@pytest.mark.parametrize(("name", "text", "since"), [
    ("202403141300 Spaced repetition.md", "Spaced repetition beats cramming.\n", "2024-03-14T13:00:00+00:00"),
    ("Spaced repetition.md", "---\nid: 202403141300\n---\nSpaced repetition beats cramming.\n", "2024-03-14T13:00:00+00:00"),
    ("Spaced repetition 2.md", "---\nid: '20240314130512'\n---\nSpaced repetition beats cramming.\n", "2024-03-14T13:05:12+00:00"),
])
def test_stale_counts_a_zettel_from_the_minute_its_timestamp_id_names_not_its_days_midnight(
        hashing_vault: Path, write_note, name: str, text: str, since: str) -> None:
    # Was (stop 38's leftover): `stale` printed 202403141300's zettel as "since created
    # 2024-03-14 00:00:00" — the id names 13:00, and says so to the minute.
    _recent_mtime(write_note(name, text))
    with Vault(hashing_vault) as vault:
        vault.index()
        stale = {note.path: note for note in vault.stale(days=90, now=NOW)}
        assert stale[name].basis == "created" and stale[name].since == since
        assert vault.store.notes.by_path(name).date == "2024-03-14"  # the note's own day is still the day
