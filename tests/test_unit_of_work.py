"""The one path every write to the vault's files takes: git check → act → index → commit.

A write command to come (``revise``) gets all four steps by opening a unit, so these
tests play such a command by hand on a real vault, a real index and a real git repo.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from vaultmem import GitError, Vault
from vaultmem.errors import NoteWritten
from vaultmem.noteio import FileChange, replace_if_unchanged
from vaultmem.notes import content_hash
from vaultmem.unit_of_work import WritePath

NOTE = "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe lighthouse keeper logs the weather at dawn.\n"


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def vault(vault_dir: Path) -> Vault:
    (vault_dir / "keeper.md").write_text(NOTE, encoding="utf-8")
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    opened = Vault(vault_dir)
    opened.index()
    return opened


def make_repo(root: Path) -> None:
    git(root, "init", "-q")
    git(root, "config", "user.email", "maya@example.com")
    git(root, "config", "user.name", "Maya")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")


def test_the_act_never_runs_when_auto_commit_cannot_work(vault: Vault) -> None:
    acted = []
    with pytest.raises(GitError, match="not a git repository.*nothing was changed"):
        with WritePath(vault.root, True, vault.derived.sync).begin("revise"):
            acted.append(True)
    assert acted == []


def test_what_the_act_touched_is_indexed_and_committed_alone(vault: Vault) -> None:
    make_repo(vault.root)
    (vault.root / "unrelated.md").write_text("a person's own edit, not committed\n", encoding="utf-8")
    with WritePath(vault.root, True, vault.derived.sync).begin("revise") as write:
        keeper = vault.root / "keeper.md"
        write.record(replace_if_unchanged(keeper, NOTE.replace("weather", "tides").encode(), content_hash(NOTE.encode()),
                                          "keeper.md", vault.root))
    assert write.commit is not None
    assert git(vault.root, "show", "--name-only", "--format=%s", "HEAD").split() == ["vaultmem", "revise", "keeper.md"]
    assert "unrelated.md" in git(vault.root, "status", "--porcelain")
    assert [hit.path for hit in vault.search("tides", k=1)] == ["keeper.md"]


def test_a_write_that_fails_half_way_is_indexed_as_it_is_and_not_committed(vault: Vault) -> None:
    make_repo(vault.root)
    head = git(vault.root, "rev-parse", "HEAD")
    with pytest.raises(NoteWritten) as raised:
        with WritePath(vault.root, True, vault.derived.sync).begin("revise") as write:
            (vault.root / "keeper.md").unlink()
            write.record(FileChange("keeper.md", NOTE.encode(), None))
            raise OSError("disk full")
    # The failure names what had changed already, so a retry does not do it twice.
    assert raised.value.paths == ["keeper.md"] and isinstance(raised.value.cause, OSError)
    assert "keeper.md" in str(raised.value) and "disk full" in str(raised.value)
    assert write.commit is None and git(vault.root, "rev-parse", "HEAD") == head
    assert vault.store.notes.by_path("keeper.md") is None  # the index follows the disk


def test_without_auto_commit_nothing_is_committed_and_the_index_still_follows(vault: Vault) -> None:
    with WritePath(vault.root, False, vault.derived.sync).begin("revise") as write:
        (vault.root / "second.md").write_text(NOTE.replace("lighthouse", "harbour"), encoding="utf-8")
        write.record(FileChange("second.md", None, NOTE.replace("lighthouse", "harbour").encode()))
        write.message = "vaultmem revise: second"
    assert write.commit is None
    assert vault.store.notes.by_path("second.md") is not None
