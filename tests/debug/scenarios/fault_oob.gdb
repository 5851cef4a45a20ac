# loom debug tests/debug/faults.ptx --kernel oob --grid 1 --block 64 'out:s32:64>@OUT@/i.bin' 'out:s32:64>@OUT@/o.bin'
run
print %r1
print %r2
backtrace
info lanes
continue
