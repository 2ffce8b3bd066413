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
- Before replacing a file, its bytes are compared with what vaultmem read: a human's
  edit in between wins and the write fails with :class:`WriteConflict`.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml

from .errors import FrontmatterError, WriteConflict
from .lifecycle import format_timestamp
from .notes import BOM, YAML_LOAD_ERRORS, find_frontmatter, load_yaml_mapping

NEW_NOTE_MODE = 0o644  # rw-r--r--, as an editor creates a note
_TOP_LEVEL_KEY = re.compile(r"""^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:][^:]*?|-[^\s:][^:]*?))[ \t]*:(?:[ \t]|$)""")


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (same-folder temp file, fsync, rename).

    A symlink is written through to its target. Callers pass paths checked by
    ``VaultPaths.resolve_inside``, which resolves symlinks, so that target is in the vault.
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


def require_unchanged(path: Path, expected_hash: str, relative: str) -> None:
    """Raise :class:`WriteConflict` unless the file still has the bytes vaultmem read."""
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        raise WriteConflict(relative) from None
    if content_hash(current) != expected_hash:
        raise WriteConflict(relative)


def replace_if_unchanged(path: Path, data: bytes, expected_hash: str, relative: str) -> None:
    """Atomically write ``data`` unless the file no longer has ``expected_hash``."""
    require_unchanged(path, expected_hash, relative)
    atomic_write(path, data)


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
