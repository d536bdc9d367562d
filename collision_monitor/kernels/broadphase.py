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
"""Broad phase: every pair of bodies whose axis-aligned bounding boxes (AABBs) overlap.

A uniform grid rebuilt every tick by a counting sort: O(N) per tick, nothing carried between
ticks (bodies may jump, appear and vanish), no tree to rebalance.

* A body is *big* when its AABB extent (larger side) exceeds `BIG_FACTOR` times the mean
  extent; big bodies (walls, long shelves) are tested against every other body directly.
* The cell size h is the largest extent among the other bodies, and each of them is filed in
  the one cell holding its AABB's lower-left corner.  Two boxes of extent <= h that overlap
  have their corners in the same or in adjacent cells, so each body only looks at its own cell
  and four forward neighbours ((+1, 0), (-1, +1), (0, +1), (+1, +1)): every pair of adjacent
  cells is visited once, and each overlapping pair is found exactly once.
* Cells are numbered ``key = iy * nx + ix`` (at most `MAX_CELLS` + 3 per axis, so the key
  fits int64 whatever the spread; nx leaves two empty columns, so the neighbour
  key ``key + nx - 1`` of a body in column 0 names an empty cell, never a wrong one) and
  folded into a table of a power-of-two size >= 2N, so a sparse scene needs no memory for
  its empty space.  Folded cells share a bucket; each bucket entry carries its true key
  beside the body, so skipping a foreign entry reads no body data: sharing costs little
  time, never correctness.
* The sorting passes run over the bodies in index order (boxes read sequentially), the scan
  in bucket order (the neighbour buckets it reads advance through the table).  Measured
  against a sorted copy of the boxes visited in last tick's order: 1.4 to 1.6x faster.
* Boxes that only touch count as overlapping.

Measured (docs/benchmarks.md): against a sort-and-sweep along x, the grid is faster from
N = 1,000 and its time grows like N rather than N^1.5 in a uniformly filled scene.

Temporal coherence (`PairCache`): the grid runs over *fat* boxes, each movable body's box
widened by `FAT_MARGIN` of its extent on every side (a static body's fat box is its box),
and its pairs serve the following ticks: the kept pairs are every pair of active bodies
whose fat boxes overlap, so while every active body's box stays inside its fat box the
pairs of overlapping boxes are a subset of them, and the narrow phase's exact tests drop
the others.  A tick whose bodies stayed in their fat boxes costs one comparison pass over
the boxes instead of the grid.  A body that left its fat box or joined or left the active
set is refiled alone (`refit_pairs`): its pairs dropped, its fat box made anew and tested
against every other fat box.  So a scene of many still bodies and a few movers does not pay
the whole grid each time a mover outruns its margin; once more than `REFIT_BODIES` bodies
(or `REFIT_WORK` box tests' worth) were refiled since the grid, the scene is on the move
and the grid runs again, refreshing every fat box.
"""

import numpy as np

from .constants import INDEX, jit
from .tuning import BIG_FACTOR, FAT_MARGIN, REFIT_BODIES, REFIT_WORK

MAX_CELLS = 2.0 ** 30
"""Most cells along an axis.  Any cell size at least the largest small extent finds every
pair, so the grid coarsens the cells of a scene whose spread is more than this many extents
(micro bodies kilometres apart) instead of letting ``iy * nx + ix`` overflow int64."""


@jit
def _boxes_overlap(aabb, i, j):
    return (aabb[i, 0] <= aabb[j, 2] and aabb[j, 0] <= aabb[i, 2]
            and aabb[i, 1] <= aabb[j, 3] and aabb[j, 1] <= aabb[i, 3])


@jit
def _extent_sum(aabb, active):
    """The sum of the active bodies' box extents (each box's larger side) and their count."""
    total = 0.0
    count = 0
    for b in range(aabb.shape[0]):
        if active[b]:
            total += max(aabb[b, 2] - aabb[b, 0], aabb[b, 3] - aabb[b, 1])
            count += 1
    return total, count


@jit
def _emit(pairs, count, i, j):
    if count < pairs.shape[0]:
        if i < j:
            pairs[count, 0], pairs[count, 1] = i, j
        else:
            pairs[count, 0], pairs[count, 1] = j, i
    return count + 1


@jit
def grid_pairs(aabb, active, movable, pairs, cell_start, order, order_key, cell_key, is_big):
    """Write every overlapping pair of active bodies into `pairs` (smaller index first).

    Parameters
    ----------
    aabb : (N, 4) float64
        Boxes ``xmin, ymin, xmax, ymax``.
    active : (N,) bool
        Bodies to consider; the others are skipped entirely.
    movable : (N,) bool
        False for static bodies: two static bodies are never paired.
    pairs : (P, 2) intp
        Output.
    cell_start, order, order_key, cell_key, is_big
        Work arrays from `GridWorkspace` (sizes fixed by N): the bucket starts, the bodies
        sorted by bucket and their cell keys, each body's cell key (-1 when not filed).

    Returns
    -------
    int
        The number of overlapping pairs; only the first ``len(pairs)`` are written, so the
        caller grows `pairs` and calls again when the count exceeds it.

    """
    n = aabb.shape[0]
    table = cell_start.shape[0] - 1
    mask = table - 1
    total, cnt = _extent_sum(aabb, active)
    if cnt == 0:
        return 0
    big_limit = BIG_FACTOR * total / cnt
    h = 0.0
    x0 = np.inf
    y0 = np.inf
    x1 = -np.inf
    y1 = -np.inf
    n_big = 0
    for i in range(n):
        is_big[i] = False
        if active[i]:
            ext = max(aabb[i, 2] - aabb[i, 0], aabb[i, 3] - aabb[i, 1])
            if ext > big_limit:
                is_big[i] = True
                n_big += 1
            else:
                h = max(h, ext)
                x0 = min(x0, aabb[i, 0])
                y0 = min(y0, aabb[i, 1])
                x1 = max(x1, aabb[i, 0])
                y1 = max(y1, aabb[i, 1])
    # cells no smaller than the spread / MAX_CELLS keep every cell number below 2^62
    h = max(h, max(x1 - x0, y1 - y0) / MAX_CELLS)
    if not h > 0.0:
        h = 1.0
    inv_h = 1.0 / h
    nx = np.int64((x1 - x0) * inv_h) + 3
    # counting sort of the small bodies by folded cell number
    cell_start[:] = 0
    for i in range(n):
        if active[i] and not is_big[i]:
            ix = np.int64((aabb[i, 0] - x0) * inv_h)
            iy = np.int64((aabb[i, 1] - y0) * inv_h)
            key = iy * nx + ix
            cell_key[i] = key
            cell_start[(key & mask) + 1] += 1
        else:
            cell_key[i] = -1
    for t in range(table):
        cell_start[t + 1] += cell_start[t]
    for i in range(n):
        key = cell_key[i]
        if key >= 0:
            # place with the running start, restored below by a shift
            u = cell_start[key & mask]
            cell_start[key & mask] = u + 1
            order[u] = i
            order_key[u] = key
    for t in range(table, 0, -1):
        cell_start[t] = cell_start[t - 1]
    cell_start[0] = 0
    count = 0
    # the scan runs in bucket order: the neighbour buckets it reads then advance through the
    # table instead of jumping about it
    for u in range(cell_start[table]):
        i = order[u]
        key = order_key[u]
        bx0 = aabb[i, 0]
        by0 = aabb[i, 1]
        bx1 = aabb[i, 2]
        by1 = aabb[i, 3]
        for nb in range(5):
            if nb == 0:
                other = key
            elif nb == 1:
                other = key + 1
            else:
                other = key + nx + nb - 3  # (-1, +1), (0, +1), (+1, +1)
            slot = other & mask
            lo = cell_start[slot]
            if nb == 0:
                lo = u + 1  # the own cell: only the bodies filed after i
            for v in range(lo, cell_start[slot + 1]):
                if order_key[v] != other:
                    continue
                j = order[v]
                if (aabb[j, 0] > bx1 or bx0 > aabb[j, 2]
                        or aabb[j, 1] > by1 or by0 > aabb[j, 3]):
                    continue
                if movable[i] or movable[j]:
                    count = _emit(pairs, count, i, j)
    if n_big:
        for i in range(n):
            if not is_big[i]:
                continue
            for j in range(n):
                if j == i or not active[j] or (is_big[j] and j < i):
                    continue
                if (movable[i] or movable[j]) and _boxes_overlap(aabb, i, j):
                    count = _emit(pairs, count, i, j)
    return count


class GridWorkspace:
    """Work arrays of `grid_pairs` for N bodies, allocated once and reused every tick."""

    def __init__(self, n_bodies):
        table = 1
        while table < 2 * max(1, n_bodies):
            table *= 2
        self.cell_start = np.zeros(table + 1, INDEX)
        self.order = np.zeros(n_bodies, INDEX)
        self.order_key = np.zeros(n_bodies, np.int64)
        self.cell_key = np.zeros(n_bodies, np.int64)
        self.is_big = np.zeros(n_bodies, np.bool_)

    def arrays(self):
        """Return the work arrays in the order `grid_pairs` takes them."""
        return self.cell_start, self.order, self.order_key, self.cell_key, self.is_big


@jit
def _fatten(aabb, active, movable, margin, fat, fat_active, only, every):
    """Fat boxes of the bodies b with `every` or ``only[b]``: `fat_active` copies `active`,
    an active movable body's box widened on every side by `margin` times its larger side, or
    times the mean larger side of the active bodies when that is smaller (the margin of a
    40 m wall would hold every body beside it).  A static body's fat box is its box: it
    leaves it only when given a new pose, and a margin would pair it with every body that
    passes near (a 6 m shelf's 1.5 m margin reaches over the aisle beside it)."""
    n = aabb.shape[0]
    total, count = _extent_sum(aabb, active)
    mean = total / max(count, 1)
    for b in range(n):
        if every or only[b]:
            fat_active[b] = active[b]
            if active[b]:
                m = 0.0
                if movable[b]:
                    m = margin * min(max(aabb[b, 2] - aabb[b, 0], aabb[b, 3] - aabb[b, 1]),
                                     mean)
                fat[b, 0] = aabb[b, 0] - m
                fat[b, 1] = aabb[b, 1] - m
                fat[b, 2] = aabb[b, 2] + m
                fat[b, 3] = aabb[b, 3] + m


@jit
def fatten(aabb, active, movable, margin, fat, fat_active):
    """Write the fat box of every body (`_fatten`)."""
    _fatten(aabb, active, movable, margin, fat, fat_active, fat_active, True)


@jit
def refit_pairs(aabb, active, movable, margin, kept):
    """Keep the kept pairs of a `PairCache` right for these boxes, refiling one by one the
    bodies that joined or left the active set or whose box left its fat box, or say the grid
    must run.

    `kept` is ``(fat, fat_active, pairs, n_pairs, refiled)``, `refiled` an (N,) int8 array
    zeroed by each grid: 1 for a body refiled since (2 while it is refiled).  Each refiled
    body loses its pairs, gets a fat box as `fatten` makes them (when active) and is tested
    against every other active fat box; the kept pairs stay every pair of active bodies with
    overlapping fat boxes, one of them movable, each once (smaller index first).

    Returns the new number of pairs (n_pairs when every body stayed), or -1 when the grid
    must run: the new pairs do not fit, or more than `REFIT_BODIES` bodies, or `REFIT_WORK`
    box tests, have been refiled since the grid (bodies refiled since the grid are the
    movers of a still scene; many of them mean a scene on the move, where the grid, which
    refreshes every fat box, costs less than refiling body after body).  The box tests are
    written out in the loops: a helper taking the arrays costs ten times the test.
    """
    fat, fat_active, pairs, n_pairs, refiled = kept
    n = aabb.shape[0]
    limit = min(REFIT_BODIES, REFIT_WORK // max(n, 1))
    k = 0
    for b in range(n):
        if active[b] != fat_active[b] or (active[b] and (
                aabb[b, 0] < fat[b, 0] or aabb[b, 1] < fat[b, 1]
                or aabb[b, 2] > fat[b, 2] or aabb[b, 3] > fat[b, 3])):
            k += 1
            if k > limit:
                return -1
            refiled[b] = 2
    if k == 0:
        return n_pairs
    movers = 0
    for b in range(n):
        movers += refiled[b] != 0
    if movers > limit:
        return -1
    now = refiled == 2
    _fatten(aabb, active, movable, margin, fat, fat_active, now, False)
    count = 0
    for r in range(n_pairs):
        i, j = pairs[r, 0], pairs[r, 1]
        if not (now[i] or now[j]):
            pairs[count, 0], pairs[count, 1] = i, j
            count += 1
    for b in range(n):
        if not now[b]:
            continue
        now[b] = False  # from here b is as any kept body: a refiled o > b pairs with it
        refiled[b] = 1
        if not active[b]:
            continue
        bx0, by0, bx1, by1 = fat[b, 0], fat[b, 1], fat[b, 2], fat[b, 3]
        for o in range(n):
            if (o != b and active[o] and not now[o] and (movable[b] or movable[o])
                    and fat[o, 0] <= bx1 and bx0 <= fat[o, 2]
                    and fat[o, 1] <= by1 and by0 <= fat[o, 3]):
                count = _emit(pairs, count, b, o)
    return count if count <= pairs.shape[0] else -1


@jit
def candidate_pairs(aabb, active, movable, cache):
    """Bring the candidate pairs of `cache` (`PairCache.arrays()`) up to date with these boxes
    and return their number: `refit_pairs` while the kept pairs hold, else `fatten` and
    `grid_pairs`.  A count larger than the pairs array means they did not fit: the caller
    grows the array (`PairCache.grow`) and calls again, which runs the grid."""
    fat, fat_active, pairs, refiled, state, cell_start, order, order_key, cell_key, is_big = cache
    if state[1]:
        count = refit_pairs(aabb, active, movable, FAT_MARGIN,
                            (fat, fat_active, pairs, state[0], refiled))
        if count >= 0:
            state[0] = count
            return count
    fatten(aabb, active, movable, FAT_MARGIN, fat, fat_active)
    refiled[:] = 0
    count = grid_pairs(fat, active, movable, pairs, cell_start, order, order_key, cell_key,
                       is_big)
    state[2] += 1
    state[1] = count <= pairs.shape[0]
    state[0] = count if state[1] else 0
    return count


class PairCache:
    """Candidate pairs of N bodies kept from tick to tick (see the module notes).

    `candidates(aabb, active, movable)` returns the number of candidate rows of `pairs`: every
    pair of active bodies whose fat boxes overlap, one of them movable, each once (smaller
    index first), which includes every pair of overlapping boxes.  The body set (N,
    `movable`) is fixed for the cache's life.  The compiled ticks take `arrays()` and call
    `candidate_pairs` themselves; `count` and `grids` read what they left.  `rows` is the
    first capacity of `pairs` (default ``max(16, 2 N)``); it grows as needed.
    """

    def __init__(self, n_bodies, rows=None):
        self.grid = GridWorkspace(n_bodies)
        self.fat = np.zeros((n_bodies, 4))
        self.fat_active = np.zeros(n_bodies, np.bool_)
        self.refiled = np.zeros(n_bodies, np.int8)
        # the pairs' count, whether the kept pairs serve (else the grid runs next), and
        # how many times the grid ran
        self.state = np.zeros(3, np.int64)
        self._room(max(16, 2 * n_bodies) if rows is None else rows)

    def _room(self, rows):
        """A pairs array of `rows` rows, and the tuple the kernels take."""
        self.pairs = np.zeros((rows, 2), INDEX)
        self._arrays = (self.fat, self.fat_active, self.pairs, self.refiled, self.state,
                        *self.grid.arrays())

    count = property(lambda self: int(self.state[0]),
                     doc='Candidate pairs the last call left (rows of `pairs`).')
    grids = property(lambda self: int(self.state[2]),
                     doc='How many times the grid ran (the other calls refitted).')

    def arrays(self):
        """The cache as `candidate_pairs` takes it (one tuple, made when `pairs` is)."""
        return self._arrays

    def grow(self, count):
        """Room for `count` pairs, more than there is (twice as many); the next call runs the
        grid."""
        self._room(2 * count)
        self.state[1] = 0

    def candidates(self, aabb, active, movable):
        """Return the number of candidate pairs for these boxes (rows of `pairs`)."""
        while True:
            count = candidate_pairs(aabb, active, movable, self.arrays())
            if count <= self.pairs.shape[0]:
                return count
            self.grow(count)
