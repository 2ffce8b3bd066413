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
