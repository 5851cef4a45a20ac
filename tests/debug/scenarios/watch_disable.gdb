# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
watch shared 0
disable 1
break shared.cu:15
run
enable 1
info breakpoints
reverse-continue
continue
kill
