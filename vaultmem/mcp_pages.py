"""Answers that fit an MCP client: a long list comes in parts (adr/0015, "Answers that fit a client").

The SDK's HTTP client refuses an event over 1 MiB, and a tool's answer goes out twice — as
structured data and as its text (JSON indented by two, escaped once more inside the message).
``get`` already returns a long body in parts; ``check``'s problems, ``expire``'s expired notes
and ``consolidate``'s clusters are lists that grow with the vault (10,000 memories without a
deadline are 10,000 problems), so they come in parts the same way: ``offset`` says where to
start, ``next_offset`` (null at the end) where the next part starts, ``<list>_total`` how many
there are in all, and a notice says so. Every other list in such an answer is cut to a few
kilobytes with its ``<list>_total`` beside it.

A list about the whole answer rather than its part — a dry run's ``links_rewritten``, the files
whose links the apply would rewrite (a Notion export's pages link to each other by file name, so
a merge of its copies rewrites many) — comes once, in the first part; the later parts carry it
empty beside its ``<list>_total`` and a notice that names the part holding it. It came again
whole on every part: one plan's 400 files 40 times over.

An apply's answer cannot be asked for again (the notes are already archived or merged), so
its list is cut, not paged: the notice says how many more were done and where they are.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

# Bytes of a list's part, as the text answer spells it (indented JSON, UTF-8). Twice that plus
# its escaping stays far under the client's 1 MiB.
PAGE_BYTES = 250_000
SIDE_BYTES = 10_000  # each other list of the same answer
# check's parts: 117 problems of one templates folder were 86 KB in one part (a trial); said once in
# ``groups``, their problems are for the agent that asks for them, a few dozen a part.
CHECK_PAGE_BYTES = 25_000
# The lists an answer gives once, in its first part, whatever part is asked for.
ONCE_LISTS = ("links_rewritten",)


def size(value: object) -> int:
    return len(json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8"))


def fitting(items: list[Any], start: int, budget: int) -> int:
    """The end of the run of ``items`` from ``start`` that fits ``budget`` (at least one item)."""
    end, used = start, 0
    while end < len(items):
        used += size(items[end])
        if used > budget and end > start:
            break
        end += 1
    return end


def page(answer: dict[str, Any], key: str, offset: int, tool: str, applied: bool = False,
         budget: int = PAGE_BYTES, stop: int | None = None) -> dict[str, Any]:
    """Cut ``answer[key]`` to the part from ``offset`` (at most ``budget`` bytes, and ending at
    ``stop`` when the part starts before it), and every other list to a few kilobytes."""
    items: list[Any] = answer[key]
    if offset > len(items) or (offset == len(items) and offset > 0):
        raise ToolError(f"UsageError: offset {offset} is past the end of {tool}'s {key} ({len(items)} of them); "
                        "pass a next_offset it gave, or 0 for the start")
    end = fitting(items, offset, budget)
    if stop is not None and offset < stop < end:
        end = stop
    answer[key], answer[f"{key}_total"] = items[offset:end], len(items)
    answer["next_offset"] = end if end < len(items) and not applied else None
    if end < len(items):
        add_notice(answer, more_words(key, offset, end, len(items), tool, applied))
    for other, value in list(answer.items()):
        if other in ONCE_LISTS and other != key and offset > 0 and isinstance(value, list) and value:
            answer[other], answer[f"{other}_total"] = [], len(value)
            add_notice(answer, f"{other.upper()}: {once_held(value)} listed once, in the first part "
                               f"(call {tool} with offset=0 and the same arguments)")
        elif other != key and isinstance(value, list) and size(value) > SIDE_BYTES:
            shown = fitting(value, 0, SIDE_BYTES)
            answer[other], answer[f"{other}_total"] = value[:shown], len(value)
            add_notice(answer, f"{other.upper()} CUT: the first {shown} of {len(value)} shown")
    return answer


def once_held(value: list[Any]) -> str:
    """What the first part holds of a list given once: all of it, or (cut as every other list)
    its first few kilobytes. Was "the 400 are listed once, in the first part" while the first
    part held the first 330 of them and said so."""
    if size(value) <= SIDE_BYTES:
        return f"the {len(value)} are"
    return f"the first {fitting(value, 0, SIDE_BYTES)} of the {len(value)} are"


def refuse_offset_with_apply(offset: int, apply: bool, key: str) -> None:
    """Before the call: refused after it, the apply would be done and reported as an error."""
    if offset and apply:
        raise ToolError(f"UsageError: offset pages a dry run's {key}; an apply's answer cannot be asked for again, "
                        "so nothing was done. Leave offset out (0)")


def more_words(key: str, offset: int, end: int, total: int, tool: str, applied: bool) -> str:
    if applied:
        return (f"{key.upper()} CUT: {end - offset} of {total} listed; the other {total - end} were done too "
                "(their notes are in the archive folder, and git log names them when the vault commits)")
    return f"MORE: {key} {offset}-{end} of {total} shown; call {tool} with offset={end} (and the same arguments) for the rest"


def add_notice(view: dict[str, Any], words: str) -> None:
    view["notice"] = f"{view['notice']}; {words}" if view.get("notice") else words
