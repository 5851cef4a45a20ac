# cli/ -- the `loom` command.
bin_PROGRAMS += loom
loom_SOURCES = %D%/loom_main.c %D%/loom_cli.h %D%/loom_cli_obs.c %D%/loom_cmd_check.c %D%/loom_cmd_info.c %D%/loom_cmd_run.c %D%/loom_cmd_debug.c
loom_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
loom_LDADD = libloom.la libloomptx.la $(HWLOC_LIBS)
# loom dap: the Debug Adapter Protocol server (issue 18)
loom_SOURCES += %D%/loom_cmd_dap.c %D%/loom_dap.h %D%/loom_dap_inspect.c %D%/loom_dap_json.c %D%/loom_dap_json.h
loom_LDADD += -lm
