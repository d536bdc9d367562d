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
"""When each contact began: carried from the last stamped tick, or traced back into it.

A stamped tick at time s (seconds, any fixed origin) remembers its contacts as sorted pair
keys ``i * N + j`` (i < j, N bodies) with the time each began.  At the next stamped tick a
contact whose key is remembered keeps that time; a new one between two bodies that were
active then is traced back: the first contact of the two, each moved from its state at the
last tick (pose, twist, acceleration) under its motion model, within the interval
between the ticks, gives ``s_last + t``; without one (nothing found, a body inactive then,
no last tick) it began at s.
"""

import numpy as np

from .constants import jit
from .geometry2d.primitives import pair_length_tolerance
from .kinematics import body_kinematics
from .packed import Bodies
from .toi import pair_first_event


@jit
def contact_onsets(pairs, n_bodies, stamp, last, previous, bodies, models, scratch, out):
    """Began time of each contact (rows of `pairs`, (C, 2) intp, i < j) and the memory of
    this tick for the next.

    `last` is the last stamped tick ``(stamp, keys, began, active)``: its time (nan when
    there is none), its sorted pair keys (int64) and their began times, its active mask
    (N,) in this tick's body indices; `previous` (`packed.Motion`) its state; `bodies`
    (`packed.Bodies`) this tick's (both may be plain tuples); `models` (N,) each body's
    `MotionModel` value.  A pair is traced with the length tolerance of its vertices at the
    last tick, the one that tick's test took.
    ``scratch = (kin, entry)``, (2, 4, M, 2) and (2, M), holds the two bodies of a traced
    pair (M at least the largest vertex count).
    ``out = (began, keys, key_began)``, (C,) each: the began times in the order of `pairs`,
    then this tick's memory for the next, its pair keys sorted and their began times.
    """
    bodies = Bodies(*bodies)
    last_stamp, last_keys, last_began, last_active = last
    kin, entry = scratch
    began, keys_out, began_out = out
    offsets, vstart = bodies.offsets, bodies.vstart
    gap = stamp - last_stamp  # nan without a last tick
    nc = pairs.shape[0]
    keys = np.empty(nc, np.int64)
    for c in range(nc):
        i = pairs[c, 0]
        j = pairs[c, 1]
        key = i * n_bodies + j
        keys[c] = key
        t = stamp
        k = np.searchsorted(last_keys, key)
        if k < last_keys.shape[0] and last_keys[k] == key:
            t = last_began[k]
        elif gap > 0.0 and last_active[i] and last_active[j]:
            body_kinematics(i, previous, offsets, vstart, models[i],
                            (kin[0, 0], kin[0, 1], kin[0, 2]), 0)
            body_kinematics(j, previous, offsets, vstart, models[j],
                            (kin[1, 0], kin[1, 1], kin[1, 2]), 0)
            na = vstart[i + 1] - vstart[i]
            nb = vstart[j + 1] - vstart[j]
            hit = pair_first_event(i, j, previous, models, bodies, kin, entry, 0.0, gap,
                                   pair_length_tolerance(kin[0, 0, :na], kin[1, 0, :nb]))[0]
            if np.isfinite(hit):
                t = last_stamp + hit
        began[c] = t
    order = np.argsort(keys)
    for c in range(nc):
        keys_out[c] = keys[order[c]]
        began_out[c] = began[order[c]]
