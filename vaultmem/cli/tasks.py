"""``tasks``: the vault's task lines by due day (tasks.py; adr/0026 "Task dates", its "Tasks")."""

from __future__ import annotations

import click

from ..dating import PERIOD_FORMS
from ..tasks import DEFAULT_TASKS, TaskHit
from .shell import AS_OF_HELP, Context, as_typed, emit_json, json_option, library_errors, main, said_once

MAX_TASKS = 100_000  # beyond it SQLite cannot take the number (and no answer needs more)
_STATUS_FLAGS = ("open", "done", "cancelled", "overdue", "all")


@main.command("tasks")
@click.argument("query", required=False)
@click.option("--open", "open_", is_flag=True, help="Open tasks (the default; any box but [x], [X] and [-]).")
@click.option("--done", is_flag=True, help="Done tasks ([x]; the default with --done-since/--done-until).")
@click.option("--cancelled", is_flag=True, help="Cancelled tasks ([-]).")
@click.option("--overdue", is_flag=True, help="Open tasks due before today.")
@click.option("--all", "all_", is_flag=True, help="Tasks of every status.")
@click.option("--due-since", metavar="WHEN", help=f"Only tasks due on or after WHEN: an ISO day, a period ({PERIOD_FORMS}; "
              "this week and last week in the vault's week) or a duration from now (7d: back; +7d: ahead).")
@click.option("--due-until", metavar="WHEN", help="Only tasks due on or before WHEN (a period: through its last day).")
@click.option("--done-since", metavar="WHEN", help="Only tasks done on or after WHEN (their ✅ day or [completion:: …]).")
@click.option("--done-until", metavar="WHEN", help="Only tasks done on or before WHEN.")
@click.option("--tag", "tags", multiple=True, help="Only tasks whose own line, or whose note's tags property, carries this tag (a #tag on another "
              "line of the note does not count; repeat for all of several).")
@click.option("--include-expired", is_flag=True, help="Also the tasks of notes whose expires_at has passed.")
@click.option("--as-of", "as_of", metavar="TIME", help=AS_OF_HELP)
@click.option("-k", "k", type=click.IntRange(min=1, max=MAX_TASKS), default=DEFAULT_TASKS, show_default=True, help="How many tasks.")
@click.option("--offset", type=click.IntRange(min=0, max=MAX_TASKS), default=0, show_default=True,
              help="Pass over this many tasks first (the next part of a long list).")
@json_option
@click.pass_obj
def tasks_command(obj: Context, query: str | None, open_: bool, done: bool, cancelled: bool, overdue: bool, all_: bool,
                  due_since: str | None, due_until: str | None, done_since: str | None, done_until: str | None,
                  tags: tuple[str, ...], include_expired: bool, as_of: str | None, k: int, offset: int, as_json: bool) -> None:
    """List task lines (`- [ ] …`; in a Logseq graph `- TODO …`, `- LATER …` too) by due day, then file and line; open ones unless asked.

    QUERY may be the question as asked: its periods (due this week, finished yesterday, done on the
    16th, due before Friday, next month, 2026-12-04), status words (open, done, finished, cancelled,
    overdue) and words of asking (what, is, my, tasks, to do) are read as such, and said on a
    `read:` line; the rest keeps the tasks each of whose words is in the task's text, its note's
    title or its Kanban lane, in any case (`tasks Doing`). Words in double quotes are always text.
    An option wins: words that say otherwise are refused. `tasks "what's due this week"`,
    `tasks acme --due-until "next week"`, `tasks "done on the 16th"`."""
    chosen = [name for name, given in zip(_STATUS_FLAGS, (open_, done, cancelled, overdue, all_), strict=True) if given]
    if len(chosen) > 1:
        raise click.UsageError(f"--{' and --'.join(chosen)} ask for different tasks: give one of them")
    carried: list[str] = []
    with library_errors(as_json), said_once(carried):
        found = obj.vault.tasks(status=chosen[0] if chosen else None, due_since=due_since, due_until=due_until,
                                done_since=done_since, done_until=done_until, tags=tags, query=query, k=k,
                                include_expired=include_expired, now=as_of, offset=offset)
        carried += found.warnings
    if as_json:
        emit_json({**found.as_dict(), "warnings": [as_typed(warning) for warning in found.warnings]})
        return
    if found.read:
        click.echo(f"read: {found.read}")
    for warning in found.warnings:
        click.echo(f"! {as_typed(warning)}")
    if not found:
        click.echo("no tasks")
    for task in found:
        click.echo(_task_line(task))
    if found.more:
        click.echo(f"… and {found.more} more (raise -k, or --offset {offset + len(found)} for the next ones)")


def _task_line(task: TaskHit) -> str:
    """``2025-12-05  [ ] Call Dana  (scheduled 2025-12-03, every week)  projects/acme.md:12``; a
    Kanban card's lane first among the details (``lane Doing``)."""
    said = [f"lane {task.lane}"] if task.lane else []
    said += [f"{kind} {day}" for kind, day in task.dates.items() if kind != "due"]
    said += [task.recurrence] if task.recurrence else []
    details = f"  ({', '.join(said)})" if said else ""
    return f"{task.dates.get('due', '-'):<10}  [{task.box}] {task.text}{details}  {task.path}:{task.line}"
