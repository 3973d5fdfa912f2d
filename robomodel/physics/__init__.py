"""What a model does at a joint state: kinematics, dynamics, sensor predictions, inertia checks.

Every function takes a model and joint values under one rule (:mod:`.joint_state`) and is pure.
"""
