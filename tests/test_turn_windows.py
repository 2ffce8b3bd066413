"""A conversation turn's windows: vectors of the turns around it, made in memory (turn_windows.py, adr/0004).

"Mostly visit the museums and take a cooking class" answers "What is Ben planning for his
Mexico holiday?" and shares no word with it: the city is named two turns before. By its own
vector the reply was 7th of 18 turns on the vector side; through its window of the turns
before it, 2nd (benchmarks/PASSAGES.md §39, §41). Real WordLlama, real index.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers import NOW, vaultmem_process, wait_until, write_file, write_vault
from vaultmem import Vault
from vaultmem.search import search_filters
from vaultmem.turn_windows import SHORT_TURN, WINDOW_SPANS, WINDOW_WEIGHT, chains, head_text, window_rows
from vaultmem.turns import order_key


def _turn(speaker: str, text: str, session: int = 1) -> str:
    return f"---\nspeaker: {speaker}\nconversation: ana-ben\nsession: {session}\n---\n{text}\n"


LINES = [
    ("Ana", "Morning! Did you sleep at all?"),
    ("Ben", "Barely. The neighbours had a party."),
    ("Ana", "Any news on your side?"),
    ("Ben", "Okay, it's official: Mexico City, next month. I've already made a spreadsheet."),
    ("Ana", "Oh, lovely! What's the plan once you're there?"),
    ("Ben", "Mostly visit the museums and take a cooking class."),
    ("Ana", "Bring me back some chocolate."),
    ("Ben", "Deal. How is the garden doing?"),
    ("Ana", "The tomatoes are finally red, and the basil is huge."),
    ("Ben", "Send me a photo of them."),
    ("Ana", "I started reading a novel about a lighthouse keeper."),
    ("Ben", "Sounds calm. My week at work was hectic."),
    ("Ana", "Let's get dinner on Friday then."),
    ("Ben", "Sure, I will book the table."),
    ("Ana", "My sister is moving to Berlin in May."),
    ("Ben", "Will she keep her job?"),
    ("Ana", "She found a new one at a bakery."),
    ("Ben", "I need a haircut before the wedding."),
]
CHAT = {f"chat/t{number:02d}.md": _turn(speaker, text) for number, (speaker, text) in enumerate(LINES, start=1)}
REPLY = "chat/t06.md"
QUESTION = "What is Ben planning for his Mexico holiday?"  # no word of the reply's


def _label(opened: Vault, path: str) -> int:
    row = opened.store.notes.by_path(path)
    assert row is not None and row.label is not None
    return row.label


def _vector_side(opened: Vault, query: str) -> list[str]:
    found = opened.derived.searcher().candidates(query, 10, search_filters(None, None, False, NOW))
    return [found.paths[hit.label] for hit in found.vectors]


def test_a_reply_sharing_no_word_with_the_question_is_reached_through_the_turns_before_it(tmp_path: Path) -> None:
    with Vault(write_vault(tmp_path / "vault", CHAT)) as opened:
        opened.index()
        assert not set(QUESTION.casefold().replace("?", "").split()) & set(LINES[5][1].casefold().replace(".", "").split())
        assert _vector_side(opened, QUESTION).index(REPLY) <= 1  # was 7th: by its own vector alone
        hit = next(hit for hit in opened.search(QUESTION, k=3, now=NOW) if hit.path == REPLY)
        # The hit shows the turn's own text: a window has none.
        assert hit.passage is not None and "museums" in hit.snippet and hit.match in ("meaning", "both")


def test_explain_says_a_turn_was_reached_through_the_turns_around_it(tmp_path: Path) -> None:
    with Vault(write_vault(tmp_path / "vault", CHAT)) as opened:
        opened.index()
        explained = opened.explain(REPLY, QUESTION, now=NOW)
        said = [reason for reason in explained.reasons if reason.startswith("reached through the turns around it")]
        assert len(said) == 1 and "the passage shown is its own" in said[0]
        assert explained.passage is not None and "museums" in str(explained.passage)
        # Its windows are no passages of it: nothing is taken off for a longer note.
        assert opened.derived.searcher().chance_lowering(_label(opened, REPLY)) == (1, 0.0)


def test_a_watched_edit_of_the_turn_after_changes_the_turns_window(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        searcher = opened.derived.searcher()
        label = _label(opened, REPLY)
        query = searcher.embedder.embed(["chocolate from the trip"])[0]

        def window_score() -> float:
            notes, best = searcher.turn_windows().best(query)
            return float(dict(zip(notes.tolist(), best.tolist(), strict=True))[label])

        before = window_score()
        made = searcher.windows_made
        assert window_score() == before and searcher.windows_made == made  # no change: not made again
        with opened.watch(quiet=True):
            # No command run: the watcher indexes the edit, and the turn before it is not touched.
            write_file(root, "chat/t07.md", _turn("Ana", "Bring me back a sombrero, and some chocolate from the trip."))
            wait_until(lambda: window_score() > before, what="the a1 window of the turn before the edit to hold it")
        # Made again around the edit only (turn_windows.WindowBook), not every window.
        assert searcher.windows_made == made and 0 < searcher.windows_remade <= 4


def test_no_window_reaches_across_a_session_break() -> None:
    keys = [(label, order_key(f"chat/t{label:02d}.md", {"conversation": "ana-ben", "session": 1 if label <= 3 else 2}), "")
            for label in range(1, 6)]
    assert sorted(chains(sorted(keys, key=lambda turn: (turn[1], turn[0])))) == [[1, 2, 3], [4, 5]]  # a chain by its hash
    sums = {label: np.eye(4)[label % 4] for label in range(1, 6)}
    windows = window_rows([[1, 2, 3], [4, 5]], sums, 25.0, 4)
    # b2 and a1: turn 1 has only its a1, turn 3 only its b2 (turn 4 is of the next session), 4 its a1, 5 its b2.
    assert WINDOW_SPANS == ((2, 0), (0, 1))
    assert windows.notes.tolist() == [1, 2, 2, 3, 4, 5]


def test_a_short_turns_windows_are_discounted_by_its_own_length() -> None:
    # "Oh no, what happened?" has no meaning of its own: its windows are its neighbours' meaning,
    # and with both windows counted (share3) a short reply between two turns about the question
    # rode them past the turn that answers (PASSAGES.md §47, variant H). A turn's windows are
    # scaled by b / (b + SHORT_TURN), b the norm of its own text's token sum (its sum less its
    # head's): ~3.5 a word in WordLlama. Was: every window at WINDOW_WEIGHT × its length factor.
    head = np.array([0.0, 0.0, 0.0, 10.0])

    def middle_rows(body: float) -> tuple[np.ndarray, np.ndarray]:
        bodies = {1: np.array([30.0, 0, 0, 0]), 2: np.array([0, 0, body, 0]), 3: np.array([0, 30.0, 0, 0])}
        windows = window_rows([[1, 2, 3]], {label: head + text for label, text in bodies.items()}, 25.0, 4,
                              {label: head for label in bodies})
        rows = windows.rows[windows.notes == 2].astype(np.float64)
        # Its b2 (turn 1's text and all of its own) and a1 (all of its own and turn 3's text).
        totals = np.array([head + bodies[2] + bodies[1], head + bodies[2] + bodies[3]])
        factors = np.linalg.norm(totals, axis=1) / np.sqrt(np.linalg.norm(totals, axis=1) ** 2 + 25.0**2)
        return np.linalg.norm(rows, axis=1), factors * WINDOW_WEIGHT

    short, undiscounted = middle_rows(6.0)  # shorter than "Nice!" (9.5)
    assert short == pytest.approx(undiscounted * 6.0 / (6.0 + SHORT_TURN), rel=1e-5)
    assert (short / undiscounted) == pytest.approx([6.0 / 21.0] * 2, rel=1e-5)
    long, undiscounted = middle_rows(60.0)  # some seventeen words keep most of their windows' reach
    assert (long / undiscounted) == pytest.approx([0.8, 0.8], rel=1e-5)
    # Without the heads a turn's text cannot be told from its head: no discount.
    plain = window_rows([[1, 2, 3]], {label: np.eye(4)[label] * 30.0 for label in (1, 2, 3)}, 25.0, 4)
    norms = np.linalg.norm(plain.rows[plain.notes == 2].astype(np.float64), axis=1)
    assert norms == pytest.approx([WINDOW_WEIGHT * 30 * 2**0.5 / np.sqrt(2 * 900 + 625)] * 2, rel=1e-5)


def test_a_vault_without_turns_makes_no_window(tmp_path: Path) -> None:
    notes = {"notes/a.md": "# Garden\n\nThe tomatoes are red.\n", "notes/b.md": "# Trip\n\nMexico City next month.\n"}
    with Vault(write_vault(tmp_path / "vault", notes)) as opened:
        opened.index()
        searcher = opened.derived.searcher()
        assert [hit.path for hit in opened.search("tomatoes", k=2, now=NOW)][0] == "notes/a.md"
        assert not len(searcher.turn_windows().notes) and searcher.windows_made == 0


# -- kept between states (turn_windows.WindowBook, storage turn_heads; stop 41)

QUERIES = ("chocolate from the trip", "Mexico City museums", "dinner on Friday", "a bakery in Berlin")


def _windows(opened: Vault) -> list[dict[int, float]]:
    """Each query's best window score by turn (the searcher's windows of the index's state now)."""
    searcher = opened.derived.searcher()
    found = []
    for query in QUERIES:
        notes, best = searcher.turn_windows().best(searcher.embedder.embed([query])[0])
        found.append(dict(zip(notes.tolist(), best.tolist(), strict=True)))
    return found


def _assert_as_made_anew(opened: Vault, root: Path) -> None:
    """The windows ``opened`` brought up to date are those a new process makes from the index."""
    kept = _windows(opened)
    with Vault(root) as fresh:
        made = _windows(fresh)
    assert [sorted(scores) for scores in kept] == [sorted(scores) for scores in made]
    for mine, theirs in zip(kept, made, strict=True):
        # The same rows; BLAS may round a product over another number of rows in its last bit.
        assert all(abs(mine[note] - theirs[note]) < 1e-6 for note in theirs)


def _edited_elsewhere(root: Path, relative: str, text: str | None) -> None:
    """Edit (or remove, ``text`` None) a turn and index it in another process, as an agent's
    `vaultmem remember` or a second MCP server does."""
    if text is None:
        (root / relative).unlink()
    else:
        write_file(root, relative, text)
    result = vaultmem_process(root, "index", timeout=120)
    assert result.returncode == 0, result.stderr


def test_an_edit_from_another_process_makes_again_only_the_windows_around_the_turn(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        searcher = opened.derived.searcher()
        before = _windows(opened)
        made = searcher.windows_made
        _edited_elsewhere(root, "chat/t07.md", _turn("Ana", "Bring me back a sombrero, and some chocolate from the trip."))
        after = _windows(opened)
        # t07 is in the a1 of t06 and in the b2 of t08 and t09: theirs and its own changed, no other.
        changed = {label for label in after[0] if after[0][label] != before[0].get(label)}
        labels = {path: _label(opened, path) for path in ("chat/t06.md", "chat/t07.md", "chat/t08.md", "chat/t09.md")}
        assert changed == set(labels.values())
        assert searcher.windows_made == made and searcher.windows_remade == 4  # four turns, not all eighteen
        _assert_as_made_anew(opened, root)


def test_a_deleted_turns_neighbours_join_in_their_windows(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        _windows(opened)
        _edited_elsewhere(root, REPLY, None)
        after = _windows(opened)
        assert _label(opened, "chat/t05.md") in after[0] and all(len(scores) == len(CHAT) - 1 for scores in after)
        assert opened.derived.searcher().windows_made == 1
        _assert_as_made_anew(opened, root)


def test_a_turn_moved_to_another_place_in_its_conversation_leaves_and_joins_windows(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        _windows(opened)
        (root / "chat/t03.md").rename(root / "chat/t15b.md")  # same text: its place only
        assert vaultmem_process(root, "index", timeout=120).returncode == 0
        _windows(opened)
        assert opened.derived.searcher().windows_made == 1
        _assert_as_made_anew(opened, root)


def test_a_new_process_takes_the_turns_heads_from_the_index_instead_of_embedding_them(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
    with Vault(root) as fresh:
        searcher = fresh.derived.searcher()
        assert len(searcher.turn_windows().notes) == len(CHAT) and searcher.heads_embedded == 0
        # What the indexer stored is what a search would embed: the head as the full text holds it.
        turns = fresh.store.notes.all_turns()
        props = fresh.store.passages.properties_of([label for label, _, _ in turns])
        stored = fresh.store.turn_heads.sums([label for label, _, _ in turns])
        embedded = searcher.embedder.sums([head_text(title, props.get(label, "")) for label, _, title in turns]).totals
        assert all(np.array_equal(stored[label], row.astype(np.float64)) for (label, _, _), row in zip(turns, embedded, strict=True))


def test_an_index_without_stored_heads_embeds_them_and_answers_the_same(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        expected = _windows(opened)
        with opened.store.transaction():
            opened.store.turn_heads.clear()  # as an index written before stop 41 holds none
    with Vault(root) as old:
        assert _windows(old) == expected and old.derived.searcher().heads_embedded == len(CHAT)


def test_a_rebuild_in_another_process_makes_every_window_anew(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        _windows(opened)
        assert vaultmem_process(root, "index", "--rebuild", timeout=120).returncode == 0
        _windows(opened)
        assert opened.derived.searcher().windows_made == 2  # a new epoch: its cursor means nothing now
        _assert_as_made_anew(opened, root)


def test_a_turn_that_no_longer_names_its_speaker_leaves_its_neighbours_windows(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        _windows(opened)
        _edited_elsewhere(root, "chat/t07.md", "---\nconversation: ana-ben\nsession: 1\n---\nBring me back some chocolate.\n")
        after = _windows(opened)
        assert _label(opened, "chat/t07.md") not in after[0] and opened.derived.searcher().windows_made == 1
        _assert_as_made_anew(opened, root)


def test_windows_brought_up_to_date_around_random_writes_are_those_made_anew() -> None:
    """WindowBook.update against WindowBook.load over random edits, removals, moves (within and
    across chains), new turns and turns without a vector: the same turns hold windows, the same scores."""
    from vaultmem.turn_windows import Turn, WindowBook

    chosen = np.random.default_rng(41)
    dimension = 8

    def turn(label: int, chain: int, place: float, vector: bool = True) -> Turn:
        key = order_key(f"chat{chain}/t{place:09.3f}.md", {"conversation": f"c{chain}", "session": 1})
        return Turn(label, key, chosen.normal(size=dimension) * 20 if vector else None, chosen.normal(size=dimension))

    turns = {label: turn(label, label % 3, float(label)) for label in range(1, 61)}
    kept = WindowBook(25.0, dimension)
    kept.load(list(turns.values()))
    queries = chosen.normal(size=(5, dimension))
    next_label = 61
    for _ in range(40):
        written: dict[int, Turn | None] = {}
        for label in chosen.choice(sorted(turns), size=3, replace=False).tolist():
            roll = chosen.integers(4)
            if roll == 0:
                written[label] = None  # removed
                del turns[label]
            else:  # edited in place, moved (maybe to another chain), or left without a vector
                moved = turn(label, int(chosen.integers(3)) if roll == 2 else label % 3,
                             float(chosen.uniform(0, 80)) if roll == 2 else float(label), vector=roll != 3)
                written[label] = turns[label] = moved
        written[next_label] = turns[next_label] = turn(next_label, next_label % 3, float(chosen.uniform(0, 80)))
        next_label += 1
        kept.update(written)
        anew = WindowBook(25.0, dimension)
        anew.load(list(turns.values()))
        for query in queries:
            (notes, best), (expected_notes, expected) = kept.best(query), anew.best(query)
            assert notes.tolist() == expected_notes.tolist()
            assert np.allclose(best, expected, rtol=0, atol=1e-6)


def test_a_reconcile_that_reads_the_turns_again_stores_the_heads_an_older_index_lacked(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        expected = _windows(opened)
        with opened.store.transaction():
            opened.store.turn_heads.clear()  # an index written before stop 41
            opened.store.notes.mark_all_changed()  # what a new READER_VERSION does: every note read again
        opened.index()  # the same texts: nothing embedded with the passages, every head owed, then paid
        turns = [label for label, _, _ in opened.store.notes.all_turns()]
        assert sorted(opened.store.turn_heads.sums(turns)) == sorted(turns)
    with Vault(root) as fresh:
        assert _windows(fresh) == expected and fresh.derived.searcher().heads_embedded == 0


def test_a_turns_two_windows_both_count_as_its_next_passages_would(tmp_path: Path) -> None:
    # A turn's b2 and a1 windows are counted as passages of it (PASSAGES.md §42): its score is the
    # best of its own and its two windows plus a quarter of each of the other two. Before, only
    # the better window counted, so the turn after a reply ("Bring me back some chocolate") added
    # nothing to it once the turns before it led.
    with Vault(write_vault(tmp_path / "vault", CHAT)) as opened:
        opened.index()
        searcher = opened.derived.searcher()
        label = _label(opened, REPLY)
        query = searcher.embedder.embed(["museums, a cooking class and chocolate on the Mexico trip"])[0]
        notes, best_of, other_of = searcher.turn_windows().both(query)
        best, other = float(best_of[notes == label][0]), float(other_of[notes == label][0])
        own = searcher.exact_scores(query, [label], windows=False)[0].score
        scored = searcher.exact_scores(query, [label])[0].score
        items = sorted([own, best, other], reverse=True)
        assert other > 0.0  # both windows near the question: the second one must count
        assert scored == pytest.approx(items[0] + 0.25 * (max(items[1], 0.0) + max(items[2], 0.0)))
        assert scored > max(own, best) + 0.25 * min(own, best)  # what the better window alone gave
        assert best_of.tolist() == searcher.turn_windows().best(query)[1].tolist()


def _turn_head_rows(opened: Vault) -> int:
    return int(opened.store.db.execute("SELECT count(*) FROM turn_heads").fetchone()[0])


def test_removed_turns_leave_no_rows_for_good_and_searchers_make_their_windows_anew(tmp_path: Path) -> None:
    # Note labels are never reused: each removed turn kept its empty row in the feed of turns
    # written for as long as the index lived (an agent that writes and forgets turns for months).
    # Past 256 such rows (and an eighth of the rows) they go, under a new epoch.
    chat = {f"chat/t{number:03d}.md": _turn("Ana" if number % 2 else "Ben", f"Line {number} about the garden and the weather.")
            for number in range(1, 301)}
    root = write_vault(tmp_path / "vault", chat)
    with Vault(root) as opened:
        opened.index()
        _windows(opened)
        assert _turn_head_rows(opened) == 300
        for relative in sorted(chat)[:280]:
            (root / relative).unlink()
        opened.index()
        assert _turn_head_rows(opened) == 20  # the live turns' rows only
        after = _windows(opened)
        assert all(len(scores) == 20 for scores in after)
        assert opened.derived.searcher().windows_made == 2  # the epoch changed: every window made anew
        _assert_as_made_anew(opened, root)


def test_a_few_removed_turns_keep_their_rows_for_the_searchers_behind(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", CHAT)
    with Vault(root) as opened:
        opened.index()
        _windows(opened)
        _edited_elsewhere(root, REPLY, None)
        assert _turn_head_rows(opened) == len(CHAT)  # the removed turn's row tells the searcher it left
        assert opened.store.turn_heads.left_count() == 1
        _windows(opened)
        assert opened.derived.searcher().windows_made == 1


# -- short answers (s42): a turn's windows are discounted by its own length (SHORT_TURN), and a
# real answer is often short. Measured (benchmarks/PASSAGES.md, s42 turnsleft): the same fused
# ranks with and without the discount; the question's own turn comes first and the answer second.

SHORT_ANSWERS = {
    "ana-ben": [("Ana", "Morning! How was the weekend?"), ("Ben", "Quiet. I mostly slept."),
                ("Ana", "Did you book the dentist in the end?"), ("Ben", "Yes, Tuesday."),
                ("Ana", "Good. And the car, is it fixed?"), ("Ben", "Not yet."),
                ("Ana", "What time does your train leave on Friday?"), ("Ben", "At 9."),
                ("Ana", "Are you bringing the kids to the lake?"), ("Ben", "Only Mia."),
                ("Ana", "Lovely. I made a lemon cake yesterday."), ("Ben", "Save me a slice!")],
    "cleo-dan": [("Cleo", "Which hotel did you pick for Lisbon?"), ("Dan", "The Avenida."),
                 ("Cleo", "How many nights?"), ("Dan", "Four."),
                 ("Cleo", "Did your sister get the job at the bank?"), ("Dan", "She did!"),
                 ("Cleo", "Where are you watching the final?"), ("Dan", "At Sam's place."),
                 ("Cleo", "Which colour did you paint the kitchen?"), ("Dan", "Sage green."),
                 ("Cleo", "My cat knocked over the plant again."), ("Dan", "Classic cat.")],
}
SHORT_QUESTIONS = [
    ("When is Ben's dentist appointment?", "ana-ben/t04.md"), ("Is Ben's car repaired?", "ana-ben/t06.md"),
    ("What time is Ben's train on Friday?", "ana-ben/t08.md"), ("Which of Ben's kids is coming to the lake?", "ana-ben/t10.md"),
    ("Which hotel is Dan staying at in Lisbon?", "cleo-dan/t02.md"), ("How long is Dan's stay in Lisbon?", "cleo-dan/t04.md"),
    ("Did Dan's sister get the bank job?", "cleo-dan/t06.md"), ("Where will Dan watch the final?", "cleo-dan/t08.md"),
    ("What colour is Dan's kitchen?", "cleo-dan/t10.md"),
]


def test_a_short_answer_is_found_right_after_the_turn_that_asks_it(tmp_path: Path) -> None:
    files = {f"{pair}/t{number:02d}.md": f"---\nspeaker: {speaker}\nconversation: {pair}\nsession: 1\n---\n{text}\n"
             for pair, lines in SHORT_ANSWERS.items() for number, (speaker, text) in enumerate(lines, start=1)}
    root = write_vault(tmp_path / "vault", files)
    with Vault(root) as opened:
        opened.index()
        ranks = {}
        for question, answer in SHORT_QUESTIONS:
            found = [hit.path for hit in opened.search(question, k=10, now=NOW)]
            ranks[answer] = found.index(answer) + 1 if answer in found else None
    # Each answer second, after the turn that asks it; "Four." (how many nights in Lisbon) 7th:
    # one word, and its turn before ("How many nights?") names no Lisbon.
    assert all(rank is not None for rank in ranks.values()), ranks
    assert all(rank <= 3 for path, rank in ranks.items() if path != "cleo-dan/t04.md"), ranks


# -- a turn named by a slug of its first words (s42; turns.named_by_its_text, PASSAGES.md §50)

def _slug_named(lines: list[tuple[str, str]]) -> dict[str, str]:
    files = {}
    for number, (speaker, text) in enumerate(lines, start=1):
        slug = "-".join("".join(c for c in word if c.isalnum()) for word in text.lower().replace("'", "").split()[:5])
        files[f"ana-ben/{slug}.md"] = f"---\nspeaker: {speaker}\nsession: 1\nturn: {number}\n---\n{text}\n"
    return files


def test_a_turn_named_by_its_first_words_has_them_searched_and_embedded_once(tmp_path: Path) -> None:
    # An exporter names a message by a slug of its first words: as its title and name (the
    # full-text columns that weigh most) and before its text in every embedded row, those words
    # counted three times. A note that is no turn keeps its slug as its title, as does a turn t01.
    files = {**_slug_named(LINES[:6]), "notes/okay-its-official.md": "Okay, it's official: a note.\n", **{
        "chat/t01.md": _turn("Ana", "T01 morning.")}}
    root = write_vault(tmp_path / "vault", files)
    with Vault(root) as opened:
        opened.index()
        rows = dict(opened.store.db.execute(
            "SELECT notes.path, passages_fts.title || '|' || passages_fts.name FROM passages JOIN notes ON notes.label = passages.note_label "
            "JOIN passages_fts ON passages_fts.rowid = passages.label WHERE passages.number = 0").fetchall())
        assert rows["ana-ben/okay-its-official-mexico-city.md"] == "|ana-ben"
        assert rows["ana-ben/mostly-visit-the-museums-and.md"] == "|ana-ben"
        assert rows["notes/okay-its-official.md"].startswith("okay-its-official|")
        assert rows["chat/t01.md"].startswith("t01|")
        assert opened.get("ana-ben/okay-its-official-mexico-city.md").title == "okay-its-official-mexico-city"  # shown as named
        # The stored head is the head its passages embed: no title.
        label = _label(opened, "ana-ben/okay-its-official-mexico-city.md")
        props = opened.store.passages.properties_of([label])[label]
        embedded = opened.derived.searcher().embedder.sums([head_text("", props)]).totals[0]
        assert np.array_equal(opened.store.turn_heads.sums([label])[label], embedded.astype(np.float64))


def test_slug_named_turns_windows_made_without_stored_heads_are_the_same(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", _slug_named(LINES))
    with Vault(root) as opened:
        opened.index()
        expected = _windows(opened)
        with opened.store.transaction():
            opened.store.turn_heads.clear()
    with Vault(root) as old:
        assert _windows(old) == expected and old.derived.searcher().heads_embedded == len(LINES)


def test_a_turn_named_by_a_slug_that_lost_or_dropped_an_accent_has_no_title(tmp_path: Path) -> None:
    # Was: "Tomás has a part in the spring musical" named `tom-s-has-a-part.md` (a slug of ASCII
    # letters, the á a break between words: the conversations-slugs set's one such turn) or
    # `tomas-has-a-part.md` (the accent dropped) kept its slug as its title and name, its first
    # words searched and embedded twice; `tomás-has-a-part.md` was already read as a slug.
    text = "Tomás has a part in the spring musical."
    files = {f"ana-ben/{name}.md": f"---\nspeaker: Ana\nsession: 1\nturn: {number}\n---\n{text}\n"
             for number, name in enumerate(("tom-s-has-a-part", "tomas-has-a-part", "tomás-has-a-part"), start=1)}
    files["ana-ben/tomas-was-a-part.md"] = f"---\nspeaker: Ben\nsession: 1\nturn: 4\n---\n{text}\n"  # not its text's words
    root = write_vault(tmp_path / "vault", files)
    with Vault(root) as opened:
        opened.index()
        rows = dict(opened.store.db.execute(
            "SELECT notes.path, passages_fts.title || '|' || passages_fts.name FROM passages JOIN notes ON notes.label = passages.note_label "
            "JOIN passages_fts ON passages_fts.rowid = passages.label WHERE passages.number = 0").fetchall())
    assert rows["ana-ben/tom-s-has-a-part.md"] == "|ana-ben"
    assert rows["ana-ben/tomas-has-a-part.md"] == "|ana-ben"
    assert rows["ana-ben/tomás-has-a-part.md"] == "|ana-ben"
    assert rows["ana-ben/tomas-was-a-part.md"].startswith("tomas-was-a-part|")


def test_a_turn_in_a_conversations_folder_is_searched_as_one_whose_property_names_it(tmp_path: Path) -> None:
    # Was: a conversation exported one folder a conversation with no `conversation:` property (the
    # slugs and role layouts: `ana-ben/okay-its-official.md`, `ana-ben/D1_4.md`) embedded its
    # turns without the conversation's name, which a `conversation: ana-ben` export's turns hold:
    # asked about Ben, fewer of that conversation's turns came up (PASSAGES.md §62, s43 slugs).
    # Now its folder's name is its conversation, as a property naming it would be; a property
    # naming another keeps its own, and a note that is no turn gets none.
    named = {f"ana-ben/D1_{number}.md": _turn(speaker, text) for number, (speaker, text) in enumerate(LINES, start=1)}
    foldered = {path: note.replace("conversation: ana-ben\n", "") for path, note in named.items()}
    foldered["ana-ben/D2_1.md"] = "---\nspeaker: Ana\nconversation: ana-cleo\nsession: 2\n---\nHello Cleo.\n"
    foldered["ana-ben/Trip plans.md"] = "Mexico City, next month.\n"
    first = write_vault(tmp_path / "named", named)
    second = write_vault(tmp_path / "foldered", foldered)
    with Vault(first) as by_property, Vault(second) as by_folder:
        by_property.index()
        by_folder.index()
        props = by_folder.store.passages.properties_of([_label(by_folder, path) for path in ("ana-ben/D1_4.md", "ana-ben/D2_1.md")])
        assert props[_label(by_folder, "ana-ben/D1_4.md")] == "speaker: Ben\nconversation: ana-ben"
        assert props[_label(by_folder, "ana-ben/D2_1.md")] == "speaker: Ana\nconversation: ana-cleo"
        assert _label(by_folder, "ana-ben/Trip plans.md") not in by_folder.store.passages.properties_of([_label(by_folder, "ana-ben/Trip plans.md")])
        for question in (QUESTION, "what did Ben say about the wedding", "Ana's sister"):
            turns = [path for path in _vector_side(by_folder, question) if "/D1_" in path]
            assert turns == [path for path in _vector_side(by_property, question) if "/D1_" in path][:len(turns)]
            assert len(turns) >= 8
