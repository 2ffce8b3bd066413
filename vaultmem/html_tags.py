"""Raw HTML tags in a note's text, which reading view renders and never shows as words (pure).

A note may hold HTML: ``<kbd>Ctrl</kbd>``, ``<center>💡</center>``, an embedded video's
``<iframe src=… title="YouTube video player" allow="accelerometer; autoplay; …">`` and a
``<span class="git-footer">`` that a script puts at the end of every note of a vault. Reading
view shows what is between the tags — ``Ctrl``, ``💡`` — and nothing of the tags themselves:
their names and attributes are no words of the note. Read as text they were: the Obsidian
Hub's footer made ``git`` (of ``class="git-footer"``) a word of every note, so a search for
"backup my vault with git" ranked the plugin whose whole description is "Backup your vault
with git." below a Dropbox backup plugin, the word git telling the notes apart no more than
"the" does (a trial of the hub, s38); every note with a video held "accelerometer gyroscope".

Snippets show a tag as it reads (:func:`tag_text`: a block's is a break, a cell's a space, an
image its ``alt``) and search reads the text without them (:func:`without_html_tags`). Only
HTML's own tag names are markup: ``List<String>`` or ``press <Tab>`` in prose are words, and
a tag inside code is code.
"""

from __future__ import annotations

import bisect
import re

from .markdown import code_ranges

# A tag's attributes stop at the next < or > outside quotes: a tag never left open scans only to
# there. A quoted value may hold a ``>`` (``<a title="x>y">``): read to the first ``>``, the tag
# left ``y">`` in the note's words and snippets (s39). A quote never closed before the next
# ``<`` is a character like any other, as before. Possessive (``*+``): a run of quoted values
# that fails to end in ``>`` is given up at once, not retried in every way of splitting it.
HTML_TAG = re.compile(r"""<(/?)([A-Za-z][A-Za-z0-9]{0,15})(?:\s(?:"[^"<]*"|'[^'<]*'|[^<>"']|["'])*+)?/?>""")
# Tags whose element is a block of its own: its text is a block between breaks (<p>a</p><p>b</p> reads "a · b").
HTML_BLOCKS = frozenset({
    "address", "article", "aside", "audio", "blockquote", "br", "caption", "center", "dd", "details", "dialog", "div",
    "dl", "dt", "embed", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "iframe", "legend", "li", "main", "nav", "object", "ol", "p", "pre", "section", "summary", "table",
    "tbody", "tfoot", "thead", "tr", "ul", "video",
})
HTML_CELLS = frozenset({"td", "th"})  # a space between cells of a row
# Tags removed without a break. Only HTML's own names: ``List<String>`` or ``<Tab>`` in prose is a word, not markup.
HTML_INLINE = frozenset({
    "a", "abbr", "b", "bdi", "bdo", "big", "body", "button", "cite", "code", "col", "colgroup", "data", "del", "dfn",
    "em", "font", "head", "html", "i", "img", "input", "ins", "kbd", "label", "mark", "meta", "meter", "option",
    "picture", "progress", "q", "rp", "rt", "ruby", "s", "samp", "select", "small", "source", "span", "strike",
    "strong", "sub", "sup", "svg", "textarea", "time", "track", "tt", "u", "var", "wbr",
})
_IMAGE_ALT = re.compile(r"""\salt\s*=\s*(?:"([^"<]*)"|'([^'<]*)'|([^\s"'<>=`]+))""", re.IGNORECASE)


def is_markup(match: re.Match[str]) -> bool:
    """Whether a :data:`HTML_TAG` match names one of HTML's own tags (else it is a word of the
    text) and is not escaped: Markdown shows ``\\<b>`` as the text ``<b>`` (was: read as a tag,
    the word "b" was lost). An escaped backslash before it (``\\\\<b>``) escapes nothing."""
    name = match.group(2).casefold()
    return (name in HTML_BLOCKS or name in HTML_CELLS or name in HTML_INLINE) and not _escaped(match.string, match.start())


def _escaped(text: str, position: int) -> bool:
    """Whether the character at ``position`` follows an odd run of backslashes."""
    backslashes = 0
    while position - backslashes > 0 and text[position - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def image_description(tag: str) -> str:
    """An ``<img>`` tag's ``alt`` text, stripped; ``""`` when it has none."""
    alt = _IMAGE_ALT.search(tag)
    return (alt.group(1) or alt.group(2) or alt.group(3) or "").strip() if alt is not None else ""


def tag_text(match: re.Match[str]) -> str:
    """An HTML tag as it reads: a break (``\\n``) for a block's, a space between cells, nothing
    for an inline one; a name HTML does not have stays, as a word of the text."""
    if not is_markup(match):
        return match.group()
    name = match.group(2).casefold()
    if name == "img":  # an image reads as its description, when it has one
        described = image_description(match.group())
        return f" {described} " if described else ""  # a word of its own between the words around it
    if name in HTML_BLOCKS:
        return "\n"
    return " " if name in HTML_CELLS else ""


def without_html_tags(text: str) -> str:
    """``text`` with each of HTML's own tags outside code read as :func:`tag_text` reads it (a
    block's or a cell's a space, an image its ``alt``, an inline one nothing: ``H<sub>2</sub>O``
    is the word ``H2O``), keeping the line breaks a tag spans: every line keeps its number.
    ``text`` itself when it holds no tag. Was: every tag a space, so a search for H2O or CO2 did
    not find ``H<sub>2</sub>O`` by its words while the snippet showed H2O."""
    if "<" not in text:
        return text
    tags = [tag for tag in HTML_TAG.finditer(text) if is_markup(tag)]
    if not tags:
        return text
    code = code_ranges(text)
    code_starts = [start for start, _end in code]
    pieces: list[str] = []
    position = 0
    for tag in tags:
        inside = bisect.bisect_right(code_starts, tag.start()) - 1
        if inside >= 0 and tag.start() < code[inside][1]:
            continue
        shown = tag_text(tag)
        pieces += [text[position:tag.start()], " " if shown == "\n" else shown, "\n" * tag.group().count("\n")]
        position = tag.end()
    return "".join(pieces) + text[position:] if pieces else text
