# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""3D convex pairs: our GJK, separating plane and manifold against python-fcl, per query."""

import time

import numpy as np
from scipy.spatial import ConvexHull

from collision_monitor.geometry3d import (contact_manifold, convex_polyhedra_intersect,
                                          ConvexPolyhedron, gjk_distance, gjk_distance_batch,
                                          PolyhedronSet)


def hull(points):
    """Vertices and outward CCW triangles of the convex hull of points (scipy's Qhull).

    Shared with the tests, where it is the independent reference mesh builder.
    """
    h = ConvexHull(points)
    faces = []
    for simplex, eq in zip(h.simplices, h.equations):
        a, b, c = points[simplex]
        if np.cross(b - a, c - a) @ eq[:3] < 0:
            simplex = simplex[[0, 2, 1]]
        faces.append(simplex)
    used = np.unique(h.simplices)
    remap = -np.ones(len(points), int)
    remap[used] = np.arange(len(used))
    return np.ascontiguousarray(points[used]), remap[np.array(faces)]


def pairs(n_vertices, count, rng):
    """Random convex polyhedra pairs at random offsets (about a third in contact)."""
    out = []
    for _ in range(count):
        shapes = []
        for centre in (np.zeros(3), rng.uniform(-2.2, 2.2, 3)):
            p = rng.normal(size=(n_vertices, 3))
            p /= np.linalg.norm(p, axis=1)[:, None]
            shapes.append(hull(p + centre))
        out.append(shapes)
    return out


def resting_pairs(n_vertices, count, rng, depth=1e-3):
    """Pairs in shallow contact, as a simulation or a monitor sees them: b slid along a random
    direction to where it touches a (bisection on GJK), then pushed `depth` metres back in."""
    out = []
    for (va, fa), (vb, fb) in pairs(n_vertices, count, rng):
        vb = vb - vb.mean(axis=0)
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        lo, hi = 0.0, 4.0
        while hi - lo > 1e-9:
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if gjk_distance(va, vb + mid * d)[0] == 0.0 else (lo, mid)
        out.append(((va, fa), (vb + (lo - depth) * d, fb)))
    return out


def per_query(fn, items, repeat=3):
    """Median over repeats of the mean seconds per call."""
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for item in items:
            fn(*item)
        runs.append((time.perf_counter() - t) / len(items))
    return float(np.median(runs))


def per_pair_batch(prepared, repeat=15):
    """Median seconds per pair of `PolyhedronSet.contact_manifolds` over all the pairs."""
    batch = PolyhedronSet([body for pair in prepared for body in pair])
    pairs = np.arange(2 * len(prepared)).reshape(-1, 2)
    batch.contact_manifolds(pairs, 1e-6)
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        batch.contact_manifolds(pairs, 1e-6)
        runs.append((time.perf_counter() - t) / len(prepared))
    return float(np.median(runs))


def run(sizes=(8, 16, 32, 64), count=200, seed=0):
    """Rows: (vertices, ours intersect, ours distance, ours manifold, fcl collide,
    fcl distance, disagreements on intersect, ours batch distance per pair, ours manifold on
    prepared bodies, fcl collide with contacts, fraction of pairs in contact, ours manifold
    and fcl collide with contacts on pairs in resting contact, ours intersect and distance on
    prepared bodies, ours batch manifold per pair on the random and the resting pairs)."""
    import fcl
    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        items = pairs(n, count, rng)
        fcl_items = []
        for (va, fa), (vb, fb) in items:
            objs = []
            for v, f in ((va, fa), (vb, fb)):
                faces = np.hstack([np.full((len(f), 1), 3), f]).ravel().astype(np.int32)
                objs.append(fcl.CollisionObject(fcl.Convex(v, len(f), faces), fcl.Transform()))
            fcl_items.append(objs)

        def fcl_collide(a, b):
            return fcl.collide(a, b, fcl.CollisionRequest(), fcl.CollisionResult())

        def fcl_contacts(a, b):
            return fcl.collide(a, b, fcl.CollisionRequest(num_max_contacts=100,
                                                          enable_contact=True),
                               fcl.CollisionResult())

        def fcl_distance(a, b):
            return fcl.distance(a, b, fcl.DistanceRequest(enable_nearest_points=True),
                                fcl.DistanceResult())

        ours_hit = [convex_polyhedra_intersect(a[0], b[0]) for a, b in items]
        fcl_hit = [bool(fcl_collide(*o)) for o in fcl_items]
        disagree = sum(x != y for x, y in zip(ours_hit, fcl_hit))
        stack_a = np.stack([a[0] for a, _ in items])
        stack_b = np.stack([b[0] for _, b in items])
        gjk_distance_batch(stack_a, stack_b)
        batch = []
        for _ in range(15):
            t = time.perf_counter()
            gjk_distance_batch(stack_a, stack_b)
            batch.append((time.perf_counter() - t) / len(items))
        prepared = [(ConvexPolyhedron(*a), ConvexPolyhedron(*b)) for a, b in items]
        resting = resting_pairs(n, count // 2, rng)
        resting_prepared = [(ConvexPolyhedron(*a), ConvexPolyhedron(*b)) for a, b in resting]
        resting_fcl = [[fcl.CollisionObject(fcl.Convex(v, len(f), np.hstack(
            [np.full((len(f), 1), 3), f]).ravel().astype(np.int32)), fcl.Transform())
            for v, f in pair] for pair in resting]
        in_contact = np.mean([a.contact_manifold(b, 1e-6) is not None for a, b in prepared])
        rows.append((
            n,
            per_query(lambda a, b: convex_polyhedra_intersect(a[0], b[0]), items),
            per_query(lambda a, b: gjk_distance(a[0], b[0]), items),
            per_query(lambda a, b: contact_manifold(a[0], a[1], b[0], b[1], 1e-6), items,
                      repeat=1),
            per_query(fcl_collide, fcl_items),
            per_query(fcl_distance, fcl_items),
            disagree,
            float(np.median(batch)),
            per_query(lambda a, b: a.contact_manifold(b, 1e-6), prepared),
            per_query(fcl_contacts, fcl_items),
            float(in_contact),
            per_query(lambda a, b: a.contact_manifold(b, 1e-6), resting_prepared),
            per_query(fcl_contacts, resting_fcl),
            per_query(lambda a, b: a.intersects(b), prepared),
            per_query(lambda a, b: a.distance(b), prepared),
            per_pair_batch(prepared),
            per_pair_batch(resting_prepared),
        ))
    return rows
