# loom debug tests/debug/calls.ptx --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
# step from the kernel into square through sum_squares, then finish twice
break calls.cu:18
run
step
step
info frame
finish
finish
kill
