"""The files an MJCF document makes MuJoCo open, checked before MuJoCo opens them.

MuJoCo reads ``<include>`` files and asset files (meshes, textures, height fields, skins) itself,
with blocking reads: a FIFO named as one of them would hang the load forever, and a device
would be read until memory runs out. So before the document reaches MuJoCo, every file it would
open is looked up here by MuJoCo's rules, and anything that exists but is not a regular file is
refused with an :class:`~robomodel.errors.MJCFError` naming the file and the element. Missing
files are left to MuJoCo, whose message says so.

MuJoCo's rules: ``<include file>`` is relative to the directory of the main file; asset files
are relative to ``<compiler meshdir>`` (meshes, skins, height fields) or ``texturedir``
(textures), each defaulting to ``assetdir``, which is relative to the main file's directory;
absolute paths are used as they are. A document given as a string resolves against the working
directory. Paths outside the model's directory (absolute ones, ``..``) are allowed, as MuJoCo
allows them: see ``docs/mjcf.md``.
"""

from __future__ import annotations

import os
import stat
import xml.etree.ElementTree as ET

from robomodel.errors import MJCFError

__all__ = ["MAX_INCLUDE_BYTES", "check_opened_files", "refuse_unless_regular"]

MAX_INCLUDE_BYTES = 64 * 1024 * 1024
"""The largest ``<include>`` file robomodel reads to look for the files it names (64 MiB)."""

_ASSET_FILES = {
    # element: (its file attributes, the <compiler> directory they are relative to)
    "mesh": (("file",), "meshdir"),
    "skin": (("file",), "meshdir"),
    "hfield": (("file",), "meshdir"),
    "texture": (
        ("file", "fileright", "fileleft", "fileup", "filedown", "filefront", "fileback"),
        "texturedir",
    ),
    "model": (("file",), "assetdir"),
}


def _kind(path: str) -> str | None:
    """What ``path`` is when it exists and is not a regular file (``None`` otherwise)."""
    if "\0" in path:
        return "a name with a NUL character"
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None  # missing: MuJoCo says so
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def refuse_unless_regular(path: str, element: str) -> None:
    """Raise :class:`MJCFError` when ``path`` exists and is not a regular file."""
    kind = _kind(path)
    if kind is not None:
        raise MJCFError(
            f"{path!r} is {kind}; MuJoCo would block reading it, so robomodel opens only "
            "regular files",
            element=element,
        )


def _elements(root: ET.Element, model_dir: str, seen: set[str]) -> list[ET.Element]:
    """Every element of a document with its includes expanded (checked before they are read)."""
    out: list[ET.Element] = []
    for el in root.iter():
        out.append(el)
        if el.tag != "include" or "file" not in el.attrib:
            continue
        name = el.attrib["file"]
        path = os.path.join(model_dir, name)
        element = f"<include file={name!r}>"
        refuse_unless_regular(path, element)
        real = os.path.realpath(path)
        if real in seen or not os.path.isfile(path):
            continue  # MuJoCo reports a missing or repeated include itself
        seen.add(real)
        if os.path.getsize(path) > MAX_INCLUDE_BYTES:
            raise MJCFError(
                f"{path!r} is larger than {MAX_INCLUDE_BYTES} bytes; robomodel does not read "
                "includes that large",
                element=element,
            )
        try:
            with open(path, "rb") as fh:
                sub = ET.fromstring(fh.read())
        except (ET.ParseError, OSError):
            continue  # MuJoCo reports it, naming the file
        out.extend(_elements(sub, model_dir, seen))
    return out


def check_opened_files(text: str, path: str | None) -> None:
    """Refuse an MJCF document that makes MuJoCo open anything but regular files.

    Args:
        text: the document.
        path: the file it came from (``None`` for a string: paths resolve against the working
            directory, as MuJoCo resolves them).

    Raises:
        MJCFError: an ``<include>`` or asset file exists and is not a regular file (a FIFO, a
            device, a directory), or an include is larger than :data:`MAX_INCLUDE_BYTES`. The
            error names the element; the caller adds the MJCF file.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return  # not XML: MuJoCo's parser says where
    model_dir = os.path.dirname(os.path.abspath(path)) if path is not None else os.getcwd()
    elements = _elements(root, model_dir, set())
    dirs = {"assetdir": "", "meshdir": "", "texturedir": ""}
    for el in elements:
        if el.tag == "compiler":
            for key in dirs:
                if key in el.attrib:
                    dirs[key] = el.attrib[key]
    for key in ("meshdir", "texturedir"):
        dirs[key] = dirs[key] or dirs["assetdir"]
    for el in elements:
        spec = _ASSET_FILES.get(el.tag) if isinstance(el.tag, str) else None
        if spec is None:
            continue
        attributes, dir_key = spec
        for attribute in attributes:
            name = el.attrib.get(attribute)
            if not name:
                continue
            full = os.path.join(model_dir, dirs[dir_key], name)
            refuse_unless_regular(full, f"<{el.tag} {attribute}={name!r}>")
