#!/bin/sh
# support-table.sh -- prints the README's "What works and what does not" table of the CUDA
# runtime: how many of libcudart's entry points Loom implements, and the ones it does not
# (runtime/rt_unsupported.def) by area, so the README cannot go stale:
#   docs/support-table.sh [LIBCUDART]          print the table
#   docs/support-table.sh --check [LIBCUDART]  exit 1 when README.md's copy differs
# LIBCUDART: the built stand-in (default runtime/.libs/libcudart.so.13 in the build tree).
set -u
srcdir=${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
lib=${1:-${top_builddir:-.}/runtime/.libs/libcudart.so.13}
[ -f "$lib" ] || { echo "support-table.sh: $lib not built" >&2; exit 99; }

table() {
    def=$srcdir/runtime/rt_unsupported.def
    total=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^_*cuda/' | sed 's/@.*//' | sort -u | wc -l)
    missing=$(grep -c '^RT_UNSUPPORTED(' "$def")
    echo "Loom's \`libcudart.so.13\` exports $total entry points of the CUDA runtime; $((total - missing)) work and"
    echo "$missing return \`cudaErrorNotSupported\`, naming themselves on stderr once:"
    echo
    echo "| area | not supported | for example |"
    echo "| --- | ---: | --- |"
    sed -n 's/^RT_UNSUPPORTED(\(.*\))/\1/p' "$def" | sed 's/_pt[sd]z*$//' | sort -u | awk '
    function area(f) {
        if (f ~ /Graph|Capture|UserObject/) return "graphs and stream capture"
        if (f ~ /Memcpy3D|Memset3D|Malloc3D$/) return "3-D copies and sets"
        if (f ~ /Array|Texture|Surface|Mipmapped|ChannelDesc/) return "textures, surfaces and CUDA arrays"
        if (f ~ /MemPool|FromPool/) return "memory pools"
        if (f ~ /Ipc/) return "inter-process sharing (IPC)"
        if (f ~ /External|NvSci/) return "external memory and semaphores"
        if (f ~ /GL|EGL|VDPAU|Graphics/) return "graphics interoperability"
        if (f ~ /Library|ForDevice/) return "libraries (cudaLibrary*)"
        if (f ~ /Batch|Prefetch|Discard|MemRange/) return "batched copies, prefetch and range attributes"
        if (f ~ /P2P|PCIBus|ValidDevices|Peer|GPUDirect/) return "several devices, peer access"
        if (f ~ /DriverEntryPoint|ExportTable|ProcAddress/) return "driver entry points"
        if (f ~ /Cluster/) return "thread-block clusters"
        if (f ~ /Logs/) return "logs"
        return "other"
    }
    { a = area($0); n[a]++; if (n[a] <= 3) ex[a] = ex[a] (n[a] > 1 ? ", " : "") "`" $0 "`" }
    END { for (a in n) printf "%d\t| %s | %d | %s%s |\n", (a == "other"), a, n[a], ex[a], (n[a] > 3 ? ", ..." : "") }' |
        sort -t "$(printf '\t')" -k1,1n -k2 | cut -f2-
}

if [ $check = 0 ]; then
    table
    exit 0
fi
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
awk '/<!-- support-table: begin/ { p = 1; next } /<!-- support-table: end/ { p = 0 } p' "$srcdir/README.md" >"$tmp"
if table | cmp -s - "$tmp"; then
    echo "support-table.sh: README.md's table matches runtime/rt_unsupported.def"
else
    echo "FAIL: README.md's table differs from what docs/support-table.sh prints (regenerate it):"
    table | diff "$tmp" - | sed 's/^/    /'
    exit 1
fi
