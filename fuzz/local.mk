# fuzz/ -- fuzzing harnesses (make fuzz).

# Harnesses under libFuzzer + ASan + UBSan (clang): the PTX front end, the fatbinary reader
# and loom run's argument parsing. fuzz_ptx takes inputs up to 1 MiB, so that nesting past
# the parser's limits (PTX_MAX_NESTING) is within reach. `make fuzz` runs each for
# FUZZ_SECONDS (a short smoke run);
# a real campaign is `make fuzz FUZZ_SECONDS=1800` (docs/FUZZING.md). New inputs go to
# fuzz/corpus-work/; the committed seeds in fuzz/corpus/ are only read.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_PTX_SRC = $(srcdir)/fuzz/fuzz_ptx.c $(srcdir)/ptx/ptx_diag.c $(srcdir)/ptx/ptx_tables.c \
	$(srcdir)/ptx/ptx_arena.c $(srcdir)/ptx/ptx_lex.c $(srcdir)/ptx/ptx_parse.c $(srcdir)/ptx/ptx_parse_decl.c \
	$(srcdir)/ptx/ptx_parse_instr.c $(srcdir)/ptx/ptx_parse_util.c \
	$(srcdir)/ptx/ptx_check.c $(srcdir)/ptx/ptx_cfg.c $(srcdir)/ptx/ptx_limits.c $(srcdir)/ptx/ptx_uniform.c \
	$(srcdir)/ptx/ptx_demangle.c
fuzz/fuzz_ptx: $(FUZZ_PTX_SRC) $(srcdir)/ptx/ptx_ir.h $(srcdir)/ptx/ptx_mods.def $(srcdir)/ptx/ptx_ops.def
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_builddir) -o $@ $(FUZZ_PTX_SRC) -lpthread
FUZZ_FATBIN_SRC = $(srcdir)/fuzz/fuzz_fatbin.c $(srcdir)/runtime/rt_fatbin.c
fuzz/fuzz_fatbin: $(FUZZ_FATBIN_SRC) $(srcdir)/runtime/rt_fatbin.h
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_srcdir)/include -I$(top_builddir) $(ZSTD_CFLAGS) $(LZ4_CFLAGS) -o $@ \
	  $(FUZZ_FATBIN_SRC) $(ZSTD_LIBS) $(LZ4_LIBS)
# fuzz_run_args: loom run's parser is instrumented; libloom, which parsing never calls, is
# linked only for the symbols the rest of loom_cmd_run.c names. Not libloom.la: configured
# with --enable-sanitizers, that carries gcc's ASan runtime, which cannot share a process
# with clang's ("incompatible ASan runtimes"). So the harness links its own copy of the
# library's sources built by clang (fuzz/libloom-fuzz.a), the same with any configuration;
# plainly, at -O0, since none of it runs (instrumented, the interpreter takes minutes).
FUZZ_LIB_FLAGS = -O0 -std=gnu11 -I$(top_srcdir) -I$(top_srcdir)/include -I$(top_builddir) \
	$(HWLOC_CFLAGS) $(FFI_CFLAGS) -fopenmp
FUZZ_LIB_SRC = $(libloom_la_SOURCES) $(libloomemu_la_SOURCES) $(libloommem_la_SOURCES) $(libloomptx_la_SOURCES)
fuzz/libloom-fuzz.a: $(FUZZ_LIB_SRC) $(libloomemu_v3_la_SOURCES) config.h
	@rm -rf fuzz/lib && mkdir -p fuzz/lib
	@for f in $(FUZZ_LIB_SRC); do case $$f in *.c) echo "  CC (fuzz) $$f"; \
	  $(FUZZ_CC) $(FUZZ_LIB_FLAGS) -c -o fuzz/lib/`echo $$f | tr / -`.o $(srcdir)/$$f || exit 1;; esac; done
	@for f in $(libloomemu_v3_la_SOURCES); do case $$f in *.c) echo "  CC (fuzz, x86-64-v3) $$f"; \
	  $(FUZZ_CC) $(FUZZ_LIB_FLAGS) $(EMU_V3_CFLAGS) -include $(top_srcdir)/emu/emu_variant_v3.h \
	    -c -o fuzz/lib/v3-`echo $$f | tr / -`.o $(srcdir)/$$f || exit 1;; esac; done
	rm -f $@ && $(AR) rcs $@ fuzz/lib/*.o
FUZZ_RUN_ARGS_SRC = $(srcdir)/fuzz/fuzz_run_args.c $(srcdir)/cli/loom_cmd_run.c
fuzz/fuzz_run_args: $(FUZZ_RUN_ARGS_SRC) $(srcdir)/cli/loom_cli.h fuzz/libloom-fuzz.a
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_srcdir)/include -I$(top_builddir) -o $@ \
	  $(FUZZ_RUN_ARGS_SRC) fuzz/libloom-fuzz.a $(HWLOC_LIBS) $(FFI_LIBS) -fopenmp -lpthread -lm
# fuzz_dap_json: loom dap's JSON reader (the Debug Adapter Protocol's messages)
FUZZ_DAP_JSON_SRC = $(srcdir)/fuzz/fuzz_dap_json.c $(srcdir)/cli/loom_dap_json.c
fuzz/fuzz_dap_json: $(FUZZ_DAP_JSON_SRC) $(srcdir)/cli/loom_dap_json.h
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_builddir) -o $@ $(FUZZ_DAP_JSON_SRC) -lm
.PHONY: fuzz
fuzz: fuzz/fuzz_ptx fuzz/fuzz_fatbin fuzz/fuzz_run_args fuzz/fuzz_dap_json
	@mkdir -p fuzz/corpus-work/ptx fuzz/corpus-work/fatbin fuzz/corpus-work/run_args fuzz/corpus-work/dap_json
	$(abs_builddir)/fuzz/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -max_len=1048576 -timeout=10 \
	  -dict=$(srcdir)/fuzz/ptx.dict fuzz/corpus-work/ptx $(srcdir)/fuzz/corpus/ptx
	$(abs_builddir)/fuzz/fuzz_fatbin -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  fuzz/corpus-work/fatbin $(srcdir)/fuzz/corpus/fatbin
	$(abs_builddir)/fuzz/fuzz_run_args -max_total_time=$(FUZZ_SECONDS) -max_len=2048 -timeout=10 \
	  -close_fd_mask=3 -dict=$(srcdir)/fuzz/run_args.dict fuzz/corpus-work/run_args $(srcdir)/fuzz/corpus/run_args
	$(abs_builddir)/fuzz/fuzz_dap_json -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  fuzz/corpus-work/dap_json $(srcdir)/fuzz/corpus/dap_json
CLEANFILES += fuzz/fuzz_ptx fuzz/fuzz_fatbin fuzz/fuzz_run_args fuzz/fuzz_dap_json fuzz/libloom-fuzz.a fuzz/lib/*.o
EXTRA_DIST += fuzz/fuzz_ptx.c fuzz/ptx.dict fuzz/fuzz_fatbin.c fuzz/fuzz_run_args.c fuzz/run_args.dict fuzz/corpus \
	fuzz/fuzz_dap_json.c
