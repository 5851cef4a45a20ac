# loom debug tests/debug/faults.ptx --kernel trap --grid 1 --block 32 'out:s32:32>@OUT@/o.bin'
run
print %r1
info warps
continue
