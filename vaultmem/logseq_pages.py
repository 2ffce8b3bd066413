"""A Logseq page's name read from its file name, as Logseq reads it (adr/0028-logseq-graphs.md).

Logseq names a page by its ``title::`` property, else by its file name parsed by the graph's
``:file/name-format`` (config.edn), else by its first heading. A graph made since Logseq 0.8.9
writes ``:file/name-format :triple-lowbar``: a namespace's ``/`` is ``___`` in the file name and
other characters a file name cannot hold are percent-encoded, with no ``title::`` written —
``pages/Academic___Learning Roadmap.md`` is the page "Academic/Learning Roadmap",
``pages/Why Always Paulis%3F.md`` the page "Why Always Paulis?". An older graph (no such key) reads
a ``.`` in a file name as ``/`` and decodes percent escapes (its "legacy" format). Read as the bare
file name, such pages were titled ``Academic___Learning Roadmap`` and ``get "Academic/Learning
Roadmap"`` found nothing (a trial on a public Logseq graph, s40). Pure, but for reading config.edn.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

TRIPLE_LOWBAR = "triple-lowbar"
LEGACY = "legacy"
# `:file/name-format :triple-lowbar` in config.edn (a keyword, not a string), outside a comment.
_NAME_FORMAT = re.compile(r"(?:^|[\s{,]):file/name-format\s+:([\w-]+)")
# A run of percent escapes: decoded together, so a character spelled in several bytes (`%C3%A9`) is one.
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def name_format(edn: str) -> str:
    """The graph's ``:file/name-format`` in config.edn's text: :data:`TRIPLE_LOWBAR` or, when the
    key is not set (or set to anything else, as Logseq falls back), :data:`LEGACY`. Commented
    lines (``;; :file/name-format :triple-lowbar``) do not count."""
    for line in edn.splitlines():
        if line.lstrip().startswith(";"):
            continue
        matched = _NAME_FORMAT.search(line)
        if matched:
            return TRIPLE_LOWBAR if matched.group(1) == TRIPLE_LOWBAR else LEGACY
    return LEGACY


def page_name(file_body: str, file_name_format: str) -> str:
    """The page Logseq names a file ``<file_body>.md`` in a graph of ``file_name_format``:
    ``___`` as ``/`` and percent escapes decoded (triple-lowbar, empty namespaces dropped as
    Logseq drops them); ``.`` as ``/`` and the escapes decoded (legacy). ``file_body`` itself
    when that leaves nothing."""
    if file_name_format == TRIPLE_LOWBAR:
        named = _decoded(file_body.replace("___", "/"))
        named = "/".join(part for part in named.split("/") if part)
    else:
        named = _decoded(file_body.replace(".", "/"))
    return named or file_body


def _decoded(text: str) -> str:
    """``text`` with each run of percent escapes decoded as UTF-8; a run that is no UTF-8 stays
    as written (Logseq's safe decoding keeps the text when decoding fails)."""
    return _ESCAPES.sub(_decoded_run, text)


def _decoded_run(escapes: re.Match[str]) -> str:
    try:
        return unquote_to_bytes(escapes.group(0)).decode("utf-8")
    except UnicodeDecodeError:
        return escapes.group(0)
