// gpu_libs.cu -- a program linked with cuBLAS and cuFFT, for exec-libs.sh: loom exec warns
// that Loom does not provide them, and the program still runs (their calls fail).
#include <cstdio>
#include <cublas_v2.h>
#include <cufft.h>

int main()
{
    cublasHandle_t h;
    cublasStatus_t s = cublasCreate(&h);
    printf("cublasCreate: %s\n", s == CUBLAS_STATUS_SUCCESS ? "success" : "failed");
    cufftHandle plan;
    cufftResult r = cufftPlan1d(&plan, 64, CUFFT_C2C, 1);
    printf("cufftPlan1d: %s\n", r == CUFFT_SUCCESS ? "success" : "failed");
    return 0;
}
