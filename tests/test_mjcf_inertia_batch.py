"""The MJCF writer's principal axes, computed for all links in one LAPACK call.

``robomodel.formats.mjcf._inertia`` decomposes every link's central inertia in one stacked
``numpy.linalg.eigh`` (and ``eigvalsh`` for MuJoCo's size check); the numbers written must be
those of one call per inertia bit for bit, or the MJCF text would depend on what else the
model holds. These properties compare the two on random inertias (near-degenerate and
massless ones included).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import inertias

import robomodel as rm
from robomodel.formats.mjcf import _inertia
from robomodel.formats.mjcf.options import MJCF_MIN_VALUE

tiny = st.builds(
    lambda m, e: rm.SpatialInertia.from_com(m, (0.0, 0.0, 0.0), np.diag([e, e, 2 * e])),
    st.sampled_from([0.0, 1e-16, 1e-3, 1.0]),
    st.sampled_from([0.0, 1e-20, 1e-14, 1e-6]),
)
any_inertia = st.one_of(inertias(), tiny)


@settings(max_examples=50)
@given(st.lists(any_inertia, max_size=8))
def test_stacked_principal_axes_are_each_inertias_own(values: list[rm.SpatialInertia]) -> None:
    stacked = _inertia._principal_all(dict(enumerate(values)))
    assert set(stacked) == {k for k, v in enumerate(values) if v.mass > 0.0}
    for k, (d, V) in stacked.items():
        d1, V1 = _inertia._principal(np.asarray(values[k].inertia_com))
        assert d.tobytes() == d1.tobytes() and V.tobytes() == V1.tobytes()
        assert np.linalg.det(V) > 0.0


@settings(max_examples=50)
@given(st.lists(any_inertia, max_size=8))
def test_stacked_size_check_is_each_inertias_own(values: list[rm.SpatialInertia]) -> None:
    expected = [
        not v.mass > MJCF_MIN_VALUE
        or bool(np.linalg.eigvalsh(np.asarray(v.inertia_com)).min() <= MJCF_MIN_VALUE)
        for v in values
    ]
    assert _inertia._degenerate_all(values) == expected
