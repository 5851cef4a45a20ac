// host_func_calls.cu -- runtime calls made inside host functions (cudaLaunchHostFunc and
// cudaStreamAddCallback), where CUDA permits none. Each case runs in a child process with an
// alarm, so a call that never returns shows as "hang" instead of stopping the test; the child
// prints what the call returned inside the host function, then what the stream and device
// say afterwards. On an H100 (driver 580) every case returns; Loom must give the same codes.
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void put(int *p, int v) { *p = v; }

enum call { SYNC_STREAM, SYNC_DEVICE, MEMCPY, MEMCPY_ASYNC, MALLOC, FREE, LAUNCH, EVENT_SYNC, RESET,
            GET_DEVICE, NCALLS };
static const char *names[NCALLS] = { "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaMemcpy",
                                     "cudaMemcpyAsync", "cudaMalloc", "cudaFree", "kernel launch",
                                     "cudaEventSynchronize", "cudaDeviceReset", "cudaGetDevice" };

struct ctx {
    enum call which;
    cudaStream_t stream;
    cudaEvent_t event;
    int *dev;
    cudaError_t got;
    int ran;
};

static cudaError_t make_call(ctx *c)
{
    int h = 0, d = -1;
    void *p = nullptr;
    switch (c->which) {
    case SYNC_STREAM: return cudaStreamSynchronize(c->stream);
    case SYNC_DEVICE: return cudaDeviceSynchronize();
    case MEMCPY: return cudaMemcpy(&h, c->dev, sizeof h, cudaMemcpyDeviceToHost);
    case MEMCPY_ASYNC: return cudaMemcpyAsync(c->dev, &h, sizeof h, cudaMemcpyHostToDevice, c->stream);
    case MALLOC: return cudaMalloc(&p, 256);
    case FREE: return cudaFree(nullptr);
    case LAUNCH: put<<<1, 1, 0, c->stream>>>(c->dev, 7); return cudaGetLastError();
    case EVENT_SYNC: return cudaEventSynchronize(c->event);
    case RESET: return cudaDeviceReset();
    case GET_DEVICE: return cudaGetDevice(&d);
    default: return cudaErrorUnknown;
    }
}

static void CUDART_CB host_fn(void *data)
{
    ctx *c = (ctx *)data;
    c->got = make_call(c);
    c->ran = 1;
}

static void CUDART_CB stream_cb(cudaStream_t, cudaError_t, void *data) { host_fn(data); }

// One case, in a child: the host function (or callback) runs behind a kernel on a stream.
static void run_case(enum call which, bool callback)
{
    ctx c = {};
    c.which = which;
    cudaStreamCreate(&c.stream);
    cudaEventCreate(&c.event);
    cudaMalloc(&c.dev, sizeof(int));
    put<<<1, 1, 0, c.stream>>>(c.dev, 1);
    cudaEventRecord(c.event, c.stream);
    cudaError_t q = callback ? cudaStreamAddCallback(c.stream, stream_cb, &c, 0)
                             : cudaLaunchHostFunc(c.stream, host_fn, &c);
    cudaError_t s = cudaStreamSynchronize(c.stream);
    cudaError_t l = cudaGetLastError();
    printf("  in host function: %s; enqueue %s, then sync %s, last error %s\n",
           c.ran ? cudaGetErrorName(c.got) : "(did not run)", cudaGetErrorName(q), cudaGetErrorName(s),
           cudaGetErrorName(l));
}

int main()
{
    setvbuf(stdout, nullptr, _IONBF, 0);
    for (int cb = 0; cb < 2; cb++) {
        for (int i = 0; i < NCALLS; i++) {
            printf("%s %s\n", cb ? "callback" : "hostfunc", names[i]);
            pid_t pid = fork();
            if (pid == 0) {
                alarm(10);
                run_case((enum call)i, cb);
                _exit(0);
            }
            int st = 0;
            waitpid(pid, &st, 0);
            if (WIFSIGNALED(st))
                printf("  %s\n", WTERMSIG(st) == SIGALRM ? "hang" : "crash");
        }
    }
    return 0;
}
