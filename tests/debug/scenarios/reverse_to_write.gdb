# loom debug tests/debug/faults.ptx --kernel oob --grid 1 --block 64 'out:s32:64>@OUT@/i.bin' 'out:s32:64>@OUT@/o.bin'
# back from the out-of-bounds store to the write of the index it used
run
print %r2
watch global %rd6
reverse-continue
print %r1
print %r2
x/1dw global %rd6
continue
continue
