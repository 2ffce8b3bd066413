"""``expire``, ``consolidate``, ``check``: the lifecycle jobs over the whole vault — a dry
run (or a lint) by default, ``--apply``/``--fix`` to change files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..config import DEFAULT_THRESHOLD
from .shell import (
    AS_OF_HELP,
    Context,
    as_typed,
    emit_json,
    json_option,
    library_errors,
    main,
    render_commit,
    render_excluded,
    render_problems,
    shorten,
)

if TYPE_CHECKING:
    from ..check import CheckReport
    from ..consolidate import ConsolidationReport
    from ..merging import KeptChange, SaidAlready

def dry_run_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--dry-run``: what the command does without ``--apply`` anyway, accepted because people
    and agents type it (a trial's ``consolidate --dry-run --any-note`` was refused as an unknown
    option, with no word that a dry run is the default)."""
    return click.option("--dry-run", "dry_run", is_flag=True,
                        help="Only report what --apply would do (the default; accepted for clarity).")(function)


def refuse_dry_run_with_apply(dry_run: bool, apply: bool) -> None:
    if dry_run and apply:
        raise click.UsageError("--dry-run and --apply contradict each other: without --apply the command only reports; "
                               "give one of them")


LEFT_OUT_SHOWN = 10  # consolidate's text output lists this many left-out notes (--json: all)
APPENDED_SHOWN = 5  # and this many of the lines a merged note adds to the canonical


@main.command()
@click.option("--apply", is_flag=True, help="Archive the expired notes (default: only list them).")
@click.option("--hard", is_flag=True, help="With --apply: delete instead of archiving.")
@click.option("--as-of", "as_of", metavar="TIME", help=AS_OF_HELP)
@dry_run_option
@json_option
@click.pass_obj
def expire(obj: Context, apply: bool, hard: bool, as_of: str | None, dry_run: bool, as_json: bool) -> None:
    """List notes whose expires_at has passed; --apply archives them.

    Search never finds an archived note, `--include-expired` included: the old versions of
    facts `remember --supersedes` retired stop answering questions about the past through
    search. `vaultmem get _archive/PATH` still reads one, read-only (`get` of its old id
    names that path); git keeps its commits (`vaultmem history`)."""
    refuse_dry_run_with_apply(dry_run, apply)
    if hard and not apply:
        raise click.UsageError("--hard only makes sense with --apply")
    with library_errors(as_json):
        report = obj.vault.expire(apply=apply, hard=hard, now=as_of)
    if as_json:
        emit_json(report.as_dict())
        return
    verb = ("deleted" if hard else "archived") if apply else "would archive"
    skipped = {skip.path for skip in report.skipped}
    for entry in report.expired:
        if entry.path not in skipped:
            click.echo(f"{verb} {entry.path} (expired {entry.expires_at})")
    for skip in report.skipped:
        click.echo(f"{'skipped' if apply else 'would skip'} {skip.path}: {as_typed(skip.reason)}")
    if not report.expired:
        click.echo("no expired notes")
    elif not apply:
        movable = len(report.expired) - len(report.skipped)
        click.echo(f"{len(report.expired)} expired note(s), {movable} to archive"
                   + (f", {len(report.skipped)} skipped" if report.skipped else "")
                   + ("; run with --apply to archive them" if movable else ""))
    render_commit(report)


@main.command()
@click.option("--threshold", type=click.FloatRange(0, 1, min_open=True), metavar="X",
              help=f"Cosine similarity that makes two notes near-duplicates (default: [consolidate] threshold, else {DEFAULT_THRESHOLD}).")
@click.option("--window", type=click.IntRange(min=1), metavar="N",
              help="Look for duplicates of the N most recently created or modified notes (default 2000).")
@click.option("--all", "all_notes", is_flag=True, help="Sweep every note of the vault (through the vector index).")
@click.option("--include-expired", is_flag=True, help="Also merge notes whose expires_at has passed.")
@click.option("--any-note", is_flag=True, help="Also consider notes without a layer (your own notes), not only memories.")
@click.option("--apply", is_flag=True, help="Merge the clusters (default: only list them).")
@dry_run_option
@json_option
@click.pass_obj
def consolidate(obj: Context, threshold: float | None, window: int | None, all_notes: bool, include_expired: bool,
                any_note: bool, apply: bool, dry_run: bool, as_json: bool) -> None:
    """Find near-duplicate memories of one layer; --apply merges each cluster into the note that says the most.

    Only notes that carry a layer (memories) are considered unless --any-note.
    Merging unions tags, records the merged notes (aliases, merged_from), appends the
    lines only they held to the kept note (under a heading naming each), keeps the
    latest expiry, rewrites [[links]] to them and moves them to the archive folder.
    A merge a kill cut off before its notes were archived is finished by the next --apply.
    """
    refuse_dry_run_with_apply(dry_run, apply)
    if window is not None and all_notes:
        raise click.UsageError("--window and --all contradict each other: --all already sweeps every note; give one of them")
    with library_errors(as_json):
        report = obj.vault.consolidate(threshold=threshold, window=window, all=all_notes,
                                       include_expired=include_expired, apply=apply, any_note=any_note)
    if as_json:
        emit_json(report.as_dict())
        return
    render_clusters(report)
    render_consolidation_outcome(report)


def render_clusters(report: ConsolidationReport) -> None:
    scope = report.plan.scope
    kind = "notes" if scope.any_note else "memories"
    where = f"all {kind}" if scope.window is None else f"the {scope.window} most recent {kind}"
    expired = "expired notes included" if scope.include_expired else "expired notes left out"
    click.echo(f"near-duplicates at cosine >= {scope.threshold:g} among {where} "
               f"({report.plan.compared} compared, {expired})")
    if scope.any_note:
        click.echo("scope: every note, with or without a layer (--any-note)")
    else:
        click.echo(f"scope: memories (notes with a layer); {report.plan.not_memories} note(s) without a layer "
                   "not considered (--any-note includes them)")
    plan = report.plan
    kept_apart = (  # pairs at or above the threshold a rule keeps apart (consolidate.py), and what they are
        (plan.different_days, "whose notes record different days (a date property or a day in the name)"),
        (plan.different_numbers, "whose notes each hold a number the other does not (a changed phone, time or "
                                 "address, not one fact said twice; for your own notes, in their names too: ESC2 / ESC7, 1a / 1b)"),
        (plan.no_common_words, "whose texts share no word — in Chinese, Japanese or Korean, under a fifth of their pairs "
                               "of characters — (alike only to the vectors, as two lists of links can be)"),
        (plan.template_alike, "alike only by the lines of one of your templates (measured without them, below the "
                              "threshold)"),
        (plan.few_common_words, "of your own notes whose texts share under half their words, or under half once the "
                                "words of five or more of the notes compared (all, of three or four) are left out (two pages on one subject, two "
                                "pages of one template, not a page and its copy)"),
        (plan.different_names, "of your own notes whose names share no word, or none but words five or more of the "
                               "notes' names hold (all, of three or four) (a text copied into a page of another name, as a day's note into a "
                               "project's)"),
        (plan.different_works, "whose notes are about two works or two people (a citekey, doi, name or email "
                               "property each: two papers' or two people's notes of one template)"),
        (plan.sync_conflicts, "that are a sync tool's copy and its original, each holding lines the other lacks (both "
                              "devices changed the note: `vaultmem check` names the copy; keep the right text in the "
                              "original and delete the copy)"),
    )
    for count, what in kept_apart:
        if count:
            own = what.startswith("of your own notes ")
            which = what.removeprefix("of your own notes ") if own else what
            click.echo(f"kept apart: {count} pair(s) {'of your own notes ' if own else ''}at or above the threshold "
                       f"{which}: never merged")
    for number, cluster in enumerate(report.clusters, start=1):
        layer = f"layer {cluster.layer}" if cluster.layer else "no layer"  # was "layer -" (--any-note clusters)
        click.echo(f"\n{number}. {layer}: {len(cluster.members)} notes, "
                   f"similarity {cluster.similarity:.3f} (weakest pair {cluster.weakest_pair:.3f})")
        for position, member in enumerate(cluster.members):
            role = "keep" if position == 0 else f"merge {member.similarity:.3f}"
            click.echo(f"   {role:<11}  {member.path}  \"{member.shown_title}\"  {member.chars} chars")
            if position == 0 and cluster.why_kept:
                click.echo(f"                kept: {cluster.why_kept}")
            render_appended(member.appended)
            render_said_already(member.said_already)
        render_kept_changes(report.kept_changes_of(cluster.canonical.path), report.applied)


def render_kept_changes(changes: tuple[KeptChange, ...] | None, applied: bool) -> None:
    """What the merge changes (or changed) in the kept note's frontmatter, key by key."""
    if changes:
        click.echo(f"   frontmatter of the kept note {'changed' if applied else 'will change'}:")
        for change in changes:
            click.echo(f"                {change.describe()}")


def render_appended(lines: tuple[str, ...]) -> None:
    """The lines a merged note adds to the canonical (only the first few; --json: all)."""
    shown = [line for unit in lines for line in unit.split("\n") if line.strip()]
    for line in shown[:APPENDED_SHOWN]:
        click.echo(f"                + {line}")
    if len(shown) > APPENDED_SHOWN:
        click.echo(f"                + … and {len(shown) - APPENDED_SHOWN} more line(s) (--json lists them all)")


def render_said_already(said: tuple[SaidAlready, ...]) -> None:
    """The paragraphs a merged note holds that the kept note says in other words: not appended
    (the archived note keeps them), each with the kept note's sentence that says it."""
    for item in said[:APPENDED_SHOWN]:
        click.echo(f"                = {shorten(item.text)}  (not appended: the kept note says it: "
                   f"{' / '.join(shorten(sentence) for sentence in item.said_as)})")
    if len(said) > APPENDED_SHOWN:
        click.echo(f"                = … and {len(said) - APPENDED_SHOWN} more said already (--json lists them all)")


def render_unfinished(report: ConsolidationReport) -> None:
    """The merges a kill cut off before their notes were archived: finished now, or to be."""
    for entry in report.finished:
        for note in entry.merged:
            click.echo(f"finished the cut-off merge of {note.path} into {entry.canonical}, which holds it: "
                       f"archived to {note.archived_to}")
    if not report.applied:
        for cluster in report.plan.unfinished:
            for member in cluster.merged:
                click.echo(f"would finish the cut-off merge of {member.path} into {cluster.canonical.path}, which holds it "
                           "as the merge wrote it: it would be archived")


def render_consolidation_outcome(report: ConsolidationReport) -> None:
    left_out = report.plan.left_out
    if left_out:
        click.echo(f"\nleft out {len(left_out)} note(s):")
        for item in left_out[:LEFT_OUT_SHOWN]:
            click.echo(f"   {item.path}: {as_typed(item.reason)}")
        if len(left_out) > LEFT_OUT_SHOWN:
            click.echo(f"   … and {len(left_out) - LEFT_OUT_SHOWN} more (--json lists them all)")
    for entry in report.merged:
        for note in entry.merged:
            click.echo(f"merged {note.path} into {entry.canonical} (archived to {note.archived_to})")
    render_unfinished(report)
    for path in report.links_rewritten:
        click.echo(f"{'rewrote' if report.applied else 'would rewrite'} links in {path}")
    for skip in report.skipped:
        click.echo(f"{'skipped' if report.applied else 'would skip'} the cluster of {skip.canonical}: {skip.reason}")
    for warning in report.warnings:
        click.echo(f"! {warning}")
    render_commit(report)
    skipped = {skip.canonical for skip in report.skipped}
    mergeable = [cluster for cluster in report.clusters if cluster.canonical.path not in skipped]
    merged = sum(len(cluster.merged) for cluster in mergeable)
    if not report.clusters:
        click.echo("\nno near-duplicates found")
    elif not report.applied:
        click.echo(f"\n{len(mergeable)} cluster(s), {merged} note(s) would be merged into the first note of each"
                   + (f" ({len(skipped)} cluster(s) would be skipped, see above)" if skipped else "")
                   + ". Dry run: nothing changed; run again with --apply to merge.")


def checked(obj: Context, fix: bool) -> CheckReport:
    """The vault's check; a .vaultmem.toml that does not load is the one problem reported
    (every other command refuses it, exit 2 — and so does --fix: it would write under it).
    A setting that loads but cannot be used (the embedder) is Vault.check's to report."""
    from ..check import config_report
    from ..errors import ConfigError

    try:
        vault = obj.vault
    except ConfigError as error:
        if fix:
            raise
        return config_report(error)
    return vault.check(fix=fix)


@main.command()
@click.option("--fix", is_flag=True, help="Stamp missing expiries (created + layer TTL) and remove expiries from permanent notes.")
@json_option
@click.pass_obj
def check(obj: Context, fix: bool, as_json: bool) -> None:
    """Lint every note (and .vaultmem.toml); exit 1 when problems remain."""
    with library_errors(as_json):
        report = checked(obj, fix)
    if as_json:
        emit_json(report.as_dict())
    else:
        for applied in report.fixed:
            click.echo(f"fixed {applied.path}: {applied.action}")
        render_problems(report.problems)
        click.echo(f"{report.files} notes checked, {len(report.problems)} problem(s)" + (f", {len(report.fixed)} fixed" if fix else ""))
        for notice in report.notices:
            click.echo(f"{notice.field}: {notice.message}; {notice.fix}")
        render_excluded(report.not_notes)
        render_commit(report)
    sys.exit(0 if report.ok else 1)
