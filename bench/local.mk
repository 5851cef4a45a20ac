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
