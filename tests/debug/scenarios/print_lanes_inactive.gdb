# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# block 1, warp 1: threads 96-99 (i < 100) run the store, 100-127 branched away
break basic.cu:7 if blockIdx.x == 1 && threadIdx.x == 32
run
print %r1@lanes
info lanes
info warps
kill
