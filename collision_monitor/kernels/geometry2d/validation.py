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
"""Input checks done once at the boundary: array casting and footprint validation.

Kernels trust their inputs; everything that comes from a user goes through here first.
"""

import numpy as np

from .primitives import (cross, length_tolerance, polygon_scale, segment_intersection,
                         signed_area)
from ..constants import FLOAT, jit, MAX_COORDINATE


def as_points(points, name='points'):
    """Return `points` as a C-contiguous (m, 2) float64 array, or raise ValueError."""
    arr = np.ascontiguousarray(points, dtype=FLOAT)
    if arr.ndim == 1 and arr.shape[0] == 2:
        arr = arr.reshape(1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f'{name} must have shape (m, 2), got {np.shape(points)}')
    return arr


def as_polygon(polygon, name='polygon'):
    """Return a polygon as a (n, 2) float64 array with no repeated closing vertex.

    Raises ValueError for a wrong shape, fewer than 3 vertices or non-finite coordinates.  Only
    the cast and these cheap checks: use `validate_footprint` for simplicity and area.
    """
    arr = as_points(polygon, name)
    if arr.shape[0] > 3 and np.array_equal(arr[0], arr[-1]):
        arr = np.ascontiguousarray(arr[:-1])
    if arr.shape[0] < 3:
        raise ValueError(f'{name} needs at least 3 vertices, got {arr.shape[0]}')
    if not np.all(np.isfinite(arr)):
        raise ValueError(f'{name} has non-finite coordinates')
    return arr


@jit
def rows_finite_extent(rows):
    """For (k, 3) pose-like rows: ``(all finite, largest |column 0| or |column 1|)`` in one
    pass without branches (numpy's abs of a column slice costs ten times more at 10,000
    rows).  ``v * 0.0`` is 0 for a finite v and NaN for an infinite or NaN one, so the rows
    are all finite exactly when the sum of those products is 0.  The extent is meaningful
    only when they are."""
    zero = 0.0
    extent = 0.0
    for r in range(rows.shape[0]):
        x = abs(rows[r, 0])
        y = abs(rows[r, 1])
        zero += x * 0.0 + y * 0.0 + rows[r, 2] * 0.0  # no sum of values: it could overflow
        m = x if x > y else y
        extent = m if m > extent else extent
    return zero == 0.0, extent


@jit
def footprint_defect(poly):
    """Return ``(code, i, j)`` describing the first defect of a polygon, or ``(0, -1, -1)``.

    Codes: 1 vertices i and i+1 coincide (zero-length edge), 2 zero area, 3 edges i and j
    cross or touch (self-crossing; for adjacent edges: they fold back on each other),
    4 fewer than 3 distinct vertices.
    """
    n = poly.shape[0]
    tol = length_tolerance(polygon_scale(poly))
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if abs(poly[j, 0] - poly[i, 0]) <= tol and abs(poly[j, 1] - poly[i, 1]) <= tol:
            return 1, i, j
    distinct = 1
    for i in range(1, n):
        seen = False
        for k in range(i):
            if abs(poly[k, 0] - poly[i, 0]) <= tol and abs(poly[k, 1] - poly[i, 1]) <= tol:
                seen = True
                break
        if not seen:
            distinct += 1
    if distinct < 3:
        return 4, -1, -1
    # non-adjacent edges first, so a bow tie reads as crossing rather than as zero area
    for adjacent_pass in (False, True):
        if adjacent_pass:
            extent = max(poly[:, 0].max() - poly[:, 0].min(),
                         poly[:, 1].max() - poly[:, 1].min())
            if abs(signed_area(poly)) <= tol * extent:
                return 2, -1, -1
        for i in range(n):
            i1 = i + 1 if i + 1 < n else 0
            for j in range(i + 1, n):
                j1 = j + 1 if j + 1 < n else 0
                if (j == i1 or j1 == i) != adjacent_pass:
                    continue
                count = segment_intersection(
                    poly[i, 0], poly[i, 1], poly[i1, 0], poly[i1, 1],
                    poly[j, 0], poly[j, 1], poly[j1, 0], poly[j1, 1], tol)[0]
                # adjacent edges share a vertex; they are defective only when they overlap
                if count == 2 or (count == 1 and not adjacent_pass):
                    return 3, i, j
    return 0, -1, -1


@jit
def is_convex_kernel(poly, orientation, tol):
    """Return True when every corner of a simple polygon turns the way of `orientation`."""
    n = poly.shape[0]
    for k in range(n):
        a = k - 1 if k > 0 else n - 1
        b = k + 1 if k + 1 < n else 0
        ex = poly[k, 0] - poly[a, 0]
        ey = poly[k, 1] - poly[a, 1]
        fx = poly[b, 0] - poly[k, 0]
        fy = poly[b, 1] - poly[k, 1]
        if orientation * cross(ex, ey, fx, fy) < -tol * (abs(ex) + abs(ey) + abs(fx) + abs(fy)):
            return False
    return True


_DEFECTS = {
    1: 'vertices {i} and {j} coincide (zero-length edge)',
    2: 'it has zero area',
    3: 'it crosses itself (edges {i} and {j} meet)',
    4: 'it has fewer than 3 distinct vertices',
}


def validate_footprint(polygon, name='footprint'):
    """Return a valid simple polygon as (n, 2) float64, or raise ValueError naming the defect.

    Accepts CW or CCW, convex or concave, closed (last vertex repeating the first) or open.
    Rejects non-finite coordinates, coordinates beyond `constants.MAX_COORDINATE`, fewer than
    3 distinct vertices, zero-length edges, zero area and self-crossing (including edges that
    fold back on their neighbour).
    """
    poly = as_polygon(polygon, name)
    if np.abs(poly).max() > MAX_COORDINATE:
        raise ValueError(f'{name}: vertices beyond +-{MAX_COORDINATE:g} m are not supported')
    code, i, j = footprint_defect(poly)
    if code:
        raise ValueError(f'{name} is not a simple polygon: ' + _DEFECTS[code].format(i=i, j=j))
    return poly


def polygon_orientation(poly):
    """Return +1.0 for a CCW polygon and -1.0 for a CW one."""
    return 1.0 if signed_area(poly) > 0.0 else -1.0


def is_convex(poly):
    """Return True when the simple polygon `poly` is convex (collinear vertices allowed);
    open or closed (a last vertex repeating the first is dropped: its zero-length edge
    would hide the turn at the first vertex)."""
    poly = as_polygon(poly)
    return bool(is_convex_kernel(poly, polygon_orientation(poly),
                                 length_tolerance(polygon_scale(poly))))
