"""Ids never break: a NOTE argument resolves through merged_from, supersedes, aliases and titles."""

from __future__ import annotations

import json
import os
import sqlite3
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import git, init_repo, run_cli, snapshot_files
from mcp_client import run, serve
from vaultmem import AmbiguousNote, NoteNotFound, Vault
from vaultmem.errors import ArchivedNote, ExcludedNote
from vaultmem.embedders import HashingEmbedder
from vaultmem.resolution import Resolution
from vaultmem.searchable import EMBED_RECIPE, INDEX_RULES

NOW = "2026-11-30T12:00:00+00:00"
CANONICAL = "preferences/coffee-milk-details.md"
MERGED_ULID = "01M1GJZ1X05GQAPENECFSECZP1"  # preferences/oat-milk.md, merged into CANONICAL
MERGED_PATH_ID = "preferences/milk-in-coffee"  # a note without an id: its path is its id


@pytest.fixture
def vault(sample_vault: Path, wordllama: object) -> Iterator[Vault]:
    with Vault(sample_vault, embedder=wordllama) as opened:  # type: ignore[arg-type]
        opened.index()
        yield opened


@pytest.fixture
def merged(vault: Vault) -> Vault:
    """The sample vault after `consolidate --apply`: the coffee trio is one note."""
    result = run_cli(vault.root, "consolidate", "--apply", "--json")
    assert result.exit_code == 0, result.output
    merges = {entry["canonical"]: [item["path"] for item in entry["merged"]] for entry in json.loads(result.stdout)["merged"]}
    assert sorted(merges[CANONICAL]) == ["preferences/milk-in-coffee.md", "preferences/oat-milk.md"]
    assert not (vault.root / "preferences/oat-milk.md").exists()
    return vault


def cli_json(vault: Vault, *args: str) -> dict:
    result = run_cli(vault.root, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("reference", [MERGED_ULID, MERGED_PATH_ID])
def test_a_merged_id_resolves_to_the_canonical_after_consolidate_apply(merged: Vault, reference: str) -> None:
    document = cli_json(merged, "get", reference)
    assert document["path"] == CANONICAL
    archived = {MERGED_ULID: "_archive/preferences/oat-milk.md", MERGED_PATH_ID: "_archive/preferences/milk-in-coffee.md"}
    # The note the id named is in the archive now: get names its path there, which get reads.
    assert document["resolved_from"] == {
        "reference": reference, "via": "merged_from", "archived": archived[reference],
        "notice": f"{reference!r} is the id of the note this one was merged from: that note was archived and is "
                  f"{archived[reference]} now; get reads it by that path (read-only)"}
    assert cli_json(merged, "get", archived[reference])["archived"] is True


def test_used_and_revise_by_a_merged_id_act_on_the_canonical_and_say_so(merged: Vault) -> None:
    used = cli_json(merged, "used", MERGED_ULID)
    assert [(entry["path"], entry["resolved_from"]["via"]) for entry in used] == [(CANONICAL, "merged_from")]
    revised = cli_json(merged, "revise", MERGED_ULID, "--tag", "oat")
    assert (revised["path"], revised["resolved_from"]["via"], revised["changed"]) == (CANONICAL, "merged_from", ["tags"])
    assert merged.get(CANONICAL).use_count == 1


def test_forget_by_a_merged_id_archives_the_canonical_and_says_so(merged: Vault) -> None:
    forgotten = cli_json(merged, "forget", MERGED_PATH_ID)
    assert forgotten["path"] == CANONICAL
    assert forgotten["resolved_from"] == {"reference": MERGED_PATH_ID, "via": "merged_from"}


def test_history_by_a_merged_id_follows_the_canonical(sample_vault: Path, wordllama: object) -> None:
    init_repo(sample_vault)
    git(sample_vault, "add", "-A")
    git(sample_vault, "commit", "-qm", "first")
    (sample_vault / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        report = vault.consolidate(apply=True, now=NOW)
        history = vault.history(MERGED_ULID)
    assert [commit.hash for commit in history][:1] == [report.commit]
    assert history.path == CANONICAL and history.resolved_from.via == "merged_from"  # type: ignore[union-attr]
    result = run_cli(sample_vault, "history", MERGED_ULID, "--json")
    assert result.exit_code == 0
    assert [commit["hash"] for commit in json.loads(result.stdout)][:1] == [report.commit]
    assert f"resolved through its merged_from → {CANONICAL}" in result.stderr


def test_a_unique_alias_resolves_like_a_bare_name(vault: Vault) -> None:
    document = cli_json(vault, "get", "Joao Silva")
    assert document["path"] == "people/João Silva.md"
    assert document["resolved_from"] == {"reference": "Joao Silva", "via": "aliases"}
    assert vault.get("Harbor pipeline").path == "projects/Harbor.md"


def test_an_alias_two_notes_share_is_ambiguous(vault: Vault, write_note) -> None:
    (vault.root / "people/Rui Matos Senior.md").write_text("---\naliases: [Rui Matos]\n---\nRui's father\n", encoding="utf-8")
    vault.index()
    with pytest.raises(AmbiguousNote, match=r"people/Rui Matos Senior\.md, people/Rui\.md"):
        vault.get("Rui Matos")


def test_two_notes_sharing_a_file_name_are_named_with_the_notes_titled_so(vault: Vault) -> None:
    # An agent's own note titled "Kyoto" (memories/temples.md) was left out of the error, so the
    # agent could not tell that the note it meant was a third one.
    for path in ("Inbox/Kyoto.md", "References/Kyoto.md"):
        (vault.root / path).parent.mkdir(parents=True, exist_ok=True)
        (vault.root / path).write_text("a place\n", encoding="utf-8")
    (vault.root / "memories").mkdir()
    (vault.root / "memories/temples.md").write_text("---\ntitle: Kyoto\nlayer: L3\n---\nTemples to see in Kyoto\n", encoding="utf-8")
    with pytest.raises(AmbiguousNote) as raised:
        vault.get("Kyoto")
    assert raised.value.candidates == ["Inbox/Kyoto.md", "References/Kyoto.md"]
    assert raised.value.also_named == ["memories/temples.md"]
    assert "memories/temples.md goes by it as an alias, permalink or title, which a file name outranks" in str(raised.value)


def test_a_file_name_in_another_case_is_the_same_name_so_a_bare_name_is_ambiguous(vault: Vault) -> None:
    """Was: `get Kyoto` and MCP `forget(note="Kyoto")` silently took References/Kyoto.md (a
    person's note) because its name matched case for case, while `get kyoto` took the agent's
    memories/kyoto.md. Obsidian reads [[Kyoto]] and [[kyoto]] as one name: so does resolution."""
    (vault.root / "References").mkdir()
    (vault.root / "References/Kyoto.md").write_text("A person called Kyoto.\n", encoding="utf-8")
    # An agent's memory of that name (remember now gives it another file name: tests/test_remember.py).
    (vault.root / "memories").mkdir()
    (vault.root / "memories/kyoto.md").write_text("---\ntitle: Kyoto\nlayer: L3\n---\nTemples to see in Kyoto\n", encoding="utf-8")
    for reference in ("Kyoto", "kyoto", "KYOTO", "Kyoto.md"):
        with pytest.raises(AmbiguousNote) as raised:
            vault.get(reference)
        assert raised.value.candidates == ["References/Kyoto.md", "memories/kyoto.md"], reference
    with pytest.raises(AmbiguousNote):
        vault.forget("Kyoto")
    assert (vault.root / "References/Kyoto.md").is_file() and (vault.root / "memories/kyoto.md").is_file()
    # A path with its folders is exact, as before; a name only one note has, in any case, names it.
    assert vault.locate("References/Kyoto").row.path == "References/Kyoto.md"
    assert vault.locate("memories/kyoto.md").row.path == "memories/kyoto.md"
    assert vault.locate("harbor").row.path == "projects/Harbor.md"
    assert vault.locate("harbor").resolved_from is None  # by its file name, not a title or alias


def test_an_alias_in_another_case_is_the_same_name_so_every_note_going_by_it_is_named(
        vault_dir: Path, write_note, wordllama: object) -> None:
    """Was (a person's vault): `get "job search"` listed the two notes with the alias in lower
    case and left out nodes/projects/job-search.md (`aliases: [Job Search]`), and `get "Job
    Search"` took that one alone. Aliases are one name in any case, as file names are."""
    write_note("nodes/projects/job-search.md", "---\naliases: [Job Search]\n---\nApplications sent.\n")
    write_note("nodes/topics/career.md", "---\naliases: [job search]\n---\nWhere my career goes.\n")
    write_note("nodes/topics/career/career.md", "---\naliases: [job search]\n---\nCareer hub.\n")
    write_note("nodes/people/ana.md", "---\naliases: [Ana Souza]\n---\nA friend.\n")
    with Vault(vault_dir, embedder=wordllama) as vault:  # type: ignore[arg-type]
        for reference in ("job search", "Job Search", "JOB SEARCH"):
            with pytest.raises(AmbiguousNote) as raised:
                vault.get(reference)
            assert raised.value.candidates == ["nodes/projects/job-search.md", "nodes/topics/career.md",
                                               "nodes/topics/career/career.md"], reference
        located = vault.locate("ana souza")
        assert (located.row.path, located.resolved_from) == ("nodes/people/ana.md", Resolution("ana souza", "aliases"))
    result = run_cli(vault_dir, "get", "job search")
    assert result.exit_code != 0
    assert "matches 3 notes: nodes/projects/job-search.md, nodes/topics/career.md, nodes/topics/career/career.md" in result.output


def test_a_title_in_another_case_is_the_same_name_and_a_file_name_still_outranks_it(vault_dir: Path, write_note) -> None:
    """A title resolves in any case, as a file name and an alias do; notes titled alike in two
    cases are ambiguous together, and an ambiguous file name names them as also going by it."""
    write_note("trips/a.md", "---\ntitle: Lisbon Weekend\n---\nTrams.\n")
    write_note("trips/b.md", "---\ntitle: Porto weekend\n---\nBridges.\n")
    write_note("trips/c.md", "---\ntitle: porto Weekend\n---\nWine.\n")
    write_note("Inbox/Kyoto.md", "a place\n")
    write_note("References/kyoto.md", "a place\n")
    write_note("memories/temples.md", "---\ntitle: KYOTO\n---\nTemples.\n")
    write_note("memories/gardens.md", "---\naliases: [kyoto]\n---\nGardens.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        located = vault.locate("lisbon weekend")
        assert (located.row.path, located.resolved_from) == ("trips/a.md", Resolution("lisbon weekend", "title"))
        with pytest.raises(AmbiguousNote) as raised:
            vault.locate("Porto weekend")  # the case of trips/b.md's title does not pick it
        assert raised.value.candidates == ["trips/b.md", "trips/c.md"]
        with pytest.raises(AmbiguousNote) as raised:
            vault.locate("Kyoto")
        assert raised.value.candidates == ["Inbox/Kyoto.md", "References/kyoto.md"]
        assert raised.value.also_named == ["memories/gardens.md", "memories/temples.md"]


def test_a_name_in_turkish_case_names_the_note_by_its_file_name_alias_and_title(vault_dir: Path, write_note) -> None:
    """A trial on a Turkish vault: ``get "ibrahim çelik"`` and ``get "ışıl öztürk"`` were no
    note, and the error offered the very note saying names match "in any case": casefold
    makes İ a dotted i and leaves ı alone, while Turkish cases İ/i and I/ı."""
    write_note("Kişiler/İbrahim Çelik.md", "---\naliases: [İbrahim abi]\n---\nMentorum, İstanbul'da.\n")
    write_note("Kişiler/Işıl Öztürk.md", "---\naliases: [Dr. Işıl]\n---\nDiş hekimim.\n")
    write_note("Toplantılar/a.md", "---\ntitle: İŞ GÖRÜŞMESİ\n---\nCuma.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        for reference, path, kind in (("ibrahim çelik", "Kişiler/İbrahim Çelik.md", None),
                                      ("İBRAHİM ÇELİK", "Kişiler/İbrahim Çelik.md", None),
                                      ("ışıl öztürk", "Kişiler/Işıl Öztürk.md", None),
                                      ("IŞIL ÖZTÜRK", "Kişiler/Işıl Öztürk.md", None),
                                      ("ibrahim abi", "Kişiler/İbrahim Çelik.md", "aliases"),
                                      ("DR. IŞIL", "Kişiler/Işıl Öztürk.md", "aliases"),
                                      ("iş görüşmesi", "Toplantılar/a.md", "title")):
            located = vault.locate(reference)
            assert located.row.path == path, reference
            if kind is not None:
                assert located.resolved_from is not None and located.resolved_from.via == kind, reference
        with pytest.raises(NoteNotFound):
            vault.locate("isil ozturk")  # accents still count: a case is folded, not a letter dropped


def test_ids_listed_in_merged_from_are_still_matched_exactly(vault_dir: Path, write_note) -> None:
    write_note("canonical.md", "---\nlayer: L3\nmerged_from: [01JABCDEFGHJKMNPQRSTVWXYZ0]\n---\nKept.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        assert vault.locate("01JABCDEFGHJKMNPQRSTVWXYZ0").row.path == "canonical.md"
        with pytest.raises(NoteNotFound):
            vault.locate("01jabcdefghjkmnpqrstvwxyz0")


def test_a_file_name_in_another_case_and_unicode_form_is_still_the_same_name(vault_dir: Path, write_note) -> None:
    write_note(f"travel/{DECOMPOSED}.md", "---\nlayer: L4\n---\nCoffee in Paris.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        assert vault.locate(COMPOSED.upper()).row.path == f"travel/{DECOMPOSED}.md"
        assert vault.locate(unicodedata.normalize("NFD", COMPOSED.lower())).row.path == f"travel/{DECOMPOSED}.md"


def test_aliases_are_read_as_obsidian_reads_them(vault_dir: Path, write_note) -> None:
    """Was: `aliases: Tommy, T-Bone` was one alias "Tommy, T-Bone", and `alias: Kiki` (the key
    Obsidian still reads) none. Obsidian splits a string on commas and reads either key."""
    write_note("people/Tom.md", "---\naliases: Tommy, T-Bone\n---\nTom plays the drums.\n")
    write_note("people/Kristin.md", "---\nalias: Kiki\n---\nKristin sings.\n")
    write_note("people/Zoe.md", "---\nAliases: [Big Z]\n---\nZoe paints.\n")
    write_note("people/John Smith.md", "---\naliases: [\"Smith, John\"]\n---\nA list item is one alias, commas and all.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        for reference, path in (("Tommy", "people/Tom.md"), ("T-Bone", "people/Tom.md"), ("Kiki", "people/Kristin.md"),
                                ("Big Z", "people/Zoe.md"), ("Smith, John", "people/John Smith.md")):
            located = vault.locate(reference)
            assert (located.row.path, located.resolved_from) == (path, Resolution(reference, "aliases")), reference
        with pytest.raises(NoteNotFound):
            vault.locate("Tommy, T-Bone")


def test_an_index_made_before_aliases_were_read_as_obsidian_reads_them_learns_them_without_embedding(
        vault_dir: Path, write_note) -> None:
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')  # the CLI's embedder too
    write_note("people/Tom.md", "---\naliases: Tommy, T-Bone\n---\nTom plays the drums.\n")
    write_note("people/Kristin.md", "---\nalias: Kiki\n---\nKristin sings.\n")
    with Vault(vault_dir) as vault:
        vault.index()
    db = sqlite3.connect(vault_dir / ".vaultmem/index.db")
    vectors_before = db.execute("SELECT label, seq FROM passage_vectors ORDER BY label").fetchall()
    with db:  # what reader 10 left: the string as one alias, no alias from `alias`, its rules
        db.execute("DELETE FROM note_names WHERE kind = 'aliases' OR name IN ('tommy', 't-bone', 'kiki')")
        db.execute("INSERT INTO note_names (label, kind, name) SELECT label, 'aliases', 'Tommy, T-Bone' FROM notes "
                   "WHERE path = 'people/Tom.md'")
        db.execute("UPDATE meta SET value = ? WHERE key = 'reader'", (f"reader-10/{EMBED_RECIPE}",))
    db.close()
    # The first command after the upgrade (a get, not an index) reads every note again.
    for reference, path in (("T-Bone", "people/Tom.md"), ("Kiki", "people/Kristin.md")):
        result = run_cli(vault_dir, "get", reference, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["path"] == path
    with Vault(vault_dir) as vault:
        assert vault.store.meta.get("reader") == INDEX_RULES
        assert vault.search("Kiki", k=1)[0].path == "people/Kristin.md"
    db = sqlite3.connect(vault_dir / ".vaultmem/index.db")
    assert db.execute("SELECT label, seq FROM passage_vectors ORDER BY label").fetchall() == vectors_before  # nothing re-embedded
    assert db.execute("SELECT count(*) FROM note_names WHERE name = 'Tommy, T-Bone'").fetchone() == (0,)
    db.close()


def test_a_read_takes_a_file_name_over_another_notes_alias_and_an_alias_over_a_title_and_names_the_other(vault: Vault) -> None:
    (vault.root / "Rui Matos.md").write_text("a note named like Rui's alias\n", encoding="utf-8")
    (vault.root / "other.md").write_text("---\ntitle: the cat\n---\ntitled like Pimenta's alias\n", encoding="utf-8")
    vault.index()
    by_file_name = vault.locate("Rui Matos")
    assert by_file_name.row.path == "Rui Matos.md"
    assert by_file_name.resolved_from is not None and by_file_name.resolved_from.via == "file name"
    # people/Rui.md also opens with `# Rui Matos`: it answers by both (adr/0019 "heading").
    assert [(other.path, other.by) for other in by_file_name.resolved_from.others] == [("people/Rui.md", ("aliases", "heading"))]
    by_alias = vault.locate("the cat")
    assert by_alias.row.path == "people/Pimenta.md"
    assert by_alias.resolved_from is not None and by_alias.resolved_from.via == "aliases"
    assert [(other.path, other.by) for other in by_alias.resolved_from.others] == [("other.md", ("title",))]


def test_a_unique_title_resolves_as_a_last_resort(vault: Vault) -> None:
    located = vault.locate("Flight to Berlin on Nov 12, seat 14C, gate B22")
    assert located.row.path == "scratch/flight-berlin.md"
    assert located.resolved_from.via == "title"  # type: ignore[union-attr]
    with pytest.raises(NoteNotFound):
        vault.locate("flight to berlin on nov 12")  # the whole title (in any case), not a start of it


def test_among_notes_listing_an_id_the_one_alive_now_wins(vault: Vault, write_note) -> None:
    write_note("old-merge.md", "---\nlayer: L1\nexpires_at: 2026-01-01\nmerged_from: [gone-id]\n---\nretired\n", root=vault.root)
    write_note("live-merge.md", "---\nlayer: L3\nexpires_at: 2027-01-01\nmerged_from: [gone-id]\n---\nlive\n", root=vault.root)
    vault.index()
    assert vault.locate("gone-id", now=NOW).row.path == "live-merge.md"
    with pytest.raises(AmbiguousNote):
        vault.locate("gone-id", now="2028-01-01")  # both expired: neither is preferred


def test_a_hand_edit_adding_an_alias_resolves_at_the_next_read(vault: Vault) -> None:
    """No `index` needed: a read brings the index in line with the files first (adr/0021)."""
    path = vault.root / "people/Lars Becker.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("---\n", "---\naliases: [Lars B]\n", 1), encoding="utf-8")
    assert vault.locate("Lars B").row.path == "people/Lars Becker.md"


def test_an_index_from_before_names_were_stored_learns_them_on_upgrade(sample_vault: Path, wordllama: object) -> None:
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
    db = sqlite3.connect(sample_vault / ".vaultmem/index.db")
    vectors_before = db.execute("SELECT label, seq FROM vectors ORDER BY label").fetchall()
    with db:  # as an index written by the release before the step
        db.execute("DROP TABLE note_names")
        db.execute("DROP INDEX notes_title")
        db.execute("DELETE FROM _migrations WHERE name = '007_note_names'")
    db.close()
    # The first command after the upgrade (a get, not an index) reads every note again.
    result = run_cli(sample_vault, "get", "Joao Silva", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["path"] == "people/João Silva.md"
    db = sqlite3.connect(sample_vault / ".vaultmem/index.db")
    assert db.execute("SELECT label, seq FROM vectors ORDER BY label").fetchall() == vectors_before  # nothing re-embedded
    assert db.execute("SELECT count(*) FROM notes WHERE content_hash = ''").fetchone() == (0,)
    db.close()


def test_names_survive_a_rebuild(vault: Vault) -> None:
    vault.index(rebuild=True)
    assert vault.locate("Maya Costa").row.path == "Maya.md"


def test_an_unknown_note_is_answered_with_advice_that_is_true_now(vault: Vault) -> None:
    """Reads find a note written a moment ago on their own: the error must not send the
    person to `vaultmem index`; it says how a note can be named instead."""
    (vault.root / "people/Rui.md").write_text("Rui keeps the spare keys.\n", encoding="utf-8")
    assert run_cli(vault.root, "get", "people/Rui").exit_code == 0  # new, found without an index
    result = run_cli(vault.root, "get", "nope")
    assert result.exit_code == 1
    assert "vaultmem index" not in result.stderr and "if it is new" not in result.stderr
    for way in ("id", "vault-relative path", "file name", "alias", "title"):
        assert way in result.stderr, (way, result.stderr)


# ---------------------------------------------------------------- names in either Unicode form

COMPOSED = "Café résumé"  # as a person types it (NFC)
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)  # as macOS names the file: "Cafe\u0301 re\u0301sume\u0301"


def test_a_file_macos_named_decomposed_is_named_by_what_a_person_types(vault_dir: Path, write_note) -> None:
    """Was: `vaultmem get "Café résumé"` said "no note matches" for `Cafe\\u0301 re\\u0301sume\\u0301.md`,
    though `search` listed the note; get, explain, revise and forget all refused it."""
    write_note(f"travel/{DECOMPOSED}.md", "---\nlayer: L4\n---\nCoffee in Paris, at the counter.\n")
    assert os.listdir(vault_dir / "travel") == [f"{DECOMPOSED}.md"]  # Linux keeps the name's bytes as given
    on_disk = f"travel/{DECOMPOSED}.md"
    for reference in (COMPOSED, f"{COMPOSED}.md", f"travel/{COMPOSED}", f"travel/{COMPOSED}.md"):
        got = run_cli(vault_dir, "get", reference, "--json")
        assert got.exit_code == 0, got.output
        assert json.loads(got.stdout)["path"] == on_disk  # the path as the disk spells it: the file opened
    explained = run_cli(vault_dir, "explain", COMPOSED, "coffee in Paris", "--json")
    assert explained.exit_code == 0, explained.output
    assert json.loads(explained.stdout)["path"] == on_disk
    revised = run_cli(vault_dir, "revise", COMPOSED, "--tag", "paris", "--json")
    assert revised.exit_code == 0, revised.output
    assert "paris" in (vault_dir / on_disk).read_text(encoding="utf-8")
    assert os.listdir(vault_dir / "travel") == [f"{DECOMPOSED}.md"]  # written in place, no composed twin
    forgotten = run_cli(vault_dir, "forget", COMPOSED, "--json")
    assert forgotten.exit_code == 0, forgotten.output
    assert os.listdir(vault_dir / "_archive" / "travel") == [f"{DECOMPOSED}.md"] and not (vault_dir / "travel" / f"{DECOMPOSED}.md").exists()


def test_a_composed_name_title_and_alias_are_found_when_typed_decomposed(vault_dir: Path, write_note) -> None:
    """The other way round: a file, title and alias written composed, asked for decomposed."""
    write_note(f"{COMPOSED}.md", "---\nlayer: L4\n---\nCoffee in Paris.\n")
    write_note("dessert.md", "---\ntitle: Crème brûlée\naliases: [Brûlée du dimanche]\nlayer: L4\n---\nBurnt cream.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        assert vault.locate(DECOMPOSED).row.path == f"{COMPOSED}.md"
        by_title = vault.locate(unicodedata.normalize("NFD", "Crème brûlée"))
        assert (by_title.row.path, by_title.resolved_from.via) == ("dessert.md", "title")  # type: ignore[union-attr]
        by_alias = vault.locate(unicodedata.normalize("NFD", "Brûlée du dimanche"))
        assert (by_alias.row.path, by_alias.resolved_from.via) == ("dessert.md", "aliases")  # type: ignore[union-attr]


def test_a_name_spelled_byte_for_byte_wins_over_its_other_unicode_form(vault_dir: Path, write_note) -> None:
    """Two files whose names differ only in Unicode form (possible on Linux): the exact one is
    named; a spelling that is neither is ambiguous, never a guess."""
    write_note(f"{COMPOSED}.md", "composed\n")
    write_note(f"{DECOMPOSED}.md", "decomposed\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        assert vault.locate(COMPOSED).row.path == f"{COMPOSED}.md"
        assert vault.locate(DECOMPOSED).row.path == f"{DECOMPOSED}.md"
        mixed = "Café re\u0301sume\u0301"  # composed é first, decomposed after
        with pytest.raises(AmbiguousNote):
            vault.locate(mixed)


def test_a_decomposed_file_written_after_the_index_is_indexed_once_under_its_own_name(vault_dir: Path, write_note) -> None:
    """`used` finds a note the index has not seen yet by reading the file it names: the
    file as the disk spells it, not the typed spelling (on a file system that ignores the
    Unicode form that would be a second row for the same file)."""
    write_note("first.md", "---\nlayer: L4\n---\nFirst.\n")
    assert run_cli(vault_dir, "index").exit_code == 0
    write_note(f"{DECOMPOSED}.md", "---\nlayer: L4\n---\nCoffee in Paris.\n")
    used = run_cli(vault_dir, "used", COMPOSED, "--json")
    assert used.exit_code == 0, used.output
    assert [entry["path"] for entry in json.loads(used.stdout)] == [f"{DECOMPOSED}.md"]
    with Vault(vault_dir) as vault:
        assert sorted(row.path for row in vault.store.notes.all()) == [f"{DECOMPOSED}.md", "first.md"]


# ---------------------------------------------------------------- names with spaces around them


def test_a_name_with_a_leading_or_trailing_space_is_named_as_written_before_stripped(vault_dir: Path, write_note) -> None:
    """Was: every surface stripped the NOTE argument first, so `get ' leading space'` (and even
    `get ' leading space.md'`) opened `leading space.md`, and `get 'trail '` said no note matches."""
    write_note(" leading space.md", "---\nlayer: L4\n---\nThe note whose name starts with a space.\n")
    write_note("leading space.md", "---\nlayer: L4\n---\nThe note without the space.\n")
    write_note("trail .md", "---\nlayer: L4\n---\nThe note whose name ends with a space.\n")
    for reference, path in ((" leading space", " leading space.md"), (" leading space.md", " leading space.md"),
                            ("leading space", "leading space.md"), ("trail ", "trail .md"), ("trail .md", "trail .md")):
        got = run_cli(vault_dir, "get", reference, "--json")
        assert got.exit_code == 0, got.output
        assert json.loads(got.stdout)["path"] == path, reference
    explained = run_cli(vault_dir, "explain", " leading space", "note whose name starts", "--json")
    assert explained.exit_code == 0, explained.output
    assert json.loads(explained.stdout)["path"] == " leading space.md"
    with Vault(vault_dir) as vault:
        assert vault.get("trail ").path == "trail .md"
        assert vault.get(" leading space").path == " leading space.md"


def test_a_name_with_a_stray_space_still_names_the_note_when_nothing_is_spelled_so(vault_dir: Path, write_note) -> None:
    """The stripped spelling is the fallback: a name pasted with a space or a newline around it works."""
    write_note("people/dana.md", "---\ntitle: Dana Reyes\nlayer: L4\n---\nDana plays cello.\n")
    for reference in (" people/dana.md", "people/dana \n", "  Dana Reyes  ", "dana\t"):
        got = run_cli(vault_dir, "get", reference, "--json")
        assert got.exit_code == 0, got.output
        assert json.loads(got.stdout)["path"] == "people/dana.md", reference
    blank = run_cli(vault_dir, "get", "   ", "--json")
    assert blank.exit_code == 1 and "no note matches" in blank.stdout


def test_writes_name_the_note_with_the_space_in_its_name(vault_dir: Path, write_note) -> None:
    """revise and forget act on the note spelled as written, not on its neighbour without the space."""
    write_note(" leading space.md", "---\nlayer: L4\n---\nWith the space.\n")
    write_note("leading space.md", "---\nlayer: L4\n---\nWithout the space.\n")
    revised = run_cli(vault_dir, "revise", " leading space", "--tag", "spaced", "--json")
    assert revised.exit_code == 0, revised.output
    assert "spaced" in (vault_dir / " leading space.md").read_text(encoding="utf-8")
    assert "spaced" not in (vault_dir / "leading space.md").read_text(encoding="utf-8")
    forgotten = run_cli(vault_dir, "forget", " leading space", "--json")
    assert forgotten.exit_code == 0, forgotten.output
    assert (vault_dir / "_archive" / " leading space.md").is_file()
    assert (vault_dir / "leading space.md").is_file() and not (vault_dir / " leading space.md").exists()


KADIKOY = "---\nlayer: L3\n---\nThe ferry to Kadıköy leaves at nine.\n"


def test_a_name_typed_without_its_accents_names_the_note_it_may_mean_and_resolves_to_none(vault_dir: Path, write_note) -> None:
    # A trial: `search Kadikoy` named Yerler/Kadıköy.md (search folds accents), `get Kadikoy` found
    # nothing and said nothing of it. Obsidian's [[Kadikoy]] does not open Kadıköy.md either.
    write_note("Yerler/Kadıköy.md", KADIKOY)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault, pytest.raises(NoteNotFound) as refused:
        vault.get("Kadikoy")
    assert refused.value.unaccented == [("Yerler/Kadıköy.md", "Kadıköy")]
    assert str(refused.value).startswith("no note matches 'Kadikoy'; did you mean 'Yerler/Kadıköy.md' (Kadıköy)? "
                                         "A name is matched as the note spells it, accents, full-width marks and curly quotes too")


def test_a_misspelt_name_suggests_the_notes_spelt_closest_and_resolves_to_none(vault_dir: Path, write_note) -> None:
    # A person's trial (s34): `get "Blade Runer"` answered only the ways to name a note.
    write_note("Refs/Blade Runner.md", "---\ncategories: Movies\n---\nA film.\n")
    write_note("Refs/Futurama.md", "---\ntitle: Futurama (show)\n---\nA show.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        with pytest.raises(NoteNotFound) as by_file_name:
            vault.get("Blade Runer")
        with pytest.raises(NoteNotFound) as by_title:
            vault.get("futurama (shw)")
        with pytest.raises(NoteNotFound) as far:
            vault.get("Zelda")
        with pytest.raises(NoteNotFound) as other_number:
            vault.get("Blade Runer 2")
    assert by_file_name.value.suggestions == ["Refs/Blade Runner.md"]
    assert str(by_file_name.value).startswith("no note matches 'Blade Runer'; did you mean: Refs/Blade Runner.md. ")
    assert by_title.value.suggestions == ["Refs/Futurama.md"]
    assert far.value.suggestions == []
    assert other_number.value.suggestions == []  # a sequel is another film


def test_today_yesterday_and_tomorrow_name_that_days_daily_note(vault_dir: Path, write_note) -> None:
    # A person's trial (s34): `get today` in an Obsidian vault of daily notes offered
    # memories/working-on-the-churn-dashboard-for-priya-today.md; `revise today --append` is how
    # a person or an agent adds to the day's note.
    write_note(".obsidian/daily-notes.json", '{"folder": "Daily"}')
    write_note("Daily/2026-11-30.md", "## Notes\n\nMonday.\n")
    write_note("Daily/2026-12-01.md", "## Notes\n\nTuesday.\n")
    write_note("memories/working-on-the-dashboard-today.md", "---\nlayer: L1\n---\nWorking on the dashboard today.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        assert vault.get("today", now="2026-12-01T12:00:00+00:00").path == "Daily/2026-12-01.md"
        assert vault.get("Yesterday", now="2026-12-01T12:00:00+00:00").path == "Daily/2026-11-30.md"
        assert vault.get("tomorrow", now="2026-11-30T12:00:00+00:00").path == "Daily/2026-12-01.md"
        with pytest.raises(NoteNotFound, match=r"^no note matches 'tomorrow': no daily note for 2026-12-02 is in the vault"):
            vault.get("tomorrow", now="2026-12-01T12:00:00+00:00")
        write_note("today.md", "A note named today.\n")
        vault.index()
        assert vault.get("today", now="2026-12-01T12:00:00+00:00").path == "today.md"  # a name the person gave wins


def test_a_day_names_the_daily_note_named_for_it_though_a_property_dates_it_otherwise_or_says_it_is_excluded(
        vault_dir: Path, write_note) -> None:
    # Review (s34): `get today` answered "no daily note for 2023-10-12 is in the vault … Obsidian makes
    # the day's note when the day is opened" while Obsidian opened Journal/2023-10-12-Donnerstag.md:
    # its template had filled in `date:` with another day (check says so), and the day was looked
    # up by that date alone. And of a day's note the person excluded, the same untrue words.
    write_note(".obsidian/daily-notes.json", '{"folder": "Journal", "format": "YYYY-MM-DD-dddd"}')
    write_note(".obsidian/app.json", '{"userIgnoreFilters": ["Journal/2023-10-13-Friday.md"]}')
    write_note("Journal/2023-10-12-Thursday.md", "---\ndate: 2024-02-04T16:13\n---\n- [ ] call Ana\n")
    write_note("Journal/2023-10-13-Friday.md", "A private day.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        assert vault.get("today", now="2023-10-12T12:00:00+00:00").path == "Journal/2023-10-12-Thursday.md"
        assert vault.get("2023-10-12").path == "Journal/2023-10-12-Thursday.md"
        with pytest.raises(NoteNotFound, match=r"^Journal/2023-10-13-Friday\.md is excluded by .*Journal/2023-10-13-Friday\.md"):
            vault.get("2023-10-13")
        with pytest.raises(NoteNotFound, match=r"^no note matches '2023-10-14': no daily note for 2023-10-14 is in the vault"):
            vault.get("2023-10-14")


def test_today_without_its_daily_note_suggests_no_note_that_merely_holds_the_word(vault_dir: Path, write_note) -> None:
    # Review (s34): the trial that asked for `today` was offered memories/…-today.md; without the
    # day's note, the answer still ended "did you mean: memories/working-on-the-dashboard-today.md".
    write_note(".obsidian/daily-notes.json", '{"folder": "Daily"}')
    write_note("memories/working-on-the-dashboard-today.md", "---\nlayer: L1\n---\nWorking on the dashboard today.\n")
    write_note("2026-12-02 Budget.md", "The budget meeting.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        with pytest.raises(NoteNotFound) as today:
            vault.get("today", now="2026-12-01T12:00:00+00:00")
        with pytest.raises(NoteNotFound) as day:
            vault.get("2026-12-02", now="2026-12-01T12:00:00+00:00")
    assert today.value.suggestions == [] and "did you mean" not in str(today.value)
    assert str(today.value).startswith("no note matches 'today': no daily note for 2026-12-01 is in the vault")
    assert day.value.suggestions == ["2026-12-02 Budget.md"]  # a note of that day, by its name: worth naming


def test_a_note_named_by_the_path_of_a_quarto_chapter_or_text_file_says_why_that_file_is_no_note(
        vault_dir: Path, write_note) -> None:
    # Review (s34): `index` names book/ch1.qmd as skipped and why, but `get book/ch1.qmd` said only
    # "no note matches", then every way of naming a note.
    write_note("book/ch1.qmd", "# Tides\n\nThe tide tables.\n")
    write_note("Dentist.txt", "Dr. Reyes, Tuesdays.\n")
    write_note("README.md", "A book.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        with pytest.raises(NoteNotFound, match=r"^no note matches 'book/ch1\.qmd': extension \.qmd \(a Quarto source\), "
                                               r"not \.md: only \.md files are notes; to search it, rename it to ch1\.md"):
            vault.get("book/ch1.qmd")
        with pytest.raises(NoteNotFound, match=r"^no note matches 'Dentist\.txt': extension \.txt, not \.md"):
            vault.get("Dentist.txt")
        with pytest.raises(NoteNotFound, match=r"^no note matches 'book/ch2\.qmd'\. Name a note"):
            vault.get("book/ch2.qmd")  # no such file: nothing to say of it


def test_a_name_typed_with_a_straight_apostrophe_names_the_note_spelled_with_a_curly_one(vault_dir: Path, write_note) -> None:
    # A trial on a campaign vault: `remember --title "Vel’Sharoon"` (an editor's smart quote), then
    # `get "Vel'Sharoon"` said only "no note matches", naming nothing. As with accents, the note is
    # named (a write never acts on the guess: Obsidian's [[Vel'Sharoon]] does not open it either).
    write_note("npcs/Vel’Sharoon.md", "---\nlayer: L3\n---\nA drow envoy.\n")
    write_note("places/barthen.md", "---\ntitle: Barthen’s Provisions\n---\nA shop.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        with pytest.raises(NoteNotFound) as by_file_name:
            vault.get("Vel'Sharoon")
        with pytest.raises(NoteNotFound) as by_title:
            vault.get("barthen's provisions")
        assert vault.get("Vel’Sharoon").path == "npcs/Vel’Sharoon.md"  # as the note spells it, it resolves
    assert by_file_name.value.unaccented == [("npcs/Vel’Sharoon.md", "Vel’Sharoon")]
    assert by_title.value.unaccented == [("places/barthen.md", "Barthen’s Provisions")]
    assert "did you mean 'npcs/Vel’Sharoon.md' (Vel’Sharoon)?" in str(by_file_name.value)


def test_an_alias_or_title_without_its_accents_is_named_by_the_name_it_matched(vault_dir: Path, write_note) -> None:
    write_note("contacts/hans.md", "---\nlayer: L3\naliases: [Hans Müller]\n---\nHans.\n")
    write_note("places/cafe.md", "---\ntitle: Café Central\nlayer: L3\n---\nCoffee.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        with pytest.raises(NoteNotFound) as by_alias:
            vault.get("hans muller")
        with pytest.raises(NoteNotFound) as by_title:
            vault.get("Cafe Central")
    assert by_alias.value.unaccented == [("contacts/hans.md", "Hans Müller")]
    assert by_title.value.unaccented == [("places/cafe.md", "Café Central")]


def test_the_cli_names_the_accented_note_and_a_write_to_the_unaccented_name_changes_nothing(vault_dir: Path, write_note) -> None:
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    note = write_note("Yerler/Kadıköy.md", KADIKOY)
    got = run_cli(vault_dir, "get", "Kadikoy")
    assert got.exit_code == 1
    assert "did you mean 'Yerler/Kadıköy.md' (Kadıköy)?" in got.stderr
    revised = run_cli(vault_dir, "revise", "Kadikoy", "--append", "Also at ten.")
    assert revised.exit_code == 1 and "did you mean 'Yerler/Kadıköy.md' (Kadıköy)?" in revised.stderr
    assert note.read_text(encoding="utf-8") == KADIKOY
    assert run_cli(vault_dir, "get", "Kadıköy").exit_code == 0  # as the note spells it, it resolves


def test_a_lecture_number_typed_with_or_without_its_zero_suggests_the_note(tmp_path: Path) -> None:
    """Was (a trial on a student's math vault): get "Lecture 05" said only "no note matches",
    though `Lecture 5.md` was the lecture meant — nor did "Week 3" name `Week 03 - Eigenvalues.md`.
    Numbers are now compared by value in the suggestions only (never `Lecture 50`, never
    `v1.5` for `v1.05`), and nothing is resolved by such a guess."""
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (tmp_path / "Course").mkdir()
    for name in ("Lecture 5", "Lecture 50", "Week 03 - Eigenvalues", "v1.5 notes"):
        (tmp_path / "Course" / f"{name}.md").write_text(f"# {name}\n\nText.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        for typed, meant, not_meant in [("Lecture 05", "Course/Lecture 5.md", "Course/Lecture 50.md"),
                                        ("lecture 005", "Course/Lecture 5.md", "Course/Lecture 50.md"),
                                        ("Week 3", "Course/Week 03 - Eigenvalues.md", None)]:
            with pytest.raises(NoteNotFound) as caught:
                vault.get(typed)
            assert f"did you mean: {meant}" in str(caught.value), typed
            assert not_meant is None or not_meant not in str(caught.value), typed
        with pytest.raises(NoteNotFound) as decimal:
            vault.get("v1.05 notes")
        assert "v1.5 notes" not in str(decimal.value)
    got = run_cli(tmp_path, "get", "Lecture 05")
    assert got.exit_code == 1 and "did you mean: Course/Lecture 5.md" in got.stderr


def test_a_name_typed_with_spaces_suggests_the_note_its_file_names_with_dashes(tmp_path: Path) -> None:
    """Was (an agent trial on a personal CRM vault, one `firstname-lastname.md` per person): get
    "Todd Hartley" said only "no note matches", though people/todd-hartley.md was the note meant; and
    "daily_lo" suggested nothing for daily_log.md (the "_" was dropped from what was looked for).
    A space, "-" or "_" now stands for any of them in the suggestions (a write still acts on no guess)."""
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    (tmp_path / "people").mkdir()
    # No `# Todd Hartley` at its top: that heading names the note (adr/0019 "heading").
    (tmp_path / "people" / "todd-hartley.md").write_text("Founder of Clarity.video.\n", encoding="utf-8")
    (tmp_path / "daily_log.md").write_text("Ran 5 km.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        for typed, meant in [("Todd Hartley", "people/todd-hartley.md"), ("todd_hartley", "people/todd-hartley.md"),
                             ("daily lo", "daily_log.md"), ("daily_lo", "daily_log.md")]:
            with pytest.raises(NoteNotFound) as caught:
                vault.get(typed)
            assert f"did you mean: {meant}" in str(caught.value), typed
    got = run_cli(tmp_path, "get", "Todd Hartley")
    assert got.exit_code == 1
    assert "did you mean: people/todd-hartley.md" in got.stderr


def test_a_name_typed_with_ascii_marks_for_full_width_ones_names_the_note_and_resolves_to_none(vault_dir: Path, write_note) -> None:
    # A trial on a Chinese vault: `get 見字如晤:中秋書` (the colon typed in English mode) said only
    # "no note matches" beside 見字如晤：中秋書.md; `靠墙收下巴(Chin Tuck)` the same for a title.
    write_note("情書/見字如晤：中秋書.md", "---\nlayer: L3\n---\n展信佳。\n")
    write_note("健身/靠墙收下巴.md", "---\ntitle: 靠墙收下巴（Chin Tuck）\nlayer: L3\n---\n下巴水平后收。\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        with pytest.raises(NoteNotFound) as by_name:
            vault.get("見字如晤:中秋書")
        with pytest.raises(NoteNotFound) as by_title:
            vault.get("靠墙收下巴(chin tuck)")
        assert vault.get("見字如晤：中秋書").path == "情書/見字如晤：中秋書.md"  # as the note spells it, it resolves
    assert by_name.value.unaccented == [("情書/見字如晤：中秋書.md", "見字如晤：中秋書")]
    assert by_title.value.unaccented == [("健身/靠墙收下巴.md", "靠墙收下巴（Chin Tuck）")]
    assert "did you mean '情書/見字如晤：中秋書.md' (見字如晤：中秋書)?" in str(by_name.value)


# ------------------------------------------------------------------ a write never acts on a name two notes answer to
# adr/0019, 2026-12-01: the first step that matches decides what a read opens, but a write (forget,
# revise, remember --supersedes, used) is refused when another note answers to the same name by a
# later step's name (an alias, a title), naming each and how; a read says so beside the note.

def hashing_vault(vault_dir: Path, write_note, notes: dict[str, str]) -> None:
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')  # the CLI's embedder too
    for relative, text in notes.items():
        write_note(relative, text)


def test_forget_by_a_name_that_is_one_notes_file_name_and_another_notes_title_is_refused_naming_both(
        vault_dir: Path, write_note) -> None:
    """Was (a trial on a Chinese vault): `remember --title 靠墙天使` wrote memories/靠墙天使-2.md,
    and `forget 靠墙天使`, meant for it, archived the person's 靠墙天使.md (its file name matched
    first; the memory's title only would have at the last step)."""
    person = "---\ntags: [exercise]\n---\n靠墙站立，双臂上举，肘和手背贴墙。\n"
    hashing_vault(vault_dir, write_note, {"靠墙天使.md": person})
    remembered = run_cli(vault_dir, "remember", "每天做三组靠墙天使，每组十次。", "--title", "靠墙天使", "--json")
    assert remembered.exit_code == 0, remembered.output
    memory = json.loads(remembered.stdout)
    assert memory["path"] == "memories/靠墙天使-2.md"
    before = snapshot_files(vault_dir)
    for args in (("forget", "靠墙天使"), ("forget", "靠墙天使", "--hard"), ("revise", "靠墙天使", "--tag", "x")):
        refused = run_cli(vault_dir, *args)
        assert refused.exit_code == 1, (args, refused.output)
        assert (f"'靠墙天使' matches 2 notes: memories/靠墙天使-2.md (its title; id {memory['id']}), "
                "靠墙天使.md (its file name); nothing was changed") in refused.stderr, args
        assert "give the one you mean by its vault-relative path or its id" in refused.stderr
    assert snapshot_files(vault_dir) == before
    forgotten = run_cli(vault_dir, "forget", memory["path"])
    assert forgotten.exit_code == 0, forgotten.output
    assert (vault_dir / "靠墙天使.md").read_text(encoding="utf-8") == person
    assert not (vault_dir / memory["path"]).exists()


def test_a_name_one_file_and_another_notes_title_share_is_read_from_the_file_with_a_notice_and_refused_for_every_write(
        vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"Mom.md": "Mom calls on Sundays.\n"})
    with Vault(vault_dir) as vault:
        memory = vault.remember("Mom's birthday dinner is at the Thai place.", title="Mom")
        assert memory.path == "memories/mom-2.md"
        for write in (lambda: vault.forget("Mom"), lambda: vault.forget("mom", hard=True),
                      lambda: vault.revise("Mom", append="Bring flowers."), lambda: vault.mark_used(["Mom"]),
                      lambda: vault.remember("Mom's dinner moved to Friday.", supersedes=["Mom"])):
            with pytest.raises(AmbiguousNote) as refused:
                write()
            assert refused.value.candidates == ["Mom.md", "memories/mom-2.md"]
            assert refused.value.answers == {"Mom.md": "its file name", "memories/mom-2.md": f"its title; id {memory.id}"}
        assert sorted(path.name for path in (vault_dir / "memories").iterdir()) == ["mom-2.md"]  # the supersede wrote nothing
        view = vault.get("Mom")
        assert (view.path, view.use_count, vault.get(memory.path).use_count) == ("Mom.md", 0, 0)  # no use recorded
        assert view.as_dict()["resolved_from"] == {
            "reference": "Mom", "via": "file name",
            "others": [{"path": "memories/mom-2.md", "id": memory.id, "by": ["title"]}],
            "notice": "another note answers to 'Mom' by its title: memories/mom-2.md; a write by that name is refused: "
                      "name the note by its path or id"}
        assert vault.explain("Mom", "Sundays").reasons[0] == (
            "'Mom' names Mom.md by its file name, and another note answers to 'Mom' by its title: memories/mom-2.md; "
            "a write by that name is refused: name the note by its path or id")
        assert vault.forget(memory.path).path == memory.path
        assert vault.get("Mom").resolved_from is None  # the name is Mom.md's alone again
    assert (vault_dir / "Mom.md").read_text(encoding="utf-8") == "Mom calls on Sundays.\n"
    shown = run_cli(vault_dir, "get", "Mom")
    assert shown.exit_code == 0 and "resolved through" not in shown.output


def test_get_on_the_command_line_says_which_other_note_answers_to_the_name(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"Mom.md": "Mom calls on Sundays.\n",
                                          "memories/birthday.md": "---\ntitle: Mom\nlayer: L2\n---\nDinner.\n"})
    shown = run_cli(vault_dir, "get", "Mom")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[0] == (
        "('Mom' resolved through its file name → Mom.md; another note answers to 'Mom' by its title: "
        "memories/birthday.md; a write by that name is refused: name the note by its path or id)")
    used = run_cli(vault_dir, "used", "Mom")
    assert used.exit_code == 1 and "'Mom' matches 2 notes" in used.stderr
    assert run_cli(vault_dir, "used", "Mom.md").exit_code == 0  # its path names it exactly


def test_a_write_by_a_name_that_is_one_notes_file_name_and_another_notes_alias_is_refused(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"Bob.md": "Bob from the climbing gym.\n",
                                          "people/robert.md": "---\naliases: [Bob, Rob]\n---\nMy uncle Robert.\n"})
    with Vault(vault_dir) as vault:
        with pytest.raises(AmbiguousNote) as refused:
            vault.forget("bob")
        assert refused.value.answers == {"Bob.md": "its file name", "people/robert.md": "an alias"}
        assert vault.get("Bob").path == "Bob.md"
        assert vault.forget("Rob").path == "people/robert.md"  # an alias only one note has: as before
    assert (vault_dir / "Bob.md").is_file()


def test_a_write_by_a_name_that_is_one_notes_alias_and_another_notes_title_is_refused(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"places/lx.md": "---\naliases: [Lisbon]\n---\nThe city.\n",
                                          "memories/trip.md": "---\ntitle: lisbon\nlayer: L2\n---\nFlight on Friday.\n"})
    with Vault(vault_dir) as vault:
        with pytest.raises(AmbiguousNote) as refused:
            vault.revise("Lisbon", append="Trams.")
        assert refused.value.answers == {"memories/trip.md": "its title", "places/lx.md": "an alias"}
        found = vault.get("Lisbon").resolved_from
        assert found is not None and (found.via, [other.path for other in found.others]) == ("aliases", ["memories/trip.md"])
    assert "Trams" not in (vault_dir / "places/lx.md").read_text(encoding="utf-8")


def test_names_that_differ_only_in_case_are_one_name_so_the_write_is_refused(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"notes/mom.md": "Mom calls on Sundays.\n",
                                          "memories/m.md": "---\ntitle: MOM\nlayer: L2\n---\nBirthday in May.\n"})
    with Vault(vault_dir) as vault:
        for reference in ("mom", "MOM", "Mom"):
            with pytest.raises(AmbiguousNote) as refused:
                vault.forget(reference)
            assert refused.value.candidates == ["memories/m.md", "notes/mom.md"], reference
    assert (vault_dir / "notes/mom.md").is_file() and (vault_dir / "memories/m.md").is_file()


def test_a_name_only_one_note_answers_to_still_resolves_as_before_for_reads_and_writes(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"Mom.md": "---\ntitle: Mom\n---\nMom calls on Sundays.\n",
                                          "memories/dinner.md": "---\ntitle: Birthday dinner\nlayer: L2\n---\nThai.\n",
                                          "Dad.md": "Dad fixes bikes.\n"})
    with Vault(vault_dir) as vault:
        assert vault.get("mom").resolved_from is None  # its own file name and title: one note
        revised = vault.revise("birthday dinner", append="At seven.")
        assert revised.as_dict()["resolved_from"] == {"reference": "birthday dinner", "via": "title"}
        assert vault.forget("Dad").path == "Dad.md"


def test_a_name_an_expired_note_also_has_leaves_the_live_one_and_a_superseded_file_name_writes_to_its_successor(
        vault_dir: Path, write_note) -> None:
    """As within a step, the note alive now wins across steps: a memory retired under the
    person's page's name does not block writes to the page. And a memory superseded under the
    title it kept names its successor in `superseded_by`: a write by that name goes to the alive
    end of that chain. Was: `revise standup` after a supersede was refused as ambiguous between
    the retired memories/standup.md (its file name) and memories/standup-2.md (its title) — and
    before that, appended to the retired note."""
    hashing_vault(vault_dir, write_note, {"Dentist.md": "Dr. Alves, Rua Augusta.\n"})
    with Vault(vault_dir) as vault:
        old = vault.remember("Dentist on Tuesday.", title="Dentist")
        vault.remember("Dentist moved to Thursday.", title="Dentist appointment", supersedes=[old.path])
        assert vault.revise("Dentist", append="Bring the x-rays.").path == "Dentist.md"
        first = vault.remember("Standup at 9:30.", title="Standup")
        second = vault.remember("Standup at 9:45.", title="Standup", supersedes=[first.path])
        assert (first.path, second.path) == ("memories/standup.md", "memories/standup-2.md")
        revised = vault.revise("standup", append="In the Tejo room.")
        assert (revised.path, revised.as_dict()["resolved_from"]) == (second.path, {"reference": "standup", "via": "title"})
        third = vault.remember("Standup at 10:00.", title="Standup", supersedes=["standup"])
        assert third.path == "memories/standup-3.md"
        view = vault.get("standup")  # a read still opens the note its file name names, and says where writes go
        assert view.path == first.path
        assert view.as_dict()["resolved_from"]["writes_to"] == third.path
        assert "a write by that name goes to memories/standup-3.md" in view.as_dict()["resolved_from"]["notice"]
        assert vault.forget("standup").path == third.path
    assert "Tejo" not in (vault_dir / first.path).read_text(encoding="utf-8")
    assert "Tejo" in (vault_dir / second.path).read_text(encoding="utf-8")


def test_a_superseded_file_name_another_note_off_its_chain_answers_to_still_refuses_a_write(
        vault_dir: Path, write_note) -> None:
    """The successor is followed only when every other note answering to the name is on the
    retired note's `superseded_by` chain: a person's page titled Standup is not the memory's
    successor, and a write never picks between them."""
    hashing_vault(vault_dir, write_note, {"Team/rituals.md": "---\ntitle: Standup\n---\nDaily, short.\n"})
    with Vault(vault_dir) as vault:
        first = vault.remember("Standup at 9:30.", title="Standup")
        second = vault.remember("Standup at 9:45.", title="Standup", supersedes=[first.path])
        with pytest.raises(AmbiguousNote) as refused:
            vault.revise("standup", append="In the Tejo room.")
        assert refused.value.candidates == ["Team/rituals.md", second.path]  # the retired one: not alive
    for path in ("Team/rituals.md", first.path, second.path):
        assert "Tejo" not in (vault_dir / path).read_text(encoding="utf-8")


def test_a_superseded_note_deleted_since_the_last_index_leaves_a_write_by_its_name_to_its_successor(
        vault_dir: Path, write_note) -> None:
    """A write locates in the index as it last saw the files; the retired note's file, deleted
    since, was read to follow its `superseded_by` and the write failed with "memories/standup.md:
    cannot read", naming a file the person had removed, not the note they named."""
    hashing_vault(vault_dir, write_note, {})
    with Vault(vault_dir) as vault:
        first = vault.remember("Standup at 9:30.", title="Standup")
        second = vault.remember("Standup at 9:45.", title="Standup", supersedes=[first.path])
    (vault_dir / first.path).unlink()
    with Vault(vault_dir) as vault:
        assert vault.revise("standup", append="In the Tejo room.").path == second.path
    assert "Tejo" in (vault_dir / second.path).read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["get", "revise"])
def test_a_timestamp_id_names_the_note_whose_file_name_begins_with_it(vault_dir: Path, write_note, command: str) -> None:
    """Was (a trial on a Zettelkasten): `get 202103131641` found nothing but a did-you-mean,
    where Zettlr's and The Archive's `[[202103131641]]` open `202103131641 - The US South….md`.
    A longer id that begins with the same digits is another note, and two notes that begin
    with the id are ambiguous."""
    hashing_vault(vault_dir, write_note, {
        "zettel/202103131641 - The US South was an independent nation.md": "The Confederacy.\n",
        "zettel/20210313164155 Seconds.md": "Fourteen digits.\n",
        "zettel/202103131643.md": "# Eleven nations\n\nWoodard.\n",
        "202103131650 a.md": "One.\n", "202103131650 b.md": "Two.\n"})
    arguments = ["--append", "More."] if command == "revise" else []
    shown = run_cli(vault_dir, command, "202103131641", *arguments, "--json")
    assert shown.exit_code == 0, shown.output
    answer = json.loads(shown.stdout)
    assert answer["path"] == "zettel/202103131641 - The US South was an independent nation.md"
    assert answer["resolved_from"] == {"reference": "202103131641", "via": "timestamp id"}
    with Vault(vault_dir) as vault:
        assert vault.get("202103131643").path == "zettel/202103131643.md"  # its file name: step 2
        assert vault.get("20210313164155").path == "zettel/20210313164155 Seconds.md"
        with pytest.raises(AmbiguousNote):
            vault.get("202103131650")
        with pytest.raises(NoteNotFound):
            vault.get("2021031316")  # ten digits: not an id, never a prefix


@pytest.mark.parametrize("command", ["get", "revise"])
def test_a_johnny_decimal_id_names_the_note_whose_file_name_begins_with_it(vault_dir: Path, write_note, command: str) -> None:
    """Was (a trial on a Johnny.Decimal vault): `get 11.01` found nothing but a did-you-mean,
    where the system's whole point is that `11.01` names `11.01 Grant proposal.md` for good. A
    longer number that begins with it (`11.012`, `11.01.2`) is another note, and two notes that
    begin with the id are ambiguous."""
    hashing_vault(vault_dir, write_note, {
        "10-19 Work/11 Projects/11.01 Grant proposal.md": "Aims and budget.\n",
        "10-19 Work/11 Projects/11.012 Other.md": "Not 11.01.\n",
        "10-19 Work/11 Projects/11.01.2 Sub.md": "Not 11.01 either.\n",
        "10-19 Work/12 Admin/12.03 a.md": "One.\n", "10-19 Work/12 Admin/12.03 b.md": "Two.\n"})
    arguments = ["--append", "More."] if command == "revise" else []
    shown = run_cli(vault_dir, command, "11.01", *arguments, "--json")
    assert shown.exit_code == 0, shown.output
    answer = json.loads(shown.stdout)
    assert answer["path"] == "10-19 Work/11 Projects/11.01 Grant proposal.md"
    assert answer["resolved_from"] == {"reference": "11.01", "via": "Johnny.Decimal id"}
    with Vault(vault_dir) as vault:
        with pytest.raises(AmbiguousNote):
            vault.get("12.03")
        with pytest.raises(NoteNotFound):
            vault.get("1.01")  # not area-category and item: never a prefix


def test_explain_takes_a_timestamp_id_and_a_johnny_decimal_id_as_get_does(vault_dir: Path, write_note, tmp_path: Path) -> None:
    """Was (a trial on a Zettelkasten and Johnny.Decimal vault): `get 202101011200` opened
    `202101011200 Slip box.md`, but `explain 202101011200 "slip box"` said no note matches it,
    listing "a timestamp id" among the names a note answers to; an agent's MCP `get 11.01` and
    `explain` found nothing either."""
    hashing_vault(vault_dir, write_note, {"Zettelkasten/202101011200 Slip box.md": "Luhmann's slip box.\n",
                                          "10-19 Work/11 Projects/11.01 Grant proposal.md": "Aims and budget.\n"})
    cases = (("202101011200", "slip box", "Zettelkasten/202101011200 Slip box.md"),
             ("11.01", "budget", "10-19 Work/11 Projects/11.01 Grant proposal.md"))
    for reference, query, path in cases:
        explained = run_cli(vault_dir, "explain", reference, query, "--json")
        assert explained.exit_code == 0, explained.output
        assert json.loads(explained.stdout)["path"] == path

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            for reference, query, path in cases:
                assert (await served.call("get", note=reference))["path"] == path
                assert (await served.call("explain", note=reference, query=query))["path"] == path

    run(scenario)


def test_a_memory_titled_as_a_johnny_decimal_id_never_takes_that_id_from_the_note_numbered_so(
        vault_dir: Path, write_note, tmp_path: Path) -> None:
    """Was (stop 37's leftover): `remember --title 11.01` made `memories/11-01.md`, and from then on
    `get 11.01` (and explain, and MCP get) opened the memory by its title — silently, the person's
    `11.01 Grant proposal.md` no longer named by the number its file gives it for good; a write by
    11.01 went to the memory. Now the number answers first, the title beside it is named, a write
    by 11.01 is refused as ambiguous, and remember says which note the title shares its name with."""
    grant = "10-19 Work/11 Projects/11.01 Grant proposal.md"
    hashing_vault(vault_dir, write_note, {grant: "Aims and budget.\n"})
    made = run_cli(vault_dir, "remember", "The grant's budget is due Friday.", "--title", "11.01", "--json")
    assert made.exit_code == 0, made.output
    remembered = json.loads(made.stdout)
    assert [other["path"] for other in remembered["same_name"]] == [grant]
    shown = run_cli(vault_dir, "get", "11.01", "--json")
    assert shown.exit_code == 0, shown.output
    answer = json.loads(shown.stdout)
    assert answer["path"] == grant
    assert answer["resolved_from"]["others"] == [{"path": remembered["path"], "id": remembered["id"], "by": ["title"]}]
    explained = run_cli(vault_dir, "explain", "11.01", "budget", "--json")
    assert json.loads(explained.stdout)["path"] == grant
    refused = run_cli(vault_dir, "revise", "11.01", "--append", "More.")
    assert refused.exit_code != 0
    assert "matches 2 notes" in refused.output and "the Johnny.Decimal id its file name begins with" in refused.output

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            assert (await served.call("get", note="11.01"))["path"] == grant

    run(scenario)


def test_a_memory_whose_title_begins_with_a_zettels_timestamp_id_is_not_named_by_that_id(vault_dir: Path, write_note) -> None:
    """Was (review, s38): `remember --title "202403141205 follow-up"` wrote
    `memories/202403141205-follow-up.md`, whose file name begins with the zettel's id, so
    `get 202403141205` was ambiguous from then on (and every -2, -3 of it as well). The memory's
    file name no longer begins with a number another note answers to; a fresh number still does."""
    zettel = "Zettel/202403141205 Spaced repetition.md"
    hashing_vault(vault_dir, write_note, {zettel: "Spaced repetition beats cramming.\n"})
    with Vault(vault_dir) as vault:
        follow = vault.remember("Ask about the review intervals.", title="202403141205 follow-up")
        bare = vault.remember("The same id as a title.", title="202403141205")
        fresh = vault.remember("A zettel of the agent's own.", title="202501011200 Interleaving")
        assert (follow.path, bare.path) == ("memories/re-202403141205-follow-up.md", "memories/re-202403141205.md")
        assert fresh.path == "memories/202501011200-interleaving.md"
        assert vault.get("202403141205").path == zettel
        assert vault.get("202501011200").path == fresh.path


def test_a_timestamp_or_johnny_decimal_id_whose_note_was_forgotten_says_where_it_went(vault_dir: Path, write_note) -> None:
    """Was (a review, s37): `forget 21.01` archived `21.01 Budget.md`, then `get 21.01` said "no
    note matches '21.01'", as if the note had never been, where its file name or title said
    where it went. Forgotten twice, the newest copy is named once; another number (`21.012`) or
    a date (`10.01.2026`) that begins alike names nothing."""
    hashing_vault(vault_dir, write_note, {"20-29 Home/21 Money/21.01 Budget.md": "Home budget.\n",
                                          "Zettelkasten/202101011200 Slip box.md": "Luhmann's slip box.\n",
                                          "21.012 Other.md": "Another number.\n", "Journal/10.01.2026.md": "A day.\n"})
    for reference in ("21.01", "202101011200"):
        assert run_cli(vault_dir, "forget", reference).exit_code == 0
    write_note("20-29 Home/21 Money/21.01 Budget.md", "Home budget, again.\n")
    assert run_cli(vault_dir, "index").exit_code == 0
    assert run_cli(vault_dir, "forget", "21.01").exit_code == 0
    assert run_cli(vault_dir, "forget", "21.012 Other").exit_code == 0
    with Vault(vault_dir) as vault:
        with pytest.raises(ArchivedNote) as budget:
            vault.get("21.01")
        assert (budget.value.archived, budget.value.also) == ("_archive/20-29 Home/21 Money/21.01 Budget-2.md", [])
        with pytest.raises(ArchivedNote) as zettel:
            vault.get("202101011200")
        assert zettel.value.archived == "_archive/Zettelkasten/202101011200 Slip box.md"
        with pytest.raises(NoteNotFound) as day:
            vault.get("10.01")
        assert type(day.value) is NoteNotFound
    shown = run_cli(vault_dir, "get", "21.01")
    assert shown.exit_code == 1
    assert "'21.01' was archived: it is _archive/20-29 Home/21 Money/21.01 Budget-2.md now" in shown.stderr


def test_explain_of_a_forgotten_note_says_where_it_went_as_get_does(vault_dir: Path, write_note, tmp_path: Path) -> None:
    """Was (a review, s37): after `forget`, `explain 21.01 budget` — and `explain` by the old
    path or file name, in a vault without git — said "no note matches", where `get` said the
    note was archived and where it is: "why is this note not found?" is what explain is for."""
    hashing_vault(vault_dir, write_note, {"20-29 Home/21 Money/21.01 Budget.md": "Home budget.\n",
                                          "Groceries.md": "Oat milk.\n"})
    assert run_cli(vault_dir, "forget", "21.01").exit_code == 0
    for reference in ("21.01", "21.01 Budget", "20-29 Home/21 Money/21.01 Budget"):
        explained = run_cli(vault_dir, "explain", reference, "budget")
        assert explained.exit_code == 1
        assert f"{reference!r} was archived: it is _archive/20-29 Home/21 Money/21.01 Budget.md now" in explained.stderr

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            said = await served.error("explain", note="21.01", query="budget")
            assert "'21.01' was archived: it is _archive/20-29 Home/21 Money/21.01 Budget.md now" in said

    run(scenario)


# ------------------------------------------------------------------ a note answers to its permalink
# adr/0019, 2026-12-01 (permalinks): basic-memory and Obsidian Publish give a note its address in
# `permalink:`; it is a name of step 4 (with the aliases), compared case folded, as written or as
# `memory://…`, whole or by its last part, with or without `.md`. A real path is a path first.

PROTOCOL = "decisions/Lanesborough Protocol.md"
PROTOCOL_NOTE = ("---\ntitle: Lanesborough Protocol\ntype: note\npermalink: decisions/lanesborough-protocol\n"
                 "tags:\n- decision\n---\n\n# Lanesborough Protocol\n\nTwo agents review every cross-machine write.\n")


@pytest.mark.parametrize("reference", ["decisions/lanesborough-protocol", "lanesborough-protocol",
                                       "memory://decisions/lanesborough-protocol", "memory://lanesborough-protocol",
                                       "Decisions/Lanesborough-Protocol", "decisions/lanesborough-protocol.md"])
def test_get_by_a_permalink_whole_by_its_last_part_or_as_a_memory_url_opens_the_note_and_says_so(
        vault_dir: Path, write_note, reference: str) -> None:
    """Was (a trial with a basic-memory vault): `get lanesborough-protocol` and `get
    decisions/lanesborough-protocol` found nothing (only a did-you-mean)."""
    hashing_vault(vault_dir, write_note, {PROTOCOL: PROTOCOL_NOTE, "decisions/other.md": "Other decision.\n"})
    with Vault(vault_dir) as vault:
        view = vault.get(reference)
        assert view.path == PROTOCOL
        assert view.as_dict()["resolved_from"] == {"reference": reference, "via": "permalink"}
    shown = run_cli(vault_dir, "get", reference)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[0] == f"({reference!r} resolved through its permalink → {PROTOCOL})"


PREFIXED = "engineering/US-003 video API patterns.md"
PREFIXED_NOTE = ("---\ntitle: US-003 video API patterns\ntype: note\n"
                 "permalink: video-annotator/engineering/us-003-video-api-patterns\n---\n\nAPP_DB_URL is the test seam.\n")


@pytest.mark.parametrize("reference", ["engineering/us-003-video-api-patterns",
                                       "memory://engineering/us-003-video-api-patterns",
                                       "video-annotator/engineering/us-003-video-api-patterns", "us-003-video-api-patterns"])
def test_a_project_prefixed_permalink_answers_by_each_end_of_it_from_a_slash(vault_dir: Path, write_note, reference: str) -> None:
    """Was (a trial with Simone999/video-annotator's basic-memory project): basic-memory puts the
    project in front of a permalink (`video-annotator/engineering/x`); `get engineering/x`, the
    address an agent from before holds, found nothing (only a did-you-mean)."""
    hashing_vault(vault_dir, write_note, {PREFIXED: PREFIXED_NOTE, "engineering/other.md": "Other note.\n"})
    with Vault(vault_dir) as vault:
        view = vault.get(reference)
        assert (view.path, view.as_dict()["resolved_from"]) == (PREFIXED, {"reference": reference, "via": "permalink"})


def test_two_notes_whose_permalinks_end_alike_are_ambiguous_by_that_end(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"a/x.md": "---\npermalink: alpha/decisions/x\n---\nAlpha's.\n",
                                          "b/x.md": "---\npermalink: beta/decisions/x\n---\nBeta's.\n"})
    with Vault(vault_dir) as vault:
        assert vault.get("alpha/decisions/x").path == "a/x.md"
        with pytest.raises(AmbiguousNote):
            vault.get("decisions/x")


def test_revise_and_forget_by_a_permalink_act_on_its_note(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {PROTOCOL: PROTOCOL_NOTE})
    revised = run_cli(vault_dir, "revise", "memory://decisions/lanesborough-protocol", "--append", "Since June.", "--json")
    assert revised.exit_code == 0, revised.output
    assert json.loads(revised.stdout)["resolved_from"] == {"reference": "memory://decisions/lanesborough-protocol",
                                                           "via": "permalink"}
    assert (vault_dir / PROTOCOL).read_text(encoding="utf-8").endswith("cross-machine write.\n\nSince June.\n")
    with Vault(vault_dir) as vault:
        forgotten = vault.forget("Lanesborough-Protocol")
        assert (forgotten.path, forgotten.as_dict()["resolved_from"]["via"]) == (PROTOCOL, "permalink")
    assert not (vault_dir / PROTOCOL).exists() and (vault_dir / "_archive" / PROTOCOL).is_file()


MERGED_AWAY = ("---\ntitle: Cross machine reviews\ntype: note\npermalink: eng/cross-machine-reviews\nlayer: L3\n"
               "permanent: true\n---\n\nTwo agents review every cross-machine write before it lands.\n")
KEPT = ("---\ntitle: Review protocol\ntype: note\npermalink: decisions/review-protocol\nlayer: L3\npermanent: true\n"
        "---\n\nTwo agents review every cross-machine write before it lands, and log it.\n")


@pytest.mark.parametrize("reference", ["eng/cross-machine-reviews", "cross-machine-reviews",
                                       "memory://eng/cross-machine-reviews", "Eng/Cross-Machine-Reviews.md"])
def test_a_merged_notes_permalink_opens_the_note_it_was_merged_into_and_names_its_archived_file(
        vault_dir: Path, write_note, reference: str) -> None:
    """Was (a trial on a basic-memory vault): after `consolidate --apply`, `get <the merged note's
    permalink>` said "no note matches" (or "was archived"), while its id and title opened the kept note."""
    hashing_vault(vault_dir, write_note, {"decisions/review-protocol.md": KEPT, "eng/Cross machine reviews.md": MERGED_AWAY})
    merged = run_cli(vault_dir, "consolidate", "--apply", "--threshold", "0.7", "--json")
    assert merged.exit_code == 0, merged.output
    assert not (vault_dir / "eng/Cross machine reviews.md").exists()
    archived = "_archive/eng/Cross machine reviews.md"
    document = json.loads(run_cli(vault_dir, "get", reference, "--json").stdout)
    assert document["path"] == "decisions/review-protocol.md"
    assert document["resolved_from"] == {
        "reference": reference, "via": "merged_from", "archived": archived,
        "notice": f"{reference!r} is the permalink of the note this one was merged from: that note was archived and "
                  f"is {archived} now; get reads it by that path (read-only)"}
    revised = run_cli(vault_dir, "revise", reference, "--append", "Since June.", "--json")
    assert revised.exit_code == 0, revised.output
    assert json.loads(revised.stdout)["path"] == "decisions/review-protocol.md"


def test_the_permalink_of_a_forgotten_note_no_note_took_in_opens_no_other_note(vault_dir: Path, write_note) -> None:
    """Only a note that took the archived one in (merged_from, supersedes) answers to its permalink."""
    hashing_vault(vault_dir, write_note, {"eng/Cross machine reviews.md": MERGED_AWAY, "other.md": KEPT})
    assert run_cli(vault_dir, "forget", "eng/Cross machine reviews").exit_code == 0
    for reference in ("cross-machine-reviews", "memory://eng/cross-machine-reviews"):
        with Vault(vault_dir) as vault, pytest.raises(NoteNotFound) as missing:
            vault.get(reference)
        assert f"no note matches {reference!r}" in str(missing.value)


def test_an_archived_files_permalink_and_id_lines_are_read_in_linear_time_and_quoted_values_still_answer(
        vault_dir: Path, write_note) -> None:
    """The lines were read by a lazy group and a backreference: a crafted `permalink:` line of
    spaces took the square of its length, on every lookup that found no note (a review)."""
    hashing_vault(vault_dir, write_note, {"decisions/review-protocol.md": KEPT, "eng/Cross machine reviews.md": MERGED_AWAY})
    assert run_cli(vault_dir, "consolidate", "--apply", "--threshold", "0.7").exit_code == 0
    archived = vault_dir / "_archive/eng/Cross machine reviews.md"
    text = archived.read_text(encoding="utf-8")
    archived.write_text(text.replace("permalink: eng/cross-machine-reviews", "permalink: 'eng/cross-machine-reviews'  "),
                        encoding="utf-8")
    crafted = "---\npermalink: a" + " " * 1_900 + "b\n---\nNothing.\n"  # within the 2,000 characters read of each
    for number in range(200):
        (vault_dir / f"_archive/crafted-{number}.md").write_text(crafted, encoding="utf-8")
    started = time.monotonic()
    with Vault(vault_dir) as vault:
        assert vault.get("cross-machine-reviews").path == "decisions/review-protocol.md"
        with pytest.raises(NoteNotFound):
            vault.get("nothing-answers-to-this")
    assert time.monotonic() - started < 4  # the old pattern: about 25 ms a file and lookup, 200 files, 2 lookups


def test_no_note_matches_says_a_permalink_names_a_note(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {PROTOCOL: PROTOCOL_NOTE})
    with Vault(vault_dir) as vault, pytest.raises(NoteNotFound) as missing:
        vault.get("decisions/black-flag-protocol")
    assert "a unique alias, its permalink (as basic-memory and Obsidian Publish write it)" in str(missing.value)


@pytest.mark.parametrize(("other", "how"), [("memories/standup-notes.md", "its title"), ("Standup.md", "its file name")])
def test_a_write_by_a_name_that_is_one_notes_permalink_and_another_notes_title_or_file_name_is_refused_naming_both(
        vault_dir: Path, write_note, other: str, how: str) -> None:
    team = "team/weekly.md"
    hashing_vault(vault_dir, write_note, {team: "---\npermalink: team/standup\n---\nStandup at 9:45.\n",
                                          other: "---\ntitle: Standup\n---\nStandup notes.\n"})
    before = snapshot_files(vault_dir)
    with Vault(vault_dir) as vault:
        for write in (lambda: vault.forget("standup"), lambda: vault.revise("Standup", append="Moved."),
                      lambda: vault.mark_used(["standup"])):
            with pytest.raises(AmbiguousNote) as refused:
                write()
            assert refused.value.answers == {team: "its permalink", other: how}
        # A read takes the first step (a file name before a permalink, a permalink before a title) and names the other.
        read, named = (other, (team, "permalink")) if how == "its file name" else (team, (other, "title"))
        view = vault.get("standup")
        assert view.path == read
        assert [(found.path, found.by) for found in view.resolved_from.others] == [(named[0], (named[1],))]  # type: ignore[union-attr]
    refused_cli = run_cli(vault_dir, "forget", "standup")
    assert refused_cli.exit_code == 1 and f"{team} (its permalink)" in refused_cli.stderr
    assert snapshot_files(vault_dir) == before


def test_a_permalink_that_is_another_notes_path_leaves_the_path_to_that_note_and_a_read_names_the_other(
        vault_dir: Path, write_note) -> None:
    """Step 1 compares paths exactly: `decisions/x` names the file decisions/x.md, not the note whose
    permalink it is — but that note answers to it too, so a write by it is refused; with `.md` the
    path names one note alone."""
    hashing_vault(vault_dir, write_note, {"decisions/x.md": "The file at the path.\n",
                                          "notes/Imported.md": "---\npermalink: decisions/x\n---\nThe imported note.\n"})
    with Vault(vault_dir) as vault:
        view = vault.get("decisions/x")
        assert view.path == "decisions/x.md"
        assert view.as_dict()["resolved_from"] == {
            "reference": "decisions/x", "via": "path",
            "others": [{"path": "notes/Imported.md", "id": "notes/Imported", "by": ["permalink"]}],
            "notice": "another note answers to 'decisions/x' by its permalink: notes/Imported.md; a write by that name "
                      "is refused: name the note by its path with .md or id"}
        with pytest.raises(AmbiguousNote) as refused:
            vault.forget("decisions/x")
        assert refused.value.answers == {"decisions/x.md": "its path", "notes/Imported.md": "its permalink"}
        assert vault.get("decisions/x.md").resolved_from is None
        assert vault.get("memory://decisions/x").path == "notes/Imported.md"  # not a path: only a permalink
        assert vault.forget("decisions/x.md").path == "decisions/x.md"
        assert vault.get("decisions/x").path == "notes/Imported.md"  # the path is gone: the permalink answers


def test_a_permalink_moves_no_search_result(vault_dir: Path, write_note) -> None:
    """Guard (passes on the old code too, by design): a permalink is a name for NOTE resolution
    only: search gives the note no name match for it (the eval's rankings stay where they were)."""
    hashing_vault(vault_dir, write_note, {PROTOCOL: PROTOCOL_NOTE,
                                          "notes/review.md": "Lanesborough protocol review: two agents, one writer.\n"})
    with Vault(vault_dir) as vault:
        reasons = vault.explain(PROTOCOL, "lanesborough-protocol").reasons
        hits = vault.search("lanesborough-protocol", k=5)
    assert not any(reason.startswith("name match") for reason in reasons)  # its name keys: file name, title, aliases
    assert {hit.path for hit in hits} == {PROTOCOL, "notes/review.md"}


# ------------------------------------------------------------------ a paper answers to its citekey
# adr/0019, 2026-12-01 (citekeys): a reference manager's import gives each paper's note its
# citation key (`citekey: Koszegi2006b`); notes cite it as pandoc does (`[@Koszegi2006b]`), and an
# agent asks for the paper by it. A name of step 4, compared without its @, in any case.

PAPER = "papers/A Model of Reference-Dependent Preferences.md"
PAPER_NOTE = ('---\ncitekey: Koszegi2006b\ntitle: A Model of Reference-Dependent Preferences\n'
              'authors: ["Kőszegi, Botond", "Rabin, Matthew"]\nyear: 2006\n---\n\nThe reference point is '
              'recent rational expectations.\n')
CITING = "projects/chapter-3.md"


@pytest.mark.parametrize("reference", ["Koszegi2006b", "@Koszegi2006b", "[@Koszegi2006b]", "koszegi2006B"])
def test_get_by_a_citekey_with_or_without_its_at_opens_the_paper_and_says_so(
        vault_dir: Path, write_note, reference: str) -> None:
    """Was (a trial with a Zotero-imported vault): `get Koszegi2006b` found nothing but a did-you-mean."""
    hashing_vault(vault_dir, write_note, {PAPER: PAPER_NOTE, CITING: "As argued in [@Koszegi2006b], expectations.\n"})
    with Vault(vault_dir) as vault:
        view = vault.get(reference)
        assert view.path == PAPER
        assert view.as_dict()["resolved_from"] == {"reference": reference, "via": "citekey"}
    shown = run_cli(vault_dir, "get", reference)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[0] == f"({reference!r} resolved through its citekey → {PAPER})"


@pytest.mark.parametrize("key", ["citationKey", "citation-key"])
def test_a_citation_key_under_csls_names_answers_too_and_a_numeric_one(vault_dir: Path, write_note, key: str) -> None:
    hashing_vault(vault_dir, write_note, {"papers/Kahneman.md": f"---\n{key}: Kahneman1979\n---\nProspect theory.\n",
                                          "papers/Lehn.md": "---\ncitekey: 2006\n---\nEinführung in die Statistik.\n"})
    with Vault(vault_dir) as vault:
        assert vault.get("@Kahneman1979").path == "papers/Kahneman.md"
        assert vault.get("2006").path == "papers/Lehn.md"


def test_revise_by_a_citekey_acts_on_the_paper_and_remember_takes_another_file_name(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {PAPER: PAPER_NOTE})
    revised = run_cli(vault_dir, "revise", "@Koszegi2006b", "--append", "Read for chapter 3.", "--json")
    assert revised.exit_code == 0, revised.output
    assert json.loads(revised.stdout)["resolved_from"] == {"reference": "@Koszegi2006b", "via": "citekey"}
    assert (vault_dir / PAPER).read_text(encoding="utf-8").endswith("expectations.\n\nRead for chapter 3.\n")
    with Vault(vault_dir) as vault:
        written = vault.remember("My own summary of the paper.", title="Koszegi2006b", now=NOW)
    assert written.path == "memories/koszegi2006b-2.md"  # a file named koszegi2006b would share the paper's name


def test_a_write_by_a_name_that_is_one_papers_citekey_and_another_notes_title_is_refused_naming_both(
        vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {PAPER: PAPER_NOTE,
                                          "memories/k.md": "---\ntitle: Koszegi2006b\n---\nReading-group notes.\n"})
    before = snapshot_files(vault_dir)
    with Vault(vault_dir) as vault:
        with pytest.raises(AmbiguousNote) as refused:
            vault.forget("Koszegi2006b")
        assert refused.value.answers == {PAPER: "its citekey", "memories/k.md": "its title"}
        view = vault.get("Koszegi2006b")  # a read takes step 4 (the citekey) before step 5 (a title) and names it
        assert view.path == PAPER
        assert [(found.path, found.by) for found in view.resolved_from.others] == [("memories/k.md", ("title",))]  # type: ignore[union-attr]
    assert snapshot_files(vault_dir) == before


def test_no_note_matches_says_a_citekey_names_a_note(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {PAPER: PAPER_NOTE})
    with Vault(vault_dir) as vault, pytest.raises(NoteNotFound) as missing:
        vault.get("Koszegi2007")
    assert "its citekey (with or without @)" in str(missing.value)


def test_a_day_written_as_iso_names_the_daily_note_the_vaults_format_named_for_it(vault_dir: Path, write_note) -> None:
    """Was (a trial on a Logseq graph): `get 2022-05-16` found nothing where the daily note of that
    day is `journals/2022_05_16.md`, or `Journal/16.05.2022.md` under a DD.MM.YYYY format; an
    agent holds a day as ISO writes it."""
    write_note(".obsidian/daily-notes.json", '{"format": "DD.MM.YYYY", "folder": "Journal"}')
    hashing_vault(vault_dir, write_note, {"Journal/16.05.2022.md": "Met Anna at the bakery.\n",
                                          "2022-05-16 Meeting.md": "Budget meeting notes.\n",  # spells the day too
                                          "Journal/17.05.2022.md": "Rain all day.\n"})
    with Vault(vault_dir) as vault:
        view = vault.get("2022-05-16")
        assert view.path == "Journal/16.05.2022.md"  # the daily-note format's note before a name that spells the day
        assert view.as_dict()["resolved_from"] == {"reference": "2022-05-16", "via": "day"}
        with pytest.raises(NoteNotFound):
            vault.get("2022-05-18")  # no note is named for it
        with pytest.raises(NoteNotFound):
            vault.get("2022-02-30")  # no day
    revised = run_cli(vault_dir, "revise", "2022-05-17", "--append", "Bought rye bread.")
    assert revised.exit_code == 0, revised.output
    assert revised.stdout.splitlines()[0] == "('2022-05-17' is the day its name is → Journal/17.05.2022.md)"
    assert (vault_dir / "Journal/17.05.2022.md").read_text(encoding="utf-8") == "Rain all day.\n\nBought rye bread.\n"


def test_a_day_in_isos_basic_format_names_the_daily_note_as_the_day_with_dashes_does(vault_dir: Path, write_note) -> None:
    """Was (stop 37's leftover): `get 20261203` said "no note matches" beside `2026-12-03.md`, though
    a file named `20261203.md` is dated that day and a zettel's `202612031200` reads its first eight
    digits so. Eight digits that are a calendar day are that day (ISO 8601's basic format);
    twelve or fourteen stay a timestamp id, naming the note whose file name begins with them."""
    hashing_vault(vault_dir, write_note, {"Daily/2026-12-03.md": "Dentist at 3.\n",
                                          "Zettel/202612031200 Idea.md": "An idea.\n"})
    with Vault(vault_dir) as vault:
        view = vault.get("20261203")
        assert view.path == "Daily/2026-12-03.md"
        assert view.as_dict()["resolved_from"] == {"reference": "20261203", "via": "day"}
        assert vault.get("202612031200").path == "Zettel/202612031200 Idea.md"
        with pytest.raises(NoteNotFound, match="no daily note for 2026-12-04"):
            vault.get("20261204")
        with pytest.raises(NoteNotFound):
            vault.get("20261232")  # no day
    revised = run_cli(vault_dir, "revise", "20261203", "--append", "Bring the card.")
    assert revised.exit_code == 0, revised.output
    assert (vault_dir / "Daily/2026-12-03.md").read_text(encoding="utf-8") == "Dentist at 3.\n\nBring the card.\n"


def test_a_day_of_a_solar_hijri_year_names_that_calendars_daily_note_when_the_vault_reads_it(
        vault_dir: Path, write_note) -> None:
    """With the Persian Calendar plugin on, `1403-05-12.md` is the daily note of 2024-08-02; the
    day asked in either spelling of that calendar is that day, as its file name is read. Was
    (review, s38): `get 1403-05-13` said no daily note for the year 1403 AD's 13 May."""
    write_note(".obsidian/community-plugins.json", '["persian-calendar"]')
    hashing_vault(vault_dir, write_note, {"روزانه/1403-05-12.md": "Tiles chosen.\n"})
    with Vault(vault_dir) as vault:
        for said in ("14030512", "2024-08-02", "20240802"):
            assert vault.get(said).path == "روزانه/1403-05-12.md", said
        with pytest.raises(NoteNotFound, match="no daily note for 2024-08-03"):
            vault.get("1403-05-13")
        with pytest.raises(NoteNotFound, match="no daily note for 2024-08-03"):
            vault.get("14030513")


def test_a_day_written_as_korean_chinese_and_japanese_write_it_names_the_note_named_for_it(
        vault_dir: Path, write_note) -> None:
    """Was (a trial on a Korean vault): `get 2026년 4월 17일`, `get 2026.04.17` said only "no note
    matches" beside `01-일일-메모/2026-04-17.md`, which `get 2026-04-17` opened; an agent asked in
    Korean passes the day on as the user said it."""
    hashing_vault(vault_dir, write_note, {"01-일일-메모/2026-04-17.md": "서버 정리.\n",
                                          "01-일일-메모/2026-04-17-자동완료체크시스템.md": "모니터링.\n"})
    with Vault(vault_dir) as vault:
        for said in ("2026년 4월 17일", "2026年4月17日", "2026.04.17", "2026. 4. 17.", "2026/4/17"):
            view = vault.get(said)
            assert view.path == "01-일일-메모/2026-04-17.md", said
            assert view.as_dict()["resolved_from"] == {"reference": said, "via": "day"}
        with pytest.raises(NoteNotFound):
            vault.get("2026년 4월 18일")  # no note is named for it
        with pytest.raises(NoteNotFound):
            vault.get("2026년 2월 30일")  # no day
    revised = run_cli(vault_dir, "revise", "2026년 4월 17일", "--append", "금형 교체.")
    assert revised.exit_code == 0, revised.output
    assert (vault_dir / "01-일일-메모/2026-04-17.md").read_text(encoding="utf-8") == "서버 정리.\n\n금형 교체.\n"
    assert (vault_dir / "01-일일-메모/2026-04-17-자동완료체크시스템.md").read_text(encoding="utf-8") == "모니터링.\n"


def test_a_day_two_file_names_are_is_ambiguous_and_a_note_named_by_it_comes_first(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"journals/2022_05_16.md": "- Met Anna\n",
                                          "Daily/May 16th, 2022.md": "Met Anna, wrote it twice.\n",
                                          "journals/2022_05_17.md": "- Rain\n",
                                          "notes/2022-05-17.md": "A note whose file name is the day.\n"})
    with Vault(vault_dir) as vault:
        with pytest.raises(AmbiguousNote) as ambiguous:
            vault.get("2022-05-16")  # no daily-note format: two names are the day, never a guess
        assert sorted(ambiguous.value.candidates) == ["Daily/May 16th, 2022.md", "journals/2022_05_16.md"]
        view = vault.get("2022-05-17")  # a file name is step 2: the day step is never asked
        assert view.path == "notes/2022-05-17.md"
        assert view.resolved_from is None


def test_without_a_daily_note_format_a_name_holding_the_day_and_more_is_not_named_by_the_day(
        vault_dir: Path, write_note) -> None:
    """Was (a review): `revise 2022-05-16 --append` appended to `2022-05-16 Budget meeting.md`,
    the one note whose name held that day, in a vault without daily-note settings."""
    hashing_vault(vault_dir, write_note, {"meetings/2022-05-16 Budget meeting.md": "Budget notes.\n",
                                          "journals/2022_05_17.md": "- Rain\n",
                                          "Monday, May 16th 2022.md": "The day's own note.\n"})
    before = (vault_dir / "meetings/2022-05-16 Budget meeting.md").read_bytes()
    with Vault(vault_dir) as vault:
        assert vault.get("2022-05-16").path == "Monday, May 16th 2022.md"
    (vault_dir / "Monday, May 16th 2022.md").unlink()
    refused = run_cli(vault_dir, "revise", "2022-05-16", "--append", "Late entry.")
    assert refused.exit_code != 0
    assert "no note matches '2022-05-16'" in refused.output
    assert (vault_dir / "meetings/2022-05-16 Budget meeting.md").read_bytes() == before


def test_a_day_with_no_daily_note_in_the_vaults_format_names_no_other_note_named_with_it(vault_dir: Path, write_note) -> None:
    """Found in review: under a daily-note format (DD.MM.YYYY in Journal/), `revise 2022-05-16
    --append` on a day without its daily note appended to `Meetings/2022-05-16 Budget.md`, a note
    the format says is no daily note: a write to a file nobody named."""
    write_note(".obsidian/daily-notes.json", '{"format": "DD.MM.YYYY", "folder": "Journal"}')
    hashing_vault(vault_dir, write_note, {"Journal/17.05.2022.md": "Rain all day.\n",
                                          "Meetings/2022-05-16 Budget.md": "Budget with Bob.\n"})
    refused = run_cli(vault_dir, "revise", "2022-05-16", "--append", "Bought rye bread.")
    assert refused.exit_code != 0, refused.output
    assert "no note matches '2022-05-16'" in refused.output
    assert (vault_dir / "Meetings/2022-05-16 Budget.md").read_text(encoding="utf-8") == "Budget with Bob.\n"
    with Vault(vault_dir) as vault:
        assert vault.get("2022-05-17").path == "Journal/17.05.2022.md"


def test_a_write_to_a_day_without_its_daily_note_says_the_days_note_is_missing_not_that_the_name_is_wrong(
        vault_dir: Path, write_note) -> None:
    # A trial on a public journal: an agent told to add to today's daily note ran `revise
    # 2023-04-12 --append …` and was told only the ways a note can be named, as if it had
    # misspelled the day; nothing said the day's note was simply not there yet.
    write_note(".obsidian/daily-notes.json", '{"folder": "Journal", "template": "Templates/Daily Template"}')
    hashing_vault(vault_dir, write_note, {"Journal/2023-04-11.md": "Missed the school's intro session.\n"})
    refused = run_cli(vault_dir, "revise", "2023-04-12", "--append", "Booked the dentist.")
    assert refused.exit_code != 0, refused.output
    assert ("no note matches '2023-04-12': no daily note for 2023-04-12 is in the vault (under the daily-note "
            "format YYYY-MM-DD in Journal/ (.obsidian/daily-notes.json)); vaultmem makes no daily notes") in refused.output
    assert not (vault_dir / "Journal/2023-04-12.md").exists()
    with Vault(vault_dir) as vault, pytest.raises(NoteNotFound) as missing:
        vault.get("Budget")  # not a day: the message names no daily note
    assert "daily note for" not in str(missing.value)


def test_the_whole_heading_a_note_opens_with_names_it_and_a_part_of_it_is_suggested(vault_dir: Path, write_note) -> None:
    # A trial on a Zettelkasten vault: `get "Interleaving mixes problem types"` failed and named
    # nothing, though 202301161000.md opens with that heading. The whole heading names the note
    # (step 8, adr/0019 "heading"); a part of it is only suggested, and a later ## heading of
    # another note names nothing.
    write_note("202301161000.md", "\n# Interleaving mixes problem types\n\nMixing problem types beats blocking.\n")
    write_note("202301171200.md", "# Spacing\n\n## Interleaving mixes problem types\n\nA later section.\n")
    write_note("Study.md", "Interleaving mixes problem types, says the book.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        by_heading = vault.locate("Interleaving mixes problem types")
        with pytest.raises(NoteNotFound) as by_part:
            vault.get("interleaving")
    assert by_heading.row.path == "202301161000.md"
    assert by_heading.resolved_from == Resolution("Interleaving mixes problem types", "heading")
    assert by_part.value.suggestions == ["202301161000.md"]


def test_a_link_to_a_heading_or_block_says_which_note_it_links_to_and_acts_on_nothing(tmp_path: Path) -> None:
    """Was (a trial on a student's math vault): get "Linear Algebra#Eigenvalues", a heading's
    link as the notes write it, said only "no note matches", beside the very note. A write by a
    link (`Note#Heading`, `Note#^block`, `[[Note#Heading|label]]`, `[[Note]]`) names the note it
    links to and what to give; it is never taken for that note, so no write acts on a whole note
    when a section was meant. get reads the section (test_sections.py); `[[Note]]` stays an error."""
    (tmp_path / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    text = "## Eigenvalues\n\n$A v = \\lambda v$ ^eigen-def\n\n## Determinants\n\nMultiplicative.\n"
    (tmp_path / "Linear Algebra.md").write_text(text, encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        for typed, links_to in [("Linear Algebra#Eigenvalues", "the heading 'Eigenvalues' in Linear Algebra.md"),
                                ("Linear Algebra#^eigen-def", "the block ^eigen-def in Linear Algebra.md"),
                                ("[[Linear Algebra#Eigenvalues|eig]]", "the heading 'Eigenvalues' in Linear Algebra.md"),
                                ("[[Linear Algebra]]", "Linear Algebra.md")]:
            with pytest.raises(NoteNotFound) as caught:
                vault.revise(typed, append="More.")
            assert f"it is a link to {links_to}, and a NOTE names a whole note: give 'Linear Algebra'" in str(caught.value), typed
        with pytest.raises(NoteNotFound) as elsewhere:
            vault.get("Calculus#Limits")  # no note Calculus: answered as any name
        assert "it is a link" not in str(elsewhere.value)
        with pytest.raises(NoteNotFound) as whole_link:
            vault.get("[[Linear Algebra]]")
        assert "it is a link to Linear Algebra.md" in str(whole_link.value)
    for command in (["revise", "Linear Algebra#Eigenvalues", "--append", "More."], ["forget", "Linear Algebra#^eigen-def"]):
        refused = run_cli(tmp_path, *command)
        assert refused.exit_code == 1 and "it is a link to" in refused.stderr, command
    assert (tmp_path / "Linear Algebra.md").read_text(encoding="utf-8") == text



def test_a_link_written_with_windows_backslashes_is_told_for_a_link_to_its_note(tmp_path: Path) -> None:
    """Was: `[[Math\\Linear Algebra]]` (a Windows user's link, which Obsidian there resolves) got a bare
    "no note matches", where `[[Math/Linear Algebra]]` said which note it links to; its section reads."""
    (tmp_path / "Math").mkdir()
    (tmp_path / "Math" / "Linear Algebra.md").write_text("## Eigenvalues\n\nA v = l v.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        with pytest.raises(NoteNotFound) as whole_link:
            vault.get("[[Math\\Linear Algebra]]")
        assert "it is a link to Math/Linear Algebra.md" in str(whole_link.value)
        assert vault.get("[[Math\\Linear Algebra#Eigenvalues|eig]]").body.strip() == "## Eigenvalues\n\nA v = l v."

# ------------------------------------------------------------------ a note answers to its opening heading
# adr/0019, 2026-12-02 (heading): Foam titles a note by its first `# heading`, as do people whose
# file names are slugs or ids; step 8, after every other, compares the reference with the heading
# a note opens with, case folded, and says so (`via: heading`).

FOAM_NOTES = {
    ".foam/templates/new-note.md": "# ${FOAM_TITLE}\n",
    "walking-the-heap.md": "# Walking the Heap\n\nThe collector walks every page of the heap.\n",
    "zettel/202103131641.md": "---\ntags: [habit]\n---\n\n# On habits  #\n\nSmall steps, every day.\n",
    "2024-03-05-standup.md": "Notes first.\n\n# Standup\n\nA heading after prose names nothing.\n",
    "snippets.md": "```\n# Walking the Heap\n```\n",
}


@pytest.mark.parametrize("reference", ["Walking the Heap", "walking the heap", "WALKING THE HEAP"])
def test_get_and_revise_by_the_heading_a_note_opens_with_find_it_and_say_so(vault_dir: Path, write_note,
                                                                            reference: str) -> None:
    """Was (a trial on a Foam workspace): `get "Walking the Heap"` said no note matches and
    suggested walking-the-heap.md, the note Foam shows by that name."""
    hashing_vault(vault_dir, write_note, FOAM_NOTES)
    shown = run_cli(vault_dir, "get", reference)
    assert shown.exit_code == 0, shown.output
    assert f"({reference!r} resolved through its heading → walking-the-heap.md)" in shown.output
    revised = run_cli(vault_dir, "revise", reference, "--append", "Mark, then sweep.", "--json")
    assert revised.exit_code == 0, revised.output
    answer = json.loads(revised.stdout)
    assert answer["path"] == "walking-the-heap.md"
    assert answer["resolved_from"] == {"reference": reference, "via": "heading"}
    assert (vault_dir / "walking-the-heap.md").read_text(encoding="utf-8") == (
        "# Walking the Heap\n\nThe collector walks every page of the heap.\n\nMark, then sweep.\n")
    assert (vault_dir / "snippets.md").read_text(encoding="utf-8") == FOAM_NOTES["snippets.md"]


def test_only_the_level_one_heading_a_body_opens_with_names_a_note(vault_dir: Path, write_note) -> None:
    """Under frontmatter and blank lines, its closing #s left out; not a heading below prose, not
    a line in a code block (that note opens with its fence), not a part of the heading."""
    hashing_vault(vault_dir, write_note, FOAM_NOTES)
    with Vault(vault_dir) as vault:
        assert vault.get("on habits").path == "zettel/202103131641.md"
        explained = vault.explain("On Habits", "small steps")
        assert explained.path == "zettel/202103131641.md" and explained.in_answer
        for reference in ("Standup", "Walking the", "Walking the Heap!"):
            with pytest.raises(NoteNotFound):
                vault.get(reference)


def test_two_notes_opening_with_one_heading_are_ambiguous_and_forget_archives_neither(vault_dir: Path,
                                                                                      write_note) -> None:
    hashing_vault(vault_dir, write_note, {
        "meetings/2024-03-05.md": "# Weekly sync\n\nBudget.\n",
        "meetings/2024-03-12.md": "# weekly SYNC\n\nHiring.\n"})
    before = snapshot_files(vault_dir)
    refused = run_cli(vault_dir, "forget", "Weekly sync")
    assert refused.exit_code != 0
    assert "'Weekly sync' matches 2 notes: meetings/2024-03-05.md, meetings/2024-03-12.md" in refused.output
    with Vault(vault_dir) as vault, pytest.raises(AmbiguousNote) as ambiguous:
        vault.get("weekly sync")
    assert ambiguous.value.candidates == ["meetings/2024-03-05.md", "meetings/2024-03-12.md"]
    assert snapshot_files(vault_dir) == before


def test_a_file_name_or_title_wins_over_another_notes_heading_for_reads_and_writes(vault_dir: Path, write_note) -> None:
    """A heading is the last name asked: a note whose file name or title the reference is opens,
    and the note opening with it is named beside it. A write by that name acts on the note whose
    own name it is: a trip note opening with `# Kyoto` must not refuse every write to Kyoto.md."""
    hashing_vault(vault_dir, write_note, {
        "Kyoto.md": "Temples and gardens.\n",
        "trips/2023-autumn.md": "# Kyoto\n\nThe autumn trip.\n",
        "trips/packing.md": "---\ntitle: Packing list\n---\nSocks.\n",
        "lists/packing.md": "# Packing List\n\nShoes.\n"})
    before = snapshot_files(vault_dir)
    with Vault(vault_dir) as vault:
        by_file_name = vault.locate("Kyoto")
        by_title = vault.locate("packing list")
        assert by_file_name.row.path == "Kyoto.md"
        assert by_file_name.resolved_from is not None and by_file_name.resolved_from.notice() == (
            "another note answers to 'Kyoto' by its heading: trips/2023-autumn.md; a write by that name acts on this "
            "note, whose own name it is, not on a heading")
        assert by_title.row.path == "trips/packing.md"
        assert [(other.path, other.by) for other in by_title.resolved_from.others] == [("lists/packing.md", ("heading",))]
        revised = vault.revise("Kyoto", append="Moss garden at Saiho-ji.")
        assert revised.path == "Kyoto.md"
    after = snapshot_files(vault_dir)
    assert after["Kyoto.md"] != before["Kyoto.md"]
    assert {path: text for path, text in after.items() if path != "Kyoto.md"} == \
        {path: text for path, text in before.items() if path != "Kyoto.md"}


def test_two_notes_named_alike_by_their_owners_still_refuse_a_write_beside_a_heading(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {
        "Kyoto.md": "Temples and gardens.\n",
        "places/kyoto.md": "---\ntitle: Kyoto\n---\nThe city.\n",
        "trips/2023-autumn.md": "# Kyoto\n\nThe autumn trip.\n"})
    before = snapshot_files(vault_dir)
    with Vault(vault_dir) as vault, pytest.raises(AmbiguousNote) as refused:
        vault.forget("Kyoto")
    assert set(refused.value.answers) == {"Kyoto.md", "places/kyoto.md", "trips/2023-autumn.md"}
    assert snapshot_files(vault_dir) == before


def test_a_note_forgotten_by_its_heading_and_asked_for_again_by_it_is_said_to_be_archived(vault_dir: Path,
                                                                                         write_note) -> None:
    hashing_vault(vault_dir, write_note, FOAM_NOTES)
    forgot = run_cli(vault_dir, "forget", "Walking the Heap")
    assert forgot.exit_code == 0, forgot.output
    with Vault(vault_dir) as vault, pytest.raises(ArchivedNote) as archived:
        vault.get("walking the heap")
    assert archived.value.archived == "_archive/walking-the-heap.md"


def test_remember_supersedes_a_memory_named_by_its_heading(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {
        "memories/01J9.md": "---\nlayer: L3\ncreated: 2026-11-01T09:00:00Z\n---\n# Cabin wifi\n\nThe password is pine42.\n"})
    with Vault(vault_dir) as vault:
        written = vault.remember("The cabin wifi password is cedar7.", title="Cabin wifi password", supersedes=["cabin wifi"],
                                 now=NOW)
    old = (vault_dir / "memories/01J9.md").read_text(encoding="utf-8")
    assert f"superseded_by: {written.id}" in old and "expires_at: " in old


def test_an_index_made_before_headings_were_names_learns_them_at_the_next_command(vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, FOAM_NOTES)
    with Vault(vault_dir) as vault:
        vault.index()
    db = sqlite3.connect(vault_dir / ".vaultmem/index.db")
    with db:
        db.execute("DELETE FROM note_names WHERE kind = 'heading'")
        db.execute("UPDATE meta SET value = ? WHERE key = 'reader'", (f"reader-64/{EMBED_RECIPE}",))
    db.close()
    shown = run_cli(vault_dir, "get", "Walking the Heap", "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["path"] == "walking-the-heap.md"


@pytest.mark.slow
def test_get_over_mcp_by_the_heading_a_note_opens_with(vault_dir: Path, write_note, tmp_path: Path) -> None:
    hashing_vault(vault_dir, write_note, FOAM_NOTES)

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            answer = await served.call("get", note="Walking the Heap")
            assert answer["path"] == "walking-the-heap.md"
            assert answer["resolved_from"] == {"reference": "Walking the Heap", "via": "heading"}

    run(scenario)


@pytest.mark.parametrize("reference", ["people\\Priya Raman.md", "people\\Priya Raman", "conversations\\2026-11-26-1on1-priya.md"])
def test_a_path_written_with_windows_backslashes_names_its_note(vault: Vault, reference: str) -> None:
    """Was: "no note matches" for a path copied from Windows Explorer, of a note the vault holds."""
    assert cli_json(vault, "get", reference)["path"] == reference.replace("\\", "/").removesuffix(".md") + ".md"


def test_a_write_by_a_backslash_path_acts_on_that_note(vault: Vault) -> None:
    before = snapshot_files(vault.root)
    result = run_cli(vault.root, "revise", "people\\Priya Raman.md", "--append", "Prefers async updates.")
    assert result.exit_code == 0, result.output
    changed = {path for path, state in snapshot_files(vault.root).items() if before.get(path) != state}
    assert changed == {"people/Priya Raman.md"}


def test_a_backslash_path_to_no_note_still_says_no_note_matches_as_written(vault: Vault) -> None:
    reference = "people\\Nobody.md"
    with pytest.raises(NoteNotFound) as raised:
        vault.get(reference)
    assert str(raised.value).startswith(f"no note matches {reference!r}.")


@pytest.mark.parametrize("reference", ["notes/link.md", "notes/link", "linked/target.md"])
def test_a_path_through_a_symlink_names_the_notes_real_path(vault_dir: Path, write_note, reference: str) -> None:
    # Was: "no note matches 'notes/link.md'" beside the link. A link is still never a note of its
    # own (the scan reads the note at its real path only): the error names that path to use.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("notes/target.md", "---\ntitle: Target\n---\nThe plumber comes on Tuesday.\n")
    (vault_dir / "notes/link.md").symlink_to("target.md")
    (vault_dir / "linked").symlink_to("notes")
    with Vault(vault_dir) as vault:
        assert [note.path for note in vault.list_notes()] == ["notes/target.md"]
        for attempt in (lambda: vault.get(reference), lambda: vault.revise(reference, set_properties={"k": "v"})):
            with pytest.raises(NoteNotFound) as missing:
                attempt()
            assert " is a link to notes/target.md, and vaultmem knows a linked note by its real path only; " \
                   "use notes/target.md" in str(missing.value)
    assert (vault_dir / "notes/target.md").read_text(encoding="utf-8").startswith("---\ntitle: Target\n---\n")


def linked_vault(vault_dir: Path, write_note) -> Path:
    """notes/target.md, and links/link.md: a symlink to it in another folder (as Obsidian lists it, by "link")."""
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("notes/target.md", "---\ntitle: Target\n---\nThe plumber comes on Tuesday.\n")
    (vault_dir / "links").mkdir()
    (vault_dir / "links/link.md").symlink_to("../notes/target.md")
    return vault_dir


@pytest.mark.parametrize("reference", ["link", "Link.md"])
def test_a_symlinked_notes_bare_name_names_the_note_it_links_to(vault_dir: Path, write_note, reference: str) -> None:
    # Was: "no note matches 'link'" while Obsidian lists the link by that name, and its path got
    # "use notes/target.md". The note keeps its one, real path; a write goes to the real file.
    linked_vault(vault_dir, write_note)
    with Vault(vault_dir) as vault:
        got = vault.get(reference)
        assert got.path == "notes/target.md"
        assert got.resolved_from == Resolution(reference, "link")
        revised = vault.revise(reference, set_properties={"k": "v"})
        assert revised.path == "notes/target.md"
    assert (vault_dir / "links/link.md").is_symlink()
    assert (vault_dir / "notes/target.md").read_text(encoding="utf-8") == "---\ntitle: Target\nk: v\n---\nThe plumber comes on Tuesday.\n"
    document = cli_json_at(vault_dir, "get", "link")
    assert document["path"] == "notes/target.md"


@pytest.mark.slow
def test_a_symlinked_notes_bare_name_over_mcp_gets_the_note(vault_dir: Path, write_note, tmp_path: Path) -> None:
    linked_vault(vault_dir, write_note)

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            answer = await served.call("get", note="link")
            assert answer["path"] == "notes/target.md"
            assert "The plumber comes on Tuesday." in answer["body"]

    run(scenario)


def test_a_link_made_after_the_index_names_its_note_at_the_next_read(vault_dir: Path, write_note) -> None:
    # Was: a link made when no note changed was unknown until some note did (the read's walk met
    # it and kept nothing); an index made before links were kept knew none.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("notes/target.md", "---\ntitle: Target\n---\nThe plumber comes on Tuesday.\n")
    assert run_cli(vault_dir, "index").exit_code == 0
    (vault_dir / "links").mkdir()
    (vault_dir / "links/later.md").symlink_to("../notes/target.md")
    assert cli_json_at(vault_dir, "get", "later")["path"] == "notes/target.md"


@pytest.mark.slow
def test_a_link_made_while_the_mcp_server_runs_names_its_note(vault_dir: Path, write_note, tmp_path: Path) -> None:
    # Was (review): the links were kept by a full walk only, and a server's watcher applies the
    # paths that changed: `get later` said "no note matches" until the server started again.
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("notes/target.md", "---\ntitle: Target\n---\nThe plumber comes on Tuesday.\n")
    (vault_dir / "links").mkdir()

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            assert (await served.call("get", note="target"))["path"] == "notes/target.md"
            (vault_dir / "links/later.md").symlink_to("../notes/target.md")
            answer = await served.call("get", note="later")
            assert answer["path"] == "notes/target.md"

    run(scenario)


def test_a_removed_links_name_names_nothing_again(vault_dir: Path, write_note) -> None:
    linked_vault(vault_dir, write_note)
    with Vault(vault_dir) as vault:
        assert vault.get("link").path == "notes/target.md"
        (vault_dir / "links/link.md").unlink()
        with pytest.raises(NoteNotFound, match="no note matches 'link'"):
            vault.get("link")


def test_links_of_one_name_to_two_notes_name_neither_and_say_which(vault_dir: Path, write_note) -> None:
    linked_vault(vault_dir, write_note)
    write_note("notes/other.md", "---\ntitle: Other\n---\nThe roofer comes on Friday.\n")
    (vault_dir / "more").mkdir()
    (vault_dir / "more/link.md").symlink_to("../notes/other.md")
    with Vault(vault_dir) as vault, pytest.raises(NoteNotFound) as missing:
        vault.get("link")
    assert "links named so lead to 2 notes (notes/other.md, notes/target.md); use one's path" in str(missing.value)


def cli_json_at(root: Path, *args: str) -> dict:
    result = run_cli(root, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def linked_out_vault(vault_dir: Path, write_note, tmp_path: Path) -> Path:
    """Outer.md: a symlink to a note outside the vault; ext/: a symlink to a folder outside it."""
    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    write_note("Inner.md", "---\ntitle: Inner\n---\nThe plumber comes on Tuesday.\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Outer.md").write_text("The safe's code is 1234.\n", encoding="utf-8")
    (vault_dir / "Outer.md").symlink_to(outside / "Outer.md")
    (vault_dir / "ext").symlink_to(outside, target_is_directory=True)
    (vault_dir / "refs").mkdir()
    (vault_dir / "refs/Deep.md").symlink_to(outside / "Outer.md")
    return vault_dir


@pytest.mark.parametrize(("reference", "said"), [("Outer", "Outer.md is a symlink to a file outside the vault"),
                                                  ("Outer.md", "Outer.md is a symlink to a file outside the vault"),
                                                  ("ext/Outer", "ext/Outer.md is in ext/, a symlink to a folder outside the vault"),
                                                  ("deep", "refs/Deep.md is a symlink to a file outside the vault")])
def test_get_of_a_symlink_out_of_the_vault_says_it_is_not_read_and_the_fix(vault_dir: Path, write_note, tmp_path: Path,
                                                                           reference: str, said: str) -> None:
    # Was: "no note matches 'Outer'" (or, for Outer.md, to write the path "without symlinks out"),
    # while `check` said why. Nothing outside the vault is read to say it.
    linked_out_vault(vault_dir, write_note, tmp_path)
    with Vault(vault_dir) as vault:
        with pytest.raises(NoteNotFound) as missing:
            vault.get(reference)
    assert str(missing.value).startswith(said + ": vaultmem reads, indexes and changes nothing outside the vault"), missing.value
    assert "Move what the link points to into the vault" in str(missing.value)
    assert "1234" not in str(missing.value)
    explained = run_cli(vault_dir, "explain", reference, "safe code")
    assert explained.exit_code == 1 and said in explained.stderr, explained.output  # was: "not indexed yet … search it again"


@pytest.mark.slow
def test_get_over_mcp_of_a_symlink_out_of_the_vault_says_it_is_not_read(vault_dir: Path, write_note, tmp_path: Path) -> None:
    linked_out_vault(vault_dir, write_note, tmp_path)

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            said = await served.error("get", note="Outer")
            assert "Outer.md is a symlink to a file outside the vault" in said and "1234" not in said, said
            (vault_dir / "refs/Later.md").symlink_to(tmp_path / "outside" / "Outer.md")  # made while it runs
            said = await served.error("get", note="Later")
            assert "refs/Later.md is a symlink to a file outside the vault" in said, said

    run(scenario)


def test_get_of_a_folder_linked_out_of_the_vault_calls_it_a_folder_not_a_file(vault_dir: Path, write_note, tmp_path: Path) -> None:
    # s35 review: `get ext` (ext/ a symlink to a folder outside the vault) said "ext is a symlink to
    # a file outside the vault", while `check` said "symlink to a folder outside the vault".
    linked_out_vault(vault_dir, write_note, tmp_path)
    with Vault(vault_dir) as vault:
        with pytest.raises(NoteNotFound) as missing:
            vault.get("ext")
    assert str(missing.value).startswith("ext is a symlink to a folder outside the vault: "), missing.value


@pytest.mark.parametrize(("reference", "relative", "rule"), [("Outer.md", "Outer.md", "/Outer.md"),
                                                             ("ext/Outer", "ext/Outer.md", "/ext")])
def test_get_of_a_symlink_out_the_person_excluded_as_told_says_the_rule_not_to_exclude_it(
        vault_dir: Path, write_note, tmp_path: Path, reference: str, relative: str, rule: str) -> None:
    # s35 review: the link-out error's fix says to add the link to `exclude`; once it was, `get
    # Outer.md` and `get ext/Outer` still said to add it (`get Outer` said it was excluded).
    linked_out_vault(vault_dir, write_note, tmp_path)
    write_note(".vaultmem.toml", 'embedder = "hashing"\nexclude = ["/Outer.md", "/ext"]\n')
    with Vault(vault_dir) as vault:
        with pytest.raises(ExcludedNote) as excluded:
            vault.get(reference)
    assert str(excluded.value).startswith(f"{relative} is excluded by .vaultmem.toml's exclude '{rule}'"), excluded.value
    assert "add" not in str(excluded.value)


@pytest.mark.parametrize("name", ["meetings/2022-05-16 Maja.md", "health/2022-05-16 PT.md"])
def test_without_a_daily_note_format_a_day_and_a_persons_name_or_pt_is_not_the_days_note(
        vault_dir: Path, write_note, name: str) -> None:
    """Found in review (s41): Polish month and weekday names made `Maja` (May, in the genitive,
    and a given name) and `pt` (Friday, short; physical therapy) calendar words, so without a
    daily-note format `2022-05-16 Maja.md`, a meeting with Maja, was taken for that day's own
    note and `revise 2022-05-16 --append` wrote the day's entry into it. The name's digits give
    the whole day: a month name beside them is a word of its own, a weekday must be that day's."""
    hashing_vault(vault_dir, write_note, {name: "Notes with Maja.\n", "journals/2022_05_17.md": "- Rain\n"})
    before = (vault_dir / name).read_bytes()
    refused = run_cli(vault_dir, "revise", "2022-05-16", "--append", "Late entry.")
    assert refused.exit_code != 0, refused.output
    assert "no note matches '2022-05-16'" in refused.output
    assert (vault_dir / name).read_bytes() == before


def test_without_a_daily_note_format_a_day_in_digits_and_its_own_weekday_is_the_days_note(
        vault_dir: Path, write_note) -> None:
    hashing_vault(vault_dir, write_note, {"journal/2022-05-16 Monday.md": "Rain.\n"})
    with Vault(vault_dir) as vault:
        assert vault.get("2022-05-16").path == "journal/2022-05-16 Monday.md"
