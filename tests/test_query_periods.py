"""A period named in a search's words is said back with the range that would search it
(query_periods.py, adr/0026 "A period in the query's words"): trial s37 asked kepano's vault
"what did I do last week" and got a movie list, told nothing of --since/--until.
A hint, never a filter: the hits are the same with or without it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import run_cli, write_vault
from mcp_client import run, serve

from vaultmem import Vault
from vaultmem.dating import since_bound, until_bound
from vaultmem.option_names import Surface
from vaultmem.query_periods import period_hint, period_in_query


def daily_vault(root: Path) -> Path:
    return write_vault(root, {
        "Categories/Movies.md": "## Last seen\n\nThe movies I watched, by when I last saw them.\n",
        "Daily/2023-09-12.md": "## Notes\n\n- Dentist appointment at 9:30, a filling.\n",
        "Notes/Gift ideas.md": "A Japanese chef knife for Ana.\n",
    })


@pytest.mark.parametrize(("query", "bound"), [
    ("what did I do last week", "last week"),
    ("Yesterday", "yesterday"),
    ("yesterday's meeting notes", "yesterday"),
    ("plans for next friday", "next friday"),
    ("what happened the day before yesterday", "day before yesterday"),
    ("budget this month", "this month"),
    ("qu'ai-je fait la semaine dernière", "last week"),
    ("was habe ich letzte Woche gemacht", "last week"),
    ("上周做了什么", "last week"),
    # s38: Russian and Ukrainian, their single words too (no other language here writes them).
    ("что я делал вчера", "yesterday"),
    ("что было в прошлую пятницу", "last friday"),
    ("що я робив минулої п'ятниці", "last friday"),
    ("Вчора", "yesterday"),
    # s42: Polish (was: no hint, and --since 'zeszły tydzień' refused).
    ("co robiłem w zeszłym tygodniu", "last week"),
    ("notatki z wczoraj", "yesterday"),
    # s40: a month with its year, in English and the languages whose month names notes are dated by.
    ("decisiones de agosto de 2026", "2026-08"),
    ("what did we decide in August 2026", "2026-08"),
    ("réunions de février 2025", "2025-02"),
    ("Termine im März 2024", "2024-03"),
    ("notes from june, 2025", "2025-06"),
    ("the 2 meetings of June 2025", "2025-06"),  # a number that is no day of that month's
])
def test_a_period_in_the_words_is_read_as_the_bound_that_would_search_it(query: str, bound: str) -> None:
    period = period_in_query(query)
    assert period is not None
    assert period.bound == bound
    since_bound(period.bound, datetime.now(UTC))  # each bound it proposes is one the range takes
    until_bound(period.bound, datetime.now(UTC))


@pytest.mark.parametrize("query", ["dentist", "the last weekend", "holiday", "todays", "hier", "morgen früh",
                                   "last seen", "next steps", "what happened in the last month of 2024",
                                   "the last Friday of the month", "the last week of the trip",
                                   "August", "Agosto Rossi 2026 invoice", "august 20260", "the 2026 August plan",
                                   # a day of the month (review, s42: was the hint to keep all of 2025-10)
                                   "what did we plan on 20 October 2025", "the 20th of October 2025",
                                   "reunión del 15 de marzo de 2024", "Termin am 14. September 2026", "on 1st June, 2025"])
def test_words_that_name_no_period_give_no_hint(query: str) -> None:
    assert period_in_query(query) is None
    assert period_hint(query, None, None) is None


def test_no_hint_once_the_search_has_a_range() -> None:
    assert period_hint("what did I do last week", "last week", None) is None
    assert period_hint("what did I do last week", None, "yesterday") is None


def test_the_hint_names_the_bounds_as_each_surface_takes_them() -> None:
    hint = period_hint("what did I do last week", None, None)
    assert hint is not None
    assert "--since 'last week' and --until 'last week'" in hint.spelled(Surface.CLI)
    assert "since 'last week' and until 'last week'" in hint.spelled(Surface.MCP)
    assert "--since" not in str(hint)


def test_python_search_says_the_period_its_words_name_and_filters_nothing(tmp_path: Path) -> None:
    vault = Vault(daily_vault(tmp_path / "vault"))
    vault.index()
    asked = vault.search("what did I do last week", k=3)
    assert any("names a period (last week)" in warning and "since 'last week'" in warning for warning in asked.warnings)
    assert len(asked) == 3  # a hint, not a filter: the note of 2023 and the undated ones are still searched
    plain = vault.search("what did I do last", k=3)
    assert not any("names a period" in warning for warning in plain.warnings)
    ranged = vault.search("what did I do last week", k=3, since="last week", until="last week")
    assert not any("names a period" in warning for warning in ranged.warnings)


def test_cli_search_prints_the_hint_with_its_options(tmp_path: Path) -> None:
    vault = daily_vault(tmp_path / "vault")
    assert run_cli(vault, "index").exit_code == 0
    result = run_cli(vault, "search", "what did I do yesterday", "-k", "2")
    assert result.exit_code == 0, result.output
    assert "! the query names a period (yesterday), searched as words, not as dates: to keep only the notes dated " \
           "yesterday, add --since 'yesterday' and --until 'yesterday'" in result.stdout
    as_json = run_cli(vault, "search", "what did I do yesterday", "-k", "2", "--json")
    assert isinstance(json.loads(as_json.stdout), list)  # stdout stays one JSON document
    assert "--since 'yesterday'" in as_json.stderr


def test_mcp_recall_says_the_period_with_its_arguments(tmp_path: Path) -> None:
    vault = daily_vault(tmp_path / "vault")

    async def scenario() -> None:
        async with serve(vault, tmp_path / "mcp.log") as served:
            answer = await served.call("recall", query="what did I do last week", k=2)
            assert any("since 'last week' and until 'last week'" in warning and "--since" not in warning
                       for warning in answer["warnings"]), answer["warnings"]

    run(scenario)


def test_explain_of_a_note_missing_from_such_a_search_says_the_same(tmp_path: Path) -> None:
    vault = daily_vault(tmp_path / "vault")
    assert run_cli(vault, "index").exit_code == 0
    result = run_cli(vault, "explain", "Daily/2023-09-12", "what did I do last week")
    assert result.exit_code == 0, result.output
    assert "- the query names a period (last week), searched as words, not as dates: to keep only the notes dated " \
           "last week, add --since 'last week' and --until 'last week'" in result.stdout
    with Vault(vault) as opened:
        reasons = opened.explain("Daily/2023-09-12", "what did I do last week").reasons
        ranged = opened.explain("Daily/2023-09-12", "what did I do", since="last week", until="last week").reasons
    assert any("since 'last week' and until 'last week'" in reason for reason in reasons)
    assert not any("names a period" in reason for reason in ranged)


@pytest.mark.parametrize(("words", "told"), [
    (["last week"], "list takes no words: to list the notes dated last week, run "
                    "`vaultmem list --since 'last week' --until 'last week'`"),
    (["yesterday"], "run `vaultmem list --since yesterday --until yesterday`"),
    (["knee", "pain"], "list takes no words: to find notes by words, run `vaultmem search 'knee pain'`"),
])
def test_list_given_words_names_the_command_that_was_meant(tmp_path: Path, words: list[str], told: str) -> None:
    """Was: `vaultmem list "last week"` said only click's "Got unexpected extra argument (last week)"."""
    vault = daily_vault(tmp_path / "vault")
    result = run_cli(vault, "list", *words)
    assert result.exit_code == 2
    assert told in result.stderr
    assert not (vault / ".vaultmem").exists()  # refused before the vault is read


def test_no_hint_when_the_query_is_the_name_of_a_note_it_finds(tmp_path: Path) -> None:
    """Was (review, s38): "Yesterday" (a note on the Beatles' song) and "Last Week Tonight" asked by
    name were told to add --since/--until, which leave those undated notes out: an agent that
    follows recall's hint loses the very answer. A question holding the word still gets it."""
    vault = write_vault(tmp_path / "vault", {
        "Music/Yesterday.md": "A song by the Beatles, 1965.\n",
        "TV/Last Week Tonight.md": "HBO show with John Oliver.\n",
        "Daily/2023-09-12.md": "Dentist appointment at 9:30.\n",
    })
    with Vault(vault) as opened:
        for name, path in (("Yesterday", "Music/Yesterday.md"), ("last week tonight", "TV/Last Week Tonight.md")):
            asked = opened.search(name, k=2)
            assert asked[0].path == path
            assert not any("names a period" in warning for warning in asked.warnings), name
            assert not any("names a period" in reason for reason in opened.explain(path, name).reasons)
        assert any("names a period (yesterday)" in warning for warning in opened.search("what did I do yesterday", k=2).warnings)

    async def scenario() -> None:
        async with serve(vault, tmp_path / "mcp.log") as served:
            answer = await served.call("recall", query="Yesterday", k=2)
            assert answer["hits"][0]["path"] == "Music/Yesterday.md"
            assert not any("names a period" in warning for warning in answer["warnings"]), answer["warnings"]

    run(scenario)
