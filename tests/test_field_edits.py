"""Every writer of a note's fields writes a Logseq page's fields as its property lines
(vaultmem/field_edits.py, adr/0028): ``remember --supersedes``, ``check --fix``,
``consolidate --apply``. Was: each wrote a YAML block above the page's ``key::`` lines, a
second property block Logseq shows as the text of the page's first block. Real files, the
real CLI; each page read back from the files (``index --rebuild``) by get, list, search, expire.
"""

from __future__ import annotations

from pathlib import Path

from helpers import run_cli, run_json, write_vault

from vaultmem.logseq import edit_fields, field_meta, holding_items

CONFIG_EDN = "{:meta/version 1}\n"
POSTGRES = "The staging Postgres database listens on port 5433 behind the bastion host in the Frankfurt region"


def graph(root: Path, pages: dict[str, str] | None = None) -> Path:
    return write_vault(root, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN, **(pages or {})})


def head_and_text(page: str) -> tuple[list[str], str]:
    """A page's property lines and what follows them."""
    head, _, text = page.partition("\n\n")
    return head.split("\n"), text


def test_a_page_superseded_in_a_graph_is_retired_on_its_property_lines(vault_dir: Path) -> None:
    root = graph(vault_dir)
    old = run_json(root, "remember", POSTGRES, "--layer", "L3")
    before = (root / old["path"]).read_text(encoding="utf-8")
    new = run_json(root, "remember", "Staging Postgres moved to port 6432", "--supersedes", old["id"])
    after = (root / old["path"]).read_text(encoding="utf-8")
    assert "---" not in after
    lines, text = head_and_text(after)
    old_lines, old_text = head_and_text(before)
    assert text == old_text
    assert lines[-1] == f"superseded-by:: {new['id']}"  # a new key after the last property line
    expiry = next(line for line in lines if line.startswith("expires-at:: "))
    assert lines == [expiry if line.startswith("expires-at:: ") else line for line in old_lines] + [lines[-1]]
    assert field_meta(after)["superseded_by"] == new["id"]
    assert run_cli(root, "index", "--rebuild").exit_code == 0  # read back from the files
    shown = run_json(root, "get", old["id"])
    assert (shown["expired"], shown["superseded_by"]["id"]) == (True, new["id"])
    assert [hit["path"] for hit in run_json(root, "search", "staging postgres port")] == [new["path"]]
    assert old["path"] not in [note["path"] for note in run_json(root, "list")["notes"]]
    assert [note["path"] for note in run_json(root, "expire", "--apply")["expired"]] == [old["path"]]


def test_a_persons_page_with_property_lines_is_superseded_on_them(vault_dir: Path) -> None:
    page = "title:: Kafka retention\nlayer:: L3\ntags:: kafka, [[event log]]\n\n- retention is 7 days on the events topic\n"
    root = graph(vault_dir, {"pages/Kafka retention.md": page})
    run_cli(root, "index")
    new = run_json(root, "remember", "Kafka retention is now 14 days on the events topic", "--supersedes", "Kafka retention")
    after = (root / "pages/Kafka retention.md").read_text(encoding="utf-8")
    expiry = after.split("expires-at:: ")[1].split("\n")[0]
    assert after == page.replace("[[event log]]\n", f"[[event log]]\nsuperseded-by:: {new['id']}\nexpires-at:: {expiry}\n")
    assert run_json(root, "get", new["id"])["meta"]["supersedes"] == ["pages/Kafka retention"]


def test_a_page_with_yaml_frontmatter_is_superseded_in_its_yaml(vault_dir: Path) -> None:
    page = "---\nlayer: L3\n---\ntitle:: Kafka retention\n\n- retention is 7 days on the events topic\n"
    root = graph(vault_dir, {"pages/Kafka.md": page})
    run_cli(root, "index")
    new = run_json(root, "remember", "Kafka retention is now 14 days", "--supersedes", "Kafka retention")
    after = (root / "pages/Kafka.md").read_text(encoding="utf-8")
    assert after.startswith(f"---\nlayer: L3\nsuperseded_by: {new['id']}\nexpires_at: ")
    assert after.endswith("---\ntitle:: Kafka retention\n\n- retention is 7 days on the events topic\n")


def test_check_fix_stamps_and_removes_a_pages_expiry_on_its_expires_at_line(vault_dir: Path) -> None:
    kafka = "title:: Kafka retention\nlayer:: L2\ncreated:: 2026-11-01T00:00:00+00:00\ntags:: kafka\n\n- retention is 7 days\n"
    deploys = "layer:: L4\nexpires-at:: 2027-01-01T00:00:00+00:00\ncollapsed:: true\n\n- deploys on Tuesdays\n"
    root = graph(vault_dir, {"pages/kafka.md": kafka, "pages/deploys.md": deploys})
    result = run_cli(root, "check", "--fix")
    assert result.exit_code == 0, result.output
    assert (root / "pages/kafka.md").read_text(encoding="utf-8") == kafka.replace(
        "tags:: kafka\n", "tags:: kafka\nexpires-at:: 2026-11-08T00:00:00+00:00\n")  # created + the L2 TTL
    assert (root / "pages/deploys.md").read_text(encoding="utf-8") == deploys.replace(
        "expires-at:: 2027-01-01T00:00:00+00:00\n", "")
    assert run_cli(root, "index", "--rebuild").exit_code == 0
    assert run_json(root, "get", "pages/kafka")["expires_at"] == "2026-11-08T00:00:00+00:00"
    assert run_json(root, "get", "pages/deploys")["expires_at"] is None
    assert [note["path"] for note in run_json(root, "expire", "--as-of", "2026-11-09")["expired"]] == ["pages/kafka.md"]
    assert run_cli(root, "check").exit_code == 0


def test_consolidate_apply_writes_merged_from_on_the_kept_pages_property_lines(vault_dir: Path) -> None:
    """Also: two memories remembered into a graph were never merged (their ``created::`` lines
    held numbers the other did not: "a changed phone, time or address"), and a merged page's
    property lines would have been appended to the kept page as its text."""
    root = graph(vault_dir)
    second = run_json(root, "remember", POSTGRES, "--layer", "L3")  # the longer: kept
    first = run_json(root, "remember", POSTGRES.removesuffix(" in the Frankfurt region"), "--layer", "L3", "--tag", "db")
    kept_before = (root / second["path"]).read_text(encoding="utf-8")
    report = run_json(root, "consolidate", "--apply")
    assert [(item["canonical"], [merged["path"] for merged in item["merged"]]) for item in report["merged"]] == [
        (second["path"], [first["path"]])]
    kept = (root / second["path"]).read_text(encoding="utf-8")
    assert "---" not in kept and first["id"] not in kept.split("\n\n", 1)[1]
    lines, text = head_and_text(kept)
    assert lines == head_and_text(kept_before)[0] + ["tags:: db", f"merged-from:: {first['id']}"]
    assert text.startswith(head_and_text(kept_before)[1])  # the kept text, then what only the merged page said
    assert run_cli(root, "index", "--rebuild").exit_code == 0
    shown = run_json(root, "get", first["id"])  # the merged page's id resolves to the page that holds it now
    assert (shown["path"], shown["resolved_from"]["via"]) == (second["path"], "merged_from")
    assert [note["path"] for note in run_json(root, "list", "--tag", "db")["notes"]] == [second["path"]]


def test_edit_fields_finds_each_field_on_the_line_it_is_read_from() -> None:
    page = "title:: T\naliases:: A\nexpires_at:: 2020-01-01T00:00:00Z\nid:: 621b05d0-c3c1-405b-9ad8-bb072008bb98\n\n- x\n"
    edited = edit_fields(page, {"aliases": ["A", "B"], "merged_from": ["01X", "01Y"], "tags": []}, ["expires_at", "id"])
    # `aliases::` as written, `merged-from::` new, the vaultmem id is no `id::` (Logseq's block uuid stays).
    assert edited == "title:: T\naliases:: A, B\nid:: 621b05d0-c3c1-405b-9ad8-bb072008bb98\nmerged-from:: 01X, 01Y\n\n- x\n"
    assert field_meta(edited)["merged_from"] == ["01X", "01Y"]


def test_holding_items_keeps_a_lines_form() -> None:
    assert holding_items("#rust #async", ["rust", "async", "tokio io"]) == "#rust #async #[[tokio io]]"
    assert holding_items("[[a b]], #c, d", ["d", "A B"]) == "[[a b]], d"
    assert holding_items("a, b", []) == ""
