# loom debug tests/debug/calls.ptx --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
break square
run
backtrace
finish
backtrace
finish
backtrace
kill
