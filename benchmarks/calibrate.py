"""Fit the calibration of a hit's ``score`` (adr/0004) on the evaluation sets, and check it.

    python -m benchmarks.calibrate                          # fit on the four original sets, ≈ 1 min
    python -m benchmarks.calibrate --fit-on sample,kepano   # fit on others

A hit's ``score`` is ``1 / (1 + exp(a − b × fused))``, ``fused`` the value search ranks by
(ranking.fuse: the sides' weighted z-scores, plus the name lift). Every set of
``eval_ranking`` is built and indexed as there, and each question's first 10 fused
candidates are taken with their values and whether each is an answer. The fit is a logistic
regression of "is an answer" on the value (``logistic.py``), **each fitted set weighing the
same** (the conversations' 541 questions would otherwise outweigh the sample's 20) — the
fit vaultmem ships (``Embedder.score_calibration``).

Prints one JSON document: the fitted ``a, b``; per set, the Brier score of the fit and of the
calibration vaultmem ships now, the mean score against the rate of answers, and — fitted
without that set (leave one set out) — its Brier score, ROC AUC and the share of answers in
each score band (the figures adr/0004 and the README quote).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.storage import Eligibility

from .eval_ranking import SETS, K, _fresh
from .logistic import auc, logistic, reliability, sigmoid

FIT_ON = ("sample", "kepano", "conversations", "docs")  # the sets the shipped fit saw

Hits = tuple[np.ndarray, np.ndarray]  # fused values, 1.0 where the hit is an answer


def collect(name: str, root: Path) -> Hits:
    """Each question's first K fused candidates: their values and whether each answers."""
    prepared = SETS[name](_fresh(root / name))
    values: list[float] = []
    labels: list[float] = []
    with Vault(prepared.vault) as vault:
        vault.index()
        searcher = vault.derived.searcher()
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(prepared.now)))
        for question in prepared.questions:
            found = searcher.candidates(question.text, K, eligibility)
            for item in found.fused[:K]:
                values.append(item.value)
                labels.append(1.0 if found.paths.get(item.label) in question.answers else 0.0)
    return np.asarray(values), np.asarray(labels)


def fit(sets: Sequence[Hits]) -> tuple[float, float]:
    """``a, b`` of P(answer) = 1 / (1 + exp(a − b·value)), each set weighing the same."""
    values = np.concatenate([hits[0] for hits in sets])
    labels = np.concatenate([hits[1] for hits in sets])
    weights = np.concatenate([np.full(len(hits[0]), 1.0 / max(1, len(hits[0]))) for hits in sets])
    intercept, slope = logistic(values[:, None], labels, weights, ridge=0.0)  # one feature: nothing to keep finite
    return -float(intercept), float(slope)


def probability(values: np.ndarray, a: float, b: float) -> np.ndarray:
    return sigmoid(b * values - a)


def brier(hits: Hits, a: float, b: float) -> float:
    return round(float(np.mean((probability(hits[0], a, b) - hits[1]) ** 2)), 4)


def _left_out(found: Hits, others: Sequence[Hits]) -> dict[str, Any] | None:
    """This set judged by a fit on the other sets (None when the fit saw no other set)."""
    if not others:
        return None
    a, b = fit(others)
    scores, labels = probability(found[0], a, b), found[1]
    return {"a": round(a, 3), "b": round(b, 3), "brier": brier(found, a, b), "auc": auc(scores, labels == 1),
            "bands": reliability(scores, labels)}


def calibrate(set_names: Sequence[str], fit_on: Sequence[str], workdir: Path | None = None) -> dict[str, Any]:
    from vaultmem.embedders import Embedder

    shipped = Embedder.score_calibration
    with tempfile.TemporaryDirectory(prefix="calibrate-") as temporary:
        root = workdir or Path(temporary)
        hits = {}
        for name in set_names:
            hits[name] = collect(name, root)
            print(f"{name}: {len(hits[name][0])} hits", file=sys.stderr, flush=True)
    a, b = fit([hits[name] for name in fit_on])
    per_set: dict[str, Any] = {}
    for name, found in hits.items():
        per_set[name] = {
            "hits": len(found[0]), "answer_rate": round(float(found[1].mean()), 3),
            "brier": brier(found, a, b), "brier_shipped": brier(found, *shipped),
            "mean_score": round(float(probability(found[0], a, b).mean()), 3),
            "left_out": _left_out(found, [hits[other] for other in fit_on if other != name]),
        }
    return {"fit_on": list(fit_on), "a": round(a, 3), "b": round(b, 3), "shipped": list(shipped), "sets": per_set}


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(prog="python -m benchmarks.calibrate", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--sets", default=",".join(SETS), help="sets to report on (default: all)")
    command.add_argument("--fit-on", default=",".join(FIT_ON), help=f"sets the fit sees (default: {','.join(FIT_ON)})")
    command.add_argument("--workdir", type=Path, help="build the sets here (kept) instead of a temp folder")
    arguments = command.parse_args(argv)
    names = [name for name in arguments.sets.split(",") if name]
    fit_on = [name for name in arguments.fit_on.split(",") if name]
    unknown = [name for name in (*names, *fit_on) if name not in SETS]
    if unknown or not set(fit_on) <= set(names):
        command.error(f"unknown set {', '.join(unknown)}" if unknown else "--fit-on must be among --sets")
    print(json.dumps(calibrate(names, fit_on, arguments.workdir), indent=2))


if __name__ == "__main__":
    main()
