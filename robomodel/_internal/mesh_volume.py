"""Whether MuJoCo will surely find a volume in a binary STL mesh, without compiling it.

MuJoCo computes a volume for every mesh it loads (its default ``inertia="legacy"``: the sum,
over the triangles, of the absolute volume of the tetrahedron each makes with the
area-weighted centroid of the faces) and refuses a mesh whose volume is below ``mjMINVAL``
(1e-15): "mesh volume is too small". The MJCF writer learns which meshes those are by compiling
the document with MuJoCo, which costs as much as the compile the user does next (loading the
meshes is most of both). This module answers the common case without MuJoCo: the absolute value
of the *signed* sum of those tetrahedra is a lower bound of MuJoCo's sum of absolute values, so
a mesh whose signed sum is far above the minimum (and far above the rounding errors of both
computations) surely has a volume for MuJoCo. Anything else (an unreadable or non-binary file,
a thin or open mesh, a bound too close to call) answers ``False``, and the writer compiles as
before: the output is the same either way, only the time differs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robomodel._internal.files import read_regular

__all__ = ["surely_has_volume"]

# MuJoCo's minimum volume is 1e-15; a bound a thousand times above it leaves no doubt.
_MIN_VOLUME = 1e-12
_TRIANGLE = np.dtype([("normal", "<f4", (3,)), ("vertices", "<f4", (3, 3)), ("attribute", "<u2")])


def _dot(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    # Not ``a @ b``: OpenBLAS runs a long dot product on several threads, which on a busy
    # machine costs a hundred times more than this single pass.
    return float(np.einsum("i,i->", a, b))


def surely_has_volume(path: str, scale: tuple[float, float, float]) -> bool:
    """Whether MuJoCo's volume of the binary STL mesh ``path``, scaled, is surely above its minimum.

    ``False`` means "cannot tell" (compile to find out), never "MuJoCo refuses it".

    >>> import os, tempfile
    >>> box = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
    ...                 [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=float)
    >>> faces = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4),
    ...          (1, 2, 6), (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    >>> records = np.zeros(len(faces), dtype=_TRIANGLE)
    >>> records["vertices"] = box[np.array(faces)]
    >>> with tempfile.NamedTemporaryFile(suffix=".stl", delete=False) as f:
    ...     _ = f.write(bytes(80) + len(faces).to_bytes(4, "little") + records.tobytes())
    >>> surely_has_volume(f.name, (1.0, 1.0, 1.0)), surely_has_volume(f.name, (1.0, 1.0, 0.0))
    (True, False)
    >>> os.remove(f.name)
    """
    try:
        data = read_regular(path)  # a FIFO or a device is refused, never waited on
    except OSError:
        return False
    n = int.from_bytes(data[80:84], "little") if len(data) >= 84 else 0
    if n == 0 or len(data) != 84 + 50 * n:
        return False
    # The corners of each 50-byte record, as rows x0 y0 z0 x1 ... z2 of float64, centred on
    # the bounding box (the bound below does not depend on the origin, and its rounding error
    # then scales with the mesh). The scale is applied to the sums at the end (exactly what
    # scaling every vertex gives, up to rounding the bound allows for).
    # (Copied out as bytes first: a cast straight from the unaligned records is slower.)
    raw = np.frombuffer(data, dtype=np.uint8, count=50 * n, offset=84).reshape(n, 50)
    corners = raw[:, 12:48].copy().view("<f4")  # (n, 9)
    v = np.array(corners.T, dtype=np.float64, order="C").reshape(3, 3, n)
    lo = v.min(axis=2).min(axis=0)
    hi = v.max(axis=2).max(axis=0)
    v -= ((lo + hi) / 2.0)[:, None]
    sx, sy, sz = (float(x) for x in scale)
    half = (hi - lo) / 2.0
    radius_u = float(np.sqrt(half @ half))  # unscaled: every |coordinate| of v is below it
    half *= np.abs([sx, sy, sz])
    radius = float(np.sqrt(half @ half))
    (x0, y0, z0), (x1, y1, z1), (x2, y2, z2) = v
    # MuJoCo's volume is sum_i |(c_i - f) . N_i| / 3 (c_i a triangle's centroid, N_i its area
    # times its unit normal, f the area-weighted centroid of the faces). Its signed twin is
    # (sum_i det(v0, v1, v2) - f . sum_i 2 N_i) / 6, since c . 2N = det(v0, v1, v2) for a
    # triangle, and |f| <= radius (f lies in the bounding box): so MuJoCo's volume is at least
    # (|sum det| - radius |sum 2 N|) / 6, without any area.
    cx, cy, cz = y1 * z2 - z1 * y2, z1 * x2 - x1 * z2, x1 * y2 - y1 * x2  # v1 x v2
    det = _dot(x0, cx) + _dot(y0, cy) + _dot(z0, cz)
    # sum of 2 N = v1 x v2 + v0 x v1 + v2 x v0, summed over the triangles.
    n2 = np.array(
        [
            cx.sum() + _dot(y0, z1) - _dot(z0, y1) + _dot(y2, z0) - _dot(z2, y0),
            cy.sum() + _dot(z0, x1) - _dot(x0, z1) + _dot(z2, x0) - _dot(x2, z0),
            cz.sum() + _dot(x0, y1) - _dot(y0, x1) + _dot(x2, y0) - _dot(y2, x0),
        ]
    )
    det *= sx * sy * sz
    n2 *= [sy * sz, sz * sx, sx * sy]
    bound = (abs(det) - radius * float(np.sqrt(n2 @ n2))) / 6.0
    # Rounding. Here: each of the 6 n products summed into det is at most radius_u^3, those of
    # sum 2N at most radius_u^2, and a sum of n terms errs by at most n 2^-53 times the sum of
    # their sizes: 1e-15 n^2 (...) bounds both, scaled. In MuJoCo: it scales the float32
    # vertices in float32 (a relative error of 6e-8), which moves each tetrahedron by at most
    # about 6e-8 radius^3: 1e-7 n radius^3 bounds the sum.
    sizes = radius_u**2 * (
        radius_u * abs(sx * sy * sz) + radius * max(abs(sy * sz), abs(sz * sx), abs(sx * sy))
    )
    error = 1e-15 * float(n) ** 2 * sizes + 1e-7 * n * radius**3
    return bound > _MIN_VOLUME and bound > error
