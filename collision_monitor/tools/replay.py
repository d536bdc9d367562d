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
import contextlib
import csv
import dataclasses
import math
import os
import pathlib
import shutil
import signal
import sys
import time

import numpy as np

from ..kernels.geometry2d.distance import polygon_distance
from ..monitor.config import (BODY_PARAMETERS, build_config, GLOBAL_PARAMETERS,
                              SOURCE_PARAMETERS)
from ..monitor.monitor import Monitor
from ..ros.messages import (OutputWriter, polygon_from_cdr, pose_array_from_cdr, POSE_INPUTS,
                            TimeBase)


@contextlib.contextmanager
def open_bag(bag):
    """An open rosbags `Reader` of `bag`.  Whatever opening it raises (rosbags' own errors,
    a metadata.yaml that is not YAML, the TypeError or struct.error its parsers meet in a
    file cut short) becomes one ValueError of one line naming the bag."""
    from rosbags.rosbag2 import Reader
    try:
        reader = Reader(bag)
        reader.open()
    except Exception as err:
        reason = ' '.join(str(err).split()) or type(err).__name__
        raise ValueError(f'cannot read {bag}: {reason}') from err
    try:
        yield reader
    finally:
        reader.close()


def load_parameters(path, node_name='collision_monitor'):
    """The ``ros__parameters`` of a ROS 2 parameter file for `node_name`, flattened to dotted
    names: as rcl applies them, those keyed ``/**`` and then those keyed with the node's
    name (or ``/<namespace>/<name>``), the node's own winning where both give one."""
    import yaml
    data = yaml.safe_load(pathlib.Path(path).read_text()) or {}
    namespaced = [k for k in data if str(k).endswith(f'/{node_name}') and k != f'/{node_name}']
    params = {}
    for key in ('/**', node_name, f'/{node_name}', *namespaced):
        if isinstance(data.get(key), dict) and 'ros__parameters' in data[key]:
            params.update(_flatten(data[key]['ros__parameters']))
    if not params:
        raise ValueError(f'{path}: no ros__parameters for /** or {node_name!r}')
    return params


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
    """What the replay saw of one pair (times in seconds of the bag's time line): the whole
    bag's summary and each tick it was warned of or in contact."""

    first_warning: float = np.nan
    min_time_to_collision: float = np.inf
    contact_start: float = np.nan
    contact_end: float = np.nan
    closest: float = np.inf
    warned: list = dataclasses.field(default_factory=list)    # (tick, ttc, distance or inf)
    touching: list = dataclasses.field(default_factory=list)  # (tick, when the contact began)

    def add_warning(self, t, time_to_collision, distance):
        """A tick at `t` that warned of the pair, the boundaries `distance` apart."""
        if math.isnan(self.first_warning):
            self.first_warning = t
        self.min_time_to_collision = min(self.min_time_to_collision, time_to_collision)
        self.closest = min(self.closest, distance)
        self.warned.append((t, time_to_collision, distance))

    def add_contact(self, t, began):
        """A tick at `t` that found the pair in a contact that began at `began`."""
        if math.isnan(self.contact_start):
            self.contact_start = began
        self.contact_end = t
        self.closest = 0.0
        self.touching.append((t, began))

    def episodes(self, period):
        """A record of each episode: a run of ticks warned of or in contact, each at most
        1.5 `period` (s) after the one before."""
        ticks = sorted([(t, ttc, d, None) for t, ttc, d in self.warned]
                       + [(t, None, None, began) for t, began in self.touching])
        out = []
        last = -math.inf
        for t, ttc, d, began in ticks:
            if t - last > 1.5 * period:
                out.append(PairRecord())
            last = t
            if began is None:
                out[-1].add_warning(t, ttc, d)
            else:
                out[-1].add_contact(t, began)
        return out


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
        for (i, j), began in zip(report.contacts.pairs.tolist(), report.contacts.began.tolist()):
            key = (names[i], names[j])
            (pairs.get(key) or pairs.setdefault(key, PairRecord())).add_contact(now, began)
        for i, j, first in report.warnings:  # pairs apart: their boundaries' least distance
            key = (names[i], names[j])
            placed = [self._recorded(k, now) for k in (i, j)]
            distance = (math.inf if placed[0] is None or placed[1] is None
                        else polygon_distance(*placed)[0])
            (pairs.get(key) or pairs.setdefault(key, PairRecord())).add_warning(
                now, first.time, distance)

    def _recorded(self, b, now):
        """Body b's footprint where its recorded poses put it at `now` (`Monitor.pose_at`:
        between two samples, or at the newest; never carried past it as the tick's motion
        estimate is), or None."""
        pose = self.monitor.pose_at(b, now)
        if pose is None:
            return None
        x, y, yaw = pose
        c, s = math.cos(yaw), math.sin(yaw)
        offsets = self.monitor.world.footprint(self.monitor.names[b])
        return offsets @ np.array([[c, s], [-s, c]]) + (x, y)


def replay(bag, params_file, output, node_name='collision_monitor', markers=True,
           progress=True, log=print, jobs=None):
    """Run a bag through the monitor of `node_name`'s parameters; write the output bag (the
    node's topics under ``/<node_name>/``), the CSV and the PNG; return the `Replay` whose
    `pairs` and `skipped` hold the whole bag's.

    `jobs` processes (default: one per usable core) each replay a block of the time line
    (`replay_blocks`); the outputs are those of one replay from the beginning.
    """
    from . import replay_blocks
    config = config_from_parameters(load_parameters(params_file, node_name))
    inputs = input_topics(config)
    output = pathlib.Path(output)
    with open_bag(bag) as reader:
        used = []
        for topic, (_, _, msgtype) in inputs.items():
            # every connection of the topic with its type (a bag can record a topic twice,
            # and with other types)
            conns = [c for c in reader.connections if c.topic == topic]
            if not conns:
                log(f'topic {topic} is not in the bag: its body gets no input from it')
            used += [c for c in conns if c.msgtype == msgtype]
            for c in conns:
                if c.msgtype != msgtype:
                    log(f'topic {topic} holds {c.msgcount} message(s) of {c.msgtype}, '
                        f'expected {msgtype}: skipped')
        if not used:
            raise ValueError(f'{bag}: none of the configured input topics is in the bag')
        first = next(replay_blocks.read_messages(reader, used, bag), None)
        epoch_ns = reader.start_time if first is None else first[1]
        end_ns = reader.end_time
    jobs = jobs or len(os.sched_getaffinity(0))
    starts = replay_blocks.block_starts(config, epoch_ns, end_ns, jobs)
    plan = replay_blocks.Plan(
        str(bag), config, markers, node_name, tuple(sorted({(c.topic, c.msgtype) for c in used})),
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
            shutil.rmtree(plan.parts, ignore_errors=True)  # a killed run's, if any
            plan.parts.mkdir()
            results, redone = replay_blocks.run_parallel(plan, show)
            replay_blocks.merge_blocks([plan.part(r.block, r.worker) for r in results], output)
    except BaseException:  # no half-written output bag is left behind
        shutil.rmtree(output, ignore_errors=True)
        if bar:
            bar.close(done=False)  # what is said next starts a line of its own
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
    """Progress on stderr: how much of the bag's time line is replayed, and how many times
    faster than real time.  On a terminal one line redrawn at most five times a second;
    elsewhere (a log file) a line at each tenth of the time line."""

    def __init__(self, start_ns, end_ns, stream=None, width=30):
        self.start_ns = start_ns
        self.span_ns = max(1, end_ns - start_ns)
        self.stream = sys.stderr if stream is None else stream  # as redirected when made
        self.width = width
        self.terminal = self.stream.isatty()
        self.began = time.perf_counter()
        self.drawn = -math.inf  # never drawn
        self.tenths = -1
        self.open = False  # a terminal line drawn and not ended

    def update(self, log_ns, force=False):
        """Show the bag time `log_ns` (ns): redrawn if 0.2 s went by since the last drawing,
        or (not a terminal) a line when a new tenth is reached."""
        now = time.perf_counter()
        share = min(1.0, max(0.0, (log_ns - self.start_ns) / self.span_ns))
        if self.terminal and not force and now - self.drawn < 0.2:
            return
        if not self.terminal and int(share * 10) == self.tenths:
            return
        self.drawn, self.tenths = now, int(share * 10)
        bag_s = share * self.span_ns * 1e-9
        speed = bag_s / max(1e-9, now - self.began)
        text = (f'{share:4.0%}  {bag_s:.1f} of {self.span_ns * 1e-9:.1f} s  '
                f'{speed:.3g}x real time')
        if self.terminal:
            done = int(share * self.width)
            self.stream.write(f'\rreplay [{"#" * done}{"." * (self.width - done)}] {text} ')
            self.open = True
        else:
            self.stream.write(f'replay {text}\n')
        self.stream.flush()

    def close(self, done=True):
        """Show the end state (when `done`) and end the terminal's line."""
        if done:
            self.update(self.start_ns + self.span_ns, force=True)
        if self.open:
            self.stream.write('\n')
            self.open = False


TIMELINE_ROWS = 40
"""Pairs drawn in the timeline PNG: those that came closest (contacts first, then the
shortest time to collision); the CSV lists every pair."""


def write_report(run, output):
    """The near-miss report: ``OUT.csv`` (one row per episode of a pair: a run of ticks
    warned of or in contact) and ``OUT.png`` (timeline, one row per pair).

    Returns the timeline's rows, top to bottom: ``(pair, warned, touching)``, the spans
    ``(start, width)`` (s on the bag's time line) of the pair's warned ticks and of its
    ticks in contact (`_spans`)."""
    period = 1.0 / run.config.tick_rate

    def start(record):
        return min(t for t in (record.first_warning, record.contact_start) if not np.isnan(t))

    rows = sorted(run.pairs.items(), key=lambda kv: start(kv[1]))
    episodes = sorted(((pair, e) for pair, r in rows for e in r.episodes(period)),
                      key=lambda pe: start(pe[1]))
    base = run.time.epoch_ns * 1e-9
    with open(f'{output}.csv', 'w', newline='') as f:
        out = csv.writer(f)
        out.writerow(['pair', 'first_warning', 'min_time_to_collision', 'contact_start',
                      'contact_end', 'closest_approach'])
        for (a, b), r in episodes:
            out.writerow([f'{a}|{b}', _abs(base, r.first_warning),
                          '' if np.isinf(r.min_time_to_collision) else
                          repr(r.min_time_to_collision), _abs(base, r.contact_start),
                          _abs(base, r.contact_end),
                          '' if np.isinf(r.closest) else repr(r.closest)])
    closest = {pair for pair, _ in sorted(rows, key=lambda kv: (
        np.isnan(kv[1].contact_start), kv[1].min_time_to_collision))[:TIMELINE_ROWS]}
    drawn = [(pair, _spans([w[0] for w in r.warned], period),
              _spans([c[0] for c in r.touching], period)) for pair, r in rows if pair in closest]
    _timeline(drawn, f'{output}.png', len(rows))
    return drawn


def _abs(base, seconds):
    """Seconds of the bag's time line as absolute epoch seconds, '' when none."""
    return '' if np.isnan(seconds) else repr(base + seconds)


def _timeline(rows, path, total):
    """Draw `write_report`'s rows, ``(pair, warned, touching)`` spans, one row each from the
    top; `total` pairs in all."""
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state
    fig = Figure(figsize=(10, 1 + 0.4 * max(1, len(rows))))
    labels = [f'{a}|{b}' for (a, b), _, _ in rows]
    width = 10 * 0.1 + 0.075 * max(map(len, labels), default=0)  # inches of tick labels
    fig.subplots_adjust(left=width / 10, right=0.98, top=1 - 0.5 / fig.get_figheight(),
                        bottom=0.6 / fig.get_figheight())
    ax = fig.subplots()
    for k, (_, warned, touching) in enumerate(rows):
        ax.broken_barh(warned, (k - 0.3, 0.6), color='orange')
        ax.broken_barh(touching, (k - 0.3, 0.6), color='red')
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
    # SIGTERM ends the run as Ctrl-C does: the workers are stopped and the partial output
    # removed on the way out (Python's default would end the process on the spot).  Ctrl-C
    # too where the command was started with SIGINT ignored (in the background of a script)
    signal.signal(signal.SIGTERM, _terminated)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = replay(args.bag, args.params_file, args.output, args.node_name,
                     markers=not args.no_markers, jobs=args.jobs)
    except (OSError, ValueError) as err:
        print(f'collision_monitor_replay: {err}', file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        print(f'collision_monitor_replay: {stop.args[0] if stop.args else "interrupted"}; '
              f'no output written', file=sys.stderr)
        return 143 if stop.args else 130
    for reason, count in sorted(run.skipped.items()):
        print(f'skipped {count} input(s): {reason}')
    print(f'{len(run.pairs)} pairs warned or in contact; report {args.output}.csv, '
          f'timeline {args.output}.png')
    return 0


def _terminated(signum, frame):
    raise KeyboardInterrupt('terminated')


if __name__ == '__main__':
    sys.exit(main())
