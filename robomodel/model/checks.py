r"""One list of model checks with severities: what ``robomodel validate`` and ``info`` judge by.

Every check looks at one aspect of a model and reports :class:`Finding`\ s, each naming the
check, the element (``link 'l_hand'``, ``joint 'j3'``, ``force/torque sensor 'l_arm_ft'``) and
the values that fail it. A finding is

* an **error** when the model is wrong: unreachable links, sensors on missing links, an inertia
  no rigid body has, mimic relations that do not resolve. A model with errors is not valid.
* a **warning** when the model works but something deserves a look: a joint axis that misses
  its child's origin (URDF export needs ``make_urdf_compatible``), limits that allow no motion,
  a massless link at the end of a moving joint (the mass matrix is singular).
* a **note** for a usual pattern worth knowing: a massless link in the middle of the tree (URDF
  files use them to mount frames and sensors; their neighbours carry the mass), a massless leaf
  link on a fixed joint (a frame written as a link).

>>> import robomodel.formats.urdf
>>> from robomodel.data import example_path
>>> model = robomodel.formats.urdf.load(example_path())
>>> verdict(model)
'valid (0 errors, 0 warnings, 0 notes)'
>>> [c.name for c in CHECKS]  # doctest: +NORMALIZE_WHITESPACE
['not-empty', 'connected', 'sensors', 'mass', 'inertia', 'mimic', 'axis-through-origin',
'limits']
>>> [c.name for c in FILE_CHECKS]
['meshes']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple

import attrs
import numpy as np
from pyrsistent import PMap, pmap

from robomodel._internal.memo import memoized
from robomodel.errors import deprecated
from robomodel.model.joints import FixedJoint, PrismaticJoint, RevoluteJoint
from robomodel.model.mimic import MimicError, mimic_map
from robomodel.model.spatial import SpatialInertia
from robomodel.model.topology import sensor_kind, sensor_problems
from robomodel.model.view import ModelView

if TYPE_CHECKING:
    from robomodel.model.mesh_files import MeshOrigins

__all__ = [
    "CHECKS",
    "FILE_CHECKS",
    "SEVERITIES",
    "Check",
    "Finding",
    "Severity",
    "count_text",
    "errors",
    "findings",
    "locate",
    "verdict",
]

Severity = Literal["error", "warning", "note"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "note")
"""The severities, gravest first."""

_TOL = 1e-12  # relative tolerance of the inertia checks, as SpatialInertia.is_physically_consistent


def _frozen_values(values: Mapping[str, object]) -> Mapping[str, object]:
    return values if isinstance(values, PMap) else pmap(values)


@attrs.frozen(kw_only=True)
class Finding:
    """One thing a check found.

    Attributes:
        severity: ``"error"``, ``"warning"`` or ``"note"``.
        check: the name of the check (see :data:`CHECKS`).
        element: what the finding is about as text, e.g. ``"link 'l_hand'"`` or ``"model"``.
        message: what is wrong, with the values.
        line: the line of the element in the model's file, when known (see :func:`locate`).
        kind: the kind of element: ``"model"``, ``"link"``, ``"joint"`` or ``"sensor"``.
        name: the element's name (the first joint's for a relation between joints), ``None``
            for the model.
        values: the numbers (or names) the message states, by name, e.g. ``{"mass": -1.0}``.
    """

    severity: Severity
    check: str
    element: str
    message: str
    line: int | None = None
    kind: str = "model"
    name: str | None = None
    values: Mapping[str, object] = attrs.field(factory=pmap, converter=_frozen_values)

    def __str__(self) -> str:
        where = "" if self.line is None else f" (line {self.line})"
        return f"{self.element}{where}: {self.message} [{self.check}]"


@attrs.frozen(kw_only=True)
class Check:
    """A named check: a function from a model to its findings.

    Attributes:
        name: the name shown in brackets after each finding.
        description: what it checks, one sentence.
        run: the function (a file check also takes where the model was read, or ``None``).
    """

    name: str
    description: str
    run: Callable[..., Iterable[Finding]] = attrs.field(repr=False)


def _g(x: float) -> str:
    return f"{x:.6g}"


def _links(n: int) -> str:
    return "1 link is" if n == 1 else f"{n} links are"


class _At(NamedTuple):
    """An element a finding is about: its kind, its name and how messages name it."""

    kind: str
    name: str | None
    text: str


_MODEL = _At("model", None, "model")


def _link(name: str) -> _At:
    return _At("link", name, f"link {name!r}")


def _joint(name: str) -> _At:
    return _At("joint", name, f"joint {name!r}")


def _finding(severity: Severity, check: str, at: _At, message: str, **values: object) -> Finding:
    return Finding(
        severity=severity,
        check=check,
        element=at.text,
        message=message,
        kind=at.kind,
        name=at.name,
        values=values,
    )


# --------------------------------------------------------------------------- the checks


def _not_empty(model: ModelView) -> Iterator[Finding]:
    if model.n_links == 0:
        # An empty model is the value building starts from (and valid for iDynTree too), so
        # this is a warning: nothing is wrong, there is just nothing to compute with.
        yield _finding("warning", "not-empty", _MODEL, "the model has no links; add a link")


def _connected(model: ModelView) -> Iterator[Finding]:
    if model.n_links == 0:
        return
    trav = model.traversal()
    if len(trav) != model.n_links:
        missing = [n for i, n in enumerate(model.link_names) if not trav.contains(i)]
        yield _finding(
            "error",
            "connected",
            _MODEL,
            f"{_links(len(missing))} not connected to the default base "
            f"{model.default_base!r}: {', '.join(map(repr, missing))}",
            links=tuple(missing),
        )


def _sensors(model: ModelView) -> Iterator[Finding]:
    for s in model.sensors:
        element = f"{sensor_kind(s)} {s.name!r}"
        at = _At("sensor", s.name, element)
        for problem in sensor_problems(s, model._l, model._j, model.joints):
            yield _finding("error", "sensors", at, problem.removeprefix(element + ": "))


def _mass(model: ModelView) -> Iterator[Finding]:
    for i, (name, link) in enumerate(zip(model.link_names, model.links, strict=True)):
        mass = link.inertia.mass
        element = _link(name)
        if mass < 0:
            yield _finding("error", "mass", element, f"negative mass {_g(mass)} kg", mass=mass)
            continue
        if mass > 0:
            continue
        neighbors = model.neighbors(i)
        rotational = float(np.abs(link.inertia.rotational_inertia).max())
        if rotational > 0:
            yield _finding(
                "warning",
                "mass",
                element,
                f"zero mass but rotational inertia up to {_g(rotational)} kg m^2; give it a "
                "mass or zero its inertia",
                mass=mass,
                rotational_inertia=rotational,
            )
            continue
        if len(neighbors) > 1:
            yield _finding(
                "note",
                "mass",
                element,
                f"massless link between {len(neighbors)} links (a usual URDF pattern for "
                "mounting points; its neighbours carry the mass)",
            )
            continue
        if not neighbors:
            continue
        if name == model.default_base:
            yield _finding(
                "note",
                "mass",
                element,
                "massless base link (usual for a fixed base such as 'world'; a floating base "
                "needs a mass)",
            )
            continue
        joint_name = model.joint_name(neighbors[0].joint)
        if isinstance(model.joints[neighbors[0].joint], FixedJoint):
            yield _finding(
                "note",
                "mass",
                element,
                f"massless leaf link on fixed joint {joint_name!r}: a frame written as a link "
                "(robomodel remove-fake-links turns it into one)",
            )
        else:
            yield _finding(
                "warning",
                "mass",
                element,
                f"massless leaf link on moving joint {joint_name!r}: nothing resists its "
                "acceleration, so the mass matrix is singular",
            )


def _inertia(model: ModelView) -> Iterator[Finding]:
    for i in _inertia_suspects(model):
        yield from _link_inertia(model.link_names[i], model.links[i].inertia)


def _inertia_suspects(model: ModelView) -> list[int]:
    """The links whose inertia :func:`_link_inertia` must judge: all links, screened at once.

    The screen computes the same quantities as the judge for every link in a few stacked
    numpy calls (validating a 100,000-link model one 3x3 eigenproblem at a time takes
    minutes), with half the judge's tolerance, so that round-off between the stacked and the
    single computation can only add suspects, never hide one.
    """
    masses = np.array([link.inertia.mass for link in model.links])
    # The mass check covers massless and negative masses.
    heavy = [i for i, mass in enumerate(masses.tolist()) if mass > 0]
    if not heavy:
        return []
    m = masses[heavy]
    h = np.array([model.links[i].inertia.first_moment for i in heavy])
    origin = np.array([model.links[i].inertia.rotational_inertia for i in heavy])
    with np.errstate(all="ignore"):
        hh = np.einsum("ni,ni->n", h, h)
        skew_sq = np.einsum("ni,nj->nij", h, h) - hh[:, None, None] * np.eye(3)
        central = origin + skew_sq / m[:, None, None]
        shift = hh / m
        finite = np.isfinite(central).all(axis=(1, 2)) & np.isfinite(shift)
        ev = np.linalg.eigvalsh(np.where(finite[:, None, None], central, 0.0))
        scale = np.maximum.reduce(
            [np.ones_like(m), np.abs(ev).max(axis=1), np.abs(origin).max(axis=(1, 2)), shift]
        )
        tol = 0.5 * _TOL * scale
        diagonal = np.diagonal(central, axis1=1, axis2=2)
        triangle = np.zeros_like(finite)
        for moments in (ev, diagonal):
            for k in range(3):
                others = moments[:, (k + 1) % 3] + moments[:, (k + 2) % 3]
                triangle |= others < moments[:, k] - tol
        suspect = ~finite | (ev.min(axis=1) < -tol) | triangle
    return [i for i, s in zip(heavy, suspect.tolist(), strict=True) if s]


def _link_inertia(name: str, inertia: SpatialInertia) -> Iterator[Finding]:
    """The findings of one link's inertia (of positive mass)."""
    element = _link(name)
    # A centre of mass ~1e154 m or more from the link origin overflows the parallel-axis
    # term: the inertia at the centre of mass cannot be computed in doubles at all.
    with np.errstate(all="ignore"):
        central = inertia.inertia_com
        h = inertia.first_moment
        shift = float(h @ h) / inertia.mass
        finite = bool(np.isfinite(central).all()) and math.isfinite(shift)
        ev = np.linalg.eigvalsh(central) if finite else None
    if ev is None:
        yield _finding(
            "error",
            "inertia",
            element,
            f"the centre of mass {_g(float(np.abs(h).max()) / inertia.mass)} m from the link "
            "origin overflows the inertia at the centre of mass",
        )
        return
    # The central inertia is computed from the inertia about the link origin minus the
    # parallel-axis term m |c|^2: its round-off scales with the larger of those, which
    # dwarfs the result for a heavy body far from its origin.
    scale = max(
        1.0, float(np.abs(ev).max()), float(np.abs(inertia.rotational_inertia).max()), shift
    )
    tol = _TOL * scale
    if ev.min() < -tol:
        yield _finding(
            "error",
            "inertia",
            element,
            "the inertia at the centre of mass is not positive semi-definite: principal "
            f"moments {', '.join(_g(e) for e in ev)} kg m^2",
            principal_moments=tuple(float(e) for e in ev),
        )
        return
    diagonal = bool(np.allclose(central, np.diag(np.diag(central)), rtol=0, atol=tol))
    moments = np.diag(central) if diagonal else ev
    names = ("ixx", "iyy", "izz") if diagonal else ("I1", "I2", "I3")
    for k in range(3):
        a, b = (k + 1) % 3, (k + 2) % 3
        a, b = min(a, b), max(a, b)
        if moments[a] + moments[b] < moments[k] - tol:
            where = "at the centre of mass" if diagonal else "in principal axes"
            yield _finding(
                "error",
                "inertia",
                element,
                f"inertia violates the triangle inequality {where}: {names[a]} + "
                f"{names[b]} = {_g(moments[a] + moments[b])} < {names[k]} = "
                f"{_g(moments[k])} kg m^2",
                **{names[j]: float(moments[j]) for j in (a, b, k)},
            )


def _mimic(model: ModelView) -> Iterator[Finding]:
    try:
        mimic_map(model)
    except MimicError as e:
        element = ", ".join(repr(j) for j in e.joints)
        at = _At("joint", e.joints[0], f"joint{'s' * (len(e.joints) > 1)} {element}")
        yield _finding("error", "mimic", at, e.reason, joints=tuple(e.joints))


_AXIS_OFF_ORIGIN = 1e-7
"""How far (m) a moving joint's axis may pass from its child link's origin without a warning."""


def _axis_suspects(model: ModelView) -> list[tuple[int, str]]:
    """The moving joints (and child links) whose axis :func:`_axes` must judge, in traversal order.

    Every joint's axis is expressed in its child's frame at once, in stacked numpy calls (a
    transform inverse per joint dominates validating a long chain otherwise), and screened with
    half the judge's distance, so that round-off can only add suspects.
    """
    if model.n_links == 0:
        return []
    moving: list[tuple[int, str]] = []
    joints: list[RevoluteJoint | PrismaticJoint] = []
    for el in model.traversal():
        if el.parent is None or el.joint is None:
            continue
        joint = model.joints[el.joint]
        if not isinstance(joint, FixedJoint):
            moving.append((el.joint, model.link_names[el.link]))
            joints.append(joint)
    if not moving:
        return []
    forward = np.array(
        [child == joint.link2 for (_, child), joint in zip(moving, joints, strict=True)]
    )
    rotation = np.array([joint.link1_H_link2.rotation for joint in joints])
    position = np.array([joint.link1_H_link2.position for joint in joints])
    direction = np.array([joint.axis_in_link1.direction for joint in joints])
    origin = np.array([joint.axis_in_link1.origin for joint in joints])
    # In link2's frame: R^T (x - p); a reversed axis (child == link1) is the same line. An
    # axis point near the largest double overflows here: such a joint is a suspect (inf).
    with np.errstate(over="ignore", invalid="ignore"):
        in_child = np.where(
            forward[:, None], np.einsum("nji,nj->ni", rotation, origin - position), origin
        )
        u = np.where(forward[:, None], np.einsum("nji,nj->ni", rotation, direction), direction)
        along = np.einsum("ni,ni->n", in_child, u)
        distance = np.linalg.norm(in_child - u * along[:, None], axis=1)
    keep = (distance > 0.5 * _AXIS_OFF_ORIGIN) | ~np.isfinite(distance)
    return [m for m, k in zip(moving, keep.tolist(), strict=True) if k]


def _axes(model: ModelView) -> Iterator[Finding]:
    for index, child in _axis_suspects(model):
        joint = model.joints[index]
        if isinstance(joint, FixedJoint):  # pragma: no cover - the suspects are moving joints
            continue
        with np.errstate(over="ignore", invalid="ignore"):
            distance = joint.axis(child).distance([0.0, 0.0, 0.0])
        if not distance <= _AXIS_OFF_ORIGIN:  # a NaN (overflowed) distance warns too
            yield _finding(
                "warning",
                "axis-through-origin",
                _joint(model.joint_names[index]),
                f"its axis passes {_g(distance)} m from the origin of {child!r}; URDF export "
                "needs make_urdf_compatible (robomodel rebase or urdf-compatible does it)",
                distance=distance,
            )


def _limits(model: ModelView) -> Iterator[Finding]:
    for name, joint in zip(model.joint_names, model.joints, strict=True):
        if isinstance(joint, FixedJoint) or not joint.limits.enabled:
            continue
        if joint.limits.lower == joint.limits.upper:
            yield _finding(
                "warning",
                "limits",
                _joint(name),
                f"its position limits allow no motion: lower = upper = {_g(joint.limits.lower)}",
                lower=joint.limits.lower,
                upper=joint.limits.upper,
            )


def _meshes(model: ModelView, origins: MeshOrigins | None = None) -> Iterator[Finding]:
    # Per missing file one error; meshes that could not be checked (no --package-dir) are one
    # warning per kind, not one per mesh.
    from robomodel.model.mesh_files import check_meshes, grouped_by_link

    for severity, link, message in grouped_by_link(check_meshes(model, origins=origins)):
        yield _finding(severity, "meshes", _MODEL if link is None else _link(link), message)


CHECKS: tuple[Check, ...] = (
    Check(name="not-empty", description="the model has at least one link", run=_not_empty),
    Check(
        name="connected",
        description="every link is reachable from the default base",
        run=_connected,
    ),
    Check(
        name="sensors",
        description="every sensor refers to existing links and joints consistently",
        run=_sensors,
    ),
    Check(
        name="mass",
        description="masses are not negative; massless links are noted (error / warning / note)",
        run=_mass,
    ),
    Check(
        name="inertia",
        description="the inertia at the centre of mass is positive semi-definite and obeys the "
        "triangle inequalities",
        run=_inertia,
    ),
    Check(
        name="mimic",
        description="mimic relations name moving joints and form no cycle",
        run=_mimic,
    ),
    Check(
        name="axis-through-origin",
        description="each moving joint's axis passes through its child link's origin (URDF "
        "can express the model)",
        run=_axes,
    ),
    Check(
        name="limits",
        description="position limits allow some motion",
        run=_limits,
    ),
)
"""Every check of the value, in the order their findings are listed."""

FILE_CHECKS: tuple[Check, ...] = (
    Check(
        name="meshes",
        description="every mesh file can be resolved (package dirs, the URDF's directory), "
        "found and read",
        run=_meshes,
    ),
)
"""The checks that read files the model refers to (its meshes).

They are not part of :meth:`Model.problems() <robomodel.model.record.Model.problems>`: a value's
validity cannot depend on what is on disk today, and a model's findings are computed once per
value. ``robomodel validate`` and ``info`` run them too (``findings(model, files=True)``)."""


def _by_severity(found: Iterable[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(found, key=lambda f: SEVERITIES.index(f.severity)))


def findings(
    model: ModelView, *, files: bool = False, origins: MeshOrigins | None = None
) -> tuple[Finding, ...]:
    """Return what every check of :data:`CHECKS` finds in ``model``, gravest first.

    The table's runner, behind the two entry points: :meth:`Model.problems()
    <robomodel.model.record.Model.problems>` for a model value and
    :func:`robomodel.formats.check_file` for a model file.

    Within a severity, findings keep the order of the checks and of the model's elements.

    Args:
        model: the model judged.
        files: also run :data:`FILE_CHECKS` (mesh files on disk), as ``validate`` and ``info``
            do.
        origins: where the model was read (a loader's report, such as
            ``robomodel.formats.urdf.load_with_report(path)[1].sources``): the file checks then
            resolve relative mesh filenames in its directory and name each mesh's line.
    """

    def run() -> tuple[Finding, ...]:
        return _by_severity(f for check in CHECKS for f in check.run(model))

    # A model never changes, so its findings are computed once (is_valid() then problems()).
    # The file checks are not memoized: the files can change while the value does not.
    found = memoized(model, "findings", run)
    if not files:
        return found
    return _by_severity([*found, *(f for check in FILE_CHECKS for f in check.run(model, origins))])


def errors(model: ModelView) -> tuple[Finding, ...]:
    """Deprecated: use :meth:`Model.problems() <robomodel.model.record.Model.problems>`."""
    deprecated("robomodel.model.checks.errors(model)", "model.problems()")
    return tuple(f for f in findings(model) if f.severity == "error")


def count_text(found: Iterable[Finding]) -> str:
    """Return ``"1 error, 2 warnings, 0 notes"`` for ``found``."""
    found = tuple(found)
    parts = []
    for severity in SEVERITIES:
        n = sum(1 for f in found if f.severity == severity)
        parts.append(f"{n} {severity}{'s' * (n != 1)}")
    return ", ".join(parts)


def verdict(model: ModelView, found: Iterable[Finding] | None = None) -> str:
    """Return ``"valid (...)"`` or ``"not valid (...)"`` with the counts of :func:`count_text`.

    Args:
        model: the model judged.
        found: its findings, when already computed.
    """
    found = findings(model) if found is None else tuple(found)
    valid = not any(f.severity == "error" for f in found)
    return f"{'valid' if valid else 'not valid'} ({count_text(found)})"


def locate(found: Iterable[Finding], lines: Mapping[tuple[str, str], int]) -> tuple[Finding, ...]:
    """Return ``found`` with the line of each finding's element.

    A model value does not remember where it was read from; its loader's report does
    (``robomodel.formats.urdf.load_with_report(path)[1].sources.lines``): the line of each
    ``<link>``, ``<joint>`` and ``<sensor>`` by ``(tag, name)``. Each finding is looked up by
    its :attr:`~Finding.kind` and :attr:`~Finding.name`; findings about the whole model and
    elements the report does not know keep ``line=None``.

    >>> from robomodel.formats.urdf import load_with_report
    >>> from robomodel.data import example_path
    >>> model, report = load_with_report(example_path())
    >>> found = [Finding(severity="note", check="mass", element="link 'root_link'", message="m",
    ...                  kind="link", name="root_link")]
    >>> locate(found, report.sources.lines)[0].line
    25
    """
    out = []
    for f in found:
        line = None if f.name is None else lines.get((f.kind, f.name))
        out.append(f if line is None else attrs.evolve(f, line=line))
    return tuple(out)
