# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
run
cuda thread 64
cuda thread (1,2,0)
cuda block (5,0,0)
cuda warp 9
cuda warp 0 lane 40
cuda blok 1
cuda thread (a)
cuda thread 3 warp 1
cuda block
cuda thread
print %r1
kill
