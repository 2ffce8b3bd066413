"""How ``remember`` writes a new note in the app whose vault this is: Obsidian, a Logseq graph, a
Dendron workspace (adr/0028-logseq-graphs.md, adr/0030-dendron-workspaces.md).

- Obsidian (the default): YAML frontmatter, in ``remember_dir`` (``memories/``).
- A Logseq graph (``logseq/config.edn``): a page in ``pages/``, its fields as the ``key:: value``
  lines a Logseq page opens with (logseq.render_properties), the text below them. YAML
  frontmatter above a page shows in Logseq as text of its first block.
- Dendron (``dendron.yml`` in the vault or the workspace around it): a note in the vault folder
  ``dendron.yml`` names, named in its hierarchy (``memories.<slug>.md``: Dendron has no folders, a
  note's place is its dotted name), with the fields Dendron writes (``id``, ``title``, ``desc``,
  ``updated``, ``created`` as epoch milliseconds) before vaultmem's.

``remember_dir`` set in ``.vaultmem.toml``, or a folder given to remember, wins in every app: the
person said where. Reading the settings is an effect; rendering is pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from .config import is_logseq_graph
from .errors import UsageError
from .exclusions import DENDRON_SETTINGS, is_dendron_vault, vault_folder
from .logseq import render_properties
from .noteio import render_frontmatter

MAX_DENDRON_SETTINGS_BYTES = 1_000_000  # a dendron.yml is a few kilobytes
LOGSEQ_PAGES = "pages"  # Logseq's default :pages-directory


class App(Enum):
    OBSIDIAN = "obsidian"
    LOGSEQ = "logseq"
    DENDRON = "dendron"


@dataclass(frozen=True)
class Placement:
    """Where a new note goes and how it is written."""

    app: App
    folder: str  # vault-relative ('' for the root), as given to writer.target_folder
    name_prefix: str = ""  # Dendron's hierarchy, before the title's slug ("memories.")


def app_of(root: Path) -> App:
    """The app the vault at ``root`` is written for: a Logseq graph, a Dendron vault (its
    ``dendron.yml`` in it or in the workspace folder holding it), else Obsidian."""
    if is_logseq_graph(root):
        return App.LOGSEQ
    if is_dendron_vault(root):
        return App.DENDRON
    return App.OBSIDIAN


def placement(root: Path, remember_dir: str, remember_dir_set: bool, folder: str | None) -> Placement:
    """Where ``remember`` writes: ``folder`` when given, ``remember_dir`` when the person set it,
    else where the vault's app keeps notes."""
    app = app_of(root)
    if folder is not None:
        return Placement(app, folder)
    if remember_dir_set or app is App.OBSIDIAN:
        return Placement(app, remember_dir)
    if app is App.LOGSEQ:
        return Placement(app, LOGSEQ_PAGES)
    hierarchy = PurePosixPath(remember_dir).name  # `memories` → memories.<slug>.md
    return Placement(app, dendron_vault(root), f"{hierarchy}." if hierarchy else "")


def dendron_vault(root: Path) -> str:
    """The vault-relative folder of the Dendron vault notes go to: the vault itself when
    ``dendron.yml`` is in the workspace around it, else the first vault its ``dendron.yml``
    lists (``workspace.vaults[].fsPath``, or ``vaults`` before Dendron's config v5) that lies
    inside this vault. :class:`UsageError` naming the file when it lists none."""
    settings = root / DENDRON_SETTINGS
    if not settings.is_file():
        return ""  # dendron.yml is in the folder around: this vault is one of its vaults
    for path in _vault_paths(settings):
        inside = vault_folder(path)
        if inside is not None and (root / inside).is_dir():
            return inside
    raise UsageError(f"{DENDRON_SETTINGS} lists no vault folder inside {root} (workspace.vaults[].fsPath), so "
                     "remember does not know where Dendron keeps notes; add one there, or set remember_dir in "
                     ".vaultmem.toml, or pass a folder")


def _vault_paths(settings: Path) -> list[str]:
    with open(settings, "rb") as handle:
        raw = handle.read(MAX_DENDRON_SETTINGS_BYTES + 1)
    try:
        if len(raw) > MAX_DENDRON_SETTINGS_BYTES:
            raise ValueError(f"larger than {MAX_DENDRON_SETTINGS_BYTES:,} bytes")
        loaded = yaml.safe_load(raw.decode("utf-8"))
    except (ValueError, yaml.YAMLError) as error:
        raise UsageError(f"{DENDRON_SETTINGS} does not load ({error}), so remember does not know where Dendron "
                         "keeps notes; fix it, or set remember_dir in .vaultmem.toml") from None
    if not isinstance(loaded, dict):
        return []
    workspace = loaded.get("workspace")
    vaults = workspace.get("vaults") if isinstance(workspace, dict) else None
    if vaults is None:
        vaults = loaded.get("vaults")  # config version 1–4
    if not isinstance(vaults, list):
        return []
    return [str(vault["fsPath"]) for vault in vaults if isinstance(vault, dict) and isinstance(vault.get("fsPath"), str)]


def render_note(app: App, meta: Mapping[str, Any], body: str) -> bytes:
    """A new note's bytes as ``app`` writes one. ``meta`` in vaultmem's order (id, title, layer,
    tags, created, …); the body ends with a newline (git would say "No newline at end of file")."""
    text = body if body.endswith("\n") else body + "\n"
    if app is App.LOGSEQ:
        # The title first and vaultmem's id last, as a person reads a page's properties; a blank
        # line before the text, which Logseq would otherwise read as part of the first block.
        ordered = {"title": meta["title"], **{key: value for key, value in meta.items() if key not in ("id", "title")},
                   "id": meta["id"]}
        return (render_properties(ordered) + "\n" + text).encode("utf-8")
    if app is App.DENDRON:
        return (render_frontmatter(_dendron_meta(meta)) + text).encode("utf-8")
    return (render_frontmatter(meta) + text).encode("utf-8")


def _dendron_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """Dendron's fields first, as Dendron writes them (``desc: ''``, times in epoch ms), then vaultmem's."""
    created = meta["created"]
    millis = int(created.timestamp() * 1000) if isinstance(created, datetime) else created
    dendron = {"id": meta["id"], "title": meta["title"], "desc": "", "updated": millis, "created": millis}
    return {**dendron, **{key: value for key, value in meta.items() if key not in dendron}}
