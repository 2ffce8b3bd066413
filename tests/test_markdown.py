"""markdown.code_ranges reads only the fence lines and the lines holding a backtick, and finds
what a parse of every line found."""

from __future__ import annotations

import random
import time
from pathlib import Path

import line_by_line
import pytest
from helpers import keyword_side, write_vault

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.markdown import code_ranges, without_query_blocks
from vaultmem.passages import sections

_PIECES = (
    "```", "```sh", "```js `bad info`", "````", "`````markdown", "~~~", "~~~~", "~~~ python", "- ```python", "1. ```",
    "> ```", "> > ~~~", "  ```", "    ```", "\t~~~", "``", "~~", "```  ", "~~~`", "``` ```",
    "plain words", "", "# Heading", "a `span` b", "`unpaired", "``two`` and `one`", "`` a ` b ``", "x ``` y",
    "`a` `b` `c`", "```inline``` text", "~~~~~~", "- item", "> quote `q`", "`", "``", "```\t", "%% `x` %%",
    "# Heading one", "## Two ##", "   ### three", "    # four (code)", "\t# tab", "#no space", "#", "# ", "####### seven",
    "x # not", "```dataview", "~~~ Query", "````  tasks", "```base", "``` compressed-json", "```dataviewjs x", "%%",
    "<!-- c -->", "``dataview",
)
_ENDINGS = ("\n", "\r\n", "\r", "\n\n")


def _generated(chooser: random.Random) -> str:
    """Fence, backtick and plain lines in any order (so fences close, nest, or never close),
    ended by LF, CRLF, a lone CR (no line end to Markdown) or a blank line; the text may end
    without a line end, or in the middle of a CRLF."""
    style = chooser.choice(["lf", "crlf", "mixed"])
    pieces = []
    for _ in range(chooser.randint(0, 30)):
        ending = {"lf": "\n", "crlf": "\r\n"}.get(style) or chooser.choice(_ENDINGS)
        pieces.append(chooser.choice(_PIECES) + ending)
    text = "".join(pieces)
    return text[:-1] if text and chooser.random() < 0.3 else text


def test_code_ranges_finds_on_generated_texts_what_a_parse_of_every_line_found() -> None:
    chooser = random.Random(12_01)
    blocks = spans = 0
    for round_ in range(20_000):
        text = _generated(chooser)
        expected = line_by_line.code_ranges(text)
        assert code_ranges(text) == expected, (round_, text)
        blocks += sum("\n" in text[start:end] for start, end in expected)
        spans += sum("\n" not in text[start:end] for start, end in expected)
    assert blocks > 10_000, blocks
    assert spans > 10_000, spans


def test_code_ranges_of_a_long_log_with_stray_fences_are_those_of_a_parse_of_every_line() -> None:
    # A pasted log: far-apart fences, one that never closes megabytes above its end, and
    # backticks on many lines, some inside the blocks.
    chooser = random.Random(3)
    lines = ["A line of the log, `code` here and there, ``a`b`` too.", "plain words of the log", "```", "~~~~",
             "```sh", "~~~", "x ` y", "````"]
    for ending in ("\n", "\r\n"):
        text = ending.join(chooser.choice(lines) if chooser.random() < 0.2 else lines[1] for _ in range(60_000))
        text = "`````never closed" + ending + text
        expected = line_by_line.code_ranges(text)
        assert code_ranges(text) == expected
        assert len(expected) > 2_000
        assert expected[0][0] > 0


def test_sections_on_generated_texts_are_those_of_a_look_at_every_line() -> None:
    chooser = random.Random(84)
    headed = 0
    for round_ in range(10_000):
        body = _generated(chooser)
        expected = line_by_line.sections(body)
        assert sections(body) == expected, (round_, body)
        headed += sum(bool(section.headings) for section in expected)
    assert headed > 5_000, headed


def test_without_query_blocks_on_generated_texts_is_what_one_search_for_a_query_fence_gave() -> None:
    chooser = random.Random(208)
    changed = 0
    for round_ in range(10_000):
        text = _generated(chooser)
        expected = line_by_line.without_query_blocks(text)
        assert without_query_blocks(text) == expected, (round_, text)
        changed += expected != text
    assert changed > 1_000, changed


def test_a_line_of_backticks_or_tildes_is_looked_at_for_a_query_fence_in_linear_time() -> None:
    # The query fence's regex, searched for, tried every backtick of a run to the run's end:
    # 20,000 backticks took 9 s, 40,000 took 36 s (a pasted minified file, a drawn line).
    started = time.thread_time()
    for text in ("a\n" + "`" * 200_000 + "\n", "~" * 200_000):
        assert without_query_blocks(text) == text  # no block
    query_left_open = ("`" * 50_000 + "dataview\n") * 2  # the first fence of 50,000 never closes: a query to the end
    assert without_query_blocks(query_left_open).strip() == ""
    assert time.thread_time() - started < 1.0


def test_a_query_block_left_open_at_a_notes_end_is_code_and_a_stray_fence_is_not() -> None:
    # A trial on a real Russian vault: six of its 32 notes end in a ```dataview block with no
    # closing fence (Obsidian runs it to the end); its "from #Руководство" was read as a tag.
    query = "[[S 147]]\n\n```dataview \ntable file.mtime as \"Изменение\"\nfrom #Руководство \nsort file.mtime desc"
    assert code_ranges(query) == [(len("[[S 147]]\n\n"), len(query))]
    assert "#Руководство" not in without_query_blocks(query)
    assert "[[S 147]]" in without_query_blocks(query)
    stray = "```\nnot closed: #tag and [[link]] stay text\n"
    assert code_ranges(stray) == []


def test_a_note_ending_in_an_open_query_has_no_tag_or_text_from_the_query(tmp_path: Path) -> None:
    from helpers import keyword_side, write_vault

    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    root = write_vault(tmp_path / "vault", {
        "Руководство.md": "[[Апрель]]\n\n```dataview \ntable file.mtime as \"Изменение\", comment as \"Комментарий\"\n"
                          "from #Руководство \nsort file.mtime desc",
        "Апрель.md": "---\ntags:\n  - Руководство\n---\nОбъявления и напоминания, апрель.\n",
    })
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert vault.get("Руководство").tags == []
        assert [hit.path for hit in vault.search("Объявления", k=5, tags=["Руководство"])] == ["Апрель.md"]
        by_words = {hit.path: hit.match for hit in vault.search("Комментарий mtime", k=5)}
        assert by_words.get("Руководство.md") in (None, "meaning"), by_words  # the query's words are not its text


def test_a_links_web_address_is_left_out_but_its_site_and_its_text_a_bare_address_a_note_link_and_code_stay() -> None:
    from vaultmem.markdown import without_link_addresses

    text = ("- Good habits make time your ally. ([Location 290](https://readwise.io/to_kindle?action=open&asin=B07D23CFGR&location=290))\n"
            "  ![](https://miro.medium.com/v2/1*hE1Z.png) and [Foo (bar)](https://en.wikipedia.org/wiki/Foo_(bar) \"title\")\n"
            "- URL: https://uxdesign.cc/the-case-for-ai-hallucination\n"
            "See [setup](Guides/setup.md) and `[raw](https://example.com/zebra)`.\n")
    blanked = without_link_addresses(text)
    assert blanked == ("- Good habits make time your ally. ([Location 290]( readwise ))\n"
                       "  ![]( ) and [Foo (bar)]( wikipedia )\n"
                       "- URL: https://uxdesign.cc/the-case-for-ai-hallucination\n"
                       "See [setup](Guides/setup.md) and `[raw](https://example.com/zebra)`.\n")
    assert blanked.count("\n") == text.count("\n")  # every line where it was
    assert without_link_addresses("no link here\n") == "no link here\n"


@pytest.mark.parametrize(("host", "site"), [
    ("www.nytimes.com", "nytimes"), ("read.readwise.io", "readwise"), ("bbc.co.uk", "bbc"),
    ("www.abc.net.au", "abc"), ("user@github.com:443", "github"), ("127.0.0.1:8000", ""), ("", ""),
    ("localhost", ""), ("co.uk", "co"),
])
def test_a_link_s_site_is_the_name_a_person_knows_it_by(host: str, site: str) -> None:
    from vaultmem.markdown import site_name

    assert site_name(host) == site


def test_the_site_a_link_leads_to_is_searched_and_its_address_is_not(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "v", {
        "watch later.md": "# Watch later\n\n- [How sourdough works](https://www.youtube.com/watch?v=Zx9qP4) for the weekend\n",
        "bread.md": "# Bread\n\nStarter fed at 9, baked at 4.\n",
    })
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "youtube") == ["watch later.md"]
        assert keyword_side(vault, "Zx9qP4") == []
        assert keyword_side(vault, "watch") == ["watch later.md"]  # by its name, not by the address's ?v=


@pytest.mark.parametrize(("text", "opener"), [
    ("run 100%% of it\nrest\n", 7),
    ("- %% private\nrest\n", 2),
    ("a %% b\n%%\nrest\n", None),  # the last %% opens its line and closes the first: read no further
    ("intro\n%%\nprivate tail\n", None),  # opens its line: left alone
    ("a %% b\n```\n%%\n```\n", None),  # a closer in a fence still closes it, as hidden_ranges reads it
    ("use `%%` here\nrest\n", None),
    ("x\n%%\n## Drawing\n```compressed-json\nN4Ig%%\n```\n%%", None),  # Excalidraw's data block
])
def test_unclosed_inline_comment_names_only_a_percent_pair_inside_a_line_left_open(text: str, opener: int | None) -> None:
    from vaultmem.markdown import unclosed_inline_comment

    assert unclosed_inline_comment(text) == opener
