"""A terminal's control sequences in a note's text, which are no part of its words (pure).

Output pasted from a terminal keeps its colours as escape sequences: ``ESC [31m`` before
``Error: connect ECONNREFUSED`` and ``ESC [0m`` after it (npm, pytest, psql and git all colour
what they print). An agent that remembers such output writes them into the note byte for
byte, as it should; but read as text, the word after each one is glued to its parameters:
``ESC [1;31mquokkafail`` was the word ``31mquokkafail``, so a search for ``quokkafail`` found
no passage holding it (explain said so), and the memory's title was
``psql said [1;31mquokkafail[0m …`` with a file name to match (a trial of a TIL vault, s33).

Search, snippets and default titles read the text without them (:func:`without_terminal_codes`);
the file keeps them. Sequences per ECMA-48: CSI (``ESC [`` or the one byte ``0x9B``, then
parameters, intermediates and a final byte), OSC (``ESC ]`` … up to ``BEL`` or ``ESC \\``, as a
terminal title or a hyperlink is set) on one line, a character-set designation (``ESC ( B``,
which ``tput sgr0`` prints) and the other two-character escapes (``ESC 7``, ``ESC M``). A line
break is never removed, so every line keeps its number.
"""

from __future__ import annotations

import re

_TERMINAL_CODE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erasing
    r"|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)"  # OSC: a window title, a hyperlink
    r"|\x1b[()*+][ -~]"  # a character set designation
    r"|\x1b[0-~]"  # any other two-character escape
)


def without_terminal_codes(text: str) -> str:
    """``text`` without the terminal control sequences in it; ``text`` itself when it holds none."""
    if "\x1b" not in text and "\x9b" not in text:
        return text
    return _TERMINAL_CODE.sub("", text)
