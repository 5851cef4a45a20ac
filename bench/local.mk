# bench/ -- benchmarks (make bench).
noinst_PROGRAMS += bench/bench_kernels
bench_bench_kernels_SOURCES = bench/bench_kernels.c bench/bench_native.c bench/bench.h
bench_bench_kernels_LDADD = libloom.la -lm
EXTRA_DIST += bench/bench_kernels.cu bench/bench_kernels.ptx

.PHONY: bench
bench: bench/bench_kernels
	cd $(srcdir) && $(abs_builddir)/bench/bench_kernels --ptx bench/bench_kernels.ptx --scaling $(BENCH_ARGS)

# PTX front-end throughput (issue: >= 50 MB/s on one core): make bench-parse
noinst_PROGRAMS += bench/bench_parse
bench_bench_parse_SOURCES = bench/bench_parse.c
bench_bench_parse_LDADD = libloomptx.la
.PHONY: bench-parse
bench-parse: bench/bench_parse
	$(abs_builddir)/bench/bench_parse $(srcdir)/tests/corpus/ptx/*.ptx $(srcdir)/tests/ptx/good/*.ptx
bench: bench-parse

# Fixed costs: device creation, module load, per-launch overhead; loom exec start-up
noinst_PROGRAMS += bench/bench_launch
bench_bench_launch_SOURCES = bench/bench_launch.c
bench_bench_launch_LDADD = libloom.la
EXTRA_DIST += bench/bench_exec.sh
.PHONY: bench-launch
bench-launch: bench/bench_launch loom
	$(abs_builddir)/bench/bench_launch
	$(srcdir)/bench/bench_exec.sh $(abs_builddir)
bench: bench-launch

# The compiler's vectorisation report for the instruction families, as built
# for the interpreter (the x86-64-v3 copy where there is one): per file, the
# loops gcc vectorised and those it considered and left scalar; the full
# reports go to vec-report/FILE.txt.
if EMU_V3
VEC_REPORT_FLAGS = $(EMU_OPT_CFLAGS) $(EMU_V3_CFLAGS) -include $(top_srcdir)/emu/emu_variant_v3.h
else
VEC_REPORT_FLAGS = $(EMU_OPT_CFLAGS)
endif
.PHONY: vec-report
vec-report:
	@mkdir -p vec-report; \
	printf '%-12s %11s %8s\n' file vectorised missed; \
	for f in int bits float half cvt cmp mem atom warp ctrl video; do \
	    $(COMPILE) $(VEC_REPORT_FLAGS) -c $(top_srcdir)/emu/emu_$$f.c -o /dev/null \
	        -fopt-info-vec-all=vec-report/$$f.txt || exit 1; \
	    printf '%-12s %11s %8s\n' emu_$$f.c "$$(grep -c 'loop vectorized' vec-report/$$f.txt)" \
	        "$$(grep -c "couldn't vectorize loop" vec-report/$$f.txt)"; \
	done

# SIMT policies against PDOM (issue 16): issue slots, SIMD efficiency and host cost per slot
# for the lab kit and the corpus kernels with divergent branches: make bench-simt
.PHONY: bench-simt
bench-simt: loom
	cd $(srcdir) && LOOM=$(abs_builddir)/loom python3 bench/bench_simt.py --loom $(abs_builddir)/loom $(BENCH_SIMT_ARGS)
EXTRA_DIST += bench/bench_simt.py

# The HTML lab report at scale (issue 17): a synthetic stats JSON of 10^6 threads, 3000 PTX lines,
# 32 warps x 2000 slots: the page under 5 MB, drawn by headless Chromium in under 2 s (median of 5)
.PHONY: bench-report
bench-report: tests/observe/report_json
	python3 $(srcdir)/bench/bench_report.py --report $(abs_builddir)/tests/observe/report_json $(BENCH_REPORT_ARGS)
EXTRA_DIST += bench/bench_report.py

# What debugging costs (issue 18): the first stop in a kernel of 2^20 threads, a step, and a
# conditional breakpoint that never fires against undebugged runs: make bench-debug
noinst_PROGRAMS += bench/bench_debug
bench_bench_debug_SOURCES = bench/bench_debug.c
bench_bench_debug_LDADD = libloom.la
.PHONY: bench-debug
bench-debug: bench/bench_debug
	cd $(srcdir) && $(abs_builddir)/bench/bench_debug --ptx bench/bench_kernels.ptx $(BENCH_DEBUG_ARGS)

# The virtual-time schedule simulator (issue 19): ns per CTA and per op on 10^6 CTAs and
# 10^4 ops, median CPU time of 5 runs: make bench-vtime
noinst_PROGRAMS += bench/bench_vtime
bench_bench_vtime_SOURCES = bench/bench_vtime.c
bench_bench_vtime_LDADD = libloom.la
.PHONY: bench-vtime
bench-vtime: bench/bench_vtime
	$(abs_builddir)/bench/bench_vtime
bench: bench-vtime
# Scheduling policies (issue 19): GrCUDA's six workloads, an ACS-like stream of 10^4 tiny kernels
# and a fork-join sweep, single-stream CUDA programs under serial, fifo, acs and dag, in virtual
# time and on the wall clock, with speed-ups over serial (needs nvcc): make bench-sched
.PHONY: bench-sched
bench-sched: loom
	python3 $(srcdir)/bench/sched/run.py --loom $(abs_builddir)/loom --bin $(abs_builddir)/bench/sched/bin $(BENCH_SCHED_ARGS)
EXTRA_DIST += bench/sched/run.py bench/sched/build.sh bench/sched/cases.txt bench/sched/sched_bench.h \
	bench/sched/vec.cu bench/sched/bs.cu bench/sched/img.cu bench/sched/ml.cu bench/sched/hits.cu \
	bench/sched/dl.cu bench/sched/physics.cu bench/sched/forkjoin.cu bench/sched/expected
