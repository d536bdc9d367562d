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
"""2D polygons: point in polygon, edge intersection, SAT, contacts and distance.

All inputs are float64 arrays in metres; polygons are (n, 2) arrays of vertices in either
winding, not closed (a repeated first vertex is accepted and dropped).
"""

from .contact import Contact, contact, ContactKind, polygons_intersect
from .distance import polygon_distance
from .point_in_polygon import point_in_convex_polygon, point_in_polygon
from .segment_intersection import polyxpoly
from .separating_axis import sat, SatResult
from .validation import is_convex, validate_footprint

__all__ = [
    'Contact', 'ContactKind', 'SatResult', 'contact', 'is_convex', 'point_in_convex_polygon',
    'point_in_polygon', 'polygon_distance', 'polygons_intersect', 'polyxpoly', 'sat',
    'validate_footprint',
]
