"""A list item YAML reads as a comment (``tags:`` then ``  - #scout``) is a problem naming its
line and the fix (notes.comment_item_problems; a trial of a student's vault, s42)."""

from __future__ import annotations

from pathlib import Path

from vaultmem import Vault


def _write(root: Path, name: str, text: str) -> None:
    (root / name).write_text(text, encoding="utf-8")


def test_a_tag_typed_with_its_hash_as_a_list_item_is_said_to_be_a_comment(tmp_path: Path) -> None:
    """Was: the scout group's page, `tags:` then `  - #scout`, had no tags, `--tag scout` found
    nothing, and `check` said "0 problem(s)"."""
    _write(tmp_path, "GS Matterhorn.md", "---\nid: GS Matterhorn\naliases: []\ntags:\n  - #scout\n---\n# GS Matterhorn\n")
    _write(tmp_path, "Camp.md", "---\ntags:\n  - camp\n  - #summer\naliases:\n  - '#quoted'\n---\nPermits for the camp.\n")
    with Vault(tmp_path) as vault:
        vault.index()
        report = vault.check()
    found = sorted((problem.path, problem.field, problem.message, problem.fix) for problem in report.problems)
    assert found == [
        ("Camp.md", "tags", "'- #summer' (line 4) is a YAML comment, so that item of tags is empty", "write - summer"),
        ("GS Matterhorn.md", "tags", "'- #scout' (line 5) is a YAML comment, so that item of tags is empty", "write - scout"),
    ]


def test_an_empty_item_a_template_left_or_a_comment_beside_a_value_is_no_problem(tmp_path: Path) -> None:
    """`tags:` then `  - ` (a template's item to fill in) is empty on purpose; `  - work # for now`
    holds its value; a `# note` line between the items is a comment the person meant."""
    _write(tmp_path, "Template made.md", "---\ntags:\n  - \n---\nA note from a template.\n")
    _write(tmp_path, "Commented.md", "---\ntags:\n  # the first is for work\n  - work # for now\n---\nWork.\n")
    with Vault(tmp_path) as vault:
        vault.index()
        assert vault.check().problems == []
