"""The inverse-dynamics regressor: joint torques (and base wrench) as a matrix times parameters.

The wrench a rigid body needs to move, ``f = I a + v x* (I v)`` (body twist ``v``, proper
acceleration ``a``, spatial inertia ``I``), is linear in the body's 10 inertial parameters, so
``f = B(v, a) @ pi`` with a 6 x 10 *body regressor* ``B``. Inverse dynamics sums these wrenches
over each joint's subtree and projects them on the joint's motion axis; doing the same with the
columns of every ``B`` gives the regressor ``Y`` of the whole model, one 10-column block per link.

Everything here is vectorised over samples: the link poses come from the model's tree as
stacked arrays (:mod:`robomodel.identification._tree`, one pass per tree level, cheap to build
on a freshly loaded model), velocities and accelerations are sums over ancestors in base
coordinates (one product with the traversal's ancestor matrix), and the
projection on the motion axes runs over each joint's subtree only. :func:`regressor` is the
one-sample case; :mod:`robomodel.identification.samples` stacks measurements.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from robomodel.errors import ModelError
from robomodel.identification._tree import Tree, poses, subtree_runs, tree_of
from robomodel.model.record import Model
from robomodel.model.sensors import SixAxisForceTorqueSensor
from robomodel.model.spatial import wrench_adjoint
from robomodel.model.validation import STANDARD_GRAVITY, check_name_list, real_array
from robomodel.physics.joint_state import Configuration, link_index_of, state_of

__all__ = ["regressor", "regressor_batch"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


def _sensor_plan(model: Model, base: int, names: Sequence[str]) -> list[tuple[int, FloatArray]]:
    """Per F/T sensor: the child link of its joint and the wrench map from it to the reading.

    The reading is the wrench the traversal parent applies on the child, moved into the
    sensor frame and negated when the sensor measures the wrench on the parent (as
    :func:`robomodel.physics.sensing.predict_measurement`).
    """
    t = model.traversal(base)
    out = []
    for name in names:
        sensor = model.sensor(name)
        if not isinstance(sensor, SixAxisForceTorqueSensor):
            raise ModelError(
                f"sensor {name!r} is a {type(sensor).__name__}, not a force/torque sensor; "
                "only six-axis force/torque sensors have wrench rows"
            )
        first, second = model.link_index(sensor.first_link), model.link_index(sensor.second_link)
        if t.is_parent_of(first, second):
            child = second
        elif t.is_parent_of(second, first):
            child = first
        else:
            raise ModelError(
                f"force/torque sensor {name!r}: links {sensor.first_link!r} and "
                f"{sensor.second_link!r} are not parent and child in the traversal from "
                f"{model.link_names[base]!r}"
            )
        cname = model.link_names[child]
        sign = 1.0 if sensor.applied_wrench_link == cname else -1.0
        out.append((child, sign * wrench_adjoint(sensor.link_H_sensor(cname).inverse())))
    return out


# --------------------------------------------------------------------------- the core


# Every kinematic array below is laid out components first and samples last,
# ``(components..., n, N)``: each arithmetic step is then one operation on contiguous
# ``n * N`` blocks, where a trailing axis of 3 would make numpy loop over tiny rows.


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    """Cross product over the leading axis of broadcastable ``(3, ...)`` arrays."""
    # The shape from np.broadcast (C), not np.broadcast_shapes (which makes arrays to ask it).
    out = np.empty((3, *np.broadcast(a[0], b[0]).shape))
    np.multiply(a[1], b[2], out=out[0])
    out[0] -= a[2] * b[1]
    np.multiply(a[2], b[0], out=out[1])
    out[1] -= a[0] * b[2]
    np.multiply(a[0], b[1], out=out[2])
    out[2] -= a[1] * b[0]
    return out


# The products below are single einsum passes: the same sums in the same order as the
# broadcast products they replace, without their temporaries (2-4x faster on many samples).


def _mm(A: FloatArray, B: FloatArray) -> FloatArray:
    """``A @ B`` over the leading axes: ``A`` is ``(3, 3, ...)``, ``B`` is ``(3, k, ...)``."""
    out: FloatArray = np.einsum("ij...,jk...->ik...", A, B)
    return out


def _mv(A: FloatArray, x: FloatArray) -> FloatArray:
    """``A @ x`` over the leading axes: ``A`` is ``(3, 3, ...)``, ``x`` is ``(3, ...)``."""
    out: FloatArray = np.einsum("ij...,j...->i...", A, x)
    return out


def _mtv(A: FloatArray, x: FloatArray) -> FloatArray:
    """``A^T @ x`` over the leading axes."""
    out: FloatArray = np.einsum("ji...,j...->i...", A, x)
    return out


def _rotational_columns(R: FloatArray, w: FloatArray, alpha: FloatArray) -> FloatArray:
    """Return ``R (L(alpha_b) + S(w_b) L(w_b))``, ``x_b = R^T x``, as ``(3, 6, ...)``.

    The torque of each of the six rotational-inertia parameters, in base axes, with
    ``I x = L(x) [Ixx Ixy Ixz Iyy Iyz Izz]``.

    ``L(x) = [[x0, x1, x2, 0, 0, 0], [0, x0, 0, x1, x2, 0], [0, 0, x0, 0, x1, x2]]`` is mostly
    zeros, so the middle factor is written entry by entry: the sums of the 3 x 3 by 3 x 6
    product without its zero terms, in the same order (the same numbers, bit for bit), at a
    fifth of the cost of building both factors and multiplying them.
    """
    w0, w1, w2 = _mtv(R, w)
    y0, y1, y2 = _mtv(R, alpha)
    K = np.empty((3, 6, *w.shape[1:]))
    K[0, 0] = y0
    K[0, 1] = y1 - w2 * w0
    K[0, 2] = y2 + w1 * w0
    np.multiply(w2, w1, out=K[0, 3])
    np.negative(K[0, 3], out=K[0, 3])
    K[0, 4] = w1 * w1 - w2 * w2
    np.multiply(w1, w2, out=K[0, 5])
    np.multiply(w2, w0, out=K[1, 0])
    K[1, 1] = y0 + w2 * w1
    K[1, 2] = w2 * w2 - w0 * w0
    K[1, 3] = y1
    K[1, 4] = y2 - w0 * w1
    np.multiply(w0, w2, out=K[1, 5])
    np.negative(K[1, 5], out=K[1, 5])
    np.multiply(w1, w0, out=K[2, 0])
    np.negative(K[2, 0], out=K[2, 0])
    K[2, 1] = w0 * w0 - w1 * w1
    K[2, 2] = y0 - w1 * w2
    np.multiply(w0, w1, out=K[2, 3])
    K[2, 4] = y1 + w0 * w2
    K[2, 5] = y2
    return _mm(R, K)


def _per_sample(value: npt.ArrayLike | None, n: int, what: str) -> FloatArray | None:
    """Return a (6,) or (N, 6) argument as (6, N) (``None``, no base motion, stays ``None``)."""
    if value is None:
        return None
    arr = np.asarray(value, dtype=np.float64)
    if arr.shape == (6,):
        return np.broadcast_to(real_array(arr, what, shape=(6,))[:, None], (6, n))
    return real_array(arr, what, shape=(n, 6)).T


# OpenBLAS runs a product on several threads above about 2**18 multiply-adds, which on a busy
# machine costs far more than it saves (iCub, 2,000 samples: 15 ms against 0.6 ms for the pass
# over the links); each of _down's products (n_links^2 N multiply-adds) stays below that.
_SERIAL_PRODUCT = 2**18
# Up to this many samples the projection is one matrix product per sample over every (DOF,
# link) pair, zero blocks included: iCub, 10 samples: 2x faster than the loop over subtree runs,
# which does less arithmetic and wins beyond about 20 samples.
_PRODUCT_SAMPLES = 16


# Beyond _PRODUCT_SAMPLES, the samples go through the kinematics in chunks of this many: every
# temporary of a chunk (a (3, 3, n_links) block per sample, iCub: 0.7 MB) stays in cache, where
# whole-batch temporaries (iCub, 2,000 samples: 14 MB each, a few dozen of them) went to memory.
# Only batches that sum over ancestors link by link are chunked (iCub: above 172 samples).
_CHUNK = 256


def _down(st: Tree, x: FloatArray, dense: bool) -> FloatArray:
    """Return, per link, the sum of ``x`` (components, n_links, N) over it and its ancestors.

    ``dense``: one product with the ancestor matrix, while it stays single-threaded (iCub: up
    to about 170 samples, where it costs half the pass); else a pass over the tree's levels
    (each link adds its parent's finished sum, the additions of a pass link by link in
    traversal order), which costs less than a large multithreaded product on a busy machine.
    The caller decides once for the whole batch, so that a chunk's sums are the batch's.
    """
    if dense:
        out: FloatArray = st.anc @ x
        return out
    y = x.copy()
    for links, parents in st.level_links:
        y[:, links] += y[:, parents]
    return y


def _link_wrenches(
    st: Tree,
    Q: FloatArray,
    DQ: FloatArray,
    DDQ: FloatArray,
    g: FloatArray,
    v0: FloatArray | None,
    a0: FloatArray | None,
    dense: bool,
    samples_first: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Return ``(R, p, Sb, W)`` of N samples: poses, motion subspaces and wrench columns.

    ``R`` (3, 3, n_links, N) and ``p`` (3, n_links, N) are ``base_H_link``; ``Sb`` (6, n_links,
    N) each link's joint motion subspace in base coordinates; ``W`` (6, n_links, 10, N) the
    columns of each link's wrench (in base coordinates) as a function of its 10 parameters.
    ``samples_first``: ``W`` is a view of a C-ordered (N, 6, n_links, 10) buffer (the layout
    of the few-sample product, which then needs no copy of it), else C-ordered itself.
    """
    N = Q.shape[0]
    nl = st.S_links.shape[1]
    # Poses, by link index: everything below is by link index except the ancestor sums.
    R, p = poses(st, Q)

    # Motion subspaces in base coordinates: Sb = Ad(base_H_link) S = [R s + p x (R u); R u].
    Sb = np.empty((6, nl, N))
    Sb[3:] = _mv(R, st.S_links[3:, :, None])
    Sb[:3] = _mv(R, st.S_links[:3, :, None]) + _cross(p, Sb[3:])
    dq = np.zeros((nl, N))
    ddq = np.zeros((nl, N))
    dq[st.dof_child] = DQ.T
    ddq[st.dof_child] = DDQ.T

    # Spatial velocities and proper accelerations in base coordinates (at the base origin),
    # sums over ancestors (one product with the ancestor matrix); the base frame, frozen at
    # this instant, is the inertial frame (as in inverse_dynamics), and gravity is an upward
    # acceleration of the base.
    sv = Sb * dq
    V = _down(st, sv, dense)
    if v0 is not None:
        V += v0[:, None, :]
    acc = Sb * ddq
    acc[:3] += _cross(V[3:], sv[:3]) + _cross(V[:3], sv[3:])
    acc[3:] += _cross(V[3:], sv[3:])
    A = _down(st, acc, dense)
    if a0 is None:
        A[:3] -= g[:, None, None]
    else:
        A[:3] += (a0[:3] - g[:, None])[:, None, :]
        A[3:] += a0[3:, None, :]

    # Each link's wrench f = I a + v x* (I v) is B(v, a) @ pi with, in the link frame and
    # robomodel's layout [m, h, Ixx Ixy Ixz Iyy Iyz Izz],
    #   f   = m (a + w x v) + (S(alpha) + S(w)^2) h
    #   tau = -S(a + w x v) h + I alpha + w x (I w),  I x = L(x) [Ixx ... Izz].
    # Its columns in base coordinates are W = Ad^-T B = [R B_f; S(p) R B_f + R B_tau]. With
    # the link-origin motion in base axes (v_o = R v, a_o = R a, w = R w_b, alpha = R alpha_b)
    # the mass and first-moment columns need no body quantities: R S(x_b) = S(R x_b) R.
    w = V[3:]
    alpha = A[3:]
    a_c = A[:3] - _cross(p, alpha) + _cross(w, V[:3] - _cross(p, w))  # R (a + w x v)
    # M_f = S(alpha) + w w^T - |w|^2 I and T = S(p) M_f - S(a_c), entry by entry: the sums of
    # the products with the skew matrices without their zero terms (the same numbers).
    M_f = w[:, None] * w[None, :]
    ww = (w * w).sum(axis=0)
    for i in range(3):
        M_f[i, i] -= ww
    M_f[0, 1] -= alpha[2]
    M_f[0, 2] += alpha[1]
    M_f[1, 0] += alpha[2]
    M_f[1, 2] -= alpha[0]
    M_f[2, 0] -= alpha[1]
    M_f[2, 1] += alpha[0]
    T = _cross(p[:, None], M_f)
    T[0, 1] += a_c[2]
    T[0, 2] -= a_c[1]
    T[1, 0] -= a_c[2]
    T[1, 2] += a_c[0]
    T[2, 0] += a_c[1]
    T[2, 1] -= a_c[0]
    if samples_first:
        W = np.empty((N, 6, nl, 10)).transpose(1, 2, 3, 0)
    else:
        W = np.empty((6, nl, 10, N))
    W[:3, :, 0] = a_c
    W[:3, :, 1:4] = _mm(M_f, R).transpose(0, 2, 1, 3)
    W[:3, :, 4:] = 0.0
    W[3:, :, 0] = _cross(p, a_c)
    W[3:, :, 1:4] = _mm(T, R).transpose(0, 2, 1, 3)
    W[3:, :, 4:] = _rotational_columns(R, w, alpha).transpose(0, 2, 1, 3)
    return R, p, Sb, W


def _core(
    model: Model,
    Q: FloatArray,
    DQ: FloatArray,
    DDQ: FloatArray,
    *,
    base: str | int | None,
    gravity: npt.ArrayLike,
    floating: bool,
    base_velocity: npt.ArrayLike | None,
    base_acceleration: npt.ArrayLike | None,
    sensors: Sequence[str] = (),
) -> FloatArray:
    """Return the regressors of N samples, (N, rows, 10 n_links).

    Up to ``_PRODUCT_SAMPLES`` samples the result is C-ordered; beyond, it is a view of a
    C-ordered (rows, 10 n_links, N) buffer whose zero blocks (links outside a joint's subtree)
    are never written.
    """
    b = link_index_of(model, base)
    st = tree_of(model, b)
    ft = _sensor_plan(model, b, check_name_list(sensors, "sensors")) if sensors else []
    N = Q.shape[0]
    nl = model.n_links
    g = real_array(gravity, "gravity", shape=(3,))
    v0 = _per_sample(base_velocity, N, "base_velocity")
    a0 = _per_sample(base_acceleration, N, "base_acceleration")
    dense = (nl - 1) ** 2 * N <= _SERIAL_PRODUCT

    # Project: a joint's row is Sb_d . W_i over the links i of its subtree (runs of link
    # indices); a base-wrench row is every link's W; a sensor's rows its subtree's, moved.
    off = 6 if floating else 0
    nd = model.n_dofs
    rows = off + nd + 6 * len(ft)
    if N <= _PRODUCT_SAMPLES:
        # Few samples: the joint rows of all links at once, one matrix product per sample
        # (samples first: C-ordered (N, rows, 10 n_links), written in place), the blocks
        # outside each subtree then set to zero: a handful of numpy calls whatever the tree.
        R, p, Sb, W = _link_wrenches(st, Q, DQ, DDQ, g, v0, a0, dense, samples_first=True)
        Yc = np.empty((N, rows, 10 * nl))
        Y = Yc.transpose(1, 2, 0).reshape(rows, nl, 10, N)  # a view, indexed as below
        np.matmul(
            np.ascontiguousarray(Sb[:, st.dof_child].transpose(2, 1, 0)),
            W.transpose(3, 0, 1, 2).reshape(N, 6, 10 * nl),  # its C-ordered buffer: no copy
            out=Yc[:, off : off + nd],
        )
        # Zero blocks in one pass: a bitwise and of the entries with the subtrees' columns as
        # a mask of all-one bits (keep) and zero bits (+0.0). One pass where a product with a
        # 0/1 mask needed a second (+ 0.0, for the -0.0 of a negative entry times zero); a
        # masked copy costs three times as much. The product's own entries are never -0.0
        # (BLAS sums from +0.0), so the kept ones are as the product left them.
        joint_rows = Yc[:, off : off + nd].view(np.int64)
        keep = np.repeat(st.anc[:, st.dof_child].T.astype(np.int64), 10, axis=1)
        np.negative(keep, out=keep)  # 1 -> -1: all bits set
        np.bitwise_and(joint_rows, keep, out=joint_rows)
        if rows > off + nd:
            Yc[:, off + nd :] = 0.0
        if floating:
            Y[:6] = W
        _sensor_rows(Y[off + nd :], ft, subtree_runs(st.anc) if ft else (), R, p, W)
        return Yc
    # Many samples: chunk by chunk, each joint's row over the runs of its subtree only.
    Yb = np.zeros((rows, nl, 10, N))
    runs_of = subtree_runs(st.anc)
    dof_child = st.dof_child.tolist()
    # A dense batch (small enough for one product with the ancestor matrix) is one chunk: a
    # product's rounding may depend on its width, the pass over the links' does not.
    chunk = N if dense else _CHUNK
    for s0 in range(0, N, chunk):
        s1 = min(s0 + chunk, N)
        R, p, Sb, W = _link_wrenches(
            st,
            Q[s0:s1],
            DQ[s0:s1],
            DDQ[s0:s1],
            g,
            None if v0 is None else v0[:, s0:s1],
            None if a0 is None else a0[:, s0:s1],
            dense,
        )
        Y = Yb[..., s0:s1]
        if floating:
            Y[:6] = W
        for d, child in enumerate(dof_child):
            s_d = Sb[:, child]  # (6, n)
            for lo, hi in runs_of[child]:
                np.einsum("kN,kicN->icN", s_d, W[:, lo:hi], out=Y[off + d, lo:hi])
        _sensor_rows(Y[off + nd :], ft, runs_of, R, p, W)
    out_: FloatArray = Yb.reshape(rows, 10 * nl, N).transpose(2, 0, 1)
    return out_


def _sensor_rows(
    Y: FloatArray,
    ft: list[tuple[int, FloatArray]],
    runs_of: tuple[tuple[tuple[int, int], ...], ...],
    R: FloatArray,
    p: FloatArray,
    W: FloatArray,
) -> None:
    """Write each F/T sensor's six rows into ``Y`` (6 per sensor, n_links, 10, N)."""
    for k, (child, X) in enumerate(ft):
        # The child's internal wrench: its subtree's wrenches moved into the child frame,
        # Ad^T [f; n] = [R^T f; R^T (n - p x f)], then into the sensor frame by X.
        Rc, pc = R[:, :, child, None, None], p[:, child, None, None]
        for lo, hi in runs_of[child]:
            F = W[:, lo:hi]
            wrench = np.concatenate([_mtv(Rc, F[:3]), _mtv(Rc, F[3:] - _cross(pc, F[:3]))])
            Y[6 * k : 6 * k + 6, lo:hi] = np.tensordot(X, wrench, 1)


# --------------------------------------------------------------------------- public functions


def regressor(
    model: Model,
    state: Configuration,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    base_velocity: npt.ArrayLike | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    sensors: Sequence[str] = (),
) -> FloatArray:
    """Return the inverse-dynamics regressor ``Y`` of ``model`` at ``state``.

    ``Y @ model.inertial_parameters()`` equals :func:`robomodel.physics.dynamics.inverse_dynamics`'s
    ``joint_torques`` with the same arguments, for every choice of inertial parameters: column
    block ``[10 k, 10 k + 10)`` belongs to link ``k``, in the layout of
    :meth:`~robomodel.Model.inertial_parameters`.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "base")
    >>> arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
    >>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
    >>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", arm)
    >>> Y = regressor(m, rm.JointState([0.0], [0.0], [0.0]))
    >>> Y.shape, (Y @ m.inertial_parameters()).round(6).tolist()
    ((1, 20), [-9.81])

    Args:
        model: the model; every link must be connected to the base.
        state: joint positions, velocities and accelerations (a :class:`JointState`); joint
            positions alone (a vector, or a mapping naming every moving joint) mean the model
            at rest there, as for :func:`~robomodel.physics.dynamics.inverse_dynamics`.
        gravity: gravity acceleration in the base frame.
        base: the base link (name or index); the model's default base if ``None``.
        floating: also return the base wrench: ``6 + n_dofs`` rows, the wrench ``[f; tau]``
            the environment applies on the base (in the base frame, ``base_wrench`` of
            :func:`~robomodel.physics.dynamics.inverse_dynamics`) first, then the joint torques.
        base_velocity: the base twist ``[v; w]`` in the base frame (zero if ``None``).
        base_acceleration: its time derivative ``[a; alpha]`` (zero if ``None``).
        sensors: names of six-axis force/torque sensors whose readings to append, six rows
            each in this order: ``Y_s @ p`` is the sensor's
            :func:`~robomodel.physics.sensing.predict_sensor_measurements` reading (sensor frame),
            which depends only on the links on the measured side of the sensor's joint.

    Returns:
        A new ``(n_dofs, 10 n_links)`` array, ``(6 + n_dofs, 10 n_links)`` when floating,
        with ``6 len(sensors)`` more rows at the end.

    Raises:
        ModelError: a size does not match the model, a mapping leaves out a moving joint, a
            link is not connected to the base, or a sensor is not a force/torque sensor
            across a joint of the traversal.
        ArgumentError: an argument is not a finite array of the right shape (``state=None``
            included).
        UnknownNameError: a sensor, or a joint named in ``state``, does not exist.
    """
    st = state_of(model, state)
    Y = _core(
        model,
        st.q[None],
        st.dq[None],
        st.ddq[None],
        base=base,
        gravity=gravity,
        floating=floating,
        base_velocity=base_velocity,
        base_acceleration=base_acceleration,
        sensors=sensors,
    )
    out: FloatArray = Y[0]
    return out


def _samples_array(value: npt.ArrayLike, what: str, n: int, count: str) -> FloatArray:
    # Read, never kept nor written: no copy.
    arr = real_array(value, what, shape=(None, None), copy=False)
    if arr.shape[1] != n:
        raise ModelError(
            f"{what} must have shape (N, {n}) (one sample per row, {count} = {n} columns), "
            f"but got {arr.shape}"
        )
    return arr


def regressor_batch(
    model: Model,
    Q: npt.ArrayLike,
    DQ: npt.ArrayLike,
    DDQ: npt.ArrayLike,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    base_velocity: npt.ArrayLike | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    sensors: Sequence[str] = (),
) -> FloatArray:
    """Return the regressors of N samples at once, ``(N, rows, 10 n_links)``.

    Row ``s`` of the result is ``regressor(model, JointState(Q[s], DQ[s], DDQ[s]), ...)``,
    computed for all samples together (Python loops run over joints, never over samples).
    Up to 16 samples the result is C-ordered. Beyond, it is a transposed view of a C-ordered
    ``(rows, 10 n_links, N)`` buffer, as
    :func:`~robomodel.physics.kinematics.forward_kinematics_batch` hands out its poses: samples are
    the contiguous axis, and the blocks of links outside a joint's subtree are never written
    (``np.ascontiguousarray`` gives a C-ordered copy).

    Args:
        model: the model.
        Q: (N, n_pos_coords) joint positions, one sample per row in coordinate order (arrays
            only, as for every batch function).
        DQ: (N, n_dofs) joint velocities.
        DDQ: (N, n_dofs) joint accelerations.
        gravity: gravity in the base frame, shared by all samples.
        base: the base link; the model's default base if ``None``.
        floating: prepend the six base-wrench rows, as in :func:`regressor`.
        base_velocity: the base twist, one ``(6,)`` for all samples or ``(N, 6)``.
        base_acceleration: the base acceleration, ``(6,)`` or ``(N, 6)``.
        sensors: force/torque sensors whose six rows to append, as in :func:`regressor`.

    Raises:
        ModelError: a shape does not match the model or the number of samples.
    """
    Qa = _samples_array(Q, "Q", model.n_pos_coords, "n_pos_coords")
    DQa = _samples_array(DQ, "DQ", model.n_dofs, "n_dofs")
    DDQa = _samples_array(DDQ, "DDQ", model.n_dofs, "n_dofs")
    if not Qa.shape[0] == DQa.shape[0] == DDQa.shape[0]:
        raise ModelError(
            f"Q, DQ and DDQ must have one row per sample, but have {Qa.shape[0]}, "
            f"{DQa.shape[0]} and {DDQa.shape[0]} rows"
        )
    return _core(
        model,
        Qa,
        DQa,
        DDQa,
        base=base,
        gravity=gravity,
        floating=floating,
        base_velocity=base_velocity,
        base_acceleration=base_acceleration,
        sensors=sensors,
    )
