"""The conversations set written the way other exports write a conversation: same turns, same questions.

``conversations.py`` names a turn ``<pair>/<date>-s<NN>/t<NNN>.md`` — one folder per session,
file names in the order said. A vault made elsewhere names them otherwise, and vaultmem reads a
conversation's order from somewhere (turns.py): these layouts ask whether it still does. Each
writes the generated set (``conversations.generate_conversations``, same seed), then moves every
turn to its layout's path with its layout's frontmatter; the questions' answers follow.

- ``sessions`` — as ``conversations`` (a control: the same figures).
- ``dialogues`` — one folder per conversation, ``<pair>/D<session>_<turn>.md``, a LoCoMo
  ``dia_id: D<session>:<turn>`` and the session's ``date`` (every turn of a session the same).
- ``onefolder`` — every conversation in one folder ``chats/``, ``<pair>-D<session>_<turn>.md``.
- ``slugs`` — one folder per conversation, each turn named by a slug of its first words
  (``okay-its-official-mexico-city.md``): the order is only in the frontmatter, a ``date``
  with the turn's own time (a minute apart), ``session`` and ``turn``.
- ``ids`` — one folder ``chats/`` of every conversation, each turn named by a random id: the
  order is only in ``conversation``, ``session`` and ``index``, the ``date`` the session's.
- ``role`` — as ``dialogues``, but who said it is ``role:`` (LongMemEval, an OpenAI chat's messages).
- ``author`` — as ``dialogues``, but who said it is ``author:`` (a Discord export, ChatGPT's message).

``python -m benchmarks.eval_ranking --sets conversations-slugs`` (any ``conversations-<layout>``).
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from .conversations import DEFAULT_SEED, generate_conversations
from .model import PreparedSet, Question, vault_digest

LAYOUTS = ("sessions", "dialogues", "onefolder", "slugs", "ids", "role", "author")
SLUG_WORDS = 5


@dataclass(frozen=True)
class Said:
    """One turn of the generated set, read back from its note."""

    path: str
    pair: str
    session: int
    turn: int
    speaker: str
    moment: datetime
    layer: str
    expires_at: str
    text: str


def read_turn(vault: Path, relative: str) -> Said:
    _, head, text = (vault / relative).read_text(encoding="utf-8").split("---\n", 2)
    meta = dict(line.split(": ", 1) for line in head.splitlines())
    return Said(relative, meta["conversation"], int(meta["session"]), int(meta["turn"]), meta["speaker"],
                datetime.fromisoformat(meta["date"]), meta["layer"], meta["expires_at"], text)


def _slug(text: str, taken: set[str], folder: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))[:SLUG_WORDS] or ["turn"]
    stem, number = "-".join(words), 1
    name = f"{folder}/{stem}.md"
    while name in taken:
        number += 1
        name = f"{folder}/{stem}-{number}.md"
    taken.add(name)
    return name


def placed(said: Said, layout: str, rng: random.Random, taken: set[str]) -> tuple[str, str]:
    """The turn's path and note in ``layout``."""
    dia = f"D{said.session}_{said.turn}"
    tail = f"layer: {said.layer}\nexpires_at: {said.expires_at}\n---\n{said.text}"
    session_date = f"{said.moment:%Y-%m-%dT%H:%M:%S}"
    if layout == "sessions":
        return said.path, (f"---\nspeaker: {said.speaker}\nconversation: {said.pair}\nsession: {said.session}\n"
                           f"turn: {said.turn}\ndate: {session_date}\n{tail}")
    if layout in ("dialogues", "role", "author"):
        key = {"dialogues": "speaker", "role": "role", "author": "author"}[layout]
        return f"{said.pair}/{dia}.md", (f"---\n{key}: {said.speaker}\ndia_id: D{said.session}:{said.turn}\n"
                                         f"session: {said.session}\ndate: {session_date}\n{tail}")
    if layout == "onefolder":
        return f"chats/{said.pair}-{dia}.md", (f"---\nspeaker: {said.speaker}\nconversation: {said.pair}\n"
                                               f"dia_id: D{said.session}:{said.turn}\nsession: {said.session}\n"
                                               f"date: {session_date}\n{tail}")
    if layout == "slugs":
        moment = said.moment + timedelta(minutes=said.turn - 1)
        return _slug(said.text, taken, said.pair), (f"---\nspeaker: {said.speaker}\nsession: {said.session}\n"
                                                    f"turn: {said.turn}\ndate: {moment:%Y-%m-%dT%H:%M:%S}\n{tail}")
    if layout == "ids":
        return f"chats/{rng.getrandbits(64):016x}.md", (f"---\nspeaker: {said.speaker}\nconversation: {said.pair}\n"
                                                        f"session: {said.session}\nindex: {said.turn}\n"
                                                        f"date: {session_date}\n{tail}")
    raise ValueError(f"unknown layout {layout!r}; choose from {', '.join(LAYOUTS)}")


def rewrite(vault: Path, layout: str, seed: int) -> dict[str, str]:
    """Move every turn of the generated ``vault`` to ``layout``: old path → new path."""
    rng = random.Random(f"conversation-exports/{seed}/{layout}")
    turns = [read_turn(vault, path.relative_to(vault).as_posix()) for path in sorted(vault.rglob("*.md"))]
    moved: dict[str, str] = {}
    written: dict[str, str] = {}
    taken: set[str] = set()
    for said in turns:
        path, note = placed(said, layout, rng, taken)
        moved[said.path] = path
        written[path] = note
    if len(written) != len(turns):
        raise RuntimeError(f"layout {layout}: two turns share a path")
    for child in list(vault.iterdir()):
        shutil.rmtree(child)
    for path, note in written.items():
        (vault / path).parent.mkdir(parents=True, exist_ok=True)
        (vault / path).write_text(note, encoding="utf-8")
    return moved


def prepare(workdir: Path, layout: str, seed: int = DEFAULT_SEED) -> PreparedSet:
    vault = workdir / "conversations"
    generated = generate_conversations(vault, seed)
    moved = rewrite(vault, layout, seed)
    questions = [Question(text=q.text, answers=tuple(moved[path] for path in q.answers), kind=q.kind, answer=q.answer)
                 for q in generated.questions]
    return PreparedSet(f"conversations-{layout}", vault, questions, {
        "seed": seed, "layout": layout, "pairs": generated.pairs, "sessions": generated.sessions,
        "turns": generated.turns, "vault_sha256": vault_digest(vault),
    })


def preparer(layout: str) -> Callable[[Path], PreparedSet]:
    return lambda workdir: prepare(workdir, layout)
