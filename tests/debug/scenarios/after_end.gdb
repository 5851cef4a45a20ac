# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
run
print %r1
info warps
continue
run
break basic.cu:6
info breakpoints
quit
