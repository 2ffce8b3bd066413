"""Readers and writers at once: what a search sees while others index, delete and rebuild.

Real SQLite connections on separate threads (one Vault per thread, as separate
processes would have), real hnswlib snapshots, real files.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from helpers import run_cli, write_file
from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder, TokenSums
from vaultmem.searchable import INDEX_RULES
from vaultmem.storage import Store
from vaultmem.vectors import VectorIndex


@pytest.fixture
def vault_with_notes(vault_dir: Path) -> Path:
    for number in range(60):
        write_file(vault_dir, f"notes/n{number:02}.md", f"# Zebra note {number}\nzebra stripes and churn number {number}\n")
    with Vault(vault_dir) as vault:
        vault.index()
    return vault_dir


def run_beside(worker: Callable[[threading.Event], None], body: Callable[[], None]) -> None:
    """Run ``worker`` on a thread until ``body`` returns; re-raise what the worker raised."""
    stop = threading.Event()
    errors: list[BaseException] = []

    def guarded() -> None:
        try:
            worker(stop)
        except BaseException as error:  # handed to the test thread below
            errors.append(error)

    thread = threading.Thread(target=guarded)
    thread.start()
    try:
        body()
    finally:
        stop.set()
        thread.join(timeout=60)
    assert not errors, errors


def test_search_never_fails_while_another_connection_deletes_and_adds_notes(vault_with_notes: Path) -> None:
    def churn(stop: threading.Event) -> None:
        with Vault(vault_with_notes) as writer:
            number = 0
            while not stop.is_set():
                relative = f"churn/c{number % 5}.md"
                write_file(vault_with_notes, relative, f"# Churn {number}\nzebra churn {number}\n")
                writer.indexer.sync_paths([relative])
                (vault_with_notes / relative).unlink()
                writer.indexer.sync_paths([relative])
                number += 1

    def searches() -> None:
        with Vault(vault_with_notes) as reader:
            for _ in range(150):
                hits = reader.search("zebra churn", k=10, include_expired=True)
                assert len(hits) == 10  # 60 stable notes match: the churn can never starve k

    run_beside(churn, searches)


def test_readers_never_see_missing_tables_during_a_rebuild(vault_with_notes: Path) -> None:
    def reads(stop: threading.Event) -> None:
        with Vault(vault_with_notes) as reader:
            while not stop.is_set():
                reader.search("zebra stripes", k=5, include_expired=True)

    def rebuilds() -> None:
        with Vault(vault_with_notes) as writer:
            for _ in range(3):
                writer.index(rebuild=True)

    run_beside(reads, rebuilds)


def test_a_vault_reopens_its_index_after_vaultmem_dir_is_deleted(vault_with_notes: Path) -> None:
    with Vault(vault_with_notes) as long_lived:
        assert long_lived.search("zebra", k=1)
        shutil.rmtree(vault_with_notes / ".vaultmem")
        write_file(vault_with_notes, "quokka.md", "# Quokka\nthe quokka smiles\n")
        with Vault(vault_with_notes) as other_process:
            other_process.index()
        # Without reopening, this thread would keep reading the deleted database.
        assert long_lived.search("quokka", k=1)[0].path == "quokka.md"


class EditDuringEmbedding(HashingEmbedder):
    """A real embedder that lets a 'person' edit the vault while a batch is being embedded."""

    def __init__(self, during: Callable[[], None]) -> None:
        super().__init__()
        self.during = during

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        # The indexer embeds through token sums (a mean-of-tokens embedder): edit while it does.
        self.during()
        self.during = lambda: None
        return super().sum_batch(texts, tails_from)


def test_reconcile_does_not_write_a_version_that_changed_while_it_was_embedding(vault_dir: Path) -> None:
    write_file(vault_dir, "f.md", "# F\nversion one\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
    write_file(vault_dir, "f.md", "# F\nversion two\n")

    def person_saves_again() -> None:
        write_file(vault_dir, "f.md", "# F\nversion three, longer\n")
        with Vault(vault_dir, embedder=HashingEmbedder()) as watcher:  # indexes v3 first
            watcher.indexer.sync_paths(["f.md"])

    with Vault(vault_dir, embedder=EditDuringEmbedding(person_saves_again)) as slow:
        report = slow.index()
        assert report.deferred == ["f.md"]
        hits = slow.search("longer", k=1, include_expired=True)
        assert [hit.path for hit in hits] == ["f.md"]  # v3 stayed indexed, not our stale v2
        assert "version three" in slow.search("version", k=1)[0].snippet


def test_reconcile_does_not_drop_a_note_restored_while_it_was_running(vault_dir: Path) -> None:
    write_file(vault_dir, "g.md", "# G\nghost gamma\n")
    write_file(vault_dir, "h.md", "# H\nhello\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
    kept = (vault_dir / "g.md").read_text(encoding="utf-8")
    (vault_dir / "g.md").unlink()
    write_file(vault_dir, "h.md", "# H\nhello again\n")  # gives the reconcile something to embed

    def person_restores() -> None:
        write_file(vault_dir, "g.md", kept)

    with Vault(vault_dir, embedder=EditDuringEmbedding(person_restores)) as slow:
        report = slow.index()
        assert report.removed == []
        assert slow.store.notes.by_path("g.md") is not None


def test_deletions_reach_readers_as_tombstones_and_a_fold_clears_them(vault_with_notes: Path) -> None:
    with Vault(vault_with_notes) as vault:
        vault.search("zebra", k=1)  # a reader with the snapshot loaded
        (vault_with_notes / "notes/n00.md").unlink()
        vault.indexer.sync_paths(["notes/n00.md"])
        store: Store = vault.store
        assert store.vectors.tombstones()[1] == [store_label_of_deleted(store)]
        assert all(hit.path != "notes/n00.md" for hit in vault.search("zebra note 0", k=60, include_expired=True))
        VectorIndex(store, store.vectors.dimension() or 0).fold(force=True)
        assert store.vectors.tombstones()[1] == []
        assert all(hit.path != "notes/n00.md" for hit in vault.search("zebra note 0", k=60, include_expired=True))


def store_label_of_deleted(store: Store) -> int:
    """The one tombstoned label (the note it belonged to is gone from `notes`)."""
    _, labels = store.vectors.tombstones()
    assert len(labels) == 1 and not store.notes.by_labels(labels)
    return labels[0]


def test_a_lost_snapshot_file_degrades_to_exact_search_and_index_restores_it(vault_with_notes: Path) -> None:
    state = vault_with_notes / ".vaultmem"
    with Vault(vault_with_notes) as vault:
        before = [hit.path for hit in vault.search("zebra note 7", k=5, include_expired=True)]
    for snapshot in state.glob("vectors-*.hnsw"):
        snapshot.unlink()  # a crash or a careless hand: SQLite still names the file
    with Vault(vault_with_notes) as fresh:
        assert [hit.path for hit in fresh.search("zebra note 7", k=5, include_expired=True)] == before
        fresh.index()
        assert list(state.glob("vectors-*.hnsw"))
        assert [hit.path for hit in fresh.search("zebra note 7", k=5, include_expired=True)] == before


def test_a_search_during_a_rebuild_warns_that_its_answer_may_be_incomplete(vault_with_notes: Path) -> None:
    with Vault(vault_with_notes) as rebuilder, Vault(vault_with_notes) as reader:
        with rebuilder.store.meta.rebuilding():
            rebuilder.derived.drop()  # the rebuild has dropped the index and re-added one note
            rebuilder.indexer.sync_paths(["notes/n00.md"])
            hits = reader.search("zebra stripes", k=5, include_expired=True)
            assert [hit.path for hit in hits] == ["notes/n00.md"]
            assert any("being rebuilt" in warning for warning in hits[0].warnings)
        # The rebuild ended without finishing (as if killed): the next search completes the
        # index itself instead of answering from the partial one.
        hits = reader.search("zebra stripes", k=5, include_expired=True)
        assert len(hits) == 5 and not any("rebuilt" in warning for hit in hits for warning in hit.warnings)
        assert reader.store.meta.rebuild_state() is None


def test_an_empty_answer_during_a_rebuild_still_says_the_index_is_being_rebuilt(vault_with_notes: Path) -> None:
    with Vault(vault_with_notes) as rebuilder, Vault(vault_with_notes) as reader:
        with rebuilder.store.meta.rebuilding():
            rebuilder.derived.drop()  # nothing re-added yet
            hits = reader.search("zebra stripes", k=5, include_expired=True)
            assert hits == [] and any("being rebuilt" in warning for warning in hits.warnings)
            result = run_cli(vault_with_notes, "search", "zebra stripes", "--json")
            assert json.loads(result.stdout) == [] and "being rebuilt" in result.stderr
            assert "being rebuilt" in run_cli(vault_with_notes, "search", "zebra stripes").stdout


def test_a_search_of_signs_alone_during_a_rebuild_says_its_answer_may_be_incomplete(vault_dir: Path) -> None:
    # Was (review): a query of signs alone (`&&`) took its own path, which left out the warning
    # every other search gives while another process rebuilds: one hit of 20 looked like all.
    for number in range(20):
        write_file(vault_dir, f"notes/n{number:02}.md", f"# Shell note {number}\nrun `make && make test` {number}\n")
    with Vault(vault_dir) as vault:
        vault.index()
    with Vault(vault_dir) as rebuilder, Vault(vault_dir) as reader:
        with rebuilder.store.meta.rebuilding():
            rebuilder.derived.drop()  # the rebuild has dropped the index and re-added one note
            rebuilder.indexer.sync_paths(["notes/n00.md"])
            hits = reader.search("&&", k=5, include_expired=True)
            assert [hit.path for hit in hits] == ["notes/n00.md"]
            assert any("being rebuilt" in warning for warning in hits.warnings)


def test_an_ordinary_index_beside_a_rebuild_does_not_mark_the_rebuild_finished(vault_with_notes: Path) -> None:
    with Vault(vault_with_notes) as rebuilder, Vault(vault_with_notes) as other:
        with rebuilder.store.meta.rebuilding():
            rebuilder.derived.drop()
            other.index()  # e.g. a watcher starting: it may have listed the files before the drop
            assert other.store.meta.rebuild_state() == "running"
        # The rebuild died without its final pass: whoever comes next finishes it.
        assert other.store.meta.rebuild_state() == "interrupted"
        assert len(other.search("zebra stripes", k=100, include_expired=True)) == 60
        assert other.store.meta.rebuild_state() is None


def test_a_finished_rebuild_leaves_no_warning(vault_with_notes: Path) -> None:
    with Vault(vault_with_notes) as vault:
        vault.index(rebuild=True)
        hits = vault.search("zebra stripes", k=5, include_expired=True)
        assert len(hits) == 5 and all(hit.warnings == [] for hit in hits)
        assert vault.store.meta.rebuild_state() is None


def test_without_flock_a_plain_index_finishes_a_rebuild_that_was_killed(vault_with_notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vaultmem.storage.meta

    monkeypatch.setattr(vaultmem.storage.meta, "fcntl", None)  # a platform without flock (Windows)
    with Vault(vault_with_notes) as rebuilder:
        with rebuilder.store.meta.rebuilding():
            rebuilder.derived.drop()  # then killed
    with Vault(vault_with_notes) as later:
        hits = later.search("zebra stripes", k=5, include_expired=True)
        assert any("being rebuilt" in warning for warning in hits.warnings)  # cannot tell: keeps warning
        later.index()
        assert later.store.meta.rebuild_state() is None
        hits = later.search("zebra stripes", k=5, include_expired=True)
        assert len(hits) == 5 and hits.warnings == []


def test_an_index_beside_a_rebuild_does_not_read_the_rebuilds_fresh_rows_again(vault_with_notes: Path) -> None:
    """Was: the rebuild's drop takes the index's rules with it, so the other process took the
    rows the rebuild had re-added for an older version's, read them again and said
    "every note read again: the index was made by another version of vaultmem"."""
    with Vault(vault_with_notes) as rebuilder, Vault(vault_with_notes) as other:
        with rebuilder.store.meta.rebuilding():
            rebuilder.derived.drop()
            rebuilder.indexer.sync_paths(["notes/n00.md"])
            report = other.index()
            assert report.reread is False
            assert report.updated == []
            assert "notes/n00.md" not in report.added  # the rebuild's row stands
            assert report.unchanged == 1


def test_rows_a_dead_rebuild_of_another_version_left_are_read_again(vault_with_notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rebuild stamps the rules its rows are made under when it drops the tables; a rebuild
    by a version that stamps none leaves rows of unknown rules, which the next reconcile reads
    again — even on a platform without flock, where a dead rebuild looks like a running one."""
    import vaultmem.storage.meta
    from vaultmem.storage import READER_KEY

    monkeypatch.setattr(vaultmem.storage.meta, "fcntl", None)
    with Vault(vault_with_notes) as older:  # an older vaultmem's `index --rebuild`, killed part-way
        with older.store.meta.rebuilding():
            older.derived.drop()
            with older.store.transaction():
                older.store.db.execute("DELETE FROM meta WHERE key = ?", (READER_KEY,))  # it kept no rules
            older.indexer.sync_paths([f"notes/n{number:02}.md" for number in range(10)])
    with Vault(vault_with_notes) as newer:
        report = newer.indexer.reconcile()  # what `watch` runs, or a search's bulk catch-up
        assert report.reread is True
        assert newer.store.meta.get(READER_KEY) == INDEX_RULES
