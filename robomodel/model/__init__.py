"""Robot models as values: spatial algebra, joints, shapes, sensors, the Model and its builders.

Every value here is frozen; every builder returns a new model and leaves its input untouched.
The argument checks, the derived indices and the trusted assembly the loaders use live in the
modules of this package too, but are not part of its public surface.
"""

# Registers the compact pickled form of Model with copyreg.
from robomodel.model import _pickling as _pickling
from robomodel.model.builders import add_frame as add_frame
from robomodel.model.builders import add_joint as add_joint
from robomodel.model.builders import add_joint_and_link as add_joint_and_link
from robomodel.model.builders import add_link as add_link
from robomodel.model.builders import add_sensor as add_sensor
from robomodel.model.builders import discard_sensor as discard_sensor
from robomodel.model.builders import insert_link_to_existing_joint as insert_link_to_existing_joint
from robomodel.model.builders import remove_sensor as remove_sensor
from robomodel.model.checks import Finding as Finding
from robomodel.model.joints import FixedJoint as FixedJoint
from robomodel.model.joints import Joint as Joint
from robomodel.model.joints import JointDynamics as JointDynamics
from robomodel.model.joints import Mimic as Mimic
from robomodel.model.joints import PositionLimits as PositionLimits
from robomodel.model.joints import PrismaticJoint as PrismaticJoint
from robomodel.model.joints import RevoluteJoint as RevoluteJoint
from robomodel.model.mimic import MimicError as MimicError
from robomodel.model.mimic import MimicRelation as MimicRelation
from robomodel.model.mimic import mimic_relations as mimic_relations
from robomodel.model.record import Extension as Extension
from robomodel.model.record import Frame as Frame
from robomodel.model.record import Link as Link
from robomodel.model.record import Model as Model
from robomodel.model.record import Neighbor as Neighbor
from robomodel.model.record import check_model as check_model
from robomodel.model.sensors import Accelerometer as Accelerometer
from robomodel.model.sensors import Gyroscope as Gyroscope
from robomodel.model.sensors import LinkSensor as LinkSensor
from robomodel.model.sensors import Sensor as Sensor
from robomodel.model.sensors import SixAxisForceTorqueSensor as SixAxisForceTorqueSensor
from robomodel.model.shapes import Box as Box
from robomodel.model.shapes import Cylinder as Cylinder
from robomodel.model.shapes import Geometry as Geometry
from robomodel.model.shapes import Material as Material
from robomodel.model.shapes import Mesh as Mesh
from robomodel.model.shapes import SolidShape as SolidShape
from robomodel.model.shapes import Sphere as Sphere
from robomodel.model.spatial import Axis as Axis
from robomodel.model.spatial import SpatialInertia as SpatialInertia
from robomodel.model.spatial import Transform as Transform
from robomodel.model.spatial import rotation_from_rpy as rotation_from_rpy
from robomodel.model.spatial import rpy_from_rotation as rpy_from_rotation
from robomodel.model.traversal import Traversal as Traversal
from robomodel.model.traversal import TraversalElement as TraversalElement
from robomodel.model.updates import with_collision_shapes as with_collision_shapes
from robomodel.model.updates import with_default_base_link as with_default_base_link
from robomodel.model.updates import with_inertial_parameters as with_inertial_parameters
from robomodel.model.updates import with_link as with_link
from robomodel.model.updates import with_package_dirs as with_package_dirs
from robomodel.model.updates import with_shapes as with_shapes
from robomodel.model.updates import with_visual_shapes as with_visual_shapes

__all__ = [
    "Accelerometer",
    "Axis",
    "Box",
    "Cylinder",
    "Extension",
    "Finding",
    "FixedJoint",
    "Frame",
    "Geometry",
    "Gyroscope",
    "Joint",
    "JointDynamics",
    "Link",
    "LinkSensor",
    "Material",
    "Mesh",
    "Mimic",
    "MimicError",
    "MimicRelation",
    "Model",
    "Neighbor",
    "PositionLimits",
    "PrismaticJoint",
    "RevoluteJoint",
    "Sensor",
    "SixAxisForceTorqueSensor",
    "SolidShape",
    "SpatialInertia",
    "Sphere",
    "Transform",
    "Traversal",
    "TraversalElement",
    "add_frame",
    "add_joint",
    "add_joint_and_link",
    "add_link",
    "add_sensor",
    "check_model",
    "discard_sensor",
    "insert_link_to_existing_joint",
    "mimic_relations",
    "remove_sensor",
    "rotation_from_rpy",
    "rpy_from_rotation",
    "with_collision_shapes",
    "with_default_base_link",
    "with_inertial_parameters",
    "with_link",
    "with_package_dirs",
    "with_shapes",
    "with_visual_shapes",
]
