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
"""sin and cos of one angle together, for the per-body transforms of every tick.

libm's sin and cos cost about 30 ns for the pair on these machines, more than transforming an
8-vertex footprint.  `sincos` reduces the angle by multiples of pi/2 (Cody-Waite, pi/2 split
into a 33-bit head and its tail, exact for |x| < 2^20 pi/2) and evaluates fdlibm's minimax
polynomials for sin and cos on [-pi/4, pi/4] (absolute error below 2e-16 there); angles beyond
`REDUCTION_LIMIT` go to libm.  Tested against math.sin and math.cos.
"""

import math

from .constants import jit_inline

REDUCTION_LIMIT = 1.0e5  # rad
_TWO_OVER_PI = 0.63661977236758134308
_PIO2_HI = 1.57079632673412561417e+00
_PIO2_LO = 6.07710050650619224932e-11
# fdlibm __kernel_sin / __kernel_cos coefficients
_S1 = -1.66666666666666324348e-01
_S2 = 8.33333333332248946124e-03
_S3 = -1.98412698298579493134e-04
_S4 = 2.75573137070700676789e-06
_S5 = -2.50507602534068634195e-08
_S6 = 1.58969099521155010221e-10
_C1 = 4.16666666666666019037e-02
_C2 = -1.38888888888741095749e-03
_C3 = 2.48015872894767294178e-05
_C4 = -2.75573143513906633035e-07
_C5 = 2.08757232129817482790e-09
_C6 = -1.13596475577881948265e-11


@jit_inline
def sincos(x):
    """Return (sin x, cos x)."""
    if not abs(x) <= REDUCTION_LIMIT:
        if not abs(x) < math.inf:  # libm's nan (math raises instead when run uncompiled)
            return math.nan, math.nan
        return math.sin(x), math.cos(x)
    k = math.floor(x * _TWO_OVER_PI + 0.5)
    r = (x - k * _PIO2_HI) - k * _PIO2_LO
    z = r * r
    s = r + r * z * (_S1 + z * (_S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))))
    c = 1.0 - 0.5 * z + z * z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    # quadrant q: (s, c), (c, -s), (-s, -c), (-c, s); selects, not branches (random angles
    # would mispredict them)
    q = int(k) & 3
    odd = (q & 1) == 1
    sign = -1.0 if q >= 2 else 1.0
    return sign * (c if odd else s), sign * (-s if odd else c)


@jit_inline
def rotate(s, c, x, y):
    """The vector (x, y) turned by the angle whose sine and cosine are s and c:
    ``(c x - s y, s x + c y)``.  Every placement of a vertex, ``pose + rotate(...)``, uses
    it, so that each kernel puts a vertex at the same float64 point."""
    return c * x - s * y, s * x + c * y
