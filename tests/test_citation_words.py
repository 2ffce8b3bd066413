"""Pandoc citation keys on the full-text side (vaultmem/citation_words.py)."""

from __future__ import annotations

import time
from pathlib import Path

from vaultmem import Vault
from vaultmem.citation_words import with_citation_words


def test_a_citation_key_is_followed_by_its_author_and_year() -> None:
    assert with_citation_words("beats massed practice [@ebbinghaus1885, p. 4; @cepeda2006].") == (
        "beats massed practice [@ebbinghaus1885 ebbinghaus 1885, p. 4; @cepeda2006 cepeda 2006].")
    assert with_citation_words("[-@Koszegi2006b] and @müller2019 say") == (
        "[-@Koszegi2006b Koszegi 2006] and @müller2019 müller 2019 say")
    # Its words once per text: a key cited ten times does not count the name ten times more.
    assert with_citation_words("@smith2020a; @smith2020a") == "@smith2020a smith 2020; @smith2020a"


def test_an_address_a_handle_without_a_year_and_plain_prose_stay_as_written() -> None:
    for text in ("mail ana@lab2020.org", "x@y2020", "@cache on a function", "@v2 of the API", "@smith20201",
                 "@smith1234", "no at sign here"):
        assert with_citation_words(text) == text, text


def test_a_pasted_blob_of_letters_and_at_signs_is_read_in_linear_time() -> None:
    started = time.thread_time()
    for blob in ("@" + "a" * 200_000, "@a" * 100_000, " @" * 100_000 + "2020", "@" + "a1" * 100_000):
        with_citation_words(blob)
    assert time.thread_time() - started < 1.0


def test_the_authors_name_finds_the_zettel_that_cites_them_by_key(tmp_path: Path) -> None:
    """Was (a trial on an academic Zettelkasten): "Cepeda" found the reading list that spelled
    her name out, never the zettel citing `[@cepeda2006]` (a word some note holds is not asked
    for by its first letters, so `cepeda2006` never matched)."""
    vault_dir = tmp_path / "vault"
    (vault_dir / "Zettelkasten").mkdir(parents=True)
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    zettel = "Zettelkasten/202611301412 Spaced repetition.md"
    (vault_dir / zettel).write_text(
        "Reviewing at increasing intervals beats massed practice [@ebbinghaus1885, p. 4; @cepeda2006].\n", encoding="utf-8")
    (vault_dir / "Reading list.md").write_text(
        "| paper | status |\n|---|---|\n| Cepeda et al. 2006, distributed practice | to read |\n"
        "| Ebbinghaus 1885, Memory | read |\n", encoding="utf-8")
    (vault_dir / "Groceries.md").write_text("Oat milk, lentils, coffee.\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.index()
        for query in ("Cepeda", "Ebbinghaus", "cepeda2006"):
            by_path = {hit.path: hit for hit in vault.search(query, k=5)}
            assert zettel in by_path, query
            assert by_path[zettel].match in ("keyword", "both"), (query, by_path[zettel].match)
        assert "Groceries.md" not in {hit.path for hit in vault.search("Cepeda", k=5) if hit.match != "meaning"}


def test_a_double_barrelled_authors_key_is_followed_by_both_names_and_a_camel_case_key_by_nothing_more() -> None:
    """Was (a review, s37): `@smith-jones2019a` got no words (unicode61 keeps `jones2019a` one
    token), and Better BibTeX's `@cepedaDistributedPractice2006` got its words twice, once from
    the identifier splitter and once here."""
    assert with_citation_words("[@smith-jones2019a, ch. 2]") == "[@smith-jones2019a smith-jones 2019, ch. 2]"
    assert with_citation_words("[@cepedaDistributedPractice2006]") == "[@cepedaDistributedPractice2006]"
    for text in ("@doe:2020", "@well-known-2020", "@-smith2020"):  # a colon splits already; no key; no author
        assert with_citation_words(text) == text, text
    started = time.thread_time()
    for blob in ("@a" + "-a" * 100_000, "@a" + "-a" * 100_000 + "2020", ("@a-" * 50_000) + "2020"):
        with_citation_words(blob)
    assert time.thread_time() - started < 1.0


def test_the_second_name_of_a_double_barrelled_author_finds_the_zettel(tmp_path: Path) -> None:
    """A note holds "Jones" written out, so "Jones" is not asked for by its first letters, and
    `jones2019a` (one token) never matched: the zettel citing `[@smith-jones2019a]` was lost."""
    vault_dir = tmp_path / "vault"
    vault_dir.mkdir()
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (vault_dir / "Retrieval practice.md").write_text("Testing beats restudy [@smith-jones2019a, p. 3].\n", encoding="utf-8")
    (vault_dir / "Reading list.md").write_text("Smith-Jones 2019, retrieval practice: to read.\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.index()
        by_path = {hit.path: hit for hit in vault.search("Jones", k=5)}
        assert "Retrieval practice.md" in by_path
        assert by_path["Retrieval practice.md"].match in ("keyword", "both")


def test_a_key_that_goes_on_after_its_year_gets_its_words_after_the_whole_key(tmp_path: Path) -> None:
    """Was (review, s38): `[@doe2020-supp]` (Pandoc keys hold internal punctuation) was indexed as
    `@doe2020 doe 2020-supp`: the words split the key, and a search for the key as written found
    the note by meaning alone, if at all."""
    assert with_citation_words("[@doe2020-supp, p. 2; @smith2019:ch2]") == (
        "[@doe2020-supp doe 2020, p. 2; @smith2019:ch2 smith 2019]")
    assert with_citation_words("as @smith2019. Then") == "as @smith2019 smith 2019. Then"  # a full stop ends it
    started = time.thread_time()
    for blob in ("@a2020" + "-a" * 100_000, "@a2020" + "-" * 200_000, "@a2020" + ":a1" * 100_000):
        with_citation_words(blob)
    assert time.thread_time() - started < 1.0
    vault_dir = tmp_path / "vault"
    vault_dir.mkdir()
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (vault_dir / "Supplement.md").write_text("The effect held in the supplement [@doe2020-supp].\n", encoding="utf-8")
    (vault_dir / "Groceries.md").write_text("Oat milk, lentils, coffee.\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.index()
        for query in ("doe2020-supp", "Doe"):
            [hit] = [hit for hit in vault.search(query, k=2) if hit.path == "Supplement.md"]
            assert hit.match in ("keyword", "both"), (query, hit.match)
