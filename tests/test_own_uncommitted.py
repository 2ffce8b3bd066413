"""A note vaultmem wrote while git could not take a commit (a pull stopped on a conflict, a
detached HEAD) is committed by vaultmem's next commit once git can take one (adr/0017, addendum
"vaultmem's own notes left out of a commit").

A trial (two agents sharing one vault for a week, one over HTTP, one over stdio): agent B
remembered a dentist appointment while the person's `git pull` stood on a conflict in a daily
note. The answer said `not_committed` (right: a commit then would have been undone by the
merge's). The person finished the merge; the memory then stayed out of git for good — every
later `revise` of it said "git never tracked it, so a commit would hold the whole file, not only
vaultmem's change" (the whole file *was* vaultmem's change), `forget` said "vaultmem does not
commit a file it did not write", and the laptop that pulls the vault never got the memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO, git, init_repo
from mcp_client import run, serve
from vaultmem import Vault

NOW = "2026-12-03T12:00:00+00:00"


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.fixture
def repo(vault_dir: Path) -> Path:
    """A vault with auto_commit, committed, whose daily note both machines changed: a pull of the
    laptop's branch stands on that note's conflict."""
    init_repo(vault_dir)
    (vault_dir / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    daily = vault_dir / "Daily/2026-12-03.md"
    daily.parent.mkdir()
    daily.write_text("## Notes\n\nMorning.\n", encoding="utf-8")
    commit_all(vault_dir, "first")
    git(vault_dir, "checkout", "-q", "-b", "laptop")
    daily.write_text("## Notes\n\nMorning.\nEvening (laptop): dentist booked.\n", encoding="utf-8")
    commit_all(vault_dir, "laptop")
    git(vault_dir, "checkout", "-q", "-")
    daily.write_text("## Notes\n\nMorning.\nNoon: Priya texted.\n", encoding="utf-8")
    commit_all(vault_dir, "here")
    assert subprocess.run(["git", "merge", "-q", "laptop"], cwd=vault_dir, capture_output=True).returncode != 0
    return vault_dir


def finish_the_merge(repo: Path) -> None:
    (repo / "Daily/2026-12-03.md").write_text("## Notes\n\nMorning.\nNoon: Priya texted.\nEvening (laptop): dentist booked.\n",
                                              encoding="utf-8")
    git(repo, "add", "Daily/2026-12-03.md")
    git(repo, "commit", "-qm", "merge laptop")


def tracked(repo: Path, relative: str) -> bool:
    return bool(git(repo, "ls-files", "--", relative).strip())


def committed_text(repo: Path, relative: str) -> str:
    return git(repo, "show", f"HEAD:{relative}")


def test_a_memory_remembered_mid_merge_is_committed_by_the_next_write_once_the_merge_is_done(repo: Path) -> None:
    vault = Vault(repo)
    dentist = vault.remember("Dentist appointment with Dr. Almeida on 2026-12-10 at 15:30.", layer="L2", now=NOW)
    assert dentist.commit is None and [item.path for item in dentist.not_committed] == [dentist.path]
    assert "its next commit once git can take one commits this note" in dentist.not_committed[0].reason
    finish_the_merge(repo)
    other = vault.remember("Sam is allergic to bees.", layer="L4", now=NOW)
    assert other.commit is not None and other.not_committed == []
    assert tracked(repo, dentist.path), git(repo, "status", "--porcelain")
    assert committed_text(repo, dentist.path) == (repo / dentist.path).read_text(encoding="utf-8")
    message = git(repo, "log", "-1", "--format=%B")
    assert f"Vaultmem-Late: {dentist.path}" in message, message  # the commit says why it holds a second note
    assert git(repo, "status", "--porcelain") == ""


def test_revising_a_memory_left_out_mid_merge_commits_it_whole(repo: Path) -> None:
    vault = Vault(repo)
    dentist = vault.remember("Dentist appointment with Dr. Almeida on 2026-12-10 at 15:30.", layer="L2", now=NOW)
    finish_the_merge(repo)
    revised = vault.revise(dentist.path, append="Bring the insurance card.", now=NOW)
    assert revised.not_committed == [], [item.reason for item in revised.not_committed]
    assert revised.commit is not None
    assert committed_text(repo, dentist.path).endswith("Bring the insurance card.\n")


def test_forgetting_a_memory_left_out_mid_merge_commits_its_archived_copy(repo: Path) -> None:
    vault = Vault(repo)
    dentist = vault.remember("Dentist appointment with Dr. Almeida on 2026-12-10 at 15:30.", layer="L2", now=NOW)
    finish_the_merge(repo)
    forgotten = vault.forget(dentist.path)
    assert forgotten.not_committed == [], [item.reason for item in forgotten.not_committed]
    assert tracked(repo, f"_archive/{dentist.path}") and not tracked(repo, dentist.path)
    assert git(repo, "status", "--porcelain") == ""


def test_a_memory_the_person_edited_or_committed_since_is_not_taken_by_vaultmem(repo: Path) -> None:
    vault = Vault(repo)
    edited = vault.remember("Dentist appointment with Dr. Almeida on 2026-12-10 at 15:30.", layer="L2", now=NOW)
    kept = vault.remember("The plumber comes on Friday.", layer="L2", now=NOW)
    finish_the_merge(repo)
    with (repo / edited.path).open("a", encoding="utf-8") as file:
        file.write("My own line.\n")  # now not vaultmem's alone: the person commits it, if at all
    git(repo, "add", kept.path)
    git(repo, "commit", "-qm", "mine")
    vault.remember("Sam is allergic to bees.", layer="L4", now=NOW)
    assert not tracked(repo, edited.path)
    assert git(repo, "log", "-1", "--format=%B").count("Vaultmem-Late") == 0
    assert git(repo, "log", "-2", "--format=%s").splitlines()[1] == "mine"


def test_over_mcp_the_agent_s_memory_written_mid_merge_reaches_git_with_its_next_write(repo: Path, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serve(repo, tmp_path / "stderr.log") as agent:
            dentist = await agent.call("remember", text="Dentist appointment on 2026-12-10 at 15:30.", layer="episodic")
            assert [item["path"] for item in dentist["not_committed"]] == [dentist["path"]]
            finish_the_merge(repo)
            revised = await agent.call("revise", note=dentist["id"], append="Bring the insurance card.")
            assert revised["not_committed"] == [], revised["not_committed"]
            assert tracked(repo, dentist["path"])

    run(scenario)


@pytest.mark.parametrize("garbled", ["not json", '{"../outside.md": "0123456789012345678901234567890123456789"}',
                                      '{"memories/x.md": "not a blob"}', "[]"])
def test_a_garbled_list_of_left_out_notes_is_said_and_commits_go_on(repo: Path, garbled: str,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    vault = Vault(repo)
    dentist = vault.remember("Dentist appointment with Dr. Almeida on 2026-12-10 at 15:30.", layer="L2", now=NOW)
    finish_the_merge(repo)
    (repo / ".vaultmem/own-uncommitted.json").write_text(garbled, encoding="utf-8")
    with caplog.at_level("WARNING", logger="vaultmem"):
        other = vault.remember("Sam is allergic to bees.", layer="L4", now=NOW)
    assert other.commit is not None
    assert "own-uncommitted.json" in caplog.text and "`git status` shows them" in caplog.text, caplog.text
    assert not tracked(repo, dentist.path)  # not taken on the word of a file vaultmem cannot vouch for


KILLED_MID_SAVE = """
import os, sys, time
from pathlib import Path
from vaultmem import own_uncommitted
def stopped(*args, **kwargs):
    print("written", flush=True)
    time.sleep(60)  # killed here: between the temp file's write and its rename
os.replace = stopped
own_uncommitted.save(Path(sys.argv[1]), {"memories/dentist.md": "0" * 40})
"""


def test_the_temp_file_of_a_list_save_killed_midway_is_removed_by_the_next_commit(vault_dir: Path) -> None:
    """A vaultmem killed (``kill -9``) while it saved ``own-uncommitted.json`` left its temp file
    in ``.vaultmem/`` for good: no sweep knew its name (the checks file's copy of the same code
    did). Both now save through state_json, whose temp files the next commit removes."""
    init_repo(vault_dir)
    (vault_dir / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    commit_all(vault_dir, "first")
    state = vault_dir / ".vaultmem"
    state.mkdir(exist_ok=True)
    saving = subprocess.Popen([sys.executable, "-c", KILLED_MID_SAVE, str(state)], stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert saving.stdout is not None and saving.stdout.readline() == b"written\n"
    finally:
        saving.kill()
        saving.wait()
    left = [name for name in os.listdir(state) if name.startswith("own-uncommitted.json.")]
    assert len(left) == 1 and left[0].startswith(f"own-uncommitted.json.{saving.pid}-")
    with Vault(vault_dir) as vault:
        written = vault.remember("Dentist on Friday at nine.", title="Dentist", now=NOW)
    assert written.commit is not None
    assert not [name for name in os.listdir(state) if name.startswith("own-uncommitted.json.")]
