# loom exec streams
# the third launch, twice on stream 1, after fill on both streams
break streams.cu:14
run
info kernels
print %r1
x/2dw global %rd2
delete
continue
