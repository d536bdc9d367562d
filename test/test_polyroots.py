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
"""Polynomial roots and Bezier clipping against numpy's roots and dense sampling."""

import math

from hypothesis import assume, given, strategies as st
import numpy as np
import pytest

from collision_monitor.kernels.polyroots import (bernstein4, clip_step, clip_to_band,
                                                 cubic_roots, poly4_roots, quadratic_roots)


@given(st.integers(1, 4), st.lists(st.floats(-1, 3), min_size=4, max_size=4),
       st.floats(0.1, 10))
def test_poly4_roots_match_numpy_roots(deg, roots, scale):
    roots = np.sort(np.array(roots[:deg]))
    assume(deg == 1 or np.min(np.diff(roots)) > 1e-3)
    assume(np.all(np.abs(roots) > 1e-6) and np.all(np.abs(roots - 2) > 1e-6))
    c = np.zeros(5)
    c[:deg + 1] = np.poly(roots)[::-1] * scale
    n, *got = poly4_roots(*c, 0.0, 2.0, 0.0)
    expected = roots[(roots >= 0) & (roots <= 2)]
    assert n == len(expected)
    assert np.allclose(got[:n], expected, atol=1e-9)


@pytest.mark.parametrize('name, c, expected', [
    ('quartic really cubic', [-0.5, 1.0, 0.0, 0.0, 0.0], [0.5]),
    ('linear', [-1.5, 1.0, 0, 0, 0], [1.5]),
    ('constant nonzero', [1.0, 0, 0, 0, 0], []),
    ('identically zero: touching all along, first at 0', [0.0, 0, 0, 0, 0], [0.0]),
    ('double root (grazing)', [1.0, -2.0, 1.0, 0, 0], [1.0]),
    ('quadruple root', [1.0, -4.0, 6.0, -4.0, 1.0], [1.0]),
    ('root at t = 0 (touching now)', [0.0, 1.0, 0, 0, 0], [0.0]),
    ('root at the horizon', [-2.0, 1.0, 0, 0, 0], [2.0]),
    ('two roots of a cubic', [0.0, 0.5, -1.5, 1.0, 0.0], [0.0, 0.5, 1.0]),
    ('a critical point at the start', [-1.0, 0.0, 1.0, 0.0, 0.0], [1.0]),
])
def test_poly4_roots_degenerate_cases(name, c, expected):
    n, *got = poly4_roots(*map(float, c), 0.0, 2.0, 1e-12)
    assert n == len(expected), name
    assert np.allclose(got[:n], expected, atol=1e-6), name
    assert got[n:] == [np.inf] * (4 - n), name  # missing roots are inf


@given(st.lists(st.floats(-10, 10), min_size=5, max_size=5), st.floats(-2, 2),
       st.floats(0.01, 3))
def test_bernstein_form_equals_the_power_form(c, a, h):
    beta = np.array(bernstein4(*c, a, a + h))
    s = np.linspace(0, 1, 9)
    basis = np.array([math.comb(4, k) * s ** k * (1 - s) ** (4 - k) for k in range(5)])
    power = np.polynomial.polynomial.polyval(a + s * h, c)
    scale = np.polynomial.polynomial.polyval(abs(a) + h, np.abs(c)) + 1.0
    assert np.allclose(beta @ basis, power, atol=1e-12 * scale)


@given(st.lists(st.floats(-1, 3), min_size=1, max_size=4), st.floats(0.1, 10),
       st.floats(0, 0.5), st.floats(0.0, 1.5), st.booleans(), st.sampled_from([0, 1, 4, 50]))
def test_clipping_never_passes_the_first_point_in_the_band(roots, scale, band, lo, at_least,
                                                           rounds):
    """One `clip_step` (rounds 0) or `clip_to_band` of that many rounds against samples."""
    c = np.zeros(5)
    c[:len(roots) + 1] = np.poly(roots)[::-1] * scale
    hi = 2.0
    t = np.linspace(lo, hi, 20001)
    f = np.polynomial.polynomial.polyval(t, c)
    if at_least:
        reached = f >= -band
    else:  # in the band at a sample, or crossed it since the previous one
        reached = (np.abs(f) <= band) | (np.sign(f) != np.sign(f[0]))
    clipped = (clip_to_band(*c, lo, hi, band, at_least, rounds) if rounds
               else clip_step(*c, lo, hi, band, at_least))
    # a clip may stop short of the first point (the hull is only a bound), never beyond it
    if reached.any():
        assert clipped <= t[np.argmax(reached)] + 1e-12
    if rounds:  # more rounds only tighten the bound
        assert clipped >= clip_step(*c, lo, hi, band, at_least)


@given(st.floats(-3, 3), st.floats(-3, 3), st.floats(0.1, 10), st.booleans())
def test_quadratic_roots_match_their_construction(r0, r1, scale, flip):
    """a (t - r0)(t - r1), roots in [-3, 3] apart by more than 1e-3: both found on [-4, 4]."""
    assume(abs(r0 - r1) > 1e-3)
    a = -scale if flip else scale
    n, x0, x1 = quadratic_roots(a, -a * (r0 + r1), a * r0 * r1, -4.0, 4.0)
    assert n == 2
    assert [x0, x1] == pytest.approx(sorted([r0, r1]), abs=1e-9)


@given(st.floats(-3, 3).filter(lambda r: r == 0.0 or abs(r) > 1e-100), st.floats(0.1, 10),
       st.booleans())
def test_a_double_root_is_found_whatever_the_rounding_of_the_discriminant(r, scale, flip):
    """a (t - r)^2: b^2 - 4ac is zero, or off by rounding either way; the root is r, once.
    (Roots so small that r^2 underflows, below 1e-150, lose b^2 and 4ac to subnormals.)"""
    a = -scale if flip else scale
    n, x0, x1 = quadratic_roots(a, -2.0 * a * r, a * r * r, -4.0, 4.0)
    assert n >= 1 and x0 == pytest.approx(r, abs=1e-6)
    assert n == 1 or x1 == pytest.approx(r, abs=1e-6)


@pytest.mark.parametrize('lo, hi, expected', [(1.0, 2.0, [1.0, 2.0]), (1.0, 1.5, [1.0]),
                                              (1.5, 2.0, [2.0]), (1.2, 1.8, []),
                                              (-5.0, 1.0, [1.0]), (2.0, 9.0, [2.0])])
def test_quadratic_roots_at_the_ends_of_the_interval_count(lo, hi, expected):
    """(t - 1)(t - 2), exact in floating point: roots on the closed interval, and only
    those, in the count."""
    n, x0, x1 = quadratic_roots(1.0, -3.0, 2.0, lo, hi)
    assert n == len(expected)
    assert [x0, x1] == expected + [np.inf] * (2 - len(expected))


@given(st.lists(st.floats(0.05, 0.45), min_size=4, max_size=4), st.floats(0.1, 10),
       st.booleans())
def test_poly4_roots_find_four_close_roots(gaps, scale, flip):
    """Four roots in [0, 2], 0.05 to 0.45 apart: each piece between the three critical points
    holds one (a piece spanning two critical points would hold two roots and no sign
    change)."""
    roots = 0.02 + np.cumsum(gaps)
    c = np.poly(roots)[::-1] * (-scale if flip else scale)
    n, *got = poly4_roots(*c, 0.0, 2.0, 0.0)
    assert n == 4 and np.allclose(got, roots, atol=1e-9)


@given(st.lists(st.floats(0.02, 0.6), min_size=3, max_size=3), st.floats(0.1, 10))
def test_cubic_roots_find_three_close_roots(gaps, scale):
    """Sign-change roots of a cubic with three roots in [0, 2], 0.02 to 0.6 apart: the
    pieces between its critical points (from `quadratic_roots`) hold one root each."""
    roots = 0.05 + np.cumsum(gaps)
    d = np.poly(roots)[::-1] * scale
    n, *got = cubic_roots(*d, 0.0, 2.0)
    assert n == 3 and np.allclose(got, roots, atol=1e-9)
