"""The platform's atomic renames, behind three functions (adr/0014-racing-edits.md).

- :func:`exchange` swaps two names in one folder in a single step: Linux
  ``renameat2(RENAME_EXCHANGE)``, macOS ``renameatx_np(RENAME_SWAP)``.
- :func:`rename_noreplace` moves a name and fails with ``FileExistsError`` instead of
  replacing what is at the target: Linux ``renameat2(RENAME_NOREPLACE)``, macOS
  ``renameatx_np(RENAME_EXCL)``, Windows' own ``os.rename``.
- :func:`open_for_writing` tells whether any process holds a file open for writing
  (Linux: a read lease is refused exactly then).

Each raises :class:`Unsupported` (or answers ``None``) where the platform or the file
system cannot do it; the callers in ``noteio`` then take their documented weaker path.
Folders are passed as descriptors (``dir_fd``) so a folder swapped for a symlink after
it was checked cannot redirect the operation; ``None`` means ``names`` are full paths.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys
from typing import Any

_AT_FDCWD = -100
_LINUX_NOREPLACE, _LINUX_EXCHANGE = 1, 2
_MAC_SWAP, _MAC_EXCL = 0x2, 0x4
# renameat2 by number where glibc (< 2.28) or musl do not export it.
_SYS_RENAMEAT2 = {"x86_64": 316, "amd64": 316, "aarch64": 276, "arm64": 276, "riscv64": 276}
_F_SETLEASE = 1024
_UNSUPPORTED_ERRNOS = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV}


class Unsupported(OSError):
    """The platform or this file system has no atomic form of the operation."""


def exchange(dir_fd: int | None, first: str, second: str) -> None:
    """Atomically swap the files named ``first`` and ``second`` in the folder ``dir_fd``.

    Both must exist (``FileNotFoundError`` otherwise).
    """
    _rename_flags(dir_fd, first, dir_fd, second, _LINUX_EXCHANGE, _MAC_SWAP)


def rename_noreplace(src_dir_fd: int | None, src: str, dst_dir_fd: int | None, dst: str) -> None:
    """Move ``src`` to ``dst`` atomically; ``FileExistsError`` if ``dst`` exists."""
    if sys.platform == "win32":
        os.rename(src, dst)  # Windows never replaces an existing target here
        return
    _rename_flags(src_dir_fd, src, dst_dir_fd, dst, _LINUX_NOREPLACE, _MAC_EXCL)


def open_for_writing(fd: int) -> bool | None:
    """Is the file behind ``fd`` open for writing by anyone (``None``: cannot tell here)?

    Linux grants a read lease only while no descriptor anywhere has the file open for
    writing, and vaultmem's own descriptor is read-only. The lease is dropped at once:
    held, a writer opening the file would send this process SIGIO.
    """
    if not sys.platform.startswith("linux"):
        return None
    import fcntl

    try:
        fcntl.fcntl(fd, _F_SETLEASE, fcntl.F_RDLCK)
    except BlockingIOError:
        return True
    except OSError:
        return None  # not the owner (EACCES), leases disabled or unsupported (EINVAL)
    fcntl.fcntl(fd, _F_SETLEASE, fcntl.F_UNLCK)
    return False


def _rename_flags(src_dir_fd: int | None, src: str, dst_dir_fd: int | None, dst: str, linux_flag: int, mac_flag: int) -> None:
    call = _renamer()
    if call is None:
        raise Unsupported(errno.ENOSYS, f"no atomic rename with flags on {sys.platform}")
    flag = mac_flag if sys.platform == "darwin" else linux_flag
    source_fd = _AT_FDCWD if src_dir_fd is None else src_dir_fd
    target_fd = _AT_FDCWD if dst_dir_fd is None else dst_dir_fd
    ctypes.set_errno(0)
    if call(source_fd, os.fsencode(src), target_fd, os.fsencode(dst), flag) == 0:
        return
    code = ctypes.get_errno()
    if code in _UNSUPPORTED_ERRNOS:
        raise Unsupported(code, f"{os.strerror(code)} (atomic rename flags not supported by this file system)")
    raise OSError(code, os.strerror(code), src)  # FileNotFoundError, FileExistsError, …


_RENAMER: Any = None
_RENAMER_LOADED = False


def _renamer() -> Any:
    """The C function ``(src_fd, src, dst_fd, dst, flags) -> int``, or ``None``."""
    global _RENAMER, _RENAMER_LOADED
    if not _RENAMER_LOADED:
        _RENAMER = _load_renamer()
        _RENAMER_LOADED = True
    return _RENAMER


def _load_renamer() -> Any:
    if sys.platform == "win32":
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    name = "renameatx_np" if sys.platform == "darwin" else "renameat2"
    function = getattr(libc, name, None)
    if function is not None:
        function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        function.restype = ctypes.c_int
        return function
    number = _SYS_RENAMEAT2.get(platform.machine().lower()) if sys.platform.startswith("linux") else None
    syscall = getattr(libc, "syscall", None)
    if number is None or syscall is None:
        return None
    syscall.restype = ctypes.c_long

    def renameat2(src_fd: int, src: bytes, dst_fd: int, dst: bytes, flags: int) -> int:
        return int(syscall(ctypes.c_long(number), ctypes.c_int(src_fd), ctypes.c_char_p(src),
                           ctypes.c_int(dst_fd), ctypes.c_char_p(dst), ctypes.c_uint(flags)))

    return renameat2
