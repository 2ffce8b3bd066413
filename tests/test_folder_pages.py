"""A folder's page (``docs/guide/index.md``) is titled as a documentation site titles it
(notes.folder_page_title; adr/0033 "A folder's page"): by the ``# heading`` it opens with, else
by its folder's name. Every ``index.md`` of an MkDocs site was titled "index". Real files, a
real index, the real CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NOW, run_json, write_vault

from vaultmem import Vault
from vaultmem.notes import parse_note


@pytest.mark.parametrize(("path", "text", "title"), [
    ("docs/guide/index.md", "# User guide\n\nEveryday use.\n", "User guide"),  # its opening heading, as MkDocs titles it
    ("docs/guide/index.md", "\n\n# User guide {#guide}\n", "User guide"),  # its attributes are no words
    ("docs/troubleshooting/index.md", "When a backup stalls, check the lock.\n\n# Later heading\n", "troubleshooting"),
    ("docs/troubleshooting/index.md", "## Symptoms\n\nA stall.\n", "troubleshooting"),  # a section is no title
    ("content/posts/_index.md", "Every post.\n", "posts"),  # Hugo's section page
    ("Projects/Index.md", "# Projects overview\n", "Projects overview"),
    ("docs/guide/index.md", "---\ntitle: The guide\n---\n# User guide\n", "The guide"),  # a title property wins
    ("index.md", "# Harbor\n\nStart here.\n", "index"),  # the vault's root: what its person calls it
    ("docs/guide/indexes.md", "# Index of terms\n", "indexes"),  # another name: the file name, as before
    ("docs/guide/tips.md", "# Tips\n", "tips"),
    ("Projects/index.md", "# [[Harbor]] and [[boats|Boats]]\n", "Harbor and Boats"),  # a link is its text, as Obsidian shows it
])
def test_a_folders_page_is_titled_by_its_opening_heading_else_its_folder(path: str, text: str, title: str) -> None:
    assert parse_note(path, text.encode("utf-8")).title == title


SITE = {
    "mkdocs.yml": "site_name: Harbor\n",
    "docs/index.md": "# Harbor\n\nHarbor is a self-hosted backup tool.\n",
    "docs/guide/index.md": "# User guide\n\nEveryday use: schedules, retention and restoring files.\n",
    "docs/guide/restore/index.md": "# Restoring files\n\nharbor restore picks a snapshot and writes files to a target folder.\n",
    "docs/troubleshooting/index.md": "When a backup stalls, check the lock file and the free space.\n",
}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "site", SITE)


def test_a_sites_pages_are_found_and_shown_under_their_own_titles(site: Path) -> None:
    with Vault(site) as vault:
        vault.index()
        hits = vault.search("how do I restore files from a snapshot", k=3, now=NOW)
        assert (hits[0].path, hits[0].title) == ("docs/guide/restore/index.md", "Restoring files")
        assert vault.get("User guide").path == "docs/guide/index.md"
        assert vault.get("troubleshooting").path == "docs/troubleshooting/index.md"
        assert vault.get("docs/guide/index").title == "User guide"  # its path still names it


def test_a_folders_page_keeps_its_file_name_as_a_name(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", {"Projects/index.md": "# Projects overview\n\nWhat I work on.\n",
                                            "Projects/harbor.md": "Harbor: see [[index]].\n"})
    with Vault(root) as vault:
        vault.index()
        assert vault.get("index").path == "Projects/index.md"
        assert vault.get("Projects overview").path == "Projects/index.md"


def test_retitling_a_folders_page_writes_its_title_and_keeps_its_text(site: Path) -> None:
    before = (site / "docs/guide/index.md").read_text(encoding="utf-8")
    result = run_json(site, "revise", "docs/guide/index.md", "--title", "Everyday guide")
    assert result["title"] == "Everyday guide"
    assert (site / "docs/guide/index.md").read_text(encoding="utf-8") == f"---\ntitle: Everyday guide\n---\n{before}"


def test_a_logseq_page_named_index_keeps_its_name(tmp_path: Path) -> None:
    # Logseq's pages/ is flat (a namespace is in the file name: projects___index.md), so pages/index.md
    # is the page "index", as Logseq lists and links it — it was titled "pages", its folder.
    root = write_vault(tmp_path / "graph", {"logseq/config.edn": "{:meta/version 1}\n",
                                            "pages/index.md": "- the pages I start from\n- [[Kindred]]\n",
                                            "pages/Kindred.md": "type:: book\n\n- back to [[index]]\n"})
    with Vault(root) as vault:
        vault.index()
        assert vault.get("index").title == "index"
        assert [hit.title for hit in vault.search("the pages I start from", k=1, now=NOW)] == ["index"]
