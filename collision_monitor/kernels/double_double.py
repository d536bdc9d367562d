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
"""Double-double arithmetic: a value as an unevaluated sum ``hi + lo`` of two doubles,
|lo| <= ulp(hi) / 2, about 106 bits (Dekker 1971; Shewchuk 1997 for the error-free
transformations).

For the few places where a result is a small difference of large products of coordinates and
its direction matters, not only its size.  The helpers are exact, or round once at the end
after an error of about 2^-100 of the operands' products; none needs fused multiply-add
(``fastmath`` is off, so LLVM contracts nothing).
"""

from .constants import jit_inline

SPLITTER = 134217729.0
"""2^27 + 1: Veltkamp's constant splitting a double into two halves of 26 bits."""


@jit_inline
def two_sum(a, b):
    """``(s, e)`` with s = fl(a + b) and s + e = a + b exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@jit_inline
def _split(a):
    c = SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


@jit_inline
def two_product(a, b):
    """``(p, e)`` with p = fl(a b) and p + e = a b exactly (Dekker), barring overflow and
    underflow: a, b and a b far from both ends of the double range, as coordinates are."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@jit_inline
def _dd_product(ah, al, bh, bl):
    """(ah + al)(bh + bl) as a double-double (al bl, below 2^-106 of the product, dropped)."""
    p, e = two_product(ah, bh)
    e += ah * bl + al * bh
    s = p + e
    return s, e - (s - p)


@jit_inline
def difference_of_products(ah, al, bh, bl, ch, cl, dh, dl):
    """a b - c d rounded once to a double, for double-doubles a = ah + al, b, c, d: within an
    ulp of the result plus 2^-100 (|a b| + |c d|)."""
    abh, abl = _dd_product(ah, al, bh, bl)
    cdh, cdl = _dd_product(ch, cl, dh, dl)
    s, e = two_sum(abh, -cdh)
    return s + (e + (abl - cdl))
