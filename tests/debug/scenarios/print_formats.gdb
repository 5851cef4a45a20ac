# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.ptx:53 if threadIdx.x == 5
run
print %r1
print/x %r1
print/d %r1
print/u %r1
print/t %r1
print %f4
print/x %f4
print/f %r1
print/x %p1
print/x %rd5
print/d %rd5
kill
