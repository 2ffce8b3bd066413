"""What dating notes by git costs when HEAD moves (``[dates] from_git``, git_dates.py, adr/0026).

``python -m benchmarks.bench_git_dates [--notes 10000] [--per-commit 34] [--new 10] [--workdir DIR]``
prints one JSON document on stdout. It builds a repository with ``git fast-import``: ``--notes``
notes added ``--per-commit`` a commit (34: about two years of commits), one commit in six moving 5 of them (as the ADR's
measured history), then commits ``--new`` notes one commit at a time on top and times, for each:

- ``whole``: the whole pass read again (no kept dates: what every HEAD move cost before);
- ``on_top_in_memory``: a long-lived process (MCP server, ``watch``) holding the last reading;
- ``on_top_from_file``: a new process reading the kept ``.vaultmem/git_dates.json``.

Each figure is the median wall time in ms of ``load_git_dates`` (git processes included).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from vaultmem.git_dates import GitDates, load_git_dates
from vaultmem.paths import is_note_name

_DAY = 86_400
_START = 1_704_067_200  # 2024-01-01T00:00:00Z


def _stream(notes: int, per_commit: int) -> bytes:
    """A fast-import stream: commits of ``per_commit`` new notes, every sixth moving 5 older ones."""
    lines: list[str] = []
    written = 0
    moved = 0
    mark = 0
    when = _START
    while written < notes:
        mark += 1
        when += _DAY * 2 * per_commit // 34 or 3600
        batch = min(per_commit, notes - written)
        lines += ["commit refs/heads/main", f"mark :{mark}",
                  f"author A <a@example.com> {when} +0000", f"committer A <a@example.com> {when} +0000",
                  "data 4", "add", *([f"from :{mark - 1}"] if mark > 1 else [])]
        for number in range(written, written + batch):
            text = f"# Note {number}\n\nWords of note {number}, written on day {when // _DAY}.\n".encode()
            lines += [f"M 100644 inline notes/{number % 97}/n{number}.md", f"data {len(text)}", text.decode()]
        written += batch
        if mark % 6 == 0 and written > 100:
            mark += 1
            when += 3600
            lines += ["commit refs/heads/main", f"mark :{mark}",
                      f"author A <a@example.com> {when} +0000", f"committer A <a@example.com> {when} +0000",
                      "data 4", "move", f"from :{mark - 1}"]
            for offset in range(5):
                number = (moved * 5 + offset) % written
                lines.append(f"R notes/{number % 97}/n{number}.md moved/{moved}-{offset}/n{number}.md")
            moved += 1
    return ("\n".join(lines) + "\n").encode()


def _git(root: Path, *args: str, stdin: bytes | None = None) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, input=stdin).stdout.decode()


def _timed(read: Callable[[], GitDates]) -> tuple[float, GitDates]:
    started = time.perf_counter()
    found = read()
    return (time.perf_counter() - started) * 1000, found


def _read(root: Path, state: Path, held: GitDates | None) -> GitDates:
    return load_git_dates(root, state, True, held, is_note_name)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--per-commit", type=int, default=34, help="notes a commit adds (1: a commit per note)")
    parser.add_argument("--new", type=int, default=10)
    parser.add_argument("--workdir", type=Path, default=None)
    options = parser.parse_args()
    workdir = options.workdir or Path(tempfile.mkdtemp(prefix="bench_git_dates_"))
    root = workdir / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "fast-import", "--quiet", stdin=_stream(options.notes, options.per_commit))
    _git(root, "checkout", "-q", "-f", "main")
    commits = int(_git(root, "rev-list", "--count", "HEAD"))
    state = root / ".vaultmem"
    state.mkdir()
    held = load_git_dates(root, state, True, None, is_note_name)[0]
    figures: dict[str, list[float]] = {"whole": [], "on_top_in_memory": [], "on_top_from_file": []}
    for number in range(options.new):
        (root / f"new-{number}.md").write_text(f"# New {number}\n\nWritten today.\n", encoding="utf-8")
        _git(root, "add", f"new-{number}.md")
        _git(root, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-qm", f"new {number}")
        kept_file = (state / "git_dates.json").read_bytes()
        whole_ms, whole = _timed(partial(_read, root, workdir / "nowhere", None))
        file_ms, from_file = _timed(partial(_read, root, state, None))
        (state / "git_dates.json").write_bytes(kept_file)  # the same start for the in-memory reading
        memory_ms, held = _timed(partial(_read, root, state, held))
        if not (dict(whole.added) == dict(from_file.added) == dict(held.added)):
            raise SystemExit("the dates read on top differ from the whole pass's")
        figures["whole"].append(whole_ms)
        figures["on_top_from_file"].append(file_ms)
        figures["on_top_in_memory"].append(memory_ms)
    print(json.dumps({"notes": options.notes, "commits": commits, "dated": len(held.added),
                      "new_commits": options.new,
                      "median_ms": {name: round(statistics.median(values), 1) for name, values in figures.items()}},
                     indent=2))


if __name__ == "__main__":
    main()
