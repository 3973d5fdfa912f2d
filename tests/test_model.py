"""Model properties (spec §1, §3): indices, frames, neighbors, traversals, offsets, values."""

from __future__ import annotations

import math
import pickle

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    SLOW,
    inertias,
    joints,
    model_steps,
    models,
    public_fields,
    replay,
    transforms,
)

import robomodel as rm
import robomodel.model.joints
from robomodel.errors import DuplicateNameError, ModelError, TopologyError, UnknownNameError
from robomodel.model.topology import ModelIndex


# ---------------------------------------------------------------------------- oracles
def oracle_adjacency(m: rm.Model) -> list[list[tuple[int, int]]]:
    """iDynTree's adjacency from the joint list: for each joint, link1 gets (link2, j), then
    link2 gets (link1, j) (spec §1.4). Computed from the public fields only."""
    index = {name: i for i, name in enumerate(m.link_names)}
    adj: list[list[tuple[int, int]]] = [[] for _ in m.link_names]
    for j, joint in enumerate(m.joints):
        a, b = index[joint.link1], index[joint.link2]
        adj[a].append((b, j))
        adj[b].append((a, j))
    return adj


def oracle_traversal(m: rm.Model, base: int) -> list[tuple[int, int | None, int | None]]:
    """Spec §3.1, written independently: number children when discovered, pop the last."""
    adj = oracle_adjacency(m)
    out: list[tuple[int, int | None, int | None]] = [(base, None, None)]
    stack: list[tuple[int, int | None]] = [(base, None)]
    while stack:
        link, parent = stack.pop()
        for n, j in adj[link]:
            if parent is not None and n == parent:
                continue
            out.append((n, link, j))
            stack.append((n, link))
    return out


def build_T1() -> rm.Model:
    """Spec §3.1 / §11 T1: links B, C1, C2, D1, D2, E1; joints B-C1, B-C2, C1-D1, C1-D2, C2-E1."""
    m = rm.Model()
    for name in ["B", "C1", "C2", "D1", "D2", "E1"]:
        m = rm.add_link(m, name, rm.Link())
    for a, b in [("B", "C1"), ("B", "C2"), ("C1", "D1"), ("C1", "D2"), ("C2", "E1")]:
        m = rm.add_joint(m, f"j{b}", rm.RevoluteJoint(link1=a, link2=b))
    return m


# ---------------------------------------------------------------------------- test vectors
def test_T1_traversal_order() -> None:
    """Spec §11 T1 (verified with iDynTree 15.1): from B the order is [B, C1, C2, E1, D1, D2]."""
    m = build_T1()
    t = m.traversal()
    assert [m.link_name(i) for i in t.links] == ["B", "C1", "C2", "E1", "D1", "D2"]
    parents = [None if p is None else m.link_name(p) for p in t.parents]
    assert parents == [None, "B", "B", "C2", "C1", "C1"]
    assert [None if j is None else m.joint_name(j) for j in t.joints] == [
        None,
        "jC1",
        "jC2",
        "jE1",
        "jD1",
        "jD2",
    ]
    assert t.base == 0 and len(t) == 6
    assert m.traversal("B") is t  # cached per base


def test_T2_frame_index_shift_and_names() -> None:
    """Spec §11 T2 (verified with iDynTree 15.1).

    6 links plus frame fB gives index 6; a 7th link moves it to 7. addLink("fB") and a frame
    named "C1" are rejected; a joint named "B" (like a link) is accepted; a joint to a missing
    link is rejected; DOF offsets of [jC1..jE1, fixed, fixed] are [0, 1, 2, 3, 4, 5, 5].
    """
    m = build_T1()
    m = rm.add_frame(m, "B", "fB", rm.Transform.from_translation((0, 0, 1)))
    assert m.frame_index("fB") == 6
    m7 = rm.add_link(m, "X", rm.Link())
    assert m7.frame_index("fB") == 7 and m.frame_index("fB") == 6
    assert m7.frame_index("X") == 6
    with pytest.raises(DuplicateNameError, match="'fB'"):
        rm.add_link(m, "fB", rm.Link())
    with pytest.raises(DuplicateNameError, match="'C1'"):
        rm.add_frame(m, "B", "C1")
    m8 = rm.add_joint(m7, "B", rm.FixedJoint(link1="E1", link2="X"))
    assert m8.joint_index("B") == 5 and m8.link_index("B") == 0
    with pytest.raises(UnknownNameError, match="'missing'"):
        rm.add_joint(m7, "j", rm.FixedJoint(link1="X", link2="missing"))
    m9 = rm.add_joint_and_link(m8, "X", "jY", rm.FixedJoint(link1="X", link2="Y"), "Y")
    assert [j.dof_offset for j in m9.joints] == [0, 1, 2, 3, 4, 5, 5]
    assert [j.pos_coord_offset for j in m9.joints] == [0, 1, 2, 3, 4, 5, 5]
    assert (m9.n_dofs, m9.n_pos_coords) == (5, 5)


def test_T3_inertial_parameters_of_a_model() -> None:
    """Spec §11 T3 through the model: getInertialParameters concatenates asVector per link."""
    inertia = rm.SpatialInertia.from_origin(1.0, (0.1, 0.2, 0.3), np.zeros((3, 3)))
    m = rm.add_link(rm.add_link(rm.Model(), "a", rm.Link()), "b", rm.Link(inertia))
    assert m.inertial_parameters().tolist() == [0.0] * 10 + [1.0, 0.1, 0.2, 0.3] + [0.0] * 6


# ---------------------------------------------------------------------------- properties
@given(models(max_links=8, max_frames=4), transforms())
def test_frame_index_shift_rule(m: rm.Model, T: rm.Transform) -> None:
    """Frames: links first, additional frames after; adding a link shifts each frame by one.

    frame_name/frame_index are inverse; frame_transform and frame_link keep their values.
    """
    n = m.n_links
    assert m.n_frames == n + len(m.frames)
    for i in range(m.n_frames):
        assert m.frame_index(m.frame_name(i)) == i
    for k, f in enumerate(m.frames):
        assert m.frame_index(f.name) == n + k
        assert m.frame_link(f.name) == m.link_index(f.link)
        assert m.frame_transform(n + k) == f.link_H_frame
        assert n + k in m.link_additional_frames(f.link)
    for i in range(n):
        assert m.frame_transform(i) == rm.Transform.identity() and m.frame_link(i) == i
    bigger = rm.add_link(m, "new_link", rm.Link())
    for f in m.frames:
        assert bigger.frame_index(f.name) == m.frame_index(f.name) + 1
        assert bigger.frame_transform(f.name) == f.link_H_frame
    assert bigger.frame_index("new_link") == n
    with_frame = rm.add_frame(m, "L0", "extra", T)
    assert with_frame.frame_index("extra") == m.n_frames
    assert with_frame.link_additional_frames("L0")[-1] == m.n_frames


@given(models(max_links=10))
def test_neighbors_symmetric_and_in_joint_order(m: rm.Model) -> None:
    """(n, j) in neighbors(i) iff (i, j) in neighbors(n); the lists follow spec §1.4's order."""
    adj = oracle_adjacency(m)
    total = 0
    for i in range(m.n_links):
        nbrs = m.neighbors(i)
        assert [(nb.link, nb.joint) for nb in nbrs] == adj[i]
        assert m.neighbors(m.link_name(i)) == nbrs
        for nb in nbrs:
            assert rm.Neighbor(i, nb.joint) in m.neighbors(nb.link)
            j = m.joint(nb.joint)
            assert {j.link1, j.link2} == {m.link_name(i), m.link_name(nb.link)}
        total += len(nbrs)
    assert total == 2 * m.n_joints


@given(models(max_links=10), st.data())
def test_traversal_visits_each_link_once(m: rm.Model, data: st.DataObject) -> None:
    """From any base, a tree's traversal visits every link exactly once, with each parent
    visited before its child through the joint that connects them, in spec §3.1's order."""
    base = data.draw(st.integers(0, m.n_links - 1))
    t = m.traversal(base)
    assert sorted(t.links) == list(range(m.n_links))
    assert list(zip(t.links, t.parents, t.joints, strict=True)) == oracle_traversal(m, base)
    for k, el in enumerate(t):
        assert t.position(el.link) == k
        if el.parent is None:
            assert k == 0 and el.joint is None and t.parent_of(el.link) is None
            continue
        assert t.position(el.parent) < k
        j = m.joint(el.joint)
        assert {j.link1, j.link2} == {m.link_name(el.link), m.link_name(el.parent)}
        assert t.is_parent_of(el.parent, el.link)
        assert m.joint_parent_child(el.joint, t) == (el.parent, el.link)
    assert t.base == base
    assert m.traversal(base) is t


@given(models(max_links=10))
def test_dof_offsets_cumulative(m: rm.Model) -> None:
    """Each joint's offsets are the running totals of the joints before it (fixed ones too)."""
    pos = dof = 0
    for j in m.joints:
        assert (j.pos_coord_offset, j.dof_offset) == (pos, dof)
        pos += j.n_pos_coords
        dof += j.n_dofs
    assert (m.n_pos_coords, m.n_dofs) == (pos, dof)


@given(models(max_links=6), st.data())
def test_inertial_parameters_round_trip(m: rm.Model, data: st.DataObject) -> None:
    """inertial_parameters is the concatenated 10-vectors; with_inertial_parameters inverts it."""
    p = m.inertial_parameters()
    assert p.shape == (10 * m.n_links,)
    assert not p.flags.writeable
    for i, link in enumerate(m.links):
        assert p[10 * i : 10 * i + 10].tolist() == link.inertia.as_vector().tolist()
    assert rm.with_inertial_parameters(m, p) == m
    assert rm.with_inertial_parameters(m, p.reshape(-1, 10)) == m
    new = [data.draw(inertias()) for _ in range(m.n_links)]
    q = np.concatenate([i.as_vector() for i in new])
    m2 = rm.with_inertial_parameters(m, q)
    assert m2.inertial_parameters().tolist() == q.tolist()
    assert m.inertial_parameters().tolist() == p.tolist()
    assert math.isclose(m2.total_mass, sum(i.mass for i in new), rel_tol=1e-12)
    with pytest.raises(ModelError, match="inertial parameters"):
        rm.with_inertial_parameters(m, q[:-1])


@given(model_steps(max_links=8))
def test_same_steps_give_equal_values(steps: tuple) -> None:
    """Two models built by the same steps are == and hash alike; pickle round trips."""
    a, b = replay(steps), replay(steps)
    assert a is not b and a == b and hash(a) == hash(b)
    c = pickle.loads(pickle.dumps(a))
    assert c == a and hash(c) == hash(a)
    assert c.traversal().links == a.traversal().links
    assert c.neighbors(0) == a.neighbors(0)


@given(model_steps(max_links=8))
def test_bulk_constructor_equals_incremental(steps: tuple) -> None:
    """Model(**fields) validates and derives the same indices, offsets and adjacency."""
    m = replay(steps)
    bulk = rm.Model(**public_fields(m))
    assert bulk == m and hash(bulk) == hash(m)
    for i in range(m.n_links):
        assert bulk.neighbors(i) == m.neighbors(i)
        assert bulk.link_index(m.link_name(i)) == i
    for f in m.frames:
        assert bulk.frame_index(f.name) == m.frame_index(f.name)
    # Offsets are recomputed: zeroed offsets on input come back as the running totals.
    zeroed = [rm.model.joints.replace_joint(j, pos_coord_offset=0, dof_offset=0) for j in m.joints]
    assert rm.Model(**{**public_fields(m), "joints": zeroed}) == m
    assert bulk.traversal().links == m.traversal().links


def _partition(index: ModelIndex) -> set[frozenset[int]]:
    comp = index.components
    groups: dict[int, set[int]] = {}
    for i in range(len(comp)):
        r = i
        while comp[r] >= 0:
            r = comp[r]
        groups.setdefault(r, set()).add(i)
    return {frozenset(g) for g in groups.values()}


@given(model_steps(max_links=8), st.integers(0, 3))
def test_index_of_bulk_equals_index_of_appends(steps: tuple, spliced: int) -> None:
    """The whole-model derivation and the builders' append operations make the same index.

    Same name maps, counts and adjacency, and union-finds describing the same components (the
    trees may differ: they record the order of the unions).
    """
    m = replay(steps)
    for k in range(min(spliced, m.n_joints)):  # the splice is the one append with its own path
        j = m.joints[k]
        m = rm.insert_link_to_existing_joint(
            m,
            m.joint_names[k],
            j.link1,
            rm.Transform(),
            f"S{k}",
            rm.FixedJoint(link1="x", link2="y"),
            f"N{k}",
        )
    m = rm.add_sensor(m, rm.Accelerometer(name="acc", link="L0", link_H_sensor=rm.Transform()))
    a, b = m._index, rm.Model(**public_fields(m))._index
    for name in ("links", "joints", "frames", "sensors"):
        x, y = getattr(a, name), getattr(b, name)
        assert len(x) == len(y) and dict((n, x[n]) for n in x) == dict((n, y[n]) for n in y)
    assert a.counts == b.counts == (m.n_pos_coords, m.n_dofs)
    assert a.neighbors(m.joints) == b.neighbors(m.joints)
    assert _partition(a) == _partition(b)


@given(models(min_links=2, max_links=5, max_frames=0))
def test_evolve_re_derives_and_validates(m: rm.Model) -> None:
    """``attrs.evolve`` on a model goes through the checks and re-derives the index."""
    with pytest.raises(DuplicateNameError):
        attrs.evolve(m, link_names=["L0"] * m.n_links)
    with pytest.raises(UnknownNameError, match="no link named 'L0'"):  # the old names are gone
        attrs.evolve(m, link_names=[f"R{i}" for i in range(m.n_links)])
    rebased = attrs.evolve(m, default_base="L1")
    assert rebased.default_base_index == 1 and rebased.traversal().base == 1
    zeroed = [rm.model.joints.replace_joint(j, pos_coord_offset=0, dof_offset=0) for j in m.joints]
    assert attrs.evolve(m, joints=zeroed) == m


@given(models(max_links=6), transforms(), joints("L0", "new"))
def test_old_model_never_changes(m: rm.Model, T: rm.Transform, j: rm.Joint) -> None:
    """Every builder returns a new value and leaves its input exactly as it was."""
    before = pickle.dumps(m)
    fields = public_fields(m)
    h = hash(m)
    m1 = rm.add_link(m, "new", rm.Link())
    rm.add_joint(m1, "jnew", j)
    rm.add_joint_and_link(m, "L0", "jn", j, "new")
    rm.add_frame(m, "L0", "fnew", T)
    rm.with_default_base_link(m, m.n_links - 1)
    rm.with_link(m, 0, rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0))))
    rm.with_package_dirs(m, ["/tmp"])
    rm.with_visual_shapes(m, 0, [rm.SolidShape(geometry=rm.Sphere(radius=1.0))])
    rm.add_sensor(m, rm.Accelerometer(name="acc", link="L0", link_H_sensor=T))
    assert public_fields(m) == fields and hash(m) == h
    assert pickle.loads(before) == m
    assert "new" not in m.link_names and not m.is_frame_name_used("fnew")


@given(models(max_links=5))
def test_no_op_returns_the_same_object(m: rm.Model) -> None:
    """A builder that changes nothing returns its input itself."""
    assert rm.with_default_base_link(m, m.default_base) is m
    assert rm.with_link(m, 0, m.links[0]) is m
    assert rm.discard_sensor(m, "nothing") is m


@given(models(max_links=5, max_frames=2))
def test_names_and_lookups(m: rm.Model) -> None:
    """name <-> index maps are inverse; is_*_name_used agree with the name lists."""
    for i, name in enumerate(m.link_names):
        assert m.link_index(name) == i and m.link_name(i) == name
        assert m.link(name) is m.links[i] and m.link(i) is m.links[i]
        assert m.is_link_name_used(name) and m.is_frame_name_used(name)
    for j, name in enumerate(m.joint_names):
        assert m.joint_index(name) == j and m.joint_name(j) == name
        assert m.joint(name) is m.joints[j] and m.is_joint_name_used(name)
        assert not m.is_link_name_used(name)
    for f in m.frames:
        assert m.is_frame_name_used(f.name) and not m.is_link_name_used(f.name)
    assert m.frame_names == [f.name for f in m.frames]
    assert math.isclose(m.total_mass, sum(lk.mass for lk in m.links), abs_tol=1e-12)
    text = m.describe()
    assert all(n in text for n in m.link_names) and str(m) == text
    assert m.is_valid() and rm.check_model(m) is m


# ---------------------------------------------------------------------------- insert link
def chain_abc() -> rm.Model:
    m = rm.add_link(rm.Model(), "A", rm.Link())
    rest = rm.Transform.from_rpy_xyz((0, 0, 0.3), (1, 0, 0))
    j = rm.RevoluteJoint(link1="A", link2="B", link1_H_link2=rest, axis_in_link1=rm.Axis((0, 0, 1)))
    m = rm.add_joint_and_link(m, "A", "jAB", j, "B", rm.Link())
    return rm.add_joint_and_link(m, "B", "jBC", rm.FixedJoint(link1="B", link2="C"), "C")


@pytest.mark.parametrize("unmovable", ["A", "B"])
def test_insert_link_keeps_displaced_pose(unmovable: str) -> None:
    """Spec §1.4: after the splice, unmovable_H_displaced at rest = unmovable_H_new @ new_H_D.

    The existing joint keeps its name and index; the new joint gets the next index.
    """
    m = chain_abc()
    displaced = "B" if unmovable == "A" else "A"
    U_H_N = rm.Transform.from_rpy_xyz((0.1, 0.2, 0.3), (0, 0, 2))
    N_H_D = rm.Transform.from_rpy_xyz((0, 0.5, 0), (0, 1, 0))
    joint = rm.FixedJoint(link1="N", link2=displaced, link1_H_link2=N_H_D)
    out = rm.insert_link_to_existing_joint(m, "jAB", unmovable, U_H_N, "jN", joint, "N")
    assert out.link_names.tolist() == ["A", "B", "C", "N"]
    assert out.joint_names.tolist() == ["jAB", "jBC", "jN"]
    moved = out.joint("jAB")
    assert {moved.link1, moved.link2} == {unmovable, "N"}
    assert isinstance(moved, rm.RevoluteJoint)
    T = moved.rest_transform(unmovable, "N") @ out.joint("jN").rest_transform("N", displaced)
    expected = U_H_N @ N_H_D
    assert np.allclose(T.as_matrix(), expected.as_matrix(), atol=1e-12)
    n = out.link_index("N")
    u, d = out.link_index(unmovable), out.link_index(displaced)
    assert (u, 0) in out.neighbors(n) and (d, 2) in out.neighbors(n)
    assert all(nb.link != d for nb in out.neighbors(u))
    assert out.traversal(u).is_parent_of(n, d)
    assert out.is_valid()
    assert m == chain_abc()  # the input is unchanged


def test_insert_link_errors() -> None:
    m = chain_abc()
    j = rm.FixedJoint(link1="N", link2="B")
    with pytest.raises(ModelError, match="not attached"):
        rm.insert_link_to_existing_joint(m, "jAB", "C", rm.Transform(), "jN", j, "N")
    with pytest.raises(UnknownNameError, match="did you mean 'jAB'"):
        rm.insert_link_to_existing_joint(m, "jAb", "A", rm.Transform(), "jN", j, "N")
    with pytest.raises(DuplicateNameError):
        rm.insert_link_to_existing_joint(m, "jAB", "A", rm.Transform(), "jBC", j, "N")
    with pytest.raises(DuplicateNameError):
        rm.insert_link_to_existing_joint(m, "jAB", "A", rm.Transform(), "jN", j, "C")


# ---------------------------------------------------------------------------- errors
def test_error_paths_are_robomodel_errors() -> None:
    """Every bad input raises a RobomodelError subclass with a message naming the element."""
    m = chain_abc()
    fixed = rm.FixedJoint
    cases = [
        (lambda: rm.add_link(m, "A", rm.Link()), DuplicateNameError, "'A'"),
        (lambda: rm.add_link(m, "", rm.Link()), ModelError, "non-empty"),
        (lambda: rm.add_link(m, "Z", "not a link"), ModelError, "Link"),  # type: ignore[arg-type]
        (lambda: rm.add_joint(m, "jAB", fixed(link1="A", link2="C")), DuplicateNameError, "jAB"),
        (lambda: rm.add_joint(m, "j", fixed(link1="A", link2="C")), TopologyError, "loop"),
        (lambda: rm.add_joint(m, "j", fixed(link1="B", link2="A")), TopologyError, "jAB"),
        (lambda: rm.add_joint(m, "j", fixed(link1="A", link2="Q")), UnknownNameError, "'Q'"),
        (lambda: rm.add_joint(m, "j", "joint"), ModelError, "FixedJoint"),  # type: ignore[arg-type]
        (
            lambda: rm.add_joint_and_link(m, "Q", "j", fixed(link1="a", link2="b"), "D"),
            UnknownNameError,
            "'Q'",
        ),
        (
            lambda: rm.add_joint_and_link(m, "A", "jBC", fixed(link1="a", link2="b"), "D"),
            DuplicateNameError,
            "jBC",
        ),
        (
            lambda: rm.add_joint_and_link(m, "A", "j", fixed(link1="a", link2="b"), "B"),
            DuplicateNameError,
            "'B'",
        ),
        (lambda: rm.add_frame(m, "Q", "f"), UnknownNameError, "'Q'"),
        (
            lambda: rm.add_frame(rm.add_frame(m, "A", "f"), "f", "g"),
            UnknownNameError,
            "frames attach",
        ),
        (lambda: m.link_index("b"), UnknownNameError, "did you mean 'B'"),
        (lambda: m.joint_index("jab"), UnknownNameError, "did you mean 'jAB'"),
        (lambda: m.frame_index("Ax"), UnknownNameError, "did you mean 'A'"),
        (lambda: m.link_name(3), UnknownNameError, "link with index 3"),
        (lambda: m.joint(-1), UnknownNameError, "joint with index -1"),
        (lambda: m.frame_name(3), UnknownNameError, "frame with index 3"),
        (lambda: m.link(1.5), ModelError, "int"),  # type: ignore[arg-type]
        (lambda: m.traversal("Q"), UnknownNameError, "'Q'"),
        (lambda: rm.with_default_base_link(m, "Q"), UnknownNameError, "'Q'"),
        (lambda: rm.remove_sensor(m, "s"), UnknownNameError, "sensor"),
        (lambda: m.sensor("s"), UnknownNameError, "sensor"),
        (lambda: rm.Model().default_base_index, ModelError, "no links"),
        (lambda: rm.Model(link_names=["a"], links=[]), ModelError, "1 link names for 0 links"),
        (lambda: rm.Model(link_names=["a", "a"], links=[rm.Link()] * 2), DuplicateNameError, "'a'"),
        (
            lambda: rm.Model(link_names=["a"], links=[rm.Link()], frames=[rm.Frame("f", "b")]),
            UnknownNameError,
            "'b'",
        ),
        (
            lambda: rm.Model(link_names=["a"], links=[rm.Link()], default_base="b"),
            UnknownNameError,
            "'b'",
        ),
        (
            lambda: rm.Model(
                link_names=["a", "b", "c"],
                links=[rm.Link()] * 3,
                joint_names=["x", "y", "z"],
                joints=[
                    fixed(link1="a", link2="b"),
                    fixed(link1="b", link2="c"),
                    fixed(link1="c", link2="a"),
                ],
            ),
            TopologyError,
            "loop",
        ),
    ]
    for call, kind, text in cases:
        with pytest.raises(kind, match=text) as info:
            call()
        assert isinstance(info.value, rm.RobomodelError)
    # The builtins they refine still catch them.
    with pytest.raises(KeyError):
        m.link_index("nope")
    with pytest.raises(ValueError):
        rm.add_link(m, "A", rm.Link())


def test_link_index_of_a_frame_name_says_so() -> None:
    m = rm.add_frame(chain_abc(), "A", "tool")
    with pytest.raises(UnknownNameError) as info:
        m.link_index("tool")
    assert "'tool' is an additional frame, not a link" in str(info.value)


def test_disconnected_model_is_reported() -> None:
    """A second root is allowed while building but is reported by problems()/check_model."""
    m = rm.add_link(chain_abc(), "lonely", rm.Link())
    assert m.traversal().links == (0, 1, 2)  # spec §3.3: only the base's component
    assert not m.is_valid()
    with pytest.raises(ModelError, match="lonely"):
        rm.check_model(m)


def test_empty_model() -> None:
    m = rm.Model()
    assert (m.n_links, m.n_joints, m.n_dofs, m.n_frames) == (0, 0, 0, 0)
    assert m.default_base is None and m.inertial_parameters().shape == (0,)
    assert m.total_mass == 0.0 and m.is_valid()
    assert rm.add_link(m, "a").default_base == "a"


def test_default_base_link() -> None:
    """The first link is the default base; with_default_base_link changes the traversal."""
    m = build_T1()
    assert m.default_base == "B" and m.default_base_index == 0
    m2 = rm.with_default_base_link(m, "E1")
    assert m2.default_base_index == 5 and m2.traversal().base == 5
    # Spec §3.1 by hand: E1; C2 (from E1); B (from C2); C1 (from B); D1, D2 (from C1).
    assert [m2.link_name(i) for i in m2.traversal().links] == ["E1", "C2", "B", "C1", "D1", "D2"]
    assert rm.with_default_base_link(m, 5) == m2


def test_shapes_sensors_and_package_dirs() -> None:
    m = chain_abc()
    box = rm.SolidShape(geometry=rm.Box(1.0, 2.0, 3.0), name="b")
    m2 = rm.with_collision_shapes(rm.with_visual_shapes(m, "B", [box]), 2, [box, box])
    assert m2.visual_shapes("B") == (box,) and m2.collision_shapes("C") == (box, box)
    assert m2.visual_shapes("A") == () and m.visual_shapes("B") == ()
    with pytest.raises(ModelError, match="SolidShape"):
        rm.with_visual_shapes(m, "B", ["box"])  # type: ignore[list-item]
    acc = rm.Accelerometer(name="acc", link="C", link_H_sensor=rm.Transform())
    gyr = rm.Gyroscope(name="gyr", link="A", link_H_sensor=rm.Transform())
    m3 = rm.add_sensor(rm.add_sensor(m2, acc), gyr)
    assert m3.sensor("acc") == acc and m3.sensors_of_type(rm.Gyroscope) == (gyr,)
    assert m3.is_sensor_name_used("gyr")
    with pytest.raises(DuplicateNameError):
        rm.add_sensor(m3, acc)
    with pytest.raises(ModelError, match="no link 'Q'"):
        rm.add_sensor(m3, rm.Gyroscope(name="g2", link="Q", link_H_sensor=rm.Transform()))
    m4 = rm.remove_sensor(m3, "acc")
    assert [s.name for s in m4.sensors] == ["gyr"] and m4.sensor("gyr") == gyr
    assert rm.add_sensor(m4, acc) == rm.add_sensor(rm.add_sensor(m2, gyr), acc)
    m5 = rm.with_package_dirs(m, ["/a", "/b"])
    assert m5.package_dirs.tolist() == ["/a", "/b"] and m.package_dirs.tolist() == []


@pytest.mark.slow
@SLOW
@given(model_steps(max_links=25, max_frames=6), st.data())
def test_traversal_and_bulk_slow(steps: tuple, data: st.DataObject) -> None:
    """Larger trees: traversal from any base matches the oracle; bulk == incremental."""
    m = replay(steps)
    base = data.draw(st.integers(0, m.n_links - 1))
    t = m.traversal(base)
    assert list(zip(t.links, t.parents, t.joints, strict=True)) == oracle_traversal(m, base)
    assert rm.Model(**public_fields(m)) == m


@given(model_steps(max_links=6, max_frames=0))
def test_add_joint_and_link_equals_add_link_then_add_joint(steps: tuple) -> None:
    """The fused builder gives the same value as add_link followed by add_joint (with the
    joint's ends set to (existing, new)), and appends the same adjacency and offsets."""
    m = replay(steps)
    j = rm.RevoluteJoint(link1="x", link2="y", axis_in_link1=rm.Axis((0, 1, 0)))
    fused = rm.add_joint_and_link(m, "L0", "jz", j, "Z", rm.Link())
    placed = rm.model.joints.replace_joint(j, link1="L0", link2="Z")
    two_steps = rm.add_joint(rm.add_link(m, "Z", rm.Link()), "jz", placed)
    assert fused == two_steps and hash(fused) == hash(two_steps)
    assert fused.neighbors("L0") == two_steps.neighbors("L0")
    assert fused.neighbors("Z") == (rm.Neighbor(0, m.n_joints),)
