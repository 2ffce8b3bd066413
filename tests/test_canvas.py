"""Obsidian canvases read as notes (canvas.py, notes.parse_note, adr/0033 "Canvases"): the text of
their cards is searched and shown by ``get``; no note's write ever rewrites their JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli, write_vault
from vaultmem import ReadOnlyCanvas, Vault
from vaultmem.canvas import canvas_text

CONFIG = 'embedder = "hashing"\n'
NOW = "2026-11-30T12:00:00+00:00"
BOARD = json.dumps({
    "nodes": [
        {"id": "g1", "type": "group", "label": "Launch plan", "x": 0, "y": 0, "width": 600, "height": 400},
        {"id": "t1", "type": "text", "text": "Ask Priya about the **zeppelin** budget before Friday, see [[Pricing]]",
         "x": 10, "y": 10, "width": 200, "height": 100},
        {"id": "f1", "type": "file", "file": "Pricing.md", "x": 300, "y": 10, "width": 200, "height": 100},
        {"id": "l1", "type": "link", "url": "https://example.com/airships", "x": 300, "y": 200, "width": 200, "height": 100},
    ],
    "edges": [{"id": "e1", "fromNode": "t1", "toNode": "f1", "label": "blocked by the marmalade audit"}],
}, indent="\t")
PRICING = "# Pricing\n\nThe price list for the spring season.\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Pricing.md": PRICING,
                                            "boards/Launch.canvas": BOARD})


def test_a_canvas_reads_as_its_text_cards_group_labels_and_arrow_labels_in_file_order() -> None:
    text, broken = canvas_text(BOARD)
    assert broken is None
    assert text == ("Launch plan\n\nAsk Priya about the **zeppelin** budget before Friday, see [[Pricing]]\n\n"
                    "blocked by the marmalade audit")


def test_an_empty_canvas_file_is_an_empty_canvas_and_json_that_is_no_canvas_says_where_it_breaks() -> None:
    assert canvas_text("") == ("", None)
    assert canvas_text('{"nodes": [], "edges": []}') == ("", None)
    assert canvas_text('{"nodes": [{"type": "text", "text": "cut') == (
        "", "not a canvas's JSON: Unterminated string starting at line 1, column 37")
    assert canvas_text("[1, 2]")[1] == "not a canvas's JSON: a list where a canvas is an object with nodes and edges"
    assert canvas_text('{"nodes": {"a": 1}}')[1] == "not a canvas's JSON: its nodes are an object, not a list"


def test_search_finds_a_canvas_card_and_the_hit_names_the_canvas(vault: Path) -> None:
    with Vault(vault) as opened:
        card = opened.search("zeppelin budget", k=3, now=NOW)
        arrow = opened.search("marmalade audit", k=3, now=NOW)
    assert [(hit.path, hit.title) for hit in card][:1] == [("boards/Launch.canvas", "Launch.canvas")]
    assert arrow[0].path == "boards/Launch.canvas"
    assert "zeppelin" in card[0].snippet and '"nodes"' not in card[0].snippet


def test_get_shows_a_canvas_as_the_text_of_its_cards_by_its_name_with_canvas(vault: Path) -> None:
    with Vault(vault) as opened:
        shown = opened.get("Launch.canvas", now=NOW)
    assert shown.path == "boards/Launch.canvas" and shown.title == "Launch.canvas"
    assert "Ask Priya about the **zeppelin** budget" in shown.body and "Launch plan" in shown.body
    assert "https://example.com" not in shown.body and '"x"' not in shown.body


def test_revise_forget_and_supersede_refuse_a_canvas_by_name_and_leave_its_json_as_it_was(vault: Path) -> None:
    canvas = vault / "boards/Launch.canvas"
    with Vault(vault) as opened:
        opened.index()
        for write in (lambda: opened.revise("boards/Launch.canvas", append="more", now=NOW),
                      lambda: opened.revise("Launch.canvas", add_tags=["plan"], now=NOW),
                      lambda: opened.forget("boards/Launch.canvas"),
                      lambda: opened.forget("boards/Launch.canvas", hard=True),
                      lambda: opened.remember("the budget is agreed", supersedes=["boards/Launch.canvas"], now=NOW)):
            with pytest.raises(ReadOnlyCanvas, match=r"boards/Launch\.canvas is an Obsidian canvas.*nothing was written"):
                write()
    assert canvas.read_text(encoding="utf-8") == BOARD
    assert sorted(path.name for path in vault.rglob("*") if path.is_file() and ".vaultmem" not in path.parts) == [
        ".vaultmem.toml", "Launch.canvas", "Pricing.md"]


def test_the_cli_refuses_forget_of_a_canvas_with_its_name_and_exit_1(vault: Path) -> None:
    result = run_cli(vault, "forget", "boards/Launch.canvas")
    assert result.exit_code == 1
    assert "boards/Launch.canvas is an Obsidian canvas" in result.stderr
    assert (vault / "boards/Launch.canvas").read_text(encoding="utf-8") == BOARD


def test_a_canvas_named_like_a_note_leaves_the_note_its_bare_name(vault: Path) -> None:
    (vault / "Launch.md").write_text("The launch note.\n", encoding="utf-8")
    with Vault(vault) as opened:
        revised = opened.revise("Launch", append="Agreed on Friday.", now=NOW)
    assert revised.path == "Launch.md"
    assert (vault / "boards/Launch.canvas").read_text(encoding="utf-8") == BOARD


def test_consolidate_never_merges_a_canvas_into_a_note_with_its_text_and_says_why(tmp_path: Path) -> None:
    words = "the blue harbor pump needs new seals every spring before the boats return"
    canvas = json.dumps({"nodes": [{"id": "t", "type": "text", "text": words}], "edges": []})
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "pump.md": words + "\n", "board.canvas": canvas})
    with Vault(root) as opened:
        report = opened.consolidate(all=True, apply=True, any_note=True, now=NOW)
    assert report.merged == [] and (root / "board.canvas").read_text(encoding="utf-8") == canvas
    reasons = {item.path: item.reason for item in report.plan.left_out}
    assert "Obsidian canvas" in reasons["board.canvas"]


def test_a_broken_canvas_is_a_problem_check_names_with_its_fix(vault: Path) -> None:
    (vault / "boards/Cut.canvas").write_text('{"nodes": [{"id": "t", "type": "text", "text": "half', encoding="utf-8")
    result = run_cli(vault, "check")
    assert result.exit_code == 1
    assert "boards/Cut.canvas: canvas: not a canvas's JSON: Unterminated string starting at line 1, column 48" in result.stdout
    assert "repair its JSON" in result.stdout
    with Vault(vault) as opened:
        assert opened.search("zeppelin", k=1, now=NOW)[0].path == "boards/Launch.canvas"  # the others still read


def test_half_an_emoji_escaped_in_a_canvas_card_reads_as_a_replacement_character(tmp_path: Path) -> None:
    canvas = '{"nodes":[{"id":"t","type":"text","text":"\\ud83d lighthouse keepers \\ud83d\\ude00"}]}'
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "half.canvas": canvas})
    with Vault(root) as opened:
        hits = opened.search("lighthouse keepers", k=1, now=NOW)
        body = opened.get("half.canvas").body
    assert hits[0].path == "half.canvas" and "\ufffd lighthouse keepers \U0001f600" in body


def test_a_canvas_holding_a_number_too_long_for_python_is_a_problem_not_a_crash_of_the_index(tmp_path: Path) -> None:
    """json.loads raises a bare ValueError (no JSONDecodeError) for an integer past Python's
    4,300-digit limit: one such canvas made `vaultmem index` crash for the whole vault."""
    huge = '{"nodes": [{"id": "1", "type": "text", "text": "rhubarb"}], "x": ' + "1" * 5000 + "}"
    assert canvas_text(huge)[1] is not None and "4300 digits" in (canvas_text(huge)[1] or "")
    root = write_vault(tmp_path / "vault", {".vaultmem.toml": CONFIG, "Pricing.md": PRICING, "Huge.canvas": huge})
    with Vault(root) as opened:
        assert [hit.path for hit in opened.search("spring season price", k=3, now=NOW)][:1] == ["Pricing.md"]
    result = run_cli(root, "check")
    assert "Huge.canvas: canvas: not a canvas's JSON vaultmem can read" in result.output, result.output
