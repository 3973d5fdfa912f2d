"""Options of the MJCF writer and reader (frozen values; pass them as ``options=``).

The names follow the vocabulary every format shares (``docs/formats.md``): :class:`LoadOptions`
and :class:`DumpOptions`; the previous release's ``ImportOptions`` and ``ExportOptions`` still
work for one release, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import math
from typing import Literal

import attrs

from robomodel._internal.deprecation import renamed_attributes

__all__ = ["MJCF_MIN_VALUE", "DumpOptions", "LoadOptions"]

MJCF_MIN_VALUE = 1e-15
"""MuJoCo's ``mjMINVAL``: moving bodies need a mass and principal inertias above it."""


def _positive(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not (math.isfinite(value) and value > MJCF_MIN_VALUE):
        raise ValueError(f"{attribute.name} must be finite and > {MJCF_MIN_VALUE}, got {value!r}")


@attrs.frozen(kw_only=True)
class DumpOptions:
    """How :func:`robomodel.formats.mjcf.dumps` writes a model as MJCF.

    Attributes:
        base: the link that becomes the root body (the model's default base when ``None``).
        floating_base: give the root body a ``<freejoint>`` (named ``free_joint_name``);
            ``False`` welds it to the world, which is what robomodel's fixed-base dynamics
            assume.
        free_joint_name: the name of that free joint.
        massless: what to do with a moving body whose mass or principal inertias, together with
            the bodies welded to it, are below MuJoCo's ``mjMINVAL`` (MuJoCo refuses them):
            ``"merge"`` moves the joint of a massless link between two moving joints (nothing
            attached to it) into its child's body, which MuJoCo allows to hold several joints,
            so nothing changes, and bounds the others as ``"bound"`` does; ``"bound"`` gives
            the body ``bound_mass`` and ``bound_inertia`` (about its centre of mass, added to
            what it had), reported with the exact values; ``"raise"`` refuses.
        bound_mass: the mass the ``"bound"`` policy gives a massless moving body (kg).
        bound_inertia: the principal inertia the ``"bound"`` policy adds (kg m^2).
        invalid_inertia: what to do with an inertia MuJoCo rejects (a negative principal moment,
            or principal moments breaking the triangle inequality ``A + B >= C``):
            ``"balance"`` raises the smaller moments just enough (reported with the change);
            ``"raise"`` refuses.
        meshes: write mesh geoms (``False`` reports every mesh as dropped; compiling is faster).
        mesh_dir: a directory where meshes in formats MuJoCo cannot read (``.dae``, ``.ply``,
            ...) are converted to STL with trimesh (an optional dependency), reported as
            approximated; ``None`` drops them, reported.
        base_dir: the directory relative mesh filenames are relative to (for a model loaded
            from a URDF file, its directory: ``robomodel.formats.urdf.load_with_report(path)[1]
            .sources.base_dir``); ``None``: the working directory.
        visuals: write visual shapes as non-colliding geoms (group 2).
        collisions: write collision shapes as colliding geoms (group 3).
        actuators: add one ``<motor>`` per moving, non-mimic joint, its control range the
            joint's effort limit when finite.
        metadata: write a ``<custom><text name="robomodel">`` element with what MJCF has no
            place for (velocity limits, the applied side of F/T sensors, the model name) so
            that :func:`robomodel.formats.mjcf.loads` restores it.
    """

    base: str | None = None
    floating_base: bool = False
    free_joint_name: str = "floating_base"
    massless: Literal["merge", "bound", "raise"] = "merge"
    bound_mass: float = attrs.field(default=1e-6, validator=_positive)
    bound_inertia: float = attrs.field(default=1e-9, validator=_positive)
    invalid_inertia: Literal["balance", "raise"] = "balance"
    meshes: bool = True
    mesh_dir: str | None = None
    base_dir: str | None = None
    visuals: bool = True
    collisions: bool = True
    actuators: bool = False
    metadata: bool = True


@attrs.frozen(kw_only=True)
class LoadOptions:
    """How :func:`robomodel.formats.mjcf.loads` turns MJCF into a model.

    Attributes:
        world_link: the name of the link made from MuJoCo's world body when the model needs
            one (several root bodies, static geometry or sites in the world, or roots welded to
            the world); a single root body with a free joint becomes the default base instead.
        shapes: read geoms as visual (non-colliding geoms) and collision (colliding geoms)
            shapes (``False`` reports every geom as dropped).
        keep_sections: keep ``<option>``, ``<size>``, ``<default>``, ``<tendon>``,
            ``<actuator>`` and ``<contact>`` verbatim as robot extensions (tag ``mjcf:...``),
            which :func:`robomodel.formats.mjcf.dumps_with_report` writes back. Only the text given
            is read: sections in ``<include>``d files are not kept.
    """

    world_link: str = "world"
    shapes: bool = True
    keep_sections: bool = True


__getattr__ = renamed_attributes(
    __name__,
    {
        "ExportOptions": ("robomodel.formats.mjcf.DumpOptions", lambda: DumpOptions),
        "ImportOptions": ("robomodel.formats.mjcf.LoadOptions", lambda: LoadOptions),
    },
)
