/* drv_link.c -- JIT linking with cuLink*: a kernel in one PTX text calls a function that
 * another text defines (.extern); the linked image loads as a module and runs. */
#include <string.h>

#include "drv_check.h"

static const char lib_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    add.s32 %r2, %r1, %r1;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n";

static const char main_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    {\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0], %r1;\n"
    "    .param .b32 retval0;\n"
    "    call.uni (retval0), twice, (param0);\n"
    "    ld.param.b32 %r2, [retval0];\n"
    "    }\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.s64 %rd2, %rd2, %rd3;\n"
    "    st.global.u32 [%rd2], %r2;\n"
    "    ret;\n"
    "}\n";

int main(void)
{
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));

    CUlinkState link;
    char log[4096] = "";
    CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { log, (void *)(uintptr_t)sizeof log };
    CK(cuLinkCreate(2, opts, vals, &link));
    CK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)main_ptx, sizeof main_ptx, "main.ptx", 0, NULL, NULL));
    CK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)lib_ptx, sizeof lib_ptx, "lib.ptx", 0, NULL, NULL));
    void *image = NULL;
    size_t size = 0;
    CK(cuLinkComplete(link, &image, &size));
    printf("linked image: %s\n", image && size ? "yes" : "no");
    CUmodule mod;
    CK(cuModuleLoadData(&mod, image));
    CK(cuLinkDestroy(link));   /* the module keeps what it needs */
    CUfunction k;
    CK(cuModuleGetFunction(&k, mod, "k"));
    CUdeviceptr out;
    CK(cuMemAlloc(&out, 32 * sizeof(int)));
    void *params[] = { &out };
    CK(cuLaunchKernel(k, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    int h[32];
    CK(cuMemcpyDtoH(h, out, sizeof h));
    printf("twice: %d %d %d\n", h[0], h[1], h[31]);

    /* an unresolved .extern fails to link */
    CK(cuLinkCreate(0, NULL, NULL, &link));
    CK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)main_ptx, sizeof main_ptx, "main.ptx", 0, NULL, NULL));
    CUresult r = cuLinkComplete(link, &image, &size);
    printf("unresolved: %s\n", drv_name(r));
    CK(cuLinkDestroy(link));
    printf("bad input type: %s\n", drv_name(cuLinkCreate(0, NULL, NULL, &link) == CUDA_SUCCESS
                                               ? cuLinkAddData(link, (CUjitInputType)77, (void *)lib_ptx,
                                                               sizeof lib_ptx, "x", 0, NULL, NULL)
                                               : CUDA_ERROR_UNKNOWN));
    CK(cuLinkDestroy(link));
    CK(cuMemFree(out));
    CK(cuModuleUnload(mod));
    printf("PASS\n");
    return 0;
}
