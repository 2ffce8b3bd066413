"""``vaultmem check [--fix]``: every real problem listed, and only safe, explicit fixes."""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from helpers import NOW, REAL_VAULTS, run_cli, run_json, snapshot_files, utf16_bytes
from vaultmem import Vault, parse_timestamp
from vaultmem.notes import read_note

UTC = timezone.utc

SAMPLE_PROBLEMS = {
    ("conversations/2026-11-20-harbor-retro.md", "frontmatter"),
    ("scratch/call-landlord.md", "expires_at"),
    ("procedures/weekly-review.md", "expires_at"),
    ("conversations/2026-11-27-call-with-mum.md", "expires_at"),
}
MUM = "conversations/2026-11-27-call-with-mum.md"
WEEKLY = "procedures/weekly-review.md"


def test_check_on_the_sample_vault_exits_1_with_exactly_its_four_problems(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "check", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["files"] == 40
    assert report["ok"] is False
    assert {(problem["path"], problem["field"]) for problem in report["problems"]} == SAMPLE_PROBLEMS
    assert len(report["problems"]) == 4
    assert report["fixed"] == []


def test_each_problem_names_what_is_wrong_and_the_fix(sample_vault: Path) -> None:
    problems = {problem["path"]: problem for problem in run_json(sample_vault, "check")["problems"]}
    assert "next tuesday" in problems["scratch/call-landlord.md"]["message"]
    assert "YAML does not load" in problems["conversations/2026-11-20-harbor-retro.md"]["message"]
    assert "L4" in problems[WEEKLY]["message"] and "remove expires_at" in problems[WEEKLY]["fix"]
    assert "never expires" in problems[MUM]["message"] and "check --fix" in problems[MUM]["fix"]
    assert all(problem["fix"] for problem in problems.values())


def test_check_text_output_lists_paths_and_fixes(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "check")
    assert result.exit_code == 1
    for path, _ in SAMPLE_PROBLEMS:
        assert path in result.stdout
    assert result.stdout.count("fix:") == 4
    assert "40 notes checked, 4 problem(s)" in result.stdout


def test_check_reads_only_and_never_writes_without_fix(sample_vault: Path) -> None:
    before = snapshot_files(sample_vault)
    run_cli(sample_vault, "check")
    assert snapshot_files(sample_vault) == before


def test_check_fix_stamps_created_plus_ttl_and_removes_expiry_from_l4_and_nothing_else(sample_vault: Path) -> None:
    before = snapshot_files(sample_vault)
    result = run_cli(sample_vault, "check", "--fix", "--json")
    after = snapshot_files(sample_vault)

    changed = sorted(path for path in after if after[path] != before.get(path))
    assert changed == [MUM, WEEKLY]
    assert set(after) == set(before)

    # L2 note: created 2026-11-27T20:30:00Z + 7 days, appended after the existing keys.
    old_mum = before[MUM][0]
    assert after[MUM][0] == old_mum.replace(
        b"created: 2026-11-27T20:30:00Z\n---\n", b"created: 2026-11-27T20:30:00Z\nexpires_at: 2026-12-04T20:30:00+00:00\n---\n"
    )
    assert list(read_note(sample_vault, MUM).meta)[-1] == "expires_at"
    # L4 note: the expires_at line is gone, every other byte is kept.
    assert after[WEEKLY][0] == before[WEEKLY][0].replace(b"expires_at: 2027-12-31T08:00:00Z\n", b"")

    report = json.loads(result.stdout)
    assert sorted(fix["path"] for fix in report["fixed"]) == [MUM, WEEKLY]
    # The two problems that need a human remain, so check still exits 1.
    assert result.exit_code == 1
    assert {(problem["path"], problem["field"]) for problem in report["problems"]} == SAMPLE_PROBLEMS - {
        (MUM, "expires_at"), (WEEKLY, "expires_at")
    }


def test_check_fix_is_idempotent(sample_vault: Path) -> None:
    run_cli(sample_vault, "check", "--fix")
    once = snapshot_files(sample_vault)
    second = run_json(sample_vault, "check", "--fix")
    assert second["fixed"] == []
    assert snapshot_files(sample_vault) == once


def test_check_fix_uses_the_file_modification_time_when_created_is_missing(vault_dir: Path, write_note) -> None:
    note = write_note("scratch/todo.md", "---\ntitle: Buy milk\nlayer: L1\n---\nOat milk.\n")
    modified = datetime(2026, 11, 29, 8, 15, tzinfo=UTC)
    os.utime(note, (modified.timestamp(), modified.timestamp()))
    report = Vault(vault_dir).check(fix=True, now=NOW)
    assert [fix.path for fix in report.fixed] == ["scratch/todo.md"]
    assert "file modification time" in report.fixed[0].action
    meta = read_note(vault_dir, "scratch/todo.md").meta
    assert list(meta) == ["title", "layer", "expires_at"]
    assert parse_timestamp(meta["expires_at"]) == modified + timedelta(days=1)
    assert report.ok


def test_check_fix_stamps_from_a_yaml_date_created(vault_dir: Path, write_note) -> None:
    write_note("projects/fact.md", "---\nlayer: semantic\ncreated: 2026-10-01\n---\nA fact.\n")
    Vault(vault_dir).check(fix=True, now=NOW)
    expires = read_note(vault_dir, "projects/fact.md").meta["expires_at"]
    assert parse_timestamp(expires) == datetime(2026, 10, 1, tzinfo=UTC) + timedelta(days=90)


def test_check_fix_uses_the_vault_ttl_from_the_config(vault_dir: Path, write_note) -> None:
    (vault_dir / ".vaultmem.toml").write_text('[ttl]\nL2 = "2d"\n', encoding="utf-8")
    write_note("c.md", "---\nlayer: L2\ncreated: 2026-11-27T20:30:00Z\n---\nA call.\n")
    Vault(vault_dir).check(fix=True, now=NOW)
    assert parse_timestamp(read_note(vault_dir, "c.md").meta["expires_at"]) == datetime(2026, 11, 29, 20, 30, tzinfo=UTC)


@pytest.mark.parametrize("empty", ["expires_at:", "expires_at: null", "expires_at: ''"])
def test_check_fix_fills_an_empty_expires_at_in_place(vault_dir: Path, write_note, empty: str) -> None:
    note = write_note("c.md", f"---\nlayer: L1\n{empty}\ncreated: 2026-11-29T10:00:00Z\ntags: [x]\n---\nbody\n")
    Vault(vault_dir).check(fix=True, now=NOW)
    assert note.read_text(encoding="utf-8") == (
        "---\nlayer: L1\nexpires_at: 2026-11-30T10:00:00+00:00\ncreated: 2026-11-29T10:00:00Z\ntags: [x]\n---\nbody\n"
    )


def test_check_fix_removes_expiry_from_a_permanent_note(vault_dir: Path, write_note) -> None:
    original = "---\ntitle: Allergy\nlayer: L3\npermanent: true\nexpires_at: 2027-01-01\ntags: [vet]\n---\nNo penicillin.\n"
    note = write_note("people/allergy.md", original)
    report = Vault(vault_dir).check(fix=True, now=NOW)
    assert report.ok
    assert note.read_text(encoding="utf-8") == original.replace("expires_at: 2027-01-01\n", "")


def test_check_fix_keeps_bom_and_crlf(vault_dir: Path) -> None:
    note = vault_dir / "win.md"
    note.write_bytes(b"\xef\xbb\xbf---\r\nlayer: L1\r\ncreated: 2026-11-29T10:00:00Z\r\n---\r\nBody\r\n")
    Vault(vault_dir).check(fix=True, now=NOW)
    assert note.read_bytes() == (
        b"\xef\xbb\xbf---\r\nlayer: L1\r\ncreated: 2026-11-29T10:00:00Z\r\nexpires_at: 2026-11-30T10:00:00+00:00\r\n---\r\nBody\r\n"
    )


def test_check_says_a_utf16_note_is_not_utf8_and_check_fix_writes_nothing_to_it(vault_dir: Path) -> None:
    # An L1 note without expires_at: read as UTF-8 it had no layer, so nothing was said of that at all.
    note = vault_dir / "win.md"
    note.write_bytes(utf16_bytes("---\r\nlayer: L1\r\ncreated: 2026-11-29T10:00:00Z\r\n---\r\nBody\r\n"))
    before = snapshot_files(vault_dir)
    report = Vault(vault_dir).check(fix=True, now=NOW)
    problems = {problem.field: problem for problem in report.problems}
    assert problems["encoding"].message.startswith("saved as UTF-16 LE, not UTF-8")
    assert problems["encoding"].fix.startswith("re-save the file as UTF-8")
    # The problem names its note once ("win.md: fix: win.md: file is saved ..." said it twice).
    assert problems["fix"].message == ("file is saved as UTF-16 LE, not UTF-8, and vaultmem writes only UTF-8; "
                                       "re-save it as UTF-8 first")
    assert report.fixed == [] and snapshot_files(vault_dir) == before


def test_check_fix_leaves_notes_it_cannot_fix_safely_untouched(vault_dir: Path, write_note) -> None:
    broken = write_note("broken.md", "---\ntitle: a: b\nlayer: L1\n---\nbody\n")
    garbage = write_note("garbage.md", "---\nlayer: L1\nexpires_at: next tuesday\n---\nbody\n")
    before = snapshot_files(vault_dir)
    report = Vault(vault_dir).check(fix=True, now=NOW)
    assert report.fixed == []
    assert snapshot_files(vault_dir) == before
    assert {(problem.path, problem.field) for problem in report.problems} == {("broken.md", "frontmatter"), ("garbage.md", "expires_at")}
    assert broken.exists() and garbage.exists()


def test_check_exits_0_on_a_clean_vault(vault_dir: Path, write_note) -> None:
    write_note("a.md", "---\nlayer: L4\n---\nA procedure.\n")
    write_note("b.md", "No frontmatter at all.\n")
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert (report["files"], report["ok"], report["problems"], report["fixed"]) == (2, True, [], [])


def test_check_never_reads_obsidian_git_trash_or_hidden_folders(vault_dir: Path, write_note) -> None:
    for folder in (".obsidian", ".git", ".trash", ".hidden", "notes/.private"):
        write_note(f"{folder}/broken.md", "---\ntitle: a: b\n---\n")
    write_note("ok.md", "fine\n")
    report = Vault(vault_dir).check(now=NOW)
    assert report.files == 1
    assert report.problems == []


def test_check_reports_an_unreadable_note_without_stopping(vault_dir: Path, write_note) -> None:
    write_note("good.md", "---\nlayer: L1\n---\nbody\n")
    (vault_dir / "dangling.md").symlink_to(vault_dir / "deleted-target.md")  # unreadable even for root
    report = Vault(vault_dir).check(now=NOW)
    found = {(problem.path, problem.field) for problem in report.problems}
    assert found == {("good.md", "expires_at"), ("dangling.md", "file")}
    assert not report.ok


def test_check_reports_duplicate_ids_on_both_notes(vault_dir: Path, write_note) -> None:
    write_note("a.md", "---\nid: same\n---\nx\n")
    write_note("b.md", "---\nid: same\n---\ny\n")
    report = Vault(vault_dir).check(now=NOW)
    assert sorted((problem.path, problem.field) for problem in report.problems) == [("a.md", "id"), ("b.md", "id")]


def test_check_refuses_to_overwrite_a_note_edited_after_it_was_read(vault_dir: Path, write_note) -> None:
    from vaultmem.check import fix_note
    from vaultmem.config import load_config
    from vaultmem.errors import WriteConflict
    from vaultmem.paths import VaultPaths

    note_path = write_note("n.md", "---\nlayer: L2\ncreated: 2026-11-29T00:00:00Z\n---\nbody\n")
    note = read_note(vault_dir, "n.md")
    note_path.write_text("---\nlayer: L2\ncreated: 2026-11-29T00:00:00Z\n---\nthe human's newer body\n", encoding="utf-8")
    with pytest.raises(WriteConflict):
        fix_note(VaultPaths(vault_dir, "_archive"), note, load_config(vault_dir).policy, now=NOW)
    assert "the human's newer body" in note_path.read_text(encoding="utf-8")


def test_one_created_no_date_can_hold_does_not_stop_check_fix_for_the_rest(vault_dir: Path, write_note) -> None:
    bad = write_note("far.md", "---\nlayer: L3\ncreated: 9999-12-30\n---\nfrom the far future\n")
    write_note("ok.md", "---\nlayer: L3\ncreated: 2026-11-01T00:00:00Z\n---\nan ordinary note\n")
    before = bad.read_bytes()
    result = run_cli(vault_dir, "check", "--fix", "--json")
    assert result.exit_code == 1, result.output  # was: OverflowError traceback, nothing fixed
    report = json.loads(result.stdout)
    assert [fix["path"] for fix in report["fixed"]] == ["ok.md"]
    problem = [problem for problem in report["problems"] if problem["path"] == "far.md" and problem["field"] == "fix"]
    assert problem and "created" in problem[0]["message"] and "9999" in problem[0]["message"]
    assert bad.read_bytes() == before


def test_a_plain_check_reports_the_fixes_check_fix_would_refuse_with_the_same_reason(vault_dir: Path, write_note) -> None:
    """check suggests `check --fix`; where --fix will not do it (a date past year 9999, a
    frontmatter that does not load), the plain check says so already, in the same words."""
    write_note("far.md", "---\nlayer: L3\ncreated: 9999-12-30\n---\nfrom the far future\n")
    write_note("salvaged.md", "---\ntitle: Boiler: Tuesday\npermanent: true\nexpires_at: 2027-01-01\n---\nbody\n")
    write_note("ok.md", "---\nlayer: L3\ncreated: 2026-11-01T00:00:00Z\n---\nan ordinary note\n")
    before = snapshot_files(vault_dir)

    def refused(report: dict) -> dict[str, str]:
        return {problem["path"]: problem["message"] for problem in report["problems"] if problem["field"] == "fix"}

    planned = run_json(vault_dir, "check")
    assert snapshot_files(vault_dir) == before
    assert set(refused(planned)) == {"far.md", "salvaged.md"}
    assert "past year 9999" in refused(planned)["far.md"]
    assert "frontmatter does not load, so check --fix leaves it alone" in refused(planned)["salvaged.md"]
    text = run_cli(vault_dir, "check").stdout
    assert "! salvaged.md: fix: its frontmatter does not load" in text  # the note named once
    fixed = run_json(vault_dir, "check", "--fix")
    assert refused(fixed) == refused(planned)
    assert [fix["path"] for fix in fixed["fixed"]] == ["ok.md"]


def test_a_plain_check_says_check_fix_refuses_a_read_only_note_as_check_fix_does(vault_dir: Path, write_note) -> None:
    # Was: the plain check advised `check --fix` for it; --fix then refused it (ReadOnlyNote).
    protected = write_note("protected.md", "---\nlayer: L3\ncreated: 2026-11-01T00:00:00Z\n---\nan ordinary note\n")
    write_note("ok.md", "---\nlayer: L3\ncreated: 2026-11-01T00:00:00Z\n---\nanother note\n")
    protected.chmod(0o444)
    before = protected.read_bytes()

    def refused(report: dict) -> dict[str, str]:
        return {problem["path"]: problem["message"] for problem in report["problems"] if problem["field"] == "fix"}

    planned = run_json(vault_dir, "check")
    assert "is read-only (mode 0444)" in refused(planned)["protected.md"]
    fixed = run_json(vault_dir, "check", "--fix")
    assert refused(fixed) == refused(planned)
    assert [fix["path"] for fix in fixed["fixed"]] == ["ok.md"]
    assert protected.read_bytes() == before


# ---------------------------------------------------------------- the real vault


@pytest.fixture
def kepano_vault(tmp_path: Path) -> Path:
    target = tmp_path / "kepano-obsidian"
    shutil.copytree(REAL_VAULTS / "kepano-obsidian", target)
    return target


def _template_notes(vault: Path) -> set[str]:
    """Notes whose frontmatter holds a {{date}} placeholder, found by reading the files."""
    found = set()
    for path in vault.rglob("*.md"):
        relative = path.relative_to(vault)
        if any(part.startswith(".") for part in relative.parts):
            continue
        text = path.read_text(encoding="utf-8")
        if text.startswith("---\n") and "{{date}}" in text.split("\n---", 1)[0]:
            found.add(relative.as_posix())
    return found


def test_the_real_kepano_vault_checks_clean_because_its_templates_are_not_notes(kepano_vault: Path) -> None:
    # Regression (issue 11 §4): its 28 `created: {{date}}` templates were reported on every run.
    templates = _template_notes(kepano_vault)
    assert len(templates) == 28 and all(path.startswith("Templates/") for path in templates)
    before = snapshot_files(kepano_vault)
    result = run_cli(kepano_vault, "check", "--json")
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["files"] == 51  # 103 Markdown files, 52 of them in Templates/ (.obsidian/templates.json)
    assert report["problems"] == []
    assert snapshot_files(kepano_vault) == before


def test_check_says_what_it_left_out_as_index_does(kepano_vault: Path) -> None:
    # A trial: `51 notes checked` in a vault of 103 Markdown files, the templates left out without a word.
    printed = run_cli(kepano_vault, "check")
    assert printed.exit_code == 0, printed.stdout
    assert printed.stdout.splitlines()[-2:] == [
        "51 notes checked, 0 problem(s)",
        "not notes (excluded): 52 file(s): Templates/ (the Templates plugin's folder 'Templates')"]
    report = json.loads(run_cli(kepano_vault, "check", "--json").stdout)
    index = json.loads(run_cli(kepano_vault, "index", "--json").stdout)
    assert report["excluded"] == index["excluded"] and report["excluded"]["files"] == 52  # one shape in both
    assert report["skipped"] == index["skipped"]


def test_a_note_made_from_a_template_outside_the_templates_folder_is_still_checked(kepano_vault: Path) -> None:
    template = (kepano_vault / "Templates" / "Journal Template.md").read_text(encoding="utf-8")
    assert "{{date}}" in template
    (kepano_vault / "Daily" / "2026-11-30.md").write_text(template, encoding="utf-8")
    result = run_cli(kepano_vault, "check", "--json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert [(problem["path"], problem["field"]) for problem in problems] == [("Daily/2026-11-30.md", "frontmatter")]
    assert "{{date}}" in problems[0]["message"]
    # The fix says how to mark a template, not only to quote what it means to be filled in (a trial).
    # The pattern names the note, not its folder: "Daily/" would take every journal entry out.
    assert 'add it to exclude in .vaultmem.toml ("/Daily/2026-11-30.md")' in problems[0]["fix"], problems[0]["fix"]
    # And where Obsidian names its templates folder: a vault with no such setting has none to move it to (a trial).
    assert "Settings → Templates → Template folder location" in problems[0]["fix"]
    index = run_cli(kepano_vault, "index")
    assert "Daily/2026-11-30.md: frontmatter: YAML does not load" in index.stdout  # indexed around, as before
    assert "Templates/" not in index.stdout.replace("not notes (excluded): 52 file(s): Templates/", "")



def test_a_template_whose_placeholder_breaks_a_list_is_named_a_template_too(vault_dir: Path, write_note) -> None:
    # A trial (aryklein/my-knowledge-vault, no .obsidian/ in git): of its two templates under
    # templates/, `created: {{date}}` was named a template's placeholder with the exclude fix, and
    # `aliases: [{{title}} Troubleshooting]` (YAML fails earlier, as a flow sequence) was told
    # only to "fix the YAML".
    write_note("templates/troubleshooting_template.md",
               "---\naliases: [{{title}} Troubleshooting]\ntags: [troubleshooting, {{technology}}]\n---\n# {{title}}\n")
    write_note("notes/quoted.md", "---\ntitle: 'Weekly {{date}} review'\nsummary: a: b\n---\nText.\n")
    problems = {problem["path"]: problem for problem in json.loads(run_cli(vault_dir, "check", "--json").stdout)["problems"]}
    template = problems["templates/troubleshooting_template.md"]
    assert "(a template placeholder such as {{date}}?)" in template["message"], template["message"]
    assert 'add it to exclude in .vaultmem.toml ("/templates/troubleshooting_template.md"' in template["fix"]
    # A quoted placeholder is a value, not the YAML's fault: the other error keeps its advice.
    assert "template placeholder" not in problems["notes/quoted.md"]["message"]

TEMPLATE = "---\ndate: {{date}}\ntags: [daily, {{yyyy-mm}}]\n---\n# {{date}}\n"


@pytest.mark.parametrize("template_name", ["_template.md", "Daily [template] *copy*.md"])
def test_following_a_template_notes_exclude_fix_leaves_out_only_the_template(vault_dir: Path, write_note,
                                                                             template_name: str) -> None:
    # A trial: a real vault keeps its daily-note template beside the daily notes
    # (insights/daily-notes/_template.md); the fix said to exclude the folder, which, followed
    # as given, took every daily note out of the index.
    write_note(f"Daily/{template_name}", TEMPLATE)
    write_note("Daily/2026-05-20.md", "---\ndate: 2026-05-20\n---\nFixed the ntfy relay today.\n")
    # A "*" in a name is a name Windows cannot hold too (test_windows_names): not this test's point.
    problems = [problem for problem in run_json(vault_dir, "check")["problems"] if problem["field"] != "name"]  # type: ignore[index]
    assert [problem["path"] for problem in problems] == [f"Daily/{template_name}"]
    pattern = problems[0]["fix"].split("add it to exclude in .vaultmem.toml (")[1].split(")")[0]
    (vault_dir / ".vaultmem.toml").write_text(f"exclude = [{pattern}]\n", encoding="utf-8")
    after = run_cli(vault_dir, "check", "--json")
    assert after.exit_code == 0, after.stdout
    assert json.loads(after.stdout)["files"] == 1  # the daily note is still checked; the template is not a note
    hits = run_json(vault_dir, "search", "ntfy relay")
    assert [hit["path"] for hit in hits] == ["Daily/2026-05-20.md"]  # type: ignore[index]


def test_check_fix_on_the_real_vault_touches_no_template_and_nothing_without_a_layer(kepano_vault: Path) -> None:
    before = snapshot_files(kepano_vault)
    report = run_json(kepano_vault, "check", "--fix")
    assert report["fixed"] == []  # its notes have no vaultmem layers: nothing is safe to stamp
    assert snapshot_files(kepano_vault) == before


def test_a_fix_check_fix_refuses_is_never_advised_and_says_only_what_to_correct(vault_dir: Path, write_note) -> None:
    """created + the TTL past year 9999: --fix cannot stamp it, so neither check nor --fix
    points at --fix for it, and the reason asks for another date, not another spelling
    (the date is valid ISO)."""
    write_note("memories/bad6.md", "---\nlayer: L3\ncreated: 9999-12-01\n---\nfrom the far future\n")
    write_note("forever.md", "---\ntitle: Boiler: Tuesday\npermanent: true\nexpires_at: 2027-01-01\n---\nbody\n")
    for command in (["check"], ["check", "--fix"]):
        report = run_json(vault_dir, *command)
        problems = {(problem["path"], problem["field"]): problem for problem in report["problems"]}
        stamp = problems[("memories/bad6.md", "expires_at")]
        assert "check --fix" not in stamp["fix"] and "by hand" in stamp["fix"], (command, stamp)
        refusal = problems[("memories/bad6.md", "fix")]
        assert "9999-12-01T00:00:00+00:00 plus the L3 TTL" in refusal["message"], refusal
        assert "ISO" not in refusal["message"] + refusal["fix"], refusal
        assert refusal["fix"] == "correct created (or set expires_at by hand)"
        # the same for a permanent note whose frontmatter does not load: remove it by hand
        carried = [problem for problem in report["problems"] if problem["path"] == "forever.md" and problem["field"] == "expires_at"]
        assert carried and all("check --fix" not in problem["fix"] for problem in carried), carried
    text = run_cli(vault_dir, "check").stdout
    assert "run `vaultmem check --fix` to stamp" not in text


@pytest.mark.parametrize("placeholder", ["YYYY-MM-DD", "DD/MM/YYYY", "YYYY-MM-DDTHH:mm", "dd.MM.yyyy"])
def test_a_date_property_holding_a_dates_format_is_told_as_a_templates_placeholder(
        vault_dir: Path, write_note, placeholder: str) -> None:
    """Was (s40, a Spanish vault's ``decisions/_template.md``: ``date: YYYY-MM-DD``): check told to
    "write it as 2026-11-30", as if the template were a note, and not how to leave it out."""
    write_note("decisions/_template.md", f"---\ntitle: ADR-NNN — <decisión en una frase>\ndate: {placeholder}\n---\n## Contexto\n")
    write_note("decisions/ADR-002.md", "---\ntitle: ADR-002\ndate: 2026-13-45\n---\n## Contexto\n")
    report = run_json(vault_dir, "check")
    problems = {problem["path"]: problem for problem in report["problems"]}
    template = problems["decisions/_template.md"]
    assert template["field"] == "date"
    assert f"'{placeholder}', a date's format where the date goes (a template's placeholder?)" in template["message"]
    assert template["fix"].startswith('if this note is a template, add it to exclude in .vaultmem.toml ("/decisions/_template.md")')
    assert "which is not a date" in problems["decisions/ADR-002.md"]["message"]  # a mistyped day is still told so


def test_a_date_that_is_no_day_costs_the_note_only_that_field(vault_dir: Path, write_note) -> None:
    # The safe loader raised for the whole block: title, tags and layer were lost with the typo,
    # and check advised quoting values containing ': '.
    write_note("trip.md", "---\ntitle: Rome trip\ntags: [travel]\ndate: 2023-02-30\n---\nWe went to Rome.\n")
    write_note("mem.md", "---\nlayer: L2\nexpires_at: 2026-02-30\ntags: [health]\n---\nA memory.\n")
    trip, memory = read_note(vault_dir, "trip.md"), read_note(vault_dir, "mem.md")
    assert trip.title == "Rome trip" and trip.tags == ["travel"] and trip.meta["date"] == "2023-02-30"
    assert memory.layer == "L2" and memory.tags == ["health"] and memory.expiry_invalid
    report = run_json(vault_dir, "check")
    problems = {(problem["path"], problem["field"]): problem for problem in report["problems"]}
    assert set(problems) == {("trip.md", "date"), ("mem.md", "expires_at")}, problems
    assert "'2023-02-30', which is not a date" in problems[("trip.md", "date")]["message"]
    assert "2026-02-30" in problems[("mem.md", "expires_at")]["message"]
    with Vault(vault_dir) as vault:
        vault.index()
        assert [hit.path for hit in vault.search("Rome", k=1, tags=["travel"], now=NOW)] == ["trip.md"]


def test_a_date_property_that_is_no_date_is_a_problem_in_check_and_in_the_index(vault_dir: Path, write_note) -> None:
    # Was silent: the note was dated by its file name and nothing said the property was passed over.
    write_note("Daily/2026-11-27.md", "---\ndate: last friday\n---\nLunch with Dana.\n")
    write_note("Daily/2026-11-28.md", "---\ndate: 2026-11-28\n---\nA day with a good date.\n")
    checked = [(problem["path"], problem["field"]) for problem in run_json(vault_dir, "check")["problems"]]
    with Vault(vault_dir) as vault:
        report = vault.index()
    indexed = [(problem.path, problem.field) for problem in report.problems]
    assert checked == indexed == [("Daily/2026-11-27.md", "date")]


def test_a_vault_given_its_settings_is_not_told_its_settings_file_changed(vault_dir: Path, write_note) -> None:
    # A review found Vault(config=...) reporting ".vaultmem.toml changed" with no such file at all.
    from vaultmem.config import VaultConfig

    write_note("ok.md", "---\nlayer: L4\n---\nA healthy note.\n")
    with Vault(vault_dir, config=VaultConfig(remember_dir="inbox")) as vault:
        assert vault.check().ok
        (vault_dir / ".vaultmem.toml").write_text('auto_commit = "yes"\n', encoding="utf-8")  # a file it never reads
        assert vault.check().ok


def test_check_index_and_get_name_a_frontmatter_not_on_line_1_and_leave_the_file_alone(vault_dir: Path, write_note) -> None:
    # A blank line above `---`: Obsidian shows the block as text, and its layer and expiry were
    # lost without a word (a user's vault); now each surface that lists problems says so.
    write_note("gate.md", "\n---\nlayer: L3\ntags: [harbor]\nexpires_at: 2026-01-01\n---\nThe gate code is 4711.\n")
    write_note("fine.md", "Nothing above.\n")
    before = snapshot_files(vault_dir)
    result = run_cli(vault_dir, "check")
    assert result.exit_code == 1, result.output
    assert ("! gate.md: frontmatter: the frontmatter on lines 2–6 is not read: Obsidian reads a frontmatter only when "
            "its --- is the file's first line, so its properties (layer, tags, expires_at) are ignored") in result.output
    assert "fix: remove the blank line(s) above the --- on line 2, so that --- is the file's first line" in result.output
    fixed = run_cli(vault_dir, "check", "--fix")
    assert fixed.exit_code == 1 and snapshot_files(vault_dir) == before  # the person moves their lines, not vaultmem
    index = run_cli(vault_dir, "index")
    assert "gate.md: frontmatter: the frontmatter on lines 2–6 is not read" in index.output
    shown = run_cli(vault_dir, "get", "gate")
    assert "layer: -" in shown.output and "! frontmatter: the frontmatter on lines 2–6 is not read" in shown.output


def test_revise_and_supersede_refuse_a_note_whose_frontmatter_is_not_on_line_1_and_leave_it_alone(
        vault_dir: Path, write_note) -> None:
    # Before: `revise --layer L2` wrote a second frontmatter on line 1 above the person's own,
    # which stayed unread below it; supersede said "it has no layer" of a file showing layer: L3.
    text = "\n---\nlayer: L3\ntags: [harbor]\n---\nThe gate code is 4711.\n"
    write_note("gate.md", text)
    run_cli(vault_dir, "index")
    revised = run_cli(vault_dir, "revise", "gate", "--layer", "L2")
    assert revised.exit_code == 1, revised.output
    assert ("the frontmatter on lines 2–5 is not read" in revised.output
            and "fix it first: remove the blank line(s) above the --- on line 2" in revised.output), revised.output
    superseding = run_cli(vault_dir, "remember", "The gate code is 4712.", "--supersedes", "gate")
    assert superseding.exit_code == 1, superseding.output
    assert "cannot supersede gate.md: the frontmatter on lines 2–5 is not read" in superseding.output
    assert "it has no layer" not in superseding.output
    assert (vault_dir / "gate.md").read_text(encoding="utf-8") == text
    assert not (vault_dir / "memories").exists()  # the refused remember wrote nothing


def test_check_index_get_and_search_name_frontmatter_read_otherwise_than_meant(vault_dir: Path, write_note) -> None:
    # A messy real vault: a title set twice, tags typed as in the body, a list where keys
    # belong, keys without a space after the colon. Each was read silently otherwise than
    # meant; now each is a problem naming the file, the line and the fix — read as before.
    write_note("twice.md", "---\ntitle: Crane A\ntags: [harbor]\ntitle: Crane B\n---\nThe crane is booked for Monday.\n")
    write_note("hashed.md", "---\ntags: #harbor #crane\n---\nThe crane inspection passed.\n")
    write_note("listed.md", "---\n- harbor\n- crane\n---\nThe crane operator is Rui.\n")
    write_note("colons.md", "---\ntitle:Crane hire\nlayer:L3\n---\nThe crane hire costs 400 a day.\n")
    write_note("fine.md", "---\ntags: [harbor]\n---\nThe crane is yellow.\n")
    before = snapshot_files(vault_dir)
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1, result.output
    problems = {problem["path"]: problem for problem in json.loads(result.stdout)["problems"]}
    assert set(problems) == {"twice.md", "hashed.md", "listed.md", "colons.md"}
    assert (problems["twice.md"]["field"], problems["twice.md"]["fix"]) == ("title", "remove one of them")
    assert problems["twice.md"]["message"].startswith("title is set twice (lines 2 and 4): Crane B is read, Crane A is ignored")
    assert problems["hashed.md"]["message"] == "tags: '#harbor #crane' (line 2) is a YAML comment, so tags is empty"
    assert problems["hashed.md"]["fix"] == "write tags: [harbor, crane]"
    assert "is a YAML list, not properties" in problems["listed.md"]["message"]
    assert "'title:Crane hire' has no space after its colon" in problems["colons.md"]["message"]
    index = run_cli(vault_dir, "index")
    assert "listed.md: frontmatter: the frontmatter on lines 1–4 is a YAML list" in index.output
    assert "2 more problem(s) in note metadata: run `vaultmem check`" in index.output
    shown = run_json(vault_dir, "get", "twice")
    assert shown["title"] == "Crane B" and any("title is set twice" in problem["message"] for problem in shown["problems"])
    hits = {hit["path"]: hit for hit in run_json(vault_dir, "search", "crane inspection passed")}
    assert hits["hashed.md"]["tags"] == [] and any("is a YAML comment" in warning for warning in hits["hashed.md"]["warnings"])
    assert snapshot_files(vault_dir) == before  # none of it touched the person's files


def test_a_memory_with_a_key_set_twice_or_tags_read_as_a_comment_still_has_its_missing_expiry_reported(
        vault_dir: Path, write_note) -> None:
    # Reader 20 took these loaded blocks for ones that did not load: the L3 memory's missing
    # expires_at (it never expires) went unreported, by check and by every hit's warnings.
    write_note("twice.md", "---\ntitle: Crane A\nlayer: L3\ntitle: Crane B\n---\nThe crane is booked for Monday.\n")
    write_note("hashed.md", "---\nlayer: L3\ntags: #harbor #crane\n---\nThe crane inspection passed.\n")
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1, result.output
    fields = {(problem["path"], problem["field"]) for problem in json.loads(result.stdout)["problems"]}
    assert fields == {("twice.md", "title"), ("twice.md", "expires_at"), ("hashed.md", "tags"), ("hashed.md", "expires_at")}
    fixed = run_json(vault_dir, "check", "--fix")
    assert sorted(entry["path"] for entry in fixed["fixed"]) == ["hashed.md", "twice.md"]
    assert read_note(vault_dir, "twice.md").meta["expires_at"] is not None  # stamped: it expires now


def test_revise_of_a_key_set_twice_is_refused_naming_the_key_its_lines_and_the_fix(vault_dir: Path, write_note) -> None:
    # Before: "vaultmem could not edit this frontmatter without changing other keys" — which key, and why?
    text = "---\ntags: [harbor]\ntitle: Crane\ntags:\n  - crane\n---\nThe crane is booked.\n"
    write_note("twice.md", text)
    revised = run_cli(vault_dir, "revise", "twice", "--tag", "work")
    assert revised.exit_code == 1, revised.output
    assert ("tags is set twice (lines 2 and 4) in this frontmatter, so vaultmem cannot tell which to change; "
            "remove one of them, then try again (the file was not touched)") in revised.output
    assert (vault_dir / "twice.md").read_text(encoding="utf-8") == text
    # A key set once is edited as before, the repeated one kept byte for byte.
    assert run_cli(vault_dir, "revise", "twice", "--title", "Crane hire").exit_code == 0
    assert (vault_dir / "twice.md").read_text(encoding="utf-8") == text.replace("title: Crane\n", "title: Crane hire\n")


# ------------------------------------------------------------------ messages name what the caller can run

NO_DEADLINE = "---\nlayer: L2\n---\nThe harbor meeting moved to Thursday.\n"
UNPARSED = "---\nlayer: L3\nexpires_at: next tuesday\n---\nThe harbor crane is booked for the refit.\n"


def test_a_python_caller_is_told_the_method_and_the_shell_the_command(vault_dir: Path, write_note) -> None:
    """Was: Vault.check(), Vault.search() and Vault.get() told a Python caller to run `vaultmem check --fix`,
    a command of another surface. Each now names what its caller runs: Vault.check(fix=True) in Python,
    `vaultmem check --fix` at the shell (in its JSON too)."""
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    write_note("meeting.md", NO_DEADLINE)
    write_note("crane.md", UNPARSED)
    with Vault(vault_dir) as vault:
        fixes = {problem.path: problem.fix for problem in vault.check(now=NOW).problems if problem.field == "expires_at"}
        assert fixes["meeting.md"] == ("run Vault.check(fix=True) to stamp created + the layer TTL, "
                                       "or add expires_at / permanent: true")
        assert [problem["fix"] for problem in vault.get("meeting.md").problems] == [fixes["meeting.md"]]
        hit = next(hit for hit in vault.search("harbor crane refit", now=NOW) if hit.path == "crane.md")
        assert hit.warnings[0] == ("expires_at 'next tuesday' does not parse, so this note never expires until it "
                                   "is fixed (see Vault.check())")
    shell = "run `vaultmem check --fix` to stamp created + the layer TTL, or add expires_at / permanent: true"
    assert f"fix: {shell}" in run_cli(vault_dir, "check").stdout
    assert shell in [problem["fix"] for problem in json.loads(run_cli(vault_dir, "check", "--json").stdout)["problems"]]
    assert [problem["fix"] for problem in json.loads(run_cli(vault_dir, "get", "meeting.md", "--json").stdout)["problems"]] == [shell]
    hits = json.loads(run_cli(vault_dir, "search", "harbor crane refit", "--json").stdout)
    assert next(hit for hit in hits if hit["path"] == "crane.md")["warnings"][0].endswith("(see `vaultmem check`)")


def test_the_shell_s_search_and_list_text_name_the_command_a_hit_s_warning_points_to(vault_dir: Path, write_note) -> None:
    """Was: `vaultmem search` and `vaultmem list` printed a hit's warnings as Python names them —
    "(see Vault.check())", "Vault.check() says what to do" — at the shell, where the JSON and
    the answer's own warnings said `vaultmem check`."""
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    write_note("crane.md", UNPARSED)
    write_note("coffee-order.md", "Flat white with oat milk.\n")
    write_note("coffee-order.sync-conflict-20240501-123456-ABCDEFG.md", "Flat white with oat milk, double shot.\n")
    shown = run_cli(vault_dir, "search", "harbor crane refit", "--as-of", NOW).stdout
    assert "    ! expires_at 'next tuesday' does not parse, so this note never expires until it is fixed (see `vaultmem check`)" in shown
    copies = run_cli(vault_dir, "search", "flat white oat milk", "--as-of", NOW).stdout
    assert "(`vaultmem check` says what to do)" in copies
    listed = run_cli(vault_dir, "list", "--as-of", NOW).stdout
    assert "(see `vaultmem check`)" in listed and "(`vaultmem check` says what to do)" in listed
    assert "Vault." not in shown + copies + listed


def test_a_fix_check_refuses_names_check_fix_as_each_surface_runs_it(vault_dir: Path, write_note) -> None:
    # Was: "check --fix leaves it alone … run check --fix again" in Python too, and over MCP
    # (the check tool), where no tool makes check's fixes (test_mcp asks the person there).
    write_note("salvaged.md", "---\ntitle: Boiler: Tuesday\npermanent: true\nexpires_at: 2027-01-01\n---\nbody\n")
    [refused] = [problem for problem in Vault(vault_dir).check(now=NOW).problems if problem.field == "fix"]
    assert refused.message == "its frontmatter does not load, so Vault.check(fix=True) leaves it alone"
    assert refused.fix == "fix the YAML (see its frontmatter problem), then run Vault.check(fix=True) again"
    text = run_cli(vault_dir, "check").stdout
    assert ("! salvaged.md: fix: its frontmatter does not load, so check --fix leaves it alone\n"
            "    fix: fix the YAML (see its frontmatter problem), then run check --fix again") in text, text


def test_a_template_in_a_templates_folder_is_offered_that_folders_pattern_too(vault_dir: Path, write_note) -> None:
    """Was (an agent trial on a vault whose templates/ Obsidian's settings did not name): each
    template with {{date}} was told to exclude itself alone, and templates/person.md, whose YAML
    loads, stayed a note — the first hit for "who are my mentors and friends". A note in a folder
    named for templates is offered the folder's pattern as well; following it leaves every template
    out. A template elsewhere is still offered only its own file (Daily/ holds the journal)."""
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    write_note("templates/daily.md", TEMPLATE)
    write_note("templates/person.md", '---\nname: "First Last"\nrelationship: [partner|family|friend|mentor]\n---\n'
                                      "# First Last\n\n## Who They Are\n_friends, mentors, family_\n")
    write_note("Daily/_template.md", TEMPLATE)
    write_note("people/emil.md", "# Emil\n\nFriend from university; we ski together.\n")
    fixes = {problem["path"]: problem["fix"] for problem in run_json(vault_dir, "check")["problems"]}
    assert ('add it to exclude in .vaultmem.toml ("/templates/daily.md", or the whole folder if it holds only '
            'templates: "/templates/")') in fixes["templates/daily.md"], fixes
    assert 'add it to exclude in .vaultmem.toml ("/Daily/_template.md") or move it' in fixes["Daily/_template.md"], fixes
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\nexclude = ["/templates/"]\n', encoding="utf-8")
    assert [problem["path"] for problem in run_json(vault_dir, "check")["problems"]] == ["Daily/_template.md"]
    with Vault(vault_dir) as vault:
        vault.index()
        assert "templates/person.md" not in [hit.path for hit in vault.search("friends and mentors", k=10, now=NOW)]


# adambalm/basic-memory's decisions/Multi-Model Write Access Governance.md, shortened: the block
# basic-memory's write_note was given as content, under the frontmatter it wrote itself.
DUPLICATE_FRONTMATTER = ("---\ntitle: Multi-Model Write Access Governance\ntype: note\n"
                         "permalink: decisions/multi-model-write-access-governance\ntags:\n- decision\n---\n\n"
                         "# Multi-Model Write Access Governance\n\n---\ntype: decision\nstatus: canonical\n"
                         "temporal_type: dynamic\nsuperseded_by: null\n---\n\n## Summary\n\nNo write access yet.\n")


def test_a_second_frontmatter_at_the_top_of_the_body_is_a_body_problem_naming_its_lines(vault_dir: Path, write_note) -> None:
    write_note("decisions/governance.md", DUPLICATE_FRONTMATTER)
    # Not one: a rule over prose, a person's own keys between rules under the frontmatter, a
    # block further down than the top of the body.
    write_note("rule.md", "---\ntitle: Rule\n---\n---\nNote: call back\n---\n")
    write_note("recipe.md", "---\ntitle: Soup\n---\n# Soup\n\n---\nServes: 4\nTime: 20 min\n---\n")
    write_note("later.md", "---\ntitle: Later\n---\none\n\ntwo\n\nthree\n\n---\ntype: x\n---\n")
    write_note("fenced.md", "---\ntitle: Fenced\n---\nConfig:\n```yaml\n---\nlayer: L4\n---\n```\n")
    write_note("fenced-alone.md", "Config:\n```yaml\n---\nlayer: L4\n---\n```\n")  # was a misplaced frontmatter
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert [(problem["path"], problem["field"]) for problem in problems] == [("decisions/governance.md", "body")]
    assert problems[0]["message"].startswith("a second frontmatter on lines 11–16 is not read: a note has one frontmatter, "
                                             "the block on line 1, so these properties (type, status, temporal_type, "
                                             "superseded_by) are ignored")
    assert problems[0]["fix"].endswith("delete lines 11–16")
    lines = DUPLICATE_FRONTMATTER.split("\n")
    assert lines[10] == lines[15] == "---"  # lines 11 and 16, counted from 1
    # The note's own frontmatter is read as ever.
    assert read_note(vault_dir, "decisions/governance.md").meta["type"] == "note"


def test_a_created_left_as_a_date_format_is_said_to_be_a_template_s_with_the_exclude_that_fixes_it(
        vault_dir: Path, write_note) -> None:
    # Trial (s31, a personal CRM): people/_template.md's `created: YYYY-MM-DD` was told "write an
    # ISO date", which would stamp that day on every person made from the template.
    write_note("people/_template.md", "---\nname:\ncompany:\ncreated: YYYY-MM-DD\nupdated: YYYY-MM-DD\n---\n# [Name]\n")
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1, result.output
    [problem] = [problem for problem in json.loads(result.stdout)["problems"] if problem["field"] == "created"]
    assert "a date's format left as a placeholder" in problem["message"]
    assert 'exclude = ["people/_template.md"]' in problem["fix"]
    write_note(".vaultmem.toml", 'exclude = ["people/_template.md"]\n')
    assert run_cli(vault_dir, "check").exit_code == 0


def test_check_fix_counts_the_ttl_from_a_later_date_of_the_note(vault_dir: Path, write_note) -> None:
    write_note("memories/concert.md", "---\nlayer: L2\ndate: 2026-12-18\ncreated: 2026-11-28T10:00:00Z\n---\nSchool concert.\n")
    report = Vault(vault_dir).check(fix=True, now=NOW)
    assert "its date + L2 TTL" in report.fixed[0].action
    expires = read_note(vault_dir, "memories/concert.md").meta["expires_at"]
    assert parse_timestamp(expires) == datetime(2026, 12, 25, tzinfo=UTC)  # not created + 7 days, before the concert


def test_the_same_problem_in_many_notes_of_one_folder_is_said_once_naming_each_note(vault_dir: Path, write_note) -> None:
    # A trial on a vault of 1,405 notes: 117 templates outside the folder Obsidian's settings name
    # were 234 lines of `check` (and of every `index`), the same advice each time, and the three
    # other problems were lost among them.
    for number in range(5):
        keys = "".join(f"key{key}: value\n" for key in range(number))  # YAML fails on another line in each
        write_note(f"Templates/Kind {number}.md", "---\ntitle: x\n" + keys + "created: {{date}}\n---\n# {{title}}\n")
    write_note("Templates/Fine.md", "---\ntitle: fine\n---\nText.\n")
    write_note("Other/one.md", "---\ncreated: {{date}}\n---\nText.\n")
    write_note("Other/two.md", "---\ncreated: {{date}}\n---\nText.\n")
    check = run_cli(vault_dir, "check")
    assert check.exit_code == 1, check.output
    lines = check.stdout.splitlines()
    group = [line for line in lines if line.startswith("! Templates/")]
    assert group == ["! Templates/: 5 notes: frontmatter: YAML does not load: found unhashable key "
                     "(a template placeholder such as {{date}}?)"], lines
    named = lines[lines.index(group[0]) + 1]
    assert named == "    notes: " + ", ".join(f"Kind {number}.md:{number + 3}" for number in range(5)), named
    assert sum("fix" in line and "/Templates/" in line for line in lines) == 1, lines  # the advice said once
    # Two alike in another folder are still said one by one, each with its own fix.
    assert sum(line.startswith(("! Other/one.md: frontmatter:", "! Other/two.md: frontmatter:")) for line in lines) == 2, lines
    assert "8 notes checked, 7 problem(s)" in check.stdout
    # `index` says the same once, and --json still lists every note's problem.
    index = run_cli(vault_dir, "index")
    assert index.stdout.count("! Templates/") == 1 and index.stdout.count("Kind 4.md") == 1, index.stdout
    assert "! Templates/: 5 notes:" in index.stdout, index.stdout
    assert len(json.loads(run_cli(vault_dir, "check", "--json").stdout)["problems"]) == 7



def test_problems_alike_but_for_their_fix_are_not_folded_together() -> None:
    # The group shows its first note's fix: notes told different things stay one by one, and
    # notes told the same thing but for their own path are folded.
    from vaultmem.notes import Problem
    from vaultmem.problem_groups import ProblemGroup, grouped_problems

    told = [Problem(f"notes/{name}.md", "created", "invalid timestamp", fix) for name, fix in
            (("a", "write the day"), ("b", "exclude it"), ("c", "write the day"))]
    assert grouped_problems(told) == told
    same = [Problem(f"notes/{name}.md", "frontmatter", f"YAML does not load at line {line}: x", f'exclude "/notes/{name}.md"')
            for name, line in (("a", 2), ("b", 5), ("c", 3))]
    [group] = grouped_problems(same)
    assert isinstance(group, ProblemGroup) and group.message == "YAML does not load: x"
    assert group.named() == ["a.md:2", "b.md:5", "c.md:3"]


def test_binary_files_named_md_are_one_group_told_they_are_not_text_notes(vault_dir: Path) -> None:
    # A trial: a folder of images saved as .md showed as two groups, "10 notes ... at byte 0" and
    # "7 notes ... at byte 1", each told to "re-save the file as UTF-8" - which no editor can do
    # to an image. The byte is each note's own (like a line), and a NUL says it is no text.
    (vault_dir / "binary").mkdir()
    for number in range(4):
        (vault_dir / "binary" / f"img{number}.md").write_bytes(b"\xff\xd8\x00\x10JFIF" + bytes([number]))
    for number in range(3):
        (vault_dir / "binary" / f"doc{number}.md").write_bytes(b"a\xff\x00\x01zz" + bytes([number]))
    (vault_dir / "latin1.md").write_bytes("caf\u00e9 au lait\n".encode("latin-1"))
    check = run_cli(vault_dir, "check")
    lines = check.stdout.splitlines()
    groups = [line for line in lines if line.startswith("! binary/")]
    assert groups == ["! binary/: 7 notes: encoding: not a text note: not valid UTF-8 and holds NUL bytes "
                      "(a binary file, e.g. an image or a PDF, named .md)"], lines
    assert lines[lines.index(groups[0]) + 1] == ("    notes: doc0.md@1, doc1.md@1, doc2.md@1, "
                                                 "img0.md@0, img1.md@0, img2.md@0, img3.md@0")
    fix = lines[lines.index(groups[0]) + 2]
    assert 'add "/binary/doc0.md" to exclude in .vaultmem.toml' in fix and "real extension" in fix, fix
    # A text file in another encoding is still told to re-save it as UTF-8.
    [latin1] = [problem for problem in run_json(vault_dir, "check")["problems"] if problem["path"] == "latin1.md"]
    assert latin1["message"] == "not valid UTF-8 at byte 3" and latin1["fix"].startswith("re-save the file as UTF-8")


def test_a_memory_whose_day_was_moved_past_its_expiry_by_hand_is_a_problem(vault_dir: Path, write_note) -> None:
    # A three-week agent trial: remember(date=2026-12-09, layer=L2) stamped expires_at from that
    # day; the person moved the date to the 23rd in Obsidian, and the memory would have left
    # recall on the 16th — a week before its day — with nothing anywhere saying so.
    write_note("memories/concert.md", "---\nlayer: L2\ndate: 2026-12-23\nexpires_at: 2026-12-16T00:00:00+00:00\n---\nSchool concert at 6pm.\n")
    write_note("memories/dentist.md", "---\nlayer: L2\ndate: 2026-12-10T10:00\nexpires_at: 2026-12-16T18:00:00+00:00\n---\nDentist.\n")
    write_note("memories/call.md", "---\nlayer: L2\ndate: 2026-12-23T18:00:00+00:00\nexpires_at: 2026-12-23T17:00:00+00:00\n---\nCall.\n")
    write_note("memories/forever.md", "---\nlayer: L4\ndate: 2026-12-23\nexpires_at: 2026-12-16\n---\nL4.\n")
    write_note("memories/retired.md", "---\nlayer: L2\ndate: 2026-12-23\nexpires_at: 2026-12-02T09:00:00+00:00\n"
               "superseded_by: 01M8TF1ABMMSVMVNRW0GEKZR3J\n---\nThe concert was at 5pm.\n")
    with Vault(vault_dir) as vault:
        report = vault.check(now="2026-12-02T12:00:00+00:00")
        before = {problem.path: problem for problem in report.problems if "before the day" in problem.message}
        assert set(before) == {"memories/concert.md", "memories/call.md"}  # the dentist is still recalled on its day
        concert = before["memories/concert.md"]
        assert concert.field == "expires_at" and "(date 2026-12-23)" in concert.message
        assert "hidden from recall" in concert.message and "later expires_at" in concert.fix
        hit = next(hit for hit in vault.search("school concert", k=3, now="2026-12-02T12:00:00+00:00")
                   if hit.path == "memories/concert.md")
        assert any("before the day the note is about" in warning for warning in hit.warnings)


def test_check_names_the_temp_files_a_killed_write_left_and_they_are_never_notes(vault_dir: Path, write_note) -> None:
    # Was: a `kill -9` between a write's temp file and its rename left `.n.md.<hex>.tmp`
    # hidden beside the note, and nothing ever named it.
    from vaultmem import durable

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("work/n.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nThe standup is at 9:30.\n")
    old, _ = durable.write_temp(str(vault_dir / "work"), "n.md", b"---\nlayer: L3\n---\nThe standup is at 10:00.\n", 0o644)
    gone, _ = durable.write_temp(str(vault_dir), "plumber.md", b"The plumber comes on Tuesday.\n", 0o644)
    young, _ = durable.write_temp(str(vault_dir / "work"), "n.md", b"a write under way\n", 0o644)
    write_note("work/.n.md.swp", "vim's, not ours\n")
    write_note("work/.n.md.NOTHEX12.tmp", "not ours either\n")
    hour_ago = (datetime.now(timezone.utc) - timedelta(hours=1)).timestamp()
    for name in (f"work/{old}", gone):
        os.utime(vault_dir / name, (hour_ago, hour_ago))
    with Vault(vault_dir) as vault:
        problems = {problem.path: problem for problem in vault.check().problems}
        assert {f"work/{old}", gone} <= set(problems) and f"work/{young}" not in problems
        assert not [path for path in problems if path.endswith((".swp", "NOTHEX12.tmp"))]
        assert problems[f"work/{old}"].message.startswith("a temp file vaultmem left when a write was cut off")
        assert problems[f"work/{old}"].fix.startswith("delete it") and "work/n.md beside it is intact" in problems[f"work/{old}"].fix
        assert "beside it" not in problems[gone].fix
        vault.index()
        assert [note.path for note in vault.list_notes()] == ["work/n.md"]
        assert [hit.path for hit in vault.search("standup plumber")] == ["work/n.md"]


def test_check_says_which_notes_have_other_names_before_a_write_to_them_is_refused(sample_vault: Path, tmp_path: Path) -> None:
    # A `cp -al` (or rsync --link-dest) backup of the vault gives every note a second name: from
    # then on every revise, merge and check --fix of them is refused (HardLinkedNote), and check
    # said nothing about it — the person learnt it from the agent's first refused write.
    shutil.copytree(sample_vault, tmp_path / "backup", copy_function=os.link)

    result = run_cli(sample_vault, "check", "--json")

    assert result.exit_code == 1  # the sample's own four problems: a notice does not change it
    notices = [notice for notice in json.loads(result.stdout)["notices"] if notice["field"] == "hard links"]
    assert len(notices) == 1, notices
    assert "40 notes have other names" in notices[0]["message"]
    assert notices[0]["path"] in notices[0]["message"]
    assert "cp " in notices[0]["fix"] and "mv " in notices[0]["fix"]
    text = run_cli(sample_vault, "check").stdout
    assert "hard links: 40 notes have other names" in text
    for note in sample_vault.rglob("*.md"):  # the one given its own file is no longer named
        if note.name == "Maya.md":
            shutil.copyfile(note, tmp_path / "copy.md")
            os.replace(tmp_path / "copy.md", note)
    assert "39 notes have other names" in run_cli(sample_vault, "check").stdout


def test_a_percent_pair_inside_a_line_that_nothing_closes_is_a_body_problem_naming_its_line(vault_dir: Path, write_note) -> None:
    # Was: a to-do list pasted from a changelog held `trace=%%statfs`; Obsidian (and vaultmem)
    # hide the rest of the note from there, so `tasks` showed 1,366 of its 3,000 tasks and
    # `check` said nothing.
    tasks = "".join(f"- [ ] task {number}\n" for number in range(5))
    write_note("Todo.md", f"# Todo\n\n- [ ] run strace -e trace=%%statfs\n{tasks}")
    write_note("private.md", "# Diary\n\nshown\n\n%%\nhidden on purpose, the rest of the note\n")  # opens its line
    write_note("closed.md", "# Closed\n\nsome %%comment%% inline and `a %% in code`\n")
    write_note("fenced.md", "# Fenced\n\n```sh\nprintf '%%d'\n```\nafter\n")
    (vault_dir / "blob.md").write_bytes(b"\x89PNG junk %% \xff\xfe\x00 more bytes\n")  # its problem: not UTF-8
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert [(problem["path"], problem["field"]) for problem in problems] == [("Todo.md", "body"), ("blob.md", "encoding")]
    problems = problems[:1]
    assert problems[0]["message"] == ("the %% on line 3 ('- [ ] run strace -e trace=%%statfs') is never closed, so Obsidian "
                                      "hides the rest of the note from there (6 line(s)) and vaultmem does too: that text "
                                      "is not searched and its tasks are not listed")
    assert "put it in backticks" in problems[0]["fix"]


def test_a_percent_pair_closed_further_down_is_no_problem(vault_dir: Path, write_note) -> None:
    write_note("note.md", "---\nlayer: L4\n---\nsee 100%% of it\n\nmore text %% and closed\n")
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 0, result.stdout


def test_an_unclosed_percent_pair_in_a_note_saved_as_utf16_or_with_one_latin1_byte_is_still_named(vault_dir: Path) -> None:
    # Was: any encoding problem silenced it — meant for binary files, whose random bytes hold a %%
    # by chance; but a UTF-16 note is read for search as it is, and a note with one Latin-1 é is
    # read with the rest intact: vaultmem hid their tasks after the %% and `check` said nothing.
    import codecs

    body = "---\nlayer: L4\n---\n# Todo\n\n- [ ] run strace -e trace=%%statfs\n- [ ] task one\n"
    (vault_dir / "wide.md").write_bytes(codecs.BOM_UTF16_LE + body.encode("utf-16-le"))
    (vault_dir / "latin.md").write_bytes(body.replace("# Todo", "# Caf\xe9").encode("latin-1"))
    (vault_dir / "blob.md").write_bytes(b"\x89PNG junk %% \xff\xfe\x00 more bytes\n")  # still only its encoding
    (vault_dir / "pdf.md").write_bytes(b"%PDF-1.4\n\x00\x01\xff\n/Length 100%% of it\n")
    problems = json.loads(run_cli(vault_dir, "check", "--json").stdout)["problems"]
    said = sorted((problem["path"], problem["field"]) for problem in problems)
    assert said == [("blob.md", "encoding"), ("latin.md", "body"), ("latin.md", "encoding"), ("pdf.md", "encoding"),
                    ("wide.md", "body"), ("wide.md", "encoding")]


def test_a_templater_tag_whose_quotes_end_a_value_is_named_a_template(vault_dir: Path, write_note) -> None:
    """Was (s38, the Obsidian Hub's daily-log template, kept outside its templates folder):
    `week: "[[<% tp.date.now("YYYY") %>-W01]]"` - the tag's own quotes end the value - was told
    to "quote values containing ': ' or '{{'", which it had done."""
    write_note("Showcase/Daily log.md",
               '---\ndate: <% tp.date.now("YYYY-MM-DD") %>\nweek: "[[<% tp.date.now("YYYY") %>-W01]]"\n---\n# Daily Log\n')
    problems = {(problem["path"], problem["field"]): problem
                for problem in json.loads(run_cli(vault_dir, "check", "--json").stdout)["problems"]}
    template = problems[("Showcase/Daily log.md", "frontmatter")]
    assert "(a template placeholder such as <% tp.date.now() %>?)" in template["message"], template["message"]
    assert 'add it to exclude in .vaultmem.toml ("/Showcase/Daily log.md"' in template["fix"], template["fix"]
    assert "write the values holding '<%' in single quotes" in template["fix"], template["fix"]


def test_check_names_the_day_a_created_or_expires_at_typed_with_look_alike_letters_means(vault_dir: Path) -> None:
    # s43 realvault: a capital O for a zero, a small l for a one; the fixes gave a fixed example day.
    (vault_dir / "typed.md").write_text("---\ncreated: 2026-12-O2\nexpires_at: 2027-0l-05\nlayer: L3\n---\nx\n", encoding="utf-8")
    fixes = {problem["field"]: problem["fix"] for problem in run_json(vault_dir, "check")["problems"]}
    assert fixes["created"] == "write it as 2026-12-02 (it has the letter O where a digit goes)"
    assert fixes["expires_at"] == ("write it as 2027-01-05 (it has the letter l where a digit goes); until then the note "
                                   "never expires and search flags it")


def test_check_offers_no_day_for_a_date_property_that_is_a_word_of_look_alike_letters(vault_dir: Path) -> None:
    """Was (review43b, s43): ``date: lool`` (a word, no digit in it) was told to be written as 1001,
    its letters read as digits; a date with a slip among its digits (``2O26``) still gets its day."""
    (vault_dir / "word.md").write_text("---\ndate: lool\n---\nx\n", encoding="utf-8")
    (vault_dir / "slip.md").write_text("---\ndate: 2O26-l2-05\n---\nx\n", encoding="utf-8")
    fixes = {problem["path"]: problem["fix"] for problem in run_json(vault_dir, "check")["problems"]
             if problem["field"] == "date"}
    assert "1001" not in fixes["word.md"], fixes["word.md"]
    assert fixes["word.md"].startswith("write it as 2026-11-30, 2026-11-30T09:00 or [[2026-11-30]]"), fixes["word.md"]
    assert fixes["slip.md"].startswith("write it as 2026-12-05 (it has the letters O and l where digits go)"), fixes["slip.md"]
