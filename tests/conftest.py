"""Shared pytest configuration: Hypothesis profiles and the icub-models fixtures."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.register_profile(
    "slow",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=int(os.environ.get("ROBOMODEL_SLOW_EXAMPLES", "500")),
)
settings.load_profile("default")
