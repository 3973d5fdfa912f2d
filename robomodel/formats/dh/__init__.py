"""iKin-style DH kinematic chains, per-link geometry and shared links, as values.

* :mod:`robomodel.formats.dh.chain`: :class:`DHLink`, :class:`DHChain` and the functions that set
angles,
  block and release links.
* :mod:`robomodel.formats.dh.geometry`: :func:`link_geometry` (the seed's ``KinematicLinkInfo``),
  :class:`JointBinding`, :class:`JointCommand`.
* :mod:`robomodel.formats.dh.presets`: the iCub tables with explicit versions.
* :mod:`robomodel.formats.dh.ikin_text`: iKin's text format, read with :func:`load`/:func:`loads`
  and written with :func:`dump`/:func:`dumps`.
* :mod:`robomodel.formats.dh.rig`: :class:`Rig`, several chains with shared links.
* :mod:`robomodel.formats.dh.bridge`: :func:`chain_to_model` and :func:`model_to_chain`.
"""

from robomodel._internal.deprecation import renamed_attributes as _renamed
from robomodel.formats.dh.bridge import DEFAULT_LINK_MASS as DEFAULT_LINK_MASS
from robomodel.formats.dh.bridge import chain_to_model as chain_to_model
from robomodel.formats.dh.bridge import model_to_chain as model_to_chain
from robomodel.formats.dh.chain import DHChain as DHChain
from robomodel.formats.dh.chain import DHLink as DHLink
from robomodel.formats.dh.chain import axis_angle as axis_angle
from robomodel.formats.dh.chain import block_link as block_link
from robomodel.formats.dh.chain import dh_transform as dh_transform
from robomodel.formats.dh.chain import euler_xyz as euler_xyz
from robomodel.formats.dh.chain import release_link as release_link
from robomodel.formats.dh.chain import set_angles as set_angles
from robomodel.formats.dh.chain import set_link_angle as set_link_angle
from robomodel.formats.dh.chain import with_link_limits as with_link_limits
from robomodel.formats.dh.geometry import JointBinding as JointBinding
from robomodel.formats.dh.geometry import JointCommand as JointCommand
from robomodel.formats.dh.geometry import LinkGeometry as LinkGeometry
from robomodel.formats.dh.geometry import link_geometry as link_geometry
from robomodel.formats.dh.ikin_text import ANGLE_NOISE as ANGLE_NOISE
from robomodel.formats.dh.ikin_text import LENGTH_NOISE as LENGTH_NOISE
from robomodel.formats.dh.ikin_text import ROTATION_NOISE as ROTATION_NOISE
from robomodel.formats.dh.ikin_text import dump as dump
from robomodel.formats.dh.ikin_text import dumps as dumps
from robomodel.formats.dh.ikin_text import load as load
from robomodel.formats.dh.ikin_text import loads as loads
from robomodel.formats.dh.presets import ICUB_PRESETS as ICUB_PRESETS
from robomodel.formats.dh.presets import IKinVersion as IKinVersion
from robomodel.formats.dh.presets import icub_arm as icub_arm
from robomodel.formats.dh.presets import icub_chain as icub_chain
from robomodel.formats.dh.presets import icub_leg as icub_leg
from robomodel.formats.dh.presets import icub_preset as icub_preset
from robomodel.formats.dh.presets import icub_torso as icub_torso
from robomodel.formats.dh.presets import parse_limb_type as parse_limb_type
from robomodel.formats.dh.rig import BuddyGroup as BuddyGroup
from robomodel.formats.dh.rig import LinkRef as LinkRef
from robomodel.formats.dh.rig import Rig as Rig
from robomodel.formats.dh.rig import icub_rig as icub_rig
from robomodel.formats.dh.rig import make_rig as make_rig
from robomodel.formats.dh.rig import set_rig_angle as set_rig_angle
from robomodel.formats.dh.rig import set_rig_chain_angles as set_rig_chain_angles

__all__ = [
    "ANGLE_NOISE",
    "DEFAULT_LINK_MASS",
    "ICUB_PRESETS",
    "LENGTH_NOISE",
    "ROTATION_NOISE",
    "BuddyGroup",
    "DHChain",
    "DHLink",
    "IKinVersion",
    "JointBinding",
    "JointCommand",
    "LinkGeometry",
    "LinkRef",
    "Rig",
    "axis_angle",
    "block_link",
    "chain_to_model",
    "dh_transform",
    "dump",
    "dumps",
    "euler_xyz",
    "icub_arm",
    "icub_chain",
    "icub_leg",
    "icub_preset",
    "icub_rig",
    "icub_torso",
    "link_geometry",
    "load",
    "loads",
    "make_rig",
    "model_to_chain",
    "parse_limb_type",
    "release_link",
    "set_angles",
    "set_link_angle",
    "set_rig_angle",
    "set_rig_chain_angles",
    "with_link_limits",
]

__getattr__ = _renamed(
    __name__,
    {
        "loads_ikin": ("robomodel.formats.dh.loads", lambda: loads),
        "dumps_ikin": ("robomodel.formats.dh.dumps", lambda: dumps),
    },
)
