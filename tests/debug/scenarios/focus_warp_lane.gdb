# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
run
cuda warp 1 lane 5
cuda thread
print %laneid
print %tid.x
cuda lane 7
cuda thread
cuda warp 0
cuda warp lane
kill
