# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
continue
step
stepi
next
finish
until
print %r1
x/4dw global 0
info warps
info registers
backtrace
cuda thread 1
reverse-stepi
detach
kill
list
info breakpoints
run 5
run
