"""Ranking quality on the sample vault: vectors alone, BM25 alone, and their fusion.

Each query names the note a person would expect first. Prints JSON with hit@1, hit@3
and mean reciprocal rank per method, so the fusion choice in adr/0004 can be re-checked:

    python -m benchmarks.eval_ranking
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from vaultmem import Vault
from vaultmem.search import rrf
from vaultmem.storage import Eligibility

SAMPLE = Path(__file__).resolve().parent.parent / "sample_vault"
K = 10

# (query, the note that should come first) — paraphrases, exact tokens and names.
QUERIES: list[tuple[str, str]] = [
    ("what milk does Maya take in her coffee", "preferences/coffee-milk-details.md"),
    ("how do I deploy Harbor to production", "procedures/deploy-harbor.md"),
    ("Pimenta allergy vet", "people/pimenta-vet-allergy.md"),
    ("when is Rui's birthday", "people/rui-birthday.md"),
    ("code review checklist", "procedures/code-review-checklist.md"),
    ("feeding the cat", "procedures/feeding-pimenta.md"),
    ("on-call runbook for pipeline failures", "procedures/harbor-oncall-runbook.md"),
    ("what time is the Harbor standup now", "conversations/2026-11-25-standup-time-confirmed.md"),
    ("Lantern side project", "projects/Lantern.md"),
    ("Harbor architecture components", "projects/harbor-architecture.md"),
    ("backfill lessons learned", "projects/harbor-backfill-learnings.md"),
    ("one on one with Priya", "conversations/2026-11-26-1on1-priya.md"),
    ("gift ideas for Rui", "scratch/gift-ideas-rui.md"),
    ("how does Maya like to travel", "preferences/travel-preferences.md"),
    ("meeting preferences no meetings before", "preferences/meeting-preferences.md"),
    ("weekly review routine", "procedures/weekly-review.md"),
    ("João Silva", "people/João Silva.md"),
    ("dietary restrictions vegetarian", "preferences/dietary.md"),
    ("call the landlord about the heating", "scratch/call-landlord.md"),
    ("Lars Becker Berlin office", "people/Lars Becker.md"),
]


def ranks(vault: Vault, query: str) -> dict[str, list[str]]:
    searcher = vault._searcher()
    eligibility = Eligibility(now_us=None)
    vector = searcher._vector_side(query, 50, K, eligibility)
    text = searcher._text_side(query, 50, K, eligibility)
    fused_scores = rrf([vector, text])
    fused = sorted(fused_scores, key=lambda label: -fused_scores[label])
    rows = vault.store.notes_by_labels(list(set(vector) | set(text)))
    return {name: [rows[label].path for label in ranking[:K]] for name, ranking in
            (("vectors", vector), ("bm25", text), ("rrf", fused))}


def evaluate() -> dict[str, dict[str, float]]:
    scores: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "vault"
        shutil.copytree(SAMPLE, copy, ignore=shutil.ignore_patterns(".vaultmem"))
        with Vault(copy) as vault:
            vault.index()
            for query, expected in QUERIES:
                for method, ranking in ranks(vault, query).items():
                    entry = scores.setdefault(method, {"hit@1": 0.0, "hit@3": 0.0, "mrr": 0.0})
                    position = ranking.index(expected) + 1 if expected in ranking else None
                    entry["hit@1"] += position == 1
                    entry["hit@3"] += position is not None and position <= 3
                    entry["mrr"] += 1 / position if position else 0.0
    return {method: {name: round(value / len(QUERIES), 3) for name, value in entry.items()} for method, entry in scores.items()}


if __name__ == "__main__":
    print(json.dumps({"queries": len(QUERIES), "k": K, "methods": evaluate()}, indent=2))
