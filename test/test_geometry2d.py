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
"""2D predicates against independent references: shapely, exact rationals, the seed."""

from fractions import Fraction
import math

from hypothesis import assume, example, given, strategies as st
import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from collision_monitor.kernels.geometry2d import (
    contact, ContactKind, is_convex, point_in_convex_polygon, point_in_polygon,
    polygon_distance,
    polygons_intersect, polyxpoly, sat, validate_footprint)
from collision_monitor.kernels.geometry2d.primitives import norm, segment_intersection
from shapes import rigid, simple_polygons, to_shapely

SQUARE = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])


@given(st.floats(-1e300, 1e300), st.floats(-1e300, 1e300))
@example(1e-200, 3e-200)
@example(1e200, -3e200)
@example(0.0, 0.0)
def test_norm_is_hypot_within_an_ulp(x, y):
    assert norm(x, y) == pytest.approx(math.hypot(x, y), rel=2.5e-16, abs=0.0)


# --- polyxpoly -----------------------------------------------------------------------------
def test_polyxpoly_reproduces_the_seed_example():
    """[polygons]' t_polyxpoly, whose printed table is 1-based: subtract 1."""
    xbox = [3, 3, 13, 13, 3]
    ybox = [2, 8, 8, 2, 2]
    nan = np.nan
    xline = [0, 6, 4, 8, 8, 10, 14, 10, 14, nan, 4, 4, 6, 9, 15]
    yline = [4, 6, 10, 11, 7, 6, 10, 10, 6, nan, 0, 3, 4, 3, 6]
    printed = [(1, 1), (2, 2), (4, 2), (6, 2), (8, 2), (8, 3), (14, 3), (11, 4)]
    xi, yi, ii = polyxpoly(xline, yline, xbox, ybox)
    assert [tuple(r) for r in ii + 1] == printed
    for (x, y), (e, f) in zip(zip(xi, yi), ii):
        seg1 = shapely.LineString([(xline[e], yline[e]), (xline[e + 1], yline[e + 1])])
        seg2 = shapely.LineString([(xbox[f], ybox[f]), (xbox[f + 1], ybox[f + 1])])
        assert seg1.distance(Point(x, y)) < 1e-12 and seg2.distance(Point(x, y)) < 1e-12


def test_polyxpoly_collinear_overlap_gives_both_ends():
    xi, yi, ii = polyxpoly([0, 4], [0, 0], [1, 6], [0, 0])
    assert sorted(zip(xi, yi)) == [(1.0, 0.0), (4.0, 0.0)]
    assert ii.tolist() == [[0, 0], [0, 0]]


def test_polyxpoly_rejects_mismatched_nans():
    with pytest.raises(ValueError, match='NaN'):
        polyxpoly([0, np.nan, 1], [0, 1, 1], [0, 1], [1, 0])


# --- segment intersection against exact rationals --------------------------------------------
def _exact_segment_intersection(p1, p2, q1, q2):
    """Exact answer with Fractions: None, a point, or the overlap's ends (collinear)."""
    p1, p2, q1, q2 = ([Fraction(int(v)) for v in pt] for pt in (p1, p2, q1, q2))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    d1, d2 = cross(q1, q2, p1), cross(q1, q2, p2)
    d3, d4 = cross(p1, p2, q1), cross(p1, p2, q2)
    if d1 == d2 == d3 == d4 == 0:
        axis = 0 if p1[0] != p2[0] else 1
        if p1[axis] == p2[axis]:
            axis = 0 if q1[0] != q2[0] else 1
        pts = sorted([p1, p2], key=lambda v: v[axis])
        qts = sorted([q1, q2], key=lambda v: v[axis])
        lo = max(pts[0], qts[0], key=lambda v: v[axis])
        hi = min(pts[1], qts[1], key=lambda v: v[axis])
        if lo[axis] > hi[axis]:
            return None
        return {tuple(lo), tuple(hi)}
    if (d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0) or (d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0):
        return None
    if d1 == d2:  # parallel, not collinear
        return None
    s = d1 / (d1 - d2)
    return {(p1[0] + s * (p2[0] - p1[0]), p1[1] + s * (p2[1] - p1[1]))}


coord = st.integers(-6, 6)
point = st.tuples(coord, coord)


@given(point, point, point, point)
def test_segment_intersection_matches_exact_rationals(p1, p2, q1, q2):
    assume(p1 != p2 and q1 != q2)
    expected = _exact_segment_intersection(p1, p2, q1, q2)
    count, x0, y0, s0, t0, x1, y1, s1, t1 = segment_intersection(
        *map(float, (*p1, *p2, *q1, *q2)), 1e-12)
    if expected is None:
        assert count == 0
        return
    got = [(x0, y0)] + ([(x1, y1)] if count == 2 else [])
    assert count == len(expected)
    for gx, gy in got:
        assert min(abs(gx - float(ex)) + abs(gy - float(ey)) for ex, ey in expected) < 1e-12
    # parameters locate the point on both segments
    px = p1[0] + s0 * (p2[0] - p1[0])
    qx = q1[0] + t0 * (q2[0] - q1[0])
    assert abs(px - x0) < 1e-9 and abs(qx - x0) < 1e-9


@given(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(0.1, 10), st.floats(0, 6.28),
       st.floats(0.05, 0.95), st.floats(0.1, 3))
def test_segment_crossing_point_is_accurate(ox, oy, length, angle, frac, cross_len):
    """A segment crossing another at a known point (constructed, not computed)."""
    ux, uy = np.cos(angle), np.sin(angle)
    p1 = (ox, oy)
    p2 = (ox + length * ux, oy + length * uy)
    cx, cy = ox + frac * length * ux, oy + frac * length * uy
    q1 = (cx - cross_len * uy, cy + cross_len * ux)
    q2 = (cx + cross_len * uy, cy - cross_len * ux)
    count, x0, y0, *_ = segment_intersection(*p1, *p2, *q1, *q2, 1e-9)
    assert count == 1
    assert abs(x0 - cx) < 1e-9 and abs(y0 - cy) < 1e-9


# --- point in polygon against shapely --------------------------------------------------------
@given(simple_polygons(), st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1,
                                   max_size=30))
def test_point_in_polygon_matches_shapely(poly, pts):
    pts = np.array(pts)
    inside, on_boundary = point_in_polygon(pts, poly)
    shape = to_shapely(poly)
    for p, ins, onb in zip(pts, inside, on_boundary):
        d = shape.exterior.distance(Point(p))
        if d < 1e-9:
            continue
        assert not onb
        assert ins == shape.contains(Point(p))


@given(simple_polygons(convex=True),
       st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1, max_size=30))
def test_point_in_convex_polygon_matches_shapely(poly, pts):
    pts = np.array(pts)
    shape = to_shapely(poly)
    got = point_in_convex_polygon(pts, poly)
    for p, ins in zip(pts, got):
        if shape.exterior.distance(Point(p)) > 1e-9:
            assert ins == shape.contains(Point(p))


@given(simple_polygons())
def test_vertices_and_edge_midpoints_are_on_the_boundary(poly):
    mids = 0.5 * (poly + np.roll(poly, -1, axis=0))
    inside, on_boundary = point_in_polygon(np.vstack([poly, mids]), poly)
    assert inside.all() and on_boundary.all()


def test_point_in_polygon_concave_notch():
    """An L shape: its notch is outside, its arms inside, whatever the winding."""
    ell = np.array([[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]], float)
    pts = np.array([[2, 2], [0.5, 2], [2, 0.5], [0.5, 0.5], [1, 2], [4, 0.5]])
    for poly in (ell, ell[::-1]):
        inside, on_b = point_in_polygon(pts, poly)
        assert inside.tolist() == [False, True, True, True, True, False]
        assert on_b.tolist() == [False, False, False, False, True, False]


# --- polygon pairs against shapely -----------------------------------------------------------
pose = st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-np.pi, np.pi))


@given(simple_polygons(), simple_polygons(), pose)
def test_polygons_intersect_matches_shapely(a, b, p):
    b = rigid(b, p[2], p[0], p[1])
    sa, sb = to_shapely(a), to_shapely(b)
    assume(abs(sa.distance(sb)) > 1e-9 or sa.intersection(sb).area > 1e-9)
    assert polygons_intersect(a, b) == sa.intersects(sb)
    assert polygons_intersect(b, a) == sa.intersects(sb)


@given(st.floats(0.001, 0.05), st.floats(-1, 1), st.floats(0.3, 1.3))
def test_thin_slivers_crossing_with_no_vertex_inside(w, shift, angle):
    """Two long thin bars crossing in an X: no vertex of either lies in the other."""
    bar = np.array([[-2, -w], [2, -w], [2, w], [-2, w]])
    other = rigid(bar, angle, shift * 0.1, 0.0)
    c = contact(bar, other)
    assert c is not None and c.kind == ContactKind.CROSSING
    assert len(c.a_in_b) == 0 and len(c.b_in_a) == 0 and len(c.intersections) == 4
    assert polygons_intersect(bar, other)


def test_containment_is_found():
    inner = SQUARE * 0.25 + 0.5
    c = contact(SQUARE, inner)
    assert c.kind == ContactKind.CONTAINMENT
    assert sorted(c.b_in_a) == [0, 1, 2, 3] and len(c.a_in_b) == 0
    assert c.depth == pytest.approx(1.0)  # 1.0 to move inner out through the nearest side


# --- SAT ---------------------------------------------------------------------------------------
@given(simple_polygons(convex=True), simple_polygons(convex=True), pose)
def test_sat_minimum_translation_separates_and_is_minimal(a, b, p):
    b = rigid(b, p[2], p[0], p[1])
    sa = to_shapely(a)
    res = sat(a, b)
    sb = to_shapely(b)
    assume(sa.distance(sb) > 1e-7 or sa.intersection(sb).area > 1e-7)
    assert res.separated == (not sa.intersects(sb))
    assert np.linalg.norm(res.normal) == pytest.approx(1.0)
    if res.separated:
        return
    moved = shapely.affinity.translate(sb, *(res.normal * (res.depth + 1e-7)))
    assert not sa.intersects(moved)
    if res.depth > 1e-5:
        short = shapely.affinity.translate(sb, *(res.normal * (res.depth - 1e-6)))
        assert sa.intersects(short)
    # minimal: along 64 other directions, separating b takes at least `depth`
    for ang in np.linspace(0, 2 * np.pi, 64, endpoint=False):
        d = np.array([np.cos(ang), np.sin(ang)])
        need = max(0.0, (a @ d).max() - (b @ d).min())  # support distance along d
        assert need >= res.depth - 1e-9


def test_sat_rejects_concave():
    with pytest.raises(ValueError, match='convex'):
        sat(np.array([[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]), SQUARE)


# --- contacts ----------------------------------------------------------------------------------
def on_common_line(a, b, x, tol=1e-9):
    """Whether x lies on an edge of a and an edge of b that are collinear within tol."""
    def edges_through(poly):
        return [(p, q) for p, q in zip(poly, np.roll(poly, -1, axis=0))
                if shapely.LineString([p, q]).distance(Point(x)) <= tol]

    def off_line(p, q, r):
        d = q - p
        return abs(d[0] * (r[1] - p[1]) - d[1] * (r[0] - p[0])) / np.hypot(*d)

    return any(off_line(p, q, r) <= tol and off_line(p, q, s) <= tol
               for p, q in edges_through(a) for r, s in edges_through(b))


PENTAGON = np.array([(np.cos(2 * np.pi * k / 5), np.sin(2 * np.pi * k / 5)) for k in range(1, 6)])


@given(simple_polygons(), simple_polygons(), pose)
@example(PENTAGON, PENTAGON, (0.0, 0.0, 2.2e-16))  # boundaries run together
def test_contact_features_agree_with_shapely(a, b, p):
    b = rigid(b, p[2], p[0], p[1])
    sa, sb = to_shapely(a), to_shapely(b)
    assume(sa.distance(sb) > 1e-9 or sa.intersection(sb).area > 1e-9)
    c = contact(a, b)
    assert (c is not None) == sa.intersects(sb)
    if c is None:
        return
    for k in range(len(a)):
        if sb.exterior.distance(Point(a[k])) > 1e-9:
            assert (k in c.a_in_b) == sb.contains(Point(a[k]))
    for k in range(len(b)):
        if sa.exterior.distance(Point(b[k])) > 1e-9:
            assert (k in c.b_in_a) == sa.contains(Point(b[k]))
    boundary_x = sa.exterior.intersection(sb.exterior)
    for x in c.intersections:
        assert sa.exterior.distance(Point(x)) < 1e-9 and sb.exterior.distance(Point(x)) < 1e-9
    # every proper crossing shapely sees is a crossing feature or a vertex feature (not where
    # the boundaries run together: shapely splits such a stretch at arbitrary points)
    crossings = [g for g in shapely.get_parts(boundary_x) if g.geom_type == 'Point']
    for x in shapely.get_coordinates(crossings):
        if on_common_line(a, b, x):
            continue
        assert np.min(np.hypot(*(c.points - x).T)) < 1e-7
    assert np.linalg.norm(c.normal) == pytest.approx(1.0)
    assert c.depth >= 0.0
    # p_B lies on the named edge of the other body
    for pa_body, edge, pb in zip(c.p_a_body, c.p_b_edge, c.p_b):
        other = b if pa_body == 0 else a
        seg = shapely.LineString([other[edge], other[(edge + 1) % len(other)]])
        assert seg.distance(Point(pb)) < 1e-9


@given(simple_polygons(convex=True), simple_polygons(convex=True), pose)
def test_contact_is_symmetric(a, b, p):
    b = rigid(b, p[2], p[0], p[1])
    ab, ba = contact(a, b), contact(b, a)
    assert (ab is None) == (ba is None)
    if ab is None:
        return
    assert sorted(ab.a_in_b) == sorted(ba.b_in_a) and sorted(ab.b_in_a) == sorted(ba.a_in_b)
    assert ab.depth == pytest.approx(ba.depth, abs=1e-9)
    assert len(ab.intersections) == len(ba.intersections)


@given(simple_polygons(), simple_polygons(), pose, pose)
def test_contact_is_invariant_under_rigid_motion(a, b, p, q):
    b = rigid(b, p[2], p[0], p[1])
    c0 = contact(a, b)
    a1, b1 = rigid(a, q[2], q[0] * 100, q[1] * 100), rigid(b, q[2], q[0] * 100, q[1] * 100)
    c1 = contact(a1, b1)
    sa, sb = to_shapely(a), to_shapely(b)
    assume(sa.distance(sb) > 1e-7 or sa.intersection(sb).area > 1e-7)
    assert (c0 is None) == (c1 is None)
    if c0 is not None:
        assert c1.kind == c0.kind
        assert c1.depth == pytest.approx(c0.depth, abs=1e-7)
        if c0.depth < 1e-6:
            return  # touching: every feature ties and the normal is any of theirs
        rot = np.array([[np.cos(q[2]), -np.sin(q[2])], [np.sin(q[2]), np.cos(q[2])]])
        assert np.allclose(rot @ c0.normal, c1.normal, atol=1e-6)


# --- named degenerate cases --------------------------------------------------------------------
def test_shared_edge_touching_counts():
    c = contact(SQUARE, SQUARE + [2.0, 0.0])
    assert c is not None and c.depth == 0.0
    assert np.allclose(c.normal, [1.0, 0.0])


def test_vertex_on_edge_is_vertex_edge():
    tri = np.array([[1.0, 2.0], [2.0, 3.0], [0.0, 3.0]])
    c = contact(SQUARE, tri)
    assert c.kind == ContactKind.VERTEX_EDGE and c.b_in_a.tolist() == [0]
    assert c.depth == 0.0 and np.allclose(c.normal, [0.0, 1.0])


def test_vertex_edge_penetration_classified_as_in_seed_table():
    """One vertex of b inside a, two edges of b crossing one edge of a: 3 contact points."""
    tri = np.array([[1.0, 1.5], [2.0, 3.0], [0.0, 3.0]])
    c = contact(SQUARE, tri)
    assert c.kind == ContactKind.VERTEX_EDGE
    assert len(c.b_in_a) == 1 and len(c.a_in_b) == 0 and len(c.points) == 3
    assert c.depth == pytest.approx(0.5)
    assert set(c.intersection_edges[:, 0]) == {2}  # both crossings on the square's top edge


def test_edge_edge_classified_as_in_seed_table():
    """Corners through each other: 1 vertex each way, 4 contact points."""
    c = contact(SQUARE, SQUARE + [1.5, 1.5])
    assert c.kind == ContactKind.EDGE_EDGE and len(c.points) == 4


def test_multiple_vertex_edge():
    bar = np.array([[0.5, 1.5], [1.5, 1.5], [1.5, 3.0], [0.5, 3.0]])
    c = contact(SQUARE, bar)
    assert c.kind == ContactKind.MULTIPLE_VERTEX_EDGE and len(c.b_in_a) == 2
    assert c.depth == pytest.approx(0.5)


def test_collinear_overlapping_edges():
    c = contact(SQUARE, SQUARE + [2.0, 1.0])
    assert c is not None and c.depth == pytest.approx(0.0)


def test_clockwise_input_gives_same_contact():
    tri = np.array([[1.0, 1.5], [2.0, 3.0], [0.0, 3.0]])
    ccw, cw = contact(SQUARE, tri), contact(SQUARE[::-1], tri[::-1])
    assert cw.kind == ccw.kind and cw.depth == pytest.approx(ccw.depth)
    assert np.allclose(cw.normal, ccw.normal)


@pytest.mark.parametrize('offset', [1e4, -1e4, 3.7e4])
@pytest.mark.parametrize('size', [1e-3, 1.0])
def test_far_from_origin_and_tiny(offset, size):
    a = SQUARE * size + offset
    overlapping = a + 0.5 * size
    touching = a + [2.0 * size, 0.0]
    apart = a + [2.0 * size * (1 + 1e-6), 0.0]
    assert polygons_intersect(a, overlapping)
    assert contact(a, overlapping).depth == pytest.approx(1.5 * size, rel=1e-6)  # 2 - 0.5
    assert polygons_intersect(a, touching)
    assert not polygons_intersect(a, apart)
    assert contact(a, apart) is None


# --- footprint validation ----------------------------------------------------------------------
@pytest.mark.parametrize('poly, message', [
    ([[0, 0], [1, 1], [1, 0], [0, 1]], 'crosses itself'),
    ([[0, 0], [1, 0], [1, 0], [0, 1]], 'coincide'),
    ([[0, 0], [1, 0], [2, 0]], 'zero area'),
    ([[0, 0], [1, 0], [np.nan, 1]], 'non-finite'),
    ([[0, 0], [1, 0]], 'at least 3'),
    ([[0, 0], [2, 0], [1, 0], [1, 1]], 'crosses itself'),
])
def test_validate_footprint_rejects(poly, message):
    with pytest.raises(ValueError, match=message):
        validate_footprint(poly)


@given(simple_polygons())
def test_validate_footprint_accepts_simple_polygons(poly):
    assert validate_footprint(poly).shape == poly.shape
    assert validate_footprint(np.vstack([poly, poly[:1]])).shape == poly.shape
    assert is_convex(poly) == (abs(to_shapely(poly).convex_hull.area - to_shapely(poly).area)
                               < 1e-9)


@pytest.mark.parametrize('offset', [(0.5, 0.5), (-0.5, 0.5), (0.25, -0.25), (-0.7, -0.7)])
def test_equally_deep_axes_give_the_depth_and_a_separating_normal(offset):
    """Two unit squares overlapping equally along x and y: the depth is unique, the chosen
    axis is not (the contract): translating b by depth * normal leaves them touching."""
    a = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    b = a + np.array(offset)
    overlap = 1.0 - abs(offset[0])
    for result in (sat(a, b), contact(a, b)):
        assert result.depth == pytest.approx(overlap, abs=1e-12)
        assert np.abs(result.normal).tolist() in ([1.0, 0.0], [0.0, 1.0])
        moved = to_shapely(b + result.depth * result.normal)
        assert moved.intersection(to_shapely(a)).area < 1e-12
        assert moved.distance(to_shapely(a)) < 1e-12


@given(simple_polygons(), simple_polygons(), st.floats(-np.pi, np.pi), st.floats(-4, 4),
       st.floats(-4, 4))
def test_polygon_distance_matches_shapely(a, b, angle, tx, ty):
    """Convex and concave pairs at random placements: the distance and both closest points
    against shapely (distance, nearest_points), 0 for overlapping pairs."""
    b = rigid(b, angle, tx, ty)
    sa, sb = to_shapely(a), to_shapely(b)
    d, pa, pb = polygon_distance(a, b)
    expected = sa.distance(sb)
    assert d == pytest.approx(expected, abs=1e-9)
    if expected > 1e-9:
        assert np.linalg.norm(pa - pb) == pytest.approx(d, abs=1e-12)
        assert sa.exterior.distance(shapely.Point(pa)) < 1e-9
        assert sb.exterior.distance(shapely.Point(pb)) < 1e-9


def test_polygon_distance_named_cases():
    """Side by side 1 m apart, corner to corner along the diagonal, one inside the other,
    and a concave notch holding a square without touching it."""
    sq = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    d, pa, pb = polygon_distance(sq, sq + [2.0, 0.0])
    assert d == 1.0 and pa[0] == 1.0 and pb[0] == 2.0
    assert polygon_distance(sq, sq + [2.0, 2.0])[0] == pytest.approx(np.sqrt(2.0))
    assert polygon_distance(sq * 4 - 1, sq)[0] == 0.0
    cup = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 3.0], [2.0, 3.0], [2.0, 1.0], [1.0, 1.0],
                    [1.0, 3.0], [0.0, 3.0]])
    d, pa, pb = polygon_distance(cup, sq * 0.5 + [1.2, 1.5])
    assert d == pytest.approx(0.2) and pa[0] == 1.0 and pb[0] == pytest.approx(1.2)
