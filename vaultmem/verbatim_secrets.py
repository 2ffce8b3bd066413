"""Secrets written out in a memory's text: a password, a PIN, a card number, an API key.

A pure function over text; the policy that uses it is the MCP server's (adr/0011 "Secrets an
agent sends"): an agent's ``remember`` or ``revise`` that would write one is refused unless the
person allowed it. A note is a plain-text file the person syncs and may keep in git, where
``forget`` cannot reach (its answer says which commits still hold it): once written and
committed, a secret cannot be taken back by the agent. Found in a three-week agent trial:
"my wifi password is Elm-hunter2-77, remember it" was stored, committed, and after forget still
sat in the archive folder and in two commits.

What is found is only what is unmistakable, so a refusal is rarely wrong: a password word
(password, PIN, passcode, an alarm, door or safe code, a combination, an API key …) followed by
the value it is (``password is X``, ``PIN: 4921``), where the value holds a digit
or a sign (a plain word after "is" is a place: "the wifi password is in 1Password", which is
what an agent should write instead); a card number (13 to 19 digits that pass the Luhn check);
and API keys and private keys by their published prefixes. A passphrase of plain words is
not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A word that names a secret, then at most four words ("PIN for the bike lock"), then is/was/:/=.
_NAMED = re.compile(
    r"\b(?P<kind>passwords?|passcodes?|passphrases?|pass ?words?|pins?(?: codes?| numbers?)?|"
    r"api ?keys?|secret ?keys?|access ?keys?|access ?tokens?|security codes?|cvv|cvc|"
    r"(?:alarm|door|gate|safe|lock|entry|keypad|key ?safe|garage|wifi|unlock) ?codes?|combinations?)\b"
    r"(?:[ \t]+[\w'’-]+){0,4}?[ \t]*(?:\bis\b|\bwas\b|:|=)[ \t]*"
    r"[\"'“‘`]?(?P<value>[^\s\"'”’`]{3,})",
    re.IGNORECASE,
)
# "the password must be 12 characters": a rule about secrets, not one.
_MEASURE = re.compile(r"\s*(?:characters?|chars?|digits?|letters?|days?|weeks?|months?|minutes?|attempts?|times?)\b",
                      re.IGNORECASE)
_KEYS = re.compile(
    r"(?P<value>\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{30,}"
    r"|\bAKIA[0-9A-Z]{16}\b|\bxox[abposr]-[A-Za-z0-9-]{10,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)"
)
_CARD = re.compile(r"(?<![\d-])(?P<value>\d(?:[ -]?\d){12,18})(?![\d-])")


@dataclass(frozen=True)
class VerbatimSecret:
    """A secret found in a text: what kind, and the value shown masked (never whole)."""

    kind: str
    value: str

    def masked(self) -> str:
        """Enough of the value to tell which (its first and last characters), never the secret."""
        shown = 2 if len(self.value) >= 8 else 1
        return f"{self.value[:shown]}…{self.value[-shown:]}"

    def describe(self) -> str:
        """"a password 'El…77'", "an alarm code '7…1'"."""
        article = "an" if self.kind[0] in "aeiou" else "a"
        return f"{article} {self.kind} {self.masked()!r}"


def verbatim_secret(text: str) -> VerbatimSecret | None:
    """The first secret ``text`` writes out, or None."""
    for match in _NAMED.finditer(text):
        value = match.group("value").rstrip(".,;:!?)")
        if _secret_like(value) and not _MEASURE.match(text, match.end()):
            return VerbatimSecret(match.group("kind").lower(), value)
    if (key := _KEYS.search(text)) is not None:
        return VerbatimSecret("key", key.group("value"))
    for card in _CARD.finditer(text):
        digits = re.sub(r"\D", "", card.group("value"))
        if _luhn(digits):
            return VerbatimSecret("card number", digits)
    return None


def _secret_like(value: str) -> bool:
    """A value that holds a digit or a sign: a plain word after "is" says where it is kept."""
    return len(value) >= 3 and any(not character.isalpha() for character in value)


def _luhn(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        number = int(digit) * (2 if position % 2 else 1)
        total += number - 9 if number > 9 else number
    return total % 10 == 0
