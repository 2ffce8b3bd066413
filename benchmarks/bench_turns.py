"""What an edit costs in a folder of thousands of conversation turns (turns.py, adr/0004).

``python -m benchmarks.bench_turns [--turns 6000] [--edits 20] [--workdir DIR]`` prints one
JSON document on stdout (progress on stderr). It writes one flat folder ``chat/`` of
``--turns`` notes, one per turn (``speaker:`` and a sentence, named ``D<dialogue>_<turn>.md``
as a chat export names them), indexes it with the vault's default embedder, and measures in
this process, as a watcher applies an edit (no debounce):

- ``edit``: a turn edited (a unique word appended), ``Indexer.sync_paths([path])`` — wall time
  of the whole call and of its part that gives the turns after it their turns before
  (``Indexer._hold_turns_before``, timed by wrapping it);
- ``stops_being_a_turn``: a turn whose ``speaker`` is removed, the same figures;
- ``remember``: ``Vault.remember(..., folder="chat")`` (a new note, no turn, among them);
- ``index_turns_before_ms``: the same part of the cold index of the folder (every turn added).

Each edit is checked: the two turns after the edited one hold its unique word (a search
for it finds the three), so a fast run that forgot the turns after it fails loudly.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import summary_ms  # noqa: E402

SEED = 42
TURNS_PER_DIALOGUE = 30
WORDS = ("museum garden cooking class chocolate spreadsheet city month plan trip train ticket weather "
         "market river bridge coffee book film dinner lunch office meeting report budget deadline").split()
SPEAKERS = ("Ana", "Ben")


def progress(message: str) -> None:
    print(f"[bench_turns] {message}", file=sys.stderr, flush=True)


def turn_path(number: int) -> str:
    return f"chat/D{number // TURNS_PER_DIALOGUE + 1}_{number % TURNS_PER_DIALOGUE + 1}.md"


def turn_text(speaker: str, sentence: str) -> str:
    return f"---\nspeaker: {speaker}\n---\n{sentence}\n"


def write_turns(vault: Path, turns: int) -> list[str]:
    chosen = random.Random(SEED)
    (vault / "chat").mkdir(parents=True)
    paths = [turn_path(number) for number in range(turns)]
    for number, relative in enumerate(paths):
        sentence = " ".join(chosen.choice(WORDS) for _ in range(chosen.randint(6, 18))).capitalize() + "."
        (vault / relative).write_text(turn_text(SPEAKERS[number % 2], sentence), encoding="utf-8")
    return paths


class TurnsTimer:
    """Wraps ``Indexer._hold_turns_before`` on one indexer: the seconds of each call."""

    def __init__(self, indexer: Any) -> None:
        self.calls: list[float] = []
        original: Callable[..., None] = indexer._hold_turns_before

        def timed(*args: Any) -> None:
            started = time.perf_counter()
            original(*args)
            self.calls.append(time.perf_counter() - started)

        indexer._hold_turns_before = timed

    def last(self) -> float:
        return self.calls[-1]


def holders_of(opened: Any, word: str) -> set[str]:
    """The notes whose full-text rows hold ``word`` (their own text or their turns before)."""
    rows = opened.store.db.execute(
        "SELECT DISTINCT notes.path FROM passages_fts JOIN passages ON passages.label = passages_fts.rowid "
        "JOIN notes ON notes.label = passages.note_label WHERE passages_fts MATCH ?", [word]).fetchall()
    return {str(row[0]) for row in rows}


def measure(vault: Path, paths: list[str], edits: int) -> dict[str, Any]:
    from vaultmem.vault import Vault

    chosen = random.Random(SEED + 1)
    picked = chosen.sample(range(2, len(paths) - 3), 2 * edits + 1)
    edit_total: list[float] = []
    edit_turns: list[float] = []
    gone_total: list[float] = []
    gone_turns: list[float] = []
    with Vault(vault) as opened:
        indexer = opened.indexer
        timer = TurnsTimer(indexer)
        indexer.sync_paths([paths[picked[0]]])  # warm: embedder loaded, statements prepared
        for step, number in enumerate(picked[1:edits + 1]):
            word = f"zqturn{step}x"
            relative = paths[number]
            with (vault / relative).open("a", encoding="utf-8") as handle:
                handle.write(f"And {word}.\n")
            started = time.perf_counter()
            report = indexer.sync_paths([relative])
            edit_total.append(time.perf_counter() - started)
            edit_turns.append(timer.last())
            assert report.updated == [relative], report.as_dict()
            expected = {relative, paths[number + 1], paths[number + 2]}
            held = holders_of(opened, word)
            assert held == expected, (word, sorted(held), sorted(expected))
        for number in picked[edits + 1:]:
            relative = paths[number]
            (vault / relative).write_text("---\ntopic: none\n---\nNo speaker any more.\n", encoding="utf-8")
            started = time.perf_counter()
            indexer.sync_paths([relative])
            gone_total.append(time.perf_counter() - started)
            gone_turns.append(timer.last())
        remembered: list[float] = []
        remember_turns: list[float] = []
        for step in range(min(edits, 10)):
            count = len(timer.calls)
            started = time.perf_counter()
            opened.remember(f"Remembered fact number {step} about the trip.", title=f"fact {step}", folder="chat")
            remembered.append(time.perf_counter() - started)
            remember_turns.append(sum(timer.calls[count:]))
    return {
        "edit": {"sync_paths": summary_ms(edit_total), "turns_before": summary_ms(edit_turns)},
        "stops_being_a_turn": {"sync_paths": summary_ms(gone_total), "turns_before": summary_ms(gone_turns)},
        "remember": {"remember": summary_ms(remembered), "turns_before": summary_ms(remember_turns)},
    }


def run(workdir: Path, turns: int, edits: int) -> dict[str, Any]:
    from vaultmem.vault import Vault

    vault = workdir / "vault"
    paths = write_turns(vault, turns)
    progress(f"{turns} turns written; indexing")
    started = time.perf_counter()
    with Vault(vault) as opened:
        timer = TurnsTimer(opened.indexer)
        opened.index()
    index_seconds = time.perf_counter() - started
    progress(f"indexed in {index_seconds:.1f} s; measuring {edits} edits")
    return {"turns": turns, "index_seconds": round(index_seconds, 2), "index_turns_before_ms": round(1000 * sum(timer.calls), 1),
            **measure(vault, paths, edits)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=6000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--workdir", type=Path, default=None, help="an empty or absent folder (default: a temporary one)")
    args = parser.parse_args(argv)
    if args.workdir is None:
        with tempfile.TemporaryDirectory(prefix="bench_turns-") as folder:
            result = run(Path(folder), args.turns, args.edits)
    else:
        result = run(args.workdir, args.turns, args.edits)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
