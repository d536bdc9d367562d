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
"""Pose histories and the motion fit, against motions written down by hand."""

import math

from hypothesis import given, strategies as st
import numpy as np
import pytest
import transforms3d

from collision_monitor.kernels.constants import MotionModel
from collision_monitor.kernels.motion import (estimate_motion, HISTORY, PoseHistory,
                                              push_pose, push_twist, tick_motion)
from collision_monitor.kernels.packed import Motion

POINT = np.zeros(10000, np.intp)  # constant acceleration: the world-axes fit, for any body


def wrapped(a):
    """An angle in [-pi, pi), as a pose message's quaternion gives it."""
    return math.atan2(math.sin(a), math.cos(a))


def fitted(samples, now, window, max_age=1.0):
    """Push (t, x, y, yaw) samples of body 1 of two; return (fresh, pose, twist, accel)."""
    history = PoseHistory.empty(2)
    for t, x, y, yaw in samples:
        assert push_pose(history, 1, t, x, y, yaw)
    motion = Motion(*(np.full((2, 3), 7.0) for _ in range(3)))
    fresh = np.zeros(2, np.bool_)
    estimate_motion(history, now, window, max_age, fresh, motion, POINT)
    return fresh, motion.poses[1], motion.twists[1], motion.accels[1]


@given(st.floats(-50, 50), st.floats(-2, 2), st.floats(-3, 3), st.floats(-math.pi, math.pi),
       st.floats(-2, 2), st.floats(-3, 3), st.floats(0.0, 0.05))
def test_a_constant_acceleration_motion_is_fitted_exactly(x0, v, a, yaw0, w, alpha, age):
    """A quadratic in time is its own least-squares quadratic: at `now` (the last sample plus
    `age`) the fit gives the motion's own pose, velocity and acceleration, in x, in y and in
    a yaw that wraps around +-pi on the way (each sample's yaw given wrapped, as a quaternion
    gives it)."""
    times = np.arange(0.0, 0.2, 0.02)  # 50 Hz, ten samples in a 0.3 s window

    def at(t):
        return (x0 + (v + 0.5 * a * t) * t, -x0 + (a + 0.5 * v * t) * t,
                yaw0 + (w + 0.5 * alpha * t) * t)
    samples = [(t, *at(t)[:2], wrapped(at(t)[2])) for t in times]
    now = times[-1] + age
    fresh, pose, twist, accel = fitted(samples, now, window=0.3)
    x, y, yaw = at(now)
    assert fresh[1] and not fresh[0]
    assert pose[:2] == pytest.approx([x, y], abs=1e-9)
    assert abs(wrapped(pose[2] - yaw)) < 1e-9
    assert twist == pytest.approx([v + a * now, a + v * now, w + alpha * now], abs=1e-7)
    assert accel == pytest.approx([a, v, alpha], abs=1e-5)


def test_a_body_turning_through_pi_keeps_its_rate():
    """Yaw 3.0 rad turning at +0.5 rad/s crosses pi after 0.28 s: the given yaws jump from
    about +pi to -pi, the fitted rate stays +0.5 (not the -2 pi jump's)."""
    samples = [(t, 0.0, 0.0, wrapped(3.0 + 0.5 * t)) for t in np.arange(0.0, 0.6, 0.05)]
    _, pose, twist, accel = fitted(samples, 0.55, window=1.0)
    assert twist[2] == pytest.approx(0.5, abs=1e-9) and accel[2] == pytest.approx(0.0, abs=1e-7)
    assert abs(wrapped(pose[2] - (3.0 + 0.5 * 0.55))) < 1e-9


def test_two_samples_give_their_velocity_and_no_acceleration():
    _, pose, twist, accel = fitted([(0.0, 1.0, 2.0, 3.1), (0.1, 1.2, 1.9, -3.1)], 0.15,
                                   window=1.0)
    yaw_rate = (2 * math.pi - 6.2) / 0.1  # 3.1 -> -3.1 turns by +0.083 rad through pi
    assert twist == pytest.approx([2.0, -1.0, yaw_rate]) and list(accel) == [0.0, 0.0, 0.0]
    assert pose[:2] == pytest.approx([1.3, 1.85])


def rotated(yaw, x, y):
    return np.array([math.cos(yaw) * x - math.sin(yaw) * y, math.sin(yaw) * x + math.cos(yaw) * y])


def test_measured_twists_give_the_velocity_and_the_acceleration_and_poses_neither():
    """Odometry twists u(t) = (0.3 + 0.5 t, -0.7 + 0.2 t, 1.1 - 0.4 t) (body frame) with
    poses that accelerate at (1, 2, 3) (what the poses do is not fitted): at the newest
    sample (yaw phi) the velocity is R(phi) u, the acceleration ``R(phi) (u' + w x u)`` and
    alpha = -0.4 (the twists' slopes), both carrying the newest pose on 0.1 s."""
    history = PoseHistory.empty(2)
    for t in np.arange(0.0, 0.21, 0.05):
        assert push_pose(history, 1, t, t * t / 2, t * t, 1.5 * t * t)
        assert push_twist(history, 1, 0.3 + 0.5 * t, -0.7 + 0.2 * t, 1.1 - 0.4 * t)
    motion = Motion(*(np.zeros((2, 3)) for _ in range(3)))
    estimate_motion(history, 0.3, 1.0, 1.0, np.zeros(2, np.bool_), motion, POINT)
    yaw, (ux, uy, w) = 1.5 * 0.04, (0.4, -0.66, 1.02)
    v = [*rotated(yaw, ux, uy), w]
    a = [*rotated(yaw, 0.5 - w * uy, 0.2 + w * ux), -0.4]
    assert motion.accels[1] == pytest.approx(a, abs=1e-9)
    assert motion.twists[1] == pytest.approx(np.add(v, 0.1 * np.array(a)), abs=1e-9)
    newest = np.array([0.02, 0.04, yaw])
    assert motion.poses[1] == pytest.approx(newest + (np.add(v, 0.05 * np.array(a))) * 0.1,
                                            abs=1e-9)


@pytest.mark.parametrize('window', [0.3, 1.0])
def test_a_measured_twist_moves_a_body_whose_samples_repeat_one_pose(window):
    """Odometry's twist (0.3, -0.7, 1.1) held on a body whose pose source repeats one pose
    (yaw 0.5): the body moves at that twist turned into the world, with its centripetal
    acceleration w x v and no angular acceleration; a refused twist in the window (no
    twist on that sample) changes nothing."""
    history = PoseHistory.empty(2)
    for k, t in enumerate(np.arange(0.0, 0.21, 0.05)):
        assert push_pose(history, 1, t, 1.0, 2.0, 0.5)
        if k != 2:
            assert push_twist(history, 1, 0.3, -0.7, 1.1)
    motion = Motion(*(np.full((2, 3), 7.0) for _ in range(3)))
    estimate_motion(history, 0.2, window, 1.0, np.zeros(2, np.bool_), motion, POINT)
    v = rotated(0.5, 0.3, -0.7)
    assert motion.twists[1] == pytest.approx([*v, 1.1], abs=1e-12)
    assert motion.accels[1] == pytest.approx([-1.1 * v[1], 1.1 * v[0], 0.0], abs=1e-12)
    assert motion.poses[1] == pytest.approx([1.0, 2.0, 0.5])


def test_a_twist_needs_a_pose_to_hold_it():
    history = PoseHistory.empty(2)
    before = [a.copy() for a in history]
    assert not push_twist(history, 1, 1.0, 0.0, 0.0)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(history, before))


def measured_estimate(samples, now, window):
    """Push (t, x, y, yaw, vx, vy, omega) samples of body 1 of two, each pose with its
    measured twist; return the body's (twist, acceleration) at `now` (a point model)."""
    history = PoseHistory.empty(2)
    for t, x, y, yaw, *twist in samples:
        assert push_pose(history, 1, t, x, y, yaw) and push_twist(history, 1, *twist)
    motion = Motion(*(np.full((2, 3), 7.0) for _ in range(3)))
    estimate_motion(history, now, window, 1.0, np.zeros(2, np.bool_), motion, POINT)
    return motion.twists[1], motion.accels[1]


@pytest.mark.parametrize('window', [0.05, 0.1, 0.15])
def test_only_the_twists_within_the_window_give_the_acceleration(window):
    """A body at yaw 0 speeding up at 2 m/s^2 (and turning faster at 3 rad/s^2) until
    t = 0.3 s, then holding 0.6 m/s, 0.9 rad/s, its twists measured at 20 Hz: at 0.5 s a
    window of 0.05 s (two twists, their line), 0.1 or 0.15 s holds only the held twists,
    so its acceleration is the held twist's centripetal one and alpha 0."""
    def twist(t):
        return min(t, 0.3) * 2.0, 0.0, min(t, 0.3) * 3.0
    samples = [(t, 0.0, 0.0, 0.0, *twist(t)) for t in np.arange(0.0, 0.51, 0.05)]
    got, accel = measured_estimate(samples, 0.5, window)
    assert got == pytest.approx([0.6, 0.0, 0.9], abs=1e-12)
    assert accel == pytest.approx([0.0, 0.9 * 0.6, 0.0], abs=1e-9)
    # within the ramp, two twists 0.05 s apart give its slope
    got, accel = measured_estimate(samples[:5], 0.2, 0.05)
    assert accel == pytest.approx([2.0, 0.6 * 0.4, 3.0], abs=1e-9)


def test_twists_too_close_for_float64_keep_the_newest_and_no_acceleration():
    """Twists 1e-170 s apart: tau^2 underflows to 0, the twists' line is singular; the body
    moves at its newest twist with the centripetal acceleration alone (no nan, no rest)."""
    samples = [(k * 1e-170, 1.0, 2.0, 0.0, 1.0, 0.0, 0.5) for k in range(1, 4)]
    got, accel = measured_estimate(samples, 3e-170, 1.0)
    assert got == pytest.approx([1.0, 0.0, 0.5], abs=1e-12)
    assert accel == pytest.approx([0.0, 0.5, 0.0], abs=1e-12)


def test_samples_too_close_for_float64_give_rest():
    """Stamps 1e-110 s apart: the normal equations' sums of tau^4 underflow, so the fit is
    singular; the body is fresh, at its newest pose, at rest (no nan)."""
    samples = [(k * 1e-110, 1.0 + k, 2.0, 0.5) for k in range(1, 4)]
    fresh, pose, twist, accel = fitted(samples, 3e-110, window=1.0)
    assert fresh[1] and list(pose) == [4.0, 2.0, 0.5]
    assert list(twist) == list(accel) == [0.0, 0.0, 0.0]


def test_only_the_window_is_fitted():
    """Samples older than the window (from the newest) are left out: a motion that changed
    from rest to 1 m/s is fitted from the moving samples alone."""
    samples = [(t, max(0.0, t - 1.0), 0.0, 0.0) for t in np.arange(0.0, 1.5, 0.05)]
    _, _, twist, accel = fitted(samples, 1.45, window=0.3)
    assert twist[0] == pytest.approx(1.0) and accel[0] == pytest.approx(0.0, abs=1e-6)


@given(st.integers(HISTORY + 1, 3 * HISTORY), st.integers(3, HISTORY),
       st.integers(0, 2**32 - 1))
def test_a_window_cutting_a_wrapped_ring_fits_exactly_its_samples(count, inside, seed):
    """More samples than the ring holds, the newest at any row of it, and a window holding
    the `inside` newest: noisy samples get np.polyfit's quadratic over exactly those."""
    rng = np.random.default_rng(seed)
    times = np.cumsum(rng.uniform(0.01, 0.03, count))
    path = rng.normal(0.0, 1.0, (count, 3)) * [1.0, 1.0, 0.1]
    window = (times[-1] - times[-inside] + times[-1] - times[-inside - 1]) / 2.0
    _, _, twist, accel = fitted([(t, *row) for t, row in zip(times, path)], times[-1], window)
    tau = times[-inside:] - times[-1]
    for c in range(3):
        half_a, v, _ = np.polyfit(tau, path[-inside:, c] - path[-1, c], 2)
        assert twist[c] == pytest.approx(v, rel=1e-7, abs=1e-7)
        assert accel[c] == pytest.approx(2.0 * half_a, rel=1e-7, abs=1e-7)


@given(st.integers(1, 3 * HISTORY), st.integers(1, 3 * HISTORY), st.integers(0, 2**32 - 1))
def test_a_body_is_at_rest_only_when_every_sample_repeats_its_pose(count, repeats, seed):
    """Noisy samples whose `repeats` newest repeat one pose exactly (a parked robot
    republished): while the ring holds an older, different pose the estimate is still
    np.polyfit's quadratic (a line through two samples); once every held sample repeats it,
    the body rests at that pose."""
    rng = np.random.default_rng(seed)
    times = np.cumsum(rng.uniform(0.01, 0.03, count))
    path = rng.normal(0.0, 1.0, (count, 3)) * [1.0, 1.0, 0.1]
    path[-min(repeats, count):] = path[-1]
    _, pose, twist, accel = fitted([(t, *row) for t, row in zip(times, path)], times[-1],
                                   window=10.0)
    held = min(count, HISTORY)
    if repeats >= held:
        assert list(pose[:2]) == list(path[-1, :2]) and abs(pose[2] - path[-1, 2]) < 1e-15
        assert list(twist) == list(accel) == [0.0, 0.0, 0.0]
        return
    tau = times[-held:] - times[-1]
    degree = min(held - 1, 2)
    for c in range(3):
        coefficients = np.polyfit(tau, path[-held:, c] - path[-1, c], degree)
        v = coefficients[-2]
        a = 2.0 * coefficients[0] if degree == 2 else 0.0
        assert twist[c] == pytest.approx(v, rel=1e-7, abs=1e-7)
        assert accel[c] == pytest.approx(a, rel=1e-7, abs=1e-7)
    assert any(twist) or any(accel)


def test_still_counts_the_newest_samples_of_one_pose_up_to_the_ring():
    history = PoseHistory.empty(1)
    poses = [(0.0, 0.0, 0.0)] * 3 + [(1.0, 0.0, 0.0)] + [(1.0, 0.0, 0.0)] * (HISTORY + 2)
    counts = []
    for k, pose in enumerate(poses):
        assert push_pose(history, 0, 0.1 * k, *pose)
        counts.append(int(history.still[0]))
    assert counts == [1, 2, 3, 1] + list(range(2, HISTORY + 1)) + [HISTORY] * 3


@pytest.mark.parametrize('moved', range(3))
def test_a_coordinate_stepping_onto_another_ones_value_is_motion(moved):
    """Each coordinate in turn steps by 0.5 in 0.1 s onto the value another coordinate
    holds (x onto y, y onto yaw, yaw onto x): the two samples give that velocity, not rest."""
    before = np.array([0.0, 0.5, 1.0])
    after = before.copy()
    after[moved] = before[(moved + 1) % 3]
    _, _, twist, _ = fitted([(0.0, *before), (0.1, *after)], 0.1, window=1.0)
    expected = np.zeros(3)
    expected[moved] = (after[moved] - before[moved]) / 0.1
    assert twist == pytest.approx(expected)


def test_stale_bodies_are_left_as_they_were():
    fresh, pose, twist, accel = fitted([(0.0, 1.0, 0.0, 0.0), (0.1, 1.1, 0.0, 0.0)], 0.75,
                                       window=1.0, max_age=0.5)
    assert not fresh.any()
    assert list(pose) == list(twist) == list(accel) == [7.0, 7.0, 7.0]


def test_a_stale_body_leaves_the_fit_of_the_bodies_after_it_alone():
    """Body 0 last seen 2 s ago, bodies 1 and 2 moving at 1 and 2 m/s along x now, body 3
    never seen: the fresh ones are fitted whatever comes before them."""
    history = PoseHistory.empty(4)
    assert push_pose(history, 0, 0.0, 5.0, 5.0, 0.0)
    for t in (1.9, 1.95, 2.0):
        for b in (1, 2):
            assert push_pose(history, b, t, b * t, 0.0, 0.0)
    motion = Motion(*(np.full((4, 3), 7.0) for _ in range(3)))
    fresh = np.ones(4, np.bool_)
    estimate_motion(history, 2.0, 1.0, 0.5, fresh, motion, POINT)
    assert list(fresh) == [False, True, True, False]
    assert np.allclose(motion.twists[1:3], [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]])
    assert list(motion.poses[0]) == list(motion.poses[3]) == [7.0, 7.0, 7.0]


# (pose, twist, acceleration) at t = 0 of each body; limits 100 m, 2 m/s, 3 rad/s, 4 m/s^2
LIMITS = (100.0, 2.0, 3.0, 4.0)
PLAUSIBLE = [((100.0, -100.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),    # at the limits
             ((50.0, -50.0, 1.0), (1.9, 0.3, -2.9), (3.9, -3.9, 3.9))]  # just within
IMPLAUSIBLE = [((110.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
               ((0.0, -110.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
               ((0.0, 0.0, 0.0), (2.1, 0.3, 0.0), (0.0, 0.0, 0.0)),      # speed 2.12
               ((0.0, 0.0, 0.0), (0.3, -2.1, 0.0), (0.0, 0.0, 0.0)),
               ((0.0, 0.0, 0.0), (0.0, 0.0, -3.3), (0.0, 0.0, 0.0)),
               ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (-4.4, 0.0, 0.0)),
               ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 4.4, 0.0)),
               ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 4.4))]


def test_motion_beyond_a_limit_is_implausible_and_no_longer_fresh():
    """Each body samples its own quadratic motion (the fit gives it back at t = 0): the ones
    beyond exactly one limit each are implausible and leave the tick; those at or within
    every limit stay, as do a static body and a stale one whatever their rows hold."""
    motions = PLAUSIBLE + IMPLAUSIBLE
    n = len(motions) + 2                                # then a static and a stale body
    history = PoseHistory.empty(n)
    for b, (p, v, a) in enumerate(motions + [motions[2]]):
        for t in (-0.3, -0.2, -0.1, 0.0):
            x, y, yaw = np.add(p, np.multiply(v, t)) + 0.5 * np.multiply(a, t * t)
            assert push_pose(history, b, t, x, y, yaw)
    assert push_pose(history, n - 1, -5.0, 0.0, 0.0, 0.0)
    motion = Motion(*(np.full((n, 3), 1e9) for _ in range(3)))
    static = np.zeros(n, np.bool_)
    static[n - 2] = True
    models = np.full(n, int(MotionModel.CONSTANT_ACCELERATION))
    known = (static, np.ones(n, np.bool_), np.ones(n, np.bool_), models)
    fresh, moving, implausible, active = (np.zeros(n, np.bool_) for _ in range(4))
    counts = tick_motion(history, 0.0, 1.0, 1.0, LIMITS, True, known, motion,
                         (fresh, moving, implausible, active))
    assert list(np.flatnonzero(implausible)) == list(range(len(PLAUSIBLE), len(motions)))
    assert list(np.flatnonzero(fresh)) == [0, 1, n - 2]
    assert list(np.flatnonzero(moving)) == [0, 1]
    assert list(np.flatnonzero(active)) == [0, 1, n - 2]
    assert counts == (2, len(IMPLAUSIBLE), len(IMPLAUSIBLE) + 1)


def test_clearing_forgets_poses_and_measured_twists():
    """Three bodies posed at rest with a twist of 1 m/s: cleared, body 1 (then all) has no
    sample, and the next pose alone leaves it at rest, its old twist forgotten."""
    history = PoseHistory.empty(3)
    for b in range(3):
        assert push_pose(history, b, 1.0, 0.0, 0.0, 0.0) and push_twist(history, b, 1.0, 0, 0)
    history.clear(1)
    assert list(history.count) == [1, 0, 1]
    history.clear()
    assert not history.count.any()
    assert push_pose(history, 1, 2.0, 0.0, 0.0, 0.0)
    motion = Motion(*(np.full((3, 3), 7.0) for _ in range(3)))
    fresh = np.zeros(3, np.bool_)
    estimate_motion(history, 2.0, 1.0, 1.0, fresh, motion, np.zeros(3, np.intp))
    assert list(fresh) == [False, True, False]
    assert list(motion.twists[1]) == list(motion.accels[1]) == [0.0, 0.0, 0.0]


def test_a_pose_not_newer_than_the_last_is_refused_and_changes_nothing():
    history = PoseHistory.empty(1)
    assert push_pose(history, 0, 1.0, 0.0, 0.0, 0.0)
    before = [a.copy() for a in history]
    assert not push_pose(history, 0, 1.0, 5.0, 5.0, 1.0)   # the same stamp
    assert not push_pose(history, 0, 0.5, 5.0, 5.0, 1.0)   # an older one
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(history, before))


def test_the_ring_keeps_the_newest_samples():
    history = PoseHistory.empty(1)
    for k in range(HISTORY + 5):
        assert push_pose(history, 0, float(k), float(k), 0.0, 0.0)
    assert history.count[0] == HISTORY
    assert sorted(history.hist[0, :, 0]) == [float(k) for k in range(5, HISTORY + 5)]
    assert history.hist[0, history.head[0], 0] == HISTORY + 4


def test_push_bulk_gives_each_pose_its_own_code():
    """One bulk message with a pose of each kind: each row's code names it (every code its
    own), only the accepted row is pushed (x, y and transforms3d's yaw of its quaternion,
    which also rolls and pitches), and the count of refused rows comes back."""
    from collision_monitor.kernels import motion
    codes = [motion.BULK_ACCEPTED, motion.BULK_NON_FINITE, motion.BULK_ZERO_QUATERNION,
             motion.BULK_OUT_OF_RANGE, motion.BULK_OUT_OF_ORDER]
    assert len(set(codes)) == len(codes)
    history = PoseHistory.empty(5)
    assert push_pose(history, 4, 2.0, 0.0, 0.0, 0.0)  # body 4 already has a newer pose
    level = [0.0, 0.0, 0.0, 1.0]                      # qx qy qz qw: yaw 0
    w, x, y, z = transforms3d.euler.euler2quat(0.3, -0.2, 1.1)  # roll, pitch, yaw
    yaw = transforms3d.euler.quat2euler((w, x, y, z), 'sxyz')[2]
    poses = np.array([[1.0, 2.0, 0.5, x, y, z, w],
                      [math.nan, 2.0, 0.0, *level],
                      [1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                      [1.0, 2e9, 0.0, *level],
                      [1.0, 2.0, 0.0, *level]])
    out = np.full(5, -1, np.intp)
    assert motion.push_bulk(history, np.arange(5), 1.0, poses, 1e9, out) == 4
    assert out.tolist() == codes
    assert history.count.tolist() == [1, 0, 0, 0, 1]
    assert history.hist[0, history.head[0], :4].tolist() == pytest.approx([1.0, 1.0, 2.0, yaw])
    # the zero-quaternion limit is a norm of 1e-6 (the docstring's), whichever component
    small = np.zeros((5, 7))
    small[0, 6] = 0.9e-6
    small[1:, 3:] = 1.1e-6 * np.eye(4)
    out = np.full(5, -1, np.intp)
    assert motion.push_bulk(PoseHistory.empty(5), np.arange(5), 3.0, small, 1e9, out) == 1
    assert out.tolist() == [motion.BULK_ZERO_QUATERNION] + [motion.BULK_ACCEPTED] * 4


@pytest.mark.parametrize('count', [12, HISTORY + 7])
def test_noisy_samples_get_numpys_least_squares_quadratic(count):
    """Samples off any quadratic (noise on a cubic): the twist and acceleration at the newest
    sample are those of numpy's least-squares quadratic in tau = t - t_newest with a free
    intercept (np.polyfit), in x, y and yaw, over the newest `HISTORY` samples (more than
    that wrap the ring)."""
    rng = np.random.default_rng(3)
    times = np.sort(rng.uniform(0.0, 0.3, count))
    path = np.column_stack([times ** 3, -2 * times ** 3 + times, 0.5 * times ** 3])
    path += rng.normal(0.0, 1e-3, path.shape)
    samples = [(t, *row) for t, row in zip(times, path)]
    _, _, twist, accel = fitted(samples, times[-1], window=1.0)
    kept = slice(-HISTORY, None)
    tau = times[kept] - times[-1]
    for c in range(3):
        half_a, v, _ = np.polyfit(tau, path[kept, c] - path[-1, c], 2)
        assert twist[c] == pytest.approx(v, rel=1e-9, abs=1e-12)
        assert accel[c] == pytest.approx(2.0 * half_a, rel=1e-9, abs=1e-12)


@given(st.lists(st.sampled_from(['alike', 'one more', 'one off', 'fewer', 'other', 'stale',
                                 'two', 'older']), min_size=2, max_size=12),
       st.integers(0, 2**32 - 1))
def test_bodies_stamped_alike_or_not_each_get_their_own_least_squares_fit(kinds, seed):
    """The fit's weights are made once for a run of bodies stamped alike: bodies in any order
    stamped as the one before, with one sample more or fewer, one stamp moved, as many
    samples stamped otherwise, stale, with two samples, or with their three oldest samples
    outside the window each get numpy's least-squares quadratic over their own window."""
    rng = np.random.default_rng(seed)
    n = len(kinds)
    history = PoseHistory.empty(n)
    base = np.sort(rng.uniform(0.0, 0.3, 10))
    windows = []
    for b, kind in enumerate(kinds):
        times = base.copy()
        if kind == 'one more':
            times = np.append(times, 0.31)
        elif kind == 'one off':
            times[rng.integers(10)] += 1e-4
        elif kind == 'fewer':
            times = times[3:]
        elif kind == 'other':
            times = np.sort(rng.uniform(0.0, 0.3, 10))
        elif kind == 'stale':
            times = times - 5.0
        elif kind == 'two':
            times = times[-2:]
        elif kind == 'older':
            times[:3] -= 2.0
        path = rng.normal(0.0, 1.0, (len(times), 3))
        for t, row in zip(np.sort(times), path):
            assert push_pose(history, b, t, *row)
        inside = np.sort(times) >= 0.0  # the window: 1 s before the newest, at most 0.31
        windows.append((np.sort(times)[inside], path[inside]))
    motion = Motion(*(np.full((n, 3), 7.0) for _ in range(3)))
    fresh = np.zeros(n, np.bool_)
    estimate_motion(history, 0.31, 1.0, 1.0, fresh, motion, POINT)
    for b, (times, path) in enumerate(windows):
        assert fresh[b] == (kinds[b] != 'stale')
        if not fresh[b]:
            assert (motion.twists[b] == 7.0).all()
            continue
        unwrapped = path.copy()
        unwrapped[:, 2] = path[0, 2] + np.cumsum(
            np.r_[0.0, [wrapped(d) for d in np.diff(path[:, 2])]])
        tau = times - times[-1]
        for c in range(3):
            d = unwrapped[:, c] - unwrapped[-1, c]
            half_a, v = (0.0, d[0] / tau[0]) if len(tau) == 2 else np.polyfit(tau, d, 2)[:2]
            assert motion.twists[b, c] - motion.accels[b, c] * (0.31 - times[-1]) == \
                pytest.approx(v, rel=1e-7, abs=1e-7)
            assert motion.accels[b, c] == pytest.approx(2.0 * half_a, rel=1e-7, abs=1e-7)


@pytest.mark.parametrize('measured', [False, True])
def test_a_robot_holding_its_twist_on_a_circle_is_estimated_with_it_under_arc(measured):
    """Poses (50 Hz, 0.4 s window) of a robot driving at 1 m/s while turning at 0.5 rad/s,
    with or without its odometry twist: under ARC the estimate is its world velocity and a
    tangential acceleration of zero (1e-6), where the world-axes quadratic of poses alone
    lags the turning centripetal acceleration by about 0.05 m/s^2 along the path (with the
    twists, the point model gets the centripetal one exactly)."""
    v, w = 1.0, 0.5
    history = PoseHistory.empty(2)
    for t in np.arange(-0.4, 1e-9, 0.02):
        yaw = 0.3 + w * t
        x = v / w * (math.sin(yaw) - math.sin(0.3))
        y = -v / w * (math.cos(yaw) - math.cos(0.3))
        assert push_pose(history, 1, t, x, y, yaw)
        if measured:
            assert push_twist(history, 1, v, 0.0, w)
    results = {}
    for model in (MotionModel.ARC, MotionModel.CONSTANT_ACCELERATION):
        motion = Motion(*(np.zeros((2, 3)) for _ in range(3)))
        models = np.full(2, int(model))
        known = (np.zeros(2, np.bool_), np.ones(2, np.bool_), np.ones(2, np.bool_), models)
        flags = tuple(np.zeros(2, np.bool_) for _ in range(4))
        tick_motion(history, 0.0, 0.4, 1.0, LIMITS, True, known, motion, flags)
        results[model] = motion
    arc = results[MotionModel.ARC]
    assert arc.twists[1] == pytest.approx([v * math.cos(0.3), v * math.sin(0.3), w], abs=1e-6)
    assert arc.accels[1, :2] == pytest.approx([0.0, 0.0], abs=1e-6)
    # the seed's model takes the world acceleration: centripetal, from poses lagging along
    # the path, from the twists exact
    point = results[MotionModel.CONSTANT_ACCELERATION]
    along = point.accels[1, 0] * math.cos(0.3) + point.accels[1, 1] * math.sin(0.3)
    if measured:
        assert point.accels[1, :2] == pytest.approx([-w * v * math.sin(0.3),
                                                     w * v * math.cos(0.3)], abs=1e-9)
    else:
        assert abs(along) > 0.01
