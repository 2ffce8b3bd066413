"""A product's help vault: Obsidian's own documentation, one note per page, asked as its users ask.

The pages are not in the repository and are not downloaded: the set reads a local copy of the
English pages of the public ``obsidianmd/obsidian-help`` repository (its ``en/`` folder), named
by the environment variable ``VAULTMEM_EVAL_HELP``, and copies its Markdown files into the
set's folder. Without the variable the set is not run (``--sets help`` says why).

Pages are short to long (a few lines to several thousand words: ``Advanced formatting syntax``
holds tables, math, diagrams and footnotes), link each other with ``[[wikilinks]]``, embed
images and carry Obsidian's own markup (callouts, properties), as a person's vault does.
Questions (``help.json``) were written blind, before any ranking of this vault was run or
looked at, in the words of someone who has not read the page ("how do I write a table");
each names every note that answers and, where one section answers, its heading. The set
refuses to run when a named note or section is missing from the copy (another version of the
help), instead of scoring questions whose answer is not there.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .docs import DocsSourceMissing, has_heading
from .model import PreparedSet, Question, read_questions, vault_digest

SOURCE_VARIABLE = "VAULTMEM_EVAL_HELP"
QUESTIONS = Path(__file__).resolve().parent / "help.json"


def prepare(workdir: Path) -> PreparedSet:
    source = _source()
    vault = workdir / "help"
    if vault.exists():
        shutil.rmtree(vault)
    notes = 0
    for page in sorted(source.rglob("*.md")):
        target = vault / page.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, target)
        notes += 1
    questions = load_questions(vault)
    return PreparedSet("help", vault, questions, {
        "notes": notes, "source": str(source),
        "vault_sha256": vault_digest(vault),  # equal digests: the same pages, whatever the machine
    })


def _source() -> Path:
    named = os.environ.get(SOURCE_VARIABLE)
    if not named:
        raise DocsSourceMissing(f"the help set reads a local copy of the en/ folder of obsidianmd/obsidian-help: set {SOURCE_VARIABLE} to that folder, or run without it")
    source = Path(named).expanduser()
    if not source.is_dir():
        raise DocsSourceMissing(f"{SOURCE_VARIABLE}={named} is not a folder; point it at a copy of the en/ folder of obsidianmd/obsidian-help")
    return source


def load_questions(vault: Path) -> list[Question]:
    questions = read_questions(QUESTIONS)
    for question in questions:
        for answer in question.answers:
            note = vault / answer
            if not note.is_file():
                raise DocsSourceMissing(f"{QUESTIONS.name}: {question.text!r} names {answer}, which the copy in ${SOURCE_VARIABLE} does not hold; it is another version of the help")
            if question.section and answer == question.answers[0] and not has_heading(note.read_text(encoding="utf-8"), question.section):
                raise DocsSourceMissing(f"{QUESTIONS.name}: {question.text!r} names the section {question.section!r} of {answer}, which is not there; the copy is another version of the help")
    return questions
