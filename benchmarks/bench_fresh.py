"""Freshness benchmark: what it costs that every answer is true to the files (adr/0021).

``python -m benchmarks.bench_fresh [--sizes 10000 100000] [--vault DIR] [--runs 7] [--edits 10]``
prints one JSON document on stdout (progress on stderr). For each size it generates a
vault with ``benchmarks/generate.py`` (or takes ``--vault``, a vault made by ``python -m
benchmarks generate``), indexes it, and measures:

- ``walk``: the proof a read pays when no watcher can vouch for the index, in this
  process with a warm page cache: ``VaultPaths.scan()`` (a stat per file), the index's
  stats (``NoteStore.file_stats()``), and ``Indexer.catch_up()`` with nothing changed.
- ``cli``: ``vaultmem search Q --json`` as a new process (what a one-shot agent pays):
  ``nothing_changed`` (walks the vault), ``after_edit`` (a note edited just before — is
  its new word found?), and the same two with ``vaultmem watch`` running in
  another process (``beside_watcher_*``: the search fences the watcher instead of walking).
- ``in_process``: one long-lived ``Vault``: ``search`` p50/p95 with nothing changed
  after warm-up (its own feed is live: a fence per read), ``ensure_current`` alone,
  ``after_edit`` (edit, then search at once), and ``beside_watch`` — the same search with
  ``Vault.watch()`` running in this process.
- ``fences``: a fence through this process's feed, a fence answered by a ``vaultmem
  watch`` process, and starting a feed (one inotify watch per folder).

A word only one note holds is ranked first by BM25; fused with the vector side a note
that is first there ties with it (the tie goes by path), so an edit counts as found when
the note is among the first two hits and its snippet shows the new word. Edited notes get
their bytes back at the end (the vault stays as generated).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import generate_vault, make_queries  # noqa: E402
from benchmarks.timing import summary_ms  # noqa: E402

REPO_ROOT = Path(os.path.abspath(__file__)).parent.parent
SEED = 42
WARMUP_QUERIES = 20
TIMED_QUERIES = 200
TARGET_CLI_SECONDS = 1.0  # issue 11: a fresh `vaultmem search` at 10k notes
TARGET_IN_PROCESS_P50_MS = 10.0  # issue 11: Vault.search p50 at 10k notes, nothing changed
TARGET_NOTES = 10_000
FOUND_WITHIN = 2  # hits; see the module docstring


def progress(message: str) -> None:
    print(f"[bench_fresh {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)



def timed(action: Callable[[], object], runs: int) -> list[float]:
    seconds: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - started)
    return seconds


def cli(vault: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "vaultmem", "--vault", str(vault), *args]


def cli_env(checkout: Path = REPO_ROOT) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(checkout)}


# ------------------------------------------------------------------ the vault and its edits


def prepare(workdir: Path, notes: int) -> Path:
    vault = workdir / f"vault-{notes}"
    if not (vault / ".vaultmem").exists():
        progress(f"generating {notes} notes in {vault}")
        generate_vault(vault, notes, SEED)
    return vault


def index(vault: Path) -> None:
    progress(f"indexing {vault} (vaultmem index)")
    subprocess.run(cli(vault, "index"), check=True, capture_output=True, env=cli_env(), cwd=REPO_ROOT)


class Edits:
    """Appends a line with a unique word to notes, and gives every file its bytes back."""

    def __init__(self, vault: Path) -> None:
        self.vault = vault
        self.originals: dict[str, bytes] = {}
        self.notes = live_notes(vault)
        self.count = 0

    def next(self) -> tuple[str, str]:
        """Edit the next note; (its path, the word it now holds)."""
        relative = self.notes[(self.count * 97) % len(self.notes)]
        word = f"zqfresh{self.count}x{os.getpid()}"
        self.count += 1
        path = self.vault / relative
        self.originals.setdefault(relative, path.read_bytes())
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\nEdited for the benchmark: {word}.\n")
        return relative, word

    def restore(self) -> None:
        for relative, data in self.originals.items():
            (self.vault / relative).write_bytes(data)
        self.originals.clear()


def live_notes(vault: Path) -> list[str]:
    """Notes search can return (not expired), in a stable order."""
    from vaultmem.vault import Vault

    now_us = time.time_ns() // 1000
    with Vault(vault) as opened:
        return sorted(row.path for row in opened.store.notes.all() if row.expires_us is None or row.expires_us > now_us)


# ------------------------------------------------------------------ phases


def walk_components(vault: Path, runs: int) -> dict[str, Any]:
    from vaultmem.vault import Vault

    with Vault(vault) as opened:
        opened.ensure_indexed()
        scan = timed(opened.paths.scan, runs)
        stats = timed(opened.store.notes.file_stats, runs)
        catch_up = timed(opened.indexer.catch_up, runs)
        folders = len({os.path.dirname(stat.path) for stat in opened.paths.scan()[0]})
    return {"folders": folders, "scan": summary_ms(scan, 3), "file_stats": summary_ms(stats, 3), "catch_up_nothing_changed": summary_ms(catch_up, 3)}


def cli_search(vault: Path, query: str, checkout: Path = REPO_ROOT) -> tuple[float, list[dict[str, Any]]]:
    seconds, _cpu, hits = cli_search_cpu(vault, query, checkout)
    return seconds, hits


def cli_search_cpu(vault: Path, query: str, checkout: Path = REPO_ROOT) -> tuple[float, float, list[dict[str, Any]]]:
    """(wall seconds, CPU seconds (user + system) of the process, its hits). On a shared machine
    the CPU time is the figure to compare: the wall time mostly measures the other work."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # cwd too: `python -m` puts the working directory first on sys.path, before PYTHONPATH.
    completed = subprocess.run(cli(vault, "search", query, "-k", "10", "--json"), capture_output=True, text=True,
                               env=cli_env(checkout), cwd=checkout)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        raise RuntimeError(f"vaultmem search {query!r} failed: {completed.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, json.loads(completed.stdout)


def cli_phase(vault: Path, edits: Edits, queries: Sequence[str], runs: int, edit_runs: int) -> dict[str, Any]:
    timings = [cli_search_cpu(vault, queries[number % len(queries)]) for number in range(runs)]
    unchanged = [wall for wall, _cpu, _hits in timings]
    after_edit: list[float] = []
    found = 0
    for _ in range(edit_runs):
        relative, word = edits.next()
        seconds, hits = cli_search(vault, word)
        after_edit.append(seconds)
        found += any(hit["path"] == relative and word in hit["snippet"] for hit in hits[:FOUND_WITHIN])
    return {
        "nothing_changed_median_seconds": round(statistics.median(unchanged), 3),
        "nothing_changed_max_seconds": round(max(unchanged), 3),
        "nothing_changed_median_cpu_seconds": round(statistics.median(cpu for _wall, cpu, _hits in timings), 3),
        "after_edit_median_seconds": round(statistics.median(after_edit), 3),
        "after_edit_found": f"{found}/{edit_runs}",
    }


def baseline_cli(vault: Path, queries: Sequence[str], runs: int, checkout: Path) -> dict[str, Any]:
    """The same fresh-process search run from another checkout (e.g. main before this work)."""
    timings = [cli_search_cpu(vault, queries[number % len(queries)], checkout) for number in range(runs)]
    return {"checkout": str(checkout),
            "nothing_changed_median_seconds": round(statistics.median(wall for wall, _cpu, _hits in timings), 3),
            "nothing_changed_median_cpu_seconds": round(statistics.median(cpu for _wall, cpu, _hits in timings), 3)}


def alternated_cli(vault: Path, queries: Sequence[str], runs: int, baseline: Path | None) -> dict[str, Any]:
    """Fresh-process searches with nothing changed, this checkout's and the baseline's taken in
    turns (``--cli-only``): on a shared machine the load then falls on both alike."""
    sides = {"this": REPO_ROOT, **({"baseline": baseline} if baseline is not None else {})}
    timings: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    for number in range(runs):
        for side, checkout in sides.items():
            wall, cpu, _hits = cli_search_cpu(vault, queries[number % len(queries)], checkout)
            timings[side].append((wall, cpu))
    return {side: {"checkout": str(sides[side]),
                   "nothing_changed_median_seconds": round(statistics.median(wall for wall, _ in pairs), 3),
                   "nothing_changed_median_cpu_seconds": round(statistics.median(cpu for _, cpu in pairs), 3),
                   "loadavg_after": [round(value, 2) for value in os.getloadavg()]}
            for side, pairs in timings.items()}


def python_startup_seconds() -> float:
    return statistics.median(timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 3))


def in_process_phase(vault: Path, edits: Edits, queries: Sequence[str], edit_runs: int, watch: bool) -> dict[str, Any]:
    from vaultmem.vault import Vault

    with Vault(vault) as opened, _maybe_watching(opened, watch):
        for query in queries[:WARMUP_QUERIES]:
            opened.search(query)
        searches = [_timed_search(opened, query) for query in queries[WARMUP_QUERIES:WARMUP_QUERIES + TIMED_QUERIES]]
        ensure = timed(opened.ensure_current, 50)
        after_edit: list[float] = []
        found = 0
        for _ in range(edit_runs):
            relative, word = edits.next()
            started = time.perf_counter()
            hits = opened.search(word, k=3)
            after_edit.append(time.perf_counter() - started)
            found += any(hit.path == relative and word in hit.snippet for hit in hits[:FOUND_WITHIN])
        return {
            "feed_live": opened.derived.freshness.has_feed,
            "search_nothing_changed": summary_ms(searches, 3),
            "ensure_current_nothing_changed": summary_ms(ensure, 3),
            "search_after_edit": summary_ms(after_edit, 3),
            "after_edit_found": f"{found}/{edit_runs}",
        }


@contextmanager
def _maybe_watching(opened: Any, watch: bool) -> Iterator[None]:
    if not watch:
        yield
        return
    with opened.watch(quiet=True):
        yield


def _timed_search(opened: Any, query: str) -> float:
    started = time.perf_counter()
    opened.search(query)
    return time.perf_counter() - started


def feed_phase(vault: Path) -> dict[str, Any]:
    from vaultmem.config import load_config
    from vaultmem.feed import ChangeFeed
    from vaultmem.paths import VaultPaths

    config = load_config(vault)
    paths = VaultPaths(vault, config.archive_dir)
    started = time.perf_counter()
    feed = ChangeFeed(paths, config.watch).start()
    start_seconds = time.perf_counter() - started
    fences = timed(lambda: feed.settle(5.0), 200)
    feed.stop()
    return {"feed_start_seconds": round(start_seconds, 3), "fence_in_process": summary_ms(fences, 3)}


def remote_fence_ms(vault: Path, runs: int = 100) -> dict[str, Any]:
    from vaultmem.fences import await_ack, fence_name, watcher_alive, write_fence

    state_dir = vault / ".vaultmem"
    if not watcher_alive(state_dir):
        raise RuntimeError("no watcher holds the watch lock")
    acked = 0

    def fence() -> None:
        nonlocal acked
        name = fence_name()
        acked += write_fence(state_dir, name) and await_ack(state_dir, name, 5.0)

    result = summary_ms(timed(fence, runs), 3)
    result["acknowledged"] = f"{acked}/{runs}"
    return result


@contextmanager
def watch_process(vault: Path) -> Iterator[subprocess.Popen[bytes]]:
    from vaultmem.fences import watcher_alive

    process = subprocess.Popen(cli(vault, "watch", "--quiet"), env=cli_env(), cwd=REPO_ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while not watcher_alive(vault / ".vaultmem"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("vaultmem watch did not start")
            time.sleep(0.05)
        yield process
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=120)


# ------------------------------------------------------------------ one size


def measure(vault: Path, runs: int, edit_runs: int, baseline: Path | None, cli_only: bool = False) -> dict[str, Any]:
    index(vault)
    queries = make_queries(WARMUP_QUERIES + TIMED_QUERIES + runs, SEED + 5)
    if cli_only:
        progress("fresh-process searches, alternated with the baseline")
        return {"vault": str(vault), "loadavg_before": [round(value, 2) for value in os.getloadavg()],
                "cli_alternated": alternated_cli(vault, queries[-runs:], runs, baseline)}
    edits = Edits(vault)
    from vaultmem.config import load_config
    from vaultmem.paths import VaultPaths

    notes = len(VaultPaths(vault, load_config(vault).archive_dir).scan()[0])
    result: dict[str, Any] = {"vault": str(vault), "notes": notes, "live_notes": len(edits.notes),
                              "loadavg_before": [round(value, 2) for value in os.getloadavg()]}
    try:
        progress("walk components")
        result["walk"] = walk_components(vault, runs)
        progress("fresh-process searches, no watcher")
        result["cli"] = cli_phase(vault, edits, queries[-runs:], runs, edit_runs)
        if baseline is not None:
            progress(f"fresh-process searches from {baseline}")
            result["cli_baseline"] = baseline_cli(vault, queries[-runs:], runs, baseline)
        progress("in-process searches (own feed)")
        result["in_process"] = in_process_phase(vault, edits, queries, edit_runs, watch=False)
        progress("in-process searches beside Vault.watch()")
        result["in_process_beside_watch"] = in_process_phase(vault, edits, queries, edit_runs, watch=True)
        progress("feed start and in-process fences")
        result["fences"] = feed_phase(vault)
        progress("with a `vaultmem watch` process")
        with watch_process(vault):
            beside = cli_phase(vault, edits, queries[-runs:], runs, edit_runs)
            result["cli"].update({f"beside_watcher_{key}": value for key, value in beside.items()})
            result["fences"]["answered_by_watch_process"] = remote_fence_ms(vault)
    finally:
        edits.restore()
    return result


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    checked = []
    for size, result in results.items():
        if not size.isdigit() or int(size) != TARGET_NOTES or "cli" not in result:
            continue
        figures = (
            ("fresh_search_seconds", result["cli"]["nothing_changed_median_seconds"], TARGET_CLI_SECONDS),
            ("fresh_search_after_edit_seconds", result["cli"]["after_edit_median_seconds"], TARGET_CLI_SECONDS),
            ("in_process_search_p50_ms", result["in_process"]["search_nothing_changed"]["p50_ms"], TARGET_IN_PROCESS_P50_MS),
        )
        checked += [{"name": name, "value": value, "target": f"<= {target}", "met": value <= target} for name, value, target in figures]
    return checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_fresh", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--vault", type=Path, help="Measure this vault (made by `python -m benchmarks generate`) instead.")
    parser.add_argument("--workdir", type=Path, help="Where generated vaults are kept (and reused); default a temp folder.")
    parser.add_argument("--runs", type=int, default=7, help="Fresh-process searches per variant (median reported).")
    parser.add_argument("--edits", type=int, default=10, help="Edits per variant.")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="Also time the fresh-process search run from this checkout (e.g. `git worktree` of main).")
    parser.add_argument("--cli-only", action="store_true",
                        help="Only the fresh-process searches with nothing changed (wall and CPU), taken in turns with --baseline.")
    arguments = parser.parse_args(argv)
    document: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
                    "loadavg_at_start": [round(value, 2) for value in os.getloadavg()]},
        "python_startup_seconds": round(python_startup_seconds(), 3),
    }
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-fresh-") as scratch:
        workdir = arguments.workdir or Path(scratch)
        vaults = [arguments.vault] if arguments.vault else [prepare(workdir, size) for size in arguments.sizes]
        for vault in vaults:
            result = measure(vault, arguments.runs, arguments.edits, arguments.baseline, arguments.cli_only)
            results[str(result.get("notes", vault.name))] = result
    document["results"] = results
    document["targets"] = targets(results)
    print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
