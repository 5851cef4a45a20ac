# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
# stdin
break scale
run
stepi


info line
list basic.cu:2

x/1dw param 0

kill
