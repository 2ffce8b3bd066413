"""The ``vaultmem`` command line: parse options, call one library method, render.

No SQL, no lifecycle rules, no file writes here. Library errors (``VaultmemError``)
become a one-line message on stderr and exit code 1; usage errors exit 2 (click).
With ``--json`` stdout carries exactly one JSON document.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from .errors import UsageError, VaultmemError

JSON_HELP = "Print one JSON document on stdout instead of text."


class Context:
    def __init__(self, vault_path: str) -> None:
        self.vault_path = vault_path
        self._vault: Any = None

    @property
    def vault(self) -> Any:
        if self._vault is None:
            from .vault import Vault

            self._vault = Vault(self.vault_path)
        return self._vault


def emit_json(document: Any) -> None:
    click.echo(json.dumps(document, ensure_ascii=False, indent=2, default=str))


@contextmanager
def library_errors(as_json: bool = False) -> Iterator[None]:
    """Turn library errors into a clear message and exit code (1, or 2 for usage)."""
    try:
        yield
    except UsageError as error:
        _fail(error, as_json, 2)
    except VaultmemError as error:
        _fail(error, as_json, 1)


def _fail(error: Exception, as_json: bool, code: int) -> None:
    if as_json:
        emit_json({"error": {"type": type(error).__name__, "message": str(error)}})
    click.echo(f"Error: {error}", err=True)
    sys.exit(code)


def json_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--vault",
    "vault_path",
    type=click.Path(file_okay=False),
    default=lambda: os.environ.get("VAULTMEM_VAULT") or os.getcwd(),
    show_default="$VAULTMEM_VAULT, else the current directory",
    help="The vault folder.",
)
@click.version_option(package_name="vaultmem")
@click.pass_context
def main(ctx: click.Context, vault_path: str) -> None:
    """vaultmem: an agent's memory as an Obsidian-style Markdown vault.

    The Markdown files are the truth; <vault>/.vaultmem/ holds a derived index
    (SQLite + FTS5 + hnswlib) that `index` can always rebuild.
    """
    ctx.obj = Context(vault_path)


# ------------------------------------------------------------------ index / search


@main.command()
@click.option("--rebuild", is_flag=True, help="Drop the derived index and build it again (usage history is kept).")
@json_option
@click.pass_obj
def index(obj: Context, rebuild: bool, as_json: bool) -> None:
    """Bring the derived index in line with the vault's files."""
    with library_errors(as_json):
        report = obj.vault.index(rebuild=rebuild, progress=None if as_json else terminal_progress)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(
        f"indexed {obj.vault.root}: {len(report.added)} added, {len(report.updated)} updated, "
        f"{len(report.moved)} moved, {len(report.removed)} removed, {report.unchanged} unchanged"
        + (" (rebuilt)" if report.rebuilt else "")
    )
    render_problems(report.problems)


def terminal_progress(todo: int, total: int) -> Callable[[int], None]:
    """A progress bar on a terminal for long runs; nothing when piped or short."""
    if todo < 500 or not sys.stderr.isatty():
        return lambda done: None
    bar = click.progressbar(length=todo, label=f"indexing {todo} of {total} notes", file=sys.stderr)
    bar.__enter__()

    def advance(done: int) -> None:
        bar.update(done)
        if bar.pos >= todo:
            bar.__exit__(None, None, None)

    return advance


@main.command()
@click.argument("query")
@click.option("-k", "k", type=click.IntRange(min=1), default=10, show_default=True, help="How many hits.")
@click.option("--layer", "layers", multiple=True, help="Only these layers (L1–L4 or working/episodic/semantic/procedural).")
@click.option("--tag", "tags", multiple=True, help="Only notes with this tag (repeat for all of several).")
@click.option("--include-expired", is_flag=True, help="Also show notes whose expires_at has passed.")
@click.option("--as-of", "as_of", metavar="TIME", help="Evaluate expiry at this instant instead of now.")
@json_option
@click.pass_obj
def search(obj: Context, query: str, k: int, layers: tuple[str, ...], tags: tuple[str, ...], include_expired: bool, as_of: str | None, as_json: bool) -> None:
    """Recall notes matching QUERY (hybrid: vectors + BM25); expired notes hidden."""
    with library_errors(as_json):
        hits = obj.vault.search(query, k=k, layers=layers, tags=tags, include_expired=include_expired, now=as_of)
    if as_json:
        emit_json([hit.as_dict() for hit in hits])
        return
    if not hits:
        click.echo("no matching notes")
    for number, hit in enumerate(hits, start=1):
        expiry = f"expires {hit.expires_at}" if hit.expires_at else "no expiry"
        click.echo(f"{number:>2}. {hit.title}  [{hit.layer or '-'}, {expiry}]  {hit.path}")
        click.echo(f"    {hit.snippet}")
        for warning in hit.warnings:
            click.echo(f"    ! {warning}")


# ------------------------------------------------------------------ check / stats


@main.command()
@click.option("--fix", is_flag=True, help="Stamp missing expiries (created + layer TTL) and remove expiries from permanent notes.")
@json_option
@click.pass_obj
def check(obj: Context, fix: bool, as_json: bool) -> None:
    """Lint every note; exit 1 when problems remain."""
    with library_errors(as_json):
        report = obj.vault.check(fix=fix)
    if as_json:
        emit_json(report.as_dict())
    else:
        for applied in report.fixed:
            click.echo(f"fixed {applied.path}: {applied.action}")
        render_problems(report.problems)
        click.echo(f"{report.files} notes checked, {len(report.problems)} problem(s)" + (f", {len(report.fixed)} fixed" if fix else ""))
    sys.exit(0 if report.ok else 1)


@main.command()
@json_option
@click.pass_obj
def stats(obj: Context, as_json: bool) -> None:
    """Notes by layer, expired now, problems, index size, embedder."""
    with library_errors(as_json):
        result = obj.vault.stats()
    if as_json:
        emit_json(result.as_dict())
        return
    layers = ", ".join(f"{layer}: {count}" for layer, count in result.by_layer.items()) or "none"
    click.echo(f"notes: {result.notes} ({layers})")
    click.echo(f"expired now: {result.expired}; with problems: {result.with_problems}")
    click.echo(f"index: {result.index_bytes / 1_048_576:.1f} MiB; embedder: {result.embedder} ({result.dimension} dims)")
    click.echo(f"vectors: {result.vectors_in_snapshot} in the HNSW snapshot, {result.vectors_in_delta} in the delta")


def render_problems(problems: list[Any]) -> None:
    for problem in problems:
        click.echo(f"! {problem.path}: {problem.field}: {problem.message}\n    fix: {problem.fix}")
