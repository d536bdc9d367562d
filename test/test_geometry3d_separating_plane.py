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
"""Baraff's separating plane against linear programming and brute force."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from collision_monitor.geometry3d import (
    contact_manifold, convex_polyhedra_intersect, ConvexPolyhedron, gjk_distance,
    separating_plane)
from collision_monitor.geometry3d.separating_plane import edges_that_may_win, face_axes
from shapes import (boxes_apart_along_parallel_edges, CUBE, CUBE_V, hull as hull_mesh,
                    lp_intersect, qp_distance, random_convex, ROOF, wedge_over_ridge)


@pytest.mark.parametrize('seed', range(30))
def test_gjk_and_separating_plane_match_references(seed):
    rng = np.random.default_rng(seed)
    va, fa = random_convex(rng, rng.integers(8, 40))
    vb, fb = random_convex(rng, rng.integers(8, 40), centre=rng.uniform(-2.2, 2.2, 3))
    meet = lp_intersect(va, vb)
    dist, pa, pb = gjk_distance(va, vb)
    assert convex_polyhedra_intersect(va, vb) == meet
    plane = separating_plane(va, fa, vb, fb)
    assert (plane.distance <= 1e-9) == meet
    # the point: a's vertex farthest along the normal, moved half the gap along it
    heights = va @ plane.normal
    base = plane.point - plane.distance / 2 * plane.normal
    assert np.abs(va - base).max(axis=1).min() <= 1e-12
    assert base @ plane.normal == pytest.approx(heights.max(), abs=1e-12)
    if not meet:
        ref = qp_distance(va, vb)
        assert dist == pytest.approx(ref, abs=1e-6)
        assert np.linalg.norm(pa - pb) == pytest.approx(dist, abs=1e-9)
        assert lp_intersect(np.array([pa]), va) and lp_intersect(np.array([pb]), vb)
        # the separating plane's gap is a lower bound of the distance
        assert plane.distance <= dist + 1e-9
    else:
        assert dist == 0.0
        # moving b by the penetration along the normal separates them
        moved = vb + plane.normal * (-plane.distance + 1e-7)
        assert not lp_intersect(va, moved)


def test_vertices_in_no_face_do_not_change_the_plane():
    rng = np.random.default_rng(12)
    for _ in range(20):
        va, fa = random_convex(rng)
        vb, fb = random_convex(rng, centre=rng.uniform(-1.5, 1.5, 3))
        # an interior point listed first, used by no face
        extra = np.vstack([0.1 * va.mean(axis=0), va])
        got = separating_plane(extra, fa + 1, vb, fb)
        assert got.distance == pytest.approx(separating_plane(va, fa, vb, fb).distance,
                                             abs=1e-12)


def brute_baraff(va, fa, vb, fb):
    """Baraff's largest gap over every face normal and every edge-edge cross product."""
    def normals(v, f):
        n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
        return n / np.linalg.norm(n, axis=1)[:, None]

    def edges(v, f):
        e = np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]), axis=1)
        e = np.unique(e, axis=0)
        return v[e[:, 1]] - v[e[:, 0]]

    axes = [normals(va, fa), -normals(vb, fb)]
    cross = np.cross(edges(va, fa)[:, None], edges(vb, fb)[None]).reshape(-1, 3)
    length = np.linalg.norm(cross, axis=1)
    cross = cross[length > 1e-9] / length[length > 1e-9, None]
    axes += [cross, -cross]
    n = np.vstack(axes)
    return float(np.max((vb @ n.T).min(axis=0) - (va @ n.T).max(axis=0)))


@pytest.mark.parametrize('seed', range(20))
def test_the_kind_of_a_plane_names_the_feature_its_normal_comes_from(seed):
    """'face_a': the normal is the outward normal of a face of a; 'face_b': minus that of a
    face of b; 'edge_edge': at right angles to an edge of a and to an edge of b (numpy's
    normals and edges of the given triangles), and the gap along it is the plane's."""
    def normals(v, f):
        n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
        return n / np.linalg.norm(n, axis=1)[:, None]

    def edges(v, f):
        e = v[f[:, [1, 2, 0]]] - v[f]
        return (e / np.linalg.norm(e, axis=2)[:, :, None]).reshape(-1, 3)

    rng = np.random.default_rng(700 + seed)
    kinds = set()
    for _ in range(10):
        va, fa = random_convex(rng, rng.integers(4, 12))
        vb, fb = random_convex(rng, rng.integers(4, 12), centre=rng.uniform(-2.5, 2.5, 3))
        plane = separating_plane(va, fa, vb, fb)
        n = plane.normal
        kinds.add(plane.kind)
        if plane.kind == 'face_a':
            assert np.max(normals(va, fa) @ n) == pytest.approx(1.0, abs=1e-9)
        elif plane.kind == 'face_b':
            assert np.max(-normals(vb, fb) @ n) == pytest.approx(1.0, abs=1e-9)
        else:
            assert plane.kind == 'edge_edge'
            assert np.min(np.abs(edges(va, fa) @ n)) == pytest.approx(0.0, abs=1e-9)
            assert np.min(np.abs(edges(vb, fb) @ n)) == pytest.approx(0.0, abs=1e-9)
        gap = (vb @ n).min() - (va @ n).max()
        assert gap == pytest.approx(plane.distance, abs=1e-9)
    assert len(kinds) >= 2


@pytest.mark.parametrize('seed', range(12))
def test_pruned_separating_plane_on_deep_overlaps_of_many_vertices(seed):
    """The benchmark's hard case: 64-vertex bodies deep in each other, where every edge
    pruning rule is in play."""
    rng = np.random.default_rng(300 + seed)
    va, fa = random_convex(rng, 64)
    offset = rng.normal(size=3)
    offset *= rng.uniform(0.0, 0.8) / np.linalg.norm(offset)
    vb, fb = random_convex(rng, 64, centre=offset)
    got = ConvexPolyhedron(va, fa).separating_plane(ConvexPolyhedron(vb, fb))
    full = brute_baraff(va, fa, vb, fb)
    assert full < -0.05  # deep
    assert got.distance == pytest.approx(full, abs=1e-12)
    # the plane's normal gives the gap it claims
    gap = (vb @ got.normal).min() - (va @ got.normal).max()
    assert gap == pytest.approx(got.distance, abs=1e-12)


def test_pruned_separating_plane_where_edge_pairs_win():
    """Flattened and stretched bodies of few vertices, overlapping: most best axes are
    edge-edge cross products, which the pruned search must still find (brute force as the
    reference)."""
    rng = np.random.default_rng(41)
    kinds = []
    for _ in range(60):
        n = int(rng.integers(5, 12))
        va, fa = hull_mesh(random_convex(rng, n)[0] * rng.uniform(0.2, 2.0, 3))
        vb, fb = hull_mesh(random_convex(rng, n)[0] * rng.uniform(0.2, 2.0, 3)
                           + rng.normal(size=3) * 0.6)
        got = separating_plane(va, fa, vb, fb)
        full = brute_baraff(va, fa, vb, fb)
        assert (got.distance > 0) == (full > 0)
        if full <= 0:
            assert got.distance == pytest.approx(full, abs=1e-12)
            kinds.append(got.kind)
    assert kinds.count('edge_edge') > 10


def test_overlapping_hulls_of_every_size_have_the_brute_force_depth():
    """300 pairs of 4 to 15-vertex hulls, stretched, from 1 cm to 1 km across, more than
    half of them overlapping: the pruned search's depth is brute force's (each pruning
    bound is a length, and deep overlaps bring their edges into play)."""
    rng = np.random.default_rng(0)
    overlapping = 0
    for _ in range(300):
        s = 10 ** rng.uniform(-2, 3)
        va, fa = hull_mesh(random_convex(rng, int(rng.integers(4, 16)))[0]
                           * rng.uniform(0.1, 3.0, 3) * s)
        vb, fb = hull_mesh((random_convex(rng, int(rng.integers(4, 16)))[0]
                            * rng.uniform(0.1, 3.0, 3)
                            + rng.normal(size=3) * rng.uniform(0.0, 1.5)) * s)
        full = brute_baraff(va, fa, vb, fb)
        if full <= 0:
            overlapping += 1
            assert separating_plane(va, fa, vb, fb).distance == pytest.approx(
                full, abs=1e-11 * s)
    assert overlapping > 100


def test_face_pass_survives_a_plateau_of_equal_heights():
    """A cube whose top face is a fan around its centre vertex (listed first, where the
    climb starts): along +z its neighbours are all as high as it, the climb stops there, and
    only the scan finds the bottom."""
    corners = CUBE_V
    top = [np.flatnonzero((corners == c).all(axis=1))[0] + 1
           for c in ([0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1])]
    va = np.vstack([[0.5, 0.5, 1.0], corners])
    cube_faces = CUBE[1] + 1  # hull_mesh keeps the corners in order
    assert np.allclose(CUBE[0], corners)
    sides = [f for f in cube_faces if not np.allclose(va[f, 2], 1.0)]
    fa = np.array(sides + [[0, top[k], top[(k + 1) % 4]] for k in range(4)])
    fan = ConvexPolyhedron(va, fa)
    lowest = np.empty(1, np.intp)
    up = np.array([[0.0, 0.0, 1.0, 0.0]])  # one face axis, +z, the climb starting at 0
    (gap, *_), _ = face_axes(up, fan.vertices, fan.adjacency, 1.0,
                             (-np.inf, 0.0, 0.0, 0.0, 0.0, -1), np.inf, lowest)
    assert gap == 0.0 and va[lowest[0], 2] == 0.0
    for shift in ([0.3, 0.2, -0.7], [0.1, -0.4, 0.9], [0.05, 0.1, 0.2]):
        vb, fb = CUBE[0] + shift, CUBE[1]
        for (v1, f1), (v2, f2) in (((va, fa), (vb, fb)), ((vb, fb), (va, fa))):
            got = separating_plane(v1, f1, v2, f2)
            assert got.distance == pytest.approx(brute_baraff(v1, f1, v2, f2), abs=1e-12)


def test_edge_arcs_point_into_the_arc_and_turn_with_the_body():
    rng = np.random.default_rng(5)
    body = ConvexPolyhedron(*random_convex(rng, 20))
    a = body.normals[body.edge_data[:, 2]]
    b = body.normals[body.edge_data[:, 3]]
    q, t0, t1 = body.arcs[:, :3], body.arcs[:, 3:6], body.arcs[:, 6:]
    mid = a + b  # the arc's midpoint direction (adjacent faces are less than pi apart)
    assert np.allclose(np.einsum('ij,ij->i', q, mid), 0.0)
    assert (np.einsum('ij,ij->i', t0, mid) > 0).all()
    assert (np.einsum('ij,ij->i', t1, mid) > 0).all()
    rot, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    rot *= np.linalg.det(rot)
    moved = body.moved(rot, rng.normal(size=3))
    assert np.allclose(moved.arcs, ConvexPolyhedron(body.vertices @ rot.T, body.faces).arcs)


@pytest.mark.parametrize('seed', range(5))
def test_edge_pruning_bound_holds_along_the_whole_arc(seed):
    """An edge is dropped only when n.(v - p) < limit all along its Gauss-map arc for one of
    its two candidate vertices v (dense sampling of the arc as the reference)."""
    rng = np.random.default_rng(seed)
    body = ConvexPolyhedron(*random_convex(rng, 24))
    other = rng.normal(size=(40, 3)) * 1.5
    lowest = rng.integers(0, len(other), len(body.faces))
    codes = np.zeros(len(body.vertices), np.int8)
    s = np.linspace(0.0, 1.0, 2001)[:, None]
    dropped = 0
    for limit in (-0.6, -0.2, 0.0, 0.3, 0.9):
        keep = np.empty(len(body.edge_data), np.intp)
        count = edges_that_may_win(body.vertices, body.planes, body.edge_data, body.arcs,
                                   codes, other, lowest, limit, keep)
        for e in sorted(set(range(len(body.edge_data))) - set(keep[:count])):
            p, _, f0, f1 = body.edge_data[e]
            arc = (1 - s) * body.normals[f0] + s * body.normals[f1]
            arc /= np.linalg.norm(arc, axis=1)[:, None]
            peak = min((arc @ (other[v] - body.vertices[p])).max()
                       for v in (lowest[f0], lowest[f1]))
            assert peak < limit + 1e-12
            dropped += 1
        assert 0 < count
    assert dropped > 50


def test_edge_pruning_finds_the_peak_inside_the_arc():
    """w pointing into an edge's arc: the largest n.w is |u| (w's part in the arc's plane),
    not an end value, so a limit between the ends and |u| keeps the edge and one above |u|
    drops it."""
    rng = np.random.default_rng(9)
    body = ConvexPolyhedron(*random_convex(rng, 16))
    lowest = np.zeros(len(body.faces), np.intp)
    codes = np.zeros(len(body.vertices), np.int8)
    keep = np.empty(len(body.edge_data), np.intp)
    for e, (p, _, f0, f1) in enumerate(body.edge_data):
        a, b = body.normals[f0], body.normals[f1]
        mid = (a + b) / np.linalg.norm(a + b)
        out_of_plane = np.cross(a, b) / np.linalg.norm(np.cross(a, b))
        w = 0.7 * mid + 0.5 * out_of_plane
        ends = max(a @ w, b @ w)
        other = (body.vertices[p] + w)[None]
        for limit, kept in ((0.5 * (ends + 0.7), True), (0.7 * 1.001, False)):
            count = edges_that_may_win(body.vertices, body.planes, body.edge_data,
                                       body.arcs, codes, other, lowest, limit, keep)
            assert (e in keep[:count]) == kept


@pytest.mark.parametrize('seed', range(30))
def test_pruned_separating_plane_keeps_sign_and_depth(seed):
    rng = np.random.default_rng(100 + seed)
    va, fa = random_convex(rng, rng.integers(6, 30))
    vb, fb = random_convex(rng, rng.integers(6, 30), centre=rng.uniform(-1.8, 1.8, 3))
    got = separating_plane(va, fa, vb, fb).distance
    full = brute_baraff(va, fa, vb, fb)
    assert (got > 0) == (full > 0)
    if full <= 0:
        assert got == pytest.approx(full, abs=1e-12)
    else:
        assert got <= full + 1e-12


ISSUE_TETRAHEDRA = (
    np.array([[-0.700548823091534, 1.3382795151279085, 0.5822058485731421],
              [-1.7518005652801107, 1.0414021981866897, -1.0747914952232525],
              [-0.1779139465826313, 0.668113421683895, -0.29985316059917977],
              [1.1189440556172074, 0.7612637605131622, -1.5768756104869754]]),
    np.array([[0, 3, 1], [2, 1, 3], [2, 0, 1], [2, 3, 0]]),
    np.array([[-0.45141732203329554, 1.0420491612471123, -3.1133184138973284],
              [-0.19525967178065307, 1.5597603394146995, -2.221538425948831],
              [-0.8996022007543746, 0.9345817973793845, -3.1505893677421586],
              [-1.1941755248283017, -0.3700804219763181, -2.251364195531368]]),
    np.array([[2, 3, 1], [0, 1, 3], [0, 3, 2], [0, 2, 1]]))


@pytest.mark.parametrize('origin', ['given', 'in a', 'in b'])
def test_bodies_apart_along_an_edge_edge_axis_are_apart(origin):
    """Every face axis of this pair overlaps; the bodies are 0.925 m apart along an
    edge-edge axis (the QP distance), so the plane's gap is positive and a manifold exists
    within eps = 1.  Also with the pair moved to put the origin inside either body (where
    a wrong overlap test, such as GJK run on a's unit face normals, would say they meet and
    prune the winning edges)."""
    va, fa, vb, fb = ISSUE_TETRAHEDRA
    shift = {'given': 0.0, 'in a': -np.mean(va, axis=0), 'in b': -np.mean(vb, axis=0)}[origin]
    va, vb = np.asarray(va) + shift, np.asarray(vb) + shift
    assert not lp_intersect(va, vb)
    plane = separating_plane(va, fa, vb, fb)
    assert plane.kind == 'edge_edge'
    assert plane.distance == pytest.approx(brute_baraff(va, fa, vb, fb), abs=1e-12)
    assert plane.distance == pytest.approx(qp_distance(va, vb), abs=1e-6)
    assert contact_manifold(va, fa, vb, fb, 1.0) is not None
    assert contact_manifold(va, fa, vb, fb, 0.9) is None


@pytest.mark.parametrize('motion', [16, 17, 18])
@pytest.mark.parametrize('scale', [1.0, 10.0])
@pytest.mark.parametrize('turn', [1.1e-9, 3e-9, 1e-8, 1e-6])
def test_nearly_parallel_edges_apart_have_a_gap_at_most_their_distance(turn, scale, motion):
    """A wedge's lowest edge 1 mm over the roof's ridge, turned about the middle of their
    overlap by just past where edges count as parallel and more: the edge-edge axis wins and
    its gap is the distance, 1 mm (the common perpendicular meets both edges), to 1e-12, under
    three random rigid motions, and all of it ten times as large.  Read off one end of each
    edge, a gap along the cross product as rounded, tilted along the edges by about 1e-16 /
    sin(turn), exceeded it by up to 1e-9."""
    rng = np.random.default_rng(motion)
    rotation, shift = Rotation.random(random_state=rng).as_matrix(), rng.uniform(-5, 5, 3)
    roof = scale * ROOF @ rotation.T + shift
    wedge = scale * wedge_over_ridge(0.6, 1.4, 1e-3, turn) @ rotation.T + shift
    plane = separating_plane(*hull_mesh(roof), *hull_mesh(wedge))
    assert plane.kind == 'edge_edge'
    assert plane.distance == pytest.approx(1e-3 * scale, abs=1e-12 * scale)


def supporting_planes_gap(va, fa, vb, fb):
    """The largest gap over the face normals and the edge pairs that support both bodies,
    by brute force: n = +-unit(u x w) counts when edge i's ends are a's highest points along
    n and edge j's ends b's lowest (1e-12 slack)."""
    def unit_normals(v, f):
        n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
        return n / np.linalg.norm(n, axis=1)[:, None]

    def edges(f):
        return np.unique(np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]),
                                 axis=1), axis=0)

    axes = list(np.vstack([unit_normals(va, fa), -unit_normals(vb, fb)]))
    for p, q in edges(fa):
        for r, s in edges(fb):
            n = np.cross(va[q] - va[p], vb[s] - vb[r])
            if np.linalg.norm(n) < 1e-9:
                continue
            for sign in (1.0, -1.0):
                m = sign * n / np.linalg.norm(n)
                ha, hb = va @ m, vb @ m
                if (min(ha[p], ha[q]) >= ha.max() - 1e-12
                        and max(hb[r], hb[s]) <= hb.min() + 1e-12):
                    axes.append(m)
    n = np.array(axes)
    return float(np.max((vb @ n.T).min(axis=0) - (va @ n.T).max(axis=0)))


def test_separating_planes_of_small_hulls_match_linear_programming():
    """Thousands of random pairs of 4 to 7-vertex hulls, about half of them meeting: the
    plane's sign against linear programming; its gap against every Baraff axis when they
    meet, against the supporting ones (brute force) and the distance when apart."""
    rng = np.random.default_rng(2024)
    meeting = 0
    for _ in range(2000):
        va, fa = random_convex(rng, int(rng.integers(4, 8)))
        vb, fb = random_convex(rng, int(rng.integers(4, 8)), centre=rng.uniform(-1.1, 1.1, 3))
        meet = lp_intersect(va, vb)
        plane = ConvexPolyhedron(va, fa).separating_plane(ConvexPolyhedron(vb, fb))
        assert (plane.distance <= 1e-9) == meet
        if meet:
            assert plane.distance == pytest.approx(brute_baraff(va, fa, vb, fb), abs=1e-9)
        else:
            assert plane.distance == pytest.approx(supporting_planes_gap(va, fa, vb, fb),
                                                   abs=1e-9)
            assert plane.distance <= gjk_distance(va, vb)[0] + 1e-9
        meeting += meet
    assert 400 < meeting < 1600


def test_long_boxes_apart_along_parallel_edges_are_as_far_as_their_face_gaps():
    """Two boxes 1 to 100 m long, side by side with their long edges parallel and g = 0.1 nm
    to 0.1 mm apart diagonally, turned and moved at random.  No edge-edge axis exists (the
    long edges are parallel, the others give the faces' normals), so the gap is that of the
    face axes, g / sqrt(2).  The meshes' triangles leave a flat edge across each face, whose
    Gauss-map arc is a point: its cross products with the other body's edges are no axes of
    the Minkowski difference, and taken as one they give a gap the bodies do not have."""
    rng = np.random.default_rng(11)
    for length, g, turn, shift, a, b in boxes_apart_along_parallel_edges(rng, 200):
        plane = separating_plane(*a, *b)
        assert plane.distance == pytest.approx(g / np.sqrt(2), abs=1e-12 * length), (length, g)
