"""The kepano vault (a real Obsidian vault, vendored in tests/data) and questions its owner
would ask, written before any ranking of it was looked at (``kepano.json``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .model import PreparedSet, Question

REPOSITORY = Path(__file__).resolve().parents[2]
QUESTIONS = Path(__file__).resolve().parent / "kepano.json"


def prepare(workdir: Path) -> PreparedSet:
    data = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    source = REPOSITORY / data["vault"]
    vault = workdir / "kepano"
    shutil.copytree(source, vault, ignore=shutil.ignore_patterns(".vaultmem"))
    questions = [Question(text=item["question"], answers=tuple(item["answers"]), kind=item["kind"]) for item in data["questions"]]
    for question in questions:
        for answer in question.answers:
            if not (vault / answer).is_file():
                raise FileNotFoundError(f"{QUESTIONS.name}: {question.text!r} names {answer}, which is not in {source}; fix the path in {QUESTIONS}")
    return PreparedSet("kepano", vault, questions, {"source": data["vault"]})
