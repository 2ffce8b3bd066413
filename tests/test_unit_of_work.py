"""The one path every write to the vault's files takes: git check → act → index → commit.

A write command to come (``revise``) gets all four steps by opening a unit, so these
tests play such a command by hand on a real vault, a real index and a real git repo.
"""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from helpers import hold_commit_lock, vaultmem_process
from vaultmem import GitError, Vault
from vaultmem.errors import NoteWritten, WriteConflict
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


# ------------------------------------------------------------------ writers take turns (adr/0036)


def test_without_auto_commit_a_write_waits_for_another_process_holding_the_write_lock(vault: Vault) -> None:
    # Another vaultmem process (an MCP server's revise, say) is mid-write: this one must not
    # read the note until it is done. Before adr/0036 only auto_commit vaults took turns, and
    # this revise read and wrote at once beside the other process's write.
    holder = hold_commit_lock(vault.root, 5)  # past the 2 s after which a waiting write says so
    started = time.monotonic()
    try:
        writer = vaultmem_process(vault.root, "revise", "keeper.md", "--append", "The fog horn sounds at six.")
        waited = time.monotonic() - started
    finally:
        holder.wait(30)
    assert writer.returncode == 0, writer.stderr
    assert waited >= 4.5, "the revise did not wait for the process holding the write lock"
    assert "waiting for another vaultmem write" in writer.stderr
    assert "The fog horn sounds at six." in (vault.root / "keeper.md").read_text(encoding="utf-8")


def test_two_agents_appending_to_one_note_at_once_both_land_without_auto_commit(vault: Vault) -> None:
    # Two agents (Claude Desktop and Cursor: two processes, one Vault each, here two threads
    # with their own connections) append to one note at the same moment, 12 times. Before
    # adr/0036 both read the same bytes and the second swap found the first one's append:
    # WriteConflict "changed on disk since vaultmem read it" in about half the rounds (a trial:
    # 57 of 114 pairs), an append refused for another agent's append.
    rounds = 12
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def agent(name: str) -> None:
        with Vault(vault.root) as own:
            for number in range(rounds):
                start.wait(timeout=60)
                try:
                    own.revise("keeper.md", append=f"{name} adds fact {number}.")
                except Exception as error:  # every refusal is counted and shown below
                    failures.append(error)

    threads = [threading.Thread(target=agent, args=(name,)) for name in ("Desktop", "Cursor")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []
    text = (vault.root / "keeper.md").read_text(encoding="utf-8")
    missing = [f"{name} adds fact {number}." for name in ("Desktop", "Cursor") for number in range(rounds)
               if f"{name} adds fact {number}." not in text]
    assert missing == []


def test_a_second_revise_with_the_version_both_read_is_told_the_version_it_missed(vault: Vault) -> None:
    # Both agents read version v and revise with if_version=v at once: one lands, the other is
    # told the note is at another version now (re-read it), not that it "changed on disk" — which
    # an agent reads as a person's edit and re-runs blindly over the first agent's change.
    version = vault.get("keeper.md").version
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def agent(text: str) -> None:
        with Vault(vault.root) as own:
            start.wait(timeout=60)
            try:
                own.revise("keeper.md", text=text, if_version=version)
                outcomes.append("written")
            except WriteConflict as refused:
                outcomes.append(str(refused))

    for attempt in range(6):
        outcomes.clear()
        threads = [threading.Thread(target=agent, args=(f"Rewritten by {name}, round {attempt}.\n",)) for name in ("A", "B")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert sorted(outcomes)[-1] == "written" and len(outcomes) == 2
        refusal = sorted(outcomes)[0]
        assert f"not {version}: it changed since you read it" in refusal, refusal
        version = vault.get("keeper.md").version
