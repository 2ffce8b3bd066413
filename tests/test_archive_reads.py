"""Reading a retired fact after the archive took it (reading.view_archived, adr/0002 "Reading
the archive"): ``get`` opens a file in the archive folder named by its path there, read-only;
``get`` of an id a note superseded names where the old note is; writes stay refused; nothing
outside the archive's notes is read. The MCP side is in test_mcp.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import git, init_repo, run_cli, run_json, snapshot_files
from vaultmem import NoteNotFound, PathOutsideVault, Vault
from vaultmem.errors import ArchivedNote, LinkedOutNote, RemovedNote

NOW = "2026-11-30T12:00:00+00:00"
LATER = "2026-11-30T12:00:05+00:00"
OLD_ARCHIVED = "_archive/memories/danas-address.md"


@pytest.fixture
def vault(vault_dir: Path, wordllama: object) -> Iterator[Vault]:
    with Vault(vault_dir, embedder=wordllama) as opened:  # type: ignore[arg-type]
        yield opened


def supersede_and_archive(vault: Vault) -> tuple[str, str]:
    """Dana's old address superseded by her new one, then expire --apply: (old id, new path)."""
    old = vault.remember("Dana lives at Rua das Flores 14, Lisbon.", title="Danas address", layer="L3", now=NOW)
    new = vault.remember("Dana moved to Calle Mayor 22, Madrid.", title="Danas address", layer="L3",
                         supersedes=[old.id], now=NOW)
    applied = vault.expire(apply=True, now=LATER)
    assert [entry.archived_to for entry in applied.expired] == [OLD_ARCHIVED]
    return old.id, new.path


def test_get_reads_an_archived_file_by_its_path_read_only(vault: Vault) -> None:
    old_id, new_path = supersede_and_archive(vault)
    for reference in (OLD_ARCHIVED, OLD_ARCHIVED.removesuffix(".md")):
        view = vault.get(reference, now=LATER)
        assert (view.archived, view.path, view.id) == (True, OLD_ARCHIVED, old_id), reference
        assert view.body == "Dana lives at Rua das Flores 14, Lisbon.\n" and view.expired is True
        assert view.superseded_by is not None and view.superseded_by.path == new_path
        assert view.archived_notice().startswith(f"ARCHIVED: {OLD_ARCHIVED} is in the archive folder")
        assert view.as_dict()["archived"] is True
    assert vault.get(new_path, now=LATER).archived is False
    # Read, never indexed: search still leaves the archive out.
    assert all(not hit.path.startswith("_archive/")
               for hit in vault.search("Dana Lisbon Rua das Flores", k=10, include_expired=True, now=LATER))


def test_every_write_to_an_archive_path_is_refused_and_says_get_reads_it(vault: Vault) -> None:
    supersede_and_archive(vault)
    before = snapshot_files(vault.root)
    writes: list[Callable[[], object]] = [
        lambda: vault.revise(OLD_ARCHIVED, append="Flat 2B", now=LATER),
        lambda: vault.forget(OLD_ARCHIVED),
        lambda: vault.mark_used([OLD_ARCHIVED]),
        lambda: vault.remember("Dana's flat is 2B.", layer="L3", supersedes=[OLD_ARCHIVED], now=LATER),
    ]
    for write in writes:
        with pytest.raises(ArchivedNote) as refused:
            write()
        assert refused.value.by_path and refused.value.archived == OLD_ARCHIVED
        assert (f"{OLD_ARCHIVED!r} is an archived file" in str(refused.value)
                and "Vault.get() reads it, read-only" in str(refused.value)), str(refused.value)
    assert snapshot_files(vault.root) == before


def test_get_of_a_superseded_id_names_where_the_archived_note_is(vault: Vault) -> None:
    old_id, new_path = supersede_and_archive(vault)
    view = vault.get(old_id, now=LATER)
    assert view.path == new_path and view.archived is False  # the id still opens the note that replaced it
    resolved = view.as_dict()["resolved_from"]
    assert resolved["via"] == "supersedes" and resolved["archived"] == OLD_ARCHIVED
    assert f"that note was archived and is {OLD_ARCHIVED} now; get reads it by that path" in resolved["notice"]
    assert vault.get(resolved["archived"], now=LATER).body.startswith("Dana lives at Rua das Flores 14")


def test_an_id_or_old_path_only_the_archive_answers_to_is_an_error_naming_the_path_to_read(vault: Vault) -> None:
    # Not opened by the id or old path: an agent asking for a memory must not get a retired fact
    # back as if it were one; the error names the path that reads it (adr/0002).
    cabin = vault.remember("The wifi password at the cabin is larch-42.", title="Cabin wifi", layer="L3", now=NOW)
    archived_to = vault.forget(cabin.id).archived_to
    assert archived_to == "_archive/memories/cabin-wifi.md"
    for reference in (cabin.id, cabin.path, "Cabin wifi"):
        with pytest.raises(ArchivedNote) as raised:
            vault.get(reference)
        assert not raised.value.by_path
        assert f"(Vault.get({archived_to!r}) reads it, read-only)" in str(raised.value), reference
    assert vault.get(archived_to).body.startswith("The wifi password at the cabin is larch-42.")


def test_a_removed_note_git_saw_archived_names_the_path_that_reads_it(vault: Vault, vault_dir: Path) -> None:
    init_repo(vault_dir)
    cabin = vault.remember("The wifi password at the cabin is larch-42.", title="Cabin wifi", layer="L3", now=NOW)
    git(vault_dir, "add", cabin.path)
    git(vault_dir, "commit", "-qm", "cabin")
    (vault_dir / "_archive/memories").mkdir(parents=True)
    git(vault_dir, "mv", cabin.path, f"_archive/{cabin.path}")  # archived by hand, as git records a move
    git(vault_dir, "commit", "-qm", "archive the cabin note")
    with pytest.raises(RemovedNote) as raised:
        vault.get("Cabin wifi")
    assert raised.value.archived == f"_archive/{cabin.path}"
    assert f"(Vault.get('_archive/{cabin.path}') reads it, read-only)" in str(raised.value)


def test_get_of_an_archive_path_reads_nothing_hidden_linked_out_or_live(vault: Vault, vault_dir: Path, tmp_path: Path,
                                                                          write_note: Callable[..., Path]) -> None:
    secret = "---\ntitle: secret\n---\nSECRET\n"
    write_note("memories/live.md", "---\nlayer: L3\n---\nA live note.\n")
    write_note(".obsidian/plugin.md", secret)
    for hidden in ("_archive/.hidden/x.md", "_archive/node_modules/x.md", "_archive/.x.md"):
        write_note(hidden, secret)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.md").write_text(secret, encoding="utf-8")
    links = {"_archive/out.md": outside / "o.md", "_archive/live.md": vault_dir / "memories/live.md",
             "_archive/hid.md": vault_dir / ".obsidian/plugin.md", "_archive/outdir": outside}
    for link, target in links.items():
        os.symlink(target, vault_dir / link)
    write_note("_archive/memories/ok.md", "---\nlayer: L3\n---\nAn archived memory.\n")
    vault.index()
    assert vault.get("_archive/memories/ok.md").archived  # beside them, a file the archive holds is read
    for reference in ("_archive/.hidden/x.md", "_archive/node_modules/x.md", "_archive/.x.md", "_archive/live.md",
                      "_archive/hid.md"):
        with pytest.raises(NoteNotFound) as refused:
            vault.get(reference)
        assert not isinstance(refused.value, ArchivedNote), reference
    for reference in ("_archive/out.md", "_archive/outdir/o.md"):  # a link out is said as one (LinkedOutNote)
        with pytest.raises((PathOutsideVault, LinkedOutNote)):
            vault.get(reference)
    for reference in ("_archive/../../outside/o.md", "_archive/../.obsidian/plugin.md"):
        with pytest.raises(PathOutsideVault):
            vault.get(reference)


def test_cli_get_shows_an_archived_file_marked_archived(vault: Vault, vault_dir: Path) -> None:
    old_id, _ = supersede_and_archive(vault)
    shown = run_cli(vault_dir, "get", OLD_ARCHIVED)
    assert shown.exit_code == 0, shown.stderr
    assert f"ARCHIVED: {OLD_ARCHIVED} is in the archive folder" in shown.stdout and "Rua das Flores 14" in shown.stdout
    assert "EXPIRED" not in shown.stdout  # "expire --apply archives it" would be false of a file already there
    as_json = run_json(vault_dir, "get", OLD_ARCHIVED)
    assert isinstance(as_json, dict) and as_json["archived"] is True
    by_old_id = run_cli(vault_dir, "get", old_id)
    assert f"is {OLD_ARCHIVED} now; get reads it by that path" in by_old_id.stdout
    refused = run_cli(vault_dir, "revise", OLD_ARCHIVED, "--append", "Flat 2B")
    assert refused.exit_code == 1 and "(`vaultmem get` reads it, read-only)" in refused.stderr


def test_an_archive_folder_the_config_puts_in_a_hidden_folder_is_still_read(vault_dir: Path, wordllama: object) -> None:
    # Only hidden folders below the archive's own are refused: the folder the person named as the
    # archive is where forget puts notes, and the errors for an archived id send the agent there.
    (vault_dir / ".vaultmem.toml").write_text('archive_dir = ".attic"\n', encoding="utf-8")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        cabin = vault.remember("The wifi password at the cabin is larch-42.", title="Cabin wifi", layer="L3", now=NOW)
        archived_to = vault.forget(cabin.id).archived_to
        assert archived_to == ".attic/memories/cabin-wifi.md"
        assert vault.get(archived_to).archived
        (vault_dir / ".attic/.private").mkdir()
        (vault_dir / ".attic/.private/x.md").write_text("---\ntitle: x\n---\nx\n", encoding="utf-8")
        with pytest.raises(NoteNotFound) as refused:
            vault.get(".attic/.private/x.md")
        assert not isinstance(refused.value, ArchivedNote)
