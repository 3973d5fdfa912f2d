"""The iCub DH tables of iKin as named presets with explicit versions.

The tables are iKin's (``iCubTorso``, ``iCubArm``, ``iCubLeg`` in icub-main's ``iKinFwd.cpp``),
for hardware versions below 3. Versions are ``major.minor`` compared as integers, so ``2.10`` is
newer than ``2.7`` (iKin's ``iKinLimbVersion``). An unknown side, limb or version is an error:
robomodel never falls back to another table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from robomodel.errors import ModelError, UnknownNameError
from robomodel.formats.dh.chain import DHChain, DHLink, block_link

__all__ = [
    "ICUB_PRESETS",
    "IKinVersion",
    "icub_arm",
    "icub_chain",
    "icub_leg",
    "icub_preset",
    "icub_torso",
    "parse_limb_type",
]

_PI2 = math.pi / 2.0
_DEG = math.pi / 180.0
_SIDES = ("left", "right")


@attrs.frozen(order=True)
class IKinVersion:
    """An iCub hardware version ``major.minor``, ordered as a pair of integers.

    >>> IKinVersion.parse("2.10") > IKinVersion.parse("2.7")
    True
    >>> IKinVersion.parse("2.10") == IKinVersion.parse("2.1")
    False
    """

    major: int
    minor: int = 0

    @classmethod
    def parse(cls, text: str | IKinVersion) -> IKinVersion:
        """Parse ``"2"``, ``"2.5"``, ``"v2.10"``; raise :class:`ModelError` on anything else."""
        if isinstance(text, IKinVersion):
            return text
        m = re.fullmatch(r"v?(\d+)(?:\.(\d+))?", str(text).strip())
        if m is None:
            raise ModelError(
                f"{text!r} is not an iCub version; write major.minor, e.g. '2.5' or '1'"
            )
        return cls(int(m.group(1)), int(m.group(2) or 0))

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


V1_7 = IKinVersion(1, 7)
V2 = IKinVersion(2, 0)
V3 = IKinVersion(3, 0)


def parse_limb_type(limb_type: str) -> tuple[str, IKinVersion]:
    """Split an iKin type string ``<side>[_v<major>.<minor>]`` into side and version.

    A bare side means version 1.0, as in iKin. The side must be ``"left"`` or ``"right"`` (iKin
    turns anything else into the left limb; robomodel raises).

    >>> parse_limb_type("right_v2.5")
    ('right', IKinVersion(major=2, minor=5))
    >>> parse_limb_type("left")
    ('left', IKinVersion(major=1, minor=0))
    """
    side, version, problems = _limb_type_parts(limb_type)
    if problems:
        raise ModelError(f"iKin limb type {limb_type!r}: " + "; ".join(problems))
    return side, version


def _limb_type_parts(limb_type: str) -> tuple[str, IKinVersion, list[str]]:
    """Side, version and every problem found (both parts are checked, whatever the first gives)."""
    side, sep, rest = str(limb_type).partition("_")
    problems = []
    if side not in _SIDES:
        problems.append(f"the side must be 'left' or 'right', got {side!r}")
    version = IKinVersion(1, 0)
    if sep and not rest.startswith("v"):
        problems.append("write the version as '_v<major>.<minor>', e.g. 'right_v2.5'")
    elif sep:
        try:
            version = IKinVersion.parse(rest[1:])
        except ModelError as e:
            problems.append(str(e))
    return side, version, problems


def _side(side: str) -> str:
    if side not in _SIDES:
        raise ModelError(f"the side must be 'left' or 'right', got {side!r}")
    return side


def _no_v3(limb: str, version: IKinVersion) -> None:
    if version >= V3:
        raise ModelError(
            f"iCub {limb} version {version}: only the tables for versions below 3.0 are included "
            "(v1, v1.7 and v2.x for arms; v1 and v2.x for legs)"
        )


def _l(a: float, d: float, alpha: float, offset: float, lo: float, hi: float) -> DHLink:
    # iKin writes the limits in degrees; every other value is already SI.
    return DHLink(a, d, alpha, offset, lo * _DEG, hi * _DEG)


def _arm_h0() -> list[list[float]]:
    return [[0, -1, 0, 0], [0, 0, -1, 0], [1, 0, 0, 0], [0, 0, 0, 1]]


def icub_torso(version: str | IKinVersion) -> DHChain:
    """Return iKin's iCub torso chain (3 links, pitch -> roll -> yaw from the base).

    >>> icub_torso("2.5").n_dofs
    3
    """
    v = IKinVersion.parse(version)
    _no_v3("torso", v)
    links = [
        _l(0.032, 0.0, _PI2, 0.0, -22.0, 84.0),
        _l(0.0, -0.0055, _PI2, -_PI2, -39.0, 39.0),
        _l(0.00231, -0.1933, -_PI2, -_PI2, -59.0, 59.0),
    ]
    return DHChain(links=links, H0=_arm_h0())


def icub_arm(side: str, version: str | IKinVersion) -> DHChain:
    """Return iKin's iCub arm chain: 3 torso links (blocked at 0) and 7 arm links.

    Versions below 1.7 use the v1 forearm, below 2.0 the v1.x hand, and 2.0 up to (not
    including) 3.0 the v2 table.

    >>> chain = icub_arm("right", "2.7")
    >>> chain.n_links, chain.n_dofs, chain.limb_type
    (10, 7, 'right_v2.7')
    """
    s = _side(side)
    v = IKinVersion.parse(version)
    _no_v3("arm", v)
    forearm = 0.1373 if v < V1_7 else 0.1413
    hand = 0.016 if v < V2 else 0.02598
    if s == "right":
        links = [
            _l(0.032, 0.0, _PI2, 0.0, -22.0, 84.0),
            _l(0.0, -0.0055, _PI2, -_PI2, -39.0, 39.0),
            _l(-0.0233647, -0.1433, _PI2, -105.0 * _DEG, -59.0, 59.0),
            _l(0.0, -0.10774, _PI2, -_PI2, -95.5, 5.0),
            _l(0.0, 0.0, -_PI2, -_PI2, 0.0, 160.8),
            _l(-0.015, -0.15228, -_PI2, -105.0 * _DEG, -37.0, 100.0),
            _l(0.015, 0.0, _PI2, 0.0, 5.5, 106.0),
            _l(0.0, -forearm, _PI2, -_PI2, -50.0, 50.0),
            _l(0.0, 0.0, _PI2, _PI2, -65.0, 10.0),
            _l(0.0625, hand, 0.0, math.pi, -25.0, 25.0),
        ]
    else:
        links = [
            _l(0.032, 0.0, _PI2, 0.0, -22.0, 84.0),
            _l(0.0, -0.0055, _PI2, -_PI2, -39.0, 39.0),
            _l(0.0233647, -0.1433, -_PI2, 105.0 * _DEG, -59.0, 59.0),
            _l(0.0, 0.10774, -_PI2, _PI2, -95.5, 5.0),
            _l(0.0, 0.0, _PI2, -_PI2, 0.0, 160.8),
            _l(0.015, 0.15228, -_PI2, 75.0 * _DEG, -37.0, 100.0),
            _l(-0.015, 0.0, _PI2, 0.0, 5.5, 106.0),
            _l(0.0, forearm, _PI2, -_PI2, -50.0, 50.0),
            _l(0.0, 0.0, _PI2, _PI2, -65.0, 10.0),
            _l(0.0625, -hand, 0.0, 0.0, -25.0, 25.0),
        ]
    chain = DHChain(links=links, H0=_arm_h0(), limb_type=_type(s, v))
    for k in range(3):
        chain = block_link(chain, k, 0.0)
    return chain


def icub_leg(side: str, version: str | IKinVersion) -> DHChain:
    """Return iKin's iCub leg chain (6 links): v1 below 2.0, the v2.x table up to 3.0.

    iKin has no table named "v2": its 2.x legs use the table older releases called "v2.5".

    >>> icub_leg("left", "2.5").H0.position.tolist()
    [0.0, -0.0681, -0.1199]
    """
    s = _side(side)
    v = IKinVersion.parse(version)
    _no_v3("leg", v)
    r = s == "right"
    # Left legs mirror the right ones through the sagittal plane: alpha and D change sign.
    sa = 1.0 if r else -1.0
    if v < V2:
        links = [
            _l(0.0, 0.0, sa * _PI2, _PI2, -44.0, 132.0),
            _l(0.0, 0.0, sa * _PI2, _PI2, -119.0, 17.0),
            _l(0.0, sa * 0.2236, -sa * _PI2, -_PI2, -79.0, 79.0),
            _l(-0.213, 0.0, math.pi, _PI2, -125.0, 0.0),
            _l(0.0, 0.0, sa * _PI2, 0.0, -42.0, 21.0),
            _l(-0.041, 0.0, math.pi if r else 0.0, 0.0, -24.0, 24.0),
        ]
    else:
        links = [
            _l(0.0, 0.0, sa * _PI2, _PI2, -44.0, 132.0),
            _l(0.0, 0.0, sa * _PI2, _PI2, -119.0, 17.0),
            _l(-0.0009175, sa * 0.234545, -sa * _PI2, -_PI2, -79.0, 79.0),
            _l(-0.2005, 0.0, math.pi, _PI2, -125.0, 0.0),
            _l(0.0, 0.0, sa * _PI2, 0.0, -42.0, 21.0),
            _l(-0.06805, sa * 0.0035, math.pi if r else 0.0, 0.0, -24.0, 24.0),
        ]
    H0 = [[1, 0, 0, 0], [0, 0, 1, sa * 0.0681], [0, -1, 0, -0.1199], [0, 0, 0, 1]]
    return DHChain(links=links, H0=H0, limb_type=_type(s, v))


def _type(side: str, v: IKinVersion) -> str:
    return side if v == IKinVersion(1) else f"{side}_v{v}"


def icub_chain(limb: str, limb_type: str) -> DHChain:
    """Return the preset for ``limb`` (``"arm"``, ``"leg"``) from an iKin type string.

    >>> icub_chain("leg", "right_v2.6").limb_type
    'right_v2.6'

    Raises:
        ModelError: the limb, the side or the version is unknown (every one of them that is,
            in one message).
    """
    problems = []
    if limb not in ("arm", "leg"):
        problems.append(
            f"unknown iCub limb {limb!r}; use 'arm' or 'leg' (or icub_torso(version) for the torso)"
        )
    side, version, type_problems = _limb_type_parts(limb_type)
    if type_problems:
        problems.append(f"iKin limb type {limb_type!r}: " + "; ".join(type_problems))
    elif limb in ("arm", "leg"):
        try:
            _no_v3(limb, version)
        except ModelError as e:
            problems.append(str(e))
    # Every problem at once: fixing the limb only to be told the type is wrong too wastes a run.
    if problems:
        raise ModelError("; ".join(problems))
    return icub_arm(side, version) if limb == "arm" else icub_leg(side, version)


ICUB_PRESETS: Mapping[str, tuple[str, str, str]] = MappingProxyType(
    {
        f"{side}_{limb}_v{v}": (limb, side, v)
        for limb, versions in (("arm", ("1", "1.7", "2")), ("leg", ("1", "2")))
        for side in _SIDES
        for v in versions
    }
    | {"torso": ("torso", "", "2")}
)
"""The named iCub tables: ``name -> (limb, side, version)``; ``v2`` stands for every 2.x."""


def icub_preset(name: str) -> DHChain:
    """Return a named iCub table, e.g. ``"right_arm_v1.7"``, ``"left_leg_v2"``, ``"torso"``.

    >>> sorted(ICUB_PRESETS)[:3]
    ['left_arm_v1', 'left_arm_v1.7', 'left_arm_v2']
    >>> icub_preset("left_leg_v2") == icub_leg("left", "2.0")
    True
    """
    if name not in ICUB_PRESETS:
        raise UnknownNameError("iCub preset", name, ICUB_PRESETS)
    limb, side, version = ICUB_PRESETS[name]
    if limb == "torso":
        return icub_torso(version)
    return icub_arm(side, version) if limb == "arm" else icub_leg(side, version)
