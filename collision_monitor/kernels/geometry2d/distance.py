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
"""Distance between two simple polygons, with the closest points.

Disjoint polygons are closest on their boundaries, so the distance is the least distance
between an edge of one and an edge of the other; two segments that do not cross are closest
at an end of one of them.  O(n m), exact for convex and concave polygons alike.  Polygons
that share a point (`contact.polygons_intersect`) are at distance 0.
"""

import math

import numpy as np

from .contact import _PolygonInfo, polygons_intersect_kernel
from .primitives import closest_on_segment, pair_length_tolerance
from ..constants import jit


@jit
def polygon_distance_kernel(a, b):
    """Least distance between the boundaries of polygons a and b (n, 2) and (m, 2), with the
    closest points: ``(d, ax, ay, bx, by)``.  The caller decides intersection first.

    Two segments that do not cross are closest at an end of one of them, and every end of an
    edge is a vertex: each vertex of a against each edge of b, then each vertex of b against
    each edge of a, covers every pair of edges."""
    best = math.inf
    ax = ay = bx = by = 0.0
    for p, q, flip in ((a, b, False), (b, a, True)):
        n = p.shape[0]
        m = q.shape[0]
        for i in range(n):
            px, py = p[i, 0], p[i, 1]
            for j in range(m):
                k = (j + 1) % m
                qx, qy, _ = closest_on_segment(q[j, 0], q[j, 1], q[k, 0], q[k, 1], px, py)
                d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy)
                if d2 < best:
                    best = d2
                    ax, ay, bx, by = (qx, qy, px, py) if flip else (px, py, qx, qy)
    return math.sqrt(best), ax, ay, bx, by


def polygon_distance(a, b):
    """Distance between two simple polygons and their closest points.

    Parameters
    ----------
    a, b : (n, 2) array_like of float
        Simple polygons (not self-crossing, no holes), any winding, convex or concave.

    Returns
    -------
    (distance, point_a, point_b)
        distance in the polygons' units, 0.0 when they share a point (touching within the
        length tolerance, overlapping or one inside the other; the points are then nan);
        otherwise the closest points of a and of b, (2,) float64 each.

    """
    pa = _PolygonInfo(a, 'a')
    pb = _PolygonInfo(b, 'b')
    if polygons_intersect_kernel(pa.poly, pa.orient, pa.convex, pb.poly, pb.orient, pb.convex,
                                 pair_length_tolerance(pa.poly, pb.poly)):
        return 0.0, np.full(2, np.nan), np.full(2, np.nan)
    d, ax, ay, bx, by = polygon_distance_kernel(pa.poly, pb.poly)
    return float(d), np.array([ax, ay]), np.array([bx, by])
