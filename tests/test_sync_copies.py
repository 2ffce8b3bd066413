"""sync_copies: the names sync tools give the copies of a note they could not merge, and what
``check``, ``get`` and ``search`` say about such a copy beside its original."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import NOW, run_cli
from mcp_client import run, serve

from vaultmem import AmbiguousNote, NoteNotFound, Vault
from vaultmem.dating import note_date
from vaultmem.embedders import HashingEmbedder
from vaultmem.sync_copies import SyncCopy, is_copy_among, named_copy, original_name, originals_first


@pytest.mark.parametrize("copy", [
    "prefs/Coffee order (conflicted copy 2024-05-01).md",  # Dropbox, Nextcloud
    "prefs/Coffee order (Maya's conflicted copy 2024-05-01).md",  # Dropbox, another user's device
    "prefs/Coffee order (Maya's conflicted copy 2024-05-01 (1)).md",  # Dropbox, the second one that day
    "prefs/Coffee order (Conflicted copy Laptop 202405011234).md",  # Obsidian Sync
    "prefs/Coffee order.sync-conflict-20240501-123456-ABCDEFG.md",  # Syncthing
    "prefs/Coffee order 2.md",  # iCloud, Finder
    "prefs/Coffee order (1).md",  # Google Drive
    "prefs/Coffee order-DESKTOP-7K2QF9M.md",  # OneDrive's "keep both": the computer's default name
    "prefs/Coffee order-LAPTOP-4F1A9C2B.md",
])
def test_a_sync_tools_copy_names_the_note_beside_it_as_its_original(copy: str) -> None:
    assert original_name(copy) == "prefs/Coffee order.md"
    assert is_copy_among(copy, {copy, "prefs/Coffee order.md"})


def test_a_name_with_a_dash_and_capitals_is_no_onedrive_copy_unless_a_computer_s_default_name() -> None:
    assert original_name("Project-ALPHA.md") is None and original_name("Notes-DESKTOP-SETUP.md") is None
    assert original_name("Climbing gym-DESKTOP-7K2QF9M.md") == "Climbing gym.md"


def test_a_numbered_name_is_a_copy_only_when_its_original_is_among_the_notes() -> None:
    assert not is_copy_among("book/Chapter 2.md", {"book/Chapter 2.md", "book/Chapter 3.md"})
    assert not is_copy_among("other/Coffee order 2.md", {"other/Coffee order 2.md", "prefs/Coffee order.md"})
    assert original_name("prefs/Coffee order.md") is None


@pytest.mark.parametrize(("copy", "tool"), [
    ("Coffee order (conflicted copy 2024-05-01).md", "Dropbox, Nextcloud or Obsidian Sync"),
    ("Coffee order.sync-conflict-20240501-123456-ABCDEFG.md", "Syncthing"),
    ("Coffee order 2.md", "iCloud or Obsidian's Duplicate file"),  # was "iCloud" alone: Obsidian names its duplicate so
    ("Coffee order (1).md", "Google Drive"),
    ("Coffee order-DESKTOP-7K2QF9M.md", "OneDrive"),
])
def test_a_copys_name_says_which_sync_tool_made_it(copy: str, tool: str) -> None:
    assert named_copy(copy) == SyncCopy(copy, "Coffee order.md", tool)
    assert named_copy(copy).describe() == f"looks like a copy {tool} made of Coffee order.md"  # type: ignore[union-attr]


# ------------------------------------------------------------ what the person is told

ORIGINAL = "---\ntitle: Coffee order\nlayer: L4\n---\nMaya's coffee order: flat white with oat milk, single shot after 15:00.\n"
EDITED = "---\ntitle: Coffee order\nlayer: L4\n---\nMaya's coffee order: flat white with oat milk, double shot before noon.\n"
SYNCTHING_COPY = "prefs/coffee-order.sync-conflict-20240501-123456-ABCDEFG.md"


@pytest.fixture
def synced(vault_dir: Path, write_note: Callable[..., Path]) -> Path:
    """A vault where Syncthing left a copy of a note both devices changed."""
    write_note("prefs/coffee-order.md", ORIGINAL)  # named by its title, as an agent's notes are
    write_note(SYNCTHING_COPY, EDITED)
    return vault_dir


def test_check_reports_a_sync_copy_beside_its_original_with_what_to_do(synced: Path) -> None:
    report = Vault(synced).check(now=NOW)
    assert [(problem.path, problem.field) for problem in report.problems] == [(SYNCTHING_COPY, "copy")]
    problem = report.problems[0]
    assert problem.message == "looks like a copy Syncthing made of coffee-order.md when both changed"
    # Both devices changed it (single shot / double shot): consolidate keeps the two apart, so
    # the fix names the note to keep the text in, and not consolidate.
    assert problem.fix == ("compare it with coffee-order.md, keep the right text in coffee-order.md (the note links "
                           "and vaultmem's writes go to), then delete this copy")
    assert not report.ok


def test_check_says_a_copy_holding_its_originals_id_once_as_a_copy_and_never_as_a_second_id(
        vault_dir: Path, write_note: Callable[..., Path]) -> None:
    # A trial: each conflict copy of a memory (which holds the memory's id, as it holds its text)
    # gave three problems: the copy, and "id is also used by" on both files, whose fix — give each
    # note its own id — would have made the stale version a memory of its own.
    memory = "---\nid: 01JD8X5K4M2N7P9Q3R6S8T0V1W\nlayer: L4\n---\n"
    write_note("memories/staging-port.md", memory + "Staging Postgres listens on port 6543 (moved from 5433)\n")
    write_note("memories/staging-port.sync-conflict-20261201-101010-ABCDEF7.md", memory + "Staging Postgres listens on port 5433\n")
    write_note("memories/other.md", memory + "Another memory that took the same id by hand\n")
    report = Vault(vault_dir).check(now=NOW)
    assert sorted((problem.path, problem.field, problem.message) for problem in report.problems) == [
        ("memories/other.md", "id", "id '01JD8X5K4M2N7P9Q3R6S8T0V1W' is also used by memories/staging-port.md"),
        ("memories/staging-port.md", "id", "id '01JD8X5K4M2N7P9Q3R6S8T0V1W' is also used by memories/other.md"),
        ("memories/staging-port.sync-conflict-20261201-101010-ABCDEF7.md", "copy",
         "looks like a copy Syncthing made of staging-port.md when both changed"),
    ]


def test_check_says_an_identical_copy_can_simply_go_and_a_personal_notes_merge_needs_any_note(
        vault_dir: Path, write_note: Callable[..., Path]) -> None:
    write_note("Notes/Japan Trip.md", "Kyoto in April\n")
    write_note("Notes/Japan Trip 2.md", "Kyoto in April\n")
    write_note("Daily/2023-09-12.md", "Met Steph\n")
    write_note("Daily/2023-09-12 (conflicted copy 2024-05-01).md", "Met Steph about the harbor\n")
    fixes = {problem.path: problem.fix for problem in Vault(vault_dir).check(now=NOW).problems}
    assert fixes == {
        "Notes/Japan Trip 2.md": "it holds the same bytes as Japan Trip.md: delete it",
        "Daily/2023-09-12 (conflicted copy 2024-05-01).md": "compare them, keep what you want in one, delete the "
                                                            "other — Vault.consolidate(any_note=True) can merge them",
    }


def test_check_takes_a_numbered_name_without_its_original_for_a_note(vault_dir: Path, write_note: Callable[..., Path]) -> None:
    write_note("book/Chapter 2.md", "The harbor at dawn\n")
    write_note("book/Chapter 3.md", "The harbor at dusk\n")
    write_note("other/Coffee order (1).md", "oat milk\n")
    write_note("prefs/Coffee order.md", "oat milk\n")  # another folder: not the copy's original
    report = Vault(vault_dir).check(now=NOW)
    assert report.problems == []


def test_get_by_a_title_a_copy_shares_says_which_candidate_is_the_copy(synced: Path) -> None:
    with Vault(synced, embedder=HashingEmbedder()) as vault:
        vault.index()
        with pytest.raises(AmbiguousNote) as raised:
            vault.get("Coffee order")
    assert raised.value.sync_copies == {SYNCTHING_COPY: "looks like a copy Syncthing made of coffee-order.md"}
    assert (f"({SYNCTHING_COPY} looks like a copy Syncthing made of coffee-order.md: keep what you want in one, "
            "delete the other; Vault.check() says how)") in str(raised.value)


def test_an_ambiguous_title_names_no_copy_when_no_candidate_is_one(vault_dir: Path, write_note: Callable[..., Path]) -> None:
    write_note("book/Chapter 2.md", "---\ntitle: Harbor\n---\nat dawn\n")
    write_note("book/Chapter 3.md", "---\ntitle: Harbor\n---\nat dusk\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        with pytest.raises(AmbiguousNote) as raised:
            vault.get("Harbor")
    assert raised.value.sync_copies == {}
    assert "copy" not in str(raised.value)


def test_a_search_hit_on_a_sync_copy_says_so(synced: Path) -> None:
    with Vault(synced, embedder=HashingEmbedder()) as vault:
        vault.index()
        hits = {hit.path: hit for hit in vault.search("Maya's coffee order", k=5, now=NOW)}
    assert set(hits) == {"prefs/coffee-order.md", SYNCTHING_COPY}
    assert hits[SYNCTHING_COPY].warnings == ["copy: looks like a copy Syncthing made of coffee-order.md "
                                             "(Vault.check() says what to do)"]
    assert hits["prefs/coffee-order.md"].warnings == []


def test_a_sync_copy_that_matches_the_query_better_is_placed_under_its_original_and_scored_no_higher(
        synced: Path) -> None:
    # A trial: the Syncthing copy held the old port and ranked first, above the revised memory,
    # by the words of its long name and a tie on the text; an agent took the old port.
    with Vault(synced, embedder=HashingEmbedder()) as vault:
        vault.index()
        hits = vault.search("Maya's coffee order: double shot before noon", k=5, now=NOW)
    assert [hit.path for hit in hits][:2] == ["prefs/coffee-order.md", SYNCTHING_COPY]
    assert hits[1].score <= hits[0].score


@pytest.mark.parametrize("copy", [
    "memories/staging-port (Jane's conflicted copy 2026-12-01).md",
    "memories/staging-port.sync-conflict-20261201-101010-ABCDEF7.md",
])
def test_a_conflict_copy_is_dated_as_its_original_not_by_the_day_of_the_clash(copy: str) -> None:
    # A trial: a copy of a memory written on the 2nd was listed under the 1st, the day in its name.
    meta = {"title": "Staging port", "layer": "L3", "created": "2026-12-02T02:05:35+00:00"}
    dated = note_date(meta, copy)
    assert dated is not None and dated.moment.date().isoformat() == "2026-12-02"
    assert note_date({}, "Daily/2026-11-24 (conflicted copy 2026-12-01).md").moment.date().isoformat() == "2026-11-24"  # type: ignore[union-attr]
    assert note_date({}, "Diary 2026-11-24 2.md").moment.date().isoformat() == "2026-11-24"  # type: ignore[union-attr]


def test_forget_names_the_sync_copies_it_leaves_which_would_answer_in_the_notes_place(
        synced: Path, write_note: Callable[..., Path]) -> None:
    # A trial: after `forget` of a memory, its Dropbox copy (the old text, the same id) was the
    # first hit for the question, with no warning left on it, and check said nothing.
    (synced / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")  # the CLI's, below
    write_note("prefs/coffee-order 2.md", "Beans from the market on Saturdays, a different note.\n")
    with Vault(synced) as vault:
        vault.index()
        forgotten = vault.forget("prefs/coffee-order.md")
    assert forgotten.copies_left == [SYNCTHING_COPY]
    assert forgotten.as_dict()["copies_left"] == [SYNCTHING_COPY]
    write_note("prefs/tea.md", "Maya drinks green tea after lunch.\n")
    write_note("prefs/tea (conflicted copy 2026-12-01).md", "Maya drinks black tea after lunch.\n")
    printed = run_cli(synced, "forget", "prefs/tea.md")
    assert printed.exit_code == 0, printed.output
    assert ("! left prefs/tea (conflicted copy 2026-12-01).md: a sync tool's copy of it, with its text as another "
            "device had it; forget it too, or it answers in its place") in printed.stderr.splitlines()


def test_originals_first_keeps_a_copy_without_its_original_where_it_ranked() -> None:
    ranked = ["a.md", "b (conflicted copy 2024-05-01).md", "c.md", "b.md", "c.sync-conflict-20240501-123456-ABCDEFG.md",
              "d (conflicted copy 2024-05-01).md", "b (conflicted copy 2024-05-01) 2.md"]
    assert originals_first(ranked, lambda path: path) == [
        "a.md", "c.md", "c.sync-conflict-20240501-123456-ABCDEFG.md", "b.md", "b (conflicted copy 2024-05-01).md",
        "b (conflicted copy 2024-05-01) 2.md", "d (conflicted copy 2024-05-01).md"]


def test_a_numbered_note_of_its_own_text_beside_its_namesake_is_no_sync_copy(vault_dir: Path,
                                                                           write_note: Callable[..., Path]) -> None:
    # Obsidian names a new note "Untitled 1.md" beside "Untitled.md", and people number a series
    # ("Sprint 2.md" beside "Sprint.md"): check failed, told the person to delete one of the two,
    # and every hit on one warned it was iCloud's copy. A number alone says little; the text does.
    write_note("Sprint.md", "Goals of the sprint process and who runs the review.\n")
    write_note("Sprint 2.md", "Sprint two: ship the importer before the holidays.\n")
    write_note("Untitled.md", "Call the plumber about the boiler.\n")
    write_note("Untitled 1.md", "Buy oat milk and coffee beans.\n")
    write_note("prefs/Coffee order.md", "Maya's coffee order: flat white with oat milk, single shot after 15:00.\n")
    write_note("prefs/Coffee order 2.md", "Maya's coffee order: flat white with oat milk, double shot before noon.\n")
    report = Vault(vault_dir).check(now=NOW)
    assert [(problem.path, problem.field) for problem in report.problems] == [("prefs/Coffee order 2.md", "copy")]
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        hits = {hit.path: hit.warnings for hit in vault.search("ship the importer", k=10, now=NOW)}
        assert hits["Sprint 2.md"] == []
        coffee = {hit.path: hit.warnings for hit in vault.search("Maya's coffee order", k=10, now=NOW)}
        assert coffee["prefs/Coffee order 2.md"] == ["copy: looks like a copy iCloud or Obsidian's Duplicate file made of Coffee order.md "
                                                    "(Vault.check() says what to do)"]


# ------------------------------------------------------------ an id a copy shares (adr/0035, 2026-12-02)

MEMORY_ID = "01JD8X5K4M2N7P9Q3R6S8T0V1W"
STAGING = f"---\nid: {MEMORY_ID}\ntitle: Staging port\nlayer: L4\n---\n"
STAGING_NOW = STAGING + "Staging Postgres listens on port 6543 (moved from 5433).\n"
STAGING_OLD = STAGING + "Staging Postgres listens on port 5433.\n"


@pytest.mark.parametrize("copy", [
    "memories/staging-port.sync-conflict-20261201-101010-ABCDEF7.md",  # Syncthing
    "memories/staging-port (conflicted copy 2026-12-01).md",  # Dropbox
    "memories/staging-port (Conflicted copy Laptop 202612011010).md",  # Obsidian Sync
    "memories/staging-port-DESKTOP-7K2QF9M.md",  # OneDrive
    "memories/staging-port 2.md",  # iCloud: a number, counted as its text is a version of the original's
])
def test_a_write_and_a_read_by_an_id_a_sync_copy_shares_act_on_the_original_and_name_the_copy(
        vault_dir: Path, write_note: Callable[..., Path], copy: str) -> None:
    """Was: get, revise and forget by the id were refused as ambiguous (the error named the copy),
    and the memory the agent held by its id was out of reach until the person deleted the copy."""
    original = write_note("memories/staging-port.md", STAGING_NOW)
    copied = write_note(copy, STAGING_OLD)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        view = vault.get(MEMORY_ID)
        revised = vault.revise(MEMORY_ID, append="Checked on 2 December.", now=NOW)
        forgotten = vault.forget(MEMORY_ID)
    assert view.path == revised.path == forgotten.path == "memories/staging-port.md"
    for found in (view.resolved_from, revised.resolved_from, forgotten.resolved_from):
        assert found is not None and found.as_dict()["copies"] == [copy]
        assert f"{copy} (looks like a copy " in found.notice() and "acts on this note, the original" in found.notice()
    assert forgotten.copies_left == [copy]
    assert not original.exists() and copied.read_text(encoding="utf-8") == STAGING_OLD  # the copy as it was


def test_an_id_held_by_a_copy_and_a_note_of_its_own_stays_ambiguous(vault_dir: Path,
                                                                    write_note: Callable[..., Path]) -> None:
    write_note("memories/staging-port.md", STAGING_NOW)
    write_note("memories/staging-port.sync-conflict-20261201-101010-ABCDEF7.md", STAGING_OLD)
    write_note("memories/other.md", STAGING + "Another memory that took the same id by hand.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        with pytest.raises(AmbiguousNote):
            vault.revise(MEMORY_ID, append="Which one?", now=NOW)


def test_a_numbered_note_sharing_an_id_but_not_the_text_is_no_copy_and_the_id_stays_ambiguous(
        vault_dir: Path, write_note: Callable[..., Path]) -> None:
    write_note("memories/staging-port.md", STAGING_NOW)
    write_note("memories/staging-port 2.md", STAGING + "Lunch menu for the offsite: soup, bread and cheese on Friday.\n")
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        with pytest.raises(AmbiguousNote):
            vault.get(MEMORY_ID)


def test_once_the_original_is_gone_a_write_by_its_id_refuses_the_copy_and_a_read_says_what_it_is(
        vault_dir: Path, write_note: Callable[..., Path], tmp_path: Path) -> None:
    """The copy holds another device's (older) version: a write by the id must not land in it as
    if it were the note, whether the index saw the original go or not."""
    copy = "memories/staging-port.sync-conflict-20261201-101010-ABCDEF7.md"
    original = write_note("memories/staging-port.md", STAGING_NOW)
    copied = write_note(copy, STAGING_OLD)
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
    original.unlink()  # by hand, the index not told
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    refused = run_cli(vault_dir, "revise", MEMORY_ID, "--append", "Checked.")
    assert refused.exit_code == 1, refused.output
    assert f"the one note holding that id is {copy}" in refused.stderr and "rename it to memories/staging-port.md" in refused.stderr
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        view = vault.get(MEMORY_ID)
        with pytest.raises(NoteNotFound, match="a write by the id"):
            vault.forget(MEMORY_ID)
        by_path = vault.revise(copy, append="Kept.", now=NOW)  # by its path it is written, knowingly
    assert view.path == copy and view.resolved_from is not None
    assert view.resolved_from.as_dict()["copy_of"] == "memories/staging-port.md"
    assert by_path.path == copy and copied.read_text(encoding="utf-8") == STAGING_OLD + "\nKept.\n"


def test_mcp_revise_by_an_id_a_copy_shares_writes_the_original_and_names_the_copy(
        vault_dir: Path, write_note: Callable[..., Path], tmp_path: Path) -> None:
    copy = "memories/staging-port (conflicted copy 2026-12-01).md"
    original = write_note("memories/staging-port.md", STAGING_NOW)
    write_note(copy, STAGING_OLD)
    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, tmp_path / "server.log") as served:
            shown = await served.call("get", note=MEMORY_ID)
            assert shown["path"] == "memories/staging-port.md" and f"{copy} (looks like a copy" in shown["notice"]
            revised = await served.call("revise", note=MEMORY_ID, append="Checked.")
            assert revised["path"] == "memories/staging-port.md" and revised["resolved_from"]["copies"] == [copy]

    run(scenario)
    assert original.read_text(encoding="utf-8") == STAGING_NOW + "\nChecked.\n"
