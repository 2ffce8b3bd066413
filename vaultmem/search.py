"""Read-time hybrid search: vectors (hnswlib + exact delta) and BM25 (FTS5), fused by RRF.

Expiry is decided here, at read time, with the same rule as ``is_expired`` applied to
the epoch-microsecond column. Filters never shrink the answer below
``min(k, eligible)``: the vector side widens its candidate pool, then falls back to an
exact scan of the eligible notes when filters leave few of them.
See adr/0004-hybrid-ranking.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import NoteReadError
from .notes import read_note
from .paths import VaultPaths
from .storage import Eligibility, NoteRow, Store

if TYPE_CHECKING:
    from .embedders import Embedder
    from .vectors import VectorIndex

RRF_K = 60
CANDIDATES_MIN = 50  # per side, before fusion
WIDEN_FACTOR = 4
SNIPPET_CHARS = 240
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass
class Hit:
    id: str
    path: str
    title: str
    score: float
    layer: str | None
    expires_at: str | None
    snippet: str
    tags: list[str]
    warnings: list[str] = field(default_factory=list)
    expired: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def fts_query(text: str) -> str | None:
    """User text → an FTS5 query where every word is a quoted term, OR-ed.

    Quoting makes ``AND``, ``NEAR(``, ``c++``, a stray ``"`` or ``foo-bar`` plain words;
    a hyphenated or dotted token stays one phrase, so ``zxqv-4471`` matches exactly.
    """
    terms: list[str] = []
    for chunk in text.split():
        words = _WORD.findall(chunk)
        if not words:
            continue
        phrase = '"' + " ".join(words) + '"'
        if phrase not in terms:
            terms.append(phrase)
    return " OR ".join(terms) if terms else None


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal rank fusion: Σ 1 / (k + rank) over the rankings a label appears in."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, label in enumerate(ranking, start=1):
            scores[label] = scores.get(label, 0.0) + 1.0 / (k + rank)
    return scores


class Searcher:
    """Answers queries for one vault from one thread (owns a VectorIndex cache)."""

    def __init__(self, paths: VaultPaths, store: Store, vectors: VectorIndex, embedder: Embedder) -> None:
        self.paths = paths
        self.store = store
        self.vectors = vectors
        self.embedder = embedder

    def search(self, query: str, k: int, eligibility: Eligibility) -> list[Hit]:
        if k <= 0 or not query.strip():
            return []
        pool = max(CANDIDATES_MIN, k)
        vector_ranking = self._vector_side(query, pool, k, eligibility)
        text_ranking = self._text_side(query, pool, eligibility)
        fused = rrf([vector_ranking, text_ranking])
        rows = self.store.notes_by_labels(list(fused))
        ordered = sorted(fused, key=lambda label: (-fused[label], rows[label].path))[:k]
        return [self._hit(rows[label], fused[label], query, eligibility) for label in ordered]

    def _text_side(self, query: str, pool: int, eligibility: Eligibility) -> list[int]:
        match = fts_query(query)
        if match is None:
            return []
        return [label for label, _ in self.store.fts_search(match, eligibility, pool)]

    def _vector_side(self, query: str, pool: int, k: int, eligibility: Eligibility) -> list[int]:
        vector = self.embedder.embed([query])[0]
        wanted = pool
        while True:
            candidates = self.vectors.search(vector, wanted)
            eligible = self.store.eligible_labels([label for label, _ in candidates], eligibility)
            ranking = [label for label, _ in candidates if label in eligible]
            if len(ranking) >= min(pool, k) or len(candidates) < wanted:
                break
            if wanted >= 4 * pool * WIDEN_FACTOR:
                # Filters leave few notes eligible: scanning them exactly is cheaper and
                # complete, where more widening of the ANN query would be neither.
                exact = self.vectors.exact(vector, self.store.all_eligible_labels(eligibility))
                return [label for label, _ in exact[:pool]]
            wanted *= WIDEN_FACTOR
        return ranking[:pool]

    def _hit(self, row: NoteRow, score: float, query: str, eligibility: Eligibility) -> Hit:
        warnings = [f"{problem['field']}: {problem['message']}" for problem in row.problems]
        if row.expiry_invalid:
            warnings.insert(0, f"expires_at {row.expires_at!r} does not parse, so this note never expires until it is fixed (see `vaultmem check`)")
        expired = row.expires_us is not None and eligibility.now_us is not None and row.expires_us <= eligibility.now_us
        expired = expired or (eligibility.now_us is None and row.expires_us is not None and row.expires_us <= _now_us())
        if expired:
            warnings.insert(0, f"expired at {row.expires_at}")
        return Hit(
            id=row.id, path=row.path, title=row.title, score=round(score, 6), layer=row.layer,
            expires_at=row.expires_at, snippet=self._snippet(row, query, warnings), tags=row.tags,
            warnings=_unique(warnings), expired=expired,
        )

    def _snippet(self, row: NoteRow, query: str, warnings: list[str]) -> str:
        """An excerpt around the first query word, from the note's current body on disk."""
        try:
            body = read_note(self.paths.root, row.path).body
        except NoteReadError as error:
            warnings.append(f"file: {error} (run `vaultmem index`)")
            return ""
        return make_snippet(body, query)


def make_snippet(body: str, query: str, width: int = SNIPPET_CHARS) -> str:
    text = " ".join(body.split())
    if len(text) <= width:
        return text
    lowered = text.lower()
    positions = [lowered.find(word.lower()) for word in _WORD.findall(query) if len(word) > 2]
    found = [position for position in positions if position >= 0]
    start = max(0, min(found) - width // 3) if found else 0
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    excerpt = text[start : start + width].rstrip()
    return ("…" if start else "") + excerpt + ("…" if start + width < len(text) else "")


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _now_us() -> int:
    from .lifecycle import to_epoch_us, utc_now

    return to_epoch_us(utc_now())
