"""The derived store: its schema steps, and what a rebuild drops and keeps (real SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import many_notes

from vaultmem.errors import DerivedIndexError
from vaultmem.storage import REBUILDING, Store, UsageRow
from vaultmem.storage.migrations import MIGRATIONS, migration
from vaultmem.storage.passages import BM25_WEIGHTS

# The names indexes on users' disks have recorded: a step is never renamed once released.
RELEASED = ["001_notes", "002_fts", "003_vectors", "004_meta", "005_usage", "006_vector_tombstones"]


def test_a_step_is_named_by_its_function_and_released_names_never_change() -> None:
    assert [step.name for step in MIGRATIONS][: len(RELEASED)] == RELEASED
    assert [step.step.__name__ for step in MIGRATIONS][: len(RELEASED)] == ["m" + name for name in RELEASED]


def test_a_step_defined_twice_is_refused() -> None:
    count = len(MIGRATIONS)

    def m002_fts(db: object) -> None:
        raise AssertionError("never run")

    with pytest.raises(ValueError, match="002_fts is defined twice"):
        migration("notes_fts")(m002_fts)  # type: ignore[arg-type]
    assert len(MIGRATIONS) == count


def test_opening_an_index_records_every_step_once(tmp_path: Path) -> None:
    Store(tmp_path / ".vaultmem").close()
    store = Store(tmp_path / ".vaultmem")  # the second open applies nothing
    names = [row[0] for row in store.db.execute("SELECT name FROM _migrations ORDER BY name")]
    store.close()
    assert names == sorted(step.name for step in MIGRATIONS)


def test_an_index_written_by_a_newer_vaultmem_is_refused_with_the_fix(tmp_path: Path) -> None:
    store = Store(tmp_path / ".vaultmem")
    store.db.execute("INSERT INTO _migrations (name, applied_at) VALUES ('999_future', 'later')")
    store.close()
    with pytest.raises(DerivedIndexError, match=r"newer vaultmem.*999_future.*upgrade vaultmem"):
        Store(tmp_path / ".vaultmem")


def test_a_newer_index_is_not_sent_to_a_rebuild_that_is_refused_the_same_way(tmp_path: Path) -> None:
    # Was: "upgrade vaultmem or run `vaultmem index --rebuild`" — and the rebuild opens the index
    # through the same check, so it failed with those very words: the advice went in a circle.
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder
    from vaultmem.option_names import Surface

    store = Store(tmp_path / ".vaultmem")
    store.db.execute("INSERT INTO _migrations (name, applied_at) VALUES ('999_future', 'later')")
    store.close()
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault, pytest.raises(DerivedIndexError) as caught:
        vault.index(rebuild=True)
    said = {surface: caught.value.spelled(surface) for surface in Surface}
    assert all("newer vaultmem" in text and "--rebuild" not in text for text in said.values()), said
    # Was `pip install -U vaultmem`: vaultmem is installed from its clone (README), and the package
    # index holds no vaultmem of ours — the advice fetched nothing, or someone else's package.
    assert ("which this one cannot read, nor rebuild; upgrade vaultmem (`git pull && pip install -e .` in the clone "
            "it is installed from).") in said[Surface.CLI]
    assert all("pip install -U" not in text for text in said.values()), said
    assert "ask the person to upgrade vaultmem and restart the MCP server" in said[Surface.MCP]
    assert "save the usage history with the newer one (`vaultmem usage export`)" in said[Surface.CLI]


def test_dropping_the_derived_tables_keeps_usage_history(tmp_path: Path) -> None:
    store = Store(tmp_path / ".vaultmem")
    with store.transaction():
        store.usage.replace([UsageRow("note-a", 3, "2026-11-30T12:00:00+00:00", 1)])
        store.vectors.put([7], [b"\0" * 8])
        store.meta.set("embedder", "hashing")
    store.drop_derived("reader-9/recipe")
    assert store.usage.all() == [UsageRow("note-a", 3, "2026-11-30T12:00:00+00:00", 1)]
    assert store.vectors.max_seq() == 0 and store.notes.count() == 0
    assert store.meta.get("embedder") is None
    assert store.meta.get("indexed") == REBUILDING  # until the rebuild's own pass completes
    assert store.meta.get("reader") == "reader-9/recipe"  # the rules its rows will be made under
    store.close()


def test_a_snapshot_name_is_published_only_over_the_one_expected(tmp_path: Path) -> None:
    store = Store(tmp_path / ".vaultmem")
    assert store.vectors.swap_snapshot(None, "vectors-1.hnsw", 5, 0)
    assert not store.vectors.swap_snapshot(None, "vectors-2.hnsw", 6, 0)  # another writer won
    snapshot = store.vectors.snapshot()
    assert (snapshot.file, snapshot.seq, snapshot.deleted) == ("vectors-1.hnsw", 5, 0)
    assert store.vectors.swap_snapshot("vectors-1.hnsw", None, 0, 0)
    assert store.vectors.snapshot().file is None
    store.close()


def test_a_notes_full_text_scores_are_asked_by_one_range_not_one_value_per_passage(tmp_path: Path) -> None:
    # A trial: a search whose hits were pasted changelogs (1,000 passages each) took 12 s, since
    # FTS5 evaluated the MATCH once per value of `rowid IN (…)` (benchmarks: 13.0 s → 0.9 s).
    # What the store asks SQLite is counted, not timed: one range of rowids per run of the note's passages.
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    line = "A pasted changelog line about streams, buffers and a fixed regression in the parser.\n\n"
    (tmp_path / "huge.md").write_text(line * 4_000, encoding="utf-8")
    (tmp_path / "small.md").write_text("a small note about the parser\n", encoding="utf-8")
    match = "{headings body} : (parser OR regression)"
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        row = vault.store.notes.by_path("huge.md")
        assert row is not None
        assert row.label is not None
        passages = vault.store.passages
        labels = passages.labels_of([row.label])
        assert len(labels) > 200
        asked: list[str] = []
        vault.store.db.conn.set_trace_callback(asked.append)
        try:
            scores = passages.fts_scores(match, labels)
        finally:
            vault.store.db.conn.set_trace_callback(None)
        everywhere = dict(vault.store.db.execute(
            "SELECT rowid, bm25(passages_fts) FROM passages_fts WHERE passages_fts MATCH ?", [match]).fetchall())
    matched = [statement for statement in asked if "MATCH" in statement]
    assert len(matched) == 1, matched  # the note's passages are one run: one evaluation
    assert " IN (" not in matched[0]
    assert set(scores) == set(labels)
    assert scores == {label: -everywhere[label] for label in labels}  # the scores one evaluation of the whole table gives


def test_full_text_scores_of_a_few_scattered_passages_are_asked_in_one_statement(tmp_path: Path) -> None:
    # A search asks the scores of each hit's best passages, a label here and there: a statement a
    # label (one range each) cost a search at 10,000 notes 2 ms more than one statement for all.
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    for number in range(300):
        (tmp_path / f"note-{number}.md").write_text(f"# Note {number}\n\nThe parser fixed regression {number}.\n",
                                                    encoding="utf-8")
    match = "{headings body} : (parser OR regression)"
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages = vault.store.passages
        every = sorted(label for row in vault.store.notes.all() if row.label is not None
                       for label in passages.labels_of([row.label]))
        scattered = every[::80]  # each more than RUN_GAP labels from the next: runs of one
        assert len(scattered) >= 3
        asked: list[str] = []
        vault.store.db.conn.set_trace_callback(asked.append)
        try:
            scores = passages.fts_scores(match, scattered)
        finally:
            vault.store.db.conn.set_trace_callback(None)
    assert len([statement for statement in asked if "MATCH" in statement]) == 1, asked
    assert set(scores) == set(scattered)


def test_full_text_scores_of_scattered_passages_evaluate_the_match_once(tmp_path: Path) -> None:
    # By `rowid IN (…)` FTS5 evaluated the MATCH once a label — each time looking its term up in
    # the index anew (its own statements, "--"): 0.67 ms of a search at 10,000 notes, 0.35 by one
    # evaluation over the labels' span that scores only the rows asked for.
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    for number in range(300):
        (tmp_path / f"note-{number}.md").write_text(f"# Note {number}\n\nThe parser fixed regression {number}.\n",
                                                    encoding="utf-8")
    match = "{headings body} : (parser)"
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages = vault.store.passages
        every = sorted(label for row in vault.store.notes.all() if row.label is not None
                       for label in passages.labels_of([row.label]))
        scattered = every[::80]  # each more than RUN_GAP labels from the next: runs of one
        assert len(scattered) >= 3

        def term_lookups(labels: list[int]) -> tuple[int, dict[int, float]]:
            asked: list[str] = []
            vault.store.db.conn.set_trace_callback(asked.append)
            try:
                scores = passages.fts_scores(match, labels)
            finally:
                vault.store.db.conn.set_trace_callback(None)
            return len([statement for statement in asked if statement.startswith("--") and "passages_fts_idx" in statement]), scores

        one, alone = term_lookups(scattered[:1])
        lookups, scores = term_lookups(scattered)
    assert one >= 1 and lookups == one  # as many as for one label: one evaluation
    assert set(scores) == set(scattered) and scores[scattered[0]] == alone[scattered[0]]


def test_full_text_scores_are_asked_by_runs_of_near_labels_and_keep_only_those_asked() -> None:
    from vaultmem.storage.passages import label_runs

    assert list(label_runs([1, 2, 3, 60, 200, 201], gap=64)) == [(1, 60), (200, 201)]
    assert list(label_runs([7])) == [(7, 7)]
    assert list(label_runs([])) == []


def test_full_text_scores_of_scattered_passages_match_each_passage_alone(tmp_path: Path) -> None:
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    for number in range(200):
        topic = "parser" if number % 3 == 0 else "garden"
        (tmp_path / f"n{number:03d}.md").write_text(f"# Note {number}\n\nabout the {topic} number {number}\n", encoding="utf-8")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages = vault.store.passages
        every = passages.labels_of([row.label for row in vault.store.notes.all() if row.label is not None])
        asked = every[::7]  # scattered: runs with gaps, and rows between them that match but were not asked
        match = "{headings body} : (parser)"
        together = passages.fts_scores(match, asked)
        alone = {label: score for one in asked for label, score in passages.fts_scores(match, [one]).items()}
    assert together and together == alone
    assert set(together) <= set(asked)



def test_which_passages_hold_a_word_is_asked_without_bm25_and_answers_as_the_scores_keys(tmp_path: Path) -> None:
    # The rarest word's check, the passage past a note's name and a judged note's words ask only
    # whether rows match: bm25 (its idf counted over each phrase's whole doclist, then a score a
    # row) cost a search at 10,000 notes ~0.7 ms for scores never read (benchmarks/README.md, s42).
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    line = "A pasted changelog line about streams and a fixed regression in the parser.\n\n"
    (tmp_path / "huge.md").write_text(line * 400, encoding="utf-8")
    for number in range(200):
        topic = "parser" if number % 3 == 0 else "garden"
        (tmp_path / f"n{number:03d}.md").write_text(f"# Note {number}\n\nabout the {topic} number {number}\n", encoding="utf-8")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages = vault.store.passages
        huge = vault.store.notes.by_path("huge.md")
        assert huge is not None and huge.label is not None
        run = passages.labels_of([huge.label])  # one range
        scattered = passages.labels_of([row.label for row in vault.store.notes.all()
                                        if row.label is not None and row.label != huge.label])[::7]
        asked_labels = [*run, *scattered]
        match = "{headings body} : (parser)"
        statements: list[str] = []
        vault.store.db.conn.set_trace_callback(statements.append)
        try:
            holding = passages.fts_holding(match, asked_labels)
            scores = passages.fts_scores(match, asked_labels)
        finally:
            vault.store.db.conn.set_trace_callback(None)
    matched = [statement for statement in statements if "MATCH" in statement]
    by_holding = [statement for statement in matched if "bm25" not in statement]
    # The same statements as the scores' (a range a run, one for the scattered labels), without bm25.
    assert [statement.replace(f", {_bm25()}", "") for statement in matched if "bm25" in statement] == by_holding
    assert 1 <= len(by_holding) <= 2
    assert holding == set(scores)
    assert set(run) <= holding and any(label not in holding for label in scattered)

def _filtered_vault(root: Path) -> None:
    from helpers import write_file

    write_file(root, "kept.md", "---\nlayer: L3\n---\nThe parser fixed a regression in the buffers.\n\n## More\n\nThe parser again.\n")
    write_file(root, "expired.md", "---\nlayer: L3\nexpires_at: 2020-01-01\n---\nThe parser of an expired memory.\n")
    write_file(root, "other-layer.md", "---\nlayer: L1\n---\nThe parser of another layer.\n")


@pytest.mark.parametrize("layers", [None, ["L3"]])
def test_passages_owners_and_their_notes_filters_come_from_one_statement(tmp_path: Path, layers: list[str] | None) -> None:
    # The vector side of a search asked the notes of its 400 nearest passages, then which of those
    # notes pass the filters: two lists of several hundred labels (0.25 ms of a search at 10,000 notes).
    from helpers import NOW

    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder
    from vaultmem.search import search_filters

    _filtered_vault(tmp_path)
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages, notes = vault.store.passages, vault.store.notes
        eligibility = search_filters(layers, None, False, NOW)
        labels = [label for row in notes.all() if row.label is not None for label in passages.labels_of([row.label])]
        labels.append(max(labels) + 1000)  # no such passage: left out, as owners leaves it
        asked: list[str] = []
        vault.store.db.conn.set_trace_callback(asked.append)
        try:
            owners, eligible = passages.owners_passing(labels, eligibility)
        finally:
            vault.store.db.conn.set_trace_callback(None)
        assert len([statement for statement in asked if not statement.startswith("--")]) == 1, asked  # "--": FTS5's own
        assert owners == passages.owners(labels)
        assert eligible == notes.eligible_labels(list(set(owners.values())), eligibility)
        kept = {row.label for row in notes.all() if row.path == "kept.md"}
        assert eligible == kept or (layers is None and len(eligible) == 2)  # expired never; another layer only unfiltered


@pytest.mark.parametrize("layers", [None, ["L3"]])
def test_full_text_rows_and_their_notes_filters_come_from_one_statement(tmp_path: Path, layers: list[str] | None) -> None:
    from helpers import NOW

    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder
    from vaultmem.search import search_filters

    _filtered_vault(tmp_path)
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages, notes = vault.store.passages, vault.store.notes
        eligibility = search_filters(layers, None, False, NOW)
        asked: list[str] = []
        vault.store.db.conn.set_trace_callback(asked.append)
        try:
            rows, eligible = passages.fts_passing('"parser"', 3, eligibility)
        finally:
            vault.store.db.conn.set_trace_callback(None)
        assert len([statement for statement in asked if not statement.startswith("--")]) == 1, asked  # "--": FTS5's own
        alone = passages.fts('"parser"', 3)
        assert sorted((row.label, row.note_label, row.score) for row in rows) == sorted(
            (row.label, row.note_label, row.score) for row in alone)
        assert len(rows) == 3  # the limit holds before the join
        assert eligible == notes.eligible_labels(list({row.note_label for row in rows}), eligibility)


def test_a_connection_keeps_the_pages_a_search_reads_in_its_cache(tmp_path: Path) -> None:
    # SQLite's default page cache (2 MiB) is smaller than what a search reads at 10,000 notes:
    # each search read most of its pages again from the OS (PAGE_CACHE_KIB).
    store = Store(tmp_path / ".vaultmem")
    try:
        assert store.db.execute("PRAGMA cache_size").fetchone()[0] == -65536
    finally:
        store.close()


# -- freed pages (adr/0013, addendum of stop 36)



def _pages(store: Store) -> tuple[int, int]:
    """(page_count, freelist_count) of the store's file."""
    return (int(store.db.execute("PRAGMA page_count").fetchone()[0]),
            int(store.db.execute("PRAGMA freelist_count").fetchone()[0]))


def _answers(vault: object, queries: list[str]) -> list[list[tuple[str, float]]]:
    return [[(hit.path, round(hit.score, 9)) for hit in vault.search(query, k=5)] for query in queries]  # type: ignore[attr-defined]


def test_index_after_deleting_most_notes_shrinks_the_file_and_answers_as_a_fresh_index(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: SQLite kept every freed page in index.db — a vault that lost half its notes kept an
    # index of the old size for ever (stop 35: .vaultmem/ ~6x the notes of a big vault).
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder
    from vaultmem.storage import reclaim

    monkeypatch.setattr(reclaim, "RECLAIM_MIN_FREE_PAGES", 16)  # a small vault frees less than 4 MiB
    vault_dir = tmp_path / "vault"
    notes = many_notes(vault_dir, 120)
    queries = ["harbour3 lantern4", "zq7x", "zq100x", "granite meadow"]
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        pages_before, _free = _pages(vault.store)
        for path in notes[:90]:
            path.unlink()
        vault.index()
        pages_after, free_after = _pages(vault.store)
        answers = _answers(vault, queries)
    db = vault_dir / ".vaultmem" / "index.db"
    assert free_after == 0
    assert pages_after < pages_before * 0.6, (pages_before, pages_after)
    assert db.stat().st_size == pages_after * 4096  # the file itself shrank, not only the page count
    for path in (vault_dir / ".vaultmem").iterdir():  # deleting .vaultmem and indexing again: the same answers
        path.unlink()
    (vault_dir / ".vaultmem").rmdir()
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert _answers(vault, queries) == answers
        assert any(answers), "the queries find something"



# -- the any-word pass (storage/passages.py PassageStore._best_of_any; benchmarks/README.md, stop 41 perfor)

_ANY_OLD = (f"SELECT rowid, bm25(passages_fts, {BM25_WEIGHTS}) AS score "
            "FROM passages_fts WHERE passages_fts MATCH ? ORDER BY score LIMIT ?")  # the statement before stop 41


def _any_word_vault(root: Path, decide_in: int, in_titles: bool) -> None:
    """100 one-passage notes: "decide" in the first ``decide_in`` (in their names too when
    ``in_titles``: weight 5), "kettle" and "ferry" in 10 and 9 others, once each; notes 70–99 alike but
    for their titles' numbers (equal scores)."""
    filler = " ".join(f"filler{number % 9}" for number in range(30))
    for number in range(100):
        words = ["decide"] if number < decide_in else []
        if 40 <= number < 48 or number in (3, 5):
            words.append("kettle")
        if 48 <= number < 56 or number == 7:
            words.append("ferry")
        title = f"Decide {number}" if in_titles and number < decide_in else f"Note {number}"
        (root / f"{title.lower().replace(' ', '-')}.md").write_text(f"# {title}\n\n{filler} {' '.join(words)}\n", encoding="utf-8")


def _any_word_rows(root: Path, match: str, limit: int) -> tuple[list[tuple[int, float]], list[tuple[int, float]], list[str], list[int]]:
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        passages = vault.store.passages
        asked: list[str] = []
        vault.store.db.conn.set_trace_callback(asked.append)
        try:
            best = passages.fts_best(match, limit)
        finally:
            vault.store.db.conn.set_trace_callback(None)
        before = [(int(label), -float(score)) for label, score in vault.store.db.execute(_ANY_OLD, [match, limit])]
        others = [int(row[0]) for row in vault.store.db.execute(
            "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?", ['"kettle" OR "ferry"'])]
    return best, before, asked, others


def test_the_any_word_pass_leaves_out_the_rows_holding_only_its_commonest_word_and_answers_the_same(tmp_path: Path) -> None:
    _any_word_vault(tmp_path, decide_in=60, in_titles=False)
    best, before, asked, _ = _any_word_rows(tmp_path, '"decide" OR "kettle" OR "ferry"', 10)
    assert sorted(best) == sorted(before) and len(best) == 10  # the same rows, the same scores to the last bit
    assert not any(" NOT (" in statement for statement in asked), asked  # the "decide"-only rows were never scored


def test_the_any_word_pass_scores_the_commonest_words_rows_when_they_can_reach_the_cut(tmp_path: Path) -> None:
    # "decide" in 20 names (weight 5) scores above the rows saying "kettle" or "ferry" once.
    _any_word_vault(tmp_path, decide_in=20, in_titles=True)
    best, before, asked, kettle_or_ferry = _any_word_rows(tmp_path, '"decide" OR "kettle" OR "ferry"', 10)
    assert sorted(best) == sorted(before) and len(best) == 10
    assert any(" NOT (" in statement for statement in asked), asked
    assert {label for label, _ in best} - set(kettle_or_ferry)  # rows holding only "decide" made the cut


@pytest.mark.parametrize("limit", [3, 12, 20, 45])
def test_equal_scores_at_the_any_word_pass_cut_keep_the_rows_kept_before(tmp_path: Path, limit: int) -> None:
    # The 30 notes alike (70–99) tie with each other; the cut falls among them at some limits.
    _any_word_vault(tmp_path, decide_in=60, in_titles=False)
    best, before, _, _ = _any_word_rows(tmp_path, '"decide" OR "kettle" OR "ferry" OR "filler3"', limit)
    assert sorted(best) == sorted(before) and len(best) == limit


def test_properties_and_bodies_read_from_the_full_texts_content_table_are_the_virtual_tables(tmp_path: Path) -> None:
    # Read by id from passages_fts_content (a B-tree look-up, ~3x cheaper than a cursor of the
    # virtual table a row): its cN columns must be the declared columns in their order.
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder
    from vaultmem.storage.passages import FTS_COLUMNS

    for number in range(30):
        (tmp_path / f"n{number:02d}.md").write_text(
            f"---\nauthor: Writer {number}\nstatus: draft\n---\n# Note {number}\n\nthe parser {number}\n\n## More\n\n"
            + "a longer section of words " * 60 + "\n", encoding="utf-8")
    with Vault(tmp_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        db = vault.store.db
        declared = tuple(row[1] for row in db.execute("PRAGMA table_info(passages_fts)").fetchall())
        notes = [row.label for row in vault.store.notes.all() if row.label is not None]
        labels = vault.store.passages.labels_of(notes)
        properties = vault.store.passages.properties_of(notes)
        bodies = vault.store.passages.bodies(labels)
        through_fts = {int(row[0]): str(row[1]) for row in db.execute(
            "SELECT passages.note_label, passages_fts.props FROM passages JOIN passages_fts ON passages_fts.rowid = passages.label "
            "WHERE passages.number = 0").fetchall() if row[1]}
        bodies_fts = {int(row[0]): str(row[1]) for row in db.execute("SELECT rowid, body FROM passages_fts").fetchall()}
    assert declared == FTS_COLUMNS
    assert len(properties) == 30 and properties == through_fts
    assert len(labels) > 30 and bodies == {label: bodies_fts[label] for label in labels if label in bodies_fts}


def _bm25() -> str:
    from vaultmem.storage.passages import _BM25

    return _BM25
