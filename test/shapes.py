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
"""Polygon generators and slow, obviously correct references shared by the tests."""

from hypothesis import strategies as st
import numpy as np
import shapely
from shapely.geometry import Polygon


def star_polygon(angles, radii, cx=0.0, cy=0.0, clockwise=False):
    """A simple polygon: vertices at sorted distinct angles around a centre (star-shaped)."""
    order = np.argsort(angles)
    a = np.asarray(angles, float)[order]
    r = np.asarray(radii, float)[order]
    poly = np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])
    return poly[::-1].copy() if clockwise else poly


@st.composite
def simple_polygons(draw, min_vertices=3, max_vertices=10, convex=None, scale=1.0):
    """Star-shaped simple polygons, either winding; ``convex=True`` gives convex ones."""
    n = draw(st.integers(min_vertices, max_vertices))
    gaps = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n)))
    angles = np.cumsum(gaps) / gaps.sum() * 2 * np.pi
    if convex:
        radii = np.ones(n)
    else:
        radii = np.array(draw(st.lists(st.floats(0.3, 1.0), min_size=n, max_size=n)))
    cx = draw(st.floats(-2, 2))
    cy = draw(st.floats(-2, 2))
    poly = star_polygon(angles, radii * scale, cx * scale, cy * scale,
                        clockwise=draw(st.booleans()))
    if convex:
        hull = shapely.convex_hull(shapely.multipoints(poly))
        if hull.geom_type != 'Polygon' or hull.area < 1e-6 * scale * scale:
            poly = star_polygon(np.linspace(0, 2 * np.pi, 4)[:-1], np.ones(3) * scale)
        else:
            poly = np.asarray(hull.exterior.coords)[:-1]
            if draw(st.booleans()):
                poly = poly[::-1].copy()
    return np.ascontiguousarray(poly, dtype=float)


def to_shapely(poly):
    """The shapely polygon of an (n, 2) vertex array."""
    return Polygon(poly)


def rigid(poly, angle, tx, ty):
    """Rotate by `angle` about the origin, then translate."""
    c, s = np.cos(angle), np.sin(angle)
    return np.column_stack([c * poly[:, 0] - s * poly[:, 1] + tx,
                            s * poly[:, 0] + c * poly[:, 1] + ty])
