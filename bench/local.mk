# bench/ -- benchmarks (make bench).
