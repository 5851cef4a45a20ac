/* loom_main.c -- the `loom` command: --help, --version, `help COMMAND`, and dispatch to the
 * subcommands check, info, run, exec, debug and dap (cli/loom_cli.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/loom_cli.h"
#include "loom/loom.h"
#include "sched/sched_preset.h"

struct loom_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *usage;
};

static const char check_usage[] =
    "usage: loom check [--verbose] FILE.ptx...\n"
    "\n"
    "Parses and checks each PTX file (- reads standard input) as the PTX ISA defines it:\n"
    "syntax, declarations, operand types and state spaces. Prints nothing and exits 0\n"
    "when every file is valid; otherwise prints each problem as\n"
    "FILE:LINE:COL: error: MESSAGE and exits 1. A wrong command line exits 2.\n"
    "\n"
    "  -v, --verbose   also print, per kernel: parameters, registers by width and as\n"
    "                  ptxas would allocate them (an estimate), static shared and\n"
    "                  local bytes, basic blocks and reconvergence points; and\n"
    "                  per kernel, how each parameter reaches global memory:\n"
    "                    saxpy: x read, y read-write, n (value)\n"
    "                  (escapes: stored or passed where the analysis cannot\n"
    "                  follow; globals/other: module variables, pointers of\n"
    "                  unknown origin)\n"
    "\n"
    "Example:  loom check kernel.ptx\n";

static const char info_usage[] =
    "usage: loom info [--device PRESET] [--json] [--presets]\n"
    "\n"
    "Shows the host as hwloc sees it (packages, cores, caches and their sharing, NUMA\n"
    "nodes and their memory, the default number of workers) and the properties of the\n"
    "GPU that Loom presents to kernels and CUDA programs.\n"
    "\n"
    "  --device PRESET  show this preset instead of the default (LOOM_DEVICE,\n"
    "                   else h100)\n"
    "  --json           print the same facts as one JSON object\n"
    "  --presets        list the presets (with --json: as a JSON array)\n";

static const char run_usage[] =
    "usage: loom run FILE.ptx [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                [--shared BYTES] [OPTIONS] [ARG ...]\n"
    "\n"
    "Runs one kernel of a PTX file on the CPU, with its arguments on the command line.\n"
    "--kernel takes the PTX name, the demangled signature, or the plain name when only\n"
    "one kernel has it (lab::fill<int>, fill); it may be omitted when the module has one\n"
    "entry. --shared sets the dynamic shared memory per block.\n"
    "\n"
    "ARG, one per kernel parameter, in order:\n"
    "  TYPE:VALUE                scalar; TYPE in u8 u16 u32 u64 s8 s16 s32 s64 f32 f64,\n"
    "                            f16 bf16 (rounded to nearest even), b8 b16 b32 b64 (bits,\n"
    "                            either sign), ptr (a number or null)\n"
    "                            (u32:1024, f32:2.5, u64:0x10, f16:1.5, b16:0xbeef, ptr:null)\n"
    "  in:TYPE:COUNT=@PATH       device buffer of COUNT elements initialised from the raw\n"
    "                            little-endian file PATH; the parameter gets its address\n"
    "  in:TYPE:COUNT=zero        also =fill:VALUE and =iota\n"
    "  out:TYPE:COUNT>PATH       zero-filled device buffer, written raw to PATH after the\n"
    "                            kernel completes\n"
    "  inout:TYPE:COUNT=@IN>OUT  initialised from IN, written to OUT\n"
    "\n"
    "OPTIONS: --workers N, --device PRESET, --stats, --stats=brief, --stats=json FILE,\n"
    "--no-check, --deterministic, --timeout S, --watchdog S, --simt POLICY, --sched POLICY,\n"
    "--timing model (as for loom exec);\n"
    "--simt A,B,... runs the kernel once under each policy (statistics side by side);\n"
    "--report FILE.html (the HTML lab report: per-line heat, CFG, lane activity, occupancy);\n"
    "--cooperative (grid-wide sync allowed);\n"
    "--initcheck (reads of memory never written); --racecheck (shared-memory races);\n"
    "-v, --verbose (describe the launch and its arguments); -q, --quiet (no progress line);\n"
    "--trace FILE.json (a Chrome trace of the run: host calls, streams, the kernel, CTAs on\n"
    "workers; ui.perfetto.dev opens it), --trace-cap N (keep at most N events; default\n"
    "1000000), --trace-warps (per-warp slices with divergence, reconvergence, barrier and\n"
    "exit events).\n"
    "\n"
    "Quote arguments holding '>' so that the shell does not redirect:\n"
    "  loom run saxpy.ptx --kernel saxpy --grid 4 --block 256 s32:1000 f32:2.0 \\\n"
    "           in:f32:1000=iota 'inout:f32:1000=@y.bin>y.out'\n"
    "\n"
    "Exit status 0 when the kernel completed and every output was written; 2 for a wrong\n"
    "command line (unknown kernel, arguments that do not match the .param list); 1 when\n"
    "the kernel faulted (a report names the kernel, PTX line, block, thread and address)\n"
    "or a file could not be read or written.\n";

static const char exec_usage[] =
    "usage: loom exec [OPTIONS] PROGRAM [ARGS...]\n"
    "\n"
    "Runs an unmodified CUDA program on the CPU: Loom's libcudart.so.13 stands in for\n"
    "NVIDIA's. The program must be linked with `nvcc --cudart shared` and carry PTX\n"
    "(for example -gencode arch=compute_90,code=compute_90).\n"
    "\n"
    "  --workers N      CPU worker threads (default: one per core)     LOOM_WORKERS=N\n"
    "  --stats          print a per-kernel summary at exit: launches,  LOOM_STATS=counters\n"
    "                   time, instructions, SIMD efficiency, occupancy\n"
    "                   and its limiter, memory requests (bank\n"
    "                   conflicts, sectors per request), hottest lines\n"
    "                   (every instruction observed: slower)\n"
    "  --stats=brief    the summary without per-line and memory        LOOM_STATS=1\n"
    "                   counters (no slowdown)\n"
    "  --stats=launches =brief, and a line per launch (grid, block,    LOOM_STATS=launches\n"
    "                   time)\n"
    "  --stats=json FILE  the counters, per line too, as JSON          LOOM_STATS_JSON=FILE\n"
    "                   (docs/OBSERVE.md; FILE is made before the\n"
    "                   program runs)\n"
    "  --report FILE.html  the HTML lab report of the program's kernels (docs/REPORT.md):\n"
    "                   per-line heat, the CFG, lane activity, occupancy\n"
    "  --simt A,B,...   run the program once under each policy (a child each); --stats=json\n"
    "                   and --report then set them side by side\n"
    "  --deterministic  fixed schedule: identical results and output   LOOM_DETERMINISTIC=1\n"
    "                   run after run\n"
    "  --no-check       turn memory checking off (faster)              LOOM_NO_CHECK=1\n"
    "  --initcheck      report reads of device memory never written    LOOM_INITCHECK=1\n"
    "  --racecheck      report shared-memory races between threads     LOOM_RACECHECK=1\n"
    "  --device PRESET  the GPU to present (loom info --presets)       LOOM_DEVICE=PRESET\n"
    "  --timeout S      stop a kernel running longer than S seconds    LOOM_TIMEOUT=S\n"
    "                   and show where each warp is\n"
    "  --watchdog S     say once where the warps are when no CTA has   LOOM_WATCHDOG=S\n"
    "                   finished for S seconds (default 60; 0: never)\n"
    "  --simt POLICY    how warps run divergent code: pdom (default),  LOOM_SIMT=POLICY\n"
    "                   its, frontier, dwf[:policy=...,las=on|off,...],\n"
    "                   sbi, swi, sbi+swi (docs/SIMT.md)\n"
    "  --sched POLICY   how streams' work is scheduled: fifo (default,  LOOM_SCHED=POLICY\n"
    "                   CUDA's rules), serial, acs[:window=N] (out of\n"
    "                   order by data dependencies, N in flight), dag\n"
    "                   (GrCUDA's dependencies; docs/SCHEDULING.md);\n"
    "                   LOOM_SCHED_SUMMARY=1 prints what it found at exit\n"
    "  --sched-check    report kernels, copies and memsets of streams   LOOM_SCHED_CHECK=1\n"
    "                   that nothing orders and that use the same memory,\n"
    "                   one writing: data races in the program\n"
    "  --timing model   schedule the program's kernels in virtual time  LOOM_TIMING=model\n"
    "                   on the preset's SMs from what each CTA executed\n"
    "                   (the same on any machine) and print the summary\n"
    "                   line: makespan, critical path, SM utilisation\n"
    "  --dump-ptx DIR   write each PTX image the program loads to DIR  LOOM_DUMP_PTX=DIR\n"
    "                   under the name that reports cite\n"
    "  --debug          run under the debugger's (loom) prompt, as     LOOM_DEBUG=1\n"
    "                   loom debug does (help debug)\n"
    "  --batch FILE     with --debug: the debugger's commands from     LOOM_DEBUG_BATCH=FILE\n"
    "                   FILE, then the session ends\n"
    "  -ex COMMAND      with --debug: a debugger command to run first\n"
    "                   (repeatable)\n"
    "  -q, --quiet      no progress line for kernels that run for      LOOM_QUIET=1\n"
    "                   2 s or more (shown only on a terminal)\n"
    "  --trace FILE     write a Chrome trace (JSON) of the run at exit: LOOM_TRACE=FILE\n"
    "                   CUDA calls, streams, kernels, CTAs on workers\n"
    "                   (open it in ui.perfetto.dev or chrome://tracing)\n"
    "  --trace-cap N    keep at most N trace events (default 1000000) LOOM_TRACE_CAP=N\n"
    "  --trace-warps    per-warp slices in the trace, with divergence, LOOM_TRACE_WARPS=1\n"
    "                   reconvergence, barrier and exit events (every\n"
    "                   instruction observed: slower)\n"
    "\n"
    "compute-sanitizer's options, for scripts written for it (summary on stdout):\n"
    "  --tool T         memcheck (always on), initcheck or racecheck\n"
    "  --leak-check full  list device memory never freed, at exit\n"
    "  --error-exitcode N  exit with N when errors were found\n"
    "  --print-limit N  list at most N leaks\n"
    "\n"
    "Ctrl-C stops a running kernel and shows where each warp is (a second Ctrl-C ends\n"
    "the program). LOOM_LOG=1 traces the CUDA calls the program makes.\n"
    "Example:  loom exec --stats ./vector_add 1000000\n";

static const char debug_usage[] =
    "usage: loom debug FILE.ptx [loom run's options and arguments] [--batch FILE] [-ex COMMAND]...\n"
    "\n"
    "Runs a kernel as loom run does, under a gdb-like debugger: a (loom) prompt with line\n"
    "editing and history; breakpoints on PTX and CUDA lines (-lineinfo), kernels, functions and\n"
    "labels, with conditions on blocks, threads and registers; stepping by instruction or line,\n"
    "over calls, to a barrier, and backwards (reverse-step, reverse-continue); registers by\n"
    "their PTX names, per lane; memory of every space; watchpoints naming the lane that wrote;\n"
    "a stop at the faulting instruction of any fault; cuda-gdb's focus commands (cuda block\n"
    "(1,0,0) thread (33,0,0)). 'help' at the prompt lists the commands; docs/DEBUGGING.md walks\n"
    "through a session. Under the debugger the kernel runs deterministically on one worker.\n"
    "\n"
    "  --batch FILE     run the commands of FILE (each echoed after the prompt), then end the\n"
    "                   session, killing a kernel still stopped (gdb's -batch)\n"
    "  -ex COMMAND      run COMMAND first, before the batch file's (repeatable)\n"
    "\n"
    "Example:  loom debug saxpy.ptx --grid 4 --block 256 s32:1000 f32:2 in:f32:1000=iota \\\n"
    "              'inout:f32:1000=zero>y.out' -ex 'break saxpy.cu:7' -ex run\n"
    "\n"
    "Exit status: loom run's (0 when the kernel completed, 1 when it faulted, 130 when it was\n"
    "killed or the session quit while it ran, 2 for a wrong command line).\n";

static const char dap_usage[] =
    "usage: loom dap [--log FILE]\n"
    "\n"
    "Serves an editor the Debug Adapter Protocol on standard input and output. VS Code,\n"
    "Neovim (nvim-dap) and Emacs (dape, dap-mode) debug one loom run of a PTX kernel\n"
    "with it; the launch request names the PTX file and loom run's arguments:\n"
    "  {\"ptx\": \"saxpy.ptx\", \"args\": [\"--grid\", \"4\", \"--block\", \"256\", ...],\n"
    "   \"stopOnEntry\": false, \"cwd\": \"DIR\"}\n"
    "Breakpoints go on .cu lines (the PTX must carry .loc: nvcc -lineinfo) and .ptx lines,\n"
    "with conditions (blockIdx.x == 1 && threadIdx.x == 37); threads are the warps of the\n"
    "running blocks; scopes show the focused lane's registers (by their PTX names), the\n"
    "lanes, the warp, shared memory and the parameters; steps go forward and back\n"
    "(stepBack, reverseContinue); a fault stops with its report. The run's own output and\n"
    "kernel printf arrive as output events. docs/DEBUGGING.md shows the editors' settings.\n"
    "\n"
    "  --log FILE   write every message received and sent to FILE\n"
    "\n"
    "Example (VS Code's launch.json): {\"type\": \"loom\", \"request\": \"launch\",\n"
    "  \"ptx\": \"${workspaceFolder}/saxpy.ptx\", \"args\": [\"--grid\", \"4\", ...]}\n";

static const struct loom_command commands[] = {
    {"check", loom_cmd_check, "check PTX files and report errors as file:line:col", check_usage},
    {"info", loom_cmd_info, "show the host's topology and the GPU that Loom presents",
     info_usage},
    {"run", loom_cmd_run, "run one PTX kernel with arguments from the command line", run_usage},
    {"exec", loom_cmd_exec, "run an unmodified CUDA program (nvcc --cudart shared)", exec_usage},
    {"debug", loom_cmd_debug, "debug a PTX kernel at a gdb-like prompt", debug_usage},
    {"dap", loom_cmd_dap, "debug kernels from an editor (Debug Adapter Protocol on stdio)", dap_usage},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: loom COMMAND [ARGS...]\n"
            "       loom help COMMAND | --help | --version\n"
            "\n"
            "Loom is a GPU emulator for multicore CPUs: it runs PTX kernels and unmodified\n"
            "CUDA programs on CPU threads, with precise reports of faults.\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-7s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "'loom help COMMAND' shows a command's options; docs/USAGE.md has the full\n"
            "reference. Report bugs to %s\n",
            PACKAGE_BUGREPORT);
}

static void print_command_help(const struct loom_command *cmd)
{
    fputs(cmd->usage, stdout);
    if (cmd->usage == info_usage) {
        size_t count;
        const struct sched_preset *all = sched_preset_list(&count);
        printf("\nPresets (name, alias, the GPU whose figures it has):\n");
        for (size_t i = 0; i < count; i++)
            printf("  %-7s %-7s %s, %s %d.%d%s\n", all[i].name, all[i].alias ? all[i].alias : "",
                   all[i].model, all[i].architecture, all[i].props.cc_major,
                   all[i].props.cc_minor, &all[i] == sched_preset_default() ? " (default)" : "");
    }
}

static void print_version(void)
{
    const struct sched_preset *p = sched_preset_default();
    printf("loom %s\n", PACKAGE_VERSION);
    printf("C API %d.%d.%d; default device %s (%s, compute capability %d.%d)\n",
           LOOM_VERSION_MAJOR, LOOM_VERSION_MINOR, LOOM_VERSION_PATCH, p->name, p->props.name,
           p->props.cc_major, p->props.cc_minor);
}

static const struct loom_command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

/* One line naming the unknown command, and a hint: the closest command or --help. */
static int unknown_command(const char *name)
{
    const struct loom_command *best = NULL;
    unsigned best_d = 3;
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        unsigned d = loom_edit_distance(name, commands[i].name);
        if (d < best_d) {
            best_d = d;
            best = &commands[i];
        }
    }
    if (name[0] == '-')
        fprintf(stderr, "loom: unknown option '%s'; see 'loom --help'\n", name);
    else if (best)
        fprintf(stderr, "loom: '%s' is not a loom command; did you mean '%s'? (see 'loom --help')\n",
                name, best->name);
    else
        fprintf(stderr, "loom: '%s' is not a loom command; see 'loom --help'\n", name);
    return 2;
}

static int help_command(int argc, char **argv)
{
    if (argc < 3) {
        print_help(stdout);
        return 0;
    }
    const struct loom_command *cmd = find_command(argv[2]);
    if (cmd == NULL)
        return unknown_command(argv[2]);
    print_command_help(cmd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        print_version();
        return 0;
    }
    if (strcmp(name, "help") == 0)
        return help_command(argc, argv);

    const struct loom_command *cmd = find_command(name);
    if (cmd == NULL)
        return unknown_command(name);
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        print_command_help(cmd);
        return 0;
    }
    return cmd->run(argc - 1, argv + 1);
}
