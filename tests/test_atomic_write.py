"""The one atomic write every writer uses: whole or nothing, regular files only, modes kept.

Checked against the operating system itself (modes after the umask, file types, what a killed
process leaves in the directory), and through the public writers that go through it.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from robomodel._internal.files import atomic_path, atomic_write
from robomodel.data import example_path
from robomodel.formats import urdf


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077, 0o002])
def test_a_new_file_gets_what_open_would_give_it(tmp_path: Path, umask: int) -> None:
    """The mode of a new file is 0o666 less the umask, as ``open(path, "w")`` gives."""
    out = _run(
        """
        import os, sys
        from robomodel._internal.files import atomic_write
        os.umask(int(sys.argv[1], 8))
        atomic_write(sys.argv[2], "x")
        open(sys.argv[3], "w").close()
        print(os.umask(0))  # the umask the write left behind
        """,
        oct(umask),
        str(tmp_path / "new.txt"),
        str(tmp_path / "plain.txt"),
    )
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == stat.S_IMODE(
        (tmp_path / "plain.txt").stat().st_mode
    )
    assert int(out.stdout) == umask


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644, 0o755, 0o444])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "m.urdf"
    target.write_text("old")
    target.chmod(mode)
    atomic_write(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == mode
    assert os.listdir(tmp_path) == ["m.urdf"]


def test_only_regular_files_are_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(FileExistsError, match="not a regular file") as e:
        atomic_write(fifo, "x")
    assert e.value.filename == str(fifo)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    # A device: as root, a rename over /dev/null would replace the device with a file.
    with pytest.raises(FileExistsError, match="not a regular file"):
        atomic_write("/dev/null", "x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    with pytest.raises(IsADirectoryError):
        atomic_write(tmp_path, "x")
    with pytest.raises(FileExistsError), atomic_path(fifo):
        pass
    assert sorted(os.listdir(tmp_path)) == ["fifo"]


def test_a_link_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.urdf"
    real.write_text("old")
    link = tmp_path / "link.urdf"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_errors_name_the_target_and_leave_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir.urdf"
    with pytest.raises(FileNotFoundError) as e:
        atomic_write(missing, "x")
    assert e.value.filename == str(missing)
    target = tmp_path / "kept.svg"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("the writer failed")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["kept.svg"]


def test_the_writers_go_through_it(tmp_path: Path) -> None:
    """URDF and MJCF files are written whole, with the mode of the file they replace."""
    model = urdf.load(example_path())
    for name in ("m.urdf", "m.xml"):
        target = tmp_path / name
        target.write_text("old")
        target.chmod(0o640)
    urdf.dump(model, tmp_path / "m.urdf")
    pytest.importorskip("mujoco")
    from robomodel.formats import mjcf

    mjcf.dump(model, tmp_path / "m.xml")
    for name in ("m.urdf", "m.xml"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o640
        assert (tmp_path / name).read_text() != "old"
    assert sorted(os.listdir(tmp_path)) == ["m.urdf", "m.xml"]


def test_kill_9_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A writer killed at any instant leaves the old file or the new one, and nothing half-made.

    The new contents are written into an unnamed file; it gets a name only for the instant
    between its link and the rename, so a kill in that instant leaves a complete copy of the
    new file under a hidden temporary name (the only thing a kill can leave).
    """
    target = tmp_path / "big.txt"
    target.write_text("old")
    script = textwrap.dedent(
        """
        import sys
        from robomodel._internal.files import atomic_write
        data = "x" * 2_000_000
        print("ready", flush=True)
        while True:
            atomic_write(sys.argv[1], data)
        """
    )
    for delay in (0.05, 0.11, 0.2, 0.33, 0.5):
        with subprocess.Popen(
            [sys.executable, "-c", script, str(target)], stdout=subprocess.PIPE, text=True
        ) as p:
            assert p.stdout is not None and p.stdout.readline() == "ready\n"
            time.sleep(delay)
            p.send_signal(signal.SIGKILL)
            p.wait()
        left = sorted(set(os.listdir(tmp_path)) - {"big.txt"})
        for name in left:
            assert name.startswith(".big.txt.") and name.endswith(".tmp")
            assert (tmp_path / name).read_text() == "x" * 2_000_000
            (tmp_path / name).unlink()
        assert len(left) <= 1
        assert target.read_text() in ("old", "x" * 2_000_000)
