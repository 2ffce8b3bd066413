"""vaultmem's own new notes that a commit had to leave out, kept for its next commit (adr/0017,
addendum "vaultmem's own notes left out of a commit").

A note vaultmem creates while git cannot take a commit — a merge, rebase, cherry-pick, revert or
`git am` in progress, a detached HEAD, git's ``index.lock`` held, a ``git commit``'s hook — stays
out of git, rightly: a commit then would be undone by the merge's or be on no branch. Nothing in
the file says who wrote it, so once git could commit again it was taken for the person's: every
later write to it was left out ("git never tracked it"), and a vault two machines share through
git never carried it to the other one. Here each such note's path (from the repository's top) is
kept with the blob of the bytes vaultmem wrote; a later commit takes the note while the file
still holds exactly those bytes and git has it neither in HEAD nor staged — vaultmem's change
alone — and forgets it otherwise (the person edited, committed, staged or removed it: theirs).

The file (``.vaultmem/own-uncommitted.json``) is derived state: losing it loses only the late
commit (the note stays in the vault, named in ``not_committed`` when it was written, for the
person to commit), and one that cannot be read is said and taken as empty.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from pathlib import Path

from . import state_json

FILE_NAME = "own-uncommitted.json"
KEPT = 1000  # notes kept at once: more is a vault where git has not taken a commit for weeks
LATE_TRAILER = "Vaultmem-Late"  # the commit's message names each note it takes late

log = logging.getLogger("vaultmem")

_BLOB = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")  # SHA-1 or SHA-256


def load(lock_dir: Path) -> dict[str, str]:
    """Path (from the repository's top) → the blob vaultmem wrote there; empty when there is no
    file. One that cannot be read, or holds anything but what :func:`save` writes, is said and
    taken as empty: its paths are given to git, so nothing in it is used unless all of it is sound."""
    path = lock_dir / FILE_NAME
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
        return _checked(records)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as error:
        log.warning("vaultmem: could not read %s (%s): notes vaultmem wrote while git could take no commit are no "
                    "longer committed by it later; `git status` shows them, for you to commit", path, error)
        return {}


def _checked(records: object) -> dict[str, str]:
    if not isinstance(records, dict):
        raise ValueError(f"a {type(records).__name__}, not an object of paths and blobs")
    for name, blob in records.items():
        parts = name.split("/")
        if not name or name.startswith("/") or "\0" in name or any(part in ("", ".", "..") for part in parts):
            raise ValueError(f"path {name[:80]!r} is not a path within the repository")
        if not isinstance(blob, str) or not _BLOB.fullmatch(blob):
            raise ValueError(f"{str(blob)[:80]!r} for {name[:80]!r} is not a blob id")
    return dict(records)


def save(lock_dir: Path, pending: Mapping[str, str]) -> None:
    """Write ``pending`` atomically (the newest :data:`KEPT`); no file when it is empty."""
    state_json.save(lock_dir / FILE_NAME, dict(list(pending.items())[-KEPT:]))
