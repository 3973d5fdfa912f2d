"""Options of the OpenUSD writer (a frozen value; pass it as ``options=``)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

__all__ = ["DumpOptions"]


def _dirs(v: Sequence[str]) -> tuple[str, ...]:
    return tuple(str(d) for d in v)


@attrs.frozen(kw_only=True)
class DumpOptions:
    """How :func:`robomodel.formats.usd.dumps` writes a model as OpenUSD.

    Attributes:
        fixed_base: weld the base link to the world with a ``PhysicsFixedJoint`` (named
            ``world_joint_name``, carrying the ``PhysicsArticulationRootAPI``); ``False`` (the
            default) leaves the base floating and puts the articulation root on the base body.
        world_joint_name: the name of that fixed joint.
        meshes: convert the mesh files of visual and collision shapes into ``UsdGeom.Mesh``
            prims (needs trimesh); ``False`` writes every mesh shape as an empty ``Xform``
            naming its file, listed in the report.
        base_dir: the directory relative mesh filenames are relative to (a URDF's directory).
        package_dirs: more directories for ``package://`` meshes, after the model's own.
        self_collisions: whether the links of the articulation collide with each other, written
            as ``newton:selfCollisionEnabled`` on the articulation root (Newton reads it there;
            SimReady's Newton profile wants it authored).
    """

    fixed_base: bool = False
    world_joint_name: str = "world_joint"
    meshes: bool = True
    base_dir: str | None = None
    package_dirs: tuple[str, ...] = attrs.field(default=(), converter=_dirs)
    self_collisions: bool = False
