"""Late interaction (MaxSim) over WordLlama's token vectors, from stored token ids (PASSAGES.md §28).

    python -m benchmarks.proto_maxsim                                   # five sets, every variant
    python -m benchmarks.proto_maxsim --sets kepano --variants pieces,words

§25 measured MaxSim tokenizing each candidate's passages at query time, and a per-passage product
over its ~250 tokens: 1.7–4× the candidate collection. Here each passage's token ids are made once
(as the index would store them, a uint16 per token, with the passage's row) and a query pays:

1. its words' tokens (stopwords left out, as the text side leaves them) against the distinct
   token ids of its candidates' passages, once (q × U, U the union; WordLlama's table is static);
2. one gather of those similarities by every candidate passage's ids and one ``maximum.reduceat``
   (each query token's best per passage), then the mean over the query's tokens.

A note's MaxSim is its best passages' (each side's best, when the side proposed it), blended
as §25: fused + w · z(MaxSim over the first ``d`` fused notes), those ``d`` re-sorted.

Variants (which tokens a passage and a query keep):

- ``pieces``: every token (§25's figures, the check that this path computes the same thing);
- ``words``: a word's first token only (those that start with WordLlama's word mark "▁") and
  digits — a piece inside a longer word ("nurseries" → "▁nur" + "series") is not the word;
- ``lower``: every token of the case-folded text ("Shows" → "▁shows", not "▁Sh" + "ows");
- ``lower-words``: both.

``--time`` also reports, per question (median), what search's candidates cost and what the MaxSim
adds: reading the candidates' ids from SQLite (a scratch table of uint16 blobs) and the product.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.search import Candidates, Searcher
from vaultmem.storage import Eligibility

from .eval_ranking import METRICS, SETS, K, _fresh, average, question_metrics
from .proto_feedback import passage_texts, query_text_words, ranked, reranked

VARIANTS = ("pieces", "words", "lower", "lower-words")
WEIGHTS = (0.2, 0.3, 0.4, 0.5)
DEPTH = 50


class IdTable:
    """WordLlama's unit token vectors, which token ids a variant keeps, and each passage's ids."""

    def __init__(self, model: Any) -> None:
        self.model = model
        table = np.asarray(model.embedding, dtype=np.float32)
        norms = np.linalg.norm(table, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        self.unit = table / norms
        pieces = [model.tokenizer.id_to_token(token) or "" for token in range(table.shape[0])]
        # A word's first token, or a digit (Llama spells numbers digit by digit): what "words" keeps.
        self.word_start = np.asarray([piece.startswith("▁") and len(piece) > 1 or piece.isdigit() for piece in pieces])
        self.passages: dict[str, dict[int, np.ndarray]] = {variant: {} for variant in VARIANTS}

    def ids(self, texts: Sequence[str], variant: str) -> list[np.ndarray]:
        lower = variant.startswith("lower")
        encoded = self.model.tokenize([text.lower() if lower else text for text in texts]) if texts else []
        found = []
        for item in encoded:
            ids = np.asarray([token for token, keep in zip(item.ids, item.attention_mask, strict=True) if keep], dtype=np.int64)
            ids = ids[(ids >= 0) & (ids < self.unit.shape[0])]
            if variant.endswith("words"):
                ids = ids[self.word_start[ids]]
            found.append(ids.astype(np.uint16))
        return found


def maxsims(table: IdTable, query_ids: np.ndarray, passages: Sequence[np.ndarray]) -> np.ndarray:
    """Each passage's MaxSim: the mean over the query's tokens of each one's best cosine over the passage's."""
    if not len(query_ids) or not passages:
        return np.zeros(len(passages), dtype=np.float32)
    lengths = np.asarray([len(ids) for ids in passages])
    every = np.concatenate([ids for ids in passages if len(ids)]) if lengths.sum() else np.zeros(0, dtype=np.uint16)
    if not len(every):
        return np.zeros(len(passages), dtype=np.float32)
    union, positions = np.unique(every, return_inverse=True)
    similarity = table.unit[query_ids] @ table.unit[union].T  # q × U
    gathered = similarity[:, positions]  # q × every token of every passage
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    held = lengths > 0
    best = np.zeros((len(query_ids), len(passages)), dtype=np.float32)
    best[:, held] = np.maximum.reduceat(gathered, starts[held], axis=1)
    result: np.ndarray = best.mean(axis=0)
    return result


def wanted_passages(found: Candidates, depth: int) -> dict[int, list[int]]:
    vector_best = {hit.label: hit.passage for hit in found.vectors}
    text_best = {hit.label: hit.passage for hit in found.text}
    return {item.label: [p for p in (vector_best.get(item.label), text_best.get(item.label)) if p is not None]
            for item in found.fused[:depth]}


def note_maxsims(searcher: Searcher, table: IdTable, query: str, found: Candidates, depth: int, variant: str) -> dict[int, float]:
    words = query_text_words(query, searcher.store.passages.languages())
    query_ids = table.ids([words], variant)[0].astype(np.int64) if words else np.zeros(0, dtype=np.int64)
    wanted = wanted_passages(found, depth)
    held = table.passages[variant]
    missing = sorted({p for ps in wanted.values() for p in ps if p not in held})
    if missing:
        texts = passage_texts(searcher.store.passages.db, missing)
        labels = [label for label in missing if label in texts]
        for label, ids in zip(labels, table.ids([texts[label] for label in labels], variant), strict=True):
            held[label] = ids
    order = sorted({p for ps in wanted.values() for p in ps if p in held})
    scores = dict(zip(order, maxsims(table, query_ids, [held[p] for p in order]).tolist(), strict=True))
    return {note: max((scores[p] for p in ps if p in scores), default=0.0) for note, ps in wanted.items()}


def timed_maxsim(searcher: Searcher, table: IdTable, scratch: sqlite3.Connection, query: str, found: Candidates) -> float:
    """What a query adds: its words tokenized, its candidates' ids read from SQLite, the product."""
    started = time.perf_counter()
    words = query_text_words(query, searcher.store.passages.languages())
    query_ids = table.ids([words], "pieces")[0].astype(np.int64) if words else np.zeros(0, dtype=np.int64)
    wanted = wanted_passages(found, DEPTH)
    order = sorted({p for ps in wanted.values() for p in ps})
    marks = ",".join("?" * len(order))
    rows = dict(scratch.execute(f"SELECT passage, ids FROM passage_ids WHERE passage IN ({marks})", order).fetchall())
    passages = [np.frombuffer(rows[p], dtype=np.uint16) for p in order if p in rows]
    scores = maxsims(table, query_ids, passages)
    _ = {note: max((float(scores[order.index(p)]) for p in ps if p in rows), default=0.0) for note, ps in wanted.items()}
    return time.perf_counter() - started


def scratch_ids(searcher: Searcher, table: IdTable) -> sqlite3.Connection:
    """Every passage's token ids as uint16 blobs in an in-memory table (as the index would hold them)."""
    db = searcher.store.passages.db
    labels = [int(row[0]) for row in db.execute("SELECT rowid FROM passages_fts")]
    texts = passage_texts(db, labels)
    scratch = sqlite3.connect(":memory:")
    scratch.execute("CREATE TABLE passage_ids (passage INTEGER PRIMARY KEY, ids BLOB NOT NULL)")
    chosen = [label for label in labels if label in texts]
    for first in range(0, len(chosen), 512):
        part = chosen[first:first + 512]
        scratch.executemany("INSERT INTO passage_ids VALUES (?, ?)",
                            [(label, ids.tobytes()) for label, ids in zip(part, table.ids([texts[label] for label in part], "pieces"), strict=True)])
    return scratch


def run_set(name: str, root: Path, variants: Sequence[str], timed: bool, progress: Callable[[str], None]) -> dict[str, Any]:
    prepared = SETS[name](_fresh(root / name))
    rows: dict[str, list[dict[str, float]]] = {}
    costs: dict[str, list[float]] = {"candidates": [], "maxsim": []}
    moved: dict[str, list[dict[str, Any]]] = {}
    with Vault(prepared.vault) as vault:
        vault.index()
        searcher = vault.derived.searcher()
        table = IdTable(searcher.embedder._model)  # type: ignore[attr-defined]  # WordLlama's model
        scratch = scratch_ids(searcher, table) if timed else None
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(prepared.now)))
        progress(f"{name}: {len(prepared.questions)} questions")
        for question in prepared.questions:
            started = time.perf_counter()
            found = searcher.candidates(question.text, K, eligibility)
            costs["candidates"].append(time.perf_counter() - started)
            plain = ranked(found)
            rows.setdefault("plain", []).append(question_metrics(plain, question.answers))
            if scratch is not None:
                costs["maxsim"].append(timed_maxsim(searcher, table, scratch, question.text, found))
            for variant in variants:
                sims = note_maxsims(searcher, table, question.text, found, DEPTH, variant)
                for weight in WEIGHTS:
                    after = reranked(found, sims, weight)
                    rows.setdefault(f"{variant} w={weight}", []).append(question_metrics(after, question.answers))
                    for answer in question.answers:
                        before_at = plain.index(answer) + 1 if answer in plain else None
                        after_at = after.index(answer) + 1 if answer in after else None
                        if before_at != after_at and weight == 0.3:
                            moved.setdefault(f"{variant} w={weight}", []).append(
                                {"question": question.text, "answer": answer, "from": before_at, "to": after_at})
    return {
        "questions": len(prepared.questions),
        "methods": {method: average(values) for method, values in rows.items()},
        "moved_w0.3": moved if name in ("kepano", "sample", "docs") else {key: len(value) for key, value in moved.items()},
        "ms_median": {what: round(1000 * statistics.median(values), 3) for what, values in costs.items() if values},
        "ms_p95": {what: round(1000 * float(np.percentile(values, 95)), 3) for what, values in costs.items() if values},
    }


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    command.add_argument("--sets", default="sample,kepano,conversations,docs,conversations-echo")
    command.add_argument("--workdir", type=Path, default=Path("/tmp/proto-maxsim"))
    command.add_argument("--variants", default=",".join(VARIANTS))
    command.add_argument("--time", action="store_true", help="time what the MaxSim adds to a query, ids read from SQLite")
    command.add_argument("--scale", type=Path, metavar="VAULT", help="time search alone and with the MaxSim on a generated vault")
    command.add_argument("--queries", type=int, default=200)
    arguments = command.parse_args(argv)
    if arguments.scale:
        print(json.dumps(at_scale(arguments.scale, arguments.queries, 42), indent=2))
        return
    variants = arguments.variants.split(",")
    results = {name: run_set(name, arguments.workdir, variants, arguments.time, lambda text: print(text, file=sys.stderr, flush=True))
               for name in arguments.sets.split(",")}
    methods = list(next(iter(results.values()))["methods"])
    summary = {method: {"falls": [f"{name} {metric}" for name, row in results.items() for metric in METRICS
                                  if row["methods"][method][metric] < row["methods"]["plain"][metric]]}
               for method in methods}
    print(json.dumps({"sets": results, "summary": summary}, indent=2))


def at_scale(vault_dir: Path, queries: int, seed: int) -> dict[str, Any]:
    """On a generated vault (``python -m benchmarks generate DIR``): search's p50/p95 alone, and
    with the MaxSim added (ids read from an on-disk SQLite table of uint16 blobs), alternated per
    query so both see the same load; and what the ids would cost the index."""
    from .generate import make_queries

    with Vault(vault_dir) as vault:
        vault.index()
        searcher = vault.derived.searcher()
        table = IdTable(searcher.embedder._model)  # type: ignore[attr-defined]
        started = time.perf_counter()
        memory = scratch_ids(searcher, table)
        tokenizing = time.perf_counter() - started
        disk = vault_dir.parent / f"{vault_dir.name}-ids.sqlite"
        disk.unlink(missing_ok=True)
        on_disk = sqlite3.connect(disk)
        memory.backup(on_disk)
        blob_bytes = on_disk.execute("SELECT sum(length(ids)), count(*) FROM passage_ids").fetchone()
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(None)))
        for query in make_queries(20, seed + 1):
            vault.search(query, k=K)
        alone: list[float] = []
        added: list[float] = []
        for query in make_queries(queries, seed):
            started = time.perf_counter()
            vault.search(query, k=K)
            alone.append(time.perf_counter() - started)
            found = searcher.candidates(query, K, eligibility)
            added.append(timed_maxsim(searcher, table, on_disk, query, found))
        index_bytes = sum(path.stat().st_size for path in (vault_dir / ".vaultmem").rglob("*") if path.is_file())
    total = [a + b for a, b in zip(alone, added, strict=True)]

    def summary(values: Sequence[float]) -> dict[str, float]:
        return {"p50_ms": round(1000 * statistics.median(values), 3), "p95_ms": round(1000 * float(np.percentile(values, 95)), 3)}

    return {"search": summary(alone), "maxsim_added": summary(added), "search_plus_maxsim": summary(total),
            "ids_bytes": blob_bytes[0], "passages": blob_bytes[1], "index_bytes": index_bytes,
            "ids_sqlite_file_bytes": disk.stat().st_size, "tokenize_every_passage_s": round(tokenizing, 2)}


if __name__ == "__main__":
    main()
