"""Direct tests of the URDF exporter's number formatter at each boundary of its notation rule.

``robomodel.formats.urdf.numbers`` writes the shortest round-trip digits ``d1..dn`` (value = digits
x
10**K) as an integer when ``K >= 0`` and ``|K + n - 1| < n + 7`` (at most seven trailing zeros),
as a plain decimal when ``K < 0`` and (``K > -7`` or ``|K + n - 1| < 4``), and in scientific
notation otherwise. The table below sits on both sides of every one of those edges; each
expected text is written out by hand from that rule, and the same values are written by
iDynTree's own ``ModelExporter`` (whose fpconv/Grisu2 layout the rule reproduces) and must come
out identical there.
"""

from __future__ import annotations

import math
import os
import tempfile
import warnings

import pytest
from lxml import etree

from robomodel.formats.urdf.numbers import format_float, format_floats

with warnings.catch_warnings():
    # SWIG's DeprecationWarning while idyntree loads (see idyntree_oracle).
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

# (value, text): the expected texts follow from the rule in the module docstring.
TABLE = [
    # Integers: K >= 0 is plain up to seven trailing zeros (K <= 7), scientific from eight.
    (1.0, "1"),
    (10_000_000.0, "10000000"),  # 1e7: K = 7
    (1e8, "1e+8"),  # K = 8: not 100000000
    (-1e8, "-1e+8"),
    (150_000_000.0, "150000000"),  # 1.5e8: digits 15, K = 7
    (1.5e9, "1.5e+9"),  # digits 15, K = 8: not 1500000000
    (1e9, "1e+9"),
    (1_234_567_890.0, "1234567890"),  # many digits, K = 1
    (12_345_678_900_000_000.0, "1.23456789e+16"),  # K = 8, nine digits
    (1_234_567_890_000_000.0, "1234567890000000"),  # K = 7, sixteen digits
    (1e22, "1e+22"),
    # Small numbers: K > -7 is plain, K = -7 scientific ...
    (1e-6, "0.000001"),  # K = -6
    (-1e-6, "-0.000001"),
    (1e-7, "1e-7"),  # K = -7
    (9.99e-7, "9.99e-7"),
    (1.5e-6, "1.5e-6"),  # digits 15, K = -7: scientific although 1e-6 is plain
    (1.25e-5, "1.25e-5"),  # K = -7
    (0.000125, "0.000125"),  # K = -6
    # ... unless the exponent is small: |K + n - 1| < 4 keeps many digits plain (the
    # digit-count edge at 1e-4 / 1e-3).
    (0.0001, "0.0001"),
    (0.0001234, "1.234e-4"),  # digits 1234, K = -7, |K + n - 1| = 4
    (0.001234, "0.001234"),  # K = -6
    (0.0012345678, "0.0012345678"),  # K = -10, |K + n - 1| = 3
    (0.00012345678, "1.2345678e-4"),  # K = -11, |K + n - 1| = 4
    (1.2345678, "1.2345678"),  # K = -7, exponent 0
    (12_345_678.9, "12345678.9"),  # K = -1
    (0.1 + 0.2, "0.30000000000000004"),  # seventeen digits, K = -17, exponent -1
    (-0.5, "-0.5"),
    (0.0, "0"),
    # DEVIATE from iDynTree (which writes "-0"): equal values must export equal text (issue 15).
    (-0.0, "0"),
]


@pytest.mark.parametrize(("value", "text"), TABLE, ids=[t for _, t in TABLE])
def test_format_float_at_the_notation_boundaries(value: float, text: str) -> None:
    """Each boundary value is written as the rule says and reads back to the same double."""
    assert format_float(value) == text
    assert float(text) == value
    assert format_floats([value, value]) == f"{text} {text}"


def _idyntree_texts(values: list[float]) -> list[str]:
    """Write ``values`` as joint origins of a chain with iDynTree's exporter; read them back."""
    triples = [values[i : i + 3] for i in range(0, len(values), 3)]
    triples[-1] = triples[-1] + [0.0] * (3 - len(triples[-1]))
    m = idt.Model()
    link = idt.Link()
    link.setInertia(idt.SpatialInertia.Zero())
    m.addLink("l0", link)
    for k, (x, y, z) in enumerate(triples, start=1):
        rest = idt.Transform(idt.Rotation.Identity(), idt.Position(x, y, z))
        assert m.addJointAndLink(f"l{k - 1}", f"j{k}", idt.FixedJoint(rest), f"l{k}", link) >= 0
    exporter = idt.ModelExporter()
    assert exporter.init(m)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "numbers.urdf")
        assert exporter.exportModelToFile(path)
        tree = etree.parse(path)
    texts: list[str] = []
    for k in range(1, len(triples) + 1):
        (origin,) = tree.xpath(f"//joint[@name='j{k}']/origin")
        texts += origin.get("xyz").split()
    return texts[: len(values)]


def test_idyntree_writes_the_same_texts() -> None:
    """iDynTree's exporter writes every table value with the same text as robomodel.

    Except -0.0, which iDynTree writes "-0" and robomodel "0" (see the table).
    """
    values = [v for v, _ in TABLE if not (v == 0.0 and math.copysign(1.0, v) < 0)]
    assert _idyntree_texts(values) == [format_float(v) for v in values]
