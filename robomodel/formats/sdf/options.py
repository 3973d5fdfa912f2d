"""The options of the SDFormat reader and writer (frozen values, passed as ``options=``)."""

from __future__ import annotations

from typing import Literal

import attrs

from robomodel.errors import ArgumentError

__all__ = ["DumpOptions", "LoadOptions"]

UnsupportedJointPolicy = Literal["raise", "drop"]


def _policy(_self: object, _a: object, v: str) -> None:
    if v not in ("raise", "drop"):
        raise ArgumentError(f"unsupported_joints must be 'raise' or 'drop', got {v!r}")


@attrs.frozen(kw_only=True)
class LoadOptions:
    """How :func:`robomodel.formats.sdf.load` reads a document.

    Attributes:
        model: in a ``<world>`` with several models, the name of the one to read (``None``: the
            world must hold exactly one).
        unsupported_joints: what to do with a joint robomodel does not model (ball, universal,
            screw, gearbox, revolute2, ...): ``"raise"`` (an :class:`~robomodel.errors.SDFError`
            naming its line) or ``"drop"`` (left out, its child then starts a tree of its own,
            and listed in the report of :func:`~robomodel.formats.sdf.loads_with_report`).
    """

    model: str | None = None
    unsupported_joints: UnsupportedJointPolicy = attrs.field(default="raise", validator=_policy)


def _version(_self: object, _a: object, v: str) -> None:
    if v not in ("1.7", "1.11"):
        raise ArgumentError(f"version must be '1.11' or '1.7', got {v!r}")


@attrs.frozen(kw_only=True)
class DumpOptions:
    """How :func:`robomodel.formats.sdf.dumps` writes a model.

    Attributes:
        version: ``"1.11"`` (the default) or ``"1.7"`` (for older readers: no ``<mimic>``,
            reported lost).
        base: the link written as the root (``None``: the model's default base).
    """

    version: str = attrs.field(default="1.11", validator=_version)
    base: str | None = None
