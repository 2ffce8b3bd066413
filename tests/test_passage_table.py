"""The passage table (vaultmem/passage_table.py): passages' notes and notes' expiry in memory,
answering as SQLite does, read again whenever the index changes. Real files, real SQLite,
the real default embedder."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from helpers import NOW, vaultmem_process
from vaultmem import Vault
from vaultmem.lifecycle import is_expired_us
from vaultmem.passage_table import READ_AFTER_LOOKUPS, PassageTable, PassageTables, SqlOwners, alive_mask
from vaultmem.search import CANDIDATES_MIN, search_filters
from vaultmem.storage import Eligibility, Store

WORDS = ("harbor", "ledger", "orchard", "violin", "glacier", "pepper", "canyon", "saddle", "quartz", "meadow",
         "falcon", "tunnel", "ribbon", "marble", "cactus", "anchor", "summit", "lantern", "walnut", "thunder")
QUERY = "lighthouse keeper lamp oil"


def lighthouse(expires: str) -> str:
    return (f"---\ntitle: Lighthouse\nlayer: L3\ntags: [coast]\nexpires_at: {expires}\n---\n"
            "The lighthouse keeper refills the lamp oil every evening.\n")


def many_notes(write_note: Callable[..., Path], count: int = CANDIDATES_MIN + 20) -> None:
    """More notes than a side's pool: the vector side asks the snapshot and the table, not an exact scan."""
    for number in range(count):
        words = " ".join(WORDS[(number * step) % len(WORDS)] for step in (1, 3, 7))
        settled(write_note(f"notes/note-{number:03}.md", f"---\nlayer: L{1 + number % 4}\n---\nA note about {words}, number {number}.\n"))
    settled(write_note("Lighthouse.md", lighthouse("2027-03-01")))


def settled(path: Path, age: int = 600) -> Path:
    """The file as if written ``age`` seconds ago: a file written within its timestamp's tick is
    read again by every search that hits it (indexer.settled_stat), a write each time."""
    moment = time.time() - age
    os.utime(path, (moment, moment))
    return path


def read_table(store: Store) -> PassageTable:
    with store.read_snapshot():
        return PassageTable.read(store, store.change_token())


def test_alive_mask_is_the_expiry_rule_at_its_boundary() -> None:
    now = 1_000_000
    expires = np.array([now - 1, now, now + 1, 0], dtype=np.int64)
    never = np.array([False, False, False, True])
    expected = [not is_expired_us(None if no_expiry else int(value), now) for value, no_expiry in zip(expires, never, strict=True)]
    assert alive_mask(expires, never, now).tolist() == expected == [False, False, True, True]  # expiring at now is expired


def test_the_table_answers_as_sqlite_for_every_filter(vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> None:
    many_notes(write_note, 30)
    write_note("Gone.md", lighthouse("2026-01-01"))  # expired at NOW
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        store = vault.store
        table, sql = read_table(store), SqlOwners(store)
        passages = [*store.passages.labels_of(store.notes.all_eligible_labels(Eligibility(0, include_expired=True))), 10**9]
        lighthouse_row = store.notes.by_path("Lighthouse.md")
        assert lighthouse_row is not None and lighthouse_row.expires_us is not None
        filters = [search_filters(None, None, False, NOW), search_filters(None, None, True, NOW),
                   search_filters(["L2", "L3"], None, False, NOW), search_filters(None, ["coast"], False, NOW),
                   search_filters(None, None, False, NOW, since="2020-01-01"),
                   Eligibility(lighthouse_row.expires_us),  # the instant it expires: expired
                   Eligibility(lighthouse_row.expires_us - 1)]
        for eligibility in filters:
            assert table.owners_passing(passages, eligibility) == sql.owners_passing(passages, eligibility), eligibility
        for match in ('"lighthouse"', '"note" OR "harbor"', '"number"'):
            for eligibility in filters:
                ours, theirs = table.fts_passing(match, 40, eligibility), sql.fts_passing(match, 40, eligibility)
                assert sorted(ours[0], key=str) == sorted(theirs[0], key=str) and ours[1] == theirs[1]
        notes = [*reversed(store.notes.all_eligible_labels(Eligibility(0, include_expired=True))), 10**9, 1]
        for ours, theirs in zip(table.pairs_of(notes), sql.pairs_of(notes), strict=True):
            assert ours.tolist() == theirs.tolist()  # the same pairs in the same order
        assert table.counts(notes) == sql.counts(notes)
        assert table.count_array(np.array(notes)).tolist() == sql.count_array(np.array(notes)).tolist()
        assert sorted(set(table.count_array(np.array(notes)).tolist())) == [0, 1]  # 10**9 and 1 have none
        assert table.paths_by_labels(notes) == sql.paths_by_labels(notes) and "Lighthouse.md" in table.paths_by_labels(notes).values()
        assert [table.fewer_notes_than(count) for count in (31, 32, 33)] == [sql.fewer_notes_than(count) for count in (31, 32, 33)]


def test_a_state_looked_up_a_few_times_is_asked_of_sqlite_then_read_once(vault_dir: Path, write_note: Callable[..., Path],
                                                                         wordllama: object) -> None:
    many_notes(write_note, 5)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        tables = PassageTables(vault.store)
        asked = [tables.current() for _ in range(READ_AFTER_LOOKUPS)]
        assert all(isinstance(owners, SqlOwners) for owners in asked) and tables.reads == 0
        assert all(isinstance(tables.current(), PassageTable) for _ in range(5)) and tables.reads == 1  # no change: read once
        write_note("New.md", "A new note about kelp forests.\n")
        vault.index()
        assert isinstance(tables.current(), SqlOwners)  # the index changed: the table read before is not used
        for _ in range(READ_AFTER_LOOKUPS):
            owners = tables.current()
        assert isinstance(owners, PassageTable) and tables.reads == 2
        new = vault.store.notes.by_path("New.md")
        assert new is not None and new.label in owners.notes.tolist()


def test_an_expiry_written_into_a_file_is_seen_by_the_next_search_once_the_table_is_in_use(
        vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> None:
    many_notes(write_note)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        before = [vault.search(QUERY, k=5, now=NOW) for _ in range(READ_AFTER_LOOKUPS)]
        tables = vault.derived.searcher().passage_table
        assert tables.reads == 1  # the table is read and answers the vector side from here on
        assert before[0][0].path == "Lighthouse.md" and before[0][0].match == "both"
        assert all([hit.as_dict() for hit in hits] == [hit.as_dict() for hit in before[0]] for hits in before)  # SQL = table
        settled(write_note("Lighthouse.md", lighthouse("2026-01-01")), age=300)  # expired at NOW; same text and vectors
        assert "Lighthouse.md" not in [hit.path for hit in vault.search(QUERY, k=5, now=NOW)]
        for _ in range(READ_AFTER_LOOKUPS):
            hits = vault.search(QUERY, k=5, now=NOW)
            assert "Lighthouse.md" not in [hit.path for hit in hits]
        assert tables.reads == 2
        shown = vault.search(QUERY, k=5, now=NOW, include_expired=True)
        assert shown[0].path == "Lighthouse.md" and shown[0].expired


def test_a_note_written_after_the_table_was_read_is_found_by_meaning_at_once(
        vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> None:
    many_notes(write_note)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        for _ in range(READ_AFTER_LOOKUPS):
            vault.search(QUERY, k=5, now=NOW)
        assert vault.derived.searcher().passage_table.reads == 1
        settled(write_note("Beacon.md", "The harbour beacon's lamp burns paraffin oil; the keeper trims its wick at dusk.\n"))
        hits = vault.search("beacon lamp paraffin wick", k=5, now=NOW)
        assert hits[0].path == "Beacon.md" and hits[0].match == "both"  # its passages' note is known to the vector side


def test_a_note_renamed_on_disk_is_named_by_its_new_path_in_the_candidates_once_the_table_is_in_use(
        vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> None:
    """The candidates' paths (their order's ties, sync copies under their originals) come from the
    table once it is read: a file renamed between two searches is named by its new path at the
    next, then and after the table is read again."""
    many_notes(write_note)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        searcher = vault.derived.searcher()
        eligibility = search_filters(None, None, False, NOW)
        for _ in range(READ_AFTER_LOOKUPS):
            vault.search(QUERY, k=5, now=NOW)
        assert searcher.passage_table.reads == 1
        row = vault.store.notes.by_path("Lighthouse.md")
        assert row is not None and row.label is not None
        assert searcher.candidates(QUERY, 5, eligibility).paths[row.label] == "Lighthouse.md"
        (vault_dir / "Coast").mkdir()
        os.rename(vault_dir / "Lighthouse.md", vault_dir / "Coast" / "Lighthouse keeper.md")
        for _ in range(READ_AFTER_LOOKUPS):  # answered from SQL, then from the table read again
            assert vault.search(QUERY, k=5, now=NOW)[0].path == "Coast/Lighthouse keeper.md"
            found = searcher.candidates(QUERY, 5, eligibility)
            assert found.paths[found.fused[0].label] == "Coast/Lighthouse keeper.md"
            assert "Lighthouse.md" not in found.paths.values()
        assert searcher.passage_table.reads == 2


def test_a_note_indexed_by_another_connection_drops_the_table(vault_dir: Path, write_note: Callable[..., Path],
                                                               wordllama: object) -> None:
    """Another process's commit (a watcher, `vaultmem index`) moves SQLite's data_version, not this
    connection's own count of changes: the table read before is dropped all the same."""
    many_notes(write_note, 5)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        tables = PassageTables(vault.store)
        for _ in range(READ_AFTER_LOOKUPS + 1):
            tables.current()
        assert tables.reads == 1
        write_note("Kelp.md", "Kelp forests grow in cold water.\n")
        with Vault(vault_dir, embedder=wordllama) as other:  # type: ignore[arg-type]
            other.index()
        for _ in range(READ_AFTER_LOOKUPS + 1):
            owners = tables.current()
        kelp = vault.store.notes.by_path("Kelp.md")
        assert tables.reads == 2 and isinstance(owners, PassageTable) and kelp is not None
        assert kelp.label in owners.notes.tolist() and owners.counts([kelp.label]) == {kelp.label: 1}


def speaker_turn(speaker: str) -> str:
    return f"---\nspeaker: {speaker}\nlayer: L4\n---\nThe plan is to visit the harbor market on Saturday.\n"


def test_properties_are_asked_of_sqlite_once_a_state_and_again_after_any_edit(
        vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> None:
    """The property bonus's texts (PassageTables.properties_of) are SQLite's for the state the search
    reads: kept while nothing changes (one SQL look-up for a note, however many searches ask), read
    again after a file edited on disk, a note indexed by another Vault and one by another process."""
    many_notes(write_note, 5)
    settled(write_note("Turn.md", speaker_turn("Ben")))
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        searcher = vault.derived.searcher()
        tables, store = searcher.passage_table, vault.store
        eligibility = search_filters(None, None, False, NOW)
        labels = store.notes.all_eligible_labels(Eligibility(0, include_expired=True))
        turn = store.notes.by_path("Turn.md")
        assert turn is not None and turn.label is not None

        def valued(query: str) -> bool:
            return turn.label in searcher.candidates(query, 5, eligibility).valued

        assert tables.properties_of(labels) == store.passages.properties_of(labels)
        assert "speaker: Ben" in tables.properties_of(labels)[turn.label]
        asked = tables.properties_asked
        assert asked == len(labels)
        assert tables.properties_of([*reversed(labels), turn.label]) == store.passages.properties_of(labels)
        assert valued("what did Ben plan at the harbor market") and tables.properties_asked == asked  # nothing changed: kept

        settled(write_note("Turn.md", speaker_turn("Carla")), age=300)  # edited by hand
        hits = vault.search("what did Carla plan at the harbor market", k=3, now=NOW)
        assert hits[0].path == "Turn.md"
        assert valued("what did Carla plan at the harbor market") and not valued("what did Ben plan at the harbor market")
        assert "speaker: Carla" in tables.properties_of([turn.label])[turn.label]

        settled(write_note("Turn.md", speaker_turn("Dana")), age=200)
        with Vault(vault_dir, embedder=wordllama) as other:  # type: ignore[arg-type]
            other.index()  # another connection commits: this Vault has not looked at the files since
        assert tables.properties_of([turn.label]) == store.passages.properties_of([turn.label])
        assert "speaker: Dana" in tables.properties_of([turn.label])[turn.label]

        settled(write_note("Turn.md", speaker_turn("Emil")), age=100)
        indexed = vaultmem_process(vault_dir, "index")
        assert indexed.returncode == 0, indexed.stderr
        assert "speaker: Emil" in tables.properties_of([turn.label])[turn.label]
        assert valued("what did Emil plan at the harbor market") and not valued("what did Dana plan at the harbor market")


def test_the_table_counts_a_days_passages_for_chance_without_its_fact_pieces_as_sqlite_does(
        vault_dir: Path, write_note: Callable[..., Path], wordllama: object) -> None:
    """A day of three short paragraphs has four passages (its whole and a piece a paragraph); the
    vector side lowers it for one (ranking.chance_lowering), from the table as from SQLite."""
    many_notes(write_note, 3)
    write_note("Daily/2026-12-02.md", "Dentist moved to Friday at 10, bring the insurance card.\n\n"
                                      "Lena recommended the book Piranesi, says the ending is worth it.\n\n"
                                      "Parked on level 3, row F at the airport garage.\n")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        store = vault.store
        table, sql = read_table(store), SqlOwners(store)
        day = store.notes.by_path("Daily/2026-12-02.md")
        assert day is not None and day.label is not None
        notes = [*store.notes.all_eligible_labels(Eligibility(0, include_expired=True)), 10**9]
        assert table.counts([day.label]) == {day.label: 4}
        assert table.chance_counts(notes) == sql.chance_counts(notes) and table.chance_counts([day.label]) == {day.label: 1}
        assert table.chance_count_array(np.array(notes)).tolist() == sql.chance_count_array(np.array(notes)).tolist()
        assert table.chance_count_array(np.array([day.label, 10**9])).tolist() == [1, 0]
