"""A read does not index a note a vaultmem write elsewhere is indexing (vaultmem/writing_now.py; adr/0021).

A trial: agent B (an MCP server) remembered a 5 MB note, ~16 s of reading and embedding; agent A's
recall in another process waited 23.9 s meanwhile — it found the new file, read and embedded it
itself beside B, and said nothing about why. Now the write lists what it is indexing in
``.vaultmem/writing``; A waits a little for it, then answers without the note and says so, and
the note is found by the next read once B is done.

Two real processes: B is a Python process writing through ``Vault.remember``, whose embedder
takes seconds on the big note's text (a hashing embedder that sleeps on a marker word); A is this
process, with the same slow embedder, so that reading the note itself shows as time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from helpers import REPO, wait_until, write_file
from vaultmem.embedders import HashingEmbedder, TokenSums
from vaultmem.vault import Vault
from vaultmem.writing_now import ANNOUNCEMENT

CONFIG = 'embedder = "hashing"\n'
MARKER = "slowmarker"  # the big note's word that makes embedding it take SLOW_SECONDS
SLOW_SECONDS = 6.0
BIG_NOTE = "memories/huge-sensor-log.md"


class SlowOnMarker(HashingEmbedder):
    """The hashing embedder (same identity, same vectors), slow on any text with MARKER: a big note."""

    def __init__(self) -> None:
        super().__init__()
        self.slow_calls = 0

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self._maybe_slow(texts)
        return super().embed_batch(texts)

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        self._maybe_slow(texts)
        return super().sum_batch(texts, tails_from)

    def _maybe_slow(self, texts: Sequence[str]) -> None:
        if any(MARKER in text.lower() for text in texts):
            self.slow_calls += 1
            if self.slow_calls == 1:  # once: a note's passages and whole text are embedded in two calls
                time.sleep(SLOW_SECONDS)


WRITER = f"""
import sys, time
from pathlib import Path
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_writing_now import SlowOnMarker
from vaultmem.vault import Vault
with Vault(Path(sys.argv[1]), embedder=SlowOnMarker()) as vault:
    vault.remember("Sensor log {MARKER}: " + "reading nominal at the station. " * 10000, title="Huge sensor log", layer="L1")
"""


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / ".vaultmem.toml").write_text(CONFIG, encoding="utf-8")
    for number in range(6):
        write_file(root, f"memories/m{number}.md",
                   f"---\ntitle: Dentist {number}\nlayer: L3\n---\nDentist appointment {number} with Dr. Almeida.\n")
    with Vault(root) as opened:
        opened.index()
    return root


def start_writer(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(root)], env={**os.environ, "PYTHONPATH": str(REPO)},
                            stderr=subprocess.PIPE)


@pytest.fixture
def reader(vault: Path) -> Iterator[tuple[Vault, SlowOnMarker]]:
    embedder = SlowOnMarker()
    with Vault(vault, embedder=embedder) as opened:
        yield opened, embedder


def _finish(writer: subprocess.Popen[bytes]) -> None:
    _, errors = writer.communicate(timeout=120)
    assert writer.returncode == 0, errors.decode()


@pytest.mark.parametrize("watching", [False, True], ids=["own-feed", "watcher"])
def test_a_recall_answers_at_once_while_another_process_indexes_a_big_note_and_says_so(
        vault: Path, reader: tuple[Vault, SlowOnMarker], watching: bool) -> None:
    opened, embedder = reader
    watcher = opened.watch(quiet=True) if watching else None
    try:
        for _ in range(3):  # a long-lived process: a feed of its own from the second read on
            opened.search("dentist appointment", k=1)
        writer = start_writer(vault)
        try:
            wait_until(lambda: (vault / BIG_NOTE).exists(), timeout=60, what="the writer's note on disk")
            started = time.monotonic()
            hits = opened.search("dentist appointment 2", k=1)
            took = time.monotonic() - started
        finally:
            _finish(writer)
        # Before: the recall read and embedded the note itself (SLOW_SECONDS, beside the writer's own).
        assert took < SLOW_SECONDS - 2, f"the recall waited {took:.1f} s"
        assert [hit.path for hit in hits] == ["memories/m2.md"]
        said = [warning for warning in hits.warnings if BIG_NOTE in warning]
        assert said and f"pid {writer.pid}" in said[0] and "ask again" in said[0], hits.warnings
        # The writer is done: the note is found, with no warning, and this process never embedded it.
        after = opened.search("huge sensor log reading nominal", k=1)
        assert [hit.path for hit in after] == [BIG_NOTE]
        assert not after.warnings
        assert embedder.slow_calls == 0
        assert not (vault / ".vaultmem" / ANNOUNCEMENT).exists()
    finally:
        if watcher is not None:
            watcher.stop()


SMALL_WRITER = f"""
import sys
from pathlib import Path
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_writing_now import SlowOnMarker
from vaultmem.vault import Vault
with Vault(Path(sys.argv[1]), embedder=SlowOnMarker()) as vault:
    vault.remember("Parking spot is level 3, bay 42 ({MARKER}).", title="Parking spot")
"""


def test_a_small_note_another_process_is_still_indexing_is_indexed_by_the_read_itself(vault: Path) -> None:
    """A usual memory written elsewhere whose writer is slow to index it (a fresh process loading
    its model): the read indexes it itself at once, as before, and answers whole — it does not
    wait 2 s and then leave it out (the first version of this change: 3 of 6 recalls missed it)."""
    with Vault(vault) as opened:
        for _ in range(3):
            opened.search("dentist appointment", k=1)
        writer = subprocess.Popen([sys.executable, "-c", SMALL_WRITER, str(vault)],
                                  env={**os.environ, "PYTHONPATH": str(REPO)}, stderr=subprocess.PIPE)
        try:
            wait_until(lambda: (vault / "memories" / "parking-spot.md").exists(), timeout=60, interval=0.005,
                       what="the writer's note on disk")
            assert writer.poll() is None  # the writer is still at it (its embedder sleeps)
            started = time.monotonic()
            hits = opened.search("parking spot level", k=1)
            took = time.monotonic() - started
        finally:
            _finish(writer)
        assert [hit.path for hit in hits] == ["memories/parking-spot.md"]
        assert not hits.warnings
        assert took < 1.5, f"the recall waited {took:.1f} s"


def test_an_announcement_left_by_a_killed_writer_is_not_believed(vault: Path) -> None:
    """A writer killed mid-write leaves ``.vaultmem/writing`` behind: its pid is gone, so a read
    indexes the note itself and answers with it, warning of nothing."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (vault / ".vaultmem" / ANNOUNCEMENT).write_text(f'{dead.pid} 1\n"memories/left.md"\n', encoding="utf-8")
    write_file(vault, "memories/left.md", "---\ntitle: Left behind\nlayer: L3\n---\nThe compost bin is by the shed.\n")
    with Vault(vault) as opened:
        hits = opened.search("compost bin shed", k=1)
    assert [hit.path for hit in hits] == ["memories/left.md"]
    assert not hits.warnings


def test_a_killed_writers_announcement_is_not_believed_when_its_pid_runs_another_process(vault: Path) -> None:
    """A writer killed (``kill -9``) while it indexes a big note leaves ``.vaultmem/writing``
    naming its pid. Once the system gives that pid to another process, the pid "runs" again:
    every read waited 2 s for the dead writer and answered without the note, saying it was still
    being indexed. The writer's lock on the file went with it, and that is what a reader asks."""
    writer = start_writer(vault)
    announcement = vault / ".vaultmem" / ANNOUNCEMENT
    try:
        wait_until(lambda: BIG_NOTE in _text_or_none(announcement), timeout=60, interval=0.005,
                   what="the writer's announcement of its note")
    finally:
        writer.kill()  # SIGKILL: no withdraw, no finally
        writer.wait()
    left = announcement.read_text(encoding="utf-8")
    assert left.startswith(f"{writer.pid} ")
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        # The dead writer's pid, now another process's (what pid reuse does; here written into
        # the file the killed writer left, as the system cannot be asked to reuse a pid).
        announcement.write_text(left.replace(f"{writer.pid} ", f"{other.pid} ", 1), encoding="utf-8")
        with Vault(vault) as opened:
            started = time.monotonic()
            hits = opened.search("huge sensor log reading nominal", k=1)
            took = time.monotonic() - started
    finally:
        other.kill()
        other.wait()
    assert [hit.path for hit in hits] == [BIG_NOTE]
    assert not [warning for warning in hits.warnings if "still indexing" in warning], hits.warnings
    assert took < 20, f"the read took {took:.1f} s"


HOLDER = """
import fcntl, os, sys, time
descriptor = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(descriptor, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no flock on Windows: the pid is asked there, as before")
def test_a_lock_another_process_keeps_is_seen_and_never_makes_a_writer_hang(tmp_path: Path) -> None:
    """A process forked from a killed writer may keep its lock on ``.vaultmem/writing``: the next
    writer gives up waiting for it after lock_files.TAKE_LOCK_SECONDS (and announces all the
    same) rather than hang its write; a reader sees the lock held, and free once it is let go."""
    from vaultmem.lock_files import TAKE_LOCK_SECONDS, locked_by_another, take_lock

    path = tmp_path / ANNOUNCEMENT
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        descriptor = os.open(path, os.O_RDWR)
        try:
            started = time.monotonic()
            assert take_lock(descriptor) is False
            assert TAKE_LOCK_SECONDS <= time.monotonic() - started < TAKE_LOCK_SECONDS + 5
            assert locked_by_another(descriptor) is True
        finally:
            os.close(descriptor)
    finally:
        holder.kill()
        holder.wait()
    descriptor = os.open(path, os.O_RDWR)
    try:
        assert locked_by_another(descriptor) is False
        assert take_lock(descriptor) is True
    finally:
        os.close(descriptor)


def _text_or_none(path: Path) -> str:
    """What ``path`` holds, or "" while it is not there (the note lands before it is announced)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
