// mma_m8n8k4.cu -- mma.sync.m8n8k4 .f16 (the quad-pair form of sm_70), in a module of its own
// (Loom refused it when the rows were recorded). gen.sh compiles it to mma_m8n8k4.ptx.
#include <stdint.h>
#include "../gen.h"
#include "../mma_m8n8k4.cuh"
