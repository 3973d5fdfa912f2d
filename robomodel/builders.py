"""The pure functions that build a model element by element.

Each returns a new :class:`~robomodel.model.Model` and leaves its input untouched; they update
the model's name maps and union-find persistently, so adding a link, joint or frame costs
``O(log n)``, not a copy of the model. Also re-exported by the :mod:`robomodel` package.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._derive import (
    _EMPTY_SHAPES,
    _MOVING,
    _check_name,
    _connected_error,
    _sensor_problems,
)
from robomodel._index import NameIndex
from robomodel.errors import DuplicateNameError, ModelError, UnknownNameError
from robomodel.joints import _PLACE, FixedJoint, Joint, replace_joint
from robomodel.model import Frame, Link, Model, _evolve
from robomodel.sensors import Sensor
from robomodel.shapes import SolidShape
from robomodel.spatial import FloatArray, SpatialInertia, Transform

__all__ = [
    "add_frame",
    "add_joint",
    "add_joint_and_link",
    "add_link",
    "add_sensor",
    "discard_sensor",
    "insert_link_to_existing_joint",
    "iter_joints",
    "joint_positions_from",
    "remove_sensor",
    "with_collision_shapes",
    "with_default_base_link",
    "with_inertial_parameters",
    "with_link",
    "with_package_dirs",
    "with_visual_shapes",
]


def add_link(model: Model, name: str, link: Link | None = None) -> Model:
    """Return ``model`` with a new link ``name`` (index ``n_links``).

    The name must not be used by a link or an additional frame. The first link becomes the
    default base. Every additional frame's index shifts by one.
    """
    _check_name(name, "link")
    if model.is_frame_name_used(name):
        kind = "link" if name in model._l else "additional frame"
        raise DuplicateNameError(kind, name, "links and frames share one namespace")
    lk = Link() if link is None else link
    if not isinstance(lk, Link):
        raise ModelError(f"add_link expects a Link, got {type(lk).__name__}")
    return _evolve(
        model,
        link_names=model.link_names.append(name),
        links=model.links.append(lk),
        default_base=name if model.default_base is None else model.default_base,
        visuals=model.visuals.append(_EMPTY_SHAPES),
        collisions=model.collisions.append(_EMPTY_SHAPES),
        _lmap=model._l.appended(name),
        _nbrs=None,
        _comp=_comp(model).append(-1),
    )


def _comp(m: Model) -> PVectorT[int]:
    assert m._comp is not None
    return m._comp


def _root(parent: PVectorT[int], i: int) -> int:
    while True:
        p = parent[i]
        if p < 0:
            return i
        i = p


def _union(uf: PVectorT[int], r1: int, r2: int) -> PVectorT[int]:
    """Join the components of roots ``r1 != r2`` (union by rank)."""
    k1, k2 = uf[r1], uf[r2]  # -1 - rank
    if k1 > k2:  # r1 has the lower rank: hang it below r2
        return uf.set(r1, r2)
    if k1 < k2:
        return uf.set(r2, r1)
    return uf.set(r2, r1).set(r1, k1 - 1)


def add_joint(model: Model, name: str, joint: Joint) -> Model:
    """Return ``model`` with ``joint`` added as joint ``name`` between its ``link1`` and ``link2``.

    The joint's offsets are set to the model's running position-coordinate and DOF totals.
    Raises if the name is used by another joint, if a link is missing, or if the joint would
    connect two links that are already connected (a second joint or a loop).
    """
    _check_name(name, "joint")
    if not isinstance(joint, (FixedJoint, *_MOVING)):
        raise ModelError(
            f"add_joint expects a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}"
        )
    if name in model._j:
        raise DuplicateNameError("joint", name)
    l1 = model._l.get(joint.link1)
    l2 = model._l.get(joint.link2)
    for ln, li in ((joint.link1, l1), (joint.link2, l2)):
        if li is None:
            raise UnknownNameError(
                "link", ln, model.link_names, hint=f"joint {name!r} needs it; add the link first"
            ) from None
    assert l1 is not None and l2 is not None
    comp = _comp(model)
    c1, c2 = _root(comp, l1), _root(comp, l2)
    if c1 == c2:
        raise _connected_error(name, joint, model.joints, model.joint_names)
    npos, ndof = model._c
    placed = replace_joint(joint, pos_coord_offset=npos, dof_offset=ndof)
    return _evolve(
        model,
        joint_names=model.joint_names.append(name),
        joints=model.joints.append(placed),
        _jmap=model._j.appended(name),
        _nbrs=None,
        _comp=_union(comp, c1, c2),
        _counts=(npos + joint.n_pos_coords, ndof + joint.n_dofs),
    )


def add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model:
    """Add link ``new_link_name`` and then ``joint`` between ``existing_link`` and it.

    The joint's ``link1``/``link2`` are set to ``(existing_link, new_link_name)``; its rest
    transform and axis are read relative to those, as iDynTree's ``addJointAndLink`` does.
    """
    # This is the hot path of every loader and of step-by-step builds: the checks below are
    # those of add_link + add_joint, inlined (no property or helper calls).
    lmap, jmap, fmap = model._lmap, model._jmap, model._fmap
    assert lmap is not None and jmap is not None and fmap is not None
    e = lmap.get(existing_link)
    if e is None:
        raise UnknownNameError(
            "link", existing_link, model.link_names, hint=f"joint {joint_name!r} needs it"
        )
    if type(joint_name) is not str or not joint_name:
        _check_name(joint_name, "joint")
    if joint_name in jmap:
        raise DuplicateNameError("joint", joint_name)
    place = _PLACE.get(type(joint))
    if place is None:
        if not isinstance(joint, (FixedJoint, *_MOVING)):
            raise ModelError(
                f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}"
            )
        place = _replace_placer
    if type(new_link_name) is not str or not new_link_name:
        _check_name(new_link_name, "link")
    if new_link_name in lmap or new_link_name in fmap:
        raise DuplicateNameError("link or frame", new_link_name, "links and frames share names")
    lk = _DEFAULT_LINK if new_link is None else new_link
    if type(lk) is not Link and not isinstance(lk, Link):
        raise ModelError(f"add_joint_and_link expects a Link, got {type(lk).__name__}")
    # The new link is a singleton component, so joining it to the existing link can never close
    # a loop: this fused path does in one step what add_link + add_joint do in two.
    npos, ndof = model._counts  # type: ignore[misc]
    placed = place(joint, existing_link, new_link_name, npos, ndof)
    comp = model._comp
    assert comp is not None
    root = _root(comp, e)
    if comp[root] == -1:  # a lone root gains rank 1 from its first leaf
        comp = comp.set(root, -2)
    return _evolve(
        model,
        link_names=model.link_names.append(new_link_name),
        links=model.links.append(lk),
        visuals=model.visuals.append(_EMPTY_SHAPES),
        collisions=model.collisions.append(_EMPTY_SHAPES),
        joint_names=model.joint_names.append(joint_name),
        joints=model.joints.append(placed),
        _lmap=lmap.appended(new_link_name),
        _jmap=jmap.appended(joint_name),
        _nbrs=None,
        _comp=comp.append(root),
        _counts=(npos + joint.n_pos_coords, ndof + joint.n_dofs),
    )


_DEFAULT_LINK = Link()


def _replace_placer(joint: Joint, link1: str, link2: str, npos: int, ndof: int) -> Joint:
    # For subclasses of the joint kinds, which have no generated placer.
    return replace_joint(joint, link1=link1, link2=link2, pos_coord_offset=npos, dof_offset=ndof)


def insert_link_to_existing_joint(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model:
    """Splice a new link into an existing joint (iDynTree's ``insertLinkToExistingJoint...``).

    Joint ``existing_joint`` between ``unmovable_link`` and a displaced link D becomes a joint
    between ``unmovable_link`` and the new link, with rest pose ``unmovable_H_new``; ``joint``
    (named ``joint_name``, its rest transform read as ``new_H_D``) connects the new link to D.
    The existing joint keeps its name, index, type, limits and stored axis; when
    ``unmovable_link`` was its link2, the new link takes the link1 slot (rest inverted).
    """
    ji = model.joint_index(existing_joint)
    u = model.link_index(unmovable_link)
    old = model.joints[ji]
    if unmovable_link not in (old.link1, old.link2):
        raise ModelError(
            f"link {unmovable_link!r} is not attached to joint {existing_joint!r} "
            f"({old.link1!r}, {old.link2!r})"
        )
    displaced = old.other_link(unmovable_link)
    d = model._l[displaced]
    m = add_link(model, new_link_name, new_link)
    n = m._l[new_link_name]
    if unmovable_link == old.link1:
        moved = replace_joint(old, link2=new_link_name, link1_H_link2=unmovable_H_new)
    else:
        moved = replace_joint(old, link1=new_link_name, link1_H_link2=unmovable_H_new.inverse())
    # Adjacency follows from the joint list (the moved joint keeps its index, so U's entry keeps
    # its place and D's entry moves to the end, as in iDynTree). Connectivity is unchanged
    # overall (U - N - D is one component again once the new joint is in): N joins U's
    # component now, and the N-D joint is appended below without the loop check, which would
    # see N and D as already connected.
    comp = _comp(m)
    m = _evolve(
        m,
        joints=m.joints.set(ji, moved),
        _nbrs=None,
        _comp=_union(comp, _root(comp, u), n),
    )
    return _append_joint(m, joint_name, joint, new_link_name, displaced, n, d)


def _append_joint(
    m: Model, name: str, joint: Joint, link1: str, link2: str, l1: int, l2: int
) -> Model:
    # Appends a joint between links already known to be in one tree without creating a loop.
    _check_name(name, "joint")
    if name in m._j:
        raise DuplicateNameError("joint", name)
    if not isinstance(joint, (FixedJoint, *_MOVING)):
        raise ModelError(f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}")
    npos, ndof = m._c
    placed = replace_joint(joint, link1=link1, link2=link2, pos_coord_offset=npos, dof_offset=ndof)
    return _evolve(
        m,
        joint_names=m.joint_names.append(name),
        joints=m.joints.append(placed),
        _jmap=m._j.appended(name),
        _nbrs=None,
        _counts=(npos + joint.n_pos_coords, ndof + joint.n_dofs),
    )


def add_frame(model: Model, link: str, name: str, link_H_frame: Transform | None = None) -> Model:
    """Return ``model`` with an additional frame ``name`` fixed to ``link`` at ``link_H_frame``.

    Frames attach to links only (not to other frames). The name must not be used by a link or
    frame. The frame gets index ``n_frames`` of the result.
    """
    _check_name(name, "frame")
    if link not in model._l:
        hint = "; frames attach to links, not to other frames" if link in model._f else ""
        raise UnknownNameError(
            "link", link, model.link_names, hint=f"cannot attach frame {name!r} to it{hint}"
        ) from None
    if model.is_frame_name_used(name):
        raise DuplicateNameError("link or frame", name, "links and frames share one namespace")
    T = Transform.identity() if link_H_frame is None else link_H_frame
    return _evolve(
        model,
        frames=model.frames.append(Frame(name, link, T)),
        _fmap=model._f.appended(name),
    )


def with_default_base_link(model: Model, link: str | int) -> Model:
    """Return ``model`` with ``link`` (name or index) as default base."""
    name = model.link_names[model._link_idx(link)]
    if name == model.default_base:
        return model
    return _evolve(model, default_base=name)


def with_link(model: Model, link: str | int, new: Link) -> Model:
    """Return ``model`` with one link's inertia replaced."""
    i = model._link_idx(link)
    if model.links[i] == new:
        return model
    return _evolve(model, links=model.links.set(i, new))


def with_inertial_parameters(model: Model, params: Sequence[float] | FloatArray) -> Model:
    """Return ``model`` with every link's inertia set from iDynTree's parameter vector.

    Accepts the flat ``10 * n_links`` vector of :meth:`Model.inertial_parameters` or an
    ``(n_links, 10)`` array. No physical-consistency check is made (as in iDynTree).
    """
    p = np.asarray(params, dtype=np.float64)
    n = len(model.links)
    if p.shape not in ((10 * n,), (n, 10)):
        raise ModelError(
            f"expected {10 * n} inertial parameters (10 per link for {n} links), "
            f"got shape {p.shape}"
        )
    rows = p.reshape(n, 10)
    return _evolve(model, links=pvector(Link(SpatialInertia.from_vector(r)) for r in rows))


def with_package_dirs(model: Model, dirs: Iterable[str]) -> Model:
    """Return ``model`` with the given package directories."""
    return _evolve(model, package_dirs=pvector(str(d) for d in dirs))


def with_visual_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's visual shapes replaced."""
    i = model._link_idx(link)
    return _evolve(model, visuals=model.visuals.set(i, _shapes(shapes)))


def with_collision_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's collision shapes replaced."""
    i = model._link_idx(link)
    return _evolve(model, collisions=model.collisions.set(i, _shapes(shapes)))


def _shapes(shapes: Iterable[SolidShape]) -> PVectorT[SolidShape]:
    out = pvector(shapes)
    for s in out:
        if not isinstance(s, SolidShape):
            raise ModelError(f"expected SolidShape values, got {type(s).__name__}")
    return out


def add_sensor(model: Model, sensor: Sensor) -> Model:
    """Return ``model`` with ``sensor`` appended.

    Sensor names are unique across all sensor kinds; the links and joint a sensor refers to
    must exist (an F/T sensor's two links must be its joint's two ends).
    """
    if sensor.name in model._s:
        raise DuplicateNameError("sensor", sensor.name)
    bad = _sensor_problems(model, sensor)
    if bad:
        raise ModelError(bad[0] + "; fix the sensor or add the missing element first")
    return _evolve(
        model,
        sensors=model.sensors.append(sensor),
        _smap=model._s.appended(sensor.name),
    )


def remove_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; raise if there is none."""
    k = model._s.get(name)
    if k is None:
        raise UnknownNameError("sensor", name, [s.name for s in model.sensors])
    sensors = model.sensors.delete(k)
    return _evolve(model, sensors=sensors, _smap=NameIndex.build(s.name for s in sensors))


def discard_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; the model itself if there is none."""
    return remove_sensor(model, name) if name in model._s else model


def iter_joints(model: Model) -> Iterator[tuple[str, Joint]]:
    """Yield ``(name, joint)`` pairs in joint-index order."""
    return zip(model.joint_names, model.joints, strict=True)


def joint_positions_from(model: Model, values: Mapping[str, float]) -> FloatArray:
    """Return a position vector of size ``n_pos_coords`` from a joint-name mapping (others 0)."""
    q = np.zeros(model.n_pos_coords)
    for name, v in values.items():
        j = model.joint(name)
        if j.n_pos_coords == 0:
            raise ModelError(f"joint {name!r} is fixed and has no position")
        q[j.pos_coord_offset] = float(v)
    return q
