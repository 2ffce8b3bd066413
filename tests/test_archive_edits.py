"""A change git merged into an archived note is said by ``check`` and ``index`` (archive_edits.py,
adr/0009): two clones of one bare repository, real git, real vaultmem commands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from helpers import run_cli, run_json
from mcp_client import run, serve

NOTE = "---\ntitle: Door code\nlayer: L3\nexpires_at: 2027-06-01\n---\nThe door code of the garden shed is {code}.\n"
SETTINGS = 'embedder = "hashing"\nauto_commit = true\n'


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def clone(hub: Path, where: Path, name: str) -> Path:
    git(hub.parent, "clone", "-q", str(hub), str(where))
    git(where, "config", "user.email", f"{name}@example.com")
    git(where, "config", "user.name", name)
    git(where, "config", "pull.rebase", "false")  # git's default: a merge (Obsidian Git's default too)
    return where


@pytest.fixture
def machines(tmp_path: Path) -> tuple[Path, Path]:
    """A laptop and a desktop sharing one vault through a bare repository."""
    hub = tmp_path / "hub.git"
    git(tmp_path, "init", "-q", "--bare", str(hub))
    laptop = clone(hub, tmp_path / "laptop", "Laptop")
    (laptop / "memories").mkdir()
    (laptop / "memories" / "door.md").write_text(NOTE.format(code="4471"), encoding="utf-8")
    (laptop / "memories" / "milk.md").write_text("---\nlayer: L4\n---\nOat milk, never dairy.\n", encoding="utf-8")
    (laptop / ".vaultmem.toml").write_text(SETTINGS, encoding="utf-8")
    (laptop / ".gitignore").write_text(".vaultmem/\n", encoding="utf-8")
    git(laptop, "add", "memories", ".vaultmem.toml", ".gitignore")
    git(laptop, "commit", "-qm", "first")
    git(laptop, "push", "-q", "origin", "HEAD")
    return laptop, clone(hub, tmp_path / "desktop", "Desktop")


def archive_problems(vault: Path, *command: str) -> list[dict[str, str]]:
    result = run_cli(vault, *command, "--json")
    return [problem for problem in json.loads(result.stdout)["problems"] if problem["field"] == "archive"]


def edit_elsewhere_while_archived(laptop: Path, desktop: Path) -> None:
    """The laptop forgets the note (vaultmem commits the move); the desktop, not pulled yet,
    changes its code and pushes; the laptop pushes its archive after `git pull`."""
    forgotten = run_cli(laptop, "forget", "memories/door.md", "--json")
    assert forgotten.exit_code == 0, forgotten.output
    assert json.loads(forgotten.stdout)["commit"]
    door = desktop / "memories" / "door.md"
    door.write_text(door.read_text(encoding="utf-8").replace("4471", "9902"), encoding="utf-8")
    git(desktop, "commit", "-qam", "new door code")
    git(desktop, "push", "-q")
    git(laptop, "pull", "-q")
    git(laptop, "push", "-q")


def test_an_edit_git_merged_into_an_archived_note_is_a_check_problem_with_the_fix(machines: tuple[Path, Path]) -> None:
    """Was: git applied the desktop's edit to _archive/memories/door.md without a conflict;
    search never found 9902 and check said nothing."""
    laptop, desktop = machines
    edit_elsewhere_while_archived(laptop, desktop)
    archived = laptop / "_archive" / "memories" / "door.md"
    assert "9902" in archived.read_text(encoding="utf-8")  # git's merge, silent: the premise
    assert not (laptop / "memories" / "door.md").exists()
    result = run_cli(laptop, "check", "--json")
    assert result.exit_code == 1
    found = [problem for problem in json.loads(result.stdout)["problems"] if problem["field"] == "archive"]
    assert len(found) == 1
    assert found[0]["path"] == "_archive/memories/door.md"
    assert "put it in the archive" in found[0]["message"]
    assert "search does not read the archive" in found[0]["message"]
    assert "`git mv _archive/memories/door.md memories/door.md`" in found[0]["fix"]
    assert "git checkout " in found[0]["fix"]
    assert "git diff " in found[0]["fix"]
    # index says it too, one by one in its text output
    assert [problem["path"] for problem in archive_problems(laptop, "index")] == ["_archive/memories/door.md"]
    assert "_archive/memories/door.md: archive: changed since commit" in run_cli(laptop, "index").stdout


def test_the_machine_that_did_not_archive_sees_it_too(machines: tuple[Path, Path]) -> None:
    """The record is git's, not one machine's index: the desktop, after its pull, is told the same."""
    laptop, desktop = machines
    edit_elsewhere_while_archived(laptop, desktop)
    git(desktop, "pull", "-q")
    assert "9902" in (desktop / "_archive" / "memories" / "door.md").read_text(encoding="utf-8")
    assert [problem["path"] for problem in archive_problems(desktop, "check")] == ["_archive/memories/door.md"]


def test_following_the_fix_brings_the_change_back_to_search_and_clears_the_problem(machines: tuple[Path, Path]) -> None:
    laptop, desktop = machines
    edit_elsewhere_while_archived(laptop, desktop)
    assert all("door" not in hit["path"] for hit in run_json(laptop, "search", "door code 9902"))  # type: ignore[index, union-attr]
    assert [problem["path"] for problem in archive_problems(laptop, "check")] == ["_archive/memories/door.md"]
    git(laptop, "mv", "_archive/memories/door.md", "memories/door.md")
    assert archive_problems(laptop, "check") == []
    hits = run_json(laptop, "search", "door code 9902")
    assert [hit["path"] for hit in hits][:1] == ["memories/door.md"]  # type: ignore[index]


def test_dropping_the_change_as_the_fix_says_clears_the_problem(machines: tuple[Path, Path]) -> None:
    laptop, desktop = machines
    edit_elsewhere_while_archived(laptop, desktop)
    fix = archive_problems(laptop, "check")[0]["fix"]
    commit = fix.split("`git checkout ", 1)[1].split(" ", 1)[0]
    git(laptop, "checkout", commit, "--", "_archive/memories/door.md")
    assert "4471" in (laptop / "_archive" / "memories" / "door.md").read_text(encoding="utf-8")
    assert archive_problems(laptop, "check") == []


def test_an_archive_nobody_changed_is_no_problem_and_an_uncommitted_edit_is_one(machines: tuple[Path, Path]) -> None:
    laptop, _desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    assert run_cli(laptop, "check").exit_code == 0
    archived = laptop / "_archive" / "memories" / "door.md"
    archived.write_text(archived.read_text(encoding="utf-8") + "Edited in the archive.\n", encoding="utf-8")
    assert [problem["path"] for problem in archive_problems(laptop, "check")] == ["_archive/memories/door.md"]


def test_a_vault_outside_git_is_checked_as_before(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "_archive" / "memories").mkdir(parents=True)
    (vault / "_archive" / "memories" / "door.md").write_text(NOTE.format(code="9902"), encoding="utf-8")
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    assert run_cli(vault, "check").exit_code == 0


def test_a_name_with_a_space_is_quoted_and_a_path_taken_again_is_said(machines: tuple[Path, Path]) -> None:
    """The commands in the fix run as given in a shell; when a note is at the old path again,
    moving back would fail: the fix says to carry the change over by hand."""
    laptop, desktop = machines
    edit_elsewhere_while_archived(laptop, desktop)
    fix = archive_problems(laptop, "check")[0]["fix"]
    assert "`git mv _archive/memories/door.md memories/door.md`" in fix
    (laptop / "memories" / "door.md").write_text("---\nlayer: L3\n---\nA new door note.\n", encoding="utf-8")
    fix = archive_problems(laptop, "check")[0]["fix"]
    assert fix.startswith("memories/door.md is a note again: copy the change into it by hand")
    git(laptop, "mv", "_archive/memories/door.md", "_archive/memories/shed door.md")
    git(laptop, "commit", "-qm", "a person moves the archived copy")
    git(laptop, "commit", "-q", "--allow-empty", "-m", "later")
    archived = laptop / "_archive" / "memories" / "shed door.md"
    archived.write_text(archived.read_text(encoding="utf-8") + "More.\n", encoding="utf-8")
    found = archive_problems(laptop, "check")
    assert [problem["path"] for problem in found] == ["_archive/memories/shed door.md"]
    # moved inside the archive: back to where its name says, not to its earlier archive path
    assert "`git mv '_archive/memories/shed door.md' 'memories/shed door.md'`" in found[0]["fix"]


def test_a_vault_nested_in_a_larger_repository_is_compared_from_its_own_folder(tmp_path: Path) -> None:
    """Found by hand: `hash-object --stdin-paths` reads paths from the repository's top, so a
    nested vault's check failed ("could not open '_archive/…'") instead of comparing."""
    top = tmp_path / "home"
    vault = top / "vault"
    (vault / "memories").mkdir(parents=True)
    (vault / "memories" / "door.md").write_text(NOTE.format(code="4471"), encoding="utf-8")
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (top / "other.md").write_text("not the vault's\n", encoding="utf-8")
    git(top, "init", "-q")
    git(top, "config", "user.email", "maya@example.com")
    git(top, "config", "user.name", "Maya")
    git(top, "add", "vault/memories", "other.md")
    git(top, "commit", "-qm", "first")
    assert run_cli(vault, "forget", "memories/door.md").exit_code == 0
    git(top, "add", "-A", "vault/memories", "vault/_archive")
    git(top, "commit", "-qm", "archive")
    assert run_cli(vault, "check").exit_code == 0
    archived = vault / "_archive" / "memories" / "door.md"
    archived.write_text(archived.read_text(encoding="utf-8").replace("4471", "9902"), encoding="utf-8")
    found = archive_problems(vault, "check")
    assert [problem["path"] for problem in found] == ["_archive/memories/door.md"]
    assert "`git mv _archive/memories/door.md memories/door.md`" in found[0]["fix"]


def test_a_checkout_with_crlf_line_endings_is_not_a_change(machines: tuple[Path, Path], tmp_path: Path) -> None:
    """Compared as git would hash the file (its clean filter applied), not byte for byte: a
    Windows clone with core.autocrlf holds CRLF where the commit holds LF."""
    laptop, _desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    git(laptop, "push", "-q")
    windows = tmp_path / "windows"
    git(tmp_path, "clone", "-q", "-c", "core.autocrlf=true", str(tmp_path / "hub.git"), str(windows))
    assert b"\r\n" in (windows / "_archive" / "memories" / "door.md").read_bytes()
    assert archive_problems(windows, "check") == []


def archive_then_pull_rebase(laptop: Path, desktop: Path, edited: str) -> None:
    """The laptop forgets memories/door.md (vaultmem commits the move); the desktop, not
    pulled yet, edits ``edited`` and pushes; the laptop runs `git pull --rebase`, which
    replays its archiving commit on top of the desktop's."""
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    note = desktop / edited
    note.write_text(note.read_text(encoding="utf-8").replace("4471", "9902").replace("Oat", "Soy"), encoding="utf-8")
    git(desktop, "commit", "-qam", "an edit on the desktop")
    git(desktop, "push", "-q")
    git(laptop, "pull", "-q", "--rebase")


def test_an_edit_a_pull_rebase_carried_into_the_archiving_commit_is_said_on_both_machines(machines: tuple[Path, Path]) -> None:
    """Was: the replayed archiving commit itself added the edited bytes, so its blob matched
    the file and check said nothing; the blob vaultmem's commit message names does not."""
    laptop, desktop = machines
    archive_then_pull_rebase(laptop, desktop, "memories/door.md")
    archived = laptop / "_archive" / "memories" / "door.md"
    assert "9902" in archived.read_text(encoding="utf-8")  # the premise: the rebase took the edit in
    assert git(laptop, "status", "--porcelain") == ""
    found = archive_problems(laptop, "check")
    assert [problem["path"] for problem in found] == ["_archive/memories/door.md"]
    assert "a `git pull --rebase` replayed that commit on top of an edit made elsewhere to memories/door.md" in found[0]["message"]
    assert "`git mv _archive/memories/door.md memories/door.md`" in found[0]["fix"]
    git(laptop, "push", "-q")
    git(desktop, "pull", "-q")
    assert [problem["path"] for problem in archive_problems(desktop, "check")] == ["_archive/memories/door.md"]


def test_dropping_a_rebased_edit_as_the_fix_says_brings_back_what_was_archived(machines: tuple[Path, Path]) -> None:
    laptop, desktop = machines
    archive_then_pull_rebase(laptop, desktop, "memories/door.md")
    fix = archive_problems(laptop, "check")[0]["fix"]
    drop = fix.split("to drop the change, `", 1)[1].split("`", 1)[0]
    assert drop.startswith("git show ")
    subprocess.run(drop, shell=True, cwd=laptop, check=True)
    assert "4471" in (laptop / "_archive" / "memories" / "door.md").read_text(encoding="utf-8")
    assert archive_problems(laptop, "check") == []


def test_a_pull_rebase_that_brought_only_other_notes_leaves_the_archive_clean(machines: tuple[Path, Path]) -> None:
    laptop, desktop = machines
    archive_then_pull_rebase(laptop, desktop, "memories/milk.md")
    assert "Soy milk" in (laptop / "memories" / "milk.md").read_text(encoding="utf-8")
    assert "Vaultmem-Archived: " in git(laptop, "log", "-1", "--format=%B")
    assert archive_problems(laptop, "check") == []


def test_an_archived_note_edited_here_and_not_committed_is_said_to_be_this_machines_edit(machines: tuple[Path, Path]) -> None:
    """Was: the problem explained a change saved into the archive by an editor still open on the
    note (uncommitted, this machine's) as git merging another machine's edit."""
    laptop, _desktop = machines
    forgotten = run_cli(laptop, "forget", "memories/door.md", "--json")
    assert forgotten.exit_code == 0, forgotten.output
    archived = laptop / "_archive" / "memories" / "door.md"
    archived.write_text(archived.read_text(encoding="utf-8").replace("4471", "5580"), encoding="utf-8")
    [problem] = archive_problems(laptop, "check")
    assert "edited in the archive folder on this machine" in problem["message"]
    assert "another edited it" not in problem["message"]
    assert "`git checkout HEAD -- _archive/memories/door.md`" in problem["fix"]
    git(laptop, "checkout", "HEAD", "--", "_archive/memories/door.md")  # the fix it names drops the change
    assert archive_problems(laptop, "check") == []


def test_an_edit_a_stopped_merge_staged_into_an_archived_note_is_said_to_be_gits_merge(machines: tuple[Path, Path]) -> None:
    """Was: while the merge stopped on a conflict in another note, its edit to the archived copy
    (staged, not committed) was explained as an edit made on this machine."""
    laptop, desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    milk = "memories/milk.md"
    (laptop / milk).write_text("---\nlayer: L4\n---\nSoy milk, never dairy.\n", encoding="utf-8")
    git(laptop, "commit", "-qam", "soy")
    door = desktop / "memories" / "door.md"
    door.write_text(door.read_text(encoding="utf-8").replace("4471", "9902"), encoding="utf-8")
    (desktop / milk).write_text("---\nlayer: L4\n---\nRice milk, never dairy.\n", encoding="utf-8")
    git(desktop, "commit", "-qam", "new door code, rice milk")
    git(desktop, "push", "-q")
    pulled = subprocess.run(["git", "pull", "-q"], cwd=laptop, capture_output=True, text=True)
    assert pulled.returncode != 0 and (laptop / ".git" / "MERGE_HEAD").exists()  # stopped on milk.md: the premise
    assert "9902" in (laptop / "_archive" / "memories" / "door.md").read_text(encoding="utf-8")
    [problem] = archive_problems(laptop, "check")
    assert "on this machine" not in problem["message"]
    assert "one machine archived the note and another edited it" in problem["message"]


def test_a_note_archived_with_the_persons_uncommitted_edit_is_no_archive_problem(machines: tuple[Path, Path]) -> None:
    """A load trial (expire --apply in a loop beside a person's edits, auto_commit on): the person
    appended to a note that then expired; expire moved the file, edit and all, and committed the
    move with git's bytes (the edit is the person's to commit, adr/0017). Every `check` after
    said the archived file was "edited in the archive folder … an editor still open on the note",
    exited 1, and offered `git checkout HEAD -- …`, which throws away the person's line."""
    laptop, _desktop = machines
    door = laptop / "memories" / "door.md"
    door.write_text(door.read_text(encoding="utf-8") + "\nThe spare key is under the pot.\n", encoding="utf-8")
    forgotten = run_cli(laptop, "forget", "memories/door.md", "--json")
    assert forgotten.exit_code == 0, forgotten.output
    assert json.loads(forgotten.stdout)["yours_left_uncommitted"] == ["_archive/memories/door.md"]
    archived = laptop / "_archive" / "memories" / "door.md"
    assert "The spare key is under the pot." in archived.read_text(encoding="utf-8")
    assert archive_problems(laptop, "check") == []
    git(laptop, "commit", "-qam", "my line")  # the person commits it: still the bytes archived
    assert archive_problems(laptop, "check") == []
    archived.write_text(archived.read_text(encoding="utf-8") + "Edited in the archive.\n", encoding="utf-8")
    [problem] = archive_problems(laptop, "check")  # an edit after the archiving is one
    assert "Edited in the archive." not in git(laptop, "show", problem["fix"].split("`git show ")[1].split(" ")[0])
    assert "The spare key is under the pot." in git(laptop, "show", problem["fix"].split("`git show ")[1].split(" ")[0])


def move_the_archive_folder(vault: Path, archive_dir: str) -> None:
    """A PARA person sets vaultmem's archive folder to their own ``4 Archive`` after vaultmem
    archived into the default ``_archive``."""
    (vault / ".vaultmem.toml").write_text(SETTINGS + f'archive_dir = "{archive_dir}"\n', encoding="utf-8")


def test_a_note_archived_before_archive_dir_changed_is_said_by_index_and_check(machines: tuple[Path, Path]) -> None:
    """Was: after archive_dir = "4 Archive", _archive/ was an ordinary folder: the forgotten door
    code came back to search, and index and check said nothing."""
    laptop, _desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    move_the_archive_folder(laptop, "4 Archive")
    found = archive_problems(laptop, "index")
    assert [problem["path"] for problem in found] == ["_archive/memories/door.md"]
    hits = run_json(laptop, "search", "door code of the garden shed")
    assert "_archive/memories/door.md" in [hit["path"] for hit in hits]  # type: ignore[index]  # what the problem says
    assert "the archive folder is 4 Archive/ now" in found[0]["message"]
    assert "when the archive folder was _archive/" in found[0]["message"]
    assert "search and recall find it" in found[0]["message"]
    assert 'set archive_dir back to "_archive"' in found[0]["fix"]
    result = run_cli(laptop, "check", "--json")
    assert result.exit_code == 1
    assert [p["path"] for p in json.loads(result.stdout)["problems"] if p["field"] == "archive"] == ["_archive/memories/door.md"]


def test_following_the_fix_puts_the_note_in_the_new_archive_and_clears_the_problem(machines: tuple[Path, Path]) -> None:
    laptop, _desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    move_the_archive_folder(laptop, "4 Archive")
    fix = archive_problems(laptop, "check")[0]["fix"]
    command = fix.split("`", 2)[1]
    assert command == "mkdir -p '4 Archive/memories' && git mv _archive/memories/door.md '4 Archive/memories/'"
    subprocess.run(command, shell=True, cwd=laptop, check=True)
    assert archive_problems(laptop, "check") == []
    hits = run_json(laptop, "search", "door code of the garden shed")
    assert all("door" not in hit["path"] for hit in hits)  # type: ignore[union-attr]


def test_a_note_moved_out_of_the_old_archive_by_hand_is_no_archive_problem(machines: tuple[Path, Path]) -> None:
    laptop, _desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    git(laptop, "mv", "_archive/memories/door.md", "memories/door.md")  # brought back on purpose
    move_the_archive_folder(laptop, "4 Archive")
    assert archive_problems(laptop, "check") == []


def forget_each(vault: Path, count: int) -> None:
    """``count`` more memories, each forgotten in a commit of its own."""
    for number in range(count):
        (vault / "memories" / f"m{number}.md").write_text(f"---\nlayer: L3\n---\nMemory {number}.\n", encoding="utf-8")
    git(vault, "add", "memories")
    git(vault, "commit", "-qm", "more")
    for number in range(count):
        assert run_cli(vault, "forget", f"memories/m{number}.md").exit_code == 0


def test_many_files_left_in_the_former_archive_are_said_once_by_check(machines: tuple[Path, Path]) -> None:
    """Was: two lines per file, each naming its commit and a fix to its own file name: 500 files
    archived before archive_dir changed were 1,000 lines of check, burying every other problem."""
    laptop, _desktop = machines
    forget_each(laptop, 4)
    move_the_archive_folder(laptop, "4 Archive")
    shown = run_cli(laptop, "check").stdout
    assert shown.count("vaultmem archived this file here") == 1, shown
    assert "! _archive/memories/: 4 notes: archive:" in shown
    assert "m0.md, m1.md, m2.md, m3.md" in shown
    assert len(archive_problems(laptop, "check")) == 4  # --json still lists each


def test_files_archived_in_one_commit_ask_git_for_that_commits_moves_once(
        machines: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: one `git show` per file left behind: 500 files archived by one expire --apply took
    9 s of git on every index and check."""
    from vaultmem import archive_edits
    from vaultmem.paths import VaultPaths

    laptop, _desktop = machines
    for number in range(5):
        (laptop / "memories" / f"old{number}.md").write_text(
            f"---\nlayer: L2\nexpires_at: 2020-01-01\n---\nOld memory {number}.\n", encoding="utf-8")
    git(laptop, "add", "memories")
    git(laptop, "commit", "-qm", "old ones")
    assert run_cli(laptop, "expire", "--apply").exit_code == 0
    move_the_archive_folder(laptop, "4 Archive")
    asked: list[str] = []
    real_moves = archive_edits.moves

    def counted(root: Path, commit: str) -> dict[str, str]:
        asked.append(commit)
        return real_moves(root, commit)

    monkeypatch.setattr(archive_edits, "moves", counted)  # a spy: git itself still answers
    found = archive_edits.former_archive_problems(VaultPaths(laptop, "4 Archive"))
    assert sorted(problem.path for problem in found) == [f"_archive/memories/old{number}.md" for number in range(5)]
    assert len(asked) == 1


def test_what_a_sibling_vault_in_the_same_repository_archived_is_not_this_vaults(tmp_path: Path) -> None:
    """Was: archivings read every commit of the repository: a vault beside this one in a larger
    repository archived memories/plan.md to its _archive/, and this vault — archive_dir
    "4 Archive", with a folder _archive/ of the person's own notes — was told vaultmem archived
    its _archive/memories/plan.md, with a fix moving the person's note away."""
    top = tmp_path / "notes"
    git(tmp_path, "init", "-q", str(top))
    git(top, "config", "user.email", "a@example.com")
    git(top, "config", "user.name", "A")
    work, home = top / "work", top / "home"
    for vault in (work, home):
        (vault / "memories").mkdir(parents=True)
        (vault / "memories" / "plan.md").write_text("---\nlayer: L4\n---\nThe plan of this vault.\n", encoding="utf-8")
        (vault / ".vaultmem.toml").write_text(SETTINGS, encoding="utf-8")
    (home / "_archive" / "memories").mkdir(parents=True)  # the person's own folder, never vaultmem's archive
    (home / "_archive" / "memories" / "plan.md").write_text("An old plan I keep.\n", encoding="utf-8")
    (top / ".gitignore").write_text(".vaultmem/\n", encoding="utf-8")
    git(top, "add", ".")
    git(top, "commit", "-qm", "first")
    move_the_archive_folder(home, "4 Archive")
    git(top, "commit", "-qam", "home's archive is 4 Archive")
    assert run_cli(work, "forget", "memories/plan.md").exit_code == 0  # work's own archiving, trailer _archive/memories/plan.md
    assert "Vaultmem-Archived:" in git(top, "log", "-1", "--format=%B")
    assert archive_problems(home, "check") == []


def test_a_note_archived_under_another_name_says_the_archive_folder_it_went_to(machines: tuple[Path, Path]) -> None:
    """Was: archived as door-2.md (door.md was in the archive already), its path did not end in
    the path it left, and the archive folder then was taken to be the path's first folder:
    "when the archive folder was System/", and a fix moving it to 4 Archive/Archive/memories/."""
    laptop, _desktop = machines
    move_the_archive_folder(laptop, "System/Archive")
    git(laptop, "commit", "-qam", "archive in System/Archive")
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    (laptop / "memories" / "door.md").write_text(NOTE.format(code="5150"), encoding="utf-8")
    git(laptop, "add", "memories/door.md")
    git(laptop, "commit", "-qm", "a new door code")
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    assert (laptop / "System" / "Archive" / "memories" / "door-2.md").is_file()  # the premise
    move_the_archive_folder(laptop, "4 Archive")
    found = {problem["path"]: problem for problem in archive_problems(laptop, "check")}
    assert sorted(found) == ["System/Archive/memories/door-2.md", "System/Archive/memories/door.md"]
    renamed = found["System/Archive/memories/door-2.md"]
    assert "when the archive folder was System/Archive/" in renamed["message"]
    assert "git mv System/Archive/memories/door-2.md '4 Archive/memories/'" in renamed["fix"]


def test_a_trailer_naming_a_file_outside_the_vault_is_not_looked_at(machines: tuple[Path, Path], tmp_path: Path) -> None:
    """Was: a commit message is anyone's text, and a Vaultmem-Archived line naming /…/outside.md
    or ../outside.md had check name that file outside the vault, with a `git mv` of it."""
    laptop, _desktop = machines
    outside = tmp_path / "outside.md"
    outside.write_text("Not the vault's.\n", encoding="utf-8")
    blob = "0" * 40
    git(laptop, "commit", "-q", "--allow-empty", "-m",
        f"vaultmem forget: x\n\nVaultmem-Archived: {blob} {outside}\nVaultmem-Archived: {blob} ../outside.md")
    move_the_archive_folder(laptop, "4 Archive")
    assert archive_problems(laptop, "check") == []


def test_the_mcp_check_tool_says_a_note_left_in_a_former_archive_and_asks_the_person_to_move_it(
        machines: tuple[Path, Path], tmp_path: Path) -> None:
    """The agent over MCP has no shell and no index tool, and the server reads archive_dir only as
    it starts: was, the check tool's fix told it to run `git mv` and `vaultmem index` itself."""
    laptop, _desktop = machines
    assert run_cli(laptop, "forget", "memories/door.md").exit_code == 0
    move_the_archive_folder(laptop, "4 Archive")

    async def scenario() -> None:
        async with serve(laptop, tmp_path / "mcp.log") as served:
            hits = (await served.call("recall", query="door code of the garden shed"))["hits"]
            assert "_archive/memories/door.md" in [hit["path"] for hit in hits]  # what the problem says
            found = [problem for problem in (await served.call("check"))["problems"] if problem["field"] == "archive"]
            assert [problem["path"] for problem in found] == ["_archive/memories/door.md"]
            assert "the archive folder is 4 Archive/ now" in found[0]["message"]
            fix = found[0]["fix"]
            assert fix.startswith("ask the person to keep it archived by moving it into 4 Archive/ (`mkdir -p"), fix
            assert "git mv _archive/memories/door.md '4 Archive/memories/'" in fix
            assert "restart the MCP server" in fix
            assert "vaultmem index" not in fix

    run(scenario)
