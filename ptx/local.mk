# ptx/ -- the PTX front end: lexer, parser, module IR, checks, analysis.
noinst_LTLIBRARIES += libloomptx.la
libloomptx_la_SOURCES = \
	%D%/ptx_ir.h %D%/ptx_diag.h %D%/ptx_ops.def %D%/ptx_mods.def %D%/ptx_sregs.def \
	%D%/ptx_diag.c %D%/ptx_input.c %D%/ptx_tables.c %D%/ptx_arena.c %D%/ptx_arena.h \
	%D%/ptx_lex.c %D%/ptx_lex.h %D%/ptx_parse.c %D%/ptx_parse_internal.h \
	%D%/ptx_parse_util.c %D%/ptx_parse_decl.c %D%/ptx_parse_instr.c %D%/ptx_check.c %D%/ptx_cfg.c %D%/ptx_limits.c \
	%D%/ptx_uniform.c %D%/ptx_regalloc.c %D%/ptx_access.c %D%/ptx_access.h \
	%D%/ptx_demangle.c %D%/ptx_demangle.h
