"""Notes dated by the commit that added their file (``[dates] from_git``, git_dates.py, adr/0026
"Dates from git"), against real git repositories."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers import run_cli
from vaultmem import Vault, gitops
from vaultmem.config import ConfigError, config_from_dict
from vaultmem.embedders import HashingEmbedder
from vaultmem.git_dates import GitDates, load_git_dates
from vaultmem.paths import is_note_name

ON = 'embedder = "hashing"\n[dates]\nfrom_git = true\n'
OFF = 'embedder = "hashing"\n'
TIL = "# Forcing a remount\n\nThe key prop makes React mount a child again.\n"


def git(root: Path, *args: str, when: str | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when} if when else None
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True, env=env).stdout


def commit(root: Path, message: str, when: str, *paths: str) -> None:
    git(root, "--literal-pathspecs", "add", "--", *paths)
    git(root, "commit", "-qm", message, when=when)


@pytest.fixture
def til(vault_dir: Path, write_note) -> Path:
    """A TIL repository: notes with no date of their own, each added by a commit of its day."""
    git(vault_dir, "init", "-q")
    git(vault_dir, "config", "user.email", "jb@example.com")
    git(vault_dir, "config", "user.name", "JB")
    write_note("react/remount.md", TIL)
    commit(vault_dir, "react", "2025-03-10T09:00:00+01:00", "react/remount.md")
    write_note("unix/find.md", "# find -print0\n\nPairs with xargs -0.\n")
    commit(vault_dir, "unix", "2025-06-20T18:30:00+00:00", "unix/find.md")
    return vault_dir


def setting(root: Path, text: str) -> None:
    (root / ".vaultmem.toml").write_text(text, encoding="utf-8")


def listed(root: Path, since: str, until: str) -> dict[str, dict[str, object]]:
    with Vault(root, embedder=HashingEmbedder()) as vault:
        return {note.path: note.as_dict() for note in vault.list_notes(k=50, since=since, until=until)}


def test_a_note_added_in_a_commit_is_listed_by_since_that_day(til: Path) -> None:
    setting(til, ON)
    found = listed(til, "2025-03-10", "2025-03-10")
    assert list(found) == ["react/remount.md"]
    assert found["react/remount.md"]["date"] == "2025-03-10T09:00:00+01:00"  # the author's time, in the author's zone
    assert found["react/remount.md"]["date_from"] == "git"
    with Vault(til, embedder=HashingEmbedder()) as vault:
        hits = vault.search("react key prop remount", k=3, since="2025-03-01", until="2025-03-31")
    assert [hit.path for hit in hits] == ["react/remount.md"] and hits[0].as_dict()["date_from"] == "git"


def test_the_text_list_says_the_date_is_git_s(til: Path) -> None:
    setting(til, ON)
    result = run_cli(til, "list", "--since", "2025-06-20", "--until", "2025-06-20")
    assert result.exit_code == 0, result.stderr
    assert "2025-06-20" in result.stdout and "dated by git" in result.stdout and "unix/find.md" in result.stdout


def test_a_renamed_file_keeps_the_day_its_first_commit_added_it(til: Path) -> None:
    git(til, "mv", "react/remount.md", "react/forcing-a-child-remount.md")
    git(til, "commit", "-qm", "rename", when="2025-09-01T12:00:00+00:00")
    setting(til, ON)
    assert list(listed(til, "2025-03-10", "2025-03-10")) == ["react/forcing-a-child-remount.md"]
    assert listed(til, "2025-09-01", "2025-09-01") == {}


def test_a_note_moved_by_a_commit_is_indexed_as_moved_and_keeps_its_day(til: Path) -> None:
    setting(til, ON)
    with Vault(til, embedder=HashingEmbedder()) as vault:
        vault.index()
        git(til, "mv", "react/remount.md", "react/key-remount.md")
        git(til, "commit", "-qm", "rename", when="2025-09-01T12:00:00+00:00")
        report = vault.index()
    # Not a removal and an add: the old row's content hash finds the move (vectors, usage kept).
    assert report.moved == [("react/remount.md", "react/key-remount.md")] and not report.added and not report.removed
    assert list(listed(til, "2025-03-10", "2025-03-10")) == ["react/key-remount.md"]


def test_an_explicit_date_wins_over_git(til: Path, write_note) -> None:
    write_note("react/hooks.md", "---\ndate: 2024-02-02\n---\n# Hooks\n\nuseEffect runs after paint.\n")
    write_note("unix/2024-05-05 grep.md", "# grep -r\n\nSearches folders.\n")
    commit(til, "two more", "2025-10-01T10:00:00+00:00", "react/hooks.md", "unix/2024-05-05 grep.md")
    setting(til, ON)
    assert listed(til, "2025-10-01", "2025-10-01") == {}
    assert set(listed(til, "2024-01-01", "2024-12-31")) == {"react/hooks.md", "unix/2024-05-05 grep.md"}
    assert all("date_from" not in note for note in listed(til, "2024-01-01", "2024-12-31").values())


def test_with_the_setting_off_git_dates_nothing_and_the_warning_names_it(til: Path) -> None:
    setting(til, OFF)
    with Vault(til, embedder=HashingEmbedder()) as vault:
        listing = vault.list_notes(k=50, since="2025-01-01", until="2025-12-31")
    assert list(listing) == []
    assert any("from_git = true" in warning for warning in listing.warnings)
    assert not (til / ".vaultmem" / "git_dates.json").exists()


def test_a_note_committed_after_it_was_indexed_is_dated_at_the_next_command(til: Path, write_note) -> None:
    setting(til, ON)
    write_note("unix/xargs.md", "# xargs -0\n\nReads NUL-separated names.\n")
    with Vault(til, embedder=HashingEmbedder()) as vault:
        vault.index()
        explained = vault.explain("unix/xargs.md", "xargs names", since="2025-01-01")
        assert any("not committed yet" in reason for reason in explained.reasons)
    commit(til, "xargs", "2025-11-11T08:00:00+00:00", "unix/xargs.md")  # the file is not touched
    assert list(listed(til, "2025-11-11", "2025-11-11")) == ["unix/xargs.md"]


def test_a_long_lived_vault_sees_a_commit_made_while_it_is_open(til: Path, write_note) -> None:
    setting(til, ON)
    write_note("unix/tee.md", "# tee\n\nWrites to a file and stdout.\n")
    with Vault(til, embedder=HashingEmbedder()) as vault:  # as the MCP server holds one
        assert list(vault.list_notes(k=50, since="2025-12-12", until="2025-12-12")) == []
        commit(til, "tee", "2025-12-12T08:00:00+00:00", "unix/tee.md")
        assert [note.path for note in vault.list_notes(k=50, since="2025-12-12", until="2025-12-12")] == ["unix/tee.md"]


def test_explain_names_the_commit_that_dated_the_note(til: Path) -> None:
    setting(til, ON)
    first = git(til, "log", "--format=%H", "--", "react/remount.md").strip()
    with Vault(til, embedder=HashingEmbedder()) as vault:
        explained = vault.explain("react/remount.md", "react key prop", since="2025-04-01")
    reason = next(reason for reason in explained.reasons if "filtered out by" in reason)
    assert f'from its git history: commit {first[:10]} ("react") added its file' in reason
    assert sum("from its git history" in reason for reason in explained.reasons) == 1  # said once


def test_the_dates_are_kept_under_vaultmem_and_made_again_when_it_is_deleted(til: Path) -> None:
    setting(til, ON)
    before = listed(til, "2025-01-01", "2025-12-31")
    kept = json.loads((til / ".vaultmem" / "git_dates.json").read_text(encoding="utf-8"))
    assert kept["head"] == git(til, "rev-parse", "HEAD").strip() and set(kept["dated"]) == set(before)
    subprocess.run(["rm", "-rf", str(til / ".vaultmem")], check=True)
    assert listed(til, "2025-01-01", "2025-12-31") == before


def test_a_vault_that_is_no_git_repository_is_a_check_problem(vault_dir: Path, write_note) -> None:
    write_note("a.md", "# A\n\nNo date at all.\n")
    setting(vault_dir, ON)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        problems = [problem for problem in vault.check().problems if problem.field == "dates.from_git"]
    assert len(problems) == 1 and "not in a git repository" in problems[0].message
    assert "git init" in problems[0].fix


def test_a_shallow_clone_leaves_the_notes_at_its_cut_undated_and_says_so(til: Path, tmp_path: Path, write_note) -> None:
    write_note("unix/sed.md", "# sed -i\n\nEdits in place.\n")
    commit(til, "sed", "2025-08-08T08:00:00+00:00", "unix/sed.md")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{til}", str(clone)], check=True, capture_output=True)
    setting(clone, ON)
    # The cut (the unix commit) shows react/remount.md and unix/find.md as added: their days are not known.
    assert list(listed(clone, "2025-01-01", "2025-12-31")) == ["unix/sed.md"]
    with Vault(clone, embedder=HashingEmbedder()) as vault:
        problems = [problem for problem in vault.check().problems if problem.field == "dates.from_git"]
        explained = vault.explain("unix/find.md", "find", since="2025-01-01")
    assert len(problems) == 1 and "shallow clone: 2 note(s)" in problems[0].message
    assert "git fetch --unshallow" in problems[0].fix
    assert any("shallow clone's oldest commit" in reason for reason in explained.reasons)


def test_from_git_must_be_true_or_false() -> None:
    with pytest.raises(ConfigError) as raised:
        config_from_dict({"dates": {"from_git": "yes"}})
    assert "dates.from_git" in str(raised.value) and "true or false" in str(raised.value)


def test_the_notes_a_first_commit_imported_at_once_are_not_dated_by_it_and_explain_says_why(vault_dir: Path,
                                                                                            write_note) -> None:
    """Was: a vault put in git after years of notes (`git init`, Obsidian Git's first commit) had
    every undated note dated the day of that commit: `list --since` that day held the whole vault."""
    git(vault_dir, "init", "-q")
    git(vault_dir, "config", "user.email", "p@example.com")
    git(vault_dir, "config", "user.name", "P")
    old = [f"clippings/article-{number}.md" for number in range(12)]
    for path in old:
        write_note(path, f"# Article {path[-4]}\n\nRead years ago.\n")
    commit(vault_dir, "vault", "2026-12-02T09:00:00+00:00", *old)
    write_note("til/rebase-onto.md", "# git rebase --onto\n\nMoves a branch's base.\n")
    commit(vault_dir, "til", "2026-12-05T10:00:00+00:00", "til/rebase-onto.md")
    setting(vault_dir, ON)
    assert listed(vault_dir, "2026-12-02", "2026-12-02") == {}
    assert list(listed(vault_dir, "2026-12-05", "2026-12-05")) == ["til/rebase-onto.md"]
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        reasons = " ".join(vault.explain("clippings/article-3.md", "article", since="2026-12-01").reasons)
    assert "the commit that brought the notes into git added it with 10 or more other notes at once" in reasons


def test_a_first_commit_of_a_few_notes_dates_them(til: Path) -> None:
    # The TIL fixture's first commit adds one note: the day it was written.
    setting(til, ON)
    assert list(listed(til, "2025-03-10", "2025-03-10")) == ["react/remount.md"]


def test_a_committed_file_whose_name_holds_the_log_s_separators_dates_the_others(til: Path, write_note) -> None:
    # A file name may hold any byte but / and NUL: the one-pass log's record and field marks
    # (\x1e, \x1f) in a name split a commit in two, and every command failed (ValueError).
    hostile = "odd\x1ename.md"
    (til / hostile).write_text("# odd\n\nA name with control characters.\n", encoding="utf-8")
    commit(til, "odd", "2025-07-01T12:00:00+00:00", hostile)
    write_note("later.md", "# later\n\nAdded after the odd one.\n")
    commit(til, "later", "2025-08-01T12:00:00+00:00", "later.md")
    setting(til, ON)
    found = listed(til, "2025-03-01", "2025-12-31")
    assert {"react/remount.md", "unix/find.md", "later.md"} <= set(found)
    assert found["later.md"]["date"] == "2025-08-01T12:00:00+00:00"


def test_a_note_a_merged_branch_deleted_but_the_merge_kept_keeps_its_date(til: Path) -> None:
    # git log shows no changes for a merge: the side branch's deletion was read as the note's
    # end, though the merge kept it (a modify/delete conflict resolved by keeping the note).
    git(til, "checkout", "-qb", "side")
    git(til, "rm", "-q", "unix/find.md")
    git(til, "commit", "-qm", "drop find", when="2025-07-01T12:00:00+00:00")
    git(til, "checkout", "-q", "-")
    (til / "unix/find.md").write_text("# find -print0\n\nPairs with xargs -0. Also -exec.\n", encoding="utf-8")
    commit(til, "edit find", "2025-07-02T12:00:00+00:00", "unix/find.md")
    merged = subprocess.run(["git", "merge", "-q", "side", "-m", "merge"], cwd=til, capture_output=True, text=True, check=False)
    assert merged.returncode != 0  # the conflict: kept by the person below
    commit(til, "merge side, keeping find", "2025-07-03T12:00:00+00:00", "unix/find.md")
    assert "unix/find.md" in git(til, "ls-files")
    setting(til, ON)
    found = listed(til, "2025-06-20", "2025-06-20")
    assert list(found) == ["unix/find.md"]


def test_a_committed_file_whose_name_is_not_utf8_dates_the_others(til: Path, write_note) -> None:
    # A file named in Latin-1 (an old archive unpacked on Linux): its name read with
    # surrogateescape could not be written to the kept JSON as UTF-8, and every command failed.
    (til / os.fsdecode(b"caf\xe9.md")).write_bytes(b"# cafe\n\nA Latin-1 name.\n")
    git(til, "add", "--", os.fsdecode(b"caf\xe9.md"))
    git(til, "commit", "-qm", "latin-1", when="2025-07-01T12:00:00+00:00")
    write_note("later.md", "# later\n\nAdded after the Latin-1 one.\n")
    commit(til, "later", "2025-08-01T12:00:00+00:00", "later.md")
    setting(til, ON)
    found = listed(til, "2025-08-01", "2025-08-01")
    assert list(found) == ["later.md"]
    with Vault(til, embedder=HashingEmbedder()) as vault:  # a second process reads what the first kept
        assert [note.path for note in vault.list_notes(k=5, since="2025-08-01", until="2025-08-01")] == ["later.md"]


def test_a_signed_commit_dates_its_notes_where_the_person_shows_signatures_in_logs(til: Path) -> None:
    """Was: with `log.showSignature = true` (a person who signs commits), git wrote "No signature"
    or "Good signature…" lines into the log vaultmem reads, and the signed commit's notes were undated."""
    import shutil

    if shutil.which("ssh-keygen") is None:
        pytest.skip("needs ssh-keygen to sign a commit")
    key = til.parent / "signing-key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True, capture_output=True)
    git(til, "config", "gpg.format", "ssh")
    git(til, "config", "user.signingkey", str(key))
    git(til, "config", "log.showSignature", "true")
    (til / "git/signed.md").parent.mkdir()
    (til / "git/signed.md").write_text("# Signing commits\n\ngit commit -S signs with the configured key.\n", encoding="utf-8")
    git(til, "add", "git/signed.md")
    git(til, "commit", "-qS", "-m", "signed", when="2025-08-08T08:00:00+00:00")
    setting(til, ON)
    assert list(listed(til, "2025-08-08", "2025-08-08")) == ["git/signed.md"]
    assert list(listed(til, "2025-06-20", "2025-06-20")) == ["unix/find.md"]


def _imported_after_a_readme(root: Path, write_note, folder: str = "") -> list[str]:
    """A repository begun with a README (GitHub's "new repository", a monorepo's code), then 12
    notes of years put in at once, then one note written that week; the paths of the 12."""
    git(root, "init", "-q")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    (root / "README.md").write_text("# Project\n", encoding="utf-8")
    commit(root, "init", "2024-01-01T10:00:00+00:00", "README.md")
    old = [f"{folder}design-{number}.md" for number in range(12)]
    for path in old:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(f"# Design {path}\n\nOn caching, written years ago.\n", encoding="utf-8")
    commit(root, "import notes", "2025-06-01T10:00:00+00:00", *old)
    (root / f"{folder}redis.md").write_text("# Redis\n\nWe cache in Redis.\n", encoding="utf-8")
    commit(root, "redis", "2025-06-10T10:00:00+00:00", f"{folder}redis.md")
    return old


def test_notes_imported_at_once_after_a_first_commit_of_no_note_are_not_dated_by_it(vault_dir: Path,
                                                                                   write_note) -> None:
    """Was: the import rule read only a commit with no parents; a repository begun with a README (a note
    at a vault's root) had its import commit date every note that day."""
    _imported_after_a_readme(vault_dir, write_note)
    setting(vault_dir, ON)
    assert listed(vault_dir, "2025-06-01", "2025-06-01") == {}
    assert list(listed(vault_dir, "2025-06-10", "2025-06-10")) == ["redis.md"]


def test_a_vault_put_in_a_bigger_repository_s_folder_at_once_is_not_dated_by_that_commit(tmp_path: Path,
                                                                                        write_note) -> None:
    """A trial: a monorepo's code first, then its notes/ folder committed whole, vault = notes/."""
    _imported_after_a_readme(tmp_path, write_note, folder="notes/")
    vault = tmp_path / "notes"
    setting(vault, ON)
    assert listed(vault, "2025-06-01", "2025-06-01") == {}
    assert list(listed(vault, "2025-06-10", "2025-06-10")) == ["redis.md"]


def test_the_undated_warning_counts_the_imported_notes_rather_than_calling_them_uncommitted(vault_dir: Path,
                                                                                           write_note) -> None:
    """Was: 35 committed notes left undated by the import rule were told only "one not committed yet
    has no date"."""
    _imported_after_a_readme(vault_dir, write_note)
    setting(vault_dir, ON)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        listing = vault.list_notes(k=50, since="2025-06-01", until="2025-06-30")
    assert any("the 12 notes the commit that brought the notes into git added at once (when git began" in warning
               for warning in listing.warnings)


def test_a_note_deleted_and_restored_with_the_same_bytes_keeps_the_day_it_was_added(til: Path, write_note) -> None:
    """Was: a note written on the 6th, deleted on the 8th and restored (`git checkout HEAD~1 -- it`,
    the trash) on the 12th was dated the 12th, as Obsidian Git's backups commit each step."""
    write_note("lakes.md", "# Lakes\n\nBaikal is the deepest lake.\n")
    commit(til, "vault backup", "2026-11-06T11:00:00+01:00", "lakes.md")
    git(til, "rm", "-q", "lakes.md")
    git(til, "commit", "-qm", "vault backup", when="2026-11-08T11:00:00+01:00")
    git(til, "checkout", "HEAD~1", "--", "lakes.md")
    git(til, "commit", "-qm", "vault backup", when="2026-11-12T11:00:00+01:00")
    setting(til, ON)
    assert list(listed(til, "2026-11-06", "2026-11-06")) == ["lakes.md"]
    assert listed(til, "2026-11-12", "2026-11-12") == {}


def test_a_new_note_at_a_deleted_note_s_path_is_dated_by_its_own_commit(til: Path, write_note) -> None:
    write_note("lakes.md", "# Lakes\n\nBaikal is the deepest lake.\n")
    commit(til, "lakes", "2026-11-06T11:00:00+01:00", "lakes.md")
    git(til, "rm", "-q", "lakes.md")
    git(til, "commit", "-qm", "gone", when="2026-11-08T11:00:00+01:00")
    write_note("lakes.md", "# Lakes\n\nA new list: Titicaca, Tahoe, Garda.\n")
    commit(til, "lakes again", "2026-11-12T11:00:00+01:00", "lakes.md")
    setting(til, ON)
    assert list(listed(til, "2026-11-12", "2026-11-12")) == ["lakes.md"]


# -- HEAD moved on: the commits since read on top of the kept pass (git_dates._on_top)

def _write(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text, encoding="utf-8")


def _eventful_history(root: Path, folder: str = "") -> list[str]:
    """A history with everything the pass reads: an importing first commit, notes added, renamed,
    deleted, restored with the same bytes, a new note at a deleted one's path, a branch merged
    whose commits are older than the main line's, a move into a folder, a branch merged whose
    commit is newer than the main line's; HEAD's first-parent commits, oldest first."""
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    imported = [f"{folder}old/n{number}.md" for number in range(12)]
    for path in imported:
        _write(root, path, f"# {path}\n\nWritten years before git, about {path}.\n")
    commit(root, "import", "2024-01-01T10:00:00+00:00", *imported)
    _write(root, f"{folder}a.md", "# A\n\nThe first note written in git.\n")
    commit(root, "a", "2024-02-01T10:00:00+00:00", f"{folder}a.md")
    git(root, "mv", f"{folder}a.md", f"{folder}b.md")
    git(root, "commit", "-qm", "rename a", when="2024-03-01T10:00:00+00:00")
    git(root, "rm", "-q", f"{folder}old/n0.md", f"{folder}b.md")
    git(root, "commit", "-qm", "delete", when="2024-04-01T10:00:00+00:00")
    git(root, "checkout", "HEAD~1", "--", f"{folder}old/n0.md", f"{folder}b.md")
    git(root, "commit", "-qm", "restore", when="2024-05-01T10:00:00+00:00")
    git(root, "checkout", "-q", "-b", "side")
    _write(root, f"{folder}side.md", "# Side\n\nWritten on a branch.\n")
    commit(root, "side", "2024-05-15T10:00:00+00:00", f"{folder}side.md")
    git(root, "rm", "-q", f"{folder}old/n1.md")
    git(root, "commit", "-qm", "side deletes n1", when="2024-05-16T10:00:00+00:00")
    git(root, "checkout", "-q", "main")
    _write(root, f"{folder}c.md", "# C\n\nWritten on main after the branch began.\n")
    commit(root, "c", "2024-06-01T10:00:00+00:00", f"{folder}c.md")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side", when="2024-06-02T10:00:00+00:00")
    for number in range(3):
        _write(root, f"{folder}d{number}.md", f"# D{number}\n\nA day's note {number}.\n")
        commit(root, f"d{number}", f"2024-07-0{number + 1}T10:00:00+00:00", f"{folder}d{number}.md")
    git(root, "rm", "-q", f"{folder}d0.md")
    git(root, "commit", "-qm", "drop d0", when="2024-08-01T10:00:00+00:00")
    _write(root, f"{folder}d0.md", "# D0\n\nAnother note at the same path, other words.\n")
    commit(root, "new d0", "2024-08-02T10:00:00+00:00", f"{folder}d0.md")
    git(root, "branch", "late")
    (root / folder / "kept").mkdir()
    git(root, "mv", f"{folder}c.md", f"{folder}kept/c.md")
    git(root, "commit", "-qm", "file c", when="2024-09-01T10:00:00+00:00")
    git(root, "checkout", "-q", "late")
    _write(root, f"{folder}late.md", "# Late\n\nWritten on a branch after the main line's last commit.\n")
    commit(root, "late", "2024-09-05T10:00:00+00:00", f"{folder}late.md")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge late", "late", when="2024-09-06T10:00:00+00:00")
    return git(root, "rev-list", "--first-parent", "--reverse", "HEAD").split()


def _dates_at(vault: Path, state: Path, held: GitDates | None) -> GitDates:
    return load_git_dates(vault, state, True, held, is_note_name)[0]


def _same(found: GitDates, whole: GitDates) -> None:
    assert found.head == whole.head
    assert (dict(found.added), found.unfetched, found.imported) == (dict(whole.added), whole.unfetched, whole.imported)
    assert found.history is not None and whole.history is not None
    assert found.history.as_json() == whole.history.as_json()


def _step_through(root: Path, vault: Path, heads: list[str], tmp_path: Path,
                  monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Move HEAD along ``heads``, reading the dates each time on top of the last reading (in memory,
    and from the kept file as a new process would), and each time wholly afresh; asserts they are
    the same. The ``since`` each reading on top asked git's log for."""
    asked: list[str | None] = []
    real = gitops.added_and_moved

    def recording(where: Path, head: str, since: str | None = None) -> bytes:
        asked.append(since)
        return real(where, head, since)

    monkeypatch.setattr(gitops, "added_and_moved", recording)
    state = tmp_path / "state"
    state.mkdir()
    held: GitDates | None = None
    for head in heads:
        git(root, "checkout", "-q", "--detach", head)
        from_file = _dates_at(vault, state, None) if held is not None else None
        found = _dates_at(vault, state, held)
        whole = _dates_at(vault, tmp_path / "nowhere", None)
        _same(found, whole)
        if from_file is not None:
            _same(from_file, whole)
        held = found
    return asked


def test_the_commits_head_moved_on_by_read_on_top_give_what_the_whole_history_gives(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: every move of HEAD read the whole history again (`git log --raw` of every commit)."""
    root = tmp_path / "repo"
    root.mkdir()
    heads = _eventful_history(root)
    asked = _step_through(root, root, heads, tmp_path, monkeypatch)
    on_top = [since for since in asked if since is not None]
    # Each step read only the commits since the one before, but the merge of a branch older than the
    # main line's last commit (git lists its commits among the kept ones): the whole history.
    assert len(on_top) == 2 * (len(heads) - 2)
    assert asked[-3:] == [heads[-2], heads[-2], None]  # a merge of newer commits: on top


def test_a_head_that_does_not_descend_from_the_kept_one_is_read_whole(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A reset back, an amend, a rebase: the kept pass holds commits HEAD no longer has."""
    root = tmp_path / "repo"
    root.mkdir()
    heads = _eventful_history(root)
    git(root, "checkout", "-q", "--detach", heads[-1])
    _write(root, "e.md", "# E\n\nAmended away.\n")
    commit(root, "e", "2024-10-01T10:00:00+00:00", "e.md")
    amended = git(root, "rev-parse", "HEAD").strip()
    git(root, "commit", "-q", "--amend", "-m", "e, amended", when="2024-10-02T10:00:00+00:00")
    again = git(root, "rev-parse", "HEAD").strip()
    asked = _step_through(root, root, [heads[2], heads[-1], amended, again, heads[3]], tmp_path, monkeypatch)
    # On top: from heads[2] (every later commit is newer, the older branch's too) and to the commit
    # made on heads[-1]; whole: the amended commit, and back to heads[3].
    assert [since for since in asked if since is not None] == [heads[2]] * 2 + [heads[-1]] * 2


# -- a vault whose folder was moved in the repository (git mv notes vault)

def _notes_then_renamed(root: Path, folders: tuple[str, ...] = ("notes", "vault"), imported: int = 0) -> None:
    """Three notes written in ``folders[0]`` a month apart (after ``imported`` notes put in at once),
    then the folder moved to each next one, in September and October."""
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    _write(root, "README.md", "# Code\n")
    commit(root, "code", "2023-12-01T10:00:00+00:00", "README.md")
    if imported:
        paths = [f"{folders[0]}/old/o{number}.md" for number in range(imported)]
        for path in paths:
            _write(root, path, f"# {path}\n\nYears old, put in at once.\n")
        commit(root, "import", "2023-12-15T10:00:00+00:00", *paths)
    for month in (1, 2, 3):
        _write(root, f"{folders[0]}/n{month}.md", f"# N{month}\n\nWritten in month {month}.\n")
        commit(root, f"n{month}", f"2024-0{month}-01T10:00:00+00:00", f"{folders[0]}/n{month}.md")
    for number, (before, after) in enumerate(zip(folders, folders[1:])):
        (root / after).parent.mkdir(parents=True, exist_ok=True)
        git(root, "mv", before, after)
        git(root, "commit", "-qm", f"move {before} to {after}", when=f"2024-{9 + number}-01T10:00:00+00:00")


def test_a_vault_whose_folder_was_renamed_keeps_each_note_s_day(tmp_path: Path) -> None:
    """Was: `git mv notes vault` shows every note added by the rename to a log of vault/, and each was
    dated that day (ten or more: taken for an import, all undated)."""
    _notes_then_renamed(tmp_path)
    vault = tmp_path / "vault"
    setting(vault, ON)
    assert list(listed(vault, "2024-02-01", "2024-02-01")) == ["n2.md"]
    assert listed(vault, "2024-09-01", "2024-09-01") == {}
    assert len(listed(vault, "2024-01-01", "2024-03-31")) == 3


def test_a_vault_moved_twice_keeps_each_note_s_day(tmp_path: Path) -> None:
    _notes_then_renamed(tmp_path, ("docs", "notes", "team/vault"))
    vault = tmp_path / "team" / "vault"
    setting(vault, ON)
    assert {path: note["date"] for path, note in listed(vault, "2024-01-01", "2024-12-31").items()} == {
        "n1.md": "2024-01-01T10:00:00+00:00", "n2.md": "2024-02-01T10:00:00+00:00", "n3.md": "2024-03-01T10:00:00+00:00"}


def test_notes_imported_into_a_folder_later_renamed_stay_undated_and_the_rest_keep_their_days(tmp_path: Path) -> None:
    _notes_then_renamed(tmp_path, imported=12)
    vault = tmp_path / "vault"
    setting(vault, ON)
    assert set(listed(vault, "2024-01-01", "2024-12-31")) == {"n1.md", "n2.md", "n3.md"}
    dates = load_git_dates(vault, tmp_path / "nowhere", True, None, is_note_name)[0]
    assert dates.imported == {f"old/o{number}.md" for number in range(12)}


def test_the_commits_after_a_folder_rename_read_on_top_give_what_the_whole_history_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _eventful_history(root, folder="notes/")
    git(root, "mv", "notes", "vault")
    git(root, "commit", "-qm", "rename the folder", when="2024-10-01T10:00:00+00:00")
    _write(root, "vault/e.md", "# E\n\nAfter the rename.\n")
    commit(root, "e", "2024-10-02T10:00:00+00:00", "vault/e.md")
    _write(root, "src/main.py", "print('code')\n")
    commit(root, "code", "2024-10-03T10:00:00+00:00", "src/main.py")
    heads = git(root, "rev-list", "--first-parent", "--reverse", "HEAD").split()[-3:]
    _step_through(root, root / "vault", heads, tmp_path, monkeypatch)
    dates = load_git_dates(root / "vault", tmp_path / "nowhere", True, None, is_note_name)[0]
    assert dates.added["kept/c.md"].said == "2024-06-01T10:00:00+00:00"
    assert "old/n0.md" in dates.imported


# -- a vault in a folder of a bigger repository: its log reads that folder only

def test_a_vault_folder_named_like_a_pathspec_reads_its_own_notes_only_and_follows_its_old_name(tmp_path: Path) -> None:
    """The vault's log is limited to its folder and a moved folder's history to the folder it was:
    names with glob and magic characters (`notes*[x]`, `:old dir*`) are themselves, so a sibling a
    glob would match (`notes-x`, whose twelve notes came first) counts for neither the import rule
    nor the dates."""
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "p@example.com")
    git(tmp_path, "config", "user.name", "P")
    _write(tmp_path, "README.md", "# Code\n")
    commit(tmp_path, "code", "2023-12-01T10:00:00+00:00", "README.md")
    sibling = [f"notes-x/s{number}.md" for number in range(12)]
    for path in sibling:
        _write(tmp_path, path, f"# {path}\n\nAnother team's note.\n")
    commit(tmp_path, "their notes", "2023-12-10T10:00:00+00:00", *sibling)
    old = [f":old dir*/o{number}.md" for number in range(12)]
    for path in old:
        _write(tmp_path, path, f"# {path}\n\nYears old, put in at once.\n")
    commit(tmp_path, "import", "2023-12-15T10:00:00+00:00", *old)
    _write(tmp_path, ":old dir*/n1.md", "# N1\n\nWritten in January.\n")
    commit(tmp_path, "n1", "2024-01-01T10:00:00+00:00", ":old dir*/n1.md")
    git(tmp_path, "mv", ":old dir*", "notes*[x]")
    git(tmp_path, "commit", "-qm", "rename", when="2024-09-01T10:00:00+00:00")
    _write(tmp_path, "notes*[x]/n2.md", "# N2\n\nWritten in October.\n")
    commit(tmp_path, "n2", "2024-10-01T10:00:00+00:00", "notes*[x]/n2.md")
    vault = tmp_path / "notes*[x]"
    setting(vault, ON)
    dates = load_git_dates(vault, tmp_path / "nowhere", True, None, is_note_name)[0]
    assert {path: when.said for path, when in dates.added.items()} == {
        "n1.md": "2024-01-01T10:00:00+00:00", "n2.md": "2024-10-01T10:00:00+00:00"}
    assert dates.imported == {f"o{number}.md" for number in range(12)}
    assert set(listed(vault, "2023-01-01", "2024-12-31")) == {"n1.md", "n2.md"}


# -- explain and check say what git dated, and what it left undated

def test_explain_of_a_note_in_the_answer_names_the_commit_that_dated_it_with_its_subject(til: Path) -> None:
    """Was: only a note a date bound left out named its commit; one in the answer said nothing of it."""
    setting(til, ON)
    first = git(til, "log", "--format=%H", "--", "react/remount.md").strip()
    with Vault(til, embedder=HashingEmbedder()) as vault:
        for since in (None, "2025-01-01"):
            explained = vault.explain("react/remount.md", "react key prop", since=since)
            assert explained.in_answer
            assert [reason for reason in explained.reasons if "git history" in reason] == [
                f'its date 2025-03-10T09:00:00+01:00 is from its git history: commit {first[:10]} ("react") added its '
                "file (.vaultmem.toml [dates] from_git; the note says no date of its own)"]


def test_check_says_in_one_line_how_many_notes_an_importing_commit_left_undated_and_how_to_date_them(
        vault_dir: Path, write_note) -> None:
    """Was: check said nothing of them (explain said it one note at a time)."""
    imported = _imported_after_a_readme(vault_dir, write_note)
    write_note(imported[0], "---\ndate: 2019-05-01\n---\n# Design\n\nDated by its property.\n")
    setting(vault_dir, ON)
    run_cli(vault_dir, "index")
    result = run_cli(vault_dir, "check")
    lines = [line for line in result.stdout.splitlines() if "not dated by git" in line]
    assert lines == ["dates.from_git: 11 notes with no other date are not dated by git: the commit that brought the notes "
                     "into git added them with 10 or more at once (when git began, not when they were written); to date "
                     "them, give each a date property (date: YYYY-MM-DD); `explain NOTE QUERY` names such a note"]
    report = json.loads(run_cli(vault_dir, "check", "--json").stdout)
    assert [notice["field"] for notice in report["notices"]] == ["dates.from_git"]
    assert not any("not dated by git" in problem["message"] for problem in report["problems"])  # said, not a problem
    setting(vault_dir, OFF)
    assert json.loads(run_cli(vault_dir, "check", "--json").stdout)["notices"] == []


# -- a review of the histories a person's git makes (s34 revgit)

def test_the_first_commit_s_notes_are_dated_where_the_person_s_git_hides_a_first_commit_s_changes(tmp_path: Path) -> None:
    """Was: with `log.showRoot = false` in the person's git config, git log shows no change for the
    repository's first commit: the notes it added were undated (called "not committed yet"), and a
    vault folder renamed after a first commit of its notes dated them by the rename."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    git(root, "config", "log.showRoot", "false")
    _write(root, "notes/first.md", "# First\n\nWritten the day the repository began.\n")
    commit(root, "first", "2024-01-05T10:00:00+00:00", "notes/first.md")
    _write(root, "notes/second.md", "# Second\n\nWritten a month later.\n")
    commit(root, "second", "2024-02-05T10:00:00+00:00", "notes/second.md")
    at_top = load_git_dates(root, tmp_path / "nowhere", True, None, is_note_name)[0]
    assert {path: added.said for path, added in at_top.added.items()} == {
        "notes/first.md": "2024-01-05T10:00:00+00:00", "notes/second.md": "2024-02-05T10:00:00+00:00"}
    git(root, "mv", "notes", "vault")
    git(root, "commit", "-qm", "rename the folder", when="2024-09-01T10:00:00+00:00")
    moved = load_git_dates(root / "vault", tmp_path / "nowhere", True, None, is_note_name)[0]
    assert {path: added.said for path, added in moved.added.items()} == {
        "first.md": "2024-01-05T10:00:00+00:00", "second.md": "2024-02-05T10:00:00+00:00"}


def _pull_stopped_on_a_conflict(root: Path, **first: str) -> None:
    """Obsidian Git on two devices: both edit a.md (first committed beside the notes ``first``
    names: file name → text) and the pull's merge stops on the conflict."""
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    _write(root, "a.md", "# A\n\nThe first words.\n")
    for name, text in first.items():
        _write(root, name, text)
    commit(root, "a", "2024-01-01T10:00:00+00:00", "a.md", *first)
    git(root, "checkout", "-q", "-b", "phone")
    _write(root, "a.md", "# A\n\nThe phone's words.\n")
    commit(root, "phone", "2024-01-02T10:00:00+00:00", "a.md")
    git(root, "checkout", "-q", "main")
    _write(root, "a.md", "# A\n\nThe desktop's words.\n")
    commit(root, "desktop", "2024-01-03T10:00:00+00:00", "a.md")
    merged = subprocess.run(["git", "merge", "-q", "phone", "-m", "merge"], cwd=root, capture_output=True, text=True, check=False)
    assert merged.returncode != 0  # the conflict


def _conflict_merged_with_a_new_note(root: Path) -> None:
    """The pull stopped on a conflict, and the next auto-commit (`git add -A; git commit`) ends
    the merge with a note written meanwhile."""
    _pull_stopped_on_a_conflict(root)
    _write(root, "a.md", "# A\n\nBoth devices' words.\n")
    _write(root, "during.md", "# During\n\nWritten while the merge waited.\n")
    commit(root, "vault backup", "2024-01-04T10:00:00+00:00", "a.md", "during.md")


def test_a_note_a_merge_commit_added_is_dated_by_that_merge(tmp_path: Path) -> None:
    """Was: git log shows no change for a merge, so a note the merge commit itself added (a conflict
    ended by Obsidian Git's next commit) was undated, and explain called it not committed yet."""
    root = tmp_path / "repo"
    root.mkdir()
    _conflict_merged_with_a_new_note(root)
    merge = git(root, "rev-parse", "HEAD").strip()
    dates = load_git_dates(root, tmp_path / "nowhere", True, None, is_note_name)[0]
    assert {path: (added.said, added.commit) for path, added in dates.added.items()} == {
        "a.md": ("2024-01-01T10:00:00+00:00", git(root, "rev-list", "--max-parents=0", "HEAD").strip()),
        "during.md": ("2024-01-04T10:00:00+00:00", merge)}
    assert dates.undated_reason("during.md") == ""


def test_a_note_a_merge_commit_renamed_keeps_the_day_it_was_added(tmp_path: Path) -> None:
    """Was: a note renamed while a conflicted merge waited (Obsidian's rename, then Obsidian Git's
    commit ending the merge) was undated: the merge's combined diff names only the new path."""
    root = tmp_path / "repo"
    root.mkdir()
    _pull_stopped_on_a_conflict(
        root, **{"old name.md": "# Kept\n\nA note long enough to be known again after its rename, word for word.\n"})
    _write(root, "a.md", "# A\n\nBoth devices' words.\n")
    git(root, "mv", "old name.md", "new name.md")
    commit(root, "vault backup", "2024-01-04T10:00:00+00:00", "a.md")
    dates = load_git_dates(root, tmp_path / "nowhere", True, None, is_note_name)[0]
    assert dates.added["new name.md"].said == "2024-01-01T10:00:00+00:00"


def test_a_merge_that_added_a_note_read_on_top_gives_what_the_whole_history_gives(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _conflict_merged_with_a_new_note(root)
    _write(root, "later.md", "# Later\n\nAfter the merge.\n")
    commit(root, "later", "2024-01-05T10:00:00+00:00", "later.md")
    heads = git(root, "rev-list", "--first-parent", "--reverse", "HEAD").split()
    asked = _step_through(root, root, heads, tmp_path, monkeypatch)
    assert asked.count(heads[-2]) == 2  # the commit after the merge: read on top of the merge's pass
    assert "during.md" in _dates_at(root, tmp_path / "nowhere", None).added


def test_a_vault_folder_renamed_with_its_kept_dates_reads_the_new_folder_whole(tmp_path: Path) -> None:
    """Was: the vault's folder renamed in the file manager, `.vaultmem/` with it, and committed:
    the commits since were read on top of the old folder's kept pass, whose deleted notes the new
    folder's history never held, and a note of the same bytes added back took the old note's day,
    where a reading from scratch (`.vaultmem/` deleted) dated it by its own commit."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    _write(root, ".gitignore", ".vaultmem/\n")
    _write(root, "notes/a.md", "# A\n\nThe first note.\n")
    commit(root, "a", "2024-01-01T10:00:00+00:00", ".gitignore", "notes/a.md")
    _write(root, "notes/y.md", "# Y\n\nDeleted, and written again word for word.\n")
    commit(root, "y", "2024-01-02T10:00:00+00:00", "notes/y.md")
    git(root, "rm", "-q", "notes/y.md")
    git(root, "commit", "-qm", "drop y", when="2024-01-03T10:00:00+00:00")
    (root / "notes" / ".vaultmem").mkdir()
    _dates_at(root / "notes", root / "notes" / ".vaultmem", None)  # kept under notes/.vaultmem
    (root / "notes").rename(root / "vault")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "rename the folder", when="2024-02-01T10:00:00+00:00")
    _write(root, "vault/y.md", "# Y\n\nDeleted, and written again word for word.\n")
    commit(root, "y again", "2024-03-01T10:00:00+00:00", "vault/y.md")
    vault = root / "vault"
    whole = _dates_at(vault, tmp_path / "nowhere", None)
    assert whole.added["y.md"].said == "2024-03-01T10:00:00+00:00"
    _same(_dates_at(vault, vault / ".vaultmem", None), whole)


def test_a_top_level_note_renamed_then_moved_in_keeps_its_day_where_the_person_s_git_follows_files(tmp_path: Path) -> None:
    """Was: with `log.follow = true` in the person's git config, the history of the one file a note
    was moved in from (a note at the repository's top) was read with --follow: git showed it added
    by its earlier rename, and the note took the rename's day."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "p@example.com")
    git(root, "config", "user.name", "P")
    git(root, "config", "log.follow", "true")
    _write(root, "draft.md", "# Idea\n\n" + "A note long enough to be known again after each move.\n" * 3)
    commit(root, "draft", "2024-01-01T10:00:00+00:00", "draft.md")
    git(root, "mv", "draft.md", "idea.md")
    git(root, "commit", "-qm", "name it", when="2024-02-01T10:00:00+00:00")
    (root / "vault").mkdir()
    git(root, "mv", "idea.md", "vault/idea.md")
    git(root, "commit", "-qm", "into the vault", when="2024-03-01T10:00:00+00:00")
    dates = load_git_dates(root / "vault", tmp_path / "nowhere", True, None, is_note_name)[0]
    assert dates.added["idea.md"].said == "2024-01-01T10:00:00+00:00"


def test_explain_names_a_commit_s_subject_in_utf8_where_the_person_s_git_writes_logs_in_latin1(til: Path) -> None:
    """Was: with `i18n.logOutputEncoding = ISO-8859-1`, git wrote the subject in Latin-1 and explain
    (text and --json) wrote its bytes as they came: "caf\\xe9", not UTF-8."""
    (til / "cafe.md").write_text("# Café\n\nThe espresso machine's descaling.\n", encoding="utf-8")
    commit(til, "café notes", "2025-07-01T12:00:00+00:00", "cafe.md")
    git(til, "config", "i18n.logOutputEncoding", "ISO-8859-1")
    setting(til, ON)
    with Vault(til, embedder=HashingEmbedder()) as vault:
        explained = vault.explain("cafe.md", "espresso descaling")
    assert [reason for reason in explained.reasons if "git history" in reason and '("café notes")' in reason]
    assert Vault(til).history("cafe.md")[0].message == "café notes"


def test_with_the_setting_off_the_warning_says_git_dates_no_note_a_commit_imported_at_once(vault_dir: Path,
                                                                                           write_note) -> None:
    """Was (trial s37, a vault `git init`ed after its notes): the warning offered from_git as what
    dates them, and turned on it dated none: every note came in the first commit."""
    git(vault_dir, "init", "-q")
    git(vault_dir, "config", "user.email", "p@example.com")
    git(vault_dir, "config", "user.name", "P")
    old = [f"clippings/article-{number}.md" for number in range(12)]
    for path in old:
        write_note(path, f"# Article {path[-4]}\n\nRead years ago.\n")
    commit(vault_dir, "vault", "2026-12-02T09:00:00+00:00", *old)
    setting(vault_dir, OFF)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        warnings = " ".join(vault.search("article", since="2026-12-01").warnings)
    assert "from_git = true in [dates] dates a note by the commit that added it, unless that commit added it " \
           "with 10 or more other notes at once" in warnings


def test_the_undated_warning_counts_only_the_imported_notes_it_left_out(vault_dir: Path, write_note) -> None:
    """Was (trial s37 on kepano's vault, `git init`ed with all its notes): "nor do the 118 notes the
    commit … added at once" beside "38 notes without a date": the 118 were every file of the commit,
    Obsidian's templates (not notes) and daily notes dated by their names among them."""
    git(vault_dir, "init", "-q")
    git(vault_dir, "config", "user.email", "p@example.com")
    git(vault_dir, "config", "user.name", "P")
    undated = [f"clippings/article-{number}.md" for number in range(12)]
    dated = [f"Daily/2023-09-{day}.md" for day in range(10, 15)]
    templates = [f"Templates/Template {number}.md" for number in range(4)]
    for path in undated:
        write_note(path, f"# Article {path[-4]}\n\nRead years ago.\n")
    for path in dated:
        write_note(path, "## Notes\n\nA day.\n")
    for path in templates:
        write_note(path, "---\ntags:\n  - daily\n---\n## Notes\n")
    write_note(".obsidian/templates.json", '{"folder": "Templates"}')
    commit(vault_dir, "vault", "2026-12-02T09:00:00+00:00", *undated, *dated, *templates, ".obsidian/templates.json")
    setting(vault_dir, ON)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        warnings = " ".join(vault.search("article", since="2023-09-10", until="2023-09-12").warnings)
    assert "12 notes without a date left out" in warnings
    assert "nor do the 12 notes the commit that brought the notes into git added at once" in warnings
