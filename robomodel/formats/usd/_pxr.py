"""The OpenUSD modules, imported on first use (usd-core is the optional ``usd`` extra)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from robomodel.errors import OptionalDependencyError

__all__ = ["pxr"]


def pxr() -> Any:
    """Return a namespace of the pxr modules robomodel uses (``Usd``, ``UsdPhysics``, ...).

    Raises:
        OptionalDependencyError: usd-core is not installed.
    """
    try:
        from pxr import Gf, Sdf, Tf, Usd, UsdGeom, UsdPhysics, Vt  # type: ignore[import-untyped]
    except ImportError as exc:
        raise OptionalDependencyError(
            "reading and writing OpenUSD needs usd-core; install it with "
            "pip install 'robomodel[usd]'",
            package="pxr",
            extra="usd",
        ) from exc
    return SimpleNamespace(
        Usd=Usd, UsdGeom=UsdGeom, UsdPhysics=UsdPhysics, Gf=Gf, Sdf=Sdf, Tf=Tf, Vt=Vt
    )
