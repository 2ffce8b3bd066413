"""Live indexing (vaultmem/watcher.py, ``Vault.watch``, ``vaultmem watch``).

Real observers on real files in ``tmp_path``; the change kinds are checked through
``vaultmem search`` in a separate process while ``vaultmem watch`` runs in another.
No mocks: where an event has to be "lost", the index is changed behind the watcher's
back and watchdog's own overflow warning is logged through watchdog's own logger.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from watchdog.events import (
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedNoWriteEvent,
    FileCreatedEvent,
    FileMovedEvent,
    FileOpenedEvent,
)

from helpers import (
    WatchProcess,
    assert_same_as_rebuild,
    generate_vault,
    index_matches_disk,
    vaultmem_process,
    wait_until,
    write_file,
)
from vaultmem.config import WatchSettings
from vaultmem.feed import Debouncer, Target, notes_under, targets_for
from vaultmem.notes import Problem
from vaultmem.paths import VaultPaths
from vaultmem.storage import Store
from vaultmem.vault import Vault
from vaultmem.watcher import Change, FolderMove, WatchError, folder_moves

CONFIG = 'embedder = "hashing"\n'


def note(title: str, body: str, layer: str = "L3") -> str:
    return f"---\nlayer: {layer}\nexpires_at: 2099-01-01\n---\n# {title}\n\n{body}\n"


def make_vault(root: Path, config: str = CONFIG, notes: int = 5) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".vaultmem.toml").write_text(config, encoding="utf-8")
    for number in range(notes):
        write_file(root, f"base/note-{number}.md", note(f"Base {number}", f"baseline text number{number} about harbors"))
    return root


def found_hits(vault: Path, query: str) -> list[dict[str, object]]:
    """The hits of ``vaultmem search QUERY -k 50 --json`` run in a separate process."""
    result = vaultmem_process(vault, "search", query, "-k", "50", "--json")
    assert result.returncode == 0, result.stderr
    return list(json.loads(result.stdout))


def found_paths(vault: Path, query: str) -> list[str]:
    """Paths of the hits of ``vaultmem search QUERY -k 50``.

    Search is hybrid: the vector side returns *some* notes for any query, so "found"
    alone proves a path is indexed, not what it says (see :func:`searchable`).
    """
    return [str(hit["path"]) for hit in found_hits(vault, query)]


def searchable(vault: Path, query: str, path: str) -> bool:
    """``path`` is the top hit for its unique word ``query``, found by that word: its indexed
    text holds it (in a small vault a note about a lemur is the nearest in meaning to
    "marmot" too, before the index has read the marmot)."""
    hits = found_hits(vault, query)[:1]
    return [hit["path"] for hit in hits] == [path] and hits[0]["match"] in ("keyword", "both")


def gone(vault: Path, query: str, path: str) -> bool:
    return path not in found_paths(vault, query)


def in_sync(vault: Path, relative: str) -> bool:
    """The index holds exactly the file's current bytes."""
    with Vault(vault) as opened:
        row = opened.store.notes.by_path(relative)
    return row is not None and row.content_hash == hashlib.sha256((vault / relative).read_bytes()).hexdigest()


def indexed_paths(vault: Path) -> set[str]:
    with Vault(vault) as opened:
        return set(opened.store.notes.file_states())


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, WatchProcess]]:
    """One vault with one ``vaultmem watch`` process, shared by the change-kind tests.

    Each test works in its own folder with its own words, so they do not interfere.
    """
    base = tmp_path_factory.mktemp("watched")
    vault = make_vault(base / "vault")
    watcher = WatchProcess(vault, base)
    watcher.wait_ready()
    yield vault, watcher
    code = watcher.stop()
    assert code == 0, watcher.errors()
    assert "Traceback" not in watcher.errors(), watcher.errors()


# ------------------------------------------------------------------ the debouncer (pure)


def test_debouncer_waits_for_a_quiet_period() -> None:
    debouncer: Debouncer[str] = Debouncer(delay=0.3)
    debouncer.add("a.md", now=10.0)
    assert debouncer.pop_due(10.2) == []
    debouncer.add("a.md", now=10.2)  # another write: the quiet period restarts
    assert debouncer.pop_due(10.4) == []
    assert debouncer.pop_due(10.5) == ["a.md"]
    assert len(debouncer) == 0 and debouncer.next_deadline() is None


def test_debouncer_never_holds_a_busy_path_beyond_max_wait() -> None:
    debouncer: Debouncer[str] = Debouncer(delay=0.3, max_wait=2.0)
    for tick in range(30):  # written every 100 ms for 3 s
        now = 100.0 + tick / 10
        debouncer.add("log.md", now)
        if debouncer.pop_due(now):
            assert now >= 102.0
            return
    raise AssertionError("a path written without pause was held back forever")


def test_debouncer_releases_nearly_due_paths_together() -> None:
    """git checkout: delete old.md, 20 ms later create new.md — one batch, so a move."""
    debouncer: Debouncer[str] = Debouncer(delay=0.3)
    debouncer.add("old.md", now=5.00)
    debouncer.add("new.md", now=5.02)
    debouncer.add("later.md", now=5.25)
    assert sorted(debouncer.pop_due(5.30)) == ["new.md", "old.md"]
    assert debouncer.pop_due(5.50) == []
    assert debouncer.pop_due(5.55) == ["later.md"]


# ------------------------------------------------------------------ events → targets (pure)


def test_events_map_to_note_and_folder_targets(tmp_path: Path) -> None:
    paths = VaultPaths(tmp_path, "_archive")
    root = str(paths.real_root)

    def targets(event: object) -> list[Target]:
        return targets_for(event, paths)  # type: ignore[arg-type]

    assert targets(FileCreatedEvent(f"{root}/a/n.md")) == [Target("a/n.md")]
    assert targets(FileAttribEvent(f"{root}/n.md")) == [Target("n.md")]
    assert targets(FileMovedEvent(f"{root}/a.md", f"{root}/b/a.md")) == [Target("a.md"), Target("b/a.md")]
    # vim: note.md → note.md~ : only the side that is a note counts
    assert targets(FileMovedEvent(f"{root}/n.md", f"{root}/n.md~")) == [Target("n.md")]
    # an atomic save: temp file renamed over the note
    assert targets(FileMovedEvent(f"{root}/.n.md.tmp", f"{root}/n.md")) == [Target("n.md")]
    assert targets(DirMovedEvent(f"{root}/a", f"{root}/b")) == [Target("a", True), Target("b", True)]
    assert targets(DirMovedEvent(f"{root}/a", f"{root}/.trash/a")) == [Target("a", True)]
    assert targets(DirDeletedEvent(f"{root}/gone")) == [Target("gone", True)]
    for ignored in ("n.md~", "4913", ".n.md.swp", "x.tmp", "n.txt", ".hidden.md", ".obsidian/w.md",
                    ".git/x.md", ".trash/x.md", ".vaultmem/index.db", "_archive/old.md"):
        assert targets(FileCreatedEvent(f"{root}/{ignored}")) == [], ignored
    assert targets(FileOpenedEvent(f"{root}/n.md")) == []  # our own reads
    assert targets(FileClosedNoWriteEvent(f"{root}/n.md")) == []
    assert targets(DirModifiedEvent(f"{root}/a")) == []
    assert targets(FileCreatedEvent("/elsewhere/n.md")) == []


def test_notes_under_applies_the_ignore_rules(tmp_path: Path) -> None:
    for relative in ("a/n.md", "a/b/m.md", "a/.obsidian/x.md", "a/x.md~", "a/x.txt", "_archive/o.md"):
        write_file(tmp_path, relative, "text")
    paths = VaultPaths(tmp_path, "_archive")
    assert sorted(notes_under(paths, "a")) == ["a/b/m.md", "a/n.md"]
    assert list(notes_under(paths, "missing")) == []


# ------------------------------------------------------------------ every change kind, via the CLI


def test_create(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    write_file(vault, "create/fresh.md", note("Fresh", "a kumquat orchard appeared"))
    wait_until(lambda: searchable(vault, "kumquat", "create/fresh.md"))


def test_modify(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    path = write_file(vault, "modify/n.md", note("Modify", "the quokka sleeps"))
    wait_until(lambda: searchable(vault, "quokka", "modify/n.md"))
    path.write_text(note("Modify", "the axolotl swims"), encoding="utf-8")
    wait_until(lambda: searchable(vault, "axolotl", "modify/n.md"))
    assert in_sync(vault, "modify/n.md")


def test_delete(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    path = write_file(vault, "delete/n.md", note("Delete", "a narwhal tusk"))
    wait_until(lambda: searchable(vault, "narwhal", "delete/n.md"))
    path.unlink()
    wait_until(lambda: gone(vault, "narwhal", "delete/n.md"))


def test_rename_file_keeps_the_note(watched: tuple[Path, WatchProcess]) -> None:
    vault, watcher = watched
    path = write_file(vault, "rename/before.md", note("Rename", "the pangolin rolls"))
    wait_until(lambda: searchable(vault, "pangolin", "rename/before.md"))
    path.rename(vault / "rename/after.md")
    wait_until(lambda: searchable(vault, "pangolin", "rename/after.md") and gone(vault, "pangolin", "rename/before.md"))
    wait_until(lambda: "moved rename/before.md -> rename/after.md" in watcher.output())


def test_move_file_to_another_folder(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    path = write_file(vault, "movefile/a/n.md", note("Move", "an okapi grazes"))
    wait_until(lambda: searchable(vault, "okapi", "movefile/a/n.md"))
    (vault / "movefile/b").mkdir()
    path.rename(vault / "movefile/b/n.md")
    wait_until(lambda: searchable(vault, "okapi", "movefile/b/n.md") and gone(vault, "okapi", "movefile/a/n.md"))


def test_rename_folder(watched: tuple[Path, WatchProcess]) -> None:
    vault, watcher = watched
    for number in range(3):
        write_file(vault, f"renamedir/old/sub/n{number}.md", note(f"Dir {number}", f"tapir{number} wallaby"))
    old = [f"renamedir/old/sub/n{number}.md" for number in range(3)]
    new = [f"renamedir/new/sub/n{number}.md" for number in range(3)]
    wait_until(lambda: set(old) <= set(found_paths(vault, "wallaby")))
    (vault / "renamedir/old").rename(vault / "renamedir/new")
    wait_until(lambda: set(new) <= set(found_paths(vault, "wallaby")) and not set(old) & set(found_paths(vault, "wallaby")))
    # One line for the folder a person moved, not one per note (was: a line per note, 312 for 312).
    wait_until(lambda: "moved folder renamedir/old/ -> renamedir/new/ (3 notes)" in watcher.output())
    assert "moved renamedir/old/sub/n0.md" not in watcher.output()


def test_folder_moved_out_of_the_vault_drops_its_notes(watched: tuple[Path, WatchProcess], tmp_path: Path) -> None:
    vault, _ = watched
    for number in range(3):
        write_file(vault, f"moveout/deep/n{number}.md", note(f"Out {number}", f"mongoose{number} caracal"))
    paths = {f"moveout/deep/n{number}.md" for number in range(3)}
    wait_until(lambda: paths <= set(found_paths(vault, "caracal")))
    shutil.move(str(vault / "moveout/deep"), str(tmp_path / "deep"))  # same filesystem: a rename
    wait_until(lambda: not paths & set(found_paths(vault, "caracal")))
    assert not paths & indexed_paths(vault)


def test_folder_moved_into_the_vault(watched: tuple[Path, WatchProcess], tmp_path: Path) -> None:
    vault, _ = watched
    outside = tmp_path / "incoming"
    for number in range(3):
        write_file(outside, f"sub/n{number}.md", note(f"In {number}", f"gecko{number} ibis"))
    (vault / "movein").mkdir()
    outside.rename(vault / "movein/incoming")
    wait_until(lambda: {f"movein/incoming/sub/n{number}.md" for number in range(3)} <= set(found_paths(vault, "ibis")))


def test_atomic_save_temp_file_and_rename(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    path = write_file(vault, "atomic/n.md", note("Atomic", "a lemur leaps"))
    wait_until(lambda: searchable(vault, "lemur", "atomic/n.md"))
    temp = vault / "atomic/.n.md.tmp-1234"
    temp.write_text(note("Atomic", "a marmot whistles"), encoding="utf-8")
    os.replace(temp, path)
    wait_until(lambda: searchable(vault, "marmot", "atomic/n.md"))
    assert in_sync(vault, "atomic/n.md")
    assert not any(path.startswith("atomic/.") for path in indexed_paths(vault))


def test_sed_in_place(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    path = write_file(vault, "sed/n.md", note("Sed", "a wombat digs"))
    wait_until(lambda: searchable(vault, "wombat", "sed/n.md"))
    subprocess.run(["sed", "-i", "s/wombat/platypus/", str(path)], check=True)
    wait_until(lambda: searchable(vault, "platypus", "sed/n.md"))
    assert in_sync(vault, "sed/n.md")
    assert indexed_paths(vault) >= {"sed/n.md"}
    assert not any(name.startswith("sed/sed") for name in indexed_paths(vault))


def test_vim_backup_dance(watched: tuple[Path, WatchProcess]) -> None:
    """vim with backupcopy=no: probe 4913, note.md → note.md~, new note.md, drop note.md~."""
    vault, watcher = watched
    path = write_file(vault, "vim/note.md", note("Vim", "a capybara bathes"))
    wait_until(lambda: searchable(vault, "capybara", "vim/note.md"))
    probe = vault / "vim/4913"
    probe.write_bytes(b"")
    probe.unlink()
    backup = vault / "vim/note.md~"
    path.rename(backup)
    path.write_text(note("Vim", "a chinchilla bathes"), encoding="utf-8")
    backup.unlink()
    wait_until(lambda: searchable(vault, "chinchilla", "vim/note.md"))
    assert in_sync(vault, "vim/note.md")
    assert {"vim/note.md"} == {path for path in indexed_paths(vault) if path.startswith("vim/")}


def test_real_vim_edit(watched: tuple[Path, WatchProcess]) -> None:
    if shutil.which("vim") is None:
        pytest.skip("vim is not installed")
    vault, _ = watched
    path = write_file(vault, "realvim/note.md", note("Real vim", "a dugong floats"))
    wait_until(lambda: searchable(vault, "dugong", "realvim/note.md"))
    subprocess.run(
        ["vim", "-u", "NONE", "-N", "-n", "-e", "-s", "-c", "set backupcopy=no writebackup", "-c", "%s/dugong/manatee/", "-c", "wq", str(path)],
        check=True, timeout=30, stdin=subprocess.DEVNULL,
    )
    wait_until(lambda: searchable(vault, "manatee", "realvim/note.md"))
    assert in_sync(vault, "realvim/note.md")


def test_git_checkout(watched: tuple[Path, WatchProcess]) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    vault, _ = watched
    repo = vault / "gitrepo"
    repo.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                       check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    write_file(repo, "keep.md", note("Keep", "heron on main"))
    write_file(repo, "drop.md", note("Drop", "heron dropped later"))
    write_file(repo, "rename-me.md", note("Renamed", "heron renamed later"))
    git("add", "-A")
    git("commit", "-q", "-m", "main")
    git("checkout", "-q", "-b", "other")
    write_file(repo, "keep.md", note("Keep", "heron on the other branch"))
    (repo / "drop.md").unlink()
    (repo / "rename-me.md").rename(repo / "renamed.md")
    write_file(repo, "added.md", note("Added", "heron added on other"))
    git("add", "-A")
    git("commit", "-q", "-m", "other")
    main_paths = {"gitrepo/drop.md", "gitrepo/keep.md", "gitrepo/rename-me.md"}
    other_paths = {"gitrepo/added.md", "gitrepo/keep.md", "gitrepo/renamed.md"}

    def shows(expected: set[str]) -> bool:
        found = {path for path in found_paths(vault, "heron") if path.startswith("gitrepo/")}
        return found == expected and all(in_sync(vault, path) for path in expected)

    wait_until(lambda: shows(other_paths))
    git("checkout", "-q", "main")
    wait_until(lambda: shows(main_paths))
    git("checkout", "-q", "other")
    wait_until(lambda: shows(other_paths))
    assert not any(path.startswith("gitrepo/.git") for path in indexed_paths(vault))


def test_touch_updates_the_stat_without_a_change(watched: tuple[Path, WatchProcess]) -> None:
    """touch/utime arrive as watchdog 7 "attrib" events: the stored stat follows, nothing is re-embedded."""
    vault, watcher = watched
    path = write_file(vault, "touch/n.md", note("Touch", "an ocelot naps"))
    wait_until(lambda: searchable(vault, "ocelot", "touch/n.md"))
    old = 1_500_000_000_000_000_000  # 2017: well outside the racy window
    os.utime(path, ns=(old, old))

    def stored_mtime() -> int | None:
        with Vault(vault) as opened:
            row = opened.store.notes.by_path("touch/n.md")
            return None if row is None else row.mtime_ns

    wait_until(lambda: stored_mtime() == old)
    assert "updated touch/n.md" not in watcher.output()


def test_ignored_folders_and_temp_files_never_appear(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    ignored = [".obsidian/i.md", ".git/i.md", ".trash/i.md", ".vaultmem/i.md", "_archive/i.md", "ignored/.hidden.md",
               "ignored/i.md~", "ignored/4913", "ignored/i.tmp", "ignored/.i.md.swp", "ignored/i.txt", "ignored/.cache/i.md"]
    for relative in ignored:
        write_file(vault, relative, note("Ignored", "a jackalope sighting"))
    write_file(vault, "ignored/sentinel.md", note("Sentinel", "a wolverine sighting"))
    wait_until(lambda: searchable(vault, "wolverine", "ignored/sentinel.md"))
    assert not set(ignored) & set(found_paths(vault, "jackalope"))
    assert not set(ignored) & indexed_paths(vault)


def test_a_burst_of_creates_and_deletes_converges(watched: tuple[Path, WatchProcess]) -> None:
    vault, _ = watched
    for number in range(150):
        write_file(vault, f"burst/n{number:03d}.md", note(f"Burst {number}", f"burst{number} quetzal"))
    for number in range(0, 150, 3):
        (vault / f"burst/n{number:03d}.md").unlink()
    expected = [f"burst/n{number:03d}.md" for number in range(150) if number % 3]
    wait_until(lambda: sorted(p for p in indexed_paths(vault) if p.startswith("burst/")) == expected, timeout=30)
    assert searchable(vault, "burst1", "burst/n001.md")
    assert gone(vault, "burst3", "burst/n003.md")


# ------------------------------------------------------------------ the command's lifecycle


def test_ctrl_c_exits_cleanly(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    watcher = WatchProcess(vault, tmp_path)
    watcher.wait_ready()
    assert watcher.stop(signal.SIGINT) == 0
    assert "Traceback" not in watcher.errors(), watcher.errors()
    assert "stopped watching" in watcher.output()


def test_sigterm_exits_cleanly_even_during_the_start_up_reconcile(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault", notes=1500)
    watcher = WatchProcess(vault, tmp_path)
    wait_until(lambda: (vault / ".vaultmem" / "index.db").exists(), timeout=30)
    assert watcher.stop(signal.SIGTERM) == 0
    assert "Traceback" not in watcher.errors(), watcher.errors()


def test_quiet_prints_nothing_but_still_indexes(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    watcher = WatchProcess(vault, tmp_path, "--quiet")
    wait_until(lambda: (vault / ".vaultmem" / "index.db").exists() and indexed_paths(vault), timeout=30)
    write_file(vault, "quiet.md", note("Quiet", "a silent egret"))
    wait_until(lambda: searchable(vault, "egret", "quiet.md"))
    assert watcher.stop() == 0
    assert watcher.output() == ""
    assert watcher.errors() == ""


def test_watch_logs_each_change_once_a_write_by_another_vaultmem_process_too(tmp_path: Path) -> None:
    """A trial (s37): `watch` logged the person's edits, an atomic save, a `mv` and an `rm`, but a
    note another vaultmem process wrote (`remember`, `revise`, `forget`) only when the watcher
    indexed it before that process did: the other process's own reindex left the watcher's
    reconcile nothing to report."""
    vault = make_vault(tmp_path / "vault", CONFIG + "[watch]\ndebounce_ms = 100\n", notes=1)
    watcher = WatchProcess(vault, tmp_path)
    watcher.wait_ready()

    def logged(line: str) -> str:
        return wait_until(lambda: line in watcher.output() and watcher.output(), timeout=30, what=line)

    try:
        assert vaultmem_process(vault, "remember", "The ferry to the island leaves at nine", "--title", "Ferry").returncode == 0
        logged("added memories/ferry.md")
        assert vaultmem_process(vault, "revise", "memories/ferry.md", "--append", "Sundays at ten.").returncode == 0
        logged("updated memories/ferry.md")
        assert vaultmem_process(vault, "forget", "memories/ferry.md").returncode == 0
        logged("removed memories/ferry.md")
        (vault / "base" / ".note-0.md.tmp").write_text(note("Base 0", "saved atomically by an editor"), encoding="utf-8")
        os.replace(vault / "base" / ".note-0.md.tmp", vault / "base" / "note-0.md")
        logged("updated base/note-0.md")
        shutil.move(vault / "base" / "note-0.md", vault / "base" / "moved.md")
        logged("moved base/note-0.md -> base/moved.md")
        (vault / "base" / "moved.md").unlink()
        logged("removed base/moved.md")
    finally:
        assert watcher.stop() == 0, watcher.errors()
    # Whoever indexed it first, each change is one line (the other process nearly always wins: its
    # write and its reindex are one step, the watcher waits for the file to be quiet).
    other = " (by another vaultmem process, which indexed it first)"
    lines = [line.split(" ", 1)[1].removesuffix(other) for line in watcher.output().splitlines()[1:]
             if not line.endswith("stopped watching")]
    assert lines == ["added memories/ferry.md", "updated memories/ferry.md", "removed memories/ferry.md",
                     "updated base/note-0.md", "moved base/note-0.md -> base/moved.md", "removed base/moved.md"], lines


def test_edits_made_while_stopped_are_picked_up_on_start(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    assert vaultmem_process(vault, "index").returncode == 0
    write_file(vault, "offline/new.md", note("New", "a lynx arrived offline"))
    write_file(vault, "base/note-1.md", note("Base 1", "rewritten offline with a marten"))
    (vault / "base/note-2.md").unlink()
    watcher = WatchProcess(vault, tmp_path)
    line = watcher.wait_ready()
    assert "1 added, 1 updated, 0 moved, 1 removed" in line
    assert searchable(vault, "lynx", "offline/new.md")
    assert searchable(vault, "marten", "base/note-1.md")
    assert "base/note-2.md" not in indexed_paths(vault)
    assert watcher.stop() == 0


def test_polling_observer(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    watcher = WatchProcess(vault, tmp_path, "--polling")
    assert "(polling)" in watcher.wait_ready()
    write_file(vault, "poll/n.md", note("Poll", "a toucan calls"))
    wait_until(lambda: searchable(vault, "toucan", "poll/n.md"))
    (vault / "poll").rename(vault / "polled")
    wait_until(lambda: searchable(vault, "toucan", "polled/n.md") and gone(vault, "toucan", "poll/n.md"))
    (vault / "polled/n.md").unlink()
    wait_until(lambda: gone(vault, "toucan", "polled/n.md"))
    assert watcher.stop() == 0


# ------------------------------------------------------------------ the Python API


def threads_now() -> set[threading.Thread]:
    return set(threading.enumerate())


def test_vault_watch_is_a_context_manager_and_leaks_no_threads(tmp_path: Path) -> None:
    vault_dir = make_vault(tmp_path / "vault")
    before = threads_now()
    changes: list[Change] = []
    with Vault(vault_dir) as vault:
        with vault.watch(on_change=changes.append) as watcher:
            assert watcher.running and watcher.initial_report is not None
            assert len(watcher.initial_report.added) == 5
            write_file(vault_dir, "api/n.md", note("API", "a serval hunts"))
            wait_until(lambda: [hit.path for hit in vault.search("serval", k=3)][:1] == ["api/n.md"])
            (vault_dir / "api/n.md").rename(vault_dir / "api/m.md")
            wait_until(lambda: Change("moved", "api/m.md", "api/n.md") in changes)
        assert not watcher.running
    assert changes[0] == Change("added", "api/n.md")
    wait_until(lambda: threads_now() <= before, timeout=5, what="every watcher thread to end")


def test_stop_then_start_a_new_watcher(tmp_path: Path) -> None:
    vault_dir = make_vault(tmp_path / "vault")
    with Vault(vault_dir) as vault:
        watcher = vault.watch()
        watcher.stop()
        watcher.stop()  # idempotent
        with pytest.raises(WatchError, match="already started"):
            watcher.start()
        write_file(vault_dir, "later.md", note("Later", "a dingo between watchers"))
        with vault.watch() as second:
            assert second.initial_report is not None and second.initial_report.added == ["later.md"]


def test_an_inotify_overflow_triggers_a_rescan(tmp_path: Path) -> None:
    """watchdog only logs an overflow; the lost events are simulated by editing the index."""
    vault_dir = make_vault(tmp_path / "vault")
    with Vault(vault_dir) as vault, vault.watch() as watcher:
        assert watcher.running
        behind_the_back = Store(vault_dir / ".vaultmem")
        row = behind_the_back.notes.by_path("base/note-0.md")
        assert row is not None and row.label is not None
        with behind_the_back.transaction():
            behind_the_back.notes.delete([row.label])
            behind_the_back.vectors.delete([row.label])
        behind_the_back.close()
        assert "base/note-0.md" not in indexed_paths(vault_dir)
        # The exact warning watchdog's inotify backend logs when the kernel queue overflows.
        logging.getLogger("watchdog.observers.inotify_c").warning("Inotify queue overflowed; filesystem events were lost")
        wait_until(lambda: "base/note-0.md" in indexed_paths(vault_dir))


def test_a_periodic_rescan_heals_lost_events(tmp_path: Path) -> None:
    vault_dir = make_vault(tmp_path / "vault", config=CONFIG + "[watch]\nrescan_seconds = 1\n")
    assert Vault(vault_dir).config.watch == WatchSettings(debounce_ms=300, rescan_seconds=1)
    with Vault(vault_dir) as vault, vault.watch():
        behind_the_back = Store(vault_dir / ".vaultmem")
        row = behind_the_back.notes.by_path("base/note-3.md")
        assert row is not None and row.label is not None
        with behind_the_back.transaction():
            behind_the_back.notes.delete([row.label])
            behind_the_back.vectors.delete([row.label])
        behind_the_back.close()
        wait_until(lambda: "base/note-3.md" in indexed_paths(vault_dir))


def test_deleting_the_vault_folder_stops_the_watcher_with_an_error(tmp_path: Path) -> None:
    vault_dir = make_vault(tmp_path / "vault")
    with Vault(vault_dir) as vault:
        watcher = vault.watch()
        try:
            shutil.rmtree(vault_dir)
            wait_until(lambda: not watcher.running)
        finally:
            watcher.stop()
        with pytest.raises(WatchError, match="deleted or moved"):
            watcher.raise_if_failed()


def test_deleting_the_index_folder_builds_a_new_index(tmp_path: Path) -> None:
    """``rm -rf .vaultmem`` while watching: the watcher must not keep feeding the deleted file."""
    vault_dir = make_vault(tmp_path / "vault")
    with Vault(vault_dir) as vault, vault.watch():
        shutil.rmtree(vault_dir / ".vaultmem")
        write_file(vault_dir, "after-reset.md", note("After", "a puffin after the reset"))
        expected = {f"base/note-{number}.md" for number in range(5)} | {"after-reset.md"}
        wait_until(lambda: (vault_dir / ".vaultmem" / "index.db").exists() and indexed_paths(vault_dir) == expected)


@pytest.mark.parametrize("moved", [False, True])
def test_losing_the_index_folder_warns_that_the_usage_history_went_with_it_and_how_to_have_it_back(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, moved: bool) -> None:
    """A trial (s34): after `rm -rf .vaultmem` under a running watch the warning said only that a
    new index would be built; the usage history (`used`, `stale`) and its backup were gone with it."""
    vault_dir = make_vault(tmp_path / "vault")
    with Vault(vault_dir) as vault:
        vault.mark_used(["base/note-1.md", "base/note-2.md"])
        with caplog.at_level(logging.WARNING, logger="vaultmem"), vault.watch():
            if moved:
                (vault_dir / ".vaultmem").rename(vault_dir / ".vaultmem-old")
            else:
                shutil.rmtree(vault_dir / ".vaultmem")
            wait_until(lambda: "usage history" in caplog.text, what="the warning about usage history")
    said = caplog.text
    assert "the new index starts without the usage history (used, stale) of 2 note(s)" in said, said
    if moved:
        assert f"was moved to {vault_dir / '.vaultmem-old'}" in said and f"it is in {vault_dir / '.vaultmem-old'}" in said
    else:
        assert "was deleted (or moved out of the vault)" in said and "vaultmem usage import FILE" in said
    with Vault(vault_dir) as vault:
        assert vault.usage_export()["usage"] == []  # what the warning says: the new index has none


def test_losing_an_index_folder_with_no_usage_history_says_nothing_of_usage(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    vault_dir = make_vault(tmp_path / "vault")
    with Vault(vault_dir) as vault, caplog.at_level(logging.WARNING, logger="vaultmem"), vault.watch():
        shutil.rmtree(vault_dir / ".vaultmem")
        expected = {f"base/note-{number}.md" for number in range(5)}
        wait_until(lambda: (vault_dir / ".vaultmem" / "index.db").exists() and indexed_paths(vault_dir) == expected)
    assert "was deleted" in caplog.text and "usage history" not in caplog.text


def test_the_watched_index_equals_a_rebuild(tmp_path: Path) -> None:
    """After a burst on a realistic vault — 110 new notes, 40 deleted, 30 edited, 20
    renamed, a folder moved — with the default embedder, the watched index has the same
    notes, vectors and search results (top 10, with scores) as ``index --rebuild``."""
    vault = generate_vault(tmp_path / "vault", 300, seed=11)
    others = sorted(generate_vault(tmp_path / "others", 110, seed=5).rglob("*.md"))
    watcher = WatchProcess(vault, tmp_path)
    watcher.wait_ready()
    burst_on_generated_vault(vault, others)
    wait_until(lambda: index_matches_disk(vault), timeout=30, what="the watched index to match the files")
    assert watcher.stop() == 0
    assert_same_as_rebuild(vault)


def burst_on_generated_vault(vault: Path, others: list[Path]) -> None:
    notes = sorted(path for path in vault.rglob("*.md") if ".vaultmem" not in path.parts)
    (vault / "new").mkdir()
    for number, source in enumerate(others):
        shutil.copyfile(source, vault / "new" / f"other-{number:03d}.md")
    for path in notes[:30]:
        path.write_text(path.read_text(encoding="utf-8") + "\nEdited while watched: the harbor moved.\n", encoding="utf-8")
    for path in notes[30:70]:
        path.unlink()
    for path in notes[70:90]:
        path.rename(path.with_name("renamed " + path.name))
    folders = sorted({path.parent for path in notes[90:] if path.parent != vault}, key=lambda folder: len(folder.parts))
    folders[0].rename(folders[0].with_name(folders[0].name + "-moved"))


def test_a_watcher_that_cannot_start_raises_and_leaks_no_threads(tmp_path: Path) -> None:
    vault_dir = make_vault(tmp_path / "vault", config='embedder = "no-such-embedder"\n')
    before = threads_now()
    with Vault(vault_dir) as vault:
        with pytest.raises(WatchError, match="no-such-embedder"):
            vault.watch()
    wait_until(lambda: threads_now() <= before, timeout=5, what="every watcher thread to end")


def test_the_command_reports_a_failure_with_exit_1_and_no_traceback(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault", config='embedder = "no-such-embedder"\n')
    watcher = WatchProcess(vault, tmp_path)
    assert watcher.process.wait(timeout=60) == 1
    watcher.stop()
    assert "no-such-embedder" in watcher.errors()
    assert "Traceback" not in watcher.errors()


def test_watchdogs_stopped_emitter_error_is_not_printed_and_its_other_errors_are(caplog: pytest.LogCaptureFixture) -> None:
    # A script that used the API on a real vault and closed its Vault printed
    # "ERROR:watchdog.observers.inotify:InotifyEmitter.queue_events() called when the thread is
    # inactive" as it ended: watchdog's read returning after its observer was stopped.
    import vaultmem.feed  # noqa: F401  (installs the filter)

    inotify_log = logging.getLogger("watchdog.observers.inotify")
    with caplog.at_level(logging.ERROR, logger="watchdog.observers.inotify"):
        inotify_log.error("InotifyEmitter.queue_events() called when the thread is inactive")
        inotify_log.error("some other inotify failure")
    assert [record.getMessage() for record in caplog.records] == ["some other inotify failure"]


def test_a_long_start_up_reconcile_logs_how_many_notes_it_reads(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # A trial: an MCP server on a new vault of 2,223 notes made its first call wait 38 s, and
    # its log said nothing until the index was done; `watch` was as silent.
    vault_dir = make_vault(tmp_path / "vault", notes=520)
    with caplog.at_level(logging.INFO, logger="vaultmem.watcher"), Vault(vault_dir) as vault, vault.watch():
        pass
    said = [record.getMessage() for record in caplog.records if record.name == "vaultmem.watcher"]
    assert "indexing 520 of 520 notes (a first index of a large vault takes a while)" in said


def test_a_short_start_up_reconcile_logs_no_progress(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    vault_dir = make_vault(tmp_path / "vault", notes=5)
    with caplog.at_level(logging.INFO, logger="vaultmem.watcher"), Vault(vault_dir) as vault, vault.watch():
        pass
    assert not [record for record in caplog.records if record.getMessage().startswith("indexing ")]


def test_a_folders_moves_are_told_as_one_folder_move_and_single_moves_one_by_one() -> None:
    moves = [Change("moved", f"B/sub/n{number}.md", f"A/sub/n{number}.md") for number in range(3)]
    single = Change("moved", "C/x.md", "D/x.md")
    renamed = Change("moved", "E/new.md", "E/old.md")
    told = folder_moves([Change("added", "F/a.md"), *moves, single, renamed], folder_exists=lambda folder: folder in {"C", "D", "E"})
    assert told == [Change("added", "F/a.md"), FolderMove("A/", "B/", 3), single, renamed]
    assert str(told[1]) == "moved folder A/ -> B/ (3 notes)"


def test_notes_moved_out_of_a_folder_that_stays_are_told_one_by_one() -> None:
    moves = [Change("moved", f"B/n{number}.md", f"A/n{number}.md") for number in range(2)]
    assert folder_moves(moves, folder_exists=lambda folder: folder == "A") == moves


def test_a_subfolder_moved_out_of_a_folder_that_stays_is_told_as_the_subfolder() -> None:
    moves = [Change("moved", f"B/sub/n{number}.md", f"A/sub/n{number}.md") for number in range(2)]
    assert folder_moves(moves, folder_exists=lambda folder: folder in {"A", "B", "B/sub"}) == [FolderMove("A/sub/", "B/sub/", 2)]


def test_on_change_gets_every_note_of_a_moved_folder_and_on_changes_the_batch(tmp_path: Path) -> None:
    vault_dir = make_vault(tmp_path / "vault", notes=0)
    for number in range(3):
        write_file(vault_dir, f"old/n{number}.md", note(f"Moved {number}", f"a caracal{number} leaps"))
    changes: list[Change] = []
    batches: list[list[Change]] = []
    with Vault(vault_dir) as vault, vault.watch(on_change=changes.append, on_changes=batches.append):
        (vault_dir / "old").rename(vault_dir / "new")
        wait_until(lambda: len(changes) >= 3)
        wait_until(lambda: sum(len(batch) for batch in batches) >= 3)
    assert sorted(changes, key=lambda change: change.path) == [Change("moved", f"new/n{number}.md", f"old/n{number}.md") for number in range(3)]
    assert sorted((change for batch in batches for change in batch), key=lambda change: change.path) == \
        sorted(changes, key=lambda change: change.path)


def test_a_folders_moved_notes_with_problems_are_counted_in_its_one_line() -> None:
    # A trial: 300 L3 notes without expires_at, moved as a folder, printed 300 lines again (each with its problem).
    problem = Problem("B/n0.md", "expires_at", "layer L3 note has no expires_at, so it never expires", "add one")
    moves = [Change("moved", f"B/n{number}.md", f"A/n{number}.md", (problem,) if number == 0 else ()) for number in range(3)]
    [told] = folder_moves(moves, folder_exists=lambda folder: folder == "B")
    assert str(told) == ("moved folder A/ -> B/ (3 notes)  ! 1 of them with problems, the first: B/n0.md expires_at: "
                         "layer L3 note has no expires_at, so it never expires; `vaultmem check` lists them all")


def test_a_folder_of_many_notes_moved_in_says_how_far_the_watch_is_not_a_first_index(tmp_path: Path) -> None:
    # Was: a `git checkout` that changed 1,861 notes left `watch` silent for 3 minutes (the
    # watcher's progress lines were below the level `watch` logs at), and the line, when logged,
    # called any long reconcile "a first index of a large vault".
    vault = make_vault(tmp_path / "vault")
    for base in (vault / "base").iterdir():  # older than the racy window (indexer.settled_stat): else, indexed
        os.utime(base, (base.stat().st_atime - 3600, base.stat().st_mtime - 3600))  # at once, they are read again: 605
    assert vaultmem_process(vault, "index").returncode == 0
    outside = tmp_path / "outside" / "imported"
    for number in range(600):  # more than BULK_PATHS and LOG_PROGRESS_MIN_NOTES: a chunked reconcile
        write_file(outside, f"n-{number:03d}.md", note(f"Imported {number}", f"imported text number{number}"))
    watcher = WatchProcess(vault, tmp_path)
    watcher.wait_ready()
    shutil.move(str(outside), str(vault / "imported"))
    wait_until(lambda: watcher.output().count(" added imported/") == 600, timeout=120, what="the 600 notes to be indexed")
    assert watcher.stop() == 0
    said = [line for line in watcher.errors().splitlines() if line.startswith("INFO: ")]
    assert said[0] == "INFO: indexing 600 of 605 notes"
    assert "Traceback" not in watcher.errors()


def test_a_watch_started_after_an_upgrade_says_it_reads_every_note_again_not_a_first_index(tmp_path: Path) -> None:
    # Was: "indexing 600 of 600 notes (a first index of a large vault takes a while)" — the line
    # took every note to read for a first index; after an upgrade (READER_VERSION) it is a re-read.
    from vaultmem.storage import READER_KEY

    vault = make_vault(tmp_path / "vault", notes=600)
    assert vaultmem_process(vault, "index").returncode == 0
    with Vault(vault) as opened:
        opened.store.meta.set(READER_KEY, "reader-1/an-earlier-vaultmem")  # rows an earlier version made
    watcher = WatchProcess(vault, tmp_path)
    watcher.wait_ready()
    assert watcher.stop() == 0
    said = [line for line in watcher.errors().splitlines() if line.startswith("INFO: ")]
    assert said[0] == "INFO: indexing 600 of 600 notes (every note read again: the index was made by another version of vaultmem)"
