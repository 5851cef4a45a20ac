# loom debug tests/debug/calls.ptx --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
break calls.cu:18
run
step
backtrace
step
step
backtrace
kill
