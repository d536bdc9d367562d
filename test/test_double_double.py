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
"""Double-double arithmetic against exact rationals (fractions.Fraction)."""

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from collision_monitor.kernels.double_double import (difference_of_products, two_product,
                                                     two_sum)


def magnitudes(lo, hi):
    """Doubles of either sign with |x| in [lo, hi], and zero: products of two and their
    rounding errors stay far from overflow and underflow (Dekker's product needs that)."""
    return st.one_of(st.just(0.0), st.floats(lo, hi), st.floats(-hi, -lo))


finite = magnitudes(1e-60, 1e6)  # coordinates (m)
small = magnitudes(1e-60, 1e-10)
EPS = 2.0 ** -52


@settings(max_examples=2000, deadline=None)
@given(finite, finite)
def test_two_sum_and_two_product_are_exact(a, b):
    s, e = two_sum(a, b)
    assert Fraction(s) + Fraction(e) == Fraction(a) + Fraction(b) and s == a + b
    p, e = two_product(a, b)
    assert Fraction(p) + Fraction(e) == Fraction(a) * Fraction(b) and p == a * b


def value(dd):
    return Fraction(dd[0]) + Fraction(dd[1])


@settings(max_examples=2000, deadline=None)
@given(st.lists(finite, min_size=4, max_size=4), st.lists(small, min_size=4, max_size=4))
def test_a_difference_of_products_is_rounded_once_from_its_exact_value(xs, nudge):
    """a b - c d for double-doubles a = x0 - x1 and b = x2 - x3 (exact differences, as of
    two vertices' coordinates) and c, d within nudges (up to 1e-10) of a and b: nearly
    everything cancels, as for plain doubles it would not.  Within an ulp of the exact value
    plus 2^-100 of the products."""
    a, b = two_sum(xs[0], -xs[1]), two_sum(xs[2], -xs[3])
    c, d = two_sum(a[0] + nudge[0], a[1] + nudge[1]), two_sum(b[0] + nudge[2], b[1] + nudge[3])
    got = difference_of_products(*a, *b, *c, *d)
    exact = value(a) * value(b) - value(c) * value(d)
    scale = abs(value(a) * value(b)) + abs(value(c) * value(d))
    assert abs(Fraction(got) - exact) <= EPS * abs(exact) + Fraction(2) ** -100 * scale
