"""The ``vaultmem`` command line: help everywhere, honest exit codes, clean JSON on stdout."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from helpers import NOW, REPO, process_env, run_cli, vaultmem_command, vaultmem_process
from mcp_client import run, serve
from vaultmem.cli import main

ISSUE_COMMANDS = {"index", "search", "check", "stats"}


def all_commands(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in sorted(group.commands.items()):
        found.append((*prefix, name))
        if isinstance(command, click.Group):
            found.extend(all_commands(command, (*prefix, name)))
    return found


# ---------------------------------------------------------------- help


def test_the_commands_of_the_foundation_and_index_issues_exist() -> None:
    assert ISSUE_COMMANDS <= set(main.commands)


@pytest.mark.parametrize("command", all_commands(), ids=" ".join)
def test_every_command_has_help_text(command: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage:")
    summary = result.stdout.split("\n\n")[1].strip()
    assert len(summary) > 10  # a sentence saying what the command does, not just the usage line


def test_the_top_level_help_lists_every_command_with_a_summary() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in main.commands:
        line = next(line for line in result.stdout.splitlines() if line.strip().startswith(name + " "))
        assert len(line.split(None, 1)[1]) > 5


def test_remembers_help_says_the_title_is_the_first_line_as_it_is(vault_dir: Path, write_note) -> None:
    """Was: "Title (default: the text's first words)", for a title that is the whole first line
    (only the file name is cut to its first words)."""
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    line = "Mom's cataract surgery: Dec 10, 8:30am at St. Mary's; I drive her, arrive 7:45"
    made = json.loads(run_cli(vault_dir, "remember", f"{line}\nBring her glasses.", "--json").stdout)
    assert made["title"] == line and made["path"] == "memories/moms-cataract-surgery-dec-10-8-30am-at.md"
    shown = " ".join(CliRunner().invoke(main, ["remember", "--help"]).stdout.split())
    assert "Title (default: the text's first line; the file name is made from its first words)." in shown


def test_tasks_help_offers_the_durations_its_due_bounds_take(vault_dir: Path, write_note) -> None:
    """Was: --due-since "an ISO day or a period", though `tasks --due-until +7d` (a week ahead)
    is what "what is due this coming week" asks."""
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("todo.md", "- [ ] soon 📅 2026-12-05\n- [ ] later 📅 2026-12-20\n")
    soon = run_cli(vault_dir, "tasks", "--due-until", "+7d", "--as-of", "2026-12-02T09:00:00+00:00")
    assert soon.exit_code == 0 and soon.stdout == "2026-12-05  [ ] soon  todo.md:1\n"
    shown = " ".join(CliRunner().invoke(main, ["tasks", "--help"]).stdout.split())
    assert "or a duration from now (7d: back; +7d: ahead)" in shown


def test_forgets_help_names_which_archive_folder_it_moves_a_note_to() -> None:
    """Was: "Archive NOTE" and "the archive folder", read in a PARA vault as its own 4 Archive/;
    forget moves notes to _archive/, which nothing searches."""
    shown = " ".join(CliRunner().invoke(main, ["forget", "--help"]).stdout.split())
    assert "archive_dir in .vaultmem.toml, _archive/ by default" in shown
    assert "4 Archive/ is no archive to vaultmem unless archive_dir names it" in shown


def test_json_is_offered_on_every_reporting_command() -> None:
    for name in ISSUE_COMMANDS:
        assert "--json" in CliRunner().invoke(main, [name, "--help"]).stdout


# ---------------------------------------------------------------- exit codes


def test_exit_0_when_the_command_did_its_job_even_with_problems_in_the_vault(sample_vault: Path) -> None:
    assert run_cli(sample_vault, "index").exit_code == 0
    assert run_cli(sample_vault, "search", "boiler", "--as-of", NOW).exit_code == 0
    assert run_cli(sample_vault, "stats").exit_code == 0


def test_exit_1_from_check_when_it_finds_problems_and_0_when_clean(sample_vault: Path, vault_dir: Path, write_note) -> None:
    assert run_cli(sample_vault, "check").exit_code == 1
    write_note("fine.md", "---\nlayer: L4\n---\nfine\n")
    assert run_cli(vault_dir, "check").exit_code == 0


def test_exit_2_when_the_vault_is_missing_or_a_file_as_for_any_bad_option(tmp_path: Path) -> None:
    """Was: --vault MISSING exited 1 while --vault A-FILE exited 2 (click's check, no JSON)."""
    (tmp_path / "a-file").write_text("not a vault\n", encoding="utf-8")
    for vault, said in ((tmp_path / "missing", "is not a folder (it does not exist)"), (tmp_path / "a-file", "is a file, not a folder")):
        result = run_cli(vault, "check")
        assert result.exit_code == 2
        assert said in result.stderr and "--vault PATH" in result.stderr and "Traceback" not in result.output
        document = run_cli(vault, "search", "x", "--json")
        assert document.exit_code == 2 and said in json.loads(document.stdout)["error"]["message"]


def test_a_relative_vault_that_is_not_there_says_where_it_was_looked_for(tmp_path: Path) -> None:
    """An MCP client starts the server in a folder of its own (Claude Desktop: ``/``), so a
    config's ``"args": ["--vault", "Notes", "mcp"]`` looked in the wrong place, and the error only
    said 'Notes' does not exist, beside the person's ~/Notes. Now it names the folder it was read
    from and asks for the absolute path; an absolute path that is not there says no more."""
    started_in = tmp_path / "client"
    started_in.mkdir()
    served = subprocess.run(vaultmem_command(Path("Notes"), "mcp"), cwd=started_in, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60, env=process_env())
    assert served.returncode == 2 and served.stdout == ""
    assert f"read from {str(started_in)!r}, the folder vaultmem was started in" in served.stderr
    assert "give the vault's absolute path" in served.stderr
    absolute = run_cli(tmp_path / "Notes", "check")
    assert absolute.exit_code == 2 and "is not a folder (it does not exist)" in absolute.stderr
    assert "read from" not in absolute.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ["remember", "x", "--folder", "../outside"],
        ["remember", "x", "--folder", "/etc"],
        ["remember", "x", "--folder", "a/../../outside"],
        ["remember", "x", "--folder", ".hidden"],
        ["remember", "x", "--folder", "_archive"],
        ["get", "../outside"],
        ["forget", "/etc/passwd"],
        ["revise", "notes/../../outside", "--tag", "x"],
    ],
    ids=" ".join,
)
def test_a_path_outside_the_vault_is_a_usage_error_like_an_ignored_folder(vault_dir: Path, arguments: list[str]) -> None:
    """Was: --folder ../outside (and a NOTE outside the vault) exited 1, --folder .hidden exited 2."""
    (vault_dir / "note.md").write_text("a note\n", encoding="utf-8")
    result = run_cli(vault_dir, *arguments)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.output
    assert not (vault_dir.parent / "outside").exists()


@pytest.mark.parametrize(
    "arguments",
    [
        ["no-such-command"],
        ["search"],  # QUERY missing
        ["search", "x", "-k", "0"],
        ["search", "x", "-k", "many"],
        ["search", "x", "-k", "100000000000000000000"],  # was: OverflowError from SQLite
        ["search", "x", "--no-such-option"],
        ["search", "x", "--layer", "L9"],
        ["search", "x", "--as-of", "next tuesday"],
        ["check", "--fix", "--no-such-option"],
        ["index", "--rebuild=yes"],
    ],
    ids=lambda arguments: " ".join(arguments),
)
def test_exit_2_on_usage_errors(sample_vault: Path, arguments: list[str]) -> None:
    result = run_cli(sample_vault, *arguments)
    assert result.exit_code == 2
    assert result.stderr.strip() and "Traceback" not in result.output


@pytest.mark.parametrize("days", ["1e12", "nan", "inf", "-1"])
def test_stale_days_out_of_range_or_nan_is_a_usage_error_not_a_traceback(vault_dir: Path, days: str) -> None:
    result = vaultmem_process(vault_dir, "stale", "--days", days)
    assert result.returncode == 2, result.stderr
    assert "--days" in result.stderr and "Traceback" not in result.stderr


def test_a_file_system_error_is_one_line_and_exit_1_not_a_traceback(vault_dir: Path) -> None:
    # A person's folder so deep that a note's path in it passes PATH_MAX (ENAMETOOLONG): one
    # vaultmem would make that deep is refused before anything is written (test_remember).
    room = os.pathconf(vault_dir, "PC_PATH_MAX") - len(os.fsencode(str(vault_dir))) - 40
    name = "/".join(["n" * 200] * (room // 201) + ["n" * (room % 201 or 1)])
    os.makedirs(vault_dir / name)
    result = vaultmem_process(vault_dir, "remember", "a note about the boiler being serviced today", "--folder", name)
    assert result.returncode == 1
    assert result.stderr.startswith("Error: ") and "File name too long" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    document = json.loads(vaultmem_process(vault_dir, "remember", "a note about the boiler being serviced today",
                                           "--folder", name, "--json").stdout)
    assert document["error"]["type"] == "OSError" and "File name too long" in document["error"]["message"]
    # Asked for by that name, a note is looked up in the folder's listing: there is none.
    assert "no note matches" in vaultmem_process(vault_dir, "get", name.rsplit("/", 1)[-1]).stderr


def test_a_folder_name_longer_than_the_file_system_holds_is_one_line_and_exit_2_not_a_traceback(vault_dir: Path) -> None:
    # Was a file system error (exit 1, "File name too long"); since remember checks the folders it
    # would make (9e3db92), a usage error naming the folder's size (review, s34: this test still
    # expected the OSError and failed on main).
    name = "n" * 300  # longer than any file name the file system allows (ENAMETOOLONG)
    result = vaultmem_process(vault_dir, "remember", "a note", "--folder", name)
    assert result.returncode == 2
    assert result.stderr.startswith("Error: ") and "is 300 bytes, and a folder's name holds at most 255" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    document = json.loads(vaultmem_process(vault_dir, "remember", "a note", "--folder", name, "--json").stdout)
    assert document["error"]["type"] == "UsageError" and "choose a shorter name" in document["error"]["message"]


def test_a_usage_error_names_the_bad_value(sample_vault: Path) -> None:
    assert "'L9'" in run_cli(sample_vault, "search", "x", "--layer", "L9").stderr
    assert "next tuesday" in run_cli(sample_vault, "search", "x", "--as-of", "next tuesday").stderr


def test_a_usage_error_with_json_is_still_one_json_document(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "search", "x", "--layer", "L9", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["type"] == "UnknownLayer"


# ---------------------------------------------------------------- JSON on stdout


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        (["index", "--json"], dict),
        (["search", "oat milk", "--json", "--as-of", NOW], list),
        (["search", "flight", "--include-expired", "--json", "--as-of", NOW], list),
        (["check", "--json"], dict),
        (["stats", "--json"], dict),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else value.__name__,
)
def test_json_stdout_is_exactly_one_document_in_a_real_process(sample_vault: Path, arguments: list[str], kind: type) -> None:
    result = vaultmem_process(sample_vault, *arguments)
    assert result.returncode in (0, 1), result.stderr
    document = json.loads(result.stdout)  # raises on anything before or after the document
    assert isinstance(document, kind)


def test_stats_json_has_the_documented_fields(sample_vault: Path) -> None:
    run_cli(sample_vault, "index")
    stats = json.loads(run_cli(sample_vault, "stats", "--json").stdout)
    assert {"notes", "by_layer", "expired", "with_problems", "index_bytes", "embedder", "dimension"} <= set(stats)
    assert (stats["notes"], stats["with_problems"], stats["dimension"]) == (40, 4, 256)


def test_stats_says_in_words_what_the_json_counts(sample_vault: Path) -> None:
    # A trial: `notes: 21 (none: 21)` read as "no notes"; the notes have no layer (a person's pages).
    run_cli(sample_vault, "index")
    stats = json.loads(run_cli(sample_vault, "stats", "--json").stdout)
    printed = run_cli(sample_vault, "stats").stdout
    assert stats["by_layer"]["none"] == 3  # the JSON key stays (Inbox, Open questions, the harbor canvas)
    assert f"no layer: {stats['by_layer']['none']}" in printed and "none" not in printed
    assert "with problems: 4 (`vaultmem check` lists them with their fixes)" in printed
    # The vector store's own words (HNSW, snapshot, delta) are said as what they mean to a user.
    assert not {"HNSW", "snapshot", "delta"} & set(printed.replace(",", " ").replace(";", " ").split())
    vectors = stats["passage_vectors_in_snapshot"] + stats["vectors_in_snapshot"]
    assert f"vectors: {vectors} in the saved search graph" in printed


PERSON_PAGE = (
    "---\n"
    "type: person\n"
    "tags: [people, family]\n"
    "aliases: Dad, Father\n"
    "layer: L3\n"
    "birthday: 1961-04-02\n"
    "phones:\n  - 555-0100\n  - 555-0101\n"
    "address: {city: Akron, zip: '44301'}\n"
    "retired: false\n"
    "bio: " + "word " * 40 + "\n"
    "---\n"
    "# Dad\n\nLives in Akron.\n"
)


def test_get_shows_the_aliases_and_the_other_properties_in_file_order(vault_dir: Path, write_note) -> None:
    # A trial: `get dad` showed neither his aliases nor `type: person`; only the JSON had them.
    write_note("people/dad.md", PERSON_PAGE)
    printed = run_cli(vault_dir, "get", "Father")
    assert printed.exit_code == 0, printed.output
    head, body = printed.stdout.split("\n\n", 1)
    lines = head.splitlines()
    assert "  aliases: Dad, Father" in lines
    properties = lines[lines.index("  properties:") + 1 :][:5]
    assert properties == ["    type: person", "    birthday: 1961-04-02", "    phones: 555-0100, 555-0101",
                          '    address: {"city": "Akron", "zip": "44301"}', "    retired: false"]
    bio = next(line for line in lines if line.startswith("    bio: "))
    assert len(bio) == 4 + 100 and bio.endswith("word…")  # a long value is cut: the body stays in sight
    # What has a line of its own is not said twice.
    assert not [line for line in lines if line.startswith(("    tags:", "    aliases:", "    layer:"))]
    assert body.startswith("# Dad\n\nLives in Akron.")
    assert json.loads(run_cli(vault_dir, "get", "Father", "--json").stdout)["aliases"] == ["Dad", "Father"]


def test_get_says_how_many_more_properties_the_json_holds(vault_dir: Path, write_note) -> None:
    many = "".join(f"p{number}: value {number}\n" for number in range(20))
    write_note("many.md", f"---\n{many}---\nbody\n")
    printed = run_cli(vault_dir, "get", "many").stdout
    assert "    p14: value 14" in printed and "p15" not in printed
    assert "    and 5 more (--json shows them all)" in printed


def test_get_shows_the_properties_that_hold_a_value_and_counts_the_empty_ones(vault_dir: Path, write_note) -> None:
    # Trial (s31, a personal CRM): a person's template leaves a dozen fields empty above
    # `birthday:`, and `get Chee` showed fifteen of them, the birthday "and 10 more".
    empty = "".join(f"{key}:\n" for key in ("met_date", "email", "phone", "linkedin", "twitter", "website", "slack_id",
                                             "slack_dm", "city", "timezone", "address", "company", "title", "industry"))
    write_note("people/chee-blake.md", f"---\nname: Chee Blake\n{empty}birthday: 1975-09-12\nspouse: Chuck Blake\n"
                                       "kids: [Kai Blake, Maia Blake]\ninterests: []\n---\n# Chee Blake\n")
    printed = run_cli(vault_dir, "get", "people/chee-blake.md").stdout
    assert "    birthday: 1975-09-12" in printed and "    kids: Kai Blake, Maia Blake" in printed
    assert "    phone:" not in printed  # `interests: []` is empty too, and `title:` (a job, not her name: adr/0020)
    assert "    and 15 empty (--json shows them all)" in printed and "    name:" not in printed  # `name` names the note
    many = "".join(f"p{number}: value {number}\n" for number in range(20))
    write_note("many.md", f"---\n{many}x:\n---\nbody\n")
    assert "    and 5 more and 1 empty (--json shows them all)" in run_cli(vault_dir, "get", "many").stdout


def test_search_paths_in_json_are_the_same_strings_as_in_check_and_index(sample_vault: Path) -> None:
    check = json.loads(run_cli(sample_vault, "check", "--json").stdout)
    index = json.loads(run_cli(sample_vault, "index", "--json").stdout)
    hits = json.loads(run_cli(sample_vault, "search", "call the landlord boiler", "--json", "--as-of", NOW).stdout)
    landlord = "scratch/call-landlord.md"
    assert landlord in {problem["path"] for problem in check["problems"]}
    assert landlord in {problem["path"] for problem in index["problems"]}
    assert landlord in {hit["path"] for hit in hits}


# ---------------------------------------------------------------- which vault


def test_vault_defaults_to_the_environment_variable(sample_vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the cwd is not a vault with notes
    result = CliRunner(env={"VAULTMEM_VAULT": str(sample_vault)}).invoke(main, ["check", "--json"])
    assert json.loads(result.stdout)["files"] == 40


def test_vault_falls_back_to_the_current_directory(sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(sample_vault)
    result = CliRunner().invoke(main, ["check", "--json"])
    assert json.loads(result.stdout)["files"] == 40


def test_an_empty_vault_option_is_refused_not_taken_for_the_vault_around_here(
        sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was (s31, a first hour with the CLI): `--vault ""` — a script's `--vault "$VAULT"` with
    the variable unset — worked on the vault around the current folder, another than the one
    the script meant, and `remember` wrote into it."""
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(sample_vault)
    before = sorted(path.name for path in sample_vault.rglob("*.md"))
    checked = CliRunner().invoke(main, ["--vault", "", "check", "--json"])
    assert checked.exit_code == 2
    assert "--vault '' names no folder" in json.loads(checked.stdout)["error"]["message"]
    written = CliRunner().invoke(main, ["--vault", "", "remember", "the meeting moved to Friday"])
    assert written.exit_code == 2 and "leave --vault out" in written.stderr
    assert sorted(path.name for path in sample_vault.rglob("*.md")) == before
    # An empty VAULTMEM_VAULT is an unset one, as a shell's `VAR= command` means.
    assert CliRunner(env={"VAULTMEM_VAULT": ""}).invoke(main, ["check", "--json"]).exit_code == 1


@pytest.mark.parametrize(
    ("arguments", "after_dashes"),
    [
        (["remember", "- [ ] buy oat milk"], "remember -- '- [ ] buy oat milk'"),
        (["search", "-tokio"], "search -- -tokio"),
        (["search", "--layer", "L1", "-5 degrees"], "search -- '-5 degrees'"),
        (["forget", "-draft"], "forget -- -draft"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_a_text_that_starts_with_a_dash_is_refused_with_the_double_dash_that_passes_it(
        vault_dir: Path, arguments: list[str], after_dashes: str) -> None:
    """Was (s31): `remember "- [ ] buy oat milk"` said only `No such option '- '.`"""
    result = run_cli(vault_dir, *arguments)
    assert result.exit_code == 2
    assert "starts with '-' goes after --" in result.stderr and after_dashes in result.stderr
    assert run_cli(vault_dir, "remember", "--", "- [ ] buy oat milk").exit_code == 0  # as it says


@pytest.mark.parametrize("arguments", [["get", ""], ["forget", ""], ["revise", "", "--tag", "x"], ["used", "note", ""],
                                       ["remember", "a new fact", "--supersedes", ""]], ids=" ".join)
def test_an_empty_note_is_a_usage_error_not_a_note_not_found(vault_dir: Path, arguments: list[str]) -> None:
    """Was (s31): `get ""` said "no note matches ''" and exited 1, the code of a note not found."""
    (vault_dir / "note.md").write_text("a note\n", encoding="utf-8")
    result = run_cli(vault_dir, *arguments)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: NOTE is empty") and "no note matches" not in result.stderr
    assert sorted(path.name for path in vault_dir.rglob("*.md")) == ["note.md"]


@pytest.mark.parametrize(
    ("arguments", "after_dashes"),
    [
        (["search", "--no-verify"], "search -- --no-verify"),
        (["search", "--force-with-lease"], "search -- --force-with-lease"),
        (["search", "--grep=#123"], "search -- '--grep=#123'"),
        (["remember", "--amend"], "remember -- --amend"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_a_flag_asked_about_is_told_to_go_after_the_double_dash(
        vault_dir: Path, arguments: list[str], after_dashes: str) -> None:
    """Was (s33, a TIL vault): `search --no-verify` said only `No such option '--no-verify'.`, and
    `search --grep=#123` "Did you mean '--help'?": a long option close to none of the command's
    is a flag the person asks about, not a mistyped option."""
    result = run_cli(vault_dir, *arguments)
    assert result.exit_code == 2
    assert "starts with '-' goes after --" in result.stderr and after_dashes in result.stderr
    assert "Did you mean" not in result.stderr


def test_a_mistyped_long_option_is_not_told_to_go_after_the_double_dash(vault_dir: Path) -> None:
    result = run_cli(vault_dir, "search", "x", "--include-expire")
    assert result.exit_code == 2
    assert "Did you mean '--include-expired'?" in result.stderr and "goes after --" not in result.stderr


def test_a_command_in_a_subfolder_of_a_vault_works_on_the_vault(sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: the subfolder was taken for a vault of its own, indexed into a second `.vaultmem/`
    inside the vault, and a search found only the notes under it."""
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(sample_vault / "people")
    result = CliRunner().invoke(main, ["check", "--json"])
    assert json.loads(result.stdout)["files"] == 40
    found = CliRunner().invoke(main, ["search", "flight to Berlin", "-k", "3", "--include-expired", "--json"])
    assert "scratch/flight-berlin.md" in [hit["path"] for hit in json.loads(found.stdout)]
    assert not (sample_vault / "people" / ".vaultmem").exists()


def test_a_command_outside_any_vault_refuses_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: any folder was a vault, so `vaultmem search` typed in a home folder indexed every
    Markdown file below it into a new `.vaultmem/` there."""
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    (tmp_path / "projects").mkdir()
    (tmp_path / "projects" / "README.md").write_text("# a project\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "projects")
    result = CliRunner().invoke(main, ["search", "project"])
    assert result.exit_code == 2  # the vault option is missing: a usage error
    assert "no vault in" in result.stderr and "--vault" in result.stderr and "VAULTMEM_VAULT" in result.stderr
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["README.md", "projects"]
    # Made a vault on purpose, the folder is found from then on.
    assert CliRunner().invoke(main, ["--vault", ".", "index"]).exit_code == 0
    assert CliRunner().invoke(main, ["search", "project", "--json"]).exit_code == 0


def test_a_stray_index_folder_above_does_not_make_a_vault_of_everything_below(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Older versions left a `.vaultmem/` in any folder a command was typed in (a home folder):
    above the current folder it does not count; in it, it does (a folder indexed with --vault)."""
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    (tmp_path / ".vaultmem").mkdir()
    (tmp_path / "projects" / "app").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "projects" / "app")
    result = CliRunner().invoke(main, ["check", "--json"])
    assert result.exit_code == 2
    assert "no vault in" in json.loads(result.stdout)["error"]["message"]
    monkeypatch.chdir(tmp_path)
    assert json.loads(CliRunner().invoke(main, ["check", "--json"]).stdout)["files"] == 0


def test_a_subfolder_of_a_folder_indexed_without_a_mark_is_told_to_name_that_folder_not_to_index_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was (s33, a TIL repo indexed with `--vault .`): typed in its `git/` folder, a search said
    "no vault in …/git or any folder above it" and "`vaultmem --vault . index` makes this folder
    a vault"; done as told, `git/` became a second vault inside the first, answering from the
    notes under it alone."""
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    (tmp_path / "git").mkdir()
    (tmp_path / "git" / "resetting-a-reset.md").write_text("# Resetting A Reset\n\ngit reflog\n", encoding="utf-8")
    (tmp_path / "postgres").mkdir()
    (tmp_path / "postgres" / "dump.md").write_text("# Dump\n\npg_dump -Fc my_database\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["--vault", str(tmp_path), "index"]).exit_code == 0
    monkeypatch.chdir(tmp_path / "git")
    result = CliRunner().invoke(main, ["search", "pg_dump"])
    assert result.exit_code == 2
    assert f"--vault {tmp_path}" in result.stderr and "--vault . index" not in result.stderr
    assert not (tmp_path / "git" / ".vaultmem").exists()
    found = CliRunner().invoke(main, ["--vault", str(tmp_path), "search", "pg_dump", "--json"])  # as it says
    assert [hit["path"] for hit in json.loads(found.stdout)][:1] == ["postgres/dump.md"]
    (tmp_path / ".vaultmem.toml").write_text("", encoding="utf-8")  # or as it also says
    assert CliRunner().invoke(main, ["search", "pg_dump", "--json"]).exit_code == 0


def test_a_note_path_typed_in_a_shell_is_read_from_the_current_folder_by_every_command_that_takes_a_note(
        vault_dir: Path, write_note, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: in the vault's Personen/, `get ./Lena.md` said no note matches, and `get ../Personen/Lena.md`
    and `get /…/vault/Personen/Lena.md` said the path resolves outside the vault (it does not)."""
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("Personen/Lena.md", "---\nlayer: L4\n---\nLena keeps bees.\n")
    write_note("Personen/Old.md", "---\nlayer: L3\n---\nLena kept one hive.\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "notes"]):
        subprocess.run([*git, *command], cwd=vault_dir, check=True)
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(vault_dir / "Personen")
    cli = CliRunner()
    for typed in ("./Lena.md", "./Lena", "../Personen/Lena.md", str(vault_dir / "Personen" / "Lena.md"),
                  "Personen/Lena.md", "Lena"):  # the last two: vault-relative and a bare name, as before
        got = cli.invoke(main, ["get", typed, "--json"])
        assert got.exit_code == 0, (typed, got.output)
        assert json.loads(got.stdout)["path"] == "Personen/Lena.md", typed
    for arguments in (["explain", "./Lena.md", "bees"], ["history", "../Personen/Lena.md"], ["used", "./Lena.md"],
                      ["revise", str(vault_dir / "Personen" / "Lena.md"), "--tag", "bees"],
                      ["remember", "Lena keeps two hives", "--supersedes", "./Old.md"], ["forget", "./Lena.md"]):
        result = cli.invoke(main, [*arguments, "--json"])
        assert result.exit_code == 0, (arguments, result.output)
    assert json.loads(result.stdout)["archived_to"] == "_archive/Personen/Lena.md"
    assert "superseded_by" in (vault_dir / "Personen/Old.md").read_text(encoding="utf-8")
    # Outside the vault: refused as a usage error that says where the path leads and what the vault is.
    (vault_dir.parent / "elsewhere.md").write_text("not the vault's\n", encoding="utf-8")
    for typed in ("../../elsewhere.md", str(vault_dir.parent / "elsewhere.md")):
        refused = cli.invoke(main, ["get", typed])
        assert refused.exit_code == 2, (typed, refused.output)
        assert "outside the vault" in refused.stderr and repr(str(vault_dir)) in refused.stderr, refused.stderr
        assert repr(str(vault_dir.parent / "elsewhere.md")) in refused.stderr


def test_a_shell_path_to_a_folder_is_refused_not_read_as_the_note_beside_it(vault_dir: Path, write_note, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A review: in Projekte/, `forget ./` archived Projekte.md, the note beside the folder.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("Projekte.md", "---\nlayer: L3\n---\nAll projects.\n")
    write_note("Projekte/Alpha.md", "---\nlayer: L3\n---\nAlpha.\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("not the vault's\n", encoding="utf-8")
    (vault_dir / "linkdir").symlink_to(outside)
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(vault_dir / "Projekte")
    cli = CliRunner()
    for arguments in (["forget", "./"], ["forget", "."], ["get", "../Projekte/"], ["get", "../Projekte"], ["revise", "..", "--tag", "x"]):
        refused = cli.invoke(main, arguments)
        assert refused.exit_code == 2 and "names a folder" in refused.stderr, (arguments, refused.output)
    assert (vault_dir / "Projekte.md").exists() and not (vault_dir / "_archive").exists()
    # Through a link out of the vault: the message names where it leads, not a path that looks inside.
    refused = cli.invoke(main, ["get", "../linkdir/secret.md"])
    assert refused.exit_code == 2 and repr(str((outside / "secret.md").resolve())) in refused.stderr, refused.stderr


def test_a_url_path_with_a_trailing_slash_that_is_no_folder_is_not_called_a_folder(vault_dir: Path, write_note,
                                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # A trial on a Hugo site: `get /old/path/` (an alias as Hugo writes it, which no note had)
    # said "names a folder (/old/path)" — a folder that does not exist.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("content/posts/moving.md", "---\naliases:\n  - /old/path/\n---\nMoved.\n")
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(vault_dir)
    cli = CliRunner()
    assert cli.invoke(main, ["index"]).exit_code == 0
    assert "content/posts/moving.md" in cli.invoke(main, ["get", "/old/path/"]).stdout  # the alias still answers
    refused = cli.invoke(main, ["get", "/no/such/"])
    assert refused.exit_code == 2 and "outside the vault" in refused.stderr, refused.output
    assert "names a folder" not in refused.stderr
    missing = cli.invoke(main, ["get", "./content/nothing/"])
    assert missing.exit_code != 0 and "names a folder" not in missing.stderr, missing.output


def test_an_empty_environment_variable_means_the_vault_around_the_current_folder(sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(sample_vault)
    result = CliRunner(env={"VAULTMEM_VAULT": ""}).invoke(main, ["check", "--json"])
    assert json.loads(result.stdout)["files"] == 40


def test_the_vault_option_wins_over_the_environment(sample_vault: Path, vault_dir: Path) -> None:
    result = CliRunner(env={"VAULTMEM_VAULT": str(sample_vault)}).invoke(main, ["--vault", str(vault_dir), "check", "--json"])
    assert json.loads(result.stdout)["files"] == 0


def test_the_environment_variable_works_in_a_real_process(sample_vault: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "vaultmem", "check", "--json"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "VAULTMEM_VAULT": str(sample_vault)},
    )
    assert result.returncode == 1
    assert json.loads(result.stdout)["files"] == 40


def test_python_dash_m_vaultmem_cli_runs_the_cli_as_python_dash_m_vaultmem_does(sample_vault: Path, tmp_path: Path) -> None:
    # s43 realvault: the session's brief says `python -m vaultmem.cli --help`; it failed with "'vaultmem.cli'
    # is a package and cannot be directly executed" since cli.py became a package.
    result = subprocess.run([sys.executable, "-m", "vaultmem.cli", "--vault", str(sample_vault), "check", "--json"],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 1, result.stderr  # check's problems in the sample vault, as with -m vaultmem
    assert json.loads(result.stdout)["files"] == 40


# ---------------------------------------------------------------- fresh processes


def test_a_fresh_process_search_works_on_a_vault_never_indexed(sample_vault: Path) -> None:
    result = vaultmem_process(sample_vault, "search", "Pimenta amoxicillin allergy", "--json", "--as-of", NOW)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert hits[0]["path"] == "people/pimenta-vet-allergy.md"
    assert "Traceback" not in result.stderr


def test_check_in_a_fresh_process_does_not_load_the_vector_stack(sample_vault: Path) -> None:
    probe = (
        "import sys\n"
        "from vaultmem.cli import main\n"
        "try:\n"
        f"    main(['--vault', {str(sample_vault)!r}, 'check'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('LOADED', sorted(name for name in ('hnswlib', 'wordllama', 'numpy') if name in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.stdout.strip().splitlines()[-1] == "LOADED []"


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "vaultmem"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "search" in result.stdout


def test_the_main_help_shows_a_newcomer_where_to_start_and_what_each_layer_keeps() -> None:
    # The README audit (s35): `vaultmem --help`, a newcomer's first screen, named no first command
    # and no layer, while every write asks for one. Its TTLs are the lifecycle's defaults.
    from vaultmem.lifecycle import DEFAULT_TTLS

    shown = " ".join(CliRunner().invoke(main, ["--help"]).output.split())
    assert "vaultmem --vault ~/Notes index" in shown and "vaultmem --vault ~/Notes mcp" in shown
    names = {"L1": "working", "L2": "episodic", "L3": "semantic", "L4": "procedural"}
    for layer, ttl in DEFAULT_TTLS.items():
        said = "never expires" if ttl is None else f"{ttl.days} day" if ttl.days == 1 else f"{ttl.days} days"
        assert f"{layer} {names[layer]} ({said}" in shown, (layer, shown)


def test_the_readme_main_command_runs_and_shows_the_expired_flight_filtered(tmp_path: Path) -> None:
    import re
    import shlex
    import shutil

    first_block = re.search(r"```sh\n(.+?)\n```", (REPO / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    assert first_block is not None
    steps = [shlex.split(step) for step in first_block.group(1).split("&&")]
    commands = [step for step in steps if step and step[0] == "vaultmem"]
    assert [command[3] for command in commands] == ["index", "search", "search"]
    shutil.copytree(REPO / "sample_vault", tmp_path / "sample_vault", ignore=shutil.ignore_patterns(".vaultmem"))
    outputs = []
    for command in commands:
        result = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                                env={**os.environ, "PYTHONPATH": str(REPO)})
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    # The flight expired on 2026-11-13, so this holds whenever the suite runs.
    assert "scratch/flight-berlin.md" not in outputs[1]
    assert "scratch/flight-berlin.md" in outputs[2]


@pytest.mark.slow
def test_the_readmes_python_example_runs_as_written_twice_and_leaves_the_repositorys_sample_vault_as_committed(
        tmp_path: Path) -> None:
    """The README audit (s34): its Python example opened ``Vault("sample_vault")`` and remembered,
    revised and superseded notes in it: the repository's own sample vault, which the tests and
    ``eval_ranking`` read as committed, so a new user who ran it then saw tests fail
    (test_index's 40 notes were 42). Run from the repository as a reader pastes it, with the
    copy's path pointed into tmp_path. Run twice (s35): the copy was made with
    ``dirs_exist_ok=True``, so a second run kept the first run's memories and wrote beside them
    (``rui-s-flight-lands-at-18-05-2.md``): 4 memories, not 2."""
    from helpers import SAMPLE_VAULT, snapshot_files

    readme = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.+?)```", readme, re.DOTALL)
    assert block is not None
    script = block.group(1).replace("/tmp/sample_vault", str(tmp_path / "sample_vault"))
    before = snapshot_files(SAMPLE_VAULT)
    for _ in range(2):
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=REPO,
                                env={**os.environ, "PYTHONPATH": str(REPO)})
        assert result.returncode == 0, result.stderr
        assert snapshot_files(SAMPLE_VAULT) == before
        assert len(list((tmp_path / "sample_vault" / "memories").glob("*.md"))) == 2  # remember, then its successor


def test_the_readmes_sample_vault_copy_command_can_be_run_again_without_nesting_the_copy(tmp_path: Path) -> None:
    """The README audit (s35): ``cp -r sample_vault /tmp/sample_vault`` run a second time (or
    after the Python example made that folder) copied the vault into
    ``/tmp/sample_vault/sample_vault``, and the examples then ran on the old copy."""
    import shlex

    readme = "\n".join(path.read_text(encoding="utf-8") for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))])
    commands = set(re.findall(r"`([^`\n]*cp -r sample_vault[^`\n]*)`", readme))
    assert commands
    for command in commands:
        target = tmp_path / "sample_vault"
        pasted = command.replace("/tmp/sample_vault", shlex.quote(str(target)))
        for _ in range(2):
            result = subprocess.run(["bash", "-c", pasted], capture_output=True, text=True, timeout=60, cwd=REPO)
            assert result.returncode == 0, result.stderr
        assert not (target / "sample_vault").exists(), command
        assert (target / "Inbox.md").is_file()


def test_index_piped_draws_no_bar_and_says_a_long_run_in_a_few_lines(vault_dir: Path) -> None:
    # Was silent on stderr when piped: a log of a first index of 16,500 notes held nothing for 8
    # minutes. Now a line as it starts, one per tenth read and one once all are read — no bar.
    for number in range(520):  # past the progress-bar threshold
        (vault_dir / f"n{number:03d}.md").write_text(f"note {number}\n", encoding="utf-8")
    result = vaultmem_process(vault_dir, "index")
    assert result.returncode == 0
    assert "\r" not in result.stderr and "[#" not in result.stderr
    assert result.stderr.splitlines() == ["indexing 520 of 520 notes…", "indexed 512 of 520 notes", "all 520 notes read; "
                                          "finishing the index (its full text and its vector search graph)…"]
    assert "520 added" in result.stdout


def test_index_on_a_terminal_shows_how_many_notes_are_done_and_no_eta(vault_dir: Path) -> None:
    # A trial: the bar showed only a percentage and an ETA by note count; while a few huge
    # notes were embedded it read "69%  00:00:01" for 19 s, as if hung.
    for number in range(520):  # past the progress-bar threshold
        (vault_dir / f"n{number:03d}.md").write_text(f"note {number}\n", encoding="utf-8")
    shown = output_on_a_terminal(vaultmem_command(vault_dir, "index"))
    assert "520/520" in shown
    assert "520 added" in shown
    assert not re.search(r"\d\d:\d\d:\d\d", shown)  # no ETA


def test_index_on_a_terminal_says_what_is_left_once_the_bar_is_full(vault_dir: Path) -> None:
    # A trial on 16,500 notes: the bar stood full for 2 minutes (the full text merged, the vector
    # graph saved) with no word, as if hung.
    for number in range(520):
        (vault_dir / f"n{number:03d}.md").write_text(f"note {number}\n", encoding="utf-8")
    shown = output_on_a_terminal(vaultmem_command(vault_dir, "index"))
    said = shown.rsplit("520/520", 1)[1]  # after the full bar
    assert "all 520 notes read; finishing the index (its full text and its vector search graph)…" in said
    assert said.index("finishing the index") < said.index("520 added")


def output_on_a_terminal(command: list[str]) -> str:
    """What ``command`` writes when its stdout and stderr are a terminal (a pseudo-terminal)."""
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, env=process_env())
    os.close(follower)
    shown = bytearray()
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the process ended: the terminal is closed
            break
        if not data:
            break
        shown += data
    os.close(leader)
    assert process.wait(timeout=60) == 0
    return shown.decode("utf-8", "replace")


def newer_index(vault: Path) -> Path:
    """``vault`` indexed, then its index marked as written by a newer vaultmem (a step this one
    does not know): every process refuses it, saying to upgrade — in its own surface's words."""
    assert vaultmem_process(vault, "index").returncode == 0
    with sqlite3.connect(vault / ".vaultmem" / "index.db") as db:
        db.execute("INSERT INTO _migrations (name, applied_at) VALUES ('m999_from_the_future', '2027-01-01')")
    db.close()
    return vault


# How vaultmem is upgraded where the README installs it (a clone): not `pip install -U vaultmem`.
UPGRADE_COMMAND = "`git pull && pip install -e .` in the clone it is installed from"


def test_watch_logs_what_to_do_in_the_command_lines_words(sample_vault: Path) -> None:
    # Its log said "upgrade vaultmem (`pip install -U vaultmem`) and make a new Vault": the
    # Python API's advice, to a person at a shell.
    result = vaultmem_process(newer_index(sample_vault), "watch")
    assert result.returncode == 1, result.stderr
    logged = [line for line in result.stderr.splitlines() if line.startswith("ERROR: watching ")]
    assert logged and "written by a newer vaultmem" in logged[0], result.stderr
    assert f"upgrade vaultmem ({UPGRADE_COMMAND}). To go back" in logged[0], result.stderr
    assert "Vault" not in result.stderr.replace(str(sample_vault), ""), result.stderr


def test_the_mcp_servers_log_says_what_to_do_in_the_command_lines_words(sample_vault: Path, tmp_path: Path) -> None:
    # The person reads the server's log (the client keeps its stderr in a file), at a shell:
    # the command line's words, not the Python API's (adr/0011).
    async def scenario() -> None:
        async with serve(newer_index(sample_vault), tmp_path / "server.log") as served:
            refused = await served.error("list_notes")
            assert "written by a newer vaultmem" in refused

    run(scenario)
    log = (tmp_path / "server.log").read_text(encoding="utf-8")
    assert "written by a newer vaultmem" in log and f"upgrade vaultmem ({UPGRADE_COMMAND}). To go back" in log, log
    assert "Vault" not in log.replace(str(sample_vault), ""), log


def test_the_mcp_servers_log_lines_say_when_each_thing_happened(sample_vault: Path, tmp_path: Path) -> None:
    # A server runs for days and its log is read afterwards: a line without its time cannot be
    # matched to what the agent saw. (Its logging.basicConfig did nothing: logging was set up.)
    async def scenario() -> None:
        async with serve(sample_vault, tmp_path / "server.log") as served:
            await served.call("list_notes")

    run(scenario)
    lines = [line for line in (tmp_path / "server.log").read_text(encoding="utf-8").splitlines() if "INFO" in line]
    assert any("reconciled" in line for line in lines), lines
    assert all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO: ", line) for line in lines), lines


def test_a_header_says_an_expiry_that_does_not_parse_is_unreadable_not_when_it_expires(tmp_path: Path) -> None:
    # Was: `[-, expires tomorrow]` for `expires_at: tomorrow`, a note that never expires until
    # it is fixed: the header read as a real expiry, the warning below it said otherwise.
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (tmp_path / "call.md").write_text("---\nexpires_at: tomorrow\n---\nCalled mom about the Christmas flights.\n",
                                      encoding="utf-8")
    (tmp_path / "milk.md").write_text("---\nexpires_at: 2099-01-01\n---\nOat milk, never dairy.\n", encoding="utf-8")
    for command in (["list"], ["search", "Christmas flights mom milk"]):
        result = run_cli(tmp_path, *command)
        assert result.exit_code == 0, result.output
        assert "[expires_at 'tomorrow' unreadable" in result.output and "expires tomorrow" not in result.output
        assert "[expires 2099-01-01T00:00:00+00:00" in result.output, result.output


def test_get_shows_a_list_of_last_first_names_with_semicolons(vault_dir: Path, write_note) -> None:
    # Trial (s30): `get Abeler2011` showed "authors: Abeler, Johannes, Falk, Armin, …".
    write_note("literature/@Abeler2011.md", '---\ncitekey: Abeler2011\nauthors: ["Abeler, Johannes", "Falk, Armin"]\n'
                                            "keywords: [loss-aversion, labor-supply]\n---\nReference points and effort.\n")
    lines = run_cli(vault_dir, "get", "@Abeler2011").stdout.splitlines()
    assert "    authors: Abeler, Johannes; Falk, Armin" in lines
    assert "    keywords: loss-aversion, labor-supply" in lines
