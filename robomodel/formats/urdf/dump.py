"""The URDF exporter: ``dumps(model)`` returns URDF text, ``dump(model, path)`` writes a file.

By default every element is written in index order after a ``<robomodel:order>`` element, so
that :func:`robomodel.formats.urdf.load` gives each its index again;
``DumpOptions(order="idyntree")``
writes iDynTree's ``ModelExporter`` layout (spec §6): the optional fake root frame first, then
for each link of the traversal from the base its parent joint and the link, then every other
additional frame as a massless link on a fixed joint ``<frame>_fixed_joint``
(:func:`robomodel.formats.urdf._tree.write_tree`). Both use ``<?xml version="1.0"?>`` and 2-space
indentation, and every value reads back exactly (robomodel's namespaced attributes where URDF
cannot state a value, ``docs/urdf.md``). robomodel then
writes what iDynTree cannot: the sensors in the dialect the loader reads, effort/velocity limits,
mimic relations, robot-level materials and every element kept verbatim by the loader. Numbers use
:func:`robomodel.formats.urdf.numbers.format_float`.

Each element is written by the module that reads it (``robomodel.formats.urdf._joint``,
``_link``, ``_inertial``, ``_geometry``, ``_sensor``, ``_extensions``), so that the round trip
of a field is on one screen; this module writes the ``<robot>`` around them.
"""

from __future__ import annotations

import os

from robomodel._internal.files import atomic_write
from robomodel.errors import suggest
from robomodel.formats.urdf._document import Writer
from robomodel.formats.urdf._extensions import blob_xml, kept_by_owner, write_robot_kept
from robomodel.formats.urdf._geometry import write_material
from robomodel.formats.urdf._sensor import write_sensors
from robomodel.formats.urdf._tree import finish_order, write_tree
from robomodel.formats.urdf.errors import URDFExportError
from robomodel.formats.urdf.options import DumpOptions
from robomodel.model.record import Model

__all__ = ["dump", "dumps", "export_problems"]

_DEFAULT_OPTIONS = DumpOptions()


def dump(
    model: Model, path: str | os.PathLike[str], *, options: DumpOptions = _DEFAULT_OPTIONS
) -> None:
    """Write ``model`` as a URDF file at ``path`` (UTF-8); see :func:`dumps`.

    The text goes to a temporary file in the same directory, renamed over ``path`` only once
    complete: a failed write (disk full, ...) leaves ``path`` as it was.
    """
    atomic_write(os.fspath(path), dumps(model, options=options))


def dumps(model: Model, *, options: DumpOptions = _DEFAULT_OPTIONS) -> str:
    """Return ``model`` as URDF text.

    Raises:
        URDFExportError: the base is not a link, some links are not reachable from the base, a
            moving joint's axis does not pass through its child's origin (URDF cannot express
            it), a number is not finite, a generated name clashes with an existing joint, an
            F/T sensor's two transforms disagree with its joint, or an XML blob is not XML.

    >>> from robomodel.formats.urdf import loads
    >>> m = loads('<robot name="r"><link name="a"/></robot>')
    >>> print(dumps(m), end="")
    <?xml version="1.0"?>
    <robot name="r">
      <robomodel:order xmlns:robomodel="urn:robomodel:urdf" links="1"/>
      <link name="a">
        <inertial>
          <mass value="0"/>
          <origin xyz="0 0 0" rpy="0 0 0"/>
          <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/>
        </inertial>
      </link>
    </robot>
    """
    w = Writer(model, options, *kept_by_owner(model))
    _write_robot(w)
    w.out.append("")  # the final newline, joined in (adding it after would copy the text)
    return "\n".join(w.out)


def export_problems(model: Model, *, options: DumpOptions = _DEFAULT_OPTIONS) -> tuple[str, ...]:
    """Return why :func:`dumps` would refuse ``model`` with ``options`` (empty: it exports).

    The check-only form of iDynTree's ``ModelExporter::isValid``: nothing is written. The
    export stops at the first problem it meets, so this names that one; fix it and call again
    to see whether another follows.

    >>> import robomodel as rm
    >>> export_problems(rm.Model())
    ('<export>: robot: the model has no links; add one before exporting',)
    >>> export_problems(rm.add_link(rm.Model(), "base"))
    ()
    """
    try:
        dumps(model, options=options)
    except URDFExportError as e:
        return (str(e),)
    return ()


def _write_robot(w: Writer) -> None:
    m, o, out = w.model, w.options, w.out
    if not m.links:
        raise w.fail("robot", "the model has no links; add one before exporting")
    base = w.base
    if not m.is_link_name_used(base):
        hint = (
            " (it is an additional frame; give the link it is attached to)"
            if m.is_frame_name_used(base)
            else suggest(base, m.link_names)
        )
        raise w.fail("robot", f"the base {base!r} is not a link of the model{hint}")
    out.append('<?xml version="1.0"?>')
    # The model's own name, even empty (iDynTree writes DEFAULT_ROBOT_NAME for an empty one,
    # which would read back as a different model).
    name = o.robot_name if o.robot_name is not None else m.name
    out.append(f"<robot name={w.name(name, 'robot')}>")
    for mat in m.materials:
        w.guard(f"material {mat.name!r}", write_material, mat, "  ", True)
    # The elements add their numbers first, which are then formatted together (one pass for
    # the document), and only then written.
    tree = write_tree(w, base)
    sensors = write_sensors(w)
    w.pending.format()
    tree()
    sensors()
    write_robot_kept(w)
    finish_order(w)
    for blob in o.xml_blobs:
        out.append("  " + blob_xml(w, blob))
    out.append("</robot>")
