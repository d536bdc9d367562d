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
"""The arrays the per-tick kernels share, bundled by meaning so that no call passes twenty
arrays by position (in compiled code a NamedTuple of arrays is a struct: no cost).

A call from Python is another matter: numba types a NamedTuple's arrays in Python, a plain
tuple's in C, about 12 us more per NamedTuple on the first tick after a 20 ms pause
(measured), and about 0.7 us back to back.  So the kernels of a usual tick (`motion`'s,
`toi.place_and_predict` and `search_pairs`, `narrowphase.place_and_pair` and
`narrow_phase_slots`, `lookback.contact_onsets`) take plain tuples (``tuple(bundle)``) and
unpack them by position or rebuild the NamedTuple inside (``Bodies(*bodies)``).

Shapes: N bodies, V vertices in all, P pair rows, F feature rows; float64 unless said.
"""

from typing import NamedTuple

import numpy as np


class Bodies(NamedTuple):
    """What stays fixed while the body set does (rebuilt when a body is added, removed or
    given a footprint)."""

    offsets: np.ndarray           # (V, 2) vertex offsets, body frame (m): body b's rows are
    vstart: np.ndarray            # (N + 1,) intp   vstart[b]:vstart[b + 1]
    orient: np.ndarray            # (N,) winding, +1 CCW, -1 CW
    convex: np.ndarray            # (N,) bool
    radius: np.ndarray            # (N,) bounding radius about the origin, max |offset| (m)
    centroid_offsets: np.ndarray  # (N, 2) centroid, body frame (m)
    disc_box: np.ndarray          # (N,) bool: box from the bounding disc (`place_bodies`)


class Motion(NamedTuple):
    """Rigid-body state in the world frame, one row per body."""

    poses: np.ndarray   # (N, 3) x, y (m), yaw (rad)
    twists: np.ndarray  # (N, 3) vx, vy (m/s), omega (rad/s)
    accels: np.ndarray  # (N, 3) ax, ay (m/s^2), alpha (rad/s^2)


class Features(NamedTuple):
    """Contact feature rows (see `geometry2d.contact.contact_kernel`)."""

    xy: np.ndarray    # (F, 2) the point
    pb: np.ndarray    # (F, 2) its projection p_B on the other body (the point for crossings)
    kind: np.ndarray  # (F,) int8 feature kind
    idx: np.ndarray   # (F, 2) intp vertex or edge indices on a and b


class ContactRows(NamedTuple):
    """One row per contact of `narrowphase.narrow_phase`; contact c owns feature rows
    fstart[c]:fstart[c + 1]."""

    pairs: np.ndarray   # (P, 2) intp, i < j
    kind: np.ndarray    # (P,) int8 ContactKind
    normal: np.ndarray  # (P, 2) unit, from a to b
    depth: np.ndarray   # (P,) penetration depth (m)
    fstart: np.ndarray  # (P + 1,) intp


class PredictionRows(NamedTuple):
    """One row per predicted pair (`toi.pack_predictions`)."""

    pairs: np.ndarray   # (P, 2) intp
    time: np.ndarray    # (P,) s from now, 0 when touching
    side: np.ndarray    # (P,) intp: 0 vertex of a on edge of b, 1 the other way, -1 at time 0
    vertex: np.ndarray  # (P,) intp
    edge: np.ndarray    # (P,) intp
    point: np.ndarray   # (P, 2) predicted contact point (m), nan at time 0
    normal: np.ndarray  # (P, 2) unit, from a to b, nan at time 0


class Polygon(NamedTuple):
    """One polygon in world coordinates, as the contact kernels take it."""

    vertices: np.ndarray  # (n, 2)
    orient: float         # +1 CCW, -1 CW
    convex: bool
    cx: float             # centroid
    cy: float


class MovingPolygon(NamedTuple):
    """One polygon's vertex kinematics, as the time-of-collision kernels take it."""

    pos: np.ndarray  # (n, 2) m
    vel: np.ndarray  # (n, 2) m/s
    acc: np.ndarray  # (n, 2) m/s^2 (zero under the constant-velocity model)
    orient: float    # +1 CCW, -1 CW
