"""Shared fixtures: real vault folders in tmp_path, the real embedder (helpers are in helpers.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import SAMPLE_VAULT


@pytest.fixture(scope="session", autouse=True)
def machine_zone_utc() -> Iterator[None]:
    """Every test runs as on a machine set to UTC: search by date names this machine's calendar
    days (adr/0026), so a test's "today" must not depend on where CI runs. Tests of other zones
    set their own (tests/test_dating.py ``local_zone``); processes the tests start inherit TZ."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    if hasattr(time, "tzset"):
        time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    if hasattr(time, "tzset"):
        time.tzset()


@pytest.fixture
def sample_vault(tmp_path: Path) -> Path:
    """A private copy of sample_vault/ (tests never touch the checked-in one)."""
    target = tmp_path / "sample_vault"
    shutil.copytree(SAMPLE_VAULT, target, ignore=shutil.ignore_patterns(".vaultmem"))
    return target


@pytest.fixture
def vault_dir(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    target.mkdir()
    return target


@pytest.fixture
def write_note(vault_dir: Path) -> Callable[..., Path]:
    """write_note("folder/name.md", "---\\nlayer: L3\\n---\\nbody") → the file's path."""

    def write(relative: str, text: str, root: Path | None = None) -> Path:
        path = (root or vault_dir) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def wordllama() -> object:
    """The real default embedder, loaded once per session (it is the same model every Vault loads)."""
    from vaultmem.embedders import WordLlamaEmbedder

    return WordLlamaEmbedder()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB tmpfs mounted for this test: a real file system to fill up (a real ENOSPC) or
    remount read-only (EROFS). Skipped where the tests do not run as root."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs (a real ENOSPC / EROFS)")
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount_point)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=True)
