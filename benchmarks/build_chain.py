"""Build chains of N links one ``add_joint_and_link`` at a time, robomodel against iDynTree.

Run with ``python benchmarks/build_chain.py [N ...] [--rounds R] [--quick] [--cpu]`` (default
sizes: 100 1000 10000; ``--quick`` drops 10000). For each size the two libraries build the chain
in paired rounds (``_harness``); each build records the cost of every step. Printed per size: the
whole build (Python's garbage collector included, as a user would see it) and the per-link cost
over the first and the last 100 steps (median within a build), each as medians over the rounds
and the ratio robomodel / iDynTree with its range.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable

import _harness as h
import numpy as np

import robomodel as rm

WINDOW = 100
# A chain builder: (links, clock) -> the cost of each step.
Builder = Callable[[int, Callable[[], float]], list[float]]


def _robomodel_steps(n: int, clock: Callable[[], float]) -> list[float]:
    rest = rm.Transform.from_rpy_xyz((0.0, 0.0, 0.1), (0.0, 0.0, 0.1))
    axis = rm.Axis((0.0, 0.0, 1.0))
    link = rm.Link(rm.SpatialInertia.from_com(1.0, (0.0, 0.0, 0.05), np.eye(3) * 0.01))
    joint = rm.RevoluteJoint(link1="a", link2="b", link1_H_link2=rest, axis_in_link1=axis)
    add = rm.add_joint_and_link
    m = rm.add_link(rm.Model(), "l0", link)
    steps = []
    for i in range(1, n):
        t0 = clock()
        m = add(m, f"l{i - 1}", f"j{i}", joint, f"l{i}", link)
        steps.append(clock() - t0)
    assert m.n_links == n and m.n_dofs == n - 1
    return steps


def _idyntree_steps(n: int, clock: Callable[[], float]) -> list[float]:
    idt = h.idyntree()
    rest = idt.Transform(idt.Rotation.RPY(0.0, 0.0, 0.1), idt.Position(0.0, 0.0, 0.1))
    inertia = idt.SpatialInertia()
    inertia.fromVector(
        idt.Vector10.FromPython(
            rm.SpatialInertia.from_com(1.0, (0.0, 0.0, 0.05), np.eye(3) * 0.01).as_vector()
        )
    )
    link = idt.Link()
    link.setInertia(inertia)
    joint = idt.RevoluteJoint()
    joint.setRestTransform(rest)
    joint.setAxis(idt.Axis(idt.Direction(0.0, 0.0, 1.0), idt.Position(0.0, 0.0, 0.0)))
    m = idt.Model()
    m.addLink("l0", link)
    steps = []
    for i in range(1, n):
        t0 = clock()
        m.addJointAndLink(f"l{i - 1}", f"j{i}", joint, f"l{i}", link)
        steps.append(clock() - t0)
    assert m.getNrOfLinks() == n and m.getNrOfDOFs() == n - 1
    return steps


def measure(n: int, s: h.Settings) -> list[h.Result]:
    """Build a chain of ``n`` links with each library in paired rounds; three result rows."""
    ours: list[list[float]] = []
    theirs: list[list[float]] = []

    def build(make: Builder, into: list[list[float]]) -> float:
        into.append(make(n, s.clock))
        return sum(into[-1])

    # Warm-up: imports and first-call costs stay out of the first round.
    _robomodel_steps(2, s.clock)
    _idyntree_steps(2, s.clock)
    totals = h.paired(
        lambda: build(_robomodel_steps, ours), lambda: build(_idyntree_steps, theirs), s.rounds
    )
    case = h.Case(
        "",
        lambda: _robomodel_steps(n, s.clock),
        "iDynTree `Model.addJointAndLink`, one link at a time",
        lambda: _idyntree_steps(n, s.clock),
    )
    w = min(WINDOW, n - 1)

    def medians(builds: list[list[float]], part: slice) -> list[float]:
        return [statistics.median(steps[part]) for steps in builds]

    rows = [
        ("whole build", *totals),
        (f"per link, first {w}", medians(ours, slice(w)), medians(theirs, slice(w))),
        (f"per link, last {w}", medians(ours, slice(-w, None)), medians(theirs, slice(-w, None))),
    ]
    return [
        h.Result(dataclasses.replace(case, label=f"{n:>5} links: {label}"), a, b)
        for label, a, b in rows
    ]


def main() -> None:
    p = h.parser(__doc__)
    p.add_argument("sizes", nargs="*", type=int, help="chain lengths (links)")
    args = p.parse_args()
    s = h.settings(args, rounds=3)
    sizes = args.sizes or ([100, 1000] if s.quick else [100, 1000, 10000])
    h.header("Building a chain one add_joint_and_link at a time", s, blocks=False)
    h.finish("build_chain", [r for n in sizes for r in measure(n, s)], s)


if __name__ == "__main__":
    main()
