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
"""Types, tolerances and the JIT policy shared by every kernel.

JIT policy
----------
* ``fastmath`` is off everywhere: kernels use ``inf`` as the "never" sentinel of time of
  collision and ``nan`` as the polyline separator, which ``nnan``/``ninf`` would break.
* Every kernel is ``njit(cache=True, nogil=True)``.  The cache lives where ``NUMBA_CACHE_DIR``
  points (the Makefile sets one directory for a whole test run, named after a hash of the
  package's sources).  Numba checks a cached kernel against its own file only: the kernels it
  calls from other modules and the module globals it reads are frozen into it, so a cache
  directory must not outlive an edit of any source (the hashed name sees to that; CI always
  starts from an empty cache).  Constants used inside kernels live here and only here.
* Parallel kernels (``parallel=True``) are cached too; used where an independent loop over
  bodies or pairs measured faster than its serial form on two cores (`toi.first_contacts`,
  `kinematics.swept_boxes`, the 3D batch kernels).
  A parallel kernel takes every array it writes as an argument of its own, never inside a
  tuple: numba 0.68's parallel pass can drop the stores to an array unpacked from a tuple
  argument when two of the tuple's arrays have one type and the loop's result is not read
  after it (seen: `PolyhedronSet` depths all zero).  Serial kernels take `packed` bundles.

Tolerance policy
----------------
Geometry is computed in float64 in a frame local to the pair (coordinates minus a nearby
origin), so bodies far from the world origin lose no more than the representation of their
positions.  A length below ``length_tolerance(scale)`` = ``TOL_FACTOR * DBL_EPS * scale`` is
zero, where ``scale`` is a shape's largest absolute coordinate (world frame) plus its extent;
a pair takes the larger of its two shapes' (`pair_length_tolerance`, from the vertices, in a
world as in the functions on vertex arrays).  Touching counts as contact: two polygons touch
when their boundaries are within that tolerance of each other, a point touches a segment
when within it of the segment (not only of its line), two segments when an end of one is
within it of the other or they cross.  For convex pairs the separating axis test decides
overlap and separation beyond the tolerance, and a pair within it on every axis is confirmed
by the distance of its vertices (the axes alone would admit tol / sin(A / 2) at corners of
angle A).
"""

import enum

import numba
import numpy as np


FLOAT = np.float64
INDEX = np.intp

DBL_EPS = float(np.finfo(np.float64).eps)
# Rounding of a handful of float64 operations on coordinates of magnitude `scale`.
TOL_FACTOR = 64.0

JIT_OPTIONS = {'cache': True, 'nogil': True, 'fastmath': False, 'error_model': 'numpy'}

jit = numba.njit(**JIT_OPTIONS)
"""Decorator for serial kernels."""

jit_inline = numba.njit(inline='always', **JIT_OPTIONS)
"""Decorator for tiny helpers called in hot loops (sincos): numba inlines them into the
caller's IR."""

jit_parallel = numba.njit(parallel=True, **JIT_OPTIONS)
"""Decorator for kernels whose outer loop is a ``prange`` over independent items."""


MAX_COORDINATE = 1e9
"""Largest |x| or |y| of a pose (m): farther is refused, beyond any map and where the
grid's integer cell numbers would overflow."""


class MotionModel(enum.IntEnum):
    """How the predictors move each body over the horizon.

    ARC (the default) and HOLONOMIC move the footprint rigidly (see `rigid`): ARC holds the
    body-frame twist and acceleration (a robot driving and turning: circular arcs),
    HOLONOMIC the origin's world velocity and acceleration while the body turns about it
    (omnidirectional bases, people, carts).  The seed's point models move each vertex as a
    point (see `kinematics`): CONSTANT_ACCELERATION holds each vertex's velocity and
    acceleration at t = 0 (a quartic per vertex and edge), CONSTANT_VELOCITY its velocity
    only (a quadratic); exact for translation only.  A body that does not turn moves alike
    under all but CONSTANT_VELOCITY.  Kernels
    take the member's integer value and compare it with the members (an IntEnum argument
    costs numba's dispatcher about 9 us a call, an int 0.1 us); the public API takes a member
    or its lower-case name.
    """

    CONSTANT_ACCELERATION = 0
    CONSTANT_VELOCITY = 1
    ARC = 2
    HOLONOMIC = 3

    @classmethod
    def parse(cls, value):
        """The member for a member or its lower-case name; ValueError otherwise."""
        if isinstance(value, cls):
            return value
        try:
            return _MODELS[value]
        except (KeyError, TypeError):  # TypeError: unhashable
            raise ValueError(f'predictor must be one of {PREDICTORS}, got {value!r}') from None


_MODELS = {m.name.lower(): m for m in (MotionModel.ARC, MotionModel.HOLONOMIC,
                                       MotionModel.CONSTANT_ACCELERATION,
                                       MotionModel.CONSTANT_VELOCITY)}
PREDICTORS = tuple(_MODELS)
"""The names of the motion models, as parameters and the public API spell them (the rigid
models first)."""
