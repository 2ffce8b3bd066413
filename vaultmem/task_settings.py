"""The Tasks plugin's settings that decide what a task is (adr/0026 "Tasks", its settings).

``.obsidian/plugins/obsidian-tasks-plugin/data.json`` holds its ``globalFilter`` (``#task``:
only a checklist item whose words hold it is a task) and ``statusSettings`` (each box's
character declared ``TODO``, ``IN_PROGRESS``, ``DONE``, ``CANCELLED`` or ``NON_TASK``).
:func:`load_task_rules` reads them into task_dates.TaskRules when tasks are asked for — the
``tasks`` table keeps every box, so a changed setting needs no re-index. A file that does not
load is said in the answer, and the plugin's defaults are used: never a silent guess.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from .task_dates import CANCELLED_BOXES, DONE_BOXES, TaskRules

TASKS_SETTINGS = ".obsidian/plugins/obsidian-tasks-plugin/data.json"
# A status type and what a box of it is; IN_PROGRESS and ON_HOLD are open (not done).
_TYPES = {"TODO": "open", "IN_PROGRESS": "open", "ON_HOLD": "open", "DONE": "done", "CANCELLED": "cancelled",
          "NON_TASK": None}


def load_task_rules(root: Path) -> tuple[TaskRules, list[str]]:
    """The Tasks plugin's rules in the vault at ``root`` (the defaults without the plugin), and
    what could not be read of its settings, each a warning naming the file and the fix."""
    path = root / TASKS_SETTINGS
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return TaskRules(), []
    except OSError as error:
        return TaskRules(), [_unread(f"cannot be read ({error.strerror})", "fix its permissions")]
    try:
        settings = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, nested too deep, a number past Python's limit
        why = "is nested too deeply to read" if isinstance(error, RecursionError) else f"is not JSON ({error})"
        return TaskRules(), [_unread(why, "repair it, or set the plugin's options again in Obsidian")]
    if not isinstance(settings, Mapping):
        return TaskRules(), [_unread("is not a JSON object", "set the plugin's options again in Obsidian")]
    warnings: list[str] = []
    found = settings.get("globalFilter", "")
    global_filter = found if isinstance(found, str) else ""
    if not isinstance(found, str):
        warnings.append(_unread(f"has a globalFilter that is no text ({found!r}): it is not applied",
                                "set the global filter again in the plugin's options"))
    declared = _declared_statuses(settings.get("statusSettings"), warnings)
    return _rules(global_filter.strip(), declared), warnings


def _declared_statuses(status_settings: object, warnings: list[str]) -> dict[str, str | None]:
    """Each box's character → ``open``/``done``/``cancelled``/``None`` (no task), as declared in
    ``coreStatuses`` then ``customStatuses`` (a later declaration of a character wins, as in the plugin)."""
    if status_settings is None:
        return {}
    if not isinstance(status_settings, Mapping):
        warnings.append(_unread("has statusSettings that are no object: the default statuses are used",
                                "set the statuses again in the plugin's options"))
        return {}
    declared: dict[str, str | None] = {}
    for group in ("coreStatuses", "customStatuses"):
        entries = status_settings.get(group, [])
        if not isinstance(entries, Sequence) or isinstance(entries, str):
            warnings.append(_unread(f"has {group} that are no list: they are not applied",
                                    "set the statuses again in the plugin's options"))
            continue
        for entry in entries:
            symbol = entry.get("symbol") if isinstance(entry, Mapping) else None
            kind = entry.get("type") if isinstance(entry, Mapping) else None
            if isinstance(symbol, str) and len(symbol) == 1 and kind in _TYPES:
                declared[symbol] = _TYPES[str(kind)]
            elif isinstance(symbol, str) and len(symbol) == 1:
                warnings.append(_unread(f"declares the status [{symbol}] with the type {kind!r}, which vaultmem does "
                                        f"not know: it is read as open", "give it one of " + ", ".join(_TYPES)))
    return declared


def _rules(global_filter: str, declared: Mapping[str, str | None]) -> TaskRules:
    """The defaults, each character the plugin declares read as it declares it."""
    def boxes(status: str | None, defaults: tuple[str, ...]) -> tuple[str, ...]:
        kept = tuple(box for box in defaults if box not in declared)
        return kept + tuple(box for box, meaning in declared.items() if meaning == status)

    return TaskRules(global_filter=global_filter, done=boxes("done", DONE_BOXES),
                     cancelled=boxes("cancelled", CANCELLED_BOXES), not_tasks=boxes(None, ()))


def _unread(what: str, fix: str) -> str:
    return f"{TASKS_SETTINGS} {what}; {fix} (meanwhile tasks are read by the plugin's defaults)"
