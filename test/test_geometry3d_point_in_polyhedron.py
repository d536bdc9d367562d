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
"""Point in polyhedron against the hull half-spaces, a concave L shape, points placed on
the boundary, and the solid-angle winding number."""

import numpy as np
import pytest
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

from collision_monitor.geometry3d import point_in_convex_polyhedron, point_in_polyhedron
from shapes import CUBE, l_extrusion, random_convex


@pytest.mark.parametrize('seed', range(10))
def test_point_in_convex_matches_hull_halfspaces(seed):
    rng = np.random.default_rng(seed)
    v, f = random_convex(rng, 20)
    eq = ConvexHull(v).equations
    pts = rng.uniform(-1.2, 1.2, (300, 3))
    slack = pts @ eq[:, :3].T + eq[:, 3]
    clear = np.all(slack < -1e-9, axis=1) | np.any(slack > 1e-9, axis=1)
    got = point_in_convex_polyhedron(pts, v, f)
    assert np.array_equal(got[clear], np.all(slack < 0, axis=1)[clear])
    inside, _ = point_in_polyhedron(pts, v, f)
    assert np.array_equal(inside[clear], got[clear])


def test_point_in_concave_polyhedron_l_shape():
    v, f = l_extrusion()
    rng = np.random.default_rng(3)
    pts = rng.uniform(-0.5, 2.5, (2000, 3))
    x, y, z = pts.T
    truth = ((0 < z) & (z < 1) & (((0 < x) & (x < 2) & (0 < y) & (y < 1))
                                  | ((0 < x) & (x < 1) & (0 < y) & (y < 2))))
    inside, on_b = point_in_polyhedron(pts, v, f)
    assert np.array_equal(inside, truth) and not on_b.any()
    # points whose first ray (along (1, 1, 1)) runs through a corner or along an edge, and
    # points on the boundary
    grid = np.array([[0.5, 0.5, 0.5], [0.5, 1.0, 0.5], [1.5, 1.0, 0.0], [1.0, 1.5, 1.0],
                     [0.5, 1.5, 0.5], [1.5, 1.5, 0.5]])
    inside, on_b = point_in_polyhedron(grid, v, f)
    assert inside.tolist() == [True, True, True, True, True, False]
    assert on_b.tolist() == [False, False, True, True, False, False]


def winding_number(points, v, f):
    """Sum over the triangles of the solid angle they subtend at each point, over 4 pi (Van
    Oosterom and Strackee): 1 inside a closed outward-wound mesh, 0 outside."""
    a, b, c = (v[f[:, k]][None, :, :] - points[:, None, :] for k in range(3))
    la, lb, lc = (np.linalg.norm(x, axis=2) for x in (a, b, c))
    triple = np.einsum('pfi,pfi->pf', a, np.cross(b, c))
    dot = lambda x, y: np.einsum('pfi,pfi->pf', x, y)  # noqa: E731
    under = la * lb * lc + dot(a, b) * lc + dot(a, c) * lb + dot(b, c) * la
    return 2.0 * np.arctan2(triple, under).sum(axis=1) / (4.0 * np.pi)


def on_faces(rng, v, f, count, lowest=0.0):
    """Points on random faces: barycentric weights of at least `lowest` each (0: edges and
    corners too), and the unit outward normal of each point's face."""
    k = rng.integers(0, len(f), count)
    w = rng.dirichlet(np.ones(3), count)
    edge = rng.random(count) < 0.2  # some on an edge
    w[edge, rng.integers(0, 3, edge.sum())] = 0.0
    w = lowest + (1.0 - 3.0 * lowest) * w / w.sum(axis=1)[:, None]
    tri = v[f[k]]
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    return np.einsum('pk,pki->pi', w, tri), n / np.linalg.norm(n, axis=1)[:, None]


@pytest.mark.parametrize('seed', range(6))
@pytest.mark.parametrize('scale, centre', [(1.0, 0.0), (1e-3, 0.0), (50.0, 1e4)])
def test_the_boundary_of_a_convex_polyhedron_is_inside_and_a_step_out_is_not(seed, scale,
                                                                             centre):
    """Points on faces, edges and corners count as inside, for both tests (ray casting says
    on the boundary); a step of 1e-6 of the size along the face's outward normal leaves,
    the same step inward stays in."""
    rng = np.random.default_rng(seed)
    v, f = random_convex(rng, 16, scale, (centre, -centre, 0.5 * centre))
    points, _ = on_faces(rng, v, f, 200)
    points = np.vstack([points, v])
    assert point_in_convex_polyhedron(points, v, f).all()
    inside, on_b = point_in_polyhedron(points, v, f)
    assert inside.all() and on_b.all()
    points, normal = on_faces(rng, v, f, 200, lowest=0.1)
    step = 1e-6 * scale * normal
    for shifted, want in ((points + step, False), (points - step, True)):
        assert (point_in_convex_polyhedron(shifted, v, f) == want).all()
        inside, on_b = point_in_polyhedron(shifted, v, f)
        assert (inside == want).all() and not on_b.any()


@pytest.mark.parametrize('seed', range(4))
def test_ray_casting_in_a_turned_l_shape_is_the_winding_number(seed):
    """The L prism turned at random (faces off the axes): inside where the winding number is
    1, outside where it is 0; points on its faces are on the boundary."""
    rng = np.random.default_rng(seed)
    v, f = l_extrusion()
    turn = Rotation.random(random_state=seed)
    v = turn.apply(v) + rng.uniform(-5.0, 5.0, 3)
    lo, hi = v.min(axis=0), v.max(axis=0)
    points = rng.uniform(lo - 0.3, hi + 0.3, (3000, 3))
    wind = winding_number(points, v, f)
    clear = np.minimum(abs(wind), abs(wind - 1.0)) < 1e-6
    assert clear.mean() > 0.99
    inside, on_b = point_in_polyhedron(points, v, f)
    assert np.array_equal(inside[clear], wind[clear] > 0.5) and not on_b.any()
    assert inside.sum() > 100 and (~inside).sum() > 100
    points, _ = on_faces(rng, v, f, 300)
    inside, on_b = point_in_polyhedron(points, v, f)
    assert inside.all() and on_b.all()


def test_faces_parallel_to_the_first_ray_cross_nothing_and_end_no_count():
    """A triangular prism extruded along the first ray direction: its side faces (listed
    first) hold that ray, so it crosses none of them and goes on to the ends; ray casting
    agrees with the half-spaces of the (convex) prism and with the winding number."""
    rng = np.random.default_rng(11)
    ray = np.ones(3) / np.sqrt(3.0)
    base = np.array([[0.0, 0.0, 0.0], [2.0, 0.3, -0.5], [0.4, 1.8, 0.2]])
    v = np.vstack([base, base + 2.5 * ray])
    f = np.array([[0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4], [2, 0, 3], [2, 3, 5],
                  [0, 2, 1], [3, 4, 5]])  # the sides before the ends
    points = rng.uniform(v.min(axis=0) - 0.3, v.max(axis=0) + 0.3, (3000, 3))
    wind = winding_number(points, v, f)
    assert np.all(np.minimum(abs(wind), abs(wind - 1.0)) < 1e-6)
    inside, on_b = point_in_polyhedron(points, v, f)
    assert np.array_equal(inside, wind > 0.5) and not on_b.any()
    assert np.array_equal(inside, point_in_convex_polyhedron(points, v, f))
    assert inside.sum() > 100 and (~inside).sum() > 100


@pytest.mark.parametrize('seed', range(3))
def test_rays_through_edges_and_corners_are_cast_again(seed):
    """Points whose first ray (along (1, 1, 1)) runs exactly through a corner or a point of
    an edge of the turned L prism or of a convex hull, where counting crossings is
    ambiguous: the answer is still the winding number's."""
    rng = np.random.default_rng(seed)
    ray = np.ones(3) / np.sqrt(3.0)
    l_v, l_f = l_extrusion()
    for v, f in ((Rotation.random(random_state=seed).apply(l_v), l_f),
                 random_convex(rng, 14)):
        edges = f[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
        along = rng.uniform(0.0, 1.0, (len(edges), 1))
        targets = np.vstack([v, v[edges[:, 0]] * (1.0 - along) + v[edges[:, 1]] * along])
        size = np.ptp(v, axis=0).max()
        back = rng.uniform(0.05, 1.5, (len(targets), 1)) * size
        points = targets - back * ray
        wind = winding_number(points, v, f)
        clear = np.minimum(abs(wind), abs(wind - 1.0)) < 1e-6
        inside, on_b = point_in_polyhedron(points[clear], v, f)
        assert np.array_equal(inside, wind[clear] > 0.5) and not on_b.any()
        assert clear.sum() > 0.8 * len(points) and 0 < inside.sum() < len(inside)


@pytest.mark.parametrize('k, on', [(0.9, True), (1.1, False)])
def test_a_point_within_the_meshs_tolerance_of_a_face_is_on_it(k, on):
    """The mesh's length tolerance is 64 eps (largest |coordinate| + extent): 192 eps for
    the cube [-1, 1]^3.  A point k tolerances outside the middle of any face is on the
    boundary (inside for both tests) for k = 0.9, outside for k = 1.1."""
    v, f = 2.0 * CUBE[0] - 1.0, CUBE[1]
    tol = 64 * np.finfo(float).eps * (1.0 + 2.0)
    points = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            p = np.full(3, 0.3)
            p[axis] = sign * (1.0 + k * tol)
            points.append(p)
    assert (point_in_convex_polyhedron(points, v, f) == on).all()
    inside, on_boundary = point_in_polyhedron(points, v, f)
    assert (inside == on).all() and (on_boundary == on).all()
