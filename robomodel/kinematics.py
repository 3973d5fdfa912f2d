"""Forward kinematics, centre of mass and composite inertia: pure functions of a model and ``q``.

Every function follows the model's traversal from a base link (the default base unless ``base``
is given) and composes each joint's undirected transform, so the result does not depend on how
the joints happen to be stored (``link1``/``link2``). Poses are ``base_H_link``: the pose of a
link frame in the base frame.

:class:`JointState` carries ``q``, ``dq`` and ``ddq``; :func:`forward_kinematics_batch` does the
same as :func:`forward_kinematics` for N configurations at once, vectorised over N.

Per model and base, the joint data the loops need (rest transforms, axes in the child frame,
coordinate offsets, inertias) is gathered once into plain numpy arrays, cached in a weak-keyed
dictionary so that it dies with the model; a call then does no per-joint attribute lookups and
builds no :class:`Transform` values in its inner loop.

>>> import math
>>> import robomodel as rm
>>> m = rm.add_link(rm.Model(), "base")
>>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 0, 1)),
...                      link1_H_link2=rm.Transform.from_translation((1, 0, 0)))
>>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
>>> fk = forward_kinematics(m, [math.pi / 2])
>>> fk.base_H_frame("arm").position.round(12).tolist()
[0.0, 1.0, 0.0]
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._fk_batch import _batch_step, _frame_pose, _run_step
from robomodel.errors import ModelError
from robomodel.joints import FixedJoint, PrismaticJoint, RevoluteJoint
from robomodel.model import Model
from robomodel.spatial import SpatialInertia, Transform, skew

__all__ = [
    "ForwardKinematics",
    "JointState",
    "center_of_mass",
    "forward_kinematics",
    "forward_kinematics_batch",
    "relative_transform",
    "total_spatial_inertia",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


# --------------------------------------------------------------------------- joint state


def _vector(value: npt.ArrayLike, what: str) -> FloatArray:
    arr = np.array(value, dtype=np.float64)
    if arr.ndim != 1:
        raise ModelError(f"{what} must be a 1-D vector, got an array of shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{what} must be finite, got {arr.tolist()}")
    arr.setflags(write=False)
    return arr


def _q(v: npt.ArrayLike) -> FloatArray:
    return _vector(v, "JointState.q")


def _dq(v: npt.ArrayLike) -> FloatArray:
    return _vector(v, "JointState.dq")


def _ddq(v: npt.ArrayLike) -> FloatArray:
    return _vector(v, "JointState.ddq")


@attrs.frozen(eq=False)
class JointState:
    """Joint positions, velocities and accelerations of a model, as read-only vectors.

    ``q`` is in position-coordinate order (``joint.pos_coord_offset``); ``dq`` and ``ddq`` are in
    DOF order (``joint.dof_offset``). The lengths are checked against a model when the state is
    used with it.

    Attributes:
        q: joint positions, size ``model.n_pos_coords``.
        dq: joint velocities, size ``model.n_dofs``.
        ddq: joint accelerations, size ``model.n_dofs``.

    >>> JointState([0.1, 0.2], [0.0, 0.0], [1.0, 0.0]).ddq.tolist()
    [1.0, 0.0]
    """

    q: FloatArray = attrs.field(converter=_q)
    dq: FloatArray = attrs.field(converter=_dq)
    ddq: FloatArray = attrs.field(converter=_ddq)

    def __attrs_post_init__(self) -> None:
        if self.dq.shape != self.ddq.shape:
            raise ModelError(
                f"JointState.dq has {self.dq.size} entries but ddq has {self.ddq.size}; "
                "give one velocity and one acceleration per DOF"
            )

    @classmethod
    def zeros(cls, model: Model) -> JointState:
        """Return the state with every position, velocity and acceleration zero."""
        return cls(np.zeros(model.n_pos_coords), np.zeros(model.n_dofs), np.zeros(model.n_dofs))

    @classmethod
    def from_names(
        cls,
        model: Model,
        *,
        positions: Mapping[str, float],
        velocities: Mapping[str, float] | None = None,
        accelerations: Mapping[str, float] | None = None,
    ) -> JointState:
        """Build a state from joint-name mappings.

        Every moving joint must appear in ``positions``, and in ``velocities`` and
        ``accelerations`` when those are given (``None`` means all zero). Fixed joints have no
        coordinates and must not appear.

        Raises:
            UnknownNameError: a name is not a joint of the model.
            ModelError: a name is a fixed joint, or a moving joint is missing.
        """
        return cls(
            _by_name(model, positions, "positions", model.n_pos_coords, pos=True),
            _by_name(model, velocities, "velocities", model.n_dofs, pos=False),
            _by_name(model, accelerations, "accelerations", model.n_dofs, pos=False),
        )

    def check(self, model: Model) -> JointState:
        """Return this state if its sizes fit ``model``; raise :class:`ModelError` otherwise."""
        _check_size(self.q, model.n_pos_coords, "q (positions)", "n_pos_coords")
        _check_size(self.dq, model.n_dofs, "dq (velocities)", "n_dofs")
        _check_size(self.ddq, model.n_dofs, "ddq (accelerations)", "n_dofs")
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointState):
            return NotImplemented
        return bool(
            np.array_equal(self.q, other.q)
            and np.array_equal(self.dq, other.dq)
            and np.array_equal(self.ddq, other.ddq)
        )

    def __hash__(self) -> int:
        return hash((self.q.tobytes(), self.dq.tobytes(), self.ddq.tobytes()))


def _check_size(v: FloatArray, n: int, what: str, count: str) -> None:
    if v.shape != (n,):
        raise ModelError(
            f"{what} has {v.size} entries but the model has {count} = {n}; "
            f"give one value per coordinate"
        )


def _by_name(
    model: Model, values: Mapping[str, float] | None, what: str, n: int, *, pos: bool
) -> FloatArray:
    out = np.zeros(n)
    if values is None:
        return out
    seen = set()
    for name, v in values.items():
        j = model.joint(name)
        if isinstance(j, FixedJoint):
            raise ModelError(f"joint {name!r} is fixed and has no {what}; leave it out")
        out[j.pos_coord_offset if pos else j.dof_offset] = float(v)
        seen.add(name)
    missing = [
        name
        for name, j in zip(model.joint_names, model.joints, strict=True)
        if not isinstance(j, FixedJoint) and name not in seen
    ]
    if missing:
        raise ModelError(
            f"{what} are missing for joints {missing}; give a value for every moving joint"
        )
    return out


def _positions(model: Model, q: JointState | npt.ArrayLike) -> FloatArray:
    if isinstance(q, JointState):
        v = q.q
    else:
        v = np.asarray(q, dtype=np.float64)
        if v.ndim != 1:
            raise ModelError(f"q must be a 1-D vector of joint positions, got shape {v.shape}")
    _check_size(v, model.n_pos_coords, "q (positions)", "n_pos_coords")
    if not np.all(np.isfinite(v)):
        raise ModelError(f"q must be finite, got {v.tolist()}")
    return v


# --------------------------------------------------------------------------- per-model plan


class _Plan:
    """A model's traversal from one base, flattened into arrays (traversal positions, not links).

    Position ``k`` of every array is the ``k``-th link of the traversal. For a non-base position
    the joint to the parent gives ``parent_H_child(q) = rest @ M(q)``, where ``M`` moves about
    the joint axis expressed in the child (``joint.axis(child)``): a rotation
    ``I + s K + (1 - c) K^2`` about a line through ``o`` for revolute joints, a translation
    along ``u`` for prismatic ones.
    """

    def __init__(self, model: Model, base: int) -> None:
        t = model.traversal(base)
        n = len(t)
        self.base = base
        self.order: IntArray = np.array(t.links, dtype=np.intp)
        self.position = {link: k for k, link in enumerate(t.links)}
        self.parent = [-1] + [self.position[p] for p in t.parents[1:] if p is not None]
        self.complete = n == model.n_links
        rest = np.tile(np.eye(4), (n, 1, 1))
        S = np.zeros((n, 6))  # motion subspace in the child frame
        dof = np.full(n, -1, dtype=np.intp)
        rev: list[tuple[int, int, FloatArray, FloatArray]] = []
        pri: list[tuple[int, int, FloatArray]] = []
        for k in range(1, n):
            child = model.link_names[t.links[k]]
            parent = model.link_names[t.parents[k]]  # type: ignore[index]
            j = model.joints[t.joints[k]]  # type: ignore[index]
            X = j.rest_transform(parent, child)
            rest[k, :3, :3] = X.rotation
            rest[k, :3, 3] = X.position
            match j:
                case RevoluteJoint():
                    ax = j.axis(child)
                    u, o = np.array(ax.direction), np.array(ax.origin)
                    S[k, :3] = np.cross(o, u)
                    S[k, 3:] = u
                    dof[k] = j.dof_offset
                    rev.append((k, j.pos_coord_offset, u, o))
                case PrismaticJoint():
                    u = np.array(j.axis(child).direction)
                    S[k, :3] = u
                    dof[k] = j.dof_offset
                    pri.append((k, j.pos_coord_offset, u))
                case FixedJoint():
                    pass
        self.rest = rest
        self.S = S
        self.dof_pos: IntArray = np.nonzero(dof >= 0)[0]
        self.dof_idx: IntArray = dof[self.dof_pos]
        X3 = rest[:, :3, :3]
        # Revolute: rest @ M(q) = (X3 + s A1 + (1-c) A2, Xp - s b1 - (1-c) b2), see class doc.
        self.rev_pos = np.array([r[0] for r in rev], dtype=np.intp)
        self.rev_q = np.array([r[1] for r in rev], dtype=np.intp)
        K = np.array([skew(r[2]) for r in rev]).reshape(-1, 3, 3)
        KK = K @ K
        o = np.array([r[3] for r in rev]).reshape(-1, 3)
        Xr = X3[self.rev_pos]
        self.rev_X3 = Xr
        self.rev_Xp = rest[self.rev_pos, :3, 3]
        self.rev_A1 = Xr @ K
        self.rev_A2 = Xr @ KK
        self.rev_b1 = np.einsum("kij,kj->ki", self.rev_A1, o)
        self.rev_b2 = np.einsum("kij,kj->ki", self.rev_A2, o)
        # Prismatic: rest @ M(q) = (X3, Xp + q X3 u).
        self.pri_pos = np.array([p[0] for p in pri], dtype=np.intp)
        self.pri_q = np.array([p[1] for p in pri], dtype=np.intp)
        u_p = np.array([p[2] for p in pri]).reshape(-1, 3)
        self.pri_c = np.einsum("kij,kj->ki", X3[self.pri_pos], u_p)
        # Inertias (link frame) in traversal order.
        inert = [model.links[lk].inertia for lk in t.links]
        self.mass = np.array([i.mass for i in inert])
        self.h = np.array([i.first_moment for i in inert]).reshape(n, 3)
        self.I_O = np.array([i.rotational_inertia for i in inert]).reshape(n, 3, 3)
        self.I6 = np.array([i.as_matrix() for i in inert]).reshape(n, 6, 6)
        # anc[k, i] = 1 when i is k or one of its ancestors, so that sums over ancestors are
        # anc @ x and sums over subtrees anc.T @ x: one product instead of a loop over links.
        # The matrix is n x n, so big models use the loops of _down/_up instead.
        self.anc: FloatArray | None = None
        self.desc: FloatArray | None = None
        if n <= _DENSE_LIMIT:
            anc = np.zeros((n, n))
            for k in range(n):
                anc[k, k] = 1.0
                p = self.parent[k]
                if p >= 0:
                    anc[k] += anc[p]
            self.anc = anc
            self.desc = np.ascontiguousarray(anc.T)
        # (child, parent) pairs in traversal order, and the rounds of pointer jumping of _poses.
        self.steps = list(zip(range(1, n), self.parent[1:], strict=True))
        self.jumps: list[tuple[IntArray, IntArray]] = []
        J = np.array(self.parent, dtype=np.intp)
        while True:
            sel = np.nonzero(J > 0)[0]
            if not len(sel):
                break
            src = J[sel]
            self.jumps.append((sel, src))
            J[sel] = J[src]
        self.batch_steps = [_batch_step(model, t, k, self.parent[k]) for k in range(1, n)]


_DENSE_LIMIT = 256


def _down(plan: _Plan, x: FloatArray) -> FloatArray:
    """Return, per traversal position, the sum of ``x`` over the position and its ancestors."""
    if plan.anc is not None:
        out: FloatArray = plan.anc @ x
        return out
    y = x.copy()
    for k, p in plan.steps:
        y[k] += y[p]
    return y


def _up(plan: _Plan, x: FloatArray) -> FloatArray:
    """Return, per traversal position, the sum of ``x`` over the position's subtree."""
    if plan.desc is not None:
        out: FloatArray = plan.desc @ x
        return out
    y = x.copy()
    for k, p in reversed(plan.steps):
        y[p] += y[k]
    return y


_PLANS: weakref.WeakKeyDictionary[Model, dict[int, _Plan]] = weakref.WeakKeyDictionary()


def _plan(model: Model, base: str | int | None) -> _Plan:
    b = model.default_base_index if base is None else _link_index(model, base)
    try:
        per_base = _PLANS[model]
    except KeyError:
        per_base = {}
        _PLANS[model] = per_base
    p = per_base.get(b)
    if p is None:
        p = _Plan(model, b)
        per_base[b] = p
    return p


def _link_index(model: Model, link: str | int) -> int:
    if isinstance(link, str):
        return model.link_index(link)
    if not 0 <= link < model.n_links:
        raise ModelError(f"link index {link} is out of range [0, {model.n_links})")
    return int(link)


def _require_complete(plan: _Plan, model: Model, what: str) -> None:
    if not plan.complete:
        missing = [model.link_names[i] for i in range(model.n_links) if i not in plan.position]
        raise ModelError(
            f"{what} needs every link connected to the base {model.link_names[plan.base]!r}, "
            f"but {missing} are not; join them to the tree or take a submodel first"
        )


def _local_transforms(plan: _Plan, q: FloatArray) -> FloatArray:
    """Return ``parent_H_child(q)`` of every traversal position as (n, 4, 4) (identity at 0)."""
    L = plan.rest.copy()
    if len(plan.rev_pos):
        a = q[plan.rev_q]
        s = np.sin(a)[:, None, None]
        c1 = (1.0 - np.cos(a))[:, None, None]
        L[plan.rev_pos, :3, :3] = plan.rev_X3 + s * plan.rev_A1 + c1 * plan.rev_A2
        L[plan.rev_pos, :3, 3] = plan.rev_Xp - s[:, :, 0] * plan.rev_b1 - c1[:, :, 0] * plan.rev_b2
    if len(plan.pri_pos):
        L[plan.pri_pos, :3, 3] += q[plan.pri_q][:, None] * plan.pri_c
    return L


def _poses(plan: _Plan, q: FloatArray) -> FloatArray:
    """Return ``base_H_link`` of every traversal position as (n, 4, 4)."""
    T = _local_transforms(plan, q)
    # Pointer jumping: T[k] holds J[k]_H_k for a jump target J[k], first the parent; each round
    # composes every unfinished link with its target's transform and doubles the jump, so a tree
    # of depth d needs ceil(log2 d) batched products instead of one small product per link.
    for sel, src in plan.jumps:
        T[sel] = T[src] @ T[sel]
    return T


# --------------------------------------------------------------------------- forward kinematics


@attrs.frozen(eq=False, repr=False)
class ForwardKinematics:
    """The pose of every link and frame of a model at one configuration.

    Attributes:
        model: the model the poses belong to.
        base: the base link index (its pose is the identity).
        base_H_link: (n_links, 4, 4) read-only array of ``base_H_link`` by link index. Links not
            connected to the base hold NaN.
    """

    model: Model
    base: int
    base_H_link: FloatArray

    def base_H_frame(self, frame: str | int) -> Transform:
        """Return ``base_H_frame`` of a link frame or an additional frame (by name or index).

        Raises:
            UnknownNameError: no frame has that name.
            ModelError: the frame's link is not connected to the base.
        """
        m = self.model
        i = m.frame_index(frame) if isinstance(frame, str) else frame
        if not 0 <= i < m.n_frames:
            raise ModelError(f"frame index {i} is out of range [0, {m.n_frames})")
        link = m.frame_link(i)
        H = self.base_H_link[link]
        if np.isnan(H[0, 0]):
            raise ModelError(
                f"frame {m.frame_name(i)!r} is on link {m.link_names[link]!r}, which is not "
                f"connected to the base {m.link_names[self.base]!r}"
            )
        T = Transform._raw(H[:3, :3].copy(), H[:3, 3].copy())
        if i < m.n_links:
            return T
        return T @ m.frame_transform(i)

    def __repr__(self) -> str:
        return (
            f"ForwardKinematics(base={self.model.link_names[self.base]!r}, "
            f"n_links={self.model.n_links})"
        )


def forward_kinematics(
    model: Model, q: JointState | npt.ArrayLike, base: str | int | None = None
) -> ForwardKinematics:
    """Return the pose of every link and frame relative to ``base`` at positions ``q``.

    Args:
        model: the model.
        q: joint positions in position-coordinate order (or a :class:`JointState`).
        base: the base link (name or index); the model's default base if ``None``.

    Raises:
        ModelError: ``q`` has the wrong size, or the base does not exist.
    """
    plan = _plan(model, base)
    T = _poses(plan, _positions(model, q))
    out = np.empty_like(T) if plan.complete else np.full((model.n_links, 4, 4), np.nan)
    out[plan.order] = T
    out.setflags(write=False)
    return ForwardKinematics(model, plan.base, out)


def relative_transform(
    model: Model, q: JointState | npt.ArrayLike, frame_a: str | int, frame_b: str | int
) -> Transform:
    """Return ``a_H_b``, the pose of frame ``b`` in frame ``a``, at positions ``q``.

    Both frames may be links or additional frames; they must be connected by the model's joints.
    """
    a = model.frame_link(frame_a)
    fk = forward_kinematics(model, q, base=a)
    T = fk.base_H_frame(frame_b)
    return model.frame_transform(frame_a).inverse() @ T


def forward_kinematics_batch(
    model: Model,
    Q: npt.ArrayLike,
    frames: Sequence[str | int] | None = None,
    base: str | int | None = None,
) -> dict[str, FloatArray]:
    """Return ``base_H_frame`` for many configurations at once.

    The work is vectorised over configurations: the Python loop runs over the links that lead to
    the requested frames, and each step is a few whole-array operations on all configurations.

    Args:
        model: the model.
        Q: (N, n_pos_coords) joint positions, one configuration per row.
        frames: frame names or indices (links or additional frames); all frames if ``None``.
        base: the base link; the model's default base if ``None``.

    Returns:
        A dict from frame name to an (N, 4, 4) array of homogeneous transforms, in the order the
        frames were requested. Each array is a read-only transposed view of a (4, 4, N) buffer
        (``np.ascontiguousarray`` gives a C-ordered copy); all of them share one allocation.

    Raises:
        ModelError: ``Q`` has the wrong shape, or a frame is not connected to the base.
        UnknownNameError: a frame name does not exist.
    """
    plan = _plan(model, base)
    Qa = np.asarray(Q, dtype=np.float64)
    if Qa.ndim != 2 or Qa.shape[1] != model.n_pos_coords:
        raise ModelError(
            f"Q must have shape (N, {model.n_pos_coords}) (one configuration per row), "
            f"got {Qa.shape}"
        )
    if not np.all(np.isfinite(Qa)):
        bad = np.argwhere(~np.isfinite(Qa))[0]
        raise ModelError(f"Q must be finite; Q[{bad[0]}, {bad[1]}] is {Qa[bad[0], bad[1]]}")
    N = Qa.shape[0]
    idx = (
        list(range(model.n_frames)) if frames is None else [_frame_index(model, f) for f in frames]
    )
    # Positions whose poses are needed: the requested frames' links and all their ancestors.
    needed = np.zeros(len(plan.order), dtype=bool)
    needed[0] = True
    for i in idx:
        link = model.frame_link(i)
        k = plan.position.get(link, -1)
        if k < 0:
            raise ModelError(
                f"frame {model.frame_name(i)!r} is on link {model.link_names[link]!r}, which is "
                f"not connected to the base {model.link_names[plan.base]!r}"
            )
        while not needed[k]:
            needed[k] = True
            k = plan.parent[k]
    # Configurations run along the last (contiguous) axis: every operation below is on (3, N)
    # blocks, and the per-frame results are (4, 4, N) buffers handed out as (N, 4, 4) views.
    Qt = np.ascontiguousarray(Qa.T)
    positions = np.nonzero(needed)[0]
    extra = [i for i in idx if i >= model.n_links]
    # One allocation for every result: with a separate megabyte buffer per frame, the first-touch
    # page faults of the allocator's fresh mappings cost more than the arithmetic.
    buf = np.empty((len(positions) + len(extra), 4, 4, N))
    # Each buffer holds a transform transposed, [column, row, configuration], so that a column
    # of the rotation (the operand of every step) is one contiguous (3, N) block.
    buf[:, :3, 3] = 0.0
    buf[:, 3, 3] = 1.0
    H: dict[int, FloatArray] = {0: buf[0]}
    buf[0, :, :3] = 0.0
    buf[0, 0, 0] = buf[0, 1, 1] = buf[0, 2, 2] = 1.0
    tmp = np.empty((3, N))
    scratch = np.empty((5, 3, N))
    for slot, k in enumerate(positions[1:], start=1):
        step = plan.batch_steps[k - 1]
        Hc = buf[slot]
        _run_step(step, H[step.parent], Hc, Qt, tmp, scratch)
        H[k] = Hc
    out: dict[str, FloatArray] = {}
    slot = len(positions)
    for i in idx:
        Hk = H[plan.position[model.frame_link(i)]]
        if i >= model.n_links:
            _frame_pose(Hk, model.frame_transform(i), buf[slot], tmp)
            Hk = buf[slot]
            slot += 1
        view = Hk.transpose(2, 1, 0)
        view.flags.writeable = False
        out[model.frame_name(i)] = view
    return out


def _frame_index(model: Model, i: str | int) -> int:
    if isinstance(i, str):
        return model.frame_index(i)
    if not 0 <= i < model.n_frames:
        raise ModelError(f"frame index {i} is out of range [0, {model.n_frames})")
    return int(i)


# --------------------------------------------------------------------------- mass distribution


def _mass_terms(
    model: Model, q: JointState | npt.ArrayLike, base: str | int | None, what: str
) -> tuple[_Plan, FloatArray]:
    plan = _plan(model, base)
    _require_complete(plan, model, what)
    return plan, _poses(plan, _positions(model, q))


def center_of_mass(
    model: Model, q: JointState | npt.ArrayLike, base: str | int | None = None
) -> FloatArray:
    """Return the centre of mass of the whole model, in the base frame, at positions ``q``.

    Raises:
        ModelError: the total mass is zero, or a link is not connected to the base.
    """
    plan, T = _mass_terms(model, q, base, "the centre of mass")
    M = float(plan.mass.sum())
    if M == 0.0:
        raise ModelError("the model's total mass is zero, so it has no centre of mass")
    R, p = T[:, :3, :3], T[:, :3, 3]
    h = np.einsum("kij,kj->i", R, plan.h) + plan.mass @ p
    com: FloatArray = h / M
    return com


def total_spatial_inertia(
    model: Model, q: JointState | npt.ArrayLike, base: str | int | None = None
) -> SpatialInertia:
    """Return the inertia of the whole model, as one rigid body, expressed in the base frame.

    This is the composite rigid-body inertia at positions ``q``: the sum of every link inertia
    moved into the base frame.
    """
    plan, T = _mass_terms(model, q, base, "the total spatial inertia")
    R, p = T[:, :3, :3], T[:, :3, 3]
    m = plan.mass
    Rh = np.einsum("kij,kj->ki", R, plan.h)
    Sp = _skew_stack(p)
    SRh = _skew_stack(Rh)
    # Inertia about the base origin of each link: R I_O R^T - S(Rh)S(p) - S(p)S(Rh) - m S(p)^2.
    I_O = (
        R @ plan.I_O @ R.transpose(0, 2, 1) - SRh @ Sp - Sp @ SRh - m[:, None, None] * (Sp @ Sp)
    ).sum(axis=0)
    return SpatialInertia(float(m.sum()), (Rh + m[:, None] * p).sum(axis=0), 0.5 * (I_O + I_O.T))


def _skew_stack(v: FloatArray) -> FloatArray:
    S = np.zeros((*v.shape[:-1], 3, 3))
    S[..., 0, 1] = -v[..., 2]
    S[..., 0, 2] = v[..., 1]
    S[..., 1, 0] = v[..., 2]
    S[..., 1, 2] = -v[..., 0]
    S[..., 2, 0] = -v[..., 1]
    S[..., 2, 1] = v[..., 0]
    return S
