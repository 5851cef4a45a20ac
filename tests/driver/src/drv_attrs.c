/* drv_attrs.c -- prints every CU_DEVICE_ATTRIBUTE_* of device 0 (value or error name): the
 * GPU's recording is the reference for the driver stand-in's attribute table. */
#include "drv_check.h"

int main(void)
{
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int v = 0;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev);
        if (r == CUDA_SUCCESS)
            printf("%d: %d\n", a, v);
        else
            printf("%d: %s\n", a, drv_name(r));
    }
    printf("PASS\n");
    return 0;
}
