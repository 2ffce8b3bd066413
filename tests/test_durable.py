"""Durable writes (durable.py): the one temp-file write under every whole-file write — a
new note, a write over a person's note, the usage backup's compaction. A write killed or
failing half-way leaves the old file (or no file) as it was, and a failure is raised,
naming the file, never skipped."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import REPO
from vaultmem.durable import make_folders, replace_file, write_temp
from vaultmem.paths import is_temp_name

WRITER = textwrap.dedent(
    """
    import resource, signal, sys
    from pathlib import Path
    from vaultmem.noteio import create_exclusive, replace_if_unchanged
    from vaultmem.notes import content_hash
    from vaultmem.storage import UsageBackup, UsageRow
    target, how, caller = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    old = target.read_bytes() if target.exists() else b""
    if how == "die":
        # The kernel's default for SIGXFSZ kills the process inside write(), like a crash.
        # (CPython ignores it at start-up, so the write would fail with EFBIG instead.)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    # The file-size limit cuts the write off after a few bytes: the kernel stops it
    # mid-write, as a full disk or a crash would.
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))
    try:
        if caller == "replace":
            replace_if_unchanged(target, b"NEW " * 100_000, content_hash(old), target.name, target.parent)
        elif caller == "create":
            create_exclusive(target, b"NEW " * 100_000)
        else:
            rows = [UsageRow(f"note-{number}", 1, "2026-11-30T10:00:00+00:00", 1) for number in range(2000)]
            UsageBackup(target.parent).compact(rows)
    except OSError as error:
        print("raised", error.errno, error.filename)
        sys.exit(3)
    """
)

# Each caller of the primitive, with the file it writes and what is there before.
CALLERS = {
    "replace": ("note.md", b"---\nlayer: L4\n---\nThe old note, complete.\n"),  # over a person's note
    "create": ("note.md", None),  # a new note
    "backup": ("usage-backup.jsonl", b'{"vaultmem_usage_backup": 1, "rows": 0, "bytes": 0}\n'),
}


def run_writer(target: Path, how: str, caller: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WRITER, str(target), how, caller],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def target_for(tmp_path: Path, caller: str) -> Path:
    name, old = CALLERS[caller]
    target = tmp_path / name
    if old is not None:
        target.write_bytes(old)
    return target


def assert_as_before(target: Path, caller: str) -> None:
    old = CALLERS[caller][1]
    if old is None:
        assert not target.exists()
    else:
        assert target.read_bytes() == old


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_process_killed_mid_write_leaves_the_old_file_intact(tmp_path: Path, caller: str) -> None:
    target = target_for(tmp_path, caller)
    result = run_writer(target, "die", caller)
    assert result.returncode == -signal.SIGXFSZ  # the writer died inside the write
    assert_as_before(target, caller)
    leftovers = [path.name for path in tmp_path.iterdir() if path.name != target.name]
    assert len(leftovers) == 1
    assert 0 < (tmp_path / leftovers[0]).stat().st_size <= 64  # a partial temp file...
    assert is_temp_name(leftovers[0])  # ...that the scanner never takes for a note


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_failed_write_raises_naming_the_file_keeps_the_old_one_and_removes_its_temp_file(tmp_path: Path,
                                                                                         caller: str) -> None:
    target = target_for(tmp_path, caller)
    result = run_writer(target, "raise", caller)
    assert result.returncode == 3, result.stderr
    # EFBIG reached the caller (no silent skip), naming the file it was writing, not a temp name.
    assert result.stdout.split() == ["raised", "27", os.path.join(os.path.realpath(tmp_path), target.name)]
    assert_as_before(target, caller)
    assert sorted(path.name for path in tmp_path.iterdir()) == ([] if CALLERS[caller][1] is None else [target.name])


def test_replace_file_replaces_whatever_is_there_private_to_the_user_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "usage-backup.jsonl"
    target.write_bytes(b"old\n")
    target.chmod(0o644)
    replace_file(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_mode & 0o777 == 0o600  # usage history is nobody else's business
    assert [path.name for path in tmp_path.iterdir()] == ["usage-backup.jsonl"]


def test_a_temp_file_is_never_written_through_a_symlink_planted_at_its_name(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"not vaultmem's\n")
    folder = tmp_path / "vault"
    folder.mkdir()
    names = iter([".note.md.planted.tmp", ".note.md.free.tmp"])
    monkeypatch.setattr("vaultmem.durable.temp_name", lambda like: next(names))
    (folder / ".note.md.planted.tmp").symlink_to(outside)
    name, inode = write_temp(str(folder), "note.md", b"ours\n", 0o644)
    assert name == ".note.md.free.tmp"  # the taken name was skipped, not followed
    assert (folder / name).read_bytes() == b"ours\n"
    assert (folder / name).stat().st_ino == inode
    assert (folder / name).stat().st_mode & 0o777 == 0o644
    assert outside.read_bytes() == b"not vaultmem's\n"



# 62 emoji (4 bytes each in UTF-8) and ".md": 251 bytes, a name every file system here holds.
LONG_IN_BYTES = "\U0001F389" * 62 + ".md"


def test_a_note_whose_name_is_long_in_bytes_is_written_over_and_made_not_refused_as_too_long(tmp_path: Path) -> None:
    # The temp file's name held the note's first 80 characters: 80 emoji are 320 bytes, past the
    # 255 a name may hold, so every revise, retirement, merge or new note of such a name failed
    # with "File name too long" naming the note that was there all along.
    from vaultmem.noteio import create_exclusive, replace_if_unchanged
    from vaultmem.notes import content_hash

    note = tmp_path / LONG_IN_BYTES
    note.write_bytes(b"---\nlayer: L3\n---\nparty\n")
    replace_if_unchanged(note, b"---\nlayer: L3\n---\nparty at 8\n", content_hash(note.read_bytes()), LONG_IN_BYTES, tmp_path)
    assert note.read_bytes() == b"---\nlayer: L3\n---\nparty at 8\n"
    create_exclusive(tmp_path / "sub" / LONG_IN_BYTES, b"new\n")
    assert (tmp_path / "sub" / LONG_IN_BYTES).read_bytes() == b"new\n"
    assert sorted(path.name for path in tmp_path.rglob("*")) == sorted([LONG_IN_BYTES, "sub", LONG_IN_BYTES])


@pytest.mark.parametrize("like", [LONG_IN_BYTES, "記" * 84 + ".md", "n" * 251 + ".md", "note.md"])
def test_a_temp_file_name_fits_a_file_system_and_is_read_back_as_what_it_was_written_for(tmp_path: Path, like: str) -> None:
    from vaultmem.durable import temp_name_holds_whole, written_for

    name, _inode = write_temp(str(tmp_path), like, b"x", 0o644)
    assert len(os.fsencode(name)) <= 255
    written = written_for(name)
    assert written is not None
    assert like.startswith(written)
    assert temp_name_holds_whole(written) == (written == like)


def test_folders_made_before_a_mkdir_fails_part_way_are_removed_again(tmp_path: Path) -> None:
    # Past PATH_MAX the deepest mkdir fails "File name too long": the folders above it were left.
    deep = tmp_path.joinpath(*["d" * 250] * 20)
    with pytest.raises(OSError) as failed:
        make_folders(deep)
    assert failed.value.errno == errno.ENAMETOOLONG
    assert list(tmp_path.iterdir()) == []
