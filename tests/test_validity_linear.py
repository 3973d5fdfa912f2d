"""Validity in time and memory linear in the model.

The inertia and axis checks screen every link and joint at once in stacked numpy calls and hand
only the suspects to the per-element judge; the mimic map stores one leader and one multiplier
per joint instead of a dense matrix. The properties: the screen never hides a finding the judge
would make (compared with the judge run on every element, on inputs drawn at the checks' exact
boundaries), and a long chain validates without memory quadratic in its length.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import rotations

import robomodel as rm
from robomodel.model.checks import _axes, _inertia, _link_inertia
from robomodel.model.mimic import mimic_map


def _raw_inertia(mass: float, h: np.ndarray, origin: np.ndarray) -> rm.SpatialInertia:
    return rm.SpatialInertia(mass=mass, first_moment=h, rotational_inertia=origin)


@st.composite
def boundary_inertias(draw: st.DrawFn) -> rm.SpatialInertia:
    """Inertias at the checks' boundaries: triangle equalities, zero moments, far centres."""
    mass = draw(st.sampled_from([1e-9, 1e-3, 1.0, 7.5, 1e6]))
    a, b = draw(st.floats(0.0, 2.0)), draw(st.floats(0.0, 2.0))
    # c = a + b is the triangle equality; the draws around it cross the tolerance.
    c = a + b + draw(st.sampled_from([0.0, 1e-13, -1e-13, 1e-11, -1e-11, 1e-6, -1e-6, 0.5]))
    moments = np.array(draw(st.permutations([a, b, c])), dtype=float)
    R = draw(rotations()) if draw(st.booleans()) else np.eye(3)
    central = R @ np.diag(moments) @ R.T
    com = np.array(draw(st.tuples(*[st.sampled_from([0.0, 0.3, -2.0, 1e3, 1e8])] * 3)))
    h = mass * com
    origin = central - (np.outer(h, h) - float(h @ h) * np.eye(3)) / mass
    return _raw_inertia(mass, h, 0.5 * (origin + origin.T))


def _chain(inertias: list[rm.SpatialInertia]) -> rm.Model:
    n = len(inertias)
    return rm.Model(
        link_names=[f"l{i}" for i in range(n)],
        links=[rm.Link(inertia) for inertia in inertias],
        joint_names=[f"j{i}" for i in range(1, n)],
        joints=[rm.FixedJoint(link1=f"l{i - 1}", link2=f"l{i}") for i in range(1, n)],
    )


@given(st.lists(boundary_inertias(), min_size=1, max_size=12))
def test_inertia_screen_hides_no_finding(inertias: list[rm.SpatialInertia]) -> None:
    """The screened check gives exactly the judge's findings on every link, in link order."""
    model = _chain(inertias)
    judged = [
        f
        for name, link in zip(model.link_names, model.links, strict=True)
        if link.inertia.mass > 0
        for f in _link_inertia(name, link.inertia)
    ]
    assert list(_inertia(model)) == judged


@st.composite
def axis_chains(draw: st.DrawFn) -> rm.Model:
    """Chains whose axes pass at distances around the 1e-7 m threshold from the child origin."""
    n = draw(st.integers(2, 8))
    joints = []
    for i in range(1, n):
        R = draw(rotations())
        p = np.array(draw(st.tuples(*[st.floats(-1, 1)] * 3)))
        u = draw(rotations())[:, 0]
        normal = np.cross(u, [1.0, 0.0, 0.0])
        if np.linalg.norm(normal) < 1e-3:
            normal = np.cross(u, [0.0, 1.0, 0.0])
        normal /= np.linalg.norm(normal)
        off = draw(st.sampled_from([0.0, 0.99e-7, 1e-7, 1.01e-7, 5e-8, 2e-7, 1e-3]))
        # The axis passes ``off`` from link2's origin: its point is p + off * n (in link1).
        origin = p + off * normal
        link1, link2 = (f"l{i - 1}", f"l{i}") if draw(st.booleans()) else (f"l{i}", f"l{i - 1}")
        joints.append(
            rm.RevoluteJoint(
                link1=link1,
                link2=link2,
                link1_H_link2=rm.Transform(R, p),
                axis_in_link1=rm.Axis(u, origin),
            )
        )
    return rm.Model(
        link_names=[f"l{i}" for i in range(n)],
        links=[rm.Link()] * n,
        joint_names=[f"j{i}" for i in range(1, n)],
        joints=joints,
    )


@given(axis_chains())
def test_axis_screen_hides_no_finding(model: rm.Model) -> None:
    """The screened axis check warns exactly where the per-joint judge does, in traversal order."""
    judged = []
    for el in model.traversal():
        if el.joint is None or el.parent is None:
            continue
        joint = model.joints[el.joint]
        distance = joint.axis(model.link_names[el.link]).distance([0.0, 0.0, 0.0])
        if distance > 1e-7:
            judged.append(model.joint_names[el.joint])
    assert [f.element for f in _axes(model)] == [f"joint {name!r}" for name in judged]


def test_mimic_map_is_linear_and_agrees_with_its_dense_form() -> None:
    """The map stores O(n) numbers; applying it equals the dense matrix product."""
    n = 2000
    joints = [
        rm.RevoluteJoint(
            link1=f"l{i - 1}",
            link2=f"l{i}",
            mimic=rm.Mimic(joint="j1", multiplier=0.5, offset=0.1) if i % 3 == 0 else None,
        )
        for i in range(1, n)
    ]
    model = rm.Model(
        link_names=[f"l{i}" for i in range(n)],
        links=[rm.Link()] * n,
        joint_names=[f"j{i}" for i in range(1, n)],
        joints=joints,
    )
    mm = mimic_map(model)
    stored = sum(
        a.nbytes for a in (mm.leaders, mm.multipliers, mm.offset) if isinstance(a, np.ndarray)
    )
    assert stored <= 3 * 8 * n
    actuated = np.random.default_rng(0).normal(size=(3, mm.n_actuated))
    np.testing.assert_array_equal(mm.full_positions(actuated), actuated @ mm.matrix.T + mm.offset)


@pytest.mark.slow
def test_a_100000_link_chain_validates_in_under_a_gigabyte() -> None:
    script = textwrap.dedent(
        """
        import resource
        import numpy as np
        import robomodel as rm
        n = 100_000
        inertia = rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.eye(3) * 0.1)
        pose = rm.Transform(np.eye(3), [0, 0, 0.1])
        axis = rm.Axis((0, 0, 1), (0, 0, 0.1))
        model = rm.Model(
            link_names=[f"l{i}" for i in range(n)],
            links=[rm.Link(inertia)] * n,
            joint_names=[f"j{i}" for i in range(1, n)],
            joints=[
                rm.RevoluteJoint(
                    link1=f"l{i - 1}", link2=f"l{i}", link1_H_link2=pose, axis_in_link1=axis
                )
                for i in range(1, n)
            ],
        )
        assert model.is_valid()
        # The peak of this process alone: Linux carries ru_maxrss over from the parent across
        # fork and exec (a pytest process grown to 1 GB would be counted), VmHWM is this
        # program's own.
        try:
            with open("/proc/self/status") as fh:
                peak = next(int(x.split()[1]) for x in fh if x.startswith("VmHWM:"))
        except OSError:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(peak)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True
    )
    assert int(out.stdout.split()[-1]) < 1024 * 1024  # kilobytes
