/* json.h -- what observe/ and sched/'s JSON writers share (the trace, the statistics). */
#ifndef LOOM_OBSERVE_JSON_H
#define LOOM_OBSERVE_JSON_H

#include <stdio.h>

/* Writes s (NULL: "") as a JSON string, quotes included: '"' and '\\' escaped, control
 * characters as \u00XX; other bytes as they are. */
void loom_json_str(FILE *f, const char *s);

#endif
