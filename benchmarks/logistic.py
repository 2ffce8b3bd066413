"""Calibration arithmetic the benchmarks share: a weighted logistic fit, ROC AUC and reliability bins (pure).

Used by ``proto_passages.py`` (which calibration to build) and ``calibrate.py`` (refitting
the one vaultmem ships).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def logistic(features: np.ndarray, labels: np.ndarray, weights: np.ndarray, steps: int = 50, ridge: float = 1e-4) -> np.ndarray:
    """Weighted logistic regression by Newton's method: [intercept, coefficients...] of
    P = sigmoid(intercept + features · coefficients). A small ``ridge`` keeps it finite when
    a feature separates the labels; 0 is the plain maximum-likelihood fit."""
    design = np.hstack([np.ones((len(features), 1)), features])
    coefficients = np.zeros(design.shape[1])
    weights = weights / weights.sum()
    for _ in range(steps):
        p = sigmoid(design @ coefficients)
        gradient = design.T @ (weights * (labels - p)) - ridge * coefficients
        hessian = (design * (weights * p * (1 - p))[:, None]).T @ design + ridge * np.eye(design.shape[1])
        coefficients += np.linalg.solve(hessian, gradient)
    return coefficients


def auc(scores: np.ndarray, labels: np.ndarray) -> float | None:
    positives, negatives = scores[labels], scores[~labels]
    if len(positives) == 0 or len(negatives) == 0:
        return None
    order = np.argsort(np.concatenate([positives, negatives]), kind="mergesort")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    combined = np.concatenate([positives, negatives])
    for value in np.unique(combined):  # average ranks of ties
        tied = combined == value
        ranks[tied] = ranks[tied].mean()
    return round(float((ranks[: len(positives)].sum() - len(positives) * (len(positives) + 1) / 2) / (len(positives) * len(negatives))), 3)


def reliability(probability: np.ndarray, labels: np.ndarray) -> list[dict[str, Any]]:
    bins = []
    for low in (0.0, 0.2, 0.4, 0.6, 0.8):
        inside = (probability >= low) & (probability < low + 0.2 + (1e-9 if low == 0.8 else 0))
        if inside.any():
            bins.append({"from": low, "hits": int(inside.sum()), "answer_rate": round(float(labels[inside].mean()), 3),
                         "mean_score": round(float(probability[inside].mean()), 3)})
    return bins
