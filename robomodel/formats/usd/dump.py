"""Writing a model as OpenUSD: :func:`dumps`, :func:`dump` and :func:`dumps_with_report`.

The stage is written in named phases: the root prim and stage metadata, the layout of the tree
(every link's pose at the zero configuration and every joint's parent end), the bodies, the
joints, the articulation root, then what hangs off the links (shapes, frames, sensors) and the
robot-level values robomodel keeps. See ``docs/usd.md`` for the prim layout.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, cast

from robomodel._internal.files import atomic_write
from robomodel.formats.report import ConversionReport, Loss, warn_losses
from robomodel.formats.usd._attached import scope, sensor_link, write_frame, write_sensor
from robomodel.formats.usd._bodies import body_losses, write_body
from robomodel.formats.usd._geometry import MeshSource, write_material, write_shapes
from robomodel.formats.usd._joints import joint_losses, write_joint, write_world_joint
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import Names, put
from robomodel.formats.usd.options import DumpOptions
from robomodel.model.record import Model
from robomodel.model.spatial import Transform

__all__ = ["BINARY_SUFFIXES", "dump", "dumps", "dumps_with_report", "stage_of"]

BINARY_SUFFIXES = (".usdc", ".usd")
"""File suffixes :func:`dump` writes as binary crate files (USD's default for ``.usd``)."""

_RESERVED = ("joints", "frames", "sensors", "materials")
"""Names of the root prim's children that are not links."""


class _Layout:
    """Every link's world pose at the zero configuration, and each joint's (parent, child).

    Each connected part of the model is laid out from its first link (the default base's part
    first), placed at the world origin.
    """

    __slots__ = ("ends", "poses", "roots")

    def __init__(self, model: Model) -> None:
        n = model.n_links
        self.poses: list[Transform | None] = [None] * n
        self.ends: list[tuple[str, str] | None] = [None] * model.n_joints
        self.roots: list[int] = []
        names = model.link_names
        first = [] if model.default_base is None else [model.link_index(model.default_base)]
        for start in [*first, *range(n)]:
            if self.poses[start] is not None:
                continue
            self.roots.append(start)
            for el in model.traversal(start):
                if el.parent is None or el.joint is None:
                    self.poses[el.link] = Transform.identity()
                    continue
                parent, child = names[el.parent], names[el.link]
                joint = model.joints[el.joint]
                # A traversal visits the parent first: its pose is set.
                above = cast("Transform", self.poses[el.parent])
                self.poses[el.link] = above @ joint.rest_transform(parent, child)
                self.ends[el.joint] = (parent, child)


def stage_of(model: Model, *, options: DumpOptions | None = None) -> tuple[Any, ConversionReport]:
    """Return a new in-memory ``Usd.Stage`` holding ``model``, and the conversion report.

    Args:
        model: the model.
        options: how to write it (:class:`DumpOptions`).

    Raises:
        OptionalDependencyError: usd-core is not installed.
    """
    p = pxr()
    opts = options or DumpOptions()
    losses: list[Loss] = []

    # The stage: SI units and Z up, stated rather than left to each reader's default.
    stage = p.Usd.Stage.CreateInMemory("robomodel.usda")
    p.UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    p.UsdGeom.SetStageUpAxis(stage, p.UsdGeom.Tokens.z)
    p.UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    root_path = "/" + Names().take(model.name or "robot")
    root = p.UsdGeom.Xform.Define(stage, root_path).GetPrim()
    stage.SetDefaultPrim(root)
    put(root, "name", "string", model.name)
    put(root, "format_version", "int", 1)

    # The layout and the bodies, one prim per link directly under the root (a flat hierarchy).
    layout = _Layout(model)
    names = Names(_RESERVED)
    bodies: dict[str, str] = {}
    for i, (name, link) in enumerate(zip(model.link_names, model.links, strict=True)):
        bodies[name] = f"{root_path}/{names.take(name)}"
        pose = layout.poses[i]
        write_body(stage, bodies[name], name, link, pose or Transform.identity())
        losses += body_losses(name, link)

    # The joints, under the root's ``joints`` scope, parent end as body0.
    joints_path = f"{root_path}/joints"
    joint_names = Names()
    if model.n_joints or opts.fixed_base:
        p.UsdGeom.Scope.Define(stage, joints_path)
    for k, (name, joint) in enumerate(zip(model.joint_names, model.joints, strict=True)):
        ends = layout.ends[k] or (joint.link1, joint.link2)
        write_joint(stage, f"{joints_path}/{joint_names.take(name)}", name, joint, *ends, bodies)
        losses += joint_losses(name, joint)

    # The articulation root: on the base body of a floating base, on the weld to the world of
    # a fixed one (where UsdPhysics' documentation puts it in each case).
    _articulation_root(p, stage, model, layout, bodies, opts, joints_path, joint_names, losses)

    # What hangs off the links.
    meshes = MeshSource(opts.meshes, [*model.package_dirs, *opts.package_dirs], opts.base_dir)
    scopes: dict[str, Names] = {}
    for i, name in enumerate(model.link_names):
        write_shapes(stage, bodies[name], "visuals", model.visuals[i], meshes, losses, name)
        write_shapes(stage, bodies[name], "collisions", model.collisions[i], meshes, losses, name)
    for k, frame in enumerate(model.frames):
        parent = bodies.get(frame.link, root_path)
        path, taken = scope(stage, parent, "frames", scopes)
        write_frame(stage, f"{path}/{taken.take(frame.name)}", frame, k)
    for k, sensor in enumerate(model.sensors):
        parent = bodies.get(sensor_link(sensor), root_path)
        path, taken = scope(stage, parent, "sensors", scopes)
        losses.append(write_sensor(stage, f"{path}/{taken.take(sensor.name)}", sensor, k))

    # Robot-level values with no USD schema.
    _robot_values(p, stage, root, root_path, model, losses)
    return stage, ConversionReport(losses=tuple(losses))


def _articulation_root(
    p: Any,
    stage: Any,
    model: Model,
    layout: _Layout,
    bodies: dict[str, str],
    opts: DumpOptions,
    joints_path: str,
    joint_names: Names,
    losses: list[Loss],
) -> None:
    if not layout.roots:
        return
    base = model.link_names[layout.roots[0]]
    if opts.fixed_base:
        path = f"{joints_path}/{joint_names.take(opts.world_joint_name)}"
        target = write_world_joint(stage, path, opts.world_joint_name, bodies[base])
        losses.append(
            Loss(
                action="added",
                kind="joint",
                name=opts.world_joint_name,
                detail=f"a fixed joint welding {base!r} to the world "
                "(DumpOptions(fixed_base=True))",
            )
        )
    else:
        target = stage.GetPrimAtPath(bodies[base])
    p.UsdPhysics.ArticulationRootAPI.Apply(target)
    target.CreateAttribute("newton:selfCollisionEnabled", p.Sdf.ValueTypeNames.Bool).Set(
        opts.self_collisions
    )
    for other in layout.roots[1:]:
        losses.append(
            Loss(
                action="note",
                kind="link",
                name=model.link_names[other],
                detail="not connected to the base: its part of the model is written as free "
                "bodies outside the articulation",
            )
        )


def _robot_values(
    p: Any, stage: Any, root: Any, root_path: str, model: Model, losses: list[Loss]
) -> None:
    if model.default_base is not None:
        put(root, "default_base", "string", model.default_base)
    if model.package_dirs:
        put(root, "package_dirs", "string[]", list(model.package_dirs))
        losses.append(
            Loss(
                action="note",
                kind="robot",
                name=model.name,
                detail="the package directories: no USD schema, written as "
                "robomodel:package_dirs (the meshes are in the file)",
            )
        )
    if model.materials:
        losses.append(
            Loss(
                action="note",
                kind="robot",
                name=model.name,
                detail=f"{len(model.materials)} robot-level material(s): no UsdShade material "
                "is written; kept as robomodel:material:* attributes (a shape's colour is also "
                "its displayColor)",
            )
        )
        p.UsdGeom.Scope.Define(stage, f"{root_path}/materials")
        names = Names()
        for m in model.materials:
            prim = p.UsdGeom.Scope.Define(stage, f"{root_path}/materials/{names.take(m.name)}")
            write_material(prim.GetPrim(), m, "")
    if model.extensions:
        for field in ("owner_kind", "owner", "tag", "xml"):
            put(
                root,
                f"extensions:{field}",
                "string[]",
                [getattr(e, field) for e in model.extensions],
            )
        losses.append(
            Loss(
                action="note",
                kind="robot",
                name=model.name,
                detail=f"{len(model.extensions)} XML extension(s) (<gazebo>, <transmission>, ...) "
                "kept verbatim as robomodel:extensions:* attributes of the root prim",
            )
        )


def dumps_with_report(
    model: Model, *, options: DumpOptions | None = None
) -> tuple[str, ConversionReport]:
    """Return the USDA text of ``model`` and the report of what UsdPhysics cannot carry.

    Args:
        model: the model.
        options: how to write it (:class:`DumpOptions`).

    Raises:
        OptionalDependencyError: usd-core is not installed.
    """
    stage, report = stage_of(model, options=options)
    return str(stage.GetRootLayer().ExportToString()), report


def dumps(model: Model, *, options: DumpOptions | None = None) -> str:
    """Return the USDA text of ``model``; warn with what was dropped or changed.

    ``usd.loads(usd.dumps(m)) == m`` for every valid model. See :func:`dumps_with_report`.

    >>> import robomodel as rm
    >>> from robomodel.formats import usd
    >>> m = rm.add_joint_and_link(rm.add_link(rm.Model(name="r"), "base"), "base", "j", "arm",
    ...                           kind="revolute", axis=(0, 0, 1))
    >>> usd.loads(usd.dumps(m)) == m
    True
    """
    text, report = dumps_with_report(model, options=options)
    warn_losses(report, what="export", full_report="usd.dumps_with_report", fmt="USD")
    return text


def dump(model: Model, path: str | os.PathLike[str], *, options: DumpOptions | None = None) -> Path:
    """Write ``model`` to ``path``: USDA text for ``.usda``, a binary crate for ``.usdc``/``.usd``.

    The file is replaced in one step (a failed write leaves it as it was): a binary file is
    exported to a private temporary directory first and its bytes written into place.

    Returns:
        The path written.

    Raises:
        OptionalDependencyError: usd-core is not installed.
        OSError: the file cannot be written.
    """
    out = Path(path)
    if out.suffix.lower() not in BINARY_SUFFIXES:
        return atomic_write(out, dumps(model, options=options))
    stage, report = stage_of(model, options=options)
    warn_losses(report, what="export", full_report="usd.dumps_with_report", fmt="USD")
    return atomic_write(out, crate_bytes(stage.GetRootLayer()))


def crate_bytes(layer: Any) -> bytes:
    """Return ``layer`` as the bytes of a binary ``.usdc`` file."""
    with tempfile.TemporaryDirectory(prefix="robomodel-usd-") as d:
        tmp = os.path.join(d, "stage.usdc")
        if not layer.Export(tmp):
            raise OSError(f"usd-core could not write a crate file to {tmp}")
        return Path(tmp).read_bytes()
