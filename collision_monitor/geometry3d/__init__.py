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
"""3D convex-polyhedron algorithms of the references (docs/references.md).

Vertices are (n, 3) float64 arrays (metres); meshes are closed triangle meshes whose faces
(m, 3) run counter-clockwise seen from outside.  Functions for convex bodies raise ValueError
for open meshes, degenerate faces or non-convex input.

* distances ([slides]): `segment_distance`, `point_distance`, `line_point_distance`,
  `line_line_closest`;
* bounding volumes ([slides]): `bounding_sphere`, `spheres_overlap`, `sphere_contact`,
  `aabb`, `aabbs_overlap`, `obb`, `obbs_overlap`, `capsule`, `capsules_overlap`;
* point in polyhedron ([polygons]): `point_in_convex_polyhedron`, `point_in_polyhedron`;
* facets ([polygons]): `triangle_intersection`, `facet_intersection`;
* convex pairs ([baraff], [slides]): `separating_plane`, `contact_manifold`, `gjk_distance`,
  `gjk_distance_batch` (many pairs per call), `convex_polyhedra_intersect`;
  `ConvexPolyhedron` checks a mesh once for repeated plane and manifold queries (`moved`
  places it without checking again); `PolyhedronSet` packs many for batch manifold and
  distance queries over index pairs (one call, parallel over the pairs).
"""

from .batch import PolyhedronSet
from .bounding import (aabb, aabbs_overlap, bounding_sphere, capsule, capsules_overlap, obb,
                       obbs_overlap, sphere_contact, spheres_overlap)
from .distance import line_line_closest, line_point_distance, point_distance, segment_distance
from .gjk import convex_polyhedra_intersect, gjk_distance, gjk_distance_batch
from .point_in_polyhedron import point_in_convex_polyhedron, point_in_polyhedron
from .polyhedron import contact_manifold, ConvexPolyhedron, separating_plane
from .triangles import facet_intersection, triangle_intersection

__all__ = [
    'ConvexPolyhedron', 'PolyhedronSet', 'aabb', 'aabbs_overlap', 'bounding_sphere', 'capsule',
    'capsules_overlap',
    'contact_manifold', 'convex_polyhedra_intersect', 'facet_intersection', 'gjk_distance',
    'gjk_distance_batch',
    'line_line_closest', 'line_point_distance', 'obb', 'obbs_overlap', 'point_distance',
    'point_in_convex_polyhedron', 'point_in_polyhedron', 'segment_distance',
    'separating_plane', 'sphere_contact', 'spheres_overlap', 'triangle_intersection',
]
