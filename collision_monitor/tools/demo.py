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
"""The main job: a warehouse scenario played through the real node over DDS.

Starts ``collision_monitor_node`` as a child process with ``config/demo_warehouse.yaml``,
publishes the scenario's poses in real time (an AMR on nav_msgs/Odometry, a forklift on
PoseStamped, a second AMR and a person from a tracker's PoseArray; a robot turning in place
beside a shelf, its turn commands through the gate; an AMR turning out of an aisle into a
cart's path), listens to the node's warnings, contacts and gated commands, prints a
timeline against the ground truth (dense sampling of the scripted motion with the engine's
own exact predicates) with the checks of the turning robots, and writes a picture.

Run: ``make demo`` (or ``python -m collision_monitor.tools.demo [--out PATH]``).
"""

import argparse
import math
import os
import pathlib
import shutil
import sys
import time

import numpy as np

from .launcher import confine_dds, start_node, stop_node
from ..kernels.geometry2d import polygons_intersect
from ..kernels.kinematics import vertex_kinematics
from ..monitor.config import parse_footprint

CONFIG = pathlib.Path(__file__).resolve().parents[2] / 'config' / 'demo_warehouse.yaml'
DURATION = 10.0  # s of scenario
READY_LIMIT_S = 900.0  # s the node may take to become active (a cold compile under load)
RATES = {'amr': 50.0, 'forklift': 30.0, 'tracker': 15.0, 'spinner': 50.0, 'amr3': 50.0,
         'cart': 30.0, 'command': 20.0}  # Hz
SPIN = 1.2     # rad/s: the spinner turns in place, 0.31 m short of shelf_d
ARC = (1.0, -0.5)  # amr3's twist (m/s, rad/s): a right turn of radius 2 m out of its aisle


def scenario(t):
    """Poses (x, y, yaw) and world velocities (vx, vy, omega) of the moving bodies at t (s)."""
    person_y = min(1.0 + 0.6 * t, 5.4)  # walks to the shelf and stops leaning on it
    person_v = 0.6 if 1.0 + 0.6 * t < 5.4 else 0.0
    v, w = ARC
    heading = math.pi / 2 + w * t
    return {
        'spinner': ((-5.0, 6.0, SPIN * t), (0.0, 0.0, SPIN)),
        'amr3': ((16.0 - 2.0 * math.cos(w * t), -7.0 - 2.0 * math.sin(w * t), heading),
                 (v * math.cos(heading), v * math.sin(heading), w)),
        'cart': ((17.8 - 0.3 * t, -5.0, math.pi), (-0.3, 0.0, 0.0)),
        'amr': ((5.0, -4.0 + t, math.pi / 2), (0.0, 1.0, 0.0)),
        'forklift': ((-2.0 + t + 0.125 * t * t, 0.0, 0.0), (1.0 + 0.25 * t, 0.0, 0.0)),
        'amr2': ((1.0 + 1.5 * t, 1.2, 0.0), (1.5, 0.0, 0.0)),
        'person': ((9.0, person_y, math.pi / 2), (0.0, person_v, 0.0)),
    }


STATIC = {'shelf_a': (1.0, 3.0, 0.0), 'shelf_b': (9.0, 6.0, 0.0), 'shelf_c': (1.0, -3.0, 0.0),
          'shelf_d': (-3.75, 6.0, 0.0)}


def load_footprints():
    """Footprints of the demo bodies, read from the demo's parameter file."""
    import yaml  # a dependency of the ROS wheels (ament/launch tooling)
    params = yaml.safe_load(CONFIG.read_text())['collision_monitor']['ros__parameters']
    return {b: parse_footprint(params[b]['footprint'], b) for b in params['bodies']}


def placed(footprint, pose):
    """World vertices of a footprint at pose (x, y, yaw)."""
    return vertex_kinematics(pose, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), footprint)[0]


def true_contact_times(footprints, step=0.002):
    """First time each pair touches in the scripted motion (sampling + bisection)."""
    names = list(footprints)

    def shapes(t):
        poses = {n: p for n, (p, _) in scenario(t).items()}
        poses.update(STATIC)
        return {n: placed(footprints[n], poses[n]) for n in names}

    first = {}
    prev = shapes(0.0)
    for t in np.arange(step, DURATION + step, step):
        cur = shapes(t)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if (a, b) in first or (a in STATIC and b in STATIC):
                    continue
                if polygons_intersect(cur[a], cur[b]):
                    lo, hi = t - step, t
                    for _ in range(40):
                        mid = 0.5 * (lo + hi)
                        sh = shapes(mid)
                        lo, hi = (lo, mid) if polygons_intersect(sh[a], sh[b]) else (mid, hi)
                    first[(a, b)] = hi
        prev = cur
    del prev
    return first


class _BagRecorder:
    """What the demo publishes, written to a rosbag2 bag (MCAP) at its publish times, so
    that ``collision_monitor_replay`` can play it again; nothing when rosbags is missing."""

    def __init__(self, path, streams):
        try:
            from rosbags.rosbag2 import StoragePlugin, Writer
            from rosbags.typesys import get_typestore, Stores
        except ImportError:
            self.writer = None
            return
        from rclpy.serialization import serialize_message
        shutil.rmtree(path, ignore_errors=True)
        self.path = path
        self.serialize = serialize_message
        self.writer = Writer(path, version=9, storage_plugin=StoragePlugin.MCAP)
        self.writer.open()
        store = get_typestore(Stores.ROS2_JAZZY)
        self.conns = {name: self.writer.add_connection(topic, msgtype, typestore=store)
                      for name, (topic, msgtype) in streams.items()}

    def write(self, stream, stamp_ns, msg):
        if self.writer is not None:
            self.writer.write(self.conns[stream], stamp_ns, self.serialize(msg))

    def close(self):
        if self.writer is not None:
            self.writer.close()
            print(f'bag of the inputs: {self.path} (collision_monitor_replay {self.path} '
                  f'--params-file {CONFIG} --output build/demo/replay)')


def run(out_path, domain_id):
    """Play the scenario through the node; return the recorded events.  The node is stopped
    however the scenario ends (a node left running would hold its domain)."""
    confine_dds(domain_id)
    log_path = out_path.with_suffix('.node.log')
    node_proc = start_node(CONFIG, domain_id, log_path=log_path)
    try:
        events = _play(node_proc, out_path, log_path)
    finally:
        code = stop_node(node_proc)
    if code != 0:
        print(f'warning: the node exited with code {code}; see {log_path}', file=sys.stderr)
    return events


def _play(node_proc, out_path, log_path):
    """The scenario against the running node: its publishers, the recording, the bag."""
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import Pose, PoseArray, PoseStamped, Twist
    from nav_msgs.msg import Odometry
    from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                           ReliabilityPolicy)

    rclpy.init()
    node = rclpy.create_node('warehouse_scenario')
    events = {'warnings': [], 'contacts': [], 'ready': False, 'commands': []}
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    node.create_subscription(DiagnosticArray, '/collision_monitor/state',
                             lambda m: events.__setitem__('ready', True), latched)
    t0 = [None]
    origin = [0.0]  # ROS time (s) of scenario time 0

    def record(kind):
        def callback(msg):
            if t0[0] is None:
                return
            now = time.monotonic() - t0[0]
            for st in msg.status:
                kv = {k.key: k.value for k in st.values}
                if 'began' in kv:
                    kv['began'] = str(float(kv['began']) - origin[0])
                events[kind].append((now, st.name, kv))
        return callback

    node.create_subscription(DiagnosticArray, '/collision_monitor/warnings', record('warnings'),
                             10)
    node.create_subscription(DiagnosticArray, '/collision_monitor/contacts', record('contacts'),
                             10)

    def gated(msg):
        if t0[0] is not None:
            events['commands'].append((time.monotonic() - t0[0], msg.angular.z))

    command_qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
    node.create_subscription(Twist, '/collision_monitor/cmd_vel_out', gated, command_qos)
    pubs = {
        'amr': node.create_publisher(Odometry, '/amr/odom', qos_profile_sensor_data),
        'forklift': node.create_publisher(PoseStamped, '/forklift/pose',
                                          qos_profile_sensor_data),
        'tracker': node.create_publisher(PoseArray, '/tracker/poses', qos_profile_sensor_data),
        'spinner': node.create_publisher(Odometry, '/spinner/odom', qos_profile_sensor_data),
        'amr3': node.create_publisher(Odometry, '/amr3/odom', qos_profile_sensor_data),
        'cart': node.create_publisher(PoseStamped, '/cart/pose', qos_profile_sensor_data),
        'command': node.create_publisher(Twist, '/collision_monitor/cmd_vel_in', command_qos),
    }
    bag = _BagRecorder(out_path.parent / 'warehouse_bag', {
        'amr': ('/amr/odom', 'nav_msgs/msg/Odometry'),
        'forklift': ('/forklift/pose', 'geometry_msgs/msg/PoseStamped'),
        'tracker': ('/tracker/poses', 'geometry_msgs/msg/PoseArray'),
        'spinner': ('/spinner/odom', 'nav_msgs/msg/Odometry'),
        'amr3': ('/amr3/odom', 'nav_msgs/msg/Odometry'),
        'cart': ('/cart/pose', 'geometry_msgs/msg/PoseStamped'),
        'command': ('/collision_monitor/cmd_vel_in', 'geometry_msgs/msg/Twist')})
    # a first run compiles every kernel (tens of seconds, minutes on a loaded machine)
    start = time.monotonic()
    said = start
    while not events['ready'] and time.monotonic() < start + READY_LIMIT_S:
        rclpy.spin_once(node, timeout_sec=0.1)
        if node_proc.poll() is not None:
            raise RuntimeError(f'the node exited early; see {log_path}')
        if time.monotonic() > said + 30.0:
            said = time.monotonic()
            print(f'waiting for the node to become active ({said - start:.0f} s; a first '
                  'run compiles the kernels) ...', flush=True)
    if not events['ready']:
        raise RuntimeError(f'the node did not become active within {READY_LIMIT_S:.0f} s; '
                           f'see {log_path}')
    print('node active; playing the scenario ...', flush=True)

    def fill_pose(p, pose):
        p.position.x, p.position.y = pose[0], pose[1]
        p.orientation.z, p.orientation.w = math.sin(pose[2] / 2), math.cos(pose[2] / 2)

    next_due = dict.fromkeys(RATES, 0.0)
    t0[0] = time.monotonic()
    wall0 = node.get_clock().now()
    origin[0] = wall0.nanoseconds * 1e-9
    while True:
        t = time.monotonic() - t0[0]
        if t > DURATION:
            break
        state = scenario(t)
        stamp = (wall0 + rclpy.duration.Duration(seconds=t)).to_msg()
        for stream, rate in RATES.items():
            if t < next_due[stream]:
                continue
            next_due[stream] += 1.0 / rate
            if stream in ('amr', 'spinner', 'amr3'):
                msg = Odometry()
                msg.header.stamp, msg.header.frame_id = stamp, 'map'
                msg.child_frame_id = f'{stream}/base_link'
                fill_pose(msg.pose.pose, state[stream][0])
                # the twist in the body frame: forward speed and turn rate
                msg.twist.twist.linear.x = math.hypot(*state[stream][1][:2])
                msg.twist.twist.angular.z = state[stream][1][2]
            elif stream in ('forklift', 'cart'):
                msg = PoseStamped()
                msg.header.stamp, msg.header.frame_id = stamp, 'map'
                fill_pose(msg.pose, state[stream][0])
            elif stream == 'command':
                msg = Twist()
                msg.angular.z = SPIN  # the spinner asked to go on turning in place
            else:
                msg = PoseArray()
                msg.header.stamp, msg.header.frame_id = stamp, 'map'
                for name in ('amr2', 'person'):
                    p = Pose()
                    fill_pose(p, state[name][0])
                    msg.poses.append(p)
            pubs[stream].publish(msg)
            bag.write(stream, node.get_clock().now().nanoseconds, msg)
        rclpy.spin_once(node, timeout_sec=0.002)
    end = time.monotonic() + 0.3
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.05)
    bag.close()
    node.destroy_node()
    rclpy.try_shutdown()
    return events


def timeline(events, truth):
    """Print, per pair, the first warning, the reported contact and the ground truth."""
    first_warn = {}
    for t, pair, kv in events['warnings']:
        first_warn.setdefault(pair, (t, float(kv['time_to_collision'])))
    first_contact = {}
    for t, pair, kv in events['contacts']:
        first_contact.setdefault(pair, (t, kv['classification'], float(kv['began'])))
    print('\ntimeline (seconds of scenario time)')
    print('warned at: first warning; TTC then: its time to collision; reported: first contact '
          'message;\nbegan: the contact start it reports (interpolated); truth: sampled from '
          'the script; lead: truth - warned at')
    print(f'{"pair":18s} {"warned at":>9s} {"TTC then":>9s} {"reported":>9s} {"began":>7s}'
          f' {"truth":>7s} {"lead":>6s}  kind')
    pairs = sorted(set(first_warn) | set(first_contact) | {f'{a}|{b}' for a, b in truth},
                   key=lambda p: min(first_warn.get(p, (99,))[0], first_contact.get(p, (99,))[0]))
    rows = []
    for pair in pairs:
        a, b = pair.split('|')
        true_t = truth.get((a, b), truth.get((b, a)))
        w = first_warn.get(pair)
        c = first_contact.get(pair)
        lead = (true_t - w[0]) if (w and true_t is not None) else float('nan')
        nan = float('nan')
        print(f'{pair:18s} {w[0] if w else nan:9.2f} {w[1] if w else nan:9.2f} '
              f'{c[0] if c else nan:9.2f} {c[2] if c else nan:7.3f} '
              f'{true_t if true_t is not None else nan:7.3f} {lead:6.2f}  '
              f'{c[1] if c else "-"}')
        rows.append((pair, w, c, true_t))
    return rows


def picture(events, footprints, out_path):
    """Scene, trajectories, footprints every second, predicted and actual contact points."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(11, 8))
    colors = {'amr': 'tab:blue', 'forklift': 'tab:orange', 'amr2': 'tab:green',
              'person': 'tab:purple', 'spinner': 'tab:brown', 'amr3': 'tab:cyan',
              'cart': 'tab:olive'}
    for name, pose in STATIC.items():
        poly = placed(footprints[name], pose)
        ax.fill(*poly.T, color='0.75', zorder=1)
        ax.text(pose[0], pose[1], name, ha='center', va='center', fontsize=8)
    ts = np.linspace(0, DURATION, 200)
    for name, color in colors.items():
        path = np.array([scenario(t)[name][0][:2] for t in ts])
        ax.plot(*path.T, '--', color=color, lw=1, zorder=2)
        for t in np.arange(0, DURATION + 1e-9, 1.0):
            poly = placed(footprints[name], scenario(t)[name][0])
            ax.fill(*poly.T, facecolor='none', edgecolor=color, lw=0.8, alpha=0.6, zorder=3)
        ax.plot([], [], color=color, label=name)
    pred = np.array([[float(v) for v in kv['point'].strip('[]').split(',')]
                     for _, _, kv in events['warnings'] if 'nan' not in kv['point']])
    if len(pred):
        ax.scatter(*pred.T, s=40, marker='x', color='black', zorder=7, linewidths=1.2,
                   label='predicted contact points (warnings)')
    pts = []
    for _, _, kv in events['contacts']:
        body = kv['contact_points'].strip('[]')
        for chunk in body.split('], ['):
            xy = chunk.strip('[] ').split(',')
            if len(xy) == 2:
                pts.append([float(xy[0]), float(xy[1])])
    if pts:
        ax.scatter(*np.array(pts).T, s=6, color='red', zorder=6, label='contact points')
    ax.set_aspect('equal')
    ax.set_xlabel('x (m)')
    ax.set_ylabel('y (m)')
    ax.set_title('collision_monitor demo: warehouse (footprints every 1 s)')
    ax.legend(loc='lower right', fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path, dpi=110)
    plt.close(fig)


def turning_checks(rows, commands):
    """The turning robots against the script: the spinner is never warned of and its turn
    commands pass the gate unchanged once it has poses; amr3 is warned of the cart at least
    1.5 s ahead, with a time to collision within 0.1 s of the truth.  Prints them; returns
    the failures."""
    failures = []
    by_pair = {pair: (w, true_t) for pair, w, _, true_t in rows}
    if by_pair.get('spinner|shelf_d', (None,))[0] is not None:
        failures.append('the spinner turning in place was warned of shelf_d')
    passed = [z for t, z in commands if t > 0.5]
    if not passed or any(z != SPIN for z in passed):
        failures.append(f'the gate changed the turn of the spinner: {sorted(set(passed))}')
    print(f'spinner: turning at {SPIN} rad/s 0.31 m short of shelf_d; {len(passed)} turn '
          f'commands gated after 0.5 s, {sum(z == SPIN for z in passed)} passed unchanged')
    w, truth = by_pair.get('amr3|cart', (None, None))
    if w is None or truth is None:
        failures.append('amr3 turning into the path of the cart was not warned of')
    else:
        error = w[0] + w[1] - truth
        print(f'amr3: warned {truth - w[0]:.2f} s before it meets the cart, the predicted '
              f'time {error:+.3f} s from the truth')
        if truth - w[0] < 1.5 or abs(error) > 0.1:
            failures.append(f'amr3 warned {truth - w[0]:.2f} s ahead, off by {error:+.3f} s')
    return failures


def main(argv=None):
    """Run the demo; exit non-zero when a true collision was not warned about in advance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--out', default='build/demo/warehouse.png', help='picture path')
    parser.add_argument('--domain-id', type=int, default=40 + os.getpid() % 50)
    args = parser.parse_args(argv)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    footprints = load_footprints()
    events = run(out, args.domain_id)
    truth = true_contact_times(footprints)
    rows = timeline(events, truth)
    picture(events, footprints, out)
    missed = [p for p, w, c, true_t in rows if true_t is not None and (w is None or c is None)]
    false = [p for p, w, c, true_t in rows if true_t is None]
    print()
    failures = turning_checks(rows, events['commands'])
    print(f'\npicture: {out}')
    print(f'{len(truth)} collisions in the scenario, {len(missed)} not warned or not reported,'
          f' {len(false)} pairs warned that never collide; {time.monotonic() - started:.1f} s')
    for failure in failures:
        print(f'FAILED: {failure}')
    return 1 if missed or false or failures else 0


if __name__ == '__main__':
    sys.exit(main())
