"""``mcp`` and ``watch``: the long-running commands (serve the vault to an agent; keep the
index live), each stopped by Ctrl-C or SIGTERM."""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .shell import Context, library_errors, log_with_times, main

if TYPE_CHECKING:
    from ..watcher import Change, Watcher


@main.command()
@click.option("--http", "http_bind", metavar="HOST:PORT",
              help="Serve MCP's streamable HTTP transport at http://HOST:PORT/mcp instead of stdio "
                   "(port 0 = any free port). Requires a bearer token.")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --http: a file holding the bearer token, readable only by you "
                   "(instead of $VAULTMEM_MCP_TOKEN).")
@click.pass_obj
def mcp(obj: Context, http_bind: str | None, token_file: Path | None) -> None:
    """Serve the vault to an agent over MCP (stdio, or streamable HTTP with --http).

    Tools: remember, revise, recall, list_notes, list_tasks, explain, get, forget, mark_used, consolidate,
    expire, check.
    The index is reconciled before the first call and kept live while serving.
    Over stdio, stdout carries only the protocol. Over HTTP every request needs
    `Authorization: Bearer <token>` (the token comes from $VAULTMEM_MCP_TOKEN or
    --token-file) and browsers from other origins are refused; put a TLS reverse
    proxy in front before anything outside this machine connects. Logs go to stderr;
    Ctrl-C or SIGTERM stops the HTTP server (exit 0).
    """
    if token_file is not None and http_bind is None:
        raise click.UsageError("--token-file only applies with --http HOST:PORT")
    log_with_times()
    with library_errors():
        if http_bind is not None:
            serve_over_http(obj, http_bind, token_file)
            return
        vault = obj.vault  # a bad --vault fails here, before any protocol traffic
        from ..mcp_server import serve  # the MCP SDK is heavy; only this command needs it

        try:
            serve(vault)
        except KeyboardInterrupt:
            sys.exit(130)  # stopped by hand in a terminal: the conventional code, no traceback


def serve_over_http(obj: Context, http_bind: str, token_file: Path | None) -> None:
    from ..mcp_http import parse_bind, read_token, serve_http

    bind = parse_bind(http_bind)
    token = read_token(os.environ, token_file)  # no token, no server: refused before the vault is opened
    serve_http(obj.vault, bind, token)


@main.command()
@click.option("--quiet", is_flag=True, help="Print no line per change (warnings and errors still go to stderr).")
@click.option("--polling", is_flag=True, help="Poll the folder instead of using OS events (network shares, some containers).")
@click.pass_obj
def watch(obj: Context, quiet: bool, polling: bool) -> None:
    """Keep the index live while the vault is edited, until Ctrl-C or SIGTERM.

    Reconciles first, so edits made while nothing was watching are picked up, then
    prints one line per applied change on stdout ("12:03:04 updated notes/a.md"), and one
    for a folder moved with its notes ("12:03:05 moved folder A/ -> B/ (312 notes)").
    Warnings and errors go to stderr. Exits 0 when stopped by Ctrl-C or SIGTERM.
    """
    logging.getLogger().setLevel(logging.WARNING)  # stdout has the changes; stderr only what goes wrong
    # ... and how far a long reconcile is (a branch switch, a copied folder: the watcher's own
    # lines, every 10 s). Was: a `git checkout` that changed 1,861 notes left `watch` silent for
    # 3 minutes between its first 237 lines and the rest — a log that could not tell a hang from work.
    if not quiet:
        logging.getLogger("vaultmem.watcher").setLevel(logging.INFO)
    with library_errors():
        root = obj.vault.root
        watcher = obj.vault.watch(polling=polling, quiet=True, start=False,
                                  on_changes=None if quiet else lambda changes: render_changes(changes, root))
        watcher.run_until_signalled(on_ready=None if quiet else render_watch_start)
    if not quiet:
        click.echo(f"{time.strftime('%H:%M:%S')} stopped watching")


def render_watch_start(watcher: Watcher) -> None:
    report = watcher.initial_report
    summary = report.summary() if report is not None else "start-up reconcile interrupted"
    click.echo(f"{time.strftime('%H:%M:%S')} watching {watcher.paths.root} ({watcher.backend}): {summary}; Ctrl-C to stop")


def render_changes(changes: list[Change], root: Path) -> None:
    """One line per change, a folder's moves in one (watcher.folder_moves)."""
    from ..watcher import folder_moves  # loaded with the watcher already: no import cost here

    for told in folder_moves(changes, lambda folder: (root / folder).is_dir()):
        click.echo(f"{time.strftime('%H:%M:%S')} {told}")
