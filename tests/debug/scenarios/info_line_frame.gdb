# loom debug tests/debug/calls.ptx --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
break square
run
info line
info frame
info line calls.cu:3
info line calls.cu:4
info line calls.cu:99
info line
info line nosuch
kill
