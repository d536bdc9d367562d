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
"""Polygon pairs: intersection and contact features against shapely, named cases."""

from hypothesis import assume, example, given, strategies as st
import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from collision_monitor.kernels.geometry2d import (contact, ContactKind, is_convex,
                                                  polygons_intersect)
from collision_monitor.kernels.geometry2d.contact import locate_pb
from collision_monitor.kernels.geometry2d.primitives import (length_tolerance,
                                                             pair_length_tolerance,
                                                             polygon_scale)
from collision_monitor.kernels.geometry2d.validation import polygon_orientation
from shapes import ELL, pose, rigid, sharp_tip, simple_polygons, SQUARE, to_shapely


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


@given(simple_polygons(convex=True), simple_polygons(min_vertices=5), pose, st.booleans())
def test_containment_of_polygons_with_different_vertex_counts(inner, outer, p, inner_first):
    """A polygon strictly inside another (shapely) is CONTAINMENT whichever comes first, its
    every vertex inside and no vertex of the container inside it: the counts of either side
    are told apart even when the polygons' vertex counts differ."""
    outer = rigid(outer, p[2], p[0], p[1])
    so = to_shapely(outer)
    centre = so.representative_point()
    room = so.exterior.distance(centre)
    inner = np.asarray(inner) - to_shapely(inner).centroid.coords[0]
    inner = inner * (0.5 * room / np.max(np.hypot(*inner.T))) + centre.coords[0]
    assume(len(inner) != len(outer))
    assert so.contains(to_shapely(inner))
    a, b = (inner, outer) if inner_first else (outer, inner)
    c = contact(a, b)
    assert c.kind == ContactKind.CONTAINMENT and len(c.intersections) == 0
    inside, container = (c.a_in_b, c.b_in_a) if inner_first else (c.b_in_a, c.a_in_b)
    assert sorted(inside) == list(range(len(inner))) and len(container) == 0


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


TRIANGLE = np.array([(np.cos(2 * np.pi * k / 3), np.sin(2 * np.pi * k / 3)) for k in (1, 2, 3)])
SQUARE_ON_CORNER = np.array([(np.cos(np.pi * k / 2), np.sin(np.pi * k / 2)) for k in (1, 2, 3, 4)])


def vertex_clearance(a, b):
    """Least distance from a vertex of either polygon to the other's boundary (shapely).
    Closer than the tolerances, whether that vertex counts as inside and whether edges
    cross there is rounding's call, and so is the kind."""
    sa, sb = to_shapely(a), to_shapely(b)
    return min(min(sb.exterior.distance(Point(v)) for v in a),
               min(sa.exterior.distance(Point(v)) for v in b))


@given(simple_polygons(), simple_polygons(), pose, pose)
@example(TRIANGLE, TRIANGLE, (0.0, 0.0, 1e-12), (0.0, 1.0, 0.0))  # one on the other
@example(SQUARE_ON_CORNER, SQUARE_ON_CORNER, (0.0, 6e-8, 0.0), (0.0, 0.0, 0.0))  # edge on edge
def test_contact_is_invariant_under_rigid_motion(a, b, p, q):
    """Moved together, a pair keeps its contact or its absence, and its kind, depth and
    normal unless a vertex lies within 1e-7 of the other boundary (`vertex_clearance`)."""
    b = rigid(b, p[2], p[0], p[1])
    c0 = contact(a, b)
    a1, b1 = rigid(a, q[2], q[0] * 100, q[1] * 100), rigid(b, q[2], q[0] * 100, q[1] * 100)
    c1 = contact(a1, b1)
    sa, sb = to_shapely(a), to_shapely(b)
    assume(sa.distance(sb) > 1e-7 or sa.intersection(sb).area > 1e-7)
    assert (c0 is None) == (c1 is None)
    if c0 is not None and vertex_clearance(a, b) > 1e-7:
        assert c1.kind == c0.kind
        if not (is_convex(a) and is_convex(b)):
            # a vertex whose centroid ray passes through a vertex of the other body has either
            # edge there as its p_B edge (rounding decides): depth and normal may take either
            return
        assert c1.depth == pytest.approx(c0.depth, abs=1e-7)
        if c0.depth < 1e-6:
            return  # touching: every feature ties and the normal is any of theirs
        rot = np.array([[np.cos(q[2]), -np.sin(q[2])], [np.sin(q[2]), np.cos(q[2])]])
        if not np.allclose(rot @ c0.normal, c1.normal, atol=1e-6):
            # equally deep axes (any one is the contract): the other, moved along, separates
            moved = to_shapely(b1 + (c1.depth + 1e-7) * (rot @ c0.normal))
            assert to_shapely(a1).intersection(moved).area < 1e-9


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


def test_every_contact_kind_has_a_code_of_its_own():
    """Two kinds sharing a code would make one an alias of the other (an `IntEnum`): a
    vertex-edge contact would read back as NONE."""
    names = ['NONE', 'VERTEX_EDGE', 'EDGE_EDGE', 'MULTIPLE_VERTEX_EDGE', 'MULTIPLE_EDGE_EDGE',
             'CROSSING', 'CONTAINMENT']
    assert [kind.name for kind in ContactKind] == names
    assert [ContactKind(int(kind)).name for kind in ContactKind] == names


def tutorial_pb(c, p, poly):
    """[tutorial]'s p_B with shapely: of the edges of `poly` that the segment from the centroid
    c to p crosses, the one crossed nearest to p; with none (c inside too) the edge nearest
    to p.  Returns (edge, closest point of that edge to p)."""
    edges = [shapely.LineString([poly[k], poly[(k + 1) % len(poly)]]) for k in range(len(poly))]
    ray, point = shapely.LineString([c, p]), Point(p)
    crossed = [k for k, e in enumerate(edges) if ray.intersects(e)]
    if crossed:
        edge = min(crossed, key=lambda k: point.distance(ray.intersection(edges[k])))
    else:
        edge = min(range(len(edges)), key=lambda k: point.distance(edges[k]))
    q = edges[edge].interpolate(edges[edge].project(point))
    return edge, [q.x, q.y]


@pytest.mark.parametrize('a', [
    [[-3.0, 0.95], [1.8, 1.0], [-3.0, 1.05]],      # centroid outside: the crossed left edge
    [[0.9, 1.85], [1.1, 1.85], [1.0, 1.95]],       # centroid inside: the nearest (top) edge
    [[0.4, 0.1], [0.6, 0.1], [0.5, 0.3]],          # inside, nearest the bottom edge
    [[1.5, -3.0], [1.8, 1.0], [1.6, -3.5]],        # the crossed edge is edge 0
    [[-6.0, 1.85], [1.8, 1.9], [-6.0, 1.95]],      # crossed far from the centroid's height
], ids=['crossed', 'inside-top', 'inside-bottom', 'crossed-edge-0', 'crossed-high'])
def test_p_b_is_on_the_edge_the_tutorial_names(a):
    """Each penetrating vertex of a: p_B and its edge as `tutorial_pb` finds them, not simply
    the edge nearest to the vertex when the centroid's ray crosses another."""
    a = np.array(a)
    c = contact(a, SQUARE)
    centroid = to_shapely(a).centroid
    want = [tutorial_pb((centroid.x, centroid.y), a[v], SQUARE) for v in c.a_in_b]
    assert len(want) >= 1 and c.p_b_edge.tolist() == [edge for edge, _ in want]
    np.testing.assert_allclose(c.p_b, [q for _, q in want], atol=1e-12)


NOTCH = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 3.0], [2.0, 3.0], [2.0, 1.0], [1.0, 1.0],
                  [1.0, 3.0], [0.0, 3.0]])
"""A U: its right arm is x in [2, 3], y in [0, 3], the gap between the arms x in [1, 2]."""


def test_a_concave_pairs_depth_is_its_deepest_vertex_behind_its_p_b_edge():
    """Concave pairs: the depth is the largest distance of a penetrating vertex behind the
    line of its p_B edge (the tutorial's rule, with shapely), and the normal is that edge's."""
    notch = NOTCH
    poke = np.array([[3.5, 1.5], [2.8, 2.0], [3.5, 2.5]])  # one vertex inside, none back
    for b in (SQUARE * 0.5 + [1.2, 2.6], SQUARE * 0.4 + [2.7, 0.7], SQUARE + [-1.4, 1.5],
              poke):
        c = contact(notch, b)
        assert c is not None and len(c.p_a) >= 1
        deepest = -1.0
        for vertex, body in zip(c.p_a, c.p_a_body):
            own, other = (notch, b) if body == 0 else (b, notch)
            centroid = to_shapely(own).centroid
            edge, _ = tutorial_pb((centroid.x, centroid.y), vertex, other)
            e0, e1 = other[edge], other[(edge + 1) % len(other)]
            line = shapely.LineString([e0 - 100 * (e1 - e0), e1 + 100 * (e1 - e0)])
            if line.distance(Point(vertex)) > deepest:
                deepest = line.distance(Point(vertex))
                sign = 1.0 if body == 0 else -1.0  # the normal points from a to b
                outward = np.array([e1[1] - e0[1], e0[0] - e1[0]]) / np.linalg.norm(e1 - e0)
                if not to_shapely(other).exterior.is_ccw:
                    outward = -outward
                normal = -sign * outward
        assert c.depth == pytest.approx(deepest, abs=1e-12)
        np.testing.assert_allclose(c.normal, normal, atol=1e-12)


def lattice_polygon(rng):
    """A convex polygon of integer vertices in [-2, 2]^2, its zeros written as -0.0."""
    while True:
        hull = shapely.convex_hull(shapely.multipoints(rng.integers(-2, 3, (5, 2))))
        if hull.geom_type == 'Polygon':
            poly = np.asarray(hull.exterior.coords, dtype=float)[:-1]
            poly[poly == 0.0] = -0.0
            return poly if rng.random() < 0.5 else poly[::-1].copy()


def test_contact_points_carry_no_negative_zero():
    """Vertices, crossings and p_B come out with zeros positive even when the input's are
    -0.0 (a zero's sign would show in printed and serialized results)."""
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(2000):
        c = contact(lattice_polygon(rng), lattice_polygon(rng))
        if c is None:
            continue
        seen += 1
        for values in (c.points, c.p_b):
            assert not np.any(np.signbit(values[values == 0.0]))
    assert seen > 500


def outward(poly, k):
    """Unit outward normal of edge k of `poly`, its winding read by shapely."""
    e = poly[(k + 1) % len(poly)] - poly[k]
    n = np.array([e[1], -e[0]]) / np.linalg.norm(e)
    return n if to_shapely(poly).exterior.is_ccw else -n


@given(st.floats(1.5, 2.5), st.floats(0.01, 0.2), st.floats(-0.1, 0.1), st.booleans(),
       st.booleans(), st.integers(0, 7), st.booleans())
@example(2.0, 0.1, 0.0, False, False, 5, True)  # the first crossing on an inner edge
def test_a_concave_pair_crossing_with_no_vertex_inside(y, width, tilt, notch_first, flip, roll,
                                                       both_arms):
    """A bar through the U's right arm (its ends in the gap and outside) or through both
    arms: no vertex of either inside the other.  The module's rule, with shapely's
    crossings: the normal is the inward normal of b's edge in the first crossing (edges of
    a in order, then of b), and the depth the spread of every crossing point along it (the
    U's vertices rolled, so that the first crossing is not always an outermost one)."""
    bar = rigid(np.array([[-1.0, -width], [1.0, -width], [1.0, width], [-1.0, width]])
                * [2.0 if both_arms else 1.0, 1.0], tilt, 1.5 if both_arms else 2.5, y)
    notch = np.roll(NOTCH[::-1] if flip else NOTCH, roll, axis=0)
    a, b = (notch, bar) if notch_first else (bar, notch)
    crossings = []  # (edge of a, edge of b, point) in the kernel's order of edge pairs
    for i in range(len(a)):
        for j in range(len(b)):
            x = shapely.LineString([a[i], a[(i + 1) % len(a)]]).intersection(
                shapely.LineString([b[j], b[(j + 1) % len(b)]]))
            if not x.is_empty:
                crossings.append((i, j, np.array(x.coords[0])))
    assert len(crossings) == (8 if both_arms else 4)
    normal = -outward(b, crossings[0][1])
    along = [p @ normal for _, _, p in crossings]
    c = contact(a, b)
    assert c.kind == ContactKind.CROSSING and len(c.p_a) == 0
    np.testing.assert_allclose(c.normal, normal, atol=1e-12)
    assert c.depth == pytest.approx(max(along) - min(along), abs=1e-12)
    assert sorted(map(tuple, c.intersection_edges.tolist())) == sorted(
        (i, j) for i, j, _ in crossings)


def kind_from_counts(n_a, n_b, crossings, len_a, len_b):
    """[polygons]' table (ContactKind's docstring) from the counts of vertices inside."""
    if crossings == 0 and (n_a == len_a or n_b == len_b):
        return ContactKind.CONTAINMENT
    if n_a == 0 and n_b == 0:
        return ContactKind.CROSSING
    if n_a == 0 or n_b == 0:
        return (ContactKind.VERTEX_EDGE if n_a + n_b == 1
                else ContactKind.MULTIPLE_VERTEX_EDGE)
    return ContactKind.EDGE_EDGE if n_a == n_b == 1 else ContactKind.MULTIPLE_EDGE_EDGE


@given(simple_polygons(), simple_polygons(),
       st.tuples(st.floats(-1.5, 1.5), st.floats(-1.5, 1.5), st.floats(-np.pi, np.pi)))
@example(SQUARE, np.array([[1.0, 1.5], [1.5, 3.0], [2.5, 1.5], [3.0, 3.0], [-1.0, 3.0]]),
         None)  # two vertices of b in a, one of a in b
def test_the_kind_follows_the_table_from_shapelys_counts(a, b, p):
    """The classification from the vertices shapely finds inside the other polygon and the
    crossings of the boundaries away from vertices (pairs with a vertex within 1e-9 of the
    other boundary are left out: inside or not is the tolerance's call there).  b is moved
    by p from a's centroid."""
    if p is not None:
        centre = np.array(to_shapely(a).centroid.coords[0])
        b = rigid(b - to_shapely(b).centroid.coords[0], p[2], *(centre + p[:2]))
    sa, sb = to_shapely(a), to_shapely(b)
    assume(vertex_clearance(a, b) > 1e-9 and sa.intersects(sb))
    n_a = sum(sb.contains(Point(v)) for v in a)
    n_b = sum(sa.contains(Point(v)) for v in b)
    boundaries = sa.exterior.intersection(sb.exterior)
    crossings = 0 if boundaries.is_empty else len(shapely.get_parts(boundaries))
    c = contact(a, b)
    assert c.kind == kind_from_counts(n_a, n_b, crossings, len(a), len(b))
    assert (len(c.a_in_b), len(c.b_in_a), len(c.intersections)) == (n_a, n_b, crossings)


def test_a_contact_reads_back_and_names_a_bad_polygon():
    c = contact(SQUARE, SQUARE + 1.0)
    assert repr(c).startswith('Contact(kind=EDGE_EDGE, depth=1, normal=')
    bad = [[0.0, 0.0], [1.0, 0.0]]
    for args, name in (((bad, SQUARE), 'a'), ((SQUARE, bad), 'b')):
        for call in (contact, polygons_intersect):
            with pytest.raises(ValueError, match=f'^{name} needs at least 3 vertices'):
                call(*args)


ELL10 = np.array([[0, 0], [20, 0], [20, 6], [6, 6], [6, 20], [0, 20]], float)


@pytest.mark.parametrize('start', range(4))
def test_a_body_inside_the_arm_of_a_concave_one_is_contained(start):
    """A square deep in the arm of an L, where it is on the outer side of the line of the
    L's inner edge (the convex edge-side test would call it outside), whichever vertex the
    square starts at: containment, as shapely says."""
    square = np.roll(np.array([[15, 2], [17, 2], [17, 4], [15, 4]], float), start, axis=0)
    assert shapely.Polygon(ELL10).contains(shapely.Polygon(square))
    assert polygons_intersect(square, ELL10) and polygons_intersect(ELL10, square)
    assert contact(square, ELL10).kind == ContactKind.CONTAINMENT


@pytest.mark.parametrize('triangle', [[[30.0, 3.0], [10.0, 30.0], [30.0, 30.0]],
                                      [[3.0, 40.0], [40.0, 10.0], [40.0, 40.0]]])
def test_apart_bodies_are_apart_when_a_mix_of_their_coordinates_is_inside(triangle):
    """A triangle clear of an L, whose first and second vertices' coordinates mixed, (x1, y0)
    or (x0, y1), name a point inside the L: apart (shapely), either way round, so
    containment is tested on the vertices themselves."""
    triangle = np.array(triangle)
    mixed = [(triangle[1, 0], triangle[0, 1]), (triangle[0, 0], triangle[1, 1])]
    assert any(shapely.Polygon(ELL10).contains(Point(*xy)) for xy in mixed)
    assert not shapely.Polygon(ELL10).intersects(shapely.Polygon(triangle))
    assert not polygons_intersect(triangle, ELL10) and not polygons_intersect(ELL10, triangle)
    assert contact(triangle, ELL10) is None and contact(ELL10, triangle) is None


@pytest.mark.parametrize('roll_a', range(3))
@pytest.mark.parametrize('roll_b', range(4))
@pytest.mark.parametrize('other', ['tip', 'square'])
def test_convex_pairs_within_the_axes_tolerance_touch_in_any_vertex_order(roll_a, roll_b,
                                                                          other):
    """A 4-degree tip facing another tip (the axes then admit up to tol / sin(2 deg)) or
    the middle of a square's edge, 0.5 or 3 tolerances away, the scene turned off the axes:
    the pair touches exactly at 0.5, whichever vertex either list starts at, in either
    order of the pair.  Which vertex of which body lies near which edge of the other moves
    with the rolls."""
    turn = 0.7
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    tip = np.roll(sharp_tip(4.0), roll_a, axis=0)
    if other == 'tip':
        base = -sharp_tip(4.0)  # its tip at the origin, pointing along +x
        toward = np.array([-1.0, 0.0])
    else:
        base = np.array([[-2.0, -1.0], [0.0, -1.0], [0.0, 1.0], [-2.0, 1.0]])
        toward = np.array([-1.0, 0.0])
    base = np.roll(base, roll_b, axis=0)
    origin = np.array([3.0, -2.0])
    tol = pair_length_tolerance(tip @ rot.T + origin, base @ rot.T + origin)
    for gap, touching in ((0.5, True), (3.0, False)):
        a = (tip - gap * tol * toward) @ rot.T + origin
        b = base @ rot.T + origin
        for p, q in ((a, b), (b, a)):
            assert polygons_intersect(p, q) == touching, (gap, p, q)
            assert (contact(p, q) is not None) == touching


def _touch_exactly_at_the_tolerance(body, other_at, tol=2.0 ** -44):
    """`body` (scale 4: tolerance 2^-44, unless told) and `other_at(gap)` touch at a gap of
    one tolerance and not at two, in either order, by polygons_intersect and contact."""
    for gap, touching in ((tol, True), (2 * tol, False)):
        other = other_at(gap)
        assert pair_length_tolerance(body, other) == tol
        for p, q in ((body, other), (other, body)):
            assert polygons_intersect(p, q) == touching
            assert (contact(p, q) is not None) == touching


@pytest.mark.parametrize('side, roll', [((1, 0), -1), ((-1, 0), 1), ((0, 1), 2),
                                        ((0, -1), 0)])
@pytest.mark.parametrize('big', ['ell', 'square'])
def test_a_body_exactly_tol_from_another_touches_it(side, roll, big):
    """An L shape or a square over [0, 2]^2 (scale 4, so the pair's tolerance is 2^-44,
    exact; the square makes a convex pair, whose separating axis test gives exactly tol)
    and a half-unit square beside its outer edge on `side`, exactly one tolerance away
    (every coordinate exact in binary): touching counts, in either order of the pair; two
    tolerances away they are apart.  The small square's edge facing the body is its edge 2
    (from its second last vertex to its last), its ends lie within the body's edge, and
    vertex 0 of each lies far from the other, so that the containment check (on vertex 0)
    cannot see the touch: that edge pair must."""
    square = np.array([[0.0, 0.0], [0.5, 0.0], [0.5, 0.5], [0.0, 0.5]])
    body = np.roll((ELL + 0.4) * 2.0, -4, axis=0) if big == 'ell' else square * 4.0
    square = np.roll(square, roll, axis=0)
    corner = {(1, 0): (2.0, 0.0625), (-1, 0): (-0.5, 0.0625), (0, 1): (0.0625, 2.0),
              (0, -1): (0.0625, -0.5)}[side]
    _touch_exactly_at_the_tolerance(body, lambda gap: square + corner + np.multiply(gap, side))


@pytest.mark.parametrize('roll', range(6))
def test_a_vertex_exactly_tol_from_an_edge_of_a_concave_body_touches_it(roll):
    """A diamond's tip exactly one tolerance (2^-44, as above) right of the middle of the
    outer edge x = 2 of the L shape, that edge at every place in the L's vertex list: the
    tip touches that edge alone, and vertex 0 of each lies far from the other, so only the
    pair of that edge and an edge at the tip can see the touch.  Two tolerances away they
    are apart."""
    ell = np.roll((ELL + 0.4) * 2.0, roll, axis=0)
    diamond = np.array([[0.5, 0.25], [0.25, 0.5], [0.0, 0.25], [0.25, 0.0]])
    _touch_exactly_at_the_tolerance(ell, lambda gap: diamond + [2.0 + gap, 0.05])


@pytest.mark.parametrize('roll', range(8))
def test_a_touch_a_tolerance_beyond_a_concave_bodys_far_end_is_a_contact(roll):
    """A C shape open to the left over [-8, 8] x [-4, 4] (scale 24: tolerance 3 2^-43, exact)
    and a half-unit square exactly one tolerance right of its back edge x = 8, on the line
    through both centroids, 7 m apart: the contact's vertices lie a tolerance outside the
    C along that line, where `contact_on_axis` must still look for them.  Two tolerances
    away they are apart."""
    c = np.roll(np.array([[-8.0, -4.0], [8.0, -4.0], [8.0, 4.0], [-8.0, 4.0], [-8.0, 3.0],
                          [7.0, 3.0], [7.0, -3.0], [-8.0, -3.0]]), roll, axis=0)
    square = np.array([[0.0, -0.25], [0.5, -0.25], [0.5, 0.25], [0.0, 0.25]])
    _touch_exactly_at_the_tolerance(c, lambda gap: square + [8.0 + gap, 0.0], 3 * 2.0 ** -43)


@given(simple_polygons(), st.floats(0.05, 0.95), st.floats(0.05, 0.95), st.floats(-3.0, 3.0),
       st.floats(-3.0, 3.0), st.integers(0, 9))
def test_locate_pb_is_the_tutorials_edge_for_any_polygon(poly, u, v, cx, cy, roll):
    """`locate_pb` on random simple polygons (either winding, concave too, any first
    vertex), p a point inside and c anywhere: the edge and p_B of `tutorial_pb` (shapely),
    and the depth of p behind that edge's line.  Ties (two edges crossed, or nearest, within
    1e-9 of each other) are left out."""
    poly = np.roll(poly, roll % len(poly), axis=0)
    shape = to_shapely(poly)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    p = lo + (hi - lo) * [u, v]
    assume(shape.contains(Point(p)) and shape.exterior.distance(Point(p)) > 1e-6)
    edges = [shapely.LineString([poly[k], poly[(k + 1) % len(poly)]])
             for k in range(len(poly))]
    ray = shapely.LineString([(cx, cy), p])
    crossed = [k for k, e in enumerate(edges) if ray.intersects(e)]
    gaps = sorted(Point(p).distance(ray.intersection(edges[k])) if crossed
                  else Point(p).distance(edges[k]) for k in (crossed or range(len(poly))))
    assume(len(gaps) < 2 or gaps[1] - gaps[0] > 1e-9)
    want_edge, want_q = tutorial_pb((cx, cy), p, poly)
    tol = length_tolerance(polygon_scale(poly))
    edge, qx, qy, depth = locate_pb(p[0], p[1], cx, cy, poly, polygon_orientation(poly), tol)
    assert edge == want_edge
    np.testing.assert_allclose([qx, qy], want_q, atol=1e-12)
    (ax, ay), (bx, by) = poly[edge], poly[(edge + 1) % len(poly)]
    cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
    behind = polygon_orientation(poly) * cross / np.hypot(bx - ax, by - ay)
    assert depth == pytest.approx(max(0.0, behind), abs=1e-12)
