# loom debug tests/debug/calls.ptx --grid 1 --block 64 'out:s32:64>@OUT@/o.bin'
b square
r
bt
where
i b
fin
n
dis 1
cont
