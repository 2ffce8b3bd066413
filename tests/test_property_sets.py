"""revise --set KEY=VALUE / --unset KEY: a person's properties changed in place (property_sets.py).

From a trial on a real personal-CRM vault: "Matt moved to Acme" could only be appended as text
while ``company: Social Leverage`` stayed. Real files, real SQLite, real git, the real CLI and
the real MCP client over stdio.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from helpers import git, init_repo, run_cli, snapshot_files, write_vault
from mcp_client import run, serve

from vaultmem import UsageError, Vault
from vaultmem.errors import FrontmatterError
from vaultmem.notes import read_note

NOW = "2026-02-02T12:00:00+00:00"
MATT = (
    "---\n"
    "name: Matt Ober\n"
    "aliases: []\n"
    "tags: [investor]\n"
    "met_date:\n"
    "company: Social Leverage  # since 2019\n"
    "title: Partner\n"
    "last_contact: 2026-01-26\n"
    "created: 2026-01-26\n"
    "---\n"
    "\n"
    "# Matt Ober\n"
    "\n"
    "Partner at Social Leverage.\r\n"
    "Regular strategy calls.\n"
)


@pytest.fixture
def vault(vault_dir: Path) -> Iterator[Vault]:
    write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "people/matt-ober.md": MATT})
    with Vault(vault_dir) as opened:
        opened.index()
        yield opened


def body_of(text: str) -> str:
    return text.split("---\n", 2)[2]


def test_set_changes_a_property_in_place_keeping_key_order_comments_and_the_body_byte_for_byte(vault: Vault) -> None:
    path = vault.root / "people/matt-ober.md"
    result = vault.revise("Matt Ober", set_properties={"company": "Acme", "last_contact": "2026-02-01"}, now=NOW)
    text = path.read_bytes().decode("utf-8")
    assert result.changed == ["company", "last_contact"]
    assert text.startswith("---\nname: Matt Ober\naliases: []\ntags: [investor]\nmet_date:\n"
                           "company: Acme  # since 2019\ntitle: Partner\nlast_contact: 2026-02-01\ncreated: 2026-01-26\n---\n")
    assert body_of(text) == body_of(MATT)
    assert path.read_bytes().count(b"\r\n") == 1  # the body's own line ending, untouched


def test_a_set_date_stays_a_date_and_the_index_finds_the_new_value_at_once(vault: Vault) -> None:
    vault.revise("Matt Ober", set_properties={"company": "Acme Robotics", "last_contact": "2026-02-01"}, now=NOW)
    assert read_note(vault.root, "people/matt-ober.md").meta["last_contact"] == date(2026, 2, 1)  # written bare, not '2026-02-01'
    assert [hit.path for hit in vault.search("Acme Robotics", k=3, now=NOW)][:1] == ["people/matt-ober.md"]


def test_set_types_values_as_yaml_reads_them_and_a_list_key_takes_a_comma_separated_value(vault: Vault) -> None:
    vault.revise("Matt Ober", set_properties={"aliases": "Matt, Matty", "vip": "true", "rank": "3", "met_date": "2025-05-01",
                                              "city": "San Francisco, CA"}, now=NOW)
    meta = vault.get("people/matt-ober.md").meta
    assert meta["aliases"] == ["Matt", "Matty"] and meta["vip"] is True and meta["rank"] == 3
    assert meta["city"] == "San Francisco, CA"  # not a list: the key held none
    assert "aliases: [Matt, Matty]\n" in (vault.root / "people/matt-ober.md").read_text(encoding="utf-8")  # its own form


def test_set_keeps_text_that_yaml_1_1_would_read_as_something_else(vault: Vault) -> None:
    # `on` a checkbox, `02134` the octal 1116, `1:30` the number 90, `#a4c` a comment (nothing).
    vault.revise("Matt Ober", set_properties={"zip": "02134", "status": "on", "slot": "1:30", "color": "#a4c",
                                              "note": "see #growth", "links": "[on, 010, 3]"}, now=NOW)
    meta = read_note(vault.root, "people/matt-ober.md").meta
    assert [meta[key] for key in ("zip", "status", "slot", "color", "note")] == ["02134", "on", "1:30", "#a4c", "see #growth"]
    assert meta["links"] == ["on", "010", 3]


def test_unset_removes_a_property_and_an_absent_one_is_refused_naming_the_note(vault: Vault) -> None:
    vault.revise("Matt Ober", unset_properties=["met_date"], now=NOW)
    assert "met_date" not in (vault.root / "people/matt-ober.md").read_text(encoding="utf-8")
    before = snapshot_files(vault.root)
    with pytest.raises(UsageError, match=r"unset_properties compnay: people/matt-ober.md has no such property"):
        vault.revise("Matt Ober", unset_properties=["compnay"], now=NOW)
    assert snapshot_files(vault.root) == before


@pytest.mark.parametrize(("properties", "refused"), [
    ({"id": "x"}, "vaultmem keeps id"),
    ({"superseded_by": "x"}, "vaultmem keeps superseded_by"),
    ({"tags": "a"}, "change tags with --tag/--untag"),
    ({"layer": "L9"}, "unknown layer 'L9'"),
    ({"expires_at": "soon"}, "invalid timestamp 'soon'"),
    ({"created": "last week"}, "created: 'last week' is not a date"),
    ({"company": ""}, "company is empty"),
    ({"bad:key": "x"}, "is not a property name"),
    ({"notes": {"a": 1}}, "is neither text"),
])
def test_set_refuses_vaultmems_keys_and_bad_values_and_writes_nothing(vault: Vault, properties: dict[str, object],
                                                                     refused: str) -> None:
    before = snapshot_files(vault.root)
    with pytest.raises((UsageError, ValueError), match=refused):
        vault.revise("Matt Ober", set_properties=properties, now=NOW)
    assert snapshot_files(vault.root) == before


def test_set_takes_a_key_opening_with_an_emoji_as_habit_tracker_vaults_name_theirs(vault_dir: Path) -> None:
    # A trial on a Persian vault: its journal keeps `📱social`, `🏋️‍♂️exercise`, `📚reading` (read by
    # Dataview), and `--set 📱social=3` was refused as no property name.
    day = "---\ntags:\n  - journal\n🏋️‍♂️exercise: false\n📚reading: 1\n📱social: 4\n---\nامروز ورزش نکردم.\n"
    write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "روزنوشت/1403-05-13.md": day})
    with Vault(vault_dir) as vault:
        vault.revise("روزنوشت/1403-05-13", set_properties={"📱social": "3", "🏋️‍♂️exercise": "true"}, now=NOW)
        with pytest.raises(UsageError, match="is not a property name"):
            vault.revise("روزنوشت/1403-05-13", set_properties={"📱": "3"}, now=NOW)  # an emoji alone names nothing
    text = (vault_dir / "روزنوشت/1403-05-13.md").read_text(encoding="utf-8")
    assert text == day.replace("exercise: false", "exercise: true").replace("📱social: 4", "📱social: 3")


def test_set_layer_is_the_layer_option_with_its_ttl_applied(vault: Vault) -> None:
    result = vault.revise("Matt Ober", set_properties={"layer": "semantic"}, now=NOW)
    assert result.layer == "L3" and result.expires_at == "2026-05-03T12:00:00+00:00"  # L3's 90 days from now


def test_set_on_a_hugo_toml_page_is_refused_and_the_file_kept(vault: Vault) -> None:
    page = '+++\ntitle = "Glukose"\ndraft = false\n+++\n\nLeber versorgt das Gehirn.\n'
    (vault.root / "glukose.md").write_text(page, encoding="utf-8")
    vault.index()
    with pytest.raises(FrontmatterError, match=r"TOML"):
        vault.revise("glukose.md", set_properties={"draft": "true"}, now=NOW)
    assert (vault.root / "glukose.md").read_text(encoding="utf-8") == page


def test_set_on_a_logseq_page_writes_its_property_lines(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": "{:meta/version 1}\n",
                                   "pages/Dana.md": "company:: Initech\nrole:: CTO\n\n- met at the meetup\n"})
    with Vault(root) as vault:
        vault.index()
        vault.revise("pages/Dana.md", set_properties={"company": "Acme", "last_contact": "2026-02-01"},
                     unset_properties=["role"], now=NOW)
    assert (root / "pages/Dana.md").read_text(encoding="utf-8") == (
        "company:: Acme\nlast-contact:: 2026-02-01\n\n- met at the meetup\n")


def test_cli_set_and_unset_with_auto_commit_names_the_change_in_the_commit(vault: Vault) -> None:
    init_repo(vault.root)
    (vault.root / ".vaultmem.toml").write_text('embedder = "hashing"\nauto_commit = true\n', encoding="utf-8")
    git(vault.root, "add", "-A")
    git(vault.root, "commit", "-qm", "first")
    result = run_cli(vault.root, "revise", "Matt Ober", "--set", "company=Acme", "--unset", "met_date", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["changed"] == ["met_date", "company"]
    message = git(vault.root, "log", "-1", "--format=%B")
    assert "company: 'Social Leverage' → 'Acme'" in message and "met_date: None removed" in message
    assert "company: Social Leverage" in git(vault.root, "show", "HEAD~1:people/matt-ober.md")  # the old value kept
    bad = run_cli(vault.root, "revise", "Matt Ober", "--set", "company")
    assert bad.exit_code != 0 and "--set 'company' has no '='; write it KEY=VALUE" in bad.output


def test_mcp_revise_sets_and_unsets_properties(vault_dir: Path, tmp_path: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "people/matt-ober.md": MATT})

    async def scenario() -> None:
        async with serve(root, tmp_path / "server-stderr.log") as served:
            reply = await served.call("revise", note="Matt Ober", set_properties={"company": "Acme", "rank": 2},
                                      unset_properties=["met_date"])
            assert reply["changed"] == ["met_date", "company", "rank"], reply
            refused = await served.error("revise", note="Matt Ober", set_properties={"id": "x"})
            assert "set_properties id: vaultmem keeps id" in refused

    run(scenario)
    text = (root / "people/matt-ober.md").read_text(encoding="utf-8")
    assert "company: Acme  # since 2019\n" in text and "rank: 2\n" in text and "met_date" not in text


def test_unset_of_a_key_in_another_case_removes_the_note_own_key_in_yaml_and_on_a_logseq_page(vault: Vault) -> None:
    # Was a KeyError ('Company') out of revise, then a refusal ("no such property") beside the
    # `company:` Obsidian shows as that property: property names are one in any case (adr/0006,
    # "property names in any case"), so the note's own key goes, and the change names it.
    path = vault.root / "people/matt-ober.md"
    assert vault.revise("Matt Ober", unset_properties=["Company"], now=NOW).changed == ["company"]
    assert "company" not in path.read_text(encoding="utf-8") and "title: Partner\n" in path.read_text(encoding="utf-8")
    page = vault.root / "pages/Dana.md"
    (vault.root / "logseq").mkdir()
    (vault.root / "logseq/config.edn").write_text("{:meta/version 1}\n", encoding="utf-8")
    page.parent.mkdir()
    page.write_text("company:: Initech\nrole:: CTO\n\n- met at the meetup\n", encoding="utf-8")
    vault.index()
    assert vault.revise("pages/Dana.md", unset_properties=["Role"], now=NOW).changed == ["role"]
    assert page.read_text(encoding="utf-8") == "company:: Initech\n\n- met at the meetup\n"


def test_set_of_a_key_in_another_case_writes_into_the_key_the_note_has_keeping_its_spelling(vault: Vault) -> None:
    """Was: `--set Date=…` beside `date:` wrote a second key, `Date:`, which Obsidian shows as one
    property with one of the two values; the person's own stayed and the agent's was unread."""
    init_repo(vault.root)
    (vault.root / ".vaultmem.toml").write_text('embedder = "hashing"\nauto_commit = true\n', encoding="utf-8")
    git(vault.root, "add", "-A")
    git(vault.root, "commit", "-qm", "first")
    path = vault.root / "people/matt-ober.md"
    revised = run_cli(vault.root, "revise", "Matt Ober", "--set", "Last_Contact=2026-02-01", "--set", "COMPANY=Acme")
    assert revised.exit_code == 0, revised.output
    text = path.read_text(encoding="utf-8")
    assert "last_contact: 2026-02-01\n" in text and "company: Acme  # since 2019\n" in text
    assert "Last_Contact" not in text and "COMPANY" not in text
    assert text.count("\n") == MATT.count("\n")  # no line added: each value went into the key there
    said = git(vault.root, "log", "-1", "--format=%B")
    assert "(asked as Last_Contact: the note's own last_contact kept" in said and "(asked as COMPANY:" in said


def test_set_on_a_logseq_page_in_another_case_writes_its_line_as_spelled(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": "{:meta/version 1}\n",
                                   "pages/Dana.md": "Date:: 2026-01-01\nCompany:: Initech\n\n- met at the meetup\n"})
    with Vault(root) as vault:
        vault.index()
        assert vault.revise("pages/Dana.md", set_properties={"DATE": "2026-03-03"}, now=NOW).changed == ["date"]
    assert (root / "pages/Dana.md").read_text(encoding="utf-8") == (
        "Date:: 2026-03-03\nCompany:: Initech\n\n- met at the meetup\n")


@pytest.mark.parametrize(("path", "text"), [
    ("Mess.md", "---\ndate: 2026-01-01\nDate: 2026-01-02\n---\nTwo dates.\n"),
    ("pages/Mess.md", "date:: 2026-01-01\nDate:: 2026-01-02\n\n- two dates\n"),
])
def test_two_keys_differing_only_in_case_are_named_and_neither_is_picked(vault_dir: Path, path: str, text: str) -> None:
    """A person's mess: `date:` and `Date:` in one note. A set or an unset by another spelling (and
    on a Logseq page, whose lines Logseq reads in any case, by either) names both and writes nothing."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": "{:meta/version 1}\n",
                                   path: text})
    with Vault(root) as vault:
        vault.index()
        before = snapshot_files(root)
        asks: list[dict[str, object]] = [{"set_properties": {"date": "2026-03-03"}}, {"set_properties": {"DATE": "2026-03-03"}},
                                         {"unset_properties": ["DATE"]}]
        if path.startswith("pages/"):
            asks.append({"unset_properties": ["date"]})  # Logseq's page would lose both lines
        for ask in asks:
            with pytest.raises(UsageError, match=rf"{path} holds 2 properties whose names differ only in case \(date, Date\)"):
                vault.revise(path, now=NOW, **ask)  # type: ignore[arg-type]
        assert snapshot_files(root) == before
        if not path.startswith("pages/"):  # in YAML the exact spelling removes that key alone: the way out
            assert vault.revise(path, unset_properties=["Date"], now=NOW).changed == ["Date"]
            assert (root / path).read_text(encoding="utf-8") == "---\ndate: 2026-01-01\n---\nTwo dates.\n"


@pytest.mark.parametrize("ask", [
    {"set_properties": {"company": "Acme"}, "unset_properties": ["COMPANY"]},  # one property both set and removed
    {"set_properties": {"Company": "Acme", "COMPANY": "Initech"}},  # one property set twice
    {"set_properties": {"Stage": "seed", "stage": "series A"}},  # a new one, twice: two keys Obsidian reads as one
])
def test_one_property_asked_twice_in_two_cases_is_refused_and_nothing_written(vault: Vault, ask: dict[str, object]) -> None:
    """Was: `--set company=Acme --unset COMPANY` wrote Acme and said company was removed too;
    `--set Company=Acme --set COMPANY=Initech` kept one value unsaid; `--set Stage=… --set stage=…`
    wrote `Stage:` and `stage:`, the two keys differing only in case that revise refuses to pick from."""
    before = snapshot_files(vault.root)
    with pytest.raises(UsageError, match="name one property"):
        vault.revise("Matt Ober", now=NOW, **ask)  # type: ignore[arg-type]
    assert snapshot_files(vault.root) == before


@pytest.mark.parametrize(("ask", "refusal"), [
    ({"set_properties": {"ID": "hacked"}}, "vaultmem keeps id"),
    ({"set_properties": {"Superseded_By": "x"}}, "vaultmem keeps superseded_by"),
    ({"unset_properties": ["Supersedes"]}, "vaultmem keeps supersedes"),
    ({"set_properties": {"Tags": "a"}}, "change tags with"),
    ({"unset_properties": ["Layer"]}, "follows its layer's policy"),
])
def test_vaultmems_own_keys_are_refused_in_any_case_and_the_file_is_left(vault_dir: Path, ask: dict[str, object],
                                                                         refusal: str) -> None:
    """Was: `--set ID=hacked` passed the refusal of `id` (compared as written) and, property names
    being one in any case, was written into the note's `id:` — its identity; `--unset Supersedes`
    removed its history, `--set Tags=a` wrote past --tag, `--unset Layer` removed its layer."""
    text = "---\nid: 01ABCDEF\nlayer: L3\ntags: [x]\nsupersedes: [01OLD]\n---\nbody\n"
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "kept.md": text})
    with Vault(root) as vault:
        vault.index()
        with pytest.raises(UsageError, match=refusal):
            vault.revise("kept.md", now=NOW, **ask)  # type: ignore[arg-type]
    assert (root / "kept.md").read_text(encoding="utf-8") == text


def test_set_of_a_lifecycle_key_in_another_case_is_its_option_with_the_layers_ttl(vault_dir: Path) -> None:
    # Was: `--set Layer=L1` wrote `layer: L1` as a bare value, no L1 expiry given (adr: `--set
    # layer=…` is `--layer`, the layer's TTL with it).
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "kept.md": "---\nlayer: L3\n---\nbody\n"})
    with Vault(root) as vault:
        vault.index()
        assert vault.revise("kept.md", set_properties={"Layer": "L1"}, now=NOW).expires_at == "2026-02-03T12:00:00+00:00"
