"""Model formats: URDF, MJCF, versioned JSON, iKin DH chains, and iDynTree and Pinocchio models.

Every format has the same verbs (``load``/``loads``/``dump``/``dumps``; ``loads_with_report``
and ``dumps_with_report`` where a conversion can lose something) and option classes
(``LoadOptions``, ``DumpOptions``): see ``docs/formats.md``. :func:`check_file` says what is
wrong with a model file on disk. The format subpackages (:mod:`robomodel.formats.urdf`,
:mod:`~robomodel.formats.mjcf`, :mod:`~robomodel.formats.usd`, :mod:`~robomodel.formats.json`,
:mod:`~robomodel.formats.dh`)
are imported on first use (``from robomodel.formats import urdf``), so that reading JSON does not
import lxml; :mod:`robomodel.formats.meshes` reads the mesh files a model names.
"""

from robomodel._internal.deprecation import renamed_attributes as _renamed
from robomodel.errors import JSONFormatError as JSONFormatError
from robomodel.errors import OptionalDependencyError as OptionalDependencyError
from robomodel.formats.check import check_file as check_file
from robomodel.formats.interop import from_idyntree as from_idyntree
from robomodel.formats.interop import to_idyntree as to_idyntree
from robomodel.formats.interop import to_pinocchio as to_pinocchio
from robomodel.formats.json import SCHEMA_VERSION as SCHEMA_VERSION
from robomodel.formats.json import dumps as _json_dumps
from robomodel.formats.json import from_dict as from_dict
from robomodel.formats.json import loads as _json_loads
from robomodel.formats.json import to_dict as to_dict
from robomodel.formats.report import ConversionReport as ConversionReport
from robomodel.formats.report import Loss as Loss

__getattr__ = _renamed(
    __name__,
    {
        "MissingDependencyError": (
            "robomodel.errors.OptionalDependencyError",
            lambda: OptionalDependencyError,
        ),
        "to_json": ("robomodel.formats.json.dumps", lambda: _json_dumps),
        "from_json": ("robomodel.formats.json.loads", lambda: _json_loads),
    },
)

__all__ = [
    "SCHEMA_VERSION",
    "ConversionReport",
    "JSONFormatError",
    "Loss",
    "OptionalDependencyError",
    "check_file",
    "from_dict",
    "from_idyntree",
    "to_dict",
    "to_idyntree",
    "to_pinocchio",
]
