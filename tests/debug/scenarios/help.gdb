# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
help
help break
help x
help print
help info
help cuda
help nosuch
help b
help rc
quit
