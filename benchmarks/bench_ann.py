"""hnswlib settings for the passage space: build time, recall@10 and query time, measured.

    python -m benchmarks index --notes 100000 --keep /tmp/bench100k     # a kept vault and index
    python -m benchmarks.bench_ann /tmp/bench100k [--settings 16:100 32:200] [--efs 400 1024 2048]

Reads every passage vector of a kept index (``.vaultmem/index.db``), builds an hnswlib graph
for each ``M:ef_construction`` on all cores, and for the generated vault's recall queries
reports per query-time ``ef``: recall@10 of the graph's passages against the exact inner product (cosine × length prior), the
recall@10 of the *notes* search would rank from the graph's top ``4 × 100`` passages (the
proposed notes scored exactly over all their passages, as search.py does) against the
exact note ranking, and milliseconds per query. Prints one JSON document; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem.search import CANDIDATES_MIN, PASSAGES_PER_NOTE

K = 10
PROPOSED = PASSAGES_PER_NOTE * CANDIDATES_MIN  # passages search asks the snapshot for (400)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def stored(vault: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(passage labels, their vectors, their notes) from a kept index."""
    from vaultmem.storage import Store
    from vaultmem.storage.vector_blobs import decode_rows

    store = Store(vault / ".vaultmem")
    try:
        rows = store.db.execute("SELECT label, vector FROM passage_vectors ORDER BY label").fetchall()
        owners = dict(store.db.execute("SELECT label, note_label FROM passages").fetchall())
    finally:
        store.close()
    labels = np.asarray([row[0] for row in rows], dtype=np.int64)
    matrix = decode_rows([row[1] for row in rows])
    return labels, matrix, np.asarray([owners[int(label)] for label in labels], dtype=np.int64)


def exact_note_top(scores: np.ndarray, notes: np.ndarray) -> set[int]:
    """The top-10 notes over every passage (best + a quarter of the next two positive), in numpy."""
    order = np.lexsort((-scores, notes))
    ordered, owners = scores[order], notes[order]
    starts = np.r_[0, np.flatnonzero(owners[1:] != owners[:-1]) + 1]
    group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(owners)]))
    rank = np.arange(len(owners)) - starts[group]
    following = np.bincount(group, weights=np.where((rank >= 1) & (rank <= 2), np.maximum(ordered, 0.0), 0.0), minlength=len(starts))
    totals = ordered[starts] + 0.25 * following
    best = np.lexsort((owners[starts], -totals))[:K]
    return set(owners[starts][best].tolist())


def proposed_note_top(scores: np.ndarray, notes: np.ndarray, rows: np.ndarray) -> set[int]:
    """The top-10 notes search ranks from these proposed passages: their notes, every passage scored."""
    from vaultmem.ranking import note_scores

    chosen = np.flatnonzero(np.isin(notes, np.unique(notes[rows])))
    ranked = note_scores(zip(chosen.tolist(), notes[chosen].tolist(), scores[chosen].tolist(), strict=True))
    return {hit.label for hit in ranked[:K]}


def measure(index: Any, ef: int, queries: np.ndarray, matrix: np.ndarray, notes: np.ndarray,
            exact: list[tuple[set[int], set[int]]]) -> dict[str, float]:
    index.set_ef(ef)
    started = time.perf_counter()
    found, _ = index.knn_query(queries, k=PROPOSED, num_threads=1)
    per_query_ms = (time.perf_counter() - started) * 1000 / len(queries)
    passages = notes_hit = 0
    for query, rows, (exact_passages, exact_notes) in zip(queries, found, exact, strict=True):
        passages += len(exact_passages & set(rows[:K].tolist()))
        notes_hit += len(exact_notes & proposed_note_top(matrix @ query, notes, rows))
    total = K * len(queries)
    return {"passage_recall_at_10": round(passages / total, 4), "note_recall_at_10": round(notes_hit / total, 4),
            "ms_per_query": round(per_query_ms, 3)}


def run(vault: Path, settings: Sequence[tuple[int, int]], efs: Sequence[int], queries: int, seed: int) -> dict[str, Any]:
    import hnswlib

    from vaultmem.embedders import WordLlamaEmbedder

    from .generate import make_queries

    labels, matrix, notes = stored(vault)
    log(f"{len(labels)} passages of {len(np.unique(notes))} notes")
    vectors = WordLlamaEmbedder().embed(make_queries(queries, seed))
    exact = []
    for query in vectors:
        scores = matrix @ query
        exact.append((set(np.argsort(-scores, kind="stable")[:K].tolist()), exact_note_top(scores, notes)))
    rows = []
    for m, construction in settings:
        index = hnswlib.Index(space="ip", dim=matrix.shape[1])
        index.init_index(max_elements=len(labels), M=m, ef_construction=construction, random_seed=100)
        started = time.perf_counter()
        index.add_items(matrix, np.arange(len(labels)), num_threads=-1)
        built = round(time.perf_counter() - started, 1)
        log(f"M={m} ef_construction={construction}: built in {built} s")
        rows.append({"M": m, "ef_construction": construction, "build_seconds": built,
                     "by_ef": {str(ef): measure(index, ef, vectors, matrix, notes, exact) for ef in efs}})
        log(f"  {rows[-1]['by_ef']}")
    return {"benchmark": "ann", "vault": str(vault), "passages": len(labels), "queries": queries, "settings": rows}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_ann", description=__doc__.split("\n\n")[0])
    parser.add_argument("vault", type=Path, help="a vault with its index (python -m benchmarks index --keep DIR)")
    parser.add_argument("--settings", nargs="+", default=["16:100", "16:200", "24:100", "32:100", "32:200"],
                        help="M:ef_construction pairs to build")
    parser.add_argument("--efs", type=int, nargs="+", default=[400, 1024, 2048])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=42)
    options = parser.parse_args(argv)
    settings = [tuple(int(part) for part in setting.split(":")) for setting in options.settings]
    result = run(options.vault, [(m, c) for m, c in settings], options.efs, options.queries, options.seed)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
