"""A robot's shapes at one configuration as an OpenUSD scene: :func:`dump_scene`.

Unlike :func:`robomodel.formats.usd.dump`, which writes the articulation for a simulator (bodies,
joints, mass properties at the zero configuration), a scene is for looking at: one ``Xform``
per link at its pose for the given joint positions, holding the link's visual (or collision)
shapes, and no physics. It is what ``robomodel scene -o robot.usda`` writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import numpy as np

from robomodel._internal.files import atomic_write
from robomodel.errors import warn
from robomodel.formats.report import Loss
from robomodel.formats.usd._geometry import MeshSource, write_shapes
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import Names, matrix_of
from robomodel.formats.usd.dump import BINARY_SUFFIXES, crate_bytes
from robomodel.model.record import Model
from robomodel.model.spatial import Transform

__all__ = ["dump_scene"]


def dump_scene(
    model: Model,
    path: str | os.PathLike[str],
    q: Any = None,
    *,
    kind: Literal["visual", "collision"] = "visual",
    base: str | int | None = None,
    package_dirs: Iterable[str] = (),
    base_dir: str | None = None,
) -> Path:
    """Write the robot's shapes at configuration ``q`` as a USD stage without physics.

    Each link is an ``Xform`` at ``base_H_link`` (forward kinematics at ``q``, the base at the
    origin) holding its shapes as :func:`robomodel.formats.usd.dump` writes them (meshes
    converted through trimesh). ``.usda`` is text, ``.usdc`` and ``.usd`` binary; the file is
    written atomically. Mesh files that cannot be read are named in a warning.

    Args:
        model: the model.
        path: the output file.
        q: joint positions (vector, mapping or ``JointState``); ``None`` for all zeros.
        kind: ``"visual"`` or ``"collision"`` shapes.
        base: the link at the origin (default: the default base).
        package_dirs: more package directories for ``package://`` meshes (the model's first).
        base_dir: the directory relative mesh filenames are relative to.

    Returns:
        The path written.

    Raises:
        OptionalDependencyError: usd-core is not installed.
    """
    from robomodel.physics.joint_state import positions_of
    from robomodel.physics.kinematics import forward_kinematics

    p = pxr()
    fk = forward_kinematics(model, positions_of(model, q, required=False), base=base)
    stage = p.Usd.Stage.CreateInMemory("scene.usda")
    p.UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    p.UsdGeom.SetStageUpAxis(stage, p.UsdGeom.Tokens.z)
    root_path = "/" + Names().take(model.name or "robot")
    stage.SetDefaultPrim(p.UsdGeom.Xform.Define(stage, root_path).GetPrim())
    meshes = MeshSource(True, [*model.package_dirs, *package_dirs], base_dir)
    shapes = model.visuals if kind == "visual" else model.collisions
    names = Names()
    losses: list[Loss] = []
    for i, name in enumerate(model.link_names):
        H = fk.base_H_link[i]
        if np.isnan(H[0, 0]):
            continue  # not connected to the base: no pose to draw it at
        link_path = f"{root_path}/{names.take(name)}"
        xf = p.UsdGeom.Xform.Define(stage, link_path)
        pose = Transform(H[:3, :3], H[:3, 3])
        xf.AddTransformOp(p.UsdGeom.XformOp.PrecisionDouble).Set(matrix_of(pose))
        write_shapes(stage, link_path, f"{kind}s", shapes[i], meshes, losses, name)
    if losses:
        shown = "\n  ".join(str(x) for x in losses[:12])
        more = f"\n  ... and {len(losses) - 12} more" if len(losses) > 12 else ""
        warn(f"the USD scene lacks {len(losses)} mesh(es):\n  {shown}{more}")
    out = Path(path)
    layer = stage.GetRootLayer()
    if out.suffix.lower() in BINARY_SUFFIXES:
        return atomic_write(out, crate_bytes(layer))
    return atomic_write(out, str(layer.ExportToString()))
