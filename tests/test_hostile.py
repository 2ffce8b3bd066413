"""A hostile note cannot take the vault down: YAML bombs, deep nesting, huge values, huge notes.

Every vaultmem process here runs under an address-space cap (RLIMIT_AS), so a regression
fails the test with a MemoryError instead of taking the machine down.
"""

from __future__ import annotations

import json
import random
import subprocess
import textwrap
from pathlib import Path

import pytest

from helpers import (WatchProcess, process_env, python_capped, snapshot_files, vaultmem_capped, vaultmem_command,
                     wait_until)
from mcp_client import run, serve
from vaultmem.notes import MAX_FRONTMATTER_CHARS, MAX_YAML_DEPTH, parse_note

BOMB = textwrap.dedent(
    """\
    ---
    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
    layer: L3
    title: *i
    tags: *i
    aliases: *i
    ---
    The body of the bomb is ordinary text about lollipops.
    """
)


# ---------------------------------------------------------------- frontmatter bounds


def test_a_yaml_alias_bomb_is_a_frontmatter_problem_and_every_command_survives_it(vault_dir: Path, write_note) -> None:
    bomb = write_note("bomb.md", BOMB)
    write_note("ok.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nAn ordinary note about tea.\n")
    before = bomb.read_bytes()
    index = vaultmem_capped(vault_dir, "index", "--json")
    assert index.returncode == 0, index.stderr[-2000:]  # was: MemoryError
    problems = json.loads(index.stdout)["problems"]
    assert [problem["path"] for problem in problems if problem["field"] == "frontmatter"] == ["bomb.md"]
    assert "aliases" in problems[0]["message"] and len(json.dumps(problems)) < 2000
    get = vaultmem_capped(vault_dir, "get", "bomb", "--json")
    assert get.returncode == 0, get.stderr[-2000:]  # was: past 11 GB
    assert json.loads(get.stdout)["meta"] == {"layer": "L3"} and len(get.stdout) < 5000  # its lifecycle line, read alone
    search = vaultmem_capped(vault_dir, "search", "lollipops", "--json")
    assert search.returncode == 0 and json.loads(search.stdout)[0]["path"] == "bomb.md"
    fix = vaultmem_capped(vault_dir, "check", "--fix", "--json")
    assert fix.returncode == 1 and json.loads(fix.stdout)["fixed"] == []
    assert bomb.read_bytes() == before  # nothing written


TEA = "---\nlayer: L3\nexpires_at: 2999-01-01\n---\nAn ordinary note about green tea.\n"
MARMALADE = "---\nlayer: L3\nexpires_at: 2999-01-01\n---\nA later note about bitter orange marmalade.\n"


@pytest.mark.slow
def test_a_watch_process_meets_a_yaml_alias_bomb_reports_it_and_keeps_indexing(vault_dir: Path, write_note,
                                                                              tmp_path: Path) -> None:
    write_note("ok.md", TEA)
    watcher = WatchProcess(vault_dir, tmp_path, capped=True)
    try:
        watcher.wait_ready()
        write_note("bomb.md", BOMB)  # written while it watches: met by the watcher, not the start-up reconcile
        wait_until(lambda: "added bomb.md" in watcher.output(), timeout=120, what="the watcher to index the bomb")
        write_note("later.md", MARMALADE)
        wait_until(lambda: "added later.md" in watcher.output(), timeout=120, what="the watcher to keep indexing")
        assert watcher.process.poll() is None  # was: MemoryError, and nothing watched any more
        search = vaultmem_capped(vault_dir, "search", "lollipops", "--json")  # beside the running watcher
        assert search.returncode == 0, search.stderr[-2000:]
        assert json.loads(search.stdout)[0]["path"] == "bomb.md"
    finally:
        code = watcher.stop()
    assert code == 0, watcher.errors()[-2000:]
    assert "Traceback" not in watcher.errors() and "MemoryError" not in watcher.errors()
    [line] = [line for line in watcher.output().splitlines() if "added bomb.md" in line]
    assert "! frontmatter:" in line and "aliases" in line and len(line) < 1000  # the problem, said in bounded words


@pytest.mark.slow
def test_the_mcp_server_answers_recall_and_get_with_a_yaml_alias_bomb_in_the_vault(vault_dir: Path, write_note,
                                                                                 tmp_path: Path) -> None:
    write_note("bomb.md", BOMB)  # there at start-up: the server's first reconcile reads it
    write_note("ok.md", TEA)
    log = tmp_path / "server-stderr.log"

    async def scenario() -> None:
        async with serve(vault_dir, log, capped=True) as served:
            hits = (await served.call("recall", query="lollipops"))["hits"]
            assert hits[0]["path"] == "bomb.md"
            assert any("frontmatter" in warning for warning in hits[0]["warnings"])
            got = await served.call("get", note="bomb")
            assert got["meta"] == {"layer": "L3"} and len(json.dumps(got)) < 5000  # its lifecycle line, read alone
            assert [problem["field"] for problem in got["problems"]] == ["frontmatter"]
            # Another bomb written while it serves: met by the server's own watcher or by recall.
            write_note("bomb2.md", BOMB.replace("lollipops", "marzipan"))
            hits = (await served.call("recall", query="marzipan"))["hits"]
            assert hits[0]["path"] == "bomb2.md"
            hits = (await served.call("recall", query="green tea"))["hits"]
            assert hits[0]["path"] == "ok.md"  # and every other note is still served

    run(scenario)
    errors = log.read_text(encoding="utf-8")
    assert "Traceback" not in errors and "MemoryError" not in errors, errors[-2000:]


@pytest.mark.parametrize(
    ("name", "frontmatter", "reason"),
    [
        ("recursive", "a: &a [1, *a]\n", "refers to itself"),
        ("deep", "".join("  " * level + f"k{level}:\n" for level in range(MAX_YAML_DEPTH + 5)) + "  " * (MAX_YAML_DEPTH + 5) + "end: 1\n", "deeper"),
        ("wide", "big: [" + ",".join(["&x 'y'"] + ["*x"] * 10) + "]\n" + "more: " + "x" * (MAX_FRONTMATTER_CHARS + 1) + "\n", "characters"),
        ("expanding", "s: &s '" + "x" * 50_000 + "'\nt: [" + ",".join(["*s"] * 60) + "]\n", "expands"),
    ],
)
def test_a_frontmatter_past_a_bound_does_not_load_and_says_which_bound(name: str, frontmatter: str, reason: str) -> None:
    note = parse_note(f"{name}.md", f"---\n{frontmatter}layer: L3\n---\nbody\n".encode())
    # Only the lifecycle lines are read, one by one (notes.salvage_lifecycle, adr/0020).
    assert note.meta == {"layer": "L3"} and note.body == "body\n"
    assert [problem.field for problem in note.problems] == ["frontmatter"]
    assert reason in note.problems[0].message and len(note.problems[0].message) < 300


def test_ordinary_aliases_still_load() -> None:
    note = parse_note("a.md", b"---\nbase: &b {city: Lisbon}\nhome: *b\nlayer: L3\nexpires_at: 2027-01-01\n---\nx\n")
    assert note.meta["home"] == {"city": "Lisbon"} and note.problems == ()


def test_a_huge_garbage_value_never_becomes_a_huge_message_or_repr() -> None:
    garbage = "not a date " * 50_000
    note = parse_note("g.md", f"---\nlayer: semantic-ish\nexpires_at: {garbage}\npermanent: [{', '.join(['yes'] * 50_000)}]\n---\nx\n".encode())
    assert {problem.field for problem in note.problems} >= {"layer", "expires_at", "permanent"}
    assert all(len(str(problem)) < 1000 for problem in note.problems)
    assert len(repr(note)) < 500


# ---------------------------------------------------------------- huge notes


def huge_text(megabytes: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    words = [f"w{number}" for number in range(30_000)]
    line = " ".join(rng.choice(words) for _ in range(20_000)) + "\n"
    return line * (megabytes * 2**20 // len(line) + 1)


def test_a_huge_note_is_indexed_in_bounded_memory_and_found_by_its_last_word(vault_dir: Path, write_note) -> None:
    # 12 MB: WordLlama padded its batch to this note and asked for ~25 GB.
    write_note("big.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\n" + huge_text(12) + "thelastwordofthebignote\n")
    write_note("small.md", "---\nlayer: L3\nexpires_at: 2027-01-01\n---\nA small note about tea.\n")
    index = vaultmem_capped(vault_dir, "index")
    assert index.returncode == 0, index.stderr[-2000:]
    search = vaultmem_capped(vault_dir, "search", "thelastwordofthebignote", "--json")
    assert search.returncode == 0, search.stderr[-2000:]
    assert [hit["path"] for hit in json.loads(search.stdout)][:1] == ["big.md"]  # the full-text side has every word
    assert vaultmem_capped(vault_dir, "search", "tea", "--json").returncode == 0
    assert vaultmem_capped(vault_dir, "get", "big", "--json").returncode == 0


REMEMBER_HUGE = textwrap.dedent(
    """
    import sys
    from vaultmem import Vault
    vault = Vault(sys.argv[1])
    text = open(sys.argv[2], encoding="utf-8").read()
    note = vault.remember(text, layer="L3")
    hits = vault.search("thelastwordofthebignote")
    print(note.path, hits[0].path if hits else None)
    """
)


def test_remember_of_a_huge_text_works_in_bounded_memory(vault_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "huge.txt"
    source.write_text(huge_text(12) + "thelastwordofthebignote\n", encoding="utf-8")
    result = python_capped(REMEMBER_HUGE, str(vault_dir), str(source))
    assert result.returncode == 0, result.stderr[-2000:]
    path, found = result.stdout.split()
    assert path == found and (vault_dir / path).stat().st_size > 12 * 2**20


# ---------------------------------------------------------------- text that is not text


CUT_EMOJI = "brain \ud83e"  # an emoji's first half alone: JSON carries it as an escape; no UTF-8 holds it


@pytest.mark.parametrize(("call", "argument"), [
    pytest.param(lambda vault: vault.get(CUT_EMOJI), "note", id="get"),
    pytest.param(lambda vault: vault.search(CUT_EMOJI), "query", id="search"),
    pytest.param(lambda vault: vault.search("tea", tags=[CUT_EMOJI]), "tags", id="search-tag"),
    pytest.param(lambda vault: vault.list_notes(tags=[CUT_EMOJI]), "tags", id="list-tag"),
    pytest.param(lambda vault: vault.tasks(query=CUT_EMOJI), "query", id="tasks"),
    pytest.param(lambda vault: vault.explain("tea", CUT_EMOJI), "query", id="explain"),
    pytest.param(lambda vault: vault.mark_used([CUT_EMOJI]), "notes", id="used"),
    pytest.param(lambda vault: vault.forget(CUT_EMOJI), "note", id="forget"),
    pytest.param(lambda vault: vault.revise("tea", set_properties={"mood": CUT_EMOJI}), "set_properties", id="revise-set"),
])
def test_a_lone_surrogate_in_an_argument_is_refused_naming_the_argument(vault_dir: Path, write_note, call, argument) -> None:
    from vaultmem import Vault
    from vaultmem.errors import UsageError

    write_note("tea.md", TEA)
    vault = Vault(vault_dir)
    vault.index()
    before = snapshot_files(vault_dir)
    with pytest.raises(UsageError, match=rf"^{argument} holds '\\ud83e' at character 7, which is not text"):
        call(vault)  # was: UnicodeEncodeError from SQLite, TypeError from the tokenizer
    assert snapshot_files(vault_dir) == before


def test_remember_with_a_title_that_is_not_text_writes_nothing(vault_dir: Path) -> None:
    from vaultmem import Vault
    from vaultmem.errors import UsageError

    vault = Vault(vault_dir)
    with pytest.raises(UsageError, match="^title holds"):  # was: NoteWritten, a note whose YAML does not load
        vault.remember("the café on the corner", title=CUT_EMOJI, layer="L2")
    assert list(vault_dir.rglob("*.md")) == []


def test_the_cli_refuses_a_byte_that_is_not_utf8_in_note_or_query_with_exit_2(vault_dir: Path, write_note) -> None:
    write_note("tea.md", TEA)
    # A shell passes \xff as it is; Python reads it as '\udcff' (surrogateescape).
    for args, named in [(["get", "--", b"\xff".decode("utf-8", "surrogateescape")], "NOTE"),
                        (["search", "--", "tea " + b"\xff".decode("utf-8", "surrogateescape")], "QUERY"),
                        (["list", "--tag", b"\xfe".decode("utf-8", "surrogateescape")], "--tag")]:
        result = subprocess.run(vaultmem_command(vault_dir, *args), capture_output=True, env=process_env(), timeout=120)
        stderr = result.stderr.decode("utf-8", "replace")
        assert result.returncode == 2 and "Traceback" not in stderr, stderr[-2000:]  # was: exit 1 with a traceback
        assert f"Error: {named} holds" in stderr



def test_get_or_forget_of_a_file_whose_name_is_not_utf8_says_rename_it_not_send_utf8(vault_dir: Path, write_note) -> None:
    # A shell hands `get caf$'\xe9'.md` over as 'caf\udce9.md'. Was: "not text … Send the text as
    # UTF-8 … no note holds it" — but the file is there, and only renaming it lets vaultmem read it.
    import os

    write_note("tea.md", TEA)
    with open(os.path.join(os.fsencode(vault_dir), b"caf\xe9.md"), "wb") as handle:  # a Latin-1 name from an old zip
        handle.write(b"# Cafe\n")
    name = b"caf\xe9.md".decode("utf-8", "surrogateescape")
    for args in (["get", "--", name], ["forget", "--", "./" + name], ["get", "--", name[:-3]]):
        result = subprocess.run(vaultmem_command(vault_dir, *args), capture_output=True, env=process_env(), timeout=120,
                                cwd=vault_dir)
        stderr = result.stderr.decode("utf-8", "replace")
        assert result.returncode == 2 and "Traceback" not in stderr, stderr[-2000:]
        assert "Error: NOTE names caf\ufffd.md, a file whose name is not UTF-8" in stderr, stderr
        assert "rename it to a UTF-8 name" in stderr and "Send the text as UTF-8" not in stderr
    assert (vault_dir / name).exists()
    # A name that is no file keeps the first message; one outside the vault is not looked for.
    (vault_dir.parent / name).write_bytes(b"outside\n")
    from vaultmem import Vault
    from vaultmem.errors import UsageError

    for reference in (b"n\xe9ant.md".decode("utf-8", "surrogateescape"), "../" + name, str(vault_dir.parent / name)):
        with pytest.raises(UsageError, match=r"^note holds '\\udce9'"):
            Vault(vault_dir).get(reference)
