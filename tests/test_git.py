"""history and auto-commit, against a real git repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from vaultmem import GitError, Vault

NOW = "2026-11-30T12:00:00+00:00"


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.fixture
def repo(vault_dir: Path, write_note) -> Path:
    git(vault_dir, "init", "-q")
    git(vault_dir, "config", "user.email", "maya@example.com")
    git(vault_dir, "config", "user.name", "Maya")
    write_note("people/rui.md", "---\ntitle: Rui\nlayer: L3\nexpires_at: 2027-01-01\n---\nRui likes jazz.\n")
    write_note("mine.md", "# Maya's own note\n")
    commit_all(vault_dir, "first")
    return vault_dir


def auto_commit_on(root: Path) -> None:
    (root / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")


def test_history_lists_commits_newest_first_following_renames(repo: Path) -> None:
    note = repo / "people/rui.md"
    note.write_text(note.read_text() + "Rui also likes fado.\n")
    commit_all(repo, "second: fado")
    git(repo, "mv", "people/rui.md", "people/rui-mendes.md")
    commit_all(repo, "third: rename")
    commits = Vault(repo).history("people/rui-mendes")
    assert [commit.message for commit in commits] == ["third: rename", "second: fado", "first"]
    assert all(commit.author == "Maya <maya@example.com>" and len(commit.hash) == 40 for commit in commits)


def test_history_json_fields(repo: Path) -> None:
    result = run_cli(repo, "history", "people/rui.md", "--json")
    assert result.exit_code == 0
    assert set(json.loads(result.stdout)[0]) == {"hash", "date", "author", "message"}


def test_history_outside_git_is_a_clear_error_exit_1(vault_dir: Path, write_note) -> None:
    write_note("a.md", "# A\n")
    result = run_cli(vault_dir, "history", "a")
    assert result.exit_code == 1
    assert "not a git repository" in result.stderr and "Traceback" not in result.stderr
    with pytest.raises(GitError):
        Vault(vault_dir).history("a")


def test_history_of_a_deleted_note_still_shows_its_commits(repo: Path) -> None:
    (repo / "mine.md").unlink()
    commit_all(repo, "remove mine")
    assert [commit.message for commit in Vault(repo).history("mine.md")] == ["remove mine", "first"]


def test_auto_commit_is_off_by_default(repo: Path) -> None:
    Vault(repo).remember("Rui's birthday dinner at Taberna", layer="L2", now=NOW)
    assert git(repo, "log", "--oneline").count("\n") == 1


def test_auto_commit_commits_only_what_vaultmem_touched(repo: Path) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    (repo / "mine.md").write_text("# Maya's own note\nan uncommitted edit\n")
    (repo / "staged.md").write_text("# staged by Maya\n")
    git(repo, "add", "staged.md")
    result = Vault(repo).remember("Rui's birthday dinner at Taberna", layer="L2", now=NOW)
    assert result.commit is not None
    changed = git(repo, "show", "--name-only", "--format=%s", "HEAD").split()
    assert result.path.split("/")[-1] in " ".join(changed)
    assert "mine.md" not in changed and "staged.md" not in changed
    status = git(repo, "status", "--porcelain")
    assert " M mine.md" in status and "A  staged.md" in status  # still uncommitted / still staged


def test_auto_commit_of_forget_records_the_move(repo: Path) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    vault = Vault(repo)
    vault.index()
    vault.forget("people/rui")
    changed = git(repo, "show", "--name-status", "--format=%s", "HEAD")
    assert "vaultmem forget" in changed
    assert "people/rui.md" in changed and "_archive/people/rui.md" in changed
    assert git(repo, "status", "--porcelain") == ""


def test_auto_commit_of_expire_apply(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    write_note("scratch/old.md", "---\nlayer: L1\nexpires_at: 2026-11-01\n---\nold scratch\n", root=repo)
    commit_all(repo, "config and scratch")
    report = Vault(repo).expire(apply=True, now=NOW)
    assert report.commit is not None
    assert "vaultmem expire" in git(repo, "log", "-1", "--format=%s")
    assert git(repo, "status", "--porcelain") == ""


def test_auto_commit_of_check_fix(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    write_note("l2.md", "---\nlayer: L2\ncreated: 2026-11-29T00:00:00Z\n---\nno deadline\n", root=repo)
    commit_all(repo, "config and l2")
    report = Vault(repo).check(fix=True, now=NOW)
    assert report.commit is not None
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["l2.md"]


def test_auto_commit_on_outside_git_refuses_before_writing(vault_dir: Path) -> None:
    auto_commit_on(vault_dir)
    with pytest.raises(GitError, match="not a git repository"):
        Vault(vault_dir).remember("x", now=NOW)
    assert not (vault_dir / "memories").exists()
