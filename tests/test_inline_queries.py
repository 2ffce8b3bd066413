"""Dataview's inline queries (`= this.file.name`, `$= dv.pages('#x').length`) show their value in
reading view: with the plugin on, search holds none of their words and no snippet shows them,
with the prefixes Dataview's settings use; with it off they are code, searched as written. A
settings change applies at the next command (inline_queries.py, adr/0004)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import NOW, keyword_side, wait_until, write_file, write_vault

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.inline_queries import (
    COMMUNITY_PLUGINS,
    DATAVIEW_SETTINGS,
    inline_query_ranges,
    load_inline_queries,
    without_inline_queries,
)

READING = ("# Reading log\n"
           "This page lists `= length(this.file.inlinks)` books; `$= dv.pages('#fiction').length` are novels.\n"
           "Started with Middlemarch, then the `rg --files` trick for the shelf list.\n")


@pytest.fixture
def reading_vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", {"Reading log.md": READING, "Other.md": "# Other\nNothing here.\n"})


def dataview_on(root: Path, settings: dict[str, object] | None = None) -> None:
    write_file(root, COMMUNITY_PLUGINS, json.dumps(["calendar", "dataview"]))
    if settings is not None:
        write_file(root, DATAVIEW_SETTINGS, json.dumps(settings))


def test_an_inline_query_is_a_code_span_that_starts_with_a_prefix_and_says_more() -> None:
    text = ("a `= this.file.name` b `$= dv.current().x` c `=` d `x = 1` e ` = spaced` f\n"
            "```\n= a fenced block\n```\n")
    found = [text[start:end] for start, end in inline_query_ranges(text, ("$=", "="))]
    assert found == ["`= this.file.name`", "`$= dv.current().x`", "` = spaced`"]
    assert inline_query_ranges(text, ()) == []  # Dataview off: all of it is code
    blanked = without_inline_queries(text, ("$=", "="))
    assert len(blanked) == len(text) and "this.file" not in blanked and "`x = 1`" in blanked


def test_the_prefixes_are_dataview_s_when_it_is_on_and_none_when_it_is_off(tmp_path: Path) -> None:
    assert load_inline_queries(tmp_path).prefixes == ()  # no list of plugins: none is on
    write_file(tmp_path, COMMUNITY_PLUGINS, json.dumps(["calendar"]))
    write_file(tmp_path, DATAVIEW_SETTINGS, json.dumps({"inlineQueryPrefix": "="}))
    assert load_inline_queries(tmp_path).prefixes == ()  # installed, turned off
    dataview_on(tmp_path, {})
    assert load_inline_queries(tmp_path).prefixes == ("$=", "=")  # the plugin's defaults
    dataview_on(tmp_path, {"inlineQueryPrefix": "dv:", "inlineJsQueryPrefix": ""})
    assert load_inline_queries(tmp_path).prefixes == ("dv:",)  # an empty prefix turns that kind off
    dataview_on(tmp_path, {"enableInlineDataview": False})
    assert load_inline_queries(tmp_path).prefixes == ()


def test_dataview_settings_that_do_not_parse_are_a_problem_and_hide_nothing(tmp_path: Path) -> None:
    dataview_on(tmp_path)
    write_file(tmp_path, DATAVIEW_SETTINGS, "{not json")
    queries = load_inline_queries(tmp_path)
    assert queries.prefixes == ()
    [problem] = queries.problems
    assert problem.path == DATAVIEW_SETTINGS and "inline queries are searched as written" in problem.message
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        assert any(found.path == DATAVIEW_SETTINGS for found in vault.check(now=NOW).problems)


def test_with_dataview_on_an_inline_query_s_words_are_not_searched(reading_vault: Path) -> None:
    dataview_on(reading_vault)
    with Vault(reading_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "inlinks") == []  # was Reading log.md: the query's words
        assert keyword_side(vault, "fiction") == []
        assert keyword_side(vault, "Middlemarch") == ["Reading log.md"]  # the note's own words stay
        assert keyword_side(vault, "shelf files") == ["Reading log.md"]  # other code stays searchable


def test_with_dataview_on_a_snippet_leaves_out_the_inline_queries(reading_vault: Path) -> None:
    dataview_on(reading_vault)
    with Vault(reading_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        [hit] = [hit for hit in vault.search("reading log books novels", k=5, now=NOW) if hit.path == "Reading log.md"]
        assert "this.file" not in hit.snippet and "dv.pages" not in hit.snippet, hit.snippet
        assert "books" in hit.snippet and "are novels" in hit.snippet
        assert hit.passage is not None and hit.passage.lines == [1, 3]
    assert (reading_vault / "Reading log.md").read_text(encoding="utf-8") == READING  # the file is not touched


def test_with_dataview_off_an_inline_query_is_code_searched_as_written(reading_vault: Path) -> None:
    write_file(reading_vault, COMMUNITY_PLUGINS, json.dumps(["calendar"]))
    with Vault(reading_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "inlinks") == ["Reading log.md"]


def test_turning_dataview_on_or_changing_its_prefix_applies_at_the_next_command(reading_vault: Path) -> None:
    with Vault(reading_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "inlinks") == ["Reading log.md"]
    dataview_on(reading_vault)
    with Vault(reading_vault, embedder=HashingEmbedder()) as vault:
        vault.search("anything", now=NOW)  # a read brings the index in line with the settings
        assert keyword_side(vault, "inlinks") == []
        dataview_on(reading_vault, {"inlineQueryPrefix": "dv:"})  # the same process, as under watch
        vault.search("anything", now=NOW)
        assert keyword_side(vault, "inlinks") == ["Reading log.md"]  # "=" is no prefix now
        assert keyword_side(vault, "fiction") == []  # the JS prefix is still the default


def test_a_running_watcher_reads_the_notes_again_when_dataview_is_turned_on(reading_vault: Path) -> None:
    with Vault(reading_vault, embedder=HashingEmbedder()) as vault, vault.watch(quiet=True):
        assert keyword_side(vault, "inlinks") == ["Reading log.md"]
        dataview_on(reading_vault)  # no command run: the watcher hears the settings file
        wait_until(lambda: keyword_side(vault, "inlinks") == [], what="the inline query's words to leave the index")
