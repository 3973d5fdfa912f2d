"""Bridges between DH chains and :class:`~robomodel.model.record.Model` values.

:func:`chain_to_model` builds the model iDynTree's ``CreateModelFromDHChain`` builds (links
``link0..linkN``, one revolute joint per DH link, frames for H0 and HN), with the joint limits
added. :func:`model_to_chain` goes the other way, like iDynTree's ``ExtractDHChainFromModel``:
it reads the joint axes of the path between two frames at ``q = 0`` and places standard DH frames
on them.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError, ModelError
from robomodel.formats.dh.chain import DHChain, DHLink, dh_transform
from robomodel.model.joints import FixedJoint, PositionLimits, PrismaticJoint, RevoluteJoint
from robomodel.model.record import Frame, Link, Model
from robomodel.model.spatial import Axis, SpatialInertia, Transform

__all__ = ["DEFAULT_LINK_MASS", "chain_to_model", "model_to_chain"]

FloatArray = npt.NDArray[np.float64]

_Z = Axis((0.0, 0.0, 1.0))


DEFAULT_LINK_MASS = 1.0
"""The mass (kg) :func:`chain_to_model` gives every link unless told otherwise: iDynTree's
``CreateModelFromDHChain`` gives each link 1 kg at its origin, so models built by either library
have the same dynamics. A DH chain says nothing about masses: pass the real ones, or 0 for
massless links when only the kinematics matters."""


def chain_to_model(
    chain: DHChain, *, blocked_as_fixed: bool = False, link_mass: float = DEFAULT_LINK_MASS
) -> Model:
    """Return a model whose ``base_frame -> distal_frame`` transform is the chain's pose.

    Link ``link0`` carries the first DH frame (``H0`` after the root), link ``k+1`` carries DH
    frame ``k``; joint ``k`` (named after ``chain.links[k].name``, or ``joint<k>``) is revolute
    about link k's z axis with the DH link's limits, so that the model's joint position is the
    DH angle ``q`` (the offset is part of the rest transform). Frame ``base_frame`` on ``link0``
    is the chain root and ``distal_frame`` on the last link is the end-effector.

    A DH chain has no masses. Every link gets ``link_mass`` kg at its origin, with no rotational
    inertia: by default :data:`DEFAULT_LINK_MASS` (1 kg, as iDynTree's
    ``CreateModelFromDHChain``); give 0 for massless links.

    With ``blocked_as_fixed`` blocked links become fixed joints at their blocked angle; by default
    every link is a revolute joint, so the model's joint vector is ``chain.all_angles``.

    >>> from robomodel.formats.dh import icub_arm
    >>> m = chain_to_model(icub_arm("right", "2.7"))
    >>> m.n_links, m.n_dofs, m.frames[1].name
    (11, 10, 'distal_frame')
    >>> chain_to_model(icub_arm("right", "2.7"), link_mass=0.0).total_mass
    0.0

    Raises:
        ModelError: ``link_mass`` is negative or not finite.
    """
    n = chain.n_links
    mass = SpatialInertia.from_com(_link_mass(link_mass), (0.0, 0.0, 0.0))
    links = [Link(mass) for _ in range(n + 1)]
    link_names = [f"link{k}" for k in range(n + 1)]
    joints: list[RevoluteJoint | FixedJoint] = []
    names: list[str] = []
    for k, dh in enumerate(chain.links):
        names.append(dh.name or f"joint{k}")
        if blocked_as_fixed and dh.blocked:
            joints.append(
                FixedJoint(
                    link1=link_names[k], link2=link_names[k + 1], link1_H_link2=dh.transform()
                )
            )
            continue
        joints.append(
            RevoluteJoint(
                link1=link_names[k],
                link2=link_names[k + 1],
                link1_H_link2=dh_transform(dh.a, dh.d, dh.alpha, dh.offset),
                axis_in_link1=_Z,
                limits=PositionLimits.between(dh.min, dh.max),
            )
        )
    frames = [
        Frame("base_frame", "link0", chain.H0.inverse()),
        Frame("distal_frame", link_names[n], chain.HN),
    ]
    return Model(
        link_names=link_names, links=links, joint_names=names, joints=joints, frames=frames
    )


def _link_mass(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentError(f"link_mass must be a number of kilograms, got {value!r}")
    m = float(value)
    if not math.isfinite(m) or m < 0.0:
        raise ModelError(f"link_mass must be a finite mass >= 0 kg, got {m}; give 0 for massless")
    return m


# ---------------------------------------------------------------------- extraction
def _frame_link_pose(model: Model, frame: str) -> tuple[int, Transform]:
    return model.frame_link(frame), model.frame_transform(frame)


def _unit(v: FloatArray) -> FloatArray:
    return v / float(np.linalg.norm(v))


def _any_perpendicular(z: FloatArray) -> FloatArray:
    e = np.eye(3)[int(np.argmin(np.abs(z)))]
    return _unit(e - z * float(e @ z))


def _cross(u: FloatArray, v: FloatArray) -> FloatArray:
    # np.cross costs microseconds of axis handling per call; these are always plain 3-vectors.
    return np.array(
        [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    )


def _signed_angle(u: FloatArray, v: FloatArray, about: FloatArray) -> float:
    return math.atan2(float(_cross(u, v) @ about), float(u @ v))


def model_to_chain(
    model: Model,
    base_frame: str,
    end_frame: str,
    *,
    parallel_tolerance: float = 1e-9,
    max_distance: float = 100.0,
) -> DHChain:
    """Extract the standard-DH chain of the serial path from ``base_frame`` to ``end_frame``.

    The path may contain revolute and fixed joints; every revolute joint becomes a DH link whose
    angle equals the joint position (same sign, limits copied; ``[-pi, pi]`` when the joint has
    none) and whose ``name`` is the joint's. Fixed joints are folded into the DH parameters, H0
    and HN. The chain root is ``base_frame``, so ``chain.end_effector_pose()`` equals the model's
    ``base_frame -> end_frame`` transform at the same joint positions.

    Any two consecutive revolute axes have a common normal, so every such path has a DH form.
    Axes closer to parallel than ``parallel_tolerance`` (rad) are treated as parallel: their common
    normal is ambiguous and is taken through the previous DH origin (``d = 0``). Skew axes that
    are nearly parallel have a common normal far away from the robot; if it lies more than
    ``max_distance`` (m) away the DH parameters would be ill-conditioned, and the error names the
    two joints and says how to proceed. Between those cases, axes a small angle ``s`` apart lose
    about ``1e-16 / s`` of accuracy to rounding (1e-8 m at 1e-8 rad).

    Raises:
        ModelError: for a prismatic or mimic joint on the path, a path without revolute joints,
            frames on unconnected links, or an ill-conditioned pair of axes.
    """
    base_link, link_H_base = _frame_link_pose(model, base_frame)
    end_link, link_H_end = _frame_link_pose(model, end_frame)
    t = model.traversal(base_link)
    if not t.contains(end_link):
        raise ModelError(
            f"frames {base_frame!r} and {end_frame!r} are on links that no joint path connects"
        )
    path: list[tuple[int, int, int]] = []  # (parent, child, joint), from the end up to the base
    k = end_link
    while k != base_link:
        parent, via = t.parent_of(k), t.parent_joint_of(k)
        assert parent is not None and via is not None
        path.append((parent, k, via))
        k = parent
    path.reverse()

    # Walk the path at q = 0, collecting each revolute axis as a line in base_frame coordinates,
    # oriented so that a positive joint position turns the distal side positively about it.
    base_H_link = link_H_base.inverse()
    lines: list[tuple[FloatArray, FloatArray]] = []
    names: list[str] = []
    limits: list[tuple[float, float]] = []
    for parent, child, j in path:
        joint = model.joints[j]
        jname = model.joint_names[j]
        pn, cn = model.link_names[parent], model.link_names[child]
        match joint:
            case PrismaticJoint():
                raise ModelError(
                    f"joint {jname!r} between {base_frame!r} and {end_frame!r} is prismatic; "
                    "iKin DH chains are revolute only (fix it with a reduced model first)"
                )
            case RevoluteJoint():
                if joint.mimic is not None:
                    raise ModelError(
                        f"joint {jname!r} mimics {joint.mimic.joint!r}; a DH chain has "
                        "independent joints only"
                    )
                if pn == joint.link1:
                    axis = joint.axis_in_link1
                else:
                    axis = (joint.link1_H_link2.inverse() @ joint.axis_in_link1).reversed()
                world = base_H_link @ axis
                lines.append((world.direction.copy(), world.origin.copy()))
                names.append(jname)
                lim = joint.limits
                if lim.enabled and math.isfinite(lim.lower) and math.isfinite(lim.upper):
                    limits.append((lim.lower, lim.upper))
                else:
                    limits.append((-math.pi, math.pi))
            case FixedJoint():
                pass
        base_H_link = base_H_link @ joint.rest_transform(pn, cn)
    if not lines:
        raise ModelError(
            f"there is no revolute joint between {base_frame!r} and {end_frame!r}; "
            "a DH chain needs at least one"
        )
    base_H_end = base_H_link @ link_H_end
    return _place_frames(
        lines,
        names,
        limits,
        base_H_end,
        parallel_tolerance=parallel_tolerance,
        max_distance=max_distance,
    )


def _place_frames(
    lines: list[tuple[FloatArray, FloatArray]],
    names: list[str],
    limits: list[tuple[float, float]],
    base_H_end: Transform,
    *,
    parallel_tolerance: float,
    max_distance: float,
) -> DHChain:
    n = len(lines)
    z0, p0 = lines[0]
    # Frame -1 is free up to its z axis: start at the point of axis 0 closest to the base origin,
    # then slide it to the foot of the first common normal so that d_0 = 0 and offset_0 = 0.
    o_prev = p0 - z0 * float(p0 @ z0)
    z_prev = z0
    nxt = lines[1] if n > 1 else (z0, o_prev)
    foot, x_first, _, _ = _common_normal(
        o_prev, z_prev, None, nxt, parallel_tolerance, max_distance, names[0], names[min(1, n - 1)]
    )
    o_prev, x_prev = foot, x_first
    H0 = _frame(o_prev, x_prev, z_prev)
    links: list[DHLink] = []
    for i in range(n):
        # Frame i has its z on axis i+1; the last frame is free and kept on the last axis.
        z_next, p_next = lines[i + 1] if i + 1 < n else (z_prev, o_prev)
        foot, x_i, o_i, a_i = _common_normal(
            o_prev,
            z_prev,
            x_prev,
            (z_next, p_next),
            parallel_tolerance,
            max_distance,
            names[i],
            names[i + 1] if i + 1 < n else names[i],
        )
        d_i = float((foot - o_prev) @ z_prev)
        offset = _signed_angle(x_prev, x_i, z_prev)
        alpha = _signed_angle(z_prev, z_next, x_i)
        lo, hi = limits[i]
        links.append(DHLink(a_i, d_i, alpha, offset, lo, hi, name=names[i]))
        o_prev, x_prev, z_prev = o_i, x_i, z_next
    base_H_last = _frame(o_prev, x_prev, z_prev)
    return DHChain(links=links, H0=H0, HN=base_H_last.inverse() @ base_H_end)


def _frame(o: FloatArray, x: FloatArray, z: FloatArray) -> Transform:
    # Re-orthogonalise: x comes from a cross product of nearly parallel axes at worst.
    x = _unit(x - z * float(x @ z))
    R = np.column_stack([x, _cross(z, x), z])
    return Transform(R, o)


def _common_normal(
    o_prev: FloatArray,
    z_prev: FloatArray,
    x_prev: FloatArray | None,
    line: tuple[FloatArray, FloatArray],
    parallel_tolerance: float,
    max_distance: float,
    name_prev: str,
    name_next: str,
) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Return (foot on the previous axis, x axis, foot on the next axis, a) of the DH normal."""
    z_next, p_next = line
    c = _cross(z_prev, z_next)
    s = float(np.linalg.norm(c))
    w = p_next - o_prev
    if s < parallel_tolerance:
        # Parallel (or the same line): every point of the previous axis has a common normal; take
        # the one through the previous origin, which makes d = 0.
        w_perp = w - z_prev * float(w @ z_prev)
        dist = float(np.linalg.norm(w_perp))
        if dist < 1e-12:
            x = x_prev if x_prev is not None else _any_perpendicular(z_prev)
            return o_prev.copy(), x, o_prev.copy(), 0.0
        return o_prev.copy(), w_perp / dist, o_prev + w_perp, dist
    t_prev = float(_cross(w, z_next) @ c) / (s * s)
    t_next = float(_cross(w, z_prev) @ c) / (s * s)
    foot_prev = o_prev + t_prev * z_prev
    foot_next = p_next + t_next * z_next
    if max(abs(t_prev), abs(t_next)) > max_distance:
        gap = float(np.linalg.norm(foot_next - foot_prev))
        raise ModelError(
            f"joints {name_prev!r} and {name_next!r} have nearly parallel axes, "
            f"{math.asin(min(s, 1.0)):.3g} rad apart and {gap:.3g} m from each other at their "
            f"closest: their common normal (the DH x axis) lies "
            f"{max(abs(t_prev), abs(t_next)):.3g} m away along the axes, beyond max_distance="
            f"{max_distance} m, so the DH parameters would be ill-conditioned; if the axes are "
            "meant to be parallel raise parallel_tolerance above that angle, otherwise raise "
            "max_distance"
        )
    # The normal's direction comes from the cross product, not from the (small, noisy) gap
    # between the feet, and the new origin is placed along it from the previous foot: rounding
    # in the feet then only slides points along nearly parallel axes, which moves nothing.
    normal = c / s
    a_signed = float((foot_next - foot_prev) @ normal)
    if abs(a_signed) < 1e-12:
        # Intersecting axes: keep the normal's sign close to the previous x axis so that the
        # offset stays small.
        if x_prev is not None and float(normal @ x_prev) < 0.0:
            normal = -normal
        return foot_prev, normal, foot_prev.copy(), 0.0
    x = normal if a_signed > 0.0 else -normal
    return foot_prev, x, foot_prev + abs(a_signed) * x, abs(a_signed)
