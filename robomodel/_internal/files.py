"""The one way robomodel writes a file: complete or not at all, and only over a regular file.

:func:`atomic_write` writes the data to a new file in the target's directory, flushes it to disk,
and renames it over the target (``os.replace``, atomic within one directory), then flushes the
directory. Readers see the old file or the new one, never a part; a failure (a full disk, an
exception while producing the data, a kill) leaves the old file as it was. On Linux the data goes
into an unnamed file (``O_TMPFILE``) that gets a name only for the instant between its link and
the rename, so ``kill -9`` leaves no temporary file behind unless it lands in that instant (then a
complete copy of the new file stays under a hidden ``.name.*.tmp`` name); elsewhere the temporary
name is removed on every failure the process survives.

The target must be a regular file or not exist: a FIFO, a device or a directory is refused
(writing ``/dev/null`` as root would otherwise replace the device with a file). A symbolic link
is followed, so the file it points to is replaced and the link stays. The new file keeps the
permissions of the file it replaces; a new file gets what ``open(path, "w")`` would give it (the
process's umask applies, without robomodel reading or changing the umask). Errors name the target,
never the temporary file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

from robomodel.errors import NotARegularFileError

__all__ = ["atomic_path", "atomic_write", "read_regular"]

_NEW_FILE_MODE = 0o666  # what open(path, "w") asks for; the kernel applies the umask


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` to ``path`` through a new file renamed into place when complete.

    Text is written as UTF-8, unchanged (no newline translation).

    Returns:
        The path written (as given).

    Raises:
        OSError: ``path`` is not a regular file (a directory, FIFO or device), its directory does
            not exist or is not writable, the disk is full, ... (the error names ``path``);
            ``path`` is then left as it was.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    given = Path(path)
    target = _regular_target(given)
    mode = _mode_of(target)
    fd = _unnamed_file(target.parent, mode)
    if fd < 0:
        with _staged(target, given, suffix=".tmp", mode=mode) as tmp:
            _write_all(tmp, payload)
        return given
    try:
        _write_fd(fd, payload, mode)
        _link_and_replace(fd, target)
    except OSError as e:
        raise _about(e, given) from None
    finally:
        os.close(fd)
    return given


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (same suffix) to write; rename it into place after.

    For writers that want a file name rather than data, such as ``matplotlib``'s ``savefig``.
    If the block raises, the temporary file is removed and ``path`` is left as it was.

    Raises:
        OSError: as for :func:`atomic_write`.
    """
    given = Path(path)
    target = _regular_target(given)
    # The writer may pick the format from the suffix, so the temporary name ends in it too.
    with _staged(target, given, suffix=target.suffix, mode=_mode_of(target)) as tmp:
        yield tmp
        _sync_file(tmp)


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """Return the bytes of the regular file ``path``; refuse anything else without blocking.

    The file is opened without blocking and judged by the opened descriptor (no race between a
    check and the open): a FIFO would block a plain ``open`` until a writer came, and a device
    such as ``/dev/zero`` would never end.

    Raises:
        NotARegularFileError: ``path`` is a FIFO, a device or a directory (names ``path``).
        OSError: ``path`` cannot be opened (it does not exist, no permission, ...).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO or a device"
            raise NotARegularFileError(
                errno.EINVAL,
                f"is {kind}, not a regular file; robomodel reads models and meshes only from "
                "regular files",
                os.fspath(path),
            )
        os.set_blocking(fd, True)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


# ------------------------------------------------------------------ the target
def _regular_target(given: Path) -> Path:
    """The file to replace: ``given`` with links followed; refused unless regular or absent."""
    target = Path(os.path.realpath(given))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as e:
        raise _about(e, given) from None
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(given))
    if not stat.S_ISREG(st.st_mode):
        raise FileExistsError(
            errno.EEXIST,
            "exists and is not a regular file (robomodel replaces only regular files; "
            "write to a file name instead)",
            str(given),
        )
    return target


def _mode_of(target: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return -1  # a new file: the umask decides


# ------------------------------------------------------------------ writing
def _unnamed_file(directory: Path, mode: int) -> int:
    """An unnamed file in ``directory`` (Linux's ``O_TMPFILE``), or -1 where there is none."""
    flags = getattr(os, "O_TMPFILE", 0)
    if not flags or not os.path.isdir("/proc/self/fd"):
        return -1
    try:
        return os.open(directory, flags | os.O_WRONLY | os.O_CLOEXEC, _NEW_FILE_MODE)
    except OSError:
        return -1  # a file system without unnamed files: the named route reports real errors


def _write_fd(fd: int, payload: bytes, mode: int) -> None:
    if mode >= 0:
        os.fchmod(fd, mode)  # exactly the replaced file's mode, whatever the umask
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def _write_all(path: Path, payload: bytes) -> None:
    with open(path, "r+b") as f:
        f.write(payload)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())


def _link_and_replace(fd: int, target: Path) -> None:
    """Give the unnamed file ``fd`` a temporary name beside ``target``, then rename it over."""
    directory = os.open(target.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for _ in range(100):
            tmp = f".{target.name}.{secrets.token_hex(6)}.tmp"
            try:
                # A directory fd makes os.link use linkat, which follows the /proc link to the
                # unnamed file (plain link() would try to link the /proc entry itself).
                os.link(f"/proc/self/fd/{fd}", tmp, dst_dir_fd=directory, follow_symlinks=True)
            except FileExistsError:
                continue
            try:
                os.replace(tmp, target.name, src_dir_fd=directory, dst_dir_fd=directory)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=directory)
                raise
            with contextlib.suppress(OSError):
                os.fsync(directory)
            return
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))
    finally:
        os.close(directory)


@contextlib.contextmanager
def _staged(target: Path, given: Path, *, suffix: str, mode: int) -> Iterator[Path]:
    """A new, named, empty file beside ``target``, renamed over it when the block completes."""
    try:
        tmp, fd = _new_named_file(target, suffix, mode)
        os.close(fd)
    except OSError as e:
        raise _about(e, given) from None
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.filename in (None, str(tmp)):
            raise _about(e, given) from None
        raise
    _sync_directory(target.parent)


def _new_named_file(target: Path, suffix: str, mode: int) -> tuple[Path, int]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = target.parent / f".{target.name}.{secrets.token_hex(6)}{suffix}"
        try:
            fd = os.open(tmp, flags, _NEW_FILE_MODE if mode < 0 else 0o600)
        except FileExistsError:
            continue
        if mode >= 0:
            os.fchmod(fd, mode)
        return tmp, fd
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_directory(directory: Path) -> None:
    # The rename is durable only once the directory is on disk; not every system can open a
    # directory for that, and the file itself is already complete, so a failure here is moot.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _about(error: OSError, given: Path) -> OSError:
    # The temporary name means nothing to the user; name the file they asked for.
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, str(given))
