"""The memory of ``forward_kinematics_batch``: its layout, its kernel and a reusable workspace.

:func:`robomodel.physics.kinematics.forward_kinematics_batch` writes the poses of N configurations
into one float64 buffer of ``(slots, 4, 4, N)``: one slot per link on the way from the base to
a requested frame, then one per requested additional frame that is not its link's frame at the
identity. Each slot holds a transform transposed, ``[column, row, configuration]``, so that a
column of a rotation (the operand of every step of ``robomodel.physics._pose_columns``) is one
contiguous ``(3, N)`` block; the results are ``(N, 4, 4)`` views of the slots.

A fresh buffer costs more than the arithmetic: at 10,000 configurations of iCub's 273 frames
it is 343 MB of new pages, which the kernel zeroes on first touch. :class:`BatchPoses` is
memory a caller keeps and hands back (``out=``), like Pinocchio's ``Data``: the next call
writes into the same pages and returns the same views.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from numbers import Integral

import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.errors import ArgumentError, ModelError
from robomodel.model.record import Model
from robomodel.physics._kinematic_tree import KinematicTree, column_steps, tree_of
from robomodel.physics._pose_columns import ColumnStep, run_step
from robomodel.physics.joint_state import frame_index_of

__all__ = ["BatchPoses", "Layout", "fill", "frame_indices", "fresh_poses", "layout_of", "matching"]

FloatArray = npt.NDArray[np.float64]


def frame_indices(model: Model, frames: Sequence[str | int] | None) -> list[int]:
    """Return the frame indices of ``frames`` (all frames if ``None``), in the order given.

    Raises:
        ArgumentError: ``frames`` is not a list of frame names or indices.
        UnknownNameError: a frame does not exist.
    """
    if frames is None:
        return list(range(model.n_frames))
    if isinstance(frames, (str, bytes, Mapping)) or not isinstance(frames, Collection):
        raise ArgumentError(
            f"frames must be a list of frame names or indices, but got {frames!r:.80}"
            + (" (wrap a single name in a list)" if isinstance(frames, str) else "")
        )
    return [frame_index_of(model, f, what="each of frames") for f in frames]


class _FrameTable:
    """Per model: every frame's name and link, and each additional frame's product weights.

    ``weights[i]`` is the ``(4, 4)`` block ``[column of the frame, column of its link]`` of
    ``link_H_frame``, the left operand of ``_frame_group``; ``identity[i]`` marks frames
    that are their link's frame (links, and additional frames at the identity).
    """

    def __init__(self, model: Model) -> None:
        n = model.n_links
        self.names = list(model.link_names) + model.frame_names
        self.link = list(range(n)) + [model.frame_link(i) for i in range(n, model.n_frames)]
        self.identity = [True] * n
        self.weights = np.zeros((model.n_frames, 4, 4))
        for i, f in enumerate(model.frames, start=n):
            T = f.link_H_frame
            R, p = np.asarray(T.rotation), np.asarray(T.position)
            self.identity.append(bool(np.array_equal(R, np.eye(3)) and not np.any(p)))
            self.weights[i, :3, :3] = R.T
            self.weights[i, 3, :3] = p
            self.weights[i, 3, 3] = 1.0


def _frame_table(model: Model) -> _FrameTable:
    return memoized(model, "fk-batch-frames", lambda: _FrameTable(model))


class Layout:
    """Where each pose of one request (model, base, frames) lives in a batch buffer.

    Attributes:
        base: the base link index.
        frames: the requested frame indices without repeats, in the order first requested.
        n_links: how many slots hold links (slot 0 is the base, at the identity).
        n_slots: how many slots in all.
        link_steps: ``(slot, parent slot, step)`` for every link slot after the base.
        groups: ``(link slot, first slot, weights)`` for the additional frames of one link.
        slots: ``(frame name, slot)`` in the order of ``frames``.
    """

    __slots__ = ("base", "frames", "groups", "link_steps", "n_links", "n_slots", "slots")

    def __init__(self, model: Model, plan: KinematicTree, idx: list[int]) -> None:
        table = _frame_table(model)
        frames = list(dict.fromkeys(idx))
        # Positions whose poses are needed: the requested frames' links and all their ancestors.
        needed = np.zeros(len(plan.order), dtype=bool)
        needed[0] = True
        for i in frames:
            link = table.link[i]
            k = plan.position.get(link, -1)
            if k < 0:
                raise ModelError(
                    f"frame {table.names[i]!r} is on link {model.link_names[link]!r}, which is "
                    f"not connected to the base {model.link_names[plan.base]!r}"
                )
            while not needed[k]:
                needed[k] = True
                k = plan.parent[k]
        positions = np.nonzero(needed)[0].tolist()
        slot_of = {k: s for s, k in enumerate(positions)}
        steps = column_steps(model, plan)
        link_steps: list[tuple[int, int, ColumnStep]] = []
        for s, k in enumerate(positions[1:], start=1):
            st = steps[k - 1]
            link_steps.append((s, slot_of[st.parent], st))
        # Additional frames, grouped by link: a frame fixed to its link at the identity shares
        # the link's slot; the others of one link are computed together (see _frame_group).
        by_link: dict[int, list[int]] = {}
        for i in frames:
            if not table.identity[i]:
                by_link.setdefault(slot_of[plan.position[table.link[i]]], []).append(i)
        frame_slot = {i: slot_of[plan.position[table.link[i]]] for i in frames}
        groups: list[tuple[int, int, FloatArray]] = []
        s = len(positions)
        for link_slot, members in by_link.items():
            groups.append((link_slot, s, table.weights[members].reshape(4 * len(members), 4)))
            frame_slot.update(zip(members, range(s, s + len(members)), strict=True))
            s += len(members)
        self.base = plan.base
        self.frames = tuple(frames)
        self.n_links = len(positions)
        self.n_slots = s
        self.link_steps = tuple(link_steps)
        self.groups = tuple(groups)
        self.slots = tuple((table.names[i], frame_slot[i]) for i in frames)


def layout_of(model: Model, plan: KinematicTree, idx: list[int]) -> Layout:
    """Return the layout of ``idx`` (frame indices) from ``plan``'s base.

    The layout of all frames is cached on the model; subsets are laid out again on each call
    (a few microseconds a frame), so that no cache grows with the subsets a caller asks for.
    """
    if len(idx) == model.n_frames and idx == list(range(model.n_frames)):
        return memoized(model, ("fk-batch-layout", plan.base), lambda: Layout(model, plan, idx))
    return Layout(model, plan, idx)


def _new_buffer(lay: Layout, n: int) -> FloatArray:
    # Zeroed memory, which a large allocation gets from the kernel at no extra cost, with the
    # constant entries set: row 3 of every slot is [0, 0, 0, 1] and the base's slot is the
    # identity. Neither the steps nor _frame_group write them.
    buf = np.zeros((lay.n_slots, 4, 4, n))
    buf[:, 3, 3] = 1.0
    buf[0, 0, 0] = buf[0, 1, 1] = buf[0, 2, 2] = 1.0
    return buf


def _views(lay: Layout, buf: FloatArray) -> dict[str, FloatArray]:
    every = buf.transpose(0, 3, 2, 1)
    every.flags.writeable = False  # and so every view of it
    return {name: every[s] for name, s in lay.slots}


def fill(lay: Layout, buf: FloatArray, Qt: FloatArray) -> None:
    """Write the poses of the configurations ``Qt`` (n_pos_coords, N) into the slots of ``buf``.

    The constant entries (row 3 of every slot, the base's slot) must already be there
    (``_new_buffer``).
    """
    N = Qt.shape[1]
    tmp = np.empty((3, N))
    scratch = np.empty((5, 3, N))
    for s, parent, st in lay.link_steps:
        run_step(st, buf[parent], buf[s], Qt, tmp, scratch)
    for link_slot, first, W in lay.groups:
        _frame_group(buf[link_slot], W, buf[first : first + W.shape[0] // 4])


def fresh_poses(lay: Layout, Qt: FloatArray) -> dict[str, FloatArray]:
    """Return the poses of ``Qt`` as read-only views of one new buffer."""
    buf = _new_buffer(lay, Qt.shape[1])
    fill(lay, buf, Qt)
    return _views(lay, buf)


# OpenBLAS runs a matrix product on several threads above about 2**18 multiply-adds; on a busy
# machine that costs far more than it saves, so the products of _frame_group stay below.
_SERIAL_PRODUCT = 2**18


def _frame_group(Hl: FloatArray, W: FloatArray, out: FloatArray) -> None:
    """Write ``base_H_link @ link_H_frame`` of several frames of one link into ``out``.

    ``Hl`` is the link's (4, 4, N) slot, ``out`` (n_frames, 4, 4, N), both [column, row,
    configuration], and ``W`` the frames' stacked weights (4 n_frames, 4) (``_FrameTable``).
    Column ``m`` of a frame is a fixed combination of the link's four columns, so rows 0-2 of
    all the link's frames are one matrix product ``W @ Hl[:, :3] (4, 3 N)``; row 3 is constant
    (``_new_buffer``) and is not written.
    """
    nf = W.shape[0] // 4
    N = Hl.shape[-1]
    # Views, never copies: the slots of a buffer are C-contiguous, so rows 0-2 merge with the
    # configurations and a frame's columns with the frames.
    src = Hl[:, :3].reshape(4, 3 * N)
    dst = out[:, :, :3].reshape(4 * nf, 3 * N)
    step = max(64, _SERIAL_PRODUCT // (16 * nf))
    for a in range(0, 3 * N, step):
        np.matmul(W, src[:, a : a + step], out=dst[:, a : a + step])


# --------------------------------------------------------------------------- the workspace


class BatchPoses:
    """Reusable memory for :func:`~robomodel.physics.kinematics.forward_kinematics_batch`.

    Made for one request (a model, ``n`` configurations, the frames and the base), it holds the
    poses of the last call that was given it as ``out=``: that call writes into its memory and
    returns views of it, the same arrays every time, instead of allocating a new result. This
    is what Pinocchio's ``Data`` is to its algorithms: the results of one call are valid until
    the next call into the same workspace overwrites them (copy what you keep), and one
    workspace serves one call at a time (give each thread its own).

    Args:
        model: the model.
        n: the number of configurations of each call (rows of ``Q``).
        frames: frame names or indices; all frames if ``None``. Calls must ask for the same.
        base: the base link; the model's default base if ``None``. Calls must use the same.

    Raises:
        ArgumentError: ``n`` is not a non-negative int, or ``frames`` is not a list of frame
            names or indices.
        ModelError: a frame is not connected to the base.
        UnknownNameError: a frame or the base does not exist.

    >>> import numpy as np
    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "base")
    >>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 0, 1)))
    >>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
    >>> ws = rm.BatchPoses(m, 2, ["arm"])
    >>> first = rm.forward_kinematics_batch(m, np.zeros((2, 1)), frames=["arm"], out=ws)
    >>> second = rm.forward_kinematics_batch(m, np.ones((2, 1)), frames=["arm"], out=ws)
    >>> first["arm"] is second["arm"]  # the same memory, now holding the second batch
    True
    """

    __slots__ = ("_buf", "_given", "_layout", "_model", "_views")

    def __init__(
        self,
        model: Model,
        n: int,
        frames: Sequence[str | int] | None = None,
        *,
        base: str | int | None = None,
    ) -> None:
        plan = tree_of(model, base)
        if isinstance(n, bool) or not isinstance(n, (Integral, np.integer)) or n < 0:
            raise ArgumentError(
                f"n must be a non-negative int (the number of configurations), but got {n!r:.80}"
            )
        self._model: Model = model
        self._layout: Layout = layout_of(model, plan, frame_indices(model, frames))
        # The frames argument as given, so that a call with the same one skips the name lookups.
        self._given: tuple[str | int, ...] | None = None if frames is None else tuple(frames)
        self._buf: FloatArray = _new_buffer(self._layout, int(n))
        self._views: dict[str, FloatArray] = _views(self._layout, self._buf)

    @property
    def model(self) -> Model:
        """The model the workspace was made for."""
        return self._model

    @property
    def base(self) -> int:
        """The base link index."""
        return self._layout.base

    @property
    def frames(self) -> tuple[str, ...]:
        """The names of the frames it holds, without repeats, in the order requested."""
        return tuple(name for name, _ in self._layout.slots)

    @property
    def n(self) -> int:
        """The number of configurations of each call."""
        return int(self._buf.shape[-1])

    def __repr__(self) -> str:
        return (
            f"BatchPoses(n={self.n}, frames={len(self._layout.slots)}, "
            f"base={self._model.link_names[self.base]!r})"
        )


def matching(
    out: object,
    model: Model,
    plan: KinematicTree,
    frames: Sequence[str | int] | None,
    n: int,
) -> tuple[Layout, FloatArray, dict[str, FloatArray]]:
    """Return the layout, buffer and views of ``out`` if it was made for this request.

    Raises:
        ArgumentError: ``out`` is not a :class:`BatchPoses`, or was made for another model,
            base, number of configurations or list of frames.
    """
    if not isinstance(out, BatchPoses):
        raise ArgumentError(
            "out must be a BatchPoses (made by BatchPoses(model, n, frames, base=...)), but got "
            f"{out!r:.80}"
        )
    fix = "; make one for this call with BatchPoses(model, n, frames, base=...)"
    if out._model is not model and out._model != model:
        raise ArgumentError("out was made for another model" + fix)
    lay = out._layout
    if lay.base != plan.base:
        raise ArgumentError(
            f"out holds poses relative to the base {model.link_names[lay.base]!r}, but this "
            f"call's base is {model.link_names[plan.base]!r}" + fix
        )
    if out._buf.shape[-1] != n:
        raise ArgumentError(
            f"out holds {out._buf.shape[-1]} configurations, but Q has {n} rows" + fix
        )
    try:  # the common case, the very frames out was made with, needs no name lookups
        same = out._given == (None if frames is None else tuple(frames))
    except (TypeError, ValueError):  # not a list of names (frame_indices says so below)
        same = False
    if not same:
        wanted = tuple(dict.fromkeys(frame_indices(model, frames)))
        if wanted != lay.frames:
            shown = [name for name, _ in lay.slots]
            raise ArgumentError(
                f"out holds the poses of {len(shown)} frames ({shown!r:.80}), not those this "
                "call asks for; pass the frames out was made with" + fix
            )
    if not out._buf.flags.writeable:
        raise ArgumentError("out's memory has been made read-only" + fix)
    return lay, out._buf, out._views
