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
"""The broad phase: the grid against brute force, pairs kept across ticks, extreme spreads."""

from hypothesis import given, strategies as st
import numpy as np
import pytest

from collision_monitor import CollisionWorld, World
from collision_monitor.kernels import tuning
from collision_monitor.kernels.broadphase import grid_pairs, GridWorkspace, PairCache
from shapes import brute_force_pairs, build, random_scene, UNIT


@pytest.mark.parametrize('seed, spread, big', [(0, 40.0, 0), (1, 15.0, 0), (2, 30.0, 3),
                                               (3, 200.0, 1), (4, 8.0, 0)])
def test_broad_phase_never_drops_an_overlapping_box_pair(seed, spread, big):
    rng = np.random.default_rng(seed)
    shapes, poses = random_scene(rng, 1000, spread, big)
    world = build(shapes, poses, static=set(range(0, len(shapes), 7)))
    world.detect()  # places the bodies
    active = world.active.copy()
    active[5::11] = False
    work = GridWorkspace(len(shapes))
    pairs = np.zeros((len(shapes) * 100, 2), np.intp)
    view = world.view()
    count = grid_pairs(view.boxes, active, view.movable, pairs, *work.arrays())
    got = set(map(tuple, pairs[:count].tolist()))
    assert len(got) == count  # each pair once
    assert got == brute_force_pairs(view.boxes, active, view.movable)


@pytest.mark.parametrize('n_active', [0, 1])
def test_no_pair_among_fewer_than_two_active_bodies(n_active):
    """Overlapping boxes, all but n_active bodies inactive: no pair, and the world (all
    disabled) reports no contact."""
    aabb = np.tile([0.0, 0.0, 1.0, 1.0], (4, 1))
    active = np.zeros(4, np.bool_)
    active[:n_active] = True
    pairs = np.full((8, 2), 3, np.intp)
    work = GridWorkspace(4)
    assert grid_pairs(aabb, active, np.ones(4, np.bool_), pairs, *work.arrays()) == 0
    world = build([UNIT] * 4, np.zeros((4, 3)))
    world.set_active(list(range(n_active, 4)), False)
    assert len(world.detect()) == 0 and len(world.predict(1.0)) == 0


@pytest.mark.parametrize('direction', [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_body_leaving_its_fat_box_through_one_side_finds_its_new_pairs(direction):
    """One square walks in 1 cm steps straight at another, so that it leaves its fat box
    through one side only: every tick's pairs hold the pair once their boxes overlap (a
    check of the fat boxes that needs two sides crossed keeps the old, empty pairs)."""
    step = 0.01 * np.array(direction, float)
    world = build([UNIT, UNIT], np.array([[0.0, 0.0, 0.0], [*(-3.0 * step / 0.01), 0.0]]))
    world.detect()
    active = world.active.copy()
    cache = PairCache(2)
    for tick in range(300):
        world.set_poses(world.poses + [[0.0, 0.0, 0.0], [*step, 0.0]])
        world.detect()  # places the bodies
        view = world.view()
        count = cache.candidates(view.boxes, active, view.movable)
        kept = set(map(tuple, cache.pairs[:count].tolist()))
        assert brute_force_pairs(view.boxes, active, view.movable) <= kept, tick


def _check_kept(cache, count, aabb, active, movable):
    """The kept pairs are exactly the pairs of overlapping fat boxes (brute force), each
    once, and so hold every pair of overlapping boxes."""
    kept = cache.pairs[:count].tolist()
    assert all(i < j for i, j in kept)
    assert len(set(map(tuple, kept))) == count
    assert set(map(tuple, kept)) == brute_force_pairs(cache.fat, active, movable)
    assert brute_force_pairs(aabb, active, movable) <= set(map(tuple, kept))
    assert np.array_equal(cache.fat_active, active)


def test_kept_pairs_hold_every_overlapping_pair_as_bodies_move():
    """Pairs kept across ticks (fat boxes) are always the pairs of overlapping fat boxes,
    through small steps, jumps and bodies leaving and joining; small steps reuse them."""
    rng = np.random.default_rng(7)
    shapes, poses = random_scene(rng, 300, 15.0, big=2)
    world = build(shapes, poses, static={0, 1})
    world.detect()
    active = world.active.copy()
    cache = PairCache(len(shapes))
    velocity = rng.uniform(-1.0, 1.0, (len(shapes), 3))
    for tick in range(120):
        poses = poses + 0.01 * velocity
        if tick % 40 == 39:
            poses[rng.integers(0, len(shapes), 5), :2] += rng.uniform(-5, 5, (5, 2))
        if tick % 30 == 29:
            active[rng.integers(0, len(shapes), 5)] ^= True
        world.set_poses(poses)
        world.set_active(np.arange(len(shapes)), active)
        world.detect()
        view = world.view()
        count = cache.candidates(view.boxes, active, view.movable)
        _check_kept(cache, count, view.boxes, active, view.movable)
    assert cache.grids < 60


@pytest.mark.parametrize('seed', range(4))
def test_a_few_movers_among_still_bodies_are_refiled_without_the_grid(seed):
    """A few bodies walk and wander through 400 still ones (some static), some leaving and
    joining the active set: the grid runs once, every later tick refiles the few that left
    their fat boxes, and the kept pairs stay exactly those of overlapping fat boxes.  Then
    more than `REFIT_BODIES` bodies jump at once: the grid runs again."""
    rng = np.random.default_rng(seed)
    shapes, poses = random_scene(rng, 400, 20.0, big=seed % 2)
    world = build(shapes, poses, static=set(range(0, 400, 9)))
    world.detect()
    n = len(shapes)
    active = world.active.copy()
    cache = PairCache(n, rows=40 * n)  # room enough: one grid run, no regrowth
    movers = rng.choice(np.flatnonzero(world.view().movable), 3, replace=False)
    velocity = rng.uniform(-3.0, 3.0, (3, 3))
    refiled = 0
    for tick in range(150):
        poses[movers] += 0.02 * velocity
        if tick % 25 == 24:
            active[rng.integers(0, n)] ^= True
        world.set_poses(poses)
        world.set_active(np.arange(n), active)
        world.detect()
        fat, view = cache.fat.copy(), world.view()
        count = cache.candidates(view.boxes, active, view.movable)
        refiled += tick > 0 and not np.array_equal(fat, cache.fat)
        _check_kept(cache, count, view.boxes, active, view.movable)
    assert cache.grids == 1 and refiled >= 10
    jumpers = rng.choice(np.flatnonzero(active), tuning.REFIT_BODIES + 1, replace=False)
    poses[jumpers, :2] += 3.0 * np.sign(rng.uniform(-1, 1, (len(jumpers), 2)))
    world.set_poses(poses)
    world.detect()
    view = world.view()
    count = cache.candidates(view.boxes, active, view.movable)
    _check_kept(cache, count, view.boxes, active, view.movable)
    assert cache.grids == 2


def test_the_grid_returns_once_more_than_refit_bodies_were_refiled_since_it():
    """A row of still squares (neighbours' fat boxes overlapping), two more of them stepping
    out of their fat boxes each tick: every tick refiles them until the bodies refiled since
    the grid number more than `REFIT_BODIES`; that tick runs the grid, and the count starts
    again."""
    n = 100
    x = np.arange(n) * 1.2
    aabb = np.column_stack([x, np.zeros(n), x + 1.0, np.ones(n)])
    active, movable = np.ones(n, np.bool_), np.ones(n, np.bool_)
    cache = PairCache(n)
    cache.candidates(aabb, active, movable)
    per_tick = 2
    cycle = tuning.REFIT_BODIES // per_tick  # ticks of refits after each grid
    grid_ticks = range(cycle, 30, cycle + 1)
    for tick in range(30):
        aabb[per_tick * tick:per_tick * (tick + 1), [1, 3]] += 0.5  # up, out of the fat box
        count = cache.candidates(aabb, active, movable)
        _check_kept(cache, count, aabb, active, movable)
        assert count >= n - 1
        assert cache.grids == 1 + sum(t <= tick for t in grid_ticks), tick
    assert len(grid_ticks) >= 2


def test_no_pair_kept_is_kept_as_well_as_some():
    """Bodies far apart that stay in their fat boxes: the grid finds no pair once, and the
    following ticks keep that empty set without it."""
    n = 30
    x = np.arange(n) * 5.0
    aabb = np.column_stack([x, np.zeros(n), x + 1.0, np.ones(n)])
    active, movable = np.ones(n, np.bool_), np.ones(n, np.bool_)
    cache = PairCache(n)
    for tick in range(5):
        assert cache.candidates(aabb + 0.01 * tick, active, movable) == 0
    assert cache.grids == 1


def test_pairs_that_fill_the_array_exactly_are_kept():
    """A row of boxes, each overlapping the next: n - 1 pairs in an array of n - 1 rows are
    all there, counted, and kept for the next tick without the grid."""
    n = 12
    x = np.arange(n) * 0.9
    aabb = np.column_stack([x, np.zeros(n), x + 1.0, np.ones(n)])
    active, movable = np.ones(n, np.bool_), np.ones(n, np.bool_)
    cache = PairCache(n, rows=n - 1)
    for _ in range(2):
        count = cache.candidates(aabb, active, movable)
        _check_kept(cache, count, aabb, active, movable)
        assert count == cache.count == n - 1 and cache.pairs.shape[0] == n - 1
    assert cache.grids == 1


def test_refiled_pairs_that_do_not_fit_rebuild_the_cache():
    """A refiled body whose new pairs overflow the kept array: the refit gives way to the
    grid, which finds more pairs than rows, and to the grid again once the cache grew; the
    cache then holds every pair."""
    n = 40
    aabb = np.column_stack([np.arange(n) * 3.0, np.zeros(n), np.arange(n) * 3.0 + 1.0,
                            np.ones(n)])
    active, movable = np.ones(n, np.bool_), np.ones(n, np.bool_)
    cache = PairCache(n, rows=2)
    assert cache.candidates(aabb, active, movable) == 0 and cache.grids == 1
    aabb[0] = [0.0, 0.0, 3.0 * n, 1.0]  # body 0 now spans every other box
    count = cache.candidates(aabb, active, movable)
    _check_kept(cache, count, aabb, active, movable)
    assert count == n - 1 and cache.grids == 3


def test_a_long_wall_keeps_no_pair_with_bodies_metres_away():
    """The fat margin of a 40 m wall is a share of the bodies' mean size, not of its length:
    bodies 3 m beside it are not kept as its candidates."""
    world = World()
    world.add_body('wall', [[-20.0, -0.2], [20.0, -0.2], [20.0, 0.2], [-20.0, 0.2]],
                   static=True, pose=(0.0, 0.0, 0.0))
    for k in range(30):
        world.add_body(f'b{k}', UNIT, pose=(-15.0 + k, 3.0 if k % 2 else -3.0, 0.0))
    world.detect()
    assert not (world.view().candidates == 0).any()


def test_issue_scene_of_micro_bodies_kilometres_apart():
    s = 1e-3
    sq = [[0, 0], [s, 0], [s, s], [0, s]]
    world = CollisionWorld()
    world.add_body('a', sq, pose=(4e6, 4e6, 0))
    world.add_body('b', sq, pose=(4e6 + s / 2, 4e6 + s / 2, 0))
    world.add_body('c', sq, pose=(0, 0, 0))
    assert world.detect().name_pairs() == [('a', 'b')]


@given(st.floats(1e-6, 1e-2), st.floats(1e3, 1e6), st.floats(1e3, 1e6),
       st.floats(0.0, 0.9), st.floats(0.0, 0.9))
def test_micro_bodies_far_apart_are_found(size, x, y, du, dv):
    """Two axis-aligned squares of side s whose corners differ by less than s along both axes
    overlap; a third far away spreads the grid over ~1e6 / s cells per axis."""
    sq = np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) * size
    world = CollisionWorld()
    world.add_body('a', sq, pose=(x, y, 0))
    world.add_body('b', sq, pose=(x + du * size, y + dv * size, 0))
    world.add_body('far', sq, pose=(0, 0, 0))
    assert world.detect().name_pairs() == [('a', 'b')]


def test_a_static_body_has_no_fat_margin_and_is_refiled_when_it_moves():
    """A static 6 m x 0.8 m shelf's fat box is its box (a quarter of its length, 1.5 m,
    would reach over an aisle); a moving square's is wider.  The square 1 m beside the
    shelf is no candidate; the shelf given a new pose over the square is refiled and
    touches it."""
    shelf = np.array([[-3.0, -0.4], [3.0, -0.4], [3.0, 0.4], [-3.0, 0.4]])
    world = build([shelf, UNIT], np.array([[0.0, 0.0, 0.0], [0.0, 1.9, 0.0]]), static={0})
    assert len(world.detect()) == 0
    view = world.view()
    fat, aabb = view.fat_boxes, view.boxes
    np.testing.assert_array_equal(fat[0], aabb[0])
    assert (fat[1, :2] < aabb[1, :2]).all() and (fat[1, 2:] > aabb[1, 2:]).all()
    assert len(view.candidates) == 0
    world.set_poses([[0.5, 1.5, 0.2]], ['b0'])
    assert world.detect().name_pairs() == [('b0', 'b1')]
