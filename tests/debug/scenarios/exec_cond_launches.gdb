# loom exec streams
# fill runs twice (a, then b): the breakpoint stops in each launch
break streams.cu:8 if threadIdx.x == 5
run
info kernels
print %r2
print %r1
continue
info kernels
print %r2
print %r1
continue
