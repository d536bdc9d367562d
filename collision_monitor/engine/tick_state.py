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
"""The arrays a world's ticks work in, for one body set, and what they hold now."""

import numba
import numpy as np

from ..kernels.broadphase import PairCache
from ..kernels.constants import FLOAT, INDEX
from ..kernels.narrowphase import place_bodies
from ..kernels.packed import Bodies, PredictionRows


class TickState:
    """What `CollisionWorld`'s ticks compute into, made anew whenever its body set changes,
    and three flags saying which of it is current:

    * `placed`: `boxes` (and `placed_at`) hold the bodies' boxes at their poses;
    * `swept`: `swept_boxes` hold every vertex path of the current look-ahead;
    * `paired`: `swept_near`'s pairs are the candidates of those swept boxes.

    `invalidate` clears the three (poses or activity changed), `look_ahead` the last two (a
    new horizon or model), `ensure_placed` places the bodies unless they are.  The compiled
    ticks do the rest of the work and the world sets the flags from their answers.  `near`
    keeps `detect`'s candidates: its kernel refits them to the current boxes at each call.

    Parameters
    ----------
    bodies : `packed.Bodies`
    movable : (N,) bool
        Not static.
    motion : `packed.Motion`
        The world's per-body rows (views: the world writes them, the ticks read them).

    """

    def __init__(self, bodies, movable, motion):
        n = bodies.radius.shape[0]
        self.bodies, self.movable, self.motion = bodies, movable, motion
        # the plain tuples the per-tick kernels take (`packed`)
        self.bodies_args, self.motion_args = tuple(bodies), tuple(motion)
        self.boxes = np.zeros((n, 4), FLOAT)
        self.placed_at = np.full((n, 3), np.nan)  # the poses `boxes` were placed at
        self.swept_boxes = np.zeros((n, 4), FLOAT)
        self.near, self.swept_near = PairCache(n), PairCache(n)
        slots = numba.config.NUMBA_NUM_THREADS
        most = int(np.diff(bodies.vstart).max(initial=0))
        # the narrow phase's scratch (the two placed polygons of a pair) per thread, and
        # `narrow_phase_slots`' counts; its fstart rows grow with the pairs (`ensure_room`)
        self.slot_vertices = np.zeros((slots, 2, most, 2), FLOAT)
        self.slot_counts = np.zeros((slots, 2), INDEX)
        # the search's scratch per thread (`toi.first_contacts`)
        self.scratch = np.zeros((slots, 2, 4, most, 2), FLOAT)
        self.entry = np.zeros((slots, 2, most), FLOAT)
        self.found = np.zeros((0, 8), FLOAT)
        self.ensure_room(self.near.pairs.shape[0])
        self.placed = self.swept = self.paired = False

    def invalidate(self):
        """Poses or activity changed: nothing placed or swept is current."""
        self.placed = self.swept = self.paired = False

    def look_ahead(self):
        """A new look-ahead (horizon or models may differ): the swept boxes are out of date."""
        self.swept = self.paired = False

    def ensure_placed(self, active):
        """Place the active bodies' boxes unless they are current."""
        if not self.placed:
            place_bodies(self.motion.poses, active, self.bodies_args, self.boxes,
                         self.placed_at)
            self.placed = True

    def ensure_room(self, pairs):
        """Room for the search and the narrow phase over `pairs` candidates; True when it
        grew."""
        if self.found.shape[0] >= pairs:
            return False
        self.slot_fstart = np.zeros(pairs + self.slot_counts.shape[0], INDEX)
        self.found = np.zeros((pairs, 8), FLOAT)
        self.touching = np.zeros(pairs, np.bool_)
        self.rows = PredictionRows(np.zeros((pairs, 2), INDEX), np.zeros(pairs, FLOAT),
                                   np.zeros(pairs, INDEX), np.zeros(pairs, INDEX),
                                   np.zeros(pairs, INDEX), np.zeros((pairs, 2), FLOAT),
                                   np.zeros((pairs, 2), FLOAT))
        self.rows_args = tuple(self.rows)  # the kernels' plain tuple, made once per growth
        self.search_args = (self.scratch, self.entry, self.touching, self.found)
        return True

    def narrow_slots(self, threads):
        """`narrow_phase_slots`' ``(threads, scratch, fstart, counts)``."""
        return threads, self.slot_vertices, self.slot_fstart, self.slot_counts

    def most_vertices(self):
        """The largest vertex count of a body (the per-pair work's measure)."""
        return self.slot_vertices.shape[2]


def pack_bodies(bodies):
    """`packed.Bodies` of registered bodies (objects with `offsets`, `orient`, `convex`,
    `radius`, `centroid` and `disc_box`)."""
    n = len(bodies)
    counts = np.array([b.offsets.shape[0] for b in bodies], dtype=INDEX)
    vstart = np.zeros(n + 1, dtype=INDEX)
    np.cumsum(counts, out=vstart[1:])
    offsets = (np.ascontiguousarray(np.vstack([b.offsets for b in bodies]))
               if n else np.zeros((0, 2), FLOAT))
    return Bodies(offsets, vstart, np.array([b.orient for b in bodies], dtype=FLOAT),
                  np.array([b.convex for b in bodies], dtype=np.bool_),
                  np.array([b.radius for b in bodies], dtype=FLOAT),
                  np.array([b.centroid for b in bodies], dtype=FLOAT).reshape(n, 2),
                  np.array([b.disc_box for b in bodies], dtype=np.bool_))
