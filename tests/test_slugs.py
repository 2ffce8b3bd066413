"""The file names remember makes from a title (slugs.py, adr/0020), and how a file is
recognised as named so (dating.py reads no day from such a name, adr/0026)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem import Vault
from vaultmem.dating import note_date
from vaultmem.slugs import named_from_title, slugify


@pytest.mark.parametrize(("title", "slug"), [("__init__.py", "init-py"), ("_draft_ plan", "draft-plan"),
                                            ("snake_case_name", "snake_case_name"), ("__", "note")])
def test_a_slugs_words_lose_the_underscores_around_them(title: str, slug: str) -> None:
    # `__init__.py` made `init__-py.md`: only the underscores at the ends of the whole slug went.
    assert slugify(title) == slug


def test_remember_titled_init_py_writes_init_py(vault_dir: Path) -> None:
    with Vault(vault_dir) as vault:
        written = vault.remember("The package's __init__.py re-exports Vault.", title="__init__.py")
    assert written.path == "memories/init-py.md"


def test_a_note_named_by_the_slug_made_before_is_still_named_from_its_title() -> None:
    # Notes remember wrote before keep being read as named from their title: a day in such a
    # name is the text's, not the day the memory is about (adr/0026).
    assert named_from_title("init__-py", "__init__.py") and named_from_title("init-py", "__init__.py")
    assert named_from_title("draft_-2026-03-14-plan-2", "_draft_ 2026-03-14 plan")
    meta = {"title": "_draft_ 2026-03-14 plan", "layer": "L3", "created": "2026-11-30T12:00:00+00:00"}
    for name in ("memories/draft_-2026-03-14-plan.md", "memories/draft-2026-03-14-plan.md"):
        found = note_date(meta, name)
        assert found is not None and found.moment.date().isoformat() == "2026-11-30" and found.written, name


@pytest.mark.parametrize(("title", "slug"), [("Sam's phone number", "sams-phone-number"), ("Maya’s birthday: 14 March", "mayas-birthday-14-march"),
                                            ("Don't call after 9", "dont-call-after-9"), ("O'Brien's dog", "o-briens-dog"),
                                            ("l'été à Paris", "l-été-à-paris"), ("rock 'n' roll", "rock-n-roll")])
def test_an_english_possessive_or_contraction_stays_one_word_in_the_file_name(title: str, slug: str) -> None:
    # A three-day agent trial: the person's file list read user-s-name.md, sam-s-phone-number.md,
    # maya-s-birthday-14-march.md. French and Italian elisions and names stay two words.
    assert slugify(title) == slug


def test_a_note_named_with_its_clitic_apart_is_still_named_from_its_title(vault_dir: Path) -> None:
    # Written before the change as ben-cohen-s-birthday-is-1988-03-14.md: still the slug of its
    # title, so the day in its name is the text's, not the day the memory is about (adr/0026).
    title = "Ben Cohen's birthday is 1988-03-14"
    assert named_from_title("ben-cohen-s-birthday-is-1988-03-14", title)
    assert named_from_title("ben-cohens-birthday-is-1988-03-14-2", title)
    meta = {"title": title, "layer": "L4", "created": "2026-12-01T09:00:00+00:00"}
    found = note_date(meta, "memories/ben-cohen-s-birthday-is-1988-03-14.md")
    assert found is not None and found.moment.date().isoformat() == "2026-12-01" and found.written
    with Vault(vault_dir) as vault:
        written = vault.remember("Sam's phone number is +351 913 222 333.", title="Sam's phone number", layer="L3")
    assert written.path == "memories/sams-phone-number.md"


def test_a_title_in_capitals_is_the_file_name_its_possessive_joined_with_its_word() -> None:
    # Review (s34): `SAM'S PHONE` is sams-phone.md (slugify lowers first), but same_slug read the
    # clitic in lower case only, so a note's `title: SAM'S PHONE` beside a `name` was no longer its file
    # name's (notes.naming_key), and the `name` named it.
    from vaultmem.notes import naming_key
    from vaultmem.slugs import same_slug

    assert slugify("SAM'S PHONE") == "sams-phone"
    assert same_slug("SAM'S PHONE", "sams-phone") and same_slug("Sam’S phone", "sam-s-phone")
    assert naming_key({"title": "SAM'S PHONE", "name": "Sam Okafor"}, "people/sams-phone.md") == "title"
