"""The one definition of "expired", layers and TTLs — and three places that must agree on it.

The Python predicate (``is_expired``), the SQL predicate every index query takes from
``expiry_sql`` (and its twin ``is_expired_us`` on a row already read) and the Qdrant filter
dict (``build_expiry_filter``) are checked against each other here, including the exact
boundary instant.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import NOW
from vaultmem import (
    InvalidTimestamp,
    LayerPolicy,
    UnknownLayer,
    apply_layer_ttl,
    build_expiry_filter,
    expires_at_for,
    is_expired,
    normalize_layer,
    parse_duration,
    parse_timestamp,
)
from vaultmem.errors import InvalidDuration
from vaultmem.lifecycle import ZuluTime, expiry_sql, format_timestamp, is_expired_us, resolve_now, to_epoch_us
from vaultmem.notes import epoch_us_or_none, parse_note
from vaultmem.option_names import Surface
from vaultmem.storage import Eligibility

UTC = timezone.utc
NOW_DT = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
assert parse_timestamp(NOW) == NOW_DT


# ---------------------------------------------------------------- parse_timestamp / is_expired


def test_naive_expires_at_in_the_past_counts_as_expired() -> None:
    # The predecessor compared naive with aware, caught the TypeError and said "alive".
    assert is_expired("2026-11-02T09:00:00", now=NOW) is True
    assert is_expired(datetime(2026, 11, 2, 9, 0), now=NOW) is True


def test_naive_timestamp_is_read_as_utc() -> None:
    assert parse_timestamp("2026-11-02T09:00:00") == datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    assert parse_timestamp(datetime(2026, 11, 2, 9, 0)) == datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    # naive "now" is UTC as well
    assert is_expired("2026-11-30T12:00:00+00:00", now=datetime(2026, 11, 30, 12, 0)) is True


def test_naive_expires_at_in_the_future_is_alive_with_an_aware_now() -> None:
    assert is_expired("2027-02-15T12:00:00", now=NOW) is False


def test_offsets_are_honoured_not_compared_as_text() -> None:
    # As text "2026-11-30T15..." sorts after now's "2026-11-30T12...", but the instant is 10:00Z.
    assert is_expired("2026-11-30T15:00:00+05:00", now=NOW) is True
    # As text "2026-11-30T09..." sorts before now, but the instant is 14:00Z.
    assert is_expired("2026-11-30T09:00:00-05:00", now=NOW) is False
    assert parse_timestamp("2026-11-30T15:00:00+05:00") == datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


def test_now_with_an_offset_is_the_same_instant_in_utc() -> None:
    assert is_expired("2026-11-30T11:00:00Z", now="2026-11-30T12:59:59+02:00") is False  # 10:59:59Z
    assert is_expired("2026-11-30T11:00:00Z", now="2026-11-30T12:00:00+01:00") is True  # 11:00Z


def test_the_boundary_instant_is_expired() -> None:
    assert is_expired("2026-11-30T12:00:00Z", now=NOW) is True
    assert is_expired("2026-11-30T17:00:00+05:00", now=NOW) is True  # the same instant, other offset
    assert is_expired("2026-11-30T12:00:00.000001Z", now=NOW) is False


@pytest.mark.parametrize("text", ["2026-11-13T00:00:00Z", "2026-11-13T00:00:00z", "2026-11-13T00:00:00+00:00"])
def test_z_suffix_means_utc(text: str) -> None:
    assert parse_timestamp(text) == datetime(2026, 11, 13, tzinfo=UTC)


def test_space_separator_is_accepted_like_t() -> None:
    assert parse_timestamp("2026-11-30 12:00:00+01:00") == parse_timestamp("2026-11-30T12:00:00+01:00")


def test_date_only_means_midnight_utc_at_the_start_of_that_day() -> None:
    assert parse_timestamp("2026-10-31") == datetime(2026, 10, 31, tzinfo=UTC)
    assert parse_timestamp(date(2026, 10, 31)) == datetime(2026, 10, 31, tzinfo=UTC)
    # A date that is "today" is already expired at noon: it ended its life at 00:00 UTC.
    assert is_expired("2026-11-30", now=NOW) is True
    assert is_expired(date(2026, 12, 1), now="2026-11-30T23:59:59Z") is False
    assert is_expired(date(2026, 12, 1), now="2026-12-01T00:00:00Z") is True
    # 23:30 at -01:00 is already 00:30 UTC on 1 December.
    assert is_expired("2026-12-01", now="2026-11-30T23:30:00-01:00") is True


def test_date_only_is_not_the_end_of_the_day() -> None:
    assert is_expired("2026-12-01", now="2026-12-01T00:00:01Z") is True


@pytest.mark.parametrize(
    ("yaml_value", "python_type", "instant"),
    [
        ("2026-12-01", date, datetime(2026, 12, 1, tzinfo=UTC)),
        ("2026-12-01T10:00:00", datetime, datetime(2026, 12, 1, 10, tzinfo=UTC)),
        ("2026-12-01T10:00:00Z", ZuluTime, datetime(2026, 12, 1, 10, tzinfo=UTC)),  # kept as given with Z
        ("2026-12-01T10:00:00+05:00", datetime, datetime(2026, 12, 1, 5, tzinfo=UTC)),
        ("2026-12-01 10:00:00", datetime, datetime(2026, 12, 1, 10, tzinfo=UTC)),
        ("2026-12-01T10:00", str, datetime(2026, 12, 1, 10, tzinfo=UTC)),
        ('"2026-12-01T10:00:00+05:00"', str, datetime(2026, 12, 1, 5, tzinfo=UTC)),
    ],
)
def test_values_typed_by_yaml_from_real_files_parse_to_the_right_instant(
    yaml_value: str, python_type: type, instant: datetime
) -> None:
    note = parse_note("n.md", f"---\nlayer: L3\nexpires_at: {yaml_value}\n---\nbody\n".encode())
    assert type(note.expires_at) is python_type  # what PyYAML really hands us
    assert parse_timestamp(note.expires_at) == instant
    assert is_expired(note.expires_at, now=instant) is True
    assert is_expired(note.expires_at, now=instant - timedelta(microseconds=1)) is False


def test_yaml_naive_datetime_from_a_file_expires() -> None:
    note = parse_note("n.md", b"---\nlayer: L2\nexpires_at: 2026-11-02T09:00:00\n---\nbody\n")
    assert isinstance(note.expires_at, datetime) and note.expires_at.tzinfo is None
    assert is_expired(note.expires_at, now=NOW) is True


@pytest.mark.parametrize(
    "value",
    ["next tuesday", "2026-13-45", "31/12/2026", "tomorrow", "2026-12-01T25:00:00", True, False, 3, 3.5, ["2026-12-01"], {"at": "2026-12-01"}],
)
def test_garbage_raises_invalid_timestamp_naming_the_value(value: object) -> None:
    with pytest.raises(InvalidTimestamp) as caught:
        parse_timestamp(value)
    assert isinstance(caught.value, ValueError)
    assert repr(value) in str(caught.value) or str(value) in str(caught.value)


@pytest.mark.parametrize("value", ["next tuesday", True, 2026, 30, "2026-13-45"])
def test_is_expired_raises_on_garbage_instead_of_answering(value: object) -> None:
    # Never silently alive (False) nor silently dead (True).
    with pytest.raises(InvalidTimestamp):
        is_expired(value, now=NOW)


def test_a_whole_number_is_unix_time_in_seconds_or_milliseconds_from_2001_on() -> None:
    # Dendron writes created: 1700000000000 (milliseconds); other tools write seconds.
    assert parse_timestamp(1764504000) == datetime(2025, 11, 30, 12, tzinfo=timezone.utc)
    assert parse_timestamp(1700000000000) == datetime(2023, 11, 14, 22, 13, 20, tzinfo=timezone.utc)
    assert parse_timestamp(1700000000123).microsecond == 123000
    assert is_expired(1764504000, now=NOW) is True  # NOW is 2026-11-30T12:00Z: a year after
    # a year, a count of days, before 2001, and Zettelkasten ids (12 and 14 digits): not 1976 or 2612
    for other in (2026, 30, 999_999_999, 202612011200, 20261201120000, 10**13):
        with pytest.raises(InvalidTimestamp, match="only as Unix time: 10 digits of seconds or 13 of milliseconds"):
            parse_timestamp(other)


def test_a_value_that_is_not_a_time_is_named_with_its_article_and_dates_as_written() -> None:
    with pytest.raises(InvalidTimestamp) as caught:
        parse_timestamp([date(2026, 11, 30)])
    assert "invalid timestamp [2026-11-30] (a list is not a time)" in str(caught.value)  # not [datetime.date(2026, 11, 30)]
    with pytest.raises(InvalidTimestamp, match=r"\(an? float is not a time\)"):
        parse_timestamp(3.5)


@pytest.mark.parametrize("value", [None, "", "   "])
def test_a_missing_or_blank_expires_at_never_expires(value: object) -> None:
    assert is_expired(value, now=NOW) is False
    assert is_expired(value, now="9999-12-31") is False


def test_empty_string_is_not_a_timestamp() -> None:
    with pytest.raises(InvalidTimestamp):
        parse_timestamp("")


def test_garbage_now_raises() -> None:
    with pytest.raises(InvalidTimestamp):
        is_expired("2026-12-01", now="whenever")


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-05:00"])
def test_a_timestamp_outside_the_representable_range_is_invalid_not_a_crash(value: str) -> None:
    # Converting these to UTC overflows; an OverflowError escaping here crashed the whole
    # index and check runs on one note.
    with pytest.raises(InvalidTimestamp):
        parse_timestamp(value)
    note = parse_note("n.md", f"---\nlayer: L1\nexpires_at: {value}\n---\nbody\n".encode())
    assert [problem.field for problem in note.problems] == ["expires_at"]


def test_now_defaults_to_the_clock() -> None:
    assert is_expired("2000-01-01") is True
    assert is_expired("9999-01-01") is False


# ---------------------------------------------------------------- the Qdrant filter dict


def test_the_default_filter_is_never_empty() -> None:
    assert build_expiry_filter(now=NOW) != {}
    assert build_expiry_filter() != {}
    assert build_expiry_filter(include_expired=False, now=NOW) != {}


def test_include_expired_is_the_only_way_to_get_an_empty_filter() -> None:
    assert build_expiry_filter(include_expired=True) == {}
    assert build_expiry_filter(include_expired=True, now=NOW) == {}


def test_the_filter_is_evaluated_at_the_injected_now() -> None:
    assert build_expiry_filter(now=NOW) != build_expiry_filter(now="2027-01-01T00:00:00Z")
    assert build_expiry_filter(now=NOW) == build_expiry_filter(now="2026-11-30T13:00:00+01:00")


def test_the_filter_does_not_use_the_fixed_filter_that_drops_permanent_notes() -> None:
    # {"must": [{"key": "expires_at", "range": {"gt": now}}]} drops every note without
    # expires_at. The only top-level clause may be "should", with an is_empty branch.
    built = build_expiry_filter(now=NOW)
    assert "must" not in built
    assert {"is_empty": {"key": "expires_at"}} in built["should"]


QDRANT_PAYLOADS: list[tuple[str, dict[str, object]]] = [
    ("naive past", {"expires_at": "2026-11-02T09:00:00"}),
    ("naive future", {"expires_at": "2027-02-15T12:00:00"}),
    ("naive boundary", {"expires_at": "2026-11-30T12:00:00"}),
    ("space separator future", {"expires_at": "2026-11-30 12:00:01"}),
    ("offset, text later but instant earlier", {"expires_at": "2026-11-30T15:00:00+05:00"}),
    ("offset, text earlier but instant later", {"expires_at": "2026-11-30T09:00:00-05:00"}),
    ("offset boundary", {"expires_at": "2026-11-30T17:00:00+05:00"}),
    ("offset one second after", {"expires_at": "2026-11-30T13:00:01+01:00"}),
    ("Z past", {"expires_at": "2026-11-13T00:00:00Z"}),
    ("Z boundary", {"expires_at": "2026-11-30T12:00:00Z"}),
    ("Z one microsecond after", {"expires_at": "2026-11-30T12:00:00.000001Z"}),
    ("Z future", {"expires_at": "2027-01-06T00:00:00Z"}),
    ("date-only today (midnight passed)", {"expires_at": "2026-11-30"}),
    ("date-only past", {"expires_at": "2026-10-31"}),
    ("date-only tomorrow", {"expires_at": "2026-12-01"}),
    ("null", {"expires_at": None}),
    ("absent", {"title": "permanent note"}),
    ("empty payload", {}),
]


@pytest.fixture(scope="module")
def qdrant_collection() -> object:
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")
    client.create_collection("notes", vectors_config=models.VectorParams(size=2, distance=models.Distance.COSINE))
    client.upsert(
        "notes",
        points=[models.PointStruct(id=number, vector=[1.0, 0.5], payload=payload) for number, (_, payload) in enumerate(QDRANT_PAYLOADS)],
    )
    return client


def _qdrant_alive(client: object, now: object) -> set[int]:
    from qdrant_client import models

    expiry_filter = models.Filter.model_validate(build_expiry_filter(now=now))
    points, _ = client.scroll("notes", scroll_filter=expiry_filter, limit=1000)  # type: ignore[attr-defined]
    return {int(point.id) for point in points}


@pytest.mark.parametrize(
    "now",
    [NOW, "2026-11-30T13:00:00+01:00", "2026-11-30T12:00:00.000001Z", "2026-11-30T11:59:59Z", "2026-12-01", "2027-02-15T12:00:00"],
)
def test_default_filter_agrees_with_is_expired_in_qdrant_local_engine(qdrant_collection: object, now: str) -> None:
    returned = _qdrant_alive(qdrant_collection, now)
    expected = {
        number for number, (_, payload) in enumerate(QDRANT_PAYLOADS) if not is_expired(payload.get("expires_at"), now=now)
    }
    disagreements = sorted(QDRANT_PAYLOADS[n][0] for n in returned ^ expected)
    assert disagreements == []


def test_default_filter_keeps_notes_without_expires_at_in_qdrant(qdrant_collection: object) -> None:
    returned = _qdrant_alive(qdrant_collection, "9999-12-31T00:00:00Z")
    kept = {QDRANT_PAYLOADS[number][0] for number in returned}
    assert kept == {"null", "absent", "empty payload"}


def test_a_blank_expires_at_is_kept_by_the_qdrant_filter_as_is_expired_keeps_it() -> None:
    from qdrant_client import QdrantClient, models

    assert is_expired("", now=NOW) is False
    client = QdrantClient(":memory:")
    client.create_collection("blank", vectors_config=models.VectorParams(size=2, distance=models.Distance.COSINE))
    client.upsert("blank", points=[models.PointStruct(id=1, vector=[1.0, 0.0], payload={"expires_at": ""})])
    points, _ = client.scroll("blank", scroll_filter=models.Filter.model_validate(build_expiry_filter(now=NOW)), limit=10)
    assert [int(point.id) for point in points] == [1]


def test_empty_filter_returns_every_point_in_qdrant(qdrant_collection: object) -> None:
    from qdrant_client import models

    points, _ = qdrant_collection.scroll(  # type: ignore[attr-defined]
        "notes", scroll_filter=models.Filter.model_validate(build_expiry_filter(include_expired=True)), limit=1000
    )
    assert len(points) == len(QDRANT_PAYLOADS)


# ---------------------------------------------------------------- layers and TTLs


@pytest.mark.parametrize(
    ("given_name", "code"),
    [("L1", "L1"), ("l2", "L2"), (" L3 ", "L3"), ("working", "L1"), ("Episodic", "L2"), ("SEMANTIC", "L3"), ("procedural", "L4")],
)
def test_layer_names_are_case_insensitive_and_accept_aliases(given_name: str, code: str) -> None:
    assert normalize_layer(given_name) == code


@pytest.mark.parametrize("layer", ["L5", "long-term", "", None, 3])
def test_unknown_layer_is_a_value_error_naming_the_layer_and_the_valid_ones(layer: object) -> None:
    with pytest.raises(UnknownLayer) as caught:
        normalize_layer(layer)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert repr(layer) in message
    assert all(name in message for name in ("L1", "L2", "L3", "L4", "working", "procedural"))


@pytest.mark.parametrize(("layer", "ttl"), [("L1", timedelta(days=1)), ("episodic", timedelta(days=7)), ("l3", timedelta(days=90))])
def test_expires_at_for_is_now_plus_the_layer_default_ttl(layer: str, ttl: timedelta) -> None:
    written = expires_at_for(layer, now=NOW)
    assert written is not None
    assert parse_timestamp(written) == NOW_DT + ttl


def test_written_expiries_are_iso_utc_strings_with_an_explicit_offset() -> None:
    written = expires_at_for("L1", now="2026-11-30T13:30:00+01:00")
    assert written == "2026-12-01T12:30:00+00:00"
    assert datetime.fromisoformat(written).utcoffset() == timedelta(0)


def test_expires_at_for_l4_is_none() -> None:
    assert expires_at_for("L4", now=NOW) is None
    assert expires_at_for("procedural", now=NOW) is None


def test_expires_at_for_unknown_layer_raises() -> None:
    with pytest.raises(UnknownLayer):
        expires_at_for("L9", now=NOW)


def test_expires_at_for_uses_the_vault_policy_override() -> None:
    policy = LayerPolicy({"L1": timedelta(hours=6), "L2": timedelta(days=7), "L3": timedelta(days=90), "L4": None})
    assert parse_timestamp(expires_at_for("L1", now=NOW, policy=policy)) == NOW_DT + timedelta(hours=6)


def test_a_policy_cannot_give_l4_a_deadline() -> None:
    policy = LayerPolicy({"L1": timedelta(days=1), "L2": timedelta(days=7), "L3": timedelta(days=90), "L4": timedelta(days=1)})
    assert expires_at_for("L4", now=NOW, policy=policy) is None


def test_metadata_wins_over_the_layer_default() -> None:
    meta = {"title": "x", "expires_at": "2026-12-24T18:00:00+01:00"}
    result = apply_layer_ttl("L1", meta, now=NOW)
    assert result is meta
    assert meta == {"title": "x", "expires_at": "2026-12-24T18:00:00+01:00"}


def test_metadata_wins_even_when_its_expiry_has_passed_or_is_yaml_typed() -> None:
    past = {"expires_at": date(2026, 1, 1)}
    assert apply_layer_ttl("L3", past, now=NOW) == {"expires_at": date(2026, 1, 1)}


def test_the_layer_default_is_applied_when_expires_at_is_absent() -> None:
    meta: dict[str, object] = {"title": "x"}
    apply_layer_ttl("episodic", meta, now=NOW)
    assert list(meta) == ["title", "expires_at"]
    assert parse_timestamp(meta["expires_at"]) == NOW_DT + timedelta(days=7)


@pytest.mark.parametrize("blank", [None, ""])
def test_a_null_or_blank_expires_at_gets_the_layer_default(blank: object) -> None:
    meta = {"expires_at": blank}
    apply_layer_ttl("L1", meta, now=NOW)
    assert parse_timestamp(meta["expires_at"]) == NOW_DT + timedelta(days=1)


@pytest.mark.parametrize("layer", ["L4", "procedural", "Procedural"])
def test_l4_removes_the_expires_at_key_entirely(layer: str) -> None:
    meta = {"title": "x", "expires_at": "2027-12-31T08:00:00Z"}
    apply_layer_ttl(layer, meta, now=NOW)
    assert "expires_at" not in meta  # never expires_at: null
    assert meta == {"title": "x"}


def test_l4_without_expires_at_stays_without_it() -> None:
    meta: dict[str, object] = {"title": "x"}
    apply_layer_ttl("L4", meta, now=NOW)
    assert meta == {"title": "x"}


def test_permanent_true_removes_expires_at_whatever_the_layer() -> None:
    meta = {"permanent": True, "expires_at": "2026-12-01"}
    apply_layer_ttl("L1", meta, now=NOW)
    assert meta == {"permanent": True}


def test_permanent_true_without_expiry_gets_no_default() -> None:
    meta: dict[str, object] = {"permanent": True}
    apply_layer_ttl("L2", meta, now=NOW)
    assert meta == {"permanent": True}


def test_a_note_without_layer_gets_no_default() -> None:
    meta: dict[str, object] = {"title": "x"}
    apply_layer_ttl(None, meta, now=NOW)
    assert meta == {"title": "x"}


def test_apply_layer_ttl_with_unknown_layer_raises_and_leaves_meta_alone() -> None:
    meta: dict[str, object] = {"title": "x"}
    with pytest.raises(UnknownLayer):
        apply_layer_ttl("L7", meta, now=NOW)
    assert meta == {"title": "x"}


def test_apply_layer_ttl_uses_the_policy() -> None:
    policy = LayerPolicy({"L1": timedelta(days=1), "L2": timedelta(days=2), "L3": timedelta(days=90), "L4": None})
    meta: dict[str, object] = {}
    apply_layer_ttl("L2", meta, now=NOW, policy=policy)
    assert parse_timestamp(meta["expires_at"]) == NOW_DT + timedelta(days=2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("30m", timedelta(minutes=30)), ("12h", timedelta(hours=12)), ("3d", timedelta(days=3)), ("2w", timedelta(weeks=2)), ("1d12h", timedelta(days=1, hours=12)), (" 7D ", timedelta(days=7))],
)
def test_parse_duration_accepts_number_and_unit(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "7", "d", "1.5d", "-1d", "0d", "soon", 7, None])
def test_parse_duration_refuses_anything_else_naming_the_value(text: object) -> None:
    with pytest.raises(InvalidDuration) as caught:
        parse_duration(text)
    assert repr(text) in str(caught.value)


# ---------------------------------------------------------------- properties: Python predicate == SQL rule


def _sql_alive(epoch_us: int | None, now: object) -> bool:
    """Run the index's real SQL expiry predicates over one row in SQLite.

    Both forms (alive, expired) and the search filter built from them must agree: the row
    is in exactly one of alive/expired, and the filter keeps it iff it is alive.
    """
    now_us = to_epoch_us(parse_timestamp(now))
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute("CREATE TABLE notes (label INTEGER PRIMARY KEY, expires_us INTEGER) STRICT")
        connection.execute("INSERT INTO notes (label, expires_us) VALUES (1, ?)", (epoch_us,))

        def matches(predicate: tuple[str, list[int]]) -> bool:
            where, params = predicate
            return connection.execute(f"SELECT label FROM notes WHERE {where}", params).fetchall() == [(1,)]

        alive = matches(expiry_sql("expires_us", now_us))
        assert matches(expiry_sql("notes.expires_us", now_us, expired=True)) is not alive
        assert matches(Eligibility(now_us=now_us).where()) is alive
        assert is_expired_us(epoch_us, now_us) is not alive
        return alive
    finally:
        connection.close()


# (expires_at as written, now, expired?) — the cases the predecessor got wrong, one by one.
SQL_CASES = [
    ("2026-11-30T12:00:00+00:00", NOW, True),  # the boundary instant is expired
    ("2026-11-30T12:00:00.000001+00:00", NOW, False),  # a microsecond later is alive
    ("2026-11-30T11:59:59.999999Z", NOW, True),
    ("2026-11-30T12:00:00", NOW, True),  # naive = UTC, at the boundary
    ("2026-11-30T12:30:00", NOW, False),  # naive, later
    (datetime(2026, 11, 30, 11, 0), NOW, True),  # naive datetime from YAML
    ("2026-11-30T13:00:00+01:00", NOW, True),  # an offset: 12:00 UTC, the boundary
    ("2026-11-30T12:30:00+01:00", NOW, True),  # as text it sorts after NOW; as an instant it is before
    ("2026-11-30T11:30:00-01:00", NOW, False),  # 12:30 UTC
    ("2026-11-30", NOW, True),  # a date: midnight UTC at its start
    (date(2026, 12, 1), NOW, False),
    ("2026-12-01", "2026-12-01T00:00:00+00:00", True),  # a date at its own midnight
    ("2026-12-01", "2026-11-30T23:59:59.999999+00:00", False),
    (None, NOW, False),  # absent: never expires, never dropped
    ("", NOW, False),  # blank text means absent too
]


@pytest.mark.parametrize(("expires_at", "now", "expired"), SQL_CASES)
def test_sql_predicate_agrees_with_is_expired(expires_at: object, now: str, expired: bool) -> None:
    assert is_expired(expires_at, now=now) is expired
    assert _sql_alive(epoch_us_or_none(expires_at), now) is not expired


def test_sql_predicate_splits_a_table_of_every_case_like_is_expired() -> None:
    # One real table holding all the cases at once, as the index holds notes.
    now_us = to_epoch_us(parse_timestamp(NOW))
    cases = [(expires_at, expired) for expires_at, now, expired in SQL_CASES if now == NOW]
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE notes (label INTEGER PRIMARY KEY, expires_us INTEGER) STRICT")
    connection.executemany("INSERT INTO notes VALUES (?, ?)", [(number, epoch_us_or_none(value)) for number, (value, _) in enumerate(cases)])
    alive_where, alive_params = expiry_sql("expires_us", now_us)
    expired_where, expired_params = expiry_sql("expires_us", now_us, expired=True)
    alive = {row[0] for row in connection.execute(f"SELECT label FROM notes WHERE {alive_where}", alive_params)}
    dead = {row[0] for row in connection.execute(f"SELECT label FROM notes WHERE {expired_where}", expired_params)}
    connection.close()
    assert dead == {number for number, (_, expired) in enumerate(cases) if expired}
    assert alive == {number for number, (_, expired) in enumerate(cases) if not expired}


def test_include_expired_is_its_own_field_and_filters_nothing_else() -> None:
    now_us = to_epoch_us(NOW_DT)
    assert Eligibility(now_us=now_us, include_expired=True).where() == ("1", [])
    assert Eligibility(now_us=now_us, include_expired=True).filters is False
    where, params = Eligibility(now_us=now_us, include_expired=True, layers=("L2",)).where()
    assert "expires_us" not in where and params == ["L2"]
    assert (where := Eligibility(now_us=now_us).where())[0] == expiry_sql("notes.expires_us", now_us)[0] and where[1] == [now_us]


@pytest.mark.parametrize("column", ["expires_us; DROP TABLE notes", "", "1 OR 1", "notes.expires_us.x"])
def test_sql_predicate_refuses_anything_but_a_column_name(column: str) -> None:
    with pytest.raises(ValueError, match="not a column name"):
        expiry_sql(column, 0)


offsets = st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59).map(lambda minutes: timezone(timedelta(minutes=minutes)))
moments = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30))  # pre-1970 too: negative epochs
aware_moments = st.builds(lambda moment, zone: moment.replace(tzinfo=zone), moments, offsets)


def _as_written(moment: datetime, style: int) -> object:
    """The same instant in one of the forms YAML or a person may hand us."""
    if style == 0:
        return moment.isoformat()
    if style == 1:
        return moment.astimezone(UTC).replace(tzinfo=None).isoformat()  # naive = UTC
    if style == 2:
        return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if style == 3:
        return moment  # aware datetime from YAML
    return moment.astimezone(UTC).replace(tzinfo=None)  # naive datetime from YAML


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expires=aware_moments, now=aware_moments, style=st.integers(0, 4))
def test_property_is_expired_agrees_with_the_sql_rule(expires: datetime, now: datetime, style: int) -> None:
    value = _as_written(expires, style)
    assert is_expired(value, now=now) is (not _sql_alive(epoch_us_or_none(value), now))
    assert is_expired(value, now=now) is (expires <= now)


@settings(max_examples=200, deadline=None)
@given(expires=aware_moments, style=st.integers(0, 4))
def test_property_the_boundary_instant_is_expired_in_python_and_sql(expires: datetime, style: int) -> None:
    value = _as_written(expires, style)
    assert is_expired(value, now=expires) is True
    assert _sql_alive(epoch_us_or_none(value), expires) is False
    just_before = expires - timedelta(microseconds=1)
    assert is_expired(value, now=just_before) is False
    assert _sql_alive(epoch_us_or_none(value), just_before) is True


@settings(max_examples=200, deadline=None)
@given(day=st.dates(min_value=date(1, 1, 2), max_value=date(9999, 12, 30)), now=aware_moments, as_text=st.booleans())
def test_property_date_only_expiry_agrees_with_the_sql_rule(day: date, now: datetime, as_text: bool) -> None:
    value: object = day.isoformat() if as_text else day
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)
    assert is_expired(value, now=now) is (now >= midnight)
    assert _sql_alive(epoch_us_or_none(value), now) is (now < midnight)


@settings(max_examples=200, deadline=None)
@given(moment=aware_moments)
def test_property_written_timestamps_round_trip_to_the_same_instant(moment: datetime) -> None:
    written = format_timestamp(moment)
    assert written.endswith("+00:00")
    assert parse_timestamp(written) == moment
    assert to_epoch_us(parse_timestamp(written)) == to_epoch_us(moment)


@settings(max_examples=100, deadline=None)
@given(now=aware_moments)
def test_property_a_missing_expiry_is_alive_in_python_and_sql(now: datetime) -> None:
    assert is_expired(None, now=now) is False
    assert _sql_alive(epoch_us_or_none(None), now) is True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    expiries=st.lists(st.one_of(st.none(), aware_moments.map(lambda m: m.replace(microsecond=0))), min_size=1, max_size=12),
    now=aware_moments.map(lambda m: m.replace(microsecond=0)),
    style=st.integers(0, 2),
)
def test_property_qdrant_filter_agrees_with_is_expired(expiries: list[datetime | None], now: datetime, style: int) -> None:
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")
    client.create_collection("p", vectors_config=models.VectorParams(size=2, distance=models.Distance.COSINE))
    payloads = [{} if moment is None and number % 2 else {"expires_at": None if moment is None else _as_written(moment, style)} for number, moment in enumerate(expiries)]
    client.upsert("p", points=[models.PointStruct(id=number, vector=[1.0, 0.0], payload=payload) for number, payload in enumerate(payloads)])
    points, _ = client.scroll("p", scroll_filter=models.Filter.model_validate(build_expiry_filter(now=now)), limit=100)
    expected = {number for number, payload in enumerate(payloads) if not is_expired(payload.get("expires_at"), now=now)}
    assert {int(point.id) for point in points} == expected


@pytest.mark.parametrize("text", ["3000000d", "365001d", "99999999999d", "9" * 5000 + "s", "1w" * 40])
def test_parse_duration_refuses_a_ttl_no_date_can_hold_naming_the_value(text: str) -> None:
    with pytest.raises(InvalidDuration) as caught:  # was: OverflowError / ValueError tracebacks
        parse_duration(text)
    assert text[:40] in str(caught.value) and len(str(caught.value)) < 400


def test_parse_duration_accepts_up_to_a_thousand_years() -> None:
    assert parse_duration("365000d") == timedelta(days=365_000)


# ---------------------------------------------------------------- the instant to evaluate at, as a person types it


@pytest.mark.parametrize(("said", "from_now"), [
    ("now", timedelta(0)), ("today", timedelta(0)), ("Tomorrow", timedelta(days=1)), ("yesterday", timedelta(days=-1)),
    ("+7d", timedelta(days=7)), ("-12h", timedelta(hours=-12)), ("+ 1d12h", timedelta(days=1, hours=12)), (" +2w ", timedelta(weeks=2)),
])
def test_the_instant_to_evaluate_at_takes_words_and_a_duration_with_its_direction(said: str, from_now: timedelta) -> None:
    # Before: "invalid timestamp 'tomorrow': use ISO-8601". Tomorrow and yesterday are 24 hours
    # ahead and back: the same look-ahead at any hour (adr/0002).
    before = datetime.now(UTC)
    resolved = resolve_now(said)
    after = datetime.now(UTC)
    assert before + from_now <= resolved <= after + from_now


@pytest.mark.parametrize(("said", "message"), [
    ("7d", "now: invalid timestamp '7d' (a duration without a direction): give +7d (7d from now) or -7d (7d ago)"),
    ("2w", "give +2w (2w from now) or -2w (2w ago)"),
    ("+3x", "invalid timestamp '+3x' (not a duration after its sign): give + or - and a number with a unit, e.g. +30m"),
    ("+1000000d", "(a duration longer than 365000d, a thousand years): give a shorter duration"),
    ("next tuesday", "now: invalid timestamp 'next tuesday': give an ISO-8601 time such as 2026-12-24T18:00:00+01:00 "
                     "(2026-12-24 alone: its midnight UTC), now or today (this instant), tomorrow or yesterday (24 hours "
                     "ahead or back), or a duration with its direction: +7d (ahead), -12h (back)"),
    ("2026-13-01", "invalid timestamp '2026-13-01' (month must be in 1..12): give an ISO-8601 time"),
])
def test_an_instant_to_evaluate_at_that_is_none_is_refused_naming_the_forms_it_takes(said: str, message: str) -> None:
    # A bare 7d is refused: back from now, as --since reads it, or ahead, as a preview of expiry means?
    with pytest.raises(InvalidTimestamp) as refused:
        resolve_now(said)
    assert message in str(refused.value)
    assert refused.value.spelled(Surface.CLI).startswith("--as-of: invalid timestamp")


def test_an_instant_given_as_a_time_or_a_date_is_read_as_before() -> None:
    assert resolve_now("2026-12-24") == datetime(2026, 12, 24, tzinfo=UTC)
    assert resolve_now("2026-12-24T18:00:00+01:00") == datetime(2026, 12, 24, 17, tzinfo=UTC)
    assert resolve_now(datetime(2026, 12, 24, 18)) == datetime(2026, 12, 24, 18, tzinfo=UTC)
