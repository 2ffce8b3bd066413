"""A process whose watcher is still on its first index answers reads from the notes indexed so
far and says so; over MCP, writes and get wait for it and tell the client as progress.

A trial with a 2,223-note vault: the MCP server's first call waited 24–40 s, the whole first
index, with progress only in the server's log. Here vaults of a few thousand generated notes
(the hashing embedder keeps each first index to a few seconds) are served to the SDK's real
stdio client (adr/0021 "While the index is being built").
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Progress, Served, run, serve
from vaultmem import Vault
from vaultmem.index_progress import IndexBuilding

NOTES = 5000  # a first index of several seconds here (hashing embedder), however loaded the machine
WORDS = ("alpha beta gamma delta harbor river stone plumber dentist meeting travel budget garden "
         "kitchen window paper lantern orchard").split()
BUILDING = re.compile(r"the index of .+ is being built \(([\d,]+) of ([\d,]+) notes read so far\): results may be "
                      r"incomplete, and a note not read yet is missing from them — ask again (in ~\d+ s|in a few seconds)")

pytestmark = pytest.mark.slow


def big_vault(vault: Path, count: int = NOTES) -> None:
    """``count`` notes of the person's (no layer: no expiry to lint), never indexed."""
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    for number in range(count):
        rng = random.Random(number)
        body = " ".join(rng.choice(WORDS) for _ in range(150))
        (vault / f"note-{number:05d}.md").write_text(f"---\ntitle: Note {number}\n---\n{body}\n", encoding="utf-8")


def building_warning(warnings: list[str], total: int = NOTES) -> int:
    """The one warning that says the index is being built; how many notes it says are in."""
    said = [match for warning in warnings if (match := BUILDING.fullmatch(warning))]
    assert len(said) == 1, warnings
    done, todo = (int(group.replace(",", "")) for group in said[0].groups()[:2])
    assert todo == total and 0 <= done < total, warnings
    return done


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "server.log"


# ------------------------------------------------------------------ the words (pure)


def test_the_warning_names_how_far_the_index_is_and_when_to_ask_again() -> None:
    building = IndexBuilding("/v", todo=2223, done=1200, total=2223, seconds=12.0)
    assert str(building) == ("the index of /v is being built (1,200 of 2,223 notes read so far): results may be "
                             "incomplete, and a note not read yet is missing from them — ask again in ~11 s")
    assert building.waiting("this call") == ("the index of /v is being built (1,200 of 2,223 notes read so far); "
                                             "this call waits for it, about 11 s more")


def test_a_catch_up_on_restart_is_said_as_changed_notes_and_a_listing_without_a_pace() -> None:
    catching_up = IndexBuilding("/v", todo=600, done=0, total=2223, seconds=3.0)
    assert "being brought in line with the files (0 of 600 changed notes (of 2,223) read so far)" in str(catching_up)
    assert str(catching_up).endswith("ask again in a few seconds")  # no chunk in yet: no pace to go by
    listing = IndexBuilding("/v", todo=None, done=0, total=None, seconds=0.5)
    assert "(listing its files)" in str(listing) and listing.seconds_left() is None


def test_once_every_note_is_read_the_warning_no_longer_says_one_is_missing() -> None:
    finishing = IndexBuilding("/v", todo=2223, done=2223, total=2223, seconds=20.0)
    assert str(finishing) == ("the index of /v is being built (all 2,223 notes read, the last written): results may be "
                              "incomplete — ask again in ~1 s")


# ------------------------------------------------------------------ the library


def test_a_search_while_the_watcher_builds_the_first_index_answers_from_the_notes_so_far_and_says_so(vault_dir: Path) -> None:
    """Was: the search indexed every note itself, on its own thread beside the watcher's, and
    answered only then — a read as slow as the whole first index, twice the work."""
    big_vault(vault_dir)  # ten chunks: the reads below land while it is still reading, however loaded the machine
    with Vault(vault_dir) as vault:
        watcher = vault.watch(quiet=True, start=False)
        watcher.start(wait=False)
        try:
            while (building := watcher.building()) is not None and building.done == 0:
                time.sleep(0.01)  # its files listed and a first chunk in: the words name a count
            hits = vault.search("plumber dentist", k=5)
            listing = vault.list_notes(k=5)
            assert watcher.building() is not None, "the index was built before the reads: make the vault bigger"
            building_warning(hits.warnings)
            building_warning(listing.warnings)
            assert watcher.ready.wait(120) and watcher.error is None
            assert watcher.building() is None
            assert vault.search("plumber dentist", k=5).warnings == []  # built: whole answers, no warning
        finally:
            watcher.stop()


# ------------------------------------------------------------------ over MCP


def test_reads_during_the_first_index_answer_at_once_from_the_notes_so_far_with_a_warning(vault_dir: Path, log: Path) -> None:
    """Was: recall, list_notes, explain and check each waited for the whole first index, and the
    client saw nothing meanwhile. Now the reads answer within a second from the notes indexed so
    far, and every such answer says so in warnings (none looks complete); check reads the files
    and answers whole; once the index is built the warning is gone."""
    big_vault(vault_dir)
    answers: dict[str, dict[str, Any]] = {}

    async def ask(served: Served, tool: str, **arguments: Any) -> None:
        answers[tool] = await served.call(tool, **arguments)

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            async with anyio.create_task_group() as calls:
                calls.start_soon(lambda: ask(served, "recall", query="plumber dentist", k=5))
                calls.start_soon(lambda: ask(served, "list_notes", k=5))
                calls.start_soon(lambda: ask(served, "explain", note=f"note-{NOTES - 1:05d}.md", query="plumber"))
                calls.start_soon(lambda: ask(served, "check"))
            still = await served.call("recall", query="harbor", k=1)
            assert still["warnings"], ("no warning: the reads waited for the whole first index "
                                       "(or it was built before they came: make the vault bigger)")
            for _ in range(600):  # at most 60 s
                if not (after := await served.call("recall", query="plumber dentist", k=5))["warnings"]:
                    break
                await anyio.sleep(0.1)
            assert after["warnings"] == [] and len(after["hits"]) == 5, after

    run(scenario)
    building_warning(answers["recall"]["warnings"])
    building_warning(answers["list_notes"]["warnings"])
    assert answers["list_notes"]["more"] < NOTES - 5  # the count of the notes in so far, which the warning says
    explained = answers["explain"]
    building_warning(explained["warnings"])
    assert explained["in_answer"] is False and any(
        "not indexed yet" in reason and "the index being built now has not reached it" in reason for reason in explained["reasons"]), explained
    assert answers["check"]["files"] == NOTES and answers["check"]["ok"], answers["check"]  # whole: it reads the files


def test_an_explain_of_a_name_no_note_read_so_far_answers_to_says_the_index_is_being_built(vault_dir: Path, log: Path) -> None:
    """A title only a note not read yet has: "no note matches" would be wrong, and is not said alone."""
    big_vault(vault_dir)

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            message = await served.error("explain", note=f"Note {NOTES - 1}", query="plumber")
            assert (f"NotIndexedYet: no note matches 'Note {NOTES - 1}': no note read so far answers "
                    "to it, but the index of ") in message, message
            assert "is being built (" in message and "ask again in" in message, message

    run(scenario)


def test_a_write_and_a_get_during_the_first_index_wait_for_it_and_tell_the_client_as_progress(vault_dir: Path, log: Path) -> None:
    """Was: a write (and get) waited for the whole first index in silence: a client could time out
    and send it again, or the user take the agent for hung. It still waits — it resolves names,
    supersedes, similar notes and same_name from the index, which a partial one would answer
    wrongly — but the call hears how far the index is every two seconds, as progress."""
    big_vault(vault_dir)
    heard: list[Progress] = []
    heard_by_get: list[Progress] = []
    answers: dict[str, dict[str, Any]] = {}

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            async with anyio.create_task_group() as calls:
                async def remember() -> None:
                    answers["remember"] = await served.call("remember", progress=heard, text="The plumber comes on Friday.",
                                                            title=f"Note {NOTES - 1}", layer="L2")

                async def get() -> None:
                    answers["get"] = await served.call("get", progress=heard_by_get, note=f"Note {NOTES - 2}")

                calls.start_soon(remember)
                calls.start_soon(get)

    run(scenario)
    assert len(heard) >= 2, heard  # at once, then every two seconds while it waits
    assert all(each.message and each.message.startswith("the index of ") and "this call waits for it" in each.message
               for each in heard), heard
    assert any(re.search(rf"\([\d,]+ of {NOTES:,} notes read so far\)", each.message or "") for each in heard), heard
    assert all(earlier.progress < later.progress for earlier, later in zip(heard, heard[1:], strict=False)), heard
    assert all(each.total is None or each.total > each.progress for each in heard), heard  # never "done" while waiting
    # It waited for every note: the note read last, which has this title too, is named.
    assert answers["remember"]["same_name"] == [{"id": f"note-{NOTES - 1:05d}", "path": f"note-{NOTES - 1:05d}.md"}], answers
    assert heard_by_get and answers["get"]["path"] == f"note-{NOTES - 2:05d}.md", (heard_by_get, answers["get"])
