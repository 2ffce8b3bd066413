"""Two re-rankings of search's candidates, measured offline on the evaluation sets (PASSAGES.md §25).

    python -m benchmarks.proto_feedback                                  # five sets, both ideas (≈ 8 min on 2 busy cores)
    python -m benchmarks.proto_feedback --no-feedback --depths 50 --choices both   # MaxSim alone
    python -m benchmarks.proto_feedback --no-feedback --all-tokens       # MaxSim over every query token

1. **Feedback on the vector side** (Rocchio): q' = unit(q + β · mean of the unit vectors of the
   best passages of the first fused ranking's top m notes); the vector side asked again with q',
   fused again with the same text side (search's own ``_candidates``, its embedder's answer for
   the query replaced by q').
2. **Late interaction** over WordLlama's token vectors (MaxSim): for each of the first fused
   ranking's top ``--rerank`` notes, its best passages (each side's best, when the side proposed
   the note) scored by the mean, over the query's words (stopwords left out, as the text side
   leaves them out), of each query token's best cosine over the passage's tokens; the note's
   MaxSim is its passages' best; fused + w · z(MaxSim over the candidates), then re-sorted.

Each set is built and indexed as ``eval_ranking`` builds it; each question is asked through
``Searcher.candidates`` (the fused order search returns: ``checks.plain_equals_search`` is the
share of questions whose first 10 are ``Vault.search``'s). Prints one JSON document; progress on
stderr. ``--time`` reports what each re-ranking adds to a query (median over the questions).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.search import Candidates, Searcher, query_words
from vaultmem.storage import Eligibility

from .eval_ranking import METRICS, SETS, K, _fresh, average, question_metrics

BETAS = (0.3, 0.5, 1.0)
TOPS = (3, 5)
WEIGHTS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
DEPTHS = (30, 50, 100)
CHOICES = ("both", "vectors")  # which best passages a note's MaxSim is taken over
GRID: dict[str, tuple[Any, ...]] = {"depths": DEPTHS, "choices": CHOICES}
_WORDLIKE = re.compile(r"\w", re.UNICODE)


class TokenTable:
    """WordLlama's token vectors (its embedding table), unit length, and a cache of passages' tokens."""

    def __init__(self, model: Any) -> None:
        self.model = model
        table = np.asarray(model.embedding, dtype=np.float32)
        norms = np.linalg.norm(table, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        self.unit = table / norms
        self.passages: dict[int, np.ndarray] = {}

    def tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        encoded = self.model.tokenize(list(texts)) if texts else []
        found = []
        for item in encoded:
            ids = np.asarray([token for token, keep in zip(item.ids, item.attention_mask, strict=True) if keep], dtype=np.int64)
            ids = np.clip(ids, 0, self.unit.shape[0] - 1)
            found.append(self.unit[ids])
        return found


QUERY_TOKENS = {"words": True}  # False: every token of the query, stopwords too (ColBERT keeps them)


def query_text_words(query: str, languages: tuple[str, ...]) -> str:
    if not QUERY_TOKENS["words"]:
        return query
    return " ".join(word.shown for word in query_words(query, languages))


def maxsim(query_tokens: np.ndarray, passage_tokens: np.ndarray) -> float:
    if not len(query_tokens) or not len(passage_tokens):
        return 0.0
    return float((query_tokens @ passage_tokens.T).max(axis=1).mean())


def passage_texts(db: Any, labels: Sequence[int]) -> dict[int, str]:
    found: dict[int, str] = {}
    for first in range(0, len(labels), 500):
        chunk = list(labels[first:first + 500])
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT rowid, title, headings, props, body FROM passages_fts WHERE rowid IN ({marks})", chunk)
        for rowid, title, headings, props, body in rows:
            found[int(rowid)] = "\n".join(str(part) for part in (title, headings, props, body) if part)
    return found


def zscored(values: Sequence[float]) -> list[float]:
    mean = statistics.fmean(values)
    spread = statistics.pstdev(values) or 1.0
    return [(value - mean) / spread for value in values]


def ask(searcher: Searcher, query: str, eligibility: Eligibility, vector: np.ndarray | None = None) -> Candidates:
    """search's candidates for ``query``; with ``vector``, the embedder's answer for it replaced."""
    if vector is None:
        return searcher.candidates(query, K, eligibility)
    embedder = searcher.embedder
    embedder.embed = lambda texts: np.asarray([vector], dtype=np.float32)  # type: ignore[method-assign]
    try:
        return searcher.candidates(query, K, eligibility)
    finally:
        del embedder.embed


def ranked(found: Candidates) -> list[str]:
    return [found.paths[item.label] for item in found.fused[:K]]


def feedback_vector(searcher: Searcher, query_vector: np.ndarray, found: Candidates, top: int, beta: float) -> np.ndarray:
    best = {hit.label: hit.passage for hit in found.vectors}
    chosen: list[int] = []
    for item in found.fused[:top]:
        passage = best.get(item.label)
        if passage is None:  # the vector side did not propose it: its best passage by the query
            scored = searcher.exact_scores(query_vector, [item.label], limit=1)
            passage = scored[0].passage if scored else None
        if passage is not None:
            chosen.append(passage)
    if not chosen:
        return query_vector
    _, matrix = searcher.passage_vectors.matrix_of(chosen)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    moved = query_vector + beta * (matrix / norms).mean(axis=0)
    unit: np.ndarray = (moved / (np.linalg.norm(moved) or 1.0)).astype(np.float32)
    return unit


def late_interaction(searcher: Searcher, tokens: TokenTable, query: str, found: Candidates, depth: int,
                     choice: str = "both") -> dict[int, float]:
    """Each of the first ``depth`` fused notes' MaxSim: the best over its sides' best passages
    (``choice`` "vectors": the vector side's best passage, else the text side's)."""
    words = query_text_words(query, searcher.store.passages.languages())
    query_tokens = tokens.tokens([words])[0] if words else np.zeros((0, tokens.unit.shape[1]), dtype=np.float32)
    vector_best = {hit.label: hit.passage for hit in found.vectors}
    text_best = {hit.label: hit.passage for hit in found.text}
    candidates = [item.label for item in found.fused[:depth]]
    wanted = {note: [p for p in (vector_best.get(note), text_best.get(note)) if p is not None] for note in candidates}
    if choice == "vectors":
        wanted = {note: passages[:1] for note, passages in wanted.items()}
    missing = sorted({p for ps in wanted.values() for p in ps if p not in tokens.passages})
    if missing:
        texts = passage_texts(searcher.store.passages.db, missing)
        labels = [label for label in missing if label in texts]
        for label, matrix in zip(labels, tokens.tokens([texts[label] for label in labels]), strict=True):
            tokens.passages[label] = matrix
    return {note: max((maxsim(query_tokens, tokens.passages[p]) for p in ps if p in tokens.passages), default=0.0)
            for note, ps in wanted.items()}


def reranked(found: Candidates, sims: dict[int, float], weight: float) -> list[str]:
    head = [item for item in found.fused if item.label in sims]
    z = dict(zip([item.label for item in head], zscored([sims[item.label] for item in head]), strict=True)) if head else {}
    order = sorted(head, key=lambda item: (-(item.value + weight * z[item.label]), found.paths[item.label]))
    rest = [item for item in found.fused if item.label not in sims]
    return [found.paths[item.label] for item in [*order, *rest][:K]]


def run_set(name: str, root: Path, timed: bool, progress: Callable[[str], None], feedback: bool = True) -> dict[str, Any]:
    prepared = SETS[name](_fresh(root / name))
    rows: dict[str, list[dict[str, float]]] = {}
    costs: dict[str, list[float]] = {"feedback": [], "plain": []}
    same = 0
    with Vault(prepared.vault) as vault:
        vault.index()
        searcher = vault.derived.searcher()
        tokens = TokenTable(searcher.embedder._model)  # type: ignore[attr-defined]  # WordLlama's model: its tokenizer and embedding table
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(prepared.now)))
        progress(f"{name}: {len(prepared.questions)} questions")
        for question in prepared.questions:
            started = time.perf_counter()
            found = ask(searcher, question.text, eligibility)
            costs["plain"].append(time.perf_counter() - started)
            plain = ranked(found)
            same += plain == [hit.path for hit in vault.search(question.text, k=K, now=prepared.now)]
            rows.setdefault("plain", []).append(question_metrics(plain, question.answers))
            query_vector = searcher.embedder.embed([question.text])[0]
            for top in TOPS if feedback else ():
                for beta in BETAS:
                    started = time.perf_counter()
                    again = ask(searcher, question.text, eligibility, feedback_vector(searcher, query_vector, found, top, beta))
                    costs["feedback"].append(time.perf_counter() - started)
                    rows.setdefault(f"feedback m={top} beta={beta}", []).append(question_metrics(ranked(again), question.answers))
            if timed:
                tokens.passages.clear()  # the cost of a query that tokenizes its candidates' passages
            for depth in GRID["depths"]:
                for choice in GRID["choices"]:
                    started = time.perf_counter()
                    sims = late_interaction(searcher, tokens, question.text, found, depth, choice)
                    costs[f"late {depth} {choice}"] = [*costs.get(f"late {depth} {choice}", []), time.perf_counter() - started]
                    for weight in WEIGHTS:
                        rows.setdefault(f"maxsim {choice} top {depth} w={weight}", []).append(
                            question_metrics(reranked(found, sims, weight), question.answers))
    return {
        "questions": len(prepared.questions),
        "methods": {method: average(values) for method, values in rows.items()},
        "checks": {"plain_equals_search": round(same / len(prepared.questions), 3)},
        "ms_median": {what: round(1000 * statistics.median(values), 2) for what, values in costs.items() if values},
    }


def objective(result: dict[str, Any], method: str) -> float:
    sets = result.values()
    return round(statistics.fmean((row["methods"][method]["mrr"] + row["methods"][method]["recall@10"]) / 2 for row in sets), 4)


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    command.add_argument("--sets", default="sample,kepano,conversations,docs,conversations-echo")
    command.add_argument("--workdir", type=Path, default=Path("/tmp/proto-feedback"))
    command.add_argument("--no-feedback", action="store_true", help="MaxSim only")
    command.add_argument("--all-tokens", action="store_true", help="MaxSim over every query token, stopwords too")
    command.add_argument("--depths", default=",".join(map(str, DEPTHS)))
    command.add_argument("--choices", default=",".join(CHOICES))
    command.add_argument("--time", action="store_true", help="tokenize every question's passages anew (the cost a query pays)")
    arguments = command.parse_args(argv)
    QUERY_TOKENS["words"] = not arguments.all_tokens
    GRID["depths"] = tuple(int(depth) for depth in arguments.depths.split(","))
    GRID["choices"] = tuple(arguments.choices.split(","))
    results = {name: run_set(name, arguments.workdir, arguments.time, lambda text: print(text, file=sys.stderr, flush=True),
                              not arguments.no_feedback)
               for name in arguments.sets.split(",")}
    methods = list(next(iter(results.values()))["methods"])
    summary = {method: {"objective": objective(results, method),
                        "falls": [f"{name} {metric}" for name, row in results.items() for metric in METRICS
                                  if row["methods"][method][metric] < row["methods"]["plain"][metric]]}
               for method in methods}
    print(json.dumps({"sets": results, "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
