// physics.cu -- an ACS-like stream of many tiny kernels: a physics step over bodies kept in
// GROUPS groups (one allocation each). Each kernel pulls the bodies of one group toward those
// of another, or integrates one group; which groups a kernel touches comes from the input
// (the bodies' initial positions), so the dependencies between kernels are known only at
// run time. Fixed-point integers throughout.
//
//   physics [KERNELS [GROUPS [SEED]]]   KERNELS launches (default 10000), GROUPS of 32 bodies
//                                       (default 64), SEED for the initial positions (default 1)
#include "sched_bench.h"

#define BODIES 32
#define NEIGHBOURS 8

struct group {
    int pos[BODIES];
    int vel[BODIES];
};

// Body i of a is pulled toward NEIGHBOURS bodies of b (a 1-D spring with a clamped force).
__global__ void interact(group *__restrict__ a, const group *__restrict__ b, int step)
{
    int i = threadIdx.x;
    int p = a->pos[i], f = 0;
    for (int k = 0; k < NEIGHBOURS; k++) {
        int d = b->pos[(i + step + k) % BODIES] - p;
        f += max(min(d, 4096), -4096) >> 6;
    }
    a->vel[i] += f;
}

// Positions move by their velocities (damped), wrapping in [0, 2^20).
__global__ void integrate(group *__restrict__ a)
{
    int i = threadIdx.x;
    int v = a->vel[i] - (a->vel[i] >> 3);
    a->vel[i] = v;
    a->pos[i] = (a->pos[i] + (v >> 2)) & 0xfffff;
}

int main(int argc, char **argv)
{
    int kernels = (int)sb_arg(argc, argv, 1, 10000);
    int groups = (int)sb_arg(argc, argv, 2, 64);
    uint32_t seed = (uint32_t)sb_arg(argc, argv, 3, 1);
    if (groups < 2) {
        fprintf(stderr, "physics: GROUPS must be at least 2\n");
        return 2;
    }
    std::vector<group> host(groups);
    std::vector<group *> dev(groups);
    for (int g = 0; g < groups; g++) {
        for (int i = 0; i < BODIES; i++) {
            host[g].pos[i] = (int)(sb_mix(seed * 1000003u + (uint32_t)(g * BODIES + i)) & 0xfffff);
            host[g].vel[i] = 0;
        }
        CK(cudaMalloc(&dev[g], sizeof(group)));
        CK(cudaMemcpy(dev[g], &host[g], sizeof(group), cudaMemcpyHostToDevice));
    }
    // The schedule: kernel k works on group a, chosen by a hash; an interaction's partner b
    // comes from a's first body's initial position (the input-dependent part); every fifth
    // kernel integrates a instead.
    int interactions = 0;
    sb_timer t;
    t.start();
    for (int k = 0; k < kernels; k++) {
        int a = (int)(sb_mix(seed + 77u * (uint32_t)k) % (uint32_t)groups);
        if (k % 5 == 4) {
            integrate<<<1, BODIES>>>(dev[a]);
        } else {
            int pick = host[a].pos[k % BODIES] >> 4;
            int b = (a + 1 + pick % (groups - 1)) % groups;
            interact<<<1, BODIES>>>(dev[a], dev[b], k);
            interactions++;
        }
    }
    CK_LAUNCH();
    t.stop("physics");
    uint64_t h = SB_HASH_SEED;
    long long energy = 0;
    for (int g = 0; g < groups; g++) {
        CK(cudaMemcpy(&host[g], dev[g], sizeof(group), cudaMemcpyDeviceToHost));
        h = sb_hash(h, &host[g], sizeof(group));
        for (int i = 0; i < BODIES; i++)
            energy += (long long)host[g].vel[i] * host[g].vel[i];
    }
    printf("physics groups=%d bodies=%d kernels=%d interactions=%d hash=%016llx\n", groups,
           groups * BODIES, kernels, interactions, (unsigned long long)h);
    printf("sum of v^2 = %lld, pos[0][0] = %d\n", energy, host[0].pos[0]);
    return 0;
}
