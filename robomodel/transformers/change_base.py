"""Change a model's base link, ready to be written as URDF with the new root.

Joints are undirected, so a new base changes no joint data; what changes is which end of each
joint is the URDF child. URDF wants every moving joint's axis to pass through its child's origin,
and after a change of base some former parents are children. :func:`change_base` sets the
default base and, by default, moves those link frames onto the axes with
:func:`robomodel.transformers.frames.make_urdf_compatible`, re-expressing inertias, shapes,
frames, sensors and joints, so that the exported URDF has the same kinematics and dynamics.
"""

from __future__ import annotations

from robomodel.errors import ModelError, UnknownNameError
from robomodel.model.builders import with_default_base_link
from robomodel.model.record import Model
from robomodel.model.validation import check_name
from robomodel.transformers.frames import make_urdf_compatible
from robomodel.transformers.report import record

__all__ = ["change_base"]


def change_base(
    model: Model, new_base: str, *, urdf_compatible: bool = True, original_frames: bool = True
) -> Model:
    """Return ``model`` with ``new_base`` as its default base, ready for URDF export from it.

    With ``urdf_compatible`` (the default) every link whose frame is off the axis of its joint
    to the new traversal parent is moved onto it (see
    :func:`robomodel.transformers.frames.make_urdf_compatible`); ``original_frames`` then adds
    ``<link>_original_frame`` frames at the old link poses so that nothing is lost. Links come in
    the traversal order from the new base. Without it, only the default base changes.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "A")
    >>> j = rm.RevoluteJoint(link1="A", link2="B", axis_in_link1=rm.Axis((0, 0, 1), (1, 0, 0)))
    >>> m = rm.add_joint_and_link(m, "A", "j", j, "B")
    >>> c = change_base(m, "B")
    >>> c.default_base, list(c.link_names), c.frame_names
    ('B', ['B', 'A'], ['A_original_frame'])

    Args:
        model: the model; every link must be connected to ``new_base``.
        new_base: a link of the model (URDF roots are links; an additional frame is refused).
        urdf_compatible: move link frames so that URDF can express every joint.
        original_frames: with ``urdf_compatible``, keep each moved link's old frame as
            ``<link>_original_frame``.

    Returns:
        The new model (the input itself when nothing changes).

    Raises:
        UnknownNameError: ``new_base`` is not a link (the message says when it is a frame).
        TopologyError: a link is not connected to ``new_base``.
    """
    check_name(new_base, "new_base link", where="change_base")
    if not model.is_link_name_used(new_base):
        if model.is_frame_name_used(new_base):
            link = model.link_names[model.frame_link(new_base)]
            raise UnknownNameError("link", new_base) from ModelError(
                f"{new_base!r} is an additional frame of link {link!r}; a URDF root must be a "
                f"link: use change_base(model, {link!r})"
            )
        model.link_index(new_base)  # raises with a suggestion
    old = model.default_base
    out = with_default_base_link(model, new_base)
    if old != new_base:
        record("moved", "model", "default base", f"{old!r} -> {new_base!r}")
    if urdf_compatible:
        out = make_urdf_compatible(out, base_link=new_base, original_frames=original_frames)
    return out
