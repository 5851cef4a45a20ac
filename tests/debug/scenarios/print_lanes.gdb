# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
run
print %r1@lanes
print/x %r5@lanes
print %f1@lanes
print %p1@lanes
kill
