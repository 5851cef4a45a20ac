# loom debug tests/debug/loop.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:10
break loop.cu:7
run
next
next
next
until
until
info line
print %r1
kill
