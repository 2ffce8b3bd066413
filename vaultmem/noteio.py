"""Writing note files without hurting the person who also edits them.

- Writes are atomic: a temp file in the same folder, fsync, rename. A crash leaves the
  old file or the new one, never half of either.
- Frontmatter is edited surgically, line by line: the keys vaultmem was asked to change
  are replaced, appended or removed; every other byte of the file — the body, the
  user's keys, their order, comments, quoting, BOM and line endings — stays as it was.
  python-frontmatter's ``dumps`` is never used on a user's file: it sorts keys, drops
  comments, rewraps lines and strips the body.
- Every edit is verified by loading the new YAML back; an edit that would not round-trip
  raises instead of writing.
- A write, move or delete over an existing note ends in one of two states, however
  long any step takes: vaultmem's change on top of exactly the bytes it checked, or the
  person's bytes untouched and :class:`WriteConflict` (adr/0014-racing-edits.md). The
  old file is swapped out atomically and verified *after* the swap; it is swapped back
  if it is not the version vaultmem checked. Each folder is re-checked against the
  vault at write time, through a descriptor that a later symlink swap cannot redirect.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Self

import yaml

from . import renames
from .errors import FrontmatterError, PathOutsideVault, WriteConflict
from .lifecycle import format_timestamp
from .notes import BOM, YAML_LOAD_ERRORS, find_frontmatter, load_yaml_mapping

NEW_NOTE_MODE = 0o644  # rw-r--r--, as an editor creates a note
_TOP_LEVEL_KEY = re.compile(r"""^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:][^:]*?|-[^\s:][^:]*?))[ \t]*:(?:[ \t]|$)""")


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (same-folder temp file, fsync, rename),
    whatever it holds now. For a file a person may edit use :func:`replace_if_unchanged`.

    A symlink is written through to its target.
    """
    path = _write_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp_name = _write_temp(path, data, _existing_mode(path))
    try:
        os.replace(temp_name, path)
    except BaseException:
        # The rename did not happen: remove the temp file, keep the old note, re-raise.
        Path(temp_name).unlink(missing_ok=True)
        raise
    fsync_path(path.parent)


def _write_temp(path: Path, data: bytes, mode: int | None) -> str:
    """``data`` in a new temp file beside ``path``, on disk (fsync) and with ``mode``; its name."""
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
    except OSError as error:
        Path(temp_name).unlink(missing_ok=True)
        if error.filename is None:  # a failed write (a full disk) names no file: name the note
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return temp_name


def _write_target(path: Path) -> Path:
    # Renaming onto the link itself would replace the person's symlink with a regular
    # file, silently splitting one note into two diverging copies.
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _existing_mode(path: Path) -> int | None:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None


def fsync_path(path: Path) -> None:
    """Flush a file's or a folder's entry to disk (a folder: so a rename in it survives a crash)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def content_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def create_exclusive(path: Path, data: bytes) -> None:
    """Write a new file atomically, failing if the name is already taken.

    ``os.link`` of a fully written temp file claims the name atomically: two processes
    racing for the same name can never both win, and a reader never sees a partial file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp_name = _write_temp(path, data, NEW_NOTE_MODE)
    try:
        os.link(temp_name, path)  # FileExistsError when the name is taken
    finally:
        Path(temp_name).unlink(missing_ok=True)
    fsync_path(path.parent)


# ---------------------------------------------------------------- rendering YAML values


def render_value(key: str, value: Any) -> str:
    """``key: value`` as YAML lines (with a trailing newline), in Obsidian's style."""
    if isinstance(value, (list, tuple)):
        if not value:
            return f"{key}: []\n"
        return f"{key}:\n" + "".join(f"  - {render_scalar(item)}\n" for item in value)
    return f"{key}: {render_scalar(value)}\n"


def render_scalar(value: Any) -> str:
    if isinstance(value, datetime):
        return format_timestamp(value)  # plain: YAML loads it back as an aware datetime
    if isinstance(value, date):
        return value.isoformat()
    if value is None:
        return "null"
    dumped = yaml.safe_dump(value, allow_unicode=True, default_flow_style=True, width=10**9)
    return dumped.removesuffix("\n...\n").removesuffix("\n")


def render_frontmatter(meta: Mapping[str, Any]) -> str:
    """A whole new frontmatter block (for notes vaultmem creates itself)."""
    return "---\n" + "".join(render_value(key, value) for key, value in meta.items()) + "---\n"


# ---------------------------------------------------------------- surgical edits


def edit_frontmatter(raw: bytes, set_values: Mapping[str, Any] | None = None, remove: Iterable[str] = ()) -> bytes:
    """Set and remove top-level keys; every other byte of the file stays as it was.

    New keys are appended after the existing ones. A file without frontmatter gets a
    block in front of its untouched body. Raises :class:`FrontmatterError` if the
    existing YAML does not load or the edit would not load back as intended.
    """
    set_values = dict(set_values or {})
    remove = [key for key in remove if key not in set_values]
    has_bom, text = _split_bom(raw)
    first_line = text.split("\n", 1)[0]
    newline = "\r\n" if first_line.endswith("\r") else "\n"
    normalized = text.replace("\r\n", "\n")
    block = find_frontmatter(normalized)
    if block is None:
        head, body_start = render_frontmatter(set_values), 0
        before: dict[str, Any] = {}
    else:
        before = _load_block(block.yaml_text)
        new_yaml = _edit_block(block.yaml_text, set_values, remove)
        head = normalized[: block.start] + new_yaml + normalized[block.end : block.body_start]
        body_start = _original_offset(text, normalized, block.body_start)
        _verify(before, new_yaml, set_values, remove)
    if newline == "\r\n":
        head = head.replace("\n", "\r\n")
    # The body is copied from the original text, not from the CRLF-normalised one: a file
    # with mixed line endings would otherwise get every LF in its body turned into CRLF.
    return ((BOM if has_bom else "") + head + text[body_start:]).encode("utf-8")


def _original_offset(text: str, normalized: str, offset: int) -> int:
    """Map an offset in ``normalized`` (CRLF → LF) back to the same place in ``text``."""
    lines_before = normalized.count("\n", 0, offset)
    position = 0
    for _ in range(lines_before):
        position = text.index("\n", position) + 1
    return position + (offset - (normalized.rfind("\n", 0, offset) + 1))


def _split_bom(raw: bytes) -> tuple[bool, str]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FrontmatterError(f"file is not valid UTF-8 at byte {error.start}; re-save it as UTF-8 first") from None
    return text.startswith(BOM), text.removeprefix(BOM)


def _load_block(yaml_text: str) -> dict[str, Any]:
    try:
        loaded = load_yaml_mapping(yaml_text)
    except YAML_LOAD_ERRORS as error:
        raise FrontmatterError(f"frontmatter does not load ({error}); fix the YAML by hand first") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise FrontmatterError("frontmatter is not a mapping of keys to values; fix it by hand first")
    return loaded


def _edit_block(yaml_text: str, set_values: Mapping[str, Any], remove: Iterable[str]) -> str:
    lines = yaml_text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    entries = _entries(lines)
    pending = dict(set_values)
    removed = set(remove)
    out: list[str] = []
    cursor = 0
    for key, start, stop in entries:
        out.extend(lines[cursor:start])
        cursor = stop
        if key in pending:
            out.append(render_value(key, pending.pop(key)))
            out.extend(_trailing_blank_or_comment(lines, start + 1, stop))
        elif key in removed:
            # Column-0 comments after a removed entry belong to the next key: keep them.
            out.extend(_trailing_blank_or_comment(lines, start + 1, stop))
        else:
            out.extend(lines[start:stop])
    out.extend(lines[cursor:])
    out.extend(render_value(key, value) for key, value in pending.items())
    return "".join(out)


def _entries(lines: list[str]) -> list[tuple[str, int, int]]:
    """(key, first line, line after the entry) for each top-level key of the block."""
    starts: list[tuple[str, int]] = []
    for number, line in enumerate(lines):
        match = _TOP_LEVEL_KEY.match(line)
        if match:
            key = match.group(1) if match.group(1) is not None else match.group(2) if match.group(2) is not None else match.group(3)
            starts.append((key.strip(), number))
    entries = []
    for index, (key, start) in enumerate(starts):
        stop = starts[index + 1][1] if index + 1 < len(starts) else len(lines)
        entries.append((key, start, stop))
    return entries


def _trailing_blank_or_comment(lines: list[str], start: int, stop: int) -> list[str]:
    """Column-0 comments and blank lines after a replaced entry belong to what follows."""
    tail: list[str] = []
    for line in reversed(lines[start:stop]):
        if line.strip() == "" or line.startswith("#"):
            tail.append(line)
        else:
            break
    return list(reversed(tail))


def _verify(before: Mapping[str, Any], new_yaml: str, set_values: Mapping[str, Any], remove: Iterable[str]) -> None:
    """Load the edited block back: exactly the requested change, keys in the same order."""
    removed = set(remove)
    expected = {key: value for key, value in before.items() if key not in removed}
    expected.update(set_values)
    expected_order = [key for key in before if key not in removed] + [key for key in set_values if key not in before]
    after = _load_block(new_yaml)
    if _normalized(after) != _normalized(expected) or [str(key) for key in after] != expected_order:
        raise FrontmatterError(
            "vaultmem could not edit this frontmatter without changing other keys; "
            "edit it by hand (the file was not touched)"
        )


def _normalized(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _normalized(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalized(item) for item in value]
    if isinstance(value, datetime):
        return format_timestamp(value)
    return value


# ---------------------------------------------------------------- writes over a person's file
# The guarantee (adr/0014-racing-edits.md): every write over an existing note ends with
# either vaultmem's change on top of exactly the bytes it checked, or the person's bytes
# untouched and WriteConflict raised. Nothing is replaced and then checked too late: the
# old file is *swapped out* (renames.exchange), and only deleted once it is proven to be
# the version vaultmem checked and no process can still be writing into it; otherwise it
# is swapped back. Without an atomic exchange (Windows, some network file systems) the
# check comes right before a plain rename: the documented weaker fallback.


@dataclass(frozen=True)
class FileChange:
    """One file vaultmem changed: the bytes it checked and the bytes it left (for commits)."""

    path: str  # vault-relative POSIX, where the file is now (or was, when deleted)
    before: bytes | None  # what vaultmem checked and replaced, moved or deleted; None: it created the file
    after: bytes | None  # what it wrote (or moved) here; None: the file is gone
    moved_from: str | None = None  # for an archive move: the note's old path


def replace_if_unchanged(path: Path, data: bytes, expected_hash: str, relative: str, vault_root: Path) -> FileChange:
    """Write ``data`` over the note at ``path`` if, and only if, it still holds the bytes
    whose hash is ``expected_hash``; otherwise :class:`WriteConflict` and the file as the
    person left it. ``path`` is re-checked against ``vault_root`` here, at write time."""
    target = _write_target(path)
    with _open_existing(target.parent, vault_root, relative) as folder:
        before = _swap_in(folder, target.name, data, expected_hash, relative)
    return FileChange(relative, before, data)


def move_if_unchanged(source: Path, targets: Iterable[tuple[str, Path]], expected_hash: str, relative: str,
                      vault_root: Path) -> tuple[str, bytes]:
    """Move the note at ``source`` to the first of ``targets`` (vault-relative, absolute)
    that does not exist yet, if it holds the bytes with ``expected_hash``; returns the
    target's relative path and the bytes moved. Otherwise :class:`WriteConflict`, and
    the person's file is back where it was (or, if they made a new one there meanwhile,
    kept at the named target)."""
    with _open_existing(source.parent, vault_root, relative) as origin:
        for target_relative, target in targets:
            with _Folder.open(target.parent, vault_root, target_relative, create=True) as folder:
                try:
                    moved = _move_checked(origin, source.name, folder, target.name, expected_hash, relative, target_relative)
                except FileExistsError:
                    continue  # taken (an earlier archived copy): try the next name
                return target_relative, moved
    raise FileExistsError(errno.EEXIST, f"every archive name for {relative} is taken")


def delete_if_unchanged(path: Path, expected_hash: str, relative: str, vault_root: Path) -> bytes:
    """Delete the note at ``path`` if it holds the bytes with ``expected_hash``; returns
    them. Otherwise :class:`WriteConflict` and the person's file stays."""
    with _open_existing(path.parent, vault_root, relative) as folder:
        aside = folder.temp_name(path.name)
        try:
            # The private name is vaultmem's alone, so this plain rename replaces nothing.
            os.rename(folder.at(path.name), folder.at(aside), src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
        except FileNotFoundError:
            raise WriteConflict(relative) from None
        removed = folder.holding(aside, expected_hash)
        if removed is None:
            kept = _restore(folder, aside, folder, path.name, relative)
            raise WriteConflict(relative, kept)
        folder.unlink(aside)
        folder.sync()
    return removed


def _open_existing(directory: Path, vault_root: Path, relative: str) -> _Folder:
    try:
        return _Folder.open(directory, vault_root, relative)
    except FileNotFoundError:
        raise WriteConflict(relative) from None  # the note's folder is gone: so is the note


def _swap_in(folder: _Folder, name: str, data: bytes, expected_hash: str, relative: str) -> bytes:
    """Put ``data`` at ``name``; returns the bytes it replaced (the checked ones)."""
    mode = folder.regular_file_mode(name)
    if mode is None:
        raise WriteConflict(relative)  # gone, or no longer a plain file
    temp, ours = folder.write_temp(name, data, mode)
    try:
        renames.exchange(folder.fd, folder.at(temp), folder.at(name))
    except renames.Unsupported:
        return _replace_unswappable(folder, temp, name, expected_hash, relative)
    except FileNotFoundError:
        folder.unlink(temp)
        raise WriteConflict(relative) from None
    except BaseException:
        folder.unlink(temp)  # no swap happened: the temp file holds only our bytes
        raise
    # `temp` now names what was at `name` a moment ago.
    replaced = folder.holding(temp, expected_hash)
    if replaced is not None:
        folder.unlink(temp)
        folder.sync()
        return replaced
    raise _swap_back(folder, temp, name, ours, data, relative)


def _swap_back(folder: _Folder, temp: str, name: str, ours: int, data: bytes, relative: str) -> WriteConflict:
    """The swapped-out file is not the one vaultmem checked: give the person theirs back."""
    try:
        renames.exchange(folder.fd, folder.at(temp), folder.at(name))
    except FileNotFoundError:
        # The note was deleted or renamed after our swap: put their earlier version back.
        return WriteConflict(relative, _restore(folder, temp, folder, name, relative))
    if folder.is_exactly(temp, ours, data):
        folder.unlink(temp)
        folder.sync()
        return WriteConflict(relative)
    # Someone wrote into (or replaced) our version while it was in place: both versions
    # are the person's now. One is at the note's name; the other is kept beside it.
    return WriteConflict(relative, _keep_beside(folder, temp, name, relative))


def _replace_unswappable(folder: _Folder, temp: str, name: str, expected_hash: str, relative: str) -> bytes:
    """The weaker fallback: check, then rename over. An edit landing between the two is lost."""
    current = folder.holding(name, expected_hash)
    if current is None:
        folder.unlink(temp)
        raise WriteConflict(relative)
    os.rename(folder.at(temp), folder.at(name), src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
    folder.sync()
    return current


def _move_checked(origin: _Folder, name: str, folder: _Folder, target: str, expected_hash: str,
                  relative: str, target_relative: str) -> bytes:
    try:
        renames.rename_noreplace(origin.fd, origin.at(name), folder.fd, folder.at(target))
    except renames.Unsupported:
        return _move_unswappable(origin, name, folder, target, expected_hash, relative, target_relative)
    except FileNotFoundError:
        raise WriteConflict(relative) from None
    moved = folder.holding(target, expected_hash)
    if moved is not None:
        folder.sync()
        origin.sync()
        return moved
    # Not the version vaultmem checked: back under its own name, or kept where it is.
    try:
        _rename_private(folder, target, origin, name)
    except FileExistsError:
        raise WriteConflict(relative, target_relative) from None
    raise WriteConflict(relative)


def _move_unswappable(origin: _Folder, name: str, folder: _Folder, target: str, expected_hash: str,
                      relative: str, target_relative: str) -> bytes:
    """Without an atomic no-replace rename: link, then take the name away privately and
    compare inodes, so a file saved over the note between the two is never deleted."""
    try:
        os.link(origin.at(name), folder.at(target), src_dir_fd=origin.fd, dst_dir_fd=folder.fd, follow_symlinks=False)
    except FileNotFoundError:
        raise WriteConflict(relative) from None
    aside = origin.temp_name(name)
    os.rename(origin.at(name), origin.at(aside), src_dir_fd=origin.fd, dst_dir_fd=origin.fd)
    if origin.same_file(aside, folder, target):
        origin.unlink(aside)  # a second name of the archived file
    else:
        # A new file was saved at `name` between link and rename: it goes back, untouched.
        kept = _restore(origin, aside, origin, name, relative)
        if folder.holding(target, expected_hash) is not None:
            folder.unlink(target)  # the version the person's save replaced
        raise WriteConflict(relative, kept)
    moved = folder.holding(target, expected_hash)
    if moved is None:
        try:
            _rename_private(folder, target, origin, name)
        except FileExistsError:
            raise WriteConflict(relative, target_relative) from None
        raise WriteConflict(relative)
    folder.sync()
    origin.sync()
    return moved


def _restore(folder: _Folder, private: str, destination: _Folder, name: str, relative: str) -> str | None:
    """Move a person's version from a private name back to ``name``; if a new file took
    that name meanwhile, keep it beside it. Returns the kept copy's name, if any."""
    try:
        _rename_private(folder, private, destination, name)
    except FileExistsError:
        return _keep_beside(folder, private, name, relative)
    destination.sync()
    return None


def _keep_beside(folder: _Folder, private: str, name: str, relative: str) -> str:
    """Give a private file that holds a person's version a visible name next to ``name``."""
    stem, dot, suffix = name.rpartition(".")
    stem, suffix = (stem, dot + suffix) if stem else (name, "")
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    for attempt in range(1, 1000):
        candidate = f"{stem}.vaultmem-conflict-{stamp}{'' if attempt == 1 else f'-{attempt}'}{suffix}"
        try:
            _rename_private(folder, private, folder, candidate)
        except FileExistsError:
            continue
        folder.sync()
        return str(PurePosixPath(relative).with_name(candidate))
    raise WriteConflict(relative, folder.at(private))


def _rename_private(folder: _Folder, private: str, destination: _Folder, name: str) -> None:
    """Move a file from a name only vaultmem uses; ``FileExistsError`` if ``name`` is taken."""
    try:
        renames.rename_noreplace(folder.fd, folder.at(private), destination.fd, destination.at(name))
    except renames.Unsupported:
        # link + unlink is safe here: nobody else writes under the private name.
        os.link(folder.at(private), destination.at(name), src_dir_fd=folder.fd, dst_dir_fd=destination.fd,
                follow_symlinks=False)
        folder.unlink(private)


_DIR_FDS = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and os.unlink in os.supports_dir_fd
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class _Folder:
    """A folder of the vault, opened from the vault's root one name at a time without
    following a symlink. Its descriptor pins it: a folder swapped for a symlink out of
    the vault after this check cannot redirect the writes made through it.

    Without descriptor-relative calls (Windows) the folder's real path is checked
    instead and names are full paths: the check is made at write time, but not pinned.
    """

    def __init__(self, path: str, fd: int | None) -> None:
        self.path = path
        self.fd = fd

    @classmethod
    def open(cls, directory: Path, vault_root: Path, relative: str, create: bool = False) -> _Folder:
        root = os.path.realpath(vault_root)
        if create and not _DIR_FDS:
            directory.mkdir(parents=True, exist_ok=True)
        real = os.path.realpath(directory)
        inside = os.path.relpath(real, root)
        if os.path.isabs(inside) or inside == os.pardir or inside.startswith(os.pardir + os.sep):
            raise PathOutsideVault(relative, vault_root)
        if not _DIR_FDS:
            return cls(real, None)
        return cls(real, _walk_from_root(root, [] if inside == os.curdir else inside.split(os.sep), relative, vault_root, create))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def at(self, name: str) -> str:
        return name if self.fd is not None else os.path.join(self.path, name)

    def temp_name(self, like: str) -> str:
        # Hidden and *.tmp: the scan and the watcher never take it for a note.
        return f".{like[:80]}.{secrets.token_hex(4)}.tmp"

    def regular_file_mode(self, name: str) -> int | None:
        try:
            info = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None

    def write_temp(self, like: str, data: bytes, mode: int) -> tuple[str, int]:
        """A fully written, fsynced temp file beside ``like``: (its name, its inode)."""
        name = self.temp_name(like)
        descriptor = os.open(self.at(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600, dir_fd=self.fd)
        try:
            with os.fdopen(descriptor, "wb", closefd=False) as temp:
                temp.write(data)
                temp.flush()
            os.fsync(descriptor)
            if hasattr(os, "fchmod"):
                os.fchmod(descriptor, mode)
            inode = os.fstat(descriptor).st_ino
        except BaseException:
            os.close(descriptor)
            self.unlink(name)
            raise
        os.close(descriptor)
        return name, inode

    def holding(self, name: str, expected_hash: str) -> bytes | None:
        """The bytes at ``name`` if they hash to ``expected_hash``, it is a plain file and
        no process holds it open for writing (a write could still land in it); else None."""
        raw = self._read_settled(name)
        return raw if raw is not None and content_hash(raw) == expected_hash else None

    def is_exactly(self, name: str, inode: int, data: bytes) -> bool:
        """Is ``name`` still vaultmem's own temp file, with nothing written into it?"""
        try:
            info = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        return info.st_ino == inode and self._read_settled(name) == data

    def same_file(self, name: str, other: _Folder, other_name: str) -> bool:
        mine = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        theirs = os.stat(other.at(other_name), dir_fd=other.fd, follow_symlinks=False)
        return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)

    def _read_settled(self, name: str) -> bytes | None:
        try:
            descriptor = os.open(self.at(name), os.O_RDONLY | _NOFOLLOW, dir_fd=self.fd)
        except OSError:
            return None  # gone, or a symlink swapped in
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode) or renames.open_for_writing(descriptor):
                return None
            with os.fdopen(descriptor, "rb", closefd=False) as handle:
                return handle.read()
        finally:
            os.close(descriptor)

    def unlink(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.at(name), dir_fd=self.fd)

    def sync(self) -> None:
        if self.fd is not None:
            os.fsync(self.fd)
        elif os.name != "nt":
            fsync_path(Path(self.path))


def _walk_from_root(root: str, parts: list[str], relative: str, vault_root: Path, create: bool) -> int:
    descriptor = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for part in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, dir_fd=descriptor)
            try:
                following = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=descriptor)
            except OSError as error:
                if error.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                # A symlink (or a file) took the folder's place since its path was resolved.
                raise PathOutsideVault(relative, vault_root) from None
            os.close(descriptor)
            descriptor = following
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor
# ---------------------------------------------------------------- body edits (revise)
# The frontmatter's bytes are copied as they are; only what follows them changes. Text
# vaultmem adds takes the file's line ending and ends with one. Each edit is verified by
# parsing the result: the frontmatter still ends where it did and the body is exactly the
# intended one — else FrontmatterError and nothing is written.


def replace_body(raw: bytes, body: str) -> bytes:
    """``raw`` with everything after its frontmatter replaced by ``body``."""
    head, _, newline = _split_body(raw)
    edited = head + _as_lines(body, newline).encode("utf-8")
    _verify_body(raw, edited, _as_lines(body, "\n"))
    return edited


def append_paragraph(raw: bytes, paragraph: str) -> bytes:
    """``raw`` with ``paragraph`` added at the end of its body, after a blank line; every
    byte already there stays."""
    head, body, newline = _split_body(raw)
    if not body.strip():
        separator = ""  # an empty body (or only blank lines): the paragraph is the body
    elif body.endswith((newline * 2, "\n\n")):
        separator = ""
    elif body.endswith("\n"):
        separator = newline
    else:
        separator = newline * 2  # the file had no final newline
    addition = separator + _as_lines(paragraph, newline)
    edited = head + (body + addition).encode("utf-8")
    _verify_body(raw, edited, (body + addition).replace("\r\n", "\n"))
    return edited


def _split_body(raw: bytes) -> tuple[bytes, str, str]:
    """(the bytes up to the body — BOM and frontmatter as they are —, the body, the file's newline)."""
    from .notes import split_frontmatter

    has_bom, text = _split_bom(raw)
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"
    normalized = text.replace("\r\n", "\n")
    # The same reading as every other: a leading --- rule followed by prose is body.
    block = split_frontmatter("", normalized)[2]
    start = 0 if block is None else _original_offset(text, normalized, block.body_start)
    head = (BOM if has_bom else "") + text[:start]
    if head and not head.endswith("\n"):
        head += newline  # the closing --- was the file's last line, without a newline
    return head.encode("utf-8"), text[start:], newline


def _as_lines(text: str, newline: str) -> str:
    """``text`` with the file's line ending and exactly one final newline."""
    return text.replace("\r\n", "\n").rstrip("\n").replace("\n", newline) + newline


def _verify_body(before: bytes, after: bytes, expected_body: str) -> None:
    from .notes import parse_note

    # The head's bytes are copied, so the frontmatter can only read differently if the
    # body's new text moved where it ends (or made a block appear where there was none).
    old, new = parse_note("", before), parse_note("", after)
    if new.has_frontmatter != old.has_frontmatter or new.body != expected_body:
        raise FrontmatterError(
            "vaultmem could not change this note's text without changing how its frontmatter reads "
            "(does the new text start with a --- block?); edit it by hand (the file was not touched)"
        )
