/* loom_stats.c -- the counters' statistics (loom_device_config.counters): a finished
 * grid's per-pc counts (emu_obs.h) folded into its kernel's lines, the JSON document
 * (schema "loom-stats/1", docs/OBSERVE.md) and the text summary. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"
#include "emu/emu_obs.h"
#include "observe/json.h"
#include "ptx/ptx_demangle.h"
#include "sched/sched.h"

/* ---- Lines ---------------------------------------------------------------------- */

bool sched_module_lines(struct loom_module *m)
{
    if (m->line_off || !m->text) return m->line_off != NULL;
    uint32_t n = 1;
    for (size_t i = 0; i < m->text_len; i++) n += m->text[i] == '\n';
    m->line_off = malloc(((size_t)n + 1) * sizeof *m->line_off);
    if (!m->line_off) return false;
    uint32_t k = 0;
    m->line_off[k++] = 0;
    for (size_t i = 0; i < m->text_len; i++)
        if (m->text[i] == '\n') m->line_off[k++] = (uint32_t)(i + 1);
    m->line_off[k] = (uint32_t)m->text_len + 1;
    m->nlines = n;
    return true;
}

bool sched_module_line(struct loom_module *m, unsigned line, const char **a, const char **b)
{
    if (!sched_module_lines(m) || line == 0 || line > m->nlines) return false;
    *a = m->text + m->line_off[line - 1];
    *b = m->text + m->line_off[line] - 1;
    if (*b > m->text + m->text_len) *b = m->text + m->text_len;
    return true;
}

/* Line `line` (1-based) of the module's PTX, without its newline, as a new string ("" when
 * unknown); trimmed of the blanks around it when trim. */
static char *line_text(struct loom_module *m, unsigned line, bool trim)
{
    const char *a, *b;
    if (!sched_module_line(m, line, &a, &b)) return strdup("");
    while (trim && a < b && (*a == ' ' || *a == '\t')) a++;
    while (trim && b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) b--;
    return strndup(a, (size_t)(b - a));
}

/* The entry's line record for `line`, inserted in order when new (NULL: out of memory). */
static struct loom_line_stats *line_rec(struct sched_stats_entry *e, struct loom_module *m, unsigned line)
{
    unsigned lo = 0, hi = e->nlines;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (e->lines[mid].line < line) lo = mid + 1;
        else hi = mid;
    }
    if (lo < e->nlines && e->lines[lo].line == line) return &e->lines[lo];
    if (e->nlines == e->lines_cap) {
        unsigned cap = e->lines_cap ? 2 * e->lines_cap : 64;
        struct loom_line_stats *n = realloc(e->lines, cap * sizeof *n);
        if (!n) return NULL;
        e->lines = n;
        e->lines_cap = cap;
    }
    memmove(&e->lines[lo + 1], &e->lines[lo], (e->nlines - lo) * sizeof *e->lines);
    e->nlines++;
    e->lines[lo] = (struct loom_line_stats){ .line = line, .text = line_text(m, line, true) };
    return &e->lines[lo];
}

static enum loom_line_mem line_mem(const struct emu_obs_desc *d, uint32_t seen)
{
    if (!d->mem) return LOOM_MEM_NONE;
    unsigned kind = d->mem - EMU_OBS_LD;       /* 0 ld, 1 st, 2 atom */
    if (seen == 1u << PTX_SPACE_SHARED || seen == 1u << PTX_SPACE_SHARED_CLUSTER)
        return (enum loom_line_mem)(LOOM_MEM_SHARED_LD + kind);
    if (seen == 1u << PTX_SPACE_GLOBAL) return (enum loom_line_mem)(LOOM_MEM_GLOBAL_LD + kind);
    if (seen == 1u << PTX_SPACE_LOCAL && kind < 2) return (enum loom_line_mem)(LOOM_MEM_LOCAL_LD + kind);
    if (!seen) {                              /* never ran with a lane: the declared space */
        if (d->space == PTX_SPACE_SHARED) return (enum loom_line_mem)(LOOM_MEM_SHARED_LD + kind);
        if (d->space == PTX_SPACE_GLOBAL) return (enum loom_line_mem)(LOOM_MEM_GLOBAL_LD + kind);
        if (d->space == PTX_SPACE_LOCAL && kind < 2) return (enum loom_line_mem)(LOOM_MEM_LOCAL_LD + kind);
    }
    return LOOM_MEM_OTHER;
}

static void mem_add(struct loom_mem_stats *t, const struct loom_line_stats *l)
{
    switch (l->mem) {
    case LOOM_MEM_SHARED_LD:
        t->shared_ld_requests += l->requests; t->shared_ld_wavefronts += l->wavefronts;
        t->shared_ld_conflicts += l->bank_conflicts; break;
    case LOOM_MEM_SHARED_ST:
        t->shared_st_requests += l->requests; t->shared_st_wavefronts += l->wavefronts;
        t->shared_st_conflicts += l->bank_conflicts; break;
    case LOOM_MEM_SHARED_ATOM: t->shared_atom_requests += l->requests; break;
    case LOOM_MEM_GLOBAL_LD:
        t->global_ld_requests += l->requests; t->global_ld_sectors += l->sectors; t->global_ld_lines += l->lines128;
        break;
    case LOOM_MEM_GLOBAL_ST:
        t->global_st_requests += l->requests; t->global_st_sectors += l->sectors; t->global_st_lines += l->lines128;
        break;
    case LOOM_MEM_GLOBAL_ATOM: t->global_atom_requests += l->requests; t->global_atom_sectors += l->sectors; break;
    case LOOM_MEM_LOCAL_LD: t->local_ld_requests += l->requests; t->local_ld_bytes += l->bytes; break;
    case LOOM_MEM_LOCAL_ST: t->local_st_requests += l->requests; t->local_st_bytes += l->bytes; break;
    default: break;
    }
}

/* ---- JSON fragments made at a kernel's first launch ------------------------------------ */

static unsigned instr_line(const struct ptx_func *fn, uint32_t i)
{
    return i < fn->ninstrs ? fn->instrs[i].loc.line : 0;
}

/* The entry's control-flow graph: blocks as PTX line ranges, edges, and its branches
 * with where they reconverge. */
static char *cfg_json(const struct ptx_func *fn)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputs("{\"blocks\": [", f);
    for (uint32_t b = 0; b < fn->nblocks; b++) {
        const struct ptx_block *bl = &fn->blocks[b];
        const char *label = NULL;
        for (uint32_t k = 0; k < fn->nlabels; k++)
            if (fn->labels[k].instr == bl->first) label = fn->labels[k].name;
        fprintf(f, "%s{\"id\": %u, \"first\": %u, \"last\": %u, \"label\": ", b ? ", " : "", b,
                instr_line(fn, bl->first), instr_line(fn, bl->last));
        loom_json_str(f, label ? label : "");
        fputc('}', f);
    }
    fputs("], \"edges\": [", f);
    bool first = true;
    for (uint32_t b = 0; b < fn->nblocks; b++) {
        const struct ptx_block *bl = &fn->blocks[b];
        const struct ptx_instr *last = bl->last < fn->ninstrs ? &fn->instrs[bl->last] : NULL;
        bool br = last && (last->op == PTX_OP_BRA || last->op == PTX_OP_BRX);
        for (uint32_t k = 0; k < bl->nsucc; k++) {
            uint32_t to = k < 2 ? bl->succ[k] : bl->succ_ext[k - 2];
            const char *kind = br && !(bl->nsucc > 1 && to == b + 1) ? "taken" : "fall";
            fprintf(f, "%s{\"from\": %u, \"to\": %u, \"kind\": \"%s\"}", first ? "" : ", ", b, to, kind);
            first = false;
        }
    }
    fputs("], \"branches\": [", f);
    first = true;
    for (uint32_t b = 0; b < fn->nblocks; b++) {
        const struct ptx_block *bl = &fn->blocks[b];
        if (bl->nsucc < 2) continue;
        unsigned reconv = bl->ipdom >= 0 ? instr_line(fn, fn->blocks[bl->ipdom].first) : 0;
        fprintf(f, "%s{\"line\": %u, \"block\": %u, \"reconv_line\": %u}", first ? "" : ", ",
                instr_line(fn, bl->last), b, reconv);
        first = false;
    }
    fputs("]}", f);
    fclose(f);
    return buf;
}

/* The text of a CUDA source file as a JSON array of lines, when it can be read (and is
 * at most 4 MiB). */
static void cuda_text(FILE *f, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) return;
    char *buf = malloc((4u << 20) + 1);
    size_t n = buf ? fread(buf, 1, 4u << 20, in) : 0;
    bool whole = buf && fgetc(in) == EOF;
    fclose(in);
    if (!whole) { free(buf); return; }
    buf[n] = 0;
    fputs(", \"text\": [", f);
    char *line = buf;
    for (bool first = true; line < buf + n || first; first = false) {
        char *nl = memchr(line, '\n', (size_t)(buf + n - line));
        if (nl) *nl = 0;
        if (!first) fputs(", ", f);
        loom_json_str(f, line);
        if (!nl) break;
        line = nl + 1;
        if (line == buf + n) break;             /* (no line after the last newline) */
    }
    fputc(']', f);
    free(buf);
}

/* The PTX lines from..to and the CUDA files named by .file, with the text of those the
 * kernel's lines come from. */
static char *src_json(struct loom_module *m, unsigned from, unsigned to, const struct sched_stats_entry *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fprintf(f, "\"ptx_first\": %u, \"ptx_text\": [", from);
    for (unsigned l = from; from && l <= to; l++) {
        char *t = line_text(m, l, false);
        if (l > from) fputs(", ", f);
        loom_json_str(f, t ? t : "");
        free(t);
    }
    fputs("], \"cuda_files\": [", f);
    for (uint32_t i = 0; i < m->ir->nfiles; i++) {
        fprintf(f, "%s{\"index\": %u, \"path\": ", i ? ", " : "", m->ir->files[i].index);
        loom_json_str(f, m->ir->files[i].path);
        bool used = false;
        for (unsigned k = 0; k < e->nlines && !used; k++) used = e->lines[k].cu_file == m->ir->files[i].index;
        if (used) cuda_text(f, m->ir->files[i].path);
        fputc('}', f);
    }
    fputc(']', f);
    fclose(f);
    return buf;
}

/* The lane activity of the first CTA's first warps, as [PTX line, mask] issues. */
static char *warps_json(const struct emu_obs *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputc('[', f);
    for (uint32_t w = 0; w < o->trace_warps; w++) {
        fprintf(f, "%s{\"cta\": [0, 0, 0], \"warp\": %u, \"truncated\": %s, \"slots\": [", w ? ", " : "", w,
                o->truncated[w] ? "true" : "false");
        for (uint32_t k = 0; k < o->nslots[w]; k++) {
            const struct emu_obs_slot *sl = &o->slots[(size_t)w * EMU_OBS_TRACE_SLOTS + k];
            fprintf(f, "%s[%u, %u]", k ? ", " : "", o->prog->locs[sl->pc].ptx_line, (unsigned)sl->mask);
        }
        fputs("]}", f);
    }
    fputc(']', f);
    fclose(f);
    return buf;
}

void sched_stats_count(struct sched_stats_entry *e, const struct sched_grid *g)
{
    const struct emu_obs *o = g->L.obs;
    if (!o) return;
    struct loom_module *m = g->k->mod;
    const struct emu_program *p = o->prog;
    struct emu_obs_pc *sum = calloc(o->ncode ? o->ncode : 1, sizeof *sum);
    if (!sum) return;
    emu_obs_sum(o, sum);
    const struct emu_func *entry = g->L.entry;
    unsigned lo = UINT_MAX, hi = 0;
    for (uint32_t pc = 0; pc < o->ncode; pc++) {
        const struct emu_loc *loc = &p->locs[pc];
        bool mine = pc >= entry->entry_pc && pc < entry->end_pc;
        if (!loc->main || !loc->ptx_line || (!mine && !sum[pc].exec)) continue;
        struct loom_line_stats *l = line_rec(e, m, loc->ptx_line);
        if (!l) break;
        const struct emu_obs_pc *c = &sum[pc];
        if (loc->ptx_line < lo) lo = loc->ptx_line;
        if (loc->ptx_line > hi) hi = loc->ptx_line;
        l->cu_file = loc->cu_file;
        l->cu_line = loc->cu_line;
        l->exec += c->exec;
        l->threads += c->threads;
        l->predicated_off += c->off;
        l->divergent += c->divergent;
        l->barrier_waits += c->barrier_waits;
        enum loom_line_mem mk = line_mem(&o->desc[pc], c->seen);
        if (l->mem == LOOM_MEM_NONE) l->mem = mk;
        else if (mk != LOOM_MEM_NONE && mk != l->mem && c->seen) l->mem = LOOM_MEM_OTHER;
        l->requests += c->requests;
        l->sectors += c->sectors;
        l->lines128 += c->lines;
        l->wavefronts += c->wavefronts;
        l->bank_conflicts += c->conflicts;
        l->bytes += c->bytes;
    }
    free(sum);
    e->s.lines = e->lines;
    e->s.nlines = e->nlines;
    e->s.counted = true;
    memset(&e->s.mem, 0, sizeof e->s.mem);
    for (unsigned i = 0; i < e->nlines; i++) mem_add(&e->s.mem, &e->lines[i]);
    for (int k = 0; k < 3; k++) { e->grid[k] = g->L.grid[k]; e->block[k] = g->L.block[k]; }
    e->dyn_shared = g->L.dyn_shared;
    if (!e->src_json) {                        /* the first launch: what needs the module */
        char name[1024];
        ptx_demangle(g->k->ir->name, name, sizeof name);
        e->demangled = strdup(name);
        e->ptx_path = strdup(m->ir->path ? m->ir->path : "<ptx>");
        const struct ptx_func *fn = g->k->ir;       /* the whole entry, from its .entry line */
        if (fn->loc.line && fn->loc.line < lo) lo = fn->loc.line;
        if (fn->ninstrs && instr_line(fn, fn->ninstrs - 1) + 1 > hi) hi = instr_line(fn, fn->ninstrs - 1) + 1;
        e->src_json = src_json(m, lo == UINT_MAX ? 0 : lo, hi, e);
        e->cfg_json = cfg_json(g->k->ir);
        e->warps_json = warps_json(o);
    }
}

void sched_stats_entry_free(struct sched_stats_entry *e)
{
    for (unsigned i = 0; i < e->nlines; i++) free((char *)e->lines[i].text);
    free(e->lines);
    free(e->demangled); free(e->ptx_path);
    free(e->src_json); free(e->cfg_json); free(e->warps_json);
    free(e->kernel);
    free(e);
}

/* ---- The JSON document -------------------------------------------------------------- */

static const char *mem_name(enum loom_line_mem k)
{
    static const char *const n[] = { "", "shared.ld", "shared.st", "shared.atom", "global.ld", "global.st",
                                     "global.atom", "local.ld", "local.st", "other" };
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "other";
}

static void u64(FILE *f, const char *key, uint64_t v, bool comma)
{
    fprintf(f, "\"%s\": %llu%s", key, (unsigned long long)v, comma ? ", " : "");
}

static void write_kernel(FILE *f, const struct sched_stats_entry *e, const struct loom_device *dev, bool sources)
{
    const struct loom_kernel_stats *s = &e->s;
    fputs("    {\"name\": ", f);
    loom_json_str(f, s->kernel);
    fputs(", \"demangled\": ", f);
    loom_json_str(f, e->demangled ? e->demangled : s->kernel);
    fprintf(f, ",\n     \"launches\": %llu, \"seconds\": %.6f, \"ctas\": %llu, ", (unsigned long long)s->launches,
            s->seconds, (unsigned long long)s->ctas);
    fprintf(f, "\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"dynamic_shared\": %zu,\n     ", e->grid[0],
            e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2], e->dyn_shared);
    u64(f, "warp_instructions", s->warp_instructions, true);
    u64(f, "thread_instructions", s->thread_instructions, true);
    fprintf(f, "\"simd_efficiency\": %.6f, ",
            s->warp_instructions ? (double)s->thread_instructions / (32.0 * (double)s->warp_instructions) : 0.0);
    u64(f, "divergent_branches", s->divergent_branches, true);
    u64(f, "reconvergences", s->simt.reconvergences, true);
    u64(f, "barrier_waits", s->barrier_waits, false);
    const struct loom_mem_stats *m = &s->mem;
    fputs(",\n     \"shared\": {", f);
    u64(f, "ld_requests", m->shared_ld_requests, true); u64(f, "ld_wavefronts", m->shared_ld_wavefronts, true);
    u64(f, "ld_bank_conflicts", m->shared_ld_conflicts, true); u64(f, "st_requests", m->shared_st_requests, true);
    u64(f, "st_wavefronts", m->shared_st_wavefronts, true); u64(f, "st_bank_conflicts", m->shared_st_conflicts, true);
    u64(f, "atom_requests", m->shared_atom_requests, false);
    fputs("},\n     \"global\": {", f);
    u64(f, "ld_requests", m->global_ld_requests, true); u64(f, "ld_sectors", m->global_ld_sectors, true);
    u64(f, "ld_lines", m->global_ld_lines, true); u64(f, "st_requests", m->global_st_requests, true);
    u64(f, "st_sectors", m->global_st_sectors, true); u64(f, "st_lines", m->global_st_lines, true);
    u64(f, "atom_requests", m->global_atom_requests, true); u64(f, "atom_sectors", m->global_atom_sectors, false);
    fputs("},\n     \"local\": {", f);
    u64(f, "ld_requests", m->local_ld_requests, true); u64(f, "ld_bytes", m->local_ld_bytes, true);
    u64(f, "st_requests", m->local_st_requests, true); u64(f, "st_bytes", m->local_st_bytes, false);
    fputs("},\n     \"occupancy\": {", f);
    fprintf(f, "\"threads_per_block\": %u, \"registers_per_thread\": %u, \"shared_per_block\": %u, ", s->block_threads,
            s->registers_per_thread, e->shared_block);
    unsigned max_warps = (unsigned)dev->props.max_threads_per_sm / 32;
    unsigned wpc = (s->block_threads + 31) / 32;
    fprintf(f, "\"ctas_per_sm\": %u, \"warps_per_sm\": %u, \"max_warps_per_sm\": %u, \"theoretical\": %.6f, ",
            s->occupancy_ctas_per_sm, s->occupancy_ctas_per_sm * wpc, max_warps, s->occupancy);
    unsigned lim[5] = { s->occupancy_by_threads, s->occupancy_by_registers, s->occupancy_by_shared,
                        s->occupancy_by_ctas, s->occupancy_by_barriers };
    static const char *const limn[5] = { "threads", "registers", "shared", "cta_slots", "barriers" };
    fputs("\"limits\": {", f);
    for (int k = 0; k < 5; k++) {
        if (lim[k] == UINT_MAX) fprintf(f, "%s\"%s\": null", k ? ", " : "", limn[k]);
        else fprintf(f, "%s\"%s\": %u", k ? ", " : "", limn[k], lim[k]);
    }
    fputs("}, \"limiter\": ", f);
    loom_json_str(f, s->occupancy_limiter ? s->occupancy_limiter : "");
    fputs(", \"achieved_resident\": [", f);
    for (unsigned k = 0; k < s->timeline_bins && k < LOOM_TIMELINE_BINS; k++)
        fprintf(f, "%s%.3f", k ? ", " : "", (double)s->timeline_resident[k]);
    fprintf(f, "], \"bin_seconds\": %.9f},\n     \"simt_stats\": {", s->timeline_interval_s);
    const struct loom_simt_stats *t = &s->simt;
    u64(f, "slots", t->slots, true); u64(f, "lanes", t->lanes, true);
    fputs("\"hist\": [", f);
    for (int k = 0; k <= 32; k++) fprintf(f, "%s%llu", k ? ", " : "", (unsigned long long)t->hist[k]);
    fputs("], ", f);
    u64(f, "divergent_branches", t->divergent_branches, true); u64(f, "reconvergences", t->reconvergences, true);
    u64(f, "max_depth", t->max_depth, true); u64(f, "warps_formed", t->warps_formed, true);
    u64(f, "warps_split", t->warps_split, true); u64(f, "lane_conflicts", t->lane_conflicts, true);
    u64(f, "coissued", t->coissued, false);
    fputs("}", f);
    if (s->counted) {
        fputs(",\n     \"ptx_file\": ", f);
        loom_json_str(f, e->ptx_path);
        if (e->src_json && sources) fprintf(f, ",\n     %s", e->src_json);
        fputs(",\n     \"lines\": [", f);
        for (unsigned i = 0; i < e->nlines; i++) {
            const struct loom_line_stats *l = &e->lines[i];
            fprintf(f, "%s\n      {\"line\": %u, \"text\": ", i ? "," : "", l->line);
            loom_json_str(f, l->text);
            if (l->cu_line) fprintf(f, ", \"cu_file\": %u, \"cu_line\": %u", l->cu_file, l->cu_line);
            fputs(", ", f);
            u64(f, "exec", l->exec, true); u64(f, "threads", l->threads, true);
            u64(f, "predicated_off", l->predicated_off, true); u64(f, "divergent", l->divergent, true);
            u64(f, "barrier_waits", l->barrier_waits, l->mem != LOOM_MEM_NONE);
            if (l->mem != LOOM_MEM_NONE) {
                fprintf(f, "\"mem\": \"%s\", ", mem_name(l->mem));
                u64(f, "requests", l->requests, true); u64(f, "sectors", l->sectors, true);
                u64(f, "lines128", l->lines128, true); u64(f, "wavefronts", l->wavefronts, true);
                u64(f, "bank_conflicts", l->bank_conflicts, true); u64(f, "bytes", l->bytes, false);
            }
            fputc('}', f);
        }
        fputs("]", f);
        if (e->cfg_json) fprintf(f, ",\n     \"cfg\": %s", e->cfg_json);
        if (e->warps_json) fprintf(f, ",\n     \"warps\": %s", e->warps_json);
    }
    fputs("}", f);
}

enum loom_status loom_stats_write_json_run(struct loom_device *dev, FILE *out, bool sources)
{
    if (!dev || !out) return LOOM_ERR_INVALID_VALUE;
    pthread_mutex_lock(&dev->lock);
    fputs("  {\"simt\": ", out);
    loom_json_str(out, dev->simt.spec[0] ? dev->simt.spec : "pdom");
    fputs(", \"kernels\": [\n", out);
    /* Kernels in the order they first ran (the list holds the newest first). */
    unsigned n = 0;
    for (struct sched_stats_entry *e = dev->stats; e; e = e->next) n++;
    struct sched_stats_entry **v = calloc(n ? n : 1, sizeof *v);
    unsigned k = n;
    for (struct sched_stats_entry *e = dev->stats; e && v; e = e->next) v[--k] = e;
    for (unsigned i = 0; v && i < n; i++) {
        write_kernel(out, v[i], dev, sources);
        fputs(i + 1 < n ? ",\n" : "\n", out);
    }
    free(v);
    fputs("  ]}", out);
    pthread_mutex_unlock(&dev->lock);
    return ferror(out) ? LOOM_ERR_IO : LOOM_OK;
}

enum loom_status loom_stats_write_json(struct loom_device *dev, FILE *out, const char *program)
{
    if (!dev || !out) return LOOM_ERR_INVALID_VALUE;
    loom_stats_json_begin(out, program, dev->props.name, dev->simt.spec[0] ? dev->simt.spec : "pdom");
    enum loom_status st = loom_stats_write_json_run(dev, out, true);
    fputs("\n ]\n}\n", out);
    fflush(out);
    return st == LOOM_OK && ferror(out) ? LOOM_ERR_IO : st;
}

void loom_stats_json_begin(FILE *out, const char *program, const char *device, const char *simt)
{
    fputs("{\"schema\": \"loom-stats/1\", \"program\": ", out);
    loom_json_str(out, program ? program : "");
    fputs(", \"device\": ", out);
    loom_json_str(out, device ? device : "");
    fputs(", \"simt\": ", out);
    loom_json_str(out, simt ? simt : "pdom");
    fputs(",\n \"runs\": [\n", out);
}

/* ---- Text -------------------------------------------------------------------------- */

static int by_cost(const void *a, const void *b)
{
    const struct loom_line_stats *x = *(const struct loom_line_stats *const *)a,
                                 *y = *(const struct loom_line_stats *const *)b;
    uint64_t cx = x->threads, cy = y->threads;
    return cx < cy ? 1 : cx > cy ? -1 : (x->line > y->line) - (x->line < y->line);
}

void loom_stats_print_counters(FILE *out, const char *prefix, const struct loom_kernel_stats *s, unsigned max_lines)
{
    if (!s->counted) return;
    const struct loom_mem_stats *m = &s->mem;
    if (m->shared_ld_requests || m->shared_st_requests || m->shared_atom_requests)
        fprintf(out, "%sshared: %llu loads (%llu wavefronts, %llu bank conflicts), %llu stores (%llu wavefronts, "
                     "%llu bank conflicts), %llu atomics\n", prefix,
                (unsigned long long)m->shared_ld_requests, (unsigned long long)m->shared_ld_wavefronts,
                (unsigned long long)m->shared_ld_conflicts, (unsigned long long)m->shared_st_requests,
                (unsigned long long)m->shared_st_wavefronts, (unsigned long long)m->shared_st_conflicts,
                (unsigned long long)m->shared_atom_requests);
    if (m->global_ld_requests || m->global_st_requests || m->global_atom_requests)
        fprintf(out, "%sglobal: %llu loads (%.2f sectors, %.2f lines per request), %llu stores (%.2f sectors, %.2f "
                     "lines per request), %llu atomics\n", prefix,
                (unsigned long long)m->global_ld_requests,
                m->global_ld_requests ? (double)m->global_ld_sectors / (double)m->global_ld_requests : 0.0,
                m->global_ld_requests ? (double)m->global_ld_lines / (double)m->global_ld_requests : 0.0,
                (unsigned long long)m->global_st_requests,
                m->global_st_requests ? (double)m->global_st_sectors / (double)m->global_st_requests : 0.0,
                m->global_st_requests ? (double)m->global_st_lines / (double)m->global_st_requests : 0.0,
                (unsigned long long)m->global_atom_requests);
    if (m->local_ld_requests || m->local_st_requests)
        fprintf(out, "%slocal: %llu loads (%llu bytes), %llu stores (%llu bytes)\n", prefix,
                (unsigned long long)m->local_ld_requests, (unsigned long long)m->local_ld_bytes,
                (unsigned long long)m->local_st_requests, (unsigned long long)m->local_st_bytes);
    if (!max_lines || !s->nlines) return;
    const struct loom_line_stats **v = malloc(s->nlines * sizeof *v);
    if (!v) return;
    for (unsigned i = 0; i < s->nlines; i++) v[i] = &s->lines[i];
    qsort(v, s->nlines, sizeof *v, by_cost);
    fprintf(out, "%shottest lines:   line      issues  SIMD eff  divergent  conflicts  sectors/req  text\n", prefix);
    for (unsigned i = 0; i < s->nlines && i < max_lines && v[i]->exec; i++) {
        const struct loom_line_stats *l = v[i];
        char spr[32] = "", cf[32] = "";
        if (l->mem >= LOOM_MEM_GLOBAL_LD && l->mem <= LOOM_MEM_GLOBAL_ATOM && l->requests)
            snprintf(spr, sizeof spr, "%.2f", (double)l->sectors / (double)l->requests);
        if (l->mem >= LOOM_MEM_SHARED_LD && l->mem <= LOOM_MEM_SHARED_ATOM)
            snprintf(cf, sizeof cf, "%llu", (unsigned long long)l->bank_conflicts);
        fprintf(out, "%s  %14u %11llu %8.1f%% %10llu %10s %12s  %.60s\n", prefix, l->line,
                (unsigned long long)l->exec, l->exec ? 100.0 * (double)l->threads / (32.0 * (double)l->exec) : 0.0,
                (unsigned long long)l->divergent, cf, spr, l->text ? l->text : "");
    }
    free(v);
}
