"""``remember --supersedes OLD``: a newer fact retires the older one at once (adr/0019).

The new note records ``supersedes: [ids]``; each old note gets ``superseded_by: <new id>``
and ``expires_at`` = now (or keeps an earlier one) — a Logseq page as its property lines
``superseded-by::`` and ``expires-at::`` (field_edits.py) — so the one expiry rule hides it from
every read path at once and ``expire --apply`` archives it later. Nothing else of the old
note changes.

``supersedes`` also carries what the old notes had absorbed or replaced (their own
``supersedes`` and ``merged_from``): once they are archived, those ids still resolve to
the note that holds the fact now.

All or nothing: every old note is read and its edit decided before anything is written;
the new note is written first (a crash in between leaves two live notes, never none); if
a person edits an old note in the instant before it is retired, the retirements already
made are put back, the new note is removed and :class:`WriteConflict` says so — and the
same on any other refusal of a retirement (a full disk: its ``OSError``; a folder swapped for a
symlink out of the vault: :class:`PathOutsideVault`), the error raised as it was with a note
naming the note it failed on and the new note removed.

What the new note does not say (:func:`unsaid`): the statements of an old note that the new
text does not hold, which ``remember`` names in its answer — superseding a note of two facts
with a note of one retires both.

Read side (:func:`successors_first`): a search that shows retired notes (``include_expired``)
puts a note above every note it supersedes that its answer also holds, as a sync copy goes
under its original (adr/0019, "Read side").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, TypeVar

from .errors import Argument, FrontmatterError, PathOutsideVault, UsageError, VaultmemError, WriteConflict
from .field_edits import edit_fields, in_graph_properties
from .lifecycle import PERMANENT_LAYER, is_permanent
from .logseq import without_field_lines
from .markdown import HEADING_LINE
from .merge_markers import require_resolved
from .merging import normalize, sentence_words
from .noteio import FileChange, replace_if_unchanged, require_utf8
from .notes import Note, content_hash, parse_note, text_values, timestamp_or_none
from .ordered import unique
from .paths import VaultPaths

T = TypeVar("T")
UNSAID_SHOWN = 10  # statements named per old note; the rest are counted (a retired page of notes is no list to read)
_STATEMENT_END = re.compile(r"(?<=[.!?;。！？；])\s+")
_LINE_MARKERS = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?")


@dataclass(frozen=True)
class Retirement:
    """One old note, as read, and the bytes that retire it."""

    note: Note
    before: bytes
    after: bytes

    @property
    def path(self) -> str:
        return self.note.path


def lineage(olds: Sequence[Note]) -> list[str]:
    """The new note's ``supersedes``: the old notes' ids, then what each had absorbed or replaced."""
    return unique([ident for old in olds for ident in (old.id, *text_values(old.meta, "supersedes"),
                                                       *text_values(old.meta, "merged_from"))])


def plan_retirement(relative: str, raw: bytes, new_id: str, moment: datetime, *, graph: bool) -> Retirement:
    """Decide how ``relative`` is retired; refuse a note that cannot expire or already was.
    ``graph``: the vault is a Logseq graph, where a page without frontmatter is retired in its
    property lines (``superseded-by::``, ``expires-at::``; field_edits.writes_properties)."""
    old = parse_note(relative, raw)
    require_resolved(relative, raw)  # retiring one of its two versions is the person's call
    require_utf8(relative, raw)  # its superseded_by line would be written into a UTF-16 file
    if old.layer is None:
        # A person's page (a daily note of many facts) is no memory one newer fact replaces:
        # retiring it hid, and `expire --apply` archived, a whole day of the person's notes.
        written = old.meta.get("layer")
        unread = [problem for problem in old.problems if problem.field == "frontmatter"]
        if unread:  # the layer the person sees in the file may be in a block that is not read
            raise FrontmatterError(f"cannot supersede {relative}: {unread[0].message}; fix it first: {unread[0].fix}")
        why = "it has no layer" if written is None else f"its layer {written!r} is none vaultmem knows"
        raise UsageError(f"cannot supersede {relative}: {why}, so it is a note of yours, not a memory vaultmem keeps, "
                         "and retiring it would hide all of it; change what it says with ", Argument("text"),
                         " or ", Argument("append"), " (revise), or give it a layer first (revise it with ",
                         Argument("layer", "L3"), ")")
    if old.permanent:
        raise UsageError(*never_expires_refusal(relative, old))
    successor = text_values(old.meta, "superseded_by")
    if successor:
        raise UsageError(f"{relative} was already superseded by {successor[0]}; supersede that note instead")
    current = timestamp_or_none(old.meta.get("expires_at"))
    values: dict[str, object] = {"superseded_by": new_id}
    if current is None or current > moment:
        values["expires_at"] = moment  # retired now; an earlier expiry is kept
    try:
        return Retirement(old, raw, edit_fields(raw, values, in_properties=in_graph_properties(graph, old)))
    except FrontmatterError as error:
        raise FrontmatterError(f"{relative}: {error}") from None  # noteio names the key; the file is ours to name


def never_expires_refusal(relative: str, old: Note) -> tuple[str | Argument, ...]:
    """Why a note that never expires is not retired, and the one revise after which it can be.

    Retiring is ``expires_at`` = now, which an L4 or ``permanent: true`` note ignores (and
    ``check --fix`` removes): written anyway, the old fact would go on answering beside the
    new one. Nor does supersede change the layer or the flag itself: they are what the note
    asserts (adr/0019), changed by an explicit revise. Both are named when both hold — a
    layer alone leaves ``permanent: true`` in force. First it names the one call that does what
    was meant (a trial's agent, told the spare key had moved, made two more writes and three
    commits to supersede an L4 note): the text revised in place."""
    steps: list[Argument] = []
    why: list[str] = []
    if old.layer == PERMANENT_LAYER:
        steps.append(Argument("layer", "L3"))
        why.append("layer L4 (procedural)")
    if is_permanent(old.meta):
        steps.append(Argument("permanent", "false", flag="--no-permanent", switch=True))
        why.append("permanent: true")
    revise: list[str | Argument] = [steps[0]] if len(steps) == 1 else [steps[0], " and ", steps[1]]
    return (f"cannot supersede {relative}: it is {' and '.join(why)}, so it never expires and retiring it "
            "(expires_at now) would change nothing: it would go on answering; to keep one note of the fact, revise its ",
            Argument("text"), " in place (it still never expires); to keep the old one as history, first revise it with ",
            *revise, " (its layer's expiry then applies), then supersede it; or forget it")


def retire(paths: VaultPaths, retirements: Sequence[Retirement], remove_new_note: Callable[[], object],
           new_note: str) -> list[FileChange]:
    """Write every retirement, or none of them and no new note ``new_note`` (see the module's
    docstring); the changes made (for the commit)."""
    done: list[Retirement] = []
    changes: list[FileChange] = []
    item: Retirement | None = None
    try:
        for item in retirements:
            changes.append(replace_if_unchanged(paths.resolve_inside(item.path), item.after, content_hash(item.before),
                                                item.path, paths.root))
            done.append(item)
    except BaseException as error:  # Ctrl-C mid-way too: the same half-done state
        # Any refusal, not only a WriteConflict or an OSError (a full disk): a folder swapped for
        # a symlink out of the vault (PathOutsideVault, a ValueError) left the new note beside
        # the old fact, still answering, and "do not remember it again". Retirements made must
        # not stay without their successor either. The error is the original one, so its kind
        # (and the CLI's exit code) stays; the note says what was undone.
        if item is not None and item not in done and _holds(paths, item.path, item.after):
            done.append(item)  # its rename landed before the error (a Ctrl-C as its write returned)
        try:
            _undo(paths, done, remove_new_note)
        except VaultmemError as half_way:
            if isinstance(error, Exception):
                raise
            error.add_note(str(half_way))  # a Ctrl-C stays one (it was replaced by this error); said with it
            raise error from half_way
        failed = item.path if item is not None else "an old note"
        error.add_note(f"superseding {failed} failed, so the new note {new_note} was removed and no note "
                       "it was to supersede stays retired: nothing was written")
        raise
    return changes


def _holds(paths: VaultPaths, relative: str, data: bytes) -> bool:
    """Does the note at ``relative`` hold exactly ``data`` now? (No: unreadable too.)"""
    try:
        return content_hash(paths.resolve_inside(relative).read_bytes()) == content_hash(data)
    except (OSError, PathOutsideVault):
        return False  # then it was not written through this path: nothing of ours to put back there


def _undo(paths: VaultPaths, done: Sequence[Retirement], remove_new_note: Callable[[], object]) -> None:
    left: list[str] = []
    for item in reversed(done):
        try:
            replace_if_unchanged(paths.resolve_inside(item.path), item.before, content_hash(item.after), item.path, paths.root)
        except (WriteConflict, PathOutsideVault, OSError):
            # Edited since we retired it (the person's version stays), the disk refuses the old
            # bytes too, or its folder was swapped for a symlink out: named below, and the new
            # note is removed all the same.
            left.append(item.path)
    remove_new_note()
    if left:
        raise VaultmemError(f"superseding stopped half-way: {', '.join(left)} stay retired (superseded_by, expires_at) "
                            "although the new note was removed; edit them by hand")


def successors_first(ranked: Sequence[T], replacing: Iterable[tuple[int, int]], label_of: Callable[[T], int]) -> list[T]:
    """``ranked`` with each note that supersedes another of ``ranked`` (``replacing``: its
    (successor, replaced) label pairs, ``supersedes`` carried down the chain) moved up to just
    above the first-ranked note it replaces. A note moves up only when it replaces a note ranked
    above it; the others keep their order.

    A retired fact and the one that replaced it say nearly the same words, and the older one,
    written first and often longer, outranked its successor: ``recall(include_expired=true)``
    answered "is the workshop on Friday happening" with the expired "moves online" note first,
    the cancellation second (an agent trial). The successor is what is true now; the retired
    note stays in the answer, right under it, with its "superseded by" warning. Of a chain (A
    by B, B by C) the newest comes first: it replaces the most notes of the answer."""
    position = {label_of(item): index for index, item in enumerate(ranked)}
    replaces: dict[int, set[int]] = {}
    for successor, old in replacing:
        if successor in position and old in position and successor != old:
            replaces.setdefault(successor, set()).add(old)
    if not any(position[old] < position[successor] for successor, olds in replaces.items() for old in olds):
        return list(ranked)

    def reach(label: int) -> set[int]:
        seen: set[int] = set()
        waiting = list(replaces.get(label, ()))
        while waiting:
            other = waiting.pop()
            if other not in seen and other != label:
                seen.add(other)
                waiting.extend(replaces.get(other, ()))
        return seen

    def key(item: T) -> tuple[int, int, int]:
        label = label_of(item)
        replaced = reach(label)
        return min([position[label], *(position[old] for old in replaced)]), -len(replaced), position[label]

    return sorted(ranked, key=key)


def with_successors(ranked: Sequence[T], k: int, replacing: Iterable[tuple[int, int]],
                    label_of: Callable[[T], int]) -> tuple[list[T], list[T]]:
    """The answer (``k`` of ``ranked``) and the rest, with the successor of each retired note of the
    answer brought into it from lower in ``ranked`` (``replacing``: (successor, replaced) label
    pairs): of a chain, the newest of ``ranked``. Room is made by leaving out the lowest-ranked
    notes that are neither such a successor nor the note it replaces, nor ranked above the first
    retired note whose successor comes in; when those are too few (``k`` = 1), the answer holds
    them all: a history question ("what was
    her old address", ``k`` = 1) is answered by the retired note, which the query earned, beside
    the note that replaced it — not by the new fact alone.

    ``recall(include_expired=true, k=3)`` answered with the retired "workshop moves online" note
    and not the cancellation that replaced it, ranked fifth: its "superseded by" warning named a
    note the answer did not hold, and an agent reading the hits took the old fact for the news."""
    answer = list(ranked[:k])
    in_answer = {label_of(item) for item in answer}
    pairs = [(successor, old) for successor, old in replacing if successor != old]
    wanted = {successor for successor, old in pairs if old in in_answer and successor not in in_answer}
    newest = {successor for successor in wanted if not any(old == successor and other in wanted for other, old in pairs)}
    pulled = [item for item in ranked[k:] if label_of(item) in newest]
    if not pulled:
        return answer, list(ranked[k:])
    kept_olds = {old for successor, old in pairs if successor in newest}
    chosen = [*answer, *pulled]
    # A note ranked above every retired note whose successor comes in gives no room: it is the
    # query's best answer and owes nothing to the pair. Left out, recall(k=2) of a top hit and a
    # retired second answered with the pair alone, while k=1 kept the top hit (s42 review).
    first_old = min(index for index, item in enumerate(answer) if label_of(item) in kept_olds)
    protected = {label_of(item) for item in [*pulled, *answer[:first_old]]} | kept_olds
    while len(chosen) > k and (last := next((item for item in reversed(chosen) if label_of(item) not in protected), None)) is not None:
        chosen.remove(last)
    chosen_labels = {label_of(item) for item in chosen}
    order = {label_of(item): place for place, item in enumerate(ranked)}
    chosen.sort(key=lambda item: order[label_of(item)])
    return chosen, [item for item in ranked if label_of(item) not in chosen_labels]


@dataclass(frozen=True)
class Unsaid:
    """What one retired note said that the note replacing it does not (:func:`unsaid`)."""

    statements: tuple[str, ...]  # the first UNSAID_SHOWN, as the old note writes them
    more: int  # how many more


def unsaid(old_body: str, new_text: str) -> Unsaid:
    """The statements of ``old_body`` (each line's sentences and ``;``-clauses, without list,
    quote and task markers; headings and vaultmem's property lines left out) that ``new_text``
    does not hold: neither its words in order (merging.normalize: case, punctuation and markers
    aside) nor a sentence of the same words but fillers (merging.sentence_words).

    Superseding retires the whole old note: "Maya's locker is 14; her gym is Fitness Hut"
    superseded by "Maya's locker is 27." hid the gym too, and the answer said only "superseded"
    (an agent trial: the lessons' day changed, their fee went with it). Words, not meaning: the
    fact that was replaced is listed too (it is not said in the new text either), so the caller
    reads the list and remembers again what still holds. Pure; about linear in the two texts
    (:class:`_WordRuns`)."""
    known = _WordRuns(normalize(new_text).split())
    sentences = _statements(new_text)
    said = {sentence_words(statement) for statement in sentences}
    reworded = _Rewordings(sentences)
    missing = [statement for statement in _statements(without_field_lines(old_body))
               if (key := normalize(statement)) and not known.holds(key.split(" ")) and sentence_words(statement) not in said
               and not reworded.says(statement)]
    missing = unique(missing)
    return Unsaid(tuple(missing[:UNSAID_SHOWN]), max(len(missing) - UNSAID_SHOWN, 0))


class _WordRuns:
    """Whether a run of words is in a text's words, in order and next to each other. Looked for as
    a substring of the text (``" a b " in " … "``), each of a retired note's statements cost a scan
    of the whole new text: a 680 KB log superseded by another took 2.2 s of CPU under the write
    lock, a 5 MB one minutes. Here a run is looked for only where its rarest word stands."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = words
        self.places: dict[str, list[int]] = {}
        for place, word in enumerate(words):
            self.places.setdefault(word, []).append(place)

    def holds(self, run: Sequence[str]) -> bool:
        offsets = [self.places.get(word) for word in run]
        if not run or any(places is None for places in offsets):
            return False
        offset = min(range(len(run)), key=lambda index: len(offsets[index] or ()))
        return any(self.words[start:start + len(run)] == run
                   for start in (place - offset for place in offsets[offset] or ()) if start >= 0)


# Words that carry no fact of their own in a statement: a rewording may add, drop or change
# them ("her gym is Fitness Hut" / "Her gym is still Fitness Hut"). Not among them: the words that
# turn a fact around or bound it (not, no, never, only, more, before, after, until, …).
_FILLER_WORDS = frozenset(
    "a about am an and are as at be been being but by can could did do does doing for from had has have having "
    "he her hers herself him himself his i in into is it its itself just me my myself now of on or our ours "
    "ourselves s she so that the their theirs them themselves then there these they this those to too was we "
    "were will with would you your yours yourself still also currently".split())
_TURNING_WORDS = frozenset("no not never nor none nothing without cannot can't won't isn't aren't wasn't weren't "
                           "don't doesn't didn't n't t longer anymore".split())
_REWORDING_WORD = re.compile(r"(?:(?<!\w)[-\u2212](?=\d))?\w+(?:['\u2019]\w+)?")


class _Word(NamedTuple):
    """A word of a statement as a rewording is compared: its form (casefolded, a plural's s and a
    possessive's 's dropped), and whether it is a number or written with a capital (part of a name)."""

    form: str
    filler: bool
    turning: bool
    marked: bool  # a number or a capitalised word: "at 9" / "at 9:30", "in Porto" / "in Porto Alegre"


def _word(raw: str) -> _Word:
    """One word as :class:`_Rewordings` compares it."""
    folded = raw.casefold().replace("\u2019", "'")
    base = folded[:-2] if folded.endswith("'s") else folded
    form = base[:-1] if len(base) > 3 and base.endswith("s") and not base.endswith("ss") and not base[-2].isdigit() else base
    return _Word(form, folded in _FILLER_WORDS or base in _FILLER_WORDS, folded in _TURNING_WORDS,
                 raw[0].isdigit() or raw[0] == "-" or raw[0].isupper())


# A contracted negation's verb where it is not the word less its n't.
_CONTRACTED_VERBS = {"won't": "will", "can't": "can", "cannot": "can", "shan't": "shall", "ain't": "is"}


def _words(raw: str) -> tuple[_Word, ...]:
    """One written word as :class:`_Rewordings` compares it: a contracted negation as its verb and
    "not" ("isn't" is "is not", "mustn't" "must not"). Compared as written, "She isn't vegetarian."
    superseded by "She is not vegetarian." was listed as unsaid (s42 review); read as "not" alone,
    the verb was lost ("Ben mustn't smoke." said by "Ben needn't smoke.") and a contraction missing
    from :data:`_TURNING_WORDS` ("couldn't") was no negation at all (s43 review)."""
    folded = raw.casefold().replace("\u2019", "'")
    if not (folded.endswith("n't") or folded == "cannot"):
        return (_word(raw),)
    verb = _CONTRACTED_VERBS.get(folded, folded[:-3])
    return (_word(raw[0] + verb[1:] if verb else raw), _Word("not", False, True, False))


def _rewording_words(text: str, seen: dict[str, tuple[_Word, ...]]) -> list[_Word]:
    """The words of ``text``, each read once per comparison (``seen``: a log of 32,000 lines
    repeats a few hundred words)."""
    found: list[_Word] = []
    for raw in _REWORDING_WORD.findall(text.replace("\u2212", "-")):
        words = seen.get(raw)
        if words is None:
            words = seen[raw] = _words(raw)
        found.extend(words)
    return found


class _Rewordings:
    """Whether one sentence of a new text says a statement in other words: it holds every word of
    the statement that is not a filler (:data:`_FILLER_WORDS`), in the statement's order, with only
    lowercase words between them — no number, name or negation — and no number or name right after
    the last (``at 9`` is not said by ``at 9:30``, ``in Porto`` not by ``in Porto Alegre``).

    Compared as words in order only (merging.normalize, sentence_words), "her gym is Fitness Hut in
    Alvalade" superseded by "Her gym is still Fitness Hut in Alvalade." was listed as unsaid: every
    reworded sentence was, and the list an agent is asked to read for a lost fact held the facts it
    had just said again (an agent's week over MCP). Not by meaning: no cosine of the embedder tells a
    rewording from a changed fact (merging: "at 4pm" / "at 5pm" 0.975). A changed fact keeps its
    changed word out of the new sentence, so it stays listed. Looked for only in the sentences that
    hold the statement's rarest word there, the new text read on the first statement asked about:
    about linear in the two texts."""

    def __init__(self, sentences: Sequence[str]) -> None:
        self.texts = sentences
        self.sentences: list[list[_Word]] = []
        self.holding: dict[str, list[int]] = {}
        self.seen: dict[str, tuple[_Word, ...]] = {}

    def _read(self) -> None:
        self.sentences = [_rewording_words(sentence, self.seen) for sentence in self.texts]
        holding = self.holding
        for number, words in enumerate(self.sentences):
            for word in words:
                if not word.filler:
                    places = holding.setdefault(word.form, [])
                    if not places or places[-1] != number:
                        places.append(number)
        self.texts = ()

    def says(self, statement: str) -> bool:
        if self.texts:
            self._read()
        words = _rewording_words(statement, self.seen)
        wanted = [word for word in words if not word.filler]
        negations = sum(word.turning for word in words)
        rarest: list[int] | None = None
        for word in wanted:
            places = self.holding.get(word.form)
            if places is None:
                return False
            if rarest is None or len(places) < len(rarest):
                rarest = places
        # A sentence that negates more than the statement does says something else, wherever the
        # negation stands: "She is not vegetarian anymore." does not say "She is vegetarian."
        return rarest is not None and any(
            (_holds_in_order(self.sentences[number], wanted) or _moved_as_a_block(self.sentences[number], wanted))
            and sum(word.turning for word in self.sentences[number]) <= negations for number in rarest)


def _moved_as_a_block(sentence: Sequence[_Word], wanted: Sequence[_Word]) -> bool:
    """Does ``sentence`` say ``wanted``'s words and no others but fillers, a run of them moved from
    the front to the back (or back to front)? "On Tuesdays Priya swims" is said by "Priya swims on
    Tuesdays" ([tuesday, priya, swim] turned around once: a fronted "when" or "where"), and was
    listed as unsaid (s41: an agent re-read a fact it had just written). Not a free set of words:
    "Sam pays Priya" is no rotation of "Priya pays Sam" and stays listed, and a sentence with one
    word more ("at 9" / "at 9:30") or one negation more (the caller counts them) says something else."""
    forms = [word.form for word in sentence if not word.filler]
    target = [word.form for word in wanted]
    return len(forms) == len(target) and any(forms[cut:] + forms[:cut] == target for cut in range(1, len(forms)))


def _holds_in_order(sentence: Sequence[_Word], wanted: Sequence[_Word]) -> bool:
    """Does ``sentence`` hold ``wanted`` in order, each next to the last but for lowercase words,
    and nothing that marks a fact of its own right after it (:class:`_Rewordings`)?"""
    for start, word in enumerate(sentence):
        if word.form != wanted[0].form:
            continue
        place, matched = start + 1, 1
        while matched < len(wanted) and place < len(sentence):
            here = sentence[place]
            if here.form == wanted[matched].form:
                matched += 1
            elif not here.filler and (here.marked or here.turning):
                break
            place += 1
        if matched == len(wanted) and not (place < len(sentence) and sentence[place].marked and wanted[-1].marked):
            return True
    return False


def _statements(text: str) -> list[str]:
    """Each line's sentences and ``;``-clauses, without its markers; headings and fence lines
    (```` ```python ````: its language named no fact) are no statements."""
    found: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or HEADING_LINE.match(stripped) or stripped.startswith(("```", "~~~")):
            continue
        found.extend(piece.strip().rstrip(";").rstrip() for piece in _STATEMENT_END.split(_LINE_MARKERS.sub("", line, count=1)) if piece.strip())
    return found
