"""Read-time hybrid search: vectors (hnswlib + exact delta) and BM25 (FTS5), fused by RRF.

Expiry is decided here, at read time, with the same rule as ``is_expired`` applied to
the epoch-microsecond column. Filters never shrink the answer below
``min(k, eligible)``: the vector side widens its candidate pool, then falls back to an
exact scan of the eligible notes when filters leave few of them.
See adr/0004-hybrid-ranking.md.

Before a hit is handed out its file is looked at (one ``lstat``): a file whose size or
mtime is not what its row says was changed since it was indexed, so those files are
indexed again and the query answered again — no hit contradicts the file it names, even
when a change has not reached the index yet (adr/0021).
"""

from __future__ import annotations

import os
import re
import stat as stat_module
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import DerivedIndexError, IndexBusy, NoteReadError
from .lifecycle import is_expired_us
from .notes import read_body, version_of
from .ordered import unique
from .paths import VaultPaths
from .results import SimilarNote
from .storage import Eligibility, NoteRow, Store
from .vectors import SnapshotMoved, blob_to_vector

if TYPE_CHECKING:
    from .embedders import Embedder
    from .vectors import VectorIndex

RRF_K = 60
SNAPSHOT_RETRIES = 5
CANDIDATES_MIN = 50  # per side, before fusion
WIDEN_FACTOR = 4
WIDEN_LIMIT = 4 * WIDEN_FACTOR  # the vector side asks for up to this many times its pool, then goes exact
SNIPPET_CHARS = 240
SIMILAR_MAX = 5  # notes `remember` names as possibly saying the same
SIMILAR_OVERFETCH = 4  # other layers and expired notes take places among the nearest
VERIFY_ROUNDS = 3  # answer again at most this often when hits' files changed under them
REBUILD_WARNING = "the index is being rebuilt (`vaultmem index --rebuild` is running): results may be incomplete until it finishes"
_WORD = re.compile(r"\w+", re.UNICODE)
T = TypeVar("T")


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
    version: str = ""  # of the file as indexed: pass it to `revise --if-version`

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Hits(list[Hit]):
    """A search's hits, best first, and the warnings about the answer as a whole (e.g. an
    index being rebuilt): said even when there is no hit to carry them."""

    def __init__(self, hits: Iterable[Hit] = (), warnings: Iterable[str] = ()) -> None:
        super().__init__(hits)
        self.warnings = list(warnings)

    def warn(self, message: str) -> None:
        """A warning about the whole answer, also put on each hit (JSON consumers read the hits)."""
        self.warnings.append(message)
        for hit in self:
            hit.warnings.append(message)


# Words so common that matching them scores nearly every note: dropping them from the
# full-text side keeps BM25 from ranking the whole vault (measured: rankings unchanged,
# p95 halved at 10k notes). Kept when a query has nothing else.
STOPWORDS = frozenset(
    "a about above after again all am an and any are as at be because been before being below "
    "between both but by can could did do does doing down during each few for from further had "
    "has have having he her here hers herself him himself his how i if in into is it its itself "
    "just me more most my myself no nor not now of off on once only or other our ours ourselves "
    "out over own same she should so some such than that the their theirs them themselves then "
    "there these they this those through to too under until up very was we were what when where "
    "which while who whom why will with would you your yours yourself yourselves".split()
)


def query_terms(text: str) -> list[str]:
    """User text → FTS5 terms, each a quoted phrase; stopwords dropped unless nothing is left.

    Quoting makes ``AND``, ``NEAR(``, ``c++``, a stray ``"`` or ``foo-bar`` plain words;
    a hyphenated or dotted token stays one phrase, so ``zxqv-4471`` matches exactly.
    """
    terms: list[str] = []
    meaningful: list[str] = []
    for chunk in text.split():
        words = _WORD.findall(chunk)
        if not words:
            continue
        phrase = '"' + " ".join(words) + '"'
        if phrase in terms:
            continue
        terms.append(phrase)
        if len(words) > 1 or words[0].lower() not in STOPWORDS:
            meaningful.append(phrase)
    return meaningful or terms


def fts_query(text: str, all_terms: bool = False) -> str | None:
    """The FTS5 MATCH expression: terms joined by ``AND`` (``all_terms``) or ``OR``."""
    terms = query_terms(text)
    return (" AND " if all_terms else " OR ").join(terms) if terms else None


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal rank fusion: Σ 1 / (k + rank) over the rankings a label appears in."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, label in enumerate(ranking, start=1):
            scores[label] = scores.get(label, 0.0) + 1.0 / (k + rank)
    return scores


class Searcher:
    """Answers queries for one vault from one thread (owns a VectorIndex cache)."""

    def __init__(self, paths: VaultPaths, store: Store, vectors: VectorIndex, embedder: Embedder,
                 resync: Callable[[Sequence[str]], bool] | None = None) -> None:
        self.paths = paths
        self.store = store
        self.vectors = vectors
        self.embedder = embedder
        self.resync = resync  # index these paths again; True if a note changed

    def search(self, query: str, k: int, eligibility: Eligibility) -> Hits:
        """The best ``k`` eligible notes; each hit says what its file says now."""
        if k <= 0 or not query.strip():
            return Hits()
        hits, rows = self._consistent(lambda: self._search(query, k, eligibility))
        for _round in range(VERIFY_ROUNDS):
            changed = [row.path for row in rows if not self._file_matches(row)]
            if not changed or self.resync is None:
                return hits
            try:
                if not self.resync(changed):
                    return hits
            except IndexBusy as busy:
                for hit in hits:
                    if hit.path in changed:
                        hit.warnings.append(f"{hit.path} changed on disk since it was indexed; shown as indexed: {busy}")
                return hits
            hits, rows = self._consistent(lambda: self._search(query, k, eligibility))
        return hits  # files rewritten again and again while we look: answered from the latest indexed

    def _file_matches(self, row: NoteRow) -> bool:
        """Is the file still the one the row was made from (same size and mtime)?

        A row's mtime is one nanosecond off for a file read within its timestamp's tick
        (indexer.settled_stat): such a hit is read again, and counts as changed only if its
        bytes did.
        """
        try:
            info = os.lstat(self.paths.os_path(row.path))
        except (FileNotFoundError, NotADirectoryError):
            return False
        except OSError:
            return True  # unreadable: the snippet says so on the hit; indexing it again would fail the same way
        return stat_module.S_ISREG(info.st_mode) and (info.st_mtime_ns, info.st_size) == (row.mtime_ns, row.size)

    def similar(self, label: int, threshold: float, eligibility: Eligibility, k: int = SIMILAR_MAX) -> list[tuple[NoteRow, float]]:
        """Up to ``k`` eligible notes whose vector is within ``threshold`` cosine of note ``label``'s
        (itself excluded), most similar first: what a new memory may repeat."""
        return self._consistent(lambda: self._similar(label, threshold, eligibility, k))

    def similar_notes(self, path: str, threshold: float, eligibility: Eligibility) -> list[SimilarNote]:
        """:meth:`similar` for the note at ``path`` (none if another process removed it meanwhile)."""
        row = self.store.notes.by_path(path)
        if row is None or row.label is None:
            return []
        close = self.similar(row.label, threshold, eligibility)
        return [SimilarNote(other.id, other.path, other.title, round(score, 3)) for other, score in close]

    def _consistent(self, read: Callable[[], T]) -> T:
        # One read transaction for every step: a note deleted by another process between
        # the candidate lists and the row lookups would otherwise vanish mid-query.
        for _attempt in range(SNAPSHOT_RETRIES):
            try:
                with self.store.read_snapshot():
                    return read()
            except SnapshotMoved:
                continue  # a fold or rebuild replaced the vector file mid-query: start again
        raise DerivedIndexError(
            f"the vector snapshot in {self.store.state_dir} kept changing during the search; "
            "try again, or run `vaultmem index` if it persists"
        )

    def _similar(self, label: int, threshold: float, eligibility: Eligibility, k: int) -> list[tuple[NoteRow, float]]:
        stored = self.store.vectors.for_labels([label])
        if not stored:
            return []
        vector = blob_to_vector(stored[0][1])
        # Other layers and expired notes take places among the nearest: ask for more.
        close = [(other, score) for other, score in self.vectors.search(vector, SIMILAR_OVERFETCH * k + 1)
                 if other != label and score >= threshold]
        eligible = self.store.notes.eligible_labels([other for other, _ in close], eligibility)
        rows = self.store.notes.by_labels([other for other, _ in close if other in eligible])
        return [(rows[other], score) for other, score in close if other in rows][:k]

    def _search(self, query: str, k: int, eligibility: Eligibility) -> tuple[Hits, list[NoteRow]]:
        pool = max(CANDIDATES_MIN, k)
        vector_ranking = self._vector_side(query, pool, k, eligibility)
        text_ranking = self._text_side(query, pool, k, eligibility)
        fused = rrf([vector_ranking, text_ranking])
        paths = self.store.notes.paths_by_labels(list(fused))
        # Labels come from the same snapshot as `paths`; one missing here is a snapshot
        # vector of a note deleted before this query began.
        alive = [label for label in fused if label in paths]
        ordered = sorted(alive, key=lambda label: (-fused[label], paths[label]))[:k]
        rows = self.store.notes.by_labels(ordered)
        hits = Hits(self._hit(rows[label], fused[label], query, eligibility) for label in ordered)
        if self.store.meta.rebuild_state() == "running":
            hits.warn(REBUILD_WARNING)
        return hits, [rows[label] for label in ordered]

    def _text_side(self, query: str, pool: int, k: int, eligibility: Eligibility) -> list[int]:
        """BM25 candidates: notes with every query word first, then (if fewer than k) any word.

        Requiring all words first keeps FTS5 from scoring most of the vault for a long
        natural-language query (p50 at 100k notes: 30 ms → a few ms); the OR pass keeps
        recall when no note has them all. See adr/0004.
        """
        terms = query_terms(query)
        if not terms:
            return []
        ranking = self._fts(" AND ".join(terms), pool, eligibility)
        if len(ranking) < k and len(terms) > 1:
            seen = set(ranking)
            extra = self._fts(" OR ".join(terms), pool, eligibility)
            ranking += [label for label in extra if label not in seen][: pool - len(ranking)]
        return ranking

    def _fts(self, match: str, pool: int, eligibility: Eligibility) -> list[int]:
        """Top ``pool`` eligible FTS hits: filter a page of plain FTS hits, join only if needed."""
        page = 2 * pool
        labels = self.store.notes.fts_labels(match, page)
        if not eligibility.filters:
            return labels[:pool]
        eligible = self.store.notes.eligible_labels(labels, eligibility)
        ranking = [label for label in labels if label in eligible]
        if len(ranking) >= pool or len(labels) < page:
            return ranking[:pool]
        # Filters are selective for this query: let SQLite filter while ranking (complete).
        return [label for label, _ in self.store.notes.fts_search(match, eligibility, pool)]

    def _vector_side(self, query: str, pool: int, k: int, eligibility: Eligibility) -> list[int]:
        vector = self.embedder.embed([query])[0]
        wanted = pool
        while True:
            candidates = self.vectors.search(vector, wanted)
            eligible = self.store.notes.eligible_labels([label for label, _ in candidates], eligibility)
            ranking = [label for label, _ in candidates if label in eligible]
            if len(ranking) >= min(pool, k):
                break
            if len(candidates) < wanted or wanted >= WIDEN_LIMIT * pool:
                # Too few eligible hits: either filters leave few notes eligible (widening
                # the ANN query further would be slow) or hnswlib could not return as many
                # as asked (a graph crowded with deleted nodes). An exact scan of the
                # eligible notes is complete in both cases, so min(k, eligible) holds.
                exact = self.vectors.exact(vector, self.store.notes.all_eligible_labels(eligibility))
                return [label for label, _ in exact[:pool]]
            wanted *= WIDEN_FACTOR
        return ranking[:pool]

    def _hit(self, row: NoteRow, score: float, query: str, eligibility: Eligibility) -> Hit:
        warnings = [f"{problem['field']}: {problem['message']}" for problem in row.problems]
        if row.expiry_invalid:
            warnings.insert(0, f"expires_at {row.expires_at!r} does not parse, so this note never expires until it is fixed (see `vaultmem check`)")
        # Only with include_expired can a hit be expired: marked at the instant asked about (--as-of).
        expired = is_expired_us(row.expires_us, eligibility.now_us)
        if expired:
            warnings.insert(0, f"expired at {row.expires_at}")
        return Hit(
            id=row.id, path=row.path, title=row.title, score=round(score, 6), layer=row.layer,
            expires_at=row.expires_at, snippet=self._snippet(row, query, warnings), tags=row.tags,
            warnings=unique(warnings), expired=expired, version=version_of(row.content_hash),
        )

    def _snippet(self, row: NoteRow, query: str, warnings: list[str]) -> str:
        """An excerpt around the first query word, from the note's current body on disk."""
        try:
            body = read_body(self.paths.root, row.path)
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
