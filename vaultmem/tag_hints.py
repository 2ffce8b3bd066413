"""What an empty answer filtered by tag says about the tags asked for.

``list --tag typo`` answered "no notes", the same words as a tag that exists on notes the
other filters leave out: a person cannot tell a misspelt tag from an empty one. The answer now
says which tags asked for no note carries at all (expired ones included), each with the
nearest tags the vault has (another spelling; case never matters,
storage.carries_tag). Pure: the tags asked for and the vault's tags in, warnings out.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from .fields import case_fold
from .storage import carries_tag

NEAREST = 3  # tags suggested at most
CLOSE_ENOUGH = 0.6  # difflib's ratio: "projcet" → "project", "helth" → "health"
SHORTEST_STEM = 3  # letters a tag asked for needs before the tags it begins count as near


def tag_warnings(asked: Sequence[str], known: Sequence[str]) -> list[str]:
    """The tags asked for that no note carries, each with the nearest the vault has; when every
    one is carried, that they exist and the other filters left their notes out."""
    unknown = [tag for tag in asked if not carries_tag(known, tag)]
    if unknown:
        return [unknown_tag_warning(tag, known) for tag in unknown]
    expiry = "layer, dates, expiry (expired notes are hidden unless asked for)"
    if len(asked) == 1:
        return [f"the tag #{asked[0]} exists (notes carry it), but none of those notes passes the other filters: {expiry}"]
    return [f"the tags {', '.join('#' + tag for tag in asked)} exist (notes carry each), but no note passes all the "
            f"filters: every tag asked for on one note, {expiry}"]


def unknown_tag_warning(tag: str, known: Sequence[str]) -> str:
    nearest = nearest_tags(tag, known)
    hint = f"nearest tags: {', '.join('#' + name for name in nearest)}" if nearest else "no tag of the vault is near it"
    return f"no note carries the tag #{tag} at all (nor a tag under it); {hint}"


def nearest_tags(tag: str, known: Sequence[str]) -> list[str]:
    """The vault's tags closest to ``tag``, case ignored: those it begins (shortest first), then
    those closest in spelling. Spelling alone named #styles and #css for #sys in a vault whose
    notes carry #sys-path and #sys.path (a basic-memory trial): a short word is far in spelling
    from the longer tags it begins."""
    by_folded: dict[str, str] = {}
    for name in known:
        by_folded.setdefault(case_fold(name), name)
    asked = case_fold(tag)
    begun = sorted((folded for folded in by_folded if folded.startswith(asked)), key=lambda folded: (len(folded), folded))
    close = difflib.get_close_matches(asked, list(by_folded), n=NEAREST, cutoff=CLOSE_ENOUGH)
    nearest = [*(begun if len(asked) >= SHORTEST_STEM else []), *close]
    return [by_folded[folded] for folded in dict.fromkeys(nearest)][:NEAREST]
