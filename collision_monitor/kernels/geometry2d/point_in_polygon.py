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
"""Point in polygon: the convex edge-side test and ray casting ([polygons])."""

import numpy as np

from .primitives import (cross, length_tolerance, norm, point_on_segment, polygon_scale,
                         signed_area)
from .validation import as_points, as_polygon
from ..constants import jit


@jit
def point_in_convex_kernel(px, py, poly, orientation, tol):
    """Return True when p is inside or on the convex polygon `poly`.

    `orientation` is +1 for CCW vertices and -1 for CW.  Inside means on the inner side of every
    edge line, ``orientation * cross(q - p_k, p - p_k) >= -tol |q - p_k|``; the loop stops at the
    first edge that has the point outside ([polygons]' early exit).
    """
    n = poly.shape[0]
    for k in range(n):
        ax = poly[k, 0]
        ay = poly[k, 1]
        j = k + 1 if k + 1 < n else 0
        ex = poly[j, 0] - ax
        ey = poly[j, 1] - ay
        c = orientation * cross(ex, ey, px - ax, py - ay)
        if c < 0.0 and c < -tol * norm(ex, ey):  # the length only where it can matter
            return False
    return True


@jit
def point_in_polygon_kernel(px, py, poly, tol):
    """Ray casting along +x with a boundary check; any winding, concave allowed.

    Returns ``(inside, on_boundary)``; `inside` is True on the boundary too (MATLAB
    ``inpolygon``).  An edge a-b counts as crossed when it straddles the ray's line with the
    half-open rule ``(a_y > p_y) != (b_y > p_y)``, so a ray through a vertex counts it once, and
    its crossing abscissa lies right of p.
    """
    n = poly.shape[0]
    inside = False
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        ax = poly[k, 0]
        ay = poly[k, 1]
        bx = poly[j, 0]
        by = poly[j, 1]
        if point_on_segment(ax, ay, bx, by, px, py, tol):
            return True, True
        if (ay > py) != (by > py):
            # abscissa of the edge at the ray's height, compared without division sign traps
            xc = ax + (py - ay) * (bx - ax) / (by - ay)
            if px < xc:
                inside = not inside
    return inside, False


@jit
def _points_in_convex(points, poly, orientation, out):
    tol = length_tolerance(polygon_scale(poly))
    for i in range(points.shape[0]):
        out[i] = point_in_convex_kernel(points[i, 0], points[i, 1], poly, orientation, tol)


@jit
def _points_in_polygon(points, poly, inside, on_boundary):
    tol = length_tolerance(polygon_scale(poly))
    for i in range(points.shape[0]):
        inside[i], on_boundary[i] = point_in_polygon_kernel(points[i, 0], points[i, 1], poly, tol)


def point_in_convex_polygon(points, polygon):
    """Test which points lie in a convex polygon (boundary included).

    Parameters
    ----------
    points : (m, 2) array_like of float
        Query points, metres.
    polygon : (n, 2) array_like of float
        A convex polygon, CW or CCW, not closed (a repeated first vertex is dropped).

    Returns
    -------
    (m,) bool ndarray
        True where the point is inside or on the boundary.

    Notes
    -----
    The edge-side test of [polygons]: a point is inside when it is on the inner side of every
    edge; the scan over edges stops at the first edge that has it outside.  The result is only
    meaningful for convex polygons (see `point_in_polygon` for any simple polygon).

    """
    pts = as_points(points)
    poly = as_polygon(polygon)
    out = np.empty(pts.shape[0], dtype=np.bool_)
    orientation = 1.0 if signed_area(poly) > 0 else -1.0
    _points_in_convex(pts, poly, orientation, out)
    return out


def point_in_polygon(points, polygon):
    """Ray-casting point in polygon for any simple polygon, with boundary detection.

    Parameters
    ----------
    points : (m, 2) array_like of float
        The points to test.
    polygon : (n, 2) array_like of float
        Any simple polygon, CW or CCW, convex or concave.

    Returns
    -------
    inside : (m,) bool ndarray
        True inside or on the boundary, as MATLAB ``inpolygon`` returns ``in``.
    on_boundary : (m,) bool ndarray
        True within the length tolerance of an edge (see `collision_monitor.kernels.constants`).

    """
    pts = as_points(points)
    poly = as_polygon(polygon)
    inside = np.empty(pts.shape[0], dtype=np.bool_)
    on_boundary = np.empty(pts.shape[0], dtype=np.bool_)
    _points_in_polygon(pts, poly, inside, on_boundary)
    return inside, on_boundary
