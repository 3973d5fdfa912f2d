"""OpenUSD peer: NVIDIA's urdf-usd-converter and robomodel on the same URDF files.

The converter (``pip install urdf-usd-converter``; it brings its own OpenUSD build, so it lives
in a separate environment: the test finds its ``urdf_usd_converter`` command on ``PATH`` or in
``ROBOMODEL_URDF_USD_CONVERTER``, and is skipped without it) turns each URDF into USD; robomodel
reads both that file and its own, and the table of what each kept (bodies, mass, frames,
sensors) is the one in ``docs/usd.md``. ``python tests/test_usd_peer.py`` prints it.
The converter's files also check robomodel's reader of other tools' files: the links it reads
sit where robomodel's forward kinematics of the URDF puts them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import robomodel as rm
from robomodel.data import example_path
from robomodel.formats import urdf
from robomodel.physics.kinematics import forward_kinematics

pytest.importorskip("pxr")
from robomodel.formats import usd


def _converter() -> str | None:
    return os.environ.get("ROBOMODEL_URDF_USD_CONVERTER") or shutil.which("urdf_usd_converter")


def _icub(name: str) -> Path:
    import icub_models

    return Path(icub_models.get_model_file(name))


def _source(name: str) -> Path:
    return example_path() if name == "example" else _icub(name)


@cache
def _converted(name: str) -> rm.Model:
    """The converter's USD of ``name``, read by robomodel (its report's skips are expected)."""
    exe = _converter()
    assert exe is not None
    with tempfile.TemporaryDirectory() as out:
        args = [exe, str(_source(name)), out, "--no-layer-structure", "--no-physics-scene"]
        if name != "example":
            import icub_models

            args += ["--package", f"iCub={icub_models.get_models_path().parent}"]
        subprocess.run(args, check=True, capture_output=True, timeout=600)
        (usd_file,) = [p for p in Path(out).iterdir() if p.suffix in (".usda", ".usdc")]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the test tables what was skipped instead
            return usd.load(usd_file)


def _original(name: str) -> rm.Model:
    return urdf.load(_source(name), options=urdf.LoadOptions(inertia="ignore"))


def _kept(original: rm.Model, read: rm.Model) -> dict[str, str]:
    mass = sum(link.mass for link in original.links)
    read_mass = sum(link.mass for link in read.links)
    frames = {f.name for f in read.frames}
    sensors = {s.name for s in read.sensors}
    return {
        "bodies": f"{len(set(original.link_names) & set(read.link_names))}/{original.n_links}",
        "joints": f"{len(set(original.joint_names) & set(read.joint_names))}/{original.n_joints}",
        "mass": f"{abs(read_mass - mass) / mass:.0e}",
        "frames": f"{sum(f.name in frames for f in original.frames)}/{len(original.frames)}",
        "sensors": f"{sum(s.name in sensors for s in original.sensors)}/{len(original.sensors)}",
    }


# What docs/usd.md states, measured with urdf-usd-converter 0.3.4 (mass: relative difference of
# the total mass read back).
CONVERTER_KEPT = {
    "example": {"bodies": "27/27", "joints": "26/26", "frames": "4/17", "sensors": "0/12"},
    "iCubGazeboV2_7": {
        "bodies": "39/39",
        "joints": "38/38",
        "frames": "175/234",
        "sensors": "0/83",
    },
}

needs_converter = pytest.mark.skipif(_converter() is None, reason="urdf-usd-converter not found")


@needs_converter
@pytest.mark.parametrize(
    "name", ["example", pytest.param("iCubGazeboV2_7", marks=pytest.mark.slow)]
)
def test_peer_table(name: str) -> None:
    """What the converter keeps is what docs/usd.md says; robomodel keeps everything."""
    original = _original(name)
    ours = usd.loads(usd.dumps_with_report(original, options=usd.DumpOptions(meshes=False))[0])
    assert ours == original
    theirs = _kept(original, _converted(name))
    assert {k: v for k, v in theirs.items() if k != "mass"} == CONVERTER_KEPT[name]
    assert float(theirs["mass"]) < 1e-6  # float32 masses


@needs_converter
@pytest.mark.parametrize(
    "name", ["example", pytest.param("iCubGazeboV2_7", marks=pytest.mark.slow)]
)
def test_converter_files_read_where_the_urdf_puts_the_links(name: str) -> None:
    """robomodel's reader of other tools' files: links, inertias and joint placements of the
    converter's USD agree with the URDF (forward kinematics at zero and at random positions,
    float32 precision)."""
    original, read = _original(name), _converted(name)
    rng = np.random.default_rng(0)
    for q in (np.zeros(original.n_pos_coords), rng.uniform(-1, 1, original.n_pos_coords)):
        values = dict(
            zip(
                [
                    n
                    for n, j in zip(original.joint_names, original.joints, strict=True)
                    if j.n_pos_coords
                ],
                q,
                strict=True,
            )
        )
        fk_a = forward_kinematics(original, values, base=original.default_base)
        fk_b = forward_kinematics(read, values, base=original.default_base)
        for i, link in enumerate(original.link_names):
            np.testing.assert_allclose(
                fk_b.base_H_link[read.link_index(link)], fk_a.base_H_link[i], atol=2e-6
            )
    for link in original.link_names:
        a, b = original.link(link).inertia, read.link(link).inertia
        assert b.mass == pytest.approx(a.mass, rel=1e-6)
        np.testing.assert_allclose(b.first_moment, a.first_moment, atol=1e-6 * max(a.mass, 1))


if __name__ == "__main__":
    names = sys.argv[1:] or ["example", "iCubGazeboV2_7"]
    print("| model | kept by | bodies | joints | total mass (rel. diff.) | frames | sensors |")
    print("|---|---|---|---|---|---|---|")
    for n in names:
        original = _original(n)
        ours = usd.loads(usd.dumps_with_report(original, options=usd.DumpOptions(meshes=False))[0])
        for who, model in (("robomodel", ours), ("urdf-usd-converter", _converted(n))):
            k = _kept(original, model)
            print(
                f"| {n} | {who} | {k['bodies']} | {k['joints']} | {k['mass']} | "
                f"{k['frames']} | {k['sensors']} |"
            )


@needs_converter
def test_converter_primitive_shapes_read_as_the_urdf_has_them() -> None:
    """The boxes, spheres and cylinders of the converter's file of the example are the URDF's:
    same kind, sizes and pose (float32 precision), visual or collision as in the URDF."""
    original, read = _original("example"), _converted("example")
    for i, link in enumerate(original.link_names):
        k = read.link_index(link)
        for kind in ("visuals", "collisions"):
            ours, theirs = getattr(original, kind)[i], getattr(read, kind)[k]
            assert len(theirs) == len(ours)
            for a, b in zip(ours, theirs, strict=True):
                assert type(a.geometry) is type(b.geometry)
                np.testing.assert_allclose(
                    [
                        getattr(b.geometry, f)
                        for f in ("x", "y", "z", "radius", "length")
                        if hasattr(a.geometry, f)
                    ],
                    [
                        getattr(a.geometry, f)
                        for f in ("x", "y", "z", "radius", "length")
                        if hasattr(a.geometry, f)
                    ],
                    rtol=1e-6,
                )
                np.testing.assert_allclose(
                    b.link_H_geometry.as_matrix(), a.link_H_geometry.as_matrix(), atol=1e-6
                )
