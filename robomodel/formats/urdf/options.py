"""Options of the URDF loader and exporter (frozen values; pass them as ``options=``)."""

from __future__ import annotations

from typing import Literal

import attrs

from robomodel.model.validation import check_choice

__all__ = ["DEFAULT_ROBOT_NAME", "ExportOptions", "InertiaPolicy", "LoadOptions"]

DEFAULT_ROBOT_NAME = "iDynTreeURDFModelExportModelName"
"""The robot name iDynTree writes when none is given (robomodel writes the model's own name, even
empty, so that it reads back equal)."""


def _blobs(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)  # type: ignore[attr-defined]


InertiaPolicy = Literal["error", "warn", "ignore"]
"""What the loader does with a physically inconsistent inertia (see :class:`LoadOptions`)."""

_INERTIA_POLICIES: tuple[InertiaPolicy, ...] = ("error", "warn", "ignore")


def _inertia_policy(value: InertiaPolicy) -> InertiaPolicy:
    return check_choice(value, _INERTIA_POLICIES, "LoadOptions.inertia")


@attrs.frozen(kw_only=True)
class LoadOptions:
    """How :func:`robomodel.formats.urdf.load` turns a URDF document into a model.

    Attributes:
        remove_fake_links: turn every massless leaf link attached by a fixed joint into an
            additional frame of its neighbour (iDynTree's behaviour). ``False`` keeps every URDF
            link as a link.
        add_sensor_frames: add one additional frame per sensor, named like the sensor (iDynTree's
            ``addSensorFramesAsAdditionalFrames``): an F/T sensor's frame goes on its second
            (child) link, an accelerometer's or gyroscope's on its link. A frame whose name is
            already taken is skipped, with a :class:`~robomodel.errors.RobomodelWarning` when the
            existing frame is somewhere else.
        keep_extensions: keep every element robomodel does not model (``<gazebo>``,
            ``<transmission>``, ``<mimic>``, unknown tags, other sensor types) verbatim in
            ``model.extensions`` so that :func:`robomodel.formats.urdf.dumps` writes it back.
        inertia: what to do with an ``<inertia>`` that no rigid body has: one that is not
            positive semi-definite, or whose principal moments break the triangle inequality
            (each at most the sum of the other two). ``"error"`` raises a
            :class:`~robomodel.errors.URDFError` naming the file, line, link and numbers;
            ``"warn"`` (the default, since real robots ship such links) loads it as given and
            warns with the same text (:class:`~robomodel.errors.RobomodelWarning`);
            ``"ignore"`` loads it silently. A negative mass is an error under every policy.
    """

    remove_fake_links: bool = True
    add_sensor_frames: bool = True
    keep_extensions: bool = True
    inertia: InertiaPolicy = attrs.field(default="warn", converter=_inertia_policy)


@attrs.frozen(kw_only=True)
class ExportOptions:
    """How :func:`robomodel.formats.urdf.dumps` writes a model.

    Attributes:
        base_link: the link written as the URDF root; ``None`` means the model's default base.
        export_first_base_link_frame_as_fake_urdf_base: when the base link has additional
            frames, write its first one as a massless parent link of the base (the URDF root),
            as iDynTree does by default. robomodel writes the inverse transform there, which is
            what URDF means (iDynTree's bug B13 writes it un-inverted).
        robot_name: the ``<robot name>``; ``None`` means the model's name (empty when it has
            none; iDynTree writes :data:`DEFAULT_ROBOT_NAME` there).
        xml_blobs: extra XML elements appended inside ``<robot>``, each parsed and checked first.
        write_extensions: write back the kept extension elements (``model.extensions`` and the
            ``extensions`` of shapes and materials).
        order: ``"index"`` (the default) writes a ``<robomodel:order>`` element and the links,
            joints, frames and sensors in index order, so that :func:`robomodel.formats.urdf.load`
            gives every element its index again (other tools ignore the element; the order of
            URDF elements means nothing to them). ``"idyntree"`` writes iDynTree's layout: the
            traversal from the base, each link after its parent joint, then the frames; the
            loader then numbers the elements by its traversal rule, which changes the indices
            of a model that was not in that order.
    """

    base_link: str | None = None
    export_first_base_link_frame_as_fake_urdf_base: bool = True
    robot_name: str | None = None
    xml_blobs: tuple[str, ...] = attrs.field(default=(), converter=_blobs)
    write_extensions: bool = True
    order: str = attrs.field(default="index", validator=attrs.validators.in_(("index", "idyntree")))
