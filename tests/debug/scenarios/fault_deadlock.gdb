# loom debug tests/debug/faults.ptx --kernel deadlock --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
run
info barriers
info warps
continue
