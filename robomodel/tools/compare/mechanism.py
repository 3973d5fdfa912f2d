"""Is this still the same robot? :func:`same_mechanism` compares what two models *do*.

:func:`robomodel.tools.diff` compares how two models are written; a conversion through another
format or tool writes the same robot differently (bodies merged, frames moved, a joint's zero
elsewhere, a different base). :func:`same_mechanism` instead matches the elements both models
share and compares, at random configurations within the joint limits, what a user of the model
would see: masses and inertias, the pose of every shared link and frame, joint axes and limits,
the torques inverse dynamics gives every shared joint, and every shared sensor's reading.

>>> import robomodel as rm
>>> from robomodel.data import example_path
>>> from robomodel.formats import urdf
>>> from robomodel.transformers import change_base
>>> m = urdf.load(example_path())
>>> bool(same_mechanism(m, change_base(m, "l_foot"), samples=10))
True
>>> shank = m.link("l_lower_leg").inertia
>>> light = rm.SpatialInertia(shank.mass / 2, shank.first_moment / 2, shank.rotational_inertia / 2)
>>> verdict = same_mechanism(m, rm.with_link(m, "l_lower_leg", rm.Link(light)), samples=10)
>>> verdict.same, verdict.of("body mass")[0].name
(False, 'l_lower_leg')
"""

from __future__ import annotations

import operator
from collections.abc import Mapping

import numpy as np

from robomodel.errors import ArgumentError
from robomodel.model.record import Model
from robomodel.model.validation import check_type
from robomodel.tools.compare._matching import is_world, match
from robomodel.tools.compare._quantities import Judge, measure
from robomodel.tools.compare._sampling import offsets, sample
from robomodel.tools.compare.verdict import QUANTITIES, MechanismVerdict, Tolerances

__all__ = ["same_mechanism"]


def _floating(model: Model) -> bool:
    """A model is fixed to the world when its default base is a massless link named world."""
    base = model.default_base
    return not (base is not None and is_world(model, base))


def _integer(value: object, what: str) -> int:
    # numpy integers are integers too; bools and floats are not.
    if isinstance(value, bool | float):
        raise ArgumentError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ArgumentError(f"{what} must be an integer, got {value!r}") from None


def same_mechanism(
    a: Model,
    b: Model,
    *,
    rename: Mapping[str, str] | None = None,
    prefix: str | tuple[str, str] = "",
    locked: Mapping[str, float] | None = None,
    samples: int = 100,
    seed: int = 0,
    tolerances: Tolerances | None = None,
) -> MechanismVerdict:
    """Return whether models ``a`` and ``b`` are the same mechanism, and where they differ.

    Elements are matched by name: links, additional frames, joints and sensors; a name of a is
    first renamed by ``rename``, then by the ``prefix`` rule. A link of one model may be an
    additional frame of the other (a link lumped into its neighbour, a massless link merged
    into a MuJoCo body and kept as a site); a link frame moved by ``make_urdf_compatible`` or
    ``change_base`` is compared through the ``<link>_original_frame`` they keep.

    The models are compared at ``samples`` configurations drawn uniformly within the joint
    limits (revolute joints without limits within [-pi, pi] rad, prismatic ones within
    [-0.5, 0.5] m) by ``numpy.random.default_rng(seed)``, with joint velocities and
    accelerations drawn from a standard normal distribution; a joint that moves in only one
    model sits at its ``locked`` position (0 when not given, which is then a difference). At
    each configuration, relative to a reference link both models share:

    * total mass, centre of mass and composite inertia; mass, centre of mass and inertia of
      every body (the links of both models that move as one);
    * the pose of every shared link and frame, the transform across every shared joint, and
      each joint's axis (direction and line);
    * inverse-dynamics torques of every shared joint with gravity, from the reference link held
      fixed, and moving with a random twist and acceleration when both models are floating (no
      massless ``world`` link at their base);
    * every shared sensor's reading (force/torque sensors, accelerometers, gyroscopes), from
      the reference link held fixed;

    and, once, each shared joint's type, position, effort and velocity limits and mimic
    relation. Understood, and not differences: mimic joints (each model moves its followers by
    its own relations), a joint whose zero differs (MuJoCo's ``ref``, read by robomodel's MJCF
    reader as a position offset; a continuous joint's parametrisation) when its limits move
    with it, a lumped or merged link kept as a frame, a massless root fixed to the rest that the
    other model merged into its world, a changed base, and a link frame moved by
    robomodel's transformers.

    Args:
        a: the first model.
        b: the second model.
        rename: names of a's elements in b (``{"l_hand": "left_hand"}``).
        prefix: ``"text"`` when b's names are a's with ``text`` in front, or ``(a_prefix,
            b_prefix)`` when a name of a starting with ``a_prefix`` has ``b_prefix`` instead.
        locked: positions of joints that move in one model only (by either model's name);
            a joint both models move that is named here is held at that position in both.
        samples: the number of configurations (at least 1).
        seed: the seed of the random generator, so that a verdict can be reproduced.
        tolerances: how far numbers may be apart (:class:`Tolerances`, defaults 1e-6 in SI
            units plus 1e-9 relative).

    Returns:
        A :class:`MechanismVerdict`, true when the models are the same mechanism.

    Raises:
        ArgumentError: an option has the wrong type or value.
        UnknownNameError: ``locked`` names a joint neither model has.
        ModelError: the models share no link (give ``rename`` or ``prefix``), or a link is
            not connected to the reference link.
    """
    # Normalise the options.
    check_type(a, Model, "a")
    check_type(b, Model, "b")
    samples, seed = _integer(samples, "samples"), _integer(seed, "seed")
    if samples < 1:
        raise ArgumentError(f"samples must be an integer >= 1, got {samples!r}")
    tol = Tolerances() if tolerances is None else check_type(tolerances, Tolerances, "tolerances")
    pair = ("", prefix) if isinstance(prefix, str) else tuple(prefix)
    if len(pair) != 2 or not all(isinstance(p, str) for p in pair):
        raise ArgumentError(f"prefix must be a text or a pair of texts, got {prefix!r}")
    names = dict(rename or {})
    held = {str(k): float(v) for k, v in (locked or {}).items()}

    # Match the elements, find the joints whose zero differs, draw the states.
    matching = match(a, b, rename=names, prefix=(pair[0], pair[1]), locked=held)
    shifts, shift_notes = offsets(a, b, matching, angle=tol.angle, length=tol.length)
    rng = np.random.default_rng(seed)
    states = sample(a, b, matching, shifts, held, samples, rng)

    # Measure and judge.
    judge = Judge(tol)
    judge.out.extend(matching.differences)
    measure(
        a,
        b,
        matching,
        states,
        judge,
        shifts=shifts,
        floating=_floating(a) and _floating(b),
        rng=rng,
    )
    order = {q: i for i, q in enumerate(QUANTITIES)}
    kinds = {k: i for i, k in enumerate(("model", "link", "joint", "frame", "sensor"))}
    differences = sorted(
        judge.out, key=lambda d: (order[d.quantity], -d.error, kinds.get(d.kind, 9), d.name)
    )
    n_sensors = len(matching.sensors)
    counts = (
        ("links and frames", len(matching.frames)),
        ("moving joints", len(matching.joints)),
        ("sensors", n_sensors),
    )
    return MechanismVerdict(
        differences=tuple(differences),
        understood=(*matching.understood, *shift_notes),
        reference=(matching.reference[0], matching.reference[1]),
        joint_names=tuple(
            n for n, j in zip(a.joint_names, a.joints, strict=True) for _ in range(j.n_pos_coords)
        ),
        configurations=states.qa,
        seed=seed,
        tolerances=tol,
        counts=counts,
    )
