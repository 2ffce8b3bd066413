"""vaultmem's lock files in .vaultmem/ are never opened through a symlink."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

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
