"""An answer with nothing in it says so: a query no note matches, a tag no note carries.

A review: a query no note holds a word of still answered ten hits at score 0.00 with no hint
(adr/0004: a question nothing answers reads at most 0.05), and ``list --tag typo`` said "no
notes", the same words as a real tag whose notes the other filters left out. The hits and
their order are unchanged; only the warnings are new (API, CLI, MCP ``recall`` alike).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import NOW, run_cli
from mcp_client import run, serve

from vaultmem import Vault

WEAK = ("none of the notes searched holds any of these words, and none stands out in meaning: the hits below are the "
        "nearest of weak matches")
NONSENSE = "xyzzy plugh"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "server-stderr.log"


# ------------------------------------------------------------------ a query nothing matches


def test_a_query_no_note_matches_warns_that_its_hits_are_weak_and_still_answers_them(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        hits = vault.search(NONSENSE, k=10, now=NOW)
    assert len(hits) == 10  # which hits return is unchanged: the nearest, told as such
    assert all(hit.score <= 0.05 for hit in hits)
    assert hits.warnings == [WEAK]
    assert all(WEAK in hit.warnings for hit in hits)  # JSON readers read the hits


@pytest.mark.parametrize("query", ["plumber", "dentist", "what did I decide about the database", "Harbor"])
def test_a_search_that_finds_its_words_has_no_weak_match_warning(sample_vault: Path, query: str) -> None:
    with Vault(sample_vault) as vault:
        hits = vault.search(query, k=10, now=NOW)
    assert hits
    assert WEAK not in hits.warnings
    assert not any(WEAK in hit.warnings for hit in hits)


def test_the_cli_says_the_weak_match_warning_once_above_the_hits(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "search", NONSENSE, "--as-of", NOW)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"! {WEAK}"
    assert result.stdout.count(WEAK) == 1  # not again under each of the ten hits
    assert " 1. " in result.stdout
    assert "10. " in result.stdout


def test_the_cli_json_hits_carry_the_weak_match_warning(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "search", NONSENSE, "--as-of", NOW, "--json")
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)
    assert len(hits) == 10
    assert all(WEAK in hit["warnings"] for hit in hits)
    assert f"warning: {WEAK}" in result.stderr


def test_mcp_recall_of_a_query_nothing_matches_warns(sample_vault: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(sample_vault, log) as served:
            weak: dict[str, Any] = await served.call("recall", query=NONSENSE, k=5)
            assert len(weak["hits"]) == 5
            assert weak["warnings"] == [WEAK]
            assert all(WEAK in hit["warnings"] for hit in weak["hits"])
            found = await served.call("recall", query="plumber", k=5)
            assert WEAK not in found["warnings"]

    run(scenario)


# ------------------------------------------------------------------ a tag no note carries


def test_list_by_a_misspelt_tag_says_no_note_carries_it_and_names_the_nearest(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "list", "--tag", "peple", "--as-of", NOW)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "! no note carries the tag #peple at all (nor a tag under it); nearest tags: #people", "no notes"]


def test_list_by_a_tag_nothing_near_says_so(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        listing = vault.list_notes(tags=["zzzqqq"], now=NOW)
    assert list(listing) == []
    assert listing.warnings == ["no note carries the tag #zzzqqq at all (nor a tag under it); no tag of the vault is near it"]


def test_list_by_a_real_tag_the_other_filters_empty_says_the_tag_exists(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        assert vault.list_notes(tags=["people"], now=NOW)  # the tag is there
        listing = vault.list_notes(tags=["people"], layers=["L1"], now=NOW)
    assert list(listing) == []
    assert listing.warnings == ["the tag #people exists (notes carry it), but none of those notes passes the other "
                                "filters: layer, dates, expiry (expired notes are hidden unless asked for)"]


def test_only_the_unknown_tag_of_several_is_named(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        listing = vault.list_notes(tags=["pets", "heath"], now=NOW)
    assert listing.warnings == ["no note carries the tag #heath at all (nor a tag under it); nearest tags: #health"]


def test_a_tag_asked_in_another_case_is_found_and_warns_nothing(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        listing = vault.list_notes(tags=["People"], now=NOW)
    assert listing
    assert listing.warnings == []


def test_a_search_by_a_misspelt_tag_names_the_nearest_too(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        hits = vault.search("dentist", tags=["helth"], now=NOW)
    assert list(hits) == []
    assert hits.warnings == ["no note carries the tag #helth at all (nor a tag under it); nearest tags: #health"]


def test_a_tag_asked_for_by_its_first_word_names_the_tags_it_begins(tmp_path: Path) -> None:
    # A basic-memory project's notes carry #sys-path and #sys.path; `--tag sys` was told the
    # nearest tags were #styles and #css (spelling alone: "sys" is far from "sys-path").
    (tmp_path / "script.md").write_text("---\ntags: [sys.path, sys-path, styles, css]\n---\nDirect execution.\n",
                                        encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        listing = vault.list_notes(tags=["sys"], now=NOW)
    assert listing.warnings == ["no note carries the tag #sys at all (nor a tag under it); nearest tags: #sys-path, #sys.path, #styles"]


# ------------------------------------------------------------------ a vault with no notes yet


def test_a_first_time_users_empty_vault_says_it_holds_no_notes_yet_over_mcp(vault_dir: Path, log: Path) -> None:
    """The s35 agent trial's first calls, on a new user's empty folder: recall and list_notes
    answered ``{"hits": [], "warnings": []}`` — the same as "nothing about that" in a vault of
    thousands, so the agent could not tell the person it has no memories yet."""
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            empty = f"the vault holds no notes yet ({vault_dir} has no Markdown note vaultmem reads)"
            recalled = await served.call("recall", query="Sam's name and family")
            assert recalled["hits"] == [] and len(recalled["warnings"]) == 1
            assert recalled["warnings"][0].startswith(empty), recalled
            listed = await served.call("list_notes")
            assert listed["notes"] == [] and listed["warnings"][0].startswith(empty), listed
            await served.call("remember", text="The user's name is Sam Rivera.", layer="L4")
            recalled = await served.call("recall", query="Sam", layers=["L1"])  # empty for its filter, not for want of notes
            assert recalled == {"hits": [], "warnings": [], "confident": False}

    run(scenario)
