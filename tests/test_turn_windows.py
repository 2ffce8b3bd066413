"""A conversation turn's windows: vectors of the turns around it, made in memory (turn_windows.py, adr/0004).

"Mostly visit the museums and take a cooking class" answers "What is Ben planning for his
Mexico holiday?" and shares no word with it: the city is named two turns before. By its own
vector the reply was 7th of 18 turns on the vector side; through its window of the turns
before it, 2nd (benchmarks/PASSAGES.md §39, §41). Real WordLlama, real index.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from helpers import NOW, wait_until, write_file, write_vault
from vaultmem import Vault
from vaultmem.search import search_filters
from vaultmem.turn_windows import WINDOW_SPANS, chains, window_rows
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
        assert searcher.windows_made > made


def test_no_window_reaches_across_a_session_break() -> None:
    keys = [(label, order_key(f"chat/t{label:02d}.md", {"conversation": "ana-ben", "session": 1 if label <= 3 else 2}), "")
            for label in range(1, 6)]
    assert sorted(chains(sorted(keys, key=lambda turn: (turn[1], turn[0])))) == [[1, 2, 3], [4, 5]]  # a chain by its hash
    sums = {label: np.eye(4)[label % 4] for label in range(1, 6)}
    windows = window_rows([[1, 2, 3], [4, 5]], sums, 25.0, 4)
    # b2 and a1: turn 1 has only its a1, turn 3 only its b2 (turn 4 is of the next session), 4 its a1, 5 its b2.
    assert WINDOW_SPANS == ((2, 0), (0, 1))
    assert windows.notes.tolist() == [1, 2, 2, 3, 4, 5]


def test_a_vault_without_turns_makes_no_window(tmp_path: Path) -> None:
    notes = {"notes/a.md": "# Garden\n\nThe tomatoes are red.\n", "notes/b.md": "# Trip\n\nMexico City next month.\n"}
    with Vault(write_vault(tmp_path / "vault", notes)) as opened:
        opened.index()
        searcher = opened.derived.searcher()
        assert [hit.path for hit in opened.search("tomatoes", k=2, now=NOW)][0] == "notes/a.md"
        assert not len(searcher.turn_windows().notes) and searcher.windows_made == 0
