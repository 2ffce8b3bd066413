"""Vector snapshots (vaultmem/vectors.py): an exact matrix or an hnswlib graph per space,
loaded once per process and shared read-only by its readers. Real SQLite, real hnswlib,
the real default embedder."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import numpy as np

from helpers import NOW
from vaultmem import Vault
from vaultmem.storage import NOTE_SPACE, PASSAGE_SPACE, Store
from vaultmem.vectors import VectorIndex, unpack


def stored_vectors(store: Store, table: str) -> tuple[np.ndarray, np.ndarray]:
    rows = store.db.execute(f"SELECT label, vector FROM {table} ORDER BY label").fetchall()
    return unpack([(row[0], row[1]) for row in rows])


def test_passages_are_searched_exactly_from_a_matrix_and_notes_from_a_graph(sample_vault: Path, wordllama: object) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        assert vault.store.passage_vectors.snapshot().file.endswith(".npz")  # type: ignore[union-attr]
        assert vault.store.vectors.snapshot().file.endswith(".hnsw")  # type: ignore[union-attr]
        index = VectorIndex(vault.store, 256, PASSAGE_SPACE)
        labels, matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        query = wordllama.embed(["oat milk in coffee"])[0]  # type: ignore[attr-defined]
        exact = labels[np.argsort(-(matrix @ query), kind="stable")].tolist()
        assert [label for label, _ in index.search(query, len(labels))] == exact  # every passage, in exact order


def test_a_passage_space_past_its_exact_limit_gets_a_graph_that_answers_the_same_top(sample_vault: Path, wordllama: object) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        small_limit = dataclasses.replace(PASSAGE_SPACE, exact_up_to=10)
        graph = VectorIndex(vault.store, 256, small_limit)
        assert graph.fold(force=True, num_threads=1, rebuild=True)
        assert vault.store.passage_vectors.snapshot().file.endswith(".hnsw")  # type: ignore[union-attr]
        query = wordllama.embed(["Berlin offsite hotel"])[0]  # type: ignore[attr-defined]
        labels, matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        exact = set(labels[np.argsort(-(matrix @ query))[:5]].tolist())
        assert {label for label, _ in VectorIndex(vault.store, 256, PASSAGE_SPACE).search(query, 5)} == exact


def test_the_threads_of_one_process_share_one_copy_of_a_snapshot(sample_vault: Path, wordllama: object) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        loaded: list[object] = []

        def read() -> None:
            store = Store(vault.state_dir)
            try:
                index = VectorIndex(store, 256, NOTE_SPACE)
                index.search(np.ones(256, dtype=np.float32) / 16, 3)
                snapshot, _delta = index._current()
                loaded.append(snapshot.loaded if snapshot is not None else None)
            finally:
                store.close()

        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(loaded) == 4 and loaded[0] is not None and all(item is loaded[0] for item in loaded)


def test_a_reader_hides_a_deleted_note_without_writing_into_the_shared_graph(sample_vault: Path, wordllama: object) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        before = VectorIndex(vault.store, 256, NOTE_SPACE)
        query = wordllama.embed(["oat milk in coffee"])[0]  # type: ignore[attr-defined]
        first, _ = before.search(query, 1)[0]
        gone = vault.store.notes.by_labels([first])[first].path
        (sample_vault / gone).unlink()
        vault.index()  # a tombstone, no fold: the shared graph still holds the label
        after = VectorIndex(vault.store, 256, NOTE_SPACE)
        assert first not in {label for label, _ in after.search(query, 38)}
        snapshot, _ = after._current()
        assert snapshot is not None and first in snapshot.loaded.labels and snapshot.loaded.live == 40
        assert vault.search("oat milk in coffee", k=1, now=NOW)[0].path != gone


def test_exact_scoring_reads_each_passages_current_vector_wherever_it_lives(sample_vault: Path, wordllama: object) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        edited = next(sample_vault.rglob("*.md"))
        edited.write_text(edited.read_text(encoding="utf-8") + "\nA new line about sourdough starters.\n", encoding="utf-8")
        vault.index()  # the edited note's new passages wait in the delta; the others are in the snapshot
        labels, matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        current = dict(zip(labels.tolist(), matrix, strict=True))
        wanted = [*reversed(labels.tolist()), 10**9]  # any order, and a label that has no vector
        for space in (PASSAGE_SPACE, dataclasses.replace(PASSAGE_SPACE, exact_up_to=10)):  # a matrix, then a graph read via SQLite
            index = VectorIndex(vault.store, 256, space)
            if space.exact_up_to == 10:
                assert index.fold(force=True, num_threads=1, rebuild=True)
            found, rows = index.matrix_of(wanted)
            assert sorted(found) == sorted(current) and rows.shape == (len(current), 256)
            for label, row in zip(found, rows, strict=True):
                assert np.array_equal(row, current[label])


def test_exact_scores_after_a_search_are_the_products_of_the_current_vectors(sample_vault: Path, wordllama: object) -> None:
    """scores_of reuses the search's scan of a matrix snapshot: for its own query only, and the
    numbers are the ones scoring the gathered rows gives (a row's product does not depend on the
    rows beside it)."""
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        edited = next(sample_vault.rglob("*.md"))
        edited.write_text(edited.read_text(encoding="utf-8") + "\nA new line about sourdough starters.\n", encoding="utf-8")
        vault.index()  # the edited note's passages in the delta (superseded in the snapshot), the rest in the matrix
        labels, _matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        wanted = [*reversed(labels.tolist()), 10**9]
        index = VectorIndex(vault.store, 256, PASSAGE_SPACE)
        coffee, bread = (wordllama.embed([text])[0] for text in ("oat milk in coffee", "sourdough bread"))  # type: ignore[attr-defined]
        index.search(coffee, 5)
        for query in (coffee, bread, coffee.copy()):  # another query is scored afresh, an equal one reuses the scan
            found, scores = index.scores_of(query, wanted)
            gathered, matrix = index.matrix_of(wanted)
            assert found == gathered and scores.tobytes() == np.einsum("ij,j->i", matrix, query).tobytes()


# -- one generation of snapshot files on disk (adr/0005, addendum of stop 37)


def _snapshot_names(vault: Path) -> list[str]:
    return sorted(path.name for path in (vault / ".vaultmem").iterdir() if path.suffix in (".npz", ".hnsw"))


def test_a_fold_leaves_one_snapshot_file_per_space_on_disk(sample_vault: Path, wordllama: object) -> None:
    # Was: the replaced snapshot of each space stayed until the next fold — after any fold,
    # every vector was on disk three times (SQLite, this snapshot, the one before): a fifth
    # of .vaultmem/ at 10,000 notes.
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        query = "oat milk in coffee"
        before = [(hit.path, round(hit.score, 6)) for hit in vault.search(query, k=5)]
        for space in (NOTE_SPACE, PASSAGE_SPACE):
            assert VectorIndex(vault.store, 256, space).fold(force=True)
        names = _snapshot_names(sample_vault)
        assert names == sorted([vault.store.vectors.snapshot().file, vault.store.passage_vectors.snapshot().file])  # type: ignore[list-item]
        assert [(hit.path, round(hit.score, 6)) for hit in vault.search(query, k=5)] == before


def test_a_reader_whose_read_began_before_a_fold_answers_from_the_new_snapshot(sample_vault: Path, wordllama: object) -> None:
    # The file its read transaction names is gone (removed by the fold at once): it reads again.
    with Vault(sample_vault, embedder=wordllama) as writer, Vault(sample_vault, embedder=wordllama) as reader:  # type: ignore[arg-type]
        writer.index()
        query = wordllama.embed(["Berlin offsite hotel"])[0]  # type: ignore[attr-defined]
        index = VectorIndex(reader.store, 256, NOTE_SPACE)
        with reader.store.read_snapshot():
            named = reader.store.vectors.snapshot().file  # the read began: it names this file
            assert VectorIndex(writer.store, 256, NOTE_SPACE).fold(force=True)
            assert not (sample_vault / ".vaultmem" / str(named)).exists()
        expected = VectorIndex(writer.store, 256, NOTE_SPACE).search(query, 5)
        assert index.search(query, 5) == expected and expected


def test_a_fold_whose_old_graph_another_writer_replaced_yields_instead_of_failing(
        sample_vault: Path, wordllama: object, monkeypatch: object) -> None:
    # A `watch` and an `index` fold at once: the second read the old name, the first published
    # and removed that file before the second loaded it to extend it.
    import vaultmem.vectors as vectors_module

    with Vault(sample_vault, embedder=wordllama) as first, Vault(sample_vault, embedder=wordllama) as second:  # type: ignore[arg-type]
        first.index()
        read_graph = vectors_module.read_graph
        raced: list[Path] = []

        def the_other_writer_publishes_first(path: Path, dimension: int) -> object:
            if not raced:  # once, in the second writer's fold; the first's own fold reads as usual
                raced.append(path)
                assert VectorIndex(first.store, 256, NOTE_SPACE).fold(force=True)
            return read_graph(path, dimension)

        monkeypatch.setattr(vectors_module, "read_graph", the_other_writer_publishes_first)  # type: ignore[attr-defined]
        published = second.store.vectors.snapshot().file
        assert VectorIndex(second.store, 256, NOTE_SPACE).fold(force=True) is False
        winner = first.store.vectors.snapshot().file
        assert winner != published and second.store.vectors.snapshot().file == winner
        assert raced and [name for name in _snapshot_names(sample_vault) if name.endswith(".hnsw")] == [winner]


# -- vectors rounded to float16 when stored; the matrix snapshot in half the bytes (adr/0005, stop 38)


def _snapshot_matrix(vault: Path, name: str) -> np.ndarray:
    with np.load(vault / ".vaultmem" / name, allow_pickle=False) as stored:
        return np.asarray(stored["matrix"])


def test_the_passage_matrix_is_stored_as_float16_and_scores_as_its_sqlite_rows(sample_vault: Path, wordllama: object) -> None:
    # Was: float32 in the npz, 22.4 of .vaultmem/'s 130 MB at 10,000 notes. The vectors are rounded
    # once when stored, so the half-size file holds exactly what SQLite holds: no score differs.
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        labels, matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        assert np.array_equal(matrix.astype(np.float16).astype(np.float32), matrix)  # every stored vector is float16-exact
        saved = _snapshot_matrix(sample_vault, str(vault.store.passage_vectors.snapshot().file))
        assert saved.dtype == np.float16 and saved.shape == matrix.shape
        query = wordllama.embed(["oat milk in coffee"])[0]  # type: ignore[attr-defined]
        exact = np.einsum("ij,j->i", matrix, query)
        found = dict(VectorIndex(vault.store, 256, PASSAGE_SPACE).search(query, len(labels)))
        assert {label: found[label] for label in labels.tolist()} == dict(zip(labels.tolist(), exact.tolist(), strict=True))


def test_vectors_stored_before_the_rounding_keep_a_float32_snapshot_with_their_exact_scores(
        sample_vault: Path, wordllama: object, caplog: object) -> None:
    # An index made before stop 38 holds vectors float16 cannot hold exactly. Its fold must not
    # round them in the snapshot only (scores from the snapshot would then differ from the same
    # vectors read from SQLite): it keeps float32, as earlier snapshots were, and says why.
    import logging

    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        labels, matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        unrounded = matrix + np.float32(1e-5)  # what the old code stored: float32 values off float16's grid
        with vault.store.transaction():
            vault.store.passage_vectors.put(labels.tolist(), [row.tobytes() for row in unrounded])
        with caplog.at_level(logging.INFO, logger="vaultmem"):  # type: ignore[attr-defined]
            assert VectorIndex(vault.store, 256, PASSAGE_SPACE).fold(force=True)
        name = str(vault.store.passage_vectors.snapshot().file)
        assert _snapshot_matrix(sample_vault, name).dtype == np.float32
        assert "saved as float32" in caplog.text  # type: ignore[attr-defined]
        query = wordllama.embed(["oat milk in coffee"])[0]  # type: ignore[attr-defined]
        exact = np.einsum("ij,j->i", unrounded, query)
        found = dict(VectorIndex(vault.store, 256, PASSAGE_SPACE).search(query, len(labels)))
        assert {label: found[label] for label in labels.tolist()} == dict(zip(labels.tolist(), exact.tolist(), strict=True))


def test_an_index_made_before_the_rounding_is_embedded_again_and_gets_a_float16_snapshot(
        sample_vault: Path, wordllama: object) -> None:
    from vaultmem.searchable import INDEX_RULES

    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        labels, matrix = stored_vectors(vault.store, PASSAGE_SPACE.table)
        with vault.store.transaction():
            vault.store.passage_vectors.put(labels.tolist(), [row.tobytes() for row in matrix + np.float32(1e-5)])
            old_rules = INDEX_RULES.replace("/no-html-tags/float16/8", "/6")
            assert old_rules != INDEX_RULES, "name the recipe before the rounding as it was"
            vault.store.db.execute("UPDATE meta SET value = ? WHERE key = 'reader'", (old_rules,))
            vault.store.db.execute("UPDATE notes SET embed_hash = 'made under recipe 6'")  # as the old recipe hashed
        assert VectorIndex(vault.store, 256, PASSAGE_SPACE).fold(force=True)
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        VectorIndex(vault.store, 256, PASSAGE_SPACE).fold(force=True)
        _, again = stored_vectors(vault.store, PASSAGE_SPACE.table)
        assert np.array_equal(again.astype(np.float16).astype(np.float32), again)
        assert _snapshot_matrix(sample_vault, str(vault.store.passage_vectors.snapshot().file)).dtype == np.float16
