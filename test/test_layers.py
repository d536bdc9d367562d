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
"""The layering rule, by folder: imports flow one way, and only the top layers see ROS.

kernels <- engine, geometry3d <- monitor <- ros <- tools (each may import those to its left).
"""

import ast
import pathlib
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / 'collision_monitor'
ROS_MODULES = {'rclpy', 'geometry_msgs', 'nav_msgs', 'visualization_msgs', 'diagnostic_msgs',
               'std_msgs', 'std_srvs', 'rcl_interfaces', 'lifecycle_msgs', 'builtin_interfaces'}
MAY_IMPORT = {
    'kernels': {'kernels'},
    'geometry3d': {'kernels', 'geometry3d'},
    'engine': {'kernels', 'engine'},
    'monitor': {'kernels', 'engine', 'monitor'},
    'ros': {'kernels', 'engine', 'monitor', 'ros'},
    'tools': {'kernels', 'engine', 'geometry3d', 'monitor', 'ros', 'tools'},
}
PURE = {'kernels', 'geometry3d', 'engine', 'monitor'}  # numpy, numba and the standard library
MODULES = sorted(p for p in PACKAGE.rglob('*.py') if p.parent != PACKAGE)


def layer(path):
    return path.relative_to(PACKAGE).parts[0]


def imports(path):
    """(absolute module names of the package's own imports, roots of the other imports)."""
    package = ['collision_monitor', *path.relative_to(PACKAGE).parent.parts]
    own, other = set(), set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            names = ['.'.join(base + ([node.module] if node.module else []))]
        else:
            continue
        for name in names:
            (own if name.split('.')[0] == 'collision_monitor' else other).add(name)
    return own, {name.split('.')[0] for name in other}


def test_every_module_lives_in_a_layer():
    flat = sorted(p.name for p in PACKAGE.glob('*.py') if p.name != '__init__.py')
    assert flat == []
    assert {layer(p) for p in MODULES} <= set(MAY_IMPORT)


@pytest.mark.parametrize('path', MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_flow_one_way(path):
    own, _ = imports(path)
    reached = {name.split('.')[1] for name in own if name.count('.')}
    assert reached <= MAY_IMPORT[layer(path)], f'{path.name} reaches {reached}'


@pytest.mark.parametrize('path', [p for p in MODULES if layer(p) in PURE],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_below_ros_only_numpy_numba_and_the_standard_library(path):
    _, other = imports(path)
    assert other <= {'numpy', 'numba'} | set(sys.stdlib_module_names)


def test_only_the_node_and_the_demo_publisher_import_rclpy():
    users = {str(p.relative_to(PACKAGE)) for p in MODULES if 'rclpy' in imports(p)[1]}
    assert users == {'ros/node.py', 'tools/demo.py'}
    assert not any(imports(p)[1] & ROS_MODULES for p in MODULES if layer(p) in PURE)


@pytest.mark.parametrize('path', MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_function_takes_more_than_ten_parameters(path):
    """Long runs of positional arrays are bundled (kernels/packed.py) instead."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef):
            count = len(node.args.posonlyargs + node.args.args + node.args.kwonlyargs)
            assert count <= 10, f'{node.name} takes {count} parameters'


def test_tests_take_their_helpers_from_test_not_from_benchmarks():
    """Shared helpers live in test/ (the benchmarks use them from there)."""
    tests = pathlib.Path(__file__).resolve().parent
    importers = {p.name for p in tests.glob('*.py')
                 if 'benchmarks' in {name.split('.')[0] for name in imports_of(p)}}
    assert importers == set()


def imports_of(path):
    """Every module name a file imports (absolute imports only)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module)
    return names
