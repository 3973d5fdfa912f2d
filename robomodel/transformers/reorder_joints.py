"""Put a model's joints in any order, and get the matching permutation of joint vectors.

Joint indices fix the layout of ``q``, ``dq`` and torque vectors, and controllers, datasets and
other libraries each want their own. :func:`reorder_joints` is a pure permutation of joint
indices (nothing else in the model changes; DOF and position-coordinate offsets are recomputed
in the new order) and returns the :class:`Permutation` that converts vectors between the two
layouts.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt
from pyrsistent.typing import PVector as PVectorT

from robomodel.errors import ModelError
from robomodel.model.joints import Joint, replace_joint
from robomodel.model.record import Frame, Link, Model
from robomodel.model.shapes import SolidShape
from robomodel.model.spatial import FloatArray
from robomodel.transformers.report import record, recording

__all__ = ["Permutation", "reorder_joints"]


def _indices(v: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(i) for i in v)


@attrs.frozen(kw_only=True)
class Permutation:
    """How joint-indexed vectors move between an old and a new joint order.

    Each tuple says, for every new index, which old index it takes: ``new[k] = old[p[k]]``.

    Attributes:
        joints: new joint ``k`` is old joint ``joints[k]``.
        pos_coords: new ``q[k]`` is old ``q[pos_coords[k]]``.
        dofs: new ``dq[k]`` (and torque ``k``) is old ``dq[dofs[k]]``.

    >>> p = Permutation(joints=(1, 0), pos_coords=(1, 0), dofs=(1, 0))
    >>> p.q([10.0, 20.0]).tolist(), p.inverse().q(p.q([10.0, 20.0])).tolist()
    ([20.0, 10.0], [10.0, 20.0])
    """

    joints: tuple[int, ...] = attrs.field(converter=_indices)
    pos_coords: tuple[int, ...] = attrs.field(converter=_indices)
    dofs: tuple[int, ...] = attrs.field(converter=_indices)

    def __attrs_post_init__(self) -> None:
        for what, p in (
            ("joints", self.joints),
            ("pos_coords", self.pos_coords),
            ("dofs", self.dofs),
        ):
            if sorted(p) != list(range(len(p))):
                raise ModelError(
                    f"Permutation.{what} = {p} is not a permutation of 0..{len(p) - 1}"
                )

    @staticmethod
    def _take(p: tuple[int, ...], v: npt.ArrayLike, what: str) -> FloatArray:
        arr = np.asarray(v, dtype=np.float64)
        if arr.ndim == 0 or arr.shape[-1] != len(p):
            raise ModelError(
                f"{what} must have {len(p)} entries (last axis), got shape {arr.shape}"
            )
        out: FloatArray = arr[..., list(p)]
        return out

    def q(self, q_old: npt.ArrayLike) -> FloatArray:
        """Return joint positions (last axis in old order) in the new order."""
        return self._take(self.pos_coords, q_old, "q")

    def dq(self, dq_old: npt.ArrayLike) -> FloatArray:
        """Return joint velocities or accelerations (last axis in old order) in the new order."""
        return self._take(self.dofs, dq_old, "dq")

    def torques(self, tau_old: npt.ArrayLike) -> FloatArray:
        """Return joint torques (last axis in old order) in the new order."""
        return self._take(self.dofs, tau_old, "torques")

    def inverse(self) -> Permutation:
        """Return the permutation from the new order back to the old one."""
        return Permutation(
            joints=np.argsort(self.joints).tolist(),
            pos_coords=np.argsort(self.pos_coords).tolist(),
            dofs=np.argsort(self.dofs).tolist(),
        )

    @property
    def is_identity(self) -> bool:
        """Whether nothing moves."""
        return self.joints == tuple(range(len(self.joints)))


def reorder_joints(model: Model, order: Sequence[str | int]) -> tuple[Model, Permutation]:
    """Return ``model`` with its joints in ``order``, and the permutation of joint vectors.

    ``order`` lists every joint exactly once, by name or index. Joint ``k`` of the result is
    ``order[k]``; position-coordinate and DOF offsets are the running totals in the new order
    (as when the joints are added one by one). Links, frames, shapes and sensors do not change,
    and neither do the kinematics; since a link's adjacency follows joint order, a traversal may
    visit siblings in a different order.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "b")
    >>> m = rm.add_joint_and_link(m, "b", "j1", rm.RevoluteJoint(link1="b", link2="c"), "c")
    >>> m = rm.add_joint_and_link(m, "b", "j2", rm.PrismaticJoint(link1="b", link2="d"), "d")
    >>> r, p = reorder_joints(m, ["j2", "j1"])
    >>> list(r.joint_names), p.dofs, p.q([0.1, 0.2]).tolist()
    (['j2', 'j1'], (1, 0), [0.2, 0.1])

    Args:
        model: the model.
        order: every joint name (or index) once, in the wanted order.

    Returns:
        ``(new_model, permutation)``; the model is the input itself when the order is unchanged.

    Raises:
        UnknownNameError: a name is not a joint of the model.
        ModelError: ``order`` is not a permutation (a joint is missing or repeated, or an index
            is out of range).
    """
    perm = _permutation(model, order)
    return _apply(model, perm), perm


def _permutation(model: Model, order: Sequence[str | int]) -> Permutation:
    if isinstance(order, str):
        raise ModelError("reorder_joints: order must be a sequence of joint names, not one string")
    idx: list[int] = []
    for x in order:
        idx.append(model.joint_index(x) if isinstance(x, str) else _joint_int(model, x))
    n = model.n_joints
    seen: set[int] = set()
    for i in idx:
        if i in seen:
            raise ModelError(
                f"reorder_joints: joint {model.joint_names[i]!r} appears twice in order; "
                "list every joint exactly once"
            )
        seen.add(i)
    if len(idx) != n:
        missing = [model.joint_names[i] for i in range(n) if i not in seen]
        raise ModelError(
            f"reorder_joints: order is not a permutation of the {n} joints; missing "
            + ", ".join(map(repr, missing))
        )
    pos: list[int] = []
    dofs: list[int] = []
    for i in idx:
        j = model.joints[i]
        pos.extend(range(j.pos_coord_offset, j.pos_coord_offset + j.n_pos_coords))
        dofs.extend(range(j.dof_offset, j.dof_offset + j.n_dofs))
    return Permutation(joints=idx, pos_coords=pos, dofs=dofs)


def _joint_int(model: Model, x: object) -> int:
    if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
        raise ModelError(f"reorder_joints: {x!r} is neither a joint name nor a joint index")
    if not 0 <= int(x) < model.n_joints:
        raise ModelError(
            f"reorder_joints: joint index {x} is out of range [0, {model.n_joints}); "
            "give joint names or indices of this model"
        )
    return int(x)


def _apply(model: Model, perm: Permutation) -> Model:
    return permute(model, joints=perm)


def permute(
    model: Model,
    *,
    links: Sequence[int] | None = None,
    joints: Permutation | None = None,
    frames: Sequence[int] | None = None,
) -> Model:
    """Return ``model`` with its links, joints and additional frames permuted (internal).

    Each permutation says, for every new index, which old index it takes (``None``: keep the
    order); what is indexed by link (links, shapes) follows ``links``. Everything else refers by
    name and does not change. Each element that changes index is recorded as ``"reordered"``.
    The input itself is returned when nothing moves.
    """
    if links is not None and list(links) == list(range(model.n_links)):
        links = None
    if joints is not None and joints.is_identity:
        joints = None
    if frames is not None and list(frames) == list(range(len(model.frames))):
        frames = None
    if links is None and joints is None and frames is None:
        return model
    reporting = recording()
    joint_names: Sequence[str] = model.joint_names
    new_joints: Sequence[Joint] = model.joints
    if joints is not None:
        joint_names, new_joints = _permuted_joints(model, joints, reporting)
    link_names: Sequence[str] = model.link_names
    link_values: Sequence[Link] = model.links
    visuals: Sequence[PVectorT[SolidShape]] = model.visuals
    collisions: Sequence[PVectorT[SolidShape]] = model.collisions
    if links is not None:
        if reporting:
            _record_moves("link", links, model.link_names)
        link_names = [model.link_names[i] for i in links]
        link_values = [model.links[i] for i in links]
        visuals = [model.visuals[i] for i in links]
        collisions = [model.collisions[i] for i in links]
    frame_values: Sequence[Frame] = model.frames
    if frames is not None:
        if reporting:
            _record_moves("frame", frames, model.frame_names)
        frame_values = [model.frames[k] for k in frames]
    return Model(
        link_names=link_names,
        links=link_values,
        joint_names=joint_names,
        joints=new_joints,
        frames=frame_values,
        default_base=model.default_base,
        visuals=visuals,
        collisions=collisions,
        sensors=model.sensors,
        package_dirs=model.package_dirs,
        name=model.name,
        materials=model.materials,
        extensions=model.extensions,
    )


def _record_moves(kind: str, order: Sequence[int], names: Sequence[str]) -> None:
    for new, old in enumerate(order):
        if new != old:
            record("reordered", kind, names[old], f"index {old} -> {new}")


def _permuted_joints(
    model: Model, perm: Permutation, reporting: bool
) -> tuple[list[str], list[Joint]]:
    if reporting:
        _record_moves("joint", perm.joints, model.joint_names)
    joints: list[Joint] = []
    npos = ndof = 0
    for i in perm.joints:
        # The offsets are the running totals in the new order, as add_joint would give them.
        j = model.joints[i]
        if j.pos_coord_offset != npos or j.dof_offset != ndof:
            j = replace_joint(j, pos_coord_offset=npos, dof_offset=ndof)
        joints.append(j)
        npos += j.n_pos_coords
        ndof += j.n_dofs
    return [model.joint_names[i] for i in perm.joints], joints
