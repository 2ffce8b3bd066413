"""How far ``confident`` can be trusted, on the evaluation sets (vaultmem/confidence.py, adr/0004).

    python -m benchmarks.eval_confidence                         # every set, ≈ 5 min
    python -m benchmarks.eval_confidence --sets sample,kepano    # a subset
    python -m benchmarks.eval_confidence --rows rows.jsonl       # + one JSON line a question

Each set (``benchmarks/evalsets/``) is built into a fresh folder (a temp folder, or
``--workdir``), indexed with the real default embedder and asked, through the real ``Vault``
at the set's ``now`` and k = 10:

- its own questions: ``right_confident`` / ``wrong_confident`` count the answers read confident
  among those whose first hit is an answer note / is not (the answer is in the vault, not first);
- ``made_up``: PASSAGES.md §24's 24 personal questions nothing in the sets answers (the manuals:
  the first twelve), ``held_out``: the 16 written at s38 before any score was seen (PASSAGES.md
  §30: eight everyday ones, eight near the vault's topics);
- ``foreign``: the 48 questions of another set (``eval_ranking.foreign_questions``: the manuals'
  how-tos asked of the personal vaults, the kepano owner's asked of the manuals).

For each kind: how many read confident, and how many first hits score ≥ 0.5. ``--rows`` writes
each question's evidence (what confidence.judge reads, and the words the first hit holds even
when the rule does not look them up) for studying a rule offline: the one place here that
reaches into search's internals (:func:`evidence_row`). Prints one JSON document on stdout,
progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vaultmem import Vault
from vaultmem.search import Hits

from .eval_ranking import DEFAULT_SETS, SETS, _fresh, foreign_questions

K = 10
# PASSAGES.md §24: questions about a person's life nothing in the sets answers.
MADE_UP = (
    "what is my passport number", "what is the wifi password at home", "when is my dentist appointment",
    "what is my blood type", "what is my car's license plate", "what size shoes do I wear",
    "what is my bank account IBAN", "when does my gym membership renew", "what is the name of my childhood best friend",
    "which vaccine did I get last winter", "what is the combination of my bike lock",
    "what is my health insurance policy number", "how much did I pay for the electricity bill in March",
    "what is my sister's phone number", "where did I park the car at the airport", "what is the tracking number of my package",
    "what is my employee ID number", "what did the plumber charge to fix the sink", "when is my mortgage payment due",
    "what grade did I get in organic chemistry", "what is the password for the router admin page",
    "which seat did I book on the train to Paris", "how many vacation days do I have left this year",
    "what is my tax identification number",
)
MADE_UP_MANUALS = 12  # the manuals are asked the first twelve (PASSAGES.md §33)
# PASSAGES.md §30: written at s38 before any score was seen; eight everyday, eight near each vault's topics.
HELD_OUT_PERSONAL = (
    "what is the name of my first pet goldfish", "when did I last renew my driving licence",
    "what colour did we paint the bathroom", "how much rent did I pay in my student flat",
    "what is the name of my neighbour's son", "which dentist did my father recommend",
    "what was the score of last night's basketball game", "what time does the post office close on Saturdays",
)
HELD_OUT_NEAR = {
    "sample": ("what is Priya's favourite football team", "which school did João go to as a child", "how tall is Lars Becker",
               "what is Rui's shoe size", "how do I roll back a Lantern release",
               "what did the landlord say about the broken heater last winter",
               "which restaurant did Maya book in Porto for New Year's Eve", "what breed of dog does Priya have"),
    "kepano": ("what is Steph's favourite pizza topping", "how many hours did I play Elden Ring",
               "what did I eat in Seoul on the first night", "which chess opening does Kevin Kelly recommend",
               "what is the recipe for chocolate chip cookies", "who directed the movie Inception",
               "what is my monthly budget for groceries", "which plugins does the Minimal theme conflict with on Android"),
    "conversations": ("which friend got a tattoo of a whale", "who went skydiving over the desert",
                      "what did Ana say about her tax refund", "who lost their wallet on the subway in Tokyo",
                      "what did Kenji think of the solar eclipse", "which friend is learning to fly a helicopter",
                      "what did Marcus say about the stock market crash", "who won the pub quiz on Thursday"),
    "docs": ("how do I resize a disk partition with parted", "how do I open a port in the iptables firewall",
             "how do I schedule a job with crontab", "how do I mount an NFS share at boot",
             "how do I rebase a git branch onto main", "how do I start a docker container in the background",
             "how do I change a user's login shell", "how do I create a Python virtual environment"),
}
KINDS = ("right", "wrong", "made_up", "held_out", "foreign")


def unanswerable(name: str) -> dict[str, list[str]]:
    """The questions nothing in set ``name`` answers, by kind."""
    base = "conversations" if name == "conversations-echo" else name
    made = MADE_UP[:MADE_UP_MANUALS] if base == "docs" else MADE_UP
    return {"made_up": list(made), "held_out": [*HELD_OUT_PERSONAL, *HELD_OUT_NEAR.get(base, ())],
            "foreign": foreign_questions(name)[1]}


def evidence_row(vault: Vault, query: str, hits: Hits, now: str | None) -> dict[str, Any]:
    """What confidence.judge reads of this answer, and more: the words the first hit holds (always
    looked up), each word's count of notes holding it, the first hit's rank on each side and the
    second hit's score. Reaches into search's internals: when they change, adapt this alone."""
    from vaultmem.lifecycle import resolve_now, to_epoch_us
    from vaultmem.storage import Eligibility

    searcher = vault.derived.searcher()
    eligibility = Eligibility(now_us=to_epoch_us(resolve_now(now)))
    found = searcher.candidates(query, K, eligibility)
    first = found.fused[0] if found.fused else None
    row: dict[str, Any] = {
        "question": query, "confident": hits.confident, "warnings": [w for w in hits.warnings if "no note" in w or "common" in w],
        "paths": [hit.path for hit in hits[:3]], "scores": [round(hit.score, 4) for hit in hits[:3]],
        "words": list(found.words), "unheld": list(found.unheld_words), "every_word": found.every_word,
        "named": found.named > 0, "common_only": found.common_only, "any_word_held": bool(found.text),
    }
    vectors = {hit.label: hit.score for hit in found.vectors}
    row["vector_scores"] = [round(hit.score, 4) for hit in found.vectors[:3]]  # the meaning side's best, as it scores them
    if first is not None:
        row["first_vector_score"] = round(vectors[first.label], 4) if first.label in vectors else None
        row.update(first_vector_rank=first.vector_rank, first_text_rank=first.text_rank,
                   first_holds=list(searcher._words_held(found, first.label)),
                   notes_holding={word: _notes_holding(vault, terms) for word, terms in zip(found.words, found.asked, strict=True)})
    row["notes"] = vault.store.notes.count()
    return row


def _notes_holding(vault: Vault, terms: Sequence[str]) -> int:
    """How many notes hold a word (any of its full-text terms): its document frequency."""
    from vaultmem.storage import Eligibility

    if not terms:
        return 0
    rows = vault.store.passages.fts_by_note(" OR ".join(terms), Eligibility(now_us=0, include_expired=True), limit=10**6, per_note=1)
    return len({row.note_label for row in rows})


def run_set(name: str, folder: Path, rows_out: Any, progress: Callable[[str], None]) -> dict[str, Any]:
    prepared = SETS[name](_fresh(folder))
    counts = {kind: [0, 0, 0] for kind in KINDS}  # asked, confident, first >= 0.5
    with Vault(prepared.vault) as vault:
        vault.index()
        progress(f"{name}: indexed; {len(prepared.questions)} own questions")
        asked: list[tuple[str, str]] = []
        for question in prepared.questions:
            hits = vault.search(question.text, k=K, now=prepared.now)
            if not hits:
                continue
            kind = "right" if hits[0].path in question.answers else "wrong"
            _count(counts[kind], hits)
            asked.append((kind, question.text))
            if rows_out is not None:
                _write(rows_out, name, kind, evidence_row(vault, question.text, hits, prepared.now))
        for kind, questions in unanswerable(name).items():
            for text in questions:
                hits = vault.search(text, k=K, now=prepared.now)
                _count(counts[kind], hits)
                if rows_out is not None:
                    _write(rows_out, name, kind, evidence_row(vault, text, hits, prepared.now))
    return {kind: {"asked": asked_, "confident": confident, "first_at_least_0.5": high}
            for kind, (asked_, confident, high) in counts.items()}


def _count(counter: list[int], hits: Hits) -> None:
    counter[0] += 1
    counter[1] += hits.confident
    counter[2] += bool(hits) and hits[0].score >= 0.5


def _write(out: Any, name: str, kind: str, row: dict[str, Any]) -> None:
    out.write(json.dumps({"set": name, "kind": kind, **row}, ensure_ascii=False) + "\n")
    out.flush()


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(prog="python -m benchmarks.eval_confidence", description=__doc__.split("\n")[0])
    command.add_argument("--sets", default=",".join(DEFAULT_SETS), help="comma-separated set names")
    command.add_argument("--workdir", type=Path, help="build the sets here (kept); default a temp folder")
    command.add_argument("--rows", type=Path, help="write one JSON line of evidence a question here")
    arguments = command.parse_args(argv)
    names = [name.strip() for name in arguments.sets.split(",") if name.strip()]
    unknown = [name for name in names if name not in SETS]
    if unknown:
        command.error(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    rows_out = arguments.rows.open("w", encoding="utf-8") if arguments.rows else None
    result: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="eval-confidence-") as temporary:
            root = arguments.workdir or Path(temporary)
            for name in names:
                result[name] = run_set(name, root / name, rows_out, lambda message: print(message, file=sys.stderr, flush=True))
                print(f"{name}: {json.dumps(result[name])}", file=sys.stderr, flush=True)
    finally:
        if rows_out is not None:
            rows_out.close()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
