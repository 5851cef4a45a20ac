# fuzz/ -- fuzzing harnesses (make fuzz).

# PTX front end under libFuzzer + ASan + UBSan (clang): make fuzz [FUZZ_SECONDS=1800]
FUZZ_CC = clang
FUZZ_SECONDS = 1800
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_PTX_SRC = $(srcdir)/fuzz/fuzz_ptx.c $(srcdir)/ptx/ptx_diag.c $(srcdir)/ptx/ptx_tables.c \
	$(srcdir)/ptx/ptx_arena.c $(srcdir)/ptx/ptx_lex.c $(srcdir)/ptx/ptx_parse.c $(srcdir)/ptx/ptx_parse_decl.c \
	$(srcdir)/ptx/ptx_parse_instr.c $(srcdir)/ptx/ptx_parse_util.c \
	$(srcdir)/ptx/ptx_check.c $(srcdir)/ptx/ptx_cfg.c
fuzz/fuzz_ptx: $(FUZZ_PTX_SRC) $(srcdir)/ptx/ptx_ir.h $(srcdir)/ptx/ptx_mods.def $(srcdir)/ptx/ptx_ops.def
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 -I$(top_srcdir) -I$(top_builddir) -o $@ $(FUZZ_PTX_SRC) -lpthread
.PHONY: fuzz
fuzz: fuzz/fuzz_ptx
	@mkdir -p fuzz/corpus-work/ptx
	$(abs_builddir)/fuzz/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  -dict=$(srcdir)/fuzz/ptx.dict fuzz/corpus-work/ptx $(srcdir)/fuzz/corpus/ptx
CLEANFILES += fuzz/fuzz_ptx
EXTRA_DIST += fuzz/fuzz_ptx.c fuzz/ptx.dict fuzz/corpus
