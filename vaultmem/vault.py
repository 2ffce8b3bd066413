"""``Vault``: the one object agents, the CLI and the MCP server talk to.

A thin facade: each method resolves its arguments, opens what it needs lazily and
calls one function of the layer below (indexer, search, check, …). Heavy modules
(numpy, hnswlib, the embedder) are imported only by the methods that need vectors, so
``vaultmem check`` or ``vaultmem get`` stay quick in a fresh process.

Thread use: SQLite connections and hnswlib readers are per thread; a ``Vault`` keeps
one of each per thread that uses it, so one ``Vault`` may be shared by a watcher
thread and request handlers.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import STATE_DIR, VaultConfig, load_config
from .errors import AmbiguousNote, DerivedIndexError, NoteNotFound, VaultmemError
from .lifecycle import normalize_layer, resolve_now, to_epoch_us
from .paths import VaultPaths

if TYPE_CHECKING:
    from .check import CheckReport
    from .embedders import Embedder
    from .indexer import Indexer, IndexReport
    from .search import Hit, Searcher
    from .storage import NoteRow, Store


@dataclass(frozen=True)
class Stats:
    notes: int
    by_layer: dict[str, int]
    expired: int
    with_problems: int
    index_bytes: int
    embedder: str | None
    dimension: int | None
    vectors_in_snapshot: int
    vectors_in_delta: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Vault:
    """A Markdown vault and its derived index under ``<vault>/.vaultmem/``."""

    def __init__(self, path: str | os.PathLike[str], *, config: VaultConfig | None = None, embedder: Embedder | None = None) -> None:
        root = Path(path).expanduser()
        if not root.is_dir():
            raise VaultmemError(f"vault {str(root)!r} is not a folder; pass --vault PATH or set VAULTMEM_VAULT")
        self.root = root.absolute()
        self.config = config if config is not None else load_config(self.root)
        self.paths = VaultPaths(self.root, self.config.archive_dir)
        self.state_dir = self.root / STATE_DIR
        self._embedder = embedder
        self._embedder_lock = threading.Lock()
        self._local = threading.local()
        self._stores: list[Store] = []
        self._stores_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r})"

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every SQLite connection this Vault opened (from any thread)."""
        with self._stores_lock:
            for store in self._stores:
                store.close()
            self._stores.clear()
        self._local = threading.local()

    # ------------------------------------------------------------ plumbing

    @property
    def store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            from .storage import Store

            store = Store(self.state_dir)
            self._local.store = store
            with self._stores_lock:
                self._stores.append(store)
        return store

    @property
    def embedder_identity(self) -> str:
        if self._embedder is not None:
            return self._embedder.identity
        from .embedders import identity_for_spec

        return identity_for_spec(self.config.embedder)

    def embedder(self) -> Embedder:
        with self._embedder_lock:
            if self._embedder is None:
                from .embedders import make_embedder

                self._embedder = make_embedder(self.config.embedder)
            return self._embedder

    @property
    def indexer(self) -> Indexer:
        indexer = getattr(self._local, "indexer", None)
        if indexer is None:
            from .indexer import Indexer

            indexer = Indexer(self.paths, self.store, self.embedder, self.embedder_identity)
            self._local.indexer = indexer
        return indexer

    def _searcher(self) -> Searcher:
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            from .search import Searcher
            from .vectors import VectorIndex

            embedder = self.embedder()
            searcher = Searcher(self.paths, self.store, VectorIndex(self.store, embedder.dimension), embedder)
            self._local.searcher = searcher
        return searcher

    def _fold(self) -> None:
        from .vectors import VectorIndex

        VectorIndex(self.store, self.embedder().dimension).fold()

    # ------------------------------------------------------------ index and search

    def index(self, rebuild: bool = False, progress: Callable[[int, int], Callable[[int], None]] | None = None) -> IndexReport:
        """Reconcile the derived index with the files (``rebuild``: drop it first)."""
        if rebuild:
            self._drop_derived()
        report = self.indexer.reconcile(progress)
        report.rebuilt = report.rebuilt or rebuild
        if report.embedded or report.removed:
            self._fold()
        return report

    def _drop_derived(self) -> None:
        from .vectors import remove_stale_snapshots

        self.store.drop_derived()
        remove_stale_snapshots(self.state_dir, keep=None)
        self._local.searcher = None

    def is_indexed(self) -> bool:
        return self.store.get_meta("indexed") is not None

    def ensure_indexed(self) -> IndexReport | None:
        """Index a vault that has never been indexed; refuse vectors from another embedder."""
        if not self.is_indexed():
            return self.index()
        stored = self.store.get_meta("embedder")
        if stored is not None and stored != self.embedder_identity:
            raise DerivedIndexError(
                f"the index holds vectors from {stored}, but this vault now uses {self.embedder_identity}; "
                "run `vaultmem index` to re-embed (vectors are never mixed)"
            )
        return None

    def search(
        self,
        query: str,
        k: int = 10,
        layers: Iterable[str] | None = None,
        tags: Iterable[str] | None = None,
        include_expired: bool = False,
        now: object = None,
    ) -> list[Hit]:
        """Hybrid search; expired notes are hidden unless ``include_expired``.

        ``now`` evaluates expiry at another instant (preview what will still be recalled).
        """
        from .storage import Eligibility

        eligibility = Eligibility(
            now_us=None if include_expired else to_epoch_us(resolve_now(now)),
            layers=tuple(sorted({normalize_layer(layer) for layer in layers or ()})),
            tags=tuple(tag.lstrip("#") for tag in tags or ()),
        )
        self.ensure_indexed()
        return self._searcher().search(query, k, eligibility)

    # ------------------------------------------------------------ notes

    def resolve(self, reference: str) -> NoteRow:
        """A NOTE argument (id, vault-relative path, or path without .md) → its index row."""
        reference = reference.strip()
        if not reference:
            raise NoteNotFound(reference)
        self.paths.resolve_inside(reference if reference.endswith(".md") else reference + ".md")
        self.ensure_indexed()
        matches = self.store.find_notes(reference)
        if not matches:
            self._index_if_on_disk(reference)
            matches = self.store.find_notes(reference)
        if not matches:
            raise NoteNotFound(reference, self.store.similar_paths(reference.rsplit("/", 1)[-1].removesuffix(".md")))
        if len(matches) > 1:
            exact_path = [row for row in matches if row.path in (reference, reference + ".md")]
            if len(exact_path) == 1:
                return exact_path[0]
            raise AmbiguousNote(reference, [row.path for row in matches])
        return matches[0]

    def _index_if_on_disk(self, reference: str) -> None:
        relative = reference if reference.endswith(".md") else reference + ".md"
        if self.paths.is_note_path(relative) and self.paths.absolute(relative).is_file():
            self.indexer.sync_paths([relative])

    # ------------------------------------------------------------ check and stats

    def check(self, fix: bool = False, now: object = None) -> CheckReport:
        """Lint every note; ``fix`` applies only the safe, explicit fixes."""
        from .check import check_vault

        report = check_vault(self.paths, self.config.policy, fix=fix, now=now)
        if report.fixed and self.is_indexed():
            self.indexer.sync_paths(sorted({fix.path for fix in report.fixed}))
        return report

    def stats(self, now: object = None) -> Stats:
        store = self.store
        now_us = to_epoch_us(resolve_now(now))
        snapshot_seq = int(store.get_meta("snapshot_seq") or 0)
        return Stats(
            notes=store.note_count(),
            by_layer=store.layer_counts(),
            expired=store.count_expired(now_us),
            with_problems=store.count_with_problems(),
            index_bytes=sum(path.stat().st_size for path in self.state_dir.iterdir() if path.is_file()),
            embedder=store.get_meta("embedder"),
            dimension=store.vector_dimension(),
            vectors_in_snapshot=store.count_vectors_up_to(snapshot_seq) if store.get_meta("snapshot_file") else 0,
            vectors_in_delta=store.count_vectors_after(snapshot_seq if store.get_meta("snapshot_file") else 0),
        )
