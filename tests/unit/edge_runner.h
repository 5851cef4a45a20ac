/* edge_runner.h -- the edge kernels of a tests/edge/<family>/runs.txt for the Check suites:
 * rows loaded once, one row run through the public API and compared with expected/. */
#ifndef LOOM_EDGE_RUNNER_H
#define LOOM_EDGE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bounds of a row marked `# approx [ulp=N] [abs=E] [rel=R] fmt=F` (the format is
 * documented in tests/edge/float/gen.py): an output element passes within any one bound
 * given; NaN and infinite elements still match bit for bit. Unmarked rows compare bit for
 * bit. */
struct edge_approx {
    bool on;
    double ulp, abs, rel;           /* 0: not given */
    char fmt[8];                    /* f32 f64 f16 bf16 f16x2 bf16x2 */
};

struct edge_arg;                    /* one kernel argument (edge_runner.c) */

/* One row of runs.txt, in loom run's syntax:
 *   NAME: FILE.ptx --kernel K --grid X[,Y,Z] --block X[,Y,Z] [--shared N] ARG... [# approx ...]
 *   ARG: TYPE:VALUE | in:TYPE:COUNT=INIT | out:TYPE:COUNT>OUT/FILE | inout:TYPE:COUNT=INIT>OUT/FILE
 *   INIT: @FILE | zero | fill:VALUE | iota
 * A row that does not parse keeps the reason in `error`; its test fails with it. */
struct edge_row {
    char name[64];
    int line;                       /* in runs.txt, from 1 */
    const char *ptx, *kernel;
    unsigned grid[3], block[3];
    size_t shared;
    int nargs;
    struct edge_arg *args;
    struct edge_approx approx;
    char error[200];                /* empty when the row parses */
};

/* The rows of DIR/runs.txt; paths in them (inputs, FILE.ptx) are relative to DIR and the
 * recorded outputs are DIR/expected/FILE. */
struct edge_file {
    const char *dir;
    int nrows;
    struct edge_row *rows;
    char *text;                     /* runs.txt, cut into the rows' strings */
};

/* Reads dir/runs.txt into out_file (no rows when it is missing); dir must outlive it.
 * Called while building a suite, outside any test. */
void edge_load(const char *dir, struct edge_file *out_file);

/* The end of tcase_add_loop_test's range over f's rows: at least 1, so that a missing or
 * empty runs.txt still gives a failing row 0. */
int edge_loop_count(const struct edge_file *f);

/* Test body: fails unless f has rows and at least one of them has recorded outputs, so
 * that a suite whose rows are all skipped does not pass vacuously. */
void edge_assert_recorded(const struct edge_file *f);

/* Test body: row i must parse; when expected/ holds all its outputs it runs on a fresh
 * device and every output must match (edge_compare); otherwise it is skipped with a line
 * on stderr. */
void edge_run_row(const struct edge_file *f, int i);

/* Compares one output of row r (`what` names it), elements of elem_size (1..8) bytes, bit for bit
 * or within r's approx bounds. On a mismatch writes a message naming the first differing
 * element and how many differ to out_msg and returns false. */
bool edge_compare(const struct edge_row *r, const char *what, const uint8_t *got, const uint8_t *want, size_t bytes,
                  size_t elem_size, char *out_msg, size_t msg_size);

#endif
