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
"""3D convex pairs: our GJK, separating plane and manifold against python-fcl and Coal, per
query."""

import time

import numpy as np

from collision_monitor.geometry3d import (contact_manifold, convex_polyhedra_intersect,
                                          ConvexPolyhedron, gjk_distance, gjk_distance_batch,
                                          PolyhedronSet)
from shapes import polyhedron_pairs, resting_pairs  # test/shapes.py (see benchmarks/__init__)


def seconds(fn):
    """Seconds one call of fn() takes."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def mean_seconds(fn, items):
    """Mean seconds per call of fn over items, one pass."""
    t = time.perf_counter()
    for item in items:
        fn(*item)
    return (time.perf_counter() - t) / len(items)


def interleaved(measures, rounds):
    """Run every measure once per round, in turn, so ours and fcl's see the same load on a
    shared machine; return each measure's median seconds per query and the per-round values.
    """
    runs = {name: [] for name in measures}
    for _ in range(rounds):
        for name, measure in measures.items():
            runs[name].append(measure())
    return {name: float(np.median(r)) for name, r in runs.items()}, runs


def ratio(runs, peer, ours):
    """Median over rounds of peer time / our time within the round (same load for both)."""
    return float(np.median(np.array(runs[peer]) / np.array(runs[ours])))


def fcl_objects(meshes):
    """python-fcl Convex objects, one per (vertices, triangles) mesh, at the identity."""
    import fcl
    out = []
    for v, f in meshes:
        faces = np.hstack([np.full((len(f), 1), 3), f]).ravel().astype(np.int32)
        out.append(fcl.CollisionObject(fcl.Convex(v, len(f), faces), fcl.Transform()))
    return out


def coal_objects(meshes):
    """Coal Convex objects, one per (vertices, triangles) mesh, at the identity."""
    import coal
    out = []
    for v, f in meshes:
        points = coal.StdVec_Vec3s()
        for p in v:
            points.append(p)
        triangles = coal.StdVec_Triangle()
        for a, b, c in f.tolist():
            triangles.append(coal.Triangle(a, b, c))
        out.append(coal.CollisionObject(coal.Convex(points, triangles), coal.Transform3s()))
    return out


def run(sizes=(8, 16, 32, 64), count=200, seed=0, rounds=9):
    """One dict per size: median seconds per query of each measure (keys as below), the
    per-round ratios' medians against fcl (`ratio_*`), disagreements on intersect with fcl
    and the share of the random pairs in contact."""
    import fcl

    def fcl_collide(a, b):
        return fcl.collide(a, b, fcl.CollisionRequest(), fcl.CollisionResult())

    def fcl_contacts(a, b):
        return fcl.collide(a, b, fcl.CollisionRequest(num_max_contacts=100,
                                                      enable_contact=True),
                           fcl.CollisionResult())

    def fcl_distance(a, b):
        return fcl.distance(a, b, fcl.DistanceRequest(enable_nearest_points=True),
                            fcl.DistanceResult())

    def batch_manifolds(prepared):
        bodies = PolyhedronSet([body for pair in prepared for body in pair])
        index = np.arange(2 * len(prepared)).reshape(-1, 2)
        bodies.contact_manifolds(index, 1e-6)
        return lambda: seconds(lambda: bodies.contact_manifolds(index, 1e-6)) / len(prepared)

    import coal
    coal_request, coal_result = coal.CollisionRequest(), coal.CollisionResult()
    coal_dreq, coal_dres = coal.DistanceRequest(), coal.DistanceResult()
    coal_dreq.enable_nearest_points = True

    def coal_collide(a, b):
        coal_result.clear()
        return coal.collide(a, b, coal_request, coal_result)

    def coal_distance(a, b):
        # the distance and both closest points as arrays, as ours returns them
        coal_dres.clear()
        d = coal.distance(a, b, coal_dreq, coal_dres)
        return d, coal_dres.getNearestPoint1(), coal_dres.getNearestPoint2()

    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        items = polyhedron_pairs(n, count, rng)
        fcl_items = [fcl_objects(pair) for pair in items]
        coal_items = [coal_objects(pair) for pair in items]
        resting = resting_pairs(n, count // 2, rng)
        resting_fcl = [fcl_objects(pair) for pair in resting]
        prepared = [(ConvexPolyhedron(*a), ConvexPolyhedron(*b)) for a, b in items]
        resting_prepared = [(ConvexPolyhedron(*a), ConvexPolyhedron(*b)) for a, b in resting]
        stack_a = np.stack([a[0] for a, _ in items])
        stack_b = np.stack([b[0] for _, b in items])
        gjk_distance_batch(stack_a, stack_b)
        ours_hit = [convex_polyhedra_intersect(a[0], b[0]) for a, b in items]
        fcl_hit = [bool(fcl_collide(*o)) for o in fcl_items]
        measures = {
            'intersect_raw': lambda: mean_seconds(
                lambda a, b: convex_polyhedra_intersect(a[0], b[0]), items),
            'intersect': lambda: mean_seconds(lambda a, b: a.intersects(b), prepared),
            'fcl_collide': lambda: mean_seconds(fcl_collide, fcl_items),
            'distance_raw': lambda: mean_seconds(lambda a, b: gjk_distance(a[0], b[0]),
                                                 items),
            'distance': lambda: mean_seconds(lambda a, b: a.distance(b), prepared),
            'distance_batch': lambda: seconds(
                lambda: gjk_distance_batch(stack_a, stack_b)) / count,
            'fcl_distance': lambda: mean_seconds(fcl_distance, fcl_items),
            'coal_collide': lambda: mean_seconds(coal_collide, coal_items),
            'coal_distance': lambda: mean_seconds(coal_distance, coal_items),
            'manifold': lambda: mean_seconds(lambda a, b: a.contact_manifold(b, 1e-6),
                                             prepared),
            'manifold_batch': batch_manifolds(prepared),
            'fcl_contacts': lambda: mean_seconds(fcl_contacts, fcl_items),
            'resting': lambda: mean_seconds(lambda a, b: a.contact_manifold(b, 1e-6),
                                            resting_prepared),
            'resting_batch': batch_manifolds(resting_prepared),
            'fcl_resting': lambda: mean_seconds(fcl_contacts, resting_fcl),
        }
        medians, runs = interleaved(measures, rounds)
        coal_hit = [bool(coal_collide(*o)) for o in coal_items]
        row = dict(medians, n=n, disagree=sum(x != y for x, y in zip(ours_hit, fcl_hit)),
                   disagree_coal=sum(x != y for x, y in zip(ours_hit, coal_hit)),
                   in_contact=float(np.mean([a.contact_manifold(b, 1e-6) is not None
                                             for a, b in prepared])),
                   manifold_raw=mean_seconds(
                       lambda a, b: contact_manifold(a[0], a[1], b[0], b[1], 1e-6), items))
        for ours, peer in (('intersect', 'fcl_collide'), ('distance', 'fcl_distance'),
                           ('distance_batch', 'fcl_distance'), ('manifold', 'fcl_contacts'),
                           ('manifold_batch', 'fcl_contacts'), ('resting', 'fcl_resting'),
                           ('resting_batch', 'fcl_resting'), ('intersect', 'coal_collide'),
                           ('distance', 'coal_distance'), ('distance_batch', 'coal_distance')):
            row[f'ratio_{ours}' + ('_coal' if peer.startswith('coal') else '')] = ratio(
                runs, peer, ours)
        rows.append(row)
    return rows
