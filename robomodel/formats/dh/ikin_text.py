"""iKin's text description of a chain (``fromLinksProperties`` / ``toLinksProperties``).

:func:`loads`/:func:`load` read it and :func:`dumps`/:func:`dump` write it, the verbs every
format shares (``docs/formats.md``); they read and write a :class:`~robomodel.formats.dh.DHChain`,
which :func:`~robomodel.formats.dh.chain_to_model` turns into a model.

The format is a YARP property file; angles are in **degrees**, lengths in metres::

    type right
    numLinks 2
    H0 (1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1)
    HN (1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1)
    link_0 (A 0.1) (D 0) (alpha 90) (offset 0) (min -90) (max 90)
    link_1 (A 0.1) (D 0) (alpha 0) (offset 0) (min -90) (max 90) (blocked 10)

Each ``link_i`` may also be written as a ``[link_i]`` section with one ``key value`` per line.
Missing ``A``, ``D``, ``alpha``, ``offset`` default to 0, ``min``/``max`` to -180/180, as in iKin.
Unknown keys are errors rather than being ignored.
"""

from __future__ import annotations

import math
import os
import re

import numpy as np

from robomodel._internal.deprecation import renamed_attributes
from robomodel._internal.files import atomic_write, read_regular
from robomodel.errors import ModelError
from robomodel.formats.dh.chain import DHChain, DHLink
from robomodel.model.spatial import Transform

__all__ = ["ANGLE_NOISE", "LENGTH_NOISE", "ROTATION_NOISE", "dump", "dumps", "load", "loads"]

_TOKEN = re.compile(r'\(|\)|"[^"]*"|[^\s()]+')
_LINK_KEYS = ("A", "D", "alpha", "offset", "min", "max", "blocked")
_TOP_KEYS = ("type", "numLinks", "H0", "HN")
_DEG = math.pi / 180.0

Item = str | list["Item"]


def _parse(tokens: list[str], line: int) -> list[Item]:
    out: list[Item] = []
    stack: list[list[Item]] = [out]
    for tok in tokens:
        if tok == "(":
            new: list[Item] = []
            stack[-1].append(new)
            stack.append(new)
        elif tok == ")":
            if len(stack) == 1:
                raise ModelError(f"iKin text, line {line}: unbalanced ')'")
            stack.pop()
        else:
            stack[-1].append(tok.strip('"'))
    if len(stack) != 1:
        raise ModelError(f"iKin text, line {line}: unbalanced '('; close every list on its line")
    return out


def _entries(text: str) -> dict[str, tuple[int, list[Item]]]:
    """Return ``key -> (line, values)``; ``[section]`` groups become ``key -> [[k, v], ...]``."""
    entries: dict[str, tuple[int, list[Item]]] = {}
    section: str | None = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//")[0].split("#")[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"\[\s*([^\]\s]+)\s*\]", line)
        if m:
            section = m.group(1)
            if section in entries:
                raise ModelError(f"iKin text, line {n}: {section!r} is given twice")
            entries[section] = (n, [])
            continue
        items = _parse(_TOKEN.findall(line), n)
        # "key v ..." is one entry; the Property form "(key v) (key v)" is one entry per list.
        groups = items if all(isinstance(i, list) for i in items) else [items]
        for g in groups:
            if not isinstance(g, list) or not g or not isinstance(g[0], str):
                raise ModelError(f"iKin text, line {n}: expected 'key value ...', got {line!r}")
            if section is not None:
                entries[section][1].append(g)
                continue
            if g[0] in entries:
                raise ModelError(f"iKin text, line {n}: {g[0]!r} is given twice")
            entries[g[0]] = (n, g[1:])
    return entries


def _number(item: Item, what: str, line: int) -> float:
    if not isinstance(item, str):
        raise ModelError(f"iKin text, line {line}: {what} must be a number, got a list")
    try:
        return float(item)
    except ValueError:
        raise ModelError(f"iKin text, line {line}: {what} must be a number, got {item!r}") from None


def _matrix(entries: dict[str, tuple[int, list[Item]]], key: str) -> Transform:
    if key not in entries:
        return Transform.identity()
    line, values = entries[key]
    flat = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    if len(flat) != 16:
        raise ModelError(
            f"iKin text, line {line}: {key} needs 16 numbers (a 4x4 matrix, row by row), "
            f"got {len(flat)}"
        )
    H = np.array([_number(v, key, line) for v in flat]).reshape(4, 4)
    return Transform.from_matrix(H)


def loads(text: str) -> DHChain:
    r"""Read a chain from iKin's text format (angles in degrees).

    >>> chain = loads("numLinks 1\nlink_0 (A 0.1) (alpha 90) (min -45) (max 45)")
    >>> round(chain.links[0].alpha, 12), round(chain.links[0].max, 12)
    (1.570796326795, 0.785398163397)
    """
    entries = _entries(text)
    if "numLinks" not in entries:
        raise ModelError("iKin text: 'numLinks' is missing; give the number of links")
    line, values = entries["numLinks"]
    count = _number(values[0] if values else "", "numLinks", line)
    if count != int(count) or count < 1:
        raise ModelError(
            f"iKin text, line {line}: numLinks must be a positive integer, got {count}"
        )
    n = int(count)
    known = set(_TOP_KEYS) | {f"link_{i}" for i in range(n)}
    unknown = sorted(k for k in entries if k not in known)
    if unknown:
        raise ModelError(
            f"iKin text: unknown keys {unknown}; expected type, numLinks, H0, HN and "
            f"link_0..link_{n - 1}"
        )
    links = []
    for i in range(n):
        key = f"link_{i}"
        if key not in entries:
            raise ModelError(f"iKin text: {key} is missing (numLinks is {n})")
        links.append(_link(key, *entries[key]))
    limb_type = ""
    if "type" in entries:
        tl, tv = entries["type"]
        if len(tv) != 1 or not isinstance(tv[0], str):
            raise ModelError(f"iKin text, line {tl}: type must be one word, e.g. 'right'")
        limb_type = tv[0]
    return DHChain(
        links=links, H0=_matrix(entries, "H0"), HN=_matrix(entries, "HN"), limb_type=limb_type
    )


def _link(key: str, line: int, items: list[Item]) -> DHLink:
    values: dict[str, float] = {}
    for item in items:
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str):
            raise ModelError(f"iKin text, line {line}: {key}: expected '(name value)' pairs")
        name = item[0]
        if name not in _LINK_KEYS:
            raise ModelError(
                f"iKin text, line {line}: {key}: unknown key {name!r}; "
                f"expected one of {', '.join(_LINK_KEYS)}"
            )
        values[name] = _number(item[1], f"{key} {name}", line)
    lo = values.get("min", -180.0) * _DEG
    hi = values.get("max", 180.0) * _DEG
    blocked = "blocked" in values
    return DHLink(
        values.get("A", 0.0),
        values.get("D", 0.0),
        values.get("alpha", 0.0) * _DEG,
        values.get("offset", 0.0) * _DEG,
        lo,
        hi,
        angle=values["blocked"] * _DEG if blocked else lo,
        blocked=blocked,
    )


LENGTH_NOISE = 1e-9
"""Lengths (m) smaller than this are printed as 0 by :func:`dumps`: a nanometre is far below
any robot's dimensions and the precision of URDF files, and far above the rounding left by
extracting a chain (about 1e-17 m on icub-models robots)."""

ANGLE_NOISE = 1e-8
"""Angles (degrees) closer than this to a multiple of 90 are printed as that multiple by
:func:`dumps` (rounding leaves ``179.99999999971945`` where the model says 180)."""

ROTATION_NOISE = 1e-12
"""Entries of ``H0``/``HN``'s rotation closer than this to -1, 0 or 1 are printed as that value by
:func:`dumps`. Only rounding noise (about 1e-16) is meant: a larger snap would print a
rotation visibly less orthogonal than the one stored."""


def _snapped(x: float, grid: float, tolerance: float) -> float:
    near = grid * round(x / grid)
    return near if abs(x - near) <= tolerance else x


def _length_text(x: float, exact: bool) -> str:
    value = float(x) if exact or abs(x) >= LENGTH_NOISE else 0.0
    return repr(value + 0.0)  # + 0.0 prints -0.0 as 0.0


def _rotation_text(x: float, exact: bool) -> str:
    value = float(x)
    return repr((value if exact else _snapped(value, 1.0, ROTATION_NOISE)) + 0.0)


def _degrees_text(radians: float, exact: bool) -> str:
    """The shortest decimal number of degrees that :func:`loads` reads back as ``radians``.

    ``math.degrees(math.radians(30.0))`` is ``29.999999999999996``; printing ``30.0`` instead
    loses nothing, since reading it multiplies by the same factor and gives the same radians.
    Multiplying by ``pi / 180`` does not reach every float, so for some values no number of
    degrees reads back exactly; the one that reads back closest is printed (one rounding off).
    """
    degrees = math.degrees(radians)
    if not exact:
        snapped = _snapped(degrees, 90.0, ANGLE_NOISE)
        if snapped != degrees:
            return repr(snapped + 0.0)
    for digits in range(1, 18):
        candidate = float(f"{degrees:.{digits}g}")
        if candidate * _DEG == radians:
            return repr(candidate + 0.0)
    # No short decimal reads back exactly: try the floats next to the conversion itself.
    near = [degrees]
    for direction in (math.inf, -math.inf):
        d = degrees
        for _ in range(4):
            d = math.nextafter(d, direction)
            near.append(d)
    best = min(near, key=lambda d: abs(d * _DEG - radians))  # the first of equals: degrees
    return repr(best + 0.0)


def dumps(chain: DHChain, *, exact: bool = False) -> str:
    """Write ``chain`` in iKin's text format (angles in degrees); :func:`loads` reads it back.

    Each number is the shortest decimal that reads back as the stored value (for angles, the
    shortest number of degrees that converts back to the stored radians). Rounding noise is
    printed as the value it stands for: lengths below :data:`LENGTH_NOISE` as 0, angles within
    :data:`ANGLE_NOISE` of a multiple of 90 degrees as that multiple, rotation entries within
    :data:`ROTATION_NOISE` of -1, 0 or 1 as that value. Only the text changes; ``chain`` keeps
    its exact values, and ``exact=True`` prints them all unchanged, so that
    ``loads(dumps(chain, exact=True))`` has the same parameters as ``chain`` (angles to
    one rounding at most: multiplying degrees by ``pi / 180`` does not reach every float).

    Joint names and the angles of free links are not part of the format and are not written.

    >>> from robomodel.formats.dh import DHChain, DHLink
    >>> noisy = math.radians(179.99999999971945)
    >>> link = DHLink(0.1, -1.93e-17, math.pi / 2, noisy, math.radians(-30), math.radians(30))
    >>> print(dumps(DHChain(links=[link])).splitlines()[-1])
    link_0 (A 0.1) (D 0.0) (alpha 90.0) (offset 180.0) (min -30.0) (max 30.0)
    """

    def mat(T: Transform) -> str:
        H = T.as_matrix()
        rows = [
            [_rotation_text(v, exact) for v in H[r, :3]] + [_length_text(H[r, 3], exact)]
            for r in range(3)
        ]
        return "(" + " ".join([*(t for row in rows for t in row), "0.0 0.0 0.0 1.0"]) + ")"

    def deg(x: float) -> str:
        return _degrees_text(x, exact)

    lines = []
    if chain.limb_type:
        lines.append(f"type {chain.limb_type}")
    lines += [f"numLinks {chain.n_links}", f"H0 {mat(chain.H0)}", f"HN {mat(chain.HN)}"]
    for i, link in enumerate(chain.links):
        parts = [
            f"(A {_length_text(link.a, exact)})",
            f"(D {_length_text(link.d, exact)})",
            f"(alpha {deg(link.alpha)})",
            f"(offset {deg(link.offset)})",
            f"(min {deg(link.min)})",
            f"(max {deg(link.max)})",
        ]
        if link.blocked:
            parts.append(f"(blocked {deg(link.angle)})")
        lines.append(f"link_{i} " + " ".join(parts))
    return "\n".join(lines) + "\n"


def load(path: str | os.PathLike[str]) -> DHChain:
    """Read a chain from an iKin text file (UTF-8); see :func:`loads`."""
    data = read_regular(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ModelError(
            f"{os.fspath(path)}: not UTF-8 text (byte {e.start}); save it as UTF-8"
        ) from None
    try:
        return loads(text)
    except ModelError as e:  # name the file, as every reader's error does
        raise ModelError(f"{os.fspath(path)}: {e}") from e


def dump(chain: DHChain, path: str | os.PathLike[str], *, exact: bool = False) -> None:
    """Write ``chain`` as an iKin text file (UTF-8, replaced in one step); see :func:`dumps`."""
    atomic_write(os.fspath(path), dumps(chain, exact=exact))


__getattr__ = renamed_attributes(
    __name__,
    {
        "loads_ikin": ("robomodel.formats.dh.loads", lambda: loads),
        "dumps_ikin": ("robomodel.formats.dh.dumps", lambda: dumps),
    },
)
