// mma_ops.cuh -- written by gen.py: one kernel per mma.sync shape/type (see gen.py).

extern "C" __global__ void mma_f16_k16_f32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_F16, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_F16, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_f16_k16_f16(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[2], d[2];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_F16, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_F16, t, lane, i, 1);
        for (int i = 0; i < 2; i++)
            c[i] = gen_reg(G_F16, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                     : "=r"(d[0]), "=r"(d[1])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
        for (int i = 0; i < 2; i++)
            out[(t * 32 + lane) * 2 + i] = d[i];
    }
}

extern "C" __global__ void mma_f16_k8_f32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_F16, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_F16, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_f16_k8_f16(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[2], d[2];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_F16, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_F16, t, lane, i, 1);
        for (int i = 0; i < 2; i++)
            c[i] = gen_reg(G_F16, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                     : "=r"(d[0]), "=r"(d[1])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
        for (int i = 0; i < 2; i++)
            out[(t * 32 + lane) * 2 + i] = d[i];
    }
}

extern "C" __global__ void mma_bf16_k16(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_BF16, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_BF16, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_bf16_k8(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_BF16, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_BF16, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_tf32_k8(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_TF32, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_TF32, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_tf32_k4(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_TF32, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_TF32, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_f64_k4(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[2], c[4], d[4];
        double dd[2];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_F64, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_F64, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F64, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                     : "=d"(dd[0]), "=d"(dd[1])
                     : "d"(__hiloint2double(a[1], a[0])), "d"(__hiloint2double(b[1], b[0])), "d"(__hiloint2double(c[1], c[0])), "d"(__hiloint2double(c[3], c[2])));
        for (int i = 0; i < 2; i++) {
            d[2 * i] = __double2loint(dd[i]);
            d[2 * i + 1] = __double2hiint(dd[i]);
        }
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s8_k32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_S8, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_S8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_u8_k32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_U8, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_U8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s8u8_k32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_S8, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_U8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_u8s8_k32_sat(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_U8, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_S8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s8_k32_sat(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_S8, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_S8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s8_k16(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_S8, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_S8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_u8_k16_sat(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_U8, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_U8, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s4_k64(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_S4, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_S4, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_u4_k64_sat(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_U4, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_U4, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s4u4_k32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_S4, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_U4, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s4.u4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_s4_k32_sat(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_S4, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_S4, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_b1_k256_and(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_B1, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_B1, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_b1_k256_xor(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++)
            a[i] = gen_reg(G_B1, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_B1, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}

extern "C" __global__ void mma_b1_k128_xor(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[1], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_B1, t, lane, i, 0);
        for (int i = 0; i < 1; i++)
            b[i] = gen_reg(G_B1, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_S32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}
