"""merge_markers.first_conflict reads only the marker lines, and finds what a walk of every line found."""

from __future__ import annotations

import codecs
import random

import pytest
from line_by_line import first_conflict as first_conflict_line_by_line
from line_by_line import first_conflict_walk

from vaultmem.merge_markers import ConflictSpan, first_conflict, utf16_with_byte_markers
from vaultmem.notes import decode

_MARKER_LINES = (
    "<<<<<<<", "<<<<<<< HEAD", "<<<<<<< ours:notes.md", "<<<<<<<<", "<<<<<<", " <<<<<<< HEAD", "<<<<<<<\t", "<<<<<<< ",
    "=======", "========", "======", "======= ", " =======", "=======x", "|||||||", "||||||| base",
    ">>>>>>>", ">>>>>>> theirs", ">>>>>>> 1234abc", ">>>>>>>>", ">>>>>>", ">>>>>>>\t", "> >>>>>>> quoted",
)
_FENCE_LINES = ("```", "```diff", "~~~", "~~~~", "````", "````markdown", "- ```text", "  ```", "> ```", "```js `x`",
                "   ~~~", "1. ```", "``", "`` a ``")
_TEXT_LINES = ("ours", "theirs", "", "# Heading", "a `b` c", "`", "``", "word `<<<<<<< x", "`x` <<<<<<< y `z`",
               "=======`", "Title", "- item")
# Every line break str.splitlines honours; \r\n is one.
_BREAKS = ("\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _line(chooser: random.Random) -> str:
    kind = chooser.random()
    if kind < 0.25:
        return chooser.choice(("<<<<<<< HEAD", "=======", ">>>>>>> theirs"))
    if kind < 0.45:
        return chooser.choice(_MARKER_LINES)
    if kind < 0.7:
        return chooser.choice(_FENCE_LINES)
    return chooser.choice(_TEXT_LINES)


def _lines(chooser: random.Random) -> list[str]:
    """One line, or a run of markers shown in a fence (which may not close, or close another)."""
    if chooser.random() < 0.7:
        return [_line(chooser)]
    opening, closing = chooser.choice((("```", "```"), ("~~~~", "~~~~~"), ("- ```sh", "  ```"), ("````", "```"),
                                       ("```", ""), ("> ```", "> ```"), ("```", "~~~"), ("~~~", "~~~")))
    run = ["<<<<<<< HEAD", *[_line(chooser) for _ in range(chooser.randint(0, 2))], "=======", ">>>>>>> b"]
    return [opening, *run, *([closing] if closing else [])]


def _generated(chooser: random.Random) -> str:
    """A short text of marker, fence and plain lines: line breaks all ``\\n``, all ``\\r\\n``,
    or mixed from every break splitlines knows; it may end without one, and a run of markers
    may be inside an inline span (lone ``\\r`` breaks keep it on one ``\\n`` line)."""
    style = chooser.choice(["lf", "crlf", "mixed", "mixed", "cr"])
    pieces = []
    for _ in range(chooser.randint(0, 8)):
        for line in _lines(chooser):
            if style == "mixed":
                ending = chooser.choice(_BREAKS)
            elif style == "cr":
                ending = chooser.choice(("\r", "\r", "\n"))
            else:
                ending = "\n" if style == "lf" else "\r\n"
            pieces.append(line + ending)
        if chooser.random() < 0.1:
            pieces.append("x `\r<<<<<<< a\r=======\r>>>>>>> b" + chooser.choice(("\r` y", "` y", "\r", "\r``")))
    text = "".join(pieces)
    return text[:-1] if text and chooser.random() < 0.25 else text  # no break at the end (or half a \\r\\n)


def test_first_conflict_finds_on_generated_texts_what_the_line_by_line_walk_found() -> None:
    chooser = random.Random(2026_12_01)
    outcomes: dict[str, int] = {}
    for round_ in range(30_000):
        text = _generated(chooser)
        expected, passed_in_code = first_conflict_walk(text)
        assert first_conflict(text) == expected, (round_, text)
        outcome = "conflict" if expected is not None else "none"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        outcomes[f"{outcome}, a run in code passed"] = outcomes.get(f"{outcome}, a run in code passed", 0) + (passed_in_code > 0)
    # The texts held conflicts and none, and runs passed as code before either, all often.
    assert min(outcomes.values()) > 1_000, outcomes


def test_a_run_inside_code_is_told_apart_as_the_line_by_line_walk_told_it() -> None:
    # Kept for one look each: the texts above meet these only by chance.
    run = "<<<<<<< a\r=======\rb\r>>>>>>> c"
    cases = {
        f"x `\r{run}\r` y\n": None,  # lone CRs: one \n line, the run inside its inline span
        f"x `\r{run}` y\n": ConflictSpan(2, 5),  # the closing line runs to the \n: out of the span
        f"x `\r{run}\r\n` y\n": ConflictSpan(2, 5),  # the span is cut at the \n
        f"``\r{run}\r`\r``": None,
        f"`\r{run}\r": ConflictSpan(2, 5),  # a backtick without a partner is no span
        f"`\r{run}\r`": None,
        f"```\n{run}\n```\n": None,
        f"```\n{run}\n": ConflictSpan(2, 5),  # an unclosed fence is no code block
        f"~~~~\n{run}\n~~~\n": ConflictSpan(2, 5),
        f"~~~~\n{run}\n~~~~~\n": None,
        f"````\n```\n{run}\n```\n````\n": None,
        f"```js `x`\n{run}\n```\n": ConflictSpan(2, 5),  # a backtick in a backtick fence's info: no fence
        f"- ```\n  x\n{run}\n  ```\n": None,
        "```\n<<<<<<< a\n```\n=======\n>>>>>>> b\n": ConflictSpan(2, 5),  # opening in a block, closing out of it
        f"```\n{run}\n```\n<<<<<<< c\n=======\n>>>>>>> d": ConflictSpan(7, 9),  # the walk goes on past a shown one
        "<<<<<<<\x0b=======\n>>>>>>>\n": None,  # a \x0b stays part of the marker's line
        "<<<<<<< a\x0b=======\x0c>>>>>>> b\u2028": None,  # nor a \x0c after the middle one
        "<<<<<<< a\x0b=======\n>>>>>>> b\u2028": ConflictSpan(1, 3),  # a label before it is
        "<<<<<<< a\u2029=======\r>>>>>>> b\x85": ConflictSpan(1, 3),
        "x\x1c\x1d\x1e<<<<<<< a\r\n=======\r>>>>>>>": ConflictSpan(4, 6),
        "=======\n<<<<<<<\n>>>>>>>\n=======\n>>>>>>>\n": ConflictSpan(2, 5),
    }
    for text, expected in cases.items():
        assert first_conflict_line_by_line(text) == expected, repr(text)
        assert first_conflict(text) == expected, repr(text)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_note_with_markers_is_read_as_the_line_by_line_walk_read_it(codec: str) -> None:
    # The markers as UTF-16 letters (decoded whole), or as single bytes a byte-level merge wrote
    # between the two sides' UTF-16 (utf16_with_byte_markers): the text decode gives is compared.
    chooser = random.Random(16)
    bom = codecs.BOM_UTF16_LE if codec == "utf-16-le" else codecs.BOM_UTF16_BE
    compared = found = 0
    for _ in range(2_000):
        text = _generated(chooser)
        as_letters = decode("note.md", bom + text.encode(codec))[0]
        sides = [line.encode(codec) for line in text.splitlines(keepends=True)]
        as_bytes = bom + b"".join(side if chooser.random() < 0.6 else chooser.choice(_MARKER_LINES).encode() + b"\n"
                                  for side in sides)
        for decoded in (as_letters, decode("note.md", as_bytes)[0]):
            expected = first_conflict_line_by_line(decoded)
            assert first_conflict(decoded) == expected, repr(decoded)
            compared, found = compared + 1, found + (expected is not None)
    assert found > 200, found
    assert utf16_with_byte_markers(b"\n<<<<<<< a\n" + "x\n".encode(codec) + b"\n=======\n\n>>>>>>> b\n", codec) is not None


def test_a_long_note_showing_markers_in_its_code_blocks_is_read_as_the_line_by_line_walk_read_it() -> None:
    # A pasted log that documents git merges: the markers in fences, tildes and list items far
    # apart, a fence that never closes, and at last (or not) a real conflict.
    chooser = random.Random(5)
    examples = ("```diff\n<<<<<<< HEAD\nTuesday\n=======\nWednesday\n>>>>>>> feature\n```\n",
                "~~~\n<<<<<<< ours\n||||||| base\n=======\n>>>>>>> theirs\n~~~\n",
                "- resolved:\n  ```text\n  <<<<<<< mine\n  a\n  =======\n  b\n  >>>>>>> yours\n  ```\n",
                "The markers are `<<<<<<<`, `=======` and `>>>>>>>`.\n", "~~~~\nunclosed\n", "=======\n",
                "<<<<<<< lone opening\n")
    prose = "A line of the log with a word or two, and `code`.\n" * 40
    for ending in ("\n", "\r\n", "\r"):
        body = "".join(prose + chooser.choice(examples) for _ in range(400))
        for tail in ("", "<<<<<<< HEAD\nmine\n=======\nyours\n>>>>>>> other\n", "<<<<<<< HEAD\nmine\n=======\nyours\n"):
            text = (body + tail).replace("\n", ending)
            expected = first_conflict_line_by_line(text)
            assert first_conflict(text) == expected
            # Markdown's lines end at \n alone: with lone CRs the note is one line, no block is
            # code and the first shown run counts.
            assert (expected is not None) == ("other" in tail or ending == "\r"), (ending, tail)
