"""Where a note's code is: fenced blocks and inline spans, found in linear time.

Tags and links inside code are not tags and links. Finding code with regexes such as
```` ^```.*?^``` ```` is quadratic on notes a person can write by accident (a fence that
never closes made a 100 KB note take 3 s), so this module scans lines and backtick runs
once, with look-ups that never rescan what was passed.

Rules, close to CommonMark and to what Obsidian renders:
- a fence is a line of three or more backticks or tildes, after indentation, ``>`` quote
  markers and one list marker (``- ```sh`` opens a block inside a list item); a backtick
  fence's info string holds no backtick;
- it closes on a later line holding only the same character, at least as many, after
  indentation and quote markers;
- a fence that never closes is *not* treated as code: CommonMark would run it to the end
  of the note, but one stray fence line would then hide every later tag and link (a
  consolidation would leave those links dangling); rewriting a link inside a truly
  unclosed block is the smaller harm — unless its language is a query's (``dataview``,
  ``tasks`` …): a query is no stray line, people leave the last one of a note open, and
  Obsidian runs it to the end (a Russian vault's dashboards ended so, six notes of 32:
  each query's ``from #tag`` was read as the note's own tag, its words as the note's text);
- an inline span runs from a run of backticks to the next run of the same length on the
  same line; a run with no partner is literal text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

# Indentation, blockquote markers, then at most one list marker.
_PREFIX = r"[ \t]*(?:>[ \t]*)*"
_FENCE_OPEN = re.compile(_PREFIX + r"(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(_PREFIX + r"(`{3,}|~{3,})[ \t]*")
# A line that may open or close a fenced code block, as the two above begin: a quick look before
# the lines are read. A fence behind "> " (a callout's Tasks query) or a list marker is one too.
FENCE_LINE = re.compile("^" + _PREFIX + r"(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:```|~~~)", re.MULTILINE)
_BACKTICKS = re.compile(r"`+")
# An ATX heading line (CommonMark): up to three spaces, 1–6 #, a space, its text, an optional closing run,
# then an optional attribute block, not part of its text: Pandoc's and Quarto's `## Results {#sec-results}`,
# `# Preface {-}` (unnumbered), MkDocs' attr_list `## Setup { #setup .wide }`, kramdown's `{: #id}`.
# Read as text, a Quarto note's passages sat under "Results {#sec-results .unnumbered}" and
# `get "Note#Results"` answered that the note had no such heading (a trial on a docs folder).
HEADING_LINE = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?"
                          r"(?:[ \t]+\{[ \t]*(?::[ \t]*)?(?:[#.][^{}\n]*|-[ \t]*)\})?[ \t]*$")


def code_ranges(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the fenced code blocks and inline code spans of ``text``, in order.

    Python reads the fence lines (:func:`fenced_blocks`) and the lines holding a backtick
    outside the blocks; the rest is ``str.find``. Parsing every line cost a 5 MB pasted log
    ~90 ms, four times each time it was indexed (tags, query blocks, passages)."""
    if "`" not in text and "~~~" not in text:
        return []
    blocks = fenced_blocks(text)
    return sorted([*blocks, *_inline_spans_outside(text, blocks)])


def _inline_spans_outside(text: str, blocks: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The inline code spans of the lines of ``text`` holding a backtick, outside ``blocks`` (a CRLF
    line's \\r is in none: no backtick run takes it)."""
    spans: list[tuple[int, int]] = []
    following = 0  # the first block that may still hold a backtick further on
    position = text.find("`")
    while position >= 0:
        while following < len(blocks) and blocks[following][1] <= position:
            following += 1
        if following < len(blocks) and blocks[following][0] <= position:
            position = text.find("`", blocks[following][1])  # the rest of the closing line is its line break
            continue
        line_start = text.rfind("\n", 0, position) + 1
        line_end = text.find("\n", position)
        line = text[line_start:] if line_end < 0 else text[line_start:line_end]
        spans.extend((line_start + left, line_start + right) for left, right in inline_code_spans(line))
        position = -1 if line_end < 0 else text.find("`", line_end)
    return spans


def fenced_blocks(text: str) -> list[tuple[int, int]]:
    """The fenced code blocks of ``text``, exactly those :func:`code_ranges` finds (without its
    inline spans), read from the lines holding three backticks or tildes only: the text is
    searched in C, and Python looks at those lines alone — a 5 MB pasted log is a few
    milliseconds, not a tenth of a second (snippets._marked)."""
    lines = _fence_lines(text)
    closers = _Closers(lines)  # numbered by their place among the fence lines: the same order
    blocks: list[tuple[int, int]] = []
    number = 0
    while number < len(lines):
        start, content = lines[number]
        opening = _FENCE_OPEN.fullmatch(content)
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            closing = closers.next_closer(opening.group(1)[0], len(opening.group(1)), number)
            if closing is not None:
                end_start, end_content = lines[closing]
                blocks.append((start, end_start + len(end_content)))
                number = closing + 1
                continue
            if is_query_opening(opening.group(2)):
                blocks.append((start, len(text)))  # a query left open runs to the end, as Obsidian renders it
                break
        number += 1
    return blocks


def unclosed_fence_closer(text: str) -> str | None:
    """The line that would close the fenced block ``text`` ends inside, or None when it ends
    outside one. CommonMark and Obsidian run a fence that never closes to the end of the text
    (code_ranges does not count it as code: the module's rules): what is added below it is shown
    as code unless the block is closed first. The closer is the opener's fence, after its
    indentation and quote markers (a list marker's width in spaces)."""
    lines = _fence_lines(text)
    closers = _Closers(lines)
    number = 0
    while number < len(lines):
        content = lines[number][1]
        opening = _FENCE_OPEN.fullmatch(content)
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            closing = closers.next_closer(opening.group(1)[0], len(opening.group(1)), number)
            if closing is None:
                prefix = content[:opening.start(1)]
                return "".join(character if character in " \t>" else " " for character in prefix) + opening.group(1)
            number = closing + 1
            continue
        number += 1
    return None


def is_query_opening(info: str) -> bool:
    """Whether a fence's info string names a query's or a plugin's language
    (:data:`QUERY_BLOCK_LANGUAGES`: ``dataview``, ``tasks`` …)."""
    language = info.split(maxsplit=1)
    return bool(language) and language[0].lower() in QUERY_BLOCK_LANGUAGES


def _fence_lines(text: str) -> list[tuple[int, str]]:
    """(offset, content without its line ending) of each line holding ````` ``` ````` or ``~~~``, in
    order: the only lines that can open or close a fence (:data:`_FENCE_OPEN`, :data:`_FENCE_CLOSE`)."""
    starts: set[int] = set()
    for mark in ("```", "~~~"):
        position = text.find(mark)
        while position >= 0:
            starts.add(text.rfind("\n", 0, position) + 1)
            line_end = text.find("\n", position)
            if line_end < 0:
                break
            position = text.find(mark, line_end)
    lines = []
    for start in sorted(starts):
        line_end = text.find("\n", start)
        line = text[start:] if line_end < 0 else text[start:line_end]
        lines.append((start, line[:-1] if line.endswith("\r") else line))
    return lines


def inline_spans_between(text: str, blocks: Sequence[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The inline code spans :func:`code_ranges` finds on the lines of ``text`` that ``[start,
    end]`` touches, those lines inside ``blocks`` (:func:`fenced_blocks`) left out, in order."""
    return _spans_between(text, blocks, [first for first, _ in blocks], start, end)


def _spans_between(text: str, blocks: Sequence[tuple[int, int]], block_starts: Sequence[int], start: int,
                   end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    line_start = text.rfind("\n", 0, start) + 1
    while line_start <= end:
        line_end = text.find("\n", line_start)
        line_end = len(text) if line_end < 0 else line_end
        within = bisect.bisect_right(block_starts, line_start) - 1
        if within >= 0 and blocks[within][1] > line_start:
            line_start = blocks[within][1]  # past the block: its closing line ends there
            continue
        line = text[line_start:line_end]
        if "`" in line:
            content = line[:-1] if line.endswith("\r") else line
            spans.extend((line_start + left, line_start + right) for left, right in inline_code_spans(content))
        if line_end == len(text):
            break
        line_start = line_end + 1
    return spans


def inline_code_spans(line: str) -> list[tuple[int, int]]:
    """Inline code spans of one line: each backtick run pairs with the next run of its length."""
    runs = [(match.start(), match.end()) for match in _BACKTICKS.finditer(line)]
    following: list[int | None] = [None] * len(runs)
    last_of_length: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        length = runs[index][1] - runs[index][0]
        following[index] = last_of_length.get(length)
        last_of_length[length] = index
    spans = []
    index = 0
    while index < len(runs):
        partner = following[index]
        if partner is None:
            index += 1  # no later run of this length: literal backticks
            continue
        spans.append((runs[index][0], runs[partner][1]))
        index = partner + 1
    return spans


# LaTeX math as Obsidian renders it (MathJax): ``$$`` opens and closes a display block, which may
# span lines; an inline ``$…$`` opens on a ``$`` before a non-blank and closes on the next ``$``
# after a non-blank that no digit follows (Pandoc's rule: "costs $5 and $10" is no math). A ``\$``
# is a dollar sign, and a ``$`` inside a code span is code.
_MATH_MARK = re.compile(r"\\.|`+|\$\$|\$")
_INLINE_MATH = re.compile(r"\$(?=[^\s$])(?:\\.|[^$\\\n])*?(?<=[^\s\\])\$(?!\d)|\$[^\s$\\]\$(?!\d)")


def may_hold_math(text: str) -> bool:
    """Whether ``text`` may hold math: a ``$$``, or a ``$…$`` that :func:`math_spans` could read as
    a formula, searched for in C. False for the dollars of prices and shell prompts, so a 4 MB log
    of ``$ ls`` lines is not read line by line."""
    return "$" in text and ("$$" in text or _INLINE_MATH.search(text) is not None)


def math_spans(line: str, in_display: bool = False) -> tuple[list[tuple[int, int]], bool]:
    """The spans of ``line`` that are math (``$…$``, ``$$…$$``, with their dollar signs), and
    whether a ``$$`` display block is still open at its end. ``in_display``: the line starts
    inside one, opened on a line above (its first span then starts at 0)."""
    spans: list[tuple[int, int]] = []
    opened = 0 if in_display else -1
    code = dict(inline_code_spans(line)) if "`" in line and not in_display else {}
    position = 0
    while (mark := _MATH_MARK.search(line, position)) is not None:
        token, position = mark.group(), mark.end()
        if token[0] == "\\":
            continue
        if token[0] == "`":
            position = code.get(mark.start(), position)  # a code span: its dollars are code
            continue
        if opened >= 0:
            if token == "$$":
                spans.append((opened, mark.end()))
                opened = -1
            continue
        if token == "$$":
            opened = mark.start()
            continue
        inline = _INLINE_MATH.match(line, mark.start())
        if inline is not None:
            spans.append(inline.span())
            position = inline.end()
    if opened >= 0:
        spans.append((opened, len(line)))
    return spans, opened >= 0


# Fenced blocks that are queries a plugin renders as other notes' content, not this note's:
# Dataview's (``dataview``, ``dataviewjs``), Obsidian's embedded search (``query``) and Bases
# (``base``), the Tasks plugin's (``tasks``). `TABLE title AS "Title", date AS "Date"` was a
# note's second-best hit for "... start date" (a trial). ``compressed-json`` is a plugin's data
# (Excalidraw's drawing, base64), never anyone's words.
QUERY_BLOCK_LANGUAGES = frozenset({"dataview", "dataviewjs", "query", "base", "tasks", "compressed-json"})
_FENCE_RUN = re.compile(r"`+|~+")
_QUERY_FENCE = re.compile(r"(?:`{3,}|~{3,})[ \t]*(?:dataview|query|base|tasks|compressed-json)", re.IGNORECASE)


def query_block_ranges(text: str, code: Sequence[tuple[int, int]] | None = None,
                       holders: Sequence[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """(start, end) of what of ``text`` is not its words, in order: the fenced blocks (fences
    included) whose language is a query's or a plugin's data (:data:`QUERY_BLOCK_LANGUAGES`),
    those inside what reading view hides (:func:`hidden_ranges`) — a plugin keeps its data
    there: Excalidraw's drawing as ``%%`` ``# Drawing`` and a json block ``%%`` (464 passages of
    JSON for one drawing in a trial), Kanban's settings — and Excalidraw's banner line
    (:data:`_EXCALIDRAW_BANNER`). A comment's own words stay text.
    ``code``: :func:`code_ranges` of ``text`` (its fenced blocks are enough), and ``holders``:
    :func:`data_holders`, when the caller has them."""
    code = code_ranges(text) if code is None else code
    found: list[tuple[int, int]] = []
    hidden_starts: list[int] | None = None
    holding: Sequence[tuple[int, int]] = ()
    for start, end in code:
        line_end = text.find("\n", start, end)
        if line_end < 0:
            continue  # an inline span: one line
        opening = _FENCE_OPEN.fullmatch(text[start:line_end].rstrip("\r"))
        language = opening.group(2).split(maxsplit=1) if opening is not None else []
        if language and language[0].lower() in QUERY_BLOCK_LANGUAGES:
            found.append((start, end))
            continue
        if hidden_starts is None:
            holding = data_holders(text, hidden_ranges(text, code)) if holders is None else holders
            hidden_starts = [outer_start for outer_start, _ in holding]
        # The one that can hold the block is the last to open before it (they are in order, apart).
        outer = bisect.bisect_right(hidden_starts, start) - 1
        if outer >= 0 and end <= holding[outer][1]:
            found.append((start, end))
    return _with_link_references(text, code, _with_banners(text, code, found))


# The link reference definitions Foam (VS Code) writes at a note's end for every [[wikilink]] in
# it, between these two lines, and writes anew at each save ("foam.edit.linkReferenceDefinitions"):
#     [//begin]: # "Autogenerated link references for markdown compatibility"
#     [debugging]: debugging "Debugging"
#     [//end]: # "Autogenerated link references"
# Markdown renders none of it. Indexed as text, each linked note's title made the note a hit for
# it: a trial's hub note ranked second for "VSCode tab size settings" by the title of the note it
# links to, and "autogenerated link references" found most of the vault, the block as snippet.
_FOAM_REFERENCES_BEGIN = re.compile(r'^\[//begin\]: # "Autogenerated link references[^\n]*', re.MULTILINE)
_FOAM_REFERENCES_END = re.compile(r'^\[//end\]: # "Autogenerated link references"[^\n]*', re.MULTILINE)
FOAM_REFERENCES_MARK = "[//begin]: #"  # in a text that holds such a block


def foam_reference_ranges(text: str, code: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """(start, end) of each block of link reference definitions Foam wrote in ``text``
    (:data:`_FOAM_REFERENCES_BEGIN` to its end line, both lines included), outside ``code``; a
    begin line with no end line below it is no block (Foam writes both)."""
    if FOAM_REFERENCES_MARK not in text:
        return []
    starts = [start for start, _ in code]
    found: list[tuple[int, int]] = []
    position = 0
    while (begin := _FOAM_REFERENCES_BEGIN.search(text, position)) is not None:
        end = _FOAM_REFERENCES_END.search(text, begin.end())
        if end is None:
            break
        inside = bisect.bisect_right(starts, begin.start()) - 1
        if inside < 0 or code[inside][1] <= begin.start():  # quoted in a code block, it is shown
            found.append((begin.start(), end.end()))
        position = end.end()
    return found


def foam_references_footer(text: str) -> int | None:
    """Where ``text`` ends with Foam's link reference definitions (:func:`foam_reference_ranges`,
    only blank lines after them), or None. Foam keeps them as the note's last lines."""
    blocks = foam_reference_ranges(text, code_ranges(text)) if FOAM_REFERENCES_MARK in text else []
    if not blocks or text[blocks[-1][1]:].strip():
        return None
    return blocks[-1][0]


def _with_link_references(text: str, code: Sequence[tuple[int, int]], found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``found`` with Foam's link reference blocks of ``text`` (:func:`foam_reference_ranges`), in order."""
    references = foam_reference_ranges(text, code)
    return merged_ranges([*found, *references]) if references else found


# The line Excalidraw writes under every drawing's frontmatter (with a second sentence when the
# drawing is compressed): "==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this
# document. ⚠== You can decompress Drawing data with the command palette …". The plugin's words,
# the same in each drawing: indexed, "command palette" or "plugin settings" found every drawing
# of a vault (0.87 for a drawing of four labels, a trial), and `list` showed it as each one's opening.
_EXCALIDRAW_BANNER = re.compile(r"^==⚠[ \t]+Switch to EXCALIDRAW VIEW\b[^\n]*", re.MULTILINE)


# The headings under which Excalidraw lists what a drawing holds ("# Excalidraw Data", "## Text
# Elements", "## Embedded Files", "## Element Links"; "# Text Elements" and "# Embedded files"
# before its version 2): the plugin's words, the same in every drawing. Read as headings, "text
# elements" found every drawing of a vault, and each one's snippet and `list` line opened with
# "Excalidraw Data · Text Elements" (a trial). Only in a drawing: a note may have such a heading.
_EXCALIDRAW_HEADINGS = re.compile(
    r"^##?[ \t]+(?:Excalidraw Data|Text Elements|Embedded [Ff]iles|Element Links)[ \t]*$", re.MULTILINE)


def _with_banners(text: str, code: Sequence[tuple[int, int]], found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``found`` with each Excalidraw banner line of ``text`` and, in a drawing (the banner or
    its ``# Drawing`` json block in ``text``), each heading the plugin writes
    (:data:`_EXCALIDRAW_HEADINGS`) — outside ``code`` (a note quoting one in a code block shows
    it), in order."""
    banner = "EXCALIDRAW VIEW" in text
    if not banner and ("# Drawing" not in text or _EXCALIDRAW_DRAWING.search(text) is None):
        return found
    starts = [start for start, _ in code]
    lines = []
    for line in (*_EXCALIDRAW_BANNER.finditer(text), *_EXCALIDRAW_HEADINGS.finditer(text)):
        inside = bisect.bisect_right(starts, line.start()) - 1
        if inside < 0 or code[inside][1] <= line.start():
            lines.append(line.span())
    return sorted([*found, *lines]) if lines else found


def plugin_footer_start(text: str) -> int | None:
    """Where ``text`` ends with a plugin's data block, or None: a ``%%`` comment that opens a
    line, holds a fenced block and has nothing but blank lines after it — Kanban's ``%%
    kanban:settings`` and Excalidraw's ``%%`` ``## Drawing``, which each plugin keeps as its
    file's last lines. Kanban reads its settings from the end of the file and finds none when
    any text follows them (its ``extractSettingsFooter``): a card added below them cost the board
    its settings."""
    code = code_ranges(text)
    hidden = [(start, end) for start, end in hidden_ranges(text, code) if text.startswith("%%", start)]
    if not hidden:
        return None
    start, end = hidden[-1]
    if text[end:].strip() or (start > 0 and text[start - 1] != "\n"):
        return None
    holds_block = any(start <= first and last <= end for first, last in fenced_blocks(text))
    return start if holds_block else None


# Where Excalidraw's own part of a drawing begins. At every save the plugin writes the drawing's
# markdown anew from its "# Excalidraw Data" heading on ("# Text Elements" before its version 2,
# with "%%" on the line above in its fade-out mode): the text elements, embedded files and links
# it lists, and the drawing. What is above that heading it keeps — a person's notes on the drawing.
_EXCALIDRAW_DATA_HEADING = re.compile(r"^(?:%%[ \t]*\n\s*)?##?[ \t]+(?:Excalidraw Data|Text Elements)[ \t]*$", re.MULTILINE)
_EXCALIDRAW_DRAWING = re.compile(r"^##?[ \t]+Drawing[ \t]*\n`{3,}[ \t]*(?:json|compressed-json)[ \t]*$", re.MULTILINE)


def excalidraw_data_start(body: str) -> int | None:
    """Where the part of an Excalidraw drawing's ``body`` that the plugin rewrites begins
    (:data:`_EXCALIDRAW_DATA_HEADING`, else its ``%%`` drawing block), or None when ``body``
    is no drawing: it ends with a plugin's data block (:func:`plugin_footer_start`) that
    holds a ``# Drawing`` json block. A paragraph added below that heading was in the file
    until the plugin next saved the drawing, then gone (a trial)."""
    footer = plugin_footer_start(body)
    if footer is None:
        return None
    drawing = _EXCALIDRAW_DRAWING.search(body, footer)
    if drawing is None:
        return None
    heading = _EXCALIDRAW_DATA_HEADING.search(body, 0, drawing.start())
    return footer if heading is None else min(heading.start(), footer)


def data_holders(text: str, hidden: Sequence[tuple[int, int]], first_opener: int = 0) -> Sequence[tuple[int, int]]:
    """What of ``hidden`` (:func:`hidden_ranges` of ``text``) may hold a plugin's data block: all
    of it where a ``%%`` or ``<!--`` is in the text, none where only scripts and styles are.
    ``first_opener``: no :data:`HIDDEN_OPEN` before it (one is, or ``hidden`` is empty)."""
    return hidden if hidden and _MAY_HIDE.search(text, first_opener) else []


def without_query_blocks(text: str) -> str:
    """``text`` with each block that is not its words (:func:`query_block_ranges`) reduced to
    its line breaks: its lines stay where they were, empty."""
    if (not _holds_query_fence(text) and _MAY_HIDE.search(text) is None and "EXCALIDRAW VIEW" not in text
            and FOAM_REFERENCES_MARK not in text):
        return text
    pieces: list[str] = []
    position = 0
    for start, end in query_block_ranges(text):
        pieces += [text[position:start], "\n" * text.count("\n", start, end)]
        position = end
    return "".join(pieces) + text[position:]


# A Markdown link's destination and title, as links.py reads them: `<a b.md>` with its spaces,
# one level of parentheses (`Hot-dog%20(Nothic).md`), a "title" after it (a trial showed
# `[Hot-dog (Nothic)](Hot-dog%20(Nothic).md)` as written).
LINK_DESTINATION = r"[ \t]*(?:<[^<>\n]*>|(?:[^\s()<>]|\([^\s()<>]*\))*)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*"
_MARKDOWN_LINK = re.compile(r"!?\[[^\[\]\n]*\]\((" + LINK_DESTINATION + r")\)")
_WEB_ADDRESS = re.compile(r"[ \t]*<?[A-Za-z][A-Za-z0-9+.-]{0,31}://([^/?#\s<>\"']*)")  # https://…, obsidian://…, file:///…
# The second-level names a country's domain puts a site under (`bbc.co.uk`, `abc.net.au`).
_SECOND_LEVELS = frozenset({"ac", "co", "com", "edu", "gov", "ne", "net", "or", "org"})


def without_link_addresses(text: str) -> str:
    """``text`` with the address of each Markdown link and image that leads out of the vault
    (``[Location 144](https://readwise.io/to_kindle?action=open&asin=B07D23CFGR&location=144)``)
    reduced to its site's name (an image's to one space); its text, a bare address and a link to
    a note stay. Reading view
    shows a link's text, never its address — yet a trial on a Readwise vault found every
    highlight's address searched as words: "what did I read by Tom Griffiths" proposed an
    article for the ``read`` of ``read.readwise.io/read/…``, a book's ASIN found it, and in a
    short highlight the address outweighed the quote in its vector. The site's name stays
    (:func:`site_name`): "the video I saved from youtube" still finds a link titled by the video. Inside code a link stays as written.
    No line break is removed: the lines stay where they were."""
    if "](" not in text:
        return text
    code = code_ranges(text)
    code_starts = [start for start, _end in code]
    pieces: list[str] = []
    position = 0
    for link in _MARKDOWN_LINK.finditer(text):
        address = _WEB_ADDRESS.match(link.group(1))
        if address is None:
            continue
        inside = bisect.bisect_right(code_starts, link.start()) - 1
        if inside >= 0 and link.start() < code[inside][1]:
            continue
        start, end = link.span(1)
        site = "" if text.startswith("!", link.start()) else site_name(address.group(1))  # an image's host is no one's word
        pieces += [text[position:start], f" {site} " if site else " "]
        position = end
    return "".join(pieces) + text[position:] if pieces else text


def site_name(host: str) -> str:
    """The name a person knows a web address's site by: ``www.nytimes.com`` → ``nytimes``,
    ``read.readwise.io`` → ``readwise``, ``bbc.co.uk`` → ``bbc``; ``""`` for an address with no
    such name (``obsidian://open?…``, ``file:///…``, an IP address)."""
    labels = [label for label in host.rpartition("@")[2].partition(":")[0].lower().split(".") if label]
    if len(labels) < 2 or labels[-1].isdigit():
        return ""
    name = labels[-2]
    if name in _SECOND_LEVELS and len(labels) >= 3 and len(labels[-1]) == 2:
        name = labels[-3]
    return name


def _holds_query_fence(text: str) -> bool:
    """Whether :data:`_QUERY_FENCE` is found in ``text``: tried at each run of three backticks
    or tildes (``str.find``). Searched for as it is, a 5 MB pasted log took ~80 ms (a regex
    that opens with a choice is tried at every character)."""
    for mark in ("```", "~~~"):
        position = text.find(mark)
        while position >= 0:
            if _QUERY_FENCE.match(text, position):
                return True
            # A match inside the run would take the same letters after it: past it. (A search
            # tried every backtick of a line of them, each to the run's end: 200,000 ran for minutes.)
            run = _FENCE_RUN.match(text, position)
            position = text.find(mark, run.end() if run else position + len(mark))
    return False


def without_code(text: str) -> str:
    """``text`` with each code block and span replaced by a space."""
    return blanked(text, code_ranges(text))


def without_code_or_hidden(text: str) -> str:
    """``text`` with each code block and span, and what reading view hides, replaced by a space."""
    code = code_ranges(text)
    hidden = hidden_ranges(text, code)
    if not hidden:
        return blanked(text, code)
    return blanked(text, merged_ranges([*code, *hidden]))  # a comment may hold code spans, never the other way round


def merged_ranges(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` in order, those that overlap made one."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


# What reading view hides, with its contents: Obsidian comments, HTML comments, scripts and styles.
HIDDEN_OPEN = re.compile(r"%%|<!--|<(?:script|style)(?![\w-])", re.IGNORECASE)
_MAY_HIDE = re.compile(r"%%|<!--")  # where a plugin's data block may be hidden (query_block_ranges)
_HIDDEN_CLOSE = {"%%": re.compile("%%"), "<!--": re.compile("-->"),
                 "<script": re.compile(r"</script\s*>", re.IGNORECASE), "<style": re.compile(r"</style\s*>", re.IGNORECASE)}
_PARAGRAPH_END = re.compile(r"\r?\n[ \t]*(?:\r?\n|$)")
_NEXT_ITEM = re.compile(r"\r?\n {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\r?$)", re.MULTILINE)  # a list item's sibling starts
_LINE_LOOKBACK = 64  # characters looked at before an HTML opener to tell where on its line it is
_TOP_OPENING = re.compile(r" {0,3}")  # an HTML block of the note itself
_NESTED_OPENING = re.compile(r"(?: {0,3}(?:>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+))+[ \t]*")  # ... in a quote or a list item
TOP, NESTED, IN_ITEM, INLINE = "top", "nested", "in item", "inline"


def unclosed_inline_comment(text: str) -> int | None:
    """Where a ``%%`` that opens inside a line (after other text, outside code) hides the rest of
    ``text`` because no later ``%%`` closes it, or None. Reads the text for hidden ranges only
    when its last ``%%`` has text before it on its line."""
    last = text.rfind("%%")
    if last < 0 or not text[text.rfind("\n", 0, last) + 1:last].strip():
        # None, or the last opens its line: it closes the comment before it, or opens one
        # that is left alone — either way no %% inside a line is left open.
        return None
    hidden = hidden_ranges(text, code_ranges(text))
    if not hidden:
        return None
    start, end = hidden[-1]
    if end != len(text) or not text.startswith("%%", start) or "%%" in text[start + 2:]:
        return None  # closed, or an HTML comment left open (reading view hides that too, not this)
    line_start = text.rfind("\n", 0, start) + 1
    return start if text[line_start:start].strip() else None


def hidden_ranges(text: str, code: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """(start, end) of what reading view hides in ``text``, in order: ``%%`` comments, HTML
    comments, ``<script>`` and ``<style>`` elements, each with its contents; one that opens
    inside ``code`` (:func:`code_ranges`) is code, shown as written.

    - ``%%`` (Obsidian's) closes at the next ``%%`` anywhere; left open, it hides the rest.
    - An HTML one that opens a line is an HTML block, as CommonMark reads it: it closes
      anywhere further on, and left open hides the rest — in a quote, the rest of its
      paragraph; in a list item, up to the next item or the paragraph's end (the end of its
      container, near enough).
    - One inside a line is inline HTML: it closes within its paragraph or is no comment or
      element at all, only text ("a comment starts with <!-- and ends later", "the <Style
      Guide>") — a closer past a blank line is another comment's.

    Linear: every search starts where the last one ended, a paragraph's end is found once,
    and a closer not found is not looked for again over the same stretch."""
    if "%%" not in text and "<" not in text:
        return []
    code_starts = [start for start, _ in code]

    def code_end(position: int) -> int | None:
        containing = bisect.bisect_right(code_starts, position) - 1
        return code[containing][1] if containing >= 0 and code[containing][1] > position else None

    return _hidden(text, code_end)


def hidden_ranges_by_blocks(text: str, blocks: Sequence[tuple[int, int]], first_opener: int = 0) -> list[tuple[int, int]]:
    """:func:`hidden_ranges` of ``text`` and all of its code, knowing only its fenced blocks
    (:func:`fenced_blocks`): of the code, hidden_ranges asks only whether an opener is in it,
    and an inline span is on its opener's line — read for its spans when an opener is there.
    ``first_opener``: where the first :data:`HIDDEN_OPEN` is, when the caller has found it."""
    if not first_opener and "%%" not in text and "<" not in text:
        return []
    block_starts = [start for start, _ in blocks]
    line_spans: dict[int, list[tuple[int, int]]] = {}

    def code_end(position: int) -> int | None:
        containing = bisect.bisect_right(block_starts, position) - 1
        if containing >= 0 and blocks[containing][1] > position:
            return blocks[containing][1]
        line_start = text.rfind("\n", 0, position) + 1
        if line_start not in line_spans:
            line_spans[line_start] = _spans_between(text, blocks, block_starts, line_start, line_start)
        return next((end for start, end in line_spans[line_start] if start <= position < end), None)

    return _hidden(text, code_end, first_opener)


def _hidden(text: str, code_end: Callable[[int], int | None], position: int = 0) -> list[tuple[int, int]]:
    """:func:`hidden_ranges` from ``position`` (no opener before it), ``code_end`` saying where the
    code holding a position ends (None: in none)."""
    found: list[tuple[int, int]] = []
    unclosable: set[str] = set()  # no closer of this kind from here to the end of the text
    unclosed_until: dict[str, int] = {}  # no closer of this kind before this paragraph end
    paragraph_end = item_end = -1
    while (opener := HIDDEN_OPEN.search(text, position)) is not None:
        start = opener.start()
        in_code = code_end(start)
        if in_code is not None:
            position = in_code
            continue
        mark = opener.group().casefold()
        where = TOP if mark == "%%" else _place_on_line(text, start)
        if where != TOP and start >= paragraph_end:
            ending = _PARAGRAPH_END.search(text, opener.end())
            paragraph_end = ending.start() if ending is not None else len(text)
        if where == IN_ITEM and start >= item_end:
            sibling = _NEXT_ITEM.search(text, opener.end())
            item_end = sibling.start() if sibling is not None else len(text)
        reach = len(text) if where == TOP else min(paragraph_end, item_end) if where == IN_ITEM else paragraph_end
        closer = None
        if mark not in unclosable and unclosed_until.get(mark) != reach:
            closer = _HIDDEN_CLOSE[mark].search(text, opener.end(), reach)
            if closer is None:
                if where == TOP:
                    unclosable.add(mark)
                else:
                    unclosed_until[mark] = reach
        if closer is not None:
            position = closer.end()
        elif where == INLINE:
            position = opener.end()
            continue
        else:
            position = reach
        found.append((start, position))
    return found


def _place_on_line(text: str, start: int) -> str:
    """Where an HTML opener is on its line: opening it (:data:`TOP`), opening it after a quote's
    ``>`` (:data:`NESTED`) or a list marker (:data:`IN_ITEM`), or after other text
    (:data:`INLINE`). Reads at
    most :data:`_LINE_LOOKBACK` characters back: linear however long the line."""
    window_start = max(0, start - _LINE_LOOKBACK)
    newline = text.rfind("\n", window_start, start)
    if newline < 0 and window_start > 0:
        return INLINE
    line_start = newline + 1 if newline >= 0 else 0
    if _TOP_OPENING.fullmatch(text, line_start, start):
        return TOP
    if _NESTED_OPENING.fullmatch(text, line_start, start) is None:
        return INLINE
    return NESTED if ">" in text[line_start:start] else IN_ITEM


def blanked(text: str, ranges: Sequence[tuple[int, int]], filler: str = " ") -> str:
    """``text`` with each of ``ranges`` (in order, not overlapping) replaced by ``filler`` (one
    space, so that the words around one stay apart; ``""`` cuts them out)."""
    pieces: list[str] = []
    position = 0
    for start, end in ranges:
        pieces += [text[position:start], filler]
        position = end
    return "".join(pieces) + text[position:]


class _Closers:
    """The lines that can close a fence, per character, and the longest of those from each on:
    "is there any closer for this fence?" is then one look-up, so a fence that never closes
    costs nothing more than its own line."""

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.numbers: dict[str, list[int]] = {"`": [], "~": []}
        self.lengths: dict[str, list[int]] = {"`": [], "~": []}
        for number, (_offset, content) in enumerate(lines):
            if "``" in content or "~~" in content:
                closing = _FENCE_CLOSE.fullmatch(content)
                if closing:
                    character = closing.group(1)[0]
                    self.numbers[character].append(number)
                    self.lengths[character].append(len(closing.group(1)))
        self.longest_from: dict[str, list[int]] = {}
        for character, lengths in self.lengths.items():
            longest = [0] * (len(lengths) + 1)
            for index in range(len(lengths) - 1, -1, -1):
                longest[index] = max(lengths[index], longest[index + 1])
            self.longest_from[character] = longest

    def next_closer(self, character: str, length: int, after: int) -> int | None:
        """The first line after ``after`` that closes a fence of ``length`` ``character``s.

        The walk passes only closers inside the block it closes, which the caller then
        skips: every closer is walked over at most once in the whole scan.
        """
        numbers, lengths = self.numbers[character], self.lengths[character]
        index = bisect.bisect_right(numbers, after)
        if self.longest_from[character][index] < length:
            return None
        while lengths[index] < length:
            index += 1
        return numbers[index]
