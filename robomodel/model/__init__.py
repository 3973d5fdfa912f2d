"""Robot models as values: spatial algebra, joints, shapes, sensors, the Model and its builders.

Every value here is frozen; every builder returns a new model and leaves its input untouched.
"""

# Registers the compact pickled form of Model with copyreg.
from robomodel.model import _pickling as _pickling
from robomodel.model.record import Extension as Extension
from robomodel.model.record import Frame as Frame
from robomodel.model.record import Link as Link
from robomodel.model.record import Model as Model
from robomodel.model.record import Neighbor as Neighbor
from robomodel.model.record import check_model as check_model
from robomodel.model.record import memoized as memoized
from robomodel.model.record import sensor_kind as sensor_kind

__all__ = [
    "Extension",
    "Frame",
    "Link",
    "Model",
    "Neighbor",
    "check_model",
    "memoized",
    "sensor_kind",
]
