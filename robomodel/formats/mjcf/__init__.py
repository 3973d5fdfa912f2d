"""MJCF, MuJoCo's XML format, out and in.

:func:`dumps`/:func:`dump` write a model as MJCF and :func:`loads`/:func:`load` read MJCF
through MuJoCo's own compiler; :func:`dumps_with_report`, :func:`load_with_report` and
:func:`loads_with_report` also return the :class:`ConversionReport` of everything the
conversion could not carry (the verbs every format shares, see ``docs/formats.md``).
:func:`convert` converts files between URDF and MJCF; :func:`compile_mjcf` compiles MJCF text
with MuJoCo. MuJoCo is an optional extra (``pip install 'robomodel[mujoco]'``); it is imported
on first use. See ``docs/mjcf.md``.
"""

from robomodel._internal.deprecation import renamed_attributes as _renamed
from robomodel.errors import MJCFError as MJCFError
from robomodel.errors import MujocoNotInstalledError as MujocoNotInstalledError
from robomodel.formats.mjcf.convert import convert as convert
from robomodel.formats.mjcf.dump import compile_mjcf as compile_mjcf
from robomodel.formats.mjcf.dump import dump as dump
from robomodel.formats.mjcf.dump import dumps as dumps
from robomodel.formats.mjcf.dump import dumps_with_report as dumps_with_report
from robomodel.formats.mjcf.load import load as load
from robomodel.formats.mjcf.load import load_with_report as load_with_report
from robomodel.formats.mjcf.load import loads as loads
from robomodel.formats.mjcf.load import loads_with_report as loads_with_report
from robomodel.formats.mjcf.options import DumpOptions as DumpOptions
from robomodel.formats.mjcf.options import LoadOptions as LoadOptions
from robomodel.formats.report import ConversionReport as ConversionReport
from robomodel.formats.report import Loss as Loss

__getattr__ = _renamed(
    __name__,
    {
        "parse": ("robomodel.formats.mjcf.loads_with_report", lambda: loads_with_report),
        "export": ("robomodel.formats.mjcf.dumps_with_report", lambda: dumps_with_report),
        "ImportOptions": ("robomodel.formats.mjcf.LoadOptions", lambda: LoadOptions),
        "ExportOptions": ("robomodel.formats.mjcf.DumpOptions", lambda: DumpOptions),
    },
)

__all__ = [
    "ConversionReport",
    "DumpOptions",
    "LoadOptions",
    "Loss",
    "MJCFError",
    "MujocoNotInstalledError",
    "compile_mjcf",
    "convert",
    "dump",
    "dumps",
    "dumps_with_report",
    "load",
    "load_with_report",
    "loads",
    "loads_with_report",
]
