/* drv_unsupported.c -- entry points Loom's driver stand-in does not implement return
 * CUDA_ERROR_NOT_SUPPORTED (no crash), and a cubin is refused with a line naming its
 * architecture (Loom only: a GPU runs both). Argument: drv_kernels.ptx; optional second, a
 * fatbinary holding SASS only. */
#include "drv_check.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_unsupported KERNELS.ptx [SASS.fatbin]\n");
        return 2;
    }
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUgraph g;
    printf("cuGraphCreate: %s\n", drv_name(cuGraphCreate(&g, 0)));
    CUtexObject t;
    CUDA_RESOURCE_DESC rd = { 0 };
    CUDA_TEXTURE_DESC td = { 0 };
    printf("cuTexObjectCreate: %s\n", drv_name(cuTexObjectCreate(&t, &rd, &td, NULL)));
    CUDA_MEMCPY3D m = { 0 };
    printf("cuMemcpy3D: %s\n", drv_name(cuMemcpy3D(&m)));
    /* the ELF header of an sm_90 cubin: ABI version 8, the architecture in e_flags' bits 8-15 */
    static const unsigned char cubin[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8, [48] = 0x04, 0x5a, 0x00, 0x06 };
    CUmodule mod;
    printf("cubin: %s\n", drv_name(cuModuleLoadData(&mod, cubin)));
    if (argc > 2) {
        FILE *f = fopen(argv[2], "rb");
        static char image[1 << 20];
        size_t len = f ? fread(image, 1, sizeof image, f) : 0;
        if (f)
            fclose(f);
        printf("SASS-only fatbinary (%s): %s\n", len ? "read" : "missing", drv_name(cuModuleLoadData(&mod, image)));
    }
    printf("PASS\n");
    return 0;
}
