/* drv_link.c -- JIT linking (cuLink*): PTX texts and the PTX of fatbinaries are joined by the
 * runtime's PTX device linker (rt_link.c) into one PTX text, the "image" cuModuleLoadData takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/drv_internal.h"
#include "runtime/rt_fatbin.h"
#include "runtime/rt_link.h"

#define DRV_LINK_MAGIC 0x4c444c4bu    /* "LDLK" */

enum { CU_JIT_INPUT_PTX = 1, CU_JIT_INPUT_FATBINARY = 2 };
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

struct CUlinkState_st {
    uint32_t magic;
    struct rt_link_text *texts;     /* each text and name malloc'd */
    unsigned count;
    char *image;                    /* the linked text, after cuLinkComplete */
    char *error_log;                /* CU_JIT_ERROR_LOG_BUFFER, if given */
    size_t error_log_size;
};
typedef struct CUlinkState_st *CUlinkState;

static struct CUlinkState_st *live(CUlinkState s)
{
    return drv_handle_known(s) && s->magic == DRV_LINK_MAGIC ? s : NULL;
}

static void log_error(struct CUlinkState_st *s, const char *msg)
{
    fprintf(stderr, "loom: cuLinkComplete: %s\n", msg);
    if (s->error_log && s->error_log_size)
        snprintf(s->error_log, s->error_log_size, "%s", msg);
}

CUresult cuLinkCreate_v2(unsigned int numOptions, int *options, void **optionValues, CUlinkState *stateOut);
CUresult cuLinkCreate_v2(unsigned int numOptions, int *options, void **optionValues, CUlinkState *stateOut)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!stateOut || (numOptions && (!options || !optionValues))))
        r = CUDA_ERROR_INVALID_VALUE;
    struct CUlinkState_st *s = NULL;
    if (r == CUDA_SUCCESS && (!(s = calloc(1, sizeof *s)) || !drv_handle_add(s))) {
        free(s);
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (r == CUDA_SUCCESS) {
        s->magic = DRV_LINK_MAGIC;
        /* the error log is kept; other options (optimisation, register limits) change nothing */
        for (unsigned i = 0; i < numOptions; i++) {
            if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
                s->error_log = optionValues[i];
            else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
                s->error_log_size = (size_t)(uintptr_t)optionValues[i];
        }
        *stateOut = s;
    }
    return drv_return(r, "cuLinkCreate(%u options)", numOptions);
}

/* Adds one input: PTX text (size bounds it; a NUL may end it earlier) or a fatbinary's PTX. */
static CUresult add(struct CUlinkState_st *s, int type, const void *data, size_t size, const char *name)
{
    char *text = NULL;
    if (type == CU_JIT_INPUT_PTX) {
        size_t len = strnlen(data, size);
        if (!(text = malloc(len + 1)))
            return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(text, data, len);
        text[len] = 0;
    } else if (type == CU_JIT_INPUT_FATBINARY) {
        struct rt_fatbin_options o = { 0 };
        struct rt_fatbin_result res;
        int st = rt_fatbin_extract_ptx(data, size, &o, &res);
        if (st != RT_FATBIN_OK || !res.count) {
            fprintf(stderr, "loom: cuLinkAddData: %s\n", st != RT_FATBIN_OK ? res.message : "no PTX");
            rt_fatbin_result_free(&res);
            return st == RT_FATBIN_NO_PTX ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE;
        }
        text = res.ptx[0].text;
        res.ptx[0].text = NULL;
        rt_fatbin_result_free(&res);
    } else if (type >= 0 && type <= 5) {   /* cubins, objects, libraries, NVVM IR */
        return drv_unsupported("cuLinkAddData of an input other than PTX or a fatbinary");
    } else {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct rt_link_text *t = realloc(s->texts, (s->count + 1) * sizeof *t);
    char *copy = strdup(name ? name : "(unnamed)");
    if (!t || !copy) {
        free(text);
        free(copy);
        if (t)
            s->texts = t;
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    s->texts = t;
    t[s->count++] = (struct rt_link_text){ .text = text, .len = strlen(text), .name = copy };
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState state, int type, void *data, size_t size, const char *name,
                          unsigned int numOptions, int *options, void **optionValues);
CUresult cuLinkAddData_v2(CUlinkState state, int type, void *data, size_t size, const char *name,
                          unsigned int numOptions, int *options, void **optionValues)
{
    (void)options;
    (void)optionValues;
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !live(state))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS && (!data || !size))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = add(state, type, data, size, name);
    return drv_return(r, "cuLinkAddData(%p, %d, %zu bytes, %s, %u options)", (void *)state, type, size,
                      name ? name : "NULL", numOptions);
}

CUresult cuLinkAddFile_v2(CUlinkState state, int type, const char *path, unsigned int numOptions, int *options,
                          void **optionValues);
CUresult cuLinkAddFile_v2(CUlinkState state, int type, const char *path, unsigned int numOptions, int *options,
                          void **optionValues)
{
    (void)options;
    (void)optionValues;
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !live(state))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS && !path)
        r = CUDA_ERROR_INVALID_VALUE;
    FILE *f = NULL;
    if (r == CUDA_SUCCESS && !(f = fopen(path, "rb")))
        r = CUDA_ERROR_FILE_NOT_FOUND;
    char *buf = NULL;
    long n = -1;
    if (r == CUDA_SUCCESS) {
        n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        if (n <= 0 || (size_t)n > LOOM_MAX_PTX_BYTES || fseek(f, 0, SEEK_SET) != 0)
            r = CUDA_ERROR_INVALID_IMAGE;
        else if (!(buf = calloc(1, (size_t)n + 1)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
        else if (fread(buf, 1, (size_t)n, f) != (size_t)n)
            r = CUDA_ERROR_FILE_NOT_FOUND;
    }
    if (f)
        fclose(f);
    if (r == CUDA_SUCCESS)
        r = add(state, type, buf, (size_t)n, path);
    free(buf);
    return drv_return(r, "cuLinkAddFile(%p, %d, %s, %u options)", (void *)state, type, path ? path : "NULL",
                      numOptions);
}

/* Every .extern function or variable must be defined by some input: PTX loaded alone would
 * leave the call unresolved, which the GPU's linker refuses as well. */
static bool unresolved(const struct CUlinkState_st *s, const char *text, char *out_sym, size_t size)
{
    for (const char *p = strstr(text, ".extern"); p; p = strstr(p + 1, ".extern")) {
        const char *e = strchr(p, ';');
        const char *paren = strchr(p, '(');
        if (!e)
            break;
        /* the symbol: the last identifier before '(' of the parameter list, or before ';' */
        const char *end = e;
        if (paren && paren < e) {
            /* ".extern .func (.param ...) name(" : skip a return list in parentheses */
            const char *close = strchr(paren, ')');
            const char *second = close ? strchr(close, '(') : NULL;
            end = second && second < e ? second : paren;
        }
        const char *b = end;
        while (b > p && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        const char *a = b;
        while (a > p && (a[-1] == '_' || a[-1] == '$' || (a[-1] >= '0' && a[-1] <= '9') ||
                         ((a[-1] | 32) >= 'a' && (a[-1] | 32) <= 'z')))
            a--;
        if (a == b || (size_t)(b - a) >= size)
            continue;
        snprintf(out_sym, size, "%.*s", (int)(b - a), a);
        bool found = false;
        for (unsigned i = 0; i < s->count && !found; i++)
            found = rt_link_defines(s->texts[i].text, s->texts[i].len, out_sym);
        if (!found)
            return true;
    }
    return false;
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    CUresult r = drv_enter(true);
    struct CUlinkState_st *s = live(state);
    if (r == CUDA_SUCCESS && !s)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS && (!cubinOut || !s->count))
        r = CUDA_ERROR_INVALID_VALUE;
    char sym[256], err[320] = "";
    for (unsigned i = 0; r == CUDA_SUCCESS && i < s->count; i++)
        if (unresolved(s, s->texts[i].text, sym, sizeof sym)) {
            snprintf(err, sizeof err, "%s: undefined reference to '%s'", s->texts[i].name, sym);
            log_error(s, err);
            r = CUDA_ERROR_INVALID_SOURCE;  /* what an H100's linker returns */
        }
    char *out = NULL;
    size_t len = 0;
    if (r == CUDA_SUCCESS && rt_link_ptx(s->texts, s->count, &out, &len, err, sizeof err) != 0) {
        log_error(s, err);
        r = CUDA_ERROR_INVALID_PTX;
    }
    if (r == CUDA_SUCCESS) {
        free(s->image);
        s->image = out;
        *cubinOut = out;
        if (sizeOut)
            *sizeOut = len + 1;
    }
    return drv_return(r, "cuLinkComplete(%p)", (void *)state);
}

/* The image cuLinkComplete returned is freed here, as CUDA's is. */
CUresult cuLinkDestroy(CUlinkState state);
CUresult cuLinkDestroy(CUlinkState state)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    struct CUlinkState_st *s = live(state);
    if (r == CUDA_SUCCESS && !s)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS) {
        for (unsigned i = 0; i < s->count; i++) {
            free((char *)s->texts[i].text);
            free((char *)s->texts[i].name);
        }
        free(s->texts);
        free(s->image);
        s->magic = 0;
        drv_handle_del(s);
        free(s);
    }
    return drv_return(r, "cuLinkDestroy(%p)", (void *)state);
}
