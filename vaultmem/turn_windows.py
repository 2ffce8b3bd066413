"""A conversation turn's windows: vectors of the turns around it, made in memory from theirs (pure).

A reply that answers a question often shares neither a word nor much meaning with it: "Mostly
visit the museums and take a cooking class" answers "what will Ben do on his trip to Mexico?",
and the city is named two turns before. Embedded with its neighbours a turn's vector becomes
theirs (benchmarks/PASSAGES.md §7), so a turn keeps its own vector and is also scored by two
**windows**: ``b2``, the two turns before it and the turn; ``a1``, the turn and the one after
it — within its chain only (turns.chain_keys: no window across a conversation or session). A
window's score counts :data:`WINDOW_WEIGHT` of its cosine, and a turn's vector-side score counts
its windows as passages of it: the best of its own score and its two windows', plus
:data:`ranking.NEXT_SHARE` of each of the other two (:func:`ranking.with_windows`, "share3";
§39 measured these against other spans, weights and counts, §42 share3 against one window counted).
A turn's windows are scaled by its own text's length, ``b / (b + SHORT_TURN)``: a short generic
reply ("Oh no, what happened?") would otherwise ride its neighbours' meaning past the turn that
answers (§47, variant H).

No window is stored: WordLlama's vector of a text is its token vectors' sum, normalised, and a
stored passage row is that unit vector times the length factor ``f = n / sqrt(n² + β²)`` of the
sum's norm ``n`` (embedders.length_factors) — so ``n = β f / sqrt(1 − f²)`` and the sum is the row
times ``β / sqrt(1 − f²)``. A window is the sum of its turns' sums (each turn's passages'), made
a row as a passage is. A turn's head (its title and properties, which a passage embeds before its
text) is in each of its rows: a window takes its neighbours' heads off, so it holds the turn's
head once, as a window embedded from the texts would (PASSAGES.md §41). The head's sum is
embedded by the indexer with the turn's passages and stored (storage turn_heads; a turn without
one stored is embedded here, :class:`HeadSums`). :class:`WindowBook` keeps the windows from one
state of the index to the next: the turns written since (the store's feed of turns) have their
windows and their neighbours' made again, nothing else — a turn's windows hold its chain's
neighbours only (stop 41: 1-2 s a search after each write at 30,000 turns, for all the windows).
See adr/0004, "A turn's windows".
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, insort
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .embedders import length_factors
from .passages import embed_head
from .turns import chain_keys

if TYPE_CHECKING:
    from .embedders import Embedder

WINDOW_SPANS = ((2, 0), (0, 1))  # (turns before, turns after): b2 and a1 (PASSAGES.md §39)
WINDOW_WEIGHT = 0.8  # a window's cosine counts this much: a turn's own vector stays ahead of its neighbours' windows
# A turn's windows are scaled by b / (b + SHORT_TURN), b the norm of its own text's token sum (its
# passages' less its head's; WordLlama: "Nice!" 9.5, "Oh no, what happened?" 18, twenty words 70:
# they keep 0.39, 0.55 and 0.82 of their windows). A short generic reply has little meaning of
# its own, and its windows are its neighbours' meaning (PASSAGES.md §47, variant H; adr/0004;
# 9 and 18 measured too: 9 lets "Oh no, what happened?" past the car turn, 18 loses the
# Mexico reply's second place, tests/test_turn_windows.py).
SHORT_TURN = 15.0
# More turns written since the last state searched than this (or an eighth of the turns): every
# window is made anew in one pass (numpy) rather than around each turn (a copied conversation, a
# first index, a branch switch).
WHOLE_WINDOWS_AT = 256
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

    def both(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(the notes that have a window, ascending; each one's best window score; its other
        window's, ``-inf`` for a note of one window) — a turn has at most two (:data:`WINDOW_SPANS`)."""
        if not len(self.notes):
            empty = np.zeros(0, dtype=np.float64)
            return self.notes, empty, empty
        scores = (self.rows @ np.asarray(query, dtype=np.float32)).astype(np.float64)
        starts = np.flatnonzero(np.r_[True, self.notes[1:] != self.notes[:-1]])
        best = np.maximum.reduceat(scores, starts)
        two = np.diff(np.r_[starts, len(scores)]) == 2  # a note's rows lie side by side: its two windows
        other = np.full(len(starts), -np.inf)
        other[two] = np.minimum(scores[starts[two]], scores[starts[two] + 1])
        return self.notes[starts], best, other


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
    given = own - head  # what a turn gives its neighbours' windows (the same subtraction, once a turn)
    # A short turn's windows discounted by its own text's length (SHORT_TURN); with no head sums
    # the text cannot be told from its head: no discount.
    if heads is not None:
        body = np.linalg.norm(given, axis=1)
        discount = body / (body + SHORT_TURN)
    else:
        discount = np.ones(len(labels), dtype=np.float64)
    owners_parts: list[np.ndarray] = []
    totals_parts: list[np.ndarray] = []
    discount_parts: list[np.ndarray] = []
    for before, after in WINDOW_SPANS:
        total, members = own.copy(), np.ones(len(labels), dtype=np.int64)
        for offset in (*range(-before, 0), *range(1, after + 1)):
            # Turn i's neighbour at ``offset``, when there is one in its chain: all turns are
            # laid end to end, chain after chain, so a neighbour must be of the same chain.
            neighbour = np.arange(len(labels)) + offset
            held = (neighbour >= 0) & (neighbour < len(labels))
            held[held] = chain_of[neighbour[held]] == chain_of[held]
            total[held] += given[neighbour[held]]
            members += held
        owners_parts.append(labels[members > 1])
        totals_parts.append(total[members > 1])
        discount_parts.append(discount[members > 1])
    owners = np.concatenate(owners_parts) if owners_parts else np.zeros(0, dtype=np.int64)
    if not len(owners):
        return TurnWindows(np.zeros(0, dtype=np.int64), np.zeros((0, dimension), dtype=np.float32))
    matrix = np.vstack(totals_parts)
    norms = np.linalg.norm(matrix, axis=1)
    weights = length_factors(matrix, prior) * np.concatenate(discount_parts) * WINDOW_WEIGHT
    scaled = matrix / np.where(norms > 0, norms, 1.0)[:, None] * weights[:, None]
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


def head_hash(text: str) -> str:
    """What the store keeps of a head's text beside its sum (a turn written again with the same
    head is not embedded again)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def windows_possible(embedder: Embedder) -> bool:
    """Does this embedder have windows (a sum of token vectors, rows that say their length)?"""
    return embedder.additive and embedder.length_prior is not None


@dataclass(frozen=True)
class Turn:
    """One turn as its windows need it: its place (turns.order_key), its passages' token sum
    (None: no vector, it is in no window) and its head's."""

    label: int
    key: bytes
    own: np.ndarray | None
    head: np.ndarray


class WindowBook:
    """Every turn's windows, kept between states of the index (:meth:`best` as
    :meth:`TurnWindows.best`). :meth:`update` makes again only the windows of the turns written
    and of the turns whose windows held them, where they were and where they are: a turn's b2
    holds the two turns before it, its a1 the one after it. Each turn has a slot of two rows, so
    a change writes its rows in place (no copy of the whole matrix at 30,000 turns)."""

    def __init__(self, prior: float, dimension: int) -> None:
        self.prior, self.dimension = prior, dimension
        self._reset()

    def _reset(self) -> None:
        dimension = self.dimension
        self._chains: dict[bytes, list[tuple[bytes, int]]] = {}  # chain → its turns with a vector: (key, label), in order
        self._place: dict[int, tuple[bytes, bytes]] = {}  # label → (chain, key)
        self._own: dict[int, np.ndarray] = {}
        self._head: dict[int, np.ndarray] = {}
        self._slot: dict[int, int] = {}
        self._free: list[int] = []
        self._labels = np.zeros(0, dtype=np.int64)
        self._rows = np.zeros((0, 2, dimension), dtype=np.float32)
        self._held = np.zeros((0, 2), dtype=bool)
        self._order: np.ndarray | None = None  # the slots in use, by label
        self._shown: np.ndarray | None = None  # of those, the slots of turns with a window (kept until a change)

    def __len__(self) -> int:
        return len(self._place)

    @property
    def notes(self) -> np.ndarray:
        """The turns that have a window, ascending."""
        found: np.ndarray = self._labels[self._ascending()]
        return found

    def load(self, turns: Sequence[Turn]) -> None:
        """Every turn's windows made anew (the book's first state, or after a rebuild)."""
        self._reset()
        for turn in turns:
            self._add(turn)
        self._grow(len(self._place))  # every slot at once: no copy of the rows as they fill
        self._make([label for chain in self._chains.values() for _, label in chain])

    def update(self, written: Mapping[int, Turn | None]) -> int:
        """Take in the turns written since the last state (None: no turn any more, or no vector);
        how many turns' windows were made again."""
        reached = {near for label in written for near in self._reaching(label)}
        for label in written:
            self._drop(label)
        for turn in written.values():
            if turn is not None:
                self._add(turn)
        reached.update(near for label in written for near in self._reaching(label))
        present = [label for label in reached if label in self._place]
        for label in reached:
            if label not in self._place and label in self._slot:
                self._free_slot(label)
        self._make(present)
        return len(present)

    def best(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the turns that have a window, ascending; each one's best window score for ``query``)."""
        order = self._ascending()
        if not len(order):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        flat = self._rows.reshape(-1, self.dimension)
        scores = (flat @ np.asarray(query, dtype=np.float32)).astype(np.float64).reshape(-1, 2)
        scores[~self._held] = -np.inf
        return self._labels[order], scores.max(axis=1)[order]

    def both(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`TurnWindows.both`: (the turns that have a window, ascending; each one's best
        window score; its other window's, ``-inf`` for a turn of one window)."""
        order = self._ascending()
        if not len(order):
            empty = np.zeros(0, dtype=np.float64)
            return np.zeros(0, dtype=np.int64), empty, empty
        flat = self._rows.reshape(-1, self.dimension)
        scores = (flat @ np.asarray(query, dtype=np.float32)).astype(np.float64).reshape(-1, 2)
        scores[~self._held] = -np.inf
        shown = scores[order]
        return self._labels[order], shown.max(axis=1), shown.min(axis=1)

    # -- the chains

    def _add(self, turn: Turn) -> None:
        if turn.own is None:
            return
        chain = chain_keys(turn.key)[0]
        insort(self._chains.setdefault(chain, []), (turn.key, turn.label))
        self._place[turn.label] = (chain, turn.key)
        self._own[turn.label], self._head[turn.label] = turn.own, turn.head

    def _drop(self, label: int) -> None:
        place = self._place.pop(label, None)
        if place is None:
            return
        chain = self._chains[place[0]]
        del chain[bisect_left(chain, (place[1], label))]
        if not chain:
            del self._chains[place[0]]
        del self._own[label], self._head[label]

    def _reaching(self, label: int) -> list[int]:
        """The turn and those whose windows hold it, in its chain now: the one before it (its
        a1) and the two after it (their b2)."""
        place = self._place.get(label)
        if place is None:
            return [label]
        chain = self._chains[place[0]]
        at = bisect_left(chain, (place[1], label))
        return [chain[near][1] for near in range(max(at - 1, 0), min(at + 3, len(chain)))]

    # -- the windows

    def _make(self, labels: Sequence[int]) -> None:
        """The windows of these turns made again, from the stretches of their chains they span."""
        by_chain: dict[bytes, list[int]] = {}
        for label in labels:
            chain, key = self._place[label]
            by_chain.setdefault(chain, []).append(bisect_left(self._chains[chain], (key, label)))
        stretches: list[list[int]] = []
        for chain, places in by_chain.items():
            turns = self._chains[chain]
            for first, last in _spans(sorted(places), len(turns)):
                stretches.append([label for _, label in turns[first:last]])
        wanted = set(labels)
        self._shown = None
        for label in wanted:
            self._clear(label)
        if not stretches:
            return
        members = [label for stretch in stretches for label in stretch]
        made = window_rows(stretches, {label: self._own[label] for label in members}, self.prior, self.dimension,
                           {label: self._head[label] for label in members})
        filled: dict[int, int] = {}
        for label, row in zip(made.notes.tolist(), made.rows, strict=True):
            if label in wanted:
                column = filled.get(label, 0)
                slot = self._slot_of(label)
                self._rows[slot, column], self._held[slot, column] = row, True
                filled[label] = column + 1

    def _clear(self, label: int) -> None:
        slot = self._slot.get(label)
        if slot is not None:
            self._rows[slot] = 0.0
            self._held[slot] = False

    def _slot_of(self, label: int) -> int:
        slot = self._slot.get(label)
        if slot is not None:
            return slot
        if not self._free:
            self._grow(max(64, len(self._labels)))
        slot = self._free.pop()
        self._slot[label] = slot
        self._labels[slot] = label
        self._order = None
        return slot

    def _free_slot(self, label: int) -> None:
        slot = self._slot.pop(label)
        self._rows[slot] = 0.0
        self._held[slot] = False
        self._labels[slot] = -1
        self._free.append(slot)
        self._order = None

    def _grow(self, more: int) -> None:
        size = len(self._labels)
        self._labels = np.concatenate([self._labels, np.full(more, -1, dtype=np.int64)])
        self._rows = np.concatenate([self._rows, np.zeros((more, 2, self.dimension), dtype=np.float32)])
        self._held = np.concatenate([self._held, np.zeros((more, 2), dtype=bool)])
        self._free.extend(range(size + more - 1, size - 1, -1))

    def _ascending(self) -> np.ndarray:
        if self._order is None:
            used = np.flatnonzero(self._labels >= 0)
            self._order = used[np.argsort(self._labels[used], kind="stable")]
            self._shown = None
        if self._shown is None:
            self._shown = self._order[self._held[self._order].any(axis=1)]
        return self._shown


def _spans(places: Sequence[int], length: int) -> list[tuple[int, int]]:
    """The stretches ``[first, last)`` of a chain of ``length`` turns that hold every window of
    the turns at ``places`` (ascending): two turns before each, one after; overlapping ones joined."""
    spans: list[tuple[int, int]] = []
    for place in places:
        first, last = max(place - 2, 0), min(place + 2, length)
        if spans and first <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], last))
        else:
            spans.append((first, last))
    return spans
