"""A time the agent or the person writes in their own zone stays in it (writer.memory_day,
noteio.render_scalar, dating.NoteDate.said): ``remember(date="2026-12-09T10:00-08:00")`` wrote
``date: 2026-12-09T18:00:00+00:00``, and Obsidian showed 18:00 for a 10:00 dentist appointment.
Expiry is still compared in UTC; ``expires_at`` and ``created``, vaultmem's stamps, stay UTC
(adr/0003 "Times in the person's zone")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli
from test_dating import local_zone, needs_tzset
from vaultmem import Vault

NOW = "2026-12-02T10:00:00+00:00"


@pytest.fixture
def vault(vault_dir: Path) -> Vault:
    with Vault(vault_dir) as opened:
        yield opened


def text_of(vault: Vault, path: str) -> str:
    return (vault.root / path).read_text(encoding="utf-8")


def test_remember_writes_a_date_with_an_offset_in_that_offset_and_hits_show_it_so(vault: Vault) -> None:
    result = vault.remember("Dentist appointment, Dr. Alvarez", date="2026-12-09T10:00-08:00", now=NOW)
    text = text_of(vault, result.path)
    assert "\ndate: 2026-12-09T10:00:00-08:00\n" in text  # was 2026-12-09T18:00:00+00:00
    assert "\ncreated: 2026-12-02T10:00:00+00:00\n" in text  # vaultmem's stamp of now: UTC, as before
    assert result.expires_at == "2026-12-16T18:00:00+00:00"  # L2 from 10:00 in UTC-8, kept in UTC
    assert vault.search("dentist Alvarez", k=1, now=NOW)[0].date == "2026-12-09T10:00:00-08:00"
    assert vault.get(result.path, now=NOW).date == "2026-12-09T10:00:00-08:00"
    # Compared as the instant it is: 18:00 UTC is in the UTC day of the 9th
    assert [n.path for n in vault.list_notes(since="2026-12-09", until="2026-12-09", now=NOW)] == [result.path]


def test_remember_writes_a_date_without_an_offset_as_obsidians_date_and_time_property_does(vault: Vault) -> None:
    result = vault.remember("Dentist appointment, Dr. Alvarez", date="2026-12-09T10:00", now=NOW)
    assert "\ndate: 2026-12-09T10:00\n" in text_of(vault, result.path)  # was 2026-12-09T10:00:00+00:00
    # A wall-clock time is the person's local time: its day counts from local midnight (the tests run in UTC)
    assert result.expires_at == "2026-12-16T00:00:00+00:00"
    assert vault.get(result.path, now=NOW).date == "2026-12-09T10:00"  # was 2026-12-09 (the time lost)
    assert vault.search("dentist Alvarez", k=1, now=NOW)[0].date == "2026-12-09T10:00"


@needs_tzset
def test_a_wall_clock_time_lives_through_its_local_day_in_the_machines_zone(vault: Vault) -> None:
    with local_zone("America/Los_Angeles"):
        result = vault.remember("Pick up the cake", layer="L1", date="2026-12-09T10:00", now=NOW)
    assert "\ndate: 2026-12-09T10:00\n" in text_of(vault, result.path)
    assert result.expires_at == "2026-12-10T08:00:00+00:00"  # from midnight in Los Angeles (was 2026-12-10T10:00 UTC)


def test_cli_remember_date_keeps_the_offset_given(vault_dir: Path) -> None:
    result = run_cli(vault_dir, "remember", "Dentist appointment", "--date", "2026-12-09T10:00-08:00", "--json")
    assert result.exit_code == 0, result.output
    path = json.loads(result.stdout)["path"]
    assert "\ndate: 2026-12-09T10:00:00-08:00\n" in (vault_dir / path).read_text(encoding="utf-8")
    shown = run_cli(vault_dir, "get", path, "--json")
    assert json.loads(shown.stdout)["date"] == "2026-12-09T10:00:00-08:00"


def test_revise_setting_a_date_with_an_offset_keeps_it(vault: Vault) -> None:
    result = vault.remember("Dentist appointment", date="2026-12-09", now=NOW)
    vault.revise(result.path, set_properties={"date": "2026-12-09T10:00:00-08:00"}, now=NOW)
    assert "\ndate: 2026-12-09T10:00:00-08:00\n" in text_of(vault, result.path)  # was 2026-12-09T18:00:00+00:00
    assert vault.get(result.path, now=NOW).date == "2026-12-09T10:00:00-08:00"


def test_a_date_and_time_obsidian_wrote_is_kept_byte_for_byte_through_a_revise_of_other_fields(vault: Vault) -> None:
    raw = "---\ntitle: Dentist\ndate: 2026-12-09T10:00\nlayer: L2\nexpires_at: 2026-12-20T00:00:00+00:00\n---\nDr. Alvarez\n"
    (vault.root / "dentist.md").write_text(raw, encoding="utf-8")
    vault.revise("dentist.md", set_properties={"clinic": "Alvarez"}, add_tags=["health"], now=NOW)
    after = text_of(vault, "dentist.md")
    assert after.startswith("---\ntitle: Dentist\ndate: 2026-12-09T10:00\nlayer: L2\nexpires_at: 2026-12-20T00:00:00+00:00\n")
    assert vault.get("dentist.md", now=NOW).date == "2026-12-09T10:00"
    vault.revise("dentist.md", set_properties={"date": "2026-12-10T11:30"}, now=NOW)
    assert "\ndate: 2026-12-10T11:30\n" in text_of(vault, "dentist.md")


def test_a_utc_date_given_with_z_is_written_and_shown_with_its_z(vault: Vault) -> None:
    result = vault.remember("Flight lands", date="2026-12-18T19:30:00Z", now=NOW)
    assert "\ndate: 2026-12-18T19:30:00Z\n" in text_of(vault, result.path)  # was 2026-12-18T19:30:00+00:00
    assert vault.get(result.path, now=NOW).date == "2026-12-18T19:30:00Z"
    assert [n.path for n in vault.list_notes(since="2026-12-18T19:30:00+00:00", until="2026-12-18", now=NOW)] == [result.path]
    vault.revise(result.path, set_properties={"date": "2026-12-19T08:15:00Z"}, now=NOW)
    assert "\ndate: 2026-12-19T08:15:00Z\n" in text_of(vault, result.path)  # was +00:00 too


def test_a_utc_date_given_with_an_offset_keeps_the_offset(vault: Vault) -> None:
    result = vault.remember("Flight lands", date="2026-12-18T19:30:00+00:00", now=NOW)
    assert "\ndate: 2026-12-18T19:30:00+00:00\n" in text_of(vault, result.path)
    assert vault.get(result.path, now=NOW).date == "2026-12-18T19:30:00+00:00"


def test_over_mcp_remember_keeps_the_offset_and_recall_shows_it(vault_dir: Path, tmp_path: Path) -> None:
    from mcp_client import run, serve

    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            written = await served.call("remember", text="Dentist appointment, Dr. Alvarez", date="2099-12-09T10:00-08:00")
            assert "\ndate: 2099-12-09T10:00:00-08:00\n" in (vault_dir / written["path"]).read_text(encoding="utf-8")
            recalled = await served.call("recall", query="dentist Alvarez", k=1)
            assert recalled["hits"][0]["date"] == "2099-12-09T10:00:00-08:00"
            shown = await served.call("get", note=written["path"])
            assert shown["date"] == "2099-12-09T10:00:00-08:00"

    run(scenario)


def test_revise_setting_a_time_without_an_offset_keeps_it_without_one_seconds_and_all(vault: Vault) -> None:
    # adr/0003: a time given without a zone stays without one, "or with its seconds when it has
    # some". Was: `--set date=2026-12-09T10:00:30` wrote 2026-12-09T10:00:30+00:00 (moved to UTC),
    # while remember(date=…) of the same text wrote it as given.
    result = vault.remember("Dentist appointment", date="2026-12-09", now=NOW)
    vault.revise(result.path, set_properties={"date": "2026-12-09T10:00:30", "arrive": "2026-12-09T09:45:00"}, now=NOW)
    text = text_of(vault, result.path)
    assert "\ndate: 2026-12-09T10:00:30\n" in text
    assert "\narrive: 2026-12-09T09:45:00\n" in text
    assert vault.get(result.path, now=NOW).date == "2026-12-09T10:00:30"
    remembered = vault.remember("Second appointment", date="2026-12-09T10:00:30", now=NOW)
    assert "\ndate: 2026-12-09T10:00:30\n" in text_of(vault, remembered.path)  # as remember writes it
    own = [problem for problem in vault.check(now=NOW).problems if problem.path == result.path]
    assert own == []  # the expiry revise wrote from the day is still its own


def test_a_day_written_as_quoted_text_is_shown_as_a_day_not_a_wall_clock_at_midnight(tmp_path: Path) -> None:
    # A merge of two changes: a day written as text (`date: "2024-02-16"`, or a `fecha:` value
    # read day first) was shown as 2024-02-16T00:00 once times were shown as the note writes them.
    vault_dir = tmp_path / "vault"
    vault_dir.mkdir()
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (vault_dir / "quoted.md").write_text('---\ndate: "2024-02-16"\n---\nA quoted day.\n', encoding="utf-8")
    (vault_dir / "fecha.md").write_text("---\nfecha: 05/02/2024\n---\nUn día.\n", encoding="utf-8")
    (vault_dir / "clock.md").write_text('---\ndate: "2024-02-16T09:30"\n---\nA wall clock.\n', encoding="utf-8")
    with Vault(vault_dir) as vault:
        dates = {note.path: note.date for note in vault.list_notes(since="2000")}
    assert dates == {"quoted.md": "2024-02-16", "fecha.md": "2024-02-05", "clock.md": "2024-02-16T09:30"}, dates


def test_a_quoted_day_is_shown_as_that_day_not_as_midnight_on_a_wall_clock(vault: Vault) -> None:
    (vault.root / "quoted.md").write_text('---\ndate: "2026-12-09"\n---\nDentist.\n', encoding="utf-8")
    assert vault.get("quoted.md", now=NOW).date == "2026-12-09"  # was 2026-12-09T00:00


def test_explain_says_the_notes_date_as_hits_and_get_do(vault: Vault) -> None:
    zoned = vault.remember("Dentist appointment, Dr. Alvarez", date="2026-12-09T10:00-08:00", now=NOW).path
    wall = vault.remember("Dentist checkup, Dr. Alvarez", date="2026-12-09T10:00", now=NOW).path
    for path, said in ((zoned, "2026-12-09T10:00:00-08:00"), (wall, "2026-12-09T10:00")):
        out = vault.explain(path, "dentist", since="2026-12-20", now=NOW)
        assert vault.get(path, now=NOW).date == said
        assert any(f"its date is {said} (from its date)" in reason for reason in out.reasons), out.reasons
        # was 2026-12-09T18:00:00+00:00 (in UTC) and the day 2026-12-09 (its hour lost)
