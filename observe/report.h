/* report.h -- the HTML lab report (issue 17): one self-contained page drawn from the
 * stats JSON (schema loom-stats/1) that `--stats=json` writes. */
#ifndef LOOM_OBSERVE_REPORT_H
#define LOOM_OBSERVE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "loom/loom.h"   /* loom_report_html is public API */

#endif
