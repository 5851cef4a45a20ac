# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:7 if threadIdx.x == 3
run
print blockIdx.x * blockDim.x + threadIdx.x
print %r1 * 2 + 1
print 7 / 2
print 7 % 3
print 1.5 * 2
print/x 255
print 1 << 4 | 3
print lane
print warp
print gridDim.x
print blockDim.x == 64 && !(lane > 3)
print %f1 > 1.5
kill
