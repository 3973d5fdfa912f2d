"""Attach one model to another: bolt a gripper onto an arm, a head onto a torso.

:func:`attach` merges two models into one by adding a joint (fixed by default) between a frame of
the receiving model and a link (or frame) of the attached one. Everything of the attached model
comes along: links, joints, frames, visual and collision shapes, sensors, package dirs, materials
and kept URDF extensions, renamed if asked. With ``maps=True`` it also returns where each old
element ended up (:class:`AttachMaps`).

Joints are undirected, so attaching ``other`` by a link that is not its default base changes
nothing in its joints: every joint keeps its stored ``link1``/``link2`` data, and the
kinematics of both parts are exactly those of the inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal, NamedTuple, overload

import attrs
from pyrsistent import pmap, pvector
from pyrsistent.typing import PMap
from pyrsistent.typing import PVector as PVectorT

from robomodel.errors import DuplicateNameError, ModelError, warn
from robomodel.model.joints import FixedJoint, Joint, replace_joint
from robomodel.model.record import Model
from robomodel.model.shapes import Material
from robomodel.model.spatial import Transform
from robomodel.model.validation import check_choice
from robomodel.transformers.rename import apply_renames
from robomodel.transformers.report import record, recording

__all__ = ["AttachMaps", "IndexMaps", "attach", "index_maps"]

OnConflict = Literal["raise", "prefix"]


@attrs.frozen(kw_only=True)
class IndexMaps:
    """Where the elements of one input model ended up: old name -> new index.

    Attributes:
        links: old link name -> new link index.
        joints: old joint name -> new joint index.
        frames: old frame name (link frames and additional frames) -> new frame index.
        dofs: old joint name -> new DOF index, for the joints that have a DOF.
        pos_coords: old joint name -> new position-coordinate index, for the moving joints.
        sensors: old sensor name -> new index in ``model.sensors``.
        names: old name -> new name, for every link, frame, joint and sensor that was renamed.
    """

    links: PMap[str, int]
    joints: PMap[str, int]
    frames: PMap[str, int]
    dofs: PMap[str, int]
    pos_coords: PMap[str, int]
    sensors: PMap[str, int]
    names: PMap[str, str]


class AttachMaps(NamedTuple):
    """The index maps of both inputs of :func:`attach`.

    Attributes:
        model: where the receiving model's elements are in the result (links and joints keep
            their indices; additional frames shift by the number of attached links).
        other: where the attached model's elements are in the result.
    """

    model: IndexMaps
    other: IndexMaps


def index_maps(
    old: Model,
    new: Model,
    *,
    links: Mapping[str, str] | None = None,
    joints: Mapping[str, str] | None = None,
    sensors: Mapping[str, str] | None = None,
) -> IndexMaps:
    """Return where each element of ``old`` is in ``new``, following renames given by name.

    Args:
        old: the model before the change.
        new: the model after it; every element of ``old`` (possibly renamed) must be in it.
        links: link and frame renames ``old -> new`` (names absent keep their name).
        joints: joint renames.
        sensors: sensor renames.

    Raises:
        UnknownNameError: an element of ``old`` is not in ``new``.
    """
    ln, jn, sn = dict(links or {}), dict(joints or {}), dict(sensors or {})
    frame_names = list(old.link_names) + old.frame_names
    dofs: dict[str, int] = {}
    pos: dict[str, int] = {}
    jidx: dict[str, int] = {}
    for name in old.joint_names:
        k = new.joint_index(jn.get(name, name))
        jidx[name] = k
        j = new.joints[k]
        if j.n_dofs:
            dofs[name] = j.dof_offset
            pos[name] = j.pos_coord_offset
    sidx = {s.name: _sensor_index(new, sn.get(s.name, s.name)) for s in old.sensors}
    renamed = {o: n for m in (ln, jn, sn) for o, n in m.items() if o != n}
    return IndexMaps(
        links=pmap({n: new.link_index(ln.get(n, n)) for n in old.link_names}),
        joints=pmap(jidx),
        frames=pmap({n: new.frame_index(ln.get(n, n)) for n in frame_names}),
        dofs=pmap(dofs),
        pos_coords=pmap(pos),
        sensors=pmap(sidx),
        names=pmap(renamed),
    )


def _sensor_index(model: Model, name: str) -> int:
    model.sensor(name)  # raises UnknownNameError with a suggestion
    return next(k for k, s in enumerate(model.sensors) if s.name == name)


@overload
def attach(
    model: Model,
    other: Model,
    *,
    at_frame: str,
    other_base: str | None = None,
    pose: Transform | None = None,
    joint: Joint | None = None,
    joint_name: str | None = None,
    prefix: str | None = None,
    on_conflict: OnConflict = "raise",
    maps: Literal[False] = False,
) -> Model: ...
@overload
def attach(
    model: Model,
    other: Model,
    *,
    at_frame: str,
    other_base: str | None = None,
    pose: Transform | None = None,
    joint: Joint | None = None,
    joint_name: str | None = None,
    prefix: str | None = None,
    on_conflict: OnConflict = "raise",
    maps: Literal[True],
) -> tuple[Model, AttachMaps]: ...


def attach(
    model: Model,
    other: Model,
    *,
    at_frame: str,
    other_base: str | None = None,
    pose: Transform | None = None,
    joint: Joint | None = None,
    joint_name: str | None = None,
    prefix: str | None = None,
    on_conflict: OnConflict = "raise",
    maps: bool = False,
) -> Model | tuple[Model, AttachMaps]:
    """Return ``model`` with ``other`` attached to its frame ``at_frame``.

    The result holds ``model``'s elements first (same link and joint indices, same default
    base and robot name), then the connecting joint, then ``other``'s links, joints, frames,
    shapes, sensors, materials, package dirs and kept extensions, in their order.

    The connection is one of:

    * a fixed joint (``joint=None``), with ``other_base`` placed at ``pose`` in ``at_frame``
      (``at_frame_H_other_base``, the identity by default);
    * a copy of ``joint``, a joint template written between the two frames: its ``link1``
      must be ``at_frame``, its ``link2`` ``other_base`` (or its new name when renamed), and
      its rest transform and axis are read in those frames. It is re-expressed between the
      underlying links.

    >>> import robomodel as rm
    >>> arm = rm.add_link(rm.Model(), "arm")
    >>> hand = rm.add_link(rm.Model(), "palm")
    >>> m = attach(arm, hand, at_frame="arm", pose=rm.Transform.from_translation((0, 0, 0.1)))
    >>> list(m.link_names), list(m.joint_names), m.default_base
    (['arm', 'palm'], ['arm_to_palm'], 'arm')

    Args:
        model: the receiving model.
        other: the model to attach.
        at_frame: a link or additional frame of ``model``.
        other_base: a link or additional frame of ``other`` where it is attached (its default
            base if ``None``).
        pose: ``at_frame_H_other_base`` of a fixed connection (not allowed with ``joint``).
        joint: a joint template for a moving (or explicitly given fixed) connection.
        joint_name: the connecting joint's name (``"<at_frame>_to_<other base link>"`` if
            ``None``).
        prefix: prepended to the names of ``other``'s elements: to all of them with
            ``on_conflict="raise"``, to the clashing ones only with ``on_conflict="prefix"``.
        on_conflict: ``"raise"`` (the default) refuses names used in both models;
            ``"prefix"`` renames the clashing names of ``other`` with ``prefix`` (or
            ``"<other.name>_"``, or ``"attached_"`` when ``other`` has no name).
        maps: also return :class:`AttachMaps` (old name -> new index of both inputs).

    Returns:
        The merged model, or ``(model, maps)``.

    Raises:
        UnknownNameError: ``at_frame`` or ``other_base`` is not a frame of its model.
        DuplicateNameError: a name is used by both models (after renaming) or by the
            connecting joint.
        ModelError: an empty model, a ``joint`` template whose ends are not ``at_frame`` and
            ``other_base``, ``pose`` given together with ``joint``, or an unknown
            ``on_conflict``.
    """
    check_choice(on_conflict, ("raise", "prefix"), "on_conflict", where="attach")
    if prefix is not None and not isinstance(prefix, str):
        raise ModelError(f"attach: prefix must be a string, got {prefix!r}")
    if model.n_links == 0 or other.n_links == 0:
        which = "receiving model" if model.n_links == 0 else "attached model"
        raise ModelError(f"attach: the {which} has no links; add a link first")
    if joint is not None and pose is not None:
        raise ModelError(
            "attach: give either pose (for a fixed connection) or joint (whose link1_H_link2 "
            "is the pose at rest), not both"
        )
    L = model.link_names[model.frame_link(at_frame)]
    L_H_F = model.frame_transform(at_frame)
    ob = other.default_base if other_base is None else other_base
    assert ob is not None  # a model with links has a default base
    B_link_old = other.link_names[other.frame_link(ob)]
    Bl_H_B = other.frame_transform(ob)

    lf, ff, jf, sf = _renamers(model, other, prefix, on_conflict)
    o2 = apply_renames(other, lf, ff, jf, sf)
    _check_no_clash(model, o2)
    B_link = lf(B_link_old)

    jn = joint_name if joint_name is not None else f"{at_frame}_to_{B_link}"
    if model.is_joint_name_used(jn) or o2.is_joint_name_used(jn):
        raise DuplicateNameError(
            "joint", jn, "the connecting joint needs a free name; pass joint_name="
        )
    connection = _connection(
        joint, pose, at_frame, ob, _renamed(ob, lf, ff, other), L, B_link, L_H_F, Bl_H_B
    )

    materials, dropped = _merge_materials(model, o2)
    for name in dropped:
        warn(
            f"attach: both models define material {name!r} differently; the receiving "
            "model's definition is kept (shapes carry their own material, so they are "
            "unaffected)"
        )
        record("dropped", "material", name, "the receiving model's definition is kept")
    dirs = list(model.package_dirs) + [d for d in o2.package_dirs if d not in model.package_dirs]
    result = Model(
        link_names=model.link_names.extend(o2.link_names),
        links=model.links.extend(o2.links),
        joint_names=model.joint_names.append(jn).extend(o2.joint_names),
        joints=model.joints.append(connection).extend(o2.joints),
        frames=model.frames.extend(o2.frames),
        default_base=model.default_base,
        visuals=model.visuals.extend(o2.visuals),
        collisions=model.collisions.extend(o2.collisions),
        sensors=model.sensors.extend(o2.sensors),
        package_dirs=pvector(dirs),
        name=model.name,
        materials=materials,
        extensions=model.extensions.extend(o2.extensions),
    )
    if recording():
        source = repr(other.name) if other.name else "the attached model"
        record(
            "added",
            "joint",
            jn,
            f"{type(connection).__name__} between {L!r} and {B_link!r} (attaching {source})",
        )
        for kind, names in (
            ("link", o2.link_names),
            ("frame", o2.frame_names),
            ("joint", o2.joint_names),
            ("sensor", [s.name for s in o2.sensors]),
        ):
            for n in names:
                record("added", kind, n, f"from {source}")
        for e in o2.extensions:
            record("added", "extension", f"<{e.tag}> of {e.owner_kind} {e.owner!r}")
    if not maps:
        return result
    renames = {n: lf(n) for n in other.link_names}
    renames.update({f.name: ff(f.name) for f in other.frames})
    other_maps = index_maps(
        other,
        result,
        links=renames,
        joints={n: jf(n) for n in other.joint_names},
        sensors={s.name: sf(s.name) for s in other.sensors},
    )
    return result, AttachMaps(index_maps(model, result), other_maps)


def _renamers(
    model: Model, other: Model, prefix: str | None, on_conflict: OnConflict
) -> tuple[Callable[[str], str], ...]:
    if on_conflict == "raise":
        if not prefix:
            return (_same,) * 4
        p = prefix
        return ((lambda n: p + n),) * 4
    p = prefix or (f"{other.name}_" if other.name else "attached_")
    frame_like = set(model.link_names) | set(model.frame_names)
    joints = set(model.joint_names)
    sensors = {s.name for s in model.sensors}

    def only(used: set[str]) -> Callable[[str], str]:
        return lambda n: p + n if n in used else n

    return only(frame_like), only(frame_like), only(joints), only(sensors)


def _renamed(name: str, lf: Callable[[str], str], ff: Callable[[str], str], other: Model) -> str:
    return lf(name) if other.is_link_name_used(name) else ff(name)


def _same(n: str) -> str:
    return n


def _check_no_clash(model: Model, other: Model) -> None:
    clashes = [
        (
            "link or frame",
            sorted(
                (set(model.link_names) | set(model.frame_names))
                & (set(other.link_names) | set(other.frame_names))
            ),
        ),
        ("joint", sorted(set(model.joint_names) & set(other.joint_names))),
        ("sensor", sorted({s.name for s in model.sensors} & {s.name for s in other.sensors})),
    ]
    for kind, names in clashes:
        if names:
            raise DuplicateNameError(
                kind,
                names[0],
                f"both models use {', '.join(map(repr, names))}; pass prefix='...' to rename "
                "the attached model's elements, or on_conflict='prefix'",
            )


def _connection(
    joint: Joint | None,
    pose: Transform | None,
    at_frame: str,
    other_base: str,
    renamed_base: str,
    L: str,
    B: str,
    L_H_F: Transform,
    Bl_H_B: Transform,
) -> Joint:
    B_H_Bl = Bl_H_B.inverse()
    if joint is None:
        F_H_B = Transform.identity() if pose is None else pose
        return FixedJoint(link1=L, link2=B, link1_H_link2=L_H_F @ F_H_B @ B_H_Bl)
    if joint.link1 != at_frame or joint.link2 not in (other_base, renamed_base):
        also = f" (or {renamed_base!r})" if renamed_base != other_base else ""
        raise ModelError(
            f"attach: the joint template connects {joint.link1!r} to {joint.link2!r}; write it "
            f"from at_frame {at_frame!r} (link1) to other_base {other_base!r}{also} (link2)"
        )
    rest = L_H_F @ joint.link1_H_link2 @ B_H_Bl
    if isinstance(joint, FixedJoint):
        return replace_joint(joint, link1=L, link2=B, link1_H_link2=rest)
    return replace_joint(
        joint, link1=L, link2=B, link1_H_link2=rest, axis_in_link1=L_H_F @ joint.axis_in_link1
    )


def _merge_materials(model: Model, other: Model) -> tuple[PVectorT[Material], list[str]]:
    have = {m.name: m for m in model.materials}
    out = model.materials
    dropped: list[str] = []
    for m in other.materials:
        if m.name not in have:
            out = out.append(m)
            have[m.name] = m
        elif have[m.name] != m:
            dropped.append(m.name)
    return out, dropped
