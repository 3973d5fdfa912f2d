"""A loaded model holds the values a built one does, and loading leaves no process-wide trace.

The URDF loader used to build private subclasses remembering the numbers and the file line they
were read from, and its exporter kept memo tables across calls. Where an element was read now
lives in the load's report (``robomodel.formats.urdf.report``), and nothing in
``robomodel.formats.urdf`` keeps state between calls.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import attrs
import icub_models
import pytest

import robomodel.formats.urdf as urdf
from robomodel.data import example_path
from robomodel.formats.urdf.options import LoadOptions
from robomodel.model.record import Model
from robomodel.model.shapes import Box, Cylinder, Mesh, SolidShape, Sphere
from robomodel.model.spatial import Axis, SpatialInertia, Transform

# Ten different documents: the bundled example and nine icub-models robots (sorted names, so
# the choice does not depend on the package's order).
ROBOTS = sorted(icub_models.get_robot_names())[:9]
PATHS = [str(example_path())] + [str(icub_models.get_model_file(n)) for n in ROBOTS]
_PLAIN = (Transform, Axis, SpatialInertia)


def _values(model: Model) -> Iterator[tuple[str, Any]]:
    """Every inertia, joint pose and axis, frame pose, sensor pose and shape, with where."""
    for name, link in zip(model.link_names, model.links, strict=True):
        yield f"inertia of {name}", link.inertia
    for name, j in zip(model.joint_names, model.joints, strict=True):
        yield f"rest of {name}", j.link1_H_link2
        axis = getattr(j, "axis_in_link1", None)
        if axis is not None:
            yield f"axis of {name}", axis
    for fr in model.frames:
        yield f"pose of frame {fr.name}", fr.link_H_frame
    for s in model.sensors:
        for field in attrs.fields(type(s)):
            v = getattr(s, field.name)
            if isinstance(v, Transform):
                yield f"{field.name} of sensor {s.name}", v
    for name, visuals, collisions in zip(
        model.link_names, model.visuals, model.collisions, strict=True
    ):
        for s in [*visuals, *collisions]:
            yield f"shape of {name}", s
            yield f"shape pose of {name}", s.link_H_geometry
            yield f"geometry of {name}", s.geometry


@pytest.mark.parametrize("keep_fake_links", [False, True])
@pytest.mark.parametrize("path", PATHS, ids=["example", *ROBOTS])
def test_a_loaded_model_holds_values_of_the_plain_classes(path: str, keep_fake_links: bool) -> None:
    """Every value of a loaded model is of the class a built model uses, not a subclass."""
    # Kept fake links are links, so iDynTree's sensor frames clash with them: none added.
    options = LoadOptions(
        remove_fake_links=not keep_fake_links, add_sensor_frames=not keep_fake_links
    )
    model = urdf.load(path, options=options)
    seen: set[type] = set()
    for where, v in _values(model):
        if isinstance(v, _PLAIN):
            kind = next(c for c in _PLAIN if isinstance(v, c))
            assert type(v) is kind, where
        elif isinstance(v, SolidShape):
            assert type(v) is SolidShape, where
        else:
            assert type(v) in (Box, Cylinder, Sphere, Mesh), where
        seen.add(type(v))
    assert {Transform, SpatialInertia} <= seen
    if path != PATHS[0]:
        assert {Axis, SolidShape, Mesh} <= seen


def _urdf_modules() -> list[ModuleType]:
    for info in pkgutil.iter_modules(urdf.__path__, urdf.__name__ + "."):
        if info.name.rsplit(".", 1)[-1] != "_xacro":  # its lock is another helper's business
            importlib.import_module(info.name)
    return [
        m
        for name, m in sorted(sys.modules.items())
        if name == urdf.__name__ or name.startswith(urdf.__name__ + ".")
    ]


def _container_sizes() -> dict[str, int]:
    """The length of every module-level dict, list, set and bytearray of the URDF package."""
    out = {}
    for module in _urdf_modules():
        for name, v in vars(module).items():
            if isinstance(v, dict | list | set | bytearray) and not name.startswith("__"):
                out[f"{module.__name__}.{name}"] = len(v)
    return out


def test_loading_and_exporting_leave_no_module_level_container_grown() -> None:
    """Ten loads and exports (and reloads of the exports) change no module-level container:
    no process-wide cache or memo table remembers anything between calls."""
    before = _container_sizes()
    assert before, "the walk found no containers at all"
    for path in PATHS:
        model, _ = urdf.load_with_report(path)
        text = urdf.dumps(model)
        assert urdf.loads(text, filename=path) == model
        urdf.dumps(model, options=urdf.DumpOptions(order="idyntree"))
    assert _container_sizes() == before


def test_the_load_report_gives_lines_and_the_model_is_the_loaded_one() -> None:
    model, report = urdf.load_with_report(PATHS[1])
    assert model == urdf.load(PATHS[1])
    lines = report.sources.lines
    with open(PATHS[1], encoding="utf-8") as fh:
        text = fh.read().splitlines()
    for (tag, name), line in lines.items():
        assert f'<{tag} name="{name}"' in text[line - 1]
    assert {tag for tag, _ in lines} == {"link", "joint", "sensor"}
