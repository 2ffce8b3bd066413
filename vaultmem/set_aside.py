"""The person's own archive folder: notes they set aside, ranked as less likely answers (adr/0004).

A PARA vault (Projects, Areas, Resources, Archives) keeps what is no longer current in a
top-level folder of its own: ``4 Archive``, ``04 - Archives``, ``4. Archive``, ``🗄️ Archive`` or
just ``Archive``. Those notes are the person's and stay notes — searched, listed, read, written
as any other — unlike vaultmem's archive folder (``archive_dir``), which nothing reads. But
they say what *was* so: the old landlord, the 2024 race plan. A trial asked "landlord phone
number" and got the old lease first (score 0.77) and the current landlord second (0.33); "half
marathon long run plan" the 2024 plan above this year's (0.89, 0.85).

So a set-aside note's odds of being the answer are divided by :data:`SET_ASIDE_ODDS`: its fused
value is lowered by ``ln(SET_ASIDE_ODDS) / b``, ``b`` the slope of the embedder's calibration
(ranking.probability), and its score and rank follow. A note that answers far better than any
current one still comes first (asked "Berlin marathon 2024", the 2024 plan: 0.99 → 0.91, over
this year's 0.27); one that answers about as well goes below (the old lease: 0.77 → 0.25). A
note asked for by its name keeps the name's place (ranking.name_bonus). Its hit says where it is.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import replace

from .ranking import Fused

SET_ASIDE_ODDS = 10.0
TOP_FOLDERS_REMEMBERED = 1024

# The word for an archive in the languages PARA vaults are kept in (a German vault's "4 Archiv",
# a Japanese one's "4 アーカイブ"): English, German and Czech, Italian, Spanish and Portuguese
# (singular only: "Archivos", "Arquivos" is as often a folder of files, attachments), Dutch,
# Scandinavian, Polish, Russian and Ukrainian, Japanese, Chinese, Korean. Without them a German
# "4 Archiv" answered as current (a review). French "Archives" is the English word.
_ARCHIVE_WORDS = ("archives?", "archived", "archiv", "archivio", "archivo", "archivado", "arquivo", "arquivado", "archief",
                  "arkiv", "archiwum", "архив", "архів", "アーカイブ", "归档", "歸檔", "아카이브")
# A number (PARA's order: 4, 04, 4., 4 -), signs or an emoji before the word, signs or an emoji
# after it ("Archive 📦"), no other word nor number ("Archive 2020", "Archived Projects").
_ARCHIVE_FOLDER = re.compile(rf"[\d\W_]*(?:{'|'.join(_ARCHIVE_WORDS)})[\W_]*", re.IGNORECASE)


def set_aside_folder(path: str) -> str | None:
    """The top-level folder of ``path`` when it is the person's archive folder, else None."""
    top, slash, _rest = path.partition("/")
    return top if slash and _is_archive_folder(top) else None


@functools.lru_cache(maxsize=TOP_FOLDERS_REMEMBERED)
def _is_archive_folder(top: str) -> bool:
    """Remembered by name (a pure function of it): a search asks it of each of its ~200 fused
    candidates, whose paths start with a few top-level folders (0.2 ms a search at 10k notes)."""
    # Composed: a Mac's file system may spell the folder decomposed (ブ as フ and a mark).
    return _ARCHIVE_FOLDER.fullmatch(unicodedata.normalize("NFC", top)) is not None


def set_aside(item: Fused, path: str | None, slope: float) -> Fused:
    """``item`` with its fused value lowered when its note is in the person's archive folder
    and the query did not name it."""
    if path is None or item.name_lift is not None or set_aside_folder(path) is None or slope <= 0:
        return item
    return replace(item, value=item.value - math.log(SET_ASIDE_ODDS) / slope)


def set_aside_warning(path: str) -> list[str]:
    """What a hit in the person's archive folder says of itself."""
    folder = set_aside_folder(path)
    if folder is None:
        return []
    # "unless the query names it": a note asked for by its name is not lowered (set_aside); without
    # it, the lease asked for as "Old Apartment Lease", first at 0.90, said it was lowered (a review).
    return [f"set aside: in {folder}/, a folder of past notes: search counts it a tenth as likely to be the current "
            "answer, unless the query names it"]
