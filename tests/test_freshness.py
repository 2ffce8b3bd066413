"""Answers true to the files without `watch` (vaultmem/freshness.py, feed.py, fences.py; adr/0021).

Hand edits, new, deleted and renamed notes made since the last index are reflected in the
very next read: in a fresh `vaultmem search` process (which walks the vault), in a
long-lived `Vault` (which walks, then keeps a feed of its own), and while a watcher
runs whose debounce has not fired yet (the reader fences it). Real files, real SQLite,
real watchdog observers, real subprocesses; the debounce is set to a minute where a test
must prove that the watcher did *not* get there on its own.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers import run_cli, vaultmem_popen, vaultmem_process, wait_until, write_file
from vaultmem.fences import untrusted_file_system, watcher_alive
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.storage import Eligibility, Store
from vaultmem.vault import Vault

CONFIG = 'embedder = "hashing"\n'
SLOW_WATCHER = CONFIG + "[watch]\ndebounce_ms = 60000\n"  # the debounce never fires during a test
PAST = "2020-01-01T00:00:00+00:00"
FUTURE = "2099-01-01T00:00:00+00:00"


def memory(title: str, body: str, layer: str = "L3", expires_at: str = FUTURE) -> str:
    return f"---\ntitle: {title}\nlayer: {layer}\nexpires_at: {expires_at}\n---\n{body}\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """Twelve memories about harbors, indexed (each says one unique word: 'word0' …)."""
    root = tmp_path / "vault"
    root.mkdir()
    (root / ".vaultmem.toml").write_text(CONFIG, encoding="utf-8")
    for number in range(12):
        write_file(root, f"notes/n{number}.md", memory(f"Harbor note {number}", f"harbor cranes and word{number}"))
    with Vault(root) as opened:
        opened.index()
    return root


def cli_paths(root: Path, query: str) -> list[str]:
    """Hit paths of `vaultmem search QUERY --json` in a fresh process (the way one-shot agents call it)."""
    result = vaultmem_process(root, "search", query, "-k", "5", "--json")
    assert result.returncode == 0, result.stderr
    return [hit["path"] for hit in json.loads(result.stdout)]


def cli_hits(root: Path, query: str) -> list[dict[str, object]]:
    result = vaultmem_process(root, "search", query, "-k", "5", "--json")
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert isinstance(hits, list)
    return hits


def warmed(root: Path, reads: int) -> Vault:
    """A long-lived Vault that has answered ``reads`` searches already (from 2 on it keeps a feed)."""
    opened = Vault(root)
    for _ in range(reads):
        opened.search("harbor cranes")
    return opened


def threads_now() -> set[threading.Thread]:
    return set(threading.enumerate())


# ------------------------------------------------------------------ a fresh `vaultmem search` process


def test_an_expiry_moved_into_the_past_by_hand_hides_the_note_from_the_next_search_process(vault: Path) -> None:
    assert cli_paths(vault, "word3")[0] == "notes/n3.md"
    write_file(vault, "notes/n3.md", memory("Harbor note 3", "harbor cranes and word3", expires_at=PAST))
    assert "notes/n3.md" not in cli_paths(vault, "word3")
    hidden_but_there = vaultmem_process(vault, "search", "word3", "--include-expired", "--json")
    expired = [hit for hit in json.loads(hidden_but_there.stdout) if hit["path"] == "notes/n3.md"]
    assert expired and expired[0]["expired"] is True and expired[0]["expires_at"] == PAST


def test_a_sentence_typed_into_a_note_is_found_by_the_next_search_process(vault: Path) -> None:
    assert "notes/n5.md" not in cli_paths(vault, "okapi")[:1]
    with (vault / "notes/n5.md").open("a", encoding="utf-8") as handle:
        handle.write("Met an okapi at the harbor gate.\n")
    hits = cli_hits(vault, "okapi")
    assert hits[0]["path"] == "notes/n5.md"
    assert "okapi" in str(hits[0]["snippet"])


def test_new_deleted_and_renamed_notes_are_seen_by_the_next_search_process(vault: Path) -> None:
    write_file(vault, "inbox/fresh.md", memory("Fresh arrival", "a narwhal in the harbor"))
    assert cli_paths(vault, "narwhal")[0] == "inbox/fresh.md"

    (vault / "notes/n7.md").unlink()
    assert "notes/n7.md" not in cli_paths(vault, "word7")

    assert run_cli(vault, "used", "notes/n8.md").exit_code == 0
    (vault / "notes/n8.md").rename(vault / "notes/renamed-8.md")
    paths = cli_paths(vault, "word8")
    assert paths[0] == "notes/renamed-8.md"
    assert "notes/n8.md" not in paths
    # A rename, not a delete and an add: the usage history went along.
    shown = json.loads(vaultmem_process(vault, "get", "notes/renamed-8.md", "--json").stdout)
    assert shown["use_count"] == 1


def test_a_search_process_with_nothing_changed_writes_nothing_to_the_index(vault: Path) -> None:
    """Proving the index current is a walk and a query: no transaction, so the database is untouched."""
    database = vault / ".vaultmem" / "index.db"
    wal = vault / ".vaultmem" / "index.db-wal"
    before = (database.stat().st_mtime_ns, wal.stat().st_size if wal.exists() else 0)
    with Vault(vault) as opened:
        report = opened.ensure_current()
    assert report is not None
    assert not report.changed
    assert report.unchanged == 12
    assert (database.stat().st_mtime_ns, wal.stat().st_size if wal.exists() else 0) == before


# ------------------------------------------------------------------ a long-lived Vault, no watcher anywhere


@pytest.mark.parametrize("reads", [1, 3], ids=["walks", "own-feed"])
def test_an_expiry_moved_into_the_past_hides_the_note_from_the_next_search_of_a_long_lived_vault(vault: Path, reads: int) -> None:
    opened = warmed(vault, reads)
    try:
        assert opened.derived.freshness.has_feed == (reads >= 2)
        assert [hit.path for hit in opened.search("word4", k=3)][0] == "notes/n4.md"
        write_file(vault, "notes/n4.md", memory("Harbor note 4", "harbor cranes and word4", expires_at=PAST))
        assert "notes/n4.md" not in [hit.path for hit in opened.search("word4", k=12)]
    finally:
        opened.close()


@pytest.mark.parametrize("reads", [1, 3], ids=["walks", "own-feed"])
def test_typed_new_deleted_and_renamed_notes_reach_the_next_search_of_a_long_lived_vault(vault: Path, reads: int) -> None:
    opened = warmed(vault, reads)
    try:
        with (vault / "notes/n1.md").open("a", encoding="utf-8") as handle:
            handle.write("A quokka waved.\n")
        assert opened.search("quokka", k=3)[0].path == "notes/n1.md"

        write_file(vault, "new/arrival.md", memory("Arrival", "a pangolin rolled past"))
        assert opened.search("pangolin", k=3)[0].path == "new/arrival.md"

        (vault / "notes/n2.md").unlink()
        assert "notes/n2.md" not in [hit.path for hit in opened.search("word2", k=12)]

        opened.mark_used(["notes/n6.md"])
        (vault / "notes").rename(vault / "archive-of-notes")  # a whole folder moves
        paths = [hit.path for hit in opened.search("word6", k=12)]
        assert paths[0] == "archive-of-notes/n6.md"
        assert not any(path.startswith("notes/") for path in paths)
        assert opened.get("archive-of-notes/n6.md").use_count == 1
    finally:
        opened.close()


def test_stale_stats_get_and_mark_used_answer_from_the_files_as_they_are(vault: Path) -> None:
    with Vault(vault) as opened:
        opened.search("harbor")
        write_file(vault, "notes/n0.md", memory("Harbor note 0", "harbor cranes and word0", expires_at=PAST))
        write_file(vault, "late/extra.md", memory("Extra", "an ibis"))
        stats = opened.stats()
        assert stats.notes == 13
        assert stats.expired == 1
        stale = opened.stale(days=0)
        assert "notes/n0.md" not in [note.path for note in stale]
        assert "late/extra.md" in [note.path for note in stale]
        (vault / "late/extra.md").rename(vault / "late/moved.md")
        used = opened.mark_used(["late/moved.md"])
        assert [entry.path for entry in used] == ["late/moved.md"]
        assert opened.get("late/moved.md").title == "Extra"


def test_the_similar_notes_remember_names_exist_on_disk(vault: Path) -> None:
    with Vault(vault) as opened:
        opened.search("harbor")
        write_file(vault, "dup/twin.md", memory("Twin", "the ferry to the island leaves at nine from pier four", layer="L2"))
        (vault / "notes/n9.md").unlink()
        remembered = opened.remember("The ferry to the island leaves at nine from pier four", layer="L2")
        assert [similar.path for similar in remembered.similar] == ["dup/twin.md"]


# ------------------------------------------------------------------ hits agree with their files


def test_each_hit_is_checked_against_its_file_and_answered_again_if_it_changed(vault: Path) -> None:
    """The searcher itself, with nothing brought up to date before it: the per-hit check."""
    with Vault(vault) as opened:
        opened.search("harbor")
        write_file(vault, "notes/n10.md", memory("Renamed title ten", "harbor cranes and word10, now episodic", layer="L2"))
        write_file(vault, "notes/n11.md", memory("Harbor note 11", "harbor cranes and word11", expires_at=PAST))
        hits = opened.derived.searcher().search("word10 word11", 12, _alive_now())
    by_path = {hit.path: hit for hit in hits}
    assert "notes/n11.md" not in by_path  # expired on disk: hidden although the row said 2099
    ten = by_path["notes/n10.md"]
    assert (ten.title, ten.layer) == ("Renamed title ten", "L2")
    assert "now episodic" in ten.snippet


def _alive_now() -> Eligibility:
    return Eligibility(now_us=to_epoch_us(resolve_now(None)))


def test_a_hit_agrees_with_its_file_while_the_watcher_of_this_process_has_not_fired(tmp_path: Path, vault: Path) -> None:
    (vault / ".vaultmem.toml").write_text(SLOW_WATCHER, encoding="utf-8")
    with Vault(vault) as opened, opened.watch(quiet=True):
        write_file(vault, "notes/n3.md", memory("Harbor standup moved", "harbor cranes and word3; the standup is at 9:45", layer="L1",
                                           expires_at="2098-05-05T05:05:05+00:00"))
        write_file(vault, "notes/n4.md", memory("Harbor note 4", "harbor cranes and word4", expires_at=PAST))
        hits = opened.search("word3 word4 standup", k=12)
    by_path = {hit.path: hit for hit in hits}
    assert "notes/n4.md" not in by_path
    three = by_path["notes/n3.md"]
    assert (three.title, three.layer, three.expires_at) == ("Harbor standup moved", "L1", "2098-05-05T05:05:05+00:00")
    assert "9:45" in three.snippet


@contextmanager
def slow_watch(tmp_path: Path, vault: Path) -> Iterator[Path]:
    """A real `vaultmem watch` process whose debounce is a minute, holding the watch lock;
    yields the file its stdout goes to, and stops it (SIGINT) on the way out."""
    (vault / ".vaultmem.toml").write_text(SLOW_WATCHER, encoding="utf-8")
    out = tmp_path / "watch.out"
    with out.open("wb") as stdout:
        watcher = vaultmem_popen(vault, "watch", stdout=stdout)
        try:
            wait_until(lambda: "watching" in out.read_text(encoding="utf-8"), timeout=60, what="vaultmem watch to start")
            wait_until(lambda: watcher_alive(vault / ".vaultmem"), timeout=10, what="the watch lock")
            yield out
        finally:
            watcher.send_signal(signal.SIGINT)
            watcher.wait(timeout=30)


def test_a_hit_agrees_with_its_file_while_a_watch_process_has_not_fired(tmp_path: Path, vault: Path) -> None:
    with slow_watch(tmp_path, vault) as out:
        write_file(vault, "notes/n5.md", memory("Harbor ferry times", "harbor cranes and word5; ferries every hour", layer="L2"))
        write_file(vault, "notes/n6.md", memory("Harbor note 6", "harbor cranes and word6", expires_at=PAST))
        hits = {hit["path"]: hit for hit in cli_hits(vault, "word5 word6 ferries")}
        # The watcher applied both edits, a minute before its debounce: it answered our fence.
        wait_until(lambda: "updated notes/n5.md" in out.read_text(encoding="utf-8"), timeout=10)
    assert "notes/n6.md" not in hits
    five = hits["notes/n5.md"]
    assert (five["title"], five["layer"]) == ("Harbor ferry times", "L2")
    assert "ferries every hour" in str(five["snippet"])
    assert not watcher_alive(vault / ".vaultmem")  # released when the watcher stopped


def test_a_polling_watcher_does_not_vouch_for_the_index(vault: Path) -> None:
    with Vault(vault) as opened, opened.watch(quiet=True, polling=True) as watcher:
        assert watcher.running
        assert not watcher_alive(vault / ".vaultmem")


# ------------------------------------------------------------------ the feed a long-lived Vault keeps


def test_a_vault_that_reads_once_starts_no_thread_and_one_that_reads_again_stops_its_feed_on_close(vault: Path) -> None:
    before = threads_now()
    with Vault(vault) as once:
        once.search("harbor")
        assert threads_now() == before
    again = warmed(vault, 2)
    assert again.derived.freshness.has_feed
    assert threads_now() - before
    again.close()
    wait_until(lambda: threads_now() <= before, timeout=5, what="the feed's threads to end")


def test_a_remember_walks_once_and_starts_no_thread_yet_sees_a_note_written_a_moment_before(vault: Path) -> None:
    """remember brings the index current before it chooses the file name (a note the person
    wrote a moment ago must not lose its name to the new one) and not again after the write:
    a one-shot command pays one walk, and a second would start a feed it never uses."""
    write_file(vault, "people/dad.md", "My father.\n")
    before = threads_now()
    with Vault(vault) as once:
        remembered = once.remember("Dad starts a new job on Monday.", title="Dad", layer="L2")
        assert remembered.path == "memories/dad-2.md"
        assert [other.path for other in remembered.same_name] == ["people/dad.md"]
        assert not once.derived.freshness.has_feed
        assert threads_now() == before


def test_a_vault_dropped_without_close_stops_its_feed(vault: Path) -> None:
    before = threads_now()
    forgotten = warmed(vault, 2)
    assert forgotten.derived.freshness.has_feed
    del forgotten
    gc.collect()
    wait_until(lambda: threads_now() <= before, timeout=5, what="the forgotten feed's threads to end")


def test_lost_events_make_the_next_read_walk_the_vault(vault: Path) -> None:
    """watchdog only logs an overflow; the lost change is simulated by editing the index behind the feed's back."""
    with warmed(vault, 2) as opened:
        behind_the_back = Store(vault / ".vaultmem")
        row = behind_the_back.notes.by_path("notes/n9.md")
        assert row is not None
        assert row.label is not None
        with behind_the_back.transaction():
            behind_the_back.notes.delete([row.label])
        behind_the_back.close()
        assert "notes/n9.md" not in [hit.path for hit in opened.search("word9", k=12)]  # the feed heard nothing
        logging.getLogger("watchdog.observers.inotify_c").warning("Inotify queue overflowed; filesystem events were lost")
        assert opened.search("word9", k=3)[0].path == "notes/n9.md"


def test_reads_in_several_threads_of_one_vault_all_see_a_change(vault: Path) -> None:
    with warmed(vault, 2) as opened:
        with (vault / "notes/n1.md").open("a", encoding="utf-8") as handle:
            handle.write("a tapir\n")
        results: list[str] = []

        def read() -> None:
            results.append(opened.search("tapir", k=1)[0].path)

        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert results == ["notes/n1.md"] * 4


# ------------------------------------------------------------------ where events cannot be trusted

MOUNTINFO = """\
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
40 27 0:50 / /mnt/share rw,relatime - nfs4 server:/export rw,vers=4.2
41 27 0:51 / /mnt/my\\040drive rw,relatime - fuse.sshfs me@host:/ rw
42 40 0:52 / /mnt/share/local rw,relatime - ext4 /dev/vdb rw
"""


def test_file_systems_other_machines_write_to_are_not_trusted_for_events() -> None:
    assert untrusted_file_system(Path("/home/maya/Notes"), MOUNTINFO) is None
    assert untrusted_file_system(Path("/mnt/share/Notes"), MOUNTINFO) == "nfs4"
    assert untrusted_file_system(Path("/mnt/my drive/Notes"), MOUNTINFO) == "fuse.sshfs"
    assert untrusted_file_system(Path("/mnt/share/local/Notes"), MOUNTINFO) is None  # the innermost mount decides
    assert untrusted_file_system(Path("/mnt/shared"), MOUNTINFO) is None  # a prefix of a name is not a parent


def test_the_vault_under_test_is_on_a_file_system_whose_events_are_trusted(vault: Path) -> None:
    """Otherwise the feed tests above would pass by walking (say why if this fails on a CI runner)."""
    assert untrusted_file_system(vault) is None, os.uname()


def test_a_fence_left_behind_by_a_dead_reader_is_cleaned_up_by_the_next_watcher(vault: Path) -> None:
    state_dir = vault / ".vaultmem"
    left = state_dir / "fence-1-deadbeef"
    left.write_bytes(b"")
    os.utime(left, (1_000_000_000, 1_000_000_000))
    with Vault(vault) as opened, opened.watch(quiet=True):
        assert not left.exists()


def test_a_search_process_beside_a_killed_watcher_walks_instead_of_waiting(tmp_path: Path, vault: Path) -> None:
    (vault / ".vaultmem.toml").write_text(SLOW_WATCHER, encoding="utf-8")
    out = tmp_path / "watch.out"
    with out.open("wb") as stdout:
        watcher = vaultmem_popen(vault, "watch", stdout=stdout)
        wait_until(lambda: watcher_alive(vault / ".vaultmem"), timeout=60, what="the watch lock")
        os.killpg(watcher.pid, signal.SIGKILL)
        watcher.wait(timeout=30)
    assert not watcher_alive(vault / ".vaultmem")  # the kernel released it
    write_file(vault, "notes/n2.md", memory("Harbor note 2", "harbor cranes and word2 and a wombat"))
    assert cli_paths(vault, "wombat")[0] == "notes/n2.md"
    assert not [name for name in os.listdir(vault / ".vaultmem") if name.startswith("fence-")]


def test_watch_stdout_stays_one_line_per_change(tmp_path: Path, vault: Path) -> None:
    """A change applied because a reader fenced is still reported once by `vaultmem watch`."""
    with slow_watch(tmp_path, vault) as out:
        write_file(vault, "notes/n1.md", memory("Harbor note 1", "harbor cranes and word1 and a civet"))
        assert cli_paths(vault, "civet")[0] == "notes/n1.md"
        assert cli_paths(vault, "civet")[0] == "notes/n1.md"
    assert out.read_text(encoding="utf-8").count("updated notes/n1.md") == 1



def test_a_feed_whose_fences_never_come_back_is_given_up_and_reads_walk(tmp_path: Path, vault: Path) -> None:
    """``.vaultmem/`` moved elsewhere behind a symlink: the observer does not follow it, so no fence arrives."""
    elsewhere = tmp_path / "index-elsewhere"
    (vault / ".vaultmem").rename(elsewhere)
    (vault / ".vaultmem").symlink_to(elsewhere, target_is_directory=True)
    with warmed(vault, 2) as opened:
        assert opened.derived.freshness.has_feed
        with (vault / "notes/n3.md").open("a", encoding="utf-8") as handle:
            handle.write("a kinkajou\n")
        assert opened.search("kinkajou", k=1)[0].path == "notes/n3.md"  # the fence timed out; the read walked
        assert not opened.derived.freshness.has_feed
        with (vault / "notes/n4.md").open("a", encoding="utf-8") as handle:
            handle.write("a binturong\n")
        assert opened.search("binturong", k=1)[0].path == "notes/n4.md"


def test_a_search_beside_a_writer_that_holds_the_lock_answers_and_says_it_could_not_catch_up(vault: Path) -> None:
    with Vault(vault) as opened:
        opened.search("harbor")
        with (vault / "notes/n5.md").open("a", encoding="utf-8") as handle:
            handle.write("a margay\n")
        writer = sqlite3.connect(vault / ".vaultmem" / "index.db", isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")  # another process indexing, stuck
        try:
            hits = opened.search("harbor cranes word5", k=3)
        finally:
            writer.execute("COMMIT")
            writer.close()
        assert any("locked by another writer" in warning for warning in hits.warnings)
        assert all(any("locked by another writer" in warning for warning in hit.warnings) for hit in hits)
        assert opened.search("margay", k=1)[0].path == "notes/n5.md"  # the lock is free: the next read catches up
        assert not opened.search("margay", k=1).warnings


def settled_feed(root: Path) -> Vault:
    """A Vault with a feed of its own whose every note's row holds its file's settled stat (a row
    made within two seconds of its file's mtime is one nanosecond off — indexer.settled_stat — and a
    hit of it reads its file again): the notes dated ten seconds back, read again by the first walk."""
    ten_seconds_ago = time.time_ns() - 10_000_000_000
    for note in (root / "notes").glob("*.md"):
        os.utime(note, ns=(ten_seconds_ago, ten_seconds_ago))
    opened = warmed(root, 3)
    assert opened.derived.freshness.has_feed
    opened.search("harbor cranes", k=12)
    return opened


def test_a_search_of_a_vault_with_its_own_feed_and_nothing_changed_waits_on_no_writer(vault: Path) -> None:
    """Nothing changed, nothing to write: a read takes no write lock (it took BEGIN IMMEDIATE for
    nothing, so a stuck writer made every search wait two seconds and warn of changes it had none of)."""
    with settled_feed(vault) as opened:
        writer = sqlite3.connect(vault / ".vaultmem" / "index.db", isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")  # another process indexing, stuck
        try:
            hits = opened.search("harbor cranes word5", k=3)
        finally:
            writer.execute("COMMIT")
            writer.close()
        assert hits[0].path == "notes/n5.md"
        assert not hits.warnings
        assert not any(hit.warnings for hit in hits)
