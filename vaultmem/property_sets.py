"""``revise --set KEY=VALUE`` / ``--unset KEY``: a person's properties an agent may change (pure).

"Matt moved to Acme" was only text appended under a ``company: Social Leverage`` that stayed
(a trial on a people vault). A property is set or removed in place through the one field
editor (field_edits.py): the other keys, their order and the body stay as they were.

A value is typed as YAML would read it when written bare — ``2026-02-01`` stays a date,
``3`` a number, ``true`` a checkbox, ``[a, b]`` a list; anything else is text; a comma-separated
value for a key that holds a list is that list. Keys are refused that vaultmem keeps
(``id``, ``superseded_by`` …: a memory's identity and its history) or that have options of
their own and the policy behind them (``tags``: --tag/--untag); ``layer``, ``expires_at`` and
``permanent`` are taken as those options (validated, and the layer's TTL applied, as
``--layer`` is); a key that dates a note must hold a date (adr/0019).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import yaml

from .errors import Argument, InvalidTimestamp, UsageError, short_repr
from .lifecycle import parse_timestamp
from .logseq import ID_PROPERTY
from .notes import YAML_LOADER

SET, UNSET = Argument("set_properties", flag="--set"), Argument("unset_properties", flag="--unset")
DATE = Argument("date")
# A memory's identity and history, written by remember, forget, supersede and consolidate.
OWNED_KEYS = frozenset({"id", "superseded_by", "supersedes", "merged_from", ID_PROPERTY})
# Keys that are options of their own: set so, they are those options (Revision.of).
LIFECYCLE_KEYS = ("layer", "expires_at", "permanent")
_OPTION_FOR = {"tags": "--tag/--untag (tag/untag)", "tag": "--tag/--untag (tag/untag)"}
# A key as a person types one in Obsidian's property editor or a Logseq `key::` line: no colon,
# no line break, not opening with a YAML indicator.
_KEY = re.compile(r"[^\W_][\w .-]{0,99}")
# An emoji a key may open with, as Dataview and habit-tracker vaults name theirs (`📱social`,
# `🏋️‍♂️exercise`, `📚reading`): a symbol with its variation selector, joiners and modifiers.
# Refused, a trial on a Persian vault could not revise the properties its journal keeps.
_EMOJI_OPENING = re.compile("(?:[\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff][\ufe0f\u200d\u2640\u2642"
                            "\U0001f3fb-\U0001f3ff]*)+")
MAX_VALUE_CHARS = 2000


@dataclass(frozen=True)
class PropertyEdit:
    """Properties to set (in the order given) and to remove, validated."""

    set_values: tuple[tuple[str, Any], ...] = ()
    unset: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.set_values or self.unset)

    def value(self, key: str) -> Any:
        return dict(self.set_values)[key]

    def without(self, keys: Iterable[str]) -> PropertyEdit:
        dropped = set(keys)
        return PropertyEdit(tuple(item for item in self.set_values if item[0] not in dropped),
                            tuple(key for key in self.unset if key not in dropped))


def assignments(texts: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` texts (the CLI's ``--set``) as a mapping; a text without ``=`` is refused."""
    parsed: dict[str, str] = {}
    for text in texts:
        key, equals, value = text.partition("=")
        if not equals:
            raise UsageError(SET, f" {short_repr(text)} has no '='; write it KEY=VALUE (company=Acme)")
        parsed[key.strip()] = value.strip()
    return parsed


def property_edit(set_properties: Mapping[str, object] | None, unset: Iterable[str],
                  date_keys: Iterable[str] = ()) -> PropertyEdit:
    """Validated keys and typed values; :class:`UsageError` naming the key and the fix."""
    if set_properties is not None and not isinstance(set_properties, Mapping):
        raise UsageError(SET, f" is {short_repr(set_properties)}; give a mapping of property to value ({{\"company\": \"Acme\"}})")
    dating = {key.casefold() for key in date_keys}
    values = tuple((_checked_key(key, SET), _typed(key, value, dating)) for key, value in (set_properties or {}).items())
    removed = tuple(_checked_key(key, UNSET) for key in unset)
    both = sorted({key for key, _ in values} & set(removed))
    if both:
        raise UsageError(f"{', '.join(both)} both set (", SET, ") and removed (", UNSET, "); give each once")
    return PropertyEdit(values, tuple(dict.fromkeys(removed)))


def with_date(set_properties: Mapping[str, object] | None, day: object, key: str) -> Mapping[str, object] | None:
    """``set_properties`` with revise's ``date`` (the day the memory is about, read as remember
    reads its ``date``: writer.memory_day) under ``key``, the property remember dates a memory by. An agent moving an
    appointment changed the text alone: the note's date stayed the old day, so a list of that day
    still showed the appointment that had moved away from it (a three-day agent trial)."""
    if day is None:
        return set_properties
    if any(_key_form(name) == _key_form(key) for name in (set_properties or {}) if isinstance(name, str)):
        raise UsageError(DATE, " contradicts ", SET, f" {key}: both set the day the note is about; give it once")
    return {**(set_properties or {}), key: day}


def _checked_key(key: object, argument: Argument) -> str:
    opening = _EMOJI_OPENING.match(key.strip()) if isinstance(key, str) else None
    rest = key.strip()[opening.end():] if isinstance(key, str) and opening else key
    if (not isinstance(key, str) or not isinstance(rest, str) or not _KEY.fullmatch(rest.strip())
            or rest.strip() != rest.strip().rstrip(" .-")):
        raise UsageError(argument, f" {short_repr(key)} is not a property name: letters, digits, '_', '-', '.' "
                         "and spaces, opening with a letter or digit (or an emoji before them, 📱social)")
    name = key.strip()
    # Compared in any case (and - as _, as a Logseq page spells a field): property names are one
    # in any case (revision._as_held writes `ID` into the note's `id:`), so `--set ID=…` was the
    # note's identity rewritten past this refusal, `--set Layer=L1` a layer without its TTL.
    folded = _key_form(name)
    owned = next((owned for owned in sorted(OWNED_KEYS) if _key_form(owned) == folded), None)
    if owned is not None:
        raise UsageError(argument, f" {name}: vaultmem keeps {owned} (a memory's identity or history: remember, "
                         "forget, supersede and consolidate write it); it cannot be set by hand here")
    if folded in _OPTION_FOR:
        raise UsageError(argument, f" {name}: change tags with {_OPTION_FOR[folded]}, which keep the note's own #tags apart")
    lifecycle = next((known for known in LIFECYCLE_KEYS if known == folded), None)
    if argument is UNSET and lifecycle is not None:
        raise UsageError(UNSET, f" {name}: a memory's {lifecycle} follows its layer's policy; give ", Argument("layer"),
                         ", ", Argument("ttl"), " or ", Argument("permanent"), " instead")
    return lifecycle or name  # `--set Layer=L3` is `--set layer=L3`, which is `--layer L3` (revision.Revision.of)


def _key_form(name: str) -> str:
    """A key as vaultmem's own keys are compared: in any case, ``-`` as ``_``."""
    return name.casefold().replace("-", "_")


def _typed(key: str, value: object, dating: set[str]) -> Any:
    typed = _as_written(_typed_text(key, value) if isinstance(value, str) else value)
    if typed is None or (isinstance(typed, str) and not typed.strip()):
        raise UsageError(SET, f" {key} is empty; give its value, or remove the property (", UNSET, f" {key})")
    flat = _is_scalar(typed) or (isinstance(typed, list) and all(_is_scalar(item) for item in typed))
    if not flat:
        raise UsageError(SET, f" {key}: {short_repr(value)} is neither text, a number, a date, true/false "
                         "nor a list of those")
    if len(repr(typed)) > MAX_VALUE_CHARS:
        raise UsageError(SET, f" {key} is longer than {MAX_VALUE_CHARS:,} characters; put the rest in the text")
    if key.casefold() in dating:
        _require_date(key, typed)
    return typed


def _typed_text(key: str, text: str) -> Any:
    """A number, ``true``/``false``, an ISO date or time, or a ``[a, b]`` list as written; else the
    text. Not YAML 1.1's every reading: ``on`` is no checkbox, ``02134`` no octal number, ``1:30``
    no sexagesimal 90, and ``#ff0000`` or ``a #b`` are not a comment — each stays the text typed."""
    if "\n" in text or "\r" in text:
        raise UsageError(SET, f" {key} holds a line break; a property is one line (put longer text in the note)")
    value = text.strip()
    if value.startswith("[") and value.endswith("]"):
        try:  # every item as text first (BaseLoader), then typed as one value is
            items = yaml.load(value, Loader=yaml.BaseLoader)
        except yaml.YAMLError:
            return value
        return [_typed_scalar(item) if isinstance(item, str) else item for item in items]
    return _typed_scalar(value)


def _typed_scalar(value: str) -> Any:
    if _INTEGER.fullmatch(value):
        return int(value)
    if _DECIMAL.fullmatch(value):
        return float(value)
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    if _ISO_DAY.match(value):
        loaded = yaml.load(value, Loader=YAML_LOADER)  # a day that is no day (2026-02-30) stays text
        if isinstance(loaded, date):
            return loaded
    return value


_INTEGER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_DECIMAL = re.compile(r"[-+]?[0-9]+\.[0-9]+")
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:$|[T ])")


def _as_written(value: Any) -> Any:
    """A time as it is written and read back (noteio.render_scalar): one with a zone in that
    zone, one without as the person's wall clock, naive (adr/0003 "Times in the person's zone").
    A tzinfo that gives no offset is no zone. Was: a naive time was made UTC here, and
    ``--set date=2026-12-09T10:00:30`` wrote ``…+00:00`` where ``remember`` wrote it as given."""
    if isinstance(value, list):
        return [_as_written(item) for item in value]
    if isinstance(value, datetime) and value.tzinfo is not None and value.utcoffset() is None:
        return value.replace(tzinfo=None)
    return value


def _is_scalar(value: object) -> bool:
    return isinstance(value, (str, int, float, date)) and not (isinstance(value, str) and "\n" in value)


def _require_date(key: str, value: object) -> None:
    try:
        parse_timestamp(value)
    except InvalidTimestamp as error:
        detail = f" ({error.reason})" if error.reason else ""
        raise UsageError(SET, f" {key}: {short_repr(value)} is not a date{detail}, and {key} dates the note; "
                         "write it YYYY-MM-DD or as an ISO-8601 time") from None


def as_list_where_listed(value: Any, current: Any) -> Any:
    """A comma-separated text set on a key that holds a list is that list (``aliases=Matt, Matty``)."""
    if isinstance(current, list) and isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return value
