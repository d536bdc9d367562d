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
"""Static shelves and moving robots: each library told which bodies never move.

Each adapter's `tick(poses)` takes every body's pose, shelves first (their rows never
change), hands the library the robots' alone (the shelves were placed once at setup) and
returns the touching pairs (i < j).
"""

import numpy as np

from benchmarks import peers
from benchmarks.peers import Shapely
from benchmarks.scenes import make_warehouse


class Ours:
    """collision_monitor: shelves added as static bodies with their poses, robots' poses set
    from arrays each tick, detect() with full contact descriptions, one thread."""

    name = 'collision_monitor'

    def __init__(self, scene):
        from collision_monitor import CollisionWorld
        self.world = CollisionWorld()
        self.world.threads = 1
        self.first = scene.shelves
        for k, (fp, pose) in enumerate(zip(scene.footprints, scene.poses)):
            self.world.add_body(f'b{k}', fp, static=k < self.first,
                                pose=pose if k < self.first else None)
        self.robots = np.arange(self.first, len(scene.poses))
        self.world.set_twists(scene.twists[self.first:], self.robots)

    def tick(self, poses):
        self.world.set_poses(poses[self.first:], self.robots)
        return self.world.detect()

    @staticmethod
    def pairs(result):
        return set(map(tuple, result.pairs.tolist()))


class OursStep(Ours):
    """collision_monitor as above, `step(2 s)` under constant acceleration: the same
    contacts plus every first contact within 2 s (robots' twists set at setup)."""

    name = 'collision_monitor step (2 s look-ahead)'

    def tick(self, poses):
        self.world.set_poses(poses[self.first:], self.robots)
        return self.world.step(2.0, 'constant_acceleration')[0]


class Pymunk(peers.Pymunk):
    """pymunk 7 (Chipmunk2D): each shelf a static body (Chipmunk keeps static shapes in an
    index of their own, never rebuilt by a step), robots kinematic, all sensor polygons; the
    robots' poses set by one `pymunk.batch.set_space_bodies`, step, and the touching pairs
    read by one `get_space_arbiters`."""

    name = 'pymunk (batch, static shelves)'


class Box2D_(peers.Box2D_):
    """pybox2d: shelves static bodies, robots dynamic (no gravity), sensor polygons; the
    robots' transforms set, step, touching contacts."""

    name = 'Box2D (static shelves)'


class ShapelyStatic:
    """shapely 2: the shelves' STRtree built once; each tick the robots' polygons by
    vectorised transforms, queried against it and against a tree of their own."""

    name = 'shapely (static STRtree)'

    def __init__(self, scene):
        import shapely
        self.shapely = shapely
        self.first = scene.shelves
        shelves = Shapely.placed(shapely, np.stack(scene.footprints[:self.first]),
                                 scene.poses[:self.first])
        self.shelf_tree = shapely.STRtree(shelves)
        self.offsets = np.stack(scene.footprints[self.first:])

    def tick(self, poses):
        shapely = self.shapely
        robots = Shapely.placed(shapely, self.offsets, poses[self.first:])
        ri, si = self.shelf_tree.query(robots, predicate='intersects')
        i, j = shapely.STRtree(robots).query(robots, predicate='intersects')
        keep = i < j
        first = self.first
        return (set(zip(si.tolist(), (ri + first).tolist()))
                | set(zip((i[keep] + first).tolist(), (j[keep] + first).tolist())))

    @staticmethod
    def pairs(result):
        return result


WAREHOUSE_PEERS = [Ours, OursStep, ShapelyStatic, Pymunk, Box2D_]


def run(sizes, progress, rounds=7):
    """Every library on the same warehouse at each ``(shelves, robots)`` size, in turns as in
    `detection`: per round a batch of ticks each on its own copy of the moving scene.

    Rows: ``(shelves, robots, name, seconds, disagree, its time / ours, touching pairs)``;
    disagree counts the pairs that differ from shapely's over all bodies at the first tick.
    """
    from benchmarks.__main__ import median_tick
    rows = []
    for shelves, robots in sizes:
        progress.set_description(f'warehouse {shelves} shelves, {robots} robots')
        scene = make_warehouse(shelves, robots, seed=robots)
        truth = Shapely.pairs(Shapely(scene).tick(scene.poses))
        running = {}
        for peer in WAREHOUSE_PEERS:
            adapter = peer(make_warehouse(shelves, robots, seed=robots))
            disagree = len(peer.pairs(adapter.tick(scene.poses)) ^ truth)
            running[peer.name] = (adapter, make_warehouse(shelves, robots, seed=robots),
                                  disagree)
        batches = {name: [] for name in running}
        for _ in range(rounds):
            for name, (adapter, moving, _) in running.items():
                batches[name].append(median_tick(adapter, moving, min_ticks=3,
                                                 max_ticks=200, budget=0.3)[0])
        ours = np.array(batches[Ours.name])
        for name, (_, _, disagree) in running.items():
            rows.append((shelves, robots, name, float(np.median(batches[name])), disagree,
                         float(np.median(np.array(batches[name]) / ours)), len(truth)))
        progress.update()
    return rows
