"""A query that names a value of a note's property lifts that note (valued.py, ranking.PROPERTY_BONUS).

"What did Ben plan to do in Mexico City?" asked of one note per dialogue turn, each with
``speaker:``: Ben's turns carry the value the question names. Both sides saw the name only as
one word among the question's; the fused value of a note carrying it now gains
PROPERTY_BONUS (benchmarks/PASSAGES.md §21).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import NOW, write_vault
from vaultmem import Vault
from vaultmem.ranking import PROPERTY_BONUS, fuse
from vaultmem.search import CANDIDATES_MIN, search_filters
from vaultmem.valued import names_a_value, property_values, valued_notes


def test_each_item_of_a_list_property_is_a_value_of_its_own() -> None:
    assert property_values("speaker: Ben\ngenre: Sci-fi, Comedy\nempty: ") == ("ben", "sci fi", "comedy")


@pytest.mark.parametrize(("query", "props", "named"), [
    ("What did Ben plan to do in Mexico City?", "speaker: Ben", True),
    ("what did ben say", "speaker: Ben", True),  # case folded
    ("what did Benjamin say", "speaker: Ben", False),  # a word, not a part of one
    ("the 1957 jazz record led by a bassist", "genre: Jazz, Hard bop", True),
    ("a hard day", "genre: Jazz, Hard bop", False),  # every word of a value, in a run
    ("where is it now", "pronoun: it", False),  # a stopword names nothing
    ("is it a plan", "grade: a", False),  # nor does one letter
    ("notes from Sao Paulo", "city: São Paulo", True),  # diacritics dropped, as the full text does
    ("notes from São Paulo", "city: Sao Paulo", True),
])
def test_a_query_names_a_value_when_the_values_words_are_a_run_of_its_own(query: str, props: str, named: bool) -> None:
    assert valued_notes(query, {1: props}) == ({1} if named else set())
    assert names_a_value("ben", "") is False



@pytest.mark.parametrize(("query", "props"), [
    ("What are Caroline's plans for the summer?", "speaker: Caroline"),  # was not named: "caroline's" is no value
    ("What are Caroline’s plans for the summer?", "speaker: Caroline"),
    ("what did O’Brien say about it", "speaker: O'Brien"),  # either apostrophe, as the full text reads both
    ("what did O'Brien say about it", "speaker: O’Brien"),
    ("a table at Ben's Diner", "place: Ben's Diner"),  # a value that is itself a possessive
])
def test_a_possessive_or_either_apostrophe_names_the_value(query: str, props: str) -> None:
    assert valued_notes(query, {1: props}) == {1}


@pytest.mark.parametrize(("query", "props", "named"), [
    ("रसोई की सीटी", "जगह: सिटी", False),  # whistle is not city: the same consonants, other vowel signs
    ("कुतुब मीनार", "विषय: किताब", False),  # nor Qutub book
    ("मेरी किताब कहाँ है", "विषय: किताब", True),
    ("दर्या", "जगह: दर्\u200dया", True),  # a joiner after the virama is no part of the word (marks.py)
])
def test_a_value_written_with_vowel_signs_is_named_by_its_whole_word(query: str, props: str, named: bool) -> None:
    assert valued_notes(query, {1: props}) == ({1} if named else set())

@pytest.mark.parametrize(("query", "props", "named"), [
    ("村上春树的小说", "作者: 村上春树", True),  # no space after the name: it was never named
    ("村上春樹の本", "作者: 村上春树", True),  # in its traditional (kanji) form too, as the full text folds it
    ("村上春树的书", "著者: 村上春樹", True),
    ("刘慈欣写的科幻有哪些", "作者: 刘慈欣\n类型: 科幻", True),
    ("김민수와의 회의", "참석자: 김민수", True),  # a Korean word carries its particle
    ("村上的书", "作者: 村上春树", False),  # a part of the value names nothing
    ("我想买一本书", "类型: 书", False),  # one character names nothing, as one letter does not
    ("SQL入门的书", "书名: SQL入门", True),  # a value of two scripts
])
def test_a_chinese_japanese_or_korean_value_is_named_inside_the_query_written_without_spaces(
        query: str, props: str, named: bool) -> None:
    assert valued_notes(query, {1: props}) == ({1} if named else set())


@pytest.mark.parametrize(("query", "props", "named"), [
    ("김치 먹었어", "이름: 김", False),  # one Hangul syllable is one character, as 书 is: it names nothing
    ("오늘 회의는 서울에서", "장소: 서", False),
    ("서울에서 만나요", "장소: 서울", True),  # two syllables name the place, particle and all
    ("김 선생님께 물어봐", "성: 김", False),  # spaced or not
])
def test_a_korean_value_of_one_syllable_names_nothing_though_unicode_spells_it_in_jamo(
        query: str, props: str, named: bool) -> None:
    # NFKD spells 김 as three jamo (ᄀ ᅵ ᆷ): counted so, a one-syllable value was "long enough",
    # and since each syllable of a question is a word, every question holding 김 named it.
    assert valued_notes(query, {1: props}) == ({1} if named else set())


def test_a_chinese_question_lifts_the_book_notes_of_the_author_it_names(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "books", {
        "读书/挪威的森林.md": "---\n作者: 村上春树\n评分: 4\n---\n渡边和直子的故事，关于失去和成长。\n",
        "读书/活着.md": "---\n作者: 余华\n评分: 5\n---\n福贵的一生，家人一个个离开。\n",
        "日记/2024-05-01.md": "---\n日期: 2024-05-01\n---\n今天在书店看到很多村上春树的书，但是没有买。\n",
    })
    with Vault(root) as vault:
        vault.index()
        found = vault.derived.searcher().candidates("村上春树的小说", 5, search_filters(None, None, False, NOW))
    assert {found.paths[label] for label in found.valued} == {"读书/挪威的森林.md"}


TURNS = {
    "ana-ben/s01/t001.md": "---\nspeaker: Ana\ndate: 2024-06-01\n---\nAre you still going to Mexico City next month?\n",
    "ana-ben/s01/t002.md": "---\nspeaker: Ben\ndate: 2024-06-01\n---\nYes! Mostly museums, a cooking class, and tacos from street stands.\n",
    "ana-ben/s01/t003.md": "---\nspeaker: Ana\ndate: 2024-06-01\n---\nI went to Mexico City last year and loved the museums.\n",
    "ana-ben/s01/t004.md": "---\nspeaker: Ben\ndate: 2024-06-01\n---\nWhich museum should I see first in Mexico City?\n",
    "ana-ben/s01/t005.md": "---\nspeaker: Ana\ndate: 2024-06-01\n---\nThe anthropology one, without a doubt.\n",
}


@pytest.fixture
def dialogue(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "dialogue", TURNS)


def test_the_turns_of_the_speaker_a_question_names_gain_the_property_bonus_and_no_other_does(dialogue: Path) -> None:
    query = "What did Ben plan to do in Mexico City?"
    with Vault(dialogue) as vault:
        vault.index()
        searcher = vault.derived.searcher()
        found = searcher.candidates(query, 5, search_filters(None, None, False, NOW))
        hits = vault.search(query, k=5, now=NOW)
    without = {item.label: item.value for item in fuse(found.vectors, found.text, CANDIDATES_MIN, standard=CANDIDATES_MIN)}
    gained = {found.paths[item.label]: round(item.value - without[item.label], 9) for item in found.fused}
    assert gained == {path: PROPERTY_BONUS if "speaker: Ben" in text else 0.0 for path, text in TURNS.items()}
    assert PROPERTY_BONUS == 0.2  # adr/0004, "A property value the query names"
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_a_query_that_names_no_value_ranks_as_the_sides_fuse(dialogue: Path) -> None:
    query = "which museum in Mexico City"
    with Vault(dialogue) as vault:
        vault.index()
        found = vault.derived.searcher().candidates(query, 5, search_filters(None, None, False, NOW))
    without = {item.label: item.value for item in fuse(found.vectors, found.text, CANDIDATES_MIN, standard=CANDIDATES_MIN)}
    assert all(abs(item.value - without[item.label]) < 1e-12 for item in found.fused)


def test_explain_says_which_property_value_the_query_names_and_only_for_a_note_that_carries_it(dialogue: Path) -> None:
    query = "What did Ben plan to do in Mexico City?"
    with Vault(dialogue) as vault:
        vault.index()
        bens = vault.explain("ana-ben/s01/t002.md", query, now=NOW)
        anas = vault.explain("ana-ben/s01/t003.md", query, now=NOW)
    assert [reason for reason in bens.reasons if reason.startswith("property match")] == [
        "property match: the query names one of its property values ('ben', its speaker), which adds 0.2 to its fused value"]
    assert not [reason for reason in anas.reasons if reason.startswith("property match")]
