"""sync_copies: the names sync tools give the copies of a note they could not merge."""

from __future__ import annotations

import pytest

from vaultmem.sync_copies import is_copy_among, original_name


@pytest.mark.parametrize("copy", [
    "prefs/Coffee order (conflicted copy 2024-05-01).md",  # Dropbox, Nextcloud
    "prefs/Coffee order (Maya's conflicted copy 2024-05-01).md",  # Dropbox, another user's device
    "prefs/Coffee order (Maya's conflicted copy 2024-05-01 (1)).md",  # Dropbox, the second one that day
    "prefs/Coffee order (Conflicted copy Laptop 202405011234).md",  # Obsidian Sync
    "prefs/Coffee order.sync-conflict-20240501-123456-ABCDEFG.md",  # Syncthing
    "prefs/Coffee order 2.md",  # iCloud, Finder
    "prefs/Coffee order (1).md",  # Google Drive
])
def test_a_sync_tools_copy_names_the_note_beside_it_as_its_original(copy: str) -> None:
    assert original_name(copy) == "prefs/Coffee order.md"
    assert is_copy_among(copy, {copy, "prefs/Coffee order.md"})


def test_a_numbered_name_is_a_copy_only_when_its_original_is_among_the_notes() -> None:
    assert not is_copy_among("book/Chapter 2.md", {"book/Chapter 2.md", "book/Chapter 3.md"})
    assert not is_copy_among("other/Coffee order 2.md", {"other/Coffee order 2.md", "prefs/Coffee order.md"})
    assert original_name("prefs/Coffee order.md") is None
