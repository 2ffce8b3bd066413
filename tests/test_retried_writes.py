"""A write sent again is answered again, not made twice (vaultmem/retried_writes.py, adr/0031).

A trial: an agent's `remember` timed out on the client's side, the agent sent it again and
the vault held the memory twice. These tests drive the real server over stdio with the SDK's
client (test_mcp_http.py does the same over HTTP, across a server restart), and the library
for what a client cannot stage: a first call still running, or one that died.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from helpers import run_cli
from mcp_client import Served, note, run, serve
from vaultmem import Vault
from vaultmem.errors import UsageError
from vaultmem.lifecycle import to_epoch_us
from vaultmem.retried_writes import GIVEN, SAME_CALL, RequestPending, fingerprint

pytestmark = pytest.mark.slow

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "server-stderr.log"


def memories(vault: Path) -> list[Path]:
    return sorted(vault.glob("memories/*.md"))


def same_answer(first: dict[str, Any], again: dict[str, Any]) -> bool:
    return {key: value for key, value in again.items() if key not in ("replayed", "notice")} == first


# ------------------------------------------------------------------ with a request_id, over stdio


def test_a_remember_sent_again_with_its_request_id_gets_the_first_answer_and_writes_nothing(vault_dir: Path, log: Path) -> None:
    """Also across a server restart and an `index --rebuild`: the key is kept with the index."""
    arguments = {"text": "Maya's passport number ends in 4471.", "layer": "L3", "tags": ["documents"], "request_id": "4c1e-passport"}
    answers: list[dict[str, Any]] = []

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            answers.append(await served.call("remember", **arguments))
            answers.append(await served.call("remember", **arguments))

    async def after_restart() -> None:
        async with serve(vault_dir, log) as served:
            answers.append(await served.call("remember", **arguments))

    run(scenario)
    assert run_cli(vault_dir, "index", "--rebuild").exit_code == 0
    run(after_restart)
    first, *again = answers
    assert "replayed" not in first and len(memories(vault_dir)) == 1
    for answer in again:
        assert same_answer(first, answer), answer
        assert answer["replayed"]["request_id"] == "4c1e-passport" and answer["replayed"]["first_at"].startswith("20")
        assert answer["notice"].startswith("REPLAYED: the answer to the first call with request_id '4c1e-passport'")


def test_the_same_request_id_with_other_arguments_is_refused_and_writes_nothing(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            await served.call("remember", text="The boiler is serviced on Thursday.", request_id="k-1")
            message = await served.error("remember", text="The boiler is serviced on Friday.", request_id="k-1")
            assert "UsageError: request_id 'k-1' was first sent at" in message and "with other arguments" in message
            assert "give a new write a new request_id" in message
            message = await served.error("mark_used", notes=["memories/x.md"], request_id="k-1")  # another tool
            assert "UsageError: request_id 'k-1'" in message

    run(scenario)
    assert len(memories(vault_dir)) == 1 and "Thursday" in memories(vault_dir)[0].read_text(encoding="utf-8")


def test_a_write_that_failed_leaves_its_request_id_free_for_the_corrected_call(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            message = await served.error("remember", text="Rui lands at 18:05.", layer="L9", request_id="flight")
            assert "UnknownLayer" in message
            saved = await served.call("remember", text="Rui lands at 18:05.", layer="L1", request_id="flight")
            assert "replayed" not in saved

    run(scenario)
    assert len(memories(vault_dir)) == 1


def test_a_revise_append_or_mark_used_retried_with_its_request_id_is_made_once(vault_dir: Path, write_note: Any, log: Path) -> None:
    """append twice added the paragraph twice; mark_used twice counted two uses."""
    write_note("people/rui.md", note("Rui", "Rui is Maya's partner.", layer="L3", id="rui"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            for _ in range(2):
                revised = await served.call("revise", note="people/rui.md", append="He keeps the spare keys.", request_id="r-append")
                used = await served.call("mark_used", notes=["rui"], request_id="r-used")
            assert revised["replayed"]["request_id"] == "r-append" and used["replayed"]["request_id"] == "r-used"
            assert used["used"][0]["use_count"] == 1
            assert (await served.call("get", note="rui"))["use_count"] == 1

    run(scenario)
    assert (vault_dir / "people/rui.md").read_text(encoding="utf-8").count("He keeps the spare keys.") == 1


def test_a_request_id_of_control_characters_or_too_long_is_refused(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            assert "UsageError: request_id 'a\\nb' must be 1 to 200 printable characters" in await served.error(
                "remember", text="x y z", request_id="a\nb")
            assert "request_id" in await served.error("remember", text="x y z", request_id="k" * 201)

    run(scenario)
    assert memories(vault_dir) == []


# ------------------------------------------------------------------ without one: remember only


async def remember_twice(served: Served, **arguments: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return await served.call("remember", **arguments), await served.call("remember", **arguments)


def test_the_same_remember_sent_twice_without_a_request_id_is_stored_once_and_says_so(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first, again = await remember_twice(served, text="The car is on level 3 of the Saldanha garage.", layer="L1")
            assert same_answer(first, again) and again["replayed"]["request_id"] is None
            assert again["notice"].startswith("NOT WRITTEN AGAIN: the same remember (every argument alike)")
            assert "send it with a request_id" in again["notice"]
            assert len(memories(vault_dir)) == 1
            # Any argument different is another write.
            other = await served.call("remember", text="The car is on level 3 of the Saldanha garage.", layer="L2")
            assert "replayed" not in other and len(memories(vault_dir)) == 2
            # A second copy on purpose: with a request_id.
            on_purpose = await served.call("remember", text="The car is on level 3 of the Saldanha garage.", layer="L1",
                                           request_id="second-copy")
            assert "replayed" not in on_purpose and len(memories(vault_dir)) == 3

    run(scenario)


def test_the_same_remember_after_its_note_was_forgotten_is_written_again(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("remember", text="Maya's locker is number 2291.", layer="L3")
            await served.call("forget", note=first["id"])
            again = await served.call("remember", text="Maya's locker is number 2291.", layer="L3")
            assert "replayed" not in again and (vault_dir / again["path"]).is_file()

    run(scenario)
    assert len(memories(vault_dir)) == 1


def test_the_same_revise_append_sent_twice_without_a_request_id_appends_once_and_says_so(
        vault_dir: Path, write_note: Any, log: Path) -> None:
    # An agent's memory export in a real vault (b-hornsby/obsidian-vault, s41) ended with the same
    # "## Leads Log" section 512 times; over MCP, a revise with append sent again after a client
    # timeout appended its paragraph twice, as a retried remember once stored two notes.
    write_note("projects/garage.md", note("Garage flipping", "Charge $500 per garage."))
    section = "## Leads Log\n\nSee leads-log.md for the entries."

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("revise", note="projects/garage.md", append=section)
            again = await served.call("revise", note="projects/garage.md", append=section)
            assert same_answer(first, again) and again["replayed"]["request_id"] is None
            assert again["notice"].startswith("NOT WRITTEN AGAIN: the same revise (every argument alike)")
            assert "send it with a request_id" in again["notice"]
            # The person edits the note meanwhile: the same append is then meant, and made.
            path = vault_dir / "projects/garage.md"
            path.write_text(path.read_text(encoding="utf-8") + "\nBooked the Canton job.\n", encoding="utf-8")
            after_edit = await served.call("revise", note="projects/garage.md", append=section)
            assert "replayed" not in after_edit
            # Any other revise made twice is made twice: it leaves what it leaves once.
            titled = [await served.call("revise", note="projects/garage.md", title="Garage asset recovery") for _ in range(2)]
            assert all("replayed" not in answer for answer in titled)

    run(scenario)
    assert (vault_dir / "projects/garage.md").read_text(encoding="utf-8").count("## Leads Log") == 2


# ------------------------------------------------------------------ the library: what a client cannot stage


def test_a_retry_while_the_first_call_runs_is_told_to_come_back_not_written(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    seen: list[str] = []

    def first_call() -> dict[str, Any]:
        with pytest.raises(RequestPending) as retry:  # the retry arrives while the first is being made
            vault.once("slow", "remember", {"text": "x"}, lambda: {"written": 2}, now=NOW)
        seen.append(str(retry.value))
        return {"written": 1}

    assert vault.once("slow", "remember", {"text": "x"}, first_call, now=NOW) == {"written": 1}
    assert "is still being made; send this call again in a few seconds" in seen[0]
    assert vault.once("slow", "remember", {"text": "x"}, lambda: {"written": 3}, now=NOW)["written"] == 1


def test_a_first_call_that_never_answered_is_said_to_be_unknown_not_made_again(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    with vault.store.transaction():  # what a server killed mid-write leaves
        vault.store.requests.claim(GIVEN + "died", fingerprint("remember", {"text": "x"}), to_epoch_us(NOW))
    with pytest.raises(RequestPending, match=r"never answered .* whether it wrote is unknown\. Look first"):
        vault.once("died", "remember", {"text": "x"}, lambda: {"written": 1}, now=NOW + timedelta(minutes=11))


def test_request_ids_are_forgotten_after_a_week(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    assert vault.once("weekly", "mark_used", {"notes": ["a"]}, lambda: {"n": 1}, now=NOW) == {"n": 1}
    assert vault.once("weekly", "mark_used", {"notes": ["a"]}, lambda: {"n": 2}, now=NOW + timedelta(days=6))["n"] == 1
    assert vault.once("weekly", "mark_used", {"notes": ["a"]}, lambda: {"n": 3}, now=NOW + timedelta(days=8)) == {"n": 3}
    with pytest.raises(UsageError, match=re.escape("request_id 'weekly' was first sent at")):
        vault.once("weekly", "mark_used", {"notes": ["b"]}, lambda: {"n": 4}, now=NOW + timedelta(days=8))


def test_the_same_remember_after_its_note_was_revised_is_written_again(vault_dir: Path, log: Path) -> None:
    """The first note no longer says what the repeat says: answering "stored once" would drop it."""
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("remember", text="Maya's locker is number 2291.", layer="L3")
            await served.call("revise", note=first["id"], text="Maya's locker is number 7730.")
            again = await served.call("remember", text="Maya's locker is number 2291.", layer="L3")
            assert "replayed" not in again and again["path"] != first["path"]
            assert "2291" in (vault_dir / again["path"]).read_text(encoding="utf-8")

    run(scenario)
    assert len(memories(vault_dir)) == 2


def test_answers_kept_for_calls_without_a_request_id_are_forgotten_after_a_week_too(vault_dir: Path) -> None:
    """Each remember without an id keeps its answer under a key made from its arguments: an agent
    that never sends an id still must not grow the table for ever."""
    vault = Vault(vault_dir)
    vault.once(None, "remember", {"text": "old"}, lambda: {"n": 1}, now=NOW)
    assert vault.store.requests.get(SAME_CALL + fingerprint("remember", {"text": "old"})) is not None
    vault.once(None, "remember", {"text": "new"}, lambda: {"n": 2}, now=NOW + timedelta(days=8))
    assert vault.store.requests.get(SAME_CALL + fingerprint("remember", {"text": "old"})) is None
    assert vault.store.requests.get(SAME_CALL + fingerprint("remember", {"text": "new"})) is not None


def test_the_same_revise_append_to_an_expired_note_sent_twice_appends_once(
        vault_dir: Path, write_note: Any, log: Path) -> None:
    # Found in review (s41): the first answer says the note is expired (an append does not renew
    # it), and the retry was matched only to a note still unexpired, so it appended twice.
    write_note("memories/standup.md", "---\nlayer: L1\nexpires_at: 2020-01-01T00:00:00Z\n---\nStandup at 9:30.\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("revise", note="memories/standup.md", append="Moved to 10:00 on Fridays.")
            assert first["expired"]
            again = await served.call("revise", note="memories/standup.md", append="Moved to 10:00 on Fridays.")
            assert again["replayed"]["request_id"] is None
            assert again["notice"].startswith("NOT WRITTEN AGAIN: the same revise (every argument alike)")
            assert "; EXPIRED at 2020-01-01" in again["notice"]  # and still told the note is expired

    run(scenario)
    assert (vault_dir / "memories/standup.md").read_text(encoding="utf-8").count("Moved to 10:00") == 1
