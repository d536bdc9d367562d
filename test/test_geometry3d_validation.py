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
"""Meshes the 3D functions refuse (open, inward, flat, degenerate, non-convex, non-integer
faces), each at the mesh's documented tolerance and with its text."""

from collections import Counter
import re

import numpy as np
import pytest

from collision_monitor.geometry3d import (
    bounding_sphere, ConvexPolyhedron, point_distance, point_in_convex_polyhedron,
    point_in_polyhedron, separating_plane)
from shapes import CUBE, l_extrusion

# outward faces of a tetrahedron whose vertices 1, 2 and 3 lie along x, y and z from vertex 0
TETRA_FACES = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


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


def test_a_mesh_names_what_it_refuses():
    """Vertices of two coordinates, float faces, two faces, an index out of range
    either way, and faces of zero area (the two that hold corners 3 and 7 once corner 7 is
    moved onto corner 3; the first five of many), each text whole."""
    v, f = CUBE
    point = [[0.5, 0.5, 0.5]]
    shape = r'^mesh vertices must have shape \(n, 3\), got \(8, 2\)$'
    with pytest.raises(ValueError, match=shape):
        point_in_polyhedron(point, v[:, :2], f)
    dtype = r'^mesh faces must be integer indices, got dtype float64$'
    with pytest.raises(ValueError, match=dtype):
        point_in_polyhedron(point, v, f.astype(float))
    with pytest.raises(ValueError, match=r'^mesh faces must be at least 4 triangles, got 2$'):
        point_in_polyhedron(point, v, f[:2])
    for wrong in (8, -1):
        faces = f.copy()
        faces[4, 1] = wrong
        with pytest.raises(ValueError, match=r'^mesh faces index vertices out of range$'):
            point_in_polyhedron(point, v, faces)
    moved = v.copy()
    moved[7] = moved[3]
    flat = [k for k, face in enumerate(f) if 3 in face and 7 in face]
    with pytest.raises(ValueError, match=rf'^mesh has degenerate faces \[{flat[0]}, {flat[1]}\]$'):
        point_in_polyhedron(point, moved, f)
    # the cube squashed flat along x: the first five of its eight flat faces are named
    squashed = v * [0.0, 1.0, 1.0]
    corners = squashed[f]
    area2 = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]),
                           axis=1)
    flat = np.flatnonzero(area2 == 0.0).tolist()
    assert len(flat) == 8
    text = f'mesh has degenerate faces {flat[:5]}'
    with pytest.raises(ValueError, match=f'^{re.escape(text)}$'):
        point_in_polyhedron(point, squashed, f)


@pytest.mark.parametrize('k, degenerate', [(0.5, True), (4.0, False)])
def test_a_face_is_degenerate_up_to_the_tolerance_times_the_extent(k, degenerate):
    """A tetrahedron with legs of 100 m from the origin along y and z and a short one along x:
    the two faces holding the short edge have twice their area (the cross product's
    length) 100 m times the short edge.  A face is degenerate when that is at most the
    mesh's tolerance, 64 eps (100 + 100) m, times its extent, 100 m: a short edge of k of
    128 eps 100 m is degenerate for k = 0.5, not for k = 4 (where the tetrahedron, four
    tolerances thick, is not yet flat)."""
    short = k * 128 * np.finfo(float).eps * 100.0
    v = np.array([[0.0, 0.0, 0.0], [short, 0.0, 0.0], [0.0, 100.0, 0.0], [0.0, 0.0, 100.0]])
    if degenerate:
        with pytest.raises(ValueError, match=r'^mesh has degenerate faces \[0, 1\]$'):
            point_in_polyhedron([[0.0, 1.0, 1.0]], v, TETRA_FACES)
    else:
        assert point_in_polyhedron([[0.0, 1.0, 1.0]], v, TETRA_FACES)[1].all()


def test_a_mesh_not_closed_names_an_edge_of_it_without_its_one_twin():
    """A face left out, a face twice, a face turned over, and a tetrahedron with a fifth
    face on one of its edges in the same direction (one directed edge twice): the edge
    named is a directed edge of the mesh that is there more than once or whose reverse is
    not there (counted in plain Python)."""
    v, f = CUBE
    tetra = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0],
                      [1.0, 1.0, -1.0]])
    meshes = [(v, f[:-1]), (v, np.vstack([f, f[:1]])), (v, np.vstack([f[:-1], f[-1:, ::-1]])),
              (tetra, np.vstack([TETRA_FACES, [[0, 1, 4]]]))]
    for vertices, faces in meshes:
        count = Counter((int(a), int(b)) for face in faces
                        for a, b in zip(face, np.roll(face, -1)))
        with pytest.raises(ValueError) as err:
            point_in_polyhedron([[0.1, 0.1, 0.1]], vertices, faces)
        found = re.fullmatch(r'mesh is not closed and consistently wound: edge \((\d+), (\d+)\) '
                             r'needs exactly one twin in the opposite direction', str(err.value))
        a, b = map(int, found.groups())
        assert count[a, b] >= 1 and (count[a, b] > 1 or count[b, a] != 1)


@pytest.mark.parametrize('offset', [0.0, 1e3])
def test_a_flat_mesh_encloses_no_volume(offset):
    """Four points in one plane, closed by a tetrahedron's faces, at the origin or 1 km out
    (where rounding can move the volume off zero): refused as enclosing no volume;
    raised 1 um off the plane, the same faces make a thin tetrahedron."""
    v = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]) + offset
    with pytest.raises(ValueError, match=r'^mesh encloses no volume \(flat within rounding\)$'):
        point_in_polyhedron([[0.5, 0.5, 0.0]], v, TETRA_FACES)
    v[3, 2] += 1e-6
    assert point_in_polyhedron(v[:3].mean(axis=0, keepdims=True), v, TETRA_FACES)[1].all()


@pytest.mark.parametrize('size', [1e-6, 1.0, 1e3])
def test_inward_faces_are_refused_at_any_size(size):
    """A cube of 1 um, 1 m or 1 km with every face reversed encloses a negative volume."""
    v, f = CUBE[0] * size, CUBE[1][:, ::-1]
    with pytest.raises(ValueError, match=r'^mesh faces point inwards \(negative volume\); '
                                         r'reverse their order$'):
        point_in_polyhedron([[0.5 * size] * 3], v, f)
    assert point_in_polyhedron([[0.5 * size] * 3], v, CUBE[1])[0].all()


def test_non_convex_input_is_refused():
    lv, lf = l_extrusion()
    with pytest.raises(ValueError, match='not convex'):
        separating_plane(lv, lf, *CUBE)


def taken_as_convex(vertices, faces):
    """Whether ConvexPolyhedron takes the mesh (False: refused as not convex)."""
    try:
        ConvexPolyhedron(vertices, faces)
    except ValueError as err:
        assert 'is not convex' in str(err)
        return False
    return True


@pytest.mark.parametrize('size, offset', [(1e-6, 0.0), (1.0, 0.0), (1.0, 1e3)])
def test_a_bump_of_a_ten_millionth_of_the_size_is_not_convex_at_any_scale(size, offset):
    """A cube with corner (1, 1, 1) pushed out by 1e-7 of its size (in front of the
    triangle (3, 1, 5) by as much) is refused as not convex, be it a micrometre or a metre
    large, at the origin or 1 km out; pushed out by 1e-13 of its size (below a thousand of
    the mesh's tolerances, 64 eps (largest |coordinate| + extent)) it is accepted.  The
    refusal gives how far the vertex lies in front."""
    for bump, convex in ((1e-7, False), (1e-13, True)):
        v = CUBE[0] * size + offset
        v[7] += bump * size
        assert taken_as_convex(v, CUBE[1]) == convex
    text = (f'polyhedron is not convex (a vertex lies {1e-7 * size:.3g} m in front of a face '
            'plane)')
    v = CUBE[0] * size + offset
    v[7, 2] += 1e-7 * size
    with pytest.raises(ValueError, match=f'^{re.escape(text)}$'):
        ConvexPolyhedron(v, CUBE[1])
    with pytest.raises(ValueError, match=f'^{re.escape(text)}$'):
        point_in_convex_polyhedron(v[:1], v, CUBE[1])


@pytest.mark.parametrize('low, size', [((0.0, 300.0, -200.0), (100.0, 1.0, 1.0)),
                                       ((-300.0, 0.0, 200.0), (1.0, 100.0, 1.0)),
                                       ((150.0, -260.0, 400.0), (1.0, 1.0, 100.0))])
@pytest.mark.parametrize('order', [range(8), [0, 2, 3, 4, 5, 6, 1, 7]])
def test_a_bump_within_a_thousand_mesh_tolerances_is_convex(low, size, order):
    """Boxes 100 m long along each axis in turn, away from the origin and apart on each
    axis, so that the tolerance, 64 eps (largest |coordinate| + extent), needs every
    coordinate of every vertex: corner 7 (the box's highest) raised by 0.9 of a thousand
    tolerances leaves the box convex, by 1.1 it does not (it is then that far in front of
    the plane of the top face's other triangle, and corner 1 in front of its own).  The
    vertices listed in the cube's order, or with corners 1 and 7 last."""
    v = CUBE[0] * size + low
    tol = 64 * np.finfo(float).eps * (np.max(np.abs(v)) + 100.0)
    faces = np.argsort(order)[CUBE[1]]
    for k, convex in ((0.9, True), (1.1, False)):
        bumped = v.copy()
        bumped[7, 2] += k * 1e3 * tol
        assert taken_as_convex(bumped[list(order)], faces) == convex


@pytest.mark.parametrize('faces', [CUBE[1] + 0.5, CUBE[1].astype(float) + 0.25,
                                   CUBE[1].reshape(-1)])
def test_faces_must_be_integer_triangles(faces):
    with pytest.raises(ValueError, match='faces'):
        ConvexPolyhedron(CUBE[0], faces)


@pytest.mark.parametrize('vector, problem', [([1.0, 2.0], 'two numbers'),
                                             ([1.0, 2.0, 3.0, 4.0], 'four numbers'),
                                             ([[1.0, 2.0, 3.0]] * 2, 'six numbers'),
                                             ([1.0, np.nan, 3.0], 'nan'),
                                             ([np.inf, 0.0, 0.0], 'inf')])
def test_a_point_that_is_not_three_finite_numbers_is_refused_by_name(vector, problem):
    with pytest.raises(ValueError, match=r'^q must be 3 finite numbers$'):
        point_distance(np.zeros(3), vector)
    with pytest.raises(ValueError, match=r'^p must be 3 finite numbers$'):
        point_distance(vector, np.zeros(3))
    assert point_distance([0.0, 0.0, 0.0], [[1.0], [2.0], [2.0]]) == 3.0  # any (3,) layout


@pytest.mark.parametrize('points, message', [
    (np.zeros((4, 2)), r'^points must have shape \(n, 3\), got \(4, 2\)$'),
    (np.zeros((2, 4)), r'^points must have shape \(n, 3\), got \(2, 4\)$'),
    (np.zeros(4), r'^points must have shape \(n, 3\), got \(4,\)$'),
    (np.zeros((0, 3)), r'^points must have shape \(n, 3\), got \(0, 3\)$'),
    (np.zeros((2, 3, 1)), r'^points must have shape \(n, 3\), got \(2, 3, 1\)$'),
    (np.random.default_rng(0).normal(size=(9, 3)).astype(np.float32), None),
    (np.random.default_rng(0).normal(size=(9, 6))[:, ::2], None),
    (np.array([[0.0, np.nan, 1.0]]), r'^points has non-finite coordinates$'),
    (np.array([[0.0, 1.0, np.inf], [1.0, 1.0, 1.0]]), r'^points has non-finite coordinates$')])
def test_point_sets_of_the_wrong_shape_or_not_finite_are_refused_by_name(points, message):
    """Arrays of every kind (float64 C-contiguous ones take a path of their own): the
    default name is `points`; a float32 or strided array of the right shape is taken, as
    float64 (the same sphere as its float64 copy, to the bit)."""
    if message is None:
        got = bounding_sphere(points)
        expected = bounding_sphere(np.ascontiguousarray(points, dtype=np.float64))
        assert got.radius == expected.radius and got.centre.tolist() == expected.centre.tolist()
        assert got.centre.dtype == np.float64
        return
    with pytest.raises(ValueError, match=message):
        bounding_sphere(points)


def test_one_point_may_be_given_as_three_numbers():
    s = bounding_sphere([1.0, 2.0, 3.0])
    assert s.centre.tolist() == [1.0, 2.0, 3.0] and s.radius == 0.0
