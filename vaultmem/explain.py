"""Why a note is or is not in the answer to a query (``vaultmem explain NOTE QUERY``).

For one note and one query: where each side of search ranks it and with what score, its
best passage, where the fused ranking puts it (and whether the query is its name, which
puts it first: ranking.name_bonus), and every reason it is or is not among
the hits ``search`` returns with the same options — not a note vaultmem reads, not indexed
yet, expired (when), superseded, filtered out by layer or tag, or ranked below k. A reason
names an option as the caller's surface spells it (option_names.py: ``--include-expired``
at the shell, ``include_expired=true`` over MCP), never another surface's. The
ranks are search's own (search.py's candidates); for a note the filters keep out they are
those of the same search with those filters lifted (``--include-expired``, without the
``--layer`` or ``--tag`` it fails), so a filtered or expired note still says where it would
rank, in a search anyone can run. Nothing is
written: the index is brought up to date exactly as a search would.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, time
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .dating import (
    DAILY_SOURCE,
    GIT_SOURCE,
    PERIODIC_SOURCE,
    note_date,
    property_value,
    shown_date,
    unordered_name_days,
)
from .errors import NoteNotFound, NoteReadError, NotIndexedYet, said_by, short_repr
from .fields import (
    aliases_of,
    file_names,
    name_key,
    name_topic,
    person_asked,
    property_texts,
    query_topics,
    starts_person_name,
)
from .git_dates import commit_words
from .git_index import unmerged_warning
from .index_progress import IndexBuilding
from .inline_fields import inline_fields
from .lifecycle import format_timestamp, from_epoch_us, is_expired_us, to_epoch_us
from .note_numbers import leading_number, number_kind
from .notes import read_note, text_values
from .option_names import OptionNames
from .paths import PACKAGE_FOLDERS
from .periods import Span, span_between
from .query_periods import period_hint
from .ranking import NAME_MARGIN, PROPERTY_BONUS, SideHit, match_kind, note_scores
from .resolution import (
    WAYS,
    archived_successor,
    in_index,
    left_the_vault,
    refuse_if_linked_out,
    refuse_if_named_link_out,
    spellings,
)
from .search import (
    CANDIDATES_MIN,
    Candidates,
    hit_passage,
    query_terms,
    require_hit_count,
    require_query_word,
    search_filters,
)
from .shown_titles import shown_title
from .snippets import Snippet, passage_snippet
from .storage import carries_tag, is_day_date
from .task_dates import TaskDay, is_kanban_board, task_days
from .task_settings import load_task_rules
from .valued import folded_words, named_property

if TYPE_CHECKING:
    from .daily_format import DailyFormat
    from .derived import DerivedIndex
    from .git_dates import Added
    from .paths import VaultPaths
    from .search import Searcher
    from .storage import Eligibility, NoteRow, PassageRow, TextMatch


@dataclass(frozen=True)
class ExplainedPassage:
    headings: list[str]
    lines: list[int]  # the file's lines, first and last
    snippet: str


@dataclass(frozen=True)
class Explanation:
    path: str
    id: str | None
    title: str | None
    query: str
    k: int
    in_answer: bool  # would `search QUERY -k K` (same filters) return it?
    rank: dict[str, int | None]  # vectors, text, fused (1-based; None: not among that side's candidates)
    score: dict[str, float | None]  # vectors (passage cosines, length prior: ranking.note_scores), text (bm25), fused (the calibrated score)
    match: str | None
    passage: ExplainedPassage | None
    reasons: list[str]
    # True when a filter keeps the note out: rank and score are then those of the same search
    # with the filters it fails lifted (the last reason says which), not of the answer asked for.
    ranked_without_filters: bool = False
    # The answer may be incomplete: the index is being built (index_progress.py), as recall's warnings say.
    warnings: list[str] = field(default_factory=list)
    # Whether the search's answer as a whole is confident and why ("confident: the best score is 0.82, …",
    # "not confident: the first hit holds one …": confidence.judge); None when ranked without filters.
    confidence: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def explain_note(index: DerivedIndex, reference: str, query: str, k: int, *, layers: Iterable[str] | None,
                 tags: Iterable[str] | None, include_expired: bool, now: object, lock_wait_seconds: float,
                 names: OptionNames, since: str | None = None, until: str | None = None) -> Explanation:
    """Why ``reference`` is or is not among the hits of search(query, k, same filters):
    the index is brought up to date as a search would (waiting for another writer's lock at
    most ``lock_wait_seconds``), then the note is explained from its row — or, when the
    index does not hold it, from its file. The reasons spell the options as ``names`` does."""
    require_query_word(query, "explain")  # the search it explains would refuse it
    require_hit_count(k)
    eligibility = search_filters(layers, tags, include_expired, now, since, until, index.paths.daily.week_start)
    spelled = spellings(reference)  # as written, then stripped (a blank one names nothing)
    with index.store.waiting_at_most(lock_wait_seconds):
        busy = index.bring_current(leave_to_writer=False)  # as search does before it answers (but for a note being written)
        searcher = index.searcher()
        located = in_index(searcher.store.notes, reference, eligibility.now_us)
        if located is None:
            for spelling in spelled:
                refuse_if_linked_out(index.paths, spelling)  # a symlink out: said so (was "not indexed yet", or "without symlinks out")
                refuse_if_named_link_out(index, spelling)  # by its bare name, in a folder
                index.paths.resolve_inside(spelling)  # a path that leaves the vault is refused, not looked at
            rebuilding = index.store.meta.rebuild_state() == "running"
            try:
                explanation = explain_file(index.paths, spelled, query, k, rebuilding, isinstance(busy, IndexBuilding))
            except NoteNotFound as missing:
                if isinstance(busy, IndexBuilding):
                    raise NotIndexedYet(reference, busy) from missing  # perhaps a note not read yet
                # As get and the writes do: an archived note's old path, id, file name or step-7 id
                # says where it went (was: "no note matches" for the note forget had just archived);
                # a renamed note's old name explains the note where it lives now, and a removed one
                # says where it went (resolution.left_the_vault).
                for spelling in spelled:
                    located = archived_successor(index, spelling, eligibility.now_us)  # a merged note's old name: the kept note
                    if located is not None:
                        break
                if located is None:
                    located = left_the_vault(index, reference, missing)
        if located is not None:
            try:
                read = read_note(index.paths.root, located.row.path)
                meta, body = read.meta, read.body
                tasks = task_days(read.body, read.body_line, load_task_rules(index.paths.root)[0], is_kanban_board(read.meta))
            except NoteReadError:
                meta, body, tasks = {}, "", []  # gone since it was indexed: the ranking is the index's, which is what search answers from
            explanation = explain_row(searcher, located.row, meta, query, k, eligibility, names, tasks, body)
            found = located.resolved_from
            if found is not None and found.others:  # the first step's note is explained; the others named, as get names them
                explanation.reasons.insert(0, f"{found.reference!r} names {located.row.path} by {WAYS[found.via]}, "
                                              f"and {found.notice()}")
    if isinstance(busy, IndexBuilding):
        explanation.warnings.append(str(busy))  # its rank is among the notes read so far
    elif busy is not None:
        explanation.reasons.append(f"the index may not hold the latest edits yet: {busy}")
    # The same word as the search's: asked why a daily note missed "last week"; none for a note the query names.
    hint = period_hint(query, since, until, [name for name in (explanation.title, PurePosixPath(explanation.path).stem) if name])
    if hint is not None:
        explanation.reasons.append(str(said_by(hint, names.surface)))
    return explanation


def explain_file(paths: VaultPaths, spelled: list[str], query: str, k: int, rebuilding: bool,
                 building: bool = False) -> Explanation:
    """A NOTE the index does not hold: not a note vaultmem reads, or not indexed yet. ``spelled``:
    the reference's spellings, as written first (resolution.spellings)."""
    relative = next((name for spelling in spelled for name in (spelling, f"{spelling}.md") if paths.absolute(name).is_file()),
                    None)
    if relative is None:
        raise NoteNotFound(spelled[-1])
    if paths.is_note_path(relative):
        why = ("the `index --rebuild` running now has not reached it; search answers from what it has rebuilt so far"
               if rebuilding else "the index being built now has not reached it; search answers from what it has read so far"
               if building else "it changed while the index was being brought in line; search it again")
        reason = f"not indexed yet: {relative} is in the vault but not in the index ({why})"
    else:
        reason = f"not a note vaultmem reads: {not_a_note(paths, relative)}, so it is never indexed or searched"
    return Explanation(relative, None, None, query, k, False, _ranks(None, None, None), _scores(None, None, None),
                       None, None, [reason])


def not_a_note(paths: VaultPaths, relative: str) -> str:
    """Why a file in the vault is not a note (paths.py's rules, in words)."""
    rule = paths.exclusion_rule(relative)
    if rule is not None:
        return f"it is excluded by {rule} (excluded files and templates are not notes)"
    folder, _, name = relative.rpartition("/")
    if any(part.startswith(".") for part in folder.split("/") if part):
        return f"it is in a hidden folder ({folder}/)"
    if any(part in PACKAGE_FOLDERS for part in folder.split("/")):
        return f"it is in a package folder ({folder}/): node_modules/ holds other projects' files, never notes"
    if paths.is_ignored_dir(folder):
        return f"it is in the archive folder ({paths.archive_dir}/), where forget, expire and consolidate move notes"
    if not name.endswith(".md"):
        return "it is not a Markdown file (.md)"
    return "its name is a hidden or editor temp file's"


def explain_row(searcher: Searcher, row: NoteRow, meta: dict[str, Any], query: str, k: int,
                eligibility: Eligibility, names: OptionNames, tasks: Sequence[TaskDay] = (), body: str = "") -> Explanation:
    """A note the index holds: the filters it fails, and where search ranks it (``tasks``: the
    days its tasks name, said when the date range leaves it out; ``body``: its text, whose
    opening lines may date it)."""
    label = row.label if row.label is not None else -1
    blocking = _filter_reasons(row, meta, eligibility, searcher.paths, names, tasks, body)
    lifted, lifted_words = _lifted(row, eligibility, names)
    found = searcher.candidates(query, k, lifted)
    position = next((number for number, item in enumerate(found.fused, start=1) if item.label == label), None)
    fused = found.fused[position - 1] if position is not None else None
    vector_rank, text_rank = (fused.vector_rank, fused.text_rank) if fused is not None else (None, None)
    vector = _vector_score(searcher, query, label, found)
    text = _text_score(searcher, query, label, found)
    in_answer = not blocking and position is not None and position <= found.answer(k)
    named = [_name_reason(row, meta, query, fused.name_lift)] if fused is not None and fused.name_lift is not None else []
    reasons = [*_superseded_reason(meta), *blocking, *_notes(row, eligibility, names), *_git_date_notes(row, searcher.paths, blocking),
               *_file_notes(searcher, row, names),
               *_unmerged_notes(searcher, row, names), *named, *_value_reason(searcher, label, query, found, meta, body),
               *_window_reason(searcher, query, label), *_standing_in_reason(found, label, meta), *_worded_reason(found, label),
               _ranking_reason(position, k, lifted_words, _sides_sentence(vector, text, found, searcher.chance_lowering(label)),
                               names, found.answer(k)),
               *_unheld_reason(found, lifted.include_expired)]
    passage = _best_passage(searcher, row, query, vector, text)
    value = None if fused is None else round(found.score(fused, searcher.embedder.score_calibration), 4)
    return Explanation(
        row.path, row.id, shown_title(row.title, row.path), query, k, in_answer, _ranks(vector_rank, text_rank, position),
        _scores(None if vector is None else round(vector.score, 4), None if text is None else round(text.score, 4), value),
        None if fused is None else match_kind(vector_rank, text_rank, k), passage, reasons, bool(lifted_words),
        confidence=_confidence(searcher, found, k, lifted_words),
    )


def _worded_reason(found: Candidates, label: int) -> list[str]:
    """Why a note first or high on the full-text side ranks lower: the question names it by some
    of its words, and its keyword standing counts no more than the note first by meaning's
    (ranking.worded_ceiling). Unsaid, "full text ranks it 1" beside a third place read as a fault."""
    if label not in found.worded or found.worded_to is None or found.worded_to not in found.paths:
        return []
    return [f"named by some of the query's words: its name says what the question is about, so on the full-text "
            f"side it counts no more than {found.paths[found.worded_to]}, the note nearest in meaning, which may answer it"]


def _value_reason(searcher: Searcher, label: int, query: str, found: Candidates, meta: Mapping[str, Any],
                  body: str) -> list[str]:
    """The property bonus, in words: which of the note's property values the query names, and
    where it is written when that is the text (a ``speaker:: Caroline`` line, inline_fields.py):
    the note's Properties show no such key, and the person looked there for it."""
    if label not in found.valued:
        return []
    words = folded_words(query)
    in_frontmatter = named_property(words, "\n".join(f"{key}: {text}" for key, text in property_texts(meta)))
    in_text = None if in_frontmatter else named_property(words, "\n".join(f"{key}: {text}" for key, text in inline_fields(body)))
    named = in_frontmatter or in_text or named_property(words, searcher.store.passages.properties_of([label]).get(label, ""))
    if named is None:
        return []
    key, value = named
    where = f", written in its text as `{key}:: …`" if in_text else ""
    return [f"property match: the query names one of its property values ({value!r}, its {key}{where}), which adds "
            f"{PROPERTY_BONUS:g} to its fused value"]


def _unheld_reason(found: Candidates, expired_too: bool) -> list[str]:
    """The query's words no note holds, which lower every hit's score alike (ranking.probability),
    and those no note holds as written, asked for by their stems or first letters (search.query_words)."""
    by_letters = [word for word in found.prefix_words if word not in found.stem_words]
    prefixed = [f"{', '.join(words)}: in no note as written, so asked for by {'its' if len(words) == 1 else 'their'} "
                f"{kind} (a word with an ending)" for words, kind in ((found.stem_words, "stem" if len(found.stem_words) == 1 else "stems"),
                                                                     (by_letters, "first letters")) if words]
    if not found.unheld_words:
        return prefixed
    words = ", ".join(found.unheld_words)
    weighed = "" if found.vault_weight >= 1.0 else (
        f", by {found.vault_weight:.0%} of the full amount: a vault this small lacks most words of any question")
    count = len(found.unheld_words)
    of = "the query's only word" if len(found.words) == 1 else f"{count} of the query's {len(found.words)} words"
    return [*prefixed, f"{of} ({words}) {'is' if count == 1 else 'are'} in no {'' if expired_too else 'unexpired '}note of the vault: "
            f"every hit's score is lowered for {'it' if count == 1 else 'them'}{weighed} (the order is not changed)"]


def _confidence(searcher: Searcher, found: Candidates, k: int, lifted: str) -> str | None:
    """Whether search's answer to the query may be read as an answer, and why (Searcher.judge_answer,
    confidence.judge: the rule search applies, so ``confident`` and this agree). None when a
    filter was lifted to rank the note: that search is not the one asked for."""
    if lifted:
        return None
    first = found.judged_first() if k > 0 else None
    best = None if first is None else found.score(first, searcher.embedder.score_calibration)
    return searcher.judge_answer(found, best).why


def _name_reason(row: NoteRow, meta: dict[str, Any], query: str, lift: float) -> str:
    """The name bonus, in words: which of the note's names the query is, and what it did."""
    key, topics = name_key(query), query_topics(query)
    aliases = aliases_of(meta)
    names = [("file name", PurePosixPath(row.path).stem), ("title", row.title), *(("alias", alias) for alias in aliases),
             *(("file name" if "/" not in text else "path", text) for text in file_names(row.path))]
    exact = next(((kind, text) for kind, text in names if name_key(text) == key), None) or _id_named(row, query.strip())
    topical = next(((kind, text) for kind, text in names if name_topic(name_key(text)) in topics), None)
    first_words = person_asked(query)
    if exact is None and topical is None and first_words:
        which, name = next(((kind, text) for kind, text in names if starts_person_name(name_topic(name_key(text)), first_words)),
                           ("name", row.title))
        said = (f"name match: the query asks who {first_words!r} is, and this is the one note whose {which} starts so "
                f"({name!r}); a note named as asked ranks above every note that is not")
    else:
        which, name = exact or topical or ("name", row.title)
        asked = "the query is its" if exact else "the query asks for it by its"
        said = f"name match: {asked} {which} ({name!r}), and a note named as asked ranks above every note that is not"
    if lift > 0:
        return f"{said}: its fused value was raised by {lift:.2f} to stand {NAME_MARGIN:g} above the best of them"
    return f"{said}: it already stood at least {NAME_MARGIN:g} above the best of them, so nothing was added"


def _id_named(row: NoteRow, wanted: str) -> tuple[str, str] | None:
    """("id", the id) when the query is the note's id as written, (its kind, the number) when it
    is the Zettelkasten or Johnny.Decimal number its file name begins with (search._named_by_id)."""
    if wanted and wanted == row.id:
        return "id", wanted
    kind = number_kind(wanted)
    return (kind, wanted) if kind is not None and leading_number(row.path) == wanted else None


def _ranks(vectors: int | None, text: int | None, fused: int | None) -> dict[str, int | None]:
    return {"vectors": vectors, "text": text, "fused": fused}


def _scores(vectors: float | None, text: float | None, fused: float | None) -> dict[str, float | None]:
    return {"vectors": vectors, "text": text, "fused": fused}


def _superseded_reason(meta: dict[str, Any]) -> list[str]:
    """Which note replaced it. Not a filter of its own: retiring is expiry, said by the expiry reason
    when it keeps the note out; with include_expired (or an expiry the person moved on since) search
    returns it, and explain counted it out of the answer all the same (s39)."""
    successors = text_values(meta, "superseded_by")
    if not successors:
        return []
    return [f"superseded by {', '.join(successors)} (its superseded_by): a note another one replaced is retired at "
            "once, its expires_at set to the moment it was replaced; in an answer that holds a note that replaced it "
            "too, it ranks right under that note"]


def _standing_in_reason(found: Candidates, label: int, meta: dict[str, Any]) -> list[str]:
    """One sentence when the note was moved above a note of the answer it supersedes (search's
    successors first): its score is that note's, which the query earned (search._standing_in)."""
    if label not in found.by_succession:
        return []
    replaced = ", ".join(text_values(meta, "supersedes")) or "a note it supersedes"
    return [f"supersedes {replaced}, which this answer holds too: ranked right above it and scored as it is (it stands "
            "in for it: it says what is true now)"]


def _filter_reasons(row: NoteRow, meta: dict[str, Any], eligibility: Eligibility, paths: VaultPaths,
                    names: OptionNames, tasks: Sequence[TaskDay] = (), body: str = "") -> list[str]:
    """What keeps the note out of the answer whatever it scores."""
    reasons = []
    if not eligibility.include_expired and is_expired_us(row.expires_us, eligibility.now_us):
        at = format_timestamp(from_epoch_us(eligibility.now_us).replace(microsecond=0))  # a person reads it: to the second
        reasons.append(f"expired at {row.expires_at} (asked at {at}): search hides expired notes; {names.include_expired} shows them")
    if eligibility.layers and row.layer not in eligibility.layers:
        reasons.append(f"filtered out by {names.layers} {' '.join(eligibility.layers)}: its layer is {row.layer or 'none (no layer)'}")
    for tag in eligibility.tags:
        if not carries_tag(row.tags, tag):
            reasons.append(f"filtered out by {names.tags} {tag}: it does not carry that tag (its tags: {', '.join(row.tags) or 'none'})")
    if not eligibility.in_range(row.dated_us, row.dated_day, row.dated_end_us):
        reasons.append(_date_reason(row, meta, body, eligibility, paths, names))
        reasons += _task_days_reason(tasks, eligibility)
    return reasons


def _task_days_reason(tasks: Sequence[TaskDay], eligibility: Eligibility) -> list[str]:
    """The days its tasks name inside the range that left the note out: a task's due or done day
    is not its note's date (task_dates.py), which is what the range is held against."""
    inside = [task for task in tasks
              if eligibility.in_range(to_epoch_us(datetime.combine(task.day, time(), UTC)), True)]
    if not inside:
        return []
    said = [f"line {task.line} ({short_repr(task.task)}) is {task.kind} {task.day.isoformat()}" for task in inside[:3]]
    more = f" and {len(inside) - 3} more" if len(inside) > 3 else ""
    return [f"a task's day is in the range, but a task's days do not date its note: {'; '.join(said)}{more}"]


def _date_reason(row: NoteRow, meta: dict[str, Any], body: str, eligibility: Eligibility, paths: VaultPaths,
                 names: OptionNames) -> str:
    """Why the note's date keeps it out of the range asked for (dating.py), read under the
    daily-note format and date properties search dated it by: the bounds that apply to its kind
    of date (a day's label or an instant; an undated note is shown the instants, what the range
    is on the clock)."""
    daily, dates = paths.daily, paths.dates
    is_day = row.dated_us is not None and is_day_date(row.dated_us, row.dated_day)
    bounds = _bounds_words(eligibility, is_day, names)
    if row.dated_us is None:
        unread = [f"{key}: {json.dumps(property_value(meta, key), default=str, ensure_ascii=False)}"
                  for key in (*dates.date, *dates.created) if property_value(meta, key) is not None]
        found = f" ({' and '.join(unread)} {'is' if len(unread) == 1 else 'are'} not a date)" if unread else ""
        return (f"filtered out by {bounds}: it has no date{found} — no {_named(dates.date)} property, YYYY-MM-DD in its file name "
                f"or {_named(dates.created)} property that reads as one{_daily_format_reason(row.path, daily)}, nor a line "
                "such as `Date: 2026-11-30` under its title; add one of them to search it by date" + _unordered_name_reason(row.path, dates.date[0])
                + paths.git_dates.undated_reason(row.path) + "".join(f"; {problem}" for problem in daily.problems))
    dated = note_date(meta, row.path, daily, dates, body, paths.git_dates.moments())
    source = (f" ({_source_words(dated.source, row.path, daily, paths)})"
              if dated is not None and to_epoch_us(dated.moment) == row.dated_us else "")
    span = _span_of(row)
    if span is not None:
        return f"filtered out by {bounds}: its date is {span.said()}{source}, and no day of it is in the range"
    # As a hit, list and get show it (NoteRow.date): 10:00-08:00 in its zone, not 18:00 UTC.
    said = row.dated_said if row.dated_said is not None else _date_words(row.dated_us, is_day)
    return f"filtered out by {bounds}: its date is {said}{source}"


def _bounds_words(eligibility: Eligibility, is_day: bool, names: OptionNames) -> str:
    """``--since the day 2026-03-02 and --until …``: the bounds that apply to a note's kind of date."""
    return " and ".join(f"{name} {_date_words(bound.applied(is_day), is_day)}"
                        for name, bound in ((names.since, eligibility.since_us), (names.until, eligibility.until_us))
                        if bound is not None)


def _span_of(row: NoteRow) -> Span | None:
    """A periodic note's period, as the index keeps its span (None: the note has one date, or none)."""
    if row.dated_us is None or row.dated_end_us is None:
        return None
    return span_between(from_epoch_us(row.dated_us).date(), from_epoch_us(row.dated_end_us).date())


def _kept_span_reason(row: NoteRow, eligibility: Eligibility, names: OptionNames) -> list[str]:
    """Why a range keeps a periodic note whose period starts before it or ends after it."""
    span = _span_of(row)
    if span is None or not eligibility.dated or not eligibility.in_range(row.dated_us, row.dated_day, row.dated_end_us):
        return []
    return [f"kept by {_bounds_words(eligibility, True, names)}: its date is {span.said()}, and a periodic note is kept "
            "when any day of its period is in the range"]


def _named(keys: tuple[str, ...]) -> str:
    """``date``, or the vault's names for it: ``date or fecha``."""
    return " or ".join(keys)


def _date_words(epoch_us: int, is_day: bool) -> str:
    """``the day 2026-11-30`` (a day's label or a bound for days), else the instant in UTC."""
    return ("the day " if is_day else "") + shown_date(from_epoch_us(epoch_us), is_day)


_GIT_SETTING = ".vaultmem.toml [dates] from_git"


def _source_words(source: str, path: str, daily: DailyFormat, paths: VaultPaths) -> str:
    """``from its file name``; ``from its name in the daily-note format DD-MM-YYYY in Journal/ (…)``;
    ``from its name in the weekly-note format gggg-[W]ww in Weekly/ (…)``; ``from its git history:
    commit 1a2b3c4d5e ("react") added its file ([dates] from_git; the note says no date of its own)``."""
    added = paths.git_dates.added.get(path) if source == GIT_SOURCE else None
    if added is not None:
        return _git_words(paths, added)
    if source == DAILY_SOURCE:
        return f"from its name in the daily-note format {daily.describe()}"
    named = daily.period(path) if source == PERIODIC_SOURCE else None
    if named is not None:
        return f"from its name in the {named[1].kind}ly-note format {named[1].describe()}"
    return f"from its {source}"


def _git_words(paths: VaultPaths, added: Added) -> str:
    return (f"from its git history: {commit_words(paths.root, added)} added its file ({_GIT_SETTING}; the note "
            "says no date of its own)")


def _git_date_notes(row: NoteRow, paths: VaultPaths, blocking: Sequence[str]) -> list[str]:
    """Which commit dated a note git dated, when no filter said it already (a note in the range,
    or asked of without one): a date from git is a guess from history, and whoever debugs a recall
    by date needs to see which commit it came from (a trial: only a note a bound left out named it)."""
    added = paths.git_dates.added.get(row.path) if row.dated_from == "git" else None
    if added is None or any("from its git history" in reason for reason in blocking):
        return []
    return [f"its date {row.date} is {_git_words(paths, added)}"]


def _unordered_name_reason(path: str, key: str) -> str:
    """What day a name written day and month in either order (``16-02-2021``) is, when it is not
    read (outside the daily-note format's folder): the property that dates it. A trial's journal
    kept 17 such daily notes in an archive folder, all undated, each explained only as having
    "no YYYY-MM-DD in its file name" — its owner saw a day in every name."""
    written, days = unordered_name_days(path)
    if not days:
        return ""
    if len(days) == 1:
        return (f"; its name's {written} can only be {days[0].isoformat()}, but a day written so is read only as the "
                f"vault's daily-note format (Obsidian's Settings → Daily notes) names its notes: `{key}: {days[0].isoformat()}` "
                "dates it")
    return (f"; its name's {written} is {days[0].isoformat()} or {days[1].isoformat()} (day or month first?): "
            f"a `{key}:` property says which")


def _daily_format_reason(path: str, daily: DailyFormat) -> str:
    """The daily-note format a note in its folder was not named by (one not used is a problem, said after)."""
    if daily.in_use and daily.name_below(path) is not None:
        return f", nor a name in the daily-note format {daily.describe()}"
    return ""


def _lifted(row: NoteRow, eligibility: Eligibility, names: OptionNames) -> tuple[Eligibility, str]:
    """The same filters without those this note fails, and those words (``""``: none failed)."""
    expired = not eligibility.include_expired and is_expired_us(row.expires_us, eligibility.now_us)
    layered = bool(eligibility.layers) and row.layer not in eligibility.layers
    kept_tags = tuple(tag for tag in eligibility.tags if carries_tag(row.tags, tag))
    undated = not eligibility.in_range(row.dated_us, row.dated_day, row.dated_end_us)
    words = [*([f"with {names.include_expired}"] if expired else []),
             *([f"without {names.layers}"] if layered else []),
             *([f"without {names.tags} {' '.join(tag for tag in eligibility.tags if tag not in kept_tags)}"]
               if kept_tags != eligibility.tags else []),
             *([f"without {names.since}/{names.until}"] if undated else [])]
    lifted = replace(eligibility, include_expired=eligibility.include_expired or expired,
                     layers=() if layered else eligibility.layers, tags=kept_tags,
                     since_us=None if undated else eligibility.since_us, until_us=None if undated else eligibility.until_us)
    return lifted, " and ".join(words)


def _notes(row: NoteRow, eligibility: Eligibility, names: OptionNames) -> list[str]:
    """What is worth knowing but decides nothing."""
    notes = _kept_span_reason(row, eligibility, names)
    if row.expiry_invalid:
        notes.append(f"its expires_at {row.expires_at!r} does not parse, so it never expires until it is fixed (see {names.check})")
    if eligibility.include_expired and is_expired_us(row.expires_us, eligibility.now_us):
        notes.append(f"expired at {row.expires_at}, shown only because expired notes were asked for")
    return notes


def _file_notes(searcher: Searcher, row: NoteRow, names: OptionNames) -> list[str]:
    """What its hits warn of the note's file (a conflict's markers, a copy a sync tool made …):
    an answer drawn from a note whose both sides of a merge are read as one is no answer to
    trust, and the person debugging a recall needs to hear it here too."""
    return [f"its hits warn: {said_by(warning, names.surface)}" for warning in searcher.file_warnings(row)]


def _unmerged_notes(searcher: Searcher, row: NoteRow, names: OptionNames) -> list[str]:
    """That git's index holds the note unmerged (its file shows no markers): what search is found
    by is one side of the person's merge, as a hit of it warns (search.Searcher._mark_unmerged)."""
    unmerged = searcher.unmerged.now()
    if unmerged.problem is not None:
        return [unmerged.problem.spelled(names.surface)]
    if row.path not in unmerged.paths or any(problem["field"] == "conflict" for problem in row.problems):
        return []
    return [unmerged_warning().spelled(names.surface)]


def _vector_score(searcher: Searcher, query: str, label: int, found: Candidates) -> SideHit | None:
    proposed = next((hit for hit in found.vectors if hit.label == label), None)
    if proposed is not None:
        return proposed
    scored = searcher.exact_scores(searcher.query_vector(query), [label])
    return scored[0] if scored else None


def _text_score(searcher: Searcher, query: str, label: int, found: Candidates) -> SideHit | None:
    proposed = next((hit for hit in found.text if hit.label == label), None)
    if proposed is not None:
        return proposed
    rows = _text_rows(searcher, query, label, all_terms=True) or _text_rows(searcher, query, label, all_terms=False)
    scored = note_scores((row.label, row.note_label, row.score) for row in rows)
    return scored[0] if scored else None


def _text_rows(searcher: Searcher, query: str, label: int, all_terms: bool) -> list[TextMatch]:
    terms = query_terms(query)
    if not terms:
        return []
    return searcher.store.passages.fts_of_note((" AND " if all_terms else " OR ").join(terms), label)


def _ranking_reason(position: int | None, k: int, lifted: str, sides: str, names: OptionNames, answer: int | None = None) -> str:
    if position is None:
        pool = max(CANDIDATES_MIN, k)
        return f"{lifted + ', ' if lifted else ''}neither side proposes it among its best {pool} notes: {sides}"
    if lifted:
        return f"{lifted} the same search ranks it {position} ({sides})"
    if position <= k:
        return f"in the answer: ranked {position} of the {k} asked for ({sides})"
    if answer is not None and position <= answer:
        return (f"in the answer: ranked {position}, past the {k} asked for, beside the note that replaced it or that it "
                f"replaced (a retired note and its successor are answered together; {sides})")
    return f"ranked {position}, below the {k} asked for ({names.k_of(position)} would include it; {sides})"


def _window_reason(searcher: Searcher, query: str, label: int) -> list[str]:
    """One sentence when the vector side reached this turn through the turns around it (turn_windows.py)."""
    reached = searcher.reached_by_windows(searcher.query_vector(query), label)
    if reached is None:
        return []
    window, own = reached
    return [f"reached through the turns around it: its window of the turns before or after it scores {window:.3f} by "
            f"meaning, its own text {own:.3f}; the passage shown is its own"]


def _sides_sentence(vector: SideHit | None, text: SideHit | None, found: Candidates,
                    passages: tuple[int, float] = (1, 0.0)) -> str:
    """Each side's rank and score of the note; ``passages``: its passage count and what the
    vector side took off for it (Searcher.chance_lowering), said beside the similarity: without
    it a book pasted into one note read "similarity 0.190" where its best passage scores 0.483."""
    vector_rank = {hit.label: rank for rank, hit in enumerate(found.vectors, start=1)}
    text_rank = {hit.label: rank for rank, hit in enumerate(found.text, start=1)}
    count, lowered = passages
    taken = (f": {lowered:.3f} taken off for its {count:,} passages, what a note that long scores by chance"
             if round(lowered, 3) else "")
    if vector is None:
        by_meaning = "the vector side has no vector for it"
    elif vector.label in vector_rank:
        by_meaning = f"vectors rank it {vector_rank[vector.label]} (similarity {vector.score:.3f}{taken})"
    else:
        last = found.vectors[-1].score if found.vectors else 0.0
        by_meaning = (f"vectors score it {vector.score:.3f}{taken}; below the {len(found.vectors)} they propose "
                      f"(the last at {last:.3f})")
    if text is None:
        by_words = "no passage of it holds any of the query's words"
    elif text.label in text_rank:
        by_words = f"full text ranks it {text_rank[text.label]} (bm25 {text.score:.2f})"
    else:
        by_words = f"full text scores it {text.score:.2f} (bm25), below the {len(found.text)} notes it proposes"
    return f"{by_meaning}; {by_words}"


def _best_passage(searcher: Searcher, row: NoteRow, query: str, vector: SideHit | None,
                  text: SideHit | None) -> ExplainedPassage | None:
    """The passage a hit would show (search.py's ``best_passage``)."""
    label = row.label if row.label is not None else -1
    pair = (None if vector is None else vector.passage, None if text is None else text.passage)
    chosen = searcher.best_passages({label: pair}, query)[label]
    passage: PassageRow | None = None if chosen is None else searcher.store.passages.by_labels([chosen]).get(chosen)
    if passage is None:
        return None
    try:
        snippet = passage_snippet(searcher.paths.root, row.path, passage, query, row.title,
                                  inline_queries=searcher.paths.inline_queries.prefixes)
    except NoteReadError as error:
        snippet = Snippet(f"({error})")
    where = hit_passage(passage, snippet)
    return ExplainedPassage(where.headings, where.lines, snippet.text)
