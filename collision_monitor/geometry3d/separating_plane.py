# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Baraff's separating plane and the contact manifold of two convex polyhedra (seed 004).

`ConvexPolyhedron` checks a mesh once (closed, outward, convex) and keeps what every query
needs (face planes, edges and the faces at each edge); its methods then cost only the
kernels.  The module functions taking raw arrays build one per call.
"""

from typing import NamedTuple

import numpy as np

from .gjk import gjk_kernel
from .triangles import _ccw, _clip_convex, plane_basis
from .validation import convex_mesh
from ..constants import jit
from ..geometry2d.point_in_polygon import point_in_convex_kernel
from ..geometry2d.primitives import point_on_segment, segment_intersection


class SeparatingPlane(NamedTuple):
    """The best separating plane: ``normal . x = normal . point``, normal from a to b.

    ``distance`` is the gap between a's farthest point and b's nearest along the normal:
    positive when separated, zero when touching, minus the penetration depth otherwise.
    ``point`` lies on the mid-plane, half the gap beyond a.  ``kind`` says where the plane
    comes from: 'face_a', 'face_b' or 'edge_edge'.
    """

    distance: float
    point: np.ndarray
    normal: np.ndarray
    kind: str


@jit
def _extent(v, nx, ny, nz, sign):
    """max over the vertices of sign * (n.x)."""
    out = -np.inf
    for i in range(v.shape[0]):
        out = max(out, sign * (v[i, 0] * nx + v[i, 1] * ny + v[i, 2] * nz))
    return out


@jit
def separating_plane_kernel(va, na, da, ea, adj_a, vb, nb, db, eb, adj_b):
    """Largest gap over the face normals of a, of b (negated) and the edge-edge normals.

    ``na, da`` are the outward unit normals and offsets of the faces (n.x <= d inside: along
    its own face normal a body's extent is its offset, so a face axis scans only the other
    body), ``ea``/``eb`` (E, 2) vertex index pairs of the edges, ``adj_a``/``adj_b`` (E, 2)
    the two faces sharing each edge.  Returns ``(gap, a_max, nx, ny, nz, kind)`` with kind 0 face
    of a, 1 face of b, 2 edge-edge.

    Edge pairs that do not span a face of the Minkowski difference are skipped (Gregorius,
    "The Separating Axis Test between Convex Polyhedra", GDC 2013): only when the Gauss-map
    arcs a-b (the normals of the faces at an edge of A) and c-d (those at an edge of B,
    negated) cross, ``c.(b x a)`` and ``d.(b x a)`` of opposite signs, ``a.(d x c)`` and
    ``b.(d x c)`` too, and ``c.(b x a)``, ``b.(d x c)`` of one sign.  The first test is
    hoisted: per edge of A the side of every face normal of B is computed once, so most edge
    pairs cost two loads and a compare.  The sign of the result (separated or not) and, for
    intersecting bodies, its value (minus the penetration depth) are those of the full
    candidate set; a flat edge (a = b, between coplanar triangles) spans nothing.
    """
    best = -np.inf
    bx = by = bz = 0.0
    bmax = 0.0
    kind = -1
    for f in range(na.shape[0]):
        amax = da[f]
        g = -_extent(vb, na[f, 0], na[f, 1], na[f, 2], -1.0) - amax
        if g > best:
            best, bmax, bx, by, bz, kind = g, amax, na[f, 0], na[f, 1], na[f, 2], 0
    for f in range(nb.shape[0]):
        amax = _extent(va, -nb[f, 0], -nb[f, 1], -nb[f, 2], 1.0)
        g = -db[f] - amax
        if g > best:
            best, bmax, bx, by, bz, kind = g, amax, -nb[f, 0], -nb[f, 1], -nb[f, 2], 1
    side = np.empty(nb.shape[0])
    for i in range(ea.shape[0]):
        f0 = adj_a[i, 0]
        f1 = adj_a[i, 1]
        # b x a for the arc a = na[f0] -> b = na[f1]
        px = na[f1, 1] * na[f0, 2] - na[f1, 2] * na[f0, 1]
        py = na[f1, 2] * na[f0, 0] - na[f1, 0] * na[f0, 2]
        pz = na[f1, 0] * na[f0, 1] - na[f1, 1] * na[f0, 0]
        for g in range(nb.shape[0]):
            side[g] = -(nb[g, 0] * px + nb[g, 1] * py + nb[g, 2] * pz)
        ux = va[ea[i, 1], 0] - va[ea[i, 0], 0]
        uy = va[ea[i, 1], 1] - va[ea[i, 0], 1]
        uz = va[ea[i, 1], 2] - va[ea[i, 0], 2]
        for j in range(eb.shape[0]):
            g0 = adj_b[j, 0]
            g1 = adj_b[j, 1]
            cba = side[g0]
            if not cba * side[g1] < 0.0:
                continue
            # d x c for c = -nb[g0], d = -nb[g1]: equal to nb[g1] x nb[g0]
            qx = nb[g1, 1] * nb[g0, 2] - nb[g1, 2] * nb[g0, 1]
            qy = nb[g1, 2] * nb[g0, 0] - nb[g1, 0] * nb[g0, 2]
            qz = nb[g1, 0] * nb[g0, 1] - nb[g1, 1] * nb[g0, 0]
            adc = na[f0, 0] * qx + na[f0, 1] * qy + na[f0, 2] * qz
            bdc = na[f1, 0] * qx + na[f1, 1] * qy + na[f1, 2] * qz
            if not (adc * bdc < 0.0 and cba * bdc > 0.0):
                continue
            wx = vb[eb[j, 1], 0] - vb[eb[j, 0], 0]
            wy = vb[eb[j, 1], 1] - vb[eb[j, 0], 1]
            wz = vb[eb[j, 1], 2] - vb[eb[j, 0], 2]
            nx = uy * wz - uz * wy
            ny = uz * wx - ux * wz
            nz = ux * wy - uy * wx
            ln = np.sqrt(nx * nx + ny * ny + nz * nz)
            if ln <= 1e-9 * np.sqrt((ux * ux + uy * uy + uz * uz) * (wx * wx + wy * wy + wz * wz)):
                continue  # parallel edges: covered by the face normals
            # on a Minkowski face the edges are the supports: orient n out of a at edge i
            # (along the sum of its face normals); then a's extent along n is reached at
            # edge i and b's at edge j, no scan needed
            if nx * (na[f0, 0] + na[f1, 0]) + ny * (na[f0, 1] + na[f1, 1]) + nz * (
                    na[f0, 2] + na[f1, 2]) < 0.0:
                ln = -ln
            nx /= ln
            ny /= ln
            nz /= ln
            amax = va[ea[i, 0], 0] * nx + va[ea[i, 0], 1] * ny + va[ea[i, 0], 2] * nz
            g = vb[eb[j, 0], 0] * nx + vb[eb[j, 0], 1] * ny + vb[eb[j, 0], 2] * nz - amax
            if g > best:
                best, bmax, bx, by, bz, kind = g, amax, nx, ny, nz, 2
    return best, bmax, bx, by, bz, kind


def _edges(faces):
    """Undirected edges (E, 2) of a closed triangle mesh and the two faces sharing each."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    owner = np.tile(np.arange(len(faces)), 3)
    key = np.sort(directed, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, owner = key[order], owner[order]
    # a closed, consistently wound mesh has every edge exactly twice, adjacent after sorting
    return (np.ascontiguousarray(key[0::2]),
            np.ascontiguousarray(np.column_stack([owner[0::2], owner[1::2]])))


class ConvexPolyhedron:
    """A convex polyhedron checked once, for repeated queries.

    Parameters
    ----------
    vertices : (n, 3) array_like
        Metres.
    faces : (m, 3) array_like of int
        Triangles, CCW seen from outside.
    name : str
        Used in error messages.

    Raises ValueError for open, inconsistently wound, degenerate or non-convex input.

    Attributes
    ----------
    vertices, faces : the checked arrays (C-contiguous float64, intp).
    normals, offsets : (m, 3), (m,) outward unit face normals and offsets, n.x <= d inside.
    edges, edge_faces : (E, 2) vertex pairs of the undirected edges and the two faces at each.
    """

    __slots__ = ('vertices', 'faces', 'normals', 'offsets', 'edges', 'edge_faces')

    def __init__(self, vertices, faces, name='polyhedron'):
        self.vertices, self.faces, self.normals, self.offsets = convex_mesh(vertices, faces,
                                                                            name)
        self.edges, self.edge_faces = _edges(self.faces)

    def moved(self, rotation, translation):
        """The same body under the rigid motion x -> R x + t, without checking it again.

        `rotation` is a (3, 3) proper rotation matrix (orthonormal to 1e-9, determinant +1),
        `translation` a (3,) vector in metres.
        """
        r = np.asarray(rotation, dtype=np.float64)
        t = np.asarray(translation, dtype=np.float64).reshape(-1)
        if (r.shape != (3, 3) or t.shape != (3,) or not np.isfinite(r).all()
                or not np.isfinite(t).all()):
            raise ValueError('rotation must be a finite (3, 3) matrix, translation (3,)')
        if not np.allclose(r @ r.T, np.eye(3), atol=1e-9) or np.linalg.det(r) < 0.0:
            raise ValueError('rotation must be a proper rotation matrix')
        out = object.__new__(ConvexPolyhedron)
        out.vertices = np.ascontiguousarray(self.vertices @ r.T + t)
        out.faces, out.edges, out.edge_faces = self.faces, self.edges, self.edge_faces
        out.normals = np.ascontiguousarray(self.normals @ r.T)
        out.offsets = self.offsets + out.normals @ t
        return out

    def separating_plane(self, other):
        """Baraff's separating plane between this body (a) and `other` (b): see the module
        function `separating_plane`."""
        a, b = self.vertices, other.vertices
        gap, amax, nx, ny, nz, kind = separating_plane_kernel(
            a, self.normals, self.offsets, self.edges, self.edge_faces,
            b, other.normals, other.offsets, other.edges, other.edge_faces)
        n = np.array([nx, ny, nz])
        # a point on the mid-plane: a's support plane moved half the gap towards b
        anchor = a[np.argmax(a @ n)]
        point = anchor + (amax + 0.5 * gap - anchor @ n) * n
        return SeparatingPlane(float(gap), point, n, ('face_a', 'face_b', 'edge_edge')[kind])

    def contact_manifold(self, other, eps):
        """Contact points between this body (a) and `other` (b): see the module function
        `contact_manifold`."""
        if not eps >= 0.0:
            raise ValueError(f'eps must be >= 0, got {eps}')
        # bodies farther apart than eps have no contact: GJK tells in a few microseconds
        distance, *_, hit = gjk_kernel(self.vertices, other.vertices)
        if not hit and distance > eps:
            return None
        return _manifold(self.vertices, other.vertices, self.separating_plane(other), eps)


def separating_plane(va, fa, vb, fb):
    """Baraff's separating plane of two convex polyhedra.

    Parameters
    ----------
    va, vb : (n, 3) array_like
        Vertices.
    fa, fb : (m, 3) array_like of int
        Triangles, CCW seen from outside.

    Returns
    -------
    SeparatingPlane
        Of all planes through a face of either body or spanned by an edge of a and an edge of
        b, the one with the largest gap; the bodies are in contact when its distance is zero or
        negative.  For intersecting bodies -distance is the penetration depth (the minimum
        translation, by the separating axis theorem for polyhedra).

    Raises ValueError for open, inconsistently wound, degenerate or non-convex input.  For
    repeated queries on the same bodies, build `ConvexPolyhedron` objects once and call their
    `separating_plane` method.
    """
    return ConvexPolyhedron(va, fa, 'a').separating_plane(ConvexPolyhedron(vb, fb, 'b'))


def _hull2(points):
    """Monotone-chain convex hull of 2D points, CCW, collinear points dropped."""
    pts = sorted(set(map(tuple, np.round(points, 15))))
    if len(pts) <= 2:
        return [np.array(p) for p in pts]

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return [np.array(p) for p in lower[:-1] + upper[:-1]]


def contact_manifold(va, fa, vb, fb, eps):
    """Contact points of two convex polyhedra in contact (seed 004), or None.

    Parameters
    ----------
    va, fa, vb, fb
        As for `separating_plane`.
    eps : float
        Distance (m) from the mid-plane within which vertices count as in contact (on top of
        half the penetration depth).

    Returns
    -------
    None when the bodies are more than `eps` apart; otherwise ``(points, normal, depth)``:
    the contact points (k, 3) on the mid-plane, the unit normal from a to b and the
    penetration depth (>= 0).

    Notes
    -----
    The vertices of a and of b within ``eps + depth / 2`` of the mid-plane are projected onto
    it (basis u, v orthogonal to the normal); the convex hull of each set is taken, the two
    hulls are intersected (Sutherland-Hodgman), and the corners of the intersection, mapped
    back to 3D, are the contact points.  Degenerate hulls (a vertex or an edge touching) give
    the points of the one inside the other.  For repeated queries on the same bodies, build
    `ConvexPolyhedron` objects once and call their `contact_manifold` method.
    """
    return ConvexPolyhedron(va, fa, 'a').contact_manifold(ConvexPolyhedron(vb, fb, 'b'), eps)


def _manifold(a, b, plane, eps):
    """The manifold of `contact_manifold` from the separating plane of a and b."""
    if plane.distance > eps:
        return None
    n, m = plane.normal, plane.point
    band = eps + 0.5 * max(0.0, -plane.distance)
    u, v = plane_basis(n)
    to2 = np.column_stack([u, v])
    sa = (a - m) @ n
    sb = (b - m) @ n
    ha = _hull2((a[np.abs(sa) <= band + 1e-12] - m) @ to2)
    hb = _hull2((b[np.abs(sb) <= band + 1e-12] - m) @ to2)
    if len(ha) >= 3 and len(hb) >= 3:
        pts2 = _clip_convex(_ccw(ha), _ccw(hb))
    else:
        small, big = (ha, hb) if len(ha) <= len(hb) else (hb, ha)
        pts2 = _degenerate_overlap(small, big)
    if not pts2:
        return None
    hull = _hull2(np.array(pts2)) if len(pts2) >= 3 else pts2
    points = m + np.array(hull) @ to2.T
    return points, n, max(0.0, -plane.distance)


def _degenerate_overlap(small, big, tol=1e-9):
    """Overlap when a hull is a point or a segment (a vertex or an edge touching)."""
    if len(big) >= 3:
        poly = np.ascontiguousarray(_ccw(big))
        if len(small) == 1:
            return small if point_in_convex_kernel(*small[0], poly, 1.0, tol) else []
        # the segment clipped by every edge's inner half-plane
        p, q = small
        lo, hi = 0.0, 1.0
        for k in range(len(poly)):
            a, e = poly[k], poly[(k + 1) % len(poly)] - poly[k]
            sp = e[0] * (p[1] - a[1]) - e[1] * (p[0] - a[0])
            sq = e[0] * (q[1] - a[1]) - e[1] * (q[0] - a[0])
            if sp < -tol and sq < -tol:
                return []
            if (sp < -tol) != (sq < -tol):
                t = sp / (sp - sq)
                lo, hi = (max(lo, t), hi) if sp < -tol else (lo, min(hi, t))
        return [p + lo * (q - p), p + hi * (q - p)] if lo <= hi else []
    if len(small) == 1:
        p = small[0]
        a, b = big[0], big[-1]
        return small if point_on_segment(a[0], a[1], b[0], b[1], p[0], p[1], tol) else []
    count, x0, y0, _, _, x1, y1, _, _ = segment_intersection(
        *small[0], *small[1], *big[0], *big[-1], tol)
    return [np.array([x0, y0]), np.array([x1, y1])][:count]
