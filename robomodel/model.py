"""The Model record and the pure functions that build it.

A :class:`Model` is a frozen value: links, joints, additional frames, shapes, sensors and package
dirs in persistent vectors, with name-to-index maps that are updated persistently. Every builder
(:func:`add_link`, :func:`add_joint`, :func:`add_frame`, ...) returns a new model and leaves its
input untouched; adding an element costs ``O(log n)``, not a copy of the model.

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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import attrs
import numpy as np
from pyrsistent import PVector, pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._index import NameIndex, _Table
from robomodel.errors import DuplicateNameError, ModelError, TopologyError, UnknownNameError
from robomodel.joints import (
    _PLACE,
    FixedJoint,
    Joint,
    PrismaticJoint,
    RevoluteJoint,
    joint_type_name,
    replace_joint,
)
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import Material, SolidShape
from robomodel.spatial import FloatArray, SpatialInertia, Transform
from robomodel.traversal import Traversal, compute_traversal

__all__ = [
    "Extension",
    "Frame",
    "Link",
    "Model",
    "Neighbor",
    "add_frame",
    "add_joint",
    "add_joint_and_link",
    "add_link",
    "add_sensor",
    "check_model",
    "discard_sensor",
    "insert_link_to_existing_joint",
    "remove_sensor",
    "with_collision_shapes",
    "with_default_base_link",
    "with_inertial_parameters",
    "with_link",
    "with_package_dirs",
    "with_visual_shapes",
]

_EMPTY_SHAPES: PVectorT[SolidShape] = pvector()
_PVECTOR = type(_EMPTY_SHAPES)  # the concrete persistent-vector class
_MOVING = (RevoluteJoint, PrismaticJoint)


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


class Neighbor(NamedTuple):
    """One entry of a link's adjacency list: the neighbouring link and the joint to it (indices)."""

    link: int
    joint: int


@attrs.frozen(kw_only=True)
class Extension:
    """A piece of description robomodel does not model, kept verbatim so that nothing is lost.

    Attributes:
        owner_kind: ``"robot"``, ``"link"``, ``"frame"``, ``"joint"`` or ``"sensor"``; or
            ``"inertial"`` (inside a link's ``<inertial>``) or ``"force_torque"`` (inside an F/T
            sensor's ``<force_torque>``), owned by that link or sensor. (Children robomodel does
            not model inside a ``<visual>``, ``<collision>`` or ``<material>`` travel with the
            value instead: :attr:`robomodel.shapes.SolidShape.extensions`.)
        owner: the owning element's name (``""`` for the robot).
        xml: the element's XML text, exactly as read.
        tag: the element's tag (``"gazebo"``, ``"transmission"``, ``"mimic"``, ...).
    """

    owner_kind: str
    owner: str
    xml: str
    tag: str = ""


def _pv(v: Any) -> PVector:  # type: ignore[type-arg]
    return v if isinstance(v, PVector) else pvector(v)


@attrs.frozen(kw_only=True, cache_hash=True, repr=False)
class Model:
    """A multibody model as an immutable value.

    Build one with :func:`add_link`, :func:`add_joint`, :func:`add_frame` and friends, or load one
    with :func:`robomodel.urdf.load`. Two models built by the same steps are ``==`` and hash alike.

    >>> from robomodel import Model, Link, RevoluteJoint, add_link, add_joint_and_link
    >>> m = add_link(Model(), "base", Link())
    >>> j = RevoluteJoint(link1="base", link2="arm")
    >>> m = add_joint_and_link(m, "base", "j1", j, "arm", Link())
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

    # Derived data, updated persistently by the builders so that adding an element never rebuilds
    # it. ``None`` means "not given": the constructor then derives (and validates) it all.
    _lmap: NameIndex | None = attrs.field(default=None, eq=False, alias="_lmap")
    _jmap: NameIndex | None = attrs.field(default=None, eq=False, alias="_jmap")
    _fmap: NameIndex | None = attrs.field(default=None, eq=False, alias="_fmap")
    _smap: NameIndex | None = attrs.field(default=None, eq=False, alias="_smap")
    # Adjacency lists, derived lazily from ``joints`` on first use (``None`` until then) and kept
    # by builders that do not touch the joints. A link's adjacency order is always increasing
    # joint index (iDynTree appends on addJoint and, on insertLinkToExisting..., replaces an
    # entry in place with the same joint), so it is a function of the joint list. Not
    # maintaining it per step saves two persistent-vector updates and two GC-tracked objects.
    _nbrs: tuple[tuple[Neighbor, ...], ...] | None = attrs.field(
        default=None, eq=False, alias="_nbrs"
    )
    # Connectivity for loop detection: a persistent union-find over link indices. Entry ``i`` is
    # the parent of link ``i``, or ``-1 - rank`` when ``i`` is a root. Union by rank keeps every
    # find within log2(n) steps; attaching a new leaf changes only the new entry (and the root's
    # rank when the root was alone), so a chain build does one append per link.
    _comp: PVectorT[int] | None = attrs.field(default=None, eq=False, alias="_comp")
    _counts: tuple[int, int] | None = attrs.field(default=None, eq=False, alias="_counts")
    # Per-value memo (traversals), created on first use; never carried to a new value.
    _memo: dict[Any, Any] | None = attrs.field(init=False, default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        if self._lmap is None:
            _derive_and_validate(self)

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
        return self._c[0]

    @property
    def n_dofs(self) -> int:
        """Number of degrees of freedom (size of the joint velocity vector)."""
        return self._c[1]

    @property
    def n_frames(self) -> int:
        """Number of frames: one per link plus the additional frames."""
        return len(self.links) + len(self.frames)

    @property
    def _c(self) -> tuple[int, int]:
        assert self._counts is not None  # set by the constructor
        return self._counts

    @property
    def _l(self) -> NameIndex:
        assert self._lmap is not None
        return self._lmap

    @property
    def _j(self) -> NameIndex:
        assert self._jmap is not None
        return self._jmap

    @property
    def _f(self) -> NameIndex:
        assert self._fmap is not None
        return self._fmap

    @property
    def _s(self) -> NameIndex:
        assert self._smap is not None
        return self._smap

    @property
    def _n(self) -> tuple[tuple[Neighbor, ...], ...]:
        nb = self._nbrs
        if nb is None:
            nb = _adjacency(self)
            # A derived cache on a frozen value: computing it twice in two threads is harmless.
            object.__setattr__(self, "_nbrs", nb)
        return nb

    # ------------------------------------------------------------------ names and indices
    def link_index(self, name: str) -> int:
        """Return the index of link ``name``; raise :class:`UnknownNameError` if there is none."""
        try:
            return self._l[name]
        except KeyError:
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
            raise UnknownNameError("joint", name, self.joint_names) from None

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
        raise UnknownNameError("frame", name, list(self.link_names) + self.frame_names)

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
        memo = self._memo
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        t = memo.get(("traversal", b))
        if t is None:
            t = compute_traversal(self._n, b, len(self.links))
            memo[("traversal", b)] = t
        return t

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
            raise UnknownNameError("sensor", name, [s.name for s in self.sensors]) from None

    def sensors_of_type(self, kind: type) -> tuple[Sensor, ...]:
        """Return the sensors of one kind (e.g. ``Accelerometer``), in insertion order."""
        return tuple(s for s in self.sensors if isinstance(s, kind))

    # ------------------------------------------------------------------ validity
    def problems(self) -> tuple[str, ...]:
        """Return every structural problem of the model (empty when it is valid).

        Checks that every link is reachable from the default base and that every sensor refers
        to existing links and joints consistently.
        """
        out: list[str] = []
        if self.links:
            t = self.traversal()
            if len(t) != len(self.links):
                missing = [n for i, n in enumerate(self.link_names) if not t.contains(i)]
                out.append(
                    f"links not connected to the default base {self.default_base!r}: "
                    + ", ".join(repr(n) for n in missing)
                )
        for s in self.sensors:
            out.extend(_sensor_problems(self, s))
        return tuple(out)

    def is_valid(self) -> bool:
        """Whether :meth:`problems` finds nothing."""
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
    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in _PUBLIC_FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        rebuilt = Model(**state)
        for f in attrs.fields(Model):
            object.__setattr__(self, f.name, getattr(rebuilt, f.name))
        object.__setattr__(self, "_memo", None)
        # The attrs hash cache is a slot outside attrs.fields: without this, hash() of an
        # unpickled model raised AttributeError.
        object.__setattr__(self, "_attrs_cached_hash", None)

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
_ALL_FIELDS = tuple(f.name for f in attrs.fields(Model) if f.name != "_memo")


def _make_evolve() -> Any:
    # Builders hand over values that are already persistent and consistent; ``attrs.evolve``
    # would re-run every converter and check, which dominated the cost of adding a link. This
    # generates a straight-line copy with keyword defaults instead of a loop over a kwargs dict.
    params = ", ".join(f"{n}=_KEEP" for n in _ALL_FIELDS)
    body = "\n".join(
        f"    set_(new, {n!r}, model.{n} if {n} is _KEEP else {n})" for n in _ALL_FIELDS
    )
    src = (
        f"def _evolve(model, *, {params}):\n"
        "    new = new_(Model)\n"
        f"{body}\n"
        "    set_(new, '_memo', None)\n"
        "    set_(new, '_attrs_cached_hash', None)\n"
        "    return new\n"
    )
    scope: dict[str, Any] = {
        "_KEEP": object(),
        "Model": Model,
        "new_": object.__new__,
        "set_": object.__setattr__,
    }
    exec(src, scope)
    return scope["_evolve"]


_evolve: Callable[..., Model] = _make_evolve()
"""Return a copy of a model with some fields replaced, without re-running converters."""


def _checked(index: int, size: int, kind: str) -> int:
    if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
        raise ModelError(f"a {kind} index must be an int, got {index!r}")
    if not 0 <= index < size:
        raise UnknownNameError(f"{kind} index", index) from IndexError(
            f"{kind} index {index} is out of range [0, {size})"
        )
    return int(index)


def _check_name(name: str, what: str) -> None:
    if not isinstance(name, str) or not name:
        raise ModelError(f"a {what} name must be a non-empty string, got {name!r}")


# ---------------------------------------------------------------------- bulk derivation
def _checked_frames(m: Model, lmap: dict[str, int]) -> dict[str, int]:
    """Check the additional frames one by one; raise on the first problem."""
    fmap: dict[str, int] = {}
    for k, f in enumerate(m.frames):
        if type(f.name) is not str or not f.name:
            _check_name(f.name, "frame")
        if f.name in lmap or f.name in fmap:
            raise DuplicateNameError("link or frame", f.name)
        if f.link not in lmap:
            raise UnknownNameError("link", f.link, lmap) from None
        fmap[f.name] = k
    return fmap


def _derive_and_validate(m: Model) -> None:
    """Derive every index map of a model given whole, validating it on the way (O(n log n))."""
    n = len(m.links)
    if len(m.link_names) != n:
        raise ModelError(f"{len(m.link_names)} link names for {n} links")
    if len(m.joint_names) != len(m.joints):
        raise ModelError(f"{len(m.joint_names)} joint names for {len(m.joints)} joints")
    # ``type(x) is str and x`` is the common case of _check_name, tested inline: the call per
    # name was a sizeable share of building a model of a few hundred elements.
    lmap: dict[str, int] = {}
    for i, name in enumerate(m.link_names):
        if type(name) is not str or not name:
            _check_name(name, "link")
        if name in lmap:
            raise DuplicateNameError("link", name)
        lmap[name] = i
    # Frames: set-level checks first (all names plain non-empty strings, unique, not link names,
    # on known links); only when one fails, _checked_frames finds the first offender and raises
    # exactly as before.
    fnames = [f.name for f in m.frames]
    fmap: dict[str, int] = {}
    if set(map(type, fnames)) <= {str}:  # before hashing them: a name may be anything
        fmap = {name: k for k, name in enumerate(fnames)}
    if not (
        len(fmap) == len(fnames)
        and "" not in fmap
        and fmap.keys().isdisjoint(lmap)
        and {f.link for f in m.frames} <= lmap.keys()
    ):
        fmap = _checked_frames(m, lmap)
    if m.default_base is not None and m.default_base not in lmap:
        raise UnknownNameError("link", m.default_base, lmap)
    base = m.default_base if m.default_base is not None else (m.link_names[0] if n else None)

    # One pass over the joints with a local union-find: the same checks and offsets as add_joint,
    # without building an intermediate model per joint (transformers and loaders build whole
    # models through this constructor, so it is on their hot path).
    uf = [-1] * n

    def root(i: int) -> int:
        while uf[i] >= 0:
            i = uf[i]
        return i

    jmap: dict[str, int] = {}
    placed_joints: list[Joint] = []
    npos = ndof = 0
    for jn, joint in zip(m.joint_names, m.joints, strict=True):
        if type(jn) is not str or not jn:
            _check_name(jn, "joint")
        if not isinstance(joint, (FixedJoint, *_MOVING)):
            raise ModelError(
                f"joint {jn!r}: expected a FixedJoint, RevoluteJoint or PrismaticJoint, "
                f"got {type(joint).__name__}"
            )
        if jn in jmap:
            raise DuplicateNameError("joint", jn)
        l1 = lmap.get(joint.link1)
        l2 = lmap.get(joint.link2)
        for ln, li in ((joint.link1, l1), (joint.link2, l2)):
            if li is None:
                raise UnknownNameError(
                    "link", ln, lmap, hint=f"joint {jn!r} needs it; add the link first"
                )
        assert l1 is not None and l2 is not None
        r1, r2 = root(l1), root(l2)
        if r1 == r2:
            other = next(
                (
                    k
                    for k, o in enumerate(placed_joints)
                    if {o.link1, o.link2} == {joint.link1, joint.link2}
                ),
                None,
            )
            if other is not None:
                raise TopologyError(
                    f"joint {jn!r}: links {joint.link1!r} and {joint.link2!r} are already "
                    f"connected by joint {m.joint_names[other]!r}; a model has at most one "
                    "joint between two links"
                )
            raise TopologyError(
                f"joint {jn!r} between {joint.link1!r} and {joint.link2!r} would close a "
                "kinematic loop; robomodel models trees only (replace the joint or remove it)"
            )
        k1, k2 = uf[r1], uf[r2]
        if k1 > k2:
            uf[r1] = r2
        elif k1 < k2:
            uf[r2] = r1
        else:
            uf[r2] = r1
            uf[r1] = k1 - 1
        if joint.pos_coord_offset != npos or joint.dof_offset != ndof:
            joint = replace_joint(joint, pos_coord_offset=npos, dof_offset=ndof)
        placed_joints.append(joint)
        jmap[jn] = len(placed_joints) - 1
        npos += joint.n_pos_coords
        ndof += joint.n_dofs
    joints_changed = any(a is not b for a, b in zip(placed_joints, m.joints, strict=True))
    shell = m
    # lmap and jmap map every name to its index already: wrap them instead of rebuilding.
    object.__setattr__(shell, "_lmap", NameIndex(_Table(lmap, n), n))
    object.__setattr__(shell, "_jmap", NameIndex(_Table(jmap, len(jmap)), len(jmap)))
    smap: dict[str, int] = {}
    for k, s in enumerate(m.sensors):
        if s.name in smap:
            raise DuplicateNameError("sensor", s.name)
        smap[s.name] = k
        # A link sensor on a known link has no problem: skip the general check (and its call).
        if (type(s) is Accelerometer or type(s) is Gyroscope) and s.link in lmap:
            continue
        bad = _sensor_problems(shell, s)
        if bad:
            raise ModelError(bad[0])
    visuals = m.visuals if len(m.visuals) else pvector([_EMPTY_SHAPES] * n)
    collisions = m.collisions if len(m.collisions) else pvector([_EMPTY_SHAPES] * n)
    if len(visuals) != n or len(collisions) != n:
        raise ModelError(
            f"visuals and collisions need one list per link ({n}), got "
            f"{len(visuals)} and {len(collisions)}"
        )
    set_ = object.__setattr__
    if joints_changed:
        set_(m, "joints", pvector(placed_joints))
    set_(m, "default_base", base)
    # ``type(v) is`` first: PVector is an ABC, so isinstance in _pv is slow per link.
    set_(m, "visuals", pvector([v if type(v) is _PVECTOR else _pv(v) for v in visuals]))
    set_(m, "collisions", pvector([v if type(v) is _PVECTOR else _pv(v) for v in collisions]))
    set_(m, "_fmap", NameIndex(_Table(fmap, len(fmap)), len(fmap)))
    set_(m, "_smap", NameIndex(_Table(smap, len(smap)), len(smap)))
    set_(m, "_nbrs", None)
    set_(m, "_comp", pvector(uf))
    set_(m, "_counts", (npos, ndof))


def _adjacency(m: Model) -> tuple[tuple[Neighbor, ...], ...]:
    """Return every link's adjacency list: for each joint in index order, link1 then link2."""
    lists: list[list[Neighbor]] = [[] for _ in range(len(m.links))]
    index = m._l.__getitem__
    for j, joint in enumerate(m.joints):
        a, b = index(joint.link1), index(joint.link2)
        lists[a].append(Neighbor(b, j))
        lists[b].append(Neighbor(a, j))
    return tuple(map(tuple, lists))


def _sensor_problems(m: Model, s: Sensor) -> list[str]:
    match s:
        case SixAxisForceTorqueSensor():
            j = m._j.get(s.parent_joint)
            if j is None:
                return [
                    f"force/torque sensor {s.name!r}: the model has no joint {s.parent_joint!r}"
                ]
            bad = [
                f"force/torque sensor {s.name!r}: the model has no link {ln!r}"
                for ln in s.links
                if ln not in m._l
            ]
            if bad:
                return bad
            joint = m.joints[j]
            if {joint.link1, joint.link2} != {s.first_link, s.second_link}:
                return [
                    f"force/torque sensor {s.name!r}: links {s.first_link!r} and "
                    f"{s.second_link!r} are not the two ends of joint {s.parent_joint!r} "
                    f"({joint.link1!r}, {joint.link2!r})"
                ]
            return []
        case Accelerometer() | Gyroscope():
            if s.link not in m._l:
                return [f"{sensor_kind(s)} {s.name!r}: the model has no link {s.link!r}"]
            return []


def sensor_kind(s: Sensor) -> str:
    """Return a readable kind name (``"accelerometer"``, ...) for messages."""
    match s:
        case SixAxisForceTorqueSensor():
            return "force/torque sensor"
        case Accelerometer():
            return "accelerometer"
        case Gyroscope():
            return "gyroscope"


def check_model(model: Model) -> Model:
    """Return ``model`` if it has no :meth:`Model.problems`, else raise :class:`ModelError`.

    The error lists every problem found.
    """
    found = model.problems()
    if found:
        raise ModelError("the model is not valid:\n  - " + "\n  - ".join(found))
    return model


# ---------------------------------------------------------------------- builders
def add_link(model: Model, name: str, link: Link | None = None) -> Model:
    """Return ``model`` with a new link ``name`` (index ``n_links``).

    The name must not be used by a link or an additional frame. The first link becomes the
    default base. Every additional frame's index shifts by one.
    """
    _check_name(name, "link")
    if model.is_frame_name_used(name):
        kind = "link" if name in model._l else "additional frame"
        raise DuplicateNameError(kind, name, "links and frames share one namespace")
    lk = Link() if link is None else link
    if not isinstance(lk, Link):
        raise ModelError(f"add_link expects a Link, got {type(lk).__name__}")
    return _evolve(
        model,
        link_names=model.link_names.append(name),
        links=model.links.append(lk),
        default_base=name if model.default_base is None else model.default_base,
        visuals=model.visuals.append(_EMPTY_SHAPES),
        collisions=model.collisions.append(_EMPTY_SHAPES),
        _lmap=model._l.appended(name),
        _nbrs=None,
        _comp=_comp(model).append(-1),
    )


def _comp(m: Model) -> PVectorT[int]:
    assert m._comp is not None
    return m._comp


def _root(parent: PVectorT[int], i: int) -> int:
    while True:
        p = parent[i]
        if p < 0:
            return i
        i = p


def _union(uf: PVectorT[int], r1: int, r2: int) -> PVectorT[int]:
    """Join the components of roots ``r1 != r2`` (union by rank)."""
    k1, k2 = uf[r1], uf[r2]  # -1 - rank
    if k1 > k2:  # r1 has the lower rank: hang it below r2
        return uf.set(r1, r2)
    if k1 < k2:
        return uf.set(r2, r1)
    return uf.set(r2, r1).set(r1, k1 - 1)


def add_joint(model: Model, name: str, joint: Joint) -> Model:
    """Return ``model`` with ``joint`` added as joint ``name`` between its ``link1`` and ``link2``.

    The joint's offsets are set to the model's running position-coordinate and DOF totals.
    Raises if the name is used by another joint, if a link is missing, or if the joint would
    connect two links that are already connected (a second joint or a loop).
    """
    _check_name(name, "joint")
    if not isinstance(joint, (FixedJoint, *_MOVING)):
        raise ModelError(
            f"add_joint expects a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}"
        )
    if name in model._j:
        raise DuplicateNameError("joint", name)
    l1 = model._l.get(joint.link1)
    l2 = model._l.get(joint.link2)
    for ln, li in ((joint.link1, l1), (joint.link2, l2)):
        if li is None:
            raise UnknownNameError(
                "link", ln, model.link_names, hint=f"joint {name!r} needs it; add the link first"
            ) from None
    assert l1 is not None and l2 is not None
    comp = _comp(model)
    c1, c2 = _root(comp, l1), _root(comp, l2)
    if c1 == c2:
        existing = next(
            (
                k
                for k, other in enumerate(model.joints)
                if {other.link1, other.link2} == {joint.link1, joint.link2}
            ),
            None,
        )
        if existing is not None:
            raise TopologyError(
                f"joint {name!r}: links {joint.link1!r} and {joint.link2!r} are already "
                f"connected by joint {model.joint_names[existing]!r}; a model has at most one "
                "joint between two links"
            )
        raise TopologyError(
            f"joint {name!r} between {joint.link1!r} and {joint.link2!r} would close a "
            "kinematic loop; robomodel models trees only (replace the joint or remove it)"
        )
    npos, ndof = model._c
    placed = replace_joint(joint, pos_coord_offset=npos, dof_offset=ndof)
    return _evolve(
        model,
        joint_names=model.joint_names.append(name),
        joints=model.joints.append(placed),
        _jmap=model._j.appended(name),
        _nbrs=None,
        _comp=_union(comp, c1, c2),
        _counts=(npos + joint.n_pos_coords, ndof + joint.n_dofs),
    )


def add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model:
    """Add link ``new_link_name`` and then ``joint`` between ``existing_link`` and it.

    The joint's ``link1``/``link2`` are set to ``(existing_link, new_link_name)``; its rest
    transform and axis are read relative to those, as iDynTree's ``addJointAndLink`` does.
    """
    # This is the hot path of every loader and of step-by-step builds: the checks below are
    # those of add_link + add_joint, inlined (no property or helper calls).
    lmap, jmap, fmap = model._lmap, model._jmap, model._fmap
    assert lmap is not None and jmap is not None and fmap is not None
    e = lmap.get(existing_link)
    if e is None:
        raise UnknownNameError(
            "link", existing_link, model.link_names, hint=f"joint {joint_name!r} needs it"
        )
    if type(joint_name) is not str or not joint_name:
        _check_name(joint_name, "joint")
    if joint_name in jmap:
        raise DuplicateNameError("joint", joint_name)
    place = _PLACE.get(type(joint))
    if place is None:
        if not isinstance(joint, (FixedJoint, *_MOVING)):
            raise ModelError(
                f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}"
            )
        place = _replace_placer
    if type(new_link_name) is not str or not new_link_name:
        _check_name(new_link_name, "link")
    if new_link_name in lmap or new_link_name in fmap:
        raise DuplicateNameError("link or frame", new_link_name, "links and frames share names")
    lk = _DEFAULT_LINK if new_link is None else new_link
    if type(lk) is not Link and not isinstance(lk, Link):
        raise ModelError(f"add_joint_and_link expects a Link, got {type(lk).__name__}")
    # The new link is a singleton component, so joining it to the existing link can never close
    # a loop: this fused path does in one step what add_link + add_joint do in two.
    npos, ndof = model._counts  # type: ignore[misc]
    placed = place(joint, existing_link, new_link_name, npos, ndof)
    comp = model._comp
    assert comp is not None
    root = _root(comp, e)
    if comp[root] == -1:  # a lone root gains rank 1 from its first leaf
        comp = comp.set(root, -2)
    return _evolve(
        model,
        link_names=model.link_names.append(new_link_name),
        links=model.links.append(lk),
        visuals=model.visuals.append(_EMPTY_SHAPES),
        collisions=model.collisions.append(_EMPTY_SHAPES),
        joint_names=model.joint_names.append(joint_name),
        joints=model.joints.append(placed),
        _lmap=lmap.appended(new_link_name),
        _jmap=jmap.appended(joint_name),
        _nbrs=None,
        _comp=comp.append(root),
        _counts=(npos + joint.n_pos_coords, ndof + joint.n_dofs),
    )


_DEFAULT_LINK = Link()


def _replace_placer(joint: Joint, link1: str, link2: str, npos: int, ndof: int) -> Joint:
    # For subclasses of the joint kinds, which have no generated placer.
    return replace_joint(joint, link1=link1, link2=link2, pos_coord_offset=npos, dof_offset=ndof)


def insert_link_to_existing_joint(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model:
    """Splice a new link into an existing joint (iDynTree's ``insertLinkToExistingJoint...``).

    Joint ``existing_joint`` between ``unmovable_link`` and a displaced link D becomes a joint
    between ``unmovable_link`` and the new link, with rest pose ``unmovable_H_new``; ``joint``
    (named ``joint_name``, its rest transform read as ``new_H_D``) connects the new link to D.
    The existing joint keeps its name, index, type, limits and stored axis; when
    ``unmovable_link`` was its link2, the new link takes the link1 slot (rest inverted).
    """
    ji = model.joint_index(existing_joint)
    u = model.link_index(unmovable_link)
    old = model.joints[ji]
    if unmovable_link not in (old.link1, old.link2):
        raise ModelError(
            f"link {unmovable_link!r} is not attached to joint {existing_joint!r} "
            f"({old.link1!r}, {old.link2!r})"
        )
    displaced = old.other_link(unmovable_link)
    d = model._l[displaced]
    m = add_link(model, new_link_name, new_link)
    n = m._l[new_link_name]
    if unmovable_link == old.link1:
        moved = replace_joint(old, link2=new_link_name, link1_H_link2=unmovable_H_new)
    else:
        moved = replace_joint(old, link1=new_link_name, link1_H_link2=unmovable_H_new.inverse())
    # Adjacency follows from the joint list (the moved joint keeps its index, so U's entry keeps
    # its place and D's entry moves to the end, as in iDynTree). Connectivity is unchanged
    # overall (U - N - D is one component again once the new joint is in): N joins U's
    # component now, and the N-D joint is appended below without the loop check, which would
    # see N and D as already connected.
    comp = _comp(m)
    m = _evolve(
        m,
        joints=m.joints.set(ji, moved),
        _nbrs=None,
        _comp=_union(comp, _root(comp, u), n),
    )
    return _append_joint(m, joint_name, joint, new_link_name, displaced, n, d)


def _append_joint(
    m: Model, name: str, joint: Joint, link1: str, link2: str, l1: int, l2: int
) -> Model:
    # Appends a joint between links already known to be in one tree without creating a loop.
    _check_name(name, "joint")
    if name in m._j:
        raise DuplicateNameError("joint", name)
    if not isinstance(joint, (FixedJoint, *_MOVING)):
        raise ModelError(f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}")
    npos, ndof = m._c
    placed = replace_joint(joint, link1=link1, link2=link2, pos_coord_offset=npos, dof_offset=ndof)
    return _evolve(
        m,
        joint_names=m.joint_names.append(name),
        joints=m.joints.append(placed),
        _jmap=m._j.appended(name),
        _nbrs=None,
        _counts=(npos + joint.n_pos_coords, ndof + joint.n_dofs),
    )


def add_frame(model: Model, link: str, name: str, link_H_frame: Transform | None = None) -> Model:
    """Return ``model`` with an additional frame ``name`` fixed to ``link`` at ``link_H_frame``.

    Frames attach to links only (not to other frames). The name must not be used by a link or
    frame. The frame gets index ``n_frames`` of the result.
    """
    _check_name(name, "frame")
    if link not in model._l:
        hint = "; frames attach to links, not to other frames" if link in model._f else ""
        raise UnknownNameError(
            "link", link, model.link_names, hint=f"cannot attach frame {name!r} to it{hint}"
        ) from None
    if model.is_frame_name_used(name):
        raise DuplicateNameError("link or frame", name, "links and frames share one namespace")
    T = Transform.identity() if link_H_frame is None else link_H_frame
    return _evolve(
        model,
        frames=model.frames.append(Frame(name, link, T)),
        _fmap=model._f.appended(name),
    )


def with_default_base_link(model: Model, link: str | int) -> Model:
    """Return ``model`` with ``link`` (name or index) as default base."""
    name = model.link_names[model._link_idx(link)]
    if name == model.default_base:
        return model
    return _evolve(model, default_base=name)


def with_link(model: Model, link: str | int, new: Link) -> Model:
    """Return ``model`` with one link's inertia replaced."""
    i = model._link_idx(link)
    if model.links[i] == new:
        return model
    return _evolve(model, links=model.links.set(i, new))


def with_inertial_parameters(model: Model, params: Sequence[float] | FloatArray) -> Model:
    """Return ``model`` with every link's inertia set from iDynTree's parameter vector.

    Accepts the flat ``10 * n_links`` vector of :meth:`Model.inertial_parameters` or an
    ``(n_links, 10)`` array. No physical-consistency check is made (as in iDynTree).
    """
    p = np.asarray(params, dtype=np.float64)
    n = len(model.links)
    if p.shape not in ((10 * n,), (n, 10)):
        raise ModelError(
            f"expected {10 * n} inertial parameters (10 per link for {n} links), "
            f"got shape {p.shape}"
        )
    rows = p.reshape(n, 10)
    return _evolve(model, links=pvector(Link(SpatialInertia.from_vector(r)) for r in rows))


def with_package_dirs(model: Model, dirs: Iterable[str]) -> Model:
    """Return ``model`` with the given package directories."""
    return _evolve(model, package_dirs=pvector(str(d) for d in dirs))


def with_visual_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's visual shapes replaced."""
    i = model._link_idx(link)
    return _evolve(model, visuals=model.visuals.set(i, _shapes(shapes)))


def with_collision_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's collision shapes replaced."""
    i = model._link_idx(link)
    return _evolve(model, collisions=model.collisions.set(i, _shapes(shapes)))


def _shapes(shapes: Iterable[SolidShape]) -> PVectorT[SolidShape]:
    out = pvector(shapes)
    for s in out:
        if not isinstance(s, SolidShape):
            raise ModelError(f"expected SolidShape values, got {type(s).__name__}")
    return out


def add_sensor(model: Model, sensor: Sensor) -> Model:
    """Return ``model`` with ``sensor`` appended.

    Sensor names are unique across all sensor kinds; the links and joint a sensor refers to
    must exist (an F/T sensor's two links must be its joint's two ends).
    """
    if sensor.name in model._s:
        raise DuplicateNameError("sensor", sensor.name)
    bad = _sensor_problems(model, sensor)
    if bad:
        raise ModelError(bad[0] + "; fix the sensor or add the missing element first")
    return _evolve(
        model,
        sensors=model.sensors.append(sensor),
        _smap=model._s.appended(sensor.name),
    )


def remove_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; raise if there is none."""
    k = model._s.get(name)
    if k is None:
        raise UnknownNameError("sensor", name, [s.name for s in model.sensors])
    sensors = model.sensors.delete(k)
    return _evolve(model, sensors=sensors, _smap=NameIndex.build(s.name for s in sensors))


def discard_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; the model itself if there is none."""
    return remove_sensor(model, name) if name in model._s else model


def iter_joints(model: Model) -> Iterator[tuple[str, Joint]]:
    """Yield ``(name, joint)`` pairs in joint-index order."""
    return zip(model.joint_names, model.joints, strict=True)


def joint_positions_from(model: Model, values: Mapping[str, float]) -> FloatArray:
    """Return a position vector of size ``n_pos_coords`` from a joint-name mapping (others 0)."""
    q = np.zeros(model.n_pos_coords)
    for name, v in values.items():
        j = model.joint(name)
        if j.n_pos_coords == 0:
            raise ModelError(f"joint {name!r} is fixed and has no position")
        q[j.pos_coord_offset] = float(v)
    return q
