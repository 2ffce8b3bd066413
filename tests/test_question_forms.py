"""The question form a query opens with is left out of the meaning side's query vector
(vaultmem/question_forms.py; benchmarks/PASSAGES.md §52)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NOW, write_vault

from vaultmem import Vault
from vaultmem.question_forms import without_question_form
from vaultmem.search import search_filters


@pytest.mark.parametrize(("query", "embedded"), [
    ("how do I write a table", "write a table"),
    ("How can I put a math formula in my note", "put a math formula in my note"),
    ("how to back up my vault", "back up my vault"),
    ("is there a way to draw a flowchart", "draw a flowchart"),
    ("what's the best way to sync two devices", "sync two devices"),
    ("What is the way to make a callout", "make a callout"),
])
def test_the_question_form_a_query_opens_with_is_left_out(query: str, embedded: str) -> None:
    assert without_question_form(query) == embedded


@pytest.mark.parametrize("query", [
    "how do I",  # nothing but the form: embedded as written, not as an empty text
    "tables: how do I write one",  # a form later in the query is part of what it asks
    "how many lines are in this text file",  # "how many" asks for a count: not a form
    "how can a sed script keep a line aside",  # "how can a script" is about the script
    "wie kann ich eine Tabelle schreiben",
])
def test_a_query_without_an_opening_question_form_is_embedded_as_written(query: str) -> None:
    assert without_question_form(query) == query


def test_a_page_of_questions_gains_nothing_from_the_question_form_a_query_opens_with(tmp_path: Path, wordllama: object) -> None:
    # A mean of token vectors: "how do I" weighed as much as "write a table", and a FAQ page that
    # says "how do I" five times and nothing of tables stood at 0.197 by meaning (0.066 asked
    # "write a table") — in a manual, such pages outranked the page that answers (the daily set's
    # "how do I get online at my parents' house" 6 → 4).
    root = write_vault(tmp_path / "vault", {
        "FAQ.md": "# FAQ\nHow do I sign in? How do I pay? How can I get help? How do I reset it? How do I write to you?\n",
        "Tables.md": "# Tables\nA table: pipes between cells, dashes under the header row.\n",
    })
    with Vault(root, embedder=wordllama) as vault:
        vault.index()

        def meaning(query: str) -> dict[str, float]:
            found = vault.derived.searcher().candidates(query, 10, search_filters(None, None, False, NOW))
            return {found.paths[hit.label]: hit.score for hit in found.vectors}

        asked, topic = meaning("how do I write a table"), meaning("write a table")
    assert asked["FAQ.md"] == pytest.approx(topic["FAQ.md"], abs=1e-6)
    assert asked["Tables.md"] == pytest.approx(topic["Tables.md"], abs=1e-6)
    assert asked["FAQ.md"] < 0.1 < asked["Tables.md"]
