"""``python -m benchmarks {index,generate,worker}``: JSON on stdout, progress on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .generate import DEFAULT_NOTES, DEFAULT_SEED


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)
    index = commands.add_parser("index", help="Benchmark index and search on a generated vault.")
    _common(index)
    index.add_argument("--keep", type=Path, metavar="DIR", help="Generate the vault (and keep it, with its index) in DIR; reused when DIR holds one of the same size and seed.")
    index.add_argument("--profile", type=Path, metavar="DIR", help="Run each phase under cProfile and write DIR/<phase>.prof (timings get slower).")
    index.add_argument("--fresh-runs", type=int, default=5, help="How many fresh-process `vaultmem search` runs (median reported).")
    index.add_argument("--repeats", type=int, default=1, help="Run floor and cold index this many times, alternated; report the fastest of each.")
    generate = commands.add_parser("generate", help="Write a synthetic vault into DIR and print its summary.")
    generate.add_argument("directory", type=Path)
    generate.add_argument("--notes", type=int, default=DEFAULT_NOTES)
    generate.add_argument("--seed", type=int, default=DEFAULT_SEED)
    generate.add_argument("--day-folders", action="store_true",
                          help="Put dated notes in a folder per day (20,000 notes: ~11,000 folders).")
    worker = commands.add_parser("worker", help=argparse.SUPPRESS)
    worker.add_argument("task")
    worker.add_argument("vault", type=Path)
    worker.add_argument("--seed", type=int, default=DEFAULT_SEED)
    worker.add_argument("--queries", type=int, default=200)
    worker.add_argument("--profile", type=Path)
    return main


def _common(command: argparse.ArgumentParser) -> None:
    command.add_argument("--notes", type=int, default=DEFAULT_NOTES, help="Notes in the generated vault (default 10,000).")
    command.add_argument("--seed", type=int, default=DEFAULT_SEED, help="Generator seed (same seed, same vault).")
    command.add_argument("--queries", type=int, default=200, help="Timed in-process queries (after a warm-up).")


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.command == "generate":
        from .bench_index import write_marker
        from .generate import generate_vault

        summary = generate_vault(arguments.directory, arguments.notes, arguments.seed,
                                 day_folders=arguments.day_folders).as_dict()
        write_marker(arguments.directory, summary)  # `index --keep DIR` reuses this vault
        print(json.dumps(summary, indent=2))
        return 0
    from .bench_index import Options, run, run_worker

    if arguments.command == "worker":
        run_worker(arguments.task, arguments.vault, Options(seed=arguments.seed, queries=arguments.queries, profile=arguments.profile))
        return 0
    options = Options(arguments.notes, arguments.seed, arguments.queries, arguments.keep, arguments.profile, arguments.fresh_runs, arguments.repeats)
    print(json.dumps(run(options), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
