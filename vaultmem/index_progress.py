"""How far a watcher's start-up reconcile is, said to whoever reads meanwhile.

A long-lived process (the MCP server, ``watch``, a program that called ``Vault.watch``)
reconciles the index with the files when it starts; on a vault never indexed that is every
note (a trial's 2,223 notes: 24–40 s). A read in that process meanwhile answers from the
index so far rather than waiting for it or indexing every note a second time on its own
thread, and says so in its warnings with this: how many notes are in, and about how long
the rest takes (adr/0021 "While the index is being built"). A process with no watcher indexes
before it answers instead, and says so as the wait starts (``IndexWait``: why, how many notes,
about how long). Pure: counts and a clock reading in, words out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class IndexBuilding:
    """A start-up reconcile still running: ``done`` of ``todo`` notes read (``todo`` None: the
    files are still being listed), ``total`` notes in the vault, ``seconds`` since it began."""

    root: str
    todo: int | None
    done: int
    total: int | None
    seconds: float

    @property
    def first_index(self) -> bool:
        """Every note is being read: the vault was never indexed (or its rows were made under other rules)."""
        return self.todo is not None and self.todo == self.total

    def seconds_left(self) -> float | None:
        """At the pace so far; None until a first chunk is in (no pace to go by)."""
        if self.todo is None or self.done <= 0 or self.seconds <= 0:
            return None
        return max(0.0, (self.todo - self.done) * self.seconds / self.done)

    def progress(self) -> str:
        """``1,200 of 2,223 notes read so far``, or that the files are still being listed."""
        if self.todo is None:
            return "listing its files"
        what = "notes" if self.first_index else f"changed notes (of {self.total:,})"
        if self.done >= self.todo:
            return f"all {self.todo:,} {what} read, the last written"
        return f"{self.done:,} of {self.todo:,} {what} read so far"

    def again_in(self) -> str:
        left = self.seconds_left()
        return "in a few seconds" if left is None else f"in ~{whole_seconds(left):,} s"

    def __str__(self) -> str:
        """The warning beside an answer given from the index so far."""
        being = "built" if self.first_index else "brought in line with the files"
        unread = "" if self.todo is not None and self.done >= self.todo else ", and a note not read yet is missing from them"
        return (f"the index of {self.root} is being {being} ({self.progress()}): results may be incomplete"
                f"{unread} — ask again {self.again_in()}")

    def waiting(self, who: str) -> str:
        """A progress message for a call that waits for the whole index (``who``: "this write")."""
        being = "built" if self.first_index else "brought in line with the files"
        left = self.seconds_left()
        eta = "" if left is None else f", about {whole_seconds(left):,} s more"
        return f"the index of {self.root} is being {being} ({self.progress()}); {who} waits for it{eta}"


def whole_seconds(seconds: float) -> int:
    """An estimate as said: at least 1 (the reconcile is still running), rounded up."""
    return max(1, math.ceil(seconds))


# A first index's pace with the default embedder: 3,000 notes in about 22 s on a 2-core
# machine (the review that asked for this message). An estimate to say before the wait, not
# a promise: a vault of a few huge notes takes longer per note.
SECONDS_PER_NOTE = 22 / 3000

FIRST = "first"  # never indexed
UPGRADED = "upgraded"  # made by an earlier vaultmem (another reader: searchable.INDEX_RULES)
SETTINGS = "settings"  # made under other exclusions, daily-note format, date properties or inline queries
INTERRUPTED = "interrupted"  # an `index --rebuild` killed half-way


@dataclass(frozen=True)
class IndexWait:
    """A call that must index before it answers (derived.DerivedIndex.ensure_indexed): why,
    and how many notes it reads (``todo``) of the vault's ``total``."""

    why: str
    todo: int
    total: int

    def seconds(self) -> float:
        return self.todo * SECONDS_PER_NOTE

    def __str__(self) -> str:
        """What is said before the wait: why, how many notes, about how long, how to avoid it."""
        ahead = "`vaultmem index` does it ahead"
        notes = f"{self.todo:,} notes"
        took = about(self.seconds())
        if self.why == FIRST:
            return f"indexing {notes} for the first time ({took}; {ahead})…"
        if self.why == UPGRADED:
            return f"vaultmem was upgraded: reading every note again once ({notes}, {took}; {ahead})…"
        if self.why == INTERRUPTED:
            return f"finishing an `index --rebuild` that was stopped half-way ({notes}, {took})…"
        return (f"the vault's settings changed (excluded folders, daily-note format, date properties or inline "
                f"queries): reading {notes} again ({took})…")


def about(seconds: float) -> str:
    """``about 20 s``, ``about 2 min``: an estimate said as one, to the nearest 5 s or minute."""
    if seconds < 60:
        return f"about {max(5, 5 * round(seconds / 5))} s"
    return f"about {round(seconds / 60)} min"
