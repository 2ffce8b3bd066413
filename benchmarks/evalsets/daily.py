"""A generated personal vault of daily notes, asked about one fact of a day each.

Seven weeks of ``Daily/YYYY-MM-DD.md`` (a day in five has no note). A day holds two to
six short unrelated facts (daily_facts.py: appointments, parking, gifts, recommendations,
password hints, deadlines, health, travel, home, people) and facts no question asks
about, written as paragraphs, as a list, or under headings (``## Work``, ``## Home``) —
some days with a long journal entry, so the note is more than one passage. Around them,
as in a real vault, pages a daily note's words also reach: a page per person, long
project pages, travel guides, book notes, recipes and meeting notes.

Each fact a question is written for appears once, in one daily note: the question's
answer. Questions paraphrase the fact (few shared words) and keep the names a person
would say. Same ``seed`` → same bytes, on any machine.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from .daily_facts import FILLERS, JOURNAL, KINDS, POOLS, FactKind
from .model import PreparedSet, Question, vault_digest

DEFAULT_SEED = 40
FIRST_DAY = date(2026, 10, 12)
DAYS = 49
NOW = "2026-11-30T12:00:00+00:00"
MAX_FACTS = 6


@dataclass(frozen=True)
class Fact:
    kind: str
    section: str
    text: str
    question: str | None  # None: a filler no question asks about


def _filled(template: str, slots: dict[str, str], rng: random.Random, extra: dict[str, tuple[str, ...]]) -> str:
    names = _slot_names(template)
    values = {name: slots[name] if name in slots else rng.choice(extra.get(name) or POOLS[name]) for name in names}
    return template.format(**values)


def _slot_names(*templates: str) -> list[str]:
    """The slots the templates name, in order, each once (a set's order changes with the
    process's string hashing, and the draws with it)."""
    return list(dict.fromkeys(name for template in templates for _, name, _, _ in string.Formatter().parse(template) if name))


def asked_facts(rng: random.Random) -> list[Fact]:
    """One fact per subject of every kind, with its question."""
    found = []
    for kind in KINDS:
        for subject in kind.subjects:
            found.append(_fact(kind, subject, rng))
    return found


def _fact(kind: FactKind, subject: dict[str, str], rng: random.Random) -> Fact:
    fact_template = subject.get("facts") or rng.choice(kind.facts)
    question_template = subject.get("questions") or rng.choice(kind.questions)
    # slots drawn once, shared by the fact and its question
    names = _slot_names(fact_template, question_template)
    slots = {name: subject[name] if name in subject else rng.choice(kind.extra.get(name) or POOLS[name]) for name in names}
    text = _filled(fact_template, slots, rng, kind.extra)
    return Fact(kind.kind, kind.section, text[0].upper() + text[1:],
                _filled(question_template, slots, rng, kind.extra))


def _days(rng: random.Random) -> list[date]:
    return [FIRST_DAY + timedelta(days=offset) for offset in range(DAYS) if rng.random() >= 0.2]


def _spread(facts: list[Fact], days: list[date], rng: random.Random) -> dict[date, list[Fact]]:
    """Asked facts over the days (at most three a day), then fillers up to two to six a day."""
    held: dict[date, list[Fact]] = {day: [] for day in days}
    for fact in facts:
        day = rng.choice([day for day in days if len(held[day]) < 3])
        held[day].append(fact)
    for day in days:
        wanted = max(len(held[day]), rng.randint(2, MAX_FACTS))
        fillers = rng.sample(FILLERS, wanted - len(held[day]))
        held[day].extend(Fact("filler", rng.choice(("Notes", "Home", "Work")), text, None) for text in fillers)
        rng.shuffle(held[day])
    return held


def daily_body(facts: list[Fact], rng: random.Random) -> str:
    """A day's body: paragraphs, a list, or sections; sometimes a journal entry."""
    style = rng.choice(("paragraphs", "paragraphs", "list", "sections"))
    if style == "paragraphs":
        body = "\n\n".join(fact.text for fact in facts)
    elif style == "list":
        body = "\n".join(f"- {fact.text}" for fact in facts)
    else:
        parts = []
        for section in sorted({fact.section for fact in facts}):
            lines = [fact.text for fact in facts if fact.section == section]
            parts.append(f"## {section}\n\n" + ("\n".join(f"- {line}" for line in lines) if len(lines) > 1 and rng.random() < 0.5
                                                 else "\n\n".join(lines)))
        body = "\n\n".join(parts)
    if rng.random() < 0.2:
        body += "\n\n## Journal\n\n" + " ".join(rng.sample(JOURNAL, rng.randint(8, 12)))
    return body + "\n"


def _frontmatter(day: date, rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.4:
        return ""
    if choice < 0.8:
        return "---\ntags: [daily]\n---\n"
    return f"---\ndate: {day.isoformat()}\nmood: {rng.choice(('ok', 'good', 'tired', 'great'))}\n---\n"


# ------------------------------------------------------------------ the rest of the vault

PEOPLE = {
    "Lena": "Lena works as a translator and lives two streets away. Likes long walks, hates phone calls. Two cats, Miso and Udon.",
    "Marco": "Marco, friend from university. Engineer, cycles everywhere, plays bass in a covers band.",
    "Priya": "Priya is a colleague from the design team. Vegetarian. Partner Ben, met at the climbing gym.",
    "Tom": "Tom, my old manager. Generous with advice, tells the same three stories at every dinner.",
    "Keiko": "Keiko is a curator; we met on a pottery course. Reads constantly, recommends more than I can keep up with.",
    "Jonas": "Jonas, neighbour at number 14. Fixes bikes, grows tomatoes, always has a spare ladder.",
    "Aisha": "Aisha, cousin. Nurse on night shifts, just bought her first flat. Loves podcasts and crosswords.",
    "Sam": "Sam from the running club. Knows every good place to eat in the city.",
    "Mum": "Mum. Retired teacher, gardens, calls on Sundays. Allergic to lilies.",
}

PROJECT_LINES = (
    "The goal is to ship a first version that a small group can use every day.",
    "Status: on track, with the usual risks around data quality and review time.",
    "We agreed to meet every Tuesday to review progress and blockers.",
    "Open question: who owns the rollout once the first version is live?",
    "Budget is approved for this quarter; the next one depends on the results.",
    "The design review raised concerns about accessibility, addressed in the second draft.",
    "Stakeholders want a one-page summary before every steering meeting.",
    "Lessons so far: write things down, agree on names early, keep the scope small.",
    "Dependencies: the data team's export, the legal review, the vendor contract.",
    "Next steps: finish the draft, circulate for comments, then freeze the scope.",
    "Risks are tracked in the shared sheet, reviewed at the end of each sprint.",
    "Metrics we care about: adoption after four weeks, support tickets, time saved per week.",
)

PLACES = {
    "Lisbon": "Trams up the hills, custard tarts in Belém, fado in Alfama. The airport is close to the centre; the metro takes 20 minutes.",
    "Kraków": "Old town square, Wawel castle, the Kazimierz quarter for food. Milk bars for cheap lunches.",
    "Edinburgh": "Castle, Arthur's Seat at sunrise, the Royal Mile. Book the train early, prices climb.",
    "Osaka": "Dotonbori at night, Kuromon market, day trip to Nara. Get a transport card at the airport.",
    "Montreal": "Bagels at St-Viateur, the Plateau, Mount Royal. The underground city in winter.",
}

BOOK_PAGES = {
    "Project Hail Mary": "Finished in three days. Science-heavy, funny, the friendship carries it. 4/5.",
    "Station Eleven": "Quiet and sad, the travelling orchestra is the heart of it. Reread some day.",
    "Braiding Sweetgrass": "Essays on plants and gratitude. Slow reading, one chapter a night.",
    "The Overstory": "Trees as characters. Too long in the middle, the ending is worth it.",
}

RECIPES = {
    "Lentil soup": "Red lentils, onion, carrot, cumin, stock. 25 minutes. Lemon at the end. Less salt than you think.",
    "Weekday dal": "Yellow split peas, turmeric, tempered mustard seeds and garlic. Rice or flatbread.",
    "Sheet-pan gnocchi": "Shop gnocchi, cherry tomatoes, peppers, olive oil. 220 °C for 25 minutes, basil on top.",
}

MEETINGS = (
    ("Team retro", "What went well: releases on time. What did not: too many meetings. Actions: cancel the Thursday sync."),
    ("Quarterly planning", "Priorities: Atlas first, then the migration. Hiring one more engineer. Review in six weeks."),
    ("1-1 with Tom", "Talked about growth, a course on public speaking, and taking fewer side projects."),
)


def _project_body(name: str, rng: random.Random) -> str:
    sections = []
    for heading in ("Goals", "Status", "Notes", "Decisions"):
        lines = rng.sample(PROJECT_LINES, 4)
        sections.append(f"## {heading}\n\n" + " ".join(lines))
    return f"# {name}\n\n" + "\n\n".join(sections) + "\n"


def _write(vault: Path, relative: str, text: str) -> None:
    path = vault / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def generate_daily(vault: Path, seed: int = DEFAULT_SEED) -> list[Question]:
    rng = random.Random(seed)
    facts = asked_facts(rng)
    days = _days(rng)
    held = _spread(facts, days, rng)
    questions = []
    for day in days:
        relative = f"Daily/{day.isoformat()}.md"
        _write(vault, relative, _frontmatter(day, rng) + daily_body(held[day], rng))
        questions.extend(Question(fact.question, (relative,), fact.kind, answer=fact.text)
                         for fact in held[day] if fact.question)
    for name, text in PEOPLE.items():
        _write(vault, f"People/{name}.md", f"---\ntype: person\n---\n{text}\n")
    for name in ("Atlas", "Q4 budget", "Grant application", "Conference talk", "Harbor migration"):
        _write(vault, f"Projects/{name}.md", "---\ntype: project\nstatus: active\n---\n" + _project_body(name, rng))
    for name, text in PLACES.items():
        _write(vault, f"Travel/{name}.md", f"---\ntype: place\n---\n# {name}\n\n{text}\n")
    for name, text in BOOK_PAGES.items():
        _write(vault, f"Books/{name}.md", f"---\ntype: book\nrating: 4\n---\n{text}\n")
    for name, text in RECIPES.items():
        _write(vault, f"Recipes/{name}.md", f"{text}\n")
    for name, text in MEETINGS:
        _write(vault, f"Meetings/{name}.md", f"{text}\n")
    questions.sort(key=lambda question: (question.kind, question.text))
    return questions


def prepare(workdir: Path, seed: int = DEFAULT_SEED) -> PreparedSet:
    vault = workdir / "daily"
    questions = generate_daily(vault, seed)
    return PreparedSet("daily", vault, questions, {"seed": seed, "days": DAYS, "now": NOW,
                                                   "vault_sha256": vault_digest(vault)}, now=NOW)
