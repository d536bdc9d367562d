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
"""Edge intersection of polylines: MATLAB-style ``polyxpoly`` ([polygons])."""

import numpy as np

from .primitives import length_tolerance, polygon_scale, segment_intersection
from ..constants import FLOAT, INDEX, jit


@jit
def _polyxpoly_kernel(x1, y1, x2, y2, tol, xi, yi, ii, along):
    """Fill the intersections of every segment of line 1 with every segment of line 2.

    Returns the count, or -(needed) when the output buffers are too small.  `along` gets the
    parameter of each point along its segment of line 2 (for MATLAB's ordering); `tol` is the
    length tolerance of both lines.
    """
    cap = xi.shape[0]
    count = 0
    for e in range(x1.shape[0] - 1):
        ax, ay, bx, by = x1[e], y1[e], x1[e + 1], y1[e + 1]
        if not (np.isfinite(ax) and np.isfinite(ay) and np.isfinite(bx) and np.isfinite(by)):
            continue
        for f in range(x2.shape[0] - 1):
            cx, cy, dx, dy = x2[f], y2[f], x2[f + 1], y2[f + 1]
            if not (np.isfinite(cx) and np.isfinite(cy) and np.isfinite(dx)
                    and np.isfinite(dy)):
                continue
            if (max(ax, bx) < min(cx, dx) - tol or max(cx, dx) < min(ax, bx) - tol
                    or max(ay, by) < min(cy, dy) - tol or max(cy, dy) < min(ay, by) - tol):
                continue
            n, px, py, s0, t0, qx, qy, s1, t1 = segment_intersection(
                ax, ay, bx, by, cx, cy, dx, dy, tol)
            if n >= 1:
                if count < cap:
                    xi[count], yi[count], along[count] = px, py, t0
                    ii[count, 0], ii[count, 1] = e, f
                count += 1
            if n == 2:
                if count < cap:
                    xi[count], yi[count], along[count] = qx, qy, t1
                    ii[count, 0], ii[count, 1] = e, f
                count += 1
    return count if count <= cap else -count


def polyxpoly(x1, y1, x2, y2):
    """Intersection points of two polylines, as MATLAB's ``polyxpoly``.

    Parameters
    ----------
    x1, y1 : (n1,) array_like of float
        Vertices of the first polyline; NaN in both separates its parts.  A closed polygon is
        given by repeating its first vertex at the end.
    x2, y2 : (n2,) array_like of float
        The second polyline, the same way.

    Returns
    -------
    xi, yi : (k,) float64 ndarray
        The intersection points.
    ii : (k, 2) intp ndarray
        0-based indices of the intersecting segments: segment ``e`` of a polyline joins its
        vertices ``e`` and ``e + 1`` (a NaN vertex still takes its index, so the segments
        around it exist in the numbering but never intersect).

    Notes
    -----
    Segments intersect when they share a point, endpoints included (touching counts).  A
    collinear overlap of two segments gives the two ends of the shared piece (one point when
    that piece is a single point).  Every segment pair reports its own points, so a point where
    several segments meet appears once per pair, as in MATLAB without its ``'unique'`` flag.
    Rows are ordered as MATLAB orders them: by the segment of the second polyline, then by the
    distance along it, then by the segment of the first.

    """
    x1, y1 = _as_line(x1, y1, 'x1/y1')
    x2, y2 = _as_line(x2, y2, 'x2/y2')
    tol = length_tolerance(max(_line_scale(x1, y1), _line_scale(x2, y2)))
    cap = 16
    while True:
        xi = np.empty(cap, FLOAT)
        yi = np.empty(cap, FLOAT)
        along = np.empty(cap, FLOAT)
        ii = np.empty((cap, 2), INDEX)
        count = _polyxpoly_kernel(x1, y1, x2, y2, tol, xi, yi, ii, along)
        if count >= 0:
            break
        cap = -count
    order = np.lexsort((ii[:count, 0], along[:count], ii[:count, 1]))
    return xi[order], yi[order], ii[order]


def _as_line(x, y, name):
    x = np.ascontiguousarray(x, dtype=FLOAT).ravel()
    y = np.ascontiguousarray(y, dtype=FLOAT).ravel()
    if x.shape != y.shape:
        raise ValueError(f'{name}: x and y differ in length ({x.size} and {y.size})')
    if np.any(np.isnan(x) != np.isnan(y)):
        raise ValueError(f'{name}: NaN separators must appear in x and y at the same places')
    if np.any(np.isinf(x)) or np.any(np.isinf(y)):
        raise ValueError(f'{name}: infinite coordinates')
    return x, y


def _line_scale(x, y):
    """`polygon_scale` of the vertices of a polyline, NaN separators left out (0 for none)."""
    points = np.column_stack((x, y))[~np.isnan(x)]
    return polygon_scale(points) if points.shape[0] else 0.0
