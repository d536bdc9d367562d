# Copyright 2026 The collision_monitor authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""Separating axis theorem for convex polygons ([polygons]), with the minimum translation."""

from typing import NamedTuple

import numpy as np

from .primitives import outward_normal, pair_length_tolerance
from .validation import as_polygon, is_convex, polygon_orientation
from ..constants import jit


@jit
def sat_kernel(a, orient_a, b, orient_b, tol, early_exit):
    """Face query over the edge normals of two convex polygons.

    For an outward unit normal n of an edge of `a` through vertex p, the separation along n is
    ``min_j (b_j - p) . n``; for an edge of `b`, ``min_i (a_i - q) . m`` with the normal taken
    as -m (always pointing from a to b).  The largest separation s over all edges is, when
    positive, a lower bound of the polygons' distance (exact unless the closest features are
    two vertices); otherwise it is minus the penetration depth, and its axis is the minimum
    translation direction: moving b by ``-s n`` makes them touch.

    Returns ``(s, nx, ny)``.  With `early_exit` it returns at the first axis with ``s > tol``
    (they are then separated).
    """
    ox = a[0, 0]
    oy = a[0, 1]
    best = -np.inf
    bnx = 0.0
    bny = 0.0
    for k in range(a.shape[0]):
        nx, ny = outward_normal(a, orient_a, k)
        px = a[k, 0] - ox
        py = a[k, 1] - oy
        s = np.inf
        for j in range(b.shape[0]):
            s = min(s, (b[j, 0] - ox - px) * nx + (b[j, 1] - oy - py) * ny)
        if s > best:
            best, bnx, bny = s, nx, ny
            if early_exit and s > tol:
                return best, bnx, bny
    for k in range(b.shape[0]):
        mx, my = outward_normal(b, orient_b, k)
        qx = b[k, 0] - ox
        qy = b[k, 1] - oy
        s = np.inf
        for i in range(a.shape[0]):
            s = min(s, (a[i, 0] - ox - qx) * mx + (a[i, 1] - oy - qy) * my)
        if s > best:
            best, bnx, bny = s, -mx, -my
            if early_exit and s > tol:
                return best, bnx, bny
    return best, bnx, bny


class SatResult(NamedTuple):
    """Outcome of `sat`.

    Attributes
    ----------
    separated : bool
        True when the polygons neither overlap nor touch.
    normal : (2,) float64 ndarray
        Unit axis pointing from a to b: translating b by ``depth * normal`` separates them
        (the minimum translation vector); for separated pairs the axis of largest separation.
        When several axes tie for that (a square on a square's corner), which of them is
        returned is not part of the contract: each gives the same depth and separates.
    depth : float
        Penetration depth (>= 0 when in contact, 0 when touching); when separated, minus the
        separation along `normal` (a lower bound of the distance).

    """

    separated: bool
    normal: np.ndarray
    depth: float


def sat(a, b):
    """Separating axis test of two convex polygons with the minimum translation vector.

    Parameters
    ----------
    a, b : (n, 2) array_like of float
        Convex polygons, either winding.

    Returns
    -------
    SatResult

    Raises
    ------
    ValueError
        If either polygon is not convex.

    """
    a = as_polygon(a, 'a')
    b = as_polygon(b, 'b')
    for name, poly in (('a', a), ('b', b)):
        if not is_convex(poly):
            raise ValueError(f'sat needs convex polygons: {name} is not convex')
    tol = pair_length_tolerance(a, b)
    s, nx, ny = sat_kernel(a, polygon_orientation(a), b, polygon_orientation(b), tol, False)
    return SatResult(bool(s > tol), np.array([nx, ny]), float(-s if s > tol else max(0.0, -s)))
