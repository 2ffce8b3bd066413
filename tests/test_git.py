"""history and auto-commit, against a real git repository."""

from __future__ import annotations

import codecs
import json
import os
import re
import shlex
import signal
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from helpers import REPO, hold_commit_lock, run_cli, run_json, wait_until
from vaultmem import AmbiguousNote, GitError, PathOutsideVault, Vault, git_index_lock, gitops, merge_markers
from vaultmem.embedders import HashingEmbedder, TokenSums
from vaultmem.errors import NoteNotFound, NotInRecentHistory, UnsafeLockFile, WriteLockBusy
from vaultmem.unit_of_work import WritePath

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


def test_history_lists_the_first_commit_where_the_person_s_git_hides_a_first_commit_s_changes(repo: Path) -> None:
    """Was: with `log.showRoot = false` in the person's git config, `git log --follow` found no
    change in the repository's first commit: a note it added had no history at all."""
    git(repo, "config", "log.showRoot", "false")
    assert [commit.message for commit in Vault(repo).history("mine")] == ["first"]
    note = repo / "mine.md"
    note.write_text(note.read_text() + "More.\n")
    commit_all(repo, "second")
    assert [commit.message for commit in Vault(repo).history("mine")] == ["second", "first"]


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


def test_history_in_a_repository_without_a_commit_says_the_note_has_none_yet(vault_dir: Path, write_note) -> None:
    # Before: git's own "fatal: your current branch 'master' does not have any commits yet".
    git(vault_dir, "init", "-q")
    write_note("a.md", "# A\n")
    result = run_cli(vault_dir, "history", "a")
    assert result.exit_code == 0, result.output
    assert "no commit holds a.md yet" in result.stderr and "fatal" not in result.output
    assert Vault(vault_dir).history("a") == []
    unknown = run_cli(vault_dir, "history", "zzz")
    assert unknown.exit_code == 1 and "no note matches 'zzz'" in unknown.stderr and "fatal" not in unknown.stderr


def test_history_of_a_deleted_note_still_shows_its_commits(repo: Path) -> None:
    (repo / "mine.md").unlink()
    commit_all(repo, "remove mine")
    assert [commit.message for commit in Vault(repo).history("mine.md")] == ["remove mine", "first"]


# ---------------------------------------------------------------- history of a note no longer in the vault

DANA_ID = "01M8DANA0000000000000000AA"


def dana(repo: Path, write_note) -> Path:
    note = write_note("memories/dana-tea.md", f"---\nid: {DANA_ID}\ntitle: Dana's tea\nlayer: L3\n---\n"
                                              "Dana drinks green tea, never coffee, after lunch.\n")
    commit_all(repo, "dana")
    note.write_text(note.read_text() + "Sencha, mostly.\n", encoding="utf-8")
    commit_all(repo, "dana: sencha")
    return note


def test_history_of_a_note_deleted_by_hand_is_found_by_its_old_id_title_or_path(repo: Path, write_note) -> None:
    # `history <id>` said "no note matches" once the file was deleted; only the old path worked.
    dana(repo, write_note)
    git(repo, "rm", "-q", "memories/dana-tea.md")
    commit_all(repo, "remove dana")
    deleting = git(repo, "rev-parse", "HEAD").strip()
    for reference in (DANA_ID, "dana's TEA", "memories/dana-tea", "memories/dana-tea.md", "dana-tea"):
        history = Vault(repo).history(reference)
        assert [commit.message for commit in history] == ["remove dana", "dana: sencha", "dana"], reference
        assert history.gone is not None and history.gone.commit == deleting and history.gone.moved_to is None
        result = run_cli(repo, "history", reference)
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        assert lines[0] == f"memories/dana-tea.md is no longer in the vault: deleted in commit {deleting[:10]}"
        assert lines[1].startswith(deleting[:10]) and lines[2] == "    remove dana"


def test_history_of_a_note_deleted_and_not_committed_says_so(repo: Path, write_note) -> None:
    dana(repo, write_note)
    (repo / "memories/dana-tea.md").unlink()
    history = Vault(repo).history(DANA_ID)
    assert [commit.message for commit in history] == ["dana: sencha", "dana"]
    assert str(history.gone) == "memories/dana-tea.md is no longer in the vault: deleted, not committed yet"


def test_history_of_a_forgotten_note_says_where_it_was_archived(repo: Path, write_note) -> None:
    dana(repo, write_note)
    auto_commit_on(repo)
    commit_all(repo, "auto commit on")
    with Vault(repo) as vault:
        forgotten = vault.forget(DANA_ID)
    for reference in (DANA_ID, "Dana's tea", "memories/dana-tea.md"):
        history = Vault(repo).history(reference)
        assert [commit.message for commit in history][:2] == ["vaultmem forget: Dana's tea", "dana: sencha"], reference
        assert history.gone is not None and history.gone.commit == forgotten.commit
        assert str(history.gone) == ("memories/dana-tea.md is no longer in the vault: archived to "
                                     f"_archive/memories/dana-tea.md in commit {forgotten.commit[:10]}")


def test_history_of_a_note_forget_archived_without_a_commit(repo: Path, write_note) -> None:
    dana(repo, write_note)
    with Vault(repo) as vault:
        vault.forget("memories/dana-tea.md")
    history = Vault(repo).history(DANA_ID)
    assert [commit.message for commit in history] == ["dana: sencha", "dana"]
    assert str(history.gone) == ("memories/dana-tea.md is no longer in the vault: archived to "
                                 "_archive/memories/dana-tea.md, not committed yet")


def test_history_of_a_hard_forgotten_note_then_its_archived_copy_deleted(repo: Path, write_note) -> None:
    dana(repo, write_note)
    auto_commit_on(repo)
    commit_all(repo, "auto commit on")
    with Vault(repo) as vault:
        vault.forget(DANA_ID)
    git(repo, "rm", "-q", "_archive/memories/dana-tea.md")
    commit_all(repo, "empty the archive")
    history = Vault(repo).history(DANA_ID)  # followed from the archive, where it was last
    assert [commit.message for commit in history] == ["empty the archive", "vaultmem forget: Dana's tea", "dana: sencha", "dana"]
    assert history.gone is not None and history.gone.path == "_archive/memories/dana-tea.md" and history.gone.moved_to is None
    write_note("memories/kai.md", "---\nid: 01M8KAI\nlayer: L3\n---\nKai brews coffee.\n")
    commit_all(repo, "kai")
    with Vault(repo) as vault:
        deleted = vault.forget("memories/kai.md", hard=True)
    assert str(Vault(repo).history("01M8KAI").gone) == f"memories/kai.md is no longer in the vault: deleted in commit {deleted.commit[:10]}"


def test_history_of_a_removed_note_keeps_stdout_one_json_list(repo: Path, write_note) -> None:
    dana(repo, write_note)
    git(repo, "rm", "-q", "memories/dana-tea.md")
    commit_all(repo, "remove dana")
    result = run_cli(repo, "history", DANA_ID, "--json")
    assert [commit["message"] for commit in json.loads(result.stdout)] == ["remove dana", "dana: sencha", "dana"]
    assert "memories/dana-tea.md is no longer in the vault: deleted in commit" in result.stderr


def test_history_of_a_name_no_note_ever_had_is_still_an_error(repo: Path, write_note) -> None:
    dana(repo, write_note)
    git(repo, "rm", "-q", "memories/dana-tea.md")
    commit_all(repo, "remove dana")
    result = run_cli(repo, "history", "01M8NOBODY")
    assert result.exit_code == 1 and "no note matches '01M8NOBODY'" in result.stderr and result.stdout == ""
    with pytest.raises(PathOutsideVault):
        Vault(repo).history("../dana-tea.md")


def test_history_of_a_title_two_removed_notes_had_is_ambiguous(repo: Path, write_note) -> None:
    write_note("a/tea.md", "---\nid: 01M8A\ntitle: Tea\n---\nOolong in the morning, a note of its own.\n")
    write_note("b/tea.md", "---\nid: 01M8B\ntitle: Tea\n---\nSomething else entirely: the kettle is broken.\n")
    commit_all(repo, "two teas")
    git(repo, "rm", "-q", "a/tea.md", "b/tea.md")
    commit_all(repo, "no tea")
    with pytest.raises(AmbiguousNote) as raised:
        Vault(repo).history("Tea")
    assert "a/tea.md" in str(raised.value) and "b/tea.md" in str(raised.value)
    assert [commit.message for commit in Vault(repo).history("01M8B")] == ["no tea", "two teas"]


def test_history_of_a_renamed_notes_old_path_follows_it_to_where_it_lives(repo: Path, write_note) -> None:
    dana(repo, write_note)
    git(repo, "mv", "memories/dana-tea.md", "people/dana.md")
    commit_all(repo, "dana moves")
    history = Vault(repo).history("memories/dana-tea.md")
    assert history.gone is None and history.path == "people/dana.md"
    assert [commit.message for commit in history] == ["dana moves", "dana: sencha", "dana"]
    assert str(history.resolved_from) == "'memories/dana-tea.md' resolved through its old name"


def test_history_does_not_take_a_new_note_for_a_copy_of_a_like_one(repo: Path, write_note) -> None:
    # Git's 50% similarity took a short memory for a copy of another (their frontmatter is most
    # of them) and listed the other note's commits as its own.
    with Vault(repo) as vault:
        vault.remember("Rui plays fado on Fridays", title="Rui fado", layer="L3", now=NOW)
        commit_all(repo, "rui fado")
        vault.remember("Office wifi rotates monthly", title="Wifi", layer="L3", now=NOW)
        commit_all(repo, "wifi")
    assert [commit.message for commit in Vault(repo).history("Wifi")] == ["wifi"]


def test_history_looks_back_a_bounded_number_of_commits_and_says_so(repo: Path, write_note,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    dana(repo, write_note)
    git(repo, "rm", "-q", "memories/dana-tea.md")
    commit_all(repo, "remove dana")
    for number in range(3):
        write_note(f"later-{number}.md", f"# Later {number}\n")
        commit_all(repo, f"later {number}")
    monkeypatch.setattr(gitops, "REMOVAL_SCAN_COMMITS", 3)
    with pytest.raises(NotInRecentHistory, match="newest 3 commits"):
        Vault(repo).history(DANA_ID)
    assert [commit.message for commit in Vault(repo).history("memories/dana-tea.md")] == ["remove dana", "dana: sencha", "dana"]


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


def test_forget_names_the_commits_that_still_hold_the_notes_text(repo: Path) -> None:
    """An agent trial (s35): told "forget everything about Jordan, I don't want it anywhere", the
    agent heard only where the note was archived, and said it was gone, while every version of
    it stayed in git. The answer now names those commits and who can take it out of them."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    vault = Vault(repo)
    vault.revise("people/rui", append="Rui moved to Porto.", now=NOW)
    forgotten = vault.forget("people/rui")
    hashes = git(repo, "log", "--format=%h", "--abbrev=10", "--all").split()
    assert forgotten.commit is not None
    # the forget itself (the archived copy), the revise, and the first commit that added the note
    assert forgotten.in_git_history == [forgotten.commit[:10], hashes[1], hashes[-1]]
    notice = forgotten.as_dict()["notice"]
    assert "_archive/people/rui.md" in notice and "git history holds it (3 commits" in notice
    assert "git filter-repo --invert-paths --path people/rui.md --path _archive/people/rui.md" in notice


def test_forget_on_the_command_line_says_git_history_still_holds_the_note(repo: Path) -> None:
    result = run_cli(repo, "forget", "people/rui")
    assert result.exit_code == 0, result.stderr
    first = git(repo, "log", "--format=%h", "--abbrev=10").split()[-1]
    assert f"git history holds it (1 commit: {first}), which vaultmem never rewrites" in result.stderr


def test_forget_outside_git_says_only_the_archived_copy_remains(vault_dir: Path, write_note) -> None:
    write_note("people/ana.md", "---\nlayer: L3\n---\nAna lives in Lisbon.\n")
    forgotten = Vault(vault_dir).forget("people/ana")
    assert forgotten.in_git_history == []
    assert forgotten.left_notice() == ("Forgotten: no longer recalled; its text stays in _archive/people/ana.md "
                                       "(the archive folder: recoverable by the person).")


def test_forget_in_a_repository_git_cannot_read_says_its_history_is_unknown(repo: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """s35 review: with git not on PATH (a sync-only machine, a sandboxed agent), forget in a vault
    that is a git repository said "its text stays in _archive/…" and nothing of the commits that
    hold it — the answer an agent reads as "gone everywhere else"."""
    no_git = tmp_path / "bin-without-git"
    no_git.mkdir()
    monkeypatch.setenv("PATH", str(no_git))
    forgotten = Vault(repo).forget("people/rui")
    assert forgotten.in_git_history == []
    notice = forgotten.left_notice()
    assert notice.startswith("Forgotten: no longer recalled; its text stays in _archive/people/rui.md"), notice
    assert f"whether git history holds it is not known: git is not installed or not on PATH, and {repo} is in a git repository" in notice


def test_forget_in_a_repository_whose_log_fails_still_forgets_and_says_so(repo: Path) -> None:
    """s35 review: forget asked git for the note's commits before moving it, and a git that failed
    (here a tree object lost from .git/objects) stopped the forget with a GitError — forget needed
    no git before, and the person asked for the note out of recall."""
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    (repo / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    forgotten = Vault(repo).forget("people/rui")
    assert not (repo / "people" / "rui.md").exists() and (repo / "_archive" / "people" / "rui.md").exists()
    assert forgotten.git_history_unknown is not None and "unable to read tree" in forgotten.git_history_unknown
    assert "whether git history holds it is not known: git log --follow failed" in forgotten.left_notice()


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


def test_forgetting_a_never_committed_note_commits_nothing_of_it_and_says_so(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    head = git(repo, "rev-parse", "HEAD")
    write_note("draft.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nnever committed\n", root=repo)
    result = run_cli(repo, "forget", "draft", "--json")
    assert result.exit_code == 0, result.stderr  # was: exit 1, "pathspec 'draft.md' did not match"
    document = json.loads(result.stdout)
    # Its text was never in git: committing the archive copy would commit what the person
    # (or an agent, before auto_commit was on) wrote, not vaultmem's change.
    assert document["commit"] is None and git(repo, "rev-parse", "HEAD") == head
    assert [entry["path"] for entry in document["not_committed"]] == ["_archive/draft.md"]
    assert "never tracked" in document["not_committed"][0]["reason"]
    assert git(repo, "status", "--porcelain") == "?? _archive/\n"  # nothing staged


def test_a_note_whose_removal_the_person_committed_meanwhile_is_not_said_never_tracked(repo: Path) -> None:
    # The person's `git commit -a` ran while consolidate (here forget) moved the note: it
    # committed the note's removal, the file still on disk a moment before. vaultmem's commit
    # cannot hold the archive copy as a move any more; it was told "which git never tracked"
    # of a note git had held since its first commit (a trial: two agents, watch and a person).
    auto_commit_on(repo)
    commit_all(repo, "config")
    git(repo, "rm", "-q", "--cached", "people/rui.md")
    git(repo, "commit", "-qm", "person's commit")
    removal = git(repo, "rev-parse", "--short", "HEAD").strip()
    result = run_cli(repo, "forget", "people/rui.md", "--json")
    assert result.exit_code == 0, result.stderr
    [left_out] = json.loads(result.stdout)["not_committed"]
    assert left_out["path"] == "_archive/people/rui.md"
    assert "never tracked" not in left_out["reason"]
    assert f"whose removal from git another commit made meanwhile ({removal}" in left_out["reason"]
    assert "`git add _archive/people/rui.md`" in left_out["reason"]


def test_remember_and_revise_say_in_json_and_text_which_files_they_left_out_of_the_commit(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    (repo / ".gitignore").write_text("memories/\n", encoding="utf-8")
    commit_all(repo, "config")
    remembered = run_cli(repo, "remember", "Parked on level 3, spot 41", "--layer", "L1", "--json")
    assert remembered.exit_code == 0, remembered.stderr
    document = json.loads(remembered.stdout)
    assert document["not_committed"] == [{"path": document["path"], "reason": "ignored by git (.gitignore)"}]
    write_note("draft.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nnever committed\n", root=repo)
    revised = run_cli(repo, "revise", "draft", "--append", "Still a draft.")
    assert revised.exit_code == 0, revised.stderr
    assert "git: draft.md: git never tracked it" in revised.stdout  # the text output reads the same entries


def test_auto_commit_with_an_ignored_archive_commits_the_deletion_and_stages_nothing_else(repo: Path) -> None:
    auto_commit_on(repo)
    (repo / ".gitignore").write_text("_archive/\n", encoding="utf-8")
    commit_all(repo, "config, archive ignored")
    result = run_cli(repo, "forget", "people/rui")
    assert result.exit_code == 0, result.stderr
    assert (repo / "_archive/people/rui.md").is_file()
    assert git(repo, "show", "--name-status", "--format=", "HEAD").split() == ["D", "people/rui.md"]
    assert git(repo, "status", "--porcelain") == ""  # no stray staged deletion left behind


def test_auto_commit_with_nothing_git_can_take_returns_no_commit(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    (repo / ".gitignore").write_text("_archive/\n", encoding="utf-8")
    commit_all(repo, "config, archive ignored")
    write_note("draft.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nnever committed\n", root=repo)
    head = git(repo, "rev-parse", "HEAD")
    vault = Vault(repo)
    vault.index()
    assert vault.forget("draft").commit is None
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_auto_commit_treats_brackets_in_a_note_name_literally_not_as_a_glob(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    write_note("projects/Meeting [draft].md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\ndraft agenda\n", root=repo)
    write_note("projects/Meeting d.md", "# Maya's meeting notes\n", root=repo)
    commit_all(repo, "config and meetings")
    (repo / "projects/Meeting d.md").write_text("# Maya's meeting notes\nan uncommitted edit\n", encoding="utf-8")
    vault = Vault(repo)
    vault.index()
    vault.forget("projects/Meeting [draft].md")
    changed = git(repo, "show", "--no-renames", "--name-only", "--format=", "-z", "HEAD").split("\0")
    assert sorted(filter(None, changed)) == ["_archive/projects/Meeting [draft].md", "projects/Meeting [draft].md"]
    assert git(repo, "status", "--porcelain") == ' M "projects/Meeting d.md"\n'  # Maya's edit stays hers


def test_history_never_lists_commits_of_files_outside_a_nested_vault(tmp_path: Path, write_note) -> None:
    outer = tmp_path / "outer"
    vault = outer / "vault"
    write_note("n.md", "---\nlayer: L3\n---\nin the vault\n", root=vault)
    (outer / "secret.md").write_text("not the vault's business\n", encoding="utf-8")
    git(outer, "init", "-q")
    git(outer, "config", "user.email", "maya@example.com")
    git(outer, "config", "user.name", "Maya")
    commit_all(outer, "secret commit")
    for reference in (":/secret", ":/secret.md", ":(top)secret.md"):
        result = run_cli(vault, "history", reference)
        assert result.exit_code == 1, (reference, result.output)
        assert "secret commit" not in result.output
    with pytest.raises(PathOutsideVault):
        Vault(vault).history("../secret.md")
    (outer / "gone.md").write_text("---\nid: 01M8OUTSIDE\ntitle: Outside\n---\nnot the vault's either\n", encoding="utf-8")
    commit_all(outer, "outside note")
    git(outer, "rm", "-q", "gone.md")
    commit_all(outer, "outside note removed")
    for reference in ("01M8OUTSIDE", "Outside", "gone"):  # the vault's removals only, never the repository's
        result = run_cli(vault, "history", reference)
        assert result.exit_code == 1 and "no note matches" in result.stderr and "outside note" not in result.output


def test_history_of_a_note_removed_from_a_nested_vault_names_its_vault_path(tmp_path: Path, write_note) -> None:
    outer = tmp_path / "outer"
    vault = outer / "vault"
    write_note("memories/n.md", "---\nid: 01M8NESTED\ntitle: Nested\nlayer: L3\n---\nInside the vault.\n", root=vault)
    write_note("keep.md", "# Keep\n", root=vault)
    git(outer, "init", "-q")
    git(outer, "config", "user.email", "maya@example.com")
    git(outer, "config", "user.name", "Maya")
    commit_all(outer, "add")
    git(outer, "rm", "-q", "vault/memories/n.md")
    commit_all(outer, "remove n")
    history = Vault(vault).history("01M8NESTED")
    assert [commit.message for commit in history] == ["remove n", "add"]
    assert history.gone is not None and history.gone.path == "memories/n.md"


# ---------------------------------------------------------------- a commit holds only vaultmem's change


def duplicates_in(repo: Path, write_note) -> None:
    body = "Maya takes oat milk in her coffee every morning and never dairy"
    write_note("memories/oat-milk.md", f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\n{body}, at home and at work.\n", root=repo)
    write_note("memories/oat-milk-2.md", f"---\nlayer: L3\nexpires_at: 2027-05-01\n---\n{body}.\n", root=repo)
    write_note("people/Maya.md", "# Maya\n\nCoffee: [[oat-milk-2]].\n\nLikes jazz.\n", root=repo)
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n\n[consolidate]\nthreshold = 0.8\n', encoding="utf-8")
    commit_all(repo, "duplicates")


def test_a_link_rewrite_commits_without_the_persons_uncommitted_private_line(repo: Path, write_note) -> None:
    duplicates_in(repo, write_note)
    maya = repo / "people/Maya.md"
    maya.write_text(maya.read_text() + "PRIVATE: not for the history\n", encoding="utf-8")
    report = Vault(repo).consolidate(apply=True, now=NOW)
    assert report.commit is not None and report.links_rewritten == ["people/Maya.md"]
    committed = git(repo, "show", "HEAD:people/Maya.md")
    assert "[[oat-milk]]" in committed and "PRIVATE" not in committed  # was: committed with the private line
    assert "PRIVATE" in maya.read_text() and "[[oat-milk]]" in maya.read_text()
    assert git(repo, "diff", "--cached") == ""  # nothing staged
    assert git(repo, "status", "--porcelain") == " M people/Maya.md\n"
    added = [line for line in git(repo, "diff", "people/Maya.md").splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert added == ["+PRIVATE: not for the history"]  # the private line alone is left uncommitted
    assert report.not_committed == []  # vaultmem's change to it is committed
    assert report.yours_left_uncommitted == ["people/Maya.md"]


def test_a_file_committed_without_the_persons_edit_is_named_apart_from_files_left_out(repo: Path, write_note) -> None:
    """`not_committed` names files whose vaultmem change is not in git; a file committed with
    vaultmem's change only (the person's own edit in it stays uncommitted) is named in
    `yours_left_uncommitted` — in the API, the CLI's --json and its text."""
    auto_commit_on(repo)
    write_note("memories/standup.md", "---\ntitle: Standup\nlayer: L3\nexpires_at: 2027-01-01\n---\n"
                                      "The standup is at 9:30.\n\nRoom Tejo.\n", root=repo)
    write_note("memories/draft.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nA draft.\n", root=repo)
    commit_all(repo, "memories")
    standup, draft = repo / "memories/standup.md", repo / "memories/draft.md"
    standup.write_text(standup.read_text() + "\nMY OWN LINE\n", encoding="utf-8")
    draft.write_text(draft.read_text() + "MY DRAFT LINE\n", encoding="utf-8")

    result = run_cli(repo, "revise", "memories/standup", "--title", "Standup at 9:45", "--json")
    assert result.exit_code == 0, result.output
    revised = json.loads(result.stdout)
    assert revised["commit"] is not None and revised["not_committed"] == []  # was: listed as not committed
    assert revised["yours_left_uncommitted"] == ["memories/standup.md"]
    assert "Standup at 9:45" in git(repo, "show", "HEAD:memories/standup.md")
    assert "MY OWN LINE" not in git(repo, "show", "HEAD:memories/standup.md")

    text = run_cli(repo, "forget", "memories/draft")  # moved: the archive copy is committed as it was in HEAD
    assert text.exit_code == 0, text.output
    assert ("git: _archive/memories/draft.md: committed with vaultmem's change only; your own edit in it stays "
            "uncommitted") in text.stdout
    assert "MY DRAFT LINE" not in git(repo, "show", "HEAD:_archive/memories/draft.md")
    remembered = Vault(repo).remember("Another memory", now=NOW)
    assert remembered.not_committed == [] and remembered.yours_left_uncommitted == []


def test_a_person_edit_that_overlaps_vaultmems_edit_leaves_that_file_out_of_the_commit(repo: Path, write_note) -> None:
    duplicates_in(repo, write_note)
    maya = repo / "people/Maya.md"
    maya.write_text(maya.read_text().replace("Coffee: [[oat-milk-2]].", "Coffee (PRIVATE aside): [[oat-milk-2]]."), encoding="utf-8")
    report = Vault(repo).consolidate(apply=True, now=NOW)
    assert report.commit is not None
    changed = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert "people/Maya.md" not in changed and "memories/oat-milk.md" in changed
    assert "PRIVATE" not in git(repo, "show", "HEAD:people/Maya.md")
    assert [entry.path for entry in report.not_committed] == ["people/Maya.md"]
    assert "overlap" in report.not_committed[0].reason
    # The JSON contract (consolidate --json, MCP) keeps its keys.
    document = json.loads(json.dumps(report.as_dict()))
    assert document["not_committed"] == [{"path": "people/Maya.md", "reason": report.not_committed[0].reason}]
    assert git(repo, "diff", "--cached") == ""
    assert "[[oat-milk]]" in maya.read_text()  # vaultmem's change is made, only not committed


def test_check_fix_commits_the_fix_but_not_the_persons_uncommitted_edit_of_the_body(repo: Path, write_note) -> None:
    auto_commit_on(repo)
    write_note("l2.md", "---\nlayer: L2\ncreated: 2026-11-29T00:00:00Z\n---\nno deadline\n", root=repo)
    commit_all(repo, "config and l2")
    (repo / "l2.md").write_text("---\nlayer: L2\ncreated: 2026-11-29T00:00:00Z\n---\nno deadline\nmy diary line\n", encoding="utf-8")
    report = Vault(repo).check(fix=True, now=NOW)
    assert report.commit is not None
    committed = git(repo, "show", "HEAD:l2.md")
    assert "expires_at: 2026-12-06T00:00:00+00:00" in committed and "diary" not in committed
    assert git(repo, "status", "--porcelain") == " M l2.md\n"


def test_a_staged_change_of_the_person_stays_staged_and_out_of_vaultmems_commit(repo: Path, write_note) -> None:
    duplicates_in(repo, write_note)
    (repo / "mine.md").write_text("# Maya's own note\nstaged by Maya\n", encoding="utf-8")
    git(repo, "add", "mine.md")
    report = Vault(repo).consolidate(apply=True, now=NOW)
    assert "mine.md" not in git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert report.commit is not None and git(repo, "diff", "--cached", "--name-only").split() == ["mine.md"]


def test_auto_commit_in_a_repository_without_commits_makes_the_first_one(vault_dir: Path) -> None:
    git(vault_dir, "init", "-q")
    git(vault_dir, "config", "user.email", "maya@example.com")
    git(vault_dir, "config", "user.name", "Maya")
    auto_commit_on(vault_dir)
    result = Vault(vault_dir).remember("The first memory", layer="L3", now=NOW)
    assert result.commit == git(vault_dir, "rev-parse", "HEAD").strip()
    assert git(vault_dir, "show", "--name-only", "--format=", "HEAD").split() == [result.path]
    assert git(vault_dir, "status", "--porcelain") == "?? .vaultmem.toml\n"


def test_auto_commit_of_a_vault_inside_a_larger_repository_commits_the_vault_path(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    vault = outer / "notes" / "vault"
    vault.mkdir(parents=True)
    git(outer, "init", "-q")
    git(outer, "config", "user.email", "maya@example.com")
    git(outer, "config", "user.name", "Maya")
    (outer / "readme.txt").write_text("the person's other work\n")
    commit_all(outer, "outer")
    (outer / "readme.txt").write_text("the person's other work, edited\n")
    auto_commit_on(vault)
    result = Vault(vault).remember("Nested memory", layer="L3", now=NOW)
    assert git(outer, "show", "--name-only", "--format=", "HEAD").split() == [f"notes/vault/{result.path}"]
    assert " M readme.txt" in git(outer, "status", "--porcelain")


REMEMBER = [sys.executable, "-m", "vaultmem"]


def test_eight_remember_processes_at_once_all_commit_and_nothing_is_left_staged(repo: Path) -> None:
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")
    commit_all(repo, "config")
    Vault(repo).index()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    go = repo.parent / "go"
    start = f"import pathlib, sys, time\nwhile not pathlib.Path({str(go)!r}).exists(): time.sleep(0.001)\n" \
            "from vaultmem.cli import main\nsys.exit(main())"
    writers = [
        subprocess.Popen([sys.executable, "-c", start, "--vault", str(repo), "remember", f"Concurrent memory number {number}",
                          "--layer", "L3", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for number in range(8)
    ]
    go.touch()
    outcomes = [writer.communicate(timeout=180) for writer in writers]
    assert [writer.returncode for writer in writers] == [0] * 8, [err for _, err in outcomes]  # was: 5 of 8 failed on index.lock
    commits = [json.loads(out)["commit"] for out, _ in outcomes]
    assert all(commits) and len(set(commits)) == 8
    assert git(repo, "log", "--format=%s").count("vaultmem remember") == 8
    assert git(repo, "status", "--porcelain") == ""  # nothing staged, nothing left uncommitted
    assert git(repo, "ls-files", "memories").count("\n") == 8


class PausingEmbedder(HashingEmbedder):
    """The hashing embedder, holding its first embedding once ``armed`` until ``release``
    (at most 3 s): a write that pauses between writing its file and committing it."""

    def __init__(self) -> None:
        super().__init__()
        self.armed, self.paused, self.release = threading.Event(), threading.Event(), threading.Event()

    def pause(self) -> None:
        if self.armed.is_set():
            self.armed.clear()
            self.paused.set()
            self.release.wait(3)

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.pause()
        return super().embed_batch(texts)

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        self.pause()
        return super().sum_batch(texts, tails_from)


def test_a_revise_landing_between_anothers_write_and_commit_leaves_nothing_out_of_git(repo: Path) -> None:
    # The commit lock was taken only for the commit: B appended while A indexed its append,
    # B committed first, its merge met A's line beside its own and left the note out of git
    # — and every later append of either, beside that uncommitted line, too (two agents,
    # two processes; here two Vaults in two threads, which take the lock as processes do).
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")
    commit_all(repo, "config")
    pausing = PausingEmbedder()
    with Vault(repo, embedder=pausing) as first, Vault(repo, embedder=HashingEmbedder()) as second:
        first.index()
        results: dict[str, Any] = {}
        pausing.armed.set()
        writer_a = threading.Thread(target=lambda: results.update(A=first.revise("people/rui", append="A was here.")))
        writer_a.start()
        assert pausing.paused.wait(30)  # A's line is in the file, its commit not made
        writer_b = threading.Thread(target=lambda: results.update(B=second.revise("people/rui", append="B was here.")))
        writer_b.start()
        writer_b.join(1.5)  # before the fix B wrote and committed here; now it waits its turn
        pausing.release.set()
        writer_a.join(30)
        writer_b.join(30)
    assert [results[name].not_committed for name in "AB"] == [[], []]
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "log", "--format=%s").count("vaultmem revise") == 2
    assert (repo / "people/rui.md").read_text(encoding="utf-8").endswith("A was here.\n\nB was here.\n")


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file")
def test_a_write_kept_waiting_by_another_process_says_so_once_on_stderr_naming_it(repo: Path) -> None:
    # A trial: the CLI waited silently behind an MCP server's consolidate --apply, for as long as it ran.
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")
    commit_all(repo, "config")
    # The holder lets go once the writer has said it waits, however slowly the writer starts (a
    # fixed hold of a few seconds was over before a writer started under load reached the lock).
    holder = hold_commit_lock(repo, 120)
    writer = subprocess.Popen([*REMEMBER, "--vault", str(repo), "remember", "Waited for its turn", "--layer", "L3"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    assert writer.stderr is not None
    said = []
    try:
        for line in writer.stderr:
            said.append(line)
            if "waiting for another vaultmem write" in line:
                break
    finally:
        holder.kill()
        holder.wait(30)
    _, more = writer.communicate(timeout=120)
    stderr = "".join(said) + more
    assert writer.returncode == 0, stderr
    waits = [line for line in stderr.splitlines() if "waiting for another vaultmem write" in line]
    assert len(waits) == 1, stderr
    # The holder's command words only, never its values (a remember's text, a path, "4").
    assert f"pid {holder.pid} (`hold_lock.py vaultmem`)" in waits[0] and "git.lock" in waits[0] and "refused after 300 s" in waits[0]
    assert git(repo, "log", "-1", "--format=%s").startswith("vaultmem remember")


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file")
def test_a_write_waiting_past_its_bound_is_refused_before_it_acts(repo: Path, caplog: pytest.LogCaptureFixture) -> None:
    auto_commit_on(repo)
    holder = hold_commit_lock(repo, 60)
    acted = []
    try:
        writes = WritePath(repo, True, lambda paths: None, lock_wait=gitops.LockWait(at_most=1.5, say_after=0.5))
        with pytest.raises(WriteLockBusy) as refused, writes.begin("remember"):
            acted.append("the write ran")
    finally:
        holder.kill()
        holder.wait(30)
    assert acted == []
    message = str(refused.value)
    assert f"pid {holder.pid} (`hold_lock.py " in message and "held" in message and "for 1.5 s" in message
    assert "nothing was written" in message and "Run it again" in message and "git.lock" in message
    assert [record.getMessage() for record in caplog.records if "waiting for another" in record.getMessage()] != []


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file")
def test_a_killed_holders_name_is_not_given_to_whoever_holds_the_lock_after_it(repo: Path) -> None:
    # A holder killed mid-write leaves its line in git.lock (the lock itself goes with it): a
    # waiter must not name that dead process as the one keeping it waiting.
    auto_commit_on(repo)
    killed = hold_commit_lock(repo, 60)
    killed.kill()
    killed.wait(30)
    assert str(killed.pid) in (repo / ".vaultmem" / gitops.LOCK_NAME).read_text()  # its line is still there
    older = hold_commit_lock(repo, 60, how="bare")  # an older vaultmem: takes the lock, names no one
    try:
        writes = WritePath(repo, True, lambda paths: None, lock_wait=gitops.LockWait(at_most=0.5, say_after=0.2))
        with pytest.raises(WriteLockBusy) as refused, writes.begin("remember"):
            pass
    finally:
        older.kill()
        older.wait(30)
    assert refused.value.holder == "another process"
    assert str(killed.pid) not in str(refused.value)


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file")
def test_a_write_that_did_not_wait_leaves_no_name_in_the_lock_file(repo: Path) -> None:
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")
    Vault(repo).remember("Quick one", layer="L3", now=NOW)
    assert (repo / ".vaultmem" / gitops.LOCK_NAME).read_bytes() == b""  # emptied when released


def test_a_title_spelling_a_nul_in_yaml_still_commits_vaultmems_change(repo: Path, write_note) -> None:
    # YAML's "\0" gives a title holding NUL; git refuses NUL in an argument, and the revise was
    # written but left uncommitted, with an error that named no reason.
    write_note("odd.md", '---\ntitle: "odd\\0name"\nlayer: L3\nexpires_at: 2027-01-01\ntags: [legacy]\n---\nOld fact.\n')
    auto_commit_on(repo)
    commit_all(repo, "config and odd")
    result = Vault(repo).revise("odd.md", append="New fact.", remove_tags=["legacy"], now=NOW)
    assert result.commit is not None
    assert git(repo, "log", "-1", "--format=%s") == "vaultmem revise: odd\ufffdname\n"
    assert git(repo, "status", "--porcelain") == ""


def test_a_revise_that_makes_the_title_anew_commits_under_the_new_title_saying_the_old(repo: Path) -> None:
    # The subject named the title the note no longer has: a history read "revise: … window seat …"
    # over a note that now says aisle seat.
    auto_commit_on(repo)
    commit_all(repo, "config")
    with Vault(repo) as vault:
        made = vault.remember("Mira prefers the window seat.", layer="L3", now=NOW)
        vault.revise(made.path, text="Mira prefers the aisle seat now.", now=NOW)
    assert git(repo, "log", "-1", "--format=%s") == "vaultmem revise: Mira prefers the aisle seat now.\n"
    assert "title was: Mira prefers the window seat." in git(repo, "log", "-1", "--format=%b")


def test_history_of_a_note_git_does_not_track_yet_says_so(repo: Path) -> None:
    # Printed nothing and exited 0 after a note was moved and not yet committed.
    git(repo, "mv", "people/rui.md", "people/rui-mendes.md")
    result = run_cli(repo, "history", "people/rui-mendes.md")
    assert result.exit_code == 0 and result.stdout == ""
    assert "no commit holds people/rui-mendes.md yet" in result.stderr
    as_json = run_cli(repo, "history", "people/rui-mendes.md", "--json")
    assert json.loads(as_json.stdout) == [] and "no commit holds" in as_json.stderr


def test_a_memory_remembered_mid_rebase_is_left_uncommitted_and_survives_rebase_abort(repo: Path) -> None:
    # A trial: the commit landed on the rebase's detached HEAD, and `git rebase --abort`
    # deleted the note vaultmem had just reported "remembered … committed".
    auto_commit_on(repo)
    commit_all(repo, "config")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "mine.md").write_text("# Maya's own note\nside\n")
    commit_all(repo, "side edit")
    git(repo, "checkout", "-q", "-")
    (repo / "mine.md").write_text("# Maya's own note\nmain\n")
    commit_all(repo, "main edit")
    git(repo, "checkout", "-q", "side")
    assert subprocess.run(["git", "rebase", "-q", "-"], cwd=repo, capture_output=True).returncode != 0  # stops on mine.md
    result = Vault(repo).remember("The car's service is due in March", layer="L3", now=NOW)
    assert result.commit is None
    assert [(item.path, "HEAD is detached" in item.reason) for item in result.not_committed] == [(result.path, True)]
    git(repo, "rebase", "--abort")
    assert (repo / result.path).read_text(encoding="utf-8").endswith("The car's service is due in March\n")
    assert git(repo, "log", "-1", "--format=%s") == "side edit\n"


def test_auto_commit_on_a_checked_out_commit_commits_nothing_and_says_why_in_the_cli(repo: Path) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    git(repo, "checkout", "-q", "--detach")
    result = run_cli(repo, "remember", "--layer", "L3", "Passport renewal is due in May")
    assert result.exit_code == 0, result.output
    assert "committed" not in result.output.replace("not committed", "")
    assert "HEAD is detached" in result.output
    git(repo, "checkout", "-q", "-")  # back on the branch: the new note is still there, for the person to commit
    assert "?? memories/" in git(repo, "status", "--porcelain")


def test_auto_commit_mid_merge_leaves_the_memory_uncommitted_and_the_merge_as_it_was(repo: Path) -> None:
    # A trial: with a pull stopped on a conflict in another note, vaultmem committed on the
    # branch; the merge's commit, made from git's index, then undid vaultmem's change to a
    # note the merge had also changed — after the CLI had said "committed".
    auto_commit_on(repo)
    commit_all(repo, "config")
    merge_in_conflict(repo, "---\ntitle: Rui\nlayer: L3\n---\nRui likes fado.\n",
                      "---\ntitle: Rui\nlayer: L3\n---\nRui likes bossa nova.\n")
    head = git(repo, "rev-parse", "HEAD")
    result = Vault(repo).remember("The car's service is due in March", layer="L3", now=NOW)
    assert result.commit is None
    assert (repo / result.path).read_text(encoding="utf-8").endswith("The car's service is due in March\n")
    [left] = result.not_committed
    assert left.path == result.path
    assert left.reason.startswith("a merge is in progress: ") and "`git merge --abort`" in left.reason, left.reason
    shown = run_cli(repo, "remember", "--layer", "L3", "Passport renewal is due in May")
    assert shown.exit_code == 0, shown.output
    assert "a merge is in progress" in shown.output and "committed " not in shown.output, shown.output
    assert git(repo, "rev-parse", "HEAD") == head
    assert Path(repo, git(repo, "rev-parse", "--git-path", "MERGE_HEAD").strip()).is_file()
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")  # still the person's merge to resolve


def stopped_on_rui(repo: Path, *command: str) -> None:
    """people/rui.md changed on a branch `desktop` and, otherwise, here; then ``git COMMAND``
    (a cherry-pick, revert or `am` of one of them), which stops on the note's conflict."""
    note = repo / "people/rui.md"
    git(repo, "checkout", "-q", "-b", "desktop")
    note.write_text(note.read_text().replace("jazz", "fado"))
    commit_all(repo, "desktop: fado")
    git(repo, "checkout", "-q", "-")
    note.write_text(note.read_text().replace("jazz", "bossa nova"))
    commit_all(repo, "laptop: bossa nova")
    note.write_text(note.read_text().replace("bossa nova", "choro"))
    commit_all(repo, "laptop: choro")
    patch = git(repo, "format-patch", "-1", "--stdout", "desktop") if command[0] == "am" else None
    stopped = subprocess.run(["git", *command], cwd=repo, input=patch, capture_output=True, text=True)
    assert stopped.returncode != 0, stopped.stdout


@pytest.mark.parametrize(("command", "named"), [
    (["cherry-pick", "desktop"], "a cherry-pick is in progress"),
    (["revert", "--no-edit", "HEAD~1"], "a revert is in progress"),
    (["am", "--3way"], "a `git am` is in progress"),
])
def test_auto_commit_mid_cherry_pick_revert_or_am_commits_nothing_and_names_it(repo: Path, command: list[str],
                                                                                named: str) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    stopped_on_rui(repo, *command)
    head = git(repo, "rev-parse", "HEAD")
    result = Vault(repo).remember("The car's service is due in March", layer="L3", now=NOW)
    assert result.commit is None
    assert [(item.path, item.reason.split(":")[0]) for item in result.not_committed] == [(result.path, named)]
    assert git(repo, "rev-parse", "HEAD") == head


def test_auto_commit_in_a_linked_worktree_mid_merge_commits_nothing(repo: Path, tmp_path: Path) -> None:
    # A linked worktree keeps its MERGE_HEAD in .git/worktrees/<name>/, not in its own .git (a file).
    auto_commit_on(repo)
    commit_all(repo, "config")
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "linked", str(linked))
    merge_in_conflict(linked, "---\ntitle: Rui\nlayer: L3\n---\nRui likes fado.\n",
                      "---\ntitle: Rui\nlayer: L3\n---\nRui likes bossa nova.\n")
    head = git(linked, "rev-parse", "HEAD")
    result = Vault(linked).remember("The car's service is due in March", layer="L3", now=NOW)
    assert result.commit is None
    assert [item.reason.split(":")[0] for item in result.not_committed] == ["a merge is in progress"]
    assert git(linked, "rev-parse", "HEAD") == head


def test_history_lists_the_merge_that_resolved_a_conflict_in_the_note(repo: Path) -> None:
    note = repo / "people/rui.md"
    git(repo, "checkout", "-q", "-b", "desktop")
    note.write_text(note.read_text().replace("jazz", "fado"))
    commit_all(repo, "desktop: fado")
    git(repo, "checkout", "-q", "-")
    note.write_text(note.read_text().replace("jazz", "bossa nova"))
    commit_all(repo, "laptop: bossa nova")
    assert subprocess.run(["git", "merge", "-q", "desktop"], cwd=repo, capture_output=True).returncode != 0
    note.write_text(note.read_text().split("<<<<<<<")[0] + "Rui likes fado and bossa nova.\n")
    commit_all(repo, "merge desktop: both kept")
    git(repo, "mv", "people/rui.md", "people/rui-mendes.md")
    commit_all(repo, "rename")
    messages = [commit.message for commit in Vault(repo).history("people/rui-mendes")]
    assert messages[:2] == ["rename", "merge desktop: both kept"]
    assert set(messages[2:]) == {"desktop: fado", "laptop: bossa nova", "first"}


def signing_with_a_new_ssh_key(repo: Path, tmp_path: Path) -> None:
    key = tmp_path / "signing-key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "maya", "-f", str(key)], check=True)
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingKey", f"{key}.pub")
    git(repo, "config", "commit.gpgSign", "true")


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen signs the commits here")
def test_auto_commit_signs_its_commit_when_the_person_sets_commit_gpgsign(repo: Path, tmp_path: Path) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    signing_with_a_new_ssh_key(repo, tmp_path)
    result = Vault(repo).remember("Rui's birthday dinner at Taberna", layer="L2", now=NOW)
    assert result.commit is not None
    assert "-----BEGIN SSH SIGNATURE-----" in git(repo, "cat-file", "-p", result.commit)


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen signs the commits here")
def test_auto_commit_with_commit_gpgsign_and_no_usable_key_fails_naming_the_written_note(repo: Path, tmp_path: Path) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    signing_with_a_new_ssh_key(repo, tmp_path)
    (tmp_path / "signing-key").unlink()
    with pytest.raises(GitError, match=r"made \(memories/.*\.md\) but not committed"):
        Vault(repo).remember("Rui's birthday dinner at Taberna", layer="L2", now=NOW)
    assert git(repo, "log", "-1", "--format=%s") == "config\n"


def merge_in_conflict(repo: Path, desktop: str, laptop: str) -> Path:
    """people/rui.md written as ``desktop`` on a branch and as ``laptop`` on this one, then the
    branch merged here: a merge stopped on the note's conflict, as a pull leaves one."""
    note = repo / "people/rui.md"
    git(repo, "checkout", "-q", "-b", "desktop")
    note.write_text(desktop)
    commit_all(repo, "desktop")
    git(repo, "checkout", "-q", "-")
    note.write_text(laptop)
    commit_all(repo, "laptop")
    assert subprocess.run(["git", "merge", "-q", "desktop"], cwd=repo, capture_output=True).returncode != 0
    return note


def conflicted_memory(repo: Path) -> Path:
    """A memory whose merge conflict spans its frontmatter's closing line, as a pull left one."""
    note = merge_in_conflict(repo, "---\ntitle: Rui\nlayer: L3\ntags: [work]\nexpires_at: 2027-01-01\n---\nRui likes fado.\n",
                             "---\ntitle: Rui\nlayer: L3\ntags: [team]\nexpires_at: 2027-01-01\n---\nRui likes jazz.\n\n"
                             "And bossa nova.\n")
    assert "<<<<<<<" in note.read_text().split("---\n")[1]  # the conflict starts inside the frontmatter
    return note


@pytest.mark.parametrize("change", [["--text", "Rui likes choro."], ["--append", "Rui plays cavaquinho."]])
def test_revise_refuses_a_note_in_an_unresolved_merge_and_keeps_both_sides(repo: Path, change: list[str]) -> None:
    # A trial: --text replaced the "body" after the first ---, inside the conflict, and
    # the desktop's side and the closing markers went with it.
    note = conflicted_memory(repo)
    before = note.read_bytes()
    result = run_cli(repo, "revise", "people/rui.md", *change)
    assert result.exit_code == 1
    assert "people/rui.md holds an unresolved git merge conflict (<<<<<<< at line 4, >>>>>>> at line 16)" in result.output
    assert "git add people/rui.md" in result.output
    assert note.read_bytes() == before


def test_a_setext_heading_or_a_lone_marker_is_no_merge_conflict() -> None:
    assert merge_markers.first_conflict("Title\n=======\n\ntext\n") is None
    assert merge_markers.first_conflict("<<<<<<< HEAD\nonly an opening\n>>>>>>> x\n") is None
    assert merge_markers.first_conflict("a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> 1234abc\n") == merge_markers.ConflictSpan(2, 6)


def test_a_note_in_an_unresolved_merge_is_a_problem_check_get_and_search_name(repo: Path) -> None:
    # A trial: check exited 0, search showed "<<<<<<< HEAD" in snippets without a word, and a
    # conflict in the frontmatter was reported as "quote values containing ': '".
    conflicted_memory(repo)
    checked = run_cli(repo, "check")
    assert checked.exit_code == 1, checked.output
    assert ("people/rui.md: conflict: an unresolved git merge conflict (<<<<<<< at line 4, >>>>>>> at line 16)"
            in checked.output), checked.output
    assert "fix: keep the lines you want, delete the marker lines, then `git add people/rui.md`" in checked.output
    shown = run_cli(repo, "get", "people/rui.md")
    assert "! conflict: an unresolved git merge conflict" in shown.output, shown.output
    found = run_json(repo, "search", "Rui jazz")
    assert any(hit["path"] == "people/rui.md" for hit in found), found  # still found: both sides are its text


@pytest.mark.parametrize("command", [["forget", "people/rui.md"], ["forget", "people/rui.md", "--hard"],
                                     ["remember", "Rui likes choro now.", "--supersedes", "people/rui.md"]])
def test_forget_and_supersede_leave_a_note_in_an_unresolved_merge_where_git_expects_it(repo: Path, command: list[str]) -> None:
    # Moved or deleted mid-merge, git's conflict names a file that is gone (status UU).
    note = conflicted_memory(repo)
    before = note.read_bytes()
    result = run_cli(repo, *command)
    assert result.exit_code == 1, result.output
    assert "people/rui.md holds an unresolved git merge conflict" in result.output
    assert note.read_bytes() == before
    assert not (repo / "_archive").exists() and not (repo / "memories").exists()


def test_expire_skips_a_note_in_an_unresolved_merge_and_says_why(repo: Path) -> None:
    note = conflicted_memory(repo)
    before = note.read_bytes()
    report = run_json(repo, "expire", "--apply", "--as-of", "2027-06-01")
    skipped = {entry["path"]: entry["reason"] for entry in report["skipped"]}
    assert "an unresolved git merge conflict" in skipped.get("people/rui.md", ""), report
    assert note.read_bytes() == before


def test_consolidate_leaves_out_a_note_in_an_unresolved_merge_and_says_why(repo: Path) -> None:
    conflicted_memory(repo)
    (repo / "people/rui-2.md").write_text("---\ntitle: Rui\nlayer: L3\ntags: [team]\nexpires_at: 2027-01-01\n---\n"
                                          "Rui likes jazz.\n\nAnd bossa nova.\n")
    report = run_json(repo, "consolidate")
    reasons = {item["path"]: item["reason"] for item in report["left_out"]}
    assert "unresolved git merge conflict" in reasons.get("people/rui.md", ""), report
    assert all("people/rui.md" not in json.dumps(cluster) for cluster in report["clusters"]), report["clusters"]


def test_check_fix_stamps_nothing_into_a_note_in_an_unresolved_merge_and_says_why(repo: Path) -> None:
    # The conflict in the body, the frontmatter loads: --fix stamped expires_at into the file
    # git waits on the person to resolve, though its conflict problem says "vaultmem changes
    # nothing in it" — and with auto_commit committed the stamp in the middle of the merge.
    auto_commit_on(repo)
    note = merge_in_conflict(repo, "---\ntitle: Rui\nlayer: L3\n---\nRui likes fado.\n",
                             "---\ntitle: Rui\nlayer: L3\n---\nRui likes bossa nova.\n")
    before = note.read_bytes()
    report = run_json(repo, "check", "--fix")
    assert report["fixed"] == [], report
    refusal = [problem for problem in report["problems"] if problem["path"] == "people/rui.md" and problem["field"] == "fix"]
    assert [problem["message"] for problem in refusal] == [
        "it holds an unresolved git merge conflict, so check --fix leaves it alone"], report["problems"]
    assert note.read_bytes() == before
    status = subprocess.run(["git", "status", "--porcelain", "people/rui.md"], cwd=repo, capture_output=True, text=True)
    assert status.stdout.startswith("UU "), status.stdout  # still the person's merge to resolve


def test_a_conflict_shown_inside_a_code_block_is_no_merge_in_progress(repo: Path) -> None:
    # A review: a note about git showing the markers in a code block failed check and was
    # refused every edit for good ("delete the marker lines").
    example = ("# Resolving a conflict\n\nGit leaves this in the file:\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n"
               ">>>>>>> feature\n```\n\nKeep one side and delete the marker lines.\n")
    assert merge_markers.first_conflict(example) is None
    (repo / "git-howto.md").write_text(example, encoding="utf-8")
    checked = run_json(repo, "check")
    assert not [problem for problem in checked["problems"] if problem["path"] == "git-howto.md"], checked
    appended = run_cli(repo, "revise", "git-howto.md", "--append", "Then git add the file.")
    assert appended.exit_code == 0, appended.output
    real = example + "<<<<<<< HEAD\nmine\n=======\nyours\n>>>>>>> other\n"
    assert merge_markers.first_conflict(real) == merge_markers.ConflictSpan(14, 18)  # one outside the block still counts


RUI_UTF16 = "---\ntitle: Rui\nlayer: L3\nexpires_at: 2027-01-01\n---\nRui likes {music}.\n\nHe plays on Fridays 🎷.\n"


def utf16(text: str, codec: str = "utf-16-le", newline: str = "\n") -> bytes:
    """``text`` as a Windows editor saves it as UTF-16: a byte-order mark, then the text."""
    bom = codecs.BOM_UTF16_LE if codec == "utf-16-le" else codecs.BOM_UTF16_BE
    return bom + text.replace("\n", newline).encode(codec)


def utf16_merge_in_conflict(repo: Path, attributes: str | None) -> Path:
    """people/rui.md saved as UTF-16 on two branches with two musics, then merged: git's real
    merge of it, with ``attributes`` as .gitattributes (none: git's default)."""
    if attributes is not None:
        (repo / ".gitattributes").write_text(attributes, encoding="utf-8")
    note = repo / "people/rui.md"
    note.write_bytes(utf16(RUI_UTF16.format(music="jazz")))
    commit_all(repo, "rui in UTF-16")
    git(repo, "checkout", "-q", "-b", "desktop")
    note.write_bytes(utf16(RUI_UTF16.format(music="fado")))
    commit_all(repo, "desktop")
    git(repo, "checkout", "-q", "-")
    note.write_bytes(utf16(RUI_UTF16.format(music="bossa nova")))
    commit_all(repo, "laptop")
    assert subprocess.run(["git", "merge", "-q", "desktop"], cwd=repo, capture_output=True).returncode != 0
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")
    return note


def conflict_messages(repo: Path, relative: str) -> list[str]:
    checked = run_cli(repo, "check", "--json")
    assert checked.exit_code == 1, checked.output
    problems = json.loads(checked.stdout)["problems"]
    return [problem["message"] + " | " + problem["fix"] for problem in problems
            if problem["path"] == relative and problem["field"] == "conflict"]


def test_a_utf16_note_git_merged_as_binary_is_a_conflict_check_names_with_where_the_other_side_is(repo: Path) -> None:
    # A trial: git merges a UTF-16 note as binary, writes no markers and leaves one side in the
    # file; check named only its encoding, and search read that side as the note.
    note = utf16_merge_in_conflict(repo, None)
    assert "bossa nova" in note.read_bytes().decode("utf-16") and b"<<<<<<<" not in note.read_bytes()  # git's doing
    [message] = conflict_messages(repo, "people/rui.md")
    assert "git merges a UTF-16 file as binary" in message
    assert "`git show :2:./people/rui.md` is your side, `:3:` the other" in message
    shown = subprocess.run(["git", "show", ":3:./people/rui.md"], cwd=repo, capture_output=True, check=True).stdout
    assert "fado" in shown.decode("utf-16")  # the fix's command shows the other side
    git(repo, "add", "people/rui.md")
    assert conflict_messages(repo, "people/rui.md") == []


def test_a_utf16_note_merged_through_working_tree_encoding_is_a_conflict_with_its_markers(repo: Path) -> None:
    # With working-tree-encoding git merges the text and writes the markers in UTF-16 too.
    note = utf16_merge_in_conflict(repo, "people/rui.md working-tree-encoding=UTF-16\n")
    assert "<<<<<<< HEAD" in note.read_bytes().decode("utf-16")
    [message] = conflict_messages(repo, "people/rui.md")
    assert message.startswith("an unresolved git merge conflict (<<<<<<< at line 6, >>>>>>> at line 10)"), message


@pytest.mark.skipif(shutil.which("diff3") is None, reason="GNU diff3 merges the notes' bytes here")
@pytest.mark.parametrize(("codec", "newline"), [("utf-16-le", "\n"), ("utf-16-be", "\n"), ("utf-16-le", "\r\n")])
def test_utf8_markers_a_byte_merge_wrote_into_a_utf16_note_are_a_conflict_and_its_text_reads_right(
        repo: Path, codec: str, newline: str) -> None:
    # `diff3 -a` (as a merge driver or a merge tool might) merges lines of bytes and writes its
    # markers as UTF-8: read as UTF-16, they were CJK letters and, in a little-endian file,
    # every letter after them was off by a byte — indexed as garbage, no conflict said.
    sides = {}
    for side, music in (("base", "jazz"), ("ours", "bossa nova"), ("theirs", "fado")):
        sides[side] = repo / f"{side}.bin"
        sides[side].write_bytes(utf16(RUI_UTF16.format(music=music), codec, newline))
    merged = subprocess.run(["diff3", "-m", "-a", *map(str, (sides["ours"], sides["base"], sides["theirs"]))],
                            capture_output=True, check=False).stdout
    assert b"\n<<<<<<< " in merged and b"\n=======\n" in merged  # UTF-8 markers in UTF-16 bytes: the premise
    for path in sides.values():
        path.unlink()
    (repo / "people/rui.md").write_bytes(merged)
    [message] = conflict_messages(repo, "people/rui.md")
    assert message.startswith("an unresolved git merge conflict (<<<<<<< at line 6, >>>>>>> at line 12)"), message
    shown = run_cli(repo, "get", "people/rui.md")
    assert "! conflict: an unresolved git merge conflict" in shown.output
    assert "Rui likes fado.\n>>>>>>> " in shown.output and "He plays on Fridays 🎷." in shown.output, shown.output
    hits = run_json(repo, "search", "Rui fado Fridays")
    assert [hit["path"] for hit in hits][:1] == ["people/rui.md"], hits  # type: ignore[index]


RUI_MEMORY = "---\ntitle: Rui\nlayer: L3\nexpires_at: 2027-01-01\n---\nRui likes {music}.\n\nHe plays on Fridays.\n"


def ours_checked_out(repo: Path) -> Path:
    """A merge stopped on people/rui.md's conflict, then `git checkout --ours` on it: the file
    is one side whole, no markers, and git's index still holds it unmerged."""
    note = merge_in_conflict(repo, RUI_MEMORY.format(music="fado"), RUI_MEMORY.format(music="bossa nova"))
    git(repo, "checkout", "--ours", "--", "people/rui.md")
    assert b"<<<<<<<" not in note.read_bytes() and "bossa nova" in note.read_text()
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")  # git's premise
    return note


def still_unmerged(repo: Path, note: Path, before: bytes) -> None:
    assert note.read_bytes() == before
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")
    assert not (repo / "_archive").exists() and not (repo / "memories").exists()


@pytest.mark.parametrize("command", [["revise", "people/rui.md", "--append", "Rui plays cavaquinho."],
                                     ["forget", "people/rui.md"], ["forget", "people/rui.md", "--hard"],
                                     ["remember", "Rui likes choro now.", "--supersedes", "people/rui.md"]])
def test_a_note_git_holds_unmerged_without_markers_is_refused_every_write(repo: Path, command: list[str]) -> None:
    # `git checkout --ours` during a merge leaves the file clean and the index unmerged: revise
    # wrote into the person's merge, forget moved it away and left git's conflict on a missing path.
    note = ours_checked_out(repo)
    before = note.read_bytes()
    result = run_cli(repo, *command)
    assert result.exit_code == 1, result.output
    assert "people/rui.md is in an unfinished git merge: git's index holds it unmerged" in result.output
    assert "nothing was written" in result.output
    assert "`git show :2:./people/rui.md` is your side, `:3:` the other" in result.output
    assert "then `git add people/rui.md`" in result.output
    still_unmerged(repo, note, before)


def test_forget_leaves_a_utf16_note_git_merged_as_binary_where_git_expects_it(repo: Path) -> None:
    # The two-machine trial: git merged the UTF-16 note as binary (no markers) and `forget`
    # moved it into the archive, git's conflict left on a path that no longer existed.
    note = utf16_merge_in_conflict(repo, None)
    before = note.read_bytes()
    result = run_cli(repo, "forget", "people/rui.md")
    assert result.exit_code == 1, result.output
    assert "people/rui.md is in an unfinished git merge" in result.output
    still_unmerged(repo, note, before)


def test_the_api_refuses_a_note_git_holds_unmerged_as_an_unresolved_conflict(repo: Path) -> None:
    from vaultmem import UnmergedNote, UnresolvedConflict

    note = ours_checked_out(repo)
    before = note.read_bytes()
    with Vault(repo) as vault:
        with pytest.raises(UnmergedNote) as refused:
            vault.revise("people/rui.md", append="Rui plays cavaquinho.")
        assert isinstance(refused.value, UnresolvedConflict) and refused.value.path == "people/rui.md"
        git(repo, "add", "people/rui.md")  # the person finishes the merge: the same revise goes through
        assert vault.revise("people/rui.md", append="Rui plays cavaquinho.").changed == ["body"]
    assert note.read_bytes() != before


def test_forget_refuses_a_note_one_side_deleted_and_the_other_changed(repo: Path) -> None:
    # A modify/delete conflict: git leaves the changed side in the file, no markers (status DU).
    note = repo / "people/rui.md"
    git(repo, "checkout", "-q", "-b", "desktop")
    note.write_text(RUI_MEMORY.format(music="fado"))
    commit_all(repo, "desktop")
    git(repo, "checkout", "-q", "-")
    git(repo, "rm", "-q", "people/rui.md")
    commit_all(repo, "laptop deleted rui")
    assert subprocess.run(["git", "merge", "-q", "desktop"], cwd=repo, capture_output=True).returncode != 0
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("DU ")
    result = run_cli(repo, "forget", "people/rui.md")
    assert result.exit_code == 1, result.output
    assert "people/rui.md is in an unfinished git merge" in result.output
    assert note.exists() and not (repo / "_archive").exists()


def test_expire_skips_a_note_git_holds_unmerged_in_the_dry_run_and_with_apply(repo: Path) -> None:
    note = ours_checked_out(repo)
    before = note.read_bytes()
    for apply in ([], ["--apply"]):
        report = run_json(repo, "expire", *apply, "--as-of", "2027-06-01")
        skipped = {entry["path"]: entry["reason"] for entry in report["skipped"]}
        assert skipped.get("people/rui.md", "").startswith("git's merge of it stopped on a conflict"), report
        assert "then run expire again" in skipped["people/rui.md"]
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")
    assert note.read_bytes() == before and not (repo / "_archive").exists()


def test_consolidate_leaves_out_a_note_git_holds_unmerged(repo: Path) -> None:
    note = ours_checked_out(repo)
    before = note.read_bytes()
    (repo / "people/rui-2.md").write_text(RUI_MEMORY.format(music="bossa nova"))
    for apply in ([], ["--apply"]):
        report = run_json(repo, "consolidate", *apply)
        reasons = {item["path"]: item["reason"] for item in report["left_out"]}
        assert reasons.get("people/rui.md", "").startswith("git's merge of it is unfinished"), report
        assert all("people/rui.md" not in json.dumps(cluster) for cluster in report["clusters"]), report["clusters"]
    assert note.read_bytes() == before and (repo / "people/rui-2.md").exists()


def test_check_fix_stamps_nothing_into_a_note_git_holds_unmerged_and_get_says_why(repo: Path) -> None:
    auto_commit_on(repo)
    note = merge_in_conflict(repo, "---\ntitle: Rui\nlayer: L3\n---\nRui likes fado.\n",
                             "---\ntitle: Rui\nlayer: L3\n---\nRui likes bossa nova.\n")
    git(repo, "checkout", "--ours", "--", "people/rui.md")
    before = note.read_bytes()
    report = run_json(repo, "check", "--fix")
    assert report["fixed"] == [], report
    fields = {problem["field"]: problem["message"] for problem in report["problems"] if problem["path"] == "people/rui.md"}
    assert fields["fix"] == "it holds an unresolved git merge conflict, so check --fix leaves it alone", report
    assert fields["conflict"].startswith("git's merge of it stopped on a conflict it could not mark"), report
    assert note.read_bytes() == before
    assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")
    shown = run_json(repo, "get", "people/rui.md")
    [conflict] = [problem for problem in shown["problems"] if problem["field"] == "conflict"]
    assert "`git show :2:./people/rui.md` is your side" in conflict["fix"], shown
    git(repo, "add", "people/rui.md")
    assert not [problem for problem in run_json(repo, "get", "people/rui.md")["problems"] if problem["field"] == "conflict"]


# ---------------------------------------------------------------- reads of a note git holds unmerged (git_index.py)

UNMERGED_HIT = "conflict: an unfinished git merge (git's index holds it unmerged, the file shows no markers)"


def unmerged_warnings(warnings: Sequence[str]) -> list[str]:
    return [warning for warning in warnings if warning.startswith(UNMERGED_HIT)]


def rui_hit(vault: Vault) -> Any:
    [hit] = [hit for hit in vault.search("Rui music", now=NOW) if hit.path == "people/rui.md"]
    return hit


def test_a_hit_and_a_listed_note_git_holds_unmerged_say_so_until_the_person_adds_it(repo: Path) -> None:
    # Was: the hit read one side of the person's merge as the note, no warning (only check and
    # get asked git). The same Vault is asked again after `git add`: the answer kept must notice.
    ours_checked_out(repo)
    with Vault(repo) as vault:
        [warning] = unmerged_warnings(rui_hit(vault).warnings)
        assert warning.endswith("(Vault.get() says how to finish it)"), warning
        listed = {note.path: note.warnings for note in vault.list_notes(now=NOW)}
        assert unmerged_warnings(listed["people/rui.md"]) and not unmerged_warnings(listed["mine.md"]), listed
        git(repo, "add", "people/rui.md")
        assert unmerged_warnings(rui_hit(vault).warnings) == []
        assert unmerged_warnings(next(note for note in vault.list_notes(now=NOW) if note.path == "people/rui.md").warnings) == []


def test_a_hit_of_a_utf16_note_git_merged_as_binary_says_it_is_one_side_of_a_merge(repo: Path) -> None:
    note = utf16_merge_in_conflict(repo, None)
    assert b"<<<<<<<" not in note.read_bytes()  # git's doing: nothing in the file tells
    hits = run_json(repo, "search", "Rui bossa nova", "--as-of", NOW)
    [hit] = [hit for hit in hits if hit["path"] == "people/rui.md"]  # type: ignore[index]
    [warning] = unmerged_warnings(hit["warnings"])
    assert warning.endswith("(`vaultmem get` says how to finish it)"), warning  # spelled for the shell


def test_a_note_with_markers_carries_its_marker_warning_only(repo: Path) -> None:
    conflicted_memory(repo)
    with Vault(repo) as vault:
        warnings = rui_hit(vault).warnings
    assert [warning for warning in warnings if warning.startswith("conflict: ")] == [
        next(warning for warning in warnings if warning.startswith("conflict: an unresolved git merge conflict (<<<<<<<"))]


def test_a_stash_pop_that_conflicts_leaves_no_merge_head_and_the_hit_still_says_so(repo: Path) -> None:
    # The operation files cannot tell: `git stash pop` stopped on a conflict leaves the index
    # unmerged and no MERGE_HEAD (git 2.39) — so the answer is keyed on the index file.
    note = repo / "people/rui.md"
    with Vault(repo) as vault:
        assert unmerged_warnings(rui_hit(vault).warnings) == []  # asked once, nothing unmerged
        note.write_text(RUI_MEMORY.format(music="fado"))
        git(repo, "stash", "-q")  # this test's own repository's stash
        note.write_text(RUI_MEMORY.format(music="bossa nova"))
        commit_all(repo, "laptop")
        assert subprocess.run(["git", "stash", "pop"], cwd=repo, capture_output=True).returncode != 0
        git(repo, "checkout", "--ours", "--", "people/rui.md")
        assert git(repo, "status", "--porcelain", "people/rui.md").startswith("UU ")  # git's premise
        assert not any((repo / ".git" / name).exists() for name in ("MERGE_HEAD", "rebase-merge", "rebase-apply",
                                                                   "CHERRY_PICK_HEAD", "REVERT_HEAD"))
        assert unmerged_warnings(rui_hit(vault).warnings)


def test_explain_of_a_note_git_holds_unmerged_says_so_as_the_surface_spells_it(repo: Path) -> None:
    ours_checked_out(repo)
    explained = run_json(repo, "explain", "people/rui.md", "Rui music", "--as-of", NOW)
    [reason] = unmerged_warnings(explained["reasons"])  # type: ignore[index]
    assert reason.endswith("(`vaultmem get` says how to finish it)"), reason
    git(repo, "add", "people/rui.md")
    assert unmerged_warnings(run_json(repo, "explain", "people/rui.md", "Rui music", "--as-of", NOW)["reasons"]) == []  # type: ignore[index]


def test_recall_list_and_explain_over_mcp_say_a_note_is_unmerged_until_the_person_adds_it(repo: Path, tmp_path: Path) -> None:
    from mcp_client import run, serve

    ours_checked_out(repo)
    fix = "(the get tool says how to finish it)"  # an agent has the get tool, maybe no shell
    # include_expired: Rui's memory expires 2027-01-01, and the server's clock is the real one.

    async def scenario() -> None:
        async with serve(repo, tmp_path / "server-stderr.log") as served:
            hits = (await served.call("recall", query="Rui music", include_expired=True))["hits"]
            [warning] = unmerged_warnings(next(hit for hit in hits if hit["path"] == "people/rui.md")["warnings"])
            assert warning.endswith(fix), warning
            listed = (await served.call("list_notes", include_expired=True))["notes"]
            assert unmerged_warnings(next(note for note in listed if note["path"] == "people/rui.md")["warnings"])
            explained = await served.call("explain", note="people/rui.md", query="Rui music", include_expired=True)
            assert [reason for reason in explained["reasons"] if reason.endswith(fix)], explained
            git(repo, "add", "people/rui.md")  # the server, still running, must notice
            hits = (await served.call("recall", query="Rui music", include_expired=True))["hits"]
            assert not unmerged_warnings(next(hit for hit in hits if hit["path"] == "people/rui.md")["warnings"])

    run(scenario)


def test_a_vault_in_a_folder_of_a_linked_worktree_warns_from_that_worktree_s_own_index(tmp_path: Path) -> None:
    # A linked worktree's .git is a file and its index is in the main repository's
    # .git/worktrees/<name>/: an index looked for at <vault>/.git/index would never change.
    main, linked = tmp_path / "main", tmp_path / "linked"
    (main / "memories").mkdir(parents=True)
    git(main, "init", "-q")
    git(main, "config", "user.email", "maya@example.com")
    git(main, "config", "user.name", "Maya")
    note = main / "memories/rui.md"
    note.write_text(RUI_MEMORY.format(music="jazz"))
    commit_all(main, "first")
    git(main, "worktree", "add", "-q", str(linked))
    vault, note = linked / "memories", linked / "memories/rui.md"
    git(linked, "checkout", "-q", "-b", "desktop")
    note.write_text(RUI_MEMORY.format(music="fado"))
    commit_all(linked, "desktop")
    git(linked, "checkout", "-q", "linked")
    note.write_text(RUI_MEMORY.format(music="bossa nova"))
    commit_all(linked, "laptop")
    with Vault(vault) as reader:
        assert not unmerged_warnings(reader.search("Rui music", now=NOW)[0].warnings)
        assert subprocess.run(["git", "merge", "-q", "desktop"], cwd=linked, capture_output=True).returncode != 0
        git(linked, "checkout", "--ours", "--", "memories/rui.md")
        [hit] = [hit for hit in reader.search("Rui music", now=NOW) if hit.path == "rui.md"]
        assert unmerged_warnings(hit.warnings), hit.warnings


def test_a_search_says_when_git_cannot_tell_which_notes_are_unmerged(repo: Path) -> None:
    # "Could not ask" must not read as "none unmerged": a damaged index fails git's ls-files.
    with Vault(repo) as vault:
        assert rui_hit(vault).warnings == []
        (repo / ".git" / "index").write_bytes(b"not an index")
        hits = vault.search("Rui music", now=NOW)
    [said] = [warning for warning in hits.warnings if warning.startswith("could not ask git which notes are in an unfinished merge")]
    assert "index file" in said and said.endswith("(Vault.check() names them once git answers)"), said


# ---------------------------------------------------------------- a NOTE that left the vault, asked of get and revise


def test_get_of_a_note_a_person_deleted_says_it_left_the_vault_and_in_which_commit(repo: Path, write_note) -> None:
    # Was "no note matches '01M8DANA…'. Name a note by its id, …": an agent that named it by the
    # id it was given took its id for wrong, not the memory for deleted.
    dana(repo, write_note)
    git(repo, "rm", "-q", "memories/dana-tea.md")
    commit_all(repo, "remove dana")
    deleting = git(repo, "rev-parse", "HEAD").strip()
    with pytest.raises(NoteNotFound) as raised:
        Vault(repo).get(DANA_ID)
    assert str(raised.value).startswith(f"no note matches '{DANA_ID}' now: memories/dana-tea.md is no longer in the vault: "
                                        f"deleted in commit {deleting[:10]}")
    result = run_cli(repo, "get", DANA_ID)
    assert result.exit_code == 1 and f"deleted in commit {deleting[:10]}" in result.stderr, result.output
    assert "`vaultmem history " in result.stderr, result.stderr


def test_the_history_command_a_removed_notes_error_names_is_one_a_shell_runs(repo: Path, write_note) -> None:
    # Was (my trial): "the person's `vaultmem history Dana's tea` lists its commits" — pasted into a
    # shell, a name with spaces is three arguments, and its apostrophe opens a quote.
    dana(repo, write_note)
    git(repo, "rm", "-q", "memories/dana-tea.md")
    commit_all(repo, "remove dana")
    result = run_cli(repo, "get", "Dana's tea")
    assert result.exit_code == 1, result.output
    named = re.search(r"`vaultmem (history [^`]+)`", result.stderr)
    assert named is not None, result.stderr
    again = run_cli(repo, *shlex.split(named[1]))
    assert again.exit_code == 0, again.output
    assert "memories/dana-tea.md" in again.stdout


def test_explain_of_a_removed_note_says_where_it_went_and_of_a_renamed_one_explains_it_where_it_lives(repo: Path, write_note) -> None:
    # Was "no note matches …" for both, where get and the writes already said where it went.
    dana(repo, write_note)
    os.makedirs(repo / "people", exist_ok=True)
    os.rename(repo / "memories/dana-tea.md", repo / "people/dana.md")  # not committed: Obsidian's rename
    explained = Vault(repo).explain("memories/dana-tea.md", "tea")
    assert explained.path == "people/dana.md"
    commit_all(repo, "rename dana")
    git(repo, "rm", "-q", "people/dana.md")
    commit_all(repo, "remove dana")
    deleting = git(repo, "rev-parse", "HEAD").strip()
    with pytest.raises(NoteNotFound) as raised:
        Vault(repo).explain(DANA_ID, "tea")
    assert f"deleted in commit {deleting[:10]}" in str(raised.value)


def test_get_and_revise_by_the_old_path_of_a_note_a_person_renamed_find_it_where_it_lives(repo: Path, write_note) -> None:
    dana(repo, write_note)
    os.makedirs(repo / "people", exist_ok=True)
    os.rename(repo / "memories/dana-tea.md", repo / "people/dana.md")  # not committed: Obsidian's rename
    vault = Vault(repo)
    shown = vault.get("memories/dana-tea.md")
    assert (shown.path, shown.id) == ("people/dana.md", DANA_ID)
    assert str(shown.resolved_from) == "'memories/dana-tea.md' resolved through its old name"
    assert vault.revise("memories/dana-tea.md", append="Hojicha in winter.").path == "people/dana.md"


def test_a_persons_note_without_an_id_renamed_by_hand_is_found_by_its_old_name_not_called_deleted(repo: Path,
                                                                                                   write_note) -> None:
    # A trial on a campaign vault: `Drusz.md` renamed in Obsidian to `Drusz (Droop).md`, not committed;
    # `get Drusz` said "no longer in the vault: deleted", though watch had logged the move. Without an
    # `id`, git's view (a deletion beside an untracked file) was all there was to go by.
    npc = "---\ntype: npc\ntags:\n- npc/alive\n---\n# Drusz\nA goblin the bugbears called Droop.\n"
    write_note("npcs/Drusz.md", npc)
    write_note("npcs/Seamus.md", "# Seamus\nAn apprentice blacksmith.\n")
    write_note("npcs/Greta.md", "A hedge witch.\n")
    commit_all(repo, "npcs")
    os.rename(repo / "npcs/Drusz.md", repo / "npcs/Drusz (Droop).md")
    os.rename(repo / "npcs/Greta.md", repo / "npcs/Greta (Witch).md")
    (repo / "npcs/Seamus.md").unlink()
    vault = Vault(repo, embedder=HashingEmbedder())
    # Drusz still opens with `# Drusz`: that heading names it before git is asked (adr/0019
    # "heading"); its old path, and Greta's old name (no heading), are asked of git.
    for reference, via, path in (("Drusz", "heading", "npcs/Drusz (Droop).md"),
                                 ("npcs/Drusz.md", "old name", "npcs/Drusz (Droop).md"),
                                 ("Greta", "old name", "npcs/Greta (Witch).md")):
        shown = vault.get(reference)
        assert shown.path == path
        assert str(shown.resolved_from) == f"{reference!r} resolved through its {via}"
    with pytest.raises(NoteNotFound) as deleted:  # deleted, not renamed: still said so
        vault.get("Seamus")
    assert "deleted, not committed yet" in str(deleted.value)


def archived_by_hand(repo: Path, reference: str, where: str) -> list[str]:
    """What get, revise, explain (API) and `vaultmem get` say of ``reference``, a note a person
    moved into the archive; and that the archived file was left as it was."""
    before = (repo / "_archive/dana-tea.md").read_bytes()
    vault = Vault(repo)
    said = []
    for ask in (lambda: vault.get(reference), lambda: vault.revise(reference, append="Hojicha in winter."),
                lambda: vault.explain(reference, "tea")):
        with pytest.raises(NoteNotFound) as raised:
            ask()
        said.append(str(raised.value))
    result = run_cli(repo, "get", reference)
    assert result.exit_code == 1, result.output
    said.append(result.stderr)
    assert (repo / "_archive/dana-tea.md").read_bytes() == before
    assert str(vault.history(reference).gone).endswith(f"archived to _archive/dana-tea.md{where}")
    for text in said:
        assert f"is no longer in the vault: archived to _archive/dana-tea.md{where}" in text, text
        assert "move it out of _archive/ to make it a note again" in text, text
        assert "deleted" not in text, text
    return said


def test_a_note_a_person_dragged_into_the_archive_is_said_archived_there_not_deleted(repo: Path, write_note) -> None:
    # Obsidian drops a dragged note at the archive's top, a move git does not see while the new
    # file is untracked: get, revise and explain of its old path or title said it was deleted.
    dana(repo, write_note)
    os.makedirs(repo / "_archive", exist_ok=True)
    os.rename(repo / "memories/dana-tea.md", repo / "_archive/dana-tea.md")
    for reference in ("memories/dana-tea.md", "Dana's tea"):
        archived_by_hand(repo, reference, ", not committed yet")


def test_a_note_a_person_edited_then_moved_into_the_archive_is_found_there_by_its_id(repo: Path, write_note) -> None:
    dana(repo, write_note)
    os.makedirs(repo / "_archive", exist_ok=True)
    note = repo / "memories/dana-tea.md"
    (repo / "_archive/dana-tea.md").write_text(note.read_text() + "Moved to the archive: she drinks coffee now.\n")
    note.unlink()
    archived_by_hand(repo, "memories/dana-tea.md", ", not committed yet")


def test_a_note_a_person_moved_into_the_archive_and_committed_says_how_to_bring_it_back(repo: Path, write_note) -> None:
    dana(repo, write_note)
    os.makedirs(repo / "_archive", exist_ok=True)
    git(repo, "mv", "memories/dana-tea.md", "_archive/dana-tea.md")
    commit_all(repo, "archive dana")
    moving = git(repo, "rev-parse", "HEAD").strip()
    archived_by_hand(repo, "memories/dana-tea.md", f" in commit {moving[:10]}")


def test_a_name_no_live_note_and_no_removed_note_had_is_still_plainly_not_found(repo: Path) -> None:
    with pytest.raises(NoteNotFound) as raised:
        Vault(repo).get("memories/never-was")
    assert type(raised.value) is NoteNotFound and str(raised.value).startswith("no note matches 'memories/never-was'.")


def test_a_commit_made_while_the_persons_git_commit_waits_for_its_message_fails_neither(repo: Path, tmp_path: Path) -> None:
    """A trial (agents writing over MCP with auto_commit while the person used git): vaultmem moved
    HEAD while the person's `git commit -a` had its editor open (a pull's merge likewise), and their
    commit failed at its end: "cannot lock ref 'HEAD': is at … but expected …". vaultmem now takes
    git's own index lock to move HEAD, so it waits for that command and commits after it."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    Vault(repo).index()
    editor = tmp_path / "editor.py"
    editor.write_text("import sys, time\ntime.sleep(2)\nopen(sys.argv[1], 'w').write('the person writes a message\\n')\n")
    (repo / "mine.md").write_text("# Maya's own note\n\nAn edit of her own.\n", encoding="utf-8")
    person = subprocess.Popen(["git", "commit", "-a", "-q"], cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "GIT_EDITOR": f"{shlex.quote(sys.executable)} {shlex.quote(str(editor))}"})
    lock = repo / ".git" / "index.lock"
    wait_until(lock.exists, what="the person's git commit to hold the index lock")
    result = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    _, errors = person.communicate(timeout=60)
    assert person.returncode == 0, errors
    assert result.commit is not None and result.not_committed == []
    assert git(repo, "log", "--format=%s", "-2").splitlines() == [
        "vaultmem remember: The plumber comes on Monday at 8.", "the person writes a message"]
    assert git(repo, "status", "--porcelain") == ""  # both committed, the person's index whole


def test_a_git_index_lock_held_past_the_wait_leaves_the_change_uncommitted_and_says_why(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A git command that keeps git's index (a crashed one's leftover lock, an editor left open):
    vaultmem used to commit anyway and then fail to point the index at its commit, so the write
    answered with an error ("the change was made but not committed: committed, …" — both) and
    the person's index left the new note out: `git status` said it was deleted, and their next
    commit would have deleted it from git."""
    monkeypatch.setattr(gitops, "INDEX_LOCK_SECONDS", 0.3, raising=False)  # the wait, cut short for the test
    auto_commit_on(repo)
    commit_all(repo, "config")
    head = git(repo, "rev-parse", "HEAD")
    lock = repo / ".git" / "index.lock"
    lock.touch()
    result = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    assert result.commit is None and (repo / result.path).is_file()
    [left] = result.not_committed
    assert left.path == result.path and str(lock) in left.reason and "commit it yourself" in left.reason
    assert git(repo, "rev-parse", "HEAD") == head
    lock.unlink()
    assert git(repo, "status", "--porcelain", "-uall") == f"?? {result.path}\n"  # untracked, not deleted from the index


def test_a_git_command_that_outlasts_its_time_is_a_git_error_naming_it_not_a_crash(tmp_path: Path,
                                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Was (a review): subprocess.TimeoutExpired escaped every caller that handles a GitError (a
    commit not made, dates from git, history), as a traceback of the whole command."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.setattr(gitops, "GIT_SECONDS", 1)
    with pytest.raises(GitError, match=r"git -c alias\.slow=!sleep 5 took more than 1 s in .* and was stopped"):
        gitops._git_bytes(tmp_path, "-c", "alias.slow=!sleep 5", "slow")


@pytest.mark.skipif(sys.platform == "win32", reason="a symlink needs a privilege there")
@pytest.mark.parametrize("target_there", [True, False])
def test_a_symlink_planted_as_the_write_lock_is_refused_and_its_target_left_alone(
        repo: Path, tmp_path: Path, target_there: bool) -> None:
    # Was: git.lock was opened O_RDWR | O_CREAT, following a symlink: vaultmem created the file it
    # pointed to, or truncated it and wrote its pid line there — a file outside the vault.
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")
    (repo / ".vaultmem").mkdir(exist_ok=True)
    target = tmp_path / "elsewhere" / "precious.txt"
    target.parent.mkdir()
    if target_there:
        target.write_text("the person's text\n", encoding="utf-8")
    lock = repo / ".vaultmem" / gitops.LOCK_NAME
    lock.unlink(missing_ok=True)
    lock.symlink_to(target)
    with pytest.raises(UnsafeLockFile) as refused:
        Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    assert str(lock) in str(refused.value)
    assert f"rm {lock}" in str(refused.value)
    if target_there:
        assert target.read_text(encoding="utf-8") == "the person's text\n"
    else:
        assert not target.exists()
    assert not list(repo.glob("memories/*.md"))  # refused before anything was written


HOLD_GIT_INDEX = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from vaultmem import git_index_lock\n"
    "with git_index_lock.hold_lock(Path(sys.argv[1]), 5) as held:\n"
    "    print('held' if held else 'not held', flush=True)\n"
    "    time.sleep(300)\n"
)


def hold_git_index(repo: Path) -> subprocess.Popen[str]:
    """A vaultmem commit in another process, holding git's index.lock (returns once it holds it)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD_GIT_INDEX, str(repo / ".git" / "index")],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert holder.stdout is not None
    assert holder.stdout.readline() == "held\n"
    return holder


@pytest.mark.skipif(sys.platform == "win32", reason="no flock there: a left lock is never known as vaultmem's")
def test_the_git_index_lock_of_a_killed_vaultmem_commit_is_removed_and_the_commit_made(repo: Path) -> None:
    # Was: a vaultmem killed in its commit left .git/index.lock behind; every later commit of
    # vaultmem's waited 5 s and left its change uncommitted, and every git command of the person's
    # failed, until someone found and deleted the file by hand.
    auto_commit_on(repo)
    commit_all(repo, "config")
    killed = hold_git_index(repo)
    killed.kill()
    killed.wait(30)
    lock = repo / ".git" / "index.lock"
    assert lock.read_bytes().startswith(git_index_lock.INDEX_LOCK_MARK)  # left behind, marked as vaultmem's
    result = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    assert result.commit is not None
    assert result.not_committed == []
    assert not lock.exists()
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.skipif(sys.platform == "win32", reason="no flock there")
def test_the_git_index_lock_of_a_live_vaultmem_or_of_git_is_left_and_the_reason_says_how_to_check_it(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gitops, "INDEX_LOCK_SECONDS", 0.3, raising=False)  # the wait, cut short for the test
    auto_commit_on(repo)
    commit_all(repo, "config")
    lock = repo / ".git" / "index.lock"
    alive = hold_git_index(repo)
    try:
        held = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
        assert lock.read_bytes().startswith(git_index_lock.INDEX_LOCK_MARK)  # its holder lives: not removed
    finally:
        alive.kill()
        alive.wait(30)
    lock.unlink()
    lock.write_bytes(b"")  # as git makes it before it writes the index: git's, whoever left it
    by_git = Vault(repo).remember("The electrician comes on Tuesday.", layer="L2", now=NOW)
    assert lock.read_bytes() == b""
    for result in (held, by_git):
        assert result.commit is None
        [left] = result.not_committed
        assert f"lsof {lock}" in left.reason
        assert f"rm {lock}" in left.reason


def test_a_new_note_a_branch_switch_removed_before_the_commit_is_not_committed_as_if_still_there(tmp_path: Path) -> None:
    """Soak trial: the person's `git add -A && git commit` on a side branch took a note vaultmem had
    just written (not committed yet), and `git checkout main` then removed it from the folder.
    vaultmem's commit still put the note on main and in the person's index, so the folder lacked a
    file git said was there: the person's merge of the side branch (which holds it) did not bring it
    back, and their next `git add -A` committed its deletion — a remembered note gone. Left out of
    the commit, with the reason, the merge restores it."""
    from helpers import git, init_repo

    from vaultmem.noteio import FileChange

    init_repo(tmp_path)
    git(tmp_path, "checkout", "-q", "-b", "main")
    (tmp_path / "a.md").write_text("a\n", encoding="utf-8")
    git(tmp_path, "add", "a.md")
    git(tmp_path, "commit", "-qm", "first")
    git(tmp_path, "checkout", "-q", "-b", "side")
    data = b"---\nlayer: L2\n---\nremembered\n"
    (tmp_path / "new.md").write_bytes(data)  # vaultmem's write; its commit comes next
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "person commit on side")
    git(tmp_path, "checkout", "-q", "main")  # removes new.md: it is side's, not main's
    assert not (tmp_path / "new.md").exists()

    result = gitops.commit_changes(tmp_path, [FileChange("new.md", None, data)], "vaultmem remember: new",
                                   tmp_path / ".vaultmem")

    assert result.commit is None
    assert [left.path for left in result.not_committed] == ["new.md"]
    assert "no longer in the vault" in result.not_committed[0].reason
    assert git(tmp_path, "status", "--porcelain", "--", "new.md") == ""  # nothing claims a file the folder lacks
    git(tmp_path, "merge", "-q", "side")
    assert (tmp_path / "new.md").read_bytes() == data


# A `git commit` paused between reading git's index and taking its lock, as a real one is for the
# moment it looks at every file: the pause is its fsmonitor hook, which git runs while it reads the
# index. The hook says it is reading, waits for "go", then fails (git then looks at every file).
PAUSE_HOOK = '#!/bin/sh\ntouch "$PAUSE_DIR/reading"\nwhile [ ! -e "$PAUSE_DIR/go" ]; do sleep 0.02; done\nexit 1\n'


def git_commit_paused_after_reading_the_index(repo: Path, pause: Path, *args: str) -> subprocess.Popen[str]:
    """The person's `git commit ARGS`, started and paused once it has read git's index (returns then);
    touch ``pause / "go"`` to let it go on."""
    pause.mkdir()
    hook = pause / "fsmonitor-hook"
    hook.write_text(PAUSE_HOOK, encoding="utf-8")
    hook.chmod(0o755)
    person = subprocess.Popen(["git", "-c", f"core.fsmonitor={hook}", "commit", *args], cwd=repo, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PAUSE_DIR": str(pause)})
    wait_until((pause / "reading").exists, what="the person's git commit to read the index")
    return person


def changes_of(repo: Path, commit: str) -> list[str]:
    return git(repo, "diff-tree", "--no-commit-id", "-r", "--name-status", commit).splitlines()


@pytest.mark.skipif(sys.platform == "win32", reason="the pause is a shell script")
def test_a_failed_git_commit_that_read_the_index_before_vaultmems_commit_does_not_make_the_next_commit_delete_the_note(
        repo: Path, tmp_path: Path) -> None:
    """Was (closing note of stop 35): the person's `git commit` read git's index, vaultmem committed
    a new note meanwhile (moving HEAD, pointing the index at it), then the person's commit took the
    index lock and wrote back the index it had read — without the note — and failed ("cannot lock
    ref 'HEAD'"). `git status` said the note was deleted, and the person's next `git commit -a`
    recorded its deletion: git history said they deleted the memory. vaultmem's next commit now
    puts the note back in the index; the person's staged edit of their own note stays staged."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    Vault(repo).index()
    (repo / "mine.md").write_bytes(b"# Maya's own note\n\nStaged by Maya.\n")
    git(repo, "add", "mine.md")
    staged = git(repo, "ls-files", "--stage", "--", "mine.md")
    (repo / "mine.md").write_bytes(b"# Maya's own note\n\nStaged by Maya.\nAnd a line not staged.\n")

    person = git_commit_paused_after_reading_the_index(repo, tmp_path / "pause", "-q", "-m", "maya: my note")
    first = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    (tmp_path / "pause" / "go").touch()
    _, errors = person.communicate(timeout=60)
    assert person.returncode != 0
    assert "cannot lock ref 'HEAD'" in errors  # git's own failure, as in the trial
    assert f"D  {first.path}" in git(repo, "status", "--porcelain").splitlines()  # the index it read, written back

    second = Vault(repo).remember("The electrician comes on Tuesday.", layer="L2", now=NOW)
    assert second.commit is not None
    assert second.not_committed == []
    assert git(repo, "ls-files", "--stage", "--", first.path) == git(repo, "ls-tree", "HEAD", "--", first.path).replace(
        " blob ", " ").replace("\t", " 0\t")  # the note is in the index as committed
    assert git(repo, "ls-files", "--stage", "--", "mine.md") == staged  # Maya's staged edit, byte for byte

    git(repo, "commit", "-qam", "maya: my note, again")
    assert changes_of(repo, "HEAD") == ["M\tmine.md"]  # was: also "D\tmemories/…": the memory recorded deleted
    assert git(repo, "show", "HEAD:mine.md") == "# Maya's own note\n\nStaged by Maya.\nAnd a line not staged.\n"
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.skipif(sys.platform == "win32", reason="the pause is a shell script")
def test_an_index_written_back_by_a_failed_git_commit_is_put_back_naming_the_note_and_the_commit(
        repo: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    person = git_commit_paused_after_reading_the_index(repo, tmp_path / "pause", "-q", "--allow-empty", "-m", "maya")
    first = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    (tmp_path / "pause" / "go").touch()
    person.communicate(timeout=60)
    with caplog.at_level("WARNING", logger="vaultmem"):
        Vault(repo).remember("The electrician comes on Tuesday.", layer="L2", now=NOW)
    [said] = [record.getMessage() for record in caplog.records if "as it was before vaultmem's commit" in record.getMessage()]
    assert first.path in said
    assert str(first.commit)[:10] in said
    assert "Set back to what is committed" in said
    assert git(repo, "status", "--porcelain") == ""


def test_a_note_the_person_unstaged_themselves_later_stays_unstaged_and_is_only_named(
        repo: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A `git rm --cached` of a note vaultmem committed leaves the index as a failed `git commit`
    writes it back; written after the seconds such a write comes in, it is the person's: kept
    (their staged removal is theirs to commit), and said with how to undo it."""
    from vaultmem import index_checks

    monkeypatch.setattr(index_checks, "STALE_INDEX_SECONDS", 0.0)  # any later write of the index is "later"
    auto_commit_on(repo)
    commit_all(repo, "config")
    first = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    git(repo, "rm", "-q", "--cached", "--", first.path)
    with caplog.at_level("WARNING", logger="vaultmem"):
        Vault(repo).remember("The electrician comes on Tuesday.", layer="L2", now=NOW)
    assert git(repo, "ls-files", "--", first.path) == ""  # still unstaged, as the person left it
    [said] = [record.getMessage() for record in caplog.records if "as it was before vaultmem's commit" in record.getMessage()]
    assert f"git reset -q -- {first.path}" in said


@pytest.mark.skipif(sys.platform == "win32", reason="no flock there: a left lock is never known as vaultmem's")
def test_a_git_lock_made_right_after_vaultmem_checked_a_killed_vaultmems_lock_is_not_removed(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The person `rm`s the index.lock a killed vaultmem left, and their git command makes its own,
    in the moment between vaultmem's check that the name still holds the left lock and its removal.
    Was: vaultmem unlinked git's live lock and took its own, and git's rename of `index.lock` over
    the index could move vaultmem's lock file there (the person's staged changes gone)."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    killed = hold_git_index(repo)
    killed.kill()
    killed.wait(30)
    lock = repo / ".git" / "index.lock"
    gits = b"DIRC, as git's new index is written into its lock"
    real_stat = os.stat

    def person_replaces_it_once_checked(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)
        if Path(path) == lock and lock.read_bytes().startswith(git_index_lock.INDEX_LOCK_MARK):
            lock.unlink()  # the person's rm
            with open(lock, "xb") as made:  # their git command's lock, made as git makes it (O_EXCL)
                made.write(gits)
        return found

    monkeypatch.setattr(git_index_lock.os, "stat", person_replaces_it_once_checked)
    git_index_lock.remove_if_left_by_a_dead_vaultmem(lock)
    monkeypatch.undo()
    assert lock.read_bytes() == gits  # git's lock is where git will rename it from
    assert sorted(path.name for path in lock.parent.glob("index.lock*")) == ["index.lock"]  # nothing left aside


@pytest.mark.skipif(sys.platform == "win32", reason="the pause is a shell script")
def test_a_git_commit_that_reads_head_and_index_between_vaultmems_two_steps_does_not_commit_the_note_deleted(
        repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """vaultmem moves HEAD and points the person's index at its commit, one after the other. A `git
    commit -a` that read HEAD and the index between the two (it reads HEAD first) read the new HEAD
    and the old index: it then succeeded, with a tree that lacks vaultmem's new note — the person's
    commit recorded the memory deleted, and nothing said so. The index now goes first: such a commit
    reads the new index, or the old HEAD (and then fails, writing back the new index)."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    pause = tmp_path / "pause"
    started: list[subprocess.Popen[str]] = []
    real_move = gitops._Commit._move_head

    def person_commits_in_the_middle(self: gitops._Commit, commit: str) -> bool:
        moved = real_move(self, commit)
        if not started:
            started.append(git_commit_paused_after_reading_the_index(repo, pause, "-q", "-a", "-m", "maya"))
        return moved

    monkeypatch.setattr(gitops._Commit, "_move_head", person_commits_in_the_middle)
    (repo / "mine.md").write_text("# Maya's own note\n\nHer edit.\n", encoding="utf-8")
    result = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    (pause / "go").touch()
    [person] = started
    person.communicate(timeout=60)
    assert result.commit is not None
    assert f"D\t{result.path}" not in git(repo, "log", "--format=", "--name-status", f"{result.commit}..HEAD")
    assert git(repo, "ls-tree", "--name-only", "HEAD", "--", result.path) == f"{result.path}\n"  # still in git
    assert git(repo, "status", "--porcelain", "--", result.path) == ""


def test_when_head_moves_before_vaultmems_commit_the_persons_index_file_is_put_back_byte_for_byte(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is pointed at vaultmem's commit before HEAD is moved; when the move loses its race
    (another commit moved HEAD without git's index lock: a plain `git commit`'s last step), the
    person's index file goes back as it was, byte for byte (one attempt here, so none follows)."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    (repo / "mine.md").write_text("# Maya's own note\n\nStaged.\n", encoding="utf-8")
    git(repo, "add", "mine.md")
    index = repo / ".git" / "index"
    original = index.read_bytes()
    pointed: list[bytes] = []
    real_move = gitops._Commit._move_head

    def another_commit_first(self: gitops._Commit, commit: str) -> bool:
        pointed.append(index.read_bytes())
        tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
        git(repo, "update-ref", "HEAD", git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "another commit").strip())
        return real_move(self, commit)

    monkeypatch.setattr(gitops._Commit, "_move_head", another_commit_first)
    monkeypatch.setattr(gitops, "COMMIT_ATTEMPTS", 1)
    with pytest.raises(GitError, match=r"HEAD of .* kept moving"):
        Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    assert pointed[0] != original  # it had been pointed at vaultmem's commit
    assert index.read_bytes() == original
    assert git(repo, "log", "--format=%s", "-1") == "another commit\n"
    assert not list(index.parent.glob("index.vaultmem-*"))  # nothing left beside it


def test_a_hard_forget_does_not_tell_the_person_to_delete_the_file_it_deleted(repo: Path) -> None:
    """Trial s37: `forget --hard` said "deleted from the vault …; to have it gone everywhere, the
    person deletes the file and rewrites history" — the file was gone already."""
    result = run_cli(repo, "forget", "people/rui", "--hard")
    assert result.exit_code == 0, result.stderr
    assert not (repo / "people" / "rui.md").exists()
    assert "deleted from the vault, and git history holds it" in result.stderr
    assert "To have it gone everywhere, the person rewrites history themselves (git filter-repo --invert-paths " \
           "--path people/rui.md)" in result.stderr
    assert "deletes the file" not in result.stderr


def test_an_archiving_forget_names_the_archived_file_to_delete(repo: Path) -> None:
    result = run_cli(repo, "forget", "people/rui")
    assert result.exit_code == 0, result.stderr
    assert "the person deletes _archive/people/rui.md and rewrites history themselves" in result.stderr


FULL_DISK_LOCK = """
import resource, signal, sys
from pathlib import Path
from vaultmem import gitops
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
try:
    with gitops.commit_lock(Path(sys.argv[1])):
        print("held")
except Exception as error:
    print(type(error).__name__, error)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no RLIMIT_FSIZE there")
def test_a_write_lock_that_cannot_be_written_names_the_lock_file_and_the_fix(tmp_path: Path) -> None:
    """Was: a full disk failed every write with `OSError: [Errno 28] No space left on device` from the
    holder line written into `.vaultmem/git.lock`, naming no file: the person could not tell which
    disk to free. The disk is made full for one process with a file size limit of 0 bytes."""
    lock_dir = tmp_path / ".vaultmem"
    said = subprocess.run([sys.executable, "-c", FULL_DISK_LOCK, str(lock_dir)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60, check=True).stdout
    assert said.startswith("LockFileUnwritable "), said
    assert str(lock_dir / "git.lock") in said
    assert "nothing was written" in said and "free some space on that disk" in said


@pytest.mark.parametrize("checks", [
    '[{"commit": "%s", "at_ns": 1, "inode": 1, "paths": {"memories/a.md": []}}]',  # was IndexError
    '[{"commit": "%s", "at_ns": 1, "inode": 1, "paths": {"../../outside.md": [null, null]}}]',  # was git's "outside repository"
    "[" * 5000 + "]" * 5000,  # was RecursionError
    '{"commit": "%s"}',
    '[{"commit": "%s", "at_ns": "soon", "inode": 1, "paths": {}}]',
], ids=["pair-too-short", "path-outside", "nested-deep", "not-a-list", "at_ns-text"])
def test_a_hand_edited_git_index_checks_file_is_said_and_set_aside_and_remember_still_commits(
        repo: Path, checks: str, caplog: pytest.LogCaptureFixture) -> None:
    """Was: a `.vaultmem/git-index-checks.json` edited by hand (or torn) made `remember` crash
    (IndexError, RecursionError) or fail ("made but not committed": git's ls-files asked about a
    path outside the repository) — a derived file of the moment stopping every commit."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    checks_file = repo / ".vaultmem" / "git-index-checks.json"
    checks_file.write_text(checks.replace("%s", "ab" * 20), encoding="utf-8")
    with caplog.at_level("WARNING", logger="vaultmem"):
        result = Vault(repo).remember("The electrician comes on Tuesday.", layer="L2", now=NOW)
    assert result.commit is not None and result.not_committed == []
    [said] = [record.getMessage() for record in caplog.records if "could not read" in record.getMessage()]
    assert str(checks_file) in said and "run `git status`" in said
    assert git(repo, "status", "--porcelain") == ""
    json.loads(checks_file.read_text(encoding="utf-8"))  # written anew by the commit


def test_a_note_unstaged_after_the_clock_was_set_back_stays_unstaged_and_is_only_named(
        repo: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Was: the window in which an index write is taken for a failed `git commit`'s (5 s after
    vaultmem's commit) had no start. With the clock set back an hour after vaultmem's commit (NTP,
    a resumed virtual machine), every index written in that hour fell in it: the person's `git rm
    --cached` of the note was undone by vaultmem's next commit, which said a git commit had failed.
    The clock set back is the check recorded an hour "later" than the clock reads now."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    first = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    checks_file = repo / ".vaultmem" / "git-index-checks.json"
    [check] = json.loads(checks_file.read_text(encoding="utf-8"))
    check["at_ns"] += 3600 * 10**9
    checks_file.write_text(json.dumps([check]), encoding="utf-8")
    git(repo, "rm", "-q", "--cached", "--", first.path)  # the person's own unstaging, just now
    with caplog.at_level("WARNING", logger="vaultmem"):
        Vault(repo).remember("The electrician comes on Tuesday.", layer="L2", now=NOW)
    assert git(repo, "ls-files", "--", first.path) == ""  # was: staged again
    [said] = [record.getMessage() for record in caplog.records if "as it was before vaultmem's commit" in record.getMessage()]
    assert f"git reset -q -- {first.path}" in said and "Set back" not in said
    assert json.loads(checks_file.read_text(encoding="utf-8"))[0]["commit"] != first.commit  # the check is closed


def test_a_commit_in_a_repository_with_a_split_index_leaves_no_shared_index_behind(repo: Path) -> None:
    """Was: with `core.splitIndex` on, each vaultmem commit's private index wrote a shared index of
    the whole tree (`.git/sharedindex.<id>`) that nothing named once the private index was deleted,
    and git removes such files only two weeks later: one orphan the size of the index per commit.
    (Fifty notes, so that one new entry does not make the person's own index write a new one.)"""
    for number in range(50):
        (repo / f"note-{number}.md").write_text(f"# Note {number}\n", encoding="utf-8")
    auto_commit_on(repo)
    git(repo, "config", "core.splitIndex", "true")
    commit_all(repo, "fifty notes")
    git(repo, "update-index", "--split-index")
    before = sorted(path.name for path in (repo / ".git").glob("sharedindex.*"))
    for text in ("The plumber comes on Monday at 8.", "The electrician comes on Tuesday.", "Rui plays bass."):
        assert Vault(repo).remember(text, layer="L2", now=NOW).commit is not None
    assert sorted(path.name for path in (repo / ".git").glob("sharedindex.*")) == before
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.skipif(sys.platform == "win32", reason="a file held open cannot be removed there")
def test_a_git_lock_made_after_the_person_removed_vaultmems_held_lock_is_not_removed_by_its_release(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Git's advice for an index.lock it finds is to remove it by hand. Was: a person who removed the
    one vaultmem held during its commit, and whose git command then made its own, had that live lock
    unlinked when vaultmem let go of its own (by name): a second git command could then write the index
    beside the first, and the first's rename of its lock failed."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    lock = repo / ".git" / "index.lock"
    gits = b"DIRC, as git's new index is written into its lock"
    real_move = gitops._Commit._move_head

    def person_removes_the_lock_and_git_makes_its_own(self: gitops._Commit, commit: str) -> bool:
        lock.unlink()  # the person's rm, as git's message advises
        with open(lock, "xb") as made:  # their git command's lock, made as git makes it (O_EXCL)
            made.write(gits)
        return real_move(self, commit)

    monkeypatch.setattr(gitops._Commit, "_move_head", person_removes_the_lock_and_git_makes_its_own)
    result = Vault(repo).remember("The plumber comes on Monday at 8.", layer="L2", now=NOW)
    assert result.commit is not None
    assert lock.read_bytes() == gits  # git's lock is where git will rename it from
    assert sorted(path.name for path in lock.parent.glob("index.lock*")) == ["index.lock"]  # nothing left aside


def test_a_hunk_the_person_staged_stays_staged_and_their_commit_keeps_vaultmems_edit(repo: Path) -> None:
    """A person stages one hunk of a note (`git add -p`), keeps another unstaged, and vaultmem then
    tags the note. Was: the index kept their staged version, which lacks the tag: `git diff --cached`
    showed the tag removed, and their next `git commit` recorded vaultmem's edit undone, unsaid.
    Now the staged version gets vaultmem's edit too: what is staged is their hunk, and no more."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    note = repo / "people" / "rui.md"
    committed = note.read_text(encoding="utf-8")
    note.write_text(committed + "\nStaged line.\n", encoding="utf-8")
    git(repo, "add", "people/rui.md")  # as `git add -p` of the first hunk leaves it
    note.write_text(committed + "\nStaged line.\n\nUnstaged line.\n", encoding="utf-8")

    result = Vault(repo).revise("people/rui", add_tags=["music"])
    assert result.commit is not None and result.yours_left_uncommitted == ["people/rui.md"]
    staged = git(repo, "diff", "--cached", "-U0", "--", "people/rui.md")
    assert "+Staged line." in staged and "music" not in staged  # was: "-  - music" staged, the tag undone
    assert "+Unstaged line." in git(repo, "diff", "-U0", "--", "people/rui.md")
    git(repo, "commit", "-qm", "maya: staged line")
    assert "music" in git(repo, "show", "HEAD:people/rui.md")  # was: the person's commit dropped the tag
    assert "Unstaged line." not in git(repo, "show", "HEAD:people/rui.md")


def test_a_staged_version_that_overlaps_vaultmems_edit_is_kept_as_staged_and_said(
        repo: Path, caplog: pytest.LogCaptureFixture) -> None:
    auto_commit_on(repo)
    commit_all(repo, "config")
    note = repo / "people" / "rui.md"
    committed = note.read_text(encoding="utf-8")
    note.write_text(committed.replace("Rui likes jazz.", "Rui likes jazz and fado."), encoding="utf-8")
    git(repo, "add", "people/rui.md")
    staged = git(repo, "ls-files", "--stage", "--", "people/rui.md")
    note.write_text(committed, encoding="utf-8")  # their working copy back as committed, the staged edit kept
    with caplog.at_level("WARNING", logger="vaultmem"):
        result = Vault(repo).revise("people/rui", append="He plays bass.")
    assert result.commit is not None and result.not_committed == []
    assert git(repo, "ls-files", "--stage", "--", "people/rui.md") == staged  # theirs, byte for byte
    [said] = [record.getMessage() for record in caplog.records if "your staged version of" in record.getMessage()]
    assert "people/rui.md" in said and str(result.commit)[:10] in said and "undoes that change" in said


@pytest.mark.skipif(sys.platform == "win32", reason="the hook is a shell script")
@pytest.mark.parametrize("commit_args", [["-a"], []], ids=["git commit -a", "git commit"])
def test_a_vaultmem_write_from_a_pre_commit_hook_does_not_make_that_commit_fail(repo: Path, commit_args: list[str]) -> None:
    """Was: `vaultmem remember` (or `check --fix`, run as a formatter is) from a `pre-commit` hook
    committed, moving HEAD under the person's commit: theirs failed ("cannot lock ref 'HEAD'"). With
    `git commit -a` their index also lacked vaultmem's new note (`git status`: `D`), for their next
    commit to record it deleted; a plain `git commit` (its hooks get GIT_INDEX_FILE=.git/index, not a
    lock) was not detected at all. Now vaultmem sees it runs inside a commit's hook (GIT_INDEX_FILE is
    set) and leaves its change uncommitted, saying why."""
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")  # no model to load
    commit_all(repo, "config")
    out = repo.parent / "hook-output.json"
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPO))} {shlex.quote(sys.executable)} -m vaultmem --vault "
                    f"{shlex.quote(str(repo))} remember 'The plumber comes on Monday at 8.' --json > {shlex.quote(str(out))}\n",
                    encoding="utf-8")
    hook.chmod(0o755)
    (repo / "mine.md").write_text("# Maya's own note\n\nHer edit.\n", encoding="utf-8")
    if not commit_args:
        git(repo, "add", "mine.md")
    person = subprocess.run(["git", "commit", "-q", *commit_args, "-m", "maya: her edit"], cwd=repo, capture_output=True,
                            text=True)
    assert person.returncode == 0, person.stderr  # was: "cannot lock ref 'HEAD'"
    assert changes_of(repo, "HEAD") == ["M\tmine.md"]
    remembered = json.loads(out.read_text(encoding="utf-8"))
    assert remembered["commit"] is None
    [left_out] = remembered["not_committed"]
    assert left_out["path"] == remembered["path"] and "inside a `git commit`" in left_out["reason"]
    assert git(repo, "status", "--porcelain") == f"?? {remembered['path'].split('/')[0]}/\n"  # untracked, not `D`


FULL_DISK_INDEX_LOCK = """
import resource, signal, sys
from pathlib import Path
from vaultmem import git_index_lock
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
try:
    with git_index_lock.hold_lock(Path(sys.argv[1]), 1.0) as held:
        print("held", held)
except OSError as error:
    print(type(error).__name__, error)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no RLIMIT_FSIZE, no flock mark there")
def test_git_index_lock_that_cannot_be_written_names_the_lock_and_is_not_left_behind(repo: Path) -> None:
    """Was: the mark vaultmem writes into git's index.lock failed on a full disk as a bare `OSError:
    [Errno 28] No space left on device`, naming no file, and escaped the commit as no GitError (so
    not said as "made but not committed"). The disk is made full with a file size limit of 0 bytes."""
    index = repo / ".git" / "index"
    said = subprocess.run([sys.executable, "-c", FULL_DISK_INDEX_LOCK, str(index)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60, check=True).stdout
    assert said.startswith("OSError ") and str(repo / ".git" / "index.lock") in said, said
    assert not (repo / ".git" / "index.lock").exists()  # released: the person's git is not locked out


def test_a_staged_edit_of_a_forgotten_note_moves_with_it_and_the_persons_commit_does_not_bring_it_back(
        repo: Path) -> None:
    """Was: a note the person had staged an edit of, then forgotten (moved to the archive), stayed
    staged at its old path (`git status`: `AD people/rui.md`): their next `git commit` put the
    forgotten note back into the tree where it was, and every machine that pulled recalled it again.
    Now their staged version moves with the file, as their working-tree edit does."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    note = repo / "people" / "rui.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nStaged line.\n", encoding="utf-8")
    git(repo, "add", "people/rui.md")
    result = Vault(repo).forget("people/rui")
    assert result.commit is not None
    assert git(repo, "status", "--porcelain") == "M  _archive/people/rui.md\n"  # was: also "AD people/rui.md"
    git(repo, "commit", "-qm", "maya: her staged line")
    assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", "people") == ""  # was: people/rui.md, back
    assert "Staged line." in git(repo, "show", "HEAD:_archive/people/rui.md")
    assert Vault(repo).check().problems == []


@pytest.mark.skipif(sys.platform == "win32", reason="no kill -9, and a pid cannot be asked about there")
def test_the_files_a_killed_vaultmem_commit_left_in_the_git_directory_are_removed_by_the_next_commit(
        repo: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Was: a vaultmem killed mid-commit left its copy of the person's index (`index.vaultmem-*`,
    index-sized) in `.git` and its private index in `.vaultmem/`, named by nothing and never removed:
    one more per kill. Now the next commit removes vaultmem's own files whose maker is dead on this
    machine; a live maker's, another machine's and every other file are left."""
    (repo / ".vaultmem.toml").write_text('auto_commit = true\nembedder = "hashing"\n', encoding="utf-8")  # no model to load
    commit_all(repo, "config")
    git_dir = repo / ".git"
    (git_dir / "index.lock").write_bytes(b"DIRC")  # the person's git holds the index: vaultmem's commit waits, its copy made
    killed = subprocess.Popen([sys.executable, "-m", "vaultmem", "--vault", str(repo), "remember", "The boiler is serviced in May."],
                              env={**os.environ, "PYTHONPATH": str(REPO)}, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: list(git_dir.glob("index.vaultmem-*")) and list((repo / ".vaultmem").glob("git-index-[0-9]*")),
                   timeout=120)
    finally:
        os.killpg(killed.pid, signal.SIGKILL)
        killed.wait(30)
    left = sorted(path.name for path in [*git_dir.glob("index.vaultmem-*"), *(repo / ".vaultmem").glob("git-index-[0-9]*")])
    assert left and all(f"-{killed.pid}-" in name for name in left)
    (git_dir / "index.lock").unlink()  # the person's git is done
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        kept = [git_dir / f"index.vaultmem-{alive.pid}-{git_index_lock.HOST_TAG}-0123abcd",  # a live maker's
                git_dir / f"index.vaultmem-{killed.pid}-{'f' * 8 if git_index_lock.HOST_TAG != 'f' * 8 else 'e' * 8}-0123abcd",
                git_dir / f"index.vaultmem-{killed.pid}-0000abcd",  # an older vaultmem's (no machine named), recent
                git_dir / "index.vaultmem-notes"]  # another machine's (same pid, another tag); not vaultmem's name
        for path in kept:
            path.write_bytes(b"DIRC")
        older = git_dir / f"index.vaultmem-{killed.pid}-89abcdef"  # an older vaultmem's, untouched for two hours
        older.write_bytes(b"DIRC")
        os.utime(older, (time.time() - 7200, time.time() - 7200))
        with caplog.at_level("WARNING", logger="vaultmem"):
            result = Vault(repo).remember("The gutters are cleaned in October.", layer="L2", now=NOW)
        assert result.commit is not None
        assert all(path.exists() for path in kept)
    finally:
        alive.kill()
        alive.wait(30)
    assert sorted(path.name for path in git_dir.glob("index.vaultmem-*")) == sorted(path.name for path in kept)
    assert not list((repo / ".vaultmem").glob("git-index-[0-9]*"))
    said = " ".join(record.getMessage() for record in caplog.records if "left by a vaultmem commit that was killed" in record.getMessage())
    assert all(name in said for name in [*left, older.name])


def test_a_staged_edit_of_a_note_forgotten_for_good_does_not_bring_it_back_in_the_persons_next_commit(
        repo: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Was: a note the person had staged an edit of, then deleted for good (`forget --hard`), stayed
    staged (`git status`: `AD people/rui.md`): their next `git commit` put the deleted note back into
    the tree, for every machine that pulled to recall it again. Now the staged version goes with the
    file, and the warning names its blob so that the person can still take it back."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    note = repo / "people" / "rui.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nStaged line.\n", encoding="utf-8")
    git(repo, "add", "people/rui.md")
    staged_blob = git(repo, "rev-parse", ":people/rui.md").strip()
    with caplog.at_level("WARNING", logger="vaultmem"):
        result = Vault(repo).forget("people/rui", hard=True)
    assert result.commit is not None
    assert git(repo, "status", "--porcelain") == ""  # was: "AD people/rui.md"
    git(repo, "commit", "-q", "--allow-empty", "-m", "maya: her next commit")
    assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", "people") == ""  # was: people/rui.md, back
    [said] = [record.getMessage() for record in caplog.records if "your staged version of" in record.getMessage()]
    assert "people/rui.md" in said and f"git show {staged_blob[:10]}" in said
    assert "Staged line." in git(repo, "show", staged_blob)  # still there to take back


@pytest.mark.skipif(sys.platform == "win32" or shutil.which("gzip") is None, reason="the filter is gzip's")
def test_a_hunk_staged_in_a_note_stored_through_a_clean_filter_keeps_vaultmems_edit(
        repo: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Notes stored through a clean/smudge filter (git-crypt, LFS: what git stores is not the text).
    Was: vaultmem merged its edit into the person's staged version over the stored blobs, which are
    no text to merge: every staged hunk was said to overlap vaultmem's change and kept without it, and
    the person's next commit undid that change. Now the three versions are merged as text (smudged),
    and the result stored through the filter."""
    git(repo, "config", "filter.gz.clean", "gzip -n -c")
    git(repo, "config", "filter.gz.smudge", "gunzip -c")
    (repo / ".gitattributes").write_text("people/*.md filter=gz\n", encoding="utf-8")
    auto_commit_on(repo)
    git(repo, "rm", "-q", "--cached", "people/rui.md")
    commit_all(repo, "notes stored gzipped")
    note = repo / "people" / "rui.md"
    committed = note.read_text(encoding="utf-8")
    note.write_text(committed + "\nStaged line.\n", encoding="utf-8")
    git(repo, "add", "people/rui.md")
    note.write_text(committed + "\nStaged line.\n\nUnstaged line.\n", encoding="utf-8")

    with caplog.at_level("WARNING", logger="vaultmem"):
        result = Vault(repo).revise("people/rui", add_tags=["music"])
    assert result.commit is not None
    assert not [record for record in caplog.records if "your staged version of" in record.getMessage()]  # was: "overlaps"
    staged = git(repo, "cat-file", "--filters", "--path=people/rui.md", ":people/rui.md")
    assert "Staged line." in staged and "music" in staged and "Unstaged line." not in staged
    git(repo, "commit", "-qm", "maya: staged line")
    assert "music" in git(repo, "cat-file", "--filters", "--path=people/rui.md", "HEAD:people/rui.md")


def test_a_note_the_person_renamed_and_staged_is_not_said_never_tracked(repo: Path) -> None:
    """Was: after the person's `git mv people/rui.md people/rui-mendes.md` (not committed yet), a
    vaultmem edit of the note was left out as "git never tracked it", and its forget as "moved from
    people/rui-mendes.md, which git never tracked" — untrue, and silent on the staged rename that the
    person's next commit makes, putting the forgotten note back. The reasons now say it is staged only,
    and how to stage the move too."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    git(repo, "mv", "people/rui.md", "people/rui-mendes.md")
    revised = Vault(repo).revise("people/rui-mendes", add_tags=["music"])
    [left_out] = revised.not_committed
    assert "only as staged" in left_out.reason and "never tracked" not in left_out.reason
    forgotten = Vault(repo).forget("people/rui-mendes")
    [left_out] = forgotten.not_committed
    assert "only as staged" in left_out.reason and "never tracked" not in left_out.reason
    assert "git add -A -- people/rui-mendes.md _archive/people/rui-mendes.md" in left_out.reason
    git(repo, "add", "-A", "--", "people/rui-mendes.md", "_archive/people/rui-mendes.md")  # as the reason says
    git(repo, "commit", "-qm", "maya: the rename, and the forget")
    assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", "people") == ""


def test_a_git_stash_between_vaultmems_write_and_its_commit_leaves_the_change_uncommitted_not_lost(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The person runs `git stash` in the moment between vaultmem's write of a note and its commit
    (the stash takes git's index lock first). Was: the stash took vaultmem's edit out of the file and
    the commit recorded it all the same; `git stash pop` then left it out (HEAD had it already), the
    note lacked vaultmem's tag while vaultmem had said "committed", and the person's next `git commit
    -a` undid it. Now nothing is committed and the file is named; the pop brings the edit back."""
    auto_commit_on(repo)
    commit_all(repo, "config")
    (repo / "mine.md").write_text("# Maya's own note\n\nHer edit.\n", encoding="utf-8")
    real_hold = git_index_lock.hold_lock

    def person_stashes_first(index: Path, seconds: float) -> Any:
        git(repo, "stash", "-q")
        return real_hold(index, seconds)

    monkeypatch.setattr(git_index_lock, "hold_lock", person_stashes_first)
    result = Vault(repo).revise("people/rui", add_tags=["music"])
    monkeypatch.undo()
    assert result.commit is None  # was: a commit of a tag the file no longer had
    [left_out] = result.not_committed
    assert left_out.path == "people/rui.md" and "git stash pop" in left_out.reason
    assert "music" not in git(repo, "show", "HEAD:people/rui.md")
    git(repo, "stash", "pop", "-q")
    assert "music" in (repo / "people" / "rui.md").read_text(encoding="utf-8")  # was: left out by the pop
    assert git(repo, "status", "--porcelain") == " M mine.md\n M people/rui.md\n"
