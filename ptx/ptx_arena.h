/* ptx_arena.h */
