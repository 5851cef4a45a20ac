# loom debug tests/debug/diverge.ptx --grid 1 --block 32 'out:s32:32>@OUT@/o.bin' s32:4
# even lanes loop at line 8; odd lanes wait
break diverge.cu:8
run
info lanes
info simt
print %r1@lanes
kill
