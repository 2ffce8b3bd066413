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
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem.search import query_terms

from .eval_ranking import SETS, _fresh, average, question_metrics
from .logistic import auc as _auc
from .logistic import logistic as _logistic
from .logistic import reliability as _reliability
from .logistic import sigmoid as _sigmoid
from .passages import EMBED_VARIANTS, Doc, Passage, Split, load_docs, split_passages
from .proto_sides import (
    COLUMNS,
    EmbeddingCache,
    TextLayout,
    TextSide,
    VectorSide,
    ranked,
    weights_for,
)

K = 10
DEPTH = 100
FUSE_DEPTH = 50  # candidates per side the prototype fuses (vaultmem fused 50 then, 100 since PASSAGES.md §8)

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
    return weights_for(weights)


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

    def split_key(self, split: Split) -> str:
        """The split's name, or "note" when it leaves every note one passage (nothing to redo)."""
        return "note" if len(self.passages_for(split)) == len(self.docs) else split.name

    def metrics(self, rankings: Sequence[Sequence[int]], by_kind: bool = False) -> dict[str, Any]:
        rows = [question_metrics([self.docs[i].path for i in ranking], answers) for ranking, answers in zip(rankings, self.answers, strict=True)]
        result: dict[str, Any] = average(rows)
        if by_kind:
            result["by_kind"] = {kind: average([row for row, k in zip(rows, self.kinds, strict=True) if k == kind]) for kind in sorted(set(self.kinds))}
        return result


def prepare_run(name: str, workdir: Path, cache: EmbeddingCache, include_templates: bool = False) -> SetRun:
    prepared = SETS[name](_fresh(workdir / name))
    docs = load_docs(prepared.vault, prepared.now, include_templates)
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
        v_of, t_of = dict(zip(vectors, v, strict=True)), dict(zip(text, t, strict=True))
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
        split_key = run.split_key(split)
        key = ("v", run.name, split_key, variant, share if split_key != "note" else 0.0, following, note_vector)
        if key not in self.results:
            side_key = (run.name, split_key, variant, note_vector)
            if side_key not in self.vector_sides:
                self.vector_sides[side_key] = VectorSide.build(run.docs, run.passages_for(split), variant, self.cache, note_vector)
            self.results[key] = vector_result(run, self.vector_sides[side_key], share, following)
        return self.results[key]

    def text(self, run: SetRun, split: Split, layout: TextLayout, weights: Sequence[float], strategy: str, share: float) -> SideResult:
        split_key = run.split_key(split) if layout.per_passage else "note"
        key = ("t", run.name, split_key, layout, tuple(weights), strategy, share)
        if key not in self.results:
            side_key = (run.name, split_key, layout)
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
                                        lambda run, split=split, variant=variant, share=share, following=following:
                                        proto.vector(run, split, variant, share, following).rankings))
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


TODAY_LAYOUT = TextLayout("today", per_passage=False, today=True)
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
    evaluate(note, TODAY_LAYOUT, BASELINE_WEIGHTS, "all-first", 0.0)  # today
    evaluate(note, TODAY_LAYOUT, BASELINE_WEIGHTS, "any", 0.0)
    for strategy in ("all-first", "any"):
        evaluate(note, TEXT_LAYOUTS[0], START_WEIGHTS, strategy, 0.0)
        for split in splits:
            for layout in TEXT_LAYOUTS[1:]:
                evaluate(split, layout, START_WEIGHTS, strategy, 0.0)
        proto.progress(f"text: layouts with strategy {strategy} done")
    best = max(rows, key=lambda row: row["objective"])
    split = _split(best["split"]) if best["split"] != "note" else note
    layout = _layout(best["layout"])
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


def _layout(name: str) -> TextLayout:
    return next(layout for layout in (TODAY_LAYOUT, *TEXT_LAYOUTS) if layout.name == name)


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
                              lambda run, spec=spec, pairs=pairs: _fused(spec, *pairs[run.name]))
            row["below_better_side"] = _below(row["sets"], single)
            rows.append(row)
        rows.append({"variant": f"{label} single sides", "sides": label, "single": single})
        proto.progress(f"fusion: {label} done")
    return rows


def _fused(spec: FusionSpec, vectors: SideResult, text: SideResult) -> list[list[int]]:
    return [fuse(spec, v, t, vs, ts) for v, t, vs, ts in zip(vectors.rankings, text.rankings, vectors.scores, text.scores, strict=True)]


def _below(fused: dict[str, dict[str, float]], single: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    """Where the fusion is below the better single side: "set metric" strings."""
    misses = []
    for name, metrics in fused.items():
        for metric in ("hit@1", "hit@3", "mrr", "recall@10"):
            better = max(single[name]["vectors"][metric], single[name]["text"][metric])
            if metrics[metric] < better:
                misses.append(f"{name} {metric} {metrics[metric]:.3f}<{better:.3f}")
    return misses


# ------------------------------------------------------------------ priors for very short notes

_WORDS = re.compile(r"\w+")


def indexed_words(doc: Doc) -> int:
    """Words a note offers a search: title, properties and body."""
    return len(_WORDS.findall(f"{doc.title} {doc.props_text(False)} {doc.body}"))


def prior_factor(words: np.ndarray, floor: int, power: float) -> np.ndarray:
    """min(1, words / floor) ** power: 1 for notes of ``floor`` words or more."""
    return np.minimum(1.0, np.maximum(words, 1) / floor) ** power


def stage_priors(proto: Prototype, pair_of: Callable[[SetRun], tuple[SideResult, SideResult]], spec: FusionSpec) -> list[dict[str, Any]]:
    rows = []
    words = {run.name: np.asarray([indexed_words(doc) for doc in run.docs]) for run in proto.runs}
    pairs = {run.name: pair_of(run) for run in proto.runs}
    rows.append(proto.table(f"{spec.name} no prior", {"prior": None}, lambda run: _fused(spec, *pairs[run.name])))
    for floor in (5, 10, 20):
        for power in (0.25, 0.5, 1.0):
            factors = {name: prior_factor(count, floor, power) for name, count in words.items()}
            for where in ("fused", "text", "vectors"):
                rows.append(proto.table(f"{spec.name} prior {where} floor={floor} power={power}",
                                        {"prior": {"where": where, "floor": floor, "power": power}},
                                        lambda run, factors=factors, where=where: _with_prior(spec, pairs[run.name], factors[run.name], where, run.eligible)))
    proto.progress("priors done")
    return rows


def _with_prior(spec: FusionSpec, pair: tuple[SideResult, SideResult], factor: np.ndarray, where: str, eligible: np.ndarray) -> list[list[int]]:
    vectors, text = pair
    if where == "fused":
        rankings = []
        for v, t, vs, ts in zip(vectors.rankings, text.rankings, vectors.scores, text.scores, strict=True):
            scores = fused_scores(spec, v, t, vs, ts)
            rankings.append(sorted(scores, key=lambda doc: (-scores[doc] * factor[doc], doc)))
        return rankings
    side = text if where == "text" else vectors
    # Scale the side's scores (cosine or BM25, both ≥ 0 where it matters) and re-rank it.
    scaled = [np.where(np.isfinite(score), np.maximum(score, 0.0) * factor, -np.inf) for score in side.scores]
    changed = SideResult([ranked(score, eligible, DEPTH) for score in scaled], scaled)
    return _fused(spec, *((vectors, changed) if where == "text" else (changed, text)))


# ------------------------------------------------------------------ scores an agent can compare, match kinds


def stage_scores(proto: Prototype, pair_of: Callable[[SetRun], tuple[SideResult, SideResult]], spec: FusionSpec,
                 scale: float) -> dict[str, Any]:
    """Pooled over every question of a set, how well each candidate score of a top-10 hit
    separates answers from the rest (ROC AUC: 1 = one threshold works for every query),
    a logistic calibration of (cosine, BM25/(BM25+scale)) fitted leave-one-set-out, and
    the match kinds."""
    hits: dict[str, list[dict[str, Any]]] = {}
    for run in proto.runs:
        vectors, text = pair_of(run)
        rows = []
        for number, (v, t, vs, ts) in enumerate(zip(vectors.rankings, text.rankings, vectors.scores, text.scores, strict=True)):
            scores = fused_scores(spec, v, t, vs, ts)
            top = sorted(scores, key=lambda doc: (-scores[doc], doc))[:K]
            v_rank, t_rank = {d: r for r, d in enumerate(v, 1)}, {d: r for r, d in enumerate(t, 1)}
            for position, doc in enumerate(top, start=1):
                rows.append({
                    "rank": position,
                    "question": number, "answer": run.docs[doc].path in run.answers[number], "fused": scores[doc],
                    "rrf60": sum(1 / (60 + ranks[doc]) for ranks in (v_rank, t_rank) if doc in ranks),
                    "cosine": absolute_vector(vs[doc]), "text": absolute_text(ts[doc], scale),
                    "v_rank": v_rank.get(doc), "t_rank": t_rank.get(doc),
                })
        hits[run.name] = rows
    result: dict[str, Any] = {"fusion": spec.name, "text_scale": scale, "auc": {}, "calibration": {}, "match": {}}
    result["top1_auc"] = {}
    for name, rows in hits.items():
        labels = np.asarray([row["answer"] for row in rows])
        result["auc"][name] = {score: _auc(np.asarray([row[score] for row in rows]), labels)
                               for score in ("fused", "rrf60", "cosine", "text")}
        # Across questions: does the first hit's score tell a right first hit from a wrong one?
        firsts = [row for row in rows if row["rank"] == 1]
        first_labels = np.asarray([row["answer"] for row in firsts])
        result["top1_auc"][name] = {score: _auc(np.asarray([row[score] for row in firsts]), first_labels)
                                    for score in ("fused", "rrf60", "cosine", "text")}
    for features, extract in SCORE_FEATURES.items():
        result["calibration"][features] = _calibrate(hits, extract)
    for name, rows in hits.items():
        result["match"][name] = _match_kinds(rows)
    proto.progress("scores done")
    return result


def _inverse(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


# What a calibrated score may read of a hit: the fused value it is ranked by, its absolute
# components, its rank on each side (1/rank, 0 when absent), or both.
SCORE_FEATURES: dict[str, Callable[[dict[str, Any]], list[float]]] = {
    "fused": lambda row: [row["fused"]],  # monotone in the order: never an inversion
    "components": lambda row: [row["cosine"], row["text"]],
    "side ranks": lambda row: [_inverse(row["v_rank"]), _inverse(row["t_rank"])],
    "components+side ranks": lambda row: [row["cosine"], row["text"], _inverse(row["v_rank"]), _inverse(row["t_rank"])],
}


def _calibrate(hits: dict[str, list[dict[str, Any]]], extract: Callable[[dict[str, Any]], list[float]]) -> dict[str, Any]:
    """Logistic P(answer | features) fitted on the other sets (leave one set out), scored on
    this one: ROC AUC over all top-10 hits and over first hits, Brier score, reliability,
    and hit@1/MRR when the top 10 are re-ordered by it; then the fit on every set."""
    found: dict[str, Any] = {}
    for name in hits if len(hits) > 1 else ():
        others = [row for other, rows in hits.items() if other != name for row in rows]
        weights = np.asarray([1 / len(rows) for other, rows in hits.items() if other != name for _ in rows])
        coefficients = _logistic(np.asarray([extract(row) for row in others]), np.asarray([row["answer"] for row in others]), weights)
        mine = hits[name]
        probability = _sigmoid(np.asarray([[1.0, *extract(row)] for row in mine]) @ coefficients)
        labels = np.asarray([row["answer"] for row in mine])
        first = np.asarray([row["rank"] == 1 for row in mine])
        found[name] = {
            "auc": _auc(probability, labels), "top1_auc": _auc(probability[first], labels[first]),
            "brier": round(float(np.mean((probability - labels) ** 2)), 4), "bins": _reliability(probability, labels),
            "reordered": _reordered(mine, probability), "inversions": _inversions(mine, probability),
        }
    everything = [row for rows in hits.values() for row in rows]
    weights = np.asarray([1 / len(rows) for rows in hits.values() for _ in rows])
    found["coefficients_all_sets"] = [round(float(c), 3) for c in _logistic(
        np.asarray([extract(row) for row in everything]), np.asarray([row["answer"] for row in everything]), weights)]
    return found


def _inversions(rows: Sequence[dict[str, Any]], probability: np.ndarray) -> float:
    """Share of consecutive hits (in the fused order) whose score rises by more than 0.05."""
    pairs = rising = 0
    for (row, p), (following, q) in zip(zip(rows, probability, strict=True), zip(rows[1:], probability[1:], strict=True), strict=False):
        if following["question"] == row["question"]:
            pairs += 1
            rising += bool(q - p > 0.05)
    return round(rising / pairs, 3) if pairs else 0.0


def _reordered(rows: Sequence[dict[str, Any]], probability: np.ndarray) -> dict[str, float]:
    """hit@1 and MRR when each question's top 10 is sorted by ``probability``."""
    by_question: dict[int, list[tuple[float, bool]]] = {}
    for row, p in zip(rows, probability, strict=True):
        by_question.setdefault(row["question"], []).append((-float(p), row["rank"], row["answer"]))
    hit1, mrr = [], []
    for entries in by_question.values():
        flags = [answer for _, _, answer in sorted(entries)]
        first = next((position for position, answer in enumerate(flags, start=1) if answer), None)
        hit1.append(float(first == 1))
        mrr.append(1 / first if first else 0.0)
    return {"hit@1": round(float(np.mean(hit1)), 3), "mrr": round(float(np.mean(mrr)), 3)}


def _match_kinds(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """kind = the sides that rank the hit in their own top 10 ("both", "keyword" = text,
    "meaning" = vectors; neither: the side that ranks it higher); share of top-10 hits and
    how many of them are answers."""
    kinds: dict[str, list[bool]] = {"both": [], "keyword": [], "meaning": []}
    for row in rows:
        in_v = row["v_rank"] is not None and row["v_rank"] <= K
        in_t = row["t_rank"] is not None and row["t_rank"] <= K
        if in_v and in_t:
            kind = "both"
        elif in_v or in_t:
            kind = "meaning" if in_v else "keyword"
        else:
            kind = "meaning" if (row["v_rank"] or 10**6) <= (row["t_rank"] or 10**6) else "keyword"
        kinds[kind].append(row["answer"])
    return {kind: {"share": round(len(found) / len(rows), 3), "answer_rate": round(sum(found) / len(found), 3) if found else None}
            for kind, found in kinds.items()}


# ------------------------------------------------------------------ whole designs, end to end


@dataclass(frozen=True)
class Design:
    """One complete configuration: what the product would implement."""

    name: str
    split: str  # a SPLITS name, or "note"
    embed: str
    vector_share: float
    layout: str
    weights: tuple[tuple[str, float], ...]
    strategy: str
    text_share: float
    prior: tuple[int, float] | None = None  # (floor words, power) on the text side

    def sides(self, proto: Prototype, run: SetRun) -> tuple[SideResult, SideResult]:
        split = _split(self.split) if self.split != "note" else Split("note", None)
        following = 2 if self.vector_share else 0
        vectors = proto.vector(run, split, self.embed, self.vector_share, following)
        text = proto.text(run, split, _layout(self.layout), weights_tuple(dict(self.weights)), self.strategy, self.text_share)
        if self.prior is not None:
            factor = prior_factor(np.asarray([indexed_words(doc) for doc in run.docs]), *self.prior)
            scaled = [np.where(np.isfinite(score), np.maximum(score, 0.0) * factor, -np.inf) for score in text.scores]
            text = SideResult([ranked(score, run.eligible, DEPTH) for score in scaled], scaled)
        return vectors, text


ALL_FIELDS = tuple(START_WEIGHTS.items())
TODAY = Design("today", "note", "context", 0.0, "today", tuple(BASELINE_WEIGHTS.items()), "all-first", 0.0)
DESIGNS = (
    TODAY,
    Design("fields, no passages", "note", "context+props", 0.0, "note", ALL_FIELDS, "all-first", 0.0),
    *(Design(f"passages {split}", split, "context+props", 0.25, "passage-every+path", ALL_FIELDS, "all-first", 0.25)
      for split in ("500", "1000", "1000+pack", "2000+pack", "4000+pack")),
    Design("passages 1000+pack, props not embedded", "1000+pack", "context", 0.25, "passage-every+path", ALL_FIELDS, "all-first", 0.25),
    Design("passages 1000+pack, OR query", "1000+pack", "context+props", 0.25, "passage-every+path", ALL_FIELDS, "any", 0.25),
    Design("passages 1000+pack, short-note prior", "1000+pack", "context+props", 0.25, "passage-every+path", ALL_FIELDS, "all-first", 0.25, (20, 0.5)),
)
TEXT_SCALE = 12.0  # BM25 / (BM25 + 12): the text component shown next to the cosine (stage 5)
# What PASSAGES.md recommends (chosen from the tables this module prints).
RECOMMENDED = Design("recommended", "1000+pack", "context+props", 0.25, "passage-every+path", ALL_FIELDS, "all-first", 0.25)
RECOMMENDED_FUSION = FusionSpec("zscore:vectors=0.6", "zscore", vectors=0.6, text=0.4)
GRID_DESIGNS = ("passages 1000+pack", "passages 1000+pack, short-note prior")
DESIGN_FUSIONS = ("rrf:k=60", "rrf:k=10", "zscore:vectors=0.5", "zscore:vectors=0.6", "minmax:vectors=0.5", "absmix:vectors=0.7,scale=5.0", "absmix:vectors=0.5,scale=5.0")


def stage_designs(proto: Prototype) -> list[dict[str, Any]]:
    rows = []
    for design in DESIGNS:
        pairs = {run.name: design.sides(proto, run) for run in proto.runs}
        single = {run.name: {"vectors": run.metrics(pairs[run.name][0].rankings), "text": run.metrics(pairs[run.name][1].rankings)}
                  for run in proto.runs}
        passages = {run.name: round(len(run.passages_for(_split(design.split))) / len(run.docs), 2) if design.split != "note" else 1.0
                    for run in proto.runs}
        for name in DESIGN_FUSIONS:
            spec = next(spec for spec in (*FUSIONS, *GRID) if spec.name == name)
            row = {"design": design.name, "fusion": name, "passages_per_note": passages, "single": single,
                   "sets": {run.name: run.metrics(_fused(spec, *pairs[run.name]), by_kind=True) for run in proto.runs}}
            row["objective"] = objective(row["sets"])
            row["below_better_side"] = _below(row["sets"], single)
            rows.append(row)
        proto.progress(f"design {design.name} done")
    return rows


GRID = (
    *(FusionSpec(f"absmix:vectors={w},scale={c}", "absmix", vectors=w, text=round(1 - w, 2), scale=c)
      for w in (0.4, 0.5, 0.6, 0.7, 0.8) for c in (2.0, 3.0, 5.0, 8.0, 12.0)),
    *(FusionSpec(f"rrf:k={k},text={t}", "rrf", k=k, text=t) for k in (5, 10, 20, 60) for t in (0.75, 1.0, 1.5)),
    *(FusionSpec(f"zscore:vectors={w}", "zscore", vectors=w, text=round(1 - w, 2)) for w in (0.4, 0.5, 0.6)),
    *(FusionSpec(f"minmax:vectors={w}", "minmax", vectors=w, text=round(1 - w, 2)) for w in (0.4, 0.5, 0.6)),
)


def stage_fusion_grid(proto: Prototype, design: Design) -> dict[str, Any]:
    """A finer fusion grid on one design, and how a choice made on three sets fares on the
    fourth (leave one set out): the check that the fusion is not tuned to one set."""
    pairs = {run.name: design.sides(proto, run) for run in proto.runs}
    single = {run.name: {"vectors": run.metrics(pairs[run.name][0].rankings), "text": run.metrics(pairs[run.name][1].rankings)}
              for run in proto.runs}
    rows = []
    for spec in GRID:
        per_set = {run.name: run.metrics(_fused(spec, *pairs[run.name])) for run in proto.runs}
        rows.append({"fusion": spec.name, "sets": per_set, "objective": objective(per_set), "below_better_side": _below(per_set, single)})
    held_out = {}
    for run in proto.runs if len(proto.runs) > 1 else ():
        chosen = max(rows, key=lambda row, held=run.name: objective({name: m for name, m in row["sets"].items() if name != held}))
        best_here = max(rows, key=lambda row: (row["sets"][run.name]["mrr"] + row["sets"][run.name]["recall@10"]) / 2)
        held_out[run.name] = {"chosen_on_other_sets": chosen["fusion"], "metrics": chosen["sets"][run.name],
                              "best_possible_here": best_here["fusion"], "best_metrics": best_here["sets"][run.name]}
    proto.progress(f"fusion grid on {design.name} done")
    return {"design": design.name, "single": single, "rows": rows, "leave_one_set_out": held_out}


# ------------------------------------------------------------------ running


def run(set_names: Sequence[str], workdir: Path, progress: Progress, designs_only: bool = False) -> dict[str, Any]:
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

    if not designs_only:
        result.update(search_stages(proto))
    result["designs"] = stage_designs(proto)
    result["fusion_grid"] = [stage_fusion_grid(proto, design) for design in DESIGNS if design.name in GRID_DESIGNS]
    result["recommended"] = stage_recommended(proto)
    result["checks"] = sanity(proto, set_names, workdir)
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["embedding_seconds"] = round(cache.seconds, 1)
    return result


def stage_recommended(proto: Prototype) -> dict[str, Any]:
    """The recommended design and fusion against today, per set and kind, with its scores."""
    def sides(run: SetRun) -> tuple[SideResult, SideResult]:
        return RECOMMENDED.sides(proto, run)
    found: dict[str, Any] = {"design": asdict(RECOMMENDED), "fusion": RECOMMENDED_FUSION.name, "sets": {}}
    for run in proto.runs:
        today_pair, pair = TODAY.sides(proto, run), sides(run)
        found["sets"][run.name] = {
            "today": {"vectors": run.metrics(today_pair[0].rankings, True), "text": run.metrics(today_pair[1].rankings, True),
                      "fused": run.metrics(_fused(FusionSpec("rrf:k=60", "rrf"), *today_pair), True)},
            "recommended": {"vectors": run.metrics(pair[0].rankings, True), "text": run.metrics(pair[1].rankings, True),
                            "fused": run.metrics(_fused(RECOMMENDED_FUSION, *pair), True)},
        }
    single = {name: {side: figures["recommended"][side] for side in ("vectors", "text")} for name, figures in found["sets"].items()}
    found["below_better_side"] = _below({name: figures["recommended"]["fused"] for name, figures in found["sets"].items()}, single)
    found["scores"] = stage_scores(proto, sides, RECOMMENDED_FUSION, TEXT_SCALE)
    return found


def search_stages(proto: Prototype) -> dict[str, Any]:
    """Stages 1–5: each side's variants, then fusions, priors and scores of the chosen sides."""
    found: dict[str, Any] = {}
    vector_rows, best_vector = stage_vectors(proto)
    found["vectors"] = {"rows": vector_rows, "best": best_vector}
    text_splits = [_split(name) for name in dict.fromkeys([best_vector["split"], "1000", "2000+pack"]) if name != "note"]
    text_rows, best_text = stage_text(proto, text_splits)
    found["text"] = {"rows": text_rows, "best": best_text}
    found["fusion"] = stage_fusion(proto, {"today": lambda r: today_sides(proto, r),
                                            "chosen": lambda r: chosen_sides(proto, r, best_vector, best_text)})
    def chosen(r: SetRun) -> tuple[SideResult, SideResult]:
        return chosen_sides(proto, r, best_vector, best_text)
    spec = recommended_fusion(found["fusion"])
    found["recommended_fusion"] = spec.name
    found["priors"] = stage_priors(proto, chosen, spec)
    found["scores"] = stage_scores(proto, chosen, spec, spec.scale or 10.0)
    return found


def sanity(proto: Prototype, set_names: Sequence[str], workdir: Path) -> dict[str, Any]:
    """Today's design rebuilt here, with the templates vaultmem indexes today: its fused
    figures should be the harness's baseline (exact cosine instead of hnswlib aside)."""
    checks: dict[str, Any] = {}
    for name in set_names:
        run = prepare_run(name, workdir, proto.cache, include_templates=True)
        mine = Prototype([run], proto.cache, proto.progress)
        checks[name] = {"notes_with_templates": len(run.docs),
                        "today_rrf60_with_templates": run.metrics(_fused(FusionSpec("rrf:k=60", "rrf"), *today_sides(mine, run)))}
    return checks


def recommended_fusion(rows: Sequence[dict[str, Any]]) -> FusionSpec:
    """The best fusion of the chosen sides that is ≥ the better side on every set and metric
    (else the one with the fewest shortfalls)."""
    chosen = [row for row in rows if row.get("sides") == "chosen" and "objective" in row]
    best = min(chosen, key=lambda row: (len(row["below_better_side"]), -row["objective"]))
    return next(spec for spec in FUSIONS if spec.name == best["fusion"])


def today_sides(proto: Prototype, run: SetRun) -> tuple[SideResult, SideResult]:
    note = Split("note", None)
    return (proto.vector(run, note, "context", 0.0, 0),
            proto.text(run, note, TODAY_LAYOUT, weights_tuple(BASELINE_WEIGHTS), "all-first", 0.0))


def chosen_sides(proto: Prototype, run: SetRun, vector: dict[str, Any], text: dict[str, Any]) -> tuple[SideResult, SideResult]:
    layout = _layout(text["layout"])
    text_split = _split(text["split"]) if text["split"] != "note" else Split("note", None)
    return (proto.vector(run, _split(vector["split"]), vector["embed"], vector["share"], vector["following"], vector.get("note_vector", False)),
            proto.text(run, text_split, layout, weights_tuple(text["weights"]), text["strategy"], text["share"]))


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(prog="python -m benchmarks.proto_passages", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--sets", default=",".join(SETS), help="comma-separated sets (default: all)")
    command.add_argument("--workdir", type=Path, help="build the sets' vaults here (default: a temp folder)")
    command.add_argument("--designs-only", action="store_true", help="only the whole designs (skip the searches of stages 1–5)")
    arguments = command.parse_args(argv)
    names = [name.strip() for name in arguments.sets.split(",") if name.strip()]
    unknown = [name for name in names if name not in SETS]
    if unknown or not names:
        command.error(f"--sets: unknown set {', '.join(unknown) or '(none)'}; choose from {', '.join(SETS)}")
    with tempfile.TemporaryDirectory(prefix="proto-passages-") as temporary:
        result = run(names, arguments.workdir or Path(temporary), lambda message: print(message, file=sys.stderr, flush=True),
                     arguments.designs_only)
    print(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
