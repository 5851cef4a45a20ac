#!/bin/sh
# run.sh -- the stress suite: builds tests/stress/stress*.cu with nvcc --cudart shared and runs it
# under `loom exec`, rounds of host threads racing on the runtime stand-in (docs/STRESS.md).
#
#   run.sh [--size ci|stress] [--rounds N] [--limit S] [-- STRESS OPTIONS...]
#
# --size ci (the default, `make check`): two short rounds; --size stress (`make stress`): longer
# rounds with more threads. The rounds use seeds STRESS_SEED, STRESS_SEED + 1, ... (default 1).
# Options after -- go to the program (stress --help), e.g. -- --reset or -- --host-api.
# Each round runs under `timeout` (--limit seconds, default per size): a round that hangs is
# stopped and reported with its seed. Exits 77 (skipped) when nvcc is not installed.
set -u

top_builddir=$(cd "${top_builddir:-.}" && pwd) || exit 99
srcdir=$(cd "${top_srcdir:-${srcdir:-$(dirname "$0")/../..}}" && pwd) || exit 99
LOOM=${LOOM:-$top_builddir/loom}
size=ci rounds= limit=
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --size=*) size=${1#--size=}; shift ;;
    --rounds) rounds=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 99 ;;
    esac
done
# The sizes (2 cores): the CI size takes 0.5 s in a normal build, 2 s under ASan+UBSan and 9 s
# under TSan; the stress size about five minutes.
case $size in
ci) args="--threads 4 --ops 2000 --life 100" ; : "${rounds:=2}" "${limit:=300}" ;;
stress) args="--threads 8 --ops 0 --seconds 60" ; : "${rounds:=5}" "${limit:=400}" ;;
*) echo "run.sh: --size is ci or stress" >&2; exit 99 ;;
esac

[ -x "$LOOM" ] || { echo "run.sh: $LOOM not built" >&2; exit 99; }
if [ -z "${NVCC:-}" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
fi
[ -n "$NVCC" ] || { echo "run.sh: nvcc not found; the stress suite is skipped"; exit 77; }

here=$srcdir/tests/stress
bin=$top_builddir/tests/stress/bin
exe=$bin/stress
mkdir -p "$bin" || exit 99
if [ ! -x "$exe" ] || [ "$here/stress.cu" -nt "$exe" ] || [ "$here/stress_ops.cu" -nt "$exe" ] ||
        [ "$here/stress.h" -nt "$exe" ]; then
    if ! "$NVCC" --cudart shared -O2 -std=c++17 -gencode arch=compute_75,code=compute_75 -lineinfo \
            -o "$exe.tmp" "$here/stress.cu" "$here/stress_ops.cu" -lpthread -ldl > "$bin/build.log" 2>&1; then
        echo "run.sh: the stress program does not build:"
        cat "$bin/build.log"
        exit 99
    fi
    mv "$exe.tmp" "$exe"
fi

seed=${STRESS_SEED:-1}
hostile="--reset --host-api --rerecord --destroy-waited"
fails=0
k=0
while [ $k -lt "$rounds" ]; do
    s=$((seed + k))
    # Every second round adds the modes that race resets, runtime calls in host functions,
    # events recorded again and events destroyed while a stream waits on them.
    modes=
    [ $((k % 2)) -eq 1 ] && modes=$hostile
    t0=$(date +%s)
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$LOOM" exec --workers 2 "$exe" $args $modes --seed "$s" "$@" > "$bin/out" 2>&1
    rc=$?
    t=$(($(date +%s) - t0))
    if [ $rc -eq 0 ] && [ "$(tail -n 1 "$bin/out")" = PASS ]; then
        echo "PASS: round $((k + 1)), seed $s${modes:+ ($modes)}, ${t} s: $(grep '^stress: [0-9]' "$bin/out")"
    else
        fails=$((fails + 1))
        case $rc in
        124|137) why="hung: stopped by timeout after $limit s" ;;
        *) why="exit status $rc" ;;
        esac
        echo "FAIL: round $((k + 1)), seed $s ($why); the program's output:"
        sed 's/^/    /' "$bin/out"
        echo "reproduce: $LOOM exec --workers 2 $exe $args $modes --seed $s $*"
    fi
    k=$((k + 1))
done
echo "stress: $rounds round(s), $fails failed"
[ $fails -eq 0 ]
