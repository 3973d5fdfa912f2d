"""The files a USD layer composes, checked before usd-core opens them.

usd-core composes a stage from the layers its root layer names (sublayers, references,
payloads), opening each path it is given. A downloaded file could name a FIFO (usd-core would
block on it), a device, or a path anywhere on the machine. :func:`check_composed_files` walks
those arcs first, opening nothing that is not a regular file, so that only then does usd-core
compose the stage. Text read by ``loads`` has no directory to anchor a relative path to, so it
may not name other files at all.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from robomodel.errors import USDError

MAX_LAYERS = 1000
"""The most layers one stage may compose. A robot's files compose a handful (the converter's
asset interface, its geometry and physics layers); the bound stops a file that names thousands."""


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):  # missing, unreadable, or a path with a NUL
        return False


def check_composed_files(p: Any, root: Any, where: str) -> None:
    """Raise :class:`USDError` unless every layer ``root`` composes is a regular file.

    Args:
        p: the ``pxr`` namespace.
        root: the root ``Sdf.Layer`` (anonymous for text given to ``loads``).
        where: the file (or ``"<string>"``) named in errors.
    """
    seen = {root.identifier}
    todo = [root]
    while todo:
        layer = todo.pop()
        for named in layer.GetCompositionAssetDependencies():
            if not named:  # a reference or payload to a prim of the same layer
                continue
            if layer.anonymous:
                raise USDError(
                    f"the text names the layer {named!r} (a sublayer, reference or payload); "
                    "text has no directory to find it in: save it as a file and use usd.load",
                    file=where,
                )
            target = layer.ComputeAbsolutePath(named)
            if not target or not _is_regular(target):
                raise USDError(
                    f"{layer.realPath} names the layer {named!r}, which is not a regular file "
                    "(missing, a directory, a FIFO or a device): robomodel opens only files",
                    file=where,
                )
            if target in seen:
                continue
            seen.add(target)
            if len(seen) > MAX_LAYERS:
                raise USDError(
                    f"the stage composes more than {MAX_LAYERS} layers; refused", file=where
                )
            todo.append(p.Sdf.Layer.FindOrOpen(target))
