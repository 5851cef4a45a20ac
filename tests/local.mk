# tests/ -- Check unit tests and golden-file tests.
# Test scripts find the built command and the sources through these.
AM_TESTS_ENVIRONMENT = LOOM='$(abs_top_builddir)/loom'; export LOOM; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	TSAN_OPTIONS="suppressions=$(abs_top_srcdir)/tests/tsan.supp $${TSAN_OPTIONS-}"; export TSAN_OPTIONS;
if SANITIZE
AM_TESTS_ENVIRONMENT += LOOM_SANITIZED=1; export LOOM_SANITIZED;
endif
# emu/simt/: every kernel and CUDA program under each SIMT policy (issue 16)
TESTS += tests/simt/policies.sh
check_PROGRAMS += tests/unit/check_loom
tests_unit_check_loom_SOURCES = tests/unit/check_main.c tests/unit/suites.def \
	tests/unit/check_sched_preset.c tests/unit/check_loom_api.c
tests_unit_check_loom_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DLOOM_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_check_loom_LDADD = libloom.la libloomemu.la libloommem.la libloomptx.la $(CHECK_LIBS) $(HWLOC_LIBS) $(FFI_LIBS) -lm
TESTS += tests/unit/check_loom
EXTRA_DIST += tests/run-specs.py tests/record-gpu.sh tests/tsan.supp
# ptx/ptx_ops.def: every (opcode, type) of the table decodes or is refused with a reason
tests_unit_check_loom_SOURCES += tests/unit/check_ops.c
# emu/emu_host.c: printf FIFO and device heap
tests_unit_check_loom_SOURCES += tests/unit/check_emu_host.c
# ptx/: front-end unit tests (the demangler too) and golden diagnostics of malformed PTX
tests_unit_check_loom_SOURCES += tests/unit/check_ptx.c tests/unit/check_ptx_demangle.c
TESTS += tests/ptx/run-bad.sh
EXTRA_DIST += tests/ptx/run-bad.sh tests/ptx/bad tests/ptx/good
# cli/loom_cmd_run.c: argument errors (golden messages) and valid runs
TESTS += tests/cli/run-args.sh tests/cli/docs-sync.sh tests/cli/exec-libs.sh tests/cli/progress.sh tests/cli/dump-ptx.sh tests/cli/readme-support.sh tests/cli/install.sh tests/cli/sanitizer.sh tests/cli/newcomer.sh tests/cli/simt.sh
EXTRA_DIST += tests/cli
# ptx/ptx_input.c: PTX input over the 256 MiB limit (/dev/zero, pipes, large files) is refused
TESTS += tests/cli/input-limit.sh
# runtime/rt_fatbin.c, runtime/rt_link.c: the fatbinary reader and the -rdc PTX linker
tests_unit_check_loom_SOURCES += tests/unit/check_rt_fatbin.c
tests_unit_check_loom_LDADD += runtime/librtfatbin.la
# tests/unit/edge_runner.c: the runs.txt edge kernels of the emu_* suites, against H100 recordings
tests_unit_check_loom_SOURCES += tests/unit/edge_runner.c tests/unit/edge_runner.h
# emu/emu_warp.c, emu/emu_atom.c: warp-level operations and atomics against H100 recordings
tests_unit_check_loom_SOURCES += tests/unit/check_emu_warp.c
EXTRA_DIST += tests/edge/warp tests/edge/atom
# emu/emu_int.c, emu_bits.c, emu_cmp.c: integer, bit and comparison semantics against H100 recordings
tests_unit_check_loom_SOURCES += tests/unit/check_emu_int.c
EXTRA_DIST += tests/edge/int
TESTS += tests/ptx/run-verbose.sh
EXTRA_DIST += tests/ptx/run-verbose.sh tests/ptx/verbose
# tests/corpus: the PTX corpus that check_ptx.c (test_corpus_clean) parses
EXTRA_DIST += tests/corpus
# runtime/: the CUDA runtime stand-in -- its ABI against NVIDIA's headers, and CUDA programs
# built with nvcc --cudart shared run under loom exec (both skip without nvcc)
TESTS += tests/cuda/abi-check.sh tests/cuda/run-tests.sh
EXTRA_DIST += tests/cuda/abi-check.sh tests/cuda/run-tests.sh tests/cuda/build.sh tests/cuda/record-gpu.sh \
	tests/cuda/XFAIL tests/cuda/api-usage.txt tests/cuda/abi tests/cuda/src tests/cuda/expected
CLEANFILES += tests/cuda/bin/*/*
# driver/: the driver API stand-in -- C programs built against NVIDIA's cuda.h run under loom exec
# (skipped without the CUDA headers), and its coverage of NVIDIA's libcuda.so.1 entry points
TESTS += tests/driver/run-tests.sh tests/driver/coverage.sh
EXTRA_DIST += tests/driver/run-tests.sh tests/driver/coverage.sh tests/driver/src tests/driver/expected \
	tests/driver/DIFFERENCES
CLEANFILES += tests/driver/bin/*
# emu/emu_float.c, emu_half.c, emu_cvt.c: floating point against H100 recordings
tests_unit_check_loom_SOURCES += tests/unit/check_emu_float.c
EXTRA_DIST += tests/edge/float
# sched/: CTAs waiting on other CTAs with 1, 2 and 16 workers; cooperative grid sync; deterministic printf order
TESTS += tests/sched/run.sh
EXTRA_DIST += tests/sched/run.sh tests/sched/sched.cu tests/sched/sched.ptx tests/sched/gen_ptx.sh
# sched/sched_policy.c, runtime/rt_launch.c: a CUDA program's exact ranges (loom/hints.h) under dag
TESTS += tests/sched/hints.sh tests/sched/race.sh
EXTRA_DIST += tests/sched/hints.sh tests/sched/hints.cu tests/sched/race.sh tests/sched/race.cu
# sched/ policies (issue 19): the scheduling benchmarks (bench/sched) and the CUDA programs give
# the same output under serial, fifo, acs and dag, and the benchmarks match their H100 recordings
TESTS += tests/sched/policies.sh
EXTRA_DIST += tests/sched/policies.sh
CLEANFILES += bench/sched/bin/*
# emu/emu_mma.c, emu_mma_arith.c: the tensor-core family and a Triton tl.dot kernel against H100 recordings
tests_unit_check_loom_SOURCES += tests/unit/check_emu_mma.c
EXTRA_DIST += tests/edge/mma
# emu/emu_video.c: the video instructions against H100 recordings
tests_unit_check_loom_SOURCES += tests/unit/check_emu_video.c
EXTRA_DIST += tests/edge/video
# tests/faults: the report of every kind of kernel fault through loom run (golden files,
# host addresses normalised), and CUDA programs checking the error codes under loom exec
TESTS += tests/faults/run.sh
EXTRA_DIST += tests/faults
# The kernel corpus and the examples against H100 recordings; all committed PTX checks clean
TESTS += tests/run-corpus.sh
EXTRA_DIST += tests/run-corpus.sh tests/corpus examples tests/edge/codegen tests/edge/uniform tests/edge/affine
TESTS += tests/faults/cuda/run.sh
CLEANFILES += tests/faults/cuda/bin/*
# SIMT reconvergence: paths meeting at shared blocks run warp-synchronous instructions together
TESTS += tests/simt/run.sh
EXTRA_DIST += tests/simt
# examples/labs/simt: the SIMT lab kit against H100 recordings, once per policy of
# LOOM_SIMT_POLICIES (default pdom); the intra-warp lock must end with a report, not hang
TESTS += tests/simt/labs.sh
# ... and its statistics under every policy, exactly as the kit's README.md tabulates them
TESTS += tests/simt/lab-stats.py
# Counters (issue 17, docs/OBSERVE.md): counting changes no result or total; the JSON document
TESTS += tests/observe/counters.py
# examples/labs/memory: bank conflicts, coalescing and occupancy as loom run --stats=json counts
# them, against the counts derived by hand and an H100's Nsight Compute counters
TESTS += tests/observe/memlab.sh
# Public CUDA suites compiled to PTX by tests/suites/gen.sh (not shipped): loom check and the
# interpreter give one answer per file; skipped unless LOOM_SUITES_PTX names gen.sh's output
TESTS += tests/suites/run.sh
EXTRA_DIST += tests/suites
# ptx/ptx_regalloc.c, sched/sched_preset.c: the register estimate and the occupancy rules against
# an H100's answers for every kernel of the repository (tests/occupancy/h100.txt), and ptxas's
# register counts recomputed when ptxas is installed
tests_unit_check_loom_SOURCES += tests/unit/check_ptx_regalloc.c
# ptx/ptx_access.c: each kernel parameter's access to global memory, on the kernels of
# tests/unit/access/kernels.cu (nvcc's PTX committed; gen_ptx.sh), hand-written PTX and every
# committed PTX file of the tree
tests_unit_check_loom_SOURCES += tests/unit/check_ptx_access.c
EXTRA_DIST += tests/unit/access
check_PROGRAMS += tests/occupancy/occ_compare
tests_occupancy_occ_compare_SOURCES = tests/occupancy/occ_compare.c
tests_occupancy_occ_compare_LDADD = libloom.la libloomemu.la libloommem.la libloomptx.la $(HWLOC_LIBS) $(FFI_LIBS) -lm
TESTS += tests/occupancy/run.sh tests/occupancy/ptxas.sh
EXTRA_DIST += tests/occupancy/run.sh tests/occupancy/ptxas.sh tests/occupancy/h100.txt tests/occupancy/cudaptx
# observe/trace.c: the Chrome trace recorder (unit suite trace), and --trace under loom run and
# loom exec validated by tests/observe/check_trace.py
tests_unit_check_loom_SOURCES += tests/unit/check_trace.c
# debug/debug.c: the debugger's core (breakpoints, steps, watchpoints, faults, going back)
tests_unit_check_loom_SOURCES += tests/unit/check_debug.c
# sched/sched_policy.c: the order of kernels under each scheduling policy, and bad policy specs
tests_unit_check_loom_SOURCES += tests/unit/check_sched_policy.c
EXTRA_DIST += tests/unit/debug
TESTS += tests/observe/trace.sh
# observe/report.c: the HTML lab report of a hand-written stats JSON (two SIMT policies), drawn
# by headless Chromium (skipped without it): the views' elements and numbers, no network
check_PROGRAMS += tests/observe/report_json
tests_observe_report_json_SOURCES = tests/observe/report_json.c
tests_observe_report_json_LDADD = libloom.la
TESTS += tests/observe/report.sh
EXTRA_DIST += tests/observe
# debug/prompt.c, cli/loom_cmd_debug.c: the debugger's prompt -- scripted scenarios (batch files
# and their exact transcripts) under loom debug, CUDA programs under loom exec --debug (skipped
# without nvcc), and the prompt on a terminal typed through tmux (skipped without tmux)
TESTS += tests/debug/run.sh tests/debug/exec.sh tests/debug/tmux.sh
EXTRA_DIST += tests/debug
CLEANFILES += tests/debug/bin/*
# cli/loom_cmd_dap.c: `loom dap` driven by a small DAP client as an editor drives it (issue 18):
# breakpoints, threads, stack, scopes, variables, steps forward and back, watch, fault, detach,
# malformed messages
TESTS += tests/dap/dap_session.py tests/dap/editor.sh
EXTRA_DIST += tests/dap
# sched/sched_vtime.c: the virtual-time schedule simulator (issue 19): schedules worked out by
# hand, invariants and determinism of random workloads, bad input; 10^6 CTAs timed (printed)
tests_unit_check_loom_SOURCES += tests/unit/check_vtime.c
