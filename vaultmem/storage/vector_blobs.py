"""How a vector is held in ``index.db``'s ``vector`` column (adr/0005, addendum of stop 39).

Since stop 39 a blob is the vector's values as little-endian float16, then one byte
:data:`HALF_MARK`: ``2 × dimension + 1`` bytes, an odd length. A blob written before is
``4 × dimension`` bytes of float32 (a multiple of four) and is still read as it is, so an index
holds both kinds while it is upgraded (migration ``020_half_vectors`` turns the float32 rows that
float16 holds exactly into the new kind, the others are embedded again under the embed recipe
of stop 38). The odd length is what tells the two apart without knowing the dimension, and
what makes a vaultmem of before fail loudly on a new blob (numpy cannot read an odd length as
float32) instead of reading it as other numbers.

Vectors were already rounded to float16 before being stored (stop 38: the snapshots save them
so), so reading a blob gives the very float32 numbers the hnswlib graph and the matrix snapshot
hold, whichever kind the blob is.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ..errors import REBUILD, DerivedIndexError, Spelled
from .vectors import FLOAT16_BYTES, FLOAT32_BYTES, dimension_of

HALF_MARK = b"\x02"  # after a float16 blob's values: makes its length odd


def encode(row: np.ndarray) -> bytes:
    """A vector as stored: its values rounded to float16, then :data:`HALF_MARK`. Stored vectors
    are unit rows or shorter (Embedder.embed normalizes; the length prior only shrinks), far
    inside float16's range; rounding moves a score by at most ~1e-4."""
    return np.ascontiguousarray(row, dtype="<f2").tobytes() + HALF_MARK


def exact_in_half(row: np.ndarray) -> bool:
    """Whether float16 holds each of these float32 values exactly (a vector stored since stop 38)."""
    return bool(np.array_equal(row.astype(np.float16).astype(np.float32), row))


@functools.cache
def _half_to_single() -> np.ndarray:
    """Every float16 bit pattern's float32 value (256 KiB, made once a process)."""
    table: np.ndarray = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float32)
    return table


def decode(blob: bytes) -> np.ndarray:
    """One stored vector as float32 values."""
    row: np.ndarray = decode_rows([blob])[0]
    return row


def decode_rows(blobs: Sequence[bytes]) -> np.ndarray:
    """Stored vectors as one float32 matrix, a row each, in their order. Rows of one kind and
    length (the common case) are read at once; a mix (an index being upgraded) row by row."""
    if not blobs:
        return np.zeros((0, 0), dtype=np.float32)
    length = len(blobs[0])
    if all(len(blob) == length for blob in blobs):
        return _same_length(b"".join(blobs), len(blobs), length)
    return np.vstack([_same_length(bytes(blob), 1, len(blob)) for blob in blobs])


def _same_length(joined: bytes, count: int, length: int) -> np.ndarray:
    if length % 2:
        dimension = dimension_of(length)
        marks = np.frombuffer(joined, dtype=np.uint8)[length - 1 :: length]
        if not bool(np.all(marks == HALF_MARK[0])):
            raise _damaged(length)
        # The blobs' float16 bits seen in place (the marks stepped over), each looked up as float32:
        # 0.22 ms CPU for the ~900 rows a search at 100,000 notes reads, where numpy's float16
        # cast took 0.50 (and float32 blobs 0.07).
        bits = np.ndarray((count, dimension), dtype="<u2", buffer=joined, strides=(length, FLOAT16_BYTES))
        values: np.ndarray = _half_to_single().take(bits)
        return values
    if length % FLOAT32_BYTES:
        raise _damaged(length)
    return np.frombuffer(joined, dtype=np.float32).reshape(count, length // FLOAT32_BYTES)


def _damaged(length: int) -> DerivedIndexError:
    return DerivedIndexError(Spelled(
        f"a stored vector in index.db is {length} bytes long, which is neither a float16 vector of vaultmem "
        "(an odd length ending in its mark) nor a float32 one (a multiple of four): the index is damaged or was "
        "written by another program; ", REBUILD))
