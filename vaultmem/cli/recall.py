"""``index``, ``search``, ``list``, ``explain``, ``get``, ``stats``: the index and what is read from it."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..dating import PERIOD_FORMS, calendar_day
from ..errors import InvalidTimestamp, NoteNotFound, UsageError
from ..lifecycle import parse_timestamp
from ..option_names import Surface
from ..period_words import phrase_key
from ..query_periods import period_in_query
from ..snippets import items_text, readable
from .shell import (
    AS_OF_HELP,
    Context,
    answers_to,
    as_typed,
    emit_json,
    index_progress,
    json_option,
    library_errors,
    main,
    render_excluded,
    render_problems,
    render_resolution,
    said_once,
    shorten,
    to_the_second,
)

if TYPE_CHECKING:
    from ..explain import ExplainedPassage
    from ..search import HitPassage

INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C (128 + SIGINT)
MAX_HITS = 100_000  # beyond it SQLite cannot take the number (and no answer needs more)
# A heading shown in a hit's place line is cut to this many characters: an agent's memory export
# titles each entry with its whole paragraph (`### 1. User wants to use Twitter …`, 700 characters),
# which the line printed whole above the snippet that says it again (s41). --json keeps it whole.
HEADING_SHOWN = 80


@main.command()
@click.option("--rebuild", is_flag=True, help="Drop the derived index and build it again (usage history is kept).")
@json_option
@click.pass_obj
def index(obj: Context, rebuild: bool, as_json: bool) -> None:
    """Bring the derived index in line with the vault's files."""
    try:
        with library_errors(as_json):
            report = obj.vault.index(rebuild=rebuild, progress=None if as_json else index_progress)
    except KeyboardInterrupt:
        # Was: click's "Aborted!" and exit 1, the code of a command that failed, with no word on
        # whether the index (or a note) was left broken. Neither is: indexing writes no note, and
        # what it had not done yet is done by the next command (adr/0008 "Crash safety").
        click.echo("\nindex interrupted: your notes are untouched (indexing never writes them); the next command "
                   "brings the index in line with them, or run `vaultmem index` again", err=True)
        sys.exit(INTERRUPTED)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(f"indexed {obj.vault.root}: {report.summary()}" + (" (rebuilt)" if report.rebuilt else "")
               + (" — every note read again: the index was made by another version of vaultmem" if report.reread and not report.rebuilt else ""))
    render_excluded(report.not_notes)
    # Files that could not be read (or whose metadata did not load), and a change git merged
    # into an archived note (search never finds it), are listed one by one; metadata mistakes
    # are `check`'s job, so they are counted here, not repeated.
    listed = [problem for problem in report.problems if problem.field in LISTED_FIELDS]
    render_problems(listed)
    rest = len(report.problems) - len(listed)
    if rest:  # after the lines above, a bare count read as their total (a trial: 2 printed, "1 problem(s)")
        more = f"and {rest} more" if listed else str(rest)
        click.echo(f"{more} problem(s) in note metadata: run `vaultmem check` to list them all with their fixes")


LISTED_FIELDS = frozenset({"file", "encoding", "frontmatter", "archive"})


def search_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options of a search: how many hits, and its filters (``search`` and ``explain`` share them)."""
    count = click.option("-k", "k", type=click.IntRange(min=1, max=MAX_HITS), default=10, show_default=True, help="How many hits.")
    return count(filter_options(function))


def filter_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The read-time filters of a search, which ``list`` takes too."""
    options = (
        click.option("--layer", "layers", multiple=True, help="Only these layers (L1–L4 or working/episodic/semantic/procedural)."),
        click.option("--tag", "tags", multiple=True, help="Only notes with this tag (repeat for all of several)."),
        click.option("--include-expired", is_flag=True, help="Also show notes whose expires_at has passed."),
        click.option("--as-of", "as_of", metavar="TIME", help=AS_OF_HELP),
        click.option("--since", metavar="WHEN", help="Only notes dated at or after WHEN: an ISO date or time, a period "
                     f"({PERIOD_FORMS}: from its start) or a duration back from now (7d; +7d: ahead). "
                     "A note's date: its date property, a day in its file name (read in the vault's daily-note format "
                     "too), the period a periodic note's name is (2026-W09: kept when any of its days is in range), its created (.vaultmem.toml [dates] names other properties), or else a line such as `Date: 2026-11-30` under its title. Days are this machine's "
                     "calendar days."),
        click.option("--until", metavar="WHEN", help="Only notes dated at or before WHEN (a date or period alone: through its end)."),
        json_option,
    )
    for option in reversed(options):
        function = option(function)
    return function


@main.command()
@click.argument("query")
@search_options
@click.pass_obj
def search(obj: Context, query: str, k: int, layers: tuple[str, ...], tags: tuple[str, ...], include_expired: bool, as_of: str | None,
           since: str | None, until: str | None, as_json: bool) -> None:
    """Recall notes matching QUERY (hybrid: vectors + BM25); expired notes hidden."""
    carried: list[str] = []
    with library_errors(as_json), said_once(carried):
        hits = obj.vault.search(query, k=k, layers=layers, tags=tags, include_expired=include_expired, now=as_of,
                                since=since, until=until)
        carried += hits.warnings
    if as_json:
        emit_json([hit.as_dict() for hit in hits])
        for warning in hits.warnings:
            click.echo(f"warning: {as_typed(warning)}", err=True)  # stdout stays one JSON list
        return
    for warning in hits.warnings:
        click.echo(f"! {as_typed(warning)}")
    if not hits:
        click.echo("no matching notes")
    for number, hit in enumerate(hits, start=1):
        expiry = expiry_words(hit.expires_at)
        dated = f", dated {calendar_day(hit.date)}{' (git)' if hit.date_from else ''}" if hit.date else ""
        click.echo(f"{number:>2}. {hit.title}  {header(hit.layer, expiry + dated)}  {hit.path}")
        click.echo(f"    score {hit.score:.2f} ({hit.match}){where_words(hit.passage)}")
        click.echo(f"    {hit.snippet}")
        # A warning about the whole answer is on every hit too (for JSON readers); said once above.
        for warning in (warning for warning in hit.warnings if warning not in hits.warnings):
            click.echo(f"    ! {as_typed(warning)}")


def header(layer: str | None, rest: str) -> str:
    """A hit's or listed note's bracket: ``[L3, no expiry]``; a note without a layer (the person's
    own, not a memory) has none said — ``[-, no expiry]`` left a person guessing what the dash was."""
    return f"[{layer}, {rest}]" if layer else f"[{rest}]"


def expiry_words(expires_at: str | None) -> str:
    """A hit's or a listed note's expiry in its header: ``expires <when>``, ``no expiry``, or,
    for a value that does not parse (``expires_at: tomorrow``), that it is unreadable: the
    header read ``expires tomorrow`` for a note that never expires until it is fixed."""
    if not expires_at:
        return "no expiry"
    try:
        parse_timestamp(expires_at)
    except InvalidTimestamp:
        return f"expires_at {expires_at!r} unreadable"
    return f"expires {expires_at}"


@main.command("list", context_settings={"allow_extra_args": True})
@click.option("-k", "k", type=click.IntRange(min=1, max=MAX_HITS), default=20, show_default=True, help="How many notes.")
@click.option("--offset", type=click.IntRange(min=0, max=MAX_HITS), default=0, show_default=True,
              help="Pass over this many notes first (the next part of a long list).")
@filter_options
@click.pass_obj
def list_command(obj: Context, k: int, offset: int, layers: tuple[str, ...], tags: tuple[str, ...], include_expired: bool,
                 as_of: str | None, since: str | None, until: str | None, as_json: bool) -> None:
    """List notes by date, newest first (notes with no date last); expired notes hidden.

    Takes the filters of `search`: `list --since "last week"`, `list --layer L3 --tag people`."""
    refuse_words(click.get_current_context().args)
    carried: list[str] = []
    with library_errors(as_json), said_once(carried):
        listing = obj.vault.list_notes(k=k, layers=layers, tags=tags, include_expired=include_expired, now=as_of,
                                       since=since, until=until, offset=offset)
        carried += listing.warnings
    if as_json:
        emit_json({**listing.as_dict(), "warnings": [as_typed(warning) for warning in listing.warnings]})
        return
    for warning in listing.warnings:
        click.echo(f"! {as_typed(warning)}")
    if not listing:
        click.echo("no notes")
    for listed in listing:
        expiry = expiry_words(listed.expires_at)
        day = calendar_day(listed.date) if listed.date else "undated"
        title = "" if listed.title == day else f"{listed.title}  "  # a daily note's title is its day
        by_git = ", dated by git" if listed.date_from else ""
        click.echo(f"{day:<10}  {title}{header(listed.layer, expiry + by_git)}  {listed.path}")
        if listed.snippet:
            click.echo(f"    {listed.snippet}")
        for warning in listed.warnings:
            click.echo(f"    ! {as_typed(warning)}")
    if listing.more:
        click.echo(f"… and {listing.more} more (raise -k, or --offset {offset + len(listing)} for the next ones)")


def refuse_words(words: list[str]) -> None:
    """`list "last week"`: the words a person gives `list`, which takes none, refused with the
    command they meant. Was click's "Got unexpected extra argument (last week)" (trial s37)."""
    if not words:
        return
    said = " ".join(words)
    period = period_in_query(said)
    if period is not None and phrase_key(said) == period.said:
        bound = shlex.quote(period.bound)
        raise click.UsageError(f"list takes no words: to list the notes dated {period.bound}, run "
                               f"`vaultmem list --since {bound} --until {bound}`")
    raise click.UsageError(f"list takes no words: to find notes by words, run `vaultmem search {shlex.quote(said)}`; "
                           "to list them by date, `vaultmem list --since WHEN`")


def where_words(passage: HitPassage | ExplainedPassage | None) -> str:
    """`` · lines 12–30 · Install > Linux``: where a hit's passage is in its file, its headings as
    they read (``# [[2023-10-12-Donnerstag|10-12 Donnerstag]]`` is ``10-12 Donnerstag``, as the
    snippet shows it; ``--json`` keeps them as written, to find them in the file)."""
    if passage is None:
        return ""
    first, last = passage.lines
    lines = f"line {first}" if first == last else f"lines {first}–{last}"
    shown = (shorten(readable(heading), HEADING_SHOWN) for heading in passage.headings)
    return f" · {lines}" + (f" · {' > '.join(shown)}" if passage.headings else "")


@main.command()
@click.argument("note")
@click.argument("query")
@search_options
@click.pass_obj
def explain(obj: Context, note: str, query: str, k: int, layers: tuple[str, ...], tags: tuple[str, ...],
            include_expired: bool, as_of: str | None, since: str | None, until: str | None, as_json: bool) -> None:
    """Why NOTE is, or is not, among the hits of `search QUERY` with the same options."""
    with library_errors(as_json):
        try:
            result = obj.vault.explain(obj.note(note), query, k=k, layers=layers, tags=tags, include_expired=include_expired,
                                       now=as_of, since=since, until=until, surface=Surface.CLI)  # --json too: what was typed
        except NoteNotFound:
            # The two typed the other way round (`explain "the question" notes/x.md`, as `search` takes
            # its words first): was "no note matches 'the question'" and every way of naming a note (s40).
            if not query or not answers_to(obj.vault, query):
                raise
            raise UsageError(f"explain takes the note first, then the query: {note!r} names no note and {query!r} does; "
                             f"run `vaultmem explain {shlex.quote(query)} {shlex.quote(note)}`") from None
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(f"{result.path}" + (f" — {result.title}" if result.title else ""))
    click.echo(f"query {result.query!r}, k {result.k}: {'in the answer' if result.in_answer else 'not in the answer'}")
    ranks = ", ".join(f"{side} {rank if rank is not None else '-'}" for side, rank in
                      (("vectors", result.rank["vectors"]), ("full text", result.rank["text"]), ("fused", result.rank["fused"])))
    fused = result.score["fused"]
    # A filtered-out note's figures are a search it is not in: said before them, not only in the last reason.
    label = "rank without the filters that keep it out" if result.ranked_without_filters else "rank"
    click.echo(f"{label}: {ranks}" + (f"; score {fused:.2f} ({result.match})" if fused is not None else ""))
    if result.confidence is not None:
        click.echo(f"the answer: {result.confidence}")
    if result.passage is not None:
        click.echo(f"best passage:{where_words(result.passage).removeprefix(' ·')}")
        click.echo(f"    {result.passage.snippet}")
    for reason in result.reasons:
        click.echo(f"- {reason}")


@main.command()
@json_option
@click.pass_obj
def stats(obj: Context, as_json: bool) -> None:
    """Notes by layer, expired now, problems, index size, embedder, passages and vectors."""
    with library_errors(as_json):
        result = obj.vault.stats()
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(f"notes: {result.notes}" + (f" ({layer_words(result.by_layer)})" if result.by_layer else ""))
    problems = " (`vaultmem check` lists them with their fixes)" if result.with_problems else ""
    click.echo(f"expired now: {result.expired}; with problems: {result.with_problems}{problems}")
    click.echo(f"index: {result.index_bytes / 1_048_576:.1f} MiB in .vaultmem/; embedder: {result.embedder} ({result.dimension} dims)")
    click.echo(f"passages (the parts of notes search ranks, a vector each): {result.passages}; "
               f"whole-note vectors (similar notes, consolidate): {result.vectors_in_snapshot + result.vectors_in_delta}")
    saved = result.passage_vectors_in_snapshot + result.vectors_in_snapshot
    newer = result.passage_vectors_in_delta + result.vectors_in_delta
    click.echo(f"vectors: {saved} in the saved search graph, {newer} added since "
               "(searched one by one until enough pile up to be folded in)")


def layer_words(by_layer: dict[str, int]) -> str:
    """``L2: 5, L4: 1, no layer: 21``: the JSON's ``none`` (notes without a layer, such as a
    person's own pages) in words (a trial: ``none: 21`` read as no notes at all)."""
    return ", ".join(f"{'no layer' if layer == 'none' else layer}: {count}" for layer, count in by_layer.items())


@main.command()
@click.argument("note")
@json_option
@click.pass_obj
def get(obj: Context, note: str, as_json: bool) -> None:
    """Show a note: metadata, body, whether it expired, problems, usage.

    NOTE#Heading (NOTE#H1#H2, NOTE#^block-id), as an Obsidian link names a section, shows
    that section alone, with the lines of the file it is."""
    with library_errors(as_json):
        view = obj.vault.get(obj.note(note))
    if as_json:
        emit_json(view.as_dict())
        return
    render_resolution(view.resolved_from, view.path)
    click.echo(f"{view.title}\n  path: {view.path}\n  id: {view.id}  version: {view.version}\n"
               f"  layer: {view.layer or '-'}  tags: {', '.join(view.tags) or '-'}"
               + (f"  dated: {view.date}" if view.date else ""))
    if view.aliases:
        click.echo(f"  aliases: {', '.join(view.aliases)}")
    render_properties(view.other_properties())
    if view.section is not None:
        click.echo(f"  {view.section_notice()}")
    if view.archived:
        click.echo(f"  {view.archived_notice()}")
    elif view.expired:
        # A person who moved a note back from the archive reads this: it stays hidden until its
        # expiry moves, and the next expire --apply archives it again (s28-life trial).
        keep = "" if view.superseded_by is not None else (
            f"; to keep it, give it a later expiry: vaultmem revise {shlex.quote(view.path)} --ttl 90d (or --permanent)")
        click.echo(f"  EXPIRED at {view.expires_at}: hidden from search (vaultmem expire --apply archives it){keep}")
    else:
        click.echo(f"  expires: {view.expires_at or ('never (permanent)' if view.permanent else 'never')}")
    if view.superseded_by is not None:
        successor = view.superseded_by
        click.echo(f"  superseded by {successor.id}" + (f" ({successor.path})" if successor.path else " (no longer in the vault)"))
    click.echo(f"  used: {view.use_count} time(s), last {to_the_second(view.last_used_at) if view.last_used_at else 'never'}")
    for problem in view.problems:
        click.echo(f"  ! {problem['field']}: {as_typed(problem['message'])}")
    click.echo("")
    click.echo(view.body)


MAX_PROPERTIES_SHOWN = 15  # the rest are in --json: the body stays in sight
MAX_PROPERTY_CHARS = 100


def render_properties(properties: list[tuple[str, Any]]) -> None:
    """A note's other properties that hold a value, one line each in file order, long values cut;
    the empty ones only counted: a person's template leaves a dozen fields empty (`phone:`,
    `twitter:` …), and they took the lines a `birthday` or `spouse` further down needed (a trial)."""
    if not properties:
        return
    filled = [(key, value) for key, value in properties if property_text(value).strip()]
    click.echo("  properties:")
    for key, value in filled[:MAX_PROPERTIES_SHOWN]:
        line = f"{key}: {' '.join(property_text(value).split())}"
        click.echo(f"    {line[: MAX_PROPERTY_CHARS - 1]}…" if len(line) > MAX_PROPERTY_CHARS else f"    {line}")
    hidden = [f"{len(filled) - MAX_PROPERTIES_SHOWN} more"] if len(filled) > MAX_PROPERTIES_SHOWN else []
    hidden += [f"{len(properties) - len(filled)} empty"] if len(filled) < len(properties) else []
    if hidden:
        click.echo(f"    and {' and '.join(hidden)} (--json shows them all)")


def property_text(value: Any) -> str:
    """A frontmatter value (as JSON holds it) the way a person reads it: a list comma-separated
    (semicolons when an item holds a comma: snippets.items_text),
    no value empty, true/false as YAML writes them."""
    if isinstance(value, list):
        return items_text([property_text(item) for item in value])
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)
