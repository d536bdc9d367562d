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
"""Small numba helpers on 2D points: cross products, orientation, segments.

Conventions: points are float64 pairs ``(x, y)`` in metres.  ``cross(ux, uy, vx, vy)`` is the
z component of u x v, positive when v is counter-clockwise (CCW) from u.  [polygons] writes
``(r_j - r_i)^T [R] (q - p)`` with ``[R]`` a quarter-turn; that is ``cross(q - p, r_j - r_i)``
up to the sign fixed by the polygon orientation.  Segment ``k`` of a polygon joins vertex ``k``
and vertex ``(k + 1) % n``.
"""

import math

from ..constants import DBL_EPS, jit, TOL_FACTOR


@jit
def cross(ux, uy, vx, vy):
    """Return the z component of u x v."""
    return ux * vy - uy * vx


@jit
def norm(x, y):
    """Return |(x, y)|: ``sqrt(x^2 + y^2)`` (one instruction, within an ulp of libm's hypot,
    which costs about ten times as much), hypot only where the squares would underflow or
    overflow."""
    r = math.sqrt(x * x + y * y)
    if 1e-150 < r < 1e150:
        return r
    return math.hypot(x, y)


@jit
def length_tolerance(scale):
    """Return the length below which two points are the same at coordinate magnitude `scale`."""
    return TOL_FACTOR * DBL_EPS * scale


@jit
def box_padding(xmin, ymin, xmax, ymax):
    """Margin added on every side of a body's box: twice the length tolerance of the box.

    With k = TOL_FACTOR * DBL_EPS, box b of largest |coordinate| B_b and extent E_b gets
    2 k (B_b + E_b).  `narrowphase.pair_tolerance` of the widened boxes is at most
    k (max B + max E) (1 + 6 k) < 2 k (B_i + E_i + B_j + E_j), the two margins together: two
    boxes whose bodies are within the pair's tolerance overlap, and touching counts alike in
    the broad and the narrow phase.
    """
    big = max(abs(xmin), abs(ymin), abs(xmax), abs(ymax))
    return 2.0 * length_tolerance(big + max(xmax - xmin, ymax - ymin))


@jit
def polygon_scale(poly):
    """Return max |coordinate| of a (n, 2) array plus its extent: the `scale` of the tolerance."""
    big = 0.0
    xmin = math.inf
    xmax = -math.inf
    ymin = math.inf
    ymax = -math.inf
    for k in range(poly.shape[0]):
        x = poly[k, 0]
        y = poly[k, 1]
        big = max(big, abs(x), abs(y))
        xmin = min(xmin, x)
        xmax = max(xmax, x)
        ymin = min(ymin, y)
        ymax = max(ymax, y)
    return big + max(xmax - xmin, ymax - ymin)


@jit
def pair_length_tolerance(a, b):
    """Return the length tolerance of two polygons ((n, 2) arrays of their vertices): that
    of the larger of their scales (`polygon_scale`).  Every 2D test of a pair takes this
    one, in a world as in the functions on vertex arrays, so that both give one answer."""
    return length_tolerance(max(polygon_scale(a), polygon_scale(b)))


@jit
def signed_area(poly):
    """Return the shoelace area of a closed (n, 2) polygon: > 0 when its vertices run CCW."""
    n = poly.shape[0]
    ox = poly[0, 0]
    oy = poly[0, 1]
    acc = 0.0
    for k in range(1, n - 1):
        acc += cross(poly[k, 0] - ox, poly[k, 1] - oy, poly[k + 1, 0] - ox, poly[k + 1, 1] - oy)
    return 0.5 * acc


@jit
def closest_on_segment(ax, ay, bx, by, px, py):
    """Return (qx, qy, t): the point of segment a-b closest to p and its parameter t in [0, 1]."""
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    t = 0.0
    if ee > 0.0:
        t = min(1.0, max(0.0, ((px - ax) * ex + (py - ay) * ey) / ee))
    return ax + t * ex, ay + t * ey, t


@jit
def point_on_segment(ax, ay, bx, by, px, py, tol):
    """Return True when p lies within `tol` of the closed segment a-b (its distance to the
    segment's closest point, however short the segment)."""
    t = closest_on_segment(ax, ay, bx, by, px, py)[2]
    dx = px - ax - t * (bx - ax)
    dy = py - ay - t * (by - ay)
    return dx * dx + dy * dy <= tol * tol


@jit
def segment_intersection(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y, tol):
    """Intersect the closed segments p1-p2 and q1-q2.

    Returns ``(count, x0, y0, s0, t0, x1, y1, s1, t1)``: ``count`` is 0 (disjoint), 1 (one
    point) or 2 (collinear overlap, the two ends of the shared piece).  ``s`` and ``t`` are the
    parameters of each point along p (``p1 + s (p2 - p1)``) and q.  Segments within `tol` of
    each other intersect (touching counts): they cross, or an endpoint lies within `tol` of
    the other segment.  The arithmetic runs relative to p1.

    Notes
    -----
    With d_i the signed distances of the endpoints of one segment from the line of the other,
    the segments cross when each pair straddles the other's line; the crossing parameter along
    p is d(p1) / (d(p1) - d(p2)), the d_i formula of [polygons] in a form that stays finite.

    """
    ox = p1x
    oy = p1y
    ax, ay = 0.0, 0.0
    bx, by = p2x - ox, p2y - oy
    cx, cy = q1x - ox, q1y - oy
    dx, dy = q2x - ox, q2y - oy
    ex, ey = bx - ax, by - ay
    fx, fy = dx - cx, dy - cy
    le = norm(ex, ey)
    lf = norm(fx, fy)
    # signed distances (times the length of the reference segment)
    dc = cross(ex, ey, cx - ax, cy - ay)
    dd = cross(ex, ey, dx - ax, dy - ay)
    da = cross(fx, fy, ax - cx, ay - cy)
    db = cross(fx, fy, bx - cx, by - cy)
    sc = 0 if abs(dc) <= tol * le else (1 if dc > 0 else -1)
    sd = 0 if abs(dd) <= tol * le else (1 if dd > 0 else -1)
    sa = 0 if abs(da) <= tol * lf else (1 if da > 0 else -1)
    sb = 0 if abs(db) <= tol * lf else (1 if db > 0 else -1)
    nan = math.nan
    if sc == 0 and sd == 0 and le > tol and lf > tol:
        # Collinear within tolerance: where the projections on p's direction overlap, each
        # point of q is within tol of p.  Ends apart along the line are measured below.
        ux = ex / le
        uy = ey / le
        tc = (cx * ux + cy * uy) / le
        td = (dx * ux + dy * uy) / le
        lo = max(0.0, min(tc, td))
        hi = min(1.0, max(tc, td))
        if lo <= hi:
            # parameters along q of the two ends (q across p's line: any of its points)
            span = td - tc
            t_lo = (lo - tc) / span if span != 0.0 else 0.0
            t_hi = (hi - tc) / span if span != 0.0 else 0.0
            ends = (p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)
            slack = tol / le
            x0, y0 = _endpoint_or_interior(lo, t_lo, ends, slack, tol / lf)
            if (hi - lo) * le <= tol:
                return 1, x0, y0, lo, min(1.0, max(0.0, t_lo)), nan, nan, nan, nan
            x1, y1 = _endpoint_or_interior(hi, t_hi, ends, slack, tol / lf)
            return (2, x0, y0, lo, min(1.0, max(0.0, t_lo)), x1, y1, hi,
                    min(1.0, max(0.0, t_hi)))
    if sc * sd > 0 or sa * sb > 0:
        return 0, nan, nan, nan, nan, nan, nan, nan, nan
    # An endpoint within tol of the other segment touches it there (snapped exactly).  Its
    # distance to the segment decides, not to the line: near a corner each end can lie
    # within tol of the other's line while the segments are farther apart than tol.  The
    # test is `point_on_segment` on the given coordinates, as point-in-polygon runs it.  A
    # segment no longer than tol (collinear or not) touches the other exactly when one of
    # the four ends does: crossing it, each of its ends is within its length of the crossing.
    if sa == 0 and point_on_segment(q1x, q1y, q2x, q2y, p1x, p1y, tol):
        t = closest_on_segment(cx, cy, dx, dy, ax, ay)[2]
        return 1, p1x, p1y, 0.0, t, nan, nan, nan, nan
    if sb == 0 and point_on_segment(q1x, q1y, q2x, q2y, p2x, p2y, tol):
        t = closest_on_segment(cx, cy, dx, dy, bx, by)[2]
        return 1, p2x, p2y, 1.0, t, nan, nan, nan, nan
    if sc == 0 and point_on_segment(p1x, p1y, p2x, p2y, q1x, q1y, tol):
        s = closest_on_segment(ax, ay, bx, by, cx, cy)[2]
        return 1, q1x, q1y, s, 0.0, nan, nan, nan, nan
    if sd == 0 and point_on_segment(p1x, p1y, p2x, p2y, q2x, q2y, tol):
        s = closest_on_segment(ax, ay, bx, by, dx, dy)[2]
        return 1, q2x, q2y, s, 1.0, nan, nan, nan, nan
    # No end touches: the segments meet only where each strictly straddles the other's line
    if not (_opposite(da, db) and _opposite(dc, dd)):
        return 0, nan, nan, nan, nan, nan, nan, nan, nan
    s = da / (da - db)
    t = dc / (dc - dd)
    return 1, ox + s * ex, oy + s * ey, s, t, nan, nan, nan, nan


@jit
def _opposite(u, v):
    """u and v are non-zero and of opposite signs."""
    return (u < 0.0 < v) or (v < 0.0 < u)


@jit
def _endpoint_or_interior(s, t, ends, slack_p, slack_q):
    """Return the point at parameter s of p, snapped to an endpoint of p or q when it is one;
    ``ends = (p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)``."""
    p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y = ends
    if s <= slack_p:
        return p1x, p1y
    if s >= 1.0 - slack_p:
        return p2x, p2y
    if t <= slack_q:
        return q1x, q1y
    if t >= 1.0 - slack_q:
        return q2x, q2y
    return p1x + s * (p2x - p1x), p1y + s * (p2y - p1y)


@jit
def centroid(poly):
    """Return the area centroid (cx, cy) of a simple (n, 2) polygon."""
    n = poly.shape[0]
    ox = poly[0, 0]
    oy = poly[0, 1]
    area2 = 0.0
    sx = 0.0
    sy = 0.0
    for k in range(1, n - 1):
        ux = poly[k, 0] - ox
        uy = poly[k, 1] - oy
        vx = poly[k + 1, 0] - ox
        vy = poly[k + 1, 1] - oy
        c = cross(ux, uy, vx, vy)
        area2 += c
        sx += c * (ux + vx)
        sy += c * (uy + vy)
    if area2 == 0.0:
        return ox, oy
    return ox + sx / (3.0 * area2), oy + sy / (3.0 * area2)


@jit
def outward_normal(poly, orientation, k):
    """Return the outward unit normal (nx, ny) of edge k of a polygon of the given orientation.

    For a CCW polygon (orientation +1) the outward normal of edge e = (ex, ey) is (ey, -ex)/|e|.
    """
    n = poly.shape[0]
    j = k + 1 if k + 1 < n else 0
    ex = poly[j, 0] - poly[k, 0]
    ey = poly[j, 1] - poly[k, 1]
    le = norm(ex, ey)
    return orientation * ey / le, -orientation * ex / le
