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
"""The monitor's configuration: frozen dataclasses, the parameter table and its checks.

Pure Python (no rclpy): the node declares the parameters listed in `GLOBAL_PARAMETERS` and
`BODY_PARAMETERS`, reads their values, and calls `build_config`, which raises ValueError naming
the offending parameter.
"""

import array
import dataclasses
from dataclasses import dataclass
import math
import re
import sys
from typing import NamedTuple

import numpy as np

from ..kernels.constants import MAX_COORDINATE, PREDICTORS
from ..kernels.geometry2d.validation import validate_footprint
from ..kernels.motion import HISTORY

DURABILITIES = ('volatile', 'transient_local')
EXECUTORS = ('events', 'single_threaded')
QUIET_PERIODS = 1.5
"""With tick_on_source, the timer ticks only when no tick ran for this many periods."""
POSE_TYPES = ('geometry_msgs/PoseStamped', 'geometry_msgs/PoseWithCovarianceStamped',
              'nav_msgs/Odometry')


class Param(NamedTuple):
    """One parameter: name, default, description, limits (low, high) for numbers and their unit,
    and whether it may change while the node runs (``read_only=False``).

    The default's type is the parameter's type; a list default of one empty string declares
    an empty string array (ROS 2 cannot infer the type of an empty list).
    """

    name: str
    default: object
    description: str
    limits: tuple = None
    read_only: bool = True
    unit: str = ''

    @property
    def type_name(self):
        """The ROS parameter type: bool, int, double, string, string[] or double[n]."""
        if isinstance(self.default, list):
            return ('string[]' if isinstance(self.default[0], str)
                    else f'double[{len(self.default)}]')
        return {bool: 'bool', int: 'int', float: 'double', str: 'string'}[type(self.default)]

    @property
    def allowed(self):
        """What the parameter accepts, in words (error messages)."""
        span = ''
        if self.limits is not None:
            span = f' from {self.limits[0]!r} to {self.limits[1]!r} {self.unit}'.rstrip()
        words = {'bool': 'true or false', 'int': f'an integer{span}',
                 'double': f'a number{span}', 'string': 'a string',
                 'string[]': 'a list of strings'}
        return words.get(self.type_name) or f'a list of {len(self.default)} numbers'

    def convert(self, value, name=None):
        """The value as `Config` holds it, or ValueError naming the parameter (`name`, by
        default its own), the value given and what is allowed.

        Integers stand for doubles; None (what ROS makes of an empty YAML list, whose type it
        cannot tell) for an empty list; a string list drops its empty strings (``['']``
        declares an empty one).
        """
        name = name or self.name
        bad = ValueError(f'{name}: expected {self.allowed}, got {value!r}')
        if isinstance(self.default, list):
            value = [] if value is None else value
            # rclpy hands a double array set at run time over as array.array
            if not isinstance(value, (list, tuple, array.array)):
                raise bad
            if isinstance(self.default[0], str):
                if not all(isinstance(v, str) for v in value):
                    raise bad
                return tuple(v for v in value if v != '')
            if len(value) != len(self.default) or not all(map(_is_number, value)):
                raise bad
            return tuple(float(v) for v in value)
        if isinstance(self.default, bool) or isinstance(self.default, str):
            if type(value) is not type(self.default):
                raise bad
            return value
        number = (_is_number(value) if isinstance(self.default, float)
                  else isinstance(value, int) and not isinstance(value, bool))
        if not number:
            raise bad
        value = type(self.default)(value)
        if self.limits is not None and not self.limits[0] <= value <= self.limits[1]:
            raise bad
        return value


def _is_number(value):
    """An int or float (not a bool) that is finite."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


GLOBAL_PARAMETERS = (
    Param('frame_id', 'map',
          'Fixed frame of the monitor. Poses in other frames are transformed into it through '
          'tf2 where tf2_ros is installed, refused otherwise.'),
    Param('transform_tolerance', 0.1,
          "Most gap between a pose's stamp and its transform's. A pose in another frame is "
          'transformed at its stamp; a transform this close to it serves.',
          (0.0, 10.0), unit='s'),
    Param('tick_rate', 50.0, 'Detection and prediction rate.', (1.0, 1000.0), unit='Hz'),
    Param('marker_rate', 10.0,
          'Most MarkerArrays per second on ~/markers. A tick publishes them when '
          '1/marker_rate has gone by since the last that did, so never more than tick_rate.',
          (0.1, 1000.0), False, 'Hz'),
    Param('horizon', 2.0, 'Look-ahead of the prediction.', (0.01, 60.0), False, 's'),
    Param('predictor', 'arc',
          'Motion model of the bodies without their own: arc, holonomic, '
          'constant_acceleration or constant_velocity. The arc model holds the body-frame '
          'twist (robots that drive and turn); holonomic the world velocity while the body '
          "turns (omnidirectional bases, people, carts); the other two are the seed's point "
          'models (exact for bodies that do not turn).',
          read_only=False),
    Param('pose_timeout', 0.5, 'A body whose last pose is older than this is stale.',
          (0.01, 3600.0), False, 's'),
    Param('history_window', 0.5,
          'Pose history that velocity and acceleration are estimated from. The poses within '
          f'it count, at most the newest {HISTORY}.', (0.01, 10.0), False, 's'),
    Param('trigger_ticks', 2, 'Predictions in a row before a pair is warned.',
          (1, 1000), False),
    Param('release_ticks', 5, 'Ticks in a row without prediction before a warning clears.',
          (1, 1000), False),
    Param('ignore_pairs', [''], 'Pairs never reported, as "body_a|body_b".', read_only=False),
    Param('max_bodies', 10000, 'Most bodies accepted (configuration and bulk sources).',
          (1, 1000000)),
    Param('max_vertices', 64, 'Most vertices in one footprint. Larger ones are refused.',
          (3, 4096)),
    Param('autostart', True, 'Configure and activate at start (no lifecycle manager).'),
    Param('tick_on_source', False,
          'Also tick on each bulk source message (lowest latency). The timer '
          f'still ticks at tick_rate while sources are quiet (no tick for {QUIET_PERIODS} '
          'periods).'),
    Param('executor', 'events',
          "rclpy executor of the node's process: events or single_threaded. The first is "
          "rclpy's EventsExecutor, dispatch in C++, the lower latency (SingleThreadedExecutor "
          'where rclpy has no EventsExecutor).'),
    Param('engine_threads', 1,
          "Threads of the engine's parallel kernels (capped at the cores). One keeps the tick "
          'latency steady: a tick on more wakes the other threads, which on a shared or '
          'virtual machine can take milliseconds (on a 2-core VM after 20 ms idle: 0.18 ms '
          'median, 7.8 ms at p90). More pays from thousands of bodies on free cores.',
          (1, 1024)),
    Param('bodies', [''], 'Names of the monitored bodies, each with a sub-namespace. Set at '
          "run time (with the new bodies' parameters) to add or remove bodies.",
          read_only=False),
    Param('sources', [''], 'Names of bulk PoseArray sources, each with a sub-namespace.',
          read_only=False),
    Param('footprint_padding', 0.0,
          "Added to every footprint as Nav2's costmap pads. Each vertex moves this far "
          'away from the body origin along x and along y.', (0.0, 10.0), unit='m'),
    Param('footprint_durability', 'volatile',
          'Durability of the footprint subscriptions: volatile or transient_local. Volatile '
          "connects to volatile and transient-local publishers (Nav2's published_footprint "
          'is volatile); transient_local also gets the last footprint published before the '
          'node started, from transient-local publishers only.'),
    Param('enable_stamped_cmd_vel', False,
          "The gate takes and publishes geometry_msgs/TwistStamped (Nav2's name). Twist "
          'otherwise.'),
    Param('gate.enabled', False, 'Pass cmd_vel_in to cmd_vel_out, stopping or slowing.'),
    Param('gate.body', '', 'The body whose velocity commands the gate filters.'),
    Param('gate.stop_time', 0.5, 'Stop when the time to collision is below this.',
          (0.0, 60.0), False, 's'),
    Param('gate.slowdown_time', 1.5,
          'Scale speed linearly between stop_time and this time to collision.',
          (0.0, 60.0), False, 's'),
    Param('gate.cmd_timeout', 0.5, 'Publish zero when cmd_vel_in is older than this.',
          (0.01, 60.0), False, 's'),
)

BODY_PARAMETERS = (
    Param('pose_topic', '', 'Topic of the body pose (empty: static, tf_frame or bulk source).',
          read_only=False),
    Param('tf_frame', '',
          'Track the body from tf alone. The transform from this frame (e.g. '
          'robot1/base_footprint) into frame_id is looked up every tick.', read_only=False),
    Param('pose_type', 'geometry_msgs/PoseStamped', 'One of ' + ', '.join(POSE_TYPES) + '.',
          read_only=False),
    Param('footprint', '', 'Footprint in the body frame, "[[x, y], ...]" in metres. A '
          "string, quoted in YAML as Nav2's footprint is.",
          read_only=False),
    Param('footprint_topic', '', 'geometry_msgs/PolygonStamped topic updating the footprint.',
          read_only=False),
    Param('static', False, 'The body never moves; its pose is `pose`.', read_only=False),
    Param('pose', [0.0, 0.0, 0.0], 'Pose [x, y, yaw] of a static body (m, m, rad).',
          read_only=False),
    Param('predictor', '', "This body's motion model (as the global predictor). Empty: its "
          "bulk source's, else the global one.", read_only=False),
)

SOURCE_PARAMETERS = (
    Param('topic', '', 'geometry_msgs/PoseArray topic. Pose i belongs to body i of `bodies`.',
          read_only=False),
    Param('bodies', [''], 'Body names, in the order of the poses in each message.',
          read_only=False),
    Param('predictor', '', "Motion model of the source's bodies (as the global predictor). "
          'Empty: the global one.', read_only=False),
)

_NUMBER = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
_PAIR = rf'\[\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\]'
_FOOTPRINT = re.compile(rf'^\s*\[\s*{_PAIR}(?:\s*,\s*{_PAIR})*\s*,?\s*\]\s*$')
_PAIR_RE = re.compile(_PAIR)


def pad_footprint(points, padding):
    """Nav2's footprint padding: each vertex moves `padding` metres away from the body origin
    along x and along y (a coordinate of exactly 0 stays), so a rectangle about its centre
    grows by 2 padding per side."""
    points = np.asarray(points, dtype=float)
    return points + np.sign(points) * padding


def waiting_for(body):
    """What a body of `build_config`'s ``waiting`` still lacks, in words ('' when nothing)."""
    lacks = [what for what, given in (
        ('a footprint', body.footprint is not None or body.footprint_topic),
        ('a pose source', body.static or body.pose_topic or body.source or body.tf_frame))
        if not given]
    return ' and '.join(lacks)


def parse_footprint(text, name='footprint', max_vertices=4096):
    """Parse a Nav2-style footprint string ``"[[x, y], [x, y], ...]"`` into (n, 2) float64.

    Strict grammar (numbers, brackets, commas, spaces); nothing is evaluated.  Raises
    ValueError naming `name` when the text does not parse, has more than `max_vertices`
    vertices or is not a simple polygon.
    """
    if not isinstance(text, str) or len(text) > 64 * max_vertices + 64:
        raise ValueError(f'{name}: expected a string "[[x, y], ...]" of at most '
                         f'max_vertices = {max_vertices} vertices')
    if not _FOOTPRINT.match(text):
        raise ValueError(f'{name}: cannot parse {text[:80]!r}; expected a string '
                         f'"[[x, y], [x, y], ...]" (quoted in YAML, as Nav2 writes footprints)')
    points = np.array([[float(x), float(y)] for x, y in _PAIR_RE.findall(text)])
    if points.shape[0] > max_vertices:
        raise ValueError(f'{name}: {points.shape[0]} vertices, more than max_vertices = '
                         f'{max_vertices}')
    return validate_footprint(points, name)


@dataclass(frozen=True)
class BodyConfig:
    """One body: where its pose and footprint come from."""

    name: str
    pose_topic: str = ''
    pose_type: str = POSE_TYPES[0]
    footprint: np.ndarray = None
    footprint_topic: str = ''
    static: bool = False
    pose: tuple = (0.0, 0.0, 0.0)
    source: str = ''
    tf_frame: str = ''
    predictor: str = ''  # '' for the global predictor


@dataclass(frozen=True)
class SourceConfig:
    """A bulk PoseArray source."""

    name: str
    topic: str
    bodies: tuple


@dataclass(frozen=True)
class GateConfig:
    """The optional velocity gate of one body: the ``gate.*`` parameters."""

    enabled: bool
    body: str
    stop_time: float
    slowdown_time: float
    cmd_timeout: float


@dataclass(frozen=True)
class Config:
    """Everything the monitor needs, checked.  Field ``f`` holds parameter ``f``
    (``gate.f`` is ``gate``'s field f); bodies, sources and ignore_pairs are built from
    their names and sub-namespaces."""

    frame_id: str
    transform_tolerance: float
    tick_rate: float
    marker_rate: float
    horizon: float
    predictor: str
    pose_timeout: float
    history_window: float
    trigger_ticks: int
    release_ticks: int
    ignore_pairs: frozenset
    max_bodies: int
    max_vertices: int
    autostart: bool
    tick_on_source: bool
    executor: str
    engine_threads: int
    footprint_padding: float
    footprint_durability: str
    enable_stamped_cmd_vel: bool
    bodies: tuple
    sources: tuple
    gate: GateConfig


GROUPS = {'gate': GateConfig}
"""Parameter prefixes that are a nested dataclass of `Config`."""
BUILT = ('bodies', 'sources', 'ignore_pairs')
"""Global parameters whose `Config` field is built from more than their own value."""
REBUILT = ('bodies', 'sources')
"""Run-time parameters that change the body set: the node builds a new monitor for them (and
for any parameter of a body or source namespace), carrying each body's state by name."""
RUNTIME_PARAMETERS = tuple(p for p in GLOBAL_PARAMETERS
                           if not p.read_only and p.name not in REBUILT)
_GLOBAL = {p.name: p for p in GLOBAL_PARAMETERS}


def _names(values, what):
    names = [v for v in values if v != '']
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f'{what}: duplicate names {sorted(dup)}')
    bad = [n for n in names if not re.fullmatch(r'[A-Za-z][A-Za-z0-9_]*', n)]
    if bad:
        raise ValueError(f'{what}: names must be letters, digits and _ (first a letter): {bad}')
    return names


def body_names(value):
    """Check the `bodies` parameter (names become parameter namespaces); return the names."""
    return _names(_GLOBAL['bodies'].convert(value), 'bodies')


def source_names(value):
    """Check the `sources` parameter; return the names."""
    return _names(_GLOBAL['sources'].convert(value), 'sources')


def check_runtime(values):
    """Check parameter values (name -> value, only those given): each against the table
    (`Param.convert`), then the rules between them; raise ValueError naming the first bad."""
    converted = {name: _GLOBAL[name].convert(v) for name, v in values.items() if name in _GLOBAL}
    if converted.get('footprint_durability', 'volatile') not in DURABILITIES:
        raise ValueError(f'footprint_durability: expected one of {", ".join(DURABILITIES)}, '
                         f'got {converted["footprint_durability"]!r}')
    if converted.get('executor', 'events') not in EXECUTORS:
        raise ValueError(f'executor: expected one of {", ".join(EXECUTORS)}, got '
                         f'{converted["executor"]!r}')
    if 'predictor' in converted:
        _check_predictor(converted['predictor'], 'predictor', empty=False)
    stop = converted.get('gate.stop_time')
    slow = converted.get('gate.slowdown_time')
    if stop is not None and slow is not None and slow < stop:
        raise ValueError(f'gate.slowdown_time = {slow} must not be below gate.stop_time = {stop}')
    return converted


def _check_predictor(value, name, empty=True):
    """ValueError naming the parameter unless `value` is a motion model's name (or '' where
    `empty`: the predictor of the level above)."""
    if value not in PREDICTORS and not (empty and value == ''):
        raise ValueError(f'{name}: expected one of {", ".join(PREDICTORS)}'
                         f'{" or empty" if empty else ""}, got {value!r}')


def parse_ignore_pairs(values, known):
    """Turn ["a|b", ...] into a frozenset of frozenset({a, b}); names must be known bodies."""
    out = set()
    for text in values:
        if text == '':
            continue
        parts = text.split('|')
        if len(parts) != 2 or parts[0] == parts[1]:
            raise ValueError(f'ignore_pairs: {text!r} is not "body_a|body_b"')
        unknown = [p for p in parts if p not in known]
        if unknown:
            raise ValueError(f'ignore_pairs: {text!r} names unknown bodies {unknown}')
        out.add(frozenset(parts))
    return frozenset(out)


def build_config(values, body_values, source_values, waiting=()):
    """Build a Config from parameter values; raise ValueError naming the bad parameter.

    Parameters
    ----------
    values : dict
        Global parameter name -> value.
    body_values : dict
        Body name -> {body parameter name -> value}.
    source_values : dict
        Source name -> {source parameter name -> value}.
    waiting : collection of str
        Bodies that may still lack a footprint and a pose source (added while the node
        runs, before their parameters are set): they stay inactive until given both.

    """
    values = check_runtime({p.name: values.get(p.name, p.default) for p in GLOBAL_PARAMETERS})
    max_vertices = values['max_vertices']
    names = body_names(values['bodies'])
    if not names:
        raise ValueError('bodies: no bodies to monitor; list their names (each with its own '
                         'sub-namespace of parameters)')
    if len(names) > values['max_bodies']:
        raise ValueError(f'bodies: {len(names)} bodies, more than max_bodies = '
                         f'{values["max_bodies"]}')
    sources = []
    in_source = {}
    source_predictor = {}
    for sname in source_names(values['sources']):
        sv = {p.name: p.convert(source_values[sname].get(p.name, p.default),
                                f'{sname}.{p.name}')
              for p in SOURCE_PARAMETERS}
        if not sv['topic']:
            raise ValueError(f'{sname}.topic: a bulk source needs a topic')
        _check_predictor(sv['predictor'], f'{sname}.predictor')
        members = sv['bodies']
        unknown = [n for n in members if n not in names]
        if unknown:
            raise ValueError(f'{sname}.bodies: unknown bodies {unknown}')
        for n in members:
            if n in in_source:
                raise ValueError(f'{sname}.bodies: {n!r} is already in source {in_source[n]!r}')
            in_source[n] = sname
        source_predictor[sname] = sv['predictor']
        sources.append(SourceConfig(sname, sv['topic'], members))
    bodies = []
    for name in names:
        bv = {p.name: p.convert(body_values[name].get(p.name, p.default), f'{name}.{p.name}')
              for p in BODY_PARAMETERS}
        footprint = None
        if bv['footprint']:
            footprint = parse_footprint(bv['footprint'], f'{name}.footprint', max_vertices)
            footprint = validate_footprint(pad_footprint(footprint, values['footprint_padding']),
                                           f'{name}.footprint with footprint_padding')
        elif not bv['footprint_topic'] and name not in waiting:
            raise ValueError(f'{name}.footprint: give a footprint or a footprint_topic')
        if bv['pose_type'] not in POSE_TYPES:
            raise ValueError(f'{name}.pose_type: {bv["pose_type"]!r} is not one of {POSE_TYPES}')
        pose = bv['pose']
        if bv['static'] and not max(abs(pose[0]), abs(pose[1])) <= MAX_COORDINATE:
            raise ValueError(f'{name}.pose: expected |x| and |y| at most {MAX_COORDINATE:g} m, '
                             f'got {list(pose)!r}')
        sources_of = in_source.get(name, '')
        feeds = sum([bv['static'], bool(bv['pose_topic']), bool(sources_of),
                     bool(bv['tf_frame'])])
        if feeds > 1 or feeds == 0 and name not in waiting:
            raise ValueError(f'{name}: exactly one of static, pose_topic, tf_frame or a bulk '
                             f'source must give its pose')
        _check_predictor(bv['predictor'], f'{name}.predictor')
        predictor = bv['predictor'] or (source_predictor[sources_of] if sources_of else '')
        bodies.append(BodyConfig(name, bv['pose_topic'], bv['pose_type'], footprint,
                                 bv['footprint_topic'], bv['static'], pose, sources_of,
                                 bv['tf_frame'], predictor))
    top, groups = _split(values)
    top.update({group: GROUPS[group](**fields) for group, fields in groups.items()})
    if top['gate'].enabled and top['gate'].body not in names:
        raise ValueError(f'gate.body: {top["gate"].body!r} is not one of the bodies')
    return Config(ignore_pairs=parse_ignore_pairs(values['ignore_pairs'], set(names)),
                  bodies=tuple(bodies), sources=tuple(sources), **top)


def _split(values):
    """Converted values of the given global parameters (those in `BUILT` left out): the
    top-level `Config` fields, and ``{group: {field: value}}`` for the `GROUPS`."""
    top = {}
    groups = {}
    for p in GLOBAL_PARAMETERS:
        if p.name in BUILT or p.name not in values:
            continue
        group, _, name = p.name.rpartition('.')
        (groups.setdefault(group, {}) if group else top)[name] = p.convert(values[p.name])
    return top, groups


def runtime_value(config, name):
    """The current value of run-time parameter `name` in `config`, as the parameter holds it."""
    if name == 'ignore_pairs':
        return sorted('|'.join(sorted(pair)) for pair in config.ignore_pairs) or ['']
    group, _, field = name.rpartition('.')
    return getattr(getattr(config, group) if group else config, field)


def runtime_update(config, changes):
    """`config` with run-time parameter changes applied (name -> value).

    Every run-time parameter of the table is applied the same way; raises ValueError naming
    the first bad value, or a parameter that is not run-time, and then nothing changes.
    """
    runtime = {p.name for p in RUNTIME_PARAMETERS}
    fixed = sorted(set(changes) - runtime)
    if fixed:
        raise ValueError(f'{fixed[0]}: read only while the node runs')
    merged = {name: runtime_value(config, name) for name in runtime}
    merged.update(changes)
    converted = check_runtime(merged)
    ignore = parse_ignore_pairs(converted['ignore_pairs'], {b.name for b in config.bodies})
    top, groups = _split(changes)
    top.update({group: dataclasses.replace(getattr(config, group), **fields)
                for group, fields in groups.items()})
    return dataclasses.replace(config, ignore_pairs=ignore, **top)


def default_values():
    """Global parameter defaults as a dict (what the node declares)."""
    return {p.name: p.default for p in GLOBAL_PARAMETERS}


def _markdown_default(p):
    if isinstance(p.default, list):
        items = [v for v in p.default if v != '']
        return f'`{items}`'
    if isinstance(p.default, bool):
        return str(p.default).lower()
    if isinstance(p.default, str):
        return f'`{p.default}`' if p.default else ''
    return repr(p.default)


def _first_sentence(text):
    """The description up to its first full stop that ends a sentence."""
    return re.split(r'(?<=\.)\s+(?=[A-Z`])', text, maxsplit=1)[0]


def markdown_table(full=False):
    """The parameter table of the README (`full`: of docs/parameters.md, with the ranges and
    whole descriptions), generated from the tables of this module
    (``python -m collision_monitor.monitor.config [--full]`` prints it)."""
    if full:
        rows = ['| name | type | default | range | runtime | description |',
                '| --- | --- | --- | --- | --- | --- |']
    else:
        rows = ['| name | type | default | runtime | description |',
                '| --- | --- | --- | --- | --- |']
    for prefix, params in (('', GLOBAL_PARAMETERS), ('<body>.', BODY_PARAMETERS),
                           ('<source>.', SOURCE_PARAMETERS)):
        for p in params:
            runtime = '' if p.read_only else 'yes'
            if full:
                span = f'{p.limits[0]!r} to {p.limits[1]!r} {p.unit}'.strip() if p.limits else ''
                cells = [_markdown_default(p), span, runtime, p.description]
            else:
                default = f'{_markdown_default(p)} {p.unit}'.strip()
                cells = [default, runtime, _first_sentence(p.description)]
            rows.append(f'| `{prefix}{p.name}` | {p.type_name} | ' + ' | '.join(
                c.replace('|', '\\|') for c in cells) + ' |')
    return '\n'.join(rows) + '\n'


if __name__ == '__main__':
    print(markdown_table(full='--full' in sys.argv[1:]), end='')
