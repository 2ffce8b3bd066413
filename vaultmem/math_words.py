"""What a formula says to search: LaTeX's names kept, its layout left out (adr/0004).

A note's math is mostly markup a reader never sees: ``\\mathbf{X}`` shows an X,
``\\textcolor{orange}{\\int}`` an integral sign. Searched as written, a trial on a math vault found
the note holding ``\\cancel{}`` first for "cancel", above the notes saying it in prose, and found
"orange" by a colour. So inside math (``$…$``, ``$$…$$``, read by markdown.math_spans: a ``$`` in
prose, ``$45`` or ``$HOME``, stays text) a command is kept only when it names what people type or
say — a Greek letter (``\\lambda`` → lambda), a function (``\\sin``, ``\\det``, ``\\lim``), an
operator (``\\sqrt``, ``\\sum``, ``\\int`` → integral) — and every other command, with the arguments
that only style or place (``\\textcolor{orange}``, ``\\begin{align}``, ``\\label{…}``), is left out,
as are braces, ``^``, ``_``, ``&``, the dollar signs and the other symbols. What a command is
applied to stays (``\\mathbf{X}`` → X, ``\\frac{dy}{dt}`` → dy dt), and so do the words of
``\\text{…}``, ``\\operatorname{…}`` and ``\\mathrm{…}``.

Full text keeps a formula's single letters and numbers (a query says "sin x", "from 0 to T"); the
embedder does not (:func:`embedded`): to it each is a token of no meaning, and a formula repeats
them by the dozen — the note "Matrix exponential integral", one formula of X, T, I and exponents,
was 11th by meaning for "integral of the matrix exponential from 0 to T" written as LaTeX, 13th as
its words with the letters, 5th without them.

Only the text that is searched and embedded changes (searchable.py): every line stays where it
was, and a snippet still shows the note as written.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .markdown import fenced_blocks, math_spans, may_hold_math

# Named as people say them (a query says "integral", not "int").
_SPOKEN = {"int": "integral", "iint": "integral", "iiint": "integral", "oint": "integral", "infty": "infinity",
           "prod": "product", "varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varpi": "pi",
           "varrho": "rho", "varsigma": "sigma", "varkappa": "kappa"}
_GREEK = frozenset(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi "
    "psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split())
_NAMED = frozenset(
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth ln log lg exp lim liminf limsup det dim ker deg "
    "gcd hom max min sup inf arg Pr mod bmod pmod sqrt sum partial nabla".split())
# Commands whose first arguments style or place what follows and say nothing: left out with them.
_LAYOUT_ARGUMENTS = {"textcolor": 1, "color": 1, "colorbox": 1, "fcolorbox": 2, "begin": 1, "end": 1, "hspace": 1,
                     "vspace": 1, "label": 1, "tag": 1, "ref": 1, "eqref": 1, "cancelto": 1, "phantom": 1,
                     "hphantom": 1, "vphantom": 1, "rule": 2, "newcommand": 1, "renewcommand": 1, "raisebox": 1}
_TABLE_ENVIRONMENTS = frozenset({"array", "tabular", "alignat", "alignat*", "alignedat", "subarray"})  # then {cc}: columns
_TOKEN = re.compile(r"\\([A-Za-z]+)\*?|\\.?|[^\W_]+", re.DOTALL)
_BRACE_GROUP = re.compile(r"\s*\{")
_QUOTE_PREFIX = re.compile(r"[ \t]*(?:>[ \t]?)+")
# What LaTeX is written with: a formula holding none of it is left as written — there is nothing to
# take out but punctuation, and Pandoc's rule (markdown.math_spans) also reads a shell manual's
# `"$name"’ succeeds, then … ‘cd "$` as a formula.
_MARKUP = re.compile(r"[\\{}^_&]")
_INDENTED_CODE = re.compile(r"(?: {4}| {0,3}\t)[ \t]*\S")


@dataclass(frozen=True)
class MathWords:
    """A text with each formula as its words, and where those words are in it."""

    text: str
    formulas: tuple[tuple[int, int], ...] = ()  # [start, end) of each formula's words, in order

    def embedded(self, start: int, end: int) -> str:
        """``text[start:end]`` as the embedder is given it: its formulas without their single
        letters and numbers (module docstring)."""
        if not self.formulas:
            return self.text[start:end]
        pieces: list[str] = []
        position = start
        first = bisect.bisect_right(self.formulas, (start, end)) - 1
        for formula_start, formula_end in self.formulas[max(first, 0):]:
            if formula_start >= end:
                break
            if formula_end <= start:
                continue
            lower, upper = max(formula_start, start), min(formula_end, end)
            named = " ".join(word for word in self.text[lower:upper].split() if _is_name(word))
            if not named and upper < end and self.text[upper] == " ":
                upper += 1  # the space after it goes with it: a run of blanks is a token of its own
            pieces += [self.text[position:lower], named]
            position = upper
        return "".join(pieces) + self.text[position:end]


def _is_name(word: str) -> bool:
    return len(word) > 1 and not word[0].isdigit()


def math_as_words(text: str) -> MathWords:
    """``text`` with each formula outside code reduced to its words (module docstring), on the
    same lines: a line holding math keeps its indentation and quote markers, its formulas'
    words and its own one space apart; a line of markup alone (``$$``, ``\\begin{align}``) is left
    empty. A text without a formula is returned as it is (the same object)."""
    if not may_hold_math(text):
        return MathWords(text)
    lines = text.split("\n")
    formulas: list[tuple[int, int]] = []
    found = _formula_spans(text, lines)
    written = 0
    for number, line in enumerate(lines):
        if number in found:
            start, spans = found[number]
            words, placed = _with_words(line[start:], spans)
            lines[number] = line[:start] + words
            formulas += [(written + start + first, written + start + last) for first, last in placed]
        written += len(lines[number]) + 1
    return MathWords("\n".join(lines), tuple(formulas)) if formulas else MathWords(text)


def _formula_spans(text: str, lines: Sequence[str]) -> dict[int, tuple[int, list[tuple[int, int]]]]:
    """Per line holding math: where its text starts past its quote markers, and its formulas'
    spans there (markdown.math_spans). Code holds none: a fenced block, an indented one (four
    spaces after a blank line: a manual's ``$ cd /tmp`` examples), a code span. Nor does what
    follows a ``$$`` that never closes: a shell manual's "the process id (‘$$’)" made the rest of
    its chapter one formula (one opened in a callout or a quote ends with it, as Obsidian ends
    it). A formula without LaTeX's markup (:data:`_MARKUP`) is left as written."""
    code = fenced_blocks(text) if "```" in text or "~~~" in text else []
    code_starts = [start for start, _end in code]
    starts: dict[int, int] = {}
    formulas: list[list[tuple[int, int, int]]] = []  # each formula's pieces: (line, first, last), a line each
    display: list[tuple[int, int, int]] | None = None  # the pieces of a $$ block still open
    offset, after_blank = 0, True
    for number, line in enumerate(lines):
        inside = bisect.bisect_right(code_starts, offset) - 1
        in_code = inside >= 0 and offset < code[inside][1]
        offset += len(line) + 1
        indented = _INDENTED_CODE.match(line) is not None and after_blank and display is None
        after_blank = not line.strip() or indented
        prefix = _QUOTE_PREFIX.match(line)
        if display is not None and _QUOTE_PREFIX.match(lines[display[0][0]]) and prefix is None:
            formulas.append(display)  # a formula opened in a callout or a quote ends with it
            display = None
        if in_code or indented or not (display is not None or "$" in line):
            continue
        start = starts[number] = prefix.end() if prefix is not None else 0
        spans, still_open = math_spans(line[start:], display is not None)
        for index, (first, last) in enumerate(spans):
            piece = (number, start + first, start + last)
            if index == 0 and display is not None:
                display.append(piece)
                if len(spans) == 1 and still_open:
                    continue
                formulas.append(display)
                display = None
            elif index == len(spans) - 1 and still_open:
                display = [piece]
            else:
                formulas.append([piece])
    found: dict[int, tuple[int, list[tuple[int, int]]]] = {}
    for formula in formulas:  # not `display`: a $$ that never closes opens no formula, the rest is text
        if any(_MARKUP.search(lines[number], first, last) for number, first, last in formula):
            for number, first, last in formula:
                found.setdefault(number, (starts[number], []))[1].append((first - starts[number], last - starts[number]))
    return found


def _with_words(line: str, spans: Sequence[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """``line`` with each of its math ``spans`` replaced by the formula's words, one space from
    what is around it (a run of blanks is a token to an embedder), and where those words are."""
    indentation = line[: len(line) - len(line.lstrip(" \t"))]
    parts: list[tuple[str, bool]] = []
    position = len(indentation)
    for start, end in spans:
        parts += [(line[position:start].strip(" \t"), False), (formula_words(line[start:end]), True)]
        position = max(position, end)
    parts.append((line[position:].strip(" \t"), False))
    written = indentation
    placed: list[tuple[int, int]] = []
    for part, is_formula in parts:
        if not part:
            continue
        written += " " if written.strip(" \t") else ""
        if is_formula:
            placed.append((len(written), len(written) + len(part)))
        written += part
    return written, placed


def formula_words(formula: str) -> str:
    """The words of ``formula`` (LaTeX, with or without its dollar signs), one space apart."""
    words: list[str] = []
    position = 0
    while (token := _TOKEN.search(formula, position)) is not None:
        position = token.end()
        name = token.group(1)
        if name is None:
            if token.group()[0] != "\\":
                words.append(token.group())
            continue
        if name in _SPOKEN or name in _GREEK or name in _NAMED:
            words.append(_SPOKEN.get(name, name))
            continue
        for _argument in range(_LAYOUT_ARGUMENTS.get(name, 0)):
            position, environment = _past_group(formula, position)
            if name == "begin" and environment in _TABLE_ENVIRONMENTS:
                position = _past_group(formula, position)[0]
    return " ".join(words)


def _past_group(formula: str, position: int) -> tuple[int, str]:
    """Past the brace group at ``position`` (after blanks), with what it holds; ``position`` and
    ``""`` when none opens there or it does not close in ``formula`` (its words are then kept)."""
    opening = _BRACE_GROUP.match(formula, position)
    if opening is None:
        return position, ""
    depth, index = 1, opening.end()
    while index < len(formula):
        character = formula[index]
        if character == "\\":
            index += 2
            continue
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth == 0:
            return index + 1, formula[opening.end() : index]
        index += 1
    return position, ""
