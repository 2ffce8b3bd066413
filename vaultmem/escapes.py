"""LaTeX in a double-quoted frontmatter value that YAML read as its own escapes (pure).

Inside double quotes YAML reads a backslash as an escape. Most LaTeX commands are none
(``"$\\mathcal{L}$"`` does not load: notes.py says so), but a command that opens with one of
YAML's escape letters loads without a word, changed: ``"$\\beta$-VAE"`` is ``$`` + a backspace +
``eta$-VAE``, ``"Estimating $\\nu$"`` holds a line break, ``"$\\Phi$"`` a paragraph separator.
Zotero imports write titles and abstracts so (``title: "{{title}}"``), and the note's title,
its search text and its snippets then hold the damaged text. Such an escape is told by the
letter that follows it: a command's name goes on (``\\beta``, ``\\nu``, ``\\theta``, ``\\Lambda``),
a deliberate escape is followed by what it separates. See adr/0020 ("LaTeX in quoted values").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import yaml

# The escapes of YAML's double quotes that load as a character no one types, by their letter.
# (\x, \u and \U take hex digits: a command such as \underline does not load at all.)
MEANINGS = {
    "0": "a null character", "a": "a bell character", "b": "a backspace", "t": "a tab",
    "n": "a line break", "v": "a vertical tab", "f": "a form feed", "r": "a carriage return",
    "e": "an escape character", "N": "a next-line character (U+0085)",
    "L": "a line separator (U+2028)", "P": "a paragraph separator (U+2029)",
}
SHOWN_CHARS = 60  # of a value quoted in a problem


@dataclass(frozen=True)
class SwallowedEscape:
    """A top-level key whose value, in double quotes, holds an escape YAML read where LaTeX
    meant a command: the first such escape (``\\b``), its file line, the value as written
    between its quotes, and how many such escapes the value holds."""

    key: str
    line: int  # the file's line (the opening --- is line 1)
    escape: str  # the backslash and its letter: "\\b"
    written: str  # the quoted value's text between its quotes
    count: int

    @property
    def meaning(self) -> str:
        return MEANINGS[self.escape[1]]


def swallowed_escapes(yaml_text: str, pairs: Sequence[tuple[yaml.Node, yaml.Node]]) -> list[SwallowedEscape]:
    """Each top-level key (``pairs``: its key and value nodes as composed) with a double-quoted
    value, or one inside its list or mapping, holding an escape followed by a letter. One
    ``in`` for a block without a backslash."""
    if "\\" not in yaml_text or '"' not in yaml_text:
        return []
    found: list[SwallowedEscape] = []
    for key, value in pairs:
        if not isinstance(key, yaml.ScalarNode):
            continue
        for node in _double_quoted(value, set()):
            written = yaml_text[node.start_mark.index + 1:node.end_mark.index - 1]
            escapes = list(_escapes_before_letters(written))
            if escapes:
                found.append(SwallowedEscape(key.value, node.start_mark.line + 2, escapes[0], written, len(escapes)))
                break  # one problem per key: its first such value
    return found


def _double_quoted(node: yaml.Node, seen: set[int]) -> Iterator[yaml.ScalarNode]:
    """The double-quoted scalars of a value, in order (an alias's node once)."""
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        if node.style == '"':
            yield node
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _double_quoted(item, seen)
    elif isinstance(node, yaml.MappingNode):
        for _key, item in node.value:
            yield from _double_quoted(item, seen)


def _escapes_before_letters(written: str) -> Iterator[str]:
    """``\\b`` of ``$\\beta$``: each escape of :data:`MEANINGS` with an ASCII letter after it. An
    escaped backslash (``\\\\beta``, a backslash kept) is passed over whole."""
    position = written.find("\\")
    while 0 <= position < len(written) - 1:
        letter = written[position + 1]
        after = written[position + 2:position + 3]
        if letter in MEANINGS and after.isascii() and after.isalpha():
            yield "\\" + letter
        position = written.find("\\", position + 2)


def single_quoted(written: str) -> str:
    """The value as the person meant it, in single quotes (where YAML keeps a backslash as it
    is; a ``'`` inside is written ``''``), cut to :data:`SHOWN_CHARS`. An escaped double quote
    (``\\"``) is a plain one there."""
    text = written.replace('\\"', '"').replace("'", "''")
    return "'" + (text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…") + "'"
