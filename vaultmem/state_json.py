"""The JSON files vaultmem's commits keep in ``.vaultmem/`` for the next commit, written one way
(adr/0017): ``git-index-checks.json`` (index_checks.py) and ``own-uncommitted.json``
(own_uncommitted.py).

Each is written whole or not at all: a temp file beside it, flushed to disk (fsync), renamed
over it, the folder flushed; no file when there is nothing to keep. The temp file's name says
which process on which machine made it (``NAME.PID-HOST-RANDOM``, git_index_lock's naming), so
one that a commit killed between the write and the rename leaves is removed by the next commit
(git_index_lock.remove_leftovers). Each module had its own copy of this; the copy for
``own-uncommitted.json`` made temp names no sweep knew, so each kill there left one for good.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

from .durable import fsync_folder
from .git_index_lock import HOST_TAG
from .lock_files import NOFOLLOW

NAMES = ("git-index-checks.json", "own-uncommitted.json")  # what this module writes (git_index_lock sweeps their temps)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_BINARY", 0)


def save(path: Path, document: object) -> None:
    """Replace ``path`` with ``document`` as JSON, atomically and durably; remove it when
    ``document`` is empty (falsy): nothing kept."""
    if not document:
        path.unlink(missing_ok=True)
        return
    temporary = path.with_name(f"{path.name}.{os.getpid()}-{HOST_TAG}-{secrets.token_hex(4)}")
    descriptor = os.open(temporary, _NEW_FILE, 0o644)
    try:
        try:
            view = memoryview(json.dumps(document).encode("utf-8"))
            while view:
                view = view[os.write(descriptor, view):]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()  # the rename did not happen: the old file stays, and no temp file
        raise
    fsync_folder(path.parent)
