"""``used``, ``stale``, ``usage export|import``, ``history``: how notes were used, and their git history."""

from __future__ import annotations

import json
import math
from typing import IO

import click

from ..config import DEFAULT_STALE_DAYS, MAX_STALE_DAYS
from .shell import Context, as_typed, emit_json, json_option, library_errors, main, render_resolution, to_the_second


def _refuse_nan(ctx: click.Context, param: click.Parameter, value: float) -> float:
    # FloatRange lets NaN through (every comparison with NaN is false).
    if math.isnan(value):
        raise click.BadParameter("must be a number of days, not nan", ctx, param)
    return value


@main.command()
@click.argument("notes", nargs=-1, required=True)
@json_option
@click.pass_obj
def used(obj: Context, notes: tuple[str, ...], as_json: bool) -> None:
    """Record that NOTES were used (they appeared in a result the agent acted on)."""
    with library_errors(as_json):
        used_notes = obj.vault.mark_used(obj.notes(notes))
    if as_json:
        emit_json([used_note.as_dict() for used_note in used_notes])
        return
    for used_note in used_notes:
        render_resolution(used_note.resolved_from, used_note.path)
        click.echo(f"{used_note.path}: used {used_note.use_count} time(s), last {to_the_second(str(used_note.last_used_at))}")


@main.command()
@click.option("--days", type=click.FloatRange(min=0, max=MAX_STALE_DAYS), callback=_refuse_nan, default=DEFAULT_STALE_DAYS, show_default=True, help="Idle for more than this many days.")
@click.option("--layer", "layers", multiple=True, help="Only these layers (L1–L4 or working/episodic/semantic/procedural; repeat for several).")
@click.option("--include-expired", is_flag=True, help="Also list notes whose expires_at has passed (normally `expire`'s business).")
@json_option
@click.pass_obj
def stale(obj: Context, days: float, layers: tuple[str, ...], include_expired: bool, as_json: bool) -> None:
    """List notes nobody used (or, never used, created) in the last N days; oldest first."""
    with library_errors(as_json):
        notes = obj.vault.stale(days=days, layers=layers, include_expired=include_expired)
    if as_json:
        emit_json([note.as_dict() for note in notes])
        # stdout stays the contracted list; what was left out goes beside it, as JSON too (adr/0023).
        if notes.left_out:
            left_out = [{"reason": as_typed(reason), "count": count} for reason, count in notes.left_out.items()]
            click.echo(json.dumps({"left_out": left_out}, ensure_ascii=False), err=True)
        return
    for note in notes:
        click.echo(f"{note.path}: idle {note.idle_days:g} days (since {note.basis} {to_the_second(note.since)}), used {note.use_count}×")
    if not notes:
        click.echo(f"no note idle for more than {days:g} days")
    for reason, count in notes.left_out.items():
        click.echo(f"left out {count} note(s): {as_typed(reason)}")


@main.group()
def usage() -> None:
    """Back up or restore usage history (the one state not derived from the vault)."""


@usage.command("export")
@click.argument("file", type=click.File("w"), default="-")
@click.pass_obj
def usage_export(obj: Context, file: IO[str]) -> None:
    """Write usage history as JSON to FILE (default stdout)."""
    with library_errors():
        document = obj.vault.usage_export()
    file.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    if file.name != "<stdout>":  # the JSON went to a file: say what it holds, once it is closed
        file.close()  # a write that fails on closing fails the command before any word of success
        # On stderr: the file may be this process's stdout by another name (/dev/stdout).
        click.echo(f"exported usage of {len(document['usage'])} note(s) to {file.name}", err=True)


@usage.command("import")
@click.argument("file", type=click.File("rb"))
@click.pass_obj
def usage_import(obj: Context, file: IO[bytes]) -> None:
    """Merge usage history from a JSON export in FILE ('-' for stdin)."""
    from ..usage import read_export

    with library_errors():
        count = obj.vault.usage_import(read_export(file.read(), file.name))
    click.echo(f"imported usage of {count} note(s)")


@main.command()
@click.argument("note")
@json_option
@click.pass_obj
def history(obj: Context, note: str, as_json: bool) -> None:
    """Commits that touched NOTE (newest first, following renames).

    A note no longer in the vault (deleted, archived) is named by its old id, path or title:
    its history starts with the commit that took it out, after a line saying where it went."""
    with library_errors(as_json):
        commits = obj.vault.history(obj.note(note))
    render_resolution(commits.resolved_from, commits.path, err=as_json)  # stdout stays one JSON list
    if commits.gone is not None:
        click.echo(str(commits.gone), err=as_json)
    if not commits:  # an empty list must not read as "the command did nothing"
        click.echo(f"no commit holds {commits.path} yet: it is new, or moved or renamed since the last commit (or git "
                   "ignores it); its history starts with the commit that adds it", err=True)
    if as_json:
        emit_json([commit.as_dict() for commit in commits])
        return
    for commit in commits:
        click.echo(f"{commit.hash[:10]}  {commit.date}  {commit.author}\n    {commit.message}")
