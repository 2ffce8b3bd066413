"""A conversation turn and the turns said before it (pure): what a reply's full-text rows also hold.

A vault made of a conversation, one note per turn (a chat export, a benchmark of dialogues
turned into notes), answers a question with a turn that does not repeat what it answers:
"Mostly visit the museums and take a cooking class" answers "what did Ben plan to do in
Mexico City?", and the city is named two turns before it ("Okay, it's official: Mexico City,
next month." — "What's the plan once you're there?"). So a turn's full-text rows hold, in a
column of their own weighing half its own text (storage.passages BM25_WEIGHTS), the text of
the :data:`CONTEXT_TURNS` turns before it in its conversation. Only the full text: embedded with its
neighbours, a turn's vector is the neighbours' more than its own (benchmarks/PASSAGES.md §7).

A note is a **turn** when its properties name who said it (:data:`SPEAKER_KEYS`; or
:data:`MAYBE_SPEAKER_KEYS` in a conversation, :func:`is_turn`). A note that names no speaker (a
reference, a manual's page, a daily note) is no turn: it holds nothing of its neighbours and gives
them nothing — a folder of references in alphabetical order is no conversation (§21: neighbours by
file name cost the manuals and the references). A turn's turns before it are those of its
**chain** — its folder, conversation and session, as its properties say — in the order its
properties say (its time, its number), then its file name's, numbers read as numbers (``D1_9``
before ``D1_10``): an export that names a message by a slug or an id still says when it was said
(:func:`order_key`). See adr/0004, "A turn and the turns before it" and "A turn's place from its
properties".
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta

from .errors import InvalidTimestamp
from .lifecycle import parse_timestamp, to_epoch_us
from .spelled_days import text_date

# Properties that say who said a note's text, as conversation exports write them: a dialogue's
# `speaker`, a chat or mail export's `sender` and `from`. Not `author`: a reference's author
# (kepano's `References/`) wrote the book, not the note before it.
SPEAKER_KEYS = frozenset({"speaker", "sender", "from"})
# Properties that say who said a turn in some exports and mean something else in other notes: a
# LongMemEval or OpenAI chat's `role` (`user`, `assistant`), a Discord export's or ChatGPT message's
# `author`, a Slack export's `user`. A person's page has a `role` (their job), a book's note an
# `author`: such a key makes a turn only beside a property that places a note in a conversation
# (`session`, `turn`, `dia_id` …, :func:`says_its_place`), or `role` naming a chat's role.
# `name` too: a script turning a dialogue into notes writes `name: Caroline`, as a person's page or a
# product's note writes its own name.
MAYBE_SPEAKER_KEYS = frozenset({"role", "author", "user", "name"})
CHAT_ROLES = frozenset({"user", "assistant", "system", "human", "ai", "bot", "model", "tool"})
CONTEXT_TURNS = 2  # turns before a turn that its rows hold (measured: 1, 2, 3; PASSAGES.md §36)
CONTEXT_CHARS = 1000  # of each: a turn is a sentence or a few; a pasted page says its own words
_NUMBER = re.compile(r"(\d+)")
# Properties that say which conversation and which session of it a turn is of (a LoCoMo sample's
# id, a chat's or a channel's, a thread's): turns of different ones are no turns before each other.
CONVERSATION_KEYS = ("conversation", "conversation_id", "sample_id", "chat", "chat_id", "thread", "thread_id", "channel")
SESSION_KEYS = ("session", "session_id")
# When a turn was said (a chat export's message time) and its number in its conversation
# (a dialogue's `turn`, an export's `index`, LoCoMo's `dia_id: D3:12`): its place among them. Not
# `created`: a template or an import script stamps the moment the file was made, not said.
TIME_KEYS = ("date", "datetime", "timestamp", "sent")
# The clock time of a time written in words, `1:56 pm on 8 May, 2023` (LoCoMo's session dates), `8 May 2023, 13:56`.
_CLOCK = re.compile(r"(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?:\s*([ap])\.?\s?m\b\.?)?(?![\d:])", re.IGNORECASE)
# An hour with am/pm and no minutes (`May 8th, 2023 at 11pm`): a time of day too.
_HOUR = re.compile(r"(?<![\d:.])(?:1[0-2]|0?\d)\s?[ap]\.?m\b", re.IGNORECASE)
_COMPACT_TIME = re.compile(r"\d{8}T\d{4}", re.IGNORECASE)
PLACE_KEYS = ("turn", "index", "dia_id", "turn_id", "message_index", "seq")
# A turn's number that only a dialogue writes: beside `name` alone they make a note a turn (is_turn).
NAME_PLACE_KEYS = ("turn", "dia_id", "turn_id", "message_index")
CHAIN_BYTES = 8
# A slug: lower-case words joined by hyphens, as an exporter names a message by its first words.
_SLUG = re.compile(r"[^\W_]+(?:-[^\W_]+)+")
_SLUG_WORD = re.compile(r"[^\W_]+")
_WIKILINK = re.compile(r"\[\[[^\[\]]+\]\]")

_ASCII_WORD = re.compile(r"[a-z0-9]+")


def is_turn(props_text: str, meta: Mapping[str, object] | None = None) -> bool:
    """Do these properties (``key: value`` lines, fields.SearchFields.props_text; ``meta``, the
    note's frontmatter) name who said the note? A :data:`SPEAKER_KEYS` property does; a
    :data:`MAYBE_SPEAKER_KEYS` one when it names a chat's role (``role: assistant``) or the note
    also says its conversation, session or number in it (:func:`says_its_place`), and so does a
    speaker that is a link to a person's page (``speaker: "[[Jane Doe]]"``: a talk's note)."""
    maybe = named = False
    for line in props_text.splitlines():
        key, colon, value = line.partition(":")
        key, value = key.strip().casefold(), value.strip()
        if not colon or not value:
            continue
        if key in SPEAKER_KEYS and _links_a_page(meta or {}, key):
            # `speaker: "[[Jane Doe]]"`: a talk's note linking its speaker's page (kepano's Conference
            # Session Template), which a chat export never writes. Read as a turn, each talk at a
            # conference held the talks before it, and was found by their words (review42b, s43).
            maybe = True
            continue
        if key in SPEAKER_KEYS or (key == "role" and value.casefold() in CHAT_ROLES):
            return True
        maybe = maybe or (key in MAYBE_SPEAKER_KEYS and key != "name")
        named = named or key == "name"
    if maybe:
        return says_its_place(meta or {})
    # `name` alone: a note's own name beside a session's or a step's number is a campaign's
    # session page (`name: The Amber Temple`, `session: 12`) or a course's step (`index: 3`); a
    # dialogue turned into notes (`name: Caroline`) says its conversation or its turn's number.
    return named and _property(meta or {}, (*CONVERSATION_KEYS, *NAME_PLACE_KEYS)) is not None


def _links_a_page(meta: Mapping[str, object], key: str) -> bool:
    """Is the value of ``key`` (case-folded) in ``meta`` a wikilink, or a list of nothing else?"""
    value = next((value for name, value in meta.items() if str(name).strip().casefold() == key), None)
    values = value if isinstance(value, list) and value else [value]
    return all(isinstance(item, str) and _WIKILINK.fullmatch(item.strip()) is not None for item in values)


def named_by_its_text(title: str, text: str) -> bool:
    """Is ``title`` a slug of ``text``'s first words (``okay-its-official-mexico-city`` for "Okay,
    it's official: Mexico City, next month."; a counter after it, ``-2``, as an exporter adds to a
    name taken)? A chat exporter names a message so: the name says nothing its text does not, and
    searched as the note's title and name (the columns that weigh most) and embedded before its
    text it counted a turn's first words two and three times (PASSAGES.md §38, §50: the slugs
    layout). Two words at least: a one-word name (``hello``) is as often a real title. A letter
    an exporter cannot write in a slug is read as it may have: kept (``tomás``), without its
    accent (``tomas``) or as a break between words (``tom-s``, a slug of ASCII letters only)."""
    words = _SLUG_WORD.findall(title.casefold())
    if len(words) < 2 or title != title.casefold() or not _SLUG.fullmatch(title):
        return False
    said = text.casefold().replace("'", "").replace("\u2019", "")
    unaccented = "".join(c for c in unicodedata.normalize("NFKD", said) if not unicodedata.combining(c))
    for reading in (_SLUG_WORD.findall(said), _SLUG_WORD.findall(unaccented), _ASCII_WORD.findall(said)):
        if words == reading[:len(words)]:
            return True
        if len(words) > 2 and words[-1].isdecimal() and words[:-1] == reading[:len(words) - 1]:
            return True
    return False


def conversation_by_folder(path: str, meta: Mapping[str, object]) -> str | None:
    """The conversation a turn (:func:`is_turn`) at ``path`` is of when its properties name none
    (:data:`CONVERSATION_KEYS`): its folder's name — an export that writes one folder per
    conversation (``ana-ben/okay-its-official.md``, ``ana-ben/D3_12.md``) says it there alone, as
    :func:`order_key` reads it. Its vectors and full-text rows hold it as a ``conversation``
    property would: in the slugs and role layouts (no such property) a question naming one of
    the two people found fewer of their turns than with it (PASSAGES.md §62, s43 slugs). None
    when a property names it, or the turn is at the vault's top.

    A folder of no letter (a year, a month, a day: ``2024``, ``03``, ``2024-03-05``) names no
    conversation: an export kept by year (``chats/ana-ben/2024/``) is of the nearest folder above
    that has one, and none when no folder has (``2024/``). Was (s43 review43a): ``conversation:
    2024``, a property no file says, shown by explain and lifted by the property bonus for every
    question saying "2024"."""
    if _property(meta, CONVERSATION_KEYS) is not None:
        return None
    folders = path.split("/")[:-1]
    return next((folder for folder in reversed(folders) if any(character.isalpha() for character in folder)), None)


def says_its_place(meta: Mapping[str, object]) -> bool:
    """Does a note's frontmatter say which conversation or session it is of, or its number in it?"""
    return _property(meta, (*CONVERSATION_KEYS, *SESSION_KEYS, *PLACE_KEYS)) is not None


def order_key(path: str, meta: Mapping[str, object] | None = None) -> bytes:
    """A turn's place among its folder's turns, as bytes compared byte by byte (as SQLite compares
    a BLOB): the index keeps each turn's (storage.notes, ``turn_key``), so that an edit reads the few
    turns around it by their place instead of its whole folder's. In order:

    - its folder (a text ending in a NUL, which no path holds);
    - its **chain** (:data:`CHAIN_BYTES`, :func:`chain_keys`): a digest of its conversation and
      session (:data:`CONVERSATION_KEYS`, :data:`SESSION_KEYS`, a ``dia_id``'s first number) —
      only turns of one chain are turns before one another: the first turn of a session is given
      nothing of the last one's goodbyes, nor a turn of one chat of another's in the same folder;
    - its time (:data:`TIME_KEYS`, read as :func:`lifecycle.parse_timestamp` reads one): a chat
      export names its messages by a slug or an id, and its timestamps say the order;
    - its number in the conversation (:data:`PLACE_KEYS`: ``turn: 12``, ``dia_id: D3:12``);
    - its file name, numbers read as numbers (``D1_9`` before ``D1_10``).

    What a turn's properties do not say sorts first and ties fall to the next part: a vault named
    in the order said (``t001.md``, ``D1_10.md``) with no such property is in file-name order.
    Equal keys iff equal places. Each part ends where no longer part begins with it (a number is
    its count of digits, then them), so a name sorts before the names it begins."""
    meta = meta or {}
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return _ended(folder) + _chain(meta, stem) + _time(meta) + _place(meta) + _name(name)


def chain_keys(key: bytes) -> tuple[bytes, bytes]:
    """The keys (:func:`order_key`) of the turns of ``key``'s folder and chain are from the first
    of these on and before the second."""
    start = key[:key.index(b"\x00") + 1 + CHAIN_BYTES]
    return start, _successor(start)


def _successor(key: bytes) -> bytes:
    """The first bytes after every key ``key`` begins."""
    kept = key.rstrip(b"\xff")
    return kept[:-1] + bytes([kept[-1] + 1])


def _property(meta: Mapping[str, object], keys: Sequence[str]) -> object | None:
    """The value of the first of ``keys`` (case-folded) that ``meta`` gives one."""
    folded = {str(key).strip().casefold(): value for key, value in meta.items()}
    for key in keys:
        value = folded.get(key)
        if value is not None and value != "" and not isinstance(value, (list, dict, bool)):
            return value
    return None


def _numbers(value: object) -> tuple[str, ...]:
    """The numbers a place value says, each as :func:`_digits` writes it: ``12`` → ("12",);
    ``D3:12`` → ("3", "12"); a text without any → ()."""
    if isinstance(value, int):
        return (str(value),)
    if isinstance(value, float) and value.is_integer():
        return (str(int(value)),)
    return tuple(_digits(part) for part in _NUMBER.findall(str(value)))


def _digits(run: str) -> str:
    """A run of decimal digits (of any script: ``٣`` is 3) as ASCII digits without leading zeros,
    as ``str(int(run))`` writes it, but for a run of any length: int() refuses more than 4,300
    digits, and a turn's ``turn: "999…"`` of 5,000 stopped every index with a traceback."""
    ascii_run = run if run.isascii() else "".join(str(unicodedata.decimal(character)) for character in run)
    return ascii_run.lstrip("0") or "0"


def _chain(meta: Mapping[str, object], stem: str = "") -> bytes:
    conversation = _property(meta, CONVERSATION_KEYS)
    session = _property(meta, SESSION_KEYS)
    said = _numbers(session) if session is not None else ()
    if session is None and len(numbers := _numbers(_property(meta, ("dia_id",)) or "")) > 1:
        said = numbers[:1]  # LoCoMo's D<session>:<turn>
    if session is None and not said:
        said = _session_in_name(meta, stem) or _day_said(meta)
    named = "" if conversation is None else " ".join(str(conversation).casefold().split())
    # A session said as a number is that number whatever its spelling (`1`, `"01"`); else its text.
    session_text = ".".join(said) if said else ("" if session is None else " ".join(str(session).casefold().split()))
    return hashlib.blake2b(f"{named}\x00{session_text}".encode("utf-8", "surrogatepass"), digest_size=CHAIN_BYTES).digest()


def _session_in_name(meta: Mapping[str, object], stem: str) -> tuple[str, ...]:
    """The session a file name says when no property does: its numbers before the turn's number
    (its place property's last): ``session_2_turn_1`` with ``turn: 1`` is session 2, ``D3_12``
    with ``turn: 12`` session 3, ``2023-05-08-turn-3`` with ``turn: 3`` the day. Unread, the turn
    numbers that start again at 1 in each session put every session's first turns together (the
    place orders before the name: a slug or an id names no order) and chained one session's
    goodbyes to the next one's greetings. () when the name does not end with the place's number."""
    place = _property(meta, PLACE_KEYS)
    told = () if place is None else _numbers(place)
    named = tuple(_digits(run) for run in _NUMBER.findall(stem))
    if not told or len(named) < 2 or named[-1] != told[-1]:
        return ()
    return ("name", *(_digits(run) for run in _without_clock(_NUMBER.findall(stem)[:-1])))


def _without_clock(runs: Sequence[str]) -> list[str]:
    """A file name's numbers without the time of day after a date (``2023-05-08T14-32-10``,
    ``20230508-143210``, ``202305081432``): the day is the session; the clock time is the
    message's own, and read as the session it made every message a session of one — no turn
    before it, no window (s42 review: an exporter naming each message by its time and number)."""
    kept: list[str] = []
    at = 0
    while at < len(runs):
        run = runs[at]
        if len(run) in (12, 14) and _is_day(run[:4], run[4:6], run[6:8]):
            kept.append(run[:8])  # 202305081432: the day and its clock time in one run
            at += 1
            continue
        if len(run) == 8 and _is_day(run[:4], run[4:6], run[6:8]):
            kept.append(run)
            at += 1
            if at < len(runs) and len(runs[at]) in (4, 6) and _is_clock(runs[at][:2], runs[at][2:4], runs[at][4:] or "0"):
                at += 1  # 20230508-143210
            continue
        if len(run) == 4 and at + 2 < len(runs) and _is_day(run, runs[at + 1], runs[at + 2]):
            kept.extend(runs[at:at + 3])
            at += 3
            clock = runs[at:at + 3]
            if len(clock) >= 2 and all(len(part) <= 2 for part in clock[:2]) and _is_clock(clock[0], clock[1], "0"):
                at += 3 if len(clock) > 2 and len(clock[2]) <= 2 and int(clock[2]) < 60 else 2  # 2023-05-08T14-32-10
            continue
        kept.append(run)
        at += 1
    return kept


def _is_day(year: str, month: str, day: str) -> bool:
    return len(year) == 4 and year[:2] in ("19", "20") and 1 <= int(month) <= 12 and 1 <= int(day) <= 31 and len(month) <= 2 >= len(day)


def _is_clock(hours: str, minutes: str, seconds: str) -> bool:
    return int(hours) < 24 and int(minutes) < 60 and int(seconds) < 60


def _day_said(meta: Mapping[str, object]) -> tuple[str, ...]:
    """The day of a time that says a day and no clock time (``date: 2023-05-08``, ``8 May,
    2023``): a session's date, which a new session changes. A time of day (a message's own
    time) says no session: every message would be a chain of one."""
    value = _property(meta, TIME_KEYS)
    if isinstance(value, datetime) or value is None or isinstance(value, (int, float)):
        return ()
    if isinstance(value, date):
        return ("day", value.isoformat())
    text = str(value).strip()
    if _CLOCK.search(text) or _HOUR.search(text):
        return ()
    if _COMPACT_TIME.search(text):
        return ()  # 20230508T235900: a message's time, written without colons
    day = text_date(text)
    if day is None:
        try:
            day = parse_timestamp(text)
        except InvalidTimestamp:
            return ()
    return ("day", day.date().isoformat())


def _time(meta: Mapping[str, object]) -> bytes:
    value = _property(meta, TIME_KEYS)
    if value is None or isinstance(value, int):  # a bare number is no time a chat writes (a year, a count)
        return b"\x00"
    try:
        moment: datetime | None = parse_timestamp(value)
    except InvalidTimestamp:
        moment = worded_moment(value)
    if moment is None:
        # A time the order cannot read orders nothing: the turn's number and name do. (Whether the
        # date is a problem is `check`'s to say, as for any note.)
        return b"\x00"
    return b"\x01" + (to_epoch_us(moment) + 2**63).to_bytes(8, "big")


def worded_moment(value: object) -> datetime | None:
    """The moment a time written in words says (UTC, as a naive timestamp is), or None: its one day
    (spelled_days.text_date: ``8 May, 2023``) at its clock time (``1:56 pm``), if it writes one.
    LoCoMo writes a session's date so (``1:56 pm on 8 May, 2023``): unread, a folder of turns
    numbered from 1 in each session and no session property put every session's first turns
    together; read, the sessions follow each other in their order, each in its turns' (the same
    moment in a session: ``turn`` orders it)."""
    if not isinstance(value, str):
        return None
    day = text_date(value)
    if day is None:
        return None
    clocks = _CLOCK.findall(value)
    if len(clocks) != 1:  # none, or a range ("9:00-10:30"): the day alone
        return day
    hour, minute, second, half = clocks[0]
    hours = int(hour)
    if half and not 1 <= hours <= 12:
        return day  # "13:56 pm" says two things
    if half:
        hours = hours % 12 + (12 if half.casefold() == "p" else 0)
    return day + timedelta(hours=hours, minutes=int(minute), seconds=int(second or 0))


def _place(meta: Mapping[str, object]) -> bytes:
    value = _property(meta, PLACE_KEYS)
    numbers = () if value is None else _numbers(value)
    return b"".join(b"\x01" + _number(number) for number in numbers) + b"\x00"


def _name(name: str) -> bytes:
    parts = (part for part in _NUMBER.split(name.casefold()) if part)
    return b"".join(_number(_digits(part)) if part.isdecimal() else _ended(part) for part in parts)


def folder_keys(folder: str) -> tuple[bytes, bytes]:
    """The keys of the turns right in ``folder`` (:func:`order_key`; not its subfolders') are from
    the first of these on and before the second."""
    start = _ended(folder)
    return start, start[:-1] + b"\x01"


def _ended(text: str) -> bytes:
    # surrogatepass: a file name read with the surrogateescape of a name not in UTF-8; its
    # bytes sort where its code points do, as every other character's UTF-8 does.
    return text.encode("utf-8", "surrogatepass") + b"\x00"


def _number(number: str) -> bytes:
    """A number (its digits, :func:`_digits`) as its count of digits, then them: 9 before 10."""
    digits = number.encode("ascii")
    return len(digits).to_bytes(4, "big") + digits


def affected(keys: Sequence[bytes], changed: Sequence[bytes]) -> set[int]:
    """The positions among ``keys`` (one chain's turns' :func:`order_key`, sorted) whose turns
    before them may have changed when turns at the ``changed`` keys were added, edited or
    removed (or stopped being turns, or moved to another place: their old keys): each such
    key's place and the :data:`CONTEXT_TURNS` turns after it. Turns whose keys are equal
    (``D1_10`` and ``D1_010``, no property to tell them apart) share a place, in the order they
    were indexed: each such turn's place is any of theirs, so all of them and the turns after the
    last are reached — without it the second turn after the later one kept the old text of an
    edited one."""
    found: set[int] = set()
    for key in changed:
        first, after = bisect_left(keys, key), bisect_right(keys, key)
        found.update(range(first, min(len(keys), max(first + 1, after) + CONTEXT_TURNS)))
    return found


def turns_before(turns: Sequence[int], position: int) -> Sequence[int]:
    """The :data:`CONTEXT_TURNS` turns before the one at ``position`` of a folder's ``turns``, oldest first."""
    return turns[max(0, position - CONTEXT_TURNS):position]


def context(before: Sequence[int], texts: Mapping[int, str]) -> str:
    """What a turn's rows hold of the turns ``before`` it: their texts, each cut at :data:`CONTEXT_CHARS`."""
    return " \n ".join(texts.get(label, "")[:CONTEXT_CHARS] for label in before)
