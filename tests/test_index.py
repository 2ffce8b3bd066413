"""``vaultmem index``: the derived index under ``.vaultmem/`` follows the files, and only them."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from helpers import NOW, REAL_VAULTS, generate_vault, index_matches_disk, keyword_side, run_cli, snapshot_files
from vaultmem import Vault
from vaultmem.embedders import HashingEmbedder, TokenSums
from vaultmem.errors import DerivedIndexError
from vaultmem.indexer import CHUNK

SAMPLE_PROBLEMS = {
    ("conversations/2026-11-20-harbor-retro.md", "frontmatter"),
    ("scratch/call-landlord.md", "expires_at"),
    ("procedures/weekly-review.md", "expires_at"),
    ("conversations/2026-11-27-call-with-mum.md", "expires_at"),
}
QUERIES = ["oat milk coffee", "flight to Berlin", "how to deploy harbor", "Pimenta allergy", "standup time", "João", "dentist"]


@pytest.fixture
def vault(sample_vault: Path, wordllama) -> Iterator[Vault]:
    # Files modified within the last moments are re-read once on purpose (racy-stat guard in
    # the indexer); an hour-old mtime makes "nothing changed" unambiguous whenever the
    # checkout was made.
    an_hour_ago = time.time() - 3600
    for path in sample_vault.rglob("*"):
        os.utime(path, (an_hour_ago, an_hour_ago), follow_symlinks=False)
    with Vault(sample_vault, embedder=wordllama) as opened:
        yield opened


def indexed_paths(vault: Vault) -> list[str]:
    return [row.path for row in vault.store.notes.all()]


def answers(vault: Vault, include_expired: bool = True) -> list[list[dict[str, object]]]:
    return [[hit.as_dict() for hit in vault.search(query, k=8, include_expired=include_expired, now=NOW)] for query in QUERIES]


class FileOpens:
    """Counts files opened (``events``: or folders listed) under a folder, through Python's
    audit hooks (no patching)."""

    active: FileOpens | None = None
    installed = False

    def __init__(self, root: Path, events: tuple[str, ...] = ("open",)) -> None:
        self.root = str(root)
        self.events = events
        self.opened: list[str] = []

    @classmethod
    def _hook(cls, event: str, args: tuple[object, ...]) -> None:
        counter = cls.active
        if counter is not None and event in counter.events and args and isinstance(args[0], (str, os.PathLike)):
            path = os.fspath(args[0])
            if path.startswith(counter.root) and "/.vaultmem/" not in path + "/":
                counter.opened.append(path)

    def __enter__(self) -> FileOpens:
        if not FileOpens.installed:
            sys.addaudithook(FileOpens._hook)
            FileOpens.installed = True
        FileOpens.active = self
        return self

    def __exit__(self, *exc: object) -> None:
        FileOpens.active = None


# ---------------------------------------------------------------- first index and re-index


def test_first_index_adds_every_note_and_reports_the_vaults_problems(vault: Vault) -> None:
    report = vault.index()
    assert len(report.added) == 40 and report.embedded == 40
    assert (report.updated, report.removed, report.moved, report.unchanged) == ([], [], [], 0)
    assert {(problem.path, problem.field) for problem in report.problems} == SAMPLE_PROBLEMS
    assert len(indexed_paths(vault)) == 40


def test_a_second_run_with_nothing_changed_reads_no_file_and_embeds_nothing(vault: Vault) -> None:
    vault.index()
    with FileOpens(vault.root) as counter:
        report = vault.index()
    assert counter.opened == []  # no note was opened, so nothing was parsed
    assert report.embedded == 0
    assert not report.changed and report.unchanged == 40
    # ...and it still tells the truth about the vault's problems.
    assert {(problem.path, problem.field) for problem in report.problems} == SAMPLE_PROBLEMS


def test_the_open_counter_does_see_an_index_that_reads(vault: Vault) -> None:
    # Guard for the test above: the same counter sees every note of a first index.
    with FileOpens(vault.root) as counter:
        vault.index()
    assert len({path for path in counter.opened if path.endswith(".md")}) == 39


def test_a_touched_but_unchanged_file_is_not_re_embedded(vault: Vault) -> None:
    vault.index()
    note = vault.root / "projects" / "Lantern.md"
    os.utime(note, ns=(note.stat().st_atime_ns, note.stat().st_mtime_ns + 5_000_000_000))
    report = vault.index()
    assert report.embedded == 0 and not report.changed
    with FileOpens(vault.root) as counter:
        vault.index()
    assert counter.opened == []  # the new mtime was recorded


def test_obsidian_folder_and_non_markdown_files_but_canvases_are_never_indexed(vault: Vault) -> None:
    (vault.root / "attachments" / "notes.txt").write_text("txtonlymarker in a text file\n", encoding="utf-8")
    (vault.root / ".obsidian" / "plugins").mkdir()
    (vault.root / ".obsidian" / "plugins" / "readme.md").write_text("# Plugin\nsnippetmarker again\n", encoding="utf-8")
    vault.index()
    paths = indexed_paths(vault)
    assert all(path.endswith((".md", ".canvas")) and not path.startswith(".") for path in paths)
    for marker in ("snippetmarker", "txtonlymarker"):
        hits = vault.search(marker, k=50, include_expired=True, now=NOW)
        assert not any(marker in hit.snippet for hit in hits)
        assert not any(hit.path.startswith(".obsidian") or hit.path.endswith(".txt") for hit in hits)


def test_unicode_and_spaces_in_paths_are_indexed_and_found_by_their_exact_path(vault: Vault) -> None:
    folder = vault.root / "Área de trabalho"
    folder.mkdir()
    (folder / "café ☕ notes.md").write_text("---\nlayer: L4\n---\nThe café on the corner sells pastéis de nata; wombatfact.\n", encoding="utf-8")
    vault.index()
    assert {"people/João Silva.md", "Área de trabalho/café ☕ notes.md"} <= set(indexed_paths(vault))
    [first, *_] = vault.search("wombatfact", k=3, now=NOW)
    assert (first.path, first.id) == ("Área de trabalho/café ☕ notes.md", "Área de trabalho/café ☕ notes")
    joao = vault.search("João Silva tech lead ingestion", k=3, now=NOW)
    assert joao[0].path == "people/João Silva.md" and joao[0].title == "João Silva"


# ---------------------------------------------------------------- incremental changes


def test_incremental_index_sees_an_edit(vault: Vault) -> None:
    vault.index()
    note = vault.root / "projects" / "Lantern.md"
    note.write_text(note.read_text(encoding="utf-8").replace("wa-sqlite", "quokkadb"), encoding="utf-8")
    report = vault.index()
    assert report.updated == ["projects/Lantern.md"] and report.embedded == 1
    assert vault.search("quokkadb", k=1, now=NOW)[0].path == "projects/Lantern.md"
    assert "projects/Lantern.md" not in [hit.path for hit in vault.search("wa-sqlite", k=50, now=NOW) if "wa-sqlite" in hit.snippet]


def test_a_metadata_only_edit_updates_the_row_without_re_embedding(vault: Vault) -> None:
    vault.index()
    note = vault.root / "projects" / "Lantern.md"
    note.write_text(note.read_text(encoding="utf-8").replace("expires_at: 2027-03-01", "expires_at: 2026-11-01"), encoding="utf-8")
    report = vault.index()
    assert report.updated == ["projects/Lantern.md"] and report.embedded == 0
    assert "projects/Lantern.md" not in [hit.path for hit in vault.search("Lantern reading list", k=50, now=NOW)]


def test_incremental_index_sees_a_deletion(vault: Vault) -> None:
    vault.index()
    (vault.root / "preferences" / "oat-milk.md").unlink()
    report = vault.index()
    assert report.removed == ["preferences/oat-milk.md"] and report.embedded == 0
    assert "preferences/oat-milk.md" not in indexed_paths(vault)
    assert "preferences/oat-milk.md" not in [hit.path for hit in vault.search("oat milk", k=50, include_expired=True, now=NOW)]


def test_a_moved_note_keeps_its_vector_and_is_found_at_its_new_path(vault: Vault) -> None:
    vault.index()
    (vault.root / "archive-by-hand").mkdir()
    os.rename(vault.root / "preferences" / "oat-milk.md", vault.root / "archive-by-hand" / "oat milk.md")
    report = vault.index()
    assert report.moved == [("preferences/oat-milk.md", "archive-by-hand/oat milk.md")]
    assert (report.added, report.removed, report.embedded) == ([], [], 0)
    paths = [hit.path for hit in vault.search("oat milk in coffee", k=50, now=NOW)]
    assert "archive-by-hand/oat milk.md" in paths and "preferences/oat-milk.md" not in paths


def test_a_new_note_is_added(vault: Vault) -> None:
    vault.index()
    (vault.root / "scratch" / "new.md").write_text("---\nlayer: L4\n---\nThe spare key is under the blue pot.\n", encoding="utf-8")
    report = vault.index()
    assert report.added == ["scratch/new.md"] and report.embedded == 1 and report.unchanged == 40
    assert vault.search("spare key blue pot", k=1, now=NOW)[0].path == "scratch/new.md"


def test_a_note_whose_yaml_breaks_is_still_indexed_by_its_body(vault: Vault) -> None:
    vault.index()
    hits = vault.search("retro finance notification template deploy window", k=5, include_expired=True, now=NOW)
    retro = next(hit for hit in hits if hit.path == "conversations/2026-11-20-harbor-retro.md")
    # Its lifecycle lines are read one by one (notes.salvage_lifecycle): the title line is the broken one.
    assert (retro.layer, retro.expires_at, retro.title) == ("L2", "2026-12-05T00:00:00+00:00", "2026-11-20-harbor-retro")
    assert any("YAML does not load" in warning for warning in retro.warnings)


def test_an_unreadable_file_is_reported_and_the_rest_indexed(vault: Vault) -> None:
    (vault.root / "dangling.md").symlink_to(vault.root / "no-such-target.md")
    report = vault.index()
    assert len(report.added) == 40
    assert ("dangling.md", "file") in {(problem.path, problem.field) for problem in report.problems}


def test_a_symlinked_note_is_indexed_once_at_its_real_path_by_index_and_by_sync_paths(vault: Vault) -> None:
    (vault.root / "pimenta-link.md").symlink_to(vault.root / "people" / "pimenta-vet-allergy.md")
    report = vault.index()
    assert len(report.added) == 40 and "pimenta-link.md" not in indexed_paths(vault)
    assert [problem for problem in report.problems if problem.path == "pimenta-link.md"] == []
    # The watcher's path (Indexer.sync_paths) follows the same rule as the scan.
    assert vault.indexer.sync_paths(["pimenta-link.md"]).added == []
    assert "pimenta-link.md" not in indexed_paths(vault)


def test_links_out_of_the_vault_are_reported_once_with_a_fix_about_the_link_and_never_read(vault_dir: Path, write_note,
                                                                                          tmp_path: Path) -> None:
    """Was: a linked file said "fix the file or its permissions" (nothing is wrong with
    either), and a linked folder was skipped without a word."""
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "secret.md").write_text("---\nlayer: L4\n---\nThe safe code is 4711.\n", encoding="utf-8")
    (outside / "deep" / "more.md").write_text("more\n", encoding="utf-8")
    write_note("kept.md", "---\nlayer: L4\n---\nA note.\n")
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    (vault_dir / "linked-outside.md").symlink_to(outside / "secret.md")
    (vault_dir / "outside-dir").symlink_to(outside, target_is_directory=True)
    with Vault(vault_dir) as vault, FileOpens(outside, ("open", "os.scandir", "os.listdir")) as reads:
        report = vault.index()
        assert indexed_paths(vault) == ["kept.md"]
    assert reads.opened == []  # nothing outside the vault opened or listed
    links = {problem.path: problem for problem in report.problems}
    assert sorted(links) == ["linked-outside.md", "outside-dir"]  # the folder once, nothing in it
    assert links["outside-dir"].message == "symlink to a folder outside the vault; not read"
    for path, problem in links.items():
        assert "permissions" not in problem.fix and "move what the link points to into the vault" in problem.fix
        assert f'add "/{path}" to exclude in .vaultmem.toml' in problem.fix
    checked = run_cli(vault_dir, "check", "--json")
    assert checked.exit_code == 1  # a folder link is a problem as a file link is
    assert sorted(problem["path"] for problem in json.loads(checked.stdout)["problems"]) == ["linked-outside.md", "outside-dir"]
    # The fix given works: excluded, the links are the person's choice and said nothing about.
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\nexclude = ["/linked-outside.md", "/outside-dir"]\n', encoding="utf-8")
    assert run_cli(vault_dir, "check").exit_code == 0
    assert json.loads(run_cli(vault_dir, "index", "--json").stdout)["problems"] == []


def test_a_folder_linked_inside_the_vault_is_indexed_once_at_its_real_path(vault_dir: Path, write_note) -> None:
    """The scan does not enter it (its notes are the real folder's); naming a note through it
    does not index the note a second time (was: `revise alias/note.md` added a second row)."""
    write_note("real/note.md", "---\nlayer: L4\n---\nThe spare key is under the blue pot.\n")
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    (vault_dir / "alias").symlink_to(vault_dir / "real", target_is_directory=True)
    (vault_dir / "old").symlink_to(vault_dir / "_archive", target_is_directory=True)
    (vault_dir / "_archive").mkdir()
    with Vault(vault_dir) as vault:
        report = vault.index()
        assert indexed_paths(vault) == ["real/note.md"]
        assert [(problem.path, problem.message) for problem in report.problems] == [
            ("old", "symlink to the folder _archive/, which vaultmem does not index (hidden, the archive, or excluded); not indexed either")]
    got = run_cli(vault_dir, "revise", "alias/note.md", "--tag", "keys")
    assert got.exit_code == 1 and "alias/note.md is a link to real/note.md" in got.stderr and "use real/note.md" in got.stderr
    with Vault(vault_dir) as vault:
        assert vault.indexer.sync_paths(["alias/note.md"]).added == []  # the watcher's path too
        assert indexed_paths(vault) == ["real/note.md"]


def test_consolidate_apply_leaves_a_symlinked_note_and_its_link_alone(vault_dir: Path, write_note) -> None:
    write_note("real/hub.md", "---\ntitle: Hub\nlayer: L3\nexpires_at: 2027-06-01\n---\nThe hub of the harbor project: links to every note.\n")
    (vault_dir / "hub-link.md").symlink_to(vault_dir / "real" / "hub.md")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        report = vault.consolidate(apply=True, now=NOW)  # was: one cluster of the file and its own link
        assert report.as_dict()["clusters"] == []
    assert (vault_dir / "hub-link.md").is_symlink() and (vault_dir / "real" / "hub.md").is_file()
    assert not (vault_dir / "_archive").exists()


def test_a_note_with_an_out_of_range_expiry_does_not_stop_the_index(vault: Vault) -> None:
    (vault.root / "odd.md").write_text("---\nlayer: L1\nexpires_at: 0001-01-01T00:00:00+05:00\n---\nOdd.\n", encoding="utf-8")
    report = vault.index()
    assert len(report.added) == 41
    assert ("odd.md", "expires_at") in {(problem.path, problem.field) for problem in report.problems}


# ---------------------------------------------------------------- derived means derived


def test_rebuild_gives_identical_answers(vault: Vault) -> None:
    vault.index()
    before = answers(vault)
    report = vault.index(rebuild=True)
    assert report.rebuilt and len(report.added) == 40 and report.embedded == 40
    assert answers(vault) == before


def test_deleting_vaultmem_and_reindexing_gives_the_same_hits_in_the_same_order(sample_vault: Path, wordllama) -> None:
    with Vault(sample_vault, embedder=wordllama) as first:
        first.index()
        before = answers(first), answers(first, include_expired=False)
    shutil.rmtree(sample_vault / ".vaultmem")
    with Vault(sample_vault, embedder=wordllama) as second:
        second.index()
        assert (answers(second), answers(second, include_expired=False)) == before


def test_index_and_search_never_modify_a_vault_file(vault: Vault) -> None:
    before = snapshot_files(vault.root)
    vault.index()
    answers(vault)
    vault.search("anything at all", k=3, layers=["L1"], tags=["travel"], now=NOW)
    vault.index(rebuild=True)
    vault.index()
    vault.stats(now=NOW)
    assert snapshot_files(vault.root) == before


def test_the_cli_index_and_search_never_modify_a_vault_file(sample_vault: Path) -> None:
    before = snapshot_files(sample_vault)
    assert run_cli(sample_vault, "index").exit_code == 0
    assert run_cli(sample_vault, "search", "oat milk", "--json").exit_code == 0
    assert run_cli(sample_vault, "index", "--rebuild").exit_code == 0
    assert snapshot_files(sample_vault) == before


def test_the_vaultmem_folder_ignores_itself_for_git(vault: Vault) -> None:
    vault.index()
    lines = (vault.root / ".vaultmem" / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "*" in lines


def test_the_real_kepano_vault_indexes_around_its_templates(tmp_path: Path, wordllama) -> None:
    target = shutil.copytree(REAL_VAULTS / "kepano-obsidian", tmp_path / "kepano")
    before = snapshot_files(target)
    with Vault(target, embedder=wordllama) as vault:
        report = vault.index()
        # Its 52 templates are in the folder .obsidian/templates.json names: not notes at all,
        # so none of them is indexed or warned about (issue 11 §4; 28 warnings before).
        assert len(report.added) == 51
        assert not any(path.startswith("Templates/") for path in report.added)
        assert [problem for problem in report.problems if problem.field == "frontmatter"] == []
        assert [(folder.path, folder.rule.pattern, folder.files) for folder in report.not_notes.excluded_folders] == [("Templates", "Templates", 52)]
        assert report.not_notes.excluded_files == 52 and report.as_dict()["excluded"]["files"] == 52  # was 0: only files excluded one by one counted
        hits = vault.search("recipe", k=5, now=NOW)
        assert hits and not any(hit.path.startswith("Templates/") for hit in hits)
    assert snapshot_files(target) == before


# ---------------------------------------------------------------- the embedder's identity


def test_changing_the_embedder_re_embeds_every_note(vault: Vault) -> None:
    vault.index()
    with Vault(vault.root, embedder=HashingEmbedder(32)) as hashing:
        report = hashing.index()
        assert report.rebuilt and report.embedded == 40 and not report.changed and report.unchanged == 40
        assert hashing.store.meta.get("embedder") == "hashing:32"
        # The fresh vectors are stored, every one of them (not only computed and dropped).
        assert len(hashing.store.vectors.labels()) == 40 and hashing.store.vectors.dimension() == 32
        assert hashing.search("Pimenta amoxicillin allergy", k=1, now=NOW)[0].path == "people/pimenta-vet-allergy.md"
        assert hashing.index().embedded == 0  # and then it is settled
    report = vault.index()
    assert report.embedded == 40 and vault.store.vectors.dimension() == 256
    assert len(vault.store.vectors.labels()) == 40


def test_the_embedder_named_in_the_config_is_used_and_switching_re_embeds(vault: Vault) -> None:
    vault.index()
    (vault.root / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    with Vault(vault.root) as configured:
        report = configured.index()
        assert report.embedded == 40
        assert configured.store.meta.get("embedder") == "hashing:64"
        assert configured.store.vectors.dimension() == 64


def test_searching_with_another_embedder_before_reindexing_is_refused_not_mixed(vault: Vault) -> None:
    vault.index()
    with Vault(vault.root, embedder=HashingEmbedder(32)) as hashing:
        with pytest.raises(DerivedIndexError) as caught:
            hashing.search("oat milk", now=NOW)
    message = str(caught.value)
    assert "wordllama" in message and "hashing:32" in message and "run Vault.index() to re-embed" in message


def test_the_embedder_refusal_says_what_each_surface_can_run(vault: Vault) -> None:
    # Was: "run `vaultmem index`" in Python and over MCP too, where the agent has no shell and
    # a server that read another embedder as it started would not be helped by it anyway.
    from vaultmem.option_names import Surface

    vault.index()
    with Vault(vault.root, embedder=HashingEmbedder(32)) as hashing:
        with pytest.raises(DerivedIndexError) as caught:
            hashing.search("oat milk", now=NOW)
    said = {surface: caught.value.spelled(surface) for surface in Surface}
    assert "; run `vaultmem index` to re-embed (vectors are never mixed)" in said[Surface.CLI]
    assert "; run Vault.index() to re-embed with this Vault's (a Vault keeps the embedder it read" in said[Surface.API]
    assert "; ask the person to restart the MCP server: it reads .vaultmem.toml again" in said[Surface.MCP]
    assert "`vaultmem" not in said[Surface.API] and "Vault." not in said[Surface.MCP]


def test_a_process_started_under_another_embedder_setting_does_not_re_embed_the_vault_back(vault: Vault) -> None:
    # A `watch` or MCP server reads .vaultmem.toml once. The person then named another embedder
    # and ran `vaultmem index`; the server's next reconcile found those vectors and re-embedded
    # the whole vault back with the old embedder, and the next command refused the index.
    (vault.root / ".vaultmem.toml").write_text('embedder = "hashing:32"\n', encoding="utf-8")
    with Vault(vault.root) as running:
        running.index()
        (vault.root / ".vaultmem.toml").write_text('embedder = "hashing:48"\n', encoding="utf-8")
        assert run_cli(vault.root, "index").exit_code == 0  # a new process: re-embeds under the new setting
        with pytest.raises(DerivedIndexError) as caught:
            running.index()
        with pytest.raises(DerivedIndexError) as searched_here:
            running.search("oat milk", now=NOW)
    # Was: "…but this vault now uses hashing:32": the vault's settings name hashing:48 now.
    assert "now names the embedder 'hashing:48'" in str(searched_here.value)
    assert "restart it" in str(searched_here.value)
    message = str(caught.value)
    assert ".vaultmem.toml now names the embedder 'hashing:48'" in message
    assert "restart it" in message
    assert "nothing was re-embedded" in message
    searched = run_cli(vault.root, "search", "oat milk", "--as-of", NOW)
    assert searched.exit_code == 0, searched.output  # the index is still the new embedder's
    with Vault(vault.root) as fresh:
        assert fresh.store.meta.get("embedder") == "hashing:48"


def test_a_note_synced_alone_after_the_embedder_setting_changed_says_to_restart_the_process(vault: Vault) -> None:
    # The refusal said "run Vault.index() to re-embed" (`vaultmem index` at the shell): in the
    # running `watch` that index is refused in turn, and a new `vaultmem index` finds nothing to
    # do, so the watcher failed on every edit with advice that could not help. A restart does.
    from vaultmem.option_names import Surface

    (vault.root / ".vaultmem.toml").write_text('embedder = "hashing:32"\n', encoding="utf-8")
    with Vault(vault.root) as running:
        running.index()
        (vault.root / ".vaultmem.toml").write_text('embedder = "hashing:48"\n', encoding="utf-8")
        assert run_cli(vault.root, "index").exit_code == 0
        (vault.root / "tea.md").write_text("Mira drinks oolong.\n", encoding="utf-8")
        with pytest.raises(DerivedIndexError) as caught:
            running.derived.indexer.sync_paths(["tea.md"])
    said = {surface: caught.value.spelled(surface) for surface in Surface}
    for message in said.values():
        assert ".vaultmem.toml now names the embedder 'hashing:48'" in message
        assert "restart it" in message
        assert "re-embed with this Vault's" not in message and "`vaultmem index` to re-embed" not in message
    # Nothing was mixed in: the watcher once wrote one note's 32 numbers among 48, and every later
    # search died in numpy with a traceback.
    searched = run_cli(vault.root, "search", "oolong", "--as-of", NOW)
    assert searched.exit_code == 0, searched.output
    assert "tea.md" in searched.stdout


# ---------------------------------------------------------------- reports


def test_index_json_reports_counts_and_problems(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "index", "--json")
    assert result.exit_code == 0  # problems in the vault do not fail the index
    report = json.loads(result.stdout)
    assert (report["added"], report["updated"], report["removed"], report["unchanged"]) == (40, 0, 0, 0)
    assert {(problem["path"], problem["field"]) for problem in report["problems"]} == SAMPLE_PROBLEMS
    again = json.loads(run_cli(sample_vault, "index", "--json").stdout)
    assert (again["added"], again["unchanged"], again["embedded"]) == (0, 40, 0)


def test_index_text_output_lists_unreadable_notes_and_counts_metadata_problems(sample_vault: Path) -> None:
    result = run_cli(sample_vault, "index")
    assert result.exit_code == 0
    assert "40 added" in result.stdout
    # the note whose YAML does not load is listed with its reason; metadata mistakes
    # (like 'next tuesday') are counted and left to `check` to list
    assert "conversations/2026-11-20-harbor-retro.md: frontmatter: YAML does not load" in result.stdout
    # "and 3 more": after the listed lines a bare "3 problem(s)" read as their total (a trial)
    assert "and 3 more problem(s) in note metadata: run `vaultmem check`" in result.stdout
    assert "scratch/call-landlord.md" not in result.stdout


def test_stats_counts_layers_expired_problems_and_the_embedder(vault: Vault) -> None:
    vault.index()
    stats = vault.stats(now=NOW)
    assert stats.notes == 40
    assert stats.expired == 6
    assert stats.with_problems == 4
    assert (stats.embedder, stats.dimension) == ("wordllama-l2_supercat:256", 256)
    assert sum(stats.by_layer.values()) == 40
    assert stats.by_layer["none"] == 3  # Inbox, Open questions and the harbor canvas (the retro whose YAML breaks keeps its layer: L2)
    assert stats.index_bytes > 0
    assert vault.stats(now="2027-03-02").expired > stats.expired


# ---------------------------------------------------------------- what the derived store holds


def test_the_store_keeps_expiry_as_written_and_as_an_exact_epoch(vault: Vault) -> None:
    from datetime import datetime, timezone

    from vaultmem.lifecycle import to_epoch_us

    vault.index()
    meridian = vault.store.notes.by_path("conversations/2026-11-13-meridian-vendor-call.md")
    assert meridian.expires_at == "2026-11-20T18:00:00+05:00"
    assert meridian.expires_us == to_epoch_us(datetime(2026, 11, 20, 13, 0, tzinfo=timezone.utc))
    lantern = vault.store.notes.by_path("projects/Lantern.md")
    assert lantern.expires_us == to_epoch_us(datetime(2027, 3, 1, tzinfo=timezone.utc))
    landlord = vault.store.notes.by_path("scratch/call-landlord.md")
    assert (landlord.expires_at, landlord.expires_us, landlord.expiry_invalid) == ("next tuesday", None, True)


def test_no_numpy_value_reaches_sqlite_as_a_blob(vault: Vault) -> None:
    vault.index()
    columns = [row[1] for row in vault.store.db.conn.execute("PRAGMA table_info(notes)")]
    for column in columns:
        kinds = {row[0] for row in vault.store.db.conn.execute(f"SELECT DISTINCT typeof({column}) FROM notes")}
        assert "blob" not in kinds, column
    assert {row[0] for row in vault.store.db.conn.execute("SELECT DISTINCT typeof(label) FROM vectors")} == {"integer"}


def test_the_store_uses_wal_and_leaves_no_temp_files(vault: Vault) -> None:
    vault.index()
    vault.index(rebuild=True)
    assert vault.store.db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = sorted(path.name for path in (vault.root / ".vaultmem").iterdir())
    assert not [name for name in names if name.endswith(".tmp")]
    assert len([name for name in names if name.endswith(".hnsw")]) == 1


def test_a_note_argument_accepts_the_id_the_path_or_the_path_without_md(vault: Vault) -> None:
    from vaultmem.errors import PathOutsideVault

    vault.index()
    for reference in ("01JNB55HD06CQ643DZVMXXQKFB", "people/rui-birthday.md", "people/rui-birthday"):
        assert vault.resolve(reference).path == "people/rui-birthday.md"
    assert vault.resolve("people/João Silva").path == "people/João Silva.md"
    with pytest.raises(PathOutsideVault):
        vault.resolve("../outside")


def test_a_file_name_that_is_not_utf8_is_reported_and_the_rest_indexed(vault: Vault) -> None:
    with open(os.path.join(os.fsencode(vault.root), b"scratch", b"caf\xe9.md"), "wb") as handle:
        handle.write(b"# Cafe\n")
    report = vault.index()
    assert len(report.added) == 40
    assert ("scratch/caf\ufffd.md", "file") in {(problem.path, problem.field) for problem in report.problems}
    json.dumps(report.as_dict(), ensure_ascii=False).encode("utf-8")  # printable as --json


def test_an_embedder_switch_with_a_metadata_only_edit_still_stores_every_vector(vault: Vault) -> None:
    vault.index()
    note = vault.root / "projects" / "Lantern.md"
    note.write_text(note.read_text(encoding="utf-8").replace("expires_at: 2027-03-01", "expires_at: 2027-04-01"), encoding="utf-8")
    with Vault(vault.root, embedder=HashingEmbedder(16)) as hashing:
        report = hashing.index()
        assert report.updated == ["projects/Lantern.md"] and report.embedded == 40
        assert len(hashing.store.vectors.labels()) == 40
        assert hashing.store.vectors.missing_labels() == []


def test_index_tells_a_shell_user_the_commands_not_the_python_methods_on_every_run(tmp_path: Path) -> None:
    """Was (an agent trial on a personal vault): `vaultmem index` listed a template's YAML problem with
    "Vault.check(fix=True), Vault.expire() and Vault.consolidate() leave it alone" — the Python API's
    names at the shell — because the problems it lists are read back from the index, which kept only
    the API's wording. `check` said `check --fix, expire and consolidate` for the same note."""
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "daily.md").write_text("---\ndate: {{date}}\ntags: [daily]\n---\n# {{date}}\n", encoding="utf-8")
    shell = "until then it has no metadata; check --fix, expire and consolidate leave it alone"
    for run in ("first", "unchanged"):
        text = run_cli(tmp_path, "index").stdout
        assert shell in text and "Vault." not in text, (run, text)
        [problem] = json.loads(run_cli(tmp_path, "index", "--json").stdout)["problems"]
        assert problem["fix"].endswith(shell), (run, problem)
    with Vault(tmp_path) as vault:  # a Python caller is still told the methods
        [problem] = vault.index().problems
        assert problem.fix.endswith("Vault.check(fix=True), Vault.expire() and Vault.consolidate() leave it alone")


def test_an_index_made_before_problems_kept_their_spellings_reads_the_files_again(tmp_path: Path) -> None:
    """An index reader 25 made kept each problem in the API's words alone: without reading the
    files again, `vaultmem index` went on telling a shell user to run Vault.check(fix=True) for
    every unchanged note, and the template folder's exclude pattern was never offered."""
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "daily.md").write_text("---\ndate: {{date}}\ntags: [daily]\n---\n# {{date}}\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
    database = sqlite3.connect(tmp_path / ".vaultmem" / "index.db")
    with database:  # what reader 25 wrote: the API's words, no folder pattern
        [(stored,)] = database.execute("SELECT problems FROM notes WHERE problems != '[]'").fetchall()
        old = [{key: problem[key].replace(', or the whole folder if it holds only templates: "/templates/"', "")
                .replace("check --fix, expire and consolidate", "Vault.check(fix=True), Vault.expire() and Vault.consolidate()")
                for key in ("path", "field", "message", "fix")} for problem in json.loads(stored)]
        database.execute("UPDATE notes SET problems = ?", (json.dumps(old),))
        database.execute("UPDATE meta SET value = 'reader-25/' || substr(value, instr(value, '/') + 1) WHERE key = 'reader'")
    database.close()
    text = run_cli(tmp_path, "index").stdout
    assert "Vault." not in text, text
    assert "check --fix, expire and consolidate leave it alone" in text, text
    assert '"/templates/"' in text, text


def big_note(megabytes: float) -> str:
    paragraph = "A pasted changelog line about streams, buffers and a fixed regression in the parser.\n\n"
    return paragraph * int(megabytes * (1 << 20) / len(paragraph))


def test_a_huge_note_is_read_and_embedded_in_a_chunk_of_its_own_and_progress_hears_each(vault_dir: Path, write_note) -> None:
    # A trial vault: 22 pasted changelogs (10 MB, 44% of the passages) fell in one chunk of 512
    # notes; the progress bar stood at 69% for 19 s with its ETA at 1 s.
    for number in range(3):
        write_note(f"small-{number}.md", f"a small note {number}\n")
    write_note("huge-a.md", big_note(1.2))
    write_note("huge-b.md", big_note(1.2))
    ticks: list[int] = []

    def progress(todo: int, total: int) -> Callable[[int], None]:
        assert (todo, total) == (5, 5)
        return ticks.append

    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        report = vault.index(progress=progress)
    assert len(report.added) == 5
    assert ticks == [1, 1, 3]  # huge-a, huge-b, then the three small notes together (path order)


def test_chunks_end_at_the_file_count_or_the_byte_budget_whichever_comes_first() -> None:
    from vaultmem.indexer import chunks
    from vaultmem.paths import FileStat

    stats = [FileStat(f"n{number}.md", 0, size) for number, size in enumerate([10, 10, 10, 50, 200, 10])]
    assert [[stat.path for stat in run] for run in chunks(stats, most=2, most_bytes=100)] == [
        ["n0.md", "n1.md"], ["n2.md", "n3.md"], ["n4.md"], ["n5.md"]]
    assert list(chunks([], most=2, most_bytes=100)) == []


def _full_text_segments(vault: Path) -> int:
    """How many segments the index's full text (FTS5) is kept in."""
    connection = sqlite3.connect(f"file:{vault / '.vaultmem' / 'index.db'}?mode=ro", uri=True)
    try:
        return int(connection.execute("SELECT count(DISTINCT segid) FROM passages_fts_idx").fetchone()[0])
    finally:
        connection.close()


@pytest.fixture(scope="module")
def many_notes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,200 generated notes: more than two chunks of a reconcile (indexer.CHUNK)."""
    return generate_vault(tmp_path_factory.mktemp("many") / "vault", 1200, seed=3)


def test_a_cold_index_of_several_chunks_leaves_its_full_text_in_one_segment(many_notes: Path, tmp_path: Path) -> None:
    # Each committed chunk left FTS5 a segment, and every MATCH a search asks walked each of
    # a term's segments: a cold index of 10,000 notes left ten, ~1 ms of every search.
    vault = tmp_path / "vault"
    shutil.copytree(many_notes, vault)
    with Vault(vault, embedder=HashingEmbedder(32)) as opened:
        assert len(opened.index().added) == 1200
    assert _full_text_segments(vault) == 1


def test_a_reconcile_of_a_few_notes_leaves_the_full_text_unmerged(many_notes: Path, tmp_path: Path) -> None:
    # The merge rewrites the whole full text: worth it after writing most of the index, not
    # for a few edited notes (their rows make small segments of their own).
    vault = tmp_path / "vault"
    shutil.copytree(many_notes, vault)
    with Vault(vault, embedder=HashingEmbedder(32)) as opened:
        opened.index()
        edited = sorted(vault.rglob("*.md"))[:3]
        for path in edited:
            path.write_text(path.read_text(encoding="utf-8") + "\nA line added by hand.\n", encoding="utf-8")
        assert len(opened.index().updated) == 3
    assert _full_text_segments(vault) > 1


def test_a_cold_index_deletes_nothing_for_the_notes_it_adds_and_an_edit_still_replaces_passages(tmp_path: Path) -> None:
    # A new note's label is new (AUTOINCREMENT): it has no passages or vectors to drop, and a cold
    # index of 10,000 notes asked SQLite five statements a note for nothing.
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    for number in range(3):
        (tmp_path / f"note-{number}.md").write_text(f"# Note {number}\n\ncopper violin {number}\n\n## More\n\nharbor\n", encoding="utf-8")
    statements: list[str] = []
    with Vault(tmp_path) as opened:
        opened.store.db.conn.set_trace_callback(statements.append)
        assert len(opened.index().added) == 3
        per_note = ("DELETE FROM passages WHERE", "DELETE FROM passage_vectors WHERE", "SELECT label FROM passages WHERE note_label")
        assert not [sql for sql in statements if sql.startswith(per_note)]
        assert opened.store.passages.labels_of([row.label for row in opened.store.notes.all()])
        statements.clear()
        time.sleep(0.01)
        (tmp_path / "note-1.md").write_text("# Note 1\n\nlantern meadow\n", encoding="utf-8")
        assert opened.index().updated == ["note-1.md"]
        assert [sql for sql in statements if sql.startswith("DELETE FROM passages WHERE")]
        assert set(keyword_side(opened, "lantern")) == {"note-1.md"}
        assert set(keyword_side(opened, "harbor")) == {"note-0.md", "note-2.md"}  # the old passages are gone


class _FailsOnAWord(HashingEmbedder):
    """The hashing embedder (the same identity: the index accepts its vectors), which fails as
    a broken model would on the batch holding ``word``, and records the thread of each batch."""

    def __init__(self, word: str | None) -> None:
        super().__init__(32)
        self.word = word
        self.threads: set[str] = set()

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        self.threads.add(threading.current_thread().name)
        if self.word is not None and any(self.word in text for text in texts):
            raise ValueError(f"the embedder cannot embed {self.word!r}")
        return super().sum_batch(texts, tails_from)


def _write_notes(vault: Path, count: int) -> None:
    vault.mkdir(exist_ok=True)
    for number in range(count):
        (vault / f"note-{number:04d}.md").write_text(f"# Note {number}\n\ncopper violin {number}\n", encoding="utf-8")


def _preparing_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("vaultmem-prepare")]


def test_a_cold_index_of_several_chunks_embeds_on_a_worker_and_writes_sqlite_only_on_its_own_thread(tmp_path: Path) -> None:
    # The next chunk is read and embedded while this one is written (adr/0008); SQLite's
    # connection belongs to the caller's thread: not one statement may come from the worker.
    _write_notes(tmp_path, 2 * CHUNK + 76)
    embedder = _FailsOnAWord(None)
    statement_threads: set[str] = set()
    with Vault(tmp_path, embedder=embedder) as opened:
        opened.store.db.conn.set_trace_callback(lambda _sql: statement_threads.add(threading.current_thread().name))
        ticks: list[int] = []
        report = opened.index(progress=lambda _todo, _total: ticks.append)
        assert len(report.added) == report.embedded == 2 * CHUNK + 76
        assert ticks == [CHUNK, CHUNK, 76]  # progress as before: per chunk written, in order
        assert embedder.threads
        assert all(name.startswith("vaultmem-prepare") for name in embedder.threads)
        assert statement_threads == {threading.current_thread().name}
    assert not _preparing_threads()  # the worker ends with the index
    assert index_matches_disk(tmp_path)


def test_a_reconcile_of_one_chunk_starts_no_thread(tmp_path: Path) -> None:
    _write_notes(tmp_path, 5)
    embedder = _FailsOnAWord(None)
    with Vault(tmp_path, embedder=embedder) as opened:
        assert len(opened.index().added) == 5
    assert embedder.threads == {threading.current_thread().name}


def test_a_failure_preparing_a_later_chunk_is_raised_by_index_and_the_next_index_completes(tmp_path: Path) -> None:
    _write_notes(tmp_path, 2 * CHUNK + 76)
    # In the second chunk: the first was written (and committed) while this one was prepared.
    (tmp_path / "note-0600.md").write_text("# Note 600\n\nquicksilver\n", encoding="utf-8")
    with Vault(tmp_path, embedder=_FailsOnAWord("quicksilver")) as opened:
        with pytest.raises(ValueError, match="cannot embed 'quicksilver'") as raised:
            opened.index()
        # Raised with its own traceback, down to the embedder on the worker thread.
        assert "sum_batch" in [entry.name for entry in raised.traceback]
        assert opened.store.notes.count() == CHUNK  # the first chunk's commit stays; nothing after it
        assert not _preparing_threads()
    with Vault(tmp_path, embedder=_FailsOnAWord(None)) as opened:
        report = opened.index()
        assert len(report.added) == CHUNK + 76
    assert index_matches_disk(tmp_path)
