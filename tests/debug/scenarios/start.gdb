# loom debug tests/debug/loop.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:10
start
info line
stepi
continue
