# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Checks at the boundary of the 3D library: vectors, point sets, closed triangle meshes.

Mesh convention: vertices (n, 3) float64; faces (m, 3) integer triangles whose vertices run
counter-clockwise seen from outside (the right-hand rule gives the outward normal).
"""

import numpy as np

from ..constants import DBL_EPS, FLOAT, TOL_FACTOR


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


def mesh_tolerance(vertices):
    """Length tolerance of a mesh: TOL_FACTOR * eps * (max |coordinate| + extent)."""
    extent = float(np.max(vertices.max(axis=0) - vertices.min(axis=0)))
    return TOL_FACTOR * DBL_EPS * (float(np.max(np.abs(vertices))) + extent)


def _face_cross(vertices, faces):
    """(b - a) x (c - a) of every face (a, b, c): outward, twice the area long (m, 3).

    Written out by components: np.cross costs more than the arithmetic on small meshes.
    """
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    u = b - a
    w = c - a
    return a, np.column_stack([u[:, 1] * w[:, 2] - u[:, 2] * w[:, 1],
                               u[:, 2] * w[:, 0] - u[:, 0] * w[:, 2],
                               u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0]])


def face_planes(vertices, faces):
    """Outward unit normals (m, 3) and offsets (m,) of the faces: n . x <= d inside."""
    a, n = _face_cross(vertices, faces)
    n = n / np.sqrt(np.einsum('ij,ij->i', n, n))[:, None]
    return np.ascontiguousarray(n), np.ascontiguousarray(np.einsum('ij,ij->i', n, a))


def closed_mesh(vertices, faces, name='mesh'):
    """Check a closed, consistently oriented triangle mesh; return (vertices, faces).

    Raises ValueError for wrong shapes, indices out of range, degenerate (zero-area) faces,
    edges not shared by exactly two faces in opposite directions (an open or non-manifold
    mesh, or inconsistent winding), or a negative enclosed volume (inward faces).
    """
    v = as_points3(vertices, f'{name} vertices')
    f = np.ascontiguousarray(faces, dtype=np.intp)
    if f.ndim != 2 or f.shape[1] != 3 or f.shape[0] < 4:
        raise ValueError(f'{name} faces must be (m, 3) triangles, m >= 4')
    if f.min() < 0 or f.max() >= v.shape[0]:
        raise ValueError(f'{name} faces index vertices out of range')
    tol = mesh_tolerance(v)
    corner, normal = _face_cross(v, f)
    area2 = np.sqrt(np.einsum('ij,ij->i', normal, normal))
    bad = np.nonzero(area2 <= tol * np.max(v.max(axis=0) - v.min(axis=0)))[0]
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
    # a . ((b - a) x (c - a)) = a . (b x c): six times the signed volume of (0, a, b, c)
    volume = np.einsum('ij,ij->i', corner, normal).sum() / 6.0
    if volume <= 0.0:
        raise ValueError(f'{name} faces point inwards (negative volume); reverse their order')
    return v, f


def convex_mesh(vertices, faces, name='polyhedron'):
    """Check a closed mesh that is also convex: every vertex behind every face plane."""
    v, f = closed_mesh(vertices, faces, name)
    n, d = face_planes(v, f)
    excess = v @ n.T - d[None, :]
    if excess.max() > 1e3 * mesh_tolerance(v):
        raise ValueError(f'{name} is not convex (a vertex lies {excess.max():.3g} m in front '
                         'of a face plane)')
    return v, f, n, d
