"""A short note of several unrelated facts (a daily note): each fact is a passage of its own too."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from helpers import NOW, copy_sample_vault

from vaultmem import Vault
from vaultmem.notes import parse_note
from vaultmem.passages import fact_pieces, split_passages
from vaultmem.searchable import embed_notes, searchable

DAILY = ("Dentist moved to Friday at 10, bring the insurance card.\n\n"
         "Lena recommended the book Piranesi, says the ending is worth it.\n\n"
         "Parked on level 3, row F at the airport garage.\n")



def _kepano_with_a_day(tmp_path: Path) -> Path:
    """A copy of the kepano vault with the person's day of three facts (:data:`DAILY`) in Daily/."""
    vault_dir = tmp_path / "kepano"
    shutil.copytree(KEPANO, vault_dir, ignore=shutil.ignore_patterns(".vaultmem"))
    (vault_dir / "Daily").mkdir(exist_ok=True)
    (vault_dir / "Daily" / "2026-12-02.md").write_text(DAILY, encoding="utf-8")
    return vault_dir

def test_a_short_note_of_three_paragraphs_is_its_whole_passage_then_each_paragraph() -> None:
    whole, *pieces = split_passages(DAILY)
    assert (whole.number, whole.text, whole.piece) == (0, DAILY, False)
    assert [(piece.number, piece.text, piece.start_line, piece.end_line, piece.piece) for piece in pieces] == [
        (1, "Dentist moved to Friday at 10, bring the insurance card.", 1, 1, True),
        (2, "Lena recommended the book Piranesi, says the ending is worth it.", 3, 3, True),
        (3, "Parked on level 3, row F at the airport garage.", 5, 5, True),
    ]


def test_each_list_item_is_a_piece_under_its_heading_and_the_heading_line_is_in_no_piece() -> None:
    body = ("## Work\n\n- Atlas report due Tuesday, send it to Tom.\n- Standup moved to half past nine.\n\n"
            "## Home\n\nPlumber is coming Thursday morning about the sink.\n")
    pieces = fact_pieces(body)
    assert [(piece.headings, piece.text) for piece in pieces] == [
        (("Work",), "- Atlas report due Tuesday, send it to Tom."),
        (("Work",), "- Standup moved to half past nine."),
        (("Home",), "Plumber is coming Thursday morning about the sink."),
    ]


def test_a_note_of_one_fact_a_list_of_links_or_code_has_no_pieces() -> None:
    assert split_passages("Parked on level 3, row F at the airport garage.\n") == split_passages(
        "Parked on level 3, row F at the airport garage.\n", pieces=False)
    hub = "## Where things are\n\n- Design: [[harbor-architecture]]\n- Deploys: [[deploy-harbor|How Maya deploys Harbor]]\n"
    assert fact_pieces(hub) == []  # a link stands for the note it points to, not for a fact of this one
    assert fact_pieces("![[Books.base#Author]]\n\n![[Clippings.base#Author]]\n") == []
    assert fact_pieces("Run this first:\n\n```\nmake build\n\nmake test\n```\n\nThen deploy it to staging.\n") == []


def test_a_long_note_is_cut_as_before_with_no_pieces() -> None:
    body = "\n\n".join(f"Paragraph {number}: the harbor pipeline moves data every night." for number in range(30))
    assert not any(passage.piece for passage in split_passages(body))


def test_the_pieces_leave_the_whole_notes_vector_its_own_text(wordllama: object) -> None:
    """Consolidation's and ``remember``'s thresholds are cosines of ``title`` + body: a note's
    pieces add passages, never a share of the note's vector."""
    found = searchable(parse_note("Daily/2026-12-02.md", f"---\ntags: [daily]\n---\n{DAILY}".encode()))
    assert len(found.passages) == 4
    [vectors] = embed_notes(wordllama, [found])  # type: ignore[arg-type]
    direct = wordllama.embed([found.note_text])[0]  # type: ignore[attr-defined]
    assert float(vectors.note @ direct) > 0.999
    assert np.isclose(float(np.linalg.norm(vectors.note)), 1.0, atol=1e-5)


def test_only_a_note_titled_by_its_day_has_pieces() -> None:
    """A project's page of a few paragraphs is about one thing, its paragraphs are not unrelated
    facts: as pieces, "Harbor is the data pipeline Maya works on …" put projects/Harbor.md above
    the on-call runbook for "on-call runbook for pipeline failures" (test_search), and the Inbox's
    pieces made it read confident for a dentist it never names. A day's note keeps them."""
    for title in ("2026-12-02", "Wednesday, December 2nd 2026"):
        found = searchable(parse_note(f"Daily/{title}.md", DAILY.encode()))
        assert [passage.piece for passage in found.passages] == [False, True, True, True], title
    for path in ("Inbox.md", "projects/Harbor.md", "conversations/2026-11-20-harbor-retro.md"):
        found = searchable(parse_note(path, DAILY.encode()))
        assert [passage.piece for passage in found.passages] == [False], path


def test_a_note_titled_by_a_minute_is_no_days_note_and_has_no_pieces() -> None:
    """``name_day`` dates a note by a moment too: a zettel titled by its id and a chat export's
    message named by its time read as "titled by its day only", and their paragraphs (one thought,
    one turn) were cut into pieces as a day's unrelated facts — and a turn's windows, the sum of
    its rows, counted its words twice."""
    for title in ("202612021356", "20261202135612", "2026-12-02 13-56-12", "2026-12-02 1356", "Wed 2 Dec 2026 13.56"):
        found = searchable(parse_note(f"Zettel/{title}.md", DAILY.encode()))
        assert [passage.piece for passage in found.passages] == [False], title
    found = searchable(parse_note("Daily/20261202.md", DAILY.encode()))
    assert [passage.piece for passage in found.passages] == [False, True, True, True]


KEPANO = Path(__file__).resolve().parent / "data" / "kepano-obsidian"


def test_where_did_i_park_my_car_finds_the_daily_notes_fact_first_by_meaning(tmp_path: Path, wordllama: object) -> None:
    """The lead's trial: kepano's vault and a day of three unrelated facts. The note embedded
    whole was 0.047 from the question and fifth by meaning, under a shrine whose ``type`` is Parks
    (0.292); third in the answer. Its fact by itself is first by meaning (0.331). In the answer the
    day stayed third: the shrine holds "Parks" in its properties, the word asked on the keyword
    side, and References/Parks.md is that side's first (since its pieces are no longer counted
    for the chance lowering, the day is second: the test below)."""
    vault_dir = _kepano_with_a_day(tmp_path)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        why = vault.explain("Daily/2026-12-02.md", "where did I park my car")
        hits = vault.search("where did I park my car", k=3)
    assert why.rank["vectors"] == 1
    assert "Daily/2026-12-02.md" in [hit.path for hit in hits[:3]]
    [day] = [hit for hit in hits if hit.path == "Daily/2026-12-02.md"]
    assert day.passage is not None and day.passage.lines == [1, 5]  # a piece ranks; the hit shows the whole day


def test_confidence_reads_the_days_whole_passage_when_a_piece_ranks_it(tmp_path: Path, wordllama: object) -> None:
    """A piece ranks its day; the verdict reads the day as a note of one passage (Searcher.
    _without_pieces). "what is my health insurance policy number" has the day first (its piece
    "… bring the insurance card." nearest in meaning) and read confident at 0.42, holding one
    word of four ("insurance"): the whole day is not near the question in meaning, so rule 6
    warns, as for any note. A question the day answers in more of its words stays confident; one it answers
    in a single word may not ("where did I park my car" reads not confident: adr/0004)."""
    vault_dir = copy_sample_vault(tmp_path / "vault")
    (vault_dir / "Daily").mkdir()
    (vault_dir / "Daily" / "2026-11-29.md").write_text(DAILY, encoding="utf-8")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        made_up = vault.search("what is my health insurance policy number", k=5, now=NOW)
        answered = vault.search("what book did Lena recommend", k=5, now=NOW)
    assert made_up[0].path == "Daily/2026-11-29.md" and made_up.confident is False
    assert any(warning.startswith("no note matches this well: the first hit holds little") for warning in made_up.warnings)
    assert answered[0].path == "Daily/2026-11-29.md" and answered.confident is True


def test_a_remembered_memory_of_several_facts_has_pieces_and_a_page_with_headings_none() -> None:
    """What ``remember`` writes — the agent's text, no heading — holds facts as a day's note does
    ("Notes from the call: …", a list of preferences). A memory with a heading (a person's page,
    ``# Priya Raman``; a project's ``## Team``) is about its subject, and a conversation turn is
    one reply: no pieces (adr/0004, "Facts of a memory")."""
    memory = f"---\ntitle: Things to keep in mind\nlayer: L3\n---\n{DAILY}"
    found = searchable(parse_note("memories/things-to-keep-in-mind.md", memory.encode()))
    assert [passage.piece for passage in found.passages] == [False, True, True, True]
    headed = f"---\ntitle: Priya Raman\nlayer: L3\n---\n# Priya Raman\n\n{DAILY}"
    turn = f"---\nspeaker: Ana\nsession: 1\nlayer: L2\n---\n{DAILY}"
    for path, note in (("people/Priya Raman.md", headed), ("chat/t1.md", turn)):
        assert [passage.piece for passage in searchable(parse_note(path, note.encode())).passages] == [False], path


def test_a_remembered_fact_is_first_by_meaning_among_kepanos_notes(tmp_path: Path, wordllama: object) -> None:
    """The lead's trial with a memory instead of a day: the three facts remembered under a title
    that names none of them. Embedded whole, the memory was far from "where did I park my car"
    (its title and two other facts between); its fact alone is the nearest note by meaning."""
    vault_dir = tmp_path / "kepano"
    shutil.copytree(KEPANO, vault_dir, ignore=shutil.ignore_patterns(".vaultmem"))
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        written = vault.remember(DAILY, title="Things to keep in mind", layer="L3")
        why = vault.explain(written.path, "where did I park my car")
    assert why.rank["vectors"] == 1


def test_a_day_of_three_short_paragraphs_is_not_lowered_as_a_note_of_four_passages(tmp_path: Path,
                                                                                  wordllama: object) -> None:
    """The vector side lowers a note by what a note of its passage count scores by chance
    (ranking.for_many_passages). A day's fact pieces are paragraphs its whole passage already
    holds, not more text: counted, the day of three short paragraphs was lowered as a note of four
    passages (0.062, more than the 0.055 between it and the shrine second by meaning) and the
    explanation said "0.062 taken off for its 4 passages, what a note that long scores by
    chance"; in the answer it came third, under the shrine typed Parks and the Parks page. Counted
    by its one whole passage, nothing is taken off and it comes second (the first is the Parks
    page, or the shrine, by the word "park": benchmarks/PASSAGES.md, "Fact pieces are no draws")."""
    vault_dir = _kepano_with_a_day(tmp_path)
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        label = vault.store.notes.by_path("Daily/2026-12-02.md").label
        assert label is not None
        counted = vault.derived.searcher().chance_lowering(label)
        why = vault.explain("Daily/2026-12-02.md", "where did I park my car")
        paths = [hit.path for hit in vault.search("where did I park my car", k=3)]
    assert counted == (1, 0.0)
    assert not any("taken off" in reason for reason in why.reasons), why.reasons
    assert paths.index("Daily/2026-12-02.md") == 1, paths
