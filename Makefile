# slabsim - discrete-event simulator of NUMA machines running Linux slab allocators.
#
#   make            build ./slabsim
#   make test       install missing packages, build, run every test (CI)
#   make check      the everyday loop: no installs, no MPI, the fast tests
#   make demo       install missing packages, build, run the Tigerton demo
#   make demo-quick the same, C1's collapse at a quarter of the size (minutes)
#   make deps       install missing Debian packages (apt-get update first)
#   make sanitize   build with ASan+UBSan and run the unit and CLI tests
#   make bench      engine and fiber speed
#   make stress P=./mine.so   the randomized stress test on a policy (module)
#   make valgrind [P=./mine.so]   runs under valgrind (and the module's)
#   make fuzz       every libFuzzer harness of tests/fuzz/ for FUZZ_SECONDS each
#   make install    install into $(PREFIX) (any; it may move later: the binary
#                   finds its data in ../share/slabsim beside itself)
#   make uninstall  remove what make install put there
#   make MPI=1      build ./slabsim with OpenMPI (mpirun -n K slabsim sweep ...),
#                   objects in build-mpi/

PREFIX   ?= /usr/local
ifeq ($(origin CC),default)
CC       := gcc
endif
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WERROR   ?= -Werror
WARN     := -Wall -Wextra $(WERROR) -Wshadow -Wno-unused-parameter
CPPFLAGS += -I. -Isim -D_GNU_SOURCE -DSLABSIM_DATADIR=\"$(PREFIX)/share/slabsim\"
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(PGO_CFLAGS) -MMD -MP
LDLIBS   := -lgsl -lgslcblas -lcjson -lboost_context -lhwloc -lpthread -lm -ldl
ifeq ($(MPI),1)
CC       := mpicc
CPPFLAGS += -DSLABSIM_MPI
BUILD    ?= build-mpi
endif
BUILD    ?= build

# The profile-guided build (PGO=1, the default for ./slabsim with gcc):
# slabsim is first built instrumented in $(BUILD)/pgo-gen, runs
# tools/pgo_train.sh (the reference runs of `slabsim bench` and a few other
# paths, about 7 s), and the objects of $(BUILD) are compiled with its profile:
# 3-13% less wall time on the reference runs, the same results byte for byte
# (the golden digests). Any source change re-runs the training. PGO=0 skips
# it (a quicker edit-and-test loop); other build folders never use it.
PGO      ?= $(if $(and $(filter build,$(BUILD)),$(filter gcc,$(notdir $(CC)))),1,0)
PGO_GEN  := $(BUILD)/pgo-gen
PGO_STAMP := $(BUILD)/pgo.stamp
PGO_CFLAGS := $(if $(filter 1,$(PGO)),-fprofile-use -fprofile-partial-training -Wno-missing-profile)

# Debian packages the build, the tests and the plots need.
DEB_PKGS := gcc make libgsl-dev libcjson-dev libcmocka-dev libboost-context-dev libhwloc-dev \
            gnuplot-nox valgrind python3 openmpi-bin libopenmpi-dev clang libclang-rt-dev

SRC_LIB  := $(sort $(wildcard sim/engine/*.c sim/hw/*.c sim/kernel/*.c \
              sim/workloads/*.c sim/run/*.c sim/report/*.c sim/study/*.c policies/*.c)) \
            $(filter-out sim/cli/main.c,$(sort $(wildcard sim/cli/*.c)))
SRC_ASM  := $(if $(filter x86_64,$(shell uname -m)),sim/engine/fiber_switch_x86_64.S)
OBJ_LIB  := $(SRC_LIB:%.c=$(BUILD)/%.o) $(SRC_ASM:%.S=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: policy headers all test check unit cli-test demo demo-quick results validate deps install uninstall bench sanitize clean valgrind mpi FORCE fuzz fuzz-bins fuzz-smoke stress

all: slabsim

# always copied: ./slabsim is whichever build (plain or MPI=1) was made last
# a copy renamed into place: a sweep still running the old ./slabsim keeps it
slabsim: $(BUILD)/slabsim FORCE
	cp $< $@.tmp && mv -f $@.tmp $@

# the MPI build beside the plain one, for the MPI test
mpi: FORCE
	$(MAKE) MPI=1 build-mpi/slabsim

# the whole library, its symbols exported: policy modules call into it
$(BUILD)/slabsim: $(BUILD)/sim/cli/main.o $(BUILD)/libslabsim.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -rdynamic -o $@ $< \
	  -Wl,--whole-archive $(BUILD)/libslabsim.a -Wl,--no-whole-archive $(LDLIBS)

$(BUILD)/libslabsim.a: $(OBJ_LIB)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(if $(PGO_CFLAGS),-dumpdir $(PGO_GEN)/$(dir $*)) -c -o $@ $<

# PGO=1: every object of $(BUILD) waits for the profile, which is made again
# when a source, a header or the training changes. An object is compiled as
# if it were its instrumented twin (-dumpdir): gcc finds that one's .gcda,
# and names the static functions of the value profiles the same way.
ifeq ($(PGO),1)
$(OBJ_LIB) $(BUILD)/sim/cli/main.o: $(PGO_STAMP)
$(PGO_STAMP): $(SRC_LIB) $(SRC_ASM) sim/cli/main.c $(wildcard sim/*/*.h policies/*.h) \
	      tools/pgo_train.sh
	$(MAKE) --no-print-directory PGO=0 BUILD=$(PGO_GEN) \
	  CFLAGS="$(OPT) -g -fprofile-generate -fprofile-update=single" \
	  LDFLAGS="$(LDFLAGS) -fprofile-generate" $(PGO_GEN)/slabsim
	find $(PGO_GEN) -name '*.gcda' -delete
	sh tools/pgo_train.sh $(PGO_GEN)/slabsim
	touch $@
endif

# The model digest (slabsim --version, every run's JSON): the golden
# digests' set names the model (sim/report/model_digest.c).
MODEL_DIGEST := $(shell sha256sum tests/golden/digests.txt 2>/dev/null | cut -c1-16)
%/sim/report/model_digest.o: CPPFLAGS += -DSLABSIM_MODEL_DIGEST=\"$(or $(MODEL_DIGEST),unknown)\"
$(BUILD)/sim/report/model_digest.o: tests/golden/digests.txt

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -c -o $@ $<

# the library's symbols exported, as slabsim's: the stress test loads modules
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libslabsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -rdynamic -o $@ $< \
	  -Wl,--whole-archive $(BUILD)/libslabsim.a -Wl,--no-whole-archive $(LDLIBS) -lcmocka

# The policy API's headers (policies/README.md), laid out as make install
# puts them in $(PREFIX)/include/slabsim: what a policy module may include.
API_HDRS := policies/policy.h policies/slab_blocks.h \
            $(addprefix sim/engine/,array_size.h engine.h error.h event_queue.h fiber.h params.h profile.h steady.h) \
            $(addprefix sim/hw/,hw.h machine.h spinlock.h) \
            $(addprefix sim/kernel/,bitops.h kernel.h kmem_stat.h list.h page_alloc.h sched.h \
              slab.h slab_policy.h workqueue.h fault_inject.h gfp.h)
API_INC  := $(BUILD)/include/slabsim
API_OUT  := $(patsubst policies/%,$(API_INC)/%,$(patsubst sim/%,$(API_INC)/%,$(API_HDRS)))

headers: $(API_OUT)

$(API_INC)/%.h: sim/%.h
	@mkdir -p $(dir $@)
	cp $< $@

$(API_INC)/%.h: policies/%.h
	@mkdir -p $(dir $@)
	cp $< $@

# make policy SRC=path/to/mine.c: path/to/mine.so (or OUT=...), built by
# policies/policy.mk as a user of an installed slabsim builds one.
policy: headers
	@[ -n "$(SRC)" ] || { echo "usage: make policy SRC=path/to/mine.c [OUT=mine.so]"; exit 2; }
	$(MAKE) --no-print-directory -f policies/policy.mk SLABSIM_INCLUDE=$(CURDIR)/$(API_INC) \
	  SRC="$(SRC)" $(if $(OUT),OUT="$(OUT)")

# Install what is missing, and only then: apt-get update before apt-get install.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

# make test: everything, as CI runs it (packages, the MPI build, every unit
# and command-line test; the scripts run TEST_JOBS at a time).
# make check: the everyday loop: no package installs, no MPI build, the unit
# tests and the command-line scripts but the slow ones, in under two minutes.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CLI_ALL   := $(sort $(wildcard tests/cli/test_*.sh))
# the scripts that take more than ~20 s, longest first (make test runs them,
# make check not)
CLI_SLOW  := tests/cli/test_configs.sh tests/cli/test_sweep.sh tests/cli/test_c1.sh \
             tests/cli/test_sample.sh tests/cli/test_readme_commands.sh \
             tests/cli/test_all_policies.sh tests/cli/test_mix.sh tests/cli/test_netperf.sh \
             tests/cli/test_policy_module.sh tests/cli/test_linearity.sh \
             tests/cli/test_trace.sh tests/cli/test_determinism.sh
CLI_FAST  := $(filter-out $(CLI_SLOW),$(CLI_ALL))

# The unit tests run beside the scripts (test_slab_stress, about a minute,
# first of all), each as unit/NAME: its cmocka summary on one line.
UNIT_SLOW := test_slab_stress
UNIT_FAST := $(filter-out $(UNIT_SLOW),$(UNIT_SRC:tests/unit/%.c=%))

test: deps
	$(MAKE) all unit-bins mpi
	$(MAKE) -k -j$(TEST_JOBS) --no-print-directory $(UNIT_SLOW:%=unit/%) \
	  $(CLI_SLOW:tests/cli/%.sh=cli/%) fuzz-smoke $(UNIT_FAST:%=unit/%) \
	  $(CLI_FAST:tests/cli/%.sh=cli/%)	# the long ones first: no long tail

check: all unit-bins
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; SLABSIM_CHECK=1 $$t > $(BUILD)/$$(basename $$t).log 2>&1 || \
	  { cat $(BUILD)/$$(basename $$t).log; exit 1; }; done
	$(MAKE) -k -j$(TEST_JOBS) --no-print-directory $(CLI_FAST:tests/cli/%.sh=cli/%)

unit-bins: $(UNIT_BIN)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

# one unit test, its output in $(BUILD)/unit-logs/NAME.log, shown if it fails
unit/%: FORCE
	@mkdir -p $(BUILD)/unit-logs; t0=$$(date +%s); \
	if $(BUILD)/tests/$* > $(BUILD)/unit-logs/$*.log 2>&1; then \
	  echo "ok   unit/$* ($$(( $$(date +%s) - t0 )) s): $$(grep -a 'PASSED' $(BUILD)/unit-logs/$*.log | tail -1)"; \
	else echo "FAIL unit/$* (log: $(BUILD)/unit-logs/$*.log)"; cat $(BUILD)/unit-logs/$*.log; exit 1; fi

# every command-line script, one after another (make test runs them in parallel)
cli-test: slabsim mpi
	@set -e; for t in $(CLI_ALL); do echo "== $$t"; \
	  SLABSIM=$(CURDIR)/slabsim SLABSIM_MPI=$(CURDIR)/build-mpi/slabsim sh $$t; done

# one script, its output in $(BUILD)/cli-logs/NAME.log, shown if it fails
cli/%: FORCE
	@mkdir -p $(BUILD)/cli-logs; t0=$$(date +%s); \
	if SLABSIM=$(CURDIR)/slabsim SLABSIM_MPI=$(CURDIR)/build-mpi/slabsim \
	   sh tests/cli/$*.sh > $(BUILD)/cli-logs/$*.log 2>&1; then \
	  echo "ok   $* ($$(( $$(date +%s) - t0 )) s)"; \
	else echo "FAIL $* (log: $(BUILD)/cli-logs/$*.log)"; cat $(BUILD)/cli-logs/$*.log; exit 1; fi

# make demo: the sweep of configs/tigerton-c1.json, C1's four published
# settings (slub_min_objects 8, 16, 32, 64) at the published size (hackbench
# 100 process 2000, sample=auto), one run a point (11 min 51 s on 2 cores from
# a clean clone, the build included; validate C1 runs four), into out/demo/ (untracked:
# the committed reference results in results/ are written by make results
# only) with its plots. DEMO_EXP picks another experiment (make demo
# DEMO_EXP=configs/tigerton-min-objects.json: the 12-value curve, about an hour
# on 2 cores); DEMO_ARGS adds NAME=VALUE or options (make demo
# DEMO_ARGS=loops=100 for a first look in a few minutes).
DEMO_EXP ?= configs/tigerton-c1.json
DEMO_ARGS ?=
demo: deps
	$(MAKE) all
	./slabsim sweep $(DEMO_EXP) --replicates 1 $(DEMO_ARGS) --out out/demo --force

# make demo-quick: C1's collapse in about a minute and a half of runs:
# slub_min_objects 8 and 32 at 500 loops (configs/tigerton-c1-quick.json),
# into out/demo-quick/
demo-quick: deps
	$(MAKE) all
	./slabsim sweep configs/tigerton-c1-quick.json $(DEMO_ARGS) --out out/demo-quick --force

# make results: the reference results of results/, one folder for each line
# of configs/results.list (tools/results.py): a folder this model already
# made is kept, one it left half made is finished, any other is made again,
# with a progress line and an ETA before each; so after an interruption the
# same command goes on. Then the tables of RESULT_DOCS are made again from the
# folders and every folder is checked to be this model's or an archive
# (tools/results_current.py). RESULT_ARGS adds NAME=VALUE or options to
# every sweep.
RESULT_ARGS ?=
# the Markdown files whose tables tools/results_tables.py makes from results/
RESULT_DOCS := README.md results/README.md $(wildcard docs/*.md)
results: slabsim
	python3 tools/results.py -- $(RESULT_ARGS)
	python3 tools/results_tables.py $(RESULT_DOCS)
	python3 tools/results_current.py results $$(./slabsim --version | sed 's/.*model //')

# make validate: every validation case (validation/*.json) at its published
# size; results/validation/ gets the table (table.txt), summary.json, every
# run's JSON and the plot. Exit 1 while a check is outside its band (the
# README says which and why).
validate: slabsim
	./slabsim validate --out results/validation

# make stress P=./mine.so [ARGS='NAME=VALUE ...']: the randomized stress
# test (every machine, every invariant at each of its barriers) on a policy
# module or a built-in policy; without P, every built-in policy
P ?=
ARGS ?=
stress: $(BUILD)/tests/test_slab_stress
	$(BUILD)/tests/test_slab_stress $(if $(P),-p $(P) $(ARGS))

bench: slabsim
	./slabsim bench

sanitize: deps
	$(MAKE) BUILD=build-san OPT=-O1 \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" build-san/slabsim unit-bins-san
	@set -e; for t in $(UNIT_SRC:tests/unit/%.c=build-san/tests/%); do echo "== $$t"; $$t; done
	@set -e; for t in tests/cli/test_*.sh; do echo "== $$t (sanitized)"; SLABSIM=$(CURDIR)/build-san/slabsim SLABSIM_SANITIZED=1 sh $$t; done

unit-bins-san: $(UNIT_SRC:tests/unit/%.c=build-san/tests/%)

# Fuzzing (libFuzzer, clang, ASan+UBSan): one harness per input format in
# tests/fuzz/ (fuzz_NAME.c), built against the library in build-fuzz/.
# make fuzz FUZZ_SECONDS=N runs each for N seconds from its seeds (the
# repository's own files of that format), growing build-fuzz/corpus/NAME/;
# an input that fails is written to build-fuzz/crashes/ and belongs, once
# fixed, in tests/fuzz/regressions/NAME/, which make test replays
# (fuzz-smoke: the regressions, then a few seconds of each harness).
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_NAMES   := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_common.c,\
                  $(wildcard tests/fuzz/fuzz_*.c))))
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 4
FUZZ_SEEDS_trace      := tests/cli/data/traces tests/fuzz/seeds/trace
FUZZ_SEEDS_experiment := configs tests/cli/data
FUZZ_SEEDS_machine    := machines tests/machines validation/machines
FUZZ_SEEDS_costs      := machines/costs
FUZZ_SEEDS_mix        := configs/mix
FUZZ_SEEDS_params     := tests/fuzz/seeds/params
FUZZ_SEEDS_workload   := tests/fuzz/seeds/workload
# a real capture is megabytes: the trace harness mutates its first 16 KB
FUZZ_OPTS_trace       := -max_len=16384

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.c tests/fuzz/fuzz.h $(BUILD)/libslabsim.a
	$(CC) $(CPPFLAGS) -DFUZZ_REPO=\"$(CURDIR)\" $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< \
	  tests/fuzz/fuzz_common.c $(BUILD)/libslabsim.a $(LDLIBS)

fuzz-bins:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) OPT=-O1 \
	  CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Wno-missing-field-initializers" \
	  LDFLAGS="$(FUZZ_SAN)" \
	  $(FUZZ_NAMES:%=build-fuzz/fuzz_%)

# -rss_limit_mb: a parser must not need more; -timeout: nor hang on an input
FUZZ_RUN = -rss_limit_mb=2048 -timeout=10 -print_final_stats=1

fuzz: deps fuzz-bins
	@$(MAKE) --no-print-directory $(FUZZ_NAMES:%=fuzz-run/%)

fuzz-run/%:
	@mkdir -p build-fuzz/corpus/$* build-fuzz/crashes
	@echo "== fuzz_$* for $(FUZZ_SECONDS) s"
	@build-fuzz/fuzz_$* $(FUZZ_RUN) $(FUZZ_OPTS_$*) -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=build-fuzz/crashes/$*- build-fuzz/corpus/$* $(FUZZ_SEEDS_$*) \
	  > build-fuzz/fuzz_$*.log 2>&1 || { tail -40 build-fuzz/fuzz_$*.log; exit 1; }
	@grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+ +DONE" build-fuzz/fuzz_$*.log

fuzz-smoke: fuzz-bins
	@$(MAKE) --no-print-directory $(FUZZ_NAMES:%=fuzz-smoke/%)

fuzz-smoke/%:
	@mkdir -p build-fuzz/smoke/$*
	@if ls tests/fuzz/regressions/$*/* > /dev/null 2>&1; then \
	  build-fuzz/fuzz_$* $(FUZZ_RUN) tests/fuzz/regressions/$*/* > build-fuzz/regress_$*.log 2>&1 || \
	  { echo "FAIL fuzz_$* on tests/fuzz/regressions/$*/"; tail -40 build-fuzz/regress_$*.log; exit 1; }; fi
	@build-fuzz/fuzz_$* $(FUZZ_RUN) $(FUZZ_OPTS_$*) -max_total_time=$(FUZZ_SMOKE_SECONDS) \
	  -artifact_prefix=build-fuzz/smoke-$*- build-fuzz/smoke/$* $(FUZZ_SEEDS_$*) \
	  > build-fuzz/smoke_$*.log 2>&1 || \
	  { echo "FAIL fuzz_$* (log: build-fuzz/smoke_$*.log)"; tail -40 build-fuzz/smoke_$*.log; exit 1; }
	@echo "ok   fuzz_$*: $$(sed -n 's/^stat::number_of_executed_units: *//p' build-fuzz/smoke_$*.log) runs in $(FUZZ_SMOKE_SECONDS) s"

valgrind: slabsim
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m tigerton -p slub \
	  -w 'hackbench 2 process 20' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m epyc-genoa-2s -p slub \
	  kernel=3.2 -w 'hackbench 2 process 10' sample=observe sample_ci=0.3 --json /dev/null > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m tests/machines/x3950-small-llc.json \
	  -p slub -w 'hackbench 4 process 40' sample=auto sample_ci=0.3 > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ex -p slub \
	  -w 'lockbench cpus=16 duration_us=200' spinlock=queued > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m westmere-ep -p slub \
	  -w 'pingpong iterations=20' --plot /tmp/slabsim-valgrind.png > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p slab \
	  -w 'hackbench 2 process 10' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m tigerton -p slub \
	  -w 'hackbench 2 process 20' --timeline /tmp/slabsim-valgrind-tl.tsv \
	  --timeline-plot /tmp/slabsim-valgrind-tl.png --timeline-every 1 > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p slqb \
	  -w 'slab_test run=31 count=20 max_size=4096' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p slub \
	  kernel=3.2 -w 'slab_test run=31 count=20 max_size=4096' > /dev/null
	rm -rf /tmp/slabsim-valgrind-sweep /tmp/slabsim-valgrind-merge
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim sweep tests/cli/data/tiny-sweep.json \
	  loops=5 --replicates 2 -j 2 --shard 0/2 --out /tmp/slabsim-valgrind-sweep > /dev/null 2>&1
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim sweep tests/cli/data/tiny-sweep.json \
	  loops=5 --replicates 2 -j 2 --resume --out /tmp/slabsim-valgrind-sweep > /dev/null 2>&1
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim merge /tmp/slabsim-valgrind-sweep \
	  --out /tmp/slabsim-valgrind-merge > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim plot /tmp/slabsim-valgrind-merge \
	  --format svg > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m core2-ep -p slub \
	  -w 'oltp 32' warmup_ms=2 duration_ms=5 > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim trace record \
	  -o /tmp/slabsim-valgrind.trace -m tigerton -p slab -w 'hackbench 1 process 2' > /dev/null 2>&1
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim trace replay \
	  /tmp/slabsim-valgrind.trace -m core2-ep -p slqb cpu_map=spread > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m core2-ep -p slub \
	  -w 'trace tests/cli/data/traces/kmem_SLAB.log' pace=asap > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m tigerton -p slab \
	  -w 'netperf -t TCP_STREAM -l 0.002' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p slqb \
	  -w 'kbuild duration_ms=5' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p slub \
	  -w 'mix configs/mix/example.json duration_ms=5' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p magazine \
	  -w 'slab_test run=31 count=20 max_size=4096' magazine_update_ms=0.05 magazine_reap=1 > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ex -p slub \
	  kernel=7.0 -w 'hackbench 2 process 10' > /dev/null
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ep -p slub \
	  kernel=6.18 sheaf_capacity=4 -w 'kbuild duration_ms=2' > /dev/null
	$(MAKE) -s policy SRC=policies/examples/template.c OUT=$(CURDIR)/$(BUILD)/template.so
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ex \
	  -p ./$(BUILD)/template.so -w 'slab_test run=31 count=20 max_size=4096' > /dev/null
	$(MAKE) -s policy SRC=policies/examples/remote_batch.c OUT=$(CURDIR)/$(BUILD)/remote_batch.so
	valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ex \
	  -p ./$(BUILD)/remote_batch.so -w 'hackbench 2 process 10' remote_drain_ms=1 \
	  --check-interval 100 > /dev/null
	$(if $(P),valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m nehalem-ex \
	  -p $(P) $(ARGS) -w 'hackbench 2 process 10' --check-every 200 > /dev/null)
	$(if $(P),valgrind --error-exitcode=1 --leak-check=full -q ./slabsim run -m tigerton \
	  -p $(P) $(ARGS) -w 'slab_test run=31 count=20 max_size=4096' --check-every 200 > /dev/null)

install: slabsim headers
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/slabsim/machines \
	  $(DESTDIR)$(PREFIX)/include
	install -m 755 slabsim $(DESTDIR)$(PREFIX)/bin/slabsim
	cp -r machines/. $(DESTDIR)$(PREFIX)/share/slabsim/machines/
	install -d $(DESTDIR)$(PREFIX)/share/slabsim/validation
	cp -r validation/. $(DESTDIR)$(PREFIX)/share/slabsim/validation/
	cp -r $(API_INC) $(DESTDIR)$(PREFIX)/include/
	install -m 644 policies/policy.mk $(DESTDIR)$(PREFIX)/share/slabsim/policy.mk
	install -d $(DESTDIR)$(PREFIX)/share/slabsim/examples
	install -m 644 policies/examples/template.c policies/examples/remote_batch.c \
	  policies/README.md policies/API.md $(DESTDIR)$(PREFIX)/share/slabsim/examples/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 man/slabsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/slabsim.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/slabsim $(DESTDIR)$(PREFIX)/share/man/man1/slabsim.1
	rm -rf $(DESTDIR)$(PREFIX)/share/slabsim $(DESTDIR)$(PREFIX)/include/slabsim

clean:
	rm -rf build build-san build-mpi build-fuzz slabsim

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
