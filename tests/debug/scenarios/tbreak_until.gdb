# loom debug tests/debug/loop.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:10
tbreak loop.cu:8
run
until loop.cu:8
until loop.cu:11
info breakpoints
continue
