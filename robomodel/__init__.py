"""robomodel: robot models as immutable values.

Load a URDF, reduce it, change its base, attach frames and sensors, read and write inertial
parameters and export it again; every step is a pure function returning a new model.
"""

import sys as _sys

from robomodel._internal.aliases import AliasFinder as _AliasFinder
from robomodel.errors import DuplicateNameError as DuplicateNameError
from robomodel.errors import ModelError as ModelError
from robomodel.errors import RobomodelError as RobomodelError
from robomodel.errors import RobomodelWarning as RobomodelWarning
from robomodel.errors import TopologyError as TopologyError
from robomodel.errors import UnknownNameError as UnknownNameError
from robomodel.model.builders import add_frame as add_frame
from robomodel.model.builders import add_joint as add_joint
from robomodel.model.builders import add_joint_and_link as add_joint_and_link
from robomodel.model.builders import add_link as add_link
from robomodel.model.builders import add_sensor as add_sensor
from robomodel.model.builders import discard_sensor as discard_sensor
from robomodel.model.builders import insert_link_to_existing_joint as insert_link_to_existing_joint
from robomodel.model.builders import remove_sensor as remove_sensor
from robomodel.model.joints import FixedJoint as FixedJoint
from robomodel.model.joints import Joint as Joint
from robomodel.model.joints import JointDynamics as JointDynamics
from robomodel.model.joints import Mimic as Mimic
from robomodel.model.joints import PositionLimits as PositionLimits
from robomodel.model.joints import PrismaticJoint as PrismaticJoint
from robomodel.model.joints import RevoluteJoint as RevoluteJoint
from robomodel.model.record import Extension as Extension
from robomodel.model.record import Frame as Frame
from robomodel.model.record import Link as Link
from robomodel.model.record import Model as Model
from robomodel.model.record import Neighbor as Neighbor
from robomodel.model.record import check_model as check_model
from robomodel.model.sensors import Accelerometer as Accelerometer
from robomodel.model.sensors import Gyroscope as Gyroscope
from robomodel.model.sensors import Sensor as Sensor
from robomodel.model.sensors import SixAxisForceTorqueSensor as SixAxisForceTorqueSensor
from robomodel.model.shapes import Box as Box
from robomodel.model.shapes import Cylinder as Cylinder
from robomodel.model.shapes import Material as Material
from robomodel.model.shapes import Mesh as Mesh
from robomodel.model.shapes import SolidShape as SolidShape
from robomodel.model.shapes import Sphere as Sphere
from robomodel.model.spatial import Axis as Axis
from robomodel.model.spatial import SpatialInertia as SpatialInertia
from robomodel.model.spatial import Transform as Transform
from robomodel.model.traversal import Traversal as Traversal
from robomodel.model.updates import with_collision_shapes as with_collision_shapes
from robomodel.model.updates import with_default_base_link as with_default_base_link
from robomodel.model.updates import with_inertial_parameters as with_inertial_parameters
from robomodel.model.updates import with_link as with_link
from robomodel.model.updates import with_package_dirs as with_package_dirs
from robomodel.model.updates import with_shapes as with_shapes
from robomodel.model.updates import with_visual_shapes as with_visual_shapes
from robomodel.physics.dynamics import InverseDynamics as InverseDynamics
from robomodel.physics.dynamics import inverse_dynamics as inverse_dynamics
from robomodel.physics.dynamics import inverse_dynamics_batch as inverse_dynamics_batch
from robomodel.physics.joint_state import joint_vector_permutation as joint_vector_permutation
from robomodel.physics.kinematics import BatchPoses as BatchPoses
from robomodel.physics.kinematics import ForwardKinematics as ForwardKinematics
from robomodel.physics.kinematics import JointState as JointState
from robomodel.physics.kinematics import center_of_mass as center_of_mass
from robomodel.physics.kinematics import forward_kinematics as forward_kinematics
from robomodel.physics.kinematics import forward_kinematics_batch as forward_kinematics_batch
from robomodel.physics.kinematics import relative_transform as relative_transform
from robomodel.physics.kinematics import total_spatial_inertia as total_spatial_inertia
from robomodel.physics.sensing import predict_ft_measurement as predict_ft_measurement
from robomodel.physics.sensing import predict_sensor_measurements as predict_sensor_measurements

__version__ = "0.1.0"

__all__ = [
    "Accelerometer",
    "Axis",
    "BatchPoses",
    "Box",
    "Cylinder",
    "DuplicateNameError",
    "Extension",
    "FixedJoint",
    "ForwardKinematics",
    "Frame",
    "Gyroscope",
    "InverseDynamics",
    "Joint",
    "JointDynamics",
    "JointState",
    "Link",
    "Material",
    "Mesh",
    "Mimic",
    "Model",
    "ModelError",
    "Neighbor",
    "PositionLimits",
    "PrismaticJoint",
    "RevoluteJoint",
    "RobomodelError",
    "RobomodelWarning",
    "Sensor",
    "SixAxisForceTorqueSensor",
    "SolidShape",
    "SpatialInertia",
    "Sphere",
    "TopologyError",
    "Transform",
    "Traversal",
    "UnknownNameError",
    "add_frame",
    "add_joint",
    "add_joint_and_link",
    "add_link",
    "add_sensor",
    "center_of_mass",
    "check_model",
    "discard_sensor",
    "forward_kinematics",
    "forward_kinematics_batch",
    "insert_link_to_existing_joint",
    "inverse_dynamics",
    "inverse_dynamics_batch",
    "joint_vector_permutation",
    "predict_ft_measurement",
    "predict_sensor_measurements",
    "relative_transform",
    "remove_sensor",
    "total_spatial_inertia",
    "with_collision_shapes",
    "with_default_base_link",
    "with_inertial_parameters",
    "with_link",
    "with_package_dirs",
    "with_shapes",
    "with_visual_shapes",
]

# Old module paths (robomodel.urdf, robomodel.kinematics, ...) keep importing for one release.
if not any(isinstance(f, _AliasFinder) for f in _sys.meta_path):
    _sys.meta_path.append(_AliasFinder())
