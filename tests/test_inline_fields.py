"""Properties written in a note's text (vaultmem/inline_fields.py; adr/0004 "Properties written
in the text"): Logseq's ``key:: value`` lines (a page's, a block's) and Dataview's inline fields
are properties for search, so a question naming their value gives the note the property bonus —
and ``::`` in code or in prose (``std::vector``) is no property. Real files, a real index.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import NOW, write_vault

from vaultmem import Vault
from vaultmem.inline_fields import MAX_FIELDS, MAX_TEXT_CHARACTERS, MAX_VALUE_CHARACTERS, inline_fields
from vaultmem.notes import READER_VERSION
from vaultmem.search import search_filters

JOURNAL = ("- We should plant the tomatoes after the last frost\n  speaker:: Caroline\n"
           "- The community garden opens in April\n  speaker:: Melanie\n  collapsed:: true\n")
OTHER_DAY = "- Painting class moved to Thursdays\n  speaker:: Melanie\n- The tomatoes need a greenhouse\n  speaker:: Melanie\n"
BOOK = "type:: book\nauthor:: [[Octavia E. Butler]]\ntitle:: Kindred\nid:: 621b05d0-c3c1-405b-9ad8-bb072008bb98\n\n- Dana pulled back in time\n"
FILMS = ("# Film log\n\nDirector:: Hayao Miyazaki\n\nA bathhouse for spirits. [rating:: 5] (mood:: wistful)\n"
         "- [ ] rewatch it [due:: 2024-03-16]\n")
CODE = ("# C++ containers\n\nPrefer std::vector over raw arrays; std::map is ordered. Vec::new() in Rust.\n"
        "Haskell writes map :: (a -> b) -> [a] -> [b]\n\n```cpp\nspeaker:: Caroline\n```\n\n`note:: Caroline` in a span\n"
        "%% comment:: Caroline %%\n")


@pytest.mark.parametrize(("body", "fields"), [
    (BOOK, (("type", "book"), ("author", "Octavia E. Butler"))),  # a page's lines; title and id are not properties here
    (JOURNAL, (("speaker", "Caroline"), ("speaker", "Melanie"))),  # a block's lines, Logseq's collapsed:: left out
    (FILMS, (("Director", "Hayao Miyazaki"), ("rating", "5"), ("mood", "wistful"))),  # a task's due:: is task_dates'
    ("**Author**:: [Le Guin](https://example.com)\n> - Source:: https://example.com\n", (("Author", "Le Guin"),)),
    (CODE, ()),
    ("no fields at all, 10:30 and a::b\n", ()),
])
def test_the_properties_written_in_a_notes_text_are_its_logseq_lines_and_dataview_fields(
        body: str, fields: tuple[tuple[str, str], ...]) -> None:
    assert inline_fields(body) == fields


@pytest.mark.parametrize(("body", "fields"), [
    ("author:: `Ursula` wrote it\n", (("author", "wrote it"),)),  # the code is no part of the value
    ("source:: Le Guin %% private %%\n", (("source", "Le Guin"),)),  # nor is a comment
    ("author:: `Ursula`\n", ()),  # a value all code is none
    ("A film [author:: `x` Miyazaki] seen\n", (("author", "Miyazaki"),)),
])
def test_a_field_whose_value_holds_code_keeps_only_the_words_outside_it(
        body: str, fields: tuple[tuple[str, str], ...]) -> None:
    # The NUL character code is read as (so no field spans it) was the value's text: `author: \x00 wrote`
    # in the props column, "Ursula" lost and a control character stored in its place.
    assert inline_fields(body) == fields


def test_a_value_holding_code_puts_no_control_character_in_the_indexed_properties(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"films.md": "# Films\n\nDirector:: `Miyazaki` Hayao\n"})
    with Vault(root) as vault:
        vault.index()
    database = sqlite3.connect(root / ".vaultmem" / "index.db")
    props = [row[0] for row in database.execute("SELECT props FROM passages_fts WHERE props != ''")]
    database.close()
    assert props == ["Director: Hayao"]


HIGHLIGHTED = ("- Fixed the flat tyre on the yellow bike\n  speaker:: Melanie\n  background-color:: yellow\n"
               "- What is the capital of Peru? #card\n  card-last-interval:: 4\n  card-repeats:: 2\n"
               "  card-next-schedule:: 2024-03-20T10:00:00.000Z\n  card-last-score:: 5\n"
               "- old block\n  created-at:: 1650000000000\n  updated-at:: 1650000000001\n  custom-id:: intro\n")


def test_the_properties_logseq_hides_are_no_properties_of_the_note() -> None:
    # Logseq's hidden-built-in-properties (a block's colour, its times, its flashcard schedule) say
    # nothing of what the note is about; read as values, "the yellow bike" named every highlighted block.
    assert inline_fields(HIGHLIGHTED) == (("speaker", "Melanie"),)


def test_a_question_naming_a_blocks_colour_gives_no_property_bonus(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "graph", {"logseq/config.edn": "{:meta/version 1}\n",
                                            "journals/2024_03_04.md": HIGHLIGHTED,
                                            "pages/Bikes.md": "- The yellow bike needs new brakes\n"})
    with Vault(root) as vault:
        vault.index()
        assert _valued(vault, "what happened to the yellow bike") == set()
        assert _valued(vault, "what did Melanie fix on the yellow bike") == {"journals/2024_03_04.md"}


def test_a_page_whose_blocks_carry_long_values_keeps_each_full_text_row_small(tmp_path: Path) -> None:
    # The props column is stored in every full-text row of a note: 400 blocks with a `source::` sentence
    # made each of this page's rows 35 KB and its index 12 times the size it was before reader 91.
    sentence = "a long account of the harbor backup and the river lecture on physics and history, told again"
    blocks = "".join(f"- block {number} about the garden\n  source:: {sentence} {number}\n  speaker:: Person{number % 30}\n"
                     for number in range(400))
    root = write_vault(tmp_path / "graph", {"logseq/config.edn": "{:meta/version 1}\n", "pages/Big page.md": blocks})
    with Vault(root) as vault:
        vault.index()
        assert _valued(vault, "what did Person7 say about the garden") == {"pages/Big page.md"}
    database = sqlite3.connect(root / ".vaultmem" / "index.db")
    longest = database.execute("SELECT max(length(props)) FROM passages_fts").fetchone()[0]
    database.close()
    assert longest <= MAX_TEXT_CHARACTERS


def test_an_item_longer_than_a_question_names_whole_is_no_value() -> None:
    long = "x" * (MAX_VALUE_CHARACTERS + 1)
    assert inline_fields(f"source:: {long}\nattendees:: [[Ana]], [[{long}]]\n") == (("attendees", "Ana"),)


def test_a_note_of_a_hundred_thousand_field_lines_gives_at_most_max_fields() -> None:
    body = "".join(f"key{number}:: value {number}\n" for number in range(100_000))
    assert len(inline_fields(body)) == MAX_FIELDS


@pytest.fixture
def logseq_graph(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "graph", {
        "logseq/config.edn": "{:meta/version 1}\n",
        "journals/2024_03_04.md": JOURNAL,
        "journals/2024_03_11.md": OTHER_DAY,
        "pages/Kindred.md": BOOK,
        "pages/Reading list.md": "- Caroline said Kindred changed how she reads history\n",
        "pages/Film log.md": FILMS,
        "pages/C++ containers.md": CODE,
    })


def _valued(vault: Vault, query: str) -> set[str]:
    found = vault.derived.searcher().candidates(query, 5, search_filters(None, None, False, NOW))
    return {found.paths[label] for label in found.valued}


def test_a_question_naming_a_blocks_speaker_gives_that_journal_the_property_bonus(logseq_graph: Path) -> None:
    with Vault(logseq_graph) as vault:
        vault.index()
        assert _valued(vault, "what did Caroline say about the tomatoes") == {"journals/2024_03_04.md"}
        assert _valued(vault, "books by Octavia E. Butler") == {"pages/Kindred.md"}
        assert _valued(vault, "which film put me in a wistful mood") == {"pages/Film log.md"}
        caroline = vault.explain("journals/2024_03_04.md", "what did Caroline say about the tomatoes", now=NOW)
    assert [reason for reason in caroline.reasons if reason.startswith("property match")] == [
        "property match: the query names one of its property values ('caroline', its speaker, written in its text as "
        "`speaker:: …`), which adds 0.2 to its fused value"]


def test_explain_names_the_key_of_a_property_written_in_the_text_and_says_it_is_there(tmp_path: Path) -> None:
    # It said "one of its property values ('hayao miyazaki')": the note's Properties hold none, and
    # the person looking there for why it was lifted found nothing.
    root = write_vault(tmp_path / "vault", {
        "films/spirited.md": "---\nrating: 5\n---\n# Spirited Away\n\nDirector:: Hayao Miyazaki\n",
        "films/totoro.md": "---\ndirector: Hayao Miyazaki\n---\n# Totoro\n\nA forest spirit.\n",
        "films/other.md": "# Other\n\nA film about spirits in a bathhouse.\n",
        "films/ponyo.md": "---\ndirector: Hayao Miyazaki\n---\n# Ponyo\n\ndirector:: Goro Miyazaki\n",
    })
    with Vault(root) as vault:
        vault.index()
        spirited = vault.explain("films/spirited.md", "films by Hayao Miyazaki", now=NOW)
        totoro = vault.explain("films/totoro.md", "films by Hayao Miyazaki", now=NOW)
        ponyo = vault.explain("films/ponyo.md", "films by Goro Miyazaki", now=NOW)  # the key in both places
    assert [reason for reason in spirited.reasons if reason.startswith("property match")] == [
        "property match: the query names one of its property values ('hayao miyazaki', its Director, written in its "
        "text as `Director:: …`), which adds 0.2 to its fused value"]
    assert [reason for reason in totoro.reasons if reason.startswith("property match")] == [
        "property match: the query names one of its property values ('hayao miyazaki', its director), which adds 0.2 "
        "to its fused value"]
    assert [reason for reason in ponyo.reasons if reason.startswith("property match")] == [
        "property match: the query names one of its property values ('goro miyazaki', its director, written in its "
        "text as `director:: …`), which adds 0.2 to its fused value"]


def test_code_and_prose_holding_double_colons_give_a_note_no_property(logseq_graph: Path) -> None:
    with Vault(logseq_graph) as vault:
        vault.index()
        # the C++ note says Caroline in code and a comment only: her journal alone carries her name
        assert _valued(vault, "std vector containers by Caroline") == {"journals/2024_03_04.md"}
        assert "C++ containers" in [hit.title for hit in vault.search("std::vector containers", k=3, now=NOW)]


def test_a_property_written_in_the_text_is_found_again_after_the_line_is_edited(logseq_graph: Path) -> None:
    with Vault(logseq_graph) as vault:
        vault.index()
        (logseq_graph / "journals/2024_03_04.md").write_text(JOURNAL.replace("speaker:: Caroline", "speaker:: Ana"),
                                                            encoding="utf-8")
        vault.index()
        assert _valued(vault, "what did Caroline say about the tomatoes") == set()
        assert _valued(vault, "what did Ana say about the tomatoes") == {"journals/2024_03_04.md"}


def test_an_index_made_before_reader_91_learns_the_properties_in_the_text_without_embedding(logseq_graph: Path) -> None:
    with Vault(logseq_graph) as vault:
        vault.index()
    database = sqlite3.connect(logseq_graph / ".vaultmem" / "index.db")
    with database:  # what reader 90 wrote: no property of the text in the props column
        database.execute("UPDATE meta SET value = replace(value, ?, 'reader-90/') WHERE key = 'reader'", (f"reader-{READER_VERSION}/",))
        database.execute("UPDATE passages_fts SET props = ''")
        embedded = database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0]
    database.close()
    with Vault(logseq_graph) as vault:
        assert _valued(vault, "what did Caroline say about the tomatoes") == set()  # as the older index answers
        report = vault.index()
        valued = _valued(vault, "what did Caroline say about the tomatoes")
    database = sqlite3.connect(logseq_graph / ".vaultmem" / "index.db")
    assert database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0] == embedded  # nothing embedded again
    database.close()
    assert report.reread and valued == {"journals/2024_03_04.md"}
