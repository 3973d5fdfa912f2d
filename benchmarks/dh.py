"""DH chains: robomodel.formats.dh against iDynTree's DH bridge, measured in one run.

Run with ``python benchmarks/dh.py [--rounds N] [--quick] [--cpu]``; timed in paired rounds by
``_harness`` (ratios robomodel / iDynTree, below 1 means robomodel is faster).

1. End-effector pose of the iCub right arm (10 links) at new angles: robomodel's
   ``set_angles`` + ``end_effector_pose`` vs iDynTree ``KinDynComputations.setJointPos`` +
   ``getRelativeTransform`` on the model built by ``CreateModelFromDHChain``.
2. ``chain_to_model`` vs iDynTree ``CreateModelFromDHChain``.
3. ``model_to_chain`` on iCubGazeboV2_7 (root_link -> r_hand_dh_frame) vs iDynTree
   ``ExtractDHChainFromModel``.
"""

from __future__ import annotations

from typing import Any

import _harness as h
import numpy as np

from robomodel.formats.dh import (
    chain_to_model,
    icub_arm,
    model_to_chain,
    release_link,
    set_angles,
)


def idyntree_chain(idt: Any, chain: Any) -> Any:
    dh = idt.DHChain()
    dh.setNrOfDOFs(chain.n_links)
    dh.setH0(idt.Transform(chain.H0.as_matrix()))
    dh.setHN(idt.Transform(chain.HN.as_matrix()))
    for k, lk in enumerate(chain.links):
        link = dh(k)
        link.A, link.D, link.Alpha, link.Offset = lk.a, lk.d, lk.alpha, lk.offset
        link.Min, link.Max = lk.min, lk.max
        dh.setDOFName(k, f"joint{k}")  # iDynTree names the joints after these; empty ones clash
    return dh


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=9, block=0.05)
    idt = h.idyntree()
    chain = icub_arm("right", "2.7")
    for i in range(3):
        chain = release_link(chain, i)
    rng = np.random.default_rng(0)
    qs = [np.array([rng.uniform(lk.min, lk.max) for lk in chain.links]) for _ in range(64)]

    dh = idyntree_chain(idt, chain)
    model = idt.Model()
    assert idt.CreateModelFromDHChain(dh, model)
    kd = idt.KinDynComputations()
    assert kd.loadRobotModel(model)

    it = iter(range(10**12))

    def rm_fk() -> None:
        q = qs[next(it) % 64]
        set_angles(chain, q)[0].end_effector_pose()

    def idt_fk() -> None:
        q = qs[next(it) % 64]
        kd.setJointPos(q)
        kd.getRelativeTransform("baseFrame", "distalFrame")

    path = h.icub_path()
    rm_model = h.load_robomodel(path)
    idt_model = h.load_idyntree(path)
    cases = [
        h.Case("end-effector pose, iCub arm (10 links)", rm_fk, "iDynTree", idt_fk),
        h.Case(
            "chain_to_model vs CreateModelFromDHChain",
            lambda: chain_to_model(chain),
            "iDynTree",
            lambda: idt.CreateModelFromDHChain(dh, idt.Model()),
        ),
        h.Case(
            "model_to_chain vs ExtractDHChainFromModel (iCub)",
            lambda: model_to_chain(rm_model, "root_link", "r_hand_dh_frame"),
            "iDynTree",
            lambda: idt.ExtractDHChainFromModel(
                idt_model, "root_link", "r_hand_dh_frame", idt.DHChain()
            ),
        ),
    ]
    h.header("DH chains: robomodel.formats.dh against iDynTree's DH bridge", s)
    h.run(cases, s)


if __name__ == "__main__":
    main()
