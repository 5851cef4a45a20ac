# loom debug tests/debug/faults.ptx --kernel check --grid 1 --block 64 in:s32:64=iota
run
cuda thread
print %r1
backtrace
continue
