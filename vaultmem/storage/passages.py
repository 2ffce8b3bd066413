"""The ``passages`` table and its full-text index ``passages_fts``: what search ranks.

A passage's label is its FTS rowid and its label in the passage vector space. Every FTS
row carries its note's fields besides the passage's own headings and text, weighted for
bm25 by :data:`BM25_WEIGHTS` (measured: benchmarks/PASSAGES.md, adr/0004).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..citation_words import with_citation_words
from ..cjk import fts_form
from ..identifiers import with_identifier_words
from ..stems import STEMMED, stemmed
from .connection import Connection, chunks, placeholders

if TYPE_CHECKING:
    from ..fields import SearchFields
    from ..passages import Passage
    from .notes import Eligibility

FTS_COLUMNS = ("name", "title", "aliases", "headings", "props", "tags", "body", "stems", "context")
# bm25() weights in FTS_COLUMNS order: the note's names weigh most, then its headings,
# properties and tags, then the text; the stems of a note not in English (its names, headings
# and text: stems.stemmed) as the text does (measured: adr/0027 "Stems"); a conversation turn's
# turns before it (turns.py) half as much as its own text (measured: benchmarks/PASSAGES.md §36).
# A passage's heading path weighs 4, nearly as a title: it names what the section is about, and
# at 2 a page saying the question's words in passing outranked the section headed by them
# ("in what order do the install hooks … run": `Life Cycle Operation Order` 5th → 3rd; 2.5–5 the
# same on the seven sets, measured with the how-to verb rule: benchmarks/PASSAGES.md §42).
BM25_WEIGHTS = "5.0, 5.0, 5.0, 4.0, 2.0, 2.0, 1.0, 1.0, 0.5"
_BM25 = f"bm25(passages_fts, {BM25_WEIGHTS})"
# An FTS5 column filter: the MATCH after it in every column but the turns said before a turn
# (a note's own words; turns.py).
NOT_TURNS_BEFORE = "- {context} : "
# FTS5's bm25 k1 (fts5_aux.c): a phrase adds to a row's score less than (k1 + 1) × its idf,
# however often the row holds it and whatever the column weights.
_BM25_K1 = 1.2
_PHRASE = re.compile(r'"[^"]*"\*?')  # one FTS5 phrase, quoted (search.py's terms), maybe a prefix
# The any-word pass leaves out the rows holding only its commonest word when that word is in at
# least this many times the rows asked for (fewer: the statements around it cost more than
# the bm25 they save).
_LEAVE_OUT_FROM = 2
_FTS_AVERAGES = 1  # the rowid of FTS5's averages record in passages_fts_data: its row count first


def _stored(column: str) -> str:
    """The column of passages_fts's content table that holds its ``column``. FTS5 keeps each
    row's values in passages_fts_content (id, c0, c1 …: one a declared column, in
    :data:`FTS_COLUMNS`' order): read there by the row's id, a B-tree look-up, where reading it
    through the virtual table set up an FTS5 cursor a row (~3x the cost: 0.79 → 0.28 ms for 120
    notes' properties at 10,000 notes)."""
    return f"c{FTS_COLUMNS.index(column)}"


@dataclass(frozen=True)
class PassageRow:
    label: int
    note_label: int
    number: int
    headings: tuple[str, ...]
    start_line: int
    end_line: int
    piece: bool = False  # one fact of a short note (passages.fact_pieces): no full-text row


class TextMatch(NamedTuple):
    """One FTS row that matched: the passage, its note, and its bm25 (negated: higher is better).

    A named tuple, the (passage, note, score) triple ranking.note_scores ranks, made as such: a
    search's text side makes up to 800 of them, and a frozen dataclass cost ~1 µs each to make
    and a tuple again to rank."""

    label: int
    note_label: int
    score: float


def _row(row: Sequence[object]) -> PassageRow:
    return PassageRow(int(row[0]), int(row[1]), int(row[2]), tuple(json.loads(str(row[3]))), int(row[4]), int(row[5]),  # type: ignore[call-overload]
                      bool(row[6]))


_SELECT = "SELECT label, note_label, number, headings, start_line, end_line, piece FROM passages"


class PassageStore:
    """Passages of every note, and their full text."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    # -- writing (the indexer, inside its transactions)

    def insert(self, note_label: int, passages: Sequence[Passage], fields: SearchFields) -> list[int]:
        """Add a note's passages (rows, and full text but of a fact piece); their labels, in order."""
        labels = []
        for passage in passages:
            cursor = self.db.execute(
                "INSERT INTO passages (note_label, number, headings, start_line, end_line, language, piece) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (int(note_label), passage.number, json.dumps(passage.headings, ensure_ascii=False), passage.start_line,
                 passage.end_line, fields.language, int(passage.piece)),
            )
            labels.append(int(cursor.lastrowid or 0))
        self._write_fts(labels, passages, fields)
        return labels

    def rewrite(self, labels: Sequence[int], passages: Sequence[Passage], fields: SearchFields) -> None:
        """Same passages (same embedded texts), new places or fields: update rows and full text in place."""
        self.db.executemany(
            "UPDATE passages SET headings = ?, start_line = ?, end_line = ?, language = ?, piece = ? WHERE label = ?",
            [(json.dumps(passage.headings, ensure_ascii=False), passage.start_line, passage.end_line, fields.language,
              int(passage.piece), int(label))
             for label, passage in zip(labels, passages, strict=True)],
        )
        self.db.executemany("DELETE FROM passages_fts WHERE rowid = ?", [(int(label),) for label in labels])
        self._write_fts(labels, passages, fields)

    def _write_fts(self, labels: Sequence[int], passages: Sequence[Passage], fields: SearchFields) -> None:
        """Each passage's full-text row — none for a fact piece (passages.fact_pieces: its words are
        its note's whole passage's, and as a row of its own a short note's fact outranked a manual's
        page on the keyword side: benchmarks/PASSAGES.md §38); a character of Chinese, Japanese or Korean is a token
        of its own (cjk.fts_form: a query asks for its neighbouring pairs), ß is ss, ı is i, and a
        camelCase identifier is followed by its words (identifiers.with_identifier_words) — but in
        a heading: the heading column weighs most of the text's, and `### peerDependenciesMeta`
        made a manual's package.json section answer "dependencies" above `npm audit`'s page (an
        evaluation question); the section's text holds the heading line, so its words are held. A
        note in a language of stems.STEMMED also holds the stems of its names, headings and text
        (an English note none: nothing is stemmed for it)."""
        note_values = tuple(_fts_text(value) for value in (fields.name, fields.title, " \n ".join(fields.aliases),
                                                           fields.props_text))
        name, title, aliases, props = note_values
        tags = fts_form(" ".join(fields.tags))
        language = fields.language
        named = "" if language is None else stemmed(" \n ".join((fields.name, fields.title, *fields.aliases)), language)
        self.db.executemany(
            f"INSERT INTO passages_fts (rowid, {', '.join(FTS_COLUMNS)}) VALUES (?, {placeholders(len(FTS_COLUMNS))})",
            [(int(label), name, title, aliases, fts_form(" > ".join(passage.headings)), props, tags, _body_text(passage.text),
              "" if language is None else f"{named} \n {stemmed(' '.join(passage.headings), language)} \n {stemmed(passage.text, language)}",
              "")  # the turns before it: written by set_turn_contexts, once its folder's turns are all written
             for label, passage in zip(labels, passages, strict=True) if not passage.piece],
        )

    def languages(self) -> tuple[str, ...]:
        """The languages of stems.STEMMED the passages are written in (none in an English vault):
        one look-up of the index a language."""
        present = "SELECT 1 FROM passages WHERE language = ? LIMIT 1"
        return tuple(language for language in STEMMED if self.db.execute(present, (language,)).fetchone() is not None)

    def delete_for_notes(self, note_labels: Iterable[int]) -> list[int]:
        """Drop these notes' passages and their full text; the passage labels dropped."""
        labels = self.labels_of(list(note_labels))
        params = [(label,) for label in labels]
        self.db.executemany("DELETE FROM passages WHERE label = ?", params)
        self.db.executemany("DELETE FROM passages_fts WHERE rowid = ?", params)
        return labels

    # -- reading

    def labels_of(self, note_labels: Sequence[int]) -> list[int]:
        """Passage labels of these notes (each note's in order)."""
        found: list[int] = []
        for chunk in chunks(int(label) for label in note_labels):
            query = f"SELECT label FROM passages WHERE note_label IN ({placeholders(len(chunk))}) ORDER BY note_label, number"
            found.extend(row[0] for row in self.db.execute(query, chunk))
        return found

    def owner_rows(self) -> list[tuple[int, int, int, int]]:
        """(label, note label, number, piece) of every passage, by label: what search keeps in
        memory (passage_table.py) instead of asking :meth:`owners_passing`, :meth:`pairs_of`,
        :meth:`counts` and :meth:`chance_counts` of each query's few hundred passages."""
        return self.db.execute("SELECT label, note_label, number, piece FROM passages ORDER BY label").fetchall()

    def pairs_of(self, note_labels: Sequence[int]) -> list[tuple[int, int]]:
        """(passage label, note label) of every passage of these notes."""
        found: list[tuple[int, int]] = []
        for chunk in chunks(int(label) for label in note_labels):
            query = f"SELECT label, note_label FROM passages WHERE note_label IN ({placeholders(len(chunk))})"
            found.extend(self.db.execute(query, chunk))  # (label, label) rows as they come
        return found

    def counts(self, note_labels: Sequence[int]) -> dict[int, int]:
        """How many passages each of these notes has (a note without any is left out)."""
        found: dict[int, int] = {}
        for chunk in chunks(int(label) for label in note_labels):
            query = f"SELECT note_label, count(*) FROM passages WHERE note_label IN ({placeholders(len(chunk))}) GROUP BY note_label"
            found.update(self.db.execute(query, chunk))  # (label, label) rows as they come
        return found

    def chance_counts(self, note_labels: Sequence[int]) -> dict[int, int]:
        """How many passages each of these notes has that are not fact pieces (a note without
        any is left out): the draws its vector score is lowered for (ranking.chance_lowering).
        A piece is a paragraph its note's whole passage already holds (passages.fact_pieces):
        counted, a day of three short paragraphs was lowered as a note of four passages."""
        found: dict[int, int] = {}
        for chunk in chunks(int(label) for label in note_labels):
            query = (f"SELECT note_label, count(*) FROM passages WHERE piece = 0 AND note_label IN ({placeholders(len(chunk))})"
                     " GROUP BY note_label")
            found.update(self.db.execute(query, chunk))  # (label, label) rows as they come
        return found

    def of_notes(self, note_labels: Sequence[int]) -> dict[int, list[PassageRow]]:
        """Each note's passages, in order."""
        found: dict[int, list[PassageRow]] = {}
        for chunk in chunks(int(label) for label in note_labels):
            query = f"{_SELECT} WHERE note_label IN ({placeholders(len(chunk))}) ORDER BY note_label, number"
            for row in self.db.execute(query, chunk):
                passage = _row(row)
                found.setdefault(passage.note_label, []).append(passage)
        return found

    def by_labels(self, labels: Sequence[int]) -> dict[int, PassageRow]:
        found: dict[int, PassageRow] = {}
        for chunk in chunks(int(label) for label in labels):
            for row in self.db.execute(f"{_SELECT} WHERE label IN ({placeholders(len(chunk))})", chunk):
                found[row[0]] = _row(row)
        return found

    def owners(self, labels: Sequence[int]) -> dict[int, int]:
        """Passage label → note label, for the labels that exist."""
        found: dict[int, int] = {}
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, note_label FROM passages WHERE label IN ({placeholders(len(chunk))})"
            found.update(self.db.execute(query, chunk))  # (label, label) rows as they come
        return found

    def owners_passing(self, labels: Sequence[int], eligibility: Eligibility) -> tuple[dict[int, int], set[int]]:
        """:meth:`owners` of these passages, and which of their notes exist and pass the
        read-time filters (``NoteStore.eligible_labels``'s rule): one statement, where the two
        lists of several hundred labels each cost the vector side of a search twice over."""
        where, params = eligibility.where()
        passing = f"CASE WHEN notes.label IS NULL THEN 0 WHEN {where} THEN 1 ELSE 0 END"
        owners: dict[int, int] = {}
        eligible: set[int] = set()
        for chunk in chunks(int(label) for label in labels):
            query = (f"SELECT passages.label, passages.note_label, {passing} FROM passages "
                     f"LEFT JOIN notes ON notes.label = passages.note_label WHERE passages.label IN ({placeholders(len(chunk))})")
            for label, note, passes in self.db.execute(query, [*params, *chunk]):
                owners[label] = note
                if passes:
                    eligible.add(note)
        return owners, eligible

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM passages").fetchone()[0])

    def text_rows(self) -> int:
        """How many passages have a full-text row: every one but the fact pieces."""
        return int(self.db.execute("SELECT count(*) FROM passages WHERE piece = 0").fetchone()[0])

    def merge_full_text(self) -> None:
        """Merge the full-text index's segments into one (FTS5 ``optimize``; in a transaction).

        Each committed chunk of a reconcile leaves FTS5 a segment of its own, which it merges
        four at a time: a cold index of 10,000 notes left ten, and every MATCH a search asks
        (four to six) walks each of a term's segments. Merged, a search at 10,000 notes asks
        its full text ~1 ms faster; the rows and their bm25 are the same. The merge rewrites
        the index (0.2 s at 10,000 notes) and leaves the old segments' pages free in the file.
        """
        self.db.execute("INSERT INTO passages_fts(passages_fts) VALUES ('optimize')")

    # -- full-text search

    def fts(self, match: str, limit: int) -> list[TextMatch]:
        """The best ``limit`` rows for ``match``, before any read-time filter.

        The FTS query alone, then the notes of the rows it kept: a join inside it would look
        up the note of every matching row, not only of the ``limit`` kept.
        """
        query = f"SELECT rowid, {_BM25} AS score FROM passages_fts WHERE passages_fts MATCH ? ORDER BY score LIMIT ?"
        rows = self.db.execute(query, (match, int(limit))).fetchall()
        owners = self.owners([row[0] for row in rows])
        return [TextMatch(row[0], owners[row[0]], -row[1]) for row in rows if row[0] in owners]

    def fts_passing(self, match: str, limit: int, eligibility: Eligibility) -> tuple[list[TextMatch], set[int]]:
        """:meth:`fts` (its rows in no set order), and which of their notes pass the read-time
        filters (``NoteStore.eligible_labels``'s rule): one statement instead of three (the
        any-word pass: its rows, :meth:`_best_of_any`, then their notes). The full-text query
        keeps its ``limit`` rows first; only those are joined to their notes."""
        if (phrases := _any_of(match)) is not None:  # the any-word pass: its rows first, then their notes
            best = self._best_of_any(match, phrases, int(limit))
            owners, eligible = self.owners_passing([label for label, _ in best], eligibility)
            return [TextMatch(label, owners[label], -score) for label, score in best if label in owners], eligible
        where, params = eligibility.where()
        query = (f"SELECT matched.label, passages.note_label, matched.score, "
                 f"CASE WHEN notes.label IS NULL THEN 0 WHEN {where} THEN 1 ELSE 0 END "
                 f"FROM (SELECT rowid AS label, {_BM25} AS score FROM passages_fts WHERE passages_fts MATCH ? "
                 "ORDER BY score, rowid LIMIT ?) "
                 "AS matched JOIN passages ON passages.label = matched.label LEFT JOIN notes ON notes.label = passages.note_label")
        rows: list[TextMatch] = []
        eligible = set()
        for label, note, score, passes in self.db.execute(query, [*params, match, int(limit)]):
            rows.append(TextMatch(label, note, -score))
            if passes:
                eligible.add(note)
        return rows, eligible

    def fts_best(self, match: str, limit: int) -> list[tuple[int, float]]:
        """The best ``limit`` full-text rows: (passage label, bm25 negated: higher is better), in
        no set order — :meth:`fts_passing` without its joins, for a caller that knows each
        passage's note and each note's filters (passage_table.py)."""
        return [(label, -score) for label, score in self._best_rows(match, int(limit))]

    def _best_rows(self, match: str, limit: int) -> list[tuple[int, float]]:
        """The best ``limit`` rows for ``match``: (rowid, bm25 as FTS5 gives it: lower is
        better), equal scores by rowid — the rows SQLite's sorter kept before (it keeps the
        first of equal rows in FTS5's rowid order; the same rows for the 276 statements of
        the 10k benchmark's 200 queries, 47 of them with a tie at the last place).

        The any-word pass (``"a" OR "b" OR "c"``) scores every row holding any word: 3,000–7,000
        rows at 10,000 notes, most of them holding only the commonest word ("decide"). Such a
        row scores less than (k1 + 1) × that word's idf (bm25's ceiling for one phrase), so
        when the rows holding another word already fill ``limit`` above that ceiling, the
        others cannot reach the cut and are not scored (:meth:`_best_of_any`): the same rows
        and the same scores (benchmarks/README.md, stop 41 perfor)."""
        if (phrases := _any_of(match)) is not None:
            return self._best_of_any(match, phrases, limit)
        query = f"SELECT rowid, {_BM25} AS score FROM passages_fts WHERE passages_fts MATCH ? ORDER BY score, rowid LIMIT ?"
        return [(int(label), float(score)) for label, score in self.db.execute(query, [match, limit])]

    def _best_of_any(self, match: str, phrases: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """:meth:`_best_rows` of an OR of phrases: the rows holding a phrase other than the
        commonest scored first; the rows holding only the commonest are scored only when the
        first ``limit`` do not all score above what such a row can (bm25 for one phrase is
        idf × f(k1 + 1) / (f + k1(1 − b + b·D/avgdl)), below idf × (k1 + 1) for any f and D)."""
        held = [self.count_matching(phrase) for phrase in phrases]
        commonest = max(range(len(phrases)), key=held.__getitem__)
        rows = self._fts_row_count()
        others = " OR ".join(phrase for number, phrase in enumerate(phrases) if number != commonest)
        best = f"SELECT rowid, {_BM25} AS score FROM passages_fts WHERE passages_fts MATCH ? "
        among = "+rowid IN (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?) ORDER BY score, rowid LIMIT ?"
        if rows is None or held[commonest] < _LEAVE_OUT_FROM * limit or sum(held) - held[commonest] < limit:
            # Nothing to leave out worth the statements, or the other words' rows cannot fill the limit alone.
            query = f"{best}ORDER BY score, rowid LIMIT ?"
            return [(int(label), float(score)) for label, score in self.db.execute(query, [match, limit])]
        first = [(int(label), float(score)) for label, score in
                 self.db.execute(f"{best}AND {among}", [match, others, limit])]
        ceiling = (_BM25_K1 + 1) * _idf(rows, held[commonest])
        if len(first) == limit and -first[-1][1] > ceiling * (1 + 1e-9) + 1e-12:  # a margin for the sums' last bits
            return first
        # The rows holding only the commonest phrase, scored by it alone: bm25 adds 0.0 for each
        # phrase a row does not hold, and each phrase's idf and avgdl are the table's, so each
        # such row's score is the one the whole OR gives it, to the last bit.
        alone = f"SELECT rowid, {_BM25} AS score FROM passages_fts WHERE passages_fts MATCH ? ORDER BY score, rowid LIMIT ?"
        rest = [(int(label), float(score)) for label, score in
                self.db.execute(alone, [f"{phrases[commonest]} NOT ({others})", limit])]
        return sorted(first + rest, key=lambda row: (row[1], row[0]))[:limit]

    def _fts_row_count(self) -> int | None:
        """How many rows the full-text index holds, as bm25 counts them (FTS5's averages
        record: a varint first); None when the record is missing (no rows yet)."""
        found = self.db.execute("SELECT block FROM passages_fts_data WHERE id = ?", [_FTS_AVERAGES]).fetchone()
        if found is None or not found[0]:
            return None
        return _varint(bytes(found[0]))

    def fts_by_note(self, match: str, eligibility: Eligibility, limit: int, per_note: int) -> list[TextMatch]:
        """The best ``limit`` rows of notes that pass the read-time filters, at most ``per_note``
        of each note (its best): SQLite filters and ranks every matching row (complete).

        Without the cap a note that holds a word in thousands of rows (a book or a chat log
        pasted into one note) fills the ``limit`` alone, and no other note holding the word is
        ranked at all (search.Searcher._fts).
        """
        where, params = eligibility.where() if eligibility.filters else ("1", [])
        notes = "JOIN notes ON notes.label = passages.note_label " if eligibility.filters else ""
        # bm25() is usable only in the full-text query itself: scored there, joined and counted around it.
        query = ("SELECT label, note_label, score FROM (SELECT matched.label AS label, passages.note_label AS note_label, "
                 "matched.score AS score, row_number() OVER (PARTITION BY passages.note_label ORDER BY matched.score, matched.label) AS nth "
                 f"FROM (SELECT rowid AS label, {_BM25} AS score FROM passages_fts WHERE passages_fts MATCH ?) AS matched "
                 f"JOIN passages ON passages.label = matched.label {notes}WHERE {where}) WHERE nth <= ? ORDER BY score, label LIMIT ?")
        return [TextMatch(row[0], row[1], -row[2]) for row in self.db.execute(query, [match, *params, int(per_note), int(limit)])]

    def literal(self, text: str, eligibility: Eligibility, limit: int, per_note: int) -> list[TextMatch]:
        """The ``limit`` rows whose headings or text hold ``text`` as written (case included) most
        often, of notes that pass the read-time filters, at most ``per_note`` of each note (its
        best); the score is how many times (a heading that holds it counts once more). For a query
        of signs alone (``&&``, ``::``): the full text keeps words only, so no index helps and this
        reads every row's stored text: 60–95 ms at 10,000 notes, linear in the text (adr/0004 "A
        query of signs alone").

        Without the cap a note that holds ``&&`` in many passages (a long shell cheat sheet) fills
        the ``limit`` alone, and no other note holding it is listed at all (as fts_by_note)."""
        where, params = eligibility.where()
        times = "(length(passages_fts.body) - length(replace(passages_fts.body, ?, ''))) / length(?) + (instr(passages_fts.headings, ?) > 0)"
        query = ("SELECT label, note_label, times FROM (SELECT label, note_label, times, row_number() OVER "
                 "(PARTITION BY note_label ORDER BY times DESC, label) AS nth FROM "
                 f"(SELECT passages.label AS label, passages.note_label AS note_label, {times} AS times FROM passages_fts "
                 "JOIN passages ON passages.label = passages_fts.rowid JOIN notes ON notes.label = passages.note_label "
                 f"WHERE (instr(passages_fts.body, ?) > 0 OR instr(passages_fts.headings, ?) > 0) AND {where})) "
                 "WHERE nth <= ? ORDER BY times DESC, label LIMIT ?")
        rows = self.db.execute(query, [text, text, text, text, text, *params, int(per_note), int(limit)])
        return [TextMatch(label, note, float(count)) for label, note, count in rows]

    def count_matching(self, match: str) -> int:
        """How many rows (passages, of any note) match: a word's document frequency, as BM25
        counts it (confidence.py weighs the query's words by it). No ranking, no join."""
        return int(self.db.execute("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", [match]).fetchone()[0])

    def count_matching_at_most(self, match: str, limit: int) -> int:
        """:meth:`count_matching` counted up to ``limit``: a word most rows hold is not counted
        through (search's rarest word needs only whether a word is rare)."""
        query = "SELECT count(*) FROM (SELECT 1 FROM passages_fts WHERE passages_fts MATCH ? LIMIT ?)"
        return int(self.db.execute(query, [match, int(limit)]).fetchone()[0])

    def any_match(self, match: str, among: Eligibility | None = None) -> bool:
        """Does any row match — of a note that passes ``among``, when given? (No ranking: the
        first such row ends the query.)"""
        if among is None or not among.filters:
            query, params = "SELECT 1 FROM passages_fts WHERE passages_fts MATCH ? LIMIT 1", [match]
        else:
            where, filters = among.where()
            query = ("SELECT 1 FROM passages_fts JOIN passages ON passages.label = passages_fts.rowid "
                     f"JOIN notes ON notes.label = passages.note_label WHERE passages_fts MATCH ? AND {where} LIMIT 1")
            params = [match, *filters]
        return self.db.execute(query, params).fetchone() is not None

    def fts_of_note(self, match: str, note_label: int) -> list[TextMatch]:
        """Every row of one note that matches, best first (``explain``: the note's own text score)."""
        scores = self.fts_scores(match, self.labels_of([note_label]))
        return sorted((TextMatch(label, int(note_label), score) for label, score in scores.items()),
                      key=lambda row: (-row.score, row.label))

    def fts_scores(self, match: str, labels: Sequence[int]) -> dict[int, float]:
        """Which of these passages' rows match, and their bm25 (negated: higher is better).

        A run of near-consecutive labels spanning :data:`RUN_ALONE` or more (a note's passages:
        written together) is asked by its range (``rowid BETWEEN``), never by ``rowid IN (…)``:
        SQLite hands FTS5 an IN list one value at a time, and each value evaluated the MATCH
        anew — the 1,027 passages of one pasted changelog took 0.75 s, and a search whose hits
        were such notes 12 s. A range is one evaluation; rows of it not asked for are dropped
        here. The labels left, a few here and there (each hit's best passages), are asked in one
        statement: a statement a label cost a search at 10,000 notes 2 ms more. That statement
        runs the MATCH once over the span from the first of them to the last and scores only the
        rows asked for (``+rowid IN``: a filter SQLite applies, not a value it hands FTS5): by
        value, FTS5 evaluated the MATCH anew for each label (0.67 → 0.35 ms a search at 10,000 notes; the same rows and scores)."""
        return {int(row[0]): -row[1] for row in self._rows_among(match, labels, f", {_BM25}")}

    def fts_holding(self, match: str, labels: Sequence[int]) -> set[int]:
        """Which of these passages' rows match: :meth:`fts_scores`'s keys, asked by the same
        statements without bm25. A caller that asks only whether a row holds a word (the rarest
        word's check, the passage past a note's name, a judged note's words) paid for bm25's idf,
        which FTS5 counts over each phrase's whole doclist once a statement, and for its score of
        each row: 0.9 ms of a search at 10,000 notes for answers it never read."""
        return {int(row[0]) for row in self._rows_among(match, labels, "")}

    def _rows_among(self, match: str, labels: Sequence[int], columns: str) -> Iterator[tuple[Any, ...]]:
        """(rowid, *``columns``) of those of ``labels`` whose rows match, by the statements
        :meth:`fts_scores` describes: a range for a run of near-consecutive labels, one
        statement for the scattered rest."""
        wanted = {int(label) for label in labels}
        ranged = f"SELECT rowid{columns} FROM passages_fts WHERE passages_fts MATCH ? AND rowid BETWEEN ? AND ?"
        scattered: list[int] = []
        for first, last in label_runs(sorted(wanted)):
            if last - first < RUN_ALONE:
                scattered += [label for label in range(first, last + 1) if label in wanted]
                continue
            yield from (row for row in self.db.execute(ranged, [match, first, last]) if row[0] in wanted)
        # A few labels here and there (the hits' best passages): one statement for them all, one
        # evaluation of the MATCH over their span, bm25 (when asked) only of the rows asked for (the unary +
        # keeps the IN list from FTS5, which would evaluate the MATCH once a value).
        for chunk in chunks(scattered):  # ascending: label_runs keeps the order of sorted(wanted)
            listed = (f"SELECT rowid{columns} FROM passages_fts WHERE passages_fts MATCH ? AND rowid BETWEEN ? AND ? "
                      f"AND +rowid IN ({placeholders(len(chunk))})")
            yield from self.db.execute(listed, [match, chunk[0], chunk[-1], *chunk])

    def properties_of(self, note_labels: Iterable[int]) -> dict[int, str]:
        """Each note's properties as its full-text rows hold them (``key: value`` lines, the
        same in every row of a note: its first passage's is read). A note with none is left out."""
        found: dict[int, str] = {}
        for chunk in chunks(int(label) for label in note_labels):
            query = (f"SELECT passages.note_label, content.{_stored('props')} FROM passages "
                     "JOIN passages_fts_content AS content ON content.id = passages.label "
                     f"WHERE passages.number = 0 AND passages.note_label IN ({placeholders(len(chunk))})")
            found.update((int(row[0]), str(row[1])) for row in self.db.execute(query, chunk) if row[1])
        return found

    def untitled(self, note_labels: Iterable[int]) -> set[int]:
        """Those of these notes whose full-text rows hold no title (a turn named by its text's first
        words, searchable: its title is not searched nor embedded)."""
        found: set[int] = set()
        for chunk in chunks(int(label) for label in note_labels):
            query = ("SELECT passages.note_label FROM passages JOIN passages_fts ON passages_fts.rowid = passages.label "
                     f"WHERE passages.number = 0 AND passages_fts.title = '' AND passages.note_label IN ({placeholders(len(chunk))})")
            found.update(int(row[0]) for row in self.db.execute(query, chunk))
        return found

    def bodies(self, labels: Sequence[int]) -> dict[int, str]:
        """Each passage's text as its full-text row holds it (line breaks kept)."""
        found: dict[int, str] = {}
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT id, {_stored('body')} FROM passages_fts_content WHERE id IN ({placeholders(len(chunk))})"
            found.update((int(row[0]), str(row[1])) for row in self.db.execute(query, chunk))
        return found

    def turn_contexts(self, labels: Sequence[int]) -> dict[int, str]:
        """Each passage's ``context`` column as its full-text row holds it (a turn's turns before it)."""
        found: dict[int, str] = {}
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT rowid, context FROM passages_fts WHERE rowid IN ({placeholders(len(chunk))})"
            found.update((int(row[0]), str(row[1] or "")) for row in self.db.execute(query, chunk))
        return found

    def set_turn_contexts(self, contexts: Mapping[int, str]) -> None:
        """Write these passages' ``context`` column (turns.py: the text of the turns said before a
        turn, made of their rows' ``body`` as :meth:`bodies` reads it: in the full text's form already)."""
        self.db.executemany("UPDATE passages_fts SET context = ? WHERE rowid = ?",
                            [(text, int(label)) for label, text in contexts.items()])

    def matching_among(self, match: str, labels: Iterable[int]) -> set[int]:
        """Which of these passages' rows match: the MATCH run once over the whole table, the rows
        kept that were asked for. For a few labels of many notes whose rows match widely (a word
        of their titles: every passage of a note carries its names), where an IN list would run
        the MATCH once a value and a range a run."""
        wanted = {int(label) for label in labels}
        if not wanted:
            return set()
        query = "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ? AND rowid BETWEEN ? AND ?"
        return {row[0] for row in self.db.execute(query, [match, min(wanted), max(wanted)]) if row[0] in wanted}

    def body_lines_holding(self, terms: str, label: int) -> set[int]:
        """The lines (0-based, counted from the passage's first) of passage ``label``'s text that
        hold one of ``terms`` (full-text terms joined by OR), as FTS5 tokenises and stems them
        (its highlight() of the body column). For a fact piece (passages.fact_pieces), which has no
        row of its own: the lines of its note's whole passage that are the piece's."""
        query = ("SELECT highlight(passages_fts, ?, char(1), char(2)) FROM passages_fts "
                 "WHERE passages_fts MATCH ? AND rowid = ?")
        rows = self.db.execute(query, [FTS_COLUMNS.index("body"), f"{{body}} : ({terms})", int(label)]).fetchall()
        if not rows:
            return set()
        return {number for number, line in enumerate(str(rows[0][0]).split("\n")) if "\x01" in line}


RUN_GAP = 64  # labels apart that one range still spans: a few stray rows cost less than another query
RUN_ALONE = 16  # a run spanning fewer labels than this is asked among the scattered ones, by value


def props_as_held(props_text: str) -> str:
    """A note's properties' text as its full-text rows hold it (the ``props`` column)."""
    return _fts_text(props_text)


def _fts_text(text: str) -> str:
    """A field's text as the full text holds it (cjk.fts_form), each camelCase identifier
    followed by its words (identifiers.with_identifier_words)."""
    return fts_form(with_identifier_words(text))


def _body_text(text: str) -> str:
    """A passage's text as the full text holds it (:func:`_fts_text`), each Pandoc citation key
    followed by its author and year (citation_words.with_citation_words). Only the text: a file
    name holding a key has its year apart already (fields.with_years_apart), and spelled twice
    its words would count twice in the name column, which weighs most."""
    return _fts_text(with_citation_words(text))


def label_runs(labels: Sequence[int], gap: int = RUN_GAP) -> Iterator[tuple[int, int]]:
    """Sorted ``labels`` as (first, last) ranges, a range ending where the next label is more
    than ``gap`` past the one before."""
    if not labels:
        return
    first = last = labels[0]
    for label in labels[1:]:
        if label - last > gap:
            yield first, last
            first = label
        last = label
    yield first, last


def _any_of(match: str) -> list[str] | None:
    """The phrases of an OR of two or more quoted phrases (the text side's any-word pass), else None."""
    phrases = match.split(" OR ")
    return phrases if len(phrases) > 1 and all(_PHRASE.fullmatch(phrase) for phrase in phrases) else None


def _idf(rows: int, holding: int) -> float:
    """bm25's idf of a phrase ``holding`` of ``rows`` rows hold, as FTS5 computes it (fts5_aux.c)."""
    idf = math.log((rows - holding + 0.5) / (holding + 0.5))
    return idf if idf > 0 else 1e-6


def _varint(data: bytes) -> int:
    """The SQLite varint ``data`` opens with (FTS5's records: 7 bits a byte, high bit set while
    more follow; a ninth byte gives all 8)."""
    value = 0
    for number, byte in enumerate(data[:9]):
        if number == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return value
