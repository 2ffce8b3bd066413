"""Offline prototype for issue 13: passages, FTS fields and weights, fusion, scores.

    python -m benchmarks.proto_passages                      # every set, every stage (≈ 10 min)
    python -m benchmarks.proto_passages --sets kepano,docs   # a subset while iterating
    python -m benchmarks.proto_passages --costs 10000        # + index/query costs at 10k notes

Builds the harness's sets (``eval_ranking.SETS``), reads their notes as vaultmem would
(templates left out, expired notes never ranked), and ranks each question with the real
default embedder (exact cosine over passage vectors) and a real FTS5 table with
vaultmem's tokenizer — outside vaultmem, so the design can be chosen before it is built.
Metrics are the harness's (hit@1, hit@3, MRR, recall@10 at cut-off 10).

Stages, each choosing its winner by the same rule — the mean over sets of
(MRR + recall@10) / 2, every set counting the same, so no set is tuned alone:

1. ``vectors``: split (note, sections cut at N characters, packed or not) × embedded text
   (passage, title + heading path + passage, + properties) × aggregation (best passage,
   best + a share of the next two);
2. ``text``: row layout (note, passage with the note's fields in every row or the first)
   × columns and BM25 weights (one column at a time from a start, twice) × query
   strategy (all terms first as vaultmem, or plain OR) × aggregation;
3. ``fusion`` of the chosen sides (and of today's sides): RRF k / weights / depth,
   min-max, z-score, an absolute mix of cosine and normalised BM25; whether fused ≥ the
   better side on every set and metric;
4. ``priors``: penalties for very short notes;
5. ``scores``: how well a hit's score separates answers from non-answers across
   questions (pooled ROC AUC over every top-10 hit), and the match kinds.

Prints one JSON document; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem.search import query_terms

from .eval_ranking import SETS, _fresh, average, question_metrics
from .passages import EMBED_VARIANTS, Doc, Passage, Split, load_docs, split_passages
from .proto_sides import COLUMNS, EmbeddingCache, TextLayout, TextSide, VectorSide, ranked

K = 10
DEPTH = 100
FUSE_DEPTH = 50  # candidates per side vaultmem fuses today

SPLITS = (
    Split("note", None),
    *(Split(f"{n}", n) for n in (500, 1000, 2000, 4000)),
    *(Split(f"{n}+pack", n, merge=True) for n in (500, 1000, 2000, 4000)),
)
AGGREGATIONS = ((0.0, 0), (0.1, 2), (0.25, 2))  # (share, following): best + share × next ones

# Today's full-text side: columns title 5, body 1, tags 2 (adr/0004), notes with every term first.
BASELINE_WEIGHTS = {"title": 5.0, "tags": 2.0, "body": 1.0}
# Where the column sweep starts: every field searchable, the note's names heavier.
START_WEIGHTS = {"name": 5.0, "title": 5.0, "aliases": 5.0, "headings": 2.0, "props": 2.0, "tags": 2.0, "body": 1.0}
SWEEP = {
    "name": (0.0, 2.0, 5.0, 10.0), "title": (0.0, 2.0, 5.0, 10.0), "aliases": (0.0, 2.0, 5.0, 10.0),
    "headings": (0.0, 1.0, 2.0, 5.0), "props": (0.0, 1.0, 2.0, 5.0), "tags": (0.0, 1.0, 2.0, 5.0), "body": (0.5, 1.0, 2.0),
}


def weights_tuple(weights: dict[str, float]) -> tuple[float, ...]:
    return tuple(weights.get(column, 0.0) for column in COLUMNS)


def objective(per_set: dict[str, dict[str, float]]) -> float:
    """The one selection rule: mean over sets of (MRR + recall@10) / 2."""
    return round(sum((m["mrr"] + m["recall@10"]) / 2 for m in per_set.values()) / len(per_set), 4)


# ------------------------------------------------------------------ one set


@dataclass
class SetRun:
    name: str
    docs: list[Doc]
    eligible: np.ndarray
    questions: list[str]
    answers: list[set[str]]
    kinds: list[str]
    query_vectors: np.ndarray
    matches: list[tuple[str | None, str | None, int]]  # (all terms, any term, how many terms)
    all_docs_with_templates: list[Doc] = field(default_factory=list)
    passages: dict[str, list[Passage]] = field(default_factory=dict)

    def passages_for(self, split: Split) -> list[Passage]:
        if split.name not in self.passages:
            self.passages[split.name] = [p for index, doc in enumerate(self.docs) for p in split_passages(index, doc.body, split)]
        return self.passages[split.name]

    def metrics(self, rankings: Sequence[Sequence[int]], by_kind: bool = False) -> dict[str, Any]:
        rows = [question_metrics([self.docs[i].path for i in ranking], answers) for ranking, answers in zip(rankings, self.answers)]
        result: dict[str, Any] = average(rows)
        if by_kind:
            result["by_kind"] = {kind: average([row for row, k in zip(rows, self.kinds) if k == kind]) for kind in sorted(set(self.kinds))}
        return result


def prepare_run(name: str, workdir: Path, cache: EmbeddingCache) -> SetRun:
    prepared = SETS[name](_fresh(workdir / name))
    docs = load_docs(prepared.vault, prepared.now)
    questions = [question.text for question in prepared.questions]
    matches = []
    for text in questions:
        terms = query_terms(text)
        matches.append((" AND ".join(terms) or None, " OR ".join(terms) or None, len(terms)))
    run = SetRun(
        name=name, docs=docs, eligible=np.asarray([not doc.expired for doc in docs]), questions=questions,
        answers=[set(question.answers) for question in prepared.questions], kinds=[question.kind for question in prepared.questions],
        query_vectors=cache.matrix(questions), matches=matches,
    )
    known = {doc.path for doc in docs}
    missing = sorted({path for answers in run.answers for path in answers} - known)
    if missing:
        raise RuntimeError(f"{name}: answers not among the notes read: {missing[:3]} — the prototype's scan differs from the set")
    return run


# ------------------------------------------------------------------ sides → per-question rankings and scores


@dataclass
class SideResult:
    rankings: list[list[int]]  # best first, eligible only, up to DEPTH
    scores: list[np.ndarray]  # per doc; -inf where the side has nothing


def vector_result(run: SetRun, side: VectorSide, share: float, following: int) -> SideResult:
    scores = [side.note_scores(vector, share, following) for vector in run.query_vectors]
    return SideResult([ranked(score, run.eligible, DEPTH) for score in scores], scores)


def text_result(run: SetRun, side: TextSide, weights: Sequence[float], strategy: str, share: float) -> SideResult:
    rankings, scores = [], []
    for all_terms, any_term, count in run.matches:
        if any_term is None:
            rankings.append([])
            scores.append(np.full(len(run.docs), -np.inf))
            continue
        anyone = side.note_scores(any_term, weights, share)
        ranking = ranked(anyone, run.eligible, DEPTH)
        if strategy == "all-first" and count > 1:
            # vaultmem today (adr/0004): notes with every term, then — only if fewer than k — any term.
            ranking = ranked(side.note_scores(all_terms, weights, share), run.eligible, FUSE_DEPTH)
            if len(ranking) < K:
                seen = set(ranking)
                ranking += [doc for doc in ranked(anyone, run.eligible, DEPTH) if doc not in seen][: FUSE_DEPTH - len(ranking)]
        rankings.append(ranking)
        scores.append(anyone)
    return SideResult(rankings, scores)


# ------------------------------------------------------------------ fusions


@dataclass(frozen=True)
class FusionSpec:
    name: str
    method: str  # rrf | minmax | zscore | absmix
    k: float = 60.0
    vectors: float = 1.0
    text: float = 1.0
    depth: int = FUSE_DEPTH
    scale: float = 0.0  # absmix: BM25 half-saturation point


def fuse(spec: FusionSpec, vectors: Sequence[int], text: Sequence[int], vector_scores: np.ndarray, text_scores: np.ndarray) -> list[int]:
    scores = fused_scores(spec, vectors, text, vector_scores, text_scores)
    return sorted(scores, key=lambda doc: (-scores[doc], doc))


def fused_scores(spec: FusionSpec, vectors: Sequence[int], text: Sequence[int], vector_scores: np.ndarray, text_scores: np.ndarray) -> dict[int, float]:
    vectors, text = list(vectors)[: spec.depth], list(text)[: spec.depth]
    candidates = list(dict.fromkeys([*vectors, *text]))
    if spec.method == "rrf":
        scores = dict.fromkeys(candidates, 0.0)
        for ranking, weight in ((vectors, spec.vectors), (text, spec.text)):
            for rank, doc in enumerate(ranking, start=1):
                scores[doc] += weight / (spec.k + rank)
        return scores
    if spec.method in ("minmax", "zscore"):
        v = _normalised(spec.method, [vector_scores[d] for d in vectors])
        t = _normalised(spec.method, [text_scores[d] for d in text])
        v_of, t_of = dict(zip(vectors, v)), dict(zip(text, t))
        v_missing = min(v, default=0.0) if spec.method == "zscore" else 0.0
        t_missing = min(t, default=0.0) if spec.method == "zscore" else 0.0
        return {d: spec.vectors * v_of.get(d, v_missing) + spec.text * t_of.get(d, t_missing) for d in candidates}
    # absmix: both components of every candidate, on scales that mean the same in every query.
    return {d: spec.vectors * absolute_vector(vector_scores[d]) + spec.text * absolute_text(text_scores[d], spec.scale)
            for d in candidates}


def absolute_vector(cosine: float) -> float:
    return 0.0 if not math.isfinite(cosine) else max(0.0, float(cosine))


def absolute_text(bm25: float, scale: float) -> float:
    """BM25 → [0, 1): bm25 / (bm25 + scale); 0 without a match."""
    return 0.0 if not math.isfinite(bm25) or bm25 <= 0 else float(bm25 / (bm25 + scale))


def _normalised(method: str, values: list[float]) -> list[float]:
    if not values:
        return []
    array = np.asarray(values, dtype=np.float64)
    if method == "minmax":
        span = array.max() - array.min()
        return list((array - array.min()) / span) if span else [1.0] * len(values)
    spread = array.std() or 1.0
    return list((array - array.mean()) / spread)


FUSIONS = (
    *(FusionSpec(f"rrf:k={k}", "rrf", k=k) for k in (2, 5, 10, 20, 30, 60)),
    *(FusionSpec(f"rrf:k={k},depth=100", "rrf", k=k, depth=100) for k in (5, 10, 60)),
    *(FusionSpec(f"rrf:k={k},text={w}", "rrf", k=k, text=w) for k in (5, 10, 30, 60) for w in (0.5, 0.75, 1.5, 2.0)),
    *(FusionSpec(f"minmax:vectors={w}", "minmax", vectors=w, text=1 - w) for w in (0.3, 0.5, 0.7)),
    *(FusionSpec(f"zscore:vectors={w}", "zscore", vectors=w, text=1 - w) for w in (0.3, 0.5, 0.7)),
    *(FusionSpec(f"absmix:vectors={w},scale={s}", "absmix", vectors=w, text=1 - w, scale=s)
      for w in (0.3, 0.5, 0.7) for s in (5.0, 10.0, 20.0)),
)


# ------------------------------------------------------------------ stages


Progress = Callable[[str], None]


class Prototype:
    def __init__(self, runs: list[SetRun], cache: EmbeddingCache, progress: Progress) -> None:
        self.runs = runs
        self.cache = cache
        self.progress = progress
        self.vector_sides: dict[tuple[str, str, str, bool], VectorSide] = {}
        self.text_sides: dict[tuple[str, str], TextSide] = {}
        self.results: dict[tuple[Any, ...], SideResult] = {}

    # --- sides, cached per set and configuration

    def vector(self, run: SetRun, split: Split, variant: str, share: float, following: int, note_vector: bool = False) -> SideResult:
        key = ("v", run.name, split.name, variant, share, following, note_vector)
        if key not in self.results:
            side_key = (run.name, split.name, variant, note_vector)
            if side_key not in self.vector_sides:
                self.vector_sides[side_key] = VectorSide.build(run.docs, run.passages_for(split), variant, self.cache, note_vector)
            self.results[key] = vector_result(run, self.vector_sides[side_key], share, following)
        return self.results[key]

    def text(self, run: SetRun, split: Split, layout: TextLayout, weights: Sequence[float], strategy: str, share: float) -> SideResult:
        key = ("t", run.name, split.name, layout, tuple(weights), strategy, share)
        if key not in self.results:
            side_key = (run.name, split.name if layout.per_passage else "note", layout)
            if side_key not in self.text_sides:
                self.text_sides[side_key] = TextSide(run.docs, run.passages_for(split), layout)
            self.results[key] = text_result(run, self.text_sides[side_key], weights, strategy, share)
        return self.results[key]

    def table(self, name: str, config: dict[str, Any], result_of: Callable[[SetRun], list[list[int]]]) -> dict[str, Any]:
        per_set = {run.name: run.metrics(result_of(run)) for run in self.runs}
        return {"variant": name, **config, "sets": per_set, "objective": objective(per_set)}


def stage_vectors(proto: Prototype) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = []
    for split in SPLITS:
        for variant in EMBED_VARIANTS:
            for share, following in AGGREGATIONS:
                if split.max_chars is None and share:
                    continue  # one passage per note: nothing to add
                config = {"split": split.name, "embed": variant, "share": share, "following": following}
                rows.append(proto.table(f"vectors {split.name} {variant} share={share}", config,
                                        lambda run: proto.vector(run, split, variant, share, following).rankings))
        proto.progress(f"vectors: split {split.name} done ({proto.cache.seconds:.0f} s embedding so far)")
    best = max(rows, key=lambda row: row["objective"])
    # The whole-note vector (kept for consolidation) as one more passage of a multi-passage note.
    split = _split(best["split"])
    rows.append(proto.table(f"vectors {split.name} {best['embed']} share={best['share']} +note vector",
                            {**{key: best[key] for key in ("split", "embed", "share", "following")}, "note_vector": True},
                            lambda run: proto.vector(run, split, best["embed"], best["share"], best["following"], True).rankings))
    best = max(rows, key=lambda row: row["objective"])
    return rows, best


def _split(name: str) -> Split:
    return next(split for split in SPLITS if split.name == name)


TEXT_LAYOUTS = (
    TextLayout("note", per_passage=False),
    TextLayout("passage-every", per_passage=True, note_fields="every"),
    TextLayout("passage-first", per_passage=True, note_fields="first"),
    TextLayout("passage-every+path", per_passage=True, note_fields="every", path_in_name=True),
    TextLayout("passage-every-propkeys", per_passage=True, note_fields="every", props_keys=False),
)


def stage_text(proto: Prototype, splits: Sequence[Split]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows: list[dict[str, Any]] = []

    def evaluate(split: Split, layout: TextLayout, weights: dict[str, float], strategy: str, share: float) -> dict[str, Any]:
        config = {"split": split.name if layout.per_passage else "note", "layout": layout.name, "weights": weights,
                  "strategy": strategy, "share": share}
        row = proto.table(f"text {config['split']} {layout.name} {strategy} share={share} {_weights_name(weights)}", config,
                          lambda run: proto.text(run, split, layout, weights_tuple(weights), strategy, share).rankings)
        rows.append(row)
        return row

    note = Split("note", None)
    evaluate(note, TEXT_LAYOUTS[0], BASELINE_WEIGHTS, "all-first", 0.0)  # today
    for strategy in ("all-first", "any"):
        evaluate(note, TEXT_LAYOUTS[0], START_WEIGHTS, strategy, 0.0)
        for split in splits:
            for layout in TEXT_LAYOUTS[1:]:
                evaluate(split, layout, START_WEIGHTS, strategy, 0.0)
        proto.progress(f"text: layouts with strategy {strategy} done")
    best = max(rows, key=lambda row: row["objective"])
    split = _split(best["split"]) if best["split"] != "note" else note
    layout = next(layout for layout in TEXT_LAYOUTS if layout.name == best["layout"])
    weights = dict(best["weights"])
    for _round in range(2):  # one column at a time, twice
        for column, values in SWEEP.items():
            tried = [evaluate(split, layout, {**weights, column: value}, best["strategy"], 0.0) for value in values]
            weights = max(tried, key=lambda row: row["objective"])["weights"]
        proto.progress(f"text: weight sweep round {_round + 1}: {_weights_name(weights)}")
    for share in (0.1, 0.25, 0.5):
        if layout.per_passage:
            evaluate(split, layout, weights, best["strategy"], share)
    other = "any" if best["strategy"] == "all-first" else "all-first"
    evaluate(split, layout, weights, other, 0.0)
    best = max(rows, key=lambda row: row["objective"])
    return rows, best


def _weights_name(weights: dict[str, float]) -> str:
    return ",".join(f"{column}={weights[column]:g}" for column in COLUMNS if weights.get(column))


def stage_fusion(proto: Prototype, sides: dict[str, Callable[[SetRun], tuple[SideResult, SideResult]]]) -> list[dict[str, Any]]:
    rows = []
    for label, pair_of in sides.items():
        pairs = {run.name: pair_of(run) for run in proto.runs}
        single = {run.name: {"vectors": run.metrics(pairs[run.name][0].rankings), "text": run.metrics(pairs[run.name][1].rankings)}
                  for run in proto.runs}
        for spec in FUSIONS:
            row = proto.table(f"{label} {spec.name}", {"sides": label, "fusion": spec.name},
                              lambda run: _fused(spec, *pairs[run.name]))
            row["below_better_side"] = _below(row["sets"], single)
            rows.append(row)
        rows.append({"variant": f"{label} single sides", "sides": label, "single": single})
        proto.progress(f"fusion: {label} done")
    return rows


def _fused(spec: FusionSpec, vectors: SideResult, text: SideResult) -> list[list[int]]:
    return [fuse(spec, v, t, vs, ts) for v, t, vs, ts in zip(vectors.rankings, text.rankings, vectors.scores, text.scores)]


def _below(fused: dict[str, dict[str, float]], single: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    """Where the fusion is below the better single side: "set metric" strings."""
    misses = []
    for name, metrics in fused.items():
        for metric in ("hit@1", "hit@3", "mrr", "recall@10"):
            better = max(single[name]["vectors"][metric], single[name]["text"][metric])
            if metrics[metric] < better:
                misses.append(f"{name} {metric} {metrics[metric]:.3f}<{better:.3f}")
    return misses


# ------------------------------------------------------------------ running


def run(set_names: Sequence[str], workdir: Path, progress: Progress) -> dict[str, Any]:
    from vaultmem.embedders import WordLlamaEmbedder

    started = time.perf_counter()
    cache = EmbeddingCache(WordLlamaEmbedder())
    runs = []
    for name in set_names:
        runs.append(prepare_run(name, workdir, cache))
        progress(f"{name}: {len(runs[-1].docs)} notes, {len(runs[-1].questions)} questions")
    proto = Prototype(runs, cache, progress)
    result: dict[str, Any] = {"sets": {r.name: {"notes": len(r.docs), "questions": len(r.questions)} for r in runs}}
    result["passages_per_note"] = {r.name: {s.name: round(len(r.passages_for(s)) / len(r.docs), 2) for s in SPLITS} for r in runs}

    vector_rows, best_vector = stage_vectors(proto)
    result["vectors"] = {"rows": vector_rows, "best": best_vector}
    text_splits = [_split(best_vector["split"])] if best_vector["split"] != "note" else [_split("1000")]
    text_rows, best_text = stage_text(proto, text_splits)
    result["text"] = {"rows": text_rows, "best": best_text}
    result["fusion"] = stage_fusion(proto, {"today": lambda r: today_sides(proto, r),
                                            "chosen": lambda r: chosen_sides(proto, r, best_vector, best_text)})
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["embedding_seconds"] = round(cache.seconds, 1)
    return result


def today_sides(proto: Prototype, run: SetRun) -> tuple[SideResult, SideResult]:
    note = Split("note", None)
    return (proto.vector(run, note, "context", 0.0, 0),
            proto.text(run, note, TEXT_LAYOUTS[0], weights_tuple(BASELINE_WEIGHTS), "all-first", 0.0))


def chosen_sides(proto: Prototype, run: SetRun, vector: dict[str, Any], text: dict[str, Any]) -> tuple[SideResult, SideResult]:
    layout = next(layout for layout in TEXT_LAYOUTS if layout.name == text["layout"])
    text_split = _split(text["split"]) if text["split"] != "note" else Split("note", None)
    return (proto.vector(run, _split(vector["split"]), vector["embed"], vector["share"], vector["following"], vector.get("note_vector", False)),
            proto.text(run, text_split, layout, weights_tuple(text["weights"]), text["strategy"], text["share"]))


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(prog="python -m benchmarks.proto_passages", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--sets", default=",".join(SETS), help="comma-separated sets (default: all)")
    command.add_argument("--workdir", type=Path, help="build the sets' vaults here (default: a temp folder)")
    arguments = command.parse_args(argv)
    names = [name.strip() for name in arguments.sets.split(",") if name.strip()]
    unknown = [name for name in names if name not in SETS]
    if unknown or not names:
        command.error(f"--sets: unknown set {', '.join(unknown) or '(none)'}; choose from {', '.join(SETS)}")
    with tempfile.TemporaryDirectory(prefix="proto-passages-") as temporary:
        result = run(names, arguments.workdir or Path(temporary), lambda message: print(message, file=sys.stderr, flush=True))
    print(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
