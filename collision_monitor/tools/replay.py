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
"""Replay a recorded rosbag2 bag through the monitor, offline and as fast as the CPU allows.

``collision_monitor_replay BAG --params-file PARAMS.yaml --output OUT`` reads the pose,
odometry, pose-array and footprint topics of the parameter file from BAG (a rosbag2
directory, MCAP or SQLite storage, or one .mcap file), ticks the same `Monitor` the node
runs at ``tick_rate`` on the recorded time line (the bag's receive times, as
``ros2 bag play --clock`` would give the node), writes the node's output topics to OUT (a
rosbag2 bag, MCAP storage) and a near-miss report beside it (``OUT.csv`` and ``OUT.png``).

Bags are read and written with `rosbags` (pure Python, no ROS install; reads MCAP and SQLite
rosbag2 bags and writes MCAP); the output messages are the node's own
(`ros.messages`), written as CDR bytes by `ros.cdr`.
"""

import argparse
import csv
import dataclasses
import math
import os
import pathlib
import shutil
import sys
import time

import numpy as np

from ..monitor.config import (BODY_PARAMETERS, build_config, GLOBAL_PARAMETERS,
                              SOURCE_PARAMETERS)
from ..monitor.monitor import Monitor
from ..ros.messages import (OutputWriter, polygon_from_cdr, pose_array_from_cdr, POSE_INPUTS,
                            TimeBase)

OUTPUT_TOPICS = {
    'contacts': 'diagnostic_msgs/msg/DiagnosticArray',
    'warnings': 'diagnostic_msgs/msg/DiagnosticArray',
    'state': 'diagnostic_msgs/msg/DiagnosticArray',
    'markers': 'visualization_msgs/msg/MarkerArray',
}


def load_parameters(path, node_name='collision_monitor'):
    """The ``ros__parameters`` of a ROS 2 parameter file for `node_name` (keyed ``/**``,
    the node's name or ``/<namespace>/<name>``), flattened to dotted names."""
    import yaml
    data = yaml.safe_load(pathlib.Path(path).read_text()) or {}
    namespaced = [k for k in data if str(k).endswith(f'/{node_name}')]
    for key in ('/**', node_name, f'/{node_name}', *namespaced):
        if key in data and 'ros__parameters' in data[key]:
            return dict(_flatten(data[key]['ros__parameters']))
    raise ValueError(f'{path}: no ros__parameters for /** or {node_name!r}')


def _flatten(tree, prefix=''):
    for key, value in tree.items():
        if isinstance(value, dict):
            yield from _flatten(value, f'{prefix}{key}.')
        else:
            yield f'{prefix}{key}', value


def config_from_parameters(params):
    """`Config` from flattened parameters, as the node builds it (same checks, same errors)."""
    values = {p.name: params.get(p.name, p.default) for p in GLOBAL_PARAMETERS}
    names = [n for n in values['bodies'] or [] if n]
    sources = [n for n in values['sources'] or [] if n]
    body_values = {n: {p.name: params.get(f'{n}.{p.name}', p.default) for p in BODY_PARAMETERS}
                   for n in names}
    source_values = {s: {p.name: params.get(f'{s}.{p.name}', p.default)
                         for p in SOURCE_PARAMETERS} for s in sources}
    return build_config(values, body_values, source_values)


def input_topics(config):
    """``{topic: (kind, body index or source name, message type)}`` of the inputs of
    `config`: kind ``'pose'``, ``'footprint'`` or ``'bulk'`` (a PoseArray source)."""
    inputs = {}
    for k, body in enumerate(config.bodies):
        if body.pose_topic:
            inputs[body.pose_topic] = ('pose', k, body.pose_type.replace('/', '/msg/'))
        if body.footprint_topic:
            inputs[body.footprint_topic] = ('footprint', k, 'geometry_msgs/msg/PolygonStamped')
    for source in config.sources:
        inputs[source.topic] = ('bulk', source.name, 'geometry_msgs/msg/PoseArray')
    return inputs


@dataclasses.dataclass
class PairRecord:
    """What the replay saw of one pair (times in seconds of the bag's time line)."""

    first_warning: float = np.nan
    min_time_to_collision: float = np.inf
    contact_start: float = np.nan
    contact_end: float = np.nan
    closest: float = np.inf
    warned: list = dataclasses.field(default_factory=list)    # tick times
    touching: list = dataclasses.field(default_factory=list)  # tick times


class Replay:
    """The monitor of a configuration, fed from bag messages, ticking on their time line:
    ticks at ``epoch_ns + k / tick_rate`` (integer ns; the epoch is the first input's receive
    time), each input taken after the ticks due at or before its receive time."""

    def __init__(self, config, epoch_ns, markers=True):
        self.config = config
        self.monitor = Monitor(config)
        self.markers = markers
        self.pairs = {}
        self.skipped = {}   # reason -> count
        self.period_ns = round(1e9 / config.tick_rate)
        self.time = TimeBase(epoch_ns)
        self.next_tick = self.time.epoch_ns
        self._out = OutputWriter(self.time)
        self.inputs = input_topics(config)

    def skip(self, reason):
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def due(self, log_ns):
        """The times (ns) of the ticks due before an input received at `log_ns`, each
        counted as run once yielded."""
        while self.next_tick <= log_ns:
            tick_ns = self.next_tick
            self.next_tick += self.period_ns
            yield tick_ns

    def take(self, kind, who, msg, raw, log_ns):
        """One input received at `log_ns`: a ``kind`` of `input_topics`, for body index or
        source name `who`; `msg` the deserialized message (None for a bulk source and a
        footprint, read from their CDR bytes `raw`)."""
        now = self.time.seconds(log_ns)
        if kind == 'footprint':
            try:
                stamp_ns, frame, points = polygon_from_cdr(raw, self.config.max_vertices)
            except ValueError as err:
                self.skip(f'footprint refused: {err}')
                return
            error = self.monitor.footprint_in(
                who, self.time.seconds(stamp_ns) if stamp_ns else None, frame, points, now)
            if error:
                self.skip(f'footprint refused: {error}')
            return
        if kind == 'bulk':
            try:
                stamp_ns, frame, rows = pose_array_from_cdr(raw, len(self.monitor.sources[who]))
            except ValueError as err:
                self.skip(f'bulk message refused: {err}')
                return
            t = self.time.seconds(stamp_ns) if stamp_ns > 0 else now
            for _, reason in self.monitor.bulk(who, t, frame, rows, now):
                self.skip(reason)
            return
        header = msg.header
        stamp_ns = header.stamp.sec * 10**9 + header.stamp.nanosec
        t = self.time.seconds(stamp_ns) if stamp_ns > 0 else now
        reader = POSE_INPUTS[self.config.bodies[who].pose_type]
        p = reader.pose(msg)
        reason = self.monitor.pose(who, t, header.frame_id,
                                   (p.position.x, p.position.y, p.orientation.x,
                                    p.orientation.y, p.orientation.z, p.orientation.w), now)
        if reason is None and reader.twist is not None:
            tw = reader.twist(msg)
            reason = self.monitor.twist(who, tw.linear.x, tw.linear.y, tw.angular.z)
        if reason is not None:
            self.skip(reason)

    def pass_tick(self, tick_ns):
        """A tick left out (before a block's warm-up): only the marker schedule moves on, as
        the tick would have moved it."""
        if self.markers:
            self.monitor.markers_due(self.time.seconds(tick_ns))

    def tick(self, tick_ns):
        """One tick of the monitor; its messages, serialized as the node publishes them."""
        now = self.time.seconds(tick_ns)
        report = self.monitor.tick(now)
        names, out, frame_id = self.monitor.names, self._out, self.config.frame_id
        self._record(report, now)
        messages = {'contacts': out.contacts(report, names, tick_ns, frame_id),
                    'warnings': out.warnings(report, names, tick_ns, frame_id)}
        if report.state_changed:
            messages['state'] = out.state(report, names, tick_ns, frame_id)
        if self.markers and self.monitor.markers_due(now):
            messages['markers'] = out.markers(report, self.monitor.world, names, tick_ns,
                                              frame_id)
        return messages

    def _record(self, report, now):
        names, pairs = self.monitor.names, self.pairs
        seen = set()
        apart = []
        for (i, j), began in zip(report.contacts.pairs.tolist(), report.contacts.began.tolist()):
            key = (names[i], names[j])
            record = pairs.get(key) or pairs.setdefault(key, PairRecord())
            if math.isnan(record.contact_start):
                record.contact_start = began
            record.contact_end = now
            record.closest = 0.0
            record.touching.append(now)
            seen.add((i, j))
        for i, j, first in report.warnings:
            key = (names[i], names[j])
            record = pairs.get(key) or pairs.setdefault(key, PairRecord())
            if math.isnan(record.first_warning):
                record.first_warning = now
            record.min_time_to_collision = min(record.min_time_to_collision, first.time)
            record.warned.append(now)
            if (i, j) not in seen:
                apart.append((i, j))
        if apart:  # warned but apart: the boundaries' least distance
            for (i, j), d in zip(apart, self.monitor.world.distances(np.array(apart)).tolist()):
                record = pairs[(names[i], names[j])]
                record.closest = min(record.closest, d)


def replay(bag, params_file, output, node_name='collision_monitor', markers=True,
           progress=True, log=print, jobs=None):
    """Run a bag through the monitor of `node_name`'s parameters; write the output bag (the
    node's topics under ``/<node_name>/``), the CSV and the PNG; return the `Replay` whose
    `pairs` and `skipped` hold the whole bag's.

    `jobs` processes (default: one per usable core) each replay a block of the time line
    (`replay_blocks`); the outputs are those of one replay from the beginning.
    """
    from rosbags.rosbag2 import Reader
    from . import replay_blocks
    config = config_from_parameters(load_parameters(params_file, node_name))
    inputs = input_topics(config)
    output = pathlib.Path(output)
    with Reader(bag) as reader:
        present = {c.topic: c for c in reader.connections}
        used = []
        for topic, (_, _, msgtype) in inputs.items():
            conn = present.get(topic)
            if conn is None:
                log(f'topic {topic} is not in the bag: its body gets no input from it')
            elif conn.msgtype != msgtype:
                log(f'topic {topic} holds {conn.msgtype}, expected {msgtype}: skipped')
            else:
                used.append(conn)
        if not used:
            raise ValueError(f'{bag}: none of the configured input topics is in the bag')
        first = next(replay_blocks.read_messages(reader, used, bag), None)
        epoch_ns = reader.start_time if first is None else first[1]
        end_ns = reader.end_time
    jobs = jobs or len(os.sched_getaffinity(0))
    starts = replay_blocks.block_starts(config, epoch_ns, end_ns, jobs)
    plan = replay_blocks.Plan(
        str(bag), config, markers, node_name, tuple((c.topic, c.msgtype) for c in used),
        epoch_ns, starts, replay_blocks.warmup_ns(config),
        output if len(starts) == 1 else output.with_name(f'.{output.name}.blocks'))
    bar = Progress(epoch_ns, end_ns) if progress else None
    period = round(1e9 / config.tick_rate)

    def show(ticks):
        if bar:
            bar.update(epoch_ns + ticks * period)

    redone = 0
    try:
        if len(starts) == 1:
            results = [replay_blocks.run_worker(plan, 0, on_tick=show)]
        else:
            plan.parts.mkdir()
            results, redone = replay_blocks.run_parallel(plan, show)
            replay_blocks.merge_blocks([plan.part(r.block, r.worker) for r in results], output)
    except BaseException:  # no half-written output bag is left behind
        shutil.rmtree(output, ignore_errors=True)
        raise
    finally:
        if len(starts) > 1:
            shutil.rmtree(plan.parts, ignore_errors=True)
    if redone:
        log(f'{redone} of {len(starts)} blocks were replayed on from the block before '
            f'(a contact or warning older than the warm-up ran into them)')
    if bar:
        bar.close()
    run = Replay(config, epoch_ns, markers=markers)
    run.pairs, run.skipped = replay_blocks.merge_records(results)
    write_report(run, output)
    return run


class Progress:
    """A one-line progress bar on stderr: how much of the bag's time line is replayed, and
    how many times faster than real time, redrawn at most five times a second."""

    def __init__(self, start_ns, end_ns, stream=sys.stderr, width=30):
        self.start_ns = start_ns
        self.span_ns = max(1, end_ns - start_ns)
        self.stream = stream
        self.width = width
        self.began = time.perf_counter()
        self.drawn = -1.0

    def update(self, log_ns, force=False):
        """Redraw for the bag time `log_ns` (ns) if 0.2 s went by since the last drawing."""
        now = time.perf_counter()
        if not force and now - self.drawn < 0.2:
            return
        self.drawn = now
        share = min(1.0, max(0.0, (log_ns - self.start_ns) / self.span_ns))
        done = int(share * self.width)
        bag_s = share * self.span_ns * 1e-9
        speed = bag_s / max(1e-9, now - self.began)
        self.stream.write(f'\rreplay [{"#" * done}{"." * (self.width - done)}] '
                          f'{share:4.0%}  {bag_s:.1f} of {self.span_ns * 1e-9:.1f} s  '
                          f'{speed:.0f}x real time ')
        self.stream.flush()

    def close(self):
        """Draw the end state and end the line."""
        self.update(self.start_ns + self.span_ns, force=True)
        self.stream.write('\n')


TIMELINE_ROWS = 40
"""Pairs drawn in the timeline PNG: those that came closest (contacts first, then the
shortest time to collision); the CSV lists every pair."""


def write_report(run, output):
    """The near-miss report: ``OUT.csv`` (one row per pair) and ``OUT.png`` (timeline)."""
    rows = sorted(run.pairs.items(), key=lambda kv: min(
        t for t in (kv[1].first_warning, kv[1].contact_start) if not np.isnan(t)))
    base = run.time.epoch_ns * 1e-9 if run.time else 0.0
    with open(f'{output}.csv', 'w', newline='') as f:
        out = csv.writer(f)
        out.writerow(['pair', 'first_warning', 'min_time_to_collision', 'contact_start',
                      'contact_end', 'closest_approach'])
        for (a, b), r in rows:
            out.writerow([f'{a}|{b}', _abs(base, r.first_warning),
                          '' if np.isinf(r.min_time_to_collision) else
                          repr(r.min_time_to_collision), _abs(base, r.contact_start),
                          _abs(base, r.contact_end),
                          '' if np.isinf(r.closest) else repr(r.closest)])
    closest = {pair for pair, _ in sorted(rows, key=lambda kv: (
        np.isnan(kv[1].contact_start), kv[1].min_time_to_collision))[:TIMELINE_ROWS]}
    _timeline([kv for kv in rows if kv[0] in closest], f'{output}.png', len(rows),
              1.0 / run.config.tick_rate)


def _abs(base, seconds):
    """Seconds of the bag's time line as absolute epoch seconds, '' when none."""
    return '' if np.isnan(seconds) else repr(base + seconds)


def _timeline(rows, path, total, period):
    """Draw each pair's warned and touching ticks as spans (ticks closer than 1.5
    `period` s join) on one row each, in the order of `rows` from the top."""
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state
    fig = Figure(figsize=(10, 1 + 0.4 * max(1, len(rows))))
    labels = [f'{a}|{b}' for (a, b), _ in rows]
    width = 10 * 0.1 + 0.075 * max(map(len, labels), default=0)  # inches of tick labels
    fig.subplots_adjust(left=width / 10, right=0.98, top=1 - 0.5 / fig.get_figheight(),
                        bottom=0.6 / fig.get_figheight())
    ax = fig.subplots()
    for k, (_, r) in enumerate(rows):
        ax.broken_barh(_spans(r.warned, period), (k - 0.3, 0.6), color='orange')
        ax.broken_barh(_spans(r.touching, period), (k - 0.3, 0.6), color='red')
    ax.set_yticks(range(len(rows)), labels)
    ax.set_ylim(len(rows) - 0.3, -0.7)  # the first pair at the top
    ax.set_xlabel('s from the start of the bag (orange: warned, red: in contact)')
    if total > len(rows):
        ax.set_title(f'the {len(rows)} closest of {total} pairs (all in the CSV)')
    ax.grid(alpha=0.3)
    fig.savefig(path, dpi=100, pil_kwargs={'compress_level': 1})  # zlib's fastest: 40 ms less


def _spans(times, period):
    """(start, width) of the runs of tick `times` (s, increasing) spaced at most 1.5
    `period`, each ending one period after its last tick."""
    if not times:
        return []
    t = np.asarray(times)
    breaks = np.flatnonzero(np.diff(t) > 1.5 * period)
    starts = t[np.r_[0, breaks + 1]]
    ends = t[np.r_[breaks, t.size - 1]] + period
    return list(zip(starts.tolist(), (ends - starts).tolist()))


def main(argv=None):
    """The ``collision_monitor_replay`` command."""
    parser = argparse.ArgumentParser(prog='collision_monitor_replay', description=__doc__.split(
        '\n\n')[0])
    parser.add_argument('bag', help='a rosbag2 bag: a directory (metadata.yaml, MCAP or '
                                    'SQLite) or one .mcap file')
    parser.add_argument('--params-file', required=True, help="the node's parameter file")
    parser.add_argument('--output', required=True, help='the output bag (MCAP) to write')
    parser.add_argument('--node-name', default='collision_monitor',
                        help="whose parameters to read, and the outputs' namespace")
    parser.add_argument('--no-markers', action='store_true', help='leave out ~/markers')
    parser.add_argument('--jobs', '-j', type=int, default=None,
                        help='processes, each replaying a block of the time line with the '
                             'same results as one (default: one per usable core)')
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error(f'--jobs: expected a whole number of at least 1, got {args.jobs}')
    if pathlib.Path(args.output).exists():
        print(f'collision_monitor_replay: {args.output} exists already; give another --output '
              f'or remove it', file=sys.stderr)
        return 2
    try:
        run = replay(args.bag, args.params_file, args.output, args.node_name,
                     markers=not args.no_markers, jobs=args.jobs)
    except (OSError, ValueError) as err:
        print(f'collision_monitor_replay: {err}', file=sys.stderr)
        return 2
    except Exception as err:  # rosbags' own errors (a truncated or unreadable bag)
        if type(err).__module__.startswith('rosbags'):
            print(f'collision_monitor_replay: cannot read {args.bag}: {err}', file=sys.stderr)
            return 2
        raise
    for reason, count in sorted(run.skipped.items()):
        print(f'skipped {count} input(s): {reason}')
    print(f'{len(run.pairs)} pairs warned or in contact; report {args.output}.csv, '
          f'timeline {args.output}.png')
    return 0


if __name__ == '__main__':
    sys.exit(main())
