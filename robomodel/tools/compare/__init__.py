"""Is this still the same robot? A mechanism equivalence check across formats and tools.

:func:`same_mechanism` matches the elements two models share and compares what they do at
random configurations (masses, poses, axes, limits, inverse dynamics, sensor readings); its
:class:`MechanismVerdict` lists every :class:`Discrepancy` beyond the :class:`Tolerances`.
"""

from robomodel.tools.compare.mechanism import same_mechanism as same_mechanism
from robomodel.tools.compare.verdict import QUANTITIES as QUANTITIES
from robomodel.tools.compare.verdict import Discrepancy as Discrepancy
from robomodel.tools.compare.verdict import MechanismVerdict as MechanismVerdict
from robomodel.tools.compare.verdict import Tolerances as Tolerances

__all__ = ["QUANTITIES", "Discrepancy", "MechanismVerdict", "Tolerances", "same_mechanism"]
