/* ptx_tables.c -- placeholder until implemented. */
typedef int ptx_tables_placeholder_;
