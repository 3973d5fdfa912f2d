"""Reports of transformers: a grouped summary, one line per change on request, bounded ``str``.

Oracle: the report's own ``changes`` (what the summary groups), and the models before and after
(what a reduction removed).
"""

from __future__ import annotations

import re
import warnings
from functools import partial

import icub_models
import pytest

import robomodel.formats.urdf
from robomodel.transformers import explain, pipeline, reduce_model, remove_fake_links
from robomodel.transformers.report import SHORT_REPORT, Change, Report

GROUP = re.compile(r"^(?:(\w+): )?(\w+) (\d+) (\w+): (.*)$")


@pytest.fixture(scope="module")
def icub_legs() -> tuple[robomodel.Model, robomodel.Model, Report]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", robomodel.RobomodelWarning)
        model = robomodel.formats.urdf.load(icub_models.get_model_file("iCubGazeboV2_7"))
        legs = [j for j in model.joint_names if j.startswith(("l_hip", "l_knee", "l_ankle"))]
        out, report = explain(partial(reduce_model, keep_joints=legs), model)
    return model, out, report


def test_the_summary_groups_every_change(
    icub_legs: tuple[robomodel.Model, robomodel.Model, Report],
) -> None:
    """Each summary line counts one (action, kind) group; the counts add up to the report."""
    model, out, report = icub_legs
    lines = report.summary().splitlines()
    parsed = [GROUP.match(line) for line in lines]
    assert all(parsed), lines
    total = sum(int(m.group(3)) for m in parsed if m)
    assert total == len(report) > 100
    groups = {(c.action, c.kind) for c in report.changes}
    assert len(lines) == len(groups)
    lumped = next(m for m in parsed if m and m.group(2) == "lumped")
    assert int(lumped.group(3)) == model.n_links - out.n_links
    assert lumped.group(5).endswith(f"({model.n_links - out.n_links - 6} more)")


def test_str_is_bounded_and_details_list_every_change(
    icub_legs: tuple[robomodel.Model, robomodel.Model, Report],
) -> None:
    _, _, report = icub_legs
    assert report.details().splitlines() == [str(c) for c in report.changes]
    text = str(report).splitlines()
    assert text[:-1] == report.summary().splitlines()
    assert text[-1] == f"({len(report)} changes; report.details() lists every one)"
    short = Report(report.changes[:SHORT_REPORT])
    assert str(short) == short.details()


def test_a_pipeline_summary_names_each_step() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", robomodel.RobomodelWarning)
        model = robomodel.formats.urdf.load(
            icub_models.get_model_file("iCubGazeboV2_7"),
            options=robomodel.formats.urdf.LoadOptions(remove_fake_links=False),
        )
        legs = [j for j in model.joint_names if j.startswith(("r_hip", "r_knee"))]
        _, report = explain(
            pipeline(remove_fake_links, partial(reduce_model, keep_joints=legs)), model
        )
    steps = {c.step for c in report.changes}
    assert len(steps) == 2
    lines = report.summary().splitlines()
    assert {line.split(":", 1)[0] for line in lines} == steps


def test_whole_model_changes_and_empty_reports() -> None:
    for kind in ("joint", "joints"):  # the order of all joints: normalize_joint_order says "joints"
        r = Report((Change(step="s", action="reordered", kind=kind, name=""),))
        assert r.summary() == "reordered the joints"
    assert Report().summary() == Report().details() == str(Report()) == "no changes"
    one = Report((Change(step="s", action="dropped", kind="mesh", name="m"),))
    assert one.summary() == "dropped 1 mesh: m"
    two = Report(one.changes * 2)
    assert two.summary() == "dropped 2 meshes: m, m"
