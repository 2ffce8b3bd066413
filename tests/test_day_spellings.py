"""A day a query names finds the note writing that day another way: ISO, CJK, English words,
numbers with the year last (vaultmem/day_spellings.py; adr/0026 "A query's day in every spelling")."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import keyword_side, write_vault

from vaultmem import Vault
from vaultmem.day_spellings import day_spellings, numbered_days_said
from vaultmem.embedders import HashingEmbedder
from vaultmem.search import query_words

# Each note writes 18 March 2025 its own way; the others hold the same numbers apart, or another day.
NOTES = {
    "journal/春季.md": "# 旅行\n\n## 2025年3月18日\n\n去了京都，参观清水寺。\n",
    "roam/dentist.md": "March 18th, 2025: the dentist moved the crown fitting.\n",
    "german/zahnarzt.md": "Termin am 18.03.2025 beim Zahnarzt wegen der Krone.\n",
    "log/iso.md": "2025-03-18 renewed the passport at the consulate.\n",
    "other/numbers.md": "Invoice 18 for 2025, item 03: three chairs.\n",
    "other/next-day.md": "19 March 2025: the crown fitting was fine.\n",
}


@pytest.fixture
def vault(tmp_path: Path):
    with Vault(write_vault(tmp_path / "vault", NOTES), embedder=HashingEmbedder()) as opened:
        opened.index()
        yield opened


DAY = {"journal/春季.md", "roam/dentist.md", "german/zahnarzt.md", "log/iso.md"}


@pytest.mark.parametrize("query", ["18 March 2025", "March 18, 2025", "2025-03-18", "2025年3月18日", "18.03.2025",
                                   "2025/3/18", "March 18th 2025"])
def test_a_day_in_any_spelling_finds_every_note_writing_that_day(vault: Vault, query: str) -> None:
    # Was: "18 March 2025" found the ISO note only, 2025-03-18 neither the CJK heading nor the
    # English or German day, 2025年3月18日 the ISO note only; 18.03.2025 only its own spelling.
    assert set(keyword_side(vault, f"what happened on {query}")) == DAY


def test_a_day_without_its_year_finds_the_notes_of_that_day(vault: Vault) -> None:
    # 18.03.2025 is no spelling of a yearless day (18.03 is as often a price): the others are.
    assert set(keyword_side(vault, "March 18")) == DAY - {"german/zahnarzt.md"}
    assert set(keyword_side(vault, "3月18日")) == DAY - {"german/zahnarzt.md"}


def test_a_day_in_numbers_whose_order_is_unknown_is_asked_for_as_its_numbers() -> None:
    # 05.09.2025: 5 September or 9 May — neither is guessed (as a --since bound refuses it).
    assert numbered_days_said("on 05.09.2025") == ("on 05.09.2025", [])
    assert [word.terms for word in query_words("05.09.2025")] == [('"05 09 2025"',)]
    assert numbered_days_said("on 05.05.2025")[1] == [("05.05.2025", 2025, 5, 5)]  # either order: that day
    assert numbered_days_said("on 09/18/2025")[1] == [("09/18/2025", 2025, 9, 18)]  # 18 is no month


@pytest.mark.parametrize("text", ["2025-03-18.md", "2025-03-18T10:00", "1.2.2025.4", "2025-02-30", "v18.03.2025a"])
def test_a_day_inside_another_word_or_no_calendars_day_is_left_as_it_is(text: str) -> None:
    assert numbered_days_said(text) == (text, [])


def test_numbers_spell_a_day_only_when_one_order_alone_is_it() -> None:
    assert "18.03.2025" in day_spellings(2025, 3, 18) and "03.18.2025" in day_spellings(2025, 3, 18)
    assert not any(spelled.count(".") == 2 for spelled in day_spellings(2025, 9, 5))  # 05.09.2025: which order?
    assert "September 5th 2025" in day_spellings(2025, 9, 5) and "2025年9月5日" in day_spellings(2025, 9, 5)
