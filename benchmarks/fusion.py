"""Fusions computed offline from each side's ranked candidates (pure functions).

The harness collects, once per question, the vector side's and the full-text side's
candidates with their raw scores (similarity: cosine × length prior; negated BM25, so higher is better
on both). Any fusion is then a function of those two lists, so trying RRF with another
k, side weights or a score-normalised mix costs no query:

- ``rrf``: Σ weight / (k + rank) over the sides a note is in (rank from 1);
- ``minmax``: each side's scores scaled to [0, 1] over its candidates, a note missing from
  a side gets 0 there, then ``vectors·w_v + text·w_t``;
- ``zscore``: each side's scores standardised over its candidates, a missing note gets
  that side's lowest standardised score, then weighted as above — as vaultmem fuses: a
  side with fewer than ``depth`` candidates listed every note it matches, so there a
  missing note scores 0 and is standardised with the others (vaultmem/ranking.py).

Only the first ``depth`` candidates of each side take part (by default vaultmem's pool, ``search.CANDIDATES_MIN``).
Ties break on the path, as in vaultmem, so every fusion is deterministic.

A fusion is written ``METHOD[:key=value,...]``, e.g. ``rrf:k=10``, ``rrf:k=60,depth=50``,
``rrf:k=60,text=2``, ``minmax:vectors=0.3,text=0.7``, ``zscore``.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from vaultmem.search import CANDIDATES_MIN

Candidates = Sequence[tuple[str, float]]  # (path, raw score), best first

METHODS = ("rrf", "minmax", "zscore")
DEFAULT_DEPTH = CANDIDATES_MIN  # as vaultmem: each side's top notes that take part

# What `--fusions` tries when given no list: RRF's k, its depth, side weights, the two
# score-normalised mixes at a few weights, and vaultmem's weights over other pools (0.6 / 0.4
# over 50: what it fused until adr/0004's "Weights and pool, revisited").
DEFAULT_FUSIONS = (
    "rrf:k=10", "rrf:k=30", "rrf:k=60", "rrf:k=10,depth=50", "rrf:k=60,depth=50",
    "rrf:k=60,text=2", "rrf:k=60,vectors=2", "rrf:k=10,text=2",
    "minmax:vectors=0.3,text=0.7", "minmax", "minmax:vectors=0.7,text=0.3",
    "zscore:vectors=0.3,text=0.7", "zscore", "zscore:vectors=0.55,text=0.45,depth=75",
    "zscore:vectors=0.6,text=0.4,depth=50",
)


class FusionSpecError(ValueError):
    pass


@dataclass(frozen=True)
class Fusion:
    name: str
    method: str
    k: float = 60.0
    depth: int = DEFAULT_DEPTH
    vectors: float = 1.0
    text: float = 1.0

    def rank(self, vectors: Candidates, text: Candidates, valued: Collection[str] = (), bonus: float = 0.0,
             worded: Collection[str] = ()) -> list[str]:
        """Paths best first, fused from the two sides' candidates; ``bonus`` added to the
        ``valued`` paths' fused value (vaultmem's property bonus: ranking.PROPERTY_BONUS); in the
        z-score mix, the ``worded`` paths (named by some of the question's words) count on the
        text side no more than the note first by meaning (vaultmem.ranking.worded_ceiling)."""
        vectors, text = list(vectors)[: self.depth], list(text)[: self.depth]
        if self.method == "rrf":
            scores = _rrf(vectors, text, self.k, self.vectors, self.text)
        elif self.method == "minmax":
            scores = _mix(_minmax(vectors), _minmax(text), self.vectors, self.text, missing=(0.0, 0.0))
        else:
            scores = _zscore_mix(vectors, text, self.vectors, self.text, self.depth, worded)
        scores = {path: value + (bonus if path in valued else 0.0) for path, value in scores.items()}
        return sorted(scores, key=lambda path: (-scores[path], path))


def parse_fusion(spec: str) -> Fusion:
    """``rrf:k=10,text=2`` → a Fusion; a clear error for anything else."""
    method, _, options = spec.strip().partition(":")
    if method not in METHODS:
        raise FusionSpecError(f"fusion {spec!r}: unknown method {method!r}; use one of {', '.join(METHODS)} (e.g. rrf:k=10)")
    values: dict[str, float] = {}
    for option in filter(None, (part.strip() for part in options.split(","))):
        key, _, raw = option.partition("=")
        if key not in ("k", "depth", "vectors", "text"):
            raise FusionSpecError(f"fusion {spec!r}: unknown option {key!r}; options are k, depth, vectors, text")
        try:
            values[key] = float(raw)
        except ValueError:
            raise FusionSpecError(f"fusion {spec!r}: {key}={raw!r} is not a number") from None
    if values.get("depth", DEFAULT_DEPTH) < 1 or values.get("k", 60.0) < 0:
        raise FusionSpecError(f"fusion {spec!r}: depth must be ≥ 1 and k ≥ 0")
    return Fusion(
        name=spec.strip(), method=method, k=values.get("k", 60.0), depth=int(values.get("depth", DEFAULT_DEPTH)),
        vectors=values.get("vectors", 1.0), text=values.get("text", 1.0),
    )


def _rrf(vectors: Candidates, text: Candidates, k: float, vector_weight: float, text_weight: float) -> dict[str, float]:
    scores: dict[str, float] = {}
    for ranking, weight in ((vectors, vector_weight), (text, text_weight)):
        for rank, (path, _score) in enumerate(ranking, start=1):
            scores[path] = scores.get(path, 0.0) + weight / (k + rank)
    return scores


def _minmax(candidates: Candidates) -> dict[str, float]:
    if not candidates:
        return {}
    values = [score for _, score in candidates]
    low, high = min(values), max(values)
    span = high - low
    return {path: (score - low) / span if span else 1.0 for path, score in candidates}


def _zscore_mix(vectors: Candidates, text: Candidates, vector_weight: float, text_weight: float, depth: int,
                worded: Collection[str] = ()) -> dict[str, float]:
    union = list(dict.fromkeys(path for path, _ in (*vectors, *text)))
    vector_z, text_z = _zscores(_completed(vectors, union, depth)[0]), _zscores(*_completed(text, union, depth))
    missing = (min(vector_z.values(), default=0.0), min(text_z.values(), default=0.0))
    first = vectors[0][0] if vectors else None
    if worded and first is not None and first not in worded and any(path == first for path, _ in text):
        ceiling = text_z.get(first, missing[1])
        text_z = {path: min(z, ceiling) if path in worded else z for path, z in text_z.items()}
    return _mix(vector_z, text_z, vector_weight, text_weight, missing)


def _completed(candidates: Candidates, union: list[str], depth: int) -> tuple[Candidates, int]:
    """A side shorter than ``depth`` matched nothing else: the other candidates score 0 on it,
    and so do the ``depth`` minus those that never competed — counted on the text side only
    (vaultmem.ranking._side_z)."""
    if len(candidates) >= depth:
        return candidates, 0
    known = {path for path, _ in candidates}
    completed = [*candidates, *((path, 0.0) for path in union if path not in known)]
    return completed, max(0, depth - len(completed))


def _zscores(candidates: Candidates, background: int = 0) -> dict[str, float]:
    """Standardised over the candidates and ``background`` more that score 0."""
    if not candidates:
        return {}
    values = [score for _, score in candidates] + [0.0] * background
    mean = statistics.fmean(values)
    spread = statistics.pstdev(values) or 1.0
    return {path: (score - mean) / spread for path, score in candidates}


def _mix(vectors: dict[str, float], text: dict[str, float], vector_weight: float, text_weight: float,
         missing: tuple[float, float]) -> dict[str, float]:
    return {
        path: vector_weight * vectors.get(path, missing[0]) + text_weight * text.get(path, missing[1])
        for path in vectors.keys() | text.keys()
    }
