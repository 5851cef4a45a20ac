# loom debug tests/debug/loop.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:10
tbreak loop.cu:8
run
info breakpoints
until loop.cu:11
print %r1
info breakpoints
continue
