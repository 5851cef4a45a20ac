# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.ptx:46
run
info line
print/x %r1
continue
info breakpoints
delete 1
continue
