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
"""Many convex polyhedra packed once, queried by pairs in one call.

`PolyhedronSet` concatenates the prepared arrays of its `ConvexPolyhedron` members (vertices,
face planes, edges with vertex and face indices local to each body) with start offsets, so a
kernel reaches body k as ``vertices[vstart[k]:vstart[k + 1]]`` and so on.  Its queries take a
(P, 2) array of body index pairs and run a ``prange`` over the pairs: no Python per pair.
"""

from typing import NamedTuple

import numba
import numpy as np

from .bounding import spheres_apart
from .gjk import gjk_into
from .manifold import contact_manifold_kernel
from .polyhedron import ConvexPolyhedron
from .validation import as_indices
from ..kernels.constants import FLOAT, INDEX, jit, jit_parallel
from ..kernels.threads import call_parallel


class PackedPolyhedra(NamedTuple):
    """The arrays of many `ConvexPolyhedron` bodies, concatenated: body k's rows of each
    array run from its start offset to the next (``vertices[vstart[k]:vstart[k + 1]]``)."""

    vertices: np.ndarray   # (V, 3)
    vstart: np.ndarray     # (K + 1,) intp
    planes: np.ndarray     # (F, 4) outward unit normal and offset
    fstart: np.ndarray     # (K + 1,) intp
    edges: np.ndarray      # (E, 4) two vertices, two faces (indices local to the body)
    arcs: np.ndarray       # (E, 9) Gauss-map arcs, rows as edges
    estart: np.ndarray     # (K + 1,) intp
    adjacency: np.ndarray  # `vertex_adjacency` of each body, concatenated
    astart: np.ndarray     # (K + 1,) intp
    tolerance: np.ndarray  # (K,) length tolerance
    centres: np.ndarray    # (K, 3) bounding sphere
    radii: np.ndarray      # (K,)


class ManifoldRows(NamedTuple):
    """One row per queried pair of `PolyhedronSet.contact_manifolds`."""

    counts: np.ndarray   # (P,) intp contact points
    points: np.ndarray   # (P, M, 3)
    normals: np.ndarray  # (P, 3) unit, from the first body to the second
    depths: np.ndarray   # (P,)


@jit
def _body(packed, i):
    """Body i of the packed arrays as the kernels take it (`ConvexPolyhedron.arrays`)."""
    return (packed.vertices[packed.vstart[i]:packed.vstart[i + 1]],
            packed.planes[packed.fstart[i]:packed.fstart[i + 1]],
            packed.edges[packed.estart[i]:packed.estart[i + 1]],
            packed.arcs[packed.estart[i]:packed.estart[i + 1]],
            packed.adjacency[packed.astart[i]:packed.astart[i + 1]])


@jit_parallel
def _manifolds_kernel(packed, pairs, eps, counts, points, normals, depths):
    tolerance, centres, radii = packed.tolerance, packed.centres, packed.radii
    for p in numba.prange(pairs.shape[0]):
        i = pairs[p, 0]
        j = pairs[p, 1]
        tol = max(tolerance[i], tolerance[j])
        if spheres_apart(centres[i], radii[i], centres[j], radii[j], eps + tol):
            continue  # counts, normals and depths are zero already
        count, nx, ny, nz, depth = contact_manifold_kernel(
            _body(packed, i), _body(packed, j), eps, tol, points[p])
        counts[p] = count
        normals[p, 0] = nx
        normals[p, 1] = ny
        normals[p, 2] = nz
        depths[p] = depth


@jit_parallel
def _distances_kernel(vertices, vstart, pairs, distance, pa, pb):
    for p in numba.prange(pairs.shape[0]):
        i = pairs[p, 0]
        j = pairs[p, 1]
        a, b = vertices[vstart[i]:vstart[i + 1]], vertices[vstart[j]:vstart[j + 1]]
        distance[p] = gjk_into(a, b, pa[p], pb[p])


class PolyhedronSet:
    """Convex polyhedra packed for batch queries.

    Parameters
    ----------
    polyhedra : sequence of ConvexPolyhedron

    Queries take ``pairs``, a (P, 2) array_like of body indices into `polyhedra`.

    Attributes
    ----------
    threads : int or None
        Most threads of a query (capped at numba's); None for numba's current setting.  A
        query of fewer than `tuning.PARALLEL_WORK` pairs x vertices runs on one thread,
        whatever this says.

    """

    def __init__(self, polyhedra):
        bodies = list(polyhedra)
        if not bodies or not all(isinstance(b, ConvexPolyhedron) for b in bodies):
            raise ValueError('a PolyhedronSet holds one or more ConvexPolyhedron objects')

        def pack(arrays):
            start = np.zeros(len(arrays) + 1, INDEX)
            np.cumsum([len(a) for a in arrays], out=start[1:])
            return np.ascontiguousarray(np.concatenate(arrays)), start

        vertices, vstart = pack([b.vertices for b in bodies])
        planes, fstart = pack([b.planes for b in bodies])
        edges, estart = pack([b.edge_data for b in bodies])
        adjacency, astart = pack([b.adjacency for b in bodies])
        self.packed = PackedPolyhedra(
            vertices, vstart, planes, fstart, edges,
            np.ascontiguousarray(np.concatenate([b.arcs for b in bodies])), estart, adjacency,
            astart, np.array([b.tolerance for b in bodies], FLOAT),
            np.array([b.centre for b in bodies], FLOAT),
            np.array([b.radius for b in bodies], FLOAT))
        self.most_vertices = max(len(b.vertices) for b in bodies)
        self.threads = None

    def __len__(self):
        return self.packed.vstart.shape[0] - 1

    def _pairs(self, pairs):
        arr = as_indices(pairs, 'pairs', 2)
        if arr.size and (arr.min() < 0 or arr.max() >= len(self)):
            raise ValueError(f'pairs index bodies 0 to {len(self) - 1}')
        return arr

    def contact_manifolds(self, pairs, eps):
        """`ConvexPolyhedron.contact_manifold` of every pair.

        Returns
        -------
        counts : (P,) intp
            Contact points of each pair, 0 when the pair is more than eps apart.
        points : (P, M, 3) float64
            ``points[p, :counts[p]]`` are pair p's points (M: twice the most vertices).
        normals : (P, 3) float64
            Unit normal from the first body of the pair to the second (where counts > 0).
        depths : (P,) float64
            Penetration depth, >= 0 (where counts > 0).

        """
        if not eps >= 0.0:
            raise ValueError(f'eps must be >= 0, got {eps}')
        arr = self._pairs(pairs)
        n = arr.shape[0]
        out = ManifoldRows(np.zeros(n, INDEX), np.empty((n, 2 * self.most_vertices, 3), FLOAT),
                           np.zeros((n, 3), FLOAT), np.zeros(n, FLOAT))
        call_parallel(_manifolds_kernel, n * self.most_vertices, self.threads, self.packed,
                      arr, float(eps), *out)
        return tuple(out)

    def distances(self, pairs):
        """`ConvexPolyhedron.distance` of every pair: distances (P,) (0 where they
        intersect), closest points (P, 3) on the first and on the second body."""
        arr = self._pairs(pairs)
        n = arr.shape[0]
        distance = np.empty(n, FLOAT)
        pa = np.empty((n, 3), FLOAT)
        pb = np.empty((n, 3), FLOAT)
        call_parallel(_distances_kernel, n * self.most_vertices, self.threads,
                      self.packed.vertices, self.packed.vstart, arr, distance, pa, pb)
        return distance, pa, pb
