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
"""The ROS 2 node: poses and footprints in; contacts, warnings, markers and state out.

A lifecycle node (configure, activate, deactivate, cleanup, shutdown); with ``autostart``
(default) it configures and activates itself once spinning.  Configuring validates every
parameter, builds the `Monitor`, compiles the kernels (warm-up) and creates the topics;
activating starts the tick and diagnostics timers.  Callbacks only convert messages and call
the monitor.
"""

from collections import Counter, deque
import gc
import math
import signal
import sys
import threading
import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import (PolygonStamped, PoseArray, PoseStamped, PoseWithCovarianceStamped,
                               Twist, TwistStamped)
from nav_msgs.msg import Odometry
import numpy as np
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
import rclpy
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.lifecycle import LifecycleNode, TransitionCallbackReturn
from rclpy.qos import (DurabilityPolicy, HistoryPolicy, qos_profile_sensor_data, QoSProfile,
                       ReliabilityPolicy)
from rclpy.signals import SignalHandlerOptions
from rclpy.time import Time
from std_msgs.msg import Header
from std_srvs.srv import SetBool
from visualization_msgs.msg import MarkerArray

from .cdr import warmup as cdr_warmup
from .frames import Frames
from .messages import (number_text, OUTPUT_TOPICS, OutputWriter, polygon_from_cdr,
                       pose_array_from_cdr, POSE_INPUTS, TimeBase)
from ..monitor.config import (body_names, BODY_PARAMETERS, build_config, check_runtime,
                              GLOBAL_PARAMETERS, QUIET_PERIODS, REBUILT, RUNTIME_PARAMETERS,
                              runtime_update, source_names, SOURCE_PARAMETERS, waiting_for)
from ..monitor.monitor import BAD_BULK, BAD_FOOTPRINT, Monitor, warmup, WRONG_FRAME

# QoS by role (REP 2003): sensor-like inputs best effort; outputs reliable (`_qos` of
# `messages.OUTPUT_TOPICS`, /diagnostics as OUTPUT_QOS); footprints and the state are latched
# for late joiners.
POSE_QOS = qos_profile_sensor_data
OUTPUT_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                        history=HistoryPolicy.KEEP_LAST)
LATCHED_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL,
                         history=HistoryPolicy.KEEP_LAST)
COMMAND_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         history=HistoryPolicy.KEEP_LAST)
# footprints by `footprint_durability`: a volatile subscription connects to volatile and
# transient-local publishers alike; a transient-local one only to the latter, and gets their
# last footprint
FOOTPRINT_QOS = {
    'volatile': QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST),
    'transient_local': LATCHED_QOS,
}

RUNTIME = tuple(p.name for p in RUNTIME_PARAMETERS)
POSE_MESSAGES = {'geometry_msgs/PoseStamped': PoseStamped,
                 'geometry_msgs/PoseWithCovarianceStamped': PoseWithCovarianceStamped,
                 'nav_msgs/Odometry': Odometry}
"""The message class of each `<body>.pose_type` (`messages.POSE_INPUTS` reads them)."""
REFUSAL_SUMMARY_PERIOD = 10.0
"""Seconds between the log lines that count the inputs refused since the last one (each
body's and reason's first refusal is logged at once)."""


def _descriptor(param):
    """The descriptor of a table parameter: its description with type and range, read-only
    unless run-time.  Dynamically typed, so that no value a user gives makes rclpy raise
    while declaring: `monitor.config` checks every value and names what is wrong (and takes
    an integer where a double is expected, as a YAML file writes ``horizon: 2``)."""
    return ParameterDescriptor(
        description=f'{param.description} ({param.type_name}; {param.allowed})',
        read_only=param.read_only, dynamic_typing=True)


class CollisionMonitorNode(LifecycleNode):
    """Collision monitor lifecycle node (see the package README for topics and parameters)."""

    def __init__(self, **kwargs):
        super().__init__('collision_monitor', **kwargs)
        for p in GLOBAL_PARAMETERS:
            self.declare_parameter(p.name, p.default, _descriptor(p))
        self.monitor = None
        self.failed = False
        self._entities = []
        self._timers = []
        self._tick_times = deque(maxlen=1000)
        self._last_tick = -math.inf
        self._overruns = 0
        self._ticks = 0
        self._body_state = {}    # (input, name) -> why its last one was refused, or None
        self._logged = set()     # (input, name, reason) refusals logged in full
        self._recovered = set()  # (input, name) whose "accepted again" was logged
        self._summarized = Counter()  # the monitor's refusal counts at the last summary
        self._summary_time = -math.inf
        self._cmd_time = -math.inf
        self._cmd_stale = True
        self._stamped = False
        self._frames = Frames(None, '', 0)  # tf2 comes with the configuration
        self._tf_bodies = []
        self._tf_stamps = {}
        self._inputs = []
        self._command_input = None
        self._rebuilding = False
        self._refuse_invalid_transitions()
        self.add_on_set_parameters_callback(self._validate_parameters)
        self.add_post_set_parameters_callback(self._apply_parameters)
        if self.get_parameter('autostart').value:
            self._autostart = self.create_timer(0.0, self._start)

    # lifecycle -----------------------------------------------------------------------------
    def _refuse_invalid_transitions(self):
        """Answer a ~/change_state request for a transition the current state does not have
        (activate while active) with success false, as rclcpp does: rclpy's service
        callback lets the state machine's error out, and the node died of one
        `ros2 lifecycle set`.  (rclpy has no public handle on that service.)"""
        service = self._service_change_state
        change_state = service.callback

        def callback(request, response):
            try:
                return change_state(request, response)
            except Exception as err:  # rclpy's RCLError: "Transition is not registered"
                self.get_logger().warn(
                    f'lifecycle transition {request.transition.id} '
                    f'{request.transition.label!r} refused: {err}')
                response.success = False
                return response
        service.callback = callback

    def _start(self):
        self.destroy_timer(self._autostart)
        if self.trigger_configure() == TransitionCallbackReturn.SUCCESS:
            self.trigger_activate()
        else:
            self.failed = True  # main() exits non-zero: a launch file sees the node die

    def on_configure(self, state):
        """Validate parameters, build the monitor, compile kernels, create topics."""
        try:
            config = self._read_config()
        except (ValueError, ParameterException) as err:
            self.get_logger().error(f'invalid parameter {err}')
            return TransitionCallbackReturn.FAILURE
        self._warn_unknown_parameters(config)
        self._frames = Frames.for_node(self, config.frame_id, config.transform_tolerance,
                                       lambda ns: Time(nanoseconds=ns))
        self._tf_bodies = [(k, b.tf_frame) for k, b in enumerate(config.bodies) if b.tf_frame]
        if self._tf_bodies and not self._frames.available:
            name = config.bodies[self._tf_bodies[0][0]].name
            self.get_logger().error(f'invalid parameter {name}.tf_frame: tracking a body from '
                                    f'tf needs tf2_ros, which is not installed')
            return TransitionCallbackReturn.FAILURE
        if not self._frames.available:
            self.get_logger().info(f'tf2_ros is not installed: poses must be in frame '
                                   f'{config.frame_id!r}, others are refused')
        started = time.perf_counter()
        self._time = TimeBase(self.get_clock().now().nanoseconds)
        try:
            self.monitor = Monitor(config)
        except ValueError as err:
            self.get_logger().error(f'invalid parameter {err}')
            return TransitionCallbackReturn.FAILURE
        self._out = OutputWriter(self._time)
        warmup()
        cdr_warmup()
        self.get_logger().info(
            f'{len(config.bodies)} bodies, kernels ready in '
            f'{time.perf_counter() - started:.2f} s')
        self._create_interfaces(config)
        # Everything alive now (modules, compiled kernels, the monitor) lives as long as
        # the configuration: frozen, out of the collector's sight, so that a full collection
        # scans only what ticks create (microseconds; with these, 65 ms at 1,000 bodies).
        gc.collect()
        gc.freeze()
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state):
        """Start ticking."""
        period = 1.0 / self.monitor.config.tick_rate
        self._timers = [self.create_timer(period, self._on_timer),
                        self.create_timer(1.0, self._publish_health)]
        result = super().on_activate(state)
        self.get_logger().info(f'active: ticking at {self.monitor.config.tick_rate:g} Hz')
        return result

    def on_deactivate(self, state):
        """Stop ticking; the gate's output goes to zero first."""
        self._stop_command()
        self._stop_timers()
        return super().on_deactivate(state)

    def _stop_timers(self):
        for t in self._timers:
            self.destroy_timer(t)
        self._timers = []

    def on_cleanup(self, state):
        """Drop the topics and the monitor."""
        self._destroy_interfaces()
        self.monitor = None
        gc.unfreeze()  # the dropped monitor's cycles can be collected again
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state):
        """Zero the gate's output while the context is still valid, then stop ticking and
        drop the topics (from any state: active too)."""
        self._stop_command()
        self._stop_timers()
        self._destroy_interfaces()
        return TransitionCallbackReturn.SUCCESS

    # parameters ----------------------------------------------------------------------------
    def _read_config(self):
        """The configuration of the parameters, declaring each body's and source's; while
        running, a body added may still wait for its parameters (`_waiting`)."""
        values = {p.name: self._value(p.name) for p in GLOBAL_PARAMETERS}
        body_values = {n: self._declare_group(n, BODY_PARAMETERS)
                       for n in body_names(values['bodies'])}
        source_values = {s: self._declare_group(s, SOURCE_PARAMETERS)
                         for s in source_names(values['sources'])}
        return build_config(values, body_values, source_values, self._waiting(body_values))

    def _waiting(self, names):
        """Which of `names` may lack a footprint and a pose source: none at start; while
        running, those added since configuring and those still waiting."""
        if self.monitor is None:
            return ()
        bodies = {b.name: b for b in self.monitor.config.bodies}
        return [n for n in names if n not in bodies or waiting_for(bodies[n])]

    def _value(self, name):
        """A declared parameter's value; None for one without a type (an empty YAML list)."""
        return self.get_parameter_or(name).value

    def _declare_group(self, prefix, params):
        out = {}
        for p in params:
            name = f'{prefix}.{p.name}'
            if not self.has_parameter(name):
                self.declare_parameter(name, p.default, _descriptor(p))
            out[p.name] = self._value(name)
        return out

    def _given_parameters(self):
        """The parameters given to this node (files, ``-p``, launch), declared or not: name
        -> `rclpy.parameter.Parameter`.

        rclpy (Jazzy) keeps them in `Node._parameter_overrides` and has no public accessor.
        Its public route, ``automatically_declare_parameters_from_overrides``, fails while
        constructing the node on any empty YAML list (``ignore_pairs: []``: "Cannot declare
        a statically typed parameter with default value of type PARAMETER_NOT_SET"), and
        reading the process's ROS arguments here would repeat rcl's parsing of them; so this
        is the one place that reads the private mapping."""
        return self._parameter_overrides

    def _warn_unknown_parameters(self, config):
        """Warn, by name, of every parameter given to this node that it does not read (a
        typo such as pose_topik would otherwise be ignored without a word)."""
        known = {p.name for p in GLOBAL_PARAMETERS} | {'use_sim_time'}
        for group, params in ((config.bodies, BODY_PARAMETERS),
                              (config.sources, SOURCE_PARAMETERS)):
            known |= {f'{g.name}.{p.name}' for g in group for p in params}
        for name in sorted(set(self._given_parameters()) - known):
            if not name.startswith(('qos_overrides.', 'start_type_description_service')):
                self.get_logger().warn(f'unknown parameter {name!r} is ignored')

    def _validate_parameters(self, params):
        """Refuse a run-time change that `monitor.config` refuses, with its reason (what
        ``ros2 param set`` prints).  A change of the body set (bodies, sources, a body's or a
        source's parameter) is checked as the whole configuration it makes, so that the node
        never holds a parameter its monitor does not run with."""
        try:
            for p in params:
                if p.name == 'bodies':
                    body_names(p.value)
                elif p.name == 'sources':
                    source_names(p.value)
            if self.monitor is not None and not self._rebuilding and any(
                    _changes_body_set(p.name) for p in params):
                self._check_body_set({p.name: p.value for p in params})
        except ValueError as err:
            return SetParametersResult(successful=False, reason=str(err))
        changes = {p.name: p.value for p in params if p.name in RUNTIME}
        if not changes:
            return SetParametersResult(successful=True)
        try:
            if self.monitor is not None:
                runtime_update(self.monitor.config, changes)
            else:
                check_runtime(changes)
        except ValueError as err:
            return SetParametersResult(successful=False, reason=str(err))
        return SetParametersResult(successful=True)

    def _check_body_set(self, changes):
        """Raise ValueError naming what is wrong with the configuration that the current
        parameters with `changes` (name -> value) would give; nothing is declared."""
        given = self._given_parameters()

        def value(name, default):
            if name in changes:
                return changes[name]
            if self.has_parameter(name):
                return self._value(name)
            return given[name].value if name in given else default

        values = {p.name: value(p.name, p.default) for p in GLOBAL_PARAMETERS}
        body_values = {n: {p.name: value(f'{n}.{p.name}', p.default) for p in BODY_PARAMETERS}
                       for n in body_names(values['bodies'])}
        source_values = {n: {p.name: value(f'{n}.{p.name}', p.default)
                             for p in SOURCE_PARAMETERS}
                         for n in source_names(values['sources'])}
        config = build_config(values, body_values, source_values, self._waiting(body_values))
        tf_body = next((b.name for b in config.bodies if b.tf_frame), None)
        if tf_body is not None and not self._frames.available:
            raise ValueError(f'{tf_body}.tf_frame: tracking a body from tf needs tf2_ros, '
                             f'which is not installed')

    def _apply_parameters(self, params):
        if self.monitor is None or self._rebuilding:
            return
        changes = {p.name: p.value for p in params if p.name in RUNTIME}
        if changes:
            self.monitor.apply_runtime(runtime_update(self.monitor.config, changes))
            self.get_logger().info(f'parameters changed: {sorted(changes)}')
        if any(_changes_body_set(p.name) for p in params):
            self._rebuild()

    def _rebuild(self):
        """Bodies or sources changed while running: a monitor for the new set (declaring the
        new bodies' parameters), carrying each body's state by name, and subscriptions for
        its topics.  `_validate_parameters` accepted the change only after checking the
        configuration it makes (`_check_body_set`)."""
        self._rebuilding = True  # declaring the new parameters calls back here
        try:
            config = self._read_config()
        except (ValueError, ParameterException) as err:
            self.get_logger().error(f'body set not changed: invalid parameter {err}')
            return
        finally:
            self._rebuilding = False
        self.monitor = self.monitor.rebuilt(config)
        self._subscribe_inputs(config)
        self.get_logger().info(f'{len(config.bodies)} bodies: {", ".join(self.monitor.names)}')
        for body in config.bodies:
            lacks = waiting_for(body)
            if lacks:
                self.get_logger().warn(f'body {body.name!r} is inactive until it has {lacks} '
                                       f'(its parameters {body.name}.*)')

    # interfaces ----------------------------------------------------------------------------
    def _create_interfaces(self, config):
        pub = self.create_lifecycle_publisher
        self._pub_contacts, self._pub_warnings, self._pub_markers, self._pub_state = (
            pub(kind, f'~/{name}', _qos(OUTPUT_TOPICS[name]))
            for name, kind in (('contacts', DiagnosticArray), ('warnings', DiagnosticArray),
                               ('markers', MarkerArray), ('state', DiagnosticArray)))
        self._pub_health = pub(DiagnosticArray, '/diagnostics', OUTPUT_QOS)
        self._pub_cmd = None
        self._stamped = config.enable_stamped_cmd_vel
        if config.gate.enabled:
            kind = TwistStamped if self._stamped else Twist
            self._pub_cmd = pub(kind, '~/cmd_vel_out', COMMAND_QOS)
            self._command_input = self.create_subscription(kind, '~/cmd_vel_in',
                                                           self._on_command, COMMAND_QOS)
        self._subscribe_inputs(config)
        self._service = self.create_service(SetBool, '~/enable', self._on_enable)

    def _subscribe_inputs(self, config):
        """Subscribe to the pose, footprint and bulk topics of `config`'s bodies (again after
        a change of the body set, the old subscriptions dropped first)."""
        for sub in self._inputs:
            self.destroy_subscription(sub)
        subs = []
        for k, body in enumerate(config.bodies):
            if body.pose_topic:
                reader = POSE_INPUTS[body.pose_type]
                subs.append(self.create_subscription(
                    POSE_MESSAGES[body.pose_type], body.pose_topic,
                    self._pose_callback(k, reader), POSE_QOS))
            if body.footprint_topic:
                subs.append(self.create_subscription(
                    PolygonStamped, body.footprint_topic, self._footprint_callback(k),
                    FOOTPRINT_QOS[config.footprint_durability], raw=True))
        for source in config.sources:
            subs.append(self.create_subscription(
                PoseArray, source.topic, self._bulk_callback(source.name), POSE_QOS, raw=True))
        self._inputs = subs
        self._tf_bodies = [(k, b.tf_frame) for k, b in enumerate(config.bodies) if b.tf_frame]
        self._tf_stamps = {}

    def _destroy_interfaces(self):
        for sub in [*self._inputs, *filter(None, [self._command_input])]:
            self.destroy_subscription(sub)
        self._inputs = []
        self._command_input = None
        for name in ('_pub_contacts', '_pub_warnings', '_pub_markers', '_pub_state',
                     '_pub_health', '_pub_cmd'):
            p = getattr(self, name, None)
            if p is not None:
                self.destroy_lifecycle_publisher(p)
            setattr(self, name, None)
        if getattr(self, '_service', None) is not None:
            self.destroy_service(self._service)
            self._service = None

    # callbacks -----------------------------------------------------------------------------
    def _now(self):
        """The node's clock in seconds from its `TimeBase` epoch (the monitor's time line)."""
        return self._time.seconds(self.get_clock().now().nanoseconds)

    def _stamp(self, header, now):
        stamp = header.stamp
        if stamp.sec == 0 and stamp.nanosec == 0:
            return now  # unstamped publishers: time of arrival
        return self._time.from_msg(stamp)

    def _pose_callback(self, k, reader):
        frame_id = self.monitor.config.frame_id

        def callback(msg):
            now = self._now()
            header = msg.header
            p = reader.pose(msg)
            pose, reason = self._frames.into_frame_id(
                header.frame_id, header.stamp.sec * 10**9 + header.stamp.nanosec,
                (p.position.x, p.position.y, p.position.z, p.orientation.x, p.orientation.y,
                 p.orientation.z, p.orientation.w))
            if pose is None:
                self.monitor.refuse(k, WRONG_FRAME)
                self._note(self.monitor.names[k], WRONG_FRAME, header.frame_id, detail=reason)
                return
            x, y, _, qx, qy, qz, qw = pose
            reason = self.monitor.pose(k, self._stamp(header, now), frame_id,
                                       (x, y, qx, qy, qz, qw), now)
            if reason is None and reader.twist is not None:
                tw = reader.twist(msg)
                reason = self.monitor.twist(k, tw.linear.x, tw.linear.y, tw.angular.z)
            self._note(self.monitor.names[k], reason, msg.header.frame_id)
        return callback

    def _bulk_callback(self, source):
        """Raw subscription: the poses are read straight from the CDR bytes (one array view),
        so a thousand bodies cost one small parse, not a thousand Python objects."""
        expected = len(self.monitor.sources[source])
        rejected = set()  # names of this source's bodies whose last pose was refused

        def callback(data):
            now = self._now()
            try:
                stamp_ns, frame, rows = pose_array_from_cdr(data, expected)
            except ValueError as err:  # refused before converting anything
                self._note(source, BAD_BULK, '', detail=str(err))
                self.monitor.refuse(source, BAD_BULK)
                return
            t = self._time.seconds(stamp_ns) if stamp_ns > 0 else now
            moved, reason = self._frames.rows_into_frame_id(frame, stamp_ns, rows)
            if moved is None:
                self._note(source, WRONG_FRAME, frame, detail=reason)
                self.monitor.refuse(source, WRONG_FRAME)
                return
            refused = self.monitor.bulk(source, t, self.monitor.config.frame_id, moved, now)
            now_rejected = set()
            for b, reason in refused:
                name = source if b < 0 else self.monitor.names[b]
                now_rejected.add(name)
                self._note(name, reason, frame)
            for name in rejected - now_rejected:
                self._note(name, None, '')
            rejected.clear()
            rejected.update(now_rejected)
            if self.monitor.config.tick_on_source and self._timers:
                self._tick(now)
        return callback

    def _footprint_callback(self, k):
        """Raw subscription: the vertex count is checked before anything proportional to the
        message is converted, so that a huge polygon stalls no other body.  A footprint in
        a frame other than frame_id that tf2 knows (Nav2's published_footprint in odom) is
        brought into frame_id first; `Monitor.footprint_in` takes it from there."""
        limit = self.monitor.config.max_vertices

        def callback(data):
            monitor = self.monitor
            name, frame_id = monitor.names[k], monitor.config.frame_id
            try:
                stamp_ns, frame, points = polygon_from_cdr(data, limit)
            except ValueError as err:
                monitor.refuse(k, BAD_FOOTPRINT)
                self._note(name, BAD_FOOTPRINT, '', 'footprint', detail=str(err))
                return
            if (frame not in ('', frame_id) and self._frames.available
                    and self._frames.lookup(frame, 0)[0] is not None):
                rows = np.zeros((points.shape[0], 7))
                rows[:, :2], rows[:, 6] = points, 1.0
                moved, reason = self._frames.rows_into_frame_id(frame, stamp_ns, rows)
                if moved is None:
                    monitor.refuse(k, BAD_FOOTPRINT)
                    self._note(name, WRONG_FRAME, frame, 'footprint', detail=reason)
                    return
                points, frame = moved[:, :2], frame_id
            before = monitor.world.footprint(name) if monitor.has_footprint[k] else None
            error = monitor.footprint_in(k, self._time.seconds(stamp_ns) if stamp_ns else None,
                                         frame, points, self._now())
            self._note(name, error and BAD_FOOTPRINT, frame, 'footprint', detail=error)
            after = monitor.world.footprint(name)
            if error is None and (before is None or before.shape != after.shape
                                  or not np.array_equal(before, after)):
                self.get_logger().info(f'footprint of {name!r} updated '
                                       f'({points.shape[0]} vertices)')
        return callback

    def _note(self, name, reason, frame, what='pose', detail=None):
        """Log a body's (or source's) refused input the first time for each reason (one of
        the monitor's reasons; `detail` says more in that first line); later refusals are
        counted (diagnostics, and a summary line every `REFUSAL_SUMMARY_PERIOD` s).  A body
        accepted after a logged refusal is said so once: inputs that alternate good and bad
        flood no log."""
        key = (what, name)
        previous = self._body_state.get(key)
        self._body_state[key] = reason
        if reason is None:
            if previous is not None and key not in self._recovered:
                self._recovered.add(key)
                self.get_logger().info(f'{what} of {name!r} accepted again (later refusals '
                                       f'are counted in /diagnostics)')
            return
        if (what, name, reason) in self._logged:
            return
        self._logged.add((what, name, reason))
        more = ''
        if detail and detail != reason:  # (without tf2 the frames' reason is the reason)
            more = f': {detail}'
        elif reason == WRONG_FRAME:
            more = f" (frame '{frame}', expected '{self.monitor.config.frame_id}')"
            if not self._frames.available:
                more += ': tf2_ros is not installed, so other frames are not transformed'
        self.get_logger().warn(f'{what} of {name!r} rejected: {reason}{more}')

    def _summarize_refusals(self):
        """One log line with the inputs refused since the last such line, by body and
        reason, at most every `REFUSAL_SUMMARY_PERIOD` s."""
        now = time.monotonic()
        if now - self._summary_time < REFUSAL_SUMMARY_PERIOD:
            return
        counts = self.monitor.rejections
        new = {key: counts[key] - self._summarized[key] for key in counts
               if counts[key] > self._summarized[key]}
        if not new:
            return
        self._summary_time = now
        self._summarized = counts.copy()
        top = sorted(new.items(), key=lambda kv: -kv[1])
        text = ', '.join(f'{name!r} {reason} x{n}' for (name, reason), n in top[:8])
        more = f' and {len(top) - 8} more' if len(top) > 8 else ''
        self.get_logger().warn(f'refused in the last {REFUSAL_SUMMARY_PERIOD:g} s: '
                               f'{text}{more}')

    def _on_enable(self, request, response):
        self.monitor.enabled = bool(request.data)
        response.success = True
        response.message = 'monitoring ' + ('enabled' if request.data else 'disabled')
        self.get_logger().info(response.message)
        return response

    def _on_command(self, msg):
        """Scale the command by `Monitor.gate_scale` (the body moved as commanded) and pass
        it on, as Twist or, with enable_stamped_cmd_vel, TwistStamped (header kept)."""
        self._cmd_time = self._now()
        self._cmd_stale = False
        if self._pub_cmd is None:
            return
        twist = msg.twist if self._stamped else msg
        command, reason = self.monitor.gate_command(
            (twist.linear.x, twist.linear.y, twist.linear.z, twist.angular.x, twist.angular.y,
             twist.angular.z))
        self._note(self.monitor.config.gate.body, reason, '', 'command')
        out = Twist()
        (out.linear.x, out.linear.y, out.linear.z,
         out.angular.x, out.angular.y, out.angular.z) = command
        self._pub_cmd.publish(TwistStamped(header=msg.header, twist=out) if self._stamped
                              else out)

    def _zero_command(self):
        """A zero command of the output's type, stamped now."""
        if not self._stamped:
            return Twist()
        out = TwistStamped()
        out.header.stamp = self.get_clock().now().to_msg()
        return out

    def _stop_command(self):
        if getattr(self, '_pub_cmd', None) is not None and self._pub_cmd.is_activated:
            self._pub_cmd.publish(self._zero_command())

    # ticks ---------------------------------------------------------------------------------
    def _on_timer(self):
        # with tick_on_source, the timer only covers quiet sources (staleness, the gate): it
        # ticks once no tick ran for QUIET_PERIODS periods, so that a source a little slower
        # than tick_rate never meets a timer tick running when its message arrives
        period = 1.0 / self.monitor.config.tick_rate
        if (self.monitor.config.tick_on_source
                and time.perf_counter() - self._last_tick < QUIET_PERIODS * period):
            return
        self._tick()

    def _tick(self, now=None):
        """One tick at `now` (the monitor's time line, s; None: the clock now), as a source's
        message arrived or the timer fired."""
        started = time.perf_counter()
        self._last_tick = started
        if now is None:
            now = self._now()
        monitor = self.monitor
        self._poses_from_tf(now)
        # warnings first, published before the contacts are even found: what is about to
        # happen is the message a robot can still act on (both stamped with the tick's time,
        # which the times to collision count from)
        report = monitor.predict(now)
        stamp_ns, frame_id = self._time.nanoseconds(now), monitor.config.frame_id
        names, out = monitor.names, self._out
        self._pub_warnings.publish(out.warnings(report, names, stamp_ns, frame_id))
        monitor.detect(report)
        self._pub_contacts.publish(out.contacts(report, names, stamp_ns, frame_id))
        for b, reason in report.refused:
            self._note(monitor.names[b], reason, '')
        if report.clock_jumped:
            self.get_logger().warn('clock jumped backwards: pose histories reset')
        if report.state_changed:
            self._pub_state.publish(out.state(report, names, stamp_ns, frame_id))
        if self._pub_markers.get_subscription_count() > 0 and monitor.markers_due(now):
            self._pub_markers.publish(out.markers(report, monitor.world, names, stamp_ns,
                                                  frame_id))
        if self._pub_cmd is not None and not self._cmd_stale:
            # the node's clock: sim time too.  A command from before the clock went back
            # belongs to another time line: zero until a new command comes
            cmd_age = self._now() - self._cmd_time
            if (cmd_age > monitor.config.gate.cmd_timeout or cmd_age < 0.0
                    or report.clock_jumped):
                self._cmd_stale = True
                self._pub_cmd.publish(self._zero_command())
        elapsed = time.perf_counter() - started
        self._tick_times.append(elapsed)
        self._ticks += 1
        if elapsed > 1.0 / monitor.config.tick_rate:
            self._overruns += 1

    def _poses_from_tf(self, now):
        """The latest pose of each body tracked from tf (`<body>.tf_frame`)."""
        frame_id = self.monitor.config.frame_id
        for k, child in self._tf_bodies:
            stamp_ns, pose, missing = self._frames.body_pose(child)
            if pose is None:
                self._note(self.monitor.names[k], WRONG_FRAME, child, detail=missing)
                continue
            if stamp_ns <= self._tf_stamps.get(k, -1):
                continue  # nothing newer since the last tick
            self._tf_stamps[k] = stamp_ns
            x, y, _, qx, qy, qz, qw = pose
            reason = self.monitor.pose(k, self._time.seconds(stamp_ns), frame_id,
                                       (x, y, qx, qy, qz, qw), now)
            self._note(self.monitor.names[k], reason, child)

    def _publish_health(self):
        m = self.monitor
        self._summarize_refusals()
        times = np.array(self._tick_times) * 1e3 if self._tick_times else np.zeros(1)
        self._tick_times.clear()
        active, stale, rejected = m.health()
        level = DiagnosticStatus.WARN if stale or not m.enabled else DiagnosticStatus.OK
        stats = {
            'level': level,
            'message': ('disabled' if not m.enabled else
                        f'{active} active, {stale} stale'),
            'ticks': self._ticks, 'overruns': self._overruns,
            'tick_ms_p50': number_text(np.percentile(times, 50)),
            'tick_ms_p99': number_text(np.percentile(times, 99)),
            'tick_ms_max': number_text(times.max()),
            'bodies': len(m.names), 'active_bodies': active, 'stale_bodies': stale,
            'rejected_total': sum(rejected.values()),
        }
        stats.update({f'rejected: {k}': v for k, v in sorted(rejected.items())})
        header = Header()
        header.stamp = self.get_clock().now().to_msg()
        self._pub_health.publish(DiagnosticArray(
            header=header, status=[_health_status(f'{self.get_name()}: monitor', stats)]))


def _qos(topic):
    """The QoS of an output topic (`messages.OutputTopic`)."""
    return QoSProfile(depth=topic.depth, reliability=ReliabilityPolicy.RELIABLE,
                      history=HistoryPolicy.KEEP_LAST,
                      durability=(DurabilityPolicy.TRANSIENT_LOCAL if topic.latched
                                  else DurabilityPolicy.VOLATILE))


def _health_status(name, stats):
    """The node's /diagnostics status from a dict of figures (level and message among them,
    chosen by the caller)."""
    level = stats.pop('level')
    message = stats.pop('message')
    return DiagnosticStatus(level=level, name=name, message=message, hardware_id='',
                            values=[KeyValue(key=k, value=str(v)) for k, v in stats.items()])


def _changes_body_set(name):
    """Whether parameter `name` changes the body set: bodies, sources, or a parameter of a
    body or a source (``<name>.<parameter>``; ``gate.*`` is run-time)."""
    return name in REBUILT or '.' in name and name.split('.')[0] != 'gate'


def make_executor(kind='events'):
    """The executor of the `executor` parameter: for ``events`` rclpy's experimental
    EventsExecutor where this rclpy has it (the Jazzy wheels used here, 7.1.6, do), else
    SingleThreadedExecutor.  Its event queue and dispatch are C++, where
    SingleThreadedExecutor rebuilds a wait set in Python on every wake-up: measured here, a
    bulk message reached its callback 0.35 ms after publication at p50 (0.75 ms at p99)
    instead of 0.65 (1.4)."""
    if kind != 'events':
        return SingleThreadedExecutor()
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:
        return SingleThreadedExecutor()
    return EventsExecutor()


def main(args=None):
    """Run the node until SIGINT or SIGTERM; then zero the gate's output and exit cleanly.
    Return 1 (the process's exit code) when rcl cannot read the arguments or a parameter
    file, or autostart cannot configure the node: the reason is logged in one line, and a
    launch file or supervisor sees the node die.

    rclpy's own signal handler would shut the context down before we could publish the final
    zero command, so SIGINT and SIGTERM only set a flag here, checked between callbacks.  (An
    exception raised from the handler lands wherever the main thread is: inside rclpy taking
    a message it came out as pybind11's "Unable to convert call argument" RuntimeError and
    exit code 1; a tick would be cut off half way.)
    """
    try:
        rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    except RuntimeError as err:  # rcl could not read the arguments or a parameter file
        hint = ''
        if 'Sequences cannot be key' in str(err):
            # rcl's YAML parser names no parameter for a nested list
            hint = ('; a nested list? a footprint is a string, quoted as Nav2 writes it: '
                    'footprint: "[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]"')
        print(f'[ERROR] [collision_monitor]: cannot start: {err}{hint}', file=sys.stderr)
        return 1
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    node = CollisionMonitorNode()
    # a value outside EXECUTORS fails the configuration, which names it
    executor = make_executor(node.get_parameter('executor').value)
    executor.add_node(node)
    try:
        # a bounded wait, so that the flag is seen even when no timer is armed (an
        # unconfigured or inactive node)
        while rclpy.ok() and not stop.is_set() and not node.failed:
            executor.spin_once(timeout_sec=0.1)
    except ExternalShutdownException:
        pass
    finally:
        if rclpy.ok():
            node._stop_command()
        node.destroy_node()
        rclpy.try_shutdown()
    return 1 if node.failed else 0


if __name__ == '__main__':
    sys.exit(main())
