"""A conversation turn's full-text rows hold the turns said before it (turns.py, adr/0004).

One note per dialogue turn, each with ``speaker:``: the turn that answers "what did Ben plan
to do in Mexico City?" says "Mostly visit the museums", and the city is named two turns
before it: the keyword side ranked it by the speaker's name alone (benchmarks/PASSAGES.md §36).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from helpers import NOW, keyword_side, write_file, write_vault
from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.turns import CONTEXT_TURNS, affected, context, is_turn, turn_order, turns_before


def _turn(speaker: str, text: str) -> str:
    return f"---\nspeaker: {speaker}\ndate: 2024-03-04T10:00:00\n---\n{text}\n"


CHAT = {
    "chat/2024-03-04/t8.md": _turn("Ben", "Okay, it's official: Mexico City, next month. I've already made a spreadsheet."),
    "chat/2024-03-04/t9.md": _turn("Ana", "Oh, lovely! What's the plan once you're there?"),
    "chat/2024-03-04/t10.md": _turn("Ben", "Mostly visit the museums and take a cooking class."),
    "chat/2024-03-04/t11.md": _turn("Ana", "Bring me back some chocolate."),
    "chat/2024-03-04/t12.md": _turn("Ben", "Deal. How is the garden doing?"),
}
QUESTION = "What did Ben plan to do in Mexico City?"


def test_a_note_is_a_turn_when_a_property_says_who_said_it() -> None:
    assert is_turn("speaker: Ben\nconversation: ana-ben")
    assert is_turn("From: ana@example.com")
    assert not is_turn("author: Steph Ango\ngenre: Sci-fi")  # who wrote a book, not who spoke
    assert not is_turn("speaker: ")  # a template's empty field names nobody


def test_a_folders_turns_are_in_file_name_order_with_numbers_read_as_numbers() -> None:
    paths = ["chat/D1_10.md", "chat/D1_9.md", "chat/D2_1.md", "chat/D1_1.md"]
    assert sorted(paths, key=turn_order) == ["chat/D1_1.md", "chat/D1_9.md", "chat/D1_10.md", "chat/D2_1.md"]


def test_each_turn_holds_the_turns_before_it_and_the_first_none() -> None:
    texts = {1: "one", 2: "two", 3: "three", 4: "four"}
    assert CONTEXT_TURNS == 2
    assert [context(turns_before([1, 2, 3, 4], at), texts) for at in range(4)] == ["", "one", "one \n two", "two \n three"]


def test_a_change_reaches_the_turn_itself_and_the_turns_after_it_only() -> None:
    turns = [turn_order(f"c/t{number}.md") for number in range(1, 7)]
    assert affected(turns, ["c/t2.md"]) == {1, 2, 3}
    assert affected(turns, ["c/t2b.md"]) == {2, 3, 4}  # a note removed (or no turn) between t2 and t3
    assert affected(turns, ["c/t6.md"]) == {5}


def test_a_reply_is_found_by_the_words_of_the_turns_before_it(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", CHAT)
    with Vault(vault) as opened:
        opened.index()
        proposed = keyword_side(opened, QUESTION)
        # was 4th, by the speaker alone ("plan", "mexico", "city" are in t8 and t9), and out of the first 3 hits
        assert proposed[0] == "chat/2024-03-04/t10.md"
        assert "chat/2024-03-04/t10.md" in [hit.path for hit in opened.search(QUESTION, k=3, now=NOW)]


def test_an_edit_of_the_turn_before_reaches_the_reply_and_a_removal_too(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", CHAT)
    with Vault(vault) as opened:
        opened.index()
        write_file(vault, "chat/2024-03-04/t8.md", _turn("Ben", "Okay, it's official: Lisbon, next month."))
        opened.index()
        assert "chat/2024-03-04/t10.md" in keyword_side(opened, "Ben Lisbon")
        assert keyword_side(opened, "Mexico") == []  # no row holds the old words, its own or the turns after it
        (vault / "chat/2024-03-04/t9.md").unlink()
        opened.search("chocolate", k=1, now=NOW)  # a search catches up (the few paths' way, as a watcher's)
        # t8 is now the turn before t10, t10 the one before t11
        assert "chat/2024-03-04/t11.md" in keyword_side(opened, "Lisbon chocolate")
        assert keyword_side(opened, "lovely plan") == []  # t9's words left the turns after it too


def test_notes_that_name_no_speaker_hold_nothing_of_their_neighbours(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", {
        "References/Fight Club.md": "---\nauthor: Chuck Palahniuk\n---\nA novel about an underground club.\n",
        "References/Futurama.md": "---\ngenre: Sci-fi\n---\nAn animated comedy series.\n",
    })
    with Vault(vault) as opened:
        opened.index()
        assert keyword_side(opened, "underground club") == ["References/Fight Club.md"]


def test_a_reply_does_not_hold_the_words_of_the_turns_before_it_for_confidence(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", CHAT)
    with Vault(vault) as opened:
        opened.index()
        searcher = opened.derived.searcher()
        from vaultmem.search import search_filters

        found = searcher.candidates("Mexico museums", 10, search_filters(None, None, False, NOW))
        label = next(label for label, path in found.paths.items() if path == "chat/2024-03-04/t10.md")
        assert searcher._words_held(found, label) == ("museums",)


def test_an_index_made_before_gives_its_turns_the_turns_before_them_without_embedding_again(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", CHAT)
    with Vault(vault, embedder=HashingEmbedder()) as opened:
        opened.index()
    database = sqlite3.connect(vault / ".vaultmem" / "index.db")
    with database:  # what the previous version left: no `context` column
        tokenizer = database.execute("SELECT sql FROM sqlite_master WHERE name = 'passages_fts'").fetchone()[0]
        database.execute("DROP TABLE passages_fts")
        database.execute(tokenizer.replace(", context,", ","))
        database.execute("DELETE FROM _migrations WHERE name = '019_turn_context'")
        embedded = database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0]
    database.close()
    with Vault(vault, embedder=HashingEmbedder()) as opened:
        opened.search(QUESTION, k=3, now=NOW)  # the command reads every note again first
        assert keyword_side(opened, QUESTION)[0] == "chat/2024-03-04/t10.md"
    database = sqlite3.connect(vault / ".vaultmem" / "index.db")
    assert database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0] == embedded  # nothing embedded again
    database.close()
