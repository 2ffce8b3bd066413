"""What a conversation turn's windows cost at tens of thousands of turns (turn_windows.py, adr/0004).

``python benchmarks/bench_windows.py [--turns 30000] [--edits 5] [--workdir DIR]`` prints one JSON
document on stdout (progress on stderr). Run as a file, it measures the ``vaultmem`` on
``PYTHONPATH`` (``PYTHONPATH=/path/to/a/checkout``: the same script times another version). It
writes a generated conversation vault — folders of conversations, each of sessions of turns
(``speaker``, ``conversation``, ``session`` properties and a sentence, as the conversations set
writes them) — and measures:

- ``cold_index_s``: ``Vault.index()`` of the new vault, in this process;
- ``fresh_process_search_ms``: ``vaultmem search`` run as a new process (load, windows, answer),
  the median of three, and ``fresh_windows_ms``: a new ``Vault``'s first ``turn_windows()`` in this
  process (the part of it that grows with the turns: their rows, their heads);
- ``edit_then_search_ms``: a turn edited on disk, then ``Vault.search`` (which catches the index
  up with the file, then brings the windows up to date): median over ``--edits``; and
  ``windows_after_edit_ms``: the windows' part of it alone, after the edit is indexed.

Each edit is checked: the edited turn's window holds the edit (its best window score for the
edit's words rises), so a fast run that forgot to bring the windows up fails loudly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEED = 41
SESSIONS = 25
TURNS_PER_SESSION = 40
WORDS = ("museum garden cooking class chocolate spreadsheet city month plan trip train ticket weather market river "
         "bridge coffee book film dinner lunch office meeting report budget deadline sister bakery haircut wedding "
         "lighthouse novel tomatoes basil photo table friday berlin mexico neighbours party job").split()
SPEAKERS = (("Ana", "Ben"), ("Lucy", "Kenji"), ("Sofia", "Omar"), ("Grace", "Marcus"), ("Hannah", "Raj"))


def progress(message: str) -> None:
    print(f"[bench_windows] {message}", file=sys.stderr, flush=True)


def turn_text(speaker: str, conversation: str, session: int, sentence: str) -> str:
    return f"---\nspeaker: {speaker}\nconversation: {conversation}\nsession: {session}\n---\n{sentence}\n"


def write_vault(root: Path, turns: int) -> list[Path]:
    """``turns`` turns: conversations of SESSIONS sessions of TURNS_PER_SESSION turns each."""
    chosen = random.Random(SEED)
    paths: list[Path] = []
    for number in range(turns):
        conversation, within = divmod(number, SESSIONS * TURNS_PER_SESSION)
        session, turn = divmod(within, TURNS_PER_SESSION)
        people = SPEAKERS[conversation % len(SPEAKERS)]
        name = f"{people[0].lower()}-{people[1].lower()}-{conversation + 1}"
        path = root / name / f"session-{session + 1:02d}" / f"t{turn + 1:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        sentence = " ".join(chosen.choice(WORDS) for _ in range(chosen.randint(6, 16))).capitalize() + "."
        path.write_text(turn_text(people[turn % 2], name, session + 1, sentence), encoding="utf-8")
        paths.append(path)
    return paths


def fresh_process_search(root: Path, query: str) -> float:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), "search", query, "--json"],
                            capture_output=True, text=True, timeout=600, env=os.environ.copy())
    if result.returncode != 0:
        raise SystemExit(f"vaultmem search failed: {result.stderr}")
    return (time.perf_counter() - started) * 1000


def window_score(vault: Any, label: int, words: str) -> float:
    searcher = vault.derived.searcher()
    notes, best = searcher.turn_windows().best(searcher.embedder.embed([words])[0])
    return float(dict(zip(notes.tolist(), best.tolist(), strict=True)).get(label, float("-inf")))


def measure(root: Path, turns: int, edits: int) -> dict[str, Any]:
    from vaultmem import Vault

    paths = write_vault(root, turns)
    progress(f"wrote {len(paths)} turns; indexing")
    with Vault(root) as vault:
        started = time.perf_counter()
        vault.index()
        cold = time.perf_counter() - started
    progress(f"indexed in {cold:.1f} s")
    fresh = [fresh_process_search(root, "the chocolate from the trip to mexico") for _ in range(3)]
    with Vault(root) as vault:
        started = time.perf_counter()
        vault.derived.searcher().turn_windows()
        fresh_windows = (time.perf_counter() - started) * 1000
    chosen = random.Random(SEED + 1)
    searched: list[float] = []
    windowed: list[float] = []
    with Vault(root) as vault:
        vault.search("a first search: the windows of this state", k=10)
        for edit in range(edits):
            path = chosen.choice(paths)
            relative = path.relative_to(root).as_posix()
            row = vault.store.notes.by_path(relative)
            assert row is not None and row.label is not None
            words = f"zanzibar saffron lantern {edit}"
            before = window_score(vault, row.label, words)
            path.write_text(path.read_text(encoding="utf-8") + f"We should buy {words}.\n", encoding="utf-8")
            started = time.perf_counter()
            vault.search(words, k=10)
            searched.append((time.perf_counter() - started) * 1000)
            path.write_text(path.read_text(encoding="utf-8") + "And a map.\n", encoding="utf-8")
            vault.index()
            started = time.perf_counter()
            vault.derived.searcher().turn_windows()
            windowed.append((time.perf_counter() - started) * 1000)
            if not window_score(vault, row.label, words) > before:
                raise SystemExit(f"the windows of {relative} did not take in its edit")
    return {"turns": turns, "cold_index_s": round(cold, 2),
            "fresh_process_search_ms": round(statistics.median(fresh), 1), "fresh_windows_ms": round(fresh_windows, 1),
            "edit_then_search_ms": round(statistics.median(searched), 1),
            "windows_after_edit_ms": round(statistics.median(windowed), 2), "edits": edits}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30000)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=None, help="where the vault is written (default: a temporary folder)")
    args = parser.parse_args()
    import vaultmem

    with tempfile.TemporaryDirectory(dir=args.workdir) as folder:
        found = measure(Path(folder) / "vault", args.turns, args.edits)
    found["vaultmem"] = str(Path(vaultmem.__file__).resolve().parent)
    print(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
