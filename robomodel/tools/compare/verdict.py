"""The records of a mechanism comparison: tolerances, differences, what was understood, the verdict.

Every record is frozen and holds only tuples, strings, numbers and read-only arrays, so a
verdict can be kept, shared between threads and compared (``==``) like any robomodel value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import immutable
from robomodel.errors import ArgumentError

__all__ = ["QUANTITIES", "Discrepancy", "MechanismVerdict", "Tolerances"]

FloatArray = npt.NDArray[np.float64]

QUANTITIES: Mapping[str, tuple[str, str]] = {
    # quantity: (the tolerance that judges it, its unit)
    "missing": ("", ""),
    "joint type": ("", ""),
    "joint links": ("", ""),
    "sensor type": ("", ""),
    "total mass": ("mass", "kg"),
    "centre of mass": ("length", "m"),
    "composite inertia": ("inertia", "kg m^2"),
    "body mass": ("mass", "kg"),
    "body centre of mass": ("length", "m"),
    "body inertia": ("inertia", "kg m^2"),
    "frame position": ("length", "m"),
    "frame orientation": ("angle", "rad"),
    "joint transform position": ("length", "m"),
    "joint transform orientation": ("angle", "rad"),
    "axis direction": ("angle", "rad"),
    "axis line": ("length", "m"),
    "position limits": ("limit", "rad or m"),
    "effort limit": ("limit", "N m or N"),
    "velocity limit": ("limit", "rad/s or m/s"),
    "mimic": ("mimic", ""),
    "torque (fixed base)": ("torque", "N m or N"),
    "torque (floating base)": ("torque", "N m or N"),
    "sensor reading": ("sensor", "N, N m, m/s^2, rad/s"),
}
"""Every quantity a :class:`Discrepancy` can name, in report order, with the
:class:`Tolerances` field that judges it and its unit (``""``: judged exactly)."""


def _tolerance(value: float) -> float:
    v = float(value)
    if not (v >= 0.0 and math.isfinite(v)):
        raise ArgumentError(f"a tolerance must be a finite number >= 0, got {value!r}")
    return v


@attrs.frozen(kw_only=True)
class Tolerances:
    """How far two numbers may be apart and still agree, per kind of quantity.

    Two values ``x`` (of model a) and ``y`` (of b) agree when ``error <= tol + relative *
    scale``, where ``error`` is the distance between them (the norm of a difference vector, the
    angle between two rotations or directions, the largest entry of a difference matrix) and
    ``scale`` the larger of their magnitudes. Every default is 1e-6 in SI units: far above the
    round-off of robomodel's own conversions (1e-12 and below), far below any defect that
    matters (a 1 mm shift, a 0.1 degree turn, a gram).

    Attributes:
        mass: kg (total and per-body masses).
        length: m (positions, centres of mass, the distance between joint axis lines).
        angle: rad (orientations, axis directions).
        inertia: kg m^2 (composite and per-body rotational inertias).
        torque: N m for revolute joints, N for prismatic ones (inverse dynamics).
        sensor: the units of each sensor's reading (N and N m, m/s^2, rad/s).
        limit: rad or m for position limits; N m or N, rad/s or m/s for effort and velocity
            limits.
        mimic: multipliers (no unit) and offsets (rad or m) of mimic relations.
        relative: the relative part, on top of each absolute tolerance.
    """

    mass: float = attrs.field(default=1e-6, converter=_tolerance)
    length: float = attrs.field(default=1e-6, converter=_tolerance)
    angle: float = attrs.field(default=1e-6, converter=_tolerance)
    inertia: float = attrs.field(default=1e-6, converter=_tolerance)
    torque: float = attrs.field(default=1e-6, converter=_tolerance)
    sensor: float = attrs.field(default=1e-6, converter=_tolerance)
    limit: float = attrs.field(default=1e-6, converter=_tolerance)
    mimic: float = attrs.field(default=1e-6, converter=_tolerance)
    relative: float = attrs.field(default=1e-9, converter=_tolerance)

    @classmethod
    def all(cls, value: float | None = None, **others: float) -> Tolerances:
        """Return tolerances with every absolute field ``value``, except those in ``others``.

        ``value=None`` keeps the defaults of the fields not in ``others``.

        >>> Tolerances.all(1e-3, torque=0.1).torque, Tolerances.all(1e-3).mass
        (0.1, 0.001)
        >>> Tolerances.all(torque=0.1).mass
        1e-06

        Raises:
            ArgumentError: ``others`` names no tolerance, or a value is not a number >= 0.
        """
        names = [f.name for f in attrs.fields(cls) if f.name != "relative"]
        unknown = sorted(set(others) - {*names, "relative"})
        if unknown:
            raise ArgumentError(
                f"unknown tolerance {', '.join(unknown)}; the tolerances are "
                f"{', '.join(names)} and relative"
            )
        every = {} if value is None else dict.fromkeys(names, value)
        return cls(**{**every, **others})

    def of(self, quantity: str) -> float:
        """Return the absolute tolerance that judges ``quantity`` (0 for exact ones)."""
        field = QUANTITIES[quantity][0]
        return float(getattr(self, field)) if field else 0.0


def _floats(value: Any) -> tuple[float, ...] | str:
    if isinstance(value, str):
        return value
    return tuple(float(x) + 0.0 for x in np.asarray(value, dtype=float).reshape(-1))


@attrs.frozen(kw_only=True)
class Discrepancy:
    """One quantity of one element on which the two models disagree.

    Attributes:
        quantity: what differs, one of :data:`QUANTITIES` (``"frame position"``,
            ``"torque (fixed base)"``, ``"missing"``, ...).
        kind: the element's kind: ``"model"``, ``"link"``, ``"frame"``, ``"joint"`` or
            ``"sensor"``.
        name: the element's name in model a (in b when only b has it).
        other_name: its name in model b, when that differs (a rename, a prefix, a frame that
            stands for a moved link frame); ``""`` otherwise.
        a: model a's value at the worst configuration: numbers (a position ``[x, y, z]``, an
            orientation as ``[roll, pitch, yaw]``, an inertia as ``[ixx, iyy, izz, ixy, ixz,
            iyz]``, in the reference link's frame), or text for the quantities judged exactly
            (``"revolute"``, ``"absent"``, ...).
        b: model b's value there.
        error: how far apart they are (see :class:`Tolerances`); ``inf`` for text.
        tolerance: the absolute tolerance the error was judged with.
        configuration: the index of the worst sampled configuration
            (:meth:`MechanismVerdict.configuration`), or ``None`` for what does not depend on
            the configuration.
        count: in how many sampled configurations the quantity disagrees (1 when it does not
            depend on the configuration).
        detail: a few words more (``"mass 0.3 kg"`` for a missing link, ...).
    """

    quantity: str
    kind: str
    name: str
    other_name: str = ""
    a: tuple[float, ...] | str = attrs.field(default="", converter=_floats)
    b: tuple[float, ...] | str = attrs.field(default="", converter=_floats)
    error: float = attrs.field(default=math.inf, converter=float)
    tolerance: float = attrs.field(default=0.0, converter=float)
    configuration: int | None = None
    count: int = 1
    detail: str = ""

    @property
    def label(self) -> str:
        """``kind 'name'`` (with ``-> 'other'`` when b calls it otherwise)."""
        text = f"{self.kind} {self.name!r}"
        return text + (f" -> {self.other_name!r}" if self.other_name else "")

    def __str__(self) -> str:
        if isinstance(self.a, str) or isinstance(self.b, str):
            text = f"{self.label}: a {_text(self.a)}, b {_text(self.b)}"
        else:
            text = f"{self.label}: a {_text(self.a)}, b {_text(self.b)}, error {self.error:.3g}"
        if self.configuration is not None:
            text += f" at configuration {self.configuration}"
            if self.count > 1:
                text += f" ({self.count} configurations disagree)"
        if self.detail:
            text += f" ({self.detail})"
        return text

    def as_dict(self) -> dict[str, Any]:
        """Return the fields as a JSON-ready dict (``inf`` as ``None``)."""
        out = attrs.asdict(self)
        out["a"] = self.a if isinstance(self.a, str) else [_json_number(x) for x in self.a]
        out["b"] = self.b if isinstance(self.b, str) else [_json_number(x) for x in self.b]
        out["error"] = _json_number(self.error)
        return out


def _json_number(x: float) -> float | str:
    # JSON has no infinity: an unlimited value is written as the text "inf".
    return x if math.isfinite(x) else str(x)


def _text(value: tuple[float, ...] | str) -> str:
    if isinstance(value, str):
        return value
    if len(value) == 1:
        return f"{value[0]:.6g}"
    return "[" + ", ".join(f"{v:.6g}" for v in value) + "]"


def _configurations(value: Any) -> FloatArray:
    arr = np.array(value, dtype=float, ndmin=2)
    return immutable(arr)


@attrs.frozen(kw_only=True, eq=False)
class MechanismVerdict:
    """Whether two models are the same mechanism, and where they are not.

    ``bool(verdict)`` is :attr:`same`; ``str(verdict)`` is the report: the largest differences
    grouped by quantity, then what was understood and not counted as a difference.

    Attributes:
        differences: every :class:`Discrepancy`, in :data:`QUANTITIES` order, the largest
            error first within a quantity.
        understood: what differs in form but not in mechanism (a world-merged root, a joint's
            different zero, a lumped link kept as a frame, ...), one sentence each.
        reference: the link poses are relative to, and dynamics are computed from: its name in
            a and in b.
        joint_names: model a's position coordinates, by name (the columns of
            :attr:`configurations`).
        configurations: ``(samples, n_pos_coords)`` read-only: model a's joint positions at
            each sampled configuration.
        seed: the seed of the random generator the configurations were drawn with.
        tolerances: the :class:`Tolerances` the numbers were judged with.
        counts: how many links, frames, joints and sensors were matched, by kind.
    """

    differences: tuple[Discrepancy, ...]
    understood: tuple[str, ...]
    reference: tuple[str, str]
    joint_names: tuple[str, ...]
    configurations: FloatArray = attrs.field(converter=_configurations)
    seed: int
    tolerances: Tolerances
    counts: tuple[tuple[str, int], ...] = ()

    @property
    def same(self) -> bool:
        """True when no quantity disagrees beyond its tolerance and nothing is missing."""
        return not self.differences

    def __bool__(self) -> bool:
        return self.same

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MechanismVerdict):
            return NotImplemented
        return (
            self.differences == other.differences
            and self.understood == other.understood
            and self.reference == other.reference
            and self.joint_names == other.joint_names
            and np.array_equal(self.configurations, other.configurations)
            and self.seed == other.seed
            and self.tolerances == other.tolerances
            and self.counts == other.counts
        )

    def __hash__(self) -> int:
        return hash((self.differences, self.understood, self.reference, self.seed))

    @property
    def quantities(self) -> tuple[str, ...]:
        """The quantities that disagree, in report order."""
        return tuple(dict.fromkeys(d.quantity for d in self.differences))

    def of(self, quantity: str) -> tuple[Discrepancy, ...]:
        """Return the differences in ``quantity``, the largest first."""
        return tuple(d for d in self.differences if d.quantity == quantity)

    def named(self, name: str) -> tuple[Discrepancy, ...]:
        """Return the differences of the element called ``name`` in a or in b."""
        return tuple(d for d in self.differences if name in (d.name, d.other_name))

    def configuration(self, index: int) -> dict[str, float]:
        """Return model a's joint positions at sampled configuration ``index``, by joint name."""
        row = self.configurations[index]
        return {n: float(v) for n, v in zip(self.joint_names, row, strict=True)}

    def report(self, *, limit: int = 5) -> str:
        """Return the text report, at most ``limit`` differences per quantity."""
        n = len(self.configurations)
        head = (
            f"reference link: a {self.reference[0]!r}, b {self.reference[1]!r}; "
            f"{n} configuration{'' if n == 1 else 's'} (seed {self.seed})"
        )
        matched = ", ".join(f"{c} {k}" for k, c in self.counts)
        lines = [
            ("same mechanism" if self.same else f"different: {_count(self.differences)}")
            + (f" ({matched} compared)" if matched else ""),
            head,
        ]
        for quantity in self.quantities:
            group = self.of(quantity)
            field, unit = QUANTITIES[quantity]
            how = (
                f"tolerance {self.tolerances.of(quantity):g} {unit}".rstrip()
                if field
                else "judged exactly"
            )
            lines.append(f"{quantity} ({len(group)}; {how}):")
            lines += [f"  {d}" for d in group[:limit]]
            if len(group) > limit:
                lines.append(f"  ... and {len(group) - limit} more")
        if self.understood:
            lines.append(f"understood, not counted ({len(self.understood)}):")
            lines += [f"  {u}" for u in self.understood[: max(limit, 0) * 4]]
            if len(self.understood) > limit * 4:
                lines.append(f"  ... and {len(self.understood) - limit * 4} more")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()

    def as_dict(self) -> dict[str, Any]:
        """Return the verdict as a JSON-ready dict."""
        return {
            "same": self.same,
            "reference": list(self.reference),
            "seed": self.seed,
            "samples": len(self.configurations),
            "tolerances": attrs.asdict(self.tolerances),
            "counts": dict(self.counts),
            "differences": [d.as_dict() for d in self.differences],
            "understood": list(self.understood),
            "joint_names": list(self.joint_names),
            "configurations": self.configurations.tolist(),
        }


def _count(differences: tuple[Discrepancy, ...]) -> str:
    n = len(differences)
    q = len(dict.fromkeys(d.quantity for d in differences))
    return f"{n} difference{'' if n == 1 else 's'} in {q} quantit{'y' if q == 1 else 'ies'}"
