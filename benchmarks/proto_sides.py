"""The two sides of the passage prototype: exact vectors over passages and a real FTS5 table.

Both return, per question, every note's score (not only a top list), so a fusion can
read both components of any candidate. The product would keep ANN + a LIMITed FTS
query; ``proto_costs`` times those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vaultmem.embedders import Embedder

from .passages import Doc, Passage, embed_text

# FTS columns, in table order. `name` is the file name (and, in the `path` layout, its
# folders), `title` vaultmem's title, `headings` the passage's heading path (all headings
# for a note row), `props` the string properties as "key: value" lines.
COLUMNS = ("name", "title", "aliases", "headings", "props", "tags", "body")
TOKENIZER = "porter unicode61 remove_diacritics 2"  # vaultmem's (adr/0004)


def weights_for(weights: dict[str, float]) -> tuple[float, ...]:
    """BM25 weights in COLUMNS order; a column not named weighs 0 (and is not searched)."""
    return tuple(float(weights.get(column, 0.0)) for column in COLUMNS)


class EmbeddingCache:
    """Embeds each distinct text once per run, longest last: WordLlama pads a batch to its
    longest text, so batching texts of similar length is what keeps long notes cheap."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.vectors: dict[str, np.ndarray] = {}
        self.seconds = 0.0

    def matrix(self, texts: Sequence[str]) -> np.ndarray:
        import time

        missing = sorted({text for text in texts if text not in self.vectors}, key=len)
        if missing:
            started = time.perf_counter()
            embedded = self.embedder.embed(missing)
            self.seconds += time.perf_counter() - started
            self.vectors.update(zip(missing, embedded, strict=True))
        if not texts:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.vstack([self.vectors[text] for text in texts])


@dataclass
class VectorSide:
    """Passage vectors of one split and embedded-text variant; a note's score per aggregation."""

    doc_of: np.ndarray  # passage → doc
    matrix: np.ndarray  # passages × dimension, normalized
    docs: int

    @classmethod
    def build(cls, docs: Sequence[Doc], passages: Sequence[Passage], variant: str, cache: EmbeddingCache,
              with_note_vector: bool = False) -> VectorSide:
        texts = [embed_text(docs[p.doc], p, variant) for p in passages]
        owners = [p.doc for p in passages]
        if with_note_vector:  # the whole-note vector consolidation keeps anyway, as one more passage
            multi = {p.doc for p in passages if p.number > 0}
            texts += [docs[index].note_embed_text for index in sorted(multi)]
            owners += sorted(multi)
        return cls(np.asarray(owners, dtype=np.int64), cache.matrix(texts), len(docs))

    def note_scores(self, query: np.ndarray, share: float = 0.0, following: int = 2) -> np.ndarray:
        """best passage cosine + ``share`` × the sum of the next ``following`` ones (per note)."""
        scores = self.matrix @ query
        best = np.full(self.docs, -np.inf, dtype=np.float64)
        np.maximum.at(best, self.doc_of, scores)
        if share == 0.0 or following == 0:
            return best
        order = np.lexsort((-scores, self.doc_of))
        owners, ordered = self.doc_of[order], scores[order]
        starts = np.searchsorted(owners, owners, side="left")
        rank = np.arange(len(owners)) - starts
        extra = np.zeros(self.docs, dtype=np.float64)
        keep = (rank >= 1) & (rank <= following)
        np.add.at(extra, owners[keep], np.maximum(ordered[keep], 0.0))
        return best + share * extra


@dataclass(frozen=True)
class TextLayout:
    """What each FTS row holds: one row per note, or per passage with the note's fields in
    every row (``every``) or only in its first passage (``first``); ``path`` puts the
    folders into the name column."""

    name: str
    per_passage: bool
    note_fields: str = "every"  # every | first
    path_in_name: bool = False
    props_keys: bool = True
    today: bool = False  # only vaultmem's columns today (title, tags, body): FTS5's IDF counts
    # the rows holding a term in any column, so extra columns change BM25 even at weight 0


class TextSide:
    def __init__(self, docs: Sequence[Doc], passages: Sequence[Passage], layout: TextLayout) -> None:
        import sqlite3

        self.layout = layout
        self.docs = len(docs)
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(f"CREATE VIRTUAL TABLE fts USING fts5({', '.join(COLUMNS)}, tokenize = '{TOKENIZER}')")
        rows = self._rows(docs, passages)
        self.doc_of = np.asarray([doc for doc, _ in rows], dtype=np.int64)
        self.conn.executemany(f"INSERT INTO fts (rowid, {', '.join(COLUMNS)}) VALUES (?, {', '.join('?' for _ in COLUMNS)})",
                              [(rowid, *values) for rowid, (_, values) in enumerate(rows)])

    def _rows(self, docs: Sequence[Doc], passages: Sequence[Passage]) -> list[tuple[int, tuple[str, ...]]]:
        if not self.layout.per_passage:
            return [(index, self._row(doc, " \n ".join(_all_headings(doc)), doc.body, True)) for index, doc in enumerate(docs)]
        first_only = self.layout.note_fields == "first"
        return [(p.doc, self._row(docs[p.doc], " > ".join(p.headings), p.text, p.number == 0 or not first_only))
                for p in passages]

    def _row(self, doc: Doc, headings: str, body: str, note_fields: bool) -> tuple[str, ...]:
        """One row's values in COLUMNS order; without ``note_fields`` only headings and body."""
        if not note_fields:
            return ("", "", "", headings, "", "", body)
        if self.layout.today:
            return ("", doc.title, "", "", "", " ".join(doc.tags), body)
        name = f"{doc.folder} {doc.name}" if self.layout.path_in_name else doc.name
        return (name, doc.title, " \n ".join(doc.aliases), headings, doc.props_text(self.layout.props_keys),
                " ".join(doc.tags), body)

    def rows(self, match: str, weights: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
        """Every matching row and its BM25 (negated: higher is better); a 0 weight leaves
        that column out of the match (a column filter), as vaultmem's three columns do."""
        searched = [column for column, weight in zip(COLUMNS, weights, strict=True) if weight > 0]
        expression = f"{{{' '.join(searched)}}} : ({match})"
        rank = f"bm25(fts, {', '.join(str(float(weight)) for weight in weights)})"
        found = self.conn.execute(f"SELECT rowid, {rank} FROM fts WHERE fts MATCH ?", (expression,)).fetchall()
        if not found:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        rowids = np.asarray([row[0] for row in found], dtype=np.int64)
        return rowids, -np.asarray([row[1] for row in found], dtype=np.float64)

    def note_scores(self, match: str, weights: Sequence[float], share: float = 0.0, following: int = 2) -> np.ndarray:
        """Per note: best row's BM25 + ``share`` × the next ``following`` rows'; -inf: no match."""
        rowids, scores = self.rows(match, weights)
        best = np.full(self.docs, -np.inf)
        if len(rowids) == 0:
            return best
        owners = self.doc_of[rowids]
        np.maximum.at(best, owners, scores)
        if share == 0.0:
            return best
        order = np.lexsort((-scores, owners))
        owners, ordered = owners[order], scores[order]
        starts = np.searchsorted(owners, owners, side="left")
        rank = np.arange(len(owners)) - starts
        keep = (rank >= 1) & (rank <= following)
        extra = np.zeros(self.docs)
        np.add.at(extra, owners[keep], ordered[keep])
        return best + share * extra


def _all_headings(doc: Doc) -> list[str]:
    from .passages import sections

    return [section.headings[-1] for section in sections(doc.body) if section.headings]


def ranked(scores: np.ndarray, eligible: np.ndarray, depth: int) -> list[int]:
    """Doc indices of the best ``depth`` eligible scores (finite only), best first; ties by index."""
    usable = np.flatnonzero(eligible & np.isfinite(scores))
    if len(usable) == 0:
        return []
    top = usable[np.lexsort((usable, -scores[usable]))]
    return [int(index) for index in top[:depth]]
