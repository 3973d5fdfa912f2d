r"""Mimic joints: which joints are actuated, and the linear map from their values to all joints'.

A URDF ``<mimic joint="j" multiplier="m" offset="o"/>`` on joint ``k`` says ``q_k = m q_j + o``
(:class:`robomodel.model.joints.Mimic`): ``k`` follows ``j`` and has no motor of its own. A hand
whose fingers are coupled, or a gripper whose second jaw follows the first, is described this
way. Joints with no mimic relation are *actuated*; the others follow one of them, directly or
through a chain of mimics (``c`` follows ``b`` which follows ``a``), which :func:`mimic_map`
resolves into one relation per follower. A cycle (``a`` follows ``b`` which follows ``a``) has
no actuated joint to start from and is refused.

The result is affine: ``q_full = matrix @ q_actuated + offset``, and for velocities (and
accelerations) ``v_full = matrix @ v_actuated``. Full vectors are in the model's coordinate
order (``joint.pos_coord_offset``), actuated vectors in :attr:`MimicMap.actuated_names` order.

>>> from robomodel import Model, Link, RevoluteJoint, add_link, add_joint_and_link
>>> from robomodel.model.joints import Mimic
>>> m = add_link(Model(name="gripper"), "palm", Link())
>>> m = add_joint_and_link(m, "palm", "jaw", RevoluteJoint(link1="palm", link2="a"), "a", Link())
>>> twin = RevoluteJoint(link1="palm", link2="b", mimic=Mimic(joint="jaw", multiplier=-1))
>>> m = add_joint_and_link(m, "palm", "twin", twin, "b", Link())
>>> mm = mimic_map(m)
>>> mm.actuated_names, mm.mimic_names
(('jaw',), ('twin',))
>>> mm.full_positions([0.3]).tolist()
[0.3, -0.3]
>>> mm.actuated_positions([0.3, -0.3]).tolist()
[0.3]
>>> print(mm.relations[0])
twin = -1 * jaw

Full vectors are what kinematics and dynamics take, so a configuration of the actuated joints
is one call away from forward kinematics:

>>> from robomodel.physics.kinematics import forward_kinematics
>>> fk = forward_kinematics(m, mm.full_positions({"jaw": 0.3}))
>>> round(float(fk.base_H_frame("b").rotation[2, 1]), 4)  # sin(-0.3): twin turned by -0.3
-0.2955
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import immutable
from robomodel._internal.memo import memoized
from robomodel.errors import MimicError, ModelError, suggest
from robomodel.model.joints import FixedJoint, Mimic
from robomodel.model.validation import real_array
from robomodel.model.view import ModelView

__all__ = [
    "MimicError",
    "MimicMap",
    "MimicRelation",
    "dof_counts",
    "dof_counts_text",
    "mimic_map",
    "mimic_relations",
]

FloatArray = npt.NDArray[np.float64]


def _readonly(values: Any) -> FloatArray:
    # Over immutable bytes: a map is memoized per model, shared by every caller.
    return immutable(np.array(values, dtype=np.float64))


def _readonly_index(values: Any) -> npt.NDArray[np.intp]:
    # Over immutable bytes, as the float fields.
    arr = np.ascontiguousarray(values, dtype=np.intp)
    return np.frombuffer(arr.tobytes(), dtype=np.intp).reshape(arr.shape)


def _g(x: float) -> str:
    return f"{x:.6g}"


@attrs.frozen(kw_only=True)
class MimicRelation:
    """``follower = multiplier * leader + offset`` (``leader`` is actuated once resolved).

    Attributes:
        follower: the mimic joint.
        leader: the joint it follows.
        multiplier: the factor on the leader's position (and velocity).
        offset: the position added (rad or m); it does not apply to velocities.
    """

    follower: str
    leader: str
    multiplier: float
    offset: float

    def __str__(self) -> str:
        text = f"{self.follower} = {_g(self.multiplier)} * {self.leader}"
        if self.offset:
            text += f" {'-' if self.offset < 0 else '+'} {_g(abs(self.offset))}"
        return text


def mimic_relations(model: ModelView) -> tuple[MimicRelation, ...]:
    """Return the mimic relations of ``model`` as written, in joint order (not resolved).

    Each moving joint with a :class:`~robomodel.model.joints.Mimic` gives one relation whose leader
    is the joint named in it, which may itself be a mimic joint.
    """
    out = []
    for name, joint in zip(model.joint_names, model.joints, strict=True):
        mimic: Mimic | None = getattr(joint, "mimic", None)
        if mimic is not None:
            out.append(
                MimicRelation(
                    follower=name,
                    leader=mimic.joint,
                    multiplier=mimic.multiplier,
                    offset=mimic.offset,
                )
            )
    return tuple(out)


@attrs.frozen(kw_only=True, eq=False)
class MimicMap:
    """The affine map from actuated joint values to the values of every moving joint.

    ``full = matrix @ actuated + offset`` for positions, ``matrix @ actuated`` for velocities;
    going back keeps the actuated entries of a full vector. Build it with :func:`mimic_map`.

    Every row of ``matrix`` has exactly one non-zero entry (a joint follows one actuated joint,
    or is one), so the map is stored as one leader column and one multiplier per row: its size,
    and the cost of applying it, grow linearly with the number of joints. :attr:`matrix` is the
    dense form, made on request.

    Attributes:
        full_names: the moving joints, in coordinate order (the rows of ``matrix``).
        actuated_names: the joints without a mimic relation (the columns of ``matrix``).
        mimic_names: the mimic joints, in coordinate order.
        relations: one relation per mimic joint, chains resolved: each leader is actuated.
        leaders: ``(len(full_names),)``: the column (actuated joint) each row follows.
        multipliers: ``(len(full_names),)``: 1 on actuated rows, the resolved multiplier on a
            mimic joint's row.
        offset: ``(len(full_names),)``; zero on actuated rows.
    """

    full_names: tuple[str, ...]
    actuated_names: tuple[str, ...]
    mimic_names: tuple[str, ...]
    relations: tuple[MimicRelation, ...]
    leaders: npt.NDArray[np.intp] = attrs.field(converter=_readonly_index)
    multipliers: FloatArray = attrs.field(converter=_readonly)
    offset: FloatArray = attrs.field(converter=_readonly)
    _actuated_rows: npt.NDArray[np.intp] = attrs.field(
        alias="actuated_rows", converter=_readonly_index, repr=False
    )
    _columns: Mapping[str, int] = attrs.field(alias="columns", repr=False)

    @property
    def matrix(self) -> FloatArray:
        """The dense ``(len(full_names), len(actuated_names))`` matrix of the map (read-only).

        A row of an actuated joint is a unit vector, a row of a mimic joint holds its (resolved)
        multiplier. Its size is quadratic in the number of joints: prefer :meth:`full_positions`.
        """
        dense = np.zeros((self.n_full, self.n_actuated))
        dense[np.arange(self.n_full), self.leaders] = self.multipliers
        return _readonly(dense)

    @property
    def n_full(self) -> int:
        """The number of moving joints (coordinates of a full vector)."""
        return len(self.full_names)

    @property
    def n_actuated(self) -> int:
        """The number of actuated joints."""
        return len(self.actuated_names)

    @property
    def n_mimic(self) -> int:
        """The number of mimic joints."""
        return len(self.mimic_names)

    def _actuated(self, values: object, what: str) -> FloatArray:
        if isinstance(values, Mapping):
            out = np.zeros(self.n_actuated)
            for name, value in values.items():
                if name not in self._columns:
                    hint = (
                        f"; {name!r} follows another joint, give its leader's value"
                        if name in self.mimic_names
                        else suggest(name, self.actuated_names)
                    )
                    raise ModelError(f"{what}: {name!r} is not an actuated joint{hint}")
                out[self._columns[name]] = float(value)
            return out
        return self._vector(values, what, self.n_actuated, "actuated joints")

    @staticmethod
    def _vector(values: object, what: str, size: int, count: str) -> FloatArray:
        arr = real_array(values, what, shape=(None,) * np.ndim(values))  # type: ignore[arg-type]
        if arr.ndim not in (1, 2) or arr.shape[-1] != size:
            raise ModelError(
                f"{what} has shape {arr.shape}; give {size} values (one per {count[:-1]}), or "
                f"a batch of shape (N, {size})"
            )
        return arr

    def full_positions(self, actuated: object) -> FloatArray:
        """Return the positions of every moving joint from the actuated joints' positions.

        Args:
            actuated: ``n_actuated`` values in :attr:`actuated_names` order (or a batch of
                shape ``(N, n_actuated)``), or a mapping from actuated joint names (others 0).

        Returns:
            A vector in the model's coordinate order (``(N, n_full)`` for a batch).

        Raises:
            ModelError: wrong size, or a name that is not an actuated joint.
            ArgumentError: values that are not finite real numbers.
        """
        a = self._actuated(actuated, "actuated positions")
        return self._spread(a) + self.offset

    def full_velocities(self, actuated: object) -> FloatArray:
        """Return every moving joint's velocity (or acceleration) from the actuated joints'.

        As :meth:`full_positions`, without the offset.
        """
        return self._spread(self._actuated(actuated, "actuated velocities"))

    def _spread(self, actuated: FloatArray) -> FloatArray:
        """``matrix @ actuated`` (per row of a batch), without the dense matrix."""
        out: FloatArray = actuated[..., self.leaders] * self.multipliers
        return out

    def actuated_positions(self, full: object, *, atol: float | None = None) -> FloatArray:
        """Return the actuated joints' entries of a full position vector (or batch).

        Args:
            full: ``n_full`` positions in coordinate order, or a batch ``(N, n_full)``.
            atol: when given, check that every mimic joint follows its leader within ``atol``.

        Raises:
            ModelError: wrong size, or (with ``atol``) a mimic joint off its relation.
        """
        q = self._vector(full, "full positions", self.n_full, "moving joints")
        return self._back(q, atol, self.offset, "positions")

    def actuated_velocities(self, full: object, *, atol: float | None = None) -> FloatArray:
        """Return the actuated joints' entries of a full velocity vector (see above)."""
        v = self._vector(full, "full velocities", self.n_full, "moving joints")
        return self._back(v, atol, np.zeros(self.n_full), "velocities")

    def _back(
        self, full: FloatArray, atol: float | None, offset: FloatArray, what: str
    ) -> FloatArray:
        actuated: FloatArray = full[..., self._actuated_rows]
        if atol is not None:
            expected = self._spread(actuated) + offset
            error = np.abs(full - expected)
            worst = np.unravel_index(int(np.argmax(error)), error.shape)
            if error[worst] > atol:
                name = self.full_names[int(worst[-1])]
                raise ModelError(
                    f"full {what}: mimic joint {name!r} is {full[worst]:.6g} but its relation "
                    f"gives {expected[worst]:.6g} (off by {error[worst]:.3g} > atol {atol:g}); "
                    "build full vectors with full_positions"
                )
        return actuated

    def __str__(self) -> str:
        head = dof_counts_text(self.n_full, self.n_actuated)
        return "\n".join([head, *(f"  {r}" for r in self.relations)])


def dof_counts_text(n_full: int, n_actuated: int) -> str:
    """Return ``"44 DOFs (20 actuated, 24 mimic)"``, or ``"6 DOFs"`` without mimic joints."""
    plural = "s" * (n_full != 1)
    if n_actuated == n_full:
        return f"{n_full} DOF{plural}"
    return f"{n_full} DOF{plural} ({n_actuated} actuated, {n_full - n_actuated} mimic)"


def dof_counts(model: ModelView) -> str:
    """Return the DOF count of ``model`` with its actuated and mimic joints, as a phrase.

    >>> from robomodel.data import example_path
    >>> import robomodel.formats.urdf
    >>> dof_counts(robomodel.formats.urdf.load(example_path()))
    '21 DOFs'

    Raises:
        ModelError: the mimic relations cannot be resolved (see :func:`mimic_map`).
    """
    mm = mimic_map(model)
    return dof_counts_text(mm.n_full, mm.n_actuated)


def mimic_map(model: ModelView) -> MimicMap:
    """Return the map from the actuated joints of ``model`` to all its moving joints.

    Computed once per model value.

    Raises:
        MimicError: a mimic relation names a joint the model lacks or a fixed joint, or mimic
            relations form a cycle (a :class:`~robomodel.errors.ModelError`).
    """
    return memoized(model, "mimic-map", lambda: _build(model))


def _build(model: ModelView) -> MimicMap:
    # Gather: the moving joints in coordinate order, and each one's direct relation.
    moving = sorted(
        (j.pos_coord_offset, name, j)
        for name, j in zip(model.joint_names, model.joints, strict=True)
        if not isinstance(j, FixedJoint)
    )
    for _, name, joint in moving:
        if joint.dof_offset != joint.pos_coord_offset:  # pragma: no cover - no such joint yet
            raise ModelError(f"joint {name!r}: mimic maps need one position coordinate per DOF")
    full_names = tuple(name for _, name, _ in moving)
    direct = {r.follower: r for r in mimic_relations(model)}
    for r in direct.values():
        if r.leader not in full_names:
            what = "a fixed joint" if model.is_joint_name_used(r.leader) else "not a joint"
            hint = suggest(r.leader, full_names) if what == "not a joint" else ""
            raise MimicError(
                (r.follower,),
                f"mimics {r.leader!r}, which is {what} of the model{hint}; name a moving joint "
                "in its <mimic joint=...>",
            )

    # Resolve chains: follow leaders up to an actuated joint, composing the affine maps.
    resolved: dict[str, MimicRelation] = {}
    for follower in full_names:
        if follower not in direct or follower in resolved:
            continue
        path = [follower]
        leader = direct[follower].leader
        while leader in direct and leader not in resolved:
            if leader in path:
                cycle = path[path.index(leader) :]
                raise MimicError(
                    tuple(cycle),
                    "these mimic joints follow each other in a cycle ("
                    + " -> ".join([*cycle, leader])
                    + "), so none of them is driven; remove the <mimic> of one of them",
                )
            path.append(leader)
            leader = direct[leader].leader
        # ``leader`` is actuated or already resolved; fold the path back onto it.
        top = resolved.get(leader)
        root, m, o = (top.leader, top.multiplier, top.offset) if top else (leader, 1.0, 0.0)
        for name in reversed(path):
            d = direct[name]
            m, o = d.multiplier * m, d.multiplier * o + d.offset
            resolved[name] = MimicRelation(follower=name, leader=root, multiplier=m, offset=o)

    # Assemble the map: one leader column and one multiplier per row.
    actuated = tuple(n for n in full_names if n not in direct)
    column = {n: k for k, n in enumerate(actuated)}
    leaders = np.zeros(len(full_names), dtype=np.intp)
    multipliers = np.ones(len(full_names))
    offset = np.zeros(len(full_names))
    rows = np.zeros(len(actuated), dtype=np.intp)
    for i, name in enumerate(full_names):
        if name in resolved:
            r = resolved[name]
            leaders[i] = column[r.leader]
            multipliers[i] = r.multiplier
            offset[i] = r.offset
        else:
            leaders[i] = column[name]
            rows[column[name]] = i
    return MimicMap(
        full_names=full_names,
        actuated_names=actuated,
        mimic_names=tuple(n for n in full_names if n in direct),
        relations=tuple(resolved[n] for n in full_names if n in resolved),
        leaders=leaders,
        multipliers=multipliers,
        offset=offset,
        actuated_rows=rows,
        columns=MappingProxyType(column),
    )
