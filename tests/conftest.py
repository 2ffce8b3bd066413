"""Shared fixtures: real vault folders in tmp_path, the real CLI, the real embedder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

REPO = Path(__file__).resolve().parent.parent
SAMPLE_VAULT = REPO / "sample_vault"
REAL_VAULTS = REPO.parent / "shared" / "vaults"
NOW = "2026-11-30T12:00:00+00:00"  # the sample vault is written relative to this day


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


def run_cli(vault: Path, *args: str) -> Result:
    """The CLI in-process through click's CliRunner (stdout and stderr kept apart)."""
    from vaultmem.cli import main

    return CliRunner().invoke(main, ["--vault", str(vault), *args], catch_exceptions=False)


def run_json(vault: Path, *args: str) -> object:
    result = run_cli(vault, *args, "--json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def vaultmem_process(vault: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI as a separate process, as an agent or a shell would run it."""
    return subprocess.run(
        [sys.executable, "-m", "vaultmem", "--vault", str(vault), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def snapshot_files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every file outside .vaultmem/: proof that nothing was modified."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".vaultmem" not in path.relative_to(root).parts:
            found[path.relative_to(root).as_posix()] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found


# ---------------------------------------------------------------- shared by the index/search tests


@pytest.fixture(scope="session")
def wordllama() -> object:
    """The real default embedder, loaded once per session (it is the same model every Vault loads)."""
    from vaultmem.embedders import WordLlamaEmbedder

    return WordLlamaEmbedder()


def copy_sample_vault(target: Path) -> Path:
    """A private copy of sample_vault/ at ``target`` (for module-scoped fixtures)."""
    shutil.copytree(SAMPLE_VAULT, target, ignore=shutil.ignore_patterns(".vaultmem"))
    return target
