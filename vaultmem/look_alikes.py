"""Letters typed where digits go in a date: ``2026-12-O2``, ``2O26-l1-20`` (pure).

check's fix for such a value used to be a fixed example ("write it as 2026-11-30"), a day that
has nothing to do with the note, read as if vaultmem had guessed it (s43, an agent's week on a
real vault). :func:`look_alike_fix` names the day the value means with its look-alike letters
read as digits — only when the value is all digits, look-alikes and date marks, has more digits
than look-alikes, and the caller's reader (a date property's, ``created``'s, ``expires_at``'s)
then reads it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Letters that look like digits on a keyboard's row or a screen: O/o for 0, l/I for 1.
LOOK_ALIKE_DIGITS = {"O": "0", "o": "0", "l": "1", "I": "1"}
_AS_DIGITS = str.maketrans("OolI", "0011")
_DATE_SHAPED = re.compile(r"[0-9OolI:T\-./+ ]+")


def look_alike_fix(value: object, reads: Callable[[str], bool]) -> str | None:
    """"write it as DAY (it has the letter O where a digit goes)", or None when ``value`` has no
    look-alike letter or ``reads`` does not read it with them as digits."""
    if not isinstance(value, str) or not _DATE_SHAPED.fullmatch(value.strip()):
        return None
    letters = sorted({letter for letter in value if letter in LOOK_ALIKE_DIGITS}, key=value.index)
    slips = sum(letter in LOOK_ALIKE_DIGITS for letter in value)
    typed = value.strip().translate(_AS_DIGITS)
    # A typed date is digits with a few slips: a word of look-alikes (`lOlO`, `Olli`, `lool`) is no
    # date, not the year 1010 or 1001 (was, review43b s43: `date: lool` was told to be written as 1001).
    if not letters or slips >= sum(character.isdigit() for character in value) or not reads(typed):
        return None
    named = " and ".join(letters)
    where = f"the letter {named} where a digit goes" if len(letters) == 1 else f"the letters {named} where digits go"
    return f"write it as {typed} (it has {where})"
