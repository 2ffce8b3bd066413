"""The derived store under ``<vault>/.vaultmem/``: the one package that owns SQL.

Everything here can be rebuilt from the Markdown files, except the ``usage`` table
(when a note was last used cannot be derived from the vault; see adr/0007) and the
``requests`` table (the answers to writes sent with a request id; adr/0031).

One module per concern, each the only one that writes SQL for its tables:
``notes`` (notes), ``passages`` (passages + FTS5), ``tasks`` (task lines), ``vectors`` (the vectors of notes and
of passages, tombstones, the snapshots' names; a vector's bytes: ``vector_blobs``),
``usage`` (usage history), ``requests`` (answers to retried writes), ``meta`` (what the index is, the rebuild lock) and
``migrations`` (the schema, as named steps). ``connection`` holds the transaction
discipline they share; :class:`Store` opens one connection and hands out the stores.
"""

from __future__ import annotations

from .connection import DB_NAME, Connection, ensure_state_dir, index_failure, open_read_only
from .meta import (
    DAILY_FORMAT_KEY,
    DATE_PROPERTIES_KEY,
    EXCLUSIONS_KEY,
    GIT_DATES_KEY,
    INLINE_QUERIES_KEY,
    READER_KEY,
    REBUILD_LOCK,
    REBUILDING,
    MetaStore,
    rebuild_lock,
)
from .notes import (
    TOPIC_KEY,
    Absorbed,
    AroundRange,
    Eligibility,
    EpochBound,
    FileState,
    NoteRow,
    NoteStore,
    PoolNote,
    carries_tag,
    is_day_date,
)
from .passages import NOT_TURNS_BEFORE, PassageRow, PassageStore, TextMatch
from .store import Store
from .tasks import TaskFilter, TaskRow, TaskStore
from .usage import UsageRow, UsageStore
from .usage_backup import UsageBackup
from .vectors import NOTE_SPACE, PASSAGE_SPACE, SPACES, SnapshotMeta, VectorSpace, VectorStore

__all__ = [
    "DAILY_FORMAT_KEY", "DATE_PROPERTIES_KEY", "DB_NAME", "EXCLUSIONS_KEY", "GIT_DATES_KEY", "INLINE_QUERIES_KEY", "NOTE_SPACE", "NOT_TURNS_BEFORE", "PASSAGE_SPACE", "READER_KEY", "REBUILDING", "REBUILD_LOCK", "SPACES",
    "TOPIC_KEY",
    "Absorbed", "AroundRange", "Connection", "Eligibility", "EpochBound", "FileState", "MetaStore", "NoteRow", "NoteStore", "PassageRow", "PassageStore", "PoolNote",
    "SnapshotMeta", "Store", "TaskFilter", "TaskRow", "TaskStore", "TextMatch", "UsageBackup", "UsageRow", "UsageStore", "VectorSpace", "VectorStore",
    "carries_tag", "ensure_state_dir", "index_failure", "is_day_date", "open_read_only", "rebuild_lock",
]
