# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
watch
watch local 0
watch global 0 3
watch global %rd2
break scale
run
watch global %r99
watch param 0
watch shared x y z
kill
