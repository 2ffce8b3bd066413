"""The usage backup beside the index (storage/usage_backup.py, adr/0022): every change to
usage history is in it, in commit order, and replaying it gives the table back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultmem.errors import IndexNotWritable
from vaultmem.storage import Store, UsageBackup, UsageRow
from vaultmem.storage import usage_backup as backup_module

AT = "2026-11-30T10:00:00+00:00"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    opened = Store(tmp_path / ".vaultmem")
    yield opened
    opened.close()


def backup_of(store: Store) -> UsageBackup:
    return UsageBackup(store.state_dir)


def test_every_change_to_usage_is_in_the_backup_and_replays_to_the_table(store: Store) -> None:
    with store.transaction():
        store.usage.record(["a", "b"], AT, 1)
    with store.transaction():
        store.usage.record(["a"], "2026-11-30T11:00:00+00:00", 2)
    with store.transaction():
        store.usage.replace([UsageRow("c", 7, AT, 1)])
    with store.transaction():
        store.usage.rename("b", "b-moved")  # a moved note without a frontmatter id
    assert backup_of(store).restore().rows == store.usage.all()
    assert [row.note_id for row in store.usage.all()] == ["a", "b-moved", "c"]


def test_an_append_costs_lines_not_a_rewrite(store: Store) -> None:
    with store.transaction():
        store.usage.record([f"note-{number}" for number in range(200)], AT, 1)
    path = backup_of(store).path
    size = path.stat().st_size
    with store.transaction():
        store.usage.record(["note-5"], "2026-11-30T12:00:00+00:00", 3)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert path.stat().st_size - size == len(lines[-1]) + 1  # one line appended
    assert json.loads(lines[-1]) == {"note_id": "note-5", "use_count": 2, "last_used_at": "2026-11-30T12:00:00+00:00",
                                     "last_used_us": 3}


def test_a_failed_transaction_rolls_back_the_table_and_the_backup_says_at_most_what_was_tried(store: Store) -> None:
    with store.transaction():
        store.usage.record(["a"], AT, 1)
    with pytest.raises(RuntimeError), store.transaction():
        store.usage.record(["a"], AT, 2)
        raise RuntimeError("the commit never came")
    assert store.usage.all() == [UsageRow("a", 1, AT, 1)]
    # Lines go in inside the transaction, so a rollback can leave one use too many in the
    # backup (never one too few): the backup is for when the table is lost.
    assert backup_of(store).restore().rows[0].use_count in (1, 2)


def test_a_torn_last_line_is_skipped_on_replay_and_cut_off_before_the_next_append(store: Store) -> None:
    with store.transaction():
        store.usage.record(["a"], AT, 1)
    path = backup_of(store).path
    with open(path, "ab") as handle:
        handle.write(b'{"note_id": "b", "use_cou')  # a crash or a full disk, mid-line
    restored = backup_of(store).restore()
    assert restored.rows == [UsageRow("a", 1, AT, 1)] and restored.bad_lines == 1

    with store.transaction():
        store.usage.record(["c"], AT, 1)
    restored = backup_of(store).restore()
    assert [row.note_id for row in restored.rows] == ["a", "c"] and restored.bad_lines == 0


def test_the_backup_is_rewritten_from_the_table_once_it_grows_past_its_bound(store: Store,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backup_module, "COMPACT_MIN_BYTES", 2000)
    for moment in range(60):
        with store.transaction():
            store.usage.record(["a", "b"], AT, moment)
    path = backup_of(store).path
    lines = path.read_text(encoding="utf-8").splitlines()
    assert path.stat().st_size < 2000 + 3 * 200  # compacted along the way, never far past the bound
    assert json.loads(lines[0])["vaultmem_usage_backup"] == 1
    assert backup_of(store).restore().rows == store.usage.all()
    assert store.usage.all()[0].use_count == 60


def test_an_index_that_had_usage_before_backups_gets_a_whole_backup_on_its_next_change(store: Store) -> None:
    with store.transaction():
        store.usage.record(["old-1", "old-2"], AT, 1)
    backup_of(store).path.unlink()  # as an index written by an earlier vaultmem
    with store.transaction():
        store.usage.record(["new"], AT, 2)
    assert [row.note_id for row in backup_of(store).restore().rows] == ["new", "old-1", "old-2"]


def test_a_store_that_refuses_usage_writes_records_nothing(tmp_path: Path) -> None:
    refusal = IndexNotWritable(tmp_path / "index.db", "read-only here")
    copy = Store(tmp_path / ".vaultmem", path=tmp_path / "copy.db", usage_refusal=refusal)
    try:
        with pytest.raises(IndexNotWritable) as raised, copy.transaction():
            copy.usage.record(["a"], AT, 1)
        assert raised.value is refusal
        assert copy.usage.all() == [] and not (tmp_path / ".vaultmem" / backup_module.BACKUP_NAME).exists()
    finally:
        copy.close()
