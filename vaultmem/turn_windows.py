"""A conversation turn's windows: vectors of the turns around it, made in memory from theirs (pure).

A reply that answers a question often shares neither a word nor much meaning with it: "Mostly
visit the museums and take a cooking class" answers "what will Ben do on his trip to Mexico?",
and the city is named two turns before. Embedded with its neighbours a turn's vector becomes
theirs (benchmarks/PASSAGES.md §7), so a turn keeps its own vector and is also scored by two
**windows**: ``b2``, the two turns before it and the turn; ``a1``, the turn and the one after
it — within its chain only (turns.chain_keys: no window across a conversation or session). A
window's score counts :data:`WINDOW_WEIGHT` of its cosine, and a turn's vector-side score is
the better of its own and its best window's plus :data:`ranking.NEXT_SHARE` of the other
(:func:`ranking.with_windows`; §39 measured these against other spans, weights and counts).

No window is stored: WordLlama's vector of a text is its token vectors' sum, normalised, and a
stored passage row is that unit vector times the length factor ``f = n / sqrt(n² + β²)`` of the
sum's norm ``n`` (embedders.length_factors) — so ``n = β f / sqrt(1 − f²)`` and the sum is the row
times ``β / sqrt(1 − f²)``. A window is the sum of its turns' sums (each turn's passages'), made
a row as a passage is. So the windows follow the index: read again whenever its state moves
(Searcher.turn_windows), an edit of a turn changes its neighbours' windows with nothing written.
A turn's head (its title and properties, which a passage embeds before its text) is in each
of its rows: a window takes its neighbours' heads off (:class:`HeadSums`, embedded once a head
text), so it holds the turn's head once, as a window embedded from the texts would. Measured
against windows embedded from the texts in PASSAGES.md §41. See adr/0004, "A turn's windows".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .embedders import length_factors
from .passages import embed_head
from .turns import chain_keys

WINDOW_SPANS = ((2, 0), (0, 1))  # (turns before, turns after): b2 and a1 (PASSAGES.md §39)
WINDOW_WEIGHT = 0.8  # a window's cosine counts this much: a turn's own vector stays ahead of its neighbours' windows
_MOST_FACTOR = 0.9995  # a float16 row of a long text reads f = 1.0: its weight is then that of f = 0.9995


@dataclass(frozen=True)
class TurnWindows:
    """One state of the index's windows: ``rows`` (scaled as stored rows are, times the weight)
    and the note each belongs to, ``notes`` ascending (a turn's windows side by side)."""

    notes: np.ndarray
    rows: np.ndarray

    def best(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the notes that have a window, ascending; each one's best window score for ``query``)."""
        if not len(self.notes):
            return self.notes, np.zeros(0, dtype=np.float64)
        scores = (self.rows @ np.asarray(query, dtype=np.float32)).astype(np.float64)
        starts = np.flatnonzero(np.r_[True, self.notes[1:] != self.notes[:-1]])
        return self.notes[starts], np.maximum.reduceat(scores, starts)


NO_WINDOWS = TurnWindows(np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32))


def chains(turns: Sequence[tuple[int, bytes, str]]) -> list[list[int]]:
    """The turns' labels by chain, each in its order: ``turns`` are (label, turns.order_key, title)
    sorted by key then label (NoteStore.all_turns)."""
    found: dict[bytes, list[int]] = {}
    for label, key, _ in turns:
        found.setdefault(chain_keys(key)[0], []).append(label)
    return list(found.values())


def token_sums(rows: np.ndarray, prior: float | None) -> np.ndarray:
    """Each stored row's token-vector sum (see the module's docstring); with no length prior the
    rows are unit vectors and each counts as one."""
    rows = np.asarray(rows, dtype=np.float64)
    if prior is None:
        return rows
    factors = np.clip(np.linalg.norm(rows, axis=1), 1e-6, _MOST_FACTOR)
    weights: np.ndarray = prior / np.sqrt(1.0 - factors**2)
    summed: np.ndarray = rows * weights[:, None]
    return summed


def window_rows(turn_chains: Sequence[Sequence[int]], sums: dict[int, np.ndarray], prior: float | None,
                dimension: int, heads: Mapping[int, np.ndarray] | None = None) -> TurnWindows:
    """Every turn's windows (:data:`WINDOW_SPANS`) from its chain's turns' token sums (``sums``:
    a turn with no vector holds nothing): a window of fewer than two turns with vectors is none.
    ``heads``: each turn's head's token sum (its title and properties), taken off its neighbours'
    in the turn's window — a window embeds the turn's head once, as a passage does; with every
    neighbour's head counted (a conversation's turn repeats its speaker, conversation, session and
    date in ten lines around a sentence) the windows lost most of §39's gain (PASSAGES.md §41)."""
    ordered = [[label for label in chain if label in sums] for chain in turn_chains]
    labels = np.fromiter((label for chain in ordered for label in chain), dtype=np.int64)
    chain_of = np.repeat(np.arange(len(ordered)), [len(chain) for chain in ordered])
    own = np.array([sums[label] for label in labels.tolist()], dtype=np.float64).reshape(len(labels), dimension)
    head = (np.array([heads[label] for label in labels.tolist()], dtype=np.float64).reshape(len(labels), dimension)
            if heads is not None else np.zeros_like(own))
    owners_parts: list[np.ndarray] = []
    totals_parts: list[np.ndarray] = []
    for before, after in WINDOW_SPANS:
        total, members = own.copy(), np.ones(len(labels), dtype=np.int64)
        for offset in (*range(-before, 0), *range(1, after + 1)):
            # Turn i's neighbour at ``offset``, when there is one in its chain: all turns are
            # laid end to end, chain after chain, so a neighbour must be of the same chain.
            neighbour = np.arange(len(labels)) + offset
            held = (neighbour >= 0) & (neighbour < len(labels))
            held[held] = chain_of[neighbour[held]] == chain_of[held]
            total[held] += own[neighbour[held]] - head[neighbour[held]]
            members += held
        owners_parts.append(labels[members > 1])
        totals_parts.append(total[members > 1])
    owners = np.concatenate(owners_parts) if owners_parts else np.zeros(0, dtype=np.int64)
    if not len(owners):
        return TurnWindows(np.zeros(0, dtype=np.int64), np.zeros((0, dimension), dtype=np.float32))
    matrix = np.vstack(totals_parts)
    norms = np.linalg.norm(matrix, axis=1)
    scaled = matrix / np.where(norms > 0, norms, 1.0)[:, None] * length_factors(matrix, prior)[:, None] * WINDOW_WEIGHT
    order = np.argsort(owners, kind="stable")
    return TurnWindows(owners[order], scaled.astype(np.float32)[order])


def sums_by_note(labels: Sequence[int], owners: dict[int, int], rows: np.ndarray, prior: float | None) -> dict[int, np.ndarray]:
    """Each note's token sum: its passages' (``labels``, the rows' passage labels; ``owners``, each one's note)."""
    found: dict[int, np.ndarray] = {}
    for label, summed in zip(labels, token_sums(rows, prior), strict=True):
        note = owners[label]
        found[note] = found[note] + summed if note in found else summed
    return found


class HeadSums:
    """Each turn's head's token sum, embedded once a head text (by label): made again at every
    state of the index, the windows embed only the heads that changed (2,949 heads: ~1 s)."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[str, np.ndarray]] = {}

    def of(self, heads: Mapping[int, str], embed: Callable[[list[str]], np.ndarray]) -> dict[int, np.ndarray]:
        missing = [label for label, text in heads.items() if label not in self._kept or self._kept[label][0] != text]
        if missing:
            sums = embed([heads[label] for label in missing])
            self._kept.update((label, (heads[label], np.asarray(row, dtype=np.float64))) for label, row in zip(missing, sums, strict=True))
        self._kept = {label: self._kept[label] for label in heads}  # a note no longer a turn is let go
        return {label: kept[1] for label, kept in self._kept.items()}


def head_text(title: str, props_text: str) -> str:
    """A turn's head as its first passage embeds it (passages.embed_head, with no heading), from
    what the index holds: its title and its properties' full-text column."""
    return embed_head(title, (), props_text)
