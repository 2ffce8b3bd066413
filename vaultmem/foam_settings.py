"""A Foam workspace's settings, read as Foam reads them (adr/0034-foam-workspaces.md).

Foam (VS Code) keeps its settings in the workspace's ``.vscode/settings.json``, which VS Code
writes as JSON with comments (``//``, ``/* */``) and trailing commas: :func:`read_vscode_settings`
is the one reader of that file. A file that does not parse is a problem naming it (``vaultmem
check``), never raised: VS Code and Foam keep working with it, and so does vaultmem, without it.

Two things are read from it, and from the daily-note template:

1. Files that are no notes (exclusions.py): ``foam.files.exclude``, ``foam.files.ignore`` (its
   name before Foam 0.48, which stopped reading it; the files it kept out of Foam's graph are
   still no notes of the person's), and in a Foam workspace VS Code's ``files.exclude``, whose
   keys Foam also leaves out (those set to ``true``: VS Code's meaning; ``false`` shows a file).
   Globs in VS Code's syntax (:func:`vscode_glob`), relative to the workspace folder; a glob that
   matches a folder excludes everything in it, as VS Code's search does.
2. Where daily notes are and how they are named (daily_format.py): the daily-note template
   ``.foam/templates/daily-note.md``'s ``foam_template.filepath`` (``$FOAM_DATE_YEAR`` …), which
   Foam puts first, else the deprecated ``foam.openDailyNote.directory`` and ``filenameFormat``
   (node-dateformat masks: ``yyyy-mm-dd``, ``mmmm d``). Either is translated into the moment.js
   format daily_format.py reads (:func:`template_path_format`, :func:`dateformat_to_moment`).

Parsing and translating are pure; reading the two files is at the edge.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .notes import Problem, split_frontmatter

VSCODE_SETTINGS = ".vscode/settings.json"
FOAM_DAILY_TEMPLATE = ".foam/templates/daily-note.md"
MAX_SETTINGS_BYTES = 1_000_000  # a workspace's settings are a few kilobytes

FOAM_EXCLUDE_SOURCE = "Foam's foam.files.exclude"
FOAM_IGNORE_SOURCE = "Foam's foam.files.ignore"
VSCODE_EXCLUDE_SOURCE = "VS Code's files.exclude (which Foam also leaves out)"
_GLOB_LISTS = (("foam.files.exclude", FOAM_EXCLUDE_SOURCE), ("foam.files.ignore", FOAM_IGNORE_SOURCE))

# A string, a // comment, a /* */ comment, or a comma that only white space and comments
# separate from the } or ] closing its object or list (VS Code accepts it; JSON does not). A /*
# never closed runs to the end (json then says where): else each later /* would scan the rest again.
_JSONC = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?(?:\*/|\Z)|,(?=(?:\s|//[^\n]*|/\*.*?\*/)*[}\]])', re.DOTALL)


def parse_jsonc(text: str) -> Any:
    """``text`` as VS Code reads its settings: JSON with comments and trailing commas. A comment
    becomes spaces (its line breaks kept), so an error's line and column are the file's.
    Raises ``ValueError`` (json's, naming the line and column) for anything else that is not JSON."""
    if not text.strip():
        return {}  # VS Code reads an empty settings file as no settings
    return json.loads(_JSONC.sub(_plain, text))


def _plain(match: re.Match[str]) -> str:
    found = match[0]
    if found.startswith('"'):
        return found
    return re.sub(r"[^\n]", " ", found)  # a comment or a trailing comma


def read_vscode_settings(root: Path, problems: list[Problem], unused: str) -> dict[str, Any] | None:
    """The workspace's ``.vscode/settings.json`` as an object (``None`` when absent); a file that
    cannot be read, does not parse or is no object is a problem naming it, and ``unused`` says
    what is not applied meanwhile."""
    try:
        with open(root / VSCODE_SETTINGS, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        problems.append(Problem(VSCODE_SETTINGS, "file", f"cannot read VS Code's settings ({error.strerror}); {unused}",
                                "fix the file's permissions"))
        return None
    try:
        if len(raw) > MAX_SETTINGS_BYTES:
            raise ValueError(f"larger than {MAX_SETTINGS_BYTES:,} bytes")
        settings = parse_jsonc(raw.decode("utf-8-sig"))
    except RecursionError:
        problems.append(Problem(VSCODE_SETTINGS, "file", f"is nested too deeply to read; {unused}",
                                "fix the file (VS Code underlines the mistake)"))
        return None
    except ValueError as error:  # UnicodeDecodeError and json's JSONDecodeError are ValueErrors
        problems.append(Problem(VSCODE_SETTINGS, "file", f"not valid JSON, even with comments and trailing commas "
                                f"({error}); {unused}", "fix the file where it says (VS Code underlines the mistake)"))
        return None
    if not isinstance(settings, dict):
        problems.append(Problem(VSCODE_SETTINGS, "file", f"is {type(settings).__name__}, not an object of settings; {unused}",
                                "write the settings as one object: { \"foam.files.exclude\": [...] }"))
        return None
    return settings


# ------------------------------------------------------------------ files that are no notes


@dataclass(frozen=True)
class FoamGlob:
    """One glob of Foam's (or VS Code's) exclusions, where it was written, and its matcher."""

    source: str
    glob: str
    regex: re.Pattern[str]

    def excludes_folder(self, folder: str) -> bool:
        """Does this glob exclude the folder ``folder`` (vault-relative) and all below it? It does
        when it matches the folder (``_archive``, ``**/drafts``) or every path in it (``_archive/**``)."""
        return self.regex.fullmatch(folder) is not None or self.regex.fullmatch(folder + "/") is not None


def foam_globs(settings: dict[str, Any] | None, foam_workspace: bool, problems: list[Problem]) -> list[FoamGlob]:
    """The exclusion globs ``settings`` (``.vscode/settings.json``) holds; ``files.exclude`` only in
    a Foam workspace (``foam_workspace``, or a ``foam.`` key in the file): elsewhere it is VS Code's
    explorer alone, and hiding a folder there is no word that its notes are none."""
    if settings is None:
        return []
    globs: list[FoamGlob] = []
    for key, source in _GLOB_LISTS:
        entries = settings.get(key)
        if entries is None:
            continue
        if not isinstance(entries, list):
            problems.append(Problem(VSCODE_SETTINGS, key, f"is {_kind(entries)}, not a list of globs; no file is excluded by it",
                                    f'write it as a list: "{key}": ["drafts/**"]'))
            continue
        globs += _compiled(entries, source, key, problems)
    if foam_workspace or any(isinstance(key, str) and key.startswith("foam.") for key in settings):
        globs += _vscode_excludes(settings.get("files.exclude"), problems)
    return globs


def _vscode_excludes(entries: object, problems: list[Problem]) -> list[FoamGlob]:
    if entries is None:
        return []
    if not isinstance(entries, dict):
        problems.append(Problem(VSCODE_SETTINGS, "files.exclude", f"is {_kind(entries)}, not an object of globs; "
                                "no file is excluded by it", 'write it as VS Code does: "files.exclude": {"drafts/**": true}'))
        return []
    # `false` shows a file VS Code would hide; {"when": …} hides one beside a sibling, which no
    # note path alone can tell: neither excludes a note.
    return _compiled([glob for glob, hidden in entries.items() if hidden is True], VSCODE_EXCLUDE_SOURCE, "files.exclude", problems)


def _compiled(entries: Sequence[object], source: str, key: str, problems: list[Problem]) -> list[FoamGlob]:
    globs = []
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip():
            problems.append(Problem(VSCODE_SETTINGS, key, f"holds {_kind(entry)} ({entry!r:.40}), not a glob; it is left out",
                                    "write each glob as text, such as \"drafts/**\""))
            continue
        try:
            regex = vscode_glob(entry)
        except re.error as error:  # a set no regular expression has: [z-a]
            problems.append(Problem(VSCODE_SETTINGS, key, f"holds the glob {entry!r}, which matches no path ({error.msg}); "
                                    "it is left out", "write its set in order, such as [a-z]"))
            continue
        globs.append(FoamGlob(source, entry, regex))
    return globs


def vscode_glob(glob: str) -> re.Pattern[str]:
    """``glob`` in VS Code's syntax as a regular expression of a vault-relative path: ``*`` any
    characters but ``/``, ``?`` one, ``**`` any folders (``**/x``, ``a/**``), ``{a,b}`` either,
    ``[0-9]`` and ``[!a]`` one of a set; ``\\`` is a path separator, as on Windows. Case-sensitive,
    as VS Code's search is on Linux. Anything else stands for itself."""
    # `**/**/` is `**/`: written out, each repeat multiplied the regular expression's backtracking
    # (12 of them took 17 s on a path 20 folders deep, for every file of the vault).
    return re.compile(_glob_source(re.sub(r"(?:(?<=/)|^)\*\*/(?:\*\*/)+", "**/", glob.replace("\\", "/").removeprefix("./"))))


def _glob_source(glob: str) -> str:
    parts: list[str] = []
    index = 0
    while index < len(glob):
        character = glob[index]
        if glob.startswith("**", index):
            end = index + 2
            whole = (index == 0 or glob[index - 1] == "/") and (end == len(glob) or glob[end] == "/")
            if whole and end < len(glob):
                parts.append("(?:[^/]*/)*")  # **/ : no folder, or any folders
                index = end + 1
                continue
            parts.append(".*" if whole else "[^/]*")  # a trailing ** is everything below; a ** in a name, a *
            index = end
        elif character == "*":
            parts.append("[^/]*")
            index += 1
        elif character == "?":
            parts.append("[^/]")
            index += 1
        elif character == "{" and "}" in glob[index:]:
            close = glob.index("}", index)
            parts.append("(?:" + "|".join(_glob_source(option) for option in glob[index + 1:close].split(",")) + ")")
            index = close + 1
        elif character == "[" and "]" in glob[index + 2:]:
            close = glob.index("]", index + 2)
            members = glob[index + 1:close]
            negated = members[:1] in ("!", "^")
            escaped = re.sub(r"[\\\]\[^]", lambda found: "\\" + found[0], members[1:] if negated else members)
            parts.append(("[^/" if negated else "[") + escaped + "]")
            index = close + 1
        else:
            parts.append(re.escape(character))
            index += 1
    return "".join(parts)


# ------------------------------------------------------------------ where daily notes are


@dataclass(frozen=True)
class FoamDaily:
    """Where Foam puts daily notes: ``folder`` (vault-relative, ``""`` the root) and the
    moment.js format of a note's path below it, without ``.md``; ``settings`` says where it was read."""

    folder: str
    moment: str
    settings: str


# Foam's date variables (its templates' resolver) as the moment.js tokens that write the same text.
FOAM_DATE_VARIABLES = {
    "FOAM_DATE_YEAR": "YYYY", "FOAM_DATE_YEAR_SHORT": "YY", "FOAM_DATE_MONTH": "MM", "FOAM_DATE_MONTH_NAME": "MMMM",
    "FOAM_DATE_MONTH_NAME_SHORT": "MMM", "FOAM_DATE_DATE": "DD", "FOAM_DATE_DAY_ISO": "E", "FOAM_DATE_WEEK": "W",
    "FOAM_DATE_WEEK_YEAR": "GGGG", "FOAM_DATE_DAY_NAME": "dddd", "FOAM_DATE_DAY_NAME_SHORT": "ddd",
    "FOAM_DATE_HOUR": "HH", "FOAM_DATE_MINUTE": "mm", "FOAM_DATE_SECOND": "ss", "FOAM_DATE_SECONDS_UNIX": "X",
}
# ${NAME} or $NAME, as Foam's resolver finds them.
_VARIABLE = re.compile(r"\$\{([^}]*)\}|\$(\w+)")
TEMPLATE_FIELD = "foam_template.filepath"


Piece = tuple[str, bool]  # text, and whether it is literal (else a moment.js token)


def template_path_format(filepath: str, root: Path) -> FoamDaily | str:
    """The daily notes a template's ``foam_template.filepath`` names
    (``dev-notes/$FOAM_DATE_YEAR/$FOAM_DATE_MONTH/$FOAM_DATE_DATE.md``: ``YYYY/MM/DD`` in
    ``dev-notes/``), or why it names none vaultmem can read."""
    path = _inside(filepath, root)
    if path is None:
        return f"{filepath!r} is outside the workspace"
    if not path.lower().endswith(".md"):
        return f"{filepath!r} names no .md file, and vaultmem reads .md notes alone"
    pieces: list[Piece] = []
    last = 0
    for found in _VARIABLE.finditer(path[:-3]):
        name = found[1] if found[1] is not None else found[2]
        if name in FOAM_DATE_VARIABLES:
            pieces += [(path[last:found.start()], True), (FOAM_DATE_VARIABLES[name], False)]
            last = found.end()
        elif name.startswith("FOAM_"):
            return f"${name} in {filepath!r} writes text vaultmem cannot read back as a day"
    if not pieces:
        return f"{filepath!r} holds no $FOAM_DATE_ variable, so it names no day"
    return _located([*pieces, (path[last:-3], True)], f"{FOAM_DAILY_TEMPLATE} {TEMPLATE_FIELD}")


def settings_daily_format(settings: dict[str, Any], root: Path) -> FoamDaily | tuple[str, str] | None:
    """The daily notes ``foam.openDailyNote.directory`` and ``filenameFormat`` name (``None``: the
    settings name none), or the key and why it names none vaultmem can read."""
    directory, mask, extension = (settings.get(f"foam.openDailyNote.{key}") for key in ("directory", "filenameFormat",
                                                                                        "fileExtension"))
    if directory is None and mask is None:
        return None  # Foam's default, yyyy-mm-dd: an ISO name is a day wherever it is (dating.py)
    for key, value in (("directory", directory), ("filenameFormat", mask), ("fileExtension", extension)):
        if value is not None and not isinstance(value, str):
            return f"foam.openDailyNote.{key}", f"is {_kind(value)}, not text"
    if extension is not None and extension.strip().lstrip(".").lower() != "md":
        return "foam.openDailyNote.fileExtension", f"{extension!r}: daily notes that are no .md files are no notes of vaultmem's"
    # Before templates named the path, Foam put daily notes in the workspace's root by default.
    folder = _inside(directory or ".", root)
    if folder is None:
        return "foam.openDailyNote.directory", f"{directory!r} is outside the workspace"
    pieces = dateformat_pieces(mask or "isoDate")
    if isinstance(pieces, str):
        return "foam.openDailyNote.filenameFormat", pieces
    return _located([(folder + "/" if folder else "", True), *pieces], f"{VSCODE_SETTINGS} foam.openDailyNote")


def _located(pieces: list[Piece], settings: str) -> FoamDaily:
    """The daily notes whose vault-relative path (without ``.md``) ``pieces`` write: the folders
    before the first token are where they are (daily_format.py matches a note's path below its
    folder); the rest is their moment.js format."""
    merged: list[Piece] = []
    for text, literal in pieces:
        if merged and literal and merged[-1][1]:
            merged[-1] = (merged[-1][0] + text, True)
        elif text:
            merged.append((text, literal))
    folder = ""
    if merged and merged[0][1]:
        folder, _, lead = merged[0][0].rpartition("/")
        merged[0] = (lead, True)
    moment = "".join(_literal(text) if literal else text for text, literal in merged)
    return FoamDaily("/".join(part for part in folder.split("/") if part), moment, settings)


def _inside(path: str, root: Path) -> str | None:
    """``path`` (a workspace-relative or absolute path, ``/`` or ``\\`` separated) as a
    vault-relative POSIX path; ``None`` when it is outside the vault."""
    text = path.strip().replace("\\", "/")
    if text.startswith("/") or re.match(r"[A-Za-z]:/", text):
        try:
            text = PurePosixPath(text).relative_to(PurePosixPath(root.resolve().as_posix())).as_posix()
        except ValueError:
            return None
    parts = [part for part in text.split("/") if part not in ("", ".")]
    return None if ".." in parts else "/".join(parts)


def _literal(text: str) -> str:
    """``text`` as moment.js writes it literally: in brackets, or escaped letter by letter when
    it holds a bracket."""
    if not re.search(r"[A-Za-z\[\]\\]", text):
        return text  # moment's tokens are letters: "-", "/", digits and spaces stand for themselves
    if "[" in text or "]" in text:
        return "".join("\\" + character for character in text)
    return f"[{text}]"


# node-dateformat (the masks Foam's settings use): its tokenizer, its named masks, and the
# moment.js token writing the same text for each token vaultmem reads.
_DATEFORMAT_TOKEN = re.compile(r"""d{1,4}|D{3,4}|m{1,4}|yy(?:yy)?|([HhMsTt])\1?|W{1,2}|[LlopSZN]|"[^"]*"|'[^']*'""")
DATEFORMAT_MASKS = {
    "default": "ddd mmm dd yyyy HH:MM:ss", "shortDate": "m/d/yy", "paddedShortDate": "mm/dd/yyyy",
    "mediumDate": "mmm d, yyyy", "longDate": "mmmm d, yyyy", "fullDate": "dddd, mmmm d, yyyy", "shortTime": "h:MM TT",
    "mediumTime": "h:MM:ss TT", "longTime": "h:MM:ss TT Z", "isoDate": "yyyy-mm-dd", "isoTime": "HH:MM:ss",
    "isoDateTime": "yyyy-mm-dd'T'HH:MM:sso", "isoUtcDateTime": "UTC:yyyy-mm-dd'T'HH:MM:ss'Z'",
    "expiresHeaderFormat": "ddd, dd mmm yyyy HH:MM:ss Z",
}
_DATEFORMAT_TO_MOMENT = {
    "d": "D", "dd": "DD", "ddd": "ddd", "dddd": "dddd", "m": "M", "mm": "MM", "mmm": "MMM", "mmmm": "MMMM",
    "yy": "YY", "yyyy": "YYYY", "H": "H", "HH": "HH", "h": "h", "hh": "hh", "M": "m", "MM": "mm", "s": "s", "ss": "ss",
    "l": "SSS", "L": "SS", "tt": "a", "TT": "A", "o": "ZZ", "p": "Z", "W": "W", "WW": "WW", "N": "E",
}


def dateformat_to_moment(mask: str) -> str | None:
    """A node-dateformat mask (``'daily-note'-yyyy-mm-dd``, ``dddd, mmmm dS``, a named mask such as
    ``isoDate``) as the moment.js format writing the same names; ``None`` for a mask holding a
    token moment has no equal of (``t``, ``Z``, ``DDD``)."""
    pieces = dateformat_pieces(mask)
    return None if isinstance(pieces, str) else "".join(_literal(text) if literal else text for text, literal in pieces)


def dateformat_pieces(mask: str) -> list[Piece] | str:
    """:func:`dateformat_to_moment`'s pieces, or why the mask has none."""
    text = DATEFORMAT_MASKS.get(mask, mask)
    if text[:4] in ("UTC:", "GMT:"):
        text = text[4:]  # the day in UTC: its name is written the same way
    pieces: list[Piece] = []
    last = 0
    for found in _DATEFORMAT_TOKEN.finditer(text):
        token = found[0]
        pieces.append((text[last:found.start()], True))
        last = found.end()
        if token[0] in "'\"":
            pieces.append((token[1:-1], True))
        elif token == "S" and pieces[-2:] == [("D", False), ("", True)]:
            pieces[-2] = ("Do", False)  # d then S: 4th
        elif token in _DATEFORMAT_TO_MOMENT:
            pieces.append((_DATEFORMAT_TO_MOMENT[token], False))
        else:
            return f"{mask!r}: its {token!r} writes text vaultmem cannot read back (use yyyy, mm, dd, mmmm, dddd …)"
    pieces.append((text[last:], True))
    return pieces


def load_foam_daily(root: Path, settings: dict[str, Any] | None) -> FoamDaily | Problem | None:
    """Where the workspace's daily notes are: its daily-note template's ``foam_template.filepath``
    (Foam puts it first), else ``foam.openDailyNote`` in ``settings``; ``None`` when neither says."""
    template = _template_filepath(root)
    if isinstance(template, Problem):
        return template
    if template is not None:
        found = template_path_format(template, root)
        if isinstance(found, str):
            return Problem(FOAM_DAILY_TEMPLATE, TEMPLATE_FIELD, f"{found}; {_UNUSED}", _TEMPLATE_FIX)
        return found
    from_settings = settings_daily_format(settings, root) if settings is not None else None
    if isinstance(from_settings, tuple):
        key, why = from_settings
        return Problem(VSCODE_SETTINGS, key, f"{why}; {_UNUSED}", _TEMPLATE_FIX)
    return from_settings


_UNUSED = "Foam's daily notes are dated by the other rules meanwhile"
_TEMPLATE_FIX = ("name daily notes with $FOAM_DATE_YEAR, $FOAM_DATE_MONTH and $FOAM_DATE_DATE in the daily-note "
                 "template's foam_template.filepath (journal/$FOAM_DATE_YEAR-$FOAM_DATE_MONTH-$FOAM_DATE_DATE.md)")


def _template_filepath(root: Path) -> str | Problem | None:
    """The daily-note template's ``foam_template.filepath`` (``None``: no template, or none set)."""
    try:
        raw = (root / FOAM_DAILY_TEMPLATE).read_bytes()[:MAX_SETTINGS_BYTES]
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except OSError as error:
        return Problem(FOAM_DAILY_TEMPLATE, "file", f"cannot read Foam's daily-note template ({error.strerror}); {_UNUSED}",
                       "fix the file's permissions")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Problem(FOAM_DAILY_TEMPLATE, "file", f"is not UTF-8 ({error.reason}); {_UNUSED}", "save it as UTF-8")
    meta, _body, _block, problems = split_frontmatter(FOAM_DAILY_TEMPLATE, text)
    template = meta.get("foam_template")
    value = template.get("filepath") if isinstance(template, dict) else None
    if value is None:
        return problems[0] if problems else None  # a frontmatter that does not parse may hold it: said
    if not isinstance(value, str):
        return Problem(FOAM_DAILY_TEMPLATE, TEMPLATE_FIELD, f"is {_kind(value)}, not a path; {_UNUSED}", _TEMPLATE_FIX)
    return value


def _kind(value: object) -> str:
    kinds = {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number", bool: "a boolean"}
    return kinds.get(type(value), "null" if value is None else type(value).__name__)
