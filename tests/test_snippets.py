"""What a hit shows of its note (vaultmem/snippets.py): readable, never empty, true to the file.

Hits come from a real index of real files (the vendored kepano vault and notes written to
tmp_path) and the real default embedder; the rendering rules are also checked on their own,
on text whose reading is known.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import NOW, REAL_VAULTS, run_cli, run_json, write_file

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.markdown import (
    code_ranges,
    data_holders,
    fenced_blocks,
    hidden_ranges,
    hidden_ranges_by_blocks,
    merged_ranges,
    query_block_ranges,
)
from vaultmem.notes import inline_tags
from vaultmem.snippets import (
    HIDDEN_SCAN_CHARS,
    SECTION_SCAN_CHARS,
    excerpt_of,
    line_span,
    passage_snippet,
    property_lines,
    query_pattern,
    readable,
    section_of,
    visible,
    window,
)
from vaultmem.storage import PassageRow


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


DEPLOYING = """# Deploying the service

## Prerequisites

You need sops and age installed; keys live in the team vault.

## Rollout

Run the pipeline and watch the canary for ten minutes.

## Troubleshooting

If pods are OOMKilled, raise the memory limit in values.yaml.
"""


def test_a_hit_says_the_heading_and_lines_of_the_section_its_snippet_comes_from(tmp_path: Path, wordllama: object) -> None:
    # A trial: OOMKilled is under Troubleshooting, but the hit said "Deploying the service > Rollout",
    # the first section of the passage its short sections were packed into (or a short note's: none).
    long_intro = "".join(f"Step {n}: check the dashboards, the alerts and the on-call rota before you start.\n\n"
                         for n in range(14))
    write_file(tmp_path, "guides/Deploying.md", DEPLOYING)
    write_file(tmp_path, "Retro.md", "---\ndate: 2026-11-28\n---\n# Retro\n\nThe offsite budget was cut by a third.\n")
    write_file(tmp_path, "guides/Long.md", "# Long guide\n\n## Before\n\n" + long_intro + DEPLOYING.replace("# Deploying", "## Deploying"))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        short = {hit.path: hit for hit in vault.search("OOMKilled", k=5, now=NOW)}["guides/Deploying.md"]
        sops = {hit.path: hit for hit in vault.search("sops", k=5, now=NOW)}["guides/Deploying.md"]
        long = {hit.path: hit for hit in vault.search("OOMKilled", k=5, now=NOW)}["guides/Long.md"]
        explained = vault.explain("guides/Deploying", "OOMKilled", now=NOW)
        retro = {hit.path: hit for hit in vault.search("offsite budget", k=5, now=NOW)}["Retro.md"]
        by_meaning = vault.explain("Retro", "annual spending reduction", now=NOW)  # no word of it in the note
    assert by_meaning.passage is not None and (by_meaning.passage.headings, by_meaning.passage.lines) == (["Retro"], [4, 6])
    assert retro.passage is not None and (retro.passage.headings, retro.passage.lines) == (["Retro"], [4, 6])  # one section
    assert short.passage is not None and sops.passage is not None and long.passage is not None
    assert (short.passage.headings, short.passage.lines) == (["Deploying the service", "Troubleshooting"], [11, 13])
    assert (sops.passage.headings, sops.passage.lines) == (["Deploying the service", "Prerequisites"], [3, 5])
    # The snippet is cut from those lines: it ran on into the next sections (a trial's diary note).
    assert short.snippet.startswith("Troubleshooting · If pods are OOMKilled") and "canary" not in short.snippet, short.snippet
    assert "sops" in sops.snippet and "Rollout" not in sops.snippet and "OOMKilled" not in sops.snippet, sops.snippet
    assert long.passage.headings == ["Long guide", "Troubleshooting"]  # its ## sections are siblings of ## Deploying
    lines = (tmp_path / "guides/Long.md").read_text(encoding="utf-8").split("\n")
    assert lines[long.passage.lines[0] - 1] == "## Troubleshooting" and "OOMKilled" in lines[long.passage.lines[1] - 1]
    assert explained.passage is not None and explained.passage.headings == ["Deploying the service", "Troubleshooting"]


def test_the_heading_of_a_hit_is_where_a_person_reads_the_word_not_a_comment_or_a_link_address(tmp_path: Path,
                                                                                                 wordllama: object) -> None:
    write_file(tmp_path, "a.md", "# Intro\nSome words. %% the lighthouse keeper said so %%\n\n# Harbor\n"
                                 "The lighthouse stands at the pier end.\n\n# Misc\nNothing else.\n")
    write_file(tmp_path, "e.md", "# Links\nSee [the site](https://example.com/narwhal) for more.\n\n# Animals\nThe narwhal swims.\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        lighthouse = {hit.path: hit for hit in vault.search("lighthouse", k=5, now=NOW)}["a.md"]
        narwhal = {hit.path: hit for hit in vault.search("narwhal", k=5, now=NOW)}["e.md"]
    assert lighthouse.passage is not None and lighthouse.passage.headings == ["Harbor"]
    assert narwhal.passage is not None and narwhal.passage.headings == ["Animals"]


def test_a_passage_that_begins_inside_a_code_block_reads_its_code_as_code(tmp_path: Path, wordllama: object) -> None:
    # A review: the passage began inside a python fence, its closing fence read as an opening one,
    # and the %% of a format string hid everything after it: the snippet was 'print("'.
    code = "".join(f"x{n} = load('survey-{n}.csv')  # the raw counts of site {n}, before cleaning\n\n" for n in range(16))
    write_file(tmp_path, "Analysis.md", "# Analysis script\n\n```python\n" + code
               + 'print("%%d pelicans" % count)\nplot(pelican_count, wingspan)\n```\n\nThe plot shows pelican wingspan growing.\n')
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        snippet = hit_on(vault, "wingspan", "Analysis.md", k=1)
    assert 'print("%%d pelicans" % count)' in snippet and "The plot shows pelican wingspan growing." in snippet


def test_an_unclosed_html_comment_or_element_inside_a_line_is_text_not_a_hidden_rest() -> None:
    assert readable("Follow the <Style Guide> rules.\n\n## Pelicans\nPelicans eat fish.") == (
        "Follow the <Style Guide> rules. Pelicans · Pelicans eat fish.")  # was "Follow the"
    assert readable("A comment starts with <!-- and ends later.\n\nMore.") == "A comment starts with <!-- and ends later. More."
    assert readable("Before.\n\n<!-- an HTML block left open\n\nhidden to the end\n") == "Before."  # opens a line: a block
    assert inline_tags("In HTML a comment starts with <!-- and ends later. #html\n\nMore about #css here.") == ["html", "css"]


def test_entities_html_does_not_have_stay_and_an_image_reads_as_its_description() -> None:
    assert readable('A &amp; B &notanentity; &#169; <img src="x.png" alt="Pelican photo"> <img src=y.png>end') == (
        "A & B &notanentity; © Pelican photo end")
    assert readable("x<img alt=cat src=a.png>y") == "x cat y"  # unquoted, and a word of its own


def test_an_inline_html_opener_closes_only_within_its_paragraph_and_a_nested_block_ends_with_its_paragraph() -> None:
    # A second review: the inline <!-- paired with a later, separate comment and hid the text between.
    assert readable("An HTML comment starts with <!-- in a page.\n\nBuy milk.\n\n<!-- private note -->\nAfter.") == (
        "An HTML comment starts with <!-- in a page. Buy milk. After.")
    assert inline_tags("Read the <style guide first.\n\n#todo fix\n\n<style>p{}</style>\n") == ["todo"]
    assert inline_tags("> <!-- draft\n> #hidden in quote\n\n#after\n") == ["after"]  # an HTML block in a quote


def test_an_unclosed_comment_in_a_list_item_ends_with_the_item_in_lf_and_crlf_files_alike() -> None:
    # A third review: in a CRLF file the paragraph's end was never found, and the rest of the note went.
    for newline in ("\n", "\r\n"):
        text = "- <!-- oops\n- next #a\n\nlater #b\n".replace("\n", newline)
        assert inline_tags(text) == ["a", "b"], repr(newline)
        assert readable(text.replace("\r\n", "\n")) == "next #a · later #b"


def test_a_passage_that_starts_on_a_closing_fence_shows_no_stray_fence() -> None:
    text = "intro\n\n```python\nx = 1\ny = 2\n```\n\nafter %% c %% end\n"
    assert readable(visible(text, 0, *line_span(text, 6, 8))) == "after end"
    assert readable(visible(text, 0, *line_span(text, 6, 6))) == ""


def test_a_comment_that_closes_in_a_later_passage_is_hidden_in_this_one(tmp_path: Path, wordllama: object) -> None:
    filler = "".join(f"Paragraph {n} about the garden shed and its tools, kept here for length.\n\n" for n in range(19))
    more = "".join(f"More hidden text {n} about the salary talks, kept here for length.\n\n" for n in range(25))
    write_file(tmp_path, "Draft.md", filler + "Draft below:\n<!-- private zebra: salary 90k #secret\n\n" + more
               + "end -->\n\nvisible tail\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        hits = vault.search("garden shed tools draft", k=3, now=NOW)
        shown = " ".join(hit.snippet for hit in hits if hit.path == "Draft.md")
        tags = vault.get("Draft").tags
    assert shown and "zebra" not in shown and "salary" not in shown
    assert "secret" not in tags  # the index and the snippet agree


def test_a_passage_in_the_middle_of_a_long_code_block_reads_as_code_and_its_heading_is_the_codes() -> None:
    lines = ["# Code", "", "```matlab"] + [f"x{i} = {i};" if i != 55 else "%% section two" for i in range(120)] + ["```", "", "after"]
    text = "\n".join(lines) + "\n"
    offsets = [0]
    for line in text.split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    middle = readable(visible(text, 0, offsets[59], offsets[90]))  # file lines 60-90: no fence of their own
    first = readable(visible(text, 0, offsets[0], offsets[30]))
    assert middle.startswith("x56 = 56;") and "x70 = 70;" in middle  # the %% in the code hid nothing
    assert first.startswith("Code · x0 = 0;") and "```" not in first
    code_note = "# A\nintro\n# B\n```matlab\n%% zebra cell\nx = 1\n```\n# C\nzebra here\n"
    assert section_of(code_note, 0, PassageRow(1, 1, 0, (), 1, 10), "zebra") == (("B",), 3, 7)  # in code: read as written


def test_a_query_word_inside_thousands_of_comments_does_not_stop_the_search_for_the_shown_one() -> None:
    note = "# A\nintro\n# B\n" + "%%zebra%%\n" * 19_000 + "# C\nzebra\n"
    assert section_of(note, 0, PassageRow(1, 1, 0, (), 1, 19_006), "zebra") == (("C",), 19_004, 19_005)


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
    assert snippet == ("Notes · Dentist on Thursday at ten · Call People/Mum about the keys · 1. spare set · "
                       "See the guide for vaultmem index. Dentist · bring the card")  # a callout's title is a block


def test_a_done_task_keeps_its_mark_in_a_snippet_and_an_open_one_reads_as_a_list_item(tmp_path: Path, wordllama: object) -> None:
    # A Kanban board's archived cards and a daily note's ticked tasks read as open ones: "is the
    # fence painted?" was answered "Paint the fence" either way (a trial on a task-heavy vault).
    write_file(tmp_path, "Board.md", (
        "## Fence\n"
        "\n"
        "- [x] Paint the fence ✅ 2025-12-10\n"
        "- [ ] Sand the fence\n"
        "- [-] Replace the fence\n"
        "* [X] Oil the fence gate\n"
    ))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        snippet = hit_on(vault, "fence", "Board.md", k=1)
    assert snippet == "Fence · [x] Paint the fence ✅ 2025-12-10 · Sand the fence · [-] Replace the fence · [X] Oil the fence gate"


def test_headings_of_sections_that_say_nothing_are_left_out_where_anything_else_is_said(tmp_path: Path, wordllama: object) -> None:
    # A daily template of query sections: the snippet read "Thursday · Pending · Overdue · Today ·
    # TODO · …" and the day's tasks were cut off at 300 characters (a trial on a task vault).
    write_file(tmp_path, "Daily/2025-12-11.md", (
        "# Thursday\n\n## Pending\n\n### Overdue\n\n```tasks\nnot done\ndue before 2025-12-11\n```\n\n"
        "### Today\n\n```tasks\nnot done\ndue on 2025-12-11\n```\n\n"
        "## TODO\n\n- [x] Move the dialogue bubbles to a panel ✅ 2025-12-11\n- [ ] Fix the UI bugs\n"))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        listed = vault.list_notes(k=1, now=NOW)
    assert [note.snippet for note in listed] == ["TODO · [x] Move the dialogue bubbles to a panel ✅ 2025-12-11 · Fix the UI bugs"]
    assert readable("## Pending\n\n### Overdue\n\n### Today\n") == "Pending · Overdue · Today"  # headings alone: all it says


def test_a_snippet_in_a_dendron_vault_shows_a_link_by_its_label_written_first(tmp_path: Path, wordllama: object) -> None:
    # Dendron writes [[label|name]] and shows the label; read Obsidian's way the snippet
    # showed the note's dotted name instead ("See tools.git for gitflow notes").
    write_file(tmp_path, "dendron.yml", "version: 5\n")
    write_file(tmp_path, "notes/tools.git.md", "---\nid: a1\ntitle: Git\n---\nundo with git restore\n")
    write_file(tmp_path, "notes/demo.md", (
        "---\nid: d1\ntitle: Demo\ndesc: ''\nupdated: 1710000000000\ncreated: 1710000000000\n---\n\n"
        "See [[how to undo things|tools.git#restore]] for gitflow notes, not `[[x|y]]`.\n"))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        snippet = hit_on(vault, "gitflow notes", "notes/demo.md", k=2)
    assert snippet == "See how to undo things for gitflow notes, not [[x|y]]."


def test_bold_strike_and_highlight_holding_another_marks_character_read_without_their_marks() -> None:
    # One pattern for all four stopped at any of their characters: "**1 R = 200 €**" and
    # "**~33 Credits/Tag**" were shown with their stars (a trial on a German vault).
    text = "- **Maximal 1 R = 200 €** am Tag, **~33 Credits/Tag**, **PUPRIME_ENABLED**, ==a_b== und ~~x = y~~\n"
    assert readable(text) == "Maximal 1 R = 200 € am Tag, ~33 Credits/Tag, PUPRIME_ENABLED, a_b und x = y"
    assert readable("a == b, **x** **y** and c == d\n") == "a == b, x y and c == d"


def test_a_snippet_opens_at_a_word_asked_for_with_umlauts_that_the_note_writes_out() -> None:
    pattern = query_pattern("Händler")
    assert pattern is not None
    assert pattern.search("1 Kunde total, 0 aktive Haendler") is not None  # was None
    assert pattern.search("ein Händler") is not None


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
    # Only markup is removed: a snippet never shows a word its file does not hold — but the
    # "embedded" that says an embedded file is one (snippets._embeds_placed).
    hits = kepano.search(query, k=10, now=NOW)
    assert hits
    for hit in hits:
        text = (kepano.root / hit.path).read_text(encoding="utf-8")
        assert hit.snippet
        # A word longer than the window's slack may be cut where "…" is: it is then part of a word of the file.
        whole = re.sub(r"\w+…|…\w+", lambda cut, text=text: "" if cut.group().strip("…") in text else cut.group(), hit.snippet)
        whole = re.sub(r"\(embedded ([^()]+)\)", r"\1", whole)
        assert words_of(whole) <= words_of(text), hit.path


def test_the_window_starts_at_a_query_word_not_at_a_stopword() -> None:
    passage = "The " + "filler words here and there " * 20 + "Zanzibar is where the ferries leave at six."
    excerpt = excerpt_of(passage, [], "Title", "the ferries to Zanzibar")
    assert excerpt.startswith("…") and "Zanzibar is where the ferries leave" in excerpt


def test_embeds_on_lines_of_their_own_are_blocks_of_their_own() -> None:
    # A base's view after # is how it is displayed, not what it is: the file's name alone.
    assert readable("## Places\n\n![[Map.base#Location]]\n![[Places.base#Location]]\n") == (
        "Places · (embedded Map.base) · (embedded Places.base)")


def test_an_embedded_file_is_left_out_where_the_passage_says_something_else() -> None:
    # kepano's Categories/Evergreen.md: its snippet ended in "Evergreen.base", read as if the note said it.
    assert readable("An evergreen note is an idea.\n\n![[Evergreen.base]]\n") == "An evergreen note is an idea."
    assert readable("Analysis of cost per use, see [[Buy wisely]]\n\n![[Products.base#Cost per use]]") == (
        "Analysis of cost per use, see Buy wisely")
    assert readable("## Notes\n\n![[Daily.base]]\n\n- call the dentist\n") == "Notes · call the dentist"
    assert readable("- ![[a.png]]\n- milk\n") == "milk"  # a list item of one embed is a line of its own


def test_an_embedded_file_inside_a_sentence_is_said_as_one() -> None:
    """Was: left out, so "see ![[a.png]] and ![[Drawing.excalidraw]]" read "see and" and "See
    ![[chart.png]]." read "See." — where reading view shows the file, and the README says an
    embedded file shows its name."""
    assert readable("see ![[a.png]] and ![[Drawing.excalidraw]]") == "see (embedded a.png) and (embedded Drawing.excalidraw)"
    assert readable("See ![[chart.png]].") == "See (embedded chart.png)."
    assert readable("A view ![[Attachments/photo.jpg|640x480]] of the bay") == "A view (embedded Attachments/photo.jpg) of the bay"
    assert readable("A view ![[photo.jpg|The bay at dusk|640]] today") == "A view The bay at dusk today"  # its label, as before
    assert readable("see ![[Plan]] and ![[b|B]]") == "see Plan and B"  # an embedded note shows its name or label, as before


def test_a_passage_of_only_headings_and_embedded_files_says_what_they_are() -> None:
    # kepano's daily notes are "## Notes" over ![[Daily.base]]: "Notes · Daily.base" named a file as if it were text.
    assert readable("## Notes\n\n![[Daily.base]]\n") == "Notes · (embedded Daily.base)"
    assert readable("![[Trips.base]]") == "(embedded Trips.base)"
    # The marks are noncharacters: a note's own are dropped, never read as an embed.
    assert readable("\ufdd0x\ufdd1 ![[a.png]]") == "x (embedded a.png)"


def test_property_lines_and_an_exports_date_lines_are_left_out_where_the_passage_says_something_else() -> None:
    # Trials: a Logseq journal's snippet read "We should plant the tomatoes after the last frost
    # speaker:: Caroline", and an Evernote note exported by YARLE ended in its "Created at: …"
    # and "Updated at: …" lines, as if the note said them.
    journal = ("- We should plant the tomatoes after the last frost\n  speaker:: Caroline\n"
               "- The community garden opens in April\n  speaker:: Melanie\n  Due Date:: 2026-04-01\n")
    assert readable(journal) == "We should plant the tomatoes after the last frost · The community garden opens in April"
    yarle = ("# Boiler service\n\nVaillant ecoTEC serviced by HeatRight, contract HR-20931.\n\n"
             "    Created at: 2025-10-03T09:12:00+02:00\n    Updated at: 2025-10-05T10:00:00+02:00\n\n")
    assert readable(yarle) == "Boiler service · Vaillant ecoTEC serviced by HeatRight, contract HR-20931."
    assert readable("speaker:: Caroline\nI went to the lake.\n") == "I went to the lake."  # not joined to the next line
    # All there is (but headings and embeds): kept, as an embed is.
    assert readable("## Call\n\nspeaker:: Caroline\nmood:: happy\n") == "Call · speaker:: Caroline · mood:: happy"
    assert readable("Created at: 2025-10-03\n") == "Created at: 2025-10-03"
    # Not a property line: a space before the colons, a field inside a sentence, a colon alone.
    assert readable("Haskell writes map :: (a -> b)\n") == "Haskell writes map :: (a -> b)"
    assert readable("The plan [due:: Friday] holds.\n") == "The plan [due:: Friday] holds."
    assert readable("Text.\nCreated at the workshop: a bench\n") == "Text. Created at the workshop: a bench"


def test_a_hit_found_by_a_property_line_is_still_found_and_its_snippet_leaves_the_line_out(tmp_path: Path, wordllama: object) -> None:
    # Display only: the property's words stay searched (the hit is found by "Caroline"), and
    # the snippet shows what the note says.
    write_file(tmp_path, "journals/2024_03_04.md", "- We should plant the tomatoes after the last frost\n  speaker:: Caroline\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        assert hit_on(vault, "Caroline tomatoes", "journals/2024_03_04.md") == "We should plant the tomatoes after the last frost"
        assert [hit.path for hit in vault.search("Caroline", k=3, now=NOW)] == ["journals/2024_03_04.md"]


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


# ---------------------------------------------------------------- as reading view shows it (the user trial)


def test_raw_html_shows_its_text_with_block_tags_as_breaks() -> None:
    assert readable('<div class="callout-box"> <p>Maintenance window is <b>Tuesday 06:00–07:00 UTC</b>.</p> </div>\n') == (
        "Maintenance window is Tuesday 06:00–07:00 UTC.")
    assert readable("<details><summary>Why it failed</summary>The disk was full</details>") == "Why it failed · The disk was full"
    assert readable("Call Rui<br>then Ana<br/>\nthen lunch") == "Call Rui · then Ana · then lunch"
    assert readable('Demo: <iframe src="https://www.youtube.com/embed/x" width="560"></iframe>\n') == "Demo:"
    assert readable("<table><tr><th>name</th><th>role</th></tr><tr><td>Rui</td><td>pilot</td></tr></table>") == (
        "name role · Rui pilot")
    assert readable("Fish &amp; chips&nbsp;today, ?a=1&copy=2") == "Fish & chips today, ?a=1&copy=2"


def test_html_comments_scripts_and_styles_are_dropped_with_their_contents() -> None:
    assert readable("Keep this <!-- not this --> and this.\n<!--\na draft\n\nparagraph\n-->\nLast.") == (
        "Keep this and this. Last.")
    assert readable("Before <script>alert('x')</script> after <STYLE type='text/css'>p { color: red }</style>.") == (
        "Before after .")


def test_html_and_comments_inside_code_are_shown_as_written() -> None:
    text = ("Use `<br>` or `%%` in `<!-- x -->`.\n\n```html\n<div class=\"a\"><script>go()</script></div>\n%% kept %%\n```\n"
            "And <b>bold</b> %% hidden %% here.\n")
    assert readable(text) == ('Use <br> or %% in <!-- x -->. <div class="a"><script>go()</script></div> · %% kept %% · '
                              "And bold here.")


def test_words_in_angle_brackets_that_html_has_no_tag_for_stay() -> None:
    assert readable("A List<String> of names; press <Tab> then a <b>bold</b> move") == (
        "A List<String> of names; press <Tab> then a bold move")


def test_obsidian_comments_are_hidden_inline_and_as_blocks() -> None:
    text = "Ship on Friday %%or Monday?%% at noon.\n\n%%\nTODO: ask Rui\n\nstill hidden\n%%\n\nThen celebrate.\n"
    assert readable(text) == "Ship on Friday at noon. Then celebrate."
    assert readable("Shown.\n%% a comment left open\nhides the rest") == "Shown."  # as Obsidian hides it


def excalidraw_note(texts: list[str]) -> str:
    """A drawing as the Excalidraw plugin saves it: its texts under "Text Elements", then the
    scene's JSON (tab-indented, thousands of characters) inside a ``%%`` comment."""
    elements: list[dict[str, object]] = []
    for number, words in enumerate(texts):
        common = {"angle": 0, "strokeColor": "#1e1e1e", "backgroundColor": "transparent", "fillStyle": "hachure",
                  "strokeWidth": 1, "strokeStyle": "solid", "roughness": 1, "opacity": 100, "groupIds": [],
                  "version": 3, "isDeleted": False, "updated": 1700000000000, "link": None, "locked": False}
        elements.append({"id": f"box{number}", "type": "rectangle", "x": 240 * number, "y": 40, "width": 220,
                         "height": 80, "seed": 1000 + number, "boundElements": [{"type": "text", "id": f"t{number}"}], **common})
        elements.append({"id": f"t{number}", "type": "text", "x": 240 * number + 10, "y": 60, "width": 200, "height": 25,
                         "seed": 2000 + number, "text": words, "rawText": words, "originalText": words, "fontSize": 20,
                         "fontFamily": 1, "textAlign": "center", "verticalAlign": "middle", "containerId": f"box{number}",
                         **common})
    scene = {"type": "excalidraw", "version": 2, "source": "https://github.com/zsviczian/obsidian-excalidraw-plugin",
             "elements": elements, "appState": {"gridSize": None, "viewBackgroundColor": "#ffffff"}, "files": {}}
    return ("---\n\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n\n---\n"
            "==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==\n\n\n# Text Elements\n"
            + "\n\n".join(f"{words} ^t{number}" for number, words in enumerate(texts))
            + "\n\n%%\n# Drawing\n```json\n" + json.dumps(scene, indent="\t") + "\n```\n%%")


def test_an_excalidraw_drawing_shows_its_text_elements_not_its_json(tmp_path: Path, wordllama: object) -> None:
    """The scene's JSON holds the drawing's texts too, so a query's best passage is often a
    piece of the JSON — a passage that starts inside the ``%%`` block and shows no ``%%`` of
    its own. Reading view hides all of it: the snippet is the drawing's text."""
    texts = ["Build on CI", "Canary release to five percent of traffic", "Promote to production after one hour"]
    write_file(tmp_path, "Release flow.excalidraw.md", excalidraw_note(texts))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        for query in ("canary release traffic", "promote to production", "Release flow", "rectangle hachure"):
            [hit] = vault.search(query, k=1, now=NOW)
            # Neither the plugin's banner nor its "# Text Elements" heading: the drawing's words alone.
            assert hit.passage is not None
            assert hit.snippet == " · ".join(texts), (query, hit.passage)
        # The scene's JSON (a fenced block inside the %% comment) is no passage any more
        # (markdown.query_block_ranges): no query's best passage is in the Drawing section.
        assert all(vault.search(query, k=1, now=NOW)[0].passage.headings != ["Drawing"]  # type: ignore[union-attr]
                   for query in ("canary release traffic", "rectangle hachure"))


def test_a_passage_is_read_in_its_file_for_the_comments_around_it() -> None:
    """A passage is some lines of its file: one that begins inside a ``%%`` block holds only its
    closing ``%%``, which read alone would open a comment and hide the passage's real text;
    a ``%%`` in code above it opens nothing."""
    text = "Intro.\n\n%%\nprivate one\n\nprivate two\n%%\n\nPublic line.\n"
    assert readable(visible(text, 0, *line_span(text, 6, 9))) == "Public line."
    assert readable(text[slice(*line_span(text, 6, 9))]) == "private two"  # the passage alone: inside out
    assert not visible(text, 0, *line_span(text, 3, 6)).strip()  # all hidden: passage_snippet shows the note's text
    code_above = "Write `%%` to start a comment.\n\nThe ferry leaves at six.\n"
    assert visible(code_above, 0, *line_span(code_above, 3, 3)) == "The ferry leaves at six."
    huge_comment = "%%\n" + "a draft line\n" * 5_000 + "%%\nThe ferry leaves at six.\n"
    assert visible(huge_comment, 0, 0, len(huge_comment)).strip() == "The ferry leaves at six."


def test_an_embedded_file_shows_its_name_without_its_size() -> None:
    assert readable("![[photo.jpg|300]]\n") == "(embedded photo.jpg)"
    assert readable("![[Bay.png|The bay at dawn|300]]") == "The bay at dawn"  # alt text is a label
    assert readable("![[Contract.pdf#page=3]]") == "(embedded Contract.pdf)"
    assert readable("![Sunset|300](https://example.com/sunset.jpg)") == "Sunset"
    assert readable("Version ![[v1.2]] notes") == "Version v1.2 notes"  # a note's name, not a file's extension


def test_a_markdown_link_with_parentheses_spaces_or_a_title_in_its_address_shows_its_text() -> None:
    # A trial on a campaign vault: "Home to [Hot-dog (Nothic)](Hot-dog%20(Nothic).md)." was shown as written.
    assert readable("Home to [Hot-dog (Nothic)](Hot-dog%20(Nothic).md).") == "Home to Hot-dog (Nothic)."
    assert readable("See [the map](<maps/Phandalin map.md>) and [rules](https://example.com/rules \"Rules\").") == (
        "See the map and rules.")
    assert readable("![Phandalin](<[assets]/phandalin map.png>)") == "Phandalin"
    assert readable("A note (see [Seamus](Seamus.md)) and [brackets] (not a link).") == (
        "A note (see Seamus) and [brackets] (not a link).")


def test_a_link_to_a_heading_reads_note_then_heading() -> None:
    assert readable("![[Architecture#Data flow]]\n") == "Architecture > Data flow"
    assert readable("See [[Architecture#Storage#SQLite]] and [[Runbook#^step-3]].") == (
        "See Architecture > Storage > SQLite and Runbook.")
    assert readable("See [[Architecture#Data flow|the diagram]] and [[#Risks]].") == "See the diagram and Risks."


def test_footnote_references_are_dropped_and_a_definition_shows_its_text() -> None:
    text = "The release is on Friday.[^1] Rui agreed[^rui-note].\n\n[^1]: After the freeze.\n[^rui-note]: In the standup.\n"
    assert readable(text) == "The release is on Friday. Rui agreed. After the freeze. In the standup."


def test_a_callout_title_is_a_block_of_its_own() -> None:
    assert readable("> [!warning] Rollbacks are manual\n> There is no automatic rollback.\n") == (
        "Rollbacks are manual · There is no automatic rollback.")
    assert readable("> [!tip]- Ask Rui\n> He knows.\n\n> [!note]\n> Untitled callout.\n") == "Ask Rui · He knows. Untitled callout."


def test_a_docs_sites_admonitions_and_tabs_read_as_their_titles() -> None:
    """Was (a trial on an MkDocs folder): hits read `!!! danger "Lose the passphrase, lose the
    data" · There is no recovery…` and `=== "Windows" · winget install…`, the markup as written."""
    admonition = ('Run init.\n\n!!! danger "Lose the passphrase, lose the data"\n\n'
                  '    There is no recovery.\n\n??? tip\n    Export a key.\n\n???+ note ""\n    Untitled.\n')
    assert readable(admonition) == "Run init. Lose the passphrase, lose the data · There is no recovery. Tip · Export a key. Untitled."
    tabs = '=== "Homebrew"\n\n    ```sh\n    brew install tw\n    ```\n\n=== "Windows"\n\n    winget install tw\n'
    assert readable(tabs) == "Homebrew · brew install tw · Windows · winget install tw"


def test_fenced_divs_snippet_includes_and_attribute_lists_are_not_shown() -> None:
    """Quarto's and Pandoc's `::: {.callout-note}` … `:::`, Docusaurus' `:::tip[Title]`, MkDocs'
    `--8<-- "file.md"` and a lone `{ .annotate }` were shown as written in a hit."""
    quarto = "::: {.callout-note}\nRuns on 0.19.\n:::\n\n::: {.callout-warning collapse=\"true\"}\n## VM images\nUse a small chunker.\n:::\n"
    assert readable(quarto) == "Runs on 0.19. VM images · Use a small chunker."
    assert readable(":::tip[Pick at random]\nUse shuf.\n:::\n\n:::info Heads up\nSlow.\n:::\n") == (
        "Pick at random · Use shuf. Heads up · Slow.")
    assert readable('# Contributing\n\n--8<-- "snippets/abbreviations.md"\n\nPRs welcome.\n{ .annotate }\n') == (
        "Contributing · PRs welcome.")


def test_a_links_or_images_attribute_block_is_not_shown() -> None:
    """Was: `![Restore time per class](restore.png){#fig-restore width=80%}` read "Restore time
    per class{#fig-restore width=80%}", an MkDocs button "Source code{ .md-button }"."""
    text = "![Restore time per class](restore.png){#fig-restore width=80%}\n\nSee [Source code](https://x.org){ .md-button }."
    assert readable(text) == "Restore time per class · See Source code."
    assert readable("[a](b) {not attributes} and [c](d){x}") == "a {not attributes} and c{x}"


def test_a_jupyter_book_pages_roles_targets_and_directive_options_are_not_shown() -> None:
    """Was (a trial on a Jupyter Book page): "see {ref}sec-argo … :class: tip · Below 2000 m…" —
    MyST's role names, its `(label)=` targets and its directives' options, shown as written;
    an admonition directive's title was left out."""
    page = ("(sec-ohc)=\n## Measuring heat content\n\nArgo floats dive to 2000 m; see {ref}`sec-argo`.\n\n"
            "```{admonition} Why 2000 m?\n:class: tip\nDeeper hulls would be heavier.\n```\n\n"
            "```{code-cell} ipython3\n:tags: [hide-input]\nimport numpy as np\n```\n")
    assert readable(page) == ("Measuring heat content · Argo floats dive to 2000 m; see sec-argo. Why 2000 m? "
                              "Deeper hulls would be heavier. import numpy as np")
    # Outside a directive, such lines are what they are: code as written, a set before a space.
    assert readable("```python\n:not: an option\n```\n\nA set {x} before `code` here.") == (
        ":not: an option · A set {x} before code here.")


def test_prose_that_starts_like_site_markup_is_shown_as_written() -> None:
    assert readable("!!! urgent: call the plumber today\n") == "!!! urgent: call the plumber today"
    assert readable('=== "quoted" and more\n\n:: two colons\n\n{not attributes}\n') == (
        '=== "quoted" and more · :: two colons · {not attributes}')


def test_a_line_after_an_empty_myst_directive_is_shown_though_it_looks_like_an_option() -> None:
    """Review (s34): after ```{note} closed with no line inside, a directive's options were still
    being skipped, so the person's next line, ":smile: great day", was not shown at all."""
    assert readable("```{note}\n```\n:smile: great day\n") == ":smile: great day"


def test_a_line_of_prose_opening_with_exclamation_marks_is_shown_whole_not_as_an_admonitions_first_word() -> None:
    """Was (review, s34): "!!! pay the plumber before Friday" in a person's note was read as an MkDocs
    admonition of type "pay" and shown as "Pay": the hit for "plumber" did not show the word. An
    admonition line holds its type, then a quoted title, or the words MkDocs places it by (inline end)."""
    assert readable("!!! pay the plumber before Friday\n") == "!!! pay the plumber before Friday"
    assert readable("??? what happened to the keys\n") == "??? what happened to the keys"
    assert readable('!!! note inline end\n    Beside the text.\n') == "Note · Beside the text."
    assert readable('!!! danger highlight blink "Don\'t try this at home"\n    Really.\n') == (
        "Don't try this at home · Really.")


# ---------------------------------------------------------------- math (a trial on a math vault)


def test_subscripts_in_inline_and_display_math_are_not_read_as_emphasis() -> None:
    text = "Then for all $f \\in L^{p}, g\\in L^{q}$: $$\\int|fg|d\\mu\\leq ||f||_{p}||g||_{q} $$ and _this_ is *it*."
    assert readable(text) == (  # was ||f||{p}||g||{q}: the two underscores read as one emphasis
        "Then for all $f \\in L^{p}, g\\in L^{q}$: $$\\int|fg|d\\mu\\leq ||f||_{p}||g||_{q} $$ and this is it.")
    assert readable("a function $u \\in L^1_{loc}(\\Omega)$ has $v \\in L^{1}_{loc}(\\Omega)$") == (
        "a function $u \\in L^1_{loc}(\\Omega)$ has $v \\in L^{1}_{loc}(\\Omega)$")


def test_a_display_math_line_is_no_list_item_heading_or_rule() -> None:
    text = "then\n$$\n\\mathcal E(u,v)\n=\n\\mathcal E^{(c)}(u,v)\n+\n\\int_X u v\\,dK,\n- x\n# y\n---\n$$\nwhere"
    assert readable(text) == (  # the `+` line was a list item: "E^{(c)}(u,v) · \\int_X…"
        "then $$ \\mathcal E(u,v) = \\mathcal E^{(c)}(u,v) + \\int_X u v\\,dK, - x # y --- $$ where")


def test_math_in_a_callout_keeps_its_lines_and_the_callout_its_markup() -> None:
    text = "> [!theorem] Fatou\n> $$\n> + f_n\n> $$\n> for _every_ $n_k$\n"
    assert readable(text) == "Fatou · $$ + f_n $$ for every $n_k$"


def test_dollars_that_are_no_math_leave_the_markup_rules_as_they_were() -> None:
    assert readable("It costs $5 and _only_ $10 now.") == "It costs $5 and only $10 now."
    assert readable("A \\$ sign, `$x_y$` in code, and _emphasis_.") == "A \\$ sign, $x_y$ in code, and emphasis."


def test_an_excerpt_does_not_begin_or_end_inside_a_formula() -> None:
    lead = "word " * 40
    formula = "$$\\int_{\\Omega}|u|^{2}\\leq \\frac{1}{\\lambda_{1}}\\int_{\\Omega}|\\nabla u|^{2},$$"
    text = lead + formula + " where $\\lambda_{1}$ is the first Dirichlet eigenvalue of the Laplacian " + "tail " * 60
    excerpt = excerpt_of(text, [], "", "Dirichlet eigenvalue")
    assert excerpt.startswith("…" + formula)  # was "…_{\\Omega}|u|^{2}\\leq …": cut inside the formula
    ending = lead + "the eigenvalue is " + "x " * 84 + "$\\lambda_{1} = \\inf_{u} \\mathcal E(u)$ and more " + "y " * 80
    cut = excerpt_of(ending, [], "", "eigenvalue")
    assert "$\\lambda_{1} = \\inf_{u} \\mathcal E(u)$" in cut  # its end ran on to the formula's close


def test_a_hit_on_a_math_note_shows_its_formula_as_written(tmp_path: Path) -> None:
    write_file(tmp_path, "Real analysis/Hölder's inequality.md", (
        "\n# Theorem: Hölder's inequality\n\n**Type:** #theorem  \n\n## Statement\n"
        "- Then for all $f \\in L^{p}, g\\in L^{q}$: $$\\int|fg|d\\mu\\leq ||f||_{p}||g||_{q} $$\n"
        "- i.e., the integral of a product is bounded by the product of the [[Norm]] of $g$ and of $f$\n"
    ))
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        snippet = hit_on(vault, "Hölder inequality integral of a product", "Real analysis/Hölder's inequality.md", k=1)
    assert "||f||_{p}||g||_{q}" in snippet


def test_a_note_read_as_reading_view_shows_it(tmp_path: Path, wordllama: object) -> None:
    """The trial's note, through a real index and search: no tag, comment, size, footnote mark
    or run-on callout title reaches the snippet."""
    write_file(tmp_path, "Ops/Maintenance.md", (
        "# Maintenance\n\n"
        '<div class="callout-box"> <p>Maintenance window is <b>Tuesday 06:00–07:00 UTC</b>.</p> </div>\n\n'
        "%% owner: ask Rui before changing this %%\n"
        "![[rack-photo.jpg|300]]\n\n"
        "> [!warning] Rollbacks are manual\n> There is no automatic rollback.[^1]\n\n"
        "See ![[Architecture#Data flow]].\n<!-- TODO: add the pager number -->\n\n"
        "[^1]: Decided in the March review.\n"
    ))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        snippet = hit_on(vault, "maintenance window rollback", "Ops/Maintenance.md", k=1)
    assert snippet == ("Maintenance · Maintenance window is Tuesday 06:00–07:00 UTC. Rollbacks are manual · "
                       "There is no automatic rollback. See Architecture > Data flow. Decided in the March review.")


# ---------------------------------------------------------------- which properties an empty note shows


def test_an_empty_note_shows_the_property_a_question_asks_about(kepano: Vault) -> None:
    # "directed" finds the `director` property; the cover's address is not what was asked.
    assert hit_on(kepano, "who directed Blade Runner", "References/Blade Runner.md") == "director: Ridley Scott"


def test_property_values_that_are_only_addresses_are_shown_after_the_others(kepano: Vault) -> None:
    # Was "categories: Movies · cover: https://m.media-amazon.com/images/M/MV5BNz…SX300.jpg · genre: Sci-fi".
    assert hit_on(kepano, "Blade Runner", "References/Blade Runner.md") == "categories: Movies · genre: Sci-fi · director: Ridley Scott"
    assert excerpt_of("", ["cover: https://example.com/a.jpg", "links: https://a.example, obsidian://open?vault=x"],
                      "Title", "nothing") == "cover: https://example.com/a.jpg · links: https://a.example, obsidian://open?vault=x"


def test_a_query_word_finds_its_agent_noun_but_not_other_words() -> None:
    pattern = query_pattern("who directed it")
    assert pattern is not None
    assert pattern.search("director: Ridley Scott")
    assert pattern.search("two directors")
    assert pattern.search("directory listing") is None
    assert query_pattern("species").search("special offer") is None  # type: ignore[union-attr]


def test_the_section_shown_is_the_one_holding_most_of_the_query_not_the_first_word(tmp_path: Path) -> None:
    # A review: cut to the section of the first query word, "Lena birthday" showed "Lena called
    # about the car" and hid the birthday the agent asked for.
    write_file(tmp_path, "diary.md", "## Calls\nLena called about the car.\n\n## Birthdays\nLena birthday: May 4, she wants a kite.\n")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        [hit] = vault.search("Lena birthday", k=1, now=NOW)
        [car] = vault.search("Lena car", k=1, now=NOW)
    assert hit.passage is not None and (hit.passage.headings, hit.passage.lines) == (["Birthdays"], [4, 5])
    assert hit.snippet == "Birthdays · Lena birthday: May 4, she wants a kite.", hit.snippet
    assert car.passage is not None and car.passage.headings == ["Calls"] and "May 4" not in car.snippet


def test_a_section_holds_the_query_words_of_the_headings_above_it_and_a_bare_title_line_is_not_shown(tmp_path: Path) -> None:
    # A trial on a German vault: "Tagesnotiz Kalender" showed only "Tagesnotiz 05.09.2026", the
    # note's bare title line, over the section under it that held "Kalender".
    write_file(tmp_path, "05 Journal/2026-09-05.md",
               "# Tagesnotiz 05.09.2026\n\n## Was heute passiert ist\n\n**Kalender eingerichtet**\n"
               "- Google Kalender mit Claude verbunden\n\n## Offene Punkte\n- Schichtplan einpflegen\n")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        [both] = vault.search("Tagesnotiz Kalender", k=1, now=NOW)
        [title] = vault.search("Tagesnotiz", k=1, now=NOW)
    assert both.passage is not None
    assert (both.passage.headings, both.passage.lines) == (["Tagesnotiz 05.09.2026", "Was heute passiert ist"], [3, 6])
    assert both.snippet.startswith("Was heute passiert ist · Kalender eingerichtet"), both.snippet
    assert "Kalender" in title.snippet, title.snippet  # the title's word alone: the note from its start, not its title line


def test_a_chinese_question_sharing_a_pair_with_the_title_shows_the_section_that_answers_it(tmp_path: Path) -> None:
    # A trial on a Chinese vault: "定长和变长的区别" ("fixed vs variable length: the difference")
    # found `VARCHAR 和 CHAR 的区别.md` and showed its `# Reference` links: the question is one run
    # of characters, and its 区别 is in the title, so the whole run was taken for the note's name and
    # the section with the most words was shown. The run asks about the pairs the title lacks.
    write_file(tmp_path, "mysql/VARCHAR 和 CHAR 的区别.md",
               "---\ntitle: VARCHAR 和 CHAR 的区别\n---\nCHAR 是定长，不足会用空格补齐；VARCHAR 是变长，额外用 1～2 个字节记录长度。\n\n"
               "# Reference\n* [MySQL :: MySQL 8.4 Reference Manual :: 13.3.2 The CHAR and VARCHAR Types](https://dev.mysql.com/doc/refman/8.4/en/char.html)\n")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        [hit] = vault.search("定长和变长的区别", k=1, now=NOW)
        [named] = vault.search("VARCHAR 和 CHAR 的区别", k=1, now=NOW)
    assert hit.snippet.startswith("CHAR 是定长"), hit.snippet
    assert hit.passage is not None and hit.passage.lines == [4, 4]
    # A query that only names the note shows the section saying the most: each Chinese character
    # counts as a word (the clause counted as four against the English link line's fifteen).
    assert "定长" in named.snippet, named.snippet


def test_a_query_that_only_names_a_daily_note_shows_what_the_day_says_not_its_navigation_line(tmp_path: Path) -> None:
    # A trial on a public Obsidian journal: "what did I do on 2023-02-23" found that day's note
    # and showed "Yesterday <== 2023-02-23 ==>Tomorrow", the template's navigation line, the
    # first to hold the day, over its `# Journaling` section, which told of the dentist.
    write_file(tmp_path, "Journal/2023-02-23.md",
               "---\ntype: daily\nmood: relaxed\n---\n\n"
               "[[Journal/2023-02-22|Yesterday]] <== [[2023-02-23]] ==>[[Journal/2023-02-24|Tomorrow]]\n\n\n"
               "# Tasks for the Day\n\nfill by hand\n\n\n# Queried Tasks Due Today\n\n"
               "```dataviewjs\ndv.taskList(\n  dv.pages().file.tasks\n  .where(t => t.text.includes(\"2023-02-23\"))\n)\n```\n\n\n"
               "# Journaling\nwas at the dentist to get a tough tooth removed. Cant do any sports now.\n")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        [day] = vault.search("what did I do on 2023-02-23", k=1, now=NOW)
        [month_day] = vault.search("what happened on February 23", k=1, now=NOW)
        [topic] = vault.search("dentist tooth", k=1, now=NOW)
    for hit in (day, month_day, topic):
        assert hit.passage is not None and hit.passage.headings == ["Journaling"], (hit.passage, hit.snippet)
        assert hit.snippet.startswith("Journaling · was at the dentist"), hit.snippet


def test_the_cli_shows_a_hits_headings_as_they_read_and_json_as_written(tmp_path: Path) -> None:
    # A trial on a German journal: `lines 12–25 · [[2023-10-12-Donnerstag|10-12 Donnerstag]]`
    # beside a snippet that read "10-12 Donnerstag".
    write_file(tmp_path, ".vaultmem.toml", 'embedder = "hashing"\n')
    write_file(tmp_path, "journal/2023-10-12-Donnerstag.md",
               "# [[2023-10-12-Donnerstag|10-12 Donnerstag]]\n\nOKD bootstrap debugged on **pve-01**.\n")
    shown = run_cli(tmp_path, "search", "OKD bootstrap", "-k", "1")
    assert shown.exit_code == 0, shown.output
    assert "score 0.61 (both) · lines 1–3 · 10-12 Donnerstag\n" in shown.stdout, shown.stdout
    data = run_json(tmp_path, "search", "OKD bootstrap", "-k", "1")
    assert isinstance(data, list)
    assert data[0]["passage"]["headings"] == ["[[2023-10-12-Donnerstag|10-12 Donnerstag]]"]


def test_the_cli_cuts_a_paragraph_long_heading_in_a_hits_place_line_and_json_keeps_it_whole(tmp_path: Path) -> None:
    # An agent's memory export (b-hornsby/obsidian-vault, hermes-memories/2026-05-19.md) heads each
    # entry with its whole paragraph: the place line printed its 700 characters above the snippet
    # that said them again.
    entry = ("1. User wants to use Twitter (X) as a source for understanding their personality — taste, humor, "
             "typing style, meme preferences, interaction patterns. Goal: have me study their Twitter profile "
             "and write a personality profile in the vault.")
    write_file(tmp_path, ".vaultmem.toml", 'embedder = "hashing"\n')
    write_file(tmp_path, "hermes-memories/2026-05-19.md",
               f"# Hermes Memory Export — 2026-05-19\n\n## Memory Entries\n\n### {entry}\n")
    shown = run_cli(tmp_path, "search", "Twitter personality profile", "-k", "1")
    assert shown.exit_code == 0, shown.output
    place = next(line for line in shown.stdout.splitlines() if line.lstrip().startswith("score "))
    assert place.endswith(" · Hermes Memory Export — 2026-05-19 > Memory Entries > "
                          "1. User wants to use Twitter (X) as a source for understanding their personalit…"), place
    data = run_json(tmp_path, "search", "Twitter personality profile", "-k", "1")
    assert isinstance(data, list)
    assert data[0]["passage"]["headings"][-1] == entry


def test_notes_that_are_bases_show_their_text_or_what_they_embed_never_a_bare_file_name(tmp_path: Path, wordllama: object) -> None:
    """kepano's category and daily notes, copied into a small vault: each hit showed "Daily.base"
    or "Evergreen.base" as if the note said it."""
    kepano = REAL_VAULTS / "kepano-obsidian"
    for relative in ("Categories/Evergreen.md", "Categories/Trips.md", "Daily/2023-09-12.md", "References/Kyoto.md"):
        write_file(tmp_path, relative, (kepano / relative).read_text(encoding="utf-8"))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        evergreen = hit_on(vault, "evergreen", "Categories/Evergreen.md")
        assert evergreen.startswith("An evergreen note is an idea.")
        assert evergreen.endswith("every idiom is a kind of evergreen idea.")  # was "… evergreen idea. Evergreen.base"
        assert hit_on(vault, "daily notes", "Daily/2023-09-12.md") == "Notes · (embedded Daily.base)"  # was "Notes · Daily.base"
        assert hit_on(vault, "trips", "Categories/Trips.md") == "(embedded Trips.base)"  # was "Trips.base"
        assert hit_on(vault, "trips", "References/Kyoto.md") == "Trips · (embedded Trips.base)"


# ---------------------------------------------------------------- a huge note: cost of the passage, same snippet


HUGE_LOG_LINES = 110_000  # "filler line of the pasted log\n": about 3.3 MB (HIDDEN_SCAN_CHARS is 4 MB)


def _fence_opened_far_above(newline: str = "\n") -> str:
    """A pasted log: a code block opened more than 3 MB above the passage that shows its end."""
    text = ("---\ntitle: Log\n---\n# Log\n\nintro text\n\n```text\n" + "filler line of the pasted log\n" * HUGE_LOG_LINES
            + "%% zebra in the code\n## zebra heading in the code\n```\n\nafter the code\n")
    return text.replace("\n", newline)


def _comment_across_the_passage_start() -> str:
    """A ``%%`` comment of a megabyte, closing inside the passage."""
    return "Intro.\n\n%%\n" + "private draft line\n" * 60_000 + "private zebra\n%%\nzebra public line\n"


def _line_of(text: str, line: str) -> int:
    return text.replace("\r\n", "\n").split("\n").index(line) + 1


def test_a_passage_inside_a_fence_opened_megabytes_above_reads_as_code(tmp_path: Path) -> None:
    text = _fence_opened_far_above()
    write_file(tmp_path, "Log.md", text)
    first = _line_of(text, "%% zebra in the code")
    snippet = passage_snippet(tmp_path, "Log.md", PassageRow(1, 1, 9, ("Log",), first, first + 1), "zebra", "Log")
    assert snippet.text == "%% zebra in the code · ## zebra heading in the code"  # not hidden, not a heading


def test_a_comment_open_at_the_passage_start_hides_its_part_of_the_passage(tmp_path: Path) -> None:
    text = _comment_across_the_passage_start()
    write_file(tmp_path, "Draft.md", text)
    first = _line_of(text, "private zebra")
    snippet = passage_snippet(tmp_path, "Draft.md", PassageRow(1, 1, 9, (), first, first + 2), "zebra", "Draft")
    assert snippet.text == "zebra public line"


def test_crlf_and_utf16_huge_notes_show_the_snippets_their_lf_utf8_text_does(tmp_path: Path) -> None:
    fenced = _fence_opened_far_above("\r\n")
    (tmp_path / "Log.md").write_bytes(fenced.encode("utf-8"))
    first = _line_of(fenced, "%% zebra in the code")
    in_code = passage_snippet(tmp_path, "Log.md", PassageRow(1, 1, 9, ("Log",), first, first + 1), "zebra", "Log")
    commented = _comment_across_the_passage_start()
    (tmp_path / "Draft.md").write_bytes(b"\xff\xfe" + commented.replace("\n", "\r\n").encode("utf-16-le"))
    first = _line_of(commented, "private zebra")
    hidden = passage_snippet(tmp_path, "Draft.md", PassageRow(1, 1, 9, (), first, first + 2), "zebra", "Draft")
    assert (in_code.text, hidden.text) == ("%% zebra in the code · ## zebra heading in the code", "zebra public line")


def test_a_snippet_after_a_fence_closed_megabytes_below_its_opening_reads_the_text_after_it(tmp_path: Path) -> None:
    """A pasted log: the passage after a fence that spans megabytes is text, not code, now that
    only the fence and comment lines above it are read (its cost is measured, not asserted:
    benchmarks/PASSAGES.md §15)."""
    text = _fence_opened_far_above()
    write_file(tmp_path, "Log.md", text)
    first = _line_of(text, "after the code")
    row = PassageRow(1, 1, 9, ("Log",), first, first)
    assert passage_snippet(tmp_path, "Log.md", row, "code", "Log").text == "after the code"


def _whole_markup_marks(text: str, body_start: int, start: int, end: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The marks snippets read around a passage as they were found before a huge note was read
    by its fence and comment lines only: every line of the context parsed (code_ranges)."""
    context_start = start if end - body_start > HIDDEN_SCAN_CHARS else body_start
    context_end = min(len(text), end + SECTION_SCAN_CHARS)
    context = text[context_start:context_end]
    code = code_ranges(context)
    hidden = merged_ranges([*hidden_ranges(context, code), *query_block_ranges(context, code)])
    return ([(first + context_start, last + context_start) for first, last in code],
            [(first + context_start, last + context_start) for first, last in hidden])


_TRICKY_BLOCKS = (
    "Plain words about the deploy table.\n", "## Heading zebra\n", "- item `code zebra` and `%%` in a span\n",
    "```sh\nzebra run\n%% not a comment\n## not a heading\n```\n", "~~~~\nzebra\n~~~\nstill code\n~~~~~\n",
    "- ```python\n  zebra = 1\n  ```\n", "> ```\n> zebra quoted code\n> ```\n", "```js `bad info`\nzebra\n",
    "%% hidden zebra\nstill hidden %%\n", "shown %% inline zebra %% shown\n", "<!--\nzebra in html\n-->\n",
    "a <!-- inline zebra --> b\n", "- item <!-- in item\n  zebra\n- next item\n", "> quote <!-- zebra\n> more\n\n",
    "<script>\nvar zebra = 1;\n</script>\n", "```dataview\nTABLE zebra\n```\n",
    "%%\n# Drawing\n```json\n{\"zebra\": 1}\n```\n%%\n", "```\n", "%%\n", "`` zebra ``` x ``\n", "\n",
)


def _tricky_note(newline: str, blocks: int = 1_500) -> str:
    chooser = random.Random(11)
    text = "---\ntitle: T\n---\n" + "".join(chooser.choice(_TRICKY_BLOCKS) + "\n" for _ in range(blocks))
    return text.replace("\n", newline)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_fence_and_comment_lines_alone_give_the_blocks_and_comments_of_a_line_by_line_parse(newline: str) -> None:
    text = _tricky_note(newline)
    code = code_ranges(text)
    blocks = fenced_blocks(text)
    hidden = hidden_ranges(text, code)
    assert blocks == [(start, end) for start, end in code if "\n" in text[start:end]]
    assert len(blocks) > 100
    assert hidden_ranges_by_blocks(text, blocks) == hidden
    assert len(hidden) > 100
    assert query_block_ranges(text, blocks, data_holders(text, hidden)) == query_block_ranges(text)
    lines = text.split("\n")
    for first in (1, 2, 700, len(lines) - 1, len(lines), len(lines) + 3):  # counted a chunk at a time: the same lines
        start = sum(len(line) + 1 for line in lines[: first - 1])
        expected = (start, start + len(lines[first - 1])) if first <= len(lines) else (len(text), len(text))
        assert line_span(text, first, first) == expected, first


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_marks_read_from_fence_and_comment_lines_are_those_of_every_line(newline: str) -> None:
    """Each passage of a note of every kind of code block and comment, stray fences and ``%%``
    included, reads as it did with the whole of its context parsed line by line."""
    text = _tricky_note(newline)
    body_start = text.index("---", 3) + 4 + (newline == "\r\n")
    lines = text.count("\n") + 1
    compared = 0
    for first in range(5, lines, 7):
        start, end = line_span(text, first, min(lines, first + first % 13))
        expected = _whole_markup_marks(text, body_start, start, end)
        assert visible(text, body_start, start, end) == visible(text, body_start, start, end, expected), first
        last = min(lines, first + 40)
        row, whole = PassageRow(1, 1, 0, (), first, last), _whole_markup_marks(text, body_start, *line_span(text, first, last))
        assert section_of(text, body_start, row, "zebra") == section_of(text, body_start, row, "zebra", whole), first
        compared += 1
    assert compared > 500


# ------------------------------------------------------------------ book highlights: the author names the note

HIGHLIGHT_TOPICS = (
    "Clean your room before you try to reorganise the world, and start with what is in front of you today.",
    "Compare yourself to who you were yesterday, not to who someone else is today, and measure honestly.",
    "Make friends with people who want the best for you, and who will tell you when you drift off course.",
    "Pet a cat when you encounter one on the street, since small pleasures carry a person through hard days.",
    "Tell the truth, or at least do not lie, because every falsehood bends the world a little out of shape.",
    "Assume that the person you are listening to might know something that you do not, and ask them.",
    "Be precise in your speech: name the problem exactly, so that it can be solved and not merely endured.",
    "Do not bother children when they are skateboarding; they optimise danger, they do not avoid it.",
    "Set your house in perfect order before you criticise the arrangements of your neighbours or your city.",
    "So, attend carefully to your posture. Quit drooping and hunching around. Stand up straight with your shoulders back.",
    "Pursue what is meaningful, not what is expedient, and accept the burden that such an aim brings.",
    "Treat yourself like someone you are responsible for helping, as you would care for a friend or a patient.",
)


def kindle_note(author: str, title: str, highlights: tuple[str, ...]) -> str:
    """A note as the Kindle Highlights plugin writes one: its ``kindle-sync`` block, a metadata
    table naming the author, then one ``## Highlight`` section per highlight with its location link."""
    sections = "".join(
        f"## Highlight\n\n{text} ^ref-{1000 + number}\n- Location: [{100 * number}](kindle://book?action=open&asin=B01FPGY5T0"
        f"&location={100 * number})\n\n---\n"
        for number, text in enumerate(highlights, start=1)
    )
    return (
        f"---\nkindle-sync:\n  bookId: '41140'\n  title: >-\n    {title}:\n    An Antidote\n  author: {author}\n"
        f"  asin: B01FPGY5T0\n  bookImageUrl: 'https://m.media-amazon.com/images/I/71KBsWtC6RL._SY160.jpg'\n"
        f"  highlightsCount: {len(highlights)}\n---\n# {title}\n\n## Metadata\n\n| Syntax | Description |\n"
        f"| ---------- | ---------- |\n| **Title** | [{title}](https://www.amazon.com/dp/B01FPGY5T0) |\n"
        f"| **Author** | [{author}](https://www.amazon.com/author) |\n| **Tags** | #Kindle #books |\n\n---\n\n{sections}"
    )


def test_an_author_and_a_topic_show_the_highlight_not_the_metadata_table(tmp_path: Path, wordllama: object) -> None:
    """"Jordan Peterson on posture": the author's name is in the note's properties and in its
    metadata table, so both sides picked the table, and the snippet never said posture (a trial
    with a Kindle highlights vault, 9 of 12 such questions). The name says which note; the
    other words say which passage."""
    write_file(tmp_path, "Books/12 Rules for Life.md", kindle_note("Jordan B. Peterson", "12 Rules for Life", HIGHLIGHT_TOPICS))
    write_file(tmp_path, "Books/Walden.md", kindle_note("Henry David Thoreau", "Walden", (
        "The mass of men lead lives of quiet desperation.", "It is never too late to give up our prejudices.")))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        [hit, *_] = vault.search("Jordan Peterson on posture", k=3, now=NOW)
        assert hit.path == "Books/12 Rules for Life.md"
        assert "posture" in hit.snippet
        assert "Description" not in hit.snippet
        assert hit.passage is not None
        assert hit.passage.headings[-1] == "Highlight"
        [asked_with_a_verb, *_] = vault.search("what did Thoreau say about prejudices", k=3, now=NOW)
        assert "prejudices" in asked_with_a_verb.snippet
        [named_only, *_] = vault.search("Jordan Peterson", k=3, now=NOW)
        assert "Jordan B. Peterson" in named_only.snippet  # nothing else asked: the name is what it shows


def readwise_note(author: str, title: str, asin: str, highlights: tuple[str, ...]) -> str:
    """A note as the Readwise Official plugin's default template writes one: the author and
    title in a ``## Metadata`` list in the body (no frontmatter), then ``## Highlights``, each
    ending with its Kindle location link."""
    lines = "".join(f"- {text} ([Location {100 * number}](https://readwise.io/to_kindle?action=open&asin={asin}"
                    f"&location={100 * number}))\n" for number, text in enumerate(highlights, start=1))
    return (f"# {title}\n\n![rw-book-cover](https://images-na.ssl-images-amazon.com/images/I/51gxJGlHZjL._SL200_.jpg)\n\n"
            f"## Metadata\n- Author: [[{author}]]\n- Full Title: {title}\n- Category: #books\n\n## Highlights\n{lines}")


def test_an_author_in_a_readwise_metadata_list_and_a_topic_show_the_highlight(tmp_path: Path, wordllama: object) -> None:
    """Readwise writes the author in the body (``- Author: [[Jordan B. Peterson]]``), not as a
    property: "what did Peterson say about posture" showed the ``## Metadata`` list, never the
    highlight (a trial on a Readwise vault: "what did Kendi say about denial"). A metadata list
    names the note as properties do; "read" asks, as "say" does."""
    write_file(tmp_path, "Readwise/Books/12 Rules for Life.md",
               readwise_note("Jordan B. Peterson", "12 Rules for Life", "B0797YBP7N",
                             (*HIGHLIGHT_TOPICS, "Read something every day that unsettles what you think you know.")))
    write_file(tmp_path, "Readwise/Books/Walden.md", readwise_note("Henry David Thoreau", "Walden", "B00HUEJ0QA", (
        "The mass of men lead lives of quiet desperation.", "It is never too late to give up our prejudices.")))
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        [hit, *_] = vault.search("what did Peterson say about posture", k=3, now=NOW)
        assert hit.path == "Readwise/Books/12 Rules for Life.md"
        assert "posture" in hit.snippet and "Full Title" not in hit.snippet
        assert hit.passage is not None and hit.passage.headings[-1] == "Highlights"
        [named_only, *_] = vault.search("Jordan Peterson", k=3, now=NOW)
        assert "Author: Jordan B. Peterson" in named_only.snippet  # nothing else asked: the name is what it shows
        [read_by, *_] = vault.search("what have I read by Jordan Peterson", k=3, now=NOW)
        assert "Author: Jordan B. Peterson" in read_by.snippet  # not the highlight that says "Read"


def test_metadata_lines_are_a_run_of_key_value_lines_never_a_highlights_note_or_tags() -> None:
    from vaultmem.fields import metadata_lines

    note = readwise_note("Ibram X. Kendi", "How to Be an Antiracist", "B07D2364N5", ("Denial is the heartbeat of racism.",))
    assert metadata_lines(note) == "- Author: [[Ibram X. Kendi]]\n- Full Title: How to Be an Antiracist\n- Category: #books"
    highlight = ("- Weird = 100 ([View Highlight](https://read.readwise.io/read/01hcee5x))\n"
                 "    - Tags: [[ai]] \n    - Note: Weirdness parameter on mid journey\n")
    assert metadata_lines(highlight) == ""  # the reader's own lines under a highlight
    assert metadata_lines("> [!info] Book\n> - **Author:** [[Seth Godin]]\n> - **Full Title:** The Practice\n") != ""
    assert metadata_lines("- Principle of Similar Cases: treat them the same.\n") == ""  # one line is no list


def test_section_choice_counts_words_naming_the_note_last() -> None:
    """Inside one passage (a short note is one), the section holding the topic wins over the one
    holding the note's name twice; with no naming text the old count decides."""
    text = kindle_note("Ryan Holiday", "Ego Is the Enemy", (
        "Every day the dust comes back. Every day we must sweep the floor.",))
    body_start = text.index("# Ego")
    passage = PassageRow(label=1, note_label=1, number=0, headings=(), start_line=text.count("\n", 0, body_start) + 1,
                         end_line=text.count("\n"))
    naming = "Ego Is the Enemy\nkindle-sync: author: Ryan Holiday"
    with_name = section_of(text, body_start, passage, "what did Ryan Holiday say about sweeping", naming=naming)
    assert with_name is not None
    assert with_name[0][-1] == "Highlight"
    without = section_of(text, body_start, passage, "what did Ryan Holiday say about sweeping")
    assert without is not None
    assert without[0][-1] == "Metadata"  # two words against one, as before


def test_a_nested_mapping_property_reads_as_its_keys_and_values() -> None:
    """The Kindle plugin's ``kindle-sync:`` block: quotes dropped, the folded title joined, the
    image address left out (it showed as ``bookId: '33351', title: >-, …, bookImageUrl: 'https://…'``)."""
    text = kindle_note("Jordan B. Peterson", "12 Rules for Life", ())
    yaml_text = text.split("---\n")[1]
    assert property_lines(yaml_text) == [
        "kindle-sync: bookId: 41140, title: 12 Rules for Life: An Antidote, author: Jordan B. Peterson, "
        "asin: B01FPGY5T0, highlightsCount: 0"
    ]
    assert property_lines("authors:\n  - family: Higgins\n    given: Irina\nabstract: >-\n  two\n  lines\n") == [
        "authors: family: Higgins, given: Irina", "abstract: two lines"]


DOCKER_DECK = (
    "#flashcards/docker\n\n"
    "What does a Dockerfile's FROM line set?::The base image every later layer builds on\n<!--SR:!2024-02-01,3,250-->\n\n"
    "Which kernel features isolate a container?::cgroups and namespaces\n<!--SR:!2024-02-03,5,270-->\n\n"
    "What happens to a container's writable layer when the container is removed?\n?\n"
    "It is deleted with it: only volumes and bind mounts outlive the container.\n<!--SR:!2024-02-04,6,250-->\n\n"
    "How do you copy a file out of a running container?:::docker cp CONTAINER:/path ./dest\n"
)


def test_a_flashcard_deck_s_snippet_shows_the_card_holding_most_of_the_question_s_words() -> None:
    # A trial: a deck is one passage, and its snippet was cut at the first card that said
    # "container" — the answer to "how do I copy a file out of a running container" was not in it.
    snippet = excerpt_of(DOCKER_DECK, [], "Docker", "how do I copy a file out of a running container")
    assert "How do you copy a file out of a running container?:::docker cp CONTAINER:/path ./dest" in snippet, snippet
    # one query word: cut a little before it, as before
    assert excerpt_of(DOCKER_DECK, [], "Docker", "cgroups").startswith("…set?::The base image every later layer")
    assert "Which kernel features isolate a container?::cgroups" in excerpt_of(DOCKER_DECK, [], "Docker", "kernel features")


def test_a_list_of_last_first_names_reads_as_its_items_not_twice_as_many() -> None:
    # Trial (s30, Zotero literature notes): `authors: ["Abeler, Johannes", "Falk, Armin"]` showed
    # as "Abeler, Johannes, Falk, Armin" — four authors, or two? Items holding a comma are joined by "; ".
    yaml_text = ('authors: ["Abeler, Johannes", "Falk, Armin"]\neditors:\n  - "Kőszegi, Botond"\n  - Rabin, Matthew\n'
                 "keywords: [loss-aversion, 'real effort']\nempty: []\n")
    assert property_lines(yaml_text) == [
        "authors: Abeler, Johannes; Falk, Armin", "editors: Kőszegi, Botond; Rabin, Matthew",
        "keywords: loss-aversion, real effort",
    ]


def test_a_title_that_is_not_the_notes_name_is_a_property_line_and_the_name_that_is_stays_out() -> None:
    # A person's note: `name: Matt Ober` names it, `title: Partner` is his job (notes.naming_key).
    person = "name: Matt Ober\ncompany: Social Leverage\ntitle: Partner\n"
    assert property_lines(person, "Matt Ober") == ["name: Matt Ober", "company: Social Leverage", "title: Partner"]
    assert property_lines("title: 'Matt Ober'\ncompany: X\n", "Matt Ober") == ["company: X"]  # the title names it


def test_a_block_id_on_a_line_of_its_own_is_markup_alone() -> None:
    """Obsidian puts the id of a callout, list or table on its own line below it; reading view
    never shows it (a trial on a math vault: "… contained in $A$. ^97b1eb · Closed Set")."""
    text = ("> [!definition]+ Open Set\n> A set $A$ is open if every point has a ball in $A$.\n\n^97b1eb\n\n"
            "> [!definition]+ Closed Set\n> Its complement is open.\n")
    assert readable(text) == "Open Set · A set $A$ is open if every point has a ball in $A$. Closed Set · Its complement is open."
    assert readable("$$\nx\n^2\n$$\n") == "$$ x ^2 $$"  # inside a formula it is math, shown as written


def test_a_chinese_snippet_starts_and_ends_at_a_clause_not_inside_a_word() -> None:
    # Before: the window started and ended at whichever character its width fell on, as a
    # Chinese text has no space to move to ("…地减少磁盘的访问次数", cut from "有效地"; a trial on a
    # Chinese vault). Now it moves to just after the nearest 。，；… within reach.
    clauses = ["磁盘可以说是计算机系统最慢的硬件之一", "读写速度相差内存十倍以上", "所以针对优化磁盘的技术非常多",
               "比如零拷贝和直接读写以及异步读写等等", "这些优化的目的就是为了提高系统的吞吐量", "另外操作系统内核中的磁盘高速缓存区",
               "可以有效地减少磁盘的访问次数", "读取磁盘数据的时候需要找到数据所在的位置", "对于机械磁盘来说就是通过磁头旋转到数据所在的扇区",
               "再开始顺序读取数据", "但是旋转磁头这个物理动作是非常耗时的", "为了降低它的影响页缓存使用了预读功能",
               "比如每次只会读三十二千字节", "但内核会把其后面的内容也读取到页缓存", "这样后面读取的成本就很低",
               "如果在淘汰之前进程读取到它了收益就非常大", "所以页缓存的优点主要是两个", "缓存最近被访问的数据以及预读功能",
               "这两个做法将大大提高读写磁盘的性能", "但是在传输大文件的时候页缓存会不起作用", "那就白白浪费了一次数据拷贝",
               "这是因为如果有很多大文件需要传输", "每当用户访问这些大文件的时候", "内核就会把它们载入页缓存中",
               "于是页缓存的空间很快被这些大文件占满", "由于文件太大可能某些部分被再次访问的概率比较低", "这样就会带来两个问题",
               "其他热点的小文件可能就无法充分使用到页缓存", "于是磁盘读写的性能就会下降了"]
    text = "，".join(clauses) + "。"
    snippet = window(text, query_pattern("预读功能"))
    assert snippet.startswith("…") and snippet.endswith("…")
    shown = snippet[1:-1]
    assert "预读功能" in shown
    assert text[text.index(shown) - 1] == "，", snippet  # opens a clause
    assert shown.endswith("，"), snippet  # closes one
    english = "The disk is the slowest part of the machine, " * 12
    assert window(english, query_pattern("slowest")) == window(english.replace("，", ","), query_pattern("slowest"))


def test_a_line_edited_between_two_searches_shows_its_new_words(tmp_path: Path, wordllama: object) -> None:
    """A snippet's lines are rendered once and remembered by their text (snippets._line): a line
    edited by hand is another text, shown by the very next search."""
    write_file(tmp_path, "Harbor.md", "---\nlayer: L3\n---\n- The **ferry** leaves at nine from pier four.\n")
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        assert hit_on(vault, "ferry pier", "Harbor.md", k=1) == "The ferry leaves at nine from pier four."
        write_file(tmp_path, "Harbor.md", "---\nlayer: L3\n---\n- The **ferry** leaves at ten from pier four.\n")
        assert hit_on(vault, "ferry pier", "Harbor.md", k=1) == "The ferry leaves at ten from pier four."


ROAM_DAILY = """- Met [[Alice Chen]] about [[Project Falcon]] budget
    - She wants the revised numbers by Friday ((f8K2pQ1xA))
    - {{[[TODO]]}} send Alice the revised Falcon budget spreadsheet
- {{[[DONE]]}} call the dentist to reschedule the cleaning
- Leverage points, see {{embed: ((Zp3kL9mQe))}} and {{[[embed]]: ((a-b_c1D2e))}}
- Keep ((important)) and ((Note)) and ((URGENT)): words in parentheses, no uids
"""


def test_a_roam_exports_block_uids_and_task_markers_are_not_shown_in_hits_or_the_list(tmp_path: Path, wordllama: object) -> None:
    """A Roam Research export writes a block reference as its uid alone, ``((f8K2pQ1xA))``, and a
    task as ``{{[[TODO]]}} …``: hits and ``list`` showed both as written (a trial on a Roam export)."""
    write_file(tmp_path, "November 30th, 2026.md", ROAM_DAILY)
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        shown = hit_on(vault, "revised numbers Falcon budget dentist leverage", "November 30th, 2026.md", k=1)
    for artifact in ("((f8K2pQ1xA))", "Zp3kL9mQe", "a-b_c1D2e", "{{", "TODO", "DONE"):
        assert artifact not in shown, (artifact, shown)
    assert "by Friday · send Alice the revised Falcon budget spreadsheet · [x] call the dentist" in shown
    assert "Keep ((important)) and ((Note)) and ((URGENT))" in shown
    listed = run_cli(tmp_path, "list", "--since", "2026-11-01")
    assert listed.exit_code == 0, listed.output
    assert "((f8K2pQ1xA))" not in listed.stdout and "{{TODO}}" not in listed.stdout
    assert "[x] call the dentist" in listed.stdout


ROAM_MARKUP = """- Call with the harbor office about the mooring permit
    - ^^Permit renewal is due before January 15th^^ and costs __forty euros__
    - see [the fee table](((hG3kQ9pLm))) and [[[[Harbor]] office]] and [the office page]([[Harbor office]])
    - {{[[query]]: {and: [[TODO]] [[Harbor office]]}}}
    - {{[[table]]}}
        - Fee
            - 40 EUR
    - {{[[POMO]]}} mooring calendar {{[[DONE]]}} paid
    - A template's {{title}} stays, as does {{[[never closed
"""


def test_a_roam_exports_highlights_aliases_nested_links_and_components_read_as_roam_shows_them(tmp_path: Path, wordllama: object) -> None:
    """Roam's ``^^highlight^^``, ``[alias]([[Page]])``, ``[[[[Harbor]] office]]`` and its components
    (``{{[[query]]: …}}``, ``{{[[table]]}}``) were shown as their source (a trial on a Roam export)."""
    write_file(tmp_path, "December 2nd, 2026.md", ROAM_MARKUP)
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        shown = hit_on(vault, "mooring permit renewal fee", "December 2nd, 2026.md", k=1)
    assert "· Permit renewal is due before January 15th and costs forty euros ·" in shown
    assert "see the fee table and Harbor office and the office page · Fee · 40 EUR · mooring calendar [x] paid" in shown
    assert "{{title}}" in shown
    assert "as does {{[[never closed" in shown  # a component never closed: as written
    for artifact in ("^^", "query", "{{table", "[[table", "POMO", "hG3kQ9pLm", "]("):
        assert artifact not in shown, (artifact, shown)


def test_carets_inside_a_number_or_word_are_no_roam_highlight() -> None:
    """``^^`` opens Roam's highlight only where a highlight can open: Knuth's arrows ``2^^3 and
    3^^2`` read "23 and 32" (two numbers changed), a Korean ``좋아요^^감사해요^^`` lost its smiles."""
    assert readable("Tetration: 2^^3 = 16 and 3^^2 = 9.") == "Tetration: 2^^3 = 16 and 3^^2 = 9."
    assert readable("좋아요^^감사해요^^ 내일 봐요") == "좋아요^^감사해요^^ 내일 봐요"
    assert readable("- ^^Permit renewal is due^^ and (^^paid^^).") == "Permit renewal is due and (paid)."


def test_a_hyphenated_word_in_double_parentheses_is_no_roam_block_uid() -> None:
    """A Roam uid is 9 characters of ``[A-Za-z0-9_-]``: ``((long-term))``, ``((follow-up))``, a
    transcript's ``((in-breath))`` and ``((2019-2023))`` were taken for uids and hidden with their words."""
    text = "Risk is ((long-term)) and ((follow-up)), ((in-breath)), ((2019-2023)) but not ((f8K2pQ1xA))."
    assert readable(text) == "Risk is ((long-term)) and ((follow-up)), ((in-breath)), ((2019-2023)) but not ."


def test_a_hit_found_only_by_words_in_a_comment_shows_that_comment_in_search_and_explain(tmp_path: Path) -> None:
    # A trial: the full text found "zebra mussels" in a %% comment (Obsidian's search finds it too),
    # and the snippet showed the lines around it without the words — the hit looked found by nothing.
    write_file(tmp_path, ".vaultmem.toml", 'embedder = "hashing"\n')
    write_file(tmp_path, "boat.md", "# Boat\n\nThe boat is blue and moored at the pier.\n\n"
                                    "%% remember to ask Ana about the zebra mussels %%\n\nMore about sailing in winter.\n")
    write_file(tmp_path, "page.md", "Opening hours are posted. <!-- old: closed on Mondays for the heron count -->\n")
    write_file(tmp_path, "drawing.md", "A sketch of the dock.\n\n%%\n```json\n{\"text\": \"heron\"}\n```\n%%\n")
    with Vault(tmp_path) as vault:
        vault.index()
        assert hit_on(vault, "zebra mussels", "boat.md") == (
            "%% remember to ask Ana about the zebra mussels %% · Boat · The boat is blue and moored at the pier. "
            "More about sailing in winter.")
        assert hit_on(vault, "heron count", "page.md").startswith("<!-- old: closed on Mondays for the heron count --> · Opening hours")
        explained = vault.explain("boat", "zebra mussels", now=NOW)
        assert explained.passage is not None and explained.passage.snippet.startswith("%% remember to ask Ana about the zebra mussels %%")
        # Words the text shows are shown as before, without the comment; a plugin's data is never shown.
        assert "%%" not in hit_on(vault, "boat pier", "boat.md")
        drawing = {hit.path: hit.snippet for hit in vault.search("heron", k=5, now=NOW)}.get("drawing.md")
        assert drawing is None or "json" not in drawing and "{" not in drawing
    cli = run_cli(tmp_path, "search", "zebra mussels", "-k", "1")
    assert "%% remember to ask Ana about the zebra mussels %%" in cli.stdout


CONFLICTED_DAY = (
    "---\ntags: [daily]\n---\n# Notes\n"
    "Slept well. Took the bike to the studio, lunch in hand as usual.\n"
    "<<<<<<< HEAD\n"
    "Noon: Priya texted, the move is March now.\n"
    "||||||| merged common ancestors\n"
    "=======\n"
    "Evening (laptop): dentist booked with Dr. Almeida for 2026-12-10 at 15:30.\n"
    ">>>>>>> 73402246564866c1ec77dc9dff98cad36326ec4e\n"
)


def test_a_note_in_a_merge_conflict_shows_both_sides_but_no_marker_line_in_its_snippet(tmp_path: Path, wordllama: object) -> None:
    # An agent trial: after a `git pull` that conflicted, the daily note's hit read "… ======= Evening
    # (laptop): dentist booked … 73402246564866c1ec77dc9dff98cad36326ec4e": the `>>>>>>>` line read as a
    # quote showed its bare commit hash as if the note said it.
    write_file(tmp_path, "Daily/2026-12-03.md", CONFLICTED_DAY)
    with Vault(tmp_path, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        hit = vault.search("when is the dentist appointment", k=1)[0]
    assert hit.path == "Daily/2026-12-03.md"
    assert any(warning.startswith("conflict: ") for warning in hit.warnings)  # the conflict is still said, on the hit
    assert "Priya texted, the move is March now." in hit.snippet and "dentist booked with Dr. Almeida" in hit.snippet
    for marker in ("<<<<<<<", "=======", ">>>>>>>", "|||||||", "HEAD", "73402246564866c1ec77dc9dff98cad36326ec4e",
                   "merged common ancestors"):
        assert marker not in hit.snippet, hit.snippet


def test_marker_lines_are_left_out_only_as_git_writes_them_and_never_in_code() -> None:
    assert readable("A.\n<<<<<<< ours\nB.\n=======\nC.\n>>>>>>> theirs\n") == "A. B. C."
    # Not a marker: eight marks, a mark run inside a line, a quote of one `>`.
    assert readable("x <<<<<<< y") == "x <<<<<<< y"
    assert readable("<<<<<<<< HEAD") == "<<<<<<<< HEAD"
    assert readable("> quoted words") == "quoted words"
    # A note showing what a conflict looks like, in a code block: shown as written.
    assert readable("```\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> main\n```") == (
        "<<<<<<< HEAD · mine · ======= · theirs · >>>>>>> main")
