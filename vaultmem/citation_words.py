"""Pandoc citation keys, as the full-text side reads them (pure).

An academic's Zettelkasten cites as Pandoc and Zotero's Better BibTeX write it:
``[@cepeda2006, p. 4; @bjork1994]``, ``@smith2020a says``. SQLite FTS5's ``unicode61``
tokenizer keeps ``cepeda2006`` one token, so a search for "Cepeda" found only the reading list
that spelled the name out, never the zettel that cited her (a trial on a Zettelkasten kept in
Johnny.Decimal folders). So the full text holds such a key as written *and* as its author and
year right after it (:func:`with_citation_words`): ``@cepeda2006 cepeda 2006``. The query side
already asks for ``cepeda2006`` as typed or as the phrase "cepeda 2006"
(search._codes_either_way).

Which keys: an ``@`` that no letter, digit, dot or ``@`` stands before (``ana@lab2020.org`` is an
address), then letters (an author, ``van_dijk`` too, and a double-barrelled ``smith-jones``:
unicode61 split ``jones2019a`` off as one token, and "Jones" found nothing), a year from 1500 to
2099 and at most a letter (``2006b``), then whatever of the key Pandoc's internal punctuation
carries on (``@doe2020-supp``, ``@smith2019:ch2``), after which the words are added. Each key's words are added once
per text: a key a note cites ten times is found by the author's name, and the name does not
count ten times more. A key in camelCase (Better BibTeX's ``auth.lower + shorttitle + year``:
``cepedaDistributedPractice2006``) gets none: identifiers.with_identifier_words spells it out
already, year too, and said twice its words counted twice (a review, s37). ``@doe:2020`` needs
none either: unicode61 splits it at the colon.
"""

from __future__ import annotations

import re

from .identifiers import identifier_parts

# Possessive runs, each hyphen starting a new one: linear in a pasted blob (adr/0018).
# The key may go on after its year with Pandoc's internal punctuation and more (`@doe2020-supp`,
# `@smith2019:ch2`): its words go after the whole key, not inside it (review, s38: `@doe2020 doe
# 2020-supp` split the key the text holds, and a search for it as written no longer matched).
_KEY = re.compile(r"(?<![\w.@])@([^\W\d]++(?:-[^\W\d]++)*+)((?:1[5-9]|20)\d\d)[^\W\d_]?(?![\w])"
                  r"((?:[:.#$%&+?<>~/-]\w++)*+)")


def with_citation_words(text: str) -> str:
    """``text`` with each Pandoc citation key followed by its author and year, as the full
    text holds it; any other text is returned as it is."""
    if "@" not in text:  # most prose: no key at all
        return text
    spelled: set[str] = set()

    def once(key: re.Match[str]) -> str:
        cited = key.group()[1:len(key.group()) - len(key.group(3))]  # without what follows its year
        if key.group() in spelled or identifier_parts(cited) is not None:
            return key.group()
        spelled.add(key.group())
        return f"{key.group()} {key.group(1)} {key.group(2)}"

    return _KEY.sub(once, text)
