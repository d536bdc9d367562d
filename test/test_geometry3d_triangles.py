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
"""Triangle and facet intersection against linear programming."""

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.spatial.transform import Rotation
import shapely

from collision_monitor.geometry3d import facet_intersection, triangle_intersection
from shapes import common_point_constraints, lp_intersect


def lp_triangles_meet(t1, t2):
    return lp_intersect(np.asarray(t1, float), np.asarray(t2, float))


def lp_extremes(va, vb, u):
    """The points of hull(va) & hull(vb) least and farthest along u (linear programs over
    the weights of both hulls' vertices), or None when the hulls do not meet."""
    a_eq, b_eq = common_point_constraints(va, vb)
    ends = []
    for sign in (1.0, -1.0):
        c = np.concatenate([sign * (va @ u), np.zeros(len(vb))])
        res = linprog(c, A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method='highs')
        if res.status != 0:
            return None
        ends.append(res.x[:len(va)] @ va)
    return ends


def lp_segment_piercing(p, q, facet):
    """The point where segment pq meets the convex facet, or None (a linear program over
    the edge parameter and the facet's vertex weights)."""
    k = len(facet)
    a_eq = np.zeros((4, k + 1))
    a_eq[:3, 0] = q - p
    a_eq[:3, 1:] = -facet.T
    a_eq[3, 1:] = 1
    res = linprog(np.zeros(k + 1), A_eq=a_eq, b_eq=[*-p, 1], bounds=[(0, 1)] + [(0, None)] * k,
                  method='highs')
    return p + res.x[0] * (q - p) if res.status == 0 else None


def in_plane(points2, rotation, origin):
    """2D points placed in the plane through `origin` spanned by `rotation`'s first two
    columns."""
    return origin + np.column_stack([points2, np.zeros(len(points2))]) @ rotation.T


def touching_pair(rng, where):
    """t1 random; t2 with one vertex at a random point of t1 (its face, an edge or a vertex)
    and the other two strictly on one side of t1's plane: they share that point alone."""
    t1 = rng.uniform(-1, 1, (3, 3))
    normal = np.cross(t1[1] - t1[0], t1[2] - t1[0])
    normal /= np.linalg.norm(normal)
    w = {'face': rng.dirichlet([1, 1, 1]), 'vertex': np.eye(3)[rng.integers(3)],
         'edge': np.roll([rng.uniform(0.1, 0.9), 0.0, 0.0], rng.integers(3))}[where]
    w[w > 0] /= w.sum()
    touch = w @ t1
    side = rng.choice([-1.0, 1.0])
    rest = [touch + rng.uniform(-1, 1, 3) + side * rng.uniform(0.2, 1) * normal
            for _ in range(2)]
    rest = [r + side * max(0.0, 0.2 - side * (r - touch) @ normal) * normal for r in rest]
    return t1, np.array([touch, *rest])


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


@pytest.mark.parametrize('offset', [(0.0, 0.0, 0.0), (1000.0, 0.0, 0.0), (0.0, -3e-6, 2e-6)])
@pytest.mark.parametrize('length', [1e-6, 10.0])
def test_a_triangle_is_degenerate_below_the_tolerance_times_its_extent(offset, length):
    """A sliver along z of length L and height h (|n| = L h): refused (naming it) when
    |n| <= 64 eps (max |coordinate| + extent) * extent, with numpy's extent, accepted from
    twice that; micro and far triangles alike."""
    a = np.array(offset)
    base = np.array([a, a + [0.0, 0.0, length], a + [0.0, 0.0, length / 2]])
    extent = length
    limit = 64 * np.finfo(float).eps * (np.abs(base).max() + extent) * extent
    other = a + length * np.array([[5.0, 0.0, 0.0], [5.0, 1.0, 0.0], [5.0, 0.0, 1.0]])
    for factor, refused in ((0.5, True), (2.0, False)):
        tri = base.copy()
        tri[2, 1] += factor * limit / length
        if refused:
            with pytest.raises(ValueError, match=r'^t1 is degenerate \(zero area\)$'):
                triangle_intersection(tri, other)
            with pytest.raises(ValueError, match=r'^t2 is degenerate \(zero area\)$'):
                triangle_intersection(other, tri)
        else:
            triangle_intersection(tri, other)


def test_a_triangle_of_the_wrong_shape_is_named():
    with pytest.raises(ValueError, match=r'^t2 must be 3 vertices \(3, 3\)$'):
        triangle_intersection(np.eye(3), np.eye(4)[:, :3])


def check_against_linear_programming(t1, t2, tol=1e-7):
    """triangle_intersection(t1, t2) is None exactly when the triangles do not meet;
    otherwise its ends are the points of the intersection least and farthest along the
    planes' common line (one row when they coincide)."""
    got = triangle_intersection(t1, t2)
    u = np.cross(np.cross(t1[1] - t1[0], t1[2] - t1[0]), np.cross(t2[1] - t2[0], t2[2] - t2[0]))
    ends = lp_extremes(t1, t2, u / np.linalg.norm(u))
    assert (got is None) == (ends is None)
    if got is not None:
        assert len(got) == (1 if np.linalg.norm(ends[1] - ends[0]) < tol else 2)
        expected = ends[:len(got)]
        if len(got) == 2 and np.linalg.norm(got[0] - ends[0]) > np.linalg.norm(got[0] - ends[1]):
            expected = expected[::-1]
        np.testing.assert_allclose(got, expected, atol=tol)


@pytest.mark.parametrize('seed', range(8))
def test_crossing_triangles_give_the_segment_linear_programming_finds(seed):
    """Random triangles, pulled together so most meet; both argument orders."""
    rng = np.random.default_rng(100 + seed)
    for _ in range(25):
        t1 = rng.uniform(-1, 1, (3, 3))
        t2 = rng.uniform(-1, 1, (3, 3)) * rng.uniform(0.2, 1.5) + rng.uniform(-0.4, 0.4, 3)
        check_against_linear_programming(t1, t2)
        check_against_linear_programming(t2, t1)


@pytest.mark.parametrize('where', ['face', 'edge', 'vertex'])
def test_triangles_touching_at_one_point_give_that_point(where):
    """A vertex of t2 on t1's face, edge or vertex, the rest of t2 off t1's plane: one row,
    the shared point; both argument orders (then t1's single point on the plane comes
    first)."""
    rng = np.random.default_rng(['face', 'edge', 'vertex'].index(where))
    for _ in range(40):
        t1, t2 = touching_pair(rng, where)
        for a, b in ((t1, t2), (t2, t1)):
            got = triangle_intersection(a, b)
            assert got is not None and got.shape == (1, 3)
            np.testing.assert_allclose(got[0], t2[0], atol=1e-12)
            check_against_linear_programming(a, b)


def coplanar_case(rng, offset, height=None):
    """Two triangles in one random plane (2D shapes, rotation, origin); with `height`, the
    second is a sliver: its third vertex that far (m) from the midpoint of the others."""
    p = rng.uniform(-1, 1, (3, 2))
    q = rng.uniform(-1, 1, (3, 2)) * rng.uniform(0.3, 1.5) + rng.uniform(-0.6, 0.6, 2)
    if height is not None:
        edge = q[1] - q[0]
        q[2] = (q[0] + q[1]) / 2 + height * np.array([-edge[1], edge[0]]) / np.hypot(*edge)
    return p, q, Rotation.random(random_state=rng).as_matrix(), rng.uniform(-1, 1, 3) * offset


def check_coplanar_overlap(got, p, q, rotation, origin):
    """`got` is shapely's overlap of the 2D triangles: the same area and outline, CCW about
    t1's normal (the plane's normal times p's winding)."""
    overlap = shapely.Polygon(p).intersection(shapely.Polygon(q))
    if not shapely.Polygon(p).intersects(shapely.Polygon(q)):
        assert got is None
        return
    assert got is not None
    local = (got - origin) @ rotation
    np.testing.assert_allclose(local[:, 2], 0.0, atol=1e-9)
    ours = shapely.Polygon(local[:, :2]) if len(local) >= 3 else shapely.MultiPoint(local[:, :2])
    if overlap.area < 1e-9:
        assert ours.area < 1e-9 and ours.hausdorff_distance(overlap) < 1e-9
        return
    x, y = local[:, 0], local[:, 1]
    (x1, y1), (x2, y2) = p[1] - p[0], p[2] - p[0]
    winding = np.sign(x1 * y2 - y1 * x2)
    assert winding * (x @ np.roll(y, -1) - y @ np.roll(x, -1)) > 0
    assert abs(ours.area - overlap.area) < 1e-9 and ours.hausdorff_distance(overlap) < 1e-9
    assert ours.is_valid


@pytest.mark.parametrize('height', [None, 1e-3])
@pytest.mark.parametrize('offset', [0.0, 1e3])
def test_coplanar_triangles_overlap_as_shapely_finds(offset, height):
    """Coplanar triangles in random planes, near the origin and 1 km out, the second a
    sliver or not.  1 km out, the rounding of a sliver's vertices tilts its normal by about
    1e-10 rad: the other's vertices are then 1e-10 m from its plane, far beyond the
    coordinates' tolerance (1e-11 m), but within what that tilt allows."""
    rng = np.random.default_rng(int(offset))
    for _ in range(150):
        p, q, rotation, origin = coplanar_case(rng, offset, height)
        got = triangle_intersection(in_plane(p, rotation, origin), in_plane(q, rotation, origin))
        check_coplanar_overlap(got, p, q, rotation, origin)


def test_triangles_coplanar_within_the_tolerance_overlap_as_coplanar_ones():
    """t2 tilted out of t1's plane by 3e-12 (rad), 1 km out: its vertices are within the
    tolerance (about 1.4e-11 m there) of t1's plane although the normals' cross product
    (3e-12) is not negligible: the overlap polygon, as for exactly coplanar triangles."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        p, q, rotation, origin = coplanar_case(rng, 1e3)
        tilted = np.column_stack([q, 3e-12 * (q[:, 0] - q[:, 0].mean())]) @ rotation.T + origin
        got = triangle_intersection(in_plane(p, rotation, origin), tilted)
        check_coplanar_overlap(got, p, q, rotation, origin)


def random_facet(rng, centre):
    """A convex facet of 3 to 6 vertices on a circle, in a random plane through `centre`,
    CCW about the plane's normal (the rotation's third column)."""
    k = rng.integers(3, 7)
    angles = np.sort(rng.uniform(0, 2 * np.pi, k))
    ring = rng.uniform(0.3, 1.0) * np.column_stack([np.cos(angles), np.sin(angles)])
    return in_plane(ring, Rotation.random(random_state=rng).as_matrix(), centre)


@pytest.mark.parametrize('seed', range(4))
def test_facet_piercing_points_are_those_linear_programming_finds(seed):
    """Every point facet_intersection reports is where an edge of one facet meets the
    other, and every such meeting is reported (edges against the facets by linear
    programming)."""
    rng = np.random.default_rng(200 + seed)
    for _ in range(30):
        f1 = random_facet(rng, rng.uniform(-0.2, 0.2, 3))
        f2 = random_facet(rng, rng.uniform(-0.2, 0.2, 3))
        expected = [hit for own, other in ((f1, f2), (f2, f1))
                    for p, q in zip(other, np.roll(other, -1, axis=0))
                    if (hit := lp_segment_piercing(p, q, own)) is not None]
        got = facet_intersection(f1, f2)
        assert got.shape == (len(expected), 3)
        for point in got:
            assert min(np.linalg.norm(point - e) for e in expected) < 1e-7
        for e in expected:
            assert min(np.linalg.norm(point - e) for point in got) < 1e-7


def test_a_facet_of_the_wrong_shape_is_named():
    square = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]
    with pytest.raises(ValueError, match=r'^f1 must have shape \(n, 3\)'):
        facet_intersection([[0, 0], [1, 0], [0, 1]], square)
    with pytest.raises(ValueError, match=r'^f2 must have shape \(n, 3\)'):
        facet_intersection(square, [[0, 0], [1, 0], [0, 1]])


@pytest.mark.parametrize('k, touching', [(0.9, True), (1.1, False)])
def test_a_vertex_within_the_documented_tolerance_of_the_other_plane_touches(k, touching):
    """The tolerance of a distance from triangle 1's plane is the coordinates' (64 eps
    times largest |coordinate| plus extent) times 1 + extent / h1, h1 its least height (2
    area over its longest edge).  For the flat triangle below (legs 2 and 1 from (0.5, 0.5),
    h1 = 2 / sqrt 5, extent 2, coordinates up to 2.5) that is 288 eps (1 + sqrt 5).  A
    tilted triangle's lowest vertex k of those tolerances above the plane, over the inside:
    it touches at that vertex for k = 0.9, not for k = 1.1, whichever triangle comes first."""
    flat = np.array([[0.5, 0.5, 0.0], [2.5, 0.5, 0.0], [0.5, 1.5, 0.0]])
    tol = 288 * np.finfo(float).eps * (1.0 + np.sqrt(5.0))
    tip = np.array([1.0, 0.75, k * tol])
    tilted = np.array([tip, [1.0, 1.25, 1.0], [1.5, 0.75, 1.0]])
    for t1, t2 in ((flat, tilted), (tilted, flat)):
        got = triangle_intersection(t1, t2)
        assert (got is not None) == touching
        if touching:
            np.testing.assert_allclose(got, [tip], atol=1e-12)


def test_a_small_triangle_in_a_large_ones_plane_overlaps_it_as_coplanar():
    """A 1 m triangle inside a 110 m one, 1 km out, turned about a line through it by 3.5
    coordinate tolerances (rad; 64 eps (largest |coordinate| + extent), 1.7e-11): its
    vertices are within the tolerance of the large one's plane (2.4 tolerances, extent
    over the large one's height), so the two are coplanar and overlap in the small
    triangle, although the large one's vertices are 210 tolerances from the small one's
    plane (beyond its 140: its height is 0.8 m) and the normals' cross product (6e-11) is
    not negligible.  Either triangle first."""
    origin = np.array([1000.0, 1000.0, 0.0])
    large = origin + [[-50.0, -50.0, 0.0], [60.0, -50.0, 0.0], [-50.0, 60.0, 0.0]]
    tol = 64 * np.finfo(float).eps * (1060.0 + 110.0)
    flat = np.array([[-0.5, -0.3], [0.5, -0.3], [0.0, 0.5]])
    small = origin + np.column_stack([flat, 3.5 * tol * flat[:, 1]])
    for t1, t2 in ((small, large), (large, small)):
        got = triangle_intersection(t1, t2)
        assert got is not None and len(got) == 3
        ours = shapely.Polygon(got[:, :2] - origin[:2])
        assert ours.is_valid and ours.hausdorff_distance(shapely.Polygon(flat)) < 1e-9
