"""The text of a model's links and joints, written without building their dictionaries.

:func:`robomodel.formats.json.dumps` writes one line of JSON; for a big model most of its time
went into the dictionary of every link and joint and the encoder's walk over them (each key
escaped again for every element). This module writes the same text directly: one ``%``
template per kind of element, strings through the json module's own string encoder, arrays as
``repr`` of their ``tolist()`` (for finite floats, Python's list repr is JSON's array text:
``float.__repr__`` for each number, ``", "`` between them) and floats as ``repr``.

It only handles what it can write exactly as ``json.dumps`` does: :func:`links_text` and
:func:`joints_text` return ``None`` for anything else (a non-finite number where ``json.dumps``
would raise, a mimic's text is written by ``json.dumps`` itself), and the caller then encodes
the dictionaries. ``tests/test_json.py`` compares the two on random models.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from robomodel.model.joints import FixedJoint, Joint, joint_type_name
from robomodel.model.record import Link

__all__ = ["joints_text", "links_text"]

_quoted = json.encoder.encode_basestring  # what json.dumps uses with ensure_ascii=False

_LINK = '{"name": %s, "mass": %r, "first_moment": %r, "rotational_inertia": %r}'
_REST = '"link1_H_link2": {"rotation": %r, "position": %r}'
_FIXED = '{"name": %s, "type": %s, "link1": %s, "link2": %s, ' + _REST + "}"
_MOVING = (
    '{"name": %s, "type": %s, "link1": %s, "link2": %s, '
    + _REST
    + ', "axis": {"direction": %r, "origin": %r}, "limits": {"enabled": %s, "lower": %s, '
    '"upper": %s}, "effort_limit": %s, "velocity_limit": %s, "dynamics": {"kind": %s, '
    '"damping": %r, "static_friction": %r}, "mimic": %s}'
)
_BOOL = {True: "true", False: "false"}


def _limit(x: float) -> str:
    # As to_dict's _f: an infinite limit is the string "inf" or "-inf".
    if x - x == 0.0:
        return repr(x)
    if math.isinf(x):
        return '"inf"' if x > 0 else '"-inf"'
    raise ValueError  # NaN: json.dumps refuses it; let it say so


def links_text(names: Sequence[str], links: Sequence[Link]) -> str | None:
    """The JSON array of the ``"links"`` of a model, or ``None`` (see the module docstring)."""
    parts = []
    for name, link in zip(names, links, strict=True):
        i = link.inertia
        if not math.isfinite(i.mass):
            return None
        parts.append(
            _LINK % (_quoted(name), i.mass, i.first_moment.tolist(), i.rotational_inertia.tolist())
        )
    return "[" + ", ".join(parts) + "]"


def _moving_text(name: str, j: Any) -> str:
    lim, dyn = j.limits, j.dynamics
    if not (math.isfinite(dyn.damping) and math.isfinite(dyn.static_friction)):
        raise ValueError
    mimic = j.mimic
    mimic_text = (
        "null"
        if mimic is None
        else json.dumps(
            {"joint": mimic.joint, "multiplier": mimic.multiplier, "offset": mimic.offset},
            allow_nan=False,
            ensure_ascii=False,
        )
    )
    rest, axis = j.link1_H_link2, j.axis_in_link1
    return _MOVING % (
        _quoted(name),
        _quoted(joint_type_name(j)),
        _quoted(j.link1),
        _quoted(j.link2),
        rest.rotation.tolist(),
        rest.position.tolist(),
        axis.direction.tolist(),
        axis.origin.tolist(),
        _BOOL[lim.enabled],
        _limit(lim.lower),
        _limit(lim.upper),
        _limit(j.effort_limit),
        _limit(j.velocity_limit),
        _quoted(dyn.kind),
        dyn.damping,
        dyn.static_friction,
        mimic_text,
    )


def joints_text(names: Sequence[str], joints: Sequence[Joint]) -> str | None:
    """The JSON array of the ``"joints"`` of a model, or ``None`` (see the module docstring)."""
    parts = []
    try:
        for name, j in zip(names, joints, strict=True):
            if type(j) is FixedJoint:
                rest = j.link1_H_link2
                parts.append(
                    _FIXED
                    % (
                        _quoted(name),
                        '"fixed"',
                        _quoted(j.link1),
                        _quoted(j.link2),
                        rest.rotation.tolist(),
                        rest.position.tolist(),
                    )
                )
            else:
                parts.append(_moving_text(name, j))
    except ValueError:  # a number json.dumps refuses (it raises the error)
        return None
    return "[" + ", ".join(parts) + "]"
