# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break _Z5scaleifPKfPf:$L__BB0_2 if blockIdx.x == 1 && threadIdx.x == 40
run
print %r1
print %p1
delete
continue
