"""Note paths that are one file on macOS or Windows, or no file on Windows (``check``; adr/0020).

Linux keeps ``Work/Ideas.md`` beside ``work/ideas.md``, and ``Zoë.md`` written composed (NFC)
beside ``Zoë.md`` written decomposed (NFD, as macOS names files). A vault synced from Linux
to a Mac (APFS by default ignores case and Unicode form) or to Windows (NTFS ignores case)
has room for only one of each group: git checks out one over the other, a sync tool keeps
one version. ``check`` names every path of such a group so the person renames one first.

The comparison is the file systems', not Obsidian's link matching (``fields.name_fold``):
the whole vault-relative path, each character upper-cased on its own (NTFS's table: ``ß``
stays ``ß``, so ``Straße.md`` and ``Strasse.md`` stay two files), in NFC for macOS. Two
folders that differ only in case merge into one there without losing a file, so only whole
paths are compared. One pass over the paths ``check`` already has: no file is read.

A name Windows cannot hold at all (a device name such as ``con.md``, a name ending in a dot or
a space, ``:`` or another reserved character: windows_names.py) is a problem of its own, and so is
a path of 260 characters or more from the vault root (Windows' MAX_PATH: windows_names.path_too_long).
"""

from __future__ import annotations

from collections.abc import Iterable

from .fields import name_form
from .notes import Problem
from .windows_names import path_too_long, windows_trouble


def same_file_on_macos(path: str) -> str:
    """What APFS (case- and normalization-insensitive) sees of a path: NFC, case ignored."""
    return _upper_each(name_form(path))


def same_file_on_windows(path: str) -> str:
    """What NTFS (case-insensitive, form-sensitive) sees of a path: case ignored, bytes kept."""
    return _upper_each(path)


def _upper_each(text: str) -> str:
    # Character by character: str.upper() turns ß into SS, which no file system does.
    return "".join(upper if len(upper := char.upper()) == 1 else char for char in text)


def name_clash_problems(paths: Iterable[str]) -> list[Problem]:
    """One problem per group of paths that macOS takes for one file (Windows too, when they
    differ in case only), at the group's first path, naming them all."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(same_file_on_macos(path), []).append(path)
    return [_problem(sorted(group)) for group in groups.values() if len(group) > 1]


def _problem(group: list[str]) -> Problem:
    named = " and ".join(group) if len(group) == 2 else ", ".join(group[:-1]) + " and " + group[-1]
    # The macOS keys are equal: the NFC forms differ only where the case does, the raw
    # upper-cased paths only where the Unicode form does.
    in_case = len({name_form(path) for path in group}) > 1
    in_form = len({same_file_on_windows(path) for path in group}) > 1
    encoded = "how their accented letters are encoded (Unicode NFC and NFD)"
    differ = f"in case and in {encoded}" if in_case and in_form else "in case only" if in_case else f"only in {encoded}"
    where = "macOS" if in_form else "macOS and Windows"
    return Problem(group[0], "name", f"{named} are one file on {where}: their names differ {differ}, so "
                   "a sync or a git checkout there keeps one of them and loses the others",
                   "rename all but one of them so the names differ by more than that (`git mv` keeps their history), "
                   "or merge them into one note")


def windows_name_problems(paths: Iterable[str]) -> list[Problem]:
    """One problem per path with a part Windows cannot hold (windows_names.py); a folder's
    trouble is told once, at the first path under it. And one per path too long for Windows."""
    problems: list[Problem] = []
    told: set[str] = set()
    for path in paths:
        too_long = path_too_long(path)
        if too_long is not None:
            problems.append(Problem(path, "name", f"{too_long}: a risk when the vault is synced to or cloned on Windows — "
                                    "Explorer and many sync tools cannot open it, and Git for Windows says \"Filename too "
                                    "long\" and checks nothing out",
                                    "give the note (or its folders) a shorter name (`git mv` keeps its history)"))
        parts = path.split("/")
        for depth, name in enumerate(parts):
            where = "/".join(parts[: depth + 1])
            reason = windows_trouble(name)
            if reason is None or where in told:
                continue
            told.add(where)
            kind = "folder" if depth < len(parts) - 1 else "file"
            problems.append(Problem(path, "name", f"{reason}: the {kind} cannot be made there as named, and Git for Windows "
                                    "refuses its path (error: invalid path), so a clone or pull of the vault there fails",
                                    f"rename the {kind} {where!r} to a name Windows allows (`git mv` keeps its history)"))
    return problems
