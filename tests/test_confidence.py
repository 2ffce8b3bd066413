"""The confidence rule (confidence.judge) on its own: which evidence makes an answer one an
agent may read as an answer. Search and explain apply it (tests/test_search.py, test_explain.py)."""

from __future__ import annotations

import math
from pathlib import Path
from dataclasses import replace

import pytest

from vaultmem.confidence import (
    FIRST_LETTERS_WARNING,
    LOW_CONFIDENCE_WARNING,
    NOT_NEAR_WARNING,
    ONE_WORD_WARNING,
    Evidence,
    asks_first_holds,
    asks_word_weights,
    held_share,
    judge,
    word_weight,
)

# "what is my passport number" on kepano's vault: "Buy wisely" first for holding "number",
# the meaning side's 48th; "passport" in no note.
ONE_WORD = Evidence(best_score=0.15, words=("passport", "number"), any_word_held=True, every_word=False, named=False,
                    common_only=False, first_by_meaning=False, first_holds=("number",))


def test_a_first_hit_holding_one_word_and_not_nearest_in_meaning_is_not_confident() -> None:
    verdict = judge(ONE_WORD)
    assert verdict.confident is False
    assert verdict.warning == ONE_WORD_WARNING.format(held="one (number)", count=2)
    assert verdict.why == ("not confident: the first hit holds one (number) of the query's 2 words (passport, number) "
                           "and the meaning side ranks another note first")


@pytest.mark.parametrize("change", [
    {"first_by_meaning": True},  # the meaning side agrees: "dietary restrictions vegetarian"
    {"named": True},  # a note named as asked is the answer, whatever words it holds
    {"first_holds": ("passport", "number")},  # it holds two
    {"words": ("passport",), "first_holds": ()},  # a one-word query: one word held is all it asks
])
def test_a_first_hit_holding_one_word_stays_confident_when_anything_else_backs_it(change: dict[str, object]) -> None:
    evidence = replace(ONE_WORD, **change)  # type: ignore[arg-type]
    assert judge(evidence).confident is True
    assert judge(evidence).warning is None


def test_the_first_hits_words_are_looked_up_only_when_the_rule_can_use_them() -> None:
    assert asks_first_holds(replace(ONE_WORD, first_holds=None)) is True
    assert asks_first_holds(replace(ONE_WORD, first_by_meaning=True)) is False
    assert asks_first_holds(replace(ONE_WORD, words=("passport",))) is False
    assert asks_first_holds(replace(ONE_WORD, best_score=None)) is False
    # not looked up: the rule does not apply, and the answer keeps its confidence
    assert judge(replace(ONE_WORD, first_holds=None)).confident is True


def test_a_negligible_best_score_outranks_the_one_word_rule_and_says_its_score() -> None:
    verdict = judge(replace(ONE_WORD, best_score=0.02))
    assert verdict.confident is False
    assert verdict.warning == LOW_CONFIDENCE_WARNING.format(best=0.02)


def test_no_hit_is_not_confident_and_warns_nothing() -> None:
    verdict = judge(replace(ONE_WORD, best_score=None))
    assert verdict.confident is False and verdict.warning is None


# "drop repeated adjacent lines from a list" on the sample vault: the Inbox first for saying
# "lines", the meaning side scoring it 0.15; "repeated" and "adjacent" are in no note.
NOT_NEAR = Evidence(best_score=0.16, words=("drop", "repeated", "adjacent", "lines", "list"), any_word_held=True,
                    every_word=False, named=False, common_only=False, first_by_meaning=True, first_holds=("lines",),
                    first_similarity=0.15, meaning_floor=0.2, word_weights=(2.0, 4.4, 4.4, 3.3, 2.5))


def test_a_first_hit_holding_little_of_the_query_and_not_near_in_meaning_is_not_confident() -> None:
    verdict = judge(NOT_NEAR)
    assert verdict.confident is False
    assert held_share(NOT_NEAR) == pytest.approx(3.3 / 16.6)
    assert verdict.warning == NOT_NEAR_WARNING.format(share=3.3 / 16.6)
    assert verdict.why == ("not confident: the first hit holds 20% of what the query's words say (weighed by how rare each "
                           "is in the vault; lines of drop, repeated, adjacent, lines, list) and the meaning side scores "
                           "it 0.15, below the 0.20 unrelated notes can reach")
    # found by its words alone: the meaning side did not propose it at all
    assert judge(replace(NOT_NEAR, first_similarity=None)).why.endswith("the meaning side did not propose it")


@pytest.mark.parametrize("change", [
    {"first_similarity": 0.2},  # near enough in meaning: a paraphrase sharing few words ("Which animals live with Ana?")
    {"first_holds": ("repeated", "lines")},  # it holds a telling word: 7.7 of 16.6
    {"named": True},  # a note named as asked is the answer, whatever words it holds
    {"meaning_floor": None},  # an embedder whose scale nobody measured: the rule does not apply
    {"word_weights": None},  # not looked up: the rule does not decide
])
def test_a_first_hit_holding_little_stays_confident_when_anything_else_backs_it(change: dict[str, object]) -> None:
    evidence = replace(NOT_NEAR, **change)  # type: ignore[arg-type]
    assert judge(evidence).confident is True
    assert judge(evidence).warning is None


def test_the_words_are_weighed_only_when_the_meaning_side_does_not_find_the_first_hit_near() -> None:
    assert asks_word_weights(NOT_NEAR) is True
    assert asks_word_weights(replace(NOT_NEAR, first_similarity=None)) is True
    assert asks_word_weights(replace(NOT_NEAR, first_similarity=0.25)) is False
    assert asks_word_weights(replace(NOT_NEAR, meaning_floor=None)) is False
    assert asks_word_weights(replace(NOT_NEAR, named=True)) is False


def test_a_word_weighs_more_the_fewer_passages_hold_it() -> None:
    assert word_weight(0, 99) > word_weight(1, 99) > word_weight(50, 99) > 0.0
    assert word_weight(0, 99) == pytest.approx(math.log(100 / 0.5))
    assert word_weight(99, 99) == pytest.approx(math.log(100 / 99.5))  # every passage holds it: next to nothing

# "expresso" on kepano's vault: no note holds it, its first letters ("expres"*) are held by the
# essay saying "expressed", the meaning side's 14th (PASSAGES.md §31).
FIRST_LETTERS = Evidence(best_score=0.68, words=("expresso",), any_word_held=True, every_word=True, named=False,
                         common_only=False, first_by_meaning=False, by_first_letters=("expresso",),
                         asked=(('"expres"*',),), first_meaning_rank=14)


def test_a_one_word_query_held_only_by_its_first_letters_is_not_confident_unless_nearest_in_meaning() -> None:
    """Was confident at 0.68 (stop 38's leftover): a first hit that holds only a word beginning as
    the query's does may hold another word (a misspelling's neighbour), and nothing else backs it."""
    verdict = judge(FIRST_LETTERS)
    assert verdict.confident is False
    assert verdict.warning == FIRST_LETTERS_WARNING.format(word="expresso", asked="expres*")
    assert verdict.why == ("not confident: no note holds 'expresso', only its first letters (expres*), and the meaning "
                           "side does not rank the first hit among its first 10")
    assert judge(replace(FIRST_LETTERS, first_meaning_rank=None)).confident is False  # not among its candidates at all


@pytest.mark.parametrize("change", [
    {"first_by_meaning": True, "first_meaning_rank": 1},  # the meaning side agrees ("allergxo" → the vet's allergy note)
    {"first_meaning_rank": 4},  # among its first ten: "calender" → the note saying "calendar"
    {"named": True},  # a note named as asked
    {"by_first_letters": ()},  # held whole, or by its stems (a word with another ending, stems.stem)
    {"words": ("annemin", "ilacı"), "by_first_letters": ("annemin", "ilacı"),
     "asked": (('"annem"*',), ('"ilac"*',))},  # two words so held in one note: no chance (rule 5 judges them)
])
def test_first_letters_alone_stay_confident_when_anything_else_backs_them(change: dict[str, object]) -> None:
    evidence = replace(FIRST_LETTERS, **change)  # type: ignore[arg-type]
    assert judge(evidence).confident is True


# s42: "how terse should replies be" on a vault whose preference says "Keep answers short": the first
# hit "Lars replies to Slack messages …" holds "replies" only, the meaning side's first at 0.31 (just
# above its 0.20 floor, for the shared word), and another note saying "replies" scores 0.27 beside its
# 0.31 — read confident, the preference nowhere in the answer.
ALIKE = Evidence(best_score=0.31, words=("terse", "replies"), any_word_held=True, every_word=False, named=False,
                 common_only=False, first_by_meaning=True, first_holds=("replies",), first_similarity=0.31,
                 meaning_floor=0.2, word_weights=(6.0, 3.9), first_meaning_rank=1, next_score=0.27)


def test_a_first_hit_holding_one_word_only_just_near_and_not_standing_out_is_not_confident() -> None:
    from vaultmem.confidence import ALIKE_WARNING, asks_standing_out

    assert asks_standing_out(ALIKE) is True
    verdict = judge(ALIKE)
    assert verdict.confident is False
    assert verdict.warning == ALIKE_WARNING.format(held="one (replies)", count=2, ratio=0.27 / 0.31)
    assert "does not stand out" in verdict.why


@pytest.mark.parametrize("change", [
    {"next_score": 0.1},  # it stands out above the next hit: "who wrote Out of Control" (0.81, then 0.11)
    {"next_score": None},  # the only hit
    {"first_similarity": 0.4},  # near in meaning beyond the shared word
    {"first_holds": ("terse", "replies")},  # it holds both
    {"word_weights": (3.0, 6.0)},  # the word it holds is most of what the query says
    {"every_word": True},  # some note holds every word
    {"named": True},
    {"meaning_floor": None},  # an embedder whose scale nobody measured
])
def test_a_first_hit_holding_one_word_stays_confident_when_it_stands_out_or_anything_else_backs_it(
        change: dict[str, object]) -> None:
    evidence = replace(ALIKE, **change)  # type: ignore[arg-type]
    assert judge(evidence).confident is True, judge(evidence).why


def test_a_preference_asked_in_other_words_is_not_answered_confidently_by_a_note_sharing_one_word(
        sample_vault: Path, wordllama: object) -> None:
    # s42, reproduced on the sample vault with the real embedder: the wrong note read confident.
    from vaultmem import Vault

    now = "2026-12-02T12:00:00+00:00"
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        vault.remember("Keep answers short.", layer="L4", now=now)
        vault.remember("Lars replies to Slack messages within an hour.", layer="L3", now=now)
        vault.remember("Email replies to the landlord go through Rui.", layer="L3", now=now)
        hits = vault.search("how terse should replies be", k=3, now=now)
        assert hits[0].path == "memories/lars-replies-to-slack-messages-within-an-hour.md"
        assert hits.confident is False and any("is only just near it in meaning" in warning for warning in hits.warnings)
        # The right answer asked in its own words stays confident.
        right = vault.search("how long should my answers be", k=3, now=now)
        assert right[0].path == "memories/keep-answers-short.md" and right.confident is True
