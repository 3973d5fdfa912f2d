"""Model serialization and conversion: versioned JSON, and iDynTree and Pinocchio models."""

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
