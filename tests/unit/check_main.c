/* check_main.c -- the one Check runner: adds every suite listed in suites.def.
 * Usage: check_loom [SUITE...] runs only the named suites. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define LOOM_SUITE(name) Suite *name##_suite(void);
#include "tests/unit/suites.def"
#undef LOOM_SUITE

static const struct { const char *name; Suite *(*make)(void); } suites[] = {
#define LOOM_SUITE(name) { #name, name##_suite },
#include "tests/unit/suites.def"
#undef LOOM_SUITE
};

static int wanted(const char *name, int argc, char **argv)
{
    if (argc < 2) return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    SRunner *sr = NULL;
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        if (!wanted(suites[i].name, argc, argv)) continue;
        if (!sr) sr = srunner_create(suites[i].make());
        else srunner_add_suite(sr, suites[i].make());
    }
    if (!sr) return 77;
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
