"""Deriving a whole model's index maps, and the checks that come with it.

:class:`~robomodel.model.Model` calls :func:`_derive_and_validate` when it is built from whole
sequences (the loader, the transformers, ``Model(...)`` in user code); the builders of
:mod:`robomodel.builders` update the maps persistently instead. Kept apart from
:mod:`robomodel.model` so that each module holds one idea: the record there, its bulk
derivation here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyrsistent import PVector, pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._index import NameIndex, _Table
from robomodel.errors import DuplicateNameError, ModelError, TopologyError, UnknownNameError
from robomodel.joints import FixedJoint, Joint, PrismaticJoint, RevoluteJoint, replace_joint
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import SolidShape

if TYPE_CHECKING:
    from robomodel.model import Model

_EMPTY_SHAPES: PVectorT[SolidShape] = pvector()
_PVECTOR = type(_EMPTY_SHAPES)  # the concrete persistent-vector class
_MOVING = (RevoluteJoint, PrismaticJoint)


def _pv(v: Any) -> PVector:  # type: ignore[type-arg]
    return v if isinstance(v, PVector) else pvector(v)


def _check_name(name: str, what: str) -> None:
    if not isinstance(name, str) or not name:
        raise ModelError(f"a {what} name must be a non-empty string, got {name!r}")


def _checked_frames(m: Model, lmap: dict[str, int]) -> dict[str, int]:
    """Check the additional frames one by one; raise on the first problem."""
    fmap: dict[str, int] = {}
    for k, f in enumerate(m.frames):
        if type(f.name) is not str or not f.name:
            _check_name(f.name, "frame")
        if f.name in lmap or f.name in fmap:
            raise DuplicateNameError("link or frame", f.name)
        if f.link not in lmap:
            raise UnknownNameError("link", f.link, lmap) from None
        fmap[f.name] = k
    return fmap


def _derive_and_validate(m: Model) -> None:
    """Derive every index map of a model given whole, validating it on the way (O(n log n))."""
    n = len(m.links)
    if len(m.link_names) != n:
        raise ModelError(f"{len(m.link_names)} link names for {n} links")
    if len(m.joint_names) != len(m.joints):
        raise ModelError(f"{len(m.joint_names)} joint names for {len(m.joints)} joints")
    # ``type(x) is str and x`` is the common case of _check_name, tested inline: the call per
    # name was a sizeable share of building a model of a few hundred elements.
    lmap: dict[str, int] = {}
    for i, name in enumerate(m.link_names):
        if type(name) is not str or not name:
            _check_name(name, "link")
        if name in lmap:
            raise DuplicateNameError("link", name)
        lmap[name] = i
    # Frames: set-level checks first (all names plain non-empty strings, unique, not link names,
    # on known links); only when one fails, _checked_frames finds the first offender and raises
    # exactly as before.
    fnames = [f.name for f in m.frames]
    fmap: dict[str, int] = {}
    if set(map(type, fnames)) <= {str}:  # before hashing them: a name may be anything
        fmap = {name: k for k, name in enumerate(fnames)}
    if not (
        len(fmap) == len(fnames)
        and "" not in fmap
        and fmap.keys().isdisjoint(lmap)
        and {f.link for f in m.frames} <= lmap.keys()
    ):
        fmap = _checked_frames(m, lmap)
    if m.default_base is not None and m.default_base not in lmap:
        raise UnknownNameError("link", m.default_base, lmap)
    base = m.default_base if m.default_base is not None else (m.link_names[0] if n else None)

    # One pass over the joints with a local union-find: the same checks and offsets as add_joint,
    # without building an intermediate model per joint (transformers and loaders build whole
    # models through this constructor, so it is on their hot path).
    uf = [-1] * n

    def root(i: int) -> int:
        while uf[i] >= 0:
            i = uf[i]
        return i

    jmap: dict[str, int] = {}
    placed_joints: list[Joint] = []
    npos = ndof = 0
    for jn, joint in zip(m.joint_names, m.joints, strict=True):
        if type(jn) is not str or not jn:
            _check_name(jn, "joint")
        if not isinstance(joint, (FixedJoint, *_MOVING)):
            raise ModelError(
                f"joint {jn!r}: expected a FixedJoint, RevoluteJoint or PrismaticJoint, "
                f"got {type(joint).__name__}"
            )
        if jn in jmap:
            raise DuplicateNameError("joint", jn)
        l1 = lmap.get(joint.link1)
        l2 = lmap.get(joint.link2)
        for ln, li in ((joint.link1, l1), (joint.link2, l2)):
            if li is None:
                raise UnknownNameError(
                    "link", ln, lmap, hint=f"joint {jn!r} needs it; add the link first"
                )
        assert l1 is not None and l2 is not None
        r1, r2 = root(l1), root(l2)
        if r1 == r2:
            raise _connected_error(jn, joint, placed_joints, m.joint_names)
        k1, k2 = uf[r1], uf[r2]
        if k1 > k2:
            uf[r1] = r2
        elif k1 < k2:
            uf[r2] = r1
        else:
            uf[r2] = r1
            uf[r1] = k1 - 1
        if joint.pos_coord_offset != npos or joint.dof_offset != ndof:
            joint = replace_joint(joint, pos_coord_offset=npos, dof_offset=ndof)
        placed_joints.append(joint)
        jmap[jn] = len(placed_joints) - 1
        npos += joint.n_pos_coords
        ndof += joint.n_dofs
    joints_changed = any(a is not b for a, b in zip(placed_joints, m.joints, strict=True))
    shell = m
    # lmap and jmap map every name to its index already: wrap them instead of rebuilding.
    object.__setattr__(shell, "_lmap", NameIndex(_Table(lmap, n), n))
    object.__setattr__(shell, "_jmap", NameIndex(_Table(jmap, len(jmap)), len(jmap)))
    smap: dict[str, int] = {}
    for k, s in enumerate(m.sensors):
        if s.name in smap:
            raise DuplicateNameError("sensor", s.name)
        smap[s.name] = k
        # A link sensor on a known link has no problem: skip the general check (and its call).
        if (type(s) is Accelerometer or type(s) is Gyroscope) and s.link in lmap:
            continue
        bad = _sensor_problems(shell, s)
        if bad:
            raise ModelError(bad[0])
    visuals = m.visuals if len(m.visuals) else pvector([_EMPTY_SHAPES] * n)
    collisions = m.collisions if len(m.collisions) else pvector([_EMPTY_SHAPES] * n)
    if len(visuals) != n or len(collisions) != n:
        raise ModelError(
            f"visuals and collisions need one list per link ({n}), got "
            f"{len(visuals)} and {len(collisions)}"
        )
    set_ = object.__setattr__
    if joints_changed:
        set_(m, "joints", pvector(placed_joints))
    set_(m, "default_base", base)
    # ``type(v) is`` first: PVector is an ABC, so isinstance in _pv is slow per link.
    set_(m, "visuals", pvector([v if type(v) is _PVECTOR else _pv(v) for v in visuals]))
    set_(m, "collisions", pvector([v if type(v) is _PVECTOR else _pv(v) for v in collisions]))
    set_(m, "_fmap", NameIndex(_Table(fmap, len(fmap)), len(fmap)))
    set_(m, "_smap", NameIndex(_Table(smap, len(smap)), len(smap)))
    set_(m, "_nbrs", None)
    set_(m, "_comp", pvector(uf))
    set_(m, "_counts", (npos, ndof))


def _connected_error(
    name: str, joint: Joint, joints: Sequence[Joint], joint_names: Sequence[str]
) -> TopologyError:
    """The error for joint ``name`` whose two links are already connected by ``joints``."""
    ends = {joint.link1, joint.link2}
    other = next((k for k, o in enumerate(joints) if {o.link1, o.link2} == ends), None)
    if other is not None:
        return TopologyError(
            f"joint {name!r}: links {joint.link1!r} and {joint.link2!r} are already "
            f"connected by joint {joint_names[other]!r}; a model has at most one "
            "joint between two links"
        )
    return TopologyError(
        f"joint {name!r} between {joint.link1!r} and {joint.link2!r} would close a "
        "kinematic loop; robomodel models trees only (replace the joint or remove it)"
    )


def _sensor_problems(m: Model, s: Sensor) -> list[str]:
    match s:
        case SixAxisForceTorqueSensor():
            j = m._j.get(s.parent_joint)
            if j is None:
                return [
                    f"force/torque sensor {s.name!r}: the model has no joint {s.parent_joint!r}"
                ]
            bad = [
                f"force/torque sensor {s.name!r}: the model has no link {ln!r}"
                for ln in s.links
                if ln not in m._l
            ]
            if bad:
                return bad
            joint = m.joints[j]
            if {joint.link1, joint.link2} != {s.first_link, s.second_link}:
                return [
                    f"force/torque sensor {s.name!r}: links {s.first_link!r} and "
                    f"{s.second_link!r} are not the two ends of joint {s.parent_joint!r} "
                    f"({joint.link1!r}, {joint.link2!r})"
                ]
            return []
        case Accelerometer() | Gyroscope():
            if s.link not in m._l:
                return [f"{sensor_kind(s)} {s.name!r}: the model has no link {s.link!r}"]
            return []


def sensor_kind(s: Sensor) -> str:
    """Return a readable kind name (``"accelerometer"``, ...) for messages."""
    match s:
        case SixAxisForceTorqueSensor():
            return "force/torque sensor"
        case Accelerometer():
            return "accelerometer"
        case Gyroscope():
            return "gyroscope"
