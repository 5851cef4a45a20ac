# loom debug tests/debug/diverge.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:4
break diverge.cu:13
run
info lanes
next
next
info lanes
kill
