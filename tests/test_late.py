"""Late interaction (vaultmem/late.py): passages' token ids stored with their vectors, kept in
step with the files, and the MaxSim part of a note's fused value — as search and explain see it.

Real files in tmp_path, the real index (SQLite, hnswlib) and the real default embedder.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from pydoc_data.topics import topics

import numpy as np
from helpers import NOW, REAL_VAULTS, WatchProcess, copy_sample_vault, wait_until

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.late import LATE_TEXT_CAP, LATE_WEIGHT, blob_to_ids, lifts, maxsims

STORY = """---
categories:
  - "[[Books]]"
genre:
  - "[[Sci-fi]]"
---

## Quotes

Would she make an engagement to visit the public nurseries at an early date? She could not
visit the public nurseries through press of engagements. The room was filled with the noise of bells.
"""

SHOW = """---
categories:
  - "[[Shows]]"
genre:
  - "[[Sci-fi]]"
rating: 7
---
"""


def _stored(root: Path) -> dict[tuple[str, int], bytes]:
    """Each passage's stored ids, by its note's path and its number in the note."""
    with sqlite3.connect(root / ".vaultmem" / "index.db") as db:
        rows = db.execute("SELECT n.path, p.number, t.ids FROM passage_tokens t JOIN passages p ON p.label = t.label "
                          "JOIN notes n ON n.label = p.note_label").fetchall()
    return {(str(path), int(number)): bytes(ids) for path, number, ids in rows}


def _passages(root: Path) -> int:
    with sqlite3.connect(root / ".vaultmem" / "index.db") as db:
        return int(db.execute("SELECT count(*) FROM passages").fetchone()[0])


def test_a_piece_inside_a_longer_word_is_not_that_word(wordllama: object) -> None:
    # Was (PASSAGES.md §25): "nurseries" is "▁nur" + "series", and the piece "series" scored .85
    # against the query's "series", lifting a story above the show asked for (kepano's Futurama 3 → 4).
    table = wordllama.token_table()  # type: ignore[attr-defined]
    query, story, show = wordllama.token_ids(["series", "visit the public nurseries", "categories: shows"])  # type: ignore[attr-defined]
    pieces = [wordllama._model.tokenizer.id_to_token(int(token)) for token in story]  # type: ignore[attr-defined]
    assert "series" not in pieces and all(piece.startswith("▁") for piece in pieces)
    story_score, show_score = maxsims(table, query, [story, show])
    assert story_score < 0.5 and show_score > story_score


def test_maxsim_of_a_passage_is_the_mean_of_each_query_tokens_best_cosine(wordllama: object) -> None:
    table = wordllama.token_table()  # type: ignore[attr-defined]
    query, passage = wordllama.token_ids(["oat milk coffee", "she drinks coffee with oat milk"])  # type: ignore[attr-defined]
    unit = table.vectors / table.norms[:, None]
    expected = float((unit[query.astype(int)] @ unit[passage.astype(int)].T).max(axis=1).mean())
    found = maxsims(table, query, [passage, np.zeros(0, dtype=np.uint16)])
    assert abs(float(found[0]) - expected) < 1e-5 and abs(expected - 1.0) < 1e-5  # every word held: 1
    assert float(found[1]) == 0.0  # a passage with no kept token scores 0, not NaN


def test_lifts_are_the_weighted_z_scores_and_nothing_when_all_are_equal() -> None:
    assert lifts({1: (0.5, None), 2: (None, 0.5)}) == {1: 0.0, 2: 0.0}
    found = lifts({1: (0.2, 0.1), 2: (0.4, None), 3: (None, None)}, weight=0.4)
    assert abs(found[1] + 0.4) < 1e-9 and abs(found[2] - 0.4) < 1e-9 and 3 not in found


def test_the_keyword_sides_pick_lifts_a_note_no_more_than_the_cap_beyond_its_vector_sides_pick() -> None:
    """PASSAGES.md §29: the text side's pick holds the query's words (chosen for them among
    all of a note's passages: of a pasted book's 2,000, one holds them all) and got them back at
    cosine ~1 — the text side's evidence counted twice. Its lift stops at weight × cap, or at
    what the vector side's own pick gives, whichever is more."""
    others = dict.fromkeys(range(10, 20), (0.1, None))
    book = lifts({**others, 1: (0.15, 0.9)}, weight=0.4, text_cap=0.75)
    assert book[1] == 0.4 * 0.75  # the text pick alone would give weight × z ≈ 1.2
    answer = lifts({**others, 1: (0.9, 0.9)}, weight=0.4, text_cap=0.75)
    assert answer[1] > 1.0  # a vector-side pick as close is not capped
    only_text = lifts({**others, 1: (None, 0.9)}, weight=0.4, text_cap=0.75)
    assert only_text[1] == 0.4 * 0.75
    below = lifts({**others, 1: (0.3, 0.11), 2: (0.05, 0.12)}, weight=0.4, text_cap=0.75)
    uncapped = lifts({**others, 1: (0.3, None), 2: (None, 0.12)}, weight=0.4, text_cap=0.75)
    assert below == uncapped  # under the cap, or the vector side's pick the better: the plain z-score


def test_token_ids_follow_edits_and_deletes_and_a_rebuild_gives_the_same(tmp_path: Path, wordllama: object) -> None:
    root = copy_sample_vault(tmp_path / "vault")
    (root / "References").mkdir()
    (root / "References" / "The Machine Stops.md").write_text(STORY, encoding="utf-8")
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        before = _stored(root)
        assert len(before) == _passages(root) > 0  # every passage has its ids
        (root / "References" / "The Machine Stops.md").write_text(STORY.replace("nurseries", "gardens"), encoding="utf-8")
        vault.index()
        edited = _stored(root)
        assert edited[("References/The Machine Stops.md", 0)] != before[("References/The Machine Stops.md", 0)]
        (root / "References" / "The Machine Stops.md").unlink()
        vault.index()
        kept = _stored(root)
        assert not any(path == "References/The Machine Stops.md" for path, _ in kept) and len(kept) == _passages(root)
    shutil.rmtree(root / ".vaultmem")
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
    assert _stored(root) == kept


def test_another_embedder_drops_the_ids_and_search_blends_no_maxsim(tmp_path: Path, wordllama: object) -> None:
    root = copy_sample_vault(tmp_path / "vault")
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
    assert _stored(root)
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert _stored(root) == {}  # the hashing embedder has no static token table
        explained = vault.explain("preferences/milk-in-coffee.md", "how does Maya take her coffee", k=3, now=NOW)
    assert explained.score["late"] is None
    assert not any("late interaction" in reason for reason in explained.reasons)


def test_explain_says_what_the_maxsim_added_and_agrees_with_search(tmp_path: Path, wordllama: object) -> None:
    root = copy_sample_vault(tmp_path / "vault")
    (root / "References").mkdir()
    (root / "References" / "The Machine Stops.md").write_text(STORY, encoding="utf-8")
    (root / "References" / "Futurama.md").write_text(SHOW, encoding="utf-8")
    query = "the animated science fiction comedy series I watched"
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        hits = vault.search(query, k=5, now=NOW)
        added: dict[str, float] = {}
        for position, hit in enumerate(hits, start=1):
            explained = vault.explain(hit.path, query, k=5, now=NOW)
            assert explained.rank["fused"] == position and explained.score["fused"] == hit.score
            late = explained.score["late"]
            assert late is not None
            said = [reason for reason in explained.reasons if "word by word (late interaction)" in reason]
            assert len(said) == 1 and said[0].startswith("in the answer") and f"{abs(late):.2f} t" in said[0]
            added[hit.path] = late
    assert len(added) == len(hits) == 5


def test_watch_keeps_the_ids_in_step_with_edits_and_deletes(tmp_path: Path) -> None:
    """``vaultmem watch`` (its own process, the default embedder) writes a new note's ids,
    replaces an edited one's and drops a deleted one's: the same as a rebuild from scratch."""
    root = copy_sample_vault(tmp_path / "vault")
    with Vault(root) as vault:
        vault.index()
    watcher = WatchProcess(root, tmp_path)
    try:
        watcher.wait_ready()
        story = root / "References" / "The Machine Stops.md"
        story.parent.mkdir()
        story.write_text(STORY, encoding="utf-8")
        wait_until(lambda: ("References/The Machine Stops.md", 0) in _stored(root), timeout=60, what="the new note's ids")
        first = _stored(root)[("References/The Machine Stops.md", 0)]
        story.write_text(STORY.replace("nurseries", "gardens"), encoding="utf-8")
        wait_until(lambda: _stored(root).get(("References/The Machine Stops.md", 0), first) != first, timeout=60,
                   what="the edited note's ids")
        (root / "preferences" / "milk-in-coffee.md").unlink()
        wait_until(lambda: not any(path == "preferences/milk-in-coffee.md" for path, _ in _stored(root)), timeout=60,
                   what="the deleted note's ids gone")
    finally:
        assert watcher.stop() == 0, watcher.errors()
    assert "Traceback" not in watcher.errors(), watcher.errors()
    watched = _stored(root)
    assert len(watched) == _passages(root)
    shutil.rmtree(root / ".vaultmem")
    with Vault(root) as vault:
        vault.index()
    assert _stored(root) == watched


def test_stored_ids_are_the_embedded_texts_word_tokens(tmp_path: Path, wordllama: object) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "Futurama.md").write_text(SHOW, encoding="utf-8")
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
    (blob,) = _stored(root).values()
    pieces = [wordllama._model.tokenizer.id_to_token(int(token)) for token in blob_to_ids(blob)]  # type: ignore[attr-defined]
    assert "▁Sci" in pieces and "fi" not in pieces and "ows" not in pieces


def test_a_pasted_books_keyword_pick_adds_no_more_than_the_cap_and_explain_says_so(tmp_path: Path, wordllama: object) -> None:
    """PASSAGES.md §28–29: Python's language reference pasted into one note of kepano's vault
    (~2,000 passages). Asked "who plays bass on Bass on Top", the keyword side picks the one of
    them that holds `plays`; uncapped, its MaxSim lifted the book by 0.75, to 2nd above `Jazz`.
    Capped, it adds 0.4 × 0.75 and no more, and explain says that the cap applied."""
    root = tmp_path / "kepano"
    shutil.copytree(REAL_VAULTS / "kepano-obsidian", root)
    (root / "Clippings" / "Python reference.md").write_text(
        "\n\n".join(f"## {name}\n\n{text}" for name, text in sorted(topics.items())), encoding="utf-8")
    query = "who plays bass on Bass on Top"
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        hits = [hit.path for hit in vault.search(query, k=3)]
        book = vault.explain("Clippings/Python reference.md", query, k=3)
    assert hits[:2] == ["References/Bass on Top.md", "References/Jazz.md"]
    assert book.score["late"] == round(LATE_WEIGHT * LATE_TEXT_CAP, 4)
    assert any("the most the passage the keyword side picked may add" in reason for reason in book.reasons)
