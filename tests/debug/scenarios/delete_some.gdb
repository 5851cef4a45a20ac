# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
tbreak basic.cu:7
break scale
delete 1 3
info breakpoints
delete 9
delete x
run
continue
