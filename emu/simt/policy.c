/* policy.c -- choosing a SIMT policy: `--simt NAME[:KEY=VALUE,...]` (emu_simt.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/simt/emu_simt.h"

static const char *const names[EMU_SIMT_COUNT_] = { "pdom", "its", "frontier", "dwf", "sbi", "swi", "sbi+swi" };
static const char *const heurs[] = { "majority", "minority", "time", "pc", "pdom-priority" };

const char *emu_simt_names(void) { return "pdom, its, frontier, dwf, sbi, swi, sbi+swi"; }

/* The options each policy takes. */
static const char *options_of(enum emu_simt_kind k)
{
    switch (k) {
    case EMU_SIMT_DWF: return "policy=majority|minority|time|pc|pdom-priority, las=on|off, swizzle=on|off, "
                              "split=on|off, pool=N (warps), age=N (slots; 0: off), trace=N (slots)";
    case EMU_SIMT_ITS: return "quantum=N (slots), trace=N (slots)";
    case EMU_SIMT_PDOM: return "none";
    default: return "trace=N (slots)";
    }
}

static bool on_off(const char *v, bool *out)
{
    if (!strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "yes")) { *out = true; return true; }
    if (!strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "no")) { *out = false; return true; }
    return false;
}

static bool count(const char *v, uint32_t *out)
{
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (!*v || *end || *v == '-' || n > 1000000000ul) return false;
    *out = (uint32_t)n;
    return true;
}

bool emu_simt_parse(const char *spec, struct emu_simt_cfg *out, char *err, size_t errsize)
{
    *out = (struct emu_simt_cfg){ .kind = EMU_SIMT_PDOM, .heur = EMU_DWF_MAJORITY, .las = true, .quantum = 0 };
    if (!spec || !*spec) spec = "pdom";
    char buf[256];
    if (strlen(spec) >= sizeof buf) { snprintf(err, errsize, "SIMT policy '%.40s...' is too long", spec); return false; }
    strcpy(buf, spec);
    char *opts = strchr(buf, ':');
    if (opts) *opts++ = 0;
    int kind = -1;
    for (int k = 0; k < EMU_SIMT_COUNT_; k++)
        if (!strcmp(buf, names[k])) kind = k;
    if (kind < 0) {
        snprintf(err, errsize, "unknown SIMT policy '%s' (valid: %s)", buf, emu_simt_names());
        return false;
    }
    out->kind = (enum emu_simt_kind)kind;
    out->quantum = kind == EMU_SIMT_ITS ? 256 : 1024;
    for (char *save = NULL, *kv = opts ? strtok_r(opts, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
        char *v = strchr(kv, '=');
        bool ok = false;
        if (v) {
            *v++ = 0;
            if (kind != EMU_SIMT_PDOM && !strcmp(kv, "trace")) {
                ok = count(v, &out->trace);
            } else if (kind == EMU_SIMT_DWF && !strcmp(kv, "policy")) {
                for (unsigned h = 0; h < sizeof heurs / sizeof heurs[0]; h++)
                    if (!strcmp(v, heurs[h])) { out->heur = (enum emu_dwf_heur)h; ok = true; }
            } else if (kind == EMU_SIMT_DWF && !strcmp(kv, "las")) ok = on_off(v, &out->las);
            else if (kind == EMU_SIMT_DWF && !strcmp(kv, "swizzle")) ok = on_off(v, &out->swizzle);
            else if (kind == EMU_SIMT_DWF && !strcmp(kv, "split")) ok = on_off(v, &out->split);
            else if (kind == EMU_SIMT_DWF && !strcmp(kv, "pool")) ok = count(v, &out->pool);
            else if (kind == EMU_SIMT_DWF && !strcmp(kv, "age")) ok = count(v, &out->quantum);
            else if (kind == EMU_SIMT_ITS && !strcmp(kv, "quantum")) ok = count(v, &out->quantum) && out->quantum;
        }
        if (!ok) {
            snprintf(err, errsize, "SIMT policy %s: bad option '%s%s%s' (valid: %s)", names[kind], kv, v ? "=" : "",
                     v ? v : "", options_of(out->kind));
            return false;
        }
    }
    if (kind == EMU_SIMT_DWF)
        snprintf(out->spec, sizeof out->spec, "dwf:policy=%s,las=%s,swizzle=%s,split=%s,pool=%u,age=%u",
                 heurs[out->heur], out->las ? "on" : "off", out->swizzle ? "on" : "off", out->split ? "on" : "off",
                 out->pool, out->quantum);
    else if (kind == EMU_SIMT_ITS)
        snprintf(out->spec, sizeof out->spec, "its:quantum=%u", out->quantum);
    else
        snprintf(out->spec, sizeof out->spec, "%s", names[kind]);
    return true;
}
