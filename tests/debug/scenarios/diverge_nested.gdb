# loom debug tests/debug/diverge.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:4
# odd lanes below 16 loop at line 11
break diverge.cu:11
run
info lanes
info simt
info warps
continue
info simt
kill
