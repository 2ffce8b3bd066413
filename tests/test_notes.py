"""Reading notes survives what real vaults contain; problems are reported, never raised."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from helpers import SAMPLE_VAULT, utf16_bytes
from vaultmem.dating import note_date
from vaultmem.errors import FrontmatterError, NoteReadError
from vaultmem.markdown import code_ranges
from vaultmem.noteio import edit_frontmatter
from vaultmem.notes import MAX_SALVAGED_DAYS, inline_tags, parse_note, read_note, tags_of, title_of


def parse(text: str | bytes, path: str = "folder/note.md"):
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return parse_note(path, raw)


# ---------------------------------------------------------------- encodings and line endings


def test_a_utf8_bom_does_not_hide_the_frontmatter() -> None:
    note = parse(b"\xef\xbb\xbf---\ntitle: With BOM\nlayer: L4\n---\nBody text.\n")
    assert note.meta == {"title": "With BOM", "layer": "L4"}
    assert note.has_frontmatter
    assert note.title == "With BOM"
    assert note.body == "Body text.\n"
    assert note.problems == ()


def test_crlf_frontmatter_is_read_and_the_body_is_normalised() -> None:
    note = parse(b"---\r\ntitle: Windows note\r\nlayer: L2\r\nexpires_at: 2026-12-01\r\n---\r\nLine one\r\nLine two\r\n")
    assert note.meta == {"title": "Windows note", "layer": "L2", "expires_at": date(2026, 12, 1)}
    assert note.body == "Line one\nLine two\n"
    assert note.problems == ()


def test_bom_and_crlf_together() -> None:
    note = parse(b"\xef\xbb\xbf---\r\nlayer: L4\r\ntitle: Heading\r\n---\r\n# Heading\r\n")
    assert note.meta == {"layer": "L4", "title": "Heading"}
    assert note.title == "Heading"


def test_non_utf8_bytes_are_a_reported_problem_not_a_crash() -> None:
    note = parse(b"---\ntitle: Caf\xe9 notes\nlayer: L3\n---\nLatin-1 body: na\xefve\n")
    assert [problem.field for problem in note.problems] == ["encoding", "expires_at"]
    encoding = note.problems[0]
    assert encoding.path == "folder/note.md"
    assert "UTF-8" in encoding.message and "byte" in encoding.message
    assert "UTF-8" in encoding.fix
    assert note.meta["layer"] == "L3"  # everything else is still read
    assert note.title == "Caf\ufffd notes"


# ---------------------------------------------------------------- frontmatter edge cases


WINDOWS_NOTE = "---\r\ntitle: Windows notes\r\nlayer: L3\r\n---\r\nThe router admin password hint is the cat's birthday.\r\n"


@pytest.mark.parametrize(("big_endian", "name"), [(False, "UTF-16 LE"), (True, "UTF-16 BE")])
def test_a_note_saved_as_utf16_with_a_bom_is_read_as_its_text_and_reported_as_not_utf8(big_endian: bool, name: str) -> None:
    # Read as UTF-8 it was a BOM and a NUL between every two letters: no title, no layer, no word search could find.
    note = parse_note("Imports/Windows notes.md", utf16_bytes(WINDOWS_NOTE, big_endian))
    assert note.meta == {"title": "Windows notes", "layer": "L3"}
    assert note.body == "The router admin password hint is the cat's birthday.\n"
    assert [(problem.field, problem.message, problem.fix) for problem in note.problems if problem.field == "encoding"] == [
        ("encoding", f"saved as {name}, not UTF-8: it is read for search, but Obsidian shows it garbled and vaultmem "
                     "changes nothing in it", "re-save the file as UTF-8 (in the editor that saved it: Save As, encoding UTF-8)")]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_text_of_markers_in_utf16_or_of_cjk_letters_is_no_byte_merge(codec: str) -> None:
    from vaultmem.merge_markers import utf16_with_byte_markers

    # Markers in UTF-16 (a working-tree-encoding merge) are read by the plain decode; and
    # U+3C0A U+3C3C … are the letters a UTF-8 marker would be read as, but in their own bytes.
    in_utf16 = "a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> x\n"
    letters = "a\n\u3c0a\u3c3c\u3c3c\u3c3c\u3c20x\n\u3d0a\u3d3d\u3d3d\u3d3d\u3e0a\u3e3e\u3e3e\u3e3e\n"
    assert utf16_with_byte_markers(in_utf16.encode(codec), codec) is None
    assert utf16_with_byte_markers(letters.encode(codec), codec) is None


def test_a_utf16_note_saved_with_its_bom_twice_keeps_its_frontmatter() -> None:
    # The trial's file began FF FE FF FE: an editor saved a BOM in front of a text that held one.
    note = parse_note("Imports/Windows notes.md", utf16_bytes("\ufeff" + WINDOWS_NOTE))
    assert note.title == "Windows notes" and note.layer == "L3"
    assert note.body == "The router admin password hint is the cat's birthday.\n"


def test_read_text_gives_a_utf16_note_the_text_its_passages_were_cut_from(tmp_path: Path) -> None:
    from vaultmem.notes import read_text

    (tmp_path / "win.md").write_bytes(utf16_bytes(WINDOWS_NOTE))
    assert read_text(tmp_path, "win.md") == WINDOWS_NOTE.replace("\r\n", "\n")


def test_a_note_without_frontmatter_is_all_body() -> None:
    text = "# Inbox\n\n- call the dentist\n"
    note = parse(text, "Inbox.md")
    assert note.meta == {}
    assert note.body == text
    assert not note.has_frontmatter
    assert note.problems == ()
    assert note.title == "Inbox"
    assert note.id == "Inbox"


def test_a_body_that_opens_with_a_rule_keeps_its_first_paragraph() -> None:
    # python-frontmatter would eat everything up to the next --- as "metadata".
    text = "---\nThings I have not figured out yet, to look at once a week.\n\n- Easter plans?\n"
    note = parse(text, "Open questions.md")
    assert note.meta == {}
    assert note.body == text
    assert note.problems == ()
    assert note.title == "Open questions"


def test_prose_between_two_rules_is_body_not_metadata() -> None:
    text = "---\nJust a paragraph between two rules.\n---\n\nMore prose.\n"
    note = parse(text)
    assert note.meta == {}
    assert note.body == text
    assert note.problems == ()


def test_the_sample_open_questions_note_keeps_its_first_paragraph() -> None:
    note = read_note(SAMPLE_VAULT, "Open questions.md")
    raw = (SAMPLE_VAULT / "Open questions.md").read_text(encoding="utf-8")
    assert raw.startswith("---\n")
    assert note.body == raw
    assert "nudge her about once a week" in note.body
    assert note.problems == ()


def test_yaml_scanner_error_is_reported_with_the_line_and_the_body_kept() -> None:
    note = parse("---\ntitle: Retro notes: what went wrong\nlayer: L2\n---\n# Retro\n\nWhat happened.\n")
    assert note.meta == {"layer": "L2"}  # read line by line (salvage_lifecycle); the title line is the broken one
    assert note.has_frontmatter
    assert note.metadata_unloaded
    assert note.body == "# Retro\n\nWhat happened.\n"
    assert note.title == "note"  # the file name: the title property did not load
    [problem] = note.problems  # no "L2 without expires_at": an unreadable line is not a missing one
    assert problem.path == "folder/note.md"
    assert problem.field == "frontmatter"
    assert "YAML does not load at line 2" in problem.message
    assert "quote" in problem.fix


def test_a_broken_frontmatter_keeps_its_title_and_date_lines_when_the_broken_line_is_another() -> None:
    note = parse("---\ntitle: Ana helps\nlayer: L3\nnote: she said: call me after 6\ntags:\n  - people\n"
                 "created: 2026-12-03T06:58:01+00:00\ndate: 2026-12-02\n---\nAna helps.\n")
    assert note.title == "Ana helps"
    assert note.meta == {"title": "Ana helps", "layer": "L3", "created": datetime.fromisoformat("2026-12-03T06:58:01+00:00"),
                         "date": date(2026, 12, 2)}  # not tags: a half-read list is worse than none (adr/0020)
    [problem] = note.problems
    assert problem.field == "frontmatter" and "until then only its layer, title, created, date line(s) are read" in str(problem.fix)


def test_a_date_template_placeholder_is_reported_as_a_template() -> None:
    note = parse("---\ncreated: {{date}}\ntags:\n  - daily\n---\n# {{title}}\n")
    [problem] = note.problems
    assert problem.field == "frontmatter"
    assert "{{date}}" in problem.message
    assert note.meta == {}


def test_an_impossible_yaml_date_is_reported_not_raised() -> None:
    # PyYAML raises a plain ValueError (not a YAMLError) for 2026-13-45: it is read as the
    # text it is, and only the field that holds it is reported (was: the whole block).
    note = parse("---\nlayer: L1\nexpires_at: 2026-13-45\n---\nbody\n")
    [problem] = note.problems
    assert problem.field == "expires_at"
    assert "month" in problem.message
    assert note.body == "body\n" and not note.metadata_unloaded


# ---------------------------------------------------------------- a frontmatter not on line 1


@pytest.mark.parametrize(
    ("raw", "opening", "closing", "fix"),
    [
        (b"\n---\nlayer: L3\ntags: [harbor]\nexpires_at: 2026-01-01\n---\nThe gate code is 4711.\n", 2, 6,
         "remove the blank line(s) above the --- on line 2"),
        (b"\xef\xbb\xbf\r\n---\r\nlayer: L3\r\n---\r\nThe gate code is 4711.\r\n", 2, 4,
         "remove the blank line(s) above the --- on line 2"),
        (b"Draft\n\n---\ntags: [harbor]\n---\nThe gate code is 4711.\n", 3, 5,
         "move the line(s) above the --- on line 3 below the --- on line 5 (or remove them)"),
    ],
    ids=["blank line", "BOM and a blank line, CRLF", "stray text"],
)
def test_a_frontmatter_below_line_1_stays_text_as_obsidian_reads_it_and_is_a_problem_naming_its_lines(
        raw: bytes, opening: int, closing: int, fix: str) -> None:
    note = parse(raw, "gate.md")
    assert note.meta == {} and not note.has_frontmatter
    assert note.body == raw.decode("utf-8-sig").replace("\r\n", "\n")  # all of it text, as before
    [problem] = note.problems
    assert (problem.path, problem.field) == ("gate.md", "frontmatter")
    assert f"the frontmatter on lines {opening}–{closing} is not read" in problem.message
    assert "Obsidian reads a frontmatter only when its --- is the file's first line" in problem.message
    assert "(no layer, tags or expiry)" in problem.message
    assert problem.fix == f"{fix}, so that --- is the file's first line"


@pytest.mark.parametrize(
    "text",
    [
        "Intro.\n\n---\nNote: call the landlord back\n---\nMore prose.\n",  # a rule over one line of prose
        "Intro.\n\n---\n\nlayer: L3\ntags: x\n---\n",  # a blank line under the rule: a paragraph
        "Intro.\n---\nlayer: L3\ntags: [unclosed\n---\n",  # does not load as YAML
        "Intro.\n---\n- layer: L3\n- tags: x\n---\n",  # a list, not a mapping
        "Intro.\n---\nlayer: L3\ntags: x\n",  # never closed
        "1\n2\n3\n4\n5\n---\nlayer: L3\ntags: x\n---\n",  # a rule further down the note
    ],
    ids=["prose", "blank line under the rule", "not YAML", "a list", "not closed", "further down"],
)
def test_a_rule_near_the_top_that_does_not_look_like_a_frontmatter_is_no_problem(text: str) -> None:
    note = parse(text)
    assert (note.meta, note.body, note.problems) == ({}, text, ())


@pytest.mark.parametrize(
    "text",
    [
        "# Pancakes\n---\nServes: 4\nTime: 20 min\n---\nMix flour, eggs and milk.\n",  # a recipe card
        "# Quiz\n\n---\nQ: What is the capital of France?\nA: Paris\n---\n",  # a question and its answer
        "Phone call\n\n---\nMe: are you coming?\nHer: at six\n---\n",  # a dialogue
    ],
    ids=["recipe under a heading", "question and answer", "dialogue"],
)
def test_key_value_lines_between_rules_under_the_notes_own_text_are_no_frontmatter(text: str) -> None:
    # Was: two `key: value` lines between rules under a heading were "a frontmatter not on line 1":
    # check failed, every hit warned, revise --tag was refused, and the fix said to move the
    # heading below them. Under text of the note, only a block with a key a frontmatter is for
    # (tags, layer, date…) is one meant (a stray word above it); under blank lines, any two keys.
    note = parse(text)
    assert (note.meta, note.body, note.problems) == ({}, text, ())
    edited = edit_frontmatter(text.encode("utf-8"), {"tags": ["kitchen"]})  # what revise --tag writes
    assert edited.decode("utf-8").endswith("---\n" + text) and parse(edited).meta == {"tags": ["kitchen"]}


def test_prose_under_a_dating_key_between_rules_under_the_notes_own_text_is_no_frontmatter() -> None:
    # A study note of git's three states, in a vault whose notes open with a "Tags:" list and a
    # rule: "Modified: when you modify a file" named a key that dates a note, so the block was a
    # frontmatter not on line 1 — check failed, revise was refused, and the fix said to move the
    # "Tags:" lines below it, which would have made the note's text its properties.
    text = ("Tags:\n- [[Tags/Git|Git]]\n---\nModified: when you modify a file\n\n"
            "Staged: when Git is informed of the change (git add)\n\nCommitted: self-explanatory\n\n---\n## References\n- ")
    note = parse(text, "Git States.md")
    assert (note.meta, note.body, note.problems) == ({}, text, ())
    edited = edit_frontmatter(text.encode("utf-8"), {"tags": ["git"]})  # what revise --tag writes
    assert edited.decode("utf-8").endswith("---\n" + text) and parse(edited).meta == {"tags": ["git"]}


@pytest.mark.parametrize("value", ["2024-05-01", "2024-05-01T10:00", "May 4, 2023", "1700000000", ""])
def test_a_dating_key_holding_a_time_between_rules_under_text_is_still_a_misplaced_frontmatter(value: str) -> None:
    [problem] = parse(f"Draft\n---\nmodified: {value}\n---\nThe gate code is 4711.\n", "gate.md").problems
    assert problem.field == "frontmatter" and "the frontmatter on lines 2–4 is not read" in problem.message


GARAGE_KEYS = "type: project\nstatus: active\ntags: [business, akron]\n---\n\n# Garage flipping\n\nCharge $500 per garage.\n"


@pytest.mark.parametrize("fence", ["|---", "---|", " ---", "'---", "----", "\ufeff|---", "|---\r"],
                         ids=["pipe before", "pipe after", "indented", "quote", "four dashes", "BOM", "CRLF"])
def test_a_first_line_meant_as_the_frontmatters_fence_with_a_stray_character_is_a_problem(fence: str) -> None:
    # A real vault's P0 project note opens `|---` over its keys (b-hornsby/obsidian-vault,
    # nodes/projects/garage-flipping.md): Obsidian shows them as text, and vaultmem read them
    # so without a word: no tags (search --tag found nothing), check passed, get showed "tags: -".
    note = parse(fence + "\n" + GARAGE_KEYS, "nodes/projects/garage-flipping.md")
    assert note.meta == {} and not note.has_frontmatter
    [problem] = note.problems
    assert (problem.path, problem.field) == ("nodes/projects/garage-flipping.md", "frontmatter")
    shown = fence.strip("\ufeff\r")
    assert problem.message == (f"line 1 ({shown!r}) is not a frontmatter's ---: Obsidian opens a frontmatter only on a "
                               "first line that is exactly ---, so the properties on lines 2–4 (type, status, tags) are "
                               "ignored (no layer, tags or expiry) and show as the note's text")
    assert problem.fix == f"make line 1 exactly --- (it reads {shown!r})"


def test_revise_refuses_to_write_a_frontmatter_above_one_whose_first_line_is_damaged() -> None:
    # Was: `revise --set status=paused` put a new block on line 1, above `|---`, leaving the
    # person's `status: active` below it as text: two statuses in one file, theirs unread.
    raw = ("|---\n" + GARAGE_KEYS).encode("utf-8")
    with pytest.raises(FrontmatterError, match=r"line 1 \('\|---'\) is not a frontmatter's ---.*make line 1 exactly ---"):
        edit_frontmatter(raw, {"status": "paused"})


@pytest.mark.parametrize(
    "text",
    [
        "---\nJust a rule over prose.\n",  # an intact --- over prose: no frontmatter, as before
        "----\nThe week in review.\n---\n",  # a rule over a line of prose
        "|---|---|\n| a | b |\n",  # a table's delimiter row
        "--- Chapter one ---\nlayer: L3\ntags: x\n---\n",  # words on the line: a heading of dashes
        "-----\n\nlayer: L3\ntags: x\n---\n",  # a blank line under the rule: a paragraph
        # s42 review: a rule over keys of the note's own and a `---` (a recipe's, a quiz's, a
        # letter's) was a damaged frontmatter, its fix turning the note's text into properties.
        "----\nServes: 4\nTime: 20 min\n---\n\nMix the flour.\n",
        "-----\nQ: Capital of Peru?\nA: Lima\n---\nQ: Capital of Chile?\n",
        "----\nTo: Ana\nFrom: Bob\n---\nHi Ana,\n",
    ],
    ids=["intact rule", "rule over prose", "table row", "words on the line", "blank line under", "recipe", "quiz", "letter"],
)
def test_a_first_line_of_dashes_over_no_frontmatter_is_no_problem(text: str) -> None:
    note = parse(text)
    assert (note.meta, note.body, note.problems) == ({}, text, ())


LEADS_SECTION = "## Leads Log\n\nSee [leads-log.md](leads-log.md) for chronological lead entries.\n"


@pytest.mark.parametrize("blank", ["- Who:\n- Notes:", "- [ ] ", "- ", "Mood::\n\n---"],
                         ids=["labels to fill in", "empty task", "empty item", "inline field and rule"])
def test_a_templates_sections_left_to_fill_in_are_no_section_appended_in_a_loop(blank: str) -> None:
    # s42 review: a day's template with three `### Meeting` sections over `- Who:` / `- Notes:`
    # was said "appended in a loop (an agent, a script)", with a fix to delete two of them.
    text = "# 2026-12-03\n\n## Meetings\n\n" + "".join(f"### Meeting\n{blank}\n\n" for _ in range(3)) + "## Journal\n\nQuiet.\n"
    assert parse(text, "Daily/2026-12-03.md").problems == ()
    # Filled in alike three times, they are a loop's again.
    filled = "".join(f"### Meeting\n{blank.replace(':', ': Ana')} Ana called.\n\n" for _ in range(3))
    [problem] = parse(filled, "Daily/2026-12-03.md").problems
    assert "appended it in a loop" in problem.message


def test_a_section_appended_in_a_loop_is_a_problem_naming_its_lines() -> None:
    # A real vault's project note (b-hornsby/obsidian-vault, nodes/projects/garage-flipping.md)
    # ended with the same section 512 times, 44 KB of it: check said nothing.
    text = "---\ntags: [business]\n---\n# Garage flipping\n\nCharge $500.\n" + "\n\n".join([LEADS_SECTION] * 512)
    [problem] = parse(text, "nodes/projects/garage-flipping.md").problems
    assert (problem.path, problem.field) == ("nodes/projects/garage-flipping.md", "body")
    lines = text.split("\n")
    first, second = lines.index("## Leads Log") + 1, lines.index("## Leads Log", lines.index("## Leads Log") + 1) + 1
    last = len(text.rstrip().split("\n"))
    assert problem.message == (f"the section '## Leads Log' on line {first} is repeated word for word 511 more time(s) "
                               f"in a row, to line {last:,}: something appended it in a loop (an agent, a script)")
    assert problem.fix == f"keep one and delete lines {second}–{last:,} (the repeats), or change what appends it"


@pytest.mark.parametrize(
    "body",
    [
        LEADS_SECTION + "\n" + LEADS_SECTION,  # twice: a person may paste a section twice
        "\n".join(f"## Standup\n\n- notes of day {day}\n" for day in range(5)),  # the same heading, other text
        "```markdown\n" + "\n".join([LEADS_SECTION] * 4) + "```\n",  # in a code block: the code's text
        "## A\n\nx\n\n## B\n\nx\n\n## A\n\nx\n\n## A\n\nx\n",  # not in a row
        "## Notes\n\n## Notes\n\n## Notes\n\n## Notes\n",  # empty headings to fill in (review, s41: was a problem)
    ],
    ids=["twice", "same heading other text", "in a code block", "not in a row", "empty headings"],
)
def test_sections_that_are_not_one_appended_in_a_loop_are_no_problem(body: str) -> None:
    assert parse("# Note\n\n" + body).problems == ()


def test_looking_for_repeated_sections_stays_linear_over_many_code_blocks_holding_them() -> None:
    # Found in review (s41): each run of three like sections counted the fences from the top of
    # the note to tell whether it was in a code block; 5,000 such blocks (190 KB) took 16 s.
    block = "```\n## H\nx\n## H\nx\n## H\nx\n## Y{}\n```\n\n"
    text = "# Examples\n\n" + "".join(block.format(number) for number in range(5000))
    started = time.thread_time()
    note = parse(text)
    assert time.thread_time() - started < 2.0
    assert note.problems == ()


def test_looking_for_a_misplaced_frontmatter_stays_linear_on_a_line_of_blanks() -> None:
    # The key-line pattern of the frontmatter reader backtracks quadratically on a long
    # line of spaces: 40,000 took 0.8 s, so a megabyte would take minutes.
    started = time.thread_time()
    for ending in (b"", b":"):
        note = parse(b"\n---\n" + b" " * 1_000_000 + ending + b"\n---\n")
        assert note.problems == ()
    assert time.thread_time() - started < 1.0


def test_reading_a_frontmatter_on_line_1_stays_linear_on_a_line_of_blanks() -> None:
    # The same pattern, read for a block opened on line 1 (is it an unclosed frontmatter? is
    # it YAML?): 160,000 spaces took 15 to 20 s; these 200,000 take milliseconds now.
    started = time.thread_time()
    for text in (b"---\n" + b" " * 200_000 + b"x\nbody\n", b"---\na" + b" " * 200_000 + b"\nbody\n"):
        note = parse(text)
        assert note.meta == {} and note.body.endswith("body\n")
    assert time.thread_time() - started < 2.0


# ---------------------------------------------------------------- a frontmatter that does not load (issue 11 §2)


def test_a_second_colon_in_the_title_keeps_the_lifecycle_lines_of_the_note() -> None:
    note = parse("---\nid: 01JD8X5K4M2N7P9Q3R6S8T0V1W\ntitle: Boiler: Friday: Rui\nlayer: L2\ntags: [home]\n"
                 "created: 2026-10-01T09:00:00+00:00\nexpires_at: 2026-11-01T00:00:00+00:00\npermanent: false\n---\nbody\n")
    assert note.metadata_unloaded
    assert note.meta == {"id": "01JD8X5K4M2N7P9Q3R6S8T0V1W", "layer": "L2",
                         "expires_at": datetime.fromisoformat("2026-11-01T00:00:00+00:00"), "permanent": False,
                         "created": datetime.fromisoformat("2026-10-01T09:00:00+00:00")}  # not the broken title line
    assert note.id == "01JD8X5K4M2N7P9Q3R6S8T0V1W"  # not the path: usage history stays with it
    assert note.layer == "L2" and note.title == "note"
    assert "id, layer, expires_at, permanent, created line(s)" in note.problems[0].fix


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("  expires_at: 2026-11-01", "indented: part of another value"),
        ("expires_at: [2026-11-01]", "a list, not a plain scalar"),
        ("expires_at: &a 2026-11-01", "an anchor"),
        ("expires_at: |", "a block scalar"),
        ("expires_at: 2026-11-01: x", "YAML refuses the value"),
        ("expires_at: 2026-11-01\n  T09:00", "continued on an indented line"),
        ("expires_at: 2026-11-01\nexpires_at: 2027-01-01", "written twice: ambiguous"),
        ("expires_at:", "empty"),
        ("expires_at : {a: 1}", "a mapping"),
    ],
)
def test_only_a_plain_scalar_on_one_top_level_line_is_salvaged(line: str, why: str) -> None:
    note = parse(f"---\ntitle: a: b\n{line}\n---\nbody\n")
    assert "expires_at" not in note.meta, why


def test_a_salvaged_expiry_that_does_not_parse_is_kept_as_written_and_reported() -> None:
    # The block fails on the second colon; the expiry line itself is well-formed, an impossible day.
    note = parse("---\ntitle: Boiler: Friday\nlayer: L1\nexpires_at: 2026-13-45\n---\nbody\n")
    assert note.meta == {"layer": "L1", "expires_at": "2026-13-45"}
    assert [problem.field for problem in note.problems] == ["frontmatter", "expires_at"]


def test_quoted_keys_and_values_and_comments_are_read_as_yaml_reads_them() -> None:
    note = parse("---\ntitle: x: y\n\"layer\": 'L3'\nexpires_at: \"2026-11-01\"  # moved\npermanent: yes\n---\nbody\n")
    assert note.meta == {"layer": "L3", "expires_at": "2026-11-01", "permanent": True}


def test_a_template_placeholder_salvages_nothing_it_cannot_read() -> None:
    note = parse("---\ncreated: {{date}}\nid: {{title}}\n---\nbody\n")
    assert note.meta == {}
    assert note.id == "folder/note"


def test_a_frontmatter_that_runs_on_to_a_rule_further_down_says_it_may_not_be_closed() -> None:
    # A trial: a daily note never closed its frontmatter; the error named a Markdown line 7 as bad YAML.
    note = parse("---\ndate: 2026-07-25\nprojects: []\n# 2026-07-25\n\n- did: things\n- more: [x\n\n---\n\nbody\n")
    [problem] = [problem for problem in note.problems if problem.field == "frontmatter"]
    assert "is the frontmatter closed? it runs to the --- on line 9, past a blank line on line 5" in problem.message, problem.message
    closed = parse("---\ndate: 2026-07-25\ntitle: [x\n---\nbody\n")  # a plain YAML mistake: no such hint
    assert all("is the frontmatter closed" not in problem.message for problem in closed.problems)


def test_unclosed_frontmatter_is_reported() -> None:
    note = parse("---\ntitle: Never closed\nlayer: L3\n\nThe body.\n")
    assert [problem.field for problem in note.problems] == ["frontmatter"]
    assert "never closed" in note.problems[0].message


def test_empty_frontmatter_is_no_problem() -> None:
    note = parse("---\n---\nbody\n")
    assert note.meta == {}
    assert note.body == "body\n"
    assert note.problems == ()


@pytest.mark.parametrize(
    ("yaml_value", "expected"),
    [
        ("2026-12-01", date(2026, 12, 1)),
        ("2026-12-01T10:00:00", datetime(2026, 12, 1, 10, 0)),
        ("2026-12-01T10:00", "2026-12-01T10:00"),
    ],
)
def test_yaml_typed_dates_from_a_real_file_are_kept_as_yaml_typed_them(tmp_path: Path, yaml_value: str, expected: object) -> None:
    (tmp_path / "n.md").write_text(f"---\nlayer: L3\nexpires_at: {yaml_value}\n---\nbody\n", encoding="utf-8")
    note = read_note(tmp_path, "n.md")
    assert note.expires_at == expected and type(note.expires_at) is type(expected)
    assert note.problems == ()  # every one of them is a valid expiry


def test_an_aware_yaml_datetime_keeps_its_offset() -> None:
    note = parse("---\nlayer: L3\nexpires_at: 2026-11-16T11:00:00+01:00\n---\nx\n")
    assert isinstance(note.expires_at, datetime)
    assert note.expires_at.utcoffset().total_seconds() == 3600


def test_a_file_that_cannot_be_read_raises_note_read_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "folder.md").mkdir()  # a directory with a note's name: unreadable as a file
    with pytest.raises(NoteReadError) as caught:
        read_note(tmp_path, "folder.md")
    assert "folder.md" in str(caught.value)
    with pytest.raises(NoteReadError, match="missing.md"):
        read_note(tmp_path, "missing.md")


def test_every_sample_vault_note_parses_without_raising() -> None:
    paths = sorted(path for path in SAMPLE_VAULT.rglob("*.md") if ".obsidian" not in path.parts and ".vaultmem" not in path.parts)
    assert len(paths) == 39
    for path in paths:
        note = read_note(SAMPLE_VAULT, path.relative_to(SAMPLE_VAULT).as_posix())
        assert note.title
        assert note.body.strip()


# ---------------------------------------------------------------- field problems (what check reports)


def problem_fields(text: str) -> list[str]:
    return [problem.field for problem in parse(text).problems]


def test_unknown_layer_is_a_problem_naming_the_layer() -> None:
    note = parse("---\nlayer: L7\n---\nx\n")
    [problem] = note.problems
    assert problem.field == "layer" and "'L7'" in problem.message
    assert note.layer is None


def test_l4_with_expires_at_is_a_problem() -> None:
    assert problem_fields("---\nlayer: procedural\nexpires_at: 2027-01-01\n---\nx\n") == ["expires_at"]


def test_permanent_with_expires_at_is_a_problem() -> None:
    assert problem_fields("---\nlayer: L3\npermanent: true\nexpires_at: 2027-01-01\n---\nx\n") == ["expires_at"]


@pytest.mark.parametrize("layer", ["L1", "episodic", "Semantic"])
def test_a_layer_l1_to_l3_note_without_expires_at_is_a_problem(layer: str) -> None:
    note = parse(f"---\nlayer: {layer}\n---\nx\n")
    [problem] = note.problems
    assert problem.field == "expires_at" and "never expires" in problem.message
    assert "Vault.check(fix=True)" in problem.fix  # as Python names it; each shell respells it


@pytest.mark.parametrize("header", ["layer: L4", "layer: L3\npermanent: true", "title: no layer"])
def test_permanent_and_layerless_notes_without_expiry_are_fine(header: str) -> None:
    assert problem_fields(f"---\n{header}\n---\nx\n") == []


def test_an_unparseable_expiry_is_a_problem_naming_the_value() -> None:
    [problem] = parse("---\nlayer: L1\nexpires_at: next tuesday\n---\nx\n").problems
    assert problem.field == "expires_at" and "next tuesday" in problem.message


def test_a_quoted_permanent_is_not_a_boolean() -> None:
    note = parse('---\nlayer: L3\npermanent: "true"\nexpires_at: 2027-01-01\n---\nx\n')
    assert problem_fields('---\nlayer: L3\npermanent: "true"\nexpires_at: 2027-01-01\n---\nx\n') == ["permanent"]
    assert not note.permanent


def test_a_bad_created_is_a_problem() -> None:
    assert problem_fields("---\ncreated: last week\n---\nx\n") == ["created"]


# ---------------------------------------------------------------- title and identity


def test_title_comes_from_frontmatter_first() -> None:
    assert parse("---\ntitle: From YAML\n---\n# From heading\n").title == "From YAML"


def test_a_heading_is_not_the_title_the_file_name_is_as_obsidian_shows_it() -> None:
    # Regression (issue 11 §4): References/Kevin Kelly.md was shown as "Clippings", its
    # first heading, and a search for "Kevin Kelly" never found it.
    text = "---\ncategories:\n  - \"[[People]]\"\n---\n## Books\n\n# Clippings\n\n![[Clippings.base#Author]]\n"
    assert parse(text, "References/Kevin Kelly.md").title == "Kevin Kelly"
    assert parse("# The Heading\n\nbody\n", "notes/2026-11-30.md").title == "2026-11-30"


def test_a_tag_line_or_level_two_heading_is_not_a_title() -> None:
    assert parse("#travel #berlin\n\n## Only a section\n", "scratch/trip notes.md").title == "trip notes"


def test_title_falls_back_to_the_file_name_with_spaces_and_unicode() -> None:
    assert parse("no heading here\n", "people/João Silva.md").title == "João Silva"


def test_a_blank_or_non_text_title_falls_back_to_the_file_name() -> None:
    assert parse("---\ntitle: '  '\n---\n# Heading\n").title == "note"
    assert parse("---\ntitle: [a, b]\n---\n# Heading\n").title == "note"


def test_a_title_yaml_reads_as_a_date_is_that_date_as_written() -> None:
    assert parse("---\ntitle: 2024-01-05\n---\nx\n").title == "2024-01-05"  # was the file name
    assert parse("---\ntitle: 2024-01-05 10:30:00\n---\nx\n").title == "2024-01-05 10:30:00"


def test_a_dendron_note_with_unix_millisecond_stamps_has_no_problem_and_is_dated() -> None:
    note = parse("---\nid: 8f3k2\ntitle: Kyoto\ncreated: 1700000000000\nupdated: 1700000500000\n---\nTemples.\n",
                 "travel.kyoto.md")
    assert not note.problems
    dated = note_date(note.meta, note.path)
    assert dated is not None and (dated.moment.date(), dated.source) == (date(2023, 11, 14), "created")


def test_id_is_the_frontmatter_id_when_present() -> None:
    assert parse("---\nid: 01JNB55HD06CQ643DZVMXXQKFB\n---\nx\n", "people/rui-birthday.md").id == "01JNB55HD06CQ643DZVMXXQKFB"


def test_id_is_the_relative_path_without_md_otherwise() -> None:
    assert parse("x\n", "people/João Silva.md").id == "people/João Silva"
    assert parse("---\nid: ''\n---\nx\n", "a/b.md").id == "a/b"
    assert parse("---\nid: true\n---\nx\n", "a/b.md").id == "a/b"


def test_a_numeric_id_becomes_text() -> None:
    assert parse("---\nid: 42\n---\nx\n").id == "42"


def test_tags_accept_lists_and_strings_and_drop_hashes() -> None:
    assert tags_of({"tags": ["#travel", "berlin", "travel", None]}) == ["travel", "berlin"]
    assert tags_of({"tags": "work, #harbor  ops"}) == ["work", "harbor", "ops"]
    assert tags_of({"tags": 7}) == []
    assert title_of({}, "x/y.md") == "y"


# ---------------------------------------------------------------- robustness: reading never raises


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = ["---\n", "---\r\n", "...\n", "\ufeff", "title: x\n", "layer: L2\n", "expires_at: 2026-13-45\n",
          "expires_at: next tuesday\n", "created: {{date}}\n", "title: a: b\n", "tags: [a, b\n", "- item\n", "  indented: 1\n",
          "? complex\n", "&a [*a]\n", "# heading\n", "#tag\n", "\r\n", "\n", "\t", "\x00", "\xff\xfe", "é", "'", '"', ":", "{", "}",
          "permanent: yes\n", "id: [1]\n", "expires_at: 0001-01-01T00:00:00+05:00\n", "expires_at: 1e309\n"]


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=25), noise=st.binary(max_size=20))
def test_property_parsing_any_file_never_raises_and_always_has_a_title(pieces: list[str], noise: bytes) -> None:
    raw = "".join(pieces).encode("utf-8", "surrogateescape") + noise
    note = parse_note("folder/any.md", raw)
    assert note.title.strip() and note.id.strip()
    assert isinstance(note.meta, dict)
    for problem in note.problems:
        assert problem.path == "folder/any.md" and problem.field and problem.message and problem.fix


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=300))
def test_property_parsing_arbitrary_bytes_never_raises(raw: bytes) -> None:
    note = parse_note("x.md", raw)
    assert isinstance(note.body, str)


def test_a_tag_inside_a_comment_is_no_tag_as_obsidian_ignores_it() -> None:
    body = "#real %% #commented %%\n<!-- #html\n#comment -->\n%%\n#block\n%%\n#also <!-- #unclosed mid-line\n#shown\n"
    assert inline_tags(body) == ["real", "also", "unclosed", "shown"]  # an unclosed <!-- inside a line is text
    assert inline_tags("#real\n<!-- an HTML block left open\n#gone\n") == ["real"]
    assert inline_tags("`%%` #after-code-span\n") == ["after-code-span"]  # %% in code opens no comment


def test_inline_body_tags_count_as_tags_but_not_in_code_or_headings() -> None:
    from vaultmem.notes import parse_note

    raw = (
        b"---\ntags: [work]\n---\n# Heading is not a tag\n"
        b"Call the plumber #errands #Work and #2026-plan, not #1 or a#b or http://x.io/#frag\n"
        b"```\n#not-in-code\n```\n`#nor-inline-code`\n"
    )
    assert parse_note("n.md", raw).tags == ["work", "errands", "2026-plan"]


def test_a_tag_in_the_text_in_turkish_case_is_the_frontmatter_tag_listed_once() -> None:
    # A trial on a Turkish vault: `tags: [iş]` with `#İş` in the text listed both (str.lower
    # makes İ a dotted "i̇"), and #ISPARTA beside #ısparta twice.
    from vaultmem.notes import parse_note

    raw = "---\ntags: [iş]\n---\nBugün #İş toplantısı, #ısparta ve #ISPARTA.\n".encode()
    assert parse_note("n.md", raw).tags == ["iş", "ısparta"]


def test_a_fence_that_never_closes_does_not_hide_the_rest_of_the_note() -> None:
    # Lines like "```python" open fences and none closes them: one stray fence line must
    # not make every later tag (and link) vanish into "code".
    assert inline_tags("#before\n```python\n#inside\n```python\n#later\n") == ["before", "inside", "later"]
    assert inline_tags("para\n    ```\n\nSee #todo\n") == ["todo"]


def test_a_code_block_inside_a_list_item_or_quote_ends_at_its_indented_fence() -> None:
    assert inline_tags("- ```sh\n  #not-a-tag\n  ```\n\nSee #todo\n") == ["todo"]
    assert inline_tags("> ```\n> #quoted-code\n> ```\n#after\n") == ["after"]
    assert inline_tags("1. ~~~\n   #code\n   ~~~\n#after\n") == ["after"]


def test_only_newlines_end_lines_in_markdown() -> None:
    assert inline_tags("text\x0c```\n#a\n```\n#b\n") == ["a", "b"]  # a form feed does not start a fence line


def test_a_fence_closes_only_on_the_same_character_at_least_as_long() -> None:
    body = "````\n#a\n```\n#b\n~~~~\n#c\n`````\n#after\n"
    assert inline_tags(body) == ["after"]
    assert inline_tags("~~~\n#a\n```\n#b\n~~~\n#after\n") == ["after"]


def test_a_double_backtick_span_holding_a_backtick_is_code() -> None:
    assert inline_tags("``#a ` #b`` and #c\n") == ["c"]
    text = "x ``y`z`` w\n"
    assert [text[start:end] for start, end in code_ranges(text)] == ["``y`z``"]


def test_search_tag_filter_finds_inline_tags(tmp_path) -> None:
    from vaultmem import Vault

    (tmp_path / "inbox.md").write_text("# Inbox\nBuy stamps #errands\n", encoding="utf-8")
    (tmp_path / "other.md").write_text("# Other\nBuy stamps\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        assert [hit.path for hit in vault.search("stamps", tags=["errands"])] == ["inbox.md"]


def test_a_bear_tag_of_several_words_closed_by_a_hash_is_that_tag() -> None:
    # A trial on Bear's export: `#reading list#` was the tag `reading`, and --tag "reading list"
    # found nothing. Its first word stays a tag (Obsidian reads the line so).
    body = "Oat milk #home/shopping #my list# #food#\n#work/next steps# and #reading list#.\n"
    assert inline_tags(body) == ["home/shopping", "my list", "my", "food", "work/next steps", "work/next",
                                "reading list", "reading"]
    assert inline_tags("#a b#c and #tag1 and #tag2#\n") == ["a", "tag1", "tag2"]  # no closing '#' of Bear's
    assert inline_tags("`#in code#` and #learn go#\n") == ["learn go", "learn"]


def test_search_and_list_find_a_bear_tag_of_several_words(tmp_path) -> None:
    from vaultmem import Vault

    (tmp_path / "Reading.md").write_text("# Reading\n\nFinished The Dispossessed.\n\n#reading list#\n", encoding="utf-8")
    (tmp_path / "Other.md").write_text("# Other\n\nThe Dispossessed, again #reading\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        assert [hit.path for hit in vault.search("Dispossessed", tags=["reading list"])] == ["Reading.md"]
        assert [note.path for note in vault.list_notes(tags=["Reading List"])] == ["Reading.md"]



def test_a_roam_tag_of_several_words_in_brackets_is_that_tag() -> None:
    """Was (a trial on a Roam export): `#[[multi word tag]]` was no tag at all (the words only a
    link), and --tag "multi word tag" found nothing; Roam and Logseq read it as that tag."""
    body = "Met Ana #[[multi word tag]] and #rust, #[[Project X]]\na#[[glued]] `#[[in code]]` #[[2024]] #[[ two  spaces ]]\n"
    assert inline_tags(body) == ["multi word tag", "rust", "Project X", "two spaces"]


def test_a_roam_tag_opened_before_a_long_line_that_never_closes_is_read_in_linear_time(tmp_path) -> None:
    """Was (review): the tag's pattern put its letter between two runs of the same characters, so
    `#[[` before 40,000 letters and no `]]` took ~8 s (100,000: a minute), in every reindex."""
    hostile = "#[[" + "a" * 40_000 + "\n#[[real tag]]\n"
    (tmp_path / "Paste.md").write_text(hostile, encoding="utf-8")
    started = time.thread_time()
    tags = read_note(tmp_path, "Paste.md").tags
    assert time.thread_time() - started < 1.0
    assert tags == ["real tag"]


def test_search_and_list_find_a_roam_tag_of_several_words(tmp_path) -> None:
    from vaultmem import Vault

    (tmp_path / "Reading.md").write_text("- Finished The Dispossessed #[[reading list]]\n", encoding="utf-8")
    (tmp_path / "Other.md").write_text("- The Dispossessed, again [[reading list]]\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        assert [hit.path for hit in vault.search("Dispossessed", tags=["reading list"])] == ["Reading.md"]
        assert [note.path for note in vault.list_notes(tags=["Reading List"])] == ["Reading.md"]

# ---------------------------------------------------------------- through the CLI: a typo must not resurrect (issue 11 §2)


def test_a_second_colon_in_the_title_of_an_expired_memory_does_not_resurrect_it(vault_dir: Path) -> None:
    import json

    from helpers import run_cli, run_json, snapshot_files

    (vault_dir / ".vaultmem.toml").write_text('embedder = "hashing"\n', encoding="utf-8")
    made = run_json(vault_dir, "remember", "The boiler service is booked for Friday morning, technician Rui.",
                    "--layer", "L2", "--title", "Boiler service: Friday")
    assert run_cli(vault_dir, "used", made["id"]).exit_code == 0
    file = vault_dir / made["path"]
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    # By hand: the deadline moved to last month, and the title loses its quotes (YAML breaks).
    lines = ["expires_at: 2026-11-01T00:00:00+00:00\n" if line.startswith("expires_at:") else
             "title: Boiler service: Friday: Rui\n" if line.startswith("title:") else line for line in lines]
    file.write_text("".join(lines), encoding="utf-8")
    before = snapshot_files(vault_dir)
    assert run_cli(vault_dir, "index").exit_code == 0
    assert made["path"] not in {hit["path"] for hit in run_json(vault_dir, "search", "boiler service technician Rui")}
    [hit] = [hit for hit in run_json(vault_dir, "search", "boiler service technician Rui", "--include-expired")
             if hit["path"] == made["path"]]
    assert (hit["id"], hit["layer"], hit["expires_at"]) == (made["id"], "L2", "2026-11-01T00:00:00+00:00")
    assert any("YAML does not load at line 3" in warning for warning in hit["warnings"])
    view = run_json(vault_dir, "get", made["id"])  # its id still names it, and its usage is still its own
    assert (view["id"], view["expired"], view["use_count"]) == (made["id"], True, 1)
    check = run_cli(vault_dir, "check", "--json")
    assert check.exit_code == 1
    assert [(problem["path"], problem["field"]) for problem in json.loads(check.stdout)["problems"]] == [(made["path"], "frontmatter")]
    expire = run_json(vault_dir, "expire", "--apply")
    assert [entry["path"] for entry in expire["expired"]] == [made["path"]]
    assert "frontmatter does not load" in expire["skipped"][0]["reason"]
    assert snapshot_files(vault_dir) == before  # nothing was written to it, nor moved


# ---------------------------------------------------------------- frontmatter read otherwise than meant (reader 20)


def test_a_key_set_twice_is_a_problem_naming_both_lines_the_value_read_and_the_one_ignored() -> None:
    # PyYAML keeps the last `title` without a word; Obsidian's reader refuses the block.
    note = parse("---\ntitle: A\ntags: [harbor]\nlayer: L4\ntitle: B\n---\nBody.\n")
    assert note.meta == {"title": "B", "tags": ["harbor"], "layer": "L4"}  # read as before
    assert note.title == "B" and note.has_frontmatter and not note.metadata_unloaded
    [problem] = note.problems
    assert problem.field == "title"
    assert problem.message.startswith("title is set twice (lines 2 and 5): B is read, A is ignored")
    assert problem.fix == "remove one of them"


def test_a_list_set_twice_shows_each_list_and_a_key_set_three_times_names_every_line() -> None:
    twice = parse("---\ntags: [a, b]\ntags:\n  - c\n---\n")
    assert twice.meta == {"tags": ["c"]}
    assert [problem.message.split(" (and Obsidian")[0] for problem in twice.problems] == [
        "tags is set twice (lines 2 and 3): [c] is read, [a, b] is ignored"]
    thrice = parse("---\nstatus: x\nstatus:\nstatus: 'z'\n---\n")
    [problem] = thrice.problems
    assert problem.message.startswith("status is set 3 times (lines 2, 3 and 4): z is read, x and (empty) are ignored")
    assert problem.fix == "keep one status line, remove the others"


def test_a_key_set_thousands_of_times_is_one_short_problem_read_in_linear_time() -> None:
    started = time.thread_time()
    note = parse("---\n" + "".join(f"k: v{number}\n" for number in range(20_000)) + "---\n")
    [problem] = note.problems
    assert problem.message.startswith("k is set 20000 times (lines 2, 3, 4, 5, …, 20001): v19999 is read, "
                                      "v0, v1, v2, v3 and 19995 more are ignored")
    assert time.thread_time() - started < 2.0


@pytest.mark.parametrize("text", [
    "---\ntitle: A\nTitle: B\n---\n",  # two keys (case counts in YAML and in Obsidian)
    "---\nbase: &base\n  a: 1\n<<: *base\na: 2\n---\n",  # a key a merge brings in, overridden on purpose
    "---\nouter:\n  a: 1\nlist:\n  - a: 1\n  - a: 2\n---\n",  # the same key in two different mappings
])
def test_keys_that_only_look_repeated_are_no_problem(text: str) -> None:
    assert parse(text).problems == ()


@pytest.mark.parametrize(("line", "key", "shown", "fix"), [
    ("tags: #tag1 #tag2", "tags", "#tag1 #tag2", "write tags: [tag1, tag2]"),
    ("tags:   #work, #harbor/crane", "tags", "#work, #harbor/crane", "write tags: [work, harbor/crane]"),
    ("aliases: #Tommy", "aliases", "#Tommy", "write aliases: '#Tommy' (quoted, YAML keeps the #)"),
    ("status:\t#draft", "status", "#draft", "write status: '#draft' (quoted, YAML keeps the #)"),
    ("color: #ff0000 it's red", "color", "#ff0000 it's red", "write color: '#ff0000 it''s red' (quoted, YAML keeps the #)"),
])
def test_a_value_yaml_reads_as_a_comment_is_a_problem_with_the_line_meant(line: str, key: str, shown: str, fix: str) -> None:
    # ` #` starts a YAML comment: tags typed as in the body load as `tags: null`, silently.
    note = parse(f"---\ntitle: Crane\n{line}\n---\nBody.\n")
    assert note.meta == {"title": "Crane", key: None}  # read as before
    assert note.tags == []
    [problem] = note.problems
    assert (problem.field, problem.message, problem.fix) == (key, f"{key}: '{shown}' (line 3) is a YAML comment, so {key} is empty", fix)


@pytest.mark.parametrize("text", [
    "---\ntags: # none yet\n---\n",  # a comment, meant: a space after the #
    "---\ntags: #mine\n  - harbor\n---\n",  # a comment on the key's line, the list below it
    "---\ntags: [a] #mine\n---\n",  # a comment after the value
    "---\ntitle: 'Issue #4'\n---\n",  # a # inside a value
    "---\nouter:\n  tags: #a\n---\n",  # not a top-level key
    "---\ntags:\n---\n",  # empty, and no # at all
])
def test_a_comment_that_eats_no_meant_value_is_no_problem(text: str) -> None:
    assert parse(text).problems == ()


def test_many_values_read_as_comments_are_each_said_with_their_line_in_linear_time() -> None:
    started = time.thread_time()
    note = parse("---\n" + "".join(f"k{number}: #v\n" for number in range(20_000)) + "---\n")
    assert len(note.problems) == 20_000
    assert note.problems[-1].message == "k19999: '#v' (line 20001) is a YAML comment, so k19999 is empty"
    assert time.thread_time() - started < 2.0


def test_a_frontmatter_that_is_a_yaml_list_stays_text_and_is_a_problem() -> None:
    text = "---\n- harbor\n- work\n---\nThe crane is booked.\n"
    note = parse(text)
    assert (note.meta, note.body, note.has_frontmatter) == ({}, text, False)  # read as before
    [problem] = note.problems
    assert problem.field == "frontmatter" and note.metadata_unloaded
    assert problem.message.startswith("the frontmatter on lines 1–4 is a YAML list, not properties: nothing in it is read")
    assert "`key: value`" in problem.fix and "blank line above the first ---" in problem.fix


def test_keys_without_a_space_after_the_colon_are_one_piece_of_text_and_a_problem() -> None:
    text = "---\ntitle:Crane booking\nlayer:L3\n---\nThe crane is booked.\n"
    note = parse(text)
    assert (note.meta, note.body) == ({}, text)  # read as before
    [problem] = note.problems
    assert problem.field == "frontmatter"
    assert problem.message.startswith("line 2 'title:Crane booking' has no space after its colon, so YAML reads the "
                                      "frontmatter on lines 1–4 as one piece of text, not properties")
    assert problem.fix == "put a space after each key's colon (title: Crane booking)"


@pytest.mark.parametrize("text", [
    "---\nJust a paragraph between two rules.\n---\n",
    "---\n10:30 standup, then https://example.com\n---\n",  # a time and a link are no key
])
def test_a_rule_over_prose_is_still_no_problem(text: str) -> None:
    note = parse(text)
    assert note.problems == () and note.body == text


# ---------------------------------------------------------------- Hugo's TOML front matter


HUGO_TOML = (
    "+++\n"
    'title = "Atomic Habits"\n'
    "date = 2020-11-01\n"
    "lastmod = 2021-03-04T10:00:00+01:00\n"
    'tags = ["productivity", "book"]\n'
    'aliases = ["/old/path/"]\n'
    "draft = false\n"
    "+++\n"
    "\n"
    "## Atomic Habits {#atomic-habits}\n"
)


def test_hugo_toml_front_matter_is_read_as_the_notes_properties_not_its_text() -> None:
    note = parse(HUGO_TOML, "content/books/atomic_habits.md")
    assert note.title == "Atomic Habits"
    assert note.tags == ["productivity", "book"]
    assert note.meta["date"] == date(2020, 11, 1)
    assert note.meta["lastmod"] == datetime.fromisoformat("2021-03-04T10:00:00+01:00")
    assert note.meta["aliases"] == ["/old/path/"]
    assert note.has_frontmatter
    assert note.body == "\n## Atomic Habits {#atomic-habits}\n"
    assert note.body_line == 9
    assert note.problems == ()


def test_a_toml_title_that_is_a_bare_date_or_number_names_the_note_as_written() -> None:
    assert parse("+++\ntitle = 2020-09-14\ndate = 2020-09-14\n+++\nbody\n", "content/journal/x.md").title == "2020-09-14"
    assert parse("+++\ntitle = 1984\n+++\nbody\n", "content/books/nineteen.md").title == "1984"


def test_toml_front_matter_that_does_not_load_is_a_problem_naming_toml_and_its_body_stays_apart() -> None:
    note = parse('+++\ntitle = "unclosed\n+++\nBody.\n', "content/broken.md")
    assert note.body == "Body.\n"
    assert note.metadata_unloaded
    [problem] = note.problems
    assert problem.field == "frontmatter" and "TOML" in problem.message and "+++" in problem.message


def test_a_plus_rule_that_is_never_closed_is_the_notes_text() -> None:
    note = parse("+++\nnot a block\n", "plain.md")
    assert not note.has_frontmatter and note.body == "+++\nnot a block\n" and note.problems == ()


def test_plus_lines_around_prose_are_the_notes_text_not_toml_that_does_not_load() -> None:
    """As a `---` rule over prose is (split_frontmatter): `+++` lines around a paragraph were taken
    for TOML that does not load — the paragraph out of the note's body, its search and get, a
    frontmatter problem reported, and `revise --tag` refused as "its frontmatter is TOML"."""
    text = "+++\nThe plan, in three steps.\n+++\n\nStep one.\n"
    note = parse(text, "plain.md")
    assert (note.has_frontmatter, note.body, note.problems) == (False, text, ())
    edited = edit_frontmatter(text.encode(), {"tags": ["plan"]})
    assert edited.decode().endswith(text)
    assert parse_note("plain.md", edited).meta == {"tags": ["plan"]}
    # A block with one line TOML reads as a key is still TOML, and its problem is said.
    assert parse('+++\ntitle = "unclosed\nWords.\n+++\nBody.\n', "content/broken.md").metadata_unloaded


# A person's note from a CRM template: `name` is who they are, `title` their job (a trial on a people vault).
PERSON = "---\nname: Matt Ober\ncompany: Social Leverage\ntitle: Partner\n---\n\n# Matt Ober\n\nInvestor.\n"


@pytest.mark.parametrize(("path", "text", "title"), [
    ("people/matt-ober.md", PERSON, "Matt Ober"),  # title is not the file name: it is his job
    ("people/Matt Ober.md", PERSON, "Matt Ober"),
    ("people/austin.md", "---\nname: Austin Reyes\n---\nSFMG.\n", "Austin Reyes"),  # no title: the name names it
    ("people/partner.md", PERSON, "Partner"),  # the title is the file name: it names the note
    ("posts/2024-01-05-hello.md", "---\ntitle: Hello, world\n---\nHi.\n", "Hello, world"),  # Hugo/Jekyll: as before
    ("people/empty.md", "---\nname:\ntitle: CEO\n---\nx\n", "CEO"),  # an empty name names nothing
    ("people/nobody.md", "---\nname: ''\n---\nx\n", "nobody"),
])
def test_a_name_property_names_the_note_unless_its_title_is_the_file_name(path: str, text: str, title: str) -> None:
    assert parse_note(path, text.encode()).title == title


def test_a_title_that_does_not_name_the_note_is_searched_as_a_property_and_the_name_is_not() -> None:
    from vaultmem.fields import search_fields

    fields = search_fields(parse_note("people/matt-ober.md", PERSON.encode()))
    assert fields.title == "Matt Ober"
    assert fields.props == (("company", "Social Leverage"), ("title", "Partner"))


def test_a_time_of_day_in_a_property_is_read_as_written_not_as_a_sexagesimal_number(tmp_path: Path) -> None:
    # A trial: a Chinese vault's template writes `time: 18:18` in every note; YAML 1.1 read it
    # as 18 * 60 + 18, and `get` showed (and search held) `time: 1098`.
    (tmp_path / "n.md").write_text("---\ntime: 18:18\nlength: 1:30:00\npace: 4:05.5\nyear: 2024\nratio: 0.5\n---\nx\n",
                                   encoding="utf-8")
    meta = read_note(tmp_path, "n.md").meta
    assert (meta["time"], meta["length"], meta["pace"]) == ("18:18", "1:30:00", "4:05.5")
    assert (meta["year"], meta["ratio"]) == (2024, 0.5)  # numbers without a colon stay numbers


def test_a_broken_frontmatter_keeps_a_line_whose_value_is_a_day_and_asks_yaml_of_few_of_them() -> None:
    note = parse("---\nfecha: 2026-01-05\nstatus: draft\ncreado: 2026-01-04T10:00:00Z\ntags: [a\n---\nbody\n")
    assert note.meta == {"fecha": date(2026, 1, 5), "creado": datetime(2026, 1, 4, 10, tzinfo=UTC)}  # status: no day
    started = time.thread_time()
    many = parse("---\ntags: [a\n" + "".join(f"k{number}: 2026-01-05\n" for number in range(20_000)) + "---\n")
    assert len(many.meta) == MAX_SALVAGED_DAYS  # each a YAML load: 20,000 took seconds
    assert time.thread_time() - started < 2.0


@pytest.mark.parametrize("written", ["yes", "no", "On", "0x1F", "010", "1.10", "1_000", "1e3", "2024-01-05", ".inf"])
def test_a_title_yaml_1_1_reads_as_a_boolean_number_or_date_is_the_text_written(written: str) -> None:
    # Was (s39): `title: yes` was the boolean True, so the note was named by its file name;
    # `title: 0x1F` was the number 31 and showed "31", `1.10` showed "1.1" (YAML 1.1's types).
    note = parse(f"---\ntitle: {written}\n---\nbody\n", path="folder/some-file.md")
    assert note.meta["title"] == written
    assert note.title == written


def test_tags_and_aliases_yaml_reads_as_booleans_or_numbers_are_the_text_written() -> None:
    # Was (s39): `tags: [yes, no]` were the tags "True" and "False"; `aliases: [0x1F, 1.10]` were 31 and 1.1.
    note = parse("---\ntags: [yes, no, 1.10]\naliases: [1984, 0x1F, 1.10, 'quoted']\nstatus: yes\n---\nbody\n")
    assert tags_of(note.meta) == ["yes", "no", "1.10"]
    assert note.meta["aliases"] == ["1984", "0x1F", "1.10", "quoted"]
    assert note.meta["status"] is True  # a key that is no name: read as YAML reads it, as before


def test_a_null_title_is_still_no_title_and_an_anchored_value_stays_typed_under_its_own_key() -> None:
    # `null`, `~` and nothing are no value in every YAML (and in Obsidian): the file name names the note.
    for written in ("null", "~", ""):
        assert parse(f"---\ntitle: {written}\n---\nbody\n", path="folder/some-file.md").title == "some-file"
    note = parse("---\ndraft: &flag yes\ntitle: *flag\n---\nbody\n")
    assert (note.meta["draft"], note.meta["title"]) == (True, "yes")  # the title is text; the anchor's own key unchanged


def test_a_broken_frontmatter_keeps_a_title_yaml_reads_as_a_boolean_as_its_text() -> None:
    note = parse("---\ntitle: yes # a comment\ntags: [a\n---\nbody\n", path="folder/some-file.md")
    assert note.title == "yes"


def test_a_vault_names_a_note_titled_yes_or_0x1f_by_its_title_in_hits_and_get(tmp_path: Path) -> None:
    # Was (s39): the hit on `title: 0x1F` was titled "31", and `get yes` found no note titled yes.
    from vaultmem import Vault

    (tmp_path / "register-a.md").write_text("---\ntitle: 0x1F\n---\nThe harbor crane register.\n", encoding="utf-8")
    (tmp_path / "answer-b.md").write_text("---\ntitle: yes\ntags: [no]\n---\nThe ferry timetable.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        assert [hit.title for hit in vault.search("harbor crane register", k=1, now="2026-11-30")] == ["0x1F"]
        assert vault.get("yes").path == "answer-b.md"
        assert [hit.path for hit in vault.search("ferry", k=1, tags=["no"], now="2026-11-30")] == ["answer-b.md"]
