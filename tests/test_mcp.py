"""`vaultmem mcp`: the SDK's own stdio client against a real server subprocess.

Each test starts `python -m vaultmem --vault VAULT mcp`, talks MCP to it with
``mcp.client.stdio.stdio_client`` + ``ClientSession`` and checks what an agent sees:
the tools and their descriptions, the write/read round trip, hand edits picked up by
the watcher, expiry, and tool errors that name the problem while the server keeps going.
Sync tests drive the async client with ``anyio.run`` (no pytest async plugin needed).
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client

from helpers import REPO, git, hold_commit_lock, init_repo, run_cli, snapshot_files, vaultmem_process, write_vault
from vaultmem import parse_timestamp
from mcp_client import CALL_SECONDS, STARTUP_SECONDS, TOOLS, Progress, Served, note, run, serve, server_parameters, text_of

HIT_FIELDS = {"id", "path", "title", "snippet", "layer", "expires_at", "score", "warnings"}
WATCH_SECONDS = 20  # the watcher debounces; poll for at most this long

pytestmark = pytest.mark.slow


# ------------------------------------------------------------------ harness


async def poll_recall(served: Served, query: str, accept: Callable[[dict[str, Any]], bool], **options: Any) -> list[dict[str, Any]]:
    """Recall until a hit satisfies ``accept`` (the watcher debounces); the last hits."""
    deadline = time.monotonic() + WATCH_SECONDS
    while True:
        hits = (await served.call("recall", query=query, **options))["hits"]
        if any(accept(hit) for hit in hits) or time.monotonic() > deadline:
            return hits
        await anyio.sleep(0.25)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "server-stderr.log"


# ------------------------------------------------------------------ tools and descriptions


def test_tools_are_listed_with_descriptions_an_agent_can_act_on(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert set(listed) == TOOLS
            helped = run_cli(vault_dir, "mcp", "--help").stdout.replace("\n", " ")
            assert all(re.search(rf"\b{name}\b", helped) for name in TOOLS), helped  # revise and explain were left out
            for tool in listed.values():
                assert tool.description and len(tool.description) > 120, tool.name
                assert tool.annotations is not None and tool.annotations.open_world_hint is False
            for layer_words in ("L1 working", "1d", "L2 episodic", "L3 semantic", "90d", "L4 procedural", "never expires"):
                assert layer_words in listed["remember"].description
            assert "the layers and their lifetimes: remember" in (listed["recall"].description or "")  # said once (the budget below)
            assert "hidden" in listed["recall"].description and "expired" in listed["recall"].description
            # A household trial: "Sam is allergic to peanuts" was remembered without a layer, as L2, and left
            # recall a week later; the agent is told what the default costs and where such facts go.
            assert "without one a memory is L2" in listed["remember"].description
            assert "allergies and health facts, birthdays" in listed["remember"].description
            assert "Dry run by default" in listed["consolidate"].description
            remember_schema = listed["remember"].input_schema
            assert remember_schema["required"] == ["text"]
            assert {"text", "title", "layer", "tags", "ttl", "expires_at", "permanent", "folder"} <= set(remember_schema["properties"])
            assert set(listed["recall"].input_schema["properties"]) == {"query", "k", "layers", "tags", "include_expired", "since", "until"}
            assert listed["mark_used"].input_schema["properties"]["notes"]["type"] == "array"
            assert {name for name, tool in listed.items() if tool.annotations.read_only_hint} == {"recall", "list_notes", "list_tasks", "explain", "get", "check"}
            assert {name for name, tool in listed.items() if tool.annotations.destructive_hint} == {"revise", "forget", "consolidate", "expire"}
            assert set(listed["revise"].input_schema["properties"]) == {
                "note", "text", "append", "title", "layer", "ttl", "expires_at", "permanent", "add_tags", "remove_tags", "if_version", "set_properties",
                "unset_properties", "date", "request_id"}
            assert "supersedes" in remember_schema["properties"]
            assert "WriteConflict" in listed["revise"].description and "if_version" in listed["revise"].description
            # The schema says what the server enforces: no argument outside the listed ones.
            assert all(tool.input_schema.get("additionalProperties") is False for tool in listed.values())
            assert "refused in this vault" in listed["forget"].description  # hard delete: not allowed by default
            # The README's table of arguments is the served one (a new user found none listed).
            documented = readme_tool_arguments()
            summarised = readme_tools_table()  # the README's short table, beside docs/mcp.md's full one
            for name, tool in listed.items():
                served_arguments = {key + ("" if key in tool.input_schema.get("required", []) else "?")
                                    for key in tool.input_schema["properties"]}
                assert documented.get(name) == served_arguments, (name, documented.get(name), served_arguments)
                assert summarised.get(name) == served_arguments, (name, summarised.get(name), served_arguments)
            assert set(summarised) == set(listed)

    run(scenario)


def test_remember_and_revise_tell_the_agent_what_lands_in_file_names(vault_dir: Path, log: Path) -> None:
    # A three-week agent trial: told "the wifi password is tidepool-4471", the agent remembered it
    # as it was. Nothing had said that the title becomes the file name and, with auto_commit, the
    # commit message, nor that forget only archives — the password stayed in git's history.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            told = (listed["remember"].description or "").replace("\n", " ")
            assert "Never store a secret" in told and "password" in told
            # The same trial: revise retitled "Boss: Priya" as "Boss: Dana", and the person's file list
            # still showed boss-priya-natarajan.md; the agent is told when to supersede instead.
            assert "its file name too" in (listed["revise"].description or "") and "supersedes" in (listed["revise"].description or "")
            assert "where forget cannot reach" in told and "remember where it is kept instead" in told

    run(scenario)


def test_a_long_argument_description_is_said_once_in_the_tool_list(vault_dir: Path, log: Path) -> None:
    # A three-week agent trial: the tool list, read into the agent's context every session, was
    # 50 KB — the forms of a note's name (1,000 characters) under six arguments and the forms of a
    # date bound (500) under ten. Each is said once now; the other arguments point to it.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            tools = (await served.session.list_tools()).tools
            seen: dict[str, list[str]] = {}

            def collect(where: str, schema: object) -> None:
                if isinstance(schema, dict):
                    for key, value in schema.items():
                        if key == "description" and isinstance(value, str) and len(value) > 400:
                            seen.setdefault(value, []).append(where)
                        collect(f"{where}.{key}", value)
                elif isinstance(schema, list):
                    for item in schema:
                        collect(where, item)

            for tool in tools:
                collect(tool.name, tool.input_schema)
            assert seen and {text[:60]: places for text, places in seen.items() if len(places) > 1} == {}
            listed = {tool.name: tool for tool in tools}
            assert "citekey" in listed["get"].input_schema["properties"]["note"]["description"]
            assert "get's note argument" in listed["forget"].input_schema["properties"]["note"]["description"]
            assert "next month" in json.dumps(listed["recall"].input_schema["properties"]["since"])
            # The layers and their lifetimes (430 characters): in the instructions and remember's
            # description; recall's third copy was taken out for the s35 secrets and forget words.
            assert [tool.name for tool in tools if "Layers (a layer's default expiry" in (tool.description or "")] == ["remember"]
            total = sum(len(json.dumps(tool.model_dump(by_alias=True, exclude_none=True), ensure_ascii=False)) for tool in tools)
            assert total < 44_000, total

    run(scenario)


def test_the_readmes_client_configs_serve_as_written_from_a_desktop_apps_folder(tmp_path: Path) -> None:
    """A new user's first hour: the README's Claude Desktop JSON and Claude Code line, run as
    written with this machine's paths in place of /Users/maya's, by an app that starts the
    server in a folder of its own (``/``) with a bare PATH. The Claude Code line was once a bare
    ``vaultmem``, found only while the venv was active."""
    import shlex

    from mcp import StdioServerParameters

    readme = (REPO / "README.md").read_text(encoding="utf-8").split("## Your own vault and your agent", 1)[1]
    block = readme.split("**Claude Desktop**", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]
    entry = json.loads(block)["mcpServers"]["vaultmem"]
    line = re.search(r"^claude mcp add -s user vaultmem -- (.+)$", readme, re.MULTILINE)
    assert line is not None
    claude = shlex.split(line.group(1))
    # The Claude Code line is run in the clone, where "$PWD" is the clone (/Users/maya/vaultmem in the JSON).
    assert claude[0] == "$PWD/.venv/bin/vaultmem", claude  # "$PWD" is the clone only where the README says to run it:
    assert "run this in the clone" in readme
    assert Path(entry["command"]).is_absolute() and claude[0].replace("$PWD", "/Users/maya/vaultmem") == entry["command"]
    assert entry["args"] == ["--vault", "/Users/maya/Notes", "mcp"] and claude[1:] == ["--vault", "~/Notes", "mcp"]
    vault = write_vault(tmp_path / "Notes", {".vaultmem.toml": 'embedder = "hashing"\n',
                                             "Daily/2026-11-30.md": "Dentist moved my cleaning to Thursday at 4:15pm.\n"})
    installed = Path(sys.executable).parent / "vaultmem"
    parameters = StdioServerParameters(command=str(installed), args=[str(vault) if arg.endswith("/Notes") else arg for arg in entry["args"]],
                                       env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(REPO)}, cwd="/")

    async def scenario() -> None:
        with (tmp_path / "server.log").open("w", encoding="utf-8") as errlog:
            async with stdio_client(parameters, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                with anyio.fail_after(STARTUP_SECONDS):
                    await session.initialize()
                with anyio.fail_after(CALL_SECONDS):
                    found = await session.call_tool("recall", {"query": "dentist", "k": 1})
                assert not found.is_error, text_of(found)
                assert [hit["path"] for hit in json.loads(text_of(found))["hits"]] == ["Daily/2026-11-30.md"]

    run(scenario)


def test_the_readme_names_every_served_tool_in_its_tools_line() -> None:
    # The README audit: list_notes was served and in the arguments table, but the line a
    # reader skims ("Tools: remember, revise, recall, explain, …") left it out.
    readme = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")
    line = readme.split("\nTools: ", 1)[1].split("Their arguments", 1)[0]
    named = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", line)))
    assert named == TOOLS


# The failing calls of the README's transcript, by the line it shows each under.
README_FAILING_CALLS = {
    '>>> remember(text="…", layer="L5")': ("remember", {"text": "…", "layer": "L5"}),
    '>>> recall(query="coffee", layer="L3")': ("recall", {"query": "coffee", "layer": "L3"}),
    '>>> forget(note="preferences/oat-milk.md", hard=true)': ("forget", {"note": "preferences/oat-milk.md", "hard": True}),
    '>>> get(note="../../etc/passwd")': ("get", {"note": "../../etc/passwd"}),
}


def test_the_readmes_agent_transcript_shows_the_instructions_and_errors_as_served(sample_vault: Path, log: Path) -> None:
    """The README audit (s34): "What an agent sees" showed instructions without their tasks
    clause and their paragraph on failed calls, and a PathOutsideVault sentence the server no
    longer says. Its instructions and error texts are compared as served (white space aside;
    the transcript's vault is /tmp/mcp_demo/vault)."""
    readme = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")
    transcript = readme.split(">>> initialize: instructions\n", 1)[1].split("\n```", 1)[0]
    said = {chunk.split("\n", 1)[0]: chunk.split("\n", 1)[1] for chunk in ("\n" + transcript).split("\n\n>>> ")[1:]}
    said = {">>> " + line: text for line, text in said.items()}

    def spoken(text: str) -> str:
        return " ".join(text.replace("/tmp/mcp_demo/vault", str(sample_vault)).split())

    async def scenario() -> None:
        with log.open("w", encoding="utf-8") as errlog:
            async with stdio_client(server_parameters(sample_vault), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    with anyio.fail_after(STARTUP_SECONDS):
                        started = await session.initialize()
                    assert spoken(transcript.split("\n\n", 1)[0]) == spoken(started.instructions or "")
                    for line, (tool, arguments) in README_FAILING_CALLS.items():
                        with anyio.fail_after(CALL_SECONDS):
                            result = await session.call_tool(tool, arguments)
                        assert result.is_error, line
                        assert spoken(said[line]) == spoken("isError: true — " + text_of(result)), line

    run(scenario)


def readme_tool_arguments() -> dict[str, set[str]]:
    """The README's MCP table: tool → its arguments (``x?``: optional), ``recall``'s options expanded."""
    table = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8").split("| tool | arguments |\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
    found: dict[str, set[str]] = {}
    for row in table.splitlines():
        names_cell, arguments_cell = row.strip("|").split("|", 1)
        names = re.findall(r"`(\w+)`", names_cell)
        groups = [re.findall(r"`(\w+\??)`", part) for part in arguments_cell.split(" / ")] if len(names) > 1 else [
            re.findall(r"`(\w+\??)`", arguments_cell.split(" — ")[0])]
        for name, arguments in zip(names, groups, strict=True):
            found[name] = set(arguments)
    found["explain"] = {argument for argument in found["explain"] if argument != "recall"} | (found["recall"] - {"query"})
    return found


def readme_tools_table() -> dict[str, set[str]]:
    """The README's short MCP table (tool | what it does | arguments): tool → its arguments, as above."""
    header = "| tool | what it does | arguments (`?`: optional) |\n|---|---|---|\n"
    table = (REPO / "README.md").read_text(encoding="utf-8").split(header, 1)[1].split("\n\n", 1)[0]
    found: dict[str, set[str]] = {}
    for row in table.splitlines():
        name_cell, _, arguments_cell = row.strip("|").split("|")
        (name,) = re.findall(r"`(\w+)`", name_cell)
        found[name] = set(re.findall(r"`(\w+\??)`", arguments_cell))
    found["explain"] = {argument for argument in found["explain"] if argument != "recall"} | (found["recall"] - {"query"})
    return found


def test_server_instructions_say_what_a_failed_call_looks_like_and_a_failed_call_looks_so(vault_dir: Path, log: Path) -> None:
    """Was (s31, the tools read as an agent would): neither the instructions nor a tool's
    description said how a failure comes back, or whether it changed anything."""
    (vault_dir / "note.md").write_text("---\nlayer: L3\n---\nThe harbor standup is at 9:45.\n", encoding="utf-8")

    async def scenario() -> None:
        params = server_parameters(vault_dir)
        with log.open("w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    with anyio.fail_after(STARTUP_SECONDS):
                        initialized = await session.initialize()
                    with anyio.fail_after(CALL_SECONDS):
                        failed = await session.call_tool("mark_used", {"notes": ["note", "no-such-note"]})
                        used = await session.call_tool("get", {"note": "note"})
        said = initialized.instructions or ""
        assert "isError: true" in said and "NoteNotFound: …" in said and "changed nothing, unless its error is NoteWritten" in said
        assert failed.is_error and text_of(failed).split(": ")[1] == "NoteNotFound"  # "Error executing tool mark_used: NoteNotFound: …"
        assert used.structured_content is not None and used.structured_content["use_count"] == 0

    run(scenario)


def test_server_instructions_explain_the_memory_model(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        params = server_parameters(vault_dir)
        with log.open("w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    with anyio.fail_after(STARTUP_SECONDS):
                        initialized = await session.initialize()
        assert initialized.server_info.name == "vaultmem"
        assert "recall" in initialized.instructions and "mark_used" in initialized.instructions
        assert "hidden from recall" in initialized.instructions

    run(scenario)


# ------------------------------------------------------------------ round trip


def test_get_carries_the_aliases_and_the_persons_properties(vault_dir: Path, log: Path) -> None:
    # The CLI's `get` shows them (a trial: they were in the JSON only); an agent gets the same.
    (vault_dir / "people").mkdir()
    (vault_dir / "people" / "dad.md").write_text(
        "---\ntype: person\naliases: Dad, Father\nbirthday: 1961-04-02\n---\n# Dad\n", encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            shown = await served.call("get", note="Father")
            assert shown["aliases"] == ["Dad", "Father"]  # as Obsidian reads the comma-separated string
            assert list(shown["meta"].items()) == [("type", "person"), ("aliases", "Dad, Father"), ("birthday", "1961-04-02")]
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "aliases" in (listed["get"].description or "")

    run(scenario)


def test_remember_over_stdio_names_the_line_of_your_note_that_already_says_it(vault_dir: Path, log: Path) -> None:
    # A trial: the daily note held the fact, the agent remembered it again over MCP, `similar: []`.
    (vault_dir / "daily").mkdir()
    day = "# 2026-11-28\n\nWent climbing with Priya. She says the new bouldering wall opens in January.\n"
    (vault_dir / "daily" / "2026-11-28.md").write_text(day, encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            saved = await served.call("remember", text="Priya says the new bouldering wall at the gym opens in January",
                                      layer="L3")
            [entry] = saved["similar"]
            assert (entry["path"], entry["yours"], entry["layer"], entry["lines"]) == ("daily/2026-11-28.md", True, None, [3, 3])
            assert entry["says"] == "Went climbing with Priya. She says the new bouldering wall opens in January."
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "yours" in (listed["remember"].description or "")  # the agent is told what such an entry is

    run(scenario)
    assert (vault_dir / "daily" / "2026-11-28.md").read_text(encoding="utf-8") == day


def test_remember_recall_mark_used_get_forget_round_trip(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            saved = await served.call(
                "remember", text="Maya's dentist appointment is on 9 December at 10:30 with Dr. Sousa.",
                title="Dentist appointment", layer="episodic", tags=["health", "#calendar"])
            assert saved["layer"] == "L2" and saved["title"] == "Dentist appointment"
            assert saved["path"] == "memories/dentist-appointment.md" and saved["expires_at"]
            assert saved["tags"] == ["health", "calendar"]
            assert (vault_dir / saved["path"]).is_file()
            again = await served.call(
                "remember", text="Maya's dentist appointment is on 9 December at 10:30 with Dr. Sousa.", layer="L2")
            assert [other["path"] for other in again["similar"]] == [saved["path"]]  # told it repeats a memory
            assert again["similar"][0]["layer"] == "L2"  # so the agent can tell which lifetime each copy has
            # Its title was made from the text: a new text makes it anew, and the agent is told.
            moved = await served.call("revise", note=again["id"], text="Maya's dentist moved to 11 December at 09:00.")
            assert moved["title"] == "Maya's dentist moved to 11 December at 09:00." and moved["previous_title"] == again["title"]
            await served.call("forget", note=again["id"])

            recalled = await served.call("recall", query="when is the dentist appointment", k=3)
            hits = recalled["hits"]
            assert recalled["warnings"] == []  # the answer as a whole is complete
            assert hits[0]["id"] == saved["id"] and hits[0]["path"] == saved["path"]
            assert HIT_FIELDS <= set(hits[0]) and "Dr. Sousa" in hits[0]["snippet"]

            assert (await served.call("mark_used", notes=[saved["id"]]))["used"][0]["use_count"] == 1
            used = (await served.call("mark_used", notes=[saved["path"]]))["used"]
            assert used == [{"id": saved["id"], "path": saved["path"], "use_count": 2, "last_used_at": used[0]["last_used_at"],
                             "resolved_from": None}]

            shown = await served.call("get", note=saved["id"])
            assert shown["use_count"] == 2 and shown["expired"] is False and "notice" not in shown
            assert shown["body"].strip() == "Maya's dentist appointment is on 9 December at 10:30 with Dr. Sousa."

            forgotten = await served.call("forget", note=saved["id"])
            assert forgotten["archived_to"] == "_archive/memories/dentist-appointment.md"
            assert not (vault_dir / saved["path"]).exists() and (vault_dir / forgotten["archived_to"]).is_file()
            hits = (await served.call("recall", query="dentist appointment"))["hits"]
            assert saved["id"] not in [hit["id"] for hit in hits]
            assert f"{saved['id']!r} was archived: it is _archive/memories/dentist-appointment.md now" in await served.error(
                "get", note=saved["id"])

            permanent = await served.call("remember", text="Maya takes her coffee with oat milk.", layer="L4")
            assert permanent["expires_at"] is None and permanent["layer"] == "L4"

            # Everything above travelled as JSON-RPC on stdout: nothing else reached the client.
            assert [message for message in served.transport_messages if isinstance(message, Exception)] == []
        assert "reconciled" in log.read_text(encoding="utf-8")

    run(scenario)


def test_notes_on_disk_before_start_are_recalled_on_the_first_call(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    write_note("projects/harbor.md", note("Harbor", "Harbor loads the warehouse every morning at 06:00.", layer="L3"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            hits = (await served.call("recall", query="when does Harbor load the warehouse"))["hits"]
            assert [hit["path"] for hit in hits] == ["projects/harbor.md"]

    run(scenario)


def test_concurrent_calls_are_all_answered(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            saved: list[dict[str, Any]] = []
            recalled: list[list[dict[str, Any]]] = []

            async def remember(number: int) -> None:
                saved.append(await served.call("remember", text=f"Errand number {number}: buy stamps.", layer="L1"))

            async def recall() -> None:
                recalled.append((await served.call("recall", query="errand stamps"))["hits"])

            async with anyio.create_task_group() as group:
                for number in range(8):
                    group.start_soon(remember, number)
                    group.start_soon(recall)
            assert len({entry["path"] for entry in saved}) == 8 and len(recalled) == 8
            hits = (await served.call("recall", query="errand stamps", k=20))["hits"]
            assert {hit["id"] for hit in hits} == {entry["id"] for entry in saved}

    run(scenario)


# ------------------------------------------------------------------ hand edits while serving


def test_a_note_edited_by_hand_is_recalled_with_its_new_text(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    path = write_note("preferences/coffee.md", note("Coffee order", "Maya orders a flat white with oat milk.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            hits = (await served.call("recall", query="coffee order"))["hits"]
            assert hits[0]["path"] == "preferences/coffee.md" and "flat white" in hits[0]["snippet"]

            path.write_text(note("Coffee order", "Maya switched to a cortado with almond milk.", layer="L4"), encoding="utf-8")
            hits = await poll_recall(served, "cortado almond", lambda hit: "cortado" in hit["snippet"])
            assert hits[0]["path"] == "preferences/coffee.md" and "cortado with almond milk" in hits[0]["snippet"]
            assert "flat white" not in hits[0]["snippet"]

            write_note("people/rui.md", note("Rui", "Rui is Maya's partner; he keeps the spare keys.", layer="L3"))
            hits = await poll_recall(served, "who keeps the spare keys", lambda hit: hit["path"] == "people/rui.md")
            assert "people/rui.md" in [hit["path"] for hit in hits]

    run(scenario)


def test_recall_answers_from_the_files_before_the_watcher_has_applied_a_hand_edit(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """The server's watcher waits a minute before applying an edit; recall must not (adr/0021)."""
    (vault_dir / ".vaultmem.toml").write_text("[watch]\ndebounce_ms = 60000\n", encoding="utf-8")
    standup = write_note("work/standup.md", note("Harbor standup", "The Harbor standup is at 9:30.", layer="L3", expires_at="2999-01-01"))
    badge = write_note("work/badge.md", note("Harbor badge", "The Harbor standup room needs badge 4471.", layer="L3", expires_at="2999-01-01"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            hits = (await served.call("recall", query="Harbor standup"))["hits"]
            assert {hit["path"] for hit in hits} == {"work/standup.md", "work/badge.md"}

            standup.write_text(note("Harbor standup moved", "The Harbor standup moved to 9:45.", layer="L2", expires_at="2998-01-01"), encoding="utf-8")
            badge.write_text(note("Harbor badge", "The Harbor standup room needs badge 4471.", layer="L3", expires_at="2020-01-01"), encoding="utf-8")
            hits = (await served.call("recall", query="Harbor standup"))["hits"]  # at once: no polling
            assert [hit["path"] for hit in hits] == ["work/standup.md"]
            hit = hits[0]
            assert (hit["title"], hit["layer"], hit["expires_at"]) == ("Harbor standup moved", "L2", "2998-01-01T00:00:00+00:00")
            assert "9:45" in hit["snippet"]

    run(scenario)


# ------------------------------------------------------------------ expiry


def test_expired_notes_are_not_recalled_unless_asked(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    write_note("scratch/flight.md", note("Flight to Berlin", "Gate B22, seat 14C, flight TP558 to Berlin.", layer="L1", expires_at="2020-01-01"))
    write_note("travel/next-flight.md", note("Flight to Porto", "Gate A3, seat 2A, flight TP1940 to Porto.", layer="L2", expires_at="2999-01-01T00:00:00Z"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            hits = (await served.call("recall", query="flight gate seat"))["hits"]
            assert [hit["path"] for hit in hits] == ["travel/next-flight.md"]

            hits = (await served.call("recall", query="flight gate seat", include_expired=True))["hits"]
            by_path = {hit["path"]: hit for hit in hits}
            assert set(by_path) == {"scratch/flight.md", "travel/next-flight.md"}
            assert by_path["scratch/flight.md"]["expired"] is True and by_path["travel/next-flight.md"]["expired"] is False

            shown = await served.call("get", note="scratch/flight")
            assert shown["expired"] is True and shown["notice"].startswith("EXPIRED at 2020-01-01")
            assert "revise it with a later ttl or expires_at" in shown["notice"]  # a note moved back from the archive

            listed = await served.call("expire")
            assert [entry["path"] for entry in listed["expired"]] == ["scratch/flight.md"] and listed["applied"] is False
            assert (vault_dir / "scratch/flight.md").is_file()
            applied = await served.call("expire", apply=True)
            assert applied["applied"] is True and applied["expired"][0]["archived_to"] == "_archive/scratch/flight.md"
            assert not (vault_dir / "scratch/flight.md").exists()


    run(scenario)


def test_an_agent_is_told_that_expire_apply_ends_recall_of_superseded_facts(vault_dir: Path, log: Path) -> None:
    # Found in a four-week agent trial: the agent superseded Dana's address, ran expire(apply=true)
    # as the tool said ("they are already hidden from recall; this tidies the vault"), and every
    # later "what was her old address" came back empty, include_expired=true or not. The
    # descriptions now say so where the agent decides; the scenario proves what they say.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            expire_told = (listed["expire"].description or "").replace("\n", " ")
            assert "include_expired=true included" in expire_told and "supersedes" in expire_told
            assert "questions about the past" in expire_told
            for tool in ("recall", "list_notes"):
                assert "not archived" in listed[tool].input_schema["properties"]["include_expired"]["description"], tool
            assert "only while they are still in the vault" in (listed["recall"].description or "")

            old = await served.call("remember", text="Dana lives at Rua das Flores 14, Lisbon.", title="Dana's address", layer="L3")
            await served.call("remember", text="Dana moved to Calle Mayor 22, Madrid.", title="Dana's address", layer="L3",
                              supersedes=[old["id"]])
            past = (await served.call("recall", query="Dana old address Lisbon", include_expired=True))["hits"]
            assert old["path"] in [hit["path"] for hit in past]  # the past answers while the note is in the vault
            applied = await served.call("expire", apply=True)
            assert [entry["path"] for entry in applied["expired"]] == [old["path"]]
            past = (await served.call("recall", query="Dana old address Lisbon", include_expired=True))["hits"]
            assert old["path"] not in [hit["path"] for hit in past]
            assert all("Rua das Flores" not in hit["snippet"] for hit in past)  # as the descriptions now say

    run(scenario)


def test_a_superseded_fact_recalled_for_the_past_names_the_note_that_replaced_it(vault_dir: Path, log: Path) -> None:
    # Found in a three-week agent trial: asked "where did she live before" (include_expired),
    # the old city ranked first, its only warning "expired at …"; which hit held the current
    # fact was the agent's guess. The old hit now names its successor, in recall and list_notes.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed_tools = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "which note superseded it" in (listed_tools["recall"].description or "")
            old = await served.call("remember", text="Maya lives in San Francisco, in the Mission.", title="Maya's city", layer="L3")
            new = await served.call("remember", text="Maya moved to Portland, Oregon.", title="Maya's home", supersedes=[old["path"]])
            past = (await served.call("recall", query="where did Maya live before", include_expired=True))["hits"]
            retired = next(hit for hit in past if hit["path"] == old["path"])
            assert retired["expired"] is True
            assert f"superseded by {new['id']} ({new['path']})" in retired["warnings"], retired["warnings"]
            current = next(hit for hit in past if hit["path"] == new["path"])
            assert not any("superseded" in warning for warning in current["warnings"])
            listed = (await served.call("list_notes", include_expired=True))["notes"]
            assert f"superseded by {new['id']} ({new['path']})" in next(
                entry for entry in listed if entry["path"] == old["path"])["warnings"]

    run(scenario)


def test_a_date_the_person_moves_past_the_expiry_by_hand_is_warned_of_in_recall(vault_dir: Path, log: Path) -> None:
    # A three-week agent trial: the person moved the dentist's date by hand in the editor; the
    # expires_at remember had counted from the old day stayed, and the memory was due to leave
    # recall before the appointment. The agent now reads why in the hit, while there is time.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            day = datetime.now(UTC).date()
            early, late = day.replace(year=day.year + 1, month=1, day=5), day.replace(year=day.year + 1, month=1, day=25)
            saved = await served.call("remember", text="Dentist appointment (Dr. Alvarez) at 10:00.", title="Dentist",
                                      layer="L2", date=early.isoformat())
            path = vault_dir / saved["path"]
            path.write_text(path.read_text(encoding="utf-8").replace(f"date: {early}", f"date: {late}"), encoding="utf-8")
            hits = await poll_recall(served, "dentist appointment", lambda hit: bool(hit["warnings"]))
            hit = next(hit for hit in hits if hit["path"] == saved["path"])
            assert any(f"is before the day the note is about (date {late})" in warning for warning in hit["warnings"]), hit
            problems = (await served.call("check"))["problems"]
            assert [problem["path"] for problem in problems if problem["field"] == "expires_at"] == [saved["path"]]

    run(scenario)


def test_an_agent_reads_a_superseded_fact_after_expire_archived_it(vault_dir: Path, log: Path) -> None:
    # The same trial: after expire(apply=true) nothing an agent had reached Dana's old address —
    # get(old id) opened the new note, get(_archive/...) said no note matches. Now the old id
    # names the archived file, get reads it read-only, and every write to it is refused.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "archived=true" in (listed["get"].description or "")
            assert "get still reads one by its path" in (listed["expire"].description or "").replace("\n", " ")

            old = await served.call("remember", text="Dana lives at Rua das Flores 14, Lisbon.", title="Dana's address", layer="L3")
            new = await served.call("remember", text="Dana moved to Calle Mayor 22, Madrid.", title="Dana's address", layer="L3",
                                    supersedes=[old["id"]])
            applied = await served.call("expire", apply=True)
            archived_to = applied["expired"][0]["archived_to"]
            assert archived_to == f"_archive/{old['path']}"
            before = (vault_dir / archived_to).read_bytes()

            by_old_id = await served.call("get", note=old["id"])
            assert by_old_id["path"] == new["path"] and by_old_id["archived"] is False
            assert by_old_id["resolved_from"]["archived"] == archived_to
            assert f"that note was archived and is {archived_to} now; get reads it by that path" in by_old_id["notice"]

            shown = await served.call("get", note=by_old_id["resolved_from"]["archived"])
            assert (shown["archived"], shown["id"], shown["path"]) == (True, old["id"], archived_to)
            assert shown["body"] == "Dana lives at Rua das Flores 14, Lisbon.\n"
            assert shown["notice"].startswith(f"ARCHIVED: {archived_to} is in the archive folder")
            assert "EXPIRED" not in shown["notice"] and shown["superseded_by"]["path"] == new["path"]

            for tool, arguments in (("revise", {"note": archived_to, "append": "Flat 2B"}), ("forget", {"note": archived_to}),
                                    ("mark_used", {"notes": [archived_to]})):
                refused = await served.error(tool, **arguments)
                assert f"{archived_to!r} is an archived file" in refused and "the get tool reads it" in refused, tool
            # Its old path answers as its old id does (s38): the newer fact, naming where the old one is.
            by_old_path = await served.call("get", note=old["path"])
            assert by_old_path["path"] == new["path"] and by_old_path["resolved_from"]["archived"] == archived_to
            assert f"that note was archived and is {archived_to} now; get reads it by that path" in by_old_path["notice"]
            assert (vault_dir / archived_to).read_bytes() == before
            assert "outside the vault" in await served.error("get", note="_archive/../../etc/passwd")
            past = (await served.call("recall", query="Dana old address Lisbon", include_expired=True))["hits"]
            assert all(not hit["path"].startswith("_archive/") for hit in past)  # read, never indexed

    run(scenario)


def test_recall_hits_carry_a_score_a_match_and_their_passage_and_explain_says_why(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    write_note("scratch/flight.md", note("Flight to Berlin", "Gate B22, seat 14C, flight TP558 to Berlin.", layer="L1", expires_at="2020-01-01"))
    write_note("travel/next-flight.md", note("Flight to Porto", "Gate A3, seat 2A, flight TP1940 to Porto.", layer="L2", expires_at="2999-01-01T00:00:00Z"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            [hit] = (await served.call("recall", query="flight gate seat", k=1))["hits"]
            assert hit["path"] == "travel/next-flight.md" and 0.0 < hit["score"] < 1.0
            assert hit["match"] in ("both", "meaning", "keyword") and hit["passage"]["lines"] == [6, 6]  # after the frontmatter's five lines

            why = await served.call("explain", note="scratch/flight", query="flight gate seat", k=1)
            assert why["path"] == "scratch/flight.md" and why["in_answer"] is False
            assert why["reasons"][0].startswith("expired at 2020-01-01") and set(why["rank"]) == {"vectors", "text", "fused"}
            kept = await served.call("explain", note="travel/next-flight", query="flight gate seat", k=1)
            assert kept["in_answer"] is True and kept["rank"]["fused"] == 1

            refused = await served.error("explain", note="scratch/flight", query="flight", layer="L1")
            assert "unknown argument 'layer'" in refused

    run(scenario)


def test_explain_names_each_argument_as_the_mcp_client_passes_it_only(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Was: explain(k=1) over MCP said "-k (k) 2 would include it" and "--include-expired
    (include_expired)": CLI flags this client has no use for, beside its own names."""
    write_note("travel/berlin.md", note("Flight to Berlin", "Gate B22, seat 14C, flight TP558 to Berlin.", layer="L4"))
    write_note("travel/porto.md", note("Flight to Porto", "Gate A3, seat 2A, flight TP1940 to Porto.", layer="L4"))
    write_note("travel/old.md", note("Old flight to Rome", "Gate C1, seat 9F, flight TP830 to Rome.", layer="L1", expires_at="2020-01-01"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            second = (await served.call("recall", query="flight gate seat", k=2))["hits"][1]["path"]
            below = await served.call("explain", note=second, query="flight gate seat", k=1)
            assert below["in_answer"] is False
            assert "ranked 2, below the 1 asked for (k=2 would include it;" in below["reasons"][-1]
            expired = await served.call("explain", note="travel/old", query="flight gate seat", k=1)
            assert "search hides expired notes; include_expired=true shows them" in expired["reasons"][0]
            assert expired["reasons"][-1].startswith("with include_expired=true the same search ranks it")
            filtered = await served.call("explain", note="travel/berlin", query="flight gate seat", layers=["L1"],
                                         tags=["rome"], since="2030-01-01")
            assert filtered["reasons"][0] == "filtered out by layers L1: its layer is L4"
            assert filtered["reasons"][-1].startswith("without layers and without tags rome and without since/until the same")
            said = " ".join(below["reasons"] + expired["reasons"] + filtered["reasons"])
            for flag in ("-k", "--include-expired", "--layer", "--tag", "--since", "--until", "include_expired=True"):
                assert flag not in said, (flag, said)

    run(scenario)


def test_a_file_macos_named_decomposed_is_named_by_its_typed_name_over_mcp(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Was: get/explain/forget of "Café résumé" said no note matches `Cafe\u0301 re\u0301sume\u0301.md`."""
    decomposed = unicodedata.normalize("NFD", "Café résumé")
    write_note(f"travel/{decomposed}.md", "---\nlayer: L4\n---\nCoffee in Paris, at the counter.\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            got = await served.call("get", note="Café résumé")
            assert got["path"] == f"travel/{decomposed}.md"  # the file as the disk spells it
            explained = await served.call("explain", note="travel/Café résumé.md", query="coffee in Paris")
            assert explained["path"] == f"travel/{decomposed}.md" and explained["in_answer"] is True
            forgotten = await served.call("forget", note="Café résumé")
            assert forgotten["path"] == f"travel/{decomposed}.md"

    run(scenario)
    assert (vault_dir / "_archive" / "travel" / f"{decomposed}.md").is_file()


def test_forget_by_a_name_the_persons_file_and_the_agents_memory_share_is_refused_and_get_says_so_over_mcp(
        vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Was (a trial on a Chinese vault): remember(title="靠墙天使") wrote memories/靠墙天使-2.md, and
    forget(note="靠墙天使") archived the person's 靠墙天使.md, whose file name matched first."""
    person = write_note("靠墙天使.md", "---\ntags: [exercise]\n---\n靠墙站立，双臂上举。\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            memory = await served.call("remember", text="每天做三组靠墙天使。", title="靠墙天使")
            refused = await served.error("forget", note="靠墙天使")
            assert (f"AmbiguousNote: '靠墙天使' matches 2 notes: {memory['path']} (its title; id {memory['id']}), "
                    "靠墙天使.md (its file name); nothing was changed") in refused
            got = await served.call("get", note="靠墙天使")
            assert got["path"] == "靠墙天使.md"
            assert got["resolved_from"]["others"] == [{"path": memory["path"], "id": memory["id"], "by": ["title"]}]
            assert got["resolved_from"]["notice"].startswith(f"another note answers to '靠墙天使' by its title: {memory['path']}")
            forgotten = await served.call("forget", note=memory["id"])
            assert forgotten["path"] == memory["path"]

    run(scenario)
    assert person.read_text(encoding="utf-8") == "---\ntags: [exercise]\n---\n靠墙站立，双臂上举。\n"


def test_get_by_a_basic_memory_url_opens_the_note_whose_permalink_it_is_over_mcp(
        vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Was (a trial with a basic-memory vault): get(note="memory://decisions/lanesborough-protocol")
    found nothing; the agent addresses notes by the `permalink` in their frontmatter."""
    write_note("decisions/Lanesborough Protocol.md", "---\ntitle: Lanesborough Protocol\n"
               "permalink: decisions/lanesborough-protocol\n---\nTwo agents review every write.\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            got = await served.call("get", note="memory://decisions/lanesborough-protocol")
            assert got["path"] == "decisions/Lanesborough Protocol.md"
            assert got["resolved_from"] == {"reference": "memory://decisions/lanesborough-protocol", "via": "permalink"}
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "permalink" in listed["get"].input_schema["properties"]["note"]["description"]

    run(scenario)


# ------------------------------------------------------------------ check and consolidate


def test_check_reports_problems_by_file_and_field(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    write_note("ok.md", note("Fine", "A healthy note.", layer="L4"))
    write_note("broken.md", "---\ntitle: Broken\nlayer: L9\n---\nA note with an unknown layer.\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            report = await served.call("check")
            assert report["files"] == 2 and report["ok"] is False
            assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [("broken.md", "layer")]
            assert report["problems"][0]["fix"]

    run(scenario)


TEMPLATE = "---\ntitle: {name} Template\ncreated: {{{{date}}}}\ntags:\n  - {name}\n---\n# {{{{title}}}}\n"


def test_check_says_the_same_problem_of_many_notes_in_one_folder_once_and_lists_the_others_first(
        vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """A trial on a vault of 1,405 notes: 117 templates' {{date}} made check's answer 86 KB in one
    part, the same advice 117 times, and the vault's own problems were lost among them. The shell
    groups them (problem_groups.py); the agent now gets the groups too, and the others first."""
    names = [f"Kind{number:03d}" for number in range(40)]
    for name in names:
        write_note(f"Templates/{name} Template.md", TEMPLATE.format(name=name))
    write_note("notes/broken.md", "---\nlayer: L9\n---\nA note with an unknown layer.\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("check")
            assert [problem["path"] for problem in first["problems"]] == ["notes/broken.md"]
            assert first["problems_total"] == 41 and first["next_offset"] == 1
            (group,) = first["groups"]
            assert (group["folder"], group["field"], group["count"]) == ("Templates", "frontmatter", 40)
            assert group["notes"][:2] == ["Kind000 Template.md:3", "Kind001 Template.md:3"] and len(group["notes"]) == 20
            assert "placeholder such as {{date}}" in group["message"]
            assert group["fix_for"] == "Templates/Kind000 Template.md" and group["fix_for"] in group["fix"]
            assert "GROUPED: 40 of the 41 problems are 1 problem(s)" in first["notice"]
            assert len(json.dumps(first)) < 8_000  # was every problem, the same advice 40 times
            # Nothing is hidden: the groups' problems follow, one by one as before.
            rest = await served.call("check", offset=1)
            assert sorted(problem["path"] for problem in rest["problems"]) == [f"Templates/{name} Template.md" for name in names]
            assert rest["next_offset"] is None and rest["groups"] == first["groups"]
            # Spelled for an agent, as each problem is (the tool, or what to ask the person).
            assert group["fix"] == next(problem["fix"] for problem in rest["problems"] if problem["path"] == group["fix_for"])

    run(scenario)


def test_an_agent_is_told_the_tools_it_can_call_not_a_command_to_run(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Was: hit warnings, check's fixes, get's problems and errors told an agent over MCP to run
    `vaultmem check --fix` or `vaultmem consolidate`, commands it may have no shell for (and
    Vault.check() is Python's). They name the tool now, and where no tool does it (check has no fix
    over MCP) what the agent can do itself and what to ask the person."""
    write_note("meeting.md", "---\nlayer: L2\n---\nThe harbor meeting moved to Thursday.\n")
    write_note("crane.md", "---\nlayer: L3\nexpires_at: next tuesday\n---\nThe harbor crane is booked for the refit.\n")
    write_note("prefs/coffee-order.md", "---\nlayer: L4\ntitle: Coffee order\n---\nFlat white with oat milk.\n")
    write_note("prefs/coffee-order.sync-conflict-20240501-123456-ABCDEFG.md",
               "---\nlayer: L4\ntitle: Coffee order\n---\nFlat white with oat milk, double shot.\n")
    no_deadline_fix = ("revise it with ttl or expires_at (or ask the person to run `vaultmem check --fix`, which stamps "
                       "created + the layer TTL), or add expires_at / permanent: true")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            hits = (await served.call("recall", query="harbor crane refit"))["hits"]
            crane = next(hit for hit in hits if hit["path"] == "crane.md")
            assert crane["warnings"][0].endswith("never expires until it is fixed (see the check tool)"), crane
            copy = next(hit for hit in (await served.call("recall", query="flat white oat milk"))["hits"]
                        if "sync-conflict" in hit["path"])
            assert copy["warnings"] == ["copy: looks like a copy Syncthing made of coffee-order.md (the check tool says "
                                        "what to do)"], copy
            fixes = {(problem["path"], problem["field"]): problem["fix"] for problem in (await served.call("check"))["problems"]}
            assert fixes[("meeting.md", "expires_at")] == no_deadline_fix, fixes
            assert fixes[("prefs/coffee-order.sync-conflict-20240501-123456-ABCDEFG.md", "copy")].endswith(
                "the consolidate tool can merge them"), fixes
            assert [problem["fix"] for problem in (await served.call("get", note="meeting.md"))["problems"]] == [no_deadline_fix]
            ambiguous = await served.error("get", note="Coffee order")
            assert "delete the other; the check tool says how)" in ambiguous, ambiguous
            said = repr([hits, fixes, ambiguous])
            assert "`vaultmem check`" not in said and "Vault." not in said and "`vaultmem consolidate`" not in said

    run(scenario)


def test_a_note_whose_yaml_does_not_load_names_the_tools_that_leave_it_alone(vault_dir: Path, write_note: Callable[..., Path],
                                                                          log: Path) -> None:
    """Was: check's and get's fix for such a note told an agent over MCP that "check --fix, expire
    and consolidate leave it alone": a flag of a command it has no shell for."""
    write_note("dana.md", "---\ntitle: Dana: prefers async\nlayer: L3\n---\nDana prefers async updates.\n")
    fix = ("fix the YAML (quote values containing ': ' or '{{'); until then only its layer line(s) are read; "
           "the expire and consolidate tools (and the person's `vaultmem check --fix`) leave it alone")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            checked = [problem["fix"] for problem in (await served.call("check"))["problems"] if problem["field"] == "frontmatter"]
            assert checked == [fix]
            assert [problem["fix"] for problem in (await served.call("get", note="dana.md"))["problems"]] == [fix]

    run(scenario)

    said = run_cli(vault_dir, "check").stdout
    assert "until then only its layer line(s) are read; check --fix, expire and consolidate leave it alone" in said, said


def test_remember_over_mcp_reads_a_date_in_words_and_says_the_day_it_read(vault_dir: Path, log: Path) -> None:
    """Was (s38 trial): remember(date='next tuesday') refused, ISO only, while list_notes(since='last
    week') read words: an agent that does not know today's date had to guess it."""
    today = datetime.now().astimezone().date()

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            saved = await served.call("remember", text="Met Dana at the climbing gym.", date="yesterday")
            yesterday = (today - timedelta(days=1)).isoformat()
            assert saved["date_read"].startswith("'yesterday' is ") and yesterday in saved["date_read"], saved
            assert f"\ndate: {yesterday}\n" in (vault_dir / saved["path"]).read_text(encoding="utf-8")
            refused = await served.error("remember", text="Met Dana.", date="last week")
            assert "not one day" in refused and "last friday, next tuesday" in refused, refused

    run(scenario)


def test_an_index_of_another_embedder_asks_the_agent_for_a_restart_not_a_command(vault_dir: Path,
                                                                                  write_note: Callable[..., Path],
                                                                                  log: Path) -> None:
    """Was: "run `vaultmem index` to re-embed" reached the agent, a command it may have no shell
    for — and beside this server, which read another embedder from .vaultmem.toml as it started,
    `vaultmem index` would not even help. What helps is what the message says now: a restart
    (it re-embeds as it starts). check's refusals over MCP name the person's command too."""
    from vaultmem import Vault
    from vaultmem.embedders import HashingEmbedder

    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing:64"\n', encoding="utf-8")
    write_note("rui.md", "---\nlayer: L3\nexpires_at: 2030-01-01\n---\nRui likes jazz and fado.\n")
    write_note("salvaged.md", "---\ntitle: Boiler: Tuesday\npermanent: true\nexpires_at: 2027-01-01\n---\nbody\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            assert [hit["path"] for hit in (await served.call("recall", query="jazz fado"))["hits"]][:1] == ["rui.md"]
            with Vault(vault_dir, embedder=HashingEmbedder(128)) as other:  # e.g. a script with its own embedder
                other.index()
            refused = await served.error("recall", query="jazz fado")
            assert refused.endswith("DerivedIndexError: the index holds vectors from hashing:128, but this vault now "
                                    "uses hashing:64; ask the person to restart the MCP server: it reads .vaultmem.toml "
                                    "again and re-embeds the vault with the embedder named there as it starts (vectors "
                                    "are never mixed)"), refused
            problems = {problem["field"]: problem for problem in (await served.call("check"))["problems"]
                        if problem["path"] == "salvaged.md"}
            assert problems["fix"]["message"] == "its frontmatter does not load, so `vaultmem check --fix` leaves it alone"
            assert problems["fix"]["fix"] == ("fix the YAML (see its frontmatter problem), then ask the person to run "
                                              "`vaultmem check --fix` (no MCP tool makes check's fixes)")
            assert "Vault." not in repr([refused, problems])
        async with serve(vault_dir, log) as served:  # the restart the message asks for
            assert [hit["path"] for hit in (await served.call("recall", query="jazz fado"))["hits"]][:1] == ["rui.md"]

    run(scenario)


def test_check_reports_an_embedder_setting_the_server_cannot_use(vault_dir: Path, log: Path) -> None:
    """The check tool calls Vault.check: a model folder that is not there is its one problem.
    (An empty vault serves — nothing to embed yet — so check was the place to learn that the
    first remember would fail; it answered ok.)"""
    (vault_dir / ".vaultmem.toml").write_text('embedder = "sentence-transformers:/no/such/model"\n', encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            report = await served.call("check")
            assert report["ok"] is False
            assert [(problem["path"], problem["field"]) for problem in report["problems"]] == [(".vaultmem.toml", "embedder")]
            assert "is not a local folder" in report["problems"][0]["message"]

    run(scenario)


def test_check_reports_a_settings_file_changed_while_serving(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Was: the check tool listed only note problems while the server kept committing under the
    settings it started with, and the CLI refused every command over the same file."""
    write_note("ok.md", note("Fine", "A healthy note.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            assert (await served.call("check"))["ok"] is True
            (vault_dir / ".vaultmem.toml").write_text('auto_commit = "yes"\n', encoding="utf-8")
            broken = await served.call("check")
            assert [(problem["path"], problem["field"]) for problem in broken["problems"]] == [(".vaultmem.toml", "auto_commit")]
            (vault_dir / ".vaultmem.toml").write_text('remember_dir = "inbox"\n', encoding="utf-8")
            changed = await served.call("check")
            assert [(problem["path"], problem["field"]) for problem in changed["problems"]] == [(".vaultmem.toml", "file")]
            assert "restart the process" in changed["problems"][0]["fix"]

    run(scenario)


def test_consolidate_is_a_dry_run_unless_applied(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    write_note("a.md", note("Oat milk", "Maya takes oat milk in her coffee.", layer="L4"))
    write_note("b.md", note("Oat milk in coffee", "Maya takes oat milk in her coffee, never cow's milk.", layer="L4"))
    write_note("c.md", note("Harbor deploys", "Harbor deploys happen before 16:00 Lisbon, never on Fridays.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            before = snapshot_files(vault_dir)
            report = await served.call("consolidate", threshold=0.8)
            assert [(cluster["canonical"], sorted(cluster["members"])) for cluster in report["clusters"]] == [("b.md", ["a.md", "b.md"])]
            assert snapshot_files(vault_dir) == before and report["applied"] is False
            assert "threshold" in await served.error("consolidate", threshold=1.5)
            swept = await served.call("consolidate", threshold=0.8, all=True, include_expired=True)
            assert [sorted(cluster["members"]) for cluster in swept["clusters"]] == [["a.md", "b.md"]]
            assert swept["all"] is True and swept["window"] is None and swept["include_expired"] is True
            assert "window 2 contradicts all: it already sweeps every note" in await served.error("consolidate", window=2, all=True)

            applied = await served.call("consolidate", threshold=0.8, apply=True)
            assert applied["applied"] is True and [entry["canonical"] for entry in applied["merged"]] == ["b.md"]
            assert report["clusters"][0]["kept_changes"]["aliases"] == {"added": ["Oat milk"]}  # shown before, said after
            assert applied["merged"][0]["kept_changes"] == report["clusters"][0]["kept_changes"]
            assert not (vault_dir / "a.md").exists() and (vault_dir / "_archive/a.md").is_file()
            hits = (await served.call("recall", query="oat milk coffee"))["hits"]
            assert [hit["path"] for hit in hits if "milk" in hit["title"].lower()] == ["b.md"]

    run(scenario)


def test_an_agent_is_told_which_files_were_committed_without_the_persons_own_edit(vault_dir: Path, write_note: Callable[..., Path],
                                                                                   log: Path) -> None:
    write_note(".vaultmem.toml", "auto_commit = true\n")
    write_note("work/standup.md", note("Harbor standup", "The Harbor standup is at 9:30.\n\nRoom Tejo.", layer="L3",
                                       expires_at="2099-01-01T00:00:00+00:00"))
    init_repo(vault_dir)
    git(vault_dir, "add", "-A")
    git(vault_dir, "commit", "-qm", "first")
    path = vault_dir / "work/standup.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nMY OWN LINE\n", encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            revised = await served.call("revise", note="work/standup", title="Harbor standup at 9:45")
            assert revised["commit"] and revised["not_committed"] == []
            assert revised["yours_left_uncommitted"] == ["work/standup.md"]

    run(scenario)
    assert "MY OWN LINE" not in git(vault_dir, "show", "HEAD:work/standup.md") and "MY OWN LINE" in path.read_text(encoding="utf-8")


def test_revise_supersede_and_merged_ids_as_an_agent_sees_them(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    write_note("work/standup.md", note("Harbor standup", "The Harbor standup is at 9:30 in the Tejo room.", layer="L2",
                                       expires_at="2099-01-01T00:00:00+00:00"))
    write_note("a.md", note("Oat milk", "Maya takes oat milk in her coffee. Ticket QX-7731.", layer="L3", expires_at="2099-01-01",
                            id="milk-a"))
    write_note("b.md", note("Oat milk in coffee", "Maya takes oat milk in her coffee, never cow's milk, not even at cafés in Lisbon.",
                            layer="L3", expires_at="2099-01-01"))
    shorter = (vault_dir / "a.md").read_bytes()

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            # A person edits the note after the agent read it: the agent's revise is refused.
            read = await served.call("get", note="work/standup")
            path = vault_dir / "work/standup.md"
            path.write_text(path.read_text(encoding="utf-8").replace("9:30", "9:40"), encoding="utf-8")
            edited = snapshot_files(vault_dir)
            refused = await served.error("revise", note="work/standup", text="The standup is at 9:45.", if_version=read["version"])
            assert "changed since you read it" in refused and "nothing was written" in refused
            assert snapshot_files(vault_dir) == edited
            # Read again, then promote: L2 → L3 gets now + 90 days, and the text grows.
            current = await served.call("get", note="work/standup")
            promoted = await served.call("revise", note="work/standup", layer="semantic", append="Bring the release notes.",
                                         if_version=current["version"])
            assert promoted["changed"] == ["body", "layer", "expires_at"] and promoted["layer"] == "L3"
            days = (parse_timestamp(promoted["expires_at"]) - datetime.now(UTC)).total_seconds() / 86400
            assert 89.9 < days <= 90.0
            assert path.read_text(encoding="utf-8").endswith("9:40 in the Tejo room.\n\nBring the release notes.\n")

            # A newer fact supersedes the old one: recall stops returning it, get says why.
            newer = await served.call("remember", text="The Harbor standup moved to 9:45 in the Tejo room.", layer="L3",
                                      supersedes=["work/standup"])
            assert newer["supersedes"] == [{"id": "work/standup", "path": "work/standup.md"}]
            hits = (await served.call("recall", query="Harbor standup Tejo room"))["hits"]
            assert "work/standup.md" not in [hit["path"] for hit in hits] and hits[0]["path"] == newer["path"]
            old = await served.call("get", note="work/standup")
            assert old["expired"] is True and f"superseded by {newer['id']} ({newer['path']})" in old["notice"]

            # A merge: the shorter note's unique token is found in the kept note; its id resolves there.
            merged = await served.call("consolidate", threshold=0.7, apply=True)
            assert [(entry["canonical"], entry["merged"][0]["path"]) for entry in merged["merged"]] == [("b.md", "a.md")]
            assert (vault_dir / "_archive/a.md").read_bytes() == shorter  # the archived original, byte for byte
            hits = (await served.call("recall", query="QX-7731", k=1))["hits"]
            assert hits[0]["path"] == "b.md" and "QX-7731" in (vault_dir / "b.md").read_text(encoding="utf-8")
            resolved = await served.call("get", note="milk-a")
            assert resolved["path"] == "b.md" and resolved["resolved_from"] == {"reference": "milk-a", "via": "merged_from"}
def test_consolidate_leaves_the_users_own_notes_alone_unless_any_note(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    # Regression (issue 11 §3): consolidate(apply=true) would have merged two daily notes without a layer.
    daily = "## Notes\n\nCalled the plumber about the leaking kitchen tap; he comes Tuesday at 10. Bought oat milk on the way {}.\n"
    # Named without a day: notes that record two days are never merged at all (test_consolidate.py).
    write_note("Notes/Errands.md", daily.format("home"))
    write_note("Notes/Errands (copy).md", daily.format("back"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            before = snapshot_files(vault_dir)
            applied = await served.call("consolidate", threshold=0.85, apply=True)
            assert applied["clusters"] == [] and applied["scope"] == "memories" and applied["not_memories"] == 2
            assert snapshot_files(vault_dir) == before
            widened = await served.call("consolidate", threshold=0.85, any_note=True)
            assert [cluster["members"] for cluster in widened["clusters"]] == [["Notes/Errands (copy).md", "Notes/Errands.md"]]
            assert widened["scope"] == "every note" and widened["applied"] is False and widened["different_days"] == 0
            assert "must be true or false" in await served.error("consolidate", any_note="yes")

    run(scenario)


# ------------------------------------------------------------------ errors


BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("remember", {"text": "x", "layer": "L9"}, "unknown layer 'L9'"),
    ("recall", {"query": "x", "layers": ["L7"]}, "unknown layer 'L7'"),
    ("get", {"note": "no-such-note"}, "no note matches 'no-such-note'"),
    ("forget", {"note": "missing/note.md"}, "no note matches 'missing/note.md'"),
    ("mark_used", {"notes": ["coffee", "nope"]}, "no note matches 'nope'"),
    ("get", {"note": "../x"}, "outside the vault"),
    ("get", {"note": "/etc/passwd"}, "outside the vault"),
    ("forget", {"note": "../../etc/passwd"}, "outside the vault"),
    ("remember", {"text": "x", "folder": "../outside"}, "outside the vault"),
    ("remember", {"text": "x", "folder": "/etc"}, "outside the vault"),
    ("remember", {"text": "x", "expires_at": "next tuesday"}, "expires_at: invalid timestamp 'next tuesday'"),
    ("remember", {"text": "x", "ttl": "soon"}, "invalid duration 'soon'"),
    ("remember", {"text": "x", "permanent": True, "ttl": "3d"}, "permanent contradicts ttl: a permanent note has no deadline"),
    ("remember", {"text": "x", "expires_at": "2030-01-01", "ttl": "3d"}, "expires_at contradicts ttl: give the deadline one way only"),
    ("recall", {"query": "x", "k": 0}, "argument 'k' must be at least 1, not 0."),
    ("mark_used", {"notes": []}, "argument 'notes' must not be empty."),
    # Strict: an unknown name is not ignored, a value of another type is not coerced.
    ("recall", {"query": "x", "layer": "L3"}, "unknown argument 'layer' (did you mean 'layers'?); recall takes query, k, layers,"),
    ("consolidate", {"apply": "yes"}, "argument 'apply' must be true or false (a JSON boolean), not \"yes\"."),
    ("recall", {"query": "x", "include_expired": "true"}, "argument 'include_expired' must be true or false"),
    ("recall", {"query": "x", "k": "5"}, "argument 'k' must be a whole number, not \"5\"."),
    ("remember", {"text": "x", "tags": "travel"}, "argument 'tags' must be a list, not \"travel\" (a list of one: [\"travel\"])."),
    # One note sent bare is a list of one (an agent superseding one note sends it so): read, then refused as L4.
    ("remember", {"text": "x", "supersedes": "coffee"}, "cannot supersede coffee.md: it is layer L4"),
    ("remember", {"text": "x", "supersedes": 7}, "argument 'supersedes' must be a note's id or path, or a list of them, not 7."),
    ("remember", {"text": "x", "supersedes": {"id": "coffee"}}, "argument 'supersedes' must be a note's id or path, or a list of them"),
    ("remember", {"text": "x", "supersedes": ["coffee", 7]}, "argument 'supersedes[1]' must be a string, not 7."),
    ("remember", {"text": "x", "tags": ["ok", 7]}, "argument 'tags[1]' must be a string, not 7."),
    ("remember", {"title": "x"}, "missing required argument 'text'."),
    ("get", {"note": "coffee", "verbose": True, "format": "md"}, "unknown argument 'verbose'; get takes note, offset. Also wrong: format."),
    ("remember", {"text": "x", "expires_at": "2020-01-01"}, "expires_at 2020-01-01T00:00:00+00:00 is not in the future"),
    ("forget", {"note": "coffee", "hard": True}, "allow_hard_delete = true under [mcp]"),
    ("revise", {"note": "coffee"}, "nothing to revise: give at least one of text, append, title, layer, ttl, expires_at, "
                                   "permanent, add_tags, remove_tags"),
    ("revise", {"note": "coffee", "add_tags": ["x"], "remove_tags": ["x"]}, "both added (add_tags) and removed (remove_tags)"),
    ("revise", {"note": "coffee", "text": "a", "append": "b"}, "text contradicts append"),
    ("revise", {"note": "coffee", "ttl": "3d"}, "layer L4 (procedural, never expires): a deadline contradicts it; also give it another layer (layer L3)"),
    ("revise", {"note": "coffee", "add_tag": "x"}, "unknown argument 'add_tag' (did you mean 'add_tags'?)"),
    ("revise", {"note": "coffee", "permanent": "no"}, "argument 'permanent' must be true or false"),
    ("revise", {"note": "coffee", "title": "t", "if_version": "0000000000000000"}, "changed since you read it"),
    ("remember", {"text": "x", "supersedes": ["coffee"]}, "cannot supersede coffee.md: it is layer L4"),
    ("remember", {"text": "x", "supersedes": ["coffee"]}, "first revise it with layer L3 (its layer's expiry then applies)"),
    # A three-day agent trial: told the spare key (L4) had moved, the agent made two more writes and three
    # commits to supersede it; the one call that keeps one note of the fact is named first.
    ("remember", {"text": "x", "supersedes": ["coffee"]}, "to keep one note of the fact, revise its text in place (it still never expires)"),
    # Was a message about a link's target and "the note's path", for a folder (a three-day agent trial).
    ("remember", {"text": "x", "folder": "../outside"}, "folder '../outside' is outside the vault"),
    ("recall", {"query": "   "}, "needs a query with at least one word"),  # was: no hits, as if the vault knew nothing
]


def test_one_note_to_supersede_sent_as_a_string_is_superseded(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    # Agents send supersedes="<id>" for a single note: it was refused ("must be a list"), costing a
    # second call in every correction. One id or path has one reading; the schema says string or list.
    write_note("sam-phone.md", note("Sam's phone", "Sam's phone number is +351 913 222 333.", layer="L3"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            schema = listed["remember"].input_schema["properties"]["supersedes"]
            assert {"type": "string"} in schema["anyOf"] and {"type": "array", "items": {"type": "string"}} in schema["anyOf"]
            new = await served.call("remember", text="Sam's phone number is +351 914 444 555.", supersedes="sam-phone.md")
            assert new["supersedes"] == [{"id": "sam-phone", "path": "sam-phone.md"}]
            assert (await served.call("get", note="sam-phone"))["expired"] is True

    run(scenario)


def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(vault_dir: Path, write_note: Callable[..., Path], tmp_path: Path, log: Path) -> None:
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    log.touch()
    outside_before = sorted(path.name for path in tmp_path.iterdir())  # nothing may appear beside the vault

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            await served.call("recall", query="coffee")  # startup finished: the index exists
            before = snapshot_files(vault_dir)
            for tool, arguments, expected in BAD_CALLS:
                message = await served.error(tool, **arguments)
                assert message.startswith(f"Error executing tool {tool}: "), message
                assert expected in message, (tool, arguments, message)
                # Plain words for a model: one line, no validator URL, no pydantic class names.
                assert "\n" not in message and "pydantic" not in message and "Arguments" not in message, message
                assert "--" not in message, message  # an agent passes arguments, not the CLI's flags
                assert (await served.call("recall", query="coffee"))["hits"][0]["path"] == "coffee.md"
            assert snapshot_files(vault_dir) == before  # a refused call writes nothing
            assert [message for message in served.transport_messages if isinstance(message, Exception)] == []

    run(scenario)
    assert sorted(path.name for path in tmp_path.iterdir()) == outside_before


def test_every_refused_call_leads_with_its_kind(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """A trial (s37): an agent that branches on the word after the tool name (UsageError: fix the
    arguments) read "unknown" and "forget(hard=true)" as kinds: the argument checks and the refused
    hard delete came without one, unlike every other refusal."""
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            await served.call("recall", query="coffee")
            for tool, arguments, _expected in BAD_CALLS:
                message = await served.error(tool, **arguments)
                kind = message.removeprefix(f"Error executing tool {tool}: ").split(": ")[0]
                assert re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+", kind), (tool, arguments, message)
            unknown = await served.error("recall", query="x", layer="L3")
            assert unknown.startswith("Error executing tool recall: UsageError: unknown argument 'layer'"), unknown
            hard = await served.error("forget", note="coffee", hard=True)
            assert hard.startswith("Error executing tool forget: UsageError: forget(hard=true) is not allowed"), hard

    run(scenario)


def test_hard_forget_is_refused_until_the_person_allows_it(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    reference = write_note("references/tax-office.md", note("Tax office", "Hand-written: the tax office opens at 9:00.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            message = await served.error("forget", note="references/tax-office.md", hard=True)
            assert "nothing was deleted" in message and str(vault_dir / ".vaultmem.toml") in message
            assert reference.is_file()

    run(scenario)
    (vault_dir / ".vaultmem.toml").write_text("[mcp]\nallow_hard_delete = true\n", encoding="utf-8")

    async def allowed() -> None:
        async with serve(vault_dir, log) as served:
            tools = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "this vault allows it" in tools["forget"].description
            forgotten = await served.call("forget", note="references/tax-office.md", hard=True)
            assert forgotten["archived_to"] is None and not reference.exists()
            assert not (vault_dir / "_archive").exists()

    run(allowed)


def test_a_secret_spelled_out_is_refused_until_the_person_allows_it(vault_dir: Path, log: Path) -> None:
    """An agent trial (s35): asked "my wifi password is Elm-hunter2-77, remember that", the agent
    stored it — remember's description advised against it, nothing stopped it — and with
    auto_commit the password was in git, where forget cannot reach."""
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            before = snapshot_files(vault_dir)
            message = await served.error("remember", text="The home wifi password is Elm-hunter2-77.", title="Wifi")
            assert message.startswith("Error executing tool remember: UsageError: remember's text spells out a "
                                      "password 'El…77', so nothing was written"), message
            assert "hunter2" not in message  # the refusal never repeats the secret into the agent's context
            assert "1Password" in message and f"allow_secrets = true under [mcp] in {vault_dir / '.vaultmem.toml'}" in message
            assert snapshot_files(vault_dir) == before
            kept = await served.call("remember", text="The home wifi password is in 1Password.", title="Wifi", layer="L3")
            message = await served.error("revise", note=kept["id"], append="Router admin PIN: 4921")
            assert "revise's append spells out a pin '4…1'" in message
            message = await served.error("revise", note=kept["id"], set_properties={"password": "Elm-hunter2-77"})
            assert "revise's set_properties.password spells out" in message
            assert "4921" not in (vault_dir / kept["path"]).read_text(encoding="utf-8")
            tools = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "verbatim, even when asked (refused: the person has not allowed it)" in (tools["remember"].description or "")

    run(scenario)
    (vault_dir / ".vaultmem.toml").write_text("[mcp]\nallow_secrets = true\n", encoding="utf-8")

    async def allowed() -> None:
        async with serve(vault_dir, log) as served:
            tools = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "(this vault allows it)" in (tools["remember"].description or "")
            stored = await served.call("remember", text="The guest wifi password is Guest-2026!", layer="L3")
            assert "Guest-2026!" in (vault_dir / stored["path"]).read_text(encoding="utf-8")

    run(allowed)


def test_a_secret_in_a_property_is_refused_whatever_the_keys_spelling(vault_dir: Path, log: Path) -> None:
    """s35 review: revise(set_properties={"wifi_password": "Elm-hunter2-77"}) was written — the
    key was checked as the text "wifi_password: …", where no word boundary sets "password" apart —
    and so was a list ({"pins": ["4921"]}, checked as "pins: ['4921']")."""
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            kept = await served.call("remember", text="The home wifi password is in 1Password.", title="Wifi", layer="L3")
            before = snapshot_files(vault_dir)
            message = await served.error("revise", note=kept["id"], set_properties={"wifi_password": "Elm-hunter2-77"})
            assert "revise's set_properties.wifi_password spells out a password 'El…77', so nothing was written" in message
            message = await served.error("revise", note=kept["id"], set_properties={"pins": ["bike", "4921"]})
            assert "revise's set_properties.pins spells out a pin '4…1'" in message
            assert snapshot_files(vault_dir) == before
            await served.call("revise", note=kept["id"], set_properties={"password_manager": "1Password"})

    run(scenario)


def test_revise_may_carry_a_secret_the_person_wrote_but_not_add_one(vault_dir: Path, log: Path) -> None:
    """s35 review: a person's own line "Router admin PIN: 4921" made every revise(text=…) of the
    note refused — the agent sends the whole body back with one fact changed, and the PIN it
    carried unchanged was taken for one it spelled out. Only a secret the note does not hold yet is."""
    (vault_dir / "router.md").write_text("---\nlayer: L3\n---\nRouter admin PIN: 4921\nThe router is in the hall.\n",
                                        encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            revised = await served.call("revise", note="router", text="Router admin PIN: 4921\nThe router is in the study.\n")
            assert "study" in (vault_dir / revised["path"]).read_text(encoding="utf-8")
            message = await served.error("revise", note="router", text="Router admin PIN: 7731\nThe router is in the study.\n")
            assert "revise's text spells out a pin '7…1', so nothing was written" in message

    run(scenario)


def test_forget_over_mcp_says_where_the_forgotten_text_remains(vault_dir: Path, log: Path) -> None:
    """The s35 trial: "forget everything about Jordan" answered only archived_to, and the agent told
    the person it was gone. The answer says the archive file and git history still hold it."""
    init_repo(vault_dir)
    (vault_dir / ".vaultmem.toml").write_text("auto_commit = true\n", encoding="utf-8")
    git(vault_dir, "add", ".vaultmem.toml")
    git(vault_dir, "commit", "-qm", "config")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            kept = await served.call("remember", text="Sam's ex Jordan Wells lives in Manchester.", title="Jordan Wells", layer="L3")
            forgotten = await served.call("forget", note=kept["id"])
            assert forgotten["in_git_history"] == [forgotten["commit"][:10], kept["commit"][:10]]
            assert forgotten["notice"].startswith(
                "Forgotten: no longer recalled; its text stays in _archive/memories/jordan-wells.md (the archive folder: "
                "recoverable by the person), and git history holds it (2 commits: "), forgotten["notice"]
            assert "the person deletes _archive/memories/jordan-wells.md and rewrites history themselves" in forgotten["notice"]

    run(scenario)


def test_a_call_stuck_behind_another_writer_does_not_hold_up_the_others(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """Another process holds SQLite's write lock: remember waits for it, recall answers meanwhile."""
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            await served.call("recall", query="coffee")  # startup finished: the index exists
            writer = sqlite3.connect(vault_dir / ".vaultmem" / "index.db", isolation_level=None)
            writer.execute("BEGIN IMMEDIATE")  # e.g. `vaultmem index` in another process
            remembered: list[dict[str, Any]] = []

            async def remember() -> None:
                remembered.append(await served.call("remember", text="The plumber comes on Friday at 8:00.", layer="L2"))

            try:
                async with anyio.create_task_group() as group:
                    group.start_soon(remember)
                    with anyio.fail_after(CALL_SECONDS):
                        while not list(vault_dir.glob("memories/*.md")):  # remember wrote its file: now it waits to index it
                            await anyio.sleep(0.02)
                        hits = (await served.call("recall", query="flat white"))["hits"]
                    assert [hit["path"] for hit in hits] == ["coffee.md"]
                    assert remembered == []  # still waiting for the lock: it did not block the recall
                    writer.execute("COMMIT")
            finally:
                writer.close()
            assert remembered[0]["path"].startswith("memories/")
            hits = (await served.call("recall", query="when does the plumber come"))["hits"]
            assert hits[0]["id"] == remembered[0]["id"]

    run(scenario)


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file")
def test_a_write_kept_waiting_for_the_commit_lock_tells_the_client_as_progress(vault_dir: Path, write_note: Callable[..., Path],
                                                                              log: Path) -> None:
    """Was: only the server's stderr said a write waited for another's commit (for up to 300 s); the
    client heard nothing and could give up first. The call now sends progress notifications: who
    holds the lock, at once after 2 s and again every 5 s (seconds waited, of 300)."""
    write_note(".vaultmem.toml", "auto_commit = true\n")
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    for args in (["init", "-q"], ["config", "user.email", "maya@example.com"], ["config", "user.name", "Maya"],
                 ["add", "-A"], ["commit", "-qm", "first"]):
        subprocess.run(["git", *args], cwd=vault_dir, check=True, capture_output=True)
    heard: list[Progress] = []

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            await served.call("recall", query="coffee")  # started: the wait below is the lock's alone
            holder = hold_commit_lock(vault_dir, 8)
            try:
                remembered = await served.call("remember", progress=heard, text="The plumber comes on Friday.", layer="L2")
            finally:
                holder.wait(30)
            assert remembered["commit"], remembered
            assert len(heard) >= 2, heard
            assert all(f"pid {holder.pid} (`hold_lock.py vaultmem`)" in (each.message or "") for each in heard), heard
            assert "refused after 300 s" in (heard[0].message or "") and heard[0].total == 300, heard
            assert 2 <= heard[0].progress < heard[1].progress and heard[1].progress - heard[0].progress >= 5, heard

    run(scenario)
    assert "waiting for another vaultmem write to finish" in log.read_text(encoding="utf-8")  # and the log, as before


def test_library_messages_reach_the_client_whole(vault_dir: Path, log: Path) -> None:
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            message = await served.error("remember", text="x", layer="L9")
            # The error's kind leads (a trial: an agent could not tell a WriteConflict to retry
            # from a fatal error without parsing the prose).
            assert message == ("Error executing tool remember: UnknownLayer: unknown layer 'L9': use one of "
                               "L1 (working), L2 (episodic), L3 (semantic), L4 (procedural)")
            stale = await served.error("revise", note="notes/none.md", append="x", if_version="0" * 16)
            assert stale.startswith("Error executing tool revise: NoteNotFound: "), stale

    run(scenario)


def test_a_startup_failure_is_reported_by_every_call(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    (vault_dir / ".vaultmem.toml").write_text('embedder = "sentence-transformers:/no/such/model"\n', encoding="utf-8")
    write_note("a.md", note("A", "Something to embed.", layer="L4"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            for _ in range(2):
                message = await served.error("recall", query="something")
                assert "vaultmem is not serving" in message and "is not a local folder" in message

    run(scenario)
    assert "could not start serving" in log.read_text(encoding="utf-8")


def test_a_vault_that_is_not_a_folder_fails_before_serving(tmp_path: Path) -> None:
    result = vaultmem_process(tmp_path / "missing", "mcp")
    assert result.returncode == 2  # a --vault that is not a folder: a usage error, as for every command
    assert result.stdout == ""
    assert "is not a folder" in result.stderr


def test_get_names_a_note_with_a_leading_space_as_written(vault_dir: Path, log: Path) -> None:
    """Was: the reference was stripped, so `get(note=" leading space")` returned `leading space.md`."""
    (vault_dir / " leading space.md").write_text("---\nlayer: L4\n---\nWith the space.\n", encoding="utf-8")
    (vault_dir / "leading space.md").write_text("---\nlayer: L4\n---\nWithout the space.\n", encoding="utf-8")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            assert (await served.call("get", note=" leading space"))["path"] == " leading space.md"
            assert (await served.call("get", note="leading space "))["path"] == "leading space.md"  # stripped: the fallback

    run(scenario)


def test_a_name_without_its_accents_gets_an_error_naming_the_accented_note(vault_dir: Path, write_note: Callable[..., Path],
                                                                           log: Path) -> None:
    text = note("Kadıköy", "The ferry leaves at nine.", layer="L3")
    written = write_note("Yerler/Kadıköy.md", text)

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            message = await served.error("get", note="Kadikoy")
            assert message.startswith("Error executing tool get: NoteNotFound: no note matches 'Kadikoy'; "
                                      "did you mean 'Yerler/Kadıköy.md' (Kadıköy)?"), message
            message = await served.error("revise", note="Kadikoy", append="Also at ten.")
            assert "did you mean 'Yerler/Kadıköy.md' (Kadıköy)?" in message

    run(scenario)
    assert written.read_text(encoding="utf-8") == text  # the write acted on no guess


def test_revise_of_an_expired_note_says_so_and_how_to_make_it_current(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    # A person let the note expire by hand; an agent that appended a current fact to it heard
    # nothing of it and expected to recall what it wrote.
    write_note("work/db.md", note("Harbor database", "Postgres 16 on RDS.", layer="L3", expires_at="2020-01-01"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            appended = await served.call("revise", note="work/db", append="Replica promoted in November.")
            assert appended["expired"] is True
            assert appended["notice"] == ("EXPIRED at 2020-01-01T00:00:00+00:00: this note is hidden from recall, with what "
                                          "you just wrote; to keep it current, revise it with ttl, expires_at or permanent=true")
            extended = await served.call("revise", note="work/db", ttl="30d")
            assert extended["expired"] is False and "notice" not in extended
            assert [hit["path"] for hit in (await served.call("recall", query="replica promoted"))["hits"]] == ["work/db.md"]

    run(scenario)


def test_revise_of_a_superseded_note_names_the_note_that_holds_the_fact_now(vault_dir: Path, log: Path) -> None:
    # A three-day agent trial: an agent revising the phone note by the id it kept from the day before
    # wrote into the retired number, and was told to give it a ttl or permanent=true "to keep it
    # current" — which would have made two live phone numbers.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            old = await served.call("remember", text="Sam's phone number is +351 912 000 111.", layer="L3")
            new = await served.call("remember", text="Sam's phone number is +351 913 222 333.", supersedes=[old["id"]])
            revised = await served.call("revise", note=old["id"], append="It is also the work phone.")
            assert revised["expired"] is True and revised["superseded_by"] == new["id"]
            assert (revised["superseded_by_path"], revised["superseded_by_title"]) == (new["path"], new["title"])
            # its path and title too (s34): a ULID alone is nothing a person can open
            assert revised["notice"].endswith(f"superseded by {new['id']} ({new['path']}, \"{new['title']}\"), which holds "
                                              f"the current fact; what you just wrote is hidden from recall with it: "
                                              f"revise {new['path']} instead")
            assert "permanent=true" not in revised["notice"]

    run(scenario)


def test_revise_of_a_note_superseded_twice_names_the_current_fact_and_a_loop_made_by_hand_is_said(vault_dir: Path, log: Path) -> None:
    # Was: the notice named the first successor, retired itself, as the note to revise; and a
    # superseded_by loop written by hand must be said (where to fix it), not followed for ever.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("remember", text="Sam's phone number is +351 912 000 111.", layer="L3")
            second = await served.call("remember", text="Sam's phone number is +351 913 222 333.", supersedes=[first["id"]])
            third = await served.call("remember", text="Sam's phone number is +351 914 444 555.", supersedes=[second["id"]])
            revised = await served.call("revise", note=first["id"], append="It is also the work phone.")
            assert revised["superseded_by"] == second["id"]
            assert revised["then_superseded_by"] == [{"id": third["id"], "path": third["path"], "title": third["title"]}]
            assert revised["notice"].endswith(f"superseded by {second['id']} ({second['path']}, \"{second['title']}\"), then by "
                                              f"{third['id']} ({third['path']}, \"{third['title']}\"), which holds the current "
                                              f"fact; what you just wrote is hidden from recall with it: revise {third['path']} instead")
            newest = vault_dir / third["path"]
            newest.write_text(newest.read_text(encoding="utf-8").replace("---\n", f"---\nsuperseded_by: {second['id']}\n", 1),
                              encoding="utf-8")
            looped = await served.call("revise", note=first["id"], append="And the home phone.")
            assert "which holds the current fact" not in looped["notice"]
            assert (f"the superseded_by of {third['path']} names {second['id']} ({second['path']}, earlier on the chain): "
                    "a loop, made by hand") in looped["notice"], looped["notice"]
            assert looped["succession_problem"] in looped["notice"]

    run(scenario)


def test_an_agent_moves_an_appointment_to_its_new_day_with_revise_date(vault_dir: Path, log: Path) -> None:
    # A three-day agent trial: "the dentist moved me to Thursday the 10th" — revise had no date
    # (remember has), the agent changed the text alone, and the list of Tuesday the 8th still
    # showed the dentist. The day is revise's date now, as it is remember's.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "an appointment that moved: date" in (listed["revise"].description or "")
            booked = await served.call("remember", text="Dentist on Tuesday at 10:00.", layer="L2", date="2099-12-08T10:00")
            moved = await served.call("revise", note=booked["id"], text="Dentist on Thursday at 15:00.", date="2099-12-10T15:00",
                                      if_version=booked["version"])
            assert moved["changed"] == ["body", "title", "expires_at", "date"] and moved["expires_at"] == "2099-12-17T00:00:00+00:00"
            tuesday = await served.call("list_notes", since="2099-12-08", until="2099-12-08")
            thursday = await served.call("list_notes", since="2099-12-10", until="2099-12-10")
            assert tuesday["notes"] == [] and [entry["id"] for entry in thursday["notes"]] == [booked["id"]]
            # A day in words is read (date_read says which day); a range of days is refused, naming its days.
            refused = await served.error("revise", note=booked["id"], date="this week")
            assert "InvalidTimestamp: date: invalid timestamp 'this week' (this week is " in refused, refused
            assert "not one day): give one day" in refused, refused

    run(scenario)


def test_an_agent_is_told_a_memory_left_the_vault_and_finds_a_renamed_one_by_its_old_path(vault_dir: Path, write_note: Callable[..., Path],
                                                                                          log: Path) -> None:
    """Was: "no note matches" for the id the agent was given (a person deleted the note) and for
    the path it kept (a person renamed the note in Obsidian)."""
    init_repo(vault_dir)
    write_note("memories/parking.md", "---\nid: 01M8PARK\nlayer: L3\n---\nParking code 4471.\n")
    write_note("memories/db.md", "---\nid: 01M8DB\nlayer: L3\n---\nPostgres 16 on RDS.\n")
    git(vault_dir, "add", "-A")
    git(vault_dir, "commit", "-qm", "first")
    git(vault_dir, "rm", "-q", "memories/parking.md")
    git(vault_dir, "commit", "-qm", "not needed any more")
    deleting = git(vault_dir, "rev-parse", "HEAD").strip()
    (vault_dir / "memories/db.md").rename(vault_dir / "memories/Harbor DB.md")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            said = await served.error("get", note="01M8PARK")
            assert said.endswith(f"RemovedNote: no note matches '01M8PARK' now: memories/parking.md is no longer in the vault: "
                                 f"deleted in commit {deleting[:10]}; its last text is kept in git (the person's `vaultmem "
                                 "history 01M8PARK` lists its commits), so it can be restored if it is wanted back"), said
            shown = await served.call("get", note="memories/db.md")
            assert shown["path"] == "memories/Harbor DB.md"
            assert shown["resolved_from"] == {"reference": "memories/db.md", "via": "old name"}

    run(scenario)


def test_recall_tells_an_agent_how_to_answer_the_first_or_the_last_time(vault_dir: Path, log: Path) -> None:
    # A trial on a real journal: "the first time I worked on gcov" was the 8th hit by relevance,
    # "the last time I worked on Zephyr" the 3rd; nothing told the agent that hits are not in date order.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            described = listed["recall"].description or ""
            assert "order of relevance, not of date" in described
            assert "\"the first time\" or \"the last time\"" in described
            assert "earliest or latest date" in described

    run(scenario)


def test_long_lists_are_paged_by_offset_over_stdio_as_over_http(vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    """The contract test_mcp_http.py checks on 3,000 problems, on three: one part, its total, and
    an offset past the end or on an apply's answer refused in words."""
    for name in ("a", "b", "c"):
        write_note(f"memories/{name}.md", note(name.upper(), f"Note {name}.", layer="L9"))
    write_note("memories/old.md", note("Old", "The old gate code.", layer="L1", expires_at="2020-01-01"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            whole = await served.call("check")
            assert [problem["path"] for problem in whole["problems"]] == [f"memories/{name}.md" for name in "abc"]
            assert whole["problems_total"] == 3 and whole["next_offset"] is None
            assert "notice" not in whole
            rest = await served.call("check", offset=1)
            assert rest["problems"] == whole["problems"][1:] and rest["problems_total"] == 3
            assert "offset 3 is past the end of check's problems (3 of them)" in await served.error("check", offset=3)
            refused = await served.error("expire", apply=True, offset=1)
            assert "offset pages a dry run's expired; an apply's answer cannot be asked for again, so nothing was done" in refused

    run(scenario)
    assert (vault_dir / "memories/old.md").is_file()  # refused before the apply, not after it


def test_get_of_a_long_excalidraw_drawing_ends_its_first_part_where_the_drawing_s_data_starts(
        vault_dir: Path, log: Path) -> None:
    # A trial: the first part of a 1.7 MB drawing was 100,000 characters, nearly all of them the
    # scene's compressed JSON — in the agent's context to read the drawing's few labels.
    from test_body_edits import EXCALIDRAW_DRAWING

    scene = "\n\n".join("N4KAkARALgngDgUwgLgQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ" * 3 for _ in range(900))
    drawing = EXCALIDRAW_DRAWING.replace("IIAE=", scene)
    (vault_dir / "Kernel.excalidraw.md").write_text(drawing, encoding="utf-8")
    body = drawing[drawing.index("==⚠"):]
    data_at = body.index("%%\n## Drawing")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            first = await served.call("get", note="Kernel.excalidraw")
            assert first["body"] == body[:data_at] and first["next_offset"] == data_at
            assert "Linux Kernel" in first["body"] and "PLUGIN DATA" in first["notice"]
            rest = await served.call("get", note="Kernel.excalidraw", offset=data_at)  # the data, when asked for
            assert rest["body"].startswith("%%\n## Drawing") and "BODY CUT" in rest["notice"]

    run(scenario)


def test_a_read_only_note_refused_over_mcp_asks_for_the_person_not_a_chmod(vault_dir: Path, log: Path,
                                                                           write_note: Callable[..., Path]) -> None:
    # Was: "Make it writable (chmod u+w 'locked.md' …)", a command an agent has no shell for,
    # and the note's protection is the person's to lift. The CLI keeps its chmod.
    locked = write_note("locked.md", note("Locked", "The plumber comes on Tuesday."))
    locked.chmod(0o444)
    before = locked.read_bytes()

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            refused = await served.error("revise", note="locked.md", append="And on Friday.")
            assert "ReadOnlyNote: locked.md is read-only (mode 0444)" in refused, refused
            assert "chmod" not in refused and "Ask the person to make it writable" in refused, refused

    run(scenario)
    assert locked.read_bytes() == before
    cli = run_cli(vault_dir, "revise", "locked.md", "--append", "And on Friday.")
    assert cli.exit_code == 1 and "chmod u+w 'locked.md'" in cli.stderr, cli.stderr


def test_recall_says_it_is_not_confident_when_no_note_matches_the_question_well(sample_vault: Path, log: Path) -> None:
    """Stop 35's closing note: an agent asked something the vault never says got hits that read
    as answers. recall now carries ``confident`` (added beside hits and warnings, nothing
    renamed): false, with a warning saying the best score, when no hit scores above 0.05."""
    async def scenario() -> None:
        async with serve(sample_vault, log) as served:
            unanswered = await served.call("recall", query="which vaccine did I get last winter")
            assert unanswered["hits"]
            assert unanswered["confident"] is False
            assert [warning for warning in unanswered["warnings"] if warning.startswith("no note matches this well")], unanswered
            answered = await served.call("recall", query="oat milk in coffee")
            assert answered["confident"] is True
            assert answered["hits"][0]["path"].startswith("preferences/")

    run(scenario)


# ------------------------------------------------------------------ an agent's week on a real vault (s38 trial)


def test_get_by_the_old_name_of_a_note_consolidate_merged_opens_the_note_it_went_into(
        vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    # An agent trial: after consolidate(apply=true), get(merged note's id) opened the kept note, but
    # get by the name the person had given its file said "archived … move it out of _archive/ to make
    # it a note again" — a second copy of a fact the kept note holds already.
    write_note("memories/How I take my coffee.md", note("Coffee preference", "Takes coffee with oat milk, never dairy; one sugar.",
                                                         layer="L4", id="coffee-1"))
    write_note("memories/coffee-2.md", note("Coffee, again", "She likes her coffee with oat milk and a single sugar, no cow milk.",
                                            layer="L4", id="coffee-2"))

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            applied = await served.call("consolidate", threshold=0.7, apply=True)
            assert [entry["canonical"] for entry in applied["merged"]] == ["memories/coffee-2.md"]
            for reference in ("How I take my coffee", "memories/How I take my coffee.md"):
                opened = await served.call("get", note=reference)
                assert opened["path"] == "memories/coffee-2.md", (reference, opened)
                assert opened["resolved_from"]["via"] == "merged_from"
                assert opened["resolved_from"]["archived"] == "_archive/memories/How I take my coffee.md"
                assert "was merged from: that note was archived and is _archive/memories/How I take my coffee.md now" in opened["notice"]
            archived = await served.call("get", note="_archive/memories/How I take my coffee.md")
            assert archived["archived"] is True  # its archive path still reads the file itself
            why = await served.call("explain", note="How I take my coffee", query="oat milk coffee", k=3)
            assert why["path"] == "memories/coffee-2.md" and why["in_answer"] is True  # explain names it as get does

    run(scenario)


def test_forget_by_the_id_of_a_superseded_archived_note_forgets_nothing_and_names_the_newer_fact(vault_dir: Path, log: Path) -> None:
    # An agent trial: "forget my old address" — forget(old id) after expire(apply=true) archived the
    # NEW address, the note that superseded it (the id resolves there, as a read's does).
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            old = await served.call("remember", text="I live in Porto, in Bonfim.", title="Home in Porto", layer="L3")
            new = await served.call("remember", text="I live in Lisbon, in Alfama.", title="Home in Lisbon", layer="L3",
                                    supersedes=[old["id"]])
            await served.call("expire", apply=True)
            before = snapshot_files(vault_dir)
            refused = await served.error("forget", note=old["id"])
            assert refused.startswith(f"Error executing tool forget: SupersededReference: {old['id']!r} names a note that "
                                      f"{new['path']} superseded: it was archived and is _archive/{old['path']} now"), refused
            assert "Nothing was forgotten" in refused and f"To forget the newer fact, name {new['path']}" in refused, refused
            assert snapshot_files(vault_dir) == before
            assert (await served.call("get", note=new["id"]))["path"] == new["path"]

    run(scenario)


def test_revise_of_a_note_whose_yaml_does_not_load_says_so_beside_the_title_and_tags_it_could_not_read(
        vault_dir: Path, write_note: Callable[..., Path], log: Path) -> None:
    # An agent trial: the person broke a memory's YAML by hand; revise(append=…) wrote the body (right)
    # and answered title = the file's name and tags = [] — not what the file says — without a word why.
    write_note("memories/ana.md", "---\nid: ana-1\ntitle: Ana helps with the flat\nlayer: L3\nnote: she said: call me after 6\n"
                                  "tags:\n  - people\n---\nAna (architect) helps with the flat search.\n")

    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            revised = await served.call("revise", note="ana-1", append="Her number is in my phone under Ana Arq.")
            # Its title line is still read, line by line (notes.salvage_lifecycle); its tags list is not.
            assert (revised["title"], revised["tags"], revised["changed"]) == ("Ana helps with the flat", [], ["body"])
            [problem] = revised["problems"]
            assert problem["path"] == "memories/ana.md" and problem["field"] == "frontmatter"
            assert problem["message"].startswith("YAML does not load at line 5")
            assert problem["fix"].startswith("fix the YAML")

    run(scenario)
    assert (vault_dir / "memories/ana.md").read_text(encoding="utf-8").endswith("search.\n\nHer number is in my phone under Ana Arq.\n")


def test_recall_of_the_past_puts_the_replacing_note_first_and_remember_names_what_a_supersede_retired_unsaid(
        vault_dir: Path, log: Path) -> None:
    # An agent trial (s39): with include_expired the retired "workshop moves online" ranked above the
    # cancellation that replaced it; and a note of two facts superseded by a note of one hid both,
    # with nothing in remember's answer to say so.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            listed = {tool.name: tool for tool in (await served.session.list_tools()).tools}
            assert "unsaid (what they said that this text does not)" in (listed["remember"].description or "")
            online = await served.call("remember", text="Friday workshop moves online because of the train strike on "
                                       "Thursday and Friday.", layer="L2")
            cancelled = await served.call("remember", text="The Friday cartography workshop is cancelled this week (not "
                                          "online after all); next session is 2026-12-11.", supersedes=[online["id"]])
            hits = (await served.call("recall", query="is the workshop on friday happening", k=3, include_expired=True))["hits"]
            assert [hit["path"] for hit in hits[:2]] == [cancelled["path"], online["path"]], hits
            assert hits[1]["expired"] is True

            both = await served.call("remember", text="Maya's locker is 14; her gym is Fitness Hut.", layer="L3")
            one = await served.call("remember", text="Maya's locker is 27 now.", supersedes=[both["id"]])
            assert one["unsaid"] == [{"id": both["id"], "path": both["path"],
                                      "statements": ["Maya's locker is 14", "her gym is Fitness Hut."], "more": 0}]
            assert '"her gym is Fitness Hut."' in one["notice"] and "remember it again" in one["notice"]
            plain = await served.call("remember", text="The dentist is Dr. Almeida.", layer="L3")
            assert plain["unsaid"] == [] and "notice" not in plain  # nothing superseded: nothing said

    run(scenario)


def test_a_retired_hit_whose_successor_the_tag_filter_leaves_out_says_so_and_why(vault_dir: Path, log: Path) -> None:
    # s41's leftovers: recall(include_expired=true, tags=["kids"]) answered the retired "Tuesdays"
    # note with "superseded by X" while X, tagged otherwise, was nowhere in the answer: the warning
    # read as if the current fact were beside it. The filter holds (X is not brought in, it lacks
    # the tag); the warning says X is not in the answer, which filter leaves it out, and how to read it.
    async def scenario() -> None:
        async with serve(vault_dir, log) as served:
            old = await served.call("remember", text="Priya's swim lessons are on Tuesdays at the Alvalade pool.",
                                    layer="L3", tags=["kids"])
            new = await served.call("remember", text="Priya's swim lessons moved to Thursdays at the Alvalade pool.",
                                    layer="L3", tags=["sport"], supersedes=[old["id"]])
            hits = (await served.call("recall", query="when are Priya's swim lessons", include_expired=True,
                                      tags=["kids"]))["hits"]
            assert [hit["path"] for hit in hits] == [old["path"]]
            assert (f"superseded by {new['id']} ({new['path']}), which this answer does not hold: this search's tags "
                    f"(kids) leave it out; get {new['id']} reads it") in hits[0]["warnings"], hits[0]["warnings"]
            # Without the filter the successor is in the answer, and the warning says no more than before.
            hits = (await served.call("recall", query="when are Priya's swim lessons", include_expired=True))["hits"]
            assert [hit["path"] for hit in hits][:2] == [new["path"], old["path"]]
            assert f"superseded by {new['id']} ({new['path']})" in hits[1]["warnings"], hits[1]["warnings"]

    run(scenario)
