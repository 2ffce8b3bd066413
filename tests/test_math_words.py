"""A formula is searched by the names it holds, not by its LaTeX layout (math_words.py,
searchable.searchable, adr/0004): ``\\cancel``, ``\\textcolor{orange}``, ``\\mathbf`` are no note's
words; ``\\lambda``, ``\\int``, ``\\text{…}`` are. A snippet shows the formula as written."""

from __future__ import annotations

from pathlib import Path

from helpers import NOW, keyword_side, write_vault

from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder
from vaultmem.notes import read_note
from vaultmem.searchable import searchable

INTEGRATING_FACTOR = ("# Integrating factor\n"
                      "Multiply both sides by $\\textcolor{green}{r(y)}$, the integrating factor.\n"
                      "$$\n"
                      "\\begin{align}\n"
                      "\\cancel{r(y)x'}+r'(y)x&=\\cancel{r(y)x'}+r(y)p(y)x \\\\\n"
                      "\\textcolor{orange}{\\int}\\frac{r'(y)}{r(y)}\\textcolor{orange}{dy}&=\\int p(y)\\,dy \\quad "
                      "\\text{separable}\n"
                      "\\end{align}\n"
                      "$$\n"
                      "For $\\lambda$ an eigenvalue of $\\mathbf{A}$, $\\operatorname{rank}(\\mathbf{A}-\\lambda\\mathbf{I}) < n$.\n")
SUBSCRIPTIONS = ("# Subscriptions\n"
                 "Cancel the gym membership before March; the orange juice delivery too.\n")
MATRIX_INTEGRAL = ("# Matrix exponential integral\n"
                   "> [!Summary]\n"
                   "> $$\\int_0^T e^{\\mathbf{X}t} dt=\\left(e^{\\mathbf{X}T}-\\mathbf{I}\\right)\\mathbf{X}^{-1}$$\n"
                   "> If $\\mathbf{X}$ is invertible\n")


def test_a_formula_is_searched_by_its_names_not_by_its_layout_commands(tmp_path: Path) -> None:
    """A trial on a math vault: "cancel" found the note with ``\\cancel{}`` above the notes saying
    it, "orange" found ``\\textcolor{orange}``."""
    vault_path = write_vault(tmp_path / "vault", {"Integrating factor.md": INTEGRATING_FACTOR,
                                                  "Subscriptions.md": SUBSCRIPTIONS})
    with Vault(vault_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "cancel") == ["Subscriptions.md"]
        assert keyword_side(vault, "orange") == ["Subscriptions.md"]
        for markup in ("textcolor", "mathbf", "frac", "align", "quad", "green"):
            assert keyword_side(vault, markup) == [], markup
        assert keyword_side(vault, "lambda") == ["Integrating factor.md"]  # a Greek letter by its name
        assert keyword_side(vault, "integral") == ["Integrating factor.md"]  # \int, as it is said
        assert keyword_side(vault, "separable") == ["Integrating factor.md"]  # \text{…}'s words
        assert keyword_side(vault, "rank") == ["Integrating factor.md"]  # \operatorname{…}'s
        assert keyword_side(vault, "eigenvalue r y") == ["Integrating factor.md"]  # its letters, for full text


def test_a_dollar_in_prose_and_a_formula_in_code_stay_as_written(tmp_path: Path) -> None:
    vault_path = write_vault(tmp_path / "vault", {
        "Costs.md": "# Costs\nThe textbook cost $45 and the manual $20; set $HOME before \\mathbf grading.\n",
        "Snippet.md": "# Snippet\n```latex\n$\\mathbf{x}$ renders bold\n```\nand `$\\textcolor{red}{y}$` inline.\n",
    })
    with Vault(vault_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "45") == ["Costs.md"]
        assert keyword_side(vault, "HOME") == ["Costs.md"]
        assert sorted(keyword_side(vault, "mathbf")) == ["Costs.md", "Snippet.md"]  # no formula: every word kept
        assert keyword_side(vault, "textcolor red") == ["Snippet.md"]


MANUAL = ("# Temporary files\n"
          "Print the first field of each line:\n"
          "\n"
          "     $ awk '{print $1}' data | sed 's/^_//;s/$/x/'\n"
          "\n"
          "The new way writes $\\mathbf{v}_1$; old scripts name a file with the process id (‘$$’) as a suffix.\n"
          "Then ‘cd \"${HOME}_old\"’ works.\n")


def test_an_indented_example_and_what_follows_a_formula_never_closed_stay_as_written(tmp_path: Path) -> None:
    """A GNU manual's chapter became one formula from "the process id (‘$$’)" on, and its
    indented examples' dollars were read as formulas."""
    vault_path = write_vault(tmp_path / "vault", {"Temporary files.md": MANUAL})
    lines = searchable(read_note(vault_path, "Temporary files.md")).passages[0].text.split("\n")
    written = MANUAL.split("\n")
    assert lines[3] == written[3]  # code, as written
    assert lines[5] == "The new way writes v 1 ; old scripts name a file with the process id (‘$$’) as a suffix."
    assert lines[6] == written[6]  # after a $$ never closed: text


def test_a_formula_opened_in_a_callout_ends_with_the_callout(tmp_path: Path) -> None:
    """A ``$$`` left open in a callout is not a formula beyond it: Obsidian ends the block there."""
    vault_path = write_vault(tmp_path / "vault", {
        "Open.md": "# Open\n> [!note]\n> $$\n> \\alpha + \\mathbf{b}\n\nThe mathbf macro and $5 in prose.\n"})
    note = read_note(vault_path, "Open.md")
    text = searchable(note).passages[0].text
    assert "alpha b" in text  # in the callout: a formula
    assert "\\alpha" not in text
    assert "The mathbf macro and $5 in prose." in text  # after it: the note's own words, as written


def test_a_hit_on_a_formula_shows_it_as_written_and_names_its_own_lines(tmp_path: Path) -> None:
    vault_path = write_vault(tmp_path / "vault", {"Integrating factor.md": INTEGRATING_FACTOR,
                                                  "Subscriptions.md": SUBSCRIPTIONS})
    with Vault(vault_path, embedder=HashingEmbedder()) as vault:
        vault.index()
        [hit] = [hit for hit in vault.search("separable integrating factor", k=5, now=NOW)
                 if hit.path == "Integrating factor.md"]
        assert "\\textcolor{green}{r(y)}" in hit.snippet, hit.snippet  # the note as written
        assert hit.passage is not None
        assert hit.passage.lines == [1, 9]
    assert (vault_path / "Integrating factor.md").read_text(encoding="utf-8") == INTEGRATING_FACTOR


def test_the_embedder_is_given_a_formula_s_names_without_its_lone_letters_and_numbers(tmp_path: Path) -> None:
    """"Matrix exponential integral", a formula of X, T and exponents, was 11th by meaning for
    "integral of the matrix exponential from 0 to T" as LaTeX, 5th as its names (adr/0004)."""
    vault_path = write_vault(tmp_path / "vault", {"Matrix exponential integral.md": MATRIX_INTEGRAL})
    found = searchable(read_note(vault_path, "Matrix exponential integral.md"))
    [passage] = found.passages
    assert passage.text.splitlines()[2] == "> integral 0 T e X t dt e X T I X 1"  # full text: every word
    assert passage.text.splitlines()[3] == "> If X is invertible"
    assert found.embed_texts == ["Matrix exponential integral\n\n"
                                 "# Matrix exponential integral\n> [!Summary]\n> integral dt\n> If is invertible\n"]
    assert found.note_text == found.embed_texts[0]  # the whole note's vector is made of the same words


def test_each_passage_of_a_long_note_embeds_its_own_formulas(tmp_path: Path) -> None:
    letters = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    sections = [f"## Step {number}\nWe integrate the term $\\mathbf{{X}}^{number} \\{letter}_{number}$ once more. "
                + "Then the series converges. " * 12 + "\n" for number, letter in enumerate(letters)]
    vault_path = write_vault(tmp_path / "vault", {"Long.md": "# Long\n" + "\n".join(sections)})
    found = searchable(read_note(vault_path, "Long.md"))
    assert len(found.passages) > 2
    for passage, text in zip(found.passages, found.embed_texts, strict=True):
        own = [letter for letter in letters if f" X {letters.index(letter)} {letter} " in passage.text]
        assert own, passage.text
        assert [letter for letter in letters if f"term {letter} once" in text] == own, text  # its formulas, no other's
        assert " X " not in text


def test_a_text_without_a_formula_is_left_as_it_is() -> None:
    from vaultmem.math_words import math_as_words

    text = "Rent is $1200 a month; echo $PATH.\n```sh\necho $x$y\n```\n"
    assert math_as_words(text).text is text  # no formula: the same text, embedded as before
    plain = "No dollar sign at all."
    assert math_as_words(plain).text is plain
