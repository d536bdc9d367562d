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
"""Predictions for turning robots: each motion model against the exact arcs, and ours
against python-fcl's screw-motion time of impact.

Models (`run`, the table of docs/prediction.md):
A 1.0 x 0.6 m differential-drive robot among three static boxes (0.3 to 1.0 m, 0.5 to 3 m
away) holds its body twist: speed v from 0 to 1.2 m/s, turn rate |w| in a band, either
sign.  Each model gets the robot's exact state as the node estimates it: pose, world
velocity, yaw rate and the world acceleration (the centripetal w x v; the arc model holds
the tangential part, zero).  The truth is the robot's own circular arc, sampled every 2 ms
(shapely) and refined by bisection to 1e-9 s; horizon 2 s.

Peers (`against_fcl`, a table of docs/benchmarks.md): N robots (0.9 x 0.6 m) each holding
a body twist (v up to 1 m/s, |w| up to 3 rad/s), 2 s ahead.  Ours: ``predict`` under
``arc``, broad phase included.  python-fcl: ``continuousCollide`` (CCDM_SCREW, which for a
planar motion is the same arc; conservative advancement, libccd) on the pairs whose swept
discs overlap, that list given to it untimed, each turn split into pieces under pi (a
screw is set by its two end poses) and its return code checked (-1: unsupported).  Truth
for every candidate pair: the arcs sampled every 2 ms (shapely), refined by bisection, or
a reported time at which the true polygons are within 1e-9 m (a graze between samples);
pairs touching at 0 are left out.

Usage: ``python -m benchmarks.turning [--scenes N] [--write]`` (``--write`` puts the table
into docs/prediction.md between its markers).
"""

import argparse
import math
import pathlib
import time

import numpy as np
import shapely

from collision_monitor import World

ROBOT = np.array([[-0.5, -0.3], [0.5, -0.3], [0.5, 0.3], [-0.5, 0.3]])
HORIZON = 2.0
STEP = 0.002
MODELS = ('arc', 'holonomic', 'constant_acceleration', 'constant_velocity')
BANDS = ((0.1, 0.5), (0.5, 1.0), (1.0, 1.8))
DOC = pathlib.Path(__file__).resolve().parents[1] / 'docs' / 'prediction.md'
MARKERS = ('<!-- turning: begin -->', '<!-- turning: end -->')


def arc_pose(v, w, heading, t, x0=0.0, y0=0.0):
    """Pose(s) ``(x, y, yaw)`` at time(s) t of a body holding body twist (v, 0, w) from
    (x0, y0, heading)."""
    t = np.atleast_1d(np.asarray(t, float))
    yaw = heading + w * t
    if w == 0.0:
        x, y = v * t * math.cos(heading), v * t * math.sin(heading)
    else:
        x = v / w * (np.sin(yaw) - math.sin(heading))
        y = -v / w * (np.cos(yaw) - math.cos(heading))
    return x0 + x, y0 + y, yaw


def placed(footprint, pose):
    """Vertices (T, k, 2) of a footprint at poses ``(x, y, yaw)`` (arrays of T)."""
    x, y, yaw = (np.atleast_1d(p)[:, None] for p in pose)
    c, s = np.cos(yaw), np.sin(yaw)
    return np.stack([x + c * footprint[:, 0] - s * footprint[:, 1],
                     y + s * footprint[:, 0] + c * footprint[:, 1]], axis=2)


def robot_at(v, w, heading, t):
    """The robot's vertices at time(s) t on its arc from the origin at `heading`, (T, 4, 2)."""
    return placed(ROBOT, arc_pose(v, w, heading, t))


def true_contact(v, w, heading, boxes):
    """First time the robot on its arc meets a box within the horizon, or None."""
    times = np.arange(0.0, HORIZON + STEP / 2, STEP)
    robots = shapely.polygons(robot_at(v, w, heading, times))
    first = None
    for box in boxes:
        hit = np.flatnonzero(shapely.intersects(robots, shapely.Polygon(box)))
        if not hit.size:
            continue
        lo, hi = times[max(hit[0] - 1, 0)], times[hit[0]]
        while hi - lo > 1e-9:
            mid = 0.5 * (lo + hi)
            if shapely.Polygon(robot_at(v, w, heading, mid)[0]).intersects(shapely.Polygon(box)):
                hi = mid
            else:
                lo = mid
        first = hi if first is None else min(first, hi)
    return first


def scene(rng, band):
    """A robot state and three boxes apart from the robot now."""
    v = rng.uniform(0.0, 1.2)
    w = rng.uniform(*band) * rng.choice([-1.0, 1.0])
    heading = rng.uniform(-math.pi, math.pi)
    robot = shapely.Polygon(robot_at(v, w, heading, 0.0)[0])
    boxes = []
    while len(boxes) < 3:
        size = rng.uniform(0.3, 1.0, 2)
        angle, dist, turn = rng.uniform(-math.pi, math.pi), rng.uniform(0.5, 3.0), rng.uniform(
            -math.pi, math.pi)
        corners = np.array([[0, 0], [size[0], 0], size, [0, size[1]]]) - size / 2
        c, s = math.cos(turn), math.sin(turn)
        offset = dist * np.array([math.cos(angle), math.sin(angle)])
        box = corners @ np.array([[c, s], [-s, c]]) + offset
        if not robot.intersects(shapely.Polygon(box)):
            boxes.append(box)
    return v, w, heading, boxes


def predicted(model, v, w, heading, boxes):
    """The model's first contact time of the robot with a box within the horizon, or None."""
    world = World()
    world.add_body('robot', ROBOT, pose=(0.0, 0.0, heading), predictor=model)
    for k, box in enumerate(boxes):
        world.add_body(f'box{k}', box, static=True, pose=(0.0, 0.0, 0.0))
    vx, vy = v * math.cos(heading), v * math.sin(heading)
    world.set_twists([[vx, vy, w]], ['robot'])
    if model != 'arc':  # the world acceleration of the arc: centripetal, w x v
        world.set_accelerations([[-w * vy, w * vx, 0.0]], ['robot'])
    times = world.predict(HORIZON).time
    return float(times.min()) if len(times) else None


def run(count, seed=1):
    """Rows ``(band, model, scenes, true collisions, predicted, false, missed, p50, p90)``,
    time errors in ms over the scenes both the model and the truth meet."""
    rows = []
    rng = np.random.default_rng(seed)
    for band in BANDS:
        cases = [scene(rng, band) for _ in range(count)]
        truths = [true_contact(v, w, h, boxes) for v, w, h, boxes in cases]
        for model in MODELS:
            found = [predicted(model, *case) for case in cases]
            errors = [abs(p - t) * 1e3 for p, t in zip(found, truths)
                      if p is not None and t is not None]
            rows.append((band, model, count, sum(t is not None for t in truths),
                         sum(p is not None for p in found),
                         sum(p is not None and t is None for p, t in zip(found, truths)),
                         sum(p is None and t is not None for p, t in zip(found, truths)),
                         np.percentile(errors, 50) if errors else math.nan,
                         np.percentile(errors, 90) if errors else math.nan))
    return rows


def first_meeting(a_at, b_at):
    """First time in [0, HORIZON] that polygons ``a_at(t)``, ``b_at(t)`` ((T, k, 2) for an
    array of T times) meet: 2 ms samples, then bisection to 1e-9 s; None when none do."""
    times = np.arange(0.0, HORIZON + STEP / 2, STEP)
    hit = np.flatnonzero(shapely.intersects(shapely.polygons(a_at(times)),
                                            shapely.polygons(b_at(times))))
    if not hit.size:
        return None
    if hit[0] == 0:
        return 0.0
    lo, hi = times[hit[0] - 1], times[hit[0]]
    while hi - lo > 1e-9:
        mid = 0.5 * (lo + hi)
        if shapely.Polygon(a_at(mid)[0]).intersects(shapely.Polygon(b_at(mid)[0])):
            hi = mid
        else:
            lo = mid
    return hi


def state_at(state, t):
    """Pose(s) at t of a robot ``(v, w, heading, x0, y0)``."""
    v, w, heading, x0, y0 = state
    return arc_pose(v, w, heading, t, x0, y0)


def fcl_screw_time(fcl, objects, states, i, j, request):
    """python-fcl's first contact time of bodies i and j over the horizon (None: none),
    each turn split into pieces under pi; ValueError when fcl answers -1 (unsupported)."""
    def transform(state, t):
        x, y, yaw = (float(p[0]) for p in state_at(state, t))
        c, s = math.cos(yaw), math.sin(yaw)
        return fcl.Transform(np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]),
                             np.array([x, y, 0.0]))

    turn = max(abs(states[i][1]), abs(states[j][1])) * HORIZON
    pieces = max(1, math.ceil(turn / (0.99 * math.pi)))
    ends = np.linspace(0.0, HORIZON, pieces + 1)
    for t0, t1 in zip(ends[:-1], ends[1:]):
        objects[i].setTransform(transform(states[i], t0))
        objects[j].setTransform(transform(states[j], t0))
        result = fcl.ContinuousCollisionResult()
        code = fcl.continuousCollide(objects[i], transform(states[i], t1), objects[j],
                                     transform(states[j], t1), request, result)
        if code < 0:
            raise ValueError('fcl: unsupported continuous collision setting')
        if result.is_collide:
            return t0 + result.time_of_contact * (t1 - t0)
    return None


def against_fcl(n, repeats=7, seed=3):
    """Ours and python-fcl on N turning robots: a dict of times (ms, medians) and the
    ``(missed, false, early, late)`` counts of each against the truth (errors over 1 us)
    with the worst error (s)."""
    import fcl
    from benchmarks.peers import fcl_prism

    rng = np.random.default_rng(seed)
    side = math.sqrt(n * 2.5)
    footprint = ROBOT * [0.9, 1.0]
    states = [(rng.uniform(0.0, 1.0), rng.uniform(-3.0, 3.0), rng.uniform(-math.pi, math.pi),
               *rng.uniform(0.0, side, 2)) for _ in range(n)]
    world = World()
    for k, (v, w, h, x, y) in enumerate(states):
        world.add_body(f'r{k}', footprint, pose=(x, y, h))
        world.set_twists([[v * math.cos(h), v * math.sin(h), w]], [k])
    ours = world.predict(HORIZON)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        ours = world.predict(HORIZON)
        times.append(time.perf_counter() - t0)
    ours = {tuple(p): t for p, t in zip(ours.pairs.tolist(), ours.time.tolist()) if t > 0.0}
    radius = float(np.hypot(*footprint[0]))
    centres = np.array([s[3:] for s in states])
    reach = np.array([s[0] * HORIZON + radius for s in states])
    candidates = [(i, j) for i in range(n) for j in range(i + 1, n)
                  if np.hypot(*(centres[i] - centres[j])) <= reach[i] + reach[j]]
    request = fcl.ContinuousCollisionRequest()
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_SCREW
    request.ccd_solver_type = fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT
    request.gjk_solver_type = fcl.GJKSolverType.GST_LIBCCD
    objects = [fcl.CollisionObject(fcl_prism(fcl, footprint), fcl.Transform())
               for _ in range(n)]
    peer, fcl_times = {}, []
    for _ in range(max(1, repeats // 2)):
        t0 = time.perf_counter()
        for i, j in candidates:
            t = fcl_screw_time(fcl, objects, states, i, j, request)
            if t is not None:
                peer[(i, j)] = t
        fcl_times.append(time.perf_counter() - t0)

    def at(k, ts):
        return placed(footprint, state_at(states[k], ts))

    truth, now = {}, set()
    for i, j in candidates:
        t = first_meeting(lambda ts, k=i: at(k, ts), lambda ts, k=j: at(k, ts))
        if t == 0.0:
            now.add((i, j))
        elif t is not None:
            truth[(i, j)] = t
    # a graze the samples step over: a reported time at which the true polygons touch
    for got in (ours, peer):
        for (i, j), t in got.items():
            if (i, j) not in now and t < truth.get((i, j), math.inf) - 1e-6 and shapely.Polygon(
                    at(i, t)[0]).distance(shapely.Polygon(at(j, t)[0])) <= 1e-9:
                truth[(i, j)] = t
    peer = {p: t for p, t in peer.items() if p not in now}

    def errors(got):
        both = set(got) & set(truth)
        return (len(set(truth) - set(got)), len(set(got) - set(truth)),
                sum(got[p] < truth[p] - 1e-6 for p in both),
                sum(got[p] > truth[p] + 1e-6 for p in both),
                max((abs(got[p] - truth[p]) for p in both), default=0.0))

    return {'n': n, 'true': len(truth), 'candidates': len(candidates),
            'ours_ms': 1e3 * float(np.median(times)),
            'fcl_ms': 1e3 * float(np.median(fcl_times)),
            'ours': errors(ours), 'fcl': errors(peer)}


def tick_ratio(n, rounds=7, ticks=30, seed=5):
    """Median ms of a tick (set_motion + step(2 s)) on `make_scene`'s N bodies (every one
    turning, |w| up to 0.5 rad/s), under ``arc`` and under ``constant_acceleration``, taking
    turns round by round on one thread; returns ``(arc ms, point ms, median ratio)``."""
    from benchmarks.scenes import make_scene

    worlds, medians = {}, {m: [] for m in ('arc', 'constant_acceleration')}
    for model in medians:
        world = worlds[model] = World()
        world.threads, world.predictor = 1, model
        for k, shape in enumerate(make_scene(n, 8, 0.02, seed=seed).footprints):
            world.add_body(f'b{k}', shape)
    every = np.arange(n)
    ratios = []
    for _ in range(rounds):
        for model, world in worlds.items():
            scene = make_scene(n, 8, 0.02, seed=seed)
            times = []
            for k in range(ticks):
                scene.advance(0.02)
                t0 = time.perf_counter()
                world.set_motion(scene.poses, scene.twists, scene.accels, every)
                world.step(HORIZON, stamp=0.02 * k)
                times.append(time.perf_counter() - t0)
            medians[model].append(float(np.median(times[3:])))
        ratios.append(medians['arc'][-1] / medians['constant_acceleration'][-1])
    return (1e3 * float(np.median(medians['arc'])),
            1e3 * float(np.median(medians['constant_acceleration'])), float(np.median(ratios)))


def markdown(rows):
    """The rows as a markdown table."""
    out = ['| turn rate (rad/s) | model | true collisions | predicted | false warnings | misses '
           '| time error p50 (ms) | p90 (ms) |',
           '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |']
    for band, model, _, true, pred, false, missed, p50, p90 in rows:
        out.append(f'| {band[0]:g} to {band[1]:g} | {model} | {true} | {pred} | {false} | '
                   f'{missed} | {p50:.4g} | {p90:.4g} |')
    return '\n'.join(out)


def main(argv=None):
    """Print the table; with --write, put it into docs/prediction.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--scenes', type=int, default=200, help='scenes per turn-rate band')
    parser.add_argument('--write', action='store_true', help='update docs/prediction.md')
    args = parser.parse_args(argv)
    table = markdown(run(args.scenes))
    print(table)
    if args.write:
        text = DOC.read_text()
        head, rest = text.split(MARKERS[0])
        _, tail = rest.split(MARKERS[1])
        caption = (f'\n{args.scenes} scenes per band (`python -m benchmarks.turning --scenes '
                   f'{args.scenes}`).\n\n')
        DOC.write_text(f'{head}{MARKERS[0]}{caption}{table}\n\n{MARKERS[1]}{tail}')


if __name__ == '__main__':
    main()
