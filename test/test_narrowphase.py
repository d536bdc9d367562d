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
"""Placing the bodies: every box holds its body, disc boxes or the vertices' box."""

from hypothesis import given, strategies as st
import numpy as np
import pytest
import shapely
import shapely.affinity

from collision_monitor.kernels.narrowphase import box_fill, narrow_phase_slots, pair_tolerance
from collision_monitor.kernels.tuning import DISC_BOX_FILL

from shapes import build, random_scene, UNIT


def _mean_box_over_disc_box(shape, yaws=180):
    """The mean over yaws round the whole turn of the area of the shape's turned bounds,
    over (2 rho)^2, shapely computing the bounds."""
    rho = np.max(np.hypot(*shape.T))
    poly = shapely.Polygon(shape)
    areas = []
    for yaw in np.linspace(0.0, 360.0, yaws, endpoint=False):
        xmin, ymin, xmax, ymax = shapely.affinity.rotate(poly, yaw, origin=(0, 0)).bounds
        areas.append((xmax - xmin) * (ymax - ymin))
    return np.mean(areas) / (4 * rho * rho)


def test_every_box_holds_its_body_and_long_bodies_get_their_vertex_box():
    """A body whose vertex box fills half its disc's box or more on average over its yaw
    gets the disc's box, a longer one the box of its vertices; either holds every vertex."""
    rng = np.random.default_rng(5)
    shapes, poses = random_scene(rng, 400, 30.0, big=3)
    world = build(shapes, poses)
    world.detect()
    view = world.view()
    assert view.disc_box[0]  # a rectangle of sides 1 and 0.6
    assert not view.disc_box[-1]  # a 40 m x 0.4 m wall
    fills = {}
    for k, shape in enumerate(shapes):
        verts = world.world_vertices(f'b{k}')
        xmin, ymin, xmax, ymax = view.boxes[k]
        assert (verts[:, 0] >= xmin).all() and (verts[:, 0] <= xmax).all()
        assert (verts[:, 1] >= ymin).all() and (verts[:, 1] <= ymax).all()
        key = (shape / np.max(np.hypot(*shape.T))).round(12).tobytes()  # scale-free
        if key not in fills:
            fills[key] = _mean_box_over_disc_box(shape)
        tight = max(xmax - xmin - np.ptp(verts[:, 0]), ymax - ymin - np.ptp(verts[:, 1]))
        if fills[key] < 0.49:
            assert tight < 1e-9
        elif fills[key] > 0.51:
            r = np.max(np.hypot(*shape.T))
            assert np.allclose([xmin, ymin, xmax, ymax],
                               [*(poses[k, :2] - r), *(poses[k, :2] + r)], atol=1e-9)


@pytest.mark.parametrize('aspect, disc', [(1.0, True), (2.0, True), (4.0, True),
                                          (6.0, False), (40.0, False)])
def test_rectangles_up_to_about_five_to_one_get_the_disc_box(aspect, disc):
    """The mean box of a w x h rectangle turned about its centre is w h + (w^2 + h^2) / pi
    (E|sin 2 theta| = 2 / pi), so its fill is w h / (w^2 + h^2) + 1 / pi: 0.55 at 4:1,
    0.48 at 6:1."""
    w, h = aspect, 1.0
    shape = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    assert box_fill(shape) == pytest.approx(w * h / (w * w + h * h) + 1 / np.pi, abs=1e-3)
    assert (box_fill(shape) >= DISC_BOX_FILL) == disc


def test_a_static_body_has_its_vertex_box_made_again_when_its_pose_or_footprint_changes():
    """A static square (fill 0.82, a moving one gets the disc box) gets the box of its
    vertices, shapely's bounds of its placed polygon widened by the padding: made again
    when it moves, turns, gets a new footprint or comes back active elsewhere."""
    from collision_monitor import CollisionWorld
    world = CollisionWorld()
    world.add_body('shelf', UNIT, static=True, pose=(1.0, 2.0, 0.3))
    world.add_body('robot', UNIT, pose=(5.0, 5.0, 0.0))
    world.detect()
    assert not world.view().disc_box[0] and world.view().disc_box[1]

    def box_is_the_vertices_box():
        bounds = np.array(shapely.Polygon(world.world_vertices('shelf')).bounds)
        pad = world.view().boxes[0] - bounds
        assert (pad[:2] <= 0).all() and (pad[2:] >= 0).all()
        assert np.abs(pad).max() < 1e-9

    box_is_the_vertices_box()
    for pose in [(1.0, 2.0, 0.3), (1.5, 2.0, 0.3), (1.5, 2.0, 1.0), (1.5, -2.0, 1.0)]:
        world.set_poses([pose], ['shelf'])
        world.detect()
        box_is_the_vertices_box()
    world.set_footprint('shelf', 2 * UNIT)
    world.detect()
    box_is_the_vertices_box()
    world.set_active(['shelf'], False)
    world.set_poses([(9.0, 9.0, 2.0)], ['shelf'])
    world.detect()
    world.set_active(['shelf'], True)
    world.detect()
    box_is_the_vertices_box()


def test_every_contact_of_a_world_is_the_contact_of_its_two_placed_polygons():
    """The world places each pair and describes its contact as `contact.contact` describes
    the two polygons given by their world vertices (centroids computed from those): same
    kind, normal, depth, points, and the edge each p_B lies on, for shapes whose centroid
    is off their origin in x and y by different amounts."""
    from collision_monitor.kernels.geometry2d.contact import contact
    rng = np.random.default_rng(11)
    shapes = [np.array([[0, 0], [1.4, 0], [1.4, 0.3], [0.3, 0.3], [0.3, 0.8], [0, 0.8]])
              - (0.2, 0.1), np.array([[0.0, 0.0], [2.0, 0.2], [0.3, 0.9]]) + (0.3, -0.4)]
    scene = [shapes[k % 2] for k in range(60)]
    poses = np.column_stack([rng.uniform(0, 6, (60, 2)), rng.uniform(-np.pi, np.pi, 60)])
    world = build(scene, poses)
    found = list(world.detect())
    assert len(found) > 20
    for a, b, got in found:
        want = contact(world.world_vertices(a), world.world_vertices(b))
        assert want is not None and got.kind == want.kind
        np.testing.assert_allclose(got.normal, want.normal, atol=1e-9)
        np.testing.assert_allclose(got.depth, want.depth, atol=1e-9)
        np.testing.assert_allclose(got.points, want.points, atol=1e-9)
        np.testing.assert_array_equal(got.p_b_edge, want.p_b_edge)


def test_contacts_with_more_features_than_the_buffer_all_come_back():
    """Three pairs of 60-point stars turned half a spike against each other: about 120
    crossings each, more than the feature rows a world of six bodies starts with (64), so
    the narrow phase runs out of rows part way and is called again with more."""
    from collision_monitor.kernels.geometry2d.contact import contact
    k = np.arange(60)
    star = np.column_stack([np.cos(k * np.pi / 30), np.sin(k * np.pi / 30)]) * np.where(
        k % 2, 0.6, 1.0)[:, None]
    poses = np.array([[10.0 * p, 0.0, q * np.pi / 30] for p in range(3) for q in range(2)])
    world = build([star] * 6, poses)
    found = list(world.detect())
    assert [(a, b) for a, b, _ in found] == [('b0', 'b1'), ('b2', 'b3'), ('b4', 'b5')]
    for a, b, got in found:
        want = contact(world.world_vertices(a), world.world_vertices(b))
        assert len(want.points) > 64 and got.kind == want.kind
        np.testing.assert_allclose(got.points, want.points, atol=1e-9)
        np.testing.assert_array_equal(got.intersection_edges, want.intersection_edges)


def test_an_inactive_body_before_the_others_leaves_their_boxes_current():
    """Body 0 drops out; the bodies after it move into contact: their boxes follow them."""
    world = build([UNIT] * 3, np.array([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0], [9.0, 0.0, 0.0]]))
    assert len(world.detect()) == 0
    world.set_active(['b0'], False)
    world.set_poses([[20.0, 0.0, 0.0], [20.5, 0.5, 0.0]], ['b1', 'b2'])
    assert world.detect().name_pairs() == [('b1', 'b2')]


@pytest.mark.parametrize('far', [0.0, 1e5])
def test_placed_vertices_are_each_bodys_world_vertices(far):
    """`placed_vertices` (one kernel over all bodies, the narrow phase's placement) against
    `world_vertices` (the rigid motion of `kinematics`, body by body), posed and unposed
    bodies alike, to the last bit; against numpy's rotation to the coordinates' rounding."""
    rng = np.random.default_rng(3)
    shapes, poses = random_scene(rng, 50, 20.0)
    poses[:, :2] += far
    world = build(shapes, poses)
    world.add_body('unposed', UNIT)
    vertices, starts = world.placed_vertices()
    assert starts[-1] == vertices.shape[0]
    for k, name in enumerate(world.names):
        assert np.array_equal(vertices[starts[k]:starts[k + 1]], world.world_vertices(name))
        x, y, yaw = world.poses[k]
        turn = np.array([[np.cos(yaw), -np.sin(yaw)], [np.sin(yaw), np.cos(yaw)]])
        np.testing.assert_allclose(vertices[starts[k]:starts[k + 1]],
                                   world.footprint(name) @ turn.T + (x, y), rtol=0,
                                   atol=1e-12 * max(1.0, far))


def test_micro_bodies_at_the_origin_keep_their_own_tolerance():
    """1 um squares at the origin: the length tolerance scales with their coordinates and
    size (about 3e-20 m), so a 1e-15 m gap is a gap (shapely agrees) and touching is
    contact."""
    s = 1e-6
    square = np.array([[0, 0], [s, 0], [s, s], [0, s]])
    for gap, touching in ((1e-15, False), (0.0, True)):
        world = build([square, square], np.array([[0.0, 0.0, 0.0], [s + gap, 0.0, 0.0]]))
        apart = shapely.Polygon(world.world_vertices('b0')).distance(
            shapely.Polygon(world.world_vertices('b1')))
        assert apart == gap or 0.5 * gap < apart < 2 * gap
        assert (len(world.detect()) == 1) == touching


def test_bodies_touching_across_the_origin_are_in_contact():
    """Two 1 x 2 rectangles sharing the edge x = 0 (their boxes straddle the origin, where
    the tolerance's scale is smallest against the pair's extent), and a triangle whose tip
    alone touches a square's edge there: contacts, the tip's with its one point."""
    rect = np.array([[-0.5, -1.0], [0.5, -1.0], [0.5, 1.0], [-0.5, 1.0]])
    tip = np.array([[-0.5, 0.0], [0.5, 0.0], [0.0, 1.0]])
    world = build([rect, rect, tip], np.array([[-0.5, 0.0, 0.0], [0.5, 0.0, 0.0],
                                               [0.25, -2.0, 0.0]]))
    contacts = world.detect()
    assert contacts.name_pairs() == [('b0', 'b1'), ('b1', 'b2')]
    edge, corner = contacts[0], contacts[1]
    assert edge.depth == 0.0 and len(edge.points) >= 2
    np.testing.assert_array_equal(corner.points, [[0.25, -1.0]])


@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=2),
       st.lists(st.floats(0, 1e3), min_size=4, max_size=4), st.floats(-1e6, 1e6),
       st.floats(-1e6, 1e6))
def test_pair_tolerance_is_the_tolerance_of_both_boxes(corner, sizes, x, y):
    """64 ulp of (largest |coordinate| of the two boxes + their largest extent), as the
    tolerance policy (`kernels.constants`) says, computed here with numpy."""
    aabb = np.array([[*corner, corner[0] + sizes[0], corner[1] + sizes[1]],
                     [x, y, x + sizes[2], y + sizes[3]]])
    expected = 64 * np.finfo(float).eps * (np.abs(aabb).max() + max(sizes))
    assert pair_tolerance(aabb, 0, 1) == pytest.approx(expected, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize('threads', [2, 3])
def test_the_narrow_phase_in_slots_writes_what_one_slot_writes(threads):
    """`narrow_phase_slots` on 2 or 3 slots (runs of candidates on threads, then gathered)
    writes the contacts and features of one slot, bit for bit, in the same order.  Feature
    rows whose equal shares just hold each slot's features suffice; one row fewer a share,
    it finds no contact and asks for more rows than it has."""
    rng = np.random.default_rng(41)
    shapes, poses = random_scene(rng, 300, 12.0, big=1)
    world = build(shapes, poses)
    world.detect()
    view = world.view()
    pairs, n_pairs = view.candidates, len(view.candidates)
    m = int(np.diff(view.bodies.vstart).max())

    def run(threads, features=20000):
        """(contacts, features needed, each slot's count of features, the rows written)."""
        rows = (np.zeros((n_pairs, 2), np.intp), np.zeros(n_pairs, np.int8),
                np.zeros((n_pairs, 2)), np.zeros(n_pairs), np.zeros(n_pairs + 1, np.intp))
        feats = (np.zeros((features, 2)), np.zeros((features, 2)), np.zeros(features, np.int8),
                 np.zeros((features, 2), np.intp))
        counts = np.zeros((threads, 2), np.intp)
        slots = (threads, np.zeros((threads, 2, m, 2)), np.full(n_pairs + threads, -1, np.intp),
                 counts)
        nc, nf = narrow_phase_slots(pairs, n_pairs, world.poses, view.bodies, view.boxes,
                                    slots, rows, feats)
        written = [a[:nc] for a in rows[:4]] + [rows[4][:nc + 1]] + [a[:nf] for a in feats]
        return nc, nf, counts[:, 1].copy(), written if nf <= features else None
    nc, nf, _, one = run(1)
    assert n_pairs > 100 and nc > 50 and nf > 3 * nc
    nc_k, nf_k, shares, written = run(threads)
    assert (nc_k, nf_k) == (nc, nf)
    for a, b in zip(one, written):
        np.testing.assert_array_equal(a, b)
    just = threads * shares.max()
    assert run(threads, features=just)[:2] == (nc, nf)
    nc_k, need = run(threads, features=just - threads)[:2]
    assert nc_k == 0 and need > just - threads
