"""What a hit shows of its note: a short excerpt, readable, and true to the file as it is now.

- **Where from.** The hit's best passage — its lines, cut from the file read now (a huge
  note is never split whole) — as a window of :data:`SNIPPET_CHARS` around the first query
  word (:func:`passage_snippet`).
- **Readable, as reading view shows it** (:func:`readable`). Markup is removed, never a
  word the note shows: heading markers (the heading's words stay), list markers and an open task's box
  (a done task keeps its ``[x]``: reading view shows it ticked),
  quote and callout markers, emphasis, inline code ticks, fence lines and rules, footnote
  marks (a footnote's definition shows its text), HTML tags (their text stays; a block's
  tag — ``div``, ``p``, ``br``, ``li``, ``h1``…, ``tr``, ``summary`` — breaks between
  blocks; ``&amp;`` reads ``&``); ``[[a|b]]`` and ``![[a|b]]`` show ``b``, ``[[a]]`` shows ``a``, ``[[a#b]]``
  shows ``a > b`` (a block id left out), ``[text](url)`` shows ``text``; Logseq's block
  references ``((uuid))`` (and ``{{embed ((uuid))}}``) and the properties it never shows
  (``id:: uuid``, ``collapsed:: true``: logseq.HIDDEN_PROPERTIES) are left out. An embedded file that
  is no note (``![[Daily.base]]``, ``![[photo.jpg|300]]``) is not text: where the passage
  says something besides headings it is left out; a passage of only headings and such embeds
  shows each as ``(embedded Daily.base)`` (:func:`_embeds_placed`). So are lines a person reads as
  the note's metadata, not its words: a property on a line of its own (``speaker:: Caroline``, as
  Logseq and Dataview write it) and YARLE's ``Created at: …`` / ``Updated at: …`` lines; kept where
  they are all the passage says (:func:`_metadata_left_out`). What reading view hides is left out
  with what it holds: ``%% comments %%``, ``<!-- comments -->``, ``<script>`` and
  ``<style>`` — also when the passage begins inside one (:func:`visible`); a passage all
  hidden shows the note's visible text instead (an Excalidraw drawing its Text Elements,
  not its JSON). A passage whose query words only a ``%% comment %%`` holds (the full text
  searches comments, as Obsidian's search does) shows that comment between its marks first
  (:func:`comments_within`). Lines of one paragraph are joined by a space; where a block ends (a
  heading, a callout's title, a list item, an embed on its own line, a paragraph) without
  its own punctuation, `` · `` marks the break, so ``## Notes`` over ``- Dentist`` reads
  ``Notes · Dentist``; a heading whose section says nothing of its own (another heading or the
  end follows: a query block's section) is left out where anything else is said
  (:func:`_said_sections`). Code is shown as written, tags and comments in it included.
- **Never empty while the file says anything** (:func:`excerpt_of`). A passage that holds
  no query word while some properties do (a ``References/`` note whose body is empty or
  only embeds, found by its ``author``) shows those property lines first, as
  ``author: Kevin Kelly``; an empty passage with no such property shows the note's first
  property lines, those that are only an address last (:func:`first_properties`); a note
  with neither shows its title.

Everything here is linear in the passage (regexes whose every repeat stops at the next
delimiter; a comment's end is searched for from where the last one ended), and it runs
once per hit.
"""

from __future__ import annotations

import bisect
import functools
import html
import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from html.entities import html5 as html5_entities
from typing import TYPE_CHECKING

from .arabic_script import arabic_folded
from .cjk import (
    PLAIN,
    RUN,
    TextForms,
    bigrams,
    content_pairs,
    han_either,
    has_run,
    particle_beside,
    spaced,
    spellings_either,
    text_forms,
    width_folded,
)
from .combining import WORD
from .fields import BOOKKEEPING_KEYS, REPORTING_VERBS, STOPWORDS, is_plugin_setting
from .html_tags import HTML_TAG, tag_text
from .inline_queries import without_inline_queries
from .links import labels_first, labels_last
from .logseq import BLOCK_REFERENCE, is_hidden_property
from .markdown import (
    FENCE_LINE,
    FOAM_REFERENCES_MARK,
    HEADING_LINE,
    HIDDEN_OPEN,
    LINK_DESTINATION,
    blanked,
    code_ranges,
    data_holders,
    fenced_blocks,
    hidden_ranges,
    hidden_ranges_by_blocks,
    inline_spans_between,
    math_spans,
    merged_ranges,
    query_block_ranges,
)
from .marks import marks_folded
from .notes import FrontmatterBlock, find_frontmatter, read_text
from .passages import Section, sections
from .template_lines import TemplateLines, line_key
from .terminal_codes import without_terminal_codes

if TYPE_CHECKING:
    from pathlib import Path

    from .storage import PassageRow

SNIPPET_CHARS = 300
SNIPPET_SOURCE_CHARS = 20_000  # of a passage or a frontmatter (one "word" may be megabytes): what is read for the snippet
_FENCE_MARK = re.compile(r"`{3,}|~{3,}")
SHOWN_TRIES = 50  # query-word matches section_of reads past (in comments, link addresses) before it gives up
SECTION_SCAN_CHARS = 200_000  # a body longer is not split into sections at query time to place a snippet (section_of)
_INNER_HEADING = re.compile(r"\n[ \t]{0,3}#{1,6}[ \t]+\S")  # a heading line after a passage's first line
_TOP_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t]+\S")  # ... or on it
SNIPPET_SCAN_CHARS = 4_000_000  # how far into a passage's lines a query word is looked for (one line may hold a book)
HIDDEN_SCAN_CHARS = 4_000_000  # how much of a body is read for the comments that hide a passage's lines (visible)
FIRST_PROPERTIES = 3  # property lines an empty note shows when none holds a query word
BREAK = " · "  # between blocks that end without punctuation of their own
PROSE, ITEM, BLOCK, HEADING = "prose", "item", "block", "heading"  # what a line is to the lines around it (_line)
METADATA = "metadata"  # a block of its own that a person reads as the note's metadata, not its words (_metadata_left_out)
# A property on a line of its own, as Logseq and Dataview write it: `speaker:: Caroline`, `Due Date:: 2026-12-01`
# (a key of a few words, two colons with no space before them: Haskell's `map :: a -> b` is none).
_PROPERTY_LINE = re.compile(r"[^\W\d_][\w.-]*(?:[ ][\w.-]+){0,3}::(?:[ \t]+\S.*)?")
# When the note was created and updated, as YARLE's default template ends an Evernote note (date_lines.py).
_EXPORT_DATE_LINE = re.compile(r"(?:Created|Updated) at:[ \t]+\S.*")
# Around the name of an embedded file while a passage is made readable, until the whole of it
# says whether it holds text (_embeds_placed): Unicode noncharacters, never text of a note.
EMBED_OPEN, EMBED_CLOSE = "\ufdd0", "\ufdd1"
_MARKED_EMBED = re.compile("\ufdd0([^\ufdd0\ufdd1]*)\ufdd1")
_MARKED_EMBED_LEFT_OUT = re.compile("[ \t]*\ufdd0[^\ufdd0\ufdd1]*\ufdd1")  # with the blank before it: "See ![[x.png]]." reads "See."
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")
_WORD = WORD  # a word with its combining marks (किताब), as the full text holds it
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}://\S*")  # https://…, obsidian://…, file:///…
_SENTENCE_END = ".!?:;,…"

# Properties that say how vaultmem or Obsidian keep a note, not what it is about; its title
# is the hit's title already. Its aliases and tags stay: a query may have matched them.
HIDDEN_PROPERTIES = BOOKKEEPING_KEYS - {"aliases", "alias", "tags", "tag"}

# -- line markup (each matched at the start of a line, after indentation)
# A line of git's merge-conflict markers (merge_markers.py: seven marks, a label after all but ``=``).
_CONFLICT_MARKER = re.compile(r"(?:<{7}|>{7}|\|{7})(?:[ \t].*)?|={7}")
_RULE = re.compile(r"^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_TABLE_DIVIDER = re.compile(r"^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?$")
_QUOTE = re.compile(r"^(?:>[ \t]?)+")
_CALLOUT = re.compile(r"^\[![^\]\n]*\][+-]?[ \t]*")
# The block markup of documentation sites, shown as its title or not at all (as the built site
# shows it): MkDocs' admonitions (`!!! note "Title"`, collapsible `??? tip`, `???+ tip`),
# content tabs (`=== "Windows"`), Pandoc / Quarto / Docusaurus fenced divs (`::: {.callout-note}`,
# `:::tip[Title]`, a closing `:::`), MkDocs' snippet includes (`--8<-- "file.md"`) and a
# lone attribute list (`{ .annotate }`). Read raw, a docs folder's hits read `!!! danger
# "Lose the passphrase, lose the data" · There is no recovery…` (a trial on an MkDocs folder).
# Its type alone, or words after it only before a quoted title (classes: `!!! danger highlight "Title"`)
# or as MkDocs places it (`!!! note inline end`): "!!! pay the plumber before Friday" is a person's
# prose, which was shown as "Pay" (review, s34).
_ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)[ \t]+([\w-]+)(?:(?:[ \t]+[\w-]+)*[ \t]+"([^"\n]*)"'
                         r'|(?:[ \t]+inline)?(?:[ \t]+end)?)[ \t]*$')
_CONTENT_TAB = re.compile(r'^===\+?[ \t]+"([^"\n]*)"[ \t]*$')
_FENCED_DIV = re.compile(r"^:{3,}[ \t]*(?:\{[^{}\n]*\}|[\w-]+(?:\[([^\]\n]*)\]|[ \t]+([^{}\n]*?))?)?[ \t]*(?:\{[^{}\n]*\})?[ \t]*$")
_SNIPPET_INCLUDE = re.compile(r'^-{1,}8<-{1,}[ \t]+["\']?[^"\'\n]*["\']?[ \t]*$|^-{1,}8<-{1,}$')
_ATTRIBUTE_LIST = re.compile(r"^\{:?[ \t]*[.#][^{}\n]*\}$")
# Jupyter Book's MyST: a directive is a fence named in braces (```{note}, ```{admonition} Title),
# its options the `:key: value` lines that open it; a target `(sec-ohc)=` names the heading under
# it; a role `{ref}`sec-argo`` is a name before a code span. Shown as written, a hit read
# "{ref}sec-argo … :class: tip · Below 2000 m…" (a trial on a Jupyter Book page).
_MYST_DIRECTIVE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})\{([\w:-]+)\}[ \t]*(.*)$")
_TITLED_DIRECTIVES = frozenset({"admonition", "dropdown", "card", "tab-item"})
_MYST_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
_MYST_TARGET = re.compile(r"^\([\w.:-]+\)=$")
_MYST_ROLE = re.compile(r"\{[\w:+-]+\}$")
_BULLET = re.compile(r"^[-*+](?:[ \t]+|$)")
_NUMBERED = re.compile(r"^\d{1,9}[.)][ \t]")  # its number is shown, as Obsidian shows it
# An open task's box goes as a bullet does; any other keeps its mark as written (`[x] Ship it`):
# a done or cancelled task read as an open one ("Ship it"), and a snippet that lists a board's
# archived cards beside its open ones could not tell them apart (a trial on a Kanban board).
_OPEN_TASK_BOX = re.compile(r"^\[ \][ \t]+")
# Roam Research's task marker in the box's place (a Roam export: `- {{[[TODO]]}} send the budget`),
# a stray brace more or not, as `task_dates` reads it: shown as a box is, an open one as nothing,
# a done one as `[x]`. It read "{{TODO}} send the budget" (a trial on a Roam export).
_ROAM_TASK_MARKER = re.compile(r"^\{\{\{?(?:\[\[(TODO|DONE)\]\]|(TODO|DONE))\}\}\}?\}?[ \t]+")
# Roam's block reference `((f8K2pQ1xA))` and its embed `{{embed: ((…))}}` / `{{[[embed]]: ((…))}}`:
# Roam shows the block referred to, never its uid, and its export writes the uid alone (the block
# is on another page, often not exported). A uid is 9 characters of `[A-Za-z0-9_-]`; prose in double
# parentheses of one such word (`((important))`, `((Note))`) is told apart by its letters: a uid
# mixes in digits, `_`, `-` or capitals after the first, a word does not (`_roam_reference`).
_ROAM_REFERENCE = re.compile(
    r"\{\{(?:embed|\[\[embed\]\]):?[ \t]*\(\(([A-Za-z0-9_-]{9})\)\)[ \t]*\}\}|\(\(([A-Za-z0-9_-]{9})\)\)")
# Words or numbers joined by hyphens are prose too: `((long-term))`, `((follow-up))`, a transcript's
# `((in-breath))`, `((2019-2023))` were hidden as uids (review). About 1 random uid in 600 is shaped as
# a word so, and is shown as written (1 in 1,100 before hyphens were read so).
_WORD_PART = r"(?:[a-z]+|[A-Z][a-z]+|[A-Z]+|[0-9]+)"
_WORD_LIKE = re.compile(rf"{_WORD_PART}(?:-{_WORD_PART})*")
# Roam's components, `{{[[query]]: {and: [[TODO]] [[Falcon]]}}}`, `{{[[table]]}}`, `{{[[POMO]]}}`:
# Roam draws a widget (a query's results, a table of the block's children, a timer) where the
# export writes its source, which read "{{query: {and: TODO Falcon}}} · {{table}}". Only the form
# with the page link, which is Roam's alone: a bare `{{title}}` is a template's placeholder.
# A component's braces may nest (a query's clauses), so its end is found by counting them.
_ROAM_COMPONENT_START = "{{[["
_ROAM_COMPONENT_NAME = re.compile(r"\{\{\[\[([^\[\]\n]*)\]\]")
# Roam's alias of a page, `[the office page]([[Harbor office]])`: its words, as Roam shows it.
_ROAM_PAGE_ALIAS = re.compile(r"\[([^\[\]\n]+)\]\(\[\[[^\n]*?\]\]\)")
# Roam's page link nested in a page link, `[[[[Harbor]] office]]`: one page, "Harbor office".
_ROAM_NESTED_LINK = re.compile(r"\[\[([^\[\]\n]*)\[\[([^\[\]\n]*)\]\]([^\[\]\n]*)\]\]")
_BLOCK_ID = re.compile(r"[ \t]\^[\w-]+$")
# Obsidian's id of the block above (a callout's, a list's, a table's) goes on a line of its own,
# which reading view never shows: it read "…contained in $A$. ^97b1eb · Closed Set" (a trial on a math vault).
_LONE_BLOCK_ID = re.compile(r"\^[\w-]+")
# A Logseq block's logbook, a drawer Logseq folds away: `:LOGBOOK:`, its `CLOCK: [2022-12-15 Thu
# 09:47:52]` lines (`--[…] =>  00:05:00` once stopped) and `:END:`. Was: a journal's hit read
# "LATER Reread … :LOGBOOK: CLOCK: [2022-12-15 Thu 09:47:52] :END: No need to …" (s40).
_LOGBOOK_LINE = re.compile(r":LOGBOOK:|:END:|CLOCK:[ \t]*\[[0-9]{4}-[0-9]{2}-[0-9]{2}[^\]]*\](?:--\[[^\]]*\][ \t]*=>[ \t]*[0-9:]+)?")
_FOOTNOTE_DEFINITION = re.compile(r"^\[\^[^\[\]\n]+\]:[ \t]*")
# -- inline markup (every repeat stops at its closing delimiter: no backtracking over a line)
_WIKILINK = re.compile(r"!?\[\[([^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\]")
# A link's or image's attribute block, which the built page never shows: Pandoc's and Quarto's
# `![Plot](a.png){#fig-a width=80%}`, MkDocs' `[Download](x){ .md-button }` (they were shown as
# "Plot{#fig-a width=80%}": a trial on a docs folder).
_LINK_ATTRIBUTES = r"(?:\{[ \t]*(?::[ \t]*)?(?:[#.]|[\w-]+=)[^{}\n]*\})?"
_IMAGE = re.compile(r"!\[([^\[\]\n]*)\]\(" + LINK_DESTINATION + r"\)" + _LINK_ATTRIBUTES)
_LINK = re.compile(r"\[([^\[\]\n]+)\]\(" + LINK_DESTINATION + r"\)" + _LINK_ATTRIBUTES)
_BLOCK_SCALAR = re.compile(r"^[|>][+-]?$")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
# Bold, bold, strike, highlight: each stops only at its own closing mark, so one may hold the
# others' characters — "**1 R = 200 €**" and "**~33 Credits/Tag**" were shown with their stars
# (a trial on a German vault), as one pattern for all four stopped at any of them.
_STRONG = (*((mark, re.compile(rf"{re.escape(mark)}(?=[^\s{mark[0]}])([^{mark[0]}\n]*[^\s{mark[0]}]){re.escape(mark)}"))
              for mark in ("**", "__", "~~", "==")),
           # Roam's highlight, not inside a word or number: `^^` is no Markdown, and Knuth's arrows
           # `2^^3 and 3^^2` read "23 and 32", a Korean `좋아요^^감사해요^^` lost its smiles (review).
           ("^^", re.compile(r"(?<!\w)\^\^(?=[^\s^])([^^\n]*[^\s^])\^\^(?!\w)")))
_FOOTNOTE_REFERENCE = re.compile(r"\[\^[^\[\]\n]+\]")
_SIZE = re.compile(r"[ \t]*\d{1,5}(?:x\d{1,5})?[ \t]*")  # an embed's width, or width x height: ![[photo.jpg|300]]
_FILE_EXTENSION = re.compile(r"\.([A-Za-z0-9]{1,10})$")  # of a link target's last name: photo.jpg, Albums.base
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*\n]*)\*(?![\w*])|(?<![\w_])_([^_\s][^_\n]*)_(?![\w_])")
# -- raw HTML: its tags are html_tags.py's, its entities these
_HTML_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


Marks = tuple[list[tuple[int, int]], list[tuple[int, int]]]  # code ranges and hidden ranges, as offsets in the file's text


@dataclass(frozen=True)
class Snippet:
    """What a hit shows of its note, and where in the file that is: the heading path and lines
    (1-based, inclusive) of the section the snippet is cut from, or None when that is the
    passage's own (``PassageRow.headings`` and lines)."""

    text: str
    section: tuple[tuple[str, ...], int, int] | None = None


def passage_snippet(root: Path, relative: str, passage: PassageRow | None, query: str, title: str,
                    dendron: bool | None = None, template: TemplateLines | None = None,
                    later: Sequence[PassageRow] = (), inline_queries: Sequence[str] = ()) -> Snippet:
    """The snippet of a hit on ``relative`` whose best passage is ``passage`` (None: the whole
    body), read from the file now. ``dendron``: whether the vault is Dendron's (links.labels_first),
    when the caller asked it once for all its hits. ``template``: the vault's templates' lines,
    which the snippet then opens past, into the note's ``later`` passages when ``passage`` holds
    nothing else (a listing's opening: :func:`_past_template_lines`). ``inline_queries``: the
    prefixes of the vault's Dataview inline queries (inline_queries.py), which reading view shows
    as their value: no snippet shows their code."""
    # A terminal's colour codes in pasted output are read as a terminal shows them: no line break
    # goes, so passage lines hold (terminal_codes.py).
    # Composed (NFC), as the full text holds it (cjk.fts_form): the word it found in a text saved
    # decomposed is found here too. Line breaks are never composed, so passage lines hold.
    text = unicodedata.normalize("NFC", without_terminal_codes(read_text(root, relative)))
    if labels_first(root) if dendron is None else dendron:
        text = labels_last(text)  # Dendron's [[label|name]]: same length, so passage lines hold
    block = find_frontmatter(text)
    # Blanked in place, the body only: the same length, so passage lines hold.
    text = without_inline_queries(text, inline_queries, block.body_start if block is not None else 0)
    if passage is None:
        return Snippet(_passage_text(text, block, None, query, title, None))
    body_start = block.body_start if block is not None else 0
    if template is not None:
        passage = next((own for each in (passage, *later)
                        if (own := _past_template_lines(text, body_start, each, template)) is not None), passage)
    marks = _marked(text, body_start, *line_span(text, passage.start_line, passage.end_line))  # once, for both
    section = section_of(text, body_start, passage, query, marks, lambda: _naming_text(relative, title, block))
    # The snippet is cut from the lines the hit names: a short note's one passage holds all its
    # sections, and a trial's snippet ran on into the next section while naming the first's lines.
    shown = passage if section is None else replace(passage, headings=section[0], start_line=section[1], end_line=section[2])
    return Snippet(_passage_text(text, block, shown, query, title, marks), section)


def _past_template_lines(text: str, body_start: int, passage: PassageRow, template: TemplateLines) -> PassageRow | None:
    """``passage`` from its first line that says something a template does not: a trial's
    journal listed each day as "Yesterday <== 2023-03-12 ==>Tomorrow · Tasks for the Day · fill
    by hand · Queried Tasks Due Today · Journaling", its Daily Template's lines, before the
    day's own words (and a day whose navigation line Templater left unfilled never reached
    them). None when every line with a word is the template's (the caller shows the note as it
    opens: a day that says nothing of its own)."""
    start, end = line_span(text, passage.start_line, passage.end_line)
    position = max(start, body_start)
    number = text.count("\n", 0, position) + 1
    while position < end:
        line_end = text.find("\n", position, end)
        line_end = end if line_end < 0 else line_end
        line = text[position:line_end]
        if line_key(line) and not template.holds(line):  # a line without a word (a fence, a rule) is no one's
            return passage if number <= passage.start_line else replace(passage, start_line=number)
        position, number = line_end + 1, number + 1
    return None


def _naming_text(relative: str, title: str, block: FrontmatterBlock | None) -> str:
    """What names the note rather than says something in it: its file name, its title and its
    property lines (``author: Ryan Holiday``, a sync plugin's block of them)."""
    properties = property_lines(block.yaml_text[:SNIPPET_SOURCE_CHARS], title) if block is not None else []
    return "\n".join([relative.rpartition("/")[2].removesuffix(".md"), title, *properties])


def section_of(text: str, body_start: int, passage: PassageRow, query: str,
               marks: Marks | None = None, naming: str | Callable[[], str] = "") -> tuple[tuple[str, ...], int, int] | None:
    """The heading section, inside the passage, that holds the most of the query's words (the
    first such) — when the passage holds more than one (short sections are packed into one
    passage, and a short note is one passage whatever its headings): its heading path and its
    lines within the passage. "Lena birthday" over `## Calls` (Lena called) and `## Birthdays`
    (Lena's birthday, May 4) is the second: the snippet is cut from it. Words that name the note
    (``naming``: its file name, title and properties) and the verbs a question asks with
    (fields.REPORTING_VERBS) count only after the others: "Jordan Peterson on posture" is the
    highlight about posture, not the metadata table that names the book's author twice. Without a query word
    in it (a hit by meaning), the section the passage opens with. None when the passage's own
    heading path and lines say it (one section, or a body past :data:`SECTION_SCAN_CHARS`,
    not read whole for this)."""
    if len(text) - body_start > SECTION_SCAN_CHARS:
        return None
    start, end = line_span(text, passage.start_line, passage.end_line)
    if start < body_start:
        return None
    if _INNER_HEADING.search(text, start, end) is None and (passage.headings or _TOP_HEADING.match(text, start) is None):
        return None  # one section, whose heading path the passage has (a short note's one passage has none)
    marks = marks if marks is not None else _marked(text, body_start, start, end)
    inside = [section for section in sections(text[body_start:])
              if body_start + section.start < end and body_start + section.end > start]
    if not inside:
        return None
    forms = text_forms(text[start:end])
    patterns = query_word_patterns(query, forms)
    asked = topic_patterns(query, patterns, naming() if callable(naming) else naming, forms)

    def held(section: Section) -> tuple[int, int, bool]:
        """How many query words the section holds — in its text or in the headings above it, which
        are its own too ("Tagesnotiz Kalender": `## Was heute passiert ist` under `# Tagesnotiz …`
        holds both) — and whether it says anything under its heading. A trial's daily note showed
        its bare `# Tagesnotiz 05.09.2026` line for that query: the title alone held one word, as
        did the section that answered, and the first of a tie won."""
        first, last = max(start, body_start + section.start), min(end, body_start + section.end)
        above = " ".join(section.headings[:-1])

        def holds(pattern: re.Pattern[str]) -> bool:
            return _first_shown(text, first, last, pattern, marks) is not None or pattern.search(above) is not None

        held_words = {pattern: holds(pattern) for pattern in patterns}
        topics = sum(held_words[topic] if topic in held_words else holds(topic) for topic in asked)
        return topics, sum(held_words.values()), not section.headings or "\n" in text[first:last].strip()

    scores = [held(section) for section in inside] if patterns else []
    if scores and not any(topics for topics, _, _ in scores) and any(count for _, count, _ in scores):
        # The query's words here only name the note: "what did I do on 2023-02-23" of the daily
        # note 2023-02-23.md, whose name a journal template repeats in its navigation line
        # ("Yesterday <== [[2023-02-23]] ==> Tomorrow") and its task query. A trial showed that
        # line for the day of a dentist's visit, told in its `# Journaling` section: a question
        # that only names the note asks what it says, so the section that says the most is shown.
        return _saying_most(text, body_start, start, end, inside, passage, marks)
    section = inside[max(range(len(inside)), key=scores.__getitem__)] if scores else inside[0]
    first_held = max(start, body_start + section.start)
    found = _first_shown(text, first_held, min(end, body_start + section.end), query_pattern(query, forms), marks)
    if found is None:  # no query word shown (a hit by meaning): the section the passage opens in
        opening = [each for each in inside if body_start + each.start <= start]
        if not opening:
            return None
        section = opening[-1]
    if found is None:  # the snippet is the passage as a whole: its lines, under the heading it opens with
        return None if section.headings == tuple(passage.headings) else (section.headings, passage.start_line, passage.end_line)
    first = max(start, body_start + section.start)
    last = min(end, body_start + section.end)
    first_line = text.count("\n", 0, first) + 1
    last_line = first_line + text.count("\n", first, max(first, last - 1))
    if (section.headings, first_line, last_line) == (tuple(passage.headings), passage.start_line, passage.end_line):
        return None
    return section.headings, first_line, last_line


def _saying_most(text: str, body_start: int, start: int, end: int, inside: Sequence[Section], passage: PassageRow,
                 marks: Marks) -> tuple[tuple[str, ...], int, int] | None:
    """The heading path and lines of the section of ``inside`` whose text, as reading view shows
    it (a task query's block, comments and link addresses left out), holds the most words, the
    first of a tie; None when those are the passage's own."""
    def spans(section: Section) -> tuple[int, int]:
        return max(start, body_start + section.start), min(end, body_start + section.end)

    def words(section: Section) -> int:  # a character of Chinese or Japanese is a word (cjk.spaced): a clause was one
        return len(_WORD.findall(spaced(readable(visible(text, body_start, *spans(section), marks)))))

    section = max(inside, key=words)
    first, last = spans(section)
    first_line = text.count("\n", 0, first) + 1
    last_line = first_line + text.count("\n", first, max(first, last - 1))
    if (section.headings, first_line, last_line) == (tuple(passage.headings), passage.start_line, passage.end_line):
        return None
    return section.headings, first_line, last_line


def _first_shown(text: str, start: int, end: int, words: re.Pattern[str] | None, marks: Marks) -> int | None:
    """Where the first query word a person reads in ``text[start:end]`` is: not in a comment,
    nor in what :func:`readable` leaves out of its line (a link's address, an HTML attribute);
    a word in code is read as written. Words in comments are passed over at no cost; at most
    :data:`SHOWN_TRIES` lines are rendered to look for the others."""
    if words is None:
        return None
    code, hidden = marks
    hidden_starts = [first for first, _ in hidden]
    code_starts = [first for first, _ in code]
    tries = 0
    position = start
    while (match := words.search(text, position, end)) is not None:
        at = match.start()
        covering = bisect.bisect_right(hidden_starts, at) - 1
        if covering >= 0 and hidden[covering][1] > at:
            position = hidden[covering][1]  # past the whole comment, not word by word
            continue
        within = bisect.bisect_right(code_starts, at) - 1
        if within >= 0 and code[within][1] > at:
            return at
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", match.end())
        if words.search(readable(text[line_start : line_end if line_end >= 0 else len(text)])):
            return at
        tries += 1
        if tries == SHOWN_TRIES:
            return None
        position = match.end()
    return None


def _passage_text(text: str, block: FrontmatterBlock | None, passage: PassageRow | None, query: str, title: str,
                  marks: Marks | None) -> str:
    body_start = block.body_start if block is not None else 0

    def properties() -> list[str]:  # read only when the passage itself cannot answer
        return property_lines(block.yaml_text[:SNIPPET_SOURCE_CHARS], title) if block is not None else []

    start, end = body_start, len(text)
    if passage is not None and block is not None and passage.end_line <= text.count("\n", 0, body_start):
        body, end = "", body_start  # an empty body's passage is the frontmatter's lines (searchable._in_file)
    elif passage is not None:
        start, end = line_span(text, passage.start_line, passage.end_line)
        body = visible(text, body_start, start, end, marks)
        if not body.strip() and text[start:end].strip():
            # All of it is hidden in reading view (an Excalidraw drawing's JSON, inside %%): the
            # note's text is what a person reads of it, not its properties or its title.
            body = _visible_body(text, body_start)
    else:
        body, marks = _visible_body(text, body_start), None

    def comments() -> list[str]:  # read only when neither the passage nor a property answers
        hidden = (marks if marks is not None else _marked(text, body_start, start, end, spans_within=False))[1]
        return comments_within(text, start, end, hidden)

    return excerpt_of(source_of(body, query), properties, title, query, comments=comments)


_COMMENT_MARKS = (("%%", "%%"), ("<!--", "-->"))


def comments_within(text: str, start: int, end: int, hidden: Sequence[tuple[int, int]]) -> list[str]:
    """The ``%% comments %%`` and ``<!-- comments -->`` of ``hidden`` (:func:`_marked`'s) within
    ``text[start:end]``, each readable between its own marks (``%% ask Ana %%``), for a snippet
    whose query words only a comment holds: the full text searches what a comment says, as
    Obsidian's search does, and a trial's hit showed the lines around it without the words it
    was found by. A comment holding a fenced block is a plugin's data (Excalidraw's drawing,
    Kanban's settings), not words a person wrote: never shown."""
    said: list[str] = []
    for first, last in hidden:
        if last <= start or first >= end:
            continue
        marks = next(((opening, closing) for opening, closing in _COMMENT_MARKS if text.startswith(opening, first)), None)
        if marks is None:
            continue  # a script, a style, a query block: not a comment
        inner = text[max(first + len(marks[0]), start) : min(last, end)]
        inner = inner[: -len(marks[1])] if last <= end and inner.endswith(marks[1]) else inner
        shown = "" if FENCE_LINE.search(inner) else readable(inner[:SNIPPET_SOURCE_CHARS])
        if shown:
            said.append(f"{marks[0]} {shown} {marks[1]}")
    return said


def visible(text: str, body_start: int, start: int, end: int, marks: Marks | None = None) -> str:
    """``text[start:end]`` as :func:`readable` should read it: without what reading view hides
    (:func:`markdown.hidden_ranges`), and, when it begins or ends inside a fenced code block,
    opened or closed by that block's fence — decided on the body around it (:func:`_marked`):
    a passage that begins inside a ``%%`` block holds only its closing ``%%``, which read alone
    would open one; one that begins inside a code block holds only its closing fence, and its
    code would be read as prose, a ``%%`` in it as a comment. Cut before the snippet's source
    is chosen, so that a comment of megabytes (an Excalidraw drawing's JSON) cannot fill it and
    a passage all hidden is seen to be. ``marks``: :func:`_marked` of this passage, when the
    caller has them."""
    passage = text[start:end]
    code, hidden = marks if marks is not None else _marked(text, body_start, start, end)
    if not code and not hidden:
        return passage
    inside = [(max(first, start) - start, min(last, end) - start) for first, last in hidden if last > start and first < end]
    return _fence_around(text, code, hidden, start, end) + blanked(passage, inside, "") + _fence_around(text, code, hidden, end, start)


def _visible_body(text: str, body_start: int) -> str:
    """The whole body as :func:`visible` reads it. Its edges are the body's: no inline span there
    to know of (:func:`_marked`'s ``spans_within``), and none of its lines asked to place a word."""
    return visible(text, body_start, body_start, len(text), _marked(text, body_start, body_start, len(text), spans_within=False))


def _marked(text: str, body_start: int, start: int, end: int, spans_within: bool = True) -> Marks:
    """The code and what reading view hides (:func:`markdown.hidden_ranges`) around
    ``text[start:end]``, as offsets in ``text``: read from the body's start (unless that is more
    than :data:`HIDDEN_SCAN_CHARS` before the end) to :data:`SECTION_SCAN_CHARS` past the end, so
    that a comment or a code block that opens above the passage or closes below it is one.
    ``([], [])`` when nothing there is either.

    The code is the context's fenced blocks and, with ``spans_within``, the inline spans on the
    passage's lines (:func:`_first_shown` reads a word in one as written): what the callers
    look at. Finding them costs the passage and the context's fence and comment lines, not
    the context's every line (:func:`markdown.fenced_blocks`, :func:`markdown.hidden_ranges_by_blocks`):
    a hit on a 5 MB pasted log took 35 ms to 100 ms here, parsing every line above it."""
    context_start = start if end - body_start > HIDDEN_SCAN_CHARS else body_start
    context_end = min(len(text), end + SECTION_SCAN_CHARS)
    fenced = context_end - context_start <= 2 * SECTION_SCAN_CHARS and FENCE_LINE.search(text, context_start, context_end)
    opener = HIDDEN_OPEN.search(text, context_start, context_end)
    if not fenced and opener is None and FOAM_REFERENCES_MARK not in text[context_start:context_end]:
        return [], []
    context = text[context_start:context_end]
    blocks = fenced_blocks(context)
    first_opener = 0 if opener is None else opener.start() - context_start
    comments = [] if opener is None else hidden_ranges_by_blocks(context, blocks, first_opener)
    # A query block (a dataview or base fence) renders other notes: no snippet shows its query.
    holders = data_holders(context, comments, first_opener)
    hidden = merged_ranges([*comments, *query_block_ranges(context, blocks, holders)])
    spans = inline_spans_between(context, blocks, start - context_start, end - context_start) if spans_within else []
    code = sorted({*blocks, *spans})
    return ([(first + context_start, last + context_start) for first, last in code],
            [(first + context_start, last + context_start) for first, last in hidden])


def _fence_around(text: str, code: Sequence[tuple[int, int]], hidden: Sequence[tuple[int, int]], at: int, other: int) -> str:
    """The fence to add where a passage's edge ``at`` falls inside a fenced code block (past its
    opening line, before its closing one): the block's opening line before a start (``other``
    after ``at``), a closing fence after an end; ``""`` elsewhere, and for a block that is
    inside a comment (hidden with it)."""
    for first, last in code:
        if first >= at:
            break
        if not first < at < last:
            continue
        opening_end = text.find("\n", first, at)
        # past the opening line; an end on the closing fence's line needs no closing fence
        if opening_end < 0 or (other < at and "\n" not in text[at:last]):
            continue
        if any(start <= first < end for start, end in hidden):
            return ""
        line_start = text.rfind("\n", 0, first) + 1
        if other > at:  # the passage starts here: open the block as it was opened
            return text[line_start : opening_end + 1]
        fence = _FENCE_MARK.search(text, line_start, opening_end)
        return "\n" + (fence.group() if fence is not None else "```")
    return ""


def source_of(body: str, query: str) -> str:
    """The part of ``body`` a snippet is cut from: its first :data:`SNIPPET_SOURCE_CHARS`, or,
    when the first query word lies further in (a passage inside one very long line: its line
    range is the whole line), that many characters from a little before that word."""
    if len(body) <= SNIPPET_SOURCE_CHARS:
        return body
    words = query_pattern(query, text_forms(body[:SNIPPET_SCAN_CHARS]))
    found = words.search(body, 0, SNIPPET_SCAN_CHARS) if words is not None else None
    if found is None or found.start() < SNIPPET_SOURCE_CHARS - SNIPPET_CHARS:
        return body[:SNIPPET_SOURCE_CHARS]
    line_start = body.rfind("\n", 0, found.start()) + 1
    if found.start() - line_start < SNIPPET_CHARS:  # the word's line is short: from its start
        return body[line_start : line_start + SNIPPET_SOURCE_CHARS]
    space = body.find(" ", found.start() - SNIPPET_CHARS // 3, found.start())
    start = space + 1 if space >= 0 else found.start()
    return "…" + body[start : start + SNIPPET_SOURCE_CHARS]


def excerpt_of(passage: str, properties: Sequence[str] | Callable[[], Sequence[str]], title: str, query: str,
               width: int = SNIPPET_CHARS, comments: Callable[[], Sequence[str]] | None = None) -> str:
    """The excerpt a hit shows: the passage around its query words (:func:`window`) — or, when only the
    note's properties hold query words, those properties then the passage; when only a comment
    reading view hides holds them (``comments``: :func:`comments_within`), that comment, marked
    as one, then the passage; when the passage is empty, its first properties; failing all, the
    title (see the module's docstring). ``properties`` may be a function, called only when the
    passage does not answer."""
    words = query_pattern(query, text_forms(passage))
    shown = readable(passage)
    if shown and (words is None or words.search(shown)):
        return window(shown, words, width)
    lines = properties() if callable(properties) else properties
    if words is not None:
        matching = [line for line in lines if words.search(line)]
        if not matching and comments is not None:
            matching = [comment for comment in comments() if words.search(comment)]
        if matching:
            return window(joined([*matching, shown]), words, width)
    if shown:
        return window(shown, words, width)
    if lines:
        return window(joined(first_properties(lines)), words, width)
    return title


def first_properties(lines: Sequence[str]) -> list[str]:
    """The :data:`FIRST_PROPERTIES` property lines an empty note shows when none holds a query
    word: in file order, those whose value is only an address (a URL) after the others — a
    cover image's 150-character address filled the snippet of every Movies note, and its
    ``director`` was never shown."""
    return sorted(lines, key=_is_address_only)[:FIRST_PROPERTIES]


def _is_address_only(line: str) -> bool:
    """Is the value of a ``key: value`` line one address or a list of them, nothing else?"""
    value = line.partition(": ")[2]
    return bool(value) and all(_ADDRESS.fullmatch(item) for item in value.split(", "))


@functools.lru_cache(maxsize=64)  # asked once per hit, for the same query
def query_pattern(query: str, forms: TextForms = PLAIN) -> re.Pattern[str] | None:
    """Where a query word starts in a text, case-insensitive: words of four letters or more
    as prefixes of their stem (``tart`` finds ``tarts``, ``secrets`` finds ``secret`` and
    ``opening`` finds ``opens``, as the full-text side's stemmer matched them), shorter ones
    whole (``go`` is not ``good``); stopwords only when the query has nothing else; a run of
    Chinese, Japanese or Korean by any pair of its neighbouring characters, wherever it stands
    (cjk.py: the full-text side asks for the same pairs). ``forms``: what the text the pattern
    looks in holds (cjk.text_forms: full-width letters, runs written without spaces), which its
    words then allow for. A query of signs alone (``&&``): those signs as written. None: a blank query."""
    words, runs = _query_parts(query, forms)
    if not words and not runs:
        # signs alone (``&&``): the search found them as written, so the snippet shows them
        return re.compile(re.escape(query.strip())) if query.strip() else None
    pairs = sorted({pair for run in runs for pair in run}, key=len, reverse=True)
    alternatives = sorted(set(words), key=len, reverse=True)
    started = [forms.word_start + "(?:" + "|".join(alternatives) + ")"] if alternatives else []
    return re.compile("|".join([*started, *pairs]), re.IGNORECASE)


@functools.lru_cache(maxsize=64)  # asked once per hit, for the same query
def query_word_patterns(query: str, forms: TextForms = PLAIN) -> tuple[re.Pattern[str], ...]:
    """One pattern per word of the query as :func:`query_pattern` looks for it (a run of
    Chinese, Japanese or Korean: any of its pairs): how many of the query's words a piece of
    text holds."""
    words, runs = _query_parts(query, forms)
    return (*(re.compile(forms.word_start + word, re.IGNORECASE) for word in dict.fromkeys(words)),
            *(re.compile("|".join(run), re.IGNORECASE) for run in runs if run))


def topic_patterns(query: str, patterns: Sequence[re.Pattern[str]], naming: str,
                   forms: TextForms = PLAIN) -> list[re.Pattern[str]]:
    """Those of a query's word ``patterns`` that ask what it is about: not a word of ``naming``
    (the note's names and properties, which say which note, not where in it), nor a verb it
    asks with ("say", "think": fields.REPORTING_VERBS). A run of Chinese, Japanese or Korean is
    one word of many pairs: it asks by the pairs ``naming`` lacks. `定长和变长的区别` ("the difference
    between fixed and variable length") of the note `VARCHAR 和 CHAR 的区别` asks about 定长 and 变长;
    its 区别 names the note. The whole run counted as a name, and the snippet showed the note's
    `# Reference` links instead of its line on 定长 (a trial on a Chinese vault)."""
    asking = {forms.word_start + _word_pattern(word, forms) for word in (each.casefold() for each in _WORD.findall(query))
              if word in REPORTING_VERBS}
    runs = {"|".join(run): run for run in _query_parts(query, forms)[1]}
    topics = []
    for pattern in patterns:
        if pattern.pattern in runs:
            unnamed = [pair for pair in runs[pattern.pattern] if re.search(pair, naming, re.IGNORECASE) is None]
            if unnamed:
                topics.append(pattern if len(unnamed) == len(runs[pattern.pattern]) else re.compile("|".join(unnamed), re.IGNORECASE))
        elif pattern.pattern not in asking and not pattern.search(naming):
            topics.append(pattern)
    return topics


def _query_parts(query: str, forms: TextForms = PLAIN) -> tuple[list[str], list[list[str]]]:
    """A query's words as :func:`_word_pattern` patterns, and each run's escaped pairs."""
    query = marks_folded(arabic_folded(width_folded(unicodedata.normalize("NFC", query))))  # ＳＱＬ looks for the SQL a note writes, as the full text found it
    # Chinese, Japanese, Korean: by neighbouring pairs; a particle against a word asks nothing (の of Reactのhooks)
    runs = [run.group() for run in RUN.finditer(query) if not particle_beside(query, run.start(), run.end())]
    pairs = [[han_either(pair.replace(" ", "")) for pair in content_pairs(run) or bigrams(run)] for run in runs]
    words = list(dict.fromkeys(word.casefold() for word in _WORD.findall(spaced(query)) if not has_run(word)))
    meaningful = [word for word in words if word not in STOPWORDS and len(word) > 1] or ([] if any(pairs) else words)
    return [_word_pattern(word, forms) for word in meaningful], [run for run in pairs if run]


# English inflections the full-text side's Porter stemmer folds, longest first: cut from a query
# word, the rest (at least STEM_KEEP letters) followed by any of them (or by nothing) is one of
# the word's forms — ``spec`` of "species" finds "specs", not "special". The forms add the
# agent nouns in -er and -or, so that "directed" finds a note's ``director`` property ("edited"
# its ``editor``). The stemmer keeps "director" apart from "direct": this changes only where
# a snippet looks, never what a search finds.
_INFLECTIONS = ("ies", "ing", "ed", "es", "ly", "s")
_FORMS = "(?:ies|ing|ed|es|ly|s|e|y|er|ers|or|ors)?"
STEM_KEEP = 4


def _word_pattern(word: str, forms: TextForms = PLAIN) -> str:
    """A query word as the window looks for it: a short word whole, a longer one as a prefix,
    an inflected one as its stem and any inflection (:func:`_stem_prefix`)."""
    if len(word) < STEM_KEEP:
        return spellings_either(re.escape(word), forms.wide) + forms.word_end
    stem = _stem_prefix(word)
    if stem == word:
        return spellings_either(re.escape(word), forms.wide)
    return spellings_either(re.escape(stem), forms.wide) + _FORMS + forms.word_end


def _stem_prefix(word: str) -> str:
    """``word`` without its inflection, when at least STEM_KEEP letters remain (``secrets`` →
    ``secret``, ``changed`` → ``chang``, ``glass`` and ``bus`` unchanged)."""
    if len(word) < STEM_KEEP or word.endswith("ss"):
        return word
    for ending in _INFLECTIONS:
        if word.endswith(ending) and len(word) - len(ending) >= STEM_KEEP:
            return word[: -len(ending)]
    return word


def window(text: str, words: re.Pattern[str] | None, width: int = SNIPPET_CHARS) -> str:
    """``width`` characters of ``text`` from a little before the query word that opens the
    stretch holding the most of the query's words (:func:`_densest_match`; the start when none
    is there), ``…`` where it was cut."""
    if len(text) <= width:
        return text
    found = _densest_match(text, words, width) if words is not None else None
    start = max(0, found.start() - width // 3) if found else 0
    if start:
        start = next((at + 1 for at in range(start, min(start + 20, len(text))) if _is_break(text[at])), start)
    end = min(len(text), start + width)
    if end < len(text) and not (text[end].isspace() or _is_break(text[end - 1])):  # not in a word, unless a long one
        end = next((at + (not text[at].isspace()) for at in range(end - 1, max(start, end - 20), -1)
                    if _is_break(text[at])), end)
    if "$" in text:
        start, end = _math_kept_whole(text, start, end, found.end() if found else 0, width)
    excerpt = text[start:end].rstrip()
    if start:  # cut after a clause's mark: what follows it opens the excerpt, not the blank or " · " after it
        excerpt = excerpt.lstrip().removeprefix(BREAK.lstrip())
    return ("…" if start else "") + excerpt + ("…" if end < len(text) else "")


# Where a snippet may start or end: at a space, or after a mark that ends a sentence or clause
# of a text written without spaces (Chinese and Japanese put no space after one). Without the
# marks a Chinese snippet began and ended at whichever character the width fell on: "…数据的时候"
# cut "读取磁盘" from the clause (a trial on a Chinese vault).
_CJK_BREAKS = frozenset("。！？；，、：）」』】》")


def _is_break(char: str) -> bool:
    return char.isspace() or char in _CJK_BREAKS


DENSEST_TRIES = 200  # query words tried as a window's first: a passage holds a few hundred words at most


def _densest_match(text: str, words: re.Pattern[str], width: int) -> re.Match[str] | None:
    """The query word of ``text`` after which the next two thirds of ``width`` hold the most
    different query words, then the next third (the words close together, what follows them
    shown) — the first such; None when none is there. A flashcard deck is one passage of many
    cards: "how do I copy a file out of a running container" showed the card that first said
    "container" (which kernel features isolate one), not the one that answers it (a trial)."""
    found = list(itertools.islice(words.finditer(text), DENSEST_TRIES))
    if len(found) < 2:
        return found[0] if found else None
    said = [match.group().casefold() for match in found]
    starts = [match.start() for match in found]  # ascending: finditer's order
    best, best_counts = found[0], (0, 0)
    for at, match in enumerate(found):
        counts = (_different_words(said, starts, at, match.start() + width * 2 // 3),
                  _different_words(said, starts, at, match.start() + width // 3))
        if counts > best_counts:
            best, best_counts = match, counts
    return best


def _different_words(said: Sequence[str], starts: Sequence[int], at: int, before: int) -> int:
    """How many different words (``said``, casefolded) the matches from the ``at``-th on that
    start (``starts``, ascending) before ``before`` are."""
    return len(set(said[at : bisect.bisect_left(starts, before, at)]))


MATH_STRETCH = 40  # characters an excerpt may run past its width to end a formula rather than cut it


def _math_kept_whole(text: str, start: int, end: int, needed: int, width: int) -> tuple[int, int]:
    """``start`` and ``end`` of an excerpt of ``text`` moved off the inside of a formula: a
    formula cut in two reads as another one (``…_{\\Omega}|u|^{2}\\leq`` began a trial's
    snippet). The start moves back to the formula's ``$`` while the excerpt still reaches
    ``needed`` (the query word's end); the end moves on to its closing ``$`` when that is at
    most :data:`MATH_STRETCH` further, or back to before the formula when it starts in the
    excerpt's second half. A formula longer than that is cut as any long word is."""
    for first, last in math_spans(text)[0]:
        if first < start < last and needed - first <= width - MATH_STRETCH:
            start = first
        if first < end < last:
            if last - end <= MATH_STRETCH:
                end = last
            elif first > start + width // 2:
                end = first
    return start, end


# ------------------------------------------------------------------ markup → readable text


def readable(text: str) -> str:
    """``text`` as a person reads it, on one line (see the module's docstring)."""
    if EMBED_OPEN in text or EMBED_CLOSE in text:
        text = text.replace(EMBED_OPEN, "").replace(EMBED_CLOSE, "")  # noncharacters: nothing a note shows
    code = code_ranges(text)
    hidden = hidden_ranges(text, code)
    if hidden:
        text, code = blanked(text, hidden, ""), _code_after_cut(code, hidden)  # a comment on lines of its own leaves its line ends
    blocks: list[str] = []
    headings: list[bool] = []  # is blocks[i] a heading? (not what a passage says, only where)
    metadata: list[bool] = []  # is blocks[i] a property line or an export's date line (METADATA)?
    joins_previous = False  # is the last line a paragraph's or a list item's, that the next prose line continues?
    in_math = False  # inside a $$ display block opened on a line above
    for line, in_code in _lines(text, code):
        if in_code:
            shown, kind = " ".join(line.split()), BLOCK
        else:
            shown, kind, in_math = _line(line, in_math)
        for number, piece in enumerate(shown.split("\n")):  # "\n": where a block-level HTML tag breaks the line
            if number or not piece:
                joins_previous = False  # a blank line, a rule, a fence, a block tag: a break between blocks
            if not piece:
                continue
            if joins_previous and kind == PROSE:
                blocks[-1] += " " + piece
            else:
                blocks.append(piece)
                headings.append(kind == HEADING)
                metadata.append(kind == METADATA)
            joins_previous = kind not in (BLOCK, HEADING, METADATA)
    if any(metadata):
        blocks, headings = _metadata_left_out(blocks, headings, metadata)
    if any(EMBED_OPEN in block for block in blocks):
        blocks = _embeds_placed(blocks, headings)
    return joined(_said_sections(blocks, headings))


def _metadata_left_out(blocks: list[str], headings: list[bool], metadata: list[bool]) -> tuple[list[str], list[bool]]:
    """``blocks`` (and ``headings``) without the property lines and an export's date lines
    (:data:`METADATA`) when any other block that is no heading says something; all of them when
    they are all there is. A person reads ``speaker:: Caroline`` under a Logseq block and YARLE's
    closing ``Created at: 2025-10-03T09:12:00+02:00`` as the note's metadata: in a snippet they
    read as its words ("We should plant the tomatoes after the last frost speaker:: Caroline"),
    and took the room of the next sentence. Display only: what is searched is unchanged."""
    said = any(_LETTER_OR_DIGIT.search(_MARKED_EMBED.sub("", block))
               for block, heading, meta in zip(blocks, headings, metadata, strict=True) if not heading and not meta)
    if not said:
        return blocks, headings
    kept = [number for number, meta in enumerate(metadata) if not meta]
    return [blocks[number] for number in kept], [headings[number] for number in kept]


def _said_sections(blocks: list[str], headings: list[bool]) -> list[str]:
    """``blocks`` without the headings of sections that say nothing of their own (another heading
    or the end follows), when anything else is said: a daily note's template of query sections
    (``## Overdue`` over a ```` ```tasks ```` block, left out) read "PENDING · 🕙 Overdue · 📆 Today ·
    ⏩ This week · ❎ No date · ✅ Done today · TODO", and the tasks it holds were cut off (a trial
    on a task vault). A passage of headings alone keeps them: it is all the note says there."""
    if len(blocks) != len(headings) or all(headings):
        return blocks
    return [block for number, block in enumerate(blocks)
            if not headings[number] or (number + 1 < len(blocks) and not headings[number + 1])]


def _embeds_placed(blocks: Sequence[str], headings: Sequence[bool]) -> list[str]:
    """``blocks`` with each embedded file's marked name (:func:`_shown_link`) shown as
    ``(embedded photo.jpg)`` inside a sentence, and left out on a line of its own when the
    passage says something besides headings.

    Obsidian shows the file itself — a base's table, a photo — and its bare name read as if
    the note said it: "An evergreen note is an idea. … Evergreen.base", "Notes · Daily.base"
    (kepano's vault). On a line of its own it is left out where there is text to show; said as
    what it is where there is none, so a note that is one photo or one base never shows an empty
    snippet. Inside a sentence it is said as what it is: left out, "see ![[a.png]] and
    ![[b.pdf]]" read "see and", and "The plan is in ![[plan.pdf]]." "The plan is in." (a review)."""
    said = any(_LETTER_OR_DIGIT.search(_MARKED_EMBED.sub("", block))
               for block, heading in zip(blocks, headings, strict=True) if not heading)
    if said:
        return [shown for shown in (_embeds_in_block(block) for block in blocks) if shown]
    return [_MARKED_EMBED.sub(r"(embedded \1)", block) for block in blocks]


def _embeds_in_block(block: str) -> str:
    """One block of a passage that says something: its embedded files said as such where the
    block has words of its own, else left out (an embed on a line of its own)."""
    if _LETTER_OR_DIGIT.search(_MARKED_EMBED.sub("", block)):
        return _MARKED_EMBED.sub(r"(embedded \1)", block)
    return _MARKED_EMBED_LEFT_OUT.sub("", block).strip()


def joined(blocks: Sequence[str]) -> str:
    """Blocks on one line: a space after one that ends a sentence, `` · `` after any other."""
    text = ""
    for block in blocks:
        if not block:
            continue
        if text:
            text += " " if text[-1] in _SENTENCE_END else BREAK
        text += block
    return text


def _code_after_cut(code: Sequence[tuple[int, int]], hidden: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code ranges that stay when ``hidden`` is cut out, moved to where they are then: what
    is code is decided once, on the text as written (code inside a comment goes with it)."""
    kept: list[tuple[int, int]] = []
    removed = index = 0
    for start, end in code:
        while index < len(hidden) and hidden[index][1] <= start:
            removed += hidden[index][1] - hidden[index][0]
            index += 1
        if index < len(hidden) and hidden[index][0] < end:
            continue  # inside a comment (a code span that starts in one and ends past it goes with it too)
        kept.append((start - removed, end - removed))
    return kept


def _lines(text: str, code: Sequence[tuple[int, int]]) -> list[tuple[str, bool]]:
    """Each line, and whether it is inside a fenced code block (of ``code``); fence lines left out."""
    blocks = [(start, end) for start, end in code if "\n" in text[start:end]]
    found: list[tuple[str, bool]] = []
    offset = 0
    block = 0
    options = False  # at the options of a MyST directive (`:class: tip` under ```{admonition})
    for line in text.split("\n"):
        while block < len(blocks) and blocks[block][1] <= offset:
            block += 1
        inside = block < len(blocks) and blocks[block][0] <= offset < blocks[block][1]
        is_fence = inside and (offset == blocks[block][0] or offset + len(line) >= blocks[block][1])
        if is_fence and offset == blocks[block][0] and (directive := _MYST_DIRECTIVE.match(line)) is not None:
            options = True
            if directive.group(1).lower() in _TITLED_DIRECTIVES and directive.group(2).strip():
                found.append((directive.group(2).strip(), True))  # ```{admonition} Why 2000 m?: its title
        elif is_fence:
            options = False  # a fence that closes (or opens no directive): its options are over
        elif not (options and _MYST_OPTION.match(line)):
            options = False
            found.append((line, inside))
        offset += len(line) + 1
    return found


LINE_MEMO_CHARS = 1_000  # lines up to this long are remembered (_line); a pasted log's line of megabytes never is
LINE_MEMO_SIZE = 8_192  # lines remembered, the most recently rendered


def _line(line: str, in_math: bool = False) -> tuple[str, str, bool]:
    """:func:`_rendered_line`, remembered by the line's text (the answer depends on nothing
    else): about half the lines a search at 10k notes renders were rendered before — the same
    notes answer many questions, and a hit's lines are read for its section, then its excerpt."""
    if len(line) > LINE_MEMO_CHARS:
        return _rendered_line(line, in_math)
    return _remembered_line(line, in_math)


def _rendered_line(line: str, in_math: bool = False) -> tuple[str, str, bool]:
    """One line outside code without its markup, its kind — :data:`PROSE` (paragraph text,
    which continues a paragraph or list item above it), :data:`ITEM` (a list item: it starts a
    block, and the prose lines after it continue it) or :data:`BLOCK` (a block of its own) —
    and whether a ``$$`` math block is open at its end. Block-level HTML tags in it leave
    ``\\n`` between the blocks they separate.

    Math is shown as written (``in_math``: the line starts inside a ``$$`` block): a line
    ``+`` between two terms is no list item, nor ``_{p}`` … ``_{q}`` emphasis — Hölder's
    inequality read ``||f||{p}||g||{q}``, a decomposition ``E = E^{(c)} · ∬…`` (a trial on a
    math vault)."""
    stripped = line.strip()
    if not stripped:
        return "", BLOCK, in_math
    if not in_math and (_RULE.match(stripped) or ("-" in stripped and _TABLE_DIVIDER.match(stripped))):
        return "", BLOCK, in_math
    if stripped[0] in "<=>|" and not in_math and _CONFLICT_MARKER.fullmatch(stripped):
        # Git's marker lines of an unresolved merge: both sides are the note (their hit warns of the
        # conflict), the markers are not — `>>>>>>> 7340224…` read as a quote showed its bare
        # commit hash, `|||||||` as a table row its label (an agent trial).
        return "", BLOCK, in_math
    if "::" in stripped and is_hidden_property(stripped):
        return "", BLOCK, in_math  # Logseq's `id:: 621b05d0-…` or `collapsed:: true` under a block: Logseq never shows it
    if not in_math and _is_metadata_line(stripped):
        return " ".join(_inline(stripped).split()), METADATA, in_math
    if not in_math and stripped.startswith("^") and _LONE_BLOCK_ID.fullmatch(stripped):
        return "", BLOCK, in_math
    if not in_math and stripped[0] in ":C" and _LOGBOOK_LINE.fullmatch(stripped):
        return "", BLOCK, in_math
    kind = PROSE
    if stripped.startswith(">"):
        stripped = _QUOTE.sub("", stripped)  # a callout's math block is quoted too
        if stripped.startswith("[!") and not in_math:
            titled = _CALLOUT.sub("", stripped, count=1)
            # A callout's title is its heading: without a block of its own it ran into the body's first sentence.
            stripped, kind = titled, (BLOCK if titled != stripped else kind)
    elif not in_math and stripped[0] in "!?=:-{(" and (site := _site_block_title(stripped)) is not None:
        return site, BLOCK, in_math
    heading = HEADING_LINE.match(stripped) if stripped.startswith("#") else None
    if in_math:
        kind = PROSE  # inside a $$ block: no heading, list item or table
    elif heading is not None:
        stripped, kind = heading.group(2), HEADING
    elif _BULLET.match(stripped):
        item = _BULLET.sub("", stripped, count=1)
        item = _roam_task_marker(item) if item.startswith("{{") else item
        if item.startswith("#") and (heading_item := HEADING_LINE.match(item)) is not None:
            # A heading as a list item's text (`- ### Basics`: Logseq's heading block; Obsidian renders
            # it so too): its words, not its marks. Was "### Exploration · Learn new topics" (s40).
            item = heading_item.group(2)
        stripped, kind = _OPEN_TASK_BOX.sub("", item, count=1), ITEM
    elif _NUMBERED.match(stripped):
        kind = ITEM
    elif stripped.startswith("|"):
        stripped, kind = stripped.strip("|").strip(), BLOCK
    elif stripped.startswith("![[") and _WIKILINK.fullmatch(stripped):
        kind = BLOCK  # an embed on its own line is shown as a block of its own
    elif stripped.startswith("[^") and (definition := _FOOTNOTE_DEFINITION.match(stripped)) is not None:
        stripped, kind = stripped[definition.end() :], ITEM  # a footnote's text; its indented lines continue it
    math, math_after = math_spans(stripped, in_math) if "$" in stripped or in_math else ([], False)
    if not math_after:
        stripped = _BLOCK_ID.sub("", stripped)
    shown = _outside_math(stripped, math)
    if "\n" in shown:
        return "\n".join(" ".join(piece.split()) for piece in shown.split("\n")), kind, math_after
    return " ".join(shown.split()), kind, math_after


_remembered_line = functools.lru_cache(maxsize=LINE_MEMO_SIZE)(_rendered_line)


def _is_metadata_line(stripped: str) -> bool:
    """Is ``stripped`` (a line without its indent) a property or an export's date line (:data:`METADATA`)?"""
    if "::" in stripped:
        return _PROPERTY_LINE.fullmatch(stripped) is not None
    return " at:" in stripped and _EXPORT_DATE_LINE.fullmatch(stripped) is not None


def _site_block_title(line: str) -> str | None:
    """What a documentation site shows for a line of its block markup (the title of an
    admonition, a tab's label, nothing for a div's fence), or ``None`` for any other line."""
    if (admonition := _ADMONITION.match(line)) is not None:
        # Without a title MkDocs shows the kind ("Note"); an empty one (`!!! note ""`) shows none.
        title = admonition.group(2)
        return admonition.group(1).capitalize() if title is None else " ".join(title.split())
    if (tab := _CONTENT_TAB.match(line)) is not None:
        return " ".join(tab.group(1).split())
    if (div := _FENCED_DIV.match(line)) is not None:
        return " ".join((div.group(1) or div.group(2) or "").split())
    if _SNIPPET_INCLUDE.match(line) or _ATTRIBUTE_LIST.match(line) or _MYST_TARGET.match(line):
        return ""
    return None


def _outside_math(text: str, math: Sequence[tuple[int, int]]) -> str:
    """``text`` with the inline markup outside its ``math`` spans removed; the math as written."""
    shown: list[str] = []
    position = 0
    for start, end in math:
        shown += [_inline(text[position:start]), text[start:end]]
        position = end
    shown.append(_inline(text[position:]))
    return "".join(shown)


def _inline(text: str) -> str:
    """Inline markup removed; inside a code span only its ticks (code is shown as written)."""
    if not text:
        return text
    if "`" not in text:
        return _spans(text)
    parts = _CODE_SPAN.split(text)  # text, code, text, code, …, text
    return "".join(part if number % 2 else _spans(_MYST_ROLE.sub("", part) if number + 1 < len(parts) else part)
                   for number, part in enumerate(parts))


def _spans(text: str) -> str:
    if "((" in text:
        text = BLOCK_REFERENCE.sub("", text)  # Logseq's ((uuid)): it shows the block referred to, never the uuid
        text = _ROAM_REFERENCE.sub(_roam_reference, text)
    if "<" in text:
        text = HTML_TAG.sub(tag_text, text)
    if "&" in text:
        text = _HTML_ENTITY.sub(_entity_text, text)
    if _ROAM_COMPONENT_START in text:
        text = _without_roam_components(text)
    if "[" in text:
        if "[[" in text:
            text = _roam_links(text)
        text = _WIKILINK.sub(_shown_link, text)
        text = _LINK.sub(r"\1", _IMAGE.sub(_image_text, text))
        if "[^" in text:
            text = _FOOTNOTE_REFERENCE.sub("", text)  # a footnote's number: its text is where it is defined
    for mark, strong in _STRONG:
        if mark in text:
            text = strong.sub(r"\1", text)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(lambda match: match.group(1) or match.group(2), text)
    return text


def _roam_reference(match: re.Match[str]) -> str:
    """A Roam block reference or embed: nothing when it holds a uid, as written when a word."""
    uid = match.group(1) or match.group(2)
    return match.group() if _WORD_LIKE.fullmatch(uid) else ""


def _without_roam_components(text: str) -> str:
    """``text`` without Roam's components; a task marker among them shown as a box is (a done one
    as ``[x]``). A component never closed stays as written: its end cannot be known."""
    shown: list[str] = []
    position = 0
    while (start := text.find(_ROAM_COMPONENT_START, position)) >= 0:
        end = _closing_braces(text, start)
        if end is None:
            break
        name = _ROAM_COMPONENT_NAME.match(text, start)
        shown += [text[position:start], "[x]" if name is not None and name.group(1) == "DONE" else ""]
        position = end
    shown.append(text[position:])
    return "".join(shown)


def _closing_braces(text: str, start: int) -> int | None:
    """Where the ``{{`` at ``start`` is closed (its braces counted), or None."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _roam_links(text: str) -> str:
    """Roam's page aliases and nested page links read as Roam shows them."""
    if "]([[" in text:
        text = _ROAM_PAGE_ALIAS.sub(r"\1", text)
    for _ in range(3 if text.count("[[") > 1 else 0):  # deeper nesting: Roam allows it, people rarely write it
        nested = _ROAM_NESTED_LINK.sub(r"[[\1\2\3]]", text)
        if nested == text:
            break
        text = nested
    return text


def _roam_task_marker(item: str) -> str:
    """A list item's text with Roam's task marker shown as a box is: ``{{[[DONE]]}} x`` → ``[x] x``."""
    marker = _ROAM_TASK_MARKER.match(item)
    if marker is None:
        return item
    done = (marker.group(1) or marker.group(2)) == "DONE"
    return ("[x] " if done else "") + item[marker.end() :]


def _entity_text(match: re.Match[str]) -> str:
    """``&amp;`` → ``&``; a name HTML does not have stays as written (``html.unescape`` would
    read ``&notanentity;`` as ``¬anentity;``, by a legacy prefix)."""
    entity = match.group()
    if entity[1] != "#" and entity[1:] not in html5_entities:
        return entity
    return html.unescape(entity)


def _shown_link(match: re.Match[str]) -> str:
    """:func:`_link_text`, with an embedded file shown by its name alone marked as such
    (:data:`EMBED_OPEN` … :data:`EMBED_CLOSE`): :func:`_embeds_placed` decides how it reads."""
    shown = _link_text(match)
    name = _embedded_file(match)
    return f"{EMBED_OPEN}{shown}{EMBED_CLOSE}" if name is not None and shown == name else shown


def _embedded_file(match: re.Match[str]) -> str | None:
    """The name of the file an embed (``![[…]]``) shows when it is no note (an image, a PDF, a
    base…), without what follows ``#`` (a PDF's page, a base's view: how it is displayed, not
    what it is); None for a link or an embedded note."""
    target = match.group(1)
    if "." not in target or match.string[match.start()] != "!":
        return None
    name = target.partition("#")[0]
    return name.strip() if _is_attachment(name) else None


def _link_text(match: re.Match[str]) -> str:
    """What a wikilink or an embed shows: its label (``[[a|b]]`` → ``b``); else its target as
    written, a heading in it after `` > `` (``[[a#b]]`` → ``a > b``, a block id left out).
    An embedded file that is no note shows its label without its size (``|300``), else its
    name (:func:`_embedded_file`; a passage's text decides whether that name is shown:
    :func:`_embeds_placed`)."""
    target, label = match.group(1, 2)
    name = _embedded_file(match)
    if name is not None:
        label = None if label is None else "|".join(part for part in label.split("|") if not _SIZE.fullmatch(part))
        return label or name
    if label is not None:
        return label
    if "#" not in target:
        return target
    name, *fragments = (part.strip() for part in target.split("#"))
    return " > ".join(part for part in (name, *fragments) if part and not part.startswith("^"))


def _image_text(match: re.Match[str]) -> str:
    """``![alt|300](url)`` → ``alt``: its alt text without the size Obsidian reads there."""
    return "|".join(part for part in match.group(1).split("|") if not _SIZE.fullmatch(part))


def _is_attachment(name: str) -> bool:
    """Is ``name`` (a link target without ``#…``) a file other than a note: an extension, not
    ``.md``, with a letter in it (``v1.2`` is a note's name)?"""
    extension = _FILE_EXTENSION.search(name.strip())
    return (extension is not None and extension.group(1).casefold() != "md"
            and any(character.isalpha() for character in extension.group(1)))


# ------------------------------------------------------------------ properties as lines


def property_lines(yaml_text: str, title: str = "") -> list[str]:
    """The frontmatter's properties as readable ``key: value`` lines, in file order, read from
    its lines (not its YAML: a frontmatter that does not load still shows what it says):
    list items joined by ``, ``, quotes and link brackets dropped; bookkeeping keys and
    properties without a value left out — but a ``title`` that is not the note's ``title``
    (a person's job beside their ``name``: notes.naming_key) is a property like any other."""
    properties: list[tuple[str, str, list[str]]] = []  # key, the value on its line, the lines under it
    for line in yaml_text.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        named = top_level_key(line) if line[0] not in " \t-" else None
        if named is not None:
            properties.append((named[0], named[1], []))
        elif properties:
            properties[-1][2].append(line.rstrip())
    lines = []
    for key, first, under in properties:
        value = _property_text(first, under)
        shown = key.casefold() not in HIDDEN_PROPERTIES or (key == "title" and bool(title) and value != title)
        if value and shown and not is_plugin_setting(key):
            lines.append(f"{key}: {value}")
    return lines


def top_level_key(line: str) -> tuple[str, str] | None:
    """``(key, value)`` of a frontmatter line ``key: value`` (the key bare or quoted, white
    space before the colon allowed, the value possibly empty); None for any other line.
    Split at the first colon, without a regex: a pattern with a key and ``[ \t]*:`` after it
    backtracks quadratically on a long line of spaces."""
    colon = line.find(":")
    if colon <= 0 or (colon + 1 < len(line) and line[colon + 1] not in " \t"):
        return None
    key = line[:colon].rstrip(" \t")
    if len(key) >= 2 and key[0] in "\"'" and key[-1] == key[0]:
        key = key[1:-1]
    if not key or key[0] == "#" or any(mark in key for mark in "\"'"):
        return None
    return key.strip(), line[colon + 1 :].strip()


def _property_text(first: str, under: Sequence[str]) -> str:
    """A property's value as text: a block scalar's lines joined by spaces, list items by ``, ``,
    a mapping's entries as ``key: value`` (:func:`_mapping_text`). ``under``: its lines below, as written."""
    if _BLOCK_SCALAR.match(first):
        return " ".join(" ".join(under).split())
    if not first and under and not under[0].lstrip().startswith("-") and top_level_key(under[0].strip()) is not None:
        return _mapping_text(under)
    items = [first, *(item.strip().removeprefix("-").strip() for item in under)]
    return items_text([text for text in (_scalar_text(item) for item in items) if text])


def items_text(items: Sequence[str]) -> str:
    """A list's items as one line: joined by ``, ``, or by ``; `` when an item holds a comma.
    A reference manager writes authors "Last, First": ``Abeler, Johannes, Falk, Armin`` read
    as four authors, ``Abeler, Johannes; Falk, Armin`` as the two they are (a trial)."""
    return ("; " if any("," in item for item in items) else ", ").join(items)


def _mapping_text(lines: Sequence[str]) -> str:
    """A nested mapping's entries as ``key: value``, joined by ``, ``: each value as a property's
    (quotes dropped, a folded ``>-`` title's lines joined), one that is only an address left out, as
    the full text leaves it out. The Kindle plugin's ``kindle-sync:`` block showed as
    ``bookId: '33351', title: >-, …, bookImageUrl: 'https://…'`` (a trial)."""
    indent = len(lines[0]) - len(lines[0].lstrip())
    entries: list[tuple[str, str, list[str]]] = []
    for line in lines:
        named = top_level_key(line.strip()) if len(line) - len(line.lstrip()) <= indent else None
        if named is not None:
            entries.append((named[0], named[1], []))
        elif entries:
            entries[-1][2].append(line)
    shown = ((key, _property_text(first, under)) for key, first, under in entries)
    return ", ".join(f"{key}: {text}" for key, text in shown if text and not _ADDRESS.fullmatch(text))


_FLOW_ITEM = re.compile(r"\s*(?:\"[^\"]*\"|'[^']*'|[^,]+)")  # an item of a YAML flow list: quoted, or up to a comma


def _scalar_text(raw: str) -> str:
    """One YAML value as text: quotes, a flow list's brackets and link brackets dropped."""
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    value = _WIKILINK.sub(_link_text, value)
    if value.startswith("[") and value.endswith("]"):
        # Split at the commas outside quotes: `["Abeler, Johannes", "Falk, Armin"]` is two items.
        value = items_text([item.strip().strip("\"'") for item in _FLOW_ITEM.findall(value[1:-1]) if item.strip()])
    return " ".join(value.split())


def line_span(text: str, first: int, last: int) -> tuple[int, int]:
    """(start, end) of lines ``first``–``last`` (1-based, inclusive) of ``text``, without the
    last one's line end, finding only the line ends up to them; empty past the text's end."""
    start = _past_line_ends(text, 0, first - 1)
    if start is None:
        return len(text), len(text)
    end = _past_line_ends(text, start, last - first + 1)
    if end is None:
        return start, len(text)
    return start, max(start, end - 1)


LINE_COUNT_CHUNK = 4096  # characters whose line ends are counted at once (line_span)


def _past_line_ends(text: str, position: int, count: int) -> int | None:
    """The offset just past the ``count``-th line end at or after ``position`` (``position``
    itself for none); None when the text has fewer. Line ends are counted a chunk at a time
    and only the last chunk's are found one by one: line 100,000 of a pasted log was 100,000
    look-ups, 10 ms for every hit on it."""
    while count > 0 and position + LINE_COUNT_CHUNK < len(text):
        in_chunk = text.count("\n", position, position + LINE_COUNT_CHUNK)
        if in_chunk >= count:
            break
        count -= in_chunk
        position += LINE_COUNT_CHUNK
    for _ in range(count):
        found = text.find("\n", position)
        if found < 0:
            return None
        position = found + 1
    return position
