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
"""`ConvexPolyhedron`: a convex mesh checked once, with what every query needs (face planes,
edges and the faces at each, Gauss-map arcs, vertex adjacency, a bounding sphere), and the
raw-array functions `separating_plane` and `contact_manifold` that build one per call."""

import numpy as np

from .bounding import bounding_sphere, spheres_apart
from .gjk import gjk_into, gjk_kernel
from .manifold import contact_manifold_kernel
from .separating_plane import plane_through_gap, SeparatingPlane
from .validation import convex_mesh, mesh_tolerance


def _edges(faces):
    """Undirected edges of a closed triangle mesh: (E, 4) two vertex indices, then the two
    faces sharing the edge."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    owner = np.tile(np.arange(len(faces)), 3)
    key = np.sort(directed, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, owner = key[order], owner[order]
    # a closed, consistently wound mesh has every edge exactly twice, adjacent after sorting
    return np.ascontiguousarray(np.column_stack([key[0::2], owner[0::2], owner[1::2]]))


def vertex_adjacency(n, edges):
    """The neighbours of each of n vertices along the edges, in one intp array: entries i and
    i + 1 (i < n) bound the positions of vertex i's neighbours in the same array."""
    ends = np.concatenate([edges[:, :2], edges[:, 1::-1]])
    ends = ends[np.argsort(ends[:, 0], kind='stable')]
    bounds = n + 1 + np.concatenate([[0], np.cumsum(np.bincount(ends[:, 0], minlength=n))])
    return np.ascontiguousarray(np.concatenate([bounds, ends[:, 1]]), dtype=np.intp)


def edge_arcs(normals, edges):
    """The Gauss-map arc of each edge, from the normal a of its first face to the normal b of
    its second: (E, 9) rows ``q = a x b`` (normal to the arc's great circle), ``t0 = q x a``
    and ``t1 = b x q`` (tangent at each end, pointing into the arc).  Rotating the body
    rotates all three."""
    a = normals[edges[:, 2]]
    b = normals[edges[:, 3]]
    q = np.cross(a, b)
    return np.ascontiguousarray(np.hstack([q, np.cross(q, a), np.cross(b, q)]))


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
    planes : (m, 4) outward unit face normals and offsets, n.x <= d inside (`normals` and
        `offsets` are views of it).
    edge_data : (E, 4) the undirected edges: two vertex indices, then the two faces at each.
    arcs : (E, 9) the edges' Gauss-map arcs (`edge_arcs`).
    adjacency : the neighbours of each vertex (`vertex_adjacency`).
    tolerance : length tolerance of the mesh (`validation.mesh_tolerance`).
    centre, radius : a sphere holding every vertex (Ritter's): two bodies whose spheres are
        more than eps (plus the tolerances) apart have no manifold, decided without the
        plane search.

    """

    __slots__ = ('vertices', 'faces', 'planes', 'edge_data', 'arcs', 'adjacency', 'tolerance',
                 'centre', 'radius')

    def __init__(self, vertices, faces, name='polyhedron'):
        self.vertices, self.faces, normals, offsets = convex_mesh(vertices, faces, name)
        self.planes = np.ascontiguousarray(np.column_stack([normals, offsets]))
        self.edge_data = _edges(self.faces)
        self.arcs = edge_arcs(normals, self.edge_data)
        self.adjacency = vertex_adjacency(len(self.vertices), self.edge_data)
        self.tolerance = mesh_tolerance(self.vertices)
        sphere = bounding_sphere(self.vertices)
        self.centre, self.radius = tuple(map(float, sphere.centre)), sphere.radius

    @property
    def arrays(self):
        """(vertices, planes, edge_data, arcs, adjacency): the body as the kernels take it."""
        return self.vertices, self.planes, self.edge_data, self.arcs, self.adjacency

    @property
    def normals(self):
        return self.planes[:, :3]

    @property
    def offsets(self):
        return self.planes[:, 3]

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
        if not np.allclose(r @ r.T, np.eye(3), rtol=0.0, atol=1e-9) or np.linalg.det(r) < 0.0:
            raise ValueError('rotation must be a proper rotation matrix')
        out = object.__new__(ConvexPolyhedron)
        out.vertices = np.ascontiguousarray(self.vertices @ r.T + t)
        out.faces, out.edge_data, out.adjacency = self.faces, self.edge_data, self.adjacency
        normals = self.normals @ r.T
        out.planes = np.ascontiguousarray(np.column_stack([normals,
                                                           self.offsets + normals @ t]))
        out.arcs = np.ascontiguousarray((self.arcs.reshape(-1, 3, 3) @ r.T).reshape(-1, 9))
        out.tolerance = mesh_tolerance(out.vertices)
        out.centre, out.radius = tuple(map(float, r @ self.centre + t)), self.radius
        return out

    def intersects(self, other):
        """True when the two bodies share a point (GJK, as `convex_polyhedra_intersect`)."""
        return bool(gjk_kernel(self.vertices, other.vertices)[7])

    def distance(self, other):
        """Distance and closest points ``(d, pa, pb)``, as `gjk_distance` (0.0 when they
        intersect)."""
        pa, pb = np.empty(3), np.empty(3)
        return gjk_into(self.vertices, other.vertices, pa, pb), pa, pb

    def separating_plane(self, other):
        """Baraff's separating plane between this body (a) and `other` (b): see the module
        function `separating_plane`."""
        gap, px, py, pz, nx, ny, nz, kind = plane_through_gap(
            self.arrays, other.arrays, max(self.tolerance, other.tolerance), np.inf)
        return SeparatingPlane(float(gap), np.array([px, py, pz]), np.array([nx, ny, nz]),
                               ('face_a', 'face_b', 'edge_edge')[kind])

    def contact_manifold(self, other, eps):
        """Contact points between this body (a) and `other` (b): see the module function
        `contact_manifold`."""
        if not eps >= 0.0:
            raise ValueError(f'eps must be >= 0, got {eps}')
        tol = max(self.tolerance, other.tolerance)
        if spheres_apart(self.centre, self.radius, other.centre, other.radius, eps + tol):
            return None
        out = np.empty((self.vertices.shape[0] + other.vertices.shape[0], 3))
        count, nx, ny, nz, depth = contact_manifold_kernel(
            self.arrays, other.arrays, float(eps), tol, out)
        if count == 0:
            return None
        return out[:count], np.array([nx, ny, nz]), depth


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
        b that support both bodies (each edge is its body's extreme along the plane's normal:
        the pair spans a face of the Minkowski difference a - b), the one with the largest
        gap; the bodies are in contact when its distance is zero or negative.  For
        intersecting bodies -distance is the penetration depth (the minimum translation, by
        the separating axis theorem for polyhedra), as over every edge pair.  For separated
        bodies the gap is positive and at most their distance, equal to it when their closest
        features are a face and a vertex or two crossing edges; edge pairs that support
        neither body can give a plane of larger gap that passes through neither.

    Raises ValueError for open, inconsistently wound, degenerate or non-convex input.  For
    repeated queries on the same bodies, build `ConvexPolyhedron` objects once and call their
    `separating_plane` method.

    """
    return ConvexPolyhedron(va, fa, 'a').separating_plane(ConvexPolyhedron(vb, fb, 'b'))


def contact_manifold(va, fa, vb, fb, eps):
    """Contact points of two convex polyhedra in contact ([baraff]), or None.

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
    penetration depth (>= 0).  For bodies apart the normal is the direction from a's closest
    point to b's.  Bodies apart by at most eps whose near features miss each other across the
    plane (corner off to the side of corner) get one point: the midpoint of their closest
    points.

    Notes
    -----
    The vertices of a and of b within ``eps + depth / 2`` of the mid-plane are projected onto
    it (basis u, v orthogonal to the normal); the convex hull of each set is taken, the two
    hulls are intersected (Sutherland-Hodgman), and the corners of the intersection, mapped
    back to 3D, are the contact points.  Degenerate hulls (a vertex or an edge touching) give
    the points of the one inside the other; hulls that share no area but touch at one point
    (within 1 nm: a vertex on an edge) give that point.  For repeated queries on the same
    bodies, build `ConvexPolyhedron` objects once and call their `contact_manifold` method.

    """
    return ConvexPolyhedron(va, fa, 'a').contact_manifold(ConvexPolyhedron(vb, fb, 'b'), eps)
