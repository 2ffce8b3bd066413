"""mcp_pages.page: how a long MCP answer is cut into parts (adr/0015)."""

from __future__ import annotations

from typing import Any

from vaultmem.mcp_pages import page


def dry_run(clusters: int, linking_files: int) -> dict[str, Any]:
    """A consolidate dry run's answer as the library gives it: clusters, and the files whose links apply would rewrite."""
    return {"clusters": [{"canonical": f"Ops/Page {number}.md", "members": [f"Ops/Page {number}.md"]} for number in range(clusters)],
            "applied": False, "links_rewritten": [f"Team/Linker {number}.md" for number in range(linking_files)]}


def test_a_dry_runs_link_rewrites_come_in_the_first_part_only_and_later_parts_say_where() -> None:
    # Was: the same links_rewritten on every part of a paged consolidate dry run (a Notion export's copies).
    first = page(dry_run(30, 5), "clusters", 0, "consolidate", budget=1_000)
    assert first["links_rewritten"] == [f"Team/Linker {number}.md" for number in range(5)]
    later = page(dry_run(30, 5), "clusters", first["next_offset"], "consolidate", budget=1_000)
    assert later["clusters"]
    assert later["links_rewritten"] == []
    assert later["links_rewritten_total"] == 5
    assert "LINKS_REWRITTEN: the 5 are listed once, in the first part (call consolidate with offset=0" in later["notice"]


def test_an_answer_in_one_part_keeps_its_link_rewrites_without_a_notice() -> None:
    whole = page(dry_run(2, 3), "clusters", 0, "consolidate")
    assert len(whole["links_rewritten"]) == 3
    assert whole["next_offset"] is None
    assert "notice" not in whole


def test_a_later_part_says_how_many_link_rewrites_the_first_part_holds_when_that_list_is_cut() -> None:
    # Was (review): 400 files' links ran past the first part's 10 KB for a side list, so it held
    # the first 3xx and said so ("LINKS_REWRITTEN CUT"), while every later part said "the 400 are
    # listed once, in the first part": an agent that looked there found fewer than promised.
    def plan() -> dict[str, Any]:
        answer = dry_run(30, 400)
        answer["links_rewritten"] = [f"Team Wiki/Engineering/Linking page {number}.md" for number in range(400)]
        return answer

    first = page(plan(), "clusters", 0, "consolidate", budget=1_000)
    held = len(first["links_rewritten"])
    assert held < 400
    assert f"LINKS_REWRITTEN CUT: the first {held} of 400 shown" in first["notice"]
    later = page(plan(), "clusters", first["next_offset"], "consolidate", budget=1_000)
    assert later["links_rewritten"] == []
    assert later["links_rewritten_total"] == 400
    assert f"LINKS_REWRITTEN: the first {held} of the 400 are listed once, in the first part" in later["notice"]
    assert ": the 400 are listed" not in later["notice"]
