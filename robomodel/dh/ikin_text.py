"""iKin's text description of a chain (``fromLinksProperties`` / ``toLinksProperties``).

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
import re

import numpy as np

from robomodel.dh.chain import DHChain, DHLink
from robomodel.errors import ModelError
from robomodel.spatial import Transform

__all__ = ["dumps_ikin", "loads_ikin"]

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


def loads_ikin(text: str) -> DHChain:
    r"""Read a chain from iKin's text format (angles in degrees).

    >>> chain = loads_ikin("numLinks 1\nlink_0 (A 0.1) (alpha 90) (min -45) (max 45)")
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


def dumps_ikin(chain: DHChain) -> str:
    """Write ``chain`` in iKin's text format (angles in degrees); :func:`loads_ikin` reads it back.

    Joint names and the angles of free links are not part of the format and are not written.
    """

    def num(x: float) -> str:
        return repr(float(x))

    def mat(T: Transform) -> str:
        return "(" + " ".join(num(v) for v in T.as_matrix().ravel()) + ")"

    lines = []
    if chain.limb_type:
        lines.append(f"type {chain.limb_type}")
    lines += [f"numLinks {chain.n_links}", f"H0 {mat(chain.H0)}", f"HN {mat(chain.HN)}"]
    for i, link in enumerate(chain.links):
        parts = [
            f"(A {num(link.a)})",
            f"(D {num(link.d)})",
            f"(alpha {num(math.degrees(link.alpha))})",
            f"(offset {num(math.degrees(link.offset))})",
            f"(min {num(math.degrees(link.min))})",
            f"(max {num(math.degrees(link.max))})",
        ]
        if link.blocked:
            parts.append(f"(blocked {num(math.degrees(link.angle))})")
        lines.append(f"link_{i} " + " ".join(parts))
    return "\n".join(lines) + "\n"
