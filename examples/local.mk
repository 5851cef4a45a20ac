# examples/ -- classic kernels run through loom run.
EXTRA_DIST += examples/README.md examples/show.py examples/gen_ptx.sh \
	examples/saxpy examples/reduction examples/scan examples/matmul examples/spmv \
	examples/histogram examples/bitonic examples/mandelbrot
