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
"""Contact manifolds of convex polyhedra: resting faces, crossing edges, the eps band."""

import numpy as np
import pytest
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation
import shapely

from collision_monitor.geometry3d import (
    contact_manifold, ConvexPolyhedron, gjk_distance, PolyhedronSet, separating_plane)
from collision_monitor.geometry3d.manifold import square_to_edges
from shapes import (box_corners, boxes_apart_along_parallel_edges, boxes_tilted_over_slabs,
                    CUBE, hull, point_sets_apart, qp_closest, qp_distance, random_convex,
                    resting_pairs, ROOF, touching_shift, wedge_over_ridge)


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


def _moved_apart(rng, va, vb, points):
    """Bodies va and vb and points, all under one random rigid motion."""
    turn, shift = Rotation.random(random_state=rng).as_matrix(), rng.uniform(-5, 5, 3)
    return [v @ turn.T + shift for v in (va, vb, points)]


def test_an_edge_lying_on_a_face_touches_along_its_part_over_the_face():
    """A wedge resting on the cube's top face on one edge: the manifold is the part of that
    edge over the face, its ends from shapely's intersection of the segment with the square,
    under a random rigid motion of the whole scene."""
    rng = np.random.default_rng(8)
    checked = 0
    while checked < 30:
        p, q = rng.uniform(-0.5, 1.5, 2), rng.uniform(-0.5, 1.5, 2)
        over = shapely.LineString([p, q]).intersection(shapely.box(0, 0, 1, 1))
        if over.length < 0.05:
            continue  # a touch at a corner or none
        m = (p + q) / 2
        wedge = np.array([[*p, 1.0], [*q, 1.0], [*(m + [0.1, 0.05]), 1.5],
                          [*(m - [0.05, 0.1]), 1.7]])
        ends = np.array([[x, y, 1.0] for x, y in over.coords])
        va, vb, ends = _moved_apart(rng, CUBE[0], wedge, ends)
        points, _, depth = contact_manifold(va, CUBE[1], *hull(vb), 1e-6)
        assert len(points) == 2 and depth == pytest.approx(0.0, abs=1e-9)
        order = np.argsort(np.linalg.norm(points - ends[0], axis=1))
        assert np.allclose(points[order], ends, atol=1e-9)
        checked += 1


@pytest.mark.parametrize('x, y, z', [(0.3, 0.6, 1.0), (1.2, 0.5, 1.1), (1.1, 1.2, 1.05)])
def test_a_vertex_on_or_beside_a_face_touches_at_itself_or_midway(x, y, z):
    """A spike pointing down at the cube's top face: on the face, the manifold is its tip;
    off to the side within eps (the tip over no face of the cube), one point midway between
    the tip and the nearest point of the cube (the tip clamped to the cube)."""
    tip = np.array([x, y, z])
    spike = np.vstack([tip, tip + [[0.5, 0.5, 1.0], [0.8, 0.5, 1.2], [0.5, 0.8, 1.3]]])
    expected = (tip + np.clip(tip, 0.0, 1.0))[None, :] / 2
    va, vb, expected = _moved_apart(np.random.default_rng(9), CUBE[0], spike, expected)
    points, _, _ = contact_manifold(va, CUBE[1], *hull(vb), 0.3)
    assert points == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize('tip, eps', [((0.3, 0.0, 1.0), 1e-6), ((0.3, 0.0, 1.0), 0.3),
                                      ((0.0, 0.0, 1.0), 1e-6), ((0.5, 0.25, 0.5), 1e-6)])
@pytest.mark.parametrize('moved', [False, True])
def test_a_vertex_touching_an_edge_or_a_face_touches_at_itself(tip, eps, moved):
    """A spike's tip on the roof's ridge, at its end, or on a slope: they touch, so there is
    a manifold, and it is the tip (exactly placed, and under a random rigid motion that
    leaves the touch to rounding).  One spike edge lies in a slope's plane; with eps = 0.3
    the band holds a triangle of the spike that meets the slope's face at the tip alone."""
    tip = np.array(tip)
    spike = np.vstack([tip, tip + [[0.5, 0.5, 1.0], [-0.5, 0.5, 1.1], [0.5, -0.5, 1.2],
                                   [-0.5, -0.5, 1.3]]])
    roof, expected = ROOF, tip[None, :]
    if moved:
        roof, spike, expected = _moved_apart(np.random.default_rng(12), roof, spike, expected)
    got = contact_manifold(*hull(roof), *hull(spike), eps)
    assert got is not None
    assert got[0] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize('p, q, rise', [((0.4, -0.5), (0.4, 0.5), 1.0),
                                        ((0.3, -0.5), (0.5, 0.5), 0.2),
                                        ((-0.2, -0.3), (0.9, 0.6), 0.2)])
def test_edges_crossing_touch_where_they_cross(p, q, rise):
    """An upside-down wedge whose lowest edge p-q crosses the roof's ridge at its height:
    the manifold is the crossing, from shapely's intersection of the two segments (steep
    and shallow wedge sides, under a random rigid motion)."""
    pq = np.array([[*p, 1.0], [*q, 1.0]])
    side = np.array([q[1] - p[1], p[0] - q[0], 0.0])
    side *= 0.5 / np.linalg.norm(side)
    wedge = np.vstack([pq, pq + side + [0, 0, rise], pq - side + [0, 0, rise + 0.01]])
    cross = shapely.LineString([p, q]).intersection(shapely.LineString([(0, 0), (1, 0)]))
    expected = np.array([[cross.x, cross.y, 1.0]])
    roof, wedge, expected = _moved_apart(np.random.default_rng(13), ROOF, wedge, expected)
    points, _, _ = contact_manifold(*hull(roof), *hull(wedge), 1e-6)
    assert points == pytest.approx(expected, abs=1e-9)


def test_an_edge_beside_a_face_touches_midway_between_the_closest_points():
    """A wedge whose lowest edge runs from p, 0.2 m beside and 0.1 m above the cube's top
    edge, away from the cube (its other vertices beyond eps of any face plane): the edge
    misses the face in the plane, and the one point is midway between p and the nearest
    point of the cube."""
    p = np.array([1.2, 0.2, 1.1])
    wedge = np.vstack([p, p + [[0.2, 0.6, 0.2], [0.8, 0.3, 0.9], [0.7, 0.5, 1.2]]])
    expected = (p + np.clip(p, 0.0, 1.0))[None, :] / 2
    va, vb, expected = _moved_apart(np.random.default_rng(10), CUBE[0], wedge, expected)
    points, _, _ = contact_manifold(va, CUBE[1], *hull(vb), 0.3)
    assert points == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize('lo, hi', [(0.2, 0.8), (0.6, 1.4), (-0.3, 1.3)])
def test_parallel_edges_apart_touch_along_their_overlap(lo, hi):
    """A flat upside-down wedge whose lowest edge hangs 1 mm over the roof's ridge, along it:
    the manifold is the overlap of the two edges, its ends midway between them, and the
    normal points straight up (under a random rigid motion).  The axis test's best plane is a
    face's here, leaning 11 degrees, across which the edges miss each other by 0.2 mm."""
    gap = 1e-3
    wedge = wedge_over_ridge(lo, hi, gap)
    ends = np.array([[max(lo, 0.0), 0.0, 1.0 + gap / 2], [min(hi, 1.0), 0.0, 1.0 + gap / 2]])
    up = np.array([[0.0, 0.0, 1.0]])
    roof, wedge, moved = _moved_apart(np.random.default_rng(14), ROOF, wedge,
                                      np.vstack([ends, up, [[0.0, 0.0, 0.0]]]))
    ends, up = moved[:2], moved[2] - moved[3]
    points, normal, depth = contact_manifold(*hull(roof), *hull(wedge), 0.01)
    assert depth == 0.0 and normal == pytest.approx(up, abs=1e-9)
    order = np.argsort(np.linalg.norm(points - ends[0], axis=1))
    assert points[order] == pytest.approx(ends, abs=1e-8)


def test_a_band_holding_every_vertex_gives_as_many_points_as_both_bodies_have():
    """Two flat tetrahedra, one above the other, their near edges crossing, whose shadows are
    squares turned 45 degrees to each other: with eps wider than both, every vertex is in the
    band and the manifold is the octagon where the squares overlap (shapely), 8 points for
    the 4 + 4 vertices, at the mid-plane (under a random rigid motion)."""
    s = np.sqrt(0.5)
    low = np.array([[1, 0, -0.1], [-1, 0, -0.1], [0, 1, 0.1], [0, -1, 0.1]])
    high = np.array([[s, -s, 0.15], [-s, s, 0.15], [s, s, 0.35], [-s, -s, 0.35]])
    octagon = shapely.Polygon(low[[0, 2, 1, 3], :2]).intersection(
        shapely.Polygon(high[[0, 2, 1, 3], :2]))
    corners = np.array([[x, y, 0.125] for x, y in octagon.exterior.coords[:-1]])
    low, high, corners = _moved_apart(np.random.default_rng(15), low, high, corners)
    points, _, depth = contact_manifold(*hull(low), *hull(high), 1.0)
    assert depth == 0.0 and len(corners) == 8 and len(points) == 8
    nearest = np.linalg.norm(points[:, None] - corners[None], axis=2).argmin(axis=1)
    assert sorted(nearest) == list(range(8))
    assert points == pytest.approx(corners[nearest], abs=1e-9)


def test_a_many_sided_face_resting_on_a_small_one_gives_their_overlap():
    """A 32-sided prism (64 vertices) standing on the unit cube's top face: the manifold is
    the corners of the overlap of the 32-gon and the square (shapely), both orders of the
    bodies, with more vertices on the contact face than the other body has in all."""
    angles = np.arange(32) * 2 * np.pi / 32
    ring = np.column_stack([0.6 + 0.55 * np.cos(angles), 0.5 + 0.55 * np.sin(angles)])
    prism = np.vstack([np.column_stack([ring, np.full(32, z)]) for z in (1.0, 1.5)])
    overlap = shapely.Polygon(ring).intersection(shapely.box(0, 0, 1, 1))
    corners = sorted(map(tuple, np.round(np.array(overlap.exterior.coords[:-1]), 9)))
    for a, b in ((hull(prism), CUBE), (CUBE, hull(prism))):
        points, _, depth = contact_manifold(*a, *b, 1e-6)
        assert depth == pytest.approx(0.0, abs=1e-12)
        assert np.allclose(points[:, 2], 1.0)
        assert sorted(map(tuple, np.round(points[:, :2], 9))) == corners


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


def test_a_box_resting_nanometres_above_a_long_one_touches_over_its_whole_face():
    """A 0.6 m x 0.4 m box 0.1 nm to 1 um above a slab 1 to 100 m long, the pair turned and
    moved at random: the manifold is the small box's bottom face on the mid-plane, with the
    slab's face normal.  The closest points GJK gives carry rounding of the slab's size,
    which nanometres apart turns the direction between them by as much as 3e-3 rad: a plane
    through them tilts the face out of the eps band, or its corners off by that much."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        length, gap = 10 ** rng.uniform(0, 2), 10 ** rng.uniform(-10, -6)
        turn = Rotation.random(random_state=rng).as_matrix()
        shift = rng.uniform(-5, 5, 3)
        slab = hull(box_corners((-length / 2, -0.5, -1), (length / 2, 0.5, 0)) @ turn.T + shift)
        top = hull(box_corners((-0.3, -0.2, gap), (0.3, 0.2, 0.5)) @ turn.T + shift)
        eps = gap * rng.choice([1.5, 3.0])
        got = contact_manifold(*slab, *top, eps)
        assert got is not None, (length, gap)
        points, normal, depth = got
        face = np.array([[x, y, gap / 2] for x in (-0.3, 0.3) for y in (-0.2, 0.2)])
        expected = face @ turn.T + shift
        assert len(points) == 4, (length, gap)
        assert point_sets_apart(points, expected) < 1e-11
        assert np.abs(normal - turn[:, 2]).max() < 1e-12
        assert depth == 0.0


def test_a_box_tilted_nanometres_over_a_long_slab_touches_at_its_corners_in_the_band():
    """A box turned 1e-12 to 1e-3 rad, its lowest corner 0.1 nm to 10 um over a slab 1 to
    100 m long: the manifold is the box's bottom corners within eps of the mid-plane (half
    the gap up), on it, with the slab's normal.  GJK's distance, nanometres over a nearly
    flat Minkowski difference, must be right to tolerances: too long, it made the axis plane
    seem to lean (one point), or put the bodies beyond eps (none)."""
    rng = np.random.default_rng(13)
    checked = 0
    for g, turn, shift, slab, box, bottom in boxes_tilted_over_slabs(rng, 300):
        eps = g * rng.choice([1.5, 3.0, 30.0])
        above = bottom[:, 2] - g / 2  # over the mid-plane
        if np.any(np.abs(above - eps) < 0.2 * eps):
            continue  # a corner at the band's edge: in or out is rounding's call
        got = contact_manifold(*hull(slab), *hull(box), eps)
        assert got is not None, g
        points, normal, depth = got
        corners = bottom[above <= eps]
        corners[:, 2] = g / 2
        assert len(points) == len(corners), (g, len(points), len(corners))
        assert point_sets_apart(points, corners @ turn.T + shift) < 1e-9
        assert np.abs(normal - turn[:, 2]).max() < 1e-9 and depth == 0.0
        checked += 1
    assert checked > 200


def test_long_boxes_nanometres_apart_along_parallel_edges_touch_along_the_overlap():
    """Boxes 1 to 100 m long with their long edges parallel, 0.1 nm to 0.1 mm apart
    diagonally, turned and moved at random: no axis of the separating axis test is the
    closest direction (the face normals lean 45 degrees from it), and GJK's closest points
    slide along the parallel edges by rounding (1e-9 m on 10 m edges), which tilts a plane
    through them about the edges' normal.  The manifold is the two ends of the edges'
    overlap on the line midway between them, the normal their common perpendicular (to the
    rounding of points g apart)."""
    rng = np.random.default_rng(5)
    for length, g, turn, shift, a, b in boxes_apart_along_parallel_edges(rng, 200):
        s = g / np.sqrt(2)
        got = contact_manifold(*a, *b, 1.5 * g)
        assert got is not None, (length, g)
        points, normal, depth = got
        ends = np.array([[-length / 3, 0.5 + s / 2, 0.5 + s / 2],
                         [length / 2, 0.5 + s / 2, 0.5 + s / 2]]) @ turn.T + shift
        assert len(points) == 2, (length, g)
        assert point_sets_apart(points, ends) < 1e-11, (length, g)
        # the normal joins points rounded to their coordinates' size, g apart
        assert np.abs(normal - turn @ [0, 1, 1] / np.sqrt(2)).max() < 1e-14 / g
        assert depth == 0.0


@pytest.mark.parametrize('seed', range(3))
def test_the_band_of_a_tilted_box_in_a_slab_holds_its_half_depth(seed):
    """A box tilted 0.3 rad about y dips one bottom edge 0.2 m into a wide slab: the depth
    is 0.2 along the slab's normal, and the band about the mid-plane (0.1 m down) holds the
    vertices within eps + depth / 2: the dipping edge, not the raised one 0.196 m above the
    mid-plane.  The manifold is that edge's two ends on the mid-plane (the pair turned and
    moved at random)."""
    rng = np.random.default_rng(seed)
    tilt = Rotation.from_rotvec([0.0, 0.3, 0.0]).as_matrix()
    box = box_corners((-0.5, -0.5, 0.0), (0.5, 0.5, 1.0)) @ tilt.T
    box[:, 2] -= 0.2 + box[:, 2].min()
    low = box[np.isclose(box[:, 2], -0.2)]
    turn, shift = Rotation.random(random_state=rng).as_matrix(), rng.uniform(-5, 5, 3)
    slab = box_corners((-20, -20, -10), (20, 20, 0))
    points, normal, depth = contact_manifold(*hull(slab @ turn.T + shift),
                                             *hull(box @ turn.T + shift), 1e-6)
    assert depth == pytest.approx(0.2, abs=1e-12)
    assert np.allclose(normal, turn[:, 2], atol=1e-12)
    expected = (low + [0.0, 0.0, 0.1]) @ turn.T + shift
    assert len(points) == 2
    assert point_sets_apart(points, expected) < 1e-12


def test_bodies_apart_take_the_direction_of_their_closest_points_as_normal():
    """200 stretched random hulls 1 cm to 30 cm apart, eps ten times their distance (so that
    vertices beyond the closest features fall in the band): the normal is the direction from
    a's closest point to b's (scipy's quadratic programme, to 1e-4 rad), also where no axis
    of the separating axis test is that direction and the projections about its plane
    overlap elsewhere."""
    rng = np.random.default_rng(17)
    leaning = 0
    for _ in range(200):
        va, fa = random_convex(rng, n=int(rng.choice([4, 6, 8])))
        vb, fb = random_convex(rng, n=8)
        va, vb = va * np.exp(rng.uniform(-1, 1, 3)), vb * np.exp(rng.uniform(-1, 1, 3))
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        vb = vb + (touching_shift(va, vb, d) + 10 ** rng.uniform(-2, -0.5)) * d
        dist, pa, pb = qp_closest(va, vb)
        points, normal, depth = contact_manifold(va, fa, vb, fb, 10 * dist)
        direction = (pb - pa) / dist
        assert np.arccos(min(1.0, normal @ direction)) < 1e-4 and depth == 0.0
        leaning += separating_plane(va, fa, vb, fb).distance < dist - 1e-6
    assert leaning > 10


def test_an_offset_from_inside_any_edge_loses_its_part_along_that_edge():
    """`square_to_edges` on a turned box, for a point inside each of its edges in turn
    (flat diagonals included): the offset less its part along that edge (numpy); at a
    vertex, or a micrometre off the edge's line, the offset as given."""
    rng = np.random.default_rng(3)
    turn = Rotation.random(random_state=rng).as_matrix()
    body = ConvexPolyhedron(*hull(box_corners((-2, -1, -0.5), (2, 1, 0.5)) @ turn.T + 3.0))
    v, edges = body.vertices, body.edge_data
    for i, j in edges[:, :2]:
        u = (v[j] - v[i]) / np.linalg.norm(v[j] - v[i])
        offset = rng.normal(size=3)
        inside = v[i] + rng.uniform(0.1, 0.9) * (v[j] - v[i])
        got = square_to_edges(body.arrays, tuple(inside), tuple(offset), body.tolerance)
        assert np.allclose(got, offset - (offset @ u) * u, rtol=0, atol=1e-12)
        assert abs(np.dot(got, u)) < 1e-12
        for point in (v[i], inside + 1e-6 * np.cross(u, offset) / np.linalg.norm(offset)):
            got = square_to_edges(body.arrays, tuple(point), tuple(offset), body.tolerance)
            assert got == tuple(offset)
