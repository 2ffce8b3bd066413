"""Per-vault settings in ``<vault>/.vaultmem.toml``: defaults, overrides, and clear errors."""

from __future__ import annotations

import importlib.util
import json
import subprocess

from datetime import timedelta
from pathlib import Path

import pytest

from helpers import NOW, run_cli, run_json
from vaultmem import Vault, expires_at_for, parse_timestamp
from vaultmem.config import CONFIG_FILE, McpSettings, VaultConfig, load_config
from vaultmem.errors import ConfigError


def write_config(vault: Path, text: str) -> None:
    (vault / CONFIG_FILE).write_text(text, encoding="utf-8")


def test_a_missing_config_file_means_the_documented_defaults(vault_dir: Path) -> None:
    config = load_config(vault_dir)
    assert config == VaultConfig()
    assert config.archive_dir == "_archive"
    assert config.embedder == "wordllama"
    assert [config.policy.ttl(layer) for layer in ("L1", "L2", "L3", "L4")] == [
        timedelta(days=1), timedelta(days=7), timedelta(days=90), None
    ]


def test_ttl_overrides_apply_per_layer_and_keep_the_other_defaults(vault_dir: Path) -> None:
    write_config(vault_dir, '[ttl]\nL1 = "12h"\nsemantic = "30d"\n')
    policy = load_config(vault_dir).policy
    assert policy.ttl("L1") == timedelta(hours=12)
    assert policy.ttl("L2") == timedelta(days=7)
    assert policy.ttl("L3") == timedelta(days=30)
    assert policy.ttl("L4") is None
    assert parse_timestamp(expires_at_for("working", now=NOW, policy=policy)) == parse_timestamp(NOW) + timedelta(hours=12)


def test_ttl_layer_keys_are_case_insensitive(vault_dir: Path) -> None:
    write_config(vault_dir, '[ttl]\nl2 = "2w"\nEPISODIC = "2w"\n')
    assert load_config(vault_dir).policy.ttl("L2") == timedelta(weeks=2)


def test_a_ttl_for_l4_is_refused_because_l4_never_expires(vault_dir: Path) -> None:
    write_config(vault_dir, '[ttl]\nL4 = "365d"\n')
    with pytest.raises(ConfigError, match="L4"):
        load_config(vault_dir)


@pytest.mark.parametrize(("line", "named"), [('L9 = "1d"', "L9"), ('L1 = "soon"', "soon"), ("L1 = 3", "3"), ('L2 = "0d"', "0d")])
def test_bad_ttl_lines_are_errors_naming_the_file_and_value(vault_dir: Path, line: str, named: str) -> None:
    write_config(vault_dir, f"[ttl]\n{line}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert named in str(caught.value)
    assert CONFIG_FILE in str(caught.value)


def test_unknown_settings_are_refused_with_the_valid_ones(vault_dir: Path) -> None:
    write_config(vault_dir, 'embeder = "hashing"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert "embeder" in str(caught.value) and "embedder" in str(caught.value)


@pytest.mark.parametrize(("text", "said"), [
    ("[git]\nauto_commit = true\n", "auto_commit belongs at the top of the file, above the first [table] line, not in [git]"),
    ("[consolidate]\nthreshold = 0.9\nauto_commit = true\n", "auto_commit belongs at the top of the file"),
    ("similar_threshold = 0.8\n", "similar_threshold belongs in [consolidate]"),
    ("[watch]\nallow_hard_delete = true\n", "allow_hard_delete belongs in [mcp]"),
    # Was: "'auto_commit' is not a layer; name one of L1 …", the line under [ttl] not placed.
    ('[ttl]\nL1 = "1d"\nauto_commit = true\n', "auto_commit belongs at the top of the file, above the first [table] "
                                                 "line, not in [ttl]"),
    # Was: only the move said, the typo beside it named with no fix.
    ("similar_threshold = 0.8\nembeder = \"hashing\"\n", "similar_threshold belongs in [consolidate]; remove or correct "
                                                          "embeder; valid: archive_dir, auto_commit"),
    ("[ttl]\nthreshold = 0.9\n", "threshold belongs in [consolidate]"),
    # a layer's TTL anywhere but [ttl]
    ('L1 = "2d"\n', "L1 belongs in [ttl]"),
    ('[mcp]\nL2 = "3d"\n', "L2 belongs in [ttl]"),
    ('[layers]\nworking = "2d"\n', "working belongs in [ttl], not in [layers]"),
])
def test_a_setting_written_in_the_wrong_place_is_refused_saying_where_it_belongs(vault_dir: Path, text: str, said: str) -> None:
    # TOML puts every line after a [table] header into that table: `auto_commit = true` under
    # [consolidate] is consolidate.auto_commit, which the bare list of valid keys never explains.
    write_config(vault_dir, text)
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert said in str(caught.value)


def test_invalid_toml_is_an_error_naming_the_file(vault_dir: Path) -> None:
    write_config(vault_dir, "[ttl\nL1 = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(vault_dir)


@pytest.mark.parametrize("value", ["../outside", "/tmp/archive", "a\\\\b", "", "."])
def test_archive_dir_must_be_a_folder_inside_the_vault(vault_dir: Path, value: str) -> None:
    write_config(vault_dir, f'archive_dir = "{value}"\n')
    with pytest.raises(ConfigError, match="archive_dir"):
        load_config(vault_dir)


@pytest.mark.parametrize(("value", "normalized"), [("Archive/", "Archive"), ("./_old", "_old"), ("a//b", "a/b")])
def test_archive_dir_is_normalized_so_the_scan_really_skips_it(vault_dir: Path, value: str, normalized: str) -> None:
    write_config(vault_dir, f'archive_dir = "{value}"\n')
    config = load_config(vault_dir)
    assert config.archive_dir == normalized
    from vaultmem.paths import VaultPaths

    assert not VaultPaths(vault_dir, config.archive_dir).is_note_path(f"{normalized}/old.md")


@pytest.mark.parametrize(
    "text",
    ['auto_commit = "yes"', "embedder = 5", 'embedder = ""', "[watch]\ndebounce_ms = -1", "[consolidate]\nthreshold = 1.5",
     "[consolidate]\nwindow = 0", "[watch]\npoll = 1", "ttl = 3", "[consolidate]\nsimilar_threshold = 0",
     "[consolidate]\nsimilar_threshold = 1.5", '[consolidate]\nsimilar_threshold = "0.8"'],
)
def test_wrongly_typed_or_out_of_range_settings_are_refused(vault_dir: Path, text: str) -> None:
    write_config(vault_dir, text + "\n")
    with pytest.raises(ConfigError):
        load_config(vault_dir)


def test_settings_are_read(vault_dir: Path) -> None:
    write_config(vault_dir, 'archive_dir = "Archive"\nauto_commit = true\nembedder = "hashing"\n'
                            "[watch]\ndebounce_ms = 50\n[consolidate]\nthreshold = 0.9\nwindow = 100\n")
    config = load_config(vault_dir)
    assert (config.archive_dir, config.auto_commit, config.embedder) == ("Archive", True, "hashing")
    assert config.watch.debounce_ms == 50
    assert (config.consolidate.threshold, config.consolidate.window) == (0.9, 100)


def test_similar_threshold_is_its_own_setting_below_the_merge_threshold(vault_dir: Path) -> None:
    # A trial: two L4 notes at cosine 0.876 were not listed as similar (merging's 0.88 was used).
    assert (load_config(vault_dir).consolidate.threshold, load_config(vault_dir).consolidate.similar_threshold) == (0.88, 0.83)
    write_config(vault_dir, "[consolidate]\nsimilar_threshold = 0.8\n")
    assert (load_config(vault_dir).consolidate.threshold, load_config(vault_dir).consolidate.similar_threshold) == (0.88, 0.8)
    write_config(vault_dir, "[consolidate]\nthreshold = 0.9\nsimilar_threshold = 0.95\n")
    assert load_config(vault_dir).consolidate.similar_threshold == 0.95


def test_similar_threshold_unset_lists_at_least_what_consolidate_would_merge(vault_dir: Path) -> None:
    write_config(vault_dir, "[consolidate]\nthreshold = 0.8\n")
    assert load_config(vault_dir).consolidate.similar_threshold == 0.8
    write_config(vault_dir, "[consolidate]\nthreshold = 0.95\n")
    assert load_config(vault_dir).consolidate.similar_threshold == 0.83


def test_a_bad_similar_threshold_names_its_key(vault_dir: Path) -> None:
    write_config(vault_dir, "[consolidate]\nsimilar_threshold = 2\n")
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert [each.key for each in caught.value.every] == ["consolidate.similar_threshold"]
    assert "between 0.01 and 1" in str(caught.value)


def test_the_mcp_table_defaults_to_no_hard_delete_and_no_foreign_origin(vault_dir: Path) -> None:
    assert load_config(vault_dir).mcp == McpSettings(allow_hard_delete=False, allowed_origins=())


def test_mcp_settings_are_read_and_origins_normalized_as_browsers_send_them(vault_dir: Path) -> None:
    write_config(vault_dir, '[mcp]\nallow_hard_delete = true\nallowed_origins = ["HTTPS://Memory.Example.com/", '
                            '"http://localhost:8080", "https://example.org:443", "http://[::1]:9000"]\n')
    settings = load_config(vault_dir).mcp
    assert settings.allow_hard_delete is True
    assert settings.allowed_origins == ("https://memory.example.com", "http://localhost:8080", "https://example.org",
                                        "http://[::1]:9000")


@pytest.mark.parametrize(
    ("origins", "named"),
    [('["*"]', "every web page"), ('["https://example.com/app"]', "not an origin"), ('["example.com"]', "not an origin"),
     ('["ftp://example.com"]', "not an origin"), ('["null"]', "not an origin"), ('"https://example.com"', "must be a list"),
     ("[5]", "not an origin"), ('["https://user:pw@example.com"]', "not an origin")],
)
def test_an_allowed_origin_that_could_match_nothing_or_everything_is_refused(vault_dir: Path, origins: str, named: str) -> None:
    write_config(vault_dir, f"[mcp]\nallowed_origins = {origins}\n")
    with pytest.raises(ConfigError, match="mcp.allowed_origins") as caught:
        load_config(vault_dir)
    assert named in str(caught.value)


@pytest.mark.parametrize("text", ['[mcp]\nallow_hard_delete = "yes"', "[mcp]\nallow_delete = true"])
def test_mcp_settings_are_checked_like_the_others(vault_dir: Path, text: str) -> None:
    write_config(vault_dir, text + "\n")
    with pytest.raises(ConfigError, match="mcp.allow"):
        load_config(vault_dir)


def test_a_vault_reads_its_config_once_at_construction(vault_dir: Path) -> None:
    write_config(vault_dir, 'embedder = "hashing:32"\n')
    vault = Vault(vault_dir)
    assert vault.config.embedder == "hashing:32"
    assert vault.embedder_identity == "hashing:32"
    write_config(vault_dir, 'embedder = "wordllama"\n')
    assert vault.embedder_identity == "hashing:32"  # passed down, not re-read behind the caller's back


def test_an_unknown_embedder_is_a_config_error(vault_dir: Path) -> None:
    write_config(vault_dir, 'embedder = "openai"\n')
    with pytest.raises(ConfigError, match="openai"):
        Vault(vault_dir).embedder_identity


def test_a_bad_config_reaches_the_cli_as_a_usage_error_not_a_traceback(vault_dir: Path) -> None:
    write_config(vault_dir, '[ttl]\nL4 = "1d"\n')
    result = run_cli(vault_dir, "search", "anything")
    assert result.exit_code == 2, result.output
    assert f"{vault_dir / CONFIG_FILE}: [ttl] L4:" in result.stderr and "remove this line" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_ttl_no_date_can_hold_is_a_usage_error_naming_the_file_the_key_and_the_fix(vault_dir: Path) -> None:
    write_config(vault_dir, '[ttl]\nL1 = "99999999999d"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert (caught.value.key, caught.value.source) == ("[ttl] L1", str(vault_dir / CONFIG_FILE))
    for command in (["remember", "x", "--layer", "L1"], ["index"], ["check", "--fix"]):
        result = run_cli(vault_dir, *command)
        assert result.exit_code == 2, (command, result.output)  # a usage error, as a bad option is
        assert f"{vault_dir / CONFIG_FILE}: [ttl] L1: invalid duration '99999999999d'" in result.stderr
        assert "give a shorter duration, at most 365000d" in result.stderr and "Traceback" not in result.stderr
    assert not (vault_dir / ".vaultmem").exists() and not (vault_dir / "memories").exists()


def test_check_reports_a_config_that_does_not_load_as_its_problem(vault_dir: Path) -> None:
    """`check` is where a person looks for what is wrong: the bad setting is its one problem
    (no note is checked: which files are notes comes from that file), exit 1 like any problem."""
    write_config(vault_dir, '[ttl]\nL1 = "99999999999d"\n')
    (vault_dir / "note.md").write_text("---\nlayer: L1\n---\nA memory.\n", encoding="utf-8")
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["files"] == 0
    assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [(CONFIG_FILE, "[ttl] L1")]
    assert "99999999999d" in report["problems"][0]["message"] and "at most 365000d" in report["problems"][0]["fix"]
    text = run_cli(vault_dir, "check")
    assert text.exit_code == 1 and f"! {CONFIG_FILE}: [ttl] L1: invalid duration" in text.stdout
    write_config(vault_dir, '[ttl]\nL1 = "2d"\n')
    assert run_json(vault_dir, "check")["files"] == 1  # fixed: the notes are checked again


def test_every_bad_setting_is_said_at_once_not_the_first_alone(vault_dir: Path) -> None:
    # A trial fixed `auto-commit`, ran again, and only then learned that L1 = "2 days" was wrong too.
    write_config(vault_dir, 'auto-commit = true\narchive_dir = "../out"\n[ttl]\nL1 = "2 days"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert [each.key for each in caught.value.every] == ["auto-commit", "archive_dir", "[ttl] L1"]
    refused = run_cli(vault_dir, "search", "anything")
    assert refused.exit_code == 2 and all(key in refused.stderr for key in ("auto-commit", "archive_dir", "[ttl] L1: invalid duration"))
    report = run_json(vault_dir, "check")
    assert [problem["field"] for problem in report["problems"]] == ["auto-commit", "archive_dir", "[ttl] L1"]
    # Inside a table too: each bad line, not the table's first (a review).
    write_config(vault_dir, '[ttl]\nL1 = "x"\nL2 = "y"\n[watch]\ndebounce_ms = -1\nrescan_seconds = "z"\n'
                            '[mcp]\nallow_hard_delete = "yes"\nallowed_origins = "*"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert [each.key for each in caught.value.every] == ["[ttl] L1", "[ttl] L2", "watch.debounce_ms", "watch.rescan_seconds",
                                                         "mcp.allow_hard_delete", "mcp.allowed_origins"]
    # An unknown key in a table does not hide its known keys' problems, nor one origin the next (a review).
    write_config(vault_dir, '[consolidate]\nthreshold = 2\nbogus = 1\n[mcp]\nallowed_origins = ["ftp://x", 5]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(vault_dir)
    assert [each.key for each in caught.value.every] == ["consolidate.bogus", "consolidate.threshold",
                                                         "mcp.allowed_origins", "mcp.allowed_origins"]


def test_check_reports_auto_commit_in_a_vault_git_does_not_hold(vault_dir: Path) -> None:
    # The README audit: only a write found it ("auto_commit is on … not a git repository"); check said nothing.
    write_config(vault_dir, "auto_commit = true\n")
    (vault_dir / "note.md").write_text("A note.\n", encoding="utf-8")
    report = run_json(vault_dir, "check")
    assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [(CONFIG_FILE, "auto_commit")]
    assert "git init" in report["problems"][0]["fix"] and report["files"] == 1
    subprocess.run(["git", "init", "-q"], cwd=vault_dir, check=True)
    assert run_json(vault_dir, "check")["problems"] == []


def test_check_reports_an_embedder_that_is_not_one_as_its_problem(vault_dir: Path) -> None:
    """The embedder's name is read only when vectors are needed; `check` still reports it,
    as the problem `search` and `remember` refuse to run with (and --fix refuses it too)."""
    write_config(vault_dir, 'embedder = "bogus"\n')
    (vault_dir / "note.md").write_text("---\nlayer: L4\n---\nA memory.\n", encoding="utf-8")
    refused = run_cli(vault_dir, "search", "memory")
    assert refused.exit_code == 2 and "embedder: 'bogus' is not an embedder" in refused.stderr
    result = run_cli(vault_dir, "check", "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [(CONFIG_FILE, "embedder")]
    assert "'bogus' is not an embedder" in report["problems"][0]["message"]
    assert "use 'wordllama'" in report["problems"][0]["fix"]
    text = run_cli(vault_dir, "check")
    assert text.exit_code == 1 and f"! {CONFIG_FILE}: embedder: 'bogus' is not an embedder" in text.stdout
    fixing = run_cli(vault_dir, "check", "--fix")
    assert fixing.exit_code == 2 and "embedder: 'bogus' is not an embedder" in fixing.stderr
    write_config(vault_dir, 'embedder = "hashing:32"\n')
    assert run_json(vault_dir, "check")["ok"] is True  # a valid name passes, with no model loaded


BAD_EMBEDDERS = [
    ("hashing:0", "whole number from 8 to 4096"),  # index/search died of ZeroDivisionError
    ("hashing:abc", "whole number from 8 to 4096"),  # silently fell back to 64
    ("hashing:99999", "whole number from 8 to 4096"),
    ("wordllama:xyz", "wordllama takes no argument"),  # the argument was silently ignored
    ("sentence-transformers", "names no model"),
    ("sentence-transformers:/nonexistent/model", "is not a local folder"),  # check passed, index refused
]


@pytest.mark.parametrize(("spec", "problem"), BAD_EMBEDDERS)
def test_check_refuses_every_embedder_setting_the_other_commands_refuse(vault_dir: Path, spec: str, problem: str) -> None:
    """`check` validates the whole setting — name, argument, model folder — as making the
    embedder does: it never passes a config `index` then crashes on or refuses."""
    write_config(vault_dir, f'embedder = "{spec}"\n')
    (vault_dir / "note.md").write_text("---\nlayer: L4\n---\nA memory.\n", encoding="utf-8")
    report = run_json(vault_dir, "check")
    assert report["ok"] is False and report["files"] == 0  # type: ignore[index]
    assert [(item["path"], item["field"]) for item in report["problems"]] == [(CONFIG_FILE, "embedder")]  # type: ignore[index]
    assert problem in report["problems"][0]["message"]  # type: ignore[index]
    for command in (["index"], ["search", "memory"], ["check", "--fix"]):
        refused = run_cli(vault_dir, *command)
        assert refused.exit_code == 2, (command, refused.output)
        assert f"{vault_dir / CONFIG_FILE}: embedder: " in refused.stderr and problem in refused.stderr
        assert "Traceback" not in refused.stderr + refused.stdout


@pytest.mark.parametrize("spec", ["hashing", "hashing:8", "hashing:4096", "wordllama"])
def test_check_passes_every_embedder_setting_that_works(vault_dir: Path, spec: str) -> None:
    write_config(vault_dir, f'embedder = "{spec}"\n')
    assert run_json(vault_dir, "check")["ok"] is True  # type: ignore[index]


def test_a_relative_model_folder_is_read_from_the_vault_not_the_working_directory(
        vault_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The config lives in the vault: `models/mini` there is the same model whichever folder
    vaultmem is started from (an MCP client starts it from anywhere)."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "models" / "mini").mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    write_config(vault_dir, 'embedder = "sentence-transformers:models/mini"\n')
    report = run_json(vault_dir, "check")
    assert [item["field"] for item in report["problems"]] == ["embedder"]  # type: ignore[index]
    assert str(vault_dir / "models" / "mini") in report["problems"][0]["message"]  # type: ignore[index]
    (vault_dir / "models" / "mini").mkdir(parents=True)
    report = run_json(vault_dir, "check")
    # Found now; what may remain is the optional package, when this environment lacks it (below).
    assert all("models/mini" not in item["message"] for item in report["problems"]), report  # type: ignore[index]
    assert report["ok"] is (importlib.util.find_spec("sentence_transformers") is not None)  # type: ignore[index]
    assert Vault(vault_dir).embedder_identity == "sentence-transformers:models/mini"  # as written: the same on any machine


@pytest.mark.skipif(importlib.util.find_spec("sentence_transformers") is not None,
                    reason="the sentence-transformers extra is installed here")
def test_a_sentence_transformers_embedder_without_its_extra_is_refused_with_the_install_not_a_traceback(
        vault_dir: Path) -> None:
    """The README audit (s35): the config example offers `sentence-transformers:<model dir>`; with
    the folder there but the optional extra not installed, `check` said all was well and `index`
    died of a ModuleNotFoundError traceback at the first note it embedded."""
    (vault_dir / "models" / "mini").mkdir(parents=True)
    write_config(vault_dir, 'embedder = "sentence-transformers:models/mini"\n')
    (vault_dir / "note.md").write_text("A memory.\n", encoding="utf-8")
    report = run_json(vault_dir, "check")
    assert [(item["path"], item["field"]) for item in report["problems"]] == [(CONFIG_FILE, "embedder")]  # type: ignore[index]
    assert "sentence-transformers package is not installed" in report["problems"][0]["message"]  # type: ignore[index]
    refused = run_cli(vault_dir, "index")
    assert refused.exit_code == 2, refused.output
    assert 'pip install -e ".[sentence-transformers]"' in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr + refused.stdout


def test_the_python_api_check_reports_the_embedder_setting_as_the_cli_does(vault_dir: Path) -> None:
    """Vault.check is what the CLI and the MCP check tool call: a setting every other call
    refuses is its one problem, and check(fix=True) refuses it without writing anything."""
    write_config(vault_dir, 'embedder = "bogus"\n')
    note = vault_dir / "note.md"
    note.write_text("---\nlayer: L1\ncreated: 2026-11-30T10:00:00+00:00\n---\nA memory.\n", encoding="utf-8")
    before = note.read_bytes()
    report = Vault(vault_dir).check(now=NOW)
    assert not report.ok and report.files == 0
    assert [(problem.path, problem.field) for problem in report.problems] == [(CONFIG_FILE, "embedder")]
    with pytest.raises(ConfigError, match="'bogus' is not an embedder"):
        Vault(vault_dir).check(fix=True, now=NOW)
    assert note.read_bytes() == before  # the missing expires_at was not stamped under a refused config
    write_config(vault_dir, 'embedder = "hashing"\n')
    assert [problem.field for problem in Vault(vault_dir).check(now=NOW).problems] == ["expires_at"]  # notes checked again


def test_a_config_file_nested_too_deeply_is_a_config_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE).write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="nested too deeply to read"):  # was: RecursionError out of tomllib
        load_config(tmp_path)
