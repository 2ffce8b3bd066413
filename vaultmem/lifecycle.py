"""Is this memory alive? The one definition of "expired", layers and their TTLs.

Pure functions over data; time is always injectable through ``now``. The rules:

- A note is expired iff it has an ``expires_at`` and ``expires_at <= now``.
- Naive timestamps are UTC; a date alone is midnight UTC at the start of that day;
  offsets are honoured (instants are compared, never ISO text).
- A note without ``expires_at`` never expires. Metadata wins over layer defaults.
- L4 (procedural) and ``permanent: true`` carry no ``expires_at`` at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from .errors import Argument, InvalidDuration, InvalidTimestamp, UnknownLayer
from .jalali import solar_hijri_said

LAYERS: tuple[str, ...] = ("L1", "L2", "L3", "L4")
LAYER_ALIASES: dict[str, str] = {
    "working": "L1",
    "episodic": "L2",
    "semantic": "L3",
    "procedural": "L4",
}
LAYER_NAMES: dict[str, str] = {code: alias for alias, code in LAYER_ALIASES.items()}
PERMANENT_LAYER = "L4"
EXPIRING_LAYERS: tuple[str, ...] = tuple(code for code in LAYERS if code != PERMANENT_LAYER)  # must carry expires_at

DEFAULT_TTLS: dict[str, timedelta | None] = {
    "L1": timedelta(days=1),
    "L2": timedelta(days=7),
    "L3": timedelta(days=90),
    "L4": None,
}


@dataclass(frozen=True)
class LayerPolicy:
    """Default time-to-live per layer; ``None`` means the layer never expires."""

    ttls: Mapping[str, timedelta | None] = field(default_factory=lambda: dict(DEFAULT_TTLS))

    def ttl(self, layer: str) -> timedelta | None:
        code = normalize_layer(layer)
        if code == PERMANENT_LAYER:
            # L4 is permanent by definition; a config cannot give it a deadline.
            return None
        return self.ttls.get(code, DEFAULT_TTLS[code])


DEFAULT_POLICY = LayerPolicy()


def valid_layer_names() -> list[str]:
    return [f"{code} ({LAYER_NAMES[code]})" for code in LAYERS]


def normalize_layer(layer: object) -> str:
    """``'l3'``, ``'Semantic'`` → ``'L3'``; anything else raises :class:`UnknownLayer`."""
    if isinstance(layer, str):
        key = layer.strip()
        if key.upper() in LAYERS:
            return key.upper()
        if key.lower() in LAYER_ALIASES:
            return LAYER_ALIASES[key.lower()]
    raise UnknownLayer(layer, valid_layer_names())


def utc_now() -> datetime:
    return datetime.now(UTC)


# The instant to evaluate at (the API's `now`, the CLI's --as-of) as a person types it: the clock,
# or the clock a day on or back. A duration says its direction: a bare 7d is back from now as
# --since, and ahead as a preview of expiry would mean it (adr/0002).
_NOW_WORDS = {"now": 0, "today": 0, "tomorrow": 1, "yesterday": -1}
_SIGNED = re.compile(r"([+-])\s*(\d.*)", re.DOTALL)
AS_OF_ARGUMENT = Argument("now", flag="--as-of")
AS_OF_FORMS = ("give an ISO-8601 time such as 2026-12-24T18:00:00+01:00 (2026-12-24 alone: its midnight UTC), "
               "now or today (this instant), tomorrow or yesterday (24 hours ahead or back), "
               "or a duration with its direction: +7d (ahead), -12h (back)")


def resolve_now(now: object = None) -> datetime:
    """The instant to evaluate at: the clock when ``now`` is None, else ``now`` in any form
    :func:`parse_timestamp` reads, or as a person types it (:func:`_said_instant`). A text that
    is none of these is :class:`InvalidTimestamp` naming the forms."""
    if now is None:
        return utc_now()
    if not isinstance(now, str):
        return parse_timestamp(now)
    said = _said_instant(now)
    if said is not None:
        return said
    try:
        return parse_timestamp(now)
    except InvalidTimestamp as error:
        raise InvalidTimestamp(now, error.reason, AS_OF_ARGUMENT, AS_OF_FORMS) from None


def _said_instant(text: str) -> datetime | None:
    """``now`` / ``today`` (the clock), ``tomorrow`` / ``yesterday`` (24 hours ahead or back:
    the same look-ahead at any hour, as ``+1d``), ``+7d`` / ``-12h`` (a duration ahead or back
    from the clock); None for anything else. A duration without its sign is refused."""
    word = text.strip().casefold()
    if word in _NOW_WORDS:
        return _shifted(utc_now(), timedelta(days=_NOW_WORDS[word]), text)
    signed = _SIGNED.fullmatch(word)
    if signed is not None:
        try:
            length = parse_duration(signed[2])
        except InvalidDuration as error:
            if error.reason:  # longer than a thousand years
                raise InvalidTimestamp(text, f"a duration {error.reason}", AS_OF_ARGUMENT, error.fix) from None
            raise InvalidTimestamp(text, "not a duration after its sign", AS_OF_ARGUMENT,
                                   "give + or - and a number with a unit, e.g. +30m, -12h, +3d, +2w (or combined: +1d12h)") from None
        return _shifted(utc_now(), length if signed[1] == "+" else -length, text)
    if _DURATION.fullmatch(re.sub(r"\s+", "", word)):
        raise InvalidTimestamp(text, "a duration without a direction", AS_OF_ARGUMENT,
                               f"give +{word} ({word} from now) or -{word} ({word} ago)")
    return None


def _shifted(moment: datetime, by: timedelta, text: str) -> datetime:
    try:
        return moment + by
    except OverflowError:
        raise InvalidTimestamp(text, "beyond the years 1 to 9999", AS_OF_ARGUMENT, AS_OF_FORMS) from None


def parse_timestamp(value: object) -> datetime:
    """Everything YAML hands us for a point in time → an aware UTC ``datetime``.

    Accepts ISO-8601 strings (offset, ``Z``, ``T`` or space, date only), ``datetime``
    (naive means UTC), ``date`` (midnight UTC) and Unix time as a whole number of seconds
    or milliseconds (see ``_from_unix``). Anything else raises
    :class:`InvalidTimestamp` naming the value.
    """
    # bool is an int subclass and a date-like check would not catch it; refuse first.
    if isinstance(value, bool):
        raise InvalidTimestamp(value, "a boolean is not a time")
    if isinstance(value, datetime):
        return _as_utc(value)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, str):
        return _parse_iso(value)
    if isinstance(value, int):
        return _from_unix(value)
    kind = type(value).__name__
    raise InvalidTimestamp(value, f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} is not a time")


# Unix time as tools write it (Dendron's created/updated: milliseconds): ten digits of seconds
# or thirteen of milliseconds, 2001-09-09 to 2286-11-20. Other lengths stay invalid: twelve or
# fourteen digits are a Zettelkasten id (202612011200), not a time in 1976 or 2612.
_UNIX_SECONDS = range(10**9, 10**10)
_UNIX_MILLISECONDS = DENDRON_MILLISECONDS = range(10**12, 10**13)


def parse_as_written(value: object) -> datetime:
    """``value`` read as :func:`parse_timestamp` reads it (the same refusals), but kept in the
    zone it is written in: ``2026-12-09T10:00-08:00`` stays at -08:00, a time without a zone
    stays naive (the person's wall clock). What vaultmem writes back into a person's property;
    compare the :func:`parse_timestamp` of it, never this."""
    instant = parse_timestamp(value)
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):  # valid ISO text: parse_timestamp read it
        cleaned = value.strip()
        return datetime.fromisoformat(cleaned[:-1] + "+00:00" if cleaned[-1] in "zZ" else cleaned)
    return instant  # a date, a Unix time: UTC


def _from_unix(value: int) -> datetime:
    if value in _UNIX_SECONDS:
        return datetime.fromtimestamp(value, UTC)
    if value in _UNIX_MILLISECONDS:
        return datetime.fromtimestamp(value / 1000, UTC)
    raise InvalidTimestamp(value, "a number is a time only as Unix time: 10 digits of seconds or 13 of milliseconds")


def _as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        # e.g. 0001-01-01T00:00+05:00 lies before datetime.min in UTC; an escaping
        # OverflowError would crash a whole index/check run on one note.
        raise InvalidTimestamp(moment.isoformat(), "outside the range of representable dates") from None


def _parse_iso(text: str) -> datetime:
    cleaned = text.strip()
    if not cleaned:
        raise InvalidTimestamp(text, "empty")
    hijri = solar_hijri_said(cleaned)  # date: ۱۴۰۳-۰۵-۱۲ was read as a day in 1403 AD
    if hijri:
        raise InvalidTimestamp(text, hijri)
    if cleaned[-1] in "zZ":
        cleaned = cleaned[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(cleaned)
    except ValueError as error:
        # fromisoformat's own wording adds nothing to "invalid timestamp"; its range
        # errors ("month must be in 1..12") do, so keep only those.
        reason = "" if str(error).startswith("Invalid isoformat") else str(error)
        raise InvalidTimestamp(text, reason) from None
    return _as_utc(parsed)


def is_expired(expires_at: object, now: object = None) -> bool:
    """True iff ``expires_at`` is set and ``expires_at <= now``.

    ``None`` or an empty string means "never expires". Garbage raises
    :class:`InvalidTimestamp` — it is never silently alive or dead.
    """
    if is_absent(expires_at):
        return False
    return parse_timestamp(expires_at) <= resolve_now(now)


def is_absent(value: object) -> bool:
    """A frontmatter value that means "no expiry": missing, null or blank text."""
    return value is None or (isinstance(value, str) and not value.strip())


def format_timestamp(moment: datetime) -> str:
    """The form vaultmem writes: ISO-8601 in UTC with an explicit offset."""
    moment = _as_utc(moment)
    timespec = "microseconds" if moment.microsecond else "seconds"
    return moment.isoformat(timespec=timespec)


class ZuluTime(datetime):
    """A UTC time given with ``Z`` (``2026-12-09T19:30:00Z``), to be written back so by
    :func:`format_as_written`: a time the person or agent gives is written as given (adr/0003),
    and YAML and ISO read ``Z`` as UTC. Compared as any aware datetime is."""

    @classmethod
    def given(cls, moment: datetime) -> ZuluTime:
        """``moment`` (an aware UTC time) to be written with ``Z``."""
        return cls.combine(moment.date(), moment.timetz())

    # A time worked out from it is vaultmem's, not what was given: an `expires_at` counted from a
    # `created: …Z` was written with a Z (datetime arithmetic keeps the subclass), where vaultmem's
    # stamps are +00:00 (format_timestamp).
    def __add__(self, other: timedelta) -> datetime:  # type: ignore[override]
        return _plain(super().__add__(other))

    def __radd__(self, other: timedelta) -> datetime:  # type: ignore[override]
        return _plain(super().__radd__(other))

    def __sub__(self, other: Any) -> Any:  # minus a timedelta: a plain time; minus a time: a timedelta, as ever
        result = super().__sub__(other)
        return _plain(result) if isinstance(result, datetime) else result

    def astimezone(self, tz: tzinfo | None = None) -> datetime:  # type: ignore[override]
        return _plain(super().astimezone(tz))


def _plain(moment: datetime) -> datetime:
    return datetime.combine(moment.date(), moment.timetz())


def as_given(text: str, moment: datetime) -> datetime:
    """``moment``, read from ``text``, as a :class:`ZuluTime` when ``text`` gives it with ``Z``
    (or ``z``); else ``moment`` itself."""
    return ZuluTime.given(moment) if text.strip()[-1:] in ("Z", "z") and moment.utcoffset() == timedelta(0) else moment


def format_as_written(moment: datetime) -> str:
    """A time as a person's property holds it, in its own zone: ``2026-12-09T10:00:00-08:00``
    (not moved to UTC, where Obsidian showed 18:00 for a 10:00 appointment); a time without a
    zone, the person's wall clock, as Obsidian's Date & time property writes it
    (``2026-12-09T10:00``, seconds only when it has them). A UTC time reads as
    :func:`format_timestamp` writes it, or with ``Z`` when it was given so (:class:`ZuluTime`).
    Comparisons still go through :func:`parse_timestamp`."""
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        timespec = "microseconds" if moment.microsecond else "seconds" if moment.second else "minutes"
        return moment.replace(tzinfo=None).isoformat(timespec=timespec)
    _as_utc(moment)  # refused as it is everywhere: a time no UTC instant holds could never be compared
    written = moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds")
    zulu = isinstance(moment, ZuluTime) and written.endswith("+00:00")  # not one replace() moved to another zone
    return written.removesuffix("+00:00") + "Z" if zulu else written


def to_epoch_us(moment: datetime) -> int:
    """Microseconds since the epoch, exact: the SQL expiry filter compares these."""
    delta = _as_utc(moment) - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_epoch_us(epoch_us: int) -> datetime:
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=epoch_us)


# The index stores each note's expiry as epoch microseconds (NULL: never expires); these
# two are the rule above on that column, for SQL and for a row already read. Every query
# that decides expiry asks expiry_sql: written out per query, the rule had seven chances
# to disagree (a ``<`` for a ``<=``, a NULL dropped). See adr/0002-expiry-semantics.md.
_SQL_COLUMN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?")


def expiry_sql(column: str, now_us: int, *, expired: bool = False) -> tuple[str, list[int]]:
    """The SQL predicate (and its parameters) for "alive at ``now_us``" on an epoch-µs column.

    Alive iff the column is NULL (never expires) or strictly later than now; with
    ``expired``, its exact complement: set and ``<= now`` (the boundary instant is expired).
    """
    if not _SQL_COLUMN.fullmatch(column):
        raise ValueError(f"{column!r} is not a column name")
    if expired:
        return f"({column} IS NOT NULL AND {column} <= ?)", [int(now_us)]
    return f"({column} IS NULL OR {column} > ?)", [int(now_us)]


def is_expired_us(expires_us: int | None, now_us: int) -> bool:
    """:func:`is_expired` on the index's epoch-µs value (``None``: never expires)."""
    return expires_us is not None and expires_us <= now_us


def build_expiry_filter(include_expired: bool = False, now: object = None) -> dict[str, Any]:
    """A Qdrant filter that keeps notes that are alive at ``now``.

    It keeps points whose ``expires_at`` is absent or null *and* points whose
    ``expires_at`` is after ``now``. Only ``include_expired=True`` returns ``{}`` —
    on purpose, for callers that want every note (a cleanup job).
    """
    if include_expired:
        return {}
    moment = format_timestamp(resolve_now(now))
    return {
        "should": [
            {"is_empty": {"key": "expires_at"}},  # absent, null or []
            {"key": "expires_at", "match": {"value": ""}},  # blank text also means "never"
            {"key": "expires_at", "range": {"gt": moment}},
        ]
    }


def expires_at_for(
    layer: str, now: object = None, *, policy: LayerPolicy = DEFAULT_POLICY
) -> str | None:
    """The default ``expires_at`` for a note of ``layer`` written at ``now``; L4 → ``None``."""
    ttl = policy.ttl(layer)
    if ttl is None:
        return None
    return format_timestamp(add_duration(resolve_now(now), ttl, f"{format_duration(ttl)} ({normalize_layer(layer)} TTL)"))


def is_permanent(meta: Mapping[str, Any]) -> bool:
    """``permanent: true`` in the frontmatter (only a real YAML boolean counts)."""
    return meta.get("permanent") is True


def apply_layer_ttl(
    layer: str | None,
    meta: MutableMapping[str, Any],
    now: object = None,
    *,
    policy: LayerPolicy = DEFAULT_POLICY,
) -> MutableMapping[str, Any]:
    """Give ``meta`` its layer's default ``expires_at`` unless it has one of its own.

    Metadata wins: an existing ``expires_at`` is kept. L4 and ``permanent: true``
    remove the key entirely — its absence is the assertion, never ``expires_at: null``.
    A note without a layer gets no default. Returns the same mapping.
    """
    code = normalize_layer(layer) if layer is not None else None
    if code == PERMANENT_LAYER or is_permanent(meta):
        meta.pop("expires_at", None)
        return meta
    if code is not None and is_absent(meta.get("expires_at")):
        default = expires_at_for(code, now, policy=policy)
        if default is not None:
            meta["expires_at"] = default
    return meta


_DURATION = re.compile(r"(?:\d+[smhdw])+")
_DURATION_PART = re.compile(r"(\d+)([smhdw])")
_DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}
MAX_DURATION_DAYS = 365_000  # a thousand years: longer than any memory, and now + it is still a date
_SHORTER = f"give a shorter duration, at most {MAX_DURATION_DAYS}d"
_MAX_DURATION_DIGITS = 12


def parse_duration(value: object) -> timedelta:
    """``'3d'``, ``'12h'``, ``'2w'``, ``'1d12h'`` → ``timedelta``; else :class:`InvalidDuration`.

    At most :data:`MAX_DURATION_DAYS`: ``3000000d`` would overflow every date it is added to.
    """
    if not isinstance(value, str):
        raise InvalidDuration(value)
    text = re.sub(r"\s+", "", value).lower()
    if len(text) > 64 or not _DURATION.fullmatch(text):
        raise InvalidDuration(value)
    parts = _DURATION_PART.findall(text)
    if any(len(amount.lstrip("0")) > _MAX_DURATION_DIGITS for amount, _ in parts):
        raise InvalidDuration(value, f"longer than {MAX_DURATION_DAYS}d, a thousand years", _SHORTER)
    seconds = sum(int(amount) * _DURATION_UNITS[unit] for amount, unit in parts)
    if seconds <= 0:
        raise InvalidDuration(value)
    if seconds > MAX_DURATION_DAYS * 86_400:
        raise InvalidDuration(value, f"longer than {MAX_DURATION_DAYS}d, a thousand years", _SHORTER)
    return timedelta(seconds=seconds)


def add_duration(moment: datetime, ttl: timedelta, what: object) -> datetime:
    """``moment + ttl``, or :class:`InvalidDuration` naming ``what`` when that is past year 9999."""
    try:
        return moment + ttl
    except OverflowError:
        raise InvalidDuration(what, f"{format_timestamp(moment)} plus it lies past year 9999", _SHORTER) from None


def format_duration(ttl: timedelta | None) -> str:
    if ttl is None:
        return "never"
    seconds = int(ttl.total_seconds())
    for unit, size in (("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"
