# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
x/4dw global 0
break basic.cu:7
run
x/4dw heap 0
x/4zw global %rd4
x/0dw global %rd4
x global
x/4dw global 0
x/4dw global %r99
x/4dw shared 100000
x/4dw local 0
kill
