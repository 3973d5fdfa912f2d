"""Models shipped inside the robomodel package, so that examples run with no download.

``example`` is a small humanoid written for robomodel: a massless ``root_link`` on a fixed
joint above the pelvis ``base_link`` (the floating-base convention), massless leaf frames
(``l_sole``, ``r_sole``, ``l_hand_frame``, ``r_hand_frame``), legs with hip pitch/roll/yaw, knee
and ankle pitch/roll, arms with shoulder pitch/roll/yaw and elbow, a torso yaw joint, one
six-axis force/torque sensor per limb (in the fixed joints ``*_leg_ft_joint`` and
``*_arm_ft_joint``, in iDynTree's URDF dialect), accelerometers, gyroscopes, primitive visuals
and the inertias of those primitives.

>>> example_path().name
'example.urdf'
>>> import robomodel.formats.urdf
>>> m = robomodel.formats.urdf.load(example_path())
>>> m.name, m.n_links, m.n_dofs, len(m.sensors)
('example_humanoid', 27, 21, 12)
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["BUNDLED_MODELS", "example_path"]

BUNDLED_MODELS: tuple[str, ...] = ("example",)
"""Names of the bundled models (``robomodel ... --model example``)."""


def example_path(name: str = "example") -> Path:
    """Return the path of a bundled URDF file.

    Args:
        name: one of :data:`BUNDLED_MODELS`.

    Raises:
        ModelError: no bundled model has that name.
    """
    if name not in BUNDLED_MODELS:
        from robomodel.errors import ModelError

        raise ModelError(
            f"there is no bundled model named {name!r}; choose one of {', '.join(BUNDLED_MODELS)}"
        )
    return Path(str(files(__name__) / f"{name}.urdf"))
