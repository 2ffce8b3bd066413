"""A generated long-conversation vault: weeks of chats between friends, one note per turn.

Five pairs of friends talk in ``sessions`` sessions each, every two to five days
(about three months). A session is an opening, two or three threads of each person's
life (a new dog, a trip, a race, a wedding; see ``conversation_threads.py``), small talk
and a goodbye. Threads come back weeks later (the trip is planned in one session and
told in another), so the same names recur in many turns and only one of them holds
the fact a question asks about.

Every turn is a note ``<pair>/<date>-s<NN>/t<NNN>.md`` whose body is what was said,
with ``speaker``, ``conversation``, ``session``, ``turn``, ``date`` and a ``layer``
(L2 or L3, expiring in 2099 so nothing is hidden) in its frontmatter. Questions know
their evidence turns: ``single`` (one turn holds the fact), ``multi`` (two or three
turns, often sessions apart) and ``temporal`` ("when did ...": the turn that tells it,
whose note carries the date). They name the person and paraphrase the evidence.

``prepare_echo`` asks the same questions with words of their evidence turns appended
(``_echoed``): the set where the full-text side leads.

Same ``seed`` → same bytes, on any machine.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from . import conversation_talk as talk
from .conversation_people import PAIRS, PEOPLE
from .conversation_threads import LIST_QUESTIONS, ME, THREADS, ThreadType
from .model import PreparedSet, Question, vault_digest

DEFAULT_SEED = 7
DEFAULT_SESSIONS = 32
FIRST_DAY = date(2024, 3, 4)
THREAD_TYPES_PER_PERSON = 10
MAX_STAGES_PER_SESSION = 3
MIN_TURNS_PER_SESSION = 18
EXPIRES_AT = "2099-12-31T00:00:00Z"
LIST_MAX = 3  # evidence turns of a list question
ECHO_WORDS = 1  # words of each evidence turn an echo question repeats


@dataclass
class Turn:
    speaker: str
    text: str
    evidence: tuple[int, str] | None = None  # (thread instance, tag)


@dataclass
class Instance:
    """One thread of one person, with the slots it was filled with and when its stages happen."""

    number: int
    owner: str
    friend: str
    thread: ThreadType
    slots: dict[str, str]
    sessions: list[int] = field(default_factory=list)  # one per stage that happens


@dataclass
class ConversationVault:
    questions: list[Question]
    turns: int
    sessions: int
    pairs: int


def generate_conversations(root: Path, seed: int = DEFAULT_SEED, sessions: int = DEFAULT_SESSIONS, echo: bool = False) -> ConversationVault:
    """Write the vault into ``root`` (created if needed) and return its questions.

    ``echo``: the same vault, but each question also repeats the evidence's own words
    (see ``_echoed``) — the regime of benchmarks whose annotators wrote questions
    while reading the turn, where the full-text side leads.
    """
    questions: list[Question] = []
    turns = 0
    for pair_index, (first, second, how) in enumerate(PAIRS):
        rng = random.Random(f"conversations/{seed}/{pair_index}")
        pair = _Pair(rng, pair_index, first, second, how, sessions)
        turns += pair.write(root)
        questions.extend(pair.questions(root) if echo else pair.questions())
    return ConversationVault(questions=questions, turns=turns, sessions=sessions * len(PAIRS), pairs=len(PAIRS))


class _Pair:
    def __init__(self, rng: random.Random, index: int, first: str, second: str, how: str, sessions: int) -> None:
        self.rng = rng
        self.people = (first, second)
        self.how = how
        self.slug = f"{first.lower()}-{second.lower()}"
        self.session_count = sessions
        self.dates = _session_dates(rng, FIRST_DAY + timedelta(days=11 * index), sessions)
        self.instances = self._instances()
        self._schedule()
        self.paths: dict[tuple[int, str], str] = {}  # (instance, tag) → note path
        self.session_of_path: dict[str, int] = {}

    # -- planning

    def _instances(self) -> list[Instance]:
        types = list(THREADS)
        self.rng.shuffle(types)
        taken: set[str] = set()
        instances: list[Instance] = []
        for owner in self.people:
            friend = self.people[1] if owner == self.people[0] else self.people[0]
            fitting = [thread for thread in types if thread.slug not in taken and _fits(thread, PEOPLE[owner])]
            for thread in fitting[:THREAD_TYPES_PER_PERSON]:
                taken.add(thread.slug)
                count = self.rng.randint(1, thread.repeat)
                for record in self.rng.sample(thread.records, min(count, len(thread.records))):
                    slots = {key: _fill(value, PEOPLE[owner]) for key, value in record.items()}
                    instances.append(Instance(len(instances), owner, friend, thread, slots))
        return instances

    def _schedule(self) -> None:
        load = [0] * (self.session_count + 1)
        for instance in self.rng.sample(self.instances, len(self.instances)):
            span = sum(stage.gap[0] for stage in instance.thread.stages[1:])
            session = self.rng.randint(1, max(1, self.session_count - span))
            for number, stage in enumerate(instance.thread.stages):
                if number:
                    session += self.rng.randint(*stage.gap)
                while session <= self.session_count and load[session] >= MAX_STAGES_PER_SESSION:
                    session += 1
                if session > self.session_count:
                    break
                load[session] += 1
                instance.sessions.append(session)

    # -- writing

    def write(self, root: Path) -> int:
        written = 0
        for session in range(1, self.session_count + 1):
            turns = self._session_turns(session)
            moment = self.dates[session - 1]
            folder = root / self.slug / f"{moment:%Y-%m-%d}-s{session:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            for number, turn in enumerate(turns, start=1):
                relative = f"{self.slug}/{moment:%Y-%m-%d}-s{session:02d}/t{number:03d}.md"
                (root / relative).write_text(self._note(turn, session, number, moment), encoding="utf-8")
                if turn.evidence is not None:
                    self.paths[turn.evidence] = relative
                    self.session_of_path[relative] = session
                written += 1
        return written

    def _note(self, turn: Turn, session: int, number: int, moment: datetime) -> str:
        layer = "L3" if self.rng.random() < 0.3 else "L2"
        return (
            f"---\nspeaker: {turn.speaker}\nconversation: {self.slug}\nsession: {session}\nturn: {number}\n"
            f"date: {moment:%Y-%m-%dT%H:%M:%S}\nlayer: {layer}\nexpires_at: {EXPIRES_AT}\n---\n{turn.text}\n"
        )

    def _session_turns(self, session: int) -> list[Turn]:
        starter = self.rng.choice(self.people)
        turns = [self._talk(starter, talk.OPENERS), self._talk(self._other(starter), talk.OPENER_REPLIES)]
        if session == 1:
            turns.append(Turn(starter, f"Can you believe we've been friends {self.how}?"))
            turns.append(self._talk(self._other(starter), ("Don't remind me how old we are.", "Best accident of my life, honestly.")))
        stages = [(instance, instance.sessions.index(session)) for instance in self.instances if session in instance.sessions]
        self.rng.shuffle(stages)
        previous_owner: str | None = None
        for instance, stage in stages:
            if self.rng.random() < 0.45:
                turns.extend(self._small_talk())
            elif previous_owner is not None and previous_owner != instance.owner:
                turns.append(self._talk(previous_owner, talk.BRIDGES))
            turns.extend(self._stage_turns(instance, stage))
            previous_owner = instance.owner
        while len(turns) < MIN_TURNS_PER_SESSION - 2:
            turns.extend(self._small_talk())
        closer = self.rng.choice(self.people)
        turns += [self._talk(closer, talk.CLOSERS), self._talk(self._other(closer), talk.CLOSER_REPLIES)]
        return turns

    def _stage_turns(self, instance: Instance, stage: int) -> list[Turn]:
        fields = {**PEOPLE[instance.owner], **instance.slots, "me": instance.owner, "you": instance.friend}
        turns = []
        for line in instance.thread.stages[stage].lines:
            speaker = instance.owner if line.who == ME else instance.friend
            text = _fill(self.rng.choice(line.variants), fields)
            evidence = (instance.number, line.evidence) if line.evidence else None
            turns.append(Turn(speaker, _capitalise(text), evidence))
        return turns

    def _small_talk(self) -> list[Turn]:
        speaker = self.rng.choice(self.people)
        said, answer = self.rng.choice(talk.SMALL_TALK)
        return [self._say(speaker, said), self._say(self._other(speaker), answer)]

    def _talk(self, speaker: str, pool: tuple[str, ...]) -> Turn:
        return self._say(speaker, self.rng.choice(pool))

    def _say(self, speaker: str, text: str) -> Turn:
        fields = {**PEOPLE[speaker], "me": speaker, "you": self._other(speaker)}
        return Turn(speaker, _fill(text, fields))

    def _other(self, person: str) -> str:
        return self.people[1] if person == self.people[0] else self.people[0]

    # -- questions

    def questions(self, echo_from: Path | None = None) -> list[Question]:
        found = [question for instance in self.instances for question in self._instance_questions(instance)]
        if echo_from is not None:
            found = [_echoed(question, echo_from, self._names()) for question in found]
        return found + self._list_questions()

    @staticmethod
    def _names() -> set[str]:
        """The words of everyone's names and of the names in their fields (partner, colleague, city, company)."""
        fields = [value for person in PEOPLE.values() for value in person.values() if isinstance(value, str)]
        names = [*PEOPLE, *(value for value in fields if value[:1].isupper() and len(value.split()) <= 3)]
        return {word for name in names for word in _words(name)}

    def _instance_questions(self, instance: Instance) -> Iterable[Question]:
        owner = PEOPLE[instance.owner]
        fields = {**owner, **instance.slots, "Me": instance.owner}
        for template in instance.thread.questions:
            paths = [self.paths.get((instance.number, tag)) for tag in template.evidence]
            if any(path is None for path in paths):
                continue  # a stage that did not happen before the last session
            answer = _fill(template.answer, fields)
            if template.kind == "temporal":
                answer = f"{self.dates[self.session_of_path[paths[0]] - 1]:%-d %B %Y}"  # type: ignore[index]
            yield Question(
                text=_capitalise(_fill(self.rng.choice(template.variants), fields)),
                answers=tuple(path for path in paths if path is not None),
                kind=template.kind, answer=answer,
            )

    def _list_questions(self) -> list[Question]:
        questions = []
        for owner in self.people:
            for slugs, variants in LIST_QUESTIONS:
                mine = [i for i in self.instances if i.owner == owner and i.thread.slug in slugs and i.thread.list_evidence]
                paths = [self.paths[(i.number, i.thread.list_evidence)] for i in mine if (i.number, i.thread.list_evidence) in self.paths]  # type: ignore[index]
                if 2 <= len(paths):
                    text = _fill(self.rng.choice(variants), {**PEOPLE[owner], "Me": owner})
                    questions.append(Question(text=text, answers=tuple(paths[:LIST_MAX]), kind="multi", answer=""))
        return questions


def _echoed(question: Question, vault: Path, withheld: set[str]) -> Question:
    """The question followed by words of its evidence turns that neither it nor its answer holds.

    Annotators who read the turn echo some of its words ("When did Caroline go to the
    LGBTQ support group?"); here ``ECHO_WORDS`` per evidence turn are appended, longest
    first, from the turn's text (not its frontmatter): never a form of a word the question
    or the answer holds (``_same_word``: "saturday" is withheld when the answer says
    "Saturdays"), nor of anyone's name (``withheld``: the people and the names in their fields). One word
    puts the sides about as far apart as the hidden benchmark of issue 13 (text ahead of
    vectors by ≈ 0.1 recall@10); three made the text side all but perfect.
    """
    taken = set(_words(question.text)) | set(_words(question.answer)) | withheld
    extra: list[str] = []
    for path in question.answers:
        fresh = [word for word in dict.fromkeys(_words(turn_text(vault / path)))
                 if len(word) > 3 and not any(_same_word(word, other) for other in (*taken, *extra))]
        extra.extend(sorted(fresh, key=len, reverse=True)[:ECHO_WORDS])
    if not extra:
        return question  # every word of its turns is asked already, or gives the answer away
    return Question(text=f"{question.text.rstrip('?')} ({' '.join(extra)})?", answers=question.answers,
                    kind=question.kind, answer=question.answer)


def turn_text(note: Path) -> str:
    """What was said: the note's text after its frontmatter (every turn has one)."""
    return note.read_text(encoding="utf-8").split("---\n", 2)[2]


def _same_word(word: str, other: str) -> bool:
    """One word in two forms, as a stemmer would see it: equal, or sharing their first five letters or more."""
    if word == other:
        return True
    shared = 0
    for a, b in zip(word, other, strict=False):
        if a != b:
            break
        shared += 1
    return shared >= 5


def _words(text: str) -> list[str]:
    return [word.lower() for word in re.findall(r"[A-Za-z]+", text)]


def _session_dates(rng: random.Random, first: date, count: int) -> list[datetime]:
    dates = []
    day = first
    for _ in range(count):
        dates.append(datetime(day.year, day.month, day.day, rng.randint(7, 22), rng.randrange(60)))
        day += timedelta(days=rng.randint(2, 5))
    return dates


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _thread_strings(thread: ThreadType) -> Iterable[str]:
    for record in thread.records:
        yield from record.values()
    for stage in thread.stages:
        for line in stage.lines:
            yield from line.variants
    for question in thread.questions:
        yield from question.variants


def _fits(thread: ThreadType, person: Mapping[str, Any]) -> bool:
    """Does the person have every field the thread speaks of (a partner, a kid)?"""
    own = {key for record in thread.records for key in record} | {"me", "you", "Me"}
    needed = {name for text in _thread_strings(thread) for name in _placeholders(text)} - own
    return all(name in person for name in needed) and all(name in person for name in thread.requires)


def _fill(template: str, fields: Mapping[str, Any]) -> str:
    # Slot values may themselves name the person's fields ("{partner}'s family"): fill twice.
    return template.format_map(fields).format_map(fields) if "{" in template else template


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def prepare(workdir: Path, seed: int = DEFAULT_SEED, echo: bool = False) -> PreparedSet:
    vault = workdir / "conversations"
    generated = generate_conversations(vault, seed, echo=echo)
    return PreparedSet("conversations-echo" if echo else "conversations", vault, generated.questions, {
        "seed": seed, "pairs": generated.pairs, "sessions": generated.sessions, "turns": generated.turns,
        "vault_sha256": vault_digest(vault),
    })


def prepare_echo(workdir: Path, seed: int = DEFAULT_SEED) -> PreparedSet:
    """The conversations with questions that repeat their evidence's words: where text leads."""
    return prepare(workdir, seed, echo=True)
