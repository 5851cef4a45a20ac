/* report.h -- the HTML lab report (issue 17): one self-contained page drawn from the
 * stats JSON (schema loom-stats/1) that `--stats=json` writes. */
#ifndef LOOM_OBSERVE_REPORT_H
#define LOOM_OBSERVE_REPORT_H

#include <stddef.h>
#include <stdio.h>

/* Writes one HTML page to out: the template of observe/report.html with the stats JSON
 * (stats_json, len bytes, UTF-8) embedded in it; the page's own script draws the views
 * (summary and occupancy, SIMT policies side by side, PTX and CUDA listings with heat
 * columns, the CFG, lane activity per warp). The page loads nothing from the network.
 * The JSON is checked for syntax first (any keys; the page shows those it knows).
 * Returns 0, or -1 with a one-line message in err (errlen bytes, always terminated when
 * errlen > 0): "LINE:COL: MESSAGE" for bad JSON, to which the caller prefixes its file
 * name, or "cannot write the report: REASON". */
int loom_report_html(FILE *out, const char *stats_json, size_t len, char *err, size_t errlen);

#endif
