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
"""Run the benchmark suite and write docs/benchmarks.md and the plots in docs/img/.

Usage: ``make bench`` (or ``python -m benchmarks [--quick]``).  Times are medians over
repeated ticks; ratios compare libraries within this one run, on the same scenes.
"""

import argparse
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np
from tqdm import tqdm

from benchmarks.peers import PEERS, Shapely
from benchmarks.scenes import make_scene, make_warehouse

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / 'docs'
LATENCY_ROUNDS = 3
"""Runs of each latency measure (10 s each); the report gives the median p50 and p99."""


def median_tick(adapter, scene, min_ticks=5, max_ticks=60, budget=3.0, dt=0.02):
    """Median seconds per tick: advance the scene, tick, repeat within a time budget."""
    times = []
    start = time.perf_counter()
    while len(times) < max_ticks and (len(times) < min_ticks
                                      or time.perf_counter() - start < budget):
        scene.advance(dt)
        t = time.perf_counter()
        adapter.tick(scene.poses)
        times.append(time.perf_counter() - t)
    return float(np.median(times)), len(times)


def detection(sizes, progress, rounds=7):
    """Detection (with contacts for ours) for every peer at every N, plus agreement.

    Every library is set up on the same scene, its pairs checked against shapely's, then the
    libraries take turns: in each of `rounds` rounds each runs a batch of ticks on its own
    copy of the moving scene.  A library's time is the median over rounds of its batch
    medians; its ratio to ours is the median over rounds of the two batch medians' ratio
    (both measured minutes apart at most, under the same load).

    Rows: ``(n, name, seconds, ticks, disagree, setup seconds, ratio to ours)``.
    """
    rows = []
    for n in sizes:
        scene = make_scene(n, 8, 0.02, seed=n)
        truth = Shapely.pairs(Shapely(scene).tick(scene.poses))
        running = {}
        for peer in PEERS:
            progress.set_description(f'detect N={n} {peer.name} (setup)')
            if getattr(peer, 'max_bodies', None) and n > peer.max_bodies:
                rows.append((n, peer.name, np.nan, 0, 'not run (setup too slow)', 0.0, np.nan))
                continue
            t0 = time.perf_counter()
            try:
                adapter = peer(make_scene(n, 8, 0.02, seed=n))
            except Exception as err:  # a peer that cannot take the scene is reported, not fatal
                rows.append((n, peer.name, np.nan, 0, f'setup failed: {err}', 0.0, np.nan))
                continue
            setup = time.perf_counter() - t0
            disagree = len(peer.pairs(adapter.tick(scene.poses)) ^ truth)
            running[peer.name] = (adapter, make_scene(n, 8, 0.02, seed=n), disagree, setup)
        batches = {name: [] for name in running}
        ticks = dict.fromkeys(running, 0)
        small = n <= 100
        for r in range(rounds):
            progress.set_description(f'detect N={n} round {r + 1}/{rounds}')
            for name, (adapter, moving, _, _) in running.items():
                t, k = median_tick(adapter, moving, min_ticks=3, max_ticks=2000 if small else 20,
                                   budget=0.3 if small else 1.0)
                batches[name].append(t)
                ticks[name] += k
        ours = np.array(batches['collision_monitor'])
        for name, (_, _, disagree, setup) in running.items():
            ratio = float(np.median(np.array(batches[name]) / ours))
            rows.append((n, name, float(np.median(batches[name])), ticks[name], disagree,
                         setup, ratio))
        rows.append((n, 'touching pairs (shapely)', float(len(truth)), 0, 0, 0.0, np.nan))
        progress.update()
    return rows


def scene_variants(n, progress):
    """Ours and shapely on sparse/dense, convex/concave, 4 to 32 vertices."""
    from benchmarks.peers import Ours
    rows = []
    for vertices, overlap, concave in [(4, 0.02, False), (8, 0.02, False), (32, 0.02, False),
                                       (8, 0.2, False), (8, 0.02, True), (8, 0.2, True),
                                       (32, 0.2, True)]:
        progress.set_description(f'scenes k={vertices} {overlap:.0%} '
                                 f'{"concave" if concave else "convex"}')
        scene = make_scene(n, vertices, overlap, concave=concave, seed=7)
        ours, ref = Ours(scene), Shapely(scene)
        truth = Shapely.pairs(ref.tick(scene.poses))
        disagree = len(Ours.pairs(ours.tick(scene.poses)) ^ truth)
        t_ours, _ = median_tick(ours, make_scene(n, vertices, overlap, concave, seed=7))
        t_ref, _ = median_tick(ref, make_scene(n, vertices, overlap, concave, seed=7))
        rows.append((vertices, overlap, concave, len(truth) * 2 / n, t_ours, t_ref, disagree))
        progress.update()
    return rows


WAREHOUSE_SIZES = ((1000, 200), (10000, 2000))
"""(Static shelves, robots) of the warehouse scenes."""

HORIZONS = (0.25, 0.5, 1.0, 2.0)
"""Look-ahead horizons (s) of the step / detect sweep: the fixed cost of a look-ahead apart
from the pairs that meet."""


def _world(scene, threads):
    """A `CollisionWorld` with the scene's bodies, twists and accelerations."""
    from collision_monitor import CollisionWorld
    world = CollisionWorld()
    world.threads = threads
    for k, fp in enumerate(scene.footprints):
        world.add_body(f'b{k}', fp)
    world.set_twists(scene.twists)
    world.set_accelerations(scene.accels)
    return world


def _interleaved(scene, worlds, tick, repeats, dt):
    """Median seconds of ``set_poses + tick(label, world)`` per world, the scene moving on
    by dt before each round and every world ticking in turn in a round (so that a busy
    spell of the shared host falls on all of them), the first three rounds dropped; and
    each tick's last result."""
    ts = {label: [] for label in worlds}
    last = {}
    for _ in range(repeats):
        scene.advance(dt)
        for label, world in worlds.items():
            t = time.perf_counter()
            world.set_poses(scene.poses)
            last[label] = tick(label, world)
            ts[label].append(time.perf_counter() - t)
    return {label: float(np.median(ts[label][3:])) for label in worlds}, last


def lookahead(sizes, progress, repeats=40, dt=0.02):
    """Ticks of new poses -> detect, and new poses -> step (detect and predict(2 s) with one
    broad phase), per predictor, one thread; and constant acceleration on two threads (the
    time-of-collision search runs over the pairs in parallel).  One world each, the same
    moving scene, interleaved.  Then, in a run of its own, constant acceleration at each of
    `HORIZONS` against detect."""
    labels = {'detect': 1, 'constant_velocity': 1, 'constant_acceleration': 1,
              'constant_acceleration, 2 threads': 2}

    def tick(label, world):
        if label == 'detect':
            return world.detect()
        predictor, horizon = (label.split(',')[0], 2.0) if isinstance(label, str) else label
        return len(world.step(horizon, predictor)[1])

    rows = []
    for n in sizes:
        progress.set_description(f'look-ahead N={n}')
        scene = make_scene(n, 8, 0.02, seed=3)
        worlds = {label: _world(scene, threads) for label, threads in labels.items()}
        times, last = _interleaved(scene, worlds, tick, repeats, dt)
        out = {label: (times[label], last[label] if label != 'detect' else 0)
               for label in labels}
        out['meeting pairs alone'] = (meeting_pairs_alone(worlds['constant_acceleration'],
                                                          repeats), 0)
        out['swept boxes alone'] = (swept_boxes_alone(worlds['constant_acceleration'],
                                                      repeats), 0)
        sweep = {'detect': worlds['detect']}
        sweep.update({('constant_acceleration', h): _world(scene, 1) for h in HORIZONS})
        times, last = _interleaved(scene, sweep, tick, repeats, dt)
        out['by horizon'] = {h: (times['constant_acceleration', h] / times['detect'],
                                 last['constant_acceleration', h]) for h in HORIZONS}
        rows.append((n, out))
        progress.update()
    return rows


def _median_call(function, args, repeats):
    """Seconds (median of `repeats` timed calls, after one untimed) of ``function(*args)``."""
    function(*args)
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        function(*args)
        ts.append(time.perf_counter() - t)
    return float(np.median(ts))


def meeting_pairs_alone(world, repeats):
    """Seconds (median) of the constant-acceleration first-contact search over exactly the
    pairs `world.predict(2 s)` finds meeting later than now (found beforehand, untimed): the
    part of a look-ahead no broad phase or culling can remove, since every such pair needs
    its exact time."""
    from collision_monitor.kernels.toi import first_contacts
    predicted = world.predict(2.0, 'constant_acceleration')
    pairs = np.ascontiguousarray(predicted.pairs[predicted.time > 0.0])
    view = world.view()
    most = int(np.diff(view.bodies.vstart).max())
    return _median_call(first_contacts, (
        (pairs, np.zeros(pairs.shape[0], np.bool_)), pairs.shape[0], _motion(world, view),
        view.bodies, (view.boxes, view.swept_boxes), _models(world), 2.0,
        np.zeros((1, 2, 4, most, 2)), np.zeros((1, 2, most)), np.zeros((pairs.shape[0], 8))),
        repeats)


def swept_boxes_alone(world, repeats):
    """Seconds (median) of `kinematics.swept_boxes` over the world's bodies (constant
    acceleration, 2 s, one thread): the other part of a look-ahead that no culling removes,
    every body's box swept over the horizon once."""
    from collision_monitor.kernels.threads import set_kernel_threads
    from collision_monitor.kernels.kinematics import swept_boxes
    set_kernel_threads(1)
    view = world.view()
    return _median_call(swept_boxes, (
        _motion(world, view), world.active, view.bodies.radius, view.boxes, _models(world),
        2.0, np.zeros_like(view.swept_boxes)), repeats)


def _motion(world, view):
    """The world's `packed.Motion`, read through its public views."""
    from collision_monitor.kernels.packed import Motion
    return Motion(world.poses, view.twists, view.accelerations)


def _models(world):
    """Every body under constant acceleration, as the kernels take models."""
    from collision_monitor.kernels.constants import MotionModel
    return np.full(len(world.names), int(MotionModel.CONSTANT_ACCELERATION), np.intp)


def lower_bound(sizes, ticks=65):
    """Our tick against the work no tick can skip, on the same ticks: each tick moves the
    scene on by 20 ms and runs our tick (set_poses + detect, one thread), then on the same
    poses the lower bound: reading every pose once into its box (`place_bodies`) and
    describing every contact (`narrow_phase` over exactly the pairs that tick found touching),
    as compiled calls on prepared arrays.  The two alternate, so they see the same data and
    the same load.  Our tick adds the pose checks and copy of `set_poses`, the broad phase
    (the fat-box check; bodies that left their fat boxes refiled, or the grid), the
    candidate pairs that do not touch, and the Python of `Contacts`.  Rows ``(n, ours s,
    bound s)``, medians over the ticks after the first five."""
    from collision_monitor import CollisionWorld
    from collision_monitor.kernels.narrowphase import narrow_phase, place_bodies
    from collision_monitor.kernels.packed import ContactRows, Features
    rows = []
    for n in sizes:
        scene = make_scene(n, 8, 0.02, seed=n)
        world = CollisionWorld()
        world.threads = 1
        for k, fp in enumerate(scene.footprints):
            world.add_body(f'b{k}', fp)
        world.set_poses(scene.poses)
        world.detect()
        active = world.active.copy()
        bodies = world.view().bodies
        most = int(np.diff(bodies.vstart).max())
        boxes, placed_at = np.zeros((n, 4)), np.full((n, 3), np.nan)
        scratch = np.zeros((2, most, 2))
        out = (ContactRows(np.zeros((4 * n, 2), np.intp), np.zeros(4 * n, np.int8),
                           np.zeros((4 * n, 2)), np.zeros(4 * n), np.zeros(4 * n + 1, np.intp)),
               Features(np.zeros((16 * n, 2)), np.zeros((16 * n, 2)), np.zeros(16 * n, np.int8),
                        np.zeros((16 * n, 2), np.intp)))
        ours, bound = [], []
        for _ in range(ticks):
            scene.advance(0.02)
            t = time.perf_counter()
            world.set_poses(scene.poses)
            touching = world.detect().pairs
            ours.append(time.perf_counter() - t)
            touching = np.ascontiguousarray(touching)
            t = time.perf_counter()
            place_bodies(scene.poses, active, bodies, boxes, placed_at)
            if touching.shape[0]:
                narrow_phase(touching, touching.shape[0], scene.poses, bodies, boxes, scratch,
                             *out)
            bound.append(time.perf_counter() - t)
        rows.append((n, float(np.median(ours[5:])), float(np.median(bound[5:]))))
    return rows


def compile_times():
    """Seconds to import and warm up the engine with an empty and with a filled cache."""
    code = ('import time; t = time.perf_counter(); from collision_monitor import World; '
            'World().warmup(); print(time.perf_counter() - t)')
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            proc = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                                  text=True, check=True, cwd=ROOT)
            out.append(float(proc.stdout.strip().splitlines()[-1]))
    return out


def peak_memory(n=100000):
    """Peak resident memory (MB) of a process holding N bodies through detect and predict,
    and of one that only imports and warms the engine.

    The child reads its own VmHWM: ru_maxrss would carry over the high-water mark of the
    process it was forked from (this one, large after the 100,000-body scenes) across exec.
    """
    code = ('import re, sys, numpy as np; from collision_monitor import CollisionWorld; '
            'from benchmarks.scenes import make_scene; w = CollisionWorld(); w.warmup(); '
            'n = int(sys.argv[1]); s = make_scene(n, 8, 0.02, seed=5) if n else None\n'
            'if n:\n'
            '    [w.add_body(f"b{k}", fp) for k, fp in enumerate(s.footprints)]\n'
            '    w.set_poses(s.poses); w.set_twists(s.twists); w.detect(); w.predict(2.0)\n'
            'status = open("/proc/self/status").read()\n'
            'print(int(re.search(r"VmHWM:\\s+(\\d+)", status).group(1)) / 1024)')
    out = []
    for count in (0, n):
        proc = subprocess.run([sys.executable, '-c', code, str(count)], capture_output=True,
                              text=True, check=True, cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        out.append(float(proc.stdout.strip().splitlines()[-1]))
    return out


def node_start():
    """Seconds from starting the node process to it being active: its log's "active:" line,
    and the first state message at an observer (which adds DDS discovery, about 2.5 s for
    the first start here, the observer's participant being new).  Three starts with numba's
    cache filled: a first, unreported start fills it with the node's own kernels."""
    from collision_monitor.tools.launcher import confine_dds, start_node, stop_node
    domain = 90 + os.getpid() % 10
    confine_dds(domain)
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    rclpy.init()
    node = rclpy.create_node('bench_probe')
    got = []
    qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
    node.create_subscription(DiagnosticArray, '/collision_monitor/state',
                             lambda m: got.append(time.perf_counter()), qos)
    active, observed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(4):
            log = pathlib.Path(tmp) / f'node{k}.log'
            got.clear()
            t_active = None
            t0 = time.perf_counter()
            proc = start_node(ROOT / 'config' / 'demo_warehouse.yaml', domain, log_path=log)
            while not got and time.perf_counter() - t0 < 60:
                rclpy.spin_once(node, timeout_sec=0.005)
                if t_active is None and log.exists() and 'active:' in log.read_text():
                    t_active = time.perf_counter()
            active.append(t_active - t0 if t_active else np.nan)
            observed.append(got[0] - t0 if got else np.nan)
            stop_node(proc)
    node.destroy_node()
    rclpy.shutdown()
    return active[1:], observed[1:]


def fastest_peer(det_rows, n):
    """``(name, seconds, ratio to ours)`` of the fastest peer at N = n."""
    skip = ('collision_monitor', 'collision_monitor, 2 threads', 'touching pairs (shapely)')
    return min(((r[1], r[2], r[6]) for r in det_rows
                if r[0] == n and r[1] not in skip and np.isfinite(r[2])), key=lambda p: p[1])


def plot(det_rows, path_time, path_speed):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    names = [p.name for p in PEERS]
    sizes = sorted({r[0] for r in det_rows})
    fig, ax = plt.subplots(figsize=(7, 5))
    for name in names:
        pts = [(r[0], r[2] * 1e3) for r in det_rows if r[1] == name and np.isfinite(r[2])]
        if pts:
            ax.loglog(*zip(*pts), 'o-', label=name)
    ax.set_xlabel('bodies N')
    ax.set_ylabel('ms per tick (median)')
    ax.set_title('Detection, 8-vertex convex bodies, ~2% touching')
    ax.grid(True, which='both', alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path_time, dpi=110)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 4))
    speed = []
    for n in sizes:
        speed.append(fastest_peer(det_rows, n)[2])
    ax.semilogx(sizes, speed, 'o-')
    ax.axhline(10, color='red', ls='--', lw=1, label='target 10x')
    ax.set_xlabel('bodies N')
    ax.set_ylabel('speed-up over the fastest peer')
    ax.grid(True, which='both', alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path_speed, dpi=110)
    plt.close(fig)


def format_3d(rows3d):
    """The 3D section of the report, as lines (rows from `benchmarks.bench3d.run`)."""
    lines = ['', '## 3D convex polyhedra (per query, Python call included)', '',
             'Random hulls of n points on a sphere at random offsets (the share in contact '
             'is in the second table). Ours: GJK (`convex_polyhedra_intersect`, '
             '`gjk_distance` on raw arrays, checked each call; the `intersects` and `distance` '
             "methods of `ConvexPolyhedron`, prepared once like fcl's objects; "
             '`gjk_distance_batch`, many pairs per call); python-fcl and Coal: `collide` and '
             '`distance` with nearest points on Convex objects, request and result objects '
             'reused. Every measure runs once per round, in turn, over several rounds; times '
             'are medians over the rounds and a ratio is the median of peer time / ours '
             'within each round (both under the same load).', '',
             '| vertices | ours intersect us (prepared) | Coal collide us | ratio | '
             'ours distance us (prepared, batch) | Coal distance us | ratio (prepared, batch) '
             '| disagree with Coal |',
             '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    for r in rows3d:
        lines.append(
            f'| {r["n"]} | {r["intersect"] * 1e6:.2f} | {r["coal_collide"] * 1e6:.2f} | '
            f'{r["ratio_intersect_coal"]:.2f}x | {r["distance"] * 1e6:.2f}, '
            f'{r["distance_batch"] * 1e6:.2f} | {r["coal_distance"] * 1e6:.2f} | '
            f'{r["ratio_distance_coal"]:.2f}x, {r["ratio_distance_batch_coal"]:.2f}x | '
            f'{r["disagree_coal"]} |')
    lines += ['', 'The same queries against python-fcl:', '',
              '| vertices | ours intersect us (raw, prepared) | fcl collide us | ratio (prepared) '
              '| ours distance us (raw, prepared) | ours batch distance us | fcl distance us | '
              'ratio (prepared, batch) | disagree |',
              '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    for r in rows3d:
        lines.append(
            f'| {r["n"]} | {r["intersect_raw"] * 1e6:.1f}, {r["intersect"] * 1e6:.1f} | '
            f'{r["fcl_collide"] * 1e6:.1f} | {r["ratio_intersect"]:.1f}x | '
            f'{r["distance_raw"] * 1e6:.1f}, {r["distance"] * 1e6:.1f} | '
            f'{r["distance_batch"] * 1e6:.2f} | {r["fcl_distance"] * 1e6:.1f} | '
            f'{r["ratio_distance"]:.1f}x, {r["ratio_distance_batch"]:.1f}x | '
            f'{r["disagree"]} |')
    lines += ['', "Contacts: ours is the full manifold (Baraff's plane over face and "
              'Minkowski-face edge-edge axes, stopping at the first axis wider than eps, GJK '
              'only when the gap is in (0, eps], then the clipped polygon): from raw arrays '
              '(each call checks both meshes; one pass, outside the rounds), on '
              '`ConvexPolyhedron` objects checked once, and per pair of one '
              '`PolyhedronSet.contact_manifolds` call over all pairs (parallel over the pairs, '
              'the batch API). fcl: `collide` with `enable_contact` (one contact point and '
              'normal per convex pair).', '',
              '| vertices | pairs in contact | ours manifold us: raw, prepared, batch | '
              'fcl collide + contacts us | ratio (prepared, batch) |',
              '| ---: | ---: | ---: | ---: | ---: |']
    for r in rows3d:
        lines.append(
            f'| {r["n"]} | {r["in_contact"]:.0%} | {r["manifold_raw"] * 1e6:.0f}, '
            f'{r["manifold"] * 1e6:.1f}, {r["manifold_batch"] * 1e6:.1f} | '
            f'{r["fcl_contacts"] * 1e6:.1f} | {r["ratio_manifold"]:.2f}x, '
            f'{r["ratio_manifold_batch"]:.2f}x |')
    lines += ['', 'Resting contact (b slid to touch a along a random direction, then 1 mm in; '
              'every pair in contact):', '',
              '| vertices | ours manifold us: prepared, batch | fcl collide + contacts us | '
              'ratio (prepared, batch) |',
              '| ---: | ---: | ---: | ---: |']
    for r in rows3d:
        lines.append(
            f'| {r["n"]} | {r["resting"] * 1e6:.1f}, {r["resting_batch"] * 1e6:.1f} | '
            f'{r["fcl_resting"] * 1e6:.1f} | {r["ratio_resting"]:.2f}x, '
            f'{r["ratio_resting_batch"]:.2f}x |')
    return lines


def _toi_row(n, true, candidates, ours_ms, fcl_ms, ours, fcl, worst):
    """A row of the time-of-impact tables: `ours` and `fcl` are the error counts, `worst`
    the two worst errors (s)."""
    return (f'| {n} | {true} | {candidates} | {ours_ms:.3f} | {fcl_ms:.3f} | '
            f'{fcl_ms / ours_ms:.1f}x | {" / ".join(map(str, ours))} | '
            f'{" / ".join(map(str, fcl))} | {worst[0]:.1e}, {worst[1]:.1e} |')


def format_turning(turning):
    """The turning robots' sections: time of impact against python-fcl's screw motion, and
    the per-tick cost of the arc model against the point model."""
    from benchmarks.turning import __doc__ as doc
    peers = doc.split('Peers (`against_fcl`, a table of docs/benchmarks.md): ')[1].split(
        '\n\nUsage')[0].replace('\n', ' ')
    lines = ['', '### Time of impact of turning robots against python-fcl (screw motion)', '',
             peers, '',
             '| N | true pairs | candidates (fcl) | ours ms | fcl ms | speed-up | '
             'ours missed / false / early / late by > 1 us | fcl missed / false / early / '
             'late | worst error ours, fcl (s) |',
             '| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |']
    for row in turning['fcl']:
        lines.append(_toi_row(row['n'], row['true'], row['candidates'], row['ours_ms'],
                              row['fcl_ms'], row['ours'][:4], row['fcl'][:4],
                              (row['ours'][4], row['fcl'][4])))
    lines += ['', "Box2D v3's `b2TimeOfImpact` (`box2d-python`): not run; its wheels need Python "
              f'3.12 or later, and this machine has Python {platform.python_version()} only.']
    lines += ['', '### Per-tick cost of the arc model against the point model', '',
              '`set_motion` + `step(2 s)` on `make_scene` (regular 8-gons, every body turning '
              'at up to 0.5 rad/s, speeds up to 1 m/s), one thread, the two models taking '
              'turns over 7 rounds of 30 ticks (`benchmarks.turning.tick_ratio`).', '',
              '| N | arc ms | constant_acceleration ms | ratio (median of rounds) |',
              '| ---: | ---: | ---: | ---: |']
    lines += [f'| {n} | {arc:.3f} | {point:.3f} | {ratio:.2f} |'
              for n, arc, point, ratio in turning['ratio']]
    return lines


def report(det, variants, warehouse, look, continuous, bound, compiles, start_times, sizes,
           latency, breakdown, rows3d, memory, replay_start, replay_rows, replay_command,
           turning):
    lines = ['# Benchmarks', '',
             f'Written by `make bench` on {time.strftime("%Y-%m-%d")}, {platform.machine()}, '
             f'{os.cpu_count()} cores, Python {platform.python_version()}. Medians over '
             'repeated ticks; every library ran in the same process on the same scenes. '
             'A shared, noisy machine: compare ratios, not absolute times.', '',
             '## Detection', '',
             'N bodies, regular 8-gons of circumradius 0.5 m, uniform in a square sized for '
             '~2% of bodies touching, moving up to 1 m/s; each tick sets all N poses from '
             'arrays (or one by one where the library has no array API) and lists every '
             "touching pair. Ours also computes every contact's features (classification, "
             'points, normal, depth). "disagree" counts pairs that differ from shapely\'s.', '',
             '| N | library | ms / tick | ticks | disagree | setup s | its time / ours |',
             '| --- | --- | ---: | ---: | ---: | ---: | ---: |']
    for n, name, t, ticks, disagree, setup, ratio in det:
        if name.startswith('touching'):
            lines.append(f'| {n} | touching pairs | {int(t)} | | | | |')
        else:
            lines.append(f'| {n} | {name} | {t * 1e3:.4f} | {ticks} | {disagree} | '
                         f'{setup:.1f} | {ratio:.1f} |')
    lines += ['', '![time per tick](img/bench_detect.png)',
              '![speed-up](img/bench_speedup.png)', '',
              'How each library is driven (its fastest documented way for this task):', '']
    lines += [f'- **{peer.name}**: {" ".join(peer.__doc__.split())}' for peer in PEERS]
    ours = {r[0]: r[2] for r in det if r[1] == 'collision_monitor'}
    lines += ['', '| N | fastest peer | its ms | ours ms | speed-up (median of rounds) | '
              'ns per body (ours, beside the bound) | lower bound ns per body | '
              'ours / lower bound |',
              '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |']
    nan2 = (np.nan, np.nan)  # not measured for a handful of bodies
    for n in sizes:
        name, t_peer, ratio = fastest_peer(det, n)
        beside, lb = {b[0]: b[1:] for b in bound}.get(n, nan2)
        lines.append(f'| {n} | {name} | {t_peer * 1e3:.4f} | {ours[n] * 1e3:.4f} | '
                     f'{ratio:.1f}x | {beside / n * 1e9:.0f} | {lb / n * 1e9:.0f} | '
                     f'{beside / lb:.2f} |')
    big = [n for n in sizes if n >= 1000]
    if len(big) >= 2:
        k = np.polyfit(np.log(big), np.log([ours[n] for n in big]), 1)[0]
        explained = ' '.join(lower_bound.__doc__.split())
        lines += ['', f'Scaling exponent of our detection from N = {big[0]} to {big[-1]}: '
                      f'time ~ N^{k:.2f}. The lower bound: {explained}']
    lines += ['', '## Scenes (N = 10,000)', '',
              '| vertices | touching target | footprint | touching measured | ours ms | '
              'shapely ms | speed-up | disagree |',
              '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |']
    for k, overlap, concave, measured, t_ours, t_ref, disagree in variants:
        lines.append(f'| {k} | {overlap:.0%} | {"concave star" if concave else "convex"} | '
                     f'{measured:.1%} | {t_ours * 1e3:.3f} | {t_ref * 1e3:.3f} | '
                     f'{t_ref / t_ours:.1f}x | {disagree} |')
    from benchmarks.warehouse import WAREHOUSE_PEERS
    lines += ['', '## Warehouse: static shelves, robots in the aisles', '',
              ' '.join(make_warehouse.__doc__.split()) + ' Each tick moves the robots on by '
              '20 ms and hands every library their poses alone; each was told at setup which '
              'bodies never move. "disagree" counts pairs that differ from shapely\'s over all '
              'bodies at the first tick.', '',
              '| shelves | robots | library | ms / tick | disagree | its time / ours |',
              '| ---: | ---: | --- | ---: | ---: | ---: |']
    for shelves, robots, name, t, disagree, ratio, touching in warehouse:
        lines.append(f'| {shelves} | {robots} | {name} | {t * 1e3:.4f} | {disagree} | '
                     f'{ratio:.1f} |')
    lines += ['', 'Touching pairs at the first tick: ' + ', '.join(
        f'{touching} of {shelves} shelves and {robots} robots' for shelves, robots, name, _,
        _, _, touching in warehouse if name == WAREHOUSE_PEERS[0].name) + '.', '',
              'How each library is driven:', '']
    lines += [f'- **{peer.name}**: {" ".join(peer.__doc__.split())}'
              for peer in WAREHOUSE_PEERS]
    lines += ['', '## Look-ahead (horizon 2 s, speeds up to 1 m/s, accelerations up to '
              '2 m/s^2)', '',
              'Each tick sets new poses (the scene moving on by 20 ms), then either `detect` '
              'alone or `step`: the same contacts plus every first contact within 2 s, one '
              'broad phase for both. One world per column, ticks interleaved. What no '
              'look-ahead can skip, each timed alone on the same world: "meeting pairs", the '
              'constant-acceleration first-contact search over exactly the pairs that meet '
              'later within the horizon (found beforehand, untimed), and "swept boxes", every '
              "body's box swept over the horizon once; \"bound / detect\" is (detect + both) "
              '/ detect, the least step / detect (CA) any culling could reach with this '
              'search.',
              '', '| N | set_poses + detect ms | set_poses + step, constant velocity ms | '
              'set_poses + step, constant acceleration ms | the same on 2 threads ms | '
              'step / detect (CV) | step / detect (CA) | pairs predicted (CA) | '
              'meeting pairs ms | swept boxes ms | bound / detect |',
              '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    for n, out in look:
        d, cv, ca = out['detect'][0], out['constant_velocity'][0], out['constant_acceleration'][0]
        ca2 = out['constant_acceleration, 2 threads'][0]
        alone, swept = out['meeting pairs alone'][0], out['swept boxes alone'][0]
        lines.append(f'| {n} | {d * 1e3:.3f} | {cv * 1e3:.3f} | {ca * 1e3:.3f} | '
                     f'{ca2 * 1e3:.3f} | {cv / d:.2f} | {ca / d:.2f} | '
                     f'{out["constant_acceleration"][1]} | {alone * 1e3:.3f} | '
                     f'{swept * 1e3:.3f} | {(d + alone + swept) / d:.2f} |')
    lines += ['', '### Step / detect by horizon (constant acceleration, one thread)', '',
              'The same scene in a run of its own: detect, and step at each horizon, one '
              'world each, interleaved. Short horizons leave few pairs to meet, so what '
              "remains is the fixed cost of a look-ahead: every body's box swept over the "
              'horizon, the check that the kept candidates still hold, and every candidate '
              "pair's test (reach circles, touching now or not) before any search. "
              'Predictions include the pairs touching now (time 0).', '',
              '| N | ' + ' | '.join(f'{h:g} s: step / detect (predictions)' for h in HORIZONS)
              + ' |', '| ---: |' + ' ---: |' * len(HORIZONS)]
    for n, out in look:
        lines.append(f'| {n} | ' + ' | '.join(
            f'{ratio:.2f} ({count})' for ratio, count in out['by horizon'].values()) + ' |')
    lines += ['', '### Time of impact against python-fcl (translation only)', '',
              'Constant velocity without rotation, where both are exact. Ours: '
              '`predict(2 s)` for all N bodies, broad phase included. python-fcl: '
              '`continuousCollide` (translation, conservative advancement, libccd) on only '
              'the pairs whose swept boxes overlap, that list given to it untimed. Truth: '
              'shapely dense sampling (400 steps) plus bisection to 1e-9 s on every pair '
              'either reports.', '',
              '| N | true pairs | candidates (fcl) | ours ms | fcl ms | speed-up | '
              'ours missed / false / off by > 1 us | fcl missed / false / off by > 1 us | '
              'worst error ours, fcl (s) |',
              '| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |']
    for row in continuous:
        om, _, of, ow, oo = row['ours_errors']
        fm, _, ff, fw, fo = row['fcl_errors']
        lines.append(_toi_row(row['n'], row['pairs_true'], row['candidates'], row['ours_ms'],
                              row['fcl_ms'], (om, of, oo), (fm, ff, fo), (ow, fw)))
    lines += format_turning(turning)
    lines += format_3d(rows3d)
    lines += ['', '## Start-up', '',
              f'- numba compile of every tick kernel (import + warm-up), empty cache: '
              f'{compiles[0]:.1f} s; cached: {compiles[1]:.2f} s.',
              '- node process start to active, cached kernels (a first start, not shown, '
              "fills the cache with the node's own), three starts: "
              f'{", ".join(f"{t:.2f}" for t in start_times[0])} s by its log; first state '
              f'message at an observer: {", ".join(f"{t:.2f}" for t in start_times[1])} s '
              '(DDS discovery of the new participant, up to 2.6 s more, can delay the first).',
              f'- peak resident memory: {memory[0]:.0f} MB for the warmed-up engine alone, '
              f'{memory[1]:.0f} MB with 100,000 bodies through detect and predict.', '',
              '## End to end over DDS (bulk PoseArray at 47 Hz, node timer at 50 Hz)', '',
              'Latency: from publishing the poses to the node publishing the next warnings '
              "message (the DDS writer's source timestamp of its sample; one wall clock), "
              f'medians over {LATENCY_ROUNDS} '
              'interleaved runs of 10 s (samples: all runs). With the timer alone it includes the '
              'wait for the next tick, uniform over 0 to 20 ms; `tick_on_source` ticks on '
              'arrival. Four pairs of bodies close in and part again in turn, so that the node '
              'warns of a collision on every tick, as it does when a warning matters (the '
              'last column: the share of samples whose warnings message names a pair; the echo '
              "node's are empty).", '',
              '| bodies | mode | latency p50 ms | latency p99 ms | tick overruns | samples | '
              'samples warning of a pair |',
              '| ---: | --- | ---: | ---: | ---: | ---: | ---: |']
    lines += [f'| {n} | {mode} | {p50:.2f} | {p99:.2f} | {over:.2%} | {count} | {warned:.0%} |'
              for n, mode, p50, p99, over, count, warned in latency]
    lines += ['', 'The echo node is the floor of this measure: an rclpy node that answers each '
              'PoseArray with an empty warnings message, published as serialized bytes as '
              "the node publishes its own (DDS transport and rclpy's executor, the one the "
              'node runs: nothing of ours). The driver computes the poses, then reads its '
              'clock, writes the stamp and publishes serialized bytes with the poses written '
              "in place (a C++ publisher's cost): rclpy's conversion of "
              'a 1,000-pose message from Python objects alone takes 1.3 ms.', '',
              "Where the node's time goes (`benchmarks.latency.callback_breakdown`): the node "
              "built in the benchmark's process, its PoseArray callback called directly with "
              'the serialized message (no DDS), medians of 400 calls back to back and of 400 '
              'calls each after 21 ms of sleep (the gap between messages at 47 Hz), us per '
              'message. Taking the poses is the parse, the checks and the pose histories.', '',
              '| bodies | calls | whole callback | taking the poses | `Monitor.predict` | of '
              "it the engine's `predict` | warnings message | `Monitor.detect` | contacts "
              'message |',
              '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    parts = ('callback', 'poses', 'predict', 'engine predict', 'warnings', 'detect',
             'contacts')
    for n, (row, _) in breakdown.items():
        for k, calls in enumerate(('back to back', 'after 21 ms idle')):
            lines.append(f'| {n} | {calls} | '
                         + ' | '.join(f'{row[p][k]:.0f}' for p in parts) + ' |')
    lines += ['', 'The warnings message is published after `Monitor.predict`, '
              'before `Monitor.detect` looks for the contacts: taking the poses and the '
              'prediction, as they cost after a pause, are what the latency above adds to the '
              'floor. The same work costs more after a pause than back to back: the caches it '
              'needs (the interpreter, numba dispatch, the arrays) have gone cold on this shared '
              'host, so the count of calls per tick weighs more than their arithmetic.', '',
              'How soon they go cold: the same calls, each after a sleep of the given gap '
              '(a sleep of 0.1 ms lasts a little longer), us per message, medians of 400.', '',
              '| bodies | calls | ' + ' | '.join(
                  f'after {gap * 1e3:.3g} ms' if gap else 'back to back'
                  for gap in next(iter(breakdown.values()))[1]) + ' |',
              '| ---: | --- |' + ' ---: |' * len(next(iter(breakdown.values()))[1])]
    for n, (_, by_gap) in breakdown.items():
        for k, calls in enumerate(('whole callback', "the engine's `predict`")):
            lines.append(f'| {n} | {calls} | '
                         + ' | '.join(f'{v[k]:.0f}' for v in by_gap.values()) + ' |')
    lines += ['', "The engine's `predict` is one compiled call: back to back it costs about "
              'what its arithmetic does, after a few milliseconds idle several times that.']
    lines += ['', '## Replay of a recorded bag', '',
              'A fleet of 100 robots (0.6 m x 0.4 m, up to 1 m/s, bouncing in a 100 m square) '
              'recorded as one PoseArray at 50 Hz (`benchmarks/replay_speed.py` writes the '
              "bag), replayed by `collision_monitor.tools.replay.replay` with the node's "
              'parameters at 50 Hz: wall time of the whole call (kernel warm-up, reading, '
              'ticking, writing the output bag, the CSV and the PNG), in blocks of the time '
              'line on every usable core (the default) and in one process. The benchmark '
              "process has run numba's OpenMP threads, so its blocks' processes come from a "
              'fork server and load the cached kernels themselves. A first call on a 1 s '
              f'bag took {replay_start:.2f} s: what a command pays once at start (numba '
              "loading the cached kernels, rosbags' type store, importing matplotlib; the "
              'command has run once before in a process of its own, filling the cache); the '
              'rows below come after it.', '',
              '| bag s | markers | processes | wall s | real time x | pairs reported |',
              '| ---: | --- | ---: | ---: | ---: | ---: |']
    lines += [f'| {length:g} | {_markers(rate)} | {jobs} | {wall:.2f} | {length / wall:.0f} '
              f'| {pairs} |' for length, rate, jobs, wall, pairs in replay_rows]
    length, wall = replay_command
    lines += ['', f'The command as a user runs it (`python -m collision_monitor.tools.replay BAG '
              f'--params-file P --output OUT`, markers at 10 Hz, blocks on every usable core), '
              f'a fresh process timed from its start to its exit, on a {length:g} s bag of the '
              f'same fleet: {wall:.1f} s, {length / wall:.0f}x real time with everything '
              'counted.']
    lines += ['', 'Reproduce: `make bench` (`python -m benchmarks --quick` for N up to 10,000).']
    (DOCS / 'benchmarks.md').write_text('\n'.join(lines) + '\n')


def _markers(rate):
    """How a replay row wrote ~/markers."""
    return 'no markers' if rate is None else f'markers at {rate:g} Hz'


def _processes(jobs):
    """How many processes a replay row ran on."""
    return 'one process' if jobs == 1 else f'blocks on {jobs} processes'


README_BEGIN = '<!-- benchmarks: the table below is written by make bench -->'
README_END = '<!-- benchmarks: end -->'


def readme_summary(det, warehouse, rows3d, latency, sizes, continuous, turning,
                   replay_command):
    """Replace the table between the README's benchmark markers with this run's figures: each
    measure beside its fastest peer, as a ratio."""
    ours = {r[0]: r[2] for r in det if r[1] == 'collision_monitor'}
    lines = [README_BEGIN, '',
             f'One `make bench` run, {time.strftime("%Y-%m-%d")}, {platform.machine()}, '
             f'{os.cpu_count()} cores, one thread ([docs/benchmarks.md](docs/benchmarks.md)).',
             '', '| measure | ours | fastest peer | ours is faster by |',
             '| --- | ---: | --- | ---: |']
    for n in sizes:
        name, t_peer, ratio = fastest_peer(det, n)
        lines.append(f'| set_poses + detect, {n:,} bodies | {ours[n] * 1e6:.1f} us | '
                     f'{name}, {t_peer * 1e6:.1f} us | {ratio:.1f}x |')
    from benchmarks.warehouse import Ours as WarehouseOurs, OursStep
    for shelves, robots in WAREHOUSE_SIZES:
        rows = {r[2]: r for r in warehouse if r[:2] == (shelves, robots)}
        name, t_peer, ratio = min(((r[2], r[3], r[5]) for r in rows.values()
                                   if r[2] not in (WarehouseOurs.name, OursStep.name)),
                                  key=lambda p: p[1])
        lines.append(f'| detect, warehouse of {shelves:,} shelves and {robots:,} robots '
                     f'| {rows[WarehouseOurs.name][3] * 1e6:.0f} us | {name}, '
                     f'{t_peer * 1e6:.0f} us | {ratio:.1f}x |')
    for row in continuous:
        lines.append(f'| time of impact, {row["n"]:,} bodies moving straight | '
                     f'{row["ours_ms"]:.2f} ms | python-fcl (given the candidates), '
                     f'{row["fcl_ms"]:.2f} ms | {row["fcl_ms"] / row["ours_ms"]:.0f}x |')
    for row in turning['fcl']:
        lines.append(f'| time of impact, {row["n"]:,} robots turning | '
                     f'{row["ours_ms"]:.2f} ms | python-fcl, screw (given the candidates), '
                     f'{row["fcl_ms"]:.1f} ms | {row["fcl_ms"] / row["ours_ms"]:.0f}x |')
    for r in rows3d:
        if r['n'] in (8, 64):
            lines.append(f'| 3D distance, prepared, {r["n"]} vertices | '
                         f'{r["distance"] * 1e6:.2f} us | Coal, {r["coal_distance"] * 1e6:.2f} us '
                         f'| {r["ratio_distance_coal"]:.2f}x |')
    floor = {n: (p50, p99) for n, mode, p50, p99, *_ in latency if mode.startswith('echo')}
    for n, mode, p50, p99, *_ in latency:
        if mode == 'tick_on_source':
            lines.append(f'| DDS pose to warning, p50 / p99, {n:,} bodies | {p50:.2f} / '
                         f'{p99:.2f} ms | echo node (the floor), '
                         f'{floor[n][0]:.2f} / {floor[n][1]:.2f} ms | (slower by '
                         f'{p50 - floor[n][0]:.2f} / {p99 - floor[n][1]:.2f} ms) |')
    length, wall = replay_command
    lines.append(f'| replay of a {length:g} s bag, 100 bodies at 50 Hz, all counted | '
                 f'{length / wall:.0f}x real time | no peer replays bags | |')
    lines += ['', README_END]
    readme = ROOT / 'README.md'
    text = readme.read_text()
    head, rest = text.split(README_BEGIN)
    tail = rest.split(README_END, 1)[1]
    readme.write_text(head + '\n'.join(lines) + tail)


def main(argv=None):
    """Run everything and write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--quick', action='store_true', help='N up to 10,000 only')
    args = parser.parse_args(argv)
    sizes = [10, 1000, 10000] if args.quick else [10, 1000, 10000, 100000]
    (DOCS / 'img').mkdir(parents=True, exist_ok=True)
    from collision_monitor import CollisionWorld
    CollisionWorld().warmup()
    steps = len(sizes) + 7 + len(WAREHOUSE_SIZES) + 2 + 2
    with tqdm(total=steps, file=sys.stderr) as progress:
        det = detection(sizes, progress)
        variants = scene_variants(10000, progress)
        from benchmarks.warehouse import run as run_warehouse
        warehouse = run_warehouse(WAREHOUSE_SIZES, progress)
        look = lookahead([1000, 10000], progress)
        from benchmarks.continuous import run as run_continuous
        continuous = []
        for n in (1000, 10000):
            progress.set_description(f'time of impact vs fcl N={n}')
            continuous.append(run_continuous(n))
            progress.update()
        from benchmarks.turning import against_fcl, tick_ratio
        progress.set_description('turning robots vs fcl, arc against point model')
        turning = {'fcl': [against_fcl(n) for n in (200, 1000)],
                   'ratio': [(n, *tick_ratio(n)) for n in (1000, 10000)]}
    bound = lower_bound([n for n in sizes if n >= 1000])
    compiles = compile_times()
    memory = peak_memory()
    start_times = node_start()
    from benchmarks.bench3d import run as run3d
    rows3d = run3d()
    from benchmarks.replay_speed import run as run_replay
    replay_start, replay_rows, replay_command = run_replay()
    from benchmarks.latency import callback_breakdown, measure
    modes = {'timer': {}, 'tick_on_source': {'tick_on_source': True},
             'echo node (floor)': {'floor': True}}
    # rounds interleaved, so that a busy spell of the shared host falls on every mode
    rounds = [[(n, mode, *measure(n, domain=70 + 3 * k + m, **modes[mode]))
               for k, n in enumerate((100, 1000)) for m, mode in enumerate(modes)]
              for _ in range(LATENCY_ROUNDS)]
    latency = [(*rows[0][:2], *np.median([r[2:5] for r in rows], axis=0).tolist(),
                sum(r[5] for r in rows), float(np.mean([r[6] for r in rows])))
               for rows in zip(*rounds)]
    breakdown = {n: callback_breakdown(n, domain=90 + k) for k, n in enumerate((100, 1000))}
    plot(det, DOCS / 'img' / 'bench_detect.png', DOCS / 'img' / 'bench_speedup.png')
    report(det, variants, warehouse, look, continuous, bound, compiles, start_times, sizes,
           latency, breakdown, rows3d, memory, replay_start, replay_rows, replay_command, turning)
    readme_summary(det, warehouse, rows3d, latency, sizes, continuous, turning,
                   replay_command)
    print((DOCS / 'benchmarks.md').read_text())


if __name__ == '__main__':
    main()
