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

import pytest

rosbags = pytest.importorskip('rosbags')

from rosbags.rosbag2 import Reader, StoragePlugin, Writer  # noqa: E402
from rosbags.typesys import get_typestore, Stores  # noqa: E402

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
T0 = 1_700_000_000 * 10**9
STORE = get_typestore(Stores.ROS2_JAZZY)


def pose(t_ns, x, frame='map'):
    msgs = STORE.types
    time = msgs['builtin_interfaces/msg/Time'](sec=t_ns // 10**9, nanosec=t_ns % 10**9)
    header = msgs['std_msgs/msg/Header'](stamp=time, frame_id=frame)
    point = msgs['geometry_msgs/msg/Point'](x=x, y=0.0, z=0.0)
    orientation = msgs['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0, w=1.0)
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
