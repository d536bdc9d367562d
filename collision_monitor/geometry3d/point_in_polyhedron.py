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
"""Point in polyhedron ([polygons], 3D): the facet-normal test and ray casting."""

import numpy as np

from .validation import as_points3, closed_mesh, convex_mesh, mesh_tolerance
from ..kernels.constants import jit

# Ray directions tried in turn by ray casting: irrational-looking, so that a ray through an
# edge or a vertex of a mesh built on a grid is unlikely; a degenerate hit moves to the next.
_RAYS = np.array([[0.5773502691896258, 0.5773502691896257, 0.5773502691896258],
                  [0.8506508083520400, 0.5257311121191336, 0.0171102341001],
                  [-0.3826834323650898, 0.9238795325112867, 0.0334561234],
                  [0.2672612419124244, -0.5345224838248488, 0.8017837257372732],
                  [-0.6666666666666666, -0.3333333333333333, -0.6666666666666666],
                  [0.1240347345892, 0.0112347583, -0.99221432]])


@jit
def points_in_convex_kernel(points, normals, offsets, tol, out):
    """A point is inside when ``n_f . x <= d_f + tol`` for every face f; stop at the first
    face it is in front of ([polygons]' early exit).  Boundary counts as inside."""
    for i in range(points.shape[0]):
        inside = True
        for f in range(normals.shape[0]):
            if (points[i, 0] * normals[f, 0] + points[i, 1] * normals[f, 1]
                    + points[i, 2] * normals[f, 2]) > offsets[f] + tol:
                inside = False
                break
        out[i] = inside


@jit
def _ray_crossings(px, py, pz, dx, dy, dz, v, f, tol):
    """Crossings of the ray p + s d (s > 0) with the triangles (Moller-Trumbore).

    Returns (count, on_boundary, degenerate): degenerate when the ray grazes an edge or a
    vertex or lies in a face's plane, so that the parity would be unreliable.
    """
    count = 0
    for k in range(f.shape[0]):
        a = v[f[k, 0]]
        b = v[f[k, 1]]
        c = v[f[k, 2]]
        e1x, e1y, e1z = b[0] - a[0], b[1] - a[1], b[2] - a[2]
        e2x, e2y, e2z = c[0] - a[0], c[1] - a[1], c[2] - a[2]
        # is p on this triangle? (distance to plane and barycentric inside)
        nx = e1y * e2z - e1z * e2y
        ny = e1z * e2x - e1x * e2z
        nz = e1x * e2y - e1y * e2x
        nn = np.sqrt(nx * nx + ny * ny + nz * nz)
        wx, wy, wz = px - a[0], py - a[1], pz - a[2]
        plane = (wx * nx + wy * ny + wz * nz) / nn
        hx = dy * e2z - dz * e2y
        hy = dz * e2x - dx * e2z
        hz = dx * e2y - dy * e2x
        det = e1x * hx + e1y * hy + e1z * hz
        if abs(plane) <= tol:
            # p in the plane: on the face when inside the triangle
            u_num = (wx * (e2y * nz - e2z * ny) + wy * (e2z * nx - e2x * nz)
                     + wz * (e2x * ny - e2y * nx))
            v_num = (wx * (ny * e1z - nz * e1y) + wy * (nz * e1x - nx * e1z)
                     + wz * (nx * e1y - ny * e1x))
            uu = u_num / (nn * nn)
            vv = v_num / (nn * nn)
            slack = tol * 8.0 / np.sqrt(nn)
            if uu >= -slack and vv >= -slack and uu + vv <= 1.0 + slack:
                return 0, True, False
        if abs(det) <= 1e-12 * nn:
            continue  # ray parallel to the face, p not on it: no crossing
        inv = 1.0 / det
        u = (wx * hx + wy * hy + wz * hz) * inv
        qx = wy * e1z - wz * e1y
        qy = wz * e1x - wx * e1z
        qz = wx * e1y - wy * e1x
        w = (dx * qx + dy * qy + dz * qz) * inv
        s = (e2x * qx + e2y * qy + e2z * qz) * inv
        margin = 1e-9
        if s <= 0.0 or u < -margin or w < -margin or u + w > 1.0 + margin:
            continue
        if u < margin or w < margin or u + w > 1.0 - margin:
            return 0, False, True
        count += 1
    return count, False, False


@jit
def points_in_mesh_kernel(points, v, f, rays, tol, inside, on_boundary):
    """Ray casting with re-casting along the next direction after a degenerate hit."""
    for i in range(points.shape[0]):
        inside[i] = False
        on_boundary[i] = False
        for r in range(rays.shape[0]):
            count, onb, degenerate = _ray_crossings(points[i, 0], points[i, 1], points[i, 2],
                                                    rays[r, 0], rays[r, 1], rays[r, 2], v, f,
                                                    tol)
            if onb:
                inside[i] = True
                on_boundary[i] = True
                break
            if not degenerate:
                inside[i] = count % 2 == 1
                break


def point_in_convex_polyhedron(points, vertices, faces):
    """Which points lie in a convex polyhedron (boundary included: a point within the mesh's
    length tolerance, `validation.mesh_tolerance`, of a face's plane is on it).

    Parameters
    ----------
    points : (k, 3) array_like
        The points to test (metres).
    vertices : (n, 3) array_like
        The polyhedron's vertices (metres).
    faces : (m, 3) array_like of int
        Triangles, CCW seen from outside.

    Raises ValueError when the mesh is open, inconsistently wound, degenerate or not convex.

    """
    v, f, n, d = convex_mesh(vertices, faces)
    pts = as_points3(points)
    out = np.empty(pts.shape[0], np.bool_)
    points_in_convex_kernel(pts, n, d, mesh_tolerance(v), out)
    return out


def point_in_polyhedron(points, vertices, faces):
    """Ray casting point in polyhedron for closed triangle meshes, concave allowed.

    Returns ``(inside, on_boundary)`` like the 2D `point_in_polygon`: on the boundary within
    the mesh's length tolerance (`validation.mesh_tolerance`).  A ray that grazes an edge or
    a vertex, where counting crossings is ambiguous, is cast again in another direction.
    """
    v, f = closed_mesh(vertices, faces)
    pts = as_points3(points)
    inside = np.empty(pts.shape[0], np.bool_)
    on_boundary = np.empty(pts.shape[0], np.bool_)
    rays = _RAYS / np.linalg.norm(_RAYS, axis=1)[:, None]
    points_in_mesh_kernel(pts, v, f, np.ascontiguousarray(rays), mesh_tolerance(v), inside,
                          on_boundary)
    return inside, on_boundary
