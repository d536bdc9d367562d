# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""2D polygon collision detection: point in polygon, edge intersection, SAT and contacts.

All inputs are float64 arrays in metres; polygons are (n, 2) arrays of vertices in either
winding, not closed (a repeated first vertex is accepted and dropped).
"""

from .contact import Contact, ContactKind, contact, polygons_intersect
from .point_in_polygon import point_in_convex_polygon, point_in_polygon
from .segment_intersection import polyxpoly
from .separating_axis import sat, SatResult
from .validation import is_convex, validate_footprint

__all__ = [
    'Contact', 'ContactKind', 'SatResult', 'contact', 'is_convex', 'point_in_convex_polygon',
    'point_in_polygon', 'polygons_intersect', 'polyxpoly', 'sat', 'validate_footprint',
]
