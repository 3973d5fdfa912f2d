"""MJCF, MuJoCo's XML format, out and in.

:func:`dumps`/:func:`dump` write a model as MJCF and :func:`loads`/:func:`load` read MJCF
through MuJoCo's own compiler; :func:`export` and :func:`parse` also return the
:class:`ConversionReport` of everything the conversion could not carry. MuJoCo is an optional
extra (``pip install 'robomodel[mujoco]'``); it is imported on first use. See ``docs/mjcf.md``.
"""

from robomodel.mjcf._common import MJCFError as MJCFError
from robomodel.mjcf._common import MujocoNotInstalledError as MujocoNotInstalledError
from robomodel.mjcf.convert import convert as convert
from robomodel.mjcf.dump import compile_mjcf as compile_mjcf
from robomodel.mjcf.dump import dump as dump
from robomodel.mjcf.dump import dumps as dumps
from robomodel.mjcf.dump import export as export
from robomodel.mjcf.load import load as load
from robomodel.mjcf.load import loads as loads
from robomodel.mjcf.load import parse as parse
from robomodel.mjcf.options import ExportOptions as ExportOptions
from robomodel.mjcf.options import ImportOptions as ImportOptions
from robomodel.mjcf.report import ConversionReport as ConversionReport
from robomodel.mjcf.report import Loss as Loss
