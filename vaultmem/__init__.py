"""vaultmem: the memory engine for personal AI agents whose memory is a Markdown vault.

The public surface is importable from here. ``Vault`` is loaded on first use so that
``from vaultmem import is_expired`` does not pull in SQLite, numpy or the embedder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    AmbiguousNote,
    ConfigError,
    DerivedIndexError,
    FrontmatterError,
    GitError,
    HardLinkedNote,
    InvalidDuration,
    InvalidTimestamp,
    NoteNotFound,
    NoteReadError,
    NotUtf8Note,
    PathOutsideVault,
    ReadOnlyCanvas,
    ReadOnlyNote,
    UnknownLayer,
    UnmergedNote,
    UnresolvedConflict,
    UsageError,
    VaultmemError,
    WriteConflict,
    WriteLockBusy,
)
from .lifecycle import (
    LayerPolicy,
    apply_layer_ttl,
    build_expiry_filter,
    expires_at_for,
    is_expired,
    normalize_layer,
    parse_duration,
    parse_timestamp,
)

if TYPE_CHECKING:
    from .vault import Vault

__version__ = "0.1.0"

__all__ = [
    "AmbiguousNote",
    "ConfigError",
    "DerivedIndexError",
    "FrontmatterError",
    "GitError",
    "HardLinkedNote",
    "InvalidDuration",
    "InvalidTimestamp",
    "LayerPolicy",
    "NotUtf8Note",
    "NoteNotFound",
    "NoteReadError",
    "PathOutsideVault",
    "ReadOnlyCanvas",
    "ReadOnlyNote",
    "UnknownLayer",
    "UnmergedNote",
    "UnresolvedConflict",
    "UsageError",
    "Vault",
    "VaultmemError",
    "WriteConflict",
    "WriteLockBusy",
    "apply_layer_ttl",
    "build_expiry_filter",
    "expires_at_for",
    "is_expired",
    "normalize_layer",
    "parse_duration",
    "parse_timestamp",
]


def __getattr__(name: str) -> Any:
    if name == "Vault":
        from .vault import Vault

        return Vault
    raise AttributeError(f"module 'vaultmem' has no attribute {name!r}")
