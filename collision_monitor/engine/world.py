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
"""The engine: named polygon bodies, their poses, and every contact on every tick."""

import math
from typing import NamedTuple
import weakref

import numba
import numpy as np

from .tick_state import pack_bodies, TickState
from ..kernels.constants import FLOAT, INDEX, MAX_COORDINATE, MotionModel, PREDICTORS
from ..kernels.geometry2d.contact import Contact
from ..kernels.geometry2d.primitives import centroid
from ..kernels.geometry2d.validation import (is_convex, polygon_orientation,
                                             rows_finite_extent, validate_footprint)
from ..kernels.kinematics import vertices_ahead
from ..kernels.lookback import contact_onsets
from ..kernels.motion import write_motion, write_poses
from ..kernels.narrowphase import (box_fill, narrow_phase_slots, pair_distances, place_and_pair,
                                   place_vertices)
from ..kernels.packed import Bodies, ContactRows, Features, Motion, PredictionRows
from ..kernels.threads import set_kernel_threads, threads_for
from ..kernels.toi import FirstContact, place_and_predict, search_pairs
from ..kernels.tuning import DISC_BOX_FILL


_FSTART = ContactRows._fields.index('fstart')


class Contacts:
    """Every contact of one tick, as arrays, with `Contact` objects built on demand.

    Attributes
    ----------
    names : tuple of str
        Body names, indexed by body index.
    pairs : (k, 2) intp
        Body indices (i < j) of each contacting pair; body a of the Contact is ``pairs[c, 0]``.
    kind : (k,) int8, normal : (k, 2) float64, depth : (k,) float64
        Per contact, as in `Contact`.
    points : (F, 2) float64, point_start : (k + 1,) intp
        The points of contact c (`Contact.points`) are rows
        ``points[point_start[c]:point_start[c + 1]]``.
    began : (k,) float64
        When each contact began (the time base of the stamps given to `CollisionWorld.detect`):
        carried over while the contact lasts; for a new contact, interpolated from the state
        at the previous tick ([polygons]' interpolated time of collision); the current stamp
        when that state cannot place it; nan when detect was called without a stamp.

    Every array is this object's own.  The contacts of a tick are first read from the
    world's buffers, each array copied out when it is first read: a tick that reads only
    `pairs` copies only that.  The world writes two sets of buffers in turn, so the
    contacts of the last tick can be kept while the next one runs at no cost; before the
    world writes this object's set again it copies out whatever the object has not read
    yet (`_keep`), so a `Contacts` kept across ticks never changes.

    """

    def __init__(self, names, rows, features, began):
        """`rows` are `packed.ContactRows` and `features` `packed.Features`, each cut to the
        contacts and feature rows of this tick."""
        self.names = names
        self._count = rows.pairs.shape[0]
        self._rows = list(rows)
        self._features = list(features)
        self._began = began
        self._lent = None

    @classmethod
    def _lent_by(cls, names, rows, features, nc, nf, began):
        """The first nc contact rows and nf feature rows of a world's buffers, read at first
        use; `began` None stands for nan (no stamp)."""
        contacts = cls.__new__(cls)
        contacts.names = names
        contacts._count = nc
        contacts._rows = [None] * len(rows)
        contacts._features = [None] * len(features)
        contacts._began = began
        contacts._lent = (rows, features, nc, nf)
        return contacts

    @classmethod
    def none(cls, names=()):
        """No contact (shared read-only empty arrays)."""
        return cls(tuple(names), _NO_CONTACTS, _NO_FEATURES, _NO_CONTACTS.depth)

    def _row(self, k):
        """Column k of the contact rows (`packed.ContactRows` order), copied at first use."""
        column = self._rows[k]
        if column is None:
            rows, _, nc, _ = self._lent
            column = self._rows[k] = rows[k][:nc + 1 if k == _FSTART else nc].copy()
        return column

    def _feature(self, k):
        """Column k of the feature rows (`packed.Features` order), copied at first use."""
        column = self._features[k]
        if column is None:
            _, features, _, nf = self._lent
            column = self._features[k] = features[k][:nf].copy()
        return column

    def _keep(self):
        """Copy out every column not read yet: the world is about to write its buffers."""
        if self._lent is not None:
            for k in range(len(self._rows)):
                self._row(k)
            for k in range(len(self._features)):
                self._feature(k)
            self._lent = None

    pairs = property(lambda self: self._row(0))
    kind = property(lambda self: self._row(1))
    normal = property(lambda self: self._row(2))
    depth = property(lambda self: self._row(3))
    point_start = property(lambda self: self._row(_FSTART))
    points = property(lambda self: self._feature(0))

    @property
    def began(self):
        if self._began is None:
            self._began = np.full(self._count, np.nan)
        return self._began

    def __len__(self):
        return self._count

    def __getitem__(self, c):
        """Return the `Contact` of the c-th pair."""
        lo, hi = self.point_start[c], self.point_start[c + 1]
        fxy, fpb, fkind, fidx = (self._feature(k)[lo:hi] for k in range(len(self._features)))
        return Contact(self.kind[c], self.normal[c, 0], self.normal[c, 1], self.depth[c], fxy,
                       fpb, fkind, fidx)

    def take(self, rows):
        """The contacts of `rows` (indices into these contacts, in that order) as `Contacts`."""
        rows = np.asarray(rows, INDEX).reshape(-1)
        lo, hi = self.point_start[rows], self.point_start[rows + 1]
        start = np.zeros(rows.shape[0] + 1, INDEX)
        np.cumsum(hi - lo, out=start[1:])
        # feature row f of the result is row lo[c] + (f - start[c]) of these, c its contact
        owner = np.repeat(np.arange(rows.shape[0]), hi - lo)
        feature_rows = lo[owner] + np.arange(start[-1]) - start[owner]
        return Contacts(self.names,
                        ContactRows(self.pairs[rows], self.kind[rows], self.normal[rows],
                                    self.depth[rows], start),
                        Features(*(self._feature(k)[feature_rows]
                                   for k in range(len(self._features)))),
                        self.began[rows])

    def __iter__(self):
        """Yield ``(name_a, name_b, Contact)`` for every contacting pair."""
        for c in range(len(self)):
            i, j = self.pairs[c]
            yield self.names[i], self.names[j], self[c]

    def name_pairs(self):
        """Return the contacting pairs as a list of ``(name_a, name_b)``."""
        return [(self.names[i], self.names[j]) for i, j in self.pairs]


class Predictions:
    """Every pair predicted to touch within the horizon, as arrays, iterable as FirstContact.

    Attributes
    ----------
    names : tuple of str
    pairs : (k, 2) intp
        Body indices (i < j); body a of each FirstContact is ``pairs[c, 0]``.
    time : (k,) float64
        Seconds from now to the first contact; 0.0 for pairs already touching.
    side : (k,) intp
        0 when a vertex of body a meets an edge of body b, 1 the other way, -1 at time 0.
    vertex, edge : (k,) intp
    point, normal : (k, 2) float64
        Predicted contact point and unit normal from a to b (nan at time 0).

    """

    def __init__(self, names, pairs, time, side, vertex, edge, point, normal):
        self.names = names
        self.pairs = pairs
        self.time = time
        self.side = side
        self.vertex = vertex
        self.edge = edge
        self.point = point
        self.normal = normal

    def __len__(self):
        return self.pairs.shape[0]

    def __getitem__(self, c):
        """Return the `FirstContact` of the c-th pair."""
        side = int(self.side[c])
        return FirstContact(float(self.time[c]), 'ab'[side] if side >= 0 else '',
                            int(self.vertex[c]), int(self.edge[c]), self.point[c].copy(),
                            self.normal[c].copy())

    def rows(self, which=None):
        """The `FirstContact` of each row index in `which` (default: every row, in order), as
        a list made with one conversion per column where ``[p[c] for c in which]`` converts
        each field of each row.  Its points and normals are rows of `point` and `normal`
        (views, not copies)."""
        time, side, vertex, edge = (a.tolist() for a in (self.time, self.side, self.vertex,
                                                         self.edge))
        point, normal = self.point, self.normal
        return [FirstContact(time[c], 'ab'[side[c]] if side[c] >= 0 else '', vertex[c],
                             edge[c], point[c], normal[c])
                for c in (range(len(time)) if which is None else which)]

    def __iter__(self):
        """Yield ``(name_a, name_b, FirstContact)``, earliest first."""
        for c in np.argsort(self.time, kind='stable'):
            i, j = self.pairs[c]
            yield self.names[i], self.names[j], self[c]


def _read_only(*arrays):
    """The arrays, made read-only (a view of a world's own array first, so that it stays
    writable)."""
    for a in arrays:
        a.flags.writeable = False
    return arrays


_NO_CONTACTS = ContactRows(*_read_only(np.zeros((0, 2), INDEX), np.zeros(0, np.int8),
                                       np.zeros((0, 2), FLOAT), np.zeros(0, FLOAT),
                                       np.zeros(1, INDEX)))
_NO_PREDICTIONS = PredictionRows(*_read_only(
    np.zeros((0, 2), INDEX), np.zeros(0, FLOAT), np.zeros(0, INDEX), np.zeros(0, INDEX),
    np.zeros(0, INDEX), np.zeros((0, 2), FLOAT), np.zeros((0, 2), FLOAT)))
_NO_PAIRS = np.zeros((0, 2), INDEX)
"""No pairs (writable, as the contact rows it stands for: one kernel signature): a search
knowing no contact."""
# the memory of no stamped tick (writable, as every memory is: one kernel signature)
_NO_HISTORY = (np.nan, np.zeros(0, np.int64), np.zeros(0, FLOAT), np.zeros(0, np.bool_))
_NO_FEATURES = Features(*_read_only(np.zeros((0, 2), FLOAT), np.zeros((0, 2), FLOAT),
                                    np.zeros(0, np.int8), np.zeros((0, 2), INDEX)))


class WorldView(NamedTuple):
    """Read-only views of what a world's last calls left, as `CollisionWorld.view` gives
    them (N bodies, in registration order; metres, the world frame): for tests, tools and
    pictures.  The arrays change when the world next ticks; copy what must outlast that.

    Attributes
    ----------
    boxes : (N, 4) float64
        Each body's box ``(xmin, ymin, xmax, ymax)`` at its current pose, padded by the
        tolerance (placed by `detect`, `predict` and `step`; a body's bounding disc's box when
        `disc_box`).
    fat_boxes : (N, 4) float64
        The boxes `detect`'s kept candidate pairs were found over: a movable body's box
        widened by `tuning.FAT_MARGIN`, a static one's box.
    candidates : (P, 2) intp
        `detect`'s kept candidate pairs ``(i, j)``, i < j: every pair of active bodies whose
        fat boxes overlap.
    swept_boxes : (N, 4) float64
        Each body's box over the last look-ahead's horizon under its model.
    swept_candidates : (Q, 2) intp
        The last look-ahead's candidate pairs (their swept boxes overlap); empty once a body
        moved since.
    movable, disc_box : (N,) bool
        Not static; boxed by its bounding disc (`tuning.DISC_BOX_FILL`).
    twists, accelerations : (N, 3) float64
        What `set_twists` and `set_accelerations` (or `set_motion`) last gave each body.
    bodies : `kernels.packed.Bodies`
        The footprints as the kernels take them: every body's vertex offsets in one array
        (rows ``vstart[b]:vstart[b + 1]``), winding, convexity, bounding radius, centroid
        offset and `disc_box`.
    grids : (int, int)
        How many times the grid ran for `detect`'s and for the look-ahead's candidates since
        the body set last changed (the other calls refitted the kept pairs).

    """

    boxes: np.ndarray
    fat_boxes: np.ndarray
    candidates: np.ndarray
    swept_boxes: np.ndarray
    swept_candidates: np.ndarray
    movable: np.ndarray
    disc_box: np.ndarray
    twists: np.ndarray
    accelerations: np.ndarray
    bodies: Bodies
    grids: tuple


class _ContactBuffers:
    """One set of the buffers that `narrow_phase` writes (`packed.ContactRows` for
    `contacts` pairs, `packed.Features` for `features` rows), their plain tuples for the
    kernels, and `lent`: a weak reference to the `Contacts` reading them, or None."""

    __slots__ = ('rows', 'features', 'rows_args', 'features_args', 'lent')

    def __init__(self, contacts, features):
        self.rows = ContactRows(np.zeros((contacts, 2), INDEX), np.zeros(contacts, np.int8),
                                np.zeros((contacts, 2), FLOAT), np.zeros(contacts, FLOAT),
                                np.zeros(contacts + 1, INDEX))
        self.features = Features(np.zeros((features, 2), FLOAT),
                                 np.zeros((features, 2), FLOAT), np.zeros(features, np.int8),
                                 np.zeros((features, 2), INDEX))
        self.rows_args, self.features_args = tuple(self.rows), tuple(self.features)
        self.lent = None

    def reader(self):
        """The `Contacts` still reading these buffers, or None."""
        return None if self.lent is None else self.lent()


class _Body:
    __slots__ = ('name', 'offsets', 'orient', 'convex', 'centroid', 'radius', 'disc_box',
                 'static')

    def __init__(self, name, footprint, static):
        self.name = name
        self.offsets = validate_footprint(footprint, f'footprint of body {name!r}')
        self.orient = polygon_orientation(self.offsets)
        self.convex = is_convex(self.offsets)
        self.centroid = np.array(centroid(self.offsets))
        # [polygons]: rho_i = max norm(s_i^P), constant, about the body's origin
        self.radius = float(np.max(np.hypot(self.offsets[:, 0], self.offsets[:, 1])))
        # a static body's vertex box is made once while its pose stays (`place_bodies`)
        self.disc_box = not static and box_fill(self.offsets) >= DISC_BOX_FILL
        self.static = bool(static)


class CollisionWorld:
    """Polygon bodies in a plane and the contacts between them.

    Register each body once with its footprint: a simple polygon in the body frame (metres,
    CW or CCW, convex or concave).  Its vertex offsets, bounding radius, centroid, winding and
    convexity are fixed then.  Then, every tick, set the poses ``(x, y, yaw)`` (world frame,
    metres and radians) of many bodies at once and call `detect`.

    A body takes part in a tick once it has a pose and while it is active (see `set_active`).
    Two static bodies are never tested against each other.

    Attributes
    ----------
    predictor : MotionModel or {'arc', 'holonomic', 'constant_acceleration', 'constant_velocity'}
        Motion model of `predict` and `step`, and of the look-back of `detect`, for every
        body without one of its own (`set_predictors`); default 'arc' (ValueError when set to
        anything else).  ARC fits robots that drive and turn (differential drive, Ackermann),
        HOLONOMIC bodies whose heading does not steer their path (omnidirectional bases,
        people, carts); the seed's point models are exact only for bodies that do not turn.
    threads : int or None
        Threads of the parallel kernels in this world's calls (capped at numba's); None for
        every core.  A call with less work than `tuning.PARALLEL_WORK` (bodies for the
        swept boxes, candidate pairs times vertices for the narrow phase and the first
        contacts) runs on one thread whatever this says.  On a machine shared with other
        busy processes one thread keeps each call's latency steady: a parallel loop waits for
        its slowest thread, and a thread that loses its core waits a scheduler time slice.

    Examples
    --------
    >>> world = CollisionWorld()
    >>> world.add_body('robot', [[-0.5, -0.3], [0.5, -0.3], [0.5, 0.3], [-0.5, 0.3]])
    0
    >>> world.add_body('shelf', [[0, 0], [2, 0], [2, 0.5], [0, 0.5]], static=True,
    ...                pose=(0.4, 0.0, 0.0))
    1
    >>> world.set_poses([[0.0, 0.0, 0.0]], ['robot'])
    >>> [(a, b) for a, b, _ in world.detect()]
    [('robot', 'shelf')]

    """

    def __init__(self):
        self._bodies = []
        self._index = {}
        # per-body state: views of the first N rows of `_stores` (see `_grow_rows`)
        self._stores = (np.zeros((0, 3), FLOAT), np.zeros((0, 3), FLOAT),
                        np.zeros((0, 3), FLOAT), np.zeros(0, np.bool_), np.zeros(0, np.bool_),
                        np.zeros(0, INDEX))
        (self._poses, self._twists, self._accels, self._has_pose, self._enabled,
         self._own_models) = self._stores
        self._effective = None  # each body's model value, made by `_models` when needed
        self._tick = None  # the `TickState` of the body set (None: made at the next call)
        self._names = None
        # the last stamped tick: (stamp, pair keys i * N + j sorted, their began times,
        # active mask, names), as `lookback.contact_onsets` takes and writes it
        self._history = None
        # the contact buffers: the set the last tick wrote, then the other (None until needed)
        self._buffers = [None, None]
        self._state_prev = Motion(*(np.zeros((0, 3), FLOAT) for _ in range(3)))  # its state
        self.predictor = 'arc'
        self.threads = None

    @property
    def threads(self):
        """Threads of a large parallel call, as set (see Attributes)."""
        return self._threads

    @threads.setter
    def threads(self, value):
        pool = numba.config.NUMBA_NUM_THREADS
        self._parallel_count = max(1, min(int(value or pool), pool))  # made once, not a tick
        self._threads = value

    @property
    def predictor(self):
        """The default motion model, as it was set (see Attributes)."""
        return self._predictor

    @predictor.setter
    def predictor(self, value):
        # parsed once here, not on every tick: after a pause between ticks each Python call
        # costs microseconds
        self._default_model = MotionModel.parse(value)
        self._predictor = value
        self._effective = None

    # registration --------------------------------------------------------------------------
    def add_body(self, name, footprint, *, static=False, pose=None, predictor=None):
        """Register a body and return its index.

        `predictor` is the body's own motion model (see `set_predictors`); None takes the
        world's `predictor`.

        Raises ValueError when the name is taken, the footprint is not a simple polygon
        (self-crossing, fewer than 3 distinct vertices, zero area, non-finite, a vertex beyond
        `constants.MAX_COORDINATE` of the body origin) or the pose is not a finite
        ``(x, y, yaw)`` within `constants.MAX_COORDINATE`, naming the body and the defect;
        nothing is registered then.
        """
        if not isinstance(name, str) or not name:
            raise ValueError(f'body names are non-empty strings, got {name!r}')
        if name in self._index:
            raise ValueError(f'body {name!r} is already registered')
        body = _Body(name, footprint, static)
        model = -1 if predictor is None else int(MotionModel.parse(predictor))
        if pose is not None:
            pose = self._checked_rows([pose], 1, 'poses', lambda rows: [name])
        self._bodies.append(body)
        self._index[name] = len(self._bodies) - 1
        self._names = None
        self._grow_rows()
        self._own_models[-1] = model
        self._tick = None
        if pose is not None:
            self._poses[-1] = pose[0]
            self._has_pose[-1] = True
        return self._index[name]

    def set_footprint(self, name, footprint):
        """Replace a body's footprint (its index, pose and flags stay)."""
        body = self._bodies[self.index(name)]
        self._bodies[self.index(name)] = _Body(name, footprint, body.static)
        self._tick = None

    def _grow_rows(self):
        """One more row of per-body state (pose, twist, acceleration zero; no pose yet;
        active): the state arrays are views of stores whose capacity doubles when full, so
        that registering N bodies copies O(N) rows, not O(N^2)."""
        n = self._poses.shape[0]
        if n == self._stores[0].shape[0]:
            cap = max(16, 2 * n)
            spare = (np.zeros((cap - n, *s.shape[1:]), s.dtype) for s in self._stores)
            self._stores = tuple(np.concatenate([s[:n], z]) for s, z in zip(self._stores, spare))
        (self._poses, self._twists, self._accels, self._has_pose, self._enabled,
         self._own_models) = (s[:n + 1] for s in self._stores)
        for rows in (self._poses, self._twists, self._accels):
            rows[n] = 0.0
        self._has_pose[n] = False
        self._enabled[n] = True
        self._own_models[n] = -1
        self._effective = None

    def set_predictors(self, predictors, bodies):
        """Give bodies their own motion models.

        Parameters
        ----------
        predictors : sequence of (MotionModel, str or None)
            One per body: a member, its lower-case name, or None for the world's `predictor`.
        bodies : sequence of str or int
            Names or indices.

        Raises ValueError for an unknown model (nothing is changed then).

        """
        idx = self._as_indices(bodies)
        if len(predictors) != idx.shape[0]:
            raise ValueError(f'{len(predictors)} predictors for {idx.shape[0]} bodies')
        values = [-1 if p is None else int(MotionModel.parse(p)) for p in predictors]
        self._own_models[idx] = values
        self._effective = None

    def predictors(self):
        """Each body's motion model in index order (its own, or the world's `predictor`)."""
        return tuple(MotionModel(m) for m in self._models(None).tolist())

    def remove_body(self, name):
        """Forget a body; the indices of the bodies after it shift down by one."""
        k = self.index(name)
        del self._bodies[k]
        self._poses = np.delete(self._poses, k, axis=0)
        self._twists = np.delete(self._twists, k, axis=0)
        self._accels = np.delete(self._accels, k, axis=0)
        self._has_pose = np.delete(self._has_pose, k)
        self._enabled = np.delete(self._enabled, k)
        self._own_models = np.delete(self._own_models, k)
        self._stores = (self._poses, self._twists, self._accels, self._has_pose, self._enabled,
                        self._own_models)
        self._effective = None
        self._index = {b.name: i for i, b in enumerate(self._bodies)}
        self._names = None
        self._tick = None

    def index(self, name):
        """Return the index of a body, or raise KeyError naming it."""
        try:
            return self._index[name]
        except KeyError:
            raise KeyError(f'no body named {name!r}') from None

    def indices(self, names):
        """Return the indices of several bodies as an intp array."""
        return np.array([self.index(n) for n in names], dtype=INDEX)

    @property
    def names(self):
        """Body names in index order."""
        if self._names is None:
            self._names = tuple(b.name for b in self._bodies)
        return self._names

    def footprint(self, name):
        """Return a copy of a body's footprint (its vertex offsets in its own frame)."""
        return self._bodies[self.index(name)].offsets.copy()

    # state ---------------------------------------------------------------------------------
    def set_poses(self, poses, bodies=None):
        """Set ``(x, y, yaw)`` poses, one row per body.

        Parameters
        ----------
        poses : (k, 3) array_like of float
            World poses: metres, metres, radians (CCW from the world x axis).
        bodies : sequence of str or int, optional
            Names or indices of the k bodies; all bodies in index order when omitted.

        Raises ValueError for a wrong shape, non-finite values (naming the bodies) or
        coordinates beyond `constants.MAX_COORDINATE`; nothing is changed then.

        """
        if bodies is None:  # every body: one compiled check-and-copy (refusals explained below)
            arr = np.ascontiguousarray(poses, FLOAT)
            if (arr.shape == self._poses.shape
                    and write_poses(arr, self._poses, self._has_pose, MAX_COORDINATE)):
                self._moved()
                return
        idx, (arr,) = self._rows(bodies, poses=poses)
        self._poses[idx] = arr
        self._has_pose[idx] = True
        self._moved()

    def set_twists(self, twists, bodies=None):
        """Set ``(vx, vy, omega)`` world-frame velocities (m/s, m/s, rad/s), as `set_poses`."""
        idx, (arr,) = self._rows(bodies, twists=twists)
        self._twists[idx] = arr

    def set_accelerations(self, accelerations, bodies=None):
        """Set ``(ax, ay, alpha)`` world-frame accelerations (m/s^2, rad/s^2), as `set_poses`."""
        idx, (arr,) = self._rows(bodies, accelerations=accelerations)
        self._accels[idx] = arr

    def set_motion(self, poses, twists, accelerations, bodies=None):
        """Set poses, twists and accelerations of the same bodies in one call, as
        `set_poses`, `set_twists` and `set_accelerations` (each checked; nothing changed when
        one is refused)."""
        if isinstance(bodies, np.ndarray) and bodies.dtype == INDEX and bodies.ndim == 1:
            # one compiled pass checks and writes; a refusal is explained by the checks below
            rows = tuple(np.ascontiguousarray(v, FLOAT) for v in (poses, twists, accelerations))
            if (all(r.shape == (bodies.shape[0], 3) for r in rows)
                    and write_motion(rows, bodies, (self._poses, self._twists, self._accels),
                                     self._has_pose, MAX_COORDINATE)):
                self._moved()
                return
        idx, checked = self._rows(bodies, poses=poses, twists=twists,
                                  accelerations=accelerations)
        self._poses[idx], self._twists[idx], self._accels[idx] = checked
        self._has_pose[idx] = True
        self._moved()

    def _rows(self, bodies, **values):
        """Checked (index, [rows per keyword]) for a setter; index is a slice for "all
        bodies"; each keyword names what its rows are in the errors."""
        idx = slice(None) if bodies is None else self._as_indices(bodies)
        count = len(self._bodies) if bodies is None else idx.shape[0]
        rows = np.arange(count) if bodies is None else idx
        return idx, [self._checked_rows(v, count, what,
                                        lambda bad: [self._bodies[k].name for k in rows[bad]])
                     for what, v in values.items()]

    @staticmethod
    def _checked_rows(values, count, what, names_of):
        """`values` as a (count, 3) float64 array of finite rows, else ValueError.

        `names_of(bad_rows)` names the bodies of the non-finite rows; the x and y of poses must
        stay within `constants.MAX_COORDINATE`.
        """
        arr = np.ascontiguousarray(values, dtype=FLOAT)
        if arr.ndim != 2 or arr.shape[1] != 3:
            raise ValueError(f'{what} must be an array of shape (k, 3), got shape {arr.shape}')
        if arr.shape[0] != count:
            raise ValueError(f'{arr.shape[0]} {what} for {count} bodies')
        finite, extent = rows_finite_extent(arr)
        if not finite:
            bad = np.nonzero(~np.all(np.isfinite(arr), axis=1))[0]
            raise ValueError(f'non-finite {what} for bodies {names_of(bad)}')
        if what == 'poses' and extent > MAX_COORDINATE:
            raise ValueError(f'poses beyond +-{MAX_COORDINATE:g} m are not supported')
        return arr

    def set_active(self, bodies, active):
        """Include (True) or leave out (False) bodies (None: every body) from the following
        ticks."""
        self._enabled[slice(None) if bodies is None else self._as_indices(bodies)] = active
        self._moved()

    @property
    def poses(self):
        """(N, 3) float64 view of the current poses (read only)."""
        view = self._poses.view()
        view.flags.writeable = False
        return view

    @property
    def active(self):
        """(N,) bool: bodies that take part in the next tick."""
        return self._has_pose & self._enabled

    def world_vertices(self, name, t=0.0, predictor=None):
        """Return a body's vertices in the world frame, now or `t` seconds ahead.

        Ahead, the body moves under the predictor's model (default: its own, see
        `set_predictors`), the model `predict` solves: a predicted contact point lies on the
        footprints placed at its time.  At t = 0 this is the rigid placement ``R(yaw) s + (x, y)``.
        """
        return self.vertices_ahead([name], [t], predictor)[0]

    def vertices_ahead(self, bodies, times, predictor=None):
        """Return the vertices of several bodies, each at its own time ahead, packed.

        Parameters
        ----------
        bodies : sequence of str or int
            Body names or indices (repeats allowed).
        times : sequence of float
            Seconds ahead, one per body.
        predictor : MotionModel or str, optional
            As in `world_vertices`.

        Returns
        -------
        vertices : (V, 2) float64
            Rows ``starts[k]:starts[k + 1]`` are ``world_vertices(bodies[k], times[k])``.
        starts : (len(bodies) + 1,) intp

        """
        idx = self._as_indices(bodies)
        times = np.asarray(times, FLOAT).reshape(-1)
        if times.shape != idx.shape or not np.isfinite(times).all():
            raise ValueError(f'times must be {idx.size} finite numbers, got {times}')
        models = self._models(predictor)
        tick = self._pack()
        vstart = tick.bodies.vstart
        starts = np.zeros(idx.size + 1, INDEX)
        np.cumsum(vstart[idx + 1] - vstart[idx], out=starts[1:])
        vertices = np.empty((starts[-1], 2), FLOAT)
        vertices_ahead(idx, times, tick.motion, tick.bodies.offsets, vstart, models, vertices)
        return vertices, starts

    def view(self):
        """`WorldView`: read-only views of the boxes, candidate pairs and motion the last
        calls left."""
        tick = self._pack()
        near, swept = tick.near, tick.swept_near
        arrays = (tick.boxes, near.fat, near.pairs[:near.count], tick.swept_boxes,
                  swept.pairs[:swept.count if tick.paired else 0], tick.movable,
                  tick.bodies.disc_box, self._twists, self._accels)
        bodies = Bodies(*_read_only(*(a.view() for a in tick.bodies)))
        return WorldView(*_read_only(*(a.view() for a in arrays)), bodies,
                         (near.grids, swept.grids))

    def placed_vertices(self):
        """Return every body's vertices in the world frame at its current pose, packed.

        Returns
        -------
        vertices : (V, 2) float64
            Rows ``starts[b]:starts[b + 1]`` are body b's, in its footprint's order:
            ``R(yaw) s + (x, y)``, as `world_vertices` at t = 0 (a body without a pose
            stands at the origin).
        starts : (n + 1,) intp

        """
        bodies = self._pack().bodies
        vertices = np.empty_like(bodies.offsets)
        place_vertices(self._poses, bodies, vertices)
        return vertices, bodies.vstart.copy()

    def distances(self, pairs):
        """Return the least distance (m) between the boundaries of each pair of active bodies
        at their current poses, 0 for a pair that touches or overlaps: exactly the pairs
        `detect` reports (the same test decides, within the pair's length tolerance).

        Parameters
        ----------
        pairs : (k, 2) array_like of int, or sequence of (name, name)
            Body indices or names.

        """
        flat = (pairs.reshape(-1) if isinstance(pairs, np.ndarray)
                else [body for pair in pairs for body in pair])
        idx = self._as_indices(flat).reshape(-1, 2)
        active = self.active
        if not active[idx].all():
            raise ValueError('distances are between active bodies (posed and not left out)')
        tick = self._pack()
        tick.ensure_placed(active)
        out = np.empty(idx.shape[0], FLOAT)
        pair_distances(idx, self._poses, tick.bodies, tick.boxes, tick.slot_vertices[0],
                       out)
        return out

    # ticks ---------------------------------------------------------------------------------
    def detect(self, stamp=None):
        """Return every contact between active bodies at their current poses as `Contacts`.

        Parameters
        ----------
        stamp : float, optional
            Time of these poses (seconds, any fixed origin).  With stamps, each contact says
            when it began (`Contacts.began`): a new contact is traced back into the interval
            since the previous stamped tick with `predictor`'s model of the previous state.

        """
        self._pack()
        active = self.active
        nc, nf = self._contact_phase(active)
        return self._wrap_contacts(nc, nf, stamp, active)

    def _contact_phase(self, active):
        """The narrow phase of a tick into the buffers `_take_back` gives: ``(contacts,
        feature rows)``.

        One route: `narrowphase.place_and_pair` places the bodies unless placed and brings
        the candidate pairs up to date unless current (predict's swept candidates while
        current, as they hold every pair touching now; else the near cache, refitted or
        rebuilt for the current boxes), called again when the pairs need more room; then,
        when there are candidates, `narrow_phase_slots` on the threads their count asks for,
        called again when the features need more room.
        """
        tick = self._tick
        current = tick.paired
        cache, boxes = ((tick.swept_near, tick.swept_boxes) if current
                        else (tick.near, tick.boxes))
        while not current:  # (current swept candidates come with placed bodies)
            n_pairs = place_and_pair(self._poses, active, tick.movable, tick.bodies_args,
                                     (tick.boxes, tick.placed_at, tick.placed),
                                     (boxes, cache.arrays()))
            tick.placed = True
            if n_pairs <= cache.pairs.shape[0]:
                break
            cache.grow(n_pairs)
            self._grow_contacts(cache.pairs.shape[0])
        n_pairs = cache.count
        while True:
            buffers = self._take_back()
            if not n_pairs:
                return 0, 0
            threads = self._parallel(n_pairs * tick.most_vertices())
            nc, nf = narrow_phase_slots(cache.pairs, n_pairs, self._poses, tick.bodies_args,
                                        tick.boxes, tick.narrow_slots(threads),
                                        buffers.rows_args, buffers.features_args)
            if nf <= buffers.features.xy.shape[0]:
                return nc, nf
            self._grow_features(2 * nf)

    def _wrap_contacts(self, nc, nf, stamp, active):
        """`Contacts` of the first nc contact rows and nf feature rows, with their look-back.

        The contacts read the buffers until a tick writes them again (`_take_back`)."""
        if nc == 0:  # the common tick: shared empty read-only arrays, no copies
            if stamp is not None:
                self._trace_back(float(stamp), _NO_CONTACTS.pairs, active)
            return Contacts.none(self.names)
        buffers = self._buffers[0]
        contacts = Contacts._lent_by(self.names, buffers.rows, buffers.features, nc, nf, None)
        if stamp is not None:
            contacts._began = self._trace_back(float(stamp), contacts.pairs, active)
        buffers.lent = weakref.ref(contacts)
        return contacts

    def _take_back(self):
        """The contact buffers a tick is about to write (`_ContactBuffers`): the set the
        last tick wrote when no `Contacts` reads it, else the other set, whose `Contacts`,
        if still held, copies out what it has not read yet.  A caller holding the last
        tick's contacts while the next one runs (``contacts = world.detect()`` in a loop)
        costs no copy.  Called again within the tick, it returns the same set."""
        first, second = self._buffers
        if first.reader() is not None:
            if second is None:
                second = _ContactBuffers(first.rows.pairs.shape[0], first.features.xy.shape[0])
            reader = second.reader()
            if reader is not None:
                reader._keep()
            self._buffers = [second, first]
        self._buffers[0].lent = None
        return self._buffers[0]

    def carry_history(self, other):
        """Take `other`'s memory of its last stamped tick (see `memory`), matched to this
        world's bodies by name: a contact between two bodies registered in both keeps the
        time it began (a world rebuilt for a changed body set)."""
        self._history, self._state_prev = other._history, other._state_prev
        self._carry_history(len(self._bodies))

    def forget_history(self):
        """Drop the previous tick's state: the next new contact is dated at its own tick."""
        self._history = None

    def began_at(self, stamp):
        """Whether a contact of the last stamped tick is dated `stamp` (s): for the first
        stamped tick, one that was there already."""
        return self._history is not None and bool(np.any(self._history[2] == stamp))

    def memory(self):
        """What the next stamped tick takes from the last one, in a form to compare: None
        before the first, else ``(stamp, ((pair, began), ...) sorted, active mask, then the
        poses, twists and accelerations of the bodies active then)``.  Two worlds with the
        same bodies and equal memories date every later contact alike."""
        if self._history is None:
            return None
        stamp, keys, began, active, _ = self._history
        pairs = zip(*(k.tolist() for k in np.divmod(keys, len(active))))
        return (stamp, tuple(zip(pairs, began.tolist())), active.tobytes(),
                *(rows[active].tobytes() for rows in self._state_prev))

    def predict(self, horizon, predictor=None):
        """Return the first contact of every pair that touches within `horizon` seconds.

        Parameters
        ----------
        horizon : float
            Look-ahead, seconds (> 0).
        predictor : MotionModel or str, optional
            Motion model of every body (default: each body's own, see `set_predictors`).
            Twists and accelerations come from `set_twists` and `set_accelerations`.

        Returns
        -------
        Predictions
            Pairs already touching have time 0.  Pairs that do not meet within the horizon,
            including pairs moving apart, are not in it.

        Notes
        -----
        Swept broad phase: each body's box holds every one of its vertex paths over the
        horizon under the predictor's model, so no pair that meets is dropped.

        """
        models = self._look_ahead(horizon, predictor)
        return self._packed_predictions(self._prediction_phase(models, horizon, True,
                                                               _NO_PAIRS))

    def step(self, horizon, predictor=None, stamp=None):
        """One tick: ``(detect(stamp), predict(horizon, predictor))`` with one broad phase.

        The swept boxes of `predict` hold the bodies' current boxes, so their candidate pairs
        serve the narrow phase of `detect` (its bounding-circle test drops the far ones
        first): the same contacts, one grid fewer.  The contacts come first, and the search
        for first contacts takes the pairs they list as touching now without testing them
        again.  A caller with a use for the predictions before the contacts calls `predict`
        and `detect` in turn.
        """
        models = self._look_ahead(horizon, predictor)
        self._prediction_phase(models, horizon, False, _NO_PAIRS)
        contacts = self.detect(stamp)
        known = self._buffers[0].rows.pairs[:len(contacts)] if len(contacts) else _NO_PAIRS
        return contacts, self._packed_predictions(self._prediction_phase(models, horizon, True,
                                                                         known))

    def _look_ahead(self, horizon, predictor):
        """Start a look-ahead of `horizon` s: its per-body models (`_models`); ValueError for a
        bad horizon."""
        if not horizon > 0.0 or not math.isfinite(horizon):
            raise ValueError(f'horizon must be a positive number of seconds, got {horizon}')
        models = self._models(predictor)
        self._pack().look_ahead()
        return models

    def _prediction_phase(self, models, horizon, searching, known):
        """The look-ahead of a tick: the swept boxes and their candidate pairs and, when
        `searching`, the first contacts among them (`known` those touching now) into the
        prediction rows; returns how many meet (-1 when not searching).

        Two routes, picked here: while the swept candidates are not current,
        `toi.place_and_predict` places the bodies unless placed, sweeps them unless swept,
        finds the candidates and searches them, in one call on the threads the bodies'
        count asks for (called again when the candidates need more room); once they are
        current (`step`'s search after its narrow phase, or a search that wants other
        threads than the sweep), `toi.search_pairs` alone, on the threads of the
        candidates' count.
        """
        tick = self._tick
        cache = tick.swept_near
        while not tick.paired:
            threads = self._parallel(len(self._bodies))
            n_pairs, k = place_and_predict(
                tick.motion_args, self.active, tick.bodies_args,
                (tick.boxes, tick.placed_at, tick.placed),
                (tick.swept_boxes, tick.movable, cache.arrays(), tick.swept),
                (models, float(horizon)), (threads, self._parallel_count),
                (searching, known, tick.search_args), tick.rows_args)
            tick.placed = tick.swept = True
            if n_pairs > cache.pairs.shape[0]:
                cache.grow(n_pairs)
                self._grow_contacts(cache.pairs.shape[0])
                continue
            tick.paired = True
            if k >= 0 or not searching:
                return k
        if not cache.count:
            return 0
        self._parallel(cache.count * tick.most_vertices())
        return search_pairs(cache.pairs, cache.count, known, tick.motion_args,
                            tick.bodies_args, (tick.boxes, tick.swept_boxes), models,
                            float(horizon), tick.search_args, tick.rows_args)

    def _models(self, predictor):
        """(N,) intp: each body's `MotionModel` value.  `predictor` None: its own (see
        `set_predictors`), else the world's `predictor`; otherwise `predictor` for all."""
        if predictor is not None:
            return np.full(len(self._bodies), int(MotionModel.parse(predictor)), INDEX)
        if self._effective is None or self._effective.shape[0] != len(self._bodies):
            own = self._own_models
            self._effective = np.where(own >= 0, own, int(self._default_model)).astype(INDEX)
        return self._effective

    def _packed_predictions(self, k):
        """`Predictions` of the first k rows `pack_predictions` wrote."""
        if k == 0:  # shared empty read-only arrays, no copies
            return Predictions(self.names, *_NO_PREDICTIONS)
        # numpy's copies: a compiled call returning the seven arrays boxes each of them, 3.4 us
        # against 1.9 back to back and 87 us against 61 after a 21 ms pause (measured)
        pairs, time, side, vertex, edge, point, normal = self._tick.rows
        return Predictions(self.names, pairs[:k].copy(), time[:k].copy(), side[:k].copy(),
                           vertex[:k].copy(), edge[:k].copy(), point[:k].copy(),
                           normal[:k].copy())

    def _trace_back(self, stamp, pairs, active):
        """Began time of each contact (`lookback.contact_onsets`); then remember this tick
        for the next one."""
        nc = pairs.shape[0]
        began, keys, key_began = np.empty(nc), np.empty(nc, np.int64), np.empty(nc)
        if nc:
            last = _NO_HISTORY if self._history is None else self._history[:4]
            tick = self._tick
            contact_onsets(pairs, len(self._bodies), stamp, last, tuple(self._state_prev),
                           tick.bodies_args, self._models(None),
                           (tick.scratch[0], tick.entry[0]), (began, keys, key_began))
        # this tick's state becomes the previous one (buffers swap, no allocation)
        spare = self._state_spare
        for dst, src in zip(spare, (self._poses, self._twists, self._accels)):
            np.copyto(dst, src)
        self._state_spare, self._state_prev = self._state_prev, spare
        self._history = (stamp, keys, key_began, active.copy(), self.names)
        return began

    def warmup(self):
        """Compile every kernel of a tick on a tiny scene so the first real tick is not a compile.

        Kernels are cached on disk (``NUMBA_CACHE_DIR``), so this costs well under a second
        once the cache is warm.
        """
        square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
        notch = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [0.0, 0.0], [-0.5, 0.5]]
        for predictor in PREDICTORS:
            scratch = CollisionWorld()
            scratch.predictor = predictor
            scratch.add_body('convex', square, pose=(-3.0, 0.0, 0.0))
            scratch.add_body('concave', notch, pose=(0.4, 0.1, 0.3))
            scratch.add_body('static', square, static=True, pose=(0.3, -0.6, 0.0))
            scratch.add_body('idle', square)  # never posed: inactive
            scratch.set_poses(np.array([[-3.0, 0.0, 0.0], [0.4, 0.1, 0.3], [0.3, -0.6, 0.0],
                                        [0.0, 0.0, 0.0]]))
            scratch.set_active(['idle'], False)
            scratch.set_twists([[30.0, 0.0, 0.5]], ['convex'])
            scratch.set_accelerations([[0.0, 1.0, 0.1]], ['convex'])
            scratch.detect(stamp=0.0)
            # a new contact: dated by the look-back from the tick before
            scratch.set_motion(np.array([[0.0, 0.0, 0.05]]), np.array([[30.0, 0.0, 0.5]]),
                               np.array([[0.0, 1.0, 0.1]]), np.zeros(1, INDEX))
            scratch.detect(stamp=0.1)
            scratch.predict(1.0)
            scratch.step(1.0, stamp=0.2)
            scratch.world_vertices('convex', 0.5)
            scratch.placed_vertices()
            scratch.set_footprint('concave', square)
            scratch.step(1.0, stamp=0.3)

    # internals -----------------------------------------------------------------------------
    def _as_indices(self, bodies):
        """Body names or integer indices as an intp array; KeyError for an unknown body,
        ValueError for anything else (a float index is never truncated)."""
        if bodies is None:
            return np.arange(len(self._bodies), dtype=INDEX)
        if isinstance(bodies, np.ndarray) and bodies.dtype.kind in 'iu':
            out = bodies.astype(INDEX, copy=False).reshape(-1)
            bad = (out < 0) | (out >= len(self._bodies))
            if bad.any():
                raise KeyError(f'no body with index {out[bad][0]}')
            return out
        if isinstance(bodies, (str, bytes)) or np.ndim(bodies) != 1:
            raise ValueError(f'bodies must be a sequence of names or indices, got {bodies!r}')
        out = np.empty(len(bodies), dtype=INDEX)
        for k, b in enumerate(bodies):
            if isinstance(b, str):
                out[k] = self.index(b)
            elif isinstance(b, (int, np.integer)) and not isinstance(b, (bool, np.bool_)):
                if not 0 <= b < len(self._bodies):
                    raise KeyError(f'no body with index {b}')
                out[k] = b
            else:
                raise ValueError(f'bodies are names or integer indices, got {b!r}')
        return out

    def _moved(self):
        """Poses or activity changed: nothing placed or swept is current."""
        if self._tick is not None:
            self._tick.invalidate()

    def _parallel(self, work):
        """Set the threads of the parallel kernel this world calls next (numba's setting is
        per calling thread and stays) for `work` (`threads.threads_for`); return them."""
        threads = threads_for.py_func(work, self._parallel_count)  # the rule, as Python
        set_kernel_threads(threads)
        return threads

    def _pack(self):
        """The `TickState` of the current body set, made when it changed."""
        if self._tick is not None:
            return self._tick
        bodies = self._bodies
        n = len(bodies)
        self._tick = TickState(pack_bodies(bodies),
                               np.array([not b.static for b in bodies], dtype=np.bool_),
                               Motion(self._poses, self._twists, self._accels))
        self._carry_history(n)
        self._state_spare = Motion(*(np.zeros((n, 3), FLOAT) for _ in range(3)))
        self._buffers = [_ContactBuffers(self._tick.found.shape[0], max(64, 4 * n)), None]
        return self._tick

    def _carry_history(self, n):
        """Re-index the last stamped tick for the current body set (n bodies).

        Bodies are matched by name: a contact between two bodies that are still registered
        keeps the time it began, whatever was added, removed or given a new footprint; a
        body new since that tick had no state then (its new contacts are dated at their own
        tick).
        """
        previous = self._state_prev
        self._state_prev = Motion(*(np.zeros((n, 3), FLOAT) for _ in range(3)))
        if self._history is None:
            return
        stamp, keys, began, active, names = self._history
        rows = np.array([self._index.get(name, -1) for name in names], dtype=INDEX)
        kept = rows >= 0
        for dst, src in zip(self._state_prev, previous):
            dst[rows[kept]] = src[kept]
        now_active = np.zeros(n, np.bool_)
        now_active[rows[kept]] = active[kept]
        a, b = (rows[k] for k in np.divmod(keys, len(names)))
        still = (a >= 0) & (b >= 0)
        keys = (np.minimum(a, b)[still] * n + np.maximum(a, b)[still]).astype(np.int64)
        order = np.argsort(keys)
        self._history = (stamp, keys[order], began[still][order], now_active, self.names)

    def _grow_contacts(self, cap):
        """Room for `cap` contacts and predictions.  New contact buffers replace both sets:
        a `Contacts` reading the old ones goes on reading them, as nothing writes them now."""
        if self._tick.ensure_room(cap):
            features = self._buffers[0].features.xy.shape[0]
            self._buffers = [_ContactBuffers(self._tick.found.shape[0], features), None]

    def _grow_features(self, cap):
        """Room for `cap` feature rows, as `_grow_contacts` for contacts."""
        self._buffers = [_ContactBuffers(self._tick.found.shape[0], cap), None]


World = CollisionWorld
"""Alias of `CollisionWorld`."""
