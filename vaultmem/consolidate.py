"""Consolidation: near-duplicate notes become one note, and nothing is lost.

The same fact written three times in three days costs three embeddings and competes
with itself in search. Consolidation finds such clusters and merges each into the
note that already says the most. See adr/0010-consolidation.md for the measurements behind the choices.

Finding clusters (reads, then a pure core):

1. The *pool* is every memory alive at ``now`` (all of them with ``include_expired``): a
   memory is a note that carries a ``layer``; the person's own notes join only with
   ``any_note`` (``--any-note``). The *sources* are the pool's ``window`` most recently
   created-or-modified notes (all of them with ``--all``). Notes whose metadata cannot be trusted (YAML that does not load, an
   unknown layer, an unparseable expiry, …) are left out and reported: their layer or
   expiry is unknown, and unknown is not the same as absent.
2. Candidates: the k nearest neighbours of every source, from the vault's vector index
   (hnswlib snapshot + exact delta), queried in batches — never all pairs. A source whose
   answer does not contain itself was lost by the graph search; those few are answered
   by an exact product against the pool instead.
3. A pair counts when its cosine is ≥ the threshold and both notes are in the pool and
   in the same layer (a note without a layer only pairs with other layer-less notes).
   Cosines are recomputed exactly from the stored vectors, so the ANN only proposes.
4. A note with almost no text of its own (only headings and ``![[embeds]]``: an empty
   daily note, a category page) is dropped: its vector is its title plus boilerplate,
   and two such notes look like duplicates without saying anything twice.
5. Clusters are the connected components of the pairs (union-find), joined strongest pair
   first — except that two notes without a layer (a person's pages, ``--any-note``) that
   each record their own day (a ``date`` property, or a day in the name: dating.own_day)
   and whose days differ never end up in one cluster: two weekly reports of one template say
   alike things of two weeks. A pair that would join them is kept apart and counted
   (``different_days``). Memories (notes with a layer) are not kept apart by their days,
   nor is a date from ``created`` a day: a fact said again on another day is what
   consolidation is for. Likewise two notes about two works or two people — their ``citekey``,
   ``doi``, ``name`` or ``email`` properties differ (:func:`work_of`): two papers' literature
   notes of one template, two people's notes of a personal CRM's — never
   end up in one cluster (``different_works``), memories or not. The canonical note is the one the others' merge appends the fewest words to (ties: a chosen title, the oldest
   ``created``, the note most others link to, the longest body, then the path: :func:`canonical_candidate`) — never a sync tool's copy of another member
   (``Note (conflicted copy …).md``, ``Note 2.md``: sync_copies.py), which merges into it.
   Before the clusters, a pair is kept apart and counted when its texts share no word
   (``no_common_words``; Chinese or Japanese: under CJK_SHARED_PAIRS of their pairs of
   characters), when it is alike only by a template's lines (``template_alike``), and — two
   of your own notes only — when their texts share under OWN_SHARED_WORDS of their words
   (``few_common_words``) or their names share no word (``different_names``) — each also without the
   words COMMON_NOTES or more of the compared notes hold (all, of three or four), a template's (:func:`without_common_words`): the English
   embedder put two Turkish study notes at 0.891, and a Japanese diary day copied into a spec
   page would have been archived into it (:func:`own_pairs_alike_in_words`).
6. A cluster's ``similarity`` is its weakest *link*: the lowest cosine among member pairs
   that reach the threshold, so it is never below the threshold. ``weakest_pair`` is the
   lowest cosine of all member pairs; in a chain (A~B, B~C) it can be lower.

Applying a plan — merging each cluster into its canonical file, rewriting links, archiving
the others, all or nothing per cluster — is merge_apply.py's; what a merge adds to the
canonical (its frontmatter values, the lines only the others held) is merging.py's.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any

import numpy as np

from .canvas import is_canvas_path
from .cjk import RUN, bigrams, cjk_runs, han_folded, spaced
from .config import ConsolidateSettings
from .dating import own_day
from .errors import (
    CHECK,
    INDEX,
    Argument,
    FrontmatterError,
    InvalidTimestamp,
    Operation,
    PathOutsideVault,
    Spelled,
    UsageError,
)
from .fields import STOPWORDS, case_fold
from .lifecycle import EXPIRING_LAYERS, format_timestamp, to_epoch_us
from .links import LinkRedirects, labels_first, linked_notes
from .logseq import without_field_lines
from .merge_markers import UNMERGED_WHY, unmerged_fix, unmerged_notes
from .merging import (
    CHANGED,
    OWN_PROPERTY,
    SAID_OTHERWISE,
    UNREAD,
    KeptChange,
    NotHeld,
    SaidAlready,
    both_changed,
    merge_lines,
    merge_not_held,
)
from .noteio import FileChange
from .notes import (
    Note,
    citekey_form,
    citekeys_of,
    created_moment,
    decode,
    in_templates_folder,
    parse_note,
    text_values,
)
from .notion import without_page_id
from .paths import VaultPaths
from .resolution import newest_archived
from .results import NotCommitted, PathReason, not_committed_dicts
from .set_aside import set_aside_folder
from .shown_titles import shown_title
from .storage import Absorbed, Eligibility, PoolNote, Store
from .sync_copies import copy_among, is_copy_among
from .template_lines import holds_template_lines, own_text, read_template_lines
from .vectors import VectorIndex, unpack
from .writer import is_generated_title

NEIGHBOURS = 16  # per source; a duplicate is among the very nearest, other layers take slots too
QUERY_BATCH = 4096  # sources per batched kNN query: bounded memory at any vault size
EXACT_CHUNK = 20_000  # pool vectors per exact product for the sources the ANN lost
ANN_TOLERANCE = 1e-4  # hnswlib's and numpy's float sums differ slightly; the exact cosine decides
MIN_TEXT_WORDS = 3  # fewer words outside headings and embeds: not enough text to be a duplicate

# Problems (field → why) that make a note's layer, tags or expiry unknown.
UNRELIABLE_FIELDS = {
    "frontmatter": "its frontmatter does not load, so its layer, tags and expiry are unknown",
    "layer": "its layer is unknown (an unknown layer is not the same as no layer)",
    "encoding": "it is not UTF-8 (UTF-16, or bytes that are not valid UTF-8), so it cannot be edited safely",
    "permanent": "whether it is permanent is unknown",  # not true/false, or set twice
    "tags": "its tags are unknown",  # not a list, set twice, or `tags: #a #b` (a YAML comment)
    "conflict": "it holds an unresolved git merge conflict, so which of its two versions it says is unknown",
}

_EMBED = re.compile(r"!\[\[[^\[\]\r\n]*\]\]")
_HEADING_LINE = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t].*)?$", re.MULTILINE)
_WORD = re.compile(r"[^\W\d_]{2,}")
_NUMBER = re.compile(r"\d+")
# A run of letters and digits in a file name (no `_`: `ESC_2` is `ESC` and `2`).
_NAME_TOKEN = re.compile(r"[^\W_]+")
_VOCABULARY_WORD = re.compile(r"\w+")
_LETTER = re.compile(r"[^\W\d_]")
_PAIR_MARK = "\x00"  # a vocabulary entry that is a pair of Chinese or Japanese characters
# A DOI as written in front of its number (`https://doi.org/10.1257/…`, `doi:10.1257/…`): one DOI.
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
# The properties that name who or what a note is about, as a personal CRM's person notes hold
# them (`name: Pamela`, `email: pamela@sfmg.com`): two notes whose values differ are two people.
IDENTITY_KEYS = ("name", "email")
_MAILTO = re.compile(r"^mailto:", re.IGNORECASE)
CJK_SHARED_PAIRS = 0.2  # the share of two such texts' pairs they must have in common (Jaccard)
# The share of their words two of your own notes (no layer) must have in common (Jaccard), as
# sync_copies.RESEMBLING: a page and its copy share most of theirs (0.71–1.0 measured), two pages on
# one subject a fifth at most (0.04–0.25 in a Turkish and a Japanese vault: adr/0010).
OWN_SHARED_WORDS = 0.5
# A word at least this many of the compared notes of your own hold (in their texts, or their names)
# is a template's or the vault's, not evidence that two of them say one thing (without_common_words).
COMMON_NOTES = 5
# Fewer compared notes than COMMON_NOTES, but at least this many: a word every one of them holds is
# common. Three or four pages of one template were merged into one (a review, s39); two notes' shared
# words are what a page and its copy share, which nothing tells from a template's.
FEWEST_WITH_COMMON_WORDS = 3
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # 1,000 is 1000
_TWELVE_HOUR = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b\.?", re.IGNORECASE)  # 2:30pm is 14:30


# ------------------------------------------------------------------ scope


MEMORIES = "memories"  # notes that carry a layer: the agent's
EVERY_NOTE = "every note"  # --any-note: the person's own notes too


@dataclass(frozen=True)
class Scope:
    """What one consolidation run looks at."""

    threshold: float
    window: int | None  # None: every note (--all)
    include_expired: bool
    now: datetime
    any_note: bool = False  # False: only memories (notes with a layer)

    @property
    def notes(self) -> str:
        return EVERY_NOTE if self.any_note else MEMORIES

    def as_dict(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "window": self.window, "all": self.window is None,
                "include_expired": self.include_expired, "any_note": self.any_note, "scope": self.notes,
                "now": format_timestamp(self.now)}


def make_scope(settings: ConsolidateSettings, threshold: float | None, window: int | None, all_notes: bool,
               include_expired: bool, now: datetime, any_note: bool = False) -> Scope:
    """Validate the arguments against the vault's ``[consolidate]`` defaults."""
    if all_notes and window is not None:
        raise UsageError(Argument("window", str(window)), " contradicts ", Argument("all"), ": it already sweeps every note; give one of them")
    chosen = settings.threshold if threshold is None else threshold
    if isinstance(chosen, bool) or not isinstance(chosen, (int, float)) or not 0 < chosen <= 1:
        raise UsageError(f"threshold {chosen!r} is not a cosine similarity in (0, 1]; pass e.g. {settings.threshold}")
    size = None if all_notes else (settings.window if window is None else window)
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise UsageError(f"window {size!r} is not a number of notes ≥ 1; pass e.g. 2000, or all=True for every note")
    if not isinstance(any_note, bool):
        raise UsageError(f"any_note must be true or false, got {any_note!r}")
    return Scope(float(chosen), size, include_expired, now, any_note)


# ------------------------------------------------------------------ plan: what would be merged


@dataclass(frozen=True)
class Member:
    path: str
    id: str
    title: str
    content_hash: str  # of the file when the plan was made: apply skips the cluster if it changed
    chars: int  # length of the stripped body
    similarity: float  # cosine with the canonical (1.0 for the canonical itself)
    appended: tuple[str, ...] = ()  # its lines the canonical lacks: appended to it by the merge (merging.py)
    said_already: tuple[SaidAlready, ...] = ()  # its paragraphs the canonical says in other words: not appended

    @property
    def shown_title(self) -> str:
        """Its title as hits show it (``networking/README``: shown_titles); ``title`` stays the
        note's own, which the merge's "Merged from" heading writes beside the path."""
        return shown_title(self.title, self.path)

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "title": self.shown_title, "similarity": round(self.similarity, 4), "chars": self.chars,
                "appended": list(self.appended), "said_already": [said.as_dict() for said in self.said_already]}


@dataclass(frozen=True)
class Cluster:
    members: tuple[Member, ...]  # the canonical first, then by path
    layer: str | None
    similarity: float  # the weakest link: lowest cosine among member pairs ≥ threshold
    weakest_pair: float  # lowest cosine among all member pairs (lower in a chain)
    why_kept: str = ""  # why the canonical was kept rather than the member that came second

    @property
    def canonical(self) -> Member:
        return self.members[0]

    @property
    def merged(self) -> tuple[Member, ...]:
        return self.members[1:]

    def as_dict(self) -> dict[str, Any]:
        return {
            "canonical": self.canonical.path,
            "members": [member.path for member in self.members],
            "similarity": round(self.similarity, 4),
            "weakest_pair": round(self.weakest_pair, 4),
            "layer": self.layer,
            "why_kept": self.why_kept,
            "notes": [member.as_dict() for member in self.members],
        }


class LeftOut(PathReason):
    """A note the plan did not consider, and why."""


@dataclass(frozen=True)
class ArchivedNote:
    """A merged note, and where it was moved in the archive folder."""

    path: str
    archived_to: str


@dataclass(frozen=True)
class MergedCluster:
    """A cluster ``--apply`` merged: the note kept, and the notes merged into it."""

    canonical: str
    merged: tuple[ArchivedNote, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"canonical": self.canonical, "merged": [asdict(note) for note in self.merged]}


@dataclass(frozen=True)
class SkippedCluster:
    """A cluster ``--apply`` left whole (or the dry run says it would), and why."""

    canonical: str  # the note that would have been kept
    reason: str


@dataclass(frozen=True)
class ConsolidationPlan:
    scope: Scope
    clusters: tuple[Cluster, ...]
    compared: int  # sources whose neighbours were searched
    left_out: tuple[LeftOut, ...]
    not_memories: int = 0  # notes without a layer the scope left out (0 with any_note)
    different_days: int = 0  # pairs at or above the threshold kept apart: their notes record different days
    different_numbers: int = 0  # pairs at or above the threshold kept apart: each holds a number the other does not
    no_common_words: int = 0  # pairs at or above the threshold kept apart: their texts share no word
    template_alike: int = 0  # pairs at or above the threshold kept apart: alike only by their template's lines
    few_common_words: int = 0  # pairs of your own notes kept apart: their texts share under half their words
    different_names: int = 0  # pairs of your own notes kept apart: their names share no word
    different_works: int = 0  # pairs at or above the threshold kept apart: they cite two works (citekey, doi)
    sync_conflicts: int = 0  # pairs kept apart: a sync tool's copy whose text its original lacks (check names them)
    # Merges cut off before their notes were archived, whose kept note holds those notes as the merge
    # wrote them (merging.merge_not_held): apply archives them (finishes the merge), a dry run says it would.
    unfinished: tuple[Cluster, ...] = ()

    def report(self) -> ConsolidationReport:
        return ConsolidationReport(self)


@dataclass
class ConsolidationReport:
    """A plan, and — when applied — what was merged, skipped and rewritten."""

    plan: ConsolidationPlan
    applied: bool = False
    merged: list[MergedCluster] = field(default_factory=list)
    finished: list[MergedCluster] = field(default_factory=list)  # cut-off merges whose notes apply archived now
    skipped: list[SkippedCluster] = field(default_factory=list)
    links_rewritten: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)  # every vault path written, moved or created
    changes: list[FileChange] = field(default_factory=list)  # what was written, moved or created (for the commit)
    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)
    # canonical path → what its merge changes in its frontmatter (set when the merge is computed)
    kept_changes: dict[str, tuple[KeptChange, ...]] = field(default_factory=dict)

    @property
    def clusters(self) -> tuple[Cluster, ...]:
        return self.plan.clusters

    def kept_changes_of(self, canonical: str) -> tuple[KeptChange, ...] | None:
        """What the merge into ``canonical`` changes (dry run) or changed (apply) in its
        frontmatter; ``None`` for a cluster that is (or would be) skipped."""
        if canonical in {skip.canonical for skip in self.skipped}:
            return None
        if self.applied and canonical not in {entry.canonical for entry in self.merged}:
            return None
        return self.kept_changes.get(canonical)

    def _kept_dict(self, canonical: str) -> dict[str, Any] | None:
        changes = self.kept_changes_of(canonical)
        return None if changes is None else {change.key: change.as_dict() for change in changes}

    def as_dict(self) -> dict[str, Any]:
        return {
            "clusters": [{**cluster.as_dict(), "kept_changes": self._kept_dict(cluster.canonical.path)}
                         for cluster in self.plan.clusters],
            "applied": self.applied,
            **self.plan.scope.as_dict(),
            "compared": self.plan.compared,
            "not_memories": self.plan.not_memories,
            "different_days": self.plan.different_days,
            "different_numbers": self.plan.different_numbers,
            "no_common_words": self.plan.no_common_words,
            "template_alike": self.plan.template_alike,
            "few_common_words": self.plan.few_common_words,
            "different_names": self.plan.different_names,
            "different_works": self.plan.different_works,
            "sync_conflicts": self.plan.sync_conflicts,
            "left_out": [item.as_dict() for item in self.plan.left_out],
            "merged": [{**entry.as_dict(), "kept_changes": self._kept_dict(entry.canonical)} for entry in self.merged],
            "unfinished": [{"canonical": cluster.canonical.path, "merged": [member.path for member in cluster.merged]}
                           for cluster in self.plan.unfinished],
            "finished": [entry.as_dict() for entry in self.finished],
            "skipped": [asdict(skip) for skip in self.skipped],
            "links_rewritten": self.links_rewritten,
            "warnings": self.warnings,
            "commit": self.commit,
            "not_committed": not_committed_dicts(self.not_committed),
            "yours_left_uncommitted": self.yours_left_uncommitted,
        }

    def commit_message(self) -> str:
        entries = [*self.merged, *self.finished]
        count = sum(len(entry.merged) for entry in entries)
        notes = "1 note" if count == 1 else f"{count} notes"
        into = entries[0].canonical if len(entries) == 1 else f"{len(entries)} notes"
        lines = [f"vaultmem consolidate: merged {notes} into {into}", ""]
        for entry in self.merged:
            lines.append(f"- {entry.canonical} ← {', '.join(item.path for item in entry.merged)}")
        for entry in self.finished:
            lines.append(f"- {entry.canonical} ← {', '.join(item.path for item in entry.merged)} (a cut-off merge finished)")
        if self.links_rewritten:
            lines.append(f"links rewritten in {len(self.links_rewritten)} file(s)")
        return "\n".join(lines)


Embed = Callable[[Sequence[str]], np.ndarray]  # texts → one normalized row each (Embedder.embed)


def plan_consolidation(store: Store, paths: VaultPaths, scope: Scope, embed: Embed | None = None) -> ConsolidationPlan:
    """Find the clusters; reads the index and the candidate notes, writes nothing. ``embed``
    (the vault's embedder) measures notes made from a template again without its lines
    (:func:`pairs_alike_beyond_templates`); without it, their stored vectors decide."""
    alive = store.notes.recent(Eligibility(now_us=to_epoch_us(scope.now), include_expired=scope.include_expired))
    pool = alive if scope.any_note else [note for note in alive if is_memory(note)]
    reasons = {note.label: reason for note in pool if (reason := unreliable_reason(note)) is not None}
    unmerged = unmerged_notes(paths.root)  # the whole vault's, one question to git: the index does not keep it
    reasons.update({note.label: unmerged_reason(note.path) for note in pool if note.path in unmerged and note.label not in reasons})
    absorbed = store.notes.absorbed_yet_here("merged_from")
    cut_off = [note for note in pool if note.label in absorbed and note.label not in reasons
               and not _new_under_merged_name(paths, note.path, absorbed[note.label])]
    unfinished, not_held = cut_off_merges(paths, cut_off, absorbed)
    reasons.update({note.label: absorbed_reason(absorbed[note.label].by, not_held[note.label]) for note in cut_off
                    if note.label in not_held})
    finishing = {note.label for note in cut_off if note.label not in not_held}  # apply archives them: no cluster's
    sources = pool if scope.window is None else pool[: scope.window]
    left_out = [LeftOut(note.path, reasons[note.label]) for note in sources if note.label in reasons]
    layers = {note.label: note.layer for note in pool if note.label not in reasons and note.label not in finishing}
    source_labels = [note.label for note in sources if note.label in layers]
    candidates, missing = _candidate_pairs(store, source_labels, layers, scope.threshold - ANN_TOLERANCE)
    left_out += [LeftOut(path, Spelled("it has no vector yet; ", INDEX)) for path in missing]
    notes, vectors, dropped = _read_candidates(store, paths, {label for pair in candidates for label in pair})
    left_out += dropped
    confirmed = confirmed_pairs(candidates, vectors, scope.threshold)
    named_templates = [note.path for note in alive if in_templates_folder(note.path)]
    confirmed, template_alike = pairs_alike_beyond_templates(confirmed, notes, vectors, paths, embed, scope.threshold,
                                                             named_templates)
    vocabularies = {label: text_vocabulary(without_field_lines(note.body)) for label, note in notes.items()}
    pairs, no_common_words = pairs_sharing_words(confirmed, vocabularies)
    own = without_common_words({label: OwnWords(vocabularies[label], name_vocabulary(note.title))
                                for label, note in notes.items() if note.layer is None})
    pairs, few_common_words, different_names = own_pairs_alike_in_words(pairs, own)
    # Your own dated pages only: memories (with a layer) said again on another day are what
    # consolidation is for, day in their file names or not (the sample's standup notes).
    days = {label: day for label, note in notes.items()
            if note.layer is None and (day := own_day(note.meta, note.path, paths.daily, paths.dates, note.body)) is not None}
    candidate_paths = {note.path for note in notes.values()}
    # Your own notes are also told apart by the numbers of their names (ESC2 / ESC7, THEFT1 /
    # THEFT2, 2-to-1 MUX / 8-to-1 MUX): a Zettelkasten's numbered notes, however alike their
    # text. Held apart from the text's numbers: ESC8's steps "1." to "5." held ESC5's 5, and
    # the two merged. A memory's name is its first line or a day it was said on (said again: merged).
    numbers = {label: text_numbers(without_field_lines(note.body)) | (name_numbers(note.path, candidate_paths) if note.layer is None
                                                 else frozenset()) for label, note in notes.items()}
    works = {label: work for label, note in notes.items() if (work := work_of(note.meta))}
    components, refusals = components_and_refusals(pairs, days, numbers, works, conflicting_copies(notes))
    groups = [[notes[label] for label in component] for component in components]
    solar_hijri = paths.daily.solar_hijri
    tied = {note.path for group in groups if needs_link_counts(group, solar_hijri) for note in group}
    inbound = _inbound_links(paths, tied) if tied else {}
    clusters = [build_cluster(group, np.stack([vectors[label] for label in component]), scope.threshold, inbound, solar_hijri)
                for group, component in zip(groups, components, strict=True)]
    clusters.sort(key=lambda cluster: (-cluster.similarity, cluster.canonical.path))
    return ConsolidationPlan(scope, tuple(clusters), len(source_labels), tuple(left_out), len(alive) - len(pool),
                             refusals.count("days"), refusals.count("numbers"), no_common_words, template_alike,
                             few_common_words, different_names, refusals.count("works"), refusals.count("copies"), unfinished)


def cut_off_merges(paths: VaultPaths, cut_off: Sequence[PoolNote],
                   absorbed: Mapping[int, Absorbed]) -> tuple[tuple[Cluster, ...], dict[int, NotHeld]]:
    """The merges a kill cut off between writing the kept note and archiving ``cut_off`` (notes
    a kept note lists in ``merged_from``, still here): each kept note with those of its notes it
    holds as the merge wrote them (merging.merge_not_held), which apply archives — and, by label,
    why each other note is not archived (edited since, or unreadable)."""
    by_canonical: dict[str, list[PoolNote]] = {}
    for note in cut_off:
        by_canonical.setdefault(absorbed[note.label].by, []).append(note)
    clusters: list[Cluster] = []
    not_held: dict[int, NotHeld] = {}
    for canonical_path, notes in sorted(by_canonical.items()):
        try:
            canonical = _read_note(paths, canonical_path)
        except (OSError, PathOutsideVault, FrontmatterError) as error:
            not_held.update(dict.fromkeys((note.label for note in notes), NotHeld(UNREAD, f"{canonical_path} cannot be read ({error})")))
            continue
        held: list[Member] = []
        for note in sorted(notes, key=lambda item: item.path):
            try:
                merged = _read_note(paths, note.path)
                why = merge_not_held(canonical, merged)
            except (OSError, PathOutsideVault, FrontmatterError, InvalidTimestamp) as error:
                why = NotHeld(UNREAD, f"it cannot be read as the merge read it ({error})")
            if why is None:
                held.append(_as_member(merged))
            else:
                not_held[note.label] = why
        if held:
            clusters.append(Cluster((_as_member(canonical), *held), canonical.layer, 1.0, 1.0))
    return tuple(clusters), not_held


def _read_note(paths: VaultPaths, relative: str) -> Note:
    return parse_note(relative, paths.resolve_inside(relative).read_bytes())


def _as_member(note: Note) -> Member:
    return Member(note.path, note.id, note.title, note.content_hash, len(note.body.strip()), 1.0)


def conflicting_copies(notes: Mapping[int, Note]) -> dict[int, frozenset[int]]:
    """Each sync tool's copy among ``notes`` that holds lines its original lacks while the
    original holds lines it lacks (both devices changed the note), with its original's label
    (and the original with the copy's): the two are never merged.

    The copy is the other device's version of one note, most often the older: merged, the lines
    only it held were appended to the original, so a memory revised to "port 6543" also said the
    "port 5433" it replaced (a trial). Which version is right is the person's call, and ``check``
    asks them. A copy that only adds lines to the original's text, or only lacks some, still
    merges: nothing in the one contradicts the other."""
    labels = {note.path: label for label, note in notes.items()}
    apart: dict[int, set[int]] = {}
    for label, note in notes.items():
        copy = copy_among(note.path, labels)
        if copy is None:
            continue
        original = labels[copy.original]
        if copy.of_text(note.body, notes[original].body) and both_changed(notes[original], note):
            apart.setdefault(label, set()).add(original)
            apart.setdefault(original, set()).add(label)
    return {label: frozenset(others) for label, others in apart.items()}


def pairs_alike_beyond_templates(pairs: dict[tuple[int, int], float], notes: Mapping[int, Note],
                                 vectors: Mapping[int, np.ndarray], paths: VaultPaths, embed: Embed | None,
                                 threshold: float, named_templates: Sequence[str] = ()) -> tuple[dict[tuple[int, int], float], int]:
    """The pairs still at or above ``threshold`` when each note that holds lines of one of the
    vault's templates (template_lines.py) is measured by its title and its other lines, and how
    many fell below: seven notes of one template on seven topics stood at 0.89–0.96 by the
    template's headings and prompts (a trial). A pair of notes without template lines keeps its cosine."""
    if embed is None or not pairs:
        return pairs, 0
    keys = read_template_lines(paths.root, paths.exclusions, named_templates)
    templated = sorted({label for pair in pairs for label in pair if holds_template_lines(notes[label].body, keys)})
    if not templated:
        return pairs, 0
    own = dict(zip(templated, embed([f"{notes[label].title}\n\n{own_text(notes[label].body, keys)}" for label in templated]),
                   strict=True))
    kept = {pair: cosine for pair, cosine in pairs.items()
            if not (pair[0] in own or pair[1] in own)
            or float(np.dot(own.get(pair[0], vectors[pair[0]]), own.get(pair[1], vectors[pair[1]]))) >= threshold}
    return kept, len(pairs) - len(kept)


def _candidate_pairs(store: Store, sources: list[int], layers: Mapping[int, str | None],
                     threshold: float) -> tuple[dict[tuple[int, int], float], list[str]]:
    """ANN candidate pairs of the sources, and the paths of sources without a vector."""
    dimension = store.vectors.dimension()
    if dimension is None or not sources:
        return {}, []
    index = VectorIndex(store, dimension)
    pairs: dict[tuple[int, int], float] = {}
    missing: list[int] = []
    lost: list[int] = []
    for start in range(0, len(sources), QUERY_BATCH):
        batch = sources[start : start + QUERY_BATCH]
        labels, matrix = _vectors(store, batch)
        missing += sorted(set(batch) - set(labels.tolist()))
        if labels.size:
            neighbours, similarities = index.neighbours(matrix, NEIGHBOURS)
            pairs.update(similar_pairs(labels, neighbours, similarities, threshold, layers))
            # A source is a stored vector, so a right answer contains the source itself. When
            # it does not, hnswlib lost its way in the graph (0.7 % of the sources of the
            # 100k benchmark vault) and would silently miss that note's duplicates.
            lost += labels[~(neighbours == labels[:, None]).any(axis=1)].tolist()
    if lost:
        pairs.update(_exact_pairs_of(store, lost, layers, threshold))
    return pairs, [row.path for row in store.notes.by_labels(missing).values()]


def _exact_pairs_of(store: Store, sources: list[int], layers: Mapping[int, str | None],
                    threshold: float) -> dict[tuple[int, int], float]:
    """The pairs of a few sources by exact products against every note of the pool."""
    found, queries = _vectors(store, sources)
    pool = list(layers)
    pairs: dict[tuple[int, int], float] = {}
    for start in range(0, len(pool), EXACT_CHUNK):
        labels, matrix = _vectors(store, pool[start : start + EXACT_CHUNK])
        scores = queries @ matrix.T
        pairs.update(similar_pairs(found, np.broadcast_to(labels, scores.shape), scores, threshold, layers))
    return pairs


def _vectors(store: Store, labels: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    return unpack(store.vectors.for_labels(labels))


def _read_candidates(store: Store, paths: VaultPaths, labels: set[int]) -> tuple[dict[int, Note], dict[int, np.ndarray], list[LeftOut]]:
    """Read the notes that have a candidate pair; drop those that cannot be duplicates."""
    notes: dict[int, Note] = {}
    dropped: list[LeftOut] = []
    for label, row in sorted(store.notes.by_labels(sorted(labels)).items(), key=lambda item: item[1].path):
        try:
            note = parse_note(row.path, paths.absolute(row.path).read_bytes())
        except OSError as error:
            dropped.append(LeftOut(row.path, f"it cannot be read ({error.strerror}); check the file"))
            continue
        reason = _not_a_duplicate_reason(note, row.content_hash)
        if reason:
            dropped.append(LeftOut(row.path, reason))
        else:
            notes[label] = note
    found, matrix = _vectors(store, sorted(notes))
    return notes, {int(label): matrix[row] for row, label in enumerate(found)}, dropped


def _not_a_duplicate_reason(note: Note, indexed_hash: str) -> str | None:
    if note.content_hash != indexed_hash:
        return "it changed while consolidate was reading the vault; run consolidate again"
    if is_canvas_path(note.path):
        # Merged, it would be archived or its JSON rewritten as a note's text (adr/0033).
        return "it is an Obsidian canvas: vaultmem searches its cards' text but never merges, archives or rewrites a canvas"
    set_aside = set_aside_folder(note.path)
    if set_aside is not None:
        # The person's own archive (set_aside.py): as canonical, the longest, it took in the current
        # memory, which went to vaultmem's archive and was found since only as a past note, lowered
        # tenfold; merged into a current note, it would append what was so to what is (a review).
        return (f"it is in {set_aside}/, your folder of past notes (set aside): vaultmem merges no past note with "
                "a current one; move it out of that folder to have it consolidated")
    successors = text_values(note.meta, "superseded_by")
    if successors:
        # Retired on purpose (remember --supersedes): merged into its successor it would append
        # the old fact to the current one ("the 14th" beside "the 21st"), and as the longest
        # member it would absorb the current note and come back alive (adr/0019).
        return (f"it was superseded by {', '.join(successors)} (its superseded_by): a retired fact is merged "
                "into nothing; expire archives it")
    words = text_words(without_field_lines(note.body))
    if words < MIN_TEXT_WORDS:
        return (f"it has too little text of its own ({words} word(s) outside headings and embeds) "
                "for its vector to say it repeats another note")
    return None


# ------------------------------------------------------------------ pure core


def is_memory(note: PoolNote) -> bool:
    """A note that carries a layer — an unknown one too: it was meant as a memory (and is
    then left out as unreliable, with its reason, instead of vanishing from the scope)."""
    return note.layer is not None or any(problem["field"] == "layer" for problem in note.problems)


def unreliable_reason(note: PoolNote) -> str | None:
    """Why a note's metadata cannot be trusted for merging, or ``None``."""
    for problem in note.problems:
        why = UNRELIABLE_FIELDS.get(problem["field"])
        if why:
            return Spelled(f"{why}: {problem['message']}; fix it (see ", CHECK, ") to include it")
    if note.expiry_invalid:
        return Spelled("its expires_at does not parse, so the latest expiry of a cluster would be unknown; fix it (see ",
                       CHECK, ")")
    if note.no_deadline and note.layer in EXPIRING_LAYERS:
        # Merging would have to drop the canonical's deadline ("never" is the latest) and
        # leave it with the same `check` problem; its real deadline comes from check --fix.
        return Spelled(f"it is a {note.layer} note without expires_at, so the cluster's latest expiry is unknown; ",
                       Operation("run `vaultmem check --fix` to stamp it", "run Vault.check(fix=True) to stamp it",
                                 "give it an expiry (revise with ttl or expires_at)"), ", then consolidate again")
    return None


def _new_under_merged_name(paths: VaultPaths, relative: str, absorbed: Absorbed) -> bool:
    """Is the note at ``relative``, listed in a ``merged_from`` by its path (it has no ``id``), a
    new note under a merged note's name? The merge finished: the archive holds the merged note
    (``Inbox.md`` merged, then made again by Obsidian). Without an archived copy it is the merged
    note itself, left by a merge cut off before archiving it."""
    return absorbed.by_path and newest_archived(paths, relative) is not None


def absorbed_reason(canonical: str, not_held: NotHeld) -> str:
    """Why a note that ``canonical`` lists in its ``merged_from`` is left out: a merge killed
    after it wrote the canonical and before it archived this note (merge_apply.py's order) left
    it here, and ``canonical`` does not hold it as the merge wrote it (``not_held``), so the merge
    is not finished for it. Merged again, its nearest match could be another note (a trial:
    "fact 2" into "fact 14"), and the vault would hold two notes that claim it; left alone, it
    said nothing. Each cause its own words: a line the merge took as said already, or a property
    no merge carries, may be as the merge found it — "one of the two changed since" was said of
    notes nobody had touched."""
    return Spelled(f"{canonical} already lists it in merged_from: a merge into it was cut off before this note was "
                   f"archived, and it was not finished {_not_finished_because(canonical, not_held)}; compare them, "
                   f"keep what you want in {canonical}, then ", Operation("run `vaultmem forget` on it", "run Vault.forget() on it",
                                                                          "call the forget tool on it"),
                   f" to archive it (or, if you brought it back on purpose, remove it from the merged_from of {canonical})")


def _not_finished_because(canonical: str, not_held: NotHeld) -> str:
    if not_held.cause == SAID_OTHERWISE:
        return (f"because {not_held}: the merge took that line as said already, so finishing would archive this wording "
                "(or an edit of it since: a task ticked, another sign) where no search finds it")
    if not_held.cause == OWN_PROPERTY:
        return (f"because {not_held}: this note's property would go to the archive with it, where no search finds it "
                f"(it may have had it all along, or been given it since)")
    if not_held.cause == CHANGED:
        return f"because one of the two changed since ({not_held})"
    return f"because {not_held}"


def unmerged_reason(relative: str) -> str:
    """Why a note git's index holds unmerged (no markers in its file) is left out of merging."""
    return f"git's merge of it is unfinished, so which of its two versions it says is unknown: {UNMERGED_WHY}; {unmerged_fix(relative)}"


def work_of(meta: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """The work a note is about, by kind: its citation keys (notes.CITEKEY_KEYS, compared as
    :func:`notes.citekey_form`) and its DOIs (``doi``, any case; ``https://doi.org/`` and
    ``doi:`` before the number are one DOI). Two literature notes of one reference manager's
    template on two papers (no notes of their own yet: an empty abstract, the template's
    headings) stood at 0.952 and were planned into one, an archived paper (a trial). Also who
    the note is about (IDENTITY_KEYS): a personal CRM's notes on a mother, a wife and two
    children, one template with its fields left empty, stood at 0.90–0.91 and were planned into
    the mother's (a trial)."""
    citekeys = frozenset(form for form in map(citekey_form, citekeys_of(meta)) if form)
    dois = frozenset(doi for key in meta if key.lower() == "doi"
                     for text in text_values(meta, key) if (doi := _DOI_PREFIX.sub("", text).strip().casefold()))
    kinds = [("citekey", citekeys), ("doi", dois)]
    kinds += [(kind, _identity_values(meta, kind)) for kind in IDENTITY_KEYS]
    return {kind: values for kind, values in kinds if values}


def _identity_values(meta: Mapping[str, Any], kind: str) -> frozenset[str]:
    """The values of the ``kind`` property (any case), compared as written in any case and
    spacing, an email without ``mailto:``."""
    return frozenset(value for key in meta if isinstance(key, str) and key.lower() == kind
                     for text in text_values(meta, key)
                     if (value := " ".join(_MAILTO.sub("", text).split()).casefold()))


def different_works(first: Mapping[str, frozenset[str]], second: Mapping[str, frozenset[str]]) -> bool:
    """Whether two notes' works (:func:`work_of`) are two: by a kind both name, none in common.
    A note naming none, or another kind only (a citekey beside a DOI), may be about either."""
    return any(kind in second and not values & second[kind] for kind, values in first.items())


def text_numbers(body: str) -> frozenset[str]:
    """The numbers a note's own text holds (headings and embeds left out, as for its words):
    a door, a phone, a time, a day of the month. Two notes that each hold one the other does
    not (locker 14 / locker 27) say two different things, however alike their words."""
    text = _TWELVE_HOUR.sub(_on_24_hour_clock, _THOUSANDS.sub("", _HEADING_LINE.sub(" ", _EMBED.sub(" ", body))))
    # One number however it is written: 09:30 and 9:30, 1,000 and 1000, 2:30pm and 14:30 (held
    # as digits, two notes saying one time twice were kept apart as holding different numbers).
    return frozenset(number.lstrip("0") or "0" for number in _NUMBER.findall(text))


def name_numbers(path: str, paths: Collection[str]) -> frozenset[str]:
    """The numbers a note's file name holds (``ESC2.md``, ``Chapter 3.md``), each as ``name 2``
    so that it is never one of the text's numbers — its original's, when the name marks it a
    sync tool's copy of one of ``paths`` (``Note 2.md`` and ``Note (conflicted copy
    2024-05-01).md`` hold none of their own beside ``Note.md``) — and its codes of letters and
    digits, each as ``name code 1a1``: a Luhmann address (``1a``, ``1a1``, ``1b``, ``21/3a``'s
    ``3a``) is the note's place in the Zettelkasten, and its digits alone (1, 1 1, 1) told the
    three apart by nothing (a trial: ``1a``, ``1a1`` and ``1b`` on one idea were planned into one).
    The page id a Notion export puts after a name is none of its numbers or codes."""
    copy = copy_among(path, paths)
    # A Notion export's page id is no number of the name: two copies of one page differ by it.
    stem = without_page_id((copy.original if copy is not None else path).rsplit("/", 1)[-1].removesuffix(".md"))
    codes = (token.casefold() for token in _NAME_TOKEN.findall(stem) if not token.isdigit() and not token.isalpha())
    return frozenset({*(f"name {number}" for number in text_numbers(stem)), *(f"name code {code}" for code in codes)})


def text_vocabulary(body: str) -> frozenset[str]:
    """The words of a note's own text (headings and embeds left out, as for :func:`text_words`),
    casefolded, stopwords and bare numbers left out. A text written mostly without spaces
    (Chinese, Japanese: more characters in such runs than in other words) is its neighbouring
    pairs of characters instead, each marked (:data:`_PAIR_MARK`), as the full text holds it."""
    own = _HEADING_LINE.sub(" ", _EMBED.sub(" ", body))
    runs = cjk_runs(own)
    if 2 * sum(map(len, runs)) > len(_LETTER.findall(own)):
        return frozenset(_PAIR_MARK + pair for run in runs for pair in bigrams(han_folded(run)))
    text = case_fold(spaced(own))  # İstatistik is istatistik: casefold alone made it "i̇" + "statistik"
    return frozenset(word for word in _VOCABULARY_WORD.findall(text) if word not in STOPWORDS and not word.isdigit())


def pairs_sharing_words(pairs: Mapping[tuple[int, int], float],
                        vocabularies: Mapping[int, frozenset[str]]) -> tuple[dict[tuple[int, int], float], int]:
    """The pairs whose notes' texts (``vocabularies``: label → :func:`text_vocabulary`) share
    a word, and how many shared none. One fact said twice shares its words; two notes alike
    only to the vectors do not: a Zettelkasten's list of links to ESC1…ESC16 stood at cosine
    0.90 to one listing the ARM registers r7, sp, lr, pc (a trial), and merging them was the plan.
    A note with no word of its own (``+1 555 0100``, ``it is what it is``) has nothing to compare:
    its pairs are left to the other rules (two such identical memories were said to share no word)."""
    def shares(first: frozenset[str], second: frozenset[str]) -> bool:
        if not first or not second:
            return True
        if _PAIR_MARK in next(iter(first)) or _PAIR_MARK in next(iter(second)):
            # Chinese or Japanese text: the English vectors barely tell two such notes apart
            # (unrelated essays stood at 0.89–0.96), and any two share a character; one fact
            # said twice shares a fifth of its pairs of characters, unrelated notes a tenth.
            return len(first & second) >= CJK_SHARED_PAIRS * len(first | second)
        return bool(first & second)

    kept = {pair: cosine for pair, cosine in pairs.items()
            if shares(vocabularies.get(pair[0], frozenset()), vocabularies.get(pair[1], frozenset()))}
    return kept, len(pairs) - len(kept)


@dataclass(frozen=True)
class OwnWords:
    """What one of your own notes (no layer) is compared by in words: its text's
    (:func:`text_vocabulary`) and its name's (:func:`name_vocabulary`) — and the same without
    the words many of the compared notes hold (:func:`without_common_words`; None: as whole)."""

    text: frozenset[str]
    name: frozenset[str]
    rare_text: frozenset[str] | None = None
    rare_name: frozenset[str] | None = None

    @property
    def own_text(self) -> frozenset[str]:
        return self.text if self.rare_text is None else self.rare_text

    @property
    def own_name(self) -> frozenset[str]:
        return self.name if self.rare_name is None else self.rare_name


def without_common_words(own: Mapping[int, OwnWords], common: int = COMMON_NOTES) -> dict[int, OwnWords]:
    """``own`` with each note's words also counted without those that at least ``common`` of the
    notes hold in their texts (their names: in their names) — all of them, when there are fewer
    but :data:`FEWEST_WITH_COMMON_WORDS` or more — a template's words, not evidence
    that two notes say one thing. Nineteen plugin pages of one generator's template (badges,
    "Plugin ID", a sponsor comment, a footer) shared over half their words, and every plugin's
    name held "obsidian": --any-note planned them into one note, and Chesser into Templater at
    0.968 (a trial, the Obsidian Hub). Without the common words, Chesser says "chess game viewer
    editor" and Templater "create and use templates"."""
    common = min(common, max(len(own), FEWEST_WITH_COMMON_WORDS))
    text_counts = Counter(word for words in own.values() for word in words.text)
    name_counts = Counter(word for words in own.values() for word in words.name)
    return {label: replace(words, rare_text=frozenset(word for word in words.text if text_counts[word] < common),
                           rare_name=frozenset(word for word in words.name if name_counts[word] < common))
            for label, words in own.items()}


def name_vocabulary(title: str) -> frozenset[str]:
    """The words of a note's name, casefolded, stopwords left out — numbers kept (a name
    ``2025-04-07`` is its day) — and each pair of neighbouring Chinese or Japanese characters
    (:data:`_PAIR_MARK`; a lone one as itself): ``HC ゲームルール`` → hc, ゲー, ーム, ムル, …"""
    pairs = {_PAIR_MARK + pair for run in cjk_runs(title) for pair in bigrams(han_folded(run))}
    words = {word for word in _VOCABULARY_WORD.findall(case_fold(RUN.sub(" ", title))) if word not in STOPWORDS}
    return frozenset(pairs | words)


def own_pairs_alike_in_words(pairs: Mapping[tuple[int, int], float],
                             own: Mapping[int, OwnWords]) -> tuple[dict[tuple[int, int], float], int, int]:
    """The pairs left after two rules for two of your own notes (both in ``own``: no layer), and
    how many each kept apart: their texts must share at least :data:`OWN_SHARED_WORDS` of their
    words (Jaccard; pairs of characters in Chinese, Japanese or Korean), and their names a word.

    The default embedder is English: two Turkish study notes (CNN / RNN and LSTM) stood at 0.891
    sharing a ninth of their words, and --any-note planned one into the other; a Japanese diary
    day whose text had been copied into a spec page (0.944 of its pairs) was planned into that
    page, archiving the day. A page and its copy — a sync tool's, ``Note (copy)``, the same note
    in two folders — share most words and a name. Memories are not held to either: one fact said
    again in other words shares a fifth of its words (the sample's oat-milk trio 0.18–0.26), and
    its name is its first line. A note with no word in its text or name leaves that test to the others.
    Each test is passed twice: by the whole words, and by those few of the compared notes hold
    (:func:`without_common_words`: a template's words are no evidence), so no pair passes here that
    the whole words kept apart."""
    kept: dict[tuple[int, int], float] = {}
    few_common_words = different_names = 0
    for pair, cosine in pairs.items():
        first, second = own.get(pair[0]), own.get(pair[1])
        if first is None or second is None:
            kept[pair] = cosine
        elif _few_shared(first.text, second.text) or _few_shared(first.own_text, second.own_text):
            few_common_words += 1
        elif _none_shared(first.name, second.name) or _none_shared(first.own_name, second.own_name):
            different_names += 1
        else:
            kept[pair] = cosine
    return kept, few_common_words, different_names


def _few_shared(first: frozenset[str], second: frozenset[str]) -> bool:
    """Two sets of words (both some) sharing under :data:`OWN_SHARED_WORDS` of them (Jaccard)."""
    return bool(first and second) and len(first & second) < OWN_SHARED_WORDS * len(first | second)


def _none_shared(first: frozenset[str], second: frozenset[str]) -> bool:
    return bool(first and second) and not first & second


def _on_24_hour_clock(time: re.Match[str]) -> str:
    hour = int(time[1])
    if not 1 <= hour <= 12:
        return time[0]  # "14pm", "0am": not a 12-hour time, left as written
    hour = hour % 12 + (12 if time[3].casefold() == "p" else 0)
    return f"{hour}:{time[2]}" if time[2] else str(hour)


def text_words(body: str) -> int:
    """Words of a note's own text: headings and ``![[embeds]]`` are structure, not content. A
    run of Chinese or Japanese counts a word for every two characters (a sentence of fifteen
    was two "words", one per run between commas, and its note was left out as too short)."""
    own = _HEADING_LINE.sub(" ", _EMBED.sub(" ", body))
    runs = cjk_runs(own)
    return len(_WORD.findall(RUN.sub(" ", own))) + sum((len(run) + 1) // 2 for run in runs)


def similar_pairs(sources: np.ndarray, neighbours: np.ndarray, similarities: np.ndarray, threshold: float,
                  layers: Mapping[int, str | None]) -> dict[tuple[int, int], float]:
    """(low label, high label) → cosine for every source–neighbour pair that may be a duplicate.

    ``neighbours``/``similarities`` have one row per source. A neighbour outside the pool
    (expired, unreliable, deleted since the snapshot, or padding) or in another layer is
    not a pair.
    """
    pairs: dict[tuple[int, int], float] = {}
    rows, columns = np.nonzero(similarities >= threshold)
    for row, column in zip(rows.tolist(), columns.tolist(), strict=True):
        source, neighbour = int(sources[row]), int(neighbours[row, column])
        if source == neighbour or neighbour not in layers or layers[neighbour] != layers[source]:
            continue
        pairs[(min(source, neighbour), max(source, neighbour))] = float(similarities[row, column])
    return pairs


def exact_similar_pairs(labels: np.ndarray, matrix: np.ndarray, layers: Sequence[str | None], threshold: float,
                        block: int = 2048) -> dict[tuple[int, int], float]:
    """Every same-layer pair with cosine ≥ threshold, by blocked matrix products.

    O(n²) time and O(n·block) memory: the reference the ANN path is tested against and
    the all-pairs baseline of the benchmark. Fine inside a small window, not for a vault.
    """
    pairs: dict[tuple[int, int], float] = {}
    by_layer: dict[str | None, list[int]] = {}
    for position, layer in enumerate(layers):
        by_layer.setdefault(layer, []).append(position)
    for positions in by_layer.values():
        members = np.asarray(positions)
        group = np.ascontiguousarray(matrix[members])
        for start in range(0, len(members), block):
            scores = group[start : start + block] @ group.T
            for row, column in zip(*(axis.tolist() for axis in np.nonzero(scores >= threshold)), strict=True):
                if start + row < column:
                    a, b = int(labels[members[start + row]]), int(labels[members[column]])
                    pairs[(min(a, b), max(a, b))] = float(scores[row, column])
    return pairs


def confirmed_pairs(candidates: Iterable[tuple[int, int]], vectors: Mapping[int, np.ndarray],
                    threshold: float) -> dict[tuple[int, int], float]:
    """The candidate pairs whose exact cosine reaches the threshold (both notes still in), with it."""
    cosines = {(a, b): float(np.dot(vectors[a], vectors[b])) for a, b in candidates if a in vectors and b in vectors}
    return {pair: cosine for pair, cosine in cosines.items() if cosine >= threshold}


class _UnionFind:
    """Union-find over labels; a label with a day (``days``) never joins a set holding another
    day, nor one citing a work (``works``) a set citing another, nor a label a set holding one
    it is kept ``apart`` from, and two sets join only when the numbers of one (``numbers``) are
    all in the other's."""

    def __init__(self, days: Mapping[int, str] | None = None, numbers: Mapping[int, frozenset[str]] | None = None,
                 works: Mapping[int, Mapping[str, frozenset[str]]] | None = None,
                 apart: Mapping[int, frozenset[int]] | None = None) -> None:
        self.parent: dict[int, int] = {}
        self.apart: dict[int, frozenset[int]] = dict(apart or {})  # root → the labels its set may never hold
        self.members: dict[int, frozenset[int]] = {}  # root → its set's labels (kept only when some are kept apart)
        self.day: dict[int, str] = dict(days or {})  # root → the one day its set records (if any)
        self.numbers: dict[int, frozenset[str]] = dict(numbers or {})  # root → every number its set holds
        self.work: dict[int, Mapping[str, frozenset[str]]] = dict(works or {})  # root → the work its set cites

    def find(self, node: int) -> int:
        root = node
        while self.parent.setdefault(root, root) != root:
            root = self.parent[root]
        while self.parent[node] != root:  # path compression keeps later finds O(1)
            self.parent[node], node = root, self.parent[node]
        return root

    def union(self, a: int, b: int) -> bool:
        """Join the sets of ``a`` and ``b``; False (nothing joined) when they record different days."""
        return self.join(a, b) is None

    def join(self, a: int, b: int) -> str | None:
        """Join the sets of ``a`` and ``b``, or say why not: ``"copies"`` (one holds a sync copy
        whose original the other holds, and their texts differ), ``"days"`` (they record different
        days), ``"works"`` (they cite different works) or ``"numbers"`` (each holds a number the
        other does not)."""
        root_a, root_b = self.find(a), self.find(b)
        if root_a == root_b:
            return None
        day_a, day_b = self.day.get(root_a), self.day.get(root_b)
        if day_a is not None and day_b is not None and day_a != day_b:
            return "days"
        work_a, work_b = self.work.get(root_a, {}), self.work.get(root_b, {})
        if different_works(work_a, work_b):
            return "works"
        numbers_a, numbers_b = self.numbers.get(root_a, frozenset()), self.numbers.get(root_b, frozenset())
        if not (numbers_a <= numbers_b or numbers_b <= numbers_a):
            return "numbers"
        if self.apart:
            members_a, members_b = self.members.get(root_a, frozenset({root_a})), self.members.get(root_b, frozenset({root_b}))
            if self.apart.get(root_a, frozenset()) & members_b or self.apart.get(root_b, frozenset()) & members_a:
                return "copies"
        root, other = min(root_a, root_b), max(root_a, root_b)
        self.parent[other] = root
        if self.apart:
            self.members[root] = members_a | members_b
            self.apart[root] = self.apart.get(root_a, frozenset()) | self.apart.get(root_b, frozenset())
        day = day_a if day_a is not None else day_b
        if day is not None:
            self.day[root] = day
        if numbers_a | numbers_b:
            self.numbers[root] = numbers_a | numbers_b
        if work_a or work_b:
            self.work[root] = {kind: work_a.get(kind, frozenset()) | work_b.get(kind, frozenset())
                               for kind in {*work_a, *work_b}}
        return None

    def components(self) -> list[list[int]]:
        """Every set of more than one label, each sorted, in a stable order."""
        groups: dict[int, list[int]] = {}
        for node in list(self.parent):
            groups.setdefault(self.find(node), []).append(node)
        # A label whose every pair was refused is alone: no cluster.
        return sorted(sorted(group) for group in groups.values() if len(group) > 1)


def connected_components(pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Connected components of the pair graph, each sorted, in a stable order."""
    union_find = _UnionFind()
    for a, b in pairs:
        union_find.union(a, b)
    return union_find.components()


def components_by_day(pairs: Mapping[tuple[int, int], float], days: Mapping[int, str]) -> tuple[list[list[int]], int]:
    """The clusters, and how many pairs were kept apart because their notes record different days.

    Connected components of the pairs, except that a component never holds two notes whose
    own days (``days``: label → day; undated notes are absent) differ. Pairs are joined
    strongest first, so when an undated note is close to two notes of different days it
    joins the one it is closer to. Without days this is :func:`connected_components`.
    """
    components, different_days, _ = components_kept_apart(pairs, days, {})
    return components, different_days


def components_kept_apart(pairs: Mapping[tuple[int, int], float], days: Mapping[int, str],
                          numbers: Mapping[int, frozenset[str]]) -> tuple[list[list[int]], int, int]:
    """The clusters, and how many pairs were kept apart for recording different days and for
    holding different numbers.

    As :func:`components_by_day`, and a component never holds two notes that each hold a
    number the other does not (``numbers``: label → the numbers of its text): "locker 14" and
    "locker 27", "the 14th at 10:00" and "the 21st at 11:30" are one fact that changed, not one
    said twice — merged, the kept note would say both. A note that only adds a number ("9:45"
    beside "9:45 Lisbon time, 10:45 in Berlin") still joins. Strongest pairs first, and a
    set's numbers are all of its members', so no chain carries 14 into 27's cluster.
    """
    components, refusals = components_and_refusals(pairs, days, numbers, {})
    return components, refusals.count("days"), refusals.count("numbers")


def components_and_refusals(pairs: Mapping[tuple[int, int], float], days: Mapping[int, str],
                            numbers: Mapping[int, frozenset[str]],
                            works: Mapping[int, Mapping[str, frozenset[str]]],
                            apart: Mapping[int, frozenset[int]] | None = None) -> tuple[list[list[int]], list[str | None]]:
    """As :func:`components_kept_apart`, and a component never holds two notes citing two works
    (``works``: label → :func:`work_of`), nor two notes kept ``apart`` (:func:`conflicting_copies`);
    with each pair's refusal (``"copies"``, ``"days"``, ``"works"``, ``"numbers"``, or None: joined)."""
    union_find = _UnionFind(days, numbers, works, apart)
    refusals = [union_find.join(a, b) for a, b in sorted(pairs, key=lambda pair: (-pairs[pair], pair))]
    return union_find.components(), refusals


@dataclass(frozen=True)
class Candidate:
    """What decides whether a member is the cluster's canonical, compared in this order (lower wins)."""

    copy: bool  # a sync tool's copy of another member: last
    appended_words: int  # words the merge of the others into it would append: what it lacks of theirs
    generated_title: bool  # its title is its text's first line (remember made it): nobody chose it
    created: float  # the oldest first (none: last): the id and name the person and other notes know
    shorter: int  # minus the body's length
    path: str
    # minus the notes (not of the cluster) that link to it: the copy the person's pages point at.
    # Counted only when the rules above tie (_inbound_links reads the vault); 0 otherwise.
    linked_from: int = 0

    def key(self) -> tuple[bool, int, bool, float, int, int, str]:
        return (self.copy, self.appended_words, self.generated_title, self.created, self.linked_from, self.shorter, self.path)

    def tied_before_links(self, other: Candidate) -> bool:
        return self.key()[:4] == other.key()[:4]


def canonical_candidate(note: Note, others: Sequence[Note], cluster_paths: Collection[str] = (),
                        inbound: Mapping[str, int] | None = None, solar_hijri: bool = False) -> Candidate:
    """``note`` as a candidate to be kept, the others merged into it.

    A sync tool's copy of another member comes last: a conflict copy one line longer than its
    original, or identical to it, was kept, and the note the person links to was archived into it.
    Then the member the others' merge appends the fewest words to — the one that already says the
    most, as "the longest" meant to be: in a trial the newer note, three characters longer ("…oat
    milk and no sugar" beside "…oat milk, no sugar"), was kept, under the title ``remember`` had
    made from its first line, and the older note the agent had titled "Coffee: flat white with oat
    milk" was archived into it. Ties (most often: each says all the other does) go to a title
    someone chose, then to the oldest ``created``, then to the note most other notes link to
    (``inbound``: path → linking notes; two copies of a Notion page, the newer one kept because its
    path sorted first while the pages linked to the original), then to the longest body, then the path.
    ``solar_hijri``: the vault's Persian Calendar plugin is on (``created: 1403-05-12`` is 2024-08-02, as the
    index reads it; read as 1403 AD it was six centuries older than every note remember wrote).
    """
    created = created_moment(note.meta.get("created"), solar_hijri)  # as the note's date reads it: `created: 3 March 2026` too
    appended = sum(addition.words() for addition in merge_lines(note, others))
    return Candidate(is_copy_among(note.path, cluster_paths), appended, is_generated_title(note),
                     created.timestamp() if created else math.inf, -len(note.body.strip()), note.path,
                     -(inbound or {}).get(note.path, 0))


def _candidates(notes: Sequence[Note], inbound: Mapping[str, int] | None = None, solar_hijri: bool = False) -> list[Candidate]:
    paths = {note.path for note in notes}
    return [canonical_candidate(note, [other for other in notes if other is not note], paths, inbound, solar_hijri)
            for note in notes]


def needs_link_counts(notes: Sequence[Note], solar_hijri: bool = False) -> bool:
    """Do the first two candidates of a cluster tie by every rule before the links to them?
    Only then are the vault's links read (a read of every note)."""
    first, second, *_ = sorted(_candidates(notes, solar_hijri=solar_hijri), key=Candidate.key)
    return first.tied_before_links(second)


def _inbound_links(paths: VaultPaths, members: Collection[str]) -> dict[str, int]:
    """How many notes, none of ``members``, link to each of ``members``, each link resolved as
    ``--apply`` rewrites it (links.rewrite_links). A note that cannot be read counts no link:
    the dry run, which reads them all too, warns of it."""
    files, _issues = paths.scan()
    note_paths = [stat.path for stat in files if not is_canvas_path(stat.path)]
    redirects = LinkRedirects(note_paths, {path: path for path in members}, labels_first(paths.root))
    counts = dict.fromkeys(members, 0)
    for path in note_paths:
        if path in counts:
            continue
        try:
            text, _problems = decode(path, paths.resolve_inside(path).read_bytes())
        except (OSError, PathOutsideVault):
            continue
        for linked in linked_notes(text, redirects, path):
            counts[linked] += 1
    return counts


def why_kept(kept: Candidate, runner_up: Candidate, runner_up_path: str) -> str:
    """Why the canonical was kept rather than the member that came second, in words."""
    name = runner_up_path
    if kept.copy != runner_up.copy:
        return f"{name} is a sync tool's copy of it"
    if kept.appended_words != runner_up.appended_words:
        # Was "merged into it the others add 12 word(s), merged into x.md 15": a person read it twice.
        return (f"it already says the most: merging the others into it adds {kept.appended_words} word(s) to it; "
                f"into {name}, the next best, it would add {runner_up.appended_words}")
    said = "it says what the others say" if kept.appended_words == 0 else "the others add as many words to it as to " + name
    if kept.generated_title != runner_up.generated_title:
        return f"{said}, and its title was chosen, where {name}'s is its text's first line"
    if kept.created != runner_up.created:
        return f"{said}, and it is the older note (created first)"  # no created date sorts last
    if kept.linked_from != runner_up.linked_from:
        return f"{said}, and more notes link to it ({-kept.linked_from}; to {name}: {-runner_up.linked_from})"
    if kept.shorter != runner_up.shorter:
        return f"{said}, and it is the longer note"
    return f"{said}, and its path comes first"


def build_cluster(notes: Sequence[Note], matrix: np.ndarray, threshold: float,
                  inbound: Mapping[str, int] | None = None, solar_hijri: bool = False) -> Cluster:
    """A cluster from its notes and their vectors (same order); ``inbound``: how many other
    notes link to each (:func:`needs_link_counts`); ``solar_hijri``: :func:`canonical_candidate`."""
    candidates = _candidates(notes, inbound, solar_hijri)
    by_key = sorted(range(len(notes)), key=lambda index: candidates[index].key())
    order = [by_key[0], *sorted(by_key[1:], key=lambda index: notes[index].path)]
    similarity = matrix[order] @ matrix[order].T
    upper = similarity[np.triu_indices(len(order), 1)]
    linked = upper[upper >= threshold]
    merge = {addition.path: addition for addition in merge_lines(notes[order[0]], [notes[index] for index in order[1:]])}
    members = tuple(
        Member(notes[index].path, notes[index].id, notes[index].title, notes[index].content_hash,
               len(notes[index].body.strip()), 1.0 if position == 0 else float(similarity[0, position]),
               merge[notes[index].path].lines if position else (), merge[notes[index].path].said_already if position else ())
        for position, index in enumerate(order)
    )
    # confirmed_pairs and this product may round the last bit differently: never report
    # a weakest link below the threshold that admitted it.
    weakest_link = float(linked.min()) if linked.size else threshold
    why = why_kept(candidates[by_key[0]], candidates[by_key[1]], notes[by_key[1]].path)
    return Cluster(members, notes[order[0]].layer, weakest_link, float(upper.min()), why)
