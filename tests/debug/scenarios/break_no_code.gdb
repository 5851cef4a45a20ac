# loom debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>@OUT@/y.bin'
break basic.cu:6
run
break basic.cu:3
break basic.cu:1
break basic.ptx:12
break basic.ptx:99
break nosuch
break nosuch.cu:4
break basic.cu:0
break
break basic.cu:7 if
break basic.cu:7 if %r1 === 2
break basic.cu:7 if %r99 == 1
info breakpoints
continue
delete
continue
