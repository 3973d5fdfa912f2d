"""Inertias in MJCF: MuJoCo's checks and robomodel's policies for what it refuses.

:class:`InertiaWriter` is the part of the MJCF writer that decides, on exactly the doubles it will
write, which inertias MuJoCo would refuse and what the policies of
:class:`~robomodel.formats.mjcf.options.DumpOptions` do about them.
"""

from __future__ import annotations

import math

import numpy as np

from robomodel._internal.xml_text import TextElement
from robomodel.errors import MJCFError
from robomodel.formats.mjcf._common import (
    EYE,
    ORIGIN,
    SAME_FRAME,
    FloatArray,
    NumberSlots,
    moves,
    near_body_frame,
    quat_from_rotation,
    quats_from_rotations,
    stacked,
)
from robomodel.formats.mjcf.options import MJCF_MIN_VALUE, DumpOptions
from robomodel.formats.report import LossAction
from robomodel.model.record import Model
from robomodel.model.spatial import SpatialInertia
from robomodel.model.traversal import Traversal, TraversalElement

__all__ = ["InertiaWriter", "is_zero"]


class InertiaWriter:
    """Applies the inertia policies and writes ``<inertial>`` elements."""

    m: Model
    o: DumpOptions
    tr: Traversal
    entries: list[TraversalElement]
    merged: set[int]
    inertias: dict[str, SpatialInertia]
    principal: dict[int, tuple[FloatArray, FloatArray]]
    principal_quats: dict[int, tuple[float, ...]]
    inertial_numbers: dict[int, tuple[list[float], list[float]]]
    slots: NumberSlots

    def note(self, action: LossAction, kind: str, name: str, detail: str = "") -> None:
        """Record one report entry (the writer's own)."""
        raise NotImplementedError

    def written_inertias(self) -> dict[int, SpatialInertia]:
        m, o, tr = self.m, self.o, self.tr
        written = {i: m.links[i].inertia for i in tr.links}
        # Each moving body with the bodies welded to it (MuJoCo checks that composite).
        composite = dict(written)
        moving = {e.link for e in self.entries if e.joint is not None and moves(m.joints[e.joint])}
        if o.floating_base:
            moving.add(tr.base)
        for e in reversed(self.entries):
            if e.parent is not None and e.link not in moving:
                assert e.joint is not None
                p_H_c = m.joints[e.joint].rest_transform(
                    m.link_names[e.parent], m.link_names[e.link]
                )
                composite[e.parent] = composite[e.parent] + p_H_c @ composite[e.link]
        kept = [i for i in tr.links if i not in self.merged]
        degenerate = _degenerate_all([composite[i] for i in kept if i in moving])
        degenerate.reverse()  # popped in the order of ``kept``
        self.principal.update(_principal_all({i: written[i] for i in kept}))
        for i in kept:
            name = m.link_names[i]
            if i in moving and degenerate.pop():
                if o.massless == "raise":
                    raise MJCFError(
                        f"link {name!r} moves but its mass or principal inertias (with the links "
                        f"welded to it) are below MuJoCo's {MJCF_MIN_VALUE}; give it an inertia "
                        'or export with DumpOptions(massless="bound")'
                    )
                written[i] = _bounded(written[i], o.bound_mass, o.bound_inertia)
                self.note(
                    "changed",
                    "link",
                    name,
                    f"massless moving body: MuJoCo needs mass and inertia above {MJCF_MIN_VALUE}; "
                    f"wrote mass {o.bound_mass!r} and principal inertia {o.bound_inertia!r} "
                    f"(DumpOptions.massless={o.massless!r})",
                )
            written[i] = self._valid(i, name, written[i])
            if written[i] is not m.links[i].inertia:
                self.inertias[name] = written[i]
        self._stacked_numbers(written)
        return written

    def _stacked_numbers(self, written: dict[int, SpatialInertia]) -> None:
        """Compute the numbers of every ``<inertial>`` at once, from stacked arrays.

        The principal frames' quaternions, the centres of mass (``h / m``, as the ``com``
        property) and the written principal moments; :meth:`inertial` uses them (the numbers it
        would compute one link at a time).
        """
        keys = [k for k in self.principal if written[k].mass != 0.0]
        if not keys:
            return
        Q = quats_from_rotations(stacked([self.principal[k][1] for k in keys], 3, 3))
        if Q is not None:
            self.principal_quats = dict(zip(keys, map(tuple, Q.tolist()), strict=True))
        h = stacked([written[k].first_moment for k in keys], 3)
        m = np.array([written[k].mass for k in keys])
        com = h / m[:, None]
        diag = np.maximum(stacked([self.principal[k][0] for k in keys], 3), 0.0)
        if not (np.isfinite(com).all() and np.isfinite(m).all() and np.isfinite(diag).all()):
            return  # the slots' texts name what is not finite, link by link
        numbers = zip(com.tolist(), diag.tolist(), strict=True)
        self.inertial_numbers = dict(zip(keys, numbers, strict=True))

    def _valid(self, i: int, name: str, inertia: SpatialInertia) -> SpatialInertia:
        """Return the inertia to write for link ``i``; its principal axes go to ``principal``.

        The principal moments are decided once, here, and written as they are: recomputing them
        from the returned inertia could round them back over MuJoCo's limits.
        """
        if inertia.mass == 0.0:
            if inertia.rotational_inertia.any():
                self.note("dropped", "inertia", name, "rotational inertia of a massless link")
                return SpatialInertia.zero()
            return inertia
        if inertia.mass < 0.0:
            raise MJCFError(
                f"link {name!r} has a negative mass {inertia.mass}; MJCF cannot hold it"
            )
        # The principal axes of the link's own inertia come computed for all links at once
        # (written_inertias); a bounded inertia's are computed here.
        computed = self.principal.get(i)
        if computed is None or inertia is not self.m.links[i].inertia:
            computed = _principal(np.asarray(inertia.inertia_com))
        d, V = computed
        fixed = _balanced(d)
        if fixed is None:
            self.principal[i] = (d, V)
            return inertia
        self.principal[i] = (fixed, V)
        if self.o.invalid_inertia == "raise":
            raise MJCFError(
                f"link {name!r}: principal inertias {d.tolist()} are negative or break A + B >= C, "
                "which MuJoCo refuses; fix them or export with DumpOptions(invalid_inertia="
                '"balance")'
            )
        self.note(
            "changed",
            "inertia",
            name,
            f"principal inertias {d.tolist()} break MuJoCo's checks; wrote {fixed.tolist()} "
            '(DumpOptions.invalid_inertia="balance")',
        )
        return SpatialInertia.from_com(inertia.mass, inertia.com, V @ np.diag(fixed) @ V.T)

    def inertial(self, body: TextElement, link: int, inertia: SpatialInertia) -> None:
        """Write the ``<inertial>`` of ``link`` into ``body`` (none for a massless link)."""
        if inertia.mass == 0.0:
            return
        d, V = self.principal[link]
        stacked = self.inertial_numbers.get(link)
        com, diag = (inertia.com.tolist(), None) if stacked is None else stacked
        q = self.principal_quats.get(link) or quat_from_rotation(V)
        tiny_com = com != ORIGIN and max(abs(x) for x in com) < SAME_FRAME
        if tiny_com or near_body_frame(com, q if V.tolist() != EYE else None):
            # MuJoCo treats an inertial frame within its tolerance of the body frame as the
            # body frame itself; naming the principal axes in another (cyclic) order keeps the
            # same inertia exactly and keeps the frame away from that shortcut.
            V, d = V[:, [1, 2, 0]], d[[1, 2, 0]]
            q = quat_from_rotation(V)
            diag = None
        if diag is None:
            diag = np.maximum(d, 0.0).tolist()
        add = self.slots.add
        body.add(
            "inertial",
            [
                ' pos="',
                add(com),
                '" mass="',
                add((inertia.mass,)),
                '" quat="',
                add(q),
                '" diaginertia="',
                add(diag),
                '"',
            ],
        )


def _principal(I_C: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Return the principal moments (ascending) and a right-handed rotation to their axes."""
    d, V = np.linalg.eigh(0.5 * (I_C + I_C.T))
    if np.linalg.det(V) < 0.0:
        V[:, 0] = -V[:, 0]
    return d, V


def _principal_all(
    inertias: dict[int, SpatialInertia],
) -> dict[int, tuple[FloatArray, FloatArray]]:
    """:func:`_principal` of every inertia with a positive mass, by key, in one LAPACK call.

    The stacked call decomposes each matrix on its own, by the routine one call per matrix
    runs, so the moments and axes are those :func:`_principal` gives bit for bit.
    """
    keys = [k for k, inertia in inertias.items() if inertia.mass > 0.0]
    if not keys:
        return {}
    I_C = _inertias_com([inertias[k] for k in keys])
    d, V = np.linalg.eigh(0.5 * (I_C + I_C.transpose(0, 2, 1)))
    flip = np.linalg.det(V) < 0.0
    V[flip, :, 0] = -V[flip, :, 0]
    return {k: (d[n], V[n]) for n, k in enumerate(keys)}


def _inertias_com(inertias: list[SpatialInertia]) -> FloatArray:
    """``inertia_com`` of each of ``inertias`` (all with a positive mass), as ``(k, 3, 3)``.

    The same arithmetic as the property, on stacked arrays: ``I_O + (h h^T - |h|^2 I) / m``,
    with ``|h|^2`` by a stacked matrix product, which takes the dot product the property's
    ``h @ h`` takes (a plain sum of the squares can round differently), so that the moments
    MuJoCo's checks are judged on stay those of the per-link computation bit for bit.
    """
    m = np.array([x.mass for x in inertias])
    h = stacked([x.first_moment for x in inertias], 3)
    I_O = stacked([x.rotational_inertia for x in inertias], 3, 3)
    hh = h[:, None, :] @ h[:, :, None]
    S2 = h[:, :, None] * h[:, None, :] - hh * np.eye(3)
    out: FloatArray = I_O + S2 / m[:, None, None]
    return out


def _degenerate_all(inertias: list[SpatialInertia]) -> list[bool]:
    """Whether MuJoCo finds each inertia's mass or principal moments too small.

    At most MuJoCo's ``mjMINVAL``; the eigenvalues of all come from one LAPACK call.
    """
    out = [not inertia.mass > MJCF_MIN_VALUE for inertia in inertias]
    checked = [n for n, small in enumerate(out) if not small]
    if checked:
        I_C = _inertias_com([inertias[n] for n in checked])
        lowest = np.linalg.eigvalsh(I_C).min(axis=1).tolist()
        for n, low in zip(checked, lowest, strict=True):
            out[n] = low <= MJCF_MIN_VALUE
    return out


def is_zero(inertia: SpatialInertia) -> bool:
    return inertia.mass == 0.0 and not inertia.rotational_inertia.any()


def _bounded(inertia: SpatialInertia, mass: float, principal: float) -> SpatialInertia:
    if inertia.mass > 0.0:
        I_C = np.asarray(inertia.inertia_com) + principal * np.eye(3)
        # A mass at or below mjMINVAL is refused however large the inertia: raise it too.
        kept = inertia.mass if inertia.mass > MJCF_MIN_VALUE else mass
        return SpatialInertia.from_com(kept, inertia.com, I_C)
    return SpatialInertia.from_com(mass, (0.0, 0.0, 0.0), principal * np.eye(3))


def _balanced(d: FloatArray) -> FloatArray | None:
    """Return ascending principal moments MuJoCo accepts, or ``None`` when ``d`` passes as is.

    MuJoCo refuses negative moments and ``A + B < C``, tested on the doubles it reads, which
    are exactly the ones written; the same test here decides.
    """
    a, b, c = (float(x) for x in d)
    if a >= 0.0 and a + b >= c:
        return None
    a, b = max(a, 0.0), max(b, 0.0)
    gap = c - (a + b)
    if gap > 0.0:
        a, b = a + gap / 2, b + gap / 2
    while a + b < c:  # the halves may round down by an ulp
        b = math.nextafter(b, math.inf)
    return np.array([a, b, c])
