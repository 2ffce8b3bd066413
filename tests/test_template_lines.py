"""template_lines.py: which lines of a note are its template's (pure)."""

from __future__ import annotations

from vaultmem.template_lines import TemplateLines


def test_a_templates_line_is_known_with_its_placeholders_filled_or_left_as_written() -> None:
    lines = TemplateLines.of([
        "Date: {{date:YYYY-MM-DD}}\n[[<% tp.date.now(\"YYYY-MM-DD\",-1) %>|Yesterday]] <== [[<% tp.file.title %>]]\n"
        "# Journaling\n"
    ])
    assert lines.holds("[[2023-03-09|Yesterday]] <== [[2023-03-10]]")
    assert lines.holds("[[<% tp.date.now(\"YYYY-MM-DD\",-1) %>|Yesterday]] <== [[<% tp.file.title %>]]")  # left unfilled
    assert lines.holds("Date: 2023-03-10") and lines.holds("## Journaling")
    assert not lines.holds("Yesterday I met Dana.")
    assert not lines.holds("")  # a blank line is no one's


def test_a_line_that_is_only_a_placeholder_does_not_make_every_line_the_templates() -> None:
    lines = TemplateLines.of(["# {{title}}\n<% tp.file.cursor() %>\n- {{date}}\n"])
    assert lines.filled == ()
    assert not lines.holds("The room was dark and the air was bad.")
    assert not lines.holds("# Budget review")


def test_a_long_line_is_the_notes_own_whatever_a_placeholder_could_fill_it_with() -> None:
    lines = TemplateLines.of(["Mood: {{mood}}\n"])
    assert lines.holds("Mood: tired")
    assert not lines.holds("Mood: " + "tired " * 300)
