"""The confidence rule (confidence.judge) on its own: which evidence makes an answer one an
agent may read as an answer. Search and explain apply it (tests/test_search.py, test_explain.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vaultmem.confidence import (
    LOW_CONFIDENCE_WARNING,
    ONE_WORD_WARNING,
    Evidence,
    asks_first_holds,
    judge,
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
