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
"""The replay cut into blocks of the bag's time line, one process per core, exact at every
seam.

A block is a run of ticks ``[start, end)`` (integer ns on the replay's tick grid).  Its worker
reads the bag from the beginning.  Inputs received before the block's warm-up go into the
monitor without a tick, so the pose histories, footprints and first-seen flags come out as a
replay from the beginning leaves them, and the marker schedule moves on tick by tick; the
worker then ticks through the warm-up (`warmup_ns`) without output, and through its block
writing the block's own MCAP file.

A block's outputs are those of the one replay from the beginning when its worker's state at
its first tick (`Monitor.snapshot`) equals the state the previous block ends with.  When they
differ (a contact, a warning's debounce or a refused history older than the warm-up), the
worker of the previous block goes on through this block itself, from the exact state: the
result is always the sequential one, and only that block's speed-up is lost.

The output bag holds one MCAP file per block, in time order, listed in its
``metadata.yaml`` as ``ros2 bag record`` lists a bag split by duration.
"""

import dataclasses
import multiprocessing
from multiprocessing.connection import wait
import pathlib
import pickle
import shutil
import signal
import sys
import traceback
from typing import Optional

import numpy as np

from .replay import open_bag, Replay
from ..kernels.tuning import FEED_COST, MIN_BLOCK_SECONDS
from ..monitor.config import Config
from ..monitor.monitor import warmup
from ..ros.cdr import warmup as cdr_warmup
from ..ros.messages import OUTPUT_TOPICS


def warmup_ns(config):
    """How long (ns, whole tick periods) a block's worker ticks before its first tick: long
    enough for the pose histories (`history_window`), the staleness (`pose_timeout`) and the
    debounce (`trigger_ticks` + `release_ticks`) to forget where it started, and at least 2 s
    so that contacts and warnings that began before it have mostly ended."""
    period = round(1e9 / config.tick_rate)
    ticks = config.trigger_ticks + config.release_ticks + 2
    seconds = max(2.0, config.history_window + config.pose_timeout + ticks / config.tick_rate)
    return -(-round(seconds * 1e9) // period) * period


def block_starts(config, epoch_ns, end_ns, jobs):
    """The first tick (ns) of each block over the ticks from `epoch_ns` to `end_ns`: as many
    blocks as `jobs` allows with each at least `MIN_BLOCK_SECONDS` and four warm-ups long,
    made for equal worker times when reading ahead costs `FEED_COST` of ticking (each block
    shorter than the one before by `FEED_COST` times where that one starts)."""
    period = round(1e9 / config.tick_rate)
    shortest = max(round(MIN_BLOCK_SECONDS * 1e9), 4 * warmup_ns(config))
    ticks = (end_ns - epoch_ns) // period
    for count in range(max(1, jobs), 0, -1):
        starts = [0.0]  # in units of one worker's time; block k is 1 - FEED_COST * start long
        for _ in range(count):
            starts.append(starts[-1] + 1.0 - FEED_COST * starts[-1])
        scale = ticks / starts[-1]
        if count == 1 or (starts[-1] - starts[-2]) * scale * period >= shortest:
            return tuple(epoch_ns + round(s * scale) * period for s in starts[:-1])


@dataclasses.dataclass(frozen=True)
class Plan:
    """What every block's worker is given."""

    bag: str
    config: Config
    markers: bool
    node_name: str
    connections: tuple     # (topic, message type) of the inputs read
    epoch_ns: int          # the first tick: the first input's receive time
    starts: tuple          # the first tick of each block (`block_starts`)
    warmup_ns: int
    parts: pathlib.Path    # where the blocks' bags are written

    def end(self, block):
        """The first tick after `block`, None for the last block."""
        return self.starts[block + 1] if block + 1 < len(self.starts) else None

    def part(self, block, worker):
        """The bag directory of `block` written by `worker`."""
        return self.parts / f'block{block}.worker{worker}'


@dataclasses.dataclass
class BlockResult:
    """What a worker sends when it ends a block: the block's state at its end (None when the
    bag ended in it), its pair records and refusal counts."""

    block: int
    worker: int
    snapshot: Optional[bytes]
    pairs: dict
    skipped: dict


class _LongerWarmup(Exception):
    """A contact in the worker's monitor at its block's first tick has gone on since the first
    tick of the warm-up: when it began lies further back."""


def run_worker(plan, worker, link=None, on_tick=None):
    """Replay the blocks of `worker`, from block `worker` on; return the last `BlockResult`.

    With a `link` (a worker process's end of a pipe) it sends ``('start', worker,
    snapshot)`` at its block's first tick, a `BlockResult` at each block's end, and after
    each waits for ``'continue'`` (go on through the next block) or ``'stop'``.  Without one
    it replays from `worker`'s block to the end of the bag.  `on_tick(count)` is called with
    the number of ticks written so far.

    A contact that has lasted through the whole warm-up began before it, at a time the worker
    cannot know: it starts again with a warm-up twice as long, as long as that stays within
    the previous block (beyond, the previous block's worker would go on through this block
    sooner).
    """
    warmup()
    cdr_warmup()
    start = plan.starts[worker]
    warm_ns = plan.warmup_ns if worker else 0
    while True:
        longer = start - 2 * warm_ns >= plan.starts[worker - 1] if worker else False
        try:
            return _replay_from(plan, worker, start - warm_ns, longer, link, on_tick)
        except _LongerWarmup:
            warm_ns *= 2


def _replay_from(plan, worker, warm_from, longer, link, on_tick):
    """`run_worker` with its warm-up from tick `warm_from`; `longer`: raise `_LongerWarmup`
    for a contact as old as the warm-up."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import get_typestore, Stores
    typestore = get_typestore(Stores.ROS2_JAZZY)
    run = Replay(plan.config, plan.epoch_ns, markers=plan.markers)
    block, start, end = worker, plan.starts[worker], plan.end(worker)
    written = 0
    writer = topics = None

    def open_block():
        nonlocal writer, topics
        run.pairs, run.skipped = {}, {}
        path = plan.part(block, worker) if link else plan.parts
        writer = Writer(path, version=9, storage_plugin=StoragePlugin.MCAP)
        writer.open()
        topics = {name: writer.add_connection(f'/{plan.node_name}/{name}', topic.msgtype,
                                              typestore=typestore,
                                              offered_qos_profiles=[_offered(topic)])
                  for name, topic in OUTPUT_TOPICS.items()}

    def result(snapshot):
        writer.close()
        _as_ros_writes_it(writer.path)
        return BlockResult(block, worker, snapshot, run.pairs, run.skipped)

    if worker == 0:
        open_block()
    with open_bag(plan.bag) as reader:
        wanted = set(plan.connections)
        connections = [c for c in reader.connections if (c.topic, c.msgtype) in wanted]
        for connection, log_ns, raw in read_messages(reader, connections, plan.bag):
            if _STOP:
                sys.exit(128 + _STOP[0])
            for tick_ns in run.due(log_ns):
                if tick_ns == end:
                    link.send(result(run.monitor.snapshot()))
                    if link.recv() == 'stop':
                        return None
                    block, start, end = block + 1, end, plan.end(block + 1)
                    open_block()
                if tick_ns < warm_from:
                    run.pass_tick(tick_ns)
                    continue
                if tick_ns < start:
                    run.tick(tick_ns)
                    continue
                if writer is None:  # the first tick of the worker's own block
                    if longer and run.monitor.world.began_at(run.time.seconds(warm_from)):
                        raise _LongerWarmup
                    link.send(('start', worker, run.monitor.snapshot()))
                    open_block()
                for name, data in run.tick(tick_ns).items():
                    writer.write(topics[name], tick_ns, data)
                written += 1
                if on_tick:
                    on_tick(written)
            kind, who, _ = run.inputs[connection.topic]
            try:
                msg = None if kind in ('bulk', 'footprint') else typestore.deserialize_cdr(
                    raw, connection.msgtype)
            except Exception:  # rosbags' decoding of damaged bytes raises what it meets
                run.skip(f'a message on {connection.topic} cannot be decoded')
                continue
            run.take(kind, who, msg, raw, log_ns)
    if writer is None:  # the bag ended before this worker's block
        link.send(('empty', worker, None))
        return None
    last = result(None)
    if link:
        link.send(last)
    return last


def read_messages(reader, connections, bag):
    """`reader`'s messages of `connections`; a bag damaged past its index (a chunk that
    cannot be parsed) raises ValueError naming the bag and how far into it reading got."""
    messages = reader.messages(connections=connections)
    last = start = reader.start_time
    while True:
        try:
            item = next(messages)
        except StopIteration:
            return
        except Exception as err:  # rosbags' parsing of damaged bytes raises what it meets
            raise ValueError(f'{bag} cannot be read {(last - start) * 1e-9:.3f} s into it '
                             f'({type(err).__name__}: {err})') from err
        last = item[1]
        yield item


def _worker_main(plan, worker, link, parent_end, ticks):
    def count(written):
        ticks[worker] = written
    # a worker dies with its parent, however the parent ends (SIGKILL included): Linux sends
    # it SIGTERM then.  And it keeps no copy of the parent's end of its pipe (a fork
    # inherits one), or it would wait forever on a pipe whose other end it holds itself.
    _die_with_parent()
    parent_end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # terminate() (a block another worker replays on) leaves through Python's exit, whose
    # finalizers unlink the named semaphore numba's threading layer takes under forkserver.
    # A SystemExit raised inside a finalizer (llvmlite's) is swallowed there: the flag ends
    # the worker at its next message instead, and the swallowed one is not printed.
    signal.signal(signal.SIGTERM, _worker_terminated)
    sys.unraisablehook = _quiet_exit
    try:
        run_worker(plan, worker, link, count)
    except Exception as err:  # the parent raises it again (a bag that cannot be read, ...)
        try:
            pickle.dumps(err)
        except Exception:
            err = WorkerError(str(err))
        link.send(('error', worker, err, traceback.format_exc()))
    finally:
        # on its way out already: a terminate() now would raise SystemExit inside the exit's
        # finalizers and skip the one that unlinks the semaphore
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        link.close()


_STOP = []
"""The signal a worker was told to stop by (`_worker_terminated`)."""


def _worker_terminated(signum, frame):
    _STOP.append(signum)
    sys.exit(128 + signum)


def _quiet_exit(unraisable):
    """`sys.unraisablehook` of a worker: a SystemExit swallowed by a finalizer is expected
    (`_worker_terminated`); anything else is printed as Python prints it."""
    if not isinstance(unraisable.exc_value, SystemExit):
        sys.__unraisablehook__(unraisable)


def _die_with_parent():
    """prctl(PR_SET_PDEATHSIG, SIGTERM) where the C library has it (Linux)."""
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        pass


def _context():
    """fork where numba's threading layer has not started in this process (a fresh
    command: the workers share its imports), else forkserver (a process that ran parallel
    kernels under OpenMP cannot fork safely), whose server imports this module once."""
    import numba
    try:
        numba.threading_layer()
    except ValueError:  # not started
        return multiprocessing.get_context('fork')
    ctx = multiprocessing.get_context('forkserver')
    ctx.set_forkserver_preload([__name__])  # its imports once, in the server
    return ctx


class WorkerError(RuntimeError):
    """A block's worker failed with an exception that cannot be sent, or exited."""


def run_parallel(plan, on_progress=None):
    """Run every block in its own process and join them; return the `BlockResult` of each
    block in order, and how many blocks a previous block's worker had to go on through."""
    ctx = _context()
    ticks = ctx.Array('q', len(plan.starts), lock=False)
    links, processes = {}, {}
    for worker in range(len(plan.starts)):
        mine, theirs = ctx.Pipe()
        processes[worker] = ctx.Process(target=_worker_main,
                                        args=(plan, worker, theirs, mine, ticks), daemon=True)
        processes[worker].start()
        theirs.close()
        links[worker] = mine
    starts, ended, producer, chosen = {}, {}, {0: 0}, []
    redone = 0
    try:
        while True:
            for link in wait(list(links.values()), timeout=0.2):
                try:
                    message = link.recv()
                except EOFError:  # a worker that has said all it had to, or died
                    worker = next(w for w, lk in links.items() if lk is link)
                    links.pop(worker).close()
                    processes[worker].join()
                    if processes[worker].exitcode:
                        raise WorkerError(f'replay worker {worker} exited with code '
                                          f'{processes[worker].exitcode}') from None
                    continue
                if isinstance(message, BlockResult):
                    ended[(message.block, message.worker)] = message
                elif message[0] == 'error':  # its own exception, its traceback as cause
                    raise message[2] from WorkerError(
                        f'in replay worker {message[1]}:\n{message[3]}')
                else:
                    starts[message[1]] = message[2]
            if on_progress:
                on_progress(sum(ticks))
            # settle the seams in order: block b's result is its producer's
            while True:
                b = len(chosen)
                done = ended.get((b, producer.get(b)))
                if done is None:
                    break
                if done.snapshot is None:  # the bag ended in block b: its worker exits
                    chosen.append(done)
                    _stop(processes, links, producer[b], wait=True)
                    return chosen, redone
                if b + 1 not in starts:
                    break
                chosen.append(done)
                if starts[b + 1] == done.snapshot:
                    links[producer[b]].send('stop')
                    _stop(processes, links, producer[b], wait=True)
                    producer[b + 1] = b + 1
                else:  # the previous block's worker goes on with the exact state
                    links[producer[b]].send('continue')
                    producer[b + 1] = producer[b]
                    redone += 1
                    _stop(processes, links, b + 1)
                    shutil.rmtree(plan.part(b + 1, b + 1), ignore_errors=True)
    finally:
        for worker in list(processes):
            _stop(processes, links, worker)


def _stop(processes, links, worker, wait=False):
    """Close the link to `worker` and end it: let it exit (it was told to stop) or
    terminate it."""
    if worker in links:
        links.pop(worker).close()
    process = processes.pop(worker, None)
    if process is not None:
        if not wait:
            process.terminate()
        process.join()


def _offered(topic):
    """The QoS the node offers on an output topic (`messages.OutputTopic`), as rosbags takes
    it; rosbag2 writes durations that never end as these (sec, nsec)."""
    from rosbags.interfaces import (Qos, QosDurability, QosHistory, QosLiveliness,
                                    QosReliability, QosTime)
    never = QosTime(9223372036, 854775807)
    return Qos(QosHistory.KEEP_LAST, topic.depth, QosReliability.RELIABLE,
               QosDurability.TRANSIENT_LOCAL if topic.latched else QosDurability.VOLATILE,
               never, never, QosLiveliness.AUTOMATIC, never, False)


def _as_ros_writes_it(path):
    """Mend what rosbags writes in a bag's metadata.yaml and rosbag2 does not: the ROS
    distribution (the node's message types are Jazzy's), and a starting time of 0 for a
    bag with no message (rosbags writes the largest int64)."""
    import yaml
    meta = pathlib.Path(path) / 'metadata.yaml'
    whole = yaml.safe_load(meta.read_text())
    info = whole['rosbag2_bagfile_information']
    info['ros_distro'] = 'jazzy'
    for part in [info, *info['files']]:
        if not part['message_count']:
            part['starting_time']['nanoseconds_since_epoch'] = 0
            part['duration']['nanoseconds'] = 0
    meta.write_text(yaml.safe_dump(whole, sort_keys=False))


def merge_blocks(parts, output):
    """One rosbag2 bag at `output` of the blocks' bags `parts` (in time order): their MCAP
    files moved in as ``<output name>_<k>.mcap`` and one ``metadata.yaml`` listing them, the
    message counts summed."""
    import yaml
    output.mkdir()
    merged = None
    for k, part in enumerate(parts):
        (mcap,) = part.glob('*.mcap')
        name = f'{output.name}_{k}.mcap'
        mcap.rename(output / name)
        info = yaml.safe_load((part / 'metadata.yaml').read_text())['rosbag2_bagfile_information']
        (entry,) = info['files']
        entry['path'] = name
        if merged is None:
            merged = info
            merged['relative_file_paths'], merged['files'] = [name], [entry]
            continue
        merged['relative_file_paths'].append(name)
        merged['files'].append(entry)
        merged['message_count'] += info['message_count']
        counts = {t['topic_metadata']['name']: t['message_count']
                  for t in info['topics_with_message_count']}
        for topic in merged['topics_with_message_count']:
            topic['message_count'] += counts.get(topic['topic_metadata']['name'], 0)
    spans = [(f['starting_time']['nanoseconds_since_epoch'],
              f['starting_time']['nanoseconds_since_epoch'] + f['duration']['nanoseconds'])
             for f in merged['files'] if f['message_count']]
    first = min((start for start, _ in spans), default=0)
    merged['starting_time']['nanoseconds_since_epoch'] = first
    merged['duration']['nanoseconds'] = max((end for _, end in spans), default=0) - first
    (output / 'metadata.yaml').write_text(yaml.safe_dump(
        {'rosbag2_bagfile_information': merged}, sort_keys=False))


def merge_records(results):
    """The pair records of consecutive blocks as one replay's: first times from the first
    block that has them, the last contact end, the least time to collision and distance,
    the tick lists joined.  Refusal counts summed."""
    pairs, skipped = {}, {}
    for result in results:
        for reason, count in result.skipped.items():
            skipped[reason] = skipped.get(reason, 0) + count
        for key, r in result.pairs.items():
            m = pairs.setdefault(key, r)
            if m is r:
                continue
            if np.isnan(m.first_warning):
                m.first_warning = r.first_warning
            if np.isnan(m.contact_start):
                m.contact_start = r.contact_start
            if not np.isnan(r.contact_end):
                m.contact_end = r.contact_end
            m.min_time_to_collision = min(m.min_time_to_collision, r.min_time_to_collision)
            m.closest = min(m.closest, r.closest)
            m.warned += r.warned
            m.touching += r.touching
    return pairs, skipped
