# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
break shared.cu:15
run
watch shared 0
reverse-continue
reverse-continue
continue
kill
