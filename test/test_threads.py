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
"""The thread setting of the parallel kernels: remembered per Python thread, and restored."""

import threading

import numba
import pytest

from collision_monitor.kernels.threads import call_parallel, set_kernel_threads
from collision_monitor.kernels.tuning import PARALLEL_WORK

pytestmark = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                                reason='needs a pool of two threads')


@pytest.fixture(autouse=True)
def numba_setting_kept():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
    set_kernel_threads(before)


def seen_by_kernel(work, threads):
    seen = []
    call_parallel(lambda: seen.append(numba.get_num_threads()), work, threads)
    return seen[0]


def test_the_setting_is_made_and_the_previous_one_returned():
    set_kernel_threads(1)
    assert numba.get_num_threads() == 1
    assert set_kernel_threads(2) == 1 and numba.get_num_threads() == 2
    assert set_kernel_threads(99) == 2
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS


def test_an_unchanged_setting_asks_numba_nothing(monkeypatch):
    """The point of the record: a world sets its threads before every compiled call, and
    numba's get and set cost tens of microseconds after a pause; setting what is already
    set calls neither, and a change calls only the set."""
    set_kernel_threads(2)
    calls = []
    for name in ('get_num_threads', 'set_num_threads'):
        real = getattr(numba, name)
        monkeypatch.setattr(numba, name,
                            lambda *a, real=real, name=name: calls.append(name) or real(*a))
    assert set_kernel_threads(2) == 2 and calls == []
    assert set_kernel_threads(1) == 2 and calls == ['set_num_threads']
    assert set_kernel_threads(1) == 1 and calls == ['set_num_threads']


def test_call_parallel_restores_a_setting_made_directly_through_numba():
    for recorded, direct in ((1, 2), (2, 1)):
        set_kernel_threads(recorded)
        numba.set_num_threads(direct)  # not seen by the record
        assert seen_by_kernel(PARALLEL_WORK, 2) == 2
        assert numba.get_num_threads() == direct
        assert seen_by_kernel(PARALLEL_WORK - 1, 2) == 1
        assert numba.get_num_threads() == direct
        assert seen_by_kernel(PARALLEL_WORK, None) == direct
        assert numba.get_num_threads() == direct


def test_each_python_thread_has_its_own_setting():
    set_kernel_threads(2)
    other = []

    def run():
        other.append(set_kernel_threads(1))
        other.append(numba.get_num_threads())
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert other == [numba.config.NUMBA_NUM_THREADS, 1]
    assert numba.get_num_threads() == 2 and set_kernel_threads(2) == 2
