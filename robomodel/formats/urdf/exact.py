"""The URDF writer's exact numbers, for the other XML formats that share its arithmetic.

SDFormat gives rotations as ``rpy`` and inertias at the centre of mass like URDF; the SDFormat
reader computes them with the URDF reader's formulas, so the URDF writer's search for numbers
that read back to the very same doubles (:mod:`robomodel.formats.urdf._exact`) serves its
writer too. This module is that search's one public door (the private modules stay private).
"""

from __future__ import annotations

from robomodel.formats.urdf._exact import computed_rpy as computed_rpy
from robomodel.formats.urdf._exact import inertial_numbers as inertial_numbers
from robomodel.formats.urdf._exact import origin_numbers as origin_numbers
from robomodel.formats.urdf._inertial import inertial_values as inertial_values

__all__ = ["computed_rpy", "inertial_numbers", "inertial_values", "origin_numbers"]
