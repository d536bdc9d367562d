# The two commands of the README: `make demo` (the main job) and `make test` (the whole suite).
# Each creates .venv and installs what it needs on a fresh machine with python3, pip and make.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-base
BENCH_STAMP := $(VENV)/.installed-bench

# DDS stays on this machine, whatever the shell says (Jazzy's switch; tests pick their own
# ROS_DOMAIN_ID).  One numba cache directory for every process of a run, named after the
# package's sources by test/source_hash.py (test/conftest.py takes the same name).
export ROS_AUTOMATIC_DISCOVERY_RANGE := LOCALHOST
unexport ROS_LOCALHOST_ONLY
SOURCE_HASH := $(shell $(PYTHON) test/source_hash.py)
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache/$(SOURCE_HASH)
export PYTHONUNBUFFERED := 1

.PHONY: demo test test-full-ros test-nojit bench soak mutants clean-cache clean

# The full-ROS tests (test/full_ros: launch_testing, the real C++ and Python tf2_ros) run in
# a venv of their own, built from ../shared/ros-kit (about 5 minutes on 2 cores; the kit
# patches the venv it builds into, so never .venv).  It lives outside the checkout, named
# after the kit's files and setup.py, so that every clone on this machine reuses it while
# it is complete and a change of either builds a new one.  The package is installed into it
# from this checkout on each run, not editable: launch_ros finds the node through the ament
# index entries of setup.py's data_files, which an editable install leaves out.
# SKIP_FULL_ROS=1 leaves these tests out.
KIT := ../shared/ros-kit
KIT_HASH := $(shell { find $(KIT) -type f 2>/dev/null | LC_ALL=C sort | xargs -r cat; \
	cat setup.py; } | sha1sum | cut -c1-12)
ROS_VENVS := $(HOME)/.cache/collision_monitor
ROS_VENV := $(ROS_VENVS)/venv-ros-$(KIT_HASH)
ROS_PY := $(ROS_VENV)/bin/python
ROS_STAMP := $(ROS_VENV)/.complete
SKIP_FULL_ROS ?=

$(STAMP): setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[ros,test,demo,replay]'
	touch $@

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[ros,test,demo,replay,bench]'
	touch $@

$(ROS_STAMP):
	@[ -x $(KIT)/build.sh ] || { echo "make: $(KIT) is missing: the launch and tf2 tests"\
	  "need it (a clean clone with ../shared beside it); SKIP_FULL_ROS=1 leaves them out"; exit 1; }
	find $(ROS_VENVS) -mindepth 1 -maxdepth 1 -name 'venv-ros-*' -exec rm -rf {} + \
		2>/dev/null || true
	$(PYTHON) -m venv $(ROS_VENV)
	bash $(KIT)/build.sh $(ROS_VENV) > $(ROS_VENV).log 2>&1 \
		|| { tail -30 $(ROS_VENV).log; echo "make: the ros-kit build failed (log:"\
		     "$(ROS_VENV).log)"; rm -rf $(ROS_VENV); exit 1; }
	$(ROS_PY) -m pip install --quiet '.[ros]' pytest hypothesis
	touch $@

demo: $(STAMP)
	$(PY) -m collision_monitor.tools.demo

# --capture=sys: what C code writes to stderr (glibc's heap checks, std::terminate) reaches the
# terminal, where a crash's own message is seen before Python's fault dump.  Alongside, at a
# lower priority, the engine tests again with numba's bounds checks (kernels compiled apart,
# in a cache of their own): a kernel writing past a buffer fails there with IndexError instead
# of corrupting the heap.  That pass is mostly compiling and the suite mostly waits on DDS and
# child processes, so on two cores the two together take 7 to 8 minutes where one after the
# other takes 9 to 10; its output follows the suite's.
BOUNDSCHECK_CACHE := $(CURDIR)/.numba_cache_boundscheck/$(SOURCE_HASH)
test: $(STAMP)
	find .numba_cache .numba_cache_boundscheck -mindepth 1 -maxdepth 1 \
		! -name $(SOURCE_HASH) -exec rm -rf {} + 2>/dev/null || true
	@log=$$(mktemp); \
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(BOUNDSCHECK_CACHE) nice -n 10 \
		$(PY) -m pytest --capture=sys -q -m "not ros and not slow" > $$log 2>&1 & \
	checked=$$!; \
	trap 'kill $$checked 2>/dev/null; rm -f $$log' EXIT; \
	trap 'exit 130' INT TERM; \
	$(PY) -m pytest --capture=sys; suite=$$?; \
	wait $$checked; bounds=$$?; \
	echo "=== the engine tests with NUMBA_BOUNDSCHECK=1 (run alongside the suite):"; \
	cat $$log; \
	full=0; \
	if [ -n "$(SKIP_FULL_ROS)" ]; then echo "=== SKIP_FULL_ROS: launch and tf2 tests left out"; \
	else $(MAKE) --no-print-directory test-full-ros; full=$$?; fi; \
	[ $$suite -eq 0 ] && [ $$bounds -eq 0 ] && [ $$full -eq 0 ]

# The launch and tf2 tests in the kit's venv: pytest over test/full_ros (tf2 over DDS; the
# pytest plugin of launch_testing is refused by pytest 9, so it is left out), then each
# launch test through launch_testing's own runner, in a ROS domain of its own.  The node's
# kernels are compiled first into a cache of that venv's own, for both copies of the
# package: the checkout's (the tests' harness starts the node from it) and the installed
# one (launch_ros starts that); numba keys its cache by the source file's path.
ROS_NUMBA_CACHE := $(CURDIR)/.numba_cache_ros/$(SOURCE_HASH)
LAUNCH_TESTS := $(sort $(wildcard test/full_ros/launch_*.py))
test-full-ros: $(ROS_STAMP)
	@echo "=== the launch and tf2 tests, in $(ROS_VENV)"
	$(ROS_PY) -m pip install --quiet --no-deps --force-reinstall .
	@# launch_ros runs a package's executables from <prefix>/lib/<package>, where colcon puts
	@# them (setup.cfg's install_scripts); pip puts them in bin/
	mkdir -p $(ROS_VENV)/lib/collision_monitor
	ln -sf $(ROS_VENV)/bin/collision_monitor_node $(ROS_VENV)/bin/collision_monitor_replay \
		$(ROS_VENV)/lib/collision_monitor/
	find .numba_cache_ros -mindepth 1 -maxdepth 1 ! -name $(SOURCE_HASH) \
		-exec rm -rf {} + 2>/dev/null || true
	for where in $(CURDIR) /; do (cd $$where && NUMBA_CACHE_DIR=$(ROS_NUMBA_CACHE) \
		$(abspath $(ROS_PY)) -c 'from collision_monitor.monitor.monitor import warmup; warmup()') \
		|| exit 1; done
	@status=0; domain=$$(( 100 + $$$$ % 50 )); \
	NUMBA_CACHE_DIR=$(ROS_NUMBA_CACHE) AMENT_PREFIX_PATH=$(ROS_VENV) ROS_DOMAIN_ID=$$domain \
		$(ROS_PY) -m pytest -p no:launch_testing --capture=sys test/full_ros || status=1; \
	for t in $(LAUNCH_TESTS); do \
		domain=$$(( domain + 1 )); log=$$(mktemp); \
		NUMBA_CACHE_DIR=$(ROS_NUMBA_CACHE) AMENT_PREFIX_PATH=$(ROS_VENV) \
		PYTHONPATH=test/full_ros ROS_DOMAIN_ID=$$domain $(ROS_PY) -c 'import sys; \
			from launch_testing.launch_test \
			import main; sys.argv = ["launch_test", sys.argv[1]]; sys.exit(main())' $$t \
			> $$log 2>&1; code=$$?; \
		echo "=== launch_test $$t (ROS_DOMAIN_ID=$$domain): exit $$code," \
			"$$(grep -c '^OK$$' $$log) test runs OK"; \
		if [ $$code -ne 0 ]; then status=1; grep -v '\[DEBUG\]' $$log | tail -60; fi; \
		rm -f $$log; \
	done; \
	exit $$status

# The kernels as plain Python (for coverage and tracebacks); slow, so only the engine tests.
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -m "not ros and not slow" test

# Mutation testing of the kernels and of the monitor, ros (but the node) and tools layers (by
# hand, not in CI; docs/mutation.md lists the survivors
# and why they live): mutmut 2 (mutmut 3 leaves decorated functions alone, and every kernel is
# decorated) changes one line at a time and runs the tests that cover that module, with the
# JIT on and one numba cache for the run (test/mutants.py says how it stays true to the
# mutant).  MUTANTS=kernels/toi.py picks modules; MUTANT_FLAGS=--no-jit runs the kernels as
# plain Python (several times slower), MUTANT_FLAGS=--lines=200- mutates line 200 on.
# `mutmut show N` prints mutant N.
MUTANTS ?=
MUTANT_FLAGS ?=
mutants: $(STAMP)
	$(PY) -m pip install --quiet 'mutmut==2.5.1' whatthepatch
	$(PY) test/mutants.py $(MUTANT_FLAGS) $(MUTANTS)

bench: $(BENCH_STAMP)
	$(PY) -m benchmarks

clean-cache:
	rm -rf .numba_cache .numba_cache_boundscheck .numba_cache_mutants .numba_cache_ros

clean: clean-cache
	rm -rf $(VENV) build install log .mutmut-cache .mutmut-busy .mutmut-lines.patch

# 30 minutes, 200 bodies at 100 Hz (docs/reliability.md); SOAK_SECONDS=60 for a short one.
SOAK_SECONDS ?= 1800
soak: $(STAMP)
	$(PY) test/soak.py --bodies 200 --rate 100 --seconds $(SOAK_SECONDS)
