"""Per-link geometry of a DH chain (the seed's ``KinematicLinkInfo``) and simulator joint bindings.

A :class:`LinkGeometry` is computed from a chain, a link index and two poses the seed kept as
shared mutable state: where the chain root sits in the world (``world_H_root``) and where the
simulated body sits on the link (``link_H_object``). Everything it reports is derived from those.
The body itself (the seed's ``WObject``) belongs to the caller's simulator; the geometry carries
only its name (``body``), so that a list of geometries says which body each pose is for.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.formats.dh.chain import DHChain
from robomodel.model.spatial import Transform
from robomodel.model.validation import check_name

__all__ = ["JointBinding", "JointCommand", "LinkGeometry", "link_geometry"]

FloatArray = npt.NDArray[np.float64]


@attrs.frozen(kw_only=True)
class LinkGeometry:
    """Where link ``index`` of a chain starts and ends and about which axis it turns.

    Let ``T_i`` be link i's frame in the chain root frame (``HN`` included for the last link only)
    and ``T_{-1} = H0``. The link is drawn as a segment from the origin of frame ``i-1``
    (``bottom``) to the origin of frame ``i`` (``top``), turning about the z axis of frame
    ``i-1``.

    Attributes:
        index: the link index in the chain.
        root_H_previous: ``T_{i-1}``, the frame the link turns in.
        root_H_link: ``T_i`` (the seed's ``getYarpMatrix``).
        world_H_root: the chain root in the world (the seed's world matrix).
        link_H_object: the attached body in the link frame (the seed's wObject matrix).
        body: the name of the body the link moves (the seed's ``getWObject``): a link of a
            :class:`~robomodel.Model`, a simulator body, ...; ``None`` when none was given.
            ``world_H_object`` is where that body goes.
    """

    index: int
    root_H_previous: Transform
    root_H_link: Transform
    world_H_root: Transform
    link_H_object: Transform
    body: str | None = None

    # -- chain root frame
    @property
    def bottom(self) -> FloatArray:
        """Origin of frame ``i-1`` in the root frame (``getBottom``)."""
        return self.root_H_previous.position.copy()

    @property
    def top(self) -> FloatArray:
        """Origin of frame ``i`` in the root frame (``getTop``)."""
        return self.root_H_link.position.copy()

    @property
    def axis(self) -> FloatArray:
        """``top - bottom``, not normalised (``getAxis``); the zero vector when they coincide."""
        return self.top - self.bottom

    @property
    def height(self) -> float:
        """``norm(axis)``, the distance from bottom to top (``getHeight``)."""
        return float(np.linalg.norm(self.axis))

    # -- link frame
    @property
    def rot_axis(self) -> FloatArray:
        """Axis the link turns about (z of frame ``i-1``), in link i's frame, ``getRotAxis``."""
        return self.root_H_link.rotation.T @ self.root_H_previous.rotation[:, 2]

    @property
    def rot_center(self) -> FloatArray:
        """Origin of frame ``i-1`` in link i's frame, on the rotation axis (``getRotCenter``)."""
        return self.root_H_link.inverse() @ self.root_H_previous.position

    # -- world frame
    @property
    def world_H_link(self) -> Transform:
        """``world_H_root @ root_H_link``."""
        return self.world_H_root @ self.root_H_link

    @property
    def bottom_world(self) -> FloatArray:
        """``bottom`` in the world frame (``getBottomWorld``)."""
        return self.world_H_root @ self.root_H_previous.position

    @property
    def top_world(self) -> FloatArray:
        """``top`` in the world frame (``getTopWorld``)."""
        return self.world_H_root @ self.root_H_link.position

    @property
    def axis_world(self) -> FloatArray:
        """``axis`` rotated into the world frame (``getAxisWorld``)."""
        return self.world_H_root.rotation @ self.axis

    # -- object frame
    @property
    def object_H_link(self) -> Transform:
        """The link frame seen from the attached body."""
        return self.link_H_object.inverse()

    @property
    def world_H_object(self) -> Transform:
        """Pose of the attached body in the world (what ``updateMatrixFromiKin`` applies)."""
        return self.world_H_link @ self.link_H_object

    @property
    def rot_axis_object(self) -> FloatArray:
        """``rot_axis`` in the attached body's frame (``getRotAxisWObject``)."""
        return self.link_H_object.rotation.T @ self.rot_axis

    @property
    def rot_center_object(self) -> FloatArray:
        """``rot_center`` in the attached body's frame (``getRotCenterWObject``)."""
        return self.object_H_link @ self.rot_center


def link_geometry(
    chain: DHChain,
    i: int,
    *,
    world_H_root: Transform | None = None,
    link_H_object: Transform | None = None,
    body: str | None = None,
) -> LinkGeometry:
    """Return the geometry of link ``i`` of ``chain`` at its current angles.

    ``body`` names the body the link moves: the seed's ``setWObject(obj, m)`` is ``body=`` with
    ``link_H_object=m``, and its ``getWObject()`` is ``.body``. robomodel holds no simulator
    objects, so the caller looks the body up by that name and places it at ``world_H_object``.

    >>> from robomodel.formats.dh import DHChain, DHLink
    >>> chain = DHChain(links=[DHLink(0.0, 0.2, 0.0, 0.0, 0.0, 1.0)])
    >>> g = link_geometry(chain, 0)
    >>> g.top.tolist(), g.height, g.rot_axis.tolist(), g.body
    ([0.0, 0.0, 0.2], 0.2, [0.0, 0.0, 1.0], None)
    >>> g = link_geometry(chain, 0, body="forearm", link_H_object=Transform(position=[0.1, 0, 0]))
    >>> g.body, g.world_H_object.position.tolist()
    ('forearm', [0.1, 0.0, 0.2])

    Raises:
        ArgumentError: ``body`` is given but is not a non-empty string.
    """
    k = chain._check_index(i)
    if body is not None:
        check_name(body, "body", where="link_geometry")
    poses = chain.poses()
    return LinkGeometry(
        index=k,
        root_H_previous=chain.H0 if k == 0 else _without_hn(chain, poses, k - 1),
        root_H_link=poses[k],
        world_H_root=Transform.identity() if world_H_root is None else world_H_root,
        link_H_object=Transform.identity() if link_H_object is None else link_H_object,
        body=body,
    )


def _without_hn(chain: DHChain, poses: tuple[Transform, ...], k: int) -> Transform:
    # poses() only appends HN to the last link, and k < last here, so poses[k] is already bare.
    return poses[k]


@attrs.frozen(kw_only=True)
class JointCommand:
    """A target for a simulated joint motor (the seed's ``setDesideredPosition/Velocity``).

    Attributes:
        joint: the simulator joint's name.
        dof: which DOF of that joint.
        position: desired angle in the joint's own sign convention (rad), or ``None``.
        velocity: desired velocity in the joint's own sign convention (rad/s), or ``None``.
    """

    joint: str
    dof: int = 0
    position: float | None = None
    velocity: float | None = None


@attrs.frozen(kw_only=True)
class JointBinding:
    """Binds a chain link to a DOF of a simulator joint (the seed's ``setJoint``).

    The simulator joint connects the two bodies the other way round from the chain (the chain's
    child is the joint's parent). When the joint's axis was inverted at creation (``inverted``,
    the seed's default) that inversion cancels the swap and angles map unchanged; with a
    non-inverted axis every angle and velocity changes sign.

    >>> JointBinding(joint="elbow", inverted=False).joint_angle(0.3)
    -0.3

    Attributes:
        joint: the simulator joint's name.
        inverted: whether the joint axis was inverted when the joint was created.
        dof: the DOF of the joint driven by the link.
    """

    joint: str
    inverted: bool = True
    dof: int = 0

    @property
    def sign(self) -> float:
        """``+1`` when angles map unchanged, ``-1`` when they change sign."""
        return 1.0 if self.inverted else -1.0

    def joint_angle(self, link_angle: float) -> float:
        """Return the joint angle for a chain link angle."""
        return self.sign * float(link_angle)

    def link_angle(self, joint_angle: float) -> float:
        """Return the chain link angle for a joint angle."""
        return self.sign * float(joint_angle)

    def command(
        self, *, position: float | None = None, velocity: float | None = None
    ) -> JointCommand:
        """Return the motor command for a desired link angle and/or velocity (link convention)."""
        return JointCommand(
            joint=self.joint,
            dof=self.dof,
            position=None if position is None else self.sign * float(position),
            velocity=None if velocity is None else self.sign * float(velocity),
        )
