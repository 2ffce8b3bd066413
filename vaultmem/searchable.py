"""What the index derives from a note for search, and the note's vectors.

A note becomes passages (passages.py) and searchable fields (fields.py). Each passage has
a vector made from its head (``title > heading path``, the aliases and properties in the
first one) and its text; the whole note keeps one vector of its own text, ``title`` then the body,
for consolidation and ``remember``'s similar-note check, so their thresholds keep their
meaning (adr/0010).

With an embedder whose vector is the mean of its tokens' (WordLlama, the hashing
embedder) one pass gives both: each passage's embedded text is tokenized once, the sum of
its tokens is its vector, and the sum of the tokens of its text alone is that passage's
share of the whole note's vector — which is then the title's sum plus those shares. Any
other embedder embeds the whole note's text a second time (cut at MAX_EMBED_CHARS).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .dating import name_day, name_with_iso_day
from .fields import SearchFields, search_fields
from .html_tags import without_html_tags
from .inline_fields import inline_fields
from .inline_queries import without_inline_queries
from .markdown import without_link_addresses, without_query_blocks
from .math_words import math_as_words
from .notes import READER_VERSION
from .passages import Passage, embed_head, embed_text, piece_text, split_passages
from .terminal_codes import without_terminal_codes
from .turns import conversation_by_folder, is_turn, named_by_its_text

if TYPE_CHECKING:
    import numpy as np

    from .embedders import Embedder
    from .notes import Note

# Part of every note's embed hash: bump it when what is embedded changes, so the next
# reconcile of an existing index embeds every note again. /7: HTML tags' names left out of the
# embedded text; /8: vectors are stored rounded to float16 (vectors.vector_to_blob), so an index
# made before holds them rounded after one re-embed.
EMBED_RECIPE = "passages-1000-pack/head+aliases+props/length-prior/link-sites/math-words/no-terminal-codes/no-html-tags/float16/8"
# What an index's rows were made under, kept in its meta (storage READER_KEY): the reader of
# files and the embed recipe. Either changing makes the next reconcile read every file again —
# a file's bytes unchanged, its vectors must still be made anew under a new recipe.
INDEX_RULES = f"reader-{READER_VERSION}/{EMBED_RECIPE}"


@dataclass(frozen=True)
class SearchableNote:
    """A note as search sees it: its fields, its passages and what each passage embeds."""

    fields: SearchFields
    passages: tuple[Passage, ...]  # lines are the file's (the body's first line included)
    heads: tuple[str, ...]  # per passage: what comes before its text in its embedded text
    note_text: str  # the whole note's embedded text: title, a blank line, the body
    words: tuple[str, ...]  # per passage: its text as embedded (its formulas' names: math_words.MathWords.embedded)

    @property
    def embed_texts(self) -> list[str]:
        return [piece_text(head, words) if passage.piece else embed_text(head, words)
                for passage, head, words in zip(self.passages, self.heads, self.words, strict=True)]

    @property
    def embed_hash(self) -> str:
        """Changes whenever any vector of the note would."""
        digest = hashlib.sha256(EMBED_RECIPE.encode("utf-8"))
        for text in (self.note_text, *self.embed_texts):
            digest.update(b"\0" + text.encode("utf-8"))
        return digest.hexdigest()


def searchable(note: Note, inline_queries: Sequence[str] = ()) -> SearchableNote:
    """What search holds of a note. A query block (a ``dataview``, ``query`` or ``base`` fence:
    markdown.query_block_ranges) is left out of its passages and vectors, its lines kept empty:
    it renders other notes, and its words ("TABLE title AS "Title", date AS "Date"") made a
    note a hit for questions about dates. So is each Dataview inline query when the vault's
    Dataview shows them (``inline_queries``: its prefixes, inline_queries.py), blanked in place,
    and each link's web address (markdown.without_link_addresses: reading view shows its text).
    Each formula is its words (math_words.py: ``\\mathbf{X}`` is X, ``\\lambda`` lambda), and the
    embedder is given them without their single letters and numbers. A terminal's colour codes
    in pasted output are no words (terminal_codes.py: ``ESC [31mError`` is ``Error``), nor are
    HTML tags' names and attributes (html_tags.py: ``<span class="git-footer">`` is no "git").
    The file is not changed."""
    fields = search_fields(note)
    fields = replace(fields, name=name_with_iso_day(fields.name, note.path), text_props=inline_fields(note.body))
    shown = without_terminal_codes(note.body)
    if is_turn(fields.props_text, note.meta) and named_by_its_text(fields.title, note.body):
        # A message named by a slug of its first words (turns.named_by_its_text): no title, and
        # only its folder as its name — the words are its text's, searched and embedded there.
        fields = replace(fields, title="", name=note.path.rpartition("/")[0])
    if is_turn(fields.props_text, note.meta) and (folder := conversation_by_folder(note.path, note.meta)):
        # A turn whose properties name no conversation is of its folder's (turns.conversation_by_folder):
        # embedded and searched with that name, as a turn whose `conversation:` names it is.
        fields = replace(fields, props=(*fields.props, ("conversation", folder)))
    math = math_as_words(without_html_tags(without_link_addresses(without_inline_queries(without_query_blocks(shown), inline_queries))))
    body = math.text
    # A day's note is cut into its facts too (passages.fact_pieces), and so is a memory of facts
    # (:func:`holds_facts`); another short note's paragraphs are about one thing (adr/0004 "Facts
    # of a short note").
    day = names_a_day_only(fields.title)
    cut = split_passages(body, pieces=day or _may_hold_facts(note, fields))
    if not day and any(passage.piece for passage in cut) and not holds_facts(cut):
        cut = [passage for passage in cut if not passage.piece]
    passages = tuple(_in_file(passage, note.body_line) for passage in cut)
    words = tuple(math.embedded(passage.offset, passage.offset + len(passage.text)) if math.formulas else passage.text
                  for passage in cut)
    first = fields.head_text
    heads = tuple(embed_head(fields.title, passage.headings, first if passage.number == 0 else "") if not passage.piece
                  else piece_head(fields.title, passage.headings) for passage in passages)
    note_text = note.embed_text if body is note.body else f"{note.title}\n\n{math.embedded(0, len(body))}"
    return SearchableNote(fields, passages, heads, note_text, words)


# What a title that only names a day may hold besides its digits: a month's or a weekday's name.
_DAY_WORDS = re.compile(r"(?i)(?:\d+(?:st|nd|rd|th)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun"
                        r"|january|february|march|april|may|june|july|august|september|october|november|december"
                        r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|[\W_])")


_DIGIT_RUN = re.compile(r"[0-9]+")
DAY_DIGITS = 8  # a day's year, month and day: 20261202, or 2026-12-02 in three runs


def names_a_day_only(title: str) -> bool:
    """``2026-12-02``, ``Wednesday, December 2nd 2026``: a daily note's title, which says when, not
    what — the one kind of short note whose paragraphs are unrelated facts (fact pieces). Not a
    title naming a minute (``202612021356``, a zettel's id; ``2026-12-02 13-56-12``, a chat
    export's message): such a note is one thought or one turn, and its paragraphs one thing's."""
    runs = _DIGIT_RUN.findall(title)
    if len(runs) > 3 or sum(len(run) for run in runs) > DAY_DIGITS:
        return False
    return not _DAY_WORDS.sub("", title) and name_day(f"{title}.md") is not None


def _may_hold_facts(note: Note, fields: SearchFields) -> bool:
    """A memory (a note with a ``layer``: what an agent remembered) that is no conversation turn
    (a turn's paragraphs are one reply, and its rows hold the turns before it: turns.py)."""
    return note.layer is not None and not is_turn(fields.props_text, note.meta)


def holds_facts(passages: Sequence[Passage]) -> bool:
    """Are a memory's pieces its facts? When it has no heading: ``remember`` writes the agent's
    text as it is given ("Notes from the call: …", a list of preferences), with no heading. A page
    with one — a title's ``# Priya Raman``, a project's ``## Team`` — is about its subject: its
    paragraphs as pieces took "one on one with Priya" from the 1:1's note and "on-call runbook"
    from the runbook a project page links to (adr/0004, "Facts of a memory")."""
    return not any(passage.headings for passage in passages)


def piece_head(title: str, headings: Sequence[str]) -> str:
    """A fact piece's head: its note's title and heading path, as any passage's, but a title
    that only names a day (:func:`names_a_day_only`). A piece is one fact of the day; the day's
    name is its whole passage's, where it stays ("2026-12-02" before "Parked on level 3, row F at
    the airport garage." took its cosine to "where did I park my car" from 0.438 to 0.369)."""
    if not names_a_day_only(title):
        return embed_head(title, headings)
    return " > ".join(heading for heading in headings if heading != title)


def _in_file(passage: Passage, body_line: int) -> Passage:
    """Body lines → the file's lines (what an editor shows). An empty body has no line of its
    own (a file ending with its frontmatter's ``---``): its passage is the frontmatter's lines,
    where the properties its snippet shows are."""
    if not passage.text.strip() and body_line > 1:
        return replace(passage, start_line=1, end_line=body_line - 1)
    shift = body_line - 1
    return replace(passage, start_line=passage.start_line + shift, end_line=passage.end_line + shift)


@dataclass(frozen=True)
class NoteVectors:
    note: np.ndarray  # the whole note's vector (normalised: consolidation's thresholds are cosines)
    passages: np.ndarray  # one row per passage: normalised, then scaled by the embedder's length prior


def embed_notes(embedder: Embedder, notes: Sequence[SearchableNote]) -> list[NoteVectors]:
    """Every vector of these notes, in as few embedder calls as the embedder allows."""
    if embedder.additive:
        return _by_token_sums(embedder, notes)
    return _by_embedding(embedder, notes)


def _by_token_sums(embedder: Embedder, notes: Sequence[SearchableNote]) -> list[NoteVectors]:
    import numpy as np

    from .embedders import length_factors, normalize_rows

    texts: list[str] = []
    tails: list[int] = []
    for note in notes:
        texts.append(f"{note.fields.title}\n\n")  # the start of the whole note's text: all of it counts
        tails.append(0)
        for passage, head, text in zip(note.passages, note.heads, note.embed_texts, strict=True):
            texts.append(text)
            tails.append(len(text) if passage.piece else len(head) + 2)  # the passage's own text: its share of the whole note
    sums = embedder.sums(texts, tails)
    found: list[NoteVectors] = []
    row = 0
    for note in notes:
        count = len(note.passages)
        totals = sums.totals[row + 1 : row + 1 + count]
        passages = normalize_rows(totals)
        tiles = [number for number, passage in enumerate(note.passages) if not passage.piece]  # a fact piece repeats the whole's text
        if tiles == [0] and note.embed_texts[0] == note.note_text:
            whole = passages[0]  # the passage is the whole note's text: the same direction, bit for bit (unit; its row is scaled)
        else:
            total = sums.totals[row] + sums.tail_totals[[row + 1 + number for number in tiles]].sum(axis=0)
            whole = normalize_rows(np.asarray(total, dtype=np.float32)[None, :])[0]
        found.append(NoteVectors(whole, passages * length_factors(totals, embedder.length_prior)[:, None]))
        row += 1 + count
    return found


def _whole_first(note: SearchableNote) -> bool:
    """The note's first passage embeds the whole note's text, the others (if any) are its fact pieces."""
    return note.embed_texts[0] == note.note_text and all(passage.piece for passage in note.passages[1:])


def _by_embedding(embedder: Embedder, notes: Sequence[SearchableNote]) -> list[NoteVectors]:
    texts = [text for note in notes for text in note.embed_texts]
    own = [index for index, note in enumerate(notes) if not _whole_first(note)]
    matrix = embedder.embed([*texts, *(notes[index].note_text for index in own)])
    whole_rows = dict(zip(own, range(len(texts), len(texts) + len(own)), strict=True))
    found: list[NoteVectors] = []
    row = 0
    for index, note in enumerate(notes):
        count = len(note.passages)
        passages = matrix[row : row + count]
        found.append(NoteVectors(matrix[whole_rows[index]] if index in whole_rows else passages[0], passages))
        row += count
    return found
