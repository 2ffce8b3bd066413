"""Late interaction (MaxSim) over a static token table: the part of a note's fused score that
comes from its best passages' words, token by token (adr/0004 "Late interaction").

An embedder whose tokens have fixed vectors (WordLlama: its embedding table) gives each passage
its tokens' ids, stored with the passage (storage/passages.py, ``passage_tokens``). A query's
tokens are scored once against the distinct ids of its candidates' passages (q × U, U the
union), then each passage's MaxSim is one gather and one max per query token: the mean over the
query's tokens of each one's best cosine among the passage's. A note's is its best passages'
(each side's best, when the side proposed the note), and what the keyword side's pick may add
is capped (:func:`lifts`).

Only a word's first token is kept, on both sides, with digits (:func:`TokenTable.words`): a
piece inside a longer word is not that word ("nurseries" is "▁nur" + "series", and "series"
scored .85 against the query's "▁series", lifting a story over the show asked for —
benchmarks/PASSAGES.md §28). Pure functions over arrays: no SQL, no files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# The first fused notes whose MaxSim is blended, and its weight (fused + LATE_WEIGHT × the
# MaxSim's z-score among them): measured on the five sets (PASSAGES.md §28; 0.2–0.5 all pass
# the adoption rule, 0.4 lifts the conversations most).
LATE_DEPTH = 50
LATE_WEIGHT = 0.4
# The most z a note's keyword-side pick may give it beyond its vector-side pick's (PASSAGES.md
# §29, adr/0004): that pick is the passage among all the note's that holds the query's words
# (the text side counted them already), and the best of 2,000 such passages of a pasted book got
# them back at cosine ~1, lifting it past notes that answer. 0.75: the five sets pass the
# adoption rule from 0.5 to 0.75, the pasted-book guard up to 0.85.
LATE_TEXT_CAP = 0.75


@dataclass(frozen=True)
class TokenTable:
    """A static table of token vectors: each row's norm, and which ids are kept (a word's first token, a digit)."""

    vectors: np.ndarray  # tokens × dimension, as the embedder holds them (not normalised: no 32 MB copy)
    norms: np.ndarray  # each row's norm (1 where 0: a zero row scores 0)
    kept: np.ndarray  # bool per id

    @classmethod
    def of(cls, vectors: np.ndarray, pieces: Sequence[str]) -> TokenTable:
        norms = np.linalg.norm(vectors, axis=1).astype(np.float32)
        norms[norms == 0] = 1.0
        kept = np.asarray([(piece.startswith("▁") and len(piece) > 1) or piece.isdigit() for piece in pieces], dtype=bool)
        return cls(vectors, norms, kept)

    def words(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The ids MaxSim compares, as stored (uint16: WordLlama has 32,000 tokens)."""
        found = np.asarray(ids, dtype=np.int64)
        found = found[(found >= 0) & (found < len(self.kept))]
        kept: np.ndarray = found[self.kept[found]].astype(np.uint16)
        return kept


def ids_to_blob(ids: np.ndarray) -> bytes:
    return np.asarray(ids, dtype="<u2").tobytes()


def blob_to_ids(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype="<u2")


def maxsims(table: TokenTable, query: np.ndarray, passages: Sequence[np.ndarray]) -> np.ndarray:
    """Each passage's MaxSim against the query's token ids (0 for an empty query or passage)."""
    lengths = np.asarray([len(ids) for ids in passages], dtype=np.int64)
    every = np.concatenate([np.asarray(ids, dtype=np.uint16) for ids in passages]) if passages else np.zeros(0, dtype=np.uint16)
    return maxsims_joined(table, query, every, lengths)


def maxsims_joined(table: TokenTable, query: np.ndarray, every: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """:func:`maxsims` over the passages' ids laid end to end (``lengths[i]`` of them the
    i-th's): what search reads, one buffer for all its passages (a list of ≤ 100 small arrays
    cost more in Python than the product)."""
    result = np.zeros(len(lengths), dtype=np.float32)
    if not len(query) or not len(every):
        return result
    every = every.astype(np.int64)
    # The distinct ids and each token's place among them, by a mark over the table (a sort, as
    # np.unique does, cost more than the product).
    held_ids = np.zeros(len(table.kept), dtype=bool)
    held_ids[every] = True
    union = np.flatnonzero(held_ids)
    positions = (np.cumsum(held_ids) - 1)[every]
    query_ids = np.asarray(query, dtype=np.int64)
    query_unit = table.vectors[query_ids] / table.norms[query_ids][:, None]
    # q × U by einsum, not `@`: OpenBLAS splits even this small product over threads, and on a
    # busy machine (2 cores, other work) that took 26 ms at the median against einsum's 0.9 ms.
    similarity = np.einsum("qd,ud->qu", query_unit, table.vectors[union]) / table.norms[union]
    held = lengths > 0
    starts = np.concatenate([[0], np.cumsum(lengths[held])[:-1]])
    best = np.maximum.reduceat(similarity[:, positions], starts, axis=1)  # q × passages held
    result[held] = best.mean(axis=0)
    return result


def lifts(scores: Mapping[int, tuple[float | None, float | None]], weight: float = LATE_WEIGHT,
          text_cap: float = LATE_TEXT_CAP) -> dict[int, float]:
    """What each note's MaxSim adds to its fused value, from its (vector-side pick, text-side
    pick) MaxSims (None: that side did not propose it, or the passage has no ids; a note with
    neither is left out): ``weight`` × the z-score of the better of the two among the notes'.
    Where the text side's pick is the better, the lift is at most ``weight`` × ``text_cap`` or
    what the vector side's pick alone would give, whichever is more. 0 for all when the scores
    do not differ (one candidate)."""
    held = {label: pair for label, pair in scores.items() if pair[0] is not None or pair[1] is not None}
    if not held:
        return {}
    # Plain floats, not an array: ≤ 50 notes, and numpy's per-element cost was most of this step's.
    values = [max(value for value in pair if value is not None) for pair in held.values()]
    mean = sum(values) / len(values)
    spread = (sum((value - mean) ** 2 for value in values) / len(values)) ** 0.5
    if spread < 1e-12:  # equal MaxSims (a sum's rounding can leave ~1e-17 where numpy's std gave 0)
        return dict.fromkeys(held, 0.0)
    found: dict[int, float] = {}
    for (label, (vector, text)), value in zip(held.items(), values, strict=True):
        lift = weight * (value - mean) / spread
        if text is not None and (vector is None or text > vector):
            by_vector = weight * (vector - mean) / spread if vector is not None else -math.inf
            lift = min(lift, max(by_vector, weight * text_cap))
        found[label] = lift
    return found
