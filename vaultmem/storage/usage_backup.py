"""A backup of usage history beside the index: ``.vaultmem/usage-backup.jsonl``.

Usage history is the one thing in ``index.db`` that cannot be derived from the vault, so
when the index is damaged beyond reading that table, this file is where it comes back
from (adr/0022). It is JSON lines, written by :class:`UsageStore` inside the same SQLite
write transaction as the change (so lines are in commit order across processes):

- a header, ``{"vaultmem_usage_backup": 1, "rows": N, "bytes": B}``, then one line per
  row as it was when the file was last compacted (B bytes of them);
- after that, one line per change: the row's new state, or ``{"note_id": X, "removed": true}``.

Replaying keeps the last line per note. An append costs one small write (not O(history));
once the file grows past :data:`COMPACT_FACTOR` times its compacted size it is rewritten
from the table (temp file + rename). A torn last line (a crash, a full disk) is skipped
on replay and cut off before the next append.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..durable import replace_file
from .usage import UsageRow

BACKUP_NAME = "usage-backup.jsonl"
FORMAT_VERSION = 1
COMPACT_FACTOR = 3  # rewrite once the file is this many times its compacted size …
COMPACT_MIN_BYTES = 1 << 20  # … and past 1 MiB: small histories never pay for a rewrite
HEADER_READ_BYTES = 4096


@dataclass
class Restored:
    """What replaying the backup gave."""

    rows: list[UsageRow] = field(default_factory=list)
    bad_lines: int = 0  # lines that did not parse (a torn last line, an edit by hand)
    modified: float | None = None  # the file's mtime: when usage last changed


class UsageBackup:
    """The usage backup file of one index (see the module docstring)."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / BACKUP_NAME

    def exists(self) -> bool:
        return self.path.exists()

    # -- writing (the caller holds the SQLite write transaction)

    def append(self, rows: Iterable[UsageRow], removed: Iterable[str] = ()) -> bool:
        """Append these changes; ``False`` when the file must be compacted instead
        (it is missing, or grew past its bound): the caller then calls :meth:`compact`."""
        lines = [_row_line(row) for row in rows] + [json.dumps({"note_id": note_id, "removed": True}) for note_id in removed]
        if not lines:
            return True
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return False
        if size > max(COMPACT_MIN_BYTES, COMPACT_FACTOR * self._compacted_bytes()):
            return False
        self._append_lines(lines)
        return True

    def compact(self, rows: Sequence[UsageRow]) -> None:
        """Rewrite the file as exactly these rows (the whole table), atomically."""
        body = "".join(_row_line(row) + "\n" for row in rows)
        header = json.dumps({"vaultmem_usage_backup": FORMAT_VERSION, "rows": len(rows), "bytes": len(body.encode("utf-8"))})
        data = (header + "\n" + body).encode("utf-8")
        replace_file(self.path, data)

    def _append_lines(self, lines: list[str]) -> None:
        data = ("\n".join(lines) + "\n").encode("utf-8")
        descriptor = os.open(self.path, os.O_RDWR | os.O_APPEND)
        try:
            start = os.fstat(descriptor).st_size
            if start and _last_byte(descriptor, start) != b"\n":
                # A torn line from a write that failed half-way: cut it off, else the next
                # line would be glued to it and lost with it.
                start = _cut_torn_line(descriptor, start)
            try:
                _write_all(descriptor, data)
            except OSError:
                os.ftruncate(descriptor, start)  # a full disk: leave no half line behind
                raise
        finally:
            os.close(descriptor)

    def _compacted_bytes(self) -> int:
        header = _parse(self._first_line())
        value = header.get("bytes") if header else None
        return value if isinstance(value, int) and value >= 0 else 0

    def _first_line(self) -> str:
        with open(self.path, "rb") as handle:
            return handle.read(HEADER_READ_BYTES).split(b"\n", 1)[0].decode("utf-8", "replace")

    # -- reading

    def restore(self) -> Restored:
        """Every note's last recorded usage (removed notes left out)."""
        restored = Restored()
        try:
            raw = self.path.read_bytes()
            restored.modified = self.path.stat().st_mtime
        except FileNotFoundError:
            return restored
        latest: dict[str, UsageRow] = {}
        for number, line in enumerate(raw.split(b"\n")):
            if not line.strip():
                continue
            entry = _parse(line.decode("utf-8", "replace"))
            if number == 0 and entry is not None and "vaultmem_usage_backup" in entry:
                continue
            if entry is None or not _apply(latest, entry):
                restored.bad_lines += 1
        restored.rows = sorted(latest.values(), key=lambda row: row.note_id)
        return restored


def _row_line(row: UsageRow) -> str:
    return json.dumps({"note_id": row.note_id, "use_count": row.use_count, "last_used_at": row.last_used_at,
                       "last_used_us": row.last_used_us}, ensure_ascii=False)


def _parse(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _apply(latest: dict[str, UsageRow], entry: dict[str, Any]) -> bool:
    note_id = entry.get("note_id")
    if not isinstance(note_id, str) or not note_id:
        return False
    if entry.get("removed") is True:
        latest.pop(note_id, None)
        return True
    count, at, at_us = entry.get("use_count"), entry.get("last_used_at"), entry.get("last_used_us")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1 or not isinstance(at, str):
        return False
    if isinstance(at_us, bool) or not isinstance(at_us, int):
        return False
    latest[note_id] = UsageRow(note_id, count, at, at_us)
    return True


def _last_byte(descriptor: int, size: int) -> bytes:
    return os.pread(descriptor, 1, size - 1)


def _cut_torn_line(descriptor: int, size: int) -> int:
    """Truncate after the last complete line; returns the new size."""
    start = max(0, size - HEADER_READ_BYTES)
    while True:
        tail = os.pread(descriptor, size - start, start)
        cut = tail.rfind(b"\n")
        if cut >= 0:
            keep = start + cut + 1
            break
        if start == 0:
            keep = 0
            break
        start = max(0, start - HEADER_READ_BYTES)
    os.ftruncate(descriptor, keep)
    return keep


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]
