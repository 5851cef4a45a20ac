#!/bin/sh
# run-args.sh -- `loom run`: every command-line error gives its one-line message (golden
# files expected/NAME.err) and exit status; valid runs give the expected bytes and output.
#   REGEN=1 tests/cli/run-args.sh   rewrites the golden .err files from the current messages.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=${srcdir:-.}
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "run-args.sh: $LOOM not built" >&2; exit 99; }
cd "$srcdir/tests/cli" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-run-args.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
count=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# err NAME STATUS ARGS...: `loom run ARGS` exits with STATUS, prints nothing on stdout
# and exactly expected/NAME.err on stderr.
err() {
    name=$1 want=$2
    shift 2
    count=$((count + 1))
    "$LOOM" run "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "${REGEN:-}" = 1 ]; then
        cp "$tmp/err" "expected/$name.err"
    fi
    [ "$rc" = "$want" ] || fail "$name: exit status $rc, want $want"
    [ -s "$tmp/out" ] && fail "$name: printed on stdout: $(head -c 200 "$tmp/out")"
    if ! cmp -s "$tmp/err" "expected/$name.err"; then
        fail "$name: stderr differs"
        diff "expected/$name.err" "$tmp/err" | sed 's/^/    /'
    fi
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$name: stderr is not one line"
}

# ---- Options and the launch shape -------------------------------------------------------
A="out:u32:4>$tmp/o.bin in:u32:4=zero u32:1 u32:4"
err no_file 2
err unknown_option 2 one.ptx --grd 1 --block 1 $A
err missing_value 2 one.ptx --block 1 $A --grid
err no_grid 2 one.ptx --block 1 $A
err no_block 2 one.ptx --grid 1 $A
err grid_twice 2 one.ptx --grid 1 --grid=2 --block 1 $A
err sched_unknown 2 one.ptx --grid 1 --block 1 --sched fast $A
err sched_window 2 one.ptx --grid 1 --block 1 --sched acs:window=0 $A
err sched_option 2 one.ptx --grid 1 --block 1 --sched dag:window=4 $A
err sched_twice 2 one.ptx --grid 1 --block 1 --sched dag --sched=serial $A
err timing_unknown 2 one.ptx --grid 1 --block 1 --timing virtual $A
err grid_zero 2 one.ptx --grid 4,0 --block 1 $A
err grid_dims 2 one.ptx --grid 1,1,1,1 --block 1 $A
err grid_hex 2 one.ptx --grid 0x10 --block 1 $A
err grid_empty 2 one.ptx --grid 4, --block 1 $A
err grid_limit 2 one.ptx --grid 1,65536 --block 1 $A
err block_limit 2 one.ptx --grid 1 --block 2048 $A
err block_z_limit 2 one.ptx --grid 1 --block 1,1,65 $A
err block_threads 2 one.ptx --grid 1 --block 32,32,2 $A
err shared_bad 2 one.ptx --grid 1 --block 1 --shared 1k $A
err shared_limit 2 one.ptx --grid 1 --block 1 --shared 49153 $A
err workers_zero 2 one.ptx --grid 1 --block 1 --workers 0 $A
err timeout_bad 2 one.ptx --grid 1 --block 1 --timeout -1 $A
err watchdog_bad 2 one.ptx --grid 1 --block 1 --watchdog -1 $A
err flag_value 2 one.ptx --grid 1 --block 1 --no-check=1 $A
err stats_value 2 one.ptx --grid 1 --block 1 --stats=1 $A
err stats_json_name 2 one.ptx --grid 1 --block 1 $A --stats=json
err unknown_device 2 one.ptx --grid 1 --block 1 --device nope $A
err target_too_new 1 one.ptx --grid 1 --block 1 --device g80 $A
err ptx_missing 1 missing.ptx --grid 1 --block 1 $A
# .reqntid fixes the block's shape and .maxntid bounds its threads, as on the GPU
err reqntid_shape 2 bounds.ptx --kernel req --grid 1 --block 32,4
err reqntid_threads 2 bounds.ptx --kernel req --grid 1 --block 256
err maxntid_threads 2 bounds.ptx --kernel maxn --grid 1 --block 16,16

# ---- Choosing the kernel ---------------------------------------------------------------
err unknown_kernel 2 two.ptx --kernel nope --grid 1 --block 1
err kernel_needed 2 two.ptx --grid 1 --block 1
err no_kernels 2 noentry.ptx --grid 1 --block 1
T="types.ptx --kernel store_types --grid 1 --block 1 out:u16:4>$tmp/t.bin"
err f16_range 2 $T f16:65520 bf16:0 b16:0 ptr:null
err bf16_range 2 $T f16:0 bf16:3.4e39 b16:0 ptr:null
err b16_range 2 $T f16:0 bf16:0 b16:65536 ptr:null
err b16_negative 2 $T f16:0 bf16:0 b16:-32769 ptr:null
err ptr_bad 2 $T f16:0 bf16:0 b16:0 ptr:nil
err kernel_ambiguous 2 names.ptx --kernel twice --grid 1 --block 1 "out:s32:1>$tmp/o.bin"
err kernel_template_ambiguous 2 names.ptx --kernel fill --grid 1 --block 1 "out:s32:1>$tmp/o.bin" s32:1
err kernel_unknown_cxx 2 names.ptx --kernel 'lab::nope' --grid 1 --block 1
err too_few 2 two.ptx --kernel add_u32 --grid 1 --block 1 u64:0
err too_many 2 two.ptx --kernel hello --grid 1 --block 1 s32:1 s32:2
err none_taken 2 one.ptx --kernel scale --grid 1 --block 1 u32:1 u32:1 u32:1 u32:1 u32:1

# ---- Scalars -----------------------------------------------------------------------------
B="two.ptx --kernel add_u32 --grid 1 --block 1 out:u32:4>$tmp/o.bin in:u32:4=zero in:u32:4=zero"
err no_colon 2 $B u32
err unknown_type 2 $B q32:5
err bad_number 2 $B u32:12x
err float_for_int 2 $B u32:2.5
err empty_value 2 $B u32:
err leading_space 2 $B "u32: 5"
err bad_octal 2 $B u32:08
err bad_hex 2 $B u32:0x
err u32_negative 2 $B u32:-1
err size_mismatch 2 $B u64:4
err buffer_for_u32 2 $B in:u32:4=zero
S="two.ptx --kernel scalars --grid 1 --block 1 out:u8:42>$tmp/s.bin"
err s8_low 2 $S s8:-129 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:0 f64:0
err s16_high 2 $S s8:0 s16:32768 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:0 f64:0
err s64_high 2 $S s8:0 s16:0 s32:0 s64:9223372036854775808 u8:0 u16:0 u32:0 u64:0 f32:0 f64:0
err u8_high 2 $S s8:0 s16:0 s32:0 s64:0 u8:256 u16:0 u32:0 u64:0 f32:0 f64:0
err u64_high 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:18446744073709551616 f32:0 f64:0
err f32_high 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:1e39 f64:0
err f32_tie 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:3.4028235677973366e38 f64:0
err f64_high 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:0 f64:-1e309
err f32_bad 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:1.5f f64:0
err f32_for_f64 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:0 f32:0
err buffer_for_f64 2 $S s8:0 s16:0 s32:0 s64:0 u8:0 u16:0 u32:0 u64:0 f32:0 in:f64:1=zero
err struct_param 2 two.ptx --kernel bystruct --grid 1 --block 1 u64:1 "out:u8:16>$tmp/b.bin"

# ---- Buffers -----------------------------------------------------------------------------
C="two.ptx --kernel add_u32 --grid 1 --block 1"
err count_zero 2 $C in:u32:0=zero in:u32:4=zero in:u32:4=zero u32:4
err count_bad 2 $C in:u32:abc=zero in:u32:4=zero in:u32:4=zero u32:4
err count_negative 2 $C in:u32:-1=zero in:u32:4=zero in:u32:4=zero u32:4
err count_range 2 $C in:u32:99999999999999999999=zero in:u32:4=zero in:u32:4=zero u32:4
err count_absurd 2 $C in:u32:100000000000=zero in:u32:4=zero in:u32:4=zero u32:4
err buffer_no_type 2 $C in:u32 in:u32:4=zero in:u32:4=zero u32:4
err buffer_bad_type 2 $C in:x32:4=zero in:u32:4=zero in:u32:4=zero u32:4
err in_no_init 2 $C in:u32:4 in:u32:4=zero in:u32:4=zero u32:4
err in_with_out 2 $C "in:u32:4=zero>x.bin" in:u32:4=zero in:u32:4=zero u32:4
err out_with_init 2 $C "out:u32:4=zero>x.bin" in:u32:4=zero in:u32:4=zero u32:4
err out_no_path 2 $C out:u32:4 in:u32:4=zero in:u32:4=zero u32:4
err out_empty_path 2 $C "out:u32:4>" in:u32:4=zero in:u32:4=zero u32:4
err inout_no_out 2 $C inout:u32:4=zero in:u32:4=zero in:u32:4=zero u32:4
err bad_init 2 $C in:u32:4=ones in:u32:4=zero in:u32:4=zero u32:4
err fill_range 2 $C in:u32:4=fill:-3 in:u32:4=zero in:u32:4=zero u32:4
err at_empty 2 $C in:u32:4=@ in:u32:4=zero in:u32:4=zero u32:4
err file_missing 1 $C in:u32:4=@inputs/nothere.bin in:u32:4=zero in:u32:4=zero u32:4
err file_size 2 $C in:u32:5=@inputs/four_u32.bin in:u32:4=zero in:u32:4=zero u32:4
err file_is_dir 1 $C in:u32:4=@inputs in:u32:4=zero in:u32:4=zero u32:4
err out_no_dir 1 $C "out:u32:4>nodir/o.bin" in:u32:4=zero in:u32:4=zero u32:4
err out_is_dir 1 $C "out:u32:4>inputs" in:u32:4=zero in:u32:4=zero u32:4

# ---- Kernel failures: status 1 and the fault report after "loom run: " ------------------------
count=$((count + 1))
"$LOOM" run two.ptx --kernel oob --grid 1 --block 1 in:s32:4=zero >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "fault: exit status $rc, want 1"
grep -q "^loom run: .*" "$tmp/err" && grep -q "oob" "$tmp/err" || fail "fault: report missing: $(cat "$tmp/err")"

# ---- PTX that loom check refuses: the diagnostics and status 1, no crash ---------------------
count=$((count + 1))
{
    printf '.version 8.7\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<2>;\n'
    printf 'add.u32 %%r1, %%r0, '
    awk 'BEGIN { for (i = 0; i < 50000; i++) printf "("; printf "1"; for (i = 0; i < 50000; i++) printf ")" }'
    printf ';\nret;\n}\n'
} >"$tmp/deep.ptx"
"$LOOM" run "$tmp/deep.ptx" --grid 1 --block 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "deep: exit status $rc, want 1"
grep -q "deep.ptx:7:274: error: constant expression nested too deeply (limit 256)" "$tmp/err" ||
    fail "deep: no nesting error: $(head -c 300 "$tmp/err")"

# ---- Valid runs -------------------------------------------------------------------------------
# Every scalar type, stored as gpurun stores it (expected/scalars.bin: 42 raw bytes).
count=$((count + 1))
"$LOOM" run two.ptx --kernel scalars --grid 1 --block 1 "out:u8:42>$tmp/scalars.bin" s8:-2 s16:-300 \
    s32:0x7fffffff s64:-5 u8:255 u16:010 u32:4294967295 u64:18446744073709551615 f32:0.1 f64:-2.5e-3 \
    >"$tmp/out" 2>"$tmp/err" || fail "scalars: exit status $?: $(cat "$tmp/err")"
cmp -s "$tmp/scalars.bin" expected/scalars.bin || fail "scalars: bytes differ: $(od -An -tx1 "$tmp/scalars.bin")"

# Buffers from a file, iota and fill; inout written back; options accepted.
count=$((count + 1))
"$LOOM" run one.ptx --grid=1 --block 32 --workers 2 --deterministic --no-check --timeout 60 \
    "inout:u32:4=@inputs/four_u32.bin>$tmp/scale.bin" "in:u32:4=iota" u32:3 u32:4 \
    >"$tmp/out" 2>"$tmp/err" || fail "scale: exit status $?: $(cat "$tmp/err")"
printf '\000\000\000\000\003\000\000\000\006\000\000\000\011\000\000\000' >"$tmp/want"
cmp -s "$tmp/scale.bin" "$tmp/want" || fail "scale: bytes differ: $(od -An -tx1 "$tmp/scale.bin")"
count=$((count + 1))
"$LOOM" run one.ptx --grid 1 --block 32 "out:u32:3>$tmp/fill.bin" "in:u32:3=fill:0x10" u32:2 u32:3 \
    >"$tmp/out" 2>"$tmp/err" || fail "fill: exit status $?: $(cat "$tmp/err")"
printf '\040\000\000\000\040\000\000\000\040\000\000\000' >"$tmp/want"
cmp -s "$tmp/fill.bin" "$tmp/want" || fail "fill: bytes differ: $(od -An -tx1 "$tmp/fill.bin")"

# --kernel takes a C++ kernel's PTX name, its signature (with or without the return type),
# its name without parameters, or its plain name where only one kernel has it.
names_run() {   # WANT-BYTES KERNEL ARGS...
    want=$1 k=$2
    shift 2
    count=$((count + 1))
    if "$LOOM" run names.ptx --kernel "$k" --grid 1 --block 2 "$@" >"$tmp/out" 2>"$tmp/err"; then
        [ "$(od -An -tx1 "$tmp/n.bin" | tr -d ' \n')" = "$want" ] || fail "--kernel '$k': bytes $(od -An -tx1 "$tmp/n.bin")"
    else
        fail "--kernel '$k': exit status $?: $(cat "$tmp/err")"
    fi
}
names_run 0100000001000000 bump "inout:s32:2=zero>$tmp/n.bin"
names_run 0100000001000000 'lab::bump' "inout:s32:2=zero>$tmp/n.bin"
names_run 0100000001000000 '_ZN3lab4bumpEPi' "inout:s32:2=zero>$tmp/n.bin"
names_run 0700000007000000 'lab::fill<int>' "out:s32:2>$tmp/n.bin" s32:7
names_run 0700000007000000 'lab::fill<int>(int*, int)' "out:s32:2>$tmp/n.bin" s32:7
names_run 0000e0400000e040 'void lab::fill<float>(float*, float)' "out:f32:2>$tmp/n.bin" f32:7
names_run 0400000004000000 'lab::twice(int*)' "inout:s32:2=fill:2>$tmp/n.bin"
names_run 0000804000008040 'lab::twice(float*)' "inout:f32:2=fill:2>$tmp/n.bin"

# f16, bf16, raw bits and pointers (types.ptx stores what arrives, bit for bit).
count=$((count + 1))
if "$LOOM" run types.ptx --kernel store_types --grid 1 --block 1 "out:u16:4>$tmp/t.bin" f16:1.5 bf16:-2.25 \
        b16:0xbeef ptr:null >"$tmp/out" 2>"$tmp/err"; then
    [ "$(od -An -tx2 "$tmp/t.bin" | tr -d ' \n')" = 3e00c010beef0001 ] || fail "types: $(od -An -tx2 "$tmp/t.bin")"
else
    fail "types: exit status $?: $(cat "$tmp/err")"
fi
count=$((count + 1))
"$LOOM" run types.ptx --kernel store_types --grid 1 --block 1 "out:u16:4>$tmp/t.bin" f16:-6e-8 bf16:3e38 \
    b16:-1 ptr:0x1000 >/dev/null 2>"$tmp/err" && [ "$(od -An -tx2 "$tmp/t.bin" | tr -d ' \n')" = 80017f62ffff0000 ] ||
    fail "types (subnormal, large, -1, pointer): $(od -An -tx2 "$tmp/t.bin") $(cat "$tmp/err")"
count=$((count + 1))
"$LOOM" run types.ptx --kernel twice_half --grid 1 --block 4 "inout:f16:4=iota>$tmp/h.bin" >/dev/null 2>"$tmp/err" &&
    [ "$(od -An -tx2 "$tmp/h.bin" | tr -d ' \n')" = 0000400044004600 ] || fail "f16 iota buffer: $(od -An -tx2 "$tmp/h.bin")"

# A numba kernel (numba_axpy.py): each array is seven parameters, meminfo, parent, nitems,
# itemsize, data, shape and strides; out = a * x + y.
count=$((count + 1))
N="ptr:null ptr:null s64:32 s64:4"
if "$LOOM" run numba_axpy.ptx --grid 1 --block 32 $N "out:f32:32>$tmp/n.bin" s64:32 s64:4 f32:2 \
        $N in:f32:32=iota s64:32 s64:4 $N in:f32:32=fill:1 s64:32 s64:4 >"$tmp/out" 2>"$tmp/err"; then
    python3 -c "import struct, sys; d = struct.unpack('32f', open(sys.argv[1], 'rb').read())
sys.exit(d != tuple(2.0 * i + 1 for i in range(32)))" "$tmp/n.bin" || fail "numba axpy: wrong results"
else
    fail "numba axpy: exit status $?: $(cat "$tmp/err")"
fi

# The shapes that .reqntid and .maxntid allow.
count=$((count + 1))
"$LOOM" run bounds.ptx --kernel req --grid 2 --block 64,2 >"$tmp/out" 2>"$tmp/err" ||
    fail "reqntid: exit status $?: $(cat "$tmp/err")"
count=$((count + 1))
"$LOOM" run bounds.ptx --kernel maxn --grid 2 --block 8,4,4 >"$tmp/out" 2>"$tmp/err" ||
    fail "maxntid: exit status $?: $(cat "$tmp/err")"

# Kernel printf goes to stdout; -v and --stats report on stderr.
count=$((count + 1))
"$LOOM" run two.ptx --kernel hello --grid 1 --block 3 -v --stats s32:7 >"$tmp/out" 2>"$tmp/err" ||
    fail "hello: exit status $?: $(cat "$tmp/err")"
cmp -s "$tmp/out" expected/hello.stdout || fail "hello: stdout differs: $(cat "$tmp/out")"
grep -q "^loom run: kernel 'hello'" "$tmp/err" || fail "hello: no -v summary"
grep -q "^loom run: stats: kernel 'hello': 1 launch" "$tmp/err" || fail "hello: no --stats line"

# Device printf through the whole emulator, against the output an H100 printed (runs.txt).
for spec in "conv 1 in:u8:4=zero" "lanes 32 s32:5"; do
    set -- $spec
    count=$((count + 1))
    "$LOOM" run printf.ptx --kernel "$1" --grid 1 --block "$2" "$3" >"$tmp/out" 2>"$tmp/err" ||
        fail "printf $1: exit status $?: $(cat "$tmp/err")"
    cmp -s "$tmp/out" "expected/printf_$1.stdout" || {
        fail "printf $1: stdout differs from the GPU's"
        diff "expected/printf_$1.stdout" "$tmp/out" | sed 's/^/    /'
    }
done

# --help
count=$((count + 1))
"$LOOM" run --help >"$tmp/out" 2>&1 && grep -q "^usage: loom run" "$tmp/out" || fail "--help"

echo "run-args.sh: $count cases, $fails failed"
[ "$fails" = 0 ]
