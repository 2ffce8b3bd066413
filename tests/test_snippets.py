"""What a hit shows of its note (vaultmem/snippets.py): readable, never empty, true to the file.

Hits come from a real index of real files (the vendored kepano vault and notes written to
tmp_path) and the real default embedder; the rendering rules are also checked on their own,
on text whose reading is known.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import NOW, REAL_VAULTS, write_file

from vaultmem import Vault
from vaultmem.snippets import excerpt_of, property_lines, query_pattern, readable


@pytest.fixture(scope="module")
def kepano(tmp_path_factory: pytest.TempPathFactory, wordllama: object) -> Iterator[Vault]:
    """The real kepano vault, indexed once (read-only)."""
    root = shutil.copytree(REAL_VAULTS / "kepano-obsidian", tmp_path_factory.mktemp("kepano") / "kepano")
    with Vault(root, embedder=wordllama) as opened:  # type: ignore[arg-type]
        opened.index()
        yield opened


def hit_on(vault: Vault, query: str, path: str, k: int = 10) -> str:
    """The snippet of the hit on ``path`` among the first ``k`` of ``query``."""
    hits = vault.search(query, k=k, now=NOW)
    [snippet] = [hit.snippet for hit in hits if hit.path == path]
    return snippet


def words_of(text: str) -> set[str]:
    return {word.casefold() for word in re.findall(r"\w+", text)}


# ---------------------------------------------------------------- never empty


def test_a_note_whose_body_is_empty_shows_the_property_lines_that_hold_the_query(kepano: Vault) -> None:
    snippet = hit_on(kepano, "Well Made 145 Kevin Kelly", "References/Well Made 145 Kevin Kelly.md")
    assert snippet == "show: Well Made · guests: Kevin Kelly · episode: 145"  # was "": the note has no body


def test_a_passage_without_the_query_shows_the_matching_properties_before_it(kepano: Vault) -> None:
    # The clipping's text never says "Kevin Kelly": its `author` property does.
    snippet = hit_on(kepano, "Kevin Kelly", "Clippings/68 Bits of Unsolicited Advice.md")
    assert snippet.startswith("author: Kevin Kelly · It’s my birthday. I’m 68.")
    assert hit_on(kepano, "Kevin Kelly", "References/Out of Control.md") == "author: Kevin Kelly"


def test_every_note_of_the_real_vault_asked_for_by_name_shows_something(kepano: Vault) -> None:
    rows = list(kepano.store.notes.all())
    assert len(rows) == 51
    for row in rows:
        [hit] = kepano.search(row.title, k=1, now=NOW)
        assert hit.path == row.path and hit.snippet.strip(), (row.path, hit.snippet)


def test_an_empty_body_without_a_matching_property_shows_the_first_properties_then_the_title(tmp_path: Path, wordllama: object) -> None:
    write_file(tmp_path, "Zanzibar trip.md", "---\nlayer: L3\nstatus: planned\ncountry: Tanzania\nnights: 6\nbudget: low\n---\n")
    write_file(tmp_path, "Blank page.md", "---\n---\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        # The query is its name, not in any property: its first properties (not vaultmem's `layer`), at most three.
        assert hit_on(vault, "Zanzibar trip", "Zanzibar trip.md", k=1) == "status: planned · country: Tanzania · nights: 6"
        assert hit_on(vault, "Blank page", "Blank page.md", k=1) == "Blank page"  # nothing in the file but delimiters


def test_a_hit_on_a_note_without_a_body_points_at_lines_the_file_has(tmp_path: Path, wordllama: object) -> None:
    """A file that ends with its frontmatter's ``---`` has no body line: the hit shows its
    properties, and says they are on the frontmatter's lines, not on line 8 of a 7-line file."""
    write_file(tmp_path, "Zanzibar trip.md", "---\nlayer: L3\nstatus: planned\ncountry: Tanzania\nnights: 6\nbudget: low\n---\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        [hit] = vault.search("Tanzania", k=1, now=NOW)
    assert hit.passage is not None and hit.passage.lines == [1, 7]
    assert "country: Tanzania" in hit.snippet


def test_a_query_word_deep_inside_one_very_long_line_is_in_the_snippet(tmp_path: Path, wordllama: object) -> None:
    """A passage inside a line of a book's length is located by its line: the whole line. The
    snippet must still show where the word is, not the line's first 300 characters."""
    filler = " ".join(("river", "stone", "paper", "cloud")[n % 4] for n in range(8_000))
    write_file(tmp_path, "one-line.md", f"{filler} the quokka smiled at last.\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        snippet = hit_on(vault, "quokka", "one-line.md", k=1)
    assert "the quokka smiled at last." in snippet
    assert snippet.startswith("…") and " " + snippet[1:].split(" ", 1)[0] + " " in " " + filler + " "


# ---------------------------------------------------------------- readable, and only markup removed


def test_a_snippet_shows_headings_links_embeds_and_lists_as_text(tmp_path: Path, wordllama: object) -> None:
    write_file(tmp_path, "Errands.md", (
        "## Notes\n"
        "\n"
        "- Dentist on [[2024-05-02|Thursday]] at ten\n"
        "- [ ] Call [[People/Mum]] about **the keys**\n"
        "  1. spare set\n"
        "![[Albums.base]]\n"
        "\n"
        "See [the guide](https://example.com/guide) for `vaultmem index`.\n"
        "> [!tip] Dentist\n"
        "> bring the _card_\n"
    ))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        snippet = hit_on(vault, "dentist errands", "Errands.md", k=1)
    assert snippet == ("Notes · Dentist on Thursday at ten · Call People/Mum about the keys · 1. spare set · Albums.base · "
                       "See the guide for vaultmem index. Dentist bring the card")


def test_a_list_item_wrapped_onto_the_next_line_reads_as_one_item() -> None:
    """A list item's text continued on the next (indented) line is the same item: no `` · ``
    in the middle of its sentence; the next bullet is a block of its own again."""
    text = ("* packages are installed into the `{prefix}/lib/node_modules` folder, instead\n"
            "  of the current working directory.\n* bin files are linked to `{prefix}/bin`\n* man pages\n")
    assert readable(text) == ("packages are installed into the {prefix}/lib/node_modules folder, instead of the current "
                              "working directory. bin files are linked to {prefix}/bin · man pages")


def test_markup_inside_code_is_shown_as_written() -> None:
    text = "Install it:\n\n```sh\n# the package\npip install **vaultmem**\n```\n\nThen run `[[x]]`.\n"
    assert readable(text) == "Install it: # the package · pip install **vaultmem** · Then run [[x]]."


def test_rules_table_dividers_and_block_ids_are_markup_alone() -> None:
    text = "| name | role |\n|---|:---:|\n| Rui | pilot |\n\n---\n\nLast line ^block-1\n"
    assert readable(text) == "name | role · Rui | pilot · Last line"


def test_properties_are_read_from_the_frontmatter_lines_even_when_its_yaml_does_not_load() -> None:
    yaml_text = ('title: Kept out\nid: 01ABC\nauthor:\n  - "[[Kevin Kelly]]"\ntopics: []\n'
                 "genre: [Futurism, '[[Nonfiction]]']\ncreated: {{date}}\nsummary: >\n  A book about\n  emergence.\n"
                 "tags:\n  - books\n")
    assert property_lines(yaml_text) == [
        "author: Kevin Kelly", "genre: Futurism, Nonfiction", "summary: A book about emergence.", "tags: books",
    ]


@pytest.mark.parametrize("query", [
    "Kevin Kelly", "Well Made 145 Kevin Kelly", "the ISBN of Kevin Kelly's book", "brown butter nectarine tart oven",
    "what counts as an evergreen note", "the shrine I visited in Kyoto", "Albums", "map coordinates",
])
def test_every_word_a_snippet_shows_is_in_its_file(kepano: Vault, query: str) -> None:
    # Only markup is removed: a snippet never shows a word its file does not hold.
    hits = kepano.search(query, k=10, now=NOW)
    assert hits
    for hit in hits:
        text = (kepano.root / hit.path).read_text(encoding="utf-8")
        assert hit.snippet
        # A word longer than the window's slack may be cut where "…" is: it is then part of a word of the file.
        whole = re.sub(r"\w+…|…\w+", lambda cut, text=text: "" if cut.group().strip("…") in text else cut.group(), hit.snippet)
        assert words_of(whole) <= words_of(text), hit.path


def test_the_window_starts_at_a_query_word_not_at_a_stopword() -> None:
    passage = "The " + "filler words here and there " * 20 + "Zanzibar is where the ferries leave at six."
    excerpt = excerpt_of(passage, [], "Title", "the ferries to Zanzibar")
    assert excerpt.startswith("…") and "Zanzibar is where the ferries leave" in excerpt


def test_embeds_on_lines_of_their_own_are_blocks_of_their_own() -> None:
    assert readable("## Places\n\n![[Map.base#Location]]\n![[Places.base#Location]]\n") == (
        "Places · Map.base#Location · Places.base#Location")


def test_frontmatter_keys_are_read_as_yaml_writes_them() -> None:
    """Bare, quoted, and with white space before the colon; a URL's colons stay in its value;
    ``key:value`` (no space) is not a key in YAML, so it continues the property above."""
    yaml_text = ('single: v2\n"spaced" : v3\n\'quoted key\': v4\nurl: https://example.com:8080/x\n'
                 'plain   : v5\nnot:a-key\n' + "a" + " " * 5_000 + 'b"c:\n')
    assert property_lines(yaml_text) == ["single: v2", "spaced: v3", "quoted key: v4",
                                         "url: https://example.com:8080/x", 'plain: v5, not:a-key, a b"c:']


def test_the_window_finds_a_query_word_in_the_form_the_full_text_side_matched() -> None:
    """Regression: the full-text side stems ("secrets" matches "secret") but the window looked
    for the query's own spelling, so a hit found by "secrets" showed the passage's start, cut
    just before the sentence that held the word."""
    passage = "Plenty of advice about other things comes first in this list. " * 6 + "The secret to making fine things is in remaking them."
    excerpt = excerpt_of(passage, [], "Advice", "how do I rotate kubernetes secrets")
    assert excerpt.startswith("…") and "secret to making" in excerpt
    assert query_pattern("opening hours").search("The shop opens at nine") is not None
    assert query_pattern("changes").search("what changed last week") is not None
    assert query_pattern("glass").search("two glasses") is not None
    assert query_pattern("glass").search("glad to help") is None  # a word ending in ss keeps it
    assert query_pattern("bus").search("business as usual") is None  # a short word is matched whole
