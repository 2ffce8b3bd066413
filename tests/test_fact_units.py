"""The pieces of a passage `remember` compares a new memory with (fact_units.py, adr/0010)."""

from __future__ import annotations

from vaultmem.fact_units import heading_path, pieces_of


def texts(passage: str) -> list[str]:
    return [piece.text for piece in pieces_of(passage)]


def test_a_line_of_two_sentences_is_each_sentence_and_the_two_together() -> None:
    # "She says …" alone has lost Priya: the pair keeps the subject with what is said of it.
    assert texts("Went climbing with Priya. She says the new bouldering wall opens in January.") == [
        "Went climbing with Priya.", "She says the new bouldering wall opens in January.",
        "Went climbing with Priya. She says the new bouldering wall opens in January."]


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    assert texts("Maya's dentist is Dr. Sousa.") == ["Maya's dentist is Dr. Sousa."]


def test_a_link_is_the_text_it_shows_and_the_file_text_is_kept_to_show() -> None:
    [piece] = pieces_of("- Discussed the book [[Out of Control]] on [[Emergence|emergence]] with `Steph`")
    assert piece.text == "Discussed the book Out of Control on emergence with Steph"
    assert piece.shown == "Discussed the book [[Out of Control]] on [[Emergence|emergence]] with `Steph`"


def test_short_lines_and_lead_ins_are_no_pieces() -> None:
    # "Chuck needs to:" stood at 0.70 to a memory of Chuck's email: a name, and nothing said of it.
    assert texts("My mother.\nChuck needs to:\n- the bank\nBirthday 9 September.") == ["Birthday 9 September."]


def test_a_piece_knows_its_line_and_the_headings_above_it() -> None:
    pieces = pieces_of("Intro line with words.\n\n## Log\n### July\n- Sam is allergic to peanuts.\n")
    assert [(piece.text, piece.line, piece.headings) for piece in pieces] == [
        ("Intro line with words.", 0, ()), ("Sam is allergic to peanuts.", 4, ("Log", "July"))]


def test_a_passage_cut_at_a_heading_says_that_heading_once() -> None:
    assert heading_path(("Sam", "Log"), ("Log", "July")) == ("Sam", "Log", "July")
    assert heading_path(("Sam",), ("Log",)) == ("Sam", "Log")
    assert heading_path((), ()) == ()
