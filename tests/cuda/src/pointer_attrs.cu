// pointer_attrs.cu -- cudaPointerGetAttributes on device, managed, pinned and ordinary host
// memory, and on an address inside an allocation.
#include "check.h"

static const char *type_name(cudaMemoryType t)
{
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

int main()
{
    void *dev, *man, *pin;
    int stack_var = 0;
    CK(cudaMalloc(&dev, 1024));
    CK(cudaMallocManaged(&man, 1024));
    CK(cudaMallocHost(&pin, 1024));
    void *ptrs[] = {dev, (char *)dev + 100, man, pin, &stack_var};
    const char *names[] = {"device", "device+100", "managed", "pinned", "stack"};
    cudaMemoryType expect[] = {cudaMemoryTypeDevice, cudaMemoryTypeDevice, cudaMemoryTypeManaged,
                               cudaMemoryTypeHost, cudaMemoryTypeUnregistered};
    for (int i = 0; i < 5; i++) {
        cudaPointerAttributes a;
        CK(cudaPointerGetAttributes(&a, ptrs[i]));
        printf("%-10s type %-12s device pointer %s\n", names[i], type_name(a.type),
               a.devicePointer == ptrs[i] ? "same" : a.devicePointer ? "other" : "null");
        EXPECT(a.type == expect[i]);
    }
    CK(cudaFree(dev));
    CK(cudaFree(man));
    CK(cudaFreeHost(pin));
    return finish();
}
