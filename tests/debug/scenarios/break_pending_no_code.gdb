# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# set before the module is loaded: checked when the kernel launches
break basic.cu:3
break nosuch
break basic.cu:6
run
info breakpoints
delete
continue
