"""Model files and other libraries' models: URDF, MJCF, JSON, DH chains, iDynTree, Pinocchio.

Each file format is a subpackage with the same verbs: :mod:`robomodel.formats.urdf`,
:mod:`robomodel.formats.mjcf` (``load``/``loads`` read a model, ``dump``/``dumps`` write one),
:mod:`robomodel.formats.json` and :mod:`robomodel.formats.dh` (iKin DH chains); they are imported
on first use (``from robomodel.formats import urdf``), so that reading JSON does not import
lxml. This package itself exports the JSON functions and the converters to and from iDynTree
and Pinocchio models; :mod:`robomodel.formats.meshes` reads the mesh files a model names.
"""

from robomodel.formats.interop import MissingDependencyError as MissingDependencyError
from robomodel.formats.interop import from_idyntree as from_idyntree
from robomodel.formats.interop import to_idyntree as to_idyntree
from robomodel.formats.interop import to_pinocchio as to_pinocchio
from robomodel.formats.json import SCHEMA_VERSION as SCHEMA_VERSION
from robomodel.formats.json import JSONFormatError as JSONFormatError
from robomodel.formats.json import from_dict as from_dict
from robomodel.formats.json import from_json as from_json
from robomodel.formats.json import to_dict as to_dict
from robomodel.formats.json import to_json as to_json

__all__ = [
    "SCHEMA_VERSION",
    "JSONFormatError",
    "MissingDependencyError",
    "from_dict",
    "from_idyntree",
    "from_json",
    "to_dict",
    "to_idyntree",
    "to_json",
    "to_pinocchio",
]
