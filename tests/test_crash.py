"""Crash safety: ``kill -9`` of ``index`` or ``watch`` at any instant, then ``index``,
gives exactly what ``index --rebuild`` gives (same notes, vectors, search results).

Real processes on a realistic generated vault with the default embedder; the kill
points are found by watching the database from outside, not by sleeping.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import (
    REBUILD_QUERIES,
    assert_same_as_rebuild,
    generate_vault,
    git,
    index_matches_disk,
    index_state,
    init_repo,
    search_hits,
    vaultmem_popen,
    vaultmem_process,
    wait_until,
)
from vaultmem.config import STATE_DIR
from vaultmem.storage import DB_NAME
from vaultmem.vault import Vault

# Three commits of 512 notes: seconds of indexing to kill into, and few enough notes that
# HNSW (approximate, and built in parallel: not deterministic) finds the same hits as an
# exact search; on thousands of notes two rebuilds already differ in the tail of the hits.
NOTES = 1200
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_vault(tmp_path_factory.mktemp("template") / "vault", NOTES, seed=20261130)


@pytest.fixture
def vault(template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(template, tmp_path / "vault"))


@pytest.fixture(scope="module")
def other_notes(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Notes of another generated vault: new content, not near-copies of existing notes
    (near-copies make ties that any approximate index may order either way)."""
    root = generate_vault(tmp_path_factory.mktemp("others") / "vault", 600, seed=7)
    return sorted(root.rglob("*.md"))


def observe(vault: Path, query: str) -> int:
    """One number from the index of a running process (read-only; -1 while there is none)."""
    database = vault / STATE_DIR / DB_NAME
    if not database.exists():
        return -1
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=0.2)
        try:
            return int(connection.execute(query).fetchone()[0] or 0)
        finally:
            connection.close()
    except sqlite3.OperationalError:
        return -1  # tables not created yet, or the database is being created


def notes_count(vault: Path) -> int:
    return observe(vault, "SELECT count(*) FROM notes")


def kill_when(process: subprocess.Popen[bytes], reached: Callable[[], bool], what: str) -> None:
    """SIGKILL ``process`` as soon as ``reached()``; fail if it finished before that."""
    wait_until(lambda: process.poll() is not None or reached(), timeout=120, interval=0.005, what=what)
    assert process.poll() is None, f"the process finished before {what}; make the vault larger"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL


def index_then_compare(vault: Path) -> None:
    result = vaultmem_process(vault, "index", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert index_matches_disk(vault)
    # Titles: queries with a clear answer. A vague query's third hit can differ between
    # two rebuilds of the same vault (see assert_same_as_rebuild), so it proves nothing here.
    assert_same_as_rebuild(vault, title_queries(vault, 12), top=3, scores=False)


def title_queries(vault: Path, count: int = 8) -> list[str]:
    """Titles of live notes spread over the vault: queries with a clear answer."""
    now_us = time.time_ns() // 1000
    with Vault(vault) as opened:
        titles = sorted((row.path, row.title) for row in opened.store.notes.all() if row.expires_us is None or row.expires_us > now_us)
    return [title for _, title in titles[:: max(1, len(titles) // count)]][:count]


KILL_POINTS: dict[str, Callable[[Path], bool]] = {
    "while the database is created": lambda vault: (vault / STATE_DIR / DB_NAME).exists(),
    "after the first chunk": lambda vault: notes_count(vault) >= 1,
    "half way": lambda vault: notes_count(vault) >= NOTES // 2,
    "after the last chunk (removals, fold)": lambda vault: notes_count(vault) >= NOTES,
}


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_kill_index_then_index_equals_rebuild(vault: Path, point: str) -> None:
    process = vaultmem_popen(vault, "index")
    kill_when(process, lambda: KILL_POINTS[point](vault), point)
    index_then_compare(vault)


@pytest.mark.parametrize("rebuild", [False, True], ids=["index", "index --rebuild"])
def test_ctrl_c_during_index_exits_130_saying_the_next_command_finishes_it(vault: Path, rebuild: bool) -> None:
    """Was (s31, a first hour with the CLI): Ctrl-C printed click's "Aborted!" and exited 1, a
    failed command's code, with no word on whether the index or the notes were left broken."""
    before = {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in vault.rglob("*.md")}
    if rebuild:
        assert vaultmem_process(vault, "index", timeout=300).returncode == 0
    process = vaultmem_popen(vault, "index", *(["--rebuild"] if rebuild else []), stderr=subprocess.PIPE)
    # the first chunk (of a rebuild: once its tables were emptied, the notes came back one chunk)
    wait_until(lambda: process.poll() is not None or 1 <= notes_count(vault) < NOTES, timeout=120, interval=0.005,
               what="the first chunk")
    assert process.poll() is None, "the index finished before Ctrl-C; make the vault larger"
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    said = stderr.decode("utf-8")
    assert process.returncode == 130, said
    assert "index interrupted: your notes are untouched" in said and "Traceback" not in said and "Aborted" not in said
    assert {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in vault.rglob("*.md")} == before
    finished = vaultmem_process(vault, "index", timeout=300)  # what it says: the next command finishes the index
    assert finished.returncode == 0 and "Traceback" not in finished.stderr
    assert index_matches_disk(vault)


def indexed_copy(template: Path, target: Path) -> Path:
    vault = Path(shutil.copytree(template, target))
    assert vaultmem_process(vault, "index", timeout=300).returncode == 0
    return vault


def edit_rename_delete_add(vault: Path, other_notes: list[Path]) -> None:
    """The same changes, byte for byte, wherever they are applied."""
    notes = sorted(path for path in vault.rglob("*.md") if STATE_DIR not in path.parts)
    for path in notes[:500]:
        path.write_text(path.read_text(encoding="utf-8") + "\nEdited before the crash: the harbor moved.\n", encoding="utf-8")
    for path in notes[500:650]:
        path.rename(path.with_name("renamed " + path.name))
    for path in notes[650:800]:
        path.unlink()
    (vault / "new").mkdir()
    for number, path in enumerate(other_notes[:300]):
        shutil.copyfile(path, vault / "new" / f"other-{number:03d}.md")


def assert_same_as_uninterrupted(vault: Path, reference: Path) -> None:
    """Same notes, vectors and search results (paths and scores) as the same work done
    without a crash. Both indexes share their HNSW snapshot and search the changes
    exactly, so unlike a rebuild (a new approximate graph) every hit must agree."""
    assert index_state(vault) == index_state(reference)
    queries = title_queries(reference) + REBUILD_QUERIES
    assert {query: search_hits(vault, query) for query in queries} == {query: search_hits(reference, query) for query in queries}


def test_kill_index_mid_update_then_index_equals_rebuild(template: Path, other_notes: list[Path], tmp_path: Path) -> None:
    """Edits, renames, deletes and new notes: the interrupted run had rows to move and remove."""
    vault = indexed_copy(template, tmp_path / "vault")
    reference = Path(shutil.copytree(vault, tmp_path / "reference"))
    first_seq = observe(vault, "SELECT max(seq) FROM vectors")
    edit_rename_delete_add(vault, other_notes)
    edit_rename_delete_add(reference, other_notes)
    process = vaultmem_popen(vault, "index")
    kill_when(process, lambda: observe(vault, "SELECT max(seq) FROM vectors") >= first_seq + 1, "the first chunk of updates")
    assert vaultmem_process(vault, "index", timeout=300).returncode == 0
    assert vaultmem_process(reference, "index", timeout=300).returncode == 0
    assert index_matches_disk(vault)
    assert_same_as_uninterrupted(vault, reference)
    assert_same_as_rebuild(vault, queries=[])


def test_kill_index_during_an_embedder_switch_then_index_equals_rebuild(vault: Path) -> None:
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    assert vaultmem_process(vault, "index", timeout=300).returncode == 0
    (vault / ".vaultmem.toml").unlink()  # back to the default embedder: every vector must be redone
    process = vaultmem_popen(vault, "index")

    def switching() -> bool:
        return observe(vault, "SELECT count(*) FROM vectors") >= 512 and observe(
            vault, "SELECT count(*) FROM meta WHERE key = 'embedder' AND value LIKE 'wordllama%'") == 1

    kill_when(process, switching, "the first re-embedded chunk")
    index_then_compare(vault)
    with Vault(vault) as opened:
        assert opened.store.vectors.dimension() == 256


def test_kill_a_rebuild_half_way_then_a_search_completes_the_index(template: Path, tmp_path: Path) -> None:
    vault = indexed_copy(template, tmp_path / "vault")
    process = vaultmem_popen(vault, "index", "--rebuild")
    rebuilding = "SELECT count(*) FROM meta WHERE key = 'indexed' AND value = 'rebuilding'"
    kill_when(process, lambda: observe(vault, rebuilding) == 1 and notes_count(vault) >= 1, "the rebuild's first chunk")
    assert notes_count(vault) < NOTES  # killed half-way: the index is partial
    # A search (not `index`) must notice the dead rebuild and finish it before answering.
    query = title_queries(vault, 1)[0]
    result = vaultmem_process(vault, "search", query, "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert hits and not any("rebuilt" in warning for hit in hits for warning in hit["warnings"])
    assert notes_count(vault) == NOTES and index_matches_disk(vault)
    assert observe(vault, rebuilding) == 0
    assert_same_as_rebuild(vault, title_queries(vault, 12), top=3, scores=False)


def burst(vault: Path, other_notes: list[Path]) -> None:
    (vault / "burst").mkdir()
    for number, path in enumerate(other_notes):
        shutil.copyfile(path, vault / "burst" / f"n{number:04d}.md")
    for path in sorted(path for path in vault.rglob("*.md") if STATE_DIR not in path.parts and "burst" not in path.parts)[:100]:
        path.unlink()


def test_kill_watch_mid_burst_then_index_equals_rebuild(template: Path, other_notes: list[Path], tmp_path: Path) -> None:
    vault = indexed_copy(template, tmp_path / "vault")
    reference = Path(shutil.copytree(vault, tmp_path / "reference"))
    log = (tmp_path / "watch.out").open("wb")
    process = vaultmem_popen(vault, "watch", stdout=log)
    wait_until(lambda: "watching" in (tmp_path / "watch.out").read_text(), timeout=60, what="watch to start")
    burst(vault, other_notes)
    kill_when(process, lambda: observe(vault, "SELECT count(*) FROM notes WHERE path LIKE 'burst/%'") >= 1, "the watcher's first batch")
    log.close()
    burst(reference, other_notes)
    assert vaultmem_process(vault, "index", timeout=300).returncode == 0
    assert vaultmem_process(reference, "index", timeout=300).returncode == 0
    assert index_matches_disk(vault)
    assert_same_as_uninterrupted(vault, reference)
    assert_same_as_rebuild(vault, queries=[])


def test_kill_watch_during_its_start_up_reconcile(vault: Path) -> None:
    process = vaultmem_popen(vault, "watch")
    kill_when(process, lambda: notes_count(vault) >= NOTES // 3, "a third of the start-up reconcile")
    index_then_compare(vault)


# ------------------------------------------------------------------ holes found in review


def write_note(vault: Path, relative: str, body: str) -> Path:
    path = vault / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nlayer: L3\nexpires_at: 2099-01-01\n---\n{body}\n", encoding="utf-8")
    return path


def stored_hash(vault: Path, relative: str) -> str | None:
    with Vault(vault) as opened:
        row = opened.store.notes.by_path(relative)
        return None if row is None else row.content_hash


def rewrite_within_the_same_tick(path: Path, body: str) -> None:
    """Same size, same mtime as the bytes the index read: what a second write inside one
    coarse timestamp tick (a few ms on ext4, 2 s on FAT) leaves behind."""
    stat = path.stat()
    new = path.read_bytes().replace(b"alpha", body.encode())
    assert len(new) == stat.st_size
    path.write_bytes(new)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_rewrite_in_the_same_timestamp_tick_is_not_missed_by_index(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    path = write_note(vault, "racy.md", "alpha")
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    with Vault(vault) as opened:
        opened.index()  # reads the file within the same instant it was written
    rewrite_within_the_same_tick(path, "omega")
    with Vault(vault) as opened:
        opened.index()
    assert stored_hash(vault, "racy.md") == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_rewrite_in_the_same_timestamp_tick_is_not_missed_by_watch(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    path = write_note(vault, "racy.md", "alpha")
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    with Vault(vault) as opened, opened.watch():
        rewrite_within_the_same_tick(path, "omega")
        wait_until(lambda: stored_hash(vault, "racy.md") == hashlib.sha256(path.read_bytes()).hexdigest())


def test_a_lost_snapshot_file_is_rebuilt_by_the_next_fold(tmp_path: Path) -> None:
    """SQLite names a snapshot file that is gone (removed by hand, or by a concurrent
    writer's cleanup): readers fall back to exact search until a fold replaces it."""
    vault = tmp_path / "vault"
    for number in range(20):
        write_note(vault, f"n{number}.md", f"note number{number} about the lighthouse")
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    with Vault(vault) as opened:
        opened.index()
        snapshot = opened.store.vectors.snapshot().file
    assert snapshot is not None
    (vault / STATE_DIR / snapshot).unlink()
    with Vault(vault) as opened:
        assert len(opened.search("lighthouse")) == 10  # exact over every vector, not an error
    with Vault(vault) as opened, opened.watch():  # the start-up reconcile ends with a fold
        pass
    with Vault(vault) as opened:
        assert [hit.path for hit in opened.search("number7", k=1)] == ["n7.md"]


def _facts_vault(root: Path) -> Path:
    """Ten facts, each said three times (a second line in two of them): ten clusters."""
    (root / ".obsidian").mkdir(parents=True)
    (root / "memories").mkdir()
    for fact in range(10):
        said = f"The spare key number {fact} hangs in locker {fact * 7} beside the boiler room door."
        for copy in range(3):
            extra = f"\n\nChecked again on visit {copy}.\n" if copy else "\n"
            (root / "memories" / f"fact-{fact}-{copy}.md").write_text(
                f"---\nlayer: L3\nexpires_at: 2030-01-0{copy + 1}\n---\n{said}{extra}", encoding="utf-8")
    return root


def _notes_of(vault: Path) -> dict[str, str]:
    return {path.relative_to(vault).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(vault.rglob("*.md")) if ".vaultmem" not in path.parts}


def _merged_and_cut_off(whole: Path, cut: Path) -> list[dict]:
    """``whole`` indexed, copied to ``cut``, then merged (``consolidate --apply --all``): ``cut``
    gets the kept notes the merge wrote and nothing else, the state a kill leaves between the
    kept notes' writes and the archive moves. The merge's clusters, as its JSON lists them."""
    assert vaultmem_process(whole, "index").returncode == 0
    shutil.copytree(whole, cut)
    merged: list[dict] = json.loads(vaultmem_process(whole, "consolidate", "--apply", "--all", "--json").stdout)["merged"]
    for cluster in merged:
        shutil.copyfile(whole / cluster["canonical"], cut / cluster["canonical"])
    return merged


def test_a_merge_killed_before_its_notes_were_archived_is_never_merged_elsewhere_nor_left_unsaid(tmp_path: Path) -> None:
    # `consolidate --apply` writes the canonical (merged_from, the merged notes' lines) before it
    # moves the merged notes to the archive; a kill -9 in between left them in the vault, and the
    # next consolidate merged them into an unrelated note (a trial: "fact 2" into "fact 14"), or
    # left them beside the canonical that claims them, without a word.
    whole, cut = _facts_vault(tmp_path / "whole"), tmp_path / "cut"
    merged = _merged_and_cut_off(whole, cut)
    assert len(merged) == 10
    recorder = {note["path"]: cluster["canonical"] for cluster in merged for note in cluster["merged"]}

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    merged_into = {note["path"]: cluster["canonical"] for cluster in [*report["merged"], *report["finished"]]
                   for note in cluster["merged"]}
    reasons = {entry["path"]: entry["reason"] for entry in report["left_out"]}
    for path, canonical in recorder.items():
        if path in merged_into:
            assert merged_into[path] == canonical, (path, merged_into[path])
        else:
            assert path in reasons, f"{path} is neither merged into {canonical} nor said to be left out"
            assert canonical in reasons[path], reasons[path]
            assert "vaultmem forget" in reasons[path], reasons[path]
            assert (cut / path).read_text(encoding="utf-8") == (whole / "_archive" / path).read_text(encoding="utf-8")


def _sectioned_facts_vault(root: Path) -> Path:
    """Ten facts, each said three times, two of them with a line of their own: ten clusters of
    three, whose merges append a section (the lines only a merged note held) to the kept note."""
    (root / ".obsidian").mkdir(parents=True)
    (root / "memories").mkdir()
    extras = ["", "\n\nLift the handle first.", "\n\nDana has the code."]
    for fact in range(10):
        said = (f"The spare key number {fact} for the garage hangs in locker {fact * 7} beside the boiler room door, "
                "on the left hook under the shelf.")
        for copy, extra in enumerate(extras):
            (root / "memories" / f"fact-{fact}-{copy}.md").write_text(
                f"---\nlayer: L3\nexpires_at: 2030-01-0{copy + 1}\n---\n{said}{extra}\n", encoding="utf-8")
    return root


def _linked_facts_vault(root: Path, pages: int) -> Path:
    """:func:`_sectioned_facts_vault`, and ``pages`` of the person's notes (no layer) that link to the
    facts: a merge rewrites their links after writing the kept notes and before archiving, seconds to kill into."""
    _sectioned_facts_vault(root)
    (root / "pages").mkdir()
    for page in range(pages):
        fact, copy = page % 10, page % 3
        (root / "pages" / f"visit-{page}.md").write_text(
            f"Visit {page} of block {page * 37 % 101}: see [[fact-{fact}-{copy}]] and [[fact-{(fact + 3) % 10}-{copy}]].\n",
            encoding="utf-8")
    return root


def _kept_notes_written(vault: Path) -> list[str]:
    return [path.name for path in sorted((vault / "memories").glob("fact-*.md")) if b"merged_from" in path.read_bytes()]


def _cut_off_merge(tmp_path: Path) -> tuple[Path, Path]:
    """(a vault whose `consolidate --apply` was SIGKILLed after it wrote a kept note and before it
    archived any merged note, the same vault merged by an uninterrupted run)."""
    template = _linked_facts_vault(tmp_path / "template", pages=600)
    assert vaultmem_process(template, "index", timeout=300).returncode == 0
    whole = Path(shutil.copytree(template, tmp_path / "whole"))
    assert vaultmem_process(whole, "consolidate", "--apply", "--all", timeout=300).returncode == 0
    cut = Path(shutil.copytree(template, tmp_path / "cut"))
    process = vaultmem_popen(cut, "consolidate", "--apply", "--all")
    kill_when(process, lambda: bool(_kept_notes_written(cut)), "the first kept note's write")
    assert not (cut / "_archive").exists(), "killed after the first archive move; make the vault larger"
    return cut, whole


def test_a_merge_killed_between_the_kept_notes_and_the_archive_is_finished_by_the_next_apply(tmp_path: Path) -> None:
    # A `consolidate --apply` SIGKILLed after it wrote the kept notes (merged_from, the merged
    # notes' lines) and before it archived the merged notes: the next run only said "a merge into
    # it was cut off; run vaultmem forget on it" for each, and left the links to them unrewritten.
    cut, whole = _cut_off_merge(tmp_path)
    written = _kept_notes_written(cut)
    before = _notes_of(cut)

    dry = vaultmem_process(cut, "consolidate", "--all", "--json", timeout=300)

    assert dry.returncode == 0, dry.stderr
    planned = json.loads(dry.stdout)
    assert sorted(Path(cluster["canonical"]).name for cluster in planned["unfinished"]) == written
    assert planned["left_out"] == []
    assert _notes_of(cut) == before  # a dry run

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json", timeout=300)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert sorted(Path(cluster["canonical"]).name for cluster in report["finished"]) == written
    assert report["left_out"] == [] and report["skipped"] == []
    assert _notes_of(cut) == _notes_of(whole)  # as if it had never been killed: notes, links, archive


def test_a_cut_off_merge_does_not_archive_a_merged_note_edited_since(tmp_path: Path) -> None:
    # Finishing a cut-off merge archives a merged note only as the merge read it: a line the
    # person added to it since (or took out of it), or a tag, is not in the kept note, and
    # archiving it would have put their edit where no search finds it.
    whole, cut = _sectioned_facts_vault(tmp_path / "whole"), tmp_path / "cut"
    merged = _merged_and_cut_off(whole, cut)
    assert len(merged) == 10
    sources = {note["path"]: cluster["canonical"] for cluster in merged for note in cluster["merged"]}
    with_section = [path for path, canonical in sources.items() if f"({path})" in (whole / canonical).read_text(encoding="utf-8")]
    added, taken_out = with_section[:2]
    tagged = next(path for path in sources if path not in with_section)
    (cut / added).write_text((cut / added).read_text(encoding="utf-8") + "The locker code changed to 4471.\n", encoding="utf-8")
    kept_line = (cut / taken_out).read_text(encoding="utf-8").rstrip("\n").rsplit("\n\n", 1)[0]
    (cut / taken_out).write_text(kept_line + "\n", encoding="utf-8")  # its line of its own taken out
    (cut / tagged).write_text((cut / tagged).read_text(encoding="utf-8").replace("layer: L3\n", "layer: L3\ntags: [boiler]\n"),
                              encoding="utf-8")
    edited = {added: (cut / added).read_text(encoding="utf-8"), taken_out: (cut / taken_out).read_text(encoding="utf-8"),
              tagged: (cut / tagged).read_text(encoding="utf-8")}

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    finished = {note["path"] for cluster in report["finished"] for note in cluster["merged"]}
    assert finished == set(sources) - set(edited)
    reasons = {entry["path"]: entry["reason"] for entry in report["left_out"]}
    for path, text in edited.items():
        assert (cut / path).read_text(encoding="utf-8") == text  # not archived, not rewritten
        assert sources[path] in reasons[path] and "changed since" in reasons[path], reasons.get(path)
    assert "tags" in reasons[tagged], reasons[tagged]


def test_an_index_killed_after_some_chunks_is_finished_by_reading_only_the_notes_it_had_not_written(vault: Path) -> None:
    # The rules a new index's rows are made under were recorded only at its end: a first index
    # killed after 512 of 1,200 notes left rows "made by another version of vaultmem", so the
    # next `index` read all 1,200 again and said so ("every note read again: the index was made
    # by another version"), although the same vaultmem had just written them.
    process = vaultmem_popen(vault, "index")
    kill_when(process, lambda: notes_count(vault) >= 512, "the first chunk")
    written = notes_count(vault)

    result = vaultmem_process(vault, "index", "--json", timeout=300)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["updated"] == 0, report
    assert report["added"] == NOTES - written
    assert "another version" not in result.stdout + result.stderr
    assert index_matches_disk(vault)


def test_a_new_note_under_the_name_of_a_note_merged_and_archived_is_not_called_a_cut_off_merge(tmp_path: Path) -> None:
    # A note without an `id` is known by its path, and merged_from lists that. Once the merge
    # finished (the merged note in the archive), a new note of the person's under the same name
    # (Obsidian's "Inbox.md" made again) was left out of every consolidate for good, "a merge into
    # it was cut off before this note was archived", and forgetting it, as the reason said, threw
    # away a note no merge holds a line of.
    vault = _facts_vault(tmp_path / "vault")
    assert vaultmem_process(vault, "index").returncode == 0
    merged = json.loads(vaultmem_process(vault, "consolidate", "--apply", "--all", "--json").stdout)["merged"]
    reused = merged[0]["merged"][0]["path"]
    assert (vault / "_archive" / reused).is_file() and not (vault / reused).exists()
    (vault / reused).write_text("---\nlayer: L3\nexpires_at: 2030-01-01\n---\nThe boiler was serviced in May by Ortiz.\n",
                                encoding="utf-8")
    (vault / "memories" / "boiler-again.md").write_text(
        "---\nlayer: L3\nexpires_at: 2030-01-02\n---\nThe boiler was serviced in May by Ortiz.\n", encoding="utf-8")

    result = vaultmem_process(vault, "consolidate", "--all", "--json")

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [entry for entry in report["left_out"] if entry["path"] == reused] == []
    assert any(reused in [cluster["canonical"], *cluster["members"]] for cluster in report["clusters"]), report


def test_a_killed_first_index_of_a_vault_with_dataview_and_its_own_date_properties_is_finished_by_reading_only_the_rest(
        vault: Path) -> None:
    # The rules were recorded at the start (READER_KEY), but the settings the rows were read under
    # (Dataview's inline-query prefixes, the [dates] properties, the daily-note format, the
    # exclusions) only at the end: with Dataview turned on (Obsidian's most used plugin), the next
    # `index` found no prefixes recorded, took them for changed and read all 1,200 notes again.
    (vault / ".obsidian").mkdir(exist_ok=True)
    (vault / ".obsidian/community-plugins.json").write_text('["dataview"]', encoding="utf-8")
    (vault / ".vaultmem.toml").write_text('[dates]\ndate = ["date", "when"]\n', encoding="utf-8")
    process = vaultmem_popen(vault, "index")
    kill_when(process, lambda: notes_count(vault) >= 512, "the first chunk")
    written = notes_count(vault)

    result = vaultmem_process(vault, "index", "--json", timeout=300)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["updated"] == 0, report
    assert report["added"] == NOTES - written
    assert index_matches_disk(vault)


def test_a_killed_first_index_whose_settings_change_before_the_next_reads_its_notes_again(vault: Path) -> None:
    # The other way round: the rows a killed first index wrote were read with Dataview on; turned
    # off before the next `index`, nothing recorded said they were, and they kept Dataview's
    # inline queries left out of their text until their files changed.
    (vault / ".obsidian").mkdir(exist_ok=True)
    (vault / ".obsidian/community-plugins.json").write_text('["dataview"]', encoding="utf-8")
    process = vaultmem_popen(vault, "index")
    kill_when(process, lambda: notes_count(vault) >= 512, "the first chunk")
    written = notes_count(vault)
    (vault / ".obsidian/community-plugins.json").write_text("[]", encoding="utf-8")

    result = vaultmem_process(vault, "index", "--json", timeout=300)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["updated"], report["added"]) == (written, NOTES - written), report


def test_a_killed_rebuild_after_dataview_was_turned_on_is_finished_by_reading_only_the_rest(vault: Path) -> None:
    # `index --rebuild` reads every note under today's settings, but the settings recorded were
    # still the last index's until the rebuild's end: killed after 512 notes, the next `index`
    # took Dataview (turned on since) for changed and read the rebuild's 512 again.
    assert vaultmem_process(vault, "index", timeout=300).returncode == 0
    (vault / ".obsidian").mkdir(exist_ok=True)
    (vault / ".obsidian/community-plugins.json").write_text('["dataview"]', encoding="utf-8")
    process = vaultmem_popen(vault, "index", "--rebuild")
    rebuilt_so_far = ("SELECT CASE WHEN (SELECT value FROM meta WHERE key = 'indexed') = 'rebuilding' "
                      "THEN (SELECT count(*) FROM notes) ELSE 0 END")
    kill_when(process, lambda: observe(vault, rebuilt_so_far) >= 512, "the first chunk of the rebuild")
    written = notes_count(vault)

    result = vaultmem_process(vault, "index", "--json", timeout=300)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["updated"], report["added"]) == (0, NOTES - written), report
    assert index_matches_disk(vault)


def _task_facts_cut_off(root: Path) -> tuple[Path, str, str]:
    """A vault left as a kill leaves a merge between writing the kept note and archiving the other
    (the kept note copied from a vault merged to the end): two copies of a fact, each with the same
    open task, so the merge found the task line in the kept note already and appended nothing of it.
    (the vault, the kept note's path, the left-over note's path)."""
    said = ("The spare key for the garage hangs in locker 14 beside the boiler room door, on the left hook "
            "under the shelf. The deposit for it is €50.\n\n- [ ] Renew the garage permit before March.\n")
    whole = root / "whole"
    (whole / ".obsidian").mkdir(parents=True)
    (whole / "memories").mkdir()
    for copy in range(2):
        (whole / "memories" / f"key-{copy}.md").write_text(f"---\nlayer: L3\nexpires_at: 2030-01-0{copy + 1}\n---\n{said}",
                                                           encoding="utf-8")
    cut = root / "cut"
    merged = _merged_and_cut_off(whole, cut)
    assert len(merged) == 1 and len(merged[0]["merged"]) == 1, merged
    canonical, left_over = merged[0]["canonical"], merged[0]["merged"][0]["path"]
    return cut, canonical, left_over


@pytest.mark.parametrize(("before", "after"), [("- [ ] Renew", "- [x] Renew"), ("€50", "£50"), ("locker 14", "Locker 14")])
def test_a_cut_off_merge_does_not_archive_a_line_the_person_changed_in_a_way_its_words_do_not_show(
        tmp_path: Path, before: str, after: str) -> None:
    # The merge compares lines by their words (merging.normalize: no case, punctuation or task
    # box), so finishing it archived a left-over note whose task the person ticked after the
    # cut-off ("- [x] Renew…" is the kept note's "- [ ] Renew…" in words), or whose €50 became
    # £50: the kept note showed the task open and €50, the edit went to the archive, reported
    # "finished … which holds it".
    cut, canonical, left_over = _task_facts_cut_off(tmp_path)
    edited = (cut / left_over).read_text(encoding="utf-8").replace(before, after)
    (cut / left_over).write_text(edited, encoding="utf-8")

    dry = json.loads(vaultmem_process(cut, "consolidate", "--all", "--json").stdout)
    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert dry["unfinished"] == [] and report["finished"] == [], (dry["unfinished"], report["finished"])
    assert (cut / left_over).read_text(encoding="utf-8") == edited and not (cut / "_archive").exists()
    reasons = {entry["path"]: entry["reason"] for entry in report["left_out"]}
    assert canonical in reasons[left_over] and after.strip("- ") in reasons[left_over], reasons


@pytest.mark.parametrize("line", ["status: done", "layer: L1", "source: https://dentist.example/contact"])
def test_a_cut_off_merge_does_not_archive_a_left_over_note_given_a_property_since(tmp_path: Path, line: str) -> None:
    # The finish compared only what a merge carries into the kept note (tags, names, ids, expiry):
    # a property the person gave the left-over note after the cut-off (a status, another layer, a
    # source) is carried by no merge, and the note went to the archive as "finished … which holds it".
    cut, canonical, left_over = _task_facts_cut_off(tmp_path)
    key = line.split(":")[0]
    text = (cut / left_over).read_text(encoding="utf-8")
    edited = text.replace("layer: L3\n", "").replace("---\n", f"---\n{line}\n", 1) if key == "layer" else \
        text.replace("---\n", f"---\n{line}\n", 1)
    (cut / left_over).write_text(edited, encoding="utf-8")

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["finished"] == [], report["finished"]
    assert (cut / left_over).read_text(encoding="utf-8") == edited and not (cut / "_archive").exists()
    reasons = {entry["path"]: entry["reason"] for entry in report["left_out"]}
    assert canonical in reasons[left_over] and key in reasons[left_over], reasons


def _cut_off_as_merged(root: Path, kept: str, other: str) -> tuple[Path, str, str]:
    """A vault a kill left between writing the kept note and archiving the other: ``kept`` (the
    longer body: the merge's kept note) and ``other``, neither touched after the cut-off. (the
    vault, the kept note's path, the left-over note's path)."""
    whole = root / "whole"
    (whole / ".obsidian").mkdir(parents=True)
    (whole / "memories").mkdir()
    (whole / "memories" / "key-0.md").write_text(kept, encoding="utf-8")
    (whole / "memories" / "key-1.md").write_text(other, encoding="utf-8")
    cut = root / "cut"
    merged = _merged_and_cut_off(whole, cut)
    assert [(cluster["canonical"], [note["path"] for note in cluster["merged"]]) for cluster in merged] == \
        [("memories/key-0.md", ["memories/key-1.md"])]
    return cut, "memories/key-0.md", "memories/key-1.md"


KEY = ("The spare key for the garage hangs in locker 14 beside the boiler room door, on the left hook under the shelf. "
       "The deposit for it is €50.")


def _left_out_reason(cut: Path, left_over: str) -> str:
    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["finished"] == [], report["finished"]
    return str({entry["path"]: entry["reason"] for entry in report["left_out"]}[left_over])


def test_a_cut_off_merges_note_whose_line_the_merge_found_said_otherwise_is_not_said_to_have_changed(tmp_path: Path) -> None:
    # The merge took the left-over note's ticked task for the kept note's open one (the same words)
    # and appended nothing; finished, that wording would go to the archive, so the note is left
    # out — with "one of the two changed since", though nobody had touched either.
    cut, canonical, left_over = _cut_off_as_merged(
        tmp_path, f"---\nlayer: L3\nexpires_at: 2030-01-01\n---\n{KEY} Ask Dana first.\n\n- [ ] Renew the garage permit.\n",
        f"---\nlayer: L3\nexpires_at: 2030-01-02\n---\n{KEY}\n\n- [x] Renew the garage permit.\n")
    reason = _left_out_reason(cut, left_over)
    assert "changed since" not in reason, reason
    assert f"{canonical} holds its line '- [x] Renew the garage permit.' only in other words" in reason
    assert "the merge took that line as said already" in reason
    assert "vaultmem forget" in reason


def test_a_cut_off_merges_note_with_a_property_of_its_own_is_not_said_to_have_changed(tmp_path: Path) -> None:
    # A property no merge carries (a source) was the left-over note's from the start: the finish
    # leaves it out, so as not to archive it unsaid — with "one of the two changed since", untrue.
    cut, canonical, left_over = _cut_off_as_merged(
        tmp_path, f"---\nlayer: L3\nexpires_at: 2030-01-01\n---\n{KEY} Ask Dana first.\n",
        f"---\nlayer: L3\nexpires_at: 2030-01-02\nsource: https://garage.example/keys\n---\n{KEY}\n")
    reason = _left_out_reason(cut, left_over)
    assert "changed since" not in reason, reason
    assert f"{canonical} does not read the same source (a property no merge carries into the kept note)" in reason
    assert "this note's property would go to the archive with it" in reason


def _kept_note_merged_again(tmp_path: Path) -> Path:
    """A vault a kill left with key-0 merged into key-1 and not archived, and key-2 since, which
    says all key-1 does and more: the next apply finishes the first merge and merges key-1 into key-2."""
    said = "The spare key for the garage hangs in locker 14 beside the boiler room door, on the left hook under the shelf."
    whole = tmp_path / "whole"
    (whole / ".obsidian").mkdir(parents=True)
    (whole / "memories").mkdir()
    (whole / "pages").mkdir()
    (whole / "memories" / "key-0.md").write_text(f"---\nlayer: L3\nexpires_at: 2030-01-01\n---\n{said}\n", encoding="utf-8")
    (whole / "memories" / "key-1.md").write_text(f"---\nlayer: L3\nexpires_at: 2030-01-02\n---\n{said}\n\nDana has the code.\n",
                                                 encoding="utf-8")
    (whole / "pages" / "visit.md").write_text("See [[key-0]] about the key.\n", encoding="utf-8")
    assert vaultmem_process(whole, "index").returncode == 0
    cut = Path(shutil.copytree(whole, tmp_path / "cut"))
    merged = json.loads(vaultmem_process(whole, "consolidate", "--apply", "--all", "--json").stdout)["merged"]
    assert [(cluster["canonical"], [note["path"] for note in cluster["merged"]]) for cluster in merged] == \
        [("memories/key-1.md", ["memories/key-0.md"])]
    shutil.copyfile(whole / "memories" / "key-1.md", cut / "memories" / "key-1.md")  # killed before key-0 was archived
    (cut / "memories" / "key-2.md").write_text(
        f"---\nlayer: L3\nexpires_at: 2030-01-03\n---\n{said}\n\nDana has the code.\n\nLift the handle first.\n", encoding="utf-8")
    return cut


def test_links_to_a_cut_off_merges_left_over_note_follow_its_kept_note_merged_in_the_same_run(tmp_path: Path) -> None:
    # Finishing a cut-off merge (key-0 into key-1) and a new merge of its kept note into a note
    # that says more (key-1 into key-2) in one apply: [[key-0]] was rewritten to key-1, archived
    # by that same run, so the person's link led into the archive instead of to key-2.
    cut = _kept_note_merged_again(tmp_path)

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [cluster["canonical"] for cluster in report["finished"]] == ["memories/key-1.md"]
    assert [cluster["canonical"] for cluster in report["merged"]] == ["memories/key-2.md"]
    assert not (cut / "memories" / "key-1.md").exists()
    assert (cut / "pages" / "visit.md").read_text(encoding="utf-8") == "See [[key-2]] about the key.\n"


def test_uses_of_a_cut_off_merges_left_over_note_follow_its_kept_note_merged_in_the_same_run(tmp_path: Path) -> None:
    # usage.carry_merged_uses carried the new merges' uses first (key-1's to key-2), then the
    # finished merge's (key-0's to key-1, archived by the same run): key-0's uses were lost to
    # an id nothing resolves to any more, and `stale` could call key-2 less used than it is.
    cut = _kept_note_merged_again(tmp_path)
    for note in ("memories/key-0.md", "memories/key-0.md", "memories/key-1.md"):
        assert vaultmem_process(cut, "used", note).returncode == 0

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    shown = json.loads(vaultmem_process(cut, "get", "memories/key-2.md", "--json").stdout)
    assert shown["use_count"] == 3, shown["use_count"]


def test_a_finished_cut_off_merge_commits_the_kept_note_the_killed_run_wrote(tmp_path: Path) -> None:
    # With auto_commit, the run a kill cut off wrote the kept note and never committed it; the
    # next apply committed only the archive move, titled "merged 1 note into memories/key-1.md":
    # git held key-0 archived and key-1 without its lines, and `git status` showed vaultmem's merge
    # as an edit of the person's (`git checkout` of it would drop them from the vault).
    said = "The spare key for the garage hangs in locker 14 beside the boiler room door, on the left hook under the shelf."
    whole = tmp_path / "whole"
    (whole / ".obsidian").mkdir(parents=True)
    (whole / "memories").mkdir()
    (whole / "memories" / "key-0.md").write_text(f"---\nlayer: L3\nexpires_at: 2030-01-01\n---\n{said}\n\nDana has the code.\n",
                                                 encoding="utf-8")
    (whole / "memories" / "key-1.md").write_text(f"---\nlayer: L3\nexpires_at: 2030-01-02\n---\n{said}\n\nLift the handle.\n",
                                                 encoding="utf-8")
    (whole / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    (whole / ".gitignore").write_text(".vaultmem/\n", encoding="utf-8")
    init_repo(whole)
    git(whole, "add", ".")
    git(whole, "commit", "-qm", "the person's notes")
    cut = tmp_path / "cut"
    canonical = _merged_and_cut_off(whole, cut)[0]["canonical"]  # written, then killed before the archive move and the commit
    assert git(cut, "status", "--porcelain") == f" M {canonical}\n"

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["finished"] != []
    assert git(cut, "status", "--porcelain") == ""
    assert git(cut, "show", f"HEAD:{canonical}") == (whole / canonical).read_text(encoding="utf-8")


def test_a_finished_cut_off_merge_of_dendron_notes_commits_the_kept_note_with_the_updated_it_was_given(tmp_path: Path) -> None:
    # The kept note of a Dendron vault says when the merge changed it (`updated`, epoch ms); the
    # next apply checks the cut-off run's bytes by merging again, at another moment: the `updated`
    # that run wrote is the one to compare, or the merge is left uncommitted as if the person edited it.
    said = "The spare key for the garage hangs in locker 14 beside the boiler room door, on the left hook under the shelf."
    memory = "---\nid: {id}\ntitle: {title}\ndesc: ''\nupdated: 1796295055000\ncreated: 1796295055000\nlayer: L3\nexpires_at: {expiry}\n---\n{text}\n"
    whole = tmp_path / "whole"
    whole.mkdir()
    (whole / "dendron.yml").write_text("version: 5\nworkspace:\n    vaults:\n        -\n            fsPath: .\n", encoding="utf-8")
    (whole / "memories.key-0.md").write_text(memory.format(id="key0", title="Key 0", expiry="2030-01-01",
                                                           text=f"{said}\n\nDana has the code."), encoding="utf-8")
    (whole / "memories.key-1.md").write_text(memory.format(id="key1", title="Key 1", expiry="2030-01-02",
                                                           text=f"{said}\n\nLift the handle."), encoding="utf-8")
    (whole / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    (whole / ".gitignore").write_text(".vaultmem/\n", encoding="utf-8")
    init_repo(whole)
    git(whole, "add", ".")
    git(whole, "commit", "-qm", "the person's notes")
    cut = tmp_path / "cut"
    canonical = _merged_and_cut_off(whole, cut)[0]["canonical"]
    written = (cut / canonical).read_text(encoding="utf-8")
    assert "updated: 1796295055000" not in written  # the merge said when it changed the note

    result = vaultmem_process(cut, "consolidate", "--apply", "--all", "--json")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["finished"] != [] and json.loads(result.stdout)["warnings"] == []
    assert git(cut, "status", "--porcelain") == ""
    assert git(cut, "show", f"HEAD:{canonical}") == written
