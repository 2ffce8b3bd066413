"""get "Note#Heading" / "Note#H1#H2" / "Note#^block" reads that section (sections.py, reading.view_section);
writes by such a link keep refusing (resolution._a_link_to)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli, snapshot_files
from mcp_client import run, serve
from vaultmem import NoteNotFound, Vault
from vaultmem.errors import SectionNotFound

NOTE = (
    "---\ntags: [math]\n---\n"
    "# Linear Algebra\n\nIntro.\n\n"
    "## Eigenvalues\n\n$A v = \\lambda v$ ^eigen-def\n\n"
    "### Computing\n\nCharacteristic polynomial.\n\n"
    "```\n## not a heading\n```\n\n"
    "## Determinants: basics\n\n"
    "- item one ^item-1\n  - child\n- item two\n\n"
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n^table-1\n\n"
    "## Eigenvalues\n\nA second heading of that name.\n"
)


@pytest.fixture
def vault_dir(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (root / "Linear Algebra.md").write_text(NOTE, encoding="utf-8")
    return root


def file_lines(vault_dir: Path, first: int, last: int) -> str:
    return "".join((vault_dir / "Linear Algebra.md").read_text(encoding="utf-8").splitlines(keepends=True)[first - 1:last])


def test_get_note_heading_reads_the_heading_and_what_is_under_it_up_to_the_next_of_its_level(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        view = vault.get("Linear Algebra#Eigenvalues")
        whole = vault.get("Linear Algebra")
    assert view.section is not None and view.path == "Linear Algebra.md"
    # its ### subsection and the fenced "## not a heading" are inside; the next ## ends it
    assert view.body == ("## Eigenvalues\n\n$A v = \\lambda v$ ^eigen-def\n\n### Computing\n\nCharacteristic polynomial.\n\n"
                         "```\n## not a heading\n```\n")
    assert (view.section.first_line, view.section.last_line) == (8, 18)
    assert file_lines(vault_dir, 8, 18) == view.body  # the lines named are the file's, byte for byte
    assert view.section.headings == ("Eigenvalues",) and view.version == whole.version
    assert whole.section is None and "section" not in whole.as_dict()  # a whole note's view keeps its shape


def test_get_a_nested_heading_path_reads_the_heading_under_the_others(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        nested = vault.get("Linear Algebra#Linear Algebra#Eigenvalues#Computing")
        linked = vault.get("[[Linear Algebra#Eigenvalues#Computing|how]]")
    for view in (nested, linked):
        assert view.body == "### Computing\n\nCharacteristic polynomial.\n\n```\n## not a heading\n```\n"
    assert nested.section is not None and nested.section.headings == ("Linear Algebra", "Eigenvalues", "Computing")


def test_a_heading_is_matched_as_written_then_in_any_case_and_the_view_says_which(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        exact = vault.get("Linear Algebra#Eigenvalues")
        other_case = vault.get("Linear Algebra#eigenvalues")
        without_colon = vault.get("Linear Algebra#Determinants basics")  # as Obsidian writes the link: no ':'
    assert exact.section is not None and not exact.section.other_case
    assert other_case.section is not None and other_case.section.other_case and other_case.body == exact.body
    assert other_case.as_dict()["section"]["other_case"] is True
    assert "found in another case" in other_case.section_notice()
    assert without_colon.body.startswith("## Determinants: basics\n")


def test_get_note_block_id_reads_its_paragraph_list_item_or_the_table_above_it(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        paragraph = vault.get("Linear Algebra#^eigen-def")
        item = vault.get("Linear Algebra#^item-1")
        table = vault.get("Linear Algebra#^table-1")
    assert paragraph.body == "$A v = \\lambda v$ ^eigen-def\n"
    assert item.body == "- item one ^item-1\n  - child\n"
    assert table.body == "| a | b |\n|---|---|\n| 1 | 2 |\n\n^table-1\n"
    assert item.section is not None and item.section.block == "item-1" and item.section.headings == ()
    assert file_lines(vault_dir, item.section.first_line, item.section.last_line) == item.body


def test_a_heading_or_block_not_in_the_note_is_an_error_naming_the_note_and_its_headings(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        with pytest.raises(SectionNotFound) as heading:
            vault.get("Linear Algebra#Eigenvectors")
        with pytest.raises(SectionNotFound) as block:
            vault.get("Linear Algebra#^nope")
        with pytest.raises(NoteNotFound) as no_note:
            vault.get("Calculus#Limits")  # no note Calculus: answered as any name
    assert "Linear Algebra.md has no heading 'Eigenvectors'" in str(heading.value)
    assert "its headings: Linear Algebra, Eigenvalues, Computing, Determinants: basics, Eigenvalues" in str(heading.value)
    assert "not a heading" not in str(heading.value)  # a # line in code is none
    assert "its block ids: ^eigen-def, ^item-1, ^table-1" in str(block.value)
    assert "no note matches 'Calculus#Limits'" in str(no_note.value)


def test_writes_by_a_section_link_refuse_and_leave_the_note_as_it_was(vault_dir: Path, tmp_path: Path) -> None:
    """A section address must never write to the whole note: revise --body would have replaced the
    note with the text, forget archived all of it."""
    with Vault(vault_dir) as vault:
        vault.index()
    before = snapshot_files(vault_dir)
    with Vault(vault_dir) as vault:
        for write in (lambda: vault.revise("Linear Algebra#Eigenvalues", text="Only this."),
                      lambda: vault.revise("Linear Algebra#Eigenvalues", append="More."),
                      lambda: vault.forget("Linear Algebra#^item-1")):
            with pytest.raises(NoteNotFound) as refused:
                write()
            assert "it is a link to" in str(refused.value) and "a write acts on a whole note" in str(refused.value)
    for command in (["revise", "Linear Algebra#Eigenvalues", "--text", "Only this."],
                    ["revise", "Linear Algebra#Eigenvalues", "--append", "More."],
                    ["forget", "Linear Algebra#Eigenvalues"]):
        refused_cli = run_cli(vault_dir, *command)
        assert refused_cli.exit_code == 1 and "it is a link to the heading 'Eigenvalues'" in refused_cli.stderr, command

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            for tool, arguments in (("revise", {"text": "Only this."}), ("revise", {"append": "More."}), ("forget", {})):
                said = await served.error(tool, note="Linear Algebra#Eigenvalues", **arguments)
                assert "it is a link to" in said, (tool, said)

    run(scenario)
    assert {path: state for path, state in snapshot_files(vault_dir).items() if not path.startswith(".vaultmem")} == {
        path: state for path, state in before.items() if not path.startswith(".vaultmem")}


def test_cli_and_mcp_get_of_a_section_say_it_is_a_section_and_its_lines(vault_dir: Path, tmp_path: Path) -> None:
    shown = run_cli(vault_dir, "get", "Linear Algebra#Computing")
    assert shown.exit_code == 0, shown.output
    assert "SECTION: body is the section 'Computing' of Linear Algebra.md, lines 12–18" in shown.stdout
    assert shown.stdout.endswith("### Computing\n\nCharacteristic polynomial.\n\n```\n## not a heading\n```\n\n")
    as_json = json.loads(run_cli(vault_dir, "get", "Linear Algebra#^eigen-def", "--json").stdout)
    assert as_json["body"] == "$A v = \\lambda v$ ^eigen-def\n"
    assert as_json["section"]["block"] == "eigen-def" and as_json["section"]["lines"] == [10, 10]

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            answer = await served.call("get", note="Linear Algebra#Determinants: basics")
            assert answer["body"].startswith("## Determinants: basics\n") and answer["section"]["lines"] == [20, 30]
            assert "SECTION: body is the section 'Determinants: basics'" in answer["notice"]
            missing = await served.error("get", note="Linear Algebra#Nowhere")
            assert "Linear Algebra.md has no heading 'Nowhere'" in missing

    run(scenario)


def test_a_note_without_headings_or_block_ids_is_not_told_to_give_one_of_them(vault_dir: Path) -> None:
    # The kepano trial: a daily note with no block ids answered "it has no block ids. Give one of
    # them after the note's name" — advice to pick from an empty list.
    (vault_dir / "plain.md").write_text("Just a line of text.\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        with pytest.raises(SectionNotFound) as block:
            vault.get("plain#^nope")
        with pytest.raises(SectionNotFound) as heading:
            vault.get("plain#Intro")
    for error in (block.value, heading.value):
        assert "Give one of them" not in str(error)
        assert "give the note's name alone for the whole note" in str(error)
    assert "it has no block ids" in str(block.value)
    assert "it has no headings" in str(heading.value)


QUARTO_NOTE = (
    '---\ntitle: "Restore timings"\n---\n\n'
    "# Preface {-}\n\nWhy we measured.\n\n"
    "## Method {#sec-method}\n\nWe restored 50 GB from S3, three times per storage class.\n\n"
    "## Results {#sec-results .unnumbered}\n\nGlacier Instant Retrieval took 41 minutes; Standard took 18.\n\n"
    "## Setup { #setup .wide }\n\nA laptop on fibre.\n\n"
    "## The set {x, y}\n\nBraces that are no attributes.\n"
)


def test_a_headings_attribute_block_is_not_its_name(vault_dir: Path) -> None:
    """Was (a trial on a Quarto/MkDocs docs folder): `## Results {#sec-results .unnumbered}` was
    the section "Results {#sec-results .unnumbered}" — in a hit's heading path, and `get
    "Note#Results"` said the note had no heading 'Results'. Pandoc, Quarto and MkDocs show
    "Results"; the line itself stays as the file holds it."""
    (vault_dir / "quarto-notes.md").write_text(QUARTO_NOTE, encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.index()
        results = vault.get("quarto-notes#Results")
        preface = vault.get("quarto-notes#Preface#Method")
        setup = vault.get("quarto-notes#Preface#Setup")
        braces = vault.get("quarto-notes#Preface#The set {x, y}")
        [hit] = vault.search("Glacier Instant Retrieval minutes", k=1)
    assert results.section is not None and results.section.headings == ("Results",)
    assert results.body == "## Results {#sec-results .unnumbered}\n\nGlacier Instant Retrieval took 41 minutes; Standard took 18.\n"
    assert preface.section is not None and preface.section.headings == ("Preface", "Method")
    assert setup.body.startswith("## Setup { #setup .wide }\n")
    assert braces.section is not None  # `{x, y}` is no attribute block: the heading keeps it
    assert hit.passage is not None and hit.passage.headings == ["Preface", "Results"], hit.passage
    assert hit.snippet.startswith("Results · Glacier"), hit.snippet


def test_a_heading_named_with_its_attribute_block_as_obsidian_links_it_still_names_its_section(vault_dir: Path) -> None:
    """Review (s34): Obsidian knows no attribute blocks, so its link to `# Preface {-}` is
    `[[quarto-notes#Preface {-}]]`; once the block was no part of the heading's name, that link,
    and `get` of it, said the note had no heading 'Preface {-}' (it named the section before)."""
    (vault_dir / "quarto-notes.md").write_text(QUARTO_NOTE, encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.index()
        preface = vault.get("quarto-notes#Preface {-}")
        linked = vault.get("[[quarto-notes#Preface {-}#Results {.unnumbered}]]")
    assert preface.section is not None and preface.section.headings == ("Preface",)
    assert linked.section is not None and linked.section.headings == ("Preface", "Results")
