# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# %f4 compared as a float with a literal with a point: y = 2x > 100.5 first for x = 51
break basic.ptx:53 if %f4 > 100.5
run
print %f4
print %r1
delete
continue
