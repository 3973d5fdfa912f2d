"""The transformers build their results without ``Model(...)``'s checks (robomodel.model.assembly):
every result must be exactly what the checked constructor makes of the same fields."""

from __future__ import annotations

import warnings
from functools import partial

import hypothesis.strategies as st
from hypothesis import given, settings
from strategies import decorated_models, models, models_with_sensors, public_fields

import robomodel as rm
import robomodel.transformers as rt

_MODELS = st.one_of(models(max_links=6), decorated_models(max_links=5), models_with_sensors(5))


def _index_maps(m: rm.Model) -> tuple[dict[str, int], ...]:
    return tuple(
        dict(zip(ix, map(ix.__getitem__, ix), strict=True)) for ix in (m._l, m._j, m._f, m._s)
    )


@st.composite
def _transformed(draw: st.DrawFn) -> tuple[rm.Model, rm.Model]:
    m = draw(_MODELS)
    names = list(m.joint_names)
    links = list(m.link_names)
    steps = [
        partial(
            rt.reduce_model,
            keep_joints=draw(st.permutations(names).flatmap(lambda p: st.just(p[: len(p) // 2]))),
            lumped_sensors="drop",
        ),
        partial(rt.normalize_joint_order, base_link=draw(st.sampled_from(links))),
        partial(rt.make_urdf_compatible, base_link=draw(st.sampled_from(links))),
        partial(rt.remove_fake_links, iterate=True, lumped_sensors="drop"),
        rt.name_solid_shapes,
        lambda x: rt.extract_submodel(x, x.traversal(draw(st.sampled_from(links)))),
    ]
    step = draw(st.sampled_from(steps))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RobomodelWarning)
        return m, step(m)


@settings(max_examples=30)
@given(_transformed())
def test_results_are_what_the_checked_constructor_builds(pair: tuple[rm.Model, rm.Model]) -> None:
    """Rebuilding any transformer result with ``Model(**fields)`` gives an equal model with the
    same name maps, adjacency and validity (the trusted assembly skips no check that matters)."""
    _, out = pair
    checked = rm.Model(**public_fields(out))
    assert checked == out
    assert hash(checked) == hash(out)
    for f, value in public_fields(out).items():
        assert getattr(checked, f) == value, f
    assert _index_maps(checked) == _index_maps(out)
    assert checked._c == out._c
    assert [checked.neighbors(i) for i in range(checked.n_links)] == [
        out.neighbors(i) for i in range(out.n_links)
    ]
    assert checked.problems() == out.problems() == ()
    # The joint ends a transformer hands to the assembly are those its joints name.
    assert out._index.joint_ends(out.joints) == checked._index.joint_ends(checked.joints)
    if out.n_links:
        assert out.traversal() == checked.traversal()


@settings(max_examples=30)
@given(_transformed(), st.data())
def test_results_grow_like_checked_models(
    pair: tuple[rm.Model, rm.Model], data: st.DataObject
) -> None:
    """The union-find of an assembled result refuses the same joints as a checked model's: a
    joint between two of its links always closes a loop, a new leaf never does."""
    _, out = pair
    if out.n_links < 2:
        return
    a, b = data.draw(st.permutations(list(out.link_names))).__getitem__(slice(2))
    j = rm.FixedJoint(link1=a, link2=b)
    checked = rm.Model(**public_fields(out))
    for model in (out, checked):
        try:
            rm.add_joint(model, "extra_joint_x", j)
        except rm.errors.TopologyError:
            pass
        else:
            raise AssertionError("a joint between two links of a tree must close a loop")
    grown = rm.add_joint_and_link(
        out, a, "extra_joint_y", rm.FixedJoint(link1=a, link2="new_leaf_y"), "new_leaf_y"
    )
    assert grown == rm.add_joint_and_link(
        checked, a, "extra_joint_y", rm.FixedJoint(link1=a, link2="new_leaf_y"), "new_leaf_y"
    )


_KINDS = ("robot", "link", "inertial", "joint", "frame", "sensor", "force_torque")


@st.composite
def _with_extensions(draw: st.DrawFn) -> rm.Model:
    m = draw(_MODELS)
    names = [*m.link_names, *m.joint_names, *m.frame_names, *(s.name for s in m.sensors), "x"]
    exts = draw(
        st.lists(
            st.builds(
                lambda kind, owner, k: rm.Extension(
                    owner_kind=kind, owner="" if kind == "robot" else owner, xml=f"<e{k}/>", tag="e"
                ),
                st.sampled_from(_KINDS),
                st.sampled_from(names),
                st.integers(0, 3),
            ),
            max_size=12,
        )
    )
    return rm.Model(**{**public_fields(m), "extensions": exts})


@settings(max_examples=40)
@given(_with_extensions(), st.data())
def test_carried_extensions_keeps_exactly_those_whose_owner_stays(
    m: rm.Model, data: st.DataObject
) -> None:
    """The per-owner filter (memoised by owner) keeps, in order, the extensions whose kind is
    not filtered or whose owner is kept, and hands back the model's own vector when nothing
    goes."""
    from robomodel.transformers.engine import carried_extensions

    owners = {
        kind: set(data.draw(st.lists(st.sampled_from([e.owner for e in m.extensions] or ["x"]))))
        for kind in data.draw(st.lists(st.sampled_from(_KINDS[1:]), unique=True))
    }
    for _ in range(2):  # the second call reads the memoised owner index
        got = carried_extensions(m, owners, "why")
        expected = [
            e for e in m.extensions if e.owner_kind not in owners or e.owner in owners[e.owner_kind]
        ]
        assert list(got) == expected
        if len(expected) == len(m.extensions):
            assert got is m.extensions
