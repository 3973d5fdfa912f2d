"""The inverse-dynamics regressor: joint torques (and base wrench) as a matrix times parameters.

The wrench a rigid body needs to move, ``f = I a + v x* (I v)`` (body twist ``v``, proper
acceleration ``a``, spatial inertia ``I``), is linear in the body's 10 inertial parameters, so
``f = B(v, a) @ pi`` with a 6 x 10 *body regressor* ``B``. Inverse dynamics sums these wrenches
over each joint's subtree and projects them on the joint's motion axis; doing the same with the
columns of every ``B`` gives the regressor ``Y`` of the whole model, one 10-column block per link.

Everything here is vectorised over samples: the link poses come from
:func:`robomodel.kinematics.forward_kinematics_batch`, velocities and accelerations are sums over
ancestors in base coordinates (a loop over links on ``(N, 6)`` arrays), and the projection on the
motion axes is one batched matrix product. :func:`regressor` is the one-sample case.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.errors import ModelError
from robomodel.joints import PrismaticJoint, RevoluteJoint
from robomodel.kinematics import JointState, forward_kinematics_batch
from robomodel.model import Model, memoized
from robomodel.sensors import SixAxisForceTorqueSensor
from robomodel.spatial import cross, wrench_adjoint
from robomodel.validation import (
    STANDARD_GRAVITY,
    check_name_list,
    link_index_of,
    real_array,
    real_vector,
)

__all__ = ["Samples", "regressor", "regressor_batch", "row_names", "row_weights", "stack"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


# --------------------------------------------------------------------------- per-model structure


@attrs.frozen(eq=False)
class _Structure:
    # A model's traversal from one base, as arrays by traversal position: link index, parent
    # position, motion subspace in the child frame, the positions with a DOF and that DOF's
    # index, and mask[d, i]: whether link index i moves with DOF d (is in its joint's subtree).
    order: IntArray
    parent: tuple[int, ...]
    S: FloatArray
    dof_pos: IntArray
    dof_idx: IntArray
    mask: FloatArray
    subtree: FloatArray  # subtree[a, b]: link index b is link a or one of its descendants


def _structure(model: Model, base: int) -> _Structure:
    return memoized(model, ("identification-structure", base), lambda: _make_structure(model, base))


def _make_structure(model: Model, base: int) -> _Structure:
    t = model.traversal(base)
    n = len(t)
    if n != model.n_links:
        missing = [model.link_names[i] for i in range(model.n_links) if not t.contains(i)]
        raise ModelError(
            f"the regressor needs every link connected to the base "
            f"{model.link_names[base]!r}, but {missing} are not; join them to the tree or take "
            "a submodel first"
        )
    position = {link: k for k, link in enumerate(t.links)}
    parent = [-1] + [position[p] for p in t.parents[1:] if p is not None]
    S = np.zeros((n, 6))
    dof = np.full(n, -1, dtype=np.intp)
    for k in range(1, n):
        child = model.link_names[t.links[k]]
        joint = model.joints[t.joints[k]]  # type: ignore[index]
        match joint:
            case RevoluteJoint():
                ax = joint.axis(child)
                u, o = np.array(ax.direction), np.array(ax.origin)
                S[k, :3] = np.cross(o, u)
                S[k, 3:] = u
                dof[k] = joint.dof_offset
            case PrismaticJoint():
                S[k, :3] = joint.axis(child).direction
                dof[k] = joint.dof_offset
            case _:
                pass
    # in_subtree[k, i]: traversal position i is k or one of its descendants.
    in_subtree = np.zeros((n, n), dtype=bool)
    for i in range(n):
        k = i
        while k >= 0:
            in_subtree[k, i] = True
            k = parent[k]
    dof_pos = np.nonzero(dof >= 0)[0]
    dof_idx = dof[dof_pos]
    order = np.array(t.links, dtype=np.intp)
    mask = np.zeros((model.n_dofs, model.n_links))
    mask[np.ix_(dof_idx, order)] = in_subtree[dof_pos]
    subtree = np.zeros((model.n_links, model.n_links))
    subtree[np.ix_(order, order)] = in_subtree
    for arr in (S, mask, order, dof_pos, dof_idx, subtree):
        arr.setflags(write=False)
    return _Structure(order, tuple(parent), S, dof_pos, dof_idx, mask, subtree)


def _sensor_plan(model: Model, base: int, names: Sequence[str]) -> list[tuple[int, FloatArray]]:
    """Per F/T sensor: the child link of its joint and the wrench map from it to the reading.

    The reading is the wrench the traversal parent applies on the child, moved into the
    sensor frame and negated when the sensor measures the wrench on the parent (as
    :func:`robomodel.sensing.predict_measurement`).
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


def _skew(v: FloatArray) -> FloatArray:
    out = np.zeros((*v.shape, 3))
    out[..., 0, 1] = -v[..., 2]
    out[..., 0, 2] = v[..., 1]
    out[..., 1, 0] = v[..., 2]
    out[..., 1, 2] = -v[..., 0]
    out[..., 2, 0] = -v[..., 1]
    out[..., 2, 1] = v[..., 0]
    return out


def _down(parent: tuple[int, ...], x: FloatArray) -> FloatArray:
    """Sum ``x`` (N, n, ...) over each position and its ancestors (parents come first)."""
    for k in range(1, len(parent)):
        x[:, k] += x[:, parent[k]]
    return x


def _per_sample(value: npt.ArrayLike | None, n: int, what: str) -> FloatArray:
    """Return a (6,) or (N, 6) argument as (N, 6) (zeros when ``None``)."""
    if value is None:
        return np.zeros((n, 6))
    arr = np.asarray(value, dtype=np.float64)
    if arr.shape == (6,):
        return np.broadcast_to(real_array(arr, what, shape=(6,)), (n, 6))
    return real_array(arr, what, shape=(n, 6))


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
    """Return the regressors of N samples as (N, rows, 10 * n_links)."""
    b = link_index_of(model, base)
    st = _structure(model, b)
    ft = _sensor_plan(model, b, check_name_list(sensors, "sensors")) if sensors else []
    N = Q.shape[0]
    n = len(st.order)
    g = real_array(gravity, "gravity", shape=(3,))
    v0 = _per_sample(base_velocity, N, "base_velocity")
    a0 = _per_sample(base_acceleration, N, "base_acceleration")

    # Poses of every link in the base frame, by traversal position.
    poses = forward_kinematics_batch(model, Q, frames=[int(i) for i in st.order], base=b)
    T = np.stack(list(poses.values()), axis=1)
    R = T[..., :3, :3]
    p = T[..., :3, 3]

    # Motion subspaces in base coordinates: Sb = Ad(base_H_link) S = [R s + p x (R u); R u].
    Su = np.einsum("Nkij,kj->Nki", R, st.S[:, 3:])
    Sb = np.concatenate([np.einsum("Nkij,kj->Nki", R, st.S[:, :3]) + cross(p, Su), Su], axis=2)
    dq = np.zeros((N, n))
    ddq = np.zeros((N, n))
    dq[:, st.dof_pos] = DQ[:, st.dof_idx]
    ddq[:, st.dof_pos] = DDQ[:, st.dof_idx]

    # Spatial velocities and proper accelerations in base coordinates, as sums over ancestors;
    # the base frame, frozen at this instant, is the inertial frame (as in inverse_dynamics).
    sv = Sb * dq[..., None]
    V = _down(st.parent, sv.copy()) + v0[:, None, :]
    acc = Sb * ddq[..., None]
    acc[..., :3] += cross(V[..., 3:], sv[..., :3]) + cross(V[..., :3], sv[..., 3:])
    acc[..., 3:] += cross(V[..., 3:], sv[..., 3:])
    A = _down(st.parent, acc)
    A[..., :3] += a0[:, None, :3] - g
    A[..., 3:] += a0[:, None, 3:]

    # The same in each link's frame: Ad^-1 [v; w] = [R^T (v - p x w); R^T w].
    def body(x: FloatArray) -> tuple[FloatArray, FloatArray]:
        lin = np.einsum("Nkji,Nkj->Nki", R, x[..., :3] - cross(p, x[..., 3:]))
        return lin, np.einsum("Nkji,Nkj->Nki", R, x[..., 3:])

    v, w = body(V)
    a, alpha = body(A)

    # Body regressor B (N, n, 6, 10) in robomodel's layout [m, h, Ixx Ixy Ixz Iyy Iyz Izz]:
    #   f   = m (a + w x v) + (S(alpha) + S(w)^2) h
    #   tau = -S(a + w x v) h + I alpha + w x (I w), with I x = L(x) [Ixx ... Izz].
    a_c = a + cross(w, v)
    B = np.zeros((N, n, 6, 10))
    B[..., :3, 0] = a_c
    Sw = _skew(w)
    B[..., :3, 1:4] = _skew(alpha) + Sw @ Sw
    B[..., 3:, 1:4] = -_skew(a_c)
    Lw = _inertia_operator(w)
    B[..., 3:, 4:] = _inertia_operator(alpha) + Sw @ Lw

    # Each link's wrench columns in base coordinates, Ad^-T B = [R B_f; p x (R B_f) + R B_tau],
    # arranged (N, 6, n_links, 10) by link index so that the projection writes columns in place.
    W = np.empty((N, n, 6, 10))
    W[..., :3, :] = R @ B[..., :3, :]
    W[..., 3:, :] = _skew(p) @ W[..., :3, :] + R @ B[..., 3:, :]
    W_links = np.empty((N, 6, model.n_links, 10))
    W_links[:, :, st.order] = W.transpose(0, 2, 1, 3)
    cols = W_links.reshape(N, 6, 10 * model.n_links)

    off = 6 if floating else 0
    nd = model.n_dofs
    Y = np.empty((N, off + nd + 6 * len(ft), 10 * model.n_links))
    if floating:
        Y[:, :6] = cols
    Sd = np.empty((N, nd, 6))
    Sd[:, st.dof_idx] = Sb[:, st.dof_pos]
    np.matmul(Sd, cols, out=Y[:, off : off + nd])
    # A joint's torque sees only the links of its subtree.
    Y[:, off : off + nd] *= np.repeat(st.mask, 10, axis=1)
    link_pos = np.empty(model.n_links, dtype=np.intp)
    link_pos[st.order] = np.arange(n)
    for k, (child, X) in enumerate(ft):
        # The child's internal wrench: its subtree's wrenches (base coordinates) moved into
        # the child frame, Ad^T [f; n] = [R^T f; R^T (n - p x f)], then into the sensor frame.
        c = link_pos[child]
        F = cols * np.repeat(st.subtree[child], 10)
        Rt = R[:, c].transpose(0, 2, 1)
        f_c = Rt @ F[:, :3]
        n_c = Rt @ (F[:, 3:] - _skew(p[:, c]) @ F[:, :3])
        Y[:, off + nd + 6 * k : off + nd + 6 * k + 6] = X @ np.concatenate([f_c, n_c], axis=1)
    return Y


def _inertia_operator(x: FloatArray) -> FloatArray:
    """Return ``L(x)`` (..., 3, 6) with ``I @ x == L(x) @ [Ixx, Ixy, Ixz, Iyy, Iyz, Izz]``."""
    L = np.zeros((*x.shape[:-1], 3, 6))
    x0, x1, x2 = x[..., 0], x[..., 1], x[..., 2]
    L[..., 0, 0], L[..., 0, 1], L[..., 0, 2] = x0, x1, x2
    L[..., 1, 1], L[..., 1, 3], L[..., 1, 4] = x0, x1, x2
    L[..., 2, 2], L[..., 2, 4], L[..., 2, 5] = x0, x1, x2
    return L


# --------------------------------------------------------------------------- public functions


def regressor(
    model: Model,
    state: JointState,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    base_velocity: npt.ArrayLike | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    sensors: Sequence[str] = (),
) -> FloatArray:
    """Return the inverse-dynamics regressor ``Y`` of ``model`` at ``state``.

    ``Y @ model.inertial_parameters()`` equals :func:`robomodel.dynamics.inverse_dynamics`'s
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
        state: joint positions, velocities and accelerations.
        gravity: gravity acceleration in the base frame.
        base: the base link (name or index); the model's default base if ``None``.
        floating: also return the base wrench: ``6 + n_dofs`` rows, the wrench ``[f; tau]``
            the environment applies on the base (in the base frame, ``base_wrench`` of
            :func:`~robomodel.dynamics.inverse_dynamics`) first, then the joint torques.
        base_velocity: the base twist ``[v; w]`` in the base frame (zero if ``None``).
        base_acceleration: its time derivative ``[a; alpha]`` (zero if ``None``).
        sensors: names of six-axis force/torque sensors whose readings to append, six rows
            each in this order: ``Y_s @ p`` is the sensor's
            :func:`~robomodel.sensing.predict_sensor_measurements` reading (sensor frame),
            which depends only on the links on the measured side of the sensor's joint.

    Returns:
        A new ``(n_dofs, 10 n_links)`` array, ``(6 + n_dofs, 10 n_links)`` when floating,
        with ``6 len(sensors)`` more rows at the end.

    Raises:
        ModelError: a size does not match the model, a link is not connected to the base, or
            a sensor is not a force/torque sensor across a joint of the traversal.
        ArgumentError: an argument is not a finite array of the right shape.
        UnknownNameError: a sensor does not exist.
    """
    if not isinstance(state, JointState):
        raise ModelError(f"state must be a JointState, but got {type(state).__name__}")
    state.check(model)
    Y = _core(
        model,
        state.q[None],
        state.dq[None],
        state.ddq[None],
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
    arr = real_array(value, what, shape=(None, None))
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
    computed for all samples together (the Python loop runs over links, never over samples).

    Args:
        model: the model.
        Q: (N, n_pos_coords) joint positions, one sample per row.
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


def _q(value: npt.ArrayLike) -> FloatArray:
    return real_array(value, "Samples.q", shape=(None, None))


def _dq(value: npt.ArrayLike) -> FloatArray:
    return real_array(value, "Samples.dq", shape=(None, None))


def _ddq(value: npt.ArrayLike) -> FloatArray:
    return real_array(value, "Samples.ddq", shape=(None, None))


def _torques(value: npt.ArrayLike | None) -> FloatArray | None:
    return None if value is None else real_array(value, "Samples.torques", shape=(None, None))


def _wrench_table(value: Mapping[str, npt.ArrayLike] | None) -> dict[str, FloatArray]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ModelError(
            f"Samples.wrenches must map sensor names to (N, 6) arrays, but got {value!r:.80}"
        )
    return {
        check_name_list([k], "sensors")[0]: real_array(
            v, f"Samples.wrenches[{k!r}]", shape=(None, 6)
        )
        for k, v in value.items()
    }


@attrs.frozen(kw_only=True, eq=False)
class Samples:
    """Measured motion and effort of a robot at N instants, the input of identification.

    Attributes:
        q: (N, n_pos_coords) joint positions.
        dq: (N, n_dofs) joint velocities.
        ddq: (N, n_dofs) joint accelerations.
        torques: (N, n_dofs) measured joint torques, or (N, 6 + n_dofs) with the base wrench
            first for a floating base (see :func:`regressor`); ``None`` to use only
            ``wrenches``.
        wrenches: measured force/torque sensor readings by sensor name, each (N, 6) in the
            sensor frame (``[f; tau]``, as :func:`robomodel.sensing.predict_sensor_measurements`
            gives them).
        base_velocity: optional (N, 6) base twists (body-fixed, ``[v; w]``).
        base_acceleration: optional (N, 6) base accelerations.
    """

    q: FloatArray = attrs.field(converter=_q)
    dq: FloatArray = attrs.field(converter=_dq)
    ddq: FloatArray = attrs.field(converter=_ddq)
    torques: FloatArray | None = attrs.field(default=None, converter=_torques)
    wrenches: Mapping[str, FloatArray] = attrs.field(factory=dict, converter=_wrench_table)
    base_velocity: FloatArray | None = None
    base_acceleration: FloatArray | None = None

    def __attrs_post_init__(self) -> None:
        n = self.q.shape[0]
        arrays = {"dq": self.dq, "ddq": self.ddq}
        if self.torques is not None:
            arrays["torques"] = self.torques
        arrays.update({f"wrenches[{k!r}]": v for k, v in self.wrenches.items()})
        for name, value in arrays.items():
            if value.shape[0] != n:
                raise ModelError(
                    f"Samples.{name} has {value.shape[0]} rows but Samples.q has "
                    f"{n}; give one row per sample in every array"
                )
        if self.torques is None and not self.wrenches:
            raise ModelError("Samples needs torques, wrenches or both: there is nothing to fit")
        for name in ("base_velocity", "base_acceleration"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, real_array(value, f"Samples.{name}", shape=(n, 6)))

    def __len__(self) -> int:
        return int(self.q.shape[0])


def row_names(model: Model, samples: Samples, *, floating: bool = False) -> tuple[str, ...]:
    """Return the name of each row of one sample in :func:`stack`.

    Joint rows are named after the joints, base-wrench rows ``base_fx`` ... ``base_tz`` and
    sensor rows ``<sensor>_fx`` ... ``<sensor>_tz``.
    """
    out: list[str] = []
    if samples.torques is not None:
        if floating:
            out += [f"base_{c}" for c in _COMPONENTS]
        names = [""] * model.n_dofs
        for name, joint in zip(model.joint_names, model.joints, strict=True):
            if joint.n_dofs:
                names[joint.dof_offset] = name
        out += names
    for sensor in samples.wrenches:
        out += [f"{sensor}_{c}" for c in _COMPONENTS]
    return tuple(out)


_COMPONENTS = ("fx", "fy", "fz", "tx", "ty", "tz")


def stack(
    model: Model,
    samples: Samples,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    weights: npt.ArrayLike | Mapping[str, float] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Return the stacked regressor and measurements ``(Y, y)`` of ``samples``.

    Rows come sample by sample: for each sample, its joint torques (base wrench first with
    ``floating``) when ``samples.torques`` is given, then six rows per force/torque sensor of
    ``samples.wrenches``, in that order (:func:`row_names` names them). ``Y @ p`` is then the
    predicted measurements of parameters ``p``, and the least-squares estimate is
    ``argmin |Y p - y|``. A sensor's rows involve only the links it carries, so sensors alone
    identify the subtrees they measure.

    Args:
        model: the model.
        samples: the measurements.
        gravity: gravity in the base frame.
        base: the base link; the model's default base if ``None``.
        floating: whether ``samples.torques`` starts with the six base-wrench columns.
        weights: optional per-row weights: a vector with one weight per row of a sample, or a
            mapping from joint and sensor names (a sensor's weight applies to its six rows;
            rows not named weigh 1), e.g. the inverse noise standard deviations. Both ``Y``
            and ``y`` are multiplied by them.

    Raises:
        ModelError: the samples do not fit the model.
        UnknownNameError: a sensor or weighted joint does not exist.
    """
    nt = model.n_dofs + (6 if floating else 0)
    if samples.torques is not None and samples.torques.shape[1] != nt:
        have = samples.torques.shape[1]
        raise ModelError(
            f"Samples.torques has {have} columns but the model needs {nt} "
            + ("(6 base-wrench components, then n_dofs)" if floating else "(n_dofs)")
            + ("; pass floating=True if the base wrench is included" if have == nt + 6 else "")
        )
    sensors = list(samples.wrenches)
    Y = regressor_batch(
        model,
        samples.q,
        samples.dq,
        samples.ddq,
        gravity=gravity,
        base=base,
        floating=floating,
        base_velocity=samples.base_velocity,
        base_acceleration=samples.base_acceleration,
        sensors=sensors,
    )
    parts = [samples.wrenches[name] for name in sensors]
    if samples.torques is None:
        Y = Y[:, nt:]
    else:
        parts.insert(0, samples.torques)
    y = np.concatenate(parts, axis=1)
    if weights is not None:
        wv = row_weights(model, samples, weights, floating=floating)
        Y *= wv[None, :, None]
        y *= wv[None, :]
    return Y.reshape(-1, Y.shape[2]), y.reshape(-1)


def row_weights(
    model: Model,
    samples: Samples,
    weights: npt.ArrayLike | Mapping[str, float],
    *,
    floating: bool = False,
) -> FloatArray:
    """Return the weight of each row of one sample (see ``weights`` of :func:`stack`).

    Raises:
        ModelError: a vector of the wrong size, or a fixed joint named.
        UnknownNameError: a name is neither a moving joint nor a sensor of ``samples``.
    """
    names = row_names(model, samples, floating=floating)
    if not isinstance(weights, Mapping):
        return real_vector(weights, "weights", size=len(names), count="rows per sample")
    out = np.ones(len(names))
    position = {n: k for k, n in enumerate(names)}
    for name, value in weights.items():
        if name in samples.wrenches:
            k = position[f"{name}_fx"]
            out[k : k + 6] = float(value)
        elif name in position and name != "":
            out[position[name]] = float(value)
        else:
            joint = model.joint(name)  # an unknown name raises here
            raise ModelError(
                f"weights: {name!r} has no row"
                + (" (a fixed joint has no torque)" if joint.n_dofs == 0 else "")
                + "; name moving joints or sensors of the samples"
            )
    return out
