"""What every part of the USD writer and reader shares: prim names and ``robomodel:`` attributes.

USD prim names are identifiers, robot element names are not always: every prim gets a valid,
unique name made from the element's (``Tf.MakeValidIdentifier``, then ``_1``, ``_2``, ... on a
clash), and the element's own name is kept in its ``robomodel:name`` attribute. Values robomodel
stores exactly and UsdPhysics holds only as 32-bit floats, or not at all, are custom attributes
in the ``robomodel:`` namespace, written as doubles (USD writes doubles with their shortest
round-tripping text, so the round trip is exact).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from robomodel.formats.usd._pxr import pxr
from robomodel.model.spatial import Transform

__all__ = [
    "NS",
    "Names",
    "get",
    "matrix_of",
    "put",
    "transform_of_matrix",
]

FloatArray = npt.NDArray[np.float64]

NS = "robomodel:"
"""The namespace of robomodel's custom attributes."""


class Names:
    """The prim names taken under one parent prim (a writer's scratch state, one per parent)."""

    __slots__ = ("_taken",)

    def __init__(self, reserved: tuple[str, ...] = ()) -> None:
        self._taken: set[str] = set(reserved)

    def take(self, name: str) -> str:
        """Return a valid prim name for ``name`` not taken yet, and take it."""
        base = pxr().Tf.MakeValidIdentifier(name) if name else "_"
        out, k = base, 0
        while out in self._taken:
            k += 1
            out = f"{base}_{k}"
        self._taken.add(out)
        return out


_TYPES = {
    "double": "Double",
    "double3": "Double3",
    "double4": "Double4",
    "matrix4d": "Matrix4d",
    "matrix3d": "Matrix3d",
    "string": "String",
    "string[]": "StringArray",
    "bool": "Bool",
    "int": "Int",
    "token": "Token",
}


def put(prim: Any, name: str, type_name: str, value: Any) -> None:
    """Set the custom attribute ``robomodel:<name>`` of ``prim`` (``type_name`` a USD type)."""
    p = pxr()
    attr = prim.CreateAttribute(NS + name, getattr(p.Sdf.ValueTypeNames, _TYPES[type_name]))
    attr.Set(value)


def get(prim: Any, name: str, default: Any = None) -> Any:
    """Return the value of ``robomodel:<name>`` on ``prim``, or ``default`` when not authored."""
    attr = prim.GetAttribute(NS + name)
    if not attr or not attr.HasAuthoredValue():
        return default
    return attr.Get()


def matrix_of(T: Transform) -> Any:
    """Return ``T`` as a ``Gf.Matrix4d`` (USD's row-vector convention: the transpose)."""
    return pxr().Gf.Matrix4d(T.as_matrix().T.tolist())


def array_of_matrix(M: Any) -> FloatArray:
    """Return a ``Gf.Matrix4d`` as the 4x4 column-vector homogeneous matrix."""
    return np.array(M, dtype=np.float64).T


def transform_of_matrix(M: Any) -> Transform:
    """Return the :class:`Transform` of a ``Gf.Matrix4d`` written by :func:`matrix_of`."""
    H = array_of_matrix(M)
    return Transform(H[:3, :3], H[:3, 3])
