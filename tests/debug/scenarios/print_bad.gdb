# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:7
run
print %r99
print %zz
print 1 +
print (2
print i
print 1+2@lanes
print/q %r1
print/xx %r1
print
print 1 / 0
print %r1
kill
