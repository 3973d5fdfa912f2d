"""Every trusted fast path builds what the checked constructor builds; public paths stay checked.

``robomodel._internal.construct`` generates the only code in robomodel that builds values without
their checks (one maker and one replacer per class, on request) and registers each one in
``MADE``. One parametrised test covers the maker and the replacer of every class with valid values
below, and of every class registered after a workload through the public operations, so a fast
path added anywhere is compared with its checked constructor without anyone having to remember
to write the test; the other tests check that the public constructors and operations reject what
the trusted paths would store unchecked (NaN, infinities, overflow).
"""

from __future__ import annotations

import importlib
import math
import pickle
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import (
    decorated_models,
    dh_chains,
    dh_links,
    inertias,
    models,
    models_with_sensors,
    names,
    solid_shapes,
    transforms,
    unit_vectors,
)

import robomodel as rm
from robomodel import transformers
from robomodel._internal import construct
from robomodel._internal.construct import MADE, make, module_source, replace
from robomodel.errors import RobomodelError
from robomodel.formats import json
from robomodel.formats.dh.chain import DHChain, DHLink
from robomodel.model.joints import JointDynamics, Mimic, PositionLimits, replace_joint
from robomodel.model.record import Extension, Frame
from robomodel.model.topology import ModelIndex

# Import every robomodel module, so that every fast path generated at import is registered in MADE.
for _info in pkgutil.walk_packages(rm.__path__, "robomodel."):
    if not _info.name.endswith("__main__"):
        importlib.import_module(_info.name)

# ---------------------------------------------------------------------- valid values, per class
_small = st.floats(-2.0, 2.0)
_points = st.tuples(_small, _small, _small)
_positive = st.floats(0.0, 10.0)


@st.composite
def _limits(draw: st.DrawFn) -> PositionLimits:
    a, b = sorted((draw(_small), draw(_small)))
    return PositionLimits(enabled=draw(st.booleans()), lower=a, upper=b)


# Kind "none" holds no values (JointDynamics refuses damping or friction beside it).
_dynamics = st.one_of(
    st.just(JointDynamics()),
    st.builds(JointDynamics, kind=st.just("urdf"), damping=_positive, static_friction=_positive),
)
_mimics = st.builds(Mimic, joint=names, multiplier=_small, offset=_small)
_axes = st.builds(rm.Axis, unit_vectors(), _points)


def _fixed_joints() -> st.SearchStrategy[rm.FixedJoint]:
    return st.builds(
        rm.FixedJoint,
        link1=st.just("a"),
        link2=st.sampled_from(["b", "c"]),
        link1_H_link2=transforms(),
        pos_coord_offset=st.integers(0, 9),
        dof_offset=st.integers(0, 9),
    )


def _moving_joints(cls: type) -> st.SearchStrategy[Any]:
    return st.builds(
        cls,
        link1=st.sampled_from(["a", "c"]),
        link2=st.just("b"),
        link1_H_link2=transforms(),
        axis_in_link1=_axes,
        limits=_limits(),
        effort_limit=st.one_of(_positive, st.just(math.inf)),
        velocity_limit=st.one_of(_positive, st.just(math.inf)),
        dynamics=_dynamics,
        mimic=st.one_of(st.none(), _mimics),
        pos_coord_offset=st.integers(0, 9),
        dof_offset=st.integers(0, 9),
    )


def _sensors_on_links(cls: type) -> st.SearchStrategy[Any]:
    return st.builds(cls, name=names, link=names, link_H_sensor=transforms())


_dimensions = st.one_of(st.just(0.0), st.just(-0.0), _positive)  # what a shape accepts
_MODELS = st.one_of(models(max_links=5), decorated_models(max_links=4), models_with_sensors(4))

VALUES: dict[type, st.SearchStrategy[Any]] = {
    rm.Transform: transforms(),
    rm.Axis: _axes,
    rm.SpatialInertia: st.one_of(
        inertias(),
        # not physically consistent, but valid values all the same
        st.builds(rm.SpatialInertia.from_vector, st.lists(_small, min_size=10, max_size=10)),
    ),
    rm.FixedJoint: _fixed_joints(),
    rm.RevoluteJoint: _moving_joints(rm.RevoluteJoint),
    rm.PrismaticJoint: _moving_joints(rm.PrismaticJoint),
    PositionLimits: _limits(),
    JointDynamics: _dynamics,
    Mimic: _mimics,
    rm.Link: st.builds(rm.Link, inertias()),
    Frame: st.builds(Frame, names, names, transforms()),
    Extension: st.builds(
        Extension,
        owner_kind=st.sampled_from(["robot", "link", "joint"]),
        owner=names,
        xml=st.sampled_from(["<gazebo/>", "<a><b/></a>"]),
        tag=names,
    ),
    rm.Mesh: st.builds(rm.Mesh, names, st.tuples(_positive, _positive, _positive)),
    rm.Box: st.builds(rm.Box, _dimensions, _dimensions, _dimensions),
    rm.Cylinder: st.builds(rm.Cylinder, _dimensions, _dimensions),
    rm.Sphere: st.builds(rm.Sphere, _dimensions),
    rm.Material: st.builds(
        rm.Material,
        name=names,
        rgba=st.one_of(st.none(), st.tuples(*[st.floats(0, 1)] * 4)),
        texture=st.one_of(st.none(), names),
    ),
    rm.SolidShape: solid_shapes(),
    rm.Accelerometer: _sensors_on_links(rm.Accelerometer),
    rm.Gyroscope: _sensors_on_links(rm.Gyroscope),
    rm.Model: _MODELS,
    ModelIndex: _MODELS.map(lambda m: m._index),
    DHLink: dh_links(),
    DHChain: dh_chains(),
}
"""Per class with a fast path: valid values, built through the checked constructors."""


def values_of(cls: type) -> st.SearchStrategy[Any]:
    """Valid values of ``cls``: from VALUES, else through a known base class, else inferred."""
    if cls in VALUES:
        return VALUES[cls]
    for base in cls.__mro__[1:]:
        extra = [f for f in attrs.fields(cls) if f.init and f not in attrs.fields(base)]
        if base in VALUES and all(f.default is not attrs.NOTHING for f in extra):

            def rebuilt(v: Any, base: type = base) -> Any:
                return cls(**{f.alias: getattr(v, f.name) for f in attrs.fields(base) if f.init})

            return VALUES[base].map(rebuilt)
    return st.builds(cls)  # Hypothesis infers the fields from their types


def _same(a: object, b: object) -> bool:
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))  # type: ignore[arg-type]
    return bool(a == b)


def _assert_same_value(fast: Any, expected: Any) -> None:
    cls = type(expected)
    assert type(fast) is cls
    if cls.__eq__ is not object.__eq__:  # a value class (not one compared by identity)
        assert fast == expected
        if cls.__hash__ is not None:
            assert hash(fast) == hash(expected)
    for f in attrs.fields(cls):
        if f.init or f.default is attrs.NOTHING:  # given, or derived by the caller
            assert _same(getattr(fast, f.name), getattr(expected, f.name)), f.name


def _hash_if_hashable(v: object) -> None:
    # Fills a cached hash, so that a replacer copying it (instead of resetting it) is caught.
    if type(v).__hash__ is not None:
        hash(v)


def _workload() -> None:
    # The public operations that build values through the registry: each asks for its makers.
    m = json.loads(json.dumps(_SMALL))
    m = transformers.reduce_model(m, keep_joints=["j1"])
    transformers.change_base(m, "b")
    pickle.loads(pickle.dumps(m))
    parts = transformers.submodel_traversals(_SMALL, split_joints=["j2"])
    transformers.extract_submodel(_SMALL, parts[0])


def _pairs() -> list[tuple[str, type]]:
    _workload()
    pairs = {(kind, cls) for kind, cls, _ in MADE}
    for cls in VALUES:
        pairs.add(("replacer", cls))
        try:
            make(cls)
        except TypeError:  # it caches its hash: only replacers copy it
            continue
        pairs.add(("trusted", cls))
    return sorted(pairs, key=lambda p: (p[0], p[1].__module__, p[1].__qualname__))


_SMALL = rm.add_frame(
    rm.add_sensor(
        rm.add_joint_and_link(
            rm.add_joint_and_link(
                rm.add_link(rm.Model(), "a"), "a", "j1", rm.RevoluteJoint(link1="a", link2="b"), "b"
            ),
            "b",
            "j2",
            rm.FixedJoint(link1="b", link2="c"),
            "c",
        ),
        rm.Accelerometer(name="acc", link="c"),
    ),
    "c",
    "fc",
)
"""A model on which the workload below reaches the trusted paths of the lumping engine."""
PAIRS = _pairs()


def test_every_registered_fast_path_is_covered() -> None:
    """Every maker and replacer the library asked for so far is one the test below covers."""
    _workload()
    assert {(kind, cls) for kind, cls, _ in MADE} <= set(PAIRS)


_CODE = Path(construct.__file__).with_name("_construct_code.py")


def _code_text() -> str:
    # The factories of every class the test covers, in a stable order.
    return module_source(sorted({cls for _, cls in PAIRS}, key=lambda c: c.__qualname__))


def test_the_precompiled_factories_are_current() -> None:
    """``_construct_code`` holds the factory of every covered fast path as generated today.

    Else a first call in a process would compile them (a stale file is never used wrong: a
    factory is found by the digest of its source). ``python tests/test_construct.py`` rewrites it.
    """
    assert _CODE.read_text() == _code_text()


@attrs.frozen
class _NotPrecompiled:
    """A class whose fast paths are not in ``_construct_code``: compiled on request."""

    label: str
    weight: float = attrs.field(converter=float)


def test_a_class_without_precompiled_factories_gets_them_compiled() -> None:
    """The fallback compiles the same code: the maker and replacer build checked values."""
    registered = len(MADE)
    try:
        made = make(_NotPrecompiled)("a", -0.0)
        assert made == _NotPrecompiled("a", 0.0)
        assert math.copysign(1.0, made.weight) == 1.0  # canonical, as the maker stores floats
        moved = replace(_NotPrecompiled)(made, weight=2.0)
        assert moved == _NotPrecompiled("a", 2.0)
        assert type(moved) is _NotPrecompiled
    finally:  # not a robomodel class: out of the registry the coverage test reads
        del MADE[registered:]


@pytest.mark.parametrize(
    ("kind", "cls"),
    PAIRS,
    ids=[f"{kind}-{cls.__module__}.{cls.__qualname__}" for kind, cls in PAIRS],
)
@given(data=st.data())
def test_fast_path_builds_what_the_checked_constructor_builds(
    kind: str, cls: type, data: st.DataObject
) -> None:
    """A trusted maker given the fields of a valid value rebuilds that value (equal, same hash);
    a replacer given some fields of another value builds what ``attrs.evolve`` builds."""
    value = data.draw(values_of(cls), label="value")
    _hash_if_hashable(value)
    fields = attrs.fields(cls)
    if kind == "trusted":
        fast = make(cls)(*[getattr(value, f.name) for f in fields if f.init])
        _assert_same_value(fast, value)
        return
    assert kind == "replacer"
    other = data.draw(values_of(cls), label="other")
    init = [f for f in fields if f.init]
    chosen = data.draw(st.sets(st.sampled_from(init)) if init else st.just(set()), label="fields")
    try:
        expected = attrs.evolve(value, **{f.alias: getattr(other, f.name) for f in chosen})
    except RobomodelError:  # these fields of ``other`` do not fit the rest of ``value``
        chosen = set(init)
        expected = attrs.evolve(value, **{f.alias: getattr(other, f.name) for f in chosen})
    changes = {f.name: getattr(other, f.name) for f in chosen}
    # A replacer stores fields as given, so the caller gives what the converters would store.
    # Some converters are not idempotent to the last bit (normalising a unit direction again
    # can move it by an ulp), and ``attrs.evolve`` runs them again on the fields it keeps too:
    # draws where a converter moved any field, given or kept, say nothing about the replacer.
    assume(
        all(
            _same_bits(getattr(expected, f.name), changes.get(f.name, getattr(value, f.name)))
            for f in init
        )
    )
    # Derived fields without a default (a model's index) are the caller's to give.
    changes |= {
        f.name: getattr(expected, f.name)
        for f in fields
        if not f.init and f.default is attrs.NOTHING
    }
    fast = replace(cls)(value, **changes)
    _assert_same_value(fast, expected)


def _same_bits(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.tobytes() == b.tobytes()
    return a is b or a == b


# ---------------------------------------------------------------------- public paths are checked
NAN, INF = math.nan, math.inf
_J = rm.RevoluteJoint(link1="a", link2="b")

REFUSED: list[tuple[str, Callable[[], object]]] = [
    ("from_com nan mass", lambda: rm.SpatialInertia.from_com(NAN, (0, 0, 0))),
    ("from_com inf mass", lambda: rm.SpatialInertia.from_com(INF, (0, 0, 0))),
    ("from_com nan com", lambda: rm.SpatialInertia.from_com(1.0, (NAN, 0, 0))),
    (
        "from_com inf inertia",
        lambda: rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.diag([INF, 1.0, 1.0])),
    ),
    ("from_com overflow", lambda: rm.SpatialInertia.from_com(1e300, (1e300, 0, 0))),
    ("from_origin nan mass", lambda: rm.SpatialInertia.from_origin(NAN, (0, 0, 0))),
    ("from_origin inf com", lambda: rm.SpatialInertia.from_origin(1.0, (0, INF, 0))),
    ("from_origin overflow", lambda: rm.SpatialInertia.from_origin(1e300, (0, 1e300, 0))),
    ("inertia inf mass", lambda: rm.SpatialInertia(mass=INF)),
    ("from_vector nan", lambda: rm.SpatialInertia.from_vector([NAN] + [0.0] * 9)),
    ("transform nan rotation", lambda: rm.Transform(np.eye(3) * NAN, (0, 0, 0))),
    ("transform inf position", lambda: rm.Transform(np.eye(3), (INF, 0, 0))),
    ("from_rpy_xyz nan", lambda: rm.Transform.from_rpy_xyz((NAN, 0, 0), (0, 0, 0))),
    ("from_translation inf", lambda: rm.Transform.from_translation((0, 0, -INF))),
    ("from_matrix nan", lambda: rm.Transform.from_matrix(np.full((4, 4), NAN))),
    ("axis nan direction", lambda: rm.Axis((NAN, 0, 1))),
    ("axis inf origin", lambda: rm.Axis((0, 0, 1), (INF, 0, 0))),
    ("axis rotation nan", lambda: rm.Axis((0, 0, 1)).rotation(NAN)),
    ("axis translation inf", lambda: rm.Axis((0, 0, 1)).translation(INF)),
    ("joint transform nan", lambda: _J.transform(NAN, "a", "b")),
    ("degenerate rotation of an axis", lambda: rm.Transform(np.zeros((3, 3))) @ rm.Axis((0, 0, 1))),
    ("limits nan", lambda: PositionLimits(lower=NAN)),
    ("replace_joint nan limit", lambda: replace_joint(_J, effort_limit=NAN)),
    ("replace_joint unknown field", lambda: replace_joint(_J, axis=None)),
    ("replace_joint same links", lambda: replace_joint(_J, link2="a")),
]


@pytest.mark.parametrize("build", [b for _, b in REFUSED], ids=[n for n, _ in REFUSED])
def test_public_constructors_refuse_non_finite_values(build: Callable[[], object]) -> None:
    """No public constructor or operation stores a NaN, an infinity or a broken invariant."""
    with pytest.raises(RobomodelError):
        build()


def test_from_com_nan_raises_a_model_error() -> None:
    """The leak of issue 14: a NaN mass used to give a NaN inertia."""
    with pytest.raises(rm.ModelError, match="a mass must be finite, got nan"):
        rm.SpatialInertia.from_com(float("nan"), (0, 0, 0))


@given(T=transforms(), axis=_axes)
def test_transformed_axis_keeps_a_unit_direction(T: rm.Transform, axis: rm.Axis) -> None:
    """``T @ axis`` has a unit direction; a scaled rotation is no transform at all."""
    assert abs(float(np.linalg.norm((T @ axis).direction)) - 1.0) < 1e-12
    with pytest.raises(rm.ModelError, match="not a rotation"):
        rm.Transform(T.rotation * 3.0, T.position)


def test_replace_joint_runs_the_converters() -> None:
    """``replace_joint`` builds what ``attrs.evolve`` builds (the limits become floats)."""
    moved = replace_joint(_J, effort_limit=3, link2="c")
    assert moved == attrs.evolve(_J, effort_limit=3, link2="c")
    assert type(moved.effort_limit) is float


if __name__ == "__main__":  # rewrite the precompiled factories (see the test above)
    from robomodel._internal.files import atomic_write

    atomic_write(_CODE, _code_text())
    sys.exit(0)
