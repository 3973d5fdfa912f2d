"""URDF import and export: ``load``/``loads`` read a model, ``dump``/``dumps`` write one.

See ``docs/urdf.md`` for the sensor dialect, what is kept verbatim, the number formatting rule
and the options.
"""

from robomodel.errors import URDFError as URDFError
from robomodel.urdf.dump import dump as dump
from robomodel.urdf.dump import dumps as dumps
from robomodel.urdf.errors import URDFExportError as URDFExportError
from robomodel.urdf.errors import URDFReferenceError as URDFReferenceError
from robomodel.urdf.errors import URDFSensorError as URDFSensorError
from robomodel.urdf.errors import URDFSyntaxError as URDFSyntaxError
from robomodel.urdf.errors import URDFTopologyError as URDFTopologyError
from robomodel.urdf.errors import URDFUnsupportedError as URDFUnsupportedError
from robomodel.urdf.errors import URDFValueError as URDFValueError
from robomodel.urdf.load import load as load
from robomodel.urdf.load import loads as loads
from robomodel.urdf.load import resolve_uri as resolve_uri
from robomodel.urdf.options import ExportOptions as ExportOptions
from robomodel.urdf.options import LoadOptions as LoadOptions
