"""get, forget and expire: a person can see what happened to a memory and why."""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

import pytest

from helpers import NOW, run_cli, snapshot_files
from vaultmem import AmbiguousNote, NoteNotFound, PathOutsideVault, Vault, WriteConflict
from vaultmem.errors import ArchivedNote

EXPIRED = [
    "conversations/2026-10-30-harbor-standup.md",
    "conversations/2026-11-13-meridian-vendor-call.md",
    "projects/harbor-airflow-version.md",
    "scratch/berlin-hotel.md",
    "scratch/flight-berlin.md",
    "scratch/pharmacy-pickup.md",
]


@pytest.fixture
def vault(sample_vault: Path) -> Vault:
    with Vault(sample_vault) as opened:
        opened.index()
        yield opened


# ------------------------------------------------------------------ get


def test_get_says_plainly_that_a_note_expired_and_when(vault: Vault) -> None:
    view = vault.get("scratch/flight-berlin", now=NOW)
    assert view.expired is True
    assert view.expires_at == "2026-11-13T00:00:00+00:00"
    assert "Seat 14C" in view.body


def test_get_cli_text_shows_expired(sample_vault: Path, vault: Vault) -> None:
    result = run_cli(sample_vault, "get", "scratch/flight-berlin.md")
    assert result.exit_code == 0
    assert "EXPIRED at 2026-11-13T00:00:00+00:00" in result.stdout


def test_get_accepts_id_path_path_without_md_and_unique_file_name(vault: Vault) -> None:
    by_path = vault.get("people/pimenta-vet-allergy.md", now=NOW)
    assert vault.get("people/pimenta-vet-allergy", now=NOW).path == by_path.path
    assert vault.get("pimenta-vet-allergy", now=NOW).path == by_path.path
    remembered = vault.remember("Lantern needs a logo", layer="L3", now=NOW)
    assert vault.get(remembered.id, now=NOW).path == remembered.path


def test_get_of_a_permanent_note_is_not_expired_and_has_no_deadline(vault: Vault) -> None:
    view = vault.get("people/rui-birthday", now=NOW)
    assert view.expired is False and view.expires_at is None and view.permanent is True


def test_get_reports_problems_and_usage(vault: Vault) -> None:
    vault.mark_used(["scratch/call-landlord"], now=NOW)
    view = vault.get("scratch/call-landlord", now=NOW)
    assert any("next tuesday" in problem["message"] for problem in view.problems)
    assert view.use_count == 1 and view.last_used_at is not None


def test_get_reads_the_current_file_not_the_stale_index(vault: Vault) -> None:
    path = vault.root / "people/Rui.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Rui", "Rui Mendes", 1), encoding="utf-8")
    assert "Rui Mendes" in vault.get("people/Rui", now=NOW).body + vault.get("people/Rui", now=NOW).title


def test_unknown_note_is_a_clear_error_with_suggestions(vault: Vault) -> None:
    with pytest.raises(NoteNotFound) as raised:
        vault.get("people/Ruii")
    assert "people/Ruii" in str(raised.value)


def test_ambiguous_note_lists_the_candidates(vault: Vault, sample_vault: Path) -> None:
    (sample_vault / "archive-copy").mkdir()
    (sample_vault / "archive-copy" / "Rui.md").write_text("# Another Rui\n", encoding="utf-8")
    vault.index()
    with pytest.raises(AmbiguousNote) as raised:
        vault.get("Rui")
    assert "people/Rui.md" in str(raised.value) and "archive-copy/Rui.md" in str(raised.value)


@pytest.mark.parametrize("reference", ["../outside", "/etc/passwd", "people/../../outside"])
def test_a_note_reference_outside_the_vault_is_refused(vault: Vault, reference: str) -> None:
    with pytest.raises(PathOutsideVault):
        vault.get(reference)


def test_cli_unknown_note_exits_1(sample_vault: Path, vault: Vault) -> None:
    result = run_cli(sample_vault, "get", "no-such-note")
    assert result.exit_code == 1 and "no note matches" in result.stderr


# ------------------------------------------------------------------ forget


def test_forget_archives_the_note_recoverably_and_hides_it(vault: Vault) -> None:
    before = (vault.root / "people/Lars Becker.md").read_bytes()
    result = vault.forget("people/Lars Becker")
    archived = vault.root / result.archived_to
    assert result.archived_to == "_archive/people/Lars Becker.md"
    assert archived.read_bytes() == before
    assert not (vault.root / "people/Lars Becker.md").exists()
    assert all(hit.path != "people/Lars Becker.md" for hit in vault.search("Lars Becker Berlin data engineer", k=10, now=NOW))
    assert all(not hit.path.startswith("_archive/") for hit in vault.search("Lars Becker", k=40, now=NOW))


def test_a_forgotten_note_named_by_its_id_or_old_path_says_where_it_went(vault: Vault) -> None:
    # Was "no note matches", as for a name nobody ever gave; superseded and merged ids say where they went.
    note_id = vault.get("people/Lars Becker").id
    vault.forget("people/Lars Becker")
    again = vault.remember("Lars Becker, take two", title="Lars Becker", folder="people", now=NOW)
    vault.forget(again.path)  # the archive's second copy: _archive/people/lars-becker.md
    for reference in (note_id, "people/Lars Becker", "people/Lars Becker.md"):
        with pytest.raises(ArchivedNote) as raised:
            vault.get(reference)
        assert raised.value.archived == "_archive/people/Lars Becker.md", reference
        assert "was archived: it is _archive/people/Lars Becker.md now" in str(raised.value)
    with pytest.raises(ArchivedNote, match="_archive/people/lars-becker.md"):
        vault.forget(again.id)
    with pytest.raises(NoteNotFound) as unknown:
        vault.get("people/Nobody")
    assert not isinstance(unknown.value, ArchivedNote)


def test_a_forgotten_memory_named_by_its_title_says_where_it_went(vault: Vault) -> None:
    # Was (a trial): `forget "Cabin wifi"` then `get "Cabin wifi"` said "no note matches", as if
    # the memory had never been; an agent holds a memory's title more often than its path.
    cabin = vault.remember("The wifi password at the cabin is larch-42.", title="Cabin wifi", layer="L3", now=NOW)
    vault.forget("Cabin wifi")
    for reference in ("Cabin wifi", "cabin WIFI"):
        with pytest.raises(ArchivedNote) as raised:
            vault.get(reference)
        assert raised.value.archived == f"_archive/{cabin.path}", reference
    with pytest.raises(NoteNotFound) as unknown:
        vault.get("Cabin")  # a title's first word names nothing archived
    assert not isinstance(unknown.value, ArchivedNote)
    again = vault.remember("The cabin's wifi password is now spruce-7.", title="Cabin wifi", layer="L3", now=NOW)
    vault.forget(again.id)
    with pytest.raises(ArchivedNote) as raised:
        vault.get("Cabin wifi")
    assert raised.value.archived == "_archive/memories/cabin-wifi-2.md"  # the one archived last
    assert raised.value.also == [f"_archive/{cabin.path}"]


def test_a_name_that_only_begins_an_archived_files_name_is_not_said_to_be_archived(vault: Vault) -> None:
    # A review found `get memories/sprint` answered "was archived: it is _archive/memories/sprint-12.md".
    sprint = vault.remember("Retro notes", title="sprint-12", now=NOW)
    vault.forget(sprint.path)
    with pytest.raises(NoteNotFound) as raised:
        vault.get("memories/sprint")
    assert not isinstance(raised.value, ArchivedNote), str(raised.value)
    for _ in range(2):  # memories/standup.md archived three times: the newest copy is named
        vault.forget(vault.remember("Standup at 9:30", title="standup", now=NOW).path)
    vault.forget(vault.remember("Standup at 10:00", title="standup", now=NOW).path)
    with pytest.raises(ArchivedNote, match="_archive/memories/standup-3.md now"):
        vault.get("memories/standup")


def test_an_archived_note_named_by_its_bare_file_name_or_in_another_unicode_form_says_where_it_went(
        vault_dir: Path, write_note) -> None:
    """Were "no note matches": `get "Zettel/Café crème.md"` typed composed once the decomposed file
    (as macOS names it) was archived, and `get "C# vs Kotlin"` (a bare file name) once
    Ideas/C# vs Kotlin.md was."""
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "Café crème")
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note(f"Zettel/{decomposed}.md", "---\nlayer: L3\n---\nA café crème at the counter.\n")
    write_note("Ideas/C# vs Kotlin.md", "---\nlayer: L3\n---\nC# has LINQ.\n")
    with Vault(vault_dir) as vault:
        vault.forget("Café crème")  # a bare name, typed composed: found (resolution's step 2)
        vault.forget("Ideas/C# vs Kotlin.md")
        assert os.listdir(vault_dir / "_archive" / "Zettel") == [f"{decomposed}.md"]
        for reference in ("Zettel/Café crème.md", "Zettel/Café crème", f"Zettel/{decomposed}.md", "Café crème"):
            with pytest.raises(ArchivedNote) as raised:
                vault.get(reference)
            assert raised.value.archived == f"_archive/Zettel/{decomposed}.md", reference  # as the disk spells it
        for reference in ("C# vs Kotlin", "c# vs kotlin.md"):
            with pytest.raises(ArchivedNote, match=r"was archived: it is _archive/Ideas/C# vs Kotlin\.md now"):
                vault.get(reference)
        # Two notes of that name were archived: the newest copy of each is named.
        write_note("Other/C# vs Kotlin.md", "---\nlayer: L3\n---\nKotlin has coroutines.\n")
        vault.forget("Other/C# vs Kotlin.md")
        write_note("Ideas/C# vs Kotlin.md", "---\nlayer: L3\n---\nC# has records.\n")
        vault.forget("Ideas/C# vs Kotlin.md")
        with pytest.raises(ArchivedNote) as raised:
            vault.get("C# vs Kotlin")
        assert (raised.value.archived, raised.value.also) == ("_archive/Ideas/C# vs Kotlin-2.md", ["_archive/Other/C# vs Kotlin.md"])
        with pytest.raises(NoteNotFound) as unknown:
            vault.get("C# vs Kotl")
        assert not isinstance(unknown.value, ArchivedNote)
    got = run_cli(vault_dir, "get", "C# vs Kotlin")
    assert got.exit_code == 1 and "was archived: it is _archive/Ideas/C# vs Kotlin-2.md now" in got.stderr


def test_archive_is_never_indexed_even_after_rebuild(vault: Vault) -> None:
    vault.forget("people/Lars Becker")
    vault.index(rebuild=True)
    assert vault.store.notes.by_path("_archive/people/Lars Becker.md") is None


def test_forgetting_twice_the_same_path_keeps_both_archived_copies(vault: Vault, sample_vault: Path) -> None:
    first = vault.forget("scratch/gift-ideas-rui")
    (sample_vault / "scratch/gift-ideas-rui.md").write_text("# Gift ideas v2\n", encoding="utf-8")
    second = vault.forget("scratch/gift-ideas-rui")
    assert first.archived_to != second.archived_to
    assert (sample_vault / first.archived_to).is_file() and (sample_vault / second.archived_to).is_file()


def test_the_archive_gets_no_two_names_that_differ_only_in_case(vault: Vault, sample_vault: Path) -> None:
    # Was: Dentist.md forgotten, then the person's new dentist.md forgotten, went to _archive/Dentist.md
    # and _archive/dentist.md — and work/y.md beside an archived Work/x.md to _archive/work/ beside
    # _archive/Work/: one file (one folder) on Windows and macOS, where a clone of the vault keeps
    # only one of the two ("paths have collided") and a sync tool renames one "(Case Conflict)".
    # remember's names and folders already avoided this (writer.existing_spelling, adr/0020).
    for name, text in (("Dentist.md", "# Dentist\nThe old dentist.\n"), ("Work/x.md", "# X\nx\n")):
        (sample_vault / name).parent.mkdir(exist_ok=True)
        (sample_vault / name).write_text(text, encoding="utf-8")
    vault.index()
    assert vault.forget("Dentist.md").archived_to == "_archive/Dentist.md"
    assert vault.forget("Work/x.md").archived_to == "_archive/Work/x.md"
    (sample_vault / "dentist.md").write_text("# dentist\nThe new dentist.\n", encoding="utf-8")
    (sample_vault / "work").mkdir()
    (sample_vault / "work/y.md").write_text("# Y\ny\n", encoding="utf-8")
    vault.index()
    assert vault.forget("dentist.md").archived_to == "_archive/dentist-2.md"
    assert vault.forget("work/y.md").archived_to == "_archive/Work/y.md"
    archive = sorted(path.relative_to(sample_vault / "_archive").as_posix() for path in (sample_vault / "_archive").rglob("*"))
    assert len({path.upper() for path in archive}) == len(archive) == 5, archive  # no two in case only
    assert (sample_vault / "_archive/Dentist.md").read_text(encoding="utf-8").endswith("The old dentist.\n")
    assert (sample_vault / "_archive/dentist-2.md").read_text(encoding="utf-8").endswith("The new dentist.\n")


def test_forget_hard_deletes_the_file(vault: Vault) -> None:
    result = vault.forget("people/Lars Becker", hard=True)
    assert result.archived_to is None
    assert not (vault.root / "people/Lars Becker.md").exists()
    assert not (vault.root / "_archive").exists()
    with pytest.raises(NoteNotFound):
        vault.get("people/Lars Becker")


def test_forget_hard_of_a_note_edited_since_indexing_fails_loudly(vault: Vault) -> None:
    path = vault.root / "people/Lars Becker.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nA person added this line.\n", encoding="utf-8")
    os.utime(path, ns=(vault.store.notes.by_path("people/Lars Becker.md").mtime_ns,) * 2)  # index cannot tell by stat
    with pytest.raises(WriteConflict, match="people/Lars Becker.md"):
        vault.forget("people/Lars Becker", hard=True)
    assert "A person added this line." in path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ expire


def test_expire_dry_run_lists_exactly_the_expired_notes_and_touches_nothing(vault: Vault) -> None:
    before = snapshot_files(vault.root)
    report = vault.expire(now=NOW)
    assert sorted(entry.path for entry in report.expired) == EXPIRED
    assert report.applied is False
    assert snapshot_files(vault.root) == before


def test_expire_apply_archives_exactly_the_expired_notes(vault: Vault) -> None:
    report = vault.expire(apply=True, now=NOW)
    assert report.applied is True and report.skipped == []
    for path in EXPIRED:
        assert not (vault.root / path).exists()
        assert (vault.root / "_archive" / path).is_file()
    # never touched: L4/permanent, no expires_at, and the unparseable 'next tuesday'
    for untouched in ["procedures/deploy-harbor.md", "people/rui-birthday.md", "Inbox.md",
                      "scratch/call-landlord.md", "procedures/weekly-review.md"]:
        assert (vault.root / untouched).is_file()
    assert vault.expire(now=NOW).expired == []


def test_expire_hard_deletes(vault: Vault) -> None:
    vault.expire(apply=True, hard=True, now=NOW)
    assert not any((vault.root / path).exists() for path in EXPIRED)
    assert not (vault.root / "_archive").exists()


def test_expire_hard_skips_a_read_only_note_saying_why_and_deletes_the_others(vault: Vault) -> None:
    # A refused note (ReadOnlyNote, a full disk) is skipped like an edited one, not the run
    # stopped after the notes before it.
    protected = vault.root / EXPIRED[0]
    protected.chmod(0o444)
    kept = protected.read_bytes()
    report = vault.expire(apply=True, hard=True, now=NOW)
    [skipped] = report.skipped
    assert skipped.path == EXPIRED[0] and "is read-only (mode 0444)" in skipped.reason
    assert protected.read_bytes() == kept
    assert not any((vault.root / path).exists() for path in EXPIRED[1:])


def test_expire_hard_dry_run_lists_a_read_only_note_as_skipped_as_apply_does(vault: Vault) -> None:
    # Was: the dry run listed it among the notes to delete, and --apply then skipped it.
    protected = vault.root / EXPIRED[0]
    protected.chmod(0o444)
    planned = vault.expire(hard=True, now=NOW)
    assert [(item.path, "is read-only (mode 0444)" in item.reason) for item in planned.skipped] == [(EXPIRED[0], True)]
    applied = vault.expire(apply=True, hard=True, now=NOW)
    assert [(item.path, item.reason) for item in applied.skipped] == [(item.path, item.reason) for item in planned.skipped]
    assert protected.is_file()
    assert vault.expire(now=NOW).skipped == []  # archived, not deleted: moved as any other note


def test_expire_json_names_where_each_note_went_only_once_it_was_moved(vault: Vault) -> None:
    listed = vault.expire(now=NOW).as_dict()
    assert listed["applied"] is False and listed["skipped"] == [] and listed["commit"] is None
    assert all(set(entry) == {"id", "path", "title", "layer", "expires_at"} for entry in listed["expired"])
    applied = vault.expire(apply=True, now=NOW).as_dict()
    assert {entry["path"]: entry["archived_to"] for entry in applied["expired"]} == {path: f"_archive/{path}" for path in EXPIRED}


def test_expire_hard_json_says_each_note_was_deleted(vault: Vault) -> None:
    document = vault.expire(apply=True, hard=True, now=NOW).as_dict()
    assert document["hard"] is True and [entry["archived_to"] for entry in document["expired"]] == [None] * len(EXPIRED)


def test_expire_as_of_the_past_lists_fewer(vault: Vault) -> None:
    report = vault.expire(now="2026-11-14T00:00:00Z")
    assert sorted(entry.path for entry in report.expired) == [
        "conversations/2026-10-30-harbor-standup.md", "projects/harbor-airflow-version.md", "scratch/flight-berlin.md"]


def test_expire_skips_a_note_a_person_extended_after_indexing(vault: Vault) -> None:
    path = vault.root / "scratch/berlin-hotel.md"
    text = path.read_text(encoding="utf-8").replace("2026-11-16T11:00:00+01:00", "2027-11-16T11:00:00+01:00")
    mtime = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(mtime, mtime))  # same stat: only the re-read before moving can notice
    size_same = len(text.encode()) == vault.store.notes.by_path("scratch/berlin-hotel.md").size
    assert size_same
    report = vault.expire(apply=True, now=NOW)
    assert [skip.path for skip in report.skipped] == ["scratch/berlin-hotel.md"]
    assert path.read_text(encoding="utf-8") == text


BROKEN_EXPIRED = (
    "---\n"
    "title: Boiler service: Tuesday\n"  # the second ':' makes the YAML fail to load
    "layer: L2\n"
    "expires_at: 2026-11-01T00:00:00+00:00\n"
    "---\n"
    "The boiler technician comes on Tuesday.\n"
)


def test_the_expire_dry_run_skips_what_apply_would_skip_and_says_why(vault: Vault) -> None:
    """A note whose YAML does not load is expired by its salvaged `expires_at:` line, but
    `--apply` will not move it: the dry run must not promise that it would."""
    (vault.root / "memories").mkdir()
    (vault.root / "memories/boiler.md").write_text(BROKEN_EXPIRED, encoding="utf-8")
    before = snapshot_files(vault.root)
    planned = vault.expire(now=NOW)
    assert [(skip.path, skip.reason) for skip in planned.skipped] == [
        ("memories/boiler.md", "its frontmatter does not load (see Vault.check()); fix the YAML, then run expire again")]
    assert snapshot_files(vault.root) == before

    text = run_cli(vault.root, "expire", "--as-of", NOW)
    assert "would archive memories/boiler.md" not in text.stdout
    assert "would skip memories/boiler.md: its frontmatter does not load" in text.stdout
    assert f"{len(EXPIRED) + 1} expired note(s), {len(EXPIRED)} to archive, 1 skipped" in text.stdout
    dry = json.loads(run_cli(vault.root, "expire", "--as-of", NOW, "--json").stdout)
    applied = json.loads(run_cli(vault.root, "expire", "--apply", "--as-of", NOW, "--json").stdout)
    # The shell names its own command where Python names the method.
    assert dry["skipped"] == applied["skipped"] == [{"path": "memories/boiler.md", "reason": (
        "its frontmatter does not load (see `vaultmem check`); fix the YAML, then run expire again")}]
    assert sorted(entry["path"] for entry in applied["expired"] if "archived_to" in entry) == EXPIRED
    assert (vault.root / "memories/boiler.md").read_text(encoding="utf-8") == BROKEN_EXPIRED


def test_cli_expire_json_shape(sample_vault: Path, vault: Vault) -> None:
    result = run_cli(sample_vault, "expire", "--as-of", NOW, "--json")
    document = json.loads(result.stdout)
    assert result.exit_code == 0
    assert document["applied"] is False
    assert sorted(entry["path"] for entry in document["expired"]) == EXPIRED


def test_cli_expire_hard_without_apply_is_a_usage_error(sample_vault: Path) -> None:
    assert run_cli(sample_vault, "expire", "--hard").exit_code == 2


def test_get_of_a_note_moved_back_from_the_archive_says_how_to_keep_it(vault_dir: Path) -> None:
    # Trial (s28-life): the person moved an expired memory back out of the archive; it stayed
    # hidden, and `get` only said that `expire --apply` archives it — again.
    note = vault_dir / "memories/blood-type.md"
    note.parent.mkdir(parents=True)
    note.write_text("---\ntitle: Blood type\nlayer: L3\nexpires_at: 2020-01-01\n---\nMaya's blood type is O negative.\n",
                    encoding="utf-8")
    assert run_cli(vault_dir, "expire", "--apply").exit_code == 0
    (vault_dir / "_archive/memories/blood-type.md").rename(note)  # the person restores it by hand
    shown = run_cli(vault_dir, "get", "memories/blood-type.md").stdout
    assert "EXPIRED at 2020-01-01" in shown and "vaultmem revise memories/blood-type.md --ttl 90d" in shown
    assert run_cli(vault_dir, "revise", "memories/blood-type.md", "--ttl", "90d").exit_code == 0
    assert "memories/blood-type.md" in run_cli(vault_dir, "search", "blood type").stdout


def test_a_file_where_the_archive_needs_a_folder_is_named_with_the_fix_not_taken_for_a_path_outside(vault: Vault) -> None:
    # Was: "path '_archive/scratch/flight-berlin.md' resolves outside the vault …: use a path
    # relative to the vault root, without '..' or symlinks out" (PathOutsideVault, exit 2).
    (vault.root / "_archive").mkdir()
    (vault.root / "_archive/scratch").write_text("a file of yours\n", encoding="utf-8")
    before = snapshot_files(vault.root)
    with pytest.raises(NotADirectoryError, match=r"_archive/scratch is a file where vaultmem needs a folder.*move or rename _archive/scratch"):
        vault.forget("scratch/flight-berlin.md")
    assert snapshot_files(vault.root) == before
    result = run_cli(vault.root, "forget", "scratch/flight-berlin.md")
    assert result.exit_code == 1 and "_archive/scratch is a file where vaultmem needs a folder" in result.output


def test_the_archive_gets_no_two_names_that_differ_only_in_unicode_form(vault: Vault, sample_vault: Path) -> None:
    # macOS (APFS) ignores the Unicode form as well as case: Zoë.md written composed (NFC) and
    # Zoë.md written decomposed (NFD, as a Mac names files) are one file there. Was: the
    # archive compared names as Windows does only (case), so the second Zoë.md forgotten went
    # to _archive/Zoë.md beside the first — a clone on a Mac keeps one of the two; and a
    # folder spelled the other way made a second folder beside the archive's.
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    (sample_vault / f"{composed}.md").write_text("# Zoë\nThe old Zoë.\n", encoding="utf-8")
    (sample_vault / f"Caf\u00e9").mkdir()
    (sample_vault / f"Caf\u00e9/x.md").write_text("# X\nx\n", encoding="utf-8")
    vault.index()
    assert vault.forget(f"{composed}.md").archived_to == f"_archive/{composed}.md"
    assert vault.forget(f"Caf\u00e9/x.md").archived_to == "_archive/Caf\u00e9/x.md"
    (sample_vault / f"{decomposed}.md").write_text("# Zoë\nThe new Zoë.\n", encoding="utf-8")
    (sample_vault / "Cafe\u0301").mkdir()
    (sample_vault / "Cafe\u0301/y.md").write_text("# Y\ny\n", encoding="utf-8")
    vault.index()
    assert vault.forget(f"{decomposed}.md").archived_to == f"_archive/{decomposed}-2.md"
    assert vault.forget("Cafe\u0301/y.md").archived_to == "_archive/Caf\u00e9/y.md"
    archive = sorted(path.relative_to(sample_vault / "_archive").as_posix() for path in (sample_vault / "_archive").rglob("*"))
    assert len({unicodedata.normalize("NFC", path).upper() for path in archive}) == len(archive) == 5, archive
    assert (sample_vault / f"_archive/{composed}.md").read_text(encoding="utf-8").endswith("The old Zoë.\n")
    assert (sample_vault / f"_archive/{decomposed}-2.md").read_text(encoding="utf-8").endswith("The new Zoë.\n")


@pytest.mark.parametrize("name", ["n" * 251 + ".md", "é" * 125 + "n.md", "n" * 247 + ".md"],
                         ids=["254 bytes", "254 bytes of two-byte letters", "250 bytes"])
def test_a_note_whose_name_leaves_no_room_for_the_archive_suffix_is_archived_under_a_cut_name(
        vault_dir: Path, name: str) -> None:
    # Was: the second forget of a note named in 254 bytes failed "[Errno 36] File name too long":
    # its archive name, name-2.md, is 256 bytes. The name is cut by bytes (never half a letter), as a
    # conflict copy's is, and each archived copy keeps a name of its own.
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    assert len(os.fsencode(name)) in (254, 250)
    texts = [f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\nFact number {round}.\n" for round in range(3)]
    for text in texts:
        (vault_dir / name).write_text(text, encoding="utf-8")
        with Vault(vault_dir) as vault:
            vault.index()
            vault.forget(name)
    archived = {path.name: path.read_text(encoding="utf-8") for path in (vault_dir / "_archive").iterdir()}
    assert sorted(archived.values()) == texts  # nothing lost, nothing written over
    assert archived[name] == texts[0]
    assert all(len(os.fsencode(archived_name)) <= 255 for archived_name in archived)
    assert [archived[other] for other in archived if other.endswith("-2.md")] == [texts[1]]
    assert [archived[other] for other in archived if other.endswith("-3.md")] == [texts[2]]


def test_two_long_names_cut_to_one_archive_name_do_not_answer_for_each_other(vault_dir: Path) -> None:
    # Was: "n"*250 + "a.md" and "n"*250 + "b.md" both had the archive name "n"*250 + "-2.md" (cut by
    # bytes), so once the second a-note was archived there, `get` of the b-note said it was that
    # file: the reader walks the same names the writer does, and took a's copy for b's newest.
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    first, second = "n" * 250 + "a.md", "n" * 250 + "b.md"
    for name, text in [(first, "Fact a, once."), (second, "Fact b."), (first, "Fact a, again.")]:
        (vault_dir / name).write_text(f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\n{text}\n", encoding="utf-8")
        with Vault(vault_dir) as vault:
            vault.index()
            archived_to = vault.forget(name).archived_to
    assert archived_to is not None and (vault_dir / archived_to).read_text(encoding="utf-8").endswith("Fact a, again.\n")
    with Vault(vault_dir) as vault:
        with pytest.raises(ArchivedNote) as said_of_b:
            vault.get(second)
        with pytest.raises(ArchivedNote) as said_of_a:
            vault.get(first)
    assert said_of_b.value.archived == f"_archive/{second}"
    assert said_of_a.value.archived == archived_to
