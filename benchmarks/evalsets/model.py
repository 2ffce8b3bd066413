"""What an evaluation set is: a vault on disk and questions whose answers are notes."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]  # vault-relative paths of every note that answers (or holds evidence)
    kind: str  # what sort of question: the set's own categories (single, multi, temporal, howto ...)
    answer: str = ""  # the answer in words, for people reading the set; never scored
    section: str | None = None  # the heading of the answering section, where one section answers

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"question": self.text, "answers": list(self.answers), "kind": self.kind}
        if self.answer:
            found["answer"] = self.answer
        if self.section:
            found["section"] = self.section
        return found


@dataclass
class PreparedSet:
    """A set built on disk, ready to index: its vault folder and its questions."""

    name: str
    vault: Path
    questions: list[Question]
    info: dict[str, Any] = field(default_factory=dict)  # how it was made (seed, source, counts)
    now: str | None = None  # the instant expiry is judged at (ISO); None: the wall clock


def read_questions(path: Path) -> list[Question]:
    """The questions of a set's JSON file (``{"questions": [{"question", "answers", "kind", "section"?}]}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Question(text=item["question"], answers=tuple(item["answers"]), kind=item["kind"], section=item.get("section"))
            for item in data["questions"]]


def vault_digest(vault: Path) -> str:
    """A short digest of every note's path and bytes: equal digests, the same vault."""
    digest = hashlib.sha256()
    for note in sorted(vault.rglob("*.md")):
        digest.update(note.relative_to(vault).as_posix().encode())
        digest.update(note.read_bytes())
    return digest.hexdigest()[:16]
