"""Links as rigid bodies: the body prim, its pose, and its mass properties, written and read.

A link is an ``Xform`` prim with ``PhysicsRigidBodyAPI`` and ``PhysicsMassAPI``, placed by an
``xformOp:transform`` (a matrix of doubles) at its world pose at the zero configuration.
UsdPhysics' mass, centre of mass, principal moments and principal axes are 32-bit floats; the
exact inertia robomodel stores (mass, first moment, 3x3 inertia about the link origin) is
written beside them as ``robomodel:mass``, ``robomodel:first_moment`` and
``robomodel:rotational_inertia``, which the reader prefers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from robomodel.formats.report import Loss
from robomodel.formats.usd._math import (
    inertia_from_principal,
    matrix_from_quaternion,
    principal,
    quaternion_from_matrix,
)
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import get, matrix_of, put
from robomodel.model.record import Link
from robomodel.model.spatial import SpatialInertia, Transform

__all__ = ["body_losses", "read_inertia", "write_body"]

FloatArray = npt.NDArray[np.float64]

MIN_MOMENT = 1e-15
"""Principal moments at or below this (kg m^2) count as zero: round-off of a zero inertia
(MuJoCo's ``mjMINVAL`` draws the line at the same value)."""


def write_body(stage: Any, path: str, name: str, link: Link, world_H_link: Transform) -> Any:
    """Define the body prim of ``link`` at ``path``, placed at ``world_H_link``; return it."""
    p = pxr()
    xf = p.UsdGeom.Xform.Define(stage, path)
    prim = xf.GetPrim()
    # A matrix of doubles rather than translate + orient: usd-core evaluates an orient op
    # through an angle, and drops rotations below about 1e-8 rad.
    xf.AddTransformOp(p.UsdGeom.XformOp.PrecisionDouble).Set(matrix_of(world_H_link))
    p.UsdPhysics.RigidBodyAPI.Apply(prim)
    _write_mass(p, prim, link.inertia)
    put(prim, "name", "string", name)
    return prim


def _write_mass(p: Any, prim: Any, inertia: SpatialInertia) -> None:
    api = p.UsdPhysics.MassAPI.Apply(prim)
    pr = principal(inertia)
    api.CreateMassAttr(pr.mass)
    api.CreateCenterOfMassAttr(p.Gf.Vec3f(*pr.com.tolist()))
    api.CreateDiagonalInertiaAttr(p.Gf.Vec3f(*pr.moments.tolist()))
    w, x, y, z = quaternion_from_matrix(pr.axes)
    api.CreatePrincipalAxesAttr(p.Gf.Quatf(w, p.Gf.Vec3f(x, y, z)))
    put(prim, "mass", "double", inertia.mass)
    put(prim, "first_moment", "double3", p.Gf.Vec3d(*inertia.first_moment.tolist()))
    put(prim, "rotational_inertia", "matrix3d", p.Gf.Matrix3d(inertia.rotational_inertia.tolist()))


def body_losses(name: str, link: Link) -> list[Loss]:
    """The report entries of a link whose mass properties simulators will not take as written.

    A mass of 0 is UsdPhysics' "not given"; Isaac Sim and Newton need a positive mass and
    positive principal moments that meet the triangle inequality on every simulated body. The
    values are written as they are.
    """
    if link.inertia.mass == 0.0:
        detail = (
            "massless: UsdPhysics reads a mass of 0 as not given, and simulators derive one "
            "from the collision shapes or a default"
        )
    else:
        moments = principal(link.inertia).moments  # ascending
        if float(moments[0]) <= MIN_MOMENT:
            rule = f"are not all positive (above {MIN_MOMENT:g} kg m^2)"
        elif float(moments[0] + moments[1]) < float(moments[2]):
            rule = "break the triangle inequality (I1 + I2 >= I3)"
        else:
            return []
        detail = (
            f"principal moments of inertia {moments.tolist()} {rule}, as Isaac Sim and Newton "
            "need for a simulated body; written as they are"
        )
    return [Loss(action="note", kind="link", name=name, detail=detail)]


def read_inertia(prim: Any, losses: list[Loss], name: str) -> SpatialInertia:
    """Return the inertia of a body prim: robomodel's exact doubles, else UsdPhysics' MassAPI.

    A body without mass properties (UsdPhysics then derives them from its collision shapes) is
    read as massless, with a report entry.
    """
    p = pxr()
    api = p.UsdPhysics.MassAPI(prim)
    m = api.GetMassAttr().Get() if prim.HasAPI(p.UsdPhysics.MassAPI) else None
    mass = get(prim, "mass")
    if mass is not None:
        exact = SpatialInertia(
            float(mass),
            np.array(get(prim, "first_moment"), dtype=np.float64),
            np.array(get(prim, "rotational_inertia"), dtype=np.float64),
        )
        if _agrees(exact, m, api.GetCenterOfMassAttr().Get()):
            return exact
        losses.append(
            Loss(
                action="changed",
                kind="link",
                name=name,
                detail="physics:mass or physics:centerOfMass differs from robomodel:mass and "
                "robomodel:first_moment (the file was edited after robomodel wrote it): read "
                "UsdPhysics' values",
            )
        )
    if not m:
        losses.append(
            Loss(
                action="approximated",
                kind="link",
                name=name,
                detail="no mass given (UsdPhysics derives one from the collision shapes); read "
                "as massless",
            )
        )
        return SpatialInertia.zero()
    com = np.array(api.GetCenterOfMassAttr().Get(), dtype=np.float64)
    if not np.all(np.isfinite(com)):
        com = np.zeros(3)  # UsdPhysics' "not given": the body origin
    moments = np.array(api.GetDiagonalInertiaAttr().Get(), dtype=np.float64)
    q = api.GetPrincipalAxesAttr().Get()
    imag = q.GetImaginary()
    axes = matrix_from_quaternion(q.GetReal(), imag[0], imag[1], imag[2])
    if not np.any(moments):
        losses.append(
            Loss(
                action="approximated",
                kind="link",
                name=name,
                detail="no inertia given (UsdPhysics derives one from the collision shapes); "
                "read as zero about the centre of mass",
            )
        )
    return inertia_from_principal(float(m), com, moments, axes)


def _agrees(exact: SpatialInertia, mass: Any, com: Any) -> bool:
    """Whether UsdPhysics' 32-bit mass and centre of mass are ``exact``'s, to float precision."""
    if mass is None or com is None:
        return False
    pr = principal(exact)
    if not _as_float32(float(mass), pr.mass, 1e-6 * pr.mass + 1e-37):  # float32's range
        return False
    scale = 1e-6 * (float(np.abs(pr.com).max()) + 1e-6)
    return all(_as_float32(float(a), float(b), scale) for a, b in zip(com, pr.com, strict=True))


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _as_float32(stored: float, exact: float, tolerance: float) -> bool:
    """Whether ``stored`` (a 32-bit attribute) is the double ``exact`` written as a float.

    A double beyond float32's range is written as an infinity of its sign.
    """
    if math.isinf(stored):
        return abs(exact) > _FLOAT32_MAX and math.copysign(1.0, exact) == math.copysign(1.0, stored)
    return abs(stored - exact) <= tolerance
