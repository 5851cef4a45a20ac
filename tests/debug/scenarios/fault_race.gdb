# loom debug tests/debug/faults.ptx --kernel race --racecheck --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
run
cuda thread
print %r1
continue
