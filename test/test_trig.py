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
"""sincos against libm."""

import math

from hypothesis import given, strategies as st
import numpy as np

from collision_monitor.kernels.trig import REDUCTION_LIMIT, sincos


@given(st.floats(-2 * REDUCTION_LIMIT, 2 * REDUCTION_LIMIT))
def test_sincos_matches_libm(x):
    s, c = sincos(x)
    assert abs(s - math.sin(x)) <= 4e-16 * max(1.0, abs(x) / 1e3)
    assert abs(c - math.cos(x)) <= 4e-16 * max(1.0, abs(x) / 1e3)


def test_sincos_dense_and_special():
    xs = np.concatenate([np.linspace(-10, 10, 200001), [0.0, -0.0, math.pi / 4, math.pi / 2,
                                                        math.pi, 1e-300, 5e-324]])
    err = max(max(abs(sincos(x)[0] - math.sin(x)), abs(sincos(x)[1] - math.cos(x)))
              for x in xs[::7])
    assert err < 3e-16
    for bad in (math.nan, math.inf):
        assert all(math.isnan(v) for v in sincos(bad))
