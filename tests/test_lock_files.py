"""vaultmem's lock files in .vaultmem/ are never opened through a symlink."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import vaultmem
from vaultmem import Vault
from vaultmem.errors import UnsafeLockFile
from vaultmem.fences import WatchLock


def index_new(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        vault.index()


def rebuild(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        vault.index(rebuild=True)


def hold_watch_lock(vault_dir: Path) -> None:
    WatchLock(vault_dir / ".vaultmem").acquire()


@pytest.mark.skipif(sys.platform == "win32", reason="a symlink needs a privilege there")
@pytest.mark.parametrize(("name", "action", "indexed_first"), [
    ("create.lock", index_new, False),
    ("rebuild.lock", rebuild, True),
    ("watch.lock", hold_watch_lock, True),
])
def test_a_symlink_planted_as_a_lock_file_is_refused_and_its_target_not_made(
        vault_dir: Path, tmp_path: Path, name: str, action: Callable[[Path], None], indexed_first: bool) -> None:
    # Was: each lock was opened O_RDWR | O_CREAT, following a symlink: vaultmem made the file the
    # link named, outside the vault (git.lock's case, which also wrote there: tests/test_git.py).
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (vault_dir / "a.md").write_text("---\nlayer: L3\nexpires_at: 2027-06-01\n---\nA fact.\n", encoding="utf-8")
    if indexed_first:
        index_new(vault_dir)
    (vault_dir / ".vaultmem").mkdir(exist_ok=True)
    target = tmp_path / "elsewhere" / "made-by-vaultmem"
    target.parent.mkdir()
    lock = vault_dir / ".vaultmem" / name
    lock.unlink(missing_ok=True)
    lock.symlink_to(target)
    with pytest.raises(UnsafeLockFile) as refused:
        action(vault_dir)
    assert f"rm {lock}" in str(refused.value)
    assert not target.exists()


HANG_GUARD_SECONDS = 120  # a guard against hanging the suite, not a timing: the call takes milliseconds


@pytest.mark.skipif(sys.platform == "win32", reason="no FIFOs there")
@pytest.mark.parametrize(("where", "call"), [
    (".vaultmem/watch.lock", "from vaultmem.fences import watcher_alive; print(watcher_alive(root / '.vaultmem'))"),
    (".git/index.lock", "from vaultmem.git_index_lock import remove_if_left_by_a_dead_vaultmem as remove; "
                        "print(remove(root / '.git/index.lock'))"),
], ids=["watch.lock", "index.lock"])
def test_a_fifo_planted_where_a_lock_is_asked_about_is_no_lock_and_no_hang(vault_dir: Path, where: str, call: str) -> None:
    # Was: a FIFO at watch.lock hung every read that asked whether a watcher runs (opened
    # O_RDONLY, a FIFO waits for a writer), and one at .git/index.lock hung every commit
    # (opened O_RDWR, its read waits for data): the lock files were opened to be read without
    # O_NONBLOCK, and read before anyone looked at what the name held.
    (vault_dir / ".vaultmem").mkdir(exist_ok=True)
    (vault_dir / ".git").mkdir(exist_ok=True)
    os.mkfifo(vault_dir / where)
    script = f"from pathlib import Path; root = Path({str(vault_dir)!r}); {call}"
    asked = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_GUARD_SECONDS,
                           env={**os.environ, "PYTHONPATH": str(Path(vaultmem.__file__).parents[1])})
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.strip() == "False"  # not a watcher's lock; not a dead vaultmem's, left to the person
    assert (vault_dir / where).exists()
