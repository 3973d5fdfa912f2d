"""iKin-style DH chains as values: :class:`DHLink`, :class:`DHChain` and functions changing them.

The convention is iKin's (iCub's kinematics library):

* standard (distal) Denavit-Hartenberg, revolute links only; the transform of link ``i`` is
  ``Rz(theta) @ Tz(d) @ Tx(a) @ Rx(alpha)`` with ``theta = angle + offset``;
* lengths in metres, angles in radians;
* the limits ``[min, max]`` bound the joint angle ``q`` (the stored ``angle``), not ``q + offset``;
* a new link starts at ``angle == min`` (as iKin does), not at 0;
* the chain pose is ``H0 @ H_0(q_0) @ ... @ H_{N-1}(q_{N-1}) @ HN``;
* blocked links keep their angle and are left out of the DOF vector; the DOF order is the order
  of the free links.

Every operation returns a new value. Setting angles clamps them to the limits while the chain is
``constrained`` (the default) and returns the clamped values next to the new chain.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
from pyrsistent import PVector, pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import replace
from robomodel.errors import ModelError
from robomodel.model.spatial import Transform

__all__ = [
    "DHChain",
    "DHLink",
    "axis_angle",
    "block_link",
    "dh_transform",
    "euler_xyz",
    "release_link",
    "set_angles",
    "set_link_angle",
    "with_link_limits",
]

FloatArray = npt.NDArray[np.float64]


def _to_float(value: Any) -> float:
    try:
        return float(value) + 0.0  # canonical: -0.0 is stored as 0.0
    except (TypeError, ValueError):
        raise ModelError(f"DH link values must be numbers, got {value!r}") from None


def _finite(what: str, value: Any) -> float:
    f = _to_float(value)
    if not math.isfinite(f):
        raise ModelError(f"DH link {what} must be finite, got {f}; give metres or radians")
    return f


_FIELDS = ("a", "d", "alpha", "offset", "min", "max", "angle")


def _lower_limit(link: DHLink) -> float:
    return link.min


@attrs.frozen
class DHLink:
    """One revolute link of a DH chain (iKin's ``iKinLink``), in SI units (m, rad).

    The first six fields can be given positionally in iKin's order
    ``DHLink(a, d, alpha, offset, min, max)``; the others are keyword-only.

    >>> link = DHLink(0.032, 0.0, math.pi / 2, 0.0, -0.38, 1.47)
    >>> link.angle == link.min   # a new link starts at its lower limit, like iKin's
    True

    Attributes:
        a: link length, along the new x axis.
        d: link offset, along the previous z axis.
        alpha: link twist, about the new x axis.
        offset: added to the joint angle: ``theta = angle + offset``.
        min: lower limit of the joint angle (default ``-pi``, iKin's default).
        max: upper limit of the joint angle (default ``pi``).
        angle: the current joint angle ``q``; defaults to ``min``.
        blocked: whether the link is blocked (kept at ``angle`` and left out of the DOFs).
        name: an optional joint name (iKin has none; :func:`~robomodel.formats.dh.model_to_chain`
            fills it with the model's joint name and :func:`~robomodel.formats.dh.chain_to_model`
            uses it).
    """

    a: float = attrs.field(converter=_to_float)
    d: float = attrs.field(converter=_to_float)
    alpha: float = attrs.field(converter=_to_float)
    offset: float = attrs.field(default=0.0, converter=_to_float)
    min: float = attrs.field(default=-math.pi, converter=_to_float)
    max: float = attrs.field(default=math.pi, converter=_to_float)
    angle: float = attrs.field(
        default=attrs.Factory(_lower_limit, takes_self=True),
        converter=_to_float,
        kw_only=True,
    )
    blocked: bool = attrs.field(default=False, kw_only=True)
    name: str = attrs.field(default="", kw_only=True)

    def __attrs_post_init__(self) -> None:
        for what in _FIELDS:
            _finite(what, getattr(self, what))
        if self.min > self.max:
            raise ModelError(
                f"DH link limits must satisfy min <= max, got min={self.min}, max={self.max}; "
                "swap them"
            )

    def transform(self, angle: float | None = None) -> Transform:
        """Return this link's transform ``H_i`` at ``angle`` (default: the stored angle).

        No clamping happens here: the transform of any angle can be asked for.
        """
        q = self.angle if angle is None else float(angle)
        return dh_transform(self.a, self.d, self.alpha, q + self.offset)

    def clamp(self, angle: float) -> float:
        """Return ``angle`` clamped to ``[min, max]``."""
        return min(max(float(angle), self.min), self.max)


def dh_transform(a: float, d: float, alpha: float, theta: float) -> Transform:
    """Return the standard DH transform ``Rz(theta) @ Tz(d) @ Tx(a) @ Rx(alpha)``.

    >>> dh_transform(1.0, 0.0, 0.0, math.pi / 2).position.round(12).tolist()
    [0.0, 1.0, 0.0]
    """
    H = _dh_matrix(a, d, alpha, theta)
    return Transform._raw(H[:3, :3].copy(), H[:3, 3].copy())


def _dh_matrix(a: float, d: float, alpha: float, theta: float) -> FloatArray:
    ct, st = math.cos(theta), math.sin(theta)
    ca, sa = math.cos(alpha), math.sin(alpha)
    return np.array(
        [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [0.0, sa, ca, d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def _with_angle(link: DHLink, value: float) -> DHLink:
    # For a value already checked (finite, clamped as needed): attrs.evolve would rerun every
    # converter and check, which dominates the cost of setting a chain's angles.
    return replace(DHLink)(link, angle=value + 0.0)  # canonical, as the converter stores it


def _links(value: Iterable[DHLink]) -> PVectorT[DHLink]:
    links: PVectorT[DHLink] = value if isinstance(value, PVector) else pvector(value)
    for k, link in enumerate(links):
        if not isinstance(link, DHLink):
            raise ModelError(f"DH chain link {k} must be a DHLink, got {type(link).__name__}")
    if len(links) == 0:
        raise ModelError("a DH chain needs at least one link")
    return links


def _transform(value: Any) -> Transform:
    if isinstance(value, Transform):
        return value
    return Transform.from_matrix(value)


@attrs.frozen(kw_only=True)
class DHChain:
    """A serial chain of DH links with a base transform ``H0`` and a tip transform ``HN``.

    ``H0`` and ``HN`` accept a :class:`~robomodel.model.spatial.Transform` or a 4x4 matrix.

    >>> chain = DHChain(links=[DHLink(0.1, 0.0, 0.0, 0.0, -1.0, 1.0, angle=0.0)])
    >>> chain.end_effector_pose().position.round(12).tolist()
    [0.1, 0.0, 0.0]

    Attributes:
        links: the links, from the base to the tip (at least one).
        H0: pose of the first DH frame in the chain's root frame.
        HN: pose of the end-effector in the last DH frame.
        constrained: whether setting angles clamps them to the limits (iKin's default: ``True``).
        limb_type: iKin's type string (``"right"``, ``"left_v2.5"``, ...), kept for the text format.
    """

    links: PVectorT[DHLink] = attrs.field(converter=_links)
    H0: Transform = attrs.field(factory=Transform.identity, converter=_transform)
    HN: Transform = attrs.field(factory=Transform.identity, converter=_transform)
    constrained: bool = True
    limb_type: str = ""

    @property
    def n_links(self) -> int:
        """Number of links, blocked or free (iKin's ``getN``)."""
        return len(self.links)

    @property
    def dof_links(self) -> tuple[int, ...]:
        """Indices of the free (not blocked) links, in DOF order."""
        return tuple(k for k, link in enumerate(self.links) if not link.blocked)

    @property
    def n_dofs(self) -> int:
        """Number of free links (iKin's ``getDOF``)."""
        return len(self.dof_links)

    @property
    def angles(self) -> FloatArray:
        """The angles of the free links, in DOF order (iKin's ``getAng``)."""
        return np.array([self.links[k].angle for k in self.dof_links], dtype=np.float64)

    @property
    def all_angles(self) -> FloatArray:
        """The angles of every link, blocked ones included."""
        return np.array([link.angle for link in self.links], dtype=np.float64)

    def _check_index(self, i: int) -> int:
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool):
            raise ModelError(f"a DH link index must be an integer, got {i!r}")
        if not 0 <= i < len(self.links):
            raise ModelError(
                f"the DH chain has {len(self.links)} links (0..{len(self.links) - 1}); "
                f"there is no link {i}"
            )
        return int(i)

    def _matrices(self, upto: int) -> list[FloatArray]:
        # All link transforms are built in one vectorised pass; the product is then a short loop
        # of 4x4 products. This is several times faster than composing Transform values.
        links = self.links[: upto + 1]
        p = np.array([(lk.a, lk.d, lk.alpha, lk.angle + lk.offset) for lk in links])
        a, d, alpha, theta = p.T
        ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
        M = np.zeros((len(links), 4, 4))
        M[:, 0, 0], M[:, 0, 1], M[:, 0, 2], M[:, 0, 3] = ct, -st * ca, st * sa, a * ct
        M[:, 1, 0], M[:, 1, 1], M[:, 1, 2], M[:, 1, 3] = st, ct * ca, -ct * sa, a * st
        M[:, 2, 1], M[:, 2, 2], M[:, 2, 3] = sa, ca, d
        M[:, 3, 3] = 1.0
        H = self.H0.as_matrix()
        out = []
        for k in range(len(links)):
            H = H @ M[k]
            out.append(H)
        if upto == len(self.links) - 1:
            out[-1] = out[-1] @ self.HN.as_matrix()
        return out

    def poses(self) -> tuple[Transform, ...]:
        """Return every link frame's pose in the root frame: ``T_0 .. T_{N-1}``.

        ``T_i = H0 @ H_0 @ ... @ H_i``; ``HN`` is included in the last one only.
        """
        return tuple(_from4(H) for H in self._matrices(len(self.links) - 1))

    def pose(self, i: int) -> Transform:
        """Return ``T_i``, link ``i``'s frame in the root frame (``HN`` only for the last link).

        ``i`` indexes all links, blocked ones included (iKin's ``getH(i, true)``); ``.as_matrix()``
        gives the 4x4 matrix.
        """
        return _from4(self._matrices(self._check_index(i))[-1])

    def end_effector_pose(self) -> Transform:
        """Return the end-effector pose ``H0 @ prod(H_i) @ HN`` in the root frame (``getH``)."""
        return self.pose(len(self.links) - 1)

    def end_effector_vector(self, *, euler: bool = False) -> FloatArray:
        """Return the end-effector pose as a vector (iKin's ``EndEffPose(axisRep)``).

        By default ``[x, y, z, ax, ay, az, theta]``: the rotation as a unit axis and an angle in
        ``[0, pi]`` (see :func:`axis_angle`); with ``euler=True`` ``[x, y, z, r0, r1, r2]``, iKin's
        ``axisRep=false`` form (see :func:`euler_xyz`).
        """
        return self.pose_vector(len(self.links) - 1, euler=euler)

    def pose_vector(self, i: int, *, euler: bool = False) -> FloatArray:
        """Return link ``i``'s pose as a vector (iKin's ``Pose(i, axisRep)``).

        The forms are those of :meth:`end_effector_vector`; ``i`` indexes all links, as in
        :meth:`pose`.
        """
        T = self.pose(i)
        if euler:
            return np.concatenate([T.position, euler_xyz(T.rotation)])
        axis, theta = axis_angle(T.rotation)
        return np.concatenate([T.position, axis, [theta]])


def _from4(H: FloatArray) -> Transform:
    return Transform._raw(H[:3, :3].copy(), H[:3, 3].copy())


def euler_xyz(R: npt.ArrayLike) -> FloatArray:
    """Return iKin's Euler angles ``(r0, r1, r2)`` of a rotation matrix (``iKinChain::RotAng``).

    They are the XYZ angles of the direction-cosine matrix ``R^T`` (MATLAB's ``dcm2angle``):
    ``R == (Rx(r0) @ Ry(r1) @ Rz(r2)).T``, with ``r1`` in ``[-pi/2, pi/2]`` and the others in
    ``[-pi, pi]``. Where rounding puts ``R[2, 0]`` just outside ``[-1, 1]`` it is clamped (iKin's
    ``asin`` would give NaN).

    >>> R = dh_transform(0.0, 0.0, 0.0, 0.5).rotation  # a rotation by 0.5 about z
    >>> (euler_xyz(R) + 0.0).round(12).tolist()
    [0.0, 0.0, -0.5]
    """
    M = np.asarray(R, dtype=np.float64)
    s = min(1.0, max(-1.0, float(M[2, 0])))
    return np.array(
        [
            math.atan2(-float(M[2, 1]), float(M[2, 2])),
            math.asin(s),
            math.atan2(-float(M[1, 0]), float(M[0, 0])),
        ]
    )


def axis_angle(R: npt.ArrayLike) -> tuple[FloatArray, float]:
    """Return ``(axis, angle)`` of a rotation matrix, with ``angle`` in ``[0, pi]``.

    For the identity the angle is 0 and the axis is reported as ``(0, 0, 1)`` (any axis would do).
    At ``angle == pi`` the axis sign is ambiguous; the returned axis has its largest component
    positive.

    >>> axis, angle = axis_angle(dh_transform(0, 0, 0, 0.5).rotation)
    >>> axis.round(12).tolist(), round(angle, 12)
    ([0.0, 0.0, 1.0], 0.5)
    """
    M = np.asarray(R, dtype=np.float64)
    v = np.array([M[2, 1] - M[1, 2], M[0, 2] - M[2, 0], M[1, 0] - M[0, 1]])
    r = float(np.linalg.norm(v))
    theta = math.atan2(0.5 * r, 0.5 * (float(np.trace(M)) - 1.0))
    if r > 1e-9:
        return v / r, theta
    if np.trace(M) > 0.0:
        return np.array([0.0, 0.0, 1.0]), 0.0
    # Rotation by pi: R = 2 u u^T - I, so u u^T = (R + I) / 2; take its largest column.
    S = 0.5 * (M + np.eye(3))
    k = int(np.argmax(np.diag(S)))
    u = S[:, k] / math.sqrt(max(S[k, k], 1e-300))
    u = u / float(np.linalg.norm(u))
    if u[int(np.argmax(np.abs(u)))] < 0.0:
        u = -u
    return u, math.pi


# ---------------------------------------------------------------------- operations
def _with_links(chain: DHChain, links: PVectorT[DHLink]) -> DHChain:
    # The links are DHLink values already; skip the converter's per-link checks.
    return replace(DHChain)(chain, links=links)


def _with_link(chain: DHChain, i: int, link: DHLink) -> DHChain:
    return _with_links(chain, chain.links.set(i, link))


def set_link_angle(chain: DHChain, i: int, angle: float) -> tuple[DHChain, float]:
    """Return ``(new_chain, value)`` with link ``i``'s angle set, clamped while constrained.

    ``i`` indexes all links. A blocked link stays blocked at the new value (iKin ignores
    ``setAng`` on blocked links; robomodel treats the blocked value as data you may change, which
    is what shared links of a :class:`~robomodel.formats.dh.Rig` need).

    >>> chain = DHChain(links=[DHLink(0.0, 0.0, 0.0, 0.0, -1.0, 1.0)])
    >>> new, value = set_link_angle(chain, 0, 2.5)
    >>> value, new.links[0].angle, chain.links[0].angle
    (1.0, 1.0, -1.0)
    """
    k = chain._check_index(i)
    link = chain.links[k]
    value = link.clamp(angle) if chain.constrained else _finite("angle", angle)
    if value == link.angle:
        return chain, value
    return _with_link(chain, k, _with_angle(link, value)), value


def set_angles(chain: DHChain, q: Sequence[float] | FloatArray) -> tuple[DHChain, FloatArray]:
    """Return ``(new_chain, clamped)`` with the free links' angles set from ``q`` (DOF order).

    While the chain is ``constrained`` each angle is clamped to its link's ``[min, max]``; the
    returned array holds the values actually stored (iKin's ``setAng`` return value).

    >>> chain = DHChain(links=[DHLink(0.0, 0.0, 0.0, 0.0, -1.0, 1.0)] * 2)
    >>> set_angles(chain, [0.5, -3.0])[1].tolist()
    [0.5, -1.0]
    """
    values = np.asarray(q, dtype=np.float64)
    dofs = chain.dof_links
    if values.shape != (len(dofs),):
        raise ModelError(
            f"the DH chain has {len(dofs)} DOFs (free links {list(dofs)}); "
            f"got angles of shape {values.shape}"
        )
    links = chain.links.evolver()
    out = np.empty(len(dofs))
    for n, k in enumerate(dofs):
        link = chain.links[k]
        v = link.clamp(values[n]) if chain.constrained else _finite("angle", values[n])
        out[n] = v
        if v != link.angle:
            links[k] = _with_angle(link, v)
    if not links.is_dirty():
        return chain, out
    return _with_links(chain, links.persistent()), out


def block_link(chain: DHChain, i: int, angle: float | None = None) -> DHChain:
    """Return ``chain`` with link ``i`` blocked at ``angle`` (default: its current angle).

    The angle is clamped while the chain is constrained, as iKin's ``blockLink`` does. A blocked
    link keeps its transform in every pose but is no longer a DOF.
    """
    k = chain._check_index(i)
    link = chain.links[k]
    value = link.angle if angle is None else (link.clamp(angle) if chain.constrained else angle)
    if link.blocked and value == link.angle:
        return chain
    return _with_link(chain, k, attrs.evolve(link, angle=value, blocked=True))


def release_link(chain: DHChain, i: int) -> DHChain:
    """Return ``chain`` with link ``i`` free again (a no-op on a free link); its angle is kept."""
    k = chain._check_index(i)
    link = chain.links[k]
    if not link.blocked:
        return chain
    return _with_link(chain, k, attrs.evolve(link, blocked=False))


def with_link_limits(chain: DHChain, i: int, min: float, max: float) -> DHChain:
    """Return ``chain`` with link ``i``'s limits replaced (the seed's ``setiKinLinkLimits``).

    Like iKin's ``setMin``/``setMax`` the current angle is left as it is; the next
    :func:`set_link_angle` clamps to the new limits.
    """
    k = chain._check_index(i)
    return _with_link(chain, k, attrs.evolve(chain.links[k], min=min, max=max))
