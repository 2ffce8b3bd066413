"""Words with endings the full text's English stemmer does not know (vaultmem/endings.py): a
Turkish case ending or a French elision by an apostrophe, and a Turkish word whose ending
differs from the note's."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NOW, keyword_side, write_vault

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.endings import apostrophe_stem, prefix_of, umlauts_unwritten, umlauts_written_out
from vaultmem.search import Candidates, query_words, search_filters

NOTES = {
    "Cloud/AWS - S3 ile Veri Depolama.md": "# S3\nAmazon S3, AWS'nin nesne depolama servisidir. Veri gölü olarak kullanılır.\n",
    "Kişiler/Zeynep Arslan.md": "---\naliases: [Zeynep]\n---\n- Kahveyi sütsüz içer, fıstığa alerjisi var.\n",
    "Günlük/17.06.2026.md": "## Bugün\n- Ev sahibi kirayı Temmuz'dan itibaren 18.000 TL'ye çıkaracağını söyledi.\n",
    "Günlük/03.06.2026.md": "## Bugün\n- Akşam annemi aradım: tansiyon ilacını eczaneden almam gerekiyor.\n",
    "Sport/Football.md": "Notre équipe de football gagne souvent le samedi.\n",
    "People/Conan.md": "Conan O'Brien hosts a late-night talk show.\n",
    "Places/Brien.md": "Brien is a small village by the river.\n",
    "Prizes/Award.md": "She won the science prize in 2019.\n",
    "Shows/Comedians.md": "A list of stand-up comedians I saw live.\n",
    "Über mich.md": "Ich wohne in München und arbeite als Übersetzerin.\n",
}


@pytest.fixture
def endings_vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", NOTES)


def candidates(vault: Vault, query: str) -> Candidates:
    return vault.derived.searcher().candidates(query, 10, search_filters(None, None, False, NOW))



@pytest.mark.parametrize(("word", "stem"), [
    ("S3'e", "S3"), ("Zeynep’in", "Zeynep"), ("Mert'le", "Mert"),  # Turkish case endings, straight and typographic
    ("AWS'nin", "AWS"), ("TL'ye", "TL"),  # after an acronym: both sides short, the left is the stem
    ("l'équipe", "équipe"), ("d'accord", "accord"), ("O'Brien", "Brien"),  # an elided word or a prefix before it
    ("don't", None), ("won't", None), ("we're", None),  # English contractions keep their phrase
    ("j'ai", None), ("rock'n'roll", None), ("Bell'Italia", None), ("S3", None),
    ("dell'azienda", "azienda"), ("Nell’ufficio", "ufficio"), ("quest'anno", "anno"),  # an Italian elision of four letters or more
    ("Sant'Anna", None),  # a name's first part, not an elision
])
def test_a_word_cut_by_an_apostrophe_has_the_longer_side_as_its_stem(word: str, stem: str | None) -> None:
    assert apostrophe_stem(word) == stem


@pytest.mark.parametrize(("query", "path"), [
    ("S3'e dosya", "Cloud/AWS - S3 ile Veri Depolama.md"),  # was the phrase "s3 e": no note holds it
    ("Zeynep’in", "Kişiler/Zeynep Arslan.md"),  # typographic apostrophe; was the phrase "zeynep in"
    ("l'équipe", "Sport/Football.md"),  # the note says "notre équipe"
])
def test_a_word_with_an_ending_after_an_apostrophe_finds_a_note_holding_its_stem(endings_vault: Path, query: str,
                                                                                   path: str) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == [path], query


def test_a_name_with_an_apostrophe_ranks_its_whole_form_above_its_stem(endings_vault: Path) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "O'Brien") == ["People/Conan.md", "Places/Brien.md"]  # was the first alone


def test_an_english_contraction_is_not_asked_for_by_its_first_part(endings_vault: Path) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert "Prizes/Award.md" not in keyword_side(vault, "won't")  # "won't" is not "won"


@pytest.mark.parametrize(("query", "path"), [
    ("kira", "Günlük/17.06.2026.md"),  # the note says "kirayı"
    ("annemin ilacı", "Günlük/03.06.2026.md"),  # the note says "annemi", "ilacını"
])
def test_a_word_no_note_holds_is_found_by_its_first_letters(endings_vault: Path, query: str, path: str) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == [path], query  # was []


def test_a_word_held_by_its_first_letters_counts_as_held(endings_vault: Path) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        found = candidates(vault, "annemin ilacı neydi")
    assert found.unheld_words == ("neydi",)  # was all three: every hit's score lowered as for a foreign question
    assert found.prefix_words == ("annemin", "ilacı")


def test_an_english_query_is_not_asked_for_by_first_letters(endings_vault: Path) -> None:
    assert [word.prefix for word in query_words("kira ne kadar")] == ['"kira"*', '"kadar"*']
    assert [word.prefix for word in query_words("the comedy I saw")] == [None, None]  # "comedy" is not "comedian"
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "the comedy") == []
        assert candidates(vault, "the comedy").prefix_words == ()


@pytest.mark.parametrize(("query", "prefixes"), [
    ("qué me falta resumir", ['"falta"*', '"resum"*']),  # Spanish "me": was read as English, no first letters
    ("no tengo café", ['"cafe"*']),
    ("on a parlé de tout", ['"parle"*', '"tout"*']),  # French "on a"
    ("o que eu comprei no mercado", [None, '"compr"*', '"merca"*']),  # Portuguese "no"
])
def test_a_word_other_languages_share_with_english_does_not_make_their_question_english(
        query: str, prefixes: list[str | None]) -> None:
    assert [word.prefix for word in query_words(query)] == prefixes


def test_a_shared_word_without_another_languages_word_still_says_english() -> None:
    assert [word.prefix for word in query_words("a comedy on tv")] == [None, None]
    assert [word.prefix for word in query_words("qué es the comedy")] == [None]  # "the" is English alone


def test_a_spanish_question_with_me_finds_the_note_holding_its_word_with_another_ending(tmp_path: Path) -> None:
    # A trial on a Spanish vault: "qué me falta resumir de la unidad 6" missed the note saying
    # "hacer resumenes de la unidad 6": "me" made the question English, so "resumir" was not
    # asked for by its first letters.
    notes = {"cerebro/pendientes.md": "- [ ] hacer resumenes de la unidad 6 del pdf\n",
             "spd/memorias.md": "La memoria cache guarda bloques de la memoria principal.\n"}
    with Vault(write_vault(tmp_path / "vault", notes), embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "qué me falta resumir")[:1] == ["cerebro/pendientes.md"]  # was []


def test_a_prefix_drops_the_last_third_of_a_word_and_keeps_at_least_five_letters() -> None:
    assert [prefix_of(word) for word in ("kira", "ilaci", "annemin", "projesinin", "s3", "abc")] == [
        "kira", "ilaci", "annem", "projesi", None, None]


def test_explain_names_the_words_asked_for_by_their_first_letters(endings_vault: Path) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        explained = vault.explain("Günlük/03.06.2026.md", "annemin ilacı neydi", now=NOW)
    assert any(reason.startswith("annemin, ilacı: in no note as written, so asked for by their first letters")
               for reason in explained.reasons), explained.reasons
    assert any("(neydi) is in no unexpired note of the vault" in reason for reason in explained.reasons), explained.reasons


def test_a_word_of_another_script_keeps_its_marks_when_folded() -> None:
    # The full text keeps the marks of scripts other than Latin (a Hindi virama, a Japanese
    # voicing mark): a fold that dropped them asked for first letters no note could hold.
    from vaultmem.endings import folded

    assert folded("İlacı") == "ilaci" and folded("Ürün") == "urun"
    assert folded("किताब्") == "किताब्"
    assert folded("かがみ").split() == ["か", "が", "み"]  # fts_form spaces the characters; が stays が


def test_an_ending_after_an_apostrophe_is_no_english_function_word() -> None:
    # "Zeynep'in" (Zeynep's) and "İstanbul'a" (to Istanbul) end in "in" and "a": read as the
    # English words, they turned first letters off for the query's other words.
    assert [word.prefix for word in query_words("Zeynep'in kirası")] == [None, '"kiras"*']
    assert [word.prefix for word in query_words("İstanbul'a kira")][1:] == ['"kira"*']
    assert [word.prefix for word in query_words("it's the kira")] == [None]  # an English contraction still says English


def test_a_word_beside_one_with_an_apostrophe_ending_is_found_by_its_first_letters(endings_vault: Path) -> None:
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        found = candidates(vault, "Temmuz'a kira")  # "to July": the "a" was the English article
        assert found.prefix_words == ("kira",)
        assert [found.paths[hit.label] for hit in found.text][:1] == ["Günlük/17.06.2026.md"]


@pytest.mark.parametrize(("word", "unwritten"), [
    ("ueber", "uber"), ("muenchen", "munchen"), ("haeuser", "hauser"), ("groesse", "grosse"),
    ("steuer", None), ("neue", None), ("frauen", None),  # "eu", "eue", "au": no umlaut typed as a pair
])
def test_umlauts_typed_as_pairs_are_read_as_the_full_text_folds_them(word: str, unwritten: str | None) -> None:
    assert umlauts_unwritten(word) == unwritten


@pytest.mark.parametrize("query", ["ueber mich", "Muenchen", "Uebersetzerin"])
def test_a_german_word_typed_without_its_umlaut_finds_the_note_holding_it(endings_vault: Path, query: str) -> None:
    # A German keyboard-less spelling: no note holds "ueber", the note's "Über" folds to "uber".
    with Vault(endings_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == ["Über mich.md"], query  # was []
        assert candidates(vault, query).unheld_words == ()


@pytest.mark.parametrize(("word", "written"), [
    ("Händler", "Haendler"), ("prüfen", "pruefen"), ("Öl", "Oel"), ("unverändert", "unveraendert"),
    ("Ha\u0308ndler", "Haendler"),  # as macOS decomposes it
    ("Straße", None), ("Haendler", None),
])
def test_umlauts_are_written_out_as_german_writes_them_without_the_keys(word: str, written: str | None) -> None:
    assert umlauts_written_out(word) == written


GERMAN_NOTES = {
    "IB/Kunden.md": "# Kundenstamm\n\nPU Prime: 1 Kunde total, 0 aktive Haendler, Stand unveraendert.\n",
    "Sport/Laufplan.md": "# Laufplan\n\nDie Belastungsspitze in Woche 9 bleibt unverändert.\n",
    "Trading/Heikin-Ashi.md": "# Heikin-Ashi\n\nErfunden vom japanischen Reishändler Munehisa Homma.\n",
}


def test_a_word_with_an_umlaut_finds_the_note_that_writes_it_out(tmp_path: Path) -> None:
    # A note typed without the keys says "Haendler": the query's "Händler" folds to "handler",
    # which it does not hold; it was in no note at all (a trial on a German vault).
    with Vault(write_vault(tmp_path / "vault", GERMAN_NOTES), embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "Händler") == ["IB/Kunden.md"]  # was []
        assert candidates(vault, "Händler").unheld_words == ()
        assert sorted(keyword_side(vault, "unverändert")) == ["IB/Kunden.md", "Sport/Laufplan.md"]  # was the Laufplan alone


def test_a_pair_that_is_no_umlaut_still_asks_for_the_words_own_first_letters() -> None:
    assert [word.prefix for word in query_words("fuego grande")] == ['("fuego"* OR "fugo"*)', '"grand"*']


def test_an_italian_word_after_an_elided_preposition_finds_the_note_holding_it_after_another(tmp_path: Path) -> None:
    # "dell'azienda" (of the company) was the phrase "dell azienda": a note saying "l'azienda" or
    # "azienda" did not hold it, and the note saying "fatturato" twice without it ranked first.
    notes = {"Lavoro/Riunione.md": "Abbiamo letto i numeri: l'azienda cresce, il fatturato anche.\n",
             "Lavoro/Negozio.md": "Fatturato del negozio. Fatturato di marzo.\n"}
    with Vault(write_vault(tmp_path / "vault", notes), embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "fatturato dell'azienda")[:1] == ["Lavoro/Riunione.md"]
