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
"""Facet intersection ([polygons], 3D): triangle-triangle and general planar facets."""

import numpy as np

from .planar import clip_convex, hull2, plane_basis_kernel
from .validation import as_points3
from ..kernels.constants import DBL_EPS, TOL_FACTOR
from ..kernels.geometry2d.point_in_polygon import point_in_polygon_kernel


def _tol(*arrays):
    pts = np.vstack(arrays)
    extent = float(np.max(pts.max(axis=0) - pts.min(axis=0)))
    return TOL_FACTOR * DBL_EPS * (float(np.max(np.abs(pts))) + extent)


def _triangle(t, name):
    """(vertices, unit normal, least height): the height over the longest edge, 2 area /
    longest edge (m)."""
    arr = as_points3(t, name)
    if arr.shape != (3, 3):
        raise ValueError(f'{name} must be 3 vertices (3, 3)')
    n = np.cross(arr[1] - arr[0], arr[2] - arr[0])
    norm = np.linalg.norm(n)
    if norm <= _tol(arr) * np.max(np.ptp(arr, axis=0)):
        raise ValueError(f'{name} is degenerate (zero area)')
    return arr, n / norm, norm / np.max(np.linalg.norm(arr - np.roll(arr, 1, axis=0), axis=1))


def _plane_section(tri, sd, tol):
    """Points where the triangle meets the other plane, given its vertices' signed distances."""
    pts = [tri[k] for k in range(3) if abs(sd[k]) <= tol]
    for k in range(3):
        j = (k + 1) % 3
        if (sd[k] > tol and sd[j] < -tol) or (sd[k] < -tol and sd[j] > tol):
            d = sd[k] / (sd[k] - sd[j])  # [polygons]' directed distance along the edge
            pts.append(tri[k] + d * (tri[j] - tri[k]))
    return pts


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
        Coplanar triangles (the case [polygons] leaves out, handled separately): the
        vertices of their overlap, a convex polygon (any k >= 1), in CCW order about t1's
        normal.

    Notes
    -----
    [polygons]' piercing-point method, made robust: the signed distances of each triangle's
    vertices from the other's plane give the points where its edges pierce that plane
    (``d = sd_P / (sd_P - sd_Q)``), all on the planes' common line along
    ``u = n_1 x n_2``.  Each triangle meets that line in an interval; the triangles intersect
    in the overlap of the two intervals ([polygons]' "second to third sorted piercing points").
    Vertices within the tolerance of a plane count as on it, so touching triangles intersect.
    The tolerance of a distance from triangle i's plane is the coordinates' (`_tol`) plus
    the error that rounding puts into i's normal, carried over the pair's extent: the
    coordinates' tolerance over i's least height, times the extent.  Triangles of which
    either lies in the other's plane within it are coplanar: the piercing points of nearly
    coplanar triangles would be all rounding.

    """
    a, n1, h1 = _triangle(t1, 't1')
    b, n2, h2 = _triangle(t2, 't2')
    tol = _tol(a, b)
    extent = float(np.max(np.ptp(np.vstack([a, b]), axis=0)))
    tol_a = tol * (1.0 + extent / h2)  # of a's distances from b's plane
    tol_b = tol * (1.0 + extent / h1)
    sd_a = (a - b[0]) @ n2
    sd_b = (b - a[0]) @ n1
    if (np.all(sd_a > tol_a) or np.all(sd_a < -tol_a) or np.all(sd_b > tol_b)
            or np.all(sd_b < -tol_b)):
        return None
    u = np.cross(n1, n2)
    if (np.linalg.norm(u) <= 1e-12 or np.all(np.abs(sd_a) <= tol_a)
            or np.all(np.abs(sd_b) <= tol_b)):
        # onto the plane of the one whose normal rounding disturbs least, facing t1's way
        return _coplanar(a, b, n1 if h1 >= h2 else np.copysign(1.0, n1 @ n2) * n2)
    u /= np.linalg.norm(u)
    # neither triangle is on one side of the other's plane: both meet it
    pa = _plane_section(a, sd_a, tol_a)
    pb = _plane_section(b, sd_b, tol_b)
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
    """Overlap of two coplanar triangles: both projected onto the plane through a[0] normal
    to `normal` (unit), oriented CCW about it by `planar.hull2`, clipped by
    `planar.clip_convex`; repeated and collinear points of the result dropped by one more
    hull."""
    ux, uy, uz, wx, wy, wz = plane_basis_kernel(*normal)
    to2 = np.array([[ux, wx], [uy, wy], [uz, wz]])
    ha, hb = np.empty((4, 2)), np.empty((4, 2))
    clipped, scratch = np.empty((7, 2)), np.empty((7, 2))
    na = hull2(np.ascontiguousarray((a - a[0]) @ to2), 3, ha)
    nb = hull2(np.ascontiguousarray((b - a[0]) @ to2), 3, hb)
    k = clip_convex(ha, na, hb, nb, clipped, scratch)
    if k == 0:
        return None
    corners = np.empty((k + 1, 2))
    k = hull2(clipped, k, corners)
    return a[0] + corners[:k] @ to2.T


def facet_intersection(f1, f2):
    """Points where the edges of each planar convex facet pierce the other facet ([polygons]).

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
