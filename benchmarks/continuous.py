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
"""Time of impact under translation: ours against python-fcl's continuousCollide.

One scene of N bodies moving at constant velocity without rotation (where both models are
exact).  Ours: `World.predict(H, 'constant_velocity')`, all pairs, broad phase included.
fcl: `continuousCollide` (translation motion, conservative advancement) on every pair whose
swept boxes overlap, a list given to it for free.  Truth: dense sampling of the polygons'
overlap with shapely plus bisection, on every pair either reports.
"""

import time

import numpy as np
import shapely

from benchmarks.peers import fcl_prism
from benchmarks.scenes import make_scene

HORIZON = 2.0


def _truth(a, b, va, vb, horizon, steps=400, tol=1e-9):
    """First time the translated polygons touch (shapely), or inf."""
    pa, pb = shapely.Polygon(a), shapely.Polygon(b)

    def touch(t):
        return shapely.intersects(shapely.affinity.translate(pa, *(va * t)),
                                  shapely.affinity.translate(pb, *(vb * t)))

    ts = np.linspace(0.0, horizon, steps + 1)
    hit = next((k for k, t in enumerate(ts) if touch(t)), None)
    if hit is None:
        return np.inf
    if hit == 0:
        return 0.0
    lo, hi = ts[hit - 1], ts[hit]
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if touch(mid) else (mid, hi)
    return hi


def run(n=1000, repeats=7):
    """Times (ms per tick, medians) and agreement with sampling for ours and fcl."""
    import fcl
    from collision_monitor import CollisionWorld

    scene = make_scene(n, 8, 0.02, seed=5)
    scene.twists[:, 2] = 0.0
    world = CollisionWorld()
    for k, fp in enumerate(scene.footprints):
        world.add_body(f'b{k}', fp)
    world.set_poses(scene.poses)
    world.set_twists(scene.twists)
    ours = world.predict(HORIZON, 'constant_velocity')
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        ours = world.predict(HORIZON, 'constant_velocity')
        ts.append(time.perf_counter() - t0)
    t_ours = float(np.median(ts))
    ours_time = dict(zip(map(tuple, ours.pairs.tolist()), ours.time.tolist()))

    # the candidate pairs handed to fcl: swept boxes overlap (brute force, not timed)
    verts = [world.world_vertices(f'b{k}') for k in range(n)]
    end = [v + scene.twists[k, :2] * HORIZON for k, v in enumerate(verts)]
    lo = np.array([np.minimum(v.min(0), e.min(0)) for v, e in zip(verts, end)])
    hi = np.array([np.maximum(v.max(0), e.max(0)) for v, e in zip(verts, end)])
    cand = [(i, j) for i in range(n) for j in np.nonzero(
        np.all(lo[i + 1:] <= hi[i], axis=1) & np.all(lo[i] <= hi[i + 1:], axis=1))[0] + i + 1]

    objs = [fcl.CollisionObject(fcl_prism(fcl, v), fcl.Transform()) for v in verts]
    goals = [fcl.Transform(np.array([*(scene.twists[k, :2] * HORIZON), 0.0]))
             for k in range(n)]
    request = fcl.ContinuousCollisionRequest()
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    request.ccd_solver_type = fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT
    request.gjk_solver_type = fcl.GJKSolverType.GST_LIBCCD
    fcl_time = {}
    ts = []
    for _ in range(max(1, repeats // 2)):
        t0 = time.perf_counter()
        for i, j in cand:
            result = fcl.ContinuousCollisionResult()
            fcl.continuousCollide(objs[i], goals[i], objs[j], goals[j], request, result)
            if result.is_collide:
                fcl_time[(i, j)] = result.time_of_contact * HORIZON
        ts.append(time.perf_counter() - t0)
    t_fcl = float(np.median(ts))

    checked = set(ours_time) | set(fcl_time)
    truth = {p: _truth(verts[p[0]], verts[p[1]], scene.twists[p[0], :2],
                       scene.twists[p[1], :2], HORIZON) for p in checked}
    truth = {p: t for p, t in truth.items() if np.isfinite(t)}

    def errors(got, tol):
        """(missed, of which touching at 0, false, worst |error| s, errors above tol)."""
        missed = len(set(truth) - set(got))
        missed_now = sum(truth[p] == 0.0 for p in set(truth) - set(got))
        false = len(set(got) - set(truth))
        worst = max((abs(got[p] - truth[p]) for p in set(got) & set(truth)), default=0.0)
        off = sum(abs(got[p] - truth[p]) > tol for p in set(got) & set(truth))
        return missed, missed_now, false, float(worst), int(off)

    return {'n': n, 'pairs_true': len(truth), 'candidates': len(cand),
            'ours_ms': 1e3 * t_ours, 'fcl_ms': 1e3 * t_fcl,
            'ours_errors': errors(ours_time, 1e-6), 'fcl_errors': errors(fcl_time, 1e-6)}
