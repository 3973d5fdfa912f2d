"""SDFormat (``.sdf``) import and export.

``load``/``loads`` read a model, ``dump``/``dumps`` write one; ``loads_with_report``,
``load_with_report`` and ``dumps_with_report`` also return what the conversion dropped (the
verbs every format shares: ``docs/formats.md``; the mapping, the pose rules and what is lost:
``docs/sdf.md``).

Layout: ``load.py`` and ``dump.py`` are the entry points (the ``<model>`` level, nested models,
includes, worlds); every element is read and written by one private module, the reader beside
the writer: ``_poses`` (``<pose>`` and the pose graph of ``relative_to``/``attached_to``),
``_links`` (``<inertial>``, ``<visual>``, ``<collision>``), ``_joints`` (``<joint>``,
``<axis>``), ``_sensors`` (``force_torque``, ``imu``); ``_xml`` holds what they share.
"""

from robomodel.errors import SDFError as SDFError
from robomodel.formats.report import ConversionReport as ConversionReport
from robomodel.formats.sdf.dump import dump as dump
from robomodel.formats.sdf.dump import dumps as dumps
from robomodel.formats.sdf.dump import dumps_with_report as dumps_with_report
from robomodel.formats.sdf.load import load as load
from robomodel.formats.sdf.load import load_with_report as load_with_report
from robomodel.formats.sdf.load import loads as loads
from robomodel.formats.sdf.load import loads_with_report as loads_with_report
from robomodel.formats.sdf.options import DumpOptions as DumpOptions
from robomodel.formats.sdf.options import LoadOptions as LoadOptions

__all__ = [
    "ConversionReport",
    "DumpOptions",
    "LoadOptions",
    "SDFError",
    "dump",
    "dumps",
    "dumps_with_report",
    "load",
    "load_with_report",
    "loads",
    "loads_with_report",
]
