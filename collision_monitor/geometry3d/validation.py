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
"""Checks at the boundary of the 3D library: vectors, point sets, closed triangle meshes.

Mesh convention: vertices (n, 3) float64; faces (m, 3) integer triangles whose vertices run
counter-clockwise seen from outside (the right-hand rule gives the outward normal).
"""

import numpy as np

from ..kernels.constants import DBL_EPS, FLOAT, jit, TOL_FACTOR


def as_vector(x, name):
    """A finite (3,) float64 array, or ValueError."""
    arr = np.asarray(x, dtype=FLOAT).reshape(-1)
    if arr.shape != (3,) or not np.all(np.isfinite(arr)):
        raise ValueError(f'{name} must be 3 finite numbers')
    return arr


def as_points3(points, name='points', check_finite=True):
    """A C-contiguous (n, 3) float64 array (n >= 1), or ValueError.

    `check_finite=False` is for callers whose kernel checks finiteness itself (the check costs
    more than a small kernel).
    """
    if (type(points) is np.ndarray and points.dtype == FLOAT and points.ndim == 2
            and points.shape[1] == 3 and points.shape[0] > 0 and points.flags.c_contiguous):
        arr = points
    else:
        arr = np.ascontiguousarray(points, dtype=FLOAT)
        if arr.ndim == 1 and arr.shape[0] == 3:
            arr = arr.reshape(1, 3)
        if arr.ndim != 2 or arr.shape[1] != 3 or arr.shape[0] == 0:
            raise ValueError(f'{name} must have shape (n, 3), got {np.shape(points)}')
    if check_finite and not np.isfinite(arr).all():
        raise ValueError(f'{name} has non-finite coordinates')
    return arr


def as_indices(values, name, columns):
    """A C-contiguous (k, columns) intp array of integer indices, or ValueError.

    Values must have an integer dtype (an empty sequence is k = 0): a float index is refused,
    never truncated.  Range checks are the caller's.
    """
    arr = np.asarray(values)
    if arr.size == 0:
        arr = arr.reshape(0, columns).astype(np.intp)
    if arr.dtype.kind not in 'iu':
        raise ValueError(f'{name} must be integer indices, got dtype {arr.dtype}')
    if arr.ndim != 2 or arr.shape[1] != columns:
        raise ValueError(f'{name} must have shape (k, {columns}), got {arr.shape}')
    return np.ascontiguousarray(arr, dtype=np.intp)


def mesh_tolerance(vertices):
    """Length tolerance of a mesh: TOL_FACTOR * eps * (max |coordinate| + extent)."""
    extent = float(np.max(vertices.max(axis=0) - vertices.min(axis=0)))
    return TOL_FACTOR * DBL_EPS * (float(np.max(np.abs(vertices))) + extent)


@jit
def _faces_kernel(v, f, planes, area2):
    """One pass over a triangle mesh.  Per face (a, b, c): ``c = (b - a) x (c - a)``, outward
    and twice the area long; area2[k] = |c|, planes[k] = (c / |c|, a . c / |c|) (zeros for
    a zero-area face).  Returns ``(tolerance, extent, six times the signed volume)``, the
    volume from ``a . c = a . (b x c)`` summed over the faces."""
    lo0 = lo1 = lo2 = np.inf
    hi0 = hi1 = hi2 = -np.inf
    big = 0.0
    for i in range(v.shape[0]):
        lo0, hi0 = min(lo0, v[i, 0]), max(hi0, v[i, 0])
        lo1, hi1 = min(lo1, v[i, 1]), max(hi1, v[i, 1])
        lo2, hi2 = min(lo2, v[i, 2]), max(hi2, v[i, 2])
        big = max(big, abs(v[i, 0]), abs(v[i, 1]), abs(v[i, 2]))
    extent = max(hi0 - lo0, hi1 - lo1, hi2 - lo2)
    volume6 = 0.0
    for k in range(f.shape[0]):
        a, b, c = f[k, 0], f[k, 1], f[k, 2]
        ux, uy, uz = v[b, 0] - v[a, 0], v[b, 1] - v[a, 1], v[b, 2] - v[a, 2]
        wx, wy, wz = v[c, 0] - v[a, 0], v[c, 1] - v[a, 1], v[c, 2] - v[a, 2]
        nx = uy * wz - uz * wy
        ny = uz * wx - ux * wz
        nz = ux * wy - uy * wx
        dot = v[a, 0] * nx + v[a, 1] * ny + v[a, 2] * nz
        volume6 += dot
        length = np.sqrt(nx * nx + ny * ny + nz * nz)
        area2[k] = length
        scale = 1.0 / length if length > 0.0 else 0.0
        planes[k, 0] = nx * scale
        planes[k, 1] = ny * scale
        planes[k, 2] = nz * scale
        planes[k, 3] = dot * scale
    return TOL_FACTOR * DBL_EPS * (big + extent), extent, volume6


@jit
def _convexity_excess(v, planes):
    """Largest n.x - d over the vertices and face planes (<= 0 for a convex mesh)."""
    worst = -np.inf
    for k in range(planes.shape[0]):
        for i in range(v.shape[0]):
            worst = max(worst, planes[k, 0] * v[i, 0] + planes[k, 1] * v[i, 1]
                        + planes[k, 2] * v[i, 2] - planes[k, 3])
    return worst


def _checked_mesh(vertices, faces, name):
    """`closed_mesh`'s checks; returns (vertices, faces, face planes (m, 4), tolerance)."""
    v = as_points3(vertices, f'{name} vertices')
    f = as_indices(faces, f'{name} faces', 3)
    if f.shape[0] < 4:
        raise ValueError(f'{name} faces must be at least 4 triangles, got {f.shape[0]}')
    if f.min() < 0 or f.max() >= v.shape[0]:
        raise ValueError(f'{name} faces index vertices out of range')
    planes = np.empty((f.shape[0], 4))
    area2 = np.empty(f.shape[0])
    tol, extent, volume6 = _faces_kernel(v, f, planes, area2)
    bad = np.nonzero(area2 <= tol * extent)[0]
    if bad.size:
        raise ValueError(f'{name} has degenerate faces {bad[:5].tolist()}')
    # directed edges as keys a * n + b: each must be unique and have its reverse present
    directed = np.stack([f, np.roll(f, -1, axis=1)], axis=2).reshape(-1, 2)
    n = v.shape[0]
    keys = np.sort(directed[:, 0] * n + directed[:, 1])
    twins = directed[:, 1] * n + directed[:, 0]
    at = np.minimum(np.searchsorted(keys, twins), keys.shape[0] - 1)
    repeated = np.nonzero(keys[1:] == keys[:-1])[0]
    missing = np.nonzero(keys[at] != twins)[0]
    if repeated.size or missing.size:
        a, b = (divmod(int(keys[repeated[0]]), n) if repeated.size
                else directed[missing[0]].tolist())
        raise ValueError(f'{name} is not closed and consistently wound: edge ({a}, {b}) '
                         'needs exactly one twin in the opposite direction')
    # a slab of thickness h has 6 V = 1.5 h sum(area2): thinner than tol is flat; rounding
    # puts at most a few eps (largest |coordinate|) area2 into each face's term
    if abs(volume6) <= tol * area2.sum():
        raise ValueError(f'{name} encloses no volume (flat within rounding)')
    if volume6 < 0.0:
        raise ValueError(f'{name} faces point inwards (negative volume); reverse their order')
    return v, f, planes, tol


def closed_mesh(vertices, faces, name='mesh'):
    """Check a closed, consistently oriented triangle mesh; return (vertices, faces).

    Raises ValueError for wrong shapes, indices out of range, degenerate faces (twice the
    area at most `mesh_tolerance` times the extent: zero within rounding), edges not shared
    by exactly two faces in opposite directions (an open or non-manifold mesh, or
    inconsistent winding), no enclosed volume (flat within rounding: six times the volume at
    most the tolerance times twice the surface area), or a negative one (inward faces).
    """
    v, f, _, _ = _checked_mesh(vertices, faces, name)
    return v, f


def convex_mesh(vertices, faces, name='polyhedron'):
    """Check a closed mesh that is also convex: every vertex behind every face plane, or in
    front of it by at most a thousand of the mesh's tolerances (`mesh_tolerance`).

    Returns (vertices, faces, outward unit normals (m, 3), offsets (m,)).
    """
    v, f, planes, tol = _checked_mesh(vertices, faces, name)
    excess = _convexity_excess(v, planes)
    if excess > 1e3 * tol:
        raise ValueError(f'{name} is not convex (a vertex lies {excess:.3g} m in front '
                         'of a face plane)')
    return v, f, np.ascontiguousarray(planes[:, :3]), np.ascontiguousarray(planes[:, 3])
