"""Links between notes: the grammar Obsidian resolves, and rewriting links to a moved note.

Pure functions over text (``vaultmem/links.py``); consolidation's tests apply them to a
real vault (tests/test_consolidate.py).
"""

from __future__ import annotations

from pathlib import Path

from vaultmem.links import LinkRedirects, labels_first, labels_last, rewrite_canvas, rewrite_links, split_link



def test_a_canvas_without_links_to_merged_notes_is_returned_unchanged() -> None:
    redirects = LinkRedirects(["a.md", "b.md"], {"a.md": "b.md"})
    canvas = '{"nodes":[{"id":"x","type":"file","file":"b.md"},{"id":"y","type":"text","text":"[[b]] \\u00e9"}]}'
    assert rewrite_canvas(canvas, redirects, "c.canvas") == (canvas, [])
    assert rewrite_canvas(canvas.replace('"b.md"', '"a.md"'), redirects, "c.canvas") == (canvas, [])


def test_a_canvas_string_holding_bytes_that_are_not_utf8_keeps_them_and_has_its_links_rewritten() -> None:
    redirects = LinkRedirects(["a.md", "b.md"], {"a.md": "b.md"})
    raw = b'{"nodes":[{"type":"text","text":"caf\xe9 [[a]] \\ud83d"},{"type":"file","file":"a.md"}]}'
    text, _ = rewrite_canvas(raw.decode("utf-8", errors="surrogateescape"), redirects, "c.canvas")
    assert text.encode("utf-8", errors="surrogateescape") == (
        b'{"nodes":[{"type":"text","text":"caf\xe9 [[b]] \\ud83d"},{"type":"file","file":"b.md"}]}'
    )


def test_a_markdown_link_is_resolved_relative_to_its_note_first() -> None:
    redirects = LinkRedirects(["a/note.md", "note.md", "keep.md", "a/keep.md"], {"a/note.md": "keep.md"})
    # From a/, "note.md" is a/note.md (merged); from the root it is note.md (not merged).
    assert rewrite_links("[n](note.md)", redirects, "a/other.md") == ("[n](../keep.md)", [])
    assert rewrite_links("[n](note.md)", redirects, "other.md") == ("[n](note.md)", [])


def test_a_rewritten_markdown_link_encodes_spaces_unless_angled() -> None:
    redirects = LinkRedirects(["Old Note.md", "My Notes/Kept Note.md"], {"Old Note.md": "My Notes/Kept Note.md"})
    text, _ = rewrite_links("[a](Old%20Note.md) [b](<Old Note.md>)", redirects, "top.md")
    assert text == "[a](My%20Notes/Kept%20Note.md) [b](<My Notes/Kept Note.md>)"


def test_a_markdown_link_with_parentheses_in_its_path_is_rewritten() -> None:
    redirects = LinkRedirects(["note (1).md", "keep (2).md"], {"note (1).md": "keep (2).md"})
    text, _ = rewrite_links("(see [a](note%20(1).md)) [b](note%20%281%29.md)", redirects, "x.md")
    assert text == "(see [a](keep%20%282%29.md)) [b](keep%20%282%29.md)"


def test_a_markdown_link_without_the_md_extension_is_rewritten_without_it() -> None:
    redirects = LinkRedirects(["notes/old.md", "notes/keep.md", "img.png.md"], {"notes/old.md": "notes/keep.md"})
    text, _ = rewrite_links("[a](old) [b](old#Heading) [c](/notes/old) [d](img.png) [e](#old) [f](old.png)", redirects, "notes/x.md")
    assert text == "[a](keep) [b](keep#Heading) [c](/notes/keep) [d](img.png) [e](#old) [f](old.png)"


def test_a_rewritten_markdown_link_never_resolves_to_another_note() -> None:
    # From a/, "b/canon.md" would resolve relative first, to a/b/canon.md.
    redirects = LinkRedirects(["a/x.md", "b/merged.md", "b/canon.md", "a/b/canon.md"], {"b/merged.md": "b/canon.md"})
    text, _ = rewrite_links("[m](b/merged.md)", redirects, "a/x.md")
    assert text == "[m](../b/canon.md)"
    assert redirects.resolve_path("../b/canon.md", "a/x.md") == (["b/canon.md"], "relative")


def test_reference_link_definitions_to_a_merged_note_are_rewritten() -> None:
    redirects = LinkRedirects(["merged.md", "canon.md"], {"merged.md": "canon.md"})
    text = (
        "See [the note][n].\r\n\r\n[n]: merged.md \"Title\"\r\n  [m]: <merged.md#H>\n[p]: merged.md (title)\n"
        "[TODO]: merged.md is prose, not a definition\n    [i]: merged.md\n```\n[c]: merged.md\n```\n"
    )
    assert rewrite_links(text, redirects, "a.md")[0] == (
        "See [the note][n].\r\n\r\n[n]: canon.md \"Title\"\r\n  [m]: <canon.md#H>\n[p]: canon.md (title)\n"
        "[TODO]: merged.md is prose, not a definition\n    [i]: merged.md\n```\n[c]: merged.md\n```\n"
    )


def test_footnotes_and_definition_lookalikes_inside_a_paragraph_are_not_rewritten() -> None:
    redirects = LinkRedirects(["merged.md", "canon.md"], {"merged.md": "canon.md"})
    text = "[^1]: merged.md\n\nA paragraph line\n[q]: merged.md\n\n# Links\n[r]: merged.md\n[s]: merged.md\n"
    assert rewrite_links(text, redirects, "a.md")[0] == (
        "[^1]: merged.md\n\nA paragraph line\n[q]: merged.md\n\n# Links\n[r]: canon.md\n[s]: canon.md\n"
    )


def test_a_hash_in_the_canonical_name_is_escaped_so_it_does_not_start_a_heading() -> None:
    redirects = LinkRedirects(["a/Old.md", "b/C# tips.md"], {"a/Old.md": "b/C# tips.md"})
    text, _ = rewrite_links("[x](a/Old.md) [y](<a/Old.md#Heading>)", redirects, "top.md")
    assert text == "[x](b/C%23%20tips.md) [y](<b/C%23 tips.md#Heading>)"


def test_a_link_with_a_parenthesised_title_is_rewritten_and_an_escaped_one_is_not() -> None:
    redirects = LinkRedirects(["merged.md", "canon.md"], {"merged.md": "canon.md"})
    text, _ = rewrite_links("[x](merged.md (title)) \\[y](merged.md) \\![z](merged.md)", redirects, "a.md")
    assert text == "[x](canon.md (title)) \\[y](merged.md) \\![z](canon.md)"


def test_an_ambiguous_markdown_link_by_name_is_left_alone_and_reported() -> None:
    redirects = LinkRedirects(["a/note.md", "b/note.md", "keep.md"], {"a/note.md": "keep.md"})
    assert rewrite_links("[n](note.md)", redirects, "c/x.md") == ("[n](note.md)", ["note.md"])


def test_split_link_keeps_heading_and_label() -> None:
    assert split_link("name#Heading|label") == ("name", "#Heading|label")
    assert split_link("folder/name|label") == ("folder/name", "|label")
    assert split_link("name\\|cell") == ("name", "\\|cell")
    assert split_link("name") == ("name", "")


def test_an_ambiguous_name_is_left_alone_and_reported() -> None:
    redirects = LinkRedirects(["a/note.md", "b/note.md", "keep.md"], {"a/note.md": "keep.md"})
    text, ambiguous = rewrite_links("[[note]] and [[a/note]]", redirects)
    assert text == "[[note]] and [[keep]]" and ambiguous == ["note"]


def test_wikilinks_and_embeds_keep_heading_and_label_and_code_is_not_a_link() -> None:
    redirects = LinkRedirects(["old.md", "dir/canon.md"], {"old.md": "dir/canon.md"})
    text = "[[old#Part|see]] ![[Old.md]] `[[old]]`\n```\n[[old]]\n```\n"
    assert rewrite_links(text, redirects, "x.md") == ("[[canon#Part|see]] ![[canon]] `[[old]]`\n```\n[[old]]\n```\n", [])


def test_a_link_names_a_note_in_any_case_and_either_unicode_form_as_resolution_does() -> None:
    """Was: a link typed composed (``[[Café]]``) to a file macOS named decomposed was not taken for
    a link to it, so a merge left it pointing at the archived note; resolution names that note."""
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "Café") + ".md"
    redirects = LinkRedirects([decomposed, "keep.md"], {decomposed: "keep.md"})
    assert rewrite_links("[[Café]] and [[CAFÉ|x]] and [c](Café.md)", redirects, "x.md") == (
        "[[keep]] and [[keep|x]] and [c](keep.md)", [])


def test_a_dendron_vault_reads_a_labelled_wikilink_label_first() -> None:
    # Dendron writes [[label|target]]: read Obsidian's way, "Variant" was the target and the
    # link to the merged note was left pointing at the archive.
    redirects = LinkRedirects(["lang.cpp.std.variant.md", "lang.cpp.std.any.md", "Variant.md"],
                              {"lang.cpp.std.variant.md": "lang.cpp.std.any.md"}, label_first=True)
    text = "[[Variant|lang.cpp.std.variant]] [[lang.cpp.std.variant#summary]] [[a|b|lang.cpp.std.variant#x]] [[lang.cpp.std.variant|Variant]]"
    assert rewrite_links(text, redirects) == (
        "[[Variant|lang.cpp.std.any]] [[lang.cpp.std.any#summary]] [[a|b|lang.cpp.std.any#x]] [[lang.cpp.std.variant|Variant]]", [])


def test_a_vault_is_dendrons_when_it_or_the_workspace_around_it_holds_dendron_yml(tmp_path: Path) -> None:
    workspace, vault = tmp_path / "workspace", tmp_path / "workspace" / "vault"
    vault.mkdir(parents=True)
    assert not labels_first(vault) and not labels_first(workspace)
    (workspace / "dendron.yml").write_text("version: 5\n", encoding="utf-8")
    assert labels_first(workspace) and labels_first(vault)


def test_dendron_links_written_obsidians_way_keep_their_length_and_leave_code_alone() -> None:
    text = "[[undo|tools.git#restore]] [[tools.git]] `[[x|y]]` [[a|b|c]]\n```\n[[p|q]]\n```\n"
    swapped = labels_last(text)
    assert swapped == "[[tools.git#restore|undo]] [[tools.git]] `[[x|y]]` [[c|a|b]]\n```\n[[p|q]]\n```\n"
    assert len(swapped) == len(text)


def test_the_canonicals_own_link_to_a_note_merged_into_it_keeps_the_merged_name_as_its_label() -> None:
    # A trial on a basic-memory project: "2026-04-22 - keep durable memory …" merged into the
    # 2026-04-28 decision, whose "Supersedes part of: [[2026-04-22 - …]]" became a link to
    # itself under its own name — the note said it superseded itself.
    redirects = LinkRedirects(["decisions/old.md", "decisions/kept.md", "other.md"], {"decisions/old.md": "decisions/kept.md"})
    text = "Supersedes part of: [[old]]; see [[old#Why]] and [[old|the old one]].\n| a | [[old]] |\n"
    assert rewrite_links(text, redirects, "decisions/kept.md") == (
        "Supersedes part of: [[kept|old]]; see [[kept#Why|old]] and [[kept|the old one]].\n| a | [[kept\\|old]] |\n", [])
    # Anywhere else the link names the canonical, as before: it is another note's link.
    assert rewrite_links("Supersedes part of: [[old]]", redirects, "other.md") == ("Supersedes part of: [[kept]]", [])


def test_a_dendron_canonicals_own_link_to_a_merged_note_keeps_the_merged_name_label_first() -> None:
    redirects = LinkRedirects(["old.md", "kept.md"], {"old.md": "kept.md"}, label_first=True)
    assert rewrite_links("[[old]] [[label|old]]", redirects, "kept.md") == ("[[old|kept]] [[label|kept]]", [])


def test_a_wikilink_written_with_windows_backslashes_keeps_its_folder_and_its_backslashes() -> None:
    """Was: `[[work\\Old Note]]` (as a Windows user types it, and Obsidian there resolves it) was
    rewritten to `[[Kept]]`: its folder, which the person wrote, was dropped."""
    redirects = LinkRedirects(["work/Old Note.md", "work/Kept.md", "Other.md"], {"work/Old Note.md": "work/Kept.md"})
    text = "[[work\\Old Note]] [[Work\\old note#Head|label]] ![[\\work\\Old Note]] [[work/Old Note]] [[Old Note]]"
    assert rewrite_links(text, redirects, "Other.md") == (
        "[[work\\Kept]] [[work\\Kept#Head|label]] ![[work\\Kept]] [[work/Kept]] [[Kept]]", [])


def test_a_link_by_a_zettels_timestamp_id_or_a_johnny_decimal_id_is_rewritten_to_the_kept_notes_own() -> None:
    # Was left alone: only a note named `202403141300.md` answered `[[202403141300]]`, so consolidate
    # rewrote `[[202403141300 Boat colour]]` and left Zettlr's link by id pointing at the archive.
    paths = ["202403141205 Boat color.md", "202403141300 Boat colour.md", "11.01 Grant.md", "Work/11.02 Grant draft.md", "Kept.md"]
    redirects = LinkRedirects(paths, {"202403141300 Boat colour.md": "202403141205 Boat color.md", "Work/11.02 Grant draft.md": "11.01 Grant.md"})
    text = "[[202403141300]] [[202403141300#Pier|the other]] [[202403141300 Boat colour]] [[11.02]] [[202403141205]] [[20240314130]]"
    assert rewrite_links(text, redirects, "hub.md") == (
        "[[202403141205]] [[202403141205#Pier|the other]] [[202403141205 Boat color]] [[11.01]] [[202403141205]] [[20240314130]]", [])
    # Kept under a name with no number: the link names it by its name.
    redirects = LinkRedirects(paths, {"202403141300 Boat colour.md": "Kept.md"})
    assert rewrite_links("[[202403141300]]", redirects, "hub.md") == ("[[Kept]]", [])
    # Two zettels with one id: ambiguous, left alone and reported.
    redirects = LinkRedirects([*paths, "202403141300 Copy.md"], {"202403141300 Boat colour.md": "Kept.md"})
    assert rewrite_links("[[202403141300]]", redirects, "hub.md") == ("[[202403141300]]", ["202403141300"])
