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
"""How many threads a parallel kernel runs on: one for little work, else the caller's.

numba's thread count is a setting per calling Python thread that stays set, and a cached
kernel cannot change it: callers set it before each call (`set_kernel_threads`), by
`threads_for`, which the compiled ticks also use to say when they want other threads.
"""

import threading

import numba

from .constants import jit
from .tuning import PARALLEL_WORK


_threads_set = threading.local()


@jit
def threads_for(work, parallel):
    """Threads of a parallel kernel's call for `work` (items times vertices per item): one
    below `PARALLEL_WORK`, else `parallel`."""
    return 1 if work < PARALLEL_WORK else parallel


def call_parallel(kernel, work, threads, *args):
    """kernel(*args) on one thread when `work` < `PARALLEL_WORK`, else on `threads` (None:
    numba's current setting); numba's setting is restored after."""
    previous = _threads_set.count = numba.get_num_threads()
    set_kernel_threads(threads_for(work, previous if threads is None else threads))
    try:
        kernel(*args)
    finally:
        set_kernel_threads(previous)


def set_kernel_threads(threads):
    """Threads of the parallel kernels this Python thread calls next (numba's setting is per
    calling thread and stays), capped at numba's pool; return the previous setting.

    The last setting made here is remembered per Python thread, and numba is only called
    when it changes: numba's get and set cost about 1 us each back to back, and 60 to 80 us
    at the first tick after a 20 ms pause (measured), twice a tick.  A change made directly
    through numba in between is not seen here (`call_parallel` reads numba's setting); the
    world's kernels then run on that many threads, with the same results.
    """
    previous = getattr(_threads_set, 'count', None)
    if previous is None:
        previous = numba.get_num_threads()
    wanted = max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS))
    if wanted != previous:
        numba.set_num_threads(wanted)
    _threads_set.count = wanted
    return previous
