"""Faults give a clear error, and derived state heals itself (issue 16 §3, adr/0022).

Real vaultmem processes, each under an address-space cap (RLIMIT_AS) so a regression
fails the test instead of the machine:

- a damaged ``index.db`` (random bytes, truncated, bad pages met part-way — by a command
  or by a running ``watch`` —, a WAL that belongs to another database) and a damaged HNSW
  snapshot are set aside and rebuilt,
  with a warning; usage history comes back from the damaged file or the usage backup,
  or the warning says it is lost;
- a vault this user cannot write (run as uid 65534 when the tests run as root; the
  process keeps CAP_DAC_READ_SEARCH so it can start Python from root's home, and nothing
  else) and a read-only file system: read commands answer, write commands fail with one
  line naming the path;
- a full disk: a real ENOSPC on a small tmpfs mounted for the test (needs root; skipped
  otherwise) — and EFBIG from RLIMIT_FSIZE for the snapshot writer, which runs anywhere;
- a command that fails after it wrote a note names the note (CLI text, ``--json``, MCP).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    MEMORY_CAP,
    NOW,
    SAMPLE_VAULT,
    WatchProcess,
    index_matches_disk,
    process_env,
    python_capped,
    snapshot_files,
    vaultmem_capped,
    vaultmem_popen,
    wait_until,
)

from vaultmem.storage import DB_NAME, Store, UsageBackup
from vaultmem.storage.damage import DAMAGED_DIR

NOBODY = 65534
SETPRIV = shutil.which("setpriv")
COFFEE_NOTE = "preferences/coffee-order.md"  # what "how does Maya take her coffee" finds first
USED_NOTE = "preferences/oat-milk.md"
USED_ID = "01M1GJZ1X05GQAPENECFSECZP1"

pytestmark = pytest.mark.slow


# ------------------------------------------------------------------ processes under a memory cap (helpers.py)


def run(vault: Path, *args: str, as_nobody: bool = False, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``vaultmem --vault VAULT ARGS`` as its own process, memory-capped (as uid 65534 if asked)."""
    prefix = [str(SETPRIV), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
              "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"] if as_nobody else []
    return vaultmem_capped(vault, *args, timeout=timeout, prefix=prefix)


def ok(result: subprocess.CompletedProcess[str], *codes: int) -> subprocess.CompletedProcess[str]:
    """The process ended as one of ``codes`` (0 by default), never with a traceback."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (codes or (0,)), (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    return result


def hits(vault: Path, query: str = "how does Maya take her coffee", **options: bool) -> list[str]:
    result = ok(run(vault, "search", query, "-k", "5", "--json", as_nobody=options.get("as_nobody", False)))
    return [hit["path"] for hit in json.loads(result.stdout)]


def use_count(vault: Path, note: str = USED_NOTE) -> int:
    return int(json.loads(ok(run(vault, "get", note, "--json")).stdout)["use_count"])


# ------------------------------------------------------------------ vaults


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample vault, indexed, with two uses of one note (and so a usage backup)."""
    vault = Path(shutil.copytree(SAMPLE_VAULT, tmp_path_factory.mktemp("faults") / "vault",
                                 ignore=shutil.ignore_patterns(".vaultmem")))
    ok(run(vault, "index"))
    ok(run(vault, "used", USED_NOTE))
    ok(run(vault, "used", USED_NOTE))
    return vault


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder other users may enter (pytest's own are 0700): the vault the reader reads."""
    folder = Path(tempfile.mkdtemp(prefix="vaultmem-faults-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


@pytest.fixture
def vault(template: Path, shared_folder: Path) -> Path:
    return Path(shutil.copytree(template, shared_folder / "vault"))


def database(vault: Path) -> Path:
    return vault / ".vaultmem" / DB_NAME


def set_aside_folders(vault: Path) -> list[Path]:
    damaged = vault / ".vaultmem" / DAMAGED_DIR
    return sorted(damaged.iterdir()) if damaged.exists() else []


def snapshot(vault: Path) -> Path:
    """The passages' snapshot: what every search loads (a matrix in a vault this small)."""
    (found,) = (vault / ".vaultmem").glob("passages-*.npz")
    return found


def note_snapshot(vault: Path) -> Path:
    """The whole notes' hnswlib graph (consolidation, the similar-note check)."""
    (found,) = (vault / ".vaultmem").glob("vectors-*.hnsw")
    return found


# ------------------------------------------------------------------ a damaged index.db


def test_an_index_db_of_random_bytes_is_set_aside_and_rebuilt_by_the_next_search(vault: Path) -> None:
    expected = hits(vault)
    garbage = os.urandom(8192)
    database(vault).write_bytes(garbage)

    result = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5", "--json"))

    assert [hit["path"] for hit in json.loads(result.stdout)] == expected
    (folder,) = set_aside_folders(vault)
    assert (folder / DB_NAME).read_bytes() == garbage  # kept for inspection, byte for byte
    assert "was damaged (file is not a database)" in result.stderr and str(folder) in result.stderr
    # Usage history could not be read from random bytes: it came back from the backup.
    assert "restored from" in result.stderr and "usage-backup.jsonl" in result.stderr
    assert use_count(vault) == 2
    assert index_matches_disk(vault)


def test_a_search_that_healed_the_index_says_so_once(vault: Path) -> None:
    """Text: one `!` line in the answer and nothing on stderr; --json: one line on stderr
    (stdout stays the list) — never the same message as a log WARNING too."""
    database(vault).write_bytes(os.urandom(8192))
    text = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5"))
    assert (text.stdout + text.stderr).count("was damaged (file is not a database)") == 1
    assert text.stdout.startswith(f"! the index {database(vault)} was damaged") and "WARNING" not in text.stderr

    database(vault).write_bytes(os.urandom(8192))
    as_json = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5", "--json"))
    assert as_json.stderr.count("was damaged (file is not a database)") == 1 and "WARNING" not in as_json.stderr
    assert as_json.stderr.startswith("warning: the index") and json.loads(as_json.stdout)


def test_a_truncated_index_db_is_recovered_by_index_rebuild(vault: Path) -> None:
    with open(database(vault), "r+b") as handle:
        handle.truncate(50_000)

    result = ok(run(vault, "index", "--rebuild"))

    assert "(rebuilt)" in result.stdout and "was damaged" in result.stderr
    assert len(set_aside_folders(vault)) == 1
    assert index_matches_disk(vault)
    assert use_count(vault) == 2


def fts_root_page(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'passages_fts_data'").fetchone()[0])


def damage_the_full_text_root_page(path: Path) -> None:
    """Bad bytes on the full-text index's root page: opening still works, the first query
    that reads or writes passages' text meets the damage."""
    page_size = 4096
    page = fts_root_page(path)
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * page_size)
        handle.write(b"\x0d" + os.urandom(page_size - 1))


def test_bad_pages_met_part_way_through_a_search_heal_and_the_search_answers(vault: Path) -> None:
    expected = hits(vault)
    damage_the_full_text_root_page(database(vault))

    result = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5", "--json"))

    assert [hit["path"] for hit in json.loads(result.stdout)] == expected
    # SQLite names the damage it met, which depends on the random bytes: "database disk image
    # is malformed", "vtable constructor failed: passages_fts", ...
    assert "was damaged (" in result.stderr and "rebuilt from the vault" in result.stderr
    # The usage table's pages were intact: it was read back out of the damaged file.
    assert "Usage history of 1 note(s) was read back from the damaged file" in result.stderr
    assert use_count(vault) == 2


def test_a_running_watcher_that_meets_a_damaged_index_heals_it_and_keeps_watching(vault: Path, tmp_path: Path) -> None:
    watcher = WatchProcess(vault, tmp_path, capped=True)
    try:
        watcher.wait_ready()
        damage_the_full_text_root_page(database(vault))  # under the watcher's open connection
        # Indexing this note writes its passages' text: the worker meets the damage there.
        (vault / "people" / "Rui.md").write_text("---\nlayer: L4\n---\nRui now lives in Porto, by the river.\n",
                                                 encoding="utf-8")
        wait_until(lambda: "rebuilt from the vault" in watcher.errors(), timeout=120, what="the watcher to heal the index")
        # Still watching, on the new index: a later note is indexed by the same worker.
        (vault / "people" / "Ines.md").write_text("---\nlayer: L4\n---\nInes keeps bees on the roof in Alfama.\n",
                                                  encoding="utf-8")
        wait_until(lambda: "added people/Ines.md" in watcher.output(), timeout=120, what="the watcher to index a new note")
        assert watcher.process.poll() is None
    finally:
        code = watcher.stop()

    assert code == 0 and "Traceback" not in watcher.errors(), watcher.errors()
    assert f"the index {database(vault)} was damaged" in watcher.errors()
    (folder,) = set_aside_folders(vault)  # set aside once, by the watcher
    assert (folder / DB_NAME).exists()
    assert "Usage history of 1 note(s) was read back from the damaged file" in watcher.errors()
    assert index_matches_disk(vault)
    assert "people/Rui.md" in hits(vault, "who lives in Porto by the river")
    assert use_count(vault) == 2


def test_a_wal_that_belongs_to_another_database_is_set_aside_with_it(vault: Path, tmp_path: Path) -> None:
    other = Path(shutil.copytree(vault, tmp_path / "other"))
    (other / "Maya.md").write_text("---\nlayer: L4\n---\nMaya is someone else entirely here.\n", encoding="utf-8")
    writer = sqlite3.connect(database(other), isolation_level=None)  # keep its WAL: never checkpoint or close
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("DELETE FROM passages_fts")
    writer.execute("UPDATE notes SET title = 'not this vault', content_hash = 'x'")
    with open(database(vault), "r+b") as handle:  # this database moves on without that WAL ...
        handle.seek(4096 * 3)
        handle.write(bytes(4096))
    shutil.copy(database(other).with_name(DB_NAME + "-wal"), database(vault).with_name(DB_NAME + "-wal"))
    writer.close()

    result = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5", "--json"))

    assert COFFEE_NOTE in [hit["path"] for hit in json.loads(result.stdout)]
    (folder,) = set_aside_folders(vault)
    assert (folder / (DB_NAME + "-wal")).exists()  # moved with its database, never replayed into the new one
    assert index_matches_disk(vault)


def test_usage_history_that_cannot_be_read_and_has_no_backup_is_said_to_be_lost(vault: Path) -> None:
    database(vault).write_bytes(os.urandom(4096))
    (vault / ".vaultmem" / "usage-backup.jsonl").unlink()

    result = ok(run(vault, "stats"))

    assert "there is no usage backup" in result.stderr and "lost" in result.stderr
    assert use_count(vault) == 0
    assert "notes: 40" in result.stdout


def test_an_index_db_deleted_on_its_own_gets_its_usage_history_back_from_the_backup(vault: Path) -> None:
    for name in (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm"):
        (vault / ".vaultmem" / name).unlink(missing_ok=True)

    result = ok(run(vault, "stats"))

    assert "usage history of 1 note(s) was restored from" in result.stderr
    assert use_count(vault) == 2
    assert "restored" not in run(vault, "stats").stderr  # said once


def test_two_processes_meeting_the_same_damage_set_it_aside_once(vault: Path) -> None:
    database(vault).write_bytes(os.urandom(8192))
    processes = [vaultmem_popen(vault, "search", "coffee", "--json", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                capped=True) for _ in range(2)]
    results = [tuple(stream.decode() for stream in process.communicate(timeout=300)) for process in processes]

    for process, (stdout, stderr) in zip(processes, results, strict=True):
        assert process.returncode == 0 and "Traceback" not in stderr, stderr
        # One heals; the other either waited for it (and finds the note) or came while the
        # vault was being indexed again, and says its answer may be incomplete.
        found = COFFEE_NOTE in [hit["path"] for hit in json.loads(stdout)]
        assert found or "the index is being rebuilt" in stderr, (stdout, stderr)
    assert len(set_aside_folders(vault)) == 1
    assert use_count(vault) == 2
    assert index_matches_disk(vault)


def test_a_damaged_index_met_by_a_write_is_healed_and_the_note_is_written_once(vault: Path) -> None:
    database(vault).write_bytes(os.urandom(8192))

    result = ok(run(vault, "remember", "The boiler service is booked for the ninth of December", "--layer", "L3",
                    "--json"))

    written = json.loads(result.stdout)["path"]
    assert sorted(path.name for path in (vault / "memories").iterdir()) == [Path(written).name]
    assert written in hits(vault, "boiler service booked")
    assert index_matches_disk(vault)


# ------------------------------------------------------------------ a damaged HNSW snapshot


@pytest.mark.parametrize("damage", ["garbage", "truncated", "one byte flipped"])
def test_a_damaged_snapshot_is_set_aside_searched_exactly_and_rebuilt(vault: Path, damage: str) -> None:
    expected = hits(vault)
    path = snapshot(vault)
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        data = bytearray(os.urandom(len(data)))
    elif damage == "truncated":
        data = data[: len(data) // 3]
    else:
        data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))

    result = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5", "--json"))

    assert [hit["path"] for hit in json.loads(result.stdout)] == expected
    assert f"the vector snapshot {path.name} was damaged" in result.stderr
    (folder,) = set_aside_folders(vault)
    assert (folder / path.name).read_bytes() == bytes(data)
    rebuilt = snapshot(vault)  # a new one, already folded by that search
    assert rebuilt.name != path.name
    assert hits(vault) == expected
    assert "damaged" not in run(vault, "search", "coffee").stderr


def test_a_garbage_snapshot_from_before_checksums_is_caught_by_its_reader(vault: Path) -> None:
    expected = hits(vault)
    path = snapshot(vault)
    legacy = path.with_name(path.name.rsplit("-", 1)[0] + ".npz")  # passages-<seq>-<id>.npz: no checksum
    with sqlite3.connect(database(vault)) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'passage_snapshot_file'", (legacy.name,))
    path.rename(legacy)
    legacy.write_bytes(os.urandom(legacy.stat().st_size))

    result = ok(run(vault, "search", "how does Maya take her coffee", "-k", "5", "--json"))

    assert [hit["path"] for hit in json.loads(result.stdout)] == expected
    assert "numpy cannot read it" in result.stderr


def test_a_snapshot_cut_short_by_a_file_size_limit_is_never_published(vault: Path) -> None:
    # RLIMIT_FSIZE makes write() fail with EFBIG (Python ignores SIGXFSZ); hnswlib writes
    # through a C++ stream that ignores the failure, so only a size check can tell.
    before = note_snapshot(vault)
    limit = before.stat().st_size // 2
    code = (
        "import resource, sys\n"
        "from vaultmem.vault import Vault\n"
        "from vaultmem.vectors import VectorIndex\n"
        "vault = Vault(sys.argv[1])\n"
        "store = vault.store  # opened first: SQLite's own files exist before the limit\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        "try:\n"
        "    VectorIndex(store, store.vectors.dimension()).fold(force=True)\n"
        "except OSError as error:\n"
        "    print('refused:', error)\n"
    )
    result = python_capped(code, str(vault))

    assert "refused:" in result.stdout and "cut short" in result.stdout, (result.stdout, result.stderr)
    assert note_snapshot(vault) == before  # still the published one; no short file, no temp file left
    assert not list((vault / ".vaultmem").glob("*.tmp"))
    assert "damaged" not in ok(run(vault, "search", "coffee")).stderr


def test_a_passage_snapshot_that_does_not_fit_on_the_disk_names_the_file_it_was_writing(vault: Path) -> None:
    # numpy's savez fails (EFBIG here, ENOSPC on a full disk) from the file's flush, with no
    # file name: `vaultmem index` on a full disk said only "cannot write: No space left on device".
    before = snapshot(vault)
    limit = before.stat().st_size // 2
    code = (
        "import resource, sys\n"
        "from vaultmem.vault import Vault\n"
        "from vaultmem.storage import PASSAGE_SPACE\n"
        "from vaultmem.vectors import VectorIndex\n"
        "vault = Vault(sys.argv[1])\n"
        "store = vault.store  # opened first: SQLite's own files exist before the limit\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        "try:\n"
        "    VectorIndex(store, store.vectors.dimension(), PASSAGE_SPACE).fold(force=True)\n"
        "except OSError as error:\n"
        "    print('refused:', error.filename, '|', error.strerror)\n"
    )
    result = python_capped(code, str(vault))

    assert "refused:" in result.stdout, (result.stdout, result.stderr)
    named, _, said = result.stdout.partition(" | ")
    assert str(vault / ".vaultmem" / "passages-") in named and "vector snapshot" in said, result.stdout
    assert snapshot(vault) == before  # still the published one; no temp file left
    assert not list((vault / ".vaultmem").glob("*.tmp"))
    assert "damaged" not in ok(run(vault, "search", "coffee")).stderr


# ------------------------------------------------------------------ a vault this user cannot write


@pytest.fixture
def reader() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs vaultmem as a user who may read the vault but not write it."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run vaultmem as another user (uid 65534)")
    if SETPRIV is None:
        pytest.skip("needs setpriv (util-linux) to run vaultmem as uid 65534")
    return lambda vault, *args: run(vault, *args, as_nobody=True)


READ_COMMANDS = [
    ["search", "how does Maya take her coffee", "-k", "5"],
    ["get", USED_NOTE],
    ["stats"],
    ["check"],
    ["stale", "--days", "1"],
    ["usage", "export"],
    ["expire", "--as-of", NOW],
    ["consolidate"],
]


def index_files(vault: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in (vault / ".vaultmem").iterdir() if path.is_file()}


def comparable(command: list[str], stdout: str) -> object:
    if command[0] == "stats":  # the index's size counts SQLite's WAL files, which a writer has open
        return {key: value for key, value in json.loads(stdout).items() if key != "index_bytes"}
    if command[0] == "consolidate":  # its report says when it ran
        return json.loads(stdout)["clusters"]
    if command[0] == "stale":  # idle days are counted to the moment each command ran (294.1 then 294.2)
        return [{key: value for key, value in entry.items() if not key.endswith("days")} for entry in json.loads(stdout)]
    return stdout


def test_read_commands_answer_from_an_index_this_user_cannot_write(vault: Path, reader: Callable[..., Any]) -> None:
    commands = [[*command, *(["--json"] if command[0] not in ("usage", "check") else [])] for command in READ_COMMANDS]
    own = [run(vault, *command) for command in commands]
    before, index_before = snapshot_files(vault), index_files(vault)
    for command, mine in zip(commands, own, strict=True):
        theirs = ok(reader(vault, *command), mine.returncode)  # check exits 1: the sample vault has problems on purpose
        assert comparable(command, theirs.stdout) == comparable(command, mine.stdout), command
        if command[0] != "check":  # check reads the files only
            assert "cannot be written here" in theirs.stderr and str(database(vault)) in theirs.stderr
    assert snapshot_files(vault) == before
    assert index_files(vault) == index_before


def test_search_says_in_its_answer_that_the_index_is_read_only(vault: Path, reader: Callable[..., Any]) -> None:
    result = ok(reader(vault, "search", "coffee"))
    assert result.stdout.startswith(f"! the index {database(vault)} cannot be written here")


WRITE_COMMANDS = [
    ["remember", "The plumber comes on Tuesday"],
    ["forget", USED_NOTE],
    ["used", USED_NOTE],
    ["index"],
    ["index", "--rebuild"],
    ["expire", "--apply"],
    ["consolidate", "--apply"],
    ["check", "--fix"],
]


def test_write_commands_fail_with_one_line_naming_the_path_and_change_nothing(vault: Path, reader: Callable[..., Any],
                                                                              tmp_path: Path) -> None:
    before = snapshot_files(vault)
    export = tmp_path / "usage.json"
    export.write_text(ok(run(vault, "usage", "export")).stdout, encoding="utf-8")
    for command in [*WRITE_COMMANDS, ["usage", "import", str(export)]]:
        result = ok(reader(vault, *command), 1)
        # The refusal alone: not first the read-only copy's "answering from a private copy" warning.
        [line] = result.stderr.splitlines()
        assert line.startswith(f"Error: cannot write the index {database(vault)}"), (command, result.stderr)
    assert snapshot_files(vault) == before
    assert use_count(vault) == 2


def test_a_note_in_a_folder_this_user_cannot_write_is_named_by_its_path_not_a_temp_file(
        shared_folder: Path, reader: Callable[..., Any]) -> None:
    # Was: "cannot write .n.md.b8b7258a.tmp: Permission denied" (revise: vaultmem's temp
    # file) and "cannot write n.md" (forget: the bare name) — neither says which note.
    vault = shared_folder / "vault"
    (vault / "locked").mkdir(parents=True)
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (vault / "locked/n.md").write_text("---\ntitle: Locked\n---\nThe plumber comes on Tuesday.\n", encoding="utf-8")
    for path in [vault, *vault.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    ok(reader(vault, "index"))
    (vault / "locked").chmod(0o555)
    before = snapshot_files(vault)
    for command in (["revise", "locked/n.md", "--set", "k=v"], ["forget", "locked/n.md"], ["forget", "locked/n.md", "--hard"]):
        [line] = ok(reader(vault, *command), 1).stderr.splitlines()
        # (forget names where it was moving the note too: the refusal may be that folder's)
        assert line.startswith("Error: cannot write locked/n.md") and ": Permission denied" in line, (command, line)
        assert ".tmp" not in line, (command, line)
    assert snapshot_files(vault) == before


def test_an_archive_folder_this_user_cannot_write_is_named_not_only_the_note_being_archived(
        shared_folder: Path, reader: Callable[..., Any]) -> None:
    # Was: "cannot write locked/n.md: Permission denied" of a note this user may write: the
    # refusal was the archive's folder (made by root), and the person chmod-ed the wrong file.
    vault = shared_folder / "vault"
    (vault / "locked").mkdir(parents=True)
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (vault / "locked/n.md").write_text("---\ntitle: Locked\n---\nThe plumber comes on Tuesday.\n", encoding="utf-8")
    for path in [vault, *vault.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    ok(reader(vault, "index"))
    (vault / "_archive").mkdir(mode=0o755)  # root's: this user cannot make _archive/locked in it
    before = snapshot_files(vault)
    [line] = ok(reader(vault, "forget", "locked/n.md"), 1).stderr.splitlines()
    assert line.startswith("Error: cannot write locked/n.md (moving it to _archive/locked/n.md): Permission denied"), line
    (vault / "_archive/locked").mkdir(mode=0o755)  # there, but not this user's to write in
    [line] = ok(reader(vault, "forget", "locked/n.md"), 1).stderr.splitlines()
    assert line.startswith("Error: cannot write locked/n.md (moving it to _archive/locked/n.md): Permission denied"), line
    assert snapshot_files(vault) == before


def test_a_merge_whose_archive_folder_this_user_cannot_write_is_not_said_to_have_changed(
        shared_folder: Path, reader: Callable[..., Any]) -> None:
    # Was: "memories/b.md changed while it was being merged …; run consolidate again to review
    # it" — no one had changed it, and running it again met the same folder.
    vault = shared_folder / "vault"
    (vault / "memories").mkdir(parents=True)
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    for name, day in (("a", "01"), ("b", "02")):
        (vault / f"memories/{name}.md").write_text(
            f"---\ntitle: Standup {name}\nlayer: L3\nexpires_at: 2027-06-01T00:00:00Z\ncreated: 2026-11-{day}T00:00:00Z\n---\n"
            "The Harbor standup moved to 10:00 on Tuesdays.\n", encoding="utf-8")
    for path in [vault, *vault.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    (vault / "_archive").mkdir(mode=0o755)  # root's
    ok(reader(vault, "index"))
    before = snapshot_files(vault)
    report = json.loads(ok(reader(vault, "consolidate", "--apply", "--json")).stdout)
    [skipped] = report["skipped"]
    assert skipped["reason"].startswith("memories/b.md could not be moved to the archive ([Errno 13] Permission denied"), skipped
    assert "changed while" not in skipped["reason"]
    assert report["merged"] == []
    # the kept note was written and put back (its bytes as they were)
    assert {path: data for path, (data, _mtime) in snapshot_files(vault).items()} == {
        path: data for path, (data, _mtime) in before.items()}


def test_the_json_error_of_a_refused_write_is_one_document(vault: Path, reader: Callable[..., Any]) -> None:
    result = ok(reader(vault, "remember", "The plumber comes on Tuesday", "--json"), 1)
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "IndexNotWritable" and str(database(vault)) in error["message"]


def test_a_vault_without_an_index_that_this_user_cannot_write_says_why_it_cannot_answer(
        shared_folder: Path, reader: Callable[..., Any]) -> None:
    vault = Path(shutil.copytree(SAMPLE_VAULT, shared_folder / "unindexed", ignore=shutil.ignore_patterns(".vaultmem")))
    for command in (["search", "coffee"], ["get", USED_NOTE], ["stats"], ["index"]):
        result = ok(reader(vault, *command), 1)
        assert "has no index yet" in result.stderr and str(database(vault)) in result.stderr
        assert "cannot create" in result.stderr
    assert ok(reader(vault, "check"), 1).stdout.endswith("problem(s)\n")  # check needs no index
    assert not (vault / ".vaultmem").exists()


def test_a_damaged_index_this_user_cannot_write_is_reported_not_rebuilt(vault: Path, reader: Callable[..., Any]) -> None:
    garbage = os.urandom(8192)
    database(vault).write_bytes(garbage)
    result = ok(reader(vault, "search", "coffee"), 1)
    assert "is damaged" in result.stderr and "Run `vaultmem index` as a user who can write" in result.stderr
    assert database(vault).read_bytes() == garbage and not set_aside_folders(vault)


# ------------------------------------------------------------------ a small file system: read-only, full




def fill(disk: Path, leave_pages: int = 0) -> Path:
    """Fill ``disk`` until ENOSPC, then give back ``leave_pages`` 4 KiB pages."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(descriptor, bytes(1 << 16))
    except OSError as error:
        assert error.errno == 28  # ENOSPC, for real
    try:
        while True:
            os.write(descriptor, bytes(4096))
    except OSError:
        pass
    os.ftruncate(descriptor, max(0, os.fstat(descriptor).st_size - leave_pages * 4096))
    os.close(descriptor)
    return filler


@pytest.fixture
def vault_on_small_disk(template: Path, small_disk: Path) -> Path:
    return Path(shutil.copytree(template, small_disk / "vault"))


def test_on_a_read_only_file_system_reads_answer_and_writes_name_the_path(vault_on_small_disk: Path, small_disk: Path) -> None:
    vault = vault_on_small_disk
    expected = hits(vault)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)

    assert hits(vault) == expected
    assert "read-only file system" in ok(run(vault, "stats")).stderr
    for command in (["remember", "The plumber comes on Tuesday"], ["used", USED_NOTE], ["index"]):
        result = ok(run(vault, *command), 1)
        [line] = result.stderr.splitlines()  # the error alone, no "answering from a private copy" warning
        assert line.startswith(f"Error: cannot write the index {database(vault)}"), result.stderr


def test_remember_on_a_full_disk_fails_clearly_writes_nothing_and_works_once_there_is_room(vault_on_small_disk: Path,
                                                                                            small_disk: Path) -> None:
    vault = vault_on_small_disk
    before = snapshot_files(vault)
    filler = fill(small_disk)

    result = ok(run(vault, "remember", "The plumber comes on Tuesday at ten", "--json"), 1)
    assert "full" in json.loads(result.stdout)["error"]["message"]
    assert snapshot_files(vault) == before  # not a byte, not a temp file
    assert hits(vault) == hits(vault)  # reads still answer (from a private copy), the same each time
    assert COFFEE_NOTE in hits(vault)

    filler.unlink()
    written = json.loads(ok(run(vault, "remember", "The plumber comes on Tuesday at ten", "--json")).stdout)["path"]
    assert written in hits(vault, "plumber Tuesday")
    assert index_matches_disk(vault)


def test_index_on_a_full_disk_refuses_and_the_index_catches_up_once_there_is_room(vault_on_small_disk: Path,
                                                                                  small_disk: Path) -> None:
    vault = vault_on_small_disk
    (vault / "people" / "Rui.md").write_text("---\nlayer: L4\n---\nRui now lives in Porto, by the river.\n", encoding="utf-8")
    filler = fill(small_disk)

    result = ok(run(vault, "index"), 1)
    assert "the disk holding it is full" in result.stderr and str(database(vault)) in result.stderr

    filler.unlink()
    ok(run(vault, "index"))
    assert index_matches_disk(vault)
    assert "people/Rui.md" in hits(vault, "who lives in Porto by the river")


@pytest.fixture
def held_open(vault_on_small_disk: Path) -> Iterator[None]:
    """Another process with the index open (as a running `watch` or MCP server has): its
    WAL and shared-memory files exist, so a command can open the index on a full disk and
    fail only when it writes."""
    holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys, time\n"
                               "c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM notes').fetchone()\n"
                               "print('open', flush=True); time.sleep(600)", str(database(vault_on_small_disk))],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
    try:
        yield
    finally:
        holder.kill()
        holder.wait()


def test_a_note_written_before_the_index_write_failed_is_named_so_a_retry_does_not_duplicate_it(
        vault_on_small_disk: Path, small_disk: Path, held_open: None) -> None:
    vault = vault_on_small_disk
    filler = fill(small_disk, leave_pages=3)  # room for the note, not for the index's WAL frames
    text_result = ok(run(vault, "remember", "The plumber comes on Tuesday at ten"), 1)
    # The next remember brings the index in line with the files before it chooses a file name:
    # the plumber's note cannot be indexed yet, so it is refused before it writes anything.
    refused = ok(run(vault, "remember", "The electrician comes on Friday at nine", "--json"), 1)
    assert json.loads(refused.stdout)["error"]["type"] == "IndexNotWritable"
    assert len(list((vault / "memories").iterdir())) == 1
    filler.unlink()
    ok(run(vault, "index"))
    filler = fill(small_disk, leave_pages=3)
    json_result = ok(run(vault, "remember", "The electrician comes on Friday at nine", "--json"), 1)

    (written,) = [path for path in (vault / "memories").iterdir() if "plumber" in path.name]
    relative = written.relative_to(vault).as_posix()
    assert f"the note was written to {relative} and exists now" in text_result.stderr
    assert "Do not remember it again" in text_result.stderr and "full" in text_result.stderr
    error = json.loads(json_result.stdout)["error"]
    assert error["type"] == "NoteWritten" and len(error["written"]) == 1
    assert "\n---\nThe electrician comes on Friday at nine" in (vault / error["written"][0]).read_text(encoding="utf-8")

    filler.unlink()
    ok(run(vault, "index"))
    assert relative in hits(vault, "plumber Tuesday ten")
    assert len(list((vault / "memories").iterdir())) == 2  # no duplicate was needed
    assert index_matches_disk(vault)


def test_mcp_remember_that_fails_after_writing_names_the_note_in_the_tool_error(
        vault_on_small_disk: Path, small_disk: Path, tmp_path: Path, held_open: None) -> None:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_client import CALL_SECONDS, STARTUP_SECONDS, run as run_scenario, text_of

    vault = vault_on_small_disk
    launcher = ("import resource, sys\n"  # the server, memory-capped like every process here
                f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_CAP}, {MEMORY_CAP}))\n"
                "sys.argv = ['vaultmem', *sys.argv[1:]]\n"
                "from vaultmem.cli import main\n"
                "main()\n")
    parameters = StdioServerParameters(command=sys.executable, args=["-c", launcher, "--vault", str(vault), "mcp"],
                                       env=process_env())
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        with (tmp_path / "server.log").open("w", encoding="utf-8") as log:
            async with stdio_client(parameters, errlog=log) as (read, write), ClientSession(read, write) as session:
                with anyio.fail_after(STARTUP_SECONDS):
                    await session.initialize()
                filler = fill(small_disk, leave_pages=3)
                with anyio.fail_after(CALL_SECONDS):
                    failed = await session.call_tool("remember", {"text": "The plumber comes on Tuesday at ten"})
                seen["failed"] = (failed.is_error, text_of(failed))
                filler.unlink()
                with anyio.fail_after(CALL_SECONDS):
                    recalled = await session.call_tool("recall", {"query": "how does Maya take her coffee"})
                seen["recalled"] = recalled.structured_content

    run_scenario(scenario)

    is_error, text = seen["failed"]
    (written,) = (vault / "memories").iterdir()
    assert is_error
    assert f"the note was written to {written.relative_to(vault).as_posix()} and exists now" in text
    assert COFFEE_NOTE in [hit["path"] for hit in seen["recalled"]["hits"]]  # the server kept serving


# ------------------------------------------------------------------ where usage comes back from (in process)


def used_store(state: Path) -> list[Any]:
    store = Store(state)
    with store.transaction():
        store.usage.record(["a", "b"], "2026-11-30T10:00:00+00:00", 1)
        store.usage.record(["a"], "2026-11-30T11:00:00+00:00", 2)
    rows = store.usage.all()
    store.close()
    return rows


def test_usage_is_read_back_from_a_damaged_file_that_still_reads(tmp_path: Path) -> None:
    from vaultmem.healing import recover_usage

    state = tmp_path / ".vaultmem"
    table = used_store(state)
    (state / "usage-backup.jsonl").unlink()  # not needed: the table itself still reads
    rows, sentence = recover_usage(state / DB_NAME, UsageBackup(state))
    assert rows == table and "read back from the damaged file" in sentence


def test_usage_comes_from_the_backup_when_the_damaged_file_does_not_read(tmp_path: Path) -> None:
    from vaultmem.healing import recover_usage

    state = tmp_path / ".vaultmem"
    table = used_store(state)
    (state / DB_NAME).write_bytes(os.urandom(4096))
    rows, sentence = recover_usage(state / DB_NAME, UsageBackup(state))
    assert rows == table and "2 note(s) restored from" in sentence


def test_usage_lost_without_a_backup_is_said_to_be_lost(tmp_path: Path) -> None:
    from vaultmem.healing import recover_usage

    state = tmp_path / ".vaultmem"
    used_store(state)
    (state / DB_NAME).write_bytes(os.urandom(4096))
    (state / "usage-backup.jsonl").unlink()
    rows, sentence = recover_usage(state / DB_NAME, UsageBackup(state))
    assert rows == [] and "no usage backup" in sentence and "lost" in sentence


def test_a_write_that_failed_after_writing_says_its_causes_advice_as_the_surface_runs_it() -> None:
    # Was: the cause inside NoteWritten was its Python text on every surface ("run Vault.index(...)" over MCP).
    from vaultmem.errors import REBUILD, DerivedIndexError, NoteWritten, Spelled
    from vaultmem.option_names import Surface

    written = NoteWritten(["memories/x.md"], "remember", DerivedIndexError(Spelled("the snapshot is gone; ", REBUILD)))
    said = written.spelled(Surface.MCP)
    assert said.startswith("the note was written to memories/x.md and exists now, but then it failed: the snapshot is "
                           "gone; ask the person to run `vaultmem index --rebuild` (no MCP tool rebuilds the index). "
                           "Do not remember it again"), said
    assert "run `vaultmem index --rebuild`. Do not remember it again" in written.spelled(Surface.CLI)
    assert "run Vault.index(rebuild=True). Do not remember it again" in str(written)


@pytest.fixture
def read_only_later(vault: Path) -> Iterator[Callable[[], None]]:
    """Makes the vault's .vaultmem/ read-only when called (a read-only bind mount over it:
    a busy file system cannot be remounted read-only while SQLite holds its files open)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to bind-mount .vaultmem/ read-only")
    state = vault / ".vaultmem"
    mounted: list[Path] = []

    def make_read_only() -> None:
        subprocess.run(["mount", "--bind", str(state), str(state)], check=True)
        mounted.append(state)
        subprocess.run(["mount", "-o", "remount,ro,bind", str(state)], check=True)

    try:
        yield make_read_only
    finally:
        for point in mounted:
            subprocess.run(["umount", "-l", str(point)], check=True)


def test_a_running_mcp_server_whose_index_folder_turns_read_only_still_recalls(
        vault: Path, read_only_later: Callable[[], None], tmp_path: Path) -> None:
    # The server's own watcher fences each read: after a fence it could not create on the
    # read-only .vaultmem/, unlinking it failed with EROFS and recall said "file system error
    # … Read-only file system: …/fence-…" instead of walking the vault and answering.
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_client import CALL_SECONDS, STARTUP_SECONDS, text_of
    from mcp_client import run as run_scenario

    parameters = StdioServerParameters(command=sys.executable, args=["-m", "vaultmem", "--vault", str(vault), "mcp"],
                                       env=process_env())
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        with (tmp_path / "server.log").open("w", encoding="utf-8") as log:
            async with stdio_client(parameters, errlog=log) as (read, write), ClientSession(read, write) as session:
                with anyio.fail_after(STARTUP_SECONDS):
                    await session.initialize()
                read_only_later()
                with anyio.fail_after(CALL_SECONDS):
                    recalled = await session.call_tool("recall", {"query": "how does Maya take her coffee"})
                seen["recalled"] = (recalled.is_error, text_of(recalled), recalled.structured_content)
                with anyio.fail_after(CALL_SECONDS):
                    refused = await session.call_tool("remember", {"text": "The plumber comes on Tuesday at ten"})
                seen["refused"] = (refused.is_error, text_of(refused))

    run_scenario(scenario)

    is_error, text, answer = seen["recalled"]
    assert not is_error, text
    assert COFFEE_NOTE in [hit["path"] for hit in answer["hits"]]
    is_error, text = seen["refused"]
    assert is_error
    assert "IndexNotWritable" in text
    assert not list(vault.rglob("plumber*"))


def test_an_mcp_server_started_on_a_read_only_index_folder_holding_a_stale_fence_still_recalls(
        vault: Path, read_only_later: Callable[[], None], tmp_path: Path) -> None:
    # A reader killed while it waited for a watcher leaves its fence file in .vaultmem/; a watcher
    # removes such stale fences when it starts. On a read-only .vaultmem/ (a disk remounted
    # read-only after an error) that unlink failed with EROFS and stopped the watcher: `watch`
    # exited, and every recall of a server said "WatchError: … Read-only file system: …/fence-…",
    # though the server had logged "watching for changes, serving".
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_client import CALL_SECONDS, STARTUP_SECONDS, text_of
    from mcp_client import run as run_scenario

    stale = vault / ".vaultmem" / "fence-999-deadbeefdeadbeef"
    stale.touch()
    os.utime(stale, (1_700_000_000, 1_700_000_000))  # long before: a reader that died waiting
    read_only_later()
    parameters = StdioServerParameters(command=sys.executable, args=["-m", "vaultmem", "--vault", str(vault), "mcp"],
                                       env=process_env())
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        with (tmp_path / "server.log").open("w", encoding="utf-8") as log:
            async with stdio_client(parameters, errlog=log) as (read, write), ClientSession(read, write) as session:
                with anyio.fail_after(STARTUP_SECONDS):
                    await session.initialize()
                with anyio.fail_after(CALL_SECONDS):
                    recalled = await session.call_tool("recall", {"query": "how does Maya take her coffee"})
                seen["recalled"] = (recalled.is_error, text_of(recalled), recalled.structured_content)

    run_scenario(scenario)

    is_error, text, answer = seen["recalled"]
    assert not is_error, text
    assert COFFEE_NOTE in [hit["path"] for hit in answer["hits"]]
    assert stale.exists()  # left as it was: nothing may be written there
