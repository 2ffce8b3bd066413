"""A deterministic synthetic vault: N Obsidian-style notes that look like an agent's memory.

``generate_vault(path, n, seed)`` writes the same bytes for the same (n, seed) on any
machine and any day: every note draws from its own ``random.Random(seed, index)``, and
dates are fixed in time — expired notes expired in 2020–2025, live ones expire in
2031–2040 — so "a third expired" stays true whoever runs it, whenever (until 2031).

What the notes contain (shares are approximate, by construction):

- 150–300 words of English-like prose from a Zipf-weighted general vocabulary plus the
  terms of one main topic (and a little of a second), so BM25 and vectors can tell
  notes apart; headings, bullet lists, inline ``#tags``, a few rare codes (``HRB-4471``).
- frontmatter on 95 %: ``layer`` L1–L4 (sometimes as an alias such as ``semantic``),
  ``tags`` (block list, flow list or comma string), ``created``, ``expires_at`` on
  L1–L3 (L4 never carries one), optional ``id``, ``title``, ``aliases``;
  timestamps as ``…Z``, with an offset, naive (UTC by the brief's rule), date-only, or
  quoted strings. A third of all notes are expired; 0.2 % have an unparseable expiry
  and 1 % of L1–L3 notes none (what ``check`` and search warnings are for).
- ``[[wikilinks]]`` (some with ``|alias``) to other notes of the vault.
- nested folders ``domain/topic[/year[/month]]``, an ``inbox/`` and the root; file names
  in kebab-case or with spaces.

From 20,000 notes on, one process per CPU writes the notes (fork, when no other thread
runs); the output is the same. About 3 s for 10,000 notes and 20 s for 100,000 on an
idle 2-core machine; file creation dominates on a busy one.

Command line: ``python -m benchmarks generate DIR --notes N --seed S`` (prints JSON).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from . import lexicon
from .lexicon import Topic

DEFAULT_NOTES = 10_000
DEFAULT_SEED = 42

NO_FRONTMATTER_SHARE = 0.05
LAYER_WEIGHTS = {"L1": 0.15, "L2": 0.25, "L3": 0.35, "L4": 0.25}
LAYER_ALIASES = {"L1": "working", "L2": "episodic", "L3": "semantic", "L4": "procedural"}
# Notes with an expiry are 95 % × 75 % of the vault; this share of them is expired so
# that a third of all notes are.
EXPIRED_SHARE_OF_EXPIRING = (1 / 3) / ((1 - NO_FRONTMATTER_SHARE) * (1 - LAYER_WEIGHTS["L4"]))
INVALID_EXPIRY_SHARE = 0.002
MISSING_EXPIRY_SHARE = 0.01  # an L1–L3 note someone wrote by hand without expires_at

EPOCH_CREATED = datetime(2020, 1, 1, tzinfo=timezone.utc)
EXPIRED_CREATED_SPAN_DAYS = (datetime(2025, 6, 1, tzinfo=timezone.utc) - EPOCH_CREATED).days
LIVE_CREATED_SPAN_DAYS = (datetime(2026, 11, 1, tzinfo=timezone.utc) - EPOCH_CREATED).days
LIVE_EXPIRY_START = datetime(2031, 1, 1, tzinfo=timezone.utc)
LIVE_EXPIRY_SPAN_DAYS = 3650

WORDS_MIN, WORDS_MAX = 150, 300
PARALLEL_FROM = 20_000  # notes: from here on, generate_vault writes with one process per CPU
_SLOT = re.compile(r"\{(\w)\}")


# ------------------------------------------------------------------ sampling helpers


def _zipf_table(words: Sequence[str], offset: float, size: int = 4096) -> tuple[str, ...]:
    """Words repeated in proportion to 1/(rank+offset): a few common ones, a long tail.

    Drawing ``table[int(random() * len(table))]`` costs one ``random()`` — about a
    tenth of ``random.choices`` with weights, which is what lets 100k notes be written
    in seconds. Every word appears at least once.
    """
    weights = [1.0 / (rank + offset) for rank in range(len(words))]
    scale = size / sum(weights)
    return tuple(word for word, weight in zip(words, weights) for _ in range(max(1, round(weight * scale))))


@dataclass(frozen=True)
class _Pool:
    table: tuple[str, ...]

    def pick(self, rng: random.Random) -> str:
        return self.table[int(rng.random() * len(self.table))]

    def sample(self, rng: random.Random, count: int) -> list[str]:
        return [self.pick(rng) for _ in range(count)]


def _pool(words: Sequence[str], offset: float = 8.0) -> _Pool:
    return _Pool(_zipf_table(words, offset))


def plural(word: str) -> str:
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _plural_pool(pool: _Pool) -> _Pool:
    return _Pool(tuple(plural(word) for word in pool.table))


NOUNS = _pool(lexicon.NOUNS)
VERBS = _pool(lexicon.VERBS)
ADJECTIVES = _pool(lexicon.ADJECTIVES)
ADVERBS = _pool(lexicon.ADVERBS)
PEOPLE = _pool(lexicon.PEOPLE, offset=4.0)
PLACES = _pool(lexicon.PLACES, offset=4.0)
PREPOSITIONS = _pool(lexicon.PREPOSITIONS, offset=2.0)
TOPIC_TERMS = [_pool(topic.terms, offset=3.0) for topic in lexicon.TOPICS]
TOPIC_PLURALS = [_plural_pool(pool) for pool in TOPIC_TERMS]
GENERAL_POOLS = {
    "n": NOUNS, "N": _plural_pool(NOUNS), "v": VERBS, "a": ADJECTIVES, "d": ADVERBS,
    "p": PEOPLE, "l": PLACES, "r": PREPOSITIONS,
}


@dataclass(frozen=True)
class _Template:
    """A sentence shape as %-format text plus the slot kinds, in order."""

    text: str
    slots: tuple[str, ...]


def _compile(template: str) -> _Template:
    return _Template(_SLOT.sub("%s", template), tuple(_SLOT.findall(template)))


SENTENCES = tuple(_compile(template) for template in lexicon.TEMPLATES)
LIST_ITEMS = tuple(_compile(template) for template in lexicon.LIST_TEMPLATES)


def vocabulary_size() -> int:
    """Distinct words the generator can emit (reported by the benchmark)."""
    pools = [*GENERAL_POOLS.values(), *TOPIC_TERMS, *TOPIC_PLURALS]
    return len({word for pool in pools for word in pool.table})


# ------------------------------------------------------------------ the plan: names, folders, topics


@dataclass(frozen=True)
class NotePlan:
    """What other notes need to know about a note before any body is written."""

    index: int
    topic: int
    secondary: int
    created: datetime
    expired: bool
    stem: str  # file name without .md: what [[wikilinks]] point at
    relative: str  # vault-relative POSIX path
    title: str


def note_rng(seed: int, index: int, stream: int = 0) -> random.Random:
    """One independent, reproducible random stream per note (and purpose)."""
    return random.Random((seed * 1_000_003 + index) * 7 + stream)


def plan_notes(count: int, seed: int, day_folders: bool = False) -> list[NotePlan]:
    return [plan_note(seed, index, day_folders) for index in range(count)]


def plan_note(seed: int, index: int, day_folders: bool = False) -> NotePlan:
    rng = note_rng(seed, index, stream=1)
    topic = rng.randrange(len(lexicon.TOPICS))
    secondary = rng.randrange(len(lexicon.TOPICS))
    expired = rng.random() < EXPIRED_SHARE_OF_EXPIRING
    span = EXPIRED_CREATED_SPAN_DAYS if expired else LIVE_CREATED_SPAN_DAYS
    created = EPOCH_CREATED + timedelta(days=rng.randrange(span), minutes=rng.randrange(24 * 60))
    title = _title(rng, lexicon.TOPICS[topic])
    stem = _stem(rng, title, created, index)
    relative = f"{_folder(rng, lexicon.TOPICS[topic], created, day_folders)}{stem}.md"
    return NotePlan(index, topic, secondary, created, expired, stem, relative, title)


def _title(rng: random.Random, topic: Topic) -> str:
    terms = TOPIC_TERMS[lexicon.TOPICS.index(topic)]
    shape = rng.randrange(4)
    if shape == 0:
        words = [terms.pick(rng), terms.pick(rng), NOUNS.pick(rng)]
    elif shape == 1:
        words = [ADJECTIVES.pick(rng), terms.pick(rng), NOUNS.pick(rng)]
    elif shape == 2:
        words = [terms.pick(rng), "with", PEOPLE.pick(rng)]
    else:
        words = [terms.pick(rng), "in", PLACES.pick(rng)]
    text = " ".join(words)
    return text[0].upper() + text[1:]


def _stem(rng: random.Random, title: str, created: datetime, index: int) -> str:
    suffix = _base36(index)
    style = rng.random()
    if style < 0.4:
        return f"{title.lower().replace(' ', '-')}-{suffix}"
    if style < 0.8:
        return f"{title} {suffix}"
    return f"{created:%Y-%m-%d} {title} {suffix}"


def _folder(rng: random.Random, topic: Topic, created: datetime, day_folders: bool = False) -> str:
    """``day_folders``: the dated notes go one level deeper, a folder per day (a journal kept
    by date): 20,000 notes then live in ~11,000 folders instead of ~2,600 — the shape of the
    big vault whose fresh searches were slow (stop 35). Off by default: same bytes as before."""
    roll = rng.random()
    if day_folders and roll >= 0.40:
        return f"{topic.domain}/{topic.slug}/{created:%Y}/{created:%m}/{created:%d}/"
    if roll < 0.02:
        return ""
    if roll < 0.10:
        return "inbox/"
    if roll < 0.40:
        return f"{topic.domain}/{topic.slug}/"
    if roll < 0.80:
        return f"{topic.domain}/{topic.slug}/{created:%Y}/"
    return f"{topic.domain}/{topic.slug}/{created:%Y}/{created:%m}/"


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, remainder = divmod(number, 36)
        text = digits[remainder] + text
        if number == 0:
            return text.rjust(4, "0")


# ------------------------------------------------------------------ frontmatter


@dataclass
class NoteFacts:
    """What the generator decided about a note's lifecycle (for the summary)."""

    has_frontmatter: bool = True
    layer: str | None = None
    expires: bool = False
    expired: bool = False
    invalid_expiry: bool = False
    naive_timestamps: int = 0
    date_only_timestamps: int = 0
    links: int = 0


def frontmatter(rng: random.Random, plan: NotePlan, facts: NoteFacts) -> str:
    layer = rng.choices(list(LAYER_WEIGHTS), weights=list(LAYER_WEIGHTS.values()))[0]
    facts.layer = layer
    lines = ["---"]
    if rng.random() < 0.4:
        lines.append(f"id: {_ulid(rng)}")
    if rng.random() < 0.7:
        lines.append(f"title: {_yaml_text(plan.title)}")
    lines.append(f"layer: {_layer_text(rng, layer)}")
    lines.extend(_tag_lines(rng, plan))
    if rng.random() < 0.9:
        lines.append(f"created: {_timestamp(rng, plan.created, facts)}")
    lines.extend(_expiry_lines(rng, plan, layer, facts))
    if rng.random() < 0.05:
        lines.append(f"aliases:\n  - {_yaml_text(plan.title.lower())}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def _layer_text(rng: random.Random, layer: str) -> str:
    roll = rng.random()
    if roll < 0.7:
        return layer
    if roll < 0.85:
        return LAYER_ALIASES[layer]
    return layer.lower() if roll < 0.93 else LAYER_ALIASES[layer].capitalize()


def _tag_lines(rng: random.Random, plan: NotePlan) -> list[str]:
    if rng.random() < 0.15:
        return []
    topic = lexicon.TOPICS[plan.topic]
    tags = rng.sample(topic.tags, rng.randint(1, len(topic.tags)))
    if rng.random() < 0.3:
        tags.append(lexicon.TOPICS[plan.secondary].tags[0])
    tags = list(dict.fromkeys(tags))
    roll = rng.random()
    if roll < 0.5:
        return ["tags:", *(f"  - {tag}" for tag in tags)]
    if roll < 0.85:
        return [f"tags: [{', '.join(tags)}]"]
    if roll < 0.95:
        return [f"tags: {', '.join(tags)}"]
    return ["tags:", *(f'  - "#{tag}"' for tag in tags)]


def _expiry_lines(rng: random.Random, plan: NotePlan, layer: str, facts: NoteFacts) -> list[str]:
    if layer == "L4":
        return ["permanent: true"] if rng.random() < 0.2 else []
    roll = rng.random()
    if roll < INVALID_EXPIRY_SHARE:
        facts.invalid_expiry = True
        return ["expires_at: next friday-ish"]
    if roll < INVALID_EXPIRY_SHARE + MISSING_EXPIRY_SHARE:
        return []
    facts.expires = True
    facts.expired = plan.expired
    if plan.expired:
        moment = plan.created + timedelta(days=rng.randint(1, 180), hours=rng.randrange(24))
    else:
        moment = LIVE_EXPIRY_START + timedelta(days=rng.randrange(LIVE_EXPIRY_SPAN_DAYS), hours=rng.randrange(24))
    return [f"expires_at: {_timestamp(rng, moment, facts)}"]


def _timestamp(rng: random.Random, moment: datetime, facts: NoteFacts) -> str:
    """One instant in one of the spellings real vaults contain."""
    roll = rng.random()
    if roll < 0.35:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    if roll < 0.55:
        offset = timezone(timedelta(hours=rng.choice((-5, 1, 2, 5.5, 9))))
        return moment.astimezone(offset).isoformat(timespec="seconds")
    if roll < 0.70:
        facts.naive_timestamps += 1
        return moment.strftime("%Y-%m-%dT%H:%M:%S")
    if roll < 0.85:
        facts.date_only_timestamps += 1
        return _date_only(moment)
    return f'"{moment.isoformat(timespec="seconds")}"'


def _date_only(moment: datetime) -> str:
    # Midnight UTC of that day: still before "now" for expired notes (they expired in
    # 2025 at the latest) and still far ahead for live ones (2031+).
    return date(moment.year, moment.month, moment.day).isoformat()


def _ulid(rng: random.Random) -> str:
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    value = rng.getrandbits(130)
    return "".join(alphabet[(value >> (5 * position)) & 31] for position in range(26))


def _yaml_text(text: str) -> str:
    return f'"{text}"' if any(char in text for char in ":#[]{}") else text


# ------------------------------------------------------------------ body


def body(rng: random.Random, plan: NotePlan, plans: Sequence[NotePlan], facts: NoteFacts, heading: bool) -> str:
    target = rng.randint(WORDS_MIN, WORDS_MAX)
    blocks: list[str] = [f"# {plan.title}"] if heading else []
    words = len(plan.title.split()) + 1 if heading else 0
    link_budget = rng.choices((0, 1, 2, 3, 4), weights=(15, 30, 30, 15, 10))[0]
    while words < target:
        block = _block(rng, plan, plans, facts, link_budget > facts.links, after_heading=bool(blocks) and blocks[-1][0] == "#")
        blocks.append(block)
        words += len(block.split())
    if rng.random() < 0.3:
        blocks.append(" ".join(f"#{tag}" for tag in lexicon.TOPICS[plan.topic].tags[:2]))
    return "\n\n".join(blocks) + "\n"


def _block(rng: random.Random, plan: NotePlan, plans: Sequence[NotePlan], facts: NoteFacts, link: bool, after_heading: bool) -> str:
    roll = rng.random()
    if roll < 0.12 and not after_heading:
        return f"## {rng.choice(lexicon.HEADINGS)}"
    if roll < 0.25:
        return "\n".join(f"- {_fill(rng, rng.choice(LIST_ITEMS), plan)}" for _ in range(rng.randint(2, 5)))
    sentences = [_sentence(rng, plan) for _ in range(rng.randint(2, 5))]
    if link:
        sentences.append(_link_sentence(rng, plan, plans, facts))
    if rng.random() < 0.04:
        sentences.append(f"Reference {_code(rng, plan)}.")
    return " ".join(sentences)


def _sentence(rng: random.Random, plan: NotePlan) -> str:
    text = _fill(rng, rng.choice(SENTENCES), plan)
    return text[0].upper() + text[1:]


def _fill(rng: random.Random, template: _Template, plan: NotePlan) -> str:
    draw = rng.random
    return template.text % tuple([_word(slot, draw(), plan) for slot in template.slots])


def _word(slot: str, roll: float, plan: NotePlan) -> str:
    """The word for one slot from one uniform draw (the hot loop: one ``random()`` per word)."""
    if slot == "t" or slot == "T":
        if roll < 0.78:  # mostly the note's own topic, some of a second, a little noise
            topic, roll = plan.topic, roll / 0.78
        elif roll < 0.93:
            topic, roll = plan.secondary, (roll - 0.78) / 0.15
        else:
            topic, roll = int(roll * 10_000) % len(TOPIC_TERMS), (roll - 0.93) / 0.07
        table = (TOPIC_TERMS if slot == "t" else TOPIC_PLURALS)[topic].table
    elif slot == "k":
        return str(2 + int(roll * 39))
    else:
        table = GENERAL_POOLS[slot].table
    return table[min(int(roll * len(table)), len(table) - 1)]


def _link_sentence(rng: random.Random, plan: NotePlan, plans: Sequence[NotePlan], facts: NoteFacts) -> str:
    target = plans[rng.randrange(len(plans))]
    facts.links += 1
    link = f"[[{target.stem}|{target.title.lower()}]]" if rng.random() < 0.2 else f"[[{target.stem}]]"
    shape = rng.randrange(3)
    if shape == 0:
        return f"See {link} for the background."
    if shape == 1:
        return f"Related: {link}."
    return f"{PEOPLE.pick(rng)} wrote about this in {link}."


def _code(rng: random.Random, plan: NotePlan) -> str:
    prefix = lexicon.TOPICS[plan.topic].slug[:3].upper()
    return f"{prefix}-{rng.randint(1000, 9999)}"


# ------------------------------------------------------------------ one note, the vault


def render_note(seed: int, plan: NotePlan, plans: Sequence[NotePlan]) -> tuple[str, NoteFacts]:
    rng = note_rng(seed, plan.index, stream=2)
    facts = NoteFacts()
    if rng.random() < NO_FRONTMATTER_SHARE:
        facts.has_frontmatter = False
        return body(rng, plan, plans, facts, heading=True), facts
    head = frontmatter(rng, plan, facts)
    return head + body(rng, plan, plans, facts, heading=rng.random() < 0.6), facts


@dataclass
class GeneratedVault:
    path: str
    notes: int
    seed: int
    seconds: float
    bytes: int
    folders: int
    vocabulary: int
    by_layer: dict[str, int] = field(default_factory=dict)
    without_frontmatter: int = 0
    with_expiry: int = 0
    expired: int = 0
    invalid_expiry: int = 0
    naive_timestamps: int = 0
    date_only_timestamps: int = 0
    wikilinks: int = 0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def generate_vault(
    path: str | os.PathLike[str], n: int = DEFAULT_NOTES, seed: int = DEFAULT_SEED, workers: int | None = None,
    day_folders: bool = False,
) -> GeneratedVault:
    """Write ``n`` notes under ``path`` (created if missing; must be empty) and summarize them.

    ``workers``: processes writing notes. By default all CPUs for large vaults, when
    this process can fork safely (no other thread running), else one. The bytes
    written never depend on it: every note has its own random stream.
    """
    started = time.perf_counter()
    root = Path(path)
    _require_empty(root)
    plans = plan_notes(n, seed, day_folders)
    folders = _make_folders(root, plans)
    tally = _write_notes(root, seed, plans, _worker_count(n, workers))
    return _summary(root, n, seed, folders, tally, time.perf_counter() - started)


def _require_empty(root: Path) -> None:
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty; generate_vault writes into a new or empty folder only")
    root.mkdir(parents=True, exist_ok=True)


def _make_folders(root: Path, plans: Sequence[NotePlan]) -> int:
    folders = {plan.relative.rpartition("/")[0] for plan in plans} - {""}
    for folder in sorted(folders):
        (root / folder).mkdir(parents=True, exist_ok=True)
    return len(folders)


@dataclass
class _Tally:
    """Counts over the notes one worker wrote (merged into the summary)."""

    bytes: int = 0
    layers: Counter[str] = field(default_factory=Counter)
    without_frontmatter: int = 0
    with_expiry: int = 0
    expired: int = 0
    invalid_expiry: int = 0
    naive_timestamps: int = 0
    date_only_timestamps: int = 0
    wikilinks: int = 0

    def add(self, size: int, facts: NoteFacts) -> None:
        self.bytes += size
        self.layers[facts.layer or "none"] += 1
        self.without_frontmatter += not facts.has_frontmatter
        self.with_expiry += facts.expires
        self.expired += facts.expired
        self.invalid_expiry += facts.invalid_expiry
        self.naive_timestamps += facts.naive_timestamps
        self.date_only_timestamps += facts.date_only_timestamps
        self.wikilinks += facts.links

    def merge(self, other: _Tally) -> None:
        for name, value in other.__dict__.items():
            setattr(self, name, getattr(self, name) + value)


def _summary(root: Path, n: int, seed: int, folders: int, tally: _Tally, seconds: float) -> GeneratedVault:
    counts = {name: value for name, value in tally.__dict__.items() if name != "layers"}
    return GeneratedVault(path=str(root), notes=n, seed=seed, seconds=round(seconds, 3), folders=folders,
                          vocabulary=vocabulary_size(), by_layer=dict(sorted(tally.layers.items())), **counts)


def _worker_count(n: int, workers: int | None) -> int:
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if workers is not None:
        return max(1, workers)
    # Forking while another thread holds a lock (a watcher, a logging handler) can hang
    # the child; and below PARALLEL_FROM notes a second process costs more than it saves.
    if n < PARALLEL_FROM or threading.active_count() > 1:
        return 1
    return os.cpu_count() or 1


# Set just before forking so workers inherit the plans instead of receiving a pickled copy.
_SHARED: tuple[Path, int, list[NotePlan]] | None = None


def _write_notes(root: Path, seed: int, plans: list[NotePlan], workers: int) -> _Tally:
    if workers == 1:
        return _write_shard(root, seed, plans, 0, 1)
    global _SHARED
    _SHARED = (root, seed, plans)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            tallies = pool.map(_write_shared_shard, [(shard, workers) for shard in range(workers)])
    finally:
        _SHARED = None
    total = _Tally()
    for tally in tallies:
        total.merge(tally)
    return total


def _write_shared_shard(shard_of: tuple[int, int]) -> _Tally:
    assert _SHARED is not None, "set by _write_notes before the fork"
    root, seed, plans = _SHARED
    return _write_shard(root, seed, plans, *shard_of)


def _write_shard(root: Path, seed: int, plans: list[NotePlan], shard: int, shards: int) -> _Tally:
    tally = _Tally()
    for plan in plans[shard::shards]:
        text, facts = render_note(seed, plan, plans)
        data = text.encode("utf-8")
        with open(root / plan.relative, "wb") as handle:
            handle.write(data)
        tally.add(len(data), facts)
    return tally


# ------------------------------------------------------------------ queries


def make_queries(count: int, seed: int = DEFAULT_SEED) -> list[str]:
    """Realistic recall queries drawn from the same vocabulary and topics as the notes."""
    rng = random.Random(seed * 7919 + 17)
    return [_query(rng) for _ in range(count)]


def _query(rng: random.Random) -> str:
    topic = rng.randrange(len(TOPIC_TERMS))
    terms = TOPIC_TERMS[topic]
    shape = rng.random()
    if shape < 0.35:
        return " ".join(dict.fromkeys(terms.sample(rng, rng.randint(2, 4))))
    if shape < 0.55:
        return f"what did we decide about the {terms.pick(rng)} {NOUNS.pick(rng)}"
    if shape < 0.70:
        return f"{ADJECTIVES.pick(rng)} {terms.pick(rng)} {NOUNS.pick(rng)}"
    if shape < 0.80:
        return f"{PEOPLE.pick(rng)} {terms.pick(rng)} {terms.pick(rng)}"
    if shape < 0.90:
        return f"when is the {terms.pick(rng)} in {PLACES.pick(rng)}"
    return terms.pick(rng)
