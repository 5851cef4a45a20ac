// device_limits.cu -- the printf FIFO and the device heap follow cudaDeviceSetLimit, which may
// set them only before a kernel uses printf or malloc (cudaErrorInvalidValue after). The
// printf part runs in a child whose stdout is a pipe, so that how many of the lines come out
// of a small FIFO (which differs between a GPU and Loom: the GPU stores the arguments, Loom
// the text) is not compared; only that a small FIFO loses some and a big one none.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

#define LINES 25600

__global__ void chatter(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        printf("line %5d of the kernel's printf output, padded to be long enough\n", i);
}

__global__ void grab(int **out, size_t bytes)
{
    int *p = (int *)malloc(bytes);
    if (p)
        p[0] = 1;
    out[threadIdx.x] = p;
}

static void show(const char *what, cudaError_t e) { printf("%s: %s\n", what, cudaGetErrorName(e)); }

// In a child: sets the FIFO to fifo bytes (0: leaves it), prints LINES lines from a kernel,
// and reports on its own stdout (a pipe read here) how many arrived.
static void printf_case(const char *name, size_t fifo)
{
    int fd[2];
    if (pipe(fd) != 0)
        return;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        if (fifo)
            cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo);
        chatter<<<(LINES + 127) / 128, 128>>>(LINES);
        cudaDeviceSynchronize();
        fflush(stdout);
        _exit(0);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    char line[256];
    int lines = 0;
    while (fgets(line, sizeof line, in))
        lines += strncmp(line, "line ", 5) == 0;
    fclose(in);
    waitpid(pid, nullptr, 0);
    printf("%s: %s\n", name, lines == LINES ? "all lines" : lines > 0 ? "some lines lost" : "no lines");
}

int main()
{
    setvbuf(stdout, nullptr, _IONBF, 0);
    // Children forked before this process uses CUDA; a child of a process that has used it
    // cannot use CUDA (checked last).
    printf_case("25600 lines through a FIFO of 4 KiB (raised to 512 KiB)", 4096);
    printf_case("25600 lines through the default FIFO", 0);

    size_t v = 0;
    show("get printf FIFO size", cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    printf("  default printf FIFO: %zu bytes\n", v);
    show("get heap size", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    printf("  default heap: %zu bytes\n", v);
    show("set heap to 1 MiB", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
    show("get heap size", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    printf("  heap: %zu bytes\n", v);

    int **out = nullptr, *h[4];
    cudaMalloc(&out, sizeof h);
    grab<<<1, 4>>>(out, 512 << 10);   // four half-MiB blocks: at most one fits the 1 MiB heap
    show("malloc kernel", cudaDeviceSynchronize());
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int got = 0;
    for (int i = 0; i < 4; i++)
        got += h[i] != nullptr;
    printf("  blocks of 512 KiB from a 1 MiB heap: %s\n", got >= 1 && got < 4 ? "some, not all" : got ? "all" : "none");
    show("set heap after a malloc kernel", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    show("get heap size", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    printf("  heap: %zu bytes\n", v);
    show("set the same heap size again", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
    show("set printf FIFO before any printf kernel", cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20));

    chatter<<<1, 1>>>(0);   // a printf kernel that prints nothing
    show("printf kernel", cudaDeviceSynchronize());
    show("set printf FIFO after a printf kernel", cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
    show("last error", cudaGetLastError());

    pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        void *p = nullptr;
        show("cudaMalloc in a child forked after CUDA was used", cudaMalloc(&p, 64));
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st))
        printf("  the child %s\n", WTERMSIG(st) == SIGALRM ? "hung" : "crashed");
    return 0;
}
