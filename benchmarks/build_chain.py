"""Build chains of N links one ``add_joint_and_link`` at a time, robomodel against iDynTree.

Run with ``python benchmarks/build_chain.py [N ...]`` (default: 100 1000 10000). For each size it
builds the chain REPEAT times with each library (interleaved, in this run) and keeps the run with
the smallest total; it prints the per-link cost over the first and the last 100 steps (median),
the mean over the whole build (Python's garbage collector included, as a user would see it), and
the ratios iDynTree / robomodel of the totals and of the last-100 medians.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import idyntree.bindings as idt
import numpy as np

# Runnable from a checkout without installing (as the other benchmarks are).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import robomodel as rm

WINDOW = 100
REPEAT = 3


def _robomodel_steps(n: int) -> list[float]:
    rest = rm.Transform.from_rpy_xyz((0.0, 0.0, 0.1), (0.0, 0.0, 0.1))
    axis = rm.Axis((0.0, 0.0, 1.0))
    link = rm.Link(rm.SpatialInertia.from_com(1.0, (0.0, 0.0, 0.05), np.eye(3) * 0.01))
    joint = rm.RevoluteJoint(link1="a", link2="b", link1_H_link2=rest, axis_in_link1=axis)
    add = rm.add_joint_and_link
    clock = time.perf_counter
    m = rm.add_link(rm.Model(), "l0", link)
    steps = []
    for i in range(1, n):
        t0 = clock()
        m = add(m, f"l{i - 1}", f"j{i}", joint, f"l{i}", link)
        steps.append(clock() - t0)
    assert m.n_links == n and m.n_dofs == n - 1
    return steps


def _idyntree_steps(n: int) -> list[float]:
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
    clock = time.perf_counter
    m = idt.Model()
    m.addLink("l0", link)
    steps = []
    for i in range(1, n):
        t0 = clock()
        m.addJointAndLink(f"l{i - 1}", f"j{i}", joint, f"l{i}", link)
        steps.append(clock() - t0)
    assert m.getNrOfLinks() == n and m.getNrOfDOFs() == n - 1
    return steps


def _summary(steps: list[float]) -> tuple[float, float, float]:
    w = min(WINDOW, len(steps))
    us = 1e6
    return (
        statistics.median(steps[:w]) * us,
        statistics.median(steps[-w:]) * us,
        sum(steps) * us / len(steps),
    )


def main(sizes: list[int]) -> None:
    print(f"per-link cost in microseconds (median of the first/last {WINDOW} steps; mean)")
    header = (
        f"{'links':>6} | {'robomodel first':>15} {'last':>7} {'mean':>7} {'total s':>8} | "
        f"{'iDynTree first':>14} {'last':>7} {'mean':>7} {'total s':>8} | {'ratio total':>11}"
        f" {'ratio last':>10}"
    )
    print(header)
    print("-" * len(header))
    for n in sizes:
        rs_runs, ids_runs = [], []
        for _ in range(REPEAT):
            rs_runs.append(_robomodel_steps(n))
            ids_runs.append(_idyntree_steps(n))
        rs = min(rs_runs, key=sum)
        ids = min(ids_runs, key=sum)
        r0, r1, rmean = _summary(rs)
        i0, i1, imean = _summary(ids)
        print(
            f"{n:>6} | {r0:>15.1f} {r1:>7.1f} {rmean:>7.1f} {sum(rs):>8.3f} | "
            f"{i0:>14.1f} {i1:>7.1f} {imean:>7.1f} {sum(ids):>8.3f} | "
            f"{sum(ids) / sum(rs):>10.1f}x {i1 / r1:>9.1f}x"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 1000, 10000])
