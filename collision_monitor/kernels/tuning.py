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
"""Every tuned threshold in one place: each changes how fast an answer comes, never the answer.

Name (value): what it trades; where it was measured (`make bench` unless named).

- `PARALLEL_WORK` (1024): one thread against waking others, in items x vertices; 3D
  batch queries (`benchmarks.bench3d`).
- `BIG_FACTOR` (8): a body tested against all against grid cells sized by it; warehouses.
- `FAT_MARGIN` (0.25): grid runs against candidate pairs kept; detection at 10,000 bodies.
- `REFIT_BODIES` (16), `REFIT_WORK` (16,384): refiling movers one by one against running
  the grid; warehouses, detection at 1,000 to 100,000 bodies.
- `DISC_BOX_FILL` (0.5): a box from the pose alone against fewer candidates; the scene
  variants.
- `SAT_SCAN_PAIRS` (128): scanning every vertex for each axis against walking; the narrow
  phase on many-vertex scene variants.
- `CLIP_ROUNDS` (4), `CERTIFICATE_ROUNDS` (2): Bezier clips against root isolation and
  against searching; the look-ahead.
- `CERTIFICATE_VERTICES` (9): the separating-line certificate against the search alone;
  the look-ahead's meeting pairs.
- `MIN_BLOCK_SECONDS` (10 s), `FEED_COST` (0.1): a replay block's process against its start-up
  and reading ahead; `benchmarks.replay_speed`.

Each constant's own note below gives the figures that set it.
"""

PARALLEL_WORK = 1024
"""Work (items times vertices per item) from which `call_parallel` uses more than one thread:
about 0.15 ms of one thread's work on 3D hull pairs.  Below it one thread is about as fast on
an idle machine and, on a loaded one, a parallel call waits for a thread that lost its core
(measured: 10 pairs of 8-vertex hulls, 0.05 ms on one thread, 8 ms on two beside a test run).
"""

BIG_FACTOR = 8.0
"""A body whose box's larger side exceeds this many times the mean is *big* (a wall, a long
shelf): tested against every other body directly instead of sizing the grid's cells, which
would otherwise grow to its extent and put most bodies in few cells."""

FAT_MARGIN = 0.25
"""Margin of a fat box on every side, as a share of the body box's larger side (at most of
the mean larger side: see `fatten`).  A body of 1 m moving at 1 m/s stays 25 ticks of 10 ms
in its fat box, so the grid runs about once in 25 ticks whatever the number of bodies (the
fastest one sets the pace); the fatter boxes add candidate pairs, which the narrow phase's
bounding circles drop for a few nanoseconds each.  Measured (8-gons, 20 ms ticks, up to
1 m/s), mean set_poses + detect at 10,000 bodies: 240 us with 0.1, 215 with 0.3, 208 with
1.0; the median stays 195."""

REFIT_BODIES = 16
"""Most bodies refiled one by one between two grids (`refit_pairs`): the movers of a still
scene, a few robots among shelves, are refiled again and again and never bring the grid
back; in a scene on the move every body leaves its fat box soon after the grid, and
refiling them one by one, each tick, costs more than the grid that resets them all."""

REFIT_WORK = 16384
"""Most box tests (bodies refiled since the grid times N) before the grid runs again: a
refiled body is tested against all N fat boxes at a nanosecond or two each, so 16 movers
among 1,000 bodies or one among 10,000 cost a few percent of a grid (about 50 ns a body),
and a world of 100,000 always runs the grid."""

DISC_BOX_FILL = 0.5
"""A body whose vertex box fills, on average over its yaw, at least this share of its bounding
disc's box (`box_fill`) gets the disc's box, ``(x, y) +- rho`` whatever its yaw: no sine,
cosine or vertex per tick.  A body whose disc box would hold far more space than its vertex
box (a wall, a footprint far off its origin) gets the box of its vertices, so that it is not
a candidate of every body near its disc.  A static body gets the box of its vertices
whatever its fill: made once while its pose stays, it costs nothing per tick.  A choice of
speed only: any box holding the body gives the same contacts.

Measured at 10,000 bodies of circumradius 0.5 m spread for 2% of them touching, disc boxes
made detect 2 to 3.4 times faster for rectangles of aspect 1:1 to 8:1 (fills 0.82 to
0.44), a triangle and stars, and 1.2 to 1.6 times at 30% touching.  Those scenes are
spaced by the bounding radius; the threshold keeps the vertex box for bodies whose disc box
holds over twice the space, where a scene spaced by footprints (a wall among robots) would
make every body near the disc a candidate: rectangles longer than about 5:1, and a
0.6 m x 0.4 m footprint with its origin 0.2 m behind its centre (fill 0.35)."""

SAT_SCAN_PAIRS = 128
"""Up to this many vertex pairs (n m) `sat_kernel` scans every vertex for each axis; above it,
it walks first (`walked_sat`).  In the narrow phase here (10,000 bodies, 2% touching) that
takes 0.94x the scan's time at 12 vertices each, 0.86x at 16 and 0.82x at 32; below about
12, a pair apart is settled faster by the scan's early axes than by a walk's set-up."""

CLIP_ROUNDS = 4
"""Rounds of Bezier clipping per vertex-edge event before its roots are isolated."""

CERTIFICATE_ROUNDS = 2
"""Rounds of Bezier clipping that `line_certificate` spends showing a vertex stays clear."""

CERTIFICATE_VERTICES = 9
"""Fewest vertices of a pair (both polygons together) for which `first_contact_kernel` tries
`line_certificate` first.  Its cost is mostly fixed (the facing lines, the edges' length
bounds, a quartic per vertex), the exhaustive search's grows with n m: measured on the
pairs of a look-ahead that meet, per pair, the certificate first against the search alone,
triangles 1.52 against 1.41 us, squares 1.60 against 1.50, pentagons 1.55 against 1.78,
octagons 1.87 against 2.58; a robot (0.9 m x 0.6 m) closing on a shelf's end (6 m x
0.8 m) 1.95 against 1.22."""

MIN_BLOCK_SECONDS = 10.0
"""The shortest block worth a process: its worker's start (loading the kernels, reading the
bag up to its warm-up) costs about a second's ticks."""

FEED_COST = 0.1
"""What reading and feeding a tick's inputs without the tick costs, as a share of the tick
(100 bodies at 50 Hz here: 30 us against 265): a later block's worker spends that on every
tick before its warm-up, so later blocks are made shorter."""
