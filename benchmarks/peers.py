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
touching.  What each peer does per tick is its usual way of doing this job.  pymunk and Box2D
also take a scene whose first `shelves` bodies never move (`scenes.Warehouse`): those are
made static bodies, and a tick sets the others alone.
"""

import numpy as np


class Ours:
    """collision_monitor: poses set from arrays, detect() with full contact descriptions, one
    thread."""

    name = 'collision_monitor'
    threads = 1

    def __init__(self, scene):
        from collision_monitor import CollisionWorld
        self.world = CollisionWorld()
        self.world.threads = self.threads
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


class OursTwoThreads(Ours):
    """collision_monitor as above on two threads (the narrow phase in runs of candidates, one
    a thread, from 128 candidate pairs of 8-gons); reported apart, not a peer."""

    name = 'collision_monitor, 2 threads'
    threads = 2


class Shapely:
    """shapely 2: vectorised transforms, STRtree rebuilt, query with 'intersects'."""

    name = 'shapely STRtree'

    def __init__(self, scene):
        import shapely
        self.shapely = shapely
        self.offsets = np.stack(scene.footprints)  # (N, k, 2)

    @staticmethod
    def placed(shapely, offsets, poses):
        """shapely polygons of footprints (N, k, 2) at poses (N, 3), by vectorised
        transforms."""
        c, s = np.cos(poses[:, 2])[:, None], np.sin(poses[:, 2])[:, None]
        x = poses[:, 0:1] + c * offsets[..., 0] - s * offsets[..., 1]
        y = poses[:, 1:2] + s * offsets[..., 0] + c * offsets[..., 1]
        return shapely.polygons(np.stack([x, y], axis=-1))

    def tick(self, poses):
        shapely = self.shapely
        geoms = self.placed(shapely, self.offsets, poses)
        tree = shapely.STRtree(geoms)
        i, j = tree.query(geoms, predicate='intersects')
        keep = i < j
        return i[keep], j[keep]

    @staticmethod
    def pairs(result):
        return set(zip(result[0].tolist(), result[1].tolist()))


class Pymunk:
    """pymunk 7 (Chipmunk2D) through its batch API: kinematic bodies with sensor polygons;
    all poses set by one `pymunk.batch.set_space_bodies`, step, and the touching pairs read
    by one `get_space_arbiters` (body ids mapped to indices with a sorted lookup)."""

    name = 'pymunk (batch)'

    def __init__(self, scene):
        import pymunk
        import pymunk.batch
        self.batch = pymunk.batch
        self.space = pymunk.Space()
        self.space.collision_persistence = 1  # arbiters of the last step only
        self.first = getattr(scene, 'shelves', 0)
        ids = []
        for k, (fp, (x, y, yaw)) in enumerate(zip(scene.footprints, scene.poses.tolist())):
            body = pymunk.Body(body_type=pymunk.Body.STATIC if k < self.first
                               else pymunk.Body.KINEMATIC)
            body.position, body.angle = (x, y), yaw
            shape = pymunk.Poly(body, [tuple(p) for p in fp], radius=0.0)
            shape.sensor = True
            self.space.add(body, shape)
            ids.append(body.id)
        ids = np.array(ids, dtype=np.uint64)
        self.order = np.argsort(ids)
        self.sorted_ids = ids[self.order]
        # set_space_bodies reads x, y, angle per non-static body in the order the space
        # holds them
        self.floats = np.zeros(3 * (len(ids) - self.first))
        self.pose_buffer = self.batch.Buffer()
        self.pose_buffer.set_float_buf(self.floats)
        self.arbiters = self.batch.Buffer()

    def tick(self, poses):
        batch = self.batch
        self.floats[:] = poses[self.first:].reshape(-1)
        batch.set_space_bodies(self.space, batch.BodyFields.POSITION | batch.BodyFields.ANGLE,
                               self.pose_buffer)
        self.space.step(1e-3)
        self.arbiters.clear()
        batch.get_space_arbiters(
            self.space, batch.ArbiterFields.BODY_A_ID | batch.ArbiterFields.BODY_B_ID,
            self.arbiters)
        ab = np.frombuffer(self.arbiters.int_buf(), dtype=np.uint64).reshape(-1, 2)
        i = self.order[np.searchsorted(self.sorted_ids, ab[:, 0])]
        j = self.order[np.searchsorted(self.sorted_ids, ab[:, 1])]
        return np.minimum(i, j), np.maximum(i, j)

    @staticmethod
    def pairs(result):
        return set(zip(result[0].tolist(), result[1].tolist()))


class Box2D_:
    """pybox2d: dynamic bodies (no gravity) with sensor polygons; step; touching contacts."""

    name = 'Box2D'

    def __init__(self, scene):
        import Box2D
        self.b2 = Box2D
        self.world = Box2D.b2World(gravity=(0, 0), doSleep=False)
        self.first = getattr(scene, 'shelves', 0)
        self.bodies = []
        # created at their poses: bodies piled at the origin would make N^2 contacts at once
        for k, (fp, (x, y, yaw)) in enumerate(zip(scene.footprints, scene.poses.tolist())):
            create = (self.world.CreateStaticBody if k < self.first
                      else self.world.CreateDynamicBody)
            body = create(position=(x, y), angle=yaw, userData=k)
            body.CreatePolygonFixture(vertices=[tuple(p) for p in fp], density=1.0,
                                      isSensor=True)
            if k >= self.first:
                self.bodies.append(body)

    def tick(self, poses):
        for body, (x, y, yaw) in zip(self.bodies, poses[self.first:].tolist()):
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


def coal_prism(coal, footprint):
    """A coal.Convex: the footprint (k, 2) extruded from z = 0 to 1, as triangles."""
    k = len(footprint)
    points = coal.StdVec_Vec3s()
    for p in np.vstack([np.column_stack([footprint, np.zeros(k)]),
                        np.column_stack([footprint, np.ones(k)])]):
        points.append(p)
    triangles = coal.StdVec_Triangle()
    for e in range(1, k - 1):
        triangles.append(coal.Triangle(0, e + 1, e))
        triangles.append(coal.Triangle(k, k + e, k + e + 1))
    for e in range(k):
        f = (e + 1) % k
        triangles.append(coal.Triangle(e, f, k + f))
        triangles.append(coal.Triangle(e, k + f, k + e))
    return coal.Convex(points, triangles)


def rotations_and_translations(poses, rotation, translation):
    """Fill (N, 3, 3) rotations about z and (N, 3) translations from (N, 3) poses, for
    every body at once (the FCL-family peers then only pass views per body)."""
    c, s = np.cos(poses[:, 2]), np.sin(poses[:, 2])
    rotation[:, 0, 0] = c
    rotation[:, 0, 1] = -s
    rotation[:, 1, 0] = s
    rotation[:, 1, 1] = c
    rotation[:, 2, 2] = 1.0
    translation[:, :2] = poses[:, :2]


class FCL:
    """python-fcl: extruded prisms in a DynamicAABBTreeCollisionManager updated in place
    (transforms set per object from arrays computed for all at once, then `update`); `collide`
    with the default callback, contacts off (one record per colliding pair)."""

    name = 'python-fcl'
    max_bodies = 20000  # building 100,000 Convex objects and their tree takes minutes

    def __init__(self, scene):
        import fcl
        self.fcl = fcl
        n = len(scene.footprints)
        self.geoms = [fcl_prism(fcl, fp) for fp in scene.footprints]
        self.objects = [fcl.CollisionObject(g, fcl.Transform()) for g in self.geoms]
        # contacts name their geometries: map them back to body indices (python-fcl's way)
        self.index = {id(g): k for k, g in enumerate(self.geoms)}
        self.rotation = np.zeros((n, 3, 3))
        self.translation = np.zeros((n, 3))
        # the tree is built around the objects where they are: placed first
        self.place(scene.poses)
        self.manager = fcl.DynamicAABBTreeCollisionManager()
        self.manager.registerObjects(self.objects)
        self.manager.setup()
        # the default callback stops once this many pairs collide
        self.request = fcl.CollisionRequest(num_max_contacts=n, enable_contact=False)

    def place(self, poses):
        rotations_and_translations(poses, self.rotation, self.translation)
        for obj, r, t in zip(self.objects, self.rotation, self.translation):
            obj.setTransform(self.fcl.Transform(r, t))

    def tick(self, poses):
        fcl = self.fcl
        self.place(poses)
        self.manager.update()
        data = fcl.CollisionData(request=self.request)
        self.manager.collide(data, fcl.defaultCollisionCallback)
        found = set()
        for contact in data.result.contacts:
            a, b = self.index[id(contact.o1)], self.index[id(contact.o2)]
            found.add((min(a, b), max(a, b)))
        return found

    @staticmethod
    def pairs(result):
        return set(result)


class Coal:
    """Coal (the maintained successor of FCL): extruded prisms in a
    DynamicAABBTreeCollisionManager updated in place, as python-fcl; `collide` with
    `CollisionCallBackDefault`, each body its own geometry so that contacts name it."""

    name = 'Coal'
    max_bodies = 20000

    def __init__(self, scene):
        import coal
        self.coal = coal
        n = len(scene.footprints)
        self.geoms = [coal_prism(coal, fp) for fp in scene.footprints]
        self.index = {g.id(): k for k, g in enumerate(self.geoms)}
        self.objects = [coal.CollisionObject(g, coal.Transform3s()) for g in self.geoms]
        self.rotation = np.zeros((n, 3, 3))
        self.translation = np.zeros((n, 3))
        self.place(scene.poses)
        self.manager = coal.DynamicAABBTreeCollisionManager()
        for obj in self.objects:
            self.manager.registerObject(obj)
        self.manager.setup()
        self.callback = coal.CollisionCallBackDefault()
        self.callback.data.request.num_max_contacts = n

    def place(self, poses):
        rotations_and_translations(poses, self.rotation, self.translation)
        for obj, r, t in zip(self.objects, self.rotation, self.translation):
            obj.setTransform(self.coal.Transform3s(r, t))
            obj.computeAABB()  # Coal's setTransform leaves the world box as it was

    def tick(self, poses):
        self.place(poses)
        self.manager.update()
        self.callback.data.result.clear()
        self.manager.collide(self.callback)
        found = set()
        for contact in self.callback.data.result.getContacts():
            a, b = self.index[contact.o1.id()], self.index[contact.o2.id()]
            found.add((min(a, b), max(a, b)))
        return found

    @staticmethod
    def pairs(result):
        return set(result)


PEERS = [Ours, OursTwoThreads, Shapely, Pymunk, Box2D_, FCL, Coal]
