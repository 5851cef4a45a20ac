#!/usr/bin/env bash
# run.sh -- SIMT reconvergence: lanes that reach a block along different
# branches execute its warp-synchronous instructions together.
set -u
here=$(cd "$(dirname "$0")" && pwd)
loom=${LOOM:-$here/../../loom}
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import struct, sys
t = sys.argv[1]
a = [(i * 7) % 3 for i in range(64)]; b = [(i * 5) % 2 for i in range(64)]; sel = [(i * 13) % 5 for i in range(64)]
for name, v in (("a", a), ("b", b), ("sel", sel)):
    open("%s/%s.bin" % (t, name), "wb").write(struct.pack("<64i", *v))
PY
fail=0
"$loom" run "$here/two_paths.ptx" --grid 1 --block 64 'in:u32:64=iota' "out:u32:64>$tmp/tp.bin" || fail=1
"$loom" run "$here/simt.ptx" --kernel else_of_and --grid 1 --block 64 "in:s32:64=@$tmp/a.bin" "in:s32:64=@$tmp/b.bin" "out:s32:64>$tmp/eoa.bin" || fail=1
"$loom" run "$here/simt.ptx" --kernel shared_tail --grid 1 --block 64 "in:s32:64=@$tmp/sel.bin" "out:s32:64>$tmp/st.bin" || fail=1
python3 - "$tmp" <<'PY' || fail=1
import struct, sys
t = sys.argv[1]
a = [(i * 7) % 3 for i in range(64)]; b = [(i * 5) % 2 for i in range(64)]; sel = [(i * 13) % 5 for i in range(64)]
bad = 0
def check(name, got, want):
    global bad
    if list(got) != want:
        print("%s: got %s, want %s" % (name, got[:8], want[:8])); bad = 1
want = []
for w in range(2):
    m = sum(1 << l for l in range(32) if not ((w * 32 + l) & 1 and (w * 32 + l) & 2))
    want += [1000 if (w * 32 + l) & 1 and (w * 32 + l) & 2 else m for l in range(32)]
check("two_paths", struct.unpack("<64I", open(t + "/tp.bin", "rb").read()), want)
want = []
for w in range(2):
    lanes = range(w * 32, w * 32 + 32); m = [x for x in lanes if not (a[x] and b[x])]
    want += [-1 if a[x] and b[x] else (m[0] % 32 + w * 32) * 10 + len(m) for x in lanes]
check("else_of_and", struct.unpack("<64i", open(t + "/eoa.bin", "rb").read()), want)
want = []
for w in range(2):
    lanes = range(w * 32, w * 32 + 32); r = {x: [0, 100, 200, 300][sel[x] & 3] for x in lanes}
    c = sum(1 for x in lanes if sel[x] & 3 and r[x] >= 200)
    want += [r[x] + (c if sel[x] & 3 else 0) for x in lanes]
check("shared_tail", struct.unpack("<64i", open(t + "/st.bin", "rb").read()), want)
sys.exit(bad)
PY
exit $fail
