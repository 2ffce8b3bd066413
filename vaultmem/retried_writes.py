"""A write sent again is answered again, not made twice (adr/0031-retried-writes.md).

An agent whose call timed out cannot tell whether the write happened; it sends it again. With
a request id (an idempotency key) the second call gets the first call's answer, marked
``replayed``, and writes nothing; the same id with other arguments is refused, since it can
only be a mistake. The ids and answers live in the index's ``requests`` table (not derived:
``index --rebuild`` keeps it), for :data:`KEEP` — a restart does not forget them; deleting
``.vaultmem/`` does.

A call without an id may be matched to an identical one by a key made from its arguments
(the MCP server does so for ``remember`` and a ``revise`` that appends): only for :data:`SAME_CALL_WINDOW` after the first
answer, and only while ``still_valid`` says that answer still holds (its note was not
forgotten meanwhile). The answer says ``replayed`` either way: nothing is dropped silently.
Identical such calls at the same instant in one process take turns, so the second is the
replay.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from .errors import Argument, UsageError, VaultmemError
from .lifecycle import format_timestamp, from_epoch_us, to_epoch_us
from .storage import index_failure
from .storage.requests import RequestRow

if TYPE_CHECKING:
    from .storage import Store

log = logging.getLogger("vaultmem")

Answer = dict[str, Any]

KEEP = timedelta(days=7)  # a retry comes within minutes; a week covers an agent that was down
# A first call still unanswered after this is taken to have died with its process: a write
# waits at most 300 s for the commit lock, and no write runs longer than that.
ABANDONED = timedelta(minutes=10)
# A call without a request id that repeats one answered this recently (every argument alike)
# is taken for a retry: a client's retry after its timeout (60 s in most) comes within this.
SAME_CALL_WINDOW = timedelta(seconds=120)
MAX_KEY_CHARS = 200
GIVEN, SAME_CALL = "id:", "same:"  # the two kinds of key, apart: no request id can pose as a call's arguments


class RequestPending(VaultmemError):
    """The first call with this request id has not answered (yet, or ever)."""


def fingerprint(tool: str, arguments: Mapping[str, object]) -> str:
    """Which call this is: the tool and its arguments, in any order of keys."""
    text = json.dumps([tool, arguments], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def once(store: Store, request_id: str | None, tool: str, arguments: Mapping[str, object],
         operation: Callable[[], Answer], now: datetime, *,
         still_valid: Callable[[Answer], bool] | None = None) -> Answer:
    """``operation()``'s answer, made once per request id (see the module docstring).

    ``request_id=None``: not made again when an identical call was answered within
    :data:`SAME_CALL_WINDOW` and ``still_valid(first_answer)`` holds."""
    called = fingerprint(tool, arguments)
    if request_id is None:
        return once_alike(store, tool, called, operation, now, still_valid)
    check_key(request_id)
    key = GIVEN + request_id
    with told_as_vault_errors(store), store.transaction():
        # Claimed before the write, in one transaction: a retry arriving while the first call
        # runs (its client gave up waiting) finds the claim and is told so, not made too.
        store.requests.forget_older_than(to_epoch_us(now - KEEP))
        first = store.requests.claim(key, called, to_epoch_us(now))
    if first is not None:
        return replayed(first, request_id, tool, called, now)
    began = time.monotonic()
    try:
        answer = operation()
    except BaseException:
        with told_as_vault_errors(store), store.transaction():
            store.requests.release(key)  # nothing was written: a retry may make it
        raise
    keep(store, RequestRow(key, called, to_epoch_us(now), json.dumps(answer, ensure_ascii=False),
                           to_epoch_us(now + timedelta(seconds=time.monotonic() - began))))
    return answer


def once_alike(store: Store, tool: str, called: str, operation: Callable[[], Answer], now: datetime,
               still_valid: Callable[[Answer], bool] | None) -> Answer:
    """A call without a request id: answered again when an identical one just was.

    Nothing is claimed in the index before the write: the file is written first, as without
    this, and a write kept waiting by another process's lock on the index does not wait
    before it. Identical calls in one process (two agents of one server at the same instant)
    take turns on :data:`_SAME_CALLS`, so the second finds the first's answer; two server
    processes may still both write (no id, no promise)."""
    key = SAME_CALL + called
    with _SAME_CALLS.held(f"{store.path}\0{key}"):
        with told_as_vault_errors(store):
            first = store.requests.get(key)
        if first is not None and first.answer is not None and same_call_stands(first, now, still_valid):
            return replayed(first, None, tool, called, now)
        began = time.monotonic()
        answer = operation()
        keep(store, RequestRow(key, called, to_epoch_us(now), json.dumps(answer, ensure_ascii=False),
                               to_epoch_us(now + timedelta(seconds=time.monotonic() - began))))
        return answer


class _CallLocks:
    """One lock per call in flight, made when the first holder comes and dropped when the
    last leaves: a server answering for weeks keeps none for calls long answered."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    @contextmanager
    def held(self, key: str) -> Iterator[None]:
        with self._guard:
            lock, holders = self._locks.get(key, (threading.Lock(), 0))
            self._locks[key] = (lock, holders + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, holders = self._locks[key]
                if holders == 1:
                    del self._locks[key]
                else:
                    self._locks[key] = (lock, holders - 1)


# Two agents sent one remember at the same instant without a request id, and both were written
# (a trial: 3 pairs of 3, each answered as new): each looked for the other's answer before
# either had kept one.
_SAME_CALLS = _CallLocks()


def keep(store: Store, row: RequestRow) -> None:
    """Keep a write's answer for its retries (the window runs from the answer, not the start),
    forgetting those older than :data:`KEEP`.

    A failure here is logged, not raised: the write is made, and an error would tell the
    agent it was not — so it would write again, the very thing this prevents. A retry with
    an id then finds it unanswered (RequestPending: "whether it wrote is unknown")."""
    try:
        with store.transaction():
            # Pruned here too: an agent that never sends an id keeps one answer per remember
            # under its SAME_CALL key, and a claim (the only other pruning) never comes.
            store.requests.forget_older_than(row.started_us - KEEP // timedelta(microseconds=1))
            store.requests.put(row)
    except sqlite3.Error as error:
        log.warning("vaultmem: the write is made, but its answer could not be kept for a retry (%s): %s",
                    row.key, index_failure(error, store.path, store.identity))


@contextmanager
def told_as_vault_errors(store: Store) -> Iterator[None]:
    """A SQLite error as the vaultmem error that names the index and the fix (locked, full…)."""
    try:
        yield
    except sqlite3.Error as error:
        raise index_failure(error, store.path, store.identity) from None


def same_call_stands(first: RequestRow, now: datetime, still_valid: Callable[[Answer], bool] | None) -> bool:
    """Is an identical call's answer still the answer (recent, and its note still there)?"""
    if first.answer is None or first.finished_us is None:
        return False
    if from_epoch_us(first.finished_us) < now - SAME_CALL_WINDOW:
        return False
    return still_valid is None or still_valid(json.loads(first.answer))


def replayed(first: RequestRow, key: str | None, tool: str, called: str, now: datetime) -> Answer:
    """The first call's answer again, or why there is none (``key``: the request id the
    caller gave; None when the key was made from the arguments)."""
    started = format_timestamp(from_epoch_us(first.started_us))
    call = f"the call with request_id {key!r}" if key is not None else f"an identical {tool} call"
    if first.fingerprint != called:
        raise UsageError(f"request_id {key!r} was first sent at {started} with other arguments (or to another tool "
                         f"than {tool}), so nothing was done: a retry must repeat the call exactly; give a new write "
                         "a new ", Argument("request_id"))
    if first.answer is None:
        if from_epoch_us(first.started_us) < now - ABANDONED:
            raise RequestPending(f"{call} started at {started} and never answered (its server stopped during it?): "
                                 "whether it wrote is unknown. Look first (recall, get), then write again with a new "
                                 "request_id if it is missing")
        raise RequestPending(f"{call} (started {started}) is still being made; send this call again in a few seconds "
                             "to get its answer")
    answer: Answer = json.loads(first.answer)
    answer["replayed"] = {"request_id": key, "first_at": started}
    return answer


def check_key(key: str) -> None:
    if not key or len(key) > MAX_KEY_CHARS or not key.isprintable():
        raise UsageError(f"request_id {key[:40]!r} must be 1 to {MAX_KEY_CHARS} printable characters (a UUID is "
                         "the usual choice); fix the ", Argument("request_id"))
