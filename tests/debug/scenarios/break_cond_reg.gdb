# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.ptx:46 if %r1 == 70
run
cuda block thread
print %r1
delete
continue
