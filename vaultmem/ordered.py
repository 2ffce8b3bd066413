"""Small helpers over ordered sequences, shared by modules that must not depend on each other."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TypeVar

Item = TypeVar("Item", bound=Hashable)


def unique(items: Iterable[Item]) -> list[Item]:
    """``items`` without repeats, each where it first appeared."""
    return list(dict.fromkeys(items))
