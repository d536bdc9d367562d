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
