// reset_threads.cu -- cudaDeviceReset in one host thread while four others allocate, launch,
// query kernel attributes, copy and free. CUDA leaves the outcome of such calls to the
// caller, but Loom must not crash: a reset waits for the calls in progress and the calls
// started meanwhile wait for it. A call that raced a reset may fail (its buffer was freed,
// or a kernel touched freed memory and left a sticky fault, which the next reset clears);
// a worker checks its results only when no reset happened during its iteration. Each worker
// goes on until it has MIN_CHECKED checked iterations (a sticky fault makes the iterations
// after it fail until the next reset), at most MAX_ITERS.
#include <atomic>
#include <cstring>
#include <pthread.h>
#include <unistd.h>
#include "check.h"

#define WORKERS 4
#define MIN_ITERS 100
#define MIN_CHECKED 30
#define MAX_ITERS 100000
#define N 256

__global__ void fill(int *p, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        p[i] = v + i;
}

static std::atomic<unsigned> generation{0};   // odd while a reset runs
static std::atomic<int> done_workers{0};
static std::atomic<long> checked{0}, raced{0}, unexpected{0}, short_workers{0};

static bool allowed(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: case cudaErrorInvalidValue: case cudaErrorIllegalAddress: case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidResourceHandle:
        return true;
    default:
        return false;
    }
}

static void note(cudaError_t e, const char *what)
{
    if (!allowed(e) && unexpected.fetch_add(1) < 5)
        printf("FAIL: %s returned %s\n", what, cudaGetErrorName(e));
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    int h[N];
    long mine = 0;
    for (int it = 0; it < MAX_ITERS && (it < MIN_ITERS || mine < MIN_CHECKED); it++) {
        unsigned g0 = generation.load();
        int *d = nullptr;
        cudaFuncAttributes attr;
        cudaError_t e1 = cudaMalloc(&d, N * sizeof(int));
        note(e1, "cudaMalloc");
        cudaError_t e2 = cudaFuncGetAttributes(&attr, fill);
        note(e2, "cudaFuncGetAttributes");
        int v = id * 100000 + it * 300;
        fill<<<(N + 63) / 64, 64>>>(d, v);
        cudaError_t e3 = cudaGetLastError();
        note(e3, "launch");
        memset(h, 0, sizeof h);
        cudaError_t e4 = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        note(e4, "cudaMemcpy");
        if (e1 == cudaSuccess)
            note(cudaFree(d), "cudaFree");
        if (g0 % 2 == 0 && generation.load() == g0 && !e1 && !e2 && !e3 && !e4) {
            for (int i = 0; i < N; i++)
                if (h[i] != v + i) {
                    if (unexpected.fetch_add(1) < 5)
                        printf("FAIL: worker %d iteration %d: h[%d] = %d, not %d\n", id, it, i, h[i], v + i);
                    break;
                }
            checked++;
            mine++;
        } else {
            raced++;
        }
    }
    if (mine < MIN_CHECKED)
        short_workers++;
    done_workers++;
    return nullptr;
}

int main()
{
    CK(cudaFree(0));
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], nullptr, worker, (void *)i);
    int resets = 0;
    while (done_workers.load() < WORKERS) {
        generation++;
        cudaError_t e = cudaDeviceReset();
        generation++;
        if (e != cudaSuccess && unexpected.fetch_add(1) < 5)
            printf("FAIL: cudaDeviceReset returned %s\n", cudaGetErrorName(e));
        resets++;
        usleep(500 + 1000 * (resets % 5));
    }
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], nullptr);
    CK(cudaDeviceReset());
    printf("info: %d resets, %ld iterations checked, %ld raced a reset\n", resets, checked.load(), raced.load());
    EXPECT(resets > 0);
    EXPECT(checked.load() >= WORKERS * MIN_CHECKED);
    EXPECT(short_workers.load() == 0);
    EXPECT(unexpected.load() == 0);
    // after the last reset the device works as new
    int *d = nullptr, h[N];
    CK(cudaMalloc(&d, sizeof h));
    fill<<<(N + 63) / 64, 64>>>(d, 5);
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(h[i] == 5 + i);
    CK(cudaFree(d));
    printf("%s\n", g_failed ? "FAIL" : "PASS");
    return g_failed;
}
