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
"""The same detection task for every library: set N poses, then list every touching pair.

Each adapter's `tick(poses)` takes (N, 3) poses and returns the set of pairs (i < j) it finds
touching.  What each peer does per tick is its usual way of doing this job.
"""

import numpy as np


class Ours:
    """collision_monitor: poses set from arrays, detect() with full contact descriptions."""

    name = 'collision_monitor'

    def __init__(self, scene):
        from collision_monitor import CollisionWorld
        self.world = CollisionWorld()
        for k, fp in enumerate(scene.footprints):
            self.world.add_body(f'b{k}', fp)
        self.world.set_poses(scene.poses)
        self.world.detect()

    def tick(self, poses):
        self.world.set_poses(poses)
        self.contacts = self.world.detect()
        return self.contacts

    @staticmethod
    def pairs(result):
        return set(map(tuple, result.pairs.tolist()))


class Shapely:
    """shapely 2: vectorised transforms, STRtree rebuilt, query with 'intersects'."""

    name = 'shapely STRtree'

    def __init__(self, scene):
        import shapely
        self.shapely = shapely
        self.offsets = np.stack(scene.footprints)  # (N, k, 2)

    def tick(self, poses):
        shapely = self.shapely
        c, s = np.cos(poses[:, 2])[:, None], np.sin(poses[:, 2])[:, None]
        x = poses[:, 0:1] + c * self.offsets[..., 0] - s * self.offsets[..., 1]
        y = poses[:, 1:2] + s * self.offsets[..., 0] + c * self.offsets[..., 1]
        rings = np.stack([x, y], axis=-1)
        geoms = shapely.polygons(rings)
        tree = shapely.STRtree(geoms)
        i, j = tree.query(geoms, predicate='intersects')
        keep = i < j
        return i[keep], j[keep]

    @staticmethod
    def pairs(result):
        return set(zip(result[0].tolist(), result[1].tolist()))


class Pymunk:
    """pymunk (Chipmunk2D): kinematic bodies with sensor polygons; step; pre_solve collects."""

    name = 'pymunk'

    def __init__(self, scene):
        import pymunk
        self.space = pymunk.Space()
        self.bodies = []
        for k, (fp, (x, y, yaw)) in enumerate(zip(scene.footprints, scene.poses.tolist())):
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            body.position, body.angle = (x, y), yaw
            shape = pymunk.Poly(body, [tuple(p) for p in fp], radius=0.0)
            shape.sensor = True
            shape.index = k
            self.space.add(body, shape)
            self.bodies.append(body)
        self.found = set()

        def pre_solve(arbiter, space, data):
            a, b = arbiter.shapes
            self.found.add((min(a.index, b.index), max(a.index, b.index)))

        self.space.on_collision(pre_solve=pre_solve)

    def tick(self, poses):
        self.found = set()
        for body, (x, y, yaw) in zip(self.bodies, poses.tolist()):
            body.position = (x, y)
            body.angle = yaw
        self.space.step(1e-3)
        return self.found

    @staticmethod
    def pairs(result):
        return set(result)


class Box2D_:
    """pybox2d: dynamic bodies (no gravity) with sensor polygons; step; touching contacts."""

    name = 'Box2D'

    def __init__(self, scene):
        import Box2D
        self.b2 = Box2D
        self.world = Box2D.b2World(gravity=(0, 0), doSleep=False)
        self.bodies = []
        # created at their poses: bodies piled at the origin would make N^2 contacts at once
        for k, (fp, (x, y, yaw)) in enumerate(zip(scene.footprints, scene.poses.tolist())):
            body = self.world.CreateDynamicBody(position=(x, y), angle=yaw, userData=k)
            body.CreatePolygonFixture(vertices=[tuple(p) for p in fp], density=1.0,
                                      isSensor=True)
            self.bodies.append(body)

    def tick(self, poses):
        for body, (x, y, yaw) in zip(self.bodies, poses.tolist()):
            body.transform = ((x, y), yaw)
        self.world.Step(1e-3, 1, 1)
        found = set()
        for contact in self.world.contacts:
            if contact.touching:
                a = contact.fixtureA.body.userData
                b = contact.fixtureB.body.userData
                found.add((min(a, b), max(a, b)))
        return found

    @staticmethod
    def pairs(result):
        return set(result)


def fcl_prism(fcl, footprint):
    """An fcl.Convex: the footprint (k, 2) extruded from z = 0 to 1 (bottom, top, k sides)."""
    k = len(footprint)
    verts = np.vstack([np.column_stack([footprint, np.zeros(k)]),
                       np.column_stack([footprint, np.ones(k)])])
    faces = [k, *range(k - 1, -1, -1), k, *range(k, 2 * k)]
    for e in range(k):
        f = (e + 1) % k
        faces += [4, e, f, k + f, k + e]
    return fcl.Convex(verts, k + 2, np.array(faces, dtype=np.int32))


class FCL:
    """python-fcl: extruded prisms in a DynamicAABBTreeCollisionManager; collide all."""

    name = 'python-fcl'
    max_bodies = 20000  # building 100,000 Convex objects and their tree takes minutes

    def __init__(self, scene):
        import fcl
        self.fcl = fcl
        self.objects = []
        self.geoms = []
        for fp in scene.footprints:
            geom = fcl_prism(fcl, fp)
            self.geoms.append(geom)
            self.objects.append(fcl.CollisionObject(geom, fcl.Transform()))
        # contacts name their geometries: map them back to body indices (python-fcl's way)
        self.index = {id(g): k for k, g in enumerate(self.geoms)}
        self.manager = fcl.DynamicAABBTreeCollisionManager()
        self.manager.registerObjects(self.objects)
        self.manager.setup()
        self.n = len(self.objects)

    def tick(self, poses):
        fcl = self.fcl
        for obj, (x, y, yaw) in zip(self.objects, poses.tolist()):
            c, s = np.cos(yaw), np.sin(yaw)
            obj.setTransform(fcl.Transform(np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]]),
                                           np.array([x, y, 0.0])))
        self.manager.update()
        request = fcl.CollisionRequest(num_max_contacts=100 * self.n, enable_contact=True)
        data = fcl.CollisionData(request=request)
        self.manager.collide(data, fcl.defaultCollisionCallback)
        found = set()
        for contact in data.result.contacts:
            a, b = self.index[id(contact.o1)], self.index[id(contact.o2)]
            found.add((min(a, b), max(a, b)))
        return found

    @staticmethod
    def pairs(result):
        return set(result)


PEERS = [Ours, Shapely, Pymunk, Box2D_, FCL]
for _peer in PEERS:
    _peer.max_bodies = getattr(_peer, 'max_bodies', None)
