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
"""Offline replay: a bag written here goes through the monitor; the output bag, the report
and the refusals are checked against the scripted motion."""

import csv
import inspect
import io
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

rosbags = pytest.importorskip('rosbags')

from rosbags.rosbag2 import Reader, StoragePlugin, Writer  # noqa: E402
from rosbags.typesys import get_typestore, Stores  # noqa: E402

from collision_monitor.tools import replay as replay_module  # noqa: E402
from collision_monitor.tools.replay import main, replay  # noqa: E402

SQUARE = '"[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]"'
PARAMS = f"""
/**:
  ros__parameters:
    tick_rate: 50.0
    trigger_ticks: 1
    bodies: [a, b]
    a: {{pose_topic: /a, footprint: {SQUARE}}}
    b: {{pose_topic: /b, footprint: {SQUARE}}}
"""
ROOT = pathlib.Path(__file__).resolve().parents[1]
T0 = 1_700_000_000 * 10**9
STORE = get_typestore(Stores.ROS2_JAZZY)


def pose(t_ns, x, frame='map', y=0.0, yaw=0.0):
    msgs = STORE.types
    time = msgs['builtin_interfaces/msg/Time'](sec=t_ns // 10**9, nanosec=t_ns % 10**9)
    header = msgs['std_msgs/msg/Header'](stamp=time, frame_id=frame)
    point = msgs['geometry_msgs/msg/Point'](x=x, y=y, z=0.0)
    orientation = msgs['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=math.sin(yaw / 2),
                                                       w=math.cos(yaw / 2))
    return msgs['geometry_msgs/msg/PoseStamped'](
        header=header, pose=msgs['geometry_msgs/msg/Pose'](position=point,
                                                           orientation=orientation))


def write_bag(path, seconds=4.0, rate=50, first_a=None):
    """a at rest at 0, b from x = 4 towards it at 1 m/s: faces meet at t = 3 s; `first_a`, a
    serialized message written on /a before the others."""
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conns = {t: writer.add_connection(t, 'geometry_msgs/msg/PoseStamped', typestore=STORE)
                 for t in ('/a', '/b')}
        if first_a is not None:
            writer.write(conns['/a'], T0 - 10**6, first_a)
        for k in range(int(seconds * rate)):
            t = T0 + k * 10**9 // rate
            for topic, x in (('/a', 0.0), ('/b', 4.0 - k / rate)):
                data = STORE.serialize_cdr(pose(t, x), conns[topic].msgtype)
                writer.write(conns[topic], t, data)


@pytest.fixture
def params(tmp_path):
    path = tmp_path / 'params.yaml'
    path.write_text(PARAMS)
    return path


def test_replay_warns_then_reports_the_contact(tmp_path, params):
    write_bag(tmp_path / 'in')
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False,
                 log=lambda *_: None)
    record = run.pairs[('a', 'b')]
    # warned from the start (TTC 3 s > horizon 2 s only until t = 1), contact at t = 3
    assert record.first_warning == pytest.approx(1.0, abs=0.05)
    assert record.contact_start == pytest.approx(3.0, abs=1e-6)
    assert record.closest == 0.0 and record.min_time_to_collision < 0.05
    with Reader(tmp_path / 'out') as reader:
        topics = {c.topic: c.msgcount for c in reader.connections}
        assert topics['/collision_monitor/contacts'] == topics['/collision_monitor/warnings']
        assert topics['/collision_monitor/contacts'] >= 199  # 50 Hz for 4 s
        stamps = [t for _, t, _ in reader.messages()]
        assert stamps == sorted(stamps) and stamps[0] >= T0
    rows = list(csv.DictReader(open(f'{tmp_path / "out"}.csv')))
    assert rows[0]['pair'] == 'a|b'
    assert float(rows[0]['contact_start']) == pytest.approx(T0 * 1e-9 + 3.0, abs=1e-6)
    # the contact lasts to the end of the bag: it ends at the last tick, on the last poses
    # (3.98 s at 50 Hz)
    assert float(rows[0]['contact_end']) == pytest.approx(T0 * 1e-9 + 3.98, abs=1e-6)
    assert (tmp_path / 'out.png').stat().st_size > 1000


def test_bad_inputs_are_counted_and_named(tmp_path, params):
    other = STORE.serialize_cdr(pose(T0, 0.0, frame='odom'), 'geometry_msgs/msg/PoseStamped')
    write_bag(tmp_path / 'in', seconds=1.0, first_a=other)
    messages = []
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False,
                 log=messages.append)
    assert run.skipped.get('wrong frame') == 1


def test_a_bag_that_cannot_be_read_is_one_error_line(tmp_path, params, capsys):
    (tmp_path / 'in').mkdir()
    (tmp_path / 'in' / 'metadata.yaml').write_text('rosbag2_bagfile_information: {version: 9')
    code = main([str(tmp_path / 'in'), '--params-file', str(params), '--output',
                 str(tmp_path / 'out')])
    assert code == 2
    assert 'collision_monitor_replay: ' in capsys.readouterr().err


def test_an_existing_output_is_not_overwritten(tmp_path, params, capsys):
    write_bag(tmp_path / 'in', seconds=0.2)
    (tmp_path / 'out').mkdir()
    code = main([str(tmp_path / 'in'), '--params-file', str(params), '--output',
                 str(tmp_path / 'out')])
    assert code == 2 and 'exists already' in capsys.readouterr().err


def test_a_bare_mcap_file_replays_like_its_bag(tmp_path, params):
    write_bag(tmp_path / 'in', seconds=3.5)
    (mcap,) = (tmp_path / 'in').glob('*.mcap')
    run = replay(mcap, params, tmp_path / 'out', progress=False, log=lambda *_: None)
    assert run.pairs[('a', 'b')].contact_start == pytest.approx(3.0, abs=1e-6)


def test_a_damaged_chunk_is_one_error_line(tmp_path, params, capsys):
    write_bag(tmp_path / 'in', seconds=4.0)
    (mcap,) = (tmp_path / 'in').glob('*.mcap')
    data = bytearray(mcap.read_bytes())
    at = len(data) // 2  # inside the messages: record lengths read as 2^64 - 1
    data[at:at + 2000] = b'\xff' * 2000
    mcap.write_bytes(bytes(data))
    code = main([str(tmp_path / 'in'), '--params-file', str(params), '--output',
                 str(tmp_path / 'out')])
    err = capsys.readouterr().err
    assert code == 2 and err.count('\n') == 1
    assert f'{tmp_path / "in"} cannot be read' in err
    assert not (tmp_path / 'out').exists()  # nothing half-written left behind


def write_motion_bag(path, motions, seconds, rate=50, extra=()):
    """Each body's pose on /<name> at `rate` from ``motions[name](t) -> x or None`` (None:
    nothing published then); `extra`, (topic, msgtype, log_ns, message) written too."""
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conns = {b: writer.add_connection(f'/{b}', 'geometry_msgs/msg/PoseStamped',
                                          typestore=STORE) for b in motions}
        for topic, msgtype, t, msg in extra:
            conn = writer.add_connection(topic, msgtype, typestore=STORE)
            writer.write(conn, t, STORE.serialize_cdr(msg, msgtype))
        for k in range(int(seconds * rate)):
            t = T0 + k * 10**9 // rate
            for b, motion in motions.items():
                x = motion(k / rate)
                if x is not None:
                    writer.write(conns[b], t, STORE.serialize_cdr(pose(t, x),
                                                                  conns[b].msgtype))


def test_each_episode_of_a_pair_is_a_row_of_its_own(tmp_path, params):
    """b runs at 2 m/s onto a (contact from 2 s), back off (contact until 3 s, then moving
    away, never warned), and onto it again at 5 s (contact from 7 s): two episodes, two rows,
    each with its own start and end (one row from the first start to the last end said
    nothing true)."""
    def b(t):
        return 2.0 * abs(t - 2.5) if t < 5.0 else 5.0 - 2.0 * (t - 5.0)
    write_motion_bag(tmp_path / 'in', {'a': lambda t: 0.0, 'b': b}, 7.5)
    replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    rows = list(csv.DictReader(open(f'{tmp_path / "out"}.csv')))
    base = T0 * 1e-9
    assert len(rows) == 2 and all(r['pair'] == 'a|b' and r['first_warning'] for r in rows)
    assert float(rows[0]['contact_start']) - base == pytest.approx(2.0, abs=1e-6)
    assert float(rows[0]['contact_end']) - base == pytest.approx(3.0, abs=0.021)
    assert float(rows[1]['first_warning']) - base > 3.0
    assert float(rows[1]['contact_start']) - base == pytest.approx(7.0, abs=1e-6)


def test_the_closest_approach_is_one_the_recorded_poses_reach(tmp_path, params):
    """b comes at 1 m/s and stops dead with the faces 0.30 m apart: the closest approach is
    0.30 m, not where the motion estimate carries b a tick past the stop (0.28 m)."""
    write_motion_bag(tmp_path / 'in', {'a': lambda t: 0.0,
                                       'b': lambda t: 3.0 - min(t, 1.7)}, 3.0)
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False,
                 log=lambda *_: None)
    record = run.pairs[('a', 'b')]
    assert not record.touching and record.closest == pytest.approx(0.30, abs=1e-9)


def odometry(t_ns, x, vx):
    """nav_msgs/Odometry of a body at (x, 0) heading along x at vx (m/s) in its own frame."""
    msgs = STORE.types
    vector = msgs['geometry_msgs/msg/Vector3']
    return msgs['nav_msgs/msg/Odometry'](
        header=pose(t_ns, x).header, child_frame_id='b',
        pose=msgs['geometry_msgs/msg/PoseWithCovariance'](pose=pose(t_ns, x).pose,
                                                          covariance=np.zeros(36)),
        twist=msgs['geometry_msgs/msg/TwistWithCovariance'](
            twist=msgs['geometry_msgs/msg/Twist'](linear=vector(x=vx, y=0.0, z=0.0),
                                                  angular=vector(x=0.0, y=0.0, z=0.0)),
            covariance=np.zeros(36)))


def write_inputs(path, types, inputs):
    """A bag of `inputs`, (log_ns, topic, message or raw bytes), on topics of `types`."""
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conns = {topic: writer.add_connection(topic, msgtype, typestore=STORE)
                 for topic, msgtype in types.items()}
        for t, topic, msg in sorted(inputs, key=lambda row: row[0]):
            data = msg if isinstance(msg, bytes) else STORE.serialize_cdr(msg, types[topic])
            writer.write(conns[topic], t, data)


def test_a_topic_recorded_with_two_types_uses_every_pose(tmp_path, params):
    """/b holds 150 PoseStamped and one Odometry (a second connection): the poses are all
    taken (b reaches a at 3 s), the Odometry is named and counted."""
    odom = odometry(T0, 9.0, 0.0)
    write_motion_bag(tmp_path / 'in', {'a': lambda t: 0.0, 'b': lambda t: 4.0 - t}, 3.5,
                     extra=[('/b', 'nav_msgs/msg/Odometry', T0 + 5 * 10**7, odom)])
    said = []
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=said.append)
    assert run.pairs[('a', 'b')].contact_start == pytest.approx(3.0, abs=1e-6)
    assert 'topic /b holds 1 message(s) of nav_msgs/msg/Odometry, expected ' \
           'geometry_msgs/msg/PoseStamped: skipped' in said


def test_a_parameter_file_with_a_wildcard_and_a_node_section_applies_both(tmp_path):
    """As rcl does: /** first, then the node's own section, which wins where both give a
    value."""
    from collision_monitor.tools.replay import load_parameters
    path = tmp_path / 'p.yaml'
    path.write_text('/**:\n  ros__parameters:\n    horizon: 3.0\n    tick_rate: 20.0\n'
                    'collision_monitor:\n  ros__parameters:\n    horizon: 1.0\n'
                    '    bodies: [a]\n    a: {pose_topic: /a}\n')
    assert load_parameters(path) == {'horizon': 1.0, 'tick_rate': 20.0, 'bodies': ['a'],
                                     'a.pose_topic': '/a'}


def test_a_namespaced_node_section_applies_and_other_nodes_do_not(tmp_path):
    """rcl's order: /**, then the node's name with or without its slash, then the node in a
    namespace, wherever the file lists it; a section of another node, or of a node whose
    name only ends like this one's, is not read.  A file with no section for the node names
    itself."""
    from collision_monitor.tools.replay import load_parameters
    path = tmp_path / 'p.yaml'
    path.write_text('/**:\n  ros__parameters: {horizon: 3.0, tick_rate: 20.0, trigger_ticks: 4}\n'
                    '/fleet/collision_monitor:\n  ros__parameters: {horizon: 1.0}\n'
                    '/collision_monitor:\n  ros__parameters: {horizon: 2.0, release_ticks: 7}\n'
                    '/fleet/other_collision_monitor:\n  ros__parameters: {tick_rate: 5.0}\n'
                    'planner:\n  ros__parameters: {trigger_ticks: 9}\n')
    assert load_parameters(path) == {'horizon': 1.0, 'tick_rate': 20.0, 'trigger_ticks': 4,
                                     'release_ticks': 7}
    other = tmp_path / 'q.yaml'
    other.write_text('planner:\n  ros__parameters: {horizon: 1.0}\n')
    with pytest.raises(ValueError) as err:
        load_parameters(other)
    assert str(err.value) == f"{other}: no ros__parameters for /** or 'collision_monitor'"


def test_the_inputs_of_a_configuration_are_its_pose_footprint_and_source_topics():
    """Each topic the replay reads, with its kind, whose it is and the message type the bag
    must hold: a body's pose (its pose_type), its footprint topic, a bulk source."""
    from collision_monitor.tools.replay import config_from_parameters, input_topics
    square = SQUARE.strip('"')
    config = config_from_parameters({
        'bodies': ['a', 'b', 'p'], 'sources': ['', 'tracker'],
        'a.pose_topic': '/a/odom', 'a.pose_type': 'nav_msgs/Odometry', 'a.footprint': square,
        'a.footprint_topic': '/a/footprint',
        'b.static': True, 'b.footprint': square, 'p.footprint': square,
        'tracker.topic': '/tracker/poses', 'tracker.bodies': ['p']})
    assert [(s.name, s.topic) for s in config.sources] == [('tracker', '/tracker/poses')]
    assert input_topics(config) == {
        '/a/odom': ('pose', 0, 'nav_msgs/msg/Odometry'),
        '/a/footprint': ('footprint', 0, 'geometry_msgs/msg/PolygonStamped'),
        '/tracker/poses': ('bulk', 'tracker', 'geometry_msgs/msg/PoseArray')}


@pytest.mark.parametrize('gap, episodes', [(0.75, 1), (0.7500001, 2), (1.0, 2)])
def test_an_episode_ends_after_a_gap_of_more_than_one_and_a_half_ticks(gap, episodes):
    """Ticks of 0.5 s: warned at 0 and again `gap` later is one episode up to exactly 1.5
    periods, two beyond."""
    from collision_monitor.tools.replay import PairRecord
    record = PairRecord()
    record.add_warning(0.0, 1.0, 0.5)
    record.add_warning(gap, 1.0, 0.5)
    assert len(record.episodes(0.5)) == episodes


def test_a_bag_that_cannot_be_opened_names_its_cause_on_one_line(tmp_path):
    """The error of a metadata.yaml that is not YAML: its cause's own words, each run of
    white space (the YAML parser's message spans lines) made one space."""
    from collision_monitor.tools.replay import open_bag
    path = tmp_path / 'folder'
    path.mkdir()
    (path / 'metadata.yaml').write_text('rosbag2_bagfile_information:\n  version: [9\n'
                                        '  : : {\n\t-')
    with pytest.raises(ValueError) as err:
        with open_bag(path):
            pass
    cause = ' '.join(str(err.value.__cause__).split())
    assert len(cause) > 10 and str(err.value) == f'cannot read {path}: {cause}'


def bag_folder_of(tmp_path, mcap_bytes):
    folder = tmp_path / 'folder'
    folder.mkdir()
    (folder / 'x.mcap').write_bytes(mcap_bytes)
    (folder / 'metadata.yaml').write_text(
        'rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: mcap\n'
        '  duration: {nanoseconds: 0}\n  starting_time: {nanoseconds_since_epoch: 0}\n'
        '  message_count: 0\n  topics_with_message_count: []\n  compression_format: ""\n'
        '  compression_mode: ""\n  relative_file_paths: [x.mcap]\n  files: []\n'
        '  custom_data: {}\n  ros_distro: jazzy\n')
    return folder


@pytest.mark.parametrize('bag', ['mcap magic only', 'in a bag folder', 'metadata not YAML'])
def test_an_unreadable_bag_is_one_line_and_exit_2(tmp_path, params, bag):
    """The eight bytes of the MCAP magic alone (a file cut short: rosbags' parser raised a
    TypeError), as a file or inside a bag folder, and a metadata.yaml that is not YAML."""
    magic = b'\x89MCAP0\r\n'
    if bag == 'mcap magic only':
        path = tmp_path / 'cut.mcap'
        path.write_bytes(magic)
    elif bag == 'in a bag folder':
        path = bag_folder_of(tmp_path, magic)
    else:
        path = tmp_path / 'folder'
        path.mkdir()
        (path / 'metadata.yaml').write_text('rosbag2_bagfile_information:\n  version: [9\n'
                                            '  : : {\n\t-')
    done = subprocess.run([sys.executable, '-m', 'collision_monitor.tools.replay', str(path),
                           '--params-file', str(params), '--output', str(tmp_path / 'out')],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f'collision_monitor_replay: cannot read '
                                                   f'{path}'), done.stderr


def test_progress_off_a_terminal_is_a_line_at_each_tenth():
    """Into a log file the bar is not redrawn: one line per tenth of the time line, the first
    wherever the first update falls, and never past 100 %."""
    from collision_monitor.tools.replay import Progress
    out = io.StringIO()
    bar = Progress(0, 10**9, stream=out)
    for k in range(1001):
        bar.update(k * 10**6)
    bar.close()
    lines = out.getvalue().splitlines()
    assert '\r' not in out.getvalue() and len(lines) == 11
    assert [line.split()[1] for line in lines] == [f'{10 * k}%' for k in range(11)]
    out = io.StringIO()
    bar = Progress(2 * 10**9, 4 * 10**9, stream=out)
    bar.update(23 * 10**8)   # first at 15 %: 0.3 s of 2 s
    bar.update(5 * 10**9)    # past the end
    assert [line.split()[1:3] for line in out.getvalue().splitlines()] == [
        ['15%', '0.3'], ['100%', '2.0']]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_redraws_one_line_at_most_five_times_a_second(monkeypatch):
    """On a terminal: one line redrawn in place (a 30-character bar), skipped while the last
    drawing is under 0.2 s old; `close` draws the end state and ends the line."""
    from collision_monitor.tools import replay as module
    clock = iter([10.0, 10.0, 10.1, 10.3, 10.4])  # made, then each drawing's reading
    monkeypatch.setattr(module.time, 'perf_counter', lambda: next(clock))
    out = Terminal()
    bar = module.Progress(5 * 10**9, 15 * 10**9, stream=out)
    bar.update(5 * 10**9)       # drawn: 0 %
    bar.update(7 * 10**9)       # 0.1 s later: skipped
    bar.update(8 * 10**9)       # 0.3 s after the first: drawn, 30 %
    bar.close()                 # drawn whatever the clock: 100 %, and the line ends
    # 0 %: nothing replayed yet; 30 %: 3 s of bag in 0.3 s; 100 %: 10 s in 0.4 s
    assert out.getvalue() == (
        f'\rreplay [{"." * 30}]   0%  0.0 of 10.0 s  0x real time '
        f'\rreplay [{"#" * 9}{"." * 21}]  30%  3.0 of 10.0 s  10x real time '
        f'\rreplay [{"#" * 30}] 100%  10.0 of 10.0 s  25x real time \n')


def test_a_replay_that_fails_leaves_its_progress_short_of_the_end(tmp_path, params, capsys,
                                                                  monkeypatch):
    """A replay that fails part way (here its worker, two ticks of 50 into the bag) draws no
    100 % line, and leaves no output behind."""
    from collision_monitor.tools import replay_blocks

    def failing(plan, worker, on_tick=None):
        on_tick(1)
        on_tick(2)
        raise ValueError('worn out')
    monkeypatch.setattr(replay_blocks, 'run_worker', failing)
    write_bag(tmp_path / 'in', seconds=1.0)
    with pytest.raises(ValueError, match='worn out'):
        replay(tmp_path / 'in', params, tmp_path / 'out', log=lambda *_: None, jobs=1)
    assert [line.split()[1] for line in capsys.readouterr().err.splitlines()] == ['2%']
    assert not (tmp_path / 'out').exists()


def test_the_replay_runs_with_no_ros_package_importable(tmp_path, params):
    """`pip install 'collision_monitor[replay]'` brings no ROS: the command replays a bag
    with rclpy and every message package made unimportable."""
    write_bag(tmp_path / 'in', seconds=3.5)
    blocker = tmp_path / 'no_ros'
    blocker.mkdir()
    (blocker / 'sitecustomize.py').write_text(
        'import sys\n'
        'class NoRos:\n'
        '    def find_spec(self, name, path=None, target=None):\n'
        '        if name.split(".")[0] in {"rclpy", "diagnostic_msgs", "geometry_msgs",\n'
        '                                  "nav_msgs", "visualization_msgs", "std_msgs",\n'
        '                                  "builtin_interfaces", "rosidl_runtime_py"}:\n'
        '            raise ImportError(f"{name} is blocked: no ROS here")\n'
        'sys.meta_path.insert(0, NoRos())\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(blocker), str(ROOT)]))
    done = subprocess.run([sys.executable, '-m', 'collision_monitor.tools.replay',
                           str(tmp_path / 'in'), '--params-file', str(params), '--output',
                           str(tmp_path / 'out'), '--jobs', '1'],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert '1 pairs warned or in contact' in done.stdout
    check = subprocess.run([sys.executable, '-c', 'import rclpy'], capture_output=True,
                           text=True, env=env)
    assert 'blocked: no ROS here' in check.stderr  # the blocker works


def test_the_output_bag_offers_the_nodes_qos_and_names_jazzy(tmp_path, params):
    """ros2 bag play publishes each topic with the QoS its metadata offers: the node's (the
    state latched for late joiners).  A bag with no message starts at 0, not at 2^63 - 1."""
    import yaml
    write_bag(tmp_path / 'in', seconds=1.0)
    replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    info = yaml.safe_load((tmp_path / 'out' / 'metadata.yaml').read_text())[
        'rosbag2_bagfile_information']
    assert info['ros_distro'] == 'jazzy'
    offered = {t['topic_metadata']['name']: t['topic_metadata']['offered_qos_profiles']
               for t in info['topics_with_message_count']}
    for name, durability, depth in (('contacts', 'volatile', 10), ('state', 'transient_local', 1),
                                    ('markers', 'volatile', 10), ('warnings', 'volatile', 10)):
        (qos,) = offered[f'/collision_monitor/{name}']
        assert (qos['reliability'], qos['durability'], qos['history'], qos['depth']) == (
            'reliable', durability, 'keep_last', depth), (name, qos)
    # a bag whose input topic holds no message: no tick, an output bag with no message
    with Writer(tmp_path / 'silent', version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        writer.add_connection('/a', 'geometry_msgs/msg/PoseStamped', typestore=STORE)
    replay(tmp_path / 'silent', params, tmp_path / 'empty', progress=False,
           log=lambda *_: None)
    info = yaml.safe_load((tmp_path / 'empty' / 'metadata.yaml').read_text())[
        'rosbag2_bagfile_information']
    assert info['message_count'] == 0
    assert info['starting_time']['nanoseconds_since_epoch'] == 0


@pytest.mark.slow
def test_the_replay_extra_installs_and_runs_in_a_clean_venv(tmp_path, params):
    """`pip install 'collision_monitor[replay]'` into a venv of its own (no ROS there: the
    check above blocks imports, this one proves the extra's dependencies are complete) and
    its command replays a bag."""
    venv = tmp_path / 'venv'
    subprocess.run([sys.executable, '-m', 'venv', str(venv)], check=True, timeout=120)
    python = venv / 'bin' / 'python'
    done = subprocess.run([str(python), '-m', 'pip', 'install', '--quiet',
                           f'{ROOT}[replay]'], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert subprocess.run([str(python), '-c', 'import rclpy'], capture_output=True).returncode
    write_bag(tmp_path / 'in', seconds=3.5)
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'NUMBA_CACHE_DIR')}
    done = subprocess.run([str(venv / 'bin' / 'collision_monitor_replay'), str(tmp_path / 'in'),
                           '--params-file', str(params), '--output', str(tmp_path / 'out')],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert '1 pairs warned or in contact' in done.stdout


def polygon(t_ns, points, frame):
    msgs = STORE.types
    time = msgs['builtin_interfaces/msg/Time'](sec=t_ns // 10**9, nanosec=t_ns % 10**9)
    return msgs['geometry_msgs/msg/PolygonStamped'](
        header=msgs['std_msgs/msg/Header'](stamp=time, frame_id=frame),
        polygon=msgs['geometry_msgs/msg/Polygon'](points=[
            msgs['geometry_msgs/msg/Point32'](x=x, y=y, z=0.0) for x, y in points]))


def pose_array(t_ns, xs, frame='map'):
    msgs = STORE.types
    time = msgs['builtin_interfaces/msg/Time'](sec=t_ns // 10**9, nanosec=t_ns % 10**9)
    return msgs['geometry_msgs/msg/PoseArray'](
        header=msgs['std_msgs/msg/Header'](stamp=time, frame_id=frame),
        poses=[pose(t_ns, x).pose for x in xs])


def test_footprint_topics_and_bulk_sources_are_replayed_as_the_node_takes_them(tmp_path):
    """a, at rest at 0 with a 1 m square, is given a 2 m square on its footprint topic at
    0.5 s; p, a tracker's only body, comes from x = 4 at 1 m/s in PoseArrays stamped 0 (taken
    at their receive time): the faces meet at 2.5 s, not 3.  Each refusal is counted under
    the node's words: footprints cut short, posed in the map before a's first pose (stamped
    1 s early) or with their points on a line; a PoseArray of two poses, and one stamped
    1 ns (older than p's newest pose)."""
    params = tmp_path / 'params.yaml'
    params.write_text(f"""
/**:
  ros__parameters:
    tick_rate: 50.0
    trigger_ticks: 1
    bodies: [a, p]
    sources: ['', tracker]
    a: {{pose_topic: /a, footprint: {SQUARE}, footprint_topic: /a/footprint}}
    p: {{footprint: {SQUARE}}}
    tracker: {{topic: /tracker/poses, bodies: [p]}}
""")
    big = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
    types = {'/a': 'geometry_msgs/msg/PoseStamped',
             '/tracker/poses': 'geometry_msgs/msg/PoseArray',
             '/a/footprint': 'geometry_msgs/msg/PolygonStamped'}
    cut = bytes(STORE.serialize_cdr(polygon(T0, big, 'a'), types['/a/footprint']))[:30]
    inputs = [(T0 + 10**8, '/a/footprint', cut),
              (T0 + 2 * 10**8, '/a/footprint', polygon(T0 - 10**9, big, 'map')),
              (T0 + 3 * 10**8, '/a/footprint', polygon(0, [(0, 0), (1, 0), (2, 0)], 'a')),
              (T0 + 5 * 10**8, '/a/footprint', polygon(0, big, 'a')),
              (T0 + 10**9 + 10**6, '/tracker/poses', pose_array(0, [3.0, 3.0])),
              (T0 + 15 * 10**8 + 10**6, '/tracker/poses', pose_array(1, [2.5]))]
    for k in range(175):  # 3.5 s at 50 Hz
        t = T0 + k * 10**9 // 50
        inputs += [(t, '/a', pose(t, 0.0)), (t, '/tracker/poses', pose_array(0, [4.0 - k / 50]))]
    write_inputs(tmp_path / 'in', types, inputs)
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    assert run.pairs[('a', 'p')].contact_start == pytest.approx(2.5, abs=1e-6)
    assert run.skipped == {
        'footprint refused: truncated message': 1,
        "footprint refused: footprint in 'map' stamped where the body has no pose to bring "
        'it into its own frame': 1,
        "footprint refused: footprint of 'a' is not a simple polygon: it has zero area": 1,
        'bulk message refused: 2 poses for 1 bodies': 1,
        'out-of-order stamp': 1}


def test_odometry_twists_and_unstamped_poses_are_taken_as_the_node_takes_them(tmp_path):
    """b stands at x = 2.6 and its nav_msgs/Odometry says it drives at 1 m/s towards a: the
    twist is its velocity, so the pair is warned about 1.6 s ahead from the first ticks (its poses
    alone say it stands).  a's poses are stamped 0 (taken at their receive time); one
    stamped 1 ns and a twist of 2 km/s are refused and counted.  Markers go out at their
    own rate (10 Hz), not every tick."""
    params = tmp_path / 'params.yaml'
    params.write_text(PARAMS.replace('b: {pose_topic: /b,',
                                     'b: {pose_topic: /b, pose_type: nav_msgs/Odometry,'))
    types = {'/a': 'geometry_msgs/msg/PoseStamped', '/b': 'nav_msgs/msg/Odometry'}
    inputs = [(T0 + 10**9 + 10**6, '/a', pose(1, 0.0)),
              (T0 + 15 * 10**8 + 10**6, '/b', odometry(T0 + 15 * 10**8 + 10**6, 2.6, -2e3))]
    for k in range(150):  # 3 s at 50 Hz
        t = T0 + k * 10**9 // 50
        inputs += [(t, '/a', pose(0, 0.0)), (t, '/b', odometry(t, 2.6, -1.0))]
    write_inputs(tmp_path / 'in', types, inputs)
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    record = run.pairs[('a', 'b')]
    assert record.first_warning < 0.1 and math.isnan(record.contact_start)
    # each tick is one period (20 ms) after the pose it takes, carried on at 1 m/s
    assert record.min_time_to_collision == pytest.approx(1.58, abs=1e-6)
    assert record.closest == pytest.approx(1.6, abs=1e-9)
    assert run.skipped == {'out-of-order stamp': 1, 'twist out of range': 1}
    with Reader(tmp_path / 'out') as reader:
        topics = {c.topic: c.msgcount for c in reader.connections}
    assert topics['/collision_monitor/contacts'] == 150
    assert topics['/collision_monitor/markers'] == 30


def test_a_pair_touching_from_the_start_and_a_body_ahead_of_the_ticks_are_recorded(tmp_path):
    """c overlaps a from the first tick (a contact never warned before), and a's clock runs
    0.4 s ahead of the recorder's, so no recorded pose of a reaches back to a tick (its
    distance to b is unknown while b is warned): both pairs are recorded, b meeting a at
    3 s."""
    params = tmp_path / 'params.yaml'
    params.write_text(PARAMS.replace('bodies: [a, b]', 'bodies: [a, b, c]')
                      + f'    c: {{pose_topic: /c, footprint: {SQUARE}}}\n')
    types = {f'/{b}': 'geometry_msgs/msg/PoseStamped' for b in 'abc'}
    inputs = []
    for k in range(175):  # 3.5 s at 50 Hz
        t = T0 + k * 10**9 // 50
        inputs += [(t, '/a', pose(t + 4 * 10**8, 0.0)), (t, '/b', pose(t, 4.0 - k / 50)),
                   (t, '/c', pose(t, -0.5))]
    write_inputs(tmp_path / 'in', types, inputs)
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    assert run.pairs[('a', 'c')].contact_start < 0.1
    assert math.isnan(run.pairs[('a', 'c')].first_warning)
    record = run.pairs[('a', 'b')]
    assert record.first_warning == pytest.approx(1.0, abs=0.05)
    assert record.contact_start == pytest.approx(3.0, abs=1e-6)


def test_the_closest_approach_places_turned_bodies_away_from_the_origin(tmp_path):
    """a (1 m square) rests at (5, 2); b, a 2 m long wedge (its tail wider on one side, so
    neither it nor the scene is symmetric) turned 30 degrees, comes along y = 2.3 and stops
    dead at x = 7: the closest approach is shapely's distance between the two recorded
    footprints there."""
    shapely = pytest.importorskip('shapely')
    bar = [[1.0, 0.1], [-1.0, 0.4], [-1.0, -0.1], [1.0, -0.1]]
    params = tmp_path / 'params.yaml'
    params.write_text(PARAMS.replace(f'b: {{pose_topic: /b, footprint: {SQUARE}}}',
                                     f'b: {{pose_topic: /b, footprint: "{bar}"}}'))
    yaw = math.radians(30.0)
    types = {'/a': 'geometry_msgs/msg/PoseStamped', '/b': 'geometry_msgs/msg/PoseStamped'}
    inputs = []
    for k in range(150):  # 3 s at 50 Hz
        t = T0 + k * 10**9 // 50
        inputs += [(t, '/a', pose(t, 5.0, y=2.0)),
                   (t, '/b', pose(t, 9.0 - min(k / 50, 2.0), y=2.3, yaw=yaw))]
    write_inputs(tmp_path / 'in', types, inputs)
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    c, s = math.cos(yaw), math.sin(yaw)
    placed = shapely.Polygon([(7.0 + c * x - s * y, 2.3 + s * x + c * y) for x, y in bar])
    square = shapely.Polygon([(5.0 + x, 2.0 + y) for x, y in
                              [(0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)]])
    record = run.pairs[('a', 'b')]
    assert not record.touching
    assert record.closest == pytest.approx(placed.distance(square), abs=1e-9)


def test_the_time_line_starts_at_the_first_input_and_progress_shows_each_tenth(
        tmp_path, params, capsys):
    """A bag whose first message (1 s before the poses) is on a topic the monitor does not
    read: the ticks start at the first pose (150 in 3 s).  A configured topic missing from
    the bag is named.  Progress, on by default, writes a line at each tenth into a log."""
    params.write_text(PARAMS.replace('bodies: [a, b]', 'bodies: [a, b, c]')
                      + f'    c: {{pose_topic: /c, footprint: {SQUARE}}}\n')
    types = {'/a': 'geometry_msgs/msg/PoseStamped', '/b': 'geometry_msgs/msg/PoseStamped',
             '/chatter': 'std_msgs/msg/String'}
    inputs = [(T0 - 10**9, '/chatter', STORE.types['std_msgs/msg/String'](data='hello'))]
    for k in range(150):
        t = T0 + k * 10**9 // 50
        inputs += [(t, '/a', pose(t, 0.0)), (t, '/b', pose(t, 4.0 - k / 50))]
    write_inputs(tmp_path / 'in', types, inputs)
    said = []
    replay(tmp_path / 'in', params, tmp_path / 'out', log=said.append)
    assert said == ['topic /c is not in the bag: its body gets no input from it']
    with Reader(tmp_path / 'out') as reader:
        topics = {c.topic: c.msgcount for c in reader.connections}
    assert topics['/collision_monitor/contacts'] == 150
    lines = capsys.readouterr().err.splitlines()  # bag seconds at each tenth of 3 s
    assert [line.split()[2] for line in lines] == [f'{0.3 * k:.1f}' for k in range(11)]


def test_a_bag_without_any_configured_topic_is_refused_by_name(tmp_path, params):
    types = {'/chatter': 'std_msgs/msg/String'}
    write_inputs(tmp_path / 'in', types,
                 [(T0, '/chatter', STORE.types['std_msgs/msg/String'](data='hello'))])
    with pytest.raises(ValueError) as err:
        replay(tmp_path / 'in', params, tmp_path / 'out', progress=False, log=lambda *_: None)
    assert str(err.value) == f'{tmp_path / "in"}: none of the configured input topics is in ' \
                             f'the bag'


def test_the_report_lists_each_episode_and_draws_the_forty_closest_pairs(tmp_path):
    """41 pairs, pair k warned at k/10 s, again 0.02 s later and once more after a tick
    without (two episodes: ticks are 0.02 s apart), its least time to collision 1 + k/100 s;
    pair 0 also touches at 0.5 s.  The CSV has a row per episode in the order they start,
    times as epoch seconds; the timeline draws the 40 closest pairs (contacts first, then
    the least time to collision) in the order they start, each run of ticks one span that
    ends a tick after its last."""
    from collision_monitor.tools.replay import (config_from_parameters, PairRecord, Replay,
                                                write_report)
    names = [f'b{k:02d}' for k in range(41)]
    config = config_from_parameters({'tick_rate': 50.0, 'bodies': ['a', *names],
                                     **{f'{b}.footprint': SQUARE.strip('"')
                                        for b in ['a', *names]},
                                     **{f'{b}.static': True for b in ['a', *names]}})
    run = Replay(config, 5 * 10**9)
    for k, b in enumerate(names):
        record = run.pairs[('a', b)] = PairRecord()
        for dt in (0.0, 0.02, 0.06):
            record.add_warning(k / 10 + dt, 1.0 + k / 100, math.inf if k == 0 else 0.3)
    run.pairs[('a', 'b00')].add_contact(0.5, 0.49)
    drawn = write_report(run, tmp_path / 'r')
    assert [pair for pair, _, _ in drawn] == [('a', b) for b in names[:40]]
    for k, (_, warned, touching) in enumerate(drawn):
        assert np.allclose(warned, [(k / 10, 0.04), (k / 10 + 0.06, 0.02)], rtol=0, atol=1e-12)
        assert np.allclose(touching, [(0.5, 0.02)], rtol=0, atol=1e-12) if k == 0 else \
            touching == []
    with open(f'{tmp_path / "r"}.csv') as f:
        assert next(csv.reader(f)) == ['pair', 'first_warning', 'min_time_to_collision',
                                       'contact_start', 'contact_end', 'closest_approach']
        rows = list(csv.reader(f))
    assert len(rows) == 2 * 41 + 1
    assert rows[:3] == [['a|b00', '5.0', '1.0', '', '', ''], ['a|b00', '5.06', '1.0', '', '', ''],
                        ['a|b01', '5.1', '1.01', '', '', '0.3']]
    assert ['a|b00', '', '', '5.49', '5.5', '0.0'] in rows


def test_the_command_names_what_is_missing_under_its_own_name(capsys):
    """Without --params-file and --output the command stops with argparse's usage error, under
    its own name; --help shows the module's first paragraph."""
    doc = inspect.getdoc(replay_module)
    with pytest.raises(SystemExit) as stop:
        main(['in.mcap'])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith('usage: collision_monitor_replay ')
    assert err.rstrip().endswith('collision_monitor_replay: error: the following arguments '
                                 'are required: --params-file, --output')
    with pytest.raises(SystemExit):
        main(['--help'])
    assert ' '.join(doc.split('\n\n')[0].split()) in ' '.join(capsys.readouterr().out.split())
