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
"""3D library against independent references: scipy linprog/ConvexHull, brute force."""

from fractions import Fraction

from hypothesis import example, given, strategies as st
import numba
import numpy as np
import pytest
from scipy.optimize import linprog, minimize
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

from collision_monitor.geometry3d import (
    aabb, aabbs_overlap, bounding_sphere, capsule, capsules_overlap, contact_manifold,
    convex_polyhedra_intersect, ConvexPolyhedron, facet_intersection, gjk_distance,
    gjk_distance_batch, line_line_closest, line_point_distance, obb, obbs_overlap,
    point_in_convex_polyhedron, point_in_polyhedron, PolyhedronSet, segment_distance,
    separating_plane, sphere_contact, spheres_overlap, triangle_intersection)
from collision_monitor.geometry3d.bounding import Sphere
from collision_monitor.geometry3d.planar import clip_convex, hull2, SAME_POINT
from collision_monitor.geometry3d.separating_plane import _edges_that_may_win, _face_axes
from collision_monitor.kernels.constants import PARALLEL_WORK
from shapes import hull as hull_mesh, resting_pairs, to_shapely

CUBE_V = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])


CUBE = hull_mesh(CUBE_V)


def random_convex(rng, n=12, scale=1.0, centre=(0, 0, 0)):
    pts = rng.normal(size=(n, 3))
    pts = pts / np.linalg.norm(pts, axis=1)[:, None] * rng.uniform(0.5, 1.0, (n, 1))
    return hull_mesh(pts * scale + np.asarray(centre))


def lp_intersect(va, vb):
    """Do the hulls meet? Feasibility of sum la_i a_i = sum lb_j b_j, la, lb in simplices."""
    na, nb = len(va), len(vb)
    a_eq = np.zeros((5, na + nb))
    a_eq[:3, :na] = va.T
    a_eq[:3, na:] = -vb.T
    a_eq[3, :na] = 1
    a_eq[4, na:] = 1
    res = linprog(np.zeros(na + nb), A_eq=a_eq, b_eq=[0, 0, 0, 1, 1], bounds=(0, None),
                  method='highs')
    return res.status == 0


def qp_distance(va, vb):
    """Distance of the hulls by minimising |sum la a - sum lb b|^2 over the simplices."""
    na, nb = len(va), len(vb)

    def f(x):
        d = x[:na] @ va - x[na:] @ vb
        return d @ d

    def grad(x):
        d = x[:na] @ va - x[na:] @ vb
        return np.concatenate([2 * va @ d, -2 * vb @ d])

    cons = [{'type': 'eq', 'fun': lambda x: x[:na].sum() - 1},
            {'type': 'eq', 'fun': lambda x: x[na:].sum() - 1}]
    x0 = np.concatenate([np.full(na, 1 / na), np.full(nb, 1 / nb)])
    res = minimize(f, x0, jac=grad, bounds=[(0, 1)] * (na + nb), constraints=cons,
                   method='SLSQP', options={'ftol': 1e-14, 'maxiter': 500})
    return np.sqrt(max(res.fun, 0.0))


# --- distances ---------------------------------------------------------------------------------
vec3 = st.tuples(*[st.floats(-2, 2)] * 3).map(np.array)


@given(vec3, vec3, vec3, vec3)
def test_segment_distance_matches_brute_force(p1, q1, p2, q2):
    dist, c1, c2 = segment_distance(p1, q1, p2, q2)
    s = np.linspace(0, 1, 201)
    a = p1 + s[:, None] * (q1 - p1)
    b = p2 + s[:, None] * (q2 - p2)
    brute = np.min(np.linalg.norm(a[:, None] - b[None], axis=2))
    assert dist <= brute + 1e-12
    step = 0.005 * (np.linalg.norm(q1 - p1) + np.linalg.norm(q2 - p2))
    assert dist >= brute - step - 1e-12
    assert np.linalg.norm(c1 - c2) == pytest.approx(dist, abs=1e-12)


def test_segment_distance_parallel_and_zero_length():
    d, c1, c2 = segment_distance([0, 0, 0], [2, 0, 0], [1, 1, 0], [3, 1, 0])  # parallel
    assert d == pytest.approx(1.0)
    d, c1, c2 = segment_distance([0, 0, 0], [0, 0, 0], [1, -1, 0], [1, 1, 0])  # a point
    assert d == pytest.approx(1.0) and np.allclose(c2, [1, 0, 0])
    d, *_ = segment_distance([0, 0, 0], [0, 0, 0], [0, 0, 2], [0, 0, 2])  # two points
    assert d == pytest.approx(2.0)


def test_line_helpers():
    assert line_point_distance([0, 0, 0], [2, 0, 0], [5, 3, 4]) == pytest.approx(5.0)
    d, p, q = line_line_closest([0, 0, 0], [1, 0, 0], [0, 1, 3], [0, 1, 0])
    assert d == pytest.approx(3.0) and np.allclose(p, [0, 0, 0]) and np.allclose(q, [0, 0, 3])


# --- bounding volumes --------------------------------------------------------------------------
@pytest.mark.parametrize('method', ['ritter', 'centroid', 'box'])
def test_bounding_spheres_hold_every_point(method):
    pts = np.random.default_rng(1).normal(size=(200, 3))
    s = bounding_sphere(pts, method)
    assert np.all(np.linalg.norm(pts - s.centre, axis=1) <= s.radius + 1e-12)
    if method == 'ritter':
        assert s.radius <= 1.25 * bounding_sphere(pts, 'centroid').radius


def test_sphere_contact_as_in_the_slides():
    point, normal, pen = sphere_contact(Sphere(np.zeros(3), 1.0),
                                        Sphere(np.array([1.5, 0, 0]), 1.0))
    assert pen == pytest.approx(0.5) and np.allclose(normal, [1, 0, 0])
    assert np.allclose(point, [0.75, 0, 0])
    assert sphere_contact(Sphere(np.zeros(3), 1.0), Sphere(np.array([3.0, 0, 0]), 1.0)) is None
    assert spheres_overlap(Sphere(np.zeros(3), 1.0), Sphere(np.array([2.0, 0, 0]), 1.0))


def _box_corners(box):
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    return box.centre + (signs * box.half) @ box.axes


@pytest.mark.parametrize('seed', range(40))
def test_obb_overlap_matches_linear_programming(seed):
    rng = np.random.default_rng(seed)
    a = obb(rng.normal(size=(10, 3)) * [2, 0.5, 0.3])
    b = obb(rng.normal(size=(10, 3)) * [0.4, 1.5, 0.3] + rng.uniform(-2.5, 2.5, 3))
    ca, cb = _box_corners(a), _box_corners(b)
    assert np.all(np.abs((ca - a.centre) @ a.axes.T) <= a.half + 1e-9)
    assert obbs_overlap(a, b) == lp_intersect(ca, cb)
    assert aabbs_overlap(aabb(ca), aabb(cb)) or not obbs_overlap(a, b)


def test_capsules():
    pts = np.random.default_rng(2).normal(size=(100, 3)) * [3, 0.3, 0.3]
    c = capsule(pts)
    for x in pts:
        assert segment_distance(x, x, c.p, c.q)[0] <= c.radius + 1e-9
    other = c._replace(p=c.p + [0, 2 * c.radius + 0.01, 0], q=c.q + [0, 2 * c.radius + 0.01, 0])
    assert not capsules_overlap(c, other)
    assert capsules_overlap(c, c._replace(p=c.p + [0, c.radius, 0], q=c.q + [0, c.radius, 0]))


# --- point in polyhedron -------------------------------------------------------------------------
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


def l_extrusion():
    """An L-shaped prism: the 2D L of [0,2]x[0,1] + [0,1]x[1,2], extruded over z in [0, 1]."""
    ring = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], float)
    n = len(ring)
    v = np.vstack([np.column_stack([ring, np.zeros(n)]), np.column_stack([ring, np.ones(n)])])
    faces = [[0, 5, 3], [0, 3, 2], [0, 2, 1], [3, 5, 4],  # bottom (outward -z)
             [6, 8, 9], [6, 7, 8], [9, 11, 6], [9, 10, 11]]  # top (outward +z)
    for e in range(n):
        g = (e + 1) % n
        faces += [[e, g, n + g], [e, n + g, n + e]]
    return v, np.array(faces)


def test_point_in_concave_polyhedron_l_shape():
    v, f = l_extrusion()
    rng = np.random.default_rng(3)
    pts = rng.uniform(-0.5, 2.5, (2000, 3))
    x, y, z = pts.T
    truth = ((0 < z) & (z < 1) & (((0 < x) & (x < 2) & (0 < y) & (y < 1))
                                  | ((0 < x) & (x < 1) & (0 < y) & (y < 2))))
    inside, on_b = point_in_polyhedron(pts, v, f)
    assert np.array_equal(inside, truth) and not on_b.any()
    # points whose +x ray hits edges and vertices exactly: the re-cast gives the answer
    grid = np.array([[0.5, 0.5, 0.5], [0.5, 1.0, 0.5], [1.5, 1.0, 0.0], [1.0, 1.5, 1.0],
                     [0.5, 1.5, 0.5], [1.5, 1.5, 0.5]])
    inside, on_b = point_in_polyhedron(grid, v, f)
    assert inside.tolist() == [True, True, True, True, True, False]
    assert on_b.tolist() == [False, False, True, True, False, False]


def test_open_and_inward_meshes_are_refused():
    v, f = CUBE
    with pytest.raises(ValueError, match='closed'):
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, f[:-1])
    with pytest.raises(ValueError, match='closed'):  # a face twice
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, np.vstack([f, f[:1]]))
    with pytest.raises(ValueError, match='consistently wound'):  # one face flipped
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, np.vstack([f[:-1], f[-1:, ::-1]]))
    with pytest.raises(ValueError, match='inwards'):
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, f[:, ::-1])
    lv, lf = l_extrusion()
    with pytest.raises(ValueError, match='not convex'):
        point_in_convex_polyhedron([[0.5, 0.5, 0.5]], lv, lf)


# --- triangles and facets ----------------------------------------------------------------------
def lp_triangles_meet(t1, t2):
    return lp_intersect(np.asarray(t1, float), np.asarray(t2, float))


@pytest.mark.parametrize('seed', range(60))
def test_triangle_intersection_matches_linear_programming(seed):
    rng = np.random.default_rng(seed)
    t1 = rng.uniform(-1, 1, (3, 3))
    t2 = rng.uniform(-1, 1, (3, 3)) + rng.uniform(-0.5, 0.5, 3)
    seg = triangle_intersection(t1, t2)
    assert (seg is not None) == lp_triangles_meet(t1, t2)
    if seg is not None:
        for p in seg:  # every returned point lies in both triangles
            for t in (t1, t2):
                assert lp_intersect(np.array([p]), t) or np.min(
                    np.linalg.norm(t - p, axis=1)) < 1e-9


def test_coplanar_triangles():
    t1 = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0]], float)
    overlap = triangle_intersection(t1, t1 + [0.5, 0.5, 0])
    assert overlap is not None and len(overlap) == 3  # a smaller triangle
    assert triangle_intersection(t1, t1 + [3, 3, 0]) is None
    touching = triangle_intersection(t1, np.array([[2, 0, 0], [3, 0, 0], [3, 1, 0]], float))
    assert touching is not None and np.allclose(touching, [[2, 0, 0]])


def test_triangles_touching_at_a_vertex_and_crossing():
    t1 = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    t2 = np.array([[0.2, 0.2, 0], [0.2, 0.2, 1], [1, 1, 1]], float)  # vertex on t1's face
    assert np.allclose(triangle_intersection(t1, t2), [[0.2, 0.2, 0]])
    t3 = np.array([[0.2, 0.2, -1], [0.2, 0.2, 1], [-1, -1, 0]], float)  # pierces t1
    seg = triangle_intersection(t1, t3)
    assert seg.shape == (2, 3) and np.allclose(sorted(seg[:, 0]), [0.0, 0.2])


def test_facet_intersection_of_squares():
    sq = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    upright = np.array([[0.5, -1, -0.5], [0.5, 2, -0.5], [0.5, 2, 0.5], [0.5, -1, 0.5]], float)
    pts = facet_intersection(sq, upright)
    assert len(pts) == 2 and np.allclose(sorted(pts[:, 1]), [0, 1])
    assert np.allclose(pts[:, 0], 0.5) and np.allclose(pts[:, 2], 0)
    assert len(facet_intersection(sq, upright + [2, 0, 0])) == 0


# --- convex pairs ------------------------------------------------------------------------------
@pytest.mark.parametrize('seed', range(30))
def test_gjk_and_separating_plane_match_references(seed):
    rng = np.random.default_rng(seed)
    va, fa = random_convex(rng, rng.integers(8, 40))
    vb, fb = random_convex(rng, rng.integers(8, 40), centre=rng.uniform(-2.2, 2.2, 3))
    meet = lp_intersect(va, vb)
    dist, pa, pb = gjk_distance(va, vb)
    assert convex_polyhedra_intersect(va, vb) == meet
    plane = separating_plane(va, fa, vb, fb)
    assert (plane.distance <= 1e-9) == meet
    if not meet:
        ref = qp_distance(va, vb)
        assert dist == pytest.approx(ref, abs=1e-6)
        assert np.linalg.norm(pa - pb) == pytest.approx(dist, abs=1e-9)
        assert lp_intersect(np.array([pa]), va) and lp_intersect(np.array([pb]), vb)
        # the separating plane's gap is a lower bound of the distance
        assert plane.distance <= dist + 1e-9
    else:
        assert dist == 0.0
        # moving b by the penetration along the normal separates them
        moved = vb + plane.normal * (-plane.distance + 1e-7)
        assert not lp_intersect(va, moved)


def test_face_face_resting_contact_manifold():
    va, fa = CUBE
    vb, fb = CUBE[0] + [0.25, 0.25, 1.0], CUBE[1]  # resting on top, offset
    points, normal, depth = contact_manifold(va, fa, vb, fb, 1e-6)
    assert depth == pytest.approx(0.0, abs=1e-12) and np.allclose(normal, [0, 0, 1])
    got = sorted(map(tuple, np.round(points[:, :2], 9)))
    assert got == [(0.25, 0.25), (0.25, 1.0), (1.0, 0.25), (1.0, 1.0)]
    assert np.allclose(points[:, 2], 1.0)


def test_edge_edge_crossing_and_vertex_face():
    va, fa = CUBE
    # a cube rotated 45 degrees about x, lowered onto the top face: edge on face -> 2 points
    c, s = np.cos(np.pi / 4), np.sin(np.pi / 4)
    rot = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    vb = (CUBE[0] - 0.5) @ rot.T + [0.5, 0.5, 1.0 + np.sqrt(0.5)]
    points, normal, depth = contact_manifold(va, fa, vb, CUBE[1], 1e-6)
    assert len(points) == 2 and depth == pytest.approx(0.0, abs=1e-9)
    # rotated about z as well: edge crossing edge -> one point
    rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    vc = (CUBE[0] - 0.5) @ (rz @ rot).T + [0.5, 0.5, 1.0 + np.sqrt(0.5)]
    points, normal, depth = contact_manifold(va, fa, vc, CUBE[1], 1e-6)
    assert len(points) in (1, 2)  # a vertex-face or edge-face touch
    # one inside the other: negative distance, depth to the nearest face
    small = CUBE[0] * 0.2 + 0.3
    plane = separating_plane(va, fa, small, CUBE[1])
    assert plane.distance == pytest.approx(-0.5)


def test_prepared_polyhedron_moved_equals_checking_the_moved_mesh():
    rng = np.random.default_rng(8)
    for _ in range(20):
        va, fa = random_convex(rng)
        vb, fb = random_convex(rng, centre=rng.uniform(-1.5, 1.5, 3))
        q, r = np.linalg.qr(rng.normal(size=(3, 3)))
        rot = q * np.sign(np.diag(r))
        rot *= np.linalg.det(rot)  # a proper rotation
        shift = rng.uniform(-5, 5, 3)
        moved = ConvexPolyhedron(va, fa).moved(rot, shift)
        fresh = ConvexPolyhedron(va @ rot.T + shift, fa)
        assert np.allclose(moved.normals, fresh.normals) and np.allclose(moved.offsets,
                                                                         fresh.offsets)
        other = ConvexPolyhedron(vb @ rot.T + shift, fb)
        assert moved.intersects(other) == convex_polyhedra_intersect(va, vb)
        assert moved.distance(other)[0] == pytest.approx(gjk_distance(va, vb)[0], abs=1e-9)
        got = moved.separating_plane(other)
        expected = separating_plane(va, fa, vb, fb)  # the same pair before the motion
        assert got.distance == pytest.approx(expected.distance, abs=1e-9)
    with pytest.raises(ValueError, match='rotation'):
        ConvexPolyhedron(va, fa).moved(2 * np.eye(3), np.zeros(3))


def test_vertices_in_no_face_do_not_change_the_plane():
    rng = np.random.default_rng(12)
    for _ in range(20):
        va, fa = random_convex(rng)
        vb, fb = random_convex(rng, centre=rng.uniform(-1.5, 1.5, 3))
        # an interior point listed first, used by no face
        extra = np.vstack([0.1 * va.mean(axis=0), va])
        got = separating_plane(extra, fa + 1, vb, fb)
        assert got.distance == pytest.approx(separating_plane(va, fa, vb, fb).distance,
                                             abs=1e-12)


def test_manifold_points_lie_on_both_bodies_within_the_band():
    rng = np.random.default_rng(21)
    checked = 0
    for n in (8, 16, 32):
        for (va, fa), (vb, fb) in resting_pairs(n, 15, rng, depth=1e-3):
            got = ConvexPolyhedron(va, fa).contact_manifold(ConvexPolyhedron(vb, fb), 1e-6)
            assert got is not None  # pushed 1 mm into each other
            points, normal, depth = got
            assert 0.0 <= depth <= 1e-3 + 1e-9
            for v in (va, vb):  # scipy's hull half-spaces: n.x + d <= 0 inside
                eq = ConvexHull(v).equations
                outside = (points @ eq[:, :3].T + eq[:, 3]).max(axis=1)
                assert outside.max() <= 1e-6 + depth + 1e-9
            checked += 1
    assert checked == 45


def test_polyhedron_set_matches_one_pair_at_a_time():
    rng = np.random.default_rng(17)
    bodies = [ConvexPolyhedron(*random_convex(rng, n=int(rng.integers(6, 30)),
                                              centre=rng.uniform(-2, 2, 3)))
              for _ in range(25)]
    bodies += [ConvexPolyhedron(*pair[k]) for pair in resting_pairs(12, 5, rng) for k in (0, 1)]
    batch = PolyhedronSet(bodies)
    pairs = np.array([(i, j) for i in range(len(bodies)) for j in range(i + 1, len(bodies))])
    counts, points, normals, depths = batch.contact_manifolds(pairs, 1e-6)
    distance, pa, pb = batch.distances(pairs)
    assert counts.min() == 0 and (counts > 0).sum() > 20
    for p, (i, j) in enumerate(pairs):
        one = bodies[i].contact_manifold(bodies[j], 1e-6)
        if one is None:
            assert counts[p] == 0
        else:
            assert counts[p] == len(one[0])
            assert np.array_equal(points[p, :counts[p]], one[0])
            assert np.array_equal(normals[p], one[1]) and depths[p] == one[2]
        assert distance[p] == bodies[i].distance(bodies[j])[0]
    # the same on one thread, and on a query too small to go parallel; numba's thread
    # setting is left as it was
    before = numba.get_num_threads()
    small = slice(200, 210)
    assert (len(pairs[small]) * batch.most_vertices < PARALLEL_WORK
            <= len(pairs) * batch.most_vertices)
    for threads, part in ((1, slice(None)), (None, small)):
        batch.threads = threads
        n2, p2, u2, d2 = batch.contact_manifolds(pairs[part], 1e-6)
        assert np.array_equal(n2, counts[part]) and np.array_equal(u2, normals[part])
        assert np.array_equal(d2, depths[part])
        for q, p in enumerate(range(len(pairs))[part]):
            assert np.array_equal(p2[q, :n2[q]], points[p, :counts[p]])
        assert np.array_equal(batch.distances(pairs[part])[0], distance[part])
        assert numba.get_num_threads() == before
    with pytest.raises(ValueError, match='pairs'):
        batch.distances([[0, len(bodies)]])


@pytest.mark.parametrize('seed', range(3))
def test_a_manifold_exists_exactly_when_the_bodies_are_within_eps(seed):
    """Against the QP distance, on pairs placed tip to tip where their bounding spheres
    touch (the edge of the sphere early-out: each body's farthest vertex from its sphere's
    centre faces the other), one at a time and in a batch."""
    rng = np.random.default_rng(40 + seed)
    bodies, pairs, expected, eps = [], [], [], float([0.0, 0.05, 0.2][seed])

    def tip(body):
        offsets = body.vertices - body.centre
        far = offsets[np.argmax(np.linalg.norm(offsets, axis=1))]
        return far / np.linalg.norm(far)

    while len(expected) < 20:
        a = ConvexPolyhedron(*random_convex(rng, n=10))
        b = ConvexPolyhedron(*random_convex(rng, n=10))
        direction = tip(a)
        turn = Rotation.align_vectors([-direction], [tip(b)])[0].as_matrix()
        b = b.moved(turn, np.zeros(3))
        gap = (a.radius + b.radius + eps) * rng.uniform(0.96, 1.03)
        b = b.moved(np.eye(3), np.asarray(a.centre) + gap * direction - b.centre)
        d = qp_distance(a.vertices, b.vertices)  # overlapping: 0 to about 1e-8
        if abs(d - eps) < 1e-6 and d > 1e-6:
            continue  # too close to eps for the QP to settle
        apart = d > eps + 1e-6
        assert (a.contact_manifold(b, eps) is None) == apart, (d, eps)
        bodies += [a, b]
        pairs.append((len(bodies) - 2, len(bodies) - 1))
        expected.append(apart)
    counts = PolyhedronSet(bodies).contact_manifolds(pairs, eps)[0]
    assert np.array_equal(counts == 0, expected)
    assert 2 <= sum(expected) <= 18, sum(expected)  # both kinds


def test_manifold_within_eps_only():
    va, fa = CUBE
    # corner to corner along the diagonal: true distance sqrt(3) * 0.1, but the best face or
    # edge-edge plane only sees a gap of 0.1
    vb = CUBE[0] + 1.1
    assert separating_plane(va, fa, vb, CUBE[1]).distance == pytest.approx(0.1)
    assert gjk_distance(va, vb)[0] == pytest.approx(np.sqrt(3) * 0.1)
    assert contact_manifold(va, fa, vb, CUBE[1], 0.15) is None
    # face over face, 0.1 apart: four points once eps reaches the gap
    vc = CUBE[0] + [0.5, 0.5, 1.1]
    assert contact_manifold(va, fa, vc, CUBE[1], 0.05) is None
    points, normal, depth = contact_manifold(va, fa, vc, CUBE[1], 0.15)
    assert len(points) == 4 and np.allclose(normal, [0, 0, 1]) and depth == 0.0


def test_non_convex_input_is_refused():
    lv, lf = l_extrusion()
    with pytest.raises(ValueError, match='not convex'):
        separating_plane(lv, lf, *CUBE)


def test_gjk_batch_matches_single_calls():
    rng = np.random.default_rng(11)
    va = rng.normal(size=(50, 12, 3))
    vb = rng.normal(size=(50, 9, 3)) + rng.uniform(-3, 3, (50, 1, 3))
    dist, pa, pb = gjk_distance_batch(va, vb)
    for p in range(50):
        d, a, b = gjk_distance(va[p], vb[p])
        assert dist[p] == d and np.array_equal(pa[p], a) and np.array_equal(pb[p], b)
    with pytest.raises(ValueError, match='must be'):
        gjk_distance_batch(va, vb[:3])


def test_gjk_refuses_non_finite_input():
    pts = np.random.default_rng(1).normal(size=(6, 3))
    bad = pts.copy()
    bad[2, 1] = np.nan
    for fn in (gjk_distance, convex_polyhedra_intersect):
        with pytest.raises(ValueError, match='finite'):
            fn(pts, bad)
    with pytest.raises(ValueError, match='finite'):
        gjk_distance_batch(pts[None], bad[None])


def brute_baraff(va, fa, vb, fb):
    """Baraff's largest gap over every face normal and every edge-edge cross product."""
    def normals(v, f):
        n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
        return n / np.linalg.norm(n, axis=1)[:, None]

    def edges(v, f):
        e = np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]), axis=1)
        e = np.unique(e, axis=0)
        return v[e[:, 1]] - v[e[:, 0]]

    axes = [normals(va, fa), -normals(vb, fb)]
    cross = np.cross(edges(va, fa)[:, None], edges(vb, fb)[None]).reshape(-1, 3)
    length = np.linalg.norm(cross, axis=1)
    cross = cross[length > 1e-9] / length[length > 1e-9, None]
    axes += [cross, -cross]
    n = np.vstack(axes)
    return float(np.max((vb @ n.T).min(axis=0) - (va @ n.T).max(axis=0)))


@pytest.mark.parametrize('seed', range(12))
def test_pruned_separating_plane_on_deep_overlaps_of_many_vertices(seed):
    """The benchmark's hard case: 64-vertex bodies deep in each other, where every edge
    pruning rule is in play."""
    rng = np.random.default_rng(300 + seed)
    va, fa = random_convex(rng, 64)
    offset = rng.normal(size=3)
    offset *= rng.uniform(0.0, 0.8) / np.linalg.norm(offset)
    vb, fb = random_convex(rng, 64, centre=offset)
    got = ConvexPolyhedron(va, fa).separating_plane(ConvexPolyhedron(vb, fb))
    full = brute_baraff(va, fa, vb, fb)
    assert full < -0.05  # deep
    assert got.distance == pytest.approx(full, abs=1e-12)
    # the plane's normal gives the gap it claims
    gap = (vb @ got.normal).min() - (va @ got.normal).max()
    assert gap == pytest.approx(got.distance, abs=1e-12)


def test_pruned_separating_plane_where_edge_pairs_win():
    """Flattened and stretched bodies of few vertices, overlapping: most best axes are
    edge-edge cross products, which the pruned search must still find (brute force as the
    reference)."""
    rng = np.random.default_rng(41)
    kinds = []
    for _ in range(60):
        n = int(rng.integers(5, 12))
        va, fa = hull_mesh(random_convex(rng, n)[0] * rng.uniform(0.2, 2.0, 3))
        vb, fb = hull_mesh(random_convex(rng, n)[0] * rng.uniform(0.2, 2.0, 3)
                           + rng.normal(size=3) * 0.6)
        got = separating_plane(va, fa, vb, fb)
        full = brute_baraff(va, fa, vb, fb)
        assert (got.distance > 0) == (full > 0)
        if full <= 0:
            assert got.distance == pytest.approx(full, abs=1e-12)
            kinds.append(got.kind)
    assert kinds.count('edge_edge') > 10


def test_vertex_adjacency_lists_each_edge_both_ways():
    rng = np.random.default_rng(3)
    body = ConvexPolyhedron(*random_convex(rng, 30))
    n = len(body.vertices)
    adj = body.adjacency
    listed = {(i, int(j)) for i in range(n) for j in adj[adj[i]:adj[i + 1]]}
    edges = {tuple(sorted(map(int, f[[k, (k + 1) % 3]]))) for f in body.faces for k in range(3)}
    assert listed == {e for a, b in edges for e in ((a, b), (b, a))}


def test_face_pass_survives_a_plateau_of_equal_heights():
    """A cube whose top face is a fan around its centre vertex (listed first, where the
    climb starts): along +z its neighbours are all as high as it, the climb stops there, and
    only the scan finds the bottom."""
    corners = CUBE_V
    top = [np.flatnonzero((corners == c).all(axis=1))[0] + 1
           for c in ([0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1])]
    va = np.vstack([[0.5, 0.5, 1.0], corners])
    cube_faces = CUBE[1] + 1  # hull_mesh keeps the corners in order
    assert np.allclose(CUBE[0], corners)
    sides = [f for f in cube_faces if not np.allclose(va[f, 2], 1.0)]
    fa = np.array(sides + [[0, top[k], top[(k + 1) % 4]] for k in range(4)])
    fan = ConvexPolyhedron(va, fa)
    lowest = np.empty(1, np.intp)
    up = np.array([[0.0, 0.0, 1.0, 0.0]])  # one face axis, +z, the climb starting at 0
    (gap, *_), _ = _face_axes(up, fan.vertices, fan.adjacency, 1.0,
                              (-np.inf, 0.0, 0.0, 0.0, 0.0, -1), np.inf, lowest)
    assert gap == 0.0 and va[lowest[0], 2] == 0.0
    for shift in ([0.3, 0.2, -0.7], [0.1, -0.4, 0.9], [0.05, 0.1, 0.2]):
        vb, fb = CUBE[0] + shift, CUBE[1]
        for (v1, f1), (v2, f2) in (((va, fa), (vb, fb)), ((vb, fb), (va, fa))):
            got = separating_plane(v1, f1, v2, f2)
            assert got.distance == pytest.approx(brute_baraff(v1, f1, v2, f2), abs=1e-12)


def test_edge_arcs_point_into_the_arc_and_turn_with_the_body():
    rng = np.random.default_rng(5)
    body = ConvexPolyhedron(*random_convex(rng, 20))
    a = body.normals[body.edge_data[:, 2]]
    b = body.normals[body.edge_data[:, 3]]
    q, t0, t1 = body.arcs[:, :3], body.arcs[:, 3:6], body.arcs[:, 6:]
    mid = a + b  # the arc's midpoint direction (adjacent faces are less than pi apart)
    assert np.allclose(np.einsum('ij,ij->i', q, mid), 0.0)
    assert (np.einsum('ij,ij->i', t0, mid) > 0).all()
    assert (np.einsum('ij,ij->i', t1, mid) > 0).all()
    rot, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    rot *= np.linalg.det(rot)
    moved = body.moved(rot, rng.normal(size=3))
    assert np.allclose(moved.arcs, ConvexPolyhedron(body.vertices @ rot.T, body.faces).arcs)


@pytest.mark.parametrize('seed', range(5))
def test_edge_pruning_bound_holds_along_the_whole_arc(seed):
    """An edge is dropped only when n.(v - p) < limit all along its Gauss-map arc for one of
    its two candidate vertices v (dense sampling of the arc as the reference)."""
    rng = np.random.default_rng(seed)
    body = ConvexPolyhedron(*random_convex(rng, 24))
    other = rng.normal(size=(40, 3)) * 1.5
    lowest = rng.integers(0, len(other), len(body.faces))
    codes = np.zeros(len(body.vertices), np.int8)
    s = np.linspace(0.0, 1.0, 2001)[:, None]
    dropped = 0
    for limit in (-0.6, -0.2, 0.0, 0.3, 0.9):
        keep = np.empty(len(body.edge_data), np.intp)
        count = _edges_that_may_win(body.vertices, body.planes, body.edge_data, body.arcs,
                                    codes, other, lowest, limit, keep)
        for e in sorted(set(range(len(body.edge_data))) - set(keep[:count])):
            p, _, f0, f1 = body.edge_data[e]
            arc = (1 - s) * body.normals[f0] + s * body.normals[f1]
            arc /= np.linalg.norm(arc, axis=1)[:, None]
            peak = min((arc @ (other[v] - body.vertices[p])).max()
                       for v in (lowest[f0], lowest[f1]))
            assert peak < limit + 1e-12
            dropped += 1
        assert 0 < count
    assert dropped > 50


def test_edge_pruning_finds_the_peak_inside_the_arc():
    """w pointing into an edge's arc: the largest n.w is |u| (w's part in the arc's plane),
    not an end value, so a limit between the ends and |u| keeps the edge and one above |u|
    drops it."""
    rng = np.random.default_rng(9)
    body = ConvexPolyhedron(*random_convex(rng, 16))
    lowest = np.zeros(len(body.faces), np.intp)
    codes = np.zeros(len(body.vertices), np.int8)
    keep = np.empty(len(body.edge_data), np.intp)
    for e, (p, _, f0, f1) in enumerate(body.edge_data):
        a, b = body.normals[f0], body.normals[f1]
        mid = (a + b) / np.linalg.norm(a + b)
        out_of_plane = np.cross(a, b) / np.linalg.norm(np.cross(a, b))
        w = 0.7 * mid + 0.5 * out_of_plane
        ends = max(a @ w, b @ w)
        other = (body.vertices[p] + w)[None]
        for limit, kept in ((0.5 * (ends + 0.7), True), (0.7 * 1.001, False)):
            count = _edges_that_may_win(body.vertices, body.planes, body.edge_data,
                                        body.arcs, codes, other, lowest, limit, keep)
            assert (e in keep[:count]) == kept


points2 = st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=3, max_size=30)


@given(points2)
@example([(0.0, 0.0), (0.0, 8.4e-13), (1.0, 0.0)])  # a sliver scipy keeps
def test_hull2_matches_scipy(pts):
    pts = np.array(pts)
    out = np.empty((len(pts) + 1, 2))
    k = hull2(pts.copy(), len(pts), out)
    # hull2 merges points within SAME_POINT * (1 + scale) per axis: each merge moves the hull
    # boundary by at most that times sqrt(2), so the area by at most that times the perimeter
    slack = 2 * SAME_POINT * (1 + np.abs(pts).max()) * 2 * np.ptp(pts, axis=0).sum()
    try:
        ref = ConvexHull(pts)
    except Exception:  # all points (nearly) collinear or repeated: a segment or a point
        assert k <= 2 or abs(to_shapely(out[:k]).area) < 1e-9
        return
    if k <= 2:  # what scipy saw as a sliver hull2 merged into a segment
        assert ref.volume <= slack
        return
    hull = out[:k]
    assert to_shapely(hull).area == pytest.approx(ref.volume, rel=1e-9, abs=slack + 1e-12)
    edges = np.roll(hull, -1, axis=0) - hull
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(
        edges, -1, axis=0)[:, 0]
    assert (turns > 0).all()  # CCW, no collinear corners


# hull2 and clip_convex compiled again with bounds checks, so that a write past the buffer
# sizes their docstrings promise raises IndexError here (the library's build would corrupt the
# heap instead, and the process abort later at some unrelated free)
hull2_checked = numba.njit(boundscheck=True)(hull2.py_func)
clip_checked = numba.njit(boundscheck=True)(clip_convex.py_func)
ROUNDING = [0.0, 1e-300, -1e-300, 1e-16, -1e-16, 4e-16, -4e-16]
nearly_collinear = st.builds(
    lambda a, b, ts: np.array([(t, a * t + b + e * w) for t, e, w in ts]),
    st.floats(-2, 2), st.floats(-2, 2),
    st.lists(st.tuples(st.floats(-3, 3), st.sampled_from(ROUNDING), st.floats(0, 1)),
             min_size=3, max_size=25))


@given(st.one_of(nearly_collinear, points2.map(np.array)))
@example(np.array([[1.28007613, 0.30624557], [-2.9841847, 3.76777709],
                   [-0.56683169, 1.8054807]]))  # pushed 4 points into 4 rows before
def test_hull2_fits_count_plus_one_rows(pts):
    n = len(pts)
    out = np.empty((n + 1, 2))
    k = hull2_checked(pts.copy(), n, out)
    assert k <= n
    corners = {tuple(c) for c in out[:k].tolist()}
    assert corners <= {tuple(c) for c in pts.tolist()}  # corners are input points


def exact_overlap_area(subject, clip):
    """Area of CCW convex subject inside CCW convex clip, by clipping in exact rationals
    (shapely's GEOS fails on subnormal coordinates: a TopologyException, or area 0)."""
    poly = [tuple(map(Fraction, v)) for v in subject.tolist()]
    edges = [tuple(map(Fraction, v)) for v in clip.tolist()]
    for (ax, ay), (bx, by) in zip(edges, edges[1:] + edges[:1]):
        def side(p):
            return (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        kept = []
        for p, q in zip(poly, poly[1:] + poly[:1]):
            sp, sq = side(p), side(q)
            if sp >= 0:
                kept.append(p)
            if (sp >= 0) != (sq >= 0):
                f = sp / (sp - sq)
                kept.append((p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])))
        poly = kept
    twice = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1]))
    return float(twice / 2)


def polygon_hulls(hull, *point_sets):
    """The hulls of the point sets by `hull` (a build of hull2), or None when one is not a
    polygon (fewer than 3 corners)."""
    hulls = []
    for pts in point_sets:
        out = np.empty((len(pts) + 1, 2))
        k = hull(pts.copy(), len(pts), out)
        if k < 3:
            return None
        hulls.append(out[:k])
    return hulls


@given(st.one_of(nearly_collinear, points2.map(np.array)),
       st.one_of(nearly_collinear, points2.map(np.array)))
@example(np.array([(1.0, 0.0), (2.8e-232, 1.0), (-1.0, 1.0), (-1.0, -1.0)]),
         np.array([(0.0, -1.0), (2.8e-232, 1.0), (-1.0, 0.0)]))  # wrote past ns + nc rows
def test_clip_convex_fits_ns_plus_nc_rows(p, q):
    hulls = polygon_hulls(hull2_checked, p, q)
    if hulls is None:
        return
    (ha, hb), size = hulls, len(hulls[0]) + len(hulls[1])
    k = clip_checked(ha, len(ha), hb, len(hb), np.empty((size, 2)), np.empty((size, 2)))
    assert k <= size


@given(points2, points2)
@example([(1.0, 0.0), (2.8e-232, 1.0), (-1.0, 1.0), (-1.0, -1.0)],
         [(0.0, -1.0), (2.8e-232, 1.0), (-1.0, 0.0)])
@example([(3.0, 0.0), (7.8e-234, 1.0), (-1.234756300607399, 1.0)],
         [(0.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (-4.6e-70, -1.5)])  # a one-vertex rounding run
def test_clip_convex_area_matches_exact_clipping(p, q):
    hulls = polygon_hulls(hull2, np.array(p), np.array(q))
    if hulls is None:
        return
    ha, hb = hulls
    size = len(ha) + len(hb)
    out, scratch = np.empty((size, 2)), np.empty((size, 2))
    k = clip_convex(ha, len(ha), hb, len(hb), out, scratch)
    expected = exact_overlap_area(ha, hb)
    got = to_shapely(out[:k]).area if k >= 3 else 0.0
    assert got == pytest.approx(expected, rel=1e-7, abs=1e-9)


@pytest.mark.parametrize('seed', range(30))
def test_pruned_separating_plane_keeps_sign_and_depth(seed):
    rng = np.random.default_rng(100 + seed)
    va, fa = random_convex(rng, rng.integers(6, 30))
    vb, fb = random_convex(rng, rng.integers(6, 30), centre=rng.uniform(-1.8, 1.8, 3))
    got = separating_plane(va, fa, vb, fb).distance
    full = brute_baraff(va, fa, vb, fb)
    assert (got > 0) == (full > 0)
    if full <= 0:
        assert got == pytest.approx(full, abs=1e-12)
    else:
        assert got <= full + 1e-12


ISSUE_TETRAHEDRA = (
    np.array([[-0.700548823091534, 1.3382795151279085, 0.5822058485731421],
              [-1.7518005652801107, 1.0414021981866897, -1.0747914952232525],
              [-0.1779139465826313, 0.668113421683895, -0.29985316059917977],
              [1.1189440556172074, 0.7612637605131622, -1.5768756104869754]]),
    np.array([[0, 3, 1], [2, 1, 3], [2, 0, 1], [2, 3, 0]]),
    np.array([[-0.45141732203329554, 1.0420491612471123, -3.1133184138973284],
              [-0.19525967178065307, 1.5597603394146995, -2.221538425948831],
              [-0.8996022007543746, 0.9345817973793845, -3.1505893677421586],
              [-1.1941755248283017, -0.3700804219763181, -2.251364195531368]]),
    np.array([[2, 3, 1], [0, 1, 3], [0, 3, 2], [0, 2, 1]]))


def test_bodies_apart_along_an_edge_edge_axis_are_apart():
    """Every face axis of this pair overlaps; the bodies are 0.925 m apart along an
    edge-edge axis (the QP distance), so the plane's gap is positive and a manifold exists
    within eps = 1."""
    va, fa, vb, fb = ISSUE_TETRAHEDRA
    assert not lp_intersect(va, vb)
    plane = separating_plane(va, fa, vb, fb)
    assert plane.kind == 'edge_edge'
    assert plane.distance == pytest.approx(brute_baraff(va, fa, vb, fb), abs=1e-12)
    assert plane.distance == pytest.approx(qp_distance(va, vb), abs=1e-6)
    assert contact_manifold(va, fa, vb, fb, 1.0) is not None
    assert contact_manifold(va, fa, vb, fb, 0.9) is None


def supporting_planes_gap(va, fa, vb, fb):
    """The largest gap over the face normals and the edge pairs that support both bodies,
    by brute force: n = +-unit(u x w) counts when edge i's ends are a's highest points along
    n and edge j's ends b's lowest (1e-12 slack)."""
    def unit_normals(v, f):
        n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
        return n / np.linalg.norm(n, axis=1)[:, None]

    def edges(f):
        return np.unique(np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]),
                                 axis=1), axis=0)

    axes = list(np.vstack([unit_normals(va, fa), -unit_normals(vb, fb)]))
    for p, q in edges(fa):
        for r, s in edges(fb):
            n = np.cross(va[q] - va[p], vb[s] - vb[r])
            if np.linalg.norm(n) < 1e-9:
                continue
            for sign in (1.0, -1.0):
                m = sign * n / np.linalg.norm(n)
                ha, hb = va @ m, vb @ m
                if (min(ha[p], ha[q]) >= ha.max() - 1e-12
                        and max(hb[r], hb[s]) <= hb.min() + 1e-12):
                    axes.append(m)
    n = np.array(axes)
    return float(np.max((vb @ n.T).min(axis=0) - (va @ n.T).max(axis=0)))


def test_separating_planes_of_small_hulls_match_linear_programming():
    """Thousands of random pairs of 4 to 7-vertex hulls, about half of them meeting: the
    plane's sign against linear programming; its gap against every Baraff axis when they
    meet, against the supporting ones (brute force) and the distance when apart."""
    rng = np.random.default_rng(2024)
    meeting = 0
    for _ in range(2000):
        va, fa = random_convex(rng, int(rng.integers(4, 8)))
        vb, fb = random_convex(rng, int(rng.integers(4, 8)), centre=rng.uniform(-1.1, 1.1, 3))
        meet = lp_intersect(va, vb)
        plane = ConvexPolyhedron(va, fa).separating_plane(ConvexPolyhedron(vb, fb))
        assert (plane.distance <= 1e-9) == meet
        if meet:
            assert plane.distance == pytest.approx(brute_baraff(va, fa, vb, fb), abs=1e-9)
        else:
            assert plane.distance == pytest.approx(supporting_planes_gap(va, fa, vb, fb),
                                                   abs=1e-9)
            assert plane.distance <= gjk_distance(va, vb)[0] + 1e-9
        meeting += meet
    assert 400 < meeting < 1600


@pytest.mark.parametrize('faces', [CUBE[1] + 0.5, CUBE[1].astype(float) + 0.25,
                                   CUBE[1].reshape(-1)])
def test_faces_must_be_integer_triangles(faces):
    with pytest.raises(ValueError, match='faces'):
        ConvexPolyhedron(CUBE[0], faces)


@pytest.mark.parametrize('pairs', [[[0.0, 1.0]], [[0.5, 1]], [0, 1, 1, 0], [[0, 1, 1]]])
def test_polyhedron_set_pairs_must_be_integer_pairs(pairs):
    bodies = PolyhedronSet([ConvexPolyhedron(*CUBE), ConvexPolyhedron(CUBE[0] + 2, CUBE[1])])
    with pytest.raises(ValueError, match='pairs'):
        bodies.distances(pairs)
    with pytest.raises(ValueError, match='pairs'):
        bodies.contact_manifolds(pairs, 0.1)
