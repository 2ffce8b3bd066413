"""File names Windows cannot hold (pure; ``check`` via name_clashes.py, ``remember``'s slugs; adr/0020).

A vault the person opens on Windows may be written on Linux — by an agent on a server, or a
git clone there — where any name but ``/`` is a file name. Windows (Win32, which Obsidian,
Explorer and Git for Windows go through) refuses or changes some of them:

- **Device names.** ``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM0``–``COM9``, ``LPT0``–``LPT9``
  (and ``COM¹`` … ``LPT³``, ``CONIN$``, ``CONOUT$``) name devices, whatever the case and whatever extension follows:
  ``con.md`` and ``Aux.notes.md`` open the console or nothing. Git for Windows refuses to
  check such a path out (``core.protectNTFS``), so one note stops every clone and pull there.
- **A name that ends in a dot or a space** is stored without it (``Drafts /``, ``Idea.md.``):
  another file's name, or, in git, a path checked out nowhere.
- **Reserved characters** ``< > : " \\ | ? *`` and control characters: no file can be made.
- **A path of** :data:`MAX_PATH` **(260) characters or more** (UTF-16 code units, as Windows
  counts) from the vault root alone: with the drive and the vault's own folder in front it is past
  Windows' MAX_PATH wherever the vault is put. Explorer cannot open or move it, and Git for
  Windows (without ``core.longpaths``) says "Filename too long" and checks nothing out — a risk
  of a vault synced or cloned there, not an error on the machine that wrote it.

Names made for the agent (``remember``'s slug) avoid all of these; names the person's files
already have are ``check`` problems, each naming the part of the path and how to rename it.
"""

from __future__ import annotations

import re

# Before the first dot, case ignored (``NUL.tar.gz`` is NUL); Windows also drops trailing
# spaces there, so ``con .md`` is CON too.
_DEVICE = re.compile(r"(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$) *", re.IGNORECASE)
RESERVED_CHARACTERS = '<>:"\\|?*'


MAX_PATH = 260  # Win32's limit on a whole path, drive and terminating NUL counted


def path_too_long(relative: str) -> str | None:
    """Why Windows cannot reach the note at the vault-relative ``relative`` wherever the vault
    is put (:data:`MAX_PATH`), or None."""
    length = len(relative.encode("utf-16-le", "surrogatepass")) // 2
    if length < MAX_PATH:
        return None
    return (f"its path is {length} characters from the vault root, past Windows' {MAX_PATH}-character limit "
            "(MAX_PATH) before the drive and the vault's folder are counted")


def is_device_name(name: str) -> bool:
    """Whether Windows takes the file or folder ``name`` for a device (``con.md``, ``LPT1``)."""
    return _DEVICE.fullmatch(name.split(".", 1)[0]) is not None


def windows_trouble(name: str) -> str | None:
    """Why Windows cannot hold one file or folder ``name`` as written, or None."""
    if is_device_name(name):
        return f"{name!r} is a device name on Windows ({name.split('.', 1)[0].strip().upper()})"
    if name.endswith((".", " ")):
        return f"{name!r} ends in a {'dot' if name.endswith('.') else 'space'}, which Windows drops from a name"
    reserved = sorted({char for char in name if char in RESERVED_CHARACTERS or ord(char) < 32})
    if reserved:
        shown = " ".join(repr(char) for char in reserved)
        return f"{name!r} holds {shown}, which Windows does not allow in a name"
    return None
