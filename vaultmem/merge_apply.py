"""Applying a consolidation plan (consolidate.py): each cluster becomes its canonical note.

Effects, ordered so that a crash never leaves a dangling link:

1. every file of every cluster is re-read; a cluster whose files changed since the plan
   was made (content hash) is skipped with a message, the others proceed;
2. each canonical's frontmatter is edited surgically (tags, aliases, merged_from, expiry),
   and the lines of the merged notes it does not contain are appended to its body under
   a heading naming their source (merging.py), so no fact leaves recall;
3. every ``[[wikilink]]``, ``![[embed]]`` and ``[text](note.md)`` link to a merged note is
   rewritten to the canonical (links.py finds and rewrites them), only in the files that contain one,
   each guarded by its hash (adr/0014: swapped in, verified after the swap);
4. the merged notes move to the archive folder (recoverable; git has the rest), each
   verified as it moves. A cluster is merged whole or not at all: if a merged note turns
   out edited, or the canonical was saved over and no longer records the merge, the
   cluster is undone (notes moved back, the canonical's old text, links pointed back)
   and reported as skipped — the person's new text is never archived as "merged".

What the canonical gains (frontmatter values, appended lines) is decided by merging.py's
pure functions; the links are found and rewritten by links.py; each file is written
through noteio's guarded writes. See adr/0010-consolidation.md and adr/0014-racing-edits.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .body_edits import append_paragraph
from .canvas import CANVAS_SUFFIX, is_canvas_path
from .consolidate import (
    ArchivedNote,
    Cluster,
    ConsolidationPlan,
    ConsolidationReport,
    Member,
    MergedCluster,
    SkippedCluster,
    unmerged_reason,
)
from .errors import (
    FrontmatterError,
    InvalidTimestamp,
    NotUtf8Note,
    PathOutsideVault,
    ReadOnlyNote,
    Spelled,
    UnresolvedConflict,
    WriteConflict,
    message_parts,
)
from .field_edits import edit_fields, writes_properties
from .gitops import committed_bytes
from .links import LinkRedirects, Rewrite, labels_first, rewrite_canvas, rewrite_links
from .merge_markers import require_merged, require_resolved, unmerged_notes
from .merging import FrontmatterChange, additions, appended_text, kept_changes, merged_frontmatter, string_list
from .noteio import FileChange, JoplinTime, move_if_unchanged, refuse_read_only, replace_if_unchanged, require_utf8
from .notes import Note, content_hash, decode, parse_note, utf16_encoding
from .ordered import unique
from .paths import VaultPaths
from .revision import updated_stamp
from .writer import archive_note

LINK_WRITE_ATTEMPTS = 3


@dataclass(frozen=True)
class _Prepared:
    """A cluster whose files are unchanged, with its canonical's new bytes."""

    cluster: Cluster
    canonical_raw: bytes  # as checked
    canonical_bytes: bytes  # with the merged frontmatter
    finishing: bool = False  # a cut-off merge: the canonical holds it already, only its notes are archived


@dataclass
class _Written:
    """A file this run wrote: its bytes before the run, what it holds now, how its links are rewritten."""

    original: bytes
    current: bytes
    rewrite: Rewrite | None = None  # None: its links were not rewritten
    clean: bool = True  # False: the person edited it between two of our writes (no automatic undo)


def preview_plan(plan: ConsolidationPlan, paths: VaultPaths) -> ConsolidationReport:
    """The dry run: ``plan``, with the clusters ``apply_plan`` would skip in ``skipped`` and the
    same reason — each cluster's files are re-read and its merge is computed (step 1 and 2
    above), nothing is written. A dry run never promises a merge that apply refuses."""
    report = plan.report()
    unmerged = unmerged_notes(paths.root)
    prepared = [item for cluster in plan.unfinished if (item := _prepare_finish(cluster, paths, report, unmerged)) is not None]
    prepared += [item for cluster in plan.clusters if (item := _prepare(cluster, paths, report, unmerged)) is not None]
    redirects = _redirects(item.cluster for item in prepared)
    if redirects:
        # The files apply would rewrite links in, found as apply finds them: a person must see
        # which of their files a merge touches before applying it, not only the cluster's own.
        _preview_links(report, paths, LinkRedirects(_vault_notes(report, paths), redirects, labels_first(paths.root)), unmerged)
    return report


def _vault_notes(report: ConsolidationReport, paths: VaultPaths) -> list[str]:
    """Every note's path (a canvas is no link's target by its bare name); a file the scan
    could not read is a warning."""
    files, issues = paths.scan()
    report.warnings += [f"{issue.path}: {issue.reason}; links to merged notes there were not checked" for issue in issues]
    return [stat.path for stat in files if not is_canvas_path(stat.path)]


def _link_targets(report: ConsolidationReport, paths: VaultPaths, redirects: LinkRedirects) -> list[tuple[str, Rewrite]]:
    """Every note (the merged ones excepted) and canvas that may hold a link to a merged note."""
    notes = sorted({path for group in redirects.by_name.values() for path in group} - set(redirects.redirects))
    canvases, unreadable = paths.files_with_suffix(CANVAS_SUFFIX)
    report.warnings += [f"{path}: {reason}; links to merged notes there were not checked" for path, reason in unreadable]
    return [*((note, rewrite_links) for note in notes), *((canvas, rewrite_canvas) for canvas in canvases)]


def _preview_links(report: ConsolidationReport, paths: VaultPaths, redirects: LinkRedirects, unmerged: set[str]) -> None:
    """``report.links_rewritten``: the files whose links apply would rewrite, nothing written."""
    for path, rewrite in _link_targets(report, paths, redirects):
        try:
            raw = paths.resolve_inside(path).read_bytes()
        except (OSError, PathOutsideVault) as error:
            report.warnings.append(f"{path}: links to merged notes there could not be checked ({error})")
            continue
        if utf16_encoding(raw) is not None:
            if _links_to_merged(path, raw, redirects, rewrite):
                report.warnings.append(f"{path}: links to merged notes would not be rewritten (it is not saved as UTF-8); "
                                       "point them at the canonical by hand")
            continue
        text = raw.decode("utf-8", errors="surrogateescape")
        new_text, ambiguous = rewrite(text, redirects, path)
        report.warnings += [f"{path}: the link to {target!r} matches several notes; it would not be rewritten" for target in unique(ambiguous)]
        if new_text == text:
            continue
        try:
            # What --apply's rewrite refuses (_rewrite_file), and warns of, instead of listing it.
            require_resolved(path, text)
            require_merged(paths.root, [path], unmerged)
            refuse_read_only(paths.resolve_inside(path), path, replacing=True)
        except (UnresolvedConflict, ReadOnlyNote) as error:
            report.warnings.append(Spelled(f"{path}: links to merged notes would not be rewritten (", *message_parts(error),
                                           "); point them at the canonical by hand"))
            continue
        report.links_rewritten.append(path)


def apply_plan(plan: ConsolidationPlan, paths: VaultPaths, now: datetime | None = None) -> ConsolidationReport:
    """Merge every cluster of ``plan`` whose files did not change since it was made.

    A cluster is merged whole or not at all: when a merged note turns out to have been
    edited by the time it is archived, its cluster is undone (the canonical gets its old
    text back, links to that cluster's notes are pointed back at them) and reported as
    skipped, so the person's new text is never archived as "merged".
    """
    return _Application(plan, paths, now if now is not None else plan.scope.now).run()


class _Application:
    def __init__(self, plan: ConsolidationPlan, paths: VaultPaths, moment: datetime) -> None:
        self.paths = paths
        self.moment = moment  # the kept notes' `updated`, where they say it in Dendron's or Joplin's form
        self.report = ConsolidationReport(plan, applied=True)
        self.written: dict[str, _Written] = {}
        self.moves: list[FileChange] = []
        self.note_paths: list[str] = []
        # Git's unfinished merges (no markers in the file), asked once: no cluster note nor link is written in one.
        self.unmerged = unmerged_notes(paths.root)

    def run(self) -> ConsolidationReport:
        report = self.report
        # Cut-off merges first: their kept note may also keep a new cluster, whose write then builds on it.
        prepared = [item for cluster in report.plan.unfinished
                    if (item := _prepare_finish(cluster, self.paths, report, self.unmerged)) is not None]
        prepared += [item for cluster in report.plan.clusters
                     if (item := _prepare(cluster, self.paths, report, self.unmerged, self.moment)) is not None]
        written = [item for item in prepared if self._write_canonical(item)]
        redirects = _redirects(item.cluster for item in written)
        if redirects:
            # A canvas is no link's target by its bare name ([[Board]] is Board.md) and its cards
            # are rewritten as JSON (rewrite_canvas below), never as a note's Markdown.
            self.note_paths = _vault_notes(report, self.paths)
            self._rewrite_vault_links(LinkRedirects(self.note_paths, redirects, labels_first(self.paths.root)))
        undone = [item for item in written
                  if not (self._canonical_carries_merge(item) and self._archive(item.cluster, item.finishing))]
        if undone:
            self._undo(undone, [item for item in written if item not in undone])
        report.changes = [FileChange(path, entry.original, entry.current) for path, entry in self.written.items()
                          if entry.current != entry.original] + self.moves
        report.touched = unique(change.path for change in report.changes)
        return report

    def _write_canonical(self, item: _Prepared) -> bool:
        canonical = item.cluster.canonical
        if item.finishing:
            # The kept note already holds the merge: it is not written again (its bytes, its mtime).
            self.written.setdefault(canonical.path, _Written(item.canonical_raw, item.canonical_raw))
            return True
        try:
            replace_if_unchanged(self.paths.resolve_inside(canonical.path), item.canonical_bytes, canonical.content_hash,
                                 canonical.path, self.paths.root)
        except (WriteConflict, PathOutsideVault) as error:
            # Edited (or moved out of reach) between the check and the write: the person's
            # edit wins, this cluster waits.
            _skip(item.cluster, self.report, f"{canonical.path} changed while consolidating ({error}); run consolidate again to review this cluster")
            return False
        except OSError as error:
            # A read-only note (ReadOnlyNote), a full disk: this cluster is skipped, not the run
            # stopped half-way with earlier clusters' kept notes written and nothing archived.
            _skip(item.cluster, self.report, Spelled(f"{canonical.path} could not be written (", *message_parts(error),
                                                     "); nothing of this cluster was merged — fix that, then run "
                                                     "consolidate again"))
            return False
        self.written[canonical.path] = _Written(item.canonical_raw, item.canonical_bytes)
        return True

    def _rewrite_vault_links(self, redirects: LinkRedirects, only: Iterable[str] | None = None) -> None:
        """Rewrite links in every note and canvas that has one to a merged note (the
        merged notes excepted), or in ``only`` those files."""
        report = self.report
        if only is None:
            targets = _link_targets(report, self.paths, redirects)
        else:
            targets = [(path, rewrite_links) for path in only]
        for path, rewrite in targets:
            try:
                changed, ambiguous = self._rewrite_file(path, redirects, rewrite)
            except (OSError, WriteConflict, PathOutsideVault, UnicodeError, UnresolvedConflict, NotUtf8Note) as error:
                report.warnings.append(Spelled(f"{path}: links to merged notes were not rewritten (", *message_parts(error),
                                               "); point them at the canonical by hand"))
                continue
            report.warnings += [f"{path}: the link to {target!r} matches several notes; not rewritten" for target in unique(ambiguous)]
            if changed:
                report.links_rewritten.append(path)

    def _rewrite_file(self, path: str, redirects: LinkRedirects, rewrite: Rewrite) -> tuple[bool, list[str]]:
        absolute = self.paths.resolve_inside(path)
        for _attempt in range(LINK_WRITE_ATTEMPTS):
            raw = absolute.read_bytes()
            # A UTF-16 note's links are indexed (notes.decode), but read as UTF-8 below its
            # [[link]] is not found: without this the link stayed dangling and nobody was told.
            # Only one that links to a merged note is told: every UTF-16 note in the vault was
            # reported as "links to merged notes were not rewritten", linking to them or not.
            if utf16_encoding(raw) is not None and not _links_to_merged(path, raw, redirects, rewrite):
                return False, []
            require_utf8(path, raw)
            # surrogateescape: bytes that are not UTF-8 pass through unchanged.
            text = raw.decode("utf-8", errors="surrogateescape")
            require_resolved(path, text)  # the person's merge in progress: not ours to edit
            require_merged(self.paths.root, [path], self.unmerged)
            new_text, ambiguous = rewrite(text, redirects, path)
            if new_text == text:
                return False, ambiguous
            new = new_text.encode("utf-8", errors="surrogateescape")
            try:
                replace_if_unchanged(absolute, new, content_hash(raw), path, self.paths.root)
            except WriteConflict:
                continue  # edited between our read and our write: rewrite the new text
            entry = self.written.get(path)
            if entry is None:
                self.written[path] = _Written(raw, new, rewrite)
            else:
                # A canonical written earlier in this run; edited by the person since if
                # its bytes are no longer ours, and then it cannot be undone automatically.
                self.written[path] = _Written(entry.original, new, rewrite, entry.clean and entry.current == raw)
            return True, ambiguous
        raise WriteConflict(path)

    def _canonical_carries_merge(self, item: _Prepared) -> bool:
        """Does the canonical still hold the merge? A save the person made after our
        write (an editor's buffer read before it) can replace it; then archiving the
        merged notes would leave their text nowhere but in the archive."""
        canonical = item.cluster.canonical
        try:
            raw = self.paths.resolve_inside(canonical.path).read_bytes()
        except (OSError, PathOutsideVault):
            raw = b""
        if raw == self.written[canonical.path].current:
            return True
        try:
            recorded = set(string_list(parse_note(canonical.path, raw), "merged_from")) if raw else set()
        except FrontmatterError:
            recorded = set()
        if {member.id for member in item.cluster.merged} <= recorded:
            return True  # edited on top of the merge: it stands
        self.written[canonical.path].clean = False
        _skip(item.cluster, self.report, f"{canonical.path} was saved over while consolidating and no longer records the merge; "
                                         "nothing of this cluster was merged — run consolidate again to review it")
        return False

    def _archive(self, cluster: Cluster, finishing: bool = False) -> bool:
        """Move the cluster's merged notes to the archive, each only as checked; on the
        first that changed, move back those already moved and return False."""
        moved: list[tuple[Member, str, bytes]] = []
        for member in cluster.merged:
            try:
                archived, changes = archive_note(self.paths, member.path, member.content_hash)
            except (WriteConflict, PathOutsideVault, OSError) as error:
                self._unarchive(moved)
                if isinstance(error, (WriteConflict, PathOutsideVault)):
                    why = f"{member.path} changed while it was being merged ({error}); nothing of this cluster was merged — run consolidate again to review it"
                else:  # the file system refused (an archive folder this user may not write, a full disk): no edit of theirs
                    why = (f"{member.path} could not be moved to the archive ({error}); nothing of this cluster was merged — "
                           "fix that, then run consolidate again")
                _skip(cluster, self.report, why)
                return False
            moved.append((member, archived, changes[0].before or b""))
            self.moves += changes
        done = self.report.finished if finishing else self.report.merged
        done.append(MergedCluster(cluster.canonical.path, tuple(ArchivedNote(member.path, archived) for member, archived, _ in moved)))
        return True

    def _unarchive(self, moved: list[tuple[Member, str, bytes]]) -> None:
        for member, archived, raw in moved:
            self.moves = [change for change in self.moves if change.path not in (member.path, archived)]
            try:
                move_if_unchanged(self.paths.resolve_inside(archived), [(member.path, self.paths.resolve_inside(member.path))],
                                  content_hash(raw), archived, self.paths.root)
            except (WriteConflict, PathOutsideVault, OSError) as error:
                self.report.warnings.append(f"{member.path} stays archived at {archived}: it could not be moved back ({error}); "
                                            "move it back by hand")
                self.moves += [FileChange(member.path, raw, None), FileChange(archived, None, raw, moved_from=member.path)]

    def _undo(self, undone: list[_Prepared], kept: list[_Prepared]) -> None:
        """Give every file this run wrote the text it would have had without ``undone``."""
        surviving = LinkRedirects(self.note_paths, _redirects(item.cluster for item in kept), labels_first(self.paths.root))
        edited = {item.cluster.canonical.path: item for item in kept}
        for path, entry in self.written.items():
            base = edited[path].canonical_bytes if path in edited else entry.original
            intended = _rewritten(base, entry.rewrite, surviving, path)
            if intended == entry.current:
                continue
            if not entry.clean:
                self.report.warnings.append(f"{path}: was edited while consolidating, so vaultmem left it as it is now; "
                                            "check its links and merged_from by hand")
                continue
            try:
                replace_if_unchanged(self.paths.resolve_inside(path), intended, content_hash(entry.current), path, self.paths.root)
            except WriteConflict:
                self.report.warnings.append(f"{path}: was edited while consolidating, so vaultmem left it as it is now; "
                                            "check its links and merged_from by hand")
                continue
            except (PathOutsideVault, OSError) as error:
                # Not an edit: a full disk, a read-only note, its folder swapped for a symlink out.
                # Said as "was edited", the person looked for an edit that was never made.
                self.report.warnings.append(_not_put_back(path, error))
                continue
            entry.current = intended
            if intended == base and path in self.report.links_rewritten:
                self.report.links_rewritten.remove(path)
        # Notes that are live again may link to notes that were merged after all.
        restored = [member.path for item in undone for member in item.cluster.merged]
        if surviving.redirects:
            self._rewrite_vault_links(surviving, only=restored)


def _not_put_back(path: str, error: PathOutsideVault | OSError) -> Spelled:
    """Why ``path``, written by this run, still holds its change although its cluster was undone."""
    return Spelled(f"{path}: could not be put back as it was before this consolidation (", *message_parts(error),
                   "), so it still holds this run's change (merged_from and the lines added, or links pointed at "
                   "the canonical) although its cluster was not merged; fix that (a full disk: free some space), "
                   "then take that change out by hand (or restore the file from git)")


def _redirects(clusters: Iterable[Cluster]) -> dict[str, str]:
    """Each merged note's path → the note that keeps it at the end of this run. A cut-off merge's
    kept note (plan.unfinished) can itself be merged into another by a cluster of the same run:
    links to its left-over notes then go on to that note, not to one this run archives."""
    direct = {member.path: cluster.canonical.path for cluster in clusters for member in cluster.merged}
    return {path: _kept_at_last(direct, path) for path in direct}


def _kept_at_last(direct: Mapping[str, str], path: str) -> str:
    seen = {path}
    target = direct[path]
    while target in direct and target not in seen:  # seen: never a loop, but a walk must end
        seen.add(target)
        target = direct[target]
    return target


def _rewritten(base: bytes, rewrite: Rewrite | None, redirects: LinkRedirects, path: str) -> bytes:
    if rewrite is None or not redirects.redirects:
        return base
    text = base.decode("utf-8", errors="surrogateescape")
    return rewrite(text, redirects, path)[0].encode("utf-8", errors="surrogateescape")


def _prepare(cluster: Cluster, paths: VaultPaths, report: ConsolidationReport, unmerged: set[str],
             moment: datetime | None = None) -> _Prepared | None:
    """Re-read the cluster's files; ``None`` (and a message) if any changed or cannot be merged
    (``unmerged``: the notes git's index holds unmerged). ``moment``: when the merge is written
    (a dry run: ``None``, no ``updated`` said)."""
    reason = None
    notes: list[Note] = []
    raws: list[bytes] = []
    for member in cluster.members:
        if member.path in unmerged:  # a git merge stopped on it since the plan was made
            _skip(cluster, report, f"{member.path}: {unmerged_reason(member.path)}")
            return None
        try:
            raw = paths.resolve_inside(member.path).read_bytes()
        except PathOutsideVault as error:
            reason = f"{member.path}: {error}"
        except OSError as error:
            reason = f"{member.path} cannot be read any more ({error.strerror}); run consolidate again"
        else:
            if content_hash(raw) != member.content_hash:
                reason = f"{member.path} changed since the clusters were computed; run consolidate again to review this cluster"
            notes.append(parse_note(member.path, raw))
            raws.append(raw)
        if reason is not None:
            _skip(cluster, report, reason)
            return None
    try:
        stamp = None if moment is None else updated_stamp(notes[0], raws[0], moment)
        edited, change = _merged_bytes(paths, raws[0], notes[0], notes[1:], stamp)
        report.kept_changes[cluster.canonical.path] = kept_changes(notes[0], change)
    except (FrontmatterError, InvalidTimestamp) as error:
        said = str(error)  # an error that names the kept note already is not prefixed with it twice
        _skip(cluster, report, said if said.startswith(f"{cluster.canonical.path}: ") else f"{cluster.canonical.path}: {said}")
        return None
    try:
        # The kept note is written over: a read-only one is refused by that write (ReadOnlyNote),
        # so the dry run says so too instead of listing a merge --apply then skips.
        refuse_read_only(paths.resolve_inside(cluster.canonical.path), cluster.canonical.path, replacing=True)
    except ReadOnlyNote as error:
        _skip(cluster, report, Spelled(f"{cluster.canonical.path} cannot be written (", *message_parts(error),
                                       "); nothing of this cluster is merged — fix that, then run consolidate again"))
        return None
    return _Prepared(cluster, raws[0], edited)


def _merged_bytes(paths: VaultPaths, raw: bytes, canonical: Note, merged: Sequence[Note],
                  updated: Any = None) -> tuple[bytes, FrontmatterChange]:
    """The kept note's bytes ``raw`` with ``merged`` merged into it, as apply writes them, and its
    frontmatter change. ``updated``: the value its ``updated`` says now (revision.updated_stamp) —
    not a change asked for, so not in the change shown; without it a Dendron note kept the day it
    was made as its last change after the merge (a trial)."""
    change = merged_frontmatter(canonical, merged)
    written = change.set_values if updated is None else {**change.set_values, "updated": updated}
    # A Logseq page kept gets `merged-from::`, `tags::`, `alias::` … on its property lines.
    edited = edit_fields(raw, written, change.remove, in_properties=writes_properties(paths.root, canonical))
    found = additions(canonical, merged)  # the same lines the plan showed: the files are unchanged
    if found:
        edited = append_paragraph(edited, appended_text(found))
    return edited, change


def cut_off_writes(paths: VaultPaths, report: ConsolidationReport) -> tuple[list[FileChange], list[str]]:
    """For a commit (auto_commit): the kept notes of the cut-off merges ``report`` finished, as the
    changes the killed run made and never committed — each from what HEAD holds to what the merge
    wrote, only when merging the notes archived now into HEAD's text gives the kept note's bytes
    exactly (nothing of the person's is in it) — and a warning for each other one. Committing
    the archive move alone put "merged" in git with the merged lines nowhere in it (s35 review)."""
    changes: list[FileChange] = []
    warnings: list[str] = []
    checked = {change.path: change.before for change in reversed(report.changes) if change.before is not None}
    for entry in report.finished:
        path = entry.canonical
        head = committed_bytes(paths.root, path)
        try:
            raw = checked.get(path) or paths.resolve_inside(path).read_bytes()
            archived = [parse_note(note.path, paths.resolve_inside(note.archived_to).read_bytes()) for note in entry.merged]
            expected = None if head is None else _merged_bytes(paths, head, parse_note(path, head), archived,
                                                                _updated_written(parse_note(path, head), head, parse_note(path, raw)))[0]
        except (OSError, PathOutsideVault, FrontmatterError, InvalidTimestamp):
            raw, expected = None, None  # said below, as any kept note not committed
        if head is not None and expected == raw:
            changes.append(FileChange(path, head, expected))
        elif raw is None or head != raw:
            warnings.append(f"{path}: the merge the cut-off run wrote into it (of {', '.join(note.path for note in entry.merged)}) "
                            "is not committed: it is not that merge of what git holds alone; review it "
                            f"(`git diff -- {path}`) and commit it yourself")
    return changes, warnings


_ANY_MOMENT = datetime(2000, 1, 1, tzinfo=UTC)  # asks updated_stamp only for the form, never for a value


def _updated_written(head: Note, head_raw: bytes, written: Note) -> Any:
    """The ``updated`` the cut-off run wrote into the kept note (``written``), in the form its
    bytes were made from, when the note says it in Dendron's or Joplin's form (``head``); else
    ``None``. That run stamped its own moment: merging again now could not give its bytes."""
    form = updated_stamp(head, head_raw, _ANY_MOMENT)
    value = written.meta.get("updated")
    if form is None or value is None:
        return None
    return JoplinTime.of(value) if isinstance(form, JoplinTime) and isinstance(value, datetime) else value


def _prepare_finish(cluster: Cluster, paths: VaultPaths, report: ConsolidationReport, unmerged: set[str]) -> _Prepared | None:
    """A cut-off merge (plan.unfinished) whose files are as the plan checked them (byte for byte:
    merging.merge_not_held), or ``None`` and a message."""
    raws: list[bytes] = []
    for member in cluster.members:
        try:
            raw = paths.resolve_inside(member.path).read_bytes()
        except (OSError, PathOutsideVault) as error:
            _skip(cluster, report, f"{member.path} cannot be read any more ({error}); run consolidate again")
            return None
        if member.path in unmerged or content_hash(raw) != member.content_hash:
            _skip(cluster, report, f"{member.path} changed since the cut-off merge into {cluster.canonical.path} was checked; "
                                   "run consolidate again to review it")
            return None
        raws.append(raw)
    return _Prepared(cluster, raws[0], raws[0], finishing=True)


def _skip(cluster: Cluster, report: ConsolidationReport, reason: str) -> None:
    report.skipped.append(SkippedCluster(cluster.canonical.path, reason))


def _links_to_merged(path: str, raw: bytes, redirects: LinkRedirects, rewrite: Rewrite) -> bool:
    """Whether a note not saved as UTF-8 holds a link ``rewrite`` would point elsewhere (or
    cannot tell where), read as it is indexed (notes.decode)."""
    text, _problems = decode(path, raw)
    new_text, ambiguous = rewrite(text, redirects, path)
    return new_text != text or bool(ambiguous)
