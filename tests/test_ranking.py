"""What a hit's score means does not depend on how many notes competed for it (ranking.py).

The score is a calibrated chance that the hit is what was asked for. It is computed from
z-scores over the candidates; with fewer candidates than a search's pool (a new agent's
vault of five memories, a tag filter leaving a handful) the notes that were not there
count, on the text side, as the zeros they would score: the one memory holding the words
asked for still reads as an answer — and when nothing answers, nothing reads as one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers import NOW, copy_sample_vault, write_vault
from vaultmem import Vault
from vaultmem.ranking import (NAMED_PRECISION, TEXT_WEIGHT, VECTOR_WEIGHT, SideHit, chance_lowering, chance_share, counted_passages, for_many_passages,
                              fuse, grouped_note_scores, grouped_scores_for_many_passages, hit_score, note_scores, probability, zscores)
from vaultmem.search import search_filters

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


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    """The sample vault (39 notes: as large as the smallest vault the calibration saw)."""
    return copy_sample_vault(tmp_path / "sample")


def test_words_no_note_holds_lower_every_hits_score_alike_and_leave_the_order(sample_copy: Path, wordllama: object) -> None:
    """"Berlin zoo opening hours": the sample vault says Berlin, opening and hours, never zoo.
    A quarter of the question is in no note: every hit's score is lowered alike, and the order
    stays the fused value's (the score never rises down the list)."""
    query = "Berlin zoo opening hours"
    with Vault(sample_copy, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        found = vault.derived.searcher().candidates(query, 5, search_filters(None, None, False, NOW))
        hits = vault.search(query, k=5, now=NOW)
        calibration = vault.embedder().score_calibration
    assert found.unheld_words == ('zoo',)
    assert (found.vault_weight, found.unheld) == (1.0, 0.25)
    assert [hit.path for hit in hits] == [found.paths[item.label] for item in found.fused[:5]]
    assert [hit.score for hit in hits] == [round(probability(item.value, calibration, 0.25), 4) for item in found.fused[:5]]
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    held_alike = probability(found.fused[0].value, calibration)  # the score had the vault held every word
    assert hits[0].score < held_alike - 0.05


def test_in_a_vault_of_five_memories_a_missing_word_counts_for_little(five_memories: Path) -> None:
    """A vault of five memories lacks most words of any question, answered or not ("meat",
    "eater" here): a missing word counts for 5/39 of what it does in a vault the size of
    the smallest the calibration saw, so the paraphrase that is answered still reads as one
    (0.13 when it counted in full)."""
    with Vault(five_memories) as vault:
        found = vault.derived.searcher().candidates("is Maya a meat eater", 3, search_filters(None, None, False, NOW))
        [hit] = vault.search("is Maya a meat eater", k=1, now=NOW)
        calibration = vault.embedder().score_calibration
    assert hit.title == "Maya is vegetarian and avoids mushrooms"
    assert found.unheld_words == ('meat', 'eater') and found.vault_weight == pytest.approx(5 / 39)
    assert hit.score == round(probability(found.fused[0].value, calibration, found.unheld), 4)
    counted_in_full = probability(found.fused[0].value, calibration, 2 / 3)
    assert hit.score > counted_in_full + 0.15


def test_a_word_only_a_filtered_out_note_holds_is_still_the_vaults(five_memories: Path) -> None:
    """What the vault holds is its vocabulary, whatever the filter: the one note tagged trip
    lacks "vegetarian", but another memory says it, so nothing is unheld and the filter alone
    does not lower the score."""
    with Vault(five_memories) as vault:
        searcher = vault.derived.searcher()
        filtered = searcher.candidates("Maya vegetarian seat", 1, search_filters(None, ["trip"], False, NOW))
        unknown = searcher.candidates("Maya zeppelin seat", 1, search_filters(None, ["trip"], False, NOW))
    assert filtered.text  # the filter left a note holding some of the words
    assert filtered.unheld == 0.0
    assert unknown.unheld_words == ('zeppelin',)


def test_the_words_only_an_expired_note_holds_are_unheld(five_memories: Path) -> None:
    """An expired memory no longer knows anything: a trial's expired "parking spot" note made
    its question look answered, and an unrelated note came first at 0.72. Its words count
    again when expired notes are asked for."""
    with Vault(five_memories) as vault:
        parked = vault.remember("The car is parked on level 3 of the Alvalade garage.", layer="L1", ttl="1h", now=NOW)
        searcher = vault.derived.searcher()
        later = "2026-12-31T00:00:00+00:00"
        while_alive = searcher.candidates("parked garage Maya", 1, search_filters(None, None, False, NOW))
        expired = searcher.candidates("parked garage Maya", 1, search_filters(None, None, False, later))
        asked_for = searcher.candidates("parked garage Maya", 1, search_filters(None, None, True, later))
        lowered = vault.search("parked garage Maya", k=1, now=later)[0]
        shown = vault.search("parked garage Maya", k=1, now=later, include_expired=True)[0]
        why = vault.explain(lowered.path, "parked garage Maya", k=1, now=later)
    assert while_alive.unheld_words == ()
    assert expired.unheld_words == ("parked", "garage")
    assert asked_for.unheld_words == ()
    assert shown.path == parked.path and lowered.path != parked.path
    assert why.score["fused"] == lowered.score
    assert any("2 of the query's 3 words (parked, garage) are in no unexpired note of the vault" in reason
               for reason in why.reasons), why.reasons


def test_explain_says_which_words_of_the_query_no_note_holds(five_memories: Path) -> None:
    with Vault(five_memories) as vault:
        [hit] = vault.search("Berlin zoo opening hours", k=1, now=NOW)
        explained = vault.explain(hit.path, "Berlin zoo opening hours", k=1, now=NOW)
        plain = vault.explain(hit.path, "where does Lars work in Berlin", k=1, now=NOW)
    assert explained.score["fused"] == hit.score
    assert any("3 of the query's 4 words (zoo, opening, hours) are in no unexpired note of the vault: every hit's score is "
               "lowered for them, by 13% of the full amount" in reason for reason in explained.reasons), explained.reasons
    assert not any("in no unexpired note of the vault" in reason for reason in plain.reasons), plain.reasons
    with Vault(five_memories) as vault:
        single = vault.explain(hit.path, "zeppelin", k=1, now=NOW)
    assert any(reason.startswith("the query's only word (zeppelin) is in no unexpired note of the vault: every hit's score is lowered for it")
               for reason in single.reasons), single.reasons  # was "1 of the query's 1 words (zeppelin) are"
    with Vault(five_memories) as vault:
        expired_too = vault.explain(hit.path, "zeppelin", k=1, now=NOW, include_expired=True)
    assert any(reason.startswith("the query's only word (zeppelin) is in no note of the vault:")  # expired ones asked for too
               for reason in expired_too.reasons), expired_too.reasons


def test_the_passages_a_note_score_counts_give_the_score_every_passage_gives() -> None:
    # The vector side scores a 5 MB note's 6,000 passages on some queries; note_scores sorted
    # them all in Python (4 ms). Only each note's best three count, ties broken by label: kept
    # by numpy, the same notes, scores and best passages come out, negatives and ties included.
    generator = np.random.default_rng(7)
    notes = generator.integers(1, 40, size=3000).astype(np.int64)
    notes[0] = 99  # a note of one passage
    labels = generator.permutation(np.arange(10_000, 13_000)).astype(np.int64)
    scores = np.round(generator.normal(0.0, 0.3, size=3000), 1).astype(np.float32)  # rounded: notes whose best four tie
    counted = counted_passages(labels, notes, scores)
    every = note_scores(zip(labels.tolist(), notes.tolist(), scores.tolist(), strict=True))
    assert note_scores(counted) == every
    assert len(counted) == sum(min(3, count) for count in np.unique(notes, return_counts=True)[1].tolist()) < 3000
    assert any(hit.label == 99 for hit in every) and min(hit.score for hit in every) < 0


# A campaign vault where every note says Phandalin (a trial): the town's own note stood out
# little by its text, and read 0.20 first for "where is Phandalin".
CAMPAIGN = {
    "Phandalin.md": "# Phandalin\n\nA frontier town in the foothills. The Stonehill Inn, Barthen's Provisions, "
                    "the shrine of luck. The Redbrands hold the old manor.\n",
    **{f"Sessions/Session {number:02d}.md": f"# Session {number}\n\nThe party rode back to Phandalin {detail}. In Phandalin they "
       f"met {person} at the {place}, and left Phandalin at dawn.\n"
       for number, (detail, person, place) in enumerate([
           ("after the goblin ambush", "Sildar", "Stonehill Inn"), ("with the wagon of supplies", "Gundren", "general store"),
           ("in the rain", "Toblen", "inn"), ("at night", "Sister Garaele", "shrine"), ("carrying the map", "Halia", "miners' exchange"),
           ("with a prisoner", "Daran Edermath", "orchard"), ("wounded", "Qelline", "farm"), ("by the old road", "Linene", "trading post"),
           ("after Cragmaw", "Harbin Wester", "townmaster's hall"), ("before the storm", "Elsa", "Sleeping Giant"),
           ("with the dwarf", "Nundro", "mine office"), ("by cart", "Pip", "orchard")], start=1)},
    **{f"NPCs/{person}.md": f"# {person}\n\n{person} lives in Phandalin and {what} in Phandalin since the war.\n"
       for person, what in [("Sildar Hallwinter", "has kept the peace"), ("Toblen Stonehill", "has run the inn"),
                            ("Halia Thornton", "has run the miners' exchange"), ("Linene Graywind", "has kept the trading post"),
                            ("Harbin Wester", "has been townmaster"), ("Daran Edermath", "has tended the orchard")]},
}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "campaign", CAMPAIGN)


@pytest.mark.parametrize("query", ["where is Phandalin", "Phandalin", "phandalin", "who is Phandalin"])
def test_a_note_named_as_asked_reads_as_the_answer_though_every_note_holds_its_name(campaign: Path, query: str) -> None:
    """Every note says Phandalin: the town's note stands out little by its text (0.20 first
    before), but a note named as asked was the one asked for in every case measured, so it
    reads at least NAMED_PRECISION (ranking.hit_score); the notes below keep their scores."""
    with Vault(campaign) as vault:
        vault.index()
        hits = vault.search(query, k=5, now=NOW)
        found = vault.derived.searcher().candidates(query, 5, search_filters(None, None, False, NOW))
        calibration = vault.embedder().score_calibration
    assert hits[0].path == "Phandalin.md"
    assert found.fused[0].name_lift is not None
    assert found.named == 1
    assert probability(found.fused[0].value, calibration, found.unheld) < 0.5  # what the text says: little
    assert hits[0].score >= NAMED_PRECISION
    assert [hit.score for hit in hits[1:]] == [round(probability(item.value, calibration, found.unheld), 4) for item in found.fused[1:5]]
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_notes_sharing_the_name_asked_share_its_floor_and_keep_their_order(tmp_path: Path) -> None:
    """Two notes bear the name asked: each was the one asked for half the time at best, so the
    floor is halved, and the order between them stays the fused value's."""
    vault_path = write_vault(tmp_path / "campaign", {**CAMPAIGN, "Maps/Phandalin.md": "# Phandalin\n\nThe map of Phandalin, with the manor.\n"})
    with Vault(vault_path) as vault:
        vault.index()
        hits = vault.search("Phandalin", k=5, now=NOW)
        found = vault.derived.searcher().candidates("Phandalin", 5, search_filters(None, None, False, NOW))
        calibration = vault.embedder().score_calibration
    assert {hit.path for hit in hits[:2]} == {"Phandalin.md", "Maps/Phandalin.md"}
    assert found.named == 2
    for hit, item in zip(hits[:2], found.fused[:2], strict=True):
        assert hit.score == round(max(probability(item.value, calibration, found.unheld), NAMED_PRECISION / 2), 4)
        assert hit.score == round(hit_score(item, calibration, found.unheld, found.named), 4)
    assert min(hit.score for hit in hits[:2]) >= NAMED_PRECISION / 2
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_note_scores_cut_to_a_limit_are_the_first_of_the_whole_list() -> None:
    # A side keeps its first 100 notes of up to 400: only those are made into SideHits, and they
    # are the ones (and the scores) the whole list starts with — ties by label, zero scores and all.
    rng = np.random.default_rng(7)
    rows = [(int(passage), int(rng.integers(0, 60)), float(rng.choice([0.5, -0.25, 0.0, rng.random()])))
            for passage in rng.permutation(400)]
    whole = note_scores(rows)
    assert len(whole) == 60
    for limit in (1, 10, 59, 60, 100):
        assert note_scores(rows, limit) == whole[:limit]
    assert note_scores(rows, None) == whole


def test_note_scores_in_numpy_are_the_tuples_loop_exactly() -> None:
    # The vector side ranks its notes by grouped_note_scores: the same hits, passages and floats as
    # note_scores over counted_passages — ties, negative scores, zeros of either sign, limits.
    rng = np.random.default_rng(7)
    for trial in range(600):
        labels, notes, scores = _random_passages(rng, trial, most=60)
        limit = (None, 1, 5, 100)[trial % 4]
        expected = note_scores(counted_passages(labels, notes, scores), limit, grouped=True)
        found = grouped_note_scores(labels, notes, scores, limit)
        assert [(hit.label, hit.passage, repr(hit.score)) for hit in found] == \
            [(hit.label, hit.passage, repr(hit.score)) for hit in expected]
    assert grouped_note_scores(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32)) == []


def test_notes_lowered_for_their_passages_in_numpy_are_the_tuples_loop_exactly() -> None:
    # The vector side lowers its notes by grouped_scores_for_many_passages (stop 40, a search's CPU
    # at 10,000 notes): the same hits, passages and floats as for_many_passages over
    # grouped_note_scores — ties, zeros, notes no count is known for (one passage), limits.
    rng = np.random.default_rng(11)
    for trial in range(600):
        labels, notes, scores = _random_passages(rng, trial, most=80)
        counts = {int(note): int(rng.choice([1, 2, 3, 7, 40, 5084])) for note in set(notes.tolist()) if rng.random() < 0.8}
        limit = (None, 1, 5, 100)[trial % 4]
        spread = (0.055, 0.0, 0.2)[trial % 3]
        expected = for_many_passages(grouped_note_scores(labels, notes, scores), counts, spread, limit)

        def counted(wanted: np.ndarray, counts: dict[int, int] = counts) -> np.ndarray:
            return np.array([counts.get(note, 0) for note in wanted.tolist()], dtype=np.int64)

        found = grouped_scores_for_many_passages(labels, notes, scores, counted, spread, limit)
        assert [(hit.label, hit.passage, repr(hit.score)) for hit in found] == \
            [(hit.label, hit.passage, repr(hit.score)) for hit in expected]
    assert grouped_scores_for_many_passages(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32),
                                            lambda wanted: np.zeros(len(wanted), np.int64), 0.055) == []


def test_what_a_note_scores_by_chance_grows_with_its_passages_and_is_nothing_for_one() -> None:
    shares = [chance_share(count) for count in (1, 2, 3, 10, 200, 6000)]
    assert shares[0] == 0.0
    assert shares == sorted(shares)
    assert len(set(shares)) == len(shares)
    # the best of 6,000 draws of a standard normal is ~3.8, its next two ~3.5 each
    assert 5.0 < chance_share(6000) < 6.0


def test_a_note_of_thousands_of_passages_is_lowered_by_what_its_length_scores_by_chance() -> None:
    """A pasted book's 0.38 (best of 5,084 passages plus a quarter of its next two) stood above
    one-passage notes at 0.30 and 0.10: lowered by spread × chance_share it falls below both,
    and a note of one passage keeps its score."""
    hits = [SideHit(label=1, score=0.38, passage=10), SideHit(label=2, score=0.30, passage=20), SideHit(label=3, score=0.10, passage=30)]
    lowered = for_many_passages(hits, {1: 5084, 2: 1, 3: 1}, spread=0.055)
    assert [hit.label for hit in lowered] == [2, 3, 1]
    assert lowered[:2] == [hits[1], hits[2]]
    assert lowered[2].score == pytest.approx(0.38 - 0.055 * chance_share(5084))
    assert for_many_passages(hits, {1: 5084}, spread=0.055, limit=1) == [hits[1]]


def test_notes_lowered_for_their_passages_keep_exact_scores_and_break_ties_by_label() -> None:
    """for_many_passages reckons each passage count's lowering once and sorts plain tuples (stop 39,
    a search's CPU at 100,000 notes): every score is still exactly score − chance_lowering(count),
    a note missing from the counts is one passage (not lowered), ties go to the lower label, and
    ``limit`` keeps the first."""
    hits = [SideHit(label=7, score=0.5, passage=70), SideHit(label=3, score=0.5, passage=30),
            SideHit(label=5, score=0.6, passage=50), SideHit(label=9, score=0.2, passage=90)]
    counts = {7: 3, 3: 3, 5: 40}
    lowered = for_many_passages(hits, counts, spread=0.05)
    expected = {hit.label: hit.score - chance_lowering(counts.get(hit.label, 1), 0.05) for hit in hits}
    assert {hit.label: hit.score for hit in lowered} == expected
    assert [hit.label for hit in lowered] == sorted(expected, key=lambda label: (-expected[label], label))
    assert [hit.passage for hit in lowered] == [label * 10 for label in (hit.label for hit in lowered)]
    assert lowered[[hit.label for hit in lowered].index(9)] == hits[3]  # one passage: unchanged
    assert [hit.label for hit in lowered].index(3) < [hit.label for hit in lowered].index(7)  # a tie: the lower label first
    assert for_many_passages(hits, counts, spread=0.05, limit=2) == lowered[:2]


def _random_passages(rng: np.random.Generator, trial: int, most: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Passages' labels, their notes and scores at random: up to ``most`` passages of about a third as
    many notes; every third trial's scores drawn from a few values (ties, zeros of either sign)."""
    count = int(rng.integers(0, most))
    labels = rng.permutation(100_000)[:count].astype(np.int64)
    notes = rng.integers(0, count // 3 + 1, count).astype(np.int64)
    scores = (rng.normal(0.3, 0.2, count) if trial % 3 else
              rng.choice([0.5, 0.25, -0.0, 0.0, -0.1, 0.3], count)).astype(np.float32)
    return labels, notes, scores
