# loom debug tests/debug/loop.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:10
# until leaves the loop where next goes round it
break loop.cu:8
run
delete
next
next
next
until
until
info line
print %r1
kill
