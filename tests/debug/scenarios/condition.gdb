# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
condition 1 threadIdx.x == 40
run
print threadIdx.x
condition 1
info breakpoints
continue
print threadIdx.x
condition 1 blockIdx.x ==
condition 7 lane == 1
delete
continue
