"""The Model record: links, joints, frames, shapes, sensors, and the queries on them.

A :class:`Model` is a frozen value: links, joints, additional frames, shapes, sensors and package
dirs in persistent vectors, with name-to-index maps that are updated persistently. The builders
(:func:`~robomodel.model.builders.add_link`, :func:`~robomodel.model.builders.add_joint`,
:func:`~robomodel.model.builders.add_frame`, ...) live in :mod:`robomodel.model.builders`; each
returns a
new model and leaves its input untouched, and adding an element costs ``O(log n)``, not a copy
of the model. Everything a model derives from its element lists (name maps, connectivity, counts,
adjacency) is one :class:`~robomodel.model.topology.ModelIndex`, made either by the builders'
append
operations or, for a model given whole, by :func:`robomodel.model.topology.derive`, which
validates it.

Index rules (the same as iDynTree's):

* link ``i`` is the ``i``-th link added; joint ``j`` the ``j``-th joint added;
* frame ``i < n_links`` is link ``i``'s own frame; frame ``n_links + k`` is the ``k``-th
  additional frame, so adding a link shifts every additional frame's index by one;
* a joint's position-coordinate and DOF offsets are the running totals when it was added.

Unlike iDynTree, a joint that would close a loop or double an existing connection is rejected,
so every model is a forest and traversals always terminate.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import finish, restore
from robomodel._internal.memo import memoized
from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.model._index import NameIndex
from robomodel.model.checks import SEVERITIES, Finding, Severity, findings
from robomodel.model.joints import Joint, joint_type_name
from robomodel.model.sensors import Sensor
from robomodel.model.shapes import Material, SolidShape
from robomodel.model.spatial import FloatArray, SpatialInertia, Transform
from robomodel.model.topology import Adjacency, ModelIndex, Neighbor, derive
from robomodel.model.topology import pv as _pv
from robomodel.model.traversal import Traversal, compute_traversal
from robomodel.model.validation import check_choice, check_index

__all__ = [
    "Extension",
    "Frame",
    "Link",
    "Model",
    "Neighbor",
    "check_model",
]


@attrs.frozen
class Link:
    """A rigid body: its :class:`SpatialInertia` in the link frame (zero by default)."""

    inertia: SpatialInertia = attrs.field(factory=SpatialInertia.zero)

    @property
    def mass(self) -> float:
        """The link mass."""
        return self.inertia.mass


@attrs.frozen
class Frame:
    """An additional frame: ``name``, the ``link`` it is fixed to, and its pose ``link_H_frame``."""

    name: str
    link: str
    link_H_frame: Transform = attrs.field(factory=Transform)


@attrs.frozen(kw_only=True)
class Extension:
    """A piece of description robomodel does not model, kept verbatim so that nothing is lost.

    Attributes:
        owner_kind: ``"robot"``, ``"link"``, ``"frame"``, ``"joint"`` or ``"sensor"``; or
            ``"inertial"`` (inside a link's ``<inertial>``) or ``"force_torque"`` (inside an F/T
            sensor's ``<force_torque>``), owned by that link or sensor. (Children robomodel does
            not model inside a ``<visual>``, ``<collision>`` or ``<material>`` travel with the
            value instead: :attr:`robomodel.model.shapes.SolidShape.extensions`.)
        owner: the owning element's name (``""`` for the robot).
        xml: the element's XML text, exactly as read.
        tag: the element's tag (``"gazebo"``, ``"transmission"``, ``"mimic"``, ...).
    """

    owner_kind: str
    owner: str
    xml: str
    tag: str = ""


@attrs.frozen(kw_only=True, cache_hash=True, repr=False)
class Model:
    """A multibody model as an immutable value.

    Build one with :func:`add_link`, :func:`add_joint`, :func:`add_frame` and friends, or load one
    with :func:`robomodel.formats.urdf.load`. Two models built by the same steps are ``==`` and hash
    alike.

    >>> from robomodel import Model, Link, add_link, add_joint_and_link
    >>> m = add_link(Model(), "base", Link())
    >>> m = add_joint_and_link(m, "base", "j1", "arm", kind="revolute", axis=(0, 0, 1))
    >>> m.n_links, m.n_joints, m.n_dofs, m.link_index("arm")
    (2, 1, 1, 1)

    Attributes:
        link_names: link names, by link index.
        links: links, by link index.
        joint_names: joint names, by joint index.
        joints: joints, by joint index.
        frames: the additional frames, in insertion order (frame index ``n_links + k``).
        default_base: name of the default base link (``None`` for an empty model).
        visuals: per link index, its visual shapes.
        collisions: per link index, its collision shapes.
        sensors: the sensors, in insertion order.
        package_dirs: directories searched for ``package://`` mesh URIs.
        name: the robot name (iDynTree drops it; robomodel keeps it).
        materials: robot-level materials (URDF ``<robot><material>``), in document order.
        extensions: description elements kept verbatim (``<gazebo>``, ``<transmission>``, ...).
    """

    link_names: PVectorT[str] = attrs.field(factory=pvector, converter=_pv)
    links: PVectorT[Link] = attrs.field(factory=pvector, converter=_pv)
    joint_names: PVectorT[str] = attrs.field(factory=pvector, converter=_pv)
    joints: PVectorT[Joint] = attrs.field(factory=pvector, converter=_pv)
    frames: PVectorT[Frame] = attrs.field(factory=pvector, converter=_pv)
    default_base: str | None = None
    visuals: PVectorT[PVectorT[SolidShape]] = attrs.field(factory=pvector, converter=_pv)
    collisions: PVectorT[PVectorT[SolidShape]] = attrs.field(factory=pvector, converter=_pv)
    sensors: PVectorT[Sensor] = attrs.field(factory=pvector, converter=_pv)
    package_dirs: PVectorT[str] = attrs.field(factory=pvector, converter=_pv)
    name: str = ""
    materials: PVectorT[Material] = attrs.field(factory=pvector, converter=_pv)
    extensions: PVectorT[Extension] = attrs.field(factory=pvector, converter=_pv)

    # Everything derived from the fields above, as one value: made by ``derive`` in
    # ``__attrs_post_init__`` (so ``Model(...)`` and ``attrs.evolve`` always re-derive and
    # validate), or by the builders' append operations, which hand it to ``replace(Model)``.
    _index: ModelIndex = attrs.field(init=False, eq=False)
    # Per-value memo (traversals, plans: see ``memoized``); never carried to a new value.
    _memo: dict[Any, Any] | None = attrs.field(init=False, default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        d = derive(
            link_names=self.link_names,
            links=self.links,
            joint_names=self.joint_names,
            joints=self.joints,
            frames=self.frames,
            default_base=self.default_base,
            visuals=self.visuals,
            collisions=self.collisions,
            sensors=self.sensors,
        )
        finish(
            self,
            joints=d.joints,
            default_base=d.default_base,
            visuals=d.visuals,
            collisions=d.collisions,
            _index=d.model_index,
        )

    # ------------------------------------------------------------------ counts
    @property
    def n_links(self) -> int:
        """Number of links."""
        return len(self.links)

    @property
    def n_joints(self) -> int:
        """Number of joints."""
        return len(self.joints)

    @property
    def n_pos_coords(self) -> int:
        """Size of the joint position vector ``q``."""
        return self._index.counts[0]

    @property
    def n_dofs(self) -> int:
        """Number of degrees of freedom (size of the joint velocity vector)."""
        return self._index.counts[1]

    @property
    def n_frames(self) -> int:
        """Number of frames: one per link plus the additional frames."""
        return len(self.links) + len(self.frames)

    # Read-only views of the index, for the modules that look names up in bulk.
    @property
    def _c(self) -> tuple[int, int]:
        return self._index.counts

    @property
    def _l(self) -> NameIndex:
        return self._index.links

    @property
    def _j(self) -> NameIndex:
        return self._index.joints

    @property
    def _f(self) -> NameIndex:
        return self._index.frames

    @property
    def _s(self) -> NameIndex:
        return self._index.sensors

    @property
    def _n(self) -> Adjacency:
        return self._index.neighbors(self.joints)

    # ------------------------------------------------------------------ names and indices
    def link_index(self, name: str) -> int:
        """Return the index of link ``name``; raise :class:`UnknownNameError` if there is none."""
        try:
            return self._l[name]
        except KeyError:
            name = _plain(name)
            if name in self._f:
                raise UnknownNameError(
                    "link", name, (), hint=f"{name!r} is an additional frame, not a link"
                ) from ModelError(f"{name!r} is an additional frame, not a link")
            raise UnknownNameError("link", name, self.link_names) from None

    def link_name(self, index: int) -> str:
        """Return the name of link ``index``."""
        return self.link_names[_checked(index, self.n_links, "link")]

    def link(self, name_or_index: str | int) -> Link:
        """Return a link by name or index."""
        return self.links[self._link_idx(name_or_index)]

    def joint_index(self, name: str) -> int:
        """Return the index of joint ``name``."""
        try:
            return self._j[name]
        except KeyError:
            raise UnknownNameError("joint", _plain(name), self.joint_names) from None

    def joint_name(self, index: int) -> str:
        """Return the name of joint ``index``."""
        return self.joint_names[_checked(index, self.n_joints, "joint")]

    def joint(self, name_or_index: str | int) -> Joint:
        """Return a joint by name or index."""
        if isinstance(name_or_index, str):
            return self.joints[self.joint_index(name_or_index)]
        return self.joints[_checked(name_or_index, self.n_joints, "joint")]

    def frame_index(self, name: str) -> int:
        """Return the frame index of a link frame or an additional frame."""
        i = self._l.get(name)
        if i is not None:
            return i
        k = self._f.get(name)
        if k is not None:
            return len(self.links) + k
        raise UnknownNameError("frame", _plain(name), list(self.link_names) + self.frame_names)

    def frame_name(self, index: int) -> str:
        """Return the name of frame ``index`` (a link name for ``index < n_links``)."""
        i = _checked(index, self.n_frames, "frame")
        n = len(self.links)
        return self.link_names[i] if i < n else self.frames[i - n].name

    @property
    def frame_names(self) -> list[str]:
        """Names of the additional frames, in frame-index order."""
        return [f.name for f in self.frames]

    def frame_transform(self, name_or_index: str | int) -> Transform:
        """Return ``link_H_frame`` of a frame (the identity for a link frame)."""
        i = self._frame_idx(name_or_index)
        n = len(self.links)
        return Transform.identity() if i < n else self.frames[i - n].link_H_frame

    def frame_link(self, name_or_index: str | int) -> int:
        """Return the index of the link a frame is attached to."""
        i = self._frame_idx(name_or_index)
        n = len(self.links)
        return i if i < n else self._l[self.frames[i - n].link]

    def link_additional_frames(self, link: str | int) -> list[int]:
        """Return the frame indices of the additional frames on ``link``, in increasing order."""
        name = self.link_names[self._link_idx(link)]
        n = len(self.links)
        return [n + k for k, f in enumerate(self.frames) if f.link == name]

    def is_valid_link_index(self, index: int) -> bool:
        """Whether ``index`` is a link index of the model (``0 <= index < n_links``).

        >>> from robomodel import Model, Link, add_link
        >>> m = add_link(Model(), "base", Link())
        >>> m.is_valid_link_index(0), m.is_valid_link_index(1), m.is_valid_link_index(-1)
        (True, False, False)

        Raises:
            ArgumentError: ``index`` is not an integer (a ``bool`` or a float is refused).
        """
        return _valid(index, len(self.links), "link")

    def is_valid_joint_index(self, index: int) -> bool:
        """Whether ``index`` is a joint index of the model (``0 <= index < n_joints``).

        Raises:
            ArgumentError: ``index`` is not an integer.
        """
        return _valid(index, len(self.joints), "joint")

    def is_valid_frame_index(self, index: int) -> bool:
        """Whether ``index`` is a frame index: a link frame or an additional frame.

        Raises:
            ArgumentError: ``index`` is not an integer.
        """
        return _valid(index, self.n_frames, "frame")

    def is_link_name_used(self, name: str) -> bool:
        """Whether a link has this name."""
        return name in self._l

    def is_joint_name_used(self, name: str) -> bool:
        """Whether a joint has this name."""
        return name in self._j

    def is_frame_name_used(self, name: str) -> bool:
        """Whether a link or an additional frame has this name (links and frames share names)."""
        return name in self._l or name in self._f

    def is_sensor_name_used(self, name: str) -> bool:
        """Whether a sensor has this name."""
        return name in self._s

    # ------------------------------------------------------------------ topology
    def neighbors(self, link: str | int) -> tuple[Neighbor, ...]:
        """Return a link's adjacency list, in the order its joints were added."""
        return self._n[self._link_idx(link)]

    @property
    def default_base_index(self) -> int:
        """Index of the default base link; raises on an empty model."""
        if self.default_base is None:
            raise ModelError("the model has no links, so no default base; add a link first")
        return self._l[self.default_base]

    def traversal(self, base: str | int | None = None) -> Traversal:
        """Return the depth-first traversal from ``base`` (default: the default base).

        The order is iDynTree's exactly: children are numbered when discovered, in adjacency
        order, and the last child's subtree is expanded first. Links not connected to the base
        are not visited.
        """
        b = self.default_base_index if base is None else self._link_idx(base)
        return memoized(
            self,
            ("traversal", b),
            lambda: compute_traversal(self._index.flat_links(self.joints), b, len(self.links)),
        )

    def joint_parent_child(
        self, joint: str | int, traversal: Traversal | None = None
    ) -> tuple[int, int]:
        """Return (parent, child) link indices of a joint in a traversal (iDynTree's rule).

        If link1 is the traversal parent of link2 the answer is (link1, link2); otherwise
        (link2, link1).
        """
        j = self.joint(joint)
        t = self.traversal() if traversal is None else traversal
        l1, l2 = self._l[j.link1], self._l[j.link2]
        return (l1, l2) if t.is_parent_of(l1, l2) else (l2, l1)

    # ------------------------------------------------------------------ inertia
    @property
    def total_mass(self) -> float:
        """Sum of all link masses (unreachable links and negative masses included)."""
        return math.fsum(link.inertia.mass for link in self.links)

    def inertial_parameters(self) -> FloatArray:
        """Return the ``10 * n_links`` vector of iDynTree's per-link inertial parameters.

        Link ``k`` occupies ``[10k, 10k + 10)``: mass, first moment, and the upper triangle of
        the inertia about the link origin. Reshape to ``(n_links, 10)`` for one row per link.
        """
        if not self.links:
            return np.zeros(0)
        out = np.concatenate([link.inertia.as_vector() for link in self.links])
        out.setflags(write=False)
        return out

    # ------------------------------------------------------------------ shapes and sensors
    def visual_shapes(self, link: str | int) -> tuple[SolidShape, ...]:
        """Return the visual shapes of a link."""
        return tuple(self.visuals[self._link_idx(link)])

    def collision_shapes(self, link: str | int) -> tuple[SolidShape, ...]:
        """Return the collision shapes of a link."""
        return tuple(self.collisions[self._link_idx(link)])

    def sensor(self, name: str) -> Sensor:
        """Return the sensor called ``name``."""
        try:
            return self.sensors[self._s[name]]
        except KeyError:
            raise UnknownNameError("sensor", _plain(name), [s.name for s in self.sensors]) from None

    def sensors_of_type(self, kind: type) -> tuple[Sensor, ...]:
        """Return the sensors of one kind (e.g. ``Accelerometer``), in insertion order."""
        return tuple(s for s in self.sensors if isinstance(s, kind))

    # ------------------------------------------------------------------ validity
    def problems(self, *, severity: Severity = "error") -> tuple[Finding, ...]:
        """Return what is wrong with the model: the findings of :data:`~.checks.CHECKS`.

        The one question "what is wrong with this model?" (for a file on disk, with its mesh
        files and lines: :func:`robomodel.formats.check_file`). By default the errors only, so
        that an empty result means the model is valid: unreachable links, sensors on missing
        links or joints, inertias no rigid body has, mimic relations that do not resolve. Each
        :class:`~robomodel.model.checks.Finding` names its check, the element and the values;
        ``str(finding)`` is one line of text.

        Args:
            severity: the least grave severity listed: ``"error"``, ``"warning"`` (errors and
                warnings) or ``"note"`` (everything the checks find). Gravest first; within a
                severity, in the order of the checks and of the model's elements.

        >>> from robomodel import Model, Link, add_link
        >>> m = add_link(add_link(Model(), "base", Link()), "island", Link())
        >>> [str(f) for f in m.problems()]
        ["model: 1 link is not connected to the default base 'base': 'island' [connected]"]
        >>> [f.severity for f in m.problems(severity="note")]
        ['error']
        """
        found = findings(self)
        if severity == "note":
            return found
        shown = SEVERITIES[: SEVERITIES.index(check_choice(severity, SEVERITIES, "severity")) + 1]
        return tuple(f for f in found if f.severity in shown)

    def is_valid(self) -> bool:
        """Whether the model has no :meth:`problems` (no error finding of the checks)."""
        return not self.problems()

    # ------------------------------------------------------------------ text
    def describe(self) -> str:
        """Return a readable multi-line description of the model."""
        lines = [
            f"Model {self.name!r}: {self.n_links} links, {self.n_joints} joints, "
            f"{self.n_dofs} DOFs, {len(self.frames)} additional frames, "
            f"{len(self.sensors)} sensors, mass {self.total_mass:.6g} kg",
            f"  default base: {self.default_base}",
            "  links:",
        ]
        lines += [f"    [{i}] {n}" for i, n in enumerate(self.link_names)]
        lines.append("  frames:")
        n = len(self.links)
        lines += [f"    [{n + k}] {f.name} --> {f.link}" for k, f in enumerate(self.frames)]
        lines.append("  joints:")
        for i, (jn, j) in enumerate(zip(self.joint_names, self.joints, strict=True)):
            lines.append(
                f"    [{i}] {jn} ({joint_type_name(j)}, dof {j.dof_offset}) "
                f"{j.link1} <--> {j.link2}"
            )
        if self.sensors:
            lines.append("  sensors:")
            lines += [f"    {s.name} ({type(s).__name__})" for s in self.sensors]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return (
            f"<Model {self.name!r}: {self.n_links} links, {self.n_joints} joints, "
            f"{len(self.frames)} frames, {len(self.sensors)} sensors>"
        )

    # ------------------------------------------------------------------ pickling
    # The compact pickled form (flat buffers, rebuilt through the trusted paths) is registered
    # for Model with copyreg by robomodel.model._pickling, which the package imports; these two are
    # the field-by-field form it falls back to, and what older pickles hold.
    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in _PUBLIC_FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Pickles written before the flat layout hold the public fields: those go through the
        # checked constructor. ``restore`` also resets the attrs hash cache.
        restore(self, Model(**state))

    # ------------------------------------------------------------------ helpers
    def _link_idx(self, link: str | int) -> int:
        if isinstance(link, str):
            return self.link_index(link)
        return _checked(link, len(self.links), "link")

    def _frame_idx(self, frame: str | int) -> int:
        if isinstance(frame, str):
            return self.frame_index(frame)
        return _checked(frame, self.n_frames, "frame")


_PUBLIC_FIELDS = [f for f in attrs.fields(Model) if not f.name.startswith("_")]


def _model_from_fields(fields: dict[str, Any]) -> Model:
    """Rebuild a pickled model from its public fields, through the checked constructor."""
    return Model(**fields)


def _plain(name: str) -> str:
    # Lookups take any str (np.str_ hashes and compares as the str it equals); a message shows
    # the plain name, not numpy's repr of it.
    return str.__str__(name) if isinstance(name, str) else name


def _is_index(index: object) -> bool:
    return isinstance(index, (int, np.integer)) and not isinstance(index, bool)


def _checked(index: int, size: int, kind: str) -> int:
    return check_index(index, size, kind)


def _valid(index: int, size: int, kind: str) -> bool:
    if not _is_index(index):
        raise ArgumentError(f"a {kind} index must be an int, got {index!r}")
    return 0 <= index < size


def check_model(model: Model) -> Model:
    """Return ``model`` if it has no :meth:`Model.problems`, else raise :class:`ModelError`.

    The error lists every problem found, one per line.
    """
    found = model.problems()
    if found:
        raise ModelError("the model is not valid:\n  - " + "\n  - ".join(map(str, found)))
    return model
