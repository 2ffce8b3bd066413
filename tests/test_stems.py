"""A note's language and the stems of its words on the full-text side (stems.py; adr/0027 "Stems")."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from helpers import NOW, keyword_side, write_vault

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.search import query_words, search_filters
from vaultmem.stems import note_language

NOTES = {
    "Философия/Бэкон.md": "# Бэкон\nНаука должна стать полезной, чтобы люди согласились платить налоги на её развитие.\n",
    "Философия/Поппер.md": "# Поппер\nЗнание растёт за счёт критики старых теорий, а не за счёт новых фактов.\n",
    "Wohnen/Umzug.md": "# Umzug\nWir haben das Haus in der Gartenstraße gekauft, und der Umzug ist im Mai.\n",
    "Recipes/Bread.md": "# Bread\nThe dough rises overnight in the fridge, and it bakes for forty minutes.\n",
}


@pytest.fixture
def stems_vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", NOTES)


@pytest.mark.parametrize(("text", "language"), [
    ("Наука должна стать полезной, чтобы люди согласились платить налоги.", "russian"),
    ("Wir haben das Haus in der Gartenstraße gekauft, und der Umzug ist im Mai.", "german"),
    ("Nous avons vendu la maison et le déménagement est pour le mois de mai.", "french"),
    ("Las canciones de la fiesta son para el sábado y la cena es en casa.", "spanish"),
    ("The dough rises overnight in the fridge, and it bakes for forty minutes.", None),  # English: no stems
    ("Ми купили будинок, і переїзд буде в травні, бо там є сад.", None),  # Ukrainian: no Snowball stemmer
    ("Gartenstraße 12", None),  # too few words to tell
    ("I really need a holiday. Even a long weekend would do.", None),  # was Portuguese: "a", "a", "do"
])
def test_a_note_is_told_by_its_script_or_its_common_words(text: str, language: str | None) -> None:
    assert note_language(text) == language


@pytest.mark.parametrize(("query", "path"), [
    ("налогами", "Философия/Бэкон.md"),  # the note says "налоги"; first letters "налога*" hold nothing
    ("Häuser", "Wohnen/Umzug.md"),  # the note says "Haus"; first letters "hause*" hold nothing
])
def test_a_word_no_note_holds_finds_the_note_holding_another_form_of_it(stems_vault: Path, query: str, path: str) -> None:
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == [path], query  # was []
        found = vault.derived.searcher().candidates(query, 10, search_filters(None, None, False, NOW))
    assert found.unheld_words == ()  # was the word: every hit's score lowered as for a word in no note


def test_an_english_vault_holds_no_stems_and_asks_for_none(tmp_path: Path) -> None:
    vault_path = write_vault(tmp_path / "vault", {"Recipes/Bread.md": NOTES["Recipes/Bread.md"]})
    with Vault(vault_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert vault.store.passages.languages() == ()
        stemmed = vault.store.db.execute("SELECT count(*) FROM passages_fts WHERE stems != ''").fetchone()[0]
    assert stemmed == 0
    assert all(word.stems is None for word in query_words("dough overnight", ()))


def test_a_word_as_typed_never_matches_a_stem(stems_vault: Path) -> None:
    # The German stem of "Haus" is "haus": an English question's "haus" (or any word as typed)
    # must not score a note by its stems, or every query of a German vault is scored anew.
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert vault.store.passages.languages() == ("russian", "german")
        assert not vault.store.passages.any_match('stems : "haus"')
        assert vault.store.passages.any_match('"haus"')  # the body as written


def test_an_index_made_before_stems_is_read_again_and_finds_other_forms(stems_vault: Path) -> None:
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
    # What the previous version left: no language column, a full text without stems.
    with sqlite3.connect(stems_vault / ".vaultmem" / "index.db") as db:
        db.execute("DROP INDEX passages_language")
        db.execute("ALTER TABLE passages DROP COLUMN language")
        db.execute("DROP TABLE passages_fts")
        db.execute("CREATE VIRTUAL TABLE passages_fts USING fts5(name, title, aliases, headings, props, tags, body, "
                   "tokenize = 'porter unicode61 remove_diacritics 2')")
        db.execute("DELETE FROM _migrations WHERE name IN ('015_stems', '018_combining_marks_in_words', '019_turn_context')")
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        assert vault.search("налогами", k=1, now=NOW)[0].path == "Философия/Бэкон.md"
        assert keyword_side(vault, "налогами")[:1] == ["Философия/Бэкон.md"]
        assert keyword_side(vault, "критики")[:1] == ["Философия/Поппер.md"]  # the full text written again


def test_a_rebuilt_index_keeps_the_stems(stems_vault: Path) -> None:
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        vault.index(rebuild=True)
        assert keyword_side(vault, "налогами")[:1] == ["Философия/Бэкон.md"]


@pytest.mark.parametrize(("query", "shown"), [
    ("vitamin e", ["vitamin", "e"]),  # was ["vitamin"]: Portuguese and Italian "e" ("and") was a stopword
    ("what is vitamin e", ["vitamin", "e"]),
    ("o que é a vitamina e", ["vitamina"]),  # a Portuguese question still leaves its "e" out
    ("qué es la vitamina y", ["la", "vitamina"]),  # and a Spanish one its "y"
])
def test_a_lone_letter_of_another_language_is_a_stopword_only_beside_that_languages_words(query: str, shown: list[str]) -> None:
    assert [word.shown for word in query_words(query)] == shown


def test_explain_names_a_word_asked_for_by_its_stem(stems_vault: Path) -> None:
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        explained = vault.explain("Философия/Бэкон.md", "налогами", now=NOW)
    assert any(reason.startswith("налогами: in no note as written, so asked for by its stem")
               for reason in explained.reasons), explained.reasons


def test_threads_stemming_at_once_each_get_the_stem_of_their_own_word() -> None:
    """A Snowball stemmer holds the word it is stemming: one shared by an MCP server's search
    threads and its watcher's reconcile could give a thread another's stem (a review)."""
    import random
    import sys
    import threading

    import snowballstemmer  # type: ignore[import-untyped]

    from vaultmem.cjk import fts_form
    from vaultmem.stems import STEM_MARK, stem

    chooser = random.Random(7)
    endings = ("ations", "ingly", "ness", "ments", "ised", "ers", "ies", "fulness")
    words = [["".join(chooser.choice("bcdfghklmnprstvw") + chooser.choice("aeiou") for _ in range(4))
              + chooser.choice(endings) for _ in range(3_000)] for _ in range(4)]
    reference = snowballstemmer.stemmer("english")
    expected = [[f"{STEM_MARK}{fts_form(reference.stemWord(word))}" for word in batch] for batch in words]
    found: list[list[str]] = [[] for _ in words]
    start = threading.Barrier(len(words))

    def work(number: int) -> None:
        start.wait()
        found[number] = [stem(word, "english") for word in words[number]]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, as under a loaded server
    try:
        threads = [threading.Thread(target=work, args=(number,)) for number in range(len(words))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert found == expected


# -- the languages of one state of the index, kept by the searcher until a commit (Searcher.languages)

def _language_lookups(vault: Vault, query: str) -> int:
    """How many times one search asks SQLite which languages the notes are written in."""
    asked: list[str] = []
    vault.store.db.conn.set_trace_callback(asked.append)
    try:
        vault.search(query, k=1, now=NOW)
    finally:
        vault.store.db.conn.set_trace_callback(None)
    return sum("FROM passages WHERE language =" in statement for statement in asked)


def test_a_search_asks_the_languages_once_a_state_of_the_index(stems_vault: Path) -> None:
    # Files an hour old: one written within its mtime's tick is read again by each search, and the
    # row that reading settles is a commit, a new state (indexer.settled_stat).
    an_hour_ago = time.time() - 3600
    for note in stems_vault.rglob("*.md"):
        os.utime(note, (an_hour_ago, an_hour_ago))
    with Vault(stems_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert _language_lookups(vault, "dough") > 0  # the first search of this state
        assert _language_lookups(vault, "Gartenstraße") == 0  # nothing committed since: kept
        assert vault.derived.searcher().languages() == ("russian", "german")


def test_a_language_a_note_brings_is_searched_by_its_stems_at_once(tmp_path: Path) -> None:
    vault_path = write_vault(tmp_path / "vault", {"Recipes/Bread.md": NOTES["Recipes/Bread.md"]})
    with Vault(vault_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert [hit.path for hit in vault.search("dough", k=1, now=NOW)] == ["Recipes/Bread.md"]  # languages: none
        write_vault(vault_path, {"Философия/Бэкон.md": NOTES["Философия/Бэкон.md"]})  # a person's edit, no `index`
        assert vault.search("налогами", k=1, now=NOW)[0].path == "Философия/Бэкон.md"  # indexed by this read
        assert vault.derived.searcher().languages() == ("russian",)
        assert keyword_side(vault, "налогами")[:1] == ["Философия/Бэкон.md"]  # by its stem: Russian is known now


def test_a_language_another_vault_object_indexed_is_searched_by_its_stems(tmp_path: Path) -> None:
    vault_path = write_vault(tmp_path / "vault", {"Recipes/Bread.md": NOTES["Recipes/Bread.md"]})
    with Vault(vault_path, embedder=HashingEmbedder()) as reader:
        reader.index()
        assert reader.derived.searcher().languages() == ()
        reader.search("dough", k=1, now=NOW)
        with Vault(vault_path, embedder=HashingEmbedder()) as writer:  # another connection, as another process
            write_vault(vault_path, {"Wohnen/Umzug.md": NOTES["Wohnen/Umzug.md"]})
            writer.index()  # its commit, not the reader's: the reader's walk finds nothing left to do
        assert reader.derived.searcher().languages() == ("german",)
        assert keyword_side(reader, "Häuser")[:1] == ["Wohnen/Umzug.md"]
