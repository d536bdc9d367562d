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
"""Prepared `ConvexPolyhedron` objects: moving them, their adjacency."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from collision_monitor.geometry3d import (
    contact_manifold, convex_polyhedra_intersect, ConvexPolyhedron, gjk_distance,
    separating_plane)
from shapes import hull, random_convex, random_rotation


def test_prepared_polyhedron_moved_equals_checking_the_moved_mesh():
    rng = np.random.default_rng(8)
    for _ in range(20):
        va, fa = random_convex(rng)
        vb, fb = random_convex(rng, centre=rng.uniform(-1.5, 1.5, 3))
        rot = random_rotation(rng)
        shift = rng.uniform(-5, 5, 3)
        moved = ConvexPolyhedron(va, fa).moved(rot, shift)
        fresh = ConvexPolyhedron(va @ rot.T + shift, fa)
        assert np.allclose(moved.normals, fresh.normals) and np.allclose(moved.offsets,
                                                                         fresh.offsets)
        other = ConvexPolyhedron(vb @ rot.T + shift, fb)
        assert moved.intersects(other) == convex_polyhedra_intersect(va, vb)
        assert moved.distance(other)[0] == pytest.approx(gjk_distance(va, vb)[0], abs=1e-9)
        got = moved.separating_plane(other)
        expected = separating_plane(va, fa, vb, fb)  # the same pair before the motion
        assert got.distance == pytest.approx(expected.distance, abs=1e-9)
    with pytest.raises(ValueError, match='rotation'):
        ConvexPolyhedron(va, fa).moved(2 * np.eye(3), np.zeros(3))


def test_vertex_adjacency_lists_each_edge_both_ways():
    rng = np.random.default_rng(3)
    body = ConvexPolyhedron(*random_convex(rng, 30))
    n = len(body.vertices)
    adj = body.adjacency
    listed = {(i, int(j)) for i in range(n) for j in adj[adj[i]:adj[i + 1]]}
    edges = {tuple(sorted(map(int, f[[k, (k + 1) % 3]]))) for f in body.faces for k in range(3)}
    assert listed == {e for a, b in edges for e in ((a, b), (b, a))}


@pytest.mark.parametrize('seed', range(5))
def test_each_edge_names_its_two_faces_and_its_arc_joins_their_normals(seed):
    """`edge_data` lists every undirected edge of the faces once, with the two faces that
    hold both its ends; `arcs` are q = a x b, q x a and b x q of those faces' unit normals,
    taken here from the vertices with numpy."""
    rng = np.random.default_rng(seed)
    body = ConvexPolyhedron(*random_convex(rng, 20))
    v, f = body.vertices, body.faces
    edges = {tuple(sorted(map(int, t[[k, (k + 1) % 3]]))) for t in f for k in range(3)}
    rows = body.edge_data
    assert len(rows) == len(edges) == 3 * len(f) // 2
    assert {tuple(sorted(map(int, r[:2]))) for r in rows} == edges
    for i, j, fa, fb in rows:
        assert fa != fb and {i, j} <= set(f[fa]) and {i, j} <= set(f[fb])
    normal = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    a, b = normal[rows[:, 2]], normal[rows[:, 3]]
    q = np.cross(a, b)
    np.testing.assert_allclose(body.arcs, np.hstack([q, np.cross(q, a), np.cross(b, q)]),
                               atol=1e-12)


def test_an_unnamed_polyhedron_is_called_polyhedron_in_a_refusal():
    """A tetrahedron with one face wound the wrong way."""
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    with pytest.raises(ValueError, match=r'^polyhedron is not closed and consistently wound'):
        ConvexPolyhedron(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 3, 2]])


def test_a_motion_that_is_not_a_rotation_and_a_translation_is_refused():
    """`moved` takes a finite proper rotation (orthonormal to 1e-9, determinant +1) and a
    finite (3,) translation; anything else is named."""
    body = ConvexPolyhedron(*random_convex(np.random.default_rng(2)))
    shape = r'^rotation must be a finite \(3, 3\) matrix, translation \(3,\)$'
    proper = r'^rotation must be a proper rotation matrix$'
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    for rotation, translation, refusal in (
            (np.eye(2), np.zeros(3), shape), (turn, np.zeros(2), shape),
            (np.eye(4)[:3], np.zeros(3), shape), (turn, [0.0, np.nan, 0.0], shape),
            (np.where(turn == 1.0, np.inf, turn), np.zeros(3), shape),
            (np.diag([1.0, 1.0, -1.0]), np.zeros(3), proper),
            (turn * (1.0 + 1e-6), np.zeros(3), proper)):
        with pytest.raises(ValueError, match=refusal):
            body.moved(rotation, translation)
    slightly = turn * (1.0 + 1e-11)  # orthonormal to 1e-9
    np.testing.assert_allclose(body.moved(slightly, [1.0, 2.0, 3.0]).vertices,
                               body.vertices @ slightly.T + [1.0, 2.0, 3.0])


def test_a_moved_body_answers_as_one_built_where_it_went():
    """After `moved`, a body's sphere holds its vertices, and its separating plane (kind
    included) and contact manifold against another body are those of the same mesh built
    at the moved place."""
    rng = np.random.default_rng(12)
    for _ in range(20):
        va, fa = random_convex(rng)
        vb, fb = random_convex(rng, centre=rng.uniform(-1.8, 1.8, 3))
        rot = Rotation.random(random_state=rng).as_matrix()
        shift = rng.uniform(-5.0, 5.0, 3)
        moved = ConvexPolyhedron(va, fa).moved(rot, shift)
        fresh = ConvexPolyhedron(va @ rot.T + shift, fa)
        other = ConvexPolyhedron(vb @ rot.T + shift, fb)
        reach = np.linalg.norm(moved.vertices - moved.centre, axis=1).max()
        assert reach <= moved.radius * (1.0 + 1e-12)
        got, want = moved.separating_plane(other), fresh.separating_plane(other)
        assert got.kind == want.kind == separating_plane(va, fa, vb, fb).kind
        for eps in (0.05, 0.5):
            got, want = moved.contact_manifold(other, eps), fresh.contact_manifold(other, eps)
            assert (got is None) == (want is None)
            if got is not None:
                np.testing.assert_allclose(got[0], want[0], atol=1e-9)


def test_a_manifold_with_more_points_than_either_body_has_vertices():
    """A tetrahedron's big face resting on a 32-gon prism's top, turned so that their
    overlap has more corners than the tetrahedron has vertices plus three: the prepared
    bodies give the manifold the module function gives on their arrays, in either order;
    eps 0 is allowed, a negative eps refused."""
    ring = np.linspace(0.0, 2.0 * np.pi, 32, endpoint=False)
    disc = np.column_stack([np.cos(ring), np.sin(ring)])
    prism = hull(np.vstack([np.column_stack([disc, np.zeros(32)]),
                            np.column_stack([disc, np.ones(32)])]))
    corners = 1.5 * np.array([[np.cos(t), np.sin(t), 0.0] for t in (0.1, 2.2, 4.3)])
    tetra = hull(np.vstack([corners + [0.0, 0.0, 1.0], [[0.0, 0.0, 2.0]]]))
    a, b = ConvexPolyhedron(*prism), ConvexPolyhedron(*tetra)
    for first, second, arrays in ((a, b, (*prism, *tetra)), (b, a, (*tetra, *prism))):
        for eps in (0.0, 1e-3):
            got, want = first.contact_manifold(second, eps), contact_manifold(*arrays, eps)
            assert len(got[0]) == len(want[0]) > 3 + 4
            np.testing.assert_array_equal(got[0], want[0])
    with pytest.raises(ValueError, match=r'^eps must be >= 0, got -1.0$'):
        a.contact_manifold(b, -1.0)


def test_the_module_functions_name_the_body_they_refuse():
    """separating_plane and contact_manifold call their bodies a and b in refusals."""
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    good = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
    bad = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 3, 2]]
    for name, args in (('a', (v, bad, v + 2.0, good)), ('b', (v, good, v + 2.0, bad))):
        with pytest.raises(ValueError, match=f'^{name} is not closed and consistently wound'):
            separating_plane(*args)
        with pytest.raises(ValueError, match=f'^{name} is not closed and consistently wound'):
            contact_manifold(*args, 0.1)
