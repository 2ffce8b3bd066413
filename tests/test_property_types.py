"""The dates vaultmem writes take the type the vault declares in Obsidian (``.obsidian/types.json``,
property_types.py). A trial (s37): a vault declaring ``created`` a date got ``created:
2026-12-03T07:03:11+00:00`` on every memory, shown by Obsidian as a type mismatch. Real files,
the real index."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import yaml
from test_dating import local_zone, needs_tzset

from vaultmem import Vault, parse_timestamp

NOW = "2026-12-03T07:03:11+00:00"


def declare(root: Path, **types: str) -> None:
    (root / ".obsidian").mkdir(exist_ok=True)
    (root / ".obsidian" / "types.json").write_text(json.dumps({"types": {"aliases": "aliases", **types}}), encoding="utf-8")
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")


def properties(path: Path) -> dict[str, object]:
    front = path.read_text(encoding="utf-8").split("---\n")[1]
    loaded = yaml.safe_load(front)
    assert isinstance(loaded, dict)
    return loaded


def test_remember_writes_created_and_expires_at_as_days_where_the_vault_declares_them_dates(vault_dir: Path) -> None:
    declare(vault_dir, created="date", expires_at="date")
    with Vault(vault_dir) as vault:
        written = vault.remember("Dana likes green tea", layer="L2", now=NOW)
        meta = properties(vault_dir / written.path)
        assert meta["created"] == date(2026, 12, 3)
        # 7 days after 07:03 on the 3rd is 07:03 on the 10th: the day after, never before the TTL is over.
        assert meta["expires_at"] == date(2026, 12, 11)
        assert written.expires_at == "2026-12-11T00:00:00+00:00"
        assert [problem.field for problem in vault.check().problems] == []
        # Read as the index reads it: a day is that day's midnight, and the memory is still found.
        assert [hit.path for hit in vault.search("green tea", now="2026-12-10T23:00:00+00:00")] == [written.path]
        assert vault.search("green tea", now="2026-12-11T00:00:00+00:00") == []


def test_remember_writes_times_where_the_vault_declares_them_datetimes_or_nothing(vault_dir: Path) -> None:
    declare(vault_dir, created="datetime")
    with Vault(vault_dir) as vault:
        meta = properties(vault_dir / vault.remember("Dana likes green tea", layer="L2", now=NOW).path)
    assert isinstance(meta["created"], datetime) and parse_timestamp(meta["created"]) == parse_timestamp(NOW)
    assert isinstance(meta["expires_at"], datetime)


def test_an_explicit_deadline_at_midnight_stays_that_day(vault_dir: Path) -> None:
    declare(vault_dir, expires_at="date")
    with Vault(vault_dir) as vault:
        meta = properties(vault_dir / vault.remember("Dentist on Friday", expires_at="2026-12-05", now=NOW).path)
    assert meta["expires_at"] == date(2026, 12, 5) and isinstance(meta["created"], datetime)


def test_revise_writes_a_new_expiry_as_a_day_and_moves_the_one_it_counted_from_a_created_day(vault_dir: Path) -> None:
    declare(vault_dir, created="date", expires_at="date")
    with Vault(vault_dir) as vault:
        path = vault_dir / vault.remember("School concert", layer="L2", now=NOW).path
        vault.revise(path.name, layer="L3", now=NOW)  # the L3 TTL (90 days) from now
        assert properties(path)["expires_at"] == date(2027, 3, 4)
        vault.revise(path.name, layer="L2", now=NOW)
        assert properties(path)["expires_at"] == date(2026, 12, 11)
        # A later day the memory is about moves the expiry vaultmem counted (from the start of that day),
        # though created holds only a day: the deadline was recognised as vaultmem's own.
        vault.revise(path.name, set_properties={"date": "2026-12-20"}, now=NOW)
        assert properties(path)["expires_at"] > date(2026, 12, 20)


@needs_tzset
def test_a_created_day_is_the_day_on_the_machine_s_calendar_and_revise_still_knows_its_own_deadline(vault_dir: Path) -> None:
    """Was (s39 review): the UTC day. At 20:00 on Thursday 3 December in Los Angeles (04:00 UTC on
    Friday) a memory said `created: 2026-12-04`, and `list --since today --until today` left it out
    while listing it under tomorrow; beside `date: today` (2026-12-03) in the same file."""
    declare(vault_dir, created="date", expires_at="date")
    evening = "2026-12-04T04:00:00+00:00"
    with local_zone("America/Los_Angeles"), Vault(vault_dir) as vault:
        written = vault.remember("Dinner with Ana at the harbor", layer="L2", now=evening)
        path = vault_dir / written.path
        assert properties(path)["created"] == date(2026, 12, 3)
        assert [note.path for note in vault.list_notes(since="today", until="today", now=evening)] == [written.path]
        assert vault.list_notes(since="tomorrow", until="tomorrow", now=evening) == []
        # Its deadline (7 days after 04:00 UTC on the 4th, as a day: the 12th) is still known as
        # vaultmem's own, though it lies past the created day's UTC span + TTL: a later day moves it.
        assert properties(path)["expires_at"] == date(2026, 12, 12)
        vault.revise(path.name, set_properties={"date": "2026-12-20"}, now=evening)
        assert properties(path)["expires_at"] > date(2026, 12, 20)


def test_check_fix_stamps_a_day_and_reports_a_types_file_it_cannot_read(vault_dir: Path) -> None:
    declare(vault_dir, expires_at="date")
    (vault_dir / "n.md").write_text("---\nlayer: L2\ncreated: 2026-12-01T10:00:00+00:00\n---\nno expiry yet\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        fixed = vault.check(fix=True, now=NOW)
        assert [fix.action for fix in fixed.fixed] == ["stamped expires_at 2026-12-09 (created + L2 TTL; alive)"]
        assert properties(vault_dir / "n.md")["expires_at"] == date(2026, 12, 9)
        (vault_dir / ".obsidian" / "types.json").write_text("{not json", encoding="utf-8")
        problems = [(problem.path, problem.field) for problem in vault.check().problems]
        assert problems == [(".obsidian/types.json", "file")]
