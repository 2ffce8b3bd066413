"""Query blocks (```dataview, ```dataviewjs, ```query, ```base, ```tasks) render other notes:
search holds none of their words, and no snippet shows them (markdown.query_block_ranges,
searchable.searchable); the file is left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NOW, write_file

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.markdown import query_block_ranges, without_query_blocks
from vaultmem.search import search_filters

PROJECTS = ("# Projects\n"
            "Everything we are building this year.\n"
            "\n"
            "```dataview\n"
            "TABLE title AS \"Title\", date AS \"Date\"\n"
            "FROM \"Projects\"\n"
            "```\n"
            "\n"
            "~~~base\n"
            "views:\n"
            "  - type: table\n"
            "    order: [deadline]\n"
            "~~~\n"
            "\n"
            "Kept by hand: the budget spreadsheet.\n")
NOTES = {
    "Projects.md": PROJECTS,
    "Projects/Launch.md": "# Launch\nThe launch has a start date of March 3 and a deadline in May.\n",
    "Code/Loader.md": "# Loader\n```python\nconfig_loader = load(path)\n```\n",
}


@pytest.fixture
def dataview_vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    for name, text in NOTES.items():
        write_file(root, name, text)
    return root


def keyword_side(vault: Vault, query: str) -> list[str]:
    found = vault.derived.searcher().candidates(query, 10, search_filters(None, None, False, NOW))
    return [found.paths[hit.label] for hit in found.text if hit.label in found.paths]


def test_the_blocks_that_are_queries_are_found_by_their_language() -> None:
    text = ("```Dataview\nLIST\n```\n- ```tasks\n  not done\n  ```\n```dataviewjs\ndv.pages()\n```\n"
            "```query\ntag:#x\n```\n```python\nx = 1\n```\nan inline `query` span\n")
    blocks = [text[start:end] for start, end in query_block_ranges(text)]
    assert [block.split("\n")[0] for block in blocks] == ["```Dataview", "- ```tasks", "```dataviewjs", "```query"]
    kept = without_query_blocks(text)
    assert kept.count("\n") == text.count("\n")  # lines stay where they were
    assert "```python\nx = 1\n```" in kept  # other code is kept
    assert "`query` span" in kept  # an inline span is no block
    assert "dv.pages" not in kept
    assert "LIST" not in kept


def test_a_query_block_s_words_are_not_searched(dataview_vault: Path) -> None:
    with Vault(dataview_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "date") == ["Projects/Launch.md"]  # was Projects.md too: "date AS "Date""
        assert keyword_side(vault, "deadline") == ["Projects/Launch.md"]  # a base's view: its sort key
        assert keyword_side(vault, "budget spreadsheet") == ["Projects.md"]  # the note's own words stay
        assert keyword_side(vault, "config_loader") == ["Code/Loader.md"]  # other code stays searchable


def test_a_hit_s_snippet_leaves_out_its_query_block_and_names_its_own_lines(dataview_vault: Path) -> None:
    with Vault(dataview_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        [hit] = [hit for hit in vault.search("Projects", k=5, now=NOW) if hit.path == "Projects.md"]
        assert "TABLE" not in hit.snippet, hit.snippet  # was the query's text
        assert "views" not in hit.snippet, hit.snippet
        assert "Everything we are building" in hit.snippet
        assert hit.passage is not None
        assert hit.passage.lines == [1, 15]  # the file's lines: the blocks' kept
    assert (dataview_vault / "Projects.md").read_text(encoding="utf-8") == PROJECTS  # the file is not touched
