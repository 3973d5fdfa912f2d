"""Joint states, and the one rule by which every function reads joint values.

A :class:`JointState` carries ``q``, ``dq`` and ``ddq`` as read-only vectors, checked once when
it is built. Every function that takes joint values takes them in three forms
(:func:`joint_values`):

* a vector in coordinate order (``joint.pos_coord_offset`` for positions,
  ``joint.dof_offset`` for velocities and accelerations), of exactly the model's size;
* a mapping from joint names (any ``str``, ``np.str_`` included) to a number, or to a
  sequence with one number per coordinate; fixed joints have no coordinates and may not be
  named;
* a :class:`JointState` (its ``q``, ``dq`` or ``ddq``).

What ``None`` and the joints a mapping leaves out mean follows from whether the argument can
be left out:

* a *required* value (the configuration of kinematics, dynamics, sensing and the regressor:
  :func:`positions_of`, :func:`state_of`) refuses ``None`` and a mapping that leaves out a
  moving joint: a forgotten joint would silently sit at zero and give a plausible but wrong
  answer;
* an *optional* value (a transformer's ``locked_positions``, the pose of a drawing or a scene:
  ``positions_of(..., required=False)``) means zero when left out, so ``None`` is all zeros
  and the joints a mapping leaves out are zero, as in iDynTree.

Batch functions take an ``(N, n)`` array, one configuration per row, and nothing else.

>>> import robomodel as rm
>>> m = rm.add_link(rm.Model(), "base")
>>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 0, 1)))
>>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
>>> positions_of(m, {"j": 0.5}).tolist()
[0.5]
>>> positions_of(m, None, required=False).tolist()
[0.0]
>>> JointState.from_names(m, positions={"j": 0.5}, velocities={"j": 1.0}).dq.tolist()
[1.0]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Literal, TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import immutable
from robomodel.errors import ArgumentError, ModelError
from robomodel.model.record import Model
from robomodel.model.validation import (
    check_choice,
    check_index,
    check_length,
    check_type,
    real_number,
    real_vector,
    shown,
    where_prefix,
)

__all__ = [
    "Configuration",
    "JointState",
    "JointValues",
    "Missing",
    "frame_index_of",
    "joint_values",
    "joint_vector_permutation",
    "link_index_of",
    "positions_of",
    "state_of",
]

JointValues: TypeAlias = "npt.ArrayLike | Mapping[str, float | Sequence[float]]"
"""Joint values: a vector in coordinate order, or a mapping from joint names to values."""

Missing: TypeAlias = Literal["zero", "raise"]
"""What a joint-name mapping means for the joints it leaves out."""

Coordinates: TypeAlias = Literal["positions", "velocities", "accelerations"]

FloatArray = npt.NDArray[np.float64]


# Stored in a value: over immutable bytes (real_vector's copy is only setflags(write=False)).
def _q(v: npt.ArrayLike) -> FloatArray:
    return immutable(real_vector(v, "JointState.q"))


def _dq(v: npt.ArrayLike) -> FloatArray:
    return immutable(real_vector(v, "JointState.dq"))


def _ddq(v: npt.ArrayLike) -> FloatArray:
    return immutable(real_vector(v, "JointState.ddq"))


@attrs.frozen(eq=False)
class JointState:
    """Joint positions, velocities and accelerations of a model, as read-only vectors.

    ``q`` is in position-coordinate order (``joint.pos_coord_offset``); ``dq`` and ``ddq`` are in
    DOF order (``joint.dof_offset``). Each must be a vector of finite real numbers; the lengths
    are checked against a model when the state is used with it.

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
        check_type(model, Model, "model")
        return cls(np.zeros(model.n_pos_coords), np.zeros(model.n_dofs), np.zeros(model.n_dofs))

    @classmethod
    def from_names(
        cls,
        model: Model,
        *,
        positions: JointValues | JointState | None = None,
        velocities: JointValues | JointState | None = None,
        accelerations: JointValues | JointState | None = None,
        missing: Missing = "raise",
    ) -> JointState:
        """Build a state from joint-name mappings (or vectors), with the rule of ``missing``.

        Each of ``positions``, ``velocities`` and ``accelerations`` is read by
        :func:`joint_values`: a mapping from joint names to values, a vector in coordinate
        order, or a :class:`JointState` (its vector of that kind); ``None`` (the default of
        each) means all zero. With ``missing="raise"`` (the default) a mapping must name
        every moving joint; with ``missing="zero"`` the joints it leaves out are zero. Fixed
        joints have no coordinates and must not appear.

        Raises:
            UnknownNameError: a name is not a joint of the model.
            ModelError: a name is a fixed joint, a moving joint is missing (``"raise"``), or a
                vector has the wrong size.
            ArgumentError: a value is not a finite real number.
        """
        where = "JointState.from_names"
        check_type(model, Model, "model")
        return cls(
            joint_values(model, positions, kind="positions", missing=missing, where=where),
            joint_values(model, velocities, kind="velocities", missing=missing, where=where),
            joint_values(model, accelerations, kind="accelerations", missing=missing, where=where),
        )

    def check(self, model: Model) -> JointState:
        """Return this state if its sizes fit ``model``; raise :class:`ModelError` otherwise."""
        check_type(model, Model, "model")
        check_length(self.q, model.n_pos_coords, "q (positions)", count="n_pos_coords")
        check_length(self.dq, model.n_dofs, "dq (velocities)", count="n_dofs")
        check_length(self.ddq, model.n_dofs, "ddq (accelerations)", count="n_dofs")
        return self

    def permute(self, model_from: Model, model_to: Model) -> JointState:
        """Return this state of ``model_from`` in the coordinate order of ``model_to``.

        Values move by joint name (:func:`joint_vector_permutation`): use it to carry a state
        between two models of one robot whose joints are numbered differently, such as a URDF
        loaded by robomodel and the same file loaded by iDynTree.

        Raises:
            ModelError: the state does not fit ``model_from``, or the two models do not have
                the same moving joints.

        >>> import robomodel as rm
        >>> m = rm.add_link(rm.Model(), "a")
        >>> for i, name in enumerate(["j1", "j2"]):
        ...     j = rm.RevoluteJoint(link1="a", link2=f"b{i}", axis_in_link1=rm.Axis((0, 0, 1)))
        ...     m = rm.add_joint_and_link(m, "a", name, j, f"b{i}", rm.Link())
        >>> from robomodel.transformers import reorder_joints
        >>> other, _ = reorder_joints(m, ["j2", "j1"])
        >>> JointState([1.0, 2.0], [3.0, 4.0], [5.0, 6.0]).permute(m, other).q.tolist()
        [2.0, 1.0]
        """
        self.check(model_from)
        pos = joint_vector_permutation(model_from, model_to, kind="positions")
        dof = joint_vector_permutation(model_from, model_to, kind="velocities")
        return JointState(self.q[pos], self.dq[dof], self.ddq[dof])

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


Configuration: TypeAlias = "JointState | npt.ArrayLike | Mapping[str, float]"
"""Joint positions as a function takes them: a state, a vector, or a joint-name mapping."""


def positions_of(
    model: Model, q: Configuration | None, *, what: str = "q", required: bool = True
) -> FloatArray:
    """Return the joint positions meant by ``q`` as a read-only vector in coordinate order.

    ``q`` is a :class:`JointState` (its ``q``), a vector of ``model.n_pos_coords`` positions,
    or a mapping from joint names to positions (:func:`joint_values`). With ``required`` (a
    configuration) the mapping must name every moving joint and ``None`` is refused; without
    (an optional pose) ``None`` is all zeros and the joints a mapping leaves out are zero.

    Raises:
        ArgumentError: ``q`` is not real numbers (a string, a ragged list, complex, NaN ...),
            or ``None`` where it is required.
        ModelError: the wrong size, or a mapping leaves out a moving joint (``required``).
        UnknownNameError: a mapping names a joint the model does not have.
    """
    check_type(model, Model, "model")
    if (
        type(q) is np.ndarray
        and q.dtype == np.float64
        and q.shape == (model.n_pos_coords,)
        and math.isfinite(q.sum())
    ):
        # The common case, a float vector of the right size, in a few microseconds: a finite sum
        # proves every entry finite (a NaN or an infinity makes it NaN or infinite; a sum that
        # overflows only sends the vector down the full check).
        out = q.copy()
        out.setflags(write=False)
        return out
    if isinstance(q, JointState):
        check_length(q.q, model.n_pos_coords, what, count="n_pos_coords")
        return q.q
    if q is None and required:
        # joint_values reads None as all zero; a configuration must be given (JointState.zeros).
        raise ArgumentError(
            f"{what} must be joint positions (a vector, a joint-name mapping or a JointState), "
            "but got None; use JointState.zeros(model) for the zero configuration"
        )
    missing: Missing = "raise" if required else "zero"
    return joint_values(model, q, kind="positions", missing=missing, what=what)


def state_of(model: Model, state: Configuration, *, what: str = "state") -> JointState:
    """Return the :class:`JointState` meant by ``state``, checked against ``model``.

    A :class:`JointState` is used as it is; joint positions alone (a vector or a joint-name
    mapping, read as by :func:`positions_of`) mean the model at rest there, with zero
    velocities and accelerations.

    Raises:
        ArgumentError: the values are not real numbers.
        ModelError: a size does not fit the model, or a mapping leaves out a moving joint.
        UnknownNameError: a mapping names a joint the model does not have.
    """
    if isinstance(state, JointState):
        return state.check(model)
    q = positions_of(model, state, what=f"{what} (positions)")
    zero = np.zeros(model.n_dofs)
    return JointState(q, zero, zero)


def joint_vector_permutation(
    model_from: Model, model_to: Model, *, kind: str = "positions"
) -> npt.NDArray[np.intp]:
    """Return the index array ``p`` with ``v_to = v_from[p]``, matching joints by name.

    ``v_from`` is a vector of joint values of ``model_from`` in its coordinate order
    (``kind="positions"``: ``pos_coord_offset``, size ``n_pos_coords``; ``"velocities"`` or
    ``"accelerations"``: ``dof_offset``, size ``n_dofs``); ``v_from[p]`` is the same values in
    ``model_to``'s order. Fixed joints carry no values and are not compared. The values are
    moved, not converted: a joint of the same name is taken to have the same axis and zero.

    Raises:
        ArgumentError: a model is not a Model, or ``kind`` is not one of the three kinds.
        ModelError: the two models do not have the same moving joints with the same numbers
            of coordinates (the message names the differences).

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "a")
    >>> for i, name in enumerate(["j1", "j2", "j3"]):
    ...     j = rm.RevoluteJoint(link1="a", link2=f"b{i}", axis_in_link1=rm.Axis((0, 0, 1)))
    ...     m = rm.add_joint_and_link(m, "a", name, j, f"b{i}", rm.Link())
    >>> from robomodel.transformers import reorder_joints
    >>> other, _ = reorder_joints(m, ["j3", "j1", "j2"])
    >>> joint_vector_permutation(m, other).tolist()
    [2, 0, 1]
    """
    check_type(model_from, Model, "model_from")
    check_type(model_to, Model, "model_to")
    check_choice(kind, ("positions", "velocities", "accelerations"), "kind")
    pos = kind == "positions"

    def coords(m: Model) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for name, j in zip(m.joint_names, m.joints, strict=True):
            width = j.n_pos_coords if pos else j.n_dofs
            if width:
                out[name] = (j.pos_coord_offset if pos else j.dof_offset, width)
        return out

    a, b = coords(model_from), coords(model_to)
    if a.keys() != b.keys() or any(a[k][1] != b[k][1] for k in a):
        only_from = sorted(a.keys() - b.keys())
        only_to = sorted(b.keys() - a.keys())
        widths = sorted(k for k in a.keys() & b.keys() if a[k][1] != b[k][1])
        parts = [
            f"only model_from moves {only_from}" if only_from else "",
            f"only model_to moves {only_to}" if only_to else "",
            f"{widths} have different numbers of coordinates" if widths else "",
        ]
        raise ModelError(
            "joint values can move between two models only when both have the same moving "
            f"joints: {'; '.join(p for p in parts if p)}"
        )
    perm = np.empty(sum(w for _, w in b.values()), dtype=np.intp)
    for name, (start, width) in b.items():
        src = a[name][0]
        perm[start : start + width] = np.arange(src, src + width)
    return perm


def joint_values(
    model: Model,
    values: JointValues | JointState | None,
    *,
    kind: Coordinates = "positions",
    missing: Missing = "zero",
    where: str = "",
    what: str = "",
) -> FloatArray:
    """Return joint ``values`` of ``model`` as a read-only vector in coordinate order.

    Args:
        model: the model the values belong to.
        values: a vector of the right size, a mapping ``joint name -> value`` (a number, or a
            sequence with one number per coordinate), a :class:`JointState` (its vector of
            ``kind``), or ``None`` (all zero).
        kind: ``"positions"`` (size ``n_pos_coords``, ``pos_coord_offset``) or ``"velocities"``
            / ``"accelerations"`` (size ``n_dofs``, ``dof_offset``).
        missing: for a mapping, what the moving joints it leaves out get: ``"zero"`` or
            ``"raise"`` (a :class:`ModelError` naming them).
        where: the function or option name, put in front of every message.
        what: the argument's name in messages (``"q"``); ``kind`` if empty.

    Raises:
        ArgumentError: the values are not numbers, or not finite.
        UnknownNameError: a mapping names a joint the model does not have.
        ModelError: the wrong size, a fixed joint named, or joints missing with
            ``missing="raise"``.
    """
    check_choice(missing, ("zero", "raise"), "missing")
    pos = kind == "positions"
    n = model.n_pos_coords if pos else model.n_dofs
    label = f"{where_prefix(where)}{what or kind}"
    if values is None:
        return real_vector(np.zeros(n), label)
    if isinstance(values, JointState):
        vector = values.q if pos else values.dq if kind == "velocities" else values.ddq
        check_length(vector, n, label, count="n_pos_coords" if pos else "n_dofs")
        return vector
    if not isinstance(values, Mapping):
        return real_vector(values, label, size=n, count="n_pos_coords" if pos else "n_dofs")
    out = np.zeros(n)
    seen: set[str] = set()
    for name, value in values.items():
        if not isinstance(name, str):
            raise ArgumentError(f"{label}: keys must be joint names, but got {shown(name)}")
        if type(name) is not str:
            name = str.__str__(name)  # np.str_ and other str subclasses: messages show a name
        joint = model.joint(name)
        width = joint.n_pos_coords if pos else joint.n_dofs
        if width == 0:
            raise ModelError(f"{label}: joint {name!r} is fixed and has no {kind}; leave it out")
        if (
            isinstance(value, Sequence | np.ndarray)
            and not isinstance(value, str)
            and np.ndim(value)
        ):
            coords = [real_number(v, f"{label} of joint {name!r}") for v in value]
        else:
            coords = [real_number(value, f"{label} of joint {name!r}")]
        if len(coords) != width:
            raise ModelError(
                f"{label}: joint {name!r} has {width} coordinate(s), but {len(coords)} value(s) "
                "were given for it"
            )
        start = joint.pos_coord_offset if pos else joint.dof_offset
        out[start : start + width] = coords
        seen.add(name)
    if missing == "raise":
        absent = [
            name
            for name, joint in zip(model.joint_names, model.joints, strict=True)
            if joint.n_dofs and name not in seen
        ]
        if absent:
            head = f"{label} are" if not what or what == kind else f"{label}: {kind} are"
            raise ModelError(
                f"{head} missing for joints {absent}; give a value for every moving joint"
            )
    out.setflags(write=False)
    return out


def link_index_of(
    model: Model, link: object, *, what: str = "base", allow_none: bool = True
) -> int:
    """Return the link index meant by ``link``: a name, an index, or ``None`` (default base).

    With ``allow_none=False``, ``None`` is refused like any other non-link.

    Raises:
        ArgumentError: ``link`` is neither a string nor an integer (``1.0`` and ``True`` are
            refused).
        UnknownNameError: no such link (:class:`UnknownIndexError` for an index).
    """
    if link is None and allow_none:
        return model.default_base_index
    if isinstance(link, str):
        return model.link_index(link)
    if isinstance(link, bool) or not isinstance(link, (Integral, np.integer)):
        raise ArgumentError(f"{what} must be a link name or index, but got {shown(link)}")
    return check_index(link, model.n_links, "link")


def frame_index_of(model: Model, frame: object, *, what: str = "frame") -> int:
    """Return the frame index meant by ``frame``: a link or additional frame name, or an index.

    Raises:
        ArgumentError: ``frame`` is neither a string nor an integer.
        UnknownNameError: no such frame (:class:`UnknownIndexError` for an index).
    """
    if isinstance(frame, str):
        return model.frame_index(frame)
    if isinstance(frame, bool) or not isinstance(frame, (Integral, np.integer)):
        raise ArgumentError(f"{what} must be a frame name or index, but got {shown(frame)}")
    return check_index(frame, model.n_frames, "frame")
