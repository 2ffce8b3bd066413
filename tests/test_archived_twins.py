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


def test_a_note_without_an_id_that_quotes_an_id_line_in_its_body_is_said_too(vault: Path) -> None:
    """Was: a line `id: 5` in the body (a YAML example) was read as the archived file's id, so
    the restored note, holding no id 5 in its frontmatter, was no twin."""
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\nauto_commit = false\n', encoding="utf-8")
    (vault / "api.md").write_text("---\nlayer: L4\n---\nA user record reads:\n\nid: 5\nname: Ana\n", encoding="utf-8")
    git(vault, "add", ".")
    git(vault, "commit", "-qm", "api")
    assert run_cli(vault, "forget", "api.md").exit_code == 0
    git(vault, "checkout", "--", "api.md")
    assert [problem["path"] for problem in twin_problems(vault)] == ["api.md"]


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


def forget_undone_by_merging_a_rename(vault: Path, renamed: str, edit: str = "") -> str:
    """As :func:`forget_undone_by_a_merge`, the branch renaming the note to ``renamed`` (Obsidian's
    rename) and, with ``edit``, appending it: git's rename/rename conflict writes the merged
    text into both files, the archived copy too."""
    ident = remember_door(vault)
    git(vault, "checkout", "-qb", "tidy")
    (vault / renamed).parent.mkdir(parents=True, exist_ok=True)
    git(vault, "mv", "memories/door-code.md", renamed)
    if edit:
        with (vault / renamed).open("a", encoding="utf-8") as file:
            file.write(edit)
    git(vault, "commit", "-qam", "door code renamed")
    git(vault, "checkout", "-q", "main")
    assert run_cli(vault, "forget", "memories/door-code.md").exit_code == 0
    assert "CONFLICT (rename/rename)" in subprocess_run_git(vault, "merge", "tidy", "-m", "merge tidy")
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", "merge tidy")
    assert (vault / renamed).is_file() and (vault / "_archive" / "memories" / "door-code.md").is_file()
    return ident


@pytest.mark.parametrize("renamed", ["projects/door-code.md", "projects/Garden door.md"])
def test_a_forget_undone_by_merging_an_edit_is_one_twin_problem_never_a_move_back(vault: Path, renamed: str) -> None:
    """Was (a review, s37): the branch's edit, merged into the archived copy too, made check say
    "changed since ... put it in the archive", fixed by `git mv` of the copy back to
    memories/door-code.md — a second live note with the door code's id; and a note renamed on
    the branch (`Garden door.md`) was no twin at all, as only archived files of a live note's
    name were read."""
    ident = forget_undone_by_merging_a_rename(vault, renamed, "The code changes in March.\n")
    for command in ("check", "index"):
        problems = json.loads(run_cli(vault, command, "--json").stdout)["problems"]
        archive = [problem for problem in problems if problem["field"] == "archive"]
        assert [problem["path"] for problem in archive] == [renamed], (command, archive)
        assert f"both hold id {ident!r}" in archive[0]["message"]
        assert "git mv" not in json.dumps(problems)


def test_check_finds_a_note_brought_back_under_another_name_index_one_in_another_case(vault: Path) -> None:
    """Was: a note the branch renamed came back beside its archived copy unsaid: only archived
    files of a live note's file name, in its very case, were read. check reads the archive
    whole; index by name, in any case (as step 2 compares file names) — and a renamed one
    without an edit only check finds, as the docstring says."""
    forget_undone_by_merging_a_rename(vault, "projects/Door-Code.md")
    assert [problem["path"] for problem in twin_problems(vault, "index")] == ["projects/Door-Code.md"]
    assert [problem["path"] for problem in twin_problems(vault, "check")] == ["projects/Door-Code.md"]


def test_check_finds_a_note_renamed_back_without_an_edit(vault: Path) -> None:
    forget_undone_by_merging_a_rename(vault, "projects/Garden door.md")
    assert [problem["path"] for problem in twin_problems(vault, "check")] == ["projects/Garden door.md"]
    assert twin_problems(vault, "index") == []  # by name only: an index does not read the archive whole


def test_twins_that_differ_say_so_and_how_to_compare_before_the_copy_is_deleted(vault: Path) -> None:
    """An edit, a forget (auto_commit off), then "discard all changes": the note is back as
    last committed, its archived copy holds the edit. Was: "to keep it, delete the archived
    copy" — the edit with it."""
    remember_door(vault)
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\nauto_commit = false\n', encoding="utf-8")
    with (vault / "memories" / "door-code.md").open("a", encoding="utf-8") as file:
        file.write("The code changes in March.\n")
    assert run_cli(vault, "index").exit_code == 0
    assert run_cli(vault, "forget", "memories/door-code.md").exit_code == 0
    git(vault, "checkout", "--", "memories/door-code.md")
    found = twin_problems(vault)
    assert [problem["path"] for problem in found] == ["memories/door-code.md"]
    assert "the two differ: the archived copy may hold words the live note lacks" in found[0]["message"]
    assert ("keep what you want of the archived copy in memories/door-code.md (`git diff --no-index -- "
            "_archive/memories/door-code.md memories/door-code.md` shows how), then delete the archived copy") in found[0]["fix"]


def test_get_of_the_live_note_says_it_is_archived_too(vault: Path, tmp_path: Path) -> None:
    """Was: `get projects/door-code.md` showed the note without a word of its forget — an agent
    took a note the person forgot for one they keep; only check and index said it."""
    forget_undone_by_a_merge(vault)
    shown = run_json(vault, "get", "projects/door-code.md")
    found = [problem for problem in shown["problems"] if problem["field"] == "archive"]  # type: ignore[index]
    assert len(found) == 1 and "_archive/memories/door-code.md is this note archived" in found[0]["message"]
    assert "`vaultmem forget projects/door-code.md`" in found[0]["fix"]
    assert run_json(vault, "get", "_archive/memories/door-code.md")["problems"] == []  # type: ignore[index]

    async def scenario() -> None:
        async with serve(vault, tmp_path / "mcp.log") as served:
            problems = (await served.call("get", note="projects/door-code.md"))["problems"]
            assert [problem["path"] for problem in problems if problem["field"] == "archive"] == ["projects/door-code.md"]
            assert "the forget tool with note='projects/door-code.md'" in problems[0]["fix"]

    run(scenario)
