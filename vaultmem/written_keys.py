"""API keys and private keys written in a note, for ``check`` to warn of (pure).

A memory vault is synced, kept in git and read by agents: a cloud key pasted into a note goes
wherever the vault goes, and stays in git's history after the line is deleted. ``check`` says
where one is (file, line, which kind, the value masked) and what to do — move it to a password
manager and rotate it if the vault left the machine — as a notice, not a problem: the note is
the person's, and nothing in it is wrong for vaultmem (adr/0011 "Keys in the person's notes").

Only shapes that are unmistakable are found: an AWS access key id (``AKIA`` and 16 capitals or
digits), a GitHub token (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_`` and 36 letters or digits,
or ``github_pat_``), an OpenAI or Anthropic key (``sk-``, ``sk-proj-``, ``sk-ant-``), a Slack token
(``xoxb-`` …) and a private key block (``-----BEGIN … PRIVATE KEY-----`` with its base64 below
it). Stricter than the refusal of an agent's write (verbatim_secrets._KEYS), which errs towards
refusing: this one runs over notes a person already has, where a false alarm on every check
teaches them to stop reading. So a key's random part must look random (letters in both cases
and a digit: ``sk-learn-model-notes`` is a slug), AWS's documented example ids
(``AKIAIOSFODNN7EXAMPLE``) are left alone, and a ``BEGIN`` line with no key under it (a how-to
showing the format) is not a key.

A note that holds a key on purpose (a throwaway test key, a key kept in a vault that never leaves
an encrypted disk) says ``allow_secrets: true`` in its frontmatter, and check says nothing of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

ALLOW_KEY = "allow_secrets"  # the frontmatter key that silences the warning for one note

# (kind, pattern of the whole value, the part that must look random)
_SHAPES: tuple[tuple[str, str], ...] = (
    ("AWS access key id", r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"),
    ("GitHub token", r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,}(?![A-Za-z0-9_])"),
    ("GitHub token", r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{50,}(?![A-Za-z0-9_])"),
    ("OpenAI or Anthropic API key", r"(?<![A-Za-z0-9_-])sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])"),
    ("Slack token", r"(?<![A-Za-z0-9_-])xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{8,}(?![A-Za-z0-9_-])"),
)
_KEY = re.compile("|".join(f"(?P<k{number}>{pattern})" for number, (_, pattern) in enumerate(_SHAPES)))
_PRIVATE_KEY = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n(?:[A-Za-z-]+:.*\r?\n|[ \t]*\r?\n)*"
                          r"[ \t]*[A-Za-z0-9+/=]{40,}")
_SLUG_WORD = re.compile(r"[A-Za-z][a-z]*|[A-Z]+|[0-9]+")  # a slug's part: Word, word, WORD or a number
_QUICK = re.compile(r"AKIA|ASIA|gh[pousr]_|github_pat_|sk-|xox[abposr]-|PRIVATE KEY")


@dataclass(frozen=True)
class WrittenKey:
    """A key found in a note: its kind, the line it is on (of the file), the value masked."""

    kind: str
    line: int | None  # None: in a frontmatter property
    masked: str
    property: str | None = None

    def where(self) -> str:
        return f"line {self.line}" if self.property is None else f"its frontmatter property {self.property!r}"


def allowed(meta: Mapping[str, Any]) -> bool:
    """Whether the note says ``allow_secrets: true``: check does not warn of its keys."""
    return meta.get(ALLOW_KEY) is True


def keys_in_text(text: str, first_line: int = 1) -> Iterator[WrittenKey]:
    """The keys ``text`` holds, each with its line (``first_line``: the file's line ``text`` starts on)."""
    if _QUICK.search(text) is None:
        return
    found: list[tuple[int, str, str]] = []  # (where, kind, masked)
    for match in _KEY.finditer(text):
        kind = _SHAPES[int(next(name for name, value in match.groupdict().items() if value)[1:])][0]
        if _looks_random(kind, match.group()):
            found.append((match.start(), kind, _masked(match.group())))
    for match in _PRIVATE_KEY.finditer(text):
        found.append((match.start(), "private key", match.group().split("\n", 1)[0].strip()))
    # Lines counted on from the last key, not from the text's start: a pasted CloudTrail log of
    # 8,000 access key ids (1.5 MB) took 3.4 s of CPU each check.
    line, counted = first_line, 0
    for start, kind, masked in sorted(found, key=lambda key: key[0]):
        line, counted = line + text.count("\n", counted, start), start
        yield WrittenKey(kind, line, masked)


def keys_in_properties(meta: Mapping[str, Any]) -> Iterator[WrittenKey]:
    """The keys a note's frontmatter values hold (a text, a list's texts, a nested map's values: a
    key kept as ``env: {OPENAI_API_KEY: sk-…}`` was not looked at), by property (``env.OPENAI_API_KEY``)."""
    for name, value in meta.items():
        for where, text in _texts_in(str(name), value):
            for key in keys_in_text(text):
                yield WrittenKey(key.kind, None, key.masked, where)


def _texts_in(name: str, value: object) -> Iterator[tuple[str, str]]:
    """The texts of a property's value, each with the property's path (a nested map's key after a
    dot). No value holds itself: frontmatter whose aliases make one is not loaded (notes.py)."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, Mapping):
        for inner, held in value.items():
            yield from _texts_in(f"{name}.{inner}", held)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts_in(name, item)


def _looks_random(kind: str, value: str) -> bool:
    """A key's generated part, not a slug or a documented example (module docstring)."""
    if kind == "AWS access key id":
        return "EXAMPLE" not in value
    if kind == "Slack token":
        return True  # its digits are its shape
    generated = value.split("_", 1)[1] if kind == "GitHub token" and "_" in value else value.removeprefix("sk-")
    # A title's slug (`sk-Learn-Model-Selection-Guide-2023`, a note's name) has capitals and a digit
    # too, but each part between its hyphens is a word or a number; a key's parts mix them.
    if kind != "GitHub token" and all(_SLUG_WORD.fullmatch(part) for part in re.split(r"[-_]", generated) if part):
        return False
    return (any(character.isdigit() for character in generated) and any(character.isupper() for character in generated)
            and any(character.islower() for character in generated))


def _masked(value: str) -> str:
    """Its prefix and last two characters: which key it is, never the key."""
    prefix = re.match(r"AKIA|ASIA|gh[pousr]_|github_pat_|sk-(?:proj-|ant-|svcacct-)?|xox[abposr]-", value)
    shown = prefix.group() if prefix else value[:2]
    return f"{shown}…{value[-2:]}"
