# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
run
cuda thread 40
print %r1
print threadIdx.x
cuda block (1,0,0) thread (33,0,0)
print %r1
cuda thread (0,0,0)
print %r1
kill
