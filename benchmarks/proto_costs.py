"""What passages cost: embedding, FTS and hnswlib build, and query time, at 10k notes.

    python -m benchmarks.proto_costs                    # 10k generated notes + the docs set
    python -m benchmarks.proto_costs --notes 2000 --no-docs

Part of the passage prototype (``proto_passages``): the design it recommends must keep a
query ≤ 10 ms p50 at 10k notes and the cold index ≤ 1.5× the parse+embed floor. Measured
on the synthetic vault of ``python -m benchmarks index`` (150–300 words a note) and on the
docs set (long manual chapters, where WordLlama's padding to the longest text of a batch
costs most):

- ``embed``: seconds to embed every note's text as the indexer does (chunks of 512 through
  ``Embedder.embed``, which cuts a text at 16,000 characters and batches by length), the
  same texts uncut in raw batches of 64 in path order (what padding costs), and the passages;
- ``fts_build`` / ``hnsw_build``: one row / one vector per note versus per passage;
- ``query``: per query (the generated vault's recall queries) p50/p95 ms of the query
  embedding, the vector side over passages (hnswlib top 4×50 passages, grouped to notes;
  and exact), and the FTS side over passage rows (ORDER BY bm25 LIMIT 4×50 rows,
  grouped), by strategy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem.search import query_terms

from .passages import Doc, Passage, embed_text, load_docs, split_passages
from .proto_passages import RECOMMENDED, SPLITS, TEXT_LAYOUTS
from .proto_sides import COLUMNS, TextLayout, TextSide

CHUNK = 512  # the indexer's chunk
POOL = 50  # notes per side before fusion
ROW_FACTOR = 4  # passage rows / vectors fetched per note wanted
# The design proto_passages recommends (see benchmarks/PASSAGES.md).
SPLIT = next(split for split in SPLITS if split.name == RECOMMENDED.split)
EMBED = RECOMMENDED.embed
LAYOUT = next(layout for layout in TEXT_LAYOUTS if layout.name == RECOMMENDED.layout)
WEIGHTS = dict(RECOMMENDED.weights)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50_ms": round(1000 * statistics.median(ordered), 3), "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 3)}


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = action()
    return time.perf_counter() - started, value


def embed_in_chunks(embedder: Any, texts: Sequence[str]) -> np.ndarray:
    """As the indexer does: ``Embedder.embed`` (cut to MAX_EMBED_CHARS, batched by length) per chunk."""
    return np.vstack([embedder.embed(list(texts[start : start + CHUNK])) for start in range(0, len(texts), CHUNK)])


def embed_in_path_order(embedder: Any, texts: Sequence[str]) -> None:
    """The embedder's raw batches in path order, uncut: what padding costs without sorting."""
    for start in range(0, len(texts), 64):
        embedder.embed_batch(list(texts[start : start + 64]))


def embedding_costs(embedder: Any, docs: Sequence[Doc], passages: Sequence[Passage]) -> tuple[dict[str, Any], np.ndarray]:
    note_texts = [doc.note_embed_text for doc in docs]
    passage_texts = [embed_text(docs[p.doc], p, EMBED) for p in passages]
    seconds_notes, _ = timed(lambda: embed_in_chunks(embedder, note_texts))
    seconds_unsorted, _ = timed(lambda: embed_in_path_order(embedder, note_texts))
    seconds_passages, vectors = timed(lambda: embed_in_chunks(embedder, passage_texts))
    return {
        "notes": len(docs), "passages": len(passages), "passages_per_note": round(len(passages) / len(docs), 2),
        "chars_per_passage_p50": int(statistics.median(len(p.text) for p in passages)),
        "embed_notes_seconds": round(seconds_notes, 2), "embed_notes_path_order_uncut_seconds": round(seconds_unsorted, 2),
        "embed_passages_seconds": round(seconds_passages, 2),
    }, vectors


def build_costs(docs: Sequence[Doc], passages: Sequence[Passage], vectors: np.ndarray) -> tuple[dict[str, Any], TextSide, Any]:
    import hnswlib

    seconds_note_fts, _ = timed(lambda: TextSide(docs, passages, TextLayout("note", per_passage=False)))
    seconds_fts, side = timed(lambda: TextSide(docs, passages, LAYOUT))

    def hnsw() -> Any:
        index = hnswlib.Index(space="ip", dim=vectors.shape[1])
        index.init_index(max_elements=len(vectors), M=16, ef_construction=100)
        index.add_items(vectors, np.arange(len(vectors)), num_threads=1)
        index.set_ef(max(400, min(1024, len(vectors) // 100)))
        return index

    seconds_hnsw, index = timed(hnsw)
    return {"fts_note_rows_seconds": round(seconds_note_fts, 2), "fts_passage_rows_seconds": round(seconds_fts, 2),
            "hnsw_passages_seconds": round(seconds_hnsw, 2), "fts_rows": len(side.doc_of)}, side, index


def query_costs(embedder: Any, queries: Sequence[str], side: TextSide, index: Any, vectors: np.ndarray, doc_of: np.ndarray) -> dict[str, Any]:
    weights = tuple(WEIGHTS.get(column, 0.0) for column in COLUMNS)
    rank = f"bm25(fts, {', '.join(str(w) for w in weights)})"
    sql = f"SELECT rowid, {rank} FROM fts WHERE fts MATCH ? ORDER BY {rank} LIMIT ?"
    timings: dict[str, list[float]] = {name: [] for name in ("embed", "vectors_hnsw", "vectors_exact", "text_any", "text_all_first")}
    for query in queries:
        for name, seconds in _one_query(embedder, query, side, index, vectors, doc_of, sql).items():
            timings[name].append(seconds)
    result = {name: percentiles(values) for name, values in timings.items()}
    total = [e + v + t for e, v, t in zip(timings["embed"], timings["vectors_hnsw"], timings["text_any"], strict=True)]
    result["embed+hnsw+text_any"] = percentiles(total)
    return result


def _one_query(embedder: Any, query: str, side: TextSide, index: Any, vectors: np.ndarray, doc_of: np.ndarray, sql: str) -> dict[str, float]:
    seconds: dict[str, float] = {}
    seconds["embed"], vector = timed(lambda: embedder.embed([query])[0])
    wanted = ROW_FACTOR * POOL
    seconds["vectors_hnsw"], _ = timed(lambda: _group(index.knn_query(vector, k=min(len(vectors), wanted))[0][0], doc_of))
    seconds["vectors_exact"], _ = timed(lambda: _group(_top(vectors @ vector, wanted), doc_of))
    terms = query_terms(query)
    any_match, all_match = " OR ".join(terms), " AND ".join(terms)
    seconds["text_any"], _ = timed(lambda: _group_rows(side.conn.execute(sql, (any_match, wanted)).fetchall(), side.doc_of))

    def all_first() -> None:
        rows = side.conn.execute(sql, (all_match, wanted)).fetchall()
        if len(_group_rows(rows, side.doc_of)) < 10:
            side.conn.execute(sql, (any_match, wanted)).fetchall()

    seconds["text_all_first"], _ = timed(all_first)
    return seconds


def _top(scores: np.ndarray, count: int) -> np.ndarray:
    if count >= len(scores):
        return np.argsort(-scores)
    best = np.argpartition(-scores, count)[:count]
    return best[np.argsort(-scores[best])]


def _group(passage_ids: Sequence[int], doc_of: np.ndarray) -> list[int]:
    return list(dict.fromkeys(int(doc_of[i]) for i in passage_ids))[:POOL]


def _group_rows(rows: Sequence[tuple[int, float]], doc_of: np.ndarray) -> list[int]:
    return list(dict.fromkeys(int(doc_of[rowid]) for rowid, _ in rows))[:POOL]


def derived_note_vectors(embedder: Any, docs: Sequence[Doc], passages: Sequence[Passage], sample: int = 300) -> dict[str, Any]:
    """WordLlama averages token vectors, so a whole-note vector (what consolidation compares)
    is the token-count-weighted mean of its pieces' raw vectors: how close is that mean of
    the title and the passages to the note's own vector (cosine), and a passage's
    title+heading vector to the mean of the title line's and the passage's?"""
    model = embedder._model
    owned: dict[int, list[Passage]] = {}
    for passage in passages:
        owned.setdefault(passage.doc, []).append(passage)
    chosen = [index for index, parts in owned.items() if len(parts) > 1][:sample]
    if not chosen:
        return {"notes": 0}

    def raw(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        counts = np.asarray([len(model.tokenizer.encode(text, add_special_tokens=False).ids) for text in texts], dtype=np.float64)
        return np.asarray(embedder.embed_batch(texts), dtype=np.float64), counts

    note_cosines, passage_cosines = [], []
    for index in chosen:
        doc = docs[index]
        truth, _ = raw([doc.note_embed_text])
        pieces, counts = raw([doc.title, *(p.text for p in owned[index])])
        derived = (pieces * counts[:, None]).sum(axis=0)
        note_cosines.append(float(truth[0] @ derived / (np.linalg.norm(truth[0]) * np.linalg.norm(derived))))
        first = owned[index][1]
        direct, _ = raw([embed_text(doc, first, EMBED)])
        head = embed_text(doc, first, EMBED)[: -len(first.text)].rstrip("\n")
        parts, part_counts = raw([head, first.text])
        composed = (parts * part_counts[:, None]).sum(axis=0)
        passage_cosines.append(float(direct[0] @ composed / (np.linalg.norm(direct[0]) * np.linalg.norm(composed))))
    return {"notes": len(chosen), "note_vector_cosine": _spread(note_cosines), "passage_context_cosine": _spread(passage_cosines)}


def _spread(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"min": round(ordered[0], 4), "p5": round(ordered[int(0.05 * (len(ordered) - 1))], 4), "median": round(statistics.median(ordered), 4)}


def measure(vault: Path, now: str | None, queries: Sequence[str], embedder: Any, progress: Callable[[str], None]) -> dict[str, Any]:
    docs = load_docs(vault, now)
    passages = [p for index, doc in enumerate(docs) for p in split_passages(index, doc.body, SPLIT)]
    progress(f"{vault.name}: {len(docs)} notes, {len(passages)} passages; embedding")
    embedding, vectors = embedding_costs(embedder, docs, passages)
    progress(f"{vault.name}: building FTS and hnswlib")
    build, side, index = build_costs(docs, passages, vectors)
    doc_of = np.asarray([p.doc for p in passages], dtype=np.int64)
    for query in queries[:20]:  # warm-up
        embedder.embed([query])
    derived = derived_note_vectors(embedder, docs, passages)
    return {**embedding, **build, "derived": derived, "query": query_costs(embedder, queries, side, index, vectors, doc_of)}


def main(argv: Sequence[str] | None = None) -> None:
    from vaultmem.embedders import WordLlamaEmbedder

    from .generate import generate_vault, make_queries

    command = argparse.ArgumentParser(prog="python -m benchmarks.proto_costs", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--notes", type=int, default=10000, help="generated notes (default 10,000)")
    command.add_argument("--no-docs", action="store_true", help="skip the docs set")
    arguments = command.parse_args(argv)
    def progress(message: str) -> None:
        return print(message, file=sys.stderr, flush=True)
    embedder = WordLlamaEmbedder()
    queries = make_queries(200, seed=42)
    import os

    result: dict[str, Any] = {"split": SPLIT.name, "embed": EMBED, "layout": LAYOUT.name, "loadavg_before": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory(prefix="proto-costs-") as temporary:
        vault = Path(temporary) / "generated"
        generate_vault(vault, arguments.notes, seed=42)
        result["generated"] = measure(vault, None, queries, embedder, progress)
        if not arguments.no_docs:
            from .evalsets import docs

            prepared = docs.prepare(Path(temporary))
            result["docs"] = measure(prepared.vault, prepared.now, queries, embedder, progress)
    result["loadavg_after"] = os.getloadavg()[0]
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
