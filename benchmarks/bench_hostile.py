"""Hostile note text: how long parsing and link rewriting take on inputs built to be slow.

Regexes with a lazy ``.*?`` or nested repetition can take time quadratic in a note's size
(a note of 20,000 unclosed ``` fences once took 11 s to index). Each case is timed at two
sizes; the ``growth`` of time when the input doubles should stay near 2 (linear), not 4.

    python -m benchmarks.bench_hostile [--size 100000]

Prints one JSON document on stdout.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from vaultmem.dating import note_date
from vaultmem.links import LinkRedirects, rewrite_canvas, rewrite_links
from vaultmem.markdown import code_ranges
from vaultmem.notes import parse_note
from vaultmem.snippets import property_lines, readable, visible

REDIRECTS = LinkRedirects(["merged.md", "canonical.md"], {"merged.md": "canonical.md"})

# name → text of about n characters
CASES: dict[str, Callable[[int], str]] = {
    "unclosed_fences": lambda n: "```python\n#tag\n" * (n // 15),
    "backtick_runs": lambda n: "".join("`" * (1 + i % 7) + " x " for i in range(n // 6)),
    "growing_backtick_runs": lambda n: _growing_runs(n),  # no run has a partner
    "fences_growing": lambda n: _growing_fences(n),  # each fence longer than any later one
    "list_fences_unclosed": lambda n: "- ```sh\n  x [[merged]] #t\n" * (n // 26),
    "open_brackets": lambda n: "[" * n,
    "link_text_no_destination": lambda n: "[a](" * (n // 4),
    "nested_brackets": lambda n: "[[x]" * (n // 4),
    "many_links": lambda n: "[m](merged.md) [[merged]] " * (n // 26),
    "definition_like_lines": lambda n: "[r]: merged.md \"unclosed title\n" * (n // 31),
    "one_long_definition_line": lambda n: "[r]: merged.md " + "x " * (n // 2),
    # YAML that does not load, read again line by line (notes.salvage_lifecycle):
    "salvage_blank_run": lambda n: "---\ntitle: a: b\nid: a" + " " * n + "b\n---\nbody\n",
    "salvage_many_lines": lambda n: "---\ntitle: a: b\n" + "expires_at: 2026-01-01\n" * (n // 23) + "---\nbody\n",
    # A frontmatter line of spaces without a colon (snippets.property_lines reads every hit's):
    "property_blank_run": lambda n: "---\na" + " " * n + "b\n---\nbody\n",
    # Comment openers without closers, and many short comments (markdown.hidden_ranges, for tags and snippets):
    "unclosed_comments": lambda n: "<!-- #t " * (n // 8),
    "many_comments": lambda n: "%%a%% #t " * (n // 9),
    "code_spans_after_a_comment": lambda n: "%% c %%\n" + "`x` " * (n // 4),  # snippets._fence_around, per span
    "inline_comment_openers_one_line": lambda n: "x" + "<!-- #t <script " * (n // 16),  # where on its line is each?
    # A date property that opens a link and runs on in spaces (dating._LINKED_DATE; a 200 KB one took 40 s):
    "linked_date_spaces": lambda n: '---\ndate: "[[' + " " * n + 'x"\n---\nbody\n',
    # A frontmatter list of distinct tags (notes.tags_of; was O(n²): 50,000 tags took 18 s):
    "many_frontmatter_tags": lambda n: "---\ntags:\n" + "".join(f"  - t{i}\n" for i in range(n // 10)) + "---\nbody\n",
    # What a snippet hides or unwraps (snippets.readable): tags, comments and footnotes never closed.
    "html_tags_unclosed": lambda n: "<a " * (n // 3),
    "html_tag_endless_attributes": lambda n: "<div " + "x=1 " * (n // 4),
    "html_comments_unclosed": lambda n: "text <!-- " + "-- > " * (n // 5),
    "script_closers_unfinished": lambda n: "<script>" + "</script " * (n // 9),
    "comment_markers_in_code": lambda n: "`%%` `<!--` " * (n // 12),
    "footnote_openers": lambda n: "[^" * (n // 2),
    "entity_like_words": lambda n: "&amp" * (n // 4),
}


def _growing_runs(n: int) -> str:
    pieces, length, size = [], 1, 0
    while size < n:
        pieces.append("`" * length + " x ")
        size += length + 3
        length += 1
    return "".join(pieces)


def _growing_fences(n: int) -> str:
    lines, length, size = [], 3, 0
    while size < n // 2:
        lines.append("`" * length)
        size += length + 1
        length += 1
    return "\n".join(reversed(lines)) + "\n" + "filler [[merged]]\n" * (n // 36)


def _read(raw: bytes) -> object:
    """What indexing reads of a note: its tags (outside code and comments) and its date."""
    note = parse_note("hostile.md", raw)
    return note.tags, note_date(note.meta, note.path)


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def measure(size: int) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    for name, make in CASES.items():
        row: dict[str, float] = {}
        for label, n in (("small", size // 2), ("large", size)):
            text = make(n)
            raw = text.encode("utf-8")
            canvas = json.dumps({"nodes": [{"type": "text", "text": text}]})
            row[f"parse_s_{label}"] = timed(lambda: _read(raw))
            row[f"code_s_{label}"] = timed(lambda: code_ranges(text))
            row[f"rewrite_s_{label}"] = timed(lambda: rewrite_links(text, REDIRECTS, "x.md"))
            row[f"canvas_s_{label}"] = timed(lambda: rewrite_canvas(canvas, REDIRECTS, "x.canvas"))
            row[f"snippet_s_{label}"] = timed(lambda: (property_lines(text), readable(text), visible(text, 0, len(text) // 2, len(text))))
        for step in ("parse", "code", "rewrite", "canvas", "snippet"):
            small, large = row[f"{step}_s_small"], row[f"{step}_s_large"]
            row[f"{step}_growth"] = round(large / small, 2) if small > 1e-4 else 0.0
        results[name] = {key: round(value, 5) for key, value in row.items()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_hostile", description=__doc__)
    parser.add_argument("--size", type=int, default=100_000, help="characters of the larger input (default 100,000)")
    arguments = parser.parse_args()
    print(json.dumps({"size_chars": arguments.size, "cases": measure(arguments.size)}, indent=2))


if __name__ == "__main__":
    main()
