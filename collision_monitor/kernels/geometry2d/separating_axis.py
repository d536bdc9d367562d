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
from ..constants import jit, jit_inline
from ..tuning import SAT_SCAN_PAIRS


@jit_inline
def _along(b, q, nx, ny, px, py, ox, oy):
    """``(b_q - p) . n``, coordinates relative to o: one projection of the face query."""
    return (b[q, 0] - ox - px) * nx + (b[q, 1] - oy - py) * ny


@jit
def _walked_faces(a, orient_a, b, step, origin, tol, early_exit, flip, found):
    """The face query of a's edges against b's vertices, each axis's least vertex of b walked
    by `step` (+1 or -1) from the last axis's while the projection does not grow: as the
    outward normals of convex a turn round, the vertex of convex b least along them turns
    the same way, so one pass costs O(n + m).  Carries on from `found` ``(s, nx, ny, side,
    edge)``, the best so far and which polygon's edge (0: a, 1: b, which `flip` says a is)
    gave it.  Returns ``(found, separated)``: separated when `early_exit` stopped at an axis
    with s > tol."""
    ox, oy = origin
    best, bnx, bny, side, edge = found
    m = b.shape[0]
    j = 0
    s = np.inf
    for k in range(a.shape[0]):
        nx, ny = outward_normal(a, orient_a, k)
        px = a[k, 0] - ox
        py = a[k, 1] - oy
        if k == 0:
            for q in range(m):
                h = _along(b, q, nx, ny, px, py, ox, oy)
                if h < s:
                    s, j = h, q
        else:
            s = _along(b, j, nx, ny, px, py, ox, oy)
            for _ in range(m):
                q = j + step
                q = q - m if q >= m else (q + m if q < 0 else q)
                h = _along(b, q, nx, ny, px, py, ox, oy)
                if h > s:
                    break
                s, j = h, q
        if s > best:
            best, bnx, bny, side, edge = s, (-nx if flip else nx), (-ny if flip else ny), flip, k
            if early_exit and s > tol:
                return (best, bnx, bny, side, edge), True
    return (best, bnx, bny, side, edge), False


@jit_inline
def _least_projection(a, orient_a, k, b, ox, oy):
    """``(min_j (b_j - a_k) . n_k, n_k)`` over every vertex of b, n_k the outward unit normal
    of a's edge k, coordinates relative to o: one axis of `sat_kernel`'s scan."""
    nx, ny = outward_normal(a, orient_a, k)
    px = a[k, 0] - ox
    py = a[k, 1] - oy
    s = np.inf
    for j in range(b.shape[0]):
        s = min(s, _along(b, j, nx, ny, px, py, ox, oy))
    return s, nx, ny


@jit
def walked_sat(a, orient_a, b, orient_b, tol, early_exit):
    """`sat_kernel` by walks (`_walked_faces`): ``(s, nx, ny, exact)``.  A walk can only stop
    high, in a polygon convex within the tolerance (a corner turning back by less than it)
    at a dent, so the answer's own axis is taken over every vertex again: exact when that
    agrees, and the answer then is the scan's, bit for bit."""
    origin = (a[0, 0], a[0, 1])
    step = 1 if orient_a == orient_b else -1
    found, separated = _walked_faces(a, orient_a, b, step, origin, tol, early_exit, 0,
                                     (-np.inf, 0.0, 0.0, -1, -1))
    if not separated:
        found, _ = _walked_faces(b, orient_b, a, step, origin, tol, early_exit, 1, found)
    s, nx, ny, side, edge = found
    if side == 0:
        scanned = _least_projection(a, orient_a, edge, b, origin[0], origin[1])[0]
    else:
        scanned = _least_projection(b, orient_b, edge, a, origin[0], origin[1])[0]
    return s, nx, ny, scanned == s


@jit
def sat_kernel(a, orient_a, b, orient_b, tol, early_exit):
    """Face query over the edge normals of two convex polygons.

    For an outward unit normal n of an edge of `a` through vertex p, the separation along n is
    ``min_j (b_j - p) . n``; for an edge of `b`, ``min_i (a_i - q) . m`` with the normal taken
    as -m (always pointing from a to b).  The largest separation s over all edges is, when
    positive, a lower bound of the polygons' distance (exact unless the closest features are
    two vertices); otherwise it is minus the penetration depth, and its axis is the minimum
    translation direction: moving b by ``-s n`` makes them touch.

    Above `SAT_SCAN_PAIRS` vertex pairs each axis's least vertex is walked from the last
    one's instead (`walked_sat`, O(n + m)), and the scan runs only when the walk's answer
    does not hold up.

    Returns ``(s, nx, ny)``.  With `early_exit` it returns at the first axis with ``s > tol``
    (they are then separated).
    """
    if a.shape[0] * b.shape[0] > SAT_SCAN_PAIRS:
        s, nx, ny, exact = walked_sat(a, orient_a, b, orient_b, tol, early_exit)
        if exact:
            return s, nx, ny
    ox = a[0, 0]
    oy = a[0, 1]
    best = -np.inf
    bnx = 0.0
    bny = 0.0
    for k in range(a.shape[0]):
        s, nx, ny = _least_projection(a, orient_a, k, b, ox, oy)
        if s > best:
            best, bnx, bny = s, nx, ny
            if early_exit and s > tol:
                return best, bnx, bny
    for k in range(b.shape[0]):
        s, mx, my = _least_projection(b, orient_b, k, a, ox, oy)
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
