# fuzz/ -- fuzzing harnesses (make fuzz).

# Harnesses under libFuzzer + ASan + UBSan (clang): the PTX front end, the fatbinary reader
# and loom run's argument parsing. `make fuzz` runs each for FUZZ_SECONDS (a short smoke run);
# a real campaign is `make fuzz FUZZ_SECONDS=1800` (docs/FUZZING.md). New inputs go to
# fuzz/corpus-work/; the committed seeds in fuzz/corpus/ are only read.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_PTX_SRC = $(srcdir)/fuzz/fuzz_ptx.c $(srcdir)/ptx/ptx_diag.c $(srcdir)/ptx/ptx_tables.c \
	$(srcdir)/ptx/ptx_arena.c $(srcdir)/ptx/ptx_lex.c $(srcdir)/ptx/ptx_parse.c $(srcdir)/ptx/ptx_parse_decl.c \
	$(srcdir)/ptx/ptx_parse_instr.c $(srcdir)/ptx/ptx_parse_util.c \
	$(srcdir)/ptx/ptx_check.c $(srcdir)/ptx/ptx_cfg.c $(srcdir)/ptx/ptx_limits.c
fuzz/fuzz_ptx: $(FUZZ_PTX_SRC) $(srcdir)/ptx/ptx_ir.h $(srcdir)/ptx/ptx_mods.def $(srcdir)/ptx/ptx_ops.def
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_builddir) -o $@ $(FUZZ_PTX_SRC) -lpthread
FUZZ_FATBIN_SRC = $(srcdir)/fuzz/fuzz_fatbin.c $(srcdir)/runtime/rt_fatbin.c
fuzz/fuzz_fatbin: $(FUZZ_FATBIN_SRC) $(srcdir)/runtime/rt_fatbin.h
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_builddir) $(ZSTD_CFLAGS) $(LZ4_CFLAGS) -o $@ \
	  $(FUZZ_FATBIN_SRC) $(ZSTD_LIBS) $(LZ4_LIBS)
# The parser is instrumented; libloom (which parsing never calls) only satisfies the linker.
FUZZ_RUN_ARGS_SRC = $(srcdir)/fuzz/fuzz_run_args.c $(srcdir)/cli/loom_cmd_run.c
fuzz/fuzz_run_args: $(FUZZ_RUN_ARGS_SRC) $(srcdir)/cli/loom_cli.h libloom.la
	@mkdir -p fuzz
	$(LIBTOOL) --silent --tag=CC --mode=link $(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) \
	  -I$(top_srcdir)/include -I$(top_builddir) -o $@ $(FUZZ_RUN_ARGS_SRC) libloom.la -lm
.PHONY: fuzz
fuzz: fuzz/fuzz_ptx fuzz/fuzz_fatbin fuzz/fuzz_run_args
	@mkdir -p fuzz/corpus-work/ptx fuzz/corpus-work/fatbin fuzz/corpus-work/run_args
	$(abs_builddir)/fuzz/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  -dict=$(srcdir)/fuzz/ptx.dict fuzz/corpus-work/ptx $(srcdir)/fuzz/corpus/ptx
	$(abs_builddir)/fuzz/fuzz_fatbin -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  fuzz/corpus-work/fatbin $(srcdir)/fuzz/corpus/fatbin
	$(abs_builddir)/fuzz/fuzz_run_args -max_total_time=$(FUZZ_SECONDS) -max_len=2048 -timeout=10 \
	  -close_fd_mask=3 -dict=$(srcdir)/fuzz/run_args.dict fuzz/corpus-work/run_args $(srcdir)/fuzz/corpus/run_args
CLEANFILES += fuzz/fuzz_ptx fuzz/fuzz_fatbin fuzz/fuzz_run_args
EXTRA_DIST += fuzz/fuzz_ptx.c fuzz/ptx.dict fuzz/fuzz_fatbin.c fuzz/fuzz_run_args.c fuzz/run_args.dict fuzz/corpus
