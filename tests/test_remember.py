"""remember: the agent's one-call write path, with the layer policy applied for it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import REPO, process_env, run_cli, run_json, snapshot_files, vaultmem_command
from vaultmem import (
    InvalidDuration,
    InvalidTimestamp,
    NoteNotFound,
    PathOutsideVault,
    UnknownLayer,
    UsageError,
    Vault,
    parse_timestamp,
)

NOW = "2026-11-30T12:00:00+00:00"


def frontmatter_of(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    block = text.split("---\n")[1]
    return yaml.safe_load(block)


@pytest.fixture
def vault(vault_dir: Path) -> Vault:
    with Vault(vault_dir) as opened:
        yield opened


@pytest.mark.parametrize(
    ("layer", "expected_days"),
    [("L1", 1), ("working", 1), ("L2", 7), ("episodic", 7), ("l3", 90), ("Semantic", 90)],
)
def test_remember_applies_the_layer_default_ttl(vault: Vault, layer: str, expected_days: int) -> None:
    result = vault.remember("Maya moved the standup", layer=layer, now=NOW)
    meta = frontmatter_of(vault.root / result.path)
    expires = parse_timestamp(meta["expires_at"])
    assert (expires - parse_timestamp(NOW)).days == expected_days
    assert result.expires_at == expires.isoformat()
    assert meta["layer"] == result.layer and meta["layer"].startswith("L")


def test_a_memory_remembered_without_tags_has_no_tags_key_and_still_reads_as_no_tags(vault: Vault) -> None:
    # Was `tags: []`: an empty Tags property in Obsidian's Properties view, on a note nobody tagged.
    result = vault.remember("The plumber comes on Tuesday", title="Plumber", layer="L3", now=NOW)
    text = (vault.root / result.path).read_text(encoding="utf-8")
    assert "tags" not in text, text
    assert list(frontmatter_of(vault.root / result.path)) == ["id", "title", "layer", "created", "expires_at"]
    assert result.tags == [] and vault.get(result.path, now=NOW).tags == []
    tagged = vault.revise(result.path, add_tags=["home"], now=NOW)
    assert tagged.tags == ["home"] and frontmatter_of(vault.root / result.path)["tags"] == ["home"]


def test_remember_writes_id_title_layer_tags_created_in_order(vault: Vault) -> None:
    result = vault.remember("The cat is allergic to chicken", title="Pimenta allergy", layer="L3", tags=["pets", "#health"], now=NOW)
    meta = frontmatter_of(vault.root / result.path)
    assert list(meta) == ["id", "title", "layer", "tags", "created", "expires_at"]
    assert meta["id"] == result.id and len(result.id) == 26
    assert meta["title"] == "Pimenta allergy"
    assert meta["tags"] == ["pets", "health"]
    assert parse_timestamp(meta["created"]) == parse_timestamp(NOW)
    text = (vault.root / result.path).read_text(encoding="utf-8")
    assert "created: 2026-11-30T12:00:00+00:00" in text  # UTC with an explicit offset


def test_remember_body_is_the_text_as_given_ending_with_a_newline(vault: Vault) -> None:
    text = "  line one\n\n- a bullet with trailing spaces   \nno final newline"
    result = vault.remember(text, title="t", now=NOW)
    raw = (vault.root / result.path).read_text(encoding="utf-8")
    # Byte for byte, plus the final newline a text file ends with (git: "\ No newline at end of file").
    assert raw.split("---\n", 2)[2] == text + "\n"
    ended = vault.remember("already ends\n", title="t2", now=NOW)
    assert (vault.root / ended.path).read_text(encoding="utf-8").endswith("---\nalready ends\n")


def test_explicit_expires_at_wins_over_the_layer_default(vault: Vault) -> None:
    result = vault.remember("Dentist", layer="L1", expires_at="2027-01-15T09:00:00+01:00", now=NOW)
    assert result.expires_at == "2027-01-15T08:00:00+00:00"


def test_ttl_wins_over_the_layer_default(vault: Vault) -> None:
    result = vault.remember("Dentist", layer="L3", ttl="12h", now=NOW)
    assert result.expires_at == "2026-12-01T00:00:00+00:00"


@pytest.mark.parametrize("kwargs", [{"layer": "L4"}, {"layer": "procedural"}, {"layer": "L2", "permanent": True}])
def test_l4_and_permanent_notes_carry_no_expires_at_key(vault: Vault, kwargs: dict) -> None:
    result = vault.remember("Always run the tests before deploying", now=NOW, **kwargs)
    meta = frontmatter_of(vault.root / result.path)
    assert "expires_at" not in meta
    assert result.expires_at is None


def test_remembered_note_is_searchable_immediately(vault: Vault) -> None:
    vault.index()
    result = vault.remember("The wifi password at the Porto flat is zxqv-4471", layer="L3", now=NOW)
    hits = vault.search("zxqv-4471", k=3, now=NOW)
    assert hits[0].path == result.path


def test_remember_in_a_vault_never_indexed_indexes_the_rest_too(vault: Vault, write_note) -> None:
    write_note("old.md", "---\nlayer: L4\n---\nThe espresso machine needs descaling monthly\n")
    vault.remember("New fact about espresso beans", layer="L3", now=NOW)
    paths = {hit.path for hit in vault.search("espresso", k=5, now=NOW)}
    assert "old.md" in paths and len(paths) == 2


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"layer": "L9"}, UnknownLayer, ["L9", "L1", "L4"]),
        ({"ttl": "three days"}, InvalidDuration, ["three days"]),
        ({"expires_at": "next tuesday"}, InvalidTimestamp, ["next tuesday"]),
        # The API names its own arguments (the CLI spells them as flags: test_cli_contradictory_options…).
        ({"layer": "L4", "ttl": "3d"}, UsageError, ["layer L4 (procedural, never expires) contradicts ttl"]),
        ({"permanent": True, "expires_at": "2027-01-01"}, UsageError, ["permanent contradicts expires_at"]),
        ({"ttl": "3d", "expires_at": "2027-01-01"}, UsageError, ["expires_at contradicts ttl"]),
        ({"tags": ["two words"]}, UsageError, ["two words"]),
        # Were written, then the commit failed on the NUL ("embedded null byte") and the agent saw an error: it retried.
        ({"title": "Kyoto\x00 plan"}, UsageError, ["U+0000", "position 6"]),
        ({"title": "evil \u202etxt.exe"}, UsageError, ["U+202E", "text-direction"]),  # turns the terminal's text around
        ({"title": "line one\nline two"}, UsageError, ["U+000A"]),
        ({"title": "x" * 5000}, UsageError, ["5,000 characters", "at most 200"]),  # was a 5,000-character commit subject
        ({"tags": ["../x"]}, UsageError, ["'../x'", "letters, digits"]),  # the message said so; the tag was written
        ({"tags": ["x\x00y"]}, UsageError, ["letters, digits"]),
        ({"tags": ["t" * 3000]}, UsageError, ["at most 100"]),
        ({"expires_at": "2026-11-29"}, UsageError, ["2026-11-29T00:00:00+00:00", "not in the future", "hidden at once"]),
        ({"expires_at": NOW}, UsageError, ["not in the future"]),  # expired iff expires_at <= now: the boundary too
        ({"expires_at": "2026-11-30T13:00:00+02:00"}, UsageError, ["2026-11-30T11:00:00+00:00", "not in the future"]),
        # A str is an iterable of strings: the note was written with the tags t, r, a, v, e, l.
        ({"tags": "travel"}, UsageError, ["tags takes a list of strings", "tags=['travel']"]),
        ({"supersedes": b"old-note"}, UsageError, ["supersedes takes a list of strings"]),
        ({"supersedes": "old-note"}, NoteNotFound, ["old-note"]),  # one note, by a name none has
    ],
)
def test_bad_input_writes_nothing_and_says_why(vault: Vault, kwargs: dict, error: type, words: list[str]) -> None:
    before = snapshot_files(vault.root)
    with pytest.raises(error) as raised:
        vault.remember("some text", now=NOW, **kwargs)
    for word in words:
        assert word in str(raised.value)
    assert snapshot_files(vault.root) == before


@pytest.mark.parametrize("text", ["", "   \n\t"])
def test_empty_text_writes_nothing(vault: Vault, text: str) -> None:
    with pytest.raises(UsageError, match="empty"):
        vault.remember(text, now=NOW)
    assert snapshot_files(vault.root) == {}


@pytest.mark.parametrize("title", ["../escape", "../../etc/passwd", "/etc/passwd", "..", "a/../../b", "C:\\Windows\\x"])
def test_hostile_titles_stay_inside_the_vault(vault: Vault, title: str) -> None:
    result = vault.remember("hostile", title=title, now=NOW)
    written = (vault.root / result.path).resolve()
    assert vault.root.resolve() in written.parents
    assert "/" not in Path(result.path).name and ".." not in result.path


@pytest.mark.parametrize("folder", ["../outside", "/etc", "a/../../outside", "..", ".obsidian", ".git/hooks", "_archive"])
def test_hostile_or_ignored_folders_are_refused(vault: Vault, folder: str) -> None:
    with pytest.raises((PathOutsideVault, UsageError)):
        vault.remember("hostile", folder=folder, now=NOW)
    assert not (vault.root.parent / "outside").exists()
    assert snapshot_files(vault.root) == {}


def test_a_folder_climbing_back_into_the_vault_is_refused_for_its_dots_not_as_outside(vault: Vault) -> None:
    # Review (s34): `memories/../people` was refused as "outside the vault", which it is not.
    with pytest.raises(PathOutsideVault, match=r"^folder 'memories/\.\./people' holds '\.\.': give the folder from the "
                                                r"vault root without it, such as 'people'"):
        vault.remember("Ana is a nurse", folder="memories/../people", now=NOW)
    with pytest.raises(PathOutsideVault, match=r"^folder 'a/\.\./\.\./outside' is outside the vault"):
        vault.remember("hostile", folder="a/../../outside", now=NOW)
    assert snapshot_files(vault.root) == {}


def test_a_symlink_out_of_the_vault_is_refused_as_folder(vault: Vault, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault.root / "link").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathOutsideVault):
        vault.remember("hostile", folder="link", now=NOW)
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(("folder", "expected"), [(".", "hi.md"), ("./", "hi.md"), ("a/./b", "a/b/hi.md"), ("./a//b/", "a/b/hi.md")])
def test_a_dotted_folder_gives_the_canonical_path_the_index_uses(vault: Vault, folder: str, expected: str) -> None:
    remembered = vault.remember("hi", folder=folder, now=NOW)
    assert remembered.path == expected  # was './hi.md': a path no scan would ever produce
    assert [row.path for row in vault.store.notes.all()] == [expected]
    assert vault.index().unchanged == 1  # the next scan finds the same note at the same path


def test_a_symlinked_folder_inside_the_vault_gives_the_real_folders_path(vault: Vault) -> None:
    (vault.root / "real").mkdir()
    (vault.root / "alias").symlink_to(vault.root / "real", target_is_directory=True)
    remembered = vault.remember("hi", folder="alias", now=NOW)
    assert remembered.path == "real/hi.md"
    assert [row.path for row in vault.store.notes.all()] == ["real/hi.md"]


@pytest.mark.parametrize("folder", ["proc.md", "proc.md/sub"])
def test_a_folder_that_is_a_file_is_a_usage_error_naming_it(vault_dir: Path, folder: str) -> None:
    (vault_dir / "proc.md").write_text("a file\n", encoding="utf-8")
    result = run_cli(vault_dir, "remember", "hi", "--folder", folder)
    assert result.exit_code == 2
    assert f"folder '{folder}' is a file, not a folder" in result.stderr  # was: "too many notes named 'hi'"
    assert sorted(path.name for path in vault_dir.iterdir() if path.name != ".vaultmem") == ["proc.md"]


def test_a_dangling_symlink_out_taking_the_first_name_is_skipped(vault: Vault, tmp_path: Path) -> None:
    (vault.root / "memories").mkdir()
    (vault.root / "memories" / "hi.md").symlink_to(tmp_path / "nowhere.md")
    remembered = vault.remember("hi", now=NOW)
    assert remembered.path == "memories/hi-2.md"
    assert (vault.root / "memories" / "hi-2.md").read_text(encoding="utf-8").endswith("hi\n")
    assert not (tmp_path / "nowhere.md").exists()


def test_same_title_twice_gives_two_files(vault: Vault) -> None:
    first = vault.remember("one", title="Same title", now=NOW)
    second = vault.remember("two", title="Same title", now=NOW)
    assert first.path != second.path and first.id != second.id
    assert (vault.root / first.path).read_text(encoding="utf-8").endswith("one\n")


def test_folder_option_and_default_folder(vault: Vault) -> None:
    default = vault.remember("default folder", now=NOW)
    chosen = vault.remember("chosen folder", folder="projects/harbor", now=NOW)
    assert default.path.startswith("memories/")
    assert chosen.path.startswith("projects/harbor/")


def test_the_memories_folder_is_the_one_the_vault_spells_in_another_case(vault: Vault) -> None:
    """Was: memories/ made beside the person's Memories/ — one folder on Windows and macOS, two
    in git and to a sync tool (Dropbox renames one "(Case Conflict)")."""
    (vault.root / "Memories").mkdir()
    (vault.root / "Projects" / "Harbor").mkdir(parents=True)
    default = vault.remember("The exam is on 15 January.", now=NOW)
    chosen = vault.remember("Berth 4 is ours.", folder="projects/harbor/2026", now=NOW)
    assert default.path.startswith("Memories/") and chosen.path.startswith("Projects/Harbor/2026/")
    assert sorted(entry.name for entry in vault.root.iterdir() if not entry.name.startswith(".")) == ["Memories", "Projects"]


def test_two_folders_in_other_cases_are_not_picked_from(vault: Vault) -> None:
    (vault.root / "Memories").mkdir()
    (vault.root / "MEMORIES").mkdir()
    assert vault.remember("Which one?", now=NOW).path.startswith("memories/")


def test_a_link_out_inside_the_folder_of_another_case_is_refused_as_outside_the_vault(vault: Vault, tmp_path: Path) -> None:
    """Was: ``memories/out`` passed the check as a folder to make, became ``Memories/out`` — a link
    out of the vault — and remember crashed with a ValueError instead of saying why."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault.root / "Memories").mkdir()
    (vault.root / "Memories" / "out").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathOutsideVault, match="memories/out"):
        vault.remember("The boiler was serviced today.", folder="memories/out", now=NOW)
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(("folder", "said"), [
    ("C:\\Users\\maya\\vault\\memories", "an absolute Windows path"),
    ("D:/notes", "an absolute Windows path"),
    ("projects/Q3?", "'Q3?' holds '?', which Windows does not allow in a name"),
    ("people/con", "'con' is a device name on Windows (CON)"),
    ("drafts./x", "'drafts.' ends in a dot"),
    ("a" * 300, "is 300 bytes"),
])
def test_a_folder_windows_or_the_file_system_cannot_hold_is_refused_naming_it_and_nothing_is_made(
        vault: Vault, folder: str, said: str) -> None:
    """Was: on Linux `folder="C:\\Users\\maya\\vault\\memories"` (an agent on Windows giving the
    vault's own path) made `C:/Users/maya/vault/memories/` inside the vault and said the note was
    written there — a folder Git for Windows refuses to check out, which `check` then named as a
    problem of the person's; a 300-character folder was a bare "File name too long"."""
    with pytest.raises(UsageError, match="folder") as raised:
        vault.remember("The boiler was serviced today.", folder=folder, now=NOW)
    assert said in str(raised.value)
    assert any(fix in str(raised.value) for fix in ("relative to the vault root", "choose another name", "choose a shorter name"))
    assert snapshot_files(vault.root) == {}
    assert sorted(entry.name for entry in vault.root.iterdir()) == [".vaultmem"]


def test_a_folder_with_a_trailing_space_writes_into_the_persons_folder_of_that_exact_name(vault: Vault) -> None:
    """A trial (s34): `--folder "drafts "` stripped the space and made a new `drafts/` beside the
    person's `drafts ` folder."""
    (vault.root / "drafts ").mkdir()
    written = vault.remember("The boiler was serviced today.", folder="drafts ", now=NOW)
    assert written.path.startswith("drafts /") and (vault.root / written.path).is_file()
    assert sorted(entry.name for entry in vault.root.iterdir()) == [".vaultmem", "drafts "]


@pytest.mark.parametrize(("folder", "fix"), [
    ("memories ", "give 'memories', the folder that is there"),
    (" ideas", "give 'ideas' to make that folder"),
])
def test_a_folder_that_begins_or_ends_with_a_space_and_is_not_there_is_refused_and_nothing_is_made(
        vault: Vault, folder: str, fix: str) -> None:
    # Was: the space was stripped without a word (`memories ` wrote into memories/); a folder
    # made with it could not be checked out on Windows.
    (vault.root / "memories").mkdir()
    with pytest.raises(UsageError, match="folder") as raised:
        vault.remember("The boiler was serviced today.", folder=folder, now=NOW)
    assert "begins or ends with a space" in str(raised.value) and fix in str(raised.value)
    assert snapshot_files(vault.root) == {}
    assert sorted(entry.name for entry in vault.root.iterdir()) == [".vaultmem", "memories"]


def test_a_folder_deeper_than_the_system_holds_is_refused_and_no_folder_of_it_is_left(vault: Vault) -> None:
    """Was: `mkdir -p` of 21 folders of 200 bytes made the first 19, failed "File name too long"
    past PATH_MAX, and left the 19 empty folders in the person's vault."""
    folder = "/".join(["a" * 200] * 21)
    with pytest.raises(UsageError, match="folder") as raised:
        vault.remember("The boiler was serviced today.", folder=folder, now=NOW)
    assert "bytes deep" in str(raised.value) and "choose a shorter folder" in str(raised.value)
    assert sorted(entry.name for entry in vault.root.iterdir()) == [".vaultmem"]


def test_a_folder_of_the_persons_that_windows_could_not_hold_is_still_written_into(vault: Vault) -> None:
    # The person's own folder is theirs to name: only a folder vaultmem would make is refused.
    (vault.root / "Q&A?").mkdir()
    assert vault.remember("The boiler was serviced today.", folder="Q&A?", now=NOW).path.startswith("Q&A?/")


def test_a_new_note_is_written_with_lf_in_a_vault_whose_notes_are_crlf(vault: Vault) -> None:
    """Decided (adr/0006): a new note is written as Obsidian writes one, with LF, whatever its
    neighbours use; only an edit keeps a file's own line ending."""
    (vault.root / "Windows.md").write_bytes(b"# Notes\r\n\r\nSaved in Notepad.\r\n")
    written = vault.remember("A new memory.\nOn two lines.", now=NOW)
    data = (vault.root / written.path).read_bytes()
    assert b"\r" not in data and data.endswith(b"A new memory.\nOn two lines.\n")


def test_cli_remember_json_has_the_contract_fields(vault_dir: Path) -> None:
    result = run_cli(vault_dir, "remember", "Rui lands at 18:05", "--layer", "L1", "--tag", "travel", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert {"id", "path", "title", "layer", "expires_at"} <= set(document)
    assert document["layer"] == "L1" and (vault_dir / document["path"]).is_file()


def test_an_expiry_one_second_ahead_is_accepted(vault: Vault) -> None:
    result = vault.remember("Parking until noon", layer="L1", expires_at="2026-11-30T12:00:01Z", now=NOW)
    assert result.expires_at == "2026-11-30T12:00:01+00:00"


def test_cli_remember_with_a_past_expiry_exits_2_and_writes_nothing(vault_dir: Path) -> None:
    result = run_cli(vault_dir, "remember", "Flight lands at 18:05", "--expires-at", "2020-01-01")
    assert result.exit_code == 2, result.output
    assert "--expires-at 2020-01-01T00:00:00+00:00 is not in the future" in result.stderr and "a --ttl such as 3d" in result.stderr
    assert snapshot_files(vault_dir) == {}


def test_cli_contradictory_options_exit_2_naming_both(vault_dir: Path) -> None:
    result = run_cli(vault_dir, "remember", "x", "--permanent", "--ttl", "3d")
    assert result.exit_code == 2
    assert "--permanent contradicts --ttl" in result.stderr  # the CLI's flags, not the API's argument names
    result = run_cli(vault_dir, "remember", "x", "--layer", "L4", "--expires-at", "2030-01-01", "--json")
    assert result.exit_code == 2
    assert "--layer L4 (procedural, never expires) contradicts --expires-at" in json.loads(result.stdout)["error"]["message"]
    assert snapshot_files(vault_dir) == {}


@pytest.mark.parametrize(
    ("option", "value"),
    [("--ttl", "3000000d"), ("--ttl", "9" * 400 + "d"), ("--expires-at", "99999-01-01"), ("--expires-at", "9999-12-31T23:59:59-23:00"),
     ("--expires-at", "0000-01-01")],
)
def test_cli_a_deadline_no_date_can_hold_is_a_usage_error_naming_it(vault_dir: Path, option: str, value: str) -> None:
    result = run_cli(vault_dir, "remember", "x", option, value)
    assert result.exit_code == 2, result.output  # was: OverflowError traceback
    assert value[:30] in result.stderr and "Traceback" not in result.stderr and "datetime.datetime" not in result.stderr
    assert not (vault_dir / "memories").exists()


def test_two_processes_remembering_at_once_make_two_notes_and_two_rows(vault_dir: Path) -> None:
    Vault(vault_dir).index()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "vaultmem", "--vault", str(vault_dir), "remember", "--title", "Same", "--json"]
    processes = [subprocess.Popen([*command, f"text {n}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for n in range(2)]
    outputs = [json.loads(process.communicate(timeout=60)[0]) for process in processes]
    assert all(process.returncode == 0 for process in processes)
    assert len({output["path"] for output in outputs}) == 2
    with Vault(vault_dir) as vault:
        rows = list(vault.store.notes.all())
        assert sorted(row.path for row in rows) == sorted(output["path"] for output in outputs)


# ------------------------------------------------------------------ a memory written twice


OAT_MILK = ("Maya prefers oat milk in her coffee, never dairy. When ordering coffee for her, always ask "
            "for oat milk; if the café has no oat milk, get her coffee black rather than with cow's milk.")


def test_remember_names_live_notes_of_its_layer_that_say_nearly_the_same(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        result = vault.remember(OAT_MILK, title="Oat milk again", layer="L3", now=NOW)
        similar = {other.path: other.similarity for other in result.similar}
        assert "preferences/oat-milk.md" in similar and result.path not in similar
        assert all(score >= 0.83 for score in similar.values())
        assert [other.similarity for other in result.similar] == sorted(similar.values(), reverse=True)
        assert json.loads(json.dumps(result.as_dict()))["similar"] == [other.as_dict() for other in result.similar]


def test_remember_does_not_name_unrelated_notes(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        unrelated = vault.remember("The boiler service is booked for Thursday at 10:00.", layer="L3", now=NOW)
        assert unrelated.similar == []


def test_remember_names_a_memory_of_another_layer_that_says_the_same(vault_dir: Path) -> None:
    # A household trial: the agent kept "Sam is allergic to peanuts" as an episode (L2, the
    # default), then again as a fact (L3). `similar` was empty, recall returned both, and
    # consolidate (which merges within a layer) never would join them.
    with Vault(vault_dir) as vault:
        episode = vault.remember("Sam is allergic to peanuts.", now=NOW)
        fact = vault.remember("Sam is allergic to peanuts.", layer="L3", now=NOW)
        assert [(other.path, other.layer) for other in fact.similar] == [(episode.path, "L2")]
        assert json.loads(json.dumps(fact.as_dict()))["similar"][0]["layer"] == "L2"


def test_remember_names_the_longer_lived_note_to_a_working_note_that_repeats_it(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        working = vault.remember(OAT_MILK, title="Oat milk, working note", layer="L1", now=NOW)
        assert ("preferences/oat-milk.md", "L3") in [(other.path, other.layer) for other in working.similar]


CLIMBING_DAY = "# 2026-11-28\n\nWent climbing with Priya. She says the new bouldering wall opens in January.\n"


def test_remember_names_the_line_of_your_daily_note_that_already_says_it(vault_dir: Path) -> None:
    # A trial: the person's daily note held the fact, the agent remembered it again, and
    # `similar` was [] — your notes (no layer) were left out, and a whole note of many facts
    # stood far below the threshold. Now the note's sentences are compared (adr/0010).
    (vault_dir / "daily").mkdir()
    (vault_dir / "daily" / "2026-11-28.md").write_text(CLIMBING_DAY, encoding="utf-8")
    with Vault(vault_dir) as vault:
        result = vault.remember("Priya says the new bouldering wall at the gym opens in January", layer="L3", now=NOW)
    assert [(other.path, other.yours, other.layer, other.lines) for other in result.similar] == [
        ("daily/2026-11-28.md", True, None, (3, 3))]
    assert result.similar[0].says == "Went climbing with Priya. She says the new bouldering wall opens in January."
    assert 0.70 <= result.similar[0].similarity  # the threshold for a sentence of your note (adr/0010)
    assert result.similar[0].similarity < 0.83  # below the memories': a sentence is not a whole note
    entry = json.loads(json.dumps(result.as_dict()))["similar"][0]
    assert (entry["yours"], entry["lines"], entry["layer"]) == (True, [3, 3], None)


def test_remember_names_the_heading_and_line_of_a_long_note_of_yours(vault_dir: Path) -> None:
    # A household trial's person page: frontmatter, headings, and the fact on one line of the log.
    (vault_dir / "people").mkdir()
    (vault_dir / "people" / "sam.md").write_text(
        "---\ntype: person\nname: Sam\ntags: [family]\n---\n\n## What to know\n[[Rosie]]'s partner. Works nights at "
        "the hospital, so calls after noon.\nLoves board games and hates mornings.\n\n## Log\n- 2026-07-19 — Rosie's "
        "partner.\n- 2026-09-02 — Moved to the flat on Elm Street.\n\nSam is allergic to peanuts (told 2 Dec 2026).\n",
        encoding="utf-8")
    with Vault(vault_dir) as vault:
        result = vault.remember("Sam is allergic to peanuts.", layer="L3", now=NOW)
    [entry] = result.similar
    assert (entry.path, entry.heading, entry.lines, entry.says) == (
        "people/sam.md", "Log", (15, 15), "Sam is allergic to peanuts (told 2 Dec 2026).")
    assert (vault_dir / "people" / "sam.md").read_text(encoding="utf-8").splitlines()[14] == entry.says


def test_remember_names_an_agents_old_note_brought_from_basic_memory(vault_dir: Path) -> None:
    # A vault migrated from Basic Memory: no note has a layer; the agent wrote an old memory again.
    (vault_dir / "decisions").mkdir()
    (vault_dir / "decisions" / "2026-04-22 - keep durable memory in basic-memory.md").write_text(
        "---\ntitle: 2026-04-22 - keep durable memory in basic-memory\ntype: note\npermalink: decisions/keep-durable\n---\n\n"
        "# 2026-04-22 - keep durable memory in basic-memory\n\n## Why\n\nTransient tracking had become most of the notes and "
        "was polluting search results.\n\n## Observations\n- [decision] Durable knowledge stays in `basic-memory/`; transient "
        "tracking moves to repo-root `archive/`. #memory #workflow\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        result = vault.remember("Durable knowledge stays in basic-memory; transient tracking moves to the repo-root archive.",
                                layer="L3", now=NOW)
    assert [(other.path, other.heading, other.lines, other.yours) for other in result.similar] == [
        ("decisions/2026-04-22 - keep durable memory in basic-memory.md", "Observations", (14, 14), True)]


def test_remember_does_not_name_your_note_on_a_different_fact_about_the_same_person(vault_dir: Path) -> None:
    (vault_dir / "daily").mkdir()
    (vault_dir / "daily" / "2026-11-28.md").write_text(CLIMBING_DAY, encoding="utf-8")
    with Vault(vault_dir) as vault:
        assert vault.remember("Priya's sister is moving to Leeds in the spring.", layer="L3", now=NOW).similar == []


def test_a_note_of_yours_named_as_similar_is_still_refused_as_a_note_to_supersede(vault_dir: Path) -> None:
    (vault_dir / "daily").mkdir()
    (vault_dir / "daily" / "2026-11-28.md").write_text(CLIMBING_DAY, encoding="utf-8")
    text = "Priya says the new bouldering wall at the gym opens in January"
    with Vault(vault_dir) as vault:
        assert [other.path for other in vault.remember(text, layer="L3", now=NOW).similar] == ["daily/2026-11-28.md"]
        with pytest.raises(UsageError, match="no layer, so it is a note of yours"):
            vault.remember(text, supersedes=["daily/2026-11-28.md"], now=NOW)
    assert (vault_dir / "daily" / "2026-11-28.md").read_text(encoding="utf-8") == CLIMBING_DAY


def test_cli_remember_says_which_line_of_your_note_says_it_and_that_it_is_yours(vault_dir: Path) -> None:
    (vault_dir / "daily").mkdir()
    (vault_dir / "daily" / "2026-11-28.md").write_text(CLIMBING_DAY, encoding="utf-8")
    result = run_cli(vault_dir, "remember", "Priya says the new bouldering wall at the gym opens in January")
    assert result.exit_code == 0, result.output
    assert ('daily/2026-11-28.md (line 3: "Went climbing with Priya. She says the new bouldering wall opens in January.") '
            "— 2026-11-28; a note of yours (no layer), not a memory: if it already says this, `forget` the memory you just "
            "wrote or keep both; --supersedes refuses a note of yours, so change it with `revise` if it is out of date"
            ) in result.stdout


def test_cli_remember_says_a_similar_note_of_another_layer_is_not_merged_by_consolidate(vault_dir: Path) -> None:
    assert run_cli(vault_dir, "remember", "The boiler was serviced today.").exit_code == 0
    again = run_cli(vault_dir, "remember", "The boiler was serviced today.", "--layer", "L3")
    assert again.exit_code == 0, again.output
    assert ("  similar (1.000): memories/the-boiler-was-serviced-today.md — The boiler was serviced today.; it is in L2: "
            "if it already says this, keep the one whose layer fits how long it stays true (`forget` the other; "
            "consolidate merges within a layer only)") in again.stdout


def test_remember_does_not_name_a_note_that_has_expired(sample_vault: Path) -> None:
    with Vault(sample_vault) as vault:
        first = vault.remember(OAT_MILK, title="Oat milk, short lived", layer="L3", ttl="1h", now=NOW)
        later = "2026-11-30T14:00:00+00:00"  # the first copy expired at 13:00
        again = vault.remember(OAT_MILK, title="Oat milk, once more", layer="L3", now=later)
        assert first.path not in [other.path for other in again.similar]
        assert "preferences/oat-milk.md" in [other.path for other in again.similar]


def test_remember_names_a_paraphrase_below_the_merge_threshold_that_consolidate_keeps(vault_dir: Path) -> None:
    # An agent developer's trial: these two L4 notes (cosine 0.876) never expire, and `similar`
    # came back empty at merging's 0.88. Listing is advice: 0.83 (adr/0010); merging stays at 0.88.
    with Vault(vault_dir) as vault:
        first = vault.remember("User prefers window seats on flights.", layer="L4", now=NOW)
        again = vault.remember("User prefers a window seat when flying.", layer="L4", now=NOW)
        assert [(other.path, other.similarity) for other in again.similar] == [(first.path, 0.876)]
        assert vault.consolidate(all=True, now=NOW).clusters == ()  # merging's threshold: kept apart
        assert len(vault.consolidate(all=True, threshold=0.87, now=NOW).clusters) == 1  # …only by the threshold


def test_cli_remember_shows_a_similarity_below_the_merge_threshold_as_below_it(vault_dir: Path) -> None:
    assert run_cli(vault_dir, "remember", "User prefers window seats on flights.", "--layer", "L4").exit_code == 0
    again = run_cli(vault_dir, "remember", "User prefers a window seat when flying.", "--layer", "L4")
    assert again.exit_code == 0, again.output
    assert "  similar (0.876): memories/user-prefers-window-seats-on-flights.md" in again.stdout


def test_cli_remember_of_a_paraphrase_below_the_merge_threshold_names_the_threshold_that_merges_it(vault_dir: Path) -> None:
    # s43 realvault: "similar (0.863) … `forget` one or run `consolidate`", then consolidate said
    # "no near-duplicates found" (it merges at 0.88): the advice has to name a threshold that merges.
    assert run_cli(vault_dir, "remember", "User prefers window seats on flights.", "--layer", "L4").exit_code == 0
    again = run_cli(vault_dir, "remember", "User prefers a window seat when flying.", "--layer", "L4")
    assert again.exit_code == 0, again.output
    assert ("  similar (0.876): memories/user-prefers-window-seats-on-flights.md — User prefers window seats on flights.; "
            "if it already says this, `forget` one, or merge them with `consolidate --threshold 0.87` (at this vault's "
            "0.88, consolidate keeps them apart)") in again.stdout
    merged = run_json(vault_dir, "consolidate", "--threshold", "0.87")
    assert [len(cluster["members"]) for cluster in merged["clusters"]] == [2]


def test_cli_remember_of_a_copy_above_the_merge_threshold_says_consolidate_merges_it(vault_dir: Path) -> None:
    text = "Dentist moved to Thursday at 10:00, bring the insurance card."
    assert run_cli(vault_dir, "remember", text).exit_code == 0
    again = run_cli(vault_dir, "remember", text)
    assert "if it already says this, `forget` one or run `consolidate` (it merges them)" in again.stdout


def test_remember_does_not_name_a_different_memory_on_the_same_topic(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        vault.remember("Maya's dentist is Dr. Sousa.", layer="L3", now=NOW)
        vault.remember("User prefers window seats on flights.", layer="L3", now=NOW)
        other = vault.remember("Maya's dentist appointment is Friday.", layer="L3", now=NOW)
        assert other.similar == []


def test_remember_lists_similar_notes_at_the_vaults_similar_threshold(vault_dir: Path) -> None:
    (vault_dir / ".vaultmem.toml").write_text("[consolidate]\nsimilar_threshold = 0.88\n", encoding="utf-8")
    with Vault(vault_dir) as vault:
        vault.remember("User prefers window seats on flights.", layer="L4", now=NOW)
        assert vault.remember("User prefers a window seat when flying.", layer="L4", now=NOW).similar == []


def test_cli_remember_prints_the_similar_notes(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "remember", OAT_MILK, "--layer", "L3")
    assert result.exit_code == 0, result.output
    assert "similar (" in result.stdout and "preferences/oat-milk.md" in result.stdout


def test_cli_remember_of_the_same_text_twice_names_the_first_note_the_second_time(vault_dir: Path) -> None:
    # A trial saw `"similar": []` on MCP; the first call has nothing to compare with, the second must say it.
    text = "Dentist moved to Thursday at 10:00, bring the insurance card."
    first = json.loads(run_cli(vault_dir, "remember", text, "--json").stdout)
    assert first["similar"] == []
    second = run_cli(vault_dir, "remember", text)
    assert second.exit_code == 0, second.output
    assert f"  similar (1.000): {first['path']} — {text}" in second.stdout


def test_a_memory_titled_like_an_existing_note_says_the_name_is_now_shared(vault_dir: Path) -> None:
    # A trial: remember --title Kyoto wrote memories/kyoto.md beside References/Kyoto.md without a word.
    (vault_dir / "References").mkdir()
    (vault_dir / "References" / "Kyoto.md").write_text("Kyoto: temples, a trip in 2019.\n", encoding="utf-8")
    (vault_dir / "References" / "Old Kyoto.md").write_text("---\nexpires_at: 2020-01-01\naliases: [kyoto]\n---\nGone.\n",
                                                           encoding="utf-8")  # expired: no longer answers to the name
    with Vault(vault_dir) as vault:
        kyoto = vault.remember("Book the ryokan in Kyoto by March", title="Kyoto", layer="L3", now=NOW)
        tea = vault.remember("Tea ceremony on Sunday", title="Tea ceremony", layer="L3", now=NOW)
        about = vault.remember("Temples to see", title="About Kyoto", layer="L3", now=NOW)  # the same topic, another name
    assert about.same_name == []  # a link to [[About Kyoto]] names no other note (topic keys are search's alone)
    assert [(other.id, other.path) for other in kyoto.same_name] == [("References/Kyoto", "References/Kyoto.md")]
    assert kyoto.as_dict()["same_name"] == [{"id": "References/Kyoto", "path": "References/Kyoto.md"}]
    assert tea.same_name == []
    printed = run_cli(vault_dir, "remember", "Kyoto again", "--title", "KYOTO", "--layer", "L3")
    assert printed.exit_code == 0, printed.output
    assert "same name: References/Kyoto.md (id References/Kyoto) goes by this name too" in printed.stdout
    assert kyoto.path in printed.stdout  # and the first memory of that name


def test_a_memory_titled_like_a_persons_note_gets_a_file_name_no_note_goes_by(vault: Vault, write_note) -> None:
    """A trial: `remember --title Dad` wrote memories/dad.md, and from then on the person's
    `get Dad` (nodes/people/dad.md) failed as ambiguous; a file name also outranks an alias, so
    a memories/mom.md would have taken `get Mom` from the note whose alias it is, silently.
    The new note keeps its title (same_name says it is shared) under a file name of its own —
    also when the person's note was written after the last read, or named in another Unicode form."""
    write_note("nodes/people/ana.md", "---\nlayer: L4\n---\nAna.\n")
    vault.index()
    write_note("nodes/people/dad.md", "My father.\n")  # by hand, after the last read
    write_note("nodes/people/mother.md", "---\naliases: [Mom]\n---\nMy mother.\n")
    write_note("nodes/people/Zoe\u0301.md", "My sister, named on a Mac.\n")
    dad = vault.remember("Dad starts a new job on Monday.", title="Dad", layer="L2", now=NOW)
    assert (dad.path, dad.title) == ("memories/dad-2.md", "Dad")
    assert [other.path for other in dad.same_name] == ["nodes/people/dad.md"]
    assert vault.get("Dad").path == "nodes/people/dad.md"
    mom = vault.remember("Mom visits in May.", title="Mom", layer="L2", now=NOW)
    assert mom.path == "memories/mom-2.md"
    assert vault.locate("Mom").row.path == "nodes/people/mother.md"
    zoe = vault.remember("Zoé moved to Porto.", title="Zoé", layer="L2", now=NOW)
    assert zoe.path == "memories/zoé-2.md"
    assert vault.locate("Zoé").row.path == "nodes/people/Zoe\u0301.md"
    again = vault.remember("Dad likes his new job.", title="Dad", layer="L2", now=NOW)
    assert again.path == "memories/dad-3.md"  # dad-2 is the first memory's file name now


def test_an_expiry_that_is_not_a_time_is_refused_naming_the_option_it_came_as(vault_dir: Path) -> None:
    """Was: "invalid timestamp 'next friday'", naming no option; the CLI says --expires-at."""
    result = run_cli(vault_dir, "remember", "Dentist on Friday", "--expires-at", "next friday")
    assert result.exit_code == 2
    assert "--expires-at: invalid timestamp 'next friday'" in result.stderr and "ISO-8601" in result.stderr
    assert not list(vault_dir.rglob("*.md"))  # nothing written
    (vault_dir / "dentist.md").write_text("Dentist on Friday.\n", encoding="utf-8")
    revised = run_cli(vault_dir, "revise", "dentist", "--expires-at", "soon")
    assert revised.exit_code == 2 and "--expires-at: invalid timestamp 'soon'" in revised.stderr
    assert (vault_dir / "dentist.md").read_text(encoding="utf-8") == "Dentist on Friday.\n"


def test_a_title_made_from_a_long_first_line_says_where_it_was_cut(vault: Vault) -> None:
    # Was "…re-test due in late": cut at sixteen words, it read as the whole fact, and a wrong one.
    result = vault.remember("User takes 2000 IU of vitamin D every day since Nov 25; re-test due in late February.", now=NOW)
    assert result.title == "User takes 2000 IU of vitamin D every day since Nov 25; re-test due in late…"
    assert vault.remember("Standup is at 9:30.", now=NOW).title == "Standup is at 9:30."  # a whole line is not cut


def test_a_title_made_from_a_long_line_is_cut_between_two_words(vault: Vault) -> None:
    # A trial: `title: … at 10:00, bring pa…` in the person's file, cut inside "passport".
    text = "Dentist appointment moved from Tuesday to Thursday, Dec 10 at 10:00, bring passport and insurance card."
    result = vault.remember(text, now=NOW)
    assert result.title == "Dentist appointment moved from Tuesday to Thursday, Dec 10 at 10:00, bring…"
    assert frontmatter_of(vault.root / result.path)["title"] == result.title
    # One long word (a URL) after a short one is cut inside it: "see…" would name nothing.
    url = "see https://example.com/" + "a" * 100
    assert vault.remember(url, now=NOW).title == url[:79] + "…"


def test_a_title_in_a_script_without_spaces_is_cut_between_two_characters(vault: Vault) -> None:
    chinese = "明天下午三点在会议室讨论预算" * 10
    assert vault.remember(chinese, now=NOW).title == chinese[:79] + "…"
    # A space early on is no reason to cut back to it: the characters after it are words too.
    spaced = "会议 " + chinese
    assert vault.remember(spaced, now=NOW).title == spaced[:79] + "…"


def test_a_generated_title_passes_over_lines_that_hold_no_words(vault: Vault) -> None:
    # Was `title: '---'`: the first line of a text that opens with a rule.
    for text, title in (("***\n#\n```python\nprint('hi')\n```", "print('hi')"), ("~~~\n\n# \n## Packing list\n", "Packing list")):
        assert vault.remember(text, now=NOW).title == title
    wordless = vault.remember("---\n***", now=NOW)  # no line with a word: the first line, as before
    assert (wordless.title, wordless.path) == ("---", "memories/note.md")  # and a file name that claims nothing


def test_a_generated_title_passes_over_frontmatter_in_the_text_comments_and_list_markers(vault: Vault) -> None:
    # Were titled `layer: L4`, `%%hidden%%`, `<!-- draft -->` and `- [ ] buy milk`.
    for text, title, path in (("%%hidden%%\nCall the plumber on Monday.", "Call the plumber on Monday.",
                               "memories/call-the-plumber-on-monday.md"),
                              ("<!-- draft -->\n\nRui prefers window seats.", "Rui prefers window seats.",
                               "memories/rui-prefers-window-seats.md"),
                              ("%%\nnot for the title\n%%\nTrain leaves at 7.", "Train leaves at 7.", "memories/train-leaves-at-7.md"),
                              ("- [ ] buy milk\n- [x] buy eggs", "buy milk", "memories/buy-milk.md"),
                              ("> 1. Quoted: pay rent", "Quoted: pay rent", "memories/quoted-pay-rent.md"),
                              ("* [/] renew passport", "renew passport", "memories/renew-passport.md")):
        result = vault.remember(text, now=NOW)
        assert (result.title, result.path) == (title, path)
        assert frontmatter_of(vault.root / result.path)["title"] == title
    # A `---` block that is no mapping is text between rules (a setext heading): it stays a title.
    assert vault.remember("---\nSome text\n---\nmore", now=NOW).title == "Some text"
    assert vault.remember("%%only hidden%%", now=NOW).title == "%%only hidden%%"  # nothing shown: as it reads


def test_tags_in_other_scripts_and_nested_tags_are_tags(vault: Vault) -> None:
    result = vault.remember("Tea in Kyoto", tags=["旅行", "project/harbor", "año-2026", "#work", "👍🏽", "👨\u200d👩\u200d👧"], now=NOW)
    assert result.tags == ["旅行", "project/harbor", "año-2026", "work", "👍🏽", "👨\u200d👩\u200d👧"]


def test_ids_are_stamped_to_the_millisecond_so_notes_of_one_second_sort_as_made() -> None:
    # The id took the created stamp, cut to the second: three notes of one second sorted at random.
    from vaultmem.config import LayerPolicy
    from vaultmem.writer import compose_note

    moments = ["2026-12-01T10:00:00.100+00:00", "2026-12-01T10:00:00.450+00:00", "2026-12-01T10:00:00.900+00:00"]
    ids = [compose_note("a fact", title=None, layer="L3", tags=[], expires_at=None, ttl=None, permanent=False,
                        policy=LayerPolicy(), now=moment).id for moment in moments]
    assert ids == sorted(ids) and len({ident[:10] for ident in ids}) == 3  # the time part differs, in order


# basic-memory's shape: a heading, then the block its write_note was given as content.
BASIC_MEMORY_TEXT = ("# Caddy TLS decision\n\n---\ntype: decision\nstatus: canonical\ntags:\n- tls\n---\n\n"
                     "- [decision] Caddy with tls internal fronts port 8765 #tls\n")


@pytest.mark.parametrize("text", ["---\nlayer: L4\n---\nAlways use metric units.", BASIC_MEMORY_TEXT])
def test_remember_refuses_a_text_that_opens_with_a_frontmatter_block_and_writes_nothing(vault: Vault, text: str) -> None:
    # Was written under vaultmem's own frontmatter as a second block that nobody reads:
    # `layer: L4` left the memory L2 (gone in a week), `type`/`status` showed as text.
    before = snapshot_files(vault.root)
    with pytest.raises(UsageError, match=r"the text opens with a frontmatter block \(its lines \d–\d+: .*\).*title, layer, tags"):
        vault.remember(text, now=NOW)
    assert snapshot_files(vault.root) == before


def test_remember_keeps_a_text_whose_rule_holds_prose_or_a_code_block_of_yaml(vault: Vault) -> None:
    # Only a block a frontmatter is for is refused: a rule over prose, YAML in a code fence and
    # a rule later in the text are the memory's own words, written byte for byte.
    for text in ("---\nSome text\n---\nmore", "Config:\n\n```yaml\n---\nlayer: L4\n---\n```\n",
                 "Intro line\n\nmore\n\nand more\n\nstill more\n\n---\ntags: x\n---\n"):
        result = vault.remember(text, now=NOW)
        assert (vault.root / result.path).read_text(encoding="utf-8").endswith(text if text.endswith("\n") else text + "\n")


def test_remember_date_writes_the_day_the_memory_is_about_and_it_dates_the_note(vault: Vault) -> None:
    """"Met Dana on 2026-01-28", remembered on 2026-11-30, was dated 2026-11-30: remember had no date."""
    result = vault.remember("Met Dana Ruiz (CTO at Acme) at the Lenny meetup.", layer="L3", date="2026-01-28", now=NOW)
    text = (vault.root / result.path).read_text(encoding="utf-8")
    assert "\ndate: 2026-01-28\ncreated: 2026-11-30T12:00:00+00:00\n" in text
    january = vault.list_notes(since="2026-01-01", until="2026-01-31", now=NOW)
    assert [listed.path for listed in january] == [result.path]
    assert vault.search("Dana Lenny meetup", k=1, now=NOW)[0].date == "2026-01-28"


@pytest.mark.parametrize(("said", "day"), [("2025年3月5日", "2025-03-05"), ("2025 年 3 月 5 日", "2025-03-05"),
                                           ("2026년 4월 17일", "2026-04-17"), ("2026.04.15", "2026-04-15")])
def test_remember_date_said_as_a_cjk_or_year_first_day_is_that_day(vault: Vault, said: str, day: str) -> None:
    # Before: "date: invalid timestamp '2025年3月5日'", while `list --since 2025年3月5日` read the
    # same day (a trial on a Chinese vault; an agent passes on the day as the person said it).
    result = vault.remember("周会：和小王讨论了预算问题。", date=said, now=NOW)
    assert f"\ndate: {day}\n" in (vault.root / result.path).read_text(encoding="utf-8")
    assert [listed.path for listed in vault.list_notes(since=day, until=day, now=NOW)] == [result.path]


@pytest.mark.parametrize("bad", ["2026-02-30", "2025年2月30日", "2025年3月", "last week", "this month", ""])
def test_remember_refuses_a_date_that_is_no_day_and_writes_nothing(vault: Vault, bad: str) -> None:
    before = snapshot_files(vault.root)
    with pytest.raises(InvalidTimestamp, match=r"date: invalid timestamp"):
        vault.remember("Met Dana.", date=bad, now=NOW)
    assert snapshot_files(vault.root) == before


@pytest.mark.parametrize(("said", "day", "how"), [
    ("yesterday", "2026-11-29", "'yesterday' is Sunday 2026-11-29 (today is Monday 2026-11-30)"),
    ("next tuesday", "2026-12-01", "'next tuesday' is Tuesday 2026-12-01 (today is Monday 2026-11-30)"),
    ("last friday", "2026-11-27", "'last friday' is Friday 2026-11-27 (today is Monday 2026-11-30)"),
    ("Friday", "2026-12-04", "'Friday' is Friday 2026-12-04: a weekday alone is the next one, today included "
                             "(today is Monday 2026-11-30)"),
    ("vendredi dernier", "2026-11-27", "'vendredi dernier' is Friday 2026-11-27 (today is Monday 2026-11-30)"),
])
def test_remember_date_in_words_is_the_day_since_reads_and_the_answer_says_which(vault: Vault, said: str, day: str,
                                                                                  how: str) -> None:
    # Trial (s38): remember(date="next tuesday") was refused as no ISO timestamp, while
    # list_notes(since="last week") read words: an agent that did not know today's date had to guess it.
    result = vault.remember("Dentist appointment, Dr. Sousa.", date=said, now=NOW)
    assert f"\ndate: {day}\n" in (vault.root / result.path).read_text(encoding="utf-8")
    assert result.date_read == how and result.as_dict()["date_read"] == how
    assert [listed.path for listed in vault.list_notes(since=day, until=day, now=NOW)] == [result.path]


def test_remember_date_as_a_range_word_is_refused_naming_the_days_and_the_forms_read(vault: Vault) -> None:
    with pytest.raises(InvalidTimestamp) as refused:
        vault.remember("Met Dana.", date="last week", now=NOW)
    said = str(refused.value)
    assert "last week is 2026-11-23 to 2026-11-29, not one day" in said, said
    assert "yesterday, tomorrow, last friday, next tuesday" in said, said
    assert vault.remember("Met Dana.", date="2026-11-28", now=NOW).date_read is None  # an ISO day needs no saying


def test_cli_remember_and_revise_say_the_day_a_date_in_words_was_read_as(vault_dir: Path) -> None:
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    result = run_cli(vault_dir, "remember", "Dentist appointment.", "--date", "today")
    assert result.exit_code == 0, result.output
    assert "  date 'today' is " in result.stdout, result.stdout
    path = result.stdout.split()[1]
    revised = run_cli(vault_dir, "revise", path, "--date", "tomorrow", "--json")
    assert revised.exit_code == 0, revised.output
    answer = json.loads(revised.stdout)
    assert answer["date_read"].startswith("'tomorrow' is "), answer
    assert answer["date_read"].split(" ")[3] in (vault_dir / path).read_text(encoding="utf-8")


def test_cli_remember_date_in_a_vault_that_names_its_own_date_property(vault_dir: Path) -> None:
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n[dates]\ndate = ["fecha", "date"]\n', encoding="utf-8")
    result = run_cli(vault_dir, "remember", "Cena con Dana.", "--date", "2026-01-28", "--json")
    assert result.exit_code == 0, result.output
    assert "\nfecha: 2026-01-28\n" in (vault_dir / json.loads(result.stdout)["path"]).read_text(encoding="utf-8")


# -- a memory about a later day (writer.ttl_start; adr/0003 "A memory about a later day")


def test_a_memory_about_a_later_day_keeps_its_layers_ttl_after_that_day_starts(vault: Vault) -> None:
    asked = "2026-12-02T10:00:00+00:00"
    concert = vault.remember("School concert Dec 18 6pm", date="2026-12-18", now=asked)
    assert concert.layer == "L2" and concert.expires_at == "2026-12-25T00:00:00+00:00"  # was 2026-12-09, before it
    assert frontmatter_of(vault.root / concert.path)["expires_at"] == parse_timestamp("2026-12-25T00:00:00+00:00")
    assert vault.remember("Pack the costume", layer="L1", date="2026-12-18", now=asked).expires_at == "2026-12-19T00:00:00+00:00"
    assert vault.remember("Dinner booked", date="2026-12-18T19:30:00Z", now=asked).expires_at == "2026-12-25T19:30:00+00:00"


def test_a_memory_about_a_past_day_or_with_a_deadline_of_its_own_counts_from_now(vault: Vault) -> None:
    asked = "2026-12-02T10:00:00+00:00"
    assert vault.remember("Met Dana at the meetup", date="2026-11-28", now=asked).expires_at == "2026-12-09T10:00:00+00:00"
    assert vault.remember("Concert parking", date="2026-12-18", ttl="3d", now=asked).expires_at == "2026-12-05T10:00:00+00:00"


def test_over_mcp_a_memory_about_a_later_day_outlives_it_and_a_moved_date_moves_its_expiry(vault_dir: Path, tmp_path: Path) -> None:
    from datetime import date, timedelta

    from mcp_client import run, serve

    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    today = date.today()  # the server runs on the real clock, in UTC as the tests' machine zone

    def day(days: int) -> str:
        return (today + timedelta(days=days)).isoformat()

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            written = await served.call("remember", text="School concert 6pm", date=day(16))
            assert written["layer"] == "L2" and written["expires_at"] == f"{day(23)}T00:00:00+00:00"
            moved = await served.call("revise", note=written["path"], set_properties={"date": day(20)})
            assert moved["expires_at"] == f"{day(27)}T00:00:00+00:00"
            given = await served.call("remember", text="Concert tickets", date=day(16), expires_at=f"{day(30)}T00:00:00Z")
            kept = await served.call("revise", note=given["path"], set_properties={"date": day(25)})
            assert kept["changed"] == ["date"] and kept["expires_at"] == f"{day(30)}T00:00:00+00:00"

    run(scenario)


def test_a_note_of_yours_deleted_since_the_search_proposed_it_is_left_out_not_a_failed_remember(vault_dir: Path) -> None:
    # The sentence check reads each proposed note's file after the search: a note deleted in
    # between raised "cannot read", and remember — its note already written — answered as failed.
    from vaultmem.own_similar import OWN_SIMILAR_THRESHOLD, similar_own_notes
    from vaultmem.storage import Eligibility

    (vault_dir / "daily").mkdir()
    (vault_dir / "daily" / "2026-11-28.md").write_text(CLIMBING_DAY, encoding="utf-8")
    text = "Priya says the new bouldering wall at the gym opens in January"
    with Vault(vault_dir) as vault:
        written = vault.remember(text, layer="L3", now=NOW)
        assert [other.path for other in written.similar] == ["daily/2026-11-28.md"]
        (vault_dir / "daily" / "2026-11-28.md").unlink()  # gone after the index last saw it
        searcher = vault.derived.searcher()
        assert similar_own_notes(searcher, written.path, text + "\n", OWN_SIMILAR_THRESHOLD, Eligibility(now_us=0)) == []


def test_a_text_holding_a_nul_is_refused_and_nothing_is_written(vault: Vault, vault_dir: Path) -> None:
    """Was (s33): written as given; the note was then a binary file to git ("Binary files
    differ") and to grep and ripgrep, which pass it over: missing from the person's own searches."""
    (vault_dir / "til.md").write_text("# Intent To Add\n\ngit add -N\n", encoding="utf-8")
    before = snapshot_files(vault_dir)
    with pytest.raises(UsageError, match=r"text holds a NUL character \(U\+0000\) on its line 2"):
        vault.remember("find . -print0 gave\na\x00b", layer="L3", now=NOW)
    with pytest.raises(UsageError, match=r"append holds a NUL character"):
        vault.revise("til.md", append="x\x00y", now=NOW)
    assert snapshot_files(vault_dir) == before


NOBODY = 65534
OTHER = 4321  # a second person: a folder of theirs inside the vault


def owner_of(path: Path) -> tuple[int, int]:
    info = path.lstat()
    return info.st_uid, info.st_gid


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to make files another user owns")
def test_files_a_root_vaultmem_makes_belong_to_the_owner_of_the_folder_they_are_made_in(vault_dir: Path, write_note) -> None:
    # Was: all root's (vaultmem in a container with the vault mounted, or under sudo): the person
    # could not save a memory, add to memories/ or the archive, re-index, or delete .vaultmem/.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("old.md", "---\nlayer: L3\n---\nThe standup is at 9:30.\n")
    (vault_dir / "shared").mkdir()
    for path in [vault_dir, *vault_dir.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    os.chown(vault_dir / "shared", OTHER, OTHER)
    with Vault(vault_dir) as vault:
        memory = vault.remember("The plumber comes on Tuesday.", now=NOW)
        deep = vault.remember("The standup moved to 10:00.", folder="work/standups", now=NOW)
        theirs = vault.remember("Lunch is at noon on Fridays.", folder="shared/team", now=NOW)
        archived = vault.forget("old.md").archived_to
    assert memory.path.startswith("memories/") and archived == "_archive/old.md"
    made = [memory.path, "memories", deep.path, "work", "work/standups", "_archive", archived, ".vaultmem",
            *(path.relative_to(vault_dir).as_posix() for path in (vault_dir / ".vaultmem").rglob("*"))]
    assert {path: owner_of(vault_dir / path) for path in made} == dict.fromkeys(made, (NOBODY, NOBODY))
    # The closest folder that was there gives its owner: the other person's, in their folder.
    assert {owner_of(vault_dir / path) for path in ("shared/team", theirs.path)} == {(OTHER, OTHER)}


def _user_namespace_root() -> list[str] | None:
    """``unshare -U -r``: root in a user namespace that maps no other user, as a rootless
    container's root is; None where the machine does not allow one."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "-U", "-r", "true"], capture_output=True, check=False)
    return [unshare, "-U", "-r"] if probe.returncode == 0 else None


def test_a_root_whose_file_system_refuses_owners_still_writes_the_memory_and_says_whose_it_stays(vault_dir: Path,
                                                                                                  write_note) -> None:
    # Was (a review): giving a new note its folder's owner raised EINVAL where the owner is not
    # mapped (a rootless container), so `remember` failed where it had always written.
    rootless = _user_namespace_root()
    if rootless is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root and user namespaces (unshare -U -r) to be root without the right to give owners")
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    for path in [vault_dir, *vault_dir.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)  # an owner the namespace does not map
        path.chmod(0o777 if path.is_dir() else 0o666)
    result = subprocess.run([*rootless, *vaultmem_command(vault_dir, "remember", "The plumber comes on Tuesday.", "--json")],
                            capture_output=True, text=True, env=process_env(), check=False)
    assert result.returncode == 0, result.stderr
    written = vault_dir / json.loads(result.stdout)["path"]
    assert "The plumber comes on Tuesday." in written.read_text(encoding="utf-8")
    assert "could not give" in result.stderr and "it stays the owner it was made with" in result.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to make files another user owns")
def test_the_index_a_root_cli_makes_is_the_vault_owners_so_they_can_reindex_or_delete_it(vault_dir: Path, write_note) -> None:
    # Was: .vaultmem/ and index.db root's: `vaultmem index` as the person failed (not writable),
    # and `rm -rf .vaultmem` too (its entries are root's). A command closes its vault now.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("note.md", "---\nlayer: L3\n---\nThe standup is at 9:30.\n")
    for path in [vault_dir, *vault_dir.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    assert run_cli(vault_dir, "index").exit_code == 0
    state = [vault_dir / ".vaultmem", *(vault_dir / ".vaultmem").rglob("*")]
    assert any(path.name == "index.db" for path in state)
    assert {path.name: owner_of(path) for path in state} == {path.name: (NOBODY, NOBODY) for path in state}


def test_a_text_with_crlf_is_written_in_the_files_own_line_ending(vault: Vault, vault_dir: Path) -> None:
    # A text pasted from Windows (or sent by an MCP client on it) holds "\r\n": remember wrote it
    # as it came under vaultmem's LF frontmatter, a note of mixed endings that git and editors
    # flag, whose get answered LF. A new note is LF throughout; revise keeps the note's own.
    made = vault.remember("First line.\r\nSecond line.\r\n", title="Pasted", layer="L3", now=NOW)
    raw = (vault_dir / made.path).read_bytes()
    assert b"\r" not in raw
    assert raw.endswith(b"\n---\nFirst line.\nSecond line.\n")
    assert vault.get(made.id).body == "First line.\nSecond line.\n"
    vault.revise(made.id, append="Third\r\nfourth.", now=NOW)
    assert (vault_dir / made.path).read_bytes().endswith(b"\n---\nFirst line.\nSecond line.\n\nThird\nfourth.\n")
    windows = vault_dir / "memories/windows.md"
    windows.write_bytes(b"---\r\nid: crlf-note\r\nlayer: L3\r\n---\r\nFrom Windows.\r\n")
    vault.revise("crlf-note", append="More\nlines.", now=NOW)
    assert windows.read_bytes() == b"---\r\nid: crlf-note\r\nlayer: L3\r\n---\r\nFrom Windows.\r\n\r\nMore\r\nlines.\r\n"
    vault.revise("crlf-note", text="Replaced\r\nwhole.\n", now=NOW)
    assert windows.read_bytes() == b"---\r\nid: crlf-note\r\nlayer: L3\r\n---\r\nReplaced\r\nwhole.\r\n"


def test_a_remember_whose_note_cannot_be_written_leaves_no_empty_folders_it_made(tmp_path: Path) -> None:
    # mkdir -p undid itself when it failed part-way, but when the folders were made and the note's
    # own file could not be written (a full disk, a quota: here the file size limit, a real EFBIG
    # from the kernel), a/b/c/ stayed behind, empty, though nothing was remembered.
    import resource

    root = tmp_path / "vault"
    root.mkdir()
    (root / "boiler.md").write_text("---\nlayer: L3\n---\nThe boiler is serviced in May.\n", encoding="utf-8")
    (root / "kept").mkdir()
    with Vault(root) as vault:
        vault.index()
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        failed: list[OSError] = []
        for folder in ("a/b/c", "kept/d"):
            resource.setrlimit(resource.RLIMIT_FSIZE, (64, hard))  # Python ignores SIGXFSZ: the write gets EFBIG
            try:
                vault.remember("The plumber comes on Tuesday at ten and wants the cellar keys left downstairs.",
                               folder=folder)
            except OSError as error:
                failed.append(error)
            finally:
                resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert len(failed) == 2 and all("File too large" in str(error) for error in failed), failed
    assert sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if ".vaultmem" not in path.parts) == [
        "boiler.md", "kept"]


# ---------------------------------------------------------------- a day the text names, after the expiry
# s43 realvault: "Dentist appointment moved to Friday 11 December 2026 at 14:00." remembered as L2 on the
# 4th expired at 03:57 on the 11th — gone from recall ten hours before the appointment, without a word.


def test_remember_says_when_a_day_its_text_names_comes_after_the_memory_expires(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        moved = vault.remember("Dentist appointment moved to Friday 11 December 2026 at 14:00.", layer="L2",
                               now="2026-12-04T03:57:00+00:00")
        assert moved.expires_at == "2026-12-11T03:57:00+00:00"
        assert moved.expires_before == "2026-12-11"
        wedding = vault.remember("Priya and Marcus marry on 2027-06-19 in Porto, after the trip of 12 March 2027.",
                                 layer="L3", now="2026-12-04T03:57:00+00:00")
        assert wedding.expires_before == "2027-06-19"  # the latest day it does not live to see


def test_remember_says_nothing_of_days_the_memory_outlives_or_of_a_memory_dated_by_the_caller(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        past = vault.remember("Decided on 2 December 2026 to keep the plant data in SQLite.", layer="L3", now=NOW)
        assert past.expires_before is None
        dated = vault.remember("Dentist on Friday 11 December 2026 at 14:00.", layer="L2", date="2026-12-11", now=NOW)
        assert (dated.expires_at, dated.expires_before) == ("2026-12-18T00:00:00+00:00", None)
        lasting = vault.remember("Marcus was born on 1990-02-03 and loves 2030-01-01 plans.", layer="L4", now=NOW)
        assert lasting.expires_before is None


def test_cli_remember_prints_the_day_its_text_names_after_the_expiry_and_how_to_keep_it(vault_dir: Path) -> None:
    result = run_cli(vault_dir, "remember", "Car tyre change at the garage on 2099-01-15.", "--layer", "L1")
    assert result.exit_code == 0, result.output
    assert ("  expires before 2099-01-15, a day its text names: it leaves recall before that day is over; if it should be "
            "recalled until then, pass --date 2099-01-15 (the layer's lifetime then counts from that day) or a later "
            "--ttl/--expires-at") in result.stdout
    as_json = run_json(vault_dir, "remember", "Boiler service on 2099-02-01.", "--layer", "L1")
    assert as_json["expires_before"] == "2099-02-01"


def test_remember_says_when_a_day_its_text_names_in_words_comes_after_the_memory_expires(vault_dir: Path) -> None:
    """Was (review43b, s43): only a day with its year was read, so "Dentist next Friday at 14:00"
    kept as L2 on Friday the 4th left recall on the morning of the 11th without a word. Words that
    name a day to come (tomorrow, next Friday, in two weeks) are read against the day it is written."""
    friday = "2026-12-04T12:00:00+00:00"
    with Vault(vault_dir) as vault:
        moved = vault.remember("Dentist appointment next Friday at 14:00.", layer="L2", now=friday)
        assert moved.expires_at == "2026-12-11T12:00:00+00:00"
        assert moved.expires_before == "2026-12-11"
        later = vault.remember("The boiler engineer comes back in two weeks.", layer="L2", now=friday)
        assert later.expires_before == "2026-12-18"
        soon = vault.remember("Tyre change tomorrow morning.", layer="L2", now=friday)
        assert soon.expires_before is None  # it lives to see Saturday over
        kept = vault.remember("Yoga moves to next Friday from now on.", layer="L3", now=friday)
        assert kept.expires_before is None
        revised = vault.revise(soon.id, text="Tyre change moved to next Friday.", now=friday)
        assert revised.expires_before == "2026-12-11"


def test_cli_remember_names_the_vaults_own_merge_threshold_as_consolidate_prints_it(vault_dir: Path) -> None:
    """Was (review43b, s43): with ``[consolidate] threshold = 0.877`` in .vaultmem.toml the advice said
    "at this vault's 0.88", a threshold the vault does not have (consolidate says "cosine >= 0.877")."""
    (vault_dir / ".vaultmem.toml").write_text("[consolidate]\nthreshold = 0.877\n", encoding="utf-8")
    assert run_cli(vault_dir, "remember", "User prefers window seats on flights.", "--layer", "L4").exit_code == 0
    again = run_cli(vault_dir, "remember", "User prefers a window seat when flying.", "--layer", "L4")
    assert again.exit_code == 0, again.output
    assert ("merge them with `consolidate --threshold 0.87` (at this vault's 0.877, consolidate keeps them apart)"
            in again.stdout), again.stdout
    assert "near-duplicates at cosine >= 0.877 " in run_cli(vault_dir, "consolidate").stdout
