"""Several named DH chains with shared links (the seed's "buddies") as one value.

On a robot one physical body often appears in several chains: iCub's chest is link 2 of the
torso chain and of both arm chains. A :class:`Rig` declares those links as a :class:`BuddyGroup`
with a master, and :func:`set_rig_angle` moves every member together, so the joint is one value
rather than several copies kept in sync. Groups are declared, never detected from DH rows (the
chest rows differ between the three chains even though the joint is the same).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
from pyrsistent import PMap, PVector, pmap, pvector
from pyrsistent.typing import PMap as PMapT
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import set_derived
from robomodel.errors import ModelError, UnknownNameError
from robomodel.formats.dh.chain import DHChain, set_link_angle
from robomodel.formats.dh.geometry import LinkGeometry, link_geometry
from robomodel.formats.dh.presets import IKinVersion, icub_arm, icub_leg, icub_torso
from robomodel.model.spatial import Transform

__all__ = [
    "BuddyGroup",
    "LinkRef",
    "Rig",
    "icub_rig",
    "make_rig",
    "set_rig_angle",
    "set_rig_chain_angles",
]

FloatArray = npt.NDArray[np.float64]

LinkRef = tuple[str, int]
"""A link of a rig: ``(chain name, link index)``."""


def _ref(value: Sequence[Any]) -> LinkRef:
    return (str(value[0]), int(value[1]))


def _refs(value: Iterable[Sequence[Any]]) -> tuple[LinkRef, ...]:
    return tuple((str(c), int(i)) for c, i in value)


@attrs.frozen
class BuddyGroup:
    """Links of several chains that are one physical body; ``master`` is one of ``members``.

    Attributes:
        master: the member whose chain reports the body's geometry (the seed's master buddy).
        members: every member, the master included.
    """

    master: LinkRef = attrs.field(converter=_ref)
    members: tuple[LinkRef, ...] = attrs.field(converter=_refs)

    def __attrs_post_init__(self) -> None:
        if self.master not in self.members:
            raise ModelError(
                f"buddy group {self.members}: the master {self.master} is not a member"
            )
        if len(set(self.members)) != len(self.members):
            raise ModelError(f"buddy group {self.members} lists a link twice")


def _chains(value: Mapping[str, DHChain]) -> PMapT[str, DHChain]:
    return value if isinstance(value, PMap) else pmap(value)


def _groups(value: Iterable[BuddyGroup]) -> PVectorT[BuddyGroup]:
    return value if isinstance(value, PVector) else pvector(value)


@attrs.frozen(kw_only=True)
class Rig:
    """Named DH chains and the groups of links they share.

    Build one with :func:`make_rig` (which aligns every group to its master's angle); the
    constructor itself only validates and raises if the members of a group disagree.

    Attributes:
        chains: the chains by name.
        groups: the buddy groups; a link belongs to at most one.
    """

    chains: PMapT[str, DHChain] = attrs.field(converter=_chains)
    groups: PVectorT[BuddyGroup] = attrs.field(factory=pvector, converter=_groups)
    _group_of: dict[LinkRef, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        group_of: dict[LinkRef, int] = {}
        for g, group in enumerate(self.groups):
            for ref in group.members:
                self._check_ref(ref)
                if ref in group_of:
                    raise ModelError(
                        f"link {ref} is in two buddy groups ({group_of[ref]} and {g}); "
                        "a link can be in one group only"
                    )
                group_of[ref] = g
            angles = {self.chains[c].links[i].angle for c, i in group.members}
            if len(angles) > 1:
                raise ModelError(
                    f"the members of buddy group {group.members} have different angles "
                    f"{sorted(angles)}; build the rig with make_rig() to align them to the master"
                )
        set_derived(self, "_group_of", group_of)

    def _check_ref(self, ref: LinkRef) -> None:
        chain, i = ref
        if chain not in self.chains:
            raise UnknownNameError("chain", chain, self.chains.keys())
        self.chains[chain]._check_index(i)

    def chain(self, name: str) -> DHChain:
        """Return the chain called ``name``."""
        if name not in self.chains:
            raise UnknownNameError("chain", name, self.chains.keys())
        return self.chains[name]

    def buddies(self, chain: str, link: int) -> tuple[LinkRef, ...]:
        """Return every member of the link's group (just the link itself when it has none)."""
        self._check_ref((chain, link))
        g = self._group_of.get((chain, link))
        return ((chain, link),) if g is None else self.groups[g].members

    def master_of(self, chain: str, link: int) -> LinkRef:
        """Return the master of the link's group (the link itself when it has none)."""
        self._check_ref((chain, link))
        g = self._group_of.get((chain, link))
        return (chain, link) if g is None else self.groups[g].master

    def link_geometry(
        self,
        chain: str,
        link: int,
        *,
        world_H_root: Transform | None = None,
        link_H_object: Transform | None = None,
        body: str | None = None,
    ) -> LinkGeometry:
        """Return the link's geometry as its own chain sees it (see :func:`link_geometry`)."""
        return link_geometry(
            self.chain(chain),
            link,
            world_H_root=world_H_root,
            link_H_object=link_H_object,
            body=body,
        )

    def body_geometry(
        self,
        chain: str,
        link: int,
        *,
        world_H_root: Transform | None = None,
        link_H_object: Transform | None = None,
        body: str | None = None,
    ) -> LinkGeometry:
        """Return the geometry of the physical body, as reported by its group's master chain.

        Every member of a group moves the same ``body``; only the master's view places it (the
        seed's master buddy), so this is the geometry to take ``world_H_object`` from.
        """
        mc, ml = self.master_of(chain, link)
        return link_geometry(
            self.chains[mc], ml, world_H_root=world_H_root, link_H_object=link_H_object, body=body
        )


def _put(chains: PMapT[str, DHChain], refs: Iterable[LinkRef], value: float) -> PMapT[str, DHChain]:
    for c, i in refs:
        ch = chains[c]
        if ch.links[i].angle != value:
            link = attrs.evolve(ch.links[i], angle=value)
            chains = chains.set(c, attrs.evolve(ch, links=ch.links.set(i, link)))
    return chains


def make_rig(chains: Mapping[str, DHChain], groups: Iterable[BuddyGroup] = ()) -> Rig:
    """Return a rig whose group members all take their master's angle (the seed's ``setBuddies``).

    >>> from robomodel.formats.dh import DHChain, DHLink
    >>> a = DHChain(links=[DHLink(0.1, 0.0, 0.0, 0.0, -1.0, 1.0)])
    >>> b = DHChain(links=[DHLink(0.2, 0.0, 0.0, 0.0, -1.0, 1.0, angle=0.5)])
    >>> rig = make_rig({"a": a, "b": b}, [BuddyGroup(("a", 0), [("a", 0), ("b", 0)])])
    >>> rig.chain("b").links[0].angle
    -1.0
    """
    cm = _chains(chains)
    gs = _groups(groups)
    for group in gs:
        mc, ml = group.master
        if mc not in cm:
            raise UnknownNameError("chain", mc, cm.keys())
        value = cm[mc].links[cm[mc]._check_index(ml)].angle
        for c, i in group.members:
            if c not in cm:
                raise UnknownNameError("chain", c, cm.keys())
            cm[c]._check_index(i)
        cm = _put(cm, group.members, value)
    return Rig(chains=cm, groups=gs)


def set_rig_angle(rig: Rig, chain: str, link: int, angle: float) -> tuple[Rig, float]:
    """Return ``(new_rig, value)`` with the angle of a link and of all its buddies set.

    While a member's chain is constrained the value is clamped to that member's limits, so the
    group as a whole is clamped to the intersection of its constrained members' limits; every
    member ends up with the same ``value``.
    """
    refs = rig.buddies(chain, link)
    if len(refs) == 1:
        new, value = set_link_angle(rig.chains[chain], link, angle)
        return (
            rig
            if new is rig.chains[chain]
            else attrs.evolve(rig, chains=rig.chains.set(chain, new))
        ), value
    lo, hi = -np.inf, np.inf
    for c, i in refs:
        ch = rig.chains[c]
        if ch.constrained:
            lo, hi = max(lo, ch.links[i].min), min(hi, ch.links[i].max)
    if lo > hi:
        raise ModelError(
            f"the buddy group {refs} has no common angle: the members' limits do not overlap; "
            "fix the limits of one member"
        )
    value = min(max(float(angle), lo), hi)
    chains = _put(rig.chains, refs, value)
    return (rig if chains is rig.chains else attrs.evolve(rig, chains=chains)), value


def set_rig_chain_angles(
    rig: Rig, chain: str, q: Sequence[float] | FloatArray
) -> tuple[Rig, FloatArray]:
    """Set one chain's free-link angles (DOF order) through the rig, buddies included.

    Returns the new rig and the values actually stored.
    """
    dofs = rig.chain(chain).dof_links
    values = np.asarray(q, dtype=np.float64)
    if values.shape != (len(dofs),):
        raise ModelError(f"chain {chain!r} has {len(dofs)} DOFs; got {values.size} angles")
    out = np.empty(len(dofs))
    for n, k in enumerate(dofs):
        rig, out[n] = set_rig_angle(rig, chain, k, values[n])
    return rig, out


def icub_rig(version: str | IKinVersion) -> Rig:
    """Return iCub's torso, arms and legs as one rig, the torso joints shared with both arms.

    Chains: ``torso``, ``left_arm``, ``right_arm``, ``left_leg``, ``right_leg``. Links 0-2 of
    the torso (pitch, roll, yaw) are the masters of links 0-2 of both arms; in the arm chains they
    stay blocked (not DOFs of the arm) but move with the torso.

    >>> rig = icub_rig("2.7")
    >>> rig, value = set_rig_angle(rig, "torso", 0, 0.2)
    >>> rig.chain("left_arm").links[0].angle == rig.chain("right_arm").links[0].angle == 0.2
    True
    """
    v = IKinVersion.parse(version)
    chains = {
        "torso": icub_torso(v),
        "left_arm": icub_arm("left", v),
        "right_arm": icub_arm("right", v),
        "left_leg": icub_leg("left", v),
        "right_leg": icub_leg("right", v),
    }
    groups = [
        BuddyGroup(("torso", k), [("torso", k), ("left_arm", k), ("right_arm", k)])
        for k in range(3)
    ]
    return make_rig(chains, groups)
