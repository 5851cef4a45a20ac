# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
break reduce
run
until barrier
info barriers
info warps
until barrier
info barriers
delete
continue
