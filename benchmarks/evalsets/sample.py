"""The sample vault's queries: each names the note a person would expect first."""

from __future__ import annotations

import shutil
from pathlib import Path

from .model import PreparedSet, Question

SAMPLE = Path(__file__).resolve().parents[2] / "sample_vault"
# The sample vault is written relative to this day: later, its short-lived memories expire
# and the figures would drift with the calendar.
NOW = "2026-11-30T12:00:00+00:00"

# (query, the note that should come first) — paraphrases, exact tokens and names.
QUERIES: tuple[tuple[str, str], ...] = (
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
)


def prepare(workdir: Path) -> PreparedSet:
    vault = workdir / "sample"
    shutil.copytree(SAMPLE, vault, ignore=shutil.ignore_patterns(".vaultmem"))
    questions = [Question(text=query, answers=(expected,), kind="expected-first") for query, expected in QUERIES]
    return PreparedSet("sample", vault, questions, {"source": "sample_vault/", "now": NOW}, now=NOW)
