# tests/stress/ -- the stress suite: host threads racing on the CUDA runtime stand-in (docs/STRESS.md).
# `make check` runs its CI size (tests/stress/run.sh: short rounds, seconds); `make stress` runs
# the stress size (five one-minute rounds of 8 threads). STRESS_SEED=S sets the first round's
# seed; STRESS_ARGS passes options to the program, e.g. `make stress STRESS_ARGS=--reset`.
TESTS += %D%/run.sh
EXTRA_DIST += %D%/run.sh %D%/stress.cu %D%/stress_ops.cu %D%/stress.h
CLEANFILES += %D%/bin/stress %D%/bin/out %D%/bin/build.log
STRESS_ARGS =
.PHONY: stress
stress: loom runtime/libcudart.la
	$(AM_TESTS_ENVIRONMENT) $(abs_top_srcdir)/%D%/run.sh --size stress -- $(STRESS_ARGS)
