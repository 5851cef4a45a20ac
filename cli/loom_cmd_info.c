/* loom_cmd_info.c -- `loom info`: the host's topology as hwloc sees it (packages, cores,
 * caches, NUMA nodes) and the properties of the GPU that Loom presents, as text or JSON. */
#include "config.h"

#include <hwloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/loom_cli.h"
#include "sched/sched_cpus.h"
#include "sched/sched_preset.h"

#define MAX_CACHE_GROUPS 16
#define MAX_NUMA_NODES 64

/* Caches of one kind: same level, type, size and sharing. */
struct info_cache {
    unsigned level;
    char kind;                 /* 'd' data, 'i' instruction, 'u' unified */
    unsigned long long size;
    unsigned line;
    unsigned cores_sharing;    /* cores below one cache */
    unsigned count;            /* caches of this kind */
};

struct info_numa {
    unsigned os_index;
    unsigned long long memory;
    unsigned cores;
    char pus[128];             /* the PUs as a list: "0-15" */
};

/* What `loom info` reports about the host. */
struct info_host {
    const char *os, *os_release, *arch, *hostname, *cpu_model;
    unsigned packages, cores, pus;
    unsigned long long memory;
    struct info_cache caches[MAX_CACHE_GROUPS];
    unsigned ncaches;
    struct info_numa numa[MAX_NUMA_NODES];
    unsigned nnuma, numa_total;
    unsigned worker_cores;     /* cores the process may run on: the default worker count */
    char worker_pus[256];      /* the PU each worker is pinned to, as a list: "0-15" */
};

static const hwloc_obj_type_t cache_types[] = {
    HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L2ICACHE,
    HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L3ICACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE,
};

static char cache_kind(hwloc_obj_cache_type_t t)
{
    return t == HWLOC_OBJ_CACHE_DATA ? 'd' : t == HWLOC_OBJ_CACHE_INSTRUCTION ? 'i' : 'u';
}

/* Adds one cache object to its group (or starts a group). */
static void add_cache(struct info_host *h, hwloc_topology_t topo, hwloc_obj_t obj)
{
    struct info_cache c = {
        .level = obj->attr->cache.depth,
        .kind = cache_kind(obj->attr->cache.type),
        .size = obj->attr->cache.size,
        .line = obj->attr->cache.linesize,
        .cores_sharing = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(topo, obj->cpuset,
                                                                           HWLOC_OBJ_CORE),
    };
    for (unsigned i = 0; i < h->ncaches; i++) {
        struct info_cache *g = &h->caches[i];
        if (g->level == c.level && g->kind == c.kind && g->size == c.size
            && g->cores_sharing == c.cores_sharing) {
            g->count++;
            return;
        }
    }
    if (h->ncaches < MAX_CACHE_GROUPS) {
        c.count = 1;
        h->caches[h->ncaches++] = c;
    }
}

static const char *root_info(hwloc_topology_t topo, const char *name)
{
    const char *v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), name);
    return v ? v : "";
}

/* Reads the host's topology; false (with a message on stderr) when hwloc cannot. The
 * strings point into the topology, which the caller keeps alive. */
static bool read_host(hwloc_topology_t topo, struct info_host *h)
{
    memset(h, 0, sizeof *h);
    h->os = root_info(topo, "OSName");
    h->os_release = root_info(topo, "OSRelease");
    h->arch = root_info(topo, "Architecture");
    h->hostname = root_info(topo, "HostName");
    h->packages = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    h->cores = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    h->pus = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    h->memory = hwloc_get_root_obj(topo)->total_memory;
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    h->cpu_model = model ? model : root_info(topo, "CPUModel");

    for (size_t t = 0; t < sizeof cache_types / sizeof cache_types[0]; t++) {
        int n = hwloc_get_nbobjs_by_type(topo, cache_types[t]);
        for (int i = 0; i < n; i++)
            add_cache(h, topo, hwloc_get_obj_by_type(topo, cache_types[t], (unsigned)i));
    }

    int nnuma = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    h->numa_total = nnuma > 0 ? (unsigned)nnuma : 0;
    for (int i = 0; i < nnuma && h->nnuma < MAX_NUMA_NODES; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        struct info_numa *n = &h->numa[h->nnuma++];
        n->os_index = node->os_index;
        n->memory = node->attr->numanode.local_memory;
        n->cores = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(topo, node->cpuset,
                                                                    HWLOC_OBJ_CORE);
        if (hwloc_bitmap_list_snprintf(n->pus, sizeof n->pus, node->cpuset) < 0)
            n->pus[0] = '\0';
    }
    /* The workers' cores: one PU of each core that cgroups and the affinity mask allow. */
    unsigned *pus = NULL;
    h->worker_cores = sched_worker_cpus(topo, &pus);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set) {
        for (unsigned i = 0; i < h->worker_cores; i++)
            hwloc_bitmap_set(set, pus[i]);
        if (hwloc_bitmap_list_snprintf(h->worker_pus, sizeof h->worker_pus, set) < 0)
            h->worker_pus[0] = '\0';
        hwloc_bitmap_free(set);
    }
    free(pus);
    if (h->cores == 0 && h->pus == 0) {
        fprintf(stderr, "loom info: hwloc found no processors on this host\n");
        return false;
    }
    return true;
}

/* A byte count in the largest binary unit that keeps it at least 1: "48 KiB", "1.25 MiB". */
static const char *human_bytes(unsigned long long n, char *buf, size_t size)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    unsigned u = 0;
    while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024;
        u++;
    }
    if (v == (double)(unsigned long long)v)
        snprintf(buf, size, "%llu %s", (unsigned long long)v, units[u]);
    else
        snprintf(buf, size, "%.*f %s", v < 10 ? 2 : 1, v, units[u]);
    return buf;
}

/* One "  Label:   value" line with the value column aligned. */
static void row(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row(const char *label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  %-24s", label);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static const char *plural(unsigned n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void print_host_text(const struct info_host *h)
{
    char b1[32];
    printf("Host\n");
    if (*h->hostname || *h->os)
        row("System:", "%s%s%s %s %s", h->hostname, *h->hostname ? ", " : "", h->os,
            h->os_release, h->arch);
    if (*h->cpu_model)
        row("CPU:", "%s", h->cpu_model);
    row("Packages:", "%u", h->packages);
    row("Cores:", "%u (%u PU%s, %u per core)", h->cores, h->pus, h->pus == 1 ? "" : "s",
        h->cores ? h->pus / h->cores : h->pus);
    row("Memory:", "%s", human_bytes(h->memory, b1, sizeof b1));
    for (unsigned i = 0; i < h->ncaches; i++) {
        const struct info_cache *c = &h->caches[i];
        char label[16], line[32] = "";
        snprintf(label, sizeof label, "L%u%s cache:", c->level,
                 c->kind == 'd' ? "d" : c->kind == 'i' ? "i" : "");
        if (c->line)
            snprintf(line, sizeof line, ", %u-byte lines", c->line);
        if (c->cores_sharing <= 1)
            row(label, "%u x %s, one per core%s", c->count, human_bytes(c->size, b1, sizeof b1),
                line);
        else
            row(label, "%u x %s, each shared by %u cores%s", c->count,
                human_bytes(c->size, b1, sizeof b1), c->cores_sharing, line);
    }
    row("NUMA nodes:", "%u", h->numa_total);
    for (unsigned i = 0; i < h->nnuma; i++) {
        const struct info_numa *n = &h->numa[i];
        char label[24];
        snprintf(label, sizeof label, "  node %u:", n->os_index);
        row(label, "%s, %u %s (PUs %s)", human_bytes(n->memory, b1, sizeof b1), n->cores,
            plural(n->cores, "core", "cores"), n->pus);
    }
    const char *env = getenv("LOOM_WORKERS");
    if (env && *env)
        row("Workers:", "%s (LOOM_WORKERS)", env);
    else if (!h->worker_cores)
        row("Workers:", "one per processor (--workers N or LOOM_WORKERS to change)");
    else
        row("Workers:", "%u, one per core, on PU%s %s (--workers N or LOOM_WORKERS to change)",
            h->worker_cores, h->worker_cores == 1 ? "" : "s", h->worker_pus);
    if (h->worker_cores && h->worker_cores < h->cores)
        row("", "the process may run on %u of the %u cores (CPU affinity mask or cgroup)",
            h->worker_cores, h->cores);
}

/* host_memory: what hwloc says the host has (0: unknown). */
static void print_device_text(const struct sched_preset *p, unsigned long long host_memory)
{
    const struct loom_device_props *d = &p->props;
    const struct sched_sm_limits *sm = &p->sm;
    char b1[32], b2[32], b3[32];
    printf("\nEmulated GPU (preset %s)\n", p->name);
    row("Name:", "%s", d->name);
    row("Modelled on:", "%s", p->model);
    row("Architecture:", "%s, compute capability %d.%d", p->architecture, d->cc_major,
        d->cc_minor);
    row("Multiprocessors:", "%d", d->multiprocessors);
    row("Warp size:", "%d", d->warp_size);
    row("Threads per block:", "%d (block at most %d x %d x %d)", d->max_threads_per_block,
        d->max_block_dim[0], d->max_block_dim[1], d->max_block_dim[2]);
    row("Grid:", "at most %d x %d x %d", d->max_grid_dim[0], d->max_grid_dim[1],
        d->max_grid_dim[2]);
    row("Per SM:", "%u threads, %u warps, %u CTAs", sm->max_threads, sm->max_warps,
        sm->max_ctas);
    row("Registers:", "%u per SM, %d per block, %u per thread", sm->regs, d->regs_per_block,
        sm->max_regs_per_thread);
    if (sm->reg_alloc == SCHED_REG_ALLOC_WARP)
        row("Register allocation:", "per warp, in units of %u, %u sub-partitions",
            sm->reg_alloc_unit, sm->warp_alloc_unit);
    else
        row("Register allocation:", "per block, in units of %u, warps rounded up to %u",
            sm->reg_alloc_unit, sm->warp_alloc_unit);
    row("Shared memory:", "%s per SM, %s per block (%s opt-in)",
        human_bytes(d->shared_per_sm, b1, sizeof b1),
        human_bytes(d->shared_per_block, b2, sizeof b2),
        human_bytes(d->shared_per_block_optin, b3, sizeof b3));
    row("Shared allocation:", "%zu-byte units, %zu bytes reserved per block",
        sm->shared_alloc_unit, sm->shared_reserved_per_cta);
    /* Device memory is host memory: say so where the preset's figure is more than the host has. */
    if (host_memory && host_memory < d->total_global_mem)
        row("Global memory:", "%s (the preset's figure; allocations come from this host's %s)",
            human_bytes(d->total_global_mem, b1, sizeof b1), human_bytes(host_memory, b2, sizeof b2));
    else
        row("Global memory:", "%s", human_bytes(d->total_global_mem, b1, sizeof b1));
    row("Constant memory:", "%s", human_bytes(d->total_const_mem, b1, sizeof b1));
    if (d->l2_cache_size > 0)
        row("L2 cache:", "%s", human_bytes((unsigned long long)d->l2_cache_size, b1, sizeof b1));
    else
        row("L2 cache:", "none");
    row("Clocks:", "SM %d MHz, memory %d MHz, %d-bit bus", d->clock_khz / 1000,
        d->mem_clock_khz / 1000, d->mem_bus_width);
}

/* A JSON string literal. */
static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

/* `"key": "value"` with the separator that precedes it. */
static void json_kv_str(const char *sep, const char *key, const char *value)
{
    printf("%s\"%s\": ", sep, key);
    json_str(value);
}

static void print_host_json(const struct info_host *h)
{
    printf("  \"host\": {\n");
    json_kv_str("    ", "hostname", h->hostname);
    json_kv_str(",\n    ", "os", h->os);
    json_kv_str(",\n    ", "os_release", h->os_release);
    json_kv_str(",\n    ", "architecture", h->arch);
    json_kv_str(",\n    ", "cpu_model", h->cpu_model);
    printf(",\n    \"packages\": %u,\n    \"cores\": %u,\n    \"pus\": %u,\n"
           "    \"memory_bytes\": %llu,\n    \"caches\": [",
           h->packages, h->cores, h->pus, h->memory);
    for (unsigned i = 0; i < h->ncaches; i++) {
        const struct info_cache *c = &h->caches[i];
        printf("%s\n      {\"level\": %u, \"type\": \"%s\", \"size_bytes\": %llu, "
               "\"line_bytes\": %u, \"count\": %u, \"cores_sharing\": %u}",
               i ? "," : "", c->level,
               c->kind == 'd' ? "data" : c->kind == 'i' ? "instruction" : "unified", c->size,
               c->line, c->count, c->cores_sharing);
    }
    printf("%s],\n    \"numa_nodes\": [", h->ncaches ? "\n    " : "");
    for (unsigned i = 0; i < h->nnuma; i++) {
        const struct info_numa *n = &h->numa[i];
        printf("%s\n      {\"os_index\": %u, \"memory_bytes\": %llu, \"cores\": %u, ",
               i ? "," : "", n->os_index, n->memory, n->cores);
        json_kv_str("", "pus", n->pus);
        putchar('}');
    }
    printf("%s],\n    \"workers\": %u,\n", h->nnuma ? "\n    " : "", h->worker_cores);
    json_kv_str("    ", "worker_pus", h->worker_pus);
    printf("\n  }");
}

static void print_device_json(const struct sched_preset *p, const char *indent)
{
    const struct loom_device_props *d = &p->props;
    const struct sched_sm_limits *sm = &p->sm;
    printf("{\n");
    char sep[16];
    snprintf(sep, sizeof sep, ",\n%s  ", indent);
    json_kv_str(sep + 2, "preset", p->name);
    json_kv_str(sep, "alias", p->alias ? p->alias : "");
    json_kv_str(sep, "name", d->name);
    json_kv_str(sep, "architecture", p->architecture);
    json_kv_str(sep, "model", p->model);
    printf("%s\"compute_capability\": \"%d.%d\"", sep, d->cc_major, d->cc_minor);
    printf("%s\"multiprocessors\": %d%s\"warp_size\": %d%s\"max_threads_per_block\": %d",
           sep, d->multiprocessors, sep, d->warp_size, sep, d->max_threads_per_block);
    printf("%s\"max_block_dim\": [%d, %d, %d]%s\"max_grid_dim\": [%d, %d, %d]", sep,
           d->max_block_dim[0], d->max_block_dim[1], d->max_block_dim[2], sep,
           d->max_grid_dim[0], d->max_grid_dim[1], d->max_grid_dim[2]);
    printf("%s\"max_threads_per_sm\": %u%s\"max_warps_per_sm\": %u%s\"max_blocks_per_sm\": %u",
           sep, sm->max_threads, sep, sm->max_warps, sep, sm->max_ctas);
    printf("%s\"regs_per_sm\": %u%s\"regs_per_block\": %d%s\"max_regs_per_thread\": %u", sep,
           sm->regs, sep, d->regs_per_block, sep, sm->max_regs_per_thread);
    printf("%s\"reg_alloc\": \"%s\"%s\"reg_alloc_unit\": %u%s\"warp_alloc_granularity\": %u",
           sep, sm->reg_alloc == SCHED_REG_ALLOC_WARP ? "warp" : "block", sep,
           sm->reg_alloc_unit, sep, sm->warp_alloc_unit);
    printf("%s\"shared_per_sm\": %zu%s\"shared_per_block\": %zu%s\"shared_per_block_optin\": %zu",
           sep, d->shared_per_sm, sep, d->shared_per_block, sep, d->shared_per_block_optin);
    printf("%s\"shared_alloc_unit\": %zu%s\"shared_reserved_per_block\": %zu", sep,
           sm->shared_alloc_unit, sep, sm->shared_reserved_per_cta);
    printf("%s\"total_global_mem\": %zu%s\"total_const_mem\": %zu%s\"l2_cache_size\": %d", sep,
           d->total_global_mem, sep, d->total_const_mem, sep, d->l2_cache_size);
    printf("%s\"clock_khz\": %d%s\"mem_clock_khz\": %d%s\"mem_bus_width\": %d\n%s}", sep,
           d->clock_khz, sep, d->mem_clock_khz, sep, d->mem_bus_width, indent);
}

/* `loom info --presets`: one line per preset. */
static void print_presets(bool json)
{
    size_t count;
    const struct sched_preset *all = sched_preset_list(&count);
    if (json) {
        printf("[");
        for (size_t i = 0; i < count; i++) {
            printf("%s\n  ", i ? "," : "");
            print_device_json(&all[i], "  ");
        }
        printf("\n]\n");
        return;
    }
    printf("%-8s %-8s %-9s %-4s %4s  %s\n", "PRESET", "ALIAS", "ARCH", "CC", "SMS", "MODELLED ON");
    for (size_t i = 0; i < count; i++) {
        const struct sched_preset *p = &all[i];
        char cc[8];
        snprintf(cc, sizeof cc, "%d.%d", p->props.cc_major, p->props.cc_minor);
        printf("%-8s %-8s %-9s %-4s %4d  %s%s\n", p->name, p->alias ? p->alias : "",
               p->architecture, cc, p->props.multiprocessors, p->model,
               p == sched_preset_default() ? " [default]" : "");
    }
}

static int info_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "loom info: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: loom info [--device PRESET] [--json] [--presets]"
                    " (see 'loom help info')\n");
    return 2;
}

int loom_cmd_info(int argc, char **argv)
{
    const char *device = NULL;
    bool json = false, presets = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0)
            json = true;
        else if (strcmp(a, "--presets") == 0)
            presets = true;
        else if (strcmp(a, "--device") == 0) {
            if (i + 1 >= argc)
                return info_usage_error("%s needs a preset name", a);
            device = argv[++i];
        } else if (strncmp(a, "--device=", 9) == 0)
            device = a + 9;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: loom info [--device PRESET] [--json] [--presets]\n");
            return 0;
        } else
            return info_usage_error("unknown argument '%s'", a);
    }

    if (presets) {
        print_presets(json);
        return 0;
    }
    if (device == NULL && getenv("LOOM_DEVICE") && *getenv("LOOM_DEVICE"))
        device = getenv("LOOM_DEVICE");
    const struct sched_preset *preset = device ? sched_preset_find(device) : sched_preset_default();
    if (preset == NULL) {
        char names[256];
        sched_preset_names(names, sizeof names);
        fprintf(stderr, "loom info: unknown device preset '%s'; presets: %s\n", device, names);
        return 2;
    }

    hwloc_topology_t topo;
    struct info_host host;
    bool have_host = false;
    if (hwloc_topology_init(&topo) == 0) {
        hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
        if (hwloc_topology_load(topo) == 0)
            have_host = read_host(topo, &host);
        else
            fprintf(stderr, "loom info: hwloc could not read the host topology\n");
    } else {
        fprintf(stderr, "loom info: hwloc could not start\n");
        topo = NULL;
    }

    if (json) {
        printf("{\n  \"loom_version\": \"%s\",\n", PACKAGE_VERSION);
        if (have_host) {
            print_host_json(&host);
            printf(",\n");
        }
        printf("  \"device\": ");
        print_device_json(preset, "  ");
        printf("\n}\n");
    } else {
        if (have_host)
            print_host_text(&host);
        print_device_text(preset, have_host ? (unsigned long long)host.memory : 0);
    }
    if (topo)
        hwloc_topology_destroy(topo);
    return have_host ? 0 : 1;
}
