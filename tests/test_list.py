"""`list` (API `Vault.list_notes`, MCP `list_notes`): the notes that pass search's filters, by
date, newest first, without a query; expired notes hidden as on every read path."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import run_cli, write_vault
from mcp_client import run, serve
from test_dating import local_zone, needs_tzset
from vaultmem import Vault
from vaultmem.errors import UsageError

NOW = "2026-12-01T12:00:00+00:00"


@pytest.fixture
def diary(tmp_path: Path) -> Path:
    root = write_vault(tmp_path / "vault", {
        "Daily/2026-11-25.md": "Knee sore after the run.\n",
        "Daily/2026-11-30.md": "Budget review with Tomás.\n",
        "memories/tea.md": "---\nlayer: L3\ncreated: 2026-11-28T09:00:00Z\nexpires_at: 2027-02-01T00:00:00Z\ntags: [people]\n---\nMira drinks oolong.\n",
        "memories/old-desk.md": "---\nlayer: L1\ncreated: 2026-11-20T09:00:00Z\nexpires_at: 2026-11-21T09:00:00Z\n---\nDesk 4B this week.\n",
        "References/Futurama.md": "---\ngenre: Sci-fi\n---\nAn animated series.\n",
        "References/Dune.md": "A novel by Frank Herbert.\n",
    })
    # Undated notes come after the dated ones, the most recently modified first.
    os.utime(root / "References/Dune.md", ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    os.utime(root / "References/Futurama.md", ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    return root


def test_notes_are_listed_newest_first_then_the_undated_by_modification_and_expired_ones_hidden(diary: Path) -> None:
    with Vault(diary) as vault:
        listing = vault.list_notes(now=NOW)
        assert [(note.path, note.date) for note in listing] == [
            ("Daily/2026-11-30.md", "2026-11-30"),
            ("memories/tea.md", "2026-11-28T09:00:00Z"),  # as its created writes it
            ("Daily/2026-11-25.md", "2026-11-25"),
            ("References/Dune.md", None),
            ("References/Futurama.md", None),
        ]
        assert listing.more == 0
        assert listing[1].snippet == "Mira drinks oolong."
        assert (listing[1].layer, listing[1].tags, listing[1].expired) == ("L3", ["people"], False)
        shown = vault.list_notes(now=NOW, include_expired=True)
        expired = [note for note in shown if note.expired]
        assert [(note.path, note.warnings[0]) for note in expired] == [("memories/old-desk.md", "expired at 2026-11-21T09:00:00+00:00")]


def test_k_cuts_the_listing_and_more_counts_the_notes_past_it(diary: Path) -> None:
    with Vault(diary) as vault:
        listing = vault.list_notes(k=2, now=NOW)
    assert [note.path for note in listing] == ["Daily/2026-11-30.md", "memories/tea.md"]
    assert listing.more == 3


def test_since_leaves_out_the_undated_notes_and_says_so(diary: Path) -> None:
    with Vault(diary) as vault:
        listing = vault.list_notes(now=NOW, since="2026-11-26")
        assert [note.path for note in listing] == ["Daily/2026-11-30.md", "memories/tea.md"]
        assert listing.warnings == ["2 notes without a date left out by since/until: a `date:` property, a day in the "
                                    "file name or a `created:` stamp dates a note, as does a `Date:` line at its top (.vaultmem.toml [dates] names others)"]
        empty = vault.list_notes(now=NOW, since="2026-10-01", until="2026-10-31")
    assert list(empty) == []
    assert empty.warnings[0] == ("no note is dated 2026-10-01 … 2026-10-31; 3 dated notes fall outside it, the nearest "
                                 "on 2026-11-25 (after it)")


def test_layer_and_tag_filters_are_searchs(diary: Path) -> None:
    with Vault(diary) as vault:
        assert [note.path for note in vault.list_notes(layers=["semantic"], now=NOW)] == ["memories/tea.md"]
        assert [note.path for note in vault.list_notes(tags=["people"], now=NOW)] == ["memories/tea.md"]
        with pytest.raises(UsageError, match="layers takes a list of strings"):
            vault.list_notes(layers="L3", now=NOW)  # type: ignore[arg-type]
        with pytest.raises(UsageError, match="k"):
            vault.list_notes(k=0)


def test_a_note_written_by_hand_after_indexing_is_listed_as_its_file_says(diary: Path) -> None:
    with Vault(diary) as vault:
        vault.index()
        (diary / "Daily/2026-12-01.md").write_text("Ran 8 km along the canal.\n", encoding="utf-8")
        (diary / "Daily/2026-11-30.md").unlink()
        listing = vault.list_notes(now=NOW, k=2)
    assert [(note.path, note.snippet) for note in listing] == [
        ("Daily/2026-12-01.md", "Ran 8 km along the canal."), ("memories/tea.md", "Mira drinks oolong.")]


def test_a_note_without_a_layer_is_listed_and_found_with_no_layer_said_not_a_dash(tmp_path: Path) -> None:
    # Was `[-, no expiry]`: a person could not tell what the dash stood for. A note of the
    # person's own carries no layer (it is no memory): its bracket says its expiry alone.
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": 'embedder = "hashing"\n',
                                            "boiler.md": "The boiler manual is in the garage.\n",
                                            "service.md": "---\nlayer: L4\n---\nThe boiler is serviced every May.\n"})
    listed = run_cli(root, "list").stdout.splitlines()
    found = run_cli(root, "search", "boiler").stdout.splitlines()
    assert "undated     boiler  [no expiry]  boiler.md" in listed and "undated     service  [L4, no expiry]  service.md" in listed
    assert {line.split(". ", 1)[1] for line in found if line[:3].strip().endswith(".")} == {
        "boiler  [no expiry]  boiler.md", "service  [L4, no expiry]  service.md"}, found


def test_the_cli_lists_by_day_and_prints_json(diary: Path) -> None:
    shown = run_cli(diary, "list", "-k", "2", "--as-of", NOW)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0] == "2026-11-30  [no expiry]  Daily/2026-11-30.md"  # a daily note's title is its day: said once
    assert lines[2].startswith("2026-11-28  tea  [L3, expires 2027-02-01T00:00:00+00:00]  memories/tea.md")
    assert lines[-1] == "… and 3 more (raise -k, or --offset 2 for the next ones)"
    dated = run_cli(diary, "list", "--since", "2026-11-26", "--as-of", NOW, "--json")
    assert dated.exit_code == 0, dated.output
    document = json.loads(dated.stdout)
    assert [note["path"] for note in document["notes"]] == ["Daily/2026-11-30.md", "memories/tea.md"]
    assert document["more"] == 0
    assert document["warnings"][0].startswith("2 notes without a date left out by --since/--until")


@pytest.mark.slow
def test_list_notes_over_mcp(diary: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serve(diary, tmp_path / "server.log") as served:
            answer = await served.call("list_notes", layers=["L3"])
            assert [note["path"] for note in answer["notes"]] == ["memories/tea.md"]
            assert answer["more"] == 0
            refused = await served.error("list_notes", since="whenever")
            assert "since 'whenever' is neither a date nor a duration" in refused

    run(scenario)


@needs_tzset
def test_a_days_note_stands_for_the_whole_local_day_so_an_evening_memory_west_of_utc_is_listed_in_its_day(tmp_path: Path) -> None:
    # 22:00 in New York on the 30th is 03:00 UTC on the 1st: it was listed above the 1st's daily note.
    root = write_vault(tmp_path / "vault", {
        "Daily/2026-12-01.md": "Ran along the canal.\n",
        "Daily/2026-11-30.md": "Budget review.\n",
        "memories/late.md": "---\nlayer: L3\ncreated: 2026-12-01T03:00:00Z\n---\nMira called late.\n",
    })
    with local_zone("America/New_York"), Vault(root) as vault:
        listed = [note.path for note in vault.list_notes(now=NOW)]
    assert listed == ["Daily/2026-12-01.md", "Daily/2026-11-30.md", "memories/late.md"]


@needs_tzset
@pytest.mark.parametrize(("zone", "made"), [
    ("America/New_York", "2026-01-16T04:30:00Z"),  # 23:30 on the 15th there (EST, UTC-5)
    ("Europe/Berlin", "2026-01-15T22:30:00Z"),  # 23:30 on the 15th there (CET, UTC+1)
])
def test_a_winter_day_listed_in_summer_ends_at_its_own_winter_midnight(tmp_path: Path, zone: str, made: str) -> None:
    # Each day's note stands for its local day at that day's offset: with the summer offset of
    # the day the list is asked (an hour more), a memory made at 23:30 was listed in the next day.
    root = write_vault(tmp_path / "vault", {
        "Daily/2026-01-16.md": "Snow on the canal.\n",
        "Daily/2026-01-15.md": "Budget review.\n",
        "memories/late.md": f"---\nlayer: L3\ncreated: {made}\n---\nMira called late.\n",
    })
    with local_zone(zone), Vault(root) as vault:
        listed = [note.path for note in vault.list_notes(now="2026-07-01T12:00:00+00:00")]
    assert listed == ["Daily/2026-01-16.md", "Daily/2026-01-15.md", "memories/late.md"]


@needs_tzset
def test_a_listing_cut_short_still_orders_each_day_at_its_own_offset(tmp_path: Path) -> None:
    # k cuts the list: a note SQL ranks just below the cut (by the day's end in UTC) can belong
    # above it once each day's local end is known, and is read again to be placed.
    root = write_vault(tmp_path / "vault", {
        "Daily/2026-01-15.md": "Budget review.\n",
        "memories/late.md": "---\nlayer: L3\ncreated: 2026-01-15T23:30:00Z\n---\nMira called late.\n",
        "memories/later.md": "---\nlayer: L3\ncreated: 2026-01-16T02:00:00Z\n---\nTomás wrote back.\n",
    })
    with local_zone("Asia/Tokyo"), Vault(root) as vault:  # UTC+9: the 15th ended at 14:59:59 UTC
        listed = vault.list_notes(k=2, now="2026-07-01T12:00:00+00:00")
    assert [note.path for note in listed] == ["memories/later.md", "memories/late.md"]
    assert listed.more == 1


@needs_tzset
def test_since_and_until_a_winter_day_asked_in_summer_hold_that_days_evening_and_not_the_next_morning(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {
        "memories/late.md": "---\nlayer: L3\ncreated: 2026-01-16T04:30:00Z\n---\nMira called late.\n",  # 23:30 on the 15th
        "memories/early.md": "---\nlayer: L3\ncreated: 2026-01-16T05:30:00Z\n---\nTomás wrote early.\n",  # 00:30 on the 16th
    })
    with local_zone("America/New_York"), Vault(root) as vault:
        listed = vault.list_notes(since="2026-01-15", until="2026-01-15", now="2026-07-01T12:00:00+00:00")
        found = vault.search("Mira Tomás", since="2026-01-16", now="2026-07-01T12:00:00+00:00")
    assert [note.path for note in listed] == ["memories/late.md"]
    assert [hit.path for hit in found] == ["memories/early.md"]


@needs_tzset
@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles", "Asia/Tokyo"])
def test_a_day_the_clock_cannot_place_is_ordered_as_its_day_in_utc_not_a_day_later(tmp_path: Path, zone: str) -> None:
    # The OS cannot say where 9999-12-31 starts (past its last year): the 30th's end was put a
    # whole day late, above a memory made on the 31st, in every zone (UTC too).
    root = write_vault(tmp_path / "vault", {
        "Daily/9999-12-30.md": "The last but one day.\n",
        "memories/m.md": "---\nlayer: L3\ncreated: 9999-12-31T10:00:00Z\npermanent: true\n---\nMade on the last day.\n",
    })
    with local_zone(zone), Vault(root) as vault:
        for k in (1, 2):
            assert [note.path for note in vault.list_notes(k=k, now="2026-07-01T12:00:00+00:00")] == [
                "memories/m.md", "Daily/9999-12-30.md"][:k], k


def test_a_daily_note_is_listed_by_its_own_words_not_the_lines_of_its_template(tmp_path: Path) -> None:
    # A trial on a public journal: `list --since 2023-03-06 --until 2023-03-12` showed every day
    # as "Yesterday <== 2023-03-12 ==>Tomorrow · Tasks for the Day · fill by hand · …", its
    # Templater template's lines, and a day whose navigation line Templater left unfilled (or
    # whose template filled its first passage) never reached the day's own words.
    navigation = ('[[Journal/<% tp.date.now("YYYY-MM-DD",-1,tp.file.title,"YYYY-MM-DD") %>|Yesterday]] <== '
                  '[[<% tp.date.now("YYYY-MM-DD",0,tp.file.title,"YYYY-MM-DD") %>]]')
    habits = "".join(f"- [ ] habit number {number} of the morning routine\n" for number in range(40))
    template = f"---\ntype: daily\n---\n\n{navigation}\n\n# Tasks for the Day\n\nfill by hand\n\n{habits}\n# Journaling\n\n"

    def day(date: str, own: str, line: str | None = None) -> str:
        filled = f"[[Journal/{date[:-2]}09|Yesterday]] <== [[{date}]]" if line is None else line
        return template.replace(navigation, filled) + own

    root = write_vault(tmp_path / "vault", {
        ".obsidian/daily-notes.json": '{"folder": "Journal"}',
        ".obsidian/templates.json": '{"folder": "Templates"}',
        "Templates/Daily Template.md": template,
        "Journal/2023-03-10.md": day("2023-03-10", "The room was dark and the air was bad.\n"),
        "Journal/2023-04-14.md": day("2023-04-14", "The Volkshochschule booked the full 100 euros.\n", navigation),
        "Journal/2023-03-09.md": day("2023-03-09", ""),
    })
    with Vault(root) as vault:
        listed = {note.path: note.snippet for note in vault.list_notes(now=NOW)}
    assert listed["Journal/2023-03-10.md"] == "The room was dark and the air was bad.", listed
    assert listed["Journal/2023-04-14.md"] == "The Volkshochschule booked the full 100 euros.", listed
    # a day that says nothing of its own is shown as it opens, its template's lines and all
    assert listed["Journal/2023-03-09.md"].startswith("Yesterday <== 2023-03-09 · Tasks for the Day · fill by hand"), listed


def test_a_list_longer_than_one_answer_comes_in_parts_by_offset_in_the_api_the_cli_and_over_mcp(diary: Path, tmp_path: Path) -> None:
    # A trial on a vault of 1,405 notes: list_notes over MCP gave 100 notes at most and said
    # "more": 1,360, but no argument reached the others.
    with Vault(diary) as vault:
        whole = [note.path for note in vault.list_notes(k=100, now=NOW)]
        parts = [[note.path for note in vault.list_notes(k=2, offset=offset, now=NOW)] for offset in (0, 2, 4)]
        assert sum(parts, []) == whole and len(whole) == 5, (parts, whole)
        assert vault.list_notes(k=2, offset=2, now=NOW).more == 1
        with pytest.raises(UsageError, match=r"offset 5 is past the end of the list \(5 note\(s\) pass the filters\)"):
            vault.list_notes(k=2, offset=5, now=NOW)
    listed = run_cli(diary, "list", "-k", "2", "--offset", "2", "--as-of", NOW)
    assert listed.exit_code == 0 and "… and 1 more (raise -k, or --offset 4 for the next ones)" in listed.stdout, listed.output
    assert [line.split()[-1] for line in listed.stdout.splitlines() if line.endswith(".md")] == whole[2:4]

    async def scenario() -> None:
        async with serve(diary, tmp_path / "server.log") as served:
            first = await served.call("list_notes", k=3)
            assert first["next_offset"] == 3 and first["more"] == 2, first
            rest = await served.call("list_notes", k=3, offset=first["next_offset"])
            assert rest["next_offset"] is None and rest["more"] == 0, rest
            assert [note["path"] for note in first["notes"] + rest["notes"]] == [note["path"] for note in (await served.call("list_notes", k=100))["notes"]]
            assert "offset 9 is past the end of the list" in await served.error("list_notes", offset=9)

    run(scenario)


def test_an_offset_past_what_sqlite_takes_is_refused_in_words_not_an_overflow(diary: Path, tmp_path: Path) -> None:
    # Was: list_notes(offset=2**63) (MCP's offset has no upper bound) raised OverflowError
    # ("Python int too large to convert to SQLite INTEGER") out of the storage layer.
    with Vault(diary) as vault:
        for offset in (2**63, 2**63 - 1):
            with pytest.raises(UsageError, match=r"offset .* at most 1,000,000,000"):
                vault.list_notes(k=2, offset=offset, now=NOW)
            with pytest.raises(UsageError, match=r"offset .* at most 1,000,000,000"):
                vault.tasks(k=2, offset=offset, now=NOW)
        with pytest.raises(UsageError, match=r"offset 1000000000 is past the end of the list"):
            vault.list_notes(k=100, offset=10**9, now=NOW)

    async def scenario() -> None:
        async with serve(diary, tmp_path / "server.log") as served:
            refused = await served.error("list_notes", k=3, offset=2**63)
            assert "at most 1,000,000,000" in refused, refused

    run(scenario)
