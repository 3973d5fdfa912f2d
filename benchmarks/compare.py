"""``robomodel compare``'s check on a 32-DOF humanoid pair, 100 configurations, against iDynTree.

The pair: iCubGazeboV2_7 from its URDF, and the same robot written by robomodel's MJCF writer,
compiled by MuJoCo and read back by robomodel's MJCF reader (a real conversion to check).
``same_mechanism(a, b, samples=100)`` compares 273 frames, 32 joints and 83 sensors: masses,
poses, joint transforms and axes, limits, inverse dynamics with the base fixed and floating,
and every sensor's reading.

The peer is what a user would write with iDynTree's ``KinDynComputations`` for a subset of that
work: for each model and each of the 100 configurations, ``setRobotState``, the world
transform of every link, the centre of mass and ``inverseDynamics`` (base fixed); iDynTree
reads model b from robomodel's URDF export of it. The requirement is robomodel under 2 s.

First-call rows: before each timed call both sides get the pair freshly loaded (not timed).

Run: ``python benchmarks/compare.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed in
paired rounds by ``_harness``.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any

import _harness as h
import numpy as np

import robomodel as rm

SAMPLES = 100


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=5, block=0.5)
    warnings.simplefilter("ignore")
    idt = h.idyntree()
    mjcf = h.rm_module("formats.mjcf")
    urdf = h.rm_module("formats.urdf")
    same_mechanism = h.rm_module("tools.compare").same_mechanism
    path = h.icub_path()
    a0 = h.load_robomodel(path)
    text = mjcf.dumps_with_report(a0)[0]
    b0 = mjcf.loads(text)
    tmp = tempfile.mkdtemp(prefix="bench-compare-")
    b_urdf = os.path.join(tmp, "b.urdf")
    with open(b_urdf, "w", encoding="utf-8") as f:
        f.write(urdf.dumps(b0))
    verdict = same_mechanism(a0, b0, samples=SAMPLES)
    assert verdict.same, verdict.report()
    rng = np.random.default_rng(0)
    moving = [n for n, j in zip(a0.joint_names, a0.joints, strict=True) if j.n_dofs]
    Q = rng.uniform(-0.5, 0.5, (SAMPLES, len(moving)))
    DQ = rng.standard_normal((SAMPLES, len(moving)))

    def ours_pair() -> tuple[rm.Model, rm.Model]:
        return h.load_robomodel(path), mjcf.loads(text)

    def theirs_pair() -> list[tuple[Any, list[str], list[int]]]:
        out = []
        for p in (path, b_urdf):
            im = h.load_idyntree(p)
            kd = idt.KinDynComputations()
            kd.loadRobotModel(im)
            links = [im.getLinkName(i) for i in range(im.getNrOfLinks())]
            order = [im.getJointIndex(n) for n in moving]
            out.append((kd, links, order))
        return out

    def idt_check(pair: list[tuple[Any, list[str], list[int]]]) -> object:
        g = idt.Vector3.FromPython([0.0, 0.0, -9.81])
        results = []
        for kd, links, order in pair:
            n = kd.getNrOfDegreesOfFreedom()
            base_acc = idt.Vector6()
            tau = idt.FreeFloatingGeneralizedTorques(kd.model())
            for q, dq in zip(Q, DQ, strict=True):
                qi, dqi, ddqi = np.zeros(n), np.zeros(n), np.zeros(n)
                qi[order], dqi[order], ddqi[order] = q, dq, dq
                kd.setRobotState(
                    idt.Transform.Identity(),
                    idt.VectorDynSize.FromPython(qi.tolist()),
                    idt.Twist.Zero(),
                    idt.VectorDynSize.FromPython(dqi.tolist()),
                    g,
                )
                poses = [kd.getWorldTransform(name).asHomogeneousTransform() for name in links]
                com = kd.getCenterOfMassPosition()
                kd.inverseDynamics(base_acc, idt.VectorDynSize.FromPython(ddqi.tolist()),
                                   idt.LinkWrenches(kd.model()), tau)  # fmt: skip
                results.append((poses, com, tau.jointTorques().toNumPy().copy()))
        return results

    cases: list[h.Case | h.Fresh] = [
        h.Fresh(
            f"same_mechanism, iCub URDF vs its MJCF read back, {SAMPLES} configurations",
            ours_pair,
            lambda pair: same_mechanism(*pair, samples=SAMPLES),
            f"iDynTree `KinDynComputations`, both models, {SAMPLES} states each: "
            "`setRobotState`, every link's `getWorldTransform`, `getCenterOfMassPosition`, "
            "`inverseDynamics`",
            theirs_pair,
            idt_check,
            max_rounds=5,
        ),
    ]
    h.header(f"{h.ICUB}: robomodel compare on a URDF / MJCF pair ({a0.n_dofs} DOFs)", s)
    h.finish("compare", h.measure(cases, s), s)


if __name__ == "__main__":
    main()
