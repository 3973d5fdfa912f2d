"""Options of the URDF loader and writer (frozen values; pass them as ``options=``).

The names follow the vocabulary every format shares (``docs/formats.md``): :class:`LoadOptions`
and :class:`DumpOptions`, the root link is ``base``, a policy that refuses is ``"raise"``. The
names of the previous release (``ExportOptions``, ``base_link``, ``inertia="error"``) still work
for one release, with a ``DeprecationWarning``.
"""

from __future__ import annotations

from typing import Literal

import attrs

from robomodel._internal.deprecation import renamed_attributes
from robomodel.errors import deprecated
from robomodel.model.validation import check_choice

__all__ = ["DEFAULT_ROBOT_NAME", "DumpOptions", "InertiaPolicy", "LoadOptions"]

DEFAULT_ROBOT_NAME = "iDynTreeURDFModelExportModelName"
"""The robot name iDynTree writes when none is given (robomodel writes the model's own name, even
empty, so that it reads back equal)."""


def _blobs(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)  # type: ignore[attr-defined]


InertiaPolicy = Literal["raise", "warn", "ignore"]
"""What the loader does with a physically inconsistent inertia (see :class:`LoadOptions`)."""

_INERTIA_POLICIES: tuple[InertiaPolicy, ...] = ("raise", "warn", "ignore")


def _inertia_policy(value: InertiaPolicy) -> InertiaPolicy:
    if value == "error":  # type: ignore[comparison-overlap]  # the previous release's name
        deprecated("LoadOptions(inertia='error')", "inertia='raise'")
        return "raise"
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
            (each at most the sum of the other two). ``"raise"`` raises a
            :class:`~robomodel.errors.URDFError` naming the file, line, link and numbers;
            ``"warn"`` (the default, since real robots ship such links) loads it as given and
            warns with the same text (:class:`~robomodel.errors.RobomodelWarning`);
            ``"ignore"`` loads it silently. A negative mass is an error under every policy.
    """

    remove_fake_links: bool = True
    add_sensor_frames: bool = True
    keep_extensions: bool = True
    inertia: InertiaPolicy = attrs.field(default="warn", converter=_inertia_policy)


_UNSET: str | None = "\0unset"  # base_link's default: a string no link is named


@attrs.frozen(kw_only=True, init=False)
class DumpOptions:
    """How :func:`robomodel.formats.urdf.dumps` writes a model.

    Attributes:
        base: the link written as the URDF root; ``None`` means the model's default base.
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

    base: str | None = None
    export_first_base_link_frame_as_fake_urdf_base: bool = True
    robot_name: str | None = None
    xml_blobs: tuple[str, ...] = attrs.field(default=(), converter=_blobs)
    write_extensions: bool = True
    order: str = attrs.field(default="index", validator=attrs.validators.in_(("index", "idyntree")))

    def __init__(
        self,
        *,
        base: str | None = None,
        export_first_base_link_frame_as_fake_urdf_base: bool = True,
        robot_name: str | None = None,
        xml_blobs: str | tuple[str, ...] = (),
        write_extensions: bool = True,
        order: str = "index",
        base_link: str | None = _UNSET,
    ) -> None:
        # Written out rather than generated so that the previous release's ``base_link=`` keeps
        # working, with a warning.
        if base_link is not _UNSET:
            deprecated("DumpOptions(base_link=...)", "base=...")
            base = base_link
        self.__attrs_init__(
            base=base,
            export_first_base_link_frame_as_fake_urdf_base=export_first_base_link_frame_as_fake_urdf_base,
            robot_name=robot_name,
            xml_blobs=xml_blobs,
            write_extensions=write_extensions,
            order=order,
        )

    @property
    def base_link(self) -> str | None:
        """Deprecated: the previous release's name of :attr:`base`."""
        deprecated("DumpOptions.base_link", "DumpOptions.base")
        return self.base


__getattr__ = renamed_attributes(
    __name__, {"ExportOptions": ("robomodel.formats.urdf.DumpOptions", lambda: DumpOptions)}
)
