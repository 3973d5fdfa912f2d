"""Converters between robomodel and iDynTree models, and iDynTree reference computations.

Used by the reference tests (and reusable by others):

* :func:`to_idyntree`: robomodel Model -> ``idt.Model`` with the same link, joint and frame
  names and indices, the same joint directions (link1/link2), rest transforms, axes (in link1),
  limits and inertias.
* :func:`from_idyntree`: ``idt.Model`` -> robomodel Model (links, joints, additional frames,
  default base), independent of robomodel's URDF loader.
* :func:`load_icub`: an ``icub-models`` robot as a robomodel Model, through
  ``robomodel.urdf.load`` when it exists, else through iDynTree's loader and this bridge.
* :func:`idt_relative_transform`, :func:`idt_rnea`: iDynTree's own FK and RNEA on given inputs.
"""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any

import numpy as np

import robomodel as rm

with warnings.catch_warnings():
    # SWIG's types warn (DeprecationWarning) while idyntree loads; under pytest's
    # filterwarnings=error that warning is raised inside the extension's init and crashes it.
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

# --------------------------------------------------------------------------- values


def idt_transform(T: rm.Transform) -> Any:
    """Return an ``idt.Transform`` equal to ``T``."""
    return idt.Transform(idt.Rotation(np.asarray(T.rotation)), idt.Position(*T.position))


def rm_transform(T: Any) -> rm.Transform:
    """Return a robomodel Transform equal to an ``idt.Transform``."""
    return rm.Transform.from_matrix(T.asHomogeneousTransform().toNumPy())


def idt_inertia(inertia: rm.SpatialInertia) -> Any:
    """Return an ``idt.SpatialInertia`` with the same 10 parameters."""
    out = idt.SpatialInertia()
    out.fromVector(idt.Vector10.FromPython(inertia.as_vector().tolist()))
    return out


def _idt_axis(a: rm.Axis) -> Any:
    return idt.Axis(idt.Direction(*a.direction), idt.Position(*a.origin))


# --------------------------------------------------------------------------- robomodel -> idt


def to_idyntree(model: rm.Model) -> Any:
    """Return an ``idt.Model`` equal to ``model`` (same names, indices, joint directions)."""
    im = idt.Model()
    for name, link in zip(model.link_names, model.links, strict=True):
        il = idt.Link()
        il.setInertia(idt_inertia(link.inertia))
        if im.addLink(name, il) < 0:
            raise ValueError(f"iDynTree refused link {name!r}")
    for name, j in zip(model.joint_names, model.joints, strict=True):
        i1, i2 = model.link_index(j.link1), model.link_index(j.link2)
        rest = idt_transform(j.link1_H_link2)
        match j:
            case rm.FixedJoint():
                ij = idt.FixedJoint(i1, i2, rest)
            case rm.RevoluteJoint() | rm.PrismaticJoint():
                ij = (
                    idt.RevoluteJoint() if isinstance(j, rm.RevoluteJoint) else idt.PrismaticJoint()
                )
                ij.setAttachedLinks(i1, i2)
                ij.setRestTransform(rest)
                ij.setAxis(_idt_axis(j.axis_in_link1))
                lim = j.limits
                lo = -1e300 if math.isinf(lim.lower) else lim.lower
                hi = 1e300 if math.isinf(lim.upper) else lim.upper
                ij.setPosLimits(0, lo, hi)
                ij.enablePosLimits(lim.enabled)
        if im.addJoint(name, ij) < 0:
            raise ValueError(f"iDynTree refused joint {name!r}")
    for f in model.frames:
        if not im.addAdditionalFrameToLink(f.link, f.name, idt_transform(f.link_H_frame)):
            raise ValueError(f"iDynTree refused frame {f.name!r}")
    if model.default_base is not None:
        im.setDefaultBaseLink(model.default_base_index)
    return im


# --------------------------------------------------------------------------- idt -> robomodel


def from_idyntree(im: Any) -> rm.Model:
    """Return a robomodel Model equal to an ``idt.Model`` (kinematics, inertias, frames)."""
    names = [im.getLinkName(i) for i in range(im.getNrOfLinks())]
    links = [
        rm.Link(rm.SpatialInertia.from_vector(im.getLink(i).getInertia().asVector().toNumPy()))
        for i in range(im.getNrOfLinks())
    ]
    joint_names, joints = [], []
    for ji in range(im.getNrOfJoints()):
        ij = im.getJoint(ji)
        i1, i2 = ij.getFirstAttachedLink(), ij.getSecondAttachedLink()
        l1, l2 = names[i1], names[i2]
        rest = rm_transform(ij.getRestTransform(i1, i2))
        if ij.isFixedJoint():
            j: rm.Joint = rm.FixedJoint(link1=l1, link2=l2, link1_H_link2=rest)
        else:
            typed = ij.asRevoluteJoint() if ij.isRevoluteJoint() else ij.asPrismaticJoint()
            ax = typed.getAxis(i2)  # in link2, as getAxis(child) documents
            axis = rm.Axis(ax.getDirection().toNumPy(), ax.getOrigin().toNumPy())
            cls = rm.RevoluteJoint if ij.isRevoluteJoint() else rm.PrismaticJoint
            lo, hi = ij.getMinPosLimit(0), ij.getMaxPosLimit(0)
            limits = rm.PositionLimits(
                enabled=bool(ij.hasPosLimits()),
                lower=-math.inf if lo <= -1e300 else lo,
                upper=math.inf if hi >= 1e300 else hi,
            )
            j = cls.with_axis_in(l2, axis, link1=l1, link2=l2, link1_H_link2=rest, limits=limits)
        joint_names.append(im.getJointName(ji))
        joints.append(j)
    frames = [
        rm.Frame(
            im.getFrameName(f), names[im.getFrameLink(f)], rm_transform(im.getFrameTransform(f))
        )
        for f in range(im.getNrOfLinks(), im.getNrOfFrames())
    ]
    return rm.Model(
        link_names=names,
        links=links,
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=names[im.getDefaultBaseLink()],
        visuals=[[] for _ in names],
        collisions=[[] for _ in names],
    )


def load_idyntree(path: str) -> Any:
    """Return iDynTree's model of a URDF file."""
    loader = idt.ModelLoader()
    if not loader.loadModelFromFile(str(path)):
        raise ValueError(f"iDynTree could not load {path}")
    return loader.model().copy()


@functools.cache
def load_icub(name: str) -> rm.Model:
    """Return the ``icub-models`` robot ``name`` as a robomodel Model.

    Uses ``robomodel.urdf.load`` when that module exists, else iDynTree's loader and this bridge.
    """
    import icub_models

    path = str(icub_models.get_model_file(name))
    try:
        from robomodel.urdf import load  # type: ignore[attr-defined]
    except ImportError:
        return from_idyntree(load_idyntree(path))
    return load(path)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- reference computations


def kindyn(im: Any, q: np.ndarray, base: str) -> Any:
    """Return a KinDynComputations on ``im``, base ``base`` at rest in the world, joints at q."""
    kd = idt.KinDynComputations()
    if not kd.loadRobotModel(im):
        raise ValueError("KinDynComputations refused the model")
    if not kd.setFloatingBase(base):
        raise ValueError(f"setFloatingBase({base!r}) failed")
    n = im.getNrOfDOFs()
    s = idt.VectorDynSize.FromPython(list(q)) if n else idt.VectorDynSize(0)
    ok = kd.setRobotState(
        idt.Transform.Identity(),
        s,
        idt.Twist.Zero(),
        idt.VectorDynSize(n) if n else idt.VectorDynSize(0),
        idt.Vector3.FromPython([0.0, 0.0, -9.81]),
    )
    if not ok:
        raise ValueError("setRobotState failed")
    return kd


def idt_relative_transform(kd: Any, a: str, b: str) -> np.ndarray:
    """Return iDynTree's ``a_H_b`` as a 4x4 array."""
    return kd.getRelativeTransform(a, b).asHomogeneousTransform().toNumPy()


def idt_rnea(
    im: Any,
    base: int,
    q: np.ndarray,
    dq: np.ndarray,
    ddq: np.ndarray,
    *,
    base_acceleration: np.ndarray,
    gravity: np.ndarray,
    external: dict[int, np.ndarray] | None = None,
    base_velocity: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run iDynTree's ForwardPosVelAccKinematics + RNEADynamicPhase from ``base`` (at rest, or
    with the body-fixed twist ``base_velocity``).

    Returns (joint torques, internal wrenches (n_links, 6), base wrench).
    """
    trav = idt.Traversal()
    if not im.computeFullTreeTraversal(trav, base):
        raise ValueError("traversal failed")
    pos = idt.FreeFloatingPos(im)
    pos.worldBasePos = idt.Transform.Identity()
    vel = idt.FreeFloatingVel(im)
    acc = idt.FreeFloatingAcc(im)
    n = im.getNrOfPosCoords()
    for i in range(n):
        pos.jointPos.setVal(i, float(q[i]))
        vel.jointVel.setVal(i, float(dq[i]))
        acc.jointAcc.setVal(i, float(ddq[i]))
    vel.baseVel.zero()
    if base_velocity is not None:
        for i in range(6):
            vel.baseVel.setVal(i, float(base_velocity[i]))
    # Gravity enters as an upward (proper) acceleration of the base.
    proper = np.concatenate([base_acceleration[:3] - gravity, base_acceleration[3:]])
    base_acc = acc.baseAcc  # a reference into acc
    for i in range(6):
        base_acc.setVal(i, float(proper[i]))
    link_pos = idt.LinkPositions(im)
    link_vel = idt.LinkVelArray(im)
    link_acc = idt.LinkAccArray(im)
    if not idt.ForwardPosVelAccKinematics(im, trav, pos, vel, acc, link_pos, link_vel, link_acc):
        raise ValueError("ForwardPosVelAccKinematics failed")
    ext = idt.LinkWrenches(im)
    ext.zero()
    for link, w in (external or {}).items():
        target = ext(link)  # a reference into the array
        for i in range(6):
            target.setVal(i, float(w[i]))
    internal = idt.LinkWrenches(im)
    tau = idt.FreeFloatingGeneralizedTorques(im)
    if not idt.RNEADynamicPhase(im, trav, pos.jointPos, link_vel, link_acc, ext, internal, tau):
        raise ValueError("RNEADynamicPhase failed")
    wrenches = np.array([internal(i).toNumPy() for i in range(im.getNrOfLinks())])
    return tau.jointTorques().toNumPy(), wrenches, tau.baseWrench().toNumPy()
