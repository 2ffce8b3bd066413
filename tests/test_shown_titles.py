"""A note named README (index, _index) by its file is shown with its folder: hits, list, get, explain,
the CLI and MCP tell a vault's many READMEs apart (shown_titles.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli
from mcp_client import run, serve
from vaultmem import NoteNotFound, Vault
from vaultmem.shown_titles import shown_title

NOW = "2026-11-30T12:00:00+00:00"


def security_vault(root: Path) -> Path:
    """The shape of a real security-notes vault: a README in many folders, one titled by its property."""
    notes = {
        "README.md": "Root readme about the firewall vault.\n",
        "networking/README.md": "# Networking\n\nFirewall rules and port scanning with nmap.\n",
        "web/README.md": "Web security: XSS, CSRF and firewall headers.\n",
        "web/tools/readme.md": "Burp proxy behind the firewall.\n",
        "crypto/README.md": "---\ntitle: Crypto notes\n---\nTLS and the firewall of keys.\n",
    }
    for relative, text in notes.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root


SHOWN = {"README.md": "README", "networking/README.md": "networking/README", "web/README.md": "web/README",
         "web/tools/readme.md": "web/tools/readme", "crypto/README.md": "Crypto notes"}


@pytest.mark.parametrize(
    ("title", "path", "shown"),
    [
        ("README", "networking/README.md", "networking/README"),
        ("readme", "a/b/readme.md", "a/b/readme"),  # the whole folder path: two `docs/README` stay apart
        ("index", "notes/index.md", "notes/index"),  # a `title: index` property (a folder page is titled by its heading)
        ("README", "README.md", "README"),  # at the root: the vault's own README
        ("index", "pages/index.md", "index"),  # Logseq's page "index" in its flat pages/ folder
        ("Networking", "networking/README.md", "Networking"),  # titled otherwise: as titled
        ("README", "networking/Overview.md", "README"),  # a title README that is not the file's name
        ("Readme notes", "x/README.md", "Readme notes"),
    ],
)
def test_shown_title_puts_the_folder_before_a_placeholder_file_name_only(title: str, path: str, shown: str) -> None:
    assert shown_title(title, path) == shown


def test_hits_list_get_and_explain_tell_a_vaults_readmes_apart(tmp_path: Path) -> None:
    """Was (s39, a security-notes vault): every hit was titled "README"."""
    with Vault(security_vault(tmp_path)) as vault:
        vault.index()
        hits = vault.search("firewall", k=10, now=NOW)
        assert {hit.path: hit.title for hit in hits} == SHOWN
        assert {listed.path: listed.title for listed in vault.list_notes(k=10, now=NOW)} == SHOWN
        assert vault.get("networking/README", now=NOW).as_dict()["title"] == "networking/README"
        assert vault.explain("web/README", "firewall", now=NOW).title == "web/README"


def test_the_cli_shows_the_folder_of_each_readme_in_search_list_get_and_explain(tmp_path: Path) -> None:
    vault = security_vault(tmp_path)
    assert run_cli(vault, "index").exit_code == 0
    searched = run_cli(vault, "search", "firewall").stdout
    assert " networking/README  " in searched and " web/README  " in searched, searched
    assert " networking/README  " in run_cli(vault, "list").stdout
    assert run_cli(vault, "get", "networking/README").stdout.startswith("networking/README\n  path: networking/README.md\n")
    assert run_cli(vault, "explain", "web/README", "firewall").stdout.startswith("web/README.md — web/README\n")
    hits = json.loads(run_cli(vault, "search", "firewall", "--json").stdout)
    assert {hit["path"]: hit["title"] for hit in hits} == SHOWN


@pytest.mark.slow
def test_recall_over_mcp_tells_the_readmes_apart(tmp_path: Path) -> None:
    vault = security_vault(tmp_path / "vault")

    async def scenario() -> None:
        async with serve(vault, tmp_path / "server-stderr.log") as served:
            hits = (await served.call("recall", query="firewall", k=10))["hits"]
            assert {hit["path"]: hit["title"] for hit in hits} == SHOWN
            assert (await served.call("get", note="web/README"))["title"] == "web/README"

    run(scenario)


def test_tasks_and_stale_notes_name_each_readme_by_its_folder_too(tmp_path: Path) -> None:
    """A task list of a vault of READMEs named every task's note "README" alike."""
    (tmp_path / "networking").mkdir()
    (tmp_path / "web").mkdir()
    (tmp_path / "networking" / "README.md").write_text("- [ ] patch the firewall\n", encoding="utf-8")
    (tmp_path / "web" / "README.md").write_text("- [ ] rotate the CSRF secret\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        assert {task.path: task.title for task in vault.tasks(now=NOW)} == {
            "networking/README.md": "networking/README", "web/README.md": "web/README"}
        assert {note.path: note.title for note in vault.stale(days=0, now="2099-01-01")} == {
            "networking/README.md": "networking/README", "web/README.md": "web/README"}


def test_remembers_similar_list_names_a_readme_by_its_folder(tmp_path: Path) -> None:
    """Was (s39's leftover): `similar` said "README", where hits said networking/README."""
    (tmp_path / "networking").mkdir()
    (tmp_path / "networking" / "README.md").write_text("Firewall rules and VLAN layout for the home network.\n",
                                                       encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        remembered = vault.remember("Firewall rules and VLAN layout for the home network.", layer="L3", now=NOW)
        assert [(similar.path, similar.title) for similar in remembered.similar] == [
            ("networking/README.md", "networking/README")]
        assert remembered.as_dict()["similar"][0]["title"] == "networking/README"


def test_consolidates_members_name_each_readme_by_its_folder(tmp_path: Path) -> None:
    """Was: a cluster of two READMEs listed "README" twice, in the report and its JSON."""
    for folder in ("home", "office"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "README.md").write_text("The wifi router sits behind the bookshelf; reboot it monthly.\n",
                                                     encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        report = vault.consolidate(any_note=True, all=True, now=NOW)
        members = [member for cluster in report.as_dict()["clusters"] for member in cluster["notes"]]
        assert sorted(member["title"] for member in members) == ["home/README", "office/README"]
    shown = run_cli(tmp_path, "consolidate", "--any-note", "--all").stdout
    assert '"home/README"' in shown and '"office/README"' in shown, shown


def test_a_did_you_mean_names_each_readme_by_its_folder(tmp_path: Path) -> None:
    """Was: "did you mean 'crypto/README.md' (README) or 'networking/README.md' (README)?"."""
    for folder in ("crypto", "networking"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "README.md").write_text(f"About {folder}.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        with pytest.raises(NoteNotFound) as raised:
            vault.get("Reädme", now=NOW)
        assert "'crypto/README.md' (crypto/README) or 'networking/README.md' (networking/README)" in str(raised.value)


def test_a_readme_that_superseded_a_note_is_named_by_its_folder(tmp_path: Path) -> None:
    """superseded_by_title (revise's answer) was "README" for a README a person named as the successor."""
    (tmp_path / "networking").mkdir()
    (tmp_path / "networking" / "README.md").write_text("---\nid: net-readme\n---\nThe new VLAN layout.\n", encoding="utf-8")
    (tmp_path / "old-vlans.md").write_text("---\nlayer: L3\nsuperseded_by: net-readme\n---\nThe old VLAN layout.\n",
                                           encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        revised = vault.revise("old-vlans", append="Kept for the record.", now=NOW).as_dict()
        assert (revised["superseded_by_path"], revised["superseded_by_title"]) == ("networking/README.md", "networking/README")
