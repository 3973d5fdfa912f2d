"""URDF import and export: ``load``/``loads`` read a model, ``dump``/``dumps`` write one.

See ``docs/urdf.md`` for the sensor dialect, what is kept verbatim, the number formatting rule
and the options.

Layout. ``load.py`` and ``dump.py`` are the entry points and hold only the ``<robot>`` level;
every URDF element is read and written by one private module, the reader beside the writer, so
that the round trip of a field can be checked on one screen:

* ``_link``: ``<link>``; ``_inertial``: ``<inertial>``; ``_geometry``: ``<visual>``,
  ``<collision>``, ``<geometry>``, ``<material>``; ``_joint``: ``<joint>`` with ``<axis>``,
  ``<limit>``, ``<dynamics>``, ``<mimic>``; ``_sensor``: iDynTree's ``<sensor>`` dialect;
  ``_origin``: ``<origin>``; ``_extensions``: the elements kept verbatim;
* ``_xacro``: xacro documents, recognised and expanded through the ``xacro`` package before
  they are read;
* ``_tree``: the links and joints as one tree (fake links, traversal order) and its layout;
* ``_document``: the state of one load or export and the attribute codecs all elements share;
  ``_records``: the element records of one load; ``_sources`` and ``report``: where a load
  read each element (``report.load_result``), kept apart from the model's values.

One module per element family rather than one table of element codecs: reading an element
needs more than the element (a joint's offsets and a sensor's links are known only once the
whole tree is; origins and inertials are computed for the whole document in one vectorised
pass, for speed), and writing one needs the traversal (a joint is written from parent to
child), so the readers and writers do not share one signature a table could hold. Each module
states in which steps its elements are read.
"""

from robomodel.errors import URDFError as URDFError
from robomodel.formats.meshes import check_meshes as check_meshes
from robomodel.formats.urdf._xacro import URDFXacroError as URDFXacroError
from robomodel.formats.urdf._xacro import XacroNotInstalledError as XacroNotInstalledError
from robomodel.formats.urdf.dump import dump as dump
from robomodel.formats.urdf.dump import dumps as dumps
from robomodel.formats.urdf.dump import export_problems as export_problems
from robomodel.formats.urdf.errors import URDFExportError as URDFExportError
from robomodel.formats.urdf.errors import URDFReferenceError as URDFReferenceError
from robomodel.formats.urdf.errors import URDFSensorError as URDFSensorError
from robomodel.formats.urdf.errors import URDFSyntaxError as URDFSyntaxError
from robomodel.formats.urdf.errors import URDFTopologyError as URDFTopologyError
from robomodel.formats.urdf.errors import URDFUnsupportedError as URDFUnsupportedError
from robomodel.formats.urdf.errors import URDFValueError as URDFValueError
from robomodel.formats.urdf.load import load as load
from robomodel.formats.urdf.load import loads as loads
from robomodel.formats.urdf.load import resolve_uri as resolve_uri
from robomodel.formats.urdf.options import ExportOptions as ExportOptions
from robomodel.formats.urdf.options import LoadOptions as LoadOptions
