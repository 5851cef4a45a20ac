# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
break shared.cu:8
run
x/8dw shared 0
x/4dw shared 128
until barrier
x/8dw shared 0
kill
