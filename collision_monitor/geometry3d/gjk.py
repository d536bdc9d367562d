# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""GJK distance between convex hulls of point sets (seed 003's narrow phase).

The Minkowski difference A - B (the configuration space obstacle, CSO) holds the origin iff
the hulls intersect, and its point closest to the origin is the difference of the closest
points.  GJK walks simplices of support points ``s(d) = a(d) - b(-d)`` toward that point; the
closest point of each simplex (segment, triangle, tetrahedron) to the origin comes from its
Voronoi regions (Ericson, Real-Time Collision Detection, 5.1), with barycentric weights that
carry over to the witness points on A and B.
"""

import numpy as np

from .validation import as_points3
from ..constants import DBL_EPS, jit

MAX_ITER = 128


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
def _closest_segment(w, lam):
    """Closest point of segment w0-w1 to the origin; keeps the supporting vertices."""
    ab = w[1] - w[0]
    t = -np.sum(w[0] * ab) / max(np.sum(ab * ab), 1e-300)
    if t <= 0.0:
        lam[0] = 1.0
        return 1, np.array([0, 0, 0, 0])
    if t >= 1.0:
        lam[1] = 1.0
        return 1, np.array([1, 0, 0, 0])
    lam[0] = 1.0 - t
    lam[1] = t
    return 2, np.array([0, 1, 0, 0])


@jit
def _closest_triangle(a, b, c):
    """Barycentric weights (u, v, w) of the point of triangle abc closest to the origin."""
    ab = b - a
    ac = c - a
    ap = -a
    d1 = np.sum(ab * ap)
    d2 = np.sum(ac * ap)
    if d1 <= 0.0 and d2 <= 0.0:
        return 1.0, 0.0, 0.0
    bp = -b
    d3 = np.sum(ab * bp)
    d4 = np.sum(ac * bp)
    if d3 >= 0.0 and d4 <= d3:
        return 0.0, 1.0, 0.0
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        v = d1 / (d1 - d3)
        return 1.0 - v, v, 0.0
    cp = -c
    d5 = np.sum(ab * cp)
    d6 = np.sum(ac * cp)
    if d6 >= 0.0 and d5 <= d6:
        return 0.0, 0.0, 1.0
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        w = d2 / (d2 - d6)
        return 1.0 - w, 0.0, w
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return 0.0, 1.0 - w, w
    denom = 1.0 / (va + vb + vc)
    v = vb * denom
    w = vc * denom
    return 1.0 - v - w, v, w


@jit
def _origin_outside(a, b, c, d):
    """True unless the origin lies strictly on d's side of plane abc.

    A flat tetrahedron (d in the plane) counts every face as a candidate, so the closest
    face is searched instead of declaring an intersection.
    """
    n = np.cross(b - a, c - a)
    so = -np.sum(a * n)  # (origin - a) . n
    sd = np.sum((d - a) * n)
    return so * sd <= 0.0


@jit
def hull_tolerance(va, vb):
    """Length tolerance of a pair of point sets: 64 eps (max |coordinate| + extent)."""
    big = 0.0
    lo = np.full(3, np.inf)
    hi = np.full(3, -np.inf)
    for pts in (va, vb):
        for i in range(pts.shape[0]):
            for k in range(3):
                big = max(big, abs(pts[i, k]))
                lo[k] = min(lo[k], pts[i, k])
                hi[k] = max(hi[k], pts[i, k])
    return 64.0 * DBL_EPS * (big + np.max(hi - lo))


@jit
def gjk_kernel(va, vb):
    """Distance of the hulls of va and vb: ``(distance, pa, pb, intersect)``."""
    tol = hull_tolerance(va, vb)
    ia = np.zeros(4, np.intp)
    ib = np.zeros(4, np.intp)
    w = np.zeros((4, 3))
    lam = np.zeros(4)
    ia[0] = 0
    ib[0] = 0
    w[0] = va[0] - vb[0]
    lam[0] = 1.0
    n = 1
    v = w[0].copy()
    for _ in range(MAX_ITER):
        vv = np.sum(v * v)
        if vv <= tol * tol:
            break
        ka = _support(va, -v[0], -v[1], -v[2])
        kb = _support(vb, v[0], v[1], v[2])
        new = va[ka] - vb[kb]
        # converged: the new support point brings nothing closer along v
        if vv - np.sum(v * new) <= 1e-12 * vv + tol * np.sqrt(vv):
            break
        duplicate = False
        for k in range(n):
            if ia[k] == ka and ib[k] == kb:
                duplicate = True
        if duplicate:
            break
        ia[n] = ka
        ib[n] = kb
        w[n] = new
        n += 1
        # closest point of the simplex to the origin, keeping only its support
        if n == 2:
            lam[:] = 0.0
            m, keep = _closest_segment(w, lam)
        elif n == 3:
            u0, u1, u2 = _closest_triangle(w[0], w[1], w[2])
            lam[0], lam[1], lam[2], lam[3] = u0, u1, u2, 0.0
            m = 0
            keep = np.zeros(4, np.intp)
            for k in range(3):
                if lam[k] > 0.0:
                    keep[m] = k
                    m += 1
        else:
            # tetrahedron: origin inside -> intersecting; else the closest face
            best = np.inf
            m = 0
            keep = np.zeros(4, np.intp)
            inside = True
            faces = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
            bl = np.zeros(4)
            for f in faces:
                a, b, c, d = f
                if _origin_outside(w[a], w[b], w[c], w[d]):
                    inside = False
                    u0, u1, u2 = _closest_triangle(w[a], w[b], w[c])
                    q = u0 * w[a] + u1 * w[b] + u2 * w[c]
                    dist = np.sum(q * q)
                    if dist < best:
                        best = dist
                        bl[:] = 0.0
                        bl[a], bl[b], bl[c] = u0, u1, u2
            if inside:
                return 0.0, np.zeros(3), np.zeros(3), True
            lam[:] = bl
            for k in range(4):
                if lam[k] > 0.0:
                    keep[m] = k
                    m += 1
        # compact the simplex
        nl = np.zeros(4)
        for k in range(m):
            j = keep[k]
            ia[k] = ia[j]
            ib[k] = ib[j]
            w[k] = w[j]
            nl[k] = lam[j]
        lam[:] = nl
        n = m
        v = np.zeros(3)
        for k in range(n):
            v += lam[k] * w[k]
    pa = np.zeros(3)
    pb = np.zeros(3)
    for k in range(n):
        pa += lam[k] * va[ia[k]]
        pb += lam[k] * vb[ib[k]]
    dist = np.sqrt(np.sum(v * v))
    return dist, pa, pb, dist <= tol


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
        Closest points on each hull (meaningless, zeros, when they intersect).
    """
    a = as_points3(va, 'va')
    b = as_points3(vb, 'vb')
    dist, pa, pb, _ = gjk_kernel(a, b)
    return float(dist), pa, pb


def convex_polyhedra_intersect(va, vb):
    """True when the convex hulls of two point sets share a point (GJK)."""
    a = as_points3(va, 'va')
    b = as_points3(vb, 'vb')
    return bool(gjk_kernel(a, b)[3])
