"""``check`` names note paths that are one file on macOS or Windows (name_clashes.py, adr/0020)."""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

from helpers import run_cli
from vaultmem import Vault

NOTE = "---\nlayer: L4\n---\n{}\n"
ZOE_NFC = unicodedata.normalize("NFC", "Zoë")
ZOE_NFD = unicodedata.normalize("NFD", "Zoë")


def clashes(vault: Path) -> list[dict[str, str]]:
    result = run_cli(vault, "check", "--json")
    return [problem for problem in json.loads(result.stdout)["problems"] if problem["field"] == "name"]


def test_two_paths_that_differ_in_case_only_are_one_problem_naming_both(vault_dir: Path, write_note) -> None:
    """Was: check said nothing; on a Mac or a Windows machine the sync kept one of the two notes."""
    write_note("Work/Ideas.md", NOTE.format("Ideas for the harbor project."))
    write_note("work/ideas.md", NOTE.format("Ideas for the garden."))
    write_note("work/other.md", NOTE.format("Not a clash: another name."))
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1
    found = clashes(vault_dir)
    assert len(found) == 1
    assert found[0]["path"] == "Work/Ideas.md"
    assert "Work/Ideas.md and work/ideas.md are one file on macOS and Windows" in found[0]["message"]
    assert "in case only" in found[0]["message"]
    assert found[0]["fix"].startswith("rename all but one of them")
    shown = run_cli(vault_dir, "check")
    assert "work/ideas.md" in shown.stdout


def test_two_names_in_either_unicode_form_are_one_file_on_macos(vault_dir: Path, write_note) -> None:
    write_note(f"people/{ZOE_NFC}.md", NOTE.format("Zoë, typed composed."))
    write_note(f"people/{ZOE_NFD}.md", NOTE.format("Zoë, as macOS named it."))
    assert len(os.listdir(vault_dir / "people")) == 2  # Linux keeps both
    found = clashes(vault_dir)
    assert len(found) == 1
    assert f"people/{ZOE_NFC}.md" in found[0]["message"]
    assert f"people/{ZOE_NFD}.md" in found[0]["message"]
    assert "one file on macOS:" in found[0]["message"]  # NTFS keeps both forms apart
    assert "Unicode NFC and NFD" in found[0]["message"]


def test_a_group_of_three_is_named_whole_and_the_python_api_says_the_same(vault_dir: Path, write_note) -> None:
    for name in ("Notes/Plan.md", "notes/plan.md", "NOTES/PLAN.md"):
        write_note(name, NOTE.format(name))
    with Vault(vault_dir) as vault:
        report = vault.check()
    found = [problem for problem in report.problems if problem.field == "name"]
    assert len(found) == 1
    assert "NOTES/PLAN.md, Notes/Plan.md and notes/plan.md are one file" in found[0].message


def test_names_no_file_system_takes_for_one_are_not_reported(vault_dir: Path, write_note) -> None:
    """Folders differing in case merge without loss; ß is not SS on any file system; a file
    name alike in two folders is two files."""
    write_note("Work/a.md", NOTE.format("a"))
    write_note("work/b.md", NOTE.format("b"))
    write_note("Straße.md", NOTE.format("street"))
    write_note("Strasse.md", NOTE.format("street, spelled out"))
    write_note("one/Kyoto.md", NOTE.format("Kyoto"))
    write_note("two/kyoto.md", NOTE.format("kyoto"))
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["problems"] == []
