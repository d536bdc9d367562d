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
"""Distance tests of [slides]: point-point, line-point, line-line, segment-segment.

Points are float64 3-vectors (metres).  A line is a point and a direction; a segment its two
end points.
"""

import numpy as np

from .validation import as_vector
from ..kernels.constants import DBL_EPS, jit
from ..kernels.double_double import difference_of_products


@jit
def _dot(ax, ay, az, bx, by, bz):
    return ax * bx + ay * by + az * bz


@jit
def _gap(r, d1, d2, s, t):
    """|p1 + s d1 - p2 - t d2| with r = p1 - p2 (3-tuples)."""
    rx, ry, rz = r
    d1x, d1y, d1z = d1
    d2x, d2y, d2z = d2
    dx = rx + s * d1x - t * d2x
    dy = ry + s * d1y - t * d2y
    dz = rz + s * d1z - t * d2z
    return np.sqrt(dx * dx + dy * dy + dz * dz)


@jit
def _lines_closest(r, d1, d2):
    """Parameters ``(s, t)`` of the closest points p1 + s d1 and p2 + t d2 of two lines, r =
    p1 - p2 and d2 non-zero (3-tuples); ``(nan, nan)`` when d1 x d2 is zero (parallel).

    By Lagrange's identity [slides]' ``s = (b f - c e) / (a e - b^2)`` is
    ``s = n . (d2 x r) / |n|^2`` with n = d1 x d2, each component of n rounded once from
    exact products.  For lines at an angle theta, s then errs by about eps |r| / (|d1| sin
    theta) along line 1, which moves the point's distance to line 2 by eps |r| only; t is
    the projection of that point on line 2, so the points' gap is that distance.  (The dot
    products' form cancels in both numerator and denominator: each parameter errs by eps
    |r| / sin^2 theta on its own, and so does the gap: 49 um for 50 m lines 8e-6 rad apart.)
    """
    rx, ry, rz = r
    d1x, d1y, d1z = d1
    d2x, d2y, d2z = d2
    nx = difference_of_products(d1y, 0.0, d2z, 0.0, d1z, 0.0, d2y, 0.0)
    ny = difference_of_products(d1z, 0.0, d2x, 0.0, d1x, 0.0, d2z, 0.0)
    nz = difference_of_products(d1x, 0.0, d2y, 0.0, d1y, 0.0, d2x, 0.0)
    nn = _dot(nx, ny, nz, nx, ny, nz)
    if nn == 0.0:
        return np.nan, np.nan
    s = _dot(nx, ny, nz, d2y * rz - d2z * ry, d2z * rx - d2x * rz, d2x * ry - d2y * rx) / nn
    t = _dot(rx + s * d1x, ry + s * d1y, rz + s * d1z, d2x, d2y, d2z) / _dot(
        d2x, d2y, d2z, d2x, d2y, d2z)
    return s, t


@jit
def _endpoint_closest(r, d1, d2, dots):
    """The closest of the pairs (endpoint of one segment, its closest point on the other);
    `dots` are ``(a, b, c, e, f)`` of `segment_distance_kernel`."""
    a, b, c, e, f = dots
    best = np.inf
    s = t = 0.0
    for k in range(4):
        if k < 2:
            ss = float(k)
            tt = min(1.0, max(0.0, (b * ss + f) / e))
        else:
            tt = float(k - 2)
            ss = min(1.0, max(0.0, (b * tt - c) / a))
        dist = _gap(r, d1, d2, ss, tt)
        if dist < best:
            best, s, t = dist, ss, tt
    return best, s, t


@jit
def segment_distance_kernel(p1, q1, p2, q2):
    """Closest points of segments p1-q1 and p2-q2: ``(distance, s, t)``.

    The closest points are ``p1 + s (q1 - p1)`` and ``p2 + t (q2 - p2)``.  With
    d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2, a = d1.d1, e = d2.d2, f = d2.r, c = d1.r,
    b = d1.d2, the squared distance ``|r + s d1 - t d2|^2`` is convex in (s, t), and the
    lines' parameters solve ``[a -b; b -e] (s, t) = (-c, -f)`` (`_lines_closest`).  When
    that point lies in [0, 1]^2 it is the answer; otherwise the minimum over the square is
    on its boundary, where s or t is 0 or 1: an endpoint of one segment against the other
    segment, the four candidates of `_endpoint_closest`, each exact (its clamped
    projection).  (This is [slides]' clamping, with the boundary searched whole instead of
    in Ericson's order.)  Parallel segments have no interior solution, and nearly parallel
    ones place it a little off, so the candidates are compared with it too.  Zero-length
    segments degenerate to points.
    """
    d1x, d1y, d1z = q1[0] - p1[0], q1[1] - p1[1], q1[2] - p1[2]
    d2x, d2y, d2z = q2[0] - p2[0], q2[1] - p2[1], q2[2] - p2[2]
    rx, ry, rz = p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]
    a = _dot(d1x, d1y, d1z, d1x, d1y, d1z)
    e = _dot(d2x, d2y, d2z, d2x, d2y, d2z)
    f = _dot(d2x, d2y, d2z, rx, ry, rz)
    tiny = DBL_EPS * DBL_EPS
    if a <= tiny and e <= tiny:
        s = 0.0
        t = 0.0
    elif a <= tiny:
        s = 0.0
        t = min(1.0, max(0.0, f / e))
    else:
        c = _dot(d1x, d1y, d1z, rx, ry, rz)
        if e <= tiny:
            t = 0.0
            s = min(1.0, max(0.0, -c / a))
        else:
            b = _dot(d1x, d1y, d1z, d2x, d2y, d2z)
            ends = _endpoint_closest((rx, ry, rz), (d1x, d1y, d1z), (d2x, d2y, d2z),
                                     (a, b, c, e, f))
            s, t = _lines_closest((rx, ry, rz), (d1x, d1y, d1z), (d2x, d2y, d2z))
            if not (0.0 <= s <= 1.0 and 0.0 <= t <= 1.0):  # parallel lines: nan
                return ends
            dist = _gap((rx, ry, rz), (d1x, d1y, d1z), (d2x, d2y, d2z), s, t)
            # lines nearly parallel place s and t a little off, and the ends may be closer
            return (dist, s, t) if dist <= ends[0] else ends
    return _gap((rx, ry, rz), (d1x, d1y, d1z), (d2x, d2y, d2z), s, t), s, t


def point_distance(p, q):
    """Euclidean distance of two points."""
    return float(np.linalg.norm(as_vector(p, 'p') - as_vector(q, 'q')))


def line_point_distance(p, v, q):
    """Distance from point q to the line through p along v (v need not be unit).

    [slides]: with w = q - p, ``dist = sqrt(w.w - (w.v)^2 / (v.v))``, whose difference
    cancels near the line (errs by sqrt(eps) |w|: 2 um for a point 100 m along); computed as
    ``|w x v| / |v|``, within a few eps |w|.
    """
    p, v, q = as_vector(p, 'p'), as_vector(v, 'v'), as_vector(q, 'q')
    vv = v @ v
    if vv == 0.0:
        raise ValueError('v must be a non-zero direction')
    return float(np.linalg.norm(np.cross(q - p, v)) / np.sqrt(vv))


def line_line_closest(p0, u, q0, v):
    """Closest points of the lines p0 + s u and q0 + t v: ``(distance, P(s_c), Q(t_c))``.

    [slides]' formulas: a = u.u, b = u.v, c = v.v, d = u.w0, e = v.w0 with w0 = p0 - q0,
    ``s_c = (b e - c d) / (a c - b^2)``, ``t_c = (a e - b d) / (a c - b^2)``, computed in
    the form of `_lines_closest`, whose distance stays within a few eps |w0| at any angle.
    Parallel lines (u x v = 0) take s_c = 0 and t_c = e / c.
    """
    p0, u, q0, v = (as_vector(x, n) for x, n in ((p0, 'p0'), (u, 'u'), (q0, 'q0'), (v, 'v')))
    if u @ u == 0.0 or v @ v == 0.0:
        raise ValueError('u and v must be non-zero directions')
    w0 = p0 - q0
    sc, tc = _lines_closest(tuple(w0), tuple(u), tuple(v))
    if sc != sc:  # parallel
        sc, tc = 0.0, (v @ w0) / (v @ v)
    ps, qt = p0 + sc * u, q0 + tc * v
    return float(np.linalg.norm(ps - qt)), ps, qt


def segment_distance(p1, q1, p2, q2):
    """Closest points of the segments p1-q1 and p2-q2.

    Returns
    -------
    distance : float
    c1, c2 : (3,) float64
        The closest points on each segment (one of the pairs when they are not unique, as
        for parallel overlapping segments).

    """
    p1, q1, p2, q2 = (as_vector(x, n) for x, n in ((p1, 'p1'), (q1, 'q1'), (p2, 'p2'),
                                                   (q2, 'q2')))
    dist, s, t = segment_distance_kernel(p1, q1, p2, q2)
    return float(dist), p1 + s * (q1 - p1), p2 + t * (q2 - p2)
