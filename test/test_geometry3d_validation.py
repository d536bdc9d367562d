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
"""Meshes the 3D functions refuse: open, inward, non-convex, non-integer faces."""

import numpy as np
import pytest

from collision_monitor.geometry3d import (
    ConvexPolyhedron, point_in_convex_polyhedron, point_in_polyhedron, separating_plane)
from shapes import CUBE, l_extrusion


def test_open_and_inward_meshes_are_refused():
    v, f = CUBE
    with pytest.raises(ValueError, match='closed'):
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, f[:-1])
    with pytest.raises(ValueError, match='closed'):  # a face twice
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, np.vstack([f, f[:1]]))
    with pytest.raises(ValueError, match='consistently wound'):  # one face flipped
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, np.vstack([f[:-1], f[-1:, ::-1]]))
    with pytest.raises(ValueError, match='inwards'):
        point_in_polyhedron([[0.5, 0.5, 0.5]], v, f[:, ::-1])
    lv, lf = l_extrusion()
    with pytest.raises(ValueError, match='not convex'):
        point_in_convex_polyhedron([[0.5, 0.5, 0.5]], lv, lf)


def test_non_convex_input_is_refused():
    lv, lf = l_extrusion()
    with pytest.raises(ValueError, match='not convex'):
        separating_plane(lv, lf, *CUBE)


@pytest.mark.parametrize('faces', [CUBE[1] + 0.5, CUBE[1].astype(float) + 0.25,
                                   CUBE[1].reshape(-1)])
def test_faces_must_be_integer_triangles(faces):
    with pytest.raises(ValueError, match='faces'):
        ConvexPolyhedron(CUBE[0], faces)
