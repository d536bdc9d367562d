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
"""Placing the bodies: every box holds its body, disc boxes or the vertices' box."""

import numpy as np
import shapely

from shapes import build, random_scene


def test_every_box_holds_its_body_and_long_bodies_get_their_vertex_box():
    """A body filling half its bounding disc or more gets the disc's box, a longer one the box
    of its vertices; either holds every vertex."""
    rng = np.random.default_rng(5)
    shapes, poses = random_scene(rng, 400, 30.0, big=3)
    world = build(shapes, poses)
    world.detect()
    assert world._packed_bodies.disc_box[0]  # a rectangle of sides 1 and 0.6
    assert not world._packed_bodies.disc_box[-1]  # a 40 m x 0.4 m wall
    for k, shape in enumerate(shapes):
        verts = world.world_vertices(f'b{k}')
        xmin, ymin, xmax, ymax = world._aabb[k]
        assert (verts[:, 0] >= xmin).all() and (verts[:, 0] <= xmax).all()
        assert (verts[:, 1] >= ymin).all() and (verts[:, 1] <= ymax).all()
        fill = shapely.Polygon(shape).area / (np.pi * np.max(np.hypot(*shape.T)) ** 2)
        tight = max(xmax - xmin - np.ptp(verts[:, 0]), ymax - ymin - np.ptp(verts[:, 1]))
        if fill < 0.5:
            assert tight < 1e-9
        else:
            r = np.max(np.hypot(*shape.T))
            assert np.allclose([xmin, ymin, xmax, ymax],
                               [*(poses[k, :2] - r), *(poses[k, :2] + r)], atol=1e-9)
