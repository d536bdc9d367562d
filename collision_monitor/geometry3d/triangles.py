# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Facet intersection (seed 000, 3D): triangle-triangle and general planar facets."""

import numpy as np

from .validation import as_points3
from ..constants import DBL_EPS, TOL_FACTOR
from ..geometry2d.point_in_polygon import point_in_polygon_kernel


def _tol(*arrays):
    pts = np.vstack(arrays)
    extent = float(np.max(pts.max(axis=0) - pts.min(axis=0)))
    return TOL_FACTOR * DBL_EPS * (float(np.max(np.abs(pts))) + extent)


def _triangle(t, name):
    arr = as_points3(t, name)
    if arr.shape != (3, 3):
        raise ValueError(f'{name} must be 3 vertices (3, 3)')
    n = np.cross(arr[1] - arr[0], arr[2] - arr[0])
    if np.linalg.norm(n) <= _tol(arr) * np.max(np.ptp(arr, axis=0)):
        raise ValueError(f'{name} is degenerate (zero area)')
    return arr, n / np.linalg.norm(n)


def _plane_section(tri, sd, tol):
    """Points where the triangle meets the other plane, given its vertices' signed distances."""
    pts = [tri[k] for k in range(3) if abs(sd[k]) <= tol]
    for k in range(3):
        j = (k + 1) % 3
        if (sd[k] > tol and sd[j] < -tol) or (sd[k] < -tol and sd[j] > tol):
            d = sd[k] / (sd[k] - sd[j])  # seed 000's directed distance along the edge
            pts.append(tri[k] + d * (tri[j] - tri[k]))
    return pts


def _clip_convex(subject, clip):
    """Sutherland-Hodgman: the part of convex polygon `subject` inside convex CCW `clip` (2D)."""
    out = list(subject)
    for k in range(len(clip)):
        a, b = clip[k], clip[(k + 1) % len(clip)]
        edge = b - a
        inp, out = out, []
        if not inp:
            break
        for m in range(len(inp)):
            p, q = inp[m], inp[(m + 1) % len(inp)]
            sp = edge[0] * (p[1] - a[1]) - edge[1] * (p[0] - a[0])
            sq = edge[0] * (q[1] - a[1]) - edge[1] * (q[0] - a[0])
            if sp >= 0:
                out.append(p)
            if (sp >= 0) != (sq >= 0):
                out.append(p + sp / (sp - sq) * (q - p))
    return out


def _ccw(poly):
    area = sum(poly[k][0] * poly[(k + 1) % len(poly)][1]
               - poly[(k + 1) % len(poly)][0] * poly[k][1] for k in range(len(poly)))
    return poly if area >= 0 else poly[::-1]


def plane_basis(normal):
    """Two unit vectors u, v with (u, v, normal) right-handed and orthonormal."""
    n = np.asarray(normal, float)
    helper = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    u = np.cross(helper, n)
    u /= np.linalg.norm(u)
    return u, np.cross(n, u)


def triangle_intersection(t1, t2):
    """Intersection of two triangles in 3D, or None.

    Parameters
    ----------
    t1, t2 : (3, 3) array_like
        Vertices (rows), any order.

    Returns
    -------
    None, or (k, 3) float64
        Non-coplanar triangles: the segment (2 rows) or single point (1 row) they share.
        Coplanar triangles (the case the seed's method leaves out, handled separately): the
        vertices of their overlap, a convex polygon (any k >= 1), in CCW order about t1's
        normal.

    Notes
    -----
    Seed 000's piercing-point method, made robust: the signed distances of each triangle's
    vertices from the other's plane give the points where its edges pierce that plane
    (``d = sd_P / (sd_P - sd_Q)``), all on the planes' common line along
    ``u = n_1 x n_2``.  Each triangle meets that line in an interval; the triangles intersect
    in the overlap of the two intervals (the seed's "second to third sorted piercing points").
    Vertices within the tolerance of a plane count as on it, so touching triangles intersect.
    """
    a, n1 = _triangle(t1, 't1')
    b, n2 = _triangle(t2, 't2')
    tol = _tol(a, b)
    sd_a = (a - b[0]) @ n2
    sd_b = (b - a[0]) @ n1
    if np.all(sd_a > tol) or np.all(sd_a < -tol) or np.all(sd_b > tol) or np.all(sd_b < -tol):
        return None
    u = np.cross(n1, n2)
    if np.linalg.norm(u) <= 1e-12 or (np.all(np.abs(sd_a) <= tol)):
        return _coplanar(a, b, n1)
    u /= np.linalg.norm(u)
    pa = _plane_section(a, sd_a, tol)
    pb = _plane_section(b, sd_b, tol)
    if not pa or not pb:
        return None
    origin = pa[0]
    ha = [float(u @ (p - origin)) for p in pa]
    hb = [float(u @ (p - origin)) for p in pb]
    lo = max(min(ha), min(hb))
    hi = min(max(ha), max(hb))
    if lo > hi + tol:
        return None
    ends = [origin + lo * u] if hi - lo <= tol else [origin + lo * u, origin + hi * u]
    return np.array(ends)


def _coplanar(a, b, normal):
    u, v = plane_basis(normal)
    to2 = np.column_stack([u, v])
    pa = _ccw(list((a - a[0]) @ to2))
    pb = _ccw(list((b - a[0]) @ to2))
    overlap = _clip_convex(pa, pb)
    if not overlap:
        return None
    pts = np.array(overlap)
    # merge duplicates produced by clipping through vertices
    keep = [pts[0]]
    for p in pts[1:]:
        if np.linalg.norm(p - keep[-1]) > 1e-12 * (1 + np.abs(p).max()):
            keep.append(p)
    if len(keep) > 1 and np.linalg.norm(keep[0] - keep[-1]) <= 1e-12 * (1 + np.abs(keep[0]).max()):
        keep.pop()
    return a[0] + np.array(keep) @ to2.T


def facet_intersection(f1, f2):
    """Points where the edges of each planar convex facet pierce the other facet (seed 000).

    Parameters
    ----------
    f1, f2 : (k, 3) array_like
        Planar facets, vertices CCW about their outward normal (k >= 3).

    Returns
    -------
    (p, 3) float64
        The piercing points (empty when the facets do not meet); for non-coplanar facets they
        lie on one segment, the facets' intersection.  Coplanar facets are not handled here
        (use `triangle_intersection` on their triangles).

    Notes
    -----
    In the local frame of facet i (origin at its first vertex, x along its first edge, y in
    its plane from the second edge, z its normal), an edge P->Q of facet j with z_P, z_Q of
    opposite signs meets the plane at ``d = -z_P / (z_Q - z_P)``; that point is on facet i
    when its (x, y) passes the planar point-in-polygon test.  Then the roles swap.
    """
    a = as_points3(f1, 'f1')
    b = as_points3(f2, 'f2')
    tol = _tol(a, b)
    out = []
    for own, other in ((a, b), (b, a)):
        x = own[1] - own[0]
        x /= np.linalg.norm(x)
        z = np.cross(own[1] - own[0], own[2] - own[0])
        z /= np.linalg.norm(z)
        y = np.cross(z, x)
        frame = np.column_stack([x, y, z])
        local_own = np.ascontiguousarray((own - own[0]) @ frame)
        local_other = (other - own[0]) @ frame
        poly2 = np.ascontiguousarray(local_own[:, :2])
        for k in range(len(local_other)):
            p, q = local_other[k], local_other[(k + 1) % len(local_other)]
            if abs(q[2] - p[2]) <= tol:
                continue  # edge parallel to the plane
            d = -p[2] / (q[2] - p[2])
            if not -tol <= d <= 1.0 + tol:
                continue
            hit = p + d * (q - p)
            if point_in_polygon_kernel(hit[0], hit[1], poly2, tol)[0]:
                out.append(own[0] + frame @ np.array([hit[0], hit[1], 0.0]))
    return np.array(out).reshape(-1, 3)
