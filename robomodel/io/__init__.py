"""Model serialization and conversion: versioned JSON, and iDynTree and Pinocchio models."""

from robomodel.io.interop import MissingDependencyError as MissingDependencyError
from robomodel.io.interop import from_idyntree as from_idyntree
from robomodel.io.interop import to_idyntree as to_idyntree
from robomodel.io.interop import to_pinocchio as to_pinocchio
from robomodel.io.json import SCHEMA_VERSION as SCHEMA_VERSION
from robomodel.io.json import JSONFormatError as JSONFormatError
from robomodel.io.json import from_dict as from_dict
from robomodel.io.json import from_json as from_json
from robomodel.io.json import to_dict as to_dict
from robomodel.io.json import to_json as to_json
