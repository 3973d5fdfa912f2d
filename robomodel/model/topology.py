"""A model's index: its name maps, connectivity and counts, as one value; and where it comes from.

Everything a :class:`~robomodel.model.record.Model` derives from its element lists lives in one
frozen
:class:`ModelIndex`: the four name-to-index maps (links, joints, additional frames, sensors), a
union-find over the links, the running position-coordinate and DOF counts, and the adjacency
lists (computed on first use). It is made in two ways only, both in this module:

* :func:`derive` builds it, with the model's normalised fields, from whole element lists (the
  loader, the transformers, ``Model(...)`` in user code), validating them on the way;
* the ``with_*`` append operations return the index of a model one element larger
  (the builders of :mod:`robomodel.model.builders`), in ``O(1)`` or ``O(log n)`` each.

"Every model is a forest" is enforced here and nowhere else: a joint whose two links are already
connected (a loop, or a second joint between two links) is refused by :meth:`ModelIndex.with_joint`
and by :func:`derive`, through the one union-find of this module. Traversals can then assume a
forest and always terminate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from operator import attrgetter
from typing import Any, NamedTuple

import attrs
from pyrsistent import PVector, pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import make, set_derived
from robomodel.errors import DuplicateNameError, ModelError, TopologyError, UnknownNameError
from robomodel.model._index import NameIndex
from robomodel.model.joints import (
    JOINT_KINDS,
    Joint,
    replace_joint,
)
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.shapes import SolidShape
from robomodel.model.traversal import Links, flat_links
from robomodel.model.validation import check_name

__all__ = [
    "EMPTY_SHAPES",
    "JOINT_KINDS",
    "Derived",
    "JointEnds",
    "ModelIndex",
    "Neighbor",
    "derive",
    "pv",
    "restored_index",
    "sensor_kind",
    "sensor_problems",
    "tree_index",
]

EMPTY_SHAPES: PVectorT[SolidShape] = pvector()
"""The shape list of a link without shapes (one shared empty vector)."""
_PVECTOR = type(EMPTY_SHAPES)  # the concrete persistent-vector class
"""The joint classes a model accepts."""


def pv(v: Any) -> PVector:  # type: ignore[type-arg]
    """Return ``v`` as a persistent vector (itself when it already is one)."""
    return v if isinstance(v, PVector) else pvector(v)


class Neighbor(NamedTuple):
    """One entry of a link's adjacency list: the neighbouring link and the joint to it (indices)."""

    link: int
    joint: int


Adjacency = tuple[tuple[Neighbor, ...], ...]
JointEnds = tuple[tuple[int, ...], tuple[int, ...]]
"""Per joint, in index order: the index of its ``link1``, and (second tuple) of its ``link2``."""


# ---------------------------------------------------------------------------- the union-find
# A persistent union-find over link indices: entry ``i`` is the parent of link ``i``, or
# ``-1 - rank`` when ``i`` is a root. Union by rank keeps every find within log2(n) steps;
# attaching a new leaf changes only the new entry (and the root's rank when the root was alone),
# so a chain build does one append per link.


def _root(parent: Sequence[int], i: int) -> int:
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


def _connected_error(
    name: str, joint: Joint, joints: Sequence[Joint], joint_names: Sequence[str]
) -> TopologyError:
    """The error for joint ``name`` whose two links are already connected by ``joints``."""
    ends = {joint.link1, joint.link2}
    other = next((k for k, o in enumerate(joints) if {o.link1, o.link2} == ends), None)
    if other is not None:
        return TopologyError(
            f"joint {name!r}: links {joint.link1!r} and {joint.link2!r} are already "
            f"connected by joint {joint_names[other]!r}; a model has at most one "
            "joint between two links"
        )
    return TopologyError(
        f"joint {name!r} between {joint.link1!r} and {joint.link2!r} would close a "
        "kinematic loop; robomodel models trees only (replace the joint or remove it)"
    )


# ---------------------------------------------------------------------------- the record
@attrs.frozen(kw_only=True, eq=False)
class ModelIndex:
    """Everything a model derives from its element lists (never part of its ``==`` or hash).

    Attributes:
        links: link name -> link index.
        joints: joint name -> joint index.
        frames: additional frame name -> its position in ``Model.frames``.
        sensors: sensor name -> its position in ``Model.sensors``.
        components: the union-find over link indices (see the module's comment on it).
        counts: ``(n_pos_coords, n_dofs)``: the offsets the next joint gets.
    """

    links: NameIndex
    joints: NameIndex
    frames: NameIndex
    sensors: NameIndex
    components: PVectorT[int]
    counts: tuple[int, int]
    # Adjacency lists, derived from the model's joints on first use. A link's adjacency order
    # is always increasing joint index (iDynTree appends on addJoint and, on
    # insertLinkToExisting..., replaces an entry in place with the same joint), so it is a
    # function of the joint list; building it per step would cost two persistent-vector updates.
    _neighbors: Adjacency | None = attrs.field(init=False, default=None, repr=False)
    # Each joint's two link indices (``link1``s, ``link2``s), when whoever made the index had
    # them at hand (``derive``, a trusted assembly given them): the adjacency is then built
    # without reading a joint. On a freshly loaded model every joint and link name is a cold
    # object, and those reads were most of a first traversal's time.
    _ends: JointEnds | None = attrs.field(init=False, default=None, repr=False)

    @staticmethod
    def empty() -> ModelIndex:
        """Return the index of the empty model."""
        return _EMPTY

    # ------------------------------------------------------------------ append operations
    # The callers (the builders) have checked the names: each is a valid name not used yet in
    # its namespace, and each link index is in range.

    def with_link(self, name: str) -> ModelIndex:
        """Return the index with one more link ``name``, a component of its own."""
        return make(ModelIndex)(
            self.links.appended(name),
            self.joints,
            self.frames,
            self.sensors,
            self.components.append(-1),
            self.counts,
        )

    def with_joint(
        self,
        name: str,
        joint: Joint,
        link1: int,
        link2: int,
        *,
        joints: Sequence[Joint],
        joint_names: Sequence[str],
    ) -> ModelIndex:
        """Return the index with one more joint ``name`` between links ``link1`` and ``link2``.

        ``joints`` and ``joint_names`` are the model's, to name a joint in the error.

        Raises:
            TopologyError: the two links are already connected (a loop or a second joint).
        """
        comp = self.components
        r1, r2 = _root(comp, link1), _root(comp, link2)
        if r1 == r2:
            raise _connected_error(name, joint, joints, joint_names)
        npos, ndof = self.counts
        return make(ModelIndex)(
            self.links,
            self.joints.appended(name),
            self.frames,
            self.sensors,
            _union(comp, r1, r2),
            (npos + joint.n_pos_coords, ndof + joint.n_dofs),
        )

    def with_leaf(self, link: str, joint_name: str, joint: Joint, parent: int) -> ModelIndex:
        """Return the index with a new link ``link`` joined to link ``parent`` by ``joint``.

        The new link is a component of its own, so the joint can never close a loop: this does
        in one step what :meth:`with_link` and :meth:`with_joint` do in two.
        """
        comp = self.components
        root = _root(comp, parent)
        if comp[root] == -1:  # a lone root gains rank 1 from its first leaf
            comp = comp.set(root, -2)
        npos, ndof = self.counts
        return make(ModelIndex)(
            self.links.appended(link),
            self.joints.appended(joint_name),
            self.frames,
            self.sensors,
            comp.append(root),
            (npos + joint.n_pos_coords, ndof + joint.n_dofs),
        )

    def with_spliced_link(
        self, link: str, unmovable: int, joint_name: str, joint: Joint
    ) -> ModelIndex:
        """Return the index after a new link ``link`` is spliced into a joint of ``unmovable``.

        The joint keeps its index and now ends at the new link, and ``joint`` joins the new link
        to the displaced one: the three links stay one component, with no loop.
        """
        comp = self.components.append(-1)
        new = len(self.links)
        npos, ndof = self.counts
        return make(ModelIndex)(
            self.links.appended(link),
            self.joints.appended(joint_name),
            self.frames,
            self.sensors,
            _union(comp, _root(comp, unmovable), new),
            (npos + joint.n_pos_coords, ndof + joint.n_dofs),
        )

    def with_frame(self, name: str) -> ModelIndex:
        """Return the index with one more additional frame ``name``."""
        new = make(ModelIndex)(
            self.links,
            self.joints,
            self.frames.appended(name),
            self.sensors,
            self.components,
            self.counts,
        )
        _keep_connectivity(self, new)  # frames do not change it
        return new

    def with_sensor(self, name: str) -> ModelIndex:
        """Return the index with one more sensor ``name``."""
        return self.with_sensors(self.sensors.appended(name))

    def with_sensors(self, sensors: NameIndex | Iterable[str]) -> ModelIndex:
        """Return the index with the sensor names replaced (``sensors``, in order)."""
        names = sensors if isinstance(sensors, NameIndex) else NameIndex.build(sensors)
        new = make(ModelIndex)(
            self.links, self.joints, self.frames, names, self.components, self.counts
        )
        _keep_connectivity(self, new)  # sensors do not change it
        return new

    # ------------------------------------------------------------------ derived on demand
    def neighbors(self, joints: Sequence[Joint]) -> Adjacency:
        """Return every link's adjacency list (``joints`` are the model's joints).

        For each joint in index order, link1 gets ``(link2, joint)`` and link2 ``(link1,
        joint)``. Computed once per index: an index is made for one joint list only.
        """
        nb = self._neighbors
        if nb is None:
            ends = self._ends
            if ends is None:
                ends = _read_ends(joints, self.links.table())
            nb = _adjacency(ends, len(self.links))
            set_derived(self, "_neighbors", nb)
        return nb

    def flat_links(self, joints: Sequence[Joint]) -> Links:
        """Return the adjacency as flat lists, for a traversal (``joints``: the model's).

        Made per call, not kept: a model keeps its traversals (``Model.traversal``), and the
        flat lists are a few objects where :meth:`neighbors` makes one per entry.
        """
        return flat_links(*self.joint_ends(joints), len(self.links))

    def joint_ends(self, joints: Sequence[Joint]) -> JointEnds:
        """Return each joint's link indices: the ``link1``s, then the ``link2``s.

        ``joints`` are the model's; they are read only when whoever made the index did not
        give the ends (the loader, :func:`derive` and the transformers do).
        """
        ends = self._ends
        return _read_ends(joints, self.links.table()) if ends is None else ends

    def connected(self) -> bool:
        """Whether the links form one tree (at most one component in the union-find).

        The index is a forest (every joint joined two components), so it has one component
        per link less one per joint: no pass over the union-find.
        """
        return len(self.links) - len(self.joints) <= 1


def _keep_connectivity(old: ModelIndex, new: ModelIndex) -> None:
    """Give ``new`` (same links and joints as ``old``) what ``old`` derived of its connectivity."""
    if old._neighbors is not None:
        set_derived(new, "_neighbors", old._neighbors)
    if old._ends is not None:
        set_derived(new, "_ends", old._ends)


def _read_ends(joints: Sequence[Joint], index: Mapping[str, int]) -> JointEnds:
    """Return the joints' link indices, reading each joint's two link names once.

    ``index`` is the links' name table: every joint's links are links of the model, so a plain
    dict lookup answers for them. C-level passes (``map``): each joint is a cold object on a
    freshly loaded model, and no per-joint Python object is made on the way.
    """
    lookup = index.__getitem__
    return tuple(map(lookup, map(_LINK1, joints))), tuple(map(lookup, map(_LINK2, joints)))


def _adjacency(ends: JointEnds, n_links: int) -> Adjacency:
    """Return the adjacency lists of ``n_links`` links joined by joints with these ``ends``.

    For each joint ``j`` in index order, its link1 gets ``(link2, j)`` and its link2 ``(link1,
    j)``. The entries are made by ``map`` from ``zip``'s pairs: ``tuple.__new__`` copies a pair
    into a :class:`Neighbor` without the named tuple's Python-level ``__new__`` (same value).
    """
    one, two = ends
    order = range(len(one))
    at_one = map(tuple.__new__, repeat(Neighbor), zip(two, order, strict=True))  # what link1 gets
    at_two = map(tuple.__new__, repeat(Neighbor), zip(one, order, strict=True))  # what link2 gets
    lists: list[list[Neighbor]] = [[] for _ in range(n_links)]
    for a, b, e1, e2 in zip(one, two, at_one, at_two, strict=True):
        lists[a].append(e1)
        lists[b].append(e2)
    return tuple(map(tuple, lists))


_LINK1 = attrgetter("link1")
_LINK2 = attrgetter("link2")

_EMPTY = ModelIndex(
    links=NameIndex.build(()),
    joints=NameIndex.build(()),
    frames=NameIndex.build(()),
    sensors=NameIndex.build(()),
    components=pvector(),
    counts=(0, 0),
)


def restored_index(
    link_names: Sequence[str],
    joint_names: Sequence[str],
    frame_names: Sequence[str],
    sensor_names: Sequence[str],
    components: Sequence[int],
    counts: tuple[int, int],
) -> ModelIndex:
    """Return the index of a model whose elements a previous :func:`derive` or builder checked.

    For a model read back from its pickled state (:mod:`robomodel.model._pickling`): the names are
    unique and the union-find and counts are those of the index the state was taken from, so
    the maps are rebuilt without any check.
    """
    return make(ModelIndex)(
        NameIndex.wrap(dict(zip(link_names, range(len(link_names)), strict=True))),
        NameIndex.wrap(dict(zip(joint_names, range(len(joint_names)), strict=True))),
        NameIndex.wrap(dict(zip(frame_names, range(len(frame_names)), strict=True))),
        NameIndex.wrap(dict(zip(sensor_names, range(len(sensor_names)), strict=True))),
        pvector(components),
        counts,
    )


def tree_index(
    link_names: Sequence[str],
    joint_names: Sequence[str] | NameIndex,
    frame_names: Sequence[str],
    sensor_names: Sequence[str] | NameIndex,
    counts: tuple[int, int],
    joint_ends: JointEnds | None = None,
) -> ModelIndex:
    """Return the index of a model whose joints connect all its links into one tree.

    For a model built from a valid one by a transformer that proved its names unique and its
    joints a tree over every link (:mod:`robomodel.model.assembly`): the union-find is one
    component,
    every link hanging directly below link 0, which is what any sequence of unions of that
    tree could have left (finds stay one step). Joint and sensor names may be given as the
    name map of another model that has the same names in the same order. ``joint_ends``, when
    the caller has them, are each joint's link indices (``link1``s, then ``link2``s): the
    adjacency lists are then built from them instead of from the joints.
    """
    n = len(link_names)
    components = [0] * n
    if n:
        components[0] = -1 if n == 1 else -2
    index = make(ModelIndex)(
        _names(link_names),
        _names(joint_names),
        _names(frame_names),
        _names(sensor_names),
        pvector(components),
        counts,
    )
    if joint_ends is not None:
        set_derived(index, "_ends", joint_ends)
    return index


def _names(names: Sequence[str] | NameIndex) -> NameIndex:
    if isinstance(names, NameIndex):
        return names
    return NameIndex.wrap(dict(zip(names, range(len(names)), strict=True)))


# ---------------------------------------------------------------------------- the derivation
class Derived(NamedTuple):
    """What :func:`derive` returns: the model's normalised fields and its index."""

    joints: PVectorT[Joint]
    default_base: str | None
    visuals: PVectorT[PVectorT[SolidShape]]
    collisions: PVectorT[PVectorT[SolidShape]]
    model_index: ModelIndex


def _checked_frames(frames: Sequence[Any], lmap: Mapping[str, int]) -> dict[str, int]:
    """Check the additional frames one by one; raise on the first problem."""
    fmap: dict[str, int] = {}
    for k, f in enumerate(frames):
        if type(f.name) is not str or not f.name:
            check_name(f.name, "frame")
        if f.name in lmap or f.name in fmap:
            raise DuplicateNameError("link or frame", f.name)
        if f.link not in lmap:
            raise UnknownNameError("link", f.link, lmap) from None
        fmap[f.name] = k
    return fmap


def derive(
    *,
    link_names: Sequence[str],
    links: Sequence[object],
    joint_names: Sequence[str],
    joints: PVectorT[Joint],
    frames: Sequence[Any],
    default_base: str | None,
    visuals: PVectorT[Any],
    collisions: PVectorT[Any],
    sensors: Sequence[Sensor],
) -> Derived:
    """Validate a model's element lists and derive its index and normalised fields (O(n log n)).

    A pure function of the fields: the joints get the running position-coordinate and DOF
    offsets, the default base defaults to the first link, empty shape lists default to one empty
    list per link. The checks (and their messages) are those of the builders, in the order the
    builders would meet them adding the elements one by one.
    """
    n = len(links)
    if len(link_names) != n:
        raise ModelError(f"{len(link_names)} link names for {n} links")
    if len(joint_names) != len(joints):
        raise ModelError(f"{len(joint_names)} joint names for {len(joints)} joints")
    # ``type(x) is str and x`` is the common case of check_name, tested inline: the call per
    # name was a sizeable share of building a model of a few hundred elements.
    lmap: dict[str, int] = {}
    for i, name in enumerate(link_names):
        if type(name) is not str or not name:
            check_name(name, "link")
        if name in lmap:
            raise DuplicateNameError("link", name)
        lmap[name] = i
    # Frames: set-level checks first (all names plain non-empty strings, unique, not link names,
    # on known links); only when one fails, _checked_frames finds the first offender and raises.
    fnames = [f.name for f in frames]
    fmap: dict[str, int] = {}
    if set(map(type, fnames)) <= {str}:  # before hashing them: a name may be anything
        fmap = {name: k for k, name in enumerate(fnames)}
    if not (
        len(fmap) == len(fnames)
        and "" not in fmap
        and fmap.keys().isdisjoint(lmap)
        and {f.link for f in frames} <= lmap.keys()
    ):
        fmap = _checked_frames(frames, lmap)
    if default_base is not None and default_base not in lmap:
        raise UnknownNameError("link", default_base, lmap)
    base = default_base if default_base is not None else (link_names[0] if n else None)

    # One pass over the joints with a local union-find: the same checks and offsets as the
    # builders, without building an intermediate model per joint.
    uf = [-1] * n
    ones: list[int] = []  # each joint's link indices, for the adjacency lists (see _ends)
    twos: list[int] = []
    jmap: dict[str, int] = {}
    placed: list[Joint] = []
    npos = ndof = 0
    for jn, joint in zip(joint_names, joints, strict=True):
        if type(jn) is not str or not jn:
            check_name(jn, "joint")
        if not isinstance(joint, JOINT_KINDS):
            raise ModelError(
                f"joint {jn!r}: expected a FixedJoint, RevoluteJoint or PrismaticJoint, "
                f"got {type(joint).__name__}"
            )
        if jn in jmap:
            raise DuplicateNameError("joint", jn)
        l1 = lmap.get(joint.link1)
        l2 = lmap.get(joint.link2)
        if l1 is None or l2 is None:
            missing = joint.link1 if l1 is None else joint.link2
            raise UnknownNameError(
                "link", missing, lmap, hint=f"joint {jn!r} needs it; add the link first"
            )
        r1, r2 = _root(uf, l1), _root(uf, l2)
        if r1 == r2:
            raise _connected_error(jn, joint, placed, joint_names)
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
        placed.append(joint)
        ones.append(l1)
        twos.append(l2)
        jmap[jn] = len(placed) - 1
        npos += joint.n_pos_coords
        ndof += joint.n_dofs
    # The dicts map every name to its index already: wrap them instead of rebuilding them.
    lindex, jindex = NameIndex.wrap(lmap), NameIndex.wrap(jmap)

    smap: dict[str, int] = {}
    for k, s in enumerate(sensors):
        if s.name in smap:
            raise DuplicateNameError("sensor", s.name)
        smap[s.name] = k
        # A link sensor on a known link has no problem: skip the general check (and its call).
        if (type(s) is Accelerometer or type(s) is Gyroscope) and s.link in lmap:
            continue
        bad = sensor_problems(s, lindex, jindex, placed)
        if bad:
            raise ModelError(bad[0])

    vis = visuals if len(visuals) else pvector([EMPTY_SHAPES] * n)
    col = collisions if len(collisions) else pvector([EMPTY_SHAPES] * n)
    if len(vis) != n or len(col) != n:
        raise ModelError(
            f"visuals and collisions need one list per link ({n}), got {len(vis)} and {len(col)}"
        )
    changed = any(a is not b for a, b in zip(placed, joints, strict=True))
    index = make(ModelIndex)(
        lindex, jindex, NameIndex.wrap(fmap), NameIndex.wrap(smap), pvector(uf), (npos, ndof)
    )
    set_derived(index, "_ends", (tuple(ones), tuple(twos)))
    return Derived(
        joints=pvector(placed) if changed else joints,
        default_base=base,
        # ``type(v) is`` first: PVector is an ABC, so isinstance in pv is slow per link.
        visuals=pvector([v if type(v) is _PVECTOR else pv(v) for v in vis]),
        collisions=pvector([v if type(v) is _PVECTOR else pv(v) for v in col]),
        model_index=index,
    )


# ---------------------------------------------------------------------------- sensor references
def sensor_problems(
    s: Sensor, links: NameIndex, joint_index: NameIndex, joints: Sequence[Joint]
) -> list[str]:
    """Return what is wrong with the links and joint sensor ``s`` refers to (empty when fine)."""
    match s:
        case SixAxisForceTorqueSensor():
            j = joint_index.get(s.parent_joint)
            if j is None:
                return [
                    f"force/torque sensor {s.name!r}: the model has no joint {s.parent_joint!r}"
                ]
            bad = [
                f"force/torque sensor {s.name!r}: the model has no link {ln!r}"
                for ln in s.links
                if ln not in links
            ]
            if bad:
                return bad
            joint = joints[j]
            if {joint.link1, joint.link2} != {s.first_link, s.second_link}:
                return [
                    f"force/torque sensor {s.name!r}: links {s.first_link!r} and "
                    f"{s.second_link!r} are not the two ends of joint {s.parent_joint!r} "
                    f"({joint.link1!r}, {joint.link2!r})"
                ]
            return []
        case Accelerometer() | Gyroscope():
            if s.link not in links:
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
