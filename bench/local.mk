# bench/ -- benchmarks (make bench).
noinst_PROGRAMS += bench/bench_kernels
bench_bench_kernels_SOURCES = bench/bench_kernels.c bench/bench_native.c bench/bench.h
bench_bench_kernels_LDADD = libloom.la -lm
EXTRA_DIST += bench/bench_kernels.cu bench/bench_kernels.ptx

.PHONY: bench
bench: bench/bench_kernels
	cd $(srcdir) && $(abs_builddir)/bench/bench_kernels --ptx bench/bench_kernels.ptx $(BENCH_ARGS)
