"""A terminal's control sequences are no words of a note (terminal_codes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem import Vault

NOW = "2026-11-30T12:00:00+00:00"
COLOURED = "psql said \x1b[1;31mquokkafail\x1b[0m when the pgbouncer pool was full"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[31mError\x1b[39m: connect ECONNREFUSED", "Error: connect ECONNREFUSED"),
        ("\x9b1mbold\x9b0m", "bold"),
        ("ok\x1b(B\x1b[m done", "ok done"),  # tput sgr0
        ("\x1b]0;a window title\x07prompt", "prompt"),
        ("\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b[2K\x1b[1Gline one\n\x1b[32m✓\x1b[0m line two", "line one\n✓ line two"),
        ("no codes at all: C:\\x1b[31m typed as text", "no codes at all: C:\\x1b[31m typed as text"),
    ],
)
def test_terminal_codes_are_left_out_and_every_line_stays(text: str, shown: str) -> None:
    from vaultmem.terminal_codes import without_terminal_codes

    assert without_terminal_codes(text) == shown
    assert without_terminal_codes(text).count("\n") == text.count("\n")


def test_a_word_in_colour_codes_is_found_by_its_keyword_and_the_file_keeps_the_codes(tmp_path: Path) -> None:
    """Was (s33, a TIL vault): `ESC [1;31mquokkafail` was the word `31mquokkafail`: the full-text
    side found no passage holding `quokkafail` (explain said so), the title read
    `psql said [1;31mquokkafail[0m …` and the file name `psql-said-1-31mquokkafail-0m-…`."""
    with Vault(tmp_path) as vault:
        made = vault.remember(COLOURED, layer="L3", now=NOW)
        assert made.title == "psql said quokkafail when the pgbouncer pool was full"
        assert made.path == "memories/psql-said-quokkafail-when-the-pgbouncer-pool-was.md"
        assert vault.get(made.path).body == COLOURED + "\n"  # the bytes given, codes and all
        explained = vault.explain(made.path, "quokkafail", now=NOW)
        assert explained.rank["text"] == 1 and explained.match == "both"
        hit = vault.search("quokkafail", k=1, now=NOW)[0]
        assert hit.path == made.path and "\x1b" not in hit.snippet and "quokkafail when" in hit.snippet
