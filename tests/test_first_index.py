"""A command that must index before it answers says so before the wait.

A new user's first ``search`` on 3,000 notes sat 22 s with no output, and was taken for a hang.
Every CLI read that indexes first (never indexed, or made by an earlier vaultmem) now says why,
how many notes and about how long on stderr; piped, one line and none per note. The Python
API prints nothing: it logs the wait (logger ``vaultmem``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run_cli

from vaultmem import Vault
from vaultmem.searchable import INDEX_RULES
from vaultmem.storage import READER_KEY

NOTES = 300  # over the CLI's 200: a wait worth a line (the hashing embedder keeps it short here)
WORDS = "harbor lantern meadow copper violin glacier orchard pepper tunnel falcon".split()
FIRST_LINE = f"indexing {NOTES} notes for the first time (about 5 s; `vaultmem index` does it ahead)…"


def many_notes(vault: Path, count: int = NOTES) -> Path:
    (vault / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    for number in range(count):
        body = " ".join(random.Random(number).choice(WORDS) for _ in range(40))
        (vault / f"note-{number:04d}.md").write_text(f"# Note {number}\n\n{body}\n", encoding="utf-8")
    return vault


def test_first_search_says_on_stderr_that_it_indexes_first_one_line_when_piped(tmp_path: Path) -> None:
    vault = many_notes(tmp_path)
    result = run_cli(vault, "search", "copper violin", "-k", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [FIRST_LINE]  # no progress bar off a terminal, no line per note
    assert "note-" in result.stdout
    assert "indexing" not in result.stdout


@pytest.mark.parametrize("command", [["list", "-k", "1"], ["get", "note-0001"], ["stats"]])
def test_every_read_that_indexes_first_says_so(tmp_path: Path, command: list[str]) -> None:
    vault = many_notes(tmp_path)
    result = run_cli(vault, *command)
    assert result.exit_code == 0, result.output
    assert FIRST_LINE in result.stderr.splitlines()


def test_a_read_of_an_indexed_vault_says_nothing_of_indexing(tmp_path: Path) -> None:
    vault = many_notes(tmp_path)
    assert run_cli(vault, "index").exit_code == 0
    result = run_cli(vault, "search", "copper violin", "-k", "2")
    assert result.exit_code == 0
    assert "note-" in result.stdout
    assert result.stderr == ""


def test_a_small_first_index_is_not_announced(tmp_path: Path) -> None:
    vault = many_notes(tmp_path, count=20)  # done in a blink: a line would be noise
    result = run_cli(vault, "search", "copper violin", "-k", "2")
    assert result.exit_code == 0
    assert "note-" in result.stdout
    assert result.stderr == ""


def test_an_upgrade_that_reads_every_note_again_says_why(tmp_path: Path) -> None:
    vault = many_notes(tmp_path)
    assert run_cli(vault, "index").exit_code == 0
    with Vault(vault) as opened:
        opened.store.meta.set(READER_KEY, "reader-1/an-earlier-vaultmem")  # rows an earlier version made
    result = run_cli(vault, "search", "copper violin", "-k", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"vaultmem was upgraded: reading every note again once ({NOTES} notes, about 5 s; `vaultmem index` does it ahead)…"]
    with Vault(vault) as opened:
        assert opened.store.meta.get(READER_KEY) == INDEX_RULES


def test_the_python_api_prints_nothing_and_logs_the_wait(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          caplog: pytest.LogCaptureFixture) -> None:
    vault = many_notes(tmp_path)
    caplog.set_level(logging.INFO, logger="vaultmem")
    with Vault(vault) as opened:
        assert opened.search("copper violin", k=2)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ""
    assert [record.getMessage() for record in caplog.records if "first time" in record.getMessage()] == [
        f"{vault}: {FIRST_LINE}"]


def test_the_python_api_hands_the_wait_to_whoever_asked(tmp_path: Path) -> None:
    from vaultmem.index_progress import FIRST, UPGRADED, IndexWait

    vault = many_notes(tmp_path)
    told: list[object] = []
    read: list[int] = []

    def shown(wait: object) -> Callable[[int], None]:
        told.append(wait)
        return read.append

    with Vault(vault, on_index_wait=shown) as opened:
        opened.search("copper violin", k=2)
        opened.search("copper violin", k=2)  # indexed now: nothing more to say
    assert told == [IndexWait(FIRST, NOTES, NOTES)]
    assert sum(read) == NOTES
    assert IndexWait(UPGRADED, 3000, 3000).__str__() == (
        "vaultmem was upgraded: reading every note again once (3,000 notes, about 20 s; `vaultmem index` does it ahead)…")


def test_a_piped_index_of_many_notes_says_it_started_and_how_far_it_is(tmp_path: Path) -> None:
    # Was: piped (a log file, cron), `index` printed nothing until its summary — 8 minutes of
    # silence on a vault of 16,500 notes, a log that could not tell a hang from work — and on a
    # terminal the bar stood full for the last 2 of them.
    vault = many_notes(tmp_path, count=600)  # more than one chunk of 512: a line between them
    result = run_cli(vault, "index")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == ["indexing 600 of 600 notes…", "indexed 512 of 600 notes", "all 600 notes read; "
                                          "finishing the index (its full text and its vector search graph)…"]
    assert result.stdout.startswith(f"indexed {vault}: 600 added")


def test_a_piped_index_of_few_notes_says_nothing_while_it_runs(tmp_path: Path) -> None:
    vault = many_notes(tmp_path, count=20)
    result = run_cli(vault, "index")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
