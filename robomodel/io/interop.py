"""Conversion to and from the peers: iDynTree models (both ways) and Pinocchio models.

The peers are optional: each function imports its library when called and raises
:class:`MissingDependencyError` saying what to install when it is absent.

* :func:`to_idyntree` builds an ``idyntree.bindings.Model`` element by element, with the same
  link, joint and frame indices: links (inertias), joints (type, link1/link2, rest transform,
  axis, limits, dynamics), additional frames, the default base and the package dirs.
* :func:`from_idyntree` reads those back into a :class:`~robomodel.model.Model`.
* :func:`to_pinocchio` goes through URDF text (:func:`robomodel.urdf.dumps`) and
  ``pinocchio.buildModelFromXML``; Pinocchio numbers joints its own way (depth first from the
  root), so compare by name.

What iDynTree's ``Model`` cannot hold is reported, never silently dropped: :func:`to_idyntree`
warns (:class:`~robomodel.errors.RobomodelWarning`) when shapes, sensors, mimic relations, kept
extensions or the robot name are left behind.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Literal

import numpy as np

from robomodel.errors import ModelError, RobomodelError, RobomodelWarning
from robomodel.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model import Frame, Link, Model
from robomodel.spatial import Axis, SpatialInertia, Transform

__all__ = ["MissingDependencyError", "from_idyntree", "to_idyntree", "to_pinocchio"]


class MissingDependencyError(RobomodelError, ImportError):
    """An optional peer library (idyntree, pinocchio) is not installed."""


def _idyntree() -> Any:
    try:
        import idyntree.bindings as idt
    except ImportError:
        raise MissingDependencyError(
            "this needs the idyntree Python bindings; install them with `pip install idyntree` "
            "(or conda install -c conda-forge idyntree)"
        ) from None
    return idt


def _idt_transform(idt: Any, T: Transform) -> Any:
    return idt.Transform(idt.Rotation(np.array(T.rotation)), idt.Position(np.array(T.position)))


def _rm_transform(T: Any) -> Transform:
    H = T.asHomogeneousTransform().toNumPy()
    return Transform(H[:3, :3], H[:3, 3])


def _lost(model: Model) -> list[str]:
    lost: list[str] = []
    n_shapes = sum(len(v) for v in model.visuals) + sum(len(c) for c in model.collisions)
    if n_shapes:
        lost.append(f"{n_shapes} visual/collision shapes")
    if model.sensors:
        lost.append(f"{len(model.sensors)} sensors")
    mimics = [
        n
        for n, j in zip(model.joint_names, model.joints, strict=True)
        if not isinstance(j, FixedJoint) and j.mimic is not None
    ]
    if mimics:
        lost.append("the mimic relations of " + ", ".join(map(repr, mimics)))
    if model.extensions:
        lost.append(f"{len(model.extensions)} kept extensions")
    if model.materials:
        lost.append(f"{len(model.materials)} robot-level materials")
    return lost


def to_idyntree(model: Model) -> Any:
    """Return an ``idyntree.bindings.Model`` with the same links, joints and frames.

    Indices are preserved: link ``i``, joint ``j`` and frame ``f`` of the result are those of
    ``model``. Infinite (unknown) effort and velocity limits are left disabled.

    Args:
        model: the model.

    Returns:
        A new ``idyntree.bindings.Model``.

    Raises:
        MissingDependencyError: idyntree is not installed.
        ModelError: iDynTree refused an element (the message names it).

    Warns:
        RobomodelWarning: the model has shapes, sensors, mimic relations, extensions or
            materials, which this conversion does not carry.
    """
    idt = _idyntree()
    lost = _lost(model)
    if lost:
        warnings.warn(
            "to_idyntree: iDynTree's Model does not receive " + "; ".join(lost),
            RobomodelWarning,
            stacklevel=2,
        )
    out = idt.Model()
    for name, link in zip(model.link_names, model.links, strict=True):
        lk = idt.Link()
        si = idt.SpatialInertia()
        si.fromVector(idt.Vector10(np.array(link.inertia.as_vector())))
        lk.setInertia(si)
        if out.addLink(name, lk) < 0:
            raise ModelError(f"to_idyntree: iDynTree refused link {name!r}")
    for name, j in zip(model.joint_names, model.joints, strict=True):
        ij = _idt_joint(idt, model, j)
        if out.addJoint(name, ij) < 0:
            raise ModelError(f"to_idyntree: iDynTree refused joint {name!r}")
    for f in model.frames:
        if not out.addAdditionalFrameToLink(f.link, f.name, _idt_transform(idt, f.link_H_frame)):
            raise ModelError(f"to_idyntree: iDynTree refused frame {f.name!r}")
    if model.default_base is not None:
        out.setDefaultBaseLink(model.default_base_index)
    if model.package_dirs:
        out.setPackageDirs(list(model.package_dirs))
    return out


def _idt_joint(idt: Any, model: Model, j: Joint) -> Any:
    i1, i2 = model.link_index(j.link1), model.link_index(j.link2)
    rest = _idt_transform(idt, j.link1_H_link2)
    if isinstance(j, FixedJoint):
        fj = idt.FixedJoint(i1, i2, rest)
        return fj
    ij = idt.RevoluteJoint() if isinstance(j, RevoluteJoint) else idt.PrismaticJoint()
    ij.setAttachedLinks(i1, i2)
    ij.setRestTransform(rest)
    a = j.axis_in_link1
    d, o = a.direction, a.origin
    ij.setAxis(idt.Axis(idt.Direction(*map(float, d)), idt.Position(*map(float, o))))
    ij.setPosLimits(0, _clip(j.limits.lower), _clip(j.limits.upper))
    ij.enablePosLimits(j.limits.enabled)
    if math.isfinite(j.effort_limit):
        ij.setEffortLimit(0, j.effort_limit)
        ij.enableEffortLimits(True)
    if math.isfinite(j.velocity_limit):
        ij.setVelocityLimit(0, j.velocity_limit)
        ij.enableVelocityLimits(True)
    if j.dynamics.kind == "urdf":
        ij.setJointDynamicsType(idt.URDFJointDynamics)
        ij.setDamping(0, j.dynamics.damping)
        ij.setStaticFriction(0, j.dynamics.static_friction)
    return ij


_DBL_MAX = float(np.finfo(np.float64).max)


def _clip(x: float) -> float:
    # iDynTree stores unknown limits as +-DBL_MAX, robomodel as +-inf.
    return max(-_DBL_MAX, min(_DBL_MAX, x))


def _unclip(x: float) -> float:
    return math.inf if x >= _DBL_MAX else -math.inf if x <= -_DBL_MAX else float(x)


def from_idyntree(idyn_model: Any, *, name: str = "") -> Model:
    """Return the robomodel :class:`~robomodel.model.Model` of an ``idyntree.bindings.Model``.

    Links, joints (fixed, revolute, prismatic), additional frames, the default base and the
    package dirs are read, with the same indices.

    Args:
        idyn_model: an ``idyntree.bindings.Model``.
        name: the robot name to give the result (iDynTree models have none).

    Raises:
        MissingDependencyError: idyntree is not installed.
        ModelError: a joint type robomodel does not model (spherical, revolute SO2).
    """
    idt = _idyntree()
    m = idyn_model
    n = m.getNrOfLinks()
    link_names = [m.getLinkName(i) for i in range(n)]
    links = [
        Link(SpatialInertia.from_vector(m.getLink(i).getInertia().asVector().toNumPy()))
        for i in range(n)
    ]
    joint_names: list[str] = []
    joints: list[Joint] = []
    for k in range(m.getNrOfJoints()):
        jn = m.getJointName(k)
        joint_names.append(jn)
        joints.append(_rm_joint(idt, m, jn, m.getJoint(k), link_names))
    frames = [
        Frame(
            m.getFrameName(f), link_names[m.getFrameLink(f)], _rm_transform(m.getFrameTransform(f))
        )
        for f in range(n, m.getNrOfFrames())
    ]
    base = m.getDefaultBaseLink()
    return Model(
        name=name,
        link_names=link_names,
        links=links,
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=link_names[base] if 0 <= base < n else None,
        package_dirs=list(m.getPackageDirs()),
    )


def _rm_joint(idt: Any, m: Any, name: str, j: Any, names: list[str]) -> Joint:
    i1, i2 = j.getFirstAttachedLink(), j.getSecondAttachedLink()
    l1, l2 = names[i1], names[i2]
    rest = _rm_transform(j.getRestTransform(i1, i2))
    if j.isFixedJoint():
        return FixedJoint(link1=l1, link2=l2, link1_H_link2=rest)
    cls: type[RevoluteJoint] | type[PrismaticJoint]
    if j.isRevoluteJoint():
        ij, cls = j.asRevoluteJoint(), RevoluteJoint
    elif j.isPrismaticJoint():
        ij, cls = j.asPrismaticJoint(), PrismaticJoint
    else:
        raise ModelError(
            f"from_idyntree: joint {name!r} is of a type robomodel does not model (only fixed, "
            "revolute and prismatic joints)"
        )
    # getAxis(link1) is the stored link1 axis reversed (iDynTree semantics), so undo that.
    ax = ij.getAxis(i1)
    axis = Axis(ax.getDirection().toNumPy(), ax.getOrigin().toNumPy()).reversed()
    dyn_kind: Literal["none", "urdf"] = (
        "urdf" if ij.getJointDynamicsType() == idt.URDFJointDynamics else "none"
    )
    return cls(
        link1=l1,
        link2=l2,
        link1_H_link2=rest,
        axis_in_link1=axis,
        limits=PositionLimits(
            enabled=bool(ij.hasPosLimits()),
            lower=_unclip(ij.getMinPosLimit(0)),
            upper=_unclip(ij.getMaxPosLimit(0)),
        ),
        effort_limit=ij.getEffortLimit(0) if ij.hasEffortLimits() else math.inf,
        velocity_limit=ij.getVelocityLimit(0) if ij.hasVelocityLimits() else math.inf,
        dynamics=JointDynamics(
            kind=dyn_kind, damping=ij.getDamping(0), static_friction=ij.getStaticFriction(0)
        ),
    )


def to_pinocchio(model: Model, *, root_joint: Any = None) -> Any:
    """Return a ``pinocchio.Model`` built from the URDF text of ``model``.

    Args:
        model: the model; it must be exportable as URDF (see
            :func:`robomodel.transformers.change_base.change_base` to pick the root).
        root_joint: a Pinocchio joint model for the root (e.g. ``pinocchio.JointModelFreeFlyer()``);
            ``None`` for a fixed base.

    Raises:
        MissingDependencyError: pinocchio is not installed.
    """
    try:
        import pinocchio as pin
    except ImportError:
        raise MissingDependencyError(
            "this needs Pinocchio; install it with `pip install pin` "
            "(or conda install -c conda-forge pinocchio)"
        ) from None
    from robomodel.urdf import dumps

    text = dumps(model)
    if root_joint is None:
        return pin.buildModelFromXML(text)
    return pin.buildModelFromXML(text, root_joint)
