"""``remember``, ``revise``, ``forget``: the agent's writes to one note (each through the
library's one write path: git check, act, index, commit)."""

from __future__ import annotations

import math
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import click

from ..property_sets import assignments
from .shell import Context, as_typed, emit_json, json_option, library_errors, main, render_commit, render_resolution

if TYPE_CHECKING:
    from ..results import SimilarNote


@main.command()
@click.argument("text")
@click.option("--title", help="Title (default: the text's first line; the file name is made from its first words).")
@click.option("--layer", help="L1 working (1d), L2 episodic (7d), L3 semantic (90d), L4 procedural (never). "
              "Default: L2, or with --supersedes the layer of the notes it supersedes.")
@click.option("--ttl", help="Time to live instead of the layer default: 30m, 12h, 3d, 2w.")
@click.option("--expires-at", "expires_at", metavar="TIME", help="Explicit expiry (ISO-8601; naive = UTC).")
@click.option("--permanent", is_flag=True, help="Never expires (no expires_at is written).")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable). None with --supersedes: the superseded notes' tags.")
@click.option("--date", "day", metavar="DAY",
              help="The day (or time) the memory is about, written as its date property: 2026-01-28 dates it so in "
                   "search and list (default: dated by when it was written). A later day: the layer's TTL counts "
                   "from that day (L2: expires 7 days after it). A time is written as given, in its zone "
                   "(2026-12-09T10:00-08:00); one without a zone (2026-12-09T10:00) is your wall-clock time. One day in "
                   "words as --since reads it (yesterday, last friday, next tuesday; a weekday alone: the next one) is "
                   "that day, and said.")
@click.option("--folder", help="Vault folder for the note (default: remember_dir from .vaultmem.toml, 'memories'; unset, a Logseq graph's pages/ or a Dendron vault's folder).")
@click.option("--supersedes", "supersedes", multiple=True, metavar="NOTE",
              help="A note this one replaces (repeatable): it expires now and records superseded_by.")
@json_option
@click.pass_obj
def remember(obj: Context, text: str, title: str | None, layer: str | None, ttl: str | None, expires_at: str | None,
             permanent: bool, tags: tuple[str, ...], day: str | None, folder: str | None, supersedes: tuple[str, ...],
             as_json: bool) -> None:
    """Write TEXT as a new note, with the layer's expiry policy applied."""
    with library_errors(as_json):
        result = obj.vault.remember(text, title=title, layer=layer, tags=tags, expires_at=expires_at, ttl=ttl,
                                    permanent=permanent, folder=folder, supersedes=obj.notes(supersedes), date=day)
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(f"remembered {result.path} (id {result.id}, {result.layer}, expires {result.expires_at or 'never'}, "
               f"version {result.version})")
    if result.date_read is not None:
        click.echo(f"  date {result.date_read}")
    for old in result.supersedes:
        click.echo(f"  superseded {old.path} (id {old.id}): expired now, hidden from search")
    for left in result.unsaid:
        click.echo(f"  unsaid: {left.words()}")
    render_expires_before(result.expires_before)
    if result.named_beside is not None:
        bare = PurePosixPath(result.named_beside).stem
        click.echo(f"  named {PurePosixPath(result.path).name}: {result.named_beside}, the fact it replaces, keeps its file "
                   f"name (in the archive too, once `vaultmem expire --apply` moves it there), so a [[{bare}]] link opens "
                   f"the old fact — point it at [[{PurePosixPath(result.path).stem}]]")
    for other in result.similar:
        # Three decimals, as in JSON: listed from 0.83, a 0.876 shown as "0.88" read as one
        # consolidate (merging at >= 0.88) would merge, and it does not.
        click.echo(f"  similar ({other.similarity:.3f}): {other.path}{where_yours(other)} — {other.title}; "
                   f"{similar_advice(other, result.layer, obj.vault.config.consolidate.threshold)}")
    for namesake in result.same_name:
        click.echo(f"  same name: {namesake.path} (id {namesake.id}) goes by this name too: `get {result.title}` and "
                   f"[[{result.title}]] may find it instead of this note, and a write by that name refuses to pick; "
                   "name a note by its path to be sure")
    render_commit(result)


def render_expires_before(day: str | None) -> None:
    """remembering.expires_before's day, and how to keep the note until it is over."""
    if day is not None:
        click.echo(f"  expires before {day}, a day its text names: it leaves recall before that day is over; if it should "
                   f"be recalled until then, pass --date {day} (the layer's lifetime then counts from that day) or a later "
                   "--ttl/--expires-at")


def where_yours(other: SimilarNote) -> str:
    """Which lines of a note of yours say it (nothing for a memory, compared whole)."""
    if not other.yours or other.lines is None:
        return ""
    first, last = other.lines
    lines = f"line {first}" if first == last else f"lines {first}-{last}"
    return f" ({lines}{f', under {other.heading}' if other.heading else ''}: \"{other.says}\")"


def similar_advice(other: SimilarNote, layer: str, merge_threshold: float) -> str:
    """What to do about a note ``remember`` names as similar: consolidate merges within a layer
    only, at ``merge_threshold``; a note of yours (no layer) is never retired by a memory
    (supersede.plan_retirement)."""
    if other.yours:
        return ("a note of yours (no layer), not a memory: if it already says this, `forget` the memory you just wrote "
                "or keep both; --supersedes refuses a note of yours, so change it with `revise` if it is out of date")
    if other.layer == layer:
        return same_layer_advice(other.similarity, merge_threshold)
    return (f"it is in {other.layer}: if it already says this, keep the one whose layer fits how long it stays true "
            "(`forget` the other; consolidate merges within a layer only)")


def same_layer_advice(similarity: float, merge_threshold: float) -> str:
    """Similar notes are listed from 0.83, consolidate merges from 0.88: told to "run
    `consolidate`" about a pair at 0.863, a user saw "no near-duplicates found". The vault's threshold
    as consolidate prints it (was, review43b s43: a `threshold = 0.875` shown as "0.88")."""
    if similarity >= merge_threshold:
        return "if it already says this, `forget` one or run `consolidate` (it merges them)"
    merging = math.floor(round(similarity * 100, 6)) / 100  # two decimals, never above the pair's similarity
    return (f"if it already says this, `forget` one, or merge them with `consolidate --threshold {merging:.2f}` "
            f"(at this vault's {merge_threshold:g}, consolidate keeps them apart)")


@main.command()
@click.argument("note")
@click.option("--text", help="Replace the note's text (the body; the frontmatter stays as it is).")
@click.option("--append", help="Add a paragraph at the end of the note's text.")
@click.option("--title", help="A new title.")
@click.option("--layer", help="A new layer; without --ttl/--expires-at its policy applies from now, or from the note's later date (L4: no expiry).")
@click.option("--ttl", help="Expire this long from now: 30m, 12h, 3d, 2w.")
@click.option("--expires-at", "expires_at", metavar="TIME", help="Expire at this instant (ISO-8601; naive = UTC).")
@click.option("--permanent/--no-permanent", default=None,
              help="Never expires (expires_at is removed) / no longer permanent (the layer's expiry applies again).")
@click.option("--tag", "add_tags", multiple=True, help="Add a tag (repeatable).")
@click.option("--untag", "remove_tags", multiple=True, help="Remove a tag (repeatable).")
@click.option("--set", "set_properties", multiple=True, metavar="KEY=VALUE",
              help="Set a property (repeatable): company=Acme, last_contact=2026-02-01 (a date), aliases=[Matt, Matty]. "
                   "The note's other keys, their order and its text stay as they are; a property written only in "
                   "the text (speaker:: Caroline) is changed on its line.")
@click.option("--unset", "unset_properties", multiple=True, metavar="KEY", help="Remove a property (repeatable).")
@click.option("--date", "day", metavar="DAY", help="The day (or time) the memory is about now, as remember's --date "
                                                    "(an appointment that moved): an expiry vaultmem counted from the old day moves with it.")
@click.option("--if-version", "if_version", metavar="V", help="Only if the note is still at this version (from get/remember/revise/search).")
@json_option
@click.pass_obj
def revise(obj: Context, note: str, text: str | None, append: str | None, title: str | None, layer: str | None,
           ttl: str | None, expires_at: str | None, permanent: bool | None, add_tags: tuple[str, ...],
           remove_tags: tuple[str, ...], set_properties: tuple[str, ...], unset_properties: tuple[str, ...],
           day: str | None, if_version: str | None, as_json: bool) -> None:
    """Change NOTE in place: its text, title, layer, expiry, tags or other properties.

    The note keeps its id, path, usage history and every other frontmatter key.
    With --if-version, a note edited since that version is refused (WriteConflict).
    """
    with library_errors(as_json):
        result = obj.vault.revise(obj.note(note), text=text, append=append, title=title, layer=layer, ttl=ttl, expires_at=expires_at,
                                  permanent=permanent, add_tags=add_tags, remove_tags=remove_tags, if_version=if_version,
                                  set_properties=assignments(set_properties), unset_properties=unset_properties, date=day)
    if as_json:
        emit_json(result.as_dict())
        return
    render_resolution(result.resolved_from, result.path)
    if result.date_read is not None:
        click.echo(f"date {result.date_read}")
    if not result.changed:
        click.echo(f"{result.path} already reads as asked: nothing changed (version {result.version})")
        for written in result.in_text:
            click.echo(f"  ! {written.words()}")
        return
    layer = f"{result.layer}, " if result.layer else ""  # a note of no layer: none said (was "-,", as list and search had it)
    click.echo(f"revised {result.path} ({', '.join(result.changed)}): {layer}"
               f"{expiry_words(result.expires_at, result.expiry_invalid)}, version {result.version}")
    for written in result.in_text:
        click.echo(f"  {'' if written.changed else '! '}{written.words()}")
    for problem in result.problems:  # as get says them: a title or tags above read from a broken frontmatter
        click.echo(f"  ! {problem['field']}: {as_typed(problem['message'])}")
    if result.previous_title is not None:
        made = " (made from the new text, as remember makes one; the file name stays)" if title is None and text is not None else ""
        click.echo(f"  title: \"{result.previous_title}\" → \"{result.title}\"{made}")
    if result.expired and result.superseded_by is not None:
        from ..results import successor_reference, successor_words

        shown = result.as_dict()
        if result.succession_problem is not None:
            click.echo(f"  ! expired at {result.expires_at}: superseded by {successor_words(shown)}; this change is hidden "
                       f"from search with it, and {result.succession_problem}")
        else:
            click.echo(f"  ! expired at {result.expires_at}: superseded by {successor_words(shown)}, which holds the current "
                       f"fact; this change is hidden from search with it: revise {successor_reference(shown)} instead")
    elif result.expired:
        click.echo(f"  ! expired at {result.expires_at}: hidden from search, with this change; "
                   "give --ttl, --expires-at or --permanent to make it current")
    render_expires_before(result.expires_before)
    render_commit(result)


@main.command()
@click.argument("note")
@click.option("--hard", is_flag=True, help="Delete the file instead of moving it to vaultmem's archive folder.")
@json_option
@click.pass_obj
def forget(obj: Context, note: str, hard: bool, as_json: bool) -> None:
    """Move NOTE to vaultmem's archive folder (recoverable), or delete it with --hard.

    The archive folder is archive_dir in .vaultmem.toml, _archive/ by default: nothing searches
    it, and moving the file out makes it a note again. A folder of your own such as a PARA
    vault's 4 Archive/ is no archive to vaultmem unless archive_dir names it, and then none of
    its files is read as a note.
    """
    with library_errors(as_json):
        result = obj.vault.forget(obj.note(note), hard=hard)
    if as_json:
        emit_json(result.as_dict())
        return
    render_resolution(result.resolved_from, result.path)
    click.echo(f"deleted {result.path}" if hard else f"archived {result.path} → {result.archived_to}")
    for copy in result.copies_left:
        click.echo(f"! left {copy}: a sync tool's copy of it, with its text as another device had it; forget it too, "
                   "or it answers in its place", err=True)
    if result.in_git_history or result.git_history_unknown is not None:
        click.echo(f"! {result.left_notice()}", err=True)
    render_commit(result)


def expiry_words(expires_at: str | None, invalid: bool = False) -> str:
    """A reply's expiry: an ``expires_at`` that does not parse is never shown as a deadline."""
    if invalid:
        return f"expires_at {expires_at!r} does not parse (never expires until fixed; see vaultmem check)"
    return f"expires {expires_at or 'never'}"
