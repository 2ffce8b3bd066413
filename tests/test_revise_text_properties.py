"""``revise --set`` / MCP ``set_properties`` of a property the note writes in its text
(``speaker:: Caroline`` under a block, Dataview's ``[rating:: 4]``; inline_fields.py): changed on
its line when the text alone writes it, once; named with its line when the frontmatter holds the
key too; refused when the text writes it on several lines, or for ``--unset`` (adr/0019, "A
property written in the text"). Was: ``speaker: Ana`` went into the frontmatter, the text kept
``speaker:: Caroline`` and search read both. Real files, a real index, the CLI and the real MCP
client over stdio.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from helpers import git, init_repo, run_cli, write_vault
from mcp_client import run, serve

CALL = "---\nlayer: L3\n---\n# Call with Caroline\n\n- We should plant the tomatoes\n  speaker:: Caroline\n"
BOTH = "---\nspeaker: Melanie\n---\n# Garden call\n\n- plant the tomatoes\n  speaker:: Caroline\n"


def indexed_props(root: Path) -> list[str]:
    database = sqlite3.connect(root / ".vaultmem" / "index.db")
    props = [row[0] for row in database.execute("SELECT DISTINCT props FROM passages_fts WHERE props != ''")]
    database.close()
    return props


def test_set_of_a_property_written_only_in_the_text_changes_it_on_its_line(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"call.md": CALL})
    result = run_cli(root, "revise", "call.md", "--set", "speaker=Ana")
    assert result.exit_code == 0, result.output
    # The value on its line, every other byte as it was: no `speaker: Ana` in the frontmatter beside it.
    assert (root / "call.md").read_text(encoding="utf-8") == CALL.replace("speaker:: Caroline", "speaker:: Ana")
    assert "changed on its line 7, which reads 'speaker:: Ana'" in result.stdout
    assert indexed_props(root) == ["speaker: Ana"]  # search reads one value: Caroline is gone


def test_set_of_a_property_in_the_frontmatter_and_the_text_names_the_line_left_and_how_to_change_it(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"garden.md": BOTH})
    result = run_cli(root, "revise", "garden.md", "--set", "speaker=Ana", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    # The frontmatter holds the property: set there, as before; the person's line in the text is theirs.
    assert (root / "garden.md").read_text(encoding="utf-8") == BOTH.replace("speaker: Melanie", "speaker: Ana")
    [left] = answer["in_text"]
    assert {key: left[key] for key in ("key", "line", "written", "changed")} == {
        "key": "speaker", "line": 7, "written": "speaker:: Caroline", "changed": False}
    assert "at line 7" in left["notice"] and "read it as a value of the note's speaker too" in left["notice"]
    assert "change or remove that line" in left["notice"]
    words = run_cli(root, "revise", "garden.md", "--set", "speaker=Ana")  # already so: the line is still named
    assert "nothing changed" in words.stdout and "! the text still says 'speaker:: Caroline' at line 7" in words.stdout


def test_set_of_a_property_the_text_writes_on_several_lines_is_refused_naming_them(tmp_path: Path) -> None:
    text = "- plant the tomatoes\n  speaker:: Caroline\n- the garden opens in April\n  speaker:: Melanie\n"
    root = write_vault(tmp_path / "vault", {"journal.md": text})
    result = run_cli(root, "revise", "journal.md", "--set", "speaker=Ana")
    assert result.exit_code == 2
    assert "line 2: 'speaker:: Caroline', line 4: 'speaker:: Melanie'" in result.stderr
    assert "nothing was changed" in result.stderr
    assert (root / "journal.md").read_text(encoding="utf-8") == text


def test_unset_of_a_property_written_only_in_the_text_is_refused_naming_its_line(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"call.md": CALL})
    result = run_cli(root, "revise", "call.md", "--unset", "speaker")
    assert result.exit_code == 2
    # Was "call.md has no such property": it has, in its text.
    assert "writes it only in its text (line 7: 'speaker:: Caroline')" in result.stderr and "--text" in result.stderr
    assert (root / "call.md").read_text(encoding="utf-8") == CALL


def test_dataview_fields_in_a_sentence_are_changed_in_place_in_a_crlf_note(tmp_path: Path) -> None:
    text = "# Films\r\n\r\nA bathhouse for spirits. [rating:: 4] (mood:: calm)\r\nDirector:: Hayao Miyazaki\r\n"
    root = tmp_path / "vault"
    root.mkdir()
    (root / "films.md").write_bytes(text.encode("utf-8"))
    result = run_cli(root, "revise", "films.md", "--set", "rating=5", "--set", "mood=wistful", "--set", "director=[Goro, Hayao]")
    assert result.exit_code == 0, result.output
    assert (root / "films.md").read_bytes() == (
        b"# Films\r\n\r\nA bathhouse for spirits. [rating:: 5] (mood:: wistful)\r\nDirector:: Goro, Hayao\r\n")
    refused = run_cli(root, "revise", "films.md", "--set", "rating=5] [mood:: x")  # would end the field early
    assert refused.exit_code == 2 and "nothing was changed" in refused.stderr
    assert b"[rating:: 5]" in (root / "films.md").read_bytes()


def test_a_field_in_code_is_no_property_and_a_date_key_stays_the_frontmatters(tmp_path: Path) -> None:
    text = "# Notes\n\n```\nspeaker:: Caroline\n```\n\ndate:: 2026-11-02\n"
    root = write_vault(tmp_path / "vault", {"notes.md": text})
    result = run_cli(root, "revise", "notes.md", "--set", "speaker=Ana", "--set", "date=2026-11-03", "--json")
    assert result.exit_code == 0, result.output
    written = (root / "notes.md").read_text(encoding="utf-8")
    # The note's date is read from its frontmatter (dating.py): set there; the text's day is named.
    assert written.startswith("---\nspeaker: Ana\ndate: 2026-11-03\n---\n") and written.endswith(text)
    assert [(item["key"], item["line"], item["changed"]) for item in json.loads(result.stdout)["in_text"]] == [("date", 11, False)]


def test_a_logseq_blocks_property_is_changed_on_its_line_and_a_page_property_on_the_pages(tmp_path: Path) -> None:
    page = "type:: book\nauthor:: Octavia E. Butler\n\n- Dana pulled back in time\n  mood:: grim\n"
    root = write_vault(tmp_path / "graph", {"logseq/config.edn": "{:meta/version 1}\n", "pages/Kindred.md": page})
    result = run_cli(root, "revise", "pages/Kindred.md", "--set", "author=Jemisin", "--set", "mood=hopeful")
    assert result.exit_code == 0, result.output
    assert (root / "pages/Kindred.md").read_text(encoding="utf-8") == (
        "type:: book\nauthor:: Jemisin\n\n- Dana pulled back in time\n  mood:: hopeful\n")


def test_the_commit_says_the_value_changed_in_the_text(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"call.md": CALL})
    init_repo(root)
    git(root, "add", "call.md")
    git(root, "commit", "-qm", "first")
    (root / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    result = run_cli(root, "revise", "call.md", "--set", "speaker=Ana")
    assert result.exit_code == 0, result.output
    message = git(root, "log", "-1", "--format=%B")
    assert "speaker: 'Caroline' → 'Ana' (written in the text, line 7)" in message


def test_revise_over_mcp_changes_the_text_line_and_names_the_line_it_leaves(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"call.md": CALL, "garden.md": BOTH})

    async def scenario() -> None:
        async with serve(root, tmp_path / "server.log") as served:
            changed = await served.call("revise", note="call.md", set_properties={"speaker": "Ana"})
            assert changed["changed"] == ["speaker"]
            assert [(item["line"], item["written"], item["changed"]) for item in changed["in_text"]] == [
                (7, "speaker:: Ana", True)]
            left = await served.call("revise", note="garden.md", set_properties={"speaker": "Ana"})
            assert [(item["line"], item["written"], item["changed"]) for item in left["in_text"]] == [
                (7, "speaker:: Caroline", False)]
            assert "change or remove that line in the note's text" in left["in_text"][0]["notice"]
            refused = await served.error("revise", note="call.md", unset_properties=["speaker"])
            assert "writes it only in its text (line 7: 'speaker:: Ana')" in refused

    run(scenario)
    assert (root / "call.md").read_text(encoding="utf-8") == CALL.replace("speaker:: Caroline", "speaker:: Ana")
