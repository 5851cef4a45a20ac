// null_ptr.cu -- a store through a null pointer (plus a small offset).
struct item { int key; int value; };

extern "C" __global__ void null_ptr(item *items, int v)
{
    items[threadIdx.x].value = v;   // items is NULL
}
