"""Forward kinematics, centre of mass and composite inertia: pure functions of a model and ``q``.

Every function follows the model's traversal from a base link (the default base unless ``base``
is given) and composes each joint's undirected transform, so the result does not depend on how
the joints happen to be stored (``link1``/``link2``). Poses are ``base_H_link``: the pose of a
link frame in the base frame.

:func:`forward_kinematics_batch` does the same as :func:`forward_kinematics` for N
configurations at once, vectorised over N.

Joint positions ``q`` are a :class:`JointState` (from :mod:`robomodel.physics.joint_state`,
re-exported
here), a vector in position-coordinate order, or a mapping from joint names naming every moving
joint (:func:`robomodel.physics.joint_state.positions_of`); ``base`` is keyword-only, a link name or
index. Per model and base, the joint data the loops need is gathered once into arrays
(:mod:`robomodel.physics._kinematic_tree`), cached on the model.

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

from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import immutable
from robomodel.errors import ModelError
from robomodel.model.record import Model
from robomodel.model.spatial import SpatialInertia, Transform
from robomodel.model.validation import check_type, keyword_options, real_array
from robomodel.physics._batch_poses import (
    BatchPoses,
    fill,
    frame_indices,
    fresh_poses,
    layout_of,
    matching,
)
from robomodel.physics._kinematic_tree import (
    KinematicTree,
    poses,
    require_complete,
    skew_stack,
    tree_of,
)
from robomodel.physics.joint_state import Configuration, JointState, frame_index_of, positions_of

__all__ = [
    "BatchPoses",
    "Configuration",
    "ForwardKinematics",
    "JointState",
    "center_of_mass",
    "forward_kinematics",
    "forward_kinematics_batch",
    "relative_transform",
    "total_spatial_inertia",
]

FloatArray = npt.NDArray[np.float64]


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
            UnknownNameError: no frame has that name or index.
            ArgumentError: ``frame`` is neither a name nor an integer index.
            ModelError: the frame's link is not connected to the base.
        """
        m = self.model
        i = frame_index_of(m, frame)
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
    model: Model, q: Configuration, *, base: str | int | None = None
) -> ForwardKinematics:
    """Return the pose of every link and frame relative to ``base`` at positions ``q``.

    Args:
        model: the model.
        q: joint positions: a vector in position-coordinate order, a mapping from joint names
            (every moving joint), or a :class:`JointState`.
        base: the base link (name or index); the model's default base if ``None``.

    Raises:
        ArgumentError: ``q`` is not real numbers, or ``base`` not a link name or index.
        ModelError: ``q`` has the wrong size.
        UnknownNameError: the base, or a joint named in ``q``, does not exist.
    """
    plan = tree_of(model, base)
    T = poses(plan, positions_of(model, q))
    if plan.by_link is not None:
        out = T.take(plan.by_link, axis=0)
    else:
        out = np.full((model.n_links, 4, 4), np.nan)
        out[plan.order] = T
    # Over immutable memory, like every array of a value: a result handed to many users (and
    # the transforms viewing it) must not be writable again through setflags.
    return ForwardKinematics(model, plan.base, immutable(out))


def relative_transform(
    model: Model, q: Configuration, frame_a: str | int, frame_b: str | int
) -> Transform:
    """Return ``a_H_b``, the pose of frame ``b`` in frame ``a``, at positions ``q``.

    Both frames may be links or additional frames; they must be connected by the model's joints.
    """
    fa = frame_index_of(check_type(model, Model, "model"), frame_a, what="frame_a")
    fb = frame_index_of(model, frame_b, what="frame_b")
    fk = forward_kinematics(model, q, base=model.frame_link(fa))
    T = fk.base_H_frame(fb)
    return model.frame_transform(fa).inverse() @ T


@keyword_options("frames")
def forward_kinematics_batch(
    model: Model,
    Q: npt.ArrayLike,
    *,
    frames: Sequence[str | int] | None = None,
    base: str | int | None = None,
    out: BatchPoses | None = None,
) -> dict[str, FloatArray]:
    """Return ``base_H_frame`` for many configurations at once.

    The work is vectorised over configurations: the Python loop runs over the links that lead to
    the requested frames, and each step is a few whole-array operations on all configurations.

    Args:
        model: the model.
        Q: (N, n_pos_coords) joint positions, one configuration per row in coordinate order
            (an array only: no joint-name mapping, no ``JointState``, no ``None``).
        frames: frame names or indices (links or additional frames); all frames if ``None``.
            Keyword-only; passing it by position still works for one release, with a
            :class:`DeprecationWarning`.
        base: the base link; the model's default base if ``None``.
        out: a :class:`BatchPoses` made for this model, N, ``frames`` and ``base``, whose
            memory the call writes into instead of allocating new arrays; ``None``: fresh arrays.

    Returns:
        A dict from frame name to an (N, 4, 4) array of homogeneous transforms, in the order the
        frames were requested. Each array is a read-only transposed view of a (4, 4, N) buffer
        (``np.ascontiguousarray`` gives a C-ordered copy); all of them share one allocation,
        and a frame fixed to its link at the identity shares the link's buffer. Without
        ``out`` the arrays are new and the caller's to keep. With ``out`` they are ``out``'s
        memory, the same arrays on every call: the next call with ``out`` overwrites them.

    Raises:
        ArgumentError: ``Q`` is not an (N, n_pos_coords) array of finite real numbers,
            ``frames`` is not a list of frame names or indices, or ``out`` is not a
            :class:`BatchPoses` made for this model, N, ``frames`` and ``base``.
        ModelError: a frame is not connected to the base.
        UnknownNameError: a frame does not exist.
    """
    plan = tree_of(model, base)
    Qa = real_array(Q, "Q", shape=(None, model.n_pos_coords), copy=False)
    if out is not None:
        lay, buf, views = matching(out, model, plan, frames, Qa.shape[0])
        # Configurations along the last (contiguous) axis, like the buffer's slots.
        fill(lay, buf, np.ascontiguousarray(Qa.T))
        return dict(views)
    lay = layout_of(model, plan, frame_indices(model, frames))
    return fresh_poses(lay, np.ascontiguousarray(Qa.T))


# --------------------------------------------------------------------------- mass distribution


def _mass_terms(
    model: Model, q: Configuration, base: str | int | None, what: str
) -> tuple[KinematicTree, FloatArray]:
    plan = tree_of(model, base)
    require_complete(plan, model, what)
    return plan, poses(plan, positions_of(model, q))


def center_of_mass(model: Model, q: Configuration, *, base: str | int | None = None) -> FloatArray:
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
    model: Model, q: Configuration, *, base: str | int | None = None
) -> SpatialInertia:
    """Return the inertia of the whole model, as one rigid body, expressed in the base frame.

    This is the composite rigid-body inertia at positions ``q``: the sum of every link inertia
    moved into the base frame.
    """
    plan, T = _mass_terms(model, q, base, "the total spatial inertia")
    R, p = T[:, :3, :3], T[:, :3, 3]
    m = plan.mass
    Rh = np.einsum("kij,kj->ki", R, plan.h)
    Sp = skew_stack(p)
    SRh = skew_stack(Rh)
    # Inertia about the base origin of each link: R I_O R^T - S(Rh)S(p) - S(p)S(Rh) - m S(p)^2.
    I_O = (
        R @ plan.I_O @ R.transpose(0, 2, 1) - SRh @ Sp - Sp @ SRh - m[:, None, None] * (Sp @ Sp)
    ).sum(axis=0)
    h = (Rh + m[:, None] * p).sum(axis=0)
    if not (np.isfinite(I_O).all() and np.isfinite(h).all()):
        # Finite but huge prismatic positions (beyond ~1e150) overflow the squared distances.
        raise ModelError(
            "the total spatial inertia overflows at these positions; give joint positions of "
            "a physical size"
        )
    return SpatialInertia(float(m.sum()), h, 0.5 * (I_O + I_O.T))
