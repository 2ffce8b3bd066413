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
what an agent should write instead, and so is a link, an address, a date or a placeholder); a
card number (13 to 19 digits, in one run or grouped as cards print them, in an issuer's range
and passing the Luhn check); and API keys and private keys by their published prefixes. A
passphrase of plain words is not found.

Measured (s35 review) over 167 memories an agent would be asked to keep (locker numbers,
booking references, meeting IDs, order and tracking numbers, IBANs, IMEIs, commit hashes, "the
password manager is 1Password") and every paragraph of text on the machine: the first version
refused 32 of the memories (19%: commit hashes, calendars and IMEIs taken for card numbers; links,
dates and "password manager" taken for passwords) and flagged 423 of 992,000 paragraphs; this one
refuses 1 memory and flags 13 paragraphs, all of them code or configuration.
tests/test_verbatim_secrets.py holds each kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# A word that names a secret, then at most four words ("PIN for the bike lock"), then is/was/:/=.
_NAMED = re.compile(
    r"\b(?P<kind>passwords?|passcodes?|passphrases?|pass ?words?|pins?(?: codes?| numbers?)?|"
    r"api ?keys?|secret ?keys?|access ?keys?|access ?tokens?|security codes?|cvv|cvc|"
    r"(?:alarm|door|gate|safe|lock|locker|entry|keypad|key ?safe|garage|wifi|unlock) ?codes?|combinations?)\b"
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
# A card number as cards print it: 13 to 19 digits in one run, in fours (4111 1111 1111 1111) or as
# American Express and Diners group theirs (3782 822463 10005) — not digits inside a word (a commit
# hash: 3abf981542788310104bc9…) nor a longer run of groups (a parcel's 9400 1118 9922 3344 5566 77).
_CARD = re.compile(r"(?<![\w/-])(?<!\d[ -])(?P<value>\d{13,19}|\d{4}(?:[ -]\d{4}){2}[ -]\d{1,7}|\d{4}[ -]\d{6}[ -]\d{4,5})"
                   r"(?![\w/-]|[ -]\d)")
# The issuers' number ranges and lengths (ISO/IEC 7812 IINs as Visa, Mastercard, American Express,
# Discover, Diners, JCB, UnionPay and Maestro publish them): 13 to 19 Luhn-valid digits are one in
# ten of any such run, and an IMEI (35…, 15 digits) or a pet's microchip (956…, 15) passes Luhn by design.
_ISSUERS = ((r"4", (13, 16, 19)), (r"5[1-5]|2(?:2[2-9]|[3-6]\d|7[01])|2720", (16,)), (r"3[47]", (15,)),
            (r"6011|64[4-9]|65", range(16, 20)), (r"30[0-5]|3[689]", range(14, 20)), (r"35(?:2[89]|[3-8]\d)", range(16, 20)),
            (r"62", range(16, 20)), (r"5[06-8]|6[37]", range(13, 20)))
# A place the secret is kept, not the secret: a wikilink or Markdown link to where it is, a web
# address, an e-mail address, a date (when it changed), a path, a placeholder (<token>, ${API_KEY},
# YOUR_API_KEY), "n/a", code (password = g_strdup(s).
_NOT_A_VALUE = re.compile(
    r"\[\[|\[[^\]]*\]\(|[a-z][a-z0-9+.-]*://|www\.|[\w.+-]+@[\w-]+\.[\w.-]+$|\d{4}-\d{2}-\d{2}(?:[T ]|$)|[~.]?/|<|\$\{|\$[A-Z_]{2,}"
    r"|\{\{|(?:YOUR|MY)_[A-Z_]+$|[A-Z]+(?:_[A-Z]+)+$|n/?a$|[A-Za-z_][\w.]*\(", re.IGNORECASE)
_MARKUP = "*_~()[]{}"
# The first word after the secret's name that makes it another thing: a password manager, a
# password reset link, an API key's page or name, a combination lock, a PIN pad.
_COMPOUNDS = frozenset({"manager", "managers", "reset", "resets", "policy", "policies", "length", "field", "fields",
                        "prompt", "generator", "rule", "rules", "requirement", "requirements", "strength", "page",
                        "pages", "link", "links", "url", "site", "name", "names", "lifetime", "expiry", "expiration",
                        "lock", "locks", "pad", "reader", "file", "files", "changed", "updated", "rotated", "rotation",
                        "format", "prefix", "scope", "scopes", "id", "ids", "header", "variable", "env", "setting",
                        "settings", "screen", "dialog", "form", "login"})
# "combination" alone is of a lock only beside one ("the key combination is Ctrl+Shift+P", "the
# winning combination was 4-3-3" are not secrets).
_LOCK_WORDS = re.compile(r"\b(?:lock|locks|locker|lockers|padlock|safe|bike)\b", re.IGNORECASE)
# India's postal code is its "PIN code" (560001, Bengaluru): six digits beside a place.
_POSTAL = re.compile(r"\b(?:postal|post office|postcode|address|district|city)\b", re.IGNORECASE)
_PLACE_AFTER = re.compile(r"\s*[,(]\s*[A-Z][a-z]")
# A meeting's passcode or PIN is in every invitation, and a person keeps it with the meeting ID.
_MEETING = re.compile(r"\b(?:zoom|teams|webex|google meet|meeting|dial-in|conference call|conference)\b", re.IGNORECASE)


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


def verbatim_secret(text: str, already: str = "") -> VerbatimSecret | None:
    """The first secret ``text`` writes out that ``already`` (the note's text now) does not hold, or None."""
    return next((secret for secret in verbatim_secrets(text) if secret.value not in already), None)


def verbatim_secrets(text: str) -> Iterator[VerbatimSecret]:
    """Every secret ``text`` writes out, in the detector's order (named, keys, cards)."""
    for match in _NAMED.finditer(text):
        if _names_a_secret(text, match):
            # One kind, singular: "a pin", never "a pins" (a property pins: [4921]).
            kind = re.sub(r"(?<=[a-rt-z])s\b", "", match.group("kind").lower())
            yield VerbatimSecret(kind, match.group("value").rstrip(".,;:!?)").strip(_MARKUP))
    for key in _KEYS.finditer(text):
        yield VerbatimSecret("key", key.group("value"))
    for card in _CARD.finditer(text):
        digits = re.sub(r"\D", "", card.group("value"))
        if _luhn(digits) and _issued(digits) and len(set(digits)) > 1:
            yield VerbatimSecret("card number", digits)


def verbatim_secret_property(key: str, value: object) -> VerbatimSecret | None:
    """The secret a property spells out: ``wifi_password: Elm-hunter2-77`` as the text
    ``wifi password: Elm-hunter2-77`` (a key's ``_`` and ``-`` join words), each of a list's items."""
    words = re.sub(r"[_-]+", " ", key)
    for item in value if isinstance(value, list) else [value]:
        if (secret := verbatim_secret(f"{words}: {item}")) is not None:
            return secret
    return None


def _names_a_secret(text: str, match: re.Match[str]) -> bool:
    """Whether the value after a secret's name is the secret, not where it is kept or when it changed."""
    value = match.group("value").rstrip(".,;:!?)")
    gap = match.group(0)[len(match.group("kind")):].split()
    kind = match.group("kind").lower()
    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start:None if line_end < 0 else line_end]
    if gap and gap[0].lower().strip(":=") in _COMPOUNDS:
        return False
    if _NOT_A_VALUE.match(value) or not _secret_like(value.strip(_MARKUP)) or _MEASURE.match(text, match.end()):
        return False
    if kind.startswith("combination") and not _LOCK_WORDS.search(text, line_start, match.end()):
        return False
    if kind.startswith("pin code") and re.fullmatch(r"[1-9]\d{5}", value) and (
            _POSTAL.search(line) or _PLACE_AFTER.match(text, match.start("value") + len(value))):
        return False
    return not (kind.startswith(("passcode", "pin")) and _MEETING.search(line))


def _issued(digits: str) -> bool:
    """Whether ``digits`` fall in a card issuer's range, at one of its lengths."""
    return any(re.match(prefix, digits) and len(digits) in lengths for prefix, lengths in _ISSUERS)


def _secret_like(value: str) -> bool:
    """A value that holds a digit or a sign: a plain word after "is" says where it is kept."""
    return len(value) >= 3 and any(not character.isalpha() for character in value)


def _luhn(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        number = int(digit) * (2 if position % 2 else 1)
        total += number - 9 if number > 9 else number
    return total % 10 == 0
