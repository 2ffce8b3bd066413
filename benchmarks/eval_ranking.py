"""Ranking quality on several evaluation sets: vectors alone, full text alone, and fused.

    python -m benchmarks.eval_ranking                          # every set, ≈ 30 s
    python -m benchmarks.eval_ranking --sets sample,kepano     # a subset
    python -m benchmarks.eval_ranking --fusions                # + offline fusion variants
    python -m benchmarks.eval_ranking --fusions "rrf:k=10 minmax:vectors=0.3,text=0.7"

Each set (``benchmarks/evalsets/``) is built into a fresh folder (a temp folder, or
``--workdir``), indexed with the vault's real default embedder and asked its questions
through the real ``Vault``:

- ``fused``: what ``Vault.search(question, k=10)`` returns;
- ``vectors`` / ``text``: each side's own ranking, from ``side_rankings`` — the one
  function here that reaches into vaultmem's search internals. It returns each side's
  top ``--depth`` candidates with raw scores, collected once per question, from which
  ``--fusions`` computes any other fusion (``benchmarks/fusion.py``) without a query.

Metrics, per set and method, averaged over questions (all at cut-off 10):
``hit@1``/``hit@3`` (an answer note among the first 1/3), ``mrr`` (1/rank of the first
answer note, 0 past 10) and ``recall@10`` (the share of a question's answer notes in the
first 10: for a question with several evidence turns, the fraction found). ``by_kind``
gives the same per kind of question. ``checks.offline_fusion_equals_fused`` is the share of
questions whose fused top 10 the offline ``SANITY_FUSION`` (vaultmem's weights and pool) reproduces from the
collected sides: it shows the collected sides are the ones vaultmem fuses (long notes can make
a pool of ``--depth`` propose notes search's pool of 100 does not). ``by_name`` asks for up to
200 notes of each set by their titles (``asked_by_name``). ``scores`` asks each set up to 48
questions written for another vault (the manuals' for the personal vaults, the kepano owner's
for the manuals), which nothing there answers, and reports how the first hit's score reads for
them (``no_answer``) beside how it reads for the set's own questions (``own_questions``): what
an agent deciding "I don't remember" would see. Prints one JSON document on stdout, progress
on stderr.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vaultmem import Vault
from vaultmem.ranking import PROPERTY_BONUS, TEXT_WEIGHT, VECTOR_WEIGHT
from vaultmem.search import CANDIDATES_MIN

from .evalsets import conversation_exports, conversations, daily, docs, kepano, obsidian_help, sample
from .evalsets.docs import DocsSourceMissing
from .evalsets.model import PreparedSet, Question
from .fusion import DEFAULT_FUSIONS, Fusion, FusionSpecError, parse_fusion

K = 10
DEFAULT_DEPTH = 100
BY_NAME_MOST = 200  # notes asked for by name per set
NO_ANSWER_MOST = 48  # questions written for another vault, asked per set
METRICS = ("hit@1", "hit@3", "mrr", "recall@10")
SIDES = ("vectors", "text")
SETS: dict[str, Callable[[Path], PreparedSet]] = {
    "sample": sample.prepare,
    "kepano": kepano.prepare,
    "conversations": conversations.prepare,
    "docs": docs.prepare,
    "conversations-echo": conversations.prepare_echo,
    "help": obsidian_help.prepare,
    "daily": daily.prepare,
    # the conversations in other exports' layouts (evalsets/conversation_exports.py): is the order still read?
    **{f"conversations-{layout}": conversation_exports.preparer(layout) for layout in conversation_exports.LAYOUTS},
}
# Run only when asked for by name: help's source is not on every machine (VAULTMEM_EVAL_HELP); daily
# (s40) is newer than the figures and fits the defaults were measured on (calibrate, eval_confidence
# take these defaults too); the conversations' other layouts ask one question of the order of turns,
# not of ranking at large.
ON_REQUEST = ("help", "daily", *(f"conversations-{layout}" for layout in conversation_exports.LAYOUTS))
DEFAULT_SETS = tuple(name for name in SETS if name not in ON_REQUEST)
# What vaultmem fuses (adr/0004): offline it must give `fused`.
SANITY_FUSION = f"zscore:vectors={VECTOR_WEIGHT},text={TEXT_WEIGHT},depth={CANDIDATES_MIN}"

Candidates = list[tuple[str, float]]


def side_rankings(vault: Vault, query: str, depth: int, now: str | None = None) -> dict[str, Candidates]:
    """Each side's top ``depth`` candidate notes as (path, raw score), best first.

    The only place that knows vaultmem's search internals: when they change, adapt this
    function and nothing else. Scores are the sides' own note scores (ranking.py: the best
    passage plus a quarter of the next two): similarity (cosine × length prior) for vectors, BM25 negated (higher is
    better) for text, whose order keeps notes with every term first. ``valued``: the candidates
    one of whose property values the query names, each with the bonus vaultmem adds to its
    fused value (ranking.PROPERTY_BONUS) — not a side, but what the offline fusion needs to
    reproduce vaultmem's. ``worded``: the candidates named by some of the question's words,
    whose text side vaultmem caps (ranking.worded_ceiling) — also for the offline fusion.
    """
    from vaultmem.lifecycle import resolve_now, to_epoch_us
    from vaultmem.storage import Eligibility

    found = vault.derived.searcher().candidates(query, K, Eligibility(now_us=to_epoch_us(resolve_now(now))), pool=depth)
    return {
        "vectors": [(found.paths[hit.label], hit.score) for hit in found.vectors if hit.label in found.paths],
        "text": [(found.paths[hit.label], hit.score) for hit in found.text if hit.label in found.paths],
        "valued": [(found.paths[label], PROPERTY_BONUS) for label in sorted(found.valued) if label in found.paths],
        "worded": [(found.paths[label], 0.0) for label in sorted(found.worded) if label in found.paths],
    }


# ------------------------------------------------------------------ metrics


def question_metrics(ranking: Sequence[str], answers: Iterable[str]) -> dict[str, float]:
    """hit@1, hit@3, MRR and recall@10 of one ranking (paths, best first) for one question."""
    wanted = set(answers)
    top = list(ranking[:K])
    first = next((position for position, path in enumerate(top, start=1) if path in wanted), None)
    return {
        "hit@1": float(first == 1),
        "hit@3": float(first is not None and first <= 3),
        "mrr": 1.0 / first if first else 0.0,
        "recall@10": len(wanted & set(top)) / len(wanted),
    }


def average(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    return {metric: round(sum(row[metric] for row in rows) / len(rows), 3) if rows else 0.0 for metric in METRICS}


# ------------------------------------------------------------------ running a set


@dataclass
class Answered:
    """One question and every method's ranking of it (paths, best first)."""

    question: Question
    rankings: dict[str, list[str]]
    sides: dict[str, Candidates]
    top_score: float | None = None  # the first fused hit's score


def run_set(prepared: PreparedSet, depth: int, fusions: Sequence[Fusion], progress: Callable[[str], None]) -> tuple[dict[str, Any], list[Answered]]:
    started = time.perf_counter()
    with Vault(prepared.vault) as vault:
        vault.index()
        indexed = time.perf_counter()
        progress(f"{prepared.name}: indexed {report_notes(vault)} notes in {indexed - started:.1f} s; {len(prepared.questions)} questions")
        answered = [answer(vault, question, depth, fusions, prepared.now) for question in prepared.questions]
        asked = time.perf_counter()
        notes = report_notes(vault)
        by_name = asked_by_name(vault, prepared.now)
        unanswerable = asked_without_answer(vault, prepared.name, [row.top_score or 0.0 for row in answered], prepared.now)
    result: dict[str, Any] = {
        "questions": len(prepared.questions),
        "notes": notes,
        "methods": _methods_table(answered, ("vectors", "text", "fused")),
        "by_kind": _by_kind(answered),
        "checks": {"offline_fusion_equals_fused": _sanity(answered)},
        "by_name": by_name,
        "scores": unanswerable,
        "index_seconds": round(indexed - started, 2),
        "query_seconds": round(asked - indexed, 2),
        "info": prepared.info,
    }
    if fusions:
        result["fusions"] = _methods_table(answered, [fusion.name for fusion in fusions])
    return result, answered


def answer(vault: Vault, question: Question, depth: int, fusions: Sequence[Fusion], now: str | None = None) -> Answered:
    sides = side_rankings(vault, question.text, depth, now)
    rankings = {side: [path for path, _ in sides[side]] for side in SIDES}
    hits = vault.search(question.text, k=K, now=now)
    rankings["fused"] = [hit.path for hit in hits]
    for fusion in fusions:
        rankings.setdefault(fusion.name, fusion.rank(sides["vectors"], sides["text"]))
    # vaultmem's own fusion, with its property bonus: it must give `fused` (checks)
    rankings[SANITY_FUSION] = parse_fusion(SANITY_FUSION).rank(sides["vectors"], sides["text"],
                                                               {path for path, _ in sides["valued"]}, PROPERTY_BONUS,
                                                               {path for path, _ in sides["worded"]})
    return Answered(question, rankings, sides, hits[0].score if hits else None)


def asked_by_name(vault: Vault, now: str | None = None, most: int = BY_NAME_MOST) -> dict[str, Any]:
    """Each note asked for by its title, as a person types a name (at most ``most`` notes,
    spread evenly over the paths; expired ones too, so that expiry does not hide them):
    ``fused`` hit@1 and MRR, the answers being every note of that name (title or file name,
    compared case-folded). A probe of the exact-name rule (ranking.name_bonus), with no
    question written for it; ``first_score_one_of_that_name``: how the first hit's score reads
    when one note bears the name (ranking.hit_score)."""
    rows = sorted(vault.store.notes.all(), key=lambda row: row.path)
    names: dict[str, set[str]] = {}
    for row in rows:
        for name in {row.title, Path(row.path).stem}:
            names.setdefault(" ".join(name.casefold().split()), set()).add(row.path)
    asked = rows[:: max(1, -(-len(rows) // most))]
    found, tops = [], []
    for row in asked:
        hits = vault.search(row.title, k=K, now=now, include_expired=True)
        found.append(question_metrics([hit.path for hit in hits], names[" ".join(row.title.casefold().split())]))
        if len(names[" ".join(row.title.casefold().split())]) == 1:  # one note of that name: its score alone
            tops.append(hits[0].score if hits else 0.0)
    return {"questions": len(found), "fused": {metric: average(found)[metric] for metric in ("hit@1", "mrr")},
            "first_score_one_of_that_name": _score_spread(tops)}


def foreign_questions(name: str) -> tuple[str, list[str]]:
    """Questions written for another vault, which nothing in set ``name`` answers: the manuals'
    how-to questions for every personal vault, the kepano owner's for the manuals."""
    source = "kepano" if name == "docs" else "docs"
    path = kepano.QUESTIONS if source == "kepano" else docs.QUESTIONS
    questions = [item["question"] for item in json.loads(path.read_text(encoding="utf-8"))["questions"]]
    return source, questions[:NO_ANSWER_MOST]


def asked_without_answer(vault: Vault, name: str, answered_top: Sequence[float], now: str | None = None) -> dict[str, Any]:
    """How high the first hit's score reads when the vault holds no answer, beside how it reads
    for the set's own questions: what an agent deciding "I don't remember" sees."""
    source, questions = foreign_questions(name)
    tops = [hits[0].score if hits else 0.0 for hits in (vault.search(text, k=1, now=now) for text in questions)]
    return {"asked_from": source, "questions": len(tops), "no_answer": _score_spread(tops), "own_questions": _score_spread(answered_top)}


def _score_spread(scores: Sequence[float]) -> dict[str, float]:
    if not scores:
        return {}
    return {"top1_mean": round(statistics.fmean(scores), 3), "top1_median": round(statistics.median(scores), 3),
            "share_at_least_0.2": round(sum(score >= 0.2 for score in scores) / len(scores), 3),
            "share_at_least_0.5": round(sum(score >= 0.5 for score in scores) / len(scores), 3)}


def report_notes(vault: Vault) -> int:
    return sum(1 for _ in vault.store.notes.all())


def _methods_table(answered: Sequence[Answered], methods: Sequence[str]) -> dict[str, dict[str, float]]:
    return {method: average([question_metrics(item.rankings[method], item.question.answers) for item in answered]) for method in methods}


def _by_kind(answered: Sequence[Answered]) -> dict[str, dict[str, Any]]:
    kinds = sorted({item.question.kind for item in answered})
    table: dict[str, dict[str, Any]] = {}
    for kind in kinds:
        mine = [item for item in answered if item.question.kind == kind]
        table[kind] = {"questions": len(mine), **_methods_table(mine, ("vectors", "text", "fused"))}
    return table


def _sanity(answered: Sequence[Answered]) -> float:
    same = sum(item.rankings[SANITY_FUSION][:K] == item.rankings["fused"][:K] for item in answered)
    return round(same / len(answered), 3) if answered else 1.0


def dump_rows(name: str, answered: Sequence[Answered]) -> Iterable[dict[str, Any]]:
    """One row per question: its answers and where each method ranked them (null: not in 10)."""
    for item in answered:
        ranks = {method: [_position(ranking, path) for path in item.question.answers] for method, ranking in item.rankings.items()}
        yield {"set": name, **item.question.as_dict(), "ranks": ranks, "top": {m: r[:K] for m, r in item.rankings.items()}}


def _position(ranking: Sequence[str], path: str) -> int | None:
    return ranking.index(path) + 1 if path in ranking[:K] else None


# ------------------------------------------------------------------ command line


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(prog="python -m benchmarks.eval_ranking", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--sets", default=",".join(DEFAULT_SETS),
                         help=f"comma-separated sets to run (default: {', '.join(DEFAULT_SETS)}; also {', '.join(ON_REQUEST)}, "
                              f"whose pages are a local copy named by ${obsidian_help.SOURCE_VARIABLE})")
    command.add_argument("--fusions", nargs="?", const="default", default=None, metavar="SPECS",
                         help="also score fusions computed offline from the collected sides; SPECS is a space-separated list "
                              "like 'rrf:k=10 minmax:vectors=0.3,text=0.7' (without SPECS: a default grid)")
    command.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="candidates collected per side and question (default 100)")
    command.add_argument("--workdir", type=Path, help="build the vaults here and keep them (default: a temp folder, removed)")
    command.add_argument("--dump", type=Path, metavar="FILE", help="write every question's rankings as JSON lines to FILE")
    return command


class UsageError(ValueError):
    pass


def selected_sets(names: str) -> list[str]:
    chosen = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in SETS]
    if unknown or not chosen:
        raise UsageError(f"--sets: unknown set {', '.join(unknown) or '(none given)'}; choose from {', '.join(SETS)}")
    return chosen


def selected_fusions(specs: str | None) -> list[Fusion]:
    if specs is None:
        return []
    try:
        return [parse_fusion(spec) for spec in (DEFAULT_FUSIONS if specs == "default" else specs.split())]
    except FusionSpecError as error:
        raise UsageError(f"--fusions: {error}") from None


def evaluate(set_names: Sequence[str], depth: int = DEFAULT_DEPTH, fusions: Sequence[Fusion] = (), workdir: Path | None = None,
             dump: Path | None = None, progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="eval-ranking-") as temporary:
        root = workdir or Path(temporary)
        results: dict[str, Any] = {}
        rows: list[dict[str, Any]] = []
        for name in set_names:
            prepared = SETS[name](_fresh(root / name))
            results[name], answered = run_set(prepared, depth, fusions, progress)
            rows.extend(dump_rows(name, answered))
    if dump is not None:
        dump.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return {"k": K, "depth": depth, "sets": results, "seconds": round(time.perf_counter() - started, 1), "machine": _machine()}


def _fresh(folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def _machine() -> dict[str, Any]:
    from .bench_index import machine

    return machine()


def main(argv: Sequence[str] | None = None) -> None:
    command = parser()
    arguments = command.parse_args(argv)
    try:
        sets = selected_sets(arguments.sets)
        fusions = selected_fusions(arguments.fusions)
    except UsageError as error:
        command.error(str(error))  # exit 2, like any usage error
    if arguments.depth < K:
        command.error(f"--depth must be at least {K} (the cut-off of every metric)")
    try:
        result = evaluate(sets, arguments.depth, fusions, arguments.workdir, arguments.dump,
                          progress=lambda message: print(message, file=sys.stderr, flush=True))
    except DocsSourceMissing as error:  # a set's source is not on this machine: said, no traceback
        command.exit(1, f"{command.prog}: {error}\n")
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
