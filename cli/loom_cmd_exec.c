/* loom_cmd_exec.c -- `loom exec [OPTIONS] PROGRAM [ARGS...]`: runs an unmodified CUDA program
 * with Loom's libcudart.so.13 found first (build tree or installed), options passed as LOOM_*. */
#define _GNU_SOURCE
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/loom_cli.h"
#include "loom/loom.h"
#include "ptx/ptx_ir.h"

/* Set by the makefile (runtime/local.mk). */
#ifndef LOOM_PKGLIBDIR
#define LOOM_PKGLIBDIR "/usr/local/lib/loom"
#endif
#ifndef LOOM_LIBDIR
#define LOOM_LIBDIR "/usr/local/lib"
#endif
#ifndef LOOM_BUILDDIR
#define LOOM_BUILDDIR "/nonexistent"
#endif

#define RUNTIME_SONAME "libcudart.so.13"
#define DRIVER_SONAME "libcuda.so.1"

static void usage(FILE *out)
{
    fputs("usage: loom exec [--workers N] [--stats[=brief|=launches|=json FILE]] [--report FILE.html]\n"
          "                 [--deterministic] [--no-check]\n"
          "                 [--initcheck] [--racecheck] [--device PRESET] [--timeout S] [--simt POLICY]\n"
          "                 [--sched POLICY] [--sched-check] [--timing wall|model]\n"
          "                 [--trace FILE.json] [--trace-cap N] [--trace-warps]\n"
          "                 [--debug [--batch FILE] [-ex COMMAND]...]\n"
          "                 PROGRAM [ARGS...]\n"
          "(loom help exec describes the options)\n", out);
}

static bool file_exists(const char *dir, const char *name)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return false;
    return access(path, R_OK) == 0;
}

/* Where the stand-in and libloom live: the build tree when this `loom` was
 * built there and not installed (libtool keeps shared libraries in .libs),
 * else the installation directories. LOOM_RUNTIME_DIR overrides both. */
static bool find_runtime(char *rt_dir, char *lib_dir, size_t size)
{
    const char *env = getenv("LOOM_RUNTIME_DIR");
    if (env && *env) {
        snprintf(rt_dir, size, "%s", env);
        snprintf(lib_dir, size, "%s", env);
        return file_exists(rt_dir, RUNTIME_SONAME);
    }
    char exe[PATH_MAX], build[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *b = realpath(LOOM_BUILDDIR, build);
    if (n > 0 && b) {
        exe[n] = '\0';
        size_t bl = strlen(build);
        if (strncmp(exe, build, bl) == 0 && exe[bl] == '/') {
            if (snprintf(rt_dir, size, "%s/runtime/.libs", build) < (int)size &&
                snprintf(lib_dir, size, "%s/.libs", build) < (int)size && file_exists(rt_dir, RUNTIME_SONAME))
                return true;
        }
    }
    snprintf(rt_dir, size, "%s", LOOM_PKGLIBDIR);
    snprintf(lib_dir, size, "%s", LOOM_LIBDIR);
    return file_exists(rt_dir, RUNTIME_SONAME);
}

/* Dynamic-section facts about an ELF64 program, read without loading it. */
struct elf_facts {
    bool elf;                   /* an ELF64 file that could be read */
    bool needs_cudart;          /* DT_NEEDED libcudart.so.13 */
    bool needs_cuda;            /* DT_NEEDED libcuda.so.1 (the driver API) */
    bool has_rpath;             /* DT_RPATH: searched before LD_LIBRARY_PATH */
    bool static_cudart;         /* links NVIDIA's runtime statically */
    char gpu_libs[256];         /* the CUDA libraries it needs that Loom does not provide */
};

/* CUDA's libraries that drive the GPU themselves (through the driver library and kernels
 * of their own in SASS): a program linked with one runs, but its calls of them fail. */
static const char *const gpu_lib_prefixes[] = {
    "libcublas", "libcublasLt", "libcufft", "libcusparse", "libcurand", "libcusolver",
    "libcudnn", "libnvjpeg", "libnpp", "libnccl", "libcutensor", "libnvrtc",
};

static void note_gpu_lib(struct elf_facts *f, const char *name)
{
    for (size_t i = 0; i < sizeof gpu_lib_prefixes / sizeof gpu_lib_prefixes[0]; i++) {
        size_t n = strlen(gpu_lib_prefixes[i]);
        if (strncmp(name, gpu_lib_prefixes[i], n) != 0 || (name[n] != '.' && name[n] != '_' && name[n] != '-' &&
                                                            !(name[n] >= 'A' && name[n] <= 'Z')))
            continue;
        size_t used = strlen(f->gpu_libs);
        snprintf(f->gpu_libs + used, sizeof f->gpu_libs - used, "%s%s", used ? ", " : "", name);
        return;
    }
}

static bool in_file(const char *buf, size_t len, uint64_t off, uint64_t n)
{
    return off <= len && n <= len - off;
}

/* Maps a virtual address to a file offset through the PT_LOAD headers. */
static bool vaddr_to_offset(const char *buf, size_t len, const Elf64_Ehdr *eh, uint64_t va, uint64_t *out)
{
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        Elf64_Phdr ph;
        uint64_t at = eh->e_phoff + (uint64_t)i * sizeof ph;
        if (!in_file(buf, len, at, sizeof ph))
            return false;
        memcpy(&ph, buf + at, sizeof ph);
        if (ph.p_type == PT_LOAD && va >= ph.p_vaddr && va < ph.p_vaddr + ph.p_filesz) {
            *out = ph.p_offset + (va - ph.p_vaddr);
            return true;
        }
    }
    return false;
}

static void read_dynamic(const char *buf, size_t len, struct elf_facts *f)
{
    Elf64_Ehdr eh;
    if (len < sizeof eh || memcmp(buf, ELFMAG, SELFMAG) != 0 || buf[EI_CLASS] != ELFCLASS64)
        return;
    memcpy(&eh, buf, sizeof eh);
    f->elf = true;
    f->static_cudart = memmem(buf, len, "cudart_static", 13) != NULL ||
                       memmem(buf, len, "libcuda.so.1", 12) != NULL;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        uint64_t at = eh.e_phoff + (uint64_t)i * sizeof ph;
        if (!in_file(buf, len, at, sizeof ph))
            return;
        memcpy(&ph, buf + at, sizeof ph);
        if (ph.p_type != PT_DYNAMIC || !in_file(buf, len, ph.p_offset, ph.p_filesz))
            continue;
        uint64_t strtab = 0, count = ph.p_filesz / sizeof(Elf64_Dyn);
        for (uint64_t k = 0; k < count; k++) {
            Elf64_Dyn d;
            memcpy(&d, buf + ph.p_offset + k * sizeof d, sizeof d);
            if (d.d_tag == DT_STRTAB && !vaddr_to_offset(buf, len, &eh, d.d_un.d_ptr, &strtab))
                return;
            if (d.d_tag == DT_RPATH)
                f->has_rpath = true;
        }
        for (uint64_t k = 0; strtab && k < count; k++) {
            Elf64_Dyn d;
            memcpy(&d, buf + ph.p_offset + k * sizeof d, sizeof d);
            if (d.d_tag != DT_NEEDED || !in_file(buf, len, strtab + d.d_un.d_val, 1))
                continue;
            const char *name = buf + strtab + d.d_un.d_val;
            size_t max = len - (strtab + d.d_un.d_val);
            if (strnlen(name, max) >= max)
                continue;
            if (strcmp(name, RUNTIME_SONAME) == 0)
                f->needs_cudart = true;
            if (strcmp(name, DRIVER_SONAME) == 0)
                f->needs_cuda = true;
            note_gpu_lib(f, name);
        }
    }
}

/* Finds PROGRAM as execvp would and reads its dynamic section. */
static struct elf_facts inspect(const char *prog)
{
    struct elf_facts f = { 0 };
    char path[PATH_MAX];
    const char *p = prog;
    if (!strchr(prog, '/')) {
        const char *paths = getenv("PATH");
        p = NULL;
        for (const char *s = paths ? paths : "/usr/bin:/bin"; s && *s;) {
            const char *e = strchr(s, ':');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            if (snprintf(path, sizeof path, "%.*s/%s", (int)n, n ? s : ".", prog) < (int)sizeof path &&
                access(path, X_OK) == 0) {
                p = path;
                break;
            }
            s = e ? e + 1 : NULL;
        }
    }
    FILE *in = p ? fopen(p, "rb") : NULL;
    if (!in)
        return f;
    char *buf = NULL;
    size_t len = 0;
    if (fseek(in, 0, SEEK_END) == 0) {
        long size = ftell(in);
        if (size > 0 && size < (1L << 30) && fseek(in, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size)))
            len = fread(buf, 1, (size_t)size, in);
    }
    fclose(in);
    if (buf)
        read_dynamic(buf, len, &f);
    free(buf);
    return f;
}

static int set_env(const char *name, const char *value)
{
    if (setenv(name, value, 1) != 0) {
        fprintf(stderr, "loom exec: cannot set %s: %s\n", name, strerror(errno));
        return -1;
    }
    return 0;
}

/* Prepends dir to a colon-separated list variable. */
static int prepend_env(const char *name, const char *dir)
{
    const char *old = getenv(name);
    size_t n = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *v = malloc(n);
    if (!v)
        return -1;
    snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    int rc = set_env(name, v);
    free(v);
    return rc;
}

/* A sanitizer build of Loom (configure --enable-sanitizers or --enable-tsan)
 * builds the stand-in libcudart with the sanitizer too. The program that loads
 * it is not instrumented, so the sanitizer's runtime would arrive as a
 * dependency of the stand-in, after libc: ASan refuses to start that way, and
 * TSan would miss the program's locks and allocations. Such a `loom exec`
 * preloads the runtime it runs on itself, as the sanitizers' documentation
 * says to do for uninstrumented programs. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LOOM_SANITIZER_RUNTIME 1
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZER_LIB "libasan.so"
#else
#define SANITIZER_LIB "libtsan.so"
#endif

static int find_sanitizer_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *base = slash ? slash + 1 : info->dlpi_name;
    if (strncmp(base, SANITIZER_LIB, strlen(SANITIZER_LIB)) != 0)
        return 0;
    snprintf(data, PATH_MAX, "%s", info->dlpi_name);
    return 1;
}
#endif

/* Matches --name VALUE and --name=VALUE; returns the value or NULL. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "loom exec: %s needs a value\n", name);
        return "";
    }
    return argv[++*i];
}

/* --trace FILE: the file is created here, before the program starts, so that an unwritable
 * path is one line and exit status 2 with nothing run; the program's runtime writes it at exit. */
static int trace_option(const char *path)
{
    if (!*path) {
        fprintf(stderr, "loom exec: --trace needs a file name\n");
        return 2;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "loom exec: cannot write the trace file '%s': %s\n", path, strerror(errno));
        return 2;
    }
    /* an empty trace, valid JSON, should the program never use CUDA */
    bool ok = fputs("{\"traceEvents\":[]}\n", f) >= 0;
    if (fclose(f) != 0 || !ok) {
        fprintf(stderr, "loom exec: cannot write the trace file '%s': %s\n", path, strerror(errno));
        return 2;
    }
    /* absolute, should the program change its directory before its first CUDA call */
    char abs[PATH_MAX], cwd[PATH_MAX];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd) && snprintf(abs, sizeof abs, "%s/%s", cwd, path) < (int)sizeof abs)
        path = abs;
    return set_env("LOOM_TRACE", path) ? 2 : 0;
}

/* Outputs made of the statistics' JSON, and the SIMT policies to run the program under. */
struct exec_obs {
    const char *json;                   /* --stats=json FILE */
    char json_abs[PATH_MAX];
    const char *report;                 /* --report FILE.html */
    char report_abs[PATH_MAX];
    const char *simt;                   /* --simt as given */
    char *policies[8];
    unsigned npolicies;
};

/* An output file made before the program starts (an unwritable path stops here); its
 * absolute path in abs (PATH_MAX bytes). */
static const char *made_file(const char *path, const char *what, char *abs)
{
    char why[PATH_MAX + 128];
    FILE *f = *path ? loom_cli_create(path, what, why, sizeof why) : NULL;
    if (!*path) snprintf(why, sizeof why, "the %s need a file name", what);
    if (!f || fclose(f) != 0 || !realpath(path, abs)) {
        if (f) snprintf(why, sizeof why, "cannot write the %s to '%s': %s", what, path, strerror(errno));
        fprintf(stderr, "loom exec: %s\n", why);
        return NULL;
    }
    return path;
}

/* Runs the program once under each SIMT policy (in a child each, as `exec` would run it),
 * each writing its statistics to a file of its own, then writes the statistics of all of
 * them as one JSON document. The trace, when asked for, is the first run's. The exit status
 * is the first run's that failed, or 0; a run killed by a signal (Ctrl-C) ends the series. */
static int exec_policies(const char *prog, char **args, struct exec_obs *obs)
{
    unsigned n = obs->npolicies ? obs->npolicies : 1;
    char *docs[8] = { 0 };
    size_t lens[8] = { 0 };
    int status = 0;
    signal(SIGINT, SIG_IGN);                    /* (the program's runtime stops its kernel) */
    for (unsigned k = 0; k < n; k++) {
        char tmp[] = "/tmp/loom-stats.XXXXXX";
        int fd = mkstemp(tmp);
        if (fd < 0) {
            fprintf(stderr, "loom exec: cannot make a temporary file: %s\n", strerror(errno));
            return 2;
        }
        close(fd);
        if (n > 1) fprintf(stderr, "loom exec: --simt %s\n", obs->policies[k]);
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGINT, SIG_DFL);
            /* (the trace and the sources: the first run's) */
            if ((obs->npolicies && setenv("LOOM_SIMT", obs->policies[k], 1)) || setenv("LOOM_STATS_JSON", tmp, 1) ||
                (k > 0 && (unsetenv("LOOM_TRACE") || setenv("LOOM_STATS_NO_SOURCES", "1", 1))))
                _exit(126);
            execvp(prog, args);
            fprintf(stderr, "loom exec: cannot run %s: %s\n", prog, strerror(errno));
            _exit(errno == ENOENT ? 127 : 126);
        }
        int ws = 0;
        if (pid < 0 || waitpid(pid, &ws, 0) < 0) {
            fprintf(stderr, "loom exec: cannot run %s: %s\n", prog, strerror(errno));
            unlink(tmp);
            status = 126;
            break;
        }
        FILE *in = fopen(tmp, "rb");
        bool too_big;
        docs[k] = in ? ptx_read_stream(in, &lens[k], &too_big) : NULL;   /* (any text, read whole) */
        if (in) fclose(in);
        unlink(tmp);
        int st = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
        if (st && !status) status = st;
        if (WIFSIGNALED(ws)) break;
    }
    char *doc = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&doc, &len);
    if (mem) {
        loom_cli_merge_stats(mem, docs, lens, n, prog, obs->simt ? obs->simt : "pdom");
        fclose(mem);
    }
    if (obs->json) {
        FILE *f = fopen(obs->json_abs, "w");
        bool ok = f && doc && fwrite(doc, 1, len, f) == len;
        if (!f || (fclose(f) != 0) + !ok) {
            fprintf(stderr, "loom exec: cannot write the statistics to '%s': %s\n", obs->json, strerror(errno));
            if (!status) status = 1;
        }
    }
    if (obs->report) {
        FILE *f = fopen(obs->report_abs, "w");
        char err[512] = "";
        bool ok = f && doc && loom_report_html(f, doc, len, err, sizeof err) == 0;
        if (!f || (fclose(f) != 0) + !ok) {
            fprintf(stderr, "loom exec: %s: %s\n", obs->report, err[0] ? err : strerror(errno));
            if (!status) status = 1;
        }
    }
    free(doc);
    for (unsigned k = 0; k < n; k++) free(docs[k]);
    return status;
}

/* --debug [--batch FILE] [-ex CMD]...: the program's runtime makes the prompt's debugger
 * (runtime/rt_state.c) from LOOM_DEBUG, LOOM_DEBUG_BATCH (an absolute path) and LOOM_DEBUG_EX
 * (the commands, one a line). */
struct exec_debug {
    bool on;
    const char *batch;
    char *ex;                           /* the -ex commands joined by newlines */
    size_t exlen;
};

static bool add_ex(struct exec_debug *dbg, const char *cmd)
{
    if (strchr(cmd, '\n')) {
        fprintf(stderr, "loom exec: -ex takes one command, without a newline\n");
        return false;
    }
    size_t n = strlen(cmd);
    char *grown = realloc(dbg->ex, dbg->exlen + n + 2);
    if (!grown)
        return false;
    dbg->ex = grown;
    if (dbg->exlen)
        dbg->ex[dbg->exlen++] = '\n';
    memcpy(dbg->ex + dbg->exlen, cmd, n + 1);
    dbg->exlen += n;
    return true;
}

/* Checks the debugger's options against the others and passes them to the program. */
static int debug_env(struct exec_debug *dbg, const struct exec_obs *obs)
{
    if (!dbg->on) {
        if (dbg->batch || dbg->ex) {
            fprintf(stderr, "loom exec: --batch and -ex need --debug\n");
            return 2;
        }
        return 0;
    }
    if (obs->npolicies > 1 || obs->report) {
        fprintf(stderr, "loom exec: --debug runs the program once: not with --report or several --simt policies\n");
        return 2;
    }
    char abs[PATH_MAX];
    if (dbg->batch) {
        FILE *f = fopen(dbg->batch, "r");
        if (!f || !realpath(dbg->batch, abs)) {
            fprintf(stderr, "loom exec: cannot read the batch file '%s': %s\n", dbg->batch, strerror(errno));
            if (f) fclose(f);
            return 2;
        }
        fclose(f);
    }
    if (set_env("LOOM_DEBUG", "1") || (dbg->batch && set_env("LOOM_DEBUG_BATCH", abs)) ||
        (dbg->ex && set_env("LOOM_DEBUG_EX", dbg->ex)))
        return 2;
    return 0;
}

int loom_cmd_exec(int argc, char **argv)
{
    struct exec_obs obs = { 0 };
    struct exec_debug dbg = { 0 };
    int i = 1;
    bool traced = false, trace_extra = false;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--stats") == 0 || strcmp(a, "--stats=launches") == 0 || strcmp(a, "--stats=brief") == 0) {
            /* --stats: totals and per-line counters; =brief: totals only; =launches: and
             * a line per launch */
            if (set_env("LOOM_STATS", !a[7] ? "counters" : a[8] == 'l' ? "launches" : "1"))
                return 2;
        } else if (strcmp(a, "--stats=json") == 0) {
            /* The file is made now: a path that cannot be written stops here. */
            if (i + 1 >= argc || !*argv[i + 1]) {
                fprintf(stderr, "loom exec: --stats=json needs a file name\n");
                return 2;
            }
            if (!(obs.json = made_file(argv[++i], "statistics", obs.json_abs)))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--report"))) {
            if (!(obs.report = made_file(v, "report", obs.report_abs)))
                return 2;
        } else if (strncmp(a, "--stats=", 8) == 0) {
            fprintf(stderr, "loom exec: --stats takes no value, =brief, =launches or =json FILE, not '%s'\n", a + 8);
            return 2;
        } else if (strcmp(a, "--debug") == 0) {
            dbg.on = true;
        } else if ((v = option_value(argc, argv, &i, "--batch"))) {
            if (!*v) {
                fprintf(stderr, "loom exec: --batch needs a file name\n");
                return 2;
            }
            dbg.batch = v;
        } else if (strcmp(a, "-ex") == 0) {
            if (i + 1 >= argc)
                fprintf(stderr, "loom exec: -ex needs a command\n");
            if (i + 1 >= argc || !add_ex(&dbg, argv[++i])) {
                free(dbg.ex);
                return 2;
            }
        } else if (strcmp(a, "--deterministic") == 0) {
            if (set_env("LOOM_DETERMINISTIC", "1"))
                return 2;
        } else if (strcmp(a, "--no-check") == 0) {
            if (set_env("LOOM_NO_CHECK", "1"))
                return 2;
        } else if (strcmp(a, "--initcheck") == 0) {
            if (set_env("LOOM_INITCHECK", "1"))
                return 2;
        } else if (strcmp(a, "--racecheck") == 0) {
            if (set_env("LOOM_RACECHECK", "1"))
                return 2;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            if (set_env("LOOM_QUIET", "1"))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--workers"))) {
            char *end;
            unsigned long w = strtoul(v, &end, 10);
            if (!*v || *end || w == 0 || w > 4096) {
                fprintf(stderr, "loom exec: --workers wants a number from 1 to 4096, not '%s'\n", v);
                return 2;
            }
            if (set_env("LOOM_WORKERS", v))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--tool"))) {
            /* compute-sanitizer's tools, onto Loom's checkers (memcheck is always on) */
            if (!*v || set_env("LOOM_ERROR_SUMMARY", "1"))
                return 2;
            if (strcmp(v, "initcheck") == 0 ? set_env("LOOM_INITCHECK", "1")
                : strcmp(v, "racecheck") == 0 ? set_env("LOOM_RACECHECK", "1") : 0)
                return 2;
            if (strcmp(v, "memcheck") && strcmp(v, "initcheck") && strcmp(v, "racecheck")) {
                fprintf(stderr, "loom exec: --tool %s: %s (memcheck, initcheck, racecheck)\n", v,
                        strcmp(v, "synccheck") == 0 ? "synccheck is not supported yet" : "unknown tool");
                return 2;
            }
        } else if ((v = option_value(argc, argv, &i, "--leak-check"))) {
            if (!*v)
                return 2;
            if (strcmp(v, "full") && strcmp(v, "no")) {
                fprintf(stderr, "loom exec: --leak-check wants full or no, not '%s'\n", v);
                return 2;
            }
            if (set_env("LOOM_ERROR_SUMMARY", "1") || (strcmp(v, "full") == 0 && set_env("LOOM_LEAK_CHECK", "1")))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--error-exitcode")) ||
                   (v = option_value(argc, argv, &i, "--print-limit"))) {
            bool exitcode = strncmp(a, "--error-exitcode", 16) == 0;
            if (!*v)
                return 2;
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 0 || n > (exitcode ? 255 : 1000000)) {
                fprintf(stderr, "loom exec: %s wants a number%s, not '%s'\n", exitcode ? "--error-exitcode" : "--print-limit",
                        exitcode ? " from 0 to 255" : "", v);
                return 2;
            }
            if (set_env("LOOM_ERROR_SUMMARY", "1") || set_env(exitcode ? "LOOM_ERROR_EXITCODE" : "LOOM_PRINT_LIMIT", v))
                return 2;
        } else if (strncmp(a, "--log-file", 10) == 0 || strncmp(a, "--kernel-name", 13) == 0 ||
                   strncmp(a, "--racecheck-report", 18) == 0 || strncmp(a, "--check-", 8) == 0) {
            fprintf(stderr, "loom exec: compute-sanitizer's %.*s is not supported yet\n", (int)strcspn(a, "="), a);
            return 2;
        } else if ((v = option_value(argc, argv, &i, "--watchdog"))) {
            char *end;
            double t = strtod(v, &end);
            if (!*v || *end || t < 0) {
                fprintf(stderr, "loom exec: --watchdog wants a number of seconds (0: off), not '%s'\n", v);
                return 2;
            }
            if (set_env("LOOM_WATCHDOG", v))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--dump-ptx"))) {
            if (!*v) {
                fprintf(stderr, "loom exec: --dump-ptx wants a folder\n");
                return 2;
            }
            if (set_env("LOOM_DUMP_PTX", v))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--trace-cap"))) {
            char *end;
            unsigned long long n = strtoull(v, &end, 10);
            if (!*v && !strchr(a, '='))
                return 2;
            if (!*v || *end || n == 0 || *v == '-') {
                fprintf(stderr, "loom exec: --trace-cap wants a whole number of events above 0, not '%s'\n", v);
                return 2;
            }
            if (set_env("LOOM_TRACE_CAP", v))
                return 2;
            trace_extra = true;
        } else if (strcmp(a, "--trace-warps") == 0) {
            if (set_env("LOOM_TRACE_WARPS", "1"))
                return 2;
            trace_extra = true;
        } else if ((v = option_value(argc, argv, &i, "--trace"))) {
            if ((!*v && !strchr(a, '=')) || trace_option(v))
                return 2;
            traced = true;
        } else if ((v = option_value(argc, argv, &i, "--simt"))) {
            char why[256];
            for (unsigned k = 0; k < obs.npolicies; k++) free(obs.policies[k]);
            if (!loom_cli_split_simt(v, obs.policies, sizeof obs.policies / sizeof obs.policies[0], &obs.npolicies,
                                     why, sizeof why)) {
                fprintf(stderr, "loom exec: %s\n", why);
                return 2;
            }
            obs.simt = v;
            if (set_env("LOOM_SIMT", v))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--sched"))) {
            char why[256];
            if (loom_sched_check(v, why, sizeof why) != LOOM_OK) {
                fprintf(stderr, "loom exec: --sched: %s\n", why);
                return 2;
            }
            if (set_env("LOOM_SCHED", v))
                return 2;
        } else if (strcmp(a, "--sched-check") == 0) {
            if (set_env("LOOM_SCHED_CHECK", "1"))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--timing"))) {
            if (strcmp(v, "model") != 0 && strcmp(v, "wall") != 0) {
                fprintf(stderr, "loom exec: --timing is wall (the default) or model, not '%s'\n", v);
                return 2;
            }
            if (set_env("LOOM_TIMING", v) || (strcmp(v, "model") == 0 && set_env("LOOM_SCHED_SUMMARY", "1")))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--device"))) {
            if (!*v || set_env("LOOM_DEVICE", v))
                return 2;
        } else if ((v = option_value(argc, argv, &i, "--timeout"))) {
            char *end;
            double t = strtod(v, &end);
            if (!*v || *end || t <= 0) {
                fprintf(stderr, "loom exec: --timeout wants a number of seconds, not '%s'\n", v);
                return 2;
            }
            if (set_env("LOOM_TIMEOUT", v))
                return 2;
        } else {
            fprintf(stderr, "loom exec: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    int drc = 0;
    if (i >= argc) {
        usage(stderr);
        drc = 2;
    } else if (trace_extra && !traced) {
        fprintf(stderr, "loom exec: --trace-cap and --trace-warps need --trace FILE.json\n");
        drc = 2;
    } else {
        drc = debug_env(&dbg, &obs);
    }
    free(dbg.ex);
    if (drc) {
        for (unsigned k = 0; k < obs.npolicies; k++) free(obs.policies[k]);
        return drc;
    }
    const char *prog = argv[i];

    char rt_dir[PATH_MAX], lib_dir[PATH_MAX];
    if (!find_runtime(rt_dir, lib_dir, sizeof rt_dir)) {
        fprintf(stderr, "loom exec: Loom's %s is not in %s (is Loom installed? LOOM_RUNTIME_DIR overrides)\n",
                RUNTIME_SONAME, rt_dir);
        return 2;
    }
    struct elf_facts f = inspect(prog);
    if (f.elf && !f.needs_cudart && !f.needs_cuda)
        fprintf(stderr, "loom exec: warning: %s does not load %s%s; Loom runs programs linked with "
                "'nvcc --cudart shared'\n", prog, RUNTIME_SONAME,
                f.static_cudart ? " (it links the CUDA runtime statically)" : "");
    if (f.gpu_libs[0])
        fprintf(stderr, "loom exec: warning: %s needs %s, which Loom does not provide yet: those libraries run "
                "their own GPU code through the driver library, so their calls will fail\n", prog, f.gpu_libs);
    if (prepend_env("LD_LIBRARY_PATH", lib_dir) || prepend_env("LD_LIBRARY_PATH", rt_dir))
        return 2;
    /* the driver stand-in (libcuda.so.1) lies beside libcudart once installed; in the build
     * tree it has a folder of its own */
    size_t rl = strlen(rt_dir), sl = strlen("/runtime/.libs");
    if (rl > sl && strcmp(rt_dir + rl - sl, "/runtime/.libs") == 0) {
        char drv_dir[PATH_MAX + 16];
        snprintf(drv_dir, sizeof drv_dir, "%.*s/driver/.libs", (int)(rl - sl), rt_dir);
        if (file_exists(drv_dir, DRIVER_SONAME) && prepend_env("LD_LIBRARY_PATH", drv_dir))
            return 2;
    }
    if (f.has_rpath) {
        /* DT_RPATH is searched before LD_LIBRARY_PATH: preload the stand-in so that
         * the program's libcudart.so.13 resolves to the copy already loaded */
        char pre[PATH_MAX + 32];
        if (snprintf(pre, sizeof pre, "%s/%s", rt_dir, RUNTIME_SONAME) >= (int)sizeof pre ||
            prepend_env("LD_PRELOAD", pre))
            return 2;
    }
#ifdef LOOM_SANITIZER_RUNTIME
    char san[PATH_MAX] = "";
    if (dl_iterate_phdr(find_sanitizer_lib, san) && prepend_env("LD_PRELOAD", san))
        return 2;
#endif
    if (obs.npolicies > 1 || obs.report) {
        int st = exec_policies(prog, argv + i, &obs);
        for (unsigned k = 0; k < obs.npolicies; k++) free(obs.policies[k]);
        return st;
    }
    for (unsigned k = 0; k < obs.npolicies; k++) free(obs.policies[k]);
    if (obs.json && set_env("LOOM_STATS_JSON", obs.json_abs))
        return 2;
    execvp(prog, argv + i);
    fprintf(stderr, "loom exec: cannot run %s: %s\n", prog, strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
