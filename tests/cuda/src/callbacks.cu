// callbacks.cu -- host work in stream order: cudaLaunchHostFunc and cudaStreamAddCallback run
// after the kernels before them, in order, and see their results (pinned host memory).
#include "check.h"

struct log_t {
    int order[8];
    int count;
    int value_seen;
    int *pinned;
};

__global__ void put(int *p, int v) { *p = v; }

static void CUDART_CB host_fn(void *data)
{
    log_t *l = (log_t *)data;
    l->order[l->count++] = 1;
    l->value_seen = *l->pinned;
}

static void CUDART_CB stream_cb(cudaStream_t stream, cudaError_t status, void *data)
{
    log_t *l = (log_t *)data;
    l->order[l->count++] = status == cudaSuccess ? 2 : -2;
}

int main()
{
    log_t l = {};
    CK(cudaHostAlloc(&l.pinned, sizeof(int), cudaHostAllocMapped));
    *l.pinned = 0;
    int *dev_view;
    CK(cudaHostGetDevicePointer((void **)&dev_view, l.pinned, 0));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    put<<<1, 1, 0, s>>>(dev_view, 31);
    CK(cudaLaunchHostFunc(s, host_fn, &l));
    CK(cudaStreamAddCallback(s, stream_cb, &l, 0));
    put<<<1, 1, 0, s>>>(dev_view, 32);
    CK(cudaLaunchHostFunc(s, host_fn, &l));
    CK(cudaStreamSynchronize(s));
    printf("callbacks ran: %d, order %d %d %d, last value seen %d\n", l.count, l.order[0], l.order[1], l.order[2],
           l.value_seen);
    EXPECT(l.count == 3 && l.order[0] == 1 && l.order[1] == 2 && l.order[2] == 1 && l.value_seen == 32);
    unsigned hf = 0;
    CK(cudaHostGetFlags(&hf, l.pinned));
    printf("host flags include mapped: %s\n", (hf & cudaHostAllocMapped) ? "yes" : "no");
    CK(cudaStreamDestroy(s));
    CK(cudaFreeHost(l.pinned));
    return finish();
}
