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
"""The tests reach the package through its public names only: no private function, class or
attribute, so that the internals can change under them (what a test must inspect, the
package offers, as `CollisionWorld.view`)."""

import ast
import pathlib

import pytest

TEST = pathlib.Path(__file__).resolve().parent
NAMEDTUPLE = {'_replace', '_fields', '_asdict', '_make'}  # a NamedTuple's public methods
# the mutation driver works on the package's files and numba's cache, not its API
TESTS = sorted(p for p in TEST.rglob('*.py') if p.name != 'mutants.py')


def private_uses(path):
    """``(line, name)`` of each private name taken from the package and each private
    attribute read off anything but self or cls."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or '').startswith('collision'):
            for alias in node.names:
                if alias.name.startswith('_'):
                    yield node.lineno, alias.name
        elif (isinstance(node, ast.Attribute) and node.attr.startswith('_')
              and not node.attr.startswith('__') and node.attr not in NAMEDTUPLE
              and not (isinstance(node.value, ast.Name) and node.value.id in ('self', 'cls'))):
            yield node.lineno, node.attr


@pytest.mark.parametrize('path', TESTS, ids=lambda p: p.relative_to(TEST).as_posix())
def test_a_test_uses_public_names_only(path):
    assert list(private_uses(path)) == []


def test_the_check_sees_a_private_import_and_a_private_attribute(tmp_path):
    sample = tmp_path / 'sample.py'
    sample.write_text('from collision_monitor.kernels.toi import _hidden, first_contact\n'
                      'world._tick.placed\nview._replace(boxes=None)\nself._own\n')
    assert list(private_uses(sample)) == [(1, '_hidden'), (2, '_tick')]
