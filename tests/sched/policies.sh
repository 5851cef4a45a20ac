#!/bin/sh
# policies.sh -- `make check` test (issue 19): a scheduling policy changes when kernels run,
# never what a program computes. The scheduling benchmarks (bench/sched, their "-small" and
# "-tiny" cases) run under every policy and must print what serial prints, and serial must
# print what the H100 printed (bench/sched/expected/ID.out); the default-size cases run under
# serial against the H100 too. The tiny cases repeat under LOOM_TIMING=model. Then every
# CUDA test program (tests/cuda, build variant a) runs under serial, acs and dag and must
# print what it prints under fifo, with the same exit status.
#
#   LOOM_SCHED_POLICIES="serial fifo ..."   the policies (default below)
#   LOOM_SCHED_CUDA=0                       leave the tests/cuda programs out
# Under a sanitizer (LOOM_SANITIZED, slower by 3 to 10 times): the tiny cases only, and no
# tests/cuda programs.
# Exits 77 (skipped) when nvcc is not installed. Before the policies exist, LOOM_SCHED is
# ignored and every run is fifo's: the test passes trivially but still checks the recordings.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$src}
loom=${LOOM:-$builddir/loom}
[ -x "$loom" ] || { echo "policies.sh: $loom not built" >&2; exit 99; }
policies=${LOOM_SCHED_POLICIES:-"serial fifo acs:window=1 acs:window=4 acs:window=32 dag"}
cuda_policies=${LOOM_SCHED_CUDA_POLICIES:-"serial acs:window=4 dag"}
# Programs that need two kernels running at once (stream_overlap: one spins on a flag that a
# kernel of another stream sets) cannot run under serial, which runs one kernel at a time;
# acs and dag add no dependencies between streams that CUDA leaves unordered, so they run it.
serial_skip="stream_overlap"
bench=$src/bench/sched
bin=$builddir/bench/sched/bin
"$bench/build.sh" "$bin"
rc=$?
[ $rc -eq 77 ] && { echo "SKIP: nvcc not found"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: bench/sched/build.sh"; exit 99; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
runs=0

# run OUT PROG ARGS... (environment from the caller): stdout without "info:" lines to OUT,
# "rc=N" appended; 0 when the program exited 0.
run() {
    o=$1
    shift
    timeout 300 "$loom" exec "$@" > "$o.raw" 2> "$o.err"
    r=$?
    grep -v '^info:' "$o.raw" > "$o"
    echo "rc=$r" >> "$o"
    runs=$((runs + 1))
    return $r
}

# differs WHAT GOT WANT: reports a difference (a failure) with the first lines of the diff.
differs() {
    echo "FAIL: $1"
    diff -u "$3" "$2" | head -n 20
    fail=1
}

# The benchmarks' cases: ID PROG ARGS.
grep -v '^#' "$bench/cases.txt" | while read -r id prog args; do
    [ -n "$id" ] && echo "$id $prog $args"
done > "$tmp/cases"
while read -r id prog args; do
    if [ -n "${LOOM_SANITIZED:-}" ]; then
        case $id in *-tiny) ;; *) continue ;; esac
    fi
    want=$bench/expected/$id.out
    case $id in
    *-large) continue ;;
    *-small|*-tiny) pols=$policies ;;
    *) pols=serial ;;
    esac
    # shellcheck disable=SC2086
    if ! LOOM_SCHED=serial run "$tmp/$id.serial" "$bin/$prog" $args; then
        echo "FAIL: $id under serial: exit status $(tail -n 1 "$tmp/$id.serial")"
        tail -n 5 "$tmp/$id.serial.err"
        fail=1
        continue
    fi
    if [ -f "$want" ]; then
        { cat "$want"; echo "rc=0"; } > "$tmp/want"
        cmp -s "$tmp/want" "$tmp/$id.serial" || differs "$id under serial against the H100 (expected/$id.out)" "$tmp/$id.serial" "$tmp/want"
    else
        echo "note: $id has no H100 recording yet"
    fi
    for p in $pols; do
        [ "$p" = serial ] && continue
        # shellcheck disable=SC2086
        LOOM_SCHED=$p run "$tmp/$id.p" "$bin/$prog" $args
        cmp -s "$tmp/$id.serial" "$tmp/$id.p" || differs "$id under $p against serial" "$tmp/$id.p" "$tmp/$id.serial"
    done
    case $id in
    *-tiny)
        for p in $pols; do
            # shellcheck disable=SC2086
            LOOM_SCHED=$p LOOM_TIMING=model run "$tmp/$id.p" "$bin/$prog" $args
            cmp -s "$tmp/$id.serial" "$tmp/$id.p" || differs "$id under $p, timing=model, against serial" "$tmp/$id.p" "$tmp/$id.serial"
        done ;;
    esac
done < "$tmp/cases"
[ $fail -eq 0 ] && echo "PASS: the scheduling benchmarks under $policies ($runs runs)"

# The CUDA test programs under each policy against fifo.
if [ "${LOOM_SCHED_CUDA:-1}" = 1 ] && [ -z "${LOOM_SANITIZED:-}" ]; then
    cuda_bin=$builddir/tests/cuda/bin
    NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)} \
        "$src/tests/cuda/build.sh" -j 2 --variants a "$cuda_bin" > "$tmp/cuda-build.log" 2>&1 ||
        { echo "FAIL: tests/cuda/build.sh"; tail -n 20 "$tmp/cuda-build.log"; exit 99; }
    n=0
    cfail=0
    for exe in "$cuda_bin"/a/*; do
        [ -x "$exe" ] && [ -f "$exe" ] || continue
        name=$(basename "$exe")
        case $name in *.log|*.tmp) continue ;; esac
        LOOM_SCHED=fifo run "$tmp/c.fifo" "$exe"
        for p in $cuda_policies; do
            case "$p: $serial_skip " in serial:*" $name "*) continue ;; esac
            LOOM_SCHED=$p run "$tmp/c.p" "$exe"
            if ! cmp -s "$tmp/c.fifo" "$tmp/c.p"; then
                differs "tests/cuda $name under $p against fifo" "$tmp/c.p" "$tmp/c.fifo"
                cfail=1
            fi
        done
        n=$((n + 1))
    done
    [ $cfail -eq 0 ] && echo "PASS: $n CUDA test programs under $cuda_policies against fifo (left out under serial: $serial_skip)"
fi
exit $fail
