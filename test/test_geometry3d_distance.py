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
"""Segment and line distances against brute force."""

from fractions import Fraction

from hypothesis import given, strategies as st
import numpy as np
import pytest

from collision_monitor.geometry3d import (line_line_closest, line_point_distance, point_distance,
                                          segment_distance)
from collision_monitor.kernels.constants import DBL_EPS


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


def test_perpendicular_unit_segments_one_over_the_other():
    """1 m long along x and along y, 1 m apart in z, crossing over their middles (|d1 x d2|
    = 1): the closest points are the middles, for the segments and for their lines."""
    p1, q1, p2, q2 = [-0.5, 0, 0], [0.5, 0, 0], [0, -0.5, 1], [0, 0.5, 1]
    for dist, c1, c2 in (segment_distance(p1, q1, p2, q2),
                         line_line_closest(p1, [1, 0, 0], p2, [0, 1, 0])):
        assert dist == 1.0
        assert np.array_equal(c1, [0, 0, 0]) and np.array_equal(c2, [0, 0, 1])


def orthonormal_pair(rng):
    """Two random orthogonal unit vectors."""
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    v = np.cross(u, rng.normal(size=3))
    return u, v / np.linalg.norm(v)


@pytest.mark.parametrize('angle', [0.0, 1e-9])
def test_parallel_segments_are_apart_by_their_offset_and_their_gap(angle):
    """Segments along one direction u (the second reversed or not, or turned by `angle`):
    the distance is sqrt(h^2 + g^2), h the perpendicular offset of their lines and g the gap
    between their intervals along u (0 when they overlap); the closest points are that far
    apart."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        u, v = orthonormal_pair(rng)
        lo1, lo2 = rng.uniform(-2, 2, 2)
        len1, len2 = rng.uniform(0.1, 2, 2)
        h = rng.uniform(0, 1)
        base = rng.normal(size=3)
        p1, q1 = base + lo1 * u, base + (lo1 + len1) * u
        p2, q2 = base + h * v + lo2 * u, base + h * v + (lo2 + len2) * (u + angle * v)
        if rng.random() < 0.5:
            p2, q2 = q2, p2
        g = max(0.0, lo2 - (lo1 + len1), lo1 - (lo2 + len2))
        dist, c1, c2 = segment_distance(p1, q1, p2, q2)
        assert dist == pytest.approx(np.hypot(h, g), abs=1e-8)
        assert np.linalg.norm(c1 - c2) == pytest.approx(dist, abs=1e-12)


def test_segments_and_lines_at_a_small_angle_are_as_far_as_the_lines():
    """Segments of 1 cm to 100 m, either much the longer, at 1e-9 to 0.3 rad to each other,
    whose lines pass h apart through points inside both: the distance is h, for the
    segments and for their lines, within 45 eps of the segments' size, and the closest
    points are that far apart (where they lie along the segments is ill-conditioned).  The
    dot products' normal equations put each parameter off on its own: up to 49 um for
    segments 50 m long 8e-6 rad apart, and below 1.2e-7 rad the lines were taken as
    parallel."""
    rng = np.random.default_rng(8)
    for _ in range(400):
        u, v = orthonormal_pair(rng)
        angle = 10 ** rng.uniform(-9, -0.5)
        d1 = 10 ** rng.uniform(-2, 2) * u
        d2 = 10 ** rng.uniform(-2, 2) * (np.cos(angle) * u + np.sin(angle) * v)
        normal = np.cross(u, v)
        s0, t0 = rng.uniform(0.1, 0.9, 2)
        h = rng.choice([0.0, 10 ** rng.uniform(-9, 0)])
        base = rng.normal(size=3)
        p1, p2 = base - s0 * d1, base + h * normal - t0 * d2
        dist, c1, c2 = segment_distance(p1, p1 + d1, p2, p2 + d2)
        scale = 1e-14 * (1.0 + np.linalg.norm(d1) + np.linalg.norm(d2))
        assert dist == pytest.approx(h, abs=scale)
        assert np.linalg.norm(c1 - c2) == pytest.approx(dist, abs=scale)
        dist, c1, c2 = line_line_closest(p1, d1, p2, d2)
        assert dist == pytest.approx(h, abs=scale)
        assert np.linalg.norm(c1 - c2) == pytest.approx(dist, abs=scale)


def test_a_point_beyond_either_end_of_a_segment_is_as_far_as_that_end():
    """A zero-length segment (a point) against a segment, in both orders: beyond an end the
    closest point is that end; alongside, the foot of the perpendicular."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        u, v = orthonormal_pair(rng)
        p, length = rng.normal(size=3), rng.uniform(0.1, 2.0)
        along, off = rng.uniform(-3.0, 3.0) * length, rng.uniform(0.0, 1.0)
        point = p + along * u + off * v
        nearest = p + np.clip(along, 0.0, length) * u
        for args in ((point, point, p, p + length * u), (p, p + length * u, point, point)):
            dist, c1, c2 = segment_distance(*args)
            assert dist == pytest.approx(np.linalg.norm(point - nearest), abs=1e-12)
            assert np.allclose(c1 if args[0] is p else c2, nearest, atol=1e-12)


def exact_segment_distance(p1, q1, p2, q2):
    """The segments' distance from rational arithmetic on the given doubles: the least
    squared gap of the lines' solution (when inside [0, 1]^2) and the four endpoints'
    clamped projections, each exact; one rounding at the end."""
    p1, q1, p2, q2 = ([Fraction(float(x)) for x in v] for v in (p1, q1, p2, q2))
    d1, d2, r = ([a - b for a, b in zip(u, v)] for u, v in ((q1, p1), (q2, p2), (p1, p2)))

    def dot(u, v):
        return sum(a * b for a, b in zip(u, v))

    def gap2(s, t):
        return sum((ri + s * ai - t * bi) ** 2 for ri, ai, bi in zip(r, d1, d2))

    def clamp(x):
        return min(Fraction(1), max(Fraction(0), x))

    a, b, c, e, f = dot(d1, d1), dot(d1, d2), dot(d1, r), dot(d2, d2), dot(d2, r)
    gaps = [gap2(Fraction(k), clamp((b * k + f) / e) if e else Fraction(0)) for k in (0, 1)]
    gaps += [gap2(clamp((b * k - c) / a) if a else Fraction(0), Fraction(k)) for k in (0, 1)]
    den = a * e - b * b
    if den:
        s, t = (b * f - c * e) / den, (a * f - b * c) / den
        if 0 <= s <= 1 and 0 <= t <= 1:
            gaps.append(gap2(s, t))
    return float(min(gaps)) ** 0.5


def test_segment_distance_against_rational_arithmetic():
    """Random segments of 1 cm to 100 m, nearly parallel ones (1e-12 to 1e-2 rad, their
    lines crossing or passing up to 1 m apart anywhere along them), exactly parallel ones and
    points, near the origin or 1 km from it: within 2 eps of the largest coordinate."""
    rng = np.random.default_rng(10)
    for k in range(800):
        shift = rng.choice([0.0, 1e3]) * rng.normal(size=3)
        if k % 4 == 0:
            p1, q1, p2, q2 = rng.normal(size=(4, 3)) * 10 ** rng.uniform(-2, 2) + shift
        else:
            u, v = orthonormal_pair(rng)
            angle = 0.0 if k % 4 == 3 else 10 ** rng.uniform(-12, -2)
            w = np.cos(angle) * u + np.sin(angle) * v
            d1, d2 = 10 ** rng.uniform(-2, 2, 2)[:, None] * [u, w]
            p1 = shift + rng.normal(size=3)
            p2 = (p1 + rng.uniform(-0.5, 1.5) * d1 - rng.uniform(-0.5, 1.5) * d2
                  + rng.choice([0.0, 10 ** rng.uniform(-9, 0)]) * np.cross(u, v))
            if k % 4 == 2:
                d2 = rng.normal(size=3) * 1e-9
            p1, q1, p2, q2 = p1, p1 + d1, p2, p2 + d2
        scale = np.abs([p1, q1, p2, q2]).max() + 1.0
        assert segment_distance(p1, q1, p2, q2)[0] == pytest.approx(
            exact_segment_distance(p1, q1, p2, q2), abs=2 * DBL_EPS * scale)


def test_a_point_near_a_line_far_along_it_is_as_far_as_its_offset():
    """A point h (0 or 1 pm to 1 m) off a line, 0.1 to 100 m along it from the given point,
    the direction of any length: the distance is h within 4 eps of the span.  The textbook
    sqrt(w.w - (w.v)^2 / v.v) cancels there, off by up to 2 um (1e8 eps of the span)."""
    rng = np.random.default_rng(9)
    for _ in range(2000):
        u, v = orthonormal_pair(rng)
        along = 10 ** rng.uniform(-1, 2) * rng.choice([-1, 1])
        h = rng.choice([0.0, 10 ** rng.uniform(-12, 0)])
        p = rng.normal(size=3)
        dist = line_point_distance(p, u * 10 ** rng.uniform(-3, 3), p + along * u + h * v)
        assert dist == pytest.approx(h, abs=4 * DBL_EPS * (1.0 + abs(along)))


def test_line_helpers():
    assert point_distance([1, 2, 3], [2, 4, 5]) == 3.0
    assert line_point_distance([0, 0, 0], [2, 0, 0], [5, 3, 4]) == pytest.approx(5.0)
    assert line_point_distance([1, 1, 1], [0, 1, 0], [4, 9, 5]) == pytest.approx(5.0)
    d, p, q = line_line_closest([0, 0, 0], [1, 0, 0], [0, 1, 3], [0, 1, 0])
    assert d == pytest.approx(3.0) and np.allclose(p, [0, 0, 0]) and np.allclose(q, [0, 0, 3])
    # parallel lines: the first line's given point and its foot on the other
    d, p, q = line_line_closest([1, 0, 0], [2, 0, 0], [5, 3, 4], [-3, 0, 0])
    assert d == 5.0 and np.array_equal(p, [1, 0, 0]) and np.array_equal(q, [1, 3, 4])


def test_bad_arguments_are_refused_by_name():
    """A non-finite point or direction names its argument; a zero direction is refused."""
    good = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 1.0, 0.0]]
    calls = {point_distance: 'p q', line_point_distance: 'p v q',
             line_line_closest: 'p0 u q0 v', segment_distance: 'p1 q1 p2 q2'}
    for fn, names in calls.items():
        names = names.split()
        for k, name in enumerate(names):
            args = good[:len(names)]
            args[k] = [0.0, np.nan, 0.0]
            with pytest.raises(ValueError, match=f'^{name} must be 3 finite numbers$'):
                fn(*args)
    with pytest.raises(ValueError, match='^v must be a non-zero direction$'):
        line_point_distance([0, 0, 0], [0, 0, 0], [1, 2, 3])
    for u, v in (([0, 0, 0], [1, 0, 0]), ([1, 0, 0], [0, 0, 0])):
        with pytest.raises(ValueError, match='^u and v must be non-zero directions$'):
            line_line_closest([0, 0, 0], u, [0, 1, 0], v)
