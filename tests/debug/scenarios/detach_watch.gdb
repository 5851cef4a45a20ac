# loom debug tests/debug/shared.ptx --grid 2 --block 64 in:s32:128=iota 'out:s32:2>@OUT@/o.bin'
# same-as-run
watch shared 0
run
detach
