# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# a breakpoint on a CUDA line stops each warp that reaches it
break basic.cu:6
run
print %r1
print i
continue
print %r1
info breakpoints
delete
continue
