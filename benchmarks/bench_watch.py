"""Live-indexing benchmark: edit-to-searchable latency under ``vaultmem watch``.

``python -m benchmarks.bench_watch [--sizes 1000 10000] [--edits 40] [--cli-edits 12]``
prints one JSON document on stdout (progress on stderr). For each size it generates a
vault with ``benchmarks/generate.py`` (default embedder, nothing downloaded), indexes it,
and measures:

- ``startup``: reconciling the unchanged vault — ``Indexer.reconcile()`` alone,
  ``Vault.watch()`` until ready (observer with its inotify watches, then the reconcile),
  and ``vaultmem watch`` as a new process until it prints that it is watching.
- ``edit_to_searchable``: with ``vaultmem watch`` running in its own process, a note is
  edited (a line with a unique word appended) and the clock runs from the end of the
  write until a search *in another process* returns the note: ``reader`` is a
  long-lived reader (this process, like the MCP server) polling ``Vault.search`` every
  10 ms; ``cli`` runs ``vaultmem search WORD --json`` as a fresh process back to back
  and stops at the first one whose answer has it (so it includes one process start,
  reported alone as ``cli_search_process_ms``). Both include the 300 ms debounce.
- ``per_edit``: the cost of one edit without debounce, in this process:
  ``Indexer.sync_paths([path])`` plus the vector fold check, wall time and bytes passed
  to write(2) (``/proc/self/io`` ``wchar``); and, for the running watcher process over the
  latency edits, its CPU time and ``wchar``/``write_bytes`` per edit.

A note counts as found when it is among the first two hits for its unique word: BM25
ranks it first, and fused with the vector side only a note that is first there can tie
with it. Before each edit the note is checked not to be among them already.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import generate_vault  # noqa: E402
from benchmarks.timing import summary_ms  # noqa: E402
from vaultmem.config import VaultConfig  # noqa: E402

REPO_ROOT = Path(os.path.abspath(__file__)).parent.parent
SEED = 42
READER_POLL_SECONDS = 0.01
EDIT_TIMEOUT_SECONDS = 30.0
STARTUP_REPEATS = 3
FOUND_WITHIN = 2  # hits; see the module docstring
TARGET_LATENCY_P50_SECONDS = 1.0
TARGET_STARTUP_SECONDS = 1.0


def progress(message: str) -> None:
    print(f"[bench_watch] {message}", file=sys.stderr, flush=True)



def cli(vault: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "vaultmem", "--vault", str(vault), *args]


def cli_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


# ------------------------------------------------------------------ /proc accounting


def proc_io(pid: int | str = "self") -> dict[str, int] | None:
    """``/proc/PID/io`` (Linux): bytes passed to write(2) and bytes sent to storage."""
    try:
        text = Path(f"/proc/{pid}/io").read_text()
    except OSError:
        return None
    fields = dict(line.split(": ") for line in text.splitlines() if ": " in line)
    return {"wchar": int(fields["wchar"]), "write_bytes": int(fields["write_bytes"])}


def proc_cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


# ------------------------------------------------------------------ the vault


def prepare(root: Path, notes: int) -> tuple[Path, float]:
    vault = root / f"vault-{notes}"
    progress(f"generating {notes} notes in {vault}")
    generate_vault(vault, notes, SEED)
    progress("indexing (vaultmem index)")
    started = time.perf_counter()
    subprocess.run(cli(vault, "index"), check=True, capture_output=True, env=cli_env())
    return vault, time.perf_counter() - started


def live_notes(vault: Path) -> list[str]:
    """Paths of notes search can return (not expired), in a stable order."""
    from vaultmem.vault import Vault

    now_us = time.time_ns() // 1000
    with Vault(vault) as opened:
        rows = [row for row in opened.store.notes.all() if row.expires_us is None or row.expires_us > now_us]
    return sorted(row.path for row in rows)


def append_word(vault: Path, relative: str, word: str) -> float:
    """Append a line with ``word``; returns the moment the write was done (perf_counter)."""
    with open(vault / relative, "a", encoding="utf-8") as handle:
        handle.write(f"\nEdited for the benchmark: {word}.\n")
    return time.perf_counter()


# ------------------------------------------------------------------ start-up


def measure_startup(vault: Path) -> dict[str, Any]:
    from vaultmem.vault import Vault

    reconcile, watch_ready, cli_ready = [], [], []
    for _ in range(STARTUP_REPEATS):
        with Vault(vault) as opened:
            indexer = opened.indexer
            started = time.perf_counter()
            report = indexer.reconcile()
            reconcile.append(time.perf_counter() - started)
            assert not report.changed, "the vault changed during the start-up benchmark"
        with Vault(vault) as opened:
            started = time.perf_counter()
            watcher = opened.watch(quiet=True)
            watch_ready.append(time.perf_counter() - started)
            watcher.stop()
        cli_ready.append(cli_watch_ready(vault))
    return {
        "reconcile_seconds": round(statistics.median(reconcile), 3),
        "vault_watch_ready_seconds": round(statistics.median(watch_ready), 3),
        "cli_watch_ready_seconds": round(statistics.median(cli_ready), 3),
        "runs": STARTUP_REPEATS,
    }


def cli_watch_ready(vault: Path) -> float:
    """From spawning ``vaultmem watch`` to its "watching" line (imports included)."""
    with tempfile.TemporaryFile() as output:
        started = time.perf_counter()
        process = subprocess.Popen(cli(vault, "watch"), stdout=output, stderr=subprocess.DEVNULL, env=cli_env())
        try:
            while b"watching" not in read_all(output):
                if process.poll() is not None:
                    raise RuntimeError(f"vaultmem watch exited with {process.returncode} before it was ready")
                time.sleep(0.005)
            return time.perf_counter() - started
        finally:
            stop(process)


def read_all(handle: Any) -> bytes:
    handle.seek(0)
    return handle.read()


def stop(process: subprocess.Popen[bytes]) -> int:
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


# ------------------------------------------------------------------ edit → searchable


class Searchers:
    """The two kinds of readers in other processes than the watcher."""

    def __init__(self, vault: Path) -> None:
        from vaultmem.vault import Vault

        self.vault = vault
        self.reader = Vault(vault)
        self.cli_process_seconds: list[float] = []

    def close(self) -> None:
        self.reader.close()

    def reader_finds(self, word: str, relative: str) -> bool:
        return relative in [hit.path for hit in self.reader.search(word, k=FOUND_WITHIN)]

    def cli_finds(self, word: str, relative: str) -> bool:
        started = time.perf_counter()
        result = subprocess.run(cli(self.vault, "search", word, "-k", str(FOUND_WITHIN), "--json"),
                                capture_output=True, text=True, env=cli_env(), check=True)
        self.cli_process_seconds.append(time.perf_counter() - started)
        return relative in [hit["path"] for hit in json.loads(result.stdout)]


def time_until(found: Callable[[], bool], since: float, poll: float) -> float:
    while not found():
        if time.perf_counter() - since > EDIT_TIMEOUT_SECONDS:
            raise RuntimeError(f"an edit was not searchable after {EDIT_TIMEOUT_SECONDS} s")
        if poll:
            time.sleep(poll)
    return time.perf_counter() - since


def edit_latencies(vault: Path, candidates: list[str], count: int, searchers: Searchers, via_cli: bool, tag: str) -> list[float]:
    latencies: list[float] = []
    for number, relative in enumerate(candidates[:count]):
        word = f"zqw{tag}{number}x"
        if searchers.reader_finds(word, relative):
            continue  # already found before the edit: would measure nothing
        written = append_word(vault, relative, word)
        if via_cli:
            latencies.append(time_until(lambda: searchers.cli_finds(word, relative), written, 0.0))
        else:
            latencies.append(time_until(lambda: searchers.reader_finds(word, relative), written, READER_POLL_SECONDS))
        time.sleep(0.05)  # let the watcher settle: each edit is measured on its own
    return latencies


def measure_edits(vault: Path, edits: int, cli_edits: int) -> dict[str, Any]:
    candidates = live_notes(vault)
    step = max(1, len(candidates) // (edits + cli_edits + 1))
    spread = candidates[::step]
    searchers = Searchers(vault)
    output = tempfile.TemporaryFile()
    process = subprocess.Popen(cli(vault, "watch"), stdout=output, stderr=subprocess.DEVNULL, env=cli_env())
    try:
        wait_until_watching(process, output)
        io_before, cpu_before = proc_io(process.pid), proc_cpu_seconds(process.pid)
        progress(f"{edits} edits, read back by a long-lived reader")
        reader = edit_latencies(vault, spread, edits, searchers, via_cli=False, tag="r")
        io_after, cpu_after = proc_io(process.pid), proc_cpu_seconds(process.pid)
        progress(f"{cli_edits} edits, read back by `vaultmem search` processes")
        by_cli = edit_latencies(vault, spread[edits:], cli_edits, searchers, via_cli=True, tag="c")
    finally:
        code = stop(process)
        searchers.close()
        output.close()
    watcher = watcher_cost(io_before, io_after, cpu_before, cpu_after, len(reader))
    return {
        "reader": summary_ms(reader),
        "cli": summary_ms(by_cli),
        "cli_search_process_ms": round(1000 * statistics.median(searchers.cli_process_seconds), 1),
        "watch_exit_code": code,
        "watcher_process_per_edit": watcher,
    }


def wait_until_watching(process: subprocess.Popen[bytes], output: Any) -> None:
    deadline = time.perf_counter() + 300
    while b"watching" not in read_all(output):
        if process.poll() is not None or time.perf_counter() > deadline:
            raise RuntimeError(f"vaultmem watch did not start (exit code {process.poll()})")
        time.sleep(0.02)


def watcher_cost(io_before: dict[str, int] | None, io_after: dict[str, int] | None, cpu_before: float | None, cpu_after: float | None, edits: int) -> dict[str, Any]:
    if not edits or io_before is None or io_after is None or cpu_before is None or cpu_after is None:
        return {"available": False, "why": "no /proc/PID/io (not Linux, or not permitted)"}
    return {
        "cpu_ms": round(1000 * (cpu_after - cpu_before) / edits, 1),
        "wchar_bytes": round((io_after["wchar"] - io_before["wchar"]) / edits),
        "write_bytes": round((io_after["write_bytes"] - io_before["write_bytes"]) / edits),
        "note": "averaged over the reader-measured edits; includes debounce wake-ups and an occasional WAL checkpoint",
    }


# ------------------------------------------------------------------ cost of one edit, no debounce


def measure_apply(vault: Path, edits: int) -> dict[str, Any]:
    from vaultmem.vault import Vault
    from vaultmem.vectors import VectorIndex

    live = live_notes(vault)
    candidates = live[1::max(1, len(live) // (edits + 1))][:edits]
    seconds: list[float] = []
    io_before = proc_io()
    with Vault(vault) as opened:
        indexer, dimension = opened.indexer, opened.embedder().dimension
        indexer.sync_paths([candidates[0]])  # warm: embedder loaded, statements prepared
        for number, relative in enumerate(candidates[1:]):
            append_word(vault, relative, f"zqwapply{number}x")
            started = time.perf_counter()
            report = indexer.sync_paths([relative])
            VectorIndex(opened.store, dimension).fold()
            seconds.append(time.perf_counter() - started)
            assert report.updated == [relative], report.as_dict()
    io_after = proc_io()
    result: dict[str, Any] = {"apply": summary_ms(seconds)}
    if io_before and io_after:
        result["wchar_bytes_per_edit"] = round((io_after["wchar"] - io_before["wchar"]) / max(1, len(seconds)))
        result["write_bytes_per_edit"] = round((io_after["write_bytes"] - io_before["write_bytes"]) / max(1, len(seconds)))
    result["index_bytes"] = sum(path.stat().st_size for path in (vault / ".vaultmem").iterdir() if path.is_file())
    return result


# ------------------------------------------------------------------ the run


def run_size(root: Path, notes: int, edits: int, cli_edits: int) -> dict[str, Any]:
    vault, index_seconds = prepare(root, notes)
    progress("start-up reconcile of the unchanged vault")
    startup = measure_startup(vault)
    edits_result = measure_edits(vault, edits, cli_edits)
    progress("cost of one edit without debounce")
    per_edit = measure_apply(vault, min(edits, 30))
    return {"notes": notes, "index_seconds": round(index_seconds, 2), "startup": startup, "edit_to_searchable": edits_result, "per_edit": per_edit}


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    checks = []
    for size, result in results.items():
        for reader in ("reader", "cli"):
            p50 = result["edit_to_searchable"][reader].get("p50_ms")
            checks.append({"target": f"edit→searchable p50 ≤ 1 s ({reader}, {size} notes)", "value_ms": p50,
                           "met": p50 is not None and p50 <= 1000 * TARGET_LATENCY_P50_SECONDS})
    largest = results[max(results, key=int)]
    startup = largest["startup"]["vault_watch_ready_seconds"]
    checks.append({"target": f"start-up reconcile ≤ 1 s (unchanged, {max(results, key=int)} notes, Vault.watch ready)",
                   "value_seconds": startup, "met": startup <= TARGET_STARTUP_SECONDS})
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_watch", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000], help="Vault sizes (notes).")
    parser.add_argument("--edits", type=int, default=40, help="Edits read back by the long-lived reader, per size.")
    parser.add_argument("--cli-edits", type=int, default=12, help="Edits read back by `vaultmem search` processes, per size.")
    arguments = parser.parse_args(argv)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-watch-") as temporary:
        for notes in arguments.sizes:
            results[str(notes)] = run_size(Path(temporary), notes, arguments.edits, arguments.cli_edits)
    document = {
        "benchmark": "watch",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "debounce_ms": VaultConfig().watch.debounce_ms,
        "sizes": results,
        "targets": targets(results),
    }
    print(json.dumps(document, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
