# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:7
run
print %r1
print %r2
print %f1
print %f2
print %rd1
print %p1
print %tid.x
print %ctaid.x
print %ntid.x
print %laneid
print %warpid
kill
