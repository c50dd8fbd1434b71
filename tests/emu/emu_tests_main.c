/* The emulator's test suite, one binary per build of the emulator (plain, ucontext, TSan,
 * ASan+UBSan): TAP through cmocka (CMOCKA_MESSAGE_OUTPUT=TAP).
 *   emu-tests               every group
 *   emu-tests --case NAME   one planted bug, for the parent's child run (test_bugs.c) */
#include <stdio.h>
#include <string.h>

#include "emu_check.h"

int emu_run_api_tests(void);
int emu_run_correct_tests(void);
int emu_run_bug_tests(void);
int emu_run_mma_tests(void);
int emu_run_hopper_tests(void);
int emu_run_tma_tests(void);
int emu_run_wgmma_tests(void);
int emu_run_isa_tests(void);
int emu_run_probe_tests(void);
int emu_run_bug_case(const char *name);
int emu_run_api_case(const char *name);

/* The sanitizers' settings for this binary (the environment can still override them). */
#if defined(EMU_FLAVOUR_TSAN)
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "halt_on_error=0:exitcode=0:atexit_sleep_ms=0"; }
#endif
#if defined(EMU_FLAVOUR_ASAN)
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }
#endif

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--case") == 0) {
        int status = emu_run_api_case(argv[2]);
        return status >= 0 ? status : emu_run_bug_case(argv[2]);
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--case NAME]\n", argv[0]);
        return 2;
    }
    int failed = emu_run_api_tests();
    failed += emu_run_correct_tests();
    failed += emu_run_mma_tests();
    failed += emu_run_hopper_tests();
    failed += emu_run_tma_tests();
    failed += emu_run_wgmma_tests();
    failed += emu_run_isa_tests();
    failed += emu_run_probe_tests();
    failed += emu_run_bug_tests();
    return failed != 0;
}
