"""What a model does at a joint state: kinematics, dynamics, sensor predictions, inertia checks.

Every function takes a model and joint values under one rule (:mod:`.joint_state`) and is pure.
"""

from robomodel.physics.dynamics import InverseDynamics as InverseDynamics
from robomodel.physics.dynamics import inverse_dynamics as inverse_dynamics
from robomodel.physics.dynamics import inverse_dynamics_batch as inverse_dynamics_batch
from robomodel.physics.inertia import consistency_problems as consistency_problems
from robomodel.physics.inertia import from_pseudo_inertia as from_pseudo_inertia
from robomodel.physics.inertia import inconsistent_links as inconsistent_links
from robomodel.physics.inertia import nearest_consistent as nearest_consistent
from robomodel.physics.inertia import pseudo_inertia as pseudo_inertia
from robomodel.physics.inertia import shape_inertia as shape_inertia
from robomodel.physics.inertia import shape_volume as shape_volume
from robomodel.physics.inertia import solid_inertia as solid_inertia
from robomodel.physics.inertia import with_inertias_from_shapes as with_inertias_from_shapes
from robomodel.physics.joint_state import Configuration as Configuration
from robomodel.physics.joint_state import JointState as JointState
from robomodel.physics.joint_state import JointValues as JointValues
from robomodel.physics.joint_state import joint_values as joint_values
from robomodel.physics.joint_state import joint_vector_permutation as joint_vector_permutation
from robomodel.physics.kinematics import BatchPoses as BatchPoses
from robomodel.physics.kinematics import ForwardKinematics as ForwardKinematics
from robomodel.physics.kinematics import center_of_mass as center_of_mass
from robomodel.physics.kinematics import forward_kinematics as forward_kinematics
from robomodel.physics.kinematics import forward_kinematics_batch as forward_kinematics_batch
from robomodel.physics.kinematics import relative_transform as relative_transform
from robomodel.physics.kinematics import total_spatial_inertia as total_spatial_inertia
from robomodel.physics.sensing import LinkMotion as LinkMotion
from robomodel.physics.sensing import link_motion as link_motion
from robomodel.physics.sensing import predict_ft_measurement as predict_ft_measurement
from robomodel.physics.sensing import predict_measurement as predict_measurement
from robomodel.physics.sensing import predict_sensor_measurements as predict_sensor_measurements

__all__ = [
    "BatchPoses",
    "Configuration",
    "ForwardKinematics",
    "InverseDynamics",
    "JointState",
    "JointValues",
    "LinkMotion",
    "center_of_mass",
    "consistency_problems",
    "forward_kinematics",
    "forward_kinematics_batch",
    "from_pseudo_inertia",
    "inconsistent_links",
    "inverse_dynamics",
    "inverse_dynamics_batch",
    "joint_values",
    "joint_vector_permutation",
    "link_motion",
    "nearest_consistent",
    "predict_ft_measurement",
    "predict_measurement",
    "predict_sensor_measurements",
    "pseudo_inertia",
    "relative_transform",
    "shape_inertia",
    "shape_volume",
    "solid_inertia",
    "total_spatial_inertia",
    "with_inertias_from_shapes",
]
