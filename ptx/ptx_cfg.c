/* ptx_cfg.c -- placeholder until implemented. */
typedef int ptx_cfg_placeholder_;
