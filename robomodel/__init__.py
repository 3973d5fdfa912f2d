"""robomodel: robot models as immutable values.

Load a URDF, reduce it, change its base, attach frames and sensors, read and write inertial
parameters and export it again; every step is a pure function returning a new model.
"""

# Registers the compact pickled form of Model (see robomodel._pickling).
from robomodel import _pickling as _pickling
from robomodel.builders import add_frame as add_frame
from robomodel.builders import add_joint as add_joint
from robomodel.builders import add_joint_and_link as add_joint_and_link
from robomodel.builders import add_link as add_link
from robomodel.builders import add_sensor as add_sensor
from robomodel.builders import discard_sensor as discard_sensor
from robomodel.builders import insert_link_to_existing_joint as insert_link_to_existing_joint
from robomodel.builders import remove_sensor as remove_sensor
from robomodel.dynamics import InverseDynamics as InverseDynamics
from robomodel.dynamics import inverse_dynamics as inverse_dynamics
from robomodel.dynamics import inverse_dynamics_batch as inverse_dynamics_batch
from robomodel.errors import DuplicateNameError as DuplicateNameError
from robomodel.errors import ModelError as ModelError
from robomodel.errors import RobomodelError as RobomodelError
from robomodel.errors import RobomodelWarning as RobomodelWarning
from robomodel.errors import TopologyError as TopologyError
from robomodel.errors import UnknownNameError as UnknownNameError
from robomodel.joint_state import joint_vector_permutation as joint_vector_permutation
from robomodel.joints import FixedJoint as FixedJoint
from robomodel.joints import Joint as Joint
from robomodel.joints import JointDynamics as JointDynamics
from robomodel.joints import Mimic as Mimic
from robomodel.joints import PositionLimits as PositionLimits
from robomodel.joints import PrismaticJoint as PrismaticJoint
from robomodel.joints import RevoluteJoint as RevoluteJoint
from robomodel.kinematics import BatchPoses as BatchPoses
from robomodel.kinematics import ForwardKinematics as ForwardKinematics
from robomodel.kinematics import JointState as JointState
from robomodel.kinematics import center_of_mass as center_of_mass
from robomodel.kinematics import forward_kinematics as forward_kinematics
from robomodel.kinematics import forward_kinematics_batch as forward_kinematics_batch
from robomodel.kinematics import relative_transform as relative_transform
from robomodel.kinematics import total_spatial_inertia as total_spatial_inertia
from robomodel.model import Extension as Extension
from robomodel.model import Frame as Frame
from robomodel.model import Link as Link
from robomodel.model import Model as Model
from robomodel.model import Neighbor as Neighbor
from robomodel.model import check_model as check_model
from robomodel.sensing import predict_ft_measurement as predict_ft_measurement
from robomodel.sensing import predict_sensor_measurements as predict_sensor_measurements
from robomodel.sensors import Accelerometer as Accelerometer
from robomodel.sensors import Gyroscope as Gyroscope
from robomodel.sensors import Sensor as Sensor
from robomodel.sensors import SixAxisForceTorqueSensor as SixAxisForceTorqueSensor
from robomodel.shapes import Box as Box
from robomodel.shapes import Cylinder as Cylinder
from robomodel.shapes import Material as Material
from robomodel.shapes import Mesh as Mesh
from robomodel.shapes import SolidShape as SolidShape
from robomodel.shapes import Sphere as Sphere
from robomodel.spatial import Axis as Axis
from robomodel.spatial import SpatialInertia as SpatialInertia
from robomodel.spatial import Transform as Transform
from robomodel.traversal import Traversal as Traversal
from robomodel.updates import with_collision_shapes as with_collision_shapes
from robomodel.updates import with_default_base_link as with_default_base_link
from robomodel.updates import with_inertial_parameters as with_inertial_parameters
from robomodel.updates import with_link as with_link
from robomodel.updates import with_package_dirs as with_package_dirs
from robomodel.updates import with_shapes as with_shapes
from robomodel.updates import with_visual_shapes as with_visual_shapes

__version__ = "0.1.0"
