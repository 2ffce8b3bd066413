"""A forget undone by the person's own git — the note live again and archived too — is said by
``check`` and ``index``, and ``get``/``search`` answer the live note only (archived_twins.py,
adr/0009): real git, real vaultmem commands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import git, init_repo, run_cli, run_json
from mcp_client import run, serve

SETTINGS = 'embedder = "hashing"\nauto_commit = true\n'
DOOR = "The garden shed door code is 4471."


def twin_problems(vault: Path, command: str = "check") -> list[dict[str, str]]:
    result = run_cli(vault, command, "--json")
    return [problem for problem in json.loads(result.stdout)["problems"]
            if problem["field"] == "archive" and "back in the vault" in problem["message"]]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    init_repo(root)
    (root / ".vaultmem.toml").write_text(SETTINGS, encoding="utf-8")
    (root / ".gitignore").write_text(".vaultmem/\n", encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    git(root, "branch", "-M", "main")
    return root


def remember_door(vault: Path) -> str:
    made = run_json(vault, "remember", DOOR, "--title", "Door code", "--layer", "L3")
    assert made["path"] == "memories/door-code.md"  # type: ignore[index]
    return str(made["id"])  # type: ignore[index]


def forget_undone_by_a_merge(vault: Path) -> str:
    """The note committed; a branch moves it to projects/ (Obsidian's move); vaultmem forgets it
    on main; the person merges the branch — git's rename/rename conflict leaves both files —
    and commits everything (Obsidian Git's "commit all"). Returns the note's id."""
    ident = remember_door(vault)
    git(vault, "checkout", "-qb", "tidy")
    (vault / "projects").mkdir()
    git(vault, "mv", "memories/door-code.md", "projects/door-code.md")
    git(vault, "commit", "-qm", "door code to projects")
    git(vault, "checkout", "-q", "main")
    assert run_cli(vault, "forget", "memories/door-code.md").exit_code == 0
    merged = subprocess_run_git(vault, "merge", "tidy", "-m", "merge tidy")
    assert "CONFLICT (rename/rename)" in merged  # the premise: git leaves both
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", "merge tidy")
    assert (vault / "projects" / "door-code.md").is_file()
    assert (vault / "_archive" / "memories" / "door-code.md").is_file()
    return ident


def subprocess_run_git(root: Path, *args: str) -> str:
    """``git *args`` that may fail (a merge that stops on a conflict): its output."""
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    return done.stdout + done.stderr


def test_a_forget_undone_by_merging_a_branch_is_said_by_check_with_both_paths_and_the_fix(vault: Path) -> None:
    """Was: check said "0 problem(s)" while the forgotten door code was recalled again."""
    ident = forget_undone_by_a_merge(vault)
    result = run_cli(vault, "check", "--json")
    assert result.exit_code == 1
    found = twin_problems(vault)
    assert len(found) == 1
    problem = found[0]
    assert problem["path"] == "projects/door-code.md"
    assert "_archive/memories/door-code.md is this note archived" in problem["message"]
    assert f"both hold id {ident!r}" in problem["message"]
    assert "this file is the live one (search, recall and get answer with it)" in problem["message"]
    assert "forget it again (`vaultmem forget projects/door-code.md`" in problem["fix"]
    assert "`git rm _archive/memories/door-code.md`" in problem["fix"]


def test_index_says_it_too(vault: Path) -> None:
    forget_undone_by_a_merge(vault)
    assert [problem["path"] for problem in twin_problems(vault, "index")] == ["projects/door-code.md"]
    shown = run_cli(vault, "index").stdout
    assert "projects/door-code.md: archive: forgotten, yet back in the vault" in shown


def test_get_and_search_answer_the_live_note_and_its_old_path_says_where_it_lives(vault: Path) -> None:
    """Was: `get memories/door-code` said "move it out of _archive/ to make it a note again" —
    a second live copy of a note that is live already."""
    ident = forget_undone_by_a_merge(vault)
    hits = run_json(vault, "search", "garden shed door code")
    assert [hit["path"] for hit in hits] == ["projects/door-code.md"]  # type: ignore[index]
    assert run_json(vault, "get", ident)["path"] == "projects/door-code.md"  # type: ignore[index]
    old = run_cli(vault, "get", "memories/door-code")
    assert old.exit_code == 1
    assert "the same note (its id) is back in the vault at projects/door-code.md" in old.stderr
    assert "to make it a note again" not in old.stderr


def test_the_archived_copy_read_by_its_path_names_the_live_note_not_a_way_to_make_a_second(vault: Path) -> None:
    """Was: its ARCHIVED notice said "to make it a note again, the person moves it out of the
    archive folder": a second live note with the same id."""
    forget_undone_by_a_merge(vault)
    assert run_json(vault, "get", "_archive/memories/door-code.md")["live_at"] == "projects/door-code.md"  # type: ignore[index]
    shown = run_cli(vault, "get", "_archive/memories/door-code.md").stdout
    assert "the same note (its id) is back in the vault at projects/door-code.md" in shown
    assert "to make it a note again" not in shown
    assert "live_at" not in run_json(vault, "get", "projects/door-code.md")  # type: ignore[operator]


def test_forgetting_it_again_clears_the_problem(vault: Path) -> None:
    forget_undone_by_a_merge(vault)
    assert run_cli(vault, "forget", "projects/door-code.md").exit_code == 0
    assert twin_problems(vault) == []
    assert run_json(vault, "search", "garden shed door code") == []


def test_deleting_the_archived_copy_as_the_fix_says_keeps_the_note_and_clears_the_problem(vault: Path) -> None:
    forget_undone_by_a_merge(vault)
    git(vault, "rm", "-q", "_archive/memories/door-code.md")
    assert twin_problems(vault) == []
    assert run_json(vault, "get", "projects/door-code.md")["body"].strip() == DOOR  # type: ignore[index]


def test_a_note_without_an_id_restored_after_an_uncommitted_forget_is_said(vault: Path) -> None:
    """auto_commit off: forget moves the file, then the person's "discard all changes" (a
    checkout of the note) brings it back beside its archived copy, byte for byte."""
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\nauto_commit = false\n', encoding="utf-8")
    (vault / "milk.md").write_text("---\nlayer: L4\n---\nOat milk, never dairy.\n", encoding="utf-8")
    git(vault, "add", ".")
    git(vault, "commit", "-qm", "milk")
    assert run_cli(vault, "forget", "milk.md").exit_code == 0
    git(vault, "checkout", "--", "milk.md")
    found = twin_problems(vault)
    assert [problem["path"] for problem in found] == ["milk.md"]
    assert "the same bytes at the path it was archived from" in found[0]["message"]


def test_a_new_note_written_at_a_forgotten_notes_name_is_no_problem(vault: Path) -> None:
    """A note without an id went by its path: a new one at that path with other words is a note
    of its own, not the forgotten one back."""
    (vault / "milk.md").write_text("---\nlayer: L4\n---\nOat milk, never dairy.\n", encoding="utf-8")
    git(vault, "add", ".")
    git(vault, "commit", "-qm", "milk")
    assert run_cli(vault, "forget", "milk.md").exit_code == 0
    (vault / "milk.md").write_text("---\nlayer: L4\n---\nSoy milk now.\n", encoding="utf-8")
    assert twin_problems(vault) == []


def test_the_mcp_check_tool_says_it_and_names_the_forget_tool(vault: Path, tmp_path: Path) -> None:
    forget_undone_by_a_merge(vault)

    async def scenario() -> None:
        async with serve(vault, tmp_path / "mcp.log") as served:
            found = [problem for problem in (await served.call("check"))["problems"]
                     if problem["field"] == "archive" and "back in the vault" in problem["message"]]
            assert [problem["path"] for problem in found] == ["projects/door-code.md"]
            assert "the forget tool with note='projects/door-code.md'" in found[0]["fix"]
            assert "ask the person to delete the archived copy _archive/memories/door-code.md" in found[0]["fix"]
            hits = (await served.call("recall", query="garden shed door code"))["hits"]
            assert [hit["path"] for hit in hits] == ["projects/door-code.md"]

    run(scenario)
