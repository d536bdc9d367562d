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
"""The parameter table: one source for Config, run-time updates and the README."""

import dataclasses
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from collision_monitor.monitor.config import (BODY_PARAMETERS, BodyConfig, build_config,
                                              default_values, GLOBAL_PARAMETERS, markdown_table,
                                              parse_footprint, parse_ignore_pairs, REBUILT,
                                              RUNTIME_PARAMETERS, runtime_update, runtime_value,
                                              SOURCE_PARAMETERS, waiting_for)

ROOT = pathlib.Path(__file__).resolve().parents[1]
SQUARE = '[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]'


def two_bodies(**changes):
    values = default_values()
    values.update(bodies=['a', 'b'], **changes)
    body = {'pose_topic': '', 'pose_type': 'geometry_msgs/PoseStamped', 'footprint': SQUARE,
            'footprint_topic': '', 'static': True, 'pose': [0.0, 0.0, 0.0]}
    return build_config(values, {'a': body, 'b': body}, {})


def another_value(p):
    """A valid value different from the default, chosen from the table's own range."""
    if p.name == 'predictor':
        return 'constant_velocity'
    if p.name == 'ignore_pairs':
        return ['a|b']
    lo, hi = p.limits
    value = type(p.default)((lo + hi) / 2)
    return value if value != p.default else type(p.default)(hi)


def test_readme_table_is_generated_from_the_parameter_table():
    assert markdown_table() in (ROOT / 'README.md').read_text()
    assert markdown_table(full=True) in (ROOT / 'docs' / 'parameters.md').read_text()


def test_the_module_prints_the_tables_the_docs_hold():
    """``python -m collision_monitor.monitor.config [--full]`` prints the README's and
    docs/parameters.md's table, exactly; importing the module prints nothing."""
    def run(*args):
        return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                              check=True, cwd=ROOT).stdout
    assert run('-m', 'collision_monitor.monitor.config') == markdown_table()
    assert run('-m', 'collision_monitor.monitor.config', '--full') == markdown_table(full=True)
    assert run('-c', 'import collision_monitor.monitor.config') == ''


def test_the_readme_lists_each_parameter_with_the_first_sentence_of_its_description():
    """The short table is the full one cut to each description's first sentence: a row per
    parameter, each a prefix of its full text that ends a sentence."""
    short = markdown_table().splitlines()[2:]
    full = markdown_table(full=True).splitlines()[2:]
    assert len(short) == len(full) == len(GLOBAL_PARAMETERS) + len(BODY_PARAMETERS) + len(
        SOURCE_PARAMETERS)
    for s, f in zip(short, full):
        brief, whole = s.split(' | ')[-1].rstrip(' |'), f.split(' | ')[-1].rstrip(' |')
        assert whole.startswith(brief) and brief.endswith('.'), (brief, whole)
        assert len(brief.split()) <= 24, brief


def test_config_holds_every_global_parameter_at_its_default():
    config = two_bodies()
    for p in RUNTIME_PARAMETERS:
        assert runtime_value(config, p.name) == p.default
    assert config.frame_id == 'map' and config.autostart is True and config.gate.body == ''


@pytest.mark.parametrize('param', RUNTIME_PARAMETERS, ids=lambda p: p.name)
def test_every_runtime_parameter_reaches_the_config(param):
    """A new run-time parameter is applied by the table alone: changing it changes the
    Config, and nothing else."""
    config = two_bodies(**{'gate.slowdown_time': 60.0})  # any stop_time is valid below it
    value = another_value(param)
    updated = runtime_update(config, {param.name: value})
    assert runtime_value(updated, param.name) == value
    for other in RUNTIME_PARAMETERS:
        if other is not param:
            assert runtime_value(updated, other.name) == runtime_value(config, other.name)


@pytest.mark.parametrize('changes, message', [
    ({'horizon': 0.0}, 'horizon'), ({'predictor': 'psychic'}, 'predictor'),
    ({'gate.stop_time': 2.0}, 'slowdown_time'), ({'ignore_pairs': ['a|z']}, 'unknown'),
    ({'frame_id': 'odom'}, 'frame_id: read only'), ({'tick_rate': 10.0}, 'tick_rate'),
])
def test_bad_runtime_changes_name_the_parameter(changes, message):
    with pytest.raises(ValueError, match=message):
        runtime_update(two_bodies(), changes)


def test_a_read_only_parameter_is_refused_by_its_name_alone():
    """The first read-only parameter of a change, in name order, is named, and nothing else
    is said: the node relays this text as the reason of its refusal."""
    with pytest.raises(ValueError) as refused:
        runtime_update(two_bodies(), {'frame_id': 'odom', 'autostart': False, 'horizon': 1.0})
    assert str(refused.value) == 'autostart: read only while the node runs'


def test_runtime_parameters_are_those_marked_in_the_table():
    """Those of `runtime_update`; bodies and sources, also run-time, rebuild the monitor."""
    assert {p.name for p in RUNTIME_PARAMETERS} == {
        p.name for p in GLOBAL_PARAMETERS if not p.read_only} - set(REBUILT)
    assert 'horizon' in {p.name for p in RUNTIME_PARAMETERS}


def test_footprint_padding_follows_nav2():
    """Each vertex moves `padding` away from the origin along x and y: a 1 x 0.6 rectangle
    about its centre padded by 0.1 becomes 1.2 x 0.8; a vertex on an axis keeps that zero."""
    from collision_monitor.monitor.config import pad_footprint
    rect = [[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]
    assert pad_footprint(rect, 0.1).tolist() == [[0.6, 0.4], [-0.6, 0.4], [-0.6, -0.4],
                                                 [0.6, -0.4]]
    assert pad_footprint([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]], 0.5).tolist() == [
        [1.5, 0.0], [0.0, 1.5], [-1.5, 0.0]]
    padded = two_bodies(footprint_padding=0.1)
    assert padded.bodies[0].footprint.tolist() == [[0.6, 0.6], [-0.6, 0.6], [-0.6, -0.6],
                                                   [0.6, -0.6]]


def test_each_body_takes_its_own_predictor_else_its_sources_else_the_global_one():
    values = default_values()
    values.update(bodies=['a', 'b', 'c', 'd'], sources=['crowd'], predictor='arc')
    body = {'footprint': SQUARE, 'pose_topic': '/p'}
    member = {'footprint': SQUARE}
    bodies = {'a': {**body, 'predictor': 'holonomic'}, 'b': body,
              'c': {**member, 'predictor': 'constant_velocity'}, 'd': member}
    crowd = {'crowd': {'topic': '/crowd', 'bodies': ['c', 'd'], 'predictor': 'holonomic'}}
    config = build_config(values, bodies, crowd)
    assert [b.predictor for b in config.bodies] == ['holonomic', '', 'constant_velocity',
                                                    'holonomic']
    from collision_monitor.monitor.monitor import Monitor
    assert [m.name.lower() for m in Monitor(config).world.predictors()] == [
        'holonomic', 'arc', 'constant_velocity', 'holonomic']
    with pytest.raises(ValueError, match='a.predictor: expected one of arc, holonomic'):
        build_config(values, {**bodies, 'a': {**body, 'predictor': 'psychic'}}, crowd)
    with pytest.raises(ValueError, match='crowd.predictor'):
        build_config(values, bodies, {'crowd': {**crowd['crowd'], 'predictor': 'straight'}})


def _param(name, table=GLOBAL_PARAMETERS):
    return next(p for p in table if p.name == name)


@pytest.mark.parametrize('name, table, value, message', [
    ('horizon', GLOBAL_PARAMETERS, 1000.0,
     'horizon: expected a number from 0.01 to 60.0 s, got 1000.0'),
    ('trigger_ticks', GLOBAL_PARAMETERS, 2.5,
     'trigger_ticks: expected an integer from 1 to 1000, got 2.5'),
    ('horizon', GLOBAL_PARAMETERS, True,
     'horizon: expected a number from 0.01 to 60.0 s, got True'),
    ('trigger_ticks', GLOBAL_PARAMETERS, True,
     'trigger_ticks: expected an integer from 1 to 1000, got True'),
    ('autostart', GLOBAL_PARAMETERS, 'yes', "autostart: expected true or false, got 'yes'"),
    ('frame_id', GLOBAL_PARAMETERS, 5, 'frame_id: expected a string, got 5'),
    ('bodies', GLOBAL_PARAMETERS, 5, 'bodies: expected a list of strings, got 5'),
    ('pose', BODY_PARAMETERS, [1.0, 2.0], 'pose: expected a list of 3 numbers, got [1.0, 2.0]'),
    ('pose', BODY_PARAMETERS, [1.0, 'x', 0.0],
     "pose: expected a list of 3 numbers, got [1.0, 'x', 0.0]"),
])
def test_a_value_of_the_wrong_kind_is_refused_in_words(name, table, value, message):
    """What a refusal says, whole, for each kind of parameter (the node's one ERROR line)."""
    with pytest.raises(ValueError) as err:
        _param(name, table).convert(value)
    assert str(err.value) == message


def test_a_string_list_drops_its_empty_strings_and_keeps_the_rest():
    assert _param('bodies').convert(['a', '', 'b']) == ('a', 'b')
    assert _param('pose', BODY_PARAMETERS).convert([1, 2, 3]) == (1.0, 2.0, 3.0)


def test_every_documented_durability_and_executor_is_taken():
    for durability in ('volatile', 'transient_local'):
        assert two_bodies(footprint_durability=durability).footprint_durability == durability
    for executor in ('events', 'single_threaded'):
        assert two_bodies(executor=executor).executor == executor


@pytest.mark.parametrize('given, lacks', [
    ({}, 'a footprint and a pose source'),
    ({'footprint': np.zeros((3, 2))}, 'a pose source'),
    ({'footprint_topic': '/fp', 'static': True}, ''),
    ({'pose_topic': '/p'}, 'a footprint'),
    ({'source': 'tracker'}, 'a footprint'),
    ({'tf_frame': 'robot/base_link', 'footprint_topic': '/fp'}, ''),
])
def test_a_waiting_body_says_what_it_lacks(given, lacks):
    assert waiting_for(BodyConfig('x', **given)) == lacks


def test_a_footprint_is_named_and_held_to_4096_vertices_by_default():
    with pytest.raises(ValueError) as err:
        parse_footprint('[[0, 0], [1, 0]')
    assert str(err.value).startswith("footprint: cannot parse '[[0, 0], [1, 0]'")
    ring = np.exp(2j * np.pi * np.arange(4097) / 4097) * 1000.0
    text = '[' + ', '.join(f'[{float(z.real)!r}, {float(z.imag)!r}]' for z in ring) + ']'
    with pytest.raises(ValueError) as err:
        parse_footprint(text)
    assert str(err.value) == 'footprint: 4097 vertices, more than max_vertices = 4096'


PREDICTOR_NAMES = 'arc, holonomic, constant_acceleration, constant_velocity'


@pytest.mark.parametrize('changes, message', [
    ({'bodies': ['a', 'a']}, "bodies: duplicate names ['a']"),
    ({'bodies': ['a', 'b-2']},
     "bodies: names must be letters, digits and _ (first a letter): ['b-2']"),
    ({'sources': ['1x']},
     "sources: names must be letters, digits and _ (first a letter): ['1x']"),
    ({'footprint_durability': 'sometimes'},
     "footprint_durability: expected one of volatile, transient_local, got 'sometimes'"),
    ({'executor': 'multi'}, "executor: expected one of events, single_threaded, got 'multi'"),
    ({'predictor': 'psychic'}, f"predictor: expected one of {PREDICTOR_NAMES}, got 'psychic'"),
    ({'predictor': ''}, f"predictor: expected one of {PREDICTOR_NAMES}, got ''"),
    ({'gate.stop_time': 2.0, 'gate.slowdown_time': 1.0},
     'gate.slowdown_time = 1.0 must not be below gate.stop_time = 2.0'),
])
def test_a_configuration_refused_says_why_in_full(changes, message):
    """The words of each refusal, whole: the node's one ERROR line."""
    values = default_values()
    values.update({'bodies': ['a', 'b'], **changes})
    body = {'footprint': SQUARE, 'static': True}
    with pytest.raises(ValueError) as err:
        build_config(values, {'a': body, 'b': body}, {})
    assert str(err.value) == message


def test_a_body_predictor_may_be_empty_and_is_otherwise_a_model():
    values = default_values()
    values.update(bodies=['a'])
    body = {'footprint': SQUARE, 'static': True}
    assert build_config(values, {'a': {**body, 'predictor': ''}}, {}).bodies[0].predictor == ''
    with pytest.raises(ValueError) as err:
        build_config(values, {'a': {**body, 'predictor': 'x'}}, {})
    assert str(err.value) == f"a.predictor: expected one of {PREDICTOR_NAMES} or empty, got 'x'"


def test_equal_gate_times_are_allowed():
    config = two_bodies(**{'gate.stop_time': 1.0, 'gate.slowdown_time': 1.0})
    assert config.gate.stop_time == config.gate.slowdown_time == 1.0


def test_ignore_pairs_skip_empty_entries_and_keep_the_rest():
    assert parse_ignore_pairs(['', 'a|b', '', 'b|c'], {'a', 'b', 'c'}) == {
        frozenset('ab'), frozenset('bc')}


def test_a_footprint_text_is_measured_against_its_vertex_limit():
    """At most 64 characters a vertex and 64 more: a triangle padded to 256 characters
    parses under max_vertices = 3, one character more is refused unread; three vertices
    are the limit, four over it; text that does not parse is quoted to 80 characters."""
    triangle = '[[0, 0], [1, 0], [0, 1]]'
    assert parse_footprint(triangle.ljust(256), 'a.footprint', 3).shape == (3, 2)
    for text in (triangle.ljust(257), 5):
        with pytest.raises(ValueError) as err:
            parse_footprint(text, 'a.footprint', 3)
        assert str(err.value) == ('a.footprint: expected a string "[[x, y], ...]" of at most '
                                  'max_vertices = 3 vertices')
    with pytest.raises(ValueError) as err:
        parse_footprint('[[0, 0], [1, 0], [1, 1], [0, 1]]', 'a.footprint', 3)
    assert str(err.value) == 'a.footprint: 4 vertices, more than max_vertices = 3'
    with pytest.raises(ValueError) as err:
        parse_footprint('x' * 100, 'a.footprint', 3)
    assert str(err.value) == (f"a.footprint: cannot parse '{'x' * 80}'; expected a string "
                              '"[[x, y], [x, y], ...]" (quoted in YAML, as Nav2 writes '
                              'footprints)')


def test_a_body_configured_by_hand_has_the_documented_defaults():
    body = BodyConfig('x')
    assert (body.pose_topic, body.pose_type, body.footprint, body.footprint_topic, body.static,
            body.pose, body.source, body.tf_frame, body.predictor) == (
        '', 'geometry_msgs/PoseStamped', None, '', False, (0.0, 0.0, 0.0), '', '', '')
    with pytest.raises(dataclasses.FrozenInstanceError):
        body.static = True


STATIC = {'footprint': SQUARE, 'static': True}


@pytest.mark.parametrize('changes, bodies, sources, message', [
    ({'ignore_pairs': ['a']}, None, {}, 'ignore_pairs: \'a\' is not "body_a|body_b"'),
    ({'ignore_pairs': ['a|a']}, None, {}, 'ignore_pairs: \'a|a\' is not "body_a|body_b"'),
    ({'ignore_pairs': ['a|x']}, None, {}, "ignore_pairs: 'a|x' names unknown bodies ['x']"),
    ({'bodies': ['']}, None, {}, 'bodies: no bodies to monitor; list their names (each with '
                                 'its own sub-namespace of parameters)'),
    ({'max_bodies': 1}, None, {}, 'bodies: 2 bodies, more than max_bodies = 1'),
    ({'sources': ['s']}, None, {'s': {'topic': ''}}, 's.topic: a bulk source needs a topic'),
    ({'sources': ['s']}, None, {'s': {'topic': '/s', 'predictor': 'x'}},
     f"s.predictor: expected one of {PREDICTOR_NAMES} or empty, got 'x'"),
    ({'sources': ['s']}, None, {'s': {'topic': '/s', 'bodies': ['a', 'z']}},
     "s.bodies: unknown bodies ['z']"),
    ({'sources': ['s', 't']}, {'a': {'footprint': SQUARE}, 'b': STATIC},
     {'s': {'topic': '/s', 'bodies': ['a']}, 't': {'topic': '/t', 'bodies': ['a']}},
     "t.bodies: 'a' is already in source 's'"),
    ({'sources': ['s']}, None, {'s': {'topic': '/s', 'bodies': 5}},
     's.bodies: expected a list of strings, got 5'),
    ({}, {'a': {'static': True}, 'b': STATIC}, {},
     'a.footprint: give a footprint or a footprint_topic'),
    ({}, {'a': {**STATIC, 'pose_type': 'geometry_msgs/Twist'}, 'b': STATIC}, {},
     "a.pose_type: 'geometry_msgs/Twist' is not one of ('geometry_msgs/PoseStamped', "
     "'geometry_msgs/PoseWithCovarianceStamped', 'nav_msgs/Odometry')"),
    ({}, {'a': {**STATIC, 'pose': [0.0, 2e9, 0.0]}, 'b': STATIC}, {},
     'a.pose: expected |x| and |y| at most 1e+09 m, got [0.0, 2000000000.0, 0.0]'),
    ({}, {'a': {**STATIC, 'pose_topic': '/a'}, 'b': STATIC}, {},
     'a: exactly one of static, pose_topic, tf_frame or a bulk source must give its pose'),
    ({}, {'a': {'footprint': SQUARE}, 'b': STATIC}, {},
     'a: exactly one of static, pose_topic, tf_frame or a bulk source must give its pose'),
    ({}, {'a': {**STATIC, 'static': 'yes'}, 'b': STATIC}, {},
     "a.static: expected true or false, got 'yes'"),
    ({'gate.enabled': True, 'gate.body': 'robot'}, None, {},
     "gate.body: 'robot' is not one of the bodies"),
    ({}, {'a': {**STATIC, 'footprint': '[[0, 0], [1, 0], [2, 0]]'}, 'b': STATIC}, {},
     None),
])
def test_each_body_and_source_refusal_says_why_in_full(changes, bodies, sources, message):
    """Bodies a and b (static squares unless given), and the sources given."""
    values = default_values()
    values.update({'bodies': ['a', 'b'], **changes})
    bodies = bodies if bodies is not None else {'a': STATIC, 'b': STATIC}
    with pytest.raises(ValueError) as err:
        build_config(values, bodies, sources)
    if message is not None:
        assert str(err.value) == message
    else:  # a degenerate footprint: validation names it
        assert str(err.value).startswith('a.footprint')


def test_a_body_of_a_source_or_waiting_needs_no_other_pose_feed():
    values = default_values()
    values.update({'bodies': ['a', 'b'], 'sources': ['s']})
    config = build_config(values, {'a': {'footprint': SQUARE}, 'b': {}},
                          {'s': {'topic': '/s', 'bodies': ['a']}}, waiting={'b'})
    assert [(b.name, b.source) for b in config.bodies] == [('a', 's'), ('b', '')]
    assert config.bodies[1].footprint is None
