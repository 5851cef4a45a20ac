# examples/ -- classic kernels run through loom run.
