/* sched_cpus.h -- the processors the worker pool runs on: one per core that both hwloc's
 * allowed set (cgroup cpusets) and the calling thread's CPU affinity mask (taskset) allow. */
#ifndef LOOM_SCHED_CPUS_H
#define LOOM_SCHED_CPUS_H

#include <hwloc.h>

/* Fills *out_pus (malloc'd, the caller frees it) with the OS index of one allowed PU per
 * core, cores in topology order, and returns how many; 0 (and NULL) when the topology
 * shows none. Hyperthreads of a core count once: workers are one per core. */
unsigned sched_worker_cpus(hwloc_topology_t topo, unsigned **out_pus);

#endif
