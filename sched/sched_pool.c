/* sched_pool.c -- placeholder until implemented. */
typedef int sched_pool_placeholder_;
