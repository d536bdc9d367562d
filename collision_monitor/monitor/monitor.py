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
"""The monitor: what the node does on every message and every tick, without ROS.

It owns the engine (`CollisionWorld`), the pose histories, the input checks and the decisions:
stale bodies, debounced warnings, ignored pairs, the enable switch and the velocity gate.  The
node only turns messages into the numbers these methods take and the `TickReport` back into
messages.  Bodies keep the order of `Config.bodies`; that order is the engine's index.
"""

from collections import Counter
from dataclasses import dataclass, field
import math
import pickle

import numpy as np

from .config import Config, pad_footprint, parse_footprint
from ..engine.world import CollisionWorld, Contacts, Predictions
from ..kernels.constants import FLOAT, MAX_COORDINATE, MotionModel
from ..kernels.geometry2d.validation import validate_footprint
from ..kernels.motion import (BULK_ACCEPTED, BULK_NON_FINITE, BULK_OUT_OF_ORDER,
                              BULK_OUT_OF_RANGE, BULK_ZERO_QUATERNION, PoseHistory,
                              push_bulk, push_pose, push_twist, tick_motion,
                              yaw_from_quaternion)

# A footprint for bodies whose footprint has not arrived yet; such bodies stay inactive.
_PLACEHOLDER = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
# Stamps further in the future than this (s) are refused.
FUTURE_TOLERANCE = 0.5

# Rejection reasons (counted in diagnostics, logged once per body and reason)
NON_FINITE = 'non-finite pose'
ZERO_QUATERNION = 'zero quaternion'
WRONG_FRAME = 'wrong frame'
OUT_OF_ORDER = 'out-of-order stamp'
FUTURE_STAMP = 'stamp in the future'
BAD_FOOTPRINT = 'invalid footprint'
BAD_BULK = 'bulk message does not match its source'
OUT_OF_RANGE = 'pose out of range'
BAD_TWIST = 'twist out of range'
IMPLAUSIBLE_MOTION = 'estimated motion out of range'
BAD_COMMAND = 'command not finite or out of range'

# Limits of plausible motion: beyond them a pose, twist or estimate is bad data (a pose jump,
# a unit error), refused for its body so that no single message stops the tick.
MAX_SPEED = 1e3              # m/s
MAX_ANGULAR_SPEED = 1e3      # rad/s
MAX_ACCELERATION = 1e5       # m/s^2 and rad/s^2
MOTION_LIMITS = (MAX_COORDINATE, MAX_SPEED, MAX_ANGULAR_SPEED, MAX_ACCELERATION)
"""`tick_motion`'s limits of a plausible motion estimate."""

_BULK_REASONS = {BULK_NON_FINITE: NON_FINITE, BULK_ZERO_QUATERNION: ZERO_QUATERNION,
                 BULK_OUT_OF_RANGE: OUT_OF_RANGE, BULK_OUT_OF_ORDER: OUT_OF_ORDER}


def quaternion_defect(qx, qy, qz, qw):
    """Return a rejection reason for a quaternion, or None when it is usable."""
    values = (qx, qy, qz, qw)
    if not all(math.isfinite(v) for v in values):
        return NON_FINITE
    if math.sqrt(sum(v * v for v in values)) < 1e-6:
        return ZERO_QUATERNION
    return None


_NO_CONTACTS_YET = Contacts.none()
"""The contacts of a report before `Monitor.detect` (one shared, read-only instance)."""


@dataclass
class TickReport:
    """What one tick found; body indices refer to `Monitor.names`."""

    stamp: float
    contacts: Contacts = _NO_CONTACTS_YET  # the pairs not ignored (`Monitor.detect` sets them)
    warnings: list = field(default_factory=list)   # (i, j, FirstContact)
    stale: list = field(default_factory=list)      # body indices
    refused: list = field(default_factory=list)    # (body index, reason) refused this tick
    active: np.ndarray = None                      # (N,) bool
    state_changed: bool = False
    clock_jumped: bool = False


@dataclass
class _PairState:
    """A predicted pair's debounce: ticks predicted in a row, ticks missing in a row, whether
    warned, and its last prediction as row `row` of that tick's `Predictions`."""

    predicted: int = 0
    missing: int = 0
    warned: bool = False
    predictions: Predictions = None
    row: int = -1

    @property
    def last(self):
        """The pair's last prediction (`FirstContact`), made when asked: most predicted
        pairs are never warned of."""
        return None if self.predictions is None else self.predictions[self.row]


def warmup():
    """Compile every kernel of a monitor tick (cached on disk after one run): the engine's
    (`CollisionWorld.warmup`), the motion estimate's and its checks'."""
    CollisionWorld().warmup()
    history = tuple(PoseHistory.empty(2))  # as a Monitor passes it (`packed`)
    for t in (0.0, 0.1, 0.2):
        push_pose(history, 0, t, t, 0.0, 0.0)
    push_bulk(history, np.array([1], np.intp), 0.0, np.array([[0.0] * 6 + [1.0]]),
              MAX_COORDINATE, np.zeros(1, np.intp))
    yaw_from_quaternion(0.0, 0.0, 0.0, 1.0)  # a single pose's; push_bulk's is inlined
    motion = tuple(np.zeros((2, 3)) for _ in range(3))
    known = (*(np.zeros(2, np.bool_) for _ in range(3)), np.zeros(2, np.intp))
    flags = tuple(np.zeros(2, np.bool_) for _ in range(4))
    tick_motion(history, 0.25, 0.5, 1.0, MOTION_LIMITS, True, known, motion, flags)


class Monitor:
    """Bodies, their inputs and the per-tick decisions of the collision monitor."""

    def __init__(self, config: Config):
        self.config = config
        self.names = tuple(b.name for b in config.bodies)
        self.index = {n: k for k, n in enumerate(self.names)}
        n = len(self.names)
        self.world = CollisionWorld()
        self.world.threads = config.engine_threads
        self.has_footprint = np.zeros(n, np.bool_)
        self.static = np.array([b.static for b in config.bodies], dtype=np.bool_)
        self._every_body = np.arange(len(config.bodies), dtype=np.intp)
        for k, body in enumerate(config.bodies):
            footprint = body.footprint if body.footprint is not None else _PLACEHOLDER
            self.world.add_body(body.name, footprint, static=body.static,
                                pose=body.pose if body.static else None,
                                predictor=body.predictor or None)
            self.has_footprint[k] = body.footprint is not None
        self.history = PoseHistory.empty(n)
        self._history = tuple(self.history)  # the kernels' plain tuple (`packed`)
        self._poses = np.zeros((n, 3), FLOAT)
        self._twists = np.zeros((n, 3), FLOAT)
        self._accels = np.zeros((n, 3), FLOAT)
        self._motion = (self._poses, self._twists, self._accels)  # `packed.Motion`'s arrays
        self._fresh = np.zeros(n, np.bool_)
        self._seen = np.zeros(n, np.bool_)  # ever had a pose
        self._bulk_codes = np.zeros(n, np.intp)  # `push_bulk`'s codes of one message
        self._moving = np.zeros(n, np.bool_)  # `tick_motion`'s flags of one tick
        self._implausible = np.zeros(n, np.bool_)
        self.rejections = Counter()          # (body, reason) -> count
        self.enabled = True
        self._pairs = {}
        self._last_now = -math.inf
        self._last_markers = -math.inf  # when the last tick that published markers ran
        self._last_state = None
        self._last_contacts = Contacts.none()  # the last tick's (the gate's input)
        self._last_active = np.zeros(n, np.bool_)  # who took part in the last tick
        self._ignored = self._ignored_pairs(config.ignore_pairs)
        self.sources = {s.name: np.array([self.index[b] for b in s.bodies], np.intp)
                        for s in config.sources}
        self.apply_runtime(config)

    # configuration -------------------------------------------------------------------------
    def rebuilt(self, config):
        """A monitor for `config` (bodies or sources added, removed or changed) that keeps,
        body by body and by name, what this one knows: pose histories, measured twists,
        footprints received on topics, whether a pose was ever seen, and the refusal counts;
        and pair by pair, for pairs whose two bodies remain, when their contact began and
        their warning debounce (a pair whose bodies swap places in `bodies` begins anew)."""
        new = Monitor(config)
        new.enabled = self.enabled
        new.rejections = self.rejections.copy()
        new._last_now = self._last_now
        new._last_markers = self._last_markers
        new.world.carry_history(self.world)
        for (i, j), state in self._pairs.items():
            a, b = (new.index.get(self.names[k], -1) for k in (i, j))
            if 0 <= a < b:
                new._pairs[a, b] = state
        for name in set(self.names) & set(new.names):
            a, b = self.index[name], new.index[name]
            for old_rows, new_rows in zip(self.history, new.history):
                new_rows[b] = old_rows[a]
            new._seen[b] = self._seen[a]
            if self.has_footprint[a] and new.config.bodies[b].footprint_topic:
                # the last footprint from its topic is newer than the parameter's
                new.world.set_footprint(name, self.world.footprint(name))
                new.has_footprint[b] = True
        return new

    def apply_runtime(self, config):
        """Take the run-time parameters (horizon, timeouts, debounce, predictor, ignores)."""
        self.config = config
        self.world.predictor = config.predictor
        self._models = np.array([int(m) for m in self.world.predictors()], np.intp)
        self._ignored = self._ignored_pairs(config.ignore_pairs)

    def _ignored_pairs(self, pairs):
        out = set()
        for pair in pairs:
            i, j = sorted(self.index[n] for n in pair)
            out.add((i, j))
        return out

    # inputs --------------------------------------------------------------------------------
    def refuse(self, who, reason):
        """Count a refused input of a body (index) or a source (name); return the reason."""
        key = (self.names[who] if isinstance(who, (int, np.integer)) else who, reason)
        self.rejections[key] += 1
        return reason

    def pose(self, b, stamp, frame, pose, now):
        """Take one pose ``(x, y, qx, qy, qz, qw)`` of body b, stamped in `frame`; return the
        rejection reason, or None when accepted."""
        x, y, qx, qy, qz, qw = pose
        if frame != self.config.frame_id:
            return self.refuse(b, WRONG_FRAME)
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(stamp)):
            return self.refuse(b, NON_FINITE)
        if abs(x) > MAX_COORDINATE or abs(y) > MAX_COORDINATE:
            return self.refuse(b, OUT_OF_RANGE)
        defect = quaternion_defect(qx, qy, qz, qw)
        if defect:
            return self.refuse(b, defect)
        if stamp > now + FUTURE_TOLERANCE:
            return self.refuse(b, FUTURE_STAMP)
        yaw = float(yaw_from_quaternion(qx, qy, qz, qw))
        if not push_pose(self._history, b, stamp, x, y, yaw):
            return self.refuse(b, OUT_OF_ORDER)
        self._seen[b] = True
        return None

    def twist(self, b, vx, vy, wz):
        """Take the measured twist of body b's newest pose, in its own frame (nav_msgs/Odometry
        child frame): the body's velocity is then its newest twist, its acceleration the
        trend of its twists (`motion.estimate_motion`), whatever its poses do.  Returns the
        rejection reason of a twist that is non-finite or beyond `MAX_SPEED` /
        `MAX_ANGULAR_SPEED`, else None (a body with no pose yet has nothing to hold it)."""
        if not (math.hypot(vx, vy) <= MAX_SPEED and abs(wz) <= MAX_ANGULAR_SPEED):
            return self.refuse(b, BAD_TWIST)
        push_twist(self._history, b, vx, vy, wz)
        return None

    def bulk(self, source, stamp, frame, poses, now):
        """Take a bulk source's poses: (k, 7) rows ``x, y, z, qx, qy, qz, qw``.

        Returns a list of (body index, reason) for the poses refused.  The whole message is
        refused when its frame is wrong or it has not exactly one pose per body of the source.
        """
        bodies = self.sources[source]
        if frame != self.config.frame_id:
            return [(-1, self.refuse(source, WRONG_FRAME))]
        if poses.shape != (bodies.shape[0], 7):
            return [(-1, self.refuse(source, BAD_BULK))]
        if not math.isfinite(stamp):
            return [(-1, self.refuse(source, NON_FINITE))]
        if stamp > now + FUTURE_TOLERANCE:
            return [(-1, self.refuse(source, FUTURE_STAMP))]
        codes = self._bulk_codes[:bodies.shape[0]]
        if push_bulk(self._history, bodies, float(stamp), np.ascontiguousarray(poses, FLOAT),
                     MAX_COORDINATE, codes) == 0:
            self._seen[bodies] = True
            return []
        self._seen[bodies[codes == BULK_ACCEPTED]] = True
        refused = [(int(bodies[k]), _BULK_REASONS[code])
                   for k, code in enumerate(codes.tolist()) if code != BULK_ACCEPTED]
        for b, reason in refused:
            self.refuse(b, reason)
        return refused

    def footprint(self, b, points=None, text=None):
        """Replace the footprint of body b from points (n, 2) or a "[[x, y], ...]" string,
        padded by ``footprint_padding`` (`config.pad_footprint`).

        Returns the reason text when refused (the old footprint stays), else None.
        """
        name = self.names[b]
        try:
            if text is not None:
                poly = parse_footprint(text, f'{name}.footprint', self.config.max_vertices)
            else:
                points = np.asarray(points, dtype=FLOAT)
                if points.ndim != 2 or points.shape[0] > self.config.max_vertices:
                    raise ValueError(f'footprint of {name!r}: more than max_vertices = '
                                     f'{self.config.max_vertices} vertices')
                poly = validate_footprint(points, f'footprint of {name!r}')
            poly = validate_footprint(pad_footprint(poly, self.config.footprint_padding),
                                      f'footprint of {name!r} with footprint_padding')
        except ValueError as err:
            self.refuse(b, BAD_FOOTPRINT)
            return str(err)
        self.world.set_footprint(name, poly)
        self.has_footprint[b] = True
        return None

    def footprint_in(self, b, stamp, frame, points, now):
        """Take a footprint message of body b: points (n, 2) in `frame`, stamped `stamp`
        (s; None for an unstamped one, taken at `now`).

        In `frame_id` the footprint is posed in the world, as Nav2's costmap publishes
        ``published_footprint``: it is brought into the body frame through the body's pose
        at its stamp (`pose_at`), ``R(-yaw) (p - (x, y))``.  In any other frame it is in the
        body frame already.  Returns the reason when refused (the old footprint stays),
        else None.
        """
        points = np.asarray(points, dtype=FLOAT)
        if frame == self.config.frame_id:
            pose = self.pose_at(b, now if stamp is None else stamp)
            if pose is None:
                self.refuse(b, BAD_FOOTPRINT)
                return (f'footprint in {frame!r} stamped where the body has no pose to '
                        f'bring it into its own frame')
            x, y, yaw = pose
            c, s = math.cos(yaw), math.sin(yaw)
            dx, dy = points[:, 0] - x, points[:, 1] - y
            points = np.column_stack([c * dx + s * dy, -s * dx + c * dy])
        return self.footprint(b, points=points)

    def pose_at(self, b, t):
        """Body b's pose ``(x, y, yaw)`` at time t (s): a static body's pose; else from its
        pose history, linear between the two samples around t (yaw is unwrapped there), or
        the newest sample when t is at most `pose_timeout` newer.  None when the history
        does not reach t."""
        if self.static[b]:
            return tuple(self.world.poses[b].tolist())
        h = self.history
        ring = h.hist.shape[1]
        rows = [h.hist[b, (h.head[b] - k) % ring] for k in range(int(h.count[b]))]
        if not rows:
            return None
        if t >= rows[0][0]:
            return tuple(rows[0][1:4].tolist()) if t - rows[0][0] <= self.config.pose_timeout \
                else None
        for later, earlier in zip(rows, rows[1:]):
            if earlier[0] <= t:
                f = (t - earlier[0]) / (later[0] - earlier[0])
                return tuple((earlier[1:4] + f * (later[1:4] - earlier[1:4])).tolist())
        return None

    def health(self):
        """Return (active bodies, stale bodies, {reason: rejections}) for diagnostics."""
        stale = int(np.count_nonzero(self._seen & ~self._fresh & ~self.static))
        rejected = Counter()
        for (_, reason), count in self.rejections.items():
            rejected[reason] += count
        return int(np.count_nonzero(self.world.active)), stale, dict(rejected)

    def snapshot(self):
        """What later ticks take from the past, as bytes: two monitors of one configuration
        with equal snapshots, fed the same inputs and ticked at the same times, publish the
        same outputs.  It holds the pose histories, the first-seen flags, the footprints, the
        warning debounce, the last state message, the marker schedule and the world's
        memory of its last stamped tick (`CollisionWorld.memory`)."""
        # a warned pair's count matters no more (an unwarned one's stays below trigger_ticks)
        pairs = tuple(sorted((pair, st.warned, 0 if st.warned else st.predicted,
                              st.missing, None if st.last is None else
                              (*st.last[:4], st.last.point.tobytes(), st.last.normal.tobytes()))
                             for pair, st in self._pairs.items()))
        state = None if self._last_state is None else tuple(map(sorted, self._last_state))
        return pickle.dumps((tuple(rows.tobytes() for rows in self.history),
                             self._seen.tobytes(), self.has_footprint.tobytes(),
                             tuple(self.world.footprint(n).tobytes() for n in self.names),
                             pairs, state, self._last_markers, self.world.memory()))

    # ticks ---------------------------------------------------------------------------------
    def tick(self, now):
        """Predict and detect at time `now` (s): `predict` then `detect`; return the
        TickReport."""
        report = self.predict(now)
        self.detect(report)
        return report

    def predict(self, now):
        """The first half of the tick at `now` (s): the motion estimate, the bodies taking
        part, the first contacts within the horizon and the debounced warnings.  Returns the
        TickReport without its contacts, which `detect` adds next: a node publishes the
        warnings before the contacts are even found.  Pairs touching now are predicted at
        time 0 and never warned of."""
        cfg = self.config
        report = TickReport(stamp=now)
        if now < self._last_now:
            # the clock went backwards (sim time reset, bag loop): histories are meaningless
            self.history.clear()
            self._seen[:] = False
            self._pairs.clear()
            self.world.forget_history()
            self._last_markers = -math.inf
            report.clock_jumped = True
        self._last_now = now
        moving, active = self._moving, np.empty(len(self.names), np.bool_)
        n_moving, n_implausible, n_stale = tick_motion(
            self._history, now, cfg.history_window, cfg.pose_timeout, MOTION_LIMITS,
            self.enabled, (self.static, self.has_footprint, self._seen, self._models),
            self._motion, (self._fresh, moving, self._implausible, active))
        # a pose jump or a bad twist: the body leaves the tick until fresh poses rebuild its
        # history, every other body goes on
        for b in np.flatnonzero(self._implausible).tolist() if n_implausible else ():
            report.refused.append((b, self.refuse(b, IMPLAUSIBLE_MOTION)))
            self.history.clear(b)
        if n_moving == len(self.names):  # the usual tick: every row as it is, no copies
            self.world.set_motion(self._poses, self._twists, self._accels, self._every_body)
        elif n_moving:
            self.world.set_motion(self._poses[moving], self._twists[moving],
                                  self._accels[moving], np.flatnonzero(moving))
        self.world.set_active(None, active)
        report.active = active
        report.stale = (np.flatnonzero(self._seen & ~self._fresh & ~self.static).tolist()
                        if n_stale else [])
        predictions = self.world.predict(cfg.horizon)
        # rows in Python: a tick predicts a few pairs, and after a pause between messages
        # the numpy calls cost more than the loop (measured: 31 us against 9)
        ignored, predicted, touching = self._ignored, {}, []
        for c, (pair, t) in enumerate(zip(predictions.pairs.tolist(),
                                          predictions.time.tolist())):
            pair = tuple(pair)
            if t > 0.0:
                if pair not in ignored:
                    predicted[pair] = c
            else:  # touching now: time 0
                touching.append(pair)
        report.warnings = self._debounce(predicted, predictions, touching)
        return report

    def detect(self, report):
        """The second half of the tick of `report`, right after `predict` made it: the
        contacts (the world's `detect` on the candidates of its `predict`) and whether the
        state (touching pairs, warned pairs, stale bodies) changed."""
        contacts = self.world.detect(stamp=report.stamp)
        if len(contacts) > 1 or self._ignored:
            contacts = self._listed(contacts)
        report.contacts = contacts
        self._last_contacts = contacts
        self._last_active = report.active
        state = (frozenset(map(tuple, contacts.pairs.tolist())),
                 frozenset(w[:2] for w in report.warnings), frozenset(report.stale))
        report.state_changed = state != self._last_state
        self._last_state = state

    def _listed(self, contacts):
        """`contacts` without the ignored pairs, in pair order (by i, then j).  The engine
        lists them in the order of its candidate pairs, which depends on the ticks before
        (when its grid last ran, which bodies it refiled since): two monitors in the same
        state, as the blocks of a replay are at their seams, must write the same messages."""
        pairs = list(map(tuple, contacts.pairs.tolist()))
        rows = sorted(range(len(pairs)), key=pairs.__getitem__)
        if self._ignored:
            rows = [c for c in rows if pairs[c] not in self._ignored]
        return contacts if rows == list(range(len(pairs))) else contacts.take(rows)

    def markers_due(self, now):
        """Whether the tick at `now` (s) publishes markers: the first, then each tick at
        least ``1 / marker_rate`` after the last that did, less half a tick period (so that a
        `marker_rate` dividing `tick_rate` keeps its period on a jittery clock)."""
        cfg = self.config
        if now - self._last_markers < 1.0 / cfg.marker_rate - 0.5 / cfg.tick_rate:
            return False
        self._last_markers = now
        return True

    def _debounce(self, predicted, predictions, touching):
        """The warnings ``(i, j, FirstContact)`` after this tick's `predicted` pairs (pair:
        row of `predictions`): a pair is warned of once predicted `trigger_ticks` ticks in a
        row, and stays warned with its last prediction until missing `release_ticks` ticks in
        a row, or at once when `touching` (warnings are for pairs not touching: the contact
        is reported instead)."""
        cfg, states = self.config, self._pairs
        for pair in touching:
            states.pop(pair, None)
        for pair, row in predicted.items():
            st = states.get(pair)
            if st is None:
                st = states[pair] = _PairState()
            st.predicted += 1
            st.missing = 0
            st.predictions, st.row = predictions, row
            if not st.warned and st.predicted >= cfg.trigger_ticks:
                st.warned = True
        if len(states) > len(predicted):
            for pair in [pair for pair in states if pair not in predicted]:
                st = states[pair]
                st.predicted = 0
                st.missing += 1
                if not st.warned or st.missing >= cfg.release_ticks:
                    del states[pair]
        warned = sorted(pair for pair, st in states.items() if st.warned)
        return [(i, j, states[i, j].last) for i, j in warned]

    def gate_command(self, command):
        """The command the gate passes on: the gated body's twist ``(vx, vy, vz, wx, wy, wz)``
        in its own frame (m/s, rad/s) times `gate_scale`.  A command with a value that is
        not finite, a speed over `MAX_SPEED` or a turn rate over `MAX_ANGULAR_SPEED` is
        refused and counted for the gated body: all zeros, and the reason.  Returns
        ``(command, reason or None)``."""
        if (not all(math.isfinite(v) for v in command)
                or not math.hypot(*command[:3]) <= MAX_SPEED
                or not math.hypot(*command[3:]) <= MAX_ANGULAR_SPEED):
            return (0.0,) * 6, self.refuse(self.config.gate.body, BAD_COMMAND)
        s = self.gate_scale(command[0], command[1], command[5])
        return tuple(v * s + 0.0 for v in command), None  # + 0.0: no -0.0 out of a stop

    def gate_scale(self, vx, vy, wz):
        """Scale (0 to 1) of a velocity command of the gated body: twist (vx, vy, wz) in its
        own frame (m/s, rad/s), as Nav2 and diff_drive_controller send it.

        The gated body is moved as the command would move it (the twist held in its own
        frame: an arc, turning in place about its origin) and every other body as estimated
        at the last tick, under its model: 0 when that makes it push into a body it touches (at
        any contact point the command's relative velocity has a component into the other
        body) or meet one within ``gate.stop_time``; 1 beyond ``gate.slowdown_time``; linear
        between.  A command that moves the body away from a contact or a predicted collision
        passes.  0 when its pose is stale; 1 (commands pass unchanged) while monitoring is
        disabled (``~/enable`` false, Nav2's toggle) or the gate is off.
        """
        gate = self.config.gate
        if not gate.enabled or not self.enabled:
            return 1.0
        b = self.index[gate.body]
        if not self._fresh[b] or not self._last_active[b]:
            return 0.0
        x, y, yaw = self.world.poses[b]
        c, s = math.cos(yaw), math.sin(yaw)
        commanded = (c * vx - s * vy, s * vx + c * vy, wz)
        contacts = self._last_contacts
        for k, pair in enumerate(map(tuple, contacts.pairs.tolist())):
            if b in pair and _pushes_in(self.world.poses, self._twists, pair, contacts[k], b,
                                        commanded):
                return 0.0
        self.world.set_twists([commanded], [b])
        self.world.set_accelerations([(0.0, 0.0, 0.0)], [b])
        self.world.set_predictors([MotionModel.ARC], [b])
        try:
            predicted = self.world.predict(gate.slowdown_time)
        finally:
            self.world.set_twists([self._twists[b]], [b])
            self.world.set_accelerations([self._accels[b]], [b])
            self.world.set_predictors([self.config.bodies[b].predictor or None], [b])
        ttc = min((t for (i, j), t in zip(predicted.pairs.tolist(), predicted.time.tolist())
                   if b in (i, j) and (i, j) not in self._ignored and t > 0.0),
                  default=math.inf)
        if ttc <= gate.stop_time:
            return 0.0
        if ttc < gate.slowdown_time:
            return (ttc - gate.stop_time) / (gate.slowdown_time - gate.stop_time)
        return 1.0


def _pushes_in(poses, twists, pair, contact, b, commanded, slack=1e-6):
    """Whether body b, moving as `commanded` (world twist) against the other body of `pair`
    moving as estimated, drives any contact point further in: the relative velocity at the
    point along the contact normal (from pair[0] to pair[1]) points into the other body
    (more than `slack` m/s)."""
    o = pair[1] if pair[0] == b else pair[0]
    sign = 1.0 if pair[0] == b else -1.0
    nx, ny = contact.normal
    for px, py in contact.points:
        rel = []
        for body, (vx, vy, w) in ((b, commanded), (o, twists[o])):
            rel.append((vx - w * (py - poses[body, 1]), vy + w * (px - poses[body, 0])))
        if sign * ((rel[0][0] - rel[1][0]) * nx + (rel[0][1] - rel[1][1]) * ny) > slack:
            return True
    return False
