"""Body edits (vaultmem/body_edits.py): ``revise --text``/``--append`` and a merge's
appended lines change what follows the frontmatter and keep every byte before it."""

from __future__ import annotations

import pytest

from vaultmem.body_edits import append_paragraph, replace_body
from vaultmem.errors import FrontmatterError
from vaultmem.notes import parse_note

A_NOTE = (
    "---\n"
    "title: \"Harbor: the plan\"   # quoted on purpose\n"
    "layer: L3\n"
    "# a comment the user keeps between keys\n"
    "tags: [harbor, work]\n"
    "---\n"
    "\n"
    "Body with trailing spaces   \n"
    "---\n"
    "key: value lines in the body are not frontmatter\n"
    "no final newline"
)


def head_of(raw: bytes) -> bytes:
    """Everything up to and including the closing delimiter line."""
    end = raw.index(b"\n---", 4)
    return raw[: raw.index(b"\n", end + 1) + 1]


@pytest.mark.parametrize("raw", [
    A_NOTE.encode("utf-8"),
    ("\ufeff" + A_NOTE).encode("utf-8"),
    A_NOTE.replace("\n", "\r\n").encode("utf-8"),
])
def test_replace_body_keeps_the_frontmatter_bytes(raw: bytes) -> None:
    edited = replace_body(raw, "New text.\nSecond line")
    assert edited.startswith(head_of(raw))
    newline = b"\r\n" if b"\r\n" in raw else b"\n"
    assert edited[len(head_of(raw)):] == b"New text." + newline + b"Second line" + newline
    assert parse_note("n.md", edited).meta == parse_note("n.md", raw).meta


@pytest.mark.parametrize(("body", "appended"), [
    ("one\n", "one\n\nnew\n"),
    ("one", "one\n\nnew\n"),
    ("one\n\n", "one\n\nnew\n"),
    ("", "new\n"),
    ("\n", "\nnew\n"),
])
def test_append_paragraph_keeps_every_byte_and_adds_one_blank_line(body: str, appended: str) -> None:
    raw = ("---\nlayer: L3  # mine\n---\n" + body).encode("utf-8")
    assert append_paragraph(raw, "new") == ("---\nlayer: L3  # mine\n---\n" + appended).encode("utf-8")


def test_a_body_edit_of_a_note_without_frontmatter_replaces_the_whole_text() -> None:
    assert replace_body(b"# Mine\nold\n", "# Mine\nnew") == b"# Mine\nnew\n"
    assert append_paragraph(b"---\nnot yaml, a rule\n---\nprose\n", "more") == b"---\nnot yaml, a rule\n---\nprose\n\nmore\n"


def test_a_closing_delimiter_without_a_newline_gets_one_before_the_body() -> None:
    assert replace_body(b"---\nlayer: L3\n---", "text") == b"---\nlayer: L3\n---\ntext\n"


def test_a_body_that_would_read_as_frontmatter_is_refused() -> None:
    with pytest.raises(FrontmatterError, match="the file was not touched"):
        replace_body(b"just prose\n", "---\nlayer: L1\n---\nnow metadata")


def test_a_body_edit_of_a_file_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(FrontmatterError, match="UTF-8"):
        append_paragraph(b"---\nlayer: L3\n---\ncaf\xe9\n", "more")


KANBAN_BOARD = (
    "---\n\nkanban-plugin: basic\n\n---\n\n"
    "## To Do\n\n- [ ] 筛选数据模块 @{2026-03-02}\n\n\n"
    "## Bin\n\n- [ ] 文件重命名模块\n\n\n\n\n"
    "%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\",\"new-note-folder\":\"Projects\"}\n```\n%%"
)


def kanban_settings_footer(text: str) -> str:
    """What the Kanban plugin reads as the board's settings (its ``extractSettingsFooter``, in
    Python): scanning back from the end past backticks, ``%`` and line breaks only, up to the
    closing fence, then the JSON after the opening one — ``""`` when any other character comes
    first."""
    ticks, position = 0, len(text) - 1
    while ticks < 3:
        if position < 0 or text[position] not in "`%\r\n":
            return ""
        ticks += text[position] == "`"
        position -= 1
    settings_end = position + 1
    opening = text.rindex("\n```", 0, settings_end) + 4
    return text[opening:settings_end].strip()


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_append_to_a_kanban_board_goes_above_its_settings_which_stay_the_last_lines(newline: str) -> None:
    raw = KANBAN_BOARD.replace("\n", newline).encode("utf-8")
    edited = append_paragraph(raw, "- [ ] 拼接模板测试 @{2026-03-05}").decode("utf-8")
    assert kanban_settings_footer(edited) == '{"kanban-plugin":"basic","new-note-folder":"Projects"}'
    card = edited.index("- [ ] 拼接模板测试 @{2026-03-05}")
    assert edited.index("- [ ] 文件重命名模块") < card < edited.index("%% kanban:settings")
    # every byte of the board is kept, the card and one blank line are all that is new
    before_footer = KANBAN_BOARD.index("%% kanban:settings")
    expected = KANBAN_BOARD[:before_footer] + "- [ ] 拼接模板测试 @{2026-03-05}\n\n" + KANBAN_BOARD[before_footer:]
    assert edited == expected.replace("\n", newline)


BOARD_WITH_ARCHIVE = (
    "---\n\nkanban-plugin: board\n\n---\n\n"
    "## Задачи\n\n- [ ] Локация киберпанк\n\n\n"
    "## Повторяющиеся задачи\n\n- [ ] Рефакторинг кода (Постоянно)\n\n\n"
    "***\n\n## Архивировать\n\n- [x] 2025-09-09 17:00 Снаряды\n\n"
    "%% kanban:settings\n```\n{\"kanban-plugin\":\"board\"}\n```\n%%"
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_append_to_a_kanban_board_with_an_archive_goes_above_the_archive_not_into_it(newline: str) -> None:
    # Kanban archives every card below its `***` line: appended at the end, a new card was hidden
    # in the board's archive lane (a trial on a Russian board whose archive lane is "Архивировать").
    raw = BOARD_WITH_ARCHIVE.replace("\n", newline).encode("utf-8")
    edited = append_paragraph(raw, "- [ ] Звук шагов").decode("utf-8")
    archive = BOARD_WITH_ARCHIVE.index("***")
    expected = BOARD_WITH_ARCHIVE[:archive] + "- [ ] Звук шагов\n\n" + BOARD_WITH_ARCHIVE[archive:]
    assert edited == expected.replace("\n", newline)
    assert kanban_settings_footer(edited) == '{"kanban-plugin":"board"}'


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_new_text_for_a_kanban_board_replaces_its_lanes_and_keeps_its_settings_as_the_last_lines(newline: str) -> None:
    # A trial: `revise BOARD --text` replaced the settings block too, and the board lost its
    # new-card folder and the rest of its settings.
    raw = KANBAN_BOARD.replace("\n", newline).encode("utf-8")
    lanes = "## Doing\n\n- [ ] 拼接模板测试\n\n## Done\n\n- [x] 筛选数据模块"
    edited = replace_body(raw, lanes).decode("utf-8")
    settings = KANBAN_BOARD[KANBAN_BOARD.index("%% kanban:settings"):]
    expected = head_of(KANBAN_BOARD.encode("utf-8")).decode("utf-8") + lanes + "\n\n" + settings
    assert edited == expected.replace("\n", newline)
    assert kanban_settings_footer(edited) == '{"kanban-plugin":"basic","new-note-folder":"Projects"}'
    assert "文件重命名模块" not in edited


def test_a_new_text_for_a_kanban_board_that_brings_its_own_settings_is_written_as_given() -> None:
    # the whole board as `get` showed it, a lane changed: one settings block, the text's
    board = KANBAN_BOARD[KANBAN_BOARD.index("## To Do"):].replace("\"Projects\"", "\"Cards\"")
    edited = replace_body(KANBAN_BOARD.encode("utf-8"), board).decode("utf-8")
    assert edited.count("%% kanban:settings") == 1
    assert kanban_settings_footer(edited) == '{"kanban-plugin":"basic","new-note-folder":"Cards"}'


def test_a_new_text_for_a_note_whose_comment_holds_settings_followed_by_words_replaces_it_all() -> None:
    raw = b"%% kanban:settings\n```\n{}\n```\n%%\n\nMy own words.\n"
    assert replace_body(raw, "New words.") == b"New words.\n"


def test_an_append_below_a_rule_of_stars_in_a_note_that_is_no_kanban_board_goes_at_the_end() -> None:
    raw = b"Part one.\n\n***\n\nPart two.\n"
    assert append_paragraph(raw, "More.") == b"Part one.\n\n***\n\nPart two.\n\nMore.\n"


def test_an_append_below_a_comment_that_holds_no_block_still_goes_at_the_end() -> None:
    raw = b"Text.\n\n%% a note to myself %%\n"
    assert append_paragraph(raw, "More.") == b"Text.\n\n%% a note to myself %%\n\nMore.\n"


def test_an_append_to_a_body_with_a_settings_block_followed_by_text_goes_at_the_end() -> None:
    raw = b"%% kanban:settings\n```\n{}\n```\n%%\n\nMy own words.\n"
    assert append_paragraph(raw, "More.") == b"%% kanban:settings\n```\n{}\n```\n%%\n\nMy own words.\n\nMore.\n"


# An Excalidraw drawing as the plugin (version 2) saves it: a person's notes above "# Excalidraw
# Data", which the plugin writes anew from its scene at each save, keeping what is above.
DRAWING_BANNER = ("==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠== You can decompress "
                  "Drawing data with the command palette: 'Decompress current Excalidraw file'. For more info check in "
                  "plugin settings under 'Saving'")
EXCALIDRAW_DRAWING = (
    "---\n\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n\n---\n" + DRAWING_BANNER + "\n\n\n"
    "Sketched with Priya.\n\n"
    "# Excalidraw Data\n\n## Text Elements\nLinux Kernel ^8oOOL8dK\n\nSystem Call ^KdNnFRIB\n\n"
    "## Embedded Files\n9d1f3c0e5b2a4a7d8e6f1a2b3c4d5e6f7a8b9c0d: [[Pasted image 20230511141235.png]]\n\n"
    "%%\n## Drawing\n```compressed-json\nN4KAkARALgngDgUwgLgQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KqATLZMzYBXUtiRoIACyhQ4zZAHoFAc0JRJQgEYA6bGwC2CgF7N6hbEb\n\n"
    "IIAE=\n```\n%%"
)
LEGACY_DRAWING = (
    "---\n\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n\n---\n\n# Text Elements\nHotkeys ^1S083xwr\n\n"
    "[[Hotkeys.md]] ^ZraWHpim\n\n%%\n# Drawing\n```json\n{\n\t\"type\": \"excalidraw\",\n\t\"elements\": []\n}\n```\n%%"
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_append_to_an_excalidraw_drawing_goes_above_its_data_heading_where_the_plugin_keeps_it(newline: str) -> None:
    raw = EXCALIDRAW_DRAWING.replace("\n", newline).encode("utf-8")
    edited = append_paragraph(raw, "Reviewed on Monday.").decode("utf-8")
    data = EXCALIDRAW_DRAWING.index("# Excalidraw Data")
    expected = EXCALIDRAW_DRAWING[:data] + "Reviewed on Monday.\n\n" + EXCALIDRAW_DRAWING[data:]
    assert edited == expected.replace("\n", newline)


def test_an_append_to_a_drawing_saved_before_excalidraw_2_goes_above_its_text_elements() -> None:
    edited = append_paragraph(LEGACY_DRAWING.encode("utf-8"), "Reviewed on Monday.").decode("utf-8")
    elements = LEGACY_DRAWING.index("# Text Elements")
    assert edited == LEGACY_DRAWING[:elements] + "Reviewed on Monday.\n\n" + LEGACY_DRAWING[elements:]


def test_an_append_to_a_drawing_in_fade_out_mode_goes_above_the_comment_that_opens_its_data() -> None:
    faded = EXCALIDRAW_DRAWING.replace("# Excalidraw Data", "%%\n# Excalidraw Data").replace("\n%%\n## Drawing", "\n## Drawing")
    edited = append_paragraph(faded.encode("utf-8"), "Reviewed on Monday.").decode("utf-8")
    comment = faded.index("%%\n# Excalidraw Data")
    assert edited == faded[:comment] + "Reviewed on Monday.\n\n" + faded[comment:]


def test_a_new_text_for_an_excalidraw_drawing_is_refused_rather_than_replacing_the_drawing() -> None:
    with pytest.raises(FrontmatterError, match="Excalidraw drawing.*nothing was written. Append the words instead"):
        replace_body(EXCALIDRAW_DRAWING.encode("utf-8"), "Kernel sketch: syscalls go through the kernel.")
    with pytest.raises(FrontmatterError, match="Excalidraw drawing"):
        replace_body(LEGACY_DRAWING.encode("utf-8"), "Hotkeys map.")


def test_a_note_that_only_quotes_a_drawing_s_headings_in_prose_keeps_its_end_for_appends() -> None:
    raw = b"# Text Elements\nWhat the plugin lists.\n\n%% a note to myself %%\n"
    assert append_paragraph(raw, "More.") == raw + b"\nMore.\n"
    assert replace_body(raw, "New.") == b"New.\n"


def test_a_note_with_a_bom_and_no_frontmatter_takes_a_new_text_and_an_append(tmp_path) -> None:
    """Notepad's UTF-8 BOM and no frontmatter (a Logseq page's property lines, a plain note): the
    BOM was taken for a head and given a newline after it, the body then read with a blank line
    more, and every `revise --text`/`--append` refused ("could not change this note's text")."""
    for raw in ("\ufefftitle:: Bom page\nlayer:: L3\n\n- old text\n".encode(),
                "\ufeffPlain note\r\nsecond line\r\n".encode()):
        appended = append_paragraph(raw, "more")
        assert appended.startswith(raw)
        assert appended.endswith(b"more\n") or appended.endswith(b"more\r\n")
        replaced = replace_body(raw, "new text")
        assert replaced in ("\ufeffnew text\n".encode(), "\ufeffnew text\r\n".encode())
        assert parse_note("x.md", replaced).body == "new text\n"
    path = tmp_path / "p.md"  # and written: the head is the BOM alone
    path.write_bytes(append_paragraph("\ufeffOne line".encode(), "two"))
    assert path.read_bytes() == "\ufeffOne line\n\ntwo\n".encode()


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_append_to_a_body_that_ends_inside_an_unclosed_code_block_closes_it_first(newline: str) -> None:
    # A trial on a snippets vault: a TIL note pasted without its last fence, then `revise jq --append`;
    # Obsidian runs the block to the end of the note, so the appended paragraph showed as code.
    raw = "---\ntags: [til]\n---\n# jq\n\n```bash\njq . data.json\n".replace("\n", newline).encode()
    edited = append_paragraph(raw, "`jq -r` prints raw strings.")
    assert edited == raw + "```\n\n`jq -r` prints raw strings.\n".replace("\n", newline).encode()
    # In a quote, and with no final newline: the closer takes the opener's markers and its own line.
    quoted = b"> ```sh\n> ls -la"
    assert append_paragraph(quoted, "Done.") == b"> ```sh\n> ls -la\n> ```\n\nDone.\n"
    # A block that is closed, or a fence mark inside a line, is left as it is.
    closed = b"```bash\nls\n```\n"
    assert append_paragraph(closed, "Done.") == closed + b"\nDone.\n"
    inline = b"Use ``` to open a block.\n"
    assert append_paragraph(inline, "Done.") == inline + b"\nDone.\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_append_to_a_text_ending_inside_an_open_display_formula_is_refused(newline: str) -> None:
    """Was (a trial on a math vault): a proof note whose last `$$` block was never closed took
    `revise --append` at its end, and Obsidian read the paragraph as part of the formula. The
    append is refused, naming the line the block opens on; nothing of the note is changed."""
    body = ("---\ntitle: Irrational\n---\nSuppose $\\sqrt{2} = p/q$.\n$$\n\\sqrt{2} \\notin \\mathbb{Q}\n"
            ).replace("\n", newline)
    with pytest.raises(FrontmatterError, match=r"ends inside a \$\$ math block opened on line 5 and never closed"):
        append_paragraph(body.encode("utf-8"), "Also see Euclid.")


@pytest.mark.parametrize("text", [
    "A formula\n$$\nx^2\n$$\n",  # closed
    "Inline $$x$$ and $y$ and a price of $5.\n",  # closed on its line; a dollar sign
    "> [!proof]\n> $$\n> x^2\n",  # open in a callout: the callout, and the block, end at the blank line
    "```latex\n$$\nx\n```\n",  # in code
    "The sum $\\$$ sign and \\$$ escaped.\n",  # an escaped dollar does not open a block
])
def test_an_append_after_formulas_that_are_closed_quoted_or_code_goes_at_the_end(text: str) -> None:
    assert append_paragraph(text.encode("utf-8"), "More.") == (text + "\nMore.\n").encode("utf-8")
