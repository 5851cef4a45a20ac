# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6 if blockIdx.x == 1 && threadIdx.x == 5
run
print %r1
cuda block thread
info breakpoints
delete
continue
