"""mcp_remote.RemotePaths: the server's paths said from the vault, for an agent on another machine.

Pure string work; the HTTP server that applies it to every answer, failure and progress message
is tested end to end in test_mcp_http.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from vaultmem.mcp_remote import RemotePaths


@pytest.fixture
def paths(tmp_path: Path) -> tuple[RemotePaths, Path]:
    root = tmp_path / "home" / "ana" / "Notes"
    root.mkdir(parents=True)
    return RemotePaths(root), root


def test_the_vault_root_is_the_vault_and_a_path_in_it_is_vault_relative(paths: tuple[RemotePaths, Path]) -> None:
    shown, root = paths
    assert shown.text(f"path '../x' starts with '../': it is outside the vault {str(root)!r}; send") == \
        "path '../x' starts with '../': it is outside the vault; send"
    assert shown.text(f"file system error in {root}: [Errno 13] Permission denied: '{root}/memories/a b.md'") == \
        "file system error in the vault: [Errno 13] Permission denied: 'memories/a b.md'"
    assert shown.text(f"set allow_hard_delete = true under [mcp] in {root / '.vaultmem.toml'}; without hard") == \
        "set allow_hard_delete = true under [mcp] in .vaultmem.toml; without hard"
    assert shown.text(f"the index of {root} is being built (3 of 9 notes read so far)") == \
        "the index of the vault is being built (3 of 9 notes read so far)"


def test_a_folder_above_the_vault_is_said_relative_to_it_and_a_sibling_is_not_taken_for_the_vault(
        paths: tuple[RemotePaths, Path]) -> None:
    shown, root = paths
    assert shown.text(f"fatal: cannot lock '{root.parent}/.git/index.lock'") == "fatal: cannot lock '../.git/index.lock'"
    assert shown.text(f"a copy in {root}2/x.md and {root}.bak/y.md") == "a copy in ../Notes2/x.md and ../Notes.bak/y.md"
    assert str(root.parent.parent) not in shown.text(f"{root.parent.parent}/bob and {root.parent.parent}")


def test_words_that_only_look_like_paths_are_left_as_they_are(paths: tuple[RemotePaths, Path]) -> None:
    shown, root = paths
    text = f"layer L1/working, memory://{root.parent.name}/x, https://example.com{root}/y"
    assert shown.text(text) == text


def test_an_answer_keeps_the_persons_text_byte_for_byte_and_says_its_own_messages_from_the_vault(
        paths: tuple[RemotePaths, Path]) -> None:
    """A note's body that names the folder is the person's text: rewritten, an agent that wrote it
    back would change the file."""
    shown, root = paths
    answer = {"body": f"My vault lives in {root}/memories.", "title": str(root), "hits": [{"snippet": str(root)}],
              "meta": {"message": f"{root}/a.md", "why": str(root)},
              "warnings": [f"the index of {root} is being built"],
              "problems": [{"path": "a.md", "message": f"{root}/a.md: bad date", "fix": f"edit {root}/a.md"}]}
    said = shown.answer(answer)
    assert said["body"] == answer["body"] and said["title"] == str(root) and said["hits"] == answer["hits"]
    assert said["meta"] == answer["meta"]  # frontmatter properties that happen to be called message or why
    assert said["warnings"] == ["the index of the vault is being built"]
    assert said["problems"] == [{"path": "a.md", "message": "a.md: bad date", "fix": "edit a.md"}]


def test_a_failed_calls_text_is_said_whole_and_an_answers_text_only_where_its_messages_are(paths: tuple[RemotePaths, Path]) -> None:
    shown, root = paths
    failed = shown.tool_result({"content": [{"type": "text", "text": f"no such file: {root}/x.md"}], "isError": True})
    assert failed["content"][0]["text"] == "no such file: x.md"
    structured = {"body": str(root), "notice": f"see {root}/y.md"}
    answered = shown.tool_result({"content": [{"type": "text", "text": json.dumps(structured, indent=2)}],
                                  "structuredContent": structured, "isError": False})
    assert answered["structuredContent"] == {"body": str(root), "notice": "see y.md"}
    assert json.loads(answered["content"][0]["text"]) == answered["structuredContent"]


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_a_vault_reached_through_a_symbolic_link_is_the_vault_by_either_path(tmp_path: Path) -> None:
    real = tmp_path / "disk" / "Notes"
    real.mkdir(parents=True)
    link = tmp_path / "Notes"
    os.symlink(real, link)
    shown = RemotePaths(link)
    assert shown.text(f"in {link}/a.md and {real}/b.md") == "in a.md and b.md"


def test_a_vault_named_through_a_folder_beside_it_is_still_the_vault(tmp_path: Path) -> None:
    # Was (review): `vaultmem --vault ../Notes mcp --http …` run in ~/work names the root
    # ~/work/../Notes (Vault.root keeps the '..'), which only the folder above matched: the
    # remote agent read "file system error in ../work/../Notes" and a fix in ../work/../Notes/.vaultmem.toml.
    (tmp_path / "work").mkdir()
    (tmp_path / "Notes").mkdir()
    given = tmp_path / "work" / ".." / "Notes"
    shown = RemotePaths(given)
    assert shown.text(f"file system error in {given}: [Errno 28] No space left on device: '{given}/a.md'") == \
        "file system error in the vault: [Errno 28] No space left on device: 'a.md'"
    assert shown.text(f"set allow_hard_delete = true under [mcp] in {given / '.vaultmem.toml'}; without hard") == \
        "set allow_hard_delete = true under [mcp] in .vaultmem.toml; without hard"
    assert shown.text(f"in {tmp_path / 'Notes'}/b.md") == "in b.md"  # as the disk spells it, still


def test_the_file_systems_root_is_still_refused_as_a_vault_to_serve() -> None:
    with pytest.raises(ValueError, match="is the file system's root"):
        RemotePaths(Path("/"))
