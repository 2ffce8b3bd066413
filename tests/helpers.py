"""Helpers the tests share: paths, the CLI in-process and as a process (memory-capped if
asked), waiting, index state.

Plain functions and constants, imported as ``from helpers import ...`` (fixtures live in
conftest.py, which pytest loads itself and which is never imported by a test).
"""

from __future__ import annotations

import codecs
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

REPO = Path(__file__).resolve().parent.parent
SAMPLE_VAULT = REPO / "sample_vault"
REAL_VAULTS = REPO / "tests" / "data"  # vendored copies of real vaults (see tests/data/README.md)
NOW = "2026-11-30T12:00:00+00:00"  # the sample vault is written relative to this day
# The address space of a vaultmem process a test runs under a cap: the real embedder and an
# index fit in ~0.8 GB (a search needs ~0.15 GB resident); the bugs the caps guard against
# (YAML bombs, huge notes, faults read as data) needed 11 GB and more.
MEMORY_CAP = 1536 * 2**20


def run_cli(vault: Path, *args: str) -> Result:
    """The CLI in-process through click's CliRunner (stdout and stderr kept apart)."""
    from vaultmem.cli import main

    return CliRunner().invoke(main, ["--vault", str(vault), *args], catch_exceptions=False)


def run_json(vault: Path, *args: str) -> object:
    result = run_cli(vault, *args, "--json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def vaultmem_command(vault: Path, *args: str) -> list[str]:
    """``vaultmem --vault VAULT ARGS`` as a command line (this checkout's package: see process_env)."""
    return [sys.executable, "-m", "vaultmem", "--vault", str(vault), *args]


def process_env() -> dict[str, str]:
    """The environment of a child process: this checkout first on the path."""
    return {**os.environ, "PYTHONPATH": str(REPO)}


def vaultmem_process(vault: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI as a separate process, as an agent or a shell would run it."""
    return subprocess.run(vaultmem_command(vault, *args), capture_output=True, text=True, timeout=timeout, env=process_env())


def cap_memory() -> None:
    """``preexec_fn`` of a capped process: a regression fails the test (MemoryError)
    instead of taking the machine down."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def capped_process(command: Sequence[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``command`` as a process under :data:`MEMORY_CAP`, its output captured as text."""
    return subprocess.run(list(command), capture_output=True, text=True, timeout=timeout, preexec_fn=cap_memory,
                          env=process_env())


def vaultmem_capped(vault: Path, *args: str, timeout: float = 300, prefix: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """The CLI as a memory-capped process; ``prefix`` runs it through another command (``setpriv …``)."""
    return capped_process([*prefix, *vaultmem_command(vault, *args)], timeout)


def python_capped(code: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -c CODE ARGS`` as a memory-capped process."""
    return capped_process([sys.executable, "-c", code, *args], timeout)


# Sets the cap, then becomes the command (exec keeps the limit): for spawners that take no
# preexec_fn, such as the MCP SDK's stdio client.
_CAP_THEN_EXEC = ("import os, resource, sys; cap = int(sys.argv[1]); "
                  "resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); os.execv(sys.argv[2], sys.argv[2:])")


def capped_command(command: Sequence[str]) -> list[str]:
    """``command`` as a command line that runs it under :data:`MEMORY_CAP`."""
    return [sys.executable, "-c", _CAP_THEN_EXEC, str(MEMORY_CAP), *command]


def snapshot_files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every file outside .vaultmem/: proof that nothing was modified."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".vaultmem" not in path.relative_to(root).parts:
            found[path.relative_to(root).as_posix()] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found


def write_file(root: Path, relative: str, text: str) -> Path:
    """``root/relative`` holding ``text`` (UTF-8), its folders made as needed."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_vault(root: Path, notes: dict[str, str]) -> Path:
    """A vault at ``root`` holding ``notes`` (vault-relative name → text)."""
    for relative, text in notes.items():
        write_file(root, relative, text)
    return root


def keyword_side(vault: Any, query: str) -> list[str]:
    """The paths the full-text side proposes for ``query`` (no filter but expiry at NOW), best first."""
    from vaultmem.search import search_filters

    found = vault.derived.searcher().candidates(query, 10, search_filters(None, None, False, NOW))
    return [found.paths[hit.label] for hit in found.text if hit.label in found.paths]


def utf16_bytes(text: str, big_endian: bool = False) -> bytes:
    """``text`` as a Windows editor saves "Unicode": a UTF-16 byte-order mark, then UTF-16."""
    return codecs.BOM_UTF16_BE + text.encode("utf-16-be") if big_endian else codecs.BOM_UTF16_LE + text.encode("utf-16-le")


# ---------------------------------------------------------------- shared by the index/search tests


def copy_sample_vault(target: Path) -> Path:
    """A private copy of sample_vault/ at ``target`` (for module-scoped fixtures)."""
    shutil.copytree(SAMPLE_VAULT, target, ignore=shutil.ignore_patterns(".vaultmem"))
    return target


# ---------------------------------------------------------------- shared by the watcher/crash tests


def wait_until(predicate: Callable[[], object], timeout: float = 15.0, interval: float = 0.05, what: str = "") -> object:
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout`` seconds.

    Timeouts are generous on purpose (a loaded 2-core CI machine); latency budgets are
    asserted by benchmarks/bench_watch.py, not here.
    """
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}; last value: {value!r}")
        time.sleep(interval)


def vaultmem_popen(vault: Path, *args: str, stdout: object = subprocess.DEVNULL, stderr: object = subprocess.DEVNULL,
                   capped: bool = False) -> subprocess.Popen[bytes]:
    """A long-running CLI process (``watch``, or an ``index`` to kill) with its own process
    group; ``capped``: under :data:`MEMORY_CAP`."""
    return subprocess.Popen(
        vaultmem_command(vault, *args),
        stdout=stdout,
        stderr=stderr,
        env=process_env(),
        preexec_fn=partial(_as_a_terminal_starts_it, capped),
        start_new_session=True,  # a Ctrl-C meant for pytest does not reach it; we signal it ourselves
    )


def _as_a_terminal_starts_it(capped: bool) -> None:
    """In the child, before it runs: Ctrl-C (SIGINT) as a person's shell leaves it. A test run
    started in the background (`pytest &`, nohup, some CI runners) ignores SIGINT, and a child
    inherits that, so a Ctrl-C the test sends went unheard and `index` ran to its end (exit 0)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if capped:
        cap_memory()


class WatchProcess:
    """``vaultmem watch`` as a separate process, its output in files (``capped``: under
    :data:`MEMORY_CAP`)."""

    def __init__(self, vault: Path, logs: Path, *options: str, capped: bool = False) -> None:
        self.vault = vault
        self.stdout_path = logs / f"watch-{os.getpid()}-{id(self)}.out"
        self.stderr_path = logs / f"watch-{os.getpid()}-{id(self)}.err"
        self._stdout = self.stdout_path.open("wb")
        self._stderr = self.stderr_path.open("wb")
        self.process = vaultmem_popen(vault, "watch", *options, stdout=self._stdout, stderr=self._stderr, capped=capped)

    def output(self) -> str:
        return self.stdout_path.read_text(encoding="utf-8", errors="replace")

    def errors(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def wait_ready(self) -> str:
        return wait_until(lambda: "watching" in self.output() and self.output(), timeout=30, what="the watch process to start")

    def stop(self, signum: int = signal.SIGINT) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            code = self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self._stdout.close()
            self._stderr.close()
        return code


def index_state(vault: Path) -> dict[str, object]:
    """Everything derived about each note, keyed by path (labels and mtimes left out:
    they depend on the order of work, not on the vault)."""
    from vaultmem.vault import Vault

    with Vault(vault) as opened:
        store = opened.store
        rows = {row.label: row for row in store.notes.all()}
        vectors = dict(store.vectors.for_labels(list(rows)))
        passages = store.passages.of_notes(list(rows))
        return {
            row.path: (
                row.id, row.title, row.layer, tuple(row.tags), row.created, row.expires_at, row.expires_us,
                row.expiry_invalid, row.permanent, row.content_hash, row.embed_hash, row.size, row.body_chars,
                json.dumps(row.problems, sort_keys=True), vectors.get(label), passage_state(store, passages.get(label, [])),
            )
            for label, row in rows.items()
        }


def passage_state(store: object, passages: list) -> tuple[object, ...]:
    """A note's passages as search sees them: place, full-text row and vector (labels left out)."""
    labels = [passage.label for passage in passages]
    vectors = dict(store.passage_vectors.for_labels(labels))  # type: ignore[attr-defined]
    fts = {}
    for label in labels:
        row = store.db.execute("SELECT * FROM passages_fts WHERE rowid = ?", (label,)).fetchone()  # type: ignore[attr-defined]
        fts[label] = tuple(row) if row else None
    return tuple((passage.number, passage.headings, passage.start_line, passage.end_line, fts[passage.label],
                  vectors.get(passage.label)) for passage in passages)


def generate_vault(path: Path, notes: int, seed: int) -> Path:
    """A realistic synthetic vault from benchmarks/generate.py (run as the documented command)."""
    subprocess.run(
        [sys.executable, "-m", "benchmarks", "generate", str(path), "--notes", str(notes), "--seed", str(seed)],
        cwd=REPO, check=True, capture_output=True, timeout=300,
    )
    return path


def index_matches_disk(vault: Path) -> bool:
    """The index holds exactly the vault's note files, each with its current bytes."""
    import hashlib

    files = {path.relative_to(vault).as_posix(): path for path in vault.rglob("*")
             if path.suffix in (".md", ".canvas")  # a canvas is read as a note too (canvas.py)
             and not any(part.startswith(".") for part in path.relative_to(vault).parts)}  # hidden folders hold no notes
    state = index_state(vault)
    return state.keys() == files.keys() and all(
        hashlib.sha256(files[path].read_bytes()).hexdigest() == values[9]  # type: ignore[index]
        for path, values in state.items()
    )


REBUILD_QUERIES = ["postgres restore", "climbing harness", "what did Maya say about the deposit", "harbor moved", "sqlite bloat"]


def assert_same_as_rebuild(vault: Path, queries: list[str] | None = None, top: int = 10, scores: bool = True) -> None:
    """Same notes and vectors as after ``index --rebuild``, and the same top ``top`` hits
    (through the CLI) for ``queries``: paths and, with ``scores``, their scores.

    HNSW is approximate and its multi-threaded build is not deterministic: on a few
    thousand notes two rebuilds can differ in the tail of the vector candidates, which
    moves vague queries and nudges fused scores. Large vaults are therefore compared on
    queries with a clear answer (a note's title), on the paths of their first hits;
    small ones on the full top 10 with scores.
    """
    queries = REBUILD_QUERIES if queries is None else queries  # [] compares notes and vectors only

    def hits() -> dict[str, list[object]]:
        return {query: [hit if scores else hit[0] for hit in search_hits(vault, query)[:top]] for query in queries}

    before, hits_before = index_state(vault), hits()
    assert vaultmem_process(vault, "index", "--rebuild").returncode == 0
    assert index_state(vault) == before
    assert hits() == hits_before


def search_hits(vault: Path, query: str) -> list[tuple[str, float]]:
    result = vaultmem_process(vault, "search", query, "-k", "10", "--json")
    assert result.returncode == 0, result.stderr
    return [(hit["path"], hit["score"]) for hit in json.loads(result.stdout)]


# A process holding the commit lock, as a long write does (consolidate --apply, a gpg prompt):
# argv[1] the state folder, argv[2] how: "vaultmem" takes it as vaultmem does (naming itself in
# the file), "bare" flocks it as an older vaultmem did (the file says nothing), then it says
# "held" and sleeps argv[3] seconds.
HOLD_LOCK = """import fcntl, os, sys, time
from pathlib import Path
from vaultmem import gitops
state, how, seconds = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
if how == "vaultmem":
    with gitops.commit_lock(state):
        print("held", flush=True)
        time.sleep(seconds)
else:
    descriptor = os.open(state / gitops.LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    print("held", flush=True)
    time.sleep(seconds)
"""


def hold_commit_lock(repo: Path, seconds: float, how: str = "vaultmem") -> subprocess.Popen[str]:
    """Another process holding the vault's commit lock for ``seconds`` (returns once it holds it)."""
    script = repo.parent / "hold_lock.py"
    script.write_text(HOLD_LOCK, encoding="utf-8")
    (repo / ".vaultmem").mkdir(exist_ok=True)
    holder = subprocess.Popen([sys.executable, str(script), str(repo / ".vaultmem"), how, str(seconds)],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def git(root: Path, *args: str) -> str:
    """``git *args`` in ``root``, its stdout; a failure raises."""
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def init_repo(root: Path) -> None:
    """``root`` made a git repository with an author to commit as."""
    git(root, "init", "-q")
    git(root, "config", "user.email", "maya@example.com")
    git(root, "config", "user.name", "Maya")


MANY_NOTE_WORDS = "harbour lantern orchard granite meadow copper violet thunder saddle pepper quartz willow".split()


def many_notes(root: Path, count: int) -> list[Path]:
    """``count`` notes of 400 words each in seven folders under ``root``: an index big enough that
    deleting or editing some of them frees pages (VACUUM tests, adr/0013)."""
    paths = []
    for number in range(count):
        path = root / f"folder-{number % 7}" / f"note-{number}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        words = " ".join(MANY_NOTE_WORDS[(number + position) % len(MANY_NOTE_WORDS)] + str(position % 13)
                         for position in range(400))
        path.write_text(f"---\nlayer: L3\n---\n# Note {number}\n\n{words}\n\nThe code is zq{number}x.\n", encoding="utf-8")
        paths.append(path)
    return paths
