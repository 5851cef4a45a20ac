# loom debug tests/debug/faults.ptx --kernel misaligned --grid 1 --block 32 in:u8:256=zero
run
print %r1
print/x %rd4
continue
