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
"""The replay in blocks, one process each, against the replay in one: every output message
byte for byte, the report line for line, whether the seams hold or a block must be replayed
on from the one before."""

import math
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

rosbags = pytest.importorskip('rosbags')

from rosbags.rosbag2 import Reader, StoragePlugin, Writer  # noqa: E402
from rosbags.typesys import get_typestore, Stores  # noqa: E402

from collision_monitor.tools import replay_blocks  # noqa: E402
from collision_monitor.tools.replay import replay  # noqa: E402

STORE = get_typestore(Stores.ROS2_JAZZY)
T0 = 1_700_000_000 * 10**9
SQUARE = '"[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]"'


def params(path, bodies):
    path.write_text('\n'.join(
        ['/**:', '  ros__parameters:', '    tick_rate: 50.0', '    marker_rate: 10.0',
         f'    bodies: [{", ".join(bodies)}]']
        + [f'    {b}: {{pose_topic: /{b}, footprint: {SQUARE}}}' for b in bodies]) + '\n')
    return path


def pose_cdr(t_ns, x, y, yaw):
    msgs = STORE.types
    header = msgs['std_msgs/msg/Header'](
        stamp=msgs['builtin_interfaces/msg/Time'](sec=t_ns // 10**9, nanosec=t_ns % 10**9),
        frame_id='map')
    pose = msgs['geometry_msgs/msg/Pose'](
        position=msgs['geometry_msgs/msg/Point'](x=x, y=y, z=0.0),
        orientation=msgs['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=math.sin(yaw / 2),
                                                         w=math.cos(yaw / 2)))
    return STORE.serialize_cdr(msgs['geometry_msgs/msg/PoseStamped'](header=header, pose=pose),
                               'geometry_msgs/msg/PoseStamped')


def write_bag(path, motions, seconds, rate=50):
    """Each body's pose at 50 Hz from ``motions[name](t) -> (x, y, yaw)``."""
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conns = {b: writer.add_connection(f'/{b}', 'geometry_msgs/msg/PoseStamped',
                                          typestore=STORE) for b in motions}
        for k in range(int(seconds * rate)):
            t_ns = T0 + k * 10**9 // rate
            for b, motion in motions.items():
                writer.write(conns[b], t_ns, pose_cdr(t_ns, *motion(k / rate)))


def messages(bag):
    with Reader(bag) as reader:
        return [(c.topic, t, bytes(raw)) for c, t, raw in reader.messages()]


def both_ways(tmp_path, motions, seconds, monkeypatch, jobs=3):
    """Replay once in one process and once in `jobs` blocks (of at least four warm-ups,
    8 s); return the
    runs, the messages and what the block replay logged."""
    monkeypatch.setattr(replay_blocks, 'MIN_BLOCK_SECONDS', 3.0)
    write_bag(tmp_path / 'in', motions, seconds)
    config = params(tmp_path / 'params.yaml', list(motions))
    one = replay(tmp_path / 'in', config, tmp_path / 'one', progress=False, jobs=1,
                 log=lambda *_: None)
    said = []
    blocks = replay(tmp_path / 'in', config, tmp_path / 'blocks', progress=False, jobs=jobs,
                    log=said.append)
    return one, blocks, messages(tmp_path / 'one'), messages(tmp_path / 'blocks'), said


def swing(period, amplitude, phase=0.0):
    """x of a body swinging towards a body at the origin and back: contact while x < 1."""
    return lambda t: (1.6 + amplitude * math.cos(2 * math.pi * t / period + phase), 0.2,
                      0.3 * math.sin(t))


def test_blocks_whose_seams_hold_give_the_replay_of_one(tmp_path, monkeypatch):
    # short contacts and warnings every 2.5 s, none long enough to reach over a warm-up
    motions = {'a': lambda t: (0.0, 0.0, 0.0), 'b': swing(2.5, 0.9),
               'c': lambda t: (-3.0 + 0.1 * math.sin(t), 2.0, 0.0)}
    one, blocks, a, b, said = both_ways(tmp_path, motions, 28.0, monkeypatch)
    assert not said  # no block was replayed on from the one before
    assert len(list((tmp_path / 'blocks').glob('*.mcap'))) == 3
    assert len(a) == len(b) and a == b
    assert one.skipped == blocks.skipped
    assert (tmp_path / 'one.csv').read_text() == (tmp_path / 'blocks.csv').read_text()
    contacts = sum(1 for topic, _, _ in a if topic.endswith('/contacts'))
    assert contacts == 28 * 50


def test_a_contact_older_than_the_warm_up_gets_a_longer_one(tmp_path, monkeypatch):
    # b touches a from about 7 s to 13 s, over the first seam (10.3 s) and past the start of
    # its 2 s warm-up: the worker starts again with 4 s, so the seam holds
    motions = {'a': lambda t: (0.0, 0.0, 0.0), 'b': swing(20.0, 0.9)}
    one, blocks, a, b, said = both_ways(tmp_path, motions, 28.0, monkeypatch)
    assert not said
    assert a == b
    began = blocks.pairs[('a', 'b')].contact_start
    assert began == one.pairs[('a', 'b')].contact_start < 10.3 - 2.0


def test_a_contact_older_than_the_warm_up_is_carried_over_the_seams(tmp_path, monkeypatch):
    # c rests against a for the whole bag: a block's worker cannot know when it began, so
    # the worker of the block before goes on, and the start time stays the first tick after
    # the first poses
    motions = {'a': lambda t: (0.0, 0.0, 0.0), 'b': swing(3.0, 0.9),
               'c': lambda t: (-0.95, 0.1 * math.sin(t), 0.0)}
    one, blocks, a, b, said = both_ways(tmp_path, motions, 28.0, monkeypatch)
    assert said == ['2 of 3 blocks were replayed on from the block before (a contact or '
                    'warning older than the warm-up ran into them)']
    assert a == b
    assert (tmp_path / 'one.csv').read_text() == (tmp_path / 'blocks.csv').read_text()
    assert blocks.pairs[('a', 'c')].contact_start == pytest.approx(0.02)


def test_block_starts_lie_on_the_tick_grid_and_respect_the_shortest_block():
    from collision_monitor.tools.replay import config_from_parameters
    config = config_from_parameters({'bodies': ['a'], 'a.footprint': SQUARE.strip('"'),
                                     'a.pose_topic': '/a', 'tick_rate': 30.0})
    period = round(1e9 / 30.0)
    end = T0 + 100 * 10**9
    starts = replay_blocks.block_starts(config, T0, end, 4)
    assert len(starts) == 4 and starts[0] == T0
    assert all((s - T0) % period == 0 for s in starts)
    lengths = np.diff([*starts, end])
    assert (np.diff(lengths) < 0).all() and lengths[-1] >= 10 * 10**9
    # a block's worker time: its ticks, and FEED_COST of a tick for each tick before it
    work = lengths + replay_blocks.FEED_COST * (np.array(starts) - T0)
    assert work.max() - work.min() < 2 * period
    # 24 blocks would be shorter than 10 s at the end: as many as can be
    many = replay_blocks.block_starts(config, T0, end, 24)
    assert end - many[-1] >= 10 * 10**9
    assert replay_blocks.block_starts(config, T0, end, len(many) + 1) == many
    assert replay_blocks.block_starts(config, T0, T0 + 15 * 10**9, 8) == (T0,)
    warm = replay_blocks.warmup_ns(config)
    assert warm % period == 0 and warm >= 2 * 10**9


def test_blocks_from_a_fork_server_leave_no_semaphore_behind(tmp_path):
    """A process that has run numba's threads replays through a fork server; there numba's
    threading layer takes a named semaphore in each worker, which a worker ended by
    terminate() (its block replayed on by the one before) must still unlink on its way out:
    Python's resource tracker names any left at the process's exit."""
    motions = {'a': lambda t: (0.0, 0.0, 0.0), 'b': swing(3.0, 0.9),
               'c': lambda t: (-0.95, 0.1 * math.sin(t), 0.0)}
    write_bag(tmp_path / 'in', motions, 28.0)
    config = params(tmp_path / 'params.yaml', list(motions))
    script = tmp_path / 'run.py'
    script.write_text('\n'.join([
        'import numba', 'import numpy as np',
        'from collision_monitor.tools import replay_blocks',
        'from collision_monitor.tools.replay import replay', '',
        '@numba.njit(parallel=True)', 'def touch(a):',
        '    for i in numba.prange(a.shape[0]):', '        a[i] += 1.0', '',
        "if __name__ == '__main__':",
        '    touch(np.zeros(4))', '    replay_blocks.MIN_BLOCK_SECONDS = 3.0',
        f'    replay({str(tmp_path / "in")!r}, {str(config)!r}, {str(tmp_path / "out")!r}, '
        'progress=False, jobs=3, log=print)', '']))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr
    assert 'replayed on' in done.stdout  # workers were ended early
    assert 'leaked' not in done.stderr, done.stderr


def test_the_command_forks_its_blocks_and_writes_what_one_process_writes(tmp_path):
    # a fresh process has started no numba threads: its blocks are forked from it
    motions = {'a': lambda t: (0.0, 0.0, 0.0), 'b': swing(2.5, 0.9)}
    write_bag(tmp_path / 'in', motions, 28.0)
    config = params(tmp_path / 'params.yaml', list(motions))
    replay(tmp_path / 'in', config, tmp_path / 'one', progress=False, jobs=1,
           log=lambda *_: None)
    command = [sys.executable, '-m', 'collision_monitor.tools.replay', str(tmp_path / 'in'),
               '--params-file', str(config), '--output', str(tmp_path / 'blocks')]
    done = subprocess.run(command + ['--jobs', '2'], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / 'blocks').glob('*.mcap'))) == 2
    assert messages(tmp_path / 'one') == messages(tmp_path / 'blocks')
    refused = subprocess.run(command + ['--jobs', '0'], capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2 and '--jobs: expected a whole number' in refused.stderr


def replay_processes(marker):
    """Process ids whose command line holds `marker` (the parent and its forked workers)."""
    done = subprocess.run(['pgrep', '-f', marker], capture_output=True, text=True)
    return {int(p) for p in done.stdout.split()}


@pytest.mark.parametrize('signum', [signal.SIGTERM, signal.SIGINT])
def test_a_replay_stopped_while_its_blocks_run_leaves_nothing_behind(tmp_path, signum):
    """SIGTERM or Ctrl-C while two workers replay their blocks: one line says so, the
    workers end with the parent, no output and no hidden block folder stay, and the same
    command run again works."""
    motions = {'a': lambda t: (0.0, 0.0, 0.0), 'b': swing(2.5, 0.9)}
    write_bag(tmp_path / 'in', motions, 120.0)
    config = params(tmp_path / 'params.yaml', list(motions))
    out = tmp_path / 'stopped'
    command = [sys.executable, '-m', 'collision_monitor.tools.replay', str(tmp_path / 'in'),
               '--params-file', str(config), '--output', str(out), '--jobs', '2']
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    blocks = tmp_path / '.stopped.blocks'
    deadline = time.monotonic() + 120.0
    while not any(blocks.glob('*')) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # polling for the workers' first files, not a fixed wait
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == (143 if signum == signal.SIGTERM else 130), err
    assert err.strip().splitlines()[-1].startswith('collision_monitor_replay: ') and \
        'Traceback' not in err, err
    deadline = time.monotonic() + 30.0
    while replay_processes(str(out)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not replay_processes(str(out))
    assert not out.exists() and not blocks.exists()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
