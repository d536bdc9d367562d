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
"""GJK distance between convex hulls of point sets ([slides]' narrow phase).

The Minkowski difference A - B (the configuration space obstacle, CSO) holds the origin iff
the hulls intersect, and its point closest to the origin is the difference of the closest
points.  GJK walks simplices of support points ``s(d) = a(d) - b(-d)`` toward that point; the
closest point of each simplex (segment, triangle, tetrahedron) to the origin comes from its
Voronoi regions (Ericson, Real-Time Collision Detection, 5.1), with barycentric weights that
carry over to the witness points on A and B.
"""

import numpy as np

from .validation import as_points3
from ..kernels.constants import DBL_EPS, jit, jit_inline
from ..kernels.double_double import difference_of_products, two_sum
from ..kernels.threads import call_parallel

MAX_ITER = 128
FLAT = 64.0 * DBL_EPS
"""Relative volume below which a simplex tetrahedron counts as flat (`origin_outside`)."""


@jit
def _support(points, dx, dy, dz):
    best = -np.inf
    k = 0
    for i in range(points.shape[0]):
        d = points[i, 0] * dx + points[i, 1] * dy + points[i, 2] * dz
        if d > best:
            best = d
            k = i
    return k


@jit
def closest_triangle(w, a, b, c, supports=None):
    """Barycentric weights of the point of triangle w[a] w[b] w[c] closest to the origin.

    Ericson's Voronoi-region walk (RTCD 5.1.5) with the query point at the origin, in
    scalars: no temporary arrays.  Its three areas (the origin's barycentric coordinates in
    the triangle's plane times |n|^2, n = ab x ac) are differences of products of the dot
    products d1..d6, which round at eps |w|^4.  Nanometres from a long, nearly flat stretch
    of the Minkowski difference that rounding can put the origin's projection beyond an edge
    it lies inside.  Given ``supports = (va, vb, ia, ib)`` (w[k] = va[ia[k]] - vb[ib[k]]),
    the areas are n . (w_a x w_b) and its turns instead, each cross product from
    `_cross_exact`; without it numba compiles the walk with the cheap areas alone.  A
    triangle flat to rounding (|n| <= 64 eps |ab| |ac|, as in `origin_outside`) is a
    segment: its point is the nearest of its edges' (`nearest_edge`), not the face's,
    whose weights divide by rounding.
    """
    abx, aby, abz = w[b, 0] - w[a, 0], w[b, 1] - w[a, 1], w[b, 2] - w[a, 2]
    acx, acy, acz = w[c, 0] - w[a, 0], w[c, 1] - w[a, 1], w[c, 2] - w[a, 2]
    d1 = -(abx * w[a, 0] + aby * w[a, 1] + abz * w[a, 2])
    d2 = -(acx * w[a, 0] + acy * w[a, 1] + acz * w[a, 2])
    if d1 <= 0.0 and d2 <= 0.0:
        return 1.0, 0.0, 0.0
    d3 = -(abx * w[b, 0] + aby * w[b, 1] + abz * w[b, 2])
    d4 = -(acx * w[b, 0] + acy * w[b, 1] + acz * w[b, 2])
    if d3 >= 0.0 and d4 <= d3:
        return 0.0, 1.0, 0.0
    nx = aby * acz - abz * acy
    ny = abz * acx - abx * acz
    nz = abx * acy - aby * acx
    vc = d1 * d4 - d3 * d2 if supports is None else _area(nx, ny, nz, supports, a, b)
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        v = d1 / (d1 - d3)
        return 1.0 - v, v, 0.0
    d5 = -(abx * w[c, 0] + aby * w[c, 1] + abz * w[c, 2])
    d6 = -(acx * w[c, 0] + acy * w[c, 1] + acz * w[c, 2])
    if d6 >= 0.0 and d5 <= d6:
        return 0.0, 0.0, 1.0
    ub = d5 * d2 - d1 * d6 if supports is None else _area(nx, ny, nz, supports, c, a)
    if ub <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        return 1.0 - t, 0.0, t
    ua = d3 * d6 - d5 * d4 if supports is None else _area(nx, ny, nz, supports, b, c)
    if ua <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return 0.0, 1.0 - t, t
    if nx * nx + ny * ny + nz * nz <= FLAT * FLAT * (
            (abx * abx + aby * aby + abz * abz) * (acx * acx + acy * acy + acz * acz)):
        return nearest_edge(w, a, b, c)
    denom = 1.0 / (ua + ub + vc)
    return ua * denom, ub * denom, vc * denom


@jit_inline
def _segment_weight(w, p, q):
    """t in [0, 1] of the point w[p] + t (w[q] - w[p]) of a segment nearest the origin."""
    ex, ey, ez = w[q, 0] - w[p, 0], w[q, 1] - w[p, 1], w[q, 2] - w[p, 2]
    t = -(w[p, 0] * ex + w[p, 1] * ey + w[p, 2] * ez) / max(ex * ex + ey * ey + ez * ez,
                                                            1e-300)
    return min(1.0, max(0.0, t))


@jit
def nearest_edge(w, a, b, c):
    """Barycentric weights of the point nearest the origin on the edges of triangle w[a]
    w[b] w[c]: the triangle's nearest point when it is flat to rounding (a segment), where
    the face weights divide by its area squared, which is rounding."""
    best = np.inf
    l0 = l1 = l2 = 0.0
    for e in range(3):
        p, q = (a, b) if e == 0 else ((b, c) if e == 1 else (c, a))
        t = _segment_weight(w, p, q)
        x = w[p, 0] + t * (w[q, 0] - w[p, 0])
        y = w[p, 1] + t * (w[q, 1] - w[p, 1])
        z = w[p, 2] + t * (w[q, 2] - w[p, 2])
        dist = x * x + y * y + z * z
        if dist < best:
            best = dist
            l0, l1, l2 = (1.0 - t, t, 0.0) if e == 0 else (
                (0.0, 1.0 - t, t) if e == 1 else (t, 0.0, 1.0 - t))
    return l0, l1, l2


@jit
def _cross_exact(va, vb, ia, ib, p, q):
    """w_p x w_q for support points w_k = va[ia[k]] - vb[ib[k]], each component rounded once
    from double-double arithmetic on the exact differences of the vertices."""
    px, pxl = two_sum(va[ia[p], 0], -vb[ib[p], 0])
    py, pyl = two_sum(va[ia[p], 1], -vb[ib[p], 1])
    pz, pzl = two_sum(va[ia[p], 2], -vb[ib[p], 2])
    qx, qxl = two_sum(va[ia[q], 0], -vb[ib[q], 0])
    qy, qyl = two_sum(va[ia[q], 1], -vb[ib[q], 1])
    qz, qzl = two_sum(va[ia[q], 2], -vb[ib[q], 2])
    return (difference_of_products(py, pyl, qz, qzl, pz, pzl, qy, qyl),
            difference_of_products(pz, pzl, qx, qxl, px, pxl, qz, qzl),
            difference_of_products(px, pxl, qy, qyl, py, pyl, qx, qxl))


@jit
def _area(nx, ny, nz, supports, p, q):
    """n . (w_p x w_q), the cross product from `_cross_exact`."""
    x, y, z = _cross_exact(*supports, p, q)
    return nx * x + ny * y + nz * z


@jit
def on_line_exact(w, supports):
    """The origin's projection onto the line through support points w[0] and w[1], to a
    relative error of a few eps: ``e x (w0 x w1) / |e|^2`` with e = w1 - w0 and w0 x w1
    from `_cross_exact` (w0 x w1 = w0 x e, of size |v| |e|; e's rounding moves the result
    by eps |v|).

    The barycentric sum w0 + t e carries an error of eps |w|, which turns the search
    direction by eps |w| / |v|: nanometres from a long, nearly flat stretch of the Minkowski
    difference, the supports along it can be points of the segment again.
    """
    cx, cy, cz = _cross_exact(*supports, 0, 1)
    ex, ey, ez = w[1, 0] - w[0, 0], w[1, 1] - w[0, 1], w[1, 2] - w[0, 2]
    ee = ex * ex + ey * ey + ez * ez
    return (ey * cz - ez * cy) / ee, (ez * cx - ex * cz) / ee, (ex * cy - ey * cx) / ee


@jit
def _on_normal(w):
    """The origin's projection onto the plane of triangle w[0] w[1] w[2]: ``(n . w0) n`` for
    the unit normal n = (w1 - w0) x (w2 - w0) / |...|.

    That projection is the closest point of a triangle holding it inside (never flat to
    rounding: `closest_triangle` gives a flat one's point on an edge), which the
    barycentric sum gives in exact arithmetic.  In floating point the sum carries an error
    of eps |w|, which turns the search direction by eps |w| / |v|: for hulls tens of metres
    long nanometres apart, 1e-6 rad, enough to pick supports on the wrong side of a long
    face.  The normal is a cross product of edges, right to eps whatever |v|.
    """
    abx, aby, abz = w[1, 0] - w[0, 0], w[1, 1] - w[0, 1], w[1, 2] - w[0, 2]
    acx, acy, acz = w[2, 0] - w[0, 0], w[2, 1] - w[0, 1], w[2, 2] - w[0, 2]
    nx = aby * acz - abz * acy
    ny = abz * acx - abx * acz
    nz = abx * acy - aby * acx
    h = (nx * w[0, 0] + ny * w[0, 1] + nz * w[0, 2]) / (nx * nx + ny * ny + nz * nz)
    return h * nx, h * ny, h * nz


@jit
def closest_tetrahedron(w, supports=None):
    """``(inside, l0, l1, l2, l3)``: whether the origin is inside tetrahedron w[0..3], else
    the barycentric weights of its point closest to the origin (on the nearest of the faces
    that the origin lies beyond)."""
    best = np.inf
    l0 = l1 = l2 = l3 = 0.0
    inside = True
    for f in range(4):
        a, b, c, d = (0, 1, 2, 3) if f == 0 else (
            (0, 1, 3, 2) if f == 1 else ((0, 2, 3, 1) if f == 2 else (1, 2, 3, 0)))
        if not origin_outside(w, a, b, c, d):
            continue
        inside = False
        u0, u1, u2 = closest_triangle(w, a, b, c, supports)
        qx = u0 * w[a, 0] + u1 * w[b, 0] + u2 * w[c, 0]
        qy = u0 * w[a, 1] + u1 * w[b, 1] + u2 * w[c, 1]
        qz = u0 * w[a, 2] + u1 * w[b, 2] + u2 * w[c, 2]
        dist = qx * qx + qy * qy + qz * qz
        if dist < best:
            best = dist
            weights = [0.0, 0.0, 0.0, 0.0]
            weights[a] = u0
            weights[b] = u1
            weights[c] = u2
            l0, l1, l2, l3 = weights[0], weights[1], weights[2], weights[3]
    return inside, l0, l1, l2, l3


@jit
def origin_outside(w, a, b, c, d):
    """True unless the origin lies strictly on d's side of plane w[a] w[b] w[c].

    A flat tetrahedron, d within rounding of the plane (``|(d - a) . (ab x ac)| <= 64 eps
    |d - a| |ab| |ac|``), counts every face as a candidate, so the closest face is searched
    instead of declaring an intersection: d's side is then rounding noise.  Four support
    points a_i - b_j, a_i - b_l, a_k - b_j, a_k - b_l form such a parallelogram exactly.
    """
    abx, aby, abz = w[b, 0] - w[a, 0], w[b, 1] - w[a, 1], w[b, 2] - w[a, 2]
    acx, acy, acz = w[c, 0] - w[a, 0], w[c, 1] - w[a, 1], w[c, 2] - w[a, 2]
    adx, ady, adz = w[d, 0] - w[a, 0], w[d, 1] - w[a, 1], w[d, 2] - w[a, 2]
    nx = aby * acz - abz * acy
    ny = abz * acx - abx * acz
    nz = abx * acy - aby * acx
    so = -(w[a, 0] * nx + w[a, 1] * ny + w[a, 2] * nz)
    sd = adx * nx + ady * ny + adz * nz
    flat = sd * sd <= FLAT * FLAT * ((adx * adx + ady * ady + adz * adz)
                                     * (abx * abx + aby * aby + abz * abz)
                                     * (acx * acx + acy * acy + acz * acz))
    return flat or so * sd <= 0.0


@jit
def hull_tolerance(va, vb):
    """Length tolerance of a pair of point sets: 64 eps (max |coordinate| + extent).

    nan when any coordinate is not finite (the wrappers turn that into a ValueError).
    """
    big = 0.0
    ext = 0.0
    for pts in (va, vb):
        for k in range(3):
            lo = np.inf
            hi = -np.inf
            for i in range(pts.shape[0]):
                x = pts[i, k]
                if not np.isfinite(x):
                    return np.nan
                big = max(big, abs(x))
                lo = min(lo, x)
                hi = max(hi, x)
            ext = max(ext, hi - lo)
    return 64.0 * DBL_EPS * (big + ext)


@jit
def gjk_kernel(va, vb):
    """Distance of the hulls of va and vb: ``(distance, pax, pay, paz, pbx, pby, pbz, hit)``.

    Scalars only: returning arrays to Python would cost more than the whole search.

    The simplex (at most 4 support points, their vertex indices in a and b, and their
    barycentric weights) lives in four small arrays allocated once per call; every iteration
    works in scalars.

    Near a long, nearly flat stretch of the Minkowski difference (long faces nearly parallel
    and nanometres apart) the rounding of the simplex's closest point v turns the search
    direction by eps |w| / |v|, and supports on the wrong side of the flat stretch end the
    search far from converged.  So a triangle's point is its plane's (`_on_normal`); a
    support point dropped at once is weighed again with exact areas (`closest_triangle`);
    and the first segment that makes no progress gets its point exact (`on_line_exact`)
    rather than ending the search (in 3,500 near-flat searches none needed a second).  Only
    the first costs anything on the common path.
    """
    tol = hull_tolerance(va, vb)
    if not tol == tol:
        return np.nan, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    w = np.empty((4, 3))
    ia = np.empty(4, np.intp)
    ib = np.empty(4, np.intp)
    lam = np.empty(4)
    ia[0] = 0
    ib[0] = 0
    for k in range(3):
        w[0, k] = va[0, k] - vb[0, k]
    lam[0] = 1.0
    n = 1
    vx, vy, vz = w[0, 0], w[0, 1], w[0, 2]
    inside = False
    exact_line = False
    for _ in range(MAX_ITER):
        vv = vx * vx + vy * vy + vz * vz
        if vv <= tol * tol:
            break
        ka = _support(va, -vx, -vy, -vz)
        kb = _support(vb, vx, vy, vz)
        nx = va[ka, 0] - vb[kb, 0]
        ny = va[ka, 1] - vb[kb, 1]
        nz = va[ka, 2] - vb[kb, 2]
        # converged: the new support point brings nothing closer along v
        if vv - (vx * nx + vy * ny + vz * nz) <= 1e-12 * vv + tol * np.sqrt(vv):
            break
        duplicate = False
        for k in range(n):
            if ia[k] == ka and ib[k] == kb:
                duplicate = True
        if duplicate:  # no progress in floating point: see below
            if n != 2 or exact_line:
                break
            vx, vy, vz = on_line_exact(w, (va, vb, ia, ib))
            exact_line = True
            continue
        ia[n] = ka
        ib[n] = kb
        w[n, 0] = nx
        w[n, 1] = ny
        w[n, 2] = nz
        n += 1
        # barycentric weights of the simplex point closest to the origin
        if n == 2:
            t = _segment_weight(w, 0, 1)
            lam[0] = 1.0 - t
            lam[1] = t
        elif n == 3:
            lam[0], lam[1], lam[2] = closest_triangle(w, 0, 1, 2)
        else:
            inside, lam[0], lam[1], lam[2], lam[3] = closest_tetrahedron(w)
            if inside:
                break
        # In exact arithmetic a new support point past the progress test holds weight in
        # the new closest point: dropped, it was rounding.  Once more with exact areas.
        stalled = lam[n - 1] <= 0.0
        if stalled and n > 2:
            if n == 3:
                lam[0], lam[1], lam[2] = closest_triangle(w, 0, 1, 2, (va, vb, ia, ib))
            else:
                inside, lam[0], lam[1], lam[2], lam[3] = closest_tetrahedron(
                    w, (va, vb, ia, ib))
                if inside:
                    break
            stalled = lam[n - 1] <= 0.0
        # keep only the support of the closest point, in place
        m = 0
        vx = vy = vz = 0.0
        for k in range(n):
            if lam[k] > 0.0:
                ia[m] = ia[k]
                ib[m] = ib[k]
                lam[m] = lam[k]
                for c in range(3):
                    w[m, c] = w[k, c]
                vx += lam[m] * w[m, 0]
                vy += lam[m] * w[m, 1]
                vz += lam[m] * w[m, 2]
                m += 1
        n = m
        if n == 3:
            vx, vy, vz = _on_normal(w)
        # No progress in floating point (a support dropped, or one already held).  A
        # segment's v can point the wrong way by rounding: once per search it is taken
        # exact, else the search stops.
        if stalled:
            if n != 2 or exact_line:
                break
            vx, vy, vz = on_line_exact(w, (va, vb, ia, ib))
            exact_line = True
    if inside:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, True
    pax = pay = paz = pbx = pby = pbz = 0.0
    for k in range(n):
        pax += lam[k] * va[ia[k], 0]
        pay += lam[k] * va[ia[k], 1]
        paz += lam[k] * va[ia[k], 2]
        pbx += lam[k] * vb[ib[k], 0]
        pby += lam[k] * vb[ib[k], 1]
        pbz += lam[k] * vb[ib[k], 2]
    dist = np.sqrt(vx * vx + vy * vy + vz * vz)
    return dist, pax, pay, paz, pbx, pby, pbz, dist <= tol


@jit
def gjk_into(va, vb, pa, pb):
    """`gjk_kernel` with the closest points written to pa and pb (3,): returns the distance,
    0.0 when the hulls intersect, nan for non-finite input.  One number back instead of
    eight: for a single prepared query the call costs as much as the search."""
    d, pa[0], pa[1], pa[2], pb[0], pb[1], pb[2], hit = gjk_kernel(va, vb)
    return 0.0 if hit else d


@jit
def _gjk_batch(va, vb, dist, pa, pb):
    for p in range(va.shape[0]):
        dist[p] = gjk_into(va[p], vb[p], pa[p], pb[p])


def gjk_distance(va, vb):
    """Distance between the convex hulls of two point sets, with the closest points.

    Parameters
    ----------
    va, vb : (n, 3) array_like
        Points (vertices of convex polyhedra, or any point clouds: their hulls are used).

    Returns
    -------
    distance : float
        0.0 when the hulls intersect (touching included).
    pa, pb : (3,) float64
        Closest points on each hull (zeros when they intersect).

    """
    pa, pb = np.empty(3), np.empty(3)
    d = gjk_into(as_points3(va, 'va', False), as_points3(vb, 'vb', False), pa, pb)
    if d != d:
        raise ValueError('va and vb must be finite')
    return d, pa, pb


def gjk_distance_batch(va, vb):
    """`gjk_distance` of many pairs in one call.

    Parameters
    ----------
    va : (p, n, 3) array_like
        The first body of each pair (n vertices each).
    vb : (p, m, 3) array_like
        The second body of each pair.

    Returns
    -------
    distance : (p,) float64, pa : (p, 3) float64, pb : (p, 3) float64

    Parallel over the pairs from `tuning.PARALLEL_WORK` pairs x vertices on.

    """
    a = np.ascontiguousarray(va, dtype=np.float64)
    b = np.ascontiguousarray(vb, dtype=np.float64)
    if a.ndim != 3 or b.ndim != 3 or a.shape[2] != 3 or b.shape[2] != 3 or (
            a.shape[0] != b.shape[0]) or a.shape[1] == 0 or b.shape[1] == 0:
        raise ValueError(f'va and vb must be (p, n, 3) and (p, m, 3), got {a.shape} and '
                         f'{b.shape}')
    dist = np.empty(a.shape[0])
    pa = np.empty((a.shape[0], 3))
    pb = np.empty((a.shape[0], 3))
    call_parallel(_gjk_batch, a.shape[0] * max(a.shape[1], b.shape[1]), None,
                  a, b, dist, pa, pb)
    if np.isnan(dist).any():
        raise ValueError('va and vb must be finite')
    return dist, pa, pb


def convex_polyhedra_intersect(va, vb):
    """True when the convex hulls of two point sets share a point (GJK)."""
    result = gjk_kernel(as_points3(va, 'va', False), as_points3(vb, 'vb', False))
    if result[0] != result[0]:
        raise ValueError('va and vb must be finite')
    return bool(result[7])
