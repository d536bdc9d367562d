# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Rigid-body state to vertex kinematics, and the swept bounds of vertex paths.

A body at pose (x, y, phi) with twist (vx, vy, omega) and acceleration (ax, ay, alpha), all in
the world frame (m, m/s, m/s^2; rad, rad/s, rad/s^2, CCW positive), carries each vertex offset s
(body frame) at r = R(phi) s from its origin.  The vertex then has

* position  p + r
* velocity  v + omega x r                 = v + omega (-r_y, r_x)
* acceleration  a + alpha x r - omega^2 r

The time-of-collision predictors move every vertex as a point with these values held
constant (seed 000): p(t) = p + v t (+ 1/2 a t^2).  That is exact for translation and a
second-order approximation of rotation.
"""

import numpy as np

from .constants import FLOAT, jit
from .trig import sincos


@jit
def vertex_kinematics_kernel(poses, twists, accels, active, offsets, vstart, pos, vel, acc):
    """Fill (V, 2) world positions, velocities and accelerations of active bodies' vertices."""
    for b in range(poses.shape[0]):
        if not active[b]:
            continue
        s, c = sincos(poses[b, 2])
        w = twists[b, 2]
        al = accels[b, 2]
        for v in range(vstart[b], vstart[b + 1]):
            rx = c * offsets[v, 0] - s * offsets[v, 1]
            ry = s * offsets[v, 0] + c * offsets[v, 1]
            pos[v, 0] = poses[b, 0] + rx
            pos[v, 1] = poses[b, 1] + ry
            vel[v, 0] = twists[b, 0] - w * ry
            vel[v, 1] = twists[b, 1] + w * rx
            acc[v, 0] = accels[b, 0] - al * ry - w * w * rx
            acc[v, 1] = accels[b, 1] + al * rx - w * w * ry


@jit
def _path_extent(p, v, a, horizon):
    """Min and max over t in [0, horizon] of p + v t + a t^2 / 2 (one axis)."""
    end = p + v * horizon + 0.5 * a * horizon * horizon
    lo = min(p, end)
    hi = max(p, end)
    if a != 0.0:
        t = -v / a
        if 0.0 < t < horizon:
            mid = p + v * t + 0.5 * a * t * t
            lo = min(lo, mid)
            hi = max(hi, mid)
    return lo, hi


@jit
def swept_aabbs(pos, vel, acc, vstart, active, horizon, pad, out):
    """Boxes (N, 4) holding every vertex path of each active body over [0, horizon], padded.

    The vertex paths are the predictors' own model, so two bodies whose boxes are apart cannot
    have a vertex meet an edge within the horizon: the swept broad phase never drops a pair.
    """
    for b in range(vstart.shape[0] - 1):
        if not active[b]:
            continue
        xmin = np.inf
        ymin = np.inf
        xmax = -np.inf
        ymax = -np.inf
        for v in range(vstart[b], vstart[b + 1]):
            lo, hi = _path_extent(pos[v, 0], vel[v, 0], acc[v, 0], horizon)
            xmin = min(xmin, lo)
            xmax = max(xmax, hi)
            lo, hi = _path_extent(pos[v, 1], vel[v, 1], acc[v, 1], horizon)
            ymin = min(ymin, lo)
            ymax = max(ymax, hi)
        out[b, 0] = xmin - pad
        out[b, 1] = ymin - pad
        out[b, 2] = xmax + pad
        out[b, 3] = ymax + pad


def vertex_kinematics(pose, twist, acceleration, offsets):
    """World position, velocity and acceleration of each vertex of one rigid body.

    Parameters
    ----------
    pose : (3,) array_like
        (x, y, phi): metres, metres, radians.
    twist : (3,) array_like
        (vx, vy, omega) in the world frame: m/s, m/s, rad/s.
    acceleration : (3,) array_like
        (ax, ay, alpha) in the world frame: m/s^2, m/s^2, rad/s^2.
    offsets : (n, 2) array_like
        Vertex offsets in the body frame (the footprint), metres.

    Returns
    -------
    pos, vel, acc : (n, 2) float64 ndarrays
    """
    off = np.ascontiguousarray(offsets, dtype=FLOAT).reshape(-1, 2)
    n = off.shape[0]
    pos, vel, acc = (np.zeros((n, 2), FLOAT) for _ in range(3))
    vertex_kinematics_kernel(np.asarray(pose, FLOAT).reshape(1, 3),
                             np.asarray(twist, FLOAT).reshape(1, 3),
                             np.asarray(acceleration, FLOAT).reshape(1, 3),
                             np.ones(1, np.bool_), off, np.array([0, n], np.intp),
                             pos, vel, acc)
    return pos, vel, acc
