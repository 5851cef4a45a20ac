/* drv_errors.c -- cuGetErrorName, cuGetErrorString and cuGetProcAddress with good and bad
 * input; each case in a child process of its own, as in drv_misuse.c (NVIDIA's driver ends
 * with SIGSEGV on some NULL pointers, where Loom returns an error). */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drv_check.h"

#define R(call) printf("  %s = %s\n", #call, drv_name(call))

static void names(void)
{
    static const CUresult codes[] = { CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_OUT_OF_MEMORY,
                                      CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_NO_DEVICE, CUDA_ERROR_INVALID_DEVICE,
                                      CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_CONTEXT,
                                      CUDA_ERROR_NO_BINARY_FOR_GPU, CUDA_ERROR_INVALID_PTX,
                                      CUDA_ERROR_FILE_NOT_FOUND, CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_NOT_FOUND,
                                      CUDA_ERROR_NOT_READY, CUDA_ERROR_ILLEGAL_ADDRESS,
                                      CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CUDA_ERROR_ASSERT,
                                      CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                                      CUDA_ERROR_NOT_PERMITTED, CUDA_ERROR_NOT_SUPPORTED, CUDA_ERROR_UNKNOWN };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *name = NULL, *text = NULL;
        cuGetErrorName(codes[i], &name);
        cuGetErrorString(codes[i], &text);
        printf("  %d: %s: %s\n", (int)codes[i], name ? name : "(null)", text ? text : "(null)");
    }
    const char *s = (const char *)1;
    R(cuGetErrorName((CUresult)12345, &s));
    printf("  unknown name is NULL: %s\n", s == NULL ? "yes" : "no");
    s = (const char *)1;
    R(cuGetErrorString((CUresult)12345, &s));
    printf("  unknown string is NULL: %s\n", s == NULL ? "yes" : "no");
}

static void name_null(void)
{
    R(cuGetErrorName(CUDA_SUCCESS, NULL));
}

static void string_null(void)
{
    R(cuGetErrorString(CUDA_SUCCESS, NULL));
}

static void proc(void)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult q = -1;
    R(cuInit(0));
    R(cuGetProcAddress("cuNoSuchFunction", &fn, 12000, 0, &q));
    printf("  query result %d, fn is NULL: %s\n", q, fn == NULL ? "yes" : "no");
    R(cuGetProcAddress("cuMemAlloc", &fn, 1000, 0, &q));
    printf("  query result %d\n", q);
    R(cuGetProcAddress("cuMemAlloc", &fn, 13000, 0, &q));
    printf("  query result %d, fn is set: %s\n", q, fn != NULL ? "yes" : "no");
    R(cuGetProcAddress("cuLaunchKernel", &fn, 13000, 0, NULL));
    R(cuGetProcAddress("cuMemcpyHtoD", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &q));
    printf("  query result %d\n", q);
}

static void proc_null_name(void)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult q;
    R(cuInit(0));
    R(cuGetProcAddress(NULL, &fn, 13000, 0, &q));
}

static void proc_null_fn(void)
{
    CUdriverProcAddressQueryResult q;
    R(cuInit(0));
    R(cuGetProcAddress("cuInit", NULL, 13000, 0, &q));
}

static const struct { const char *name; void (*run)(void); } cases[] = {
    { "names", names },
    { "name_null", name_null },
    { "string_null", string_null },
    { "proc", proc },
    { "proc_null_name", proc_null_name },
    { "proc_null_fn", proc_null_fn },
};

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        printf("%s:\n", cases[i].name);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            setvbuf(stdout, NULL, _IONBF, 0);   /* what a case printed survives its crash */
            cases[i].run();
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status))
            printf("  (ended by signal %d)\n", WTERMSIG(status));
        else if (WEXITSTATUS(status) != 0)
            printf("  (exit status %d)\n", WEXITSTATUS(status));
    }
    printf("PASS\n");
    return 0;
}
