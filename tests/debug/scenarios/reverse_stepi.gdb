# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:7
run
stepi
stepi
print %f3
reverse-stepi
print %f3
reverse-stepi
reverse-stepi
print %rd7
kill
