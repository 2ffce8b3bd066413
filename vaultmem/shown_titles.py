"""A note's title as a hit, a listed note, ``get``, ``explain``, ``tasks`` and ``stale`` show it (pure).

A file name that says nothing on its own — ``README.md``, ``index.md``, ``_index.md`` — names
a note by where it is. A security-notes vault kept a ``README.md`` in each of its folders:
every hit of a search was titled "README", and an agent reading the hits could not tell them
apart (s39). Such a note, in a folder, whose title is its file name (no ``title`` or ``name``
property names it, and no folder-page heading does: notes.folder_page_title) is shown with its
folder's path before that name: ``networking/README``. That is also a name ``get`` finds it by
(its path without ``.md``) and a link Obsidian writes to it when the name alone is ambiguous.

Only what is shown changes: the index keeps the title "README", so the note's words, the
names it answers to and its ranking are as adr/0033 ("A folder's page") decided. A note at the
vault's root, and one in the root's ``pages/`` (Logseq's flat folder of pages, where
``pages/index.md`` is the page "index": notes.LOGSEQ_PAGES_FOLDER), keeps its title as it is.
"""

from __future__ import annotations

from .notes import LOGSEQ_PAGES_FOLDER, file_stem

# A file name people give a folder's page or its description, compared case-folded.
PLACEHOLDER_NAMES = frozenset({"readme", "index", "_index"})


def shown_title(title: str, path: str) -> str:
    """``title`` as shown for the note at vault-relative ``path``: ``networking/README`` for a
    ``networking/README.md`` titled by its file name; ``title`` itself for any other."""
    folder = path.rpartition("/")[0]
    if not folder or folder == LOGSEQ_PAGES_FOLDER or title.casefold() not in PLACEHOLDER_NAMES:
        return title
    return f"{folder}/{title}" if title == file_stem(path) else title
