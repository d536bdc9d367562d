# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Message conversions: the raw PoseArray reader against rclpy's own serializer."""

from geometry_msgs.msg import Pose, PoseArray
from hypothesis import given, strategies as st
import numpy as np
import pytest
from rclpy.serialization import serialize_message

from collision_monitor.ros.messages import pose_array_from_cdr


def pose_array(frame, rows, sec=12, nanosec=345):
    msg = PoseArray()
    msg.header.frame_id = frame
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    for r in rows:
        p = Pose()
        (p.position.x, p.position.y, p.position.z, p.orientation.x, p.orientation.y,
         p.orientation.z, p.orientation.w) = map(float, r)
        msg.poses.append(p)
    return msg


@given(st.text(alphabet='abcdefgh_/', max_size=13), st.integers(0, 12), st.integers(0, 2**31 - 1),
       st.integers(0, 999999999))
def test_raw_reader_matches_the_serializer(frame, n, sec, nanosec):
    rows = np.random.default_rng(n).normal(size=(n, 7))
    data = serialize_message(pose_array(frame, rows, sec, nanosec))
    stamp, got_frame, got = pose_array_from_cdr(data, n)
    assert got_frame == frame
    assert stamp == pytest.approx(sec + nanosec * 1e-9)
    assert np.array_equal(got, rows)


@pytest.mark.parametrize('cut', [3, 10, 20, 40])
def test_truncated_or_mismatched_messages_are_refused(cut):
    data = serialize_message(pose_array('map', np.zeros((3, 7))))
    with pytest.raises(ValueError):
        pose_array_from_cdr(data[:cut], 3)
    with pytest.raises(ValueError, match='3 poses for 2 bodies'):
        pose_array_from_cdr(data, 2)


def test_every_pose_type_of_the_configuration_has_a_reader():
    from collision_monitor.monitor.config import POSE_TYPES
    from collision_monitor.ros.messages import POSE_INPUTS
    assert set(POSE_INPUTS) == set(POSE_TYPES)
    for name, reader in POSE_INPUTS.items():
        msg = reader.message()
        assert name.endswith('/' + type(msg).__name__)
        assert type(reader.pose(msg)).__name__ == 'Pose'
        assert reader.twist is None or type(reader.twist(msg)).__name__ == 'Twist'
