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
"""Segment primitives against exact rational arithmetic; norm against hypot."""

from fractions import Fraction
import math

from hypothesis import assume, example, given, strategies as st
import numpy as np
import pytest
import shapely

from collision_monitor.kernels.geometry2d import contact
from collision_monitor.kernels.geometry2d.primitives import (box_padding, length_tolerance,
                                                             norm, point_on_segment,
                                                             polygon_scale,
                                                             segment_intersection, signed_area)
from shapes import simple_polygons


@given(st.floats(-1e300, 1e300), st.floats(-1e300, 1e300))
@example(1e-200, 3e-200)
@example(1e200, -3e200)
@example(0.0, 0.0)
def test_norm_is_hypot_within_an_ulp(x, y):
    assert norm(x, y) == pytest.approx(math.hypot(x, y), rel=2.5e-16, abs=0.0)


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


@given(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(0.0, 2.0), st.floats(0, 6.3),
       st.floats(-1.0, 2.0), st.floats(-3.0, 3.0), st.sampled_from([1e-3, 0.1, 1.0]))
def test_point_on_segment_is_the_exact_distance_within_tol(ax, ay, length, angle, along, off,
                                                           tol):
    """Segments from shorter than tol (a point) to 2000 tol, points before, along and past
    them, off their line by up to 3 tol: on the segment exactly when the rational distance
    to the closed segment is at most tol (rounding decides within 1e-9 of it)."""
    a = (ax, ay)
    b = (ax + length * tol * 1e3 ** (length > 1.0) * math.cos(angle),
         ay + length * tol * 1e3 ** (length > 1.0) * math.sin(angle))
    ex, ey = b[0] - a[0], b[1] - a[1]
    le = math.hypot(ex, ey) or 1.0
    p = (a[0] + along * ex - off * tol * ey / le, a[1] + along * ey + off * tol * ex / le)
    d2 = _exact_point_segment_squared(p, a, b)
    assume(abs(float(d2) - tol * tol) > 1e-9 * tol * tol)
    assert point_on_segment(*a, *b, *p, tol) == (d2 <= Fraction(tol) ** 2)


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
    _check_intersection(expected, p1, p2, q1, q2, count, x0, y0, s0, t0, x1, y1, s1, t1)


def _check_intersection(expected, p1, p2, q1, q2, count, x0, y0, s0, t0, x1, y1, s1, t1):
    """`segment_intersection`'s result against the exact points: each point one of them,
    and its parameters locating it on both segments."""
    got = [(x0, y0, s0, t0)] + ([(x1, y1, s1, t1)] if count == 2 else [])
    assert count == len(expected)
    for gx, gy, s, t in got:
        assert min(abs(gx - float(ex)) + abs(gy - float(ey)) for ex, ey in expected) < 1e-12
        assert 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0
        np.testing.assert_allclose(np.add(p1, s * np.subtract(p2, p1)), [gx, gy], atol=1e-9)
        np.testing.assert_allclose(np.add(q1, t * np.subtract(q2, q1)), [gx, gy], atol=1e-9)


@given(point, point, st.lists(st.integers(-5, 5), min_size=4, max_size=4))
@example((0, 0), (1, 0), [0, 2, -1, 1])  # q as long as p, one parameter apart: span 1
@example((0, 0), (1, 0), [0, 2, 3, 1])
def test_collinear_segments_overlap_as_exact_rationals_say(origin, direction, ends):
    """Two segments on one line (integer points), overlapping in a piece, at a point or
    not at all, either direction along the line: the ends of the shared piece, and their
    parameters along both segments."""
    assume(direction != (0, 0) and ends[0] != ends[1] and ends[2] != ends[3])
    p1, p2, q1, q2 = (tuple(o + k * d for o, d in zip(origin, direction)) for k in ends)
    expected = _exact_segment_intersection(p1, p2, q1, q2)
    result = segment_intersection(*map(float, (*p1, *p2, *q1, *q2)), 1e-12)
    if expected is None:
        assert result[0] == 0
        return
    _check_intersection(expected, p1, p2, q1, q2, *result)


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


def _exact_point_segment_squared(x, a, b):
    """|x - closest point of the closed segment a-b|^2 in exact rationals (a point when
    a == b)."""
    x, a, b = ([Fraction(v) for v in pt] for pt in (x, a, b))
    ex, ey = b[0] - a[0], b[1] - a[1]
    wx, wy = x[0] - a[0], x[1] - a[1]
    ee = ex * ex + ey * ey
    t = min(Fraction(1), max(Fraction(0), (wx * ex + wy * ey) / ee)) if ee else Fraction(0)
    return (wx - t * ex) ** 2 + (wy - t * ey) ** 2


def _exact_segment_distance_squared(p1, p2, q1, q2):
    """Squared distance between two closed segments, in exact rationals: 0 when they
    cross, else the least distance of an endpoint to the other segment."""
    p1, p2, q1, q2 = ([Fraction(v) for v in pt] for pt in (p1, p2, q1, q2))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    point_segment = _exact_point_segment_squared
    d1, d2, d3, d4 = cross(q1, q2, p1), cross(q1, q2, p2), cross(p1, p2, q1), cross(p1, p2, q2)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return Fraction(0)
    return min(point_segment(p1, q1, q2), point_segment(p2, q1, q2),
               point_segment(q1, p1, p2), point_segment(q2, p1, p2))


def _intersect_exactly_within_tol(pairs, tol, draws=3000):
    """`draws` segment pairs from `pairs()` intersect exactly when their distance (exact
    rationals) is at most tol; both answers come up at least 300 times."""
    checked = apart = 0
    for _ in range(draws):
        p1, p2, q1, q2 = pairs()
        gap = _exact_segment_distance_squared(p1, p2, q1, q2) / Fraction(tol) ** 2
        if abs(gap - 1) < Fraction(1, 10 ** 6):
            continue  # rounding decides there
        checked += 1
        apart += gap > 1
        count = segment_intersection(*p1, *p2, *q1, *q2, tol)[0]
        assert (count > 0) == (gap <= 1), (p1, p2, q1, q2, float(gap))
    assert checked > draws - 100 and 300 < apart < checked - 300


@pytest.mark.parametrize('seed', range(3))
def test_segments_meeting_near_their_ends_intersect_within_tol_of_each_other(seed):
    """Two segments with an end each near one point, at angles down to a milliradian:
    they intersect exactly when their distance (exact rationals) is at most tol.  Near a
    corner each end can lie within tol of the other's line while the segments are up to
    2 tol / sin(angle) apart."""
    rng = np.random.default_rng(seed)
    tol = 1e-9

    def pairs():
        o = rng.uniform(-10.0, 10.0, 2)
        alpha = rng.uniform(-np.pi, np.pi)
        beta = alpha + rng.choice([-1, 1]) * 10.0 ** rng.uniform(-3.0, 0.0)
        p1 = o + rng.normal(size=2) * tol
        p2 = p1 + rng.uniform(1.0, 3.0) * np.array([np.cos(alpha), np.sin(alpha)])
        q2 = o + rng.normal(size=2) * tol
        q1 = q2 - rng.uniform(1.0, 3.0) * np.array([np.cos(beta), np.sin(beta)])
        if rng.random() < 0.5:  # either end of either segment near the point
            p1, p2 = p2, p1
        if rng.random() < 0.5:
            q1, q2 = q2, q1
        return p1, p2, q1, q2

    _intersect_exactly_within_tol(pairs, tol)


@pytest.mark.parametrize('seed', range(3))
def test_segments_no_longer_than_tol_intersect_within_tol_of_each_other(seed):
    """A segment of length 0 to 1.5 tol against another as short or of length 1, placed
    0 to 3 tol from it, crossing it or not: they intersect exactly when their distance
    (exact rationals) is at most tol."""
    rng = np.random.default_rng(seed)
    tol = 1e-9

    def pairs():
        o = rng.uniform(-10.0, 10.0, 2)
        turn = rng.uniform(-np.pi, np.pi, 2)
        lengths = rng.uniform(0.0, 1.5, 2) * tol * (rng.random(2) < 0.9)
        if rng.random() < 0.5:
            lengths[1] = 1.0
        p1 = o + rng.uniform(-3.0, 3.0, 2) * tol
        p2 = p1 + lengths[0] * np.array([np.cos(turn[0]), np.sin(turn[0])])
        u = np.array([np.cos(turn[1]), np.sin(turn[1])])
        q1 = o - rng.uniform(0.0, 1.0) * lengths[1] * u
        q2 = q1 + lengths[1] * u
        if rng.random() < 0.5:
            p1, p2, q1, q2 = q1, q2, p1, p2
        return p1, p2, q1, q2

    _intersect_exactly_within_tol(pairs, tol)


@pytest.mark.parametrize('point, away', [((5, 5), (0, 1)), ((15, 0), (1, 0)),
                                         ((-3, -4), (-3, -4)), ((13, 4), (3, 4))])
def test_exactly_tol_away_touches(point, away):
    """Touching counts: a point, or the end of a segment pointing away, exactly tol = 5
    from the segment (0, 0)-(10, 0) (3-4-5 distances, exact in binary) touches it, either
    segment first and either end of the other first, and not with the next smaller
    tolerance."""
    tol = 5.0
    below = np.nextafter(tol, 0.0)
    assert point_on_segment(0.0, 0.0, 10.0, 0.0, *point, tol)
    assert not point_on_segment(0.0, 0.0, 10.0, 0.0, *point, below)
    end = (point[0] + away[0], point[1] + away[1])
    segment = (0.0, 0.0, 10.0, 0.0)
    for p, q in ((segment, (*point, *end)), (segment, (*end, *point)),
                 ((*point, *end), segment), ((*end, *point), segment)):
        count, x, y = segment_intersection(*p, *q, tol)[:3]
        assert count == 1 and np.hypot(x - point[0], y - point[1]) in (0.0, tol)
        assert segment_intersection(*p, *q, below)[0] == 0


@pytest.mark.parametrize('overlap', [1e-5, 1e-7, 1e-9])
@pytest.mark.parametrize('angle', [0.0, 0.3])
def test_a_short_overlap_of_long_collinear_segments_keeps_its_own_ends(overlap, angle):
    """Segments of 1 km along one line overlapping by 10 um to 1 nm (far more than the
    tolerance, about 6e-11 m here): the overlap's ends are q's first end and p's last, not
    both snapped to one end; each returned point within rounding of the exact one."""
    u = np.array([np.cos(angle), np.sin(angle)])
    p1, p2 = 0.0 * u, 1000.0 * u
    q1, q2 = (1000.0 - overlap) * u, 2000.0 * u
    tol = length_tolerance(polygon_scale(np.array([p1, p2, q1, q2])))
    count, x0, y0, s0, t0, x1, y1, s1, t1 = segment_intersection(*p1, *p2, *q1, *q2, tol)
    assert count == 2
    np.testing.assert_allclose([[x0, y0], [x1, y1]], [q1, p2], rtol=0.0, atol=4 * tol)
    assert t0 == 0.0 and s1 == 1.0


@pytest.mark.parametrize('gap', [0.6, 0.75, 0.9])
@pytest.mark.parametrize('offset', [0.6, 0.75, 0.9])
@pytest.mark.parametrize('angle', [0.0, 0.7, 2.0])
def test_parallel_segments_end_to_end_touch_within_tol_of_their_ends(gap, offset, angle):
    """Unit segments on parallel lines `offset` tol apart, end to end with `gap` tol
    between their ends along the lines: each is within tol of the other's line and their
    projections are within tol of overlapping, but they touch only when the distance of
    the ends, sqrt(gap^2 + offset^2) tol, is at most tol."""
    tol = 1e-9
    u = np.array([np.cos(angle), np.sin(angle)])
    n = np.array([-u[1], u[0]])
    o = np.array([3.0, -2.0])
    p1, p2 = o - u, o.copy()
    q1 = o + gap * tol * u + offset * tol * n
    q2 = q1 + u
    gap2 = _exact_segment_distance_squared(p1, p2, q1, q2) / Fraction(tol) ** 2
    assert abs(gap2 - Fraction(gap ** 2 + offset ** 2)) < Fraction(1, 10 ** 4)
    for p, q in (((p1, p2), (q1, q2)), ((q2, q1), (p2, p1))):
        assert (segment_intersection(*p[0], *p[1], *q[0], *q[1], tol)[0] > 0) == (gap2 <= 1)


@given(simple_polygons())
def test_signed_area_is_shapelys_area_signed_by_winding(poly):
    """Concave polygons too: the fan from vertex 0 sums triangles of either sign."""
    ring = shapely.LinearRing(poly)
    expected = shapely.Polygon(poly).area * (1.0 if ring.is_ccw else -1.0)
    assert signed_area(poly) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_the_tolerance_of_tiny_polygons_is_tiny():
    """1 um squares 1e-15 m apart do not touch: a length tolerance grows with the
    coordinates and size of the shapes (about 3e-20 m here), it has no floor."""
    s = 1e-6
    square = np.array([[0, 0], [s, 0], [s, s], [0, s]])
    assert polygon_scale(square) == pytest.approx(2 * s)
    assert contact(square, square + [s + 1e-15, 0]) is None
    assert contact(square, square + [s, 0]) is not None


@pytest.mark.parametrize('stretch, offset', [((1.0, 3.0), (10.0, -20.0)),
                                             ((3.0, 1.0), (-20.0, 10.0))])
@given(poly=simple_polygons())
def test_polygon_scale_is_the_largest_coordinate_plus_the_extent(stretch, offset, poly):
    """The scale of the length tolerance, as documented, computed here with numpy: the
    larger extent and the larger magnitude along x, then along y."""
    poly = poly * stretch + offset
    expected = np.abs(poly).max() + np.ptp(poly, axis=0).max()
    assert polygon_scale(poly) == pytest.approx(expected, rel=1e-15)


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.floats(0, 1e3), st.floats(0, 1e3))
def test_box_padding_is_twice_the_tolerance_of_the_box(x, y, w, h):
    big = max(abs(x), abs(y), abs(x + w), abs(y + h))
    expected = 2 * 64 * np.finfo(float).eps * (big + max(w, h))
    # abs: subnormal inputs (hypothesis tries 2e-309) round at the 1e-323 level
    assert box_padding(x, y, x + w, y + h) == pytest.approx(expected, rel=1e-12, abs=1e-300)
