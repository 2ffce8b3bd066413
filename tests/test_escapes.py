"""LaTeX in a double-quoted frontmatter value that YAML read as its escapes (escapes.py, adr/0020).

A trial with a researcher's Zotero-imported vault: `title: "$\\beta$-VAE: …"` loaded as `$`, a
backspace, `eta$-VAE`, `"Estimating $\\nu$ …"` with a line break — and `check` said nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli, run_json, snapshot_files

from vaultmem import Vault

BETA = ('---\ntitle: "$\\beta$-VAE: Learning Basic Visual Concepts"\ncitekey: higgins2017beta\n'
        'keywords: ["disentanglement", "KL weight \\\\beta"]\n---\nThe KL term is weighted by $\\beta>1$.\n')
NU = ('---\ntitle: "Estimating $\\nu$ in Student-t regression"\nabstract: "Priors on $\\theta$ and $\\Phi$."\n'
      '---\nDegrees of freedom.\n')


def test_check_says_which_latex_command_yaml_read_as_an_escape_and_gives_the_value_in_single_quotes(
        vault_dir: Path, write_note) -> None:
    write_note("papers/beta.md", BETA)
    write_note("papers/nu.md", NU)
    write_note("papers/plain.md", "---\ntitle: 'Estimating $\\nu$, single-quoted'\nnote: \"a \\\\nu kept\"\n---\nFine.\n")
    before = snapshot_files(vault_dir)
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1, result.output
    problems = {(problem["path"], problem["field"]): problem for problem in json.loads(result.stdout)["problems"]}
    assert set(problems) == {("papers/beta.md", "title"), ("papers/nu.md", "title"), ("papers/nu.md", "abstract")}
    beta = problems[("papers/beta.md", "title")]
    assert beta["message"] == ("YAML reads \\b in the double-quoted title (line 2) as a backspace, not as the LaTeX command "
                               "written: title holds that character, and is shown and searched so")
    assert beta["fix"] == ("write the value in single quotes, where YAML keeps a backslash as it is: "
                           "title: '$\\beta$-VAE: Learning Basic Visual Concepts' (or double each backslash inside "
                           "the double quotes)")
    assert problems[("papers/nu.md", "title")]["message"].startswith("YAML reads \\n in the double-quoted title (line 2) "
                                                                     "as a line break")
    assert problems[("papers/nu.md", "abstract")]["message"].startswith(
        "YAML reads \\t in the double-quoted abstract (line 3) as a tab, not as the LaTeX command written "
        "(and 1 more such escape)")
    assert snapshot_files(vault_dir) == before  # said, never rewritten


def test_the_index_and_get_carry_the_escape_problem_and_the_title_is_read_as_yaml_reads_it(vault_dir: Path, write_note) -> None:
    write_note("papers/beta.md", BETA)
    with Vault(vault_dir) as vault:
        report = vault.index()
        assert [(problem.path, problem.field) for problem in report.problems] == [("papers/beta.md", "title")]
        view = vault.get("papers/beta.md")
    assert view.title == "$\beta$-VAE: Learning Basic Visual Concepts"  # \b: as YAML (and Obsidian) read it
    assert [problem["field"] for problem in view.problems] == ["title"]


@pytest.mark.parametrize("written", ['"a\\\\beta b"', '"tab\\t separated"', '"C:\\\\notes\\\\beta"', '"\\u00e9t\\u00e9"',
                                     "'$\\beta$ in single quotes'", "$\\beta$ plain"])
def test_a_value_whose_backslashes_yaml_keeps_or_whose_escape_is_meant_is_no_problem(
        vault_dir: Path, write_note, written: str) -> None:
    write_note("note.md", f"---\ntitle: {written}\n---\nBody.\n")
    assert run_json(vault_dir, "check")["problems"] == []


def test_latex_that_stops_the_yaml_loading_says_to_use_single_quotes_not_to_quote_the_value(
        vault_dir: Path, write_note) -> None:
    """Was: "fix the YAML (quote values containing ': ' or '{{')" of a value already quoted."""
    write_note("papers/l1.md", '---\ntitle: "Bounds on $\\mathcal{L}_1$ error"\n---\nBody.\n')
    problem = run_json(vault_dir, "check")["problems"][0]
    assert problem["field"] == "frontmatter"
    assert "(a backslash inside double quotes starts a YAML escape, and LaTeX's \\mathcal" in problem["message"]
    assert problem["fix"].startswith("write that value in single quotes ('$\\mathcal{L}_1$ …'), where YAML keeps a "
                                     "backslash as it is, or double each backslash; until then it has no metadata")
