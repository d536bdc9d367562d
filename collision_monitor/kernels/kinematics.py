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
"""Rigid-body state to vertex kinematics, and the swept bounds of vertex paths.

A body at pose (x, y, phi) with twist (vx, vy, omega) and acceleration (ax, ay, alpha), all in
the world frame (m, m/s, m/s^2; rad, rad/s, rad/s^2, CCW positive), carries each vertex offset s
(body frame) at r = R(phi) s from its origin.  The vertex then has

* position  p + r
* velocity  v + omega x r                 = v + omega (-r_y, r_x)
* acceleration  a + alpha x r - omega^2 r

The seed's point models move every vertex as a point with these values held constant
([polygons]): p(t) = p + v t (+ 1/2 a t^2).  That is exact for translation and a
second-order approximation of rotation; the rigid models (`rigid`) turn the footprint
exactly.  For a body that does not turn the two agree.
"""

import numba
import numpy as np

from .constants import FLOAT, jit, jit_parallel, MotionModel
from .geometry2d.primitives import box_padding
from .packed import Motion
from .rigid import (arc_step, is_rigid, origin_box, place_rigid, quadratic_extent,
                    rigid_state)
from .trig import rotate, sincos


@jit
def _body_state(b, motion, model):
    """Body b's motion as scalars, read once for all its vertices: ``(sin yaw, cos yaw, x, y,
    vx, vy, omega, ax, ay, alpha, omega^2)``, the last four zero under the constant-velocity
    model (its vertices do not accelerate)."""
    poses, twists, accels = motion
    s, c = sincos(poses[b, 2])
    w = twists[b, 2]
    ax = ay = al = wsq = 0.0
    if model != MotionModel.CONSTANT_VELOCITY:
        ax, ay, al, wsq = accels[b, 0], accels[b, 1], accels[b, 2], w * w
    return s, c, poses[b, 0], poses[b, 1], twists[b, 0], twists[b, 1], w, ax, ay, al, wsq


@jit
def _vertex_state(body, ox, oy):
    """Position, velocity and acceleration (x, y each) of the vertex at body-frame offset
    (ox, oy) of a body in state `body` (`_body_state`)."""
    s, c, px, py, vx, vy, w, ax, ay, al, wsq = body
    rx, ry = rotate(s, c, ox, oy)
    return (px + rx, py + ry, vx - w * ry, vy + w * rx,
            ax - al * ry - wsq * rx, ay + al * rx - wsq * ry)


@jit
def body_kinematics(b, motion, offsets, vstart, model, kin, row):
    """Write the vertex kinematics of body b (`packed.Motion` state, packed vertex offsets) to
    rows ``row, row + 1, ...`` of ``kin = (pos, vel, acc)``, (M, 2) each."""
    pos, vel, acc = kin
    body = _body_state(b, motion, model)
    for v in range(vstart[b], vstart[b + 1]):
        k = row + v - vstart[b]
        (pos[k, 0], pos[k, 1], vel[k, 0], vel[k, 1], acc[k, 0],
         acc[k, 1]) = _vertex_state(body, offsets[v, 0], offsets[v, 1])


@jit
def turns(b, motion, model):
    """Whether body b turns under the model: omega != 0, or alpha != 0 under any model but
    constant velocity.  One that does not only translates: every vertex has its origin's
    velocity and acceleration."""
    _, twists, accels = motion
    return twists[b, 2] != 0.0 or (model != MotionModel.CONSTANT_VELOCITY
                                   and accels[b, 2] != 0.0)


@jit
def held_acceleration(b, motion, model, axis):
    """Body b's origin acceleration along `axis` under the model (0 under constant
    velocity)."""
    return 0.0 if model == MotionModel.CONSTANT_VELOCITY else motion[2][b, axis]


@jit
def move_as_one(i, j, motion, models):
    """Whether bodies i and j keep their relative placement under their models (``models``
    (N,), a `MotionModel` value per body): neither turns and both translate alike (equal
    velocities and held accelerations).  Then every vertex of one has the same path
    relative to the other as at t = 0 (two bodies at rest, a robot and the cart it pushes),
    so a pair apart now stays apart."""
    _, twists, _ = motion
    mi, mj = models[i], models[j]
    if (turns(i, motion, mi) or turns(j, motion, mj) or twists[i, 0] != twists[j, 0]
            or twists[i, 1] != twists[j, 1]):
        return False
    return (held_acceleration(i, motion, mi, 0) == held_acceleration(j, motion, mj, 0)
            and held_acceleration(i, motion, mi, 1) == held_acceleration(j, motion, mj, 1))


@jit
def vertices_ahead(which, times, motion, offsets, vstart, models, out):
    """Vertices of body ``which[k]`` ``times[k]`` seconds ahead under its model, written to
    consecutive rows of `out` (body after body): placed rigidly under ARC and HOLONOMIC
    (`rigid`), each vertex moving as a point with the velocity and acceleration of
    `_vertex_state` (``p + (v + a t / 2) t``) under the point models."""
    row = 0
    for k in range(which.shape[0]):
        b = which[k]
        t = times[k]
        model = models[b]
        count = vstart[b + 1] - vstart[b]
        if is_rigid(model):
            st = rigid_state(b, motion, model)
            cx, cy = arc_step(st, 0.0, st[0], st[1], t)
            place_rigid(st, offsets, vstart[b], count, t, cx, cy, out[row:row + count])
            row += count
            continue
        body = _body_state(b, motion, model)
        for v in range(vstart[b], vstart[b + 1]):
            px, py, vx, vy, ax, ay = _vertex_state(body, offsets[v, 0], offsets[v, 1])
            out[row, 0] = px + (vx + 0.5 * ax * t) * t
            out[row, 1] = py + (vy + 0.5 * ay * t) * t
            row += 1


@jit
def reach(b, twists, accels, radius, model, horizon):
    """Coefficients (r0, r1, r2) of the radius ``r0 + r1 t + r2 t^2`` about body b's origin
    that holds each vertex's model path for t in [0, H], H the horizon.

    A vertex at r = R s (|r| <= rho, the bounding radius) follows ``c(t) + lambda(t) r``
    (complex product) with c(t) the origin's path and ``lambda(t) = 1 + i w t`` under constant
    velocity, ``1 + i w t + (i alpha - w^2) t^2 / 2`` under constant acceleration: it stays
    within ``rho |lambda(t)|`` of c(t), and ``rho (1 + k t^m)`` bounds that where
    ``(1 + k t^m)^2 >= |lambda(t)|^2``.

    * constant velocity (m = 1): ``|lambda|^2 = 1 + w^2 t^2``, and the condition reads
      ``2 k >= (w^2 - k^2) t``.  ``k = w^2 H / 2`` meets it for t <= H, as does ``k = |w|``
      for every t; the less is taken.
    * constant acceleration (m = 2): ``|lambda|^2 = 1 + w alpha t^3 + Q t^4`` with
      ``Q = (w^4 + alpha^2) / 4``, and the condition reads
      ``h(t) = (Q - k^2) t^2 + w alpha t - 2 k <= 0``.  For ``k = (w alpha + Q H) H / 2``
      (half of ``|lambda(H)|^2 - 1`` over H^2), substituting w alpha = 2 k / H - Q H gives
      ``h = Q t (t - H) + 2 k (t / H - 1) - k^2 t^2 <= 0`` for t in [0, H]; when that k is
      negative, k = 0 leaves ``h = t (Q t + w alpha) <= 0`` there.  ``k = (w^2 + |alpha|) / 2``
      holds for every t (``|lambda|^2`` falls short of ``(1 + k t^2)^2`` by
      ``t^2 (w^2 + |alpha| - w alpha t + w^2 |alpha| t^2 / 2)``, a quadratic with a negative
      discriminant); the less is taken.

    Both horizon terms are half of ``q = |lambda(H)|^2 - 1`` where |lambda(H)| - 1 is
    ``sqrt(1 + q) - 1``: wider by about q^2 / 8 at H (1.25e-3 rho at q = 0.1), and no square
    root or division for a reach that every body needs every tick.
    """
    w = twists[b, 2]
    h = horizon
    if model == MotionModel.CONSTANT_VELOCITY:
        return radius[b], radius[b] * min(0.5 * w * w * h, abs(w)), 0.0
    alpha = accels[b, 2]
    k = max(0.5 * (w * alpha + 0.25 * (w * w * w * w + alpha * alpha) * h) * h, 0.0)
    return radius[b], 0.0, radius[b] * min(k, 0.5 * (w * w + abs(alpha)))


@jit_parallel
def swept_boxes(motion, active, radius, aabb, models, horizon, swept):
    """Per active body, a box (N, 4) holding every one of its vertex paths over [0, horizon]
    under its model (``models`` (N,)): a ``prange`` over bodies.

    A body that does not turn (`turns`) translates: every vertex follows its origin's path,
    offset by a constant, and its current box `aabb` (`narrowphase.place_bodies`) swept
    along that path holds them all.  That is the tighter box for a long body.  A body at
    rest (twist zero, and held acceleration zero: a shelf, a parked cart) keeps its current
    box as it is.  A turning body's vertices stay within its bounding radius of its
    origin's path: the extent of that path (point models: widened by their `reach`;
    HOLONOMIC: the origin's polynomial; ARC: `rigid.origin_box`) widened by the radius.

    The boxes hold the predictors' own paths, so two bodies whose boxes are apart cannot
    have a vertex meet an edge within the horizon: the swept broad phase never drops a pair.
    Each box is widened by `box_padding` as the current boxes are, so pairs touching within
    the tolerance are kept too.
    """
    poses, twists, accels = motion
    for b in numba.prange(poses.shape[0]):
        if not active[b]:
            continue
        model = models[b]
        ax = held_acceleration(b, motion, model, 0)
        ay = held_acceleration(b, motion, model, 1)
        turning = turns(b, motion, model)
        if twists[b, 0] == 0.0 and twists[b, 1] == 0.0 and ax == 0.0 and ay == 0.0 and not turning:
            for k in range(4):
                swept[b, k] = aabb[b, k]
            continue
        x, y = poses[b, 0], poses[b, 1]
        if turning and model == MotionModel.ARC:
            xlo, ylo, xhi, yhi = origin_box(rigid_state(b, motion, model), horizon)
        else:
            xlo, xhi = quadratic_extent(x, twists[b, 0], ax, horizon)
            ylo, yhi = quadratic_extent(y, twists[b, 1], ay, horizon)
        if not turning:
            xlo += aabb[b, 0] - x
            ylo += aabb[b, 1] - y
            xhi += aabb[b, 2] - x
            yhi += aabb[b, 3] - y
        else:
            r = radius[b]
            if not is_rigid(model):
                r0, r1, r2 = reach(b, twists, accels, radius, model, horizon)
                r = r0 + (r1 + r2 * horizon) * horizon
            xlo -= r
            ylo -= r
            xhi += r
            yhi += r
        pad = box_padding(xlo, ylo, xhi, yhi)
        swept[b, 0] = xlo - pad
        swept[b, 1] = ylo - pad
        swept[b, 2] = xhi + pad
        swept[b, 3] = yhi + pad


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
    motion = Motion(*(np.asarray(x, FLOAT).reshape(1, 3) for x in (pose, twist, acceleration)))
    body_kinematics(0, motion, off, np.array([0, n], np.intp),
                    int(MotionModel.CONSTANT_ACCELERATION), (pos, vel, acc), 0)
    return pos, vel, acc
