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
"""Time of collision against dense sampling of the true motion and brute-force roots."""

import math

from hypothesis import assume, given, strategies as st
import numpy as np
import pytest
import shapely

from collision_monitor import World
from collision_monitor.kernels.constants import MotionModel
from collision_monitor.kernels.geometry2d.primitives import pair_length_tolerance
from collision_monitor.kernels.geometry2d.validation import polygon_orientation
from collision_monitor.kernels.kinematics import vertex_kinematics
from collision_monitor.kernels.packed import Motion, MovingPolygon
from collision_monitor.kernels.toi import (beside_throughout, circles_meet_time, entry_times,
                                           first_contact, inside_quartic, line_certificate,
                                           quartic_coefficients, reach_disc,
                                           searched_first_event, vertex_edge_toi)
from shapes import check_contact_geometry, rigid, simple_polygons

POINT_MODELS = [MotionModel.CONSTANT_ACCELERATION, MotionModel.CONSTANT_VELOCITY]

SQ = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def cross2(u, v):
    """z of u x v for 2-vectors."""
    return u[0] * v[1] - u[1] * v[0]


# --- the quartic -------------------------------------------------------------------------------
@given(st.lists(st.floats(-3, 3), min_size=18, max_size=18))
def test_quartic_coefficients_match_numeric_expansion(v):
    """f(t) = (r_Q(t) - r_P(t)) x (r_j(t) - r_P(t)) evaluated directly, then fitted."""
    r = np.array(v).reshape(3, 3, 2)  # (point j, P, Q) x (position, velocity, acceleration)
    coeffs = quartic_coefficients(*(tuple(r[k].ravel()) for k in range(3)))
    ts = np.linspace(-2, 2, 9)

    def at(k, t):
        return r[k, 0] + r[k, 1] * t + 0.5 * r[k, 2] * t * t

    f = [cross2(at(2, t) - at(1, t), at(0, t) - at(1, t)) for t in ts]
    fitted = np.polynomial.polynomial.polyfit(ts, f, 4)
    assert np.allclose(coeffs, fitted, atol=1e-8 * (1 + np.abs(fitted).max()))


def test_seed_quartic_lines_disagree_with_the_expansion():
    """[polygons]' c4, c3 and c2 as printed, against the fitted expansion of f(t)."""
    rng = np.random.default_rng(5)
    r = rng.uniform(-1, 1, (3, 3, 2))
    c = np.array(quartic_coefficients(*(tuple(r[k].ravel()) for k in range(3))))

    def x(u, w):  # the seed's u^T [R] w, up to the common sign: w x u
        return cross2(w, u)

    (rj, vj, aj), (rp, vp, ap), (rq, vq, aq) = r
    seed_c4 = 0.25 * x(aj - ap, ap - ap)
    seed_c3 = 0.5 * x(vj - vp, vq - vp) + 0.5 * x(vj - vp, vq - vp)
    seed_c2 = 0.5 * x(rj - rp, rq - rp) + x(vj - vp, vq - vp) + 0.5 * x(aj - ap, rq - rp)
    derived_c4 = 0.25 * x(aj - ap, aq - ap)
    derived_c3 = 0.5 * x(vj - vp, aq - ap) + 0.5 * x(aj - ap, vq - vp)
    derived_c2 = 0.5 * x(rj - rp, aq - ap) + x(vj - vp, vq - vp) + 0.5 * x(aj - ap, rq - rp)
    assert np.allclose(c[2:], [derived_c2, derived_c3, derived_c4])
    assert seed_c4 == 0.0 and not np.isclose(c[4], 0.0)
    assert not np.isclose(seed_c3, c[3]) and not np.isclose(seed_c2, c[2])


def regular(k, radius):
    a = np.linspace(0, 2 * np.pi, k, endpoint=False)
    return radius * np.column_stack([np.cos(a), np.sin(a)])


def brute_force_first_contact(pa, va, aa, pb, vb, ab, horizon):
    """Earliest vertex-edge event by numpy's companion-matrix roots of every quartic, no
    pruning: the reference for the clipped, ordered search of first_contact."""
    best = np.inf
    sides = (((pa, va, aa), (pb, vb, ab)), ((pb, vb, ab), (pa, va, aa)))
    for (pj, vj, aj), (pe, ve, ae) in sides:
        m = len(pe)
        for j in range(len(pj)):
            for e in range(m):
                q = (e + 1) % m
                c = quartic_coefficients((*pj[j], *vj[j], *aj[j]), (*pe[e], *ve[e], *ae[e]),
                                         (*pe[q], *ve[q], *ae[q]))
                for r in np.roots(np.trim_zeros(np.array(c[::-1]), 'f')):
                    if abs(r.imag) > 1e-9 or not 0.0 <= r.real <= horizon:
                        continue
                    t = r.real

                    def at(p, v, a, k):
                        return p[k] + v[k] * t + 0.5 * a[k] * t * t
                    u = at(pj, vj, aj, j) - at(pe, ve, ae, e)
                    w = at(pe, ve, ae, q) - at(pe, ve, ae, e)
                    d = u @ w / (w @ w)
                    if -1e-9 <= d <= 1 + 1e-9:
                        best = min(best, t)
    return best


def placed_at(kinematics, t):
    """Vertices (n, 2) at time t of ``(p, v, a)`` moving as points (the toi model)."""
    p, v, a = kinematics
    return p + v * t + 0.5 * a * t ** 2


@pytest.mark.parametrize('scale', [1.0, 4.0])
def test_first_contact_matches_brute_force_roots_of_every_quartic(scale):
    """Turning, accelerating regular polygons (radii 0.3 to 1 m times `scale`: reach discs
    of radius under and over 1 m) against every vertex-edge quartic's roots."""
    rng = np.random.default_rng(11)
    found = 0
    for _ in range(300):
        ka = rng.integers(3, 9)
        kb = rng.integers(3, 9)
        shape_a = regular(ka, rng.uniform(0.3, 1.0) * scale)
        shape_b = regular(kb, rng.uniform(0.3, 1.0) * scale)
        state_a = (rng.uniform(-1, 1, 3) * [1, 1, 3], rng.uniform(-1, 1, 3),
                   rng.uniform(-2, 2, 3))
        pose_b = np.append(rng.uniform(1.5, 4, 2) * scale * rng.choice([-1, 1], 2),
                           rng.uniform(-3, 3))
        state_b = (pose_b, rng.uniform(-1, 1, 3) - 0.5 * np.append(pose_b[:2], 0),
                   rng.uniform(-2, 2, 3))
        ka_ = vertex_kinematics(*state_a, shape_a)
        kb_ = vertex_kinematics(*state_b, shape_b)
        fc = first_contact(*ka_, *kb_, 2.0)
        truth = brute_force_first_contact(*ka_, *kb_, 2.0)
        if fc is None:
            assert truth == np.inf
        elif fc.time > 0.0:
            assert fc.time == pytest.approx(truth, abs=1e-7)
            check_contact_geometry(fc, placed_at(ka_, fc.time), placed_at(kb_, fc.time))
            found += 1
    assert found > 50


def random_footprint(rng):
    """A regular, a random convex or a star-shaped polygon, either winding."""
    k = int(rng.integers(3, 10))
    kind = rng.integers(3)
    if kind == 0:
        shape = regular(k, rng.uniform(0.3, 1.0))
    else:
        a = np.sort(rng.uniform(0, 2 * np.pi, k))
        r = rng.uniform(0.3, 1.0) * (1.0 if kind == 1 else rng.uniform(0.4, 1.0, k))
        shape = np.column_stack([r * np.cos(a), r * np.sin(a) * rng.uniform(0.5, 1.0)])
    return shape if rng.random() < 0.5 else shape[::-1].copy()


@pytest.mark.parametrize('size', [1.0, 4.0])
@pytest.mark.parametrize('window', ['from now', 'from later'])
@pytest.mark.parametrize('kinematics', ['rigid', 'rigid, checked as any', 'any'])
def test_the_line_certificate_agrees_with_the_exhaustive_search(kinematics, window, size):
    """Where the separating-line certificate decides, its first event is the exhaustive
    search's: the same time, and a vertex on the edge then.  'any' perturbs every vertex's
    velocity and acceleration, so the polygons deform and only the general checks hold.
    'from later' searches from a time up to 1 s on, where the polygons are apart (as
    `first_contacts` starts where the reach circles first meet): the certificate's line and
    depths are then those of that time, not of the vertices' positions now.  Size 4 makes
    the polygons and their distances 4 times larger (edges of metres, where a margin taken
    as a length times an edge's length instead of over it would be too wide)."""
    rng = np.random.default_rng((5 if window == 'from now' else 6) + int(size))
    certified = meeting = 0
    for _ in range(1500):
        state_a = (rng.uniform(-1, 1, 3) * [1, 1, 3], rng.uniform(-1, 1, 3),
                   rng.uniform(-2, 2, 3))
        pose_b = np.append(size * rng.uniform(1.2, 3, 2) * rng.choice([-1, 1], 2),
                           rng.uniform(-3, 3))
        state_b = (pose_b, rng.uniform(-1, 1, 3) - 0.6 * np.append(pose_b[:2], 0),
                   rng.uniform(-2, 2, 3))
        ka = [np.array(x) for x in vertex_kinematics(*state_a, size * random_footprint(rng))]
        kb = [np.array(x) for x in vertex_kinematics(*state_b, size * random_footprint(rng))]
        if kinematics == 'any':
            for k in (ka, kb):
                k[1] += rng.uniform(-0.05, 0.05, k[1].shape)
                k[2] += rng.uniform(-0.05, 0.05, k[2].shape)
        start = 0.0 if window == 'from now' else rng.uniform(0.0, 1.0)
        if shapely.Polygon(placed_at(ka, start)).distance(
                shapely.Polygon(placed_at(kb, start))) < 1e-6:
            continue
        a = MovingPolygon(*ka, polygon_orientation(ka[0]))
        b = MovingPolygon(*kb, polygon_orientation(kb[0]))
        tol = pair_length_tolerance(ka[0], kb[0])
        entry = np.empty((2, 9))
        searched = searched_first_event(a, b, start, 2.0, tol, entry)
        ok, t, side, vertex, edge, along = line_certificate(
            a, b, start, 2.0, tol, np.empty(9), kinematics == 'rigid')
        meeting += searched[1] >= 0
        if not ok:
            continue
        certified += 1
        assert (side >= 0) == (searched[1] >= 0)
        if side < 0:
            continue
        assert t == pytest.approx(searched[0], abs=1e-9)
        vertices, edges = (ka, kb) if side == 0 else (kb, ka)
        assert 0 <= vertex < len(vertices[0]) and 0 <= edge < len(edges[0])
        q = (edge + 1) % len(edges[0])
        point = (1 - along) * placed_at(edges, t)[edge] + along * placed_at(edges, t)[q]
        assert np.allclose(placed_at(vertices, t)[vertex], point, atol=1e-9)
    # the general checks decide less often than the rigid ones, and metre-long edges less
    # often than short ones, but always often enough to be tried
    share = (0.5 if size == 1.0 else 0.15) if kinematics == 'rigid' else 0.05
    assert meeting > 300 and certified > share * meeting


@pytest.mark.parametrize('gap', [0.05, 0.4, 0.9])
@pytest.mark.parametrize('closing', ['constant velocity', 'constant acceleration'])
def test_the_line_certificate_settles_a_corner_closing_on_an_edge(gap, closing):
    """Unit square a; diamond b (a square turned 45 degrees, half-diagonal 0.5 m) with its
    left corner `gap` metres right of a's right edge, closing along x at 1 m/s, or from rest
    at 1 m/s^2.  The corner meets the edge at t = gap, or sqrt(2 gap): the first case of a
    fleet, two bodies nearing across a clear line, which the certificate is there to settle
    without the exhaustive search."""
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    diamond = np.array([[0.0, -0.5], [0.5, 0.0], [0.0, 0.5], [-0.5, 0.0]]) + [1.0 + gap, 0.2]
    still = np.zeros((4, 2))
    pull = np.tile([-1.0, 0.0], (4, 1))
    moving = (pull, still) if closing == 'constant velocity' else (still, pull)
    a = MovingPolygon(square, still, still, polygon_orientation(square))
    b = MovingPolygon(diamond, *moving, polygon_orientation(diamond))
    ok, t, side, vertex, edge, along = line_certificate(
        a, b, 0.0, 2.0, pair_length_tolerance(square, diamond), np.empty(4), True)
    expected = gap if closing == 'constant velocity' else math.sqrt(2.0 * gap)
    assert ok
    assert t == pytest.approx(expected, abs=1e-12)
    # b's vertex 3 on a's edge 1 (x = 0.5), at y = 0.2: along = 0.7 from (0.5, -0.5)
    assert (side, vertex, edge) == (1, 3, 1) and along == pytest.approx(0.7, abs=1e-12)


def test_a_far_corner_of_a_deforming_polygon_reaching_across_its_own_edge_is_found():
    """Vertex (1, 1) of square b flies up and left at 1.5 m/s each way: it crosses the line
    of b's own left edge at t = 2/3, above that edge, and meets a's right edge (x = -0.5)
    at t = 1, at y = 2.5, while a's vertices stay 0.5 m from that line.  The line facing a
    does not separate the two (b's vertex crosses it), so nothing may be ruled out from it."""
    a = np.array([[-1.5, -1.0], [-0.5, -1.0], [-0.5, 3.0], [-1.5, 3.0]])
    b = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    vel_b = np.zeros((4, 2))
    vel_b[2] = [-1.5, 1.5]
    zero = np.zeros((4, 2))
    got = first_contact(a, zero, zero, b, vel_b, zero, 1.2)
    assert got is not None and (got.vertex_of, got.vertex, got.edge) == ('b', 2, 1)
    assert got.time == pytest.approx(1.0, abs=1e-12)
    assert got.point == pytest.approx([-0.5, 2.5], abs=1e-12)


def test_a_corner_of_a_deforming_triangle_crossing_its_own_facing_edges_line_is_found():
    """Vertex (1, 1) of triangle b flies up and left at 1.5 m/s each way: it crosses the line
    x = 0 of b's own left edge at t = 2/3, at y = 2, above that edge, and meets a's right
    edge (x = -0.5) at t = 1, at y = 2.5, while nothing else moves.  b's left edge and a's
    right edge face each other 0.5 m apart, a tie that tries b's edge's line first; b's one
    vertex off that edge is the one that crosses it, and a certificate from that line that
    did not watch b's own vertices would answer that nothing happens."""
    a = np.array([[-1.5, -1.0], [-0.5, -1.0], [-0.5, 3.0], [-1.5, 3.0]])
    b = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    vel_b = np.zeros((3, 2))
    vel_b[1] = [-1.5, 1.5]
    got = first_contact(a, np.zeros((4, 2)), np.zeros((4, 2)), b, vel_b, np.zeros((3, 2)), 1.2)
    assert got is not None and (got.vertex_of, got.vertex, got.edge) == ('b', 1, 1)
    assert got.time == pytest.approx(1.0, abs=1e-12)
    assert got.point == pytest.approx([-0.5, 2.5], abs=1e-12)
    assert got.normal == pytest.approx([1.0, 0.0], abs=1e-12)


@pytest.mark.parametrize('order', ['triangle first', 'box first'])
def test_a_triangle_swinging_under_a_flattening_box_meets_its_back_edge(order):
    """Box e, 4 m wide, its top edge on y = 0, flattens: its back vertices rise from y = -6
    at 5 m/s, slowing at 2.5 m/s^2 (y_b = -6 + 5 t - 1.25 t^2, -1 at t = 2).  Triangle j
    (apex on top) starts above and to the right of e and moves as one: its apex at
    x = 7.3 - 3.5 t, y = 6.6 - 11 t + 3.75 t^2.  Apex minus back edge is
    5 (t - 1.4) (t - 1.8): j passes e's right side while above the back edge's height (its
    left corner still right of x = 2.1), is under it from t = 1.4, and its apex meets the
    back edge from below at t = 1.8, at (1, -1.05).  j never goes lower than 1.67 m below e's
    top, so a proof from the line of e's top edge must see that e's own back vertices, 6 m
    deep at first, come up to 1.05 m: less than twice a third of their first depth."""
    box = np.array([[-2.0, -6.0], [2.0, -6.0], [2.0, 0.0], [-2.0, 0.0]])
    box_vel, box_acc = np.zeros((4, 2)), np.zeros((4, 2))
    box_vel[:2, 1], box_acc[:2, 1] = 5.0, -2.5
    triangle = np.array([[-0.3, -0.2], [0.3, -0.2], [0.0, 0.0]]) + [7.3, 6.6]
    tri_vel, tri_acc = np.tile([-3.5, -11.0], (3, 1)), np.tile([0.0, 7.5], (3, 1))
    moving = [(triangle, tri_vel, tri_acc), (box, box_vel, box_acc)]
    if order == 'box first':
        moving.reverse()
    got = first_contact(*moving[0], *moving[1], 2.0)
    assert got is not None
    assert (got.vertex_of, got.vertex, got.edge) == ('ab'[order == 'box first'], 2, 0)
    assert got.time == pytest.approx(1.8, abs=1e-9)
    assert got.point == pytest.approx([1.0, -1.05], abs=1e-9)
    # from a to b: up from the triangle below, down from the box above
    assert got.normal == pytest.approx([0.0, 1.0 if order == 'triangle first' else -1.0])


def relisted(points, first, winding):
    """The CCW polygon `points` listed from vertex `first`, CW (reversed) for 'cw'."""
    p = np.roll(np.array(points, dtype=float), -first, axis=0)
    return p[::-1].copy() if winding == 'cw' else p


@pytest.mark.parametrize('winding', ['ccw', 'cw'])
@pytest.mark.parametrize('first', range(4))
def test_a_vertex_passing_the_facing_edges_end_meets_the_edge_beside_it(first, winding):
    """Triangle a slides right and down at (1, -0.5) m/s past the top of unit square b: its
    corner (-0.2, 1.15) crosses the line of b's left edge (the edge facing a) at y = 1.05,
    beyond the edge's top end, and meets b's top edge at t = 0.3, at (0.1, 1).  Whatever
    vertex b's list starts with and in either winding, the edge beside the facing one is
    searched and named by its index in b."""
    a = np.array([[-0.2, 1.15], [-0.2, 1.4], [-1.2, 1.8]])
    b = relisted([[0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], first, winding)
    top = next(e for e in range(4) if b[e, 1] == b[(e + 1) % 4, 1] == 1.0)
    vel_a = np.tile([1.0, -0.5], (3, 1))
    got = first_contact(a, vel_a, np.zeros((3, 2)), b, np.zeros((4, 2)), np.zeros((4, 2)), 0.5)
    assert got is not None and (got.vertex_of, got.vertex, got.edge) == ('a', 0, top)
    assert got.time == pytest.approx(0.3, abs=1e-12)
    assert got.point == pytest.approx([0.1, 1.0], abs=1e-12)
    assert got.normal == pytest.approx([0.0, -1.0], abs=1e-12)


@pytest.mark.parametrize('winding', ['ccw', 'cw'])
@pytest.mark.parametrize('first', range(3))
def test_a_corner_of_the_facing_edge_meets_an_edge_beside_the_nearest_vertex(first, winding):
    """Triangle a moves right at 1 m/s above the 2 x 1 m rectangle b: its nearest corner
    (-0.3, 1.1) passes over b's top-left corner, and a's lower edge, sloping down to
    (-1.7, 0.7), meets that corner (0, 1) at t = 0.65 (where the edge is at height 1,
    0.65 m left of its corner).  b's left edge faces a; a's other corners stay over 0.7 m
    from its line, so only the edges beside a's nearest corner can meet its ends: whatever
    vertex a's list starts with and in either winding, that edge is searched and named."""
    v0, v1, v2 = [-0.3, 1.1], [-1.7, 1.5], [-1.7, 0.7]
    a = relisted([v0, v1, v2], first, winding)
    lower = next(e for e in range(3)
                 if {tuple(a[e]), tuple(a[(e + 1) % 3])} == {tuple(v0), tuple(v2)})
    b = np.array([[0.0, 1.0], [0.0, 0.0], [2.0, 0.0], [2.0, 1.0]])
    vel_a = np.tile([1.0, 0.0], (3, 1))
    got = first_contact(a, vel_a, np.zeros((3, 2)), b, np.zeros((4, 2)), np.zeros((4, 2)), 0.9)
    assert got is not None and (got.vertex_of, got.vertex, got.edge) == ('b', 0, lower)
    assert got.time == pytest.approx(0.65, abs=1e-12)
    assert got.point == pytest.approx([0.0, 1.0], abs=1e-12)
    assert got.normal == pytest.approx(np.array([0.4, -1.4]) / np.hypot(0.4, 1.4), abs=1e-12)


TEARDROP = np.array([(2.5, 0.0), (-1.3, 0.3), (-1.5, 0.35), (-1.7, 0.3), (-1.7, -0.3),
                     (-1.5, -0.35), (-1.3, -0.3)])
"""A convex teardrop whose mean vertex lies 3.4 m from its tip, near the far end."""


def test_a_vertex_closing_on_a_lopsided_body_near_its_tip_is_found():
    """A triangle's tip 0.2 to 1 m off the teardrop's edge near its tip, coming at it while
    both turn and accelerate, the teardrop near the origin: the search's reach disc about
    the teardrop's mean vertex must reach its tip (a disc whose radius is measured from
    another point, such as minus the mean, misses the first contact).  Against every
    vertex-edge quartic's roots."""
    triangle = np.array([(0.0, 0.0), (0.6, 0.6), (-0.6, 0.6)])
    edge = TEARDROP[1] - TEARDROP[0]
    outward = np.array([edge[1], -edge[0]]) / np.linalg.norm(edge)  # CCW: inside is left
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(200):
        yaw = rng.uniform(-np.pi, np.pi)
        turn = np.array([[np.cos(yaw), -np.sin(yaw)], [np.sin(yaw), np.cos(yaw)]])
        pose_b = np.array([*rng.uniform(-0.5, 0.5, 2), yaw])
        near = TEARDROP[0] + rng.uniform(0.0, 0.3) * edge + rng.uniform(0.2, 1.0) * outward
        toward = -(turn @ outward)
        pose_a = np.array([*(pose_b[:2] + turn @ near), np.arctan2(toward[1], toward[0])
                           + np.pi / 2])
        ka = vertex_kinematics(pose_a, np.array([*(toward * rng.uniform(0.5, 2.0)),
                                                 rng.uniform(-0.5, 0.5)]),
                               np.append(rng.uniform(-0.5, 0.5, 2), rng.uniform(-0.5, 0.5)),
                               triangle)
        kb = vertex_kinematics(pose_b, np.append(rng.uniform(-0.3, 0.3, 2),
                                                 rng.uniform(-0.5, 0.5)),
                               np.append(rng.uniform(-0.3, 0.3, 2), rng.uniform(-0.5, 0.5)),
                               TEARDROP)
        fc = first_contact(*ka, *kb, 2.0)
        truth = brute_force_first_contact(*ka, *kb, 2.0)
        if fc is None:
            assert truth == np.inf
        else:
            assert fc.time == pytest.approx(truth, abs=1e-7)
            found += fc.time > 0.0
    assert found > 100


def test_a_teardrop_spun_up_from_rest_meets_a_triangle_on_its_edge():
    """The teardrop at rest, spun up (angular acceleration 1 to 2 rad/s^2) with its mean
    vertex accelerating against its tip's swing, so that the spread of the vertex
    accelerations about their mean is what its reach disc must hold; a triangle's tip waits
    just outside where the edge by the teardrop's tip will be 0.8 to 1.8 s on.  Against
    every quartic's roots (motions whose start already overlaps are left out)."""
    triangle = np.array([(0.0, 0.0), (0.3, 0.6), (-0.3, 0.6)])
    rng = np.random.default_rng(4)
    found = 0
    for _ in range(100):
        yaw = rng.uniform(-np.pi, np.pi)
        turn = np.array([[np.cos(yaw), -np.sin(yaw)], [np.sin(yaw), np.cos(yaw)]])
        mean = TEARDROP.mean(axis=0)
        spin = rng.choice([-1, 1]) * rng.uniform(1.0, 2.0)

        def swing(r):  # spin x r, r in the world's orientation
            return spin * np.array([-r[1], r[0]])
        linear = -(5 / 24) * swing(turn @ (TEARDROP[0] - mean)) - swing(turn @ mean)
        kb = vertex_kinematics(np.array([*rng.uniform(-0.5, 0.5, 2), yaw]), np.zeros(3),
                               np.array([*linear, spin]), TEARDROP)
        t = rng.uniform(0.8, 1.8)
        tip, next_ = (kb[0][k] + 0.5 * kb[2][k] * t * t for k in (0, 1))
        edge = next_ - tip
        outward = np.array([edge[1], -edge[0]]) / np.linalg.norm(edge)  # CCW: inside is left
        place = tip + rng.uniform(0.05, 0.3) * edge + 0.01 * outward
        ka = vertex_kinematics(np.array([*place, np.arctan2(outward[1], outward[0])
                                         - np.pi / 2]), np.zeros(3), np.zeros(3), triangle)
        if shapely.Polygon(ka[0]).intersects(shapely.Polygon(kb[0])):
            continue
        fc = first_contact(*ka, *kb, 2.0)
        truth = brute_force_first_contact(*ka, *kb, 2.0)
        assert fc is not None and fc.time == pytest.approx(truth, abs=1e-7)
        found += 1
    assert found > 90


# --- the search's bounds against dense sampling -----------------------------------------------
SAMPLES = np.linspace(0.0, 3.0, 1201)


def random_kinematics(rng, n, spread):
    """Vertex positions, velocities and accelerations (n, 2) of independent scales, with the
    mean of each often far from its vertices (so a radius measured from a wrong point
    shows)."""
    scale = spread * np.exp(rng.uniform(-2.0, 2.0, 3))
    return tuple(rng.normal(rng.uniform(-3, 3, 2) * s, s, (n, 2)) for s in scale)


def paths(p, v, a):
    """(S, n, 2) positions p + v t + a t^2 / 2 at SAMPLES."""
    t = SAMPLES[:, None, None]
    return p + v * t + 0.5 * a * t * t


@pytest.mark.parametrize('spread', [0.1, 1.0, 10.0])
def test_the_reach_disc_holds_every_vertex_path(spread):
    """`reach_disc`: |r_k(t) - m(t)| <= R(t) for every vertex path, t in [0, 3]."""
    rng = np.random.default_rng(int(spread * 10))
    for _ in range(200):
        p, v, a = random_kinematics(rng, int(rng.integers(3, 9)), spread)
        mpx, mpy, mvx, mvy, m2x, m2y, r0, r1, r2 = reach_disc(p, v, a)
        t = SAMPLES[:, None]
        centre = np.hstack([mpx + (mvx + m2x * t) * t, mpy + (mvy + m2y * t) * t])
        gap = np.linalg.norm(paths(p, v, a) - centre[:, None, :], axis=2)
        assert np.all(gap <= (r0 + (r1 + r2 * t) * t) * (1 + 1e-12) + 1e-12)
        # the centre is the mean vertex's path
        assert np.allclose(centre, paths(p, v, a).mean(axis=1))


@given(st.lists(st.floats(-3, 3), min_size=6, max_size=6),
       st.lists(st.floats(0, 3), min_size=3, max_size=3))
def test_inside_quartic_is_the_squared_reach_minus_the_squared_distance(d, r):
    c = inside_quartic(*d, *r)
    t = SAMPLES
    dx = d[0] + (d[2] + d[4] * t) * t
    dy = d[1] + (d[3] + d[5] * t) * t
    reach = r[0] + (r[1] + r[2] * t) * t
    expected = reach ** 2 - dx ** 2 - dy ** 2
    size = 1.0 + (sum(map(abs, d)) + sum(r)) ** 2 * 100
    assert np.allclose(np.polynomial.polynomial.polyval(t, c), expected, atol=1e-12 * size)


@pytest.mark.parametrize('model', POINT_MODELS)
def test_no_vertex_reaches_the_other_body_before_the_circles_meet(model):
    """`circles_meet_time` bounds the first touch from below: over [0, bound) the polygons
    along the model's vertex paths (the rigid formulas p + v t + a t^2 / 2 with
    v = v_o + w x r, a = a_o + alpha x r - w^2 r, written here; a = 0 under constant
    velocity) never intersect (shapely, 1,201 samples).  Body j spins (|w| up to 4 rad/s),
    half the time spinning up fast (|alpha| up to 30 rad/s^2), so its reach decides many
    bounds."""
    rng = np.random.default_rng(17)
    decided = 0
    for _ in range(600):
        shapes = [rng.uniform(-1, 1, (int(rng.integers(3, 7)), 2)) * [1.0, 0.2]
                  for _ in range(2)]
        hulls = [np.array(shapely.MultiPoint(s).convex_hull.exterior.coords[:-1])
                 for s in shapes]
        poses = np.array([[0.0, 0.0, rng.uniform(-3, 3)],
                          [*rng.uniform(0.6, 2.5) * np.array([1.0, 0.0]), rng.uniform(-3, 3)]])
        spin_up = rng.uniform(-30, 30) * rng.integers(0, 2)
        twists = np.array([rng.uniform(-0.5, 0.5, 3), [0.0, 0.0, rng.uniform(-4, 4)]])
        accels = np.array([rng.uniform(-0.5, 0.5, 3), [0.0, 0.0, spin_up]])
        radius = np.array([np.linalg.norm(h, axis=1).max() for h in hulls])
        bound = circles_meet_time(0, 1, Motion(poses, twists, accels), radius, 3.0,
                                  np.full(2, int(model)), 0.0)
        t = SAMPLES[SAMPLES < bound]
        polygons = []
        for b, h in enumerate(hulls):
            c, s = np.cos(poses[b, 2]), np.sin(poses[b, 2])
            r = h @ np.array([[c, s], [-s, c]])
            w, alpha = twists[b, 2], accels[b, 2]
            vel = twists[b, :2] + w * np.column_stack([-r[:, 1], r[:, 0]])
            acc = accels[b, :2] + alpha * np.column_stack([-r[:, 1], r[:, 0]]) - w * w * r
            if model == MotionModel.CONSTANT_VELOCITY:
                acc = np.zeros_like(acc)
            polygons.append(paths(poses[b, :2] + r, vel, acc)[:len(t)])
        touching = [k for k in range(len(t))
                    if shapely.Polygon(polygons[0][k]).intersects(shapely.Polygon(polygons[1][k]))]
        assert not touching, (bound, t[touching[0]])
        decided += 0.0 < bound < 3.0
    assert decided > 200


@pytest.mark.parametrize('spread', [0.3, 1.0, 5.0])
def test_entry_times_are_never_later_than_the_entry_into_the_disc(spread):
    """`entry_times` of one polygon's vertices into another's `reach_disc` (widened by the
    tolerance) over [lo, 3]: never after the first sample inside, inf only when no sample
    is inside."""
    rng = np.random.default_rng(int(spread * 10) + 1)
    entered = 0
    for _ in range(200):
        n = int(rng.integers(3, 9))
        p, v, a = random_kinematics(rng, n, spread)
        other = random_kinematics(rng, int(rng.integers(3, 9)), spread)
        disc = reach_disc(*other)
        lo, tol = float(rng.choice([0.0, rng.uniform(0.0, 1.0)])), 1e-3 * spread
        out = np.empty(n)
        entry_times(p, v, a, disc, lo, SAMPLES[-1], tol, out)
        mpx, mpy, mvx, mvy, m2x, m2y, r0, r1, r2 = disc
        t = SAMPLES[:, None]
        centre = np.hstack([mpx + (mvx + m2x * t) * t, mpy + (mvy + m2y * t) * t])
        gap = np.linalg.norm(paths(p, v, a) - centre[:, None, :], axis=2)
        inside = (gap <= r0 + tol + (r1 + r2 * t) * t) & (t >= lo)
        for j in range(n):
            if inside[:, j].any():
                assert out[j] <= SAMPLES[np.argmax(inside[:, j])] + 1e-9
                entered += out[j] > lo
            else:
                assert out[j] >= lo
    assert entered > 50


# --- first contact against dense sampling of translational motion ------------------------------
def sampled_first_contact(a, va, aa, b, vb, ab, horizon, steps=400):
    """Truth for translation: first sample where shapely sees contact, then bisection."""
    def shapes_at(t):
        return (shapely.Polygon(a + va * t + 0.5 * aa * t * t),
                shapely.Polygon(b + vb * t + 0.5 * ab * t * t))

    def touching(t):
        pa, pb = shapes_at(t)
        return pa.distance(pb) <= 1e-12

    if touching(0.0):
        return 0.0
    return first_touch(touching, horizon, steps)


def first_touch(touching, horizon, steps):
    """First sample in (0, horizon] where touching(t) holds, refined by bisection; or None."""
    prev = 0.0
    for t in np.linspace(0.0, horizon, steps + 1)[1:]:
        if touching(t):
            lo, hi = prev, t
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if touching(mid) else (mid, hi)
            return hi
        prev = t
    return None


def min_distance_over(a, va, aa, b, vb, ab, t0, t1, steps=200):
    d = np.inf
    for t in np.linspace(t0, t1, steps):
        d = min(d, shapely.Polygon(a + va * t + 0.5 * aa * t * t).distance(
            shapely.Polygon(b + vb * t + 0.5 * ab * t * t)))
    return d


vec = st.tuples(st.floats(-1.5, 1.5), st.floats(-1.5, 1.5))


@given(simple_polygons(max_vertices=7), simple_polygons(max_vertices=7), vec, vec, vec, vec,
       st.booleans())
def test_translational_first_contact_matches_sampling(a, b, va, vb, aa, ab, accelerate):
    b = b + np.array([3.0, 0.5])
    va, vb = np.array(va), np.array(vb)
    aa = np.array(aa) if accelerate else np.zeros(2)
    ab = np.array(ab) if accelerate else np.zeros(2)
    horizon = 2.0
    ones_a, ones_b = np.ones((len(a), 1)), np.ones((len(b), 1))
    got = first_contact(a, ones_a * va, ones_a * aa, b, ones_b * vb, ones_b * ab, horizon)
    truth = sampled_first_contact(a, va, aa, b, vb, ab, horizon)
    if truth is None:
        if got is not None:  # a contact between samples: it must be a real touch
            t = got.time
            pa = shapely.Polygon(a + va * t + 0.5 * aa * t * t)
            pb = shapely.Polygon(b + vb * t + 0.5 * ab * t * t)
            assert pa.distance(pb) < 1e-9
        return
    assert got is not None, f'missed a contact at t = {truth}'
    if got.time < truth - 1e-6:
        # earlier than the samples saw: only a graze that sampling stepped over
        assert min_distance_over(a, va, aa, b, vb, ab, got.time, got.time, 1) < 1e-9
        assume(False)
    assert got.time == pytest.approx(truth, abs=1e-6)


def ones(n, v):
    return np.tile(np.asarray(v, float), (n, 1))


@pytest.mark.parametrize('name, vb, ab, expected', [
    ('head-on at 1 m/s closing over a 2 m gap', [-1.0, 0.0], [0.0, 0.0], 2.0),
    ('accelerating from rest: 2 = t^2 / 2', [0.0, 0.0], [-1.0, 0.0], 2.0),
    ('decelerating to stop 1 mm short', [-2.0, 0.0], [1.0 / 0.999 * 1.0 * 2.0 / 2.0, 0.0], None),
    ('zero relative velocity', [0.0, 0.0], [0.0, 0.0], None),
    ('moving apart', [1.0, 0.0], [0.0, 0.0], None),
])
def test_named_translational_cases(name, vb, ab, expected):
    b = SQ + [3.0, 0.3]  # 2 m gap along x
    ab_vec = np.asarray(ab)
    if name.startswith('decelerating'):
        # stops after v^2 / (2 a) = 1.999 m: 1 mm short of the 2 m gap
        ab_vec = np.array([4.0 / (2 * 1.999), 0.0])
    got = first_contact(SQ, ones(4, [0, 0]), ones(4, [0, 0]), b, ones(4, vb), ones(4, ab_vec),
                        5.0)
    if expected is None:
        assert got is None, name
    else:
        assert got.time == pytest.approx(expected, abs=1e-9), name
        assert np.allclose(got.normal, [1.0, 0.0])


def test_missing_by_a_millimetre_glancing():
    b = SQ + [3.0, 1.001]  # passes 1 mm above a's top
    assert first_contact(SQ, ones(4, [0, 0]), None, b, ones(4, [-1, 0]), None, 5.0) is None
    b = SQ + [3.0, 0.999]  # clips the corner by 1 mm
    got = first_contact(SQ, ones(4, [0, 0]), None, b, ones(4, [-1, 0]), None, 5.0)
    assert got.time == pytest.approx(2.0, abs=1e-9)


def test_already_touching_is_time_zero():
    got = first_contact(SQ, ones(4, [0, 0]), None, SQ + [1.0, 0.0], ones(4, [1, 0]), None, 1.0)
    assert got.time == 0.0 and got.vertex_of == ''
    assert got.vertex == got.edge == -1  # the documented values at time 0
    assert got.point.shape == got.normal.shape == (2,)
    assert np.isnan(got.point).all() and np.isnan(got.normal).all()


# --- rotation: the point model against the rigid motion ----------------------------------------
def rigid_contact_time(body_a, pose_a, twist_a, body_b, pose_b, twist_b, horizon, steps=4000):
    """Truth for rigid motion (constant twist): dense sampling plus bisection."""
    def shapes_at(t):
        pa = rigid(body_a, pose_a[2] + twist_a[2] * t, pose_a[0] + twist_a[0] * t,
                   pose_a[1] + twist_a[1] * t)
        pb = rigid(body_b, pose_b[2] + twist_b[2] * t, pose_b[0] + twist_b[0] * t,
                   pose_b[1] + twist_b[1] * t)
        return shapely.Polygon(pa), shapely.Polygon(pb)

    def touching(t):
        pa, pb = shapes_at(t)
        return pa.intersects(pb)

    return first_touch(touching, horizon, steps)


def test_rotating_bodies_reprediction_converges_to_rigid_truth():
    """A bar spinning at 2 rad/s while a box approaches: the point model errs far out, and
    re-predicting every 20 ms from the true state converges on the true contact time."""
    bar = np.array([[-1.0, -0.05], [1.0, -0.05], [1.0, 0.05], [-1.0, 0.05]])
    pose_a, twist_a = np.array([0.0, 0.0, 0.0]), np.array([0.0, 0.0, 2.0])
    pose_b, twist_b = np.array([2.2, 0.6, 0.0]), np.array([-0.5, 0.0, 0.0])
    truth = rigid_contact_time(bar, pose_a, twist_a, SQ * 0.4, pose_b, twist_b, 5.0)
    assert truth is not None
    errors = []
    dt = 0.02
    t = 0.0
    while t < truth - dt:
        pa = pose_a + twist_a * t
        pb = pose_b + twist_b * t
        ka = vertex_kinematics(pa, twist_a, [0, 0, 0], bar)
        kb = vertex_kinematics(pb, twist_b, [0, 0, 0], SQ * 0.4)
        got = first_contact(*ka, *kb, 5.0)
        errors.append(abs(t + got.time - truth) if got else np.inf)
        t += dt
    assert errors[-1] < 1e-3
    assert errors[-1] <= min(errors[:5])
    assert max(errors[-5:]) < 5e-3


def test_a_tip_that_rises_in_and_falls_back_meets_at_the_first_root():
    """A triangle's tip thrown up into a box's underside under constant deceleration: it
    enters at the smaller root of y(t) = 1 and leaves at the larger one, nothing else
    touches.  y(t) = 0.75 + 1.5 t - t^2, so t = (1.5 -+ sqrt(1.25)) / 2 = 0.191 or 1.309."""
    world = World()
    world.add_body('box', [[-1.0, 1.0], [1.0, 1.0], [1.0, 2.0], [-1.0, 2.0]], static=True,
                   pose=(0.0, 0.0, 0.0))
    world.add_body('tip', [[-0.3, -0.5], [0.3, -0.5], [0.0, 0.0]], pose=(0.0, 0.75, 0.0))
    world.set_twists([[0.0, 1.5, 0.0]], ['tip'])
    world.set_accelerations([[0.0, -2.0, 0.0]], ['tip'])
    (a, b, first), = list(world.predict(2.0, 'constant_acceleration'))
    expected = (1.5 - math.sqrt(1.25)) / 2
    assert (a, b) == ('box', 'tip')
    assert first.time == pytest.approx(expected, abs=1e-12)
    assert first.point == pytest.approx([0.0, 1.0], abs=1e-12)
    pos, vel, acc = vertex_kinematics([0.0, 0.75, 0.0], [0.0, 1.5, 0.0], [0.0, -2.0, 0.0],
                                      world.footprint('tip'))
    box = world.world_vertices('box')
    zero = np.zeros_like(box)
    assert first_contact(pos, vel, acc, box, zero, zero, 2.0).time == pytest.approx(
        expected, abs=1e-12)


@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
def test_a_contact_exactly_at_the_horizon_is_within_it(predictor):
    """Faces 2 m apart closing at 1 m/s meet at t = 2.0 exactly: inside a 2 s horizon (the
    horizon is closed), outside a shorter one."""
    world = World()
    world.add_body('a', SQ, pose=(0.0, 0.0, 0.0))
    world.add_body('b', SQ, pose=(3.0, 0.0, 0.0))
    world.set_twists([[-1.0, 0.0, 0.0]], ['b'])
    assert [(a, b, f.time) for a, b, f in world.predict(2.0, predictor)] == [('a', 'b', 2.0)]
    assert len(world.predict(1.999, predictor)) == 0


@pytest.mark.parametrize('length', [10.0, 40.0])
def test_a_tip_turning_within_the_tolerance_of_a_long_edge_touches_it(length):
    """A triangle's tip falls towards the middle of a bar's top edge, `length` metres long,
    and turns back a third of the length tolerance above it (constant acceleration): the two
    touch, within the tolerance, at the turning point (the band along an edge's line scales
    with the edge's length, not against it)."""
    from collision_monitor.kernels.geometry2d.primitives import length_tolerance, polygon_scale
    a = np.array([[0.0, -0.5], [length, -0.5], [length, 0.0], [0.0, 0.0]])
    v, acc = 1.0, 2.0  # down at 1 m/s, slowing at 2 m/s^2: turning at t = 0.5 s
    tip = np.array([[0.5 * length, 0.0], [0.5 * length + 0.3, 0.5],
                    [0.5 * length - 0.3, 0.5]]) + [0.0, v * v / (2 * acc)]
    tol = length_tolerance(max(polygon_scale(a), polygon_scale(tip)))
    tip[:, 1] += tol / 3.0
    zero = np.zeros_like(a)
    fc = first_contact(a, zero, zero, tip, np.tile([0.0, -v], (3, 1)),
                       np.tile([0.0, acc], (3, 1)), 2.0)
    # within the band from sqrt(4 tol / (3 acc)) (under a microsecond) before the turn
    assert fc is not None and fc.time == pytest.approx(v / acc, abs=1e-5)
    assert fc.vertex_of == 'b' and fc.vertex == 0


@pytest.mark.parametrize('length', [10.0, 100.0])
@pytest.mark.parametrize('turn', [0.0, -0.5])
def test_a_tip_passing_tolerances_beyond_the_end_of_a_long_edge_misses_it(length, turn):
    """A triangle's tip falls past the top right corner of a bar `length` metres long, beside
    its end: a little more than the length tolerance beyond it they never touch, half a
    tolerance beyond they touch at the corner when the tip reaches the top edge's line (at
    t = 1 s).  The slack at an edge's ends is a length, so in units of the edge (where the
    end is 1) it shrinks as the edge grows.  With `turn` the bar turns clockwise about that
    corner (rad/s), staying left of it: the search's bound on the edge's length over the
    horizon is then looser than the edge, and the check at the root decides."""
    from collision_monitor.kernels.geometry2d.primitives import length_tolerance, polygon_scale
    bar = np.array([[0.0, -1.0], [length, -1.0], [length, 0.0], [0.0, 0.0]])
    pos, vel, acc = vertex_kinematics((length, 0.0, 0.0), (0.0, 0.0, turn), (0.0, 0.0, 0.0),
                                      bar - [length, 0.0])
    tip = np.array([[0.0, 1.0], [1.0, 1.2], [0.5, 2.0]]) + [length, 0.0]  # tip at the left
    tol = length_tolerance(polygon_scale(bar))  # the bar's scale is the pair's
    down = np.tile([0.0, -1.0], (3, 1))
    for gap, meets in ((1.8 * tol, False), (0.5 * tol, True)):
        fc = first_contact(pos, vel, acc, tip + [gap, 0.0], down, np.zeros((3, 2)), 2.0)
        assert (fc is not None) == meets, gap / tol
        if meets:
            assert fc.time == pytest.approx(1.0, abs=1e-6)


def test_the_first_root_within_the_edge_is_taken_after_roots_beyond_its_ends():
    """Seeded vertex and edge motions (constant acceleration) whose vertex crosses the edge's
    line three or more times in 2 s, the first two crossings beyond the edge's ends: the
    vertex meets the edge at the first crossing within it.  The reference multiplies the
    coordinate polynomials of u = j - p and w = q - p (not `quartic_coefficients`'s cross
    products of vector coefficients), takes numpy's roots, and the position along the edge
    from the positions themselves."""
    rng = np.random.default_rng(7)
    k = rng.uniform([-1, -1, -2, -2, -6, -6], [1, 1, 2, 2, 6, 6], (20000, 3, 6))
    j, p, q = k[:, 0], k[:, 1], k[:, 2]

    def coords(a, c):  # coefficients (t^0, t^1, t^2) of a coordinate of a - p
        return np.stack([a[:, c] - p[:, c], a[:, c + 2] - p[:, c + 2],
                         0.5 * (a[:, c + 4] - p[:, c + 4])], axis=1)

    def product(a, b):  # coefficients (t^0 .. t^4) of a * b
        return np.stack([sum(a[:, i] * b[:, n - i] for i in range(3) if 0 <= n - i <= 2)
                         for n in range(5)], axis=1)
    ux, uy, wx, wy = coords(j, 0), coords(j, 1), coords(q, 0), coords(q, 1)
    f = product(wx, uy) - product(wy, ux)
    grid = np.linspace(0.0, 2.0, 801)
    signs = np.sign(np.polynomial.polynomial.polyval(grid, f.T))
    found = 0
    for c in np.flatnonzero(np.sum(signs[:, 1:] * signs[:, :-1] < 0, axis=1) >= 3):
        roots = sorted(r.real for r in np.roots(f[c, ::-1])
                       if abs(r.imag) < 1e-9 and 0.0 <= r.real <= 2.0)
        at = [[np.polyval(v[c, ::-1], t) for v in (ux, uy, wx, wy)] for t in roots]
        d = [(x * ex + y * ey) / (ex * ex + ey * ey) for x, y, ex, ey in at]
        within = [t for t, s in zip(roots, d) if -1e-3 < s < 1.0 + 1e-3]
        if not within or any(-0.01 < s < 1.01 for s in d[:2]):
            continue
        found += 1
        t, _ = vertex_edge_toi(tuple(j[c]), tuple(p[c]), tuple(q[c]), 0.0, 2.0, 1e-12)
        assert t == pytest.approx(within[0], abs=1e-7), (j[c], p[c], q[c], roots, d)
    assert found >= 20


@pytest.mark.parametrize('horizon', [0.0, -1.0, np.inf, np.nan])
def test_a_horizon_that_is_not_a_positive_number_is_refused(horizon):
    with pytest.raises(ValueError,
                       match=r'^horizon must be a positive number of seconds, got \S+$'):
        first_contact(SQ, np.zeros((4, 2)), None, SQ + 3.0, np.zeros((4, 2)), None, horizon)


def test_arguments_of_different_sizes_or_not_finite_are_named():
    with pytest.raises(ValueError, match='^verts_b, vel_b and acc_b must have the same shape'):
        first_contact(SQ, np.zeros((4, 2)), None, SQ + 3.0, np.zeros((3, 2)), None, 1.0)
    for what, k in (('verts', 0), ('vel', 1), ('acc', 2)):
        args = [SQ, np.zeros((4, 2)), np.zeros((4, 2)), SQ + 3.0, np.zeros((4, 2)),
                np.zeros((4, 2))]
        args[3 + k] = args[3 + k].copy()
        args[3 + k][1, 0] = np.nan
        with pytest.raises(ValueError, match=f'^{what}_b has non-finite'):
            first_contact(*args, 1.0)


@pytest.mark.parametrize('bad', range(6))
def test_a_misshapen_argument_of_first_contact_is_named(bad):
    square = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
    names = ['verts_a', 'vel_a', 'acc_a', 'verts_b', 'vel_b', 'acc_b']
    args = [square, np.zeros((4, 2)), np.zeros((4, 2)), square + 3.0, np.zeros((4, 2)),
            np.zeros((4, 2))]
    args[bad] = np.zeros((4, 3))
    with pytest.raises(ValueError, match=f'^{names[bad]} must have shape'):
        first_contact(*args, 2.0)


@pytest.mark.parametrize('turning', ['no', 'b only'])
@pytest.mark.parametrize('window', ['from now', 'from later'])
def test_a_line_beside_a_translating_polygon_keeps_the_other_apart(turning, window):
    """Random footprints (convex and star-shaped, either winding), a translating and b
    turning or not, closing or passing: whenever `beside_throughout` certifies the window,
    shapely's distance between the two model polygons stays over the tolerance at 400
    times in it, and the exhaustive search finds no event there.  Some pairs are certified,
    some pairs that meet are not."""
    rng = np.random.default_rng(21 if turning == 'no' else 22)
    certified = met = 0
    for _ in range(400):
        shape_a, shape_b = random_footprint(rng), random_footprint(rng)
        state_a = (rng.uniform(-1, 1, 3) * [1, 1, 3], np.append(rng.uniform(-1, 1, 2), 0.0),
                   np.append(rng.uniform(-1, 1, 2), 0.0))
        pose_b = np.append(rng.uniform(1.2, 3, 2) * rng.choice([-1, 1], 2), rng.uniform(-3, 3))
        spin = 0.0 if turning == 'no' else rng.uniform(-1, 1)
        state_b = (pose_b, np.append(rng.uniform(-1, 1, 2) - 0.3 * pose_b[:2], spin),
                   np.append(rng.uniform(-1, 1, 2), 0.5 * spin))
        ka = vertex_kinematics(*state_a, shape_a)
        kb = vertex_kinematics(*state_b, shape_b)
        if polygons_touch(placed_at(ka, 0.0), placed_at(kb, 0.0)):
            continue
        lo = 0.0 if window == 'from now' else 0.7
        tol = pair_length_tolerance(ka[0], kb[0])
        a = MovingPolygon(*ka, polygon_orientation(ka[0]))
        b = MovingPolygon(*kb, polygon_orientation(kb[0]))
        if beside_throughout(a, b, lo, 2.0, tol):
            certified += 1
            for t in np.linspace(lo, 2.0, 400):
                gap = shapely.Polygon(placed_at(ka, t)).distance(
                    shapely.Polygon(placed_at(kb, t)))
                assert gap > tol, t
            entry = np.empty((2, max(len(shape_a), len(shape_b))))
            assert searched_first_event(a, b, lo, 2.0, tol, entry)[2] < 0
        else:
            met += first_contact(*ka, *kb, 2.0) is not None
    assert certified > 50 and met > 20


def polygons_touch(pa, pb):
    return shapely.Polygon(pa).intersects(shapely.Polygon(pb))


@pytest.mark.parametrize('gap, closing, certified', [
    (1e-6, 0.0, True),     # sliding along the shelf a micrometre off it
    (0.1, 0.04, True),     # drifting in, 2 cm short after 2 s
    (0.1, 0.06, False),    # drifting in, across the face at 1.67 s
    (0.3, -1.0, True),     # moving off
    ('tol', 0.0, False),   # sliding along within the tolerance: touching, never certified
])
def test_a_square_sliding_along_a_shelf_is_certified_only_while_a_line_parts_them(
        gap, closing, certified):
    """A 6 m x 0.8 m shelf at rest and a unit square `gap` above its top face, sliding along
    it at 1 m/s and closing on it at `closing` m/s: certified apart over 2 s exactly when the
    square stays over 2 tolerances above the face."""
    shelf = np.array([[-3.0, -0.4], [3.0, -0.4], [3.0, 0.4], [-3.0, 0.4]])
    ka = vertex_kinematics([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], shelf)
    tol = pair_length_tolerance(ka[0], SQ + [-2.0, 0.9])
    lift = tol if gap == 'tol' else gap
    kb = vertex_kinematics([-2.0, 0.9 + lift, 0.0], [1.0, -closing, 0.0], [0.0, 0.0, 0.0], SQ)
    a = MovingPolygon(*ka, polygon_orientation(shelf))
    b = MovingPolygon(*kb, polygon_orientation(SQ))
    assert beside_throughout(a, b, 0.0, 2.0, tol) == certified
    assert beside_throughout(b, a, 0.0, 2.0, tol) == certified  # the square's bottom face


def outward_normals_at(poly, k):
    """Unit outward normals of the edges k-1 -> k and k -> k+1 of a simple polygon."""
    sign = 1.0 if shapely.Polygon(poly).exterior.is_ccw else -1.0
    out = []
    for p, q in ((poly[k - 1], poly[k]), (poly[k], poly[(k + 1) % len(poly)])):
        w = q - p
        out.append(sign * np.array([w[1], -w[0]]) / np.linalg.norm(w))
    return out


def turned(poly, angle):
    c, s = np.cos(angle), np.sin(angle)
    return poly @ np.array([[c, s], [-s, c]])


def corner_meeting(a, i, b, j, within, approach, time, speed, pull):
    """Velocities and start of b that bring its vertex j onto a's vertex i at `time`, both
    convex, a at rest, along a line of contact at fraction `within` of a's normal cone at i.

    b is turned so that the middle of its own normal cone at j faces the line's normal n;
    its offset from the meeting place is ``c (T - t) + e (T - t)^2 / 2`` with c at angle
    `approach` from n and e = `pull` n, so that n parts them at every earlier time.
    Returns b's vertices at 0, their velocity and acceleration."""
    n0, n1 = outward_normals_at(a, i)
    angle = np.arctan2(n0[1], n0[0])
    arc = np.arctan2(n0[0] * n1[1] - n0[1] * n1[0], n0 @ n1)  # CCW from n0 to n1, < pi
    n = np.array([np.cos(angle + within * arc), np.sin(angle + within * arc)])
    m0, m1 = outward_normals_at(b, j)
    mid = m0 + m1
    b = turned(b, np.arctan2(-n[1], -n[0]) - np.arctan2(mid[1], mid[0]))
    b = b - b[j] + a[i]
    c = speed * np.array([[np.cos(approach), -np.sin(approach)],
                          [np.sin(approach), np.cos(approach)]]) @ n
    e = pull * n
    start = b + c * time + 0.5 * e * time * time
    return start, np.tile(-c - e * time, (len(b), 1)), np.tile(e, (len(b), 1))


@given(simple_polygons(convex=True, max_vertices=6), simple_polygons(convex=True, max_vertices=6),
       st.integers(0, 5), st.integers(0, 5), st.floats(0.05, 0.95), st.floats(-1.2, 1.2),
       st.sampled_from([1e-3, 0.1, 1.0, 10.0]), st.floats(0.0, 2.0), st.booleans())
def test_corners_meeting_get_a_normal_that_parts_the_bodies(a, b, i, j, within, approach,
                                                            size, pull, swap):
    """Two convex bodies of several sizes meet corner to corner, along any line between the
    corners' edges, from any side of it: the reported normal parts them at the contact time
    (each body's projection on it stays on its own side, to the tolerance), and listing the
    bodies the other way round negates it."""
    a, b = a * size, b * size
    i, j = i % len(a), j % len(b)
    pb, vb, ab = corner_meeting(a, i, b, j, within, approach, 0.5, size, pull * size)
    rest = np.zeros_like(a)
    fc = first_contact(a, rest, rest, pb, vb, ab, 1.0)
    back = first_contact(pb, vb, ab, a, rest, rest, 1.0)
    assert fc is not None and back is not None
    assert abs(fc.time - 0.5) < 1e-6 and abs(back.time - 0.5) < 1e-6
    tol = pair_length_tolerance(a, pb)
    for first, second, hit in ((a, placed_at((pb, vb, ab), fc.time), fc),
                               (placed_at((pb, vb, ab), back.time), a, back)):
        n = hit.normal
        assert abs(np.linalg.norm(n) - 1.0) < 1e-12
        assert (first @ n).max() <= (second @ n).min() + 2 * tol, (first @ n, second @ n)
    np.testing.assert_allclose(back.normal, -fc.normal, atol=1e-6)


@pytest.mark.parametrize('order', ['box first', 'triangle first'])
@pytest.mark.parametrize('size', [1e-6, 0.1, 0.5])
def test_a_triangle_tip_meeting_a_box_corner_gets_a_normal_that_parts_them(size, order):
    """The tip of a small triangle flying diagonally onto a box's corner: the normal is a
    direction between the corner's two face normals, (-1, 0) and (0, -1), not the triangle's
    edge normal, whose line runs into the box."""
    box = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    u = np.array([1.0, 1.0]) / np.sqrt(2)
    n = np.array([-u[1], u[0]])
    tip = np.array([-2.0, -2.0])
    tri = np.array([tip, tip - size * u - 0.5 * size * n, tip - size * u + 0.5 * size * n])
    moving = np.tile([4.0, 4.0], (3, 1))
    if order == 'box first':
        fc = first_contact(box, np.zeros((4, 2)), None, tri, moving, None, 1.0)
        normal = fc.normal
    else:
        fc = first_contact(tri, moving, None, box, np.zeros((4, 2)), None, 1.0)
        normal = -fc.normal
    assert abs(fc.time - 0.25) < 1e-9
    np.testing.assert_allclose(fc.point, [-1.0, -1.0], atol=1e-9)
    at = tri + moving * fc.time
    assert (box @ normal).max() <= (at @ normal).min() + 1e-9
    assert normal[0] <= 1e-12 and normal[1] <= 1e-12


def test_the_world_predicts_the_same_parting_normal_for_corners_meeting():
    """Through `CollisionWorld.predict`: a unit box at rest on the grid and another one
    flying diagonally corner first onto it; the normal parts the boxes at the contact time
    (here exactly the diagonal, the middle of the corner's two face normals)."""
    world = World()
    box = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    world.add_body('shelf', box)
    world.add_body('cart', box)
    world.set_motion([[0.0, 0.0, 0.0], [2.0, 2.0, 0.0]], [[0.0, 0.0, 0.0], [-1.0, -1.0, 0.0]],
                     [[0.0, 0.0, 0.0]] * 2)
    predictions = world.predict(2.0)
    assert len(predictions) == 1
    fc = predictions[0]
    assert abs(fc.time - 1.0) < 1e-9
    np.testing.assert_allclose(fc.normal, [np.sqrt(0.5), np.sqrt(0.5)], atol=1e-9)


@pytest.mark.parametrize('size', [1e-3, 1.0, 30.0])
@pytest.mark.parametrize('k', [3, 4, 8, 12])
def test_corners_closing_head_on_meet_at_the_true_time(k, size):
    """Two regular k-gons, each corner pointing at the other's along their common axis,
    closing at `size` m/s from size / 2 apart: they meet at 0.5 s, through `first_contact`
    and through the world.  (The first root within the band of the edge's line was the
    window's start, refused as off the segment, and the crossing just after it was lost.)"""
    angles = np.arange(k) * 2 * np.pi / k
    a = np.column_stack([np.cos(angles), np.sin(angles)]) * size
    b = -a  # b's vertex 0 points back at a's
    start = np.array([2.0 * size + 0.5 * size, 0.0])
    rest = np.zeros_like(a)
    closing = np.tile([-size, 0.0], (k, 1))
    fc = first_contact(a, rest, None, b + start, closing, None, 1.0)
    assert fc is not None and abs(fc.time - 0.5) < 1e-9
    np.testing.assert_allclose(fc.point, [size, 0.0], atol=1e-9 * size)
    np.testing.assert_allclose(fc.normal, [1.0, 0.0], atol=1e-9)
    world = World()
    world.add_body('a', a)
    world.add_body('b', b)
    world.set_motion([[0.0, 0.0, 0.0], [*start, 0.0]], [[0.0, 0.0, 0.0], [-size, 0.0, 0.0]],
                     [[0.0, 0.0, 0.0]] * 2)
    predictions = world.predict(1.0)
    assert len(predictions) == 1 and abs(predictions.time[0] - 0.5) < 1e-9
