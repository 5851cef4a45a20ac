/* loom_cmd_dap.c -- `loom dap`: a Debug Adapter Protocol server on stdin/stdout for editors
 * (VS Code, nvim-dap, dape): the transport, the launch, run control and breakpoints. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/loom_cli.h"
#include "cli/loom_dap.h"
#include "observe/json.h"

#define DAP_MAX_MESSAGE (64u << 20)

/* ---- Writing messages -------------------------------------------------------------------- */

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;   /* the client went away: reading stdin ends the session */
        p += w;
        n -= (size_t)w;
    }
}

/* One message: head is its first members ("type": ...) without braces; body a JSON value or
 * NULL. */
static void send_message(struct dap_server *s, const char *head, const char *body)
{
    char *msg = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&msg, &len);
    if (!m) return;
    pthread_mutex_lock(&s->write_lock);
    fprintf(m, "{\"seq\":%" PRId64 ",%s", ++s->seq, head);
    if (body) fprintf(m, ",\"body\":%s", body);
    fputc('}', m);
    fclose(m);
    char hdr[64];
    int h = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", len);
    write_all(s->out_fd, hdr, (size_t)h);
    write_all(s->out_fd, msg, len);
    if (s->log) {
        fprintf(s->log, "<- %s\n", msg);
        fflush(s->log);
    }
    pthread_mutex_unlock(&s->write_lock);
    free(msg);
}

void dap_event(struct dap_server *s, const char *event, const char *body)
{
    char head[128];
    snprintf(head, sizeof head, "\"type\":\"event\",\"event\":\"%s\"", event);
    send_message(s, head, body);
}

static void respond(struct dap_server *s, int64_t request_seq, const char *command, bool ok, const char *message,
                    const char *body)
{
    char *head = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&head, &len);
    if (!m) return;
    fprintf(m, "\"type\":\"response\",\"request_seq\":%" PRId64 ",\"success\":%s,\"command\":", request_seq,
            ok ? "true" : "false");
    loom_json_str(m, command);
    if (!ok) {
        fputs(",\"message\":", m);
        loom_json_str(m, message);
    }
    fclose(m);
    /* an error's text also goes where editors show it: body.error.format */
    char *err_body = NULL;
    if (!ok) {
        size_t elen;
        FILE *e = open_memstream(&err_body, &elen);
        if (e) {
            fputs("{\"error\":{\"id\":1,\"format\":", e);
            loom_json_str(e, message);
            fputs(",\"showUser\":false}}", e);
            fclose(e);
        }
    }
    send_message(s, head, ok ? body : err_body);
    free(err_body);
    free(head);
}

/* ---- The program's output ------------------------------------------------------------------- */

static void output_event(struct dap_server *s, const char *category, const char *text, size_t n)
{
    char *body = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&body, &len);
    if (!m) return;
    char *t = strndup(text, n);
    fprintf(m, "{\"category\":\"%s\",\"output\":", category);
    loom_json_str(m, t);
    fputc('}', m);
    fclose(m);
    dap_event(s, "output", body);
    free(t);
    free(body);
}

/* Forwards what is in the pipes now (they do not block). */
static void drain(struct dap_server *s)
{
    char buf[8192];
    pthread_mutex_lock(&s->drain_lock);
    for (int k = 0; k < 2; k++) {
        int fd = k ? s->pipe_err : s->pipe_out;
        ssize_t n;
        while ((n = read(fd, buf, sizeof buf)) > 0)
            output_event(s, k ? "stderr" : "stdout", buf, (size_t)n);
    }
    pthread_mutex_unlock(&s->drain_lock);
}

static void flush_output(struct dap_server *s)
{
    fflush(stdout);
    fflush(stderr);
    drain(s);
}

static void *reader_main(void *arg)
{
    struct dap_server *s = arg;
    while (!__atomic_load_n(&s->reader_stop, __ATOMIC_ACQUIRE)) {
        struct pollfd p[2] = { { .fd = s->pipe_out, .events = POLLIN }, { .fd = s->pipe_err, .events = POLLIN } };
        if (poll(p, 2, 100) > 0)
            drain(s);
    }
    return NULL;
}

/* The protocol keeps the process's stdout; stdout and stderr become pipes that the reader
 * forwards as output events (loom run's messages, kernel printf). */
static bool redirect_output(struct dap_server *s, char *why, size_t size)
{
    int po[2], pe[2];
    s->out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (s->out_fd < 0 || pipe(po) != 0 || pipe(pe) != 0) {
        snprintf(why, size, "cannot make the output pipes: %s", strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    if (dup2(po[1], STDOUT_FILENO) < 0 || dup2(pe[1], STDERR_FILENO) < 0) {
        snprintf(why, size, "cannot redirect the output: %s", strerror(errno));
        return false;
    }
    close(po[1]);
    close(pe[1]);
    s->pipe_out = po[0];
    s->pipe_err = pe[0];
    for (int k = 0; k < 2; k++) {
        int fd = k ? pe[0] : po[0];
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    return pthread_create(&s->reader, NULL, reader_main, s) == 0;
}

/* ---- References ------------------------------------------------------------------------------ */

int64_t dap_ref_add(struct dap_server *s, enum dap_ref_kind kind, int64_t thread, unsigned lane, unsigned frame,
                    const char *name)
{
    if (s->nrefs == s->cap_refs) {
        unsigned cap = s->cap_refs ? 2 * s->cap_refs : 64;
        struct dap_ref *r = realloc(s->refs, cap * sizeof *r);
        if (!r) return 0;
        s->refs = r;
        s->cap_refs = cap;
    }
    s->refs[s->nrefs] = (struct dap_ref){ kind, thread, lane, frame, name ? strdup(name) : NULL, 0 };
    return ++s->nrefs;
}

const struct dap_ref *dap_ref_get(struct dap_server *s, int64_t ref)
{
    return ref >= 1 && ref <= s->nrefs ? &s->refs[ref - 1] : NULL;
}

static void refs_clear(struct dap_server *s)
{
    for (unsigned i = 0; i < s->nrefs; i++)
        free(s->refs[i].name);
    s->nrefs = 0;
}

/* ---- Breakpoints --------------------------------------------------------------------------- */

static const char *last_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Is path the launch's PTX file (the same file by inode)? */
static bool is_launch_ptx(struct dap_server *s, const char *path)
{
    char a[PATH_MAX], b[PATH_MAX];
    return s->ptx && realpath(path, a) && realpath(s->ptx, b) && strcmp(a, b) == 0;
}

/* Places bp with the core: at the first line with code at or after the one asked for. */
static void bp_place(struct dap_server *s, struct dap_bp *bp)
{
    if (bp->number) loom_debug_delete(s->d, bp->number);
    bp->number = 0;
    bp->verified = false;
    bp->placed = 0;
    bp->message[0] = 0;
    unsigned line = loom_debug_line_with_code(s->d, bp->file, bp->line);
    bool pending = false;
    char err[256];
    struct loom_debug_bp want = { .kind = LOOM_BP_LINE, .file = bp->file, .line = line ? line : bp->line,
                                  .condition = bp->condition && bp->condition[0] ? bp->condition : NULL };
    bp->number = loom_debug_break(s->d, &want, &pending, err, sizeof err);
    if (!bp->number) {
        snprintf(bp->message, sizeof bp->message, "%s", err);
        return;
    }
    if (pending) {
        snprintf(bp->message, sizeof bp->message, "pending: placed when the kernel's module is loaded");
        return;
    }
    bp->verified = true;
    bp->placed = want.line;
    unsigned cap = 64, n = 0;
    struct loom_debug_bp_info *info = NULL;
    while ((info = calloc(cap, sizeof *info)) && (n = loom_debug_breakpoints(s->d, info, cap)) > cap) {
        free(info);
        cap = n;
    }
    for (unsigned i = 0; info && i < n; i++)
        if (info[i].number == bp->number) {
            unsigned at = bp->is_cu ? info[i].where.cu_line : info[i].where.ptx_line;
            if (at) bp->placed = at;
        }
    free(info);
}

static void bp_write(struct dap_server *s, const struct dap_bp *bp, FILE *m)
{
    fprintf(m, "{\"id\":%d,\"verified\":%s,\"line\":%u", bp->id, bp->verified ? "true" : "false",
            (bp->placed ? bp->placed : bp->line) - 1 + (unsigned)s->line_base);
    if (bp->message[0]) {
        fputs(",\"message\":", m);
        loom_json_str(m, bp->message);
    }
    fputc('}', m);
}

static void bp_free(struct dap_bp *bp)
{
    free(bp->source);
    free(bp->file);
    free(bp->condition);
}

/* setBreakpoints replaces the source's breakpoints with the ones given. */
static bool set_breakpoints(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    const struct dap_json *src = dap_json_get(args, "source");
    const char *path = dap_json_str(src, "path");
    if (!path) path = dap_json_str(src, "name");
    if (!path) {
        snprintf(err, errlen, "setBreakpoints needs source.path");
        return false;
    }
    const struct dap_json *list = dap_json_get(args, "breakpoints");
    if (list && list->type != DAP_JSON_ARRAY) {
        snprintf(err, errlen, "setBreakpoints: 'breakpoints' must be an array");
        return false;
    }
    unsigned keep = 0;
    for (unsigned i = 0; i < s->nbps; i++) {
        if (strcmp(s->bps[i].source, path) == 0) {
            if (s->bps[i].number) loom_debug_delete(s->d, s->bps[i].number);
            bp_free(&s->bps[i]);
        } else {
            s->bps[keep++] = s->bps[i];
        }
    }
    s->nbps = keep;
    size_t n = list ? list->count : 0;
    struct dap_bp *grown = realloc(s->bps, (s->nbps + n + 1) * sizeof *grown);
    if (!grown) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    s->bps = grown;
    bool is_ptx = ends_with(path, ".ptx");
    fputs("{\"breakpoints\":[", body);
    for (size_t i = 0; i < n; i++) {
        const struct dap_json *b = &list->items[i];
        int64_t line = 0;
        struct dap_bp *bp = &s->bps[s->nbps];
        memset(bp, 0, sizeof *bp);
        bp->id = ++s->next_bp_id;
        if (!dap_json_int(b, "line", &line) || line + 1 - s->line_base < 1 || line > UINT_MAX) {
            snprintf(bp->message, sizeof bp->message, "a breakpoint needs a line (a positive number)");
            bp_write(s, bp, body);
            fputs(i + 1 < n ? "," : "", body);
            continue;
        }
        bp->source = strdup(path);
        bp->is_cu = !is_ptx;
        bp->file = strdup(is_ptx && is_launch_ptx(s, path) ? s->ptx : last_part(path));
        bp->line = (unsigned)(line + 1 - s->line_base);
        const char *cond = dap_json_str(b, "condition");
        bp->condition = cond ? strdup(cond) : NULL;
        bp_place(s, bp);
        bp_write(s, bp, body);
        fputs(i + 1 < n ? "," : "", body);
        s->nbps++;
    }
    fputs("]}", body);
    return true;
}

/* At a launch's entry its module is loaded: pending breakpoints are placed (or refused)
 * now, and the editor hears of it. */
static void breakpoints_recheck(struct dap_server *s)
{
    for (unsigned i = 0; i < s->nbps; i++) {
        struct dap_bp *bp = &s->bps[i];
        if (bp->verified) continue;
        bool was = bp->verified;
        char before[256];
        snprintf(before, sizeof before, "%s", bp->message);
        bp_place(s, bp);
        if (bp->verified == was && strcmp(before, bp->message) == 0) continue;
        char *body = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&body, &len);
        if (!m) continue;
        fputs("{\"reason\":\"changed\",\"breakpoint\":", m);
        bp_write(s, bp, m);
        fputc('}', m);
        fclose(m);
        dap_event(s, "breakpoint", body);
        free(body);
    }
}

static bool set_exception_breakpoints(struct dap_server *s, const struct dap_json *args, FILE *body, char *err,
                                      size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    /* faults always stop: every filter is accepted and verified */
    const struct dap_json *f = dap_json_get(args, "filters");
    size_t n = f && f->type == DAP_JSON_ARRAY ? f->count : 0;
    fputs("{\"breakpoints\":[", body);
    for (size_t i = 0; i < n; i++)
        fprintf(body, "%s{\"verified\":true}", i ? "," : "");
    fputs("]}", body);
    return true;
}

/* dataId "SPACE:ADDR:SIZE" (dap_data_breakpoint_info makes them) */
static bool parse_data_id(const char *id, enum loom_debug_space *space, uint64_t *addr, unsigned *size)
{
    char name[16];
    unsigned long long a;
    unsigned n;
    if (!id || sscanf(id, "%15[a-z]:%llx:%u", name, &a, &n) != 3)
        return false;
    if (strcmp(name, "global") == 0) *space = LOOM_SPACE_GLOBAL;
    else if (strcmp(name, "shared") == 0) *space = LOOM_SPACE_SHARED;
    else return false;
    *addr = a;
    *size = n;
    return true;
}

static bool set_data_breakpoints(struct dap_server *s, const struct dap_json *args, FILE *body, char *err,
                                 size_t errlen)
{
    const struct dap_json *list = dap_json_get(args, "breakpoints");
    if (!list || list->type != DAP_JSON_ARRAY) {
        snprintf(err, errlen, "setDataBreakpoints needs 'breakpoints' (an array)");
        return false;
    }
    for (unsigned i = 0; i < s->nwatches; i++)
        loom_debug_delete(s->d, s->watches[i]);
    s->nwatches = 0;
    int *w = realloc(s->watches, (list->count + 1) * sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    s->watches = w;
    fputs("{\"breakpoints\":[", body);
    for (size_t i = 0; i < list->count; i++) {
        const char *id = dap_json_str(&list->items[i], "dataId");
        const char *access = dap_json_str(&list->items[i], "accessType");
        enum loom_debug_space space;
        uint64_t addr;
        unsigned size;
        char why[256] = "";
        int n = 0;
        if (access && strcmp(access, "write") != 0)
            snprintf(why, sizeof why, "only writes can be watched (accessType 'write')");
        else if (!parse_data_id(id, &space, &addr, &size))
            snprintf(why, sizeof why, "unknown dataId '%s'", id ? id : "");
        else if ((n = loom_debug_watch(s->d, space, addr, size, why, sizeof why)) > 0)
            s->watches[s->nwatches++] = n;
        fprintf(body, "%s{\"verified\":%s", i ? "," : "", n > 0 ? "true" : "false");
        if (n > 0) fprintf(body, ",\"id\":%d", 100000 + n);
        if (why[0]) {
            fputs(",\"message\":", body);
            loom_json_str(body, why);
        }
        fputc('}', body);
    }
    fputs("]}", body);
    return true;
}

/* ---- Stops ------------------------------------------------------------------------------------ */

static void thread_event(struct dap_server *s, const char *reason, int64_t id)
{
    char body[96];
    snprintf(body, sizeof body, "{\"reason\":\"%s\",\"threadId\":%" PRId64 "}", reason, id);
    dap_event(s, "thread", body);
}

/* Tells the editor of the warps that started and ended since the last stop (ids: the warps
 * running now, ascending, n of them; NULL: none, at the run's end). */
static void threads_changed(struct dap_server *s, int64_t *ids, unsigned n)
{
    unsigned i = 0, k = 0;
    while (i < s->nthreads || k < n) {
        if (k == n || (i < s->nthreads && s->threads[i] < ids[k])) thread_event(s, "exited", s->threads[i++]);
        else if (i == s->nthreads || ids[k] < s->threads[i]) thread_event(s, "started", ids[k++]);
        else i++, k++;
    }
    free(s->threads);
    s->threads = ids;
    s->nthreads = n;
}

/* The DAP id of the core's breakpoint number n (0: none of ours). */
static int bp_id_of(struct dap_server *s, int n)
{
    for (unsigned i = 0; i < s->nbps; i++)
        if (s->bps[i].number == n) return s->bps[i].id;
    for (unsigned i = 0; i < s->nwatches; i++)
        if (s->watches[i] == n) return 100000 + n;
    return 0;
}

/* The core's callback, on the worker running the launch: tells the editor, and waits for
 * the protocol thread to choose what happens next. */
static enum loom_debug_action on_stop(struct loom_debug *d, const struct loom_debug_stop *st, void *ctx)
{
    struct dap_server *s = ctx;
    (void)d;
    flush_output(s);
    pthread_mutex_lock(&s->lock);
    enum loom_debug_action resume = s->last_action;
    if (s->kill || s->detach) {
        pthread_mutex_unlock(&s->lock);
        return s->kill ? LOOM_DEBUG_KILL : LOOM_DEBUG_DETACH;
    }
    bool user_pause = s->user_pause;
    if (st->reason == LOOM_STOP_PAUSE)
        s->user_pause = false;
    if (st->reason == LOOM_STOP_ENTRY) {
        /* The module is loaded: breakpoints are placed now, and the launch waits here for
         * configurationDone, so that those the editor sets meanwhile are answered at once. */
        breakpoints_recheck(s);
        s->holding = true;
        while (!s->configured && !s->kill && !s->detach)
            pthread_cond_wait(&s->cond, &s->lock);
        s->holding = false;
        if (s->kill || s->detach) {
            pthread_mutex_unlock(&s->lock);
            return s->kill ? LOOM_DEBUG_KILL : LOOM_DEBUG_DETACH;
        }
        resume = LOOM_DEBUG_CONTINUE;
    }
    bool entry_stops = s->stop_on_entry || s->pause_at_entry;
    if (st->reason == LOOM_STOP_ENTRY) s->pause_at_entry = false;
    if ((st->reason == LOOM_STOP_ENTRY && !entry_stops) || (st->reason == LOOM_STOP_PAUSE && !user_pause) ||
        st->reason == LOOM_STOP_EXIT) {
        /* not the user's: the entry without stopOnEntry, a pause that an earlier stop answered */
        s->last_action = resume;
        pthread_mutex_unlock(&s->lock);
        return resume;
    }
    refs_clear(s);
    s->state = DAP_STOPPED;
    s->stop = st;
    s->have_action = false;
    s->user_pause = false;   /* (a pause asked for is answered by any stop) */
    unsigned nids = 0;
    int64_t *ids = dap_thread_ids(s, &nids);
    threads_changed(s, ids, nids);
    char *body = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&body, &len);
    if (m) {
        dap_write_stopped(s, st, m);
        int id = st->reason == LOOM_STOP_BREAKPOINT ? bp_id_of(s, st->breakpoint)
                 : st->reason == LOOM_STOP_WATCH    ? bp_id_of(s, st->watchpoint)
                                                     : 0;
        if (id) fprintf(m, ",\"hitBreakpointIds\":[%d]", id);
        fputc('}', m);
        fclose(m);
        dap_event(s, "stopped", body);
        free(body);
    }
    while (!s->have_action)
        pthread_cond_wait(&s->cond, &s->lock);
    enum loom_debug_action a = s->action;
    s->last_action = a == LOOM_DEBUG_DETACH || a == LOOM_DEBUG_KILL ? LOOM_DEBUG_CONTINUE : a;
    s->state = DAP_RUNNING;
    s->stop = NULL;
    refs_clear(s);
    pthread_mutex_unlock(&s->lock);
    return a;
}

/* ---- The run ------------------------------------------------------------------------------------ */

static void *runner_main(void *arg)
{
    struct dap_server *s = arg;
    int rc = loom_cmd_run_debug(s->run_argc, s->run_argv, s->no_debug ? NULL : s->d);
    flush_output(s);
    pthread_mutex_lock(&s->lock);
    threads_changed(s, NULL, 0);
    s->state = DAP_OVER;
    s->exit_status = rc;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    char body[64];
    snprintf(body, sizeof body, "{\"exitCode\":%d}", rc);
    dap_event(s, "exited", body);
    dap_event(s, "terminated", NULL);
    return NULL;
}

static bool start_run(struct dap_server *s, char *err, size_t errlen)
{
    if (s->started)
        return true;
    s->started = true;
    s->state = DAP_RUNNING;
    s->last_action = LOOM_DEBUG_CONTINUE;
    if (pthread_create(&s->runner, NULL, runner_main, s) != 0) {
        s->state = DAP_OVER;
        snprintf(err, errlen, "cannot start the run: %s", strerror(errno));
        return false;
    }
    return true;
}

static bool launch(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)body;
    if (s->launched) {
        snprintf(err, errlen, "this session has launched already (one launch per session)");
        return false;
    }
    if (dap_json_get(args, "program") && !dap_json_get(args, "ptx")) {
        snprintf(err, errlen, "launching a CUDA program is not supported yet: give 'ptx' (a PTX file) and "
                              "'args' (loom run's arguments)");
        return false;
    }
    const char *ptx = dap_json_str(args, "ptx");
    if (!ptx || !ptx[0]) {
        snprintf(err, errlen, "launch needs 'ptx': the PTX file to run (and 'args': loom run's arguments)");
        return false;
    }
    const struct dap_json *a = dap_json_get(args, "args");
    if (a && a->type != DAP_JSON_ARRAY) {
        snprintf(err, errlen, "launch: 'args' must be an array of strings (loom run's arguments)");
        return false;
    }
    size_t n = a ? a->count : 0;
    for (size_t i = 0; i < n; i++)
        if (a->items[i].type != DAP_JSON_STRING) {
            snprintf(err, errlen, "launch: 'args' item %zu is not a string", i);
            return false;
        }
    const char *cwd = dap_json_str(args, "cwd");
    if (cwd && cwd[0] && chdir(cwd) != 0) {
        snprintf(err, errlen, "launch: cannot enter cwd '%s': %s", cwd, strerror(errno));
        return false;
    }
    s->run_argv = calloc(n + 3, sizeof *s->run_argv);
    if (!s->run_argv) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    s->run_argv[0] = strdup("run");
    s->run_argv[1] = strdup(ptx);
    for (size_t i = 0; i < n; i++)
        s->run_argv[2 + i] = strdup(a->items[i].string);
    s->run_argc = (int)n + 2;
    s->ptx = strdup(ptx);
    s->stop_on_entry = dap_json_bool(args, "stopOnEntry", false);
    s->no_debug = dap_json_bool(args, "noDebug", false);
    s->launched = true;
    /* breakpoints set before the launch named the PTX file by a path the core did not know */
    for (unsigned i = 0; i < s->nbps; i++)
        if (!s->bps[i].is_cu && is_launch_ptx(s, s->bps[i].source)) {
            free(s->bps[i].file);
            s->bps[i].file = strdup(s->ptx);
            bp_place(s, &s->bps[i]);
        }
    return start_run(s, err, errlen);
}

static bool configuration_done(struct dap_server *s, const struct dap_json *args, FILE *body, char *err,
                               size_t errlen)
{
    (void)args, (void)body, (void)err, (void)errlen;
    s->configured = true;
    pthread_cond_broadcast(&s->cond);   /* (a launch waiting at its entry goes on) */
    return true;
}

/* continue, next, stepIn, stepOut, stepBack, reverseContinue: the action for the stop in
 * progress, with the focus on the request's thread. */
static bool resume(struct dap_server *s, const struct dap_json *args, enum loom_debug_action a, char *err,
                   size_t errlen)
{
    if (s->state != DAP_STOPPED) {
        snprintf(err, errlen, s->state == DAP_OVER ? "the kernel is not running any more"
                                                   : "the kernel is not stopped");
        return false;
    }
    int64_t tid;
    if (dap_json_int(args, "threadId", &tid) && !dap_focus_thread(s, tid, -1, err, errlen))
        return false;
    if ((a == LOOM_DEBUG_REVERSE_STEP || a == LOOM_DEBUG_REVERSE_CONTINUE) && !loom_debug_can_reverse(s->d, err, errlen))
        return false;
    const char *gran = dap_json_str(args, "granularity");
    if (gran && strcmp(gran, "instruction") == 0) {
        if (a == LOOM_DEBUG_STEP || a == LOOM_DEBUG_NEXT) a = LOOM_DEBUG_STEPI;
        if (a == LOOM_DEBUG_REVERSE_STEP) a = LOOM_DEBUG_REVERSE_STEPI;
    }
    s->action = a;
    s->have_action = true;
    pthread_cond_broadcast(&s->cond);
    return true;
}

#define RESUME_HANDLER(fn, act, reply)                                                                           \
    static bool fn(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)      \
    {                                                                                                            \
        if (!resume(s, args, act, err, errlen)) return false;                                                    \
        fputs(reply, body);                                                                                      \
        return true;                                                                                             \
    }
RESUME_HANDLER(do_continue, LOOM_DEBUG_CONTINUE, "{\"allThreadsContinued\":true}")
RESUME_HANDLER(do_next, LOOM_DEBUG_NEXT, "{}")
RESUME_HANDLER(do_step_in, LOOM_DEBUG_STEP, "{}")
RESUME_HANDLER(do_step_out, LOOM_DEBUG_FINISH, "{}")
RESUME_HANDLER(do_step_back, LOOM_DEBUG_REVERSE_STEP, "{}")
RESUME_HANDLER(do_reverse_continue, LOOM_DEBUG_REVERSE_CONTINUE, "{}")

static bool pause_request(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)args, (void)body;
    if (s->state == DAP_STOPPED) return true;   /* (stopped already) */
    if (s->state != DAP_RUNNING) {
        snprintf(err, errlen, "the kernel is not running");
        return false;
    }
    /* no launch running (the run has not reached one, or one waits at its entry for
     * configurationDone): the next entry stops */
    if (s->holding || !loom_debug_pause(s->d)) s->pause_at_entry = true;
    else s->user_pause = true;
    return true;
}

/* Ends the session's debugging: detach (the launches run to completion) or kill. */
static void finish_run(struct dap_server *s, bool kill)
{
    if (kill) s->kill = true;
    else s->detach = true;
    if (s->state == DAP_STOPPED) {
        s->action = kill ? LOOM_DEBUG_KILL : LOOM_DEBUG_DETACH;
        s->have_action = true;
        pthread_cond_broadcast(&s->cond);
    } else if (s->state == DAP_RUNNING) {
        loom_debug_pause(s->d);   /* on_stop answers DETACH or KILL */
        pthread_cond_broadcast(&s->cond);   /* (an entry waiting for configurationDone too) */
    }
}

static void join_run(struct dap_server *s)
{
    if (!s->started) return;
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->runner, NULL);
    pthread_mutex_lock(&s->lock);
    s->started = false;
}

static bool disconnect(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)body, (void)err, (void)errlen;
    finish_run(s, dap_json_bool(args, "terminateDebuggee", false));
    join_run(s);
    return true;
}

static bool terminate(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)args, (void)body, (void)err, (void)errlen;
    finish_run(s, true);
    return true;
}

static bool initialize(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    s->line_base = dap_json_bool(args, "linesStartAt1", true) ? 1 : 0;
    fputs("{\"supportsConfigurationDoneRequest\":true,\"supportsConditionalBreakpoints\":true,"
          "\"supportsStepBack\":true,\"supportsEvaluateForHovers\":true,\"supportsDataBreakpoints\":true,"
          "\"supportsTerminateRequest\":true,\"supportsExceptionInfoRequest\":true,"
          "\"supportsSteppingGranularity\":true,\"supportTerminateDebuggee\":true,"
          "\"exceptionBreakpointFilters\":[{\"filter\":\"fault\",\"label\":\"Kernel faults (always stop)\","
          "\"default\":true}]}",
          body);
    return true;
}

/* ---- Requests ------------------------------------------------------------------------------------ */

struct dap_request_def {
    const char *command;
    dap_handler *handler;
};

static const struct dap_request_def requests[] = {
    { "initialize", initialize },
    { "launch", launch },
    { "setBreakpoints", set_breakpoints },
    { "setExceptionBreakpoints", set_exception_breakpoints },
    { "setDataBreakpoints", set_data_breakpoints },
    { "dataBreakpointInfo", dap_data_breakpoint_info },
    { "configurationDone", configuration_done },
    { "threads", dap_threads },
    { "stackTrace", dap_stack_trace },
    { "scopes", dap_scopes },
    { "variables", dap_variables },
    { "evaluate", dap_evaluate },
    { "exceptionInfo", dap_exception_info },
    { "continue", do_continue },
    { "next", do_next },
    { "stepIn", do_step_in },
    { "stepOut", do_step_out },
    { "stepBack", do_step_back },
    { "reverseContinue", do_reverse_continue },
    { "pause", pause_request },
    { "disconnect", disconnect },
    { "terminate", terminate },
};

/* Serves one message; false when the session ends (disconnect). */
static bool serve(struct dap_server *s, const char *text, size_t len)
{
    char why[512];
    struct dap_json *msg = dap_json_parse(text, len, why, sizeof why);
    if (!msg) {
        char m[600];
        snprintf(m, sizeof m, "malformed message (not JSON: %s)", why);
        respond(s, 0, "", false, m, NULL);
        return true;
    }
    int64_t seq = 0;
    dap_json_int(msg, "seq", &seq);
    const char *type = dap_json_str(msg, "type"), *command = dap_json_str(msg, "command");
    const struct dap_request_def *def = NULL;
    for (size_t i = 0; command && i < sizeof requests / sizeof requests[0]; i++)
        if (strcmp(requests[i].command, command) == 0) def = &requests[i];
    if (msg->type != DAP_JSON_OBJECT || !type || strcmp(type, "request") != 0 || !command) {
        respond(s, seq, command ? command : "", false,
                "malformed message: a request is an object with \"type\":\"request\" and a \"command\"", NULL);
    } else if (!def) {
        snprintf(why, sizeof why, "unknown request '%s'", command);
        respond(s, seq, command, false, why, NULL);
    } else {
        const struct dap_json *args = dap_json_get(msg, "arguments");
        char *out = NULL;
        size_t olen = 0;
        char err[1024] = "";
        FILE *body = open_memstream(&out, &olen);
        if (!body) {
            respond(s, seq, command, false, "out of memory", NULL);
        } else if (args && args->type != DAP_JSON_OBJECT) {
            fclose(body);
            respond(s, seq, command, false, "'arguments' must be an object", NULL);
        } else {
            pthread_mutex_lock(&s->lock);
            bool ok = def->handler(s, args, body, err, sizeof err);
            fclose(body);
            /* (sent under the lock: a resumed launch's next stop comes after the answer) */
            respond(s, seq, command, ok, err, ok && olen ? out : NULL);
            pthread_mutex_unlock(&s->lock);
            if (ok && def->handler == initialize) dap_event(s, "initialized", NULL);
        }
        free(out);
        if (def->handler == disconnect) {
            dap_json_free(msg);
            return false;
        }
    }
    dap_json_free(msg);
    return true;
}

/* Reads one message's header: the Content-Length, or -1 at the end of input or on a header
 * the protocol does not allow (the session ends then). */
static long read_header(FILE *in, struct dap_server *s)
{
    char line[1024];
    long length = -1;
    for (;;) {
        if (!fgets(line, sizeof line, in))
            return -1;
        size_t n = strlen(line);
        if (n == 0 || line[n - 1] != '\n') {
            fprintf(s->log ? s->log : stderr, "loom dap: a header line without its end; the session ends\n");
            return -1;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (n == 0) break;
        if (strncasecmp(line, "Content-Length:", 15) == 0) {
            char *end;
            errno = 0;
            long v = strtol(line + 15, &end, 10);
            while (*end == ' ' || *end == '\t') end++;
            if (errno || *end || v < 0 || v > (long)DAP_MAX_MESSAGE) {
                fprintf(s->log ? s->log : stderr, "loom dap: bad header '%s'; the session ends\n", line);
                return -1;
            }
            length = v;
        }
    }
    if (length < 0)
        fprintf(s->log ? s->log : stderr, "loom dap: a message without Content-Length; the session ends\n");
    return length;
}

int loom_cmd_dap(int argc, char **argv)
{
    const char *log_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--log") == 0 && i + 1 < argc) {
            log_path = argv[++i];
        } else {
            fprintf(stderr, "loom dap: unknown argument '%s' (loom dap [--log FILE]; see 'loom help dap')\n", argv[i]);
            return 2;
        }
    }
    struct dap_server srv = { .line_base = 1 }, *s = &srv;
    pthread_mutex_init(&s->write_lock, NULL);
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->drain_lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    if (log_path && !(s->log = fopen(log_path, "w"))) {
        fprintf(stderr, "loom dap: cannot write the log '%s': %s\n", log_path, strerror(errno));
        return 2;
    }
    struct loom_debug_config cfg = { .on_stop = on_stop, .ctx = s, .stop_at_entry = true };
    if (loom_debug_create(&cfg, &s->d) != LOOM_OK) {
        fprintf(stderr, "loom dap: cannot create the debugger\n");
        return 1;
    }
    char why[256];
    signal(SIGPIPE, SIG_IGN);   /* a client that went away ends the session at its EOF */
    int saved_err = dup(STDERR_FILENO);
    if (!redirect_output(s, why, sizeof why)) {
        dprintf(saved_err, "loom dap: %s\n", why);
        return 1;
    }
    char *buf = NULL;
    for (;;) {
        long n = read_header(stdin, s);
        if (n < 0) break;
        char *grown = realloc(buf, (size_t)n + 1);
        if (!grown) break;
        buf = grown;
        if (fread(buf, 1, (size_t)n, stdin) != (size_t)n)
            break;
        buf[n] = 0;
        if (s->log) {
            fprintf(s->log, "-> %s\n", buf);
            fflush(s->log);
        }
        if (!serve(s, buf, (size_t)n))
            break;
    }
    free(buf);
    /* the client is gone (or said disconnect): a launch still running ends now */
    pthread_mutex_lock(&s->lock);
    if (s->started && s->state != DAP_OVER)
        finish_run(s, true);
    join_run(s);
    pthread_mutex_unlock(&s->lock);
    flush_output(s);
    __atomic_store_n(&s->reader_stop, true, __ATOMIC_RELEASE);
    pthread_join(s->reader, NULL);
    dup2(saved_err, STDERR_FILENO);   /* what is said at exit (a sanitizer's summary) reaches the terminal */
    loom_debug_destroy(s->d);
    for (unsigned i = 0; i < s->nbps; i++) bp_free(&s->bps[i]);
    free(s->bps);
    free(s->watches);
    free(s->threads);
    refs_clear(s);
    free(s->refs);
    for (int i = 0; s->run_argv && i < s->run_argc; i++) free(s->run_argv[i]);
    free(s->run_argv);
    free(s->ptx);
    if (s->log) fclose(s->log);
    close(saved_err);
    return 0;
}
