"""MJCF, MuJoCo's XML format, out and in.

:func:`dumps`/:func:`dump` write a model as MJCF and :func:`loads`/:func:`load` read MJCF
through MuJoCo's own compiler; :func:`export` and :func:`parse` also return the
:class:`ConversionReport` of everything the conversion could not carry. MuJoCo is an optional
extra (``pip install 'robomodel[mujoco]'``); it is imported on first use. See ``docs/mjcf.md``.
"""

from robomodel.formats.mjcf._common import MJCFError as MJCFError
from robomodel.formats.mjcf._common import MujocoNotInstalledError as MujocoNotInstalledError
from robomodel.formats.mjcf.convert import convert as convert
from robomodel.formats.mjcf.dump import compile_mjcf as compile_mjcf
from robomodel.formats.mjcf.dump import dump as dump
from robomodel.formats.mjcf.dump import dumps as dumps
from robomodel.formats.mjcf.dump import export as export
from robomodel.formats.mjcf.load import load as load
from robomodel.formats.mjcf.load import loads as loads
from robomodel.formats.mjcf.load import parse as parse
from robomodel.formats.mjcf.options import ExportOptions as ExportOptions
from robomodel.formats.mjcf.options import ImportOptions as ImportOptions
from robomodel.formats.mjcf.report import ConversionReport as ConversionReport
from robomodel.formats.mjcf.report import Loss as Loss

__all__ = [
    "ConversionReport",
    "ExportOptions",
    "ImportOptions",
    "Loss",
    "MJCFError",
    "MujocoNotInstalledError",
    "compile_mjcf",
    "convert",
    "dump",
    "dumps",
    "export",
    "load",
    "loads",
    "parse",
]
