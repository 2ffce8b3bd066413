"""The documentation set's misses, one by one: where the answering section stands (PASSAGES.md §32).

    python -m benchmarks.docs_misses                       # builds the docs set in a temp folder (≈ 30 s)
    python -m benchmarks.docs_misses --workdir /tmp/eval   # or keeps it there
    python -m benchmarks.docs_misses --json                # one JSON row per question

For every question of the ``docs`` set whose answer is not search's first hit, asked through
``Searcher.candidates`` (its first 10 are ``Vault.search``'s): the answer's fused rank and each
side's note rank; where the *answering section* (the passages whose heading path holds the
question's ``section``; every passage when it names none) stands among **all the vault's
passages** on each side — the vector side by its passages' scores, the text side by their
BM25 for any of the query's terms; whether that section is its note's best passage on a side;
and the first hit that beat it (its passages, its folder, the passage it wins by).

Each miss gets one shape, by the better of the section's two passage ranks:

- ``found``: among the vault's 5 best passages on a side — the passage is right and the note
  loses at the note level (another note's sum of passages, its title or properties, the fusion);
- ``middling``: 6th–20th;
- ``paraphrase``: not among the 20 best on either side — the question's words are not the
  section's, and neither side sees it.

Reaches into search's internals (as ``eval_ranking.side_rankings`` and ``proto_feedback`` do):
adapt it when they change.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.search import Searcher, query_terms
from vaultmem.storage import Eligibility

from .eval_ranking import _fresh
from .evalsets import docs
from .evalsets.model import Question

FOUND_WITHIN = 5  # the section among the vault's first N passages on a side: "found"
MIDDLING_WITHIN = 20  # else within N: "middling"; else "paraphrase"


class Passages:
    """Every eligible passage of the vault: its note, its heading path, and per query each side's order."""

    def __init__(self, searcher: Searcher, eligibility: Eligibility) -> None:
        self.searcher = searcher
        table = searcher.passage_table.current()
        notes = searcher.store.notes.all_eligible_labels(eligibility)
        labels, owners = table.pairs_of(notes)
        self.labels: list[int] = labels.tolist()
        self.owner = dict(zip(self.labels, owners.tolist(), strict=True))
        self.rows = searcher.store.passages.by_labels(self.labels)
        self.paths = table.paths_by_labels(notes)
        self.note_of_path = {path: label for label, path in self.paths.items()}
        self.counts = table.counts(notes)

    def vector_scores(self, query: str) -> dict[int, float]:
        vector = self.searcher.embedder.embed([query])[0]
        found, scores = self.searcher.passage_vectors.scores_of(vector, self.labels)
        return dict(zip(found, np.asarray(scores).tolist(), strict=True))

    def text_scores(self, query: str) -> dict[int, float]:
        terms = query_terms(query)
        return self.searcher.store.passages.fts_scores(" OR ".join(terms), self.labels) if terms else {}


def _places(scores: dict[int, float]) -> dict[int, int]:
    return {label: place for place, label in enumerate(sorted(scores, key=lambda label: (-scores[label], label)), start=1)}


def diagnose(passages: Passages, question: Question, eligibility: Eligibility) -> dict[str, Any]:
    searcher = passages.searcher
    found = searcher.candidates(question.text, 10, eligibility, pool=100)
    fused = [found.paths[item.label] for item in found.fused]
    answer = question.answers[0]
    note = passages.note_of_path[answer]
    mine = [label for label in passages.labels if passages.owner[label] == note]
    section = [label for label in mine if question.section is None or question.section in passages.rows[label].headings]
    sides = {"vectors": passages.vector_scores(question.text), "text": passages.text_scores(question.text)}
    row: dict[str, Any] = {"question": question.text, "answer": answer, "section": question.section,
                           "fused": fused.index(answer) + 1 if answer in fused else None,
                           "passages": passages.counts.get(note, 0), "section_passages": len(section)}
    for side, scores in sides.items():
        ranked = found.vectors if side == "vectors" else found.text
        row[f"{side}_note"] = next((place for place, hit in enumerate(ranked, start=1) if found.paths.get(hit.label) == answer), None)
        places = _places(scores)
        row[f"{side}_section"] = min((places[label] for label in section if label in places), default=None)
        own = sorted((label for label in mine if label in scores), key=lambda label: (-scores[label], label))
        row[f"{side}_section_is_best"] = bool(own) and own[0] in section
    first = found.fused[0]
    first_path = found.paths[first.label]
    best = next((hit.passage for hit in [*found.vectors, *found.text] if hit.label == first.label), None)
    row.update(first=first_path, first_passages=passages.counts.get(first.label, 0),
               first_same_folder=first_path.rsplit("/", 1)[0] == answer.rsplit("/", 1)[0],
               first_heading=list(passages.rows[best].headings) if best in passages.rows else None)
    row["first_fields_hold_a_word"] = _fields_hold(searcher, question.text, best)
    row["answer_fields_hold_a_word"] = _fields_hold(searcher, question.text, mine[0] if mine else None)
    best_place = min((place for place in (row["vectors_section"], row["text_section"]) if place is not None), default=None)
    row["shape"] = None if row["fused"] == 1 else (
        "found" if best_place is not None and best_place <= FOUND_WITHIN else
        "middling" if best_place is not None and best_place <= MIDDLING_WITHIN else "paraphrase")
    return row


def _fields_hold(searcher: Searcher, query: str, passage: int | None) -> bool:
    """Does the note of ``passage`` hold a word of the query in its name, title, aliases or
    properties (the fields every full-text row of it carries)?"""
    terms = query_terms(query)
    if passage is None or not terms:
        return False
    return bool(searcher.store.passages.matching_among(f"{{name title aliases props}} : ({' OR '.join(terms)})", [passage]))


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    missed = [row for row in rows if row["shape"] is not None]
    shapes = Counter(row["shape"] for row in missed)
    table: dict[str, Any] = {"questions": len(rows), "missed": len(missed),
                             "fused_rank": dict(sorted(Counter(_rank_band(row["fused"]) for row in missed).items()))}
    for shape in ("found", "middling", "paraphrase"):
        mine = [row for row in missed if row["shape"] == shape]
        table[shape] = {
            "misses": shapes.get(shape, 0),
            "first_hit_same_folder": sum(row["first_same_folder"] for row in mine),
            "first_hit_fewer_passages": sum(row["first_passages"] < row["passages"] for row in mine),
            "section_is_its_notes_best_on_a_side": sum(row["vectors_section_is_best"] or row["text_section_is_best"] for row in mine),
            "first_hit_fields_hold_a_word_answer_fields_none": sum(row["first_fields_hold_a_word"] and not row["answer_fields_hold_a_word"]
                                                                  for row in mine),
        }
    return table


def _rank_band(rank: int | None) -> str:
    if rank is None or rank > 10:
        return "out of 10"
    return "2-3" if rank <= 3 else "4-10"


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(prog="python -m benchmarks.docs_misses", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--workdir", type=Path, help="build the docs vault here and keep it (default: a temp folder, removed)")
    command.add_argument("--json", action="store_true", help="print one JSON row per question, then the summary")
    arguments = command.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docs-misses-") as temporary:
        prepared = docs.prepare(_fresh((arguments.workdir or Path(temporary)) / "docs"))
        with Vault(prepared.vault) as vault:
            vault.index()
            eligibility = Eligibility(now_us=to_epoch_us(resolve_now(prepared.now)))
            passages = Passages(vault.derived.searcher(), eligibility)
            rows = [diagnose(passages, question, eligibility) for question in prepared.questions]
    if arguments.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    else:
        for row in (row for row in rows if row["shape"] is not None):
            print(f"{row['shape']:10} fused {row['fused'] or '-':>2}  notes v {row['vectors_note'] or '-':>3} t {row['text_note'] or '-':>3}"
                  f"  section v {row['vectors_section'] or '-':>4} t {row['text_section'] or '-':>4}  {row['question']}", file=sys.stdout)
            print(f"{'':10} first: {row['first']} ({row['first_passages']} passages) {' > '.join(row['first_heading'] or [])}")
    print(json.dumps(summary(rows), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
