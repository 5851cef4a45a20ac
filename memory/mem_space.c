/* mem_space.c -- placeholder until implemented. */
typedef int mem_space_placeholder_;
