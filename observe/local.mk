# observe/ -- what Loom shows of a run, part of libloom: the Chrome trace recorder (--trace)
# and the HTML lab report (--report). report.c's page template, observe/report.html, becomes
# the C array report_html_lines (one string per line) through the sed rule below.
libloom_la_SOURCES += %D%/trace.h %D%/trace.c %D%/json.h %D%/json.c
libloom_la_SOURCES += %D%/report.h %D%/report.c
nodist_libloom_la_SOURCES = %D%/report_html.h
BUILT_SOURCES += %D%/report_html.h
CLEANFILES += %D%/report_html.h
EXTRA_DIST += %D%/report.html
%D%/report_html.h: %D%/report.html %D%/local.mk
	$(AM_V_GEN)$(MKDIR_P) %D% && { \
	    echo '/* report_html.h -- generated from observe/report.html by observe/local.mk; do not edit. */'; \
	    echo 'static const char *const report_html_lines[] = {'; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/    "/' -e 's/$$/",/' $(srcdir)/%D%/report.html; \
	    echo '};'; \
	} >$@-t && mv -f $@-t $@
