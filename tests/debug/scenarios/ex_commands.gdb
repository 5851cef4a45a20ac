# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# ex: break basic.cu:7 if threadIdx.x == 2
# ex: run
print %r1
print/f %f4
continue
