"""Vectors held as float16 in index.db (storage/vector_blobs.py, migration 020_half_vectors;
adr/0005, addendum of stop 39). Real SQLite, real hnswlib, the real default embedder."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from vaultmem import Vault
from vaultmem.errors import DerivedIndexError
from vaultmem.storage import SPACES
from vaultmem.storage.vector_blobs import decode_rows, encode

QUERIES = ["oat milk in coffee", "how do I back up the vault", "meeting notes from last week"]


def _answers(vault: Vault) -> list[list[tuple[str, float]]]:
    return [[(hit.path, hit.score) for hit in vault.search(query, k=10)] for query in QUERIES]


def _stored(database: Path, table: str) -> dict[int, bytes]:
    with sqlite3.connect(database) as db:
        return dict(db.execute(f"SELECT label, vector FROM {table}").fetchall())


def _as_stop_38_left_it(database: Path) -> dict[str, int]:
    """Turn an index into what the code of stop 38 wrote: each vector as float32 bytes of values
    already rounded to float16, and no record of the step that halves them. Returns each vector
    table's AUTOINCREMENT counter."""
    db = sqlite3.connect(database)
    counters = {}
    with db:
        for space in SPACES:
            rows = db.execute(f"SELECT seq, vector FROM {space.table}").fetchall()
            db.executemany(f"UPDATE {space.table} SET vector = ? WHERE seq = ?",
                           [(np.frombuffer(blob[:-1], dtype="<f2").astype(np.float32).tobytes(), seq) for seq, blob in rows])
            counters[space.table] = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (space.table,)).fetchone()[0]
        db.execute("DELETE FROM _migrations WHERE name = '020_half_vectors'")
    db.close()
    return counters


def test_an_index_of_float32_vectors_is_upgraded_to_float16_rows_and_answers_the_same(sample_vault: Path, wordllama: object) -> None:
    extra = sample_vault / "Extra note.md"
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        # A note indexed, then deleted: its vectors had the highest seqs, so each table's counter
        # is past its last row — the gap a copied table must not close.
        extra.write_text("# Extra\n\nA note about sourdough starters and rye flour.\n", encoding="utf-8")
        vault.index()
        extra.unlink()
        vault.index()
    database = sample_vault / ".vaultmem" / "index.db"
    counters = _as_stop_38_left_it(database)
    old = {space.table: _stored(database, space.table) for space in SPACES}
    assert all(len(blob) % 4 == 0 for table in old.values() for blob in table.values())
    with sqlite3.connect(database) as db:
        for space in SPACES:
            assert db.execute(f"SELECT max(seq) FROM {space.table}").fetchone()[0] < counters[space.table]

    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        upgraded = _answers(vault)  # opening the index runs the step
        for space in SPACES:
            new = _stored(database, space.table)
            assert new.keys() == old[space.table].keys()
            assert all(len(blob) == 2 * 256 + 1 for blob in new.values())  # float16 values and the mark
            labels = sorted(new)
            assert np.array_equal(decode_rows([new[label] for label in labels]),
                                  decode_rows([old[space.table][label] for label in labels]))  # the very same numbers
            counter = vault.store.db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (space.table,)).fetchone()[0]
            assert counter == counters[space.table]
        extra.write_text("# Extra again\n\nA note about sourdough starters and rye flour.\n", encoding="utf-8")
        vault.index()
        for space in SPACES:
            newest = vault.store.db.execute(f"SELECT min(seq) FROM {space.table} WHERE seq > ?",
                                            (counters[space.table] - 1,)).fetchone()[0]
            assert newest is not None and newest > counters[space.table]  # above every seq a snapshot named
        assert vault.search("sourdough rye flour", k=1)[0].path == "Extra note.md"  # the delta holds the new vectors
        extra.unlink()
        vault.index()
        assert _answers(vault) == upgraded

    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index(rebuild=True)
        assert _answers(vault) == upgraded  # the same as an index made anew: same hits, same scores


def test_a_vector_float16_cannot_hold_stays_float32_and_reads_as_it_was(sample_vault: Path, wordllama: object,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
    database = sample_vault / ".vaultmem" / "index.db"
    _as_stop_38_left_it(database)
    with sqlite3.connect(database) as db:  # a vector stored before stop 38: not rounded
        label, blob = db.execute("SELECT label, vector FROM passage_vectors ORDER BY label LIMIT 1").fetchone()
        unrounded = (np.frombuffer(blob, dtype=np.float32) * np.float32(1.0001)).astype(np.float32)
        db.execute("UPDATE passage_vectors SET vector = ? WHERE label = ?", (unrounded.tobytes(), label))
    with caplog.at_level("INFO", logger="vaultmem"), Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.search("oat milk", k=3)
        assert "1 written before stop 38 stay float32" in caplog.text
        kept = _stored(database, "passage_vectors")
        assert len(kept[label]) == 4 * 256  # left float32
        assert sum(len(blob) % 2 for blob in kept.values()) == len(kept) - 1  # every other one halved
        labels = sorted(kept)
        assert np.array_equal(decode_rows([kept[label] for label in labels])[0], unrounded)  # a mixed read, row by row
        assert vault.store.passage_vectors.dimension() == 256


def test_a_blob_of_neither_kind_is_named_with_the_fix() -> None:
    with pytest.raises(DerivedIndexError, match=r"index\.db is 6 bytes long.*rebuild"):
        decode_rows([b"\x00" * 6])
    blob = bytearray(encode(np.ones(4, dtype=np.float32)))
    blob[-1] = 0  # an odd length without the mark
    with pytest.raises(DerivedIndexError, match=r"9 bytes long"):
        decode_rows([bytes(blob)])


def test_a_float16_blob_keeps_the_rounded_values_and_a_reader_of_float32_cannot_misread_it() -> None:
    row = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    blob = encode(row)
    assert len(blob) == 513
    assert np.array_equal(decode_rows([blob, blob])[1], row.astype(np.float16).astype(np.float32))
    with pytest.raises(ValueError):  # what a vaultmem of before does with it: an error, not other numbers
        np.frombuffer(blob * 4, dtype=np.float32).reshape(4, -1)


def test_every_float16_value_reads_as_numpy_casts_it() -> None:
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    blob = bits.astype("<u2").tobytes() + b"\x02"  # one vector holding every bit pattern
    assert np.array_equal(decode_rows([blob])[0], bits.view(np.float16).astype(np.float32), equal_nan=True)
