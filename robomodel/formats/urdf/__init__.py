"""URDF import and export: ``load``/``loads`` read a model, ``dump``/``dumps`` write one.

``load_with_report``/``loads_with_report``/``dumps_with_report`` also return what the
conversion changed or dropped (the verbs and option names every format shares:
``docs/formats.md``); a read's report (:class:`LoadReport`) also says where each element was.

See ``docs/urdf.md`` for the sensor dialect, what is kept verbatim, the number formatting rule
and the options.

Layout. ``load.py`` and ``dump.py`` are the entry points and hold only the ``<robot>`` level;
every URDF element is read and written by one private module, the reader beside the writer, so
that the round trip of a field can be checked on one screen:

* ``_link``: ``<link>``; ``_inertial``: ``<inertial>``; ``_geometry``: ``<visual>``,
  ``<collision>``, ``<geometry>``, ``<material>``; ``_joint``: ``<joint>`` with ``<axis>``,
  ``<limit>``, ``<dynamics>``, ``<mimic>``; ``_sensor``: iDynTree's ``<sensor>`` dialect;
  ``_origin``: ``<origin>``; ``_extensions``: the elements kept verbatim;
* ``_xacro``: xacro documents, expanded through the ``xacro`` package before they are read
  when the caller asks or the file is named ``.xacro`` (xacro runs Python code from the
  document), refused otherwise;
* ``report``: the report-returning verbs;
* ``_tree``: the links and joints as one tree (fake links, traversal order) and its layout;
* ``_document``: the state of one load or export and the attribute codecs all elements share;
  ``_records``: the element records of one load; ``_sources`` and ``report``: where a load
  read each element (``LoadReport.sources``), kept apart from the model's values.

One module per element family rather than one table of element codecs: reading an element
needs more than the element (a joint's offsets and a sensor's links are known only once the
whole tree is; origins and inertials are computed for the whole document in one vectorised
pass, for speed), and writing one needs the traversal (a joint is written from parent to
child), so the readers and writers do not share one signature a table could hold. Each module
states in which steps its elements are read.
"""

from robomodel._internal.deprecation import renamed_attributes as _renamed
from robomodel.errors import URDFError as URDFError
from robomodel.errors import URDFExportError as URDFExportError
from robomodel.errors import URDFReferenceError as URDFReferenceError
from robomodel.errors import URDFSensorError as URDFSensorError
from robomodel.errors import URDFSyntaxError as URDFSyntaxError
from robomodel.errors import URDFTopologyError as URDFTopologyError
from robomodel.errors import URDFUnsupportedError as URDFUnsupportedError
from robomodel.errors import URDFValueError as URDFValueError
from robomodel.errors import URDFXacroError as URDFXacroError
from robomodel.errors import XacroNotExpandedError as XacroNotExpandedError
from robomodel.errors import XacroNotInstalledError as XacroNotInstalledError
from robomodel.formats.meshes import check_meshes as check_meshes
from robomodel.formats.report import ConversionReport as ConversionReport
from robomodel.formats.urdf.dump import dump as dump
from robomodel.formats.urdf.dump import dumps as dumps
from robomodel.formats.urdf.dump import export_problems as export_problems
from robomodel.formats.urdf.load import load as load
from robomodel.formats.urdf.load import loads as loads
from robomodel.formats.urdf.load import resolve_uri as resolve_uri
from robomodel.formats.urdf.options import DumpOptions as DumpOptions
from robomodel.formats.urdf.options import LoadOptions as LoadOptions
from robomodel.formats.urdf.report import LoadReport as LoadReport
from robomodel.formats.urdf.report import dumps_with_report as dumps_with_report
from robomodel.formats.urdf.report import load_with_report as load_with_report
from robomodel.formats.urdf.report import loads_with_report as loads_with_report

__getattr__ = _renamed(
    __name__, {"ExportOptions": ("robomodel.formats.urdf.DumpOptions", lambda: DumpOptions)}
)

__all__ = [
    "ConversionReport",
    "DumpOptions",
    "LoadOptions",
    "LoadReport",
    "URDFError",
    "URDFExportError",
    "URDFReferenceError",
    "URDFSensorError",
    "URDFSyntaxError",
    "URDFTopologyError",
    "URDFUnsupportedError",
    "URDFValueError",
    "URDFXacroError",
    "XacroNotExpandedError",
    "XacroNotInstalledError",
    "check_meshes",
    "dump",
    "dumps",
    "dumps_with_report",
    "export_problems",
    "load",
    "load_with_report",
    "loads",
    "loads_with_report",
    "resolve_uri",
]
