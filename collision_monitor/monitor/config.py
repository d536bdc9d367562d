# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The monitor's configuration: frozen dataclasses, the parameter table and its checks.

Pure Python (no rclpy): the node declares the parameters listed in `GLOBAL_PARAMETERS` and
`BODY_PARAMETERS`, reads their values, and calls `build_config`, which raises ValueError naming
the offending parameter.
"""

from dataclasses import dataclass, field
import math
import re
from typing import NamedTuple

import numpy as np

from ..kernels.geometry2d.validation import validate_footprint
from ..kernels.toi import PREDICTORS

POSE_TYPES = ('geometry_msgs/PoseStamped', 'geometry_msgs/PoseWithCovarianceStamped',
              'nav_msgs/Odometry')


class Param(NamedTuple):
    """One parameter: name, default, description, and (low, high) for numbers."""

    name: str
    default: object
    description: str
    range: tuple = None
    read_only: bool = True


GLOBAL_PARAMETERS = (
    Param('frame_id', 'map', 'Fixed frame of every pose; poses in other frames are rejected.'),
    Param('tick_rate', 50.0, 'Detection and prediction rate, Hz.', (1.0, 1000.0)),
    Param('horizon', 2.0, 'Look-ahead of the prediction, s.', (0.01, 60.0), False),
    Param('predictor', 'constant_acceleration',
          'Vertex motion model: constant_acceleration or constant_velocity.', read_only=False),
    Param('pose_timeout', 0.5, 'A body whose last pose is older than this is stale, s.',
          (0.01, 3600.0), False),
    Param('history_window', 0.5,
          'Pose history used to estimate velocity and acceleration, s.', (0.01, 10.0), False),
    Param('trigger_ticks', 2, 'Consecutive ticks a pair must be predicted before it is warned.',
          (1, 1000), False),
    Param('release_ticks', 5, 'Consecutive ticks without prediction before a warning clears.',
          (1, 1000), False),
    Param('ignore_pairs', [''], 'Pairs never reported, as "body_a|body_b".', read_only=False),
    Param('max_bodies', 10000, 'Most bodies accepted (configuration and bulk sources).',
          (1, 1000000)),
    Param('max_vertices', 64, 'Most vertices in one footprint; larger ones are refused.',
          (3, 4096)),
    Param('autostart', True, 'Configure and activate at start (no lifecycle manager).'),
    Param('tick_on_source', False,
          'Also tick as soon as a bulk source message arrives (lowest latency); the timer '
          'still ticks at tick_rate while sources are quiet.'),
    Param('engine_threads', 1,
          'Threads of the engine\'s parallel kernels (capped at the cores). 1 keeps the tick '
          'latency steady when other processes share the cores; more pays from thousands '
          'of bodies.', (1, 1024)),
    Param('bodies', [''], 'Names of the monitored bodies; each has a sub-namespace.'),
    Param('sources', [''], 'Names of bulk PoseArray sources; each has a sub-namespace.'),
    Param('gate.enabled', False, 'Pass cmd_vel_in to cmd_vel_out, stopping or slowing.'),
    Param('gate.body', '', 'The body whose velocity commands the gate filters.'),
    Param('gate.stop_time', 0.5, 'Stop when the time to collision is below this, s.',
          (0.0, 60.0), False),
    Param('gate.slowdown_time', 1.5,
          'Scale speed linearly between stop_time and this time to collision, s.',
          (0.0, 60.0), False),
    Param('gate.cmd_timeout', 0.5, 'Publish zero when cmd_vel_in is older than this, s.',
          (0.01, 60.0), False),
)

BODY_PARAMETERS = (
    Param('pose_topic', '', 'Topic of the body pose (empty: static or bulk source).'),
    Param('pose_type', 'geometry_msgs/PoseStamped', 'One of ' + ', '.join(POSE_TYPES) + '.'),
    Param('footprint', '', 'Footprint in the body frame, "[[x, y], ...]" (metres).'),
    Param('footprint_topic', '', 'geometry_msgs/PolygonStamped topic updating the footprint.'),
    Param('static', False, 'The body never moves; its pose is `pose`.'),
    Param('pose', [0.0, 0.0, 0.0], 'Pose [x, y, yaw] of a static body (m, m, rad).'),
)

SOURCE_PARAMETERS = (
    Param('topic', '', 'geometry_msgs/PoseArray topic: pose i belongs to body i of `bodies`.'),
    Param('bodies', [''], 'Body names, in the order of the poses in each message.'),
)

_NUMBER = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
_PAIR = rf'\[\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\]'
_FOOTPRINT = re.compile(rf'^\s*\[\s*{_PAIR}(?:\s*,\s*{_PAIR})*\s*,?\s*\]\s*$')
_PAIR_RE = re.compile(_PAIR)


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
        raise ValueError(f'{name}: cannot parse {text[:80]!r}; expected "[[x, y], [x, y], ...]"')
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


@dataclass(frozen=True)
class SourceConfig:
    """A bulk PoseArray source."""

    name: str
    topic: str
    bodies: tuple


@dataclass(frozen=True)
class GateConfig:
    """The optional velocity gate of one body."""

    enabled: bool = False
    body: str = ''
    stop_time: float = 0.5
    slowdown_time: float = 1.5
    cmd_timeout: float = 0.5


@dataclass(frozen=True)
class Config:
    """Everything the monitor needs, checked."""

    frame_id: str = 'map'
    tick_rate: float = 50.0
    horizon: float = 2.0
    predictor: str = PREDICTORS[0]
    pose_timeout: float = 0.5
    history_window: float = 0.5
    trigger_ticks: int = 2
    release_ticks: int = 5
    ignore_pairs: frozenset = frozenset()
    max_bodies: int = 10000
    max_vertices: int = 64
    autostart: bool = True
    tick_on_source: bool = False
    engine_threads: int = 1
    bodies: tuple = ()
    sources: tuple = ()
    gate: GateConfig = field(default_factory=GateConfig)


def _names(values, what):
    names = [v for v in values if v != '']
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f'{what}: duplicate names {sorted(dup)}')
    bad = [n for n in names if not re.fullmatch(r'[A-Za-z][A-Za-z0-9_]*', n)]
    if bad:
        raise ValueError(f'{what}: names must be letters, digits and _ (first a letter): {bad}')
    return names


def body_names(values):
    """Check the `bodies` parameter (names become parameter namespaces)."""
    return _names(values, 'bodies')


def source_names(values):
    """Check the `sources` parameter."""
    return _names(values, 'sources')


def check_runtime(values):
    """Check the parameters that may change at run time; raise ValueError naming the first bad.

    `values` maps parameter names to values (only those present are checked).
    """
    for p in GLOBAL_PARAMETERS:
        if p.name in values and p.range is not None:
            v = values[p.name]
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise ValueError(f'{p.name}: expected a number, got {v!r}')
            if not p.range[0] <= v <= p.range[1]:
                raise ValueError(f'{p.name} = {v} is outside [{p.range[0]}, {p.range[1]}]')
    if 'predictor' in values and values['predictor'] not in PREDICTORS:
        raise ValueError(f'predictor must be one of {PREDICTORS}, got {values["predictor"]!r}')
    stop = values.get('gate.stop_time')
    slow = values.get('gate.slowdown_time')
    if stop is not None and slow is not None and slow < stop:
        raise ValueError(f'gate.slowdown_time = {slow} must not be below gate.stop_time = {stop}')


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


def build_config(values, body_values, source_values):
    """Build a Config from parameter values; raise ValueError naming the bad parameter.

    Parameters
    ----------
    values : dict
        Global parameter name -> value.
    body_values : dict
        Body name -> {body parameter name -> value}.
    source_values : dict
        Source name -> {source parameter name -> value}.
    """
    check_runtime(values)
    max_vertices = int(values['max_vertices'])
    names = body_names(values['bodies'])
    if len(names) > values['max_bodies']:
        raise ValueError(f'bodies: {len(names)} bodies, more than max_bodies = '
                         f'{values["max_bodies"]}')
    sources = []
    in_source = {}
    for sname in source_names(values['sources']):
        sv = source_values[sname]
        if not sv['topic']:
            raise ValueError(f'{sname}.topic: a bulk source needs a topic')
        members = tuple(n for n in sv['bodies'] if n != '')
        unknown = [n for n in members if n not in names]
        if unknown:
            raise ValueError(f'{sname}.bodies: unknown bodies {unknown}')
        for n in members:
            if n in in_source:
                raise ValueError(f'{sname}.bodies: {n!r} is already in source {in_source[n]!r}')
            in_source[n] = sname
        sources.append(SourceConfig(sname, sv['topic'], members))
    bodies = []
    for name in names:
        bv = body_values[name]
        footprint = None
        if bv['footprint']:
            footprint = parse_footprint(bv['footprint'], f'{name}.footprint', max_vertices)
        elif not bv['footprint_topic']:
            raise ValueError(f'{name}.footprint: give a footprint or a footprint_topic')
        if bv['pose_type'] not in POSE_TYPES:
            raise ValueError(f'{name}.pose_type: {bv["pose_type"]!r} is not one of {POSE_TYPES}')
        pose = tuple(float(v) for v in bv['pose'])
        if len(pose) != 3 or not all(math.isfinite(v) for v in pose):
            raise ValueError(f'{name}.pose: expected three finite numbers [x, y, yaw]')
        sources_of = in_source.get(name, '')
        feeds = sum([bool(bv['static']), bool(bv['pose_topic']), bool(sources_of)])
        if feeds != 1:
            raise ValueError(f'{name}: exactly one of static, pose_topic or a bulk source '
                             f'must give its pose')
        bodies.append(BodyConfig(name, bv['pose_topic'], bv['pose_type'], footprint,
                                 bv['footprint_topic'], bool(bv['static']), pose, sources_of))
    gate = GateConfig(bool(values['gate.enabled']), values['gate.body'],
                      float(values['gate.stop_time']), float(values['gate.slowdown_time']),
                      float(values['gate.cmd_timeout']))
    if gate.enabled and gate.body not in names:
        raise ValueError(f'gate.body: {gate.body!r} is not one of the bodies')
    return Config(
        frame_id=values['frame_id'], tick_rate=float(values['tick_rate']),
        horizon=float(values['horizon']), predictor=values['predictor'],
        pose_timeout=float(values['pose_timeout']),
        history_window=float(values['history_window']),
        trigger_ticks=int(values['trigger_ticks']), release_ticks=int(values['release_ticks']),
        ignore_pairs=parse_ignore_pairs(values['ignore_pairs'], set(names)),
        max_bodies=int(values['max_bodies']), max_vertices=max_vertices,
        autostart=bool(values['autostart']), tick_on_source=bool(values['tick_on_source']),
        engine_threads=int(values['engine_threads']), bodies=tuple(bodies),
        sources=tuple(sources),
        gate=gate)


def default_values():
    """Global parameter defaults as a dict (what the node declares)."""
    return {p.name: p.default for p in GLOBAL_PARAMETERS}
