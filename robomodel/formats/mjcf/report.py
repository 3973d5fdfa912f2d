"""The conversion report, defined in :mod:`robomodel.formats.report` (all formats share it)."""

from robomodel.formats.report import ConversionReport as ConversionReport
from robomodel.formats.report import Loss as Loss
from robomodel.formats.report import LossAction as LossAction
from robomodel.formats.report import warn_losses as warn_losses

__all__ = ["ConversionReport", "Loss", "LossAction", "warn_losses"]
