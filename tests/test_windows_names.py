"""Names Windows cannot hold: ``check`` names them, ``remember`` never makes one
(windows_names.py, name_clashes.py, slugs.py; adr/0020)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli

from vaultmem import Vault
from vaultmem.slugs import slugify
from vaultmem.windows_names import is_device_name, windows_trouble

NOTE = "---\nlayer: L4\n---\n{}\n"


def name_problems(vault: Path) -> dict[str, dict[str, str]]:
    result = run_cli(vault, "check", "--json")
    return {problem["path"]: problem for problem in json.loads(result.stdout)["problems"] if problem["field"] == "name"}


@pytest.mark.parametrize("name", ["con.md", "AUX.md", "nul", "Com1.notes.md", "lpt¹.md", "con .md", "CONOUT$.md"])
def test_device_names_in_any_case_and_with_any_extension_are_device_names(name: str) -> None:
    assert is_device_name(name)


@pytest.mark.parametrize("name", ["console.md", "con-note.md", "auxiliary.md", "com10.md", "memories.con.md", "APIM： Policies.md"])
def test_names_that_only_look_like_devices_and_full_width_colons_are_fine(name: str) -> None:
    assert windows_trouble(name) is None


def test_check_names_device_names_trailing_dots_and_spaces_and_reserved_characters(vault_dir: Path, write_note) -> None:
    """Was: check said nothing; Git for Windows stopped the person's clone at `invalid path`."""
    write_note("con.md", NOTE.format("Pros and cons of Tailwind."))
    write_note("Drafts /Game idea.md", NOTE.format("A tower defence game."))
    write_note("Q&A: what? .md", NOTE.format("Made on Linux."))
    write_note("fine/Notes on CSS.md", NOTE.format("Nothing wrong here."))
    found = name_problems(vault_dir)
    assert set(found) == {"con.md", "Drafts /Game idea.md", "Q&A: what? .md"}
    assert found["con.md"]["message"].startswith("'con.md' is a device name on Windows (CON)")
    assert "Git for Windows refuses its path" in found["con.md"]["message"]
    assert found["Drafts /Game idea.md"]["message"].startswith("'Drafts ' ends in a space")
    assert found["Drafts /Game idea.md"]["fix"].startswith("rename the folder 'Drafts '")
    assert "holds ':' '?'" in found["Q&A: what? .md"]["message"]


def test_a_folder_windows_cannot_hold_is_one_problem_for_all_its_notes(vault_dir: Path, write_note) -> None:
    write_note("aux/one.md", NOTE.format("One."))
    write_note("aux/two.md", NOTE.format("Two."))
    found = name_problems(vault_dir)
    assert list(found) == ["aux/one.md"]
    assert found["aux/one.md"]["fix"].startswith("rename the folder 'aux'")


@pytest.mark.parametrize(("title", "slug"), [("CON", "con-note"), ("aux", "aux-note"), ("NUL.", "nul-note"),
                                            ("COM¹", "com1-note"), ("Con game", "con-game")])
def test_a_slug_is_never_a_device_name(title: str, slug: str) -> None:
    assert slugify(title) == slug


def test_remember_titled_with_a_device_name_writes_a_file_windows_can_hold(vault_dir: Path) -> None:
    """Was: memories/nul.md, which Git for Windows refuses to check out."""
    written = Vault(vault_dir).remember("The null modem cable is in the second drawer.", title="NUL")
    assert written.path == "memories/nul-note.md"
    assert (vault_dir / written.path).is_file()


def test_remember_titled_with_every_character_windows_forbids_writes_a_name_without_them(vault_dir: Path) -> None:
    written = Vault(vault_dir).remember("Functions time out after 5 minutes.", title='Functions: timeout? <5> "min" a/b\\c|d*')
    name = written.path.removeprefix("memories/")
    assert windows_trouble(name) is None
    assert "/" not in name
    assert written.title == 'Functions: timeout? <5> "min" a/b\\c|d*'


def test_check_names_a_note_whose_path_from_the_vault_root_is_past_windows_max_path(vault_dir: Path, write_note) -> None:
    """Was: check said nothing; on Windows Explorer cannot open such a note and Git for Windows
    stops the clone at "Filename too long". Counted in UTF-16 units from the vault root."""
    folders = "Projects/" + "a" * 120 + "/" + "b" * 100 + "/"  # 231 characters
    long_path = folders + "c" * 26 + ".md"  # 260
    fits = folders + "d" * 25 + ".md"  # 259
    emoji = folders + "e" * 12 + "🙂" * 7 + ".md"  # 253 characters, but 260 UTF-16 units: too long
    for path in (long_path, fits, emoji):
        write_note(path, NOTE.format("A note deep in the tree."))
    found = name_problems(vault_dir)
    assert sorted(found) == sorted([long_path, emoji])
    assert found[emoji]["message"].startswith("its path is 260 characters from the vault root")
    assert found[long_path]["message"].startswith(
        "its path is 260 characters from the vault root, past Windows' 260-character limit (MAX_PATH)")
    assert "a risk when the vault is synced to or cloned on Windows" in found[long_path]["message"]
    assert found[long_path]["fix"].startswith("give the note (or its folders) a shorter name")
