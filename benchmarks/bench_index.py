"""Index and search benchmark: one JSON object on stdout, progress on stderr.

Every measured phase runs in its own fresh child process (``python -m benchmarks
worker TASK VAULT``), so each peak RSS belongs to that phase alone and no phase
profits from another's warm caches inside the interpreter. The page cache is warm for
all of them alike (the vault was just written or read).

Phases, in order:

1. ``floor``: read + ``parse_note`` + cut into passages + embed what the index needs
   (``searchable.embed_notes``: every passage's vector and the whole note's, in one pass
   of the same WordLlama embedder, chunks of 512 notes like the indexer); no storage.
   ``note_floor`` is the floor before passages (each note's ``title + body`` embedded,
   cut at 16,000 characters), for comparison.
2. ``cold_index``: ``Vault(path).index()`` on a vault without ``.vaultmem/``.
3. ``reindex``: ``index()`` again with nothing changed (fresh process, then warm).
4. ``query``: ``Vault.search(q, k=10)`` (expired notes filtered, query embedding
   included) over N realistic queries after a warm-up; p50/p95.
5. ``fresh_search``: ``vaultmem --vault V search Q --json`` as a new process, median of 5.
6. ``recall``: the vector side's top-10 notes (search.py: the passage snapshot proposes,
   the proposed notes' passages are scored exactly) against the exact top 10 over every
   passage vector in SQLite; the passage snapshot's own top-10 passages; and the note
   vectors' (consolidation, the similar-note check).

Both the floor and the cold index include loading the embedding model; both exclude
interpreter start-up. See README.md for how to read the figures.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .generate import DEFAULT_NOTES, DEFAULT_SEED, generate_vault, make_queries

if TYPE_CHECKING:
    import numpy as np

REPO_ROOT = Path(os.path.abspath(__file__)).parent.parent  # not resolve(): a symlinked copy runs its own tree
STATE_DIR = ".vaultmem"
MARKER = ".benchmark-vault.json"  # not a note: lets --keep reuse a generated vault
DEFAULT_QUERIES = 200
WARMUP_QUERIES = 20
FRESH_RUNS = 5
K = 10
EF_SWEEP = (64, 128, 256, 400, 512, 1024, 2048)
FLOOR_CHUNK = 512  # vaultmem.indexer.CHUNK: embed the same batch sizes as the indexer

TARGETS_10K = (
    ("cold_index_over_floor", "<=", 1.5),  # issue 13: the floor is read + parse + embedding what the index needs
    ("reindex_seconds", "<=", 0.5),
    ("query_p50_ms", "<=", 5.0),
    ("query_p95_ms", "<=", 15.0),
    ("recall_at_10", ">=", 0.98),
    ("fresh_search_seconds", "<=", 1.0),
)
TARGETS_100K = (
    ("index_peak_rss_mb", "<=", 1536.0),
    ("query_peak_rss_mb", "<=", 1536.0),
    ("query_p50_ms", "<=", 10.0),
    ("recall_at_10", ">=", 0.98),
)
LARGE_VAULT = 50_000  # from this size on, the 100k targets apply


@dataclass(frozen=True)
class Options:
    notes: int = DEFAULT_NOTES
    seed: int = DEFAULT_SEED
    queries: int = DEFAULT_QUERIES
    keep: Path | None = None
    profile: Path | None = None  # write one cProfile file per phase here (slower runs)
    fresh_runs: int = FRESH_RUNS
    repeats: int = 1  # floor and cold index, alternated; the fastest run of each is reported


# ------------------------------------------------------------------ small helpers


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def peak_rss_mb() -> float:
    """Peak resident set size of this process (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def latency_summary(seconds: Sequence[float]) -> dict[str, float]:
    millis = [value * 1000 for value in seconds]
    return {
        "p50_ms": round(percentile(millis, 0.50), 3),
        "p95_ms": round(percentile(millis, 0.95), 3),
        "p99_ms": round(percentile(millis, 0.99), 3),
        "mean_ms": round(statistics.fmean(millis), 3),
        "max_ms": round(max(millis), 3),
    }


@contextmanager
def stopwatch(totals: dict[str, float], name: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        totals[name] = totals.get(name, 0.0) + time.perf_counter() - started


def note_files(root: Path) -> list[Path]:
    """Every ``.md`` outside hidden folders, sorted (what ``index`` reads on this vault)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(name for name in dirs if not name.startswith("."))
        found.extend(Path(folder) / name for name in files if name.endswith(".md") and not name.startswith("."))
    return sorted(found)


def notes_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in note_files(root))


# ------------------------------------------------------------------ worker tasks (child processes)


def task_floor(vault: Path, options: Options) -> dict[str, Any]:
    """Read + parse + cut into passages + embed what the index needs, no storage: the least
    any indexer of this design must do."""
    return _floor(vault, _floor_chunk)


def task_note_floor(vault: Path, options: Options) -> dict[str, Any]:
    """The floor before passages: read + parse + embed each note's ``title + body`` once."""
    return _floor(vault, _note_floor_chunk)


def _floor(vault: Path, chunk_work: Callable[[Path, Sequence[Path], Any, dict[str, float]], int]) -> dict[str, Any]:
    from vaultmem.embedders import WordLlamaEmbedder

    totals: dict[str, float] = {}
    started, cpu_started = time.perf_counter(), time.process_time()
    with stopwatch(totals, "model_load"):
        embedder = WordLlamaEmbedder()
    with stopwatch(totals, "scan"):
        files = note_files(vault)
    embedded = sum(chunk_work(vault, files[start : start + FLOOR_CHUNK], embedder, totals) for start in range(0, len(files), FLOOR_CHUNK))
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "notes": len(files),
        "embedded_texts": embedded,
        "notes_per_second": round(len(files) / seconds, 1),
        "phases_seconds": {name: round(value, 3) for name, value in totals.items()},
        "peak_rss_mb": peak_rss_mb(),
    }


def _floor_chunk(vault: Path, chunk: Sequence[Path], embedder: Any, totals: dict[str, float]) -> int:
    from vaultmem.searchable import embed_notes, searchable

    notes = _parsed(vault, chunk, totals)
    with stopwatch(totals, "split"):
        found = [searchable(note) for note in notes]
    with stopwatch(totals, "embed"):
        embed_notes(embedder, found)
    return sum(len(note.passages) for note in found)


def _note_floor_chunk(vault: Path, chunk: Sequence[Path], embedder: Any, totals: dict[str, float]) -> int:
    notes = _parsed(vault, chunk, totals)
    with stopwatch(totals, "embed"):
        return len(embedder.embed([note.embed_text for note in notes]))


def _parsed(vault: Path, chunk: Sequence[Path], totals: dict[str, float]) -> list[Any]:
    from vaultmem.notes import parse_note

    with stopwatch(totals, "read"):
        raws = [(path.relative_to(vault).as_posix(), path.read_bytes()) for path in chunk]
    with stopwatch(totals, "parse"):
        return [parse_note(relative, raw) for relative, raw in raws]


def task_cold_index(vault: Path, options: Options) -> dict[str, Any]:
    from vaultmem import Vault

    if (vault / STATE_DIR).exists():
        raise RuntimeError(f"{vault / STATE_DIR} exists: the cold index must start without it")
    started, cpu_started, own_started = time.perf_counter(), time.process_time(), time.thread_time()
    with Vault(vault) as opened:
        report = opened.index()
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    writing = time.thread_time() - own_started
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        # The calling thread writes SQLite and the snapshots; the others read, parse, cut and embed
        # (indexer._in_turn's worker and the tokenizer's pool): which side a slower run grew on.
        "cpu_seconds_by_thread": {"writing": round(writing, 3), "others": round(cpu_seconds - writing, 3)},
        "notes_per_second": round(len(report.added) / seconds, 1),
        "report": _report_counts(report),
        "peak_rss_mb": peak_rss_mb(),
    }


def task_reindex(vault: Path, options: Options) -> dict[str, Any]:
    from vaultmem import Vault

    runs: list[float] = []
    reports: list[dict[str, Any]] = []
    with Vault(vault) as opened:
        for _ in range(3):
            started = time.perf_counter()
            report = opened.index()
            runs.append(time.perf_counter() - started)
            reports.append(_report_counts(report))
    return {
        "seconds": round(runs[0], 3),  # first call in a fresh process: what `vaultmem index` pays
        "warm_seconds": round(min(runs[1:]), 3),  # same process again
        "report": reports[0],
        "peak_rss_mb": peak_rss_mb(),
    }


def _report_counts(report: Any) -> dict[str, Any]:
    counts = report.as_dict()
    counts["problems"] = len(counts.get("problems", []))
    return counts


def task_query(vault: Path, options: Options) -> dict[str, Any]:
    from vaultmem import Vault

    queries = make_queries(options.queries, options.seed)
    warmup = make_queries(WARMUP_QUERIES, options.seed + 1)
    with Vault(vault) as opened:
        started = time.perf_counter()
        opened.search(warmup[0], k=K)
        first = time.perf_counter() - started
        for query in warmup[1:]:
            opened.search(query, k=K)
        timings, hit_counts, cpu = _timed_searches(opened, queries)
        components = _query_components(opened, queries)
    return {
        "queries": len(queries),
        "k": K,
        "first_query_seconds": round(first, 3),  # model + snapshot load
        **latency_summary(timings),
        "cpu_p50_ms": round(percentile(cpu, 0.50) * 1000, 3),
        "cpu_p95_ms": round(percentile(cpu, 0.95) * 1000, 3),
        "mean_hits": round(statistics.fmean(hit_counts), 2),
        "queries_with_fewer_than_k_hits": sum(count < K for count in hit_counts),
        "components": components,
        "peak_rss_mb": peak_rss_mb(),
    }


def _timed_searches(opened: Any, queries: Sequence[str]) -> tuple[list[float], list[int], list[float]]:
    """Wall time, hits and CPU time (every thread of the process: a BLAS or tokenizer pool
    spinning beside the search counts) of each search."""
    timings: list[float] = []
    hit_counts: list[int] = []
    cpu: list[float] = []
    for query in queries:
        started, cpu_started = time.perf_counter(), time.process_time()
        hits = opened.search(query, k=K)
        timings.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        hit_counts.append(len(hits))
    return timings, hit_counts, cpu


def _query_components(opened: Any, queries: Sequence[str]) -> dict[str, Any]:
    """p50 of the pieces a search is made of, each timed alone (for the profile, not a target)."""
    try:
        return _measure_components(opened, queries)
    except Exception as error:  # internals move; say so instead of failing the run
        return {"error": f"{type(error).__name__}: {error}"}


def _measure_components(opened: Any, queries: Sequence[str]) -> dict[str, Any]:
    from vaultmem.lifecycle import resolve_now, to_epoch_us
    from vaultmem.search import CANDIDATES_MIN, query_words
    from vaultmem.storage import Eligibility

    searcher = opened.derived.searcher()
    eligibility = Eligibility(now_us=to_epoch_us(resolve_now(None)))
    pool = CANDIDATES_MIN  # each side's pool, as search asks for it
    vectors = {query: searcher.embedder.embed([query])[0] for query in queries}
    pieces: dict[str, Callable[[str], object]] = {
        "embed_query": lambda query: searcher.embedder.embed([query]),
        "vector_side": lambda query: searcher._vector_side(vectors[query], pool, eligibility),
        "text_side": lambda query: searcher._text_side(query_words(query), pool, eligibility),
    }
    result: dict[str, Any] = {}
    for name, piece in pieces.items():
        timings = []
        for query in queries:
            started = time.perf_counter()
            piece(query)
            timings.append(time.perf_counter() - started)
        result[f"{name}_p50_ms"] = round(percentile(timings, 0.5) * 1000, 3)
    return result


def task_recall(vault: Path, options: Options) -> dict[str, Any]:
    """Recall@10 of the vector side against exact search over every stored vector: its top
    notes (what search fuses), the passage snapshot's top passages, the note vectors'."""
    import numpy as np

    from vaultmem import Vault
    from vaultmem.lifecycle import resolve_now, to_epoch_us
    from vaultmem.storage import NOTE_SPACE, PASSAGE_SPACE, Eligibility
    from vaultmem.vectors import VectorIndex

    with Vault(vault) as opened:
        store, embedder = opened.store, opened.embedder()
        searcher = opened.derived.searcher()
        text_queries = embedder.embed(make_queries(options.queries, options.seed))
        passage_labels, passages = _all_vectors(store, PASSAGE_SPACE.table)
        owners = store.passages.owners(passage_labels.tolist())
        note_of = np.asarray([owners[int(label)] for label in passage_labels], dtype=np.int64)
        everyone = Eligibility(now_us=to_epoch_us(resolve_now(None)), include_expired=True)
        note_labels, notes = _all_vectors(store, NOTE_SPACE.table)
        picks = np.random.default_rng(options.seed).choice(len(note_labels), size=min(options.queries, len(note_labels)), replace=False)
        note_index = VectorIndex(store, embedder.dimension, NOTE_SPACE)
        return {
            "passages": len(passage_labels),
            "notes": len(note_labels),
            "passage_snapshot": store.passage_vectors.snapshot().file,
            "recall_at_10": _note_recall(searcher, everyone, passage_labels, passages, note_of, text_queries),
            "passage_recall_at_10": _recall(searcher.passage_vectors, passage_labels, passages, text_queries),
            "note_vectors_recall_at_10": _recall(note_index, note_labels, notes, text_queries),
            "note_vectors_recall_at_10_note_queries": _recall(note_index, note_labels, notes, notes[picks]),
            "passage_snapshot_recall_at_10_by_ef": _recall_by_ef(store, PASSAGE_SPACE, embedder.dimension, passage_labels, passages, text_queries),
            "peak_rss_mb": peak_rss_mb(),
        }


def _all_vectors(store: Any, table: str) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    from vaultmem.storage.vector_blobs import decode_rows

    rows = store.db.conn.execute(f"SELECT label, vector FROM {table} ORDER BY label").fetchall()
    labels = np.asarray([row[0] for row in rows], dtype=np.int64)
    matrix = decode_rows([row[1] for row in rows])
    return labels, matrix


def _exact_top(labels: np.ndarray, matrix: np.ndarray, query: np.ndarray) -> set[int]:
    import numpy as np

    return set(labels[np.argsort(-(matrix @ query), kind="stable")[:K]].tolist())


def _recall(index: Any, labels: np.ndarray, matrix: np.ndarray, queries: np.ndarray) -> float:
    found = sum(len(_exact_top(labels, matrix, query) & {label for label, _ in index.search(query, K)}) for query in queries)
    return round(found / (K * len(queries)), 4)


def _note_recall(searcher: Any, everyone: Any, labels: np.ndarray, matrix: np.ndarray, note_of: np.ndarray,
                 queries: np.ndarray) -> float:
    """The vector side's top-10 notes against the exact top 10 (every passage scored, best +
    a quarter of the next two, as ranking.py scores a note, less what a note's number of
    passages scores by chance: ranking.for_many_passages)."""
    from collections import Counter

    from vaultmem.ranking import for_many_passages, note_scores
    from vaultmem.search import CANDIDATES_MIN

    counts = Counter(note_of.tolist())
    spread = searcher.embedder.chance_spread
    found = 0
    for query in queries:
        scores = matrix @ query
        hits = note_scores(zip(labels.tolist(), note_of.tolist(), scores.tolist(), strict=True))
        if spread is not None:  # without it the reference ranked notes the vector side lowers on purpose: 0.92, not 1.0
            hits = for_many_passages(hits, counts, spread)
        exact = {hit.label for hit in hits[:K]}
        found += len(exact & {hit.label for hit in searcher._vector_side(query, CANDIDATES_MIN, everyone)[:K]})
    return round(found / (K * len(queries)), 4)


def _recall_by_ef(store: Any, space: Any, dimension: int, labels: np.ndarray, matrix: np.ndarray, queries: np.ndarray) -> dict[str, Any]:
    """Raw hnswlib on the snapshot file at several ``ef``: what another setting would give."""
    index = _snapshot_index(store, space, dimension)
    if index is None:
        return {}
    exact = [_exact_top(labels, matrix, query) for query in queries]
    return {str(ef): _recall_at_ef(index, ef, queries, exact) for ef in EF_SWEEP}


def _snapshot_index(store: Any, space: Any, dimension: int) -> Any:
    import hnswlib

    name = store.vector_store(space).snapshot().file
    if not name or not name.endswith(".hnsw"):
        return None  # no snapshot, or a matrix searched exactly
    index = hnswlib.Index(space="ip", dim=dimension)
    index.load_index(str(store.state_dir / name))
    return index


def _recall_at_ef(index: Any, ef: int, queries: np.ndarray, exact: list[set[int]]) -> dict[str, float]:
    index.set_ef(ef)
    started = time.perf_counter()
    found, _ = index.knn_query(queries, k=K, num_threads=1)
    per_query_ms = (time.perf_counter() - started) * 1000 / len(queries)
    hits = sum(len(set(row.tolist()) & truth) for row, truth in zip(found, exact))
    return {"recall": round(hits / (K * len(queries)), 4), "ms_per_query": round(per_query_ms, 3)}


TASKS: dict[str, Callable[[Path, Options], dict[str, Any]]] = {
    "floor": task_floor,
    "note_floor": task_note_floor,
    "cold_index": task_cold_index,
    "reindex": task_reindex,
    "query": task_query,
    "recall": task_recall,
}


def run_worker(task: str, vault: Path, options: Options) -> None:
    """Entry point of a child process: run one task, print its JSON."""
    function = TASKS[task]
    if options.profile is None:
        result = function(vault, options)
    else:
        result = _profiled(function, vault, options, options.profile / f"{task}.prof")
    print(json.dumps(result))


def _profiled(function: Callable[[Path, Options], dict[str, Any]], vault: Path, options: Options, target: Path) -> dict[str, Any]:
    import cProfile

    target.parent.mkdir(parents=True, exist_ok=True)
    profiler = cProfile.Profile()
    result = profiler.runcall(function, vault, options)
    profiler.dump_stats(target)
    result["profile"] = str(target)
    return result


# ------------------------------------------------------------------ the parent


def spawn(task: str, vault: Path, options: Options) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks", "worker", task, str(vault), "--seed", str(options.seed), "--queries", str(options.queries)]
    if options.profile is not None:
        command += ["--profile", str(options.profile)]
    started = time.perf_counter()
    completed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"worker {task} failed ({completed.returncode}):\n{completed.stderr[-4000:]}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    result["process_seconds"] = round(time.perf_counter() - started, 3)
    return result


def fresh_search(vault: Path, queries: Sequence[str]) -> dict[str, Any]:
    """``vaultmem search`` as a user runs it: a new process each time."""
    command = _vaultmem_command()
    timings: list[float] = []
    hits: list[int] = []
    for query in queries:
        started = time.perf_counter()
        completed = subprocess.run([*command, "--vault", str(vault), "search", query, "--json"], capture_output=True, text=True)
        timings.append(time.perf_counter() - started)
        if completed.returncode != 0:
            raise RuntimeError(f"vaultmem search {query!r} failed ({completed.returncode}): {completed.stderr[-2000:]}")
        hits.append(len(json.loads(completed.stdout)))
    startup = _python_startup_seconds()
    return {
        "command": " ".join([*command, "--vault", "V", "search", "Q", "--json"]),
        "runs": len(timings),
        "median_seconds": round(statistics.median(timings), 3),
        "max_seconds": round(max(timings), 3),
        "hits": hits,
        "python_startup_seconds": round(startup, 3),
    }


def _vaultmem_command() -> list[str]:
    script = Path(sys.executable).parent / "vaultmem"
    if script.exists():
        return [str(script)]
    found = shutil.which("vaultmem")
    return [found] if found else [sys.executable, "-c", "from vaultmem.cli import main; main()"]


def _python_startup_seconds() -> float:
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def disk_usage(vault: Path) -> dict[str, Any]:
    state = vault / STATE_DIR
    files = {path.name: path.stat().st_size for path in sorted(state.iterdir()) if path.is_file()}
    vault_bytes = notes_bytes(vault)
    index_bytes = sum(files.values())
    return {
        "vault_mb": round(vault_bytes / 1_048_576, 2),
        "index_mb": round(index_bytes / 1_048_576, 2),
        "index_over_vault": round(index_bytes / vault_bytes, 3),
        "index_files_mb": {name: round(size / 1_048_576, 2) for name, size in files.items()},
    }


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_at_start": [round(value, 2) for value in os.getloadavg()],
        "vaultmem_commit": _git(["rev-parse", "--short", "HEAD"]),
        "vaultmem_modified_files": _git(["status", "--porcelain", "--", "vaultmem"]).splitlines(),
    }


def _git(arguments: list[str]) -> str:
    try:
        completed = subprocess.run(["git", *arguments], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return completed.stdout.strip()


# ------------------------------------------------------------------ targets


def headline(result: dict[str, Any]) -> dict[str, float]:
    """The figures the targets are about, flat."""
    return {
        "cold_index_over_floor": round(result["cold_index"]["seconds"] / result["floor"]["seconds"], 3),
        "cold_index_over_note_floor": round(result["cold_index"]["seconds"] / result["note_floor"]["seconds"], 3),
        # CPU seconds (all threads) are far less sensitive to other processes than wall time.
        "cold_index_over_floor_cpu": round(min(result["cold_index"]["all_runs_cpu_seconds"]) / min(result["floor"]["all_runs_cpu_seconds"]), 3),
        "reindex_seconds": result["reindex"]["seconds"],
        "query_p50_ms": result["query"]["p50_ms"],
        "query_p95_ms": result["query"]["p95_ms"],
        "query_cpu_p50_ms": result["query"]["cpu_p50_ms"],
        "query_cpu_p95_ms": result["query"]["cpu_p95_ms"],
        "recall_at_10": result["recall"]["recall_at_10"],
        "passage_recall_at_10": result["recall"]["passage_recall_at_10"],
        "fresh_search_seconds": result["fresh_search"]["median_seconds"],
        "index_peak_rss_mb": result["cold_index"]["peak_rss_mb"],
        "query_peak_rss_mb": result["query"]["peak_rss_mb"],
    }


def evaluate(figures: dict[str, float], notes: int) -> list[dict[str, Any]]:
    targets = TARGETS_100K if notes >= LARGE_VAULT else TARGETS_10K
    verdicts = []
    for name, operator, limit in targets:
        value = figures[name]
        met = value <= limit if operator == "<=" else value >= limit
        verdicts.append({"figure": name, "value": value, "target": f"{operator} {limit}", "met": met,
                         "value_over_target": round(value / limit, 3)})
    return verdicts


# ------------------------------------------------------------------ orchestration


def prepare_vault(options: Options, scratch: Path) -> tuple[Path, dict[str, Any]]:
    """Generate the vault (or reuse a kept one with the same size and seed), without an index."""
    root = options.keep if options.keep is not None else scratch / "vault"
    marker = root / MARKER
    if marker.exists():
        summary = json.loads(marker.read_text(encoding="utf-8"))
        if summary["notes"] == options.notes and summary["seed"] == options.seed:
            log(f"reusing the generated vault in {root}; dropping its {STATE_DIR}/ for a cold index")
            shutil.rmtree(root / STATE_DIR, ignore_errors=True)
            summary["reused"] = True
            return root, summary
    log(f"generating {options.notes} notes (seed {options.seed}) in {root}")
    summary = generate_vault(root, options.notes, options.seed).as_dict()
    write_marker(root, summary)
    return root, summary


def write_marker(root: Path, summary: dict[str, Any]) -> None:
    """Remember what was generated in ``root`` so ``--keep`` can reuse it."""
    (root / MARKER).write_text(json.dumps(summary), encoding="utf-8")


def run(options: Options) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="vaultmem-bench-"))
    try:
        return _run_phases(options, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run_phases(options: Options, scratch: Path) -> dict[str, Any]:
    result: dict[str, Any] = {"benchmark": "index", "notes": options.notes, "seed": options.seed, "machine": machine()}
    vault, result["vault"] = prepare_vault(options, scratch)
    result["floor"], result["cold_index"] = floor_and_cold_index(vault, options)
    for task in ("note_floor", "reindex", "query", "recall"):
        result[task] = phase(task, vault, options)
    log(f"fresh-process vaultmem search × {options.fresh_runs} …")
    result["fresh_search"] = fresh_search(vault, make_queries(options.fresh_runs, options.seed + 2))
    result["disk"] = disk_usage(vault)
    result["machine"]["loadavg_at_end"] = [round(value, 2) for value in os.getloadavg()]
    result["headline"] = headline(result)
    result["targets"] = evaluate(result["headline"], options.notes)
    result["vault_path"] = str(vault) if options.keep is not None else None
    return result


def phase(task: str, vault: Path, options: Options) -> dict[str, Any]:
    log(f"{task} …")
    load = round(os.getloadavg()[0], 2)
    result = spawn(task, vault, options)
    result["loadavg_1m_before"] = load  # > 0.5 here means another process competed for the CPUs
    log(f"{task}: {_short(result)}")
    return result


def floor_and_cold_index(vault: Path, options: Options) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alternate floor and cold index ``repeats`` times; keep the fastest of each.

    The fastest run is the one least disturbed by other processes; alternating keeps a
    burst of background load from landing on one side of the ratio only.
    """
    floors: list[dict[str, Any]] = []
    colds: list[dict[str, Any]] = []
    for _ in range(max(1, options.repeats)):
        floors.append(phase("floor", vault, options))
        shutil.rmtree(vault / STATE_DIR, ignore_errors=True)
        colds.append(phase("cold_index", vault, options))
    return _fastest(floors), _fastest(colds)


def _fastest(runs: list[dict[str, Any]]) -> dict[str, Any]:
    best = dict(min(runs, key=lambda run: run["seconds"]))
    best["all_runs_seconds"] = [run["seconds"] for run in runs]
    best["all_runs_cpu_seconds"] = [run["cpu_seconds"] for run in runs]
    return best


def _short(phase: dict[str, Any]) -> str:
    keys = ("seconds", "p50_ms", "p95_ms", "cpu_p50_ms", "recall_at_10", "peak_rss_mb")
    return ", ".join(f"{key}={phase[key]}" for key in keys if key in phase)
