/* occ_compare.c -- Loom's register estimate and occupancy against an H100's, kernel by kernel.
 *
 * Usage: occ_compare [-v] [--min PCT] [--min-optimised PCT] TABLE [SRCDIR]
 * TABLE is tests/occupancy/h100.txt: per kernel of the repository's PTX, ptxas's register
 * count and the occupancy the H100 answered for blocks of 32, 64, ... 1024 threads. For each
 * kernel it loads the PTX (paths relative to SRCDIR; cudaptx/ under tests/occupancy/) and checks
 *  - the occupancy rules: sched_occupancy fed the H100's own register count and shared memory
 *    must give the H100's answer exactly, for every block size;
 *  - the estimate: loom_kernel_occupancy (Loom's estimated registers) against the H100's
 *    answer: the share of (kernel, block size) pairs that agree, and the pairs where Loom
 *    says no CTA fits while the H100 runs one ("false impossible"), which must be none.
 * With -v it prints every kernel: ptxas's count, Loom's, and both rows of occupancies.
 * Exit status 0 when the rules agree everywhere, nothing is falsely impossible and the
 * agreement reaches --min (all kernels) and --min-optimised (kernels not built with -G). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"
#include "ptx/ptx_ir.h"
#include "sched/sched.h"
#include "sched/sched_preset.h"

#define NSIZES 32

/* One row of the table. */
struct row {
    char file[512], kernel[512];
    unsigned regs, maxthreads;
    size_t shared;
    int occ[NSIZES];
};

static bool parse_row(const char *line, struct row *r)
{
    char occ[512];
    unsigned long shared, local;
    if (sscanf(line, "%511s %511s regs=%u shared=%lu local=%lu maxthreads=%u occ=%511s", r->file, r->kernel,
               &r->regs, &shared, &local, &r->maxthreads, occ) != 7)
        return false;
    r->shared = shared;
    char *p = occ;
    for (int i = 0; i < NSIZES; i++) {
        char *end;
        r->occ[i] = (int)strtol(p, &end, 10);
        if (end == p) return false;
        p = *end == ',' ? end + 1 : end;
    }
    return true;
}

/* Tallies of one class of kernels (all, optimised, debug). */
struct tally {
    unsigned kernels, exact, pairs, agree, impossible;
    unsigned err[256];   /* histogram of |estimate - ptxas| */
};

static void tally_kernel(struct tally *t, unsigned est, unsigned regs)
{
    unsigned e = est > regs ? est - regs : regs - est;
    t->kernels++;
    t->exact += e == 0;
    t->err[e < 255 ? e : 255]++;
}

static unsigned median_err(const struct tally *t)
{
    unsigned seen = 0;
    for (unsigned e = 0; e < 256; e++) {
        seen += t->err[e];
        if (2 * seen >= t->kernels) return e;
    }
    return 255;
}

static double share(const struct tally *t)
{
    return t->pairs ? 100.0 * t->agree / t->pairs : 100.0;
}

static void print_tally(const char *name, const struct tally *t)
{
    printf("%-10s kernels %4u  registers exact %4u  median |error| %3u  pairs %5u  agree %6.2f%%  "
           "false impossible %u\n", name, t->kernels, t->exact, median_err(t), t->pairs, share(t), t->impossible);
}

int main(int argc, char **argv)
{
    bool verbose = false;
    double min_all = 0, min_opt = 0;
    const char *table = NULL, *srcdir = ".";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) verbose = true;
        else if (strcmp(argv[i], "--min") == 0 && i + 1 < argc) min_all = atof(argv[++i]);
        else if (strcmp(argv[i], "--min-optimised") == 0 && i + 1 < argc) min_opt = atof(argv[++i]);
        else if (!table) table = argv[i];
        else srcdir = argv[i];
    }
    FILE *f = table ? fopen(table, "r") : NULL;
    if (!f) {
        fprintf(stderr, "usage: occ_compare [-v] [--min PCT] [--min-optimised PCT] TABLE [SRCDIR]\n");
        return 2;
    }
    struct loom_device *dev;
    if (loom_device_create(NULL, &dev) != LOOM_OK) return 2;
    const struct sched_preset *h100 = sched_preset_find("h100");
    struct tally all = { 0 }, opt = { 0 }, dbg = { 0 };
    unsigned rule_bad = 0, not_loaded = 0;
    char line[4096], loaded_path[1100] = "";
    struct loom_module *mod = NULL;
    while (fgets(line, sizeof line, f)) {
        struct row r;
        if (line[0] == '#' || !parse_row(line, &r)) continue;
        char path[1100];
        snprintf(path, sizeof path, "%s/%s%s", srcdir, strncmp(r.file, "cudaptx/", 8) ? "" : "tests/occupancy/", r.file);
        if (strcmp(path, loaded_path) != 0) {
            if (mod) loom_module_unload(mod);
            mod = NULL;
            snprintf(loaded_path, sizeof loaded_path, "%s", path);
            if (loom_module_load_file(dev, path, &mod) != LOOM_OK) mod = NULL;
        }
        struct loom_kernel *k = NULL;
        if (!mod || loom_module_get_kernel(mod, r.kernel, &k) != LOOM_OK) {
            printf("%s %s: not loaded (%s)\n", r.file, r.kernel, loom_device_error(dev));
            not_loaded++;
            continue;
        }
        struct loom_kernel_attrs at;
        loom_kernel_attrs(k, &at);
        struct tally *cls = k->mod->ir->target_debug ? &dbg : &opt;
        tally_kernel(&all, at.num_regs, r.regs);
        tally_kernel(cls, at.num_regs, r.regs);
        /* maxThreadsPerBlock: the register limit of the H100's count, then .maxntid/.reqntid */
        unsigned maxt = sched_max_threads(h100, r.regs);
        const struct ptx_perf *pf = &k->ir->perf;
        const uint32_t *nt = pf->reqntid[0] ? pf->reqntid : pf->maxntid;
        unsigned bound = nt[0] ? nt[0] * (nt[1] ? nt[1] : 1) * (nt[2] ? nt[2] : 1) : 1024;
        if ((maxt < bound ? maxt : bound) != r.maxthreads) {
            printf("%s %s: %u registers: the rules allow %u threads per block, the H100 %u\n", r.file, r.kernel,
                   r.regs, maxt < bound ? maxt : bound, r.maxthreads);
            rule_bad++;
        }
        unsigned mine[NSIZES], rules[NSIZES];
        for (int i = 0; i < NSIZES; i++) {
            unsigned b = 32u * (unsigned)(i + 1);
            struct sched_occupancy o;
            sched_occupancy(h100, b, r.regs, r.shared, at.barriers, &o);
            rules[i] = o.ctas_per_sm;
            mine[i] = 0;
            loom_kernel_occupancy(k, b, 0, &mine[i]);
            if (r.occ[i] < 0) continue;
            if (rules[i] != (unsigned)r.occ[i]) {
                printf("%s %s: %u threads, %u registers: the rules give %u CTAs/SM, the H100 %d\n", r.file,
                       r.kernel, b, r.regs, rules[i], r.occ[i]);
                rule_bad++;
            }
            struct tally *ts[2] = { &all, cls };
            for (int t = 0; t < 2; t++) {
                ts[t]->pairs++;
                ts[t]->agree += mine[i] == (unsigned)r.occ[i];
                ts[t]->impossible += mine[i] == 0 && r.occ[i] > 0;
            }
        }
        if (verbose) {
            printf("%s %s ptxas %u loom %u\n  h100:", r.file, r.kernel, r.regs, at.num_regs);
            for (int i = 0; i < NSIZES; i++) printf(" %2d", r.occ[i]);
            printf("\n  loom:");
            for (int i = 0; i < NSIZES; i++) printf(" %2u", mine[i]);
            printf("\n");
        }
    }
    fclose(f);
    if (mod) loom_module_unload(mod);
    loom_device_destroy(dev);
    print_tally("all", &all);
    print_tally("optimised", &opt);
    print_tally("debug (-G)", &dbg);
    printf("occupancy rules against the H100 (its own register counts): %u mismatches\n", rule_bad);
    printf("kernels not loaded: %u\n", not_loaded);
    bool ok = rule_bad == 0 && all.impossible == 0 && share(&all) >= min_all && share(&opt) >= min_opt &&
              all.kernels > 0;
    if (!ok) printf("FAIL (required: agreement >= %.1f%% overall, >= %.1f%% optimised, no false impossible, rules exact)\n",
                    min_all, min_opt);
    return ok ? 0 : 1;
}
