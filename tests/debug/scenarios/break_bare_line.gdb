# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# before the kernel runs a bare LINE is a PTX line
break 39
run
stepi
print %p1
kill
