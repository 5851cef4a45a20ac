# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
# a stop with CUDA lines lists the .cu; list FILE:LINE the PTX
break shared.ptx:47
run
list shared.ptx:47
list shared.cu:8
kill
