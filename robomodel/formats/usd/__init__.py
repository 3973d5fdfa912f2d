"""OpenUSD out and in: robots for Isaac Sim, Isaac Lab and Newton (UsdPhysics articulations).

:func:`dumps`/:func:`dump` write a model as a UsdPhysics articulation (one rigid body per link,
revolute, prismatic and fixed joints, visual and collision geometry) and :func:`loads`/
:func:`load` read one back, from robomodel's own files exactly (``loads(dumps(m)) == m``) and
from other tools' (NVIDIA's urdf-usd-converter) as far as UsdPhysics describes the robot;
:func:`dumps_with_report` and :func:`loads_with_report` also return the
:class:`ConversionReport`; :func:`dump_scene` writes the shapes at a configuration, for looking
at. usd-core is an optional extra (``pip install 'robomodel[usd]'``),
imported on first use. See ``docs/usd.md``.
"""

from robomodel.errors import USDError as USDError
from robomodel.formats.report import ConversionReport as ConversionReport
from robomodel.formats.report import Loss as Loss
from robomodel.formats.usd.dump import dump as dump
from robomodel.formats.usd.dump import dumps as dumps
from robomodel.formats.usd.dump import dumps_with_report as dumps_with_report
from robomodel.formats.usd.dump import stage_of as stage_of
from robomodel.formats.usd.load import load as load
from robomodel.formats.usd.load import load_with_report as load_with_report
from robomodel.formats.usd.load import loads as loads
from robomodel.formats.usd.load import loads_with_report as loads_with_report
from robomodel.formats.usd.load import read_stage as read_stage
from robomodel.formats.usd.options import DumpOptions as DumpOptions
from robomodel.formats.usd.scene import dump_scene as dump_scene

__all__ = [
    "ConversionReport",
    "DumpOptions",
    "Loss",
    "USDError",
    "dump",
    "dump_scene",
    "dumps",
    "dumps_with_report",
    "load",
    "load_with_report",
    "loads",
    "loads_with_report",
    "read_stage",
    "stage_of",
]
