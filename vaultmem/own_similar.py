"""``remember``'s ``similar`` over your own notes: the note, and the sentence, that already say it.

Memories (notes with a layer) are compared whole, at ``[consolidate] similar_threshold``
(remembering.similar_notes). A note of yours (no layer: a daily note, a person's page, a
vault brought from another tool) holds many facts, so a new one-line memory that repeats one
of them stood at 0.2–0.76 against the whole note or its best passage, where memories about
none of its notes reached 0.59. Here it is compared with the note's sentences, and each two in a row
(fact_units.py), embedded when ``remember`` asks, not kept in the index:

1. the notes a search for the memory's text would propose (both sides, search.Searcher.candidates),
   of which the first ``OWN_CANDIDATES`` without a layer;
2. of each, the passage each side scored best;
3. each such passage's pieces, read from the file, embedded in one call, against the new note's whole-note vector.

A note is named when its best piece is within ``OWN_SIMILAR_THRESHOLD`` cosine and shares a word
with the memory (consolidate.text_vocabulary: one fact said twice shares its words; the English
embedder put every Turkish text at ~0.75 to every other, and a Turkish memory about a person's
wishes named three study notes on tuples, virtual environments and the normal distribution,
none holding a word of it: a trial, s38), with the piece, its heading path and its lines, marked as yours: ``remember --supersedes`` refuses a note
without a layer (supersede.plan_retirement), so the advice is to revise it or keep both.
Measured in adr/0010 ("`similar` names your notes by their sentences").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .canvas import is_canvas_path
from .consolidate import text_vocabulary
from .errors import NoteReadError
from .fact_units import Piece, heading_path, pieces_of
from .notes import read_text
from .results import SimilarNote
from .shown_titles import shown_title
from .vectors import blob_to_vector

if TYPE_CHECKING:
    from .search import Searcher
    from .storage import Eligibility, NoteRow, PassageRow

OWN_SIMILAR_THRESHOLD = 0.70  # a piece of your note this close to the memory: measured, adr/0010
OWN_CANDIDATES = 5  # your notes, of those a search for the memory proposes, whose passages are read
OWN_SIMILAR_MAX = 3  # your notes named at most (beside up to SIMILAR_MAX memories)
QUERY_WORDS = 32  # the memory's words a search for its candidates asks
_SEARCH_POOL = 30  # notes a search proposes per side: memories take places among them


@dataclass(frozen=True)
class OwnMatch:
    """A note of yours, and its piece closest to the new memory."""

    row: NoteRow
    passage: PassageRow
    piece: Piece
    score: float


def similar_own_notes(searcher: Searcher, path: str, text: str, threshold: float,
                      eligibility: Eligibility) -> list[SimilarNote]:
    """Your notes (no layer, alive as ``eligibility`` says) one of whose sentences says nearly
    what the note at ``path`` (``text``: its body) says, most similar first."""
    words = text_vocabulary(text)
    close = [match for match in own_matches(searcher, path, text, eligibility)
             if match.score >= threshold and _shares_a_word(words, match.piece.text)]
    return [_entry(match) for match in close[:OWN_SIMILAR_MAX]]


def _shares_a_word(words: frozenset[str], piece: str) -> bool:
    """Whether a piece of your note holds a word of the memory's (``words``: its
    :func:`~consolidate.text_vocabulary`); a memory without a word of its own (``+1 555 0100``)
    leaves the question to the vectors."""
    return not words or bool(words & text_vocabulary(piece))


def own_matches(searcher: Searcher, path: str, text: str, eligibility: Eligibility) -> list[OwnMatch]:
    """Each candidate note of yours (steps 1–2 above) with its best piece, most similar first,
    whatever the threshold (the benchmark reads them all)."""
    store = searcher.store
    row = store.notes.by_path(path)
    stored = store.vectors.for_labels([row.label]) if row is not None and row.label is not None else []
    if row is None or not stored or not text.strip():
        return []
    vector = blob_to_vector(stored[0][1])
    # A search for a whole long memory asked the full text for every word (0.4 s at 10,000 notes
    # for 300 words); its first words find the notes a one-line fact is in.
    found = searcher.candidates(" ".join(text.split()[:QUERY_WORDS]), OWN_CANDIDATES, eligibility, pool=_SEARCH_POOL)
    rows = store.notes.by_labels([item.label for item in found.fused])
    # A canvas is a board of cards, not lines of prose: its passages' lines are not its file's.
    own = [item.label for item in found.fused if item.label != row.label and item.label in rows
           and rows[item.label].layer is None and not is_canvas_path(rows[item.label].path)][:OWN_CANDIDATES]
    best = {hit.label: hit.passage for hit in found.vectors if hit.label in own}
    words = {hit.label: hit.passage for hit in found.text if hit.label in own}
    passages = store.passages.by_labels(sorted({*best.values(), *words.values()}))
    files = {note: lines for note in own if (note in best or note in words)
             and (lines := _lines_of(searcher.paths.root, rows[note].path)) is not None}
    # The passage's lines as the file has them (the person's words, and lines an editor shows):
    # the full text's copy of a passage is changed for its index (camelCase words added).
    pieces = [(passage, piece) for passage in passages.values() if passage.note_label in files
              for piece in pieces_of("\n".join(files[passage.note_label][passage.start_line - 1 : passage.end_line]))]
    if not pieces:
        return []
    scores = np.asarray(searcher.embedder.embed([piece.text for _, piece in pieces]), dtype=np.float32) @ vector
    matches: dict[int, OwnMatch] = {}
    for (passage, piece), score in zip(pieces, scores.tolist(), strict=True):
        held = matches.get(passage.note_label)
        if held is None or score > held.score:
            matches[passage.note_label] = OwnMatch(rows[passage.note_label], passage, piece, score)
    return sorted(matches.values(), key=lambda match: (-match.score, match.row.path))


def _lines_of(root: Path, relative: str) -> list[str] | None:
    """A candidate note's lines, or None when its file is gone since the index saw it (deleted or
    moved in the instant between the search and this read): a note that is not there says nothing
    the memory says, and the memory, already written, must not be answered as failed for it."""
    try:
        return read_text(root, relative).split("\n")
    except NoteReadError:
        if (root / relative).exists():
            raise  # there but unreadable (permissions): a real failure, said as such
        return None


def _entry(match: OwnMatch) -> SimilarNote:
    """The entry: where in the note (a heading that repeats the title says nothing, as in embed_head)."""
    start = match.passage.start_line
    headings = [heading for heading in heading_path(match.passage.headings, match.piece.headings) if heading != match.row.title]
    return SimilarNote(match.row.id, match.row.path, shown_title(match.row.title, match.row.path), round(match.score, 3), None, yours=True,
                       heading=" > ".join(headings) or None, lines=(start + match.piece.line, start + match.piece.last_line),
                       says=match.piece.shown)
