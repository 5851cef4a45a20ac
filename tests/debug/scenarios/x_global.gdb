# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:7
run
x/4fw global %rd4
x/4xw global %rd4
x/2dg global %rd4
x/8xb global %rd4
x/3uh global %rd4+2
x/2fg global %rd4
x/4dw global %rd4+392
kill
