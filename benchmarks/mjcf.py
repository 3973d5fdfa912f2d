"""MJCF export of iCubGazeboV2_7 against MuJoCo compiling the URDF itself.

Run ``python benchmarks/mjcf.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed in paired
rounds by ``_harness``. First-call rows (before each timed call robomodel loads the URDF, not
timed, so the export starts from a freshly loaded model):

* robomodel's ``mjcf.dumps`` + ``mjcf.compile_mjcf`` (MuJoCo compiling the MJCF robomodel
  writes) against MuJoCo's own URDF import, ``mujoco.MjModel.from_xml_string`` on the URDF
  text with its ``package://`` URIs replaced by the directory that holds them (MuJoCo 4.0 does
  not resolve them); without meshes (the URDF's ``<visual>`` and ``<collision>`` elements
  removed for MuJoCo, ``ExportOptions(meshes=False, ...)`` for robomodel), and with them (both
  load the same meshes; slow, so at most 3 rounds, and left out by ``--quick``; the target:
  within 2x);
* robomodel's ``mjcf.loads`` of that MJCF (MuJoCo's compile plus building the model) against
  MuJoCo compiling the same MJCF text.

``--table`` prints instead the peer table of ``docs/mjcf.md``: for every icub-models robot, what
MuJoCo's URDF import and robomodel's export keep.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from typing import Any

import _harness as h
import icub_models
import mujoco

import robomodel as rm

mjcf = h.rm_module("formats.mjcf")
urdf = h.rm_module("formats.urdf")

ROBOT = "iCubGazeboV2_7"


def share_dir(path: str) -> str:
    """The directory holding the ``iCub`` package folder of an icub-models URDF."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(path))))


def mujoco_urdf_text(path: str, *, meshes: bool = True) -> str:
    """The URDF text MuJoCo can compile: package URIs made absolute, or shapes removed."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if meshes:
        return text.replace("package://", share_dir(path) + "/")
    return re.sub(r"<(visual|collision)\b.*?</\1>", "", text, flags=re.S)


def bench(argv: list[str]) -> None:
    p = h.parser(__doc__)
    p.add_argument("--table", action="store_true", help="print the peer table of docs/mjcf.md")
    s = h.settings(p.parse_args(argv), rounds=9, block=0.2)
    warnings.simplefilter("ignore")
    path = str(icub_models.get_model_file(ROBOT))
    share = share_dir(path)

    def rm_load() -> Any:
        return rm.with_package_dirs(urdf.load(path), [share])

    def export_compile(options: Any) -> Any:
        return lambda model: mjcf.compile_mjcf(mjcf.dumps(model, options=options))

    def nothing() -> None:
        return None

    cases: list[h.Case | h.Fresh] = []
    for meshes in (False,) if s.quick else (False, True):
        options = mjcf.ExportOptions(meshes=meshes, visuals=meshes, collisions=meshes)
        text = mujoco_urdf_text(path, meshes=meshes)
        with_or_without = "with meshes" if meshes else "without meshes"
        cases.append(
            h.Fresh(
                f"MJCF dumps + compile_mjcf, {ROBOT}, {with_or_without}",
                rm_load,
                export_compile(options),
                f"MuJoCo `MjModel.from_xml_string` on the URDF text, {with_or_without}",
                nothing,
                lambda _, text=text: mujoco.MjModel.from_xml_string(text),
                max_rounds=3 if meshes else None,
            )
        )
    plain = mjcf.ExportOptions(meshes=False, visuals=False, collisions=False)
    mjcf_text = mjcf.dumps(rm_load(), options=plain)
    cases.append(
        h.Fresh(
            f"MJCF loads, {ROBOT}, without meshes",
            nothing,
            lambda _: mjcf.loads(mjcf_text),
            "MuJoCo `MjModel.from_xml_string` on the same MJCF text",
            nothing,
            lambda _: mujoco.MjModel.from_xml_string(mjcf_text),
        )
    )
    h.header(f"{ROBOT}: MJCF export and import against MuJoCo (target <= 2.0x)", s)
    h.finish("mjcf", h.measure(cases, s), s)


def table() -> None:
    print(
        "| robot | mass (kg) | MuJoCo URDF import: compiles / mass kept / sensors / frames "
        "| robomodel export: compiles / mass kept / sensors / frames / changed |"
    )
    print("|---|---|---|---|")
    for name in sorted(icub_models.get_robot_names()):
        path = str(icub_models.get_model_file(name))
        model = rm.with_package_dirs(urdf.load(path), [share_dir(path)])
        n_sensors = sum(
            2 if isinstance(s, rm.SixAxisForceTorqueSensor) else 1 for s in model.sensors
        )
        n_frames = model.n_frames - model.n_links
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                peer = mujoco.MjModel.from_xml_string(mujoco_urdf_text(path))
            theirs = (
                f"yes / {peer.body_mass.sum():.2f} / {peer.nsensor} of {n_sensors} / "
                f"{peer.nsite} of {n_frames}"
            )
        except ValueError as exc:
            theirs = "**no**: " + str(exc).splitlines()[0].removeprefix("Error: ")[:60]
        text, report = mjcf.dumps_with_report(model)
        ours = mjcf.compile_mjcf(text)
        frames = sum(
            mujoco.mj_name2id(ours, mujoco.mjtObj.mjOBJ_SITE, f.name) >= 0 for f in model.frames
        )
        mine = (
            f"yes / {ours.body_mass.sum():.2f} / {ours.nsensor} of {n_sensors} / "
            f"{frames} of {n_frames} / {len(report.of('changed'))}"
        )
        print(f"| {name} | {model.total_mass:.2f} | {theirs} | {mine} |")


if __name__ == "__main__":
    table() if "--table" in sys.argv else bench(sys.argv[1:])
