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
"""Poses in other frames: the composition against transforms3d, the lookup with a fake tf2
buffer (tolerance, latest, missing), and the refusal without tf2_ros."""

from types import SimpleNamespace

from hypothesis import given, strategies as st
import numpy as np
import pytest
import transforms3d

from collision_monitor.ros.frames import (apply_transform, apply_transform_rows, Frames,
                                          NO_TF2)

unit = st.tuples(*[st.floats(-1, 1)] * 4).filter(lambda q: np.linalg.norm(q) > 0.1)
vec3 = st.tuples(*[st.floats(-100, 100)] * 3)


def as_matrix(translation, q):
    """4x4 homogeneous matrix of a transform, q as (x, y, z, w), by transforms3d."""
    x, y, z, w = np.asarray(q) / np.linalg.norm(q)
    return transforms3d.affines.compose(translation, transforms3d.quaternions.quat2mat(
        [w, x, y, z]), [1, 1, 1])


@given(vec3, unit, vec3, unit)
def test_apply_transform_composes_as_homogeneous_matrices(t, q, p, qp):
    q = tuple(np.asarray(q) / np.linalg.norm(q))
    got = apply_transform(t, q, (*p, *qp))
    expected = as_matrix(t, q) @ as_matrix(p, qp)
    assert np.allclose(got[:3], expected[:3, 3], atol=1e-9)
    assert np.allclose(as_matrix(got[:3], got[3:])[:3, :3], expected[:3, :3], atol=1e-9)
    rows = apply_transform_rows(t, q, np.array([[*p, *qp]] * 3))
    assert np.allclose(rows, [got] * 3, atol=1e-12)


def transform(x, y, yaw, sec):
    """A TransformStamped-like object: translation (x, y, 0), rotation yaw about z."""
    return SimpleNamespace(
        header=SimpleNamespace(stamp=SimpleNamespace(sec=sec, nanosec=0)),
        transform=SimpleNamespace(
            translation=SimpleNamespace(x=x, y=y, z=0.0),
            rotation=SimpleNamespace(x=0.0, y=0.0, z=np.sin(yaw / 2), w=np.cos(yaw / 2))))


class FakeBuffer:
    """map <- odom known at stamps 10 s and (as the latest) 12 s; nothing from 'lost'."""

    def lookup_transform(self, target, source, time):
        assert target == 'map'
        if source == 'odom' and time in (10 * 10**9, 0):
            return transform(5.0, 0.0, np.pi / 2, 10 if time else 12)
        raise LookupError(f'{source} at {time}')


def frames(tolerance_s=0.5):
    return Frames(FakeBuffer(), 'map', round(tolerance_s * 1e9), (LookupError,), lambda ns: ns)


def test_a_pose_in_odom_comes_into_map_at_its_stamp():
    pose, reason = frames().into_frame_id('odom', 10 * 10**9, (1.0, 0.0, 0.0, 0, 0, 0, 1))
    assert reason is None
    assert np.allclose(pose[:3], [5.0, 1.0, 0.0])  # odom x is map y, shifted 5 in x
    assert np.allclose(pose[3:], [0, 0, np.sin(np.pi / 4), np.cos(np.pi / 4)])


def test_the_latest_transform_serves_within_the_tolerance_only():
    near, _ = frames(2.5).into_frame_id('odom', 11 * 10**9, (0.0, 0.0, 0.0, 0, 0, 0, 1))
    assert np.allclose(near[:3], [5.0, 0.0, 0.0])
    far, reason = frames(0.5).into_frame_id('odom', 11 * 10**9, (0.0, 0.0, 0.0, 0, 0, 0, 1))
    assert far is None and 'transform_tolerance' in reason


def test_unknown_frames_and_no_tf2_are_refused_with_the_reason():
    pose, reason = frames().into_frame_id('lost', 10 * 10**9, (0.0, 0.0, 0.0, 0, 0, 0, 1))
    assert pose is None and "no transform from 'lost' to 'map'" in reason
    bare = Frames(None, 'map', 0)
    assert bare.into_frame_id('odom', 1, (0.0,) * 6 + (1.0,)) == (None, NO_TF2)
    assert bare.into_frame_id('map', 1, (1.0,) * 7)[0] == (1.0,) * 7  # frame_id passes
    assert not bare.available and bare.body_pose('robot') == (0, None, NO_TF2)


def test_a_body_from_tf_alone_takes_the_latest_transform():
    stamp, pose, reason = frames().body_pose('odom')
    assert reason is None and stamp == 12 * 10**9 and np.allclose(pose[:2], [5.0, 0.0])


def test_bulk_rows_in_another_frame():
    rows = np.array([[1.0, 0.0, 0.0, 0, 0, 0, 1], [0.0, 2.0, 0.0, 0, 0, 0, 1]])
    moved, reason = frames().rows_into_frame_id('odom', 10 * 10**9, rows)
    assert reason is None and np.allclose(moved[:, :2], [[5.0, 1.0], [3.0, 0.0]])


class LateBuffer:
    """map <- odom known only as the latest, stamped 12.25 s (a nanosecond part)."""

    def lookup_transform(self, target, source, time):
        if source == 'odom' and time == 0:
            latest = transform(5.0, 0.0, 0.0, 12)
            latest.header.stamp.nanosec = 250_000_000
            return latest
        raise LookupError(f'{source} at {time}')


@pytest.mark.parametrize('tolerance_ns, served',
                         [(1_250_000_000, True), (1_249_999_999, False)])
def test_the_latest_transform_serves_up_to_the_tolerance_in_nanoseconds(tolerance_ns, served):
    """A pose at 11 s and the latest transform at 12.25 s are 1.25 s apart, nanoseconds
    counted: a tolerance of exactly that serves, a nanosecond less does not, and the refusal
    says how far off it was."""
    frames = Frames(LateBuffer(), 'map', tolerance_ns, (LookupError,), lambda ns: ns)
    pose, reason = frames.into_frame_id('odom', 11 * 10**9, (0.0, 0.0, 0.0, 0, 0, 0, 1))
    if served:
        assert reason is None and np.allclose(pose[:3], [5.0, 0.0, 0.0])
    else:
        assert pose is None and reason == ("no transform from 'odom' to 'map' within "
                                           'transform_tolerance of the stamp (1.250 s off)')


def test_a_body_from_tf_alone_is_stamped_to_the_nanosecond_or_refused_with_the_reason():
    frames = Frames(LateBuffer(), 'map', 0, (LookupError,), lambda ns: ns)
    stamp, pose, reason = frames.body_pose('odom')
    assert reason is None and stamp == 12_250_000_000
    assert frames.body_pose('lost') == (0, None, "no transform from 'lost' to 'map': lost at 0")


def test_a_frame_never_known_is_refused_with_the_buffers_words():
    """Neither at the stamp nor as the latest: the reason quotes the buffer's error of the
    latest lookup."""
    pose, reason = frames().into_frame_id('lost', 10 * 10**9, (0.0, 0.0, 0.0, 0, 0, 0, 1))
    assert pose is None and reason == "no transform from 'lost' to 'map': lost at 0"


@pytest.mark.ros
def test_without_tf2_ros_a_tf_frame_body_is_a_configuration_error(tmp_path):
    pytest.importorskip('rclpy')
    try:
        import tf2_ros  # noqa: F401
        pytest.skip('tf2_ros is installed here')
    except ImportError:
        pass
    from test_node_config import errors, params, run
    code, log = run(tmp_path, params('', ', tf_frame: robot/base_footprint, pose_topic: ""'))
    assert code == 1 and 'a.tf_frame: tracking a body from tf needs tf2_ros' in errors(log)[0]
