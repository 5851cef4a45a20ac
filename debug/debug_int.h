/* debug_int.h -- what the device (loom_api.c) tells the debugger (debug/debug.c). */
#ifndef LOOM_DEBUG_INT_H
#define LOOM_DEBUG_INT_H

#include <stdbool.h>

struct loom_debug;
struct loom_device;
struct loom_module;
struct sched_grid;

/* The device that d debugs (at its creation; NULL at its destruction); false when d
 * debugs another one already. */
bool loom_debug_set_device(struct loom_debug *d, struct loom_device *dev);
/* A module was loaded: pending breakpoints that it holds are placed. */
void loom_debug_module_loaded(struct loom_debug *d, struct loom_module *m);
/* A module goes away: breakpoints placed in it become pending again. */
void loom_debug_module_unloading(struct loom_debug *d, struct loom_module *m);
/* A launch is being made: when d attaches to its kernel, g runs debugged (g->run_alone and
 * g->L.dbg set), on the module's plain decode (loom_module.dprog, which a debugger's device
 * makes beside the usual one). Launches of other kernels run the usual one. */
void loom_debug_launch_made(struct loom_debug *d, struct sched_grid *g);

#endif
