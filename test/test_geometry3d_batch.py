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
"""`PolyhedronSet` against one pair at a time."""

import numba
import numpy as np
import pytest

from collision_monitor.geometry3d import ConvexPolyhedron, PolyhedronSet
from collision_monitor.kernels.tuning import PARALLEL_WORK
from shapes import CUBE, random_convex, resting_pairs


def test_polyhedron_set_matches_one_pair_at_a_time():
    rng = np.random.default_rng(17)
    bodies = [ConvexPolyhedron(*random_convex(rng, n=int(rng.integers(6, 30)),
                                              centre=rng.uniform(-2, 2, 3)))
              for _ in range(25)]
    bodies += [ConvexPolyhedron(*pair[k]) for pair in resting_pairs(12, 5, rng) for k in (0, 1)]
    batch = PolyhedronSet(bodies)
    pairs = np.array([(i, j) for i in range(len(bodies)) for j in range(i + 1, len(bodies))])
    counts, points, normals, depths = batch.contact_manifolds(pairs, 1e-6)
    distance, pa, pb = batch.distances(pairs)
    assert counts.min() == 0 and (counts > 0).sum() > 20
    assert points.shape == (len(pairs), 2 * max(len(b.vertices) for b in bodies), 3)
    assert pa.shape == pb.shape == (len(pairs), 3)
    for p, (i, j) in enumerate(pairs):
        one = bodies[i].contact_manifold(bodies[j], 1e-6)
        if one is None:
            assert counts[p] == 0
        else:
            assert counts[p] == len(one[0])
            assert np.array_equal(points[p, :counts[p]], one[0])
            assert np.array_equal(normals[p], one[1]) and depths[p] == one[2]
        d, a, b = bodies[i].distance(bodies[j])
        assert distance[p] == d and np.array_equal(pa[p], a) and np.array_equal(pb[p], b)
        assert np.linalg.norm(pa[p] - pb[p]) == pytest.approx(d, rel=1e-12, abs=1e-12)
    # the same on one thread, and on a query too small to go parallel; numba's thread
    # setting is left as it was
    before = numba.get_num_threads()
    small = slice(200, 210)
    assert (len(pairs[small]) * batch.most_vertices < PARALLEL_WORK
            <= len(pairs) * batch.most_vertices)
    for threads, part in ((1, slice(None)), (None, small)):
        batch.threads = threads
        n2, p2, u2, d2 = batch.contact_manifolds(pairs[part], 1e-6)
        assert np.array_equal(n2, counts[part]) and np.array_equal(u2, normals[part])
        assert np.array_equal(d2, depths[part])
        for q, p in enumerate(range(len(pairs))[part]):
            assert np.array_equal(p2[q, :n2[q]], points[p, :counts[p]])
        assert np.array_equal(batch.distances(pairs[part])[0], distance[part])
        assert numba.get_num_threads() == before
    with pytest.raises(ValueError, match='pairs'):
        batch.distances([[0, len(bodies)]])


def octahedron(centre, r):
    """Corners at centre +- r on each axis: its bounding sphere touches it at every corner."""
    v = np.vstack([np.eye(3), -np.eye(3)]) * r + np.asarray(centre, float)
    f = [[0, 1, 2], [1, 3, 2], [3, 4, 2], [4, 0, 2], [1, 0, 5], [3, 1, 5], [4, 3, 5],
         [0, 4, 5]]
    return v, np.array(f)


@pytest.mark.parametrize('eps', [0.0, 0.25, 1.0])
def test_corners_exactly_eps_apart_have_their_manifold_in_a_batch(eps):
    """Octahedra corner to corner along each axis, exactly eps apart (their bounding spheres
    too): the batch's sphere test keeps them, and its manifold is the pair's own, the
    midpoint of the two corners."""
    bodies = [ConvexPolyhedron(*octahedron((0.0, 0.0, 0.0), 1.0))]
    for axis in range(3):
        bodies.append(ConvexPolyhedron(*octahedron(np.eye(3)[axis] * (2.0 + eps), 1.0)))
    pairs = np.array([[0, 1], [0, 2], [0, 3]])
    counts, points, normals, depths = PolyhedronSet(bodies).contact_manifolds(pairs, eps)
    assert counts.tolist() == [1, 1, 1]
    for p, (i, j) in enumerate(pairs):
        one = bodies[i].contact_manifold(bodies[j], eps)
        assert np.array_equal(points[p, :1], one[0]) and np.array_equal(normals[p], one[1])
        np.testing.assert_allclose(points[p, 0], np.eye(3)[p] * (1.0 + eps / 2), atol=1e-12)


@pytest.mark.parametrize('pairs', [[[0.0, 1.0]], [[0.5, 1]], [0, 1, 1, 0], [[0, 1, 1]]])
def test_polyhedron_set_pairs_must_be_integer_pairs(pairs):
    bodies = PolyhedronSet([ConvexPolyhedron(*CUBE), ConvexPolyhedron(CUBE[0] + 2, CUBE[1])])
    with pytest.raises(ValueError, match='pairs'):
        bodies.distances(pairs)
    with pytest.raises(ValueError, match='pairs'):
        bodies.contact_manifolds(pairs, 0.1)


def test_a_polyhedron_set_names_what_it_refuses():
    """Every refusal of PolyhedronSet, its text whole: no body or a body of another kind,
    pairs of the wrong form or naming a body it does not hold, a negative eps."""
    cube = ConvexPolyhedron(*CUBE)
    for bodies in ([], [cube, CUBE]):
        with pytest.raises(ValueError, match=r'^a PolyhedronSet holds one or more '
                                             r'ConvexPolyhedron objects$'):
            PolyhedronSet(bodies)
    batch = PolyhedronSet([cube, ConvexPolyhedron(CUBE[0] + 2, CUBE[1])])
    with pytest.raises(ValueError, match=r'^pairs must have shape \(k, 2\), got \(3,\)$'):
        batch.distances([0, 1, 1])
    with pytest.raises(ValueError, match=r'^pairs must be integer indices, got dtype float64$'):
        batch.distances([[0.0, 1.0]])
    for pairs in ([[0, 2]], [[-1, 0]]):
        with pytest.raises(ValueError, match=r'^pairs index bodies 0 to 1$'):
            batch.contact_manifolds(pairs, 0.1)
    with pytest.raises(ValueError, match=r'^eps must be >= 0, got -0.5$'):
        batch.contact_manifolds([[0, 1]], -0.5)


@pytest.mark.parametrize('pairs', [[], np.empty((0, 2)), np.empty((0, 2), np.int32)])
def test_no_pairs_give_empty_results_of_the_documented_shapes(pairs):
    """No pairs (an empty list has no integer dtype, nor has an empty float array): each
    result has no rows and the documented columns."""
    bodies = PolyhedronSet([ConvexPolyhedron(*CUBE), ConvexPolyhedron(CUBE[0] + 2, CUBE[1])])
    counts, points, normals, depths = bodies.contact_manifolds(pairs, 0.1)
    assert counts.shape == (0,) and points.shape == (0, 16, 3)
    assert normals.shape == (0, 3) and depths.shape == (0,)
    distance, pa, pb = bodies.distances(pairs)
    assert distance.shape == (0,) and pa.shape == pb.shape == (0, 3)
