// mma_m8n8k4.cuh -- written by gen.py: one kernel per mma.sync shape/type (see gen.py).

extern "C" __global__ void mma_f16_m8k4_f32(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[2], c[8], d[8];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_F16, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_F16, t, lane, i, 1);
        for (int i = 0; i < 8; i++)
            c[i] = gen_reg(G_F32, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7]));
        for (int i = 0; i < 8; i++)
            out[(t * 32 + lane) * 8 + i] = d[i];
    }
}

extern "C" __global__ void mma_f16_m8k4_f16(uint32_t *out, uint32_t ntiles)
{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {
        uint32_t a[2], b[2], c[4], d[4];
        for (int i = 0; i < 2; i++)
            a[i] = gen_reg(G_F16, t, lane, i, 0);
        for (int i = 0; i < 2; i++)
            b[i] = gen_reg(G_F16, t, lane, i, 1);
        for (int i = 0; i < 4; i++)
            c[i] = gen_reg(G_F16, t, lane, i, 2);
        asm volatile("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        for (int i = 0; i < 4; i++)
            out[(t * 32 + lane) * 4 + i] = d[i];
    }
}
