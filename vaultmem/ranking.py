"""How search turns passage scores into a ranking of notes, and what a hit's score means (pure).

- **A note's score on one side** is its best passage's plus a quarter of its next two
  (each counted only when positive): a note with several good passages edges out a note
  with one, but one passage that answers still wins (:func:`note_scores`).
- **A note of many passages** (:func:`for_many_passages`): on the vector side a note is
  lowered by what a note of its passage count scores by chance (a pasted book's best of
  thousands of passages stands out by chance alone); a fact piece is not counted — it is its
  note's whole passage cut up, not more text (Searcher.chance_lowering, adr/0004).
- **Fusion** (:func:`fuse`): each side's top candidates are standardised over that side's
  candidates (z-scores); a note a side did not propose gets that side's lowest z — or, when
  the side matched fewer notes than it could propose, a score of 0 standardised with the
  rest; when fewer notes than the search's pool competed (a small vault, a narrow filter),
  the text side counts the missing ones as the zeros they would score, so a note holding
  the words asked for reads as an answer whether five notes competed or a hundred;
  fused = 0.55 × vectors + 0.45 × text. Unlike reciprocal ranks, it keeps how far apart the scores
  are, so a section far ahead on one side is not overruled by middling ranks on the other.
- **A note named by some of the question's words** (:func:`worded_ceiling`: `People/Keiko.md`
  for "what was Keiko's reading tip") counts on the text side no more than the note the
  meaning side puts first, when the text side proposes that note too: its name says what the
  question is about, the meaning side which note answers it.
- **The property bonus** (:data:`PROPERTY_BONUS`): a candidate one of whose property values
  the query names (valued.py: ``speaker: Ben`` for "what did Ben say …") gains a small fixed
  amount, before the name bonus.
- **The name bonus** (:func:`name_bonus`): a note whose file name, title or alias *is* the
  query (fields.name_key) is the note asked for by name, whatever the sides make of its
  text (a person's page holding only embeds). Named notes are lifted, when needed, to
  :data:`NAME_MARGIN` above the best candidate that is not named so; all by the same
  amount, so among themselves they keep the sides' order.
- **score** (:func:`probability`): the fused value through a logistic calibration, the
  estimated chance that the hit is what the query is after, lowered by the share of the
  query's words that no note of the vault holds (a question the vault has no words for is
  seldom answered by it); a note named as asked reads at least :data:`NAMED_PRECISION`
  shared among the notes so named (:func:`hit_score`); it never rises down the list.
- **match** (:func:`match_kind`): ``both`` when both sides rank the note among their first
  max(k, 10); else the side that ranks it higher: ``meaning`` (vectors), ``keyword`` (text).

Every constant was chosen by measurement on five evaluation sets (benchmarks/PASSAGES.md,
adr/0004-hybrid-ranking.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import NormalDist

import numpy as np

NEXT_SHARE = 0.25  # weight of a note's next passages after its best
NEXT_PASSAGES = 2
VECTOR_WEIGHT = 0.55
TEXT_WEIGHT = 0.45
MATCH_DEPTH = 10  # a side "matches" a note it ranks among its first max(k, this)
# How far (in fused units: about one standard deviation of a side) a note named as asked
# stands above the best other candidate: clearly first, and its score says so, without
# claiming more than the sides' evidence where it already led by that much.
NAME_MARGIN = 1.0
# What a hit named as asked (name_lift not None) reads at least, shared among the notes so
# named: the fused value measures how far a note stands out by its text, and a note whose
# words are in every note ("where is Phandalin" in a campaign vault) stood out little —
# 0.20, when a note named as asked was the one asked for in every case measured: 3 of 3 of
# the evaluation sets' own questions that named one, 1,162 of 1,162 name queries (file name,
# title, alias; bare, lower-cased, "where/who/what is …", "tell me about …") over the sample,
# kepano and manuals vaults, where its score read under 0.5 for 23 % of them; and no note was
# named by 1,636 questions holding a note's name but asking something else, nor by 240
# foreign questions. Set below the measured 1.0: the name queries' answer is the named note
# by construction, and a person may type a name meaning something else (adr/0004).
NAMED_PRECISION = 0.9
# What a note one of whose property values the query names ("what did Ben say …", ``speaker:
# Ben``: valued.py) gains in fused units, before the name bonus. Measured on the five sets:
# 0.1–0.3 lift 21 questions and lower none; from 0.5 kepano's first hits fall back (a note
# whose one value is asked outranks the note that answers); 0.2 is inside that range, not at
# its edge (benchmarks/PASSAGES.md §21, adr/0004 "A property value the query names").
PROPERTY_BONUS = 0.2


@dataclass(frozen=True)
class SideHit:
    """A note as one side ranks it: its score and the passage that scored best."""

    label: int  # the note's
    score: float
    passage: int  # label of its best passage


@dataclass(frozen=True)
class Fused:
    """A note in the fused ranking, with where each side put it (1-based; None: not proposed)."""

    label: int
    value: float  # 0.55 z_vectors + 0.45 z_text, plus PROPERTY_BONUS when the query names a property value of it, plus name_lift
    vector_rank: int | None
    text_rank: int | None
    name_lift: float | None = None  # None: not named as asked; else what the name bonus added (0.0: it led anyway)


def note_scores(passages: Iterable[tuple[int, int, float]], limit: int | None = None, grouped: bool = False) -> list[SideHit]:
    """(passage, note, score) → one SideHit per note, best first (ties: the note's label); the
    first ``limit`` of them when given. ``grouped``: the passages come in the order this sorts
    them into (by note, best first, ties by label: :func:`counted_passages`), not sorted again.

    best + NEXT_SHARE × (the next NEXT_PASSAGES scores, each only when positive).
    """
    ordered = passages if grouped else sorted(passages, key=lambda item: (item[1], -item[2], item[0]))  # by note, best passage first
    # (negated score, note, passage): a SideHit is made only for the notes kept — a side's 400
    # rows hold up to 400 notes, of which it keeps 100.
    scored: list[tuple[float, int, int]] = []
    note, best, passage, taken, following = None, 0.0, 0, 0, 0.0
    for label, owner, score in ordered:
        if owner != note:
            if note is not None:
                scored.append((-(best + NEXT_SHARE * following), note, passage))
            note, best, passage, taken, following = owner, score, label, 0, 0.0
        elif taken < NEXT_PASSAGES:
            taken += 1
            following += max(0.0, score)
    if note is not None:
        scored.append((-(best + NEXT_SHARE * following), note, passage))
    scored.sort()  # by score, then note: each note once, so its passage never decides
    return [SideHit(note, -negated, passage) for negated, note, passage in scored[:limit]]


def counted_passages(labels: np.ndarray, notes: np.ndarray, scores: np.ndarray) -> list[tuple[int, int, float]]:
    """(passage, note, score) of the rows :func:`note_scores` counts, of parallel arrays: each
    note's best 1 + NEXT_PASSAGES (ties: the lower passage label, as note_scores breaks them),
    so it gives the same scores as over every row. A 5 MB note's 6,000 passages took 4 ms a
    query to sort in Python; numpy sorts them in a fraction of that."""
    order = np.lexsort((labels, -scores, notes))  # by note, best first, ties by label
    grouped = notes[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    place = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    kept = order[place <= NEXT_PASSAGES]
    return list(zip(labels[kept].tolist(), notes[kept].tolist(), scores[kept].tolist(), strict=True))


Windows = tuple[np.ndarray, np.ndarray, np.ndarray]  # (notes ascending, each one's best window score, its other's): turn_windows.TurnWindows.both


def grouped_note_scores(labels: np.ndarray, notes: np.ndarray, scores: np.ndarray, limit: int | None = None,
                        windows: Windows | None = None) -> list[SideHit]:
    """``note_scores(counted_passages(labels, notes, scores), limit, grouped=True)`` of parallel
    arrays, in numpy: the same SideHits, the same floats. The vector side scores ~1,000 passages
    of ~300 notes a search: as Python tuples, then a loop over them, that took ~0.3 ms.

    Each step is the one :func:`note_scores` takes, as an array: a passage's score as a Python
    float (float64, exact of float32), ``max(0.0, score)`` as ``score > 0.0`` (its answer for
    ``-0.0`` and NaN too), ``following`` summed from 0.0 passage by passage, the notes ordered
    by their negated score then label."""
    if not len(labels):
        return []
    note_of, values, passage_of = _grouped_scores(labels, notes, scores)
    return _side_hits(note_of, with_windows(note_of, values, windows), passage_of, limit)


def grouped_scores_for_many_passages(labels: np.ndarray, notes: np.ndarray, scores: np.ndarray,
                                     counts: Callable[[np.ndarray], np.ndarray], spread: float,
                                     limit: int | None = None, windows: Windows | None = None) -> list[SideHit]:
    """``for_many_passages(grouped_note_scores(labels, notes, scores, windows=windows), counts, spread, limit)`` in
    numpy: the same SideHits, the same floats — each note's score less its passage count's
    :func:`chance_lowering` (one float64 subtraction, as the Python one), ordered by that then
    label, SideHits made for the first ``limit`` only. ``counts`` gives the passage count of each
    of an array of notes (0: none known, counted as one passage, as ``counts.get(label, 1)``).
    Made a SideHit each for ~300 notes, then lowered and sorted as tuples, that took ~0.9 ms of a
    search at 10,000 notes."""
    if not len(labels):
        return []
    note_of, values, passage_of = _grouped_scores(labels, notes, scores)
    values = with_windows(note_of, values, windows)
    counted = np.maximum(counts(note_of), 1)  # a turn's windows are no passages of it: not counted
    distinct, where = np.unique(counted, return_inverse=True)
    lowering = np.array([chance_lowering(int(count), spread) for count in distinct.tolist()], dtype=np.float64)
    return _side_hits(note_of, values - lowering[where.reshape(-1)], passage_of, limit)


def with_windows(note_of: np.ndarray, values: np.ndarray, windows: Windows | None) -> np.ndarray:
    """Each note's score with its windows counted as passages of it (turn_windows.py): the best of
    its own score and its (up to two) windows, plus NEXT_SHARE × each of the other two (when
    positive), as a note counts its next passages; a note with no window keeps its own. Its best
    passage stays the one it shows: a window has no text. Its own score is one item here, its
    own next passages already counted in it (a turn is one passage but for a long one)."""
    if windows is None or not len(windows[0]):
        return values
    held_notes, best, other = windows
    rows = np.minimum(np.searchsorted(held_notes, note_of), len(held_notes) - 1)
    held = held_notes[rows] == note_of
    items = np.sort(np.vstack([values, np.where(held, best[rows], -np.inf), np.where(held, other[rows], -np.inf)]), axis=0)
    following = items[:2]  # the two below the best, ascending
    lifted = items[2] + NEXT_SHARE * np.where(following > 0.0, following, 0.0).sum(axis=0)
    combined: np.ndarray = np.where(held, lifted, values)
    return combined


def _grouped_scores(labels: np.ndarray, notes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each note's :func:`note_scores` score and best passage, as arrays: (notes, scores, passages)."""
    values = np.asarray(scores).astype(np.float64)
    order = np.lexsort((labels, -values, notes))  # counted_passages' order: by note, best first, ties by label
    grouped = notes[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    sizes = np.diff(np.r_[starts, len(order)])
    ranked = values[order]
    best = ranked[starts]
    following = np.zeros(len(starts), dtype=np.float64)
    for offset in range(1, NEXT_PASSAGES + 1):
        held = sizes > offset
        later = ranked[starts[held] + offset]
        following[held] = following[held] + np.where(later > 0.0, later, 0.0)
    # note_scores keeps -(best + share × following) and its SideHit the negation of that: the same float.
    return grouped[starts], best + NEXT_SHARE * following, labels[order][starts]


def _side_hits(note_of: np.ndarray, values: np.ndarray, passage_of: np.ndarray, limit: int | None) -> list[SideHit]:
    """SideHits of the first ``limit`` notes by value (highest first), then label."""
    kept = np.lexsort((note_of, -values))[:limit]
    return [SideHit(note, value, passage) for note, value, passage in
            zip(note_of[kept].tolist(), values[kept].tolist(), passage_of[kept].tolist(), strict=True)]


def chance_share(count: int) -> float:
    """What a note of ``count`` passages scores by chance alone, in units of the spread of one
    passage's score: the expected best of ``count`` draws of a standard normal plus
    NEXT_SHARE × its next NEXT_PASSAGES (each only when positive), as :func:`note_scores`
    counts them; 0 for a note of one passage. Order statistics by Blom's approximation,
    ``Φ⁻¹((count − i + 1 − 0.375) / (count + 0.25))`` for the i-th best."""
    return _chance_share(max(1, count))


@lru_cache(maxsize=4096)
def _chance_share(count: int) -> float:
    normal = NormalDist()

    def expected(place: int) -> float:
        return normal.inv_cdf((count - place + 1 - 0.375) / (count + 0.25))

    best = expected(1) if count > 1 else 0.0
    following = sum(max(0.0, expected(place)) for place in range(2, min(count, 1 + NEXT_PASSAGES) + 1))
    return best + NEXT_SHARE * following


def chance_lowering(count: int, spread: float | None) -> float:
    """What the vector side takes off a note of ``count`` passages (:func:`for_many_passages`):
    ``spread`` × :func:`chance_share`; 0 for an embedder with no measured spread (None)."""
    return 0.0 if spread is None else spread * chance_share(count)


def for_many_passages(hits: Sequence[SideHit], counts: Mapping[int, int], spread: float, limit: int | None = None) -> list[SideHit]:
    """``hits`` (the vector side's notes, scored by :func:`note_scores`) each lowered by what
    its number of passages (``counts``) scores by chance — ``spread`` × :func:`chance_share`
    — best first again (ties: the note), the first ``limit``.

    A note's score is the best of its passages: a book or a chat log pasted into one note has
    thousands of them, and the best of thousands of passages stands ~4 spreads above what a
    passage of the question's distance scores, its next two nearly as high. Such a note came
    second or third for questions it has nothing to do with ("how do you win at Catan": a
    4 MB dump of Vim's help, 0.381 against 0.17 for the next unrelated note): what
    ranked it was its length, not its text."""
    # Sorted as plain tuples and made hits only for the first `limit`, each lowering reckoned once
    # a passage count: a dataclasses.replace a note (256 at 100,000 notes) took ~0.45 ms of a search.
    lowering = {count: chance_lowering(count, spread) for count in {counts.get(hit.label, 1) for hit in hits}}
    lowered = sorted(((hit.score - lowering[counts.get(hit.label, 1)], hit.label, hit.passage) for hit in hits),
                     key=lambda scored: (-scored[0], scored[1]))
    return [SideHit(label, score, passage) for score, label, passage in lowered[:limit]]


def zscores(hits: Sequence[SideHit], background: int = 0) -> dict[int, float]:
    """Each note's score standardised over the side's candidates and ``background`` more
    that score 0 (a spread of 0 counts as 1)."""
    return _standardised([hit.label for hit in hits], [hit.score for hit in hits], background)


def _standardised(labels: Sequence[int], values: Sequence[float], background: int) -> dict[int, float]:
    """:func:`zscores` of parallel labels and scores."""
    if not values:
        return {}
    count = len(values) + background
    mean = sum(values) / count
    spread = math.sqrt((sum((value - mean) ** 2 for value in values) + background * mean**2) / count) or 1.0
    return {label: (value - mean) / spread for label, value in zip(labels, values, strict=True)}


def fuse(vectors: Sequence[SideHit], text: Sequence[SideHit], pool: int, named: Collection[int] = (),
         standard: int | None = None, valued: Collection[int] = (), worded: Collection[int] = ()) -> list[Fused]:
    """Both sides' candidates in one ranking, unordered (the caller sorts and breaks ties),
    with the property bonus (:data:`PROPERTY_BONUS`) added to the ``valued`` candidates (one
    of whose property values the query names: valued.py), then the name bonus applied to the
    ``named`` notes (:func:`name_bonus`). The ``worded`` candidates (named by some of the
    question's words, not by the whole of it) count on the text side no more than the note
    the meaning side puts first (:func:`worded_ceiling`).

    A side that proposed fewer than ``pool`` notes listed every note it matches: the other
    candidates score 0 there and are standardised with its own (:func:`_side_z`). A named
    note neither side proposed joins as each side's lowest, after the standardisation: it
    changes no other note's value.

    ``standard`` (at most ``pool``): the standardisation is taken over each side's first
    ``standard`` notes only, and a note ranked below them counts as the lowest of them. A
    wider pool (``search -k 1000``) then adds candidates without changing any value the
    standard pool gives: the score of a hit does not depend on how many hits were asked for.
    """
    standard = min(pool, standard or pool)
    vector_rank = {hit.label: rank for rank, hit in enumerate(vectors, start=1)}
    text_rank = {hit.label: rank for rank, hit in enumerate(text, start=1)}
    union = list(dict.fromkeys([*vector_rank, *text_rank]))
    top_union = list(dict.fromkeys(hit.label for hit in [*vectors[:standard], *text[:standard]]))
    vector_z, vector_missing = _side_z(vectors[:standard], top_union, standard, absent_score_zero=False)
    text_z, text_missing = _side_z(text[:standard], top_union, standard, absent_score_zero=True)
    # Only the standard pool's keyword ranks: a first by meaning the keyword side ranks below them
    # counts as not proposed, whatever the pool. Was (s43 review): asked with k = 200, a first by
    # meaning 150th on the keyword side held the named page to the floor; with k = 10 it was not
    # in the list and the page kept its standing — one note's score and place depended on k.
    standard_rank = {label: rank for label, rank in text_rank.items() if rank <= standard}
    text_z = worded_ceiling(text_z, text_missing, vectors[0].label if vectors else None, standard_rank, worded)
    fused = [
        Fused(label, VECTOR_WEIGHT * vector_z.get(label, vector_missing) + TEXT_WEIGHT * text_z.get(label, text_missing)
              + (PROPERTY_BONUS if label in valued else 0.0), vector_rank.get(label), text_rank.get(label))
        for label in [*union, *(label for label in named if label not in vector_rank and label not in text_rank)]
    ]
    return name_bonus(fused, named)


def worded_ceiling(text_z: dict[int, float], missing: float, meaning_first: int | None, text_rank: Mapping[int, int],
                   worded: Collection[int]) -> dict[int, float]:
    """The text side's z-scores with each ``worded`` note (named by a run of the question's
    words: "what was Keiko's reading tip" names `People/Keiko.md`) at most the z of
    ``meaning_first``, the note the meaning side puts first — when that note is another one
    and the text side proposes it too (it holds some of the words asked).

    A page named by a word of the question is about what is asked, not its answer: the name
    in its title (bm25 weight 5) stood it 5 standard deviations above the day that holds the
    fact and the name once in its text, and the meaning side's lead for the day (0.3 of a
    deviation) could not overturn it — 10 of `daily`'s 54 questions (benchmarks/PASSAGES.md
    §51). Lowered to the day's keyword standing, the two are told apart by meaning. A note
    the meaning side puts first itself, or a first by meaning holding none of the words
    (nothing on the keyword side to weigh the name against), leaves every value as it is."""
    if meaning_first is None or meaning_first in worded or meaning_first not in text_rank or not worded:
        return text_z
    ceiling = text_z.get(meaning_first, missing)
    return {label: min(z, ceiling) if label in worded else z for label, z in text_z.items()}


def name_bonus(fused: Sequence[Fused], named: Collection[int]) -> list[Fused]:
    """The ``named`` notes lifted, by one amount, to at least :data:`NAME_MARGIN` above every
    other candidate; each carries what it was lifted by (0.0 when it led by that much already).

    The lift goes into the fused value itself, so the calibrated score stays monotone in the
    order: a named note is never first with a lower score than the note below it.
    """
    values = [item.value for item in fused if item.label in named]
    if not values:
        return list(fused)
    others = [item.value for item in fused if item.label not in named]
    lift = max(0.0, max(others) + NAME_MARGIN - min(values)) if others else 0.0
    return [replace(item, value=item.value + lift, name_lift=lift) if item.label in named else item for item in fused]


def _side_z(hits: Sequence[SideHit], union: Sequence[int], pool: int, absent_score_zero: bool) -> tuple[dict[int, float], float]:
    """One side's z-scores over the candidates, and the z of a candidate it did not propose.

    A full side (``pool`` notes) may have left out notes that match it a little, so a note
    it did not propose counts as its lowest. A side with fewer listed every note it matches:
    the others score 0 there, and are standardised with the rest — without that, a booking
    code only one note holds (one candidate, a spread of 0) would add nothing to that note.
    On the text side (``absent_score_zero``), when even the union is smaller than ``pool``
    (the vault or the filter has no more notes), the notes that never competed count as
    ``pool − len`` more zeros — which is what they would score: they hold no query word. Five
    candidates cannot stand far apart, and the calibration was fitted on full pools, so a
    note holding the words asked for would otherwise read as a weak hit. The vector side
    gets no such zeros: an unrelated note's cosine is not 0, and zeros would lift the nearest
    of a few unrelated notes to a confident score when nothing answers.
    """
    labels, values = [hit.label for hit in hits], [hit.score for hit in hits]
    background = 0
    if len(hits) < pool:  # the others score 0 (as labels and values: a SideHit each cost ~1 µs)
        known = set(labels)
        absent = [label for label in union if label not in known]
        labels += absent
        values += [0.0] * len(absent)
        background = max(0, pool - len(labels)) if absent_score_zero else 0
    z = _standardised(labels, values, background)
    return z, min(z.values(), default=0.0)


def probability(value: float, calibration: tuple[float, float, float], unheld: float = 0.0) -> float:
    """``1 / (1 + exp(a − b × value + c × unheld))``: the calibrated chance that a hit is what
    was asked for, ``unheld`` the share of the query's words no note of the vault holds (in a
    vault of fewer than 39 notes, search weighs it by the notes it has: search.UNHELD_FULL_NOTES).

    ``unheld`` is the query's, the same for every hit: it lowers them all alike, so the score
    still never rises down the list and the order is the fused value's.
    """
    intercept, slope, unheld_slope = calibration
    exponent = intercept - slope * value + unheld_slope * unheld
    if exponent > 700:  # exp would overflow: the chance is 0 to every printed digit
        return 0.0
    return 1.0 / (1.0 + math.exp(exponent))


def hit_score(item: Fused, calibration: tuple[float, float, float], unheld: float, named: int) -> float:
    """A hit's score: :func:`probability` of its fused value, and for a note named as asked
    (``item.name_lift`` not None; ``named`` notes are so named for this query) at least
    ``NAMED_PRECISION / named`` — the chance that the note asked for by name is the one asked
    for, shared when several notes bear that name (160 conversation turns named ``t001``: the
    floor says nothing there, and the fused value decides).

    Still monotone in the order: every named note stands above every other (:func:`name_bonus`),
    and among themselves they share one floor, so the score never rises down the list."""
    score = probability(item.value, calibration, unheld)
    if item.name_lift is None or named < 1:
        return score
    return max(score, NAMED_PRECISION / named)


def match_kind(vector_rank: int | None, text_rank: int | None, k: int) -> str:
    """``both``, ``meaning`` (the vector side ranks it higher) or ``keyword`` (the text side does)."""
    depth = max(k, MATCH_DEPTH)
    in_vectors = vector_rank is not None and vector_rank <= depth
    in_text = text_rank is not None and text_rank <= depth
    if in_vectors and in_text:
        return "both"
    if in_vectors != in_text:
        return "meaning" if in_vectors else "keyword"
    if vector_rank is None and text_rank is None:
        return "keyword"  # neither side proposed it: only its name matched (name_bonus)
    return "meaning" if (vector_rank or math.inf) <= (text_rank or math.inf) else "keyword"
