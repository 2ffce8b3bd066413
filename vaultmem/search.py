"""Read-time hybrid search over passages: vectors (hnswlib + exact delta) and BM25 (FTS5), fused.

Each side ranks passages and turns them into notes (ranking.py: a note's best passage plus
a quarter of its next two): the vector side asks the passage graph for the nearest
passages, then scores every passage of the notes they belong to exactly (a conversation
turn also by its windows of the turns around it, turn_windows.py); the text side
asks FTS5 for the best rows (notes with every query term first). Both sides' top 100 notes
are fused by z-score (vectors 0.55, text 0.45), and a note whose name (file name, title,
alias) is the query is lifted above the rest (ranking.name_bonus); a hit's ``score`` is the
calibrated chance that it is what was asked for, its ``match`` says which sides found it,
and its snippet is cut from its best passage, whose heading path and lines it names
(snippets.py).

Expiry is decided here, at read time, with the same rule as ``is_expired`` applied to
the epoch-microsecond column, per note, before each side keeps its top 100. Filters never
shrink the answer below ``min(k, eligible)``: the vector side widens its candidate pool,
then falls back to an exact scan of the eligible notes when filters leave few of them.
See adr/0004-hybrid-ranking.md.

Before a hit is handed out its file is looked at (one ``lstat``): a file whose size or
mtime is not what its row says was changed since it was indexed, so those files are
indexed again and the query answered again — no hit contradicts the file it names, even
when a change has not reached the index yet (adr/0021). A hit of a note git's index holds
unmerged says it is one side of an unfinished merge; git is asked only when its index file
changed (git_index.py, adr/0006).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import re
import stat as stat_module
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .arabic_script import arabic_folded
from .cjk import (
    MAX_PAIRS,
    bigrams,
    content_pairs,
    days_said,
    fts_form,
    han_folded,
    particle_beside,
    pieces,
    signs_spelled,
    width_folded,
)
from .combining import WORD
from .confidence import Evidence, Verdict, asks_first_holds, asks_standing_out, asks_word_weights, judge, word_weight
from .config import CONFIG_FILE
from .dating import (
    DEFAULT_DATE_PROPERTIES,
    DateProperties,
    calendar_day,
    shown_date,
    shown_range,
    shown_span,
    since_bound,
    until_bound,
    weekday_bound,
    weekday_said,
    worded_days_said,
)
from .day_spellings import day_term, numbered_days_said
from .endings import apostrophe_stem, folded, prefix_of, umlauts_unwritten, umlauts_written_out
from .errors import CHECK, INDEX, Argument, DerivedIndexError, IndexBusy, NoteReadError, Spelled, UsageError
from .fields import (
    ENGLISH_STOPWORDS,
    HOW_TO_VERBS,
    LONE_LETTERS,
    OTHER_STOPWORDS,
    REPORTING_VERBS,
    REQUEST_WORDS,
    REQUESTED_HOLDINGS,
    SHARED_FUNCTION_WORDS,
    STOPWORDS,
    greek_spellings,
    metadata_lines,
    name_key,
    person_asked,
    query_topics,
    starts_person_name,
    topic_key,
)
from .git_index import UnmergedWatch, unmerged_warning
from .identifiers import camel_words
from .lifecycle import from_epoch_us, is_expired_us, resolve_now, to_epoch_us
from .links import labels_first
from .marks import marks_folded
from .note_numbers import number_kind
from .notes import SUPERSEDES, is_unparsed_expiry, read_text, unparsed_expiry_warning, version_of
from .ordered import unique
from .passage_table import PassageOwners, PassageTables
from .paths import VaultPaths
from .question_forms import without_question_form
from .ranking import (
    MATCH_DEPTH,
    NEXT_PASSAGES,
    Fused,
    SideHit,
    chance_lowering,
    fuse,
    grouped_note_scores,
    grouped_scores_for_many_passages,
    hit_score,
    match_kind,
    note_scores,
)
from .results import SimilarNote
from .set_aside import set_aside, set_aside_warning
from .shown_titles import shown_title
from .snippets import Snippet, passage_snippet
from .stems import stem
from .storage import NOT_TURNS_BEFORE, PASSAGE_SPACE, TOPIC_KEY, AroundRange, Eligibility, NoteRow, PassageRow, Store
from .supersede import successors_first, with_successors
from .sync_copies import SyncCopy, named_copy, originals_first
from .template_lines import TemplateLines, read_template_texts
from .turn_windows import (
    NO_WINDOWS,
    WHOLE_WINDOWS_AT,
    HeadSums,
    Turn,
    TurnWindows,
    WindowBook,
    head_text,
    sums_by_note,
    windows_possible,
)
from .valued import valued_notes
from .vectors import SnapshotMoved, blob_to_vector

if TYPE_CHECKING:
    from .daily_format import DailyFormat
    from .embedders import Embedder
    from .git_dates import GitDates
    from .vectors import VectorIndex

SNAPSHOT_RETRIES = 5
CANDIDATES_MIN = 100  # notes per side, before fusion
ANY_TERM_BELOW = 10  # the text side adds notes holding any query word when fewer than this hold them all (any k)
# A query term held by at least this share of the full-text rows is one of the vault's common words:
# when fewer than ANY_TERM_BELOW notes hold every word, the all-words pass requires only the others
# (Searcher._relaxed_match; a manual's "obsidian", "vault", "file": benchmarks/PASSAGES.md §54 idea 7, §61).
COMMON_TERM_SHARE = 0.3
# The full-text columns a page says its words in: not ``props``, where a key every note carries (a turn's
# ``role:``, a journal's ``date:``) would make the word common without any page saying it (§61).
SAID_COLUMNS = "{name title aliases headings tags body}"
FIRST_NAME_ROWS = 200  # names starting with a first name looked at; more and the first name names no one note
MAX_ID_QUERY_CHARS = 200  # a longer query is no note's id: its lookup is skipped
# The calibration of words no note holds was fitted on vaults of 39 notes and more (the sample
# vault the smallest); in a smaller one most words of any question are missing, answers or
# not, so a missing word counts for the vault's notes / this (a guess, not a fit: adr/0004).
UNHELD_FULL_NOTES = 39
PASSAGES_PER_NOTE = 4  # passages (vector side) or rows (text side) asked for per note wanted
WIDEN_FACTOR = 4
# The query's rarest word (benchmarks/PASSAGES.md §46): a note of several passages whose best
# full-text passage lacks it keeps this share of its text-side score, when that word is held by
# at most RARE_SHARE of the full-text rows. Measured on the seven sets: 0.93–0.96 give the same
# figures (0.9 loses a docs question at hit@3); a share of 0.02–0.03 the same, 0.05 costs sample.
RAREST_MISSING = 0.95
RARE_SHARE = 0.03
WIDEN_LIMIT = 4 * WIDEN_FACTOR  # the vector side asks for up to this many times its pool, then goes exact
SIMILAR_MAX = 5  # notes `remember` names as possibly saying the same
LISTED_PASSAGES = 4  # a listed note's opening looks this many passages in for words its template does not hold
SIMILAR_OVERFETCH = 4  # other layers and expired notes take places among the nearest
VERIFY_ROUNDS = 3  # answer again at most this often when hits' files changed under them
REBUILD_WARNING = "the index is being rebuilt (`vaultmem index --rebuild` is running): results may be incomplete until it finishes"
_WORD = WORD  # a word with its combining marks (किताब), as the full text holds it
_MARKDOWN_FILE = re.compile(r"(?<=\w)\.md(?=\W*$)", re.IGNORECASE)  # the extension of a file name asked for
_POSSESSIVE = re.compile(r"(?<=\w)['’][sS]?(?=\W*$)")  # "sister's", "James'": the word is "sister", "James"
_EDGE_PUNCTUATION = "\"“”„«»‹›()[]{}.,;:!?¿¡"  # around a query word: "(S3'e)," is the word S3'e
T = TypeVar("T")


@dataclass
class HitPassage:
    """Where a hit's best passage is: its heading path and its lines in the file (1-based, inclusive)."""

    headings: list[str]
    lines: list[int]


def hit_passage(passage: PassageRow, snippet: Snippet) -> HitPassage:
    """Where the hit's snippet is: the section of the passage it was cut from, when the passage
    holds several (snippets.section_of), else the passage."""
    if snippet.section is not None:
        headings, first, last = snippet.section
        return HitPassage(list(headings), [first, last])
    return HitPassage(list(passage.headings), [passage.start_line, passage.end_line])


@dataclass
class Hit:
    id: str
    path: str
    title: str
    score: float  # the estimated chance that this note is what the query is after (ranking.py)
    layer: str | None
    expires_at: str | None
    snippet: str
    tags: list[str]
    warnings: list[str] = field(default_factory=list)
    expired: bool = False
    version: str = ""  # of the file as indexed: pass it to `revise --if-version`
    match: str = "both"  # which sides found it: both, meaning (vectors), keyword (full text)
    passage: HitPassage | None = None
    date: str | None = None  # the note's date (its date, a date in its file name, or its created: dating.py)
    date_from: str | None = None  # "git": the commit that added its file gave the date ([dates] from_git)

    def as_dict(self) -> dict[str, Any]:
        return _without_date_from(asdict(self))


class Hits(list[Hit]):
    """A search's hits, best first, and the warnings about the answer as a whole (e.g. an
    index being rebuilt): said even when there is no hit to carry them."""

    def __init__(self, hits: Iterable[Hit] = (), warnings: Iterable[str] = ()) -> None:
        super().__init__(hits)
        self.warnings = list(warnings)
        self.weak = False  # no hit may be read as an answer, and a warning says why (:meth:`doubt`)

    @property
    def confident(self) -> bool:
        """Whether the hits may be read as answers (the rule: confidence.judge, which a warning
        of :meth:`doubt` says the reason of when not). False tells an agent to say it does not
        remember rather than answer from the nearest of weak matches (adr/0004)."""
        return bool(self) and not self.weak

    def doubt(self, message: str) -> None:
        """Warn that no hit may be read as an answer (``message`` says why): not confident."""
        self.warn(message)
        self.weak = True

    def warn(self, message: str) -> None:
        """A warning about the whole answer, also put on each hit (JSON consumers read the hits)."""
        self.warnings.append(message)
        for hit in self:
            hit.warnings.append(message)


@dataclass
class Listed:
    """One note of a listing (``list``): what a hit says of its note, without a query's
    score, match or passage; ``snippet`` is the opening of its text."""

    id: str
    path: str
    title: str
    layer: str | None
    expires_at: str | None
    date: str | None
    tags: list[str]
    snippet: str
    warnings: list[str] = field(default_factory=list)
    expired: bool = False
    version: str = ""
    date_from: str | None = None  # "git": the commit that added its file gave the date ([dates] from_git)

    def as_dict(self) -> dict[str, Any]:
        return _without_date_from(asdict(self))


def _without_date_from(shown: dict[str, Any]) -> dict[str, Any]:
    """A hit or listed note as JSON: ``date_from`` only when git gave the date — said on every
    hit it would lengthen each answer an agent reads for the few vaults that date by git."""
    if shown.get("date_from") is None:
        shown.pop("date_from", None)
    return shown


class Listing(list[Listed]):
    """Notes by date, newest first (undated ones last, most recently modified first), the
    warnings about the listing as a whole, and how many more notes passed its filters."""

    def __init__(self, notes: Iterable[Listed] = (), warnings: Iterable[str] = (), more: int = 0, passed: int = 0) -> None:
        super().__init__(notes)
        self.warnings = list(warnings)
        self.more = more
        self.passed = passed  # how many notes passed the filters in all (this part, those before and after it)

    def as_dict(self) -> dict[str, Any]:
        return {"notes": [note.as_dict() for note in self], "more": self.more, "warnings": self.warnings}


@dataclass(frozen=True)
class Candidates:
    """One query's candidates: each side's top notes, and the fused order (paths known, best first)."""

    vectors: list[SideHit]
    text: list[SideHit]
    fused: list[Fused]
    paths: dict[int, str]
    words: tuple[str, ...] = ()  # the query's words as the text side asks for them (QueryWord.shown)
    unheld_words: tuple[str, ...] = ()  # those no note of the vault holds
    vault_weight: float = 1.0  # how much the vault's vocabulary says: its notes / UNHELD_FULL_NOTES, at most 1
    prefix_words: tuple[str, ...] = ()  # those no note holds whole, held by their first letters (endings.prefix_of) or stems
    stem_words: tuple[str, ...] = ()  # those of prefix_words held by their stems (stems.stem), not their first letters
    valued: frozenset[int] = frozenset()  # the candidates one of whose property values the query names (valued.py)
    every_word: bool = False  # some eligible note holds every word of the query (or a form of it: prefix_words)
    common_only: bool = False  # every word of the query is a stop word ("what is it", "who are you")
    asked: tuple[tuple[str, ...], ...] = ()  # each of ``words``' full-text terms as the text side asked for it (a held form)
    query_vector: np.ndarray | None = None  # the query's, as the vector side asked (None: not embedded)
    # The notes placed above where they ranked because they supersede a note of the answer
    # (Searcher._successors_first): the answer's verdict is not theirs to give (judged_first).
    by_succession: frozenset[int] = frozenset()
    # The answer's length: k, or more when a retired note and its successor do not both fit in k
    # (k = 1: supersede.with_successors). search answers fused[:answer_size]; explain agrees.
    answer_size: int | None = None
    # The notes named by a run of the question's words whose keyword standing was capped at that of
    # ``worded_to``, the note first by meaning (ranking.worded_ceiling): explain says so.
    worded: frozenset[int] = frozenset()
    worded_to: int | None = None

    def answer(self, k: int) -> int:
        """How many of ``fused`` the answer to a search of ``k`` holds."""
        return k if self.answer_size is None else self.answer_size

    def judged_first(self) -> Fused | None:
        """The note whose rank the answer's verdict judges: the first that holds its place by
        its own ranking. A successor brought above the retired note that matched ("Cancelled: no
        session this week" above "the Friday workshop moves online") shares no word with the
        query, and judged first it made the answer "no note matches this well"."""
        return next((item for item in self.fused if item.label not in self.by_succession), self.fused[0] if self.fused else None)

    @property
    def unheld(self) -> float:
        """The share of the query's words no note of the vault holds, weighed by how many notes
        the vault has (UNHELD_FULL_NOTES): what lowers every hit's score (ranking.probability). A
        word held by its first letters only (``prefix_words``) counts as held: a note holds a
        form of it ("annemin ilacı" of a note saying "annemi", "ilacını"; adr/0004)."""
        return self.vault_weight * len(self.unheld_words) / len(self.words) if self.words else 0.0

    @property
    def named(self) -> int:
        """How many candidates the query names (ranking.name_bonus): they share the floor of
        a named hit's score (ranking.hit_score)."""
        return sum(1 for item in self.fused if item.name_lift is not None)

    def score(self, item: Fused, calibration: tuple[float, float, float]) -> float:
        """The calibrated score of one of these candidates (ranking.hit_score)."""
        return hit_score(item, calibration, self.unheld, self.named)


def _asked_terms(word: QueryWord, by_prefix: Sequence[str], by_stems: Sequence[str]) -> tuple[str, ...]:
    """The full-text terms the text side asked ``word`` by: its stems or its first letters when no
    note holds it as written but one holds that form (``by_prefix``, ``by_stems``), else its own."""
    if word.shown in by_prefix:
        form = word.stems if word.shown in by_stems else word.prefix
        return (form,) if form is not None else word.terms
    return word.terms


def has_query_word(query: str) -> bool:
    """Does the query hold a word: a letter, a digit or a symbol (an emoji)?"""
    return any(character.isalnum() or unicodedata.category(character) == "So" for character in query)


def require_query_word(query: str, command: str) -> None:
    """Refuse a query with no letter, digit or symbol (an emoji): blank, or ``"?!"`` (``explain``,
    which explains a ranking: a search of signs alone is found as written, not ranked). Was:
    ``explain`` answering for a search that is refused."""
    if not has_query_word(query):
        raise UsageError(f"{command} needs a query with at least one word (a letter, a digit or an emoji): "
                         "a search of signs alone (`&&`) finds them as written, with nothing ranked to explain")


def require_query_text(query: str, command: str) -> None:
    """Refuse what a search cannot look for: a blank query, or one sign alone (``.``, ``?``),
    which nearly every note holds. A query of two signs or more (``&&``, ``::``, ``=>``) is
    looked for as written (Searcher.search, adr/0004 "A query of signs alone"). Was: "no
    matching notes" for a blank query, read as "the vault knows nothing of it"; and ``&&`` refused
    as "needs a word", though a programmer's notes hold it."""
    if has_query_word(query):
        return
    signs = query.strip()
    if not signs:
        raise UsageError(f"{command} needs a query with at least one word or two signs (`&&`, `::`): say what to look for")
    if len(signs) == 1:
        raise UsageError(f"{command} for the one sign {signs!r} would find nearly every note: search for it with what "
                         f"stands beside it (`a?.b`, `=>`), or list the lines that hold it with `grep -rnF -- '{signs}' VAULT`")


# The largest offset a list takes: SQLite takes no number past 2**63 - 1 (an offset of 2**63
# over MCP, which bounds it by nothing, raised OverflowError out of the storage layer), and no
# vault lists a billion notes or tasks.
MAX_OFFSET = 1_000_000_000


def require_offset(offset: object) -> None:
    """Refuse an ``offset`` that is no whole number of notes from 0 up to :data:`MAX_OFFSET`."""
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise UsageError(Argument("offset", flag="--offset"), f" is how many notes to pass over: a whole number from 0 up, "
                         f"not {offset!r}")
    if offset > MAX_OFFSET:
        raise UsageError(Argument("offset", flag="--offset"), f" is how many notes to pass over: at most {MAX_OFFSET:,}, "
                         f"not {offset}")


def require_hit_count(k: object) -> None:
    """Refuse a ``k`` that is no whole number of hits from 1 up: the Python API took 0 or -1
    and answered no hits, as if nothing matched (the CLI and MCP bound theirs already)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise UsageError(Argument("k", flag="-k"), f" is how many hits to give: a whole number from 1 up, not {k!r}")


def search_filters(layers: Iterable[str] | None, tags: Iterable[str] | None, include_expired: bool,
                   now: object, since: str | None = None, until: str | None = None, week_start: int = 0) -> Eligibility:
    """The read-time filters of a search, from its arguments (``explain`` takes the same);
    ``week_start``: the vault's first day of the week (daily_format.DailyFormat.week_start)."""
    return Eligibility.asked(to_epoch_us(resolve_now(now)), layers=layers, tags=tags, include_expired=include_expired,
                             since=since, until=until, week_start=week_start)


def weekdays_said(now: object, since: str | None = None, until: str | None = None, week_start: int = 0) -> list[str]:
    """What each bound that names a weekday was read as (dating.weekday_said: ``since 'friday' is
    Friday 2026-11-27: a weekday alone is the last one, today included, as a since bound``), said among a
    search's or a list's warnings: which Friday a person means is a choice, and an answer that
    shows only notes would not say which days it searched. Called after :func:`search_filters`
    accepted the bounds."""
    moment = resolve_now(now)
    said: list[str] = []
    first = None if since is None else since_bound(since, moment, week_start)
    if since is not None and first is not None and (found := weekday_said(since, first, moment, week_start)) is not None:
        said.append(found)
    if until is not None:
        after = first.day.date() if first is not None and since is not None and weekday_bound(since) else None
        last = until_bound(until, moment, week_start, since=first if after is not None else None)
        found = weekday_said(until, last, moment, week_start, name="until", after=after)
        if found is not None:
            said.append(found)
    return said


def undated_warning(undated: int, daily: DailyFormat, dates: DateProperties = DEFAULT_DATE_PROPERTIES,
                    git: GitDates | None = None, in_git: bool = False, imported: int = 0) -> str:
    """A search by date's word on the notes it left out for having no date: the properties
    that date a note in this vault (and where to name others: trials found Spanish and German
    vaults dated by ``fecha:`` and ``datum:``, told only of ``date:``), and — when the vault's
    daily-note format could have dated some but is not used — why, with the fix. With ``[dates]
    from_git`` on, that a note not committed yet has no date (and why git dates none, if so); off,
    in a vault with a ``.git`` of its own (``in_git``), that the setting dates its notes by git: a
    trial's TIL repository, no note of it dated, was told only of properties none of them had.
    ``imported``: how many of the ``undated`` notes an importing commit brought in (git_dates.py)."""
    named = f" (or as the daily-note format {daily.describe()} writes it)" if daily.in_use else ""
    unused = "".join(f"; {problem}" for problem in daily.problems)  # a format not used: said, with its fix
    if dates.from_git:
        unused += "; with from_git, a note's first commit dates it: one not committed yet has no date"
        if imported:  # committed, yet undated: said, or a trial's 35 such notes read as "not committed yet"
            unused += (f", nor {'does' if imported == 1 else 'do'} the {imported} {'note' if imported == 1 else 'notes'} "
                       "the commit that brought the notes into git added at once (when git began, not when they were written)")
        unused += "".join(f"; {problem}" for problem in (git.problems if git is not None else ()))
    elif in_git:
        # The exception said too: a trial on a vault `git init`ed after the fact (every vault put in
        # git late) followed the hint, and git dated none of its notes; knowing it costs a git log.
        from .git_dates import IMPORTED_NOTES

        unused += ("; the vault is in git: from_git = true in [dates] dates a note by the commit that added it, "
                   f"unless that commit added it with {IMPORTED_NOTES} or more other notes at once (a vault put in git "
                   "after its notes were written)")
    # Said on every search by date: short (a trial found 400 characters of it on each call). Each
    # shell names the bounds as it takes them: --since/--until on the command line, since/until else.
    return Spelled(f"{undated} {'note' if undated == 1 else 'notes'} without a date left out by ", Argument("since"), "/",
                   Argument("until"), f": {dates.date_said}, a day in the file name{named} or {dates.created_said} "
                   f"dates a note, as does a `Date:` line at its top ({CONFIG_FILE} [dates] names others){unused}")


def range_warning(around: AroundRange, eligibility: Eligibility) -> str | None:
    """A search by date that found fewer notes than asked: how many of the dated notes its
    other filters keep are in its range (``no note is dated 2026-11-23 … 2026-11-29``), how
    many fall outside, and the nearest date on each side — so an empty answer is told apart
    from a range that missed the notes by a day. None when no dated note is outside."""
    if not around.outside:
        return None
    since, until = (None if bound is None else from_epoch_us(bound.instant_us) for bound in (eligibility.since_us, eligibility.until_us))
    span = shown_range(since, until)
    found = (f"no note is dated {span}" if not around.inside else
             f"only {around.inside} {'note is' if around.inside == 1 else 'notes are'} dated {span}")
    outside = f"{around.outside}{' other' if around.inside else ''} dated {'note falls' if around.outside == 1 else 'notes fall'}"
    nearest = [f"{_calendar_day_of(*dated)} ({side} it)"
               for side, dated in (("before", around.before), ("after", around.after)) if dated is not None]
    return f"{found}; {outside} outside it" + (f", the nearest on {' and '.join(nearest)}" if nearest else "")


def _calendar_day_of(dated_us: int, day: bool, end_us: int | None) -> str:
    """A stored date as the calendar day a hit's ``dated`` shows (dating.calendar_day; a periodic
    note's period, ``2026-W09``)."""
    if end_us is not None:
        return shown_span(from_epoch_us(dated_us), from_epoch_us(end_us))
    return calendar_day(shown_date(from_epoch_us(dated_us), day))


@dataclass(frozen=True)
class QueryWord:
    """One word of a query as the text side asks for it: held by the vault when a note holds
    any of its ``terms``."""

    shown: str  # as the query has it (a run of Chinese or Japanese, whole)
    terms: tuple[str, ...]  # FTS5 phrases: the word, or a run's neighbouring pairs (cjk.bigrams)
    prefix: str | None = None  # an FTS5 prefix term asked instead when no note holds the word (endings.prefix_of)
    stems: str | None = None  # its stems in the vault's languages, asked before the prefix (stems.stem)
    common: bool = False  # a stop word, asked for only because the query holds no other word ("what is it")

    def by_form(self, term: str) -> QueryWord:
        """The word asked for by ``term``, its stems or its prefix (a form a note holds)."""
        return replace(self, terms=(term,), prefix=None, stems=None)


def query_words(text: str, languages: tuple[str, ...] = ()) -> list[QueryWord]:
    """:func:`_query_words`, worked out once for a query text: a search reads its query's words
    three times (the text side, the hits' passages, the passage past a note's name) — 0.2 ms
    of each search at 10,000 notes. Pure (constants only), so a cached answer is the answer."""
    return list(_cached_query_words(text, languages))


@functools.lru_cache(maxsize=64)
def _cached_query_words(text: str, languages: tuple[str, ...]) -> tuple[QueryWord, ...]:
    return tuple(_query_words(text, languages))


def _foreign_acronym(word: str) -> bool:
    """Is ``word`` (a stopword) written as an acronym (``ESTA``, ``DAS``) and a stopword of
    another language only, never of English (``IT``, ``US``, ``WHO`` stay stopwords)?"""
    return len(word) > 1 and word.isupper() and word.lower() not in ENGLISH_STOPWORDS and word.lower() in OTHER_STOPWORDS


def _query_words(text: str, languages: tuple[str, ...] = ()) -> list[QueryWord]:
    """User text → its words as FTS5 phrases; stopwords, and the words of the request a query
    opens with that name what the vault holds (``notes about``, ``tell me everything about``:
    fields.REQUESTED_HOLDINGS), dropped unless nothing is left.

    Quoting makes ``AND``, ``NEAR(``, ``c++``, a stray ``"`` or ``foo-bar`` plain words;
    a hyphenated or dotted token stays one phrase, so ``zxqv-4471`` matches exactly; a
    possessive is its word (``sister's`` is ``sister``: the tokenizer would make it the phrase
    "sister s", which a note saying "my sister" does not hold), and a word with another ending
    or an elided word by an apostrophe is its whole form or its stem (``S3'e``, ``l'équipe``:
    :func:`_either_form`). A run of a script written without spaces (Chinese, Japanese,
    Korean: cjk.py) is one word asked for by its neighbouring pairs of characters, as the full
    text holds each character. A word of a query with no English function word carries the
    prefix it is asked for by when no note holds it (endings.prefix_of; Searcher._text_side),
    and is asked for by its stems in ``languages`` too (the vault's: stems.STEMMED), as the
    full text holds a note's in its ``stems`` column: ``системы`` as itself or ``stems : "систем"``.
    """
    # ﾐﾙｸ, ＳＱＬ, العِلْمُ, ۱۴۰۲: as the full text holds them (cjk.fts_form); an Arabic mark would part a word
    typed = arabic_folded(width_folded(text))
    text = marks_folded(typed)  # ברוך, แคบหมู, Dong: marks.py
    # A word only its folding made is no stopword, nor says the query is English: Danish "før"
    # (before) and "dø" (die) are asked for as the full text holds them, "for" and "do".
    folded_only = {word.lower() for word in _WORD.findall(text)} - {word.lower() for word in _WORD.findall(typed)}
    # A day is one word, not 2026, 년, 4, 월, 12, 일 or 23, february, 2023 apart: asked for as
    # written or as notes write it otherwise (day_spellings: ISO, CJK, English, numbers). Said in
    # CJK numbers (2026년 4월 12일), in words (23 February 2023: dating.worded_days_said), in numbers.
    text, days = days_said(text)
    text, worded = worded_days_said(text)
    days += [(shown, *_iso_parts(iso)) for shown, iso in worded]
    text, numbered = numbered_days_said(text)
    days += numbered
    found: dict[tuple[str, ...], QueryWord] = {}
    for shown, year, month, day in days:
        term = day_term(shown, year, month, day)
        found.setdefault((term,), QueryWord(shown, (term,)))
    meaningful: list[QueryWord] = list(found.values())
    holdings: list[QueryWord] = []  # "notes" of "notes about X": asked for only when the query asks nothing else
    pairs_left = MAX_PAIRS
    # An English question's endings are the stemmer's: a word of it no note holds is not in the
    # vault, and its first letters only find other words ("comedy": "comedian"; measured,
    # benchmarks/PASSAGES.md §12). A question in a language whose words take endings the
    # stemmer does not know ("kira ne kadar", "annemin ilacı") holds no English function word.
    prefixes = not _says_english(typed)
    # The request a query opens with ("notes about", "tell me everything about", "my info on")
    # is not what it asks about: its words naming what the vault holds count as stopwords do.
    # "notes about mimikatz" ranked notes with a "# Notes" heading above DCSync, which names
    # mimikatz (a trial). Its verbs still count (fields.REQUESTED_HOLDINGS).
    requesting = True
    # A word in capitals in a question typed in mixed case is a name (an acronym), not another
    # language's function word: "when did I apply for the ESTA" lost ESTA (the US travel form) as
    # Spanish "esta", and with it the daily note that says "ESTA application" (a trial).
    cased = any(character.islower() for character in text)
    stopwords = _stopwords_of(typed) - folded_only
    for chunk in text.split():
        said_chunk = _POSSESSIVE.sub("", chunk)  # "sister's" would be the phrase "sister s"
        at = 0
        for piece, is_run in pieces(said_chunk):
            begins, at = at, at + len(piece)
            if is_run:
                requesting = False
                simplified = han_folded(piece)  # as the full text holds it (經期 asks for 经期)
                # A run that only asks (什么), or a particle against a word (の of Reactのhooks),
                # counts as a stopword does.
                said = [] if particle_beside(said_chunk, begins, at) else content_pairs(simplified)
                pairs = (said or bigrams(simplified))[:pairs_left]
                if not pairs:
                    continue
                pairs_left -= len(pairs)
                word, counts = QueryWord(piece, tuple(f'"{pair}"' for pair in pairs)), bool(said)
            else:
                # C++ is `cpp`, as the full text holds it (cjk.fts_form); a note's file named with its
                # .md (`GIL.md`, `Main Notes/GIL.md`) is its name, which the full text holds without it.
                spelled = signs_spelled(_MARKDOWN_FILE.sub("", piece))
                words = _WORD.findall(spelled)
                if not words:
                    continue
                # Shown as typed: explain names "C++", not "Cpp", and "src/main.rs", not "src main rs".
                signed = spelled != piece  # no prefix of it either
                start = _prefix_term(folded(words[0])) if prefixes and len(words) == 1 and not signed else None
                typed = piece.strip(_EDGE_PUNCTUATION) if signed or len(words) > 1 else words[0]
                word = QueryWord(typed, (_either_form(spelled, words),), start)
                if prefixes and languages and len(words) == 1 and not signed:
                    word = replace(word, stems=_stems_term(words[0].lower(), languages))
                lowered = words[0].lower()
                requesting = requesting and len(words) == 1 and (lowered in stopwords or lowered in REQUEST_WORDS)
                if requesting and lowered in REQUESTED_HOLDINGS:
                    holdings.append(word)
                counts = (len(words) > 1 or lowered not in stopwords or (cased and _foreign_acronym(words[0]))) \
                    and word not in holdings
            if word.terms in found:
                continue
            found[word.terms] = word
            if counts:
                meaningful.append(word)
    if all(word.shown.lower() in REQUEST_WORDS for word in meaningful):  # "show me my notes": all request
        meaningful = [word for word in found.values() if word in meaningful or word in holdings]
    return _codes_either_way(_past_how_to_verbs(meaningful) or [replace(word, common=True) for word in found.values()])


def _past_how_to_verbs(words: list[QueryWord]) -> list[QueryWord]:
    """``words`` without the how-to verbs they open with (fields.HOW_TO_VERBS: "make a box that
    stands out with a warning icon" asks for box, stands, warning, icon) — all of them when
    nothing but request words would be left ("show me my notes"). On the keyword side the verb
    matched every page that makes or shows anything, and its neighbours outranked the page that
    answers (the docs and help sets: benchmarks/PASSAGES.md §42)."""
    start = 0
    while start < len(words) and words[start].shown.lower() in HOW_TO_VERBS:
        start += 1
    rest = words[start:]
    return rest if any(word.shown.lower() not in REQUEST_WORDS for word in rest) else words


def _iso_parts(iso: str) -> tuple[int | None, int, int]:
    """``2023-02-23`` → (2023, 2, 23); ``08-13`` (a day of every year) → (None, 8, 13)."""
    numbers = [int(part) for part in iso.split("-")]
    if len(numbers) == 2:
        return None, numbers[0], numbers[1]
    return numbers[0], numbers[1], numbers[2]


_LETTERS = re.compile(r"[^\W\d_]{2,12}")
_DIGITS = re.compile(r"\d{1,4}")
_CODE = re.compile(r"([^\W\d_]{2,12})(\d{1,4})")
# A version number, with or without the v people write before it (``v0.12.0``, ``0.12.0``).
_VERSION = re.compile(r"([vV]?)(\d{1,6}(?:\.\d{1,6}){1,3})")


def _date_shaped(version: re.Match[str]) -> bool:
    """``05.09.2025`` or ``2024.01.05`` typed without a v: a day written with dots, not a version
    (three numbers, a year of four digits at one end, the others of one or two digits) — asking
    for ``v05 09 2025`` too matched nothing meant and changed the terms a day is asked by."""
    if version[1]:
        return False
    parts = version[2].split(".")
    if len(parts) != 3:
        return False
    ends = (parts[0], parts[2])
    return any(len(end) == 4 for end in ends) and sum(len(part) <= 2 for part in parts) == 2


def _codes_either_way(words: list[QueryWord]) -> list[QueryWord]:
    """A code of letters and a number (``ESC1``, ``B12``, ``iOS17``) asked for as it is typed
    with a space or a hyphen between them too, and the other way round: ``ESC 1`` and ``esc-4``
    found nothing in notes named ``ESC1`` and ``ESC4`` (the tokenizer keeps ``esc1`` one word;
    a Zettelkasten trial), and a note saying ``ESC 1`` holds no ``esc1``. Each word keeps its
    own term and gains the other spelling as an alternative, so a note holding the two words
    apart still holds both. A camelCase word (identifiers.camel_words) gains the phrase of its
    words alike."""
    joined: dict[int, list[str]] = {}
    for number, (first, second) in enumerate(itertools.pairwise(words)):
        if (_LETTERS.fullmatch(first.shown) and first.shown.lower() not in STOPWORDS and _DIGITS.fullmatch(second.shown)
                and len(first.terms) == len(second.terms) == 1):
            code = f'"{fts_form(first.shown + second.shown)}"'
            joined.setdefault(number, []).append(code)
            joined.setdefault(number + 1, []).append(code)
    found = []
    for number, word in enumerate(words):
        others = list(joined.get(number, ()))
        parts = _WORD.findall(word.shown)  # esc-4 as typed: esc, 4
        if len(word.terms) == 1 and len(parts) == 2 and _LETTERS.fullmatch(parts[0]) and _DIGITS.fullmatch(parts[1]):
            others.append(f'"{fts_form("".join(parts))}"')  # esc-4: the phrase "esc 4", or esc4
        elif len(word.terms) == 1 and (spelled := _CODE.fullmatch(word.shown)) is not None:
            others.append(f'"{fts_form(" ".join(spelled.groups()))}"')  # ESC1: esc1, or the phrase "esc 1"
        elif len(word.terms) == 1 and (version := _VERSION.fullmatch(word.shown)) is not None and not _date_shaped(version):
            # 0.12.0: as typed, or v0.12.0 (the full text holds "v0 12 0": the tokenizer keeps the v on
            # its first number), and the other way round. "when was version 0.12.0 released" ranked
            # ninth the meeting note saying "Release v0.12.0 today" (a trial of a meeting-notes vault).
            spelled_other = version[2] if version[1] else f"v{version[2]}"
            others.append(f'"{fts_form(" ".join(spelled_other.split(".")))}"')
        elif len(word.terms) == 1 and (identifier := camel_words(word.shown)) is not None:
            # PodAntiAffinity: as typed, or the phrase "pod anti affinity", which the full text holds
            # after enablePodAntiAffinity (identifiers.with_identifier_words)
            others.append(f'"{fts_form(" ".join(identifier))}"')
        found.append(word if not others else replace(word, terms=(f"({' OR '.join([*word.terms, *others])})",)))
    return found


def _prefix_term(word: str) -> str | None:
    """The FTS5 term a word no note holds is asked for by: its first letters (endings.prefix_of),
    or those of the word with its umlauts written as typed without them (``ueber``: ``uber*``,
    which holds the note's ``über``; endings.umlauts_unwritten)."""
    starts = unique(start for spelled in (word, umlauts_unwritten(word)) if spelled is not None
                    and (start := prefix_of(spelled)) is not None)
    terms = [f'"{start}"*' for start in starts]
    return None if not terms else terms[0] if len(terms) == 1 else f"({' OR '.join(terms)})"


def _stems_term(lowered: str, languages: tuple[str, ...]) -> str | None:
    """The FTS5 term of a word's Snowball stem in each of ``languages``, in the full text's
    ``stems`` column (stems.stem): ``stems : "систем"`` of ``системы``, which holds the note
    saying ``система``. None when no language stems it to anything."""
    stemmed = unique(f'stems : "{found}"' for language in languages if (found := stem(lowered, language)))
    return None if not stemmed else stemmed[0] if len(stemmed) == 1 else f"({' OR '.join(stemmed)})"


def _stopwords_of(text: str) -> frozenset[str]:
    """The stopwords of a query: all (fields.STOPWORDS), but a lone Latin letter that is a
    function word of another language (fields.LONE_LETTERS: Portuguese and Italian "e", Spanish
    "y", French "l") only in a query holding another function word of those languages. "vitamin
    e" asked for "vitamin" alone; "o que é a vitamina e" still leaves its "e" out."""
    said = {word.lower() for word in _WORD.findall(text)}
    foreign = any(len(word) > 1 for word in said & (OTHER_STOPWORDS - ENGLISH_STOPWORDS))
    return STOPWORDS if foreign else STOPWORDS - LONE_LETTERS


def _says_english(text: str) -> bool:
    """Whether ``text`` holds an English function word. The ending after an apostrophe is not
    one: "Zeynep'in" (Zeynep's) and "İstanbul'a" (to Istanbul) hold no "in" or "a", and read so
    they turned first letters off for the query's other words (endings.apostrophe_stem). Nor is
    a word other languages share with English (fields.SHARED_FUNCTION_WORDS: "me", "a", "no")
    in a question that holds a function word of another language too: "qué me falta resumir"
    is Spanish, "a cache on Linux" still English."""
    said: set[str] = set()
    for chunk in text.split():
        stem = apostrophe_stem(chunk.strip(_EDGE_PUNCTUATION))
        said.update(word.lower() for word in _WORD.findall(chunk if stem is None else stem))
    english = said & ENGLISH_STOPWORDS
    if english - SHARED_FUNCTION_WORDS:
        return True
    return bool(english) and not said & (OTHER_STOPWORDS - ENGLISH_STOPWORDS)


def _either_form(piece: str, words: Sequence[str]) -> str:
    """A query word's FTS5 term: the phrase of its ``words``, or — for a word cut by an
    apostrophe into a stem and an ending or an elided word (endings.apostrophe_stem: ``S3'e``,
    ``Zeynep'in``, ``l'équipe``) — that phrase or the stem alone. Was the phrase only: "s3 e",
    which a note saying "S3" does not hold (a trial on a Turkish vault). A note holding the
    whole form matches both and ranks above one holding the stem alone (``O'Brien``).

    A word with an umlaut is also its phrase with them written out (endings.umlauts_written_out):
    ``Händler`` found nothing in a note saying ``Haendler`` (a trial on a German vault)."""
    phrase = '"' + fts_form(" ".join(words)) + '"'
    forms = [phrase]
    written = umlauts_written_out(" ".join(words))
    if written is not None:
        forms.append('"' + fts_form(written) + '"')
    stem = apostrophe_stem(piece.strip(_EDGE_PUNCTUATION)) if len(words) == 2 else None
    if stem is not None and stem.lower() not in STOPWORDS:  # "qu'il" is not "qu"
        forms.append(f'"{fts_form(stem)}"')
    if len(words) == 1 and (short := _SHORT_IE_VERB.fullmatch(words[0])) is not None:
        root = short.group(1).lower()
        forms = list(dict.fromkeys([*forms, *(f'"{root}{ending}"' for ending in ("ie", "ies", "ying"))]))
    return forms[0] if len(forms) == 1 else f"({' OR '.join(forms)})"


# FTS5's Porter stemmer gives a short verb in -ie three stems: die → "die", dies and died → "di",
# dying → "dy" (Snowball's English makes them all "die"). So "what did Ilse die of" found no note
# saying "Aunt Ilse dies of a fever" — `explain` said no note held "die" (a trial on a novel's
# chapters). Such a word is asked for in the three forms; lie, tie, pie, vie alike.
_SHORT_IE_VERB = re.compile(r"([b-df-hj-np-tv-z]{1,2})(?:ie|ies|ied|ying)", re.IGNORECASE)


def query_terms(text: str) -> list[str]:
    """The FTS5 phrases of a query's words (:func:`query_words`), each once."""
    return unique(term for word in query_words(text) for term in word.terms)


class Searcher:
    """Answers queries for one vault from one thread (owns its vector readers)."""

    def __init__(self, paths: VaultPaths, store: Store, embedder: Embedder,
                 resync: Callable[[Sequence[str]], bool] | None = None) -> None:
        from .vectors import VectorIndex

        self.paths = paths
        self.store = store
        self.embedder = embedder
        self.resync = resync  # index these paths again; True if a note changed
        self.passage_vectors = VectorIndex(store, embedder.dimension, PASSAGE_SPACE)
        self.passage_table = PassageTables(store)  # passages' notes and notes' expiry, in memory (passage_table.py)
        self._note_vectors: VectorIndex | None = None  # loaded only for the similar-note check
        # The turns' windows (turn_windows.py) of one state of the index (its change token): brought
        # up to it after any commit — the turns written since (the store's feed, after ``_turns_seen``
        # of its epoch) and their neighbours — so a turn's edit reaches its neighbours' windows by the
        # next search, and an unrelated commit costs one look-up.
        self._windows: tuple[tuple[int, int] | None, WindowBook | TurnWindows] = (None, NO_WINDOWS)
        self._book: WindowBook | None = None
        self._turns_seen: tuple[str, int] = ("", -1)
        self._head_sums = HeadSums()  # the heads of turns the store holds none for (an index of before stop 41)
        self.windows_made = 0  # how many times every window was made (tests: a change is seen, no change costs nothing)
        self.windows_remade = 0  # how many turns' windows were made again after a change (tests: only around it)
        self.heads_embedded = 0  # turns' heads the index held no sum of, embedded here (tests: none in a new process)
        # The stemmed languages of one state of the index (:meth:`languages`), kept until any commit.
        self._languages: tuple[tuple[int, int] | None, tuple[str, ...]] = (None, ())
        self._text_rows: tuple[tuple[int, int] | None, int] = (None, 0)
        self.unmerged = UnmergedWatch(paths.root)  # asks git again only when its index changed

    def query_vector(self, query: str) -> np.ndarray:
        """The query's vector as the meaning side asks with it: the question form it opens with
        left out (question_forms.py: "how do I write a table" is embedded as "write a table").
        Without it, "how do I" weighed as much as the words naming the topic in a mean of token
        vectors. Search and explain both ask through here, so explain shows search's cosines."""
        vector: np.ndarray = self.embedder.embed([without_question_form(query)])[0]
        return vector

    @property
    def note_vectors(self) -> VectorIndex:
        """Whole-note vectors (the similar-note check); search itself never loads them."""
        if self._note_vectors is None:
            from .vectors import VectorIndex

            self._note_vectors = VectorIndex(self.store, self.embedder.dimension)
        return self._note_vectors

    @property
    def vector_indexes(self) -> list[VectorIndex]:
        """The vector readers this searcher has opened (to collect what they set aside)."""
        return [self.passage_vectors, *([self._note_vectors] if self._note_vectors is not None else [])]

    def search(self, query: str, k: int, eligibility: Eligibility) -> Hits:
        """The best ``k`` eligible notes; each hit says what its file says now. A search by
        date says how many notes it left out for having no date (a filter that leaves out
        what it cannot judge says so)."""
        hits = self._verified(query, k, eligibility)
        self._absent_successors(hits, eligibility)
        if k > 0 and query.strip():
            hits.warnings.extend(self._date_warnings(len(hits), k, eligibility))
            hits.warnings.extend(self._tag_warnings(len(hits), eligibility))
        self._mark_unmerged(hits, hits.warnings)
        return hits

    def listing(self, k: int, eligibility: Eligibility, offset: int = 0) -> Listing:
        """``k`` eligible notes by date from the ``offset``-th, newest first (Listing), each as
        its file says now: the caller brought the index in line with the files first."""
        rows, total = self.store.notes.by_date(eligibility, offset + k)
        rows = rows[offset:]
        firsts = self.store.passages.of_notes([row.label for row in rows if row.label is not None])
        listed = []
        dendron = labels_first(self.paths.root)
        # Each note's opening past its template's lines: a journal's days all open alike.
        templates = read_template_texts(self.paths.root, self.paths.exclusions) if rows else []
        template = TemplateLines.of(templates) if templates else None
        for row in rows:
            warnings, expired = self._row_warnings(row, eligibility)
            passages = firsts.get(row.label) if row.label is not None else None
            snippet = self._snippet(row, passages[0] if passages else None, "", warnings, dendron, template,
                                    passages[1:LISTED_PASSAGES] if passages else ())
            listed.append(Listed(id=row.id, path=row.path, title=shown_title(row.title, row.path), layer=row.layer,
                                 expires_at=None if row.permanent else row.expires_at, date=row.date, tags=row.tags,
                                 snippet=snippet.text, warnings=unique(warnings), expired=expired,
                                 version=version_of(row.content_hash), date_from=row.dated_from))
        # The listing shows its range whole: where the other dated notes lie is said only when it is empty.
        found = offset + len(listed)  # "nothing passed" is said of an empty list, not of a part past its end
        listing = Listing(listed, [*self._date_warnings(found, 1, eligibility), *self._tag_warnings(found, eligibility)],
                          more=max(total - found, 0), passed=total)
        self._mark_unmerged(listing, listing.warnings)
        return listing

    def _tag_warnings(self, found: int, eligibility: Eligibility) -> list[str]:
        """An empty answer filtered by tag: whether each tag asked for exists at all, and the
        nearest tags for one that does not (tag_hints.py). Was: ``list --tag typo`` said only
        "no notes", as for a tag whose notes the other filters left out."""
        if found or not eligibility.tags:
            return []
        from .tag_hints import tag_warnings

        return tag_warnings(eligibility.tags, self.store.notes.tag_names())

    def _mark_unmerged(self, found: Sequence[Hit | Listed], warnings: list[str]) -> None:
        """Warn on each of ``found`` git's index holds unmerged without markers in its file (a
        marker conflict is said already, by its ``conflict`` problem): it is one side of the
        person's merge, read as the note. Git is asked only when its index changed (git_index.py).
        A git that cannot answer is said in ``warnings``: "could not ask" is not "none"."""
        if not found:
            return
        unmerged = self.unmerged.now()
        if unmerged.problem is not None:
            warnings.append(unmerged.problem)
        for item in found:
            if item.path in unmerged.paths and not any(warning.startswith("conflict: ") for warning in item.warnings):
                item.warnings.append(unmerged_warning())

    def _date_warnings(self, found: int, k: int, eligibility: Eligibility) -> list[str]:
        """A read by date's word on what it left out: where the other dated notes lie when the
        range held fewer than ``k`` (a count scan, paid only then: without it an empty week read
        like a vault that knows nothing), and how many notes have no date."""
        if not eligibility.dated:
            return []
        warnings = []
        around = range_warning(self.store.notes.around_range(eligibility), eligibility) if found < k else None
        if around is not None:
            warnings.append(around)
        undated = self.store.notes.count_undated(eligibility.undated)
        if undated:
            git = self.paths.git_dates
            # Of the notes left out, those an importing commit brought in: was the whole commit's
            # count (a trial's 118, templates and daily notes dated by their names among them, beside 38 left out).
            imported = (self.store.notes.count_undated_among(eligibility.undated, git.imported)
                        if git is not None and git.enabled and git.imported else 0)
            warnings.append(undated_warning(undated, self.paths.daily, self.paths.dates, git,
                                            (self.paths.root / ".git").exists(), imported))
        return warnings

    def _verified(self, query: str, k: int, eligibility: Eligibility) -> Hits:
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

    def candidates(self, query: str, k: int, eligibility: Eligibility, pool: int | None = None) -> Candidates:
        """Both sides' candidates for ``query`` and their fused order, as ``search`` ranks them
        (``pool``: notes per side, at least max(CANDIDATES_MIN, k) — more for the ranking harness)."""
        return self._consistent(lambda: self._candidates(query, k, eligibility, pool))

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
        return [SimilarNote(other.id, other.path, shown_title(other.title, other.path), round(score, 3), other.layer)
                for other, score in close]

    def _consistent(self, read: Callable[[], T]) -> T:
        # One read transaction for every step: a note deleted by another process between
        # the candidate lists and the row lookups would otherwise vanish mid-query.
        for _attempt in range(SNAPSHOT_RETRIES):
            try:
                with self.store.read_snapshot():
                    return read()
            except SnapshotMoved:
                continue  # a fold or rebuild replaced the vector file mid-query: start again
        raise DerivedIndexError(Spelled(
            f"the vector snapshot in {self.store.state_dir} kept changing during the search; try again, or, if it "
            "persists, ", INDEX))

    def _similar(self, label: int, threshold: float, eligibility: Eligibility, k: int) -> list[tuple[NoteRow, float]]:
        stored = self.store.vectors.for_labels([label])
        if not stored:
            return []
        vector = blob_to_vector(stored[0][1])
        # Other layers and expired notes take places among the nearest: ask for more.
        close = [(other, score) for other, score in self.note_vectors.search(vector, SIMILAR_OVERFETCH * k + 1)
                 if other != label and score >= threshold]
        eligible = self.store.notes.eligible_labels([other for other, _ in close], eligibility)
        rows = self.store.notes.by_labels([other for other, _ in close if other in eligible])
        return [(rows[other], score) for other, score in close if other in rows][:k]

    # -- one query

    def _search(self, query: str, k: int, eligibility: Eligibility) -> tuple[Hits, list[NoteRow]]:
        if not has_query_word(query):
            return self._literal_search(query.strip(), k, eligibility)
        found = self._candidates(query, k, eligibility)
        ordered = found.fused[:found.answer(k)]
        rows = self.store.notes.by_labels([item.label for item in ordered])
        best = self._best_passages(found, ordered, query)
        calibration = self.embedder.score_calibration
        dendron = labels_first(self.paths.root)  # asked once for the hits, not once a hit
        hits = Hits(
            self._hit(rows[item.label], found.score(item, calibration), match_kind(item.vector_rank, item.text_rank, k),
                      best.get(item.label), query, eligibility, dendron)
            for item in ordered
        )
        if self.store.meta.rebuild_state() == "running":
            hits.warn(REBUILD_WARNING)
        judged = found.judged_first()
        verdict = self.judge_answer(found, found.score(judged, calibration) if hits and judged is not None else None)
        if verdict.warning is not None and hits:
            hits.doubt(verdict.warning)
        return hits, [rows[item.label] for item in ordered]

    def _literal_search(self, signs: str, k: int, eligibility: Eligibility) -> tuple[Hits, list[NoteRow]]:
        """A query of signs alone (``&&``, ``::``): the notes whose text holds it as written, most
        often first (PassageStore.literal), each scored 1 — it holds what was asked for, and
        neither the meaning of ``&&`` nor its rank among words says more. The full text keeps
        words only and a vector of ``::`` is noise, so neither side is asked (adr/0004)."""
        matched = note_scores(self.store.passages.literal(signs, eligibility, PASSAGES_PER_NOTE * k, PASSAGES_PER_NOTE), k)
        rows = self.store.notes.by_labels([hit.label for hit in matched])
        passages = self.store.passages.by_labels([hit.passage for hit in matched])
        dendron = labels_first(self.paths.root)
        kept = [hit for hit in matched if hit.label in rows]
        hits = Hits(self._hit(rows[hit.label], 1.0, "keyword", passages.get(hit.passage), signs, eligibility, dendron)
                    for hit in kept)
        if self.store.meta.rebuild_state() == "running":
            hits.warn(REBUILD_WARNING)  # as every search: an answer from a part of the notes says so
        hits.warn(f"{signs!r} holds no word: the notes whose text holds it as written, those that hold it most often first")
        return hits, [rows[hit.label] for hit in kept]

    def _candidates(self, query: str, k: int, eligibility: Eligibility, pool: int | None = None) -> Candidates:
        pool = max(CANDIDATES_MIN, k, pool or 0)
        query_vector = self.query_vector(query)
        vectors = self._vector_side(query_vector, pool, eligibility)
        words = query_words(query, self.languages())
        text, unheld, by_prefix, by_stems, every_word = self._text_side(words, pool, eligibility)
        text = self._rarest_word_asked(words, text)
        proposed = {hit.label for hit in (*vectors, *text)}
        valued = valued_notes(query, self.passage_table.properties_of(sorted(proposed)))
        named = self._named(query, eligibility)
        meaning_first = vectors[0].label if vectors else None
        worded_topics = self._named_by_words(query, text[:MATCH_DEPTH], named, meaning_first)
        answering = self._answering_pages(worded_topics, words, [_asked_terms(word, by_prefix, by_stems) for word in words],
                                          vectors[0] if vectors else None)
        worded = frozenset(label for label in worded_topics if label not in answering)
        fused = fuse(vectors, text, pool, named, standard=CANDIDATES_MIN, valued=valued, worded=worded)
        text_place = {hit.label: place for place, hit in enumerate(text[:CANDIDATES_MIN])}  # fuse's standard pool
        if meaning_first is None or meaning_first in worded or meaning_first not in text_place:
            worded = frozenset()  # ranking.worded_ceiling left every value as it was
        else:  # those it lowered: the ones the text side stood above the first by meaning
            worded = frozenset(label for label in worded if text_place.get(label, len(text)) < text_place[meaning_first])
        paths = self.passage_table.current().paths_by_labels([item.label for item in fused])
        # Labels come from the same snapshot as `paths`; one missing here is a vector of a
        # note deleted before this query began.
        # The person's archive folder says what was so (set_aside.py): without this the old
        # landlord answered before the current one (a trial).
        slope = self.embedder.score_calibration[1]
        alive = sorted((set_aside(item, paths[item.label], slope) for item in fused if item.label in paths),
                       key=lambda item: (-item.value, paths[item.label]))
        placed = originals_first(alive, lambda item: paths[item.label], self._copy_of_text)
        alive, answer_size, standing_in = self._successors_first(placed, k)
        was = {item.label: place for place, item in enumerate(placed)}
        by_succession = frozenset(item.label for place, item in enumerate(alive[:answer_size])
                                  if place < was[item.label] and item.label in standing_in)
        alive = _scored_in_order(alive)
        weight = min(1.0, self.store.notes.count_at_most(UNHELD_FULL_NOTES) / UNHELD_FULL_NOTES) if unheld else 1.0
        return Candidates(vectors, text, alive, paths, tuple(word.shown for word in words), unheld, weight, by_prefix, by_stems,
                          frozenset(valued), every_word, bool(words) and all(word.common for word in words),
                          tuple(_asked_terms(word, by_prefix, by_stems) for word in words), query_vector, by_succession,
                          None if answer_size == k else answer_size, worded, meaning_first if worded else None)

    def _rarest_word_asked(self, words: Sequence[QueryWord], text: list[SideHit]) -> list[SideHit]:
        """The text side's notes of several passages whose best passage lacks the query's rarest
        word, lowered to RAREST_MISSING of their score (benchmarks/PASSAGES.md §46, adr/0004).
        A manual's neighbouring or hub page matched on "note", "link", "another" spread over
        its sections stood a tenth above the page whose section holds the one telling word
        ("paragraph", "visitors", "weeks"). Only a word held by at most RARE_SHARE of the
        full-text rows is the telling one: in a vault of forty rows a word two hold is no rarer
        than one four hold (sample's "on-call runbook for pipeline failures" lost its runbook,
        which never says "pipeline"). A note of one passage is left as it is: a conversation's
        turn or a short note holds its words or not, and its one row's BM25 already says which
        (lowering them cost the conversations a first hit and a turn of the ten)."""
        if len(text) < 2:
            return text
        counts = self.passage_table.current().counts([hit.label for hit in text])
        long_notes = [hit for hit in text if counts.get(hit.label, 0) > 1]
        if not long_notes:
            return text
        rarest = self._rarest_term(words)
        if rarest is None:
            return text
        holding = self.store.passages.fts_holding(rarest, [hit.passage for hit in long_notes])
        lowered = {hit.label for hit in long_notes if hit.passage not in holding}
        if not lowered:
            return text
        scored = [SideHit(hit.label, hit.score * RAREST_MISSING, hit.passage) if hit.label in lowered else hit for hit in text]
        return sorted(scored, key=lambda hit: (-hit.score, hit.label))

    def _rarest_term(self, words: Sequence[QueryWord]) -> str | None:
        """The term of the query's words (not its stop words) that the fewest full-text rows
        hold, when at least two of its terms are held and that one by at most RARE_SHARE of the
        rows; else None. One count a term."""
        terms = [term for word in words if not word.common for term in word.terms]
        if len(terms) < 2:
            return None
        # Counted up to the share only: a word most rows hold ("file" in a manual) is not
        # counted through, which took a docs query's step from 1.1 ms to a fraction of it.
        limit = int(RARE_SHARE * self.text_rows()) + 1
        held = [(count, term) for term in terms if (count := self.store.passages.count_matching_at_most(term, limit)) > 0]
        if len(held) < 2:
            return None
        count, term = min(held)
        return term if count < limit else None

    def _successors_first(self, ranked: list[Fused], k: int) -> tuple[list[Fused], int, frozenset[int]]:
        """``ranked`` with, among its first ``k`` (the answer), each note above the notes it
        supersedes (supersede.successors_first), and the successor of a retired note of the answer
        brought into it when it ranked lower (supersede.with_successors). One look-up of the notes
        that list the answer's notes in ``supersedes`` (k labels); a second, of the pairs among the
        answer and those successors, only when the pool holds one. A retired note is expired, so
        only a search with ``include_expired`` (or as of an earlier instant) holds both. With the answer's length:
        ``k``, or more when ``k`` cannot hold a retired note and its successor; and the successors
        of the answer that stand above a note of it they replace (:func:`_above_replaced`)."""
        if k < 1 or len(ranked) < 2:
            return ranked, k, frozenset()
        pool = {item.label for item in ranked}
        # No note supersedes a note of the answer (nearly every query): one look-up of k labels.
        successors = {successor for successor, _ in self.store.notes.listed_by([item.label for item in ranked[:k]], SUPERSEDES)
                      if successor in pool}
        if not successors:
            return ranked, k, frozenset()
        replacing = self.store.notes.replacing([item.label for item in ranked[:k]] + sorted(successors), SUPERSEDES)
        answer, rest = with_successors(ranked, k, replacing, lambda item: item.label)
        placed = successors_first(answer, replacing, lambda item: item.label)
        above = _above_replaced(placed, replacing)
        return [*_standing_in(placed, above), *rest], max(len(answer), k), frozenset(above)

    def judge_answer(self, found: Candidates, best_score: float | None) -> Verdict:
        """Whether the answer whose first hit is ``found.fused[0]`` (scoring ``best_score``;
        None: no hit) may be read as an answer (confidence.judge). The words the first hit holds
        are looked up only when the rule needs them (confidence.asks_first_holds)."""
        first = found.judged_first()
        similarity = None if first is None else next((hit.score for hit in found.vectors if hit.label == first.label), None)
        rank = None if first is None else first.vector_rank
        if first is not None and similarity is not None:
            similarity, rank = self._without_pieces(found, first.label, similarity, rank)
        evidence = Evidence(best_score=best_score, words=found.words, any_word_held=bool(found.text),
                            every_word=found.every_word, named=found.named > 0, common_only=found.common_only,
                            first_by_meaning=rank == 1, first_similarity=similarity,
                            meaning_floor=self.embedder.meaning_floor, first_meaning_rank=rank,
                            by_first_letters=tuple(word for word in found.prefix_words if word not in found.stem_words),
                            asked=found.asked, next_score=self._next_score(found, first))
        weighs = asks_word_weights(evidence) or asks_standing_out(evidence)
        if first is not None and (weighs or asks_first_holds(evidence)):
            evidence = replace(evidence, first_holds=self._words_held(found, first.label))
        if first is not None and weighs:
            evidence = replace(evidence, word_weights=self._word_weights(found))
        return judge(evidence)

    def _next_score(self, found: Candidates, first: Fused | None) -> float | None:
        """The score of the answer's hit after ``first`` (confidence rule 8), or None."""
        if first is None:
            return None
        place = next((place for place, item in enumerate(found.fused) if item.label == first.label), None)
        if place is None or place + 1 >= len(found.fused):
            return None
        return found.score(found.fused[place + 1], self.embedder.score_calibration)

    def _without_pieces(self, found: Candidates, label: int, similarity: float, rank: int | None) -> tuple[float, int | None]:
        """The first hit's score and rank on the meaning side as the confidence rules were measured
        on them (5–7: benchmarks/PASSAGES.md §30, §35), when its best passage there is one of its
        fact pieces (passages.fact_pieces): a day's whole passage scored alone, as a note of one
        passage is, ranked among the side's other notes. A piece is one short fact: a question
        nothing answers stands nearer one of them than the whole day, and read as the nearest in
        meaning it read confident (a daily vault's made-up questions, 8 → 14 of 24). A piece ranks
        its note; the verdict reads the day. The same numbers as before for every other note."""
        best = next((hit.passage for hit in found.vectors if hit.label == label), None)
        if best is None or found.query_vector is None:
            return similarity, rank
        shown = self.store.passages.by_labels([best]).get(best)
        if shown is None or not shown.piece:
            return similarity, rank
        whole = self.store.passages.of_notes([label]).get(label, [])
        if not whole:
            return similarity, rank
        scored, scores = self.passage_vectors.scores_of(found.query_vector, [whole[0].label])
        if not scored:
            return similarity, rank
        own = float(scores[0]) - chance_lowering(1, self.embedder.chance_spread)
        return own, 1 + sum(1 for hit in found.vectors if hit.label != label and hit.score > own)

    def _word_weights(self, found: Candidates) -> tuple[float, ...]:
        """Each of the query's words' weight (confidence.word_weight): how many full-text rows hold it
        in the form the text side asked (a word no note holds: none), one full-text count a word."""
        rows = self.store.passages.text_rows()
        return tuple(word_weight(0 if word in found.unheld_words or not terms else
                                 self.store.passages.count_matching(" OR ".join(terms)), rows)
                     for word, terms in zip(found.words, found.asked, strict=True))

    def _words_held(self, found: Candidates, label: int) -> tuple[str, ...]:
        """The query's words note ``label`` holds, in a form the text side asked for (a word no
        note holds, none): one full-text look-up a word, over that note's passages. Not in the turns
        said before it (turns.py): a reply does not hold the words of the question it answers."""
        passages = self.store.passages.labels_of([label])
        return tuple(word for word, terms in zip(found.words, found.asked, strict=True)
                     if word not in found.unheld_words and terms
                     and self.store.passages.fts_holding(f"{NOT_TURNS_BEFORE}({' OR '.join(terms)})", passages))

    def _named(self, query: str, eligibility: Eligibility) -> list[int]:
        """The notes the query asks for by name (the name bonus): those one of whose names the
        query is, else those one of whose names it is in a question's words ("who is Kevin
        Kelly", "tell me about Kevin Kelly": fields.query_topics)."""
        key = name_key(query)
        named = self.store.notes.labels_named(key, eligibility) if key else []
        if not named:
            named = self._named_by_id(query.strip(), eligibility)
        for topic in () if named else query_topics(query):
            named = self.store.notes.labels_named(topic, eligibility, kind=TOPIC_KEY)
            if named:
                break
        if not named and key:
            named = self._named_in_greek(key, query, eligibility)
        if not named and (first_words := person_asked(query)):
            # "who is Steph": the one note whose name is the words asked and at most two more
            # ("Steph Ango"); two such notes ("Steph Ango", "Steph Curry") and the query names neither.
            rows = self.store.notes.topics_starting(first_words, eligibility, limit=FIRST_NAME_ROWS)
            found = {label for label, topic in rows if starts_person_name(topic, first_words)}
            named = sorted(found) if len(found) == 1 and len(rows) < FIRST_NAME_ROWS else []
        return named

    def _named_by_words(self, query: str, text: Sequence[SideHit], named: Collection[int],
                        meaning_first: int | None = None) -> dict[int, list[str]]:
        """Of the text side's ``text`` notes, those the query names by a run of its words and not
        whole (fields.topic_key: "what was Keiko's reading tip" is ``keiko reading tip``, and
        names `People/Keiko.md`, topic ``keiko``): ranking.worded_ceiling. A note named by the
        whole query (``named``: the name bonus) is the note asked for, and is left out. Each with
        those of its topic keys the query says."""
        asked = topic_key(query).split()
        labels = [hit.label for hit in text if hit.label not in named]
        if len(asked) < 2 or not labels:
            return {}
        keys = self.store.notes.topic_keys_of(labels)
        worded = {label: [topic for topic in topics if _run_in(topic.split(), asked) and not _asks_for_the_page(topic.split(), asked)]
                  for label, topics in keys.items()}
        worded = {label: topics for label, topics in worded.items() if topics}
        if not worded or meaning_first is None or meaning_first in worded:
            return worded
        # The ceiling weighs a note named by the question against the note the meaning side puts
        # first *as an answer about that name* (the day that says "Keiko" and the tip). A first by
        # meaning that never says the name is about something else: "wie funktioniert der
        # Kasiski-Test" put `Kasiski-Test.md` below `Hash-Funktion.md` (a German verb's first letters).
        rows = self.store.passages.labels_of([meaning_first])
        return {label: topics for label, topics in worded.items()
                if any(self.store.passages.fts_holding(_phrase_of(topic), rows) for topic in topics)}

    def _answering_pages(self, worded: Mapping[int, Sequence[str]], words: Sequence[QueryWord],
                         asked: Sequence[tuple[str, ...]], meaning_best: SideHit | None) -> set[int]:
        """Of the ``worded`` pages (:meth:`_named_by_words`), those that answer the question
        themselves, which ranking.worded_ceiling must not lower: one of the page's passages holds
        every word of the question outside its name (each by the terms the text side ``asked``),
        and the passage by which the meaning side put its first note first (``meaning_best``)
        holds none of them — that note is near the question only by the name, so the meaning side
        has not told which note answers. Was (s43 review): "who is Priya's partner" ranked a day
        whose fact "Priya and I reviewed the onboarding flow" is near by "Priya" alone above
        `Priya.md` saying "Her partner is Ben". A first by meaning holding another word asked
        keeps the ceiling: "how do I deploy Harbor to production" still answers with the procedure
        "How Maya deploys Harbor", not the project page that also says "deploy" and "production"
        (benchmarks/PASSAGES.md §55)."""
        if meaning_best is None or meaning_best.label in worded:
            return set()
        answering: set[int] = set()
        for label, topics in worded.items():
            others = _words_outside(topics, words, asked)
            if not others or self._passage_holds_any(meaning_best.passage, [term for terms in others for term in terms]):
                continue
            every = " AND ".join(f"({' OR '.join(terms)})" for terms in others)
            if self.store.passages.fts_holding(f"{NOT_TURNS_BEFORE}({every})", self.store.passages.labels_of([label])):
                answering.add(label)
        return answering

    def _passage_holds_any(self, passage: int, terms: Sequence[str]) -> bool:
        """Whether passage ``passage`` holds one of the full-text ``terms`` in what its vector is made
        of: its row (its note's names and properties too); for a fact piece, which has no row, its
        own lines of its note's whole passage, or its note's title (passages.piece_text)."""
        either = " OR ".join(terms)
        row = self.store.passages.by_labels([passage]).get(passage)
        if row is None or not row.piece:
            return bool(self.store.passages.fts_holding(f"{NOT_TURNS_BEFORE}({either})", [passage]))
        whole = self.store.passages.of_notes([row.note_label]).get(row.note_label, [])
        if not whole:
            return False
        first = whole[0]
        if self.store.passages.fts_holding(f"{{title}} : ({either})", [first.label]):
            return True
        own = range(row.start_line - first.start_line, row.end_line - first.start_line + 1)
        return any(line in own for line in self.store.passages.body_lines_holding(either, first.label))

    def _named_by_id(self, wanted: str, eligibility: Eligibility) -> list[int]:
        """The notes whose id the query is as written (``id: 202403141205``, a memory's id), else,
        for a Zettelkasten timestamp id or a Johnny.Decimal id (note_numbers.py), those whose file
        name begins with it, as ``get`` finds them. Was: ``11.01`` or ``202403141205`` asked alone
        named no note, and a note that mentions the number ranked above the one it names (a trial)."""
        if not wanted or len(wanted) > MAX_ID_QUERY_CHARS:
            return []
        named = self.store.notes.labels_with_id(wanted, eligibility)
        if not named and number_kind(wanted) is not None:
            named = self.store.notes.labels_numbered(wanted, eligibility)
        return named

    def _named_in_greek(self, key: str, query: str, eligibility: Eligibility) -> list[int]:
        """The notes the query names once the Greek letters it spells out are written as letters
        ("pi-system" names `π-system.md`, "lambda system" `λ-system.md`: fields.greek_spellings);
        asked only when the query as typed names no note."""
        for each in greek_spellings(key):
            named = self.store.notes.labels_named(each, eligibility)
            if named:
                return named
        for each in (each for topic in query_topics(query) for each in greek_spellings(topic)):
            named = self.store.notes.labels_named(each, eligibility, kind=TOPIC_KEY)
            if named:
                return named
        return []

    def _best_passages(self, found: Candidates, ordered: Sequence[Fused], query: str) -> dict[int, PassageRow]:
        vector_best = {hit.label: hit.passage for hit in found.vectors}
        text_best = {hit.label: hit.passage for hit in found.text}
        pairs = {item.label: (vector_best.get(item.label), text_best.get(item.label)) for item in ordered}
        chosen = self.best_passages(pairs, query)
        rows = self.store.passages.by_labels([passage for passage in chosen.values() if passage is not None])
        shown = {note: rows[passage] for note, passage in chosen.items() if passage is not None and passage in rows}
        return self._whole_for_pieces(shown)

    def _whole_for_pieces(self, shown: dict[int, PassageRow]) -> dict[int, PassageRow]:
        """A fact piece (passages.fact_pieces) ranks its note by meaning; the hit shows the note's
        whole passage, as it did before pieces: a short note reads whole, in its own order (a
        list of steps or a drawing's labels cut to one of them lost what the snippet showed)."""
        pieces = [note for note, row in shown.items() if row.piece]
        if not pieces:
            return shown
        wholes = self.store.passages.of_notes(pieces)
        return {note: wholes[note][0] if row.piece and wholes.get(note) else row for note, row in shown.items()}

    def best_passages(self, pairs: dict[int, tuple[int | None, int | None]], query: str) -> dict[int, int | None]:
        """The passage each hit shows, from (the vector side's best, the text side's best) per note:
        the vector side's, unless the text side's matches the query better in its own headings
        and text (not only through the note's name or properties, which every row of the note
        carries): a person can check that one. One full-text query for all the hits."""
        terms = query_terms(query)
        disputed = [label for first, second in pairs.values() if first is not None and second is not None and first != second
                    for label in (first, second)]
        own = self.store.passages.fts_scores(f"{{headings body}} : ({' OR '.join(terms)})", disputed) if disputed and terms else {}
        chosen: dict[int, int | None] = {}
        for note, (by_meaning, by_words) in pairs.items():
            if by_meaning is None or by_words is None:
                chosen[note] = by_meaning if by_meaning is not None else by_words
            else:
                chosen[note] = by_words if own.get(by_words, 0.0) > own.get(by_meaning, 0.0) else by_meaning
        unproposed = [note for note, passage in chosen.items() if passage is None]
        if unproposed:  # found by its name alone (ranking.name_bonus): it shows its first passage
            firsts = self.store.passages.of_notes(unproposed)
            chosen.update((note, passages[0].label) for note, passages in firsts.items() if passages)
        self._past_the_name(chosen, query)
        return chosen

    def _past_the_name(self, chosen: dict[int, int | None], query: str) -> None:
        """A query that names a note and asks about something in it ("Jordan Peterson on
        posture", "what did Kahneman say about anchoring") shows the passage about that
        something. Both sides pick the passage holding the name — a book note's metadata
        table or list — when the name is also one of the note's properties (``author:``, a
        sync plugin's block) or names, as every row of the note carries those: the words the
        note does not carry that way choose the passage instead, unless the one chosen holds
        one of them. A trial with a Kindle highlights vault showed the metadata table for 9
        of 12 "<author> on <topic>" questions; the highlight was a passage further down."""
        asked_words = [word for word in query_words(query) if word.shown.lower() not in REPORTING_VERBS]
        words = [word.terms for word in asked_words]
        if len(words) < 2 or not any(passage is not None for passage in chosen.values()):
            return
        # A note of one passage has no other to show: asked only of the others (each full-text
        # question here costs a search at 10,000 notes about 0.3 ms).
        several = {note for note, count in self.passage_table.current().counts(list(chosen)).items() if count > 1}
        shown = [passage for note, passage in chosen.items() if passage is not None and note in several]
        if not shown:
            return
        # A metadata list in the body (Readwise's ``- Author: [[Ibram X. Kendi]]``) names the note as
        # properties do: "what did Kendi say about denial" showed it, not the highlight on denial.
        listed = {passage: lines.casefold() for passage, text in self.store.passages.bodies(shown).items()
                  if (lines := metadata_lines(text))}
        naming = [self.store.passages.matching_among(f"{{name title aliases props tags}} : ({' OR '.join(word.terms)})", shown)
                  | {passage for passage, lines in listed.items() if _word_in(word.shown, lines)}
                  for word in asked_words]
        asking: dict[tuple[str, ...], list[int]] = {}  # the topic words → the notes they are asked of
        for note, passage in chosen.items():
            if passage is None or note not in several:
                continue
            topics = [term for terms, named in zip(words, naming, strict=True) if passage not in named for term in terms]
            if topics and len(topics) < sum(map(len, words)):
                asking.setdefault(tuple(topics), []).append(note)
        for asked, notes in asking.items():
            match = f"{{headings body}} : ({' OR '.join(asked)})"
            # A passage already holding one of the words stays (one question for all of them);
            # the notes left are asked over their own passages, a range each.
            holding = self.store.passages.fts_holding(match, [passage for note in notes if (passage := chosen[note]) is not None])
            # The notes left are asked together: one statement for all their passages, not two
            # a note (a bm25 score is the same whichever rows are asked with it).
            labels, notes_of = self.passage_table.current().pairs_of([note for note in notes if chosen[note] not in holding])
            owners = list(zip(labels.tolist(), notes_of.tolist(), strict=True))
            scores = self.store.passages.fts_scores(match, [passage for passage, _ in owners]) if owners else {}
            own: dict[int, dict[int, float]] = {}
            for passage, note in owners:
                if passage in scores:
                    own.setdefault(note, {})[passage] = scores[passage]
            for note, held in own.items():
                chosen[note] = _best_scored(held)

    # -- the vector side

    def _vector_side(self, vector: np.ndarray, pool: int, eligibility: Eligibility) -> list[SideHit]:
        """The ``pool`` best eligible notes by their passages' similarity to the query (the inner
        product with a passage's row: its cosine, scaled by the length prior — adr/0004).

        The passage snapshot proposes notes (their passages among the nearest, until there
        are ``pool`` eligible ones), then every passage of those notes is scored exactly: a
        note's second and third passages count even when the snapshot did not return them.
        A note of more passages than the snapshot was asked for (a book or a chat log pasted
        into one note: thousands) is scored by those of its passages the snapshot returned
        when it returned at least the 1 + NEXT_PASSAGES a note's score counts: they are its
        nearest, so they hold its best three and the rest do not count. Scoring all of them
        cost more than the rest of the query (a 5 MB note took the vector side from 3 ms to
        13 ms at 10k notes). One of which the snapshot returned only one or two passages (a
        question near one paragraph of it) is scored by all: by those returned alone its next
        two were missing, and it fell from 11th to out of the side's 100 ("think", 10k notes +
        a 5 MB note). So is one the snapshot returned none of (an exact scan of the eligible
        notes). As exact as the snapshot's nearest are: an exact matrix below 50,000 passages,
        a graph's recall above (adr/0004).
        """
        table = self.passage_table.current()
        if table.fewer_notes_than(pool):
            # Fewer notes than the pool: every eligible note is a candidate, and asking the
            # snapshot first only widened it round after round to that end (a 5 MB note among
            # 50: 25 ms instead of the exact scan's few).
            return self.exact_scores(vector, self.store.notes.all_eligible_labels(eligibility), limit=pool)
        wanted = PASSAGES_PER_NOTE * pool
        while True:
            found = self.passage_vectors.search(vector, wanted)
            owners, eligible = table.owners_passing([label for label, _ in found], eligibility)
            notes = [label for label in dict.fromkeys(owners[label] for label, _ in found if label in owners) if label in eligible]
            if len(notes) >= pool:  # fusion standardises over the side's top `pool` notes: propose that many
                break
            if len(found) < wanted or wanted >= WIDEN_LIMIT * PASSAGES_PER_NOTE * pool:
                # Too few eligible notes: either filters leave few notes eligible (widening
                # the ANN query further would be slow) or hnswlib could not return as many
                # as asked (a graph crowded with deleted nodes). Scoring every eligible note
                # exactly is complete in both cases, so min(k, eligible) holds.
                notes = self.store.notes.all_eligible_labels(eligibility)
                break
            wanted *= WIDEN_FACTOR
        nearest = self._counted_nearest(table, found, owners, notes, wanted)
        scored_whole = [note for note in notes if note not in nearest]
        scored_whole += self._reached_by_windows(vector, pool, eligibility, set(notes))
        return self.exact_scores(vector, scored_whole, [pair for pairs in nearest.values() for pair in pairs], pool)

    def _counted_nearest(self, table: PassageOwners, found: Sequence[tuple[int, float]], owners: dict[int, int],
                         notes: Sequence[int], wanted: int) -> dict[int, list[tuple[int, int]]]:
        """The notes of more than ``wanted`` passages that the snapshot's answer ``found`` holds
        enough of to score them exactly (1 + NEXT_PASSAGES of each: ranking.note_scores),
        each with those (passage, note) pairs — its nearest. Without the count, a note with one
        passage returned was scored by its best alone, short of the quarter of its next two."""
        held = Counter(owner for label, _ in found if (owner := owners.get(label)) is not None)
        counts = table.counts([note for note in notes if held.get(note, 0) > NEXT_PASSAGES])
        many = {note for note, count in counts.items() if count > wanted}
        if not many:
            return {}
        returned: dict[int, list[tuple[int, int]]] = {}
        for label, _ in found:
            if (owner := owners.get(label)) in many:
                returned.setdefault(owner, []).append((label, owner))
        return {note: returned[note] for note, count in counts.items() if count > wanted}

    def languages(self) -> tuple[str, ...]:
        """The languages of stems.STEMMED the index's notes are written in (PassageStore.languages),
        as its current state holds them: looked up the first time a state is searched, kept until any
        commit (a search asked SQLite once a language, eight look-ups, every time)."""
        with self.store.read_snapshot():  # token and rows from one state
            token = self.store.change_token()
            if self._languages[0] != token:
                self._languages = (token, self.store.passages.languages())
            return self._languages[1]

    def text_rows(self) -> int:
        """How many full-text rows the index's current state holds (PassageStore.text_rows), counted
        the first time a state is searched and kept until any commit: the count scans the passages
        (0.33 ms at 4,220 rows, more at 10k notes), and the rarest word's share asks it a query."""
        with self.store.read_snapshot():
            token = self.store.change_token()
            if self._text_rows[0] != token:
                self._text_rows = (token, self.store.passages.text_rows())
            return self._text_rows[1]

    def turn_windows(self) -> WindowBook | TurnWindows:
        """The windows of the index's current state (turn_windows.py): made from the turns' stored
        rows and head sums the first time, then brought up to each state searched by the turns
        written since. A vault with no turn pays one look-up of the feed a state."""
        with self.store.read_snapshot():  # token, feed, turns and rows from one state
            token = self.store.change_token()
            if self._windows[0] != token:
                self._windows = (token, self._windows_now())
            return self._windows[1]

    def _windows_now(self) -> WindowBook | TurnWindows:
        prior = self.embedder.length_prior
        # A window is a sum of its turns' token sums: an embedder whose vector is no mean of its
        # tokens' (or whose rows do not say their sums' length) has none to add up.
        if not windows_possible(self.embedder) or prior is None:
            return NO_WINDOWS
        epoch, top = self.store.turn_heads.epoch()
        book, (seen_epoch, seen) = self._book, self._turns_seen
        if book is None or seen_epoch != epoch or self.store.turn_heads.count_after(seen) > max(WHOLE_WINDOWS_AT, len(book) // 8):
            book = WindowBook(prior, self.embedder.dimension)
            book.load(self._turns(self.store.notes.all_turns(), {}))
            self.windows_made += bool(len(book))
        elif top != seen:
            written = self.store.turn_heads.written_after(seen)
            turns = {turn.label: turn for turn in self._turns(self.store.notes.turns_of(list(written)), written)}
            self.windows_remade += book.update({label: turns.get(label) for label in written})
        self._book, self._turns_seen = book, (epoch, top)
        return book

    def _turns(self, rows: Sequence[tuple[int, bytes, str]], heads: Mapping[int, np.ndarray | None]) -> list[Turn]:
        """These turns ((label, key, title), NoteStore.all_turns) with their passages' token sums and
        their heads' — the store's (``heads``, else read), a head it holds none of embedded here."""
        if not rows:
            return []
        prior = self.embedder.length_prior
        notes = [label for label, _, _ in rows]
        labels, owners = self.passage_table.current().pairs_of(notes)
        found, matrix = self.passage_vectors.matrix_of(labels.tolist())
        own = sums_by_note(found, dict(zip(labels.tolist(), owners.tolist(), strict=True)), matrix, prior)
        stored = {label: head for label in notes if (head := heads.get(label)) is not None} if heads else self.store.turn_heads.sums(notes)
        missing = [(label, title) for label, _, title in rows if label not in stored]
        if missing:
            self.heads_embedded += len(missing)
            props = self.store.passages.properties_of([label for label, _ in missing])
            # The title as its passages embed it: none for a turn named by its text (searchable).
            untitled = self.store.passages.untitled([label for label, _ in missing])
            stored.update(self._head_sums.of({label: head_text("" if label in untitled else title, props.get(label, ""))
                                              for label, title in missing},
                                             lambda texts: self.embedder.sums(texts).totals))
        return [Turn(label, key, own.get(label), stored[label]) for label, key, _ in rows]

    def _reached_by_windows(self, vector: np.ndarray, pool: int, eligibility: Eligibility, proposed: set[int]) -> list[int]:
        """The eligible turns among the ``pool`` best by their windows that the snapshot did not
        propose: a reply near the question only with the turns around it is scored too."""
        notes, best = self.turn_windows().best(vector)
        if not len(notes):
            return []
        first = [note for note in notes[np.argsort(-best, kind="stable")[:pool]].tolist() if note not in proposed]
        eligible = self.store.notes.eligible_labels(first, eligibility)
        return [note for note in first if note in eligible]

    def reached_by_windows(self, vector: np.ndarray, label: int) -> tuple[float, float] | None:
        """(the best window's score, the note's own best passage's) when note ``label`` is a turn
        whose window scores above its own passages (explain says so), else None."""
        notes, best = self.turn_windows().best(vector)
        where = int(np.searchsorted(notes, label))
        if where >= len(notes) or notes[where] != label:
            return None
        own = self.exact_scores(vector, [label], windows=False)
        if own and own[0].score >= best[where]:
            return None
        return float(best[where]), own[0].score if own else 0.0

    def exact_scores(self, vector: np.ndarray, notes: Sequence[int], passages: Sequence[tuple[int, int]] = (),
                     limit: int | None = None, windows: bool = True) -> list[SideHit]:
        """These notes scored by every passage of theirs, best first; and the notes of
        ``passages`` ((passage, note) pairs) by those passages only. The first ``limit``."""
        labels, owners = self.passage_table.current().pairs_of(notes)
        if passages:
            asked = dict(passages)  # each passage once, as a dict of the pairs kept it
            extra = np.fromiter(asked, dtype=np.int64, count=len(asked))
            kept = ~np.isin(extra, labels)
            labels = np.concatenate([labels, extra[kept]])
            owners = np.concatenate([owners, np.fromiter(asked.values(), dtype=np.int64, count=len(asked))[kept]])
        found, scores = self.passage_vectors.scores_of(vector, labels.tolist())
        if not found:
            return []
        found_labels = np.asarray(found, dtype=np.int64)
        spread = self.embedder.chance_spread
        # A turn's windows count toward its score (turn_windows.py; ``windows=False``: its own passages only).
        reach = self.turn_windows().both(vector) if windows else None
        if spread is None:
            return grouped_note_scores(found_labels, owners_by_label(labels, owners, found_labels), scores, limit, reach)
        # Every note scored, then each lowered by what its passage count scores by chance, then
        # the first `limit`: a book pasted into one note must not keep a place by its length.
        return grouped_scores_for_many_passages(found_labels, owners_by_label(labels, owners, found_labels), scores,
                                                self.passage_table.current().chance_count_array, spread, limit, reach)

    def chance_lowering(self, label: int) -> tuple[int, float]:
        """Note ``label``'s passage count and what the vector side takes off its score for it
        (ranking.chance_lowering: 0 with an embedder whose spread nobody measured), as
        :meth:`exact_scores` counts it: explain says it beside the score it shows."""
        count = self.passage_table.current().chance_counts([label]).get(label, 1)
        return count, chance_lowering(count, self.embedder.chance_spread)

    # -- the text side

    def _text_side(self, words: Sequence[QueryWord], pool: int,
                   eligibility: Eligibility) -> tuple[list[SideHit], tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]:
        """BM25 candidates for the query's ``words`` (query_words): notes with a passage holding
        every term first (when fewer than ANY_TERM_BELOW do, every term but the vault's common ones:
        _relaxed_match), then (if still fewer) any; and the words no note of the
        vault holds (a run of Chinese is held when a note holds any pair of it: a question's
        pairs that straddle two of its words are held by nobody).

        Requiring all words first keeps FTS5 from scoring most of the vault for a long
        natural-language query (p50 at 100k notes: 30 ms → a few ms); the OR pass keeps
        recall when no note has them all. Its threshold does not follow k: asked for one hit
        or twenty, the text side proposes the same notes, so the first hits and their scores
        are the same (a k of 1 once read 0.71 where a k of 10 read 0.46); the vector side
        still makes the answer min(k, eligible) long. See adr/0004.

        The share of terms no note holds lowers every hit's score (ranking.probability): a
        question about a zoo, asked of a vault that never says "zoo", is not answered by the
        note that mentions the city. It is the vocabulary of the vault's live notes, whatever
        the other filters: a filter that leaves one note does not make the words of the others
        unknown, but an expired memory no longer knows anything — a trial's expired "parking
        spot" note made the question look answered, and a shrine tagged "Parks" came first at
        0.72. It costs nothing when an eligible note holds every word (then it is 0), else one
        query per word that stops at its first live row.

        A word no note holds that carries a prefix (QueryWord.prefix: a query in a language
        whose endings the stemmer does not know) is asked for by it when a note holds it —
        ``kira`` as ``kira*``, which holds the note's ``kirayı`` — in both passes; one more
        query per such word, only when no note holds the query whole. In a vault of notes in
        stems.STEMMED languages such a word is first asked for by its stems (QueryWord.stems:
        ``налогами`` by ``налог``, which the note saying ``налоги`` holds), its first letters
        only when no note holds those.
        """
        terms = unique(term for word in words for term in word.terms)
        if not terms:
            return [], (), (), (), False
        ranking = self._fts(" AND ".join(terms), pool, eligibility)
        unheld: tuple[str, ...] = ()
        by_prefix: tuple[str, ...] = ()
        by_stems: tuple[str, ...] = ()
        if not ranking:
            alive = eligibility.alive
            missing = [word for word in words if not any(self.store.passages.any_match(term, alive) for term in word.terms)]
            unheld = tuple(word.shown for word in missing)
            held = {word.shown: word.by_form(form) for word in missing
                    if (form := self._form_held(word, alive)) is not None}
            if held:  # words no note holds, asked for by their stems or first letters: the query as the vault can hold it
                unheld = tuple(shown for shown in unheld if shown not in held)
                by_prefix = tuple(held)
                by_stems = tuple(word.shown for word in missing if word.shown in held and held[word.shown].terms[0] == word.stems)
                terms = unique(term for word in words for term in held.get(word.shown, word).terms)
                if not unheld:
                    ranking = self._fts(" AND ".join(terms), pool, eligibility)
        every_word = bool(ranking)  # a note holds every word asked for (or a form of it): before the any-word pass
        if every_word and len(ranking) < ANY_TERM_BELOW and (relaxed := self._relaxed_match(terms)) is not None:
            ranking = self._fts(relaxed, pool, eligibility)
        if len(ranking) < ANY_TERM_BELOW and len(terms) > 1:
            seen = {hit.label for hit in ranking}
            extra = [hit for hit in self._fts(" OR ".join(terms), pool, eligibility) if hit.label not in seen]
            ranking += _below(ranking, extra[: pool - len(ranking)])
        return ranking, unheld, by_prefix, by_stems, every_word

    def _relaxed_match(self, terms: Sequence[str]) -> str | None:
        """The all-words match without the vault's common terms required: ``rare₁ AND rare₂ … AND
        (common₁ OR common₂ … OR rare₁)`` — a term is common when at least COMMON_TERM_SHARE of the
        full-text rows say it (SAID_COLUMNS: a property key every note carries is no word its pages
        say); None when no term is common, or every one is (nothing to relax).

        In a manual a word most pages say ("Obsidian", "vault", "note" in Obsidian's help;
        "file", "command" in a shell manual) decided which notes "hold every word": the page
        answering "where does Obsidian keep its settings for a vault" (`How Obsidian stores
        data`) never says "vault" in the passage that answers, and the strict pass ranked it 4th
        under a page that says all of them. The common terms stay in the match, so BM25 still
        counts them where a passage holds them (an OR's phrase that does not match adds
        nothing). Asked only when fewer than ANY_TERM_BELOW notes hold every word, the case the
        any-word pass already pays for: one row count a term, up to the share (a common word is
        not counted through). benchmarks/PASSAGES.md §54 idea 7, §61."""
        if len(terms) < 2:
            return None
        rows = self.text_rows()
        at_least = max(1, math.ceil(rows * COMMON_TERM_SHARE))
        common = [term for term in terms
                  if self.store.passages.count_matching_at_most(f"{SAID_COLUMNS} : ({term})", at_least) >= at_least]
        rare = [term for term in terms if term not in common]
        if not common or not rare:
            return None
        return " AND ".join([*rare, f"({' OR '.join([*common, rare[0]])})"])

    def _form_held(self, word: QueryWord, alive: Eligibility) -> str | None:
        """The term a note holds of a word no note holds as written: its stems (a note of the
        vault's languages holds another form of it: stems.py), else its first letters."""
        return next((term for term in (word.stems, word.prefix)
                     if term is not None and self.store.passages.any_match(term, alive)), None)

    def _fts(self, match: str, pool: int, eligibility: Eligibility) -> list[SideHit]:
        """Top ``pool`` eligible notes by their best rows: filter a page of plain FTS rows; when
        the page is full yet holds fewer than ``pool`` eligible notes, let SQLite rank the
        eligible notes' rows, at most ``pool`` of each (complete for the filters).

        The page falls short when filters are selective for the query, or when a few notes'
        rows fill it: a book or a chat log pasted into one note holds a common word in
        thousands of rows, and the page of its rows alone left every other note holding the
        word out of the text side (a trial: "use", asked of a vault with a 5 MB note, found 1
        other note of the 6 that hold it). At most ``pool`` rows a note — a quarter of the
        page — leaves the others three quarters. A cap at the three rows a note's score counts
        (ranking.NEXT_PASSAGES) changes no note's score either, but it let more of the manuals'
        chapters in, and their text side is tuned on pages a few long chapters fill (up to 95
        rows of one): docs hit@3 0.583 → 0.562 (benchmarks/PASSAGES.md §13).
        """
        page = PASSAGES_PER_NOTE * pool
        rows, eligible = self.passage_table.current().fts_passing(match, page, eligibility)  # in no set order: note_scores sorts
        rows_kept = [row for row in rows if row.note_label in eligible] if eligibility.filters else rows
        if len({row.note_label for row in rows_kept}) < pool and len(rows) >= page:
            rows_kept = self.store.passages.fts_by_note(match, eligibility, page, per_note=pool)
        return note_scores(rows_kept, pool)  # TextMatch: the (passage, note, score) triples it ranks

    # -- hits

    def _hit(self, row: NoteRow, score: float, match: str, passage: PassageRow | None, query: str,
             eligibility: Eligibility, dendron: bool) -> Hit:
        warnings, expired = self._row_warnings(row, eligibility)
        snippet = self._snippet(row, passage, query, warnings, dendron)
        return Hit(
            id=row.id, path=row.path, title=shown_title(row.title, row.path), score=round(score, 4), layer=row.layer,
            expires_at=None if row.permanent else row.expires_at, snippet=snippet.text, tags=row.tags,  # a permanent note's is ignored
            warnings=unique(warnings), expired=expired, version=version_of(row.content_hash), match=match,
            passage=None if passage is None else hit_passage(passage, snippet),
            date=row.date, date_from=row.dated_from,
        )

    def _row_warnings(self, row: NoteRow, eligibility: Eligibility) -> tuple[list[str], bool]:
        """What a hit or a listed note warns of its note, and whether it is expired."""
        # An expiry that does not parse is said once, with what it means for the note; its
        # field problem says the same fact again (its details are check's and get's).
        warnings = self.file_warnings(row)
        if row.expiry_invalid:
            warnings.insert(0, unparsed_expiry_warning(row.expires_at))
        # Only with include_expired can a note be expired: marked at the instant asked about (--as-of).
        expired = is_expired_us(row.expires_us, eligibility.now_us)
        if expired:
            warnings[0:0] = [f"expired at {row.expires_at}", *self._successor_warnings(row)]
        return warnings, expired

    def _successor_warnings(self, row: NoteRow) -> list[str]:
        """Which notes replaced an expired one (their ``supersedes`` lists its id). Without it
        an agent asking about the past (include_expired) read the old fact flagged only
        "expired at …", ranked above the current one, and had to guess which note holds the
        current fact; get said it, recall did not (a three-week agent trial)."""
        successors = self.store.notes.by_name_entry(row.id, (SUPERSEDES,))
        return [f"superseded by {successor.id} ({successor.path})" for successor, _ in successors
                if successor.label != row.label]

    def _absent_successors(self, hits: Sequence[Hit], eligibility: Eligibility) -> None:
        """A retired hit whose successor the answer does not hold says so, and why: the filters
        leave it out (which ones), or the query matched it too little to rank. Was: ``recall(…,
        include_expired=true, tags=["kids"])`` showed the retired note's "superseded by X" with X,
        tagged otherwise, nowhere in the answer — the warning read as if X were beside it. The
        filter is kept: a hit outside it would break what the agent asked for (adr/0019 addendum,
        "A successor the filters leave out")."""
        held = {hit.id for hit in hits}
        for hit in hits:
            if not hit.expired:
                continue
            for successor, _ in self.store.notes.by_name_entry(hit.id, (SUPERSEDES,)):
                shown = f"superseded by {successor.id} ({successor.path})"
                if successor.id in held or successor.label is None or shown not in hit.warnings:
                    continue
                hit.warnings[hit.warnings.index(shown)] = f"{shown}, which this answer does not hold: {self._left_out_by(successor.label, eligibility)}; get {successor.id} reads it"

    def _left_out_by(self, label: int, eligibility: Eligibility) -> str:
        """Why a note is not in an answer: the filters that leave it out, each named, or its rank."""
        alone = {"layers": replace(eligibility, tags=(), since_us=None, until_us=None, include_expired=True),
                 "tags": replace(eligibility, layers=(), since_us=None, until_us=None, include_expired=True),
                 "since/until": replace(eligibility, layers=(), tags=(), include_expired=True)}
        named = {"layers": f"layers ({', '.join(eligibility.layers)})", "tags": f"tags ({', '.join(eligibility.tags)})",
                 "since/until": "since/until (its date is outside them, or it has none)"}
        failing = [named[name] for name, only in alone.items()
                   if only.filters and label not in self.store.notes.eligible_labels([label], only)]
        if failing:
            return f"this search's {' and '.join(failing)} leave it out"
        return "the query matched it too little to rank among the notes this answer was drawn from"

    def file_warnings(self, row: NoteRow) -> list[str]:
        """What a hit of the note warns of its file, whatever the query and the time: its problems
        (a conflict, a date its name contradicts …) and that it is a sync tool's copy. An expiry
        that does not parse is left to the caller, which says what it means for the note once."""
        warnings = [f"{problem['field']}: {problem['message']}" for problem in row.problems
                    if not (row.expiry_invalid and is_unparsed_expiry(problem))]
        return warnings + self._copy_warning(row.path) + set_aside_warning(row.path)

    def _copy_warning(self, path: str) -> list[str]:
        """A hit named as a sync tool's copy of an indexed note (sync_copies.py). It is ranked as any
        note: an identical copy ties with its original, and which text is the right one is the
        person's call (``check`` asks them); the warning tells the reader the two are one note."""
        copy = named_copy(path)
        if copy is None or self.store.notes.by_path(copy.original) is None or not self._copy_of_text(copy):
            return []
        return [Spelled(f"copy: {copy.describe()} (", CHECK, " says what to do)")]

    def _copy_of_text(self, copy: SyncCopy) -> bool:
        """Whether a copy named by a number alone holds a version of its original's text (check's
        rule, sync_copies.resembles); read from the files, as the snippets are."""
        if not copy.numbered:
            return True
        try:
            return copy.of_text(read_text(self.paths.root, copy.path), read_text(self.paths.root, copy.original))
        except NoteReadError:
            return False  # gone since: the snippet of the hit says so

    def _snippet(self, row: NoteRow, passage: PassageRow | None, query: str, warnings: list[str],
                 dendron: bool, template: TemplateLines | None = None, later: Sequence[PassageRow] = ()) -> Snippet:
        """What the hit shows of its note, from the file on disk now (snippets.py)."""
        try:
            return passage_snippet(self.paths.root, row.path, passage, query, row.title, dendron, template, later,
                                   self.paths.inline_queries.prefixes)
        except NoteReadError as error:
            warnings.append(Spelled(f"file: {error} (", INDEX, ")"))
            return Snippet("")


def owners_by_label(labels: np.ndarray, owners: np.ndarray, found: np.ndarray) -> np.ndarray:
    """The owner of each of ``found`` (all among ``labels``, each once), by the parallel ``owners``."""
    order = np.argsort(labels, kind="stable")
    owned: np.ndarray = owners[order[np.searchsorted(labels[order], found)]]
    return owned


def _phrase_of(topic: str) -> str:
    """A topic key as one FTS5 phrase of its words (``kasiski-test`` → ``"kasiski test"``)."""
    return '"' + " ".join(_WORD.findall(topic)).replace('"', "") + '"'


def _words_outside(topics: Sequence[str], words: Sequence[QueryWord], asked: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The full-text terms of each of the query's ``words`` (``asked``: as the text side asked for
    it) that is neither a stop word nor a word of the note names ``topics`` ("who is Priya's
    partner" outside ``priya``: ``partner``)."""
    named = {word for topic in topics for word in topic.split()}
    return [terms for word, terms in zip(words, asked, strict=True)
            if terms and not word.common and (key := topic_key(word.shown)) and not set(key.split()) <= named]


def _run_in(words: Sequence[str], asked: Sequence[str]) -> bool:
    """Whether ``words`` stand together, in order, among ``asked`` and are fewer than them."""
    size = len(words)
    return 0 < size < len(asked) and any(list(asked[start:start + size]) == list(words) for start in range(len(asked) - size + 1))


# Words that, beside a note's name, ask for the note itself: "Keiko's page", "open Keiko",
# "show Keiko's page" (fields.REQUEST_WORDS and a few more verbs and nouns of opening a page).
_PAGE_WORDS = REQUEST_WORDS | frozenset("open view see get display go file entry profile card".split())


def _asks_for_the_page(words: Sequence[str], asked: Sequence[str]) -> bool:
    """Whether ``asked`` is the note name ``words`` with only words asking for its page around it
    (:data:`_PAGE_WORDS`): the person asks for the page, not for something the page is about, and
    ranking.worded_ceiling must not lower it ("Keiko's page" had put `People/Keiko.md` third,
    under two days naming Keiko — s42 review)."""
    size = len(words)
    for start in range(len(asked) - size + 1):
        if list(asked[start:start + size]) == list(words):
            rest = [*asked[:start], *asked[start + size:]]
            if all(word in _PAGE_WORDS for word in rest):
                return True
    return False


def _word_in(word: str, text: str) -> bool:
    """Whether ``text`` (casefolded) holds ``word`` as a word or a word's start (``Kendi's``, ``Kendi``)."""
    stem = _POSSESSIVE.sub("", word).casefold()
    return bool(stem) and re.search(r"(?<!\w)" + re.escape(stem), text) is not None


def _above_replaced(answer: list[Fused], replacing: Iterable[tuple[int, int]]) -> dict[int, list[int]]:
    """Each successor of ``answer`` that stands above notes of it it replaces → those notes. A
    successor ranked under the note it replaces (a loop written by hand: A supersedes B and B
    supersedes A) stands in for nothing: lifted to that note's score, it showed B — which the
    query barely named — at A's score, and explain said "ranked right above it" of a note ranked
    under it (s42 review)."""
    place = {item.label: index for index, item in enumerate(answer)}
    above: dict[int, list[int]] = {}
    for successor, old in replacing:
        if successor in place and old in place and place[successor] < place[old]:
            above.setdefault(successor, []).append(old)
    return above


def _standing_in(answer: list[Fused], above: Mapping[int, Sequence[int]]) -> list[Fused]:
    """``answer`` (successors already placed above the notes they replace) with each successor
    valued at least as the best note of the answer it stands above and replaces (``above``:
    :func:`_above_replaced`): it stands in for that note. The
    scores are kept in order (:func:`_scored_in_order`), and a successor the query barely names
    pulled the note the query found down to its own value: ``recall("Priya morning meetings",
    include_expired=true)`` showed the retired note saying exactly that at 0.06 — under the
    successor's 0.06 — and called the answer "confident: the best score is 0.06" (a trial)."""
    value = {item.label: item.value for item in answer}
    lifted = {successor: max([value[successor], *(value[old] for old in olds)]) for successor, olds in above.items()}
    return [item if lifted.get(item.label, item.value) == item.value else replace(item, value=lifted[item.label])
            for item in answer]


def _scored_in_order(ranked: list[Fused]) -> list[Fused]:
    """``ranked`` with no item valued above the one before it: a sync copy placed under its
    original (sync_copies.originals_first) scores as its original at most, so that a caller
    sorting the hits by score does not put the copy's old text back on top."""
    capped: list[Fused] = []
    for item in ranked:
        if capped and item.value > capped[-1].value:
            item = replace(item, value=capped[-1].value)
        capped.append(item)
    return capped


def _best_scored(scores: dict[int, float]) -> int:
    """The passage of the highest score (ties: the lowest label)."""
    return max(scores, key=lambda label: (scores[label], -label))


def _below(holding_all: Sequence[SideHit], holding_some: Sequence[SideHit]) -> list[SideHit]:
    """The notes holding only some of the query's words, scored no higher than the last note
    holding them all: the text side ranks those first, and fusion reads its scores, not its
    order. Without it a topic note that says "Abeler" and "2011" often outscored the paper
    whose passage holds every word asked for ("what did Abeler 2011 find about effort"), and
    explain said "full text ranks it 1" of the paper it ranked second (a trial)."""
    if not holding_all:
        return list(holding_some)
    ceiling = min(hit.score for hit in holding_all)
    return [hit if hit.score <= ceiling else replace(hit, score=ceiling) for hit in holding_some]


