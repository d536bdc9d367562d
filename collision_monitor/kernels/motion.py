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
"""Pose histories and the velocity and acceleration estimated from them.

Each body keeps its last `HISTORY` stamped poses ``(t, x, y, yaw)`` in a ring, yaw unwrapped
so that it is continuous, each with the twist measured with it, if any.  Every tick,
`estimate_motion` fits, per body and axis, a quadratic ``p(tau) = p0 + v tau + a tau^2 / 2``
by least squares to the samples of the last `window` seconds (tau = t - t_last): the fit
is the noise filter, and it has no lag under constant acceleration.  Two samples give a
line (a = 0), one sample rest.  A body whose twist is measured (nav_msgs/Odometry, in its
own frame) is not fitted: its velocity is its newest twist and its acceleration the slope
of its twists over the window, so that a jump of its pose (a relocalisation) changes
neither.  Poses are then carried forward to the tick time with the same model, at most
`pose_timeout` seconds, so that bodies stamped at different times are compared at one time.

Frames and units: world frame, metres, radians, seconds; yaw CCW from the world x axis.
"""

import math
from typing import NamedTuple

import numpy as np

from .constants import FLOAT, jit, jit_inline, MotionModel
from .geometry2d.validation import rows_finite_extent
from .rigid import phi
from .trig import rotate, sincos

HISTORY = 16
_TWIST = 4  # the ring column of a sample's measured twist (vx, vy, omega; nan when none)


@jit
def wrap_angle(a):
    """Wrap an angle to [-pi, pi)."""
    return (a + math.pi) % (2.0 * math.pi) - math.pi


@jit
def yaw_from_quaternion(qx, qy, qz, qw):
    """Yaw (rad) of a quaternion, the z-rotation of its ZYX Euler angles; arrays allowed.

    ``atan2(2 (w z + x y), 1 - 2 (y^2 + z^2))`` after normalisation: the same angle as
    ``transforms3d.euler.quat2euler(q, 'sxyz')[2]`` (tf's euler_from_quaternion).
    """
    n = np.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    qx, qy, qz, qw = qx / n, qy / n, qz / n, qw / n
    return np.arctan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))


@jit_inline
def _append(hist, count, head, still, b, t, x, y, yaw):
    """`push_pose` on the history's arrays: inlined where a loop appends many poses."""
    k = hist.shape[1]
    repeated = 1
    h = 0
    if count[b] > 0:
        last = head[b]
        if not t > hist[b, last, 0]:
            return False
        last_yaw = hist[b, last, 3]
        yaw = last_yaw + wrap_angle(yaw - last_yaw)
        if x == hist[b, last, 1] and y == hist[b, last, 2] and yaw == last_yaw:
            repeated = min(still[b] + 1, k)
        h = (last + 1) % k
    hist[b, h, 0] = t
    hist[b, h, 1] = x
    hist[b, h, 2] = y
    hist[b, h, 3] = yaw
    for c in range(_TWIST, _TWIST + 3):
        hist[b, h, c] = np.nan
    head[b] = h
    count[b] = min(count[b] + 1, k)
    still[b] = repeated
    return True


@jit
def push_pose(history, b, t, x, y, yaw):
    """Append a pose of body b to its `PoseHistory` ring, counting in `still` the newest
    samples that repeat it exactly; return False (and change nothing) unless t is the
    newest."""
    hist, count, head, still = history
    return _append(hist, count, head, still, b, t, x, y, yaw)


@jit
def push_twist(history, b, vx, vy, omega):
    """Give body b's newest sample its measured twist (m/s, rad/s; the body's own frame, as
    nav_msgs/Odometry's child frame holds it); return False (and change nothing) when b has
    no sample."""
    hist, count, head, _ = history
    if count[b] == 0:
        return False
    h = head[b]
    hist[b, h, _TWIST] = vx
    hist[b, h, _TWIST + 1] = vy
    hist[b, h, _TWIST + 2] = omega
    return True


# codes of `push_bulk`, one per pose
BULK_ACCEPTED = 0
BULK_NON_FINITE = 1
BULK_ZERO_QUATERNION = 2
BULK_OUT_OF_RANGE = 3
BULK_OUT_OF_ORDER = 4


@jit
def push_bulk(history, bodies, t, poses, max_coordinate, codes):
    """Check and append one pose per listed body, all stamped t (a bulk source's message).

    `poses` (k, 7) rows are ``x, y, z, qx, qy, qz, qw`` (z is not used; yaw from
    `yaw_from_quaternion`).  `codes[k]` gets a `BULK_*` code: accepted, or why row k changed
    nothing (non-finite, a quaternion of norm below 1e-6, |x| or |y| beyond
    `max_coordinate`, a stamp not newer than the body's last).  Returns the number of rows
    refused.
    """
    hist, count, head, still = history
    refused = 0
    for k in range(bodies.shape[0]):
        x, y, qx, qy, qz, qw = (poses[k, 0], poses[k, 1], poses[k, 3], poses[k, 4],
                                poses[k, 5], poses[k, 6])
        n = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(n)):
            code = BULK_NON_FINITE
        elif n < 1e-6:
            code = BULK_ZERO_QUATERNION
        elif abs(x) > max_coordinate or abs(y) > max_coordinate:
            code = BULK_OUT_OF_RANGE
        else:
            yaw = yaw_from_quaternion(qx, qy, qz, qw)
            code = (BULK_ACCEPTED if _append(hist, count, head, still, bodies[k], t, x, y, yaw)
                    else BULK_OUT_OF_ORDER)
        codes[k] = code
        refused += code != BULK_ACCEPTED
    return refused


@jit
def _fit_weights(hist, b, n, tl, window, weights, stamps):
    """Weights of the least-squares quadratic ``p0 + v tau + (a / 2) tau^2`` through the
    samples of body b within `window` seconds of its newest (stamped tl), tau = t - tl, by
    ring row: with d_r the coordinate in row r (of the n rows held) less the newest's,
    ``v = sum_r weights[0, r] d_r`` and a / 2 likewise with row 1.  Rows outside the window
    weigh 0.  Two samples in the window weigh as their line (a = 0); one, or normal equations
    that underflow float64 (stamps ~1e-100 s apart), weigh 0 (rest).  Otherwise each row is
    the inverse normal matrix's (by cofactors) times ``(1, tau_r, tau_r^2)``.  The rows'
    stamps go to `stamps` (what the weights were made for)."""
    s0 = s1 = s2 = s3 = s4 = 0.0
    before = -math.inf  # the stamp before the newest (within the window)
    for r in range(n):
        t = hist[b, r, 0]
        stamps[r] = t
        weights[0, r] = weights[1, r] = 0.0
        if tl - t <= window:
            tau = t - tl
            t2 = tau * tau
            s0 += 1.0
            s1 += tau
            s2 += t2
            s3 += t2 * tau
            s4 += t2 * t2
            if t < tl:
                before = max(before, t)
    if s0 == 2.0:
        for r in range(n):
            if stamps[r] == before:
                weights[0, r] = 1.0 / (before - tl)
        return
    # cofactors of the symmetric matrix [[s0, s1, s2], [s1, s2, s3], [s2, s3, s4]]
    c00 = s2 * s4 - s3 * s3
    c01 = s2 * s3 - s1 * s4
    c02 = s1 * s3 - s2 * s2
    det = s0 * c00 + s1 * c01 + s2 * c02
    if abs(det) < 1e-300:  # one sample (det = 0) or stamps too close for float64
        return
    c11 = s0 * s4 - s2 * s2
    c12 = s1 * s2 - s0 * s3
    c22 = s0 * s2 - s1 * s1
    for r in range(n):
        tau = stamps[r] - tl
        if -tau <= window:
            weights[0, r] = (c01 + (c11 + c12 * tau) * tau) / det
            weights[1, r] = (c02 + (c12 + c22 * tau) * tau) / det


@jit
def estimate_motion(history, now, window, max_age, fresh, motion, models):
    """Fill the `packed.Motion` rows (poses, twists, accelerations) at time `now` of every
    body with a fresh pose in its `PoseHistory`, in the frame its model (``models`` (N,),
    `MotionModel` values) needs.

    A body is fresh when it has a sample no older than `max_age`; `fresh` is set accordingly.
    Rows of bodies that are not fresh are left as they were.  The velocity and acceleration
    are those of the least-squares quadratic in time through the samples within `window`
    seconds of the newest (`_fit_weights`: two samples give their velocity and no
    acceleration; one, or normal equations that underflow float64, rest), or, when the
    newest sample holds a measured twist, `_measured_motion`; the pose is the newest sample
    carried on to `now` by them.  A body whose every sample holds one pose (`still`) and
    no twist is at rest there: the fit's answer, exactly, without the fit (parked robots
    and shelves republished as they are).  The weights depend on the ring rows' stamps
    alone: bodies stamped alike in the same rows (one bulk message's) share them, made once
    for a run of such bodies.  Rows are read in ring order, not newest first: the sums'
    order does not matter and the loops stay straight.

    Under ARC the position samples are first unrolled along the body's turn (`_arc_fit`), so
    that a body holding its twist on a circle is fitted with that twist and no tangential
    acceleration, where a quadratic in world axes lags the turning centripetal acceleration
    by about half the window (at 1 m/s and 0.5 rad/s over 0.4 s: 0.05 m/s^2 along the
    path, 0.1 m over 2 s).
    """
    hist, count, head, still = history
    poses, twists, accels = motion
    k = hist.shape[1]
    weights = np.zeros((2, k))
    stamps = np.empty(k)  # of the ring rows the weights were made for
    fitted = -1           # how many rows they were made for (-1: none yet)
    for b in range(hist.shape[0]):
        fresh[b] = False
        n = count[b]
        if n == 0:
            continue
        h = head[b]
        tl = hist[b, h, 0]
        age = now - tl
        if age > max_age:
            continue
        fresh[b] = True
        xl, yl, wl = hist[b, h, 1], hist[b, h, 2], hist[b, h, 3]
        measured = not math.isnan(hist[b, h, _TWIST])
        if still[b] >= n and not measured:  # every sample the same pose: at rest
            poses[b, 0] = xl
            poses[b, 1] = yl
            poses[b, 2] = wrap_angle(wl)
            for c in range(3):
                twists[b, c] = accels[b, c] = 0.0
            continue
        if measured:
            vx, vy, vw, ax, ay, aw = _measured_motion(hist, b, n, h, window)
        else:
            vx, vy, vw, ax, ay, aw, fitted = _fitted_motion(hist, b, n, h, window, models[b],
                                                            (weights, stamps, fitted))
        if not (math.isfinite(vx) and math.isfinite(vy) and math.isfinite(vw)
                and math.isfinite(ax) and math.isfinite(ay) and math.isfinite(aw)):
            vx = vy = vw = ax = ay = aw = 0.0
        dt = max(0.0, age)
        poses[b, 0] = xl + (vx + 0.5 * ax * dt) * dt
        poses[b, 1] = yl + (vy + 0.5 * ay * dt) * dt
        poses[b, 2] = wrap_angle(wl + (vw + 0.5 * aw * dt) * dt)
        twists[b, 0] = vx + ax * dt
        twists[b, 1] = vy + ay * dt
        twists[b, 2] = vw + aw * dt
        accels[b, 0] = ax
        accels[b, 1] = ay
        accels[b, 2] = aw


@jit_inline
def _fitted_motion(hist, b, n, h, window, model, fit):
    """``(vx, vy, w, ax, ay, alpha, fitted)``: body b's world velocity and acceleration at
    its newest sample (ring row h) from the least-squares quadratic through its samples
    (`estimate_motion`), under ARC unrolled along its turn (`_arc_fit`).  ``fit`` is
    ``(weights, stamps, fitted)``: the last weights made, the ring stamps and row count
    they were made for; they are made anew unless body b's rows match, and the row count
    they are then for is returned."""
    weights, stamps, fitted = fit
    tl = hist[b, h, 0]
    same = n == fitted
    if same:
        for r in range(n):  # no early exit: straight, and mostly all equal
            same &= hist[b, r, 0] == stamps[r]
    if not same:
        _fit_weights(hist, b, n, tl, window, weights, stamps)
    xl, yl, wl = hist[b, h, 1], hist[b, h, 2], hist[b, h, 3]
    vx = vy = vw = hx = hy = hw = 0.0
    for r in range(n):
        wv, wa = weights[0, r], weights[1, r]
        dx = hist[b, r, 1] - xl
        dy = hist[b, r, 2] - yl
        dw = hist[b, r, 3] - wl
        vx += wv * dx
        vy += wv * dy
        vw += wv * dw
        hx += wa * dx
        hy += wa * dy
        hw += wa * dw
    ax, ay, aw = 2.0 * hx, 2.0 * hy, 2.0 * hw
    if model == MotionModel.ARC:
        valid, ux, uy, bx, by = _arc_fit(hist, b, n, h, weights, vw)
        if valid:
            vx, vy, ax, ay = ux, uy, bx, by
    return vx, vy, vw, ax, ay, aw, n


@jit_inline
def _measured_motion(hist, b, n, h, window):
    """``(vx, vy, w, ax, ay, alpha)``: body b's world velocity and acceleration at its
    newest sample (ring row h) from its measured twists, its poses aside.

    The velocity is the newest twist u (body frame) turned by the newest yaw: ``v = R u``.
    The body-frame acceleration u' and alpha are the slopes of the least-squares lines in
    time through the twists of the samples within `window` s of the newest (samples
    without a twist left out; fewer than two, or stamps too close for float64: zero), and
    the world acceleration is ``d(R u)/dt = R (u' + w x u)``: a body holding its twist on a
    circle has the centripetal ``w x v``, which ARC's `model_acceleration` takes out."""
    tl = hist[b, h, 0]
    s0 = s1 = s2 = 0.0
    sx = sy = sw = tx = ty = tw = 0.0  # sums of u and of tau u, per component
    for r in range(n):
        tau = hist[b, r, 0] - tl
        if -tau <= window and not math.isnan(hist[b, r, _TWIST]):
            ux, uy, uw = hist[b, r, _TWIST], hist[b, r, _TWIST + 1], hist[b, r, _TWIST + 2]
            s0 += 1.0
            s1 += tau
            s2 += tau * tau
            sx += ux
            sy += uy
            sw += uw
            tx += tau * ux
            ty += tau * uy
            tw += tau * uw
    den = s0 * s2 - s1 * s1
    if s0 >= 2.0 and den > 0.0:
        bx, by, alpha = (s0 * tx - s1 * sx) / den, (s0 * ty - s1 * sy) / den, \
            (s0 * tw - s1 * sw) / den
    else:
        bx = by = alpha = 0.0
    ux, uy, w = hist[b, h, _TWIST], hist[b, h, _TWIST + 1], hist[b, h, _TWIST + 2]
    sn, cs = sincos(hist[b, h, 3])
    vx, vy = rotate(sn, cs, ux, uy)
    ax, ay = rotate(sn, cs, bx - w * uy, by + w * ux)
    return vx, vy, w, ax, ay, alpha


@jit
def _arc_fit(hist, b, n, h, weights, w):
    """``(valid, vx, vy, ax, ay)``: the world velocity and acceleration at body b's newest
    sample (ring row h) under ARC, turning at w (rad/s).

    The samples' offsets from the newest, turned into its body frame, are divided by
    ``phi1(i w tau)`` (`rigid.phi`; tau the sample's time from the newest), which makes a
    constant body twist u exactly ``u tau``; the quadratic fit's weights then give the
    body-frame velocity u and acceleration ab, and the world ones are ``R u`` and
    ``R (ab + w x u)`` (R the newest heading).  ``valid`` is False (the rest meaningless)
    when the window holds half a turn or more (|w tau| >= pi), where the division stops
    being well conditioned.
    """
    tl, xl, yl = hist[b, h, 0], hist[b, h, 1], hist[b, h, 2]
    s, c = sincos(hist[b, h, 3])
    ux = uy = hx = hy = 0.0
    for r in range(n):
        if weights[0, r] == 0.0 and weights[1, r] == 0.0:
            continue  # outside the window
        if not abs(w * (hist[b, r, 0] - tl)) < math.pi:
            return False, 0.0, 0.0, 0.0, 0.0
        bx, by = rotate(-s, c, hist[b, r, 1] - xl, hist[b, r, 2] - yl)
        p1r, p1i, _, _ = phi(w * (hist[b, r, 0] - tl))
        den = p1r * p1r + p1i * p1i
        qx = (bx * p1r + by * p1i) / den
        qy = (by * p1r - bx * p1i) / den
        ux += weights[0, r] * qx
        uy += weights[0, r] * qy
        hx += weights[1, r] * qx
        hy += weights[1, r] * qy
    vx, vy = rotate(s, c, ux, uy)
    ax, ay = rotate(s, c, 2.0 * hx - w * uy, 2.0 * hy + w * ux)
    return True, vx, vy, ax, ay


class PoseHistory(NamedTuple):
    """Ring buffers of stamped poses for N bodies, each with its measured twist when it has
    one; the kernels take it whole, or its plain tuple (`packed`)."""

    hist: np.ndarray   # (N, HISTORY, 7) rows t, x, y, yaw (unwrapped), vx, vy, omega (the
    #                    body-frame twist measured with the pose; nan when none)
    count: np.ndarray  # (N,) intp samples held
    head: np.ndarray   # (N,) intp row of the newest sample
    still: np.ndarray  # (N,) intp newest samples of one pose, up to HISTORY

    @classmethod
    def empty(cls, n_bodies):
        """Histories of n_bodies bodies with no sample yet."""
        return cls(np.zeros((n_bodies, HISTORY, _TWIST + 3), FLOAT),
                   np.zeros(n_bodies, np.intp), np.zeros(n_bodies, np.intp),
                   np.zeros(n_bodies, np.intp))

    def clear(self, b=None):
        """Forget the history of body b, or of every body (a clock jump)."""
        if b is None:
            self.count[:] = 0
        else:
            self.count[b] = 0


@jit
def model_acceleration(b, motion, model):
    """Turn body b's estimated world acceleration into the one its model holds: under ARC
    the tangential part ``a - w x v`` (m/s^2; the body-frame acceleration in world axes, see
    `rigid`), which is zero for a robot holding its twist on a circle, whose world
    acceleration is the centripetal ``w x v``; the other models hold the world
    acceleration itself."""
    if model == MotionModel.ARC:
        _, twists, accels = motion
        w = twists[b, 2]
        accels[b, 0] += w * twists[b, 1]
        accels[b, 1] -= w * twists[b, 0]


@jit
def tick_motion(history, now, window, max_age, limits, enabled, known, motion, flags):
    """A tick's motion estimate and who takes part in the tick, in one call.

    `known` is the per-body ``(static, has_footprint, seen, models)``: bool arrays (seen: had
    a pose once) and each body's `MotionModel` value; `flags` the per-body
    ``(fresh, moving, implausible, active)`` bool arrays written.
    `estimate_motion` at `now` fills `fresh` and the `packed.Motion` rows; then per body b:
    ``implausible[b]``, a fresh moving body whose estimate is not finite or beyond `limits`
    ``(max_coordinate, max_speed, max_angular_speed, max_acceleration)``: |x|, |y| (m),
    speed (m/s), |omega| (rad/s), every acceleration component (m/s^2, rad/s^2); such a body
    is fresh no more.  ``moving[b]``: fresh and not static (its motion goes to the world);
    ``active[b]``: fresh or static, with a footprint, and monitoring `enabled`.  A moving
    body's acceleration is then made what its model holds (`model_acceleration`).

    Returns ``(moving, implausible, stale)`` counts, stale being the bodies seen once that
    are neither fresh nor static.
    """
    static, has_footprint, seen, models = known
    fresh, moving, implausible, active = flags
    estimate_motion(history, now, window, max_age, fresh, motion, models)
    max_coordinate, max_speed, max_angular_speed, max_acceleration = limits
    poses, twists, accels = motion
    n_moving = n_implausible = n_stale = 0
    for b in range(fresh.shape[0]):
        bad = False
        if fresh[b] and not static[b]:
            # a nan fails every comparison: not plausible
            bad = not (abs(poses[b, 0]) <= max_coordinate and abs(poses[b, 1]) <= max_coordinate
                       and math.isfinite(poses[b, 2])
                       and math.hypot(twists[b, 0], twists[b, 1]) <= max_speed
                       and abs(twists[b, 2]) <= max_angular_speed
                       and abs(accels[b, 0]) <= max_acceleration
                       and abs(accels[b, 1]) <= max_acceleration
                       and abs(accels[b, 2]) <= max_acceleration)
            if bad:
                fresh[b] = False
                n_implausible += 1
        implausible[b] = bad
        moving[b] = fresh[b] and not static[b]
        if moving[b]:
            model_acceleration(b, motion, models[b])
        n_moving += moving[b]
        active[b] = (fresh[b] or static[b]) and has_footprint[b] and enabled
        if seen[b] and not fresh[b] and not static[b]:
            n_stale += 1
    return n_moving, n_implausible, n_stale


@jit
def write_poses(rows, into, has_pose, max_coordinate):
    """Copy (N, 3) pose rows over `into` (N, 3) and mark every body posed; return True.
    Return False, writing nothing, when a value is not finite or an |x| or |y| exceeds
    `max_coordinate` (m)."""
    finite, extent = rows_finite_extent(rows)
    if not finite or extent > max_coordinate:
        return False
    for r in range(rows.shape[0]):  # a loop: numba's 2D slice assignment costs 3x more
        into[r, 0] = rows[r, 0]
        into[r, 1] = rows[r, 1]
        into[r, 2] = rows[r, 2]
        has_pose[r] = True
    return True


@jit
def write_motion(rows, bodies, into, has_pose, max_coordinate):
    """Write the rows of `rows` (a `Motion` of k rows) to bodies ``bodies`` (k,) of `into`
    (a `Motion` of N rows) and mark them posed; return True.  Return False, writing
    nothing, when a body index is outside [0, N), a value is not finite, or a pose's
    |x| or |y| exceeds `max_coordinate` (m)."""
    poses, twists, accels = rows
    into_poses, into_twists, into_accels = into
    n = into_poses.shape[0]
    for r in range(bodies.shape[0]):
        if not 0 <= bodies[r] < n:
            return False
    finite, extent = rows_finite_extent(poses)
    if not (finite and extent <= max_coordinate and rows_finite_extent(twists)[0]
            and rows_finite_extent(accels)[0]):
        return False
    for r in range(bodies.shape[0]):
        b = bodies[r]
        for c in range(3):
            into_poses[b, c] = poses[r, c]
            into_twists[b, c] = twists[r, c]
            into_accels[b, c] = accels[r, c]
        has_pose[b] = True
    return True
