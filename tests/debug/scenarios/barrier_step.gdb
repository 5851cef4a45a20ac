# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
break shared.cu:8
run
print %r2@lanes
stepi
info barriers
cuda warp 1 lane 0
info warps
kill
