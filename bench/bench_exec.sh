#!/usr/bin/env bash
# bench_exec.sh -- start-up time of `loom exec` on a trivial CUDA program
# (one allocation, one kernel, one copy), median of 10 runs; needs nvcc.
set -u
top=${1:-.}
command -v nvcc >/dev/null 2>&1 || { echo "loom exec start-up: skipped (no nvcc)"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/t.cu" <<'CU'
#include <cstdio>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    k<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%d\n", h[31]);
    return h[31] == 31 ? 0 : 1;
}
CU
nvcc --cudart shared -arch=compute_75 -o "$tmp/t" "$tmp/t.cu" 2>/dev/null || { echo "loom exec start-up: nvcc failed"; exit 0; }
python3 - "$top/loom" "$tmp/t" <<'PY'
import subprocess, sys, time
loom, prog = sys.argv[1:3]
times = []
for _ in range(10):
    t0 = time.perf_counter()
    r = subprocess.run([loom, "exec", prog], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    times.append(time.perf_counter() - t0)
    if r.returncode:
        print("loom exec failed:", r.stderr.decode()[:300]); sys.exit(0)
times.sort()
print("  loom exec, trivial CUDA program      %8.1f ms (median of 10, whole process)" % (times[5] * 1e3))
PY
