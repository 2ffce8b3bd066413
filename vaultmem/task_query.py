"""A question about tasks asked in words, read (adr/0026 "Tasks asked in words"). Pure.

An agent passes the person's question as it came: ``what's due this week``, ``overdue``, ``what
did I finish yesterday``, ``open tasks for acme``, ``due next month``, ``done on the 16th``. Each
word was a word every task had to hold, so such a question answered no task at all. Here:

- a **period** — what a bound reads (dating.days_said: ``today``, ``tomorrow``, ``this week``,
  ``next month``, ``last year``, ``2026-12-04``, ``2026-12``, ``2026-W49``, ``4 December 2026``),
  a day of a month without its year (``December 4``, ``the 16th``), a month alone after due,
  in, by … (``due in December``: ``may`` is a word too), a weekday (``Friday``, or as
  the languages month_names.py reads name it: ``vendredi``, ``viernes``, ``Freitag``) or a weekend
  (``this weekend``, ``next weekend``, ``last weekend``: a Saturday and its Sunday) — is
  days of a task's due day, or of its done day when ``done``/``finished``/``completed`` says so
  (or the status asked is done). A day without its year is the nearest one: the next for a due
  day (today included), the last for a done day. ``before``/``by``/``until`` and
  ``after``/``since``/``from`` before it make it one end of the range, ``between`` X ``and`` Y
  both (a weekday or a yearless day Y is the first on or after X's first day); a bare year (``2026``) is
  a period only after one of those words or ``due``/``done``/``in`` (alone it may be a name);
- a **status** word: ``open`` (``pending``, ``outstanding``, ``unfinished``, ``not done``),
  ``done`` (``finished``, ``completed``), ``cancelled``, ``overdue``;
- the words of **asking** — ``what``, ``is``, ``my``, ``tasks``, ``to do``, ``'s`` …, and those of
  French, Spanish, German and Portuguese (``quelles tâches pour``, ``qué tareas vencen``, ``welche
  Aufgaben sind … fällig``, ``quais tarefas para``), whose periods are read (period_words.py), in a
  question holding a word only those languages write (``tâches``, ``tareas``, ``welche``) — are not text;
- what remains is matched in the tasks' words as before; a phrase in double quotes is always text.

What was read is said (:attr:`ReadQuery.said`), so that the caller sees how its words were taken.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from .dating import days_said, since_bound, yearless_day
from .errors import Argument, UsageError
from .fields import case_fold
from .month_names import MONTH_NAMES, full_weekday, named_month

MAX_PHRASE_WORDS = 5  # "the 16th of December 2026": the longest period read

_STATUS_WORDS = {
    "open": "open", "pending": "open", "outstanding": "open", "unfinished": "open", "incomplete": "open",
    "undone": "open", "uncompleted": "open",
    "done": "done", "finished": "done", "finish": "done", "completed": "done", "complete": "done",
    "cancelled": "cancelled", "canceled": "cancelled",
    "overdue": "overdue",
}
_DONE_WORDS = frozenset(word for word, status in _STATUS_WORDS.items() if status == "done")
_NEGATIONS = frozenset({"not", "isn't", "aren't", "wasn't", "weren't", "haven't", "hasn't", "didn't", "never", "yet"})
_SIDES = {"since": "since", "from": "since", "after": "after", "starting": "since",
          "until": "until", "till": "until", "by": "until", "through": "until", "before": "before",
          "between": "since"}  # between X and Y: X is the start, the Y after "and" the end (_Reader._and_end)
# Due, and as Spanish, Portuguese and German say it: "vencen esta semana", "diese Woche fällig"
# (after the period: a word of asking then, the period being due days already).
_DUE_WORDS = frozenset({"due", "vence", "vencen", "vencem", "fällig", "fallig"})
_KEYS = frozenset({*_DUE_WORDS, "in", "on", "during", *_DONE_WORDS, *_SIDES})  # a bare year after one is a period
# The words of asking: what, is, my ... Not text: a task holds none of them for being asked about.
_ASKING = frozenset("""
a about all am an and any anything are at be been can could did do does due during
every everything for get give got have has had how i i'd i'll i'm i've in is it items item

let list me might mine must my need needed needs of on or our ours please remaining left shall show should
s so still supposed tell than that the there these thing things this those to to-do to-dos todo todos
task tasks us was we we've were what whats when where which who will with would you your
""".split())
# "may" is the month after due, in, by … (_period) and a word a task may hold ("May Day flyers"); it
# asks when it is the modal: after a word that asks or names who (what may be due, that may, I may)
# or before a verb or a subject (may be due, may I see). Was (stop 38's leftover): "what may be due
# in May" kept the first "may" as text every task had to hold, and no task due in May answered.
_MODAL = "may"
_BEFORE_MODAL = frozenset("what whats which who that there it i we you they anything something things tasks task".split())
_AFTER_MODAL = frozenset("""
be been have has need i we you still also already not soon come fall get go slip run start end finish become want
""".split())
# The words of asking in the languages period_words.py reads periods in (fr, es, de, pt), so that "¿qué
# tareas vencen esta semana?", "quelles tâches pour demain", "welche Aufgaben sind diese Woche
# fällig" and "quais tarefas para amanhã" read as "what tasks are due this week" / "tasks for
# tomorrow" do: each of their words was text a task had to hold, and no task answered. Compared
# case folded, accents as written (the common spellings without them are listed): only words no
# English task is about ("son", "ate" are left out).
_ASKING_ELSEWHERE = frozenset("""
quel quelle quels quelles qu'est-ce que qui est sont les des du de la le mes mon ma à faire pour tâche tâches
tache taches j'ai ai il y
qué cuáles cuales tareas tarea para mis mi las los el hay tengo está están esta estan
welche welcher welches aufgaben aufgabe sind ist habe ich meine mein die der das für fur noch zu gibt es
quais qual tarefas tarefa minhas meus os do da tenho há são sao estão estao
""".split())
# A word only those languages write (their words for "which" and "task", a verb of asking): the
# words above are words of asking only in a question holding one. Without it "AI tasks", "tasks
# for the OS upgrade", "ES migration" or "LA trip" lost "ai", "os", "es", "la" (French "j'ai",
# Portuguese "os", Spanish "es", "la") and answered every task, or another task than asked.
_ELSEWHERE_SIGNS = frozenset("""
quel quelle quels quelles qu'est-ce tâche tâches taches j'ai
qué cuáles cuales tareas tarea tengo está están estan
welche welcher welches aufgaben aufgabe
quais tarefas tarefa tenho estão estao são
vence vencen vencem fällig fallig
""".split())
_EDGE_PUNCTUATION = "?!.,;:()[]{}\"'“”‘’«»¿¡"
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_ORDINAL_DAY = re.compile(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"\d+")
_TOKEN = re.compile(r"\"([^\"]*)\"|“([^”]*)”|(\S+)")
# A weekend: the Saturday and Sunday that hold today or come next (on a Sunday, yesterday and
# today), the one after it, the one before it.
_WEEKENDS = {"this weekend": 0, "next weekend": 1, "last weekend": -1}


@dataclass(frozen=True)
class _Period:
    """Days a phrase names: a fixed range, or a day to place (a month's day, a weekday) once the
    kind of day it bounds is known."""

    first: date | None = None
    last: date | None = None
    month: int | None = None  # with day: a day of that month, any year; alone: that month, any year
    day: int | None = None  # alone: the day of any month (the 16th)
    weekday: int | None = None

    def placed(self, kind: str, today: date) -> tuple[date, date]:
        if self.first is not None and self.last is not None:
            return self.first, self.last
        if self.month is not None and self.day is None:
            return _month_placed(self.month, kind, today)
        step = -1 if kind == "done" else 1  # a done day is past, a due day to come
        for offset in range(366 * 8):  # Feb 29 comes once in four years (eight across a century)
            day = today + timedelta(days=offset * step)
            if self._is(day):
                return day, day
        raise AssertionError(f"no day in eight years is {self}")  # every month's day, weekday and Feb 29 comes sooner

    def _is(self, day: date) -> bool:
        if self.weekday is not None:
            return day.weekday() == self.weekday
        return day.day == self.day and (self.month is None or day.month == self.month)


def _month_placed(month: int, kind: str, today: date) -> tuple[date, date]:
    """A month named without its year, as a day so named is placed: the nearest one, this month
    included — the next for a due day, the last for a done day."""
    year = today.year - (month > today.month) if kind == "done" else today.year + (month < today.month)
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


@dataclass(frozen=True)
class _Phrase:
    said: str  # as written: "due this week", "finished yesterday"
    kind: str | None  # due, done, or None: as the status asked says
    side: str | None  # since, after, until, before, or None: the whole period
    period: _Period
    anchored: bool = False  # the Y of "between X and Y": placed on or after X's first day


@dataclass
class ReadQuery:
    """What a question's words were read as: ``words`` to match in the tasks' words; ``status``
    said (with the words that said it); the due and done days asked (ISO days, inclusive; None:
    no bound); and each reading, said (``due this week → due 2026-11-30..2026-12-06``)."""

    words: list[str] = field(default_factory=list)
    status: str | None = None
    status_said: str | None = None
    due: tuple[str | None, str | None] = (None, None)
    done: tuple[str | None, str | None] = (None, None)
    due_said: list[str] = field(default_factory=list)
    done_said: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    asking: list[str] = field(default_factory=list)  # words taken as asking, not text

    def as_text(self) -> str | None:
        """The query with each word read as a status or a period put back as text, quoted (the
        words of asking stay out): ``"complete" "onboarding"`` for "complete onboarding", whose
        ``complete`` was read as the done status. None when no word was read so."""
        read_so = [*([self.status_said] if self.status_said else []), *self.due_said, *self.done_said]
        if not read_so:
            return None
        return " ".join(f'"{word}"' for phrase in (*read_so, *self.words) for word in phrase.split() if '"' not in word)

    def reading(self) -> str | None:
        """All of it in one line: each period and status read, the words not taken as text, the
        words matched as text; None when every word is text (nothing else was read)."""
        if not self.said and not self.asking:
            return None
        parts = [*self.said]
        if self.asking:
            parts.append(f"not text: {', '.join(self.asking)}")
        if self.words:
            parts.append(f"matched as text: {' '.join(self.words)}")
        return "; ".join(parts)


def read_task_query(query: str | None, now: datetime, week_start: int = 0, status: str | None = None) -> ReadQuery:
    """``query`` read (see the module's docstring) at ``now``, in a week that starts on
    ``week_start``; ``status``: the one asked by argument, which decides the kind of day a period
    said without due or done bounds. :class:`UsageError` when the words contradict themselves
    (``open`` and ``done``; two due periods)."""
    read = ReadQuery()
    if not query or not query.strip():
        return read
    phrases = _Reader(_tokens(query), read, now, week_start).phrases()
    asked_status = status if status is not None else read.status
    today = since_bound("today", now, week_start).day.date()
    start = today  # where the Y of "between X and Y" is looked for: X's first day
    for phrase in phrases:
        kind = "done" if phrase.kind == "done" or (phrase.kind is None and asked_status == "done") else "due"
        try:
            start = _place(phrase, read, kind, start if phrase.anchored else today)
        except OverflowError:  # the 16th after 31 December 9999
            raise UsageError(Argument("query", repr(phrase.said)), f" names a {kind} day outside the years 1 to 9999 "
                             f"on {today.isoformat()}: give one inside them") from None
    for kind in ("due", "done"):
        first, last = getattr(read, kind)
        said = getattr(read, f"{kind}_said")
        if said:
            read.said.append(f"{' '.join(said)} → {kind} {_shown(first, last)}")
    if read.status_said is not None:
        read.said.append(f"{read.status_said} → status {read.status}")
    return read


def _place(phrase: _Phrase, read: ReadQuery, kind: str, today: date) -> date:
    """Put the days ``phrase`` names at the ends of the ``kind`` range it bounds; two phrases
    for one end are refused, naming both. Its first day is returned. The end of "between X and
    Y" is placed forward from X's first day (``today``), whatever the kind: "done between Monday
    and Friday" is the Friday after that Monday."""
    first, last = phrase.period.placed("due" if phrase.anchored else kind, today)
    since, until = getattr(read, kind)
    said: list[str] = getattr(read, f"{kind}_said")
    ends = _ends(phrase.side, first, last)
    if (ends[0] is not None and since is not None) or (ends[1] is not None and until is not None):
        raise UsageError(Argument("query", repr(f"{' … '.join(said)} … {phrase.said}")), f" names {kind} days twice: "
                         f"ask for one range (or put a word in double quotes to match it as text)")
    read_since = ends[0].isoformat() if ends[0] is not None else since
    read_until = ends[1].isoformat() if ends[1] is not None else until
    if read_since is not None and read_until is not None and read_since > read_until:
        raise UsageError(Argument("query", repr(f"{' … '.join(said)} … {phrase.said}")), f" names no {kind} day: "
                         f"{read_since} is after {read_until}")
    setattr(read, kind, (read_since, read_until))
    said.append(phrase.said)
    return first


def _ends(side: str | None, first: date, last: date) -> tuple[date | None, date | None]:
    """The since and until days a period is, on the side it was said on (``after`` the 4th: from the 5th)."""
    if side == "after":
        return last + timedelta(days=1), None
    if side == "before":
        return None, first - timedelta(days=1)
    return (first if side != "until" else None), (last if side != "since" else None)


def _shown(first: str | None, last: str | None) -> str:
    if first == last:
        return str(first)
    return f"{first or ''}..{last or ''}"


@dataclass(frozen=True)
class _Token:
    written: str  # as the query wrote it (its punctuation at the edges taken off)
    bare: str  # case-folded, without a possessive 's
    quoted: bool = False


def _tokens(query: str) -> list[_Token]:
    tokens = []
    for found in _TOKEN.finditer(query):
        inside = found[1] if found[1] is not None else found[2]
        if inside is not None:  # "open source": text, whatever its words
            tokens += [_Token(word, case_fold(word), quoted=True) for word in inside.split()]
            continue
        written = found[3].strip(_EDGE_PUNCTUATION)
        if written:
            tokens.append(_Token(written, case_fold(_POSSESSIVE.sub("", written)).replace("’", "'")))
    return tokens


class _Reader:
    """One pass over the tokens, left to right: a period (the longest phrase read as one),
    status words, words of asking, text."""

    def __init__(self, tokens: list[_Token], read: ReadQuery, now: datetime, week_start: int) -> None:
        self.tokens = tokens
        self.read = read
        self.now = now
        self.week_start = week_start
        self.found: list[_Phrase] = []
        self.lead: list[_Token] = []  # due, done, before ... waiting for a period
        self.kind: str | None = None
        self.side: str | None = None
        self.between: _Phrase | None = None  # the X of "between X", until its "and Y" is read
        elsewhere = any(token.bare in _ELSEWHERE_SIGNS for token in tokens if not token.quoted)
        self.asking = (_ASKING | _ASKING_ELSEWHERE) if elsewhere else _ASKING  # see _ELSEWHERE_SIGNS

    def phrases(self) -> list[_Phrase]:
        at = 0
        while at < len(self.tokens):
            at = self._step(at)
        self._drop_lead()
        return self.found

    def _step(self, at: int) -> int:
        token = self.tokens[at]
        if token.quoted:
            self._text(token)
            return at + 1
        between, self.between = self.between, None
        if between is not None and token.bare == "and":
            end_of = self._and_end(at, between)
            if end_of is not None:
                return end_of
        period = self._period_at(at)
        if period is not None:
            end, days = period
            keyed = next((index for index, item in enumerate(self.lead) if item.bare in _KEYS), len(self.lead))
            self.read.asking += [item.written for item in self.lead[:keyed] if item.bare not in _STATUS_WORDS]
            said = " ".join(item.written for item in [*self.lead[keyed:], *self.tokens[at:end]])
            phrase = _Phrase(said, self.kind, self.side, days)
            self.found.append(phrase)
            if any(item.bare == "between" for item in self.lead[keyed:]):
                self.between = phrase
            self.lead, self.kind, self.side = [], None, None
            return end
        word = token.bare
        after = self.tokens[at + 1].bare if at + 1 < len(self.tokens) and not self.tokens[at + 1].quoted else None
        if word in _NEGATIONS and after in _DONE_WORDS:  # not done, isn't finished: open
            self._status("open", f"{token.written} {self.tokens[at + 1].written}")
            return at + 2
        if word in _STATUS_WORDS:
            self._status(_STATUS_WORDS[word], token.written)
            if word in _DONE_WORDS:  # finished yesterday: a done day
                self._lead(token, kind="done")
            return at + 1
        if word in _DUE_WORDS:
            self._lead(token, kind="due")
            return at + 1
        if word in _SIDES:
            self._lead(token, side=_SIDES[word])
            return at + 1
        if word in self.asking or (word == _MODAL and self._modal(at, after)):
            self._lead(token)
            return at + 1
        self._text(token)
        return at + 1

    def _modal(self, at: int, after: str | None) -> bool:
        """Is the "may" at ``at`` the modal (see _MODAL), not the month or a task's word?"""
        before = self.tokens[at - 1] if at > 0 else None
        return after in _AFTER_MODAL or (before is not None and not before.quoted and before.bare in _BEFORE_MODAL)

    def _and_end(self, at: int, between: _Phrase) -> int | None:
        """The Y of "between X and Y" (``and`` at ``at``): the period after ``and``, the range's
        end, of X's kind; None when no period follows (``and`` is a word of asking then)."""
        period = self._period_at(at + 1, keyed=True)
        if period is None:
            return None
        end, days = period
        said = " ".join(token.written for token in self.tokens[at:end])
        self.found.append(_Phrase(said, between.kind, "until", days, anchored=True))
        return end

    def _period_at(self, at: int, keyed: bool = False) -> tuple[int, _Period] | None:
        keyed = keyed or any(token.bare in _KEYS for token in self.lead) or (at > 0 and self.tokens[at - 1].bare in _KEYS)
        for end in range(min(len(self.tokens), at + MAX_PHRASE_WORDS), at, -1):
            if any(token.quoted for token in self.tokens[at:end]):
                continue
            days = _period(" ".join(token.written for token in self.tokens[at:end]), self.now, self.week_start, keyed)
            if days is not None:
                return end, days
        return None

    def _lead(self, token: _Token, kind: str | None = None, side: str | None = None) -> None:
        self.lead.append(token)
        self.kind = kind or self.kind
        self.side = side or self.side

    def _drop_lead(self) -> None:
        """Words that led to no period: words of asking (due, by, on ...), or said as a status already."""
        self.read.asking += [token.written for token in self.lead
                             if token.bare not in _STATUS_WORDS]
        self.lead, self.kind, self.side = [], None, None

    def _text(self, token: _Token) -> None:
        self._drop_lead()
        self.read.words.append(token.bare)

    def _status(self, status: str, said: str) -> None:
        read = self.read
        if read.status is not None and read.status != status:
            raise UsageError(Argument("query", repr(f"{read.status_said} … {said}")), f" asks for {read.status} tasks and "
                             f"{status} ones: ask for one status (or put a word in double quotes to match it as text)")
        read.status = status
        read.status_said = said if read.status_said is None else read.status_said


def _period(text: str, now: datetime, week_start: int, keyed: bool) -> _Period | None:
    """The days ``text`` names as a period of a task's days, or None (``keyed``: a word such as
    due or in stands before it, so that a bare year is a period)."""
    if _BARE_NUMBER.fullmatch(text) and not (keyed and len(text) == 4):  # 16, 12345; a year only after due, in ...
        return None
    days = days_said(text, now, week_start)
    if days is not None:
        return _Period(first=days[0], last=days[1])
    month_day = yearless_day(re.sub(r"^the\s+", "", text, flags=re.IGNORECASE))
    if month_day is not None:
        return _Period(month=month_day[0], day=month_day[1])
    ordinal = _ORDINAL_DAY.fullmatch(text)
    if ordinal is not None and 1 <= int(ordinal[1]) <= 31:
        return _Period(day=int(ordinal[1]))
    weekday = full_weekday(text)
    if weekday is not None:
        return _Period(weekday=weekday)
    # A month's full name alone ("due in December"), only after due, in, by …: "may" and "march"
    # are words a task holds too.
    month = named_month(text, MONTH_NAMES) if keyed else None
    if month is not None:
        return _Period(month=month)
    weekend = _WEEKENDS.get(" ".join(text.casefold().split()))
    if weekend is not None:
        today = since_bound("today", now, week_start).day.date()
        saturday = today + timedelta(days=5 - today.weekday() + 7 * weekend)
        return _Period(first=saturday, last=saturday + timedelta(days=1))
    return None

