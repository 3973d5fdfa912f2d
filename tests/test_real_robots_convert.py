"""MJCF -> URDF does not stop at the first joint whose axis misses its child's origin.

URDF puts a child link's origin on its joint's axis; an MJCF joint with a ``pos`` does not. The
URDF writer's report path (``dumps_with_report``) and ``robomodel convert`` make such a model
URDF-compatible (the child frames move onto the axes, everything else is re-expressed), say so
for each moved link, and write the file.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import gymnasium
import pytest

from robomodel.cli import main
from robomodel.formats import mjcf, urdf
from robomodel.tools.compare import Tolerances, same_mechanism

HOPPER = Path(gymnasium.__file__).parent / "envs" / "mujoco" / "assets" / "hopper.xml"


@pytest.fixture(scope="module")
def hopper():  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        return mjcf.load(HOPPER)


def test_the_plain_writer_still_refuses(hopper) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(urdf.URDFExportError, match="axis"):
        urdf.dumps(hopper)


def test_the_report_path_moves_the_frames_and_says_so(hopper) -> None:  # type: ignore[no-untyped-def]
    text, report = urdf.dumps_with_report(hopper)
    moved = {x.name: x.detail for x in report.losses if x.kind == "link" and x.action == "changed"}
    assert moved and all("moved onto the axis" in d for d in moved.values())
    back = urdf.loads(text)
    verdict = same_mechanism(hopper, back, seed=1, tolerances=Tolerances.all(1e-9))
    assert verdict.same, verdict.report()
    # Every moved link keeps its old frame, by name.
    for link in moved:
        assert back.is_frame_name_used(f"{link}_original_frame")


def test_convert_writes_the_file_and_warns(
    hopper, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "hopper.urdf"
    assert main(["convert", str(HOPPER), str(out)]) == 0
    err = capsys.readouterr().err
    assert "moved onto the axis" in err and "dumps_with_report" in err
    verdict = same_mechanism(hopper, urdf.load(out), seed=2, tolerances=Tolerances.all(1e-9))
    assert verdict.same, verdict.report()


def test_the_report_names_the_links_mujoco_refuses_in_urdf(hopper, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A body with several MJCF joints becomes massless URDF links between them: valid URDF
    (Pinocchio loads it), refused by MuJoCo's URDF import; the report says which, before
    MuJoCo does."""
    import mujoco
    import pinocchio

    text, report = urdf.dumps_with_report(hopper)
    noted = {x.name for x in report.losses if x.action == "note" and "MuJoCo" in x.detail}
    path = tmp_path / "hopper.urdf"
    path.write_text(text)
    pin = pinocchio.buildModelFromUrdf(str(path))
    assert sum(i.mass for i in pin.inertias) == pytest.approx(hopper.total_mass, rel=1e-12)
    with pytest.raises(ValueError, match="mjMINVAL") as refused:
        mujoco.MjModel.from_xml_path(str(path))
    assert any(f"'{name}'" in str(refused.value) for name in noted), (noted, refused.value)


def test_the_report_says_how_much_mass_mujoco_fuses_into_its_world(tmp_path: Path) -> None:
    """Why gymnasium's models "lose mass through URDF": MuJoCo's URDF import welds the root to
    the world and fuses it, and every link welded to it, into the world body. The report gives
    that mass; MuJoCo's total is exactly the model's minus it."""
    import re

    import mujoco

    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        ant = mjcf.load(HOPPER.parent / "ant.xml")
    text, report = urdf.dumps_with_report(ant)
    (note,) = [x for x in report.losses if "fuses it" in x.detail]
    fused = float(re.search(r"so their (\S+) kg", note.detail).group(1))  # type: ignore[union-attr]
    path = tmp_path / "ant.urdf"
    path.write_text(text)
    mm = mujoco.MjModel.from_xml_path(str(path))
    assert float(mm.body_mass.sum()) == pytest.approx(ant.total_mass - fused, rel=1e-12)
    assert fused > ant.link(note.name).inertia.mass  # the legs welded to the torso count too
