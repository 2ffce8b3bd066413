"""Usage history: the one state not derived from the vault, and `stale`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from helpers import run_cli
from vaultmem import NoteNotFound, UsageError, Vault
from vaultmem.results import UsedNote

NOW = "2026-11-30T12:00:00+00:00"


@pytest.fixture
def vault(vault_dir: Path, write_note) -> Vault:
    write_note("old.md", "---\ntitle: Old fact\nlayer: L3\ncreated: 2026-09-01T00:00:00Z\nexpires_at: 2027-09-01\n---\nold\n")
    write_note("recent.md", "---\ntitle: Recent fact\nlayer: L3\ncreated: 2026-11-25T00:00:00Z\nexpires_at: 2027-09-01\n---\nrecent\n")
    write_note("procedure.md", "---\ntitle: Procedure\nlayer: L4\ncreated: 2026-01-01T00:00:00Z\n---\nalways\n")
    write_note("no-created.md", "no frontmatter, no created: the file's mtime counts\n")
    with Vault(vault_dir) as opened:
        opened.index()
        yield opened


def test_mark_used_counts_and_records_the_time(vault: Vault) -> None:
    vault.mark_used(["old"], now="2026-11-01T00:00:00Z")
    used = vault.mark_used(["old.md"], now=NOW)
    assert used == [UsedNote(id="old", path="old.md", use_count=2, last_used_at="2026-11-30T12:00:00+00:00")]


def test_mark_used_with_an_unknown_note_records_nothing(vault: Vault) -> None:
    with pytest.raises(NoteNotFound):
        vault.mark_used(["old", "missing"], now=NOW)
    assert vault.store.usage.all() == []


def test_mark_used_refuses_one_string_for_its_list_of_notes(vault: Vault) -> None:
    # It was read letter by letter: "no note matches 'o'", or a one-letter note marked used.
    with pytest.raises(UsageError, match=r"notes takes a list of strings, not the string 'old': pass notes=\['old'\]"):
        vault.mark_used("old", now=NOW)
    assert vault.store.usage.all() == []


@pytest.mark.parametrize("layers", ["L3", "semantic"])
def test_stale_refuses_one_string_for_its_list_of_layers(vault: Vault, layers: str) -> None:
    with pytest.raises(UsageError, match="layers takes a list of strings"):
        vault.stale(days=42, layers=layers, now=NOW)


def test_stale_lists_old_unused_notes_oldest_first_and_not_used_ones(vault: Vault) -> None:
    vault.mark_used(["recent"], now="2026-11-29T00:00:00Z")
    stale = vault.stale(days=42, now=NOW)
    paths = [note.path for note in stale]
    assert paths[:2] == ["procedure.md", "old.md"]  # every layer counts; oldest first
    assert "recent.md" not in paths
    assert stale[0].basis == "created" and stale[0].use_count == 0


def test_a_used_note_is_not_stale_even_if_created_long_ago(vault: Vault) -> None:
    vault.mark_used(["old"], now="2026-11-20T00:00:00Z")
    assert "old.md" not in [note.path for note in vault.stale(days=42, now=NOW)]


def test_stale_falls_back_to_file_mtime_without_created(vault: Vault) -> None:
    stale = vault.stale(days=0, now="2030-01-01T00:00:00Z")
    basis = {note.path: note.basis for note in stale}
    assert basis["no-created.md"] == "file modified"


def test_stale_layer_filter(vault: Vault) -> None:
    assert [note.path for note in vault.stale(days=42, layers=["procedural"], now=NOW)] == ["procedure.md"]


def test_an_expired_note_is_not_listed_as_stale_unless_asked(vault: Vault, write_note) -> None:
    write_note("gone.md", "---\ntitle: Gone\nlayer: L1\ncreated: 2026-01-01T00:00:00Z\nexpires_at: 2026-01-02T00:00:00\n---\ngone\n")
    vault.index()
    assert "gone.md" not in [note.path for note in vault.stale(days=42, now=NOW)]  # hidden, like in search
    assert "gone.md" in [note.path for note in vault.stale(days=42, now=NOW, include_expired=True)]
    # At an instant before its deadline it is alive, and stale.
    assert "gone.md" in [note.path for note in vault.stale(days=0, now="2026-01-01T12:00:00Z")]
    listed = json.loads(run_cli(vault.root, "stale", "--json").stdout)
    assert "gone.md" not in [note["path"] for note in listed]
    listed = json.loads(run_cli(vault.root, "stale", "--include-expired", "--json").stdout)
    assert "gone.md" in [note["path"] for note in listed]


def test_stale_says_how_many_notes_it_left_out_and_why_in_text_and_beside_the_json(vault: Vault, write_note) -> None:
    # Regression (issue 11 §3): notes judged fresh only by their file's modification time
    # (no usage, no `created`) and expired notes vanished from `stale` without a word.
    write_note("gone.md", "---\nlayer: L1\ncreated: 2026-01-01T00:00:00Z\nexpires_at: 2026-01-02T00:00:00\n---\ngone\n")
    vault.index()
    vault.mark_used(["old"], now=NOW)  # used within the last 42 days
    stale = vault.stale(days=42, now=NOW)
    assert [note.path for note in stale] == ["procedure.md"]
    assert stale.left_out == {
        "used within the last 42 days": 1,
        "never used, created within the last 42 days": 1,
        "no usage and no `created`: their file was modified within the last 42 days "
        "(a copy or a git checkout resets that; add `created` to judge them by it)": 1,
        "already expired: hidden on every read path; Vault.expire() lists them (or Vault.stale(include_expired=True))": 1,
    }
    # The CLI evaluates at the real now: only what holds at any later day is asserted.
    text = run_cli(vault.root, "stale")
    assert text.exit_code == 0
    assert "left out 1 note(s): no usage and no `created`" in text.stdout
    # Said as the shell runs it: Python's Vault.expire() is no command.
    assert ("left out 1 note(s): already expired: hidden on every read path; `vaultmem expire` lists them "
            "(or `vaultmem stale --include-expired`)") in text.stdout
    as_json = run_cli(vault.root, "stale", "--json")
    assert "procedure.md" in [note["path"] for note in json.loads(as_json.stdout)]  # stdout: the contracted list
    beside = json.loads(as_json.stderr)  # stderr: one JSON document, the counts
    left_out = {entry["reason"]: entry["count"] for entry in beside["left_out"]}
    assert left_out[next(reason for reason in stale.left_out if reason.startswith("no usage and no `created`"))] == 1
    assert left_out["already expired: hidden on every read path; `vaultmem expire` lists them "
                    "(or `vaultmem stale --include-expired`)"] == 1
    with_expired = json.loads(run_cli(vault.root, "stale", "--json", "--include-expired").stderr)
    assert not any(entry["reason"].startswith("already expired") for entry in with_expired["left_out"])


@pytest.mark.parametrize("days", [float("nan"), float("inf"), 1e12, -1])
def test_stale_refuses_days_that_are_not_a_usable_number(vault: Vault, days: float) -> None:
    with pytest.raises(UsageError, match="days"):  # was: OverflowError / ValueError, or NaN let through
        vault.stale(days=days, now=NOW)


def test_stale_deletes_nothing(vault: Vault) -> None:
    vault.stale(days=0, now="2031-01-01T00:00:00Z")
    assert sorted(path.name for path in vault.root.glob("*.md")) == ["no-created.md", "old.md", "procedure.md", "recent.md"]


def test_usage_survives_index_rebuild(vault: Vault) -> None:
    vault.mark_used(["old"], now=NOW)
    vault.index(rebuild=True)
    assert vault.get("old").use_count == 1


def test_usage_follows_a_renamed_note_without_an_id(vault: Vault) -> None:
    vault.mark_used(["old"], now=NOW)
    (vault.root / "old.md").rename(vault.root / "renamed.md")
    report = vault.index()
    assert report.moved == [("old.md", "renamed.md")]
    assert vault.get("renamed").use_count == 1


def test_usage_follows_a_note_that_gains_an_id_line(vault: Vault) -> None:
    # Dendron writes an id into a note made outside it: the history stayed under the old
    # path id, and the note read "used 0 time(s)" from then on.
    vault.mark_used(["no-created"], now=NOW)
    note = vault.root / "no-created.md"
    note.write_text("---\nid: k3j4h5g6f7d8s9a0q1w2e3r\ntitle: No Created\ndesc: ''\nupdated: 1705400000000\n"
                    "created: 1705372800000\n---\n" + note.read_text(encoding="utf-8"), encoding="utf-8")
    vault.index()
    assert vault.get("k3j4h5g6f7d8s9a0q1w2e3r").use_count == 1
    assert vault.get("no-created.md").id == "k3j4h5g6f7d8s9a0q1w2e3r"


def test_usage_stays_with_its_id_when_an_id_line_is_changed_by_hand(vault: Vault, write_note) -> None:
    write_note("with-id.md", "---\nid: first-id\n---\nstable\n")
    vault.index()
    vault.mark_used(["first-id"], now=NOW)
    write_note("with-id.md", "---\nid: second-id\n---\nstable\n")
    vault.index()
    assert vault.get("second-id").use_count == 0


def test_usage_of_a_note_with_an_id_survives_moving_folders(vault: Vault, write_note) -> None:
    write_note("a/with-id.md", "---\nid: 01ABCDEF\nlayer: L4\n---\nstable\n")
    vault.index()
    vault.mark_used(["01ABCDEF"], now=NOW)
    (vault.root / "b").mkdir()
    (vault.root / "a/with-id.md").rename(vault.root / "b/with-id.md")
    vault.index()
    assert vault.get("01ABCDEF").path == "b/with-id.md" and vault.get("01ABCDEF").use_count == 1


def test_usage_export_import_roundtrip_into_a_fresh_index(vault: Vault) -> None:
    vault.mark_used(["old", "recent"], now=NOW)
    document = vault.usage_export()
    shutil.rmtree(vault.root / ".vaultmem")
    with Vault(vault.root) as fresh:
        fresh.index()
        assert fresh.usage_import(document) == 2
        assert fresh.get("old").use_count == 1


def test_usage_import_merges_an_older_export_without_setting_newer_use_back(vault: Vault) -> None:
    # A two-machine trial: desktop used a note after laptop exported; importing laptop's
    # export set desktop back to one use at the export's time. Now the larger count and the
    # later use win, and importing the same export again changes nothing.
    later = "2026-12-01T09:00:00+00:00"
    vault.mark_used(["old"], now=NOW)
    document = vault.usage_export()
    vault.mark_used(["old"], now=later)
    vault.mark_used(["old"], now=later)
    assert vault.usage_import(document) == 1
    kept = vault.get("old")
    assert kept.use_count == 3 and kept.last_used_at == later
    assert vault.usage_import(document) == 1
    assert vault.get("old").use_count == 3
    newer = vault.usage_export()
    newer["usage"] = [{**row, "use_count": 5, "last_used_at": "2026-12-02T10:00:00+00:00"} for row in newer["usage"]]
    vault.usage_import(newer)
    assert vault.get("old").use_count == 5 and vault.get("old").last_used_at == "2026-12-02T10:00:00+00:00"


def test_usage_export_to_a_file_says_what_it_wrote_and_to_stdout_writes_only_the_json(vault: Vault, tmp_path: Path) -> None:
    vault.mark_used(["old", "recent"], now=NOW)
    target = tmp_path / "usage.json"
    result = run_cli(vault.root, "usage", "export", str(target))
    assert result.exit_code == 0 and result.stderr == f"exported usage of 2 note(s) to {target}\n"  # was silent
    assert result.stdout == ""  # stdout may be the file itself (/dev/stdout): the JSON alone goes there
    assert len(json.loads(target.read_text(encoding="utf-8"))["usage"]) == 2
    assert len(json.loads(run_cli(vault.root, "usage", "export").stdout)["usage"]) == 2


@pytest.mark.parametrize("document", [{}, {"version": 2, "usage": []}, {"version": 1, "usage": [{"note_id": "x", "use_count": 0, "last_used_at": NOW}]},
                                      {"version": 1, "usage": [{"note_id": "x", "use_count": 1, "last_used_at": "yesterday"}]},
                                      {"version": 1, "usage": [{"note_id": "x", "use_count": 10**23, "last_used_at": NOW}]},
                                      {"version": 1, "usage": [{"note_id": "x", "use_count": -5, "last_used_at": NOW}]},
                                      {"version": 1, "usage": [{"note_id": "x", "use_count": 1, "last_used_at": "9999-12-31T23:59:59-23:00"}]}])
def test_usage_import_refuses_bad_documents_entirely(vault: Vault, document: dict) -> None:
    with pytest.raises(ValueError):
        vault.usage_import(document)
    assert vault.store.usage.all() == []


def test_cli_used_stale_and_usage_export_import(vault_dir: Path, vault: Vault, tmp_path: Path) -> None:
    assert run_cli(vault_dir, "used", "old", "recent").exit_code == 0
    exported = tmp_path / "usage.json"
    assert run_cli(vault_dir, "usage", "export", str(exported)).exit_code == 0
    assert {row["note_id"] for row in json.loads(exported.read_text())["usage"]} == {"old", "recent"}
    assert run_cli(vault_dir, "usage", "import", str(exported)).exit_code == 0
    stale = json.loads(run_cli(vault_dir, "stale", "--days", "100000", "--json").stdout)
    assert stale == []
    everything = json.loads(run_cli(vault_dir, "stale", "--days", "0", "--json").stdout)
    assert {"path", "last_used_at", "use_count"} <= set(everything[0])


def test_cli_usage_import_of_garbage_is_a_usage_error(vault_dir: Path, vault: Vault, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert run_cli(vault_dir, "usage", "import", str(bad)).exit_code == 2
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"version": 1, "usage": [{"note_id": ""}]}', encoding="utf-8")
    result = run_cli(vault_dir, "usage", "import", str(wrong))
    assert result.exit_code == 2 and "note_id" in result.stderr


def test_cli_usage_import_of_json_nested_too_deeply_is_a_usage_error_naming_the_file(vault_dir: Path, vault: Vault,
                                                                                      tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    result = run_cli(vault_dir, "usage", "import", str(deep))  # was: RecursionError out of json.loads
    assert result.exit_code == 2
    assert f"{deep} is nested too deeply" in result.stderr


def test_usage_error_is_a_value_error() -> None:
    assert issubclass(UsageError, ValueError)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"version": 1, "usage": [{"note_id": "old", "use_count": 100000000000000000000000, "last_used_at": "2026-11-01"}]}', "use_count"),
        (b'{"version": 1, "usage": [{"note_id": "old", "use_count": -3, "last_used_at": "2026-11-01"}]}', "use_count"),
        (b'\xff\xfe{"version": 1}', "not UTF-8"),
        (b'{"version": 1, "usage": [{"note_id": "old", "use_count": ' + b"9" * 5000 + b', "last_used_at": "2026-11-01"}]}', "not JSON"),
    ],
)
def test_cli_usage_import_of_an_impossible_file_is_a_usage_error_and_imports_nothing(
        vault_dir: Path, vault: Vault, tmp_path: Path, content: bytes, said: str) -> None:
    assert run_cli(vault_dir, "used", "recent").exit_code == 0
    before = vault.store.usage.all()
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    result = run_cli(vault_dir, "usage", "import", str(bad))
    assert result.exit_code == 2, result.output  # was: OverflowError / UnicodeDecodeError tracebacks
    assert said in result.stderr and "Traceback" not in result.stderr and len(result.stderr) < 600
    assert vault.store.usage.all() == before


def test_the_text_shows_the_last_use_to_the_second_and_json_keeps_it_whole(vault: Vault) -> None:
    """A person's trial (s34): `used` and `get` printed `last 2026-12-02T11:55:37.455181+00:00`."""
    used = run_cli(vault.root, "used", "recent.md")
    shown = run_cli(vault.root, "get", "recent.md")
    stale = run_cli(vault.root, "stale", "--days", "0")
    whole = json.loads(run_cli(vault.root, "used", "recent.md", "--json").stdout)
    assert used.exit_code == 0, used.output
    for text in (used.stdout, shown.stdout, stale.stdout):
        assert re.search(r"last (use )?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", text), text
        assert not re.search(r"T\d\d:\d\d:\d\d\.\d", text), text
    assert whole[0]["last_used_at"] == vault.get("recent.md").last_used_at  # as stored, fraction and all
