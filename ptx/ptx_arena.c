/* ptx_arena.c -- placeholder until implemented. */
typedef int ptx_arena_placeholder_;
