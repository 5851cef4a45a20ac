/* sched_cpus.c -- which processors the workers use: one PU of each core that the process
 * may run on. hwloc 2 leaves out what cgroups forbid, but not what the affinity mask
 * (taskset, sched_setaffinity, a batch system's binding) forbids: that is intersected here. */
#include "config.h"

#include <stdlib.h>

#include "sched/sched_cpus.h"

unsigned sched_worker_cpus(hwloc_topology_t topo, unsigned **out_pus)
{
    *out_pus = NULL;
    hwloc_bitmap_t mask = hwloc_bitmap_alloc(), inter = hwloc_bitmap_alloc();
    if (!mask || !inter) {
        hwloc_bitmap_free(mask);
        hwloc_bitmap_free(inter);
        return 0;
    }
    /* The calling thread's binding is the mask it was started with (threads inherit it);
     * the process-wide one would include threads that workers pinned elsewhere. */
    hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(topo);
    if (hwloc_get_cpubind(topo, mask, HWLOC_CPUBIND_THREAD) != 0 || hwloc_bitmap_iszero(mask))
        hwloc_bitmap_copy(mask, allowed);
    else
        hwloc_bitmap_and(mask, mask, allowed);
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    hwloc_obj_type_t type = ncores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int nobjs = ncores > 0 ? ncores : hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    unsigned n = 0, *pus = nobjs > 0 ? malloc((size_t)nobjs * sizeof *pus) : NULL;
    for (int i = 0; pus && i < nobjs; i++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        if (!obj || !obj->cpuset) continue;
        hwloc_bitmap_and(inter, obj->cpuset, mask);
        int pu = hwloc_bitmap_first(inter);
        if (pu >= 0) pus[n++] = (unsigned)pu;
    }
    hwloc_bitmap_free(mask);
    hwloc_bitmap_free(inter);
    if (!n) {
        free(pus);
        return 0;
    }
    *out_pus = pus;
    return n;
}
