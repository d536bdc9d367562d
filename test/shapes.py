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
"""Polygon and polyhedron generators and slow, obviously correct references shared by the
tests (and by the benchmarks, which build their scenes with them)."""

from hypothesis import strategies as st
import numpy as np
from scipy.optimize import linprog, minimize
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation
import shapely
from shapely.geometry import Polygon

from collision_monitor import CollisionWorld
from collision_monitor.geometry3d import gjk_distance


def star_polygon(angles, radii, cx=0.0, cy=0.0, clockwise=False):
    """A simple polygon: vertices at sorted distinct angles around a centre (star-shaped)."""
    order = np.argsort(angles)
    a = np.asarray(angles, float)[order]
    r = np.asarray(radii, float)[order]
    poly = np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])
    return poly[::-1].copy() if clockwise else poly


SQUARE = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
pose = st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-np.pi, np.pi))
"""(x, y, yaw) of a rigid motion (`rigid`) of a polygon near the origin."""


@st.composite
def simple_polygons(draw, min_vertices=3, max_vertices=10, convex=None, scale=1.0):
    """Star-shaped simple polygons, either winding; ``convex=True`` gives convex ones."""
    n = draw(st.integers(min_vertices, max_vertices))
    gaps = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n)))
    angles = np.cumsum(gaps) / gaps.sum() * 2 * np.pi
    if convex:
        radii = np.ones(n)
    else:
        radii = np.array(draw(st.lists(st.floats(0.3, 1.0), min_size=n, max_size=n)))
    cx = draw(st.floats(-2, 2))
    cy = draw(st.floats(-2, 2))
    poly = star_polygon(angles, radii * scale, cx * scale, cy * scale,
                        clockwise=draw(st.booleans()))
    if convex:
        hull = shapely.convex_hull(shapely.multipoints(poly))
        if hull.geom_type != 'Polygon' or hull.area < 1e-6 * scale * scale:
            poly = star_polygon(np.linspace(0, 2 * np.pi, 4)[:-1], np.ones(3) * scale)
        else:
            poly = np.asarray(hull.exterior.coords)[:-1]
            if draw(st.booleans()):
                poly = poly[::-1].copy()
    return np.ascontiguousarray(poly, dtype=float)


def sharp_tip(angle):
    """A triangle with its tip (angle in degrees) at the origin, pointing along -x."""
    half = np.radians(angle) / 2
    return np.array([[0.0, 0.0], [2.0, -2.0 * np.tan(half)], [2.0, 2.0 * np.tan(half)]])


def to_shapely(poly):
    """The shapely polygon of an (n, 2) vertex array."""
    return Polygon(poly)


def rigid(poly, angle, tx, ty):
    """Rotate by `angle` about the origin, then translate."""
    c, s = np.cos(angle), np.sin(angle)
    return np.column_stack([c * poly[:, 0] - s * poly[:, 1] + tx,
                            s * poly[:, 0] + c * poly[:, 1] + ty])


# --- convex polyhedra -----------------------------------------------------------------------

def hull(points):
    """Vertices and outward CCW triangles of the convex hull of points (scipy's Qhull): the
    independent reference mesh builder of the tests, and the benchmarks' too."""
    h = ConvexHull(points)
    faces = []
    for simplex, eq in zip(h.simplices, h.equations):
        a, b, c = points[simplex]
        if np.cross(b - a, c - a) @ eq[:3] < 0:
            simplex = simplex[[0, 2, 1]]
        faces.append(simplex)
    used = np.unique(h.simplices)
    remap = -np.ones(len(points), int)
    remap[used] = np.arange(len(used))
    return np.ascontiguousarray(points[used]), remap[np.array(faces)]


def polyhedron_pairs(n_vertices, count, rng):
    """Random convex polyhedra pairs at random offsets (about a third in contact)."""
    out = []
    for _ in range(count):
        shapes = []
        for centre in (np.zeros(3), rng.uniform(-2.2, 2.2, 3)):
            p = rng.normal(size=(n_vertices, 3))
            p /= np.linalg.norm(p, axis=1)[:, None]
            shapes.append(hull(p + centre))
        out.append(shapes)
    return out


def resting_pairs(n_vertices, count, rng, depth=1e-3):
    """Pairs in shallow contact, as a simulation or a monitor sees them: b slid along a random
    direction to where it touches a (bisection on GJK), then pushed `depth` metres back in."""
    out = []
    for (va, fa), (vb, fb) in polyhedron_pairs(n_vertices, count, rng):
        vb = vb - vb.mean(axis=0)
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        out.append(((va, fa), (vb + (touching_shift(va, vb, d) - depth) * d, fb)))
    return out


def touching_shift(va, vb, d):
    """How far (m, to 1e-9, at most 4) hull vb, meeting va, moves along the unit vector d
    until they just touch (bisection on GJK)."""
    lo, hi = 0.0, 4.0
    while hi - lo > 1e-9:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if gjk_distance(va, vb + mid * d)[0] == 0.0 else (lo, mid)
    return lo


def box_corners(lo, hi):
    """The eight corners of the axis-aligned box [lo, hi]."""
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                     for z in (lo[2], hi[2])], float)


def point_sets_apart(p, q):
    """The largest max-norm distance from a point of either set, (n, 3) and (m, 3), to the
    nearest point of the other (the sets' Hausdorff distance in that norm)."""
    apart = np.abs(np.asarray(p)[:, None] - np.asarray(q)[None]).max(axis=2)
    return max(apart.min(axis=0).max(), apart.min(axis=1).max())


def boxes_apart_along_parallel_edges(rng, count):
    """`count` pairs of boxes 1 to 100 m long along x, their long edges at y = z = 0.5
    parallel and g = 0.1 nm to 0.1 mm apart along (0, 1, 1), the pair turned and moved at
    random: ``(length, g, turn, shift, a, b)`` each, a and b meshes (`hull`) of the placed
    boxes [-L/2, L/2] x [-0.5, 0.5]^2 and [-L/3, L/2 + 1] x [0.5 + s, 1.5 + s]^2, s =
    g / sqrt(2)."""
    for _ in range(count):
        length, g = 10 ** rng.uniform(0, 2), 10 ** rng.uniform(-10, -4)
        turn = Rotation.random(random_state=rng).as_matrix()
        shift = rng.uniform(-5, 5, 3)
        s = g / np.sqrt(2)
        a = box_corners((-length / 2, -0.5, -0.5), (length / 2, 0.5, 0.5))
        b = box_corners((-length / 3, 0.5 + s, 0.5 + s), (length / 2 + 1, 1.5 + s, 1.5 + s))
        yield length, g, turn, shift, hull(a @ turn.T + shift), hull(b @ turn.T + shift)


def boxes_tilted_over_slabs(rng, count):
    """`count` placements of a 0.6 m x 0.4 m x 0.5 m box over a slab [-L/2, L/2] x
    [-0.5, 0.5] x [-1, 0], L 1 to 100 m: the box turned by 1e-12 to 1e-3 rad about a
    horizontal axis, its lowest corner g = 0.1 nm to 10 um above the slab's top face, over
    the slab's middle (every other placement) or anywhere along it; the pair turned and
    moved at random (up to 5 km).  Yields ``(g, turn, shift, slab, box, bottom)``: slab and
    box the placed vertices, bottom the box's four bottom corners in the slab's frame."""
    for k in range(count):
        length, g = 10 ** rng.uniform(0, 2), 10 ** rng.uniform(-10, -5)
        axis = rng.normal(size=2)
        tilt = Rotation.from_rotvec(10 ** rng.uniform(-12, -3) * np.append(
            axis / np.linalg.norm(axis), 0.0)).as_matrix()
        box = box_corners((-0.3, -0.2, 0.0), (0.3, 0.2, 0.5)) @ tilt.T
        box[:, 2] += g - box[:, 2].min()
        box[:, 0] += 0.0 if k % 2 else rng.uniform(-length / 2 + 0.3, length / 2 - 0.3)
        turn = Rotation.random(random_state=rng).as_matrix()
        shift = rng.uniform(-5, 5, 3) * 10 ** rng.uniform(0, 3)
        slab = box_corners((-length / 2, -0.5, -1.0), (length / 2, 0.5, 0.0))
        yield g, turn, shift, slab @ turn.T + shift, box @ turn.T + shift, box[box[:, 2] < 0.25]


CUBE_V = box_corners((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
CUBE = hull(CUBE_V)  # the unit cube: (vertices, outward triangles)


ROOF = np.array([[0, -0.5, 0], [0, 0.5, 0], [1, -0.5, 0], [1, 0.5, 0], [0, 0, 1], [1, 0, 1]],
                float)  # a prism, its ridge from (0, 0, 1) to (1, 0, 1)


def wedge_over_ridge(lo, hi, gap, turn=0.0):
    """A flat upside-down wedge (vertices) whose lowest edge runs over `ROOF`'s ridge from
    x = lo to x = hi, `gap` above it, turned by `turn` rad about the vertical through the
    middle of the ridge's part under it; its sides rise 0.1 m over 0.5 m."""
    mid = (max(lo, 0.0) + min(hi, 1.0)) / 2
    d = np.array([np.cos(turn), np.sin(turn), 0.0])
    p, q = np.array([mid, 0.0, 1.0 + gap]) + np.outer([lo - mid, hi - mid], d)
    side = np.array([-d[1], d[0], 0.0]) * 0.5
    return np.vstack([p, q, p + side + [0, 0, 0.1], q + side + [0, 0, 0.1],
                      p - side + [0, 0, 0.11], q - side + [0, 0, 0.11]])


def check_contact_geometry(fc, a_at, b_at):
    """A `FirstContact`'s point is its vertex, on its edge, and its normal is the edge's
    unit normal pointing from a to b (out of a's edge, into b's), given the convex bodies'
    vertices a_at and b_at placed at its time."""
    own, other = (a_at, b_at) if fc.vertex_of == 'a' else (b_at, a_at)
    e0, e1 = other[fc.edge], other[(fc.edge + 1) % len(other)]
    np.testing.assert_allclose(fc.point, own[fc.vertex], atol=1e-6)
    assert shapely.LineString([e0, e1]).distance(shapely.Point(fc.point)) < 1e-6
    assert abs(np.linalg.norm(fc.normal) - 1.0) <= 1e-12
    assert abs(fc.normal @ (e1 - e0)) <= 1e-9 * np.linalg.norm(e1 - e0)
    outward = (fc.point - other.mean(axis=0)) @ fc.normal  # the mean is inside the body
    assert outward > 0.0 if fc.vertex_of == 'b' else outward < 0.0


def random_rotation(rng):
    """A uniformly random proper rotation (3, 3): QR of a normal matrix, signs fixed."""
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def random_convex(rng, n=12, scale=1.0, centre=(0, 0, 0)):
    """A random convex polyhedron (hull of n points at 0.5 to 1 of `scale` from `centre`)."""
    pts = rng.normal(size=(n, 3))
    pts = pts / np.linalg.norm(pts, axis=1)[:, None] * rng.uniform(0.5, 1.0, (n, 1))
    return hull(pts * scale + np.asarray(centre))


def common_point_constraints(va, vb):
    """(A_eq, b_eq) of sum la_i a_i = sum lb_j b_j with sum la = sum lb = 1, over the
    weights (la, lb) >= 0: a point of both hulls."""
    na, nb = len(va), len(vb)
    a_eq = np.zeros((5, na + nb))
    a_eq[:3, :na] = va.T
    a_eq[:3, na:] = -vb.T
    a_eq[3, :na] = 1
    a_eq[4, na:] = 1
    return a_eq, [0, 0, 0, 1, 1]


def lp_intersect(va, vb):
    """Do the hulls meet? Feasibility of `common_point_constraints`."""
    a_eq, b_eq = common_point_constraints(va, vb)
    res = linprog(np.zeros(len(va) + len(vb)), A_eq=a_eq, b_eq=b_eq, bounds=(0, None),
                  method='highs')
    return res.status == 0


def qp_closest(va, vb):
    """Distance of the hulls and their closest points, by minimising |sum la a - sum lb b|^2
    over the simplices of weights (SLSQP; points to about 1e-7 m)."""
    na, nb = len(va), len(vb)

    def f(x):
        d = x[:na] @ va - x[na:] @ vb
        return d @ d

    def grad(x):
        d = x[:na] @ va - x[na:] @ vb
        return np.concatenate([2 * va @ d, -2 * vb @ d])

    cons = [{'type': 'eq', 'fun': lambda x: x[:na].sum() - 1},
            {'type': 'eq', 'fun': lambda x: x[na:].sum() - 1}]
    x0 = np.concatenate([np.full(na, 1 / na), np.full(nb, 1 / nb)])
    res = minimize(f, x0, jac=grad, bounds=[(0, 1)] * (na + nb), constraints=cons,
                   method='SLSQP', options={'ftol': 1e-14, 'maxiter': 500})
    return np.sqrt(max(res.fun, 0.0)), res.x[:na] @ va, res.x[na:] @ vb


def qp_distance(va, vb):
    """Distance of the hulls (`qp_closest`)."""
    return qp_closest(va, vb)[0]


def l_extrusion():
    """An L-shaped prism: the 2D L of [0,2]x[0,1] + [0,1]x[1,2], extruded over z in [0, 1]."""
    ring = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], float)
    n = len(ring)
    v = np.vstack([np.column_stack([ring, np.zeros(n)]), np.column_stack([ring, np.ones(n)])])
    faces = [[0, 5, 3], [0, 3, 2], [0, 2, 1], [3, 5, 4],  # bottom (outward -z)
             [6, 8, 9], [6, 7, 8], [9, 11, 6], [9, 10, 11]]  # top (outward +z)
    for e in range(n):
        g = (e + 1) % n
        faces += [[e, g, n + g], [e, n + g, n + e]]
    return v, np.array(faces)


# --- scenes of the engine ---------------------------------------------------------------

RECT = np.array([[-0.5, -0.3], [0.5, -0.3], [0.5, 0.3], [-0.5, 0.3]])


ELL = np.array([[0, 0], [1, 0], [1, 0.3], [0.3, 0.3], [0.3, 1], [0, 1]]) - 0.4


UNIT = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def brute_force_pairs(aabb, active, movable):
    """All pairs of overlapping boxes, by comparing every pair (numpy, O(N^2))."""
    lo_x, lo_y, hi_x, hi_y = aabb.T
    ov = ((lo_x[:, None] <= hi_x[None, :]) & (lo_x[None, :] <= hi_x[:, None])
          & (lo_y[:, None] <= hi_y[None, :]) & (lo_y[None, :] <= hi_y[:, None]))
    ov &= active[:, None] & active[None, :]
    ov &= movable[:, None] | movable[None, :]
    i, j = np.nonzero(np.triu(ov, 1))
    return set(zip(i.tolist(), j.tolist()))


def random_scene(rng, n, spread, big=0):
    """Random mixed footprints (convex, concave, thin) and poses; `big` long walls."""
    shapes = []
    for k in range(n):
        kind = k % 4
        if kind == 0:
            shapes.append(RECT * rng.uniform(0.3, 2.0))
        elif kind == 1:
            shapes.append(ELL * rng.uniform(0.5, 2.0))
        elif kind == 2:
            m = rng.integers(3, 12)
            gaps = rng.uniform(0.2, 1.0, m)  # no angular gap over pi: the star stays simple
            ang = np.cumsum(gaps) / gaps.sum() * 2 * np.pi
            shapes.append(star_polygon(ang, rng.uniform(0.2, 1.0, m)))
        else:
            shapes.append(np.array([[-1.0, -0.01], [1.0, -0.01], [1.0, 0.01], [-1.0, 0.01]]))
    for _ in range(big):
        shapes.append(np.array([[-20.0, -0.2], [20.0, -0.2], [20.0, 0.2], [-20.0, 0.2]]))
    poses = np.column_stack([rng.uniform(0, spread, (len(shapes), 2)),
                             rng.uniform(-np.pi, np.pi, len(shapes))])
    return shapes, poses


def build(shapes, poses, static=()):
    world = CollisionWorld()
    for k, s in enumerate(shapes):
        world.add_body(f'b{k}', s, static=k in static)
    world.set_poses(poses)
    return world
