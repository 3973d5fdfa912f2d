"""DH chains: robomodel.formats.dh against iDynTree's DH bridge, measured in one run.

Run with ``python benchmarks/dh.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed in
paired rounds by ``_harness`` (ratios robomodel / iDynTree, below 1 means robomodel is faster).
First-call rows make a new chain or load a new model before each timed call (not timed; for
iDynTree a new ``DHChain``, model and ``KinDynComputations``); rows saying "repeated" time many
calls on one.

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

dh_module = h.rm_module("formats.dh")
chain_to_model = dh_module.chain_to_model
icub_arm = dh_module.icub_arm
model_to_chain = dh_module.model_to_chain
release_link = dh_module.release_link
set_angles = dh_module.set_angles


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


def arm() -> Any:
    """The iCub right arm (v2.7) with its three torso links released."""
    chain = icub_arm("right", "2.7")
    for i in range(3):
        chain = release_link(chain, i)
    return chain


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=9, block=0.05)
    idt = h.idyntree()
    chain = arm()
    rng = np.random.default_rng(0)
    qs = [np.array([rng.uniform(lk.min, lk.max) for lk in chain.links]) for _ in range(64)]
    q0 = qs[0]

    def idt_model(dh: Any) -> Any:
        model = idt.Model()
        assert idt.CreateModelFromDHChain(dh, model)
        return model

    def idt_kindyn() -> Any:
        kd = idt.KinDynComputations()
        assert kd.loadRobotModel(idt_model(idyntree_chain(idt, arm())))
        return kd

    def rm_pose(c: Any, q: Any) -> object:
        return set_angles(c, q)[0].end_effector_pose()

    def idt_pose(kd: Any, q: Any) -> object:
        kd.setJointPos(q)
        return kd.getRelativeTransform("baseFrame", "distalFrame")

    def idt_extract(im: Any) -> object:
        dh = idt.DHChain()
        assert idt.ExtractDHChainFromModel(im, "root_link", "r_hand_dh_frame", dh)
        return dh

    path = h.icub_path()
    dh = idyntree_chain(idt, chain)
    kd = idt_kindyn()
    rm_model = h.load_robomodel(path)
    idt_loaded = h.load_idyntree(path)
    it = iter(range(10**12))
    cases: list[h.Case | h.Fresh] = [
        h.Fresh(
            "end-effector pose, iCub arm (10 links)",
            arm,
            lambda c: rm_pose(c, q0),
            "iDynTree `KinDynComputations.setJointPos` + `getRelativeTransform`",
            idt_kindyn,
            lambda k: idt_pose(k, q0),
        ),
        h.Fresh(
            "chain_to_model, iCub arm",
            arm,
            chain_to_model,
            "iDynTree `CreateModelFromDHChain`",
            lambda: idyntree_chain(idt, arm()),
            idt_model,
        ),
        h.Fresh(
            "model_to_chain, iCub root_link -> r_hand_dh_frame",
            lambda: h.load_robomodel(path),
            lambda m: model_to_chain(m, "root_link", "r_hand_dh_frame"),
            "iDynTree `ExtractDHChainFromModel`",
            lambda: h.load_idyntree(path),
            idt_extract,
        ),
        h.Case(
            "end-effector pose, iCub arm (10 links), repeated at new angles",
            lambda: rm_pose(chain, qs[next(it) % 64]),
            "iDynTree `KinDynComputations.setJointPos` + `getRelativeTransform`",
            lambda: idt_pose(kd, qs[next(it) % 64]),
        ),
        h.Case(
            "chain_to_model, iCub arm, repeated on one chain",
            lambda: chain_to_model(chain),
            "iDynTree `CreateModelFromDHChain`",
            lambda: idt_model(dh),
        ),
        h.Case(
            "model_to_chain, iCub, repeated on one model",
            lambda: model_to_chain(rm_model, "root_link", "r_hand_dh_frame"),
            "iDynTree `ExtractDHChainFromModel`",
            lambda: idt_extract(idt_loaded),
        ),
    ]
    h.header("DH chains: robomodel's DH module against iDynTree's DH bridge", s)
    h.finish("dh", h.measure(cases, s), s)


if __name__ == "__main__":
    main()
