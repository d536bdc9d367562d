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
"""Seeded benchmark scenes: N bodies in a square, sized for a target overlap fraction."""

from dataclasses import dataclass

import numpy as np


@dataclass
class Scene:
    """Footprints (body frame), poses, twists and accelerations of one scene."""

    footprints: list
    poses: np.ndarray
    twists: np.ndarray
    accels: np.ndarray
    side: float

    def advance(self, dt):
        """Move every body by its twist (constant velocity) for dt seconds."""
        self.poses = self.poses + self.twists * dt


def regular_polygon(k, radius=0.5):
    """A convex k-gon of the given circumradius, CCW."""
    a = np.linspace(0, 2 * np.pi, k, endpoint=False)
    return np.column_stack([radius * np.cos(a), radius * np.sin(a)])


def star_polygon(k, radius=0.5, inner=0.55):
    """A concave star with k vertices (k even), CCW."""
    a = np.linspace(0, 2 * np.pi, k, endpoint=False)
    r = np.where(np.arange(k) % 2 == 0, radius, radius * inner)
    return np.column_stack([r * np.cos(a), r * np.sin(a)])


def make_scene(n, vertices=8, overlap=0.02, concave=False, seed=0, speed=1.0, accel=2.0):
    """Uniform random poses in a square sized so that about `overlap` of bodies touch another.

    For discs of radius r, a body touches another with probability ~ 1 - exp(-N 4 pi r^2 / A);
    the square's side follows from that, with r the circumradius (an overestimate for
    polygons: the measured fraction is reported with the results).
    """
    rng = np.random.default_rng(seed)
    shape = star_polygon(vertices) if concave else regular_polygon(vertices)
    r = 0.5
    area = n * 4 * np.pi * r * r / -np.log(1.0 - overlap)
    side = float(np.sqrt(area))
    poses = np.column_stack([rng.uniform(0, side, (n, 2)), rng.uniform(-np.pi, np.pi, n)])
    heading = rng.uniform(-np.pi, np.pi, n)
    v = rng.uniform(0, speed, n)
    twists = np.column_stack([v * np.cos(heading), v * np.sin(heading),
                              rng.uniform(-0.5, 0.5, n)])
    a = rng.uniform(0, accel, n)
    heading = rng.uniform(-np.pi, np.pi, n)
    accels = np.column_stack([a * np.cos(heading), a * np.sin(heading), np.zeros(n)])
    return Scene([shape] * n, poses, twists, accels, side)


SHELF = np.array([[-3.0, -0.4], [3.0, -0.4], [3.0, 0.4], [-3.0, 0.4]])
"""A 6 m x 0.8 m shelf, origin at its centre."""

AMR = np.array([[-0.45, -0.3], [0.45, -0.3], [0.45, 0.3], [-0.45, 0.3]])
"""A 0.9 m x 0.6 m robot, origin at its centre (the demo's AMR)."""


@dataclass
class Warehouse:
    """Static shelves in rows, robots driving along the aisles between them.

    Shelves are bodies 0 .. S-1 (never moving), robots S .. S+R-1; `advance` moves the
    robots' rows of `poses` by their `twists`, x wrapping round the rows' `length`."""

    poses: np.ndarray
    twists: np.ndarray
    shelves: int
    length: float

    @property
    def footprints(self):
        return [SHELF] * self.shelves + [AMR] * (len(self.poses) - self.shelves)

    def advance(self, dt):
        """Drive every robot on along its aisle for dt seconds (x wraps round)."""
        poses = self.poses + self.twists * dt
        poses[:, 0] %= self.length
        poses[:self.shelves] = self.poses[:self.shelves]
        self.poses = poses


def make_warehouse(n_shelves, n_robots, seed=0):
    """Shelves on a grid (7 m along a row, 1 m cross-aisles; rows 3 m apart, 2.2 m aisles)
    and robots in the aisles, up to 1 m off the aisle's centre line (about a fifth of them
    touching a shelf's side at any time), heading along x or against it at 0.3 to 1.5 m/s,
    not turning."""
    rng = np.random.default_rng(seed)
    per_row = max(1, int(round(np.sqrt(n_shelves * 3.0 / 7.0))))
    rows = -(-n_shelves // per_row)
    k = np.arange(n_shelves)
    shelves = np.column_stack([(k % per_row) * 7.0 + 3.5, (k // per_row) * 3.0,
                               np.zeros(n_shelves)])
    length = per_row * 7.0
    aisle = rng.integers(0, max(1, rows - 1), n_robots)
    forward = rng.random(n_robots) < 0.5
    robots = np.column_stack([rng.uniform(0.0, length, n_robots),
                              aisle * 3.0 + 1.5 + rng.uniform(-1.0, 1.0, n_robots),
                              np.where(forward, 0.0, np.pi)])
    speed = rng.uniform(0.3, 1.5, n_robots) * np.where(forward, 1.0, -1.0)
    twists = np.zeros((n_shelves + n_robots, 3))
    twists[n_shelves:, 0] = speed
    return Warehouse(np.vstack([shelves, robots]), twists, n_shelves, length)
