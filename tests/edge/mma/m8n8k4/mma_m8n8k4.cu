// mma_m8n8k4.cu -- mma.sync.m8n8k4 .f16 (the quad-pair form of sm_70), kept apart from mma.cu
// because Loom refuses it: its module would fail to load. gen.sh compiles it to mma_m8n8k4.ptx.
#include <stdint.h>
#include "../gen.h"
#include "../mma_m8n8k4.cuh"
