"""Files that are not notes at all: the person's exclusions and Obsidian's templates.

Three sources, all read from the vault itself (adr/0020-excluded-files-and-titles.md):

1. ``.vaultmem.toml`` ``exclude = [globs]``: gitignore-style patterns, vault-relative
   (``Templates/**``, ``*.excalidraw.md``, ``/Inbox.md``, ``!keep.md``).
2. Obsidian's *Excluded files* (``.obsidian/app.json`` ``userIgnoreFilters``), read the way
   Obsidian reads them: an entry written ``/…/`` is a regular expression searched in the
   vault-relative path; any other entry is a plain, case-sensitive prefix of that path
   (``Archive`` also excludes ``Archive 2020/`` and ``Archived.md``, as in Obsidian).
3. The templates folder of the core Templates plugin (``.obsidian/templates.json``
   ``folder``) and of Templater (``.obsidian/plugins/templater-obsidian/data.json``
   ``templates_folder``): a template is not a memory, and its ``{{date}}`` is not YAML.
   So is the template file the Daily notes plugin (``.obsidian/daily-notes.json``
   ``template``), the Unique note creator (``.obsidian/zk-prefixer.json`` ``template``: the
   core plugin once named Zettelkasten prefixer, which a Zettelkasten's new zettels are made
   from) or Periodic Notes (each period's ``template`` or ``templatePath``) makes new notes
   from, wherever it is kept.
4. Logseq's own folder ``logseq/`` in a Logseq graph (one holding ``logseq/config.edn``): its
   ``bak/`` keeps an old copy of a page each time Logseq saves over an edit made elsewhere,
   and ``version-files/`` one per synced version. They are Logseq's files, never pages in
   Logseq; indexed, each stale copy answered beside the page it copies (a trial on a Logseq
   graph), dated by its backup time.
5. A Foam workspace's exclusions in VS Code's ``.vscode/settings.json``: ``foam.files.exclude``,
   ``foam.files.ignore`` and (in a Foam workspace) ``files.exclude``, globs in VS Code's syntax
   (foam_settings.py). Indexed, the drafts a person keeps out of Foam's graph answered as notes.
6. Dendron's templates in a Dendron vault (``dendron.yml`` in the vault or the workspace folder
   around it): the notes of the ``templates`` hierarchy (``templates.daily.md``, also
   ``template.*``), Dendron's home for the notes new notes are made from, as Obsidian's
   templates folder is. Indexed, a template's "{{ title }}" answered as a memory.

An excluded file is never indexed, checked, searched, consolidated, expired or touched by
link rewriting. Mistakes in Obsidian's settings (a JSON file that does not parse, a regular
expression Python cannot read) are reported as problems, never raised: Obsidian keeps
working with them, and so does vaultmem — with that entry left out, and said so.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import CONFIG_FILE, FOAM_DIR
from .fields import name_form
from .foam_settings import VSCODE_SETTINGS, FoamGlob, foam_globs, read_vscode_settings
from .notes import Problem

if TYPE_CHECKING:
    import pathspec

APP_SETTINGS = ".obsidian/app.json"
TEMPLATES_SETTINGS = ".obsidian/templates.json"
TEMPLATER_SETTINGS = ".obsidian/plugins/templater-obsidian/data.json"
DAILY_NOTES_SETTINGS = ".obsidian/daily-notes.json"
UNIQUE_NOTE_SETTINGS = ".obsidian/zk-prefixer.json"  # the Unique note creator, once Zettelkasten prefixer
PERIODIC_NOTES_SETTINGS = ".obsidian/plugins/periodic-notes/data.json"
LOGSEQ_DIR = "logseq"
LOGSEQ_SETTINGS = f"{LOGSEQ_DIR}/config.edn"  # its presence makes the folder a Logseq graph
DENDRON_SETTINGS = "dendron.yml"  # in the vault or the workspace folder around it: a Dendron vault
OBSIDIAN_SETTINGS = (APP_SETTINGS, TEMPLATES_SETTINGS, TEMPLATER_SETTINGS, LOGSEQ_SETTINGS, UNIQUE_NOTE_SETTINGS,
                     DENDRON_SETTINGS, VSCODE_SETTINGS)
MAX_SETTINGS_BYTES = 1_000_000  # Obsidian's settings files are a few hundred bytes
_NAMED_GROUP = re.compile(r"\(\?P<[^>]+>")
# JavaScript's named group (?<name>…) is Python's (?P<name>…); lookbehinds (?<= (?<! are the same.
_JS_NAMED_GROUP = re.compile(r"\(\?<(?![=!])")

CONFIG_SOURCE = f"{CONFIG_FILE}'s exclude"
OBSIDIAN_SOURCE = "Obsidian's Excluded files"
TEMPLATES_SOURCE = "the Templates plugin's folder"
TEMPLATER_SOURCE = "Templater's templates folder"
DAILY_TEMPLATE_SOURCE = "the Daily notes plugin's template"
UNIQUE_NOTE_TEMPLATE_SOURCE = "the Unique note creator's template"
PERIODIC_TEMPLATE_SOURCE = "Periodic Notes' template"
LOGSEQ_SOURCE = "Logseq's own folder"
DENDRON_SOURCE = "Dendron's templates"
# A Dendron template: a note whose hierarchy starts `templates.` (Dendron's convention) or `template.`.
_DENDRON_TEMPLATE = re.compile(r"(?:^|/)templates?\.[^/]*$", re.IGNORECASE)
DENDRON_TEMPLATE_RULE_PATTERN = "templates.*"
_PERIODS = ("daily", "weekly", "monthly", "quarterly", "yearly")  # Periodic Notes 0.x
_CALENDAR_PERIODS = ("day", "week", "month", "quarter", "year")  # its 1.x calendar sets


@dataclass(frozen=True)
class Rule:
    """One exclusion as the person wrote it, and where."""

    source: str
    pattern: str

    @property
    def fix(self) -> str | None:
        """What to do about a file this rule excludes, when it is not "remove the rule"."""
        if self.source == LOGSEQ_SOURCE:
            return "It is Logseq's (its settings, or a backup copy of a page); the page itself is in pages/ or journals/"
        return None

    def __str__(self) -> str:
        # As written, between quotes; a pattern holding a quote or a line break is spelled with
        # escapes (a repr would also double a glob's escaping backslashes, which need none).
        plain = "'" not in self.pattern and self.pattern.isprintable()
        return f"{self.source} " + (f"'{self.pattern}'" if plain else json.dumps(self.pattern, ensure_ascii=False))


class Exclusions:
    """Which vault-relative paths are excluded, and why. Immutable; see :func:`load_exclusions`."""

    def __init__(
        self,
        globs: Sequence[str] = (),
        prefixes: Sequence[str] = (),
        regexes: Sequence[tuple[str, re.Pattern[str]]] = (),
        template_folders: Sequence[Rule] = (),
        problems: Sequence[Problem] = (),
        template_files: Sequence[Rule] = (),
        dendron_templates: bool = False,
        foam: Sequence[FoamGlob] = (),
    ) -> None:
        self.globs = tuple(globs)
        self._spec = _gitignore(self.globs) if self.globs else None
        # A folder may be skipped whole only when no later `!pattern` can re-include a file in it.
        self._globs_prune = self._spec is not None and not any(pattern.include is False for pattern in self._spec.patterns)
        self._glob_regex = _one_regex(self._spec) if self._globs_prune and self._spec is not None else None
        # `!pattern`s also keep what Obsidian's settings exclude: a person whose Excluded files
        # hold `processed/` (hidden from Obsidian's search, still his notes) writes `!processed/`
        # to have his agent remember them; the pattern was accepted and changed nothing (a trial).
        self._kept_patterns = tuple(glob[1:] for glob in self.globs if glob.startswith("!") and len(glob) > 1)
        self._kept = _gitignore(self._kept_patterns) if self._kept_patterns else None
        self.prefixes = tuple(prefixes)
        self.regexes = tuple(regexes)
        self.template_folders = tuple(template_folders)
        self.template_files = {rule.pattern: rule for rule in template_files}
        self.problems = tuple(problems)
        self.dendron_templates = Rule(DENDRON_SOURCE, DENDRON_TEMPLATE_RULE_PATTERN) if dendron_templates else None
        self.foam = tuple(foam)
        # Rules that can exclude a file in a folder that is not excluded whole: only then
        # does the scan pay a check per file (a vault without such rules pays nothing).
        self.per_file = bool(self.globs or self.prefixes or self.regexes or self.template_files or dendron_templates
                             or self.foam)

    def __bool__(self) -> bool:
        return bool(self.per_file or self.template_folders)

    @property
    def rules(self) -> list[Rule]:
        return [
            *(Rule(CONFIG_SOURCE, glob) for glob in self.globs),
            *(Rule(OBSIDIAN_SOURCE, prefix) for prefix in self.prefixes),
            *(Rule(OBSIDIAN_SOURCE, f"/{source}/") for source, _ in self.regexes),
            *self.template_folders,
            *self.template_files.values(),
            *([self.dendron_templates] if self.dendron_templates else []),
            *(Rule(glob.source, glob.glob) for glob in self.foam),
        ]

    @property
    def fingerprint(self) -> str:
        """Changes exactly when the rules change (not when a settings file is merely saved)."""
        text = "\n".join(f"{rule.source}\t{rule.pattern}" for rule in self.rules)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def excludes_folder(self, relative_dir: str) -> bool:
        """Is the folder ``relative_dir`` excluded with everything below it (the scan skips it)?"""
        return self.folder_rule(relative_dir) is not None

    def excludes(self, relative: str) -> bool:
        """Is the file ``relative`` excluded, by a rule on it or on one of its folders?"""
        return self.file_rule(relative) is not None

    def folder_rule(self, relative_dir: str) -> Rule | None:
        """The rule that excludes the folder ``relative_dir`` and everything below it, if any."""
        folder = relative_dir.strip("/")
        if not folder:
            return None
        if self._globs_prune and self._glob_matches(folder + "/"):
            return self._glob_rule(folder + "/")
        if self._may_keep_below(folder):
            return None  # a `!pattern` may keep a file below: each file is decided alone (file_rule)
        return self._settings_folder_rule(folder)

    def _may_keep_below(self, folder: str) -> bool:
        """Could a `!pattern` keep a file below ``folder``? Yes, unless each is anchored below
        another folder, without wildcards (``!Drafts/keep.md`` keeps nothing in ``Meta/``)."""
        for pattern in self._kept_patterns:
            path = pattern.lstrip("/")
            anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")  # gitignore: else it matches at any depth
            if not anchored or any(character in path for character in "*?[\\"):
                return True
            if path.startswith(folder + "/") or (folder + "/").startswith(path.rstrip("/") + "/"):
                return True
        return False

    def file_rule(self, relative: str) -> Rule | None:
        """The rule that excludes the file ``relative`` (its folders included), if any."""
        folder = relative.rpartition("/")[0]
        found = self.folder_rule(folder) if folder else None
        if found is not None:
            return found
        if self._glob_matches(relative):
            return self._glob_rule(relative)
        if self._kept is not None:
            if self._kept.match_file(relative):
                return None  # the person's `!pattern` keeps it, whatever Obsidian's settings say
            found = self._settings_folder_rule(folder) if folder else None
            if found is not None:
                return found
        named = name_form(relative)  # as Obsidian's settings name it (_settings_folder_rule)
        for prefix in self.prefixes:
            if named.startswith(prefix):
                return Rule(OBSIDIAN_SOURCE, prefix)
        for source, regex in self.regexes:
            if regex.search(named):
                return Rule(OBSIDIAN_SOURCE, f"/{source}/")
        if self.dendron_templates is not None and _DENDRON_TEMPLATE.search(relative):
            return self.dendron_templates
        for glob in self.foam:
            if glob.regex.fullmatch(relative):
                return Rule(glob.source, glob.glob)
        return self.template_files.get(named)

    def _settings_folder_rule(self, folder: str) -> Rule | None:
        """The rule of Obsidian's settings (a templates folder, an Excluded files prefix) that
        excludes the folder ``folder`` and everything below it, if any. Compared in NFC, as
        Obsidian's own paths are (its normalizePath): a folder a Mac or a sync tool wrote
        decomposed (``S`` + U+0327) is the ``Ş`` of ``07 - Şablonlar`` in Templater's settings —
        else each template in it was a note, and check told the person to exclude a file that
        was in the very folder they had named (a trial of a Turkish vault, s38)."""
        folder = name_form(folder)
        for rule in self.template_folders:
            if folder == rule.pattern or folder.startswith(rule.pattern + "/"):
                return rule
        for prefix in self.prefixes:
            # Every file below starts with folder + "/": the prefix excludes them all.
            if (folder + "/").startswith(prefix):
                return Rule(OBSIDIAN_SOURCE, prefix)
        if self.foam:
            # A VS Code glob that matches a folder excludes all in it: this one or one it is in.
            parts = folder.split("/")
            for glob in self.foam:
                if any(glob.excludes_folder("/".join(parts[:depth])) for depth in range(1, len(parts) + 1)):
                    return Rule(glob.source, glob.glob)
        return None

    def _glob_matches(self, relative: str) -> bool:
        if self._glob_regex is not None:
            return self._glob_regex.match(relative) is not None  # one regex: 4× faster on a scan
        return self._spec is not None and bool(self._spec.match_file(relative))

    def _glob_rule(self, relative: str) -> Rule:
        """The glob that decides ``relative`` (gitignore: the last matching pattern wins)."""
        decisive = [glob for glob in self.globs
                    if not glob.startswith("!") and _gitignore([glob]).match_file(relative)]
        return Rule(CONFIG_SOURCE, decisive[-1] if decisive else ", ".join(self.globs))


def load_exclusions(root: Path, globs: Sequence[str]) -> Exclusions:
    """The exclusions of the vault at ``root``: ``globs`` (from ``.vaultmem.toml``, already
    validated) plus what Obsidian's settings say."""
    problems: list[Problem] = []
    prefixes, regexes = _user_ignore_filters(root, problems)
    folders = [
        rule for rule in (
            _template_folder(root, TEMPLATES_SETTINGS, "folder", TEMPLATES_SOURCE, problems),
            _template_folder(root, TEMPLATER_SETTINGS, "templates_folder", TEMPLATER_SOURCE, problems),
            _logseq_folder(root),
        ) if rule is not None
    ]
    vscode = read_vscode_settings(root, problems, "Foam's exclusions and daily-note settings in it are not applied")
    foam = foam_globs(vscode, (root / FOAM_DIR).is_dir(), problems)
    return Exclusions(globs, prefixes, regexes, folders, problems, _template_files(root, problems), is_dendron_vault(root), foam)


def is_dendron_vault(root: Path) -> bool:
    """Is the vault at ``root`` Dendron's: ``dendron.yml`` in it (a workspace holding its vaults)
    or in the workspace folder around it (``root`` is one of those vaults)?"""
    return any((folder / DENDRON_SETTINGS).is_file() for folder in (root, root.parent))


def bracket_glob_problems(globs: Sequence[str], used: Collection[str], note_paths: Iterable[str]) -> list[Problem]:
    """The ``exclude`` patterns that excluded no file (not in ``used``) because a ``[…]`` in them is a
    set of characters, where a folder or file of the vault is spelled with the brackets: a trial's
    ``exclude = ["[assets]/"]`` left ``[assets]/`` indexed without a word (gitignore, like git, reads
    ``[assets]`` as one of the letters a, s, e, t). Pure: ``note_paths`` are the scan's."""
    suspects = {glob: glob.replace("[", "\\[") for glob in globs
                if "[" in glob and not glob.startswith("!") and glob not in used}
    if not suspects:
        return []
    paths = list(note_paths)
    problems = []
    for glob, literal in suspects.items():
        spec = _gitignore([literal])
        named = next((path for path in paths if spec.match_file(path)), None)
        if named is not None:
            problems.append(Problem(
                CONFIG_FILE, "exclude",
                f"{glob!r} excludes no file: in a gitignore pattern […] is a set of characters, one of which is "
                f"matched, not the brackets themselves (it does not exclude {named})",
                f"put a backslash before '[' to exclude what it names: exclude = ['{literal}'] (in single quotes "
                f"TOML keeps the backslash as written; in double quotes write it twice)"))
    return problems


def compile_globs(globs: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the first pattern gitignore syntax refuses (e.g. ``!``)."""
    for glob in globs:
        try:
            _gitignore([glob])
        except (ValueError, TypeError) as error:
            raise ValueError(f"{glob!r} is not a gitignore-style pattern ({error})") from None


def _one_regex(spec: pathspec.GitIgnoreSpec) -> re.Pattern[str] | None:
    """Patterns without ``!`` as one alternation: a path is excluded when any matches.

    Per file, pathspec tries each pattern in turn (about 1.3 µs each); one compiled
    alternation costs what one pattern does. ``None`` when a pattern has no regex.
    """
    sources = []
    for pattern in spec.patterns:
        regex = getattr(pattern, "regex", None)
        if pattern.include is None:
            continue  # a comment or a blank line
        if not isinstance(regex, re.Pattern):
            return None
        sources.append(_NAMED_GROUP.sub("(?:", regex.pattern))  # a group name may appear once per regex
    if not sources:
        return None
    try:
        return re.compile("|".join(f"(?:{source})" for source in sources))
    except re.error:
        return None  # a pathspec whose regexes do not combine: its own loop decides, only slower


def _gitignore(globs: Sequence[str]) -> pathspec.GitIgnoreSpec:
    import pathspec  # 90 ms to import: only vaults that use exclude = [...] pay it

    return pathspec.GitIgnoreSpec.from_lines(globs)


def settings_signature(root: Path, names: Sequence[str]) -> tuple[tuple[int, int] | None, ...]:
    """(mtime_ns, size) of each settings file, ``None`` when absent: did any of them change?
    Asked before every read: the paths are joined as text, not as ``Path`` objects, whose making
    cost more than the sixteen stats (0.1 ms a search at 10,000 notes)."""
    signature: list[tuple[int, int] | None] = []
    folder = os.fspath(root)
    for name in names:
        try:
            info = os.stat(os.path.join(folder, name))
        except OSError:
            signature.append(None)
            continue
        signature.append((info.st_mtime_ns, info.st_size))
    return tuple(signature)


# ------------------------------------------------------------------ Obsidian's settings


def _user_ignore_filters(root: Path, problems: list[Problem]) -> tuple[list[str], list[tuple[str, re.Pattern[str]]]]:
    settings = read_settings(root, APP_SETTINGS, problems)
    entries = settings.get("userIgnoreFilters") if isinstance(settings, dict) else None
    if entries is None:
        return [], []
    if not isinstance(entries, list):
        problems.append(Problem(APP_SETTINGS, "userIgnoreFilters", f"is a {type(entries).__name__}, not a list; no file is excluded by it",
                                "set Excluded files again in Obsidian (Settings → Files and links)"))
        return [], []
    prefixes: list[str] = []
    regexes: list[tuple[str, re.Pattern[str]]] = []
    for entry in entries:
        if not isinstance(entry, str) or not entry:
            continue  # Obsidian skips these too
        if len(entry) > 2 and entry.startswith("/") and entry.endswith("/"):
            compiled = _regex(entry[1:-1], problems)
            if compiled is not None:
                regexes.append((entry[1:-1], compiled))
        else:
            prefixes.append(name_form(entry))
    return prefixes, regexes


def _regex(source: str, problems: list[Problem]) -> re.Pattern[str] | None:
    try:
        return re.compile(_JS_NAMED_GROUP.sub("(?P<", source))
    except re.error as error:
        problems.append(Problem(APP_SETTINGS, "userIgnoreFilters", f"/{source}/ is not a regular expression vaultmem can read ({error}); "
                                "the files it names are indexed meanwhile",
                                "write it in the syntax JavaScript and Python share, or add the same rule to exclude in .vaultmem.toml"))
        return None


def _template_folder(root: Path, name: str, key: str, source: str, problems: list[Problem]) -> Rule | None:
    settings = read_settings(root, name, problems)
    value = settings.get(key) if isinstance(settings, dict) else None
    if not isinstance(value, str):
        return None
    folder = vault_folder(value)
    if not folder:
        # The vault root (or outside it) as the templates folder: excluding it would exclude
        # every note, so nothing is excluded by it.
        return None
    return Rule(source, folder)


def _logseq_folder(root: Path) -> Rule | None:
    """``logseq/`` when the vault is a Logseq graph: Logseq's settings and its backups of pages
    (``logseq/bak/``), never a page. Its hidden ``.recycle/`` is left out as every hidden folder is."""
    return Rule(LOGSEQ_SOURCE, LOGSEQ_DIR) if (root / LOGSEQ_SETTINGS).is_file() else None


def _template_files(root: Path, problems: list[Problem]) -> list[Rule]:
    """The template files new daily, unique and periodic notes are made from, as their plugins
    name them (``Templates/Daily``: a vault-relative path, ``.md`` implied). A daily or periodic
    settings file that does not parse is reported where its format is read (daily_format.py), not
    twice here; the Unique note creator's here, as nothing else reads it."""
    unreported: list[Problem] = []  # daily_format.read_daily_format reports these files' problems
    named: list[tuple[str, object]] = []
    daily = read_settings(root, DAILY_NOTES_SETTINGS, unreported)
    if isinstance(daily, dict):
        named.append((DAILY_TEMPLATE_SOURCE, daily.get("template")))
    # Without this, a Zettelkasten's zettel template ("## Reflections / Source:") was indexed,
    # searched and listed as one of its notes (a trial on a public Zettelkasten, s30).
    unique = read_settings(root, UNIQUE_NOTE_SETTINGS, problems, "its template is indexed as a note meanwhile")
    if isinstance(unique, dict):
        named.append((UNIQUE_NOTE_TEMPLATE_SOURCE, unique.get("template")))
    periodic = read_settings(root, PERIODIC_NOTES_SETTINGS, unreported)
    if isinstance(periodic, dict):
        sets = periodic.get("calendarSets")
        periods = [periodic.get(key) for key in _PERIODS] + [
            calendar.get(key) for calendar in (sets if isinstance(sets, list) else []) if isinstance(calendar, dict)
            for key in _CALENDAR_PERIODS]
        named += [(PERIODIC_TEMPLATE_SOURCE, period.get(key)) for period in periods if isinstance(period, dict)
                  for key in ("template", "templatePath")]
    rules = []
    for source, value in named:
        path = vault_folder(value) if isinstance(value, str) else None
        if path:
            rules.append(Rule(source, path if path.lower().endswith(".md") else path + ".md"))
    return rules


def vault_folder(value: str) -> str | None:
    """A folder as Obsidian's settings hold it, as the vault-relative path Obsidian makes of it
    (``/Journal//2026/`` is ``Journal/2026``, ``\\`` is ``/``, ``""`` and ``/`` the vault's root);
    ``None`` for a folder outside the vault (``..``)."""
    parts = [part for part in value.strip().replace("\\", "/").split("/") if part not in ("", ".")]
    return None if ".." in parts else name_form("/".join(parts))


def read_settings(root: Path, name: str, problems: list[Problem], unused: str = "its exclusions are not applied") -> Any:
    """The JSON of one of Obsidian's settings files (``None`` when absent); a file that cannot be
    read or parsed is a problem naming it, and ``unused`` says what is not applied meanwhile."""
    path = root / name
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        problems.append(Problem(name, "file", f"cannot read Obsidian's settings ({error.strerror}); {unused}",
                                "fix the file's permissions"))
        return None
    try:
        if len(raw) > MAX_SETTINGS_BYTES:
            raise ValueError(f"larger than {MAX_SETTINGS_BYTES:,} bytes")
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # RecursionError: nested deeper than json's recursion reads
        why = "nested too deeply to read" if isinstance(error, RecursionError) else f"not valid JSON ({error})"
        problems.append(Problem(name, "file", f"{why}; {unused}", "let Obsidian write the setting again, or fix the JSON"))
        return None
