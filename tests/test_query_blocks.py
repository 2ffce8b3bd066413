"""Query blocks (```dataview, ```dataviewjs, ```query, ```base, ```tasks) render other notes:
search holds none of their words, and no snippet shows them (markdown.query_block_ranges,
searchable.searchable); the file is left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NOW, keyword_side, write_file, write_vault

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.markdown import query_block_ranges, without_query_blocks

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
    return write_vault(tmp_path / "vault", NOTES)



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


DRAWING = ("---\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n---\n"
           "==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==\n\n"
           "# Text Elements\nHarbor ingest queue ^a1b2c3\n\n"
           "%%\n# Drawing\n```json\n"
           + '{"type": "excalidraw", "elements": [' + ", ".join(
               f'{{"id": "el{n}", "type": "rectangle", "strokeColor": "#1e1e1e", "seed": {n * 7919}}}' for n in range(300))
           + "]}\n```\n%%\n")
KANBAN = ("---\nkanban-plugin: basic\n---\n\n## Todo\n\n- [ ] paint the fence\n\n"
          "%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\",\"lane-width\":272}\n```\n%%\n")
REMINDER = "Visible text.\n\n%%\nmy private reminder: the spare key is under the blue pot\n%%\n"
PACKED = "# Sketch\nA sketch of the garden.\n\n```compressed-json\nN4KAkARALgngDgUwgLgAQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc0JRJQgEYA6bGwC2CgF7N6hbEOUxrZ\n```\n"


def test_a_plugins_data_in_a_comment_or_compressed_json_is_not_searched_and_a_comments_words_are() -> None:
    for text in (DRAWING, KANBAN, PACKED):
        blocks = [text[start:end] for start, end in query_block_ranges(text) if text.startswith("```", start)]
        assert len(blocks) == 1, blocks
        assert blocks[0].endswith("```"), blocks
        kept = without_query_blocks(text)
        assert kept.count("\n") == text.count("\n")
    assert query_block_ranges(REMINDER) == [] and without_query_blocks(REMINDER) == REMINDER


def test_a_drawing_is_one_passage_of_its_words_not_hundreds_of_its_json(tmp_path: Path) -> None:
    # A trial: one Excalidraw drawing became 463 passages of JSON, first for
    # "rectangle strokeColor seed" and filling the low slots of unrelated searches.
    root = tmp_path / "vault"
    for name, text in (("Drawings/Harbor.excalidraw.md", DRAWING), ("Board.md", KANBAN), ("Reminder.md", REMINDER),
                       ("Sketch.md", PACKED), ("other.md", "A note about the harbor and its ingest queue.\n")):
        write_file(root, name, text)
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert vault.stats().passages <= 8  # one or two a note, not hundreds
        assert "Drawings/Harbor.excalidraw.md" not in keyword_side(vault, "rectangle strokeColor seed")
        assert "Board.md" not in keyword_side(vault, "lane width")
        assert "Sketch.md" not in keyword_side(vault, "N4KAkARALgngDgUwgLgAQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc0JRJQgEYA6bGwC2CgF7N6hbEOUxrZ")
        assert keyword_side(vault, "spare key blue pot") == ["Reminder.md"]  # a comment's own words are found
        assert "Drawings/Harbor.excalidraw.md" in keyword_side(vault, "harbor ingest queue")


# A weekly note as Periodic Notes' template writes it (a trial on a real journal): the Tasks
# query sits in a callout, every line behind "> ".
WEEKLY = ("---\ncreated-date: 2026-03-08\ntags: \"#type/note/weekly\"\n---\n\n## Task\n\n> [!NOTE] \n> ```tasks\n"
          "> not done\n> limit 50\n> sort by due\n> ```\n\n\n### Logs\n\n- **Monday**\n"
          "\t- Model fine-tuning and other LLM research\n- **Tuesday**\n")
LISTED = "# Errands\n\n- ```tasks\n  not done\n  sort by due\n  ```\n- bought the winter tyres\n"


def test_a_query_block_in_a_callout_or_a_list_item_is_left_out_of_snippets(tmp_path: Path) -> None:
    # list and search showed "Task · > not done · > limit 50 · > sort by due" as every weekly
    # note's opening: the snippet's quick look for a fence took only a fence at a line's start.
    root = write_vault(tmp_path / "vault", {"Journal/Weekly/2026-10.md": WEEKLY, "Errands.md": LISTED})
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        listed = {note.path: note.snippet for note in vault.list_notes(k=5, now=NOW)}
        [weekly] = [hit for hit in vault.search("fine-tuning", k=5, now=NOW) if hit.path == "Journal/Weekly/2026-10.md"]
        [errands] = [hit for hit in vault.search("winter tyres", k=5, now=NOW) if hit.path == "Errands.md"]
    for snippet in (listed["Journal/Weekly/2026-10.md"], listed["Errands.md"], weekly.snippet, errands.snippet):
        assert "not done" not in snippet, snippet
        assert "sort by due" not in snippet, snippet
    assert "Model fine-tuning" in listed["Journal/Weekly/2026-10.md"]
    assert "winter tyres" in listed["Errands.md"]


COMPRESSED_BANNER = ("==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠== You can decompress "
                     "Drawing data with the command palette: 'Decompress current Excalidraw file'. For more info check in "
                     "plugin settings under 'Saving'")
GTD = ("---\n\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n\n---\n" + COMPRESSED_BANNER + "\n\n\n# Excalidraw Data\n\n"
       "## Text Elements\nGTD ^ZfBIsUPy\n\nTrusted System ^R2vbwKZh\n\n%%\n## Drawing\n```compressed-json\n"
       "N4KAkARALgngDgUwgLgAQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc0JRJQgEYA6bGwC2CgF7N6hbEcK4OCtp\n```\n%%")
PLUGIN_HOWTO = ("# Excalidraw tips\nEvery drawing file opens with this line:\n\n```\n"
                "==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==\n```\n")


def test_excalidraw_s_banner_is_not_searched_nor_shown_and_a_note_quoting_it_in_code_keeps_it(tmp_path: Path) -> None:
    # A trial: "decompress current file command palette" found a drawing of four labels at 0.87
    # by the line Excalidraw writes in every drawing, and `list` showed it as the drawing's text.
    root = tmp_path / "vault"
    for name, text in (("Drawings/GTD.excalidraw.md", GTD), ("Excalidraw tips.md", PLUGIN_HOWTO),
                       ("Palette.md", "The command palette opens with Ctrl+P; decompress nothing by hand.\n")):
        write_file(root, name, text)
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert "Drawings/GTD.excalidraw.md" not in keyword_side(vault, "decompress command palette saving")
        assert "Drawings/GTD.excalidraw.md" not in keyword_side(vault, "switch view more options menu")
        assert keyword_side(vault, "switch view more options menu") == ["Excalidraw tips.md"]  # quoted in code
        assert "Drawings/GTD.excalidraw.md" in keyword_side(vault, "trusted system")
        [listed] = [note for note in vault.list_notes(k=10, now=NOW) if note.path == "Drawings/GTD.excalidraw.md"]
        assert "Switch" not in listed.snippet, listed.snippet
        assert "Trusted System" in listed.snippet, listed.snippet
        [hit] = [hit for hit in vault.search("GTD trusted system", k=3, now=NOW) if hit.path == "Drawings/GTD.excalidraw.md"]
        assert "Switch" not in hit.snippet, hit.snippet
        assert "decompress" not in hit.snippet, hit.snippet
    assert (root / "Drawings/GTD.excalidraw.md").read_text(encoding="utf-8") == GTD  # the file is not touched


# A drawing with the settings Excalidraw keeps in its frontmatter (ExcaliBrain's, as a trial's
# vault had it) and a flashcard deck with Spaced Repetition's review schedule in its properties.
EXCALIBRAIN = ("---\n\nexcalidraw-plugin: parsed\nexcalidraw-default-mode: view\nexcalidraw-linkbutton-opacity: 0.3\n"
               "excalidraw-onload-script: \"app.plugins.plugins[`excalibrain`].start(ea.targetView.leaf);\"\n\n"
               "tags: [excalidraw]\n\n---\n\n# Text Elements\nHotkeys ^1S083xwr\n\n[[Hotkeys.md]] ^ZraWHpim\n\n"
               "%%\n# Drawing\n```json\n{\"type\": \"excalidraw\", \"elements\": []}\n```\n%%")
DECK = ("---\ntags: [flashcards/docker]\nsr-due: 2024-02-01\nsr-interval: 3\nsr-ease: \"250\"\n---\n#flashcards/docker\n\n"
        "Which kernel features isolate a container?::cgroups and namespaces\n<!--SR:!2024-02-03,5,270-->\n")
HTML_NOTES = "## Text Elements\nParagraphs, headings and spans are the text elements of HTML.\n"


def test_a_plugin_s_settings_and_excalidraw_s_headings_are_not_searched_nor_shown(tmp_path: Path) -> None:
    # A trial: "view" and "script" found ExcaliBrain's drawing by its settings, its snippet opened
    # with its onload script, and "text elements" found every drawing by the headings the plugin writes.
    root = tmp_path / "vault"
    for name, text in (("Excalibrain.md", EXCALIBRAIN), ("Drawings/GTD.excalidraw.md", GTD),
                       ("Flashcards/Docker.md", DECK), ("HTML.md", HTML_NOTES)):
        write_file(root, name, text)
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "onload script") == []
        assert keyword_side(vault, "default mode view") == []
        assert keyword_side(vault, "250") == []  # a deck's ease, not its words
        assert keyword_side(vault, "text elements") == ["HTML.md"]  # a person's heading stays one
        assert keyword_side(vault, "hotkeys") == ["Excalibrain.md"]
        assert keyword_side(vault, "kernel namespaces") == ["Flashcards/Docker.md"]
        listed = {note.path: note.snippet for note in vault.list_notes(k=10, now=NOW)}
        [hit] = [hit for hit in vault.search("hotkeys", k=3, now=NOW) if hit.path == "Excalibrain.md"]
    for snippet in (listed["Excalibrain.md"], listed["Drawings/GTD.excalidraw.md"], hit.snippet):
        assert "Text Elements" not in snippet and "Excalidraw Data" not in snippet, snippet
        assert "onload" not in snippet and "app.plugins" not in snippet, snippet
    assert listed["Drawings/GTD.excalidraw.md"].startswith("GTD"), listed
    assert "sr-due" not in listed["Flashcards/Docker.md"], listed
    assert listed["HTML.md"].startswith("Text Elements"), listed
    assert (root / "Excalibrain.md").read_text(encoding="utf-8") == EXCALIBRAIN  # the file is not touched
