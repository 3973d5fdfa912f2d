"""Writing files so that a failure never leaves a half-written one behind.

:func:`atomic_write` writes to a temporary file in the target's directory and renames it over
the target only once everything is on disk. A rename within one directory is atomic on POSIX
and on Windows (``os.replace``), so readers see either the old file or the new one, and a
failure half-way (a full disk, a file size limit, an exception while producing the data) leaves
the old file byte-identical.

This module imports nothing else of robomodel, so every writer (the command line, the URDF and
JSON writers, the pictures) can use it without import cycles.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["atomic_path", "atomic_write"]


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file renamed into place when complete.

    Text is written as UTF-8, unchanged (no newline translation). The new file gets the
    permissions a plain ``open(path, "w")`` would give it (or keeps those of the file it
    replaces).

    Returns:
        The path written.

    Raises:
        OSError: ``path`` is a directory, its directory does not exist or is not writable, the
            disk is full, ... (the error names ``path``); ``path`` is then left as it was.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    target = Path(path)
    with _staged(target, suffix=".tmp") as tmp, open(tmp, "wb") as f:
        f.write(payload)
        f.flush()
        os.fsync(f.fileno())
    return target


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (same suffix) to write; rename it into place after.

    For writers that want a file name rather than data, such as ``matplotlib``'s ``savefig``.
    If the block raises, the temporary file is removed and ``path`` is left as it was.

    Raises:
        OSError: as for :func:`atomic_write`.
    """
    target = Path(path)
    # The writer may pick the format from the suffix, so the temporary name ends in it too.
    with _staged(target, suffix=target.suffix) as tmp:
        yield tmp


@contextlib.contextmanager
def _staged(target: Path, *, suffix: str) -> Iterator[Path]:
    try:
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
        os.close(fd)
    except OSError as e:
        raise _about(e, target) from None
    tmp = Path(name)
    try:
        yield tmp
        _finish(tmp, target)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.filename in (None, str(tmp), name):
            raise _about(e, target) from None
        raise


def _about(error: OSError, target: Path) -> OSError:
    # The temporary name means nothing to the user; name the file they asked for.
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, str(target))


def _finish(tmp: Path, target: Path) -> None:
    # mkstemp creates the file readable by its owner only; give it the mode the target has, or
    # the one a plain open() would have given a new file.
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        # Reading the umask means setting it; it is restored at once.
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)
    os.replace(tmp, target)
