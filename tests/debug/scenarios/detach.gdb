# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# the outputs equal those of loom run without the debugger
# same-as-run
break basic.cu:6
run
detach
info breakpoints
