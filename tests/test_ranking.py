"""What a hit's score means does not depend on how many notes competed for it (ranking.py).

The score is a calibrated chance that the hit is what was asked for. It is computed from
z-scores over the candidates; with fewer candidates than a search's pool (a new agent's
vault of five memories, a tag filter leaving a handful) the notes that were not there
count, on the text side, as the zeros they would score: the one memory holding the words
asked for still reads as an answer — and when nothing answers, nothing reads as one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import NOW
from vaultmem import Vault
from vaultmem.ranking import TEXT_WEIGHT, VECTOR_WEIGHT, SideHit, fuse, zscores

MEMORIES = (
    "Maya prefers aisle seats on flights",
    "The Harbor standup is at 9:45 Lisbon time",
    "Lars works on the BI dashboards in Berlin",
    "Maya is vegetarian and avoids mushrooms",
    "The quarterly report is due on December 15",
)


def test_background_candidates_that_score_zero_widen_the_standardisation() -> None:
    hits = [SideHit(1, 0.9, 1), SideHit(2, 0.3, 2), SideHit(3, 0.2, 3)]
    alone = zscores(hits)
    among_fifty = zscores(hits, background=47)
    assert among_fifty[1] > 2 * alone[1]
    assert among_fifty[1] > among_fifty[2] > among_fifty[3]
    # Zeros in the background are exactly fifty candidates, 47 of them scoring 0.
    spelled_out = zscores([*hits, *(SideHit(100 + n, 0.0, -1) for n in range(47))])
    assert all(abs(among_fifty[label] - spelled_out[label]) < 1e-9 for label in (1, 2, 3))


def test_a_full_pool_is_standardised_as_before() -> None:
    vectors = [SideHit(n, 1.0 - n / 100, n) for n in range(50)]
    text = [SideHit(n, 5.0 - (n / 10) ** 2, n) for n in range(50)]  # not a line: the sides' z differ, so the weights show
    fused = {item.label: item.value for item in fuse(vectors, text, pool=50)}
    vector_z, text_z = zscores(vectors), zscores(text)
    assert abs(vector_z[0] - text_z[0]) > 0.1
    assert all(abs(fused[n] - (VECTOR_WEIGHT * vector_z[n] + TEXT_WEIGHT * text_z[n])) < 1e-9 for n in range(50))
    assert (VECTOR_WEIGHT, TEXT_WEIGHT) == (0.55, 0.45)  # adr/0004, "Weights and pool, revisited"


@pytest.fixture
def five_memories(tmp_path: Path, wordllama: object) -> Path:
    with Vault(tmp_path) as vault:
        for text in MEMORIES:
            vault.remember(text, layer="L3", tags=["trip"] if "seat" in text else [], now=NOW)
    return tmp_path


def test_the_memory_that_answers_reads_as_an_answer_in_a_vault_of_five(five_memories: Path) -> None:
    with Vault(five_memories) as vault:
        hits = vault.search("when is the Harbor standup", k=3, now=NOW)
    assert hits[0].title == "The Harbor standup is at 9:45 Lisbon time"
    assert hits[0].score >= 0.5  # was 0.17: five candidates cannot stand far apart
    assert all(hit.score < 0.5 for hit in hits[1:])


def test_a_filter_that_leaves_one_note_holding_the_words_asked_for_keeps_it_out_of_the_no_answer_band(five_memories: Path) -> None:
    """One eligible note: the vector side has nothing to compare it with (z 0); the words it
    holds still count against the zeros the filtered-out notes would score (was 0.02 on the
    pool of one alone)."""
    with Vault(five_memories) as vault:
        unfiltered = vault.search("which seat does Maya like on a plane", k=1, now=NOW)[0]
        filtered = vault.search("which seat does Maya like on a plane", k=1, tags=["trip"], now=NOW)[0]
    assert filtered.path == unfiltered.path
    assert unfiltered.score >= 0.5
    assert filtered.score >= 0.4


@pytest.mark.parametrize("query", ["banana bread recipe", "what is the capital of Peru", "quantum chromodynamics on a lattice"])
def test_when_nothing_in_a_small_vault_answers_no_hit_reads_as_an_answer(five_memories: Path, query: str) -> None:
    """Regression: zeros standing in for the missing candidates on the vector side too lifted
    the nearest of five unrelated memories to 0.34–0.51 (an unrelated note's cosine is not 0)."""
    with Vault(five_memories) as vault:
        hits = vault.search(query, k=5, now=NOW)
    assert hits  # five memories are eligible: the answer lists them, ranked
    assert all(hit.score < 0.2 for hit in hits), [(hit.title, hit.score) for hit in hits]


def test_a_narrow_filter_does_not_make_an_unrelated_note_look_like_an_answer(five_memories: Path) -> None:
    with Vault(five_memories) as vault:
        [hit] = vault.search("banana bread recipe", k=1, tags=["trip"], now=NOW)
    assert hit.score < 0.2
