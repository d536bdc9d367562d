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
"""The name of a run's numba cache directory: the Makefile and test/conftest.py take it here.

Numba checks a cached kernel against its own file only, not against the kernels it calls
from other modules nor the globals it froze in, so a cache must not outlive an edit of any
source: it is named after a hash of the package's sources (SHA-1 of their bytes, in path
order, first 12 hex digits).  Standard library only: the Makefile runs it with the system
python before .venv exists.  ``python3 test/source_hash.py`` prints it.
"""

import hashlib
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def source_hash(root=ROOT):
    """The 12 hex digits that name the numba cache of the sources under `root`."""
    digest = hashlib.sha1()
    for path in sorted(p.relative_to(root).as_posix()
                       for p in (root / 'collision_monitor').rglob('*.py')):
        digest.update((root / path).read_bytes())
    return digest.hexdigest()[:12]


if __name__ == '__main__':
    print(source_hash())
