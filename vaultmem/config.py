"""Per-vault settings, read once at the entry point and passed down explicitly.

The file is ``<vault>/.vaultmem.toml``. It lives beside the notes — not under
``.vaultmem/``, which is derived and may be deleted at any time — so it is versioned
with the vault. Every key is optional::

    archive_dir = "_archive"      # where forget/expire/consolidate move notes
    remember_dir = "memories"     # where `remember` writes new notes ("" = the vault root)
    auto_commit = false           # commit vaultmem's own writes when the vault is a git repo
    embedder = "wordllama"        # or "sentence-transformers:<model dir>" (relative: to the vault), "hashing[:N]"
    exclude = ["Private/", "*.excalidraw.md"]  # gitignore-style, vault-relative: not notes at all

    [ttl]                         # default time-to-live per layer (L4 never expires)
    L1 = "1d"
    L2 = "7d"
    L3 = "90d"

    [watch]
    debounce_ms = 300
    rescan_seconds = 300

    [consolidate]
    threshold = 0.88
    window = 2000
    similar_threshold = 0.83      # `remember`'s `similar` list (advice, nothing merged); unset: min(0.83, threshold)

    [mcp]                         # what an agent may do over MCP (``vaultmem mcp``)
    allow_hard_delete = false     # forget(hard=true) deletes files for good only when true
    allow_secrets = false         # remember/revise may write a password, PIN, card number or key only when true
    allowed_origins = []          # browser origins besides the server's own, e.g. "https://memory.example.com"

    [dates]                       # the properties that date a note, each list read in order (dating.py)
    date = ["date"]               # what day a note is about, e.g. ["date", "fecha"]
    created = ["created"]         # when it was written, read last; must keep "created" (remember stamps it)
    from_git = false              # a note nothing else dates: the day git added its file (git_dates.py)
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar
from urllib.parse import urlsplit

from .dating import DEFAULT_DATE_PROPERTIES, DateProperties
from .errors import ConfigError, InvalidDuration, UnknownLayer, short_repr
from .lifecycle import DEFAULT_TTLS, PERMANENT_LAYER, LayerPolicy, normalize_layer, parse_duration, valid_layer_names

CONFIG_FILE = ".vaultmem.toml"
STATE_DIR = ".vaultmem"
OBSIDIAN_DIR = ".obsidian"
FOAM_DIR = ".foam"  # a Foam workspace's own folder (its templates), as .obsidian/ is a vault's
LOGSEQ_SETTINGS = "logseq/config.edn"  # a Logseq graph's mark, as .obsidian/ is a vault's
DEFAULT_ARCHIVE_DIR = "_archive"
DEFAULT_REMEMBER_DIR = "memories"
DEFAULT_THRESHOLD = 0.88  # measured: see adr/0010-consolidation.md
DEFAULT_SIMILAR_THRESHOLD = 0.83  # `remember`'s similar notes, measured: adr/0010 "The threshold of similar"
DEFAULT_STALE_DAYS = 42  # `stale` with no --days: six weeks unused
MAX_STALE_DAYS = 365_000  # a thousand years: older than any note, yet "now minus N days" stays a date

_TOP_KEYS = {"archive_dir", "remember_dir", "auto_commit", "embedder", "exclude", "ttl", "watch", "consolidate", "mcp", "dates"}
T = TypeVar("T")
_WATCH_KEYS = {"debounce_ms", "rescan_seconds"}
_CONSOLIDATE_KEYS = {"threshold", "window", "similar_threshold"}
_MCP_KEYS = {"allow_hard_delete", "allow_secrets", "allowed_origins"}
_DATES_KEYS = {"date", "created", "from_git"}
_TABLES = {"ttl", "watch", "consolidate", "mcp", "dates"}
# Where each setting lives ("": the top of the file): to say where an unknown one belongs.
_HOMES = {"": _TOP_KEYS - _TABLES, "watch.": _WATCH_KEYS, "consolidate.": _CONSOLIDATE_KEYS, "mcp.": _MCP_KEYS,
          "dates.": _DATES_KEYS}


@dataclass(frozen=True)
class WatchSettings:
    debounce_ms: int = 300
    rescan_seconds: float = 300.0


@dataclass(frozen=True)
class ConsolidateSettings:
    threshold: float = DEFAULT_THRESHOLD
    window: int = 2000
    similar_threshold: float = DEFAULT_SIMILAR_THRESHOLD  # what `remember` lists as saying nearly the same


@dataclass(frozen=True)
class McpSettings:
    allow_hard_delete: bool = False
    allow_secrets: bool = False  # an agent's write that spells out a secret is refused unless true (verbatim_secrets.py)
    allowed_origins: tuple[str, ...] = ()  # normalised by ``normalize_origin``


@dataclass(frozen=True)
class VaultConfig:
    archive_dir: str = DEFAULT_ARCHIVE_DIR
    remember_dir: str = DEFAULT_REMEMBER_DIR
    remember_dir_set: bool = False  # written in .vaultmem.toml: then it wins over a Logseq or Dendron default (note_styles.py)
    auto_commit: bool = False
    embedder: str = "wordllama"
    exclude: tuple[str, ...] = ()  # gitignore-style globs (see exclusions.py)
    policy: LayerPolicy = field(default_factory=LayerPolicy)
    watch: WatchSettings = field(default_factory=WatchSettings)
    consolidate: ConsolidateSettings = field(default_factory=ConsolidateSettings)
    mcp: McpSettings = field(default_factory=McpSettings)
    dates: DateProperties = DEFAULT_DATE_PROPERTIES


def is_logseq_graph(root: Path) -> bool:
    """Is the vault at ``root`` a Logseq graph (it holds ``logseq/config.edn``)? Then a page's
    fields are its ``key:: value`` lines, and remember writes pages (adr/0028)."""
    return (root / LOGSEQ_SETTINGS).is_file()


def find_vault(start: Path) -> Path | None:
    """The vault ``start`` is in: ``start`` itself if it holds ``.obsidian/``, ``.vaultmem/``
    or ``.vaultmem.toml``, else the nearest folder above it holding ``.obsidian/``,
    ``.vaultmem.toml``, a Logseq graph's ``logseq/config.edn`` or a Foam workspace's ``.foam/``;
    ``None`` when there is none.

    A command run in a vault's subfolder works on the vault (not on the subfolder as a vault
    of its own, with an index of its own inside the vault), and one run outside any vault
    does not index whatever folder it was started in — a home folder, say. Above ``start``
    a bare ``.vaultmem/`` does not count: older versions left one in any folder a command
    was typed in, and it must not make that folder the vault of everything below it.
    """
    if (start / STATE_DIR).is_dir():
        return start
    for folder in (start, *start.parents):
        if (folder / OBSIDIAN_DIR).is_dir() or (folder / CONFIG_FILE).is_file() or (folder / LOGSEQ_SETTINGS).is_file():
            return folder
        if (folder / FOAM_DIR).is_dir():  # Foam (VS Code) keeps no .obsidian/: its workspace was refused as no vault
            return folder
    return None


def index_above(start: Path) -> Path | None:
    """The nearest folder above ``start`` holding a bare ``.vaultmem/``, which :func:`find_vault`
    does not take for a vault: the folder a person indexed with ``--vault .``, or a stray
    index. Named in the refusal, so that its fix is ``--vault`` that folder — not the
    ``vaultmem --vault . index`` that would make ``start`` a second vault inside it."""
    return next((folder for folder in start.parents if (folder / STATE_DIR).is_dir()), None)


def load_config(vault_root: Path) -> VaultConfig:
    """Read ``<vault>/.vaultmem.toml``; a missing file means all defaults."""
    path = vault_root / CONFIG_FILE
    if not path.exists():
        return VaultConfig()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(path, "", f"not valid TOML ({error})", "fix the syntax or delete the file") from None
    except RecursionError:  # arrays or tables nested deeper than tomllib's recursion reads: was a traceback
        raise ConfigError(path, "", "nested too deeply to read", "fix the file or delete it") from None
    return config_from_dict(raw, source=str(path))


class _Reading:
    """Settings read one by one, every bad one kept (a trial fixed the first, ran again, and
    only then learned of the second): :meth:`value` gives the default in a bad one's place,
    and :meth:`done` raises them all as one :class:`ConfigError`."""

    def __init__(self) -> None:
        self.errors: list[ConfigError] = []

    def value(self, parse: Callable[[], T], default: T) -> T:
        try:
            return parse()
        except ConfigError as error:
            self.errors.append(error)
            return default

    def done(self) -> None:
        if self.errors:
            first, *others = self.errors
            raise ConfigError(first.source, first.key, first.problem, first.fix, others)


def config_from_dict(raw: dict[str, Any], source: str = CONFIG_FILE) -> VaultConfig:
    """The settings in ``raw``; every bad one is said in one :class:`ConfigError`."""
    reading = _Reading()
    defaults = VaultConfig()
    reading.value(lambda: _reject_unknown(raw, _TOP_KEYS, source, ""), None)
    config = VaultConfig(
        archive_dir=reading.value(lambda: _folder(raw.get("archive_dir", DEFAULT_ARCHIVE_DIR), source, "archive_dir"),
                                  defaults.archive_dir),
        remember_dir=reading.value(lambda: _folder(raw.get("remember_dir", DEFAULT_REMEMBER_DIR), source, "remember_dir",
                                                   allow_root=True), defaults.remember_dir),
        remember_dir_set="remember_dir" in raw,
        auto_commit=reading.value(lambda: _boolean(raw.get("auto_commit", False), source, "auto_commit"), defaults.auto_commit),
        embedder=reading.value(lambda: _text(raw.get("embedder", "wordllama"), source, "embedder"), defaults.embedder),
        exclude=reading.value(lambda: _globs(raw.get("exclude", []), source), defaults.exclude),
        policy=reading.value(lambda: _policy(raw.get("ttl", {}), source, reading), defaults.policy),
        watch=reading.value(lambda: _watch(raw.get("watch", {}), source, reading), defaults.watch),
        consolidate=reading.value(lambda: _consolidate(raw.get("consolidate", {}), source, reading), defaults.consolidate),
        mcp=reading.value(lambda: _mcp(raw.get("mcp", {}), source, reading), defaults.mcp),
        dates=reading.value(lambda: _dates(raw.get("dates", {}), source, reading), defaults.dates),
    )
    reading.done()
    return config


def _read_table(table: Any, known: set[str], source: str, prefix: str, reading: _Reading) -> None:
    """A table of settings: not a table is the one problem said of it (nothing in it can be
    read); an unknown key is one problem among the others its known keys may have."""
    if not isinstance(table, dict):
        _reject_unknown(table, known, source, prefix)
    reading.value(lambda: _reject_unknown(table, known, source, prefix), None)


def _reject_unknown(table: Any, known: set[str], source: str, prefix: str) -> None:
    if not isinstance(table, dict):
        raise ConfigError(source, f"[{prefix.rstrip('.')}]", "must be a table", f"write it as [{prefix.rstrip('.')}] with one setting per line")
    unknown = sorted(set(table) - known)
    if unknown:
        moves = {key: _misplaced(key, table[key], prefix) for key in unknown}
        # A misplaced setting is said where it belongs; any other unknown one still gets the
        # valid list (with only the moves said, a typo beside them was named with no fix).
        wrong = [prefix + key for key, found in moves.items() if not found]
        fixes = [move for found in moves.values() for move in found]
        if wrong:
            fixes.append(f"remove or correct {'it' if not fixes else ', '.join(wrong)}; valid: "
                         f"{', '.join(sorted(prefix + key for key in known))}")
        raise ConfigError(source, ", ".join(prefix + key for key in unknown), "unknown setting(s)", "; ".join(fixes))


def _misplaced(key: str, value: Any, prefix: str) -> list[str]:
    """Where a setting unknown here is known: ``similar_threshold`` written at the top belongs
    in [consolidate], and ``[git] auto_commit = true`` is the top-level ``auto_commit`` under
    a table of its own (TOML reads every line after a [table] header into that table)."""
    homes = [home for home in _homes(key) if home != prefix]
    if homes:
        here = f", not in [{prefix.rstrip('.')}]" if prefix else ""
        return [f"{key} belongs {_home_words(home)}{here}" for home in homes]
    if prefix or not isinstance(value, dict):
        return []
    return [f"{inner} belongs {_home_words(home)}, not in [{key}]" for inner in value for home in _homes(inner)]


def _homes(key: str) -> list[str]:
    """Where a setting named ``key`` is known: a layer's name (``L1``, ``working``) is a line
    of [ttl], so ``L1 = "2d"`` above the first table is told to move there."""
    homes = [home for home, keys in _HOMES.items() if key in keys]
    try:
        normalize_layer(key)
    except UnknownLayer:
        return homes
    return [*homes, "ttl."]


def _home_words(home: str) -> str:
    return f"in [{home.rstrip('.')}]" if home else "at the top of the file, above the first [table] line"


def _folder(value: Any, source: str, key: str, allow_root: bool = False) -> str:
    if not isinstance(value, str):
        raise ConfigError(source, key, f"must be a string, got {short_repr(value)}", 'write a folder such as "_archive"')
    text = value.strip()
    parts = PurePosixPath(text).parts
    if (not parts and not allow_root) or text.startswith("/") or ".." in parts or "\\" in text:
        raise ConfigError(source, key, f"{short_repr(value)} is not a folder inside the vault", 'write a vault-relative folder such as "_archive"')
    # Normalised ("./_old" → "_old", "a//b" → "a/b"): the scan compares it with
    # vault-relative paths as text, and would otherwise index the archive.
    return "/".join(parts)


def _globs(value: Any, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise ConfigError(source, "exclude", f"must be a list of non-empty strings, got {short_repr(value)}",
                          'write e.g. exclude = ["Templates/**", "*.excalidraw.md"]')
    globs = tuple(item.strip() for item in value)
    if not globs:
        return globs
    from .exclusions import compile_globs  # pathspec: only when a vault excludes something

    try:
        compile_globs(globs)
    except ValueError as error:
        raise ConfigError(source, "exclude", str(error), 'write gitignore-style patterns such as "Private/" or "*.excalidraw.md"') from None
    return globs


def _policy(table: Any, source: str, reading: _Reading) -> LayerPolicy:
    if not isinstance(table, dict):
        raise ConfigError(source, "ttl", "must be a table", 'write it as [ttl] with lines such as L1 = "1d"')
    ttls: dict[str, timedelta | None] = dict(DEFAULT_TTLS)
    for layer, value in table.items():
        parsed: tuple[str, timedelta | None] | None = reading.value(partial(_ttl_line, layer, value, source), None)
        if parsed is not None:
            code, ttl = parsed
            ttls[code] = ttl
    return LayerPolicy(ttls)


def _ttl_line(layer: str, value: Any, source: str) -> tuple[str, timedelta | None]:
    try:
        code = normalize_layer(layer)
        return code, _ttl_value(code, value)
    except UnknownLayer:
        # `auto_commit = true` written below [ttl] is read into it (TOML): say where it belongs.
        moves = _misplaced(layer, value, "ttl.")
        raise ConfigError(source, f"[ttl] {layer}", f"{short_repr(layer)} is not a layer",
                          "; ".join(moves) or f"name one of {', '.join(valid_layer_names())}") from None
    except InvalidDuration as error:
        raise ConfigError(source, f"[ttl] {layer}", error.problem, error.fix) from None


def _ttl_value(code: str, value: Any) -> timedelta | None:
    if code == PERMANENT_LAYER:
        raise InvalidDuration(value, "L4 is procedural and never expires", "remove this line")
    return parse_duration(value)


def _watch(table: Any, source: str, reading: _Reading) -> WatchSettings:
    _read_table(table, _WATCH_KEYS, source, "watch.", reading)
    defaults = WatchSettings()
    return WatchSettings(
        debounce_ms=reading.value(lambda: int(_number(table.get("debounce_ms", defaults.debounce_ms), source, "watch.debounce_ms",
                                                      0, 60_000)), defaults.debounce_ms),
        rescan_seconds=reading.value(lambda: _number(table.get("rescan_seconds", defaults.rescan_seconds), source,
                                                     "watch.rescan_seconds", 1, 86_400), defaults.rescan_seconds),
    )


def _consolidate(table: Any, source: str, reading: _Reading) -> ConsolidateSettings:
    _read_table(table, _CONSOLIDATE_KEYS, source, "consolidate.", reading)
    defaults = ConsolidateSettings()
    threshold = reading.value(lambda: _number(table.get("threshold", defaults.threshold), source, "consolidate.threshold",
                                              0.0, 1.0), defaults.threshold)
    # Unset, `similar` lists at least what consolidate would merge: with a vault's threshold
    # below 0.83, an agent told of no similar note would otherwise see its note merged later.
    similar_default = min(defaults.similar_threshold, threshold)
    return ConsolidateSettings(
        threshold=threshold,
        window=reading.value(lambda: int(_number(table.get("window", defaults.window), source, "consolidate.window",
                                                 1, 10_000_000)), defaults.window),
        similar_threshold=reading.value(lambda: _number(table["similar_threshold"], source, "consolidate.similar_threshold",
                                                        0.01, 1.0), similar_default) if "similar_threshold" in table else similar_default,
    )


def _mcp(table: Any, source: str, reading: _Reading) -> McpSettings:
    _read_table(table, _MCP_KEYS, source, "mcp.", reading)
    defaults = McpSettings()
    return McpSettings(
        allow_hard_delete=reading.value(lambda: _boolean(table.get("allow_hard_delete", False), source, "mcp.allow_hard_delete"),
                                        defaults.allow_hard_delete),
        allow_secrets=reading.value(lambda: _boolean(table.get("allow_secrets", False), source, "mcp.allow_secrets"),
                                    defaults.allow_secrets),
        allowed_origins=reading.value(lambda: _origins(table.get("allowed_origins", []), source, reading), defaults.allowed_origins),
    )


def _dates(table: Any, source: str, reading: _Reading) -> DateProperties:
    """The properties that date a note (dating.DateProperties). No built-in list of other
    languages' names: ``datum`` or ``day`` may mean something else in another vault, and a
    guessed date moves a note in or out of every search by date without a word (adr/0026)."""
    _read_table(table, _DATES_KEYS, source, "dates.", reading)
    defaults = DateProperties()
    date = reading.value(lambda: _property_names(table.get("date", list(defaults.date)), source, "dates.date"), defaults.date)
    created = reading.value(lambda: _created_names(table.get("created", list(defaults.created)), source), defaults.created)
    from_git = reading.value(lambda: _boolean(table.get("from_git", False), source, "dates.from_git"), defaults.from_git)
    both = [name for name in date if name in created]
    if both:
        # Read first as a day the note is about, or last as when it was written? Each answer
        # dates some notes wrongly (and consolidation keeps apart, or merges, by it).
        reading.value(partial(_refuse_both, both, source), None)
        return defaults
    return DateProperties(date, created, from_git)


def _property_names(value: Any, source: str, key: str) -> tuple[str, ...]:
    example = '["date", "fecha"]' if key == "dates.date" else '["created", "creado"]'
    if not isinstance(value, list) or not value or not all(isinstance(name, str) and name.strip() for name in value):
        raise ConfigError(source, key, f"must be a list of one property name or more, got {short_repr(value)}",
                          f"write e.g. {key.rsplit('.', 1)[-1]} = {example} (read in that order)")
    names = tuple(name.strip() for name in value)  # a frontmatter key never starts or ends with a space
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ConfigError(source, key, f"names {', '.join(twice)} twice", "name each property once")
    return names


def _created_names(value: Any, source: str) -> tuple[str, ...]:
    names = _property_names(value, source, "dates.created")
    if "created" not in names:
        # `remember` stamps `created` on every memory: without it they would all be undated.
        raise ConfigError(source, "dates.created", f"{short_repr(value)} leaves out created, which remember stamps on every "
                          "memory: a search by date would leave them all out",
                          f'keep it in the list, e.g. created = {json.dumps([*names, "created"], ensure_ascii=False)}')
    return names


def _refuse_both(names: list[str], source: str) -> None:
    raise ConfigError(source, "dates.date, dates.created", f"both name {', '.join(names)}: is it the day a note is "
                      "about (date, read first) or when it was written (created, read last)?", "name it in one of the two")


def _origins(origins: Any, source: str, reading: _Reading) -> tuple[str, ...]:
    if not isinstance(origins, list):
        raise ConfigError(source, "mcp.allowed_origins", f"must be a list, got {short_repr(origins)}",
                          'write e.g. allowed_origins = ["https://memory.example.com"]')
    read = (reading.value(partial(_origin, origin, source), None) for origin in origins)  # each bad one said
    return tuple(origin for origin in read if origin is not None)


def _origin(value: Any, source: str) -> str:
    try:
        return normalize_origin(value)
    except ValueError as error:
        problem, _, fix = str(error).partition("; ")
        raise ConfigError(source, "mcp.allowed_origins", problem, fix or "list each origin as scheme://host[:port]") from None


def normalize_origin(value: object) -> str:
    """An HTTP origin as browsers send it: ``scheme://host[:port]``, lower case, no default port.

    Raises ``ValueError`` naming the value for anything else (a path, a wildcard, ``null``):
    an allow-list entry that matched nothing would look like protection and give none.
    """
    text = value.strip() if isinstance(value, str) else ""
    if text == "*":
        raise ValueError("'*' would let every web page reach your memory; list each origin, e.g. \"https://memory.example.com\"")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.username \
            or parts.password or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{value!r} is not an origin; write scheme://host[:port], e.g. \"https://memory.example.com\"")
    scheme = parts.scheme.lower()
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname.lower()
    default_port = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" if port in (None, default_port) else f"{scheme}://{host}:{port}"


def _text(value: Any, source: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(source, key, f"must be a non-empty string, got {short_repr(value)}", 'write e.g. embedder = "wordllama"')
    return value


def _boolean(value: Any, source: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(source, key, f"must be true or false, got {short_repr(value)}", f"write {key.rsplit('.', 1)[-1]} = true or false")
    return value


def _number(value: Any, source: str, key: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError(source, key, f"must be a number between {low:g} and {high:g}, got {short_repr(value)}",
                          "write a number in that range (or remove the line for the default)")
    return float(value)


HASHING_DIMENSIONS = (8, 4096)  # below 8 every word collides; above 4096 is memory, not quality
DEFAULT_HASHING_DIMENSION = 64
_EMBEDDER_FIX = "use 'wordllama', 'sentence-transformers:<local model dir>' or 'hashing[:N]'"


@dataclass(frozen=True)
class EmbedderSpec:
    """An ``embedder`` setting, parsed: what :func:`check_embedder_name` accepted."""

    kind: str  # "wordllama", "hashing" or "sentence-transformers"
    dimension: int | None = None  # hashing's
    model: str = ""  # sentence-transformers': the folder as written

    def model_dir(self, vault_root: Path) -> Path:
        """The model's folder. A relative one is read from the vault's root, where the config
        file lives — not from the working directory, which would give one vault a different
        model (or none) depending on where vaultmem was started (adr/0024)."""
        folder = Path(self.model).expanduser()
        return folder if folder.is_absolute() else vault_root / folder


def unknown_embedder(spec: str, source: object = CONFIG_FILE) -> ConfigError:
    return ConfigError(source, "embedder", f"{spec!r} is not an embedder", _EMBEDDER_FIX)


def parse_embedder(spec: str, source: object = CONFIG_FILE) -> EmbedderSpec:
    """The setting's parts, each checked — the one list of names and their arguments (nothing
    loaded, nothing on disk looked at). Raises :class:`ConfigError` naming ``source``."""
    kind, colon, argument = spec.partition(":")
    if kind == "wordllama":
        if colon:
            raise ConfigError(source, "embedder", f"{spec!r}: wordllama takes no argument", 'write embedder = "wordllama"')
        return EmbedderSpec(kind)
    if kind == "hashing":
        return EmbedderSpec(kind, _hashing_dimension(spec, colon, argument, source))
    if kind == "sentence-transformers":
        if not argument.strip():
            raise ConfigError(source, "embedder", f"{spec!r} names no model",
                              'write embedder = "sentence-transformers:<local model dir>"')
        return EmbedderSpec(kind, model=argument)
    raise unknown_embedder(spec, source)


def _hashing_dimension(spec: str, colon: str, argument: str, source: object) -> int:
    if not colon:
        return DEFAULT_HASHING_DIMENSION
    low, high = HASHING_DIMENSIONS
    # ASCII digits only: str.isdigit also takes "²", which int() refuses.
    if not re.fullmatch(r"[0-9]{1,5}", argument) or not low <= int(argument) <= high:
        raise ConfigError(source, "embedder", f"{spec!r}: the hashing dimension must be a whole number from {low} to {high}",
                          f'write e.g. embedder = "hashing:{DEFAULT_HASHING_DIMENSION}" (or "hashing" for {DEFAULT_HASHING_DIMENSION})')
    return int(argument)


def check_embedder_name(spec: str, vault_root: Path) -> EmbedderSpec:
    """Raise what making the embedder ``spec`` would raise for a setting, without making it
    (embedders.py, which makes one, imports numpy; ``check`` must stay light): a name that is
    none, an argument it does not take, or a model folder that is not there."""
    source = vault_root / CONFIG_FILE
    parsed = parse_embedder(spec, source)
    if parsed.kind == "sentence-transformers" and not parsed.model_dir(vault_root).is_dir():
        raise ConfigError(source, "embedder", f"sentence-transformers model {parsed.model!r} is not a local folder "
                          f"(looked for {parsed.model_dir(vault_root)})",
                          "vaultmem never downloads models: point embedder at a model directory on disk "
                          "(absolute, or relative to the vault)")
    if parsed.kind == "sentence-transformers" and importlib.util.find_spec("sentence_transformers") is None:
        # An optional extra: without this, the first note to embed died in a ModuleNotFoundError traceback,
        # and `check` said the setting was fine. find_spec locates the package without importing it.
        raise ConfigError(source, "embedder", "the sentence-transformers package is not installed beside vaultmem",
                          'install the extra: `pip install -e ".[sentence-transformers]"` in the clone vaultmem is '
                          'installed from, or write embedder = "wordllama"')
    return parsed
