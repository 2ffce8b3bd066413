"""Code identifiers written in camelCase, as the full-text side reads them (pure).

SQLite FTS5's ``unicode61`` tokenizer splits ``snake_case`` and ``kebab-case`` at their
separators, but keeps ``enablePodAntiAffinity`` or ``NetworkTopologyStrategy`` one token: a
question about "network topology strategy" found nothing in a Cassandra cheat sheet saying
``NetworkTopologyStrategy`` five times, and "pod anti affinity" was told "anti" is in no note
(a trial on a developer's snippets vault). So:

- the full text holds such an identifier as written *and* as its words right after it
  (:func:`with_identifier_words`): ``enablePodAntiAffinity enable Pod Anti Affinity``;
- a query word written so is asked for as written or as the phrase of its words
  (search._codes_either_way): ``PodAntiAffinity`` finds ``enablePodAntiAffinity``, and
  ``ObjectStore`` a note's ``barmanObjectStore`` — or its "object store".

Which identifiers: those of three words or more (``enablePodAntiAffinity``,
``primaryUpdateStrategy``, ``NetworkTopologyStrategy``, ``XMLHttpRequest``), the names code
makes. One of two stays whole: split, ``JavaScript`` would answer "java", ``GitHub`` "git" and
``PostgreSQL`` "sql" — each a question about another thing —, and ``devDependencies`` made
every ``package.json`` page answer "dependencies" (a manuals evaluation question about
``npm audit`` lost a place to it).
"""

from __future__ import annotations

import re

# An ASCII word with a capital after its first letter: runs of capitals and of lower-case
# letters and digits, each taken whole (possessive), so a pasted blob is read in linear time.
_CAPITALISED_WITHIN = re.compile(r"(?<![\w-])[A-Za-z][a-z0-9]*+(?:[A-Z]++[a-z0-9]*+)++(?![\w-])")
_LOWER_THEN_CAPITAL = re.compile(r"[a-z][A-Z]")
# The same, found from the capital (rare in prose) looking back: the search skips ahead to each
# capital instead of trying every lower-case letter (half the time over a vault's passages).
_CAPITAL_AFTER_LOWER = re.compile(r"[A-Z](?<=[a-z][A-Z])")
# A word's parts: an acronym before a capitalised word (``XML`` of ``XMLHttp``), a capitalised
# or lower-case word, an acronym, a number.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def identifier_parts(word: str) -> list[str] | None:
    """The words of ``word`` when it is a camelCase identifier the full text spells out,
    else None: ``enablePodAntiAffinity`` → ``enable Pod Anti Affinity``, ``DaemonSet`` → None."""
    parts = camel_words(word)
    return parts if parts is not None and len(parts) >= 3 else None


def camel_words(word: str) -> list[str] | None:
    """The words of ``word`` when a lower-case letter stands before a capital in it, else None:
    ``DaemonSet`` → ``Daemon Set``. A query word asks for them too (search._codes_either_way):
    what a person typed so is a name of those words, whichever spelling a note holds."""
    if _CAPITALISED_WITHIN.fullmatch(word) is None or _LOWER_THEN_CAPITAL.search(word) is None:
        return None
    return _PART.findall(word)


def with_identifier_words(text: str) -> str:
    """``text`` with each camelCase identifier followed by its words (:func:`identifier_parts`),
    as the full text holds it; any other text is returned as it is."""
    if _CAPITAL_AFTER_LOWER.search(text) is None:  # most prose: no such word at all
        return text
    spelled: set[str] = set()

    def once(identifier: re.Match[str]) -> str:
        # Its words once per text: an identifier a manifest repeats is found by them, and its
        # words do not count again at each repetition.
        parts = identifier_parts(identifier.group())
        if parts is None or identifier.group() in spelled:
            return identifier.group()
        spelled.add(identifier.group())
        return f"{identifier.group()} {' '.join(parts)}"

    return _CAPITALISED_WITHIN.sub(once, text)
