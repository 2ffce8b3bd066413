"""A person's edit is never overwritten: edits injected at the worst moment, many times.

A real inotify watch on the vault's folders sees vaultmem's temp file appear (or a note
being opened) and, at that instant, the person's edit lands: an append in place, or an
editor's rename-save. After every run the person's line must be somewhere in the vault,
never in the archive (a merged or expired note that swallowed it would have "reached
nothing"), and every note that vaultmem reports as fixed or merged must say so.
See adr/0014-racing-edits.md.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import select
import struct
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import NOW, REPO, git, init_repo
from vaultmem import Vault
from vaultmem.errors import RemovedNote, WriteConflict

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the injector uses inotify")

IN_OPEN, IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE = 0x20, 0x40, 0x80, 0x100
_EVENT = struct.Struct("iIII")
RUNS = 12


class EditInjector:
    """On the first inotify event ``trigger`` accepts, ``edit`` runs (in this thread, at once)."""

    def __init__(self, folders: list[Path], mask: int, trigger: Callable[[str, str, int], str | None],
                 edit: Callable[[Path], None], delay_s: float = 0.0) -> None:
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK)
        assert self.fd >= 0
        self.folders: dict[int, Path] = {}
        for folder in folders:
            watch = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), mask)
            assert watch >= 0, ctypes.get_errno()
            self.folders[watch] = folder
        self.trigger, self.edit, self.delay_s = trigger, edit, delay_s
        self.edited: Path | None = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> EditInjector:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        os.close(self.fd)

    def _run(self) -> None:
        while not self.stopping.is_set() and self.edited is None:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            offset = 0
            while offset < len(data):
                watch, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size: offset + _EVENT.size + length].rstrip(b"\0").decode()
                offset += _EVENT.size + length
                target = self.trigger(str(self.folders[watch]), name, mask)
                if target is not None and self.edited is None:
                    if self.delay_s:
                        self.stopping.wait(self.delay_s)
                    self.edited = Path(target)
                    self.edit(self.edited)


def temp_file_of_note(folder: str, name: str, mask: int) -> str | None:
    """vaultmem's temp file beside a note: ``.note.md.<hex>.tmp`` → that note."""
    if mask & IN_CREATE and name.startswith(".") and name.endswith(".tmp"):
        note = name[1:].rsplit(".", 2)[0]
        if note.endswith(".md") and os.path.exists(os.path.join(folder, note)):
            return os.path.join(folder, note)
    return None


def note_opened(folder: str, name: str, mask: int) -> str | None:
    if mask & (IN_OPEN | IN_MOVED_FROM) and name.endswith(".md") and not name.startswith("."):
        return os.path.join(folder, name)
    return None


def append_line(line: bytes) -> Callable[[Path], None]:
    def edit(note: Path) -> None:
        with open(note, "ab") as handle:
            handle.write(line)

    return edit


def rename_save(line: bytes) -> Callable[[Path], None]:
    """An editor's save: the whole new text to a temp file, renamed over the note."""
    def edit(note: Path) -> None:
        try:
            text = note.read_bytes()
        except FileNotFoundError:
            text = b""  # moved away under the editor: it saves what it has, a new file
        temp = note.with_name(note.name + ".saving~")
        temp.write_bytes(text + line)
        os.replace(temp, note)

    return edit


EDITS = {"append": append_line, "rename-save": rename_save}


def files_with(root: Path, line: bytes) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and ".vaultmem" not in path.parts and line in path.read_bytes():
            found.append(path.relative_to(root).as_posix())
    return sorted(found)


def folders_of(root: Path) -> list[Path]:
    return [root, *(path for path in root.rglob("*") if path.is_dir() and ".vaultmem" not in path.parts)]


def person_line(run: int) -> bytes:
    return f"\nA line the person typed in run {run}.\n".encode()


# ---------------------------------------------------------------- consolidate --apply


def duplicates_vault(root: Path) -> Path:
    body = "Maya takes oat milk in her coffee every morning and never dairy"
    notes = {
        "memories/oat-milk.md": f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\n{body}, at home and at work.\n",
        "memories/oat-milk-2.md": f"---\nlayer: L3\nexpires_at: 2027-05-01\n---\n{body}.\n",
        "memories/oat-milk-3.md": f"---\nlayer: L3\nexpires_at: 2027-04-01\n---\n{body}!\n",
        "people/Maya.md": "# Maya\n\nCoffee: [[oat-milk-2]], [[oat-milk-3|her milk]] and [[oat-milk]].\n",
    }
    for relative, text in notes.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n\n[consolidate]\nthreshold = 0.8\n', encoding="utf-8")
    return root


@pytest.fixture
def fresh_vault(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    counter = iter(range(10_000))

    def make(kind: str) -> Path:
        root = tmp_path / f"{kind}-{next(counter)}"
        root.mkdir()
        return root

    yield make


def assert_consolidation_lost_nothing(root: Path, report: dict[str, object], line: bytes) -> None:
    holders = files_with(root, line)
    assert holders, "the person's line is nowhere in the vault"
    assert not [path for path in holders if path.startswith("_archive/")], f"archived with the person's new text: {holders}"
    merged = {item["path"] for entry in report["merged"] for item in entry["merged"]}  # type: ignore[index, union-attr]
    for path in merged:
        assert (root / "_archive" / path).is_file()
    canonical = (root / "memories/oat-milk.md").read_text(encoding="utf-8")
    if merged:
        assert "merged_from" in canonical
    else:
        assert "merged_from" not in canonical  # a skipped cluster is undone whole
        assert "[[oat-milk-2]]" in (root / "people/Maya.md").read_text(encoding="utf-8") or line in (root / "people/Maya.md").read_bytes()


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("trigger", ["temp file appears", "note opened"])
def test_consolidate_apply_never_loses_an_edit_injected_at_the_worst_moment(fresh_vault: Callable[[str], Path], edit: str, trigger: str) -> None:
    rng = random.Random(f"{edit}/{trigger}")
    outcomes: dict[str, int] = {}
    for run in range(RUNS):
        root = duplicates_vault(fresh_vault("consolidate"))
        line = person_line(run)
        with Vault(root) as vault:
            plan = vault.consolidate(now=NOW).plan
            assert len(plan.clusters) == 1 and len(plan.clusters[0].members) == 3
            callback = temp_file_of_note if trigger == "temp file appears" else note_opened
            delay = rng.choice([0.0, 0.0, 0.0005, 0.002])
            with EditInjector(folders_of(root), IN_CREATE | IN_OPEN | IN_MOVED_FROM, callback, EDITS[edit](line), delay) as injector:
                report = vault.consolidate(apply=True, now=NOW, plan=plan).as_dict()
            assert injector.edited is not None or trigger == "note opened", "the trigger never fired"
        if injector.edited is None:
            continue
        assert_consolidation_lost_nothing(root, report, line)
        outcome = "merged" if report["merged"] else "skipped"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert sum(outcomes.values()) >= RUNS // 2, outcomes


def test_consolidate_apply_as_a_process_keeps_an_edit_made_when_its_temp_file_appears(fresh_vault: Callable[[str], Path]) -> None:
    """The issue's reproduction: the old code lost the appended line 6 times out of 6."""
    import subprocess

    for run in range(4):
        root = duplicates_vault(fresh_vault("process"))
        line = person_line(run)
        subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), "index"], check=True, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
        with EditInjector(folders_of(root), IN_CREATE, temp_file_of_note, append_line(line)) as injector:
            result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(root), "consolidate", "--apply", "--json"],
                                    capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
        assert result.returncode == 0, result.stderr
        assert injector.edited is not None
        assert_consolidation_lost_nothing(root, json.loads(result.stdout), line)


# ---------------------------------------------------------------- check --fix


def unfixed_vault(root: Path) -> Path:
    for number in range(4):
        path = root / "inbox" / f"note-{number}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nlayer: L2\ncreated: 2026-11-2{number}T09:00:00Z\n---\nEpisode {number}.\n", encoding="utf-8")
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    return root


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("trigger", ["temp file appears", "note opened"])
def test_check_fix_never_loses_an_edit_injected_at_the_worst_moment(fresh_vault: Callable[[str], Path], edit: str, trigger: str) -> None:
    rng = random.Random(f"check/{edit}/{trigger}")
    fired = 0
    for run in range(RUNS):
        root = unfixed_vault(fresh_vault("check"))
        line = person_line(run)
        callback = temp_file_of_note if trigger == "temp file appears" else note_opened
        with Vault(root) as vault:
            with EditInjector(folders_of(root), IN_CREATE | IN_OPEN, callback, EDITS[edit](line), rng.choice([0.0, 0.001])) as injector:
                report = vault.check(fix=True, now=NOW)
        if injector.edited is None:
            continue
        fired += 1
        edited = injector.edited.relative_to(root).as_posix()
        assert files_with(root, line) == [edited]
        text = injector.edited.read_text(encoding="utf-8")
        fixed = {fix.path for fix in report.fixed}
        # A fix on disk was reported; a save made after vaultmem's write (the editor's buffer
        # read before it) may replace that fix — the person's later save wins, as always.
        assert "expires_at:" not in text or edited in fixed
        if edited not in fixed:
            assert any(problem.path == edited and problem.field == "fix" for problem in report.problems)
    assert fired >= RUNS // 2


# ---------------------------------------------------------------- expire --apply


def expired_vault(root: Path) -> Path:
    for number in range(4):
        path = root / "scratch" / f"old-{number}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nlayer: L1\nexpires_at: 2026-11-0{number + 1}\n---\nOld scratch {number}.\n", encoding="utf-8")
    (root / "_archive" / "scratch").mkdir(parents=True)  # watched from the start
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    return root


def archived_copy_appears(root: Path) -> Callable[[str, str, int], str | None]:
    """The archive copy appears (the old code's link, before its unlink): edit the original."""
    def trigger(folder: str, name: str, mask: int) -> str | None:
        if mask & (IN_CREATE | IN_MOVED_TO) and folder.endswith(os.path.join("_archive", "scratch")) and name.endswith(".md"):
            return str(root / "scratch" / name)
        return None

    return trigger


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize(("hard", "trigger"), [(False, "note opened"), (True, "note opened"), (False, "archived copy appears")],
                         ids=["archive-note opened", "delete-note opened", "archive-archived copy appears"])
def test_expire_apply_never_archives_or_deletes_an_edit_injected_at_the_worst_moment(
        fresh_vault: Callable[[str], Path], edit: str, hard: bool, trigger: str) -> None:
    rng = random.Random(f"expire/{edit}/{hard}/{trigger}")
    fired = 0
    for run in range(RUNS):
        root = expired_vault(fresh_vault("expire"))
        line = person_line(run)
        callback = note_opened if trigger == "note opened" else archived_copy_appears(root)
        with Vault(root) as vault:
            vault.index()
            with EditInjector(folders_of(root), IN_OPEN | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE, callback, EDITS[edit](line),
                              rng.choice([0.0, 0.0005, 0.002])) as injector:
                report = vault.expire(apply=True, hard=hard, now=NOW)
        if injector.edited is None:
            continue
        fired += 1
        holders = files_with(root, line)
        assert holders == [injector.edited.relative_to(root).as_posix()], holders  # never in the archive, never deleted
        skipped = {entry.path for entry in report.skipped}
        archived = {entry.path for entry in report.expired if entry.removed}
        assert not skipped & archived
    assert fired >= RUNS // 2


# ---------------------------------------------------------------- revise beside a rename


def rename_note(new_name: str) -> Callable[[Path], None]:
    """The person renames the note in Obsidian (a plain rename; its id stays in its frontmatter)."""
    def edit(note: Path) -> None:
        os.rename(note, note.with_name(new_name))

    return edit


def test_a_revise_meeting_the_persons_rename_says_the_note_moved_and_a_rerun_finds_it(fresh_vault: Callable[[str], Path]) -> None:
    # A trial (two agents, watch and a person on one vault): the person renamed a note the
    # instant an agent revised it; the agent was told "changed on disk since vaultmem read it …
    # the edit on disk is kept", of a note no one had edited. It must hear that the note moved,
    # and running the revise again by id must land in the renamed note.
    for run in range(4):
        root = fresh_vault("rename")
        (root / "memories").mkdir()
        (root / "memories/harbor.md").write_text(
            "---\nid: 01JD8X00000000000000000001\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe harbor opens at six.\n",
            encoding="utf-8")
        (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
        with Vault(root) as vault:
            vault.index()
            with EditInjector(folders_of(root), IN_CREATE, temp_file_of_note, rename_note(f"Harbor hours {run}.md")) as injector:
                with pytest.raises(WriteConflict) as refused:
                    vault.revise("01JD8X00000000000000000001", append="It closes at ten.")
            assert injector.edited is not None
            message = str(refused.value)
            assert "renamed, moved or deleted" in message and "Run the command again" in message, message
            assert "edit on disk is kept" not in message
            again = vault.revise("01JD8X00000000000000000001", append="It closes at ten.")
        assert again.path == f"memories/Harbor hours {run}.md"
        assert "It closes at ten." in (root / again.path).read_text(encoding="utf-8")


def test_a_revise_by_id_after_a_rename_the_index_heard_half_of_lands_in_the_renamed_note(
        fresh_vault: Callable[[str], Path]) -> None:
    # A trial (two MCP servers, watch and a person renaming notes): a revise by id right after
    # the person's rename was told RemovedNote, "memories/harbor.md is no longer in the vault:
    # deleted", while the note lived on under its new name; an agent told so remembers it again.
    # The index had dropped the old path and not yet read the new one (a watcher that had
    # applied the first half of the move), and git saw a deletion beside an untracked file.
    root = fresh_vault("renamed")
    init_repo(root)
    (root / "memories").mkdir()
    (root / "memories/harbor.md").write_text(
        "---\nid: 01JD8X00000000000000000002\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe harbor opens at six.\n",
        encoding="utf-8")
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    git(root, "add", "memories/harbor.md")
    git(root, "commit", "-qm", "harbor")
    with Vault(root) as vault:
        vault.index()
        os.rename(root / "memories/harbor.md", root / "memories/Harbor hours.md")
        vault.derived.sync(["memories/harbor.md"])  # the watcher has heard the old name leave, not the new one come
        revised = vault.revise("01JD8X00000000000000000002", append="It closes at ten.")
        assert revised.path == "memories/Harbor hours.md"
        assert "It closes at ten." in (root / "memories/Harbor hours.md").read_text(encoding="utf-8")
        os.rename(root / "memories/Harbor hours.md", root / "memories/Harbor.md")
        vault.derived.sync(["memories/Harbor hours.md"])
        assert vault.get("01JD8X00000000000000000002").path == "memories/Harbor.md"  # a read too
        (root / "memories/Harbor.md").unlink()
        with pytest.raises(RemovedNote) as deleted:  # deleted for real: still said so
            vault.revise("01JD8X00000000000000000002", append="Gone.")
        assert "deleted, not committed yet" in str(deleted.value)
